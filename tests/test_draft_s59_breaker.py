"""A breaker's findings against session 59's drafter changes (issue 29), each the right value, with
controls: a rule inside a section leaked that section's words to the post; "***" under a paragraph
and "---" under a table were no rules; a caption's rate unit reached a memory column; llama.cpp's
"flash_attn = 1" was off; a language, firmware, a model or a script named with a release was guessed
as the engine; input, context and draft counts beside "greedy" were tokens generated; a draft size
of 0 drafted; a configuration's batch beside its layers became concurrency; an apostrophe ended a
chat prompt; compact timings slowed down quadratically and "1e400" crashed; a --device that names
no backend was dropped; "Mainline (vLLM 0.6.3)" named llama.cpp; "0.5*A100" was five A100s."""

from __future__ import annotations

import math

from benchbook.audit.draftcommand import command_lines
from benchbook.audit.draftnames import heading_engine, mentions
from benchbook.audit.draftwords import REQUEST_SETTINGS, config_settings, settings_in_words
from benchbook.audit.post import html_to_text
from benchbook.audit.toollines import server_timings
from drafting import conditions as _cond
from drafting import cpu_growth
from drafting import drafted as _drafted

_RULE_IN_SECTION = """\
# Two GPUs

## RTX 4090

| model | tok/s |
| --- | --- |
| Llama 3 8B | 140.5 |

## RTX 3090

Using Vulkan here.

---

| model | tok/s |
| --- | --- |
| Llama 3 8B | 100.5 |
"""


def test_a_rule_inside_a_section_parts_that_section_only(tmp_path):
    cf = _drafted(_RULE_IN_SECTION, tmp_path)
    rows = {c.value: _cond(cf, c) for c in cf.claims}
    assert "backend" not in rows[140.5]
    assert rows[100.5]["backend"] == "Vulkan"
    assert rows[100.5]["hardware"] == "NVIDIA GeForce RTX 3090"


def test_rules_as_commonmark_reads_them(tmp_path):
    """ "***" right under a paragraph line and "---" right under a table's last row are rules (only
    "---" and "===" underline a setext heading): the reply after the rule keeps its "median of 3
    runs" to itself, the first table states no statistic."""
    first = "# Thread\n\n| ctx | baseline tok/s |\n| --- | --- |\n| 512 | 38.65 |\n| 2048 | 37.13 |\n"
    second = (
        "Decode-only tok/s, median of 3 runs.\n\n| ctx | base |\n| --- | --- |\n"
        "| 512 | 38.48 |\n| 1024 | 31.5 |\n"
    )
    for text in (first + "\nSome words.\n***\n" + second, first + "---\n" + second):
        cf = _drafted(text, tmp_path)
        stats = {c.value: (_cond(cf, c).get("other") or {}).get("stat") for c in cf.claims}
        assert (stats[38.65], stats[38.48]) == (None, "median"), text


def test_a_caption_s_rate_unit_is_no_memory_column_s(tmp_path):
    """Under "Decode-only tok/s, …" a "RAM used" column of plain numbers is no rate: kept as the
    rows' condition, never a decode rate; the columns of rates still are."""
    text = (
        "Decode-only tok/s, median of 3 runs.\n\n| ctx | baseline | drafter | speedup | RAM used |\n"
        "| --- | --- | --- | --- | --- |\n| 512 | 38.48 | 68.54 | 1.78x | 9.1 |\n"
        "| 1024 | 30.48 | 60.54 | 1.99x | 9.3 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted(c.value for c in cf.claims) == [30.48, 38.48, 60.54, 68.54]
    assert {(_cond(cf, c).get("other") or {}).get("ram_used") for c in cf.claims} == {"9.1", "9.3"}
    assert [s.value for s in cf.statements] == [1.78, 1.99]


def test_config_and_log_flash_attention_written_as_one():
    out: list[tuple[str, object]] = []
    config_settings("llama_new_context_with_model: flash_attn = 1", out)
    assert out == [("flash_attn", True)]
    out = []
    config_settings('gpu_layers: 35\nbatch_size: 512\nn_ctx=0\n"context_length": 131072', out)
    assert out == [("offload.n_gpu_layers", 35), ("batch", 512)]


def test_a_configuration_s_batch_beside_its_layers_stays_llama_cpp_s_batch(tmp_path):
    text = "# Run on LocalAI\n\n```yaml\ngpu_layers: 35\nbatch_size: 512\n```\n\nIt ran at 40 tok/s.\n"
    cf = _drafted(text, tmp_path)
    (claim,) = cf.claims
    cond = _cond(cf, claim)
    assert cond["batch"] == 512 and "concurrency" not in cond


def test_token_counts_of_the_input_context_or_draft_beside_greedy_are_not_generated():
    def generated(text: str) -> list[object]:
        out: list[tuple[str, object]] = []
        settings_in_words(text, out)
        return [v for p, v in out if p == "tokens_generated"]

    assert generated("Settings: greedy, 8192 tokens ctx") == []
    assert generated("Input 2048 tokens, greedy decoding") == []
    assert generated("Prompt of 1024 tokens, greedy, 256 new tokens per run.") == [256]
    assert generated("Draft 16 tokens greedy, 256 tokens generated.") == [256]
    assert generated("greedy, 128 tokens.") == [128]  # controls
    assert generated("128 tokens greedy, target x") == [128]


def test_a_draft_size_of_zero_drafts_nothing_unless_another_row_says_none(tmp_path):
    text = (
        "| model | draft-n-max | T/s |\n| --- | --- | --- |\n"
        "| qwen2.5-32b | 0 | 31.2 |\n| qwen2.5-32b | 4 | 41.2 |\n"
    )
    cf = _drafted(text, tmp_path)
    rows = {c.value: _cond(cf, c) for c in cf.claims}
    assert rows[31.2]["decoding"] == "plain" and "block_max" not in rows[31.2]
    assert rows[41.2]["block_max"] == 4


def test_a_chat_prompt_keeps_its_apostrophe_and_shell_escaped_json_is_read():
    pat = next(p for p, what in REQUEST_SETTINGS if what == "prompt" and "role" in p.pattern)
    said = pat.search('{"role": "user", "content": "What\'s the capital of France?"}')
    assert said is not None and said.group("n") == "What's the capital of France?"
    escaped = pat.search('-d "{\\"role\\":\\"user\\",\\"content\\":\\"hi there\\"}"')
    assert escaped is not None and escaped.group("n") == "hi there"


def test_compact_timings_stay_linear_and_odd_counts_are_none():
    one = (
        '{"timings":{"prompt_n":12,"prompt_ms":95.5,"predicted_n":128,"predicted_ms":4096.0,"draft_n":210}} '
    )

    def run(n: int) -> None:
        from benchbook.audit.toollines import tool_results

        tool_results([(1, one * n)])

    assert cpu_growth(run, 200) < 8  # quadratic: 16 (the rate-line search per result, before)
    got = server_timings(
        [
            (
                1,
                '{"prompt_n": 1e400, "prompt_ms": 95.5, "predicted_n": -5, '
                '"predicted_ms": 10.0, "draft_n": -3}',
            )
        ]
    )
    assert [(r.metric, r.value, r.conditions) for r in got[1]] == [
        ("prompt_eval_ms", "95.5", {}),
        ("eval_ms", "10.0", {}),
    ]
    assert math.isfinite(float(got[1][0].value))


def test_a_device_that_names_no_backend_is_kept_as_written():
    (cmd,) = command_lines([(1, "lm_eval --model vllm --device cuda:0")])
    assert cmd.conditions["other"]["device"] == "cuda:0" and "backend" not in cmd.conditions
    (cmd,) = command_lines([(1, "llama-server -m x.gguf -dev CUDA0,Vulkan1")])
    assert cmd.conditions["other"]["dev"] == "CUDA0,Vulkan1"


def test_mainline_beside_another_engine_is_that_engine_s():
    assert heading_engine("Mainline (vLLM 0.6.3)") is None
    assert heading_engine("Mainline results (exllamav2)") is None
    assert heading_engine("Mainline (b5635)") == "llama.cpp"


def test_a_decimal_multiplier_is_no_count_of_devices():
    def machines(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("0.5*A100") == ["NVIDIA A100"]
    assert machines("speed is 1.3*H100") == ["NVIDIA H100"]
    assert machines("1.5x 3090") == ["NVIDIA GeForce RTX 3090"]
    assert machines("2x 3090") == ["2x NVIDIA GeForce RTX 3090"]


def test_a_break_inside_an_html_heading_is_one_heading():
    assert html_to_text("<html><body><h2>Setup<br>RTX 3090</h2><p>a<br>b</p></body></html>") == (
        "## Setup RTX 3090\n\na\nb\n"
    )

"""Kinds fixed in issue 29's session 59 (read from the thirty-sixth held-out set's misses, h426–h435,
once a thirty-seventh set replaced it as the clean one), each with controls: llama-server's
``timings`` object pasted as JSON lost its draft counts and its eval fields' tokens; a chat request's
user message was no prompt; a serving benchmark's summary pasted without a fence (its closing rule
making a setext heading) was read as a heading's prose; "* Mainline" over a table named no engine; a
"draft-n-max" column set no draft size, its "none" row no plain decoding, and a "draft rate" column
of fractions was no acceptance."""

from __future__ import annotations

from benchbook.audit.draftnames import heading_engine
from benchbook.audit.draftwords import REQUEST_SETTINGS
from benchbook.audit.post import blocks_of
from benchbook.audit.toollines import server_timings, tool_results
from drafting import conditions as _cond
from drafting import drafted as _drafted

_TIMINGS = """\
# Draft stats in the timings

```
$ curl -s http://localhost:8080/v1/chat/completions \\
    -d '{"max_tokens":128, "messages": [{"role": "system", "content": "be brief"},
    {"role": "user","content": "tell me about cats"}]}' | jq .timings

{
  "prompt_n": 12,
  "prompt_ms": 95.5,
  "prompt_per_token_ms": 7.958,
  "prompt_per_second": 125.65,
  "predicted_n": 128,
  "predicted_ms": 4096.0,
  "predicted_per_token_ms": 32.0,
  "predicted_per_second": 31.25,
  "draft_n": 210,
  "draft_n_accepted": 97
}
```
"""


def test_llama_server_timings_json_is_read_field_by_field_with_its_counts(tmp_path):
    """Each field of the timings object is a claim in the metric llama-server's own name gives
    (prompt_ms the prompt eval time, predicted_ms the eval time, draft_n/draft_n_accepted the draft's
    counts), predicted_n the tokens generated of the eval fields, prompt_n the prompt's tokens."""
    cf = _drafted(_TIMINGS, tmp_path)
    got = {(c.metric, c.value): c for c in cf.claims}
    assert sorted(got) == sorted(
        [
            ("prompt_eval_ms", 95.5),
            ("ms_per_token", 7.958),
            ("prefill_tps", 125.65),
            ("eval_ms", 4096.0),
            ("ms_per_token", 32.0),
            ("decode_tps", 31.25),
            ("draft_tokens", 210),
            ("accepted_tokens", 97),
        ]
    )
    eval_ms = _cond(cf, got[("eval_ms", 4096.0)])
    assert eval_ms["tokens_generated"] == 128
    assert _cond(cf, got[("accepted_tokens", 97)])["tokens_generated"] == 128
    prefill = _cond(cf, got[("prefill_tps", 125.65)])
    assert prefill["other"]["prompt_tokens"] == 12 and "tokens_generated" not in prefill
    assert _cond(cf, got[("ms_per_token", 32.0)])["other"]["phase"] == "eval"
    assert _cond(cf, got[("ms_per_token", 7.958)])["other"]["phase"] == "prompt eval"
    # the chat body's user message is the prompt (not the system message)
    assert {_cond(cf, c).get("prompt") for c in cf.claims} == {"tell me about cats"}


def test_compact_timings_of_two_requests_on_one_line_keep_their_own_counts():
    """Compact JSON (no jq) with two requests' objects on one line: each object's fields with its own
    predicted_n; a zero time (a phase that did not run) is no result; one lone field is no object."""
    line = (
        '{"timings":{"prompt_n":0,"prompt_ms":0,"predicted_n":50,"predicted_ms":1000.5,'
        '"draft_n":40}} {"timings":{"predicted_n":20,"predicted_ms":300.0,"draft_n_accepted":7}}'
    )
    got = server_timings([(3, line)])[3]
    assert [(r.metric, r.value, r.conditions.get("tokens_generated")) for r in got] == [
        ("eval_ms", "1000.5", 50),
        ("draft_tokens", "40", 50),
        ("eval_ms", "300.0", 20),
        ("accepted_tokens", "7", 20),
    ]
    assert line[got[0].start : got[0].end] == "1000.5"
    assert server_timings([(1, '  "predicted_ms": 12.5,')]) == {}
    # the pair reader still reads a lone field as a time, as before
    assert [(r.metric, r.value) for r in tool_results([(1, '  "predicted_ms": 12.5,')])] == [
        ("duration", "12.5")
    ]


def test_a_chat_request_prompt_is_its_user_message_only():
    pat = next(p for p, what in REQUEST_SETTINGS if what == "prompt" and "role" in p.pattern)
    assert pat.search('{"role": "user", "content": "hi there"}').group("n") == "hi there"
    assert pat.search('{"role":"assistant","content":"hello"}') is None
    assert pat.search('{"role": "system", "content": "be brief"}') is None


_SUMMARY = """\
# Question about the benchmark

I want to know the difference, like below:

============ Serving Benchmark Result ============
Successful requests:                     100
Benchmark duration (s):                  50.25
Request throughput (req/s):              1.99
Output token throughput (tok/s):         410.50
---------------Time to First Token----------------
Mean TTFT (ms):                          120.75
P99 TTFT (ms):                           400.25
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          22.40
==================================================

Why is it so?
"""


def test_a_serving_summary_pasted_without_a_fence_is_read_as_its_tool_prints_it(tmp_path):
    """The closing rule made the summary a setext heading: each line was a heading's prose, the
    TTFT read as a rate.  Read as a code block, each line is its label's metric and statistic."""
    kinds = [(b.kind, b.heading) for b in blocks_of(_SUMMARY)]
    assert ("code", False) in kinds
    cf = _drafted(_SUMMARY, tmp_path)
    got = {(c.metric, c.value, c.unit) for c in cf.claims}
    assert got == {
        ("duration", 50.25, "s"),
        ("request_throughput", 1.99, "req/s"),
        ("throughput", 410.5, "tok/s"),
        ("ttft", 120.75, "ms"),
        ("ttft", 400.25, "ms"),
        ("tpot", 22.4, "ms"),
    }
    stats = {c.value: _cond(cf, c)["other"]["stat"] for c in cf.claims if c.metric == "ttft"}
    assert stats == {120.75: "mean", 400.25: "p99"}


def test_a_setext_heading_of_prose_stays_a_heading():
    """Control: a real setext heading (one line of words over its rule) and a paragraph of label
    lines with no banner are not pasted output."""
    assert [(b.kind, b.heading) for b in blocks_of("Results\n=======\n\nSpeed: 40 tok/s\n")] == [
        ("text", True),
        ("text", False),
    ]
    assert [b.kind for b in blocks_of("Model:  Llama 3\nSpeed:  40 tok/s\n")] == ["text"]


def test_mainline_as_a_heading_names_upstream_llama_cpp():
    assert heading_engine("* Mainline") == "llama.cpp"
    assert heading_engine("### Mainline results") == "llama.cpp"
    assert heading_engine("Mainline (b5635)") == "llama.cpp"
    assert heading_engine("Mainline PP performance drops") is None  # a sentence, not a label
    assert heading_engine("Results on the main line") is None


_DRAFT_N_MAX = """\
# MTP drafter sizes

`llama-server -m gemma-4-12B-it-Q4_K_M.gguf -md gemma-4-12B-it-Q8_0-MTP.gguf --spec-type draft-mtp \
--spec-draft-n-max 1 -ngl 99`:

| draft-n-max | T/s | draft rate |
|-------------|-----|------------|
| none        | 36.00 | N/A      |
| 1           | 47.77 | 0.47     |
| 4           | 41.86 | 0.20     |
"""


def test_a_draft_n_max_column_sets_each_row_and_its_none_row_decodes_plainly(tmp_path):
    """ "draft-n-max" is llama-server's --spec-draft-n-max: each row's block_max (not the command's
    1); its "none" row drafts nothing (plain decoding, no draft size from the command); a "draft
    rate" column of fractions is the acceptance rate."""
    cf = _drafted(_DRAFT_N_MAX, tmp_path)
    rates = {c.value: _cond(cf, c) for c in cf.claims if c.metric == "decode_tps"}
    assert rates[36.0]["decoding"] == "plain" and "block_max" not in rates[36.0]
    assert (rates[47.77]["block_max"], rates[41.86]["block_max"]) == (1, 4)
    assert rates[41.86]["decoding"] == "draft-self"
    accepted = {
        (c.value, c.unit, _cond(cf, c)["block_max"]) for c in cf.claims if c.metric == "acceptance_rate"
    }
    assert accepted == {(0.47, "ratio", 1), (0.2, "ratio", 4)}


_TWO_REPLIES = """\
# Add a drafter for the model

Drafter `org/drafter_block7`, target `org/gemma-4-12B-it-8bit`, greedy, 128 tokens.

| ctx | baseline tok/s | drafter tok/s | speedup |
| --- | --- | --- | --- |
| 512 | 38.65 | 92.62 | 2.40x |
| 2048 | 37.13 | 72.38 | 1.95x |

---

Decode-only tok/s, median of 3 runs, 128 tokens greedy.

| ctx | baseline | bf16 drafter | 8-bit drafter | bf16 | 8-bit |
| --- | --- | --- | --- | --- | --- |
| 512 | 38.48 | 68.54 | 87.28 | 1.78x | 2.27x |
| 2048 | 30.56 | 73.51 | 80.92 | 2.41x | 2.65x |
"""


def test_a_rule_between_replies_keeps_the_second_reply_s_setup_its_own(tmp_path):
    """ "median of 3 runs" under the rule is the second reply's: the first table (above the rule)
    states no statistic; the caption's "tok/s," (a comma after the unit) gives the second table's
    columns of plain numbers their unit, its columns of multiples no metric of their own; "greedy,
    128 tokens" and "128 tokens greedy" are the tokens each run generated."""
    cf = _drafted(_TWO_REPLIES, tmp_path)
    first = [c for c in cf.claims if c.value in (38.65, 92.62)]
    second = [c for c in cf.claims if c.value in (38.48, 68.54, 87.28)]
    assert len(first) == 2 and len(second) == 3
    assert all("stat" not in (_cond(cf, c).get("other") or {}) for c in first)
    assert all(_cond(cf, c)["other"]["stat"] == "median" for c in second)
    assert {c.unit for c in second} == {"tok/s"} and {c.metric for c in second} == {"decode_tps"}
    assert {_cond(cf, c)["tokens_generated"] for c in first + second} == {128}
    assert _cond(cf, second[0])["decoding"] == "plain"


def test_a_rule_under_a_paragraph_is_a_setext_heading_not_a_rule():
    from benchbook.audit.draftcontext import _ruled
    from benchbook.audit.post import read_post

    post = read_post("Intro text\n\n---\n\nMore\nTitle\n---\n\nEnd\n")
    assert _ruled(post, 1, 5) is True  # the blank line above the "---": a rule
    assert _ruled(post, 6, 9) is False  # "Title" over "---": its underline


_LLCUDA = """\
<!DOCTYPE html>
<html><head><title>Benchmarks - fastbox</title></head><body>
<article>
<h1>Performance Benchmarks</h1>
<p>Benchmarks for fastbox v2.1.0 on Tesla T4 GPUs, with CUDA 12.2 and fastbox v2.1.0.</p>
<h2>Summary</h2>
<table><tr><th>Model</th><th>Tokens/sec</th></tr><tr><td>Gemma 3-1B</td><td>134.3</td></tr></table>
<h2>Gemma 3-1B (Verified)</h2>
<h3>Gemma run</h3>
<pre><code>model = "unsloth/gemma-3-1b-it-GGUF:gemma-3-1b-it-Q4_K_M.gguf"
gpu_layers = 35
ctx_size = 2048
batch_size = 512
ubatch_size = 128
</code></pre>
<h3>Results</h3>
<table><tr><th>Metric</th><th>Value</th></tr><tr><td>P95 Latency</td><td>725 ms</td></tr></table>
<h2>Offload</h2>
<p>Recommendation: always use full offload (<code>gpu_layers=99</code>).</p>
<table><tr><th>GPU Layers</th><th>Tokens/sec</th></tr><tr><td>10</td><td>45.3</td></tr>
<tr><td>20</td><td>92.1</td></tr></table>
</article></body></html>
"""


def test_an_html_page_s_headings_make_sections_and_a_config_block_sets_its_own(tmp_path):
    """An HTML page's h1–h6 are headings as Markdown's are ("## Results"): the configuration block
    of one section (``gpu_layers = 35``, ``ctx_size``, ``batch_size`` beside ``ubatch_size``: llama.cpp's
    -b, no concurrency) holds for that section's results, not for the summary above it; the tool the
    page names twice with a release ("fastbox v2.1.0"), no engine it knows, is the guessed engine and
    the release its build."""
    from benchbook.audit.post import html_to_text

    text = html_to_text(_LLCUDA)
    assert "## Summary" in text.splitlines() and "### Results" in text.splitlines()
    post = tmp_path / "page.html"
    post.write_text(_LLCUDA, encoding="utf-8")
    from benchbook.audit import schema
    from benchbook.audit.draftfile import draft_post

    out, _, _ = draft_post(post)
    cf = schema.load(out)
    by_value = {c.value: _cond(cf, c) for c in cf.claims}
    p95 = by_value[725]
    assert (p95["offload"]["n_gpu_layers"], p95["ctx"], p95["batch"], p95["ubatch"]) == (35, 2048, 512, 128)
    assert "concurrency" not in p95
    assert (p95["engine"], p95["build"]) == ("fastbox", "v2.1.0")
    # (the summary above has no layer count: the section's 35 and the recommendation's 99 differ)
    assert "offload" not in by_value[134.3]
    assert by_value[45.3]["offload"]["n_gpu_layers"] == 10


def test_config_settings_read_llama_cpp_keys_only_where_they_are_llama_cpp_s():
    from benchbook.audit.draftwords import config_settings

    def said(text: str) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = []
        config_settings(text, out)
        return out

    assert said(
        "llm = Llama(model_path='m.gguf', n_gpu_layers=40, n_ctx=4096, n_batch=256, flash_attn=True)"
    ) == [
        ("offload.n_gpu_layers", 40),
        ("ctx", 4096),
        ("batch", 256),
        ("flash_attn", True),
    ]
    assert said("batch_size = 32\nmax_tokens = 256\n") == []  # a serving script's batch: no -b
    assert said("n_gpu_layers = -1\n") == []  # "all": no count
    assert said("n_ctx = 2048\nn_ctx = 4096\n") == []  # two values: neither


def test_a_versioned_tool_is_an_engine_only_when_named_twice_and_unknown():
    from benchbook.audit.draftcontext import _versioned_tool

    assert _versioned_tool("Benchmarks for fastbox v2.1.0. Built with fastbox v2.1.0.") == (
        "fastbox",
        "v2.1.0",
    )
    assert _versioned_tool("Benchmarks for fastbox v2.1.0 on a T4.") is None  # named once
    assert _versioned_tool("Built with cuda v12.2 and cuda v12.2 again.") is None  # a toolkit
    assert _versioned_tool("foo v1.0 and bar v2.0, foo and bar") is None  # two tools
    # a breaker's: a language, firmware, a model, a script, no sentence about a benchmark
    assert _versioned_tool("a load tester in go v1.22.1 benchmark. Let's go through it") is None
    assert _versioned_tool("Tested on firmware v1.10.2; the firmware is new") is None
    assert _versioned_tool("llava v1.6 benchmark results. llava v1.6 34B") is None
    assert _versioned_tool("bench script v2.0 (the script measured 40 tok/s)") is None
    assert _versioned_tool("We use zed v1.0 for chat. zed is nice.") is None  # no benchmark words
    # a release after a word of prose names no tool ("compatible with v2.1.0")
    assert _versioned_tool(
        "Benchmarks of fastbox v2.1.0. The v2.0.6 binaries are compatible with v2.1.0. fastbox"
    ) == (
        "fastbox",
        "v2.1.0",
    )


_SERVER_LOG = """\
# MTP acceptance is low

### Name and Version

version: 0.1.0-dev (build 10444, commit 037f2f344)

```shell
llama-server -m Qwen3.8-27B-Q4_K_M.gguf --spec-draft-model mtp-Qwen3.8-27B-Q4_0.gguf --device Vulkan0 -ngl 99
```

```
1.33.700.364 I slot print_timing: id  0 | task 0 | n_gen =    100, tg =  21.82 t/s, tg_3s =  22.04 t/s
1.38.855.987 I slot print_timing: id  0 | task 0 | eval time = 9692.30 ms / 213 tokens (45.72 ms per token, \
21.87 tokens per second)
1.38.856.530 I slot      release: id  0 | task 0 | stop processing: n_tokens = 24631, truncated = 0
```
"""


def test_a_server_log_with_a_release_line_is_log_output_and_its_progress_line_is_read(tmp_path):
    """A log whose "slot release:" line (no "_" in its function) made the run a table of columns
    "task 0" …: read line by line, its progress line gives tg over the tokens so far and tg_3s over
    the last 3 s; ``--version``'s new print is the build, ``--device Vulkan0`` the backend."""
    assert [b.kind for b in blocks_of(_SERVER_LOG)].count("table") == 0
    cf = _drafted(_SERVER_LOG, tmp_path)
    rates = {c.value: _cond(cf, c) for c in cf.claims if c.metric == "decode_tps"}
    assert set(rates) == {21.82, 22.04, 21.87}
    assert rates[21.82]["tokens_generated"] == 100
    assert (rates[22.04]["other"]["window"], rates[22.04]["other"]["n_gen"]) == ("last 3 s", 100)
    assert rates[21.87]["tokens_generated"] == 213
    assert {(c["build"], c["backend"]) for c in rates.values()} == {("10444 (037f2f344)", "Vulkan")}


def test_a_device_flag_names_the_backend_of_one_kind_of_device_only():
    from benchbook.audit.draftcommand import command_lines

    def backend(line: str) -> object:
        (cmd,) = command_lines([(1, line)])
        return cmd.conditions.get("backend")

    assert backend("llama-server -m x.gguf --device Vulkan0 -ngl 99") == "Vulkan"
    assert backend("llama-server -m x.gguf -dev CUDA0,CUDA1") == "CUDA"
    assert backend("llama-server -m x.gguf -dev CUDA0,Vulkan1") is None  # two backends: neither
    # (llama.cpp's common/arg.cpp: "--device none" = don't offload, the CPU runs it all; session 70)
    assert backend("llama-bench -m x.gguf -dev none") == "CPU"
    assert backend("llama-bench -m x.gguf -dev npu") is None


def test_a_count_written_with_an_asterisk_and_a_chinese_word_after_a_data_centre_part():
    """ "4 * L40能跑吗" (a count with "*", a Chinese word glued after the name) names 4x NVIDIA L40;
    a product of numbers ("2 * 350 W") names no machine."""
    from benchbook.audit.draftnames import mentions

    def machines(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("想问下4 * L40能跑吗") == ["4x NVIDIA L40"]
    assert machines("在A100上跑") == ["NVIDIA A100"]
    assert machines("2*3090") == ["2x NVIDIA GeForce RTX 3090"]
    assert machines("costs 2 * 350 W") == []
    assert machines("H100x") == []


def test_a_statement_whose_recompute_read_nothing_rests_on_what_it_cites(tmp_path):
    """The audit page wrote "rests on ;" for a statement whose recompute read no claim (a new user's
    report): it names what the statement cites instead, and "no claim of the file" where it cites
    none."""
    from benchbook.audit import page, run
    from benchbook.audit.verdicts import Here

    claims = tmp_path / "c.yaml"
    claims.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\nclaims:\n"
        "  - {id: a, metric: decode_tps, value: 40, unit: tok/s, conditions: {engine: llama.cpp}}\n"
        "  - {id: b, metric: decode_tps, value: 20, unit: tok/s, conditions: {engine: llama.cpp}}\n"
        "statements:\n  - {id: s, kind: ratio, statement: 2x, of: [a, b], value: 2, unit: x}\n",
        encoding="utf-8",
    )
    a = run.audit_file(claims, here=Here())
    read_nothing = [v.model_copy(update={"evidence": []}) if v.id == "s" else v for v in a.verdicts]
    text = page.render(a.claims, read_nothing, "c.yaml")
    assert 'rests on <a href="#v-a">a</a>, <a href="#v-b">b</a>;' in text
    assert "rests on ;" not in text
    no_file = page._rests_on([v for v in read_nothing if v.id == "s"], page.anchors(["s"]), cf=None)
    assert "rests on no claim of the file;" in no_file


_TWO_ENGINES = """\
# llama.cpp vs vLLM on a 4090

I ran `llama-bench -m qwen2.5-7b-q4_k_m.gguf -ngl 99 -fa 1 -t 8` and vLLM's benchmark.

| Engine | Model | tok/s |
|---|---|---|
| llama.cpp | Qwen2.5-7B Q4_K_M | 120.5 |
| vLLM | Qwen2.5-7B AWQ | 98.2 |
"""


def test_a_command_s_settings_are_its_own_engine_s_rows_only(tmp_path):
    """A new user's report: the llama-bench command's -ngl, -fa, -t and its file's quant were given to
    the table's vLLM row (hiding that the two rows ran different setups); they are the llama.cpp
    row's only, and the vLLM row's model cell "Qwen2.5-7B AWQ" gives its own quant."""
    cf = _drafted(_TWO_ENGINES, tmp_path)
    rows = {c.value: _cond(cf, c) for c in cf.claims}
    lcpp, vllm = rows[120.5], rows[98.2]
    assert (lcpp["engine"], lcpp["quant"], lcpp["offload"]["n_gpu_layers"], lcpp["flash_attn"]) == (
        "llama.cpp",
        "Q4_K_M",
        99,
        True,
    )
    assert lcpp["other"]["t"] == 8
    assert (vllm["engine"], vllm["model"], vllm["quant"]) == ("vLLM", "Qwen2.5-7B", "AWQ")
    assert "offload" not in vllm and "flash_attn" not in vllm and "t" not in vllm.get("other", {})


def test_one_engine_s_table_keeps_the_command_s_settings_on_its_group(tmp_path):
    """Control: a table whose rows are all the command's engine keeps the settings shared."""
    text = _TWO_ENGINES.replace("| vLLM | Qwen2.5-7B AWQ | 98.2 |", "| llama.cpp | Qwen2.5-7B Q8_0 | 98.2 |")
    cf = _drafted(text, tmp_path)
    assert [(_cond(cf, c)["offload"]["n_gpu_layers"], _cond(cf, c)["flash_attn"]) for c in cf.claims] == [
        (99, True),
        (99, True),
    ]
    assert {_cond(cf, c)["quant"] for c in cf.claims} == {"Q4_K_M", "Q8_0"}
    drafted = (tmp_path / "post.claims.yaml").read_text(encoding="utf-8")
    assert "offload: {n_gpu_layers: 99}" in drafted.split("table:")[0]  # on the group, not each row


def test_a_command_s_model_and_sampling_hold_for_another_engine_s_runs_of_the_same_commands(tmp_path):
    """Control of the rule above: what a comparison's runs share (the model, the sampling) stays with
    the other engine's result; only the command's engine's own settings (-ngl, its file's quant) go."""
    text = (
        "# vLLM vs SGLang\n\nSGLang 0.4.3 gave 71.1 it/s with the same command.\n\n"
        "```\nlm_eval --model vllm --model_args pretrained=Qwen/Qwen2-1.5B-Instruct "
        "--gen_kwargs temperature=0 --batch_size auto\n```\n"
    )
    cf = _drafted(text, tmp_path)
    (claim,) = [c for c in cf.claims if c.value == 71.1]
    cond = _cond(cf, claim)
    assert cond["engine"] == "SGLang" and cond["model"] == "Qwen2-1.5B-Instruct"


def test_a_run_to_run_spread_is_a_variation_not_a_share():
    from benchbook.audit.draftprose import metric_of

    assert metric_of("%", "Run-to-run spread was under ") == "variation"
    assert metric_of("%", "very stable (CV=") == "cv"
    assert metric_of("%", "the noise was about ") == "variation"
    assert metric_of("%", "GPU utilization reached ") == "gpu_utilization"  # controls
    assert metric_of("%", "it used ") == "share"


def test_a_comparison_of_two_engines_does_not_call_the_quant_the_one_difference(tmp_path):
    """A new user's report: "vLLM AWQ vs llama.cpp Q4_K_M" noted "compares quant … (the one condition
    stated differently)" though the engines differ too; the note says both."""
    from benchbook.audit import run
    from benchbook.audit.verdicts import Here

    claims = tmp_path / "c.yaml"
    claims.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\nclaims:\n"
        "  - {id: a, metric: decode_tps, value: 120, unit: tok/s,\n"
        "     conditions: {engine: llama.cpp, quant: Q4_K_M}}\n"
        "  - {id: b, metric: decode_tps, value: 60, unit: tok/s, conditions: {engine: vLLM, quant: AWQ}}\n"
        "  - {id: c, metric: decode_tps, value: 60, unit: tok/s,\n"
        "     conditions: {engine: llama.cpp, quant: Q8_0}}\n"
        "statements:\n"
        "  - {id: s, kind: ratio, statement: 2x, of: [a, b], value: 2, unit: x}\n"
        "  - {id: t, kind: ratio, statement: 2x, of: [a, c], value: 2, unit: x}\n",
        encoding="utf-8",
    )
    got = {v.id: v for v in run.audit_file(claims, here=Here()).verdicts}
    assert "compares quant Q4_K_M (a) vs AWQ (b), and builds: llama.cpp vs vLLM differ too" in got["s"].notes
    assert not any("the one condition stated differently" in n for n in got["s"].notes)
    assert "compares quant Q4_K_M (a) vs Q8_0 (c) (the one condition stated differently)" in got["t"].notes


def test_a_comment_above_a_section_survives_a_redraft(tmp_path):
    """Session 57's gap: a comment the user wrote above `claims:` (under the drafter's `draft:`
    block) or above `statements:` (under the last guess) was dropped when the post was drafted
    again; each stays above its key, over any number of re-drafts."""
    from benchbook.audit.draftfile import draft_post

    post = tmp_path / "post.md"
    post.write_text(
        "# Run\n\nPlain decoding ran at 21 tok/s.\n\nWith a draft model it ran at 42 tok/s, 2x faster.\n"
    )
    out, _, _ = draft_post(post)
    text = out.read_text(encoding="utf-8")
    text = text.replace("\nclaims:\n", "\n# checked against the log\nclaims:\n", 1)
    text = text.replace("\ndraft:\n", "\n# drafted on Monday\ndraft:\n", 1)
    assert "\nstatements:\n" in text  # "2x faster": a relation to review
    text = text.replace("\nstatements:\n", "\n\n# the ratio is the author's\n\nstatements:\n", 1)
    out.write_text(text, encoding="utf-8")
    for _ in range(2):
        draft_post(post)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[lines.index("claims:") - 1] == "# checked against the log"
    assert lines[lines.index("draft:") - 1] == "# drafted on Monday"
    assert lines[lines.index("statements:") - 1] == "# the ratio is the author's"
    assert sum(line.startswith("# checked against the log") for line in lines) == 1

"""Kinds a new user's own post showed the drafter misreading (issue 29, session 52), each fixed as a
kind with controls: a "2x faster" tied to the memory of the next line, a table's plain rows given
the speculative command's draft settings, a row label that only says the decoding kept as a second
condition, acceptance counts written out beside their rate ("about 72% (181 of 250 drafted tokens
accepted)") drafted as a second claim and their numbers read as a draft size, a laptop's "16 GB
RAM" drafted as a claim, and a command's lower-case file name beside the post's own spelling."""

from __future__ import annotations

import json
from pathlib import Path

from benchbook.audit import command
from benchbook.audit.draftfile import draft_post
from benchbook.audit.draftprose import numbers
from benchbook.audit.draftwords import accept_counts, settings_in_words
from drafting import conditions as _cond
from drafting import drafted as _drafted

#: the speculative command of the post (one line in it)
_SPEC = (
    "llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -md qwen2.5-0.5b-instruct-q8_0.gguf --draft-max 8 "
    "--draft-min 1 -c 4096 -t 4 --temp 0"
)
#: the new user's post (session 51), as written
_LAPTOP = """# Speculative decoding on my old laptop

I tested Qwen2.5-7B-Instruct Q4_K_M on a ThinkPad T480 (i5-8350U, 4 cores, 16 GB RAM) with
llama.cpp build b4500, CPU only. Each number is the mean of 3 runs.

Plain decoding server:

```
llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -c 4096 -t 4 --temp 0 --port 8080
```

Speculative decoding with the 0.5B model as draft:

```
{spec}
```

| Setup              | Prompt processing (tok/s) | Generation (tok/s) |
|--------------------|---------------------------|--------------------|
| Plain              | 45.2                      | 6.1                |
| Speculative (n=8)  | 44.8                      | 12.9               |

The draft acceptance rate was about 72% (181 of 250 drafted tokens accepted).

Speculative decoding is 2x faster than plain decoding for code, and prompt processing is
unchanged. Memory use went from 4.9 GiB to 5.6 GiB.
""".replace("{spec}", _SPEC)


def _by_value(cf):
    return {c.value: c for c in cf.claims}


def test_a_speed_statement_relates_the_tables_rates_not_the_next_lines_memory(tmp_path):
    """ "2x faster than plain decoding" was tied to the two memory sizes of the next sentence (the
    table's rows differed in two conditions, the memory claims in one): the audit called the post
    a major overstatement.  Its sides are the table's generation rates."""
    cf = _drafted(_LAPTOP, tmp_path)
    (s,) = cf.statements
    by_value = _by_value(cf)
    assert s.of == [by_value[12.9].id, by_value[6.1].id]
    assert s.value == 2


def test_the_audit_of_the_post_finds_no_overstatement(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    post = tmp_path / "laptop.md"
    post.write_text(_LAPTOP, encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "out")]) == 0
    records = {
        r["id"]: r
        for r in map(json.loads, (tmp_path / "out" / "laptop.claims.jsonl").read_text().splitlines())
    }
    (s,) = [r for r in records.values() if r["kind"] == "statement"]
    # 12.9 / 6.1 at the stated precision: 2.089–2.140; "2x" stands for 1.95–2.05 (``precision``)
    assert s["recomputed"] == "2.089–2.140"
    assert s["severity"] == "minor understatement"
    (rate,) = [r for r in records.values() if r["text"].startswith("acceptance_rate")]
    assert not any(q["kind"] == "unsupported" for q in rate["qualifiers"])  # its counts are stated


def test_plain_rows_under_a_speculative_command_draft_nothing(tmp_path):
    """The table under the speculative command: its plain rows have no draft model nor draft size
    (they moved to the speculative rows), and the label "Plain" is the decoding only."""
    cf = _drafted(_LAPTOP, tmp_path)
    by_value = _by_value(cf)
    for plain in (45.2, 6.1):
        got = _cond(cf, by_value[plain])
        assert got["decoding"] == "plain"
        assert "block_max" not in got and "draft_model" not in got.get("other", {})
        assert "setup" not in got.get("other", {})
    for spec in (44.8, 12.9):
        got = _cond(cf, by_value[spec])
        assert got["decoding"] == "speculative" and got["block_max"] == 8
        assert got["other"]["draft_model"] == "qwen2.5-0.5b-instruct"
        assert got["other"]["setup"] == "n=8"  # the remark beyond the decoding, kept


def test_a_rows_remark_of_its_draft_size_is_its_block_max(tmp_path):
    """ "Baseline (no spec)": plain, its remark says so again; "Speculative (k=4)": the remark is
    the row's draft size, no remark kept."""
    text = "| Config | tok/s |\n|---|---|\n| Baseline (no spec) | 25.3 |\n| Speculative (k=4) | 31.9 |\n"
    cf = _drafted(text, tmp_path)
    by_value = _by_value(cf)
    assert _cond(cf, by_value[25.3]) == {"decoding": "plain"}
    # "k=4" is the row's draft size (``header_settings``), not a remark
    assert _cond(cf, by_value[31.9]) == {"decoding": "speculative", "block_max": 4}


def test_acceptance_counts_beside_their_rate_are_its_counts(tmp_path):
    cf = _drafted(_LAPTOP, tmp_path)
    (rate,) = [c for c in cf.claims if c.metric == "acceptance_rate"]
    assert rate.value == 72 and rate.counts is not None
    assert (rate.counts.k, rate.counts.n) == (181, 250)
    assert not any(c.statement for c in cf.claims)  # no claim of the counts apart
    assert all(_cond(cf, c).get("block_max") != 250 for c in cf.claims)  # no draft size of 250


_COUNTS = """# Acceptance

llama.cpp b4500 with speculative decoding on an RTX 4090.

MTP Stats: Draft acceptance rate was super high at 62.7% (333 drafts accepted / 531 generated).

Acceptance aggregate 0.69 (1860/2696 from server logs).

We saw 438/438 draft tokens accepted.

Acceptance was 90% (181 of 250 drafted tokens accepted).
"""


def test_acceptance_counts_in_other_wordings(tmp_path):
    """The corpus's wordings (h-sets' expected files): "(333 drafts accepted / 531 generated)" are
    the rate's counts and 531 no tokens generated; "(1860/2696 …)" after a fraction; counts alone
    are a claim of the counts; counts in parentheses right after a rate are its counts even where
    they do not give it (181 / 250 is 72.4%, not 90%: the audit then calls the 90% wrong)."""
    cf = _drafted(_COUNTS, tmp_path)
    got = {
        c.source_line: (c.value, (c.counts.k, c.counts.n) if c.counts else None)
        for c in cf.claims
        if c.value is not None
    }
    assert got[5] == (62.7, (333, 531))
    assert got[7] == (0.69, (1860, 2696))
    assert got[11] == (90, (181, 250))
    alone = {c.source_line: (c.counts.k, c.counts.n) for c in cf.claims if c.value is None}
    assert alone == {9: (438, 438)}
    assert all("tokens_generated" not in _cond(cf, c) for c in cf.claims)


def test_accept_counts_reads_the_phrases_not_settings():
    assert accept_counts("about 72% (181 of 250 drafted tokens accepted).") == [(11, 45, 181, 250)]
    assert accept_counts("(accepted 170 / drafted 200)") == [(1, 27, 170, 200)]
    assert accept_counts("n_drafted = 376, n_accept = 107") == [(0, 31, 107, 376)]
    assert accept_counts("1,376 accepted / 2,433 generated") == [(0, 32, 1376, 2433)]
    # controls: llama.cpp's n_draft is the draft size; more accepted than drafted is no pair
    assert accept_counts("n_draft = 5, n_accept = 3") == []
    assert accept_counts("300 of 250 drafted tokens accepted") == []
    found: list = []
    settings_in_words("181 of 250 drafted tokens accepted, 333 accepted / 531 generated", found)
    assert found == []
    settings_in_words("5 draft tokens, 512 tokens generated", found)  # control: settings
    assert found == [("tokens_generated", 512), ("block_max", 5)]


def test_a_laptops_ram_in_its_spec_list_is_no_claim(tmp_path):
    """ "ThinkPad T480 (i5-8350U, 4 cores, 16 GB RAM)": the machine's RAM beside its CPU (SOURCES.md:
    specs are the systems, not claims); a size used is one (control)."""
    cf = _drafted(_LAPTOP, tmp_path)
    assert not [c for c in cf.claims if c.metric in ("ram", "ram_peak")]
    used = "# Test\n\nOn the i5-8350U the run used 5.2 GB RAM at its peak.\n"
    assert [(c.metric, c.value) for c in _drafted(used, tmp_path).claims] == [("ram_peak", 5.2)]


def test_a_commands_file_name_takes_the_posts_spelling(tmp_path):
    """The command's "qwen2.5-7b-instruct-q4_k_m.gguf" beside the prose's "Qwen2.5-7B-Instruct
    Q4_K_M": one model and one quant, as the post writes them; a draft model the post never
    writes stays as its file says (control)."""
    cf = _drafted(_LAPTOP, tmp_path)
    models = {_cond(cf, c)["model"] for c in cf.claims}
    quants = {_cond(cf, c)["quant"] for c in cf.claims}
    assert models == {"Qwen2.5-7B-Instruct"} and quants == {"Q4_K_M"}


def test_clock_prefixed_log_lines_are_read_as_their_messages(tmp_path):
    """A benchmark's log lines each opened by Go's clock ("2024/07/11 23:37:56 Benchmark Duration
    (sec): 120.10", corpus h335) are read as the lines without it; control: the same lines bare."""
    body = (
        "Benchmark Duration (sec): 120.10\n"
        "Request throughput (req/sec): 3.014\n"
        "Generation throughput (tokens/second) avg: 12.057\n"
        "End to End Latency (ms) p50: 328.000\n"
    )
    stamped = "".join(f"2024/07/11 23:37:56 {t}\n" for t in body.splitlines())
    bracketed = "".join(f"[2024-07-11 23:37:56,123] {t}\n" for t in body.splitlines())
    want = [("duration", 120.1, 2, "s"), ("request_throughput", 3.014, 3, "req/s")]
    want += [("decode_tps", 12.057, 3, "tok/s"), ("latency", 328.0, 3, "ms")]
    for lines in (body, stamped, bracketed):
        cf = _drafted(f"# Run\n\n```\n{lines}```\n", tmp_path)
        assert [(c.metric, c.value, c.decimals, c.unit) for c in cf.claims] == want


def test_a_parallelism_size_is_no_prompt_rate(tmp_path):
    """trtllm-bench's "TP Size: 8" over "PP Size: 1" read as one text: "8 PP" was a prompt rate of
    8 t/s; "296.96 PP" is one (control)."""
    cf = _drafted("# Run\n\nTP Size:                8\nPP Size:                1\n", tmp_path)
    assert cf.claims == []
    cf = _drafted("# Run\n\nHigh-accept prompt: `296.96 PP`, `42.91 TG`.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("prefill_tps", 296.96), ("decode_tps", 42.91)]


#: trtllm-bench's overview as a rendered page copies it: the rule first, no header, no outer pipes
_HEADLESS = """# Results

-- | -- | --
Request Throughput (req/sec): |  0.9765 | 0.9812
Total Output   Throughput (tokens/sec): | 15999.06 | 16075.82
Total   Latency (ms):   | 262159.4 | 260907.7
"""


def test_a_pipe_table_whose_header_was_lost_is_a_table(tmp_path):
    """Each row its label's metric and unit (the label's "(ms):" with its colon), two claims a row
    (corpus h336: the latencies were rates, the request throughput missed)."""
    cf = _drafted(_HEADLESS, tmp_path)
    got = sorted((c.metric, c.value, c.unit) for c in cf.claims)
    assert got == [
        ("latency", 260907.7, "ms"),
        ("latency", 262159.4, "ms"),
        ("request_throughput", 0.9765, "req/s"),
        ("request_throughput", 0.9812, "req/s"),
        ("throughput", 15999.06, "tok/s"),
        ("throughput", 16075.82, "tok/s"),
    ]


def test_a_pipe_table_on_one_line_is_a_table(tmp_path):
    """A forum copy that lost a table's line breaks (corpus h333): header, inline rule and rows on
    one line, each row's cells its own; control: prose with pipes and no rule is no table."""
    line = (
        "| Model | Quant | Decode (tok/s) | |---|---|---| | qwen3-4b | FP16 | 749 | | qwen3-4b | FP8 | 790 | "
        "| qwen3-8b | FP16 | 387 |"
    )
    cf = _drafted(f"# Bench\n\n{line}\n", tmp_path)
    got = [(_cond(cf, c).get("model"), _cond(cf, c).get("quant"), c.value) for c in cf.claims]
    assert got == [("qwen3-4b", "FP16", 749), ("qwen3-4b", "FP8", 790), ("qwen3-8b", "FP16", 387)]
    assert all(c.source_line == 3 for c in cf.claims)
    cf = _drafted("# Bench\n\nA | B | C: 749 tok/s on one run.\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(749, "tok/s")]


def test_request_lengths_written_as_setup_lines(tmp_path):
    """ "Input tokens per request: 4096" / "Generated tokens per request: 1024" (corpus h333): the
    prompt's tokens and the tokens generated of the results below; a "max output length" is a cap
    (control)."""
    found: list = []
    settings_in_words("Input tokens per request: 4096", found)
    settings_in_words("Generated tokens per request: 1024", found)
    settings_in_words("Output length: 128", found)
    settings_in_words("max output length: 512", found)
    assert found == [("prompt", "4096 tokens"), ("tokens_generated", 1024), ("tokens_generated", 128)]
    post = (
        "# vLLM on two 3090s\n\nInput tokens per request: 4096\n\nGenerated tokens per request: 1024\n\n"
        "| Model | Output throughput (tok/s) |\n|---|---|\n| qwen3-4b | 749 |\n"
    )
    cf = _drafted(post, tmp_path)
    (c,) = cf.claims
    got = _cond(cf, c)
    assert got["prompt"] == "4096 tokens" and got["tokens_generated"] == 1024


def test_a_benchmark_client_after_its_server_is_one_run(tmp_path):
    """ "vllm serve …" then "vllm bench serve --random-input-len 1024 --random-output-len 128
    --ignore-eos --max-concurrency 64" in one block (corpus h334), the results in the next
    section: the client's settings hold there as the server's do; with --ignore-eos the output
    length is the tokens each request generated, not only a cap."""
    post = (
        "# GLM-4.6 on MI300X\n\n## Test plan\n\n```bash\n"
        "vllm serve zai-org/GLM-4.6 --tensor-parallel-size 8\n\n"
        "vllm bench serve --model zai-org/GLM-4.6 --dataset-name random --ignore-eos --random-input-len 1024 "
        "--random-output-len 128 --max-concurrency 64\n```\n\n## Results\n\n"
        "| Metric | Value |\n|---|---|\n| Output token throughput (tok/s) | 794.73 |\n"
    )
    cf = _drafted(post, tmp_path)
    (c,) = cf.claims
    got = _cond(cf, c)
    assert (got["concurrency"], got["tokens_generated"], got["cap"]) == (64, 128, 128)
    assert got["prompt"] == "random (1024 tokens)"


def test_a_base_column_makes_the_others_the_posts_drafting(tmp_path):
    """ "| quant | base tok/s | code | creative |" in a post about MTP that also says "speculative
    decoding" (corpus h222): the base column plain, the task columns MTP's runs (draft-self); a
    post naming a draft model besides MTP names two kinds and guesses none (control)."""
    table = (
        "| quant | base tok/s | code | creative |\n|:-|:-|:-|:-|\n| Q4_K_M | 15.1 | 19.7 | 13.7 |\n"
        "| F16 | 6.6 | 17.9 | 11.0 |\n"
    )
    post = f"# MTP results\n\nDecode speeds (tok/s), MTP with speculative decoding in llama.cpp:\n\n{table}"
    cf = _drafted(post, tmp_path)
    got = {c.value: _cond(cf, c).get("decoding") for c in cf.claims}
    assert got == {15.1: "plain", 6.6: "plain", 19.7: "draft-self", 17.9: "draft-self"} | {
        13.7: "draft-self",
        11.0: "draft-self",
    }
    post = f"# MTP vs a draft model\n\nDecode speeds (tok/s), MTP and a draft model (Qwen3-0.6B):\n\n{table}"
    cf = _drafted(post, tmp_path)
    got = {c.value: _cond(cf, c).get("decoding") for c in cf.claims}
    assert got == {15.1: "plain", 6.6: "plain", 19.7: None, 17.9: None, 13.7: None, 11.0: None}


def test_run_sizes_in_a_sentence_hold_for_the_table_below(tmp_path):
    """ "Each test had input size 128 and an output size 128 tokens." over a table of batch sizes
    (corpus h337): token counts are the runs' sizes, no measurement of the sentence's own, so its
    prompt holds for the table too; a rate beside the prompt keeps it the sentence's (control)."""
    table = "| Batch Size | Output throughput (tok/s) |\n|---|---|\n| 1 | 36 |\n| 32 | 798 |\n"
    post = f"# Llama 405B\n\nEach test had input size 128 and an output size 128 tokens.\n\n{table}"
    cf = _drafted(post, tmp_path)
    assert {(_cond(cf, c)["prompt"], _cond(cf, c)["tokens_generated"]) for c in cf.claims} == {
        ("128 tokens", 128)
    }
    post = f"# Llama 405B\n\nWith input size 512 it reached 41 tok/s.\n\n{table}"
    cf = _drafted(post, tmp_path)
    assert [_cond(cf, c).get("prompt") for c in cf.claims] == ["512 tokens", None, None]


def test_ik_llama_cpp_flags_name_the_fork():
    """ik_llama.cpp's tools keep llama.cpp's names; "-fmoe", "-rtr 1", "--mla-use 3" are its own
    flags (corpus h254, p173), so the engine is the fork; a llama.cpp command is not (control)."""
    from benchbook.audit.draftcommand import command_lines

    def engine(line: str) -> str:
        (c,) = command_lines([(1, line)])
        return c.conditions["engine"]

    assert engine("./llama-server -m x.gguf -ngl 999 -fa -ub 1024 -fmoe") == "ik_llama.cpp"
    assert engine("./bin/llama-bench -m x.gguf -p 512 -n 128 -rtr 1") == "ik_llama.cpp"
    assert engine("llama-cli -m x.gguf --mla-use 3 -t 8") == "ik_llama.cpp"
    assert engine("llama-server -m x.gguf -ngl 99 -fa on --cpu-moe") == "llama.cpp"


_ARCH = """# Benchmark RTX 3060

### tinyllama-1.1b-1t-openorca.Q4_K_M.gguf

| model | size | params | backend | ngl | test | t/s |
| --- | ---: | ---: | --- | --: | ---: | ---: |
| llama 1B Q4_K - Medium | 636.18 MiB | 1.10 B | Vulkan | 99 | pp512 | 6744.18 ± 179.28 |
| llama 1B Q4_K - Medium | 636.18 MiB | 1.10 B | Vulkan | 99 | tg128 | 279.05 ± 0.37 |
"""


def test_llama_benchs_architecture_cell_yields_to_the_named_model(tmp_path):
    """llama-bench prints the architecture and size ("llama 1B Q4_K - Medium"), not the model's
    name; the heading names the file (corpus h352, p240): the model is the file's.  Named with
    another size, the heading is another model's (control: "llama 1B" stays)."""
    cf = _drafted(_ARCH, tmp_path)
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"tinyllama-1.1b-1t-openorca"}
    other = _ARCH.replace("tinyllama-1.1b-1t-openorca", "Llama-3.1-8B-Instruct")
    cf = _drafted(other, tmp_path)
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"llama 1B"}


_NOTES = """# Pixel 8a

| Test | Provider | Time (s) | tok/s | Notes |
|------|----------|----------|-------|-------|
| A | Default | 802.3 | 2.46 | Baseline |
| B | XNNPACK | 919.8 | 2.14 | ⚠️ 13% slower! |
| C | Default | 435.0 | 4.53 | ✅ +84% faster! |
| E | Default | 741.5 | 2.66 | ⚠️ Thread contention |
"""


def test_a_notes_column_of_changes_against_the_baseline_row(tmp_path):
    """A notes column saying each row's change in words beside a "Baseline" row (corpus h325): a
    percent change from the baseline row's rate to the row's (the column whose pair gives the
    stated value: the rate, not the time), "slower" a drop; a note with no number is none."""
    cf = _drafted(_NOTES, tmp_path)
    rate = {c.value: c.id for c in cf.claims if c.unit in ("tok/s", "t/s")}
    got = sorted((s.value, s.of) for s in cf.statements)
    assert got == [(-13, [rate[2.46], rate[2.14]]), (84, [rate[2.46], rate[4.53]])]


def test_a_line_of_run_values_takes_the_unit_of_its_summary_line(tmp_path):
    """ "Throughput values: 62.75, 63.09, 62.81" over "Median throughput: 62.79 req/s" (corpus h367):
    each value a run's, in the summary line's unit; with no line giving the unit, none (control)."""
    block = "Throughput values: 62.75, 63.09, 62.81\nMedian throughput: 62.79 req/s\n"
    cf = _drafted(f"# vLLM 0.8.4\n\n```\n{block}```\n", tmp_path)
    runs = [(c.value, c.unit, _cond(cf, c).get("run_index")) for c in cf.claims]
    assert runs[:3] == [(62.75, "req/s", 1), (63.09, "req/s", 2), (62.81, "req/s", 3)]
    assert (runs[3][0], runs[3][1]) == (62.79, "req/s")
    cf = _drafted("# vLLM 0.8.4\n\n```\nThroughput values: 62.75, 63.09, 62.81\n```\n", tmp_path)
    assert cf.claims == []


def test_a_label_columns_header_gives_the_unit_of_setting_columns(tmp_path):
    """ "| Engine (output tok/s) | conc=8 | conc=16 |" (the breaker's, session 51): the table was
    dropped whole, its numbers neither claims nor listed; each column is now the label header's
    metric and unit at its concurrency, each row its engine."""
    table = (
        "| Engine (output tok/s) | conc=8 | conc=16 |\n|---|---|---|\n"
        "| vLLM | 1200 | 2100 |\n| SGLang | 1300 | 2250 |\n"
    )
    cf = _drafted(f"# Sweep\n\n{table}", tmp_path)
    got = sorted((c.value, c.unit, _cond(cf, c)["engine"], _cond(cf, c)["concurrency"]) for c in cf.claims)
    assert got == [(1200, "tok/s", "vLLM", 8), (1300, "tok/s", "SGLang", 8)] + [
        (2100, "tok/s", "vLLM", 16),
        (2250, "tok/s", "SGLang", 16),
    ]
    assert {c.metric for c in cf.claims} == {"throughput"}


def test_a_commands_numeric_flag_cites_the_command_line(tmp_path):
    """ "--draft-min 1" (kept under ``other`` as the string "1") was cited as "line 20, table", the
    nearest line holding a "1"; a number is a command's: the command line above."""
    post = tmp_path / "post.md"
    post.write_text(_LAPTOP, encoding="utf-8")
    out, _, _ = draft_post(post)
    text = out.read_text(encoding="utf-8")
    assert text.count('other.draft_min: [1, "line 15, command"]') == 4  # the speculative rows, rate, memory
    assert 'other.draft_min: ["1", "line 20' not in text


def test_apple_phones_and_tablets_are_machines_and_respectively_follows_the_names(tmp_path):
    """The breaker's (session 51): "On the iPhone 15 Pro … The iPad M4 got 25 tok/s" gave both rates
    no machine (neither was a name the drafter knew), and "Generation: 71 vs 84 tok/s respectively"
    after "M4 Max 356 vs M3 Ultra 192" gave both the last machine named; the names of the sentence
    before, in order, are the values' (as many as the values: else none is taken, control)."""
    post = (
        "# Devices\n\nOn the iPhone 15 Pro it ran at 12 tok/s. The iPad M4 got 25 tok/s.\n\n"
        "Prompt processing: M4 Max 356 vs M3 Ultra 192 tok/s. Generation: 71 vs 84 tok/s respectively.\n\n"
        "Three runs: M4 Max and M3 Ultra. We saw 10 tok/s, 11 tok/s and 13 tok/s respectively.\n"
    )
    cf = _drafted(post, tmp_path)
    got = {c.value: _cond(cf, c).get("hardware") for c in cf.claims}
    assert got == {
        12: "Apple iPhone 15 Pro",
        25: "Apple iPad M4",
        356: "Apple M4 Max",
        192: "Apple M3 Ultra",
        71: "Apple M4 Max",
        84: "Apple M3 Ultra",
        10: "Apple M3 Ultra",
        11: "Apple M3 Ultra",
        13: "Apple M3 Ultra",
    }


def test_context_and_concurrency_headers_in_other_languages(tmp_path):
    """ "| 컨텍스트 | 동시 요청 |", "| Контекст |" (the breaker's, session 51): each row's context size
    and concurrency, as "| Context | Concurrency |" gives them."""
    for ctx_word, conc_word in (
        ("컨텍스트", "동시 요청"),
        ("Контекст", "Параллельные запросы"),
        ("Context", "Concurrency"),
    ):
        rows = "| 4096 | 1 | 52.1 |\n| 8192 | 8 | 310.5 |\n"
        table = f"| {ctx_word} | {conc_word} | Rate (tok/s) |\n|---|---|---|\n{rows}"
        cf = _drafted(f"# Bench\n\nvLLM 0.8.5 on an RTX 4090.\n\n{table}", tmp_path)
        got = sorted((c.value, _cond(cf, c).get("ctx"), _cond(cf, c).get("concurrency")) for c in cf.claims)
        assert got == [(52.1, 4096, 1), (310.5, 8192, 8)], ctx_word


def test_the_authors_own_number_after_while_i_has_no_origin(tmp_path):
    """ "Someone on Reddit reported 50 tok/s on a 4090, while I got 30 tok/s on my 3090" (the
    breaker's, session 51): the 30 is the author's; the 50 is theirs (control)."""
    post = "# Test\n\nSomeone on Reddit reported 50 tok/s on a 4090, while I got 30 tok/s on my 3090.\n"
    cf = _drafted(post, tmp_path)
    assert {c.value: c.origin for c in cf.claims} == {50: "Someone on Reddit", 30: None}


def test_one_time_slower_in_chinese_is_a_factor_of_two(tmp_path):
    """ "慢1倍" (one time slower: half the speed; corpus h354) was a speedup of 1; "快1倍" / "提升1倍"
    double; "快了2倍" keeps its 2 (control)."""
    from benchbook.audit.draftrelations import relations

    def rel(text: str) -> list[tuple[str, int]]:
        return [(r.number.text, r.sign) for r in relations(text, numbers(text))]

    assert rel("开启后速度慢1倍，只有20 tok/s。") == [("2", -1)]
    assert rel("提升1倍") == [("2", 1)] and rel("快1倍") == [("2", 1)]
    assert rel("速度快了2倍") == [("2", 1)]
    cf = _drafted("# 测试\n\nA10比3090慢1倍左右。\n", tmp_path)
    assert [(c.metric, c.value, c.unit, c.about) for c in cf.claims] == [("slowdown", 2, "x", True)]


def test_from_to_in_spanish_and_german_and_the_from_side_decodes_plainly(tmp_path):
    """ "desde 30 hasta 45 tok/s", "von 30 auf 45 tok/s": the first number lost its unit (listed
    as not placed); "from 30 to 45 tok/s with the draft model": the draft model is the second
    side's, the first plain."""
    assert [(n.text, n.unit) for n in numbers("subió desde 30 hasta 45 tok/s")] == [
        ("30", "tok/s"),
        ("45", "tok/s"),
    ]
    assert [(n.text, n.unit) for n in numbers("stieg von 30 auf 45 tok/s")] == [
        ("30", "tok/s"),
        ("45", "tok/s"),
    ]
    assert [(n.text, n.range) for n in numbers("entre 30 hasta 45 tok/s")] == [("30–45", ("30", "45"))]
    post = "# T\n\nllama.cpp b5000.\n\nThe speed rose from 30 to 45 tok/s with the draft model.\n"
    cf = _drafted(post, tmp_path)
    assert {c.value: _cond(cf, c)["decoding"] for c in cf.claims} == {30: "plain", 45: "speculative"}


def test_n_odd_in_chinese_is_a_lower_bound():
    """ "30多token/s" (30-odd: more than 30; corpus h353) lost its unit, the number listed as not
    placed; it is a bound above 30 tok/s as "30+ tok/s" is; "100多个" (no unit) stays no bound."""
    from benchbook.audit.draftprose import bound_of

    for text in ("只有30多token/s", "30多 tok/s", "40+ tok/s"):
        (n,) = numbers(text)
        assert (n.unit, bound_of(text, n)) == ("tok/s", "above"), text
    (n,) = numbers("有100多个")
    assert (n.text, n.unit) == ("100", None)


def test_a_delta_column_takes_the_order_its_value_gives(tmp_path):
    """ "| control t/s | candidate t/s | delta |" over "35.0378 | 33.8086 | +3.64%" (corpus h371):
    the delta is the control over the candidate, from the second column to the first; a delta
    the first-to-second order gives keeps that order (control)."""
    table = (
        "| env | control t/s | candidate t/s | delta |\n|---|---|---|---|\n"
        "| A | 35.0378 | 33.8086 | +3.64% |\n| B | 25.2436 | 26.2530 | +4.00% |\n"
    )
    cf = _drafted(f"# A/B\n\n{table}", tmp_path)
    ids = {c.value: c.id for c in cf.claims}
    got = sorted((s.value, s.of) for s in cf.statements)
    assert got == [(3.64, [ids[33.8086], ids[35.0378]]), (4.0, [ids[25.2436], ids[26.253]])]


def test_a_change_in_parentheses_after_a_cell_is_against_the_rows_other_value(tmp_path):
    """ "| same box | 63.3 | 116.3 (+84%) |" under "| | Baseline | With flag |" (corpus p154: the
    Baseline column repeats one run, it was read as a label) and "7.24 tok/s (19.6% más rápido)"
    (h360): a percent change from the row's other value whose pair gives it."""
    table = (
        "| | Baseline | With flag |\n|---|---|---|\n| a | 63.3 | 96.1 (+52%) |\n| b | 63.3 | 116.3 (+84%) |\n"
    )
    cf = _drafted(f"# MTP (tok/s)\n\nRates in tok/s:\n\n{table}", tmp_path)
    by_id = {c.id: c.value for c in cf.claims}
    assert sorted((s.value, [by_id[x] for x in s.of]) for s in cf.statements) == [
        (52, [63.3, 96.1]),
        (84, [63.3, 116.3]),
    ]
    table = (
        "| Aspecto | Granite | Llama |\n|---|---|---|\n"
        "| Velocidad | 6.05 tok/s | 7.24 tok/s (19.6% más rápido) |\n"
    )
    cf = _drafted(f"# Granite\n\n{table}", tmp_path)
    by_id = {c.id: c.value for c in cf.claims}
    assert [(s.value, [by_id[x] for x in s.of]) for s in cf.statements] == [(19.6, [6.05, 7.24])]


def test_named_changes_against_columns_of_a_metrics_as_rows_table(tmp_path):
    """ "| | Base model | NVIDIA quant | Turbo |" over "| Prefill | 6352 tok/s | 11069 tok/s | 15359
    tok/s (+142% base, +39% nvidia) |" (corpus h242): each change from the column the name opens
    ("base" of "Base model") to the cell."""
    table = (
        "| | Base model | NVIDIA quant | Turbo |\n|---|---|---|---|\n"
        "| Prefill | 6352 tok/s | 11069 tok/s | 15359 tok/s (+142% base, +39% nvidia) |\n"
        "| Decode | 24.1 tok/s | 39.2 tok/s | 51 tok/s (+112% base, +30% nvidia) |\n"
    )
    cf = _drafted(f"# Turbo\n\n{table}", tmp_path)
    by_id = {c.id: c.value for c in cf.claims}
    got = sorted((s.value, [by_id[x] for x in s.of]) for s in cf.statements)
    assert got == [(30, [39.2, 51]), (39, [11069, 15359]), (112, [24.1, 51]), (142, [6352, 15359])]


def test_thousands_glued_to_k_before_a_unit_are_claims_with_their_precision(tmp_path):
    """ "The storage does 850k IOPS", "served 12k req/s" (the breaker's, session 51): the number was
    neither a claim nor listed; since session 68 a claim in thousands (decimals -3, its precision as
    written); "128k context" and names ("H200") stay none (control)."""
    assert [(n.text, n.unit, n.decimals) for n in numbers("The storage does 850k IOPS.")] == [
        ("850000", "IOPS", -3)
    ]
    assert [(n.text, n.unit, n.decimals) for n in numbers("served 12k req/s")] == [("12000", "req/s", -3)]
    assert numbers("with 128k context on the H200 GPU") == []
    cf = _drafted("# Storage\n\nThe storage does 850k IOPS.\n", tmp_path)
    assert [(c.metric, c.value, c.decimals) for c in cf.claims] == [("iops", 850000, -3)]


def test_worded_changes_of_a_metrics_as_rows_table(tmp_path):
    """ "| First token latency | 45ms | 38ms | 16% faster |", "| Memory usage | 24GB | 22GB | 8% less |"
    (corpus h239): drops, from the first column to the second; a rate said "faster" keeps its +16
    (control: only a time is faster by falling; its sides' order is the one its values give)."""
    table = (
        "| Metric | vLLM | LMDeploy | Improvement |\n|---|---|---|---|\n"
        "| First token latency | 45ms | 38ms | 16% faster |\n| Memory usage | 24GB | 22GB | 8% less |\n"
        "| Throughput (tok/s) | 45 | 38 | 16% faster |\n"
    )
    cf = _drafted(f"# LMDeploy vs vLLM\n\n{table}", tmp_path)
    by_id = {c.id: (c.value, c.unit) for c in cf.claims}
    got = sorted((s.value, [by_id[x][0] for x in s.of]) for s in cf.statements)
    assert got == [(-16, [45, 38]), (-8, [24, 22]), (16, [38, 45])]


def test_drafting_does_not_depend_on_the_hash_seed(tmp_path):
    """Two runs of the drafter on one post drafted a relating phrase once as a todo, once as a claim:
    which of two metrics named at the same distance a todo keeps was the first of a *set*, in Python's
    per-process hash order (an excerpt of the corpus's posts p182–p186 shows it: 2 seeds in 10 gave
    another draft).  The same post under four hash seeds gives the same claims file."""
    import os
    import subprocess
    import sys

    post = Path(__file__).parent / "fixtures" / "draft" / "hash_order_window.md"
    code = (
        "import sys; from benchbook.audit.draft import draft_text; "
        "d = draft_text(open(sys.argv[1], encoding='utf-8').read(), 'w.md'); "
        "print([(e.kind, e.id, e.fields.get('of')) for e in d.entries])"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code, str(post)],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in (1, 2, 7, 9)
    }
    assert len(outs) == 1


def test_the_breakers_findings_of_session_52(tmp_path, monkeypatch):
    """The breaker's: a prose line of llama.cpp's counter names saved as a log excerpt aborted the
    audit (exit 2: "llama-speculative-simple output lacks …"); counts before their rate were a claim
    apart; counts in parentheses after a rate they do not give were dropped, so the audit called it
    unsupported, not wrong; "55% — 333 drafts accepted" was a range; a label table whose engine cells
    carry versions was dropped whole; a one-line table after "Results:" was not a table; "8% slower"
    of a time that rose was a drop."""
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    post = tmp_path / "acc.md"
    post.write_text(
        "# Spec\n\nllama.cpp b5000 with a draft model on an RTX 4090.\n\n"
        "Server log: n_drafted = 376, n_accept = 107, acceptance 28.5%.\n\n"
        "Acceptance was 81% (181 of 250 drafted tokens accepted).\n\n"
        "Mean TTFT rose from 850 ms to 920 ms, about 8% slower.\n",
        encoding="utf-8",
    )
    assert command.main([str(post), "--out", str(tmp_path / "out")]) == 0
    records = [json.loads(x) for x in (tmp_path / "out" / "acc.claims.jsonl").read_text().splitlines()]
    verdict = {r["stated_text"]: r["consistency"] for r in records if r.get("stated_text")}
    assert verdict["28.5"] == "consistent" and verdict["81"] == "inconsistent"
    assert verdict["8"] == "consistent"
    assert [
        (n.text, n.unit, n.range) for n in numbers("acceptance 55% — 333 drafts accepted / 531 generated")
    ][0] == ("55", "%", None)
    table = (
        "| Engine (output tok/s) | conc=8 | conc=16 |\n|---|---|---|\n"
        "| vLLM 0.6.3 | 812.4 | 1490.2 |\n| SGLang 0.3.5 | 845.1 | 1602.7 |\n\n"
        "Results: | Engine | TTFT (ms) | |---|---| | vLLM | 45.6 | | SGLang | 38.2 |\n"
    )
    cf = _drafted(f"# Sweep\n\n{table}", tmp_path)
    got = sorted((c.value, c.unit, _cond(cf, c).get("engine")) for c in cf.claims)
    assert got == [(38.2, "ms", "SGLang"), (45.6, "ms", "vLLM")] + [
        (812.4, "tok/s", "vLLM"),
        (845.1, "tok/s", "SGLang"),
        (1490.2, "tok/s", "vLLM"),
        (1602.7, "tok/s", "SGLang"),
    ]

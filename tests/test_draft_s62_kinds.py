"""Kinds fixed in issue 29's session 62 (read from the thirty-ninth held-out set's misses, h456–h465,
once a fortieth set replaced it as the clean one), each with controls: a "| Metric | Value |" table
of settings and results read its settings as results; a cap ("Max Tokens") and a temperature in a
table were no conditions; "Response Time" was a duration, not a latency; a unit of the next line
("38.16 seconds" over "Min Response Time") took the number; vLLM's collect_env block named no
machine."""

from __future__ import annotations

from benchbook.audit.draftnames import mentions
from benchbook.audit.draftprose import metric_of, numbers
from benchbook.audit.toollines import label_metric
from drafting import conditions as _cond
from drafting import drafted as _drafted

_STRESS = """# v0.10 is slower than 0.8.5 for qwen3

### Your current environment

```text
GPU models and configuration : GPU 0: NVIDIA A10
Nvidia driver version        : 550.127.08
```

```
┏━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Metric                ┃ Value                    ┃
┡━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ Model                 │ /home/llm/Qwen3-8B       │
│ Max Tokens            │ 256                      │
│ Temperature           │ 0.7                      │
│ Concurrent Requests   │ 10                       │
│ Total Test Duration   │ 38.16 seconds            │
│ Min Response Time     │ 0.86 seconds             │
│ P90 Response Time     │ 3.82 seconds             │
└───────────────────────┴──────────────────────────┘
```
"""


def test_a_metric_value_table_of_settings_and_results(tmp_path):
    """A two-column "| Metric | Value |" table (a stress-test script's rich box) lists settings and
    results: the model, cap, temperature and concurrency are the conditions of its three times, and
    none of them is a claim; the response times are latencies (the run's duration is a duration); the
    machine comes from collect_env's "GPU models and configuration" line in the block above."""
    cf = _drafted(_STRESS, tmp_path)
    got = sorted((float(c.value), str(c.unit), c.metric) for c in cf.claims)
    assert got == [(0.86, "s", "latency"), (3.82, "s", "latency"), (38.16, "s", "duration")]
    for c in cf.claims:
        cond = _cond(cf, c)
        assert (cond["model"], cond["cap"], cond["sampling"], cond["concurrency"]) == (
            "Qwen3-8B",
            256,
            "temperature 0.7",
            10,
        )
        assert cond["hardware"] == "NVIDIA A10"
        # (the turned table's "Value" is its cells' header, no condition: the new user's)
        assert "metric" not in (cond.get("other") or {})


def test_a_temperature_cell_above_two_is_no_sampling(tmp_path):
    """Control: a "Temperature" column of a GPU's degrees (85) is no sampling temperature."""
    post = (
        "| GPU | Temperature | Decode |\n|---|---|---|\n| RTX 4090 | 85 | 120 t/s |\n"
        "| RTX 3090 | 80 | 90 t/s |\n"
    )
    cf = _drafted(post, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [90.0, 120.0]
    assert all("sampling" not in _cond(cf, c) for c in cf.claims)


def test_a_unit_after_a_unit_belongs_to_the_next_words():
    """ "38.16 seconds Min Response Time" (two lines read as one text): "Min" is the next label's,
    not minutes; a range's or a spread's unit after both numbers still counts."""
    text = "Total Test Duration: 38.16 seconds Min Response Time: 0.86 seconds"
    assert [(n.text, n.unit) for n in numbers(text)] == [("38.16", "s"), ("0.86", "s")]
    assert [(n.low, n.high, n.unit) for n in numbers("6.1–6.3 t/s")] == [("6.1", "6.3", "t/s")]
    assert [(n.text, n.spread, n.unit) for n in numbers("41.2 ± 0.3 t/s")] == [("41.2", "0.3", "t/s")]


def test_response_time_is_a_latency_in_prose_and_labels():
    """ "Response Time", "E2E", "end-to-end" and Russian "задержка" name a request's latency in prose
    and in a tool's labels alike (one list of words); a plain "Duration" stays a duration."""
    assert metric_of("s", "Average Response Time:") == "latency"
    assert metric_of("s", "end-to-end") == "latency"
    assert label_metric("P90 Response Time", "s") == "latency"
    assert label_metric("Средняя задержка", "ms") == "latency"
    assert label_metric("E2E", "ms") == "latency"
    assert label_metric("Total Test Duration", "s") == "duration"
    assert label_metric("Load time", "s") == "load_time"


def test_an_a10g_is_a_card():
    """AWS's A10G is NVIDIA's card; "A10" stays the A10."""
    assert [(m.path, m.value) for m in mentions("on an NVIDIA A10G")] == [("hardware", "NVIDIA A10G")]
    assert [(m.path, m.value) for m in mentions("A10 GPU")] == [("hardware", "NVIDIA A10")]


_KOBOLD = """# Qwen3.5 slow with CUDA on 1.109.2

Windows 11, Ryzen 8700G, Nvidia RTX3090

Mistral Small 24B behaves as expected
1.108.2 CUDA
PP 1713 TG 40

1.109.2 CUDA
PP 1758 TG 40
1.109.2 Vulkan
PP 1593 TG 37
"""


def test_phase_labels_before_their_numbers_under_release_lines(tmp_path):
    """ "PP 1713 TG 40" (KoboldCpp's and llama.cpp's words, no unit written): a prefill and a decode
    rate in t/s, each by the label before it; "1.108.2 CUDA" alone on the line above is those runs'
    build and backend, up to the next such line; the second run's "TG 40" is its own measurement
    (its line reports another run in the same shape), not a citation of the first; "Mistral Small
    24B" is the model."""
    cf = _drafted(_KOBOLD, tmp_path)
    got = sorted(
        (_cond(cf, c)["build"], _cond(cf, c)["backend"], c.metric, float(c.value), str(c.unit))
        for c in cf.claims
    )
    assert got == [
        ("1.108.2", "CUDA", "decode_tps", 40.0, "t/s"),
        ("1.108.2", "CUDA", "prefill_tps", 1713.0, "t/s"),
        ("1.109.2", "CUDA", "decode_tps", 40.0, "t/s"),
        ("1.109.2", "CUDA", "prefill_tps", 1758.0, "t/s"),
        ("1.109.2", "Vulkan", "decode_tps", 37.0, "t/s"),
        ("1.109.2", "Vulkan", "prefill_tps", 1593.0, "t/s"),
    ]
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"Mistral Small 24B"}


def test_phase_labels_controls():
    """Controls: a phase's label after a number is its unit ("1200 PP 45 TG"); "PP 512 TG 128" names
    a llama-bench test's sizes (both powers of two), no rates; a number ends a range as before."""
    assert [(n.text, n.unit, n.unit_written) for n in numbers("1200 PP 45 TG")] == [
        ("1200", "t/s", "PP"),
        ("45", "t/s", "TG"),
    ]
    assert [(n.text, n.unit) for n in numbers("PP: 2992, TG: 67")] == [("2992", "t/s"), ("67", "t/s")]
    assert [n.text for n in numbers("PP 512 TG 128") if n.unit_written == "PP"] == []


def test_a_repeated_value_in_prose_still_cites_the_first(tmp_path):
    """Control for the parallel-run rule: a sentence repeating "40 t/s" with no other run's numbers
    cites the claim it repeats (SOURCES.md's convention)."""
    post = "# Test\n\nOn the RTX 3090 decode ran at 40 t/s and prefill at 1713 t/s.\n\nSo 40 t/s it is.\n"
    cf = _drafted(post, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [40.0, 1713.0]


_TAGGED = """# DeepSeek V4 Flash 0731 runs slower on vLLM

latest version:

  [Q&A] 185 tokens in 4.17s = 44.3 tok/s (prompt: 17)
  [Code] 512 tokens in 8.62s = 59.3 tok/s (prompt: 24)

previous version:

  [Q&A] 210 tokens in 4.02s = 52.2 tok/s (prompt: 17)
  [Code] 512 tokens in 7.68s = 66.6 tok/s (prompt: 24)
"""


def test_bracketed_workload_tags_lead_result_lines(tmp_path):
    """A tag in brackets leading each of several result lines is the workload each ran (prompt); the
    release date after a spaced model name is part of it ("DeepSeek V4 Flash 0731"); the second list's
    "512 tokens" is its own run's count (its line's time and rate differ), a claim of its own."""
    cf = _drafted(_TAGGED, tmp_path)
    rates = sorted((float(c.value), _cond(cf, c)["prompt"]) for c in cf.claims if c.metric == "decode_tps")
    assert rates == [(44.3, "Q&A"), (52.2, "Q&A"), (59.3, "Code"), (66.6, "Code")]
    assert sorted(float(c.value) for c in cf.claims if c.metric == "tokens") == [185.0, 210.0, 512.0, 512.0]
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"DeepSeek V4 Flash 0731"}
    # each tagged line is its own sentence: a claim quotes its line, not the whole list
    first = next(c for c in cf.claims if float(c.value) == 44.3)
    assert first.quote == "[Q&A] 185 tokens in 4.17s = 44.3 tok/s (prompt: 17)"


def test_log_tags_name_no_workload(tmp_path):
    """Control: "[INFO]" and "[0.24.0]" lead lines as a log's level and a version, not a workload."""
    post = "# Run\n\n[INFO] 185 tokens in 4.17s = 44.3 tok/s\n[WARN] 512 tokens in 8.62s = 59.3 tok/s\n"
    cf = _drafted(post, tmp_path)
    assert cf.claims and all("prompt" not in _cond(cf, c) for c in cf.claims)
    assert [(m.path, m.value) for m in mentions("Qwen3 1024 tokens")] == [("model", "Qwen3")]


_FORK = """profiling radeon 7900xt
Anbeeld/beellama.cpp issue #40

# 2. DFlash default

```
llama-server -m /models/Qwen3.6-27B-Q4_K_M.gguf -c 128000 --spec-type dflash --spec-dflash-cross-ctx 512
```

decode tokens/s: 42.30
"""


def test_a_fork_named_alone_runs_llama_cpp_tools(tmp_path):
    """A post naming one fork of llama.cpp ("beellama.cpp") and never llama.cpp runs the fork's
    llama-server; "--spec-dflash-cross-ctx 512" is no context size (the command's -c is)."""
    cf = _drafted(_FORK, tmp_path)
    (c,) = cf.claims
    cond = _cond(cf, c)
    assert (cond["engine"], cond["ctx"], float(c.value)) == ("beellama.cpp", 128000, 42.3)


def test_a_fork_beside_mainline_keeps_llama_cpp(tmp_path):
    """Control: a post naming the fork and "mainline" compares them: a llama-server command stays
    llama.cpp's; "--max-ctx 200000" in words is a context size."""
    post = _FORK.replace("profiling radeon 7900xt", "beellama.cpp vs mainline")
    cf = _drafted(post, tmp_path)
    assert {_cond(cf, c)["engine"] for c in cf.claims} == {"llama.cpp"}
    from benchbook.audit.draftwords import settings_in_words

    got: list = []
    settings_in_words("./dflash_server --max-ctx 200000", got)
    assert got == [("ctx", 200000)]
    assert [(m.path, m.value) for m in mentions("ms-swift 1.9")] == [("engine", "ms-swift")]


_ARCH = """# GLM-4.7-Flash on Vulkan: faster at depth

```shell
./build/bin/llama-bench --model ./models/GLM-4.7-Flash-IQ4_XS.gguf -ngl 99 -fa 1
```

| model | size | params | backend | ngl | fa | test | t/s |
| --- | ---: | ---: | --- | --: | -: | ---: | ---: |
| deepseek2 30B.A3B IQ4_XS - 4.25 bpw | 15.15 GiB | 29.94 B | Vulkan | 99 | 1 | tg128 | 102.97 ± 0.08 |
"""


def test_llama_bench_architecture_label_gives_way_to_the_named_model(tmp_path):
    """llama-bench labels a model by its GGUF architecture ("deepseek2 30B.A3B"); where the post's
    command names the model's file (GLM-4.7-Flash-IQ4_XS.gguf), that is the model; the quant comes
    from the label as before."""
    cf = _drafted(_ARCH, tmp_path)
    rate = next(c for c in cf.claims if c.metric == "decode_tps")
    assert (_cond(cf, rate)["model"], _cond(cf, rate)["quant"], float(rate.value)) == (
        "GLM-4.7-Flash",
        "IQ4_XS",
        102.97,
    )


def test_llama_bench_architecture_label_alone_is_the_model(tmp_path):
    """Control: with no model named anywhere else, llama-bench's label is the model ("llama 7B")."""
    post = _ARCH.replace("GLM-4.7-Flash on Vulkan: faster at depth", "Faster at depth").replace(
        "--model ./models/GLM-4.7-Flash-IQ4_XS.gguf ", ""
    )
    cf = _drafted(post, tmp_path)
    rate = next(c for c in cf.claims if c.metric == "decode_tps")
    assert _cond(cf, rate)["model"] == "deepseek2 30B.A3B"


_VERSIONS = """# Pin flip to vLLM 0.29.0

Main's image (vLLM 0.28.0) against this branch's, single-stream decode.

| setting | 0.28 tok/s | 0.29 tok/s |
|---|---|---|
| B, single default | 121.8 | 138.1 |
| A, batch, 64 concurrent 128 in / 512 out | 1976 | 1904 |
"""


def test_columns_headed_by_releases_and_a_row_label_in_words(tmp_path):
    """Columns headed "0.28 tok/s" and "0.29 tok/s" are the two releases' runs, each as the post
    writes it in full ("0.29.0"); a row label "64 concurrent 128 in / 512 out" states its own
    concurrency and cap, over the post's single stream (its rates are then throughputs)."""
    cf = _drafted(_VERSIONS, tmp_path)
    got = sorted(
        (float(c.value), _cond(cf, c)["build"], _cond(cf, c).get("concurrency"), c.metric) for c in cf.claims
    )
    assert got == [
        (121.8, "0.28.0", 1, "decode_tps"),
        (138.1, "0.29.0", 1, "decode_tps"),
        (1904.0, "0.29.0", 64, "throughput"),
        (1976.0, "0.28.0", 64, "throughput"),
    ]
    batch = [c for c in cf.claims if float(c.value) > 1000]
    assert {_cond(cf, c)["cap"] for c in batch} == {512}


def test_one_release_in_headers_is_no_comparison(tmp_path):
    """Control: one release heading the value columns ("0.29 tok/s", "0.29 TTFT") sets no build
    from the header."""
    post = (
        "# Run\n\n| setting | 0.29 tok/s | 0.29 TTFT ms |\n|---|---|---|\n"
        "| B | 121.8 | 80 |\n| C | 127.4 | 90 |\n"
    )
    cf = _drafted(post, tmp_path)
    assert all("build" not in _cond(cf, c) for c in cf.claims)


def test_a_prompt_label_before_its_rate_and_mlx_lm_release(tmp_path):
    """mlx_lm.benchmark's results as a list: "Prompt (2048 tokens): 615.28 tok/s" is the prompt's
    rate (the generation line's the decode rate); "mlx 0.32.0 · mlx-lm 0.31.3": the engine MLX's
    build is mlx-lm's release, the array library's apart; "(prompt: 17)" after a rate counts the
    prompt's tokens, no prefill."""
    post = (
        "# M3 Pro benchmarks\n\nSoftware: mlx 0.32.0 · mlx-lm 0.31.3 · macOS Sonoma 14.4\n\n"
        "Results:\n- Prompt (2048 tokens): 615.28 tok/s\n- Generation (128 tokens): 44.62 tok/s\n\n"
        "Also: 185 tokens in 4.17s = 44.3 tok/s (prompt: 17)\n"
    )
    cf = _drafted(post, tmp_path)
    rates = sorted((float(c.value), c.metric) for c in cf.claims if str(c.unit) == "tok/s")
    assert rates == [(44.3, "decode_tps"), (44.62, "decode_tps"), (615.28, "prefill_tps")]
    assert {_cond(cf, c)["build"] for c in cf.claims if str(c.unit) == "tok/s"} == {"0.31.3"}
    assert metric_of("tok/s", "Prompt (512 tokens): ") == "prefill_tps"
    # a bare "Prompt:" under a line of decode speeds names a workload (the breaker's)
    post = "# Speeds\n\nPer-test decode speed:\n\n- Prompt: 45.1 tok/s (short chat)\n- Code: 41.0 tok/s\n"
    cf = _drafted(post, tmp_path)
    assert {c.metric for c in cf.claims} == {"decode_tps"}


def test_a_share_in_parentheses_after_a_cell_value(tmp_path):
    """ "4.78 GB (20.20%)" under "Memory (VRAM)": the size and the share of the card's memory it is
    (memory_utilization), two claims of the row; "116.3 (+84%)" beside 63.3 stays a change of the
    row's cells (control: 116.3 / 63.3 = +83.7%), no share."""
    post = (
        "# AWQ kernels\n\n| Batch Size | Decode tokens/s | Memory (VRAM) |\n| -- | -- | -- |\n"
        "| 1 | 156.038 | 4.78 GB (20.20%) |\n| 8 | 1176.07 | 4.83 GB (20.42%) |\n"
    )
    cf = _drafted(post, tmp_path)
    shares = sorted(
        (float(c.value), c.metric, _cond(cf, c).get("concurrency")) for c in cf.claims if c.unit == "%"
    )
    assert shares == [(20.2, "memory_utilization", 1), (20.42, "memory_utilization", 8)]
    control = "# Run\n\n| box | base | flag |\n|---|---|---|\n| same box | 63.3 t/s | 116.3 t/s (+84%) |\n"
    cf = _drafted(control, tmp_path)
    assert [c for c in cf.claims if c.unit == "%"] == []
    assert [float(s.value) for s in cf.statements] == [84.0]


def test_labelled_token_counts_and_a_full_width_colon(tmp_path):
    """ "Prompt tokens: 7530 in 6.51s (1156.15 tokens/s)": a count of tokens, its time and the
    prompt's rate; "Decoded tokens: 2441 in 61.40s": the decode's; "accept length：1.70" with a
    full-width colon is a mean accepted length as "accept length: 1.70" is."""
    post = (
        "# EAGLE\n\ntemperature=0:  accept length：1.70\n\n"
        "Prompt tokens: 7530 in 6.51s (1156.15 tokens/s)\nDecoded tokens: 2441 in 61.40s (39.76 tokens/s)\n"
    )
    cf = _drafted(post, tmp_path)
    got = sorted((float(c.value), str(c.unit), c.metric) for c in cf.claims)
    assert got == [
        (1.7, "tokens", "mean_accepted_length"),
        (6.51, "s", "duration"),
        (39.76, "tok/s", "decode_tps"),
        (61.4, "s", "duration"),
        (1156.15, "tok/s", "prefill_tps"),
        (2441.0, "tokens", "tokens"),
        (7530.0, "tokens", "tokens"),
    ]
    # control: a count with no time after it stays unplaced ("Prompt tokens: 7530")
    cf = _drafted("# Run\n\nPrompt tokens: 7530\n", tmp_path)
    assert cf.claims == []


def test_drafter_labels_run_labels_and_gen_settings(tmp_path):
    """ "target `…Qwen3.8-27B-8bit`, drafter `…Qwen3.8-27B-DSpark`": the DSpark drafter is the draft,
    the target the model; "* **Run 2:**" numbers its line's runs; "gen=256" in a config is the
    tokens each run generated; "1.37 accepted draft tokens/round" is the draft's tokens accepted a
    round (the verifier's own not counted)."""
    post = (
        "# DSpark on an M5 Max\n\n"
        "- target `mlx-community/Qwen3.8-27B-8bit`, drafter `RadixArk/Qwen3.8-27B-DSpark`\n\n"
        "*(Config: ctx=16384, gen=256, warmup=1, runs=3)*\n\n"
        "* **Run 1:** Prefill: 147.12 t/s | Generation: 40.31 t/s\n"
        "* **Run 2:** Prefill: 147.62 t/s | Generation: 40.29 t/s\n\n"
        "- 1.37 accepted draft tokens/round, 43.6% of drafted tokens\n"
    )
    cf = _drafted(post, tmp_path)
    rates = sorted(
        (float(c.value), c.metric, _cond(cf, c).get("run_index"), _cond(cf, c).get("tokens_generated"))
        for c in cf.claims
        if str(c.unit) == "t/s"
    )
    assert rates == [
        (40.29, "decode_tps", 2, 256),
        (40.31, "decode_tps", 1, 256),
        (147.12, "prefill_tps", 1, 256),
        (147.62, "prefill_tps", 2, 256),
    ]
    assert {(_cond(cf, c)["model"], _cond(cf, c)["quant"]) for c in cf.claims} == {("Qwen3.8-27B", "8bit")}
    (apc,) = [c for c in cf.claims if c.metric == "accepted_per_cycle"]
    assert (float(apc.value), str(apc.unit)) == (1.37, "tokens")
    assert [(m.path, m.value) for m in mentions("Qwen3.8-27B-DSpark")] == [("decoding", "speculative")]


def test_vllm_average_throughput_lines_alone_are_the_engines(tmp_path):
    """vLLM's "Avg prompt throughput: 3431.0 tokens/s" / "Avg generation throughput: 1062.0
    tokens/s" pasted alone are the engine's summed rates (input_throughput, throughput); beside
    "Running: 1 reqs" (or 0, the interval's last) they are that one request's own (prefill, decode);
    "x2 RTX 3090" is two cards."""
    from benchbook.audit.toollines import tool_results

    lines = [
        (1, "Avg prompt throughput: 3431.0 tokens/s"),
        (2, "Avg generation throughput: 1062.0 tokens/s"),
        (
            3,
            "INFO metrics.py:345] Avg prompt throughput: 7.3 tokens/s, "
            "Avg generation throughput: 52.5 tokens/s, Running: 1 reqs",
        ),
        (4, "Avg prompt throughput: 1.2 tokens/s, Avg generation throughput: 2.6 tokens/s, Running: 0 reqs"),
        (
            5,
            "Avg prompt throughput: 11244.6 tokens/s, "
            "Avg generation throughput: 267.6 tokens/s, Running: 337 reqs",
        ),
    ]
    got = [(r.line, r.metric, r.value) for r in tool_results(lines, True)]
    assert got == [
        (1, "input_throughput", "3431.0"),
        (2, "throughput", "1062.0"),
        (3, "prefill_tps", "7.3"),
        (3, "decode_tps", "52.5"),
        (4, "prefill_tps", "1.2"),
        (4, "decode_tps", "2.6"),
        (5, "input_throughput", "11244.6"),
        (5, "throughput", "267.6"),
    ]
    assert [(m.path, m.value) for m in mentions("x2 RTX 3090 what FAIL")] == [
        ("hardware", "2x NVIDIA GeForce RTX 3090")
    ]
    assert [(m.path, m.value) for m in mentions("tx2 RTX 3090")] == [("hardware", "NVIDIA GeForce RTX 3090")]


def test_breaker_controls_for_session_62s_kinds(tmp_path):
    """The breaker's inputs, each a control of a kind above: "PP 2" of pipeline parallelism is no
    rate; "on RTX 3090" over "PP 1713 TG 40" leaves 3090 to the card; a date, a driver's number or a
    label's value on its own line is no release; "[Run 1]"/"[GPU0]"/"[INFO ]" name no workload; a
    recap of two runs cites them; a fork named beside "stock" llama.cpp, in a build folder or as a
    binding leaves llama.cpp; "| 4.0 bpw tok/s |" is no release; "DeepSeek V3 1000 requests" keeps
    its name; "Total Response Time" is a duration; collect_env's two GPUs are counted."""
    assert [(n.text, n.unit) for n in numbers("I split the model with TP 4, PP 2 across the two nodes.")] == [
        ("4", None),
        ("2", None),
    ]
    got = [(n.text, n.unit, n.unit_written) for n in numbers("Mistral Small 24B on RTX 3090 PP 1713 TG 40")]
    assert got == [("3090", None, None), ("1713", "t/s", "PP"), ("40", "t/s", "TG")]

    post = (
        "# Run\n\nvLLM 0.8.5 on an A10.\n\nDriver:\n550.127.08\nDecode 40.1 tok/s\n\n"
        "2025.05.14\nDecode 41.2 tok/s\n"
    )
    cf = _drafted(post, tmp_path)
    assert {_cond(cf, c)["build"] for c in cf.claims} == {"0.8.5"}

    post = "# Run\n\n[Run 1] 185 tokens in 4.17s = 44.3 tok/s\n[Run 2] 190 tokens in 4.20s = 45.2 tok/s\n"
    cf = _drafted(post, tmp_path)
    assert all("prompt" not in _cond(cf, c) for c in cf.claims)
    post = "# Run\n\n[INFO ] 185 tokens in 4.17s = 44.3 tok/s\n[WARN ] 190 tokens in 4.20s = 45.2 tok/s\n"
    cf = _drafted(post, tmp_path)
    assert all("prompt" not in _cond(cf, c) for c in cf.claims)

    post = (
        "# Patch\n\nBefore the patch: decode 40 t/s, prefill 900 t/s.\n"
        "After the patch: decode 45 t/s, prefill 950 t/s.\n\nTL;DR decode goes 40 t/s → 45 t/s.\n"
    )
    cf = _drafted(post, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [40.0, 45.0, 900.0, 950.0]

    fork = (
        "# ik_llama.cpp vs the stock build\n\n```\nllama-server -m /m/Qwen3-8B-Q4_K_M.gguf\n```\n\n"
        "decode 42.3 tok/s\n"
    )
    cf = _drafted(fork, tmp_path)
    assert {_cond(cf, c)["engine"] for c in cf.claims} == {"llama.cpp"}
    binding = fork.replace("ik_llama.cpp vs the stock build", "Through LocalAI's go-llama.cpp binding")
    cf = _drafted(binding, tmp_path)
    assert {_cond(cf, c).get("engine") for c in cf.claims} <= {"llama.cpp", "LocalAI"}

    table = (
        "# ExLlamaV2 0.2.8\n\n| model | 4.0 bpw tok/s | 5.0 bpw tok/s |\n|---|---|---|\n| 7B | 120 | 100 |\n"
        "| 13B | 70 | 60 |\n"
    )
    cf = _drafted(table, tmp_path)
    assert {_cond(cf, c).get("build") for c in cf.claims} == {"0.2.8"}

    assert [(m.path, m.value) for m in mentions("We sent DeepSeek V3 1000 requests")] == [
        ("model", "DeepSeek V3")
    ]
    assert metric_of("s", "Total Response Time (all requests): ") == "duration"

    env = (
        "# slower\n\n```text\nGPU models and configuration :\nGPU 0: NVIDIA H100 80GB HBM3\n"
        "GPU 1: NVIDIA H100 80GB HBM3\n```\n\nDecode was 45.2 tok/s.\n"
    )
    cf = _drafted(env, tmp_path)
    assert {_cond(cf, c)["hardware"] for c in cf.claims} == {"2x NVIDIA H100 80GB"}

"""Kinds of input the held-out sets h273–h292 showed the drafter misreading (issue 29, session 50),
each fixed as a kind with controls: a list of ``label: value`` record lines run together into one
sentence; a one-letter ``key=value`` read as seconds (exllamav3's "S=1"); a label line naming the
prompt's pass over the record lines under it ("Prefill:"); a row label stating a setting with a
remark ("230 W (ours)") taken for a metric's name; a column of power limits; llama-bench's size
column."""

from __future__ import annotations

from benchbook.audit.drafttable import _names_row
from drafting import conditions as _cond
from drafting import drafted as _drafted

#: exllamav3's eval/perf.py output: its prefill list under "Prefill:", its decode list under
#: "Generation" with S=1 (one sequence) on each line
_PERF = """```
Prefill:
Length      256:     113.75 tokens/s
Length      512:     165.63 tokens/s

Generation
Context       0: S=1      17.33 tokens/s
Context     256: S=1      17.43 tokens/s
```
"""


def test_perf_lists_read_by_their_label_lines(tmp_path):
    """The lines under "Prefill:" are prefill rates; those under "Generation" decode rates; "S=1"
    (the sequences) is no 1 s duration."""
    cf = _drafted(_PERF, tmp_path)
    got = sorted((c.metric, c.value, c.unit) for c in cf.claims)
    assert got == [
        ("decode_tps", 17.33, "tok/s"),
        ("decode_tps", 17.43, "tok/s"),
        ("prefill_tps", 113.75, "tok/s"),
        ("prefill_tps", 165.63, "tok/s"),
    ]


def test_prefill_label_in_prose_reaches_every_line_of_its_list(tmp_path):
    """In prose too the label line names the pass of every line under it, not only the first."""
    cf = _drafted("Prefill:\nLength 256: 113.75 tokens/s\nLength 512: 165.63 tokens/s\n", tmp_path)
    assert sorted((c.metric, c.value) for c in cf.claims) == [
        ("prefill_tps", 113.75),
        ("prefill_tps", 165.63),
    ]


def test_prefill_label_does_not_override_a_lines_own_phase(tmp_path):
    """Control: a line naming its own phase keeps it; a list with no label line stays decode."""
    cf = _drafted("Prefill:\nLength 256: 113.75 tokens/s\nGeneration 256: 17.4 tokens/s\n", tmp_path)
    assert {c.value: c.metric for c in cf.claims} == {113.75: "prefill_tps", 17.4: "decode_tps"}
    cf = _drafted("Results:\nLength 256: 113.75 tokens/s\nLength 512: 165.63 tokens/s\n", tmp_path)
    assert {c.metric for c in cf.claims} == {"decode_tps"}


def test_record_lines_are_sentences_of_their_own(tmp_path):
    """Each "Context N: … R tokens/s" line of a paragraph is its own sentence: its context is its
    own, not the next line's (they ran together when a "S=1" stood between label and value)."""
    text = (
        "Context 1000: S=1 17.33 tokens/s\nContext 2000: S=1 17.43 tokens/s\n"
        "Context 3000: S=1 17.11 tokens/s\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: (_cond(cf, c).get("ctx"), c.quote) for c in cf.claims}
    assert got == {
        17.33: (1000, "Context 1000: S=1 17.33 tokens/s"),
        17.43: (2000, "Context 2000: S=1 17.43 tokens/s"),
        17.11: (3000, "Context 3000: S=1 17.11 tokens/s"),
    }


def test_one_letter_key_is_no_unit_but_a_time_key_is(tmp_path):
    """Control: "ttft=0.30s tok/s=78.4" in a code block still gives a TTFT and a rate."""
    cf = _drafted("```\nB=4 S=1 ttft=0.30s tok/s=78.4\n```\n", tmp_path)
    assert sorted((c.metric, c.value, c.unit) for c in cf.claims) == [
        ("decode_tps", 78.4, "tok/s"),
        ("ttft", 0.3, "s"),
    ]


def test_row_label_with_a_remark_is_a_setting_not_a_metric():
    """ "230 W (ours)" is the row's setting with a remark; "3200 tokens (prompt processing,
    seconds)" names its metric in the parentheses."""
    assert _names_row("230 W (ours)") is False
    assert _names_row("16K ctx") is False
    assert _names_row("3200 tokens (prompt processing, seconds)") is True
    assert _names_row("Avg tok/s") is True


def test_power_limit_column_is_each_rows_setting(tmp_path):
    """A "Power limit" column's watts are each row's setting (``other.power_limit``), no power
    claims, and the table is not read as transposed."""
    text = (
        "| Power limit | decode t/s | Prefill t/s |\n|---|--:|--:|\n"
        "| 230 W (ours) | 36.74 | 749 |\n| 250 W (yours) | 47.15 | 949 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(c.metric, c.value, c.unit, _cond(cf, c)["other"]["power_limit"]) for c in cf.claims}
    assert got == {
        ("decode_tps", 36.74, "t/s", "230 W (ours)"),
        ("decode_tps", 47.15, "t/s", "250 W (yours)"),
        ("prefill_tps", 749.0, "t/s", "230 W (ours)"),
        ("prefill_tps", 949.0, "t/s", "250 W (yours)"),
    }


_BENCH = """| model | size | params | backend | threads | test | t/s |
| --- | ---: | ---: | --- | ---: | ---: | ---: |
| llama 1B Q4_K - Medium | 636.18 MiB | 1.10 B | Metal,BLAS | 16 | pp512 | 5587.84 ± 12.06 |
| llama 1B Q4_K - Medium | 636.18 MiB | 1.10 B | Metal,BLAS | 16 | tg128 | 242.56 ± 3.63 |
| llama 3B Q4_K - Medium | 1.87 GiB | 3.21 B | Metal,BLAS | 16 | pp512 | 2142.59 ± 15.24 |
| llama 3B Q4_K - Medium | 1.87 GiB | 3.21 B | Metal,BLAS | 16 | tg128 | 141.10 ± 0.52 |

build: e9fd8dc (7825)
"""


def test_llama_bench_size_column_is_one_claim_per_model(tmp_path):
    """The size column is the model file's size: one ``model_size`` claim per model (each row of a
    model repeats it), in the unit printed, with the row's model and quant, on its first row."""
    cf = _drafted(_BENCH, tmp_path)
    sizes = [
        (c.value, c.unit, c.source_line, _cond(cf, c).get("model"), _cond(cf, c).get("quant"))
        for c in cf.claims
        if c.metric == "model_size"
    ]
    assert sizes == [(636.18, "MiB", 3, "llama 1B", "Q4_K_M"), (1.87, "GiB", 5, "llama 3B", "Q4_K_M")]
    assert sum(c.metric != "model_size" for c in cf.claims) == 4  # the rates, as before


def test_a_scripts_time_for_tokens_line_in_code_gives_time_and_rate(tmp_path):
    """h288: "Generation time: 19.69s for 1128 tokens, speed: 57.29 tokens/s" printed by a script in
    a code block: the time, the tokens and the rate, each line alone; its full-precision floats exact
    (``decimals: null``) whichever reader drafts them."""
    text = (
        "```\nGeneration time: 19.689866304397583s for 1128 tokens, speed: 57.28835242258957 tokens/s\n"
        "Generation time: 24.006053924560547s for 1469 tokens, speed: 61.192897617257664 tokens/s\n```\n"
    )
    cf = _drafted(text, tmp_path)
    got = sorted((c.metric, c.value, c.decimals, c.source_line) for c in cf.claims if c.metric != "tokens")
    assert got == [
        ("decode_tps", 57.28835242258957, None, 2),
        ("decode_tps", 61.192897617257664, None, 3),
        ("duration", 19.689866304397583, None, 2),
        ("duration", 24.006053924560547, None, 3),
    ]
    assert {_cond(cf, c).get("tokens_generated") for c in cf.claims if c.metric == "duration"} == {1128, 1469}


def test_machine_float_is_fifteen_significant_digits_of_a_fraction():
    """A double printed whole has 15 to 17 significant digits; fewer is a rounding someone chose."""
    from benchbook.audit.draftcore import machine_float

    assert machine_float("19.689866304397583") and machine_float("0.04074668884277344")
    assert machine_float("104.77625703811646")
    assert not machine_float("19.6898663043") and not machine_float("123456789012345678")
    assert not machine_float("57.28")


def test_an_engine_named_like_a_flag_heads_its_results(tmp_path):
    """h289: "| Model | MetalRT | uzu | mlx-lm | llama.cpp |" under a heading naming the unit:
    "mlx-lm" is an engine's column of rates, not a setting's ("draft-p-min")."""
    text = (
        "## Decode Speed (tok/s)\n\n| Model | MetalRT | mlx-lm | llama.cpp |\n|---|---|---|---|\n"
        "| Qwen3-0.6B | 658 | 552 | 295 |\n| Qwen3-4B | 186 | 170 | 87 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(c.value, _cond(cf, c).get("engine")) for c in cf.claims}
    assert (552.0, "MLX") in got and (170.0, "MLX") in got and len(got) == 6
    control = (
        "## Decode Speed (tok/s)\n\n| Model | draft-p-min | tg |\n"
        "|---|---|---|\n| A | 0.5 | 41.5 |\n| B | 0.8 | 52.5 |\n"
    )
    cf = _drafted(control, tmp_path)
    assert sorted(c.value for c in cf.claims) == [41.5, 52.5]


def test_ranges_in_a_table_of_no_unit_under_a_heading_naming_it(tmp_path):
    """h290: "| Hardware | 7B | 13B |" over "130-150 | 85-105" under a heading naming tps: each cell
    a range of rates; a footnote's mark ("40-55*", "OOM*") neither hides a column nor is a value."""
    text = (
        "## Single-Stream tps by Model Size\n\n| Hardware | 7B | 30B | 120B |\n|---|---|---|---|\n"
        "| RTX 5090 (32GB) | 130-150 | 40-55* | OOM* |\n| DGX Spark (128GB) | 105-125 | 50-65 | 20-28 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = sorted((tuple(c.range), c.unit) for c in cf.claims)
    assert got == [
        ((20.0, 28.0), "tok/s"),
        ((40.0, 55.0), "tok/s"),
        ((50.0, 65.0), "tok/s"),
        ((105.0, 125.0), "tok/s"),
        ((130.0, 150.0), "tok/s"),
    ]


def test_the_measure_takes_a_rates_spellings_in_any_case():
    """draft_measure compares "TPS" with "tok/s" as one unit, as it does "tps"; not "ms" with "s"."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "draft_measure.py"
    spec = importlib.util.spec_from_file_location("draft_measure", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod._same_unit("TPS") == mod._same_unit("tok/s") == mod._same_unit("Tokens/s") == "t/s"
    assert mod._same_unit("ms") == "ms" and mod._same_unit("QPS") == "req/s" and mod._same_unit(None) is None


_SERVING = """```
python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct \\
  --speculative-algorithm EAGLE3 --speculative-num-steps 5
```

```
python3 -m sglang.bench_serving --backend sglang --dataset-name sharegpt --num-prompts 500
```

```
Benchmark duration (s):                  260.11
Output token throughput (tok/s):         349.88
```
"""


def test_a_serving_clients_results_are_the_servers_model(tmp_path):
    """h287: "sglang.bench_serving" after the server's launch line names no model: its results are
    the launched server's (model, engine, drafting), with the client's own settings besides."""
    cf = _drafted(_SERVING, tmp_path)
    rate = next(c for c in cf.claims if c.value == 349.88)
    cond = _cond(cf, rate)
    assert cond["model"] == "Llama-3.1-8B-Instruct" and cond["engine"] == "SGLang"
    assert cond["decoding"] == "speculative" and cond["other"]["num_prompts"] == 500


def test_a_client_naming_its_model_keeps_its_own(tmp_path):
    """Control: a client line naming a model (``--model``) states its own, not the server's."""
    text = _SERVING.replace("--num-prompts 500", "--model Qwen/Qwen3-8B --num-prompts 500")
    cf = _drafted(text, tmp_path)
    rate = next(c for c in cf.claims if c.value == 349.88)
    assert _cond(cf, rate)["model"] == "Qwen3-8B"


def test_a_llama_cpp_change_titled_by_its_backend_names_it(tmp_path):
    """h293: a pull request titled "vulkan: scalar flash attention" measures Vulkan: its table's rows
    take the backend; a title naming none gives none, and "CUDA: 12.4" (a version) is no label."""
    table = (
        "| GPU | fa | tg128 t/s |\n|---|---|---|\n"
        "| AMD RX 480 | 0 | 37.8 ± 0.1 |\n| AMD RX 480 | 1 | 26.5 ± 0.1 |\n"
    )
    cf = _drafted(f"# vulkan: scalar flash attention implementation\n\n{table}", tmp_path)
    assert {_cond(cf, c).get("backend") for c in cf.claims} == {"Vulkan"}
    cf = _drafted(f"# scalar flash attention implementation\n\n{table}", tmp_path)
    assert {_cond(cf, c).get("backend") for c in cf.claims} == {None}


def test_a_commit_named_in_prose_is_the_build(tmp_path):
    """h301: "PR #22673 (commit 4f13cb7) landed MTP …": the build; a hash without the word is none."""
    cf = _drafted("PR #22673 (commit 4f13cb7) landed MTP in llama.cpp.\n\nDecode: 38.7 tok/s\n", tmp_path)
    assert [_cond(cf, c).get("build") for c in cf.claims] == ["4f13cb7"]
    cf = _drafted("The script probe.py at 70a699e4 ran it.\n\nDecode: 38.7 tok/s\n", tmp_path)
    assert [_cond(cf, c).get("build") for c in cf.claims] == [None]


_LABELS = """Qwen3.6 27B, single-stream chat, temperature 0, median of 5 runs:

Strix Halo (Framework Desktop, ROCm 7.0.2):
- Q4_K_M: 11.7 → 21.2 tok/s (1.81×)

Single RTX 3090 @ 450W (CUDA 12.9):
- Q4_K_M: 38.7 → 59.5 tok/s (1.54×)
"""


def test_a_label_over_labels_holds_for_all_of_them(tmp_path):
    """h301: the label line right over another label states what every rig's list shares (one
    stream, temperature 0); each rig's label its own backend, not the next rig's."""
    cf = _drafted(_LABELS, tmp_path)
    got = {
        c.value: (_cond(cf, c).get("concurrency"), _cond(cf, c).get("sampling"), _cond(cf, c).get("backend"))
        for c in cf.claims
    }
    assert got == {
        11.7: (1, "temperature 0", "ROCm"),
        21.2: (1, "temperature 0", "ROCm"),
        38.7: (1, "temperature 0", "CUDA"),
        59.5: (1, "temperature 0", "CUDA"),
    }


def test_a_label_over_a_list_holds_only_to_the_next_label(tmp_path):
    """Control: a label with its own list under it ends at the next label, as before."""
    text = "Run A, temperature 0:\n\n- Q4_K_M: 11.7 tok/s\n\nRun B, single stream:\n\n- Q4_K_M: 38.7 tok/s\n"
    cf = _drafted(text, tmp_path)
    got = {c.value: (_cond(cf, c).get("sampling"), _cond(cf, c).get("concurrency")) for c in cf.claims}
    assert got == {11.7: ("temperature 0", None), 38.7: (None, 1)}


def test_a_phase_column_of_a_post_stating_no_rate_unit_is_in_tokens_per_second(tmp_path):
    """h277: "| Power limit | Narr / code decode | Prefill @10K |" over plain numbers in a post that
    writes no rate unit anywhere: decode and prefill rates, tok/s implied; a time column beside them
    ("Prefill time") is no rate, and a column no phase heads ("Cold") stays unplaced."""
    text = (
        "| Power limit | Narr / code decode | Prefill @10K | Prefill time | Cold |\n|---|--:|--:|--:|--:|\n"
        "| 230 W (ours) | 36.74 / 42.42 | 749 | 13.3 | 5.1 |\n"
        "| 370 W (ours) | 67.25 / 78.76 | 1143 | 8.7 | 4.9 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = sorted((c.metric, c.value, c.unit) for c in cf.claims)
    assert got == [
        ("decode_tps", 36.74, "t/s"),
        ("decode_tps", 42.42, "t/s"),
        ("decode_tps", 67.25, "t/s"),
        ("decode_tps", 78.76, "t/s"),
        ("prefill_tps", 749.0, "t/s"),
        ("prefill_tps", 1143.0, "t/s"),
    ]


def test_a_phase_column_under_a_stated_unit_takes_that_unit(tmp_path):
    """Control: where the paragraph above states the rate unit, the phase columns take it, not t/s."""
    text = (
        "Rates in tokens/s (43.9 tokens/s median):\n\n| Run | decode |\n"
        "|---|--:|\n| A | 36.74 |\n| B | 67.25 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert {c.unit for c in cf.claims if c.value in (36.74, 67.25)} == {"tok/s"}  # the paragraph's, not t/s


def test_a_spreadsheet_of_phase_rows_reads_its_rates(tmp_path):
    """p191: a pasted spreadsheet of rows "Prefill", "Decode", "Tokens prefill" over configuration
    columns, no unit written: the phase rows are rates in tok/s, the token rows counts."""
    text = (
        "\tDefault\t--cpu_infer 22\n"
        "Prefill\t12.31613439\t23.87405887\n"
        "Decode\t4.384906435\t5.116141499\n"
        "Tokens prefill\t3046\t3046\n"
    )
    cf = _drafted(text, tmp_path)
    rates = sorted((c.metric, c.value, c.unit) for c in cf.claims if c.unit == "t/s")
    assert rates == [
        ("decode_tps", 4.384906435, "t/s"),
        ("decode_tps", 5.116141499, "t/s"),
        ("prefill_tps", 12.31613439, "t/s"),
        ("prefill_tps", 23.87405887, "t/s"),
    ]


def test_rows_naming_a_phase_make_a_table_of_metrics_as_rows(tmp_path):
    """h259: "| | your 3090 @ 250 W | our 4090 @ 450 W |" over "C1 decode, greedy", "tok/step",
    "GSM8K" rows: the rows name the metrics; a decode row's plain numbers are rates of the post's
    unit, "tok/step" (tokens a verify step) no rate, GSM8K's percentages their own."""
    text = (
        "Decode ran at 120 tok/s before.\n\n"
        "| | your 3090 @ 250 W | our 4090 @ 450 W |\n|---|---:|---:|\n"
        "| C1 decode, greedy | 133 | **135.5** |\n| tok/step | — | 3.28 |\n"
        "| GSM8K | 96.5% (n=200) | 98.3% (n=60) |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: c.unit for c in cf.claims}
    assert got[133.0] == got[135.5] == "tok/s"
    assert got[96.5] == got[98.3] == "%"
    assert got.get(3.28) in (None, "tokens")  # never a rate


def test_a_header_writing_tok_per_step_names_no_rate():
    from benchbook.audit.drafttable import _header_unit

    assert _header_unit("tok/step") == "tokens"
    assert _header_unit("Speed (tok/s)") == "tok/s"


def test_mlx_lm_peak_memory_key_is_in_gb(tmp_path):
    """p195/p197: mlx_lm's "prompt_tps=…, generation_tps=…, peak_memory=9.545" prints the peak in GB;
    a peak_memory key on another tool's line states no unit (listed, not guessed)."""
    cf = _drafted("Pre: prompt_tps=27330.184, generation_tps=184.120, peak_memory=9.545\n", tmp_path)
    assert sorted((c.metric, c.value, c.unit) for c in cf.claims) == [
        ("decode_tps", 184.12, "tok/s"),
        ("memory_used", 9.545, "GB"),
        ("prefill_tps", 27330.184, "tok/s"),
    ]
    cf = _drafted("```\nrun=3 tok_s=41.5 peak_memory=9.545\n```\n", tmp_path)
    assert [c.value for c in cf.claims] == [41.5]


def test_a_rate_spelled_out_before_its_compared_pair(tmp_path):
    """p177: "Median tokens/second: MoE 20.0 vs Dense 4.4": the unit named once before the pair
    (spelled "tokens/second") is each number's."""
    cf = _drafted("Median tokens/second: MoE 20.0 vs Dense 4.4\n", tmp_path)
    assert sorted((c.value, c.unit) for c in cf.claims) == [(4.4, "tok/s"), (20.0, "tok/s")]


def test_a_script_of_an_engines_repository_runs_that_engine(tmp_path):
    """h275: "$ python ../exllamav3/eval/perf.py --model_dir …" over its output: ExLlamaV3's numbers;
    a script of no engine's folder names none."""
    text = (
        "```\n$ python ../exllamav3/eval/perf.py --model_dir models/Qwen3-8B-exl3-4.0bpw/ -cs 4096\n"
        "Generation\nContext 256: S=1 17.43 tokens/s\n```\n"
    )
    cf = _drafted(text, tmp_path)
    (c,) = cf.claims
    assert _cond(cf, c).get("engine") == "ExLlamaV3"
    assert str(_cond(cf, c).get("model")).startswith("Qwen3-8B")  # the folder's name, its exl3 packing kept
    cf = _drafted(text.replace("../exllamav3/eval/perf.py", "bench/perf.py"), tmp_path)
    assert _cond(cf, cf.claims[0]).get("engine") is None


def test_a_draft_count_in_words_is_each_clauses_drafting(tmp_path):
    """h302: "7.0 tok/s without MTP, 15.6 tok/s with 2 draft tokens, 18.0 tok/s with 3 draft
    tokens" in a post about MTP: each rate its own clause's decoding and draft size, the drafted
    ones of the post's kind (draft-self); in a post naming no kind, speculative."""
    line = (
        "- Spark: 7.0 tok/s without MTP, 15.6 tok/s with 2 draft tokens (2.23x), "
        "18.0 tok/s with 3 draft tokens\n"
    )
    cf = _drafted("# MTP lands in llama.cpp\n\n" + line, tmp_path)
    got = {c.value: (_cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims}
    assert got == {7.0: ("plain", None), 15.6: ("draft-self", 2), 18.0: ("draft-self", 3)}
    cf = _drafted("# Drafting\n\n" + line.replace("without MTP", "plain"), tmp_path)
    got = {c.value: _cond(cf, c).get("decoding") for c in cf.claims}
    assert got[15.6] == got[18.0] == "speculative"


def test_the_percent_sign_spelled_out(tmp_path):
    """h290: "with 1-3 percent perplexity degradation": a range in %; "the 95th percentile" none."""
    from benchbook.audit.draftprose import numbers

    assert [(n.text, n.unit) for n in numbers("with 1-3 percent perplexity degradation")] == [("1–3", "%")]
    assert [(n.text, n.unit) for n in numbers("a 12 per cent drop, 5 Prozent")] == [("12", "%"), ("5", "%")]
    assert numbers("the 95th percentile") == []


def test_labelled_numbers_listed_after_a_rate_take_its_unit(tmp_path):
    """h243: "q4_0 9.66 tok/s, f16 15.15."; "Mean: 22.1 tok/s, Min: 16.19, Max: 28.09": one list, one
    unit.  Controls: a whole number after it ("n_ctx 131072") and another quantity's key ("AL=6.42")
    keep none."""
    cf = _drafted("At 131072 depth: q4_0 9.66 tok/s, f16 15.15.\n", tmp_path)
    assert sorted((c.value, c.unit) for c in cf.claims) == [(9.66, "tok/s"), (15.15, "tok/s")]
    cf = _drafted("Decode: Mean: 22.1 tok/s, Min: 16.19, Max: 28.09\n", tmp_path)
    assert sorted(c.value for c in cf.claims if c.unit == "tok/s") == [16.19, 22.1, 28.09]
    cf = _drafted("It ran 22.1 tok/s, n_ctx 131072, and DFlash: 53.3 tok/s, AL=6.42\n", tmp_path)
    assert {c.value: c.unit for c in cf.claims}.get(6.42) != "tok/s"
    assert 131072.0 not in {c.value for c in cf.claims if c.unit == "tok/s"}


def test_a_benchmarks_set_output_length_is_the_cap(tmp_path):
    """h234: a serving benchmark's settings "测试长度: 输入=200, 输出=100" (or "output_len=100") over
    its result: each request may generate 100 tokens (`cap`), in a code block or in prose."""
    block = "```\n   测试长度: 输入=200, 输出=100\n   Mean TTFT (ms):   45.30\n```\n"
    cf = _drafted(block, tmp_path)
    assert [(c.value, _cond(cf, c).get("cap")) for c in cf.claims] == [(45.3, 100)]
    cf = _drafted("With output_len=100 the mean TTFT was 45.3 ms.\n", tmp_path)
    assert [(c.value, _cond(cf, c).get("cap")) for c in cf.claims] == [(45.3, 100)]


def test_evalscope_perf_is_a_client_its_lists_set_no_value(tmp_path):
    """h237: "evalscope perf --parallel 5 10 20 --number 5 10 20 --model X --dataset longalpaca
    --max-tokens 2000": a benchmark client (no engine of its own), its dataset the prompt set, its
    cap; a list after a flag ("--parallel 5 10 20") is runs, no one concurrency."""
    from benchbook.audit.draftcommand import command_lines

    (c,) = command_lines(
        [
            (
                1,
                "evalscope perf --parallel 5 10 20 --number 5 10 20 --model meta-llama/Llama-3.1-8B-Instruct "
                "--dataset longalpaca --max-tokens 2000",
            )
        ]
    )
    assert "engine" not in c.conditions and "concurrency" not in c.conditions
    assert c.conditions["prompt"] == "longalpaca" and c.conditions["cap"] == 2000
    assert c.conditions["model"] == "Llama-3.1-8B-Instruct"
    (c,) = command_lines([(1, "python3 -m sglang.bench_serving --dataset-name hf --num-prompts 100")])
    assert "prompt" not in c.conditions  # "hf": the loader, the dataset another flag's


def test_avg_lat_is_a_latency(tmp_path):
    """h237: "| Concurrency | vLLM V0 Avg Lat(s) |": latency written short."""
    cf = _drafted(
        "| Concurrency | vLLM V0 Avg Lat(s) |\n|---|---|\n| 5 | 16.98 |\n| 50 | 26.18 |\n", tmp_path
    )
    assert {c.metric for c in cf.claims} == {"latency"}


def test_a_setting_named_row_of_rates_is_measured(tmp_path):
    """h242: metrics as rows, "| Concurrency | 2.47 tok/s | 4.56 req/s | 6.22 req/s |": the row
    states rates (its settings' name notwithstanding), each cell in its own unit; a "Concurrency"
    column of whole numbers stays each row's setting."""
    text = (
        "| | Base | NVIDIA | Turbo |\n|---|---|---|---|\n"
        "| Prefill | 6352 tok/s | 11069 tok/s | 15359 tok/s |\n"
        "| Decode (single) | 24.1 tok/s | 39.2 tok/s | 51 tok/s |\n"
        "| Concurrency | 2.47 tok/s | 4.56 req/s | 6.22 req/s |\n"
    )
    cf = _drafted(text, tmp_path)
    assert {(c.value, c.unit) for c in cf.claims if c.value in (2.47, 4.56, 6.22)} == {
        (2.47, "tok/s"),
        (4.56, "req/s"),
        (6.22, "req/s"),
    }
    cf = _drafted("| Concurrency | Throughput (tok/s) |\n|---|---|\n| 1 | 41.5 |\n| 8 | 210.2 |\n", tmp_path)
    assert sorted((c.value, _cond(cf, c).get("concurrency")) for c in cf.claims) == [(41.5, 1), (210.2, 8)]


def test_power_per_token(tmp_path):
    """h219: "At 0.34 watts per token", "0.19 W/tok": a power per token (W/tok), no power draw in W."""
    cf = _drafted("At 0.34 watts per token the M4 leads; the A18 Pro edges it out at 0.19 W/tok.\n", tmp_path)
    assert sorted((c.metric, c.value, c.unit) for c in cf.claims) == [
        ("power_per_token", 0.19, "W/tok"),
        ("power_per_token", 0.34, "W/tok"),
    ]


def test_a_lead_in_ending_in_a_full_width_colon_names_its_lists_metric(tmp_path):
    """h267: "這是各模型的 TTFT 實際秒數差異…：" over "- Qwen3-1.7B：3.79s → 1.06s": TTFTs, as under an
    ASCII colon."""
    text = (
        "這是各模型的 TTFT 實際秒數差異，前面為 M4，後面則是 M5（越低越好）：\n\n"
        "- Qwen3-1.7B：3.79s → 1.06s\n- Qwen3-8B：16.92s → 4.67s\n"
    )
    cf = _drafted(text, tmp_path)
    assert {c.metric for c in cf.claims} == {"ttft"} and len(cf.claims) == 4


def test_a_models_size_in_chinese_words(tmp_path):
    """h272: "模型大小约14GB" (the model's size, about 14 GB): a model_size."""
    cf = _drafted("DeepSeek R1：采用FP16量化，模型大小约14GB。\n", tmp_path)
    assert [(c.metric, c.value, c.about) for c in cf.claims] == [("model_size", 14.0, True)]


def test_a_llama_cpp_build_line_with_the_hash_first(tmp_path):
    """h279: "llama.cpp build e9fd8dc (7825)" (llama-bench's own order, no colon) is the build; the
    title's "Mac Studio (64 core 128Gb)" is the machine's memory, no claim."""
    text = (
        "# Benchmark M1 Ultra Mac Studio (64 core 128Gb)\n\nllama.cpp build e9fd8dc (7825)\n\n"
        "Decode: 41.5 tok/s\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.value, _cond(cf, c).get("build")) for c in cf.claims] == [(41.5, "e9fd8dc (7825)")]


def test_versions_after_a_measurement_take_no_unit(tmp_path):
    """New user's finding: "Setup: RTX 4090 24GB, Ubuntu 24.04, CUDA 12.8." drafted 24.04 GB and
    12.8 GB; "45.2 tok/s, CUDA 12.8, driver 590.26" must not make 12.8 a rate: a product's or
    program's number is its version, and a size's list takes no unit (the machine's parts)."""
    cf = _drafted("Setup: RTX 4090 24GB, Ubuntu 24.04, CUDA 12.8.\n", tmp_path)
    assert [c.value for c in cf.claims] == []
    cf = _drafted("It ran at 45.2 tok/s, CUDA 12.8, driver 590.26, Python: 3.12\n", tmp_path)
    assert [c.value for c in cf.claims] == [45.2]


def test_a_serving_client_naming_the_servers_model_keeps_the_servers_flags(tmp_path):
    """New user's finding: "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 8192
    --kv-cache-dtype fp8" then "vllm bench serve --model Qwen/Qwen3-8B …": the results keep the
    server's context, cache type and tensor parallelism beside the client's own settings."""
    text = (
        "```\n"
        "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 8192 --kv-cache-dtype fp8\n"
        "```\n\n"
        "```\nvllm bench serve --model Qwen/Qwen3-8B --num-prompts 500 --random-output-len 256\n```\n\n"
        "```\nOutput token throughput (tok/s):         2084.04\n```\n"
    )
    cf = _drafted(text, tmp_path)
    (c,) = cf.claims
    cond = _cond(cf, c)
    assert (cond["ctx"], cond["type_k"], cond["cap"]) == (8192, "fp8", 256)
    assert cond["other"] == {"tensor_parallel_size": 2, "num_prompts": 500}


def test_first_token_latency_in_chinese_with_a_space(tmp_path):
    """New user's finding: "首个 token 延迟大约 350 毫秒" is a TTFT."""
    cf = _drafted("首个 token 延迟大约 350 毫秒。\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("ttft", 350.0, "ms")]


def test_breakers_findings_on_this_sessions_kinds(tmp_path):
    """The breaker's findings: "RTX 3090s" are cards, not 3090 s; bare "pp"/"tg" over test sizes,
    "PCIe gen", "Decode steps" and "Prefill chunks" over plain numbers are no rates; a record line
    naming the decode phase ends a "Prefill:" label's list; "with 0 draft tokens" drafts nothing."""
    cf = _drafted("On two RTX 3090s Llama 3.1 70B Q4_K_M decodes at 18.2 tok/s.\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(18.2, "tok/s")]
    for table in (
        "| Config | pp | tg |\n|---|---|---|\n| short | 512 | 128 |\n| long | 4096 | 512 |\n",
        "| Card | PCIe gen | Lanes |\n|---|---|---|\n| RTX 3090 | 4 | 16 |\n| RTX 5090 | 5 | 8 |\n",
        "| Run | Decode steps | Prefill chunks |\n|---|---|---|\n| a | 812 | 3 |\n| b | 640 | 7 |\n",
    ):
        assert _drafted(table, tmp_path).claims == []
    text = "Prefill:\nSpeed: 950.2 tok/s\nGeneration speed: 41.7 tok/s\nRun 2: 43.1 tok/s\n"
    got = {c.value: c.metric for c in _drafted(text, tmp_path).claims}
    assert got == {950.2: "prefill_tps", 41.7: "decode_tps", 43.1: "decode_tps"}
    cf = _drafted("# MTP\n\nWith 0 draft tokens it ran at 30.1 tok/s.\n", tmp_path)
    assert [_cond(cf, c).get("decoding") for c in cf.claims] != ["speculative"]


def test_a_table_copied_without_its_cell_borders(tmp_path):
    """h304: a page's table pasted as text, its cells glued ("Llama 3.3 70BQ4_K_M~40 GB", "DeepSeek R1
    Q4_K_M42 t/s68 t/s+62%"): the "~" is still "about", a rate's unit or a quantisation's name glued
    to the next number does not hide it.  Controls: "Q4_K_M7B", "Q8_016 GB" (no telling where a
    type ending in a digit stops), "BF16 TFLOPS" stay unread."""
    from benchbook.audit.draftprose import numbers

    def read(text: str) -> list:
        return [(n.text, n.unit, n.about) for n in numbers(text)]

    assert read("Llama 3.3 70BQ4_K_M~40 GB") == [("3.3", None, False), ("40", "GB", True)]
    assert read("DeepSeek R1 Q4_K_M42 t/s68 t/s+62%") == [
        ("42", "t/s", False),
        ("68", "t/s", False),
        ("62", "%", False),
    ]
    assert read("IQ4_XS118 tok/s") == [("118", "tok/s", False)]
    assert read("Q4_K_M7B") == [] and read("Q8_016 GB") == [] and read("BF16 TFLOPS") == []

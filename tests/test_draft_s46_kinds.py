"""Kinds of number the held-out posts h193–h202 showed the drafter missing (issue 29), each fixed as
a kind: a program's full-precision float (more decimals than a claims file counts: stated exact), a
rate a script prints in a code block in words no tool reader knows, a table of plain numbers whose
unit only the post's prose states, with cells that state no result ("N/A OOM"), a size column under
any header, and an engine's version in any spelling (prose and table cells) as the build."""

from __future__ import annotations

import pytest

from benchbook.audit.draftcore import machine_float, plain_value
from benchbook.audit.draftnames import cpu_names, engine_version_cell, mentions
from benchbook.audit.draftprose import metric_of, numbers
from benchbook.audit.drafttable import _EMPTY
from benchbook.audit.draftwords import engine_versions, settings_in_words
from drafting import conditions as _cond
from drafting import drafted as _drafted


@pytest.mark.parametrize(
    ("text", "machine"),
    [
        ("4.3245438351374705", True),  # 16 decimals: a double's repr
        ("0.97184930859984891", True),  # 17
        ("23355.064453125", False),  # 9 decimals: counted as written
        # 15 decimals, 16 significant digits: a double's repr too (session 50: told by the significant
        # digits, as a tool's result line always was, not by the decimals a claims file counts)
        ("1.123456789012345", True),
        ("19.689866304397583", True),  # 17 significant digits, 15 decimals
        ("1.12345678901", False),  # 12 significant digits: a rounding someone chose
        ("1.123456789012345678", False),  # 18: no double prints so
    ],
)
def test_a_machine_float_is_told_by_its_digits(text, machine):
    assert machine_float(text) is machine


def test_a_machine_float_has_a_value_and_a_longer_number_none():
    assert plain_value("2.7516928285295514") == pytest.approx(2.7516928285295514)
    assert plain_value("1.123456789012345678") is None


def test_a_scripts_rate_line_in_a_code_block_is_drafted_exact(tmp_path):
    """h194: "lmdeploy 运行时间: 23355.064453125 毫秒, 4.3245438351374705 token/s." in a code block
    that is no log: the time in ms (毫秒) as written, the rate exact (``decimals: null``)."""
    cf = _drafted(
        "# lmdeploy vs vllm on an A100\n\n```\n"
        "lmdeploy 运行时间: 23355.064453125 毫秒, 4.3245438351374705 token/s.\n"
        "vllm 运行时间: 36341.265625 毫秒, 2.7516928285295514 token/s.\n```\n",
        tmp_path,
    )
    got = [(c.value, c.unit, c.decimals, c.source_line) for c in cf.claims]
    assert got == [
        (23355.064453125, "ms", 9, 4),
        (4.3245438351374705, "tok/s", None, 4),
        (36341.265625, "ms", 6, 5),
        (2.7516928285295514, "tok/s", None, 5),
    ]
    engines = [c.conditions.engine for c in cf.claims]
    assert engines == ["LMDeploy", "LMDeploy", "vLLM", "vLLM"]


def test_code_that_prints_no_rate_stays_unplaced(tmp_path):
    """Control: a code block of sizes and times alone (no rate) is not read as prose: its numbers
    are listed under ``unplaced``, as before."""
    cf = _drafted("# Files\n\n```\nmodel.gguf   4.1 GB   copied in 12 s\n```\n", tmp_path)
    assert cf.claims == []


@pytest.mark.parametrize("cell", ["N/A OOM", "OOM", "n/a (oom)", "failed", "Error: timeout", "—", ""])
def test_a_cell_stating_no_result(cell):
    assert _EMPTY.match(cell)


@pytest.mark.parametrize("cell", ["22.5", "3 OOM", "xformers", "Q4_0"])
def test_a_cell_stating_something(cell):
    assert not _EMPTY.match(cell)


def test_a_unitless_table_takes_the_one_rate_the_post_states(tmp_path):
    """h195: the question states "1.53 tokens/s"; the reply's pipe table (no outer pipes) states
    plain numbers, "N/A OOM" where a run failed: its columns are rates in that unit."""
    cf = _drafted(
        "# Speed of llama 7b on these devices\n\n"
        "The blog got only 1.53 tokens/s on the Orin.\n\n"
        "Here are my numbers:\n\n"
        "Models | Size | Orin (llama.cpp) | A6000 (llama.cpp) | A6000 (TRT-LLM)\n"
        "-- | -- | -- | -- | --\n"
        "Llama2 | 7B 4-bit | 22.5 | 102.8 | 137.56\n"
        "Llama2 | 70B 4-bit | 3.0 | 14.0 | N/A OOM\n",
        tmp_path,
    )
    table = sorted((c.value, c.unit) for c in cf.claims if c.source_line in (9, 10))
    assert table == [
        (3.0, "tok/s"),
        (14.0, "tok/s"),
        (22.5, "tok/s"),
        (102.8, "tok/s"),
        (137.56, "tok/s"),
    ]


def test_two_rate_units_in_the_prose_give_a_bare_table_none(tmp_path):
    """Control: prose stating rates in two units (tok/s and req/s) names no one unit for a table
    that states none; its plain numbers stay unplaced."""
    cf = _drafted(
        "# Two servers\n\nThe first did 40 tok/s, the second 2.5 req/s.\n\n## Table\n\nSee below.\n\n"
        "| Model | A | B |\n|---|---|---|\n| x | 22.5 | 102.8 |\n| y | 3.0 | 14.0 |\n",
        tmp_path,
    )
    assert sorted(c.value for c in cf.claims) == [2.5, 40]


def test_a_size_column_under_any_header_sizes_the_rows_model(tmp_path):
    """h195: "| Models | # of parameters |" over "Llama2 | 13B 4-bit": the model is Llama2 of that
    size, the "4-bit" after the size its quant, whatever the size column's header."""
    cf = _drafted(
        "# Decode speed\n\n"
        "| Models | # of parameters | A6000 (tok/s) |\n|---|---|---|\n"
        "| Llama2 | 7B 4-bit | 102.8 |\n| Llama2 | 13B 4-bit | 63.5 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("model"), _cond(cf, c).get("quant")) for c in cf.claims]
    assert got == [(102.8, "Llama2-7B", "4-bit"), (63.5, "Llama2-13B", "4-bit")]


@pytest.mark.parametrize(
    ("text", "build"),
    [
        ("with llamafile-0.7 I get", "0.7"),  # a dash
        ("pinned sglang==0.4.1 for this", "0.4.1"),  # a pin
        ("LMDeploy v0.4.2 on an A100", "v0.4.2"),  # an engine past the first ten
        ("llama-cpp-python 0.3.5 as the binding", "0.3.5"),
    ],
)
def test_an_engines_version_in_any_spelling_is_the_build(text, build):
    out: list = []
    settings_in_words(text, out)
    assert ("build", build) in out


@pytest.mark.parametrize("text", ["Ollama 45.2 tok/s here", "vLLM 1.5x faster", "SGLang 2.5 GB less"])
def test_a_number_with_a_unit_after_an_engine_is_no_version(text):
    out: list = []
    settings_in_words(text, out)
    assert [v for k, v in out if k == "build"] == []


def test_an_engine_column_with_versions_splits_engine_and_build(tmp_path):
    """p121's kind: "| llamafile-0.7 |" and "| llama.cpp 2024-03-26 |" under a header the drafter
    does not know ("Software"): the column is the engine (every cell names one), the version the
    build."""
    cf = _drafted(
        "# Two engines\n\n| Software | tg (t/s) |\n|---|---|\n"
        "| llamafile-0.7 | 25 |\n| llama.cpp 2024-03-26 | 27 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("build")) for c in cf.claims]
    assert got == [(25, "llamafile", "0.7"), (27, "llama.cpp", "2024-03-26")]


@pytest.mark.parametrize(
    ("cell", "want"),
    [
        ("llamafile-0.7", ("llamafile", "0.7")),
        ("Ollama 0.30.4", ("Ollama", "0.30.4")),
        ("vLLM (v0.6.3)", ("vLLM", "v0.6.3")),
        ("llama.cpp b4567", ("llama.cpp", "b4567")),
        ("llama.cpp", None),
        ("llama.cpp fast", None),
    ],
)
def test_engine_version_cell(cell, want):
    assert engine_version_cell(cell) == want


def test_a_cell_in_another_unit_than_its_column_keeps_its_own(tmp_path):
    """p184: "| 6.9 秒 |" then "| 223 ms |" in one column: the column's unit is seconds, the second
    cell is 223 ms, not 223 s (the row writes its unit; the others' null is the column's)."""
    cf = _drafted(
        "# 压测\n\n| 并发请求数 | 首字延迟 P99 |\n|---|---|\n"
        "| 10 | 6.9 秒 |\n| 30 | 223 ms |\n| 64 | 334 ms |\n",
        tmp_path,
    )
    assert [(c.value, c.unit) for c in cf.claims] == [(6.9, "s"), (223, "ms"), (334, "ms")]


def test_a_machine_float_in_a_table_is_a_claim_of_its_own(tmp_path):
    """A table row cannot state an exact number (a null cell is the column's): the cell's claim is
    written apart, with the column's metric and unit, and the draft loads."""
    cf = _drafted(
        "# T\n\n| run | tg (tok/s) |\n|---|---|\n| a | 4.3245438351374705 |\n| b | 12.5 |\n", tmp_path
    )
    got = [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims]
    assert got == [("decode_tps", 4.3245438351374705, "tok/s", None), ("decode_tps", 12.5, "tok/s", 1)]


def test_an_acceptance_length_abbreviated_as_in_the_papers(tmp_path):
    """p200: "DFlash: 53.3 tok/s, AL=6.42": AL (mean accepted length) in capitals is tokens per
    verify step, beside the rate."""
    cf = _drafted("# DFlash on a V100\n\n- DFlash: 53.3 tok/s, AL=6.42\n", tmp_path)
    got = [(c.metric, c.value, c.unit) for c in cf.claims]
    assert ("mean_accepted_length", 6.42, "tokens") in got


def test_bytes_are_a_size(tmp_path):
    """p242: llama.cpp's old main prints "mem per token = 43387780 bytes" (B, a size)."""
    cf = _drafted(
        "# 7B on a Ryzen 7\n\n```\nmain: mem per token = 70897348 bytes\n```\n\nThat was 4.5 t/s.\n", tmp_path
    )
    assert (70897348, "B") in [(c.value, c.unit) for c in cf.claims]


def test_the_old_mains_predict_line_in_a_pasted_run(tmp_path):
    """p242: llama.cpp's old ``main`` printed "predict time = A ms / B ms per token" (its loop over
    prompt and generated tokens): a duration and a time per token, in a code block under the
    command as in prose."""
    cf = _drafted(
        "# 65B on a Ryzen 7\n\n```\n$ ./main -m models/65B/ggml-model-q4_0.bin -t 8 -n 128\n"
        "main:     load time = 14010.35 ms\nmain:  predict time = 140527.48 ms / 1089.36 ms per token\n```\n",
        tmp_path,
    )
    got = [(c.metric, c.value, c.unit) for c in cf.claims]
    assert got == [
        ("load_time", 14010.35, "ms"),
        ("duration", 140527.48, "ms"),
        ("ms_per_token", 1089.36, "ms"),
    ]


def test_each_engine_gets_its_own_version(tmp_path):
    """p136's kind: "(vLLM 0.5.0 vs SGLang 0.2.0)" then a table of both: each engine's claims carry
    that engine's version as the build, never the other's."""
    cf = _drafted(
        "# vLLM vs SGLang\n\nWe compare vLLM 0.5.0 vs SGLang 0.2.0 on one H100.\n\n"
        "| Engine | Throughput (tok/s) |\n|---|---|\n| vLLM | 12.5 |\n| SGLang | 14.2 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("build")) for c in cf.claims]
    assert got == [(12.5, "vLLM", "0.5.0"), (14.2, "SGLang", "0.2.0")]


def test_engine_versions():
    assert engine_versions("本文基于(vLLM 0.5.0 vs SGLang 0.2.0)的实测") == {
        "vLLM": "0.5.0",
        "SGLang": "0.2.0",
    }
    assert engine_versions("- vLLM版本:0.3.3") == {"vLLM": "0.3.3"}
    # one engine at two versions names none (each section says which)
    assert engine_versions("ollama 0.7.0 is 3x slower than ollama 0.6.8") == {}


def test_an_engine_cell_with_a_commit_and_its_backend(tmp_path):
    """p188: "| llama.cpp 59778f0 (cuda) |" under "Backend": engine, build (the commit) and backend."""
    cf = _drafted(
        "# 3090 runs\n\n| Variant | Backend | Gen tok/s |\n|---|---|---|\n"
        "| E2B-it | llama.cpp 59778f0 (cuda) | 181.1 |\n| E4B-it | llama.cpp 59778f0 (cuda) | 101.9 |\n",
        tmp_path,
    )
    cond = _cond(cf, cf.claims[0])
    assert (cond.get("engine"), cond.get("build"), cond.get("backend")) == ("llama.cpp", "59778f0", "CUDA")


@pytest.mark.parametrize(
    ("text", "quant"),
    [
        ("At 4-bit quantization, it reaches about 16 tok/s", "4-bit"),
        ("Qwen 2.5 72b 8 bit GGUF: 7.68 tokens/sec", "8 bit"),
        ("vLLM AWQ generates more tokens", "AWQ"),
        ("identical formats (GPTQ-INT4) on both", "GPTQ-INT4"),
        ("执行 4 位量化的 DeepSeek-R1-Distill-Llama-70B 模型", "4-bit"),
        ("модель в 4-битном формате", "4-bit"),
        ("the weights quantized to 4 bits", "4 bits"),
    ],
)
def test_a_quantisation_in_words(text, quant):
    assert [m.value for m in mentions(text) if m.path == "quant"] == [quant]


@pytest.mark.parametrize(
    "text", ["FP16 KV cache on both", "65.4 TF fp16", "a 64-bit build", "4 bits per weight"]
)
def test_no_quantisation_of_the_weights(text):
    """Control: a precision alone (KV cache, compute) and a bit width that is no quantisation."""
    assert [m.value for m in mentions(text) if m.path == "quant"] == []


@pytest.mark.parametrize(
    ("text", "hardware"),
    [
        ("on a Jetson Thor", "NVIDIA Jetson Thor"),
        ("NVIDIA Jetson AGX Orin 64GB version", "NVIDIA Jetson AGX Orin 64GB"),
        ("IGX Orin numbers", "NVIDIA IGX Orin"),
    ],
)
def test_nvidias_embedded_modules(text, hardware):
    assert [m.value for m in mentions(text) if m.path == "hardware"] == [hardware]


@pytest.mark.parametrize(
    ("text", "cpus"),
    [
        ("Ryzen 7 5700G", ["AMD Ryzen 7 5700G"]),
        ("Intel Core Ultra 9 275HX (24 cores)", ["Intel Core Ultra 9 275HX"]),
        ("dual Xeon Gold 6338", ["2x Intel Xeon Gold 6338"]),
        ("Threadripper 1920X", ["AMD Ryzen Threadripper 1920X"]),
        ("i9-13900K and an EPYC 9654", ["Intel Core i9-13900K", "AMD EPYC 9654"]),
        # the tier not written: AMD's numbering gives it (test_draft_s47_kinds: "AMD 5700G" is p243's)
        ("AMD 5700G", ["AMD Ryzen 7 5700G"]),
    ],
)
def test_cpu_names(text, cpus):
    assert cpu_names(text) == cpus


def test_the_posts_one_cpu_is_the_machine_where_no_other_is_named(tmp_path):
    """p210's kind: "Hardware: Intel Core Ultra 9 275HX" and no GPU: the CPU ran the claims."""
    cf = _drafted(
        "# TinyLlama on a laptop CPU\n\n- Hardware: Intel Core Ultra 9 275HX\n\nDecode ran at 41.2 tok/s.\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["Intel Core Ultra 9 275HX"]


def test_a_cpu_beside_a_gpu_is_not_the_machine(tmp_path):
    """Control: "RTX 4090 with a Ryzen 9 7950X": the GPU is the machine the run measures."""
    cf = _drafted("# Decode\n\nOn my RTX 4090 with a Ryzen 9 7950X, decode ran at 141.2 tok/s.\n", tmp_path)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["NVIDIA GeForce RTX 4090"]


@pytest.mark.parametrize(
    "before", ["GPU利用率(%): ", "GPUの使用率は", "GPU utilization ", "GPU util: ", "загрузка GPU "]
)
def test_a_gpus_busy_share(before):
    assert metric_of("%", before) == "gpu_utilization"


def test_a_gpus_memory_share_is_no_utilization():
    """The share of a GPU's memory in use is no GPU utilisation (the GPU's busy share): it is the
    memory's use (session 65: ``memory_utilization``, as the corpus's expected files write "显存利用率")."""
    assert metric_of("%", "GPU memory usage ") == "memory_utilization"


def test_key_value_pairs_pasted_without_a_fence(tmp_path):
    """p195: "Pre: prompt_tps=27330.184, generation_tps=184.120, peak_memory=9.545" as a paragraph:
    a program's key=value pairs whose keys name their unit (tps) are read as in a code block; mlx_lm's
    peak_memory, which names none, is in GB as mlx_lm prints it (session 50)."""
    cf = _drafted(
        "# CUDA graphs\n\nH100\nPre:   prompt_tps=27330.184, generation_tps=184.120, peak_memory=9.545\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("prefill_tps", 27330.184, "tok/s"),
        ("decode_tps", 184.12, "tok/s"),
        ("memory_used", 9.545, "GB"),
    ]


def test_one_pair_in_a_sentence_is_prose(tmp_path):
    """Control: a sentence with one "n=4" is no program's line."""
    cf = _drafted("# Runs\n\nWith n=4 the decode ran at 41.2 tok/s.\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(41.2, "tok/s")]


def test_labels_stacked_over_their_values(tmp_path):
    """p206: a summary copied a cell a line ("Mean TTFT (ms)" over "24437.27"): each value is read
    under the label above it, with its statistic."""
    cf = _drafted(
        "# Regression\n\n**sgl-kernel 0.3.5**\nMean E2E Latency (ms)\n35783.34\nMean TTFT (ms)\n24437.27\n"
        "P99 ITL (ms)\n54.95\n",
        tmp_path,
    )
    got = [(c.metric, c.value, c.unit, c.source_line) for c in cf.claims]
    assert got == [("latency", 35783.34, "ms", 5), ("ttft", 24437.27, "ms", 7), ("itl", 54.95, "ms", 9)]


def test_one_label_over_one_number_is_no_run(tmp_path):
    """Control: a lone "Latency (ms)" line over a number is not read as a stacked summary."""
    cf = _drafted("# Notes\n\nLatency (ms)\n35\n\nThat is all.\n", tmp_path)
    assert cf.claims == []


def test_tensorrt_llms_benchmark_line(tmp_path):
    """p208: TensorRT-LLM's benchmark.py prints one long line of "key value" pairs, units in the
    keys' parentheses ("latency(ms) 4409.816") or words ("tokens_per_sec 43.09"); settings
    ("batch_size 1") are no results."""
    line = (
        "[BENCHMARK] model_name llama_13b world_size 2 batch_size 1 input_length 710 output_length 190 "
        "tokens_per_sec 43.09 latency(ms) 4409.816 generation_time(ms) 3751.546"
    )
    cf = _drafted(f"# TRT-LLM\n\n```\n{line}\n```\n", tmp_path)
    got = [(c.metric, c.value, c.unit) for c in cf.claims]
    assert got == [("decode_tps", 43.09, "tok/s"), ("latency", 4409.816, "ms"), ("duration", 3751.546, "ms")]


def test_a_json_results_file_with_nested_statistics(tmp_path):
    """p207: a results file pasted as JSON, statistics nested under keys naming the quantity and
    its unit ("ttft_ms": {"min": ...}): each statistic a claim of that metric and unit, the run's
    model from its "model" path, the machine float exact."""
    cf = _drafted(
        "# vllm-mlx on an M4 Pro\n\n```\n{\n"
        '  "model": "~/models/mlx-community/Qwen3-0.6B-8bit",\n'
        '  "ttft_ms": {\n    "mean": 74.63276680064155,\n    "p95": 83.6725410008512\n  },\n'
        '  "latency_seconds": {\n    "max": 0.9872223750007834\n  }\n}\n```\n',
        tmp_path,
    )
    got = [(c.metric, c.value, c.unit, (_cond(cf, c).get("other") or {}).get("stat")) for c in cf.claims]
    assert got == [
        ("ttft", 74.63276680064155, "ms", "mean"),
        ("ttft", 83.6725410008512, "ms", "p95"),
        ("latency", 0.9872223750007834, "s", "max"),
    ]
    assert {(_cond(cf, c).get("model"), _cond(cf, c).get("quant")) for c in cf.claims} == {
        ("Qwen3-0.6B", "8bit")
    }


def test_exceeds_is_a_lower_bound(tmp_path):
    """h196: "throughput of TurboMind exceeds 2000 tokens/s": no value of 2000 is claimed, a bound
    (a todo statement), as for "over" and "more than"."""
    cf = _drafted(
        "# Poor performance\n\nThe output token throughput of TurboMind exceeds 2000 tokens/s.\n", tmp_path
    )
    assert [c.value for c in cf.claims] == []
    assert [s.kind for s in cf.statements] == ["bound"]


def test_exceeds_in_a_when_clause_is_a_threshold(tmp_path):
    """Control (p177): "When model weights plus KV cache exceed approximately 14GB, performance falls
    off a cliff": a threshold stated as a value, no bound of a result."""
    cf = _drafted(
        "# Mac mini\n\nWhen model weights plus KV cache exceed approximately 14GB, performance falls off.\n",
        tmp_path,
    )
    assert [(c.value, c.unit, c.about) for c in cf.claims] == [(14, "GB", True)]


def test_sglang_bench_one_batch_lines(tmp_path):
    """SGLang's bench_one_batch prints a phase, then its latency and throughput: "Prefill." makes
    the rate a prefill rate and the latency the prefill's (``other.phase``); "Total." the rate over
    prompt and output tokens."""
    cf = _drafted(
        "# SGLang one batch\n\n```\nPrefill. latency: 0.03457 s, throughput:  29628.53 token/s\n"
        "Decode.  latency: 0.01207 s, throughput:     82.85 token/s\n"
        "Total. latency:  1.562 s, throughput:    737.56 token/s\n```\n",
        tmp_path,
    )
    got = [(c.metric, c.value, (_cond(cf, c).get("other") or {}).get("phase")) for c in cf.claims]
    assert got == [
        ("latency", 0.03457, "prefill"),
        ("prefill_tps", 29628.53, None),
        ("latency", 0.01207, "decode"),
        ("decode_tps", 82.85, None),
        ("latency", 1.562, "total"),
        ("total_throughput", 737.56, None),
    ]


def test_vllms_throughput_line(tmp_path):
    """vLLM's benchmark_throughput: "Throughput: 4.52 requests/s, 2314.96 total tokens/s, 1157.48
    output tokens/s": the total is prompt and output tokens over the run (total_throughput)."""
    cf = _drafted(
        "# vLLM\n\n```\nThroughput: 4.52 requests/s, 2314.96 total tokens/s, 1157.48 output tokens/s\n```\n",
        tmp_path,
    )
    got = [(c.metric, c.value, c.unit) for c in cf.claims]
    assert got[:2] == [("request_throughput", 4.52, "req/s"), ("total_throughput", 2314.96, "tok/s")]
    assert got[2][1:] == (1157.48, "tok/s")


def test_tensorrt_llms_line_states_its_settings(tmp_path):
    """h203/p208: the [BENCHMARK] line names its model, batch and output length: the claims'
    conditions (a serving engine's batch is its concurrency, ``draftcommand.serving_batch``)."""
    line = (
        "[BENCHMARK] model_name llama_7b world_size 1 precision float16 batch_size 64 input_length 2048 "
        "output_length 128 gpu_peak_mem(gb) 74.34 tokens_per_sec 1857.9 latency(ms) 4409.291"
    )
    cf = _drafted(f"# TensorRT-LLM on an H100\n\n```\n{line}\n```\n", tmp_path)
    cond = _cond(cf, cf.claims[0])
    assert (cond.get("model"), cond.get("concurrency"), cond.get("cap")) == ("llama_7b", 64, 128)
    assert [(c.metric, c.value, c.unit) for c in cf.claims][0] == ("vram_peak", 74.34, "GB")


def test_an_engine_and_version_as_a_row_label_of_a_transposed_table(tmp_path):
    """h207: "| Metric | mlx-lm 0.31.0 | mlx-lm 0.31.3 | Delta |": each version's claims carry it
    as their build."""
    cf = _drafted(
        "# Regression\n\n| Metric | mlx-lm 0.31.0 | mlx-lm 0.31.3 | Delta |\n| --- | ---: | ---: | ---: |\n"
        "| short decode TPS | 86.18 | 79.77 | -7.43% |\n| long decode TPS | 85.11 | 78.35 | -7.94% |\n",
        tmp_path,
    )
    got = {(c.value, _cond(cf, c).get("build")) for c in cf.claims if c.unit in ("tok/s", None)}
    assert {(86.18, "0.31.0"), (79.77, "0.31.3")} <= got


def test_a_delta_column_of_a_transposed_table_relates_its_two_columns(tmp_path):
    """h207: metrics as rows, two versions as columns, a "Delta" column of signed percentages: each
    delta is a percent change from the first version's claim to the second's."""
    cf = _drafted(
        "# Regression\n\n| Metric | mlx-lm 0.31.0 | mlx-lm 0.31.3 | Delta |\n| --- | ---: | ---: | ---: |\n"
        "| short decode TPS | 86.18 | 79.77 | -7.43% |\n| long decode TPS | 85.11 | 78.35 | -7.94% |\n",
        tmp_path,
    )
    value = {c.id: c.value for c in cf.claims}
    got = [(s.kind, s.value, [value[x] for x in s.of]) for s in cf.statements]
    assert got == [("percent_change", -7.43, [86.18, 79.77]), ("percent_change", -7.94, [85.11, 78.35])]


@pytest.mark.parametrize("text", ["将近3分钟才返回结果。", "接近 50 tokens/s", "差不多20 t/s"])
def test_chinese_words_of_about(text):
    """h211: "将近3分钟" (nearly three minutes) is approximate, as "about"."""
    (n,) = numbers(text)
    assert n.about

"""Kinds fixed in issue 29's session 55 (read from the thirty-second held-out set's misses, h393–h397),
each with controls: a spreadsheet pasted into a GitHub issue (its header in two rows, the first
naming a measurement over the columns it spans) was read as one header of blanks, so none of its
numbers were claims; a serving benchmark's "bs" column set nothing; an "acc len"/"AL" column was
plain tokens; "The base model speed:" above a baseline table under a speculative title gave it
speculative decoding; "E1 over vanilla" ratio columns became conditions of every cell."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def _by_value(cf):
    return {c.value: c for c in cf.claims}


#: GitHub's rendering of cells pasted from a spreadsheet: the merged header "TTFT ms" over three
#: columns, the columns' own names below the rule, a blank spacer column, then a ratio column
SHEET = (
    "# vLLM vs SGLang\n\n"
    "  | TTFT ms |   |   |  \n"
    "-- | -- | -- | -- | --\n"
    "Concurrency | vLLM | SGLang |   | SGLang over vLLM\n"
    "1 | 35.2 | 30.1 |   | 1.169435216\n"
    "8 | 80.4 | 61.0 |   | 1.318032787\n"
)


def test_a_spreadsheet_header_in_two_rows_names_each_column(tmp_path):
    """Every cell under "vLLM"/"SGLang" is a TTFT in ms of its engine at its row's concurrency
    (the spanning "TTFT ms" is each column's measurement and unit); the column after the spacer is
    a ratio of the row's two cells, statements, never a condition of the claims."""
    cf = _drafted(SHEET, tmp_path)
    by_value = _by_value(cf)
    assert sorted(by_value) == [30.1, 35.2, 61.0, 80.4]
    for v in by_value.values():
        assert (v.metric, v.unit) == ("ttft", "ms")
    # (a post naming no drafting decodes plainly)
    assert _cond(cf, by_value[61.0]) == {"engine": "SGLang", "concurrency": 8, "decoding": "plain"}
    assert _cond(cf, by_value[35.2]) == {"engine": "vLLM", "concurrency": 1, "decoding": "plain"}
    ratios = {s.value: sorted(s.of) for s in cf.statements}
    ids = {v: c.id for v, c in by_value.items()}
    assert ratios == {
        1.169435216: sorted([ids[35.2], ids[30.1]]),
        1.318032787: sorted([ids[80.4], ids[61.0]]),
    }


def test_a_header_row_with_blanks_over_values_stays_the_header(tmp_path):
    """Control: a header with blank cells over a row of numbers (no second row of names) is the
    table's one header, as before."""
    text = "| Model | tok/s | |\n|---|---|---|\n| Qwen3-8B | 41.5 | |\n| Qwen3-14B | 23.0 | |\n"
    cf = _drafted(text, tmp_path)
    assert sorted(c.value for c in cf.claims) == [23.0, 41.5]
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"Qwen3-8B", "Qwen3-14B"}


def test_a_bs_column_is_the_requests_served_at_once(tmp_path):
    """SpecForge/SGLang's "bs": requests at once (``concurrency``); one stream's rate at bs 1 is
    ``decode_tps``, the rate summed over 4 is ``throughput``; under a llama.cpp command the same
    column is llama.cpp's ``-b`` (``batch``)."""
    text = "The base model speed:\n\nbs | throughput\n-- | --\n1 | 222.47\n4 | 566.21\n"
    cf = _drafted("# Throughput with EAGLE3\n\n" + text, tmp_path)
    by_value = _by_value(cf)
    assert (by_value[222.47].metric, _cond(cf, by_value[222.47])["concurrency"]) == ("decode_tps", 1)
    assert (by_value[566.21].metric, _cond(cf, by_value[566.21])["concurrency"]) == ("throughput", 4)
    # "The base model speed:" names the baseline, whatever the title's EAGLE3
    assert {_cond(cf, c)["decoding"] for c in cf.claims} == {"plain"}
    text = "```\nllama-bench -m qwen3-8b-q4_k_m.gguf\n```\n\n| bs | pp t/s |\n|---|---|\n| 512 | 1510.3 |\n"
    cf = _drafted(text, tmp_path)
    assert _cond(cf, cf.claims[0])["batch"] == 512


def test_base_model_alone_names_no_decoding(tmp_path):
    """Control: "the base model" alone is the target a draft model drafts for (or a model without
    instruct tuning), no baseline: the EAGLE3 run keeps its speculative decoding."""
    cf = _drafted("With EAGLE3 on the base model we get 171.5 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["decoding"] == "speculative"


def test_an_acceptance_length_column_by_its_abbreviations(tmp_path):
    """ "acc len" and the papers' capital "AL" head mean acceptance lengths (tokens per verify
    step), not token counts; a "K" column is the tokens drafted a step (``block_max``)."""
    text = "EAGLE3 results:\n\nK | tok/s | acc len\n-- | -- | --\n3 | 159.78 | 1.86\n5 | 172.99 | 2.20\n"
    cf = _drafted(text, tmp_path)
    by_value = _by_value(cf)
    assert (by_value[1.86].metric, by_value[1.86].unit) == ("mean_accepted_length", "tokens")
    assert _cond(cf, by_value[2.2])["block_max"] == 5
    cf = _drafted("| K | AL |\n|---|---|\n| 2 | 2.36 |\n| 3 | 2.79 |\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("mean_accepted_length", 2.36),
        ("mean_accepted_length", 2.79),
    ]
    # control: a whole count of tokens stays tokens
    cf = _drafted("| Prompt | Output tokens | tok/s |\n|---|---|---|\n| code | 512 | 41.0 |\n", tmp_path)
    assert {c.metric for c in cf.claims} == {"decode_tps"}


def test_the_backend_a_post_says_it_chose(tmp_path):
    """ "ROCm vs. Vulkan: Why we chose Vulkan" under a setup list's "Driver Environment: ROCm 7.2.2":
    the backend chosen ran the numbers; control: a post that chooses none keeps its setup's."""
    setup = "## Setup\n\n- GPU: AMD Radeon 8060S\n- Driver Environment: ROCm 7.2.2\n\n"
    chose = "## ROCm vs. Vulkan: Why we chose Vulkan\n\nThe Vulkan backend outperformed ROCm.\n\n"
    result = "## Results\n\nDecode: 45.5 t/s with llama.cpp.\n"
    cf = _drafted(setup + chose + result, tmp_path)
    assert _cond(cf, cf.claims[0])["backend"] == "Vulkan"
    cf = _drafted(setup + result, tmp_path)
    assert _cond(cf, cf.claims[0])["backend"] == "ROCm"


def test_a_metric_corner_makes_the_rows_metrics(tmp_path):
    """ "| 指标 | 最终配置 | 原始配置 (vLLM) |" (metric | final setup | original setup): each column is a
    setup, its "引擎"/"模型" rows name its engine (a version and "Docker" after the name: the
    build) and model, the other rows are its results."""
    text = (
        "| 指标 | 最终配置 | 原始配置 (vLLM) |\n|---|---|---|\n"
        "| 引擎 | llama.cpp | vLLM 0.17.1 Docker |\n"
        "| 模型 | Qwen3.5-35B-A3B | Qwen3.5-27B-AWQ |\n"
        "| Decode 速度 | 190 tok/s | 5 tok/s |\n"
        "| 翻译延迟 | 0.2s | 60s |\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = _by_value(cf)
    assert by_value[190.0].metric == "decode_tps"
    assert (by_value[60.0].metric, by_value[60.0].unit) == ("latency", "s")
    slow = _cond(cf, by_value[5.0])
    assert (slow["engine"], slow["build"], slow["model"], slow["quant"]) == (
        "vLLM",
        "0.17.1",
        "Qwen3.5-27B",
        "AWQ",
    )
    assert (_cond(cf, by_value[0.2])["engine"], _cond(cf, by_value[0.2])["model"]) == (
        "llama.cpp",
        "Qwen3.5-35B-A3B",
    )
    # in English: "| Metric | Ollama | LM Studio |" over one metric's row and a settings row
    text = "| Metric | Ollama | LM Studio |\n|---|---|---|\n"
    text += "| Engine | ollama | LM Studio |\n| Decode | 41 | 44 |\n"
    cf = _drafted(text, tmp_path)
    assert {c.value: _cond(cf, c)["engine"] for c in cf.claims} == {41.0: "Ollama", 44.0: "LM Studio"}


def test_a_comment_line_in_a_fence_names_the_engine_below_it(tmp_path):
    """ "# SGLang" over SGLang's serving benchmark summary and "# vLLM" over vLLM's, in one fence of a
    post naming both: each summary's numbers are its engine's; a comment stating a number, or
    naming no engine, labels nothing."""
    text = (
        "vLLM is version 0.6.3 and SGLang is the latest main.\n\n```\n# SGLang\n"
        "Output token throughput (tok/s):         10896.87\n"
        "# vLLM\nOutput token throughput (tok/s):         9021.40\n"
        "# warm-up of 30 s\nMean TTFT (ms):                          4878.89\n```\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = _by_value(cf)
    assert _cond(cf, by_value[10896.87])["engine"] == "SGLang"
    assert _cond(cf, by_value[9021.4])["engine"] == "vLLM"
    # "# warm-up of 30 s" names no engine: the vLLM label above it still holds
    assert _cond(cf, by_value[4878.89])["engine"] == "vLLM"


def test_names_of_models_and_engines_as_their_tools_write_them(tmp_path):
    """llama-bench's "gpt-oss ?B MXFP4 MoE" (llama.cpp knew no size) names no model: the ``-m``
    file's does; Gemma's "IT" variant in capitals (a Japanese particle glued after it) is part of
    the name; "tensorrt_llm", the package's name, is TensorRT-LLM."""
    text = (
        "```\nllama-bench -fa 1 -m ggml-org_gpt-oss-120b-GGUF_gpt-oss-120b-mxfp4-00001-of-00003.gguf\n```\n\n"
        "| model | size | params | backend | ngl | fa | test | t/s |\n"
        "| --- | ---: | ---: | --- | --: | -: | --: | --: |\n"
        "| gpt-oss ?B MXFP4 MoE | 59.02 GiB | 116.83 B | ROCm | 99 | 1 | tg128 | 41.52 ± 0.03 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"gpt-oss-120b"}
    # control: a size llama.cpp knew is the cell's model
    cf = _drafted(text.replace("gpt-oss ?B", "gpt-oss 120B"), tmp_path)
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"gpt-oss-120B"}
    cf = _drafted("Gemma 4 31B ITをRTX 4090で試した。decode 約80 tok/s。\n", tmp_path)
    assert _cond(cf, cf.claims[0])["model"] == "Gemma 4 31B IT"
    cf = _drafted(
        "# problem with tensorrt_llm performance\n\nGeneration throughput: 12.057 tok/s\n", tmp_path
    )
    assert _cond(cf, cf.claims[0])["engine"] == "TensorRT-LLM"


def test_machines_by_their_vendors_names(tmp_path):
    """ "1x RTX4000 Ada" is NVIDIA's "RTX 4000 Ada Generation"; "the AI Max 395" (no brand) AMD's
    "Ryzen AI Max+ 395"; a table of metrics as rows over "| 5070 Ti | 4090 | Delta |" names a card
    per column (the "Delta" row relates them, no machine)."""
    cf = _drafted("Hardware: 1x RTX4000 Ada\n\nDecode: 41.2 tok/s\n", tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "NVIDIA RTX 4000 Ada Generation"
    cf = _drafted("# Will the AI Max 395 128GB run gpt-oss-120b?\n\nDecode: 41.2 tok/s\n", tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "AMD Ryzen AI Max+ 395"
    text = (
        "| Metric | 5070 Ti | 4090 | Delta |\n|---|---|---|---|\n"
        "| TTFT p50 | 1190.24ms | 714.44ms | **-40.0%** |\n| TPOT p50 | 12.35ms | 10.31ms | **-16.5%** |\n"
    )
    cf = _drafted(text, tmp_path)
    assert {c.value: _cond(cf, c)["hardware"] for c in cf.claims} == {
        1190.24: "NVIDIA GeForce RTX 5070 Ti",
        12.35: "NVIDIA GeForce RTX 5070 Ti",
        714.44: "NVIDIA GeForce RTX 4090",
        10.31: "NVIDIA GeForce RTX 4090",
    }


def test_a_sections_model_is_not_a_longer_versions_short_name(tmp_path):
    """ "### Qwen3-4B" and "### Qwen3.5-4B" name two models: "Qwen3-4B" is no short form of
    "Qwen3.5-4B" (their words differ by a version, not by words left out), so each section's
    numbers are its own model's; control: "Qwen3.6 35B" is "Qwen3.6-35B-A3B" said short."""
    text = (
        "Snapshots for Qwen3-4B and Qwen3.5-4B on RTX 4090.\n\n### Qwen3-4B\n\nDecode: 97.02 tok/s\n\n"
        "### Qwen3.5-4B\n\nDecode: 81.05 tok/s\n"
    )
    cf = _drafted(text, tmp_path)
    assert {c.value: _cond(cf, c)["model"] for c in cf.claims} == {97.02: "Qwen3-4B", 81.05: "Qwen3.5-4B"}
    cf = _drafted("# Qwen3.6 35B on a 3090\n\nWith Qwen3.6-35B-A3B we got 41.5 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["model"] == "Qwen3.6-35B-A3B"


def test_an_ollama_chat_names_its_engine_model_and_prompt(tmp_path):
    """ "$ ollama run gpt-oss:20b --verbose" then ">>> what is an apple? give a short answer": the
    verbose summary below is Ollama's, of that model, for that prompt; ">>> /set parameter …" is
    Ollama's command, no prompt, and a Python session's ">>> import torch" no chat."""
    text = (
        "```\n$ ollama run gpt-oss:20b --verbose\n>>> what is an apple? give a short answer\n"
        "An apple is a fruit.\n\neval count:           93 token(s)\neval rate:            36.97 tokens/s\n"
        ">>> /set parameter num_ctx 65536\n```\n"
    )
    cf = _drafted(text, tmp_path)
    rate = _by_value(cf)[36.97]
    assert rate.metric == "decode_tps"
    cond = _cond(cf, rate)
    assert (cond["engine"], cond["model"], cond["prompt"]) == (
        "Ollama",
        "gpt-oss-20B",
        "what is an apple? give a short answer",
    )
    cf = _drafted("```\n>>> import torch\n>>> x = 1\neval rate: 36.97 tokens/s\n```\n", tmp_path)
    assert "prompt" not in _cond(cf, cf.claims[0])


def test_an_average_output_rate_is_a_throughput(tmp_path):
    """EvalScope's "Avg Output Rate (tokens/sec)" over concurrent requests is the output rate summed
    over them (``throughput``), as vLLM's "Output token throughput"; control: a "Decode" column is
    one stream's rate."""
    text = "| Engine | Avg Output Rate (tokens/sec) |\n|---|---|\n| vLLM | 2358.71 |\n| SGLang | 2675.66 |\n"
    cf = _drafted(text, tmp_path)
    assert {c.metric for c in cf.claims} == {"throughput"}
    cf = _drafted(text.replace("Avg Output Rate", "Decode"), tmp_path)
    assert {c.metric for c in cf.claims} == {"decode_tps"}


def test_a_quantisation_with_its_bits_after_a_dash(tmp_path):
    """ "Qwen3-235B-A22B-GPTQ-Int4" is GPTQ at Int4 (Qwen's repositories: GPTQ-Int4, GPTQ-Int8),
    not GPTQ; a tool's "Quantization:  FP8" line in its output names the weights' type."""
    cf = _drafted("## Qwen3-235B-A22B-GPTQ-Int4 on two nodes\n\nDecode: 17.0 tok/s\n", tmp_path)
    cond = _cond(cf, cf.claims[0])
    assert (cond["model"], cond["quant"]) == ("Qwen3-235B-A22B", "GPTQ-Int4")
    text = "```\nModel:                  Nemotron-Nano-31B\nQuantization:           FP8\n"
    text += "Request throughput (req/sec):                     0.0842\n```\n"
    cf = _drafted(text, tmp_path)
    assert _cond(cf, cf.claims[0])["quant"] == "FP8"


def test_llama_cpp_on_apple_silicon_guesses_metal(tmp_path):
    """llama.cpp on an Apple M chip with no backend named ran Metal (its default on macOS): a guess,
    marked as one; MLX on the same machine gets none, and a backend the post names stands."""
    cf = _drafted("llama.cpp on an M3 Max: 41.2 tok/s decode.\n", tmp_path)
    c = cf.claims[0]
    assert _cond(cf, c)["backend"] == "Metal"
    assert cf.draft.conditions_from[c.id]["backend"][1].startswith("guess:")
    cf = _drafted("MLX on an M3 Max: 41.2 tok/s decode.\n", tmp_path)
    assert "backend" not in _cond(cf, cf.claims[0])
    cf = _drafted("llama.cpp (CPU-only build) on an M3 Max: 12.2 tok/s decode.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["backend"] == "CPU"

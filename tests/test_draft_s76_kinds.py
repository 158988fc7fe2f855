"""Kinds fixed in issue 29's session 76 (the fifty-fifth held-out set's misses, read after a
fifty-sixth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftnames import mentions
from benchbook.audit.drafttable import column_quant
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _by_value(cf) -> dict:
    return {c.value: c for c in cf.claims}


def _named(text: str, path: str) -> list:
    return [m.value for m in mentions(text) if m.path == path]


def test_a_printed_spec_summary_states_its_settings(tmp_path):
    """vLLM's offline speculative summary (h616): "num_spec_tokens : 5" is the draft size and
    "batch (max_num_seqs): 8" the sequences run at once, conditions of the block's results, no
    claim of 5 tokens; "gpt-oss" alone names the model."""
    post = (
        "# EAGLE-3\n\nRun the script for existing and new gpt-oss speculators.\n\n"
        "```\nnum_spec_tokens     : 5\nbatch (max_num_seqs): 8\nnum_drafts          : 6590\n"
        "mean acceptance len : 2.359\n```\n"
    )
    cf = _drafted(post, tmp_path)
    assert sorted(c.value for c in cf.claims) == [2.359, 6590]
    for c in cf.claims:
        assert (_cond(cf, c)["block_max"], _cond(cf, c)["concurrency"], _cond(cf, c)["model"]) == (
            5,
            8,
            "gpt-oss",
        )
    assert _named("gpt-oss-20b on vLLM", "model") == ["gpt-oss-20b"]
    assert _named("gpt-oss models are fast", "model") == []  # a family, no one model


def test_git_log_commit_under_name_and_version(tmp_path):
    """An issue form's "### Name and Version" over git log's commit line, written on the fence's own
    line ("```commit e0c93af2…", h617): the build is its first 8 hex digits; text glued to a fence
    is the block's first line, a language's name is not."""
    post = (
        "# Bug\n\n### Name and Version\n\n"
        "```commit e0c93af2a03f5c53d052dfaefd86c06ed3784646 (HEAD -> master)\n"
        "Date:   Wed Feb 4 17:55:31 2026 +0100\n```\n\n### Problem\n\n"
        "When using llama.cpp, token generation is 70 tokens per second\n"
    )
    cf = _drafted(post, tmp_path)
    assert _cond(cf, cf.claims[0])["build"] == "e0c93af2"
    control = "# Bug\n\n```python\nprint(1)\n```\n\nllama.cpp generates 70 tokens per second\n"
    out = tmp_path / "control"
    out.mkdir()
    cf = _drafted(control, out)
    assert "build" not in _cond(cf, cf.claims[0])


def test_a_number_format_a_model_runs_at(tmp_path):
    """ "running Qwen 3 Coder at FP8 on VLLM" (h617): the weights' FP8; a cache's "KV cache at FP8"
    is no quant of the weights."""
    assert _named("When running Qwen3-8B at FP8 on vLLM, speed is 120 tok/s.", "quant") == ["FP8"]
    assert _named("Our first attempt, Qwen3-32B at bf16, produced 3.7 tokens/s", "quant") == ["bf16"]
    assert _named("With the KV cache at FP8 it runs 30 tok/s.", "quant") == []


def test_tks_is_tokens_a_second(tmp_path):
    """ "speed on llama.cpp is over 23 TKs", "on LM studio 7 TKs" (h618): tokens a second."""
    cf = _drafted("# Slow\n\non LM studio 7 TKs no matter what settings i use.\n", tmp_path)
    assert [(c.value, c.unit, c.metric) for c in cf.claims] == [(7, "tok/s", "decode_tps")]


def test_a_metric_column_names_each_rows_measure(tmp_path):
    """ "| Mode | Metric | GGUF Q4_K_M | AWQ INT4 |" over "| nothink | TTFT | 2.52s | 0.29s |" (h619):
    each cell is a TTFT, its column's quantisation without the file format ("Q4_K_M", "AWQ INT4");
    a row naming no metric keeps the column's."""
    post = (
        "# Perf\n\n| Mode | Metric | GGUF Q4_K_M | AWQ INT4 |\n|---|---|---|---|\n"
        "| nothink | TTFT | 2.52s | 0.29s |\n| think | Boot | 6.45s | 0.71s |\n"
    )
    cf = _drafted(post, tmp_path)
    got = {c.value: (c.metric, _cond(cf, c).get("quant")) for c in cf.claims}
    assert got[2.52] == ("ttft", "Q4_K_M")
    assert got[0.29] == ("ttft", "AWQ INT4")
    assert got[6.45] == ("duration", "Q4_K_M")
    assert column_quant("GGUF Q4_K_M") == "Q4_K_M"
    assert column_quant("GPTQ-Int4") == "GPTQ-Int4"
    assert column_quant("GGUF files") is None


def test_a_cells_flags_and_signed_change(tmp_path):
    """ "| Prefill | ~6,630 tok/s (`-b 4096 -ub 2048`, +20%) |" (h620): the flags are the cell's
    settings (no numbers of their own), "+20%" the prefill's change; the row beside keeps none of
    them. "Q8" is the post's "Q8_0"."""
    post = (
        "# PR\n\nThe Q8_0 GGUF on llama.cpp.\n\n| | llamacpp Q8 | vllm bf16 |\n|---|---|---|\n"
        "| Decode | ~166 TPS | ~110 |\n| Prefill | ~6,630 tok/s (`-b 4096 -ub 2048`, +20%) | — |\n"
    )
    cf = _drafted(post, tmp_path)
    by = _by_value(cf)
    assert (_cond(cf, by[6630])["batch"], _cond(cf, by[6630])["ubatch"]) == (4096, 2048)
    assert "batch" not in _cond(cf, by[166])
    assert (by[20].metric, by[20].unit) == ("prefill_change", "%")
    assert _cond(cf, by[166])["quant"] == "Q8_0"
    assert not any(u[1] in ("4096", "2048") for u in cf.draft.unplaced) if cf.draft else True


def test_dual_in_chinese_counts_two_cards():
    """ "在双 RTX 2080 Ti 上" (h621): two cards; "双精度" (double precision) names none."""
    assert _named("公开整理 Qwen3.6-27B AWQ 在双 RTX 2080 Ti / SM75 上的优化实验记录。", "hardware") == [
        "2x NVIDIA GeForce RTX 2080 Ti"
    ]
    assert _named("双精度浮点", "hardware") == []


def test_japanese_improvement_of_a_time_is_a_decrease(tmp_path):
    """ "MacのTTFTが30%改善" (h622): the TTFT 30% lower; "TTFT improved by 30%" the same;
    "TTFTが30%短縮" too; throughput improved by 30% is 30% higher; "メモリバンド幅を20%向上" a
    bandwidth's change, not a memory's."""
    cf = _drafted(
        "# Mac\n\nMacのTTFTが30%改善!\n\nTTFTが25%短縮されました。\n\nTTFT improved by 35%.\n\n"
        "Throughput improved by 40%.\n\nメモリバンド幅を20%向上させた。\n",
        tmp_path,
    )
    got = sorted((c.metric, c.value) for c in cf.claims)
    assert got == [
        ("memory_bandwidth_change", 20),
        ("throughput_change", 40),
        ("ttft_change", -35),
        ("ttft_change", -30),
        ("ttft_change", -25),
    ]


def test_a_change_written_as_a_bound_is_a_bound(tmp_path):
    """ "最大30%以上の速度向上" (h622: "or more" glued after the number wins over "up to" before it),
    "up to 40% faster", "up to 15% slower" with no rates stated: bound statements of the change
    (signed), never claims of their values."""
    cf = _drafted(
        "# Speed\n\n特にMoEモデルでは、最大30%以上の速度向上が確認されました。\n\n"
        "It is up to 40% faster than before.\n\nIt is up to 15% slower.\n",
        tmp_path,
    )
    assert cf.claims == []
    got = sorted((s.over.numerator["metric"], s.relation, float(s.value)) for s in cf.statements)
    assert got == [
        ("speed_change", "above", -15.0),
        ("speed_change", "above", 30.0),
        ("speed_change", "below", 40.0),
    ]
    # (a change with no bound word stays a claim)
    out = tmp_path / "control"
    out.mkdir()
    cf = _drafted("# Speed\n\nIt is 20% faster than before.\n", out)
    assert [(c.metric, c.value) for c in cf.claims] == [("speed_change", 20)]


def test_a_mac_mini_before_its_chip_in_japanese():
    """ "複数のMac mini M2 Proを用いた" (h622): the M2 Pro, a Japanese letter right after."""
    assert _named("複数のMac mini M2 Proを用いた環境", "hardware") == ["Apple M2 Pro (Mac mini)"]
    assert _named("Mac mini M4 Pro", "hardware") == ["Apple M4 Pro (Mac mini)"]


def test_a_cards_own_bandwidth_is_its_spec(tmp_path):
    """ "RTX 4090 с 1008 ГБ/с" (h623, Russian GB/s), "the RTX 3090 has 936 GB/s": the card's
    bandwidth, no measurement; "будет тормозить … в 1.75 раза" a slowdown; "we measured 850 GB/s
    on the RTX 3090" stays a claim."""
    cf = _drafted(
        "# GPU\n\nIntel ARC будет тормозить RTX 4090 с 1008 ГБ/с в 1.75 раза.\n\n"
        "The RTX 3090 has 936 GB/s.\n\nOn the RTX 3090 we measured 850 GB/s.\n",
        tmp_path,
    )
    got = sorted((c.metric, c.value) for c in cf.claims)
    assert got == [("memory_bandwidth", 850), ("slowdown", 1.75)]


def test_a_bound_over_a_short_card_name_takes_the_full_one(tmp_path):
    """ "2000+ Tokens/Sec on RTX 6000" in the title, "on a single NVIDIA RTX 6000 Ada GPU" in the
    text (h624): every claim and bound names the RTX 6000 Ada Generation."""
    cf = _drafted(
        "# GLM Achieves 2000+ Tokens/Sec on RTX 6000\n\n"
        "It now generates over 2000 tokens per second on a single NVIDIA RTX 6000 Ada GPU.\n\n"
        "Memory footprint sits around 3GB.\n",
        tmp_path,
    )
    machines = {s.over.numerator.get("hardware") for s in cf.statements} | {
        _cond(cf, c).get("hardware") for c in cf.claims
    }
    assert machines == {"NVIDIA RTX 6000 Ada Generation"}


def test_lines_labelled_by_quantisation(tmp_path):
    """ "fp16: 142.641 tokens/sec" / "awq: 144.663 tokens/sec" / "gptq - no act_order : 138.138
    tokens/sec" (h625): each line's weights as written (GPTQ as the post spells it elsewhere), over a
    quant a paragraph before named ("GPTQ: GPTQ-for-LLaMa triton"); the model of "I have tested … on
    llama-7b, but I do not see a speedup mentioned in the paper" is the author's. One labelled line
    alone names no quant."""
    post = (
        "# awq\n\nI have tested AWQ and GPTQ on llama-7b, but I do not see a speedup mentioned in the "
        "paper.\n\n"
        "GPTQ:  GPTQ-for-LLaMa triton\n\n"
        "fp16: 142.641 tokens/sec\nawq: 144.663 tokens/sec\ngptq - no act_order  : 138.138 tokens/sec\n"
    )
    cf = _drafted(post, tmp_path)
    got = {c.value: (_cond(cf, c).get("quant"), _cond(cf, c).get("model")) for c in cf.claims}
    assert got == {142.641: ("fp16", "llama-7b"), 144.663: ("awq", "llama-7b"), 138.138: ("GPTQ", "llama-7b")}
    out = tmp_path / "control"
    out.mkdir()
    cf = _drafted("# One\n\nRunning Qwen3-8B.\n\nfp16: 142.641 tokens/sec\n", out)
    assert "quant" not in _cond(cf, cf.claims[0])


def test_a_prompt_and_output_length_pair(tmp_path):
    """ "严格 4096 prompt + 1024 completion" (h621), "512 input / 128 output": the prompt's length and
    the tokens each run generated; a rate after the second count ("128 output tok/s") is no length."""
    cf = _drafted(
        "# T\n\nWith 4096 prompt + 1024 completion tokens, decode is 26.03 tok/s.\n\n"
        "512 input / 128 output gave 30 tok/s.\n",
        tmp_path,
    )
    got = {c.value: (_cond(cf, c).get("prompt"), _cond(cf, c).get("tokens_generated")) for c in cf.claims}
    assert got == {26.03: ("4096 tokens", 1024), 30: ("512 tokens", 128)}
    out = tmp_path / "control"
    out.mkdir()
    cf = _drafted("# T\n\nIt reached 512 input / 128 output tok/s.\n", out)
    assert all("tokens_generated" not in _cond(cf, c) for c in cf.claims)


def test_a_column_named_by_its_models_family(tmp_path):
    """ "| qwen | gemma |" under links to "gemma-2-27b-it-Q5_K_L.gguf" and "Qwen2.5-32B-Instruct-
    abliterated-Q5_K_M.gguf" (p11): each column the one model of that family, with its file's quant;
    a paragraph naming two models and no number names neither for the paragraphs after it. A
    family the post names two models of ("| qwen |" beside Qwen3-8B and Qwen3-32B) names none."""
    post = (
        "# Regression\n\nI tried two models:\n\n"
        "https://huggingface.co/bartowski/gemma-2-27b-it-GGUF/blob/main/gemma-2-27b-it-Q5_K_L.gguf\n"
        "https://huggingface.co/t/Qwen2.5-32B-Instruct-abliterated-GGUF/blob/main/"
        "Qwen2.5-32B-Instruct-abliterated-Q5_K_M.gguf\n\n"
        "| build | qwen | gemma |\n|---|---|---|\n| b4363 | 31.7 t/s | 36.1 t/s |\n"
    )
    cf = _drafted(post, tmp_path)
    got = {c.value: (_cond(cf, c).get("model"), _cond(cf, c).get("quant")) for c in cf.claims}
    assert got == {
        31.7: ("Qwen2.5-32B-Instruct-abliterated", "Q5_K_M"),
        36.1: ("gemma-2-27b-it", "Q5_K_L"),
    }
    out = tmp_path / "control"
    out.mkdir()
    control = "# Two\n\nWe ran Qwen3-8B and Qwen3-32B.\n\n| build | qwen |\n|---|---|\n| b1 | 31.7 t/s |\n"
    cf = _drafted(control, out)
    assert "model" not in _cond(cf, cf.claims[0])


def _claims_of(text: str, tmp_path, name: str) -> dict:
    out = tmp_path / name
    out.mkdir()
    cf = _drafted(text, out)
    return {c.value: (c.metric, _cond(cf, c)) for c in cf.claims}


def test_the_breakers_cases_of_session_76(tmp_path):
    """A breaker's inputs against this session's rules, each with its right reading: quant labels
    hold for their own lines only, never under a KV cache's lead-in or over TFLOPS; a bound of a
    change is the subject's ("vLLM is up to 40% faster than llama.cpp"); a throughput improved
    beside a latency word is higher; "dequantized at FP16" is no weights' format; "I read about"
    quotes; an older RTX 6000 (Turing) stays itself; a cell's flags of the run compared ("vs 131
    with `-fa 0`") and a margin ("+/-5%") are neither's; a commit "introduced" is no build run; MLX's
    "Q8" stays; "max_num_seqs=64" in a script sets no concurrency; a measured bandwidth after a card's
    name is a claim."""
    got = _claims_of(
        "# awq\n\nllama-7b, Q4_K_M GGUF on llama.cpp as the reference.\n\nvLLM results:\n"
        "fp16: 142 tokens/sec\nawq: 144 tokens/sec\n\nllama.cpp with the GGUF gives 120 tokens/sec.\n",
        tmp_path,
        "labels",
    )
    assert [got[v][1].get("quant") for v in (142, 144, 120)] == ["fp16", "awq", "Q4_K_M"]
    got = _claims_of(
        "# K\n\nQwen3-8B-AWQ on vLLM, H100. KV cache dtype:\n\nfp16: 2100 tok/s\nfp8: 2350 tok/s\n",
        tmp_path,
        "kv",
    )
    assert {got[v][1].get("quant") for v in (2100, 2350)} == {"AWQ"}
    got = _claims_of(
        "# S\n\nLlama-3-8B Q4_K_M. RTX 4090 peak compute:\n\nFP16: 165 TFLOPS\nFP8: 330 TFLOPS\n\n"
        "Decode on the 4090 is 130 tok/s.\n",
        tmp_path,
        "tflops",
    )
    assert got[130][1]["quant"] == "Q4_K_M"
    out = tmp_path / "subject"
    out.mkdir()
    cf = _drafted("# Speed\n\nvLLM is up to 40% faster than llama.cpp.\n", out)
    assert [s.over.numerator.get("engine") for s in cf.statements] == ["vLLM"]
    got = _claims_of(
        "# Speed\n\nThe latency-optimised kernel gives a 30% improvement in throughput.\n\n"
        "低レイテンシ設定でのスループットが32%改善しました。\n",
        tmp_path,
        "latency",
    )
    assert (got[30][0], got[32][0]) == ("throughput_change", "throughput_change")
    got = _claims_of(
        "# Bench\n\nGemma-3-27B Q4_K_M, dequantized at FP16 on the fly, runs 38 tok/s on a 3090.\n",
        tmp_path,
        "dequant",
    )
    assert got[38][1]["quant"] == "Q4_K_M"
    got = _claims_of(
        "# EAGLE\n\nI read about the 2.5x speedup on an A100, but according to the paper that needs batch "
        "size 1.\n\nOn my 3090 I get 1.4x.\n",
        tmp_path,
        "read",
    )
    assert got[2.5][1]["hardware"] == "NVIDIA A100"
    got = _claims_of(
        "# Old vs new\n\nThe RTX 6000 Ada decodes Llama-3-8B at 90 tok/s.\n\n"
        "My older RTX 6000 (Turing, 24GB) reaches 35 tok/s.\n",
        tmp_path,
        "turing",
    )
    assert got[35][1]["hardware"] == "NVIDIA RTX 6000"
    got = _claims_of(
        "# FA\n\n| Test | t/s |\n|---|---|\n| tg128 | 145 (vs 131 with `-fa 0`) |\n| tg256 | 144 (+/-5%) |\n",
        tmp_path,
        "cells",
    )
    assert "flash_attn" not in got[145][1]
    assert not any(metric.endswith("_change") for metric, _ in got.values())
    got = _claims_of(
        "# Regression\n\nThe regression was introduced by this commit:\n\n```\n"
        "commit 1111111122222222333333334444444455555555\n```\n\nBefore it, llama.cpp generated 70 t/s.\n",
        tmp_path,
        "commit",
    )
    assert "build" not in got[70][1]
    got = _claims_of(
        "# MLX vs GGUF\n\nQwen3-8B on an M3 Max. The GGUF is Q8_0.\n\n| | MLX Q8 | llama.cpp Q8_0 |\n"
        "|---|---|---|\n| Decode | 62 tok/s | 55 tok/s |\n",
        tmp_path,
        "mlx",
    )
    assert (got[62][1]["quant"], got[55][1]["quant"]) == ("Q8", "Q8_0")
    got = _claims_of(
        '# Bench\n\n```python\nllm = LLM(model="Qwen/Qwen3-8B", max_num_seqs=64)\n```\n\n'
        "On an H100 vLLM gives 1500 tok/s.\n",
        tmp_path,
        "seqs",
    )
    assert "concurrency" not in got[1500][1]
    got = _claims_of(
        "# Bandwidth test\n\nMeasured memory bandwidth with a copy kernel:\n\n- RTX 3090: 870 GB/s\n"
        "- RTX 4090: 950 GB/s\n",
        tmp_path,
        "measured",
    )
    assert sorted(got) == [870, 950]


def test_a_rate_after_generates_is_no_output_length(tmp_path):
    """ "llama.cpp generates 70 tokens per second" (the breaker's): a rate, no run generating 70
    tokens; "generating 512 tokens took 8 s" is one."""
    got = _claims_of("# Slow\n\nllama.cpp generates 70 tokens per second on my 3090.\n", tmp_path, "rate")
    assert got[70][0] == "decode_tps" and "tokens_generated" not in got[70][1]
    got = _claims_of("# Run\n\nGenerating 512 tokens took 8 s.\n", tmp_path, "count")
    assert got[8][1]["tokens_generated"] == 512


def test_an_engines_release_in_two_parts_after_its_word_and_no_ngc_tag():
    """ "TensorRT LLM Version:   1.2" (h336), "vLLM version: 0.9": a release in two parts after the
    word "version"; "vLLM: 0.9" (no word) and "version: 0.9 tok/s" (a rate) are none; NVIDIA's NGC
    image tag ("nvcr.io/nvidia/vllm:26.04-py3", h217) is no vLLM release beside "vLLM 0.19.0"."""
    from benchbook.audit.draftwords import settings_in_words

    def builds(text: str) -> list:
        out: list = []
        settings_in_words(text, out)
        return [v for p, v in out if p == "build"]

    assert builds("TensorRT LLM Version:   1.2") == ["1.2"]
    assert builds("vLLM version: 0.9") == ["0.9"]
    assert builds("vLLM: 0.9") == []
    assert builds("vLLM version: 0.9 tok/s") == []
    assert builds(
        "All results use vLLM 0.19.0 (NGC container nvcr.io/nvidia/vllm:26.04-py3) unless noted."
    ) == ["0.19.0"]
    assert builds("docker run vllm/vllm-openai:v0.6.3") == ["0.6.3"]


def test_llama_benchs_label_beside_the_file_and_a_backend_led_image(tmp_path):
    """ "`Qwen3.8-27B-ABLITERATED-Q4_K_M.gguf` (…; `llama-bench` labels it `qwen35 27B Q4_K -
    Medium`)" (h244): the file's model, llama.cpp's label of the architecture none beside it (alone,
    "qwen35 27B" is the model); "| image |" over "rocm-7.14", "vulkan-radv" names each row's
    backend."""
    assert _named(
        "`Qwen3.8-27B-ABLITERATED-Q4_K_M.gguf` (15.4 GiB; `llama-bench` labels it "
        "`qwen35 27B Q4_K - Medium`).",
        "model",
    ) == ["Qwen3.8-27B-ABLITERATED"]
    assert _named("| qwen35 27B Q4_K - Medium | 15.4 GiB |", "model") == ["qwen35 27B"]
    got = _claims_of(
        "# A/B\n\n| image | pp512 |\n|---|---:|\n| `rocm-7.14` | 298.30 |\n| `vulkan-radv` | 246.24 |\n"
        "| `therock-nightly` | 290.73 |\n",
        tmp_path,
        "images",
    )
    assert [got[v][1].get("backend") for v in (298.3, 246.24, 290.73)] == ["ROCm", "Vulkan", None]


def test_prose_indented_by_its_writer_is_prose():
    """ "    By the way, my model is an standard llama-7B model." after a log (h568): a sentence
    indented four spaces is prose (its model named), not a code block; indented log lines stay code."""
    from benchbook.audit.post import blocks_of

    text = (
        "Results:\n\n    Total time: 455.54 s\n    Throughput: 2.20 requests/s\n\n"
        "    By the way, my model is an standard llama-7B model.\n"
    )
    kinds = [(b.kind, b.start) for b in blocks_of(text)]
    assert ("text", 6) in kinds and ("text", 3) not in kinds

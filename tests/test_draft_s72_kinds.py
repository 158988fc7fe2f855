"""Kinds fixed in issue 29's session 72 (the fifty-first held-out set's misses, read after a
fifty-second set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftnames import mentions, model_cell
from benchbook.audit.draftwords import engine_versions
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _claims(cf) -> list[tuple]:
    return [(c.metric, c.value, c.unit) for c in cf.claims]


def test_an_engines_release_in_a_bold_key():
    """ "**KTransformers Version**: 0.5.2", "**SGLang version:** 0.4.6" (h576): the engine's release
    as without the emphasis; a result after a bold name is still no release."""
    assert engine_versions("- **KTransformers Version**: 0.5.2", tags=False) == {"KTransformers": "0.5.2"}
    assert engine_versions("**SGLang version:** 0.4.6", tags=False) == {"SGLang": "0.4.6"}
    assert engine_versions("**vLLM**: 0.8.5", tags=False) == {"vLLM": "0.8.5"}
    assert engine_versions("**Ollama**: 45.2 tok/s", tags=False) == {}


def test_a_setup_naming_two_engines_runs_the_one_with_its_release(tmp_path):
    """A "Software" list naming KTransformers with its release and "Backend: kt-kernel + SGLang"
    (h576): the claims below are KTransformers 0.5.2's, not SGLang's nor nobody's."""
    setup = (
        "# Bench\n\n## Submission\n\n### Software\n- **KTransformers Version**: 0.5.2\n"
        "- **Backend**: kt-kernel + SGLang\n\n"
    )
    cf = _drafted(setup + "### Performance\n\nDecode: 44.4 tok/s\n", tmp_path)
    assert _claims(cf) == [("decode_tps", 44.4, "tok/s")]
    cond = _cond(cf, cf.claims[0])
    assert (cond.get("engine"), cond.get("build")) == ("KTransformers", "0.5.2")


def test_a_quant_first_in_the_parentheses_after_a_model():
    """ "Qwen3-30B-A3B-Instruct-2507 (BF16, 28 GPU Experts)", "Llama-3-8B (FP8)" (h576): the model's
    quant; "(FP8 KV cache)" (the cache's type, words after it) and "(8 GB)" are none."""

    def quant(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "quant"]

    assert quant("Qwen3-30B-A3B-Instruct-2507 (BF16, 28 GPU Experts)") == ["BF16"]
    assert quant("Llama-3-8B (FP8)") == ["FP8"]
    assert quant("Llama 3 8B (FP8 KV cache)") == []
    assert quant("Qwen3-8B (8 GB)") == []
    assert quant("Qwen3-8B BF16 runs") == ["BF16"]
    # (full-width parentheses, a lower-case type: "Qwen3-32B（FP8）で", "Qwen3-8B (bf16)")
    assert quant("Qwen3-32B（FP8）で 30 tok/s") == ["FP8"]
    assert quant("Model: Qwen3-8B (bf16)") == ["bf16"]
    assert quant("Qwen3-8B (fp8 kv)") == []


def test_a_baselines_rate_beside_a_rate_takes_its_unit_and_no_drafting(tmp_path):
    """ "218.23 tok/s (AR 58.25, 3.75x, AL 7.12)" (h578): 58.25 is the autoregressive rate in tok/s
    (decoding plain; it was only listed), the multiple a ratio of the two, the acceptance length
    the drafted run's; "vs 58.25 without" and ", baseline 41" the same. "(base model 41)" stays
    listed (a model, not a run)."""
    cf = _drafted("# DFlash\n\nWith DFlash: 218.23 tok/s (AR 58.25, 3.75x, AL 7.12)\n", tmp_path)
    assert _claims(cf) == [
        ("decode_tps", 218.23, "tok/s"),
        ("decode_tps", 58.25, "tok/s"),
        ("mean_accepted_length", 7.12, "tokens"),
    ]
    assert [_cond(cf, c)["decoding"] for c in cf.claims] == ["speculative", "plain", "speculative"]
    [ratio] = cf.statements
    assert (ratio.kind, ratio.value, ratio.of) == ("ratio", 3.75, [cf.claims[0].id, cf.claims[1].id])
    cf = _drafted("# DFlash\n\nWith DFlash: 218.23 tok/s vs 58.25 without, 3.75x\n", tmp_path)
    assert [(c.value, c.unit, _cond(cf, c)["decoding"]) for c in cf.claims] == [
        (218.23, "tok/s", "speculative"),
        (58.25, "tok/s", "plain"),
    ]
    cf = _drafted("# MTP\n\nMTP gives 70 tok/s, baseline 41.\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(70.0, "tok/s"), (41.0, "tok/s")]
    cf = _drafted("# Run\n\nIt runs 70 tok/s (base model 41)\n", tmp_path)
    assert [c.value for c in cf.claims] == [70.0]
    assert [u.number for u in cf.draft.unplaced] == ["41"]


def test_a_benchmarks_name_labelling_a_line_is_its_prompt_set(tmp_path):
    """ "- HumanEval: 218.23 tok/s …", "- **GSM8K**: 179.07 tok/s" (h578): each line's prompts, over
    a script the title names; "GSM8K" inside a sentence without "on"/"for" names none."""
    post = "# DFlash results\n\nWith DFlash:\n\n- HumanEval: 218.23 tok/s (AL 7.12)\n"
    post += "- **GSM8K**: 179.07 tok/s\n"
    cf = _drafted(post, tmp_path)
    assert [(c.value, _cond(cf, c).get("prompt")) for c in cf.claims] == [
        (218.23, "HumanEval"),
        (7.12, "HumanEval"),
        (179.07, "GSM8K"),
    ]
    cf = _drafted("# DFlash\n\nThe GSM8K prompts were short. It ran 179.07 tok/s.\n", tmp_path)
    assert "prompt" not in _cond(cf, cf.claims[0])


def test_an_ascend_machine_runs_through_its_npu_backend(tmp_path):
    """ "Atlas 800I A2，单卡" in a setup table, vLLM's Ascend image "quay.io/ascend/vllm-ascend:v0.18.0"
    (h579): the machine Huawei Atlas 800I A2, the build 0.18.0, the backend "Ascend NPU" (as the
    corpus's "Ascend NPU (vllm-ascend)" states it); "on Ascend NPU" in words names the backend with
    no card (h580); an NVIDIA card gets no such backend."""
    post = (
        "# 测试报告\n\n| 项目 | 配置 |\n| --- | --- |\n| 镜像 | `quay.io/ascend/vllm-ascend:v0.18.0` |\n"
        "| 硬件 | Atlas 800I A2，单卡 |\n\n```\nvllm bench serve --model qwen3-32b\n```\n\n"
        "```\nOutput token throughput (tok/s):         123.62\n```\n"
    )
    cf = _drafted(post, tmp_path)
    cond = _cond(cf, cf.claims[0])
    assert (cond["hardware"], cond["build"], cond["backend"]) == (
        "Huawei Atlas 800I A2",
        "0.18.0",
        "Ascend NPU",
    )
    assert [m.value for m in mentions("a card: Atlas 300I Duo") if m.path == "hardware"] == [
        "Huawei Atlas 300I Duo"
    ]
    cf = _drafted("# MXFP8 on Ascend NPU\n\nQwen3-8B decodes at 41.2 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["backend"] == "Ascend NPU"
    cf = _drafted("# Bench\n\nOn an RTX 4090, Qwen3-8B decodes at 41.2 tok/s.\n", tmp_path)
    assert "backend" not in _cond(cf, cf.claims[0])


def test_a_percentage_cell_with_its_spread_in_percent(tmp_path):
    """ "87.7% ± 1.2%" under "Accuracy" (h580): the value in %, its spread 1.2 (both were listed
    only); "85.30 ± 4.1%" under a rate column stays the rate with a relative spread."""
    post = (
        "# Eval\n\n| Mode | Accuracy | Latency (s) |\n| --- | --- | --- |\n"
        "| A | 87.7% ± 1.2% | 21.47 ± 3.36 |\n| B | 87.3% ± 1.9% | 17.77 ± 1.35 |\n"
    )
    cf = _drafted(post, tmp_path)
    assert sorted((c.metric, c.value, c.unit, c.spread) for c in cf.claims) == [
        ("accuracy", 87.3, "%", 1.9),
        ("accuracy", 87.7, "%", 1.2),
        ("latency", 17.77, "s", 1.35),
        ("latency", 21.47, "s", 3.36),
    ]
    assert not cf.draft.unplaced
    cf = _drafted(
        "# Rates\n\n| Mode | tok/s |\n| --- | --- |\n| A | 85.30 ± 4.1% |\n| B | 80.1 ± 2% |\n", tmp_path
    )
    assert [(c.value, c.unit) for c in cf.claims] == [(85.30, "tok/s"), (80.1, "tok/s")]


def test_a_baseline_rows_label_names_its_weights(tmp_path):
    """ "| **Baseline (BF16)** |" under "Mode" beside "| **MXFP8 Online** |" (h580): the baseline row
    decodes plainly with BF16 weights (the quant was dropped); a bare "Baseline" names none."""
    table = "| Mode | Latency (s) |\n| --- | --- |\n| **Baseline (BF16)** | 21.47 |\n"
    table += "| **MXFP8 Online** | 17.77 |\n"
    cf = _drafted("# Quant\n\n" + table, tmp_path)
    assert [_cond(cf, c).get("quant") for c in cf.claims] == ["BF16", "MXFP8"]
    assert _cond(cf, cf.claims[0])["decoding"] == "plain"
    cf = _drafted("# Quant\n\n" + table.replace("Baseline (BF16)", "Baseline"), tmp_path)
    assert [_cond(cf, c).get("quant") for c in cf.claims] == [None, "MXFP8"]


def test_llama_bench_names_the_iq3_m_file_type_iq3_s_mix():
    """llama_model_ftype_name writes IQ3_M "IQ3_S mix - 3.66 bpw" (h585): the quant is IQ3_M;
    "IQ3_S - 3.4375 bpw" is IQ3_S."""
    assert model_cell("qwen35 27B IQ3_S mix - 3.66 bpw") == ("qwen35-27B", "IQ3_M")
    assert model_cell("qwen35 27B IQ3_S - 3.4375 bpw") == ("qwen35-27B", "IQ3_S")
    assert model_cell("llama 7B Q4_K - Medium") == ("llama 7B", "Q4_K_M")


def test_a_llama_bench_table_under_a_command_naming_an_imatrix_repository(tmp_path):
    """ "llama-bench -hf mradermacher/Qwen3.6-27B-i1-GGUF:IQ3_M" over llama-bench's table of "qwen35
    27B IQ3_S mix - 3.66 bpw" rows, under an issue form whose "Name and Version" names the first
    bad commit (h585): each row's model is Qwen3.6-27B (mradermacher's "-i1" importance-matrix mark
    is packaging), its quant IQ3_M, its build the commit."""
    header = "| model | size | params | backend | ngl | test | t/s |\n"
    header += "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
    row = "| qwen35 27B IQ3_S mix - 3.66 bpw | 11.71 GiB | 26.90 B | Vulkan | 99 | pp512 | 181.37 ± 5.55 |\n"
    post = (
        "# Eval bug\n\n### Name and Version\n\n05e141a6b34a1535096e2bb7828418df431f7efe is the first bad"
        " commit\n\n### Problem description & steps to reproduce\n\n```\n"
        "llama-bench -hf mradermacher/Qwen3.6-27B-i1-GGUF:IQ3_M -fa 1\n" + header + row + "```\n"
    )
    cf = _drafted(post, tmp_path)
    rate = next(c for c in cf.claims if c.metric == "prefill_tps")
    cond = _cond(cf, rate)
    assert (cond["model"], cond["quant"], cond["build"]) == (
        "Qwen3.6-27B",
        "IQ3_M",
        "05e141a6b34a1535096e2bb7828418df431f7efe",
    )


def test_a_version_section_naming_a_build_keeps_its_number():
    """ "version: b10068 (571d0d54)" in a "Name and Version" section (h558) is read as llama.cpp
    prints it, not as the commit alone; a section naming two commits names no build."""
    from benchbook.audit.draftcontext import _version_named

    assert _version_named([(5, "05e141a6b34a1535096e2bb7828418df431f7efe is the first bad commit")]) == [
        ("build", "05e141a6b34a1535096e2bb7828418df431f7efe")
    ]
    assert ("build", "571d0d54") not in _version_named(
        [(5, "version: b10068 (571d0d54)"), (6, "official release zip"), (7, "also reproduced")]
    )
    assert _version_named([(5, "good at 1a2b3c4d, bad at 5e6f7a8b and later")]) == []


def test_the_digits_ending_a_name_are_no_thousands_group(tmp_path):
    """ "MTP 121 t/s vs EAGLE-3 111 t/s" (h582): 111 t/s, EAGLE-3's (it was read as -3111 and listed);
    "12 345 tok/s" grouped by a space is still twelve thousand."""
    cf = _drafted(
        "# Drafts\n\nThe card's numbers: MTP 121 t/s vs EAGLE-3 111 t/s, even on Blackwell.\n", tmp_path
    )
    assert [(c.value, c.unit, _cond(cf, c)["decoding"]) for c in cf.claims] == [
        (121.0, "t/s", "draft-self"),
        (111.0, "t/s", "speculative"),
    ]
    assert not cf.draft.unplaced
    cf = _drafted("# Bench\n\nIt runs 12 345 tok/s.\n", tmp_path)
    assert [c.value for c in cf.claims] == [12345.0]


def test_a_count_word_glued_to_a_card_by_a_hyphen():
    """ "boots dual-3090 TP=2" (h582), "a quad-P40 rig": two and four cards; "dual-core", "dual-boot"
    name none."""

    def hardware(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert hardware("boots dual-3090 TP=2") == ["2x NVIDIA GeForce RTX 3090"]
    assert hardware("a quad-P40 rig") == ["4x NVIDIA Tesla P40"]
    assert hardware("a dual-core CPU, dual-boot") == []


def test_a_spec_list_under_a_specifications_heading_states_no_measurement(tmp_path):
    """ "## 主要スペック" over "- 統合メモリ: 8GB、16GB、24GB構成", "- メモリ帯域幅: 100GB/s" (h583): the
    machine's specifications, listed, no claims; a list item saying it measured ("measured STREAM
    Triad 66.7 GB/s", p49) or a use, and the same figures under another heading, stay claims."""
    cf = _drafted(
        "# Apple M2\n\n## 主要スペック\n\n- 統合メモリ: 8GB、16GB、24GB構成\n- メモリ帯域幅: 100GB/s\n"
        "- 消費電力: 20W\n- RAM: 247 GiB; measured STREAM Triad 66.7 GB/s\n\n## Results\n\n"
        "- Memory bandwidth: 90 GB/s\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("memory_bandwidth", 66.7),
        ("memory_bandwidth", 90.0),
    ]
    assert [u.number for u in cf.draft.unplaced][:5] == ["8", "16", "24", "100", "20"]


def test_a_ggml_type_ending_in_its_digit_glued_to_a_rate(tmp_path):
    """ "Phi-4 Q8_0118 t/s187 t/s+58%" (h304, a table copied without its borders): 118 t/s after
    Q8_0 (it was dropped), 187 t/s, and the change; "Q8_016 GB" (no rate after it) stays none."""
    cf = _drafted("# Cards\n\nPhi-4 Q8_0118 t/s187 t/s+58%\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(118.0, "t/s"), (187.0, "t/s")]
    assert [s.value for s in cf.statements] == [58.0]
    cf = _drafted("# Cards\n\nPhi-4 Q8_016 GB\n", tmp_path)
    assert cf.claims == []


def test_a_decimal_above_one_after_an_acceptance_word_is_the_tokens_a_step_accepts(tmp_path):
    """ "34.4 tok/s   accept 2.49  (1.90x)" (h466), "mean acceptance 5.1": the mean accepted length
    in tokens (they were listed); "accept 0.87" stays a fraction, "acceptance 87.5" (a percentage
    without its sign) and "acceptance: 2" stay listed; an acceptance is never guessed plain decoding."""
    cf = _drafted(
        "# DSpark\n\n```\ndspark cap=2 nolookup     34.4 tok/s   accept 2.49  (1.90x)\n```\n", tmp_path
    )
    assert ("mean_accepted_length", 2.49, "tokens") in _claims(cf)
    cf = _drafted("# Drafts\n\nThe mean acceptance 5.1 held at 1K.\n", tmp_path)
    assert _claims(cf) == [("mean_accepted_length", 5.1, "tokens")]
    cf = _drafted("# Drafts\n\nWe saw accept 0.87 there.\n", tmp_path)
    assert _claims(cf) == [("acceptance_rate", 0.87, "ratio")]
    assert "decoding" not in _cond(cf, cf.claims[0])
    for text in ("acceptance 87.5 on code", "acceptance: 2 on code"):
        cf = _drafted(f"# Drafts\n\n{text}\n", tmp_path)
        assert cf.claims == []


def test_a_rate_restated_without_its_unit_in_the_paragraph(tmp_path):
    """ "22.1 → 41.6 tok/s … decode is only 22.1; … it lands at 41.6-42.9" (h556): the range takes the
    unit the paragraph gave 41.6 (it was listed); the figure again in its own sentence's arithmetic
    ("At 82.9 tok/s: 4.92 GB × 82.9 = 407.9 GB/s", p216) is that claim, not a second one; a whole
    number ("2") is no restatement."""
    post = (
        "# MTP\n\n22.1 → 41.6 tok/s at n-max 2. So unassisted decode is only 22.1; with the head engaged it"
        " lands at 41.6-42.9, the same band.\n"
    )
    cf = _drafted(post, tmp_path)
    assert [(c.value, c.range, c.unit) for c in cf.claims] == [
        (22.1, None, "tok/s"),
        (41.6, None, "tok/s"),
        (None, (41.6, 42.9), "tok/s"),
    ]
    cf = _drafted("# BW\n\nAt 82.9 tok/s: 4.92 GB × 82.9 = 407.9 GB/s effective bandwidth\n", tmp_path)
    assert sorted(c.value for c in cf.claims) == [4.92, 82.9, 407.9]
    cf = _drafted("# Run\n\nIt ran 2 tok/s. Then 2 more.\n", tmp_path)
    assert [c.value for c in cf.claims] == [2.0]


def test_tokens_per_drafting_step_by_the_verb(tmp_path):
    """ "it drafts ~3.3 tokens/round" (h556): draft_tokens, its unit tokens (it was listed); "accepts
    2.8 tokens per step", "2.37 accepted tokens/round": the mean accepted length; "1.37 accepted
    draft tokens/round" stays the draft's own (accepted_per_cycle); "22.5 GB/card" stays a size."""
    for text, want in (
        ("gated at 0.60 it drafts ~3.3 tokens/round at 0.86 acceptance", ("draft_tokens", 3.3)),
        ("it accepts 2.8 tokens per step", ("mean_accepted_length", 2.8)),
        ("2.37 accepted tokens/round", ("mean_accepted_length", 2.37)),
        ("1.37 accepted draft tokens/round", ("accepted_per_cycle", 1.37)),
        ("It used 22.5 GB/card", ("size", 22.5)),
    ):
        cf = _drafted(f"# Drafts\n\n{text}\n", tmp_path)
        assert (cf.claims[0].metric, cf.claims[0].value) == want, text


def test_a_count_of_tokens_in_thousands_a_run_went_through(tmp_path):
    """ "17.3 t/s (weighted, 126K tokens)", "(weighted over 23.4M tokens)" (h557), "processed 1.2M
    tokens": counts of tokens (they were listed as a context's size); "128K tokens of context"
    stays the context's size, listed."""
    post = (
        "# Serve\n\n| Setup | Decode |\n| --- | --- |\n| No MTP | 17.3 t/s (weighted, 126K tokens) |\n"
        "| MTP n-max 8 | 24.5 t/s (weighted over 23.4M tokens) |\n"
    )
    cf = _drafted(post, tmp_path)
    assert sorted((c.value, c.unit) for c in cf.claims if c.unit == "tokens") == [
        (126000.0, "tokens"),
        (23400000.0, "tokens"),
    ]
    cf = _drafted("# Serve\n\nIt processed 1.2M tokens in an hour.\n", tmp_path)
    assert _claims(cf) == [("tokens", 1200000.0, "tokens")]
    cf = _drafted("# Ctx\n\nAfter 128K tokens of context it slowed.\n", tmp_path)
    assert cf.claims == [] and [u.number for u in cf.draft.unplaced] == ["128"]


def test_a_machine_in_a_counterfactual_is_not_the_runs(tmp_path):
    """ "Just an AMD EPYC 9175F … Even 8xH100 would give you only 640 GB" (h565, "Даже 8xH100
    дадут вам только 640 ГБ"): the run's machine is the EPYC, not the H100s; "Even on my 3090 it
    runs 40 tok/s" is a run on the 3090."""
    for even in ("Even 8xH100 would give you only 640 GB.", "Даже 8xH100 дадут вам только 640 ГБ."):
        post = (
            f"# Kimi\n\nJust an AMD EPYC 9175F and 512 GB of RAM. {even} Kimi K2.5 Q4_K_S runs 10-12 tok/s.\n"
        )
        cf = _drafted(post, tmp_path)
        rate = next(c for c in cf.claims if c.unit == "tok/s")
        assert _cond(cf, rate)["hardware"] == "AMD EPYC 9175F", even
    cf = _drafted("# Run\n\nEven on my 3090 it runs 40 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "NVIDIA GeForce RTX 3090"


def test_a_breakers_cases_of_session_72(tmp_path):
    """Regressions a breaker found in this session's kinds, each with its right value."""

    def rows(text: str) -> list[tuple]:
        cf = _drafted(f"# Title\n\n{text}\n", tmp_path)
        return [(c.metric, c.value, c.unit, _cond(cf, c).get("decoding")) for c in cf.claims]

    # "AR" for an acceptance rate: no baseline's rate (a twentieth of the rate or less, a share)
    assert rows("With EAGLE-3: 120 tok/s (AR 0.72)") == [("decode_tps", 120.0, "tok/s", "speculative")]
    assert rows("With EAGLE-3: 120 tok/s, AR 3.2") == [("decode_tps", 120.0, "tok/s", "speculative")]
    assert rows("With EAGLE-3: 120 tok/s (AR 72%)")[1][3] == "speculative"
    assert rows("Prefill 2000 tok/s (AR 58, batch 4)") == [("prefill_tps", 2000.0, "tok/s", "plain")]
    # a drafting method's name before its rate is still the clause's run's
    assert rows("DFlash 218 tok/s, AR 58 tok/s, AL 7.1") == [
        ("decode_tps", 218.0, "tok/s", "speculative"),
        ("decode_tps", 58.0, "tok/s", "plain"),
        ("mean_accepted_length", 7.1, "tokens", "speculative"),
    ]
    # a baseline's label makes its rate plain whatever drafting the line names
    for text in (
        "With MTP: 70 tok/s vs 41 without",
        "With MTP: 70 tok/s (without: 41)",
        "With MTP: 70 tok/s (w/o 41)",
    ):
        assert rows(text) == [
            ("decode_tps", 70.0, "tok/s", "draft-self"),
            ("decode_tps", 41.0, "tok/s", "plain"),
        ], text
    # a benchmark's label after a comma is the next result's
    cf = _drafted("# Sets\n\n- HumanEval: 218 tok/s, MT-Bench: 150 tok/s\n", tmp_path)
    assert [_cond(cf, c)["prompt"] for c in cf.claims] == ["HumanEval", "MT-Bench"]
    # an engine the setup keys as its engine, over one given a release as a dependency
    cf = _drafted(
        "# Env\n\n## Environment\n\n- **Engine**: SGLang\n"
        "- **vLLM version**: 0.8.5 (installed as a dependency)\n\n## Results\n\nDecode: 44.4 tok/s\n",
        tmp_path,
    )
    assert _cond(cf, cf.claims[0])["engine"] == "SGLang"
    # the Ascend backend stays with Ascend machines
    cf = _drafted(
        "# Cmp\n\nCompared against Ascend NPU results, my RTX 4090 does Qwen3-8B at 41.2 tok/s.\n", tmp_path
    )
    assert "backend" not in _cond(cf, cf.claims[0])
    cf = _drafted(
        "# Cmp\n\nLike the Ascend NPU port. On my M2 Max with llama.cpp, Qwen3-8B decodes 41 tok/s.\n",
        tmp_path,
    )
    assert _cond(cf, cf.claims[0])["backend"] == "Metal"
    # a baseline row's KV cache type is no weights' quant
    cf = _drafted(
        "# KV\n\n| Mode | tok/s |\n| --- | --- |\n| Baseline (BF16 KV cache) | 41 |\n| MTP | 60 |\n", tmp_path
    )
    assert "quant" not in _cond(cf, cf.claims[0])
    # a glued ggml type gives its quant, not the digits after it
    cf = _drafted("# Q\n\nLlama-3-8B Q8_0118.5 t/s\n", tmp_path)
    assert (cf.claims[0].value, _cond(cf, cf.claims[0])["quant"]) == (118.5, "Q8_0")
    # spec lists: a measured or used figure under a specs heading stays a claim
    for text in (
        "## Hardware power draw\n\n- Idle: 45 W",
        "## Specs\n\n- Memory usage: 21.3 GB with 32k ctx",
    ):
        assert len(_drafted(f"# Box\n\n{text}\n", tmp_path).claims) == 1, text
    cf = _drafted("# M2\n\n### 適用可能モデル\n\n- 7Bモデル(24GBメモリ構成): 快適な実行\n", tmp_path)
    assert cf.claims == []


def test_a_version_section_names_a_commit_only_beside_the_word():
    """A "Name and Version" section: a hash beside "commit" and no release is the build; an ``ollama
    ps`` model id under a release, or a release named beside a commit, is not (R5)."""
    from benchbook.audit.draftcontext import _version_named

    assert _version_named([(3, "0.7.0"), (4, "NAME ID SIZE"), (5, "qwen3:8b 29eb0b9aeda3 5.2 GB")]) != [
        ("build", "29eb0b9aeda3")
    ]
    assert ("build", "9f8e7d6c") not in _version_named(
        [(3, "vLLM v0.10.1rc1 built on commit 9f8e7d6c, patched")] * 2
    )


def test_a_backend_only_another_makers_machines_run_is_dropped(tmp_path):
    """ "Mac Studio M5 Max … 95-110 tps (MLX), versus … 130-150 tps on RTX 5090 (llama.cpp + CUDA
    backend)" (h290): CUDA is the RTX 5090's backend, not the Macs'; an RTX 4090 with CUDA keeps it,
    a Vulkan backend fits any maker's machine."""
    cf = _drafted(
        "# Ranges\n\nMac Studio M5 Max delivers approximately 95-110 tps (MLX), versus 130-150 tps"
        " on RTX 5090 (llama.cpp + CUDA backend).\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("backend") for c in cf.claims] == [None, "CUDA"]
    cf = _drafted("# Run\n\nOn an RTX 4090 with CUDA: 41 tok/s\n", tmp_path)
    assert _cond(cf, cf.claims[0])["backend"] == "CUDA"
    cf = _drafted("# Run\n\nOn an Apple M2 Max with Vulkan: 41 tok/s\n", tmp_path)
    assert _cond(cf, cf.claims[0])["backend"] == "Vulkan"


def test_a_breakers_gaps_closed_in_session_72(tmp_path):
    """ "quay.io/ascend/vllm-ascend:v0.9.0rc2" (a release candidate's image) names vLLM's release;
    "- `HumanEval`: 218 tok/s" (the set's name in inline code) labels its line's prompts."""
    assert engine_versions("image quay.io/ascend/vllm-ascend:v0.9.0rc2 and vllm serve", tags=False) == {
        "vLLM": "0.9.0rc2"
    }
    cf = _drafted("# DFlash\n\nWith DFlash:\n\n- `HumanEval`: 218 tok/s\n", tmp_path)
    assert _cond(cf, cf.claims[0])["prompt"] == "HumanEval"

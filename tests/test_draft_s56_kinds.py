"""Kinds fixed in issue 29's session 56 (read from the thirty-third held-out set's misses, h398–h406,
once a thirty-fourth set replaced it as the clean one), each with controls: llama-bench's
"deepseek4 ?B Q8_0" model cell wrote an empty model over the title's; "RTX-4080" (a dash) and
"DeepSeek-Lite"/"DeepSeek-V2-Lite" were no names; "context of 65k tokens" was a context of 65;
"6% (short context) to 13% (…) improvement for PP" and "~10% PP and ~2% TG improvement" were
shares, not changes; a "### Main branch" heading over a sweep's table named no build."""

from __future__ import annotations

from benchbook.audit.draftcommand import conditions_of
from benchbook.audit.draftcore import NAMED_CONDITION, named_count
from benchbook.audit.draftnames import cell_names, mentions
from benchbook.audit.draftwords import settings_in_words
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _names(text: str) -> list[tuple[str, object]]:
    return [(m.path, m.value) for m in mentions(text)]


def test_a_llama_bench_model_cell_of_unknown_size_leaves_the_titles_model(tmp_path):
    """llama-bench writes "?B" where it knows the architecture and not the size (llama.cpp's
    llm_type_name): the row names no model, so the title's "DeepSeek V4" stands, never an empty
    model; its quant "Q8_0" is still the row's."""
    text = (
        "# metal: DeepSeek V4 sparse prefill\n\n```\n"
        "| model | size | params | backend | threads | test | t/s |\n"
        "| --- | ---: | ---: | --- | ---: | ---: | ---: |\n"
        "| deepseek4 ?B Q8_0 | 91.94 GiB | 284.33 B | MTL,BLAS | 16 | tg128 | 25.70 ± 0.07 |\n```\n"
    )
    cf = _drafted(text, tmp_path)
    (tg,) = [c for c in cf.claims if c.metric == "decode_tps"]
    cond = _cond(cf, tg)
    assert (tg.value, cond["model"], cond["quant"]) == (25.70, "DeepSeek V4", "Q8_0")


def test_a_card_written_with_a_dash_and_deepseek_lite_are_names():
    """ "RTX-4080" is the card "RTX 4080" (GTX and workstation cards too); "DeepSeek-Lite" is
    ik_llama.cpp's name for DeepSeek-V2-Lite, which is a model with its variant word "Lite"."""
    assert _names("fully offloaded to my RTX-4080 GPU") == [("hardware", "NVIDIA GeForce RTX 4080")]
    assert _names("a GTX-1080 Ti") == [("hardware", "NVIDIA GeForce GTX 1080 Ti")]
    assert _names("With DeepSeek-Lite fully offloaded") == [("model", "DeepSeek-Lite")]
    assert _names("DeepSeek-V2-Lite-Chat on CPU") == [("model", "DeepSeek-V2-Lite-Chat")]
    # controls: a word after a dash is no card, "Lite" after another family names no model
    assert _names("RTX-ready laptops") == []
    assert _names("Qwen-Lite is fast") == []


def test_a_context_in_thousands_keeps_its_k():
    """ "context of 65k tokens" is a context of 65536 tokens (``count``: a power of two in
    thousands), never 65; "context 8192 tokens" is 8192; a rate after the number is no setting."""
    got = {m.group(0): named_count(m) for m in NAMED_CONDITION.finditer("at a context of 65k tokens")}
    assert got == {"context of 65k": 65536}
    got = {m.group(0): named_count(m) for m in NAMED_CONDITION.finditer("with context 8192 tokens")}
    assert got == {"context 8192": 8192}
    assert list(NAMED_CONDITION.finditer("batch 8 tok/s")) == []


def test_a_percentage_pair_before_one_improvement_word_is_two_changes(tmp_path):
    """ "About 6% (short context) to 13% (context of 65k tokens) improvement for PP": two prefill
    changes, each about (the remark in parentheses between a percentage and its word passed over);
    "~10% PP and ~2% TG improvement": a prefill change and a decode change.  Control: "uses 30% of
    the VRAM" stays a share."""
    text = (
        "# DeepSeek FA optimizations\n\nWith DeepSeek-Lite on my RTX-4080 I see\n"
        "* About 6% (short context) to 13% (context of 65k tokens) improvement for PP\n\n"
        "With all MoE tensors on the CPU I see a ~10% PP and ~2% TG improvement at 65k tokens.\n\n"
        "The model uses 30% of the VRAM.\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.metric, c.value, bool(c.about)) for c in cf.claims]
    assert got == [
        ("prefill_change", 6.0, True),
        ("prefill_change", 13.0, True),
        ("prefill_change", 10.0, True),
        ("decode_change", 2.0, True),
        ("share", 30.0, False),
    ]
    cond = _cond(cf, cf.claims[0])
    assert (cond["model"], cond["hardware"]) == ("DeepSeek-Lite", "NVIDIA GeForce RTX 4080")


def test_a_branch_heading_names_the_build_of_the_table_under_it(tmp_path):
    """ "### Main branch" over a table, "### This PR" over another: each table's runs are of that
    build, as written.  Control: "### Results" names none."""
    table = (
        "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
        "|-------|--------|--------|----------|----------|----------|----------|\n"
        "|   512 |    128 |      0 |    0.512 | {} |    2.560 | {} |\n"
    )
    text = (
        "# FA\n\nThis PR is about 5% faster for PP.\n\n### Main branch\n\n"
        + table.format("1000.5", "50.5")
        + "\n### This PR\n\n"
        + table.format("1100.5", "55.5")
        + "\n### Results\n\n"
        + table.format("1200.5", "60.5")
    )
    cf = _drafted(text, tmp_path)
    builds = {c.value: _cond(cf, c).get("build") for c in cf.claims if c.metric != "duration"}
    assert builds == {
        5.0: None,  # the post's own change, above both sections: of neither side
        1000.5: "Main branch",
        50.5: "Main branch",
        1100.5: "This PR",
        55.5: "This PR",
        1200.5: None,
        60.5: None,
    }


def test_llama_cpp_written_as_its_packages_name_is_the_engine():
    """ "llama-cpp" (the name of its packages and container images) is llama.cpp; its bindings
    ("llama-cpp-python", "llama-cpp-rs") stay engines of their own."""
    assert _names("llama-cpp의 --cpu-moe 옵션을 활용해") == [("engine", "llama.cpp")]
    assert _names("pip install llama-cpp-python") == [("engine", "llama-cpp-python")]
    assert _names("the llama-cpp-rs bindings") == [("engine", "llama-cpp-rs")]


def test_a_platform_named_with_its_chip_is_that_chip(tmp_path):
    """ "on AMD Strix Halo" in the title and "the AMD Strix Halo (Radeon 8060S)" in the text: the
    Radeon 8060S ran the model (``_PLATFORM_CHIPS``).  Control: a post naming the platform alone
    keeps it."""
    text = (
        "# 460 t/s on AMD Strix Halo\n\nWe benchmark the AMD Strix Halo (Radeon 8060S).\n\n"
        "Decode: 43.1 t/s.\n"
    )
    cf = _drafted(text, tmp_path)
    assert {_cond(cf, c)["hardware"] for c in cf.claims} == {"AMD Radeon 8060S"}
    cf = _drafted("# On AMD Strix Halo\n\nDecode: 43.1 t/s.\n", tmp_path)
    assert {_cond(cf, c)["hardware"] for c in cf.claims} == {"AMD Strix Halo"}


def test_unsloths_dynamic_quant_by_its_bits_is_a_quant_and_its_full_name_wins(tmp_path):
    """ "Qwen 3.6 35B A3B (UD-Q4)" names the quant UD-Q4 (a table's "Q4" is that one); "a UD-Q8
    quant" beside "Qwen3.6-27B-UD-Q8_K_XL" is the full name's.  Control: "UD-Q4-foo" is no quant."""
    assert _names("the Qwen 3.6 35B A3B (UD-Q4) model") == [("model", "Qwen 3.6 35B A3B"), ("quant", "UD-Q4")]
    assert _names("UD-Q4-foo") == []
    text = (
        "# Qwen3.6 on 2x3090\n\nModel: Unsloth's Qwen3.6-27B-UD-Q8_K_XL, a UD-Q8 quant.\n\n"
        "Decode: 31.5 t/s.\n"
    )
    cf = _drafted(text, tmp_path)
    assert {_cond(cf, c).get("quant") for c in cf.claims} == {"UD-Q8_K_XL"}


def test_a_draft_column_says_each_rows_decoding_and_draft_model(tmp_path):
    """ "| Draft |" over "None": that row decodes plainly; over "Q2.5 1.5B" or "1.5B Q8": the row
    drafts with that model (its quant the draft's), whose size is never the target's."""
    text = (
        "# Spec on Strix Halo\n\n| Config | Model | Draft | TG (t/s) |\n|---|---|---|---|\n"
        "| Baseline | Qwen 3.6 Q4 | None | 17.7 |\n| Spec_N5 | Qwen 3.6 Q4 | Q2.5 1.5B | 17.8 |\n"
        "| Regress | Qwen 3.6 Q4 | 1.5B Q8 | 17.5 |\n"
    )
    cf = _drafted(text, tmp_path)
    conds = {c.value: _cond(cf, c) for c in cf.claims}
    got = {v: (c["model"], c["decoding"], c.get("other", {}).get("draft_model")) for v, c in conds.items()}
    assert got == {
        17.7: ("Qwen 3.6", "plain", None),
        17.8: ("Qwen 3.6", "speculative", "Q2.5-1.5B"),
        17.5: ("Qwen 3.6", "speculative", "1.5B"),
    }
    assert _cond(cf, cf.claims[2])["other"]["draft_quant"] == "Q8"


def test_a_repository_name_without_a_size_gives_its_model_and_quant(tmp_path):
    """ "Model: DeepSeek-V4-Flash-oQ8 (151.5 GB)": the model DeepSeek-V4-Flash in oMLX's oQ8 (its
    repositories' last part), over the title's shorter "DeepSeek V4"; "GLM-4.5-Air-FP8" likewise.
    Control: "DeepSeek-R1-0528" is one model (a release's date, no quant)."""
    assert _names("DeepSeek-V4-Flash-oQ8") == [("model", "DeepSeek-V4-Flash"), ("quant", "oQ8")]
    assert _names("GLM-4.5-Air-FP8") == [("model", "GLM-4.5-Air"), ("quant", "FP8")]
    assert _names("DeepSeek-R1-0528") == [("model", "DeepSeek-R1-0528")]
    text = (
        "# DeepSeek V4 speedups\n\nModel: DeepSeek-V4-Flash-oQ8 (151.5 GB)  \n"
        "Machine: Mac Studio, M3 Ultra, 512 GB unified memory\n\nDecode: 29.1 tok/s\n"
    )
    cf = _drafted(text, tmp_path)
    (tg,) = [c for c in cf.claims if c.metric == "decode_tps"]
    cond = _cond(cf, tg)
    assert (cond["model"], cond["quant"], cond["hardware"]) == ("DeepSeek-V4-Flash", "oQ8", "Apple M3 Ultra")


def test_a_phase_named_relating_column_relates_that_phases_columns(tmp_path):
    """ "| PP speedup |" over "1.15x (+15.0%)" and "| TG delta |" over "+0.3%", beside Baseline and
    Optimized columns of both phases: the ratio (and the change in parentheses) of the PP pair, the
    change of the TG pair, never a rate of their own (the header's "PP" names what they relate,
    not their unit).  Control: a "| PP gain |" column over "+4.5 t/s" keeps its cells' unit."""
    text = (
        "# Speedups\n\n| Context | Baseline PP | Optimized PP | PP speedup | Baseline TG | Optimized TG "
        "| TG delta |\n|---:|---:|---:|---:|---:|---:|---:|\n"
        "| 1k | 422.8 tok/s | 486.1 tok/s | 1.15x (+15.0%) | 29.1 tok/s | 29.2 tok/s | +0.3% |\n"
    )
    cf = _drafted(text, tmp_path)
    ids = {c.id: c.value for c in cf.claims}
    assert sorted(ids.values()) == [29.1, 29.2, 422.8, 486.1]
    got = [(s.kind, s.value, [ids[x] for x in s.of]) for s in cf.statements]
    assert got == [
        ("ratio", 1.15, [486.1, 422.8]),
        ("percent_change", 15.0, [422.8, 486.1]),
        ("percent_change", 0.3, [29.1, 29.2]),
    ]
    control = (
        "# D\n\n| Run | PP | PP gain |\n|---|---|---|\n| a | 100.5 t/s | +4.5 t/s |\n| b | 105.0 t/s | |\n"
    )
    cf = _drafted(control, tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(100.5, "t/s"), (105.0, "t/s"), (4.5, "t/s")]
    assert cf.statements == []


def test_a_model_line_declares_the_sections_model_over_the_titles_words(tmp_path):
    """ "Model: DeepSeek-V4-Flash-oQ8" in the benchmark's section declares its model and quant: the
    table under it is in oQ8, not the MXFP4 the title names for its kernels."""
    text = (
        "# accelerate DeepSeek V4 with bundled MXFP4 MoE kernels\n\n## Benchmark\n\n"
        "Model: DeepSeek-V4-Flash-oQ8 (151.5 GB)\n\n### Throughput\n\n"
        "| Context | PP (t/s) |\n|---:|---:|\n| 1k | 422.8 |\n"
    )
    cf = _drafted(text, tmp_path)
    (pp,) = [c for c in cf.claims if c.value == 422.8]
    cond = _cond(cf, pp)
    assert (cond["model"], cond["quant"]) == ("DeepSeek-V4-Flash", "oQ8")


def test_llama_bench_rows_without_a_depth_beside_rows_with_one_are_at_depth_0(tmp_path):
    """llama-bench's "pp2048" beside "pp2048 @ d10000": depth 0 (its default ``-d 0``) and 10000;
    a table with no depth anywhere states none."""
    head = (
        "| model | size | params | backend | threads | test | t/s |\n"
        "| --- | ---: | ---: | --- | ---: | ---: | ---: |\n"
    )
    row = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Metal | 16 | {} | {} |\n"
    text = "# Depths\n\n```\n" + head + row.format("pp2048", "235.00 ± 0.63")
    cf = _drafted(text + row.format("pp2048 @ d10000", "222.04 ± 0.71") + "```\n", tmp_path)
    got = {c.value: _cond(cf, c).get("depth") for c in cf.claims if c.metric == "prefill_tps"}
    assert got == {235.0: 0, 222.04: 10000}
    cf = _drafted(text + "```\n", tmp_path)
    assert [_cond(cf, c).get("depth") for c in cf.claims if c.metric == "prefill_tps"] == [None]


def test_a_claim_of_another_engine_takes_no_settings_of_the_command_above(tmp_path):
    """ "llama-server … --n-gpu-layers 12 -fa on" above "Ollama's speed was 9.8 tps": the command
    ran llama.cpp, so none of its settings are the Ollama claim's; the claim under it that names
    Ollama only as what it is unlike ("unlike Ollama, …") is llama.cpp's, with them."""
    text = (
        "# gpt-oss-120b on an RTX 4090\n\n```\n"
        "llama-server -hf ggml-org/gpt-oss-120b-GGUF -c 0 --n-gpu-layers 12 -fa on --jinja\n```\n\n"
        "Unlike Ollama, the GPU was busy: decoding ran at 12.98 tps.\n\n"
        "Ollama's decoding speed was 9.8 tps.\n"
    )
    cf = _drafted(text, tmp_path)
    conds = {c.value: _cond(cf, c) for c in cf.claims}
    assert conds[12.98]["engine"] == "llama.cpp"
    assert conds[12.98]["offload"] == {"n_gpu_layers": 12}
    assert conds[9.8]["engine"] == "Ollama"
    assert "offload" not in conds[9.8] and "flash_attn" not in conds[9.8] and "other" not in conds[9.8]


def test_sampling_settings_between_slashes():
    """ "temp 0.6 / top_p 0.95 / top_k 20": all three settings (a slash between, as a comma is)."""
    out: list = []
    settings_in_words("Sampling: temp 0.6 / top_p 0.95 / top_k 20, full GPU", out)
    assert out == [("sampling", "temperature 0.6, top_p 0.95, top_k 20")]


def test_an_engine_cell_listing_the_runs_parts_names_its_engine_and_backend(tmp_path):
    """ "| runtime |" over "LM Studio, MLX engine, same checkpoint": engine LM Studio, backend MLX;
    over "LM Studio / Unsloth, GGUF": LM Studio; a cell of one engine stays as it is."""
    text = (
        "# Three runtimes\n\n| runtime | decode |\n|---|---|\n"
        "| LM Studio, MLX engine, same checkpoint | ~30 tok/s |\n"
        "| LM Studio / Unsloth, GGUF | 35 tok/s |\n| llama.cpp | 40 tok/s |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: (_cond(cf, c)["engine"], _cond(cf, c).get("backend")) for c in cf.claims}
    assert got == {30.0: ("LM Studio", "MLX"), 35.0: ("LM Studio", None), 40.0: ("llama.cpp", None)}


SCRIPT = (
    "# Throughput degradation on Qwen3-30B-A3B with EAGLE3\n\n"
    "I got a throughput degrade (in H100*2). The command I used to benchmark:\n"
    "```\npython bench_eagle3.py \\\n    --model Qwen/Qwen3-30B-A3B \\\n"
    "    --speculative-algorithm EAGLE3 \\\n    --tp-size 2 \\\n    --cuda-graph-max-bs 64 \\\n"
    "    --dtype bfloat16\n```\n\nThe base model speed:\n\n"
    "bs | throughput\n-- | --\n1 | 222.47\n4 | 566.21\n"
)


def test_a_script_run_with_one_engines_flags_runs_that_engine(tmp_path):
    """ "python bench_eagle3.py --speculative-algorithm EAGLE3 --tp-size 2 --cuda-graph-max-bs 64": a
    script of no engine's name, run with flags only SGLang's server takes: SGLang, in the weights'
    type "--dtype bfloat16" names; the post names one machine ("H100*2" in the lead-in over the
    script), so that block is no machine's own section: what it states is the post's, its table's."""
    cf = _drafted(SCRIPT, tmp_path)
    got = {c.value: (_cond(cf, c).get("engine"), _cond(cf, c).get("quant")) for c in cf.claims}
    assert got == {222.47: ("SGLang", "bfloat16"), 566.21: ("SGLang", "bfloat16")}


def test_a_row_of_an_unknown_engine_takes_no_other_rows_engine(tmp_path):
    """A "| Fork / Engine |" column of names no list knows ("Spiritbuun") beside "ik_llama.cpp": that
    row's engine is its cell's (``other.fork_engine``), never the one engine the post names."""
    text = (
        "# Five engines\n\n| Fork / Engine | Code TPS |\n|---|---|\n"
        "| ik_llama.cpp (ubergarm) | 89.2 |\n| Spiritbuun | 59.7 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: (_cond(cf, c).get("engine"), _cond(cf, c).get("other")) for c in cf.claims}
    assert got[59.7] == (None, {"fork_engine": "Spiritbuun"})


def test_dtype_names_the_weights_type_where_no_quantisation_is_named():
    """vLLM's "--dtype bfloat16" is the weights' type (the quant, as SOURCES.md writes it); a
    "--quantization fp8" beside it is the quant; "--dtype auto" names none."""
    assert conditions_of("vllm serve", ["Qwen/Qwen3-8B", "--dtype", "bfloat16"])["quant"] == "bfloat16"
    both = conditions_of("vllm serve", ["Qwen/Qwen3-8B", "--dtype", "bfloat16", "--quantization", "fp8"])
    assert both["quant"] == "fp8"
    assert "quant" not in conditions_of("vllm serve", ["Qwen/Qwen3-8B", "--dtype", "auto"])


def test_a_format_cell_joined_to_its_quant_by_a_dash():
    """ "| 포맷 |" (format) over "MLX-4bit" names the MLX engine, over "GGUF-Q4_K_M" the quant Q4_K_M;
    a repository "mlx-community/…" is no such cell."""
    assert cell_names("MLX-4bit") == {"engine": "MLX"}
    assert cell_names("GGUF-Q4_K_M") == {"quant": "Q4_K_M"}
    assert cell_names("mlx-community/Qwen3-4B-4bit") == {}


def test_a_rate_column_naming_its_workload_is_that_prompts(tmp_path):
    """ "| Code TPS | Chat tok/s |": each column's rates ran that prompt (the word as written); a
    "| Decode TPS |" column names a phase, no prompt."""
    text = (
        "# Bench\n\n| Engine | Code TPS | Chat tok/s | Decode TPS |\n|---|---|---|---|\n"
        "| llama.cpp | 89.2 | 63.9 | 70.1 |\n"
    )
    cf = _drafted(text, tmp_path)
    prompts = {c.value: _cond(cf, c).get("prompt") for c in cf.claims}
    assert prompts == {89.2: "Code", 63.9: "Chat", 70.1: None}

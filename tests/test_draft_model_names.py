"""Model and quantisation names (``draftnames``, ``draftcommand.model_and_quant``, issue 29): the
packaging a repository or file name ends with kept apart from the model, Ollama tags in a path, a
family written in any case, llama-bench's model column, variant words after the size, draft models
marked as such, a family named with the word "model". Each with a control where it must not fire.
The texts are written here in the shapes posts use, not copied from the corpus."""

from __future__ import annotations

from benchbook.audit.draftcommand import model_and_quant
from benchbook.audit.draftnames import cell_names, mentions, model_cell
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _named(text: str) -> list[tuple[str, object]]:
    return [(m.path, m.value) for m in mentions(text) if m.path in ("model", "quant")]


def test_packaging_at_the_end_of_a_name_is_no_part_of_the_model():
    assert model_and_quant("someone/Phi-4-14B-MTP-GGUF") == ("Phi-4-14B", None)
    assert model_and_quant("Gemma-3-4B-MTP-Q5_K_S.gguf") == ("Gemma-3-4B", "Q5_K_S")
    assert model_and_quant("org/Mistral-7B-chat-hf") == ("Mistral-7B-chat", None)
    assert model_and_quant("someone/Yi-34B-exl2") == ("Yi-34B", None)
    assert model_and_quant("Falcon-7B-A1B-UD") == ("Falcon-7B-A1B", None)
    # an MLX repository's bits are its quantisation
    assert model_and_quant("mlx-community/Gemma-3-12B-8bit") == ("Gemma-3-12B", "8bit")
    # controls: a name with no packaging stays whole; a name that is only packaging is kept
    assert model_and_quant("org/Phi-4-14B-Instruct") == ("Phi-4-14B-Instruct", None)
    assert model_and_quant("MTP") == ("MTP", None)


def test_an_ollama_tag_as_a_path_keeps_its_tag_the_quant_apart():
    # a shell-escaped colon ("-m mistral\:7b-instruct-q5_K_M")
    assert model_and_quant("mistral\\:7b-instruct-q5_K_M") == ("mistral:7b-instruct", "q5_K_M")
    assert model_and_quant("phi3:14b") == ("phi3:14b", None)
    # control: a repository's tag that is a quantisation is no Ollama tag
    assert model_and_quant("someone/Phi-4-14B-GGUF:Q6_K") == ("Phi-4-14B", "Q6_K")


def test_a_family_in_any_case_names_a_model():
    assert _named("a run of QWEN2.5-14B on the box") == [("model", "QWEN2.5-14B")]
    assert _named("then MiStRaL-7B at 40 t/s") == [("model", "MiStRaL-7B")]
    # control: a word that merely begins like a family, with no size, names nothing
    assert _named("the phi-function and yield-curve numbers") == []


def test_llama_bench_model_column_keeps_the_quant_apart():
    assert model_cell("gemma3 12B Q5_K - Medium") == ("gemma3-12B", "Q5_K_M")
    assert model_cell("phi3 3B Q8_0") == ("phi3-3B", "Q8_0")
    assert model_cell("llama 13B IQ3_XXS - 3.0625 bpw") == ("llama 13B", "IQ3_XXS")
    assert model_cell("Gemma-3-4B-UD") == ("Gemma-3-4B", None)
    # controls: a cell with no quantisation; a quantisation alone in a model column
    assert model_cell("Mistral-Nemo 12B") == ("Mistral-Nemo-12B", None)
    assert model_cell("Q4_K_M") == ("Q4_K_M", None)


def test_llama_bench_output_model_cell_sets_model_and_quant(tmp_path):
    text = (
        "# bench\n\n"
        "| model          |       size |     params | backend    | ngl | test  |             t/s |\n"
        "| -------------- | ---------: | ---------: | ---------- | --: | ----: | --------------: |\n"
        "| phi3 3B Q8_0   |   3.78 GiB |     3.82 B | CUDA       |  99 | pp512 | 5123.45 ± 12.34 |\n"
    )
    cf = _drafted(text, tmp_path)
    (c,) = [c for c in cf.claims if c.value == 5123.45]
    cond = _cond(cf, c)
    assert (cond["model"], cond["quant"]) == ("phi3-3B", "Q8_0")


def test_variant_words_and_active_size_after_a_spaced_name():
    named = _named("Mistral 3 24B Instruct at Q4_K_M")
    assert named == [("model", "Mistral 3 24B Instruct"), ("quant", "Q4_K_M")]
    assert _named("Qwen3-14B Story-Distill runs") == [("model", "Qwen3-14B Story-Distill")]
    assert _named("Qwen3 30B A3B runs faster") == [("model", "Qwen3 30B A3B")]
    assert _named("Qwen3.5 35B-A3B runs faster") == [("model", "Qwen3.5 35B-A3B")]
    assert _named("slow with Mistral 3 24b Instruct here") == [("model", "Mistral 3 24b Instruct")]
    # controls: a lower-case word after the name is the sentence's, not a variant
    assert _named("Qwen3-14B chat speed was fine") == [("model", "Qwen3-14B")]


def test_a_draft_model_is_not_the_model_measured():
    named = _named("Gemma 3 12B Q4 (main) + Gemma 3 1B Q4 MLX (draft): 30 t/s")
    assert named == [("model", "Gemma 3 12B"), ("quant", "Q4")]
    assert _named("loaded someone/Llama-3-8B-EAGLE3 beside it") == []
    # control: "(main)" and plain remarks leave the model named
    assert _named("Gemma 3 12B (main) at 30 t/s") == [("model", "Gemma 3 12B")]


def test_a_family_and_version_with_the_word_model_names_the_model():
    assert _named("Support for the Granite4 model (PR)") == [("model", "Granite4")]
    # controls: no version; a fuller name already there; "model family"
    assert _named("the Granite model is slow") == []
    assert _named("the Granite-4-8B model is slow") == [("model", "Granite-4-8B")]
    assert _named("the Qwen3 model family") == []


def test_a_name_compared_with_is_the_other_sides():
    named = _named("this Phi-4-14B-IQ3_M-3.5bpw file keeps close quality to someone's Q5_K_S, but is small")
    assert named == [("model", "Phi-4-14B"), ("quant", "IQ3_M-3.5bpw")]
    assert _named("Gemma-3-4B is twice as fast as before and faster than Phi-4-14B") == [
        ("model", "Gemma-3-4B")
    ]
    # control: a name after "to" that is no comparison stays
    assert _named("then I switched to Phi-4-14B") == [("model", "Phi-4-14B")]


def test_a_draft_model_column_keeps_its_quant_as_the_drafts(tmp_path):
    text = (
        "# Draft sizes\n\n"
        "The target is Mistral-Nemo-12B-Instruct (Q5_K_M) on one card.\n\n"
        "| Draft model | Throughput |\n"
        "|---|---|\n"
        "| 1B (Q8_0) | 61.5 tok/s |\n"
        "| 2B (Q5_K_M) | 55.25 tok/s |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [
        (c.value, _cond(cf, c).get("quant"), _cond(cf, c)["other"])
        for c in cf.claims
        if c.value in (61.5, 55.25)
    ]
    assert got == [
        (61.5, "Q5_K_M", {"draft_model": "1B", "draft_quant": "Q8_0"}),
        (55.25, "Q5_K_M", {"draft_model": "2B", "draft_quant": "Q5_K_M"}),
    ]


def test_a_label_cell_under_an_unknown_header_names_quant_and_hardware(tmp_path):
    assert cell_names("GGUF Q5_K_S, 2x4090") == {"quant": "Q5_K_S", "hardware": "2x NVIDIA GeForce RTX 4090"}
    assert cell_names("AWQ 4-bit on one card") == {"quant": "AWQ 4-bit"}
    # controls: a KV cache's pair, a draft's quant, no name at all
    assert cell_names("q8_0+q8_0") == {}
    assert cell_names("Gemma-3-1B Q8 draft") == {}
    assert cell_names("warm start") == {}
    text = (
        "# Two setups\n\n"
        "| Model | Setup | Speed |\n"
        "|---|---|---|\n"
        "| Phi-4-14B | GGUF Q5_K_S, 2x4090 | 41.5 tok/s |\n"
        "| Phi-4-14B | AWQ 4-bit, on a 4090 | 37.25 tok/s |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.value, _cond(cf, c).get("quant"), _cond(cf, c).get("hardware")) for c in cf.claims]
    assert got == [
        (41.5, "Q5_K_S", "2x NVIDIA GeForce RTX 4090"),
        (37.25, "AWQ 4-bit", "NVIDIA GeForce RTX 4090"),
    ]


def test_exl2_bits_per_weight_are_the_quant():
    assert model_and_quant("someone/Yi-34B-4.65bpw-h8-exl2") == ("Yi-34B", "EXL2 4.65bpw-h8")
    assert model_and_quant("someone/Yi-34B-3.0bpw-exl2") == ("Yi-34B", "EXL2 3.0bpw")
    # control: no bits written: the packaging goes, no quant is guessed
    assert model_and_quant("someone/Yi-34B-exl2") == ("Yi-34B", None)


def test_a_blob_hash_names_no_model_a_size_class_with_version_does():
    from benchbook.audit.draftcommand import conditions_of

    got = conditions_of("llama-server", ["-m", "/store/blobs/sha256-" + "ab12" * 16, "-ngl", "20"])
    assert "model" not in got and got["offload"] == {"n_gpu_layers": 20}
    assert _named("the same model (Gemma Small 2) in both") == [("model", "Gemma Small 2")]
    # controls: a path that merely holds a hash-like word; a size class with no version
    assert conditions_of("llama-server", ["-m", "/m/Phi-4-14B-Q4_0.gguf"])["model"] == "Phi-4-14B"
    assert _named("Mistral Small is fine") == []


def test_a_short_name_with_the_version_glued_takes_the_posts_full_name(tmp_path):
    text = (
        "# Slow first token on Phi4-14B\n\n"
        "Time to first token is 812 ms at 8k input.\n\n"
        "### Setup: Phi-4-14B-Instruct on one box\n\n"
        "Nothing else ran.\n"
    )
    cf = _drafted(text, tmp_path)
    (c,) = [c for c in cf.claims if c.value == 812]
    assert _cond(cf, c)["model"] == "Phi-4-14B-Instruct"


def test_a_quantisation_method_with_its_bits_after_a_model_name():
    assert _named("ran Phi-4-14B AutoRound INT4 on two cards") == [
        ("model", "Phi-4-14B"),
        ("quant", "AutoRound INT4"),
    ]
    assert _named("Phi-4-14B GPTQ 4-bit then") == [("model", "Phi-4-14B"), ("quant", "GPTQ 4-bit")]
    # control: an INT4 alone after the name is no method's
    assert _named("Phi-4-14B INT4 kernels") == [("model", "Phi-4-14B")]


def test_model_dir_flag_names_the_model():
    from benchbook.audit.draftcommand import conditions_of

    assert conditions_of("vllm", ["--model-dir", "org/Phi-4-14B-Instruct", "--batch-size", "1"])["model"] == (
        "Phi-4-14B-Instruct"
    )
    # control: a directory flag of another kind names no model
    assert "model" not in conditions_of("vllm", ["--download-dir", "/data/Phi-4-14B"])


def test_a_family_with_no_version_and_its_size_names_a_model():
    assert _named("on Falcon 40B it ran") == [("model", "Falcon 40B")]
    assert _named("while GPT-OSS 20B stayed") == [("model", "GPT-OSS 20B")]
    # controls: a count of something else after a family word; a decimal that is no size
    assert _named("Falcon 40 times") == []
    assert _named("Falcon 40.5 t/s") == []


def test_a_size_label_names_the_model_of_the_posts_family(tmp_path):
    assert _named("- 12B: 40.5 tok/s") == [("model", "12B")]
    # controls: a memory size, a size inside a sentence
    assert _named("- 12GB: 40.5 tok/s") == []
    assert _named("the 12B: fast") == []
    text = (
        "# Gemma numbers\n\n"
        "| Model | Speed |\n"
        "|---|---|\n"
        "| Gemma-3-4B | 88.5 tok/s |\n\n"
        "Bigger ones:\n\n"
        "- 12B: 40.5 tok/s\n"
        "- 27B: 19.25 tok/s\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: _cond(cf, c).get("model") for c in cf.claims}
    assert got == {88.5: "Gemma-3-4B", 40.5: "Gemma-3-12B", 19.25: "Gemma-3-27B"}


def test_a_quant_after_the_mtp_file_variant():
    assert _named("Phi-4-14B MTP-UD-Q5_K_XL") == [("model", "Phi-4-14B"), ("quant", "UD-Q5_K_XL")]
    # control: a quant glued to another word after a hyphen is no quant of its own
    assert _named("the foo-Q5_K_XL tag") == []


def test_a_configuration_label_of_size_and_quant_names_the_model(tmp_path):
    assert cell_names("14B Q5_K_S") == {"quant": "Q5_K_S", "model": "14B"}
    # control: a size with no quant is no configuration of a model
    assert cell_names("14B context") == {}
    text = (
        "# Gemma-3-27B and Gemma-3-4B\n\n"
        "| Metric | 27B Q5_K_S | 4B Q8_0 |\n"
        "|:-|:-|:-|\n"
        "| **Avg tok/s** | 41.5 | 90.5 |\n"
        "| **Peak tok/s** | 45.5 | 99.5 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: (_cond(cf, c).get("model"), _cond(cf, c).get("quant")) for c in cf.claims}
    assert got[41.5] == ("Gemma-3-27B", "Q5_K_S") and got[90.5] == ("Gemma-3-4B", "Q8_0")


def test_models_on_both_sides_of_vs_are_named():
    assert _named("Gemma-3-4B vs Phi-4-14B on one card") == [("model", "Gemma-3-4B"), ("model", "Phi-4-14B")]
    assert _named("UD-Q5_K_XL vs Q8_0") == [("quant", "UD-Q5_K_XL"), ("quant", "Q8_0")]
    # control: a quant after "than" is the other side's
    assert _named("UD-Q5_K_XL is faster than Q8_0") == [("quant", "UD-Q5_K_XL")]

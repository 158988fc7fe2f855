"""Model names the drafter reads without a size in ``_MODEL``'s form (issue 29, the held-out posts
h141–h180): a family and version alone ("DeepSeek V3", "Kimi K2"), an effective or variant size
("Gemma 4 E4B", "Qwen3-VL 235B", "GLM-4.6V 108B"), a size class ("Mistral Large"), the size before
the family ("a 7B LLaMA model"); and a template command's placeholder file ("-m model.gguf"), which
names no model, so its settings still hold for the post's named model."""

from __future__ import annotations

import pytest

from benchbook.audit.draftcommand import conditions_of
from benchbook.audit.draftnames import mentions
from drafting import conditions as _cond
from drafting import drafted as _drafted


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("Comparison of two engines with DeepSeek V3", "DeepSeek V3"),
        ("Prefill of DeepSeek-R1 on two sockets", "DeepSeek-R1"),
        ("Kimi K2 on a single node", "Kimi K2"),
        ("Gemma 4 E4B Q4_K_M in both apps", "Gemma 4 E4B"),
        ("Qwen3-VL 235B fits in 72 GB", "Qwen3-VL 235B"),
        ("GLM-4.6V 108B on a Threadripper", "GLM-4.6V 108B"),
        ("Mistral Large at 8 bit", "Mistral Large"),
        ("Tested on a 7B LLaMA model", "LLaMA 7B"),
        ("the 13B Llama 2 runs", "Llama 2 13B"),
    ],
)
def test_a_model_named_without_the_usual_size_form(text, model):
    assert [m.value for m in mentions(text) if m.path == "model"] == [model]


@pytest.mark.parametrize(
    "text",
    [
        "llama.cpp b4000 on Vulkan",  # the engine's name, no model
        "compiled with llama-cpp-python 0.3.5",
    ],
)
def test_no_model_from_an_engine_name(text):
    assert [m.value for m in mentions(text) if m.path == "model"] == []


def test_a_sizeless_name_is_not_read_inside_a_fuller_one():
    """The fuller name wins its span: "DeepSeek-R1-Distill-Llama-70B" is one model, not DeepSeek-R1 too."""
    assert [m.value for m in mentions("DeepSeek-R1-Distill-Llama-70B at 12 t/s") if m.path == "model"] == [
        "DeepSeek-R1-Distill-Llama-70B"
    ]


def test_the_titles_sizeless_model_holds_for_the_table(tmp_path):
    cf = _drafted(
        "# Two engines on DeepSeek V3\n\n"
        "| Software | Eval Rate (tokens/s) |\n|---|---|\n| llama.cpp | 2.98 |\n",
        tmp_path,
    )
    (c,) = cf.claims
    assert (c.metric, c.value, c.unit) == ("decode_tps", 2.98, "tok/s")
    assert _cond(cf, c)["model"] == "DeepSeek V3"


@pytest.mark.parametrize("path", ["model.gguf", "/path/to/your_model.gguf", "MODEL_NAME", "xxx.gguf"])
def test_a_placeholder_file_names_no_model(path):
    got = conditions_of("llama-bench", ["-m", path, "-ngl", "99"])
    assert "model" not in got
    assert got["offload"]["n_gpu_layers"] == 99


def test_a_real_file_still_names_its_model():
    got = conditions_of("llama-bench", ["-m", "models/Qwen3-8B-Q4_K_M.gguf", "-ngl", "99"])
    assert (got["model"], got["quant"]) == ("Qwen3-8B", "Q4_K_M")


def test_a_template_commands_settings_hold_for_the_posts_model(tmp_path):
    """ "-m model.gguf" is a template: its -ngl 99 is the run's, whatever model the post names."""
    cf = _drafted(
        "# Benchmarking Qwen 3.5 on a Mac mini\n\n"
        "Generation ran at 41.2 t/s.\n\n"
        "```\nllama-bench -m model.gguf -p 512 -n 128 -ngl 99\n```\n",
        tmp_path,
    )
    (c,) = cf.claims
    cond = _cond(cf, c)
    assert cond["model"] == "Qwen 3.5"
    assert cond["offload"] == {"n_gpu_layers": 99}


def test_a_column_of_model_names_is_the_model_whatever_its_header(tmp_path):
    """ "| Model / Quant |" is no header the drafter knows; its cells, each a model file's name, say
    what the column is: the model and its quant per row (ik_llama.cpp's IQ4_KS among the quants)."""
    cf = _drafted(
        "# Decode on one GPU\n\n"
        "| Fork | Model / Quant | Code TPS |\n|---|---|---|\n"
        "| ik_llama | Qwen3.6-27B-IQ4_KS | 89.2 |\n"
        "| mainline | Qwen3.6-27B-Q4_K_M | 64.7 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("model"), _cond(cf, c).get("quant")) for c in cf.claims]
    assert got == [(89.2, "Qwen3.6-27B", "IQ4_KS"), (64.7, "Qwen3.6-27B", "Q4_K_M")]


def test_a_column_of_configurations_is_not_a_model_column(tmp_path):
    """Control: "Llama 3.3 70B Q4 · 2× RTX 5090" names a machine too; the quant and the machine
    are read from it (``cell_names``), the cell is not taken whole as a model's name."""
    cf = _drafted(
        "| Setup | Decode (tok/s) |\n|---|---|\n"
        "| Llama 3.3 70B Q4 · 2× RTX 5090 | 27.1 |\n"
        "| Qwen 3 30B MoE · 1× RTX 5090 | 140.2 |\n",
        tmp_path,
    )
    first = _cond(cf, cf.claims[0])
    assert first.get("model") != "Llama 3.3 70B Q4 · 2× RTX 5090"
    assert first["quant"] == "Q4"


@pytest.mark.parametrize(
    ("text", "engine"),
    [
        ("KTransformers reached 14 tokens/s", "KTransformers"),
        ("PowerInfer on a 4090", "PowerInfer"),
        ("served by text-generation-inference", "TGI"),
        ("TRT-LLM throughput", "TensorRT-LLM"),
        ("ik_llama with the ubergarm config", "ik_llama.cpp"),
        ("LMDeploy's TurboMind", "LMDeploy"),
        ("Docker Model Runner ran it", "Docker Model Runner"),
    ],
)
def test_engines_the_lexicon_now_knows(text, engine):
    assert [m.value for m in mentions(text) if m.path == "engine"] == [engine]


def test_a_threads_venue_gives_way_to_the_engine_its_title_names(tmp_path):
    """ "(… text-generation-inference issue)" is where the thread lives; the title's own ExLlamaV2
    is what ran."""
    cf = _drafted(
        "# Upgrade to exllama v2 (text-generation-inference issue)\n\nA 7B model ran at 175 t/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    assert _cond(cf, c)["engine"] == "ExLlamaV2"


def test_a_threads_venue_is_the_engine_where_the_title_names_none(tmp_path):
    cf = _drafted("# Speed on A100 (exllama issue)\n\nA 7B model ran at 131 t/s.\n", tmp_path)
    (c,) = cf.claims
    assert _cond(cf, c)["engine"] == "ExLlama"


@pytest.mark.parametrize("text", ["the Qwen3 model family", "all Llama 3 models", "the DeepSeek V3 series"])
def test_a_family_of_models_is_no_model(text):
    assert [m.value for m in mentions(text) if m.path == "model"] == []

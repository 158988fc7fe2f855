"""Condition names by their shape (``draftnames``, issue 29): table cells with a remark in
parentheses, a model written with a space before its size, Ollama tags, an engine's abbreviation,
a rate column's header naming its decoding; each with a control where it must not fire. The texts
are written here in the shapes posts use, not copied from the corpus."""

from __future__ import annotations

from benchbook.audit.draftnames import (
    engine_of_cell,
    hardware_of,
    header_decoding,
    mentions,
    model_of,
    ollama_model,
    without_remark,
)
from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_hardware_cell_with_a_remark_names_the_hardware_before_it():
    assert hardware_of("RTX 4070 Super (Ada, 2024)") == "NVIDIA GeForce RTX 4070 Super"
    assert hardware_of("RX 7900 XTX (RDNA3)") == "AMD Radeon RX 7900 XTX"
    assert without_remark("CPU only (no GPU)") == "CPU only"
    # controls: two machines in one cell are no one hardware; a remark alone stays as written
    assert hardware_of("RTX 3090 / RTX 4090") is None
    assert without_remark("(none)") == "(none)"


def test_a_model_cell_joins_family_and_size_and_reads_ollama_tags():
    assert model_of("Mistral-Nemo 12B") == "Mistral-Nemo-12B"
    assert model_of("Phi-4 14B (Q4)") == "Phi-4-14B"
    assert model_of("llama3.1:70b-instruct-q4_K_M") == "llama3.1-70B-instruct"
    assert ollama_model("qwen3:30b-a3b-q4_K_M") == ("qwen3-30B-A3B", "Q4_K_M")
    assert ollama_model("gpt-oss:120b") == ("gpt-oss-120B", None)
    # controls: a name with no version would lose it; a name already joined stays as written; a
    # clock time or a URL port is no tag
    assert model_of("Llama 8B") is None
    assert model_of("Gemma-3-12B") is None
    assert ollama_model("10:30") is None
    assert [m for m in mentions("served on localhost:8080 at 10:30") if m.path == "model"] == []


def test_an_ollama_tag_in_prose_names_model_and_quant():
    named = [(m.path, m.value) for m in mentions("I pulled mistral-small:24b-instruct-q6_K. Then")]
    assert named == [("model", "mistral-small-24B-instruct"), ("quant", "Q6_K")]


def test_an_engine_abbreviation_stands_for_the_one_engine_it_fits():
    assert engine_of_cell("LCP", {"llama.cpp", "Ollama"}) == "llama.cpp"
    assert engine_of_cell("vLLM", set()) == "vLLM"
    # controls: no engine named in the post; two engines it would fit; a word that is no abbreviation
    assert engine_of_cell("LCP", {"Ollama"}) is None
    assert engine_of_cell("LM", {"LM Studio", "llama.cpp"}) is None
    assert engine_of_cell("LS", {"LM Studio", "llama.cpp"}) == "LM Studio"
    assert engine_of_cell("GPU", {"llama.cpp"}) is None


def test_a_rate_column_header_names_its_decoding():
    assert header_decoding("Baseline") == "plain"
    assert header_decoding("No-spec t/s") == "plain"
    assert header_decoding("Top speculative run") == "speculative"
    assert header_decoding("With draft model") == "speculative"
    # controls: a header naming both sides, or none
    assert header_decoding("Baseline vs speculative") is None
    assert header_decoding("tg128 (t/s)") is None
    assert header_decoding("Spec off") == "plain"


def test_a_table_takes_hardware_model_engine_and_decoding_from_its_cells_and_headers(tmp_path):
    cf = _drafted(
        "# Drafting on two cards\n\n"
        "We compared llama.cpp (abbreviated LC below) with Ollama.\n\n"
        "| GPU | Model | Engine | Baseline | Speculative |\n|---|---|---|---|---|\n"
        "| RTX 4070 Super (Ada, 2024) | Mistral-Nemo 12B | LC | 40.5 tok/s | 61.2 tok/s |\n"
        "| RX 7900 XTX (RDNA3) | Mistral-Nemo 12B | Ollama | 38.0 tok/s | 50.1 tok/s |\n",
        tmp_path,
    )
    got = sorted((c.value, tuple(sorted(_cond(cf, c).items()))) for c in cf.claims)
    assert got == [
        (
            38.0,
            (
                ("decoding", "plain"),
                ("engine", "Ollama"),
                ("hardware", "AMD Radeon RX 7900 XTX"),
                ("model", "Mistral-Nemo-12B"),
            ),
        ),
        (
            40.5,
            (
                ("decoding", "plain"),
                ("engine", "llama.cpp"),
                ("hardware", "NVIDIA GeForce RTX 4070 Super"),
                ("model", "Mistral-Nemo-12B"),
            ),
        ),
        (
            50.1,
            (
                ("decoding", "speculative"),
                ("engine", "Ollama"),
                ("hardware", "AMD Radeon RX 7900 XTX"),
                ("model", "Mistral-Nemo-12B"),
            ),
        ),
        (
            61.2,
            (
                ("decoding", "speculative"),
                ("engine", "llama.cpp"),
                ("hardware", "NVIDIA GeForce RTX 4070 Super"),
                ("model", "Mistral-Nemo-12B"),
            ),
        ),
    ]


def _hardware(text: str) -> list[object]:
    return [m.value for m in mentions(text) if m.path == "hardware"]


def test_hardware_by_shape_laptop_parts_apus_arc_and_glued_chip_names():
    assert _hardware("Tested on a GTX 1660 Ti Laptop GPU (6 GB).") == [
        "NVIDIA GeForce GTX 1660 Ti Laptop GPU"
    ]
    assert _hardware("an RTX 4060 Max-Q") == ["NVIDIA GeForce RTX 4060 Max-Q"]
    assert _hardware("my Ryzen AI Max+ 395 mini PC, its Radeon 890M idle") == [
        "AMD Ryzen AI Max+ 395",
        "AMD Radeon 890M",
    ]
    assert _hardware("Intel Arc A770 16GB") == ["Intel Arc A770"]
    # a name right after CJK text (no space), a chip glued to its variant and memory
    assert _hardware("はM3Max64GBで測定") == ["Apple M3 Max"]
    assert _hardware("在RTX 4090上") == ["NVIDIA GeForce RTX 4090"]
    # controls: a desktop CPU beside the GPU is no machine of its own; words that only look alike
    assert _hardware("RTX 4070 Super + Ryzen 7 9700X, 64 GB") == ["NVIDIA GeForce RTX 4070 Super"]
    assert _hardware("Production builds vs Max settings, the Arc of the story") == []
    assert _hardware("no RTX 4090 here") == []


def test_a_command_line_with_environment_settings_before_it_sets_its_conditions(tmp_path):
    from benchbook.audit.draftcommand import command_lines

    (c,) = command_lines(
        [
            (
                1,
                "CUDA_VISIBLE_DEVICES=1 GGML_CUDA_FORCE_MMQ=1 ./build/bin/llama-bench"
                " -m phi-4-Q6_K.gguf -ngl 40",
            )
        ]
    )
    assert c.conditions == {
        "engine": "llama.cpp",
        "model": "phi-4",
        "quant": "Q6_K",
        "offload": {"n_gpu_layers": 40},
    }
    # control: a line that sets a variable and runs no tool is no command line
    assert command_lines([(1, "CUDA_VISIBLE_DEVICES=1 python train.py")]) == []


def test_a_gguf_name_drops_what_follows_the_quant():
    from benchbook.audit.draftcommand import model_and_quant

    # the bits per weight after a quant name its variant: they stay with the quant
    assert model_and_quant("Mistral-Small-24B-Instruct-IQ3_M-3.66bpw.gguf") == (
        "Mistral-Small-24B-Instruct",
        "IQ3_M-3.66bpw",
    )
    assert model_and_quant("models/phi-4-Q5_K_S-imat.gguf") == ("phi-4", "Q5_K_S")
    # a quant type ends where its parts end: "_MTP" after it is the file's variant, not the quant's
    assert model_and_quant("Qwen3.6-27B-Q4_K_M_MTP.gguf") == ("Qwen3.6-27B", "Q4_K_M")
    assert model_and_quant("Llama-3-8B-IQ2_XXS_imatrix.gguf") == ("Llama-3-8B", "IQ2_XXS")
    assert model_and_quant("x-TQ1_0.gguf") == ("x", "TQ1_0")
    assert model_and_quant("Wizard-Vicuna-30B-Uncensored.ggmlv3.q4_0.bin") == (
        "Wizard-Vicuna-30B-Uncensored",
        "q4_0",
    )
    assert model_and_quant("x-Q4_0_4_4.gguf") == ("x", "Q4_0_4_4")
    assert [(m.path, m.value) for m in mentions("per the Q3_2024 report: Q8_0_MTP, IQ4_NL-4.5bpw")] == [
        ("quant", "Q8_0"),
        ("quant", "IQ4_NL-4.5bpw"),
    ]  # control: "Q3_2024" (a quarter) is no quant type
    # controls: a quant first keeps the name after it; no quant keeps the whole stem
    assert model_and_quant("Q6_K-gemma-3-4b-it.gguf") == ("gemma-3-4b-it", "Q6_K")
    assert model_and_quant("gemma-3-4b-it.gguf") == ("gemma-3-4b-it", None)


def test_a_heading_naming_a_llama_cpp_tool_names_the_engine(tmp_path):
    from benchbook.audit.draftnames import heading_engine

    assert heading_engine("3. Latency (llama-cli, 4 threads)") == "llama.cpp"
    # controls: a heading naming its engine itself; no tool; a tool's name inside another word
    assert heading_engine("Ollama vs llama-server") is None
    assert heading_engine("Latency") is None
    assert heading_engine("my-llama-cli-wrapper") is None
    cf = _drafted(
        "# Notes\n\nI tried Ollama first, then llama-server, on an RTX 3060.\n\n"
        "## Decode with llama-bench\n\nGeneration ran at 61.5 t/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    assert _cond(cf, c) == {"engine": "llama.cpp", "hardware": "NVIDIA GeForce RTX 3060", "decoding": "plain"}


def test_a_yes_no_column_about_decoding_states_the_decoding(tmp_path):
    from benchbook.audit.draftnames import decoding_of_cell

    assert decoding_of_cell("✔", "MTP heads") == "draft-self"
    assert decoding_of_cell("Off", "Spec. decoding") == "plain"
    assert decoding_of_cell("baseline", "Mode") == "plain"
    assert decoding_of_cell("EAGLE-3", "Speculative") is None  # a method, not yes or no
    cf = _drafted(
        "| Run | Speculative | Gen t/s |\n|---|---|---|\n| A | No | 20.5 |\n| B | Yes | 31.0 |\n",
        tmp_path,
    )
    got = sorted((c.value, _cond(cf, c).get("decoding")) for c in cf.claims)
    assert got == [(20.5, "plain"), (31.0, "speculative")]
    # control: a column of rates headed "Speculative" stays a column of rates
    cf = _drafted("| Model | Speculative (t/s) |\n|---|---|\n| 8B | 44.1 |\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("decode_tps", 44.1)]


def test_an_engine_comparison_table_with_pp_s_and_tg_s_columns(tmp_path):
    cf = _drafted(
        "# gemma3:12b-it-q4_K_M is slower in Ollama than in llama.cpp\n\n"
        "| Engine | PP/s | TG/s |\n|---|---|---|\n| LC | 812.5 | 41.2 |\n| Ollama | 600.1 | 30.9 |\n",
        tmp_path,
    )
    got = sorted(
        (c.metric, c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("quant")) for c in cf.claims
    )
    assert got == [
        ("decode_tps", 30.9, "Ollama", "Q4_K_M"),
        ("decode_tps", 41.2, "llama.cpp", "Q4_K_M"),
        ("prefill_tps", 600.1, "Ollama", "Q4_K_M"),
        ("prefill_tps", 812.5, "llama.cpp", "Q4_K_M"),
    ]
    assert {_cond(cf, c).get("model") for c in cf.claims} == {"gemma3-12B-it"}


def test_names_glued_to_cjk_text_are_read():
    # CJK letters are word characters to Python's ``\w``: an engine, model, quant or backend written
    # without a space in Chinese or Japanese prose is still a name
    text = "我们使用Ollama的默认设置，用Qwen3-8B跑了Q4_K_M，后端是CUDA。"
    named = {(m.path, m.value) for m in mentions(text)}
    assert named >= {("engine", "Ollama"), ("model", "Qwen3-8B"), ("quant", "Q4_K_M"), ("backend", "CUDA")}
    assert ("engine", "vLLM") in {(m.path, m.value) for m in mentions("vLLMで計測した")}
    assert ("engine", "llama.cpp") in {(m.path, m.value) for m in mentions("llama.cpp로 측정")}
    # control: a name inside a longer ASCII word is none ("myollama", "CUDAGraph")
    assert [m for m in mentions("myollama wrapper with CUDAGraphs") if m.path in ("engine", "backend")] == []


def test_a_data_centre_part_keeps_its_memory_and_form_factor():
    assert _hardware("| GPU | NVIDIA A100 40GB PCIe |") == ["NVIDIA A100 40GB PCIe"]
    assert _hardware("ran on an A100-SXM4-80GB node") == ["NVIDIA A100 80GB SXM4"]
    assert _hardware("all runs on an H100 with 80GB of memory.") == ["NVIDIA H100 80GB"]
    assert _hardware("8x H100 NVL") == ["8x NVIDIA H100 NVL"]
    # controls: a part with one size keeps its name alone; the bare name stays bare
    assert _hardware("a Tesla P40 24GB") == ["NVIDIA Tesla P40"]
    assert _hardware("a single H100.") == ["NVIDIA H100"]
    # a workstation card is named bare too ("on A6000 machine")
    assert _hardware("slow on A6000 machine") == ["NVIDIA RTX A6000"]
    assert _hardware("an RTX A4500") == ["NVIDIA RTX A4500"]  # a workstation card: no GeForce


def test_the_memory_in_a_data_centre_part_name_is_no_claim(tmp_path):
    cf = _drafted("On an A100 80GB the 8B model decodes at 151.2 tok/s.\n", tmp_path)
    assert [(c.value, _cond(cf, c).get("hardware")) for c in cf.claims] == [(151.2, "NVIDIA A100 80GB")]


def test_table_headers_naming_model_quant_engine_in_other_languages(tmp_path):
    cf = _drafted(
        "| 模型 (Model) | 量化 (Quantization) | 引擎 | 速度 (tok/s) |\n|---|---|---|---|\n"
        "| Qwen3-8B | Q4_K_M | vLLM | 88.5 |\n\n"
        "| モデル | 量子化 | 速度 (tok/s) |\n|---|---|---|\n| Llama-3.1-8B | Q8_0 | 61.2 |\n\n"
        "| Модель | Скорость (tok/s) |\n|---|---|\n| Mistral-7B | 40.3 |\n",
        tmp_path,
    )
    got = [
        (c.value, _cond(cf, c).get("model"), _cond(cf, c).get("quant"), _cond(cf, c).get("engine"))
        for c in cf.claims
    ]
    assert got == [
        (88.5, "Qwen3-8B", "Q4_K_M", "vLLM"),
        (61.2, "Llama-3.1-8B", "Q8_0", None),
        (40.3, "Mistral-7B", None, None),
    ]


def test_a_column_of_quant_names_is_the_quant_whatever_its_header(tmp_path):
    cf = _drafted(
        "TinyModel-1B on llama.cpp.\n\n"
        "| 模型 | Throughput (tok/s) |\n|---|---|\n| Q4_K_M | 411 |\n| Q8_0 | 396 |\n\n"
        "| Model (B) | Rate (tok/s) |\n|---|---|\n| Qwen3-4B | 120.5 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("quant"), _cond(cf, c).get("model")) for c in cf.claims]
    # control: a Latin header's remark "(B)" is no label of its own (not the batch's "b")
    assert got == [(411, "Q4_K_M", None), (396, "Q8_0", None), (120.5, None, "Qwen3-4B")]


def test_an_engine_named_by_its_repository(tmp_path):
    def engines(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "engine"]

    assert engines("# Eagle3 for MiniCPM3 (vllm-project/vllm pull request #24243)") == ["vLLM"]
    assert engines("see ggml-org/llama.cpp#1234 and sgl-project/sglang") == ["llama.cpp", "SGLang"]
    # controls: a fork's own name stays the fork's; a word inside another name is none
    assert engines("built ikawrakow/ik_llama.cpp from source") == ["ik_llama.cpp"]
    assert engines("pip install vllm-flash-attn") == []


def test_a_vllm_bench_command_names_engine_and_model(tmp_path):
    cf = _drafted(
        "# Serving\n\n```\nvllm bench serve --model google/gemma-3-27b-it --num-prompts 16\n```\n\n"
        "Mean TTFT was 812.5 ms.\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("model")) for c in cf.claims] == [
        (812.5, "vLLM", "gemma-3-27b-it")
    ]


def test_model_families_beyond_the_big_ones():
    def models(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "model"]

    assert models("本文基于 TinyLlama-1.1B-Chat-v1.0 模型") == ["TinyLlama-1.1B-Chat-v1.0"]
    assert models("--model-dir NousResearch/Meta-Llama-3.1-8B-Instruct") == ["Meta-Llama-3.1-8B-Instruct"]
    assert models("ERNIE-4.5-21B-A3B and MiniCPM4-8B") == ["ERNIE-4.5-21B-A3B", "MiniCPM4-8B"]
    # control: a family word without a size is no model name here ("the MiniCPM team")
    assert models("the MiniCPM team and TinyLlama authors") == []


def test_a_hardware_cell_without_its_memory_flags_or_vendor():
    assert hardware_of("RTX 5090 32GB") == "NVIDIA GeForce RTX 5090"
    assert hardware_of("RTX 3060 12GB") == "NVIDIA GeForce RTX 3060 12GB"  # sold as 8 GB and 12 GB
    assert hardware_of("3x P40s `-sm row`") == "3x NVIDIA Tesla P40"
    assert hardware_of("4090") == "NVIDIA GeForce RTX 4090"
    assert hardware_of("L40S") == "NVIDIA L40S"  # a part, not a plural
    assert hardware_of("RTX 3090 / RTX 4090") is None
    assert hardware_of("4096") is None


def test_engines_fewer_posts_run_and_a_projects_tool_that_is_no_engine():
    assert [m.value for m in mentions("MLC LLM beat mistral.rs and Rapid-MLX")] == [
        "MLC LLM",
        "mistral.rs",
        "Rapid-MLX",
    ]
    assert [
        m.value for m in mentions("served by llama.cpp, measured with vLLM's `benchmark_serving.py`")
    ] == ["llama.cpp"]
    assert [m.value for m in mentions("vLLM's throughput was higher")] == ["vLLM"]


def test_an_apple_chip_written_with_a_hyphen():
    assert [m.value for m in mentions("on my M3-Max 64GB") if m.path == "hardware"] == ["Apple M3 Max"]
    assert [m.value for m in mentions("an M3-based Mac") if m.path == "hardware"] == []


def test_a_data_centre_parts_memory_written_short_and_its_form_in_parentheses():
    hardware = [m.value for t in ("1 * A100 40G, the speed", "per A100 80 GB (SXM4).") for m in mentions(t)]
    assert hardware == ["NVIDIA A100 40GB", "NVIDIA A100 80GB SXM4"]
    assert [m.value for m in mentions("the P40 has 24GB")] == ["NVIDIA Tesla P40"]  # its only size


def test_a_count_of_devices_in_words_and_a_plural_card():
    assert [m.value for m in mentions("a server with three P40s and one 3090.")] == ["3x NVIDIA Tesla P40"]
    assert [m.value for m in mentions("on two 3090s")] == ["2x NVIDIA GeForce RTX 3090"]
    assert [m.value for m in mentions("the two of us on a 4090")] == ["NVIDIA GeForce RTX 4090"]


def test_engines_fewer_posts_run_are_named_as_their_projects_spell_them():
    """tinygrad and llamafile are engines (``draftnames._ENGINES``), named as their projects spell
    them.  Control: a word containing one ("tinygradient") names none."""
    from benchbook.audit.draftnames import mentions

    def engines(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "engine"]

    assert engines("Llama 7B with TinyGrad on a 3090") == ["tinygrad"]
    assert engines("served by llamafile 0.8") == ["llamafile"]
    assert engines("a tinygradient run") == []


def test_a_deepseek_abbreviation_names_the_model():
    """The abbreviations "DSV3", "DS-V2.5", "DSR1" are DeepSeek-V3, DeepSeek-V2.5 and DeepSeek-R1
    as their users write them (``draftnames._MODEL_ABBREVIATION``).  Controls: a longer word
    ("DSV3X"), a name without the series letter ("DS3") name no model."""
    from benchbook.audit.draftnames import mentions

    def models(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "model"]

    assert models("DSV3 on two Mac Studios") == ["DeepSeek-V3"]
    assert models("running DS-V2.5 and DSR1") == ["DeepSeek-V2.5", "DeepSeek-R1"]
    assert models("the DSV3X board") == []
    assert models("a DS3 drive") == []


def test_a_latency_percentile_is_no_data_centre_gpu():
    """ "P99"/"p95"/"P50" are latency percentiles, not Tesla parts: a letter and two digits named a GPU
    ("NVIDIA Tesla P99" on a new user's post); data-centre parts are read by their model numbers."""
    assert _hardware("The p99 TTFT was 88 ms and P95 was 70 ms; P50 latency 12 ms.") == []
    assert _hardware("P99 TTFT 310 ms on an RTX 4090") == ["NVIDIA GeForce RTX 4090"]
    # controls: the parts themselves, plural and with their memory
    assert _hardware("a Tesla P40 and a P100") == ["NVIDIA Tesla P40", "NVIDIA Tesla P100"]
    assert _hardware("two H100s and an A100 80GB") == ["2x NVIDIA H100", "NVIDIA A100 80GB"]
    assert _hardware("L40S, L4, T4, H20, A800, B200") == [
        "NVIDIA L40S",
        "NVIDIA L4",
        "NVIDIA T4",
        "NVIDIA H20",
        "NVIDIA A800",
        "NVIDIA B200",
    ]

"""The conditions of captured claims (`benchbook claims draft`, issue 29): the engine a transposed table's
value column names beside its quant ("| Ollama Q6_K | vLLM NVFP4 |", p160), a llama.cpp fork named by
the folder its binary runs from ("./ik_llama.cpp-b4267/llama-sweep-bench", p140), and the run a change
starts from ("from 40 tok/s", "63.3 → 96.1 tok/s") drafting nothing where the sentence names the
drafting (p154, p158)."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines, folder_build, model_and_quant
from benchbook.audit.draftnames import MTP_IN_NAME, cell_names, from_side, mentions, sized_model
from benchbook.audit.draftwords import script_settings, settings_in_words
from drafting import conditions, drafted


def _by_value(cf):
    return {str(c.value if c.value is not None else c.range): conditions(cf, c) for c in cf.claims}


def test_a_column_header_naming_an_engine_and_a_quant_gives_both(tmp_path):
    text = (
        "# vLLM vs Ollama\n\n## Single-User Performance\n\n"
        "| Metric | Ollama Q6_K | vLLM NVFP4 |\n|---|---|---|\n"
        "| Token generation speed | 161 tok/s | 68 tok/s |\n"
        "| Time to first token (TTFT) | 132 ms | 18 ms |\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["161.0"]["engine"] == "Ollama" and got["161.0"]["quant"] == "Q6_K"
    assert got["68.0"]["engine"] == "vLLM" and got["68.0"]["quant"] == "NVFP4"
    assert got["18.0"]["engine"] == "vLLM" and got["132.0"]["engine"] == "Ollama"


def test_cell_names_reads_one_engine_and_none_of_two():
    assert cell_names("vLLM NVFP4") == {"quant": "NVFP4", "engine": "vLLM"}
    assert cell_names("Ollama Q6_K") == {"quant": "Q6_K", "engine": "Ollama"}
    assert "engine" not in cell_names("vLLM vs Ollama")  # two: the rows say


def test_a_fork_named_by_its_folder_is_the_engine():
    assert folder_build("./ik_llama.cpp-b4267/") == {"build": "b4267", "engine": "ik_llama.cpp"}
    assert folder_build("~/ik_llama/build/bin/") == {"engine": "ik_llama.cpp"}
    assert folder_build("llama-b6318-bin-win-cuda-12.4-x64/") == {"build": "b6318", "backend": "CUDA"}
    line = "./ik_llama.cpp-b4267/llama-sweep-bench -fa on -ngl 999 -m gpt-oss-20b-F16.gguf"
    (cmd,) = command_lines([(1, line)])
    assert cmd.conditions["engine"] == "ik_llama.cpp" and cmd.conditions["build"] == "b4267"
    (cmd,) = command_lines([(1, "./build/bin/llama-sweep-bench -fa on -ngl 999")])
    assert cmd.conditions["engine"] == "llama.cpp"  # control: no fork named


def test_from_side_reads_a_change_written_as_a_path():
    text = "RTX 3090 31B QAT+MTP hits 70-80 tok/s (from 40 tok/s) and 75 → 100 tok/s"
    assert from_side(text, text.index("40 tok"))
    assert from_side(text, text.index("75 →"))
    assert not from_side(text, text.index("100 tok")) and not from_side(text, text.index("70-80"))
    assert from_side("63.3 → 96.1 tok/s", 0) and from_side("31.9 tok/s -> 52.8 tok/s", 0)


def test_the_run_a_drafting_change_starts_from_is_plain(tmp_path):
    text = (
        "# Field notes\n\n"
        "- **RTX 3090 31B QAT+MTP hits 70-80 tok/s** (from 40 tok/s) — 1.7-2x improvement\n"
        "- **Dual RTX 3060 Ti (16 GB VRAM) MTP ceiling** — 75 → 100 tok/s (33% cap), bandwidth-limited\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["40.0"]["decoding"] == "plain" and got["(70.0, 80.0)"]["decoding"] == "draft-self"
    assert got["75.0"]["decoding"] == "plain" and got["100.0"].get("decoding") != "plain"
    assert got["75.0"]["hardware"] == "2x NVIDIA GeForce RTX 3060 Ti"


def test_the_start_of_a_change_drops_the_draft_size(tmp_path):
    text = "# Add RTX PRO 6000 Blackwell 96GB row (vLLM engine): 63.3 → 96.1 tok/s, n-max 2\n\nSome notes.\n"
    got = _by_value(drafted(text, tmp_path))
    assert got["63.3"]["decoding"] == "plain" and "block_max" not in got["63.3"]
    assert got["96.1"]["block_max"] == 2


def test_a_change_between_two_drafting_kinds_keeps_both(tmp_path):
    # control: the start side names its own drafting; a post naming no drafting is untouched
    text = "# Notes\n\nDecode went from 30 tok/s with n-gram drafting to 45 tok/s with EAGLE.\n"
    got = _by_value(drafted(text, tmp_path))
    assert got["30.0"].get("decoding") != "plain"
    text = "# Notes\n\nThe new build went from 30 tok/s to 45 tok/s.\n"
    got = _by_value(drafted(text, tmp_path))
    assert got["30.0"]["decoding"] == "plain" and got["45.0"]["decoding"] == "plain"


def test_a_model_column_and_a_size_column_name_one_model(tmp_path):
    text = (
        "# exllama v2\n\n"
        "Model | Mode | Size | grpsz | act | V1: 3090Ti | V1: 4090\n-- | -- | -- | -- | -- | -- | --\n"
        "Llama | GPTQ | 7B | 128 | no | 143 t/s | 173 t/s\n"
        "OpenLlama | GPTQ | 3B | 128 | yes | 194 t/s | 226 t/s\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["143.0"]["model"] == "Llama-7B" and got["226.0"]["model"] == "OpenLlama-3B"
    assert got["173.0"]["hardware"] == "NVIDIA GeForce RTX 4090"
    assert "size" not in got["143.0"].get("other", {})


def test_sized_model_keeps_a_sized_name_and_a_file_size():
    cond = {"model": "Qwen3-8B", "other": {"size": "7B"}}
    sized_model(cond)
    assert cond == {"model": "Qwen3-8B", "other": {"size": "7B"}}
    cond = {"model": "Llama", "other": {"size": "4.1 GB"}}
    sized_model(cond)
    assert cond == {"model": "Llama", "other": {"size": "4.1 GB"}}
    cond = {"model": "Llama", "other": {"size": "0.5b", "act": "no"}}
    sized_model(cond)
    assert cond == {"model": "Llama-0.5B", "other": {"act": "no"}}


_SCRIPT = (
    "# 开源模型性能基准测试\n\n测试环境配置\n\n- GPU: NVIDIA RTX 4090 (24GB)\n\n"
    "```python\n"
    'prompt = "请用一句话介绍人工智能。"\n'
    'inputs = tokenizer(prompt, return_tensors="pt")\n'
    "for model_name in models:\n"
    "    model = AutoModelForCausalLM.from_pretrained(model_name, torch_dtype=torch.float16)\n"
    "    outputs = model.generate(**inputs, max_new_tokens=50)\n"
    "```\n\n"
    "测试结果对比\n\n"
    "| 模型名称 | 推理时间(s) |\n|---|---|\n| Llama2-7B | 8.2 |\n| Qwen-7B | 6.8 |\n"
)


def test_a_transformers_script_names_the_engine_dtype_and_prompt(tmp_path):
    got = _by_value(drafted(_SCRIPT, tmp_path))
    for v, model in (("8.2", "Llama2-7B"), ("6.8", "Qwen-7B")):
        assert got[v]["engine"] == "transformers" and got[v]["quant"] == "FP16"
        assert got[v]["prompt"] == "请用一句话介绍人工智能。" and got[v]["model"] == model
        assert got[v]["cap"] == 50


def test_script_settings_only_for_a_transformers_script():
    out: list = []
    script_settings("from transformers import AutoTokenizer\nx = 1\n", out)
    assert out == [("engine", "transformers")]
    out = []
    script = "from vllm import LLM\nfrom transformers import AutoTokenizer\nllm = LLM(dtype='half')\n"
    script_settings(script, out)
    assert out == []  # vLLM runs the model; transformers only tokenizes
    out = []
    script_settings("m = AutoModelForCausalLM.from_pretrained(p, torch_dtype=torch.bfloat16)\n", out)
    assert out == [("engine", "transformers"), ("quant", "BF16")]


def test_an_engine_after_compared_to_is_the_other_sides(tmp_path):
    text = (
        "# Ollama vs. vLLM\n\nvLLM delivers significantly higher throughput (achieving a peak of 793 TPS "
        "compared to Ollama's 41 TPS) on the A100.\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["793.0"]["engine"] == "vLLM" and got["41.0"]["engine"] == "Ollama"


def test_a_draft_models_name_is_not_the_target_and_cjk_decoding_words(tmp_path):
    text = (
        "# KoboldCpp项目中的推测解码技术实现分析\n\n## 性能表现\n\n"
        "实际测试表明,在Mistral-Large-2(123B)主模型配合Mistral-7B草稿模型的配置下:\n\n"
        "- 单模型推理速度:约0.3-0.4 tokens/秒\n- 启用推测解码后:提升至0.85-1.0 tokens/秒\n"
    )
    got = _by_value(drafted(text, tmp_path))
    plain, spec = got["(0.3, 0.4)"], got["(0.85, 1.0)"]
    assert plain.get("model") != "Mistral-7B" and spec.get("model") != "Mistral-7B"
    assert plain["decoding"] == "plain" and spec["decoding"] == "speculative"
    assert plain["engine"] == "KoboldCpp"


def test_draft_marks_after_a_model_name():
    def models(text):
        return [m.value for m in mentions(text) if m.path == "model"]

    assert models("Qwen3-32B with Qwen3-0.6B Q8 draft") == ["Qwen3-32B"]
    assert models("Qwen3-32B with Qwen3-0.6B as the draft model") == ["Qwen3-32B"]
    assert models("Qwen3-32B配合Qwen3-0.6B草稿模型") == ["Qwen3-32B"]
    assert models("Qwen3-0.6B draft-simple") == ["Qwen3-0.6B"]  # a spec type's name, no draft mark


def test_a_row_interleaved_quant_keeps_its_suffix():
    assert [(m.path, m.value) for m in mentions("IQ1_S_R4 and Q8_K_R8, then IQ1_S")] == [
        ("quant", "IQ1_S_R4"),
        ("quant", "Q8_K_R8"),
        ("quant", "IQ1_S"),
    ]
    assert model_and_quant("Llama-3.1-8B-IQ1_S_R4.gguf") == ("Llama-3.1-8B", "IQ1_S_R4")
    assert model_and_quant("Qwen3-8B-Q4_K_M_MTP.gguf")[1] == "Q4_K_M"  # control


def test_a_sentence_labelled_by_a_models_size_is_that_models(tmp_path):
    text = (
        "# feat: add MTP speculative decoding support\n\n(mybigday/llama.node, pull request #136)\n\n"
        "## Model Checks\n\n"
        "- `Qwen3.6-27B-MTP-Q8_0.gguf`: MTP output matched non-MTP greedy output.\n"
        "- `Qwen3.6-35B-A3B-MTP-Q8_0.gguf`: MTP output matched non-MTP greedy output.\n"
        "- Pure 27B comparison: pure Q8_0 ran at 9.622 tok/s; MTP model with spec disabled ran at 9.813 "
        "tok/s; MTP enabled ran at 15.739 tok/s, about 1.64x faster than pure Q8_0.\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert {got[v]["model"] for v in ("9.622", "9.813", "15.739")} == {"Qwen3.6-27B"}
    assert got["9.813"]["decoding"] == "plain" and got["15.739"]["decoding"] == "draft-self"
    assert got["15.739"]["engine"] == "llama.node"


def test_size_labels_and_disabled_drafting():
    def said(text, path):
        return [m.value for m in mentions(text) if m.path == path]

    assert said("- 7B: 191 tok/s", "model") == ["7B"]
    assert said("Pure 27B comparison: 9.6 tok/s", "model") == ["27B"]
    assert said("We ran 27B models for 3 days: fine", "model") == []  # no label
    assert said("MTP model with spec disabled", "decoding") == ["draft-self", "plain"]
    assert said("drafting turned off", "decoding") == ["plain"]


def test_engines_fewer_posts_run():
    def engines(text):
        return [m.value for m in mentions(text) if m.path == "engine"]

    assert engines("llama-cpp-python 0.2.20 with CTranslate2 and PocketLLM") == [
        "llama-cpp-python",
        "CTranslate2",
        "PocketLLM",
    ]
    assert engines("ds4 `6289c51`, timed with ds4-bench") == ["ds4"]  # the tool is no engine mention
    assert engines("served by llama.cpp") == ["llama.cpp"]  # control


def test_a_chip_and_a_phone_by_their_names(tmp_path):
    def machines(text):
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("实测解码速度达16token/s(M2芯片)") == ["Apple M2"]
    assert machines("the M2 chip, then a Pixel 8 Pro") == ["Apple M2", "Google Pixel 8 Pro"]
    assert machines("an M2 SSD slot") == []  # no chip word: an M.2 drive
    text = (
        "# vLLM与llama.cpp对比\n\n## 硬件环境\n\nvLLM在A100/H100等专业显卡上能充分发挥硬件潜能。\n\n"
        "## 边缘计算\n\nllama.cpp 在移动端实测解码速度达16token/s(M2芯片)。\n\n"
        "## 部署\n\n而llama.cpp 实测在Pixel5手机端仍能保持1token/s的推理速度。\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["16.0"]["hardware"] == "Apple M2" and got["1.0"]["hardware"] == "Google Pixel 5"


def test_mtp_speculative_decoding_is_one_kind_and_its_change_starts_plain(tmp_path):
    text = (
        "# Add native Qwen MTP speculative decoding\n\n## Performance\n\n"
        "4x RTX 2080 Ti 22 GiB, TP4, real Qwen3.8-27B-FP8 checkpoint:\n\n"
        "- 512-token, 100% acceptance: 37.19 -> 79.39 tok/s (**2.135x**)\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["37.19"]["decoding"] == "plain" and got["79.39"]["decoding"] == "draft-self"
    assert [m.value for m in mentions("MTP speculative decoding") if m.path == "decoding"] == ["draft-self"]


def test_a_change_in_a_post_about_drafting_starts_from_the_plain_run(tmp_path):
    text = (
        "# Speculative Decoding Reduces tok/sec Speed on M1 Pro Mac\n\n"
        "- Llama 3.1 8B Q4 MLX (main) + Llama 3.2 1B Q4 MLX (draft): went from 38 t/s (without draft) to "
        "33.93 (with draft)!\n"
        "- Same thing except I used Llama 3.2 3B Q4 MLX: went from 38.7 t/s to 29.29 t/s\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["38.7"]["decoding"] == "plain" and got["29.29"]["decoding"] == "speculative"
    # a change of a setting the sentence names is not drafting's: both sides drafted
    text = (
        "# Speculative decoding on a W7900\n\n"
        "I tested it with my 3090 and `-ngld 99` took it from 45 t/s to 103.9 t/s with the draft model.\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["45.0"].get("decoding") != "plain"


def test_a_model_by_its_size_and_a_named_quant(tmp_path):
    def said(text):
        return [(m.path, m.value) for m in mentions(text) if m.path in ("model", "quant")]

    assert said("benchmark on a 13B GPTQ (128g)") == [("model", "13B"), ("quant", "GPTQ")]
    assert said("Llama 2 13B GPTQ") == [("model", "Llama 2 13B"), ("quant", "GPTQ")]
    assert said("Slow targets (72B Q8_0 @ 6 tok/s)") == [("quant", "Q8_0")]  # a run's label, as before
    text = (
        "# Fix compiling and running on ROCm HIP (exllamav2 pull request)\n\n"
        "Here are some benchmark on a 13B GPTQ (128g) with a 6700 XT:\n\n"
        " -- Measuring token speed...\n ** Position     1 + 127 tokens:   35.9594 t/s\n"
    )
    got = _by_value(drafted(text, tmp_path))
    assert got["35.9594"]["model"] == "13B" and got["35.9594"]["quant"] == "GPTQ"


def test_mtp_in_a_script_name_is_the_posts_drafting_kind(tmp_path):
    text = (
        "# Add RTX 5090 32GB row (UD-Q4_K_XL, 131K, n-max 4)\n\n"
        "- Stock serve_mtp.sh config; the spec arm changed only --spec-draft-n-max, 2 to 4\n"
        "- Acceptance aggregate 0.69 (1860/2696 from server logs)\n"
    )
    cf = drafted(text, tmp_path)
    acc = [c for c in cf.claims if c.metric == "acceptance_rate"]
    assert acc and all(conditions(cf, c)["decoding"] == "draft-self" for c in acc)
    assert MTP_IN_NAME.search("Qwen3.6-27B-Q4_K_M_MTP.gguf") and not MTP_IN_NAME.search("MTP on")


def test_a_machine_only_likened_to_is_not_the_runs(tmp_path):
    def machines(text):
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("36.9 TFLOPS, which is comparable to MI300X efficiency numbers") == []
    assert machines("on my RTX 3090, similar to the 4090") == ["NVIDIA GeForce RTX 3090"]
    assert machines("2x faster than a 4090") == ["NVIDIA GeForce RTX 4090"]  # a side's, kept


def test_a_batch_of_one_in_words_is_one_request_at_a_time():
    def concurrency(text):
        found: list = []
        settings_in_words(text, found)
        return [v for p, v in found if p == "concurrency"]

    assert concurrency("we achieved 77 token/s output throughput on batch size 1.") == [1]
    assert concurrency("When batch-size=1 and num-spec-tokens=32, fr-spec is faster") == [1]
    assert concurrency("~5% e2e decode speedup on qwen3.5-9b-4bit (chain MTP, B=1)") == [1]
    assert concurrency("batch size 16 and batch size 1.5") == []  # not one

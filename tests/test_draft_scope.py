"""The setup a post declares (``draftcontext``, issue 29): a "Hardware:" or "All tests on:" line, a
"Setup" section, a key/value configuration table, a run's printed build and an issue form's "Name
and Version" outweigh what the post mentions in passing (a build a feature was merged at, a card
named as an example), wherever the declaration stands; and the controls where a section's own
heading or two declared values still decide."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def _of(cf, path: str) -> list[tuple[float | None, object]]:
    return [(c.value, _cond(cf, c).get(path)) for c in cf.claims]


def test_an_all_tests_on_line_outweighs_a_build_named_in_passing(tmp_path):
    cf = _drafted(
        "# Trying the new cache\n\n"
        "The cache landed upstream in llama.cpp at b7001, a week ago.\n\n"
        "Decode ran at 61 t/s with the cache on.\n\n"
        "All tests on: RTX 4080, llama.cpp b7020.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(61, "b7020")]
    assert _of(cf, "hardware") == [(61, "NVIDIA GeForce RTX 4080")]


def test_a_build_named_in_passing_with_no_declaration_stays(tmp_path):
    cf = _drafted(
        "# Trying the new cache\n\n"
        "The cache landed upstream in llama.cpp at b7001, a week ago.\n\n"
        "Decode ran at 61 t/s with the cache on.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(61, "b7001")]


def test_a_hardware_line_outweighs_a_card_a_section_names_as_an_example(tmp_path):
    cf = _drafted(
        "# Notes\n\n"
        "Hardware: RTX 3060 12GB.\n\n"
        "## Offload\n\n"
        "Cards with more memory (an RTX 4090 say) can keep every layer on the GPU.\n\n"
        "Here the experts stay on the CPU.\n\n"
        "| Model | t/s |\n|---|---|\n| Qwen3-8B | 44.1 |\n",
        tmp_path,
    )
    assert _of(cf, "hardware") == [(44.1, "NVIDIA GeForce RTX 3060")]


def test_a_section_heading_naming_its_machine_keeps_it_under_a_declared_one(tmp_path):
    cf = _drafted(
        "# Notes\n\n"
        "Hardware: RTX 3060 12GB.\n\n"
        "## On a borrowed RTX 4090\n\n"
        "| Model | t/s |\n|---|---|\n| Qwen3-8B | 97.3 |\n",
        tmp_path,
    )
    assert _of(cf, "hardware") == [(97.3, "NVIDIA GeForce RTX 4090")]


def test_a_key_value_setup_table_declares_machine_flags_and_features(tmp_path):
    cf = _drafted(
        "# llama.cpp on an H100\n\n"
        "## Test environment\n\n"
        "| Item | Value |\n|---|---|\n"
        "| GPU | NVIDIA H100 80GB SXM5 |\n"
        "| Engine | llama.cpp (FlashAttention, CUDA graphs) |\n"
        "| Flags | -ngl 99 -t 4 |\n\n"
        "## Results\n\n"
        "Decode: 212.5 t/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    got = _cond(cf, c)
    assert (got["hardware"], got["flash_attn"], got["offload"]) == (
        "NVIDIA H100 80GB SXM5",
        True,
        {"n_gpu_layers": 99},
    )


def test_a_two_column_table_of_results_declares_nothing(tmp_path):
    cf = _drafted(
        "# Two cards\n\n| GPU | t/s |\n|---|---|\n| RTX 3090 | 50.5 |\n| RTX 4090 | 80.5 |\n",
        tmp_path,
    )
    assert _of(cf, "hardware") == [(50.5, "NVIDIA GeForce RTX 3090"), (80.5, "NVIDIA GeForce RTX 4090")]


def test_no_flash_attention_in_a_setup_line_is_off(tmp_path):
    cf = _drafted("# Run\n\nSetup: llama.cpp, no FlashAttention.\n\nDecode ran at 33.3 t/s.\n", tmp_path)
    assert _of(cf, "flash_attn") == [(33.3, False)]


def test_a_printed_build_line_is_the_build(tmp_path):
    cf = _drafted(
        "# Bench\n\n```\n| model | test | t/s |\n| --- | --- | --- |\n"
        "| llama 8B Q4_0 | tg128 | 101.25 ± 0.3 |\n\nbuild: 4321 (a1b2c3d4)\n```\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(101.25, "4321 (a1b2c3d4)")]
    cf = _drafted(
        "# Bench\n\nOn mainline llama.cpp (build: `4321 (a1b2c3d4)`) decode ran at 30.5 t/s.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(30.5, "4321 (a1b2c3d4)")]


def test_an_issue_forms_name_and_version_is_the_build_not_a_command(tmp_path):
    cf = _drafted(
        "# Slower server\n\n### What happened?\n\nDecode is only 19 t/s now.\n\n"
        "### Name and Version\n\nmain -head\n\n### Operating systems\n\nLinux\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("build"), _cond(cf, c).get("engine")) for c in cf.claims] == [
        (19, "main -head", None)
    ]


def test_a_post_running_sweep_bench_and_naming_no_engine_ran_ik_llama_cpp(tmp_path):
    text = "# Server slower than bench\n\nThe server gives 21 t/s but sweep-bench gives 28 t/s.\n"
    assert _of(_drafted(text, tmp_path), "engine") == [(21, "ik_llama.cpp"), (28, "ik_llama.cpp")]
    text = (
        "# Server slower than bench\n\nOn llama.cpp the server gives 21 t/s but sweep-bench gives 28 t/s.\n"
    )
    assert _of(_drafted(text, tmp_path), "engine") == [(21, "llama.cpp"), (28, "llama.cpp")]


def test_a_label_cell_naming_a_kv_cache_pair_states_both_types(tmp_path):
    cf = _drafted(
        "# KV cache types\n\n```\n" + "-" * 42 + "\n"
        "                     f16+f16    q8_0+q4_0\n" + "-" * 42 + "\n"
        "Prompt (t/s)           512.5        498.0\n"
        "Generation (t/s)       101.5        99.25\n```\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("type_k"), _cond(cf, c).get("type_v")) for c in cf.claims]
    assert got == [
        (512.5, "f16", "f16"),
        (498.0, "q8_0", "q4_0"),
        (101.5, "f16", "f16"),
        (99.25, "q8_0", "q4_0"),
    ]
    cf = _drafted("# Runs\n\n| Run | t/s |\n|---|---|\n| f16 | 101.5 |\n| c4 | 99.25 |\n", tmp_path)
    got = [(c.value, _cond(cf, c).get("type_k"), _cond(cf, c).get("concurrency")) for c in cf.claims]
    assert got == [(101.5, None, None), (99.25, None, 4)]


def test_a_long_paragraph_before_a_table_is_no_caption(tmp_path):
    long = (
        "Cards without tensor cores (an RTX 2060 for one) take the slow path, which the flag avoids "
        "by forcing the quantized kernel everywhere; newer cards lose a little from it, so the image "
        "keeps it off for them."
    )
    table = "| Model | t/s |\n|---|---|\n| Qwen3-4B | 38.5 |\n"
    cf = _drafted(f"# Flag\n\nHardware: RTX 3060.\n\n## One\n\n{long}\n\n{table}", tmp_path)
    assert _of(cf, "hardware") == [(38.5, "NVIDIA GeForce RTX 3060")]
    cf = _drafted(f"# Flag\n\nHardware: RTX 3060.\n\n## One\n\nOn the RTX 2060:\n\n{table}", tmp_path)
    assert _of(cf, "hardware") == [(38.5, "NVIDIA GeForce RTX 2060")]


def test_a_post_naming_a_cpu_and_no_gpu_ran_on_that_cpu(tmp_path):
    cf = _drafted("# Faster CPU decode\n\nOn a Ryzen-5950X CPU the model ran at 12.5 t/s.\n", tmp_path)
    got = [(c.value, _cond(cf, c).get("hardware"), _cond(cf, c).get("backend")) for c in cf.claims]
    assert got == [(12.5, "AMD Ryzen 9 5950X", "CPU")]
    cf = _drafted("# Decode\n\nWith a Ryzen 7 7700X and an RTX 4070 it ran at 55.5 t/s.\n", tmp_path)
    got = [(c.value, _cond(cf, c).get("hardware"), _cond(cf, c).get("backend")) for c in cf.claims]
    assert got == [(55.5, "NVIDIA GeForce RTX 4070", None)]


def test_this_pr_is_the_build_the_post_ran(tmp_path):
    cf = _drafted(
        "# Faster loads (some/repo pull request #812)\n\nI tried this PR on my RTX 3090: 75.5 t/s.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(75.5, "PR #812")]
    cf = _drafted(
        "# Faster loads\n\nThe flag came in PR #700 last month.\n\nMy RTX 3090 ran at 75.5 t/s.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(75.5, None)]


def test_a_lead_in_ending_in_a_colon_names_the_output_below_it(tmp_path):
    text = (
        "# 95 t/s on ik_llama.cpp\n\n"
        "For comparison, the regular llama.cpp run with the smaller quant:\n\n"
        "```\nsummary tok/s=81.5\n```\n"
    )
    assert _of(_drafted(text, tmp_path), "engine") == [(95, "ik_llama.cpp"), (81.5, "llama.cpp")]
    text = (
        "# 95 t/s on ik_llama.cpp\n\nThe regular llama.cpp run was slower.\n\n```\nsummary tok/s=81.5\n```\n"
    )
    assert _of(_drafted(text, tmp_path), "engine") == [(95, "ik_llama.cpp"), (81.5, "ik_llama.cpp")]


def test_a_llama_cpp_build_number_with_no_engine_named_is_llama_cpp(tmp_path):
    text = "# XTX row\n\nWinGet build 8123 (0a1b2c3d4), Vulkan backend: 61.5 tok/s.\n"
    assert _of(_drafted(text, tmp_path), "engine") == [(61.5, "llama.cpp")]
    text = "# Serve\n\nvLLM 0.8.1 on one H100: 61.5 tok/s.\n"
    assert _of(_drafted(text, tmp_path), "engine") == [(61.5, "vLLM")]


def test_an_engine_with_its_version_in_parentheses_is_its_build(tmp_path):
    cf = _drafted(
        "# Two tools\n\nI tried LMstudio and Ollama.\n\n"
        "- Ollama(Ver. 0.11.4) → 2.5 tokens / sec\n- LMstudio (v0.3.23) → 20.5 tokens / sec\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("build")) for c in cf.claims]
    assert got == [(2.5, "Ollama", "0.11.4"), (20.5, "LM Studio", "v0.3.23")]


def test_a_line_of_a_block_naming_its_engine_keeps_it_for_its_claim(tmp_path):
    # one block of two lines (an HTML list is read so), each naming its engine before its number
    text = (
        "# Two tools\n\nI tried Ollama and LM Studio.\n\n"
        "Ollama: about 2.5 tok/s\nLM Studio: about 20.5 tok/s\n"
    )
    got = [(c.value, _cond(cf, c).get("engine")) for cf in [_drafted(text, tmp_path)] for c in cf.claims]
    assert got == [(2.5, "Ollama"), (20.5, "LM Studio")]
    # control: a sentence comparing against another engine keeps the post's
    text = "# llama.cpp b4000\n\nDecode ran at 45.5 t/s, 2x faster than on Ollama.\n"
    assert _of(_drafted(text, tmp_path), "engine")[0] == (45.5, "llama.cpp")


def test_a_log_or_launch_script_states_the_context_size(tmp_path):
    cf = _drafted(
        "# Server\n\n```\nslot update_slots: id  0 | new prompt, n_ctx_slot = 8192, n_keep = 0\n```\n\n"
        "Decode ran at 33.5 t/s.\n",
        tmp_path,
    )
    assert _of(cf, "ctx") == [(33.5, 8192)]
    cf = _drafted(
        "# Long\n\n```bash\nMAX_LEN=120000 bash serve.sh\n```\n\nDecode ran at 33.5 t/s.\n", tmp_path
    )
    assert _of(cf, "ctx") == [(33.5, 120000)]
    cf = _drafted(
        "# Long\n\n```bash\nMAX_TOKENS=512 bash serve.sh\n```\n\nDecode ran at 33.5 t/s.\n", tmp_path
    )
    assert _of(cf, "ctx") == [(33.5, None)]


def test_target_kv_num_gpu_and_fa_abbreviated_are_settings(tmp_path):
    cf = _drafted("# Fix\n\nMTP cap 6, q8 target KV, f16 draft KV.\n\n- Wiki prompt: 18.5 tok/s\n", tmp_path)
    assert [(c.value, _cond(cf, c).get("type_k"), _cond(cf, c).get("type_v")) for c in cf.claims] == [
        (18.5, "q8", "q8")
    ]
    cf = _drafted(
        "# Offload\n\nnum_gpu 0:\neval rate 14.5 tok/s\n\nnum_gpu 99:\neval rate 36.5 tok/s\n", tmp_path
    )
    assert _of(cf, "offload") == [(14.5, {"n_gpu_layers": 0}), (36.5, {"n_gpu_layers": 99})]
    cf = _drafted("# Run\n\nDecode ran at 33.5 t/s w/o FA and 35.5 t/s with FA.\n", tmp_path)
    assert _of(cf, "flash_attn") == [(33.5, False), (35.5, True)]
    cf = _drafted("# Run\n\nThe FA team said decode ran at 33.5 t/s.\n", tmp_path)
    assert _of(cf, "flash_attn") == [(33.5, None)]


def test_a_setup_line_about_a_device_left_out_declares_nothing(tmp_path):
    text = (
        "# Rerun\n\nAll six RTX 3090 pairs pass.\n\nDecode ran at 71.5 tok/s.\n\n"
        "## Hardware and software\n\n- Compute GPUs: 4× RTX 3090\n"
        "- Display GPU: RTX 4060, excluded from compute\n"
    )
    assert _of(_drafted(text, tmp_path), "hardware") == [(71.5, "4x NVIDIA GeForce RTX 3090")]
    text = "# Rerun\n\nDecode ran at 71.5 tok/s.\n\n## Hardware\n\n- GPU: 4× RTX 3090\n- GPU: RTX 4060\n"
    assert _of(_drafted(text, tmp_path), "hardware") == [(71.5, None)]


_RUNS = (
    "Baseline:\n\n```\nllama-server -m Qwen3-8B-Q4_K_M.gguf\n```\n\nIt ran at 40.5 t/s.\n\n"
    "With a draft:\n\n```\nllama-server -m Qwen3-8B-Q4_K_M.gguf -md Qwen3-0.6B-Q8_0.gguf\n```\n\n"
    "It ran at 61.5 t/s.\n"
)


def test_common_flags_hold_for_every_run_below(tmp_path):
    cf = _drafted(
        f"# Spec test\n\nCommon flags:\n\n```\nllama-server -fa on -c 32768\n```\n\n{_RUNS}", tmp_path
    )
    assert [(c.value, _cond(cf, c).get("ctx"), _cond(cf, c).get("flash_attn")) for c in cf.claims] == [
        (40.5, 32768, True),
        (61.5, 32768, True),
    ]
    cf = _drafted(f"# Spec test\n\nOne try:\n\n```\nllama-server -fa on -c 32768\n```\n\n{_RUNS}", tmp_path)
    assert [(c.value, _cond(cf, c).get("ctx")) for c in cf.claims] == [(40.5, None), (61.5, None)]


def test_a_quoted_paragraphs_machine_is_not_the_posts(tmp_path):
    text = (
        "# Spec decoding\n\n> I tried it with my RTX 3090 and it helped.\n\n"
        "Here are my results on a W7900: 51.5 tok/s with the draft.\n\nAnd 35.5 tok/s without it.\n"
    )
    assert _of(_drafted(text, tmp_path), "hardware") == [
        (51.5, "AMD Radeon Pro W7900"),
        (35.5, "AMD Radeon Pro W7900"),
    ]
    text = "# Spec decoding\n\nI tried it with my RTX 3090.\n\nIt ran at 35.5 tok/s.\n"
    assert _of(_drafted(text, tmp_path), "hardware") == [(35.5, "NVIDIA GeForce RTX 3090")]


def test_a_version_label_line_holds_for_the_lines_below_it(tmp_path):
    text = (
        "# Slower since 0.9.1 (ollama)\n\nOn my nVidia 3090.\n\n"
        "**0.9.1:**\neval count:           74 token(s)\neval rate:            **13.5 tokens/s**\n\n"
        "**0.9.0:**\neval count:           63 token(s)\neval rate:            **36.5 tokens/s**\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.value, _cond(cf, c).get("build"), _cond(cf, c).get("hardware")) for c in cf.claims]
    # the bold rates are read too (a paragraph of "label:   value" lines is read line by line)
    assert got == [
        (74, "0.9.1", "NVIDIA GeForce RTX 3090"),
        (13.5, "0.9.1", "NVIDIA GeForce RTX 3090"),
        (63, "0.9.0", "NVIDIA GeForce RTX 3090"),
        (36.5, "0.9.0", "NVIDIA GeForce RTX 3090"),
    ]


def test_exllama_and_its_sequence_length(tmp_path):
    text = "# ExLlama on a 3060\n\n```\n -- Sequence length: 2048\n ** Speed: 35.5 tokens/second\n```\n"
    cf = _drafted(text, tmp_path)
    assert [(c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("ctx")) for c in cf.claims] == [
        (35.5, "ExLlama", 2048)
    ]


def test_a_cpu_column_names_each_rows_cpu_and_its_backend(tmp_path):
    text = (
        "# CPU test (GPU for reference elsewhere)\n\n| CPU型号 | 生成速度 (TPS) |\n|---|---|\n"
        "| Intel i7-12700K | 6.8 |\n| AMD Ryzen 9 5950X | 7.2 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.value, _cond(cf, c).get("hardware"), _cond(cf, c).get("backend")) for c in cf.claims]
    assert got == [(6.8, "Intel Core i7-12700K", "CPU"), (7.2, "AMD Ryzen 9 5950X", "CPU")]
    text = "# GPUs\n\n| GPU | TPS |\n|---|---|\n| RTX 3090 | 66.5 |\n"
    cf = _drafted(text, tmp_path)
    got = [(c.value, _cond(cf, c).get("hardware"), _cond(cf, c).get("backend")) for c in cf.claims]
    assert got == [(66.5, "NVIDIA GeForce RTX 3090", None)]


def test_a_lead_in_names_the_list_items_below_it(tmp_path):
    text = (
        "# Two engines on a 4090\n\nMLC [commit](https://example.org/c/1):\n- 7B: 191.5 token/sec\n"
        "- 13B: 108.5 token/sec\n\nExLlama [commit](https://example.org/c/2):\n- 7B: 152.5 token/sec\n"
    )
    assert _of(_drafted(text, tmp_path), "engine") == [
        (191.5, "MLC LLM"),
        (108.5, "MLC LLM"),
        (152.5, "ExLlama"),
    ]
    text = "# On a 4090\n\nThe MLC run was faster.\n\n- 7B: 191.5 token/sec\n"
    assert _of(_drafted(text, tmp_path), "engine") == [(191.5, "MLC LLM")]  # the section's one engine


def test_an_engine_cell_naming_its_device_in_parentheses(tmp_path):
    text = (
        "# Engines\n\n| Engine | Tokens/Sec |\n|---|---|\n| llama.cpp (GPU) | 142.5 |\n"
        "| llama.cpp (CPU) | 18.5 |\n| vLLM | 217.5 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("backend")) for c in cf.claims]
    assert got == [(142.5, "llama.cpp", "GPU"), (18.5, "llama.cpp", "CPU"), (217.5, "vLLM", None)]


def test_a_value_columns_header_naming_an_engine_is_its_engine(tmp_path):
    text = (
        "# Engines\n\n| Model | MLC LLM (tok/sec) | ExLlama (tok/sec) |\n|---|---|---|\n"
        "| Llama2-7B | 154.5 | 116.5 |\n"
    )
    assert _of(_drafted(text, tmp_path), "engine") == [(154.5, "MLC LLM"), (116.5, "ExLlama")]
    text = (
        "# Engines on llama.cpp\n\n| Model | Prompt (tok/sec) | Decode (tok/sec) |\n|---|---|---|\n"
        "| Llama2-7B | 1540.5 | 116.5 |\n"
    )
    assert _of(_drafted(text, tmp_path), "engine") == [(1540.5, "llama.cpp"), (116.5, "llama.cpp")]

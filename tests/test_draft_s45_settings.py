"""Settings and workload a post states once for the runs it reports (``draftwords``, ``draftcontext``,
``draftcommand``, issue 29, session 45): a setup table or list written in words and inline flags, a
code block of flags with no tool, a serving benchmark's report of its concurrency, workload columns
and sentences; each with a control that must not become that condition."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_setup_table_in_words_states_cache_context_layers_flash_attention_and_no_drafting(tmp_path):
    cf = _drafted(
        "# Mistral-Small-24B on a 4090\n\n"
        "## Configuration\n\n"
        "| Item | Value |\n|---|---|\n"
        "| Engine | llama.cpp, --flash-attn on, --jinja |\n"
        "| Context | 16,384 tokens, q4_0 K and V cache |\n"
        "| GPU | RTX 4090, all 41 layers offloaded |\n"
        "| Speculative decoding | none |\n\n"
        "## Results\n\n"
        "| prompt | gen tok/s |\n|---|---|\n| haiku | 61.2 |\n| essay | 58.4 |\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 61.2)
    got = _cond(cf, c)
    assert got["ctx"] == 16384
    assert (got["type_k"], got["type_v"]) == ("q4_0", "q4_0")
    assert got["flash_attn"] is True
    assert got["offload"] == {"n_gpu_layers": 41}
    assert got["decoding"] == "plain"


def test_cache_sides_layers_and_grouped_counts_in_a_setup_list(tmp_path):
    cf = _drafted(
        "# Qwen3-14B, long prompts\n\n"
        "Setup:\n\n"
        "- Hardware: RTX 3090\n"
        "- Settings: K cache q8_0, V cache q4_1, context 65,536 tokens, offloaded 30 layers to the GPU\n\n"
        "Generation ran at 21.5 t/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 21.5)
    got = _cond(cf, c)
    assert (got["type_k"], got["type_v"], got["ctx"]) == ("q8_0", "q4_1", 65536)
    assert got["offload"] == {"n_gpu_layers": 30}


def test_flags_inside_a_setup_line_are_read_by_their_names(tmp_path):
    cf = _drafted(
        "# Gemma on a 3060\n\nRuntime: llama.cpp b5000 with -ngl 99 -c 8192 -ctk q8_0 -ctv q8_0\n\n"
        "It generated at 33.3 t/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    got = _cond(cf, c)
    assert got["offload"] == {"n_gpu_layers": 99}
    assert (got["ctx"], got["type_k"], got["type_v"]) == (8192, "q8_0", "q8_0")


def test_controls_a_share_of_layers_a_passing_cache_word_and_a_speculative_setup(tmp_path):
    cf = _drafted(
        "# Llama 70B split\n\nSetup:\n\n- GPU: RTX 4090, 30 of 81 layers on GPU\n"
        "- Notes: the K cache dominates memory at long context\n\n"
        "Generation ran at 4.4 t/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 4.4)
    got = _cond(cf, c)
    assert got["offload"] == {"n_gpu_layers": 30}  # the layers on the GPU, not the model's 81
    assert "type_k" not in got and "type_v" not in got
    assert "decoding" not in got or got["decoding"] == "plain"


def test_a_code_block_of_flags_alone_sets_the_runs_it_introduces(tmp_path):
    cf = _drafted(
        "# Qwen3-32B with MTP on two 3090s\n\nThe flags I used:\n\n"
        "```\n--flash-attn on\n--cache-type-k q8_0 --cache-type-v q8_0\n"
        "--spec-type draft-mtp --spec-draft-n-max 2\n```\n\n"
        "| ctx | tok/s |\n|---|---|\n| 4K | 55.1 |\n| 32K | 49.8 |\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 55.1)
    got = _cond(cf, c)
    assert (got["flash_attn"], got["type_k"], got["type_v"]) == (True, "q8_0", "q8_0")
    assert (got["decoding"], got["block_max"]) == ("draft-self", 2)


def test_control_a_code_block_of_help_text_sets_nothing(tmp_path):
    cf = _drafted(
        "# llama-server help\n\n```\n-ngl N, --n-gpu-layers N   number of layers to store in VRAM\n```\n\n"
        "It generated at 12.5 t/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 12.5)
    assert "offload" not in _cond(cf, c)


def test_a_serving_benchmark_report_states_its_concurrency(tmp_path):
    cf = _drafted(
        "# Qwen3-8B on vLLM\n\n```\n============ Serving Benchmark Result ============\n"
        "Successful requests:                     50\nMaximum request concurrency:             4\n"
        "Output token throughput (tok/s):         310.5\n```\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 310.5)
    assert _cond(cf, c)["concurrency"] == 4


def test_concurrency_columns_abbreviated_and_in_chinese(tmp_path):
    cf = _drafted(
        "# Rig page\n\n| Model | Conc. | Gen tok/s |\n|---|---|---|\n"
        "| Llama-3.1-8B | 1 | 101.2 |\n| Llama-3.1-8B | 4 | 310.4 |\n\n"
        "## 第二轮\n\n| 并发请求数 | 吞吐 (tok/s) |\n|---|---|\n| 16 | 3.1 |\n| 32 | 5.9 |\n",
        tmp_path,
    )
    by_value = {c.value: _cond(cf, c).get("concurrency") for c in cf.claims}
    assert (by_value[101.2], by_value[310.4], by_value[3.1], by_value[5.9]) == (1, 4, 16, 32)


def test_workload_sentences_output_length_tokens_decoded_and_requests_in_words(tmp_path):
    cf = _drafted(
        "# DeepSeek on EPYC\n\n## Setup\n\n- Engine: llama.cpp b4700\n"
        "- The output length was set to 256 tokens for every run.\n"
        "- All runs with four concurrent requests.\n\n## Results\n\nGeneration ran at 9.4 t/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 9.4)
    got = _cond(cf, c)
    assert (got["tokens_generated"], got["concurrency"]) == (256, 4)


def test_controls_a_bound_on_the_output_and_parallel_hardware(tmp_path):
    cf = _drafted(
        "# DeepSeek on EPYC\n\n## Setup\n\n- Engine: llama.cpp b4700 on two parallel GPUs\n"
        "- The max output length of 1024 tokens was never reached.\n\n"
        "## Results\n\nGeneration ran at 9.4 t/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 9.4)
    got = _cond(cf, c)
    assert "tokens_generated" not in got and "concurrency" not in got


def test_prompt_scenarios_as_the_columns_of_a_table_of_metrics(tmp_path):
    cf = _drafted(
        "# Phi-3 mini on a laptop\n\n"
        "| Metric | Short Prompt | Long Prompt | Coding Prompt |\n|---|---|---|---|\n"
        "| Generation Speed | 41.2 tok/s | 35.5 tok/s | 38.8 tok/s |\n"
        "| First Token Latency | 110 ms | 2,900 ms | 640 ms |\n",
        tmp_path,
    )
    by_value = {c.value: _cond(cf, c).get("prompt", "").lower() for c in cf.claims}
    assert (by_value[41.2], by_value[35.5], by_value[38.8]) == (
        "short prompt",
        "long prompt",
        "coding prompt",
    )


def test_a_prompt_named_by_its_size_in_a_sentence(tmp_path):
    cf = _drafted("# Phi-3 mini\n\nPrefill reached 512.5 t/s on the long prompt.\n", tmp_path)
    c = next(c for c in cf.claims if c.value == 512.5)
    assert _cond(cf, c)["prompt"] == "long prompt"


def test_controls_phases_and_use_cases_are_no_prompts(tmp_path):
    cf = _drafted(
        "# Engines\n\n| Engine | Best use case | Tokens/Sec |\n|---|---|---|\n"
        "| Ollama | No GPU scenarios | 18.7 |\n| vLLM | Production workloads at scale | 217.6 |\n\n"
        "## Phases\n\n| Test | Rate |\n|---|---|\n"
        "| Prompt processing | 812.4 t/s |\n| Generation | 44.1 t/s |\n",
        tmp_path,
    )
    assert all("prompt" not in _cond(cf, c) for c in cf.claims)


def test_control_a_long_heading_using_the_word_system_is_no_setup(tmp_path):
    """A setting an observation cell names under "System causal model and hard constraints" is that
    row's, not the setup of every claim around it."""
    cf = _drafted(
        "# Mac mini guide\n\n## 1. System causal model and hard constraints\n\n"
        "| Layer | Observation |\n|---|---|\n| Capacity | 14B OOM; num_ctx=65536 silent timeout |\n"
        "| Bandwidth | 8B median 28.8 tok/s |\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 28.8)
    assert "ctx" not in _cond(cf, c)


def test_mlx_lm_benchmark_flags_are_its_own(tmp_path):
    cf = _drafted(
        "# Batching for Mamba models\n\n```\n> mlx_lm.benchmark --model mlx-community/Falcon-H1-1.5B-4bit "
        "-p 256 -g 64 -n 3 -b 16\nAverages: prompt_tps=2010.5, generation_tps=655.25, peak_memory=3.1\n```\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 655.25)
    got = _cond(cf, c)
    assert (got["engine"], got["concurrency"], got["tokens_generated"]) == ("MLX", 16, 64)
    assert "cap" not in got and "batch" not in got


def test_control_llama_bench_keeps_its_letters(tmp_path):
    cf = _drafted(
        "# bench\n\n```\nllama-bench -m qwen2-7b-q4_0.gguf -p 512 -n 128 -b 2048\n```\n\n"
        "It generated at 88.8 t/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 88.8)
    got = _cond(cf, c)
    assert got.get("batch") == 2048 and "concurrency" not in got


def test_a_speculative_example_summary_states_its_decoding(tmp_path):
    cf = _drafted(
        "# Speculative PoC\n\n```\ngenerated 200 tokens in 40.0 seconds, speed: 5.001 t/s\n\n"
        "n_draft   = 6\nn_predict = 200\nn_drafted = 150\nn_accept  = 90\naccept    = 60.000%\n```\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 5.001)
    got = _cond(cf, c)
    assert (got["decoding"], got["block_max"]) == ("speculative", 6)


def test_workload_words_batch_cap_and_generation_in_other_languages(tmp_path):
    cf = _drafted(
        "# Qwen3-8B на vLLM\n\n## Настройка\n\n- Engine: vLLM 0.9.1\n"
        "- batch size 8, генерация 256 токенов\n\n"
        "## Результаты\n\nThroughput reached 1450.5 tok/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 1450.5)
    got = _cond(cf, c)
    assert (got["concurrency"], got["tokens_generated"]) == (8, 256)  # a serving engine's batch


def test_a_cap_in_chinese_and_a_prompt_then_generated_count(tmp_path):
    cf = _drafted(
        "# 测试\n\n## 配置\n\n- 引擎: llama.cpp b5000\n- 最大输出 1024 token\n"
        "- 500 token prompt, 300 generated\n\n"
        "## 结果\n\nGeneration ran at 30.5 t/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 30.5)
    got = _cond(cf, c)
    assert (got["cap"], got["tokens_generated"]) == (1024, 300)


def test_controls_generated_files_and_a_range_of_batch_sizes(tmp_path):
    cf = _drafted(
        "# Notes\n\n## Setup\n\n- Engine: vLLM 0.9.1\n"
        "- 300 generated images were discarded; batch sizes 1-8 tried\n\n"
        "## Results\n\nThroughput reached 900.5 tok/s.\n",
        tmp_path,
    )
    c = next(c for c in cf.claims if c.value == 900.5)
    got = _cond(cf, c)
    assert "tokens_generated" not in got and "concurrency" not in got and "batch" not in got

"""Kinds fixed in issue 29's session 66 (the forty-fourth held-out set's misses, read after a
forty-fifth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines, kobold_console
from benchbook.audit.draftnames import hardware_of, mentions
from benchbook.audit.draftwords import settings_in_words
from benchbook.audit.toollines import tool_results
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _results(line: str, code: bool = True) -> list[tuple]:
    return [(r.metric, r.value, r.unit, r.conditions) for r in tool_results([(1, line)], code)]


def _named(text: str, path: str) -> list[object]:
    return [m.value for m in mentions(text) if m.path == path]


def test_a_stat_list_with_the_unit_after_each_value_gives_one_claim_a_statistic():
    """LMDeploy's older profile_generation prints "first_token latency(min, max, ave): 45.43s, 94.67s,
    89.29s" (the unit after each value, not in parentheses before the names)."""
    assert _results("first_token latency(min, max, ave): 45.43s, 94.67s, 89.29s") == [
        ("ttft", "45.43", "s", {"other": {"stat": "min"}}),
        ("ttft", "94.67", "s", {"other": {"stat": "max"}}),
        ("ttft", "89.29", "s", {"other": {"stat": "mean"}}),
    ]
    assert [r[0] for r in _results("token latency(min, max, ave): 45.43s, 94.67s, 89.29s")] == ["latency"] * 3
    assert _results("latency (p50, p99): 12 ms, 30 ms") == [
        ("latency", "12", "ms", {"other": {"stat": "p50"}}),
        ("latency", "30", "ms", {"other": {"stat": "p99"}}),
    ]
    # the unit-before form still reads; values of two units, or one unit missing, are no list
    assert len(_results("first token latency(s)(min, max, ave): 0.099, 4.162, 0.664")) == 3
    assert _results("latency(min, max): 45.43s, 94.67ms") == []
    assert _results("latency(min, max): 45.43s, 94.67") == []


def test_a_time_per_token_unit_makes_a_labelled_line_ms_per_token():
    """ "Max1100: 8.6ms/token" is the time of a token, not a duration; a label may open with a part's
    number ("155H:"); a plain time stays what its label says."""
    assert _results("Max1100: 8.6ms/token") == [("ms_per_token", "8.6", "ms", {})]
    assert _results("155H:  51.6ms/token") == [("ms_per_token", "51.6", "ms", {})]
    assert _results("Process: 25.05s (14.9ms/T)")[0][0] != "ms_per_token"
    assert _results("Latency: 30 ms") == [("latency", "30", "ms", {})]
    assert _results("2024: 5 ms") == [] and _results("1st: 5 ms") == []


def test_an_intel_gpu_by_its_short_name_is_hardware_only_as_a_whole_label():
    assert hardware_of("A770") == "Intel Arc A770" and hardware_of("A770m") == "Intel Arc A770M"
    assert hardware_of("Max1100") == "Intel Data Center GPU Max 1100"
    assert hardware_of("155H") == "Intel Core Ultra 7 155H"
    assert hardware_of("125H") == "Intel Core Ultra 5 125H"
    # in prose the bare number names no machine ("shares its DNA with the A770")
    assert _named("The B580's architecture shares its DNA with the A770", "hardware") == []
    assert _named("on an Arc A770 16GB", "hardware") == ["Intel Arc A770"]


_SYCL = """# sync SYCL code

update the SYCL performance.

```shell
llama2-7b int4, sym, g128, comp_dtype=fp32, scale_dtype=fp32, KV_dtype=fp32

Max1100: 8.6ms/token
A770: 14.5ms/token
155H:  51.6ms/token
```
"""


def test_a_code_block_of_device_labelled_results_gives_each_its_device_and_the_head_line_model(tmp_path):
    cf = _drafted(_SYCL, tmp_path)
    got = {float(c.value): (c.metric, _cond(cf, c)) for c in cf.claims}
    assert set(got) == {8.6, 14.5, 51.6}
    assert {m for m, _ in got.values()} == {"ms_per_token"}
    assert got[8.6][1]["hardware"] == "Intel Data Center GPU Max 1100"
    assert got[14.5][1]["hardware"] == "Intel Arc A770"
    assert got[51.6][1]["hardware"] == "Intel Core Ultra 7 155H"
    assert all((c["model"], c["quant"]) == ("llama2-7b", "int4") for _, c in got.values())
    # a head line naming two models names neither
    (tmp_path / "two").mkdir()
    cf = _drafted(_SYCL.replace("llama2-7b int4,", "llama2-7b vs mistral-7b int4,"), tmp_path / "two")
    assert all("model" not in _cond(cf, c) for c in cf.claims)


def test_a_data_centre_or_embedded_part_keeps_its_memory_in_parentheses_or_words():
    assert _named("Environment: Jetson AGX Orin (64GB), JetPack 6.2", "hardware") == [
        "NVIDIA Jetson AGX Orin 64GB"
    ]
    assert _named("using V100 with 32G memory, and batch size is 1", "hardware") == ["NVIDIA Tesla V100 32GB"]
    assert _named("an A100 with 80GB memory", "hardware") == ["NVIDIA A100 80GB"]
    # a consumer card's memory is its spec, no part of its name
    assert _named("an RTX 4090 with 24GB memory", "hardware") == ["NVIDIA GeForce RTX 4090"]


def test_koboldcpp_console_lines_state_the_generation_s_conditions():
    lines = [
        (1, "Processing Prompt [BLAS] (1676 / 1676 tokens)"),
        (2, "Generating (78 / 387 tokens)"),
        (3, "CtxLimit: 1754/8192, Process:25.05s (14.9ms/T = 66.89T/s), Generate:59.05s"),
    ]
    assert kobold_console(lines) == {
        "other": {"prompt_tokens": 1676},
        "tokens_generated": 78,
        "cap": 387,
        "ctx": 8192,
    }
    # two requests' lines with other values: neither is the block's
    assert "tokens_generated" not in kobold_console([*lines, (4, "Generating (100 / 100 tokens)")])
    assert kobold_console([(1, "Generating the answer took long")]) == {}


def test_a_rate_label_with_no_unit_is_tokens_a_second():
    """ "PROMPT PROCESSING IS 250" / "TOKEN GENERATION IS 1.7": llama.cpp's names of its two tests,
    a rate; "is" read as the label's colon only after such a label."""
    assert _results("PROMPT PROCESSING IS 250", code=False) == [("prefill_tps", "250", "tok/s", {})]
    assert _results("Token generation: 1.7", code=False) == [("decode_tps", "1.7", "tok/s", {})]
    assert _results("Generation speed is 17.5", code=False) == [("decode_tps", "17.5", "tok/s", {})]
    # "pp: 512" / "tg: 128" are as often a test's sizes: no rate
    assert _results("pp: 512") == [] and _results("tg: 128", code=False) == []
    assert _results("The token count is 250", code=False) == []
    assert _results("My budget is 250", code=False) == []


def test_the_two_rate_lines_of_a_paragraph_are_two_rates_not_a_count(tmp_path):
    cf = _drafted("# slow\n\nPROMPT PROCESSING IS 250\nTOKEN GENERATION IS 1.7\n", tmp_path)
    assert sorted((c.metric, float(c.value), c.unit) for c in cf.claims) == [
        ("decode_tps", 1.7, "tok/s"),
        ("prefill_tps", 250.0, "tok/s"),
    ]


def test_a_quant_glued_after_a_version_and_a_kv_type_s_full_name():
    assert _named("在llama.cpp上推理4.1_Q4_K_M的模型", "quant") == ["Q4_K_M"]
    assert _named("llama2-7b int4, sym, g128", "quant") == ["int4"]
    assert _named("the int4 kernels are slow", "quant") == []
    out: list = []
    settings_in_words("- **Quantization**: FP8 KV cache (fp8_e4m3)", out)
    assert ("type_k", "fp8_e4m3") in out and ("type_v", "fp8_e4m3") in out
    out = []
    settings_in_words("fp8 KV cache", out)
    assert ("type_k", "fp8") in out


def test_a_tool_line_quoted_in_inline_code_reads_as_that_line():
    line = "The result I get is `throughput: 70.98 token/s` while the document shows more."
    ((metric, value, unit, _),) = _results(line, code=False)
    assert (metric, value) == ("throughput", "70.98")
    assert _results("I set `--ctx-size 4096` and it was slow", code=False) == []


def test_a_settings_line_of_a_run_states_no_token_counts():
    assert _results("concurrency: 64, input_tokens: 1, output_tokens: 2048") == []
    assert [r[0] for r in _results("total_input_tokens=1000, total_output_tokens=2048")] == ["tokens"] * 2


def test_lmdeploy_s_profile_script_and_a_folder_as_the_model_path():
    (c,) = command_lines(
        [
            (
                1,
                "python3 profile_generation.py --model_path /workspace/ --model_name internlm "
                "--concurrency 8 --input_seqlen 1 --output_seqlen 2048 --test_round 8",
            )
        ],
        code=True,
    )
    assert c.conditions["engine"] == "LMDeploy" and c.conditions["concurrency"] == 8
    assert c.conditions["tokens_generated"] == 2048 and "cap" not in c.conditions
    assert "model" not in c.conditions  # "/workspace/": a folder, no model's name
    (c,) = command_lines([(1, "python3 profile_generation.py --model_path /models/internlm-chat-7b/")])
    assert c.conditions["model"] == "internlm-chat-7b"


def test_a_hugging_face_repository_link_names_its_model():
    assert _named("Get models from https://huggingface.co/internlm/internlm-chat-7b/", "model") == [
        "internlm-chat-7b"
    ]
    assert _named("see https://huggingface.co/Qwen/Qwen2.5-7B-Instruct. It is fast", "model") == [
        "Qwen2.5-7B-Instruct"
    ]
    assert _named("data from https://huggingface.co/datasets/foo/sharegpt-data", "model") == []


_TP = """# MI300X sweep

- **GPU**: AMD Instinct MI300X

| Strategy | TP x EP | Concurrency | TTFT (ms) |
|---|---|---|---|
| Low-latency | 1x1 | 1 | 210 |
| Balanced | 4x4 | 64 | 419 |
| High-throughput | 8x8 | 1024 | 3547 |
"""


def _machines(text: str, tmp_path) -> dict[float, object]:
    cf = _drafted(text, tmp_path)
    return {float(c.value): _cond(cf, c).get("hardware") for c in cf.claims}


def test_a_tensor_parallel_column_counts_each_row_s_devices(tmp_path):
    assert _machines(_TP, tmp_path) == {
        210.0: "AMD Instinct MI300X",
        419.0: "4x AMD Instinct MI300X",
        3547.0: "8x AMD Instinct MI300X",
    }


_LMDEPLOY = """# Question about benchmark

1. Get models from https://huggingface.co/internlm/internlm-chat-7b/
2. `python3 profile_generation.py --model_path /workspace/ --concurrency 8 --output_seqlen 2048` on A100 80G

The result I get is `throughput: 70.98455828512093 token/s`.

```
concurrency: 64, input_tokens: 1, output_tokens: 2048
elapsed_time: 738.32s
first_token latency(min, max, ave): 45.43s, 94.67s, 89.29s
throughput: 22.92672973632506 token/s
```
"""


def test_a_serving_benchmark_s_concurrency_keeps_its_summed_throughput(tmp_path):
    cf = _drafted(_LMDEPLOY, tmp_path)
    by = {float(c.value): (c, _cond(cf, c)) for c in cf.claims}
    c, cond = by[70.98455828512093]
    assert c.metric == "throughput" and cond["concurrency"] == 8 and cond["model"] == "internlm-chat-7b"
    assert by[22.92672973632506][0].metric == "throughput"
    assert 2048.0 not in by and 1.0 not in by  # the settings line's lengths are no claims
    assert {by[v][0].metric for v in (45.43, 94.67, 89.29)} == {"ttft"}
    # a llama.cpp server's slots are no streams of one request's rate
    (tmp_path / "np").mkdir()
    cf = _drafted(
        "# x\n\n`llama-server -m qwen2.5-7b-q4_k_m.gguf -np 4`\n\nI get `speed: 50 tok/s` on one request.\n",
        tmp_path / "np",
    )
    assert [c.metric for c in cf.claims] == ["decode_tps"]


# --- the session-65 breaker's findings still open at its end (A10, A11, A12, B1) ---------------------


_DRAFT_COLUMN_TABLE = """Speculative decoding on RTX 4090 with llama-server:

| Target | Draft model | tok/s |
|---|---|---|
| Qwen2.5-32B-Instruct Q4_K_M | Qwen2.5-0.5B-Instruct Q8_0 | 61.2 |
| Qwen2.5-32B-Instruct Q4_K_M | | 38.5 |
"""


def test_a_draft_model_column_is_the_draft_s_never_the_row_s_model(tmp_path):
    cf = _drafted(_DRAFT_COLUMN_TABLE, tmp_path)
    got = {float(c.value): _cond(cf, c) for c in cf.claims}
    assert got[61.2]["model"] == "Qwen2.5-32B-Instruct" and got[61.2]["quant"] == "Q4_K_M"
    assert got[61.2]["other"]["draft_model"] == "Qwen2.5-0.5B-Instruct"
    assert got[61.2]["decoding"] == "speculative"
    assert got[38.5]["model"] == "Qwen2.5-32B-Instruct" and got[38.5]["decoding"] == "plain"
    assert "draft_model" not in got[38.5].get("other", {})


def test_a_draft_model_from_hugging_face_makes_the_run_speculative():
    (c,) = command_lines(
        [
            (
                1,
                "llama-server -hf unsloth/DeepSeek-R1-0528-GGUF:IQ1_S "
                "-hfd unsloth/Qwen3-0.6B-GGUF:Q8_0 -ngl 99",
            )
        ]
    )
    assert c.conditions["decoding"] == "speculative"
    assert (c.conditions["model"], c.conditions["quant"]) == ("DeepSeek-R1-0528", "IQ1_S")
    assert c.conditions["other"] == {"draft_model": "Qwen3-0.6B", "draft_quant": "Q8_0"}
    (c,) = command_lines([(1, "llama-server -hf unsloth/DeepSeek-R1-0528-GGUF:IQ1_S -ngl 99")])
    assert c.conditions.get("decoding") != "speculative"


_PARAMS_TABLE = """| Model | Params | Gen tok/s |
| --- | --- | --- |
| Qwen3-30B-A3B Q4_K_M | 30B | 66.5 |
| Llama-3.1 Q4_K_M | 70B | 5.5 |
| Llama-3.1 Q4_K_M | 8B | 80.5 |
"""


def test_a_params_column_keeps_two_rows_of_one_family_apart(tmp_path):
    cf = _drafted(_PARAMS_TABLE, tmp_path)
    got = {float(c.value): _cond(cf, c)["model"] for c in cf.claims}
    assert got == {66.5: "Qwen3-30B-A3B", 5.5: "Llama-3.1-70B", 80.5: "Llama-3.1-8B"}
    # a size column of bytes is still a measurement ("| VRAM | 18 GB |")
    cf = _drafted(_PARAMS_TABLE.replace("Params", "VRAM").replace("| 70B |", "| 70 GB |"), tmp_path)
    assert not any(c.unit == "B" for c in cf.claims)


def test_more_shell_prompts_before_a_command():
    for line in (
        "user@MacBook-Pro llama.cpp % ./build/bin/llama-cli -m mistral-7b-instruct-v0.2.Q4_K_M.gguf -c 2048",
        "[user@fedora llama.cpp]$ ./llama-cli -m mistral-7b-instruct-v0.2.Q4_K_M.gguf -c 2048",
        "➜  llama.cpp git:(master) ✗ ./llama-cli -m mistral-7b-instruct-v0.2.Q4_K_M.gguf -c 2048",
        "user@box:~/my models$ ./llama-cli -m mistral-7b-instruct-v0.2.Q4_K_M.gguf -c 2048",
    ):
        (c,) = command_lines([(1, line)], code=True)
        assert (c.conditions["model"], c.conditions["quant"], c.conditions["ctx"]) == (
            "mistral-7b-instruct-v0.2",
            "Q4_K_M",
            2048,
        ), line
    # a sentence with a percent sign and an "@" is no prompt
    assert command_lines([(1, "me@home 50 % faster than llama-cli -c 2048")], code=False) == []


def test_any_command_and_a_script_run_take_any_shell_prompt():
    from benchbook.audit.draftcontext import _SCRIPT_RUN, ANY_COMMAND

    for prompt in ("$ ", "user@box:~/exllamav3$ ", "(venv) $ ", "[me@fedora exl]$ ", ""):
        run = _SCRIPT_RUN.match(f"{prompt}python eval/perf.py --model_dir models/Qwen3-8B-exl3/")
        assert run is not None and run.group("script") == "eval/perf.py", prompt
        assert ANY_COMMAND.match(f"{prompt}./run --model_dir ./Llama-2-7b-hf"), prompt
    assert _SCRIPT_RUN.match("I ran python perf.py twice") is None
    assert ANY_COMMAND.match("It is fast --really") is None


def test_a_compared_model_is_the_other_side_s_only_where_the_text_names_one_of_its_own():
    title = "# [Bug]: N-gram speculative decoding performs slower than Qwen3-32B-FP8 with vLLM 0.9.0.1"
    assert _named(title, "model") == ["Qwen3-32B"] and _named(title, "quant") == ["FP8"]
    assert _named("Llama-3-8B is 20% faster than Mistral-7B here", "model") == ["Llama-3-8B"]
    assert _named("Llama-3-8B vs Mistral-7B", "model") == ["Llama-3-8B", "Mistral-7B"]


def _runs(text: str, tmp_path) -> dict[float, object]:
    cf = _drafted(text, tmp_path)
    return {float(c.value): _cond(cf, c).get("run_index") for c in cf.claims}


_BLOCK = "```\neval rate: {} tokens/s\n```\n"


def test_a_run_label_above_a_code_block_names_its_run(tmp_path):
    """ "Run 1:", "**Run 1**" (bold, no colon), "- 2nd run:" alone above a block of output, or a
    heading "### Run 2" over its section: that output's run_index (B4 of the session-65 breaker)."""
    for k, (one, two) in enumerate(
        (
            ("Run 1:", "Run 2:"),
            ("**Run 1**", "**Run 2**"),
            ("- 1st run:", "- 2nd run:"),
            ("### Run 1", "### Run 2"),
        )
    ):
        text = f"# runs\n\n{one}\n\n{_BLOCK.format(40.1)}\n{two}\n\n{_BLOCK.format(42.3)}"
        (tmp_path / str(k)).mkdir()
        assert _runs(text, tmp_path / str(k)) == {40.1: 1, 42.3: 2}, one
    # a bold line naming no run, or a sentence, names none
    text = f"# runs\n\n**RTX 4090**\n\n{_BLOCK.format(40.1)}\nI run it twice.\n\n{_BLOCK.format(42.3)}"
    (tmp_path / "none").mkdir()
    assert _runs(text, tmp_path / "none") == {40.1: None, 42.3: None}


# --- this session's breaker's findings on the kinds above ------------------------------------------


def test_a_list_in_parentheses_is_a_stat_list_only_of_statistics():
    assert _results("TTFT (vLLM, SGLang): 120ms, 95ms") == []
    assert _results("latency (prefill, decode): 120ms, 25ms") == []
    assert _results("TTFT (cold, warm): 2.1s, 0.3s") == []
    assert _results("decode speed (min, max, ave): 31.2 tok/s, 40.5 tok/s, 36.0 tok/s") == [
        ("decode_tps", "31.2", "tok/s", {"other": {"stat": "min"}}),
        ("decode_tps", "40.5", "tok/s", {"other": {"stat": "max"}}),
        ("decode_tps", "36.0", "tok/s", {"other": {"stat": "mean"}}),
    ]


_LABELLED_BLOCK = """# Q4_K_M on my RTX 4090

```
{head}
{a}: 22.1ms/token
{b}: 30.2ms/token
```
"""


def test_a_code_line_s_quant_or_size_label_is_its_run_s(tmp_path):
    cf = _drafted(_LABELLED_BLOCK.format(head="llama2-7b int4, sym, g128", a="Q8_0", b="fp16"), tmp_path)
    got = {float(c.value): _cond(cf, c) for c in cf.claims}
    assert got[22.1]["quant"] == "Q8_0" and got[30.2]["quant"] == "fp16"
    assert got[22.1]["model"] == "llama2-7b"
    (tmp_path / "sizes").mkdir()
    cf = _drafted(_LABELLED_BLOCK.format(head="llama2 int4, sym, g128", a="7B", b="13B"), tmp_path / "sizes")
    got = {float(c.value): _cond(cf, c) for c in cf.claims}
    assert got[22.1]["model"] == "llama2-7B" and got[30.2]["model"] == "llama2-13B"


def test_a_head_line_of_a_draft_or_of_a_key_names_no_model(tmp_path):
    cf = _drafted(_LABELLED_BLOCK.format(head="qwen2-0.5b int4 draft model", a="A770", b="A750"), tmp_path)
    assert all(_cond(cf, c).get("model") != "qwen2-0.5b" for c in cf.claims)


def test_a_hugging_face_link_of_a_draft_or_a_tokenizer_names_no_model():
    text = "Using https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF as the draft model gave 55.3 tok/s"
    assert _named(text, "model") == []
    assert _named("the tokenizer from https://huggingface.co/meta-llama/Llama-2-7b-hf", "model") == []


def test_a_folder_of_the_current_directory_names_no_model():
    (c,) = command_lines([(1, "python3 profile_generation.py --model_path ./ --concurrency 8")])
    assert "model" not in c.conditions


def test_a_servers_sequence_cap_is_no_stream_count_of_a_printed_throughput(tmp_path):
    text = (
        "# vLLM\n\n```\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-num-seqs 256\n```\n\n"
        "One curl request at a time:\n\n```\nthroughput: 45.3 tok/s\n```\n"
    )
    cf = _drafted(text, tmp_path)
    assert [c.metric for c in cf.claims] == ["decode_tps"]


_DEVICES = """# Quick numbers from my machines

All runs use llama-bench defaults with mistral-7b-instruct Q4_K_M.

```
RTX 4090: 52 t/s
CPU: 5.2 t/s
Qwen3-8B Q8_0: 40.2 ms/token
```
"""


def test_a_cpu_label_is_its_line_s_backend_and_names_no_setup(tmp_path):
    """ "CPU: 5.2 t/s" is a result on the CPU: no declaration of the post's setup, no CPU backend on
    the RTX 4090's line; a line labelled with a model is that model's."""
    from benchbook.audit.draftcontext import declaration

    assert not declaration("CPU: 5.2 t/s") and declaration("CPU: Ryzen 9 7950X")
    cf = _drafted(_DEVICES, tmp_path)
    got = {float(c.value): _cond(cf, c) for c in cf.claims}
    assert got[52.0]["hardware"] == "NVIDIA GeForce RTX 4090" and "backend" not in got[52.0]
    assert got[5.2]["backend"] == "CPU" and "hardware" not in got[5.2]
    assert (got[40.2]["model"], got[40.2]["quant"]) == ("Qwen3-8B", "Q8_0")
    assert got[52.0]["model"] == "mistral-7b-instruct"


_PARALLEL_TABLES = """# vLLM on H100 nodes

- GPU: NVIDIA H100

| GPU | TP | PP | Output tok/s |
|---|---|---|---|
| H100 | 4 | 2 | 2100 |
| 2x H100 | 2 | 1 | 900 |

| DP x TP | Conc | TPOT (ms) |
|---|---|---|
| 2x4 | 8 | 30 |

| Config | TPOT (ms) |
|---|---|
| TP8 | 25 |
"""


def test_a_row_s_devices_are_its_tp_times_dp_times_pp(tmp_path):
    assert _machines(_PARALLEL_TABLES, tmp_path) == {
        2100.0: "8x NVIDIA H100",
        900.0: "2x NVIDIA H100",
        30.0: "8x NVIDIA H100",
        25.0: "8x NVIDIA H100",
    }
    (tmp_path / "pp").mkdir()
    cf = _drafted(_PARALLEL_TABLES, tmp_path / "pp")
    assert not any(c.metric == "prefill_tps" for c in cf.claims)  # the PP column is no prompt rate


def test_a_tool_line_quoted_from_someone_else_keeps_its_origin(tmp_path):
    text = (
        "# LMDeploy\n\nThe README says `throughput: 200.5 token/s` for this setting, "
        "but I only get `throughput: 70.98 token/s`.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {float(c.value): c.origin for c in cf.claims}
    assert got == {200.5: "The README", 70.98: None}


def test_a_labelled_prompt_in_quotes_is_the_quoted_text_without_its_remark(tmp_path):
    text = (
        '# x\n\n- Test prompt: "Describe a medieval tavern at night" (creative writing, 200-300 tokens)\n\n'
    )
    cf = _drafted(text + "I get 42 tok/s.\n", tmp_path)
    (c,) = [c for c in cf.claims if c.metric == "decode_tps"]
    assert _cond(cf, c)["prompt"] == "Describe a medieval tavern at night"
    (tmp_path / "bare").mkdir()
    cf = _drafted(
        "# x\n\n- Prompt: how many r are in the word 'strawberry'?\n\nI get 42 tok/s.\n", tmp_path / "bare"
    )
    assert _cond(cf, cf.claims[0])["prompt"] == "how many r are in the word 'strawberry'?"


def test_a_coarse_multiple_takes_the_only_two_rates_there_are_as_its_sides(tmp_path):
    """ "~70 tok/s … 13–15 tok/s … a permanent 5× speedup": 70 / 14 = 5 fits "5x" (4.5–6), and no
    other pair is there to fit it; among three values a digit that coarse names no pair."""
    from benchbook.audit.draftbyvalue import fitting_pair

    assert fitting_pair("ratio", 5.0, 0, False, [("a", 70.0), ("b", 14.0)]) == ["a", "b"]
    assert fitting_pair("ratio", 5.0, 0, False, [("a", 70.0), ("b", 14.0), ("c", 13.0)]) is None
    assert fitting_pair("ratio", 5.0, 0, False, [("a", 70.0), ("b", 30.0)]) is None
    text = (
        "# Arc\n\nRun IPEX-LLM to get ~70 tok/s on Mistral 7B with the Arc B580. The generic Vulkan backend "
        "tops out at 13–15 tok/s. The Docker setup takes 15 minutes once and delivers "
        "a permanent 5x speedup.\n"
    )
    cf = _drafted(text, tmp_path)
    (s,) = cf.statements
    assert s.kind == "ratio" and float(s.value) == 5.0
    a, b = (next(c for c in cf.claims if c.id == i) for i in s.of)
    assert float(a.value) == 70.0 and [float(x) for x in b.range] == [13.0, 15.0]


def test_a_cache_type_denied_is_none():
    for text, want in (
        ("## Run B without FP8 KV", []),
        ("no q8_0 KV cache here", []),
        ("## Run A with FP8 KV", [("type_k", "fp8"), ("type_v", "fp8")]),
    ):
        out: list = []
        settings_in_words(text, out)
        assert out == want, text


def test_a_model_name_joined_by_underscores_is_read_and_a_gguf_type_keeps_its_own():
    assert _named("另外 qwen2.5_7b_instruct 跑出来 30.1 token/s", "model") == ["qwen2.5-7b-instruct"]
    assert _named("llama_3_8b_instruct is fast", "model") == ["llama-3-8b-instruct"]
    assert _named("llama_7b_Q4_K_M.gguf", "quant") == ["Q4_K_M"]
    assert _named("input_len_8b and max_new_tokens 512", "model") == []

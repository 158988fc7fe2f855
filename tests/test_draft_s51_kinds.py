"""Kinds of input the sets h313–h332 showed the drafter misreading (issue 29, session 51), each fixed
as a kind with controls: a serving sweep's setup line ("Config: … | FP8 | TP=8 | H200 | ISL=1024,
OSL=1024") and its "conc=N" columns; card counts written "16 xH100s", "on 16 H100", "2 x 3090";
a model's release date after its name; InferenceX's "tput" labels; phones' and boards' chips."""

from __future__ import annotations

from benchbook.audit.draftcontext import cell_conditions, parallel_count
from benchbook.audit.draftnames import mentions
from drafting import conditions as _cond
from drafting import drafted as _drafted

#: InferenceX's bot comment, shortened: the setup in its own section, the results in the next
_SWEEP = """# deepseek sglang h200 experimental

### Concurrency Sweep: DeepSeek R1 FP8 H200 SGLang (1k/1k)

**Config:** DeepSeek-R1-0528 | SGLang v0.5.7 | FP8 | TP=8, EP=1 | H200 | ISL=1024, OSL=1024

### Performance Results

| Metric | conc=8 | conc=16 |
|--------|-------:|--------:|
| **Total tput/GPU (tok/s)** | 148.6 | 225.1 |
| **Output tput/GPU (tok/s)** | 74.6 | 111.9 |
| **Input tput/GPU (tok/s)** | 74.0 | 113.1 |
| Mean TTFT (ms) | 330.6 | 356.0 |
"""


def test_sweep_setup_section_holds_for_the_results_section(tmp_path):
    """The setup line of the section before the table is every cell's: the model with its release
    date, the FP8 listed alone as the weights' quant, TP=8 as eight H200s, ISL as the prompt's
    tokens, OSL as the tokens generated (and the cap); each column its concurrency."""
    cf = _drafted(_SWEEP, tmp_path)
    by_value = {c.value: c for c in cf.claims}
    assert len(cf.claims) == 8
    got = _cond(cf, by_value[356.0])
    assert got == {
        "hardware": "8x NVIDIA H200",
        "engine": "SGLang",
        "build": "v0.5.7",
        "model": "DeepSeek-R1-0528",
        "quant": "FP8",
        "decoding": "plain",
        "prompt": "1024 tokens",
        "tokens_generated": 1024,
        "cap": 1024,
        "concurrency": 16,
        "other": {"stat": "mean"},
    }
    assert _cond(cf, by_value[148.6])["concurrency"] == 8
    metrics = {v: by_value[v].metric for v in (148.6, 74.6, 74.0, 330.6)}
    assert metrics == {148.6: "total_throughput", 74.6: "throughput", 74.0: "input_throughput", 330.6: "ttft"}


def test_two_machine_sections_stay_each_its_own(tmp_path):
    """Control: two sections naming two machines in their headings keep each its own machine (the
    setup of one is no other's)."""
    text = (
        "# Two cards\n\n## RTX 3090\n\nConfig: Qwen3-8B | Q4_K_M\n\nDecode: 100 tok/s\n\n"
        "## RTX 4090\n\nDecode: 140 tok/s\n"
    )
    cf = _drafted(text, tmp_path)
    hw = {c.value: _cond(cf, c).get("hardware") for c in cf.claims}
    assert hw == {100.0: "NVIDIA GeForce RTX 3090", 140.0: "NVIDIA GeForce RTX 4090"}


def test_label_cells_key_equals_number():
    """A label cell "key=N" of a known label (``LABELS``) states that setting; an unknown key, or a
    label of text, states none."""
    assert cell_conditions("conc=8") == {"concurrency": 8}
    assert cell_conditions("seed = 16") == {}  # "seed" is no label the drafter knows
    assert cell_conditions("bs = 16") == {"batch": 16}  # "bs": llama-bench's batch size (-b)
    assert cell_conditions("ctx=8k") == {"ctx": 8192}
    assert cell_conditions("ISL=1024") == {"prompt": "1024 tokens"}
    assert cell_conditions("OSL: 128") == {"tokens_generated": 128}
    assert cell_conditions("model=Qwen3") == {}
    assert cell_conditions("c4") == {"concurrency": 4}


def test_isl_osl_columns_are_prompt_and_tokens_generated(tmp_path):
    """A sweep table's ISL and OSL columns: each row's prompt tokens and tokens generated."""
    text = (
        "| ISL | OSL | Concurrency | TTFT (ms) |\n|---|---|---|---|\n"
        "| 128 | 1024 | 1 | 184.1 |\n| 2048 | 128 | 4 | 190.5 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert {k: got[184.1].get(k) for k in ("prompt", "tokens_generated", "concurrency")} == {
        "prompt": "128 tokens",
        "tokens_generated": 1024,
        "concurrency": 1,
    }
    assert got[190.5]["prompt"] == "2048 tokens"


def test_isl_in_prose_with_k():
    """ "ISL 8k" in words: a prompt of 8K tokens; "OSL=256": 256 tokens generated."""
    from benchbook.audit.draftwords import settings_in_words

    out: list = []
    settings_in_words("ISL 8k, OSL=256", out)
    assert ("prompt", "8K tokens") in out
    assert ("tokens_generated", 256) in out


def test_parallel_sizes_count_devices():
    """TP × PP is the devices a run spans; llama-bench's "pp 512" and TP=1 are none; two TP sizes
    name no one count."""
    assert parallel_count("TP=8, EP=1") == 8
    assert parallel_count("--tensor-parallel-size 4 --pipeline-parallel-size 2") == 8
    assert parallel_count("vllm serve m -tp 2") == 2
    assert parallel_count("TP 4, PP 2") == 8
    assert parallel_count("pp 512 and tg 128") is None
    assert parallel_count("TP=1") is None
    assert parallel_count("TP=1 vs TP=2") is None


def test_card_counts_in_more_spellings():
    """ "16 xH100s", "on 16 H100", "2 x 3090", "across 8 H200s": counts of cards; a number that is a
    version ("Qwen 2 A100") or a spec after the name ("RTX 3090 24 GB") is none."""

    def hw(text: str) -> list:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert hw("16 xH100s: Full Precision") == ["16x NVIDIA H100"]
    assert hw("Sweeps on 16 H100 (SGLANG)") == ["16x NVIDIA H100"]
    assert hw("Using 2 x 3090 with TP") == ["2x NVIDIA GeForce RTX 3090"]
    assert hw("spread across 8 H200s") == ["8x NVIDIA H200"]
    assert hw("four CPU-only Raspberry Pi 5 boards") == ["4x Raspberry Pi 5"]
    assert hw("Qwen 2 A100 result") == ["NVIDIA A100"]
    assert hw("RTX 3090 24 GB") == ["NVIDIA GeForce RTX 3090"]


def test_model_release_date_and_size_in_parentheses():
    """A release date after a versioned name is part of the weights' name; a size in parentheses
    after it is the model's size."""

    def model(text: str) -> list:
        return [m.value for m in mentions(text) if m.path == "model"]

    assert model("DeepSeek-R1-0528 on H200") == ["DeepSeek-R1-0528"]
    assert model("DeepSeek-V3-0324 gets 43 tok/s") == ["DeepSeek-V3-0324"]
    assert model("Forcing the Qwen2.5 (7B) model") == ["Qwen2.5 7B"]
    assert model("DeepSeek-R1 at 20 tok/s") == ["DeepSeek-R1"]
    assert model("Qwen3-30B-A3B-Instruct-2507") == ["Qwen3-30B-A3B-Instruct-2507"]


def test_listed_format_is_the_weights_unless_the_cache_is_named(tmp_path):
    """ "| FP8 |" alone in a setup line is the weights' quant; after a "KV cache" item it is the
    cache's, no quant; FP8 in a sentence stays unread (a cache's or the compute's as often)."""
    cf = _drafted("Setup: Qwen3-8B | vLLM | FP8 | H100\n\nDecode: 80 tok/s\n", tmp_path)
    assert _cond(cf, cf.claims[0])["quant"] == "FP8"
    cf = _drafted("Setup: Qwen3-8B | vLLM | KV cache | FP8 | H100\n\nDecode: 80 tok/s\n", tmp_path)
    assert "quant" not in _cond(cf, cf.claims[0])
    cf = _drafted("We ran Qwen3-8B in FP8 on an H100: 80 tok/s.\n", tmp_path)
    assert "quant" not in _cond(cf, cf.claims[0])


def test_tput_labels():
    """InferenceX's "tput" after total/input/output is the token throughput; "Tput User" and "Tput
    Prefill" (tt-inference-server's) keep their own meaning."""
    from benchbook.audit.toollines import label_metric

    assert label_metric("Total tput/GPU (tok/s)", "tok/s") == "total_throughput"
    assert label_metric("Input tput/GPU (tok/s)", "tok/s") == "input_throughput"
    assert label_metric("Output tput/GPU (tok/s)", "tok/s") == "throughput"
    assert label_metric("Tput Prefill (TPS)", "tok/s") == "prefill_tps"


def test_phone_and_board_chips():
    """On-device runs name their chip or phone: Qualcomm's, Rockchip's, MediaTek's, Samsung's."""

    def hw(text: str) -> list:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert hw("test phone is a Snapdragon 8 Gen3 Android phone") == ["Qualcomm Snapdragon 8 Gen 3"]
    assert hw("Snapdragon X Elite laptop") == ["Qualcomm Snapdragon X Elite"]
    assert hw("On an RK3588 host (Radxa ROCK 5B)") == ["Rockchip RK3588"]
    assert hw("Dimensity 9300") == ["MediaTek Dimensity 9300"]
    assert hw("Samsung Galaxy S24 Ultra") == ["Samsung Galaxy S24 Ultra"]
    assert hw("the RK3588S2 module") == []  # no such part name read as another


def test_storage_rates_and_request_rates(tmp_path):
    """MB/s and IOPS are a storage device's rate and operations (no seconds read off "MB/s"); "RPS"
    is requests per second; each row of a table of metrics keeps its own cell's unit, whatever the
    first row's."""
    cf = _drafted("The sequential read limit saturated at 416 MB/s.\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("read_bandwidth", 416.0, "MB/s")]
    text = (
        "| Metric | Run A | Run B |\n|---|---|---|\n| Total Duration | 320.74 s | 224.71 s |\n"
        "| Effective I/O Bandwidth | 277.87 MB/s | 397.04 MB/s |\n"
        "| NVMe Read Activity | 9,708 IOPS | 12,103 IOPS |\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted((c.metric, c.value, c.unit) for c in cf.claims) == [
        ("duration", 224.71, "s"),
        ("duration", 320.74, "s"),
        ("io_bandwidth", 277.87, "MB/s"),
        ("io_bandwidth", 397.04, "MB/s"),
        ("iops", 9708.0, "IOPS"),
        ("iops", 12103.0, "IOPS"),
    ]
    cf = _drafted("| Concurrency | Req Tput (RPS) |\n|---|---|\n| 1 | 0.321 |\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("request_throughput", 0.321, "req/s")]


def test_a_machines_section_with_results_keeps_its_setup(tmp_path):
    """Control of the setup section: a section whose heading names the machine and which states
    results (a table) keeps its command's settings to itself; the next section's claims get none."""
    text = (
        "## Windows 10, RTX 3060, llama.cpp b4980\n\n`llama-bench -m [model] -ngl 100`\n\n"
        "| quant | pp512 (t/s) |\n|---|---|\n| Q4_0 | 1200.5 |\n\n## Notes\n\nMy RTX 5090 ran 101 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert got[101.0] == {"hardware": "NVIDIA GeForce RTX 5090", "decoding": "plain"}
    assert got[1200.5]["offload"] == {"n_gpu_layers": 100}


def test_quant_glued_to_the_next_cells_number():
    """A table copied without cell borders glues a rate to the quant ("Q4_K_M7 t/s"): the quant is
    the type's letters; a repacked type ("Q4_K_M_R4", "Q4_0_R8") stays whole."""

    def named(text: str) -> list:
        return [(m.path, m.value) for m in mentions(text) if m.path in ("model", "quant")]

    assert named("Qwen 2.5 72B Q4_K_M7 t/s31 t/s+343%") == [("model", "Qwen 2.5 72B"), ("quant", "Q4_K_M")]
    assert named("Qwen3 32B Q4_K_XL5 t/s") == [("model", "Qwen3 32B"), ("quant", "Q4_K_XL")]
    assert named("Llama 3 8B Q4_K_M_R4 x") == [("model", "Llama 3 8B"), ("quant", "Q4_K_M_R4")]
    assert named("Llama 3 8B Q4_0_R8") == [("model", "Llama 3 8B"), ("quant", "Q4_0_R8")]


def test_vs_with_the_other_side_named_shares_the_unit(tmp_path):
    """ "356 vs M3 Ultra 192 tok/s": the number before "vs" and a few words naming the other side takes
    the other number's unit; a count compared ("3 vs 4 of 5 runs") does not become a rate."""
    cf = _drafted("stable-code-3b: RTX 5090 356 vs M3 Ultra 192 tok/s.\n", tmp_path)
    assert sorted((c.value, c.unit) for c in cf.claims) == [(192.0, "tok/s"), (356.0, "tok/s")]
    cf = _drafted("We got 3 vs 4 of 5 runs at 20 tok/s\n", tmp_path)
    assert sorted(c.value for c in cf.claims if c.unit == "tok/s") == [20.0]


#: vLLM's offline throughput benchmark as pasted: the command and its one result line
_VLLM_THROUGHPUT = """```
vllm bench throughput --model meta-llama/Llama-3.1-8B-Instruct --input-len 128 --output-len 128 \\
  --num-prompts 1000
Throughput: 34.52 requests/s, 8837.12 total tokens/s, 4418.56 output tokens/s
```
"""


def test_vllm_throughput_line_and_its_lengths(tmp_path):
    """The line's three rates: requests, total tokens and the batch's output tokens a second
    (``throughput``, not one stream's decode); --input-len is the prompt's tokens, --output-len the
    cap; "N output tokens/s" is no count of tokens generated."""
    cf = _drafted(_VLLM_THROUGHPUT, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("request_throughput", 34.52, "req/s"),
        ("total_throughput", 8837.12, "tok/s"),
        ("throughput", 4418.56, "tok/s"),
    ]
    got = _cond(cf, cf.claims[2])
    assert (got["prompt"], got["cap"], "tokens_generated" in got) == ("128 tokens", 128, False)


def test_random_dataset_keeps_its_name_with_the_length():
    """``--dataset-name random --random-input-len 2048``: the random prompts of 2048 tokens."""
    from benchbook.audit.draftcommand import command_lines

    line = "vllm bench serve --model m --dataset-name random --random-input-len 2048 --random-output-len 128"
    got = command_lines([(1, line)])[0].conditions
    assert got["prompt"] == "random (2048 tokens)"
    assert got["cap"] == 128


def test_tool_output_lines_of_other_engines(tmp_path):
    """KoboldCpp's "ProcessingSpeed" is its prompt processing; vLLM's log "Avg prompt throughput" the
    prompt's rate beside "Avg generation throughput"."""
    cf = _drafted("ProcessingTime: 1.23s, ProcessingSpeed: 812.3T/s, GenerationSpeed: 22.2T/s\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "t/s"] == [
        ("prefill_tps", 812.3),
        ("decode_tps", 22.2),
    ]
    cf = _drafted(
        "Avg prompt throughput: 12.3 tokens/s, Avg generation throughput: 45.6 tokens/s\n", tmp_path
    )
    assert [(c.metric, c.value) for c in cf.claims] == [("prefill_tps", 12.3), ("decode_tps", 45.6)]


def test_statistic_columns_of_a_metrics_table(tmp_path):
    """genai-perf's table (box drawing, "Statistic | avg | min | max"): "min" is no minutes, each cell
    its statistic (``other.stat``, avg as mean), "(per sec)" after tokens or requests a rate."""
    text = (
        "```\n┃                  Statistic ┃    avg ┃    min ┃    max ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩\n"
        "│   Time to first token (ms) │  16.26 │  12.39 │  17.25 │\n"
        "│ Output token throughput (per sec) │ 544.20 │    N/A │    N/A │\n"
        "│ Request throughput (per sec) │ 4.25 │    N/A │    N/A │\n```\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.metric, c.value, c.unit, _cond(cf, c)["other"]["stat"]) for c in cf.claims]
    assert got == [
        ("ttft", 16.26, "ms", "mean"),
        ("ttft", 12.39, "ms", "min"),
        ("ttft", 17.25, "ms", "max"),
        ("throughput", 544.2, "tok/s", "mean"),
        ("request_throughput", 4.25, "req/s", "mean"),
    ]


def test_ollama_api_response_and_short_times(tmp_path):
    """Ollama's API response: its ``*_duration`` keys in nanoseconds, its ``*_count`` keys tokens;
    "ns" and "µs" after a number in prose are times."""
    text = (
        '```json\n{"total_duration":5043500667,"load_duration":5025959,"eval_count":290,'
        '"eval_duration":4709213000}\n```\n'
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("duration", 5043500667.0, "ns"),
        ("load_time", 5025959.0, "ns"),
        ("tokens", 290.0, "tokens"),
        ("duration", 4709213000.0, "ns"),
    ]
    cf = _drafted("The kernel takes 350 µs; constant ~21-25 ns per KV position.\n", tmp_path)
    assert [(c.value, c.range, c.unit) for c in cf.claims] == [
        (350.0, None, "µs"),
        (None, (21.0, 25.0), "ns"),
    ]


def test_llama_server_draft_line(tmp_path):
    """llama-server's draft line: α with its counts (accepted of the drafted tokens the server calls
    generated), the mean acceptance length τ in tokens, each position's rate."""
    text = (
        "```\ndraft acceptance = 0.64479 (  167 accepted /   259 generated), mean acceptance length =  2.92, "
        "acceptance rate per position = (0.805, 0.632, 0.483)\n```\n"
    )
    cf = _drafted(text, tmp_path)
    got = [
        (c.metric, c.value, c.unit, _cond(cf, c).get("other", {}).get("draft_position")) for c in cf.claims
    ]
    assert got == [
        ("acceptance_rate", 0.64479, "ratio", None),
        ("mean_accepted_length", 2.92, "tokens", None),
        ("acceptance_rate", 0.805, "ratio", 0),
        ("acceptance_rate", 0.632, "ratio", 1),
        ("acceptance_rate", 0.483, "ratio", 2),
    ]
    assert (cf.claims[0].counts.accepted, cf.claims[0].counts.drafted) == (167, 259)


def test_vllm_spec_decoding_metric_lines(tmp_path):
    """vLLM's SpecDecoding metrics line (V1) and its older Speculative metrics line (V0): each figure
    its claim, the average acceptance with the line's counts, k the run's block_max."""
    v1 = (
        "```\nSpecDecoding metrics: Mean acceptance length: 2.45, Accepted throughput: 12.30 tokens/s, "
        "Drafted throughput: 20.10 tokens/s, Accepted: 123 tokens, Drafted: 201 tokens, "
        "Per-position acceptance rate: 0.812, 0.601, Avg Draft acceptance rate: 61.2%\n```\n"
    )
    cf = _drafted(v1, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("mean_accepted_length", 2.45, "tokens"),
        ("accepted_throughput", 12.3, "tok/s"),
        ("drafted_throughput", 20.1, "tok/s"),
        ("accepted_tokens", 123.0, "tokens"),
        ("draft_tokens", 201.0, "tokens"),
        ("acceptance_rate", 0.812, "ratio"),
        ("acceptance_rate", 0.601, "ratio"),
        ("acceptance_rate", 61.2, "%"),
    ]
    assert (cf.claims[-1].counts.accepted, cf.claims[-1].counts.drafted) == (123, 201)
    v0 = (
        "```\nSpeculative metrics: Draft acceptance rate: 0.651, System efficiency: 0.421, Number of "
        "speculative tokens: 5, Number of accepted tokens: 1234, Number of draft tokens: 1896, Number of "
        "emitted tokens: 2000.\n```\n"
    )
    cf = _drafted(v0, tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("acceptance_rate", 0.651),
        ("system_efficiency", 0.421),
        ("accepted_tokens", 1234.0),
        ("draft_tokens", 1896.0),
        ("emitted_tokens", 2000.0),
    ]
    assert {_cond(cf, c)["block_max"] for c in cf.claims} == {5}


def test_sglang_scheduler_lines(tmp_path):
    """SGLang's decode line: its generation rate (one running request: decode_tps; eight: their summed
    throughput at concurrency 8) and accept len. (Since session 57, as corpus h414's hand-checked
    file reads them, a prefill line's new and cached tokens and each line's token usage, the KV pool's
    share in use, are claims too; a zero count or usage states nothing.)"""
    text = (
        "```\nPrefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.00, "
        "#running-req: 0, #queue-req: 0\n"
        "Decode batch. #running-req: 1, #token: 1234, token usage: 0.01, accept len: 3.12, "
        "gen throughput (token/s): 45.67, #queue-req: 0\n"
        "Decode batch. #running-req: 8, #token: 9234, token usage: 0.05, gen throughput (token/s): 345.67, "
        "#queue-req: 0\n```\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.metric, c.value, _cond(cf, c).get("concurrency")) for c in cf.claims]
    assert got == [
        ("tokens", 512.0, None),
        ("kv_cache_usage", 0.01, 1),
        ("mean_accepted_length", 3.12, 1),
        ("decode_tps", 45.67, 1),
        ("kv_cache_usage", 0.05, 8),
        ("throughput", 345.67, 8),
    ]


def test_ollama_ps_with_one_model(tmp_path):
    """``ollama ps`` with one model loaded (a header and one row, aligned): its SIZE is the memory used,
    PROCESSOR where it sits (no machine) and UNTIL how long it stays loaded (no duration)."""
    text = (
        "```\nNAME        ID              SIZE      PROCESSOR    UNTIL\n"
        "qwen3:8b    500a1f067a9f    6.5 GB    100% GPU     4 minutes from now\n```\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("memory_used", 6.5, "GB")]
    got = _cond(cf, cf.claims[0])
    assert "hardware" not in got and got["other"]["processor"] == "100% GPU"


def test_two_unaligned_lines_are_no_table(tmp_path):
    """Control: two lines whose words do not start at the same columns stay code (a log's lines)."""
    from benchbook.audit.post import aligned_rows

    assert aligned_rows([(1, "NAME  SIZE  UNTIL"), (2, "model loaded in 4.2 s  ok")]) is None


def test_nvidia_smi_box(tmp_path):
    """nvidia-smi's box: the device row's power draw, memory used and utilisation, of the device the row
    above names; the cap, total memory, fan and temperature are no results."""
    text = (
        "```\n| NVIDIA-SMI 550.54.14              Driver Version: 550.54.14      CUDA Version: 12.4     |\n"
        "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n"
        "|   0  NVIDIA GeForce RTX 4090        On  |   00000000:01:00.0  On |                  Off |\n"
        "| 30%   62C    P2            350W /  450W |   23456MiB /  24564MiB |     98%      Default |\n```\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("power", 350.0, "W"),
        ("vram", 23456.0, "MiB"),
        ("gpu_utilization", 98.0, "%"),
    ]
    assert {_cond(cf, c)["hardware"] for c in cf.claims} == {"NVIDIA GeForce RTX 4090"}


def test_tgi_log_quoted_times(tmp_path):
    """text-generation-inference's request log: times quoted with their units ("2.5s", "24ms",
    "50us"), ``time_per_token`` the inference time a token."""
    text = (
        '```\nINFO generate{total_time="2.5s" validation_time="1ms" queue_time="50us" inference_time="2.4s" '
        'time_per_token="24ms" seed="None"}: text_generation_router::server: Success\n```\n'
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("duration", 2.5, "s"),
        ("duration", 1.0, "ms"),
        ("duration", 50.0, "µs"),
        ("duration", 2.4, "s"),
        ("ms_per_token", 24.0, "ms"),
    ]


def test_model_names_with_variants_and_series_letters():
    """Variant words after a versioned name (with a dash or a space for the capitalised ones), the M
    series letter (MiniMax-M2), a size class with a dash and the release date (Magistral-Small-2509);
    a family with no version stays unread."""

    def model(text: str) -> list:
        return [m.value for m in mentions(text) if m.path == "model"]

    assert model("GLM 4.5 Air runs") == ["GLM 4.5 Air"]
    assert model("DeepSeek-V3.1-Terminus runs") == ["DeepSeek-V3.1-Terminus"]
    assert model("MiniMax-M2 runs") == ["MiniMax-M2"]
    assert model("Phi-4-mini-instruct runs") == ["Phi-4-mini-instruct"]
    assert model("Magistral-Small-2509 runs") == ["Magistral-Small-2509"]
    assert model("Kimi K2 Thinking runs") == ["Kimi K2 Thinking"]
    assert model("Llama 3.1 ran") == ["Llama 3.1"]
    assert model("the Qwen family") == []


def test_instinct_cards_of_two_digits():
    """AMD's Instinct MI50/MI60/MI25 (two digits) and their plural are cards, as MI100 and MI300X."""

    def hw(text: str) -> list:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert hw("Instinct MI50 ran") == ["AMD Instinct MI50"]
    assert hw("two MI50s ran") == ["2x AMD Instinct MI50"]
    assert hw("MI300X ran") == ["AMD Instinct MI300X"]


def test_more_engines_by_name():
    """Runtimes and servers as their projects spell them, with spaces as prose writes them."""

    def engine(text: str) -> list:
        return [m.value for m in mentions(text) if m.path == "engine"]

    assert engine("I used ONNX Runtime GenAI and got 5 tok/s") == ["ONNX Runtime GenAI"]
    assert engine("via RKLLM on the NPU") == ["RKLLM"]
    assert engine("karpathy's llama2.c at 72 tok/s") == ["llama2.c"]


def test_label_cells_listing_a_configuration(tmp_path):
    """A row label listing its configuration in parts ("1GPU, Llama 7B, v0.4.2"; a "Setup" column's
    "RTX 4090, vLLM 0.6.3, Qwen2.5-7B AWQ"): the model part, an engine's version or a bare version as
    the build, the machine; not the whole cell as one machine's name."""
    text = (
        "|  | Decode (tok/s) |\n| --- | --- |\n| 1GPU, Llama 7B, v0.4.2 | 14.33 |\n"
        "| 4GPU, Llama 70B, v0.4.3 | 8.05 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(_cond(cf, c).get("model"), _cond(cf, c).get("build")) for c in cf.claims]
    assert got == [("Llama 7B", "v0.4.2"), ("Llama 70B", "v0.4.3")]
    text = (
        "| Setup | Decode (tok/s) |\n| --- | --- |\n| RTX 4090, vLLM 0.6.3, Qwen2.5-7B AWQ | 14.33 |\n"
        "| RTX 3090, Ollama, Qwen2.5-7B Q4_K_M | 8.05 |\n"
    )
    cf = _drafted(text, tmp_path)
    keys = ("hardware", "engine", "build", "model", "quant")
    got = [tuple(_cond(cf, c).get(k) for k in keys) for c in cf.claims]
    assert got == [
        ("NVIDIA GeForce RTX 4090", "vLLM", "0.6.3", "Qwen2.5-7B", "AWQ"),
        ("NVIDIA GeForce RTX 3090", "Ollama", None, "Qwen2.5-7B", "Q4_K_M"),
    ]


def test_quant_columns_under_a_caption_rate(tmp_path):
    """Columns headed by quantisations under a caption stating the rate ("Throughput (tokens/sec)"):
    each cell a rate of its column's quant, a table of one row too."""
    text = (
        "Throughput (tokens/sec)\n\n| Model | TP | FP8 | W4A8_AWQ | FP16 |\n| --- | --- | --- | --- | --- |\n"
        "| llama-2-7b | 1 | 18758 | 10146 | 11116 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.value, c.unit, _cond(cf, c)["quant"]) for c in cf.claims] == [
        (18758.0, "tok/s", "FP8"),
        (10146.0, "tok/s", "W4A8_AWQ"),
        (11116.0, "tok/s", "FP16"),
    ]


def test_notes_in_parentheses_of_engine_and_backend_cells(tmp_path):
    """ "ollama (Q4, llama.cpp)" in an Engine column: the engine, and the quant the parentheses list;
    llama-bench's backend "Vulkan (master)": the backend, and the build the user noted."""
    text = "| Engine | TTFT |\n|---|---|\n| ollama (Q4, llama.cpp) | 480 ms |\n| mlx (Q8, AMX) | 384 ms |\n"
    cf = _drafted(text, tmp_path)
    assert [(_cond(cf, c)["engine"], _cond(cf, c)["quant"]) for c in cf.claims] == [
        ("Ollama", "Q4"),
        ("MLX", "Q8"),
    ]
    text = (
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Vulkan (master) | 99 | tg 128 | 22.76 ± 0.09 |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Vulkan (PR) | 99 | tg 128 | 37.80 ± 0.14 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(_cond(cf, c)["backend"], _cond(cf, c)["build"]) for c in cf.claims if c.metric == "decode_tps"]
    assert got == [("Vulkan", "master"), ("Vulkan", "PR")]


def test_header_listing_quantities_over_slashed_cells(tmp_path):
    """ "| Offline Request throughput (req/s)/ Token throughput (tok/s) |" over "14.33/6895.75": each
    number the header's part in its place, with that part's metric and unit (an offline run's token
    rate summed over its batch: throughput)."""
    text = (
        "|  | Offline Request throughput (req/s)/ Token throughput (tok/s) |\n| --- | --- |\n"
        "| Llama 7B | 14.33/6895.75 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("request_throughput", 14.33, "req/s"),
        ("throughput", 6895.75, "tok/s"),
    ]
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"Llama 7B"}


def test_korean_table_headers_and_bnb_packaging(tmp_path):
    """Korean headers naming the model (모델명), its quantisation (양자화 여부) and the device (디바이스);
    a load time (로드 시간) is load_time; Unsloth's "-bnb-4bit" is packaging, no part of the name."""
    text = (
        "| 모델명 | 처리량 (토큰/초) | 양자화 여부 | 디바이스 | 로드 시간 (초) |\n|---|---|---|---|---|\n"
        "| Llama-3.2-3B-bnb-4bit | 0.63 | 8bit | T4 | 58.08 |\n"
        "| Qwen2.5-7B-bnb-4bit | 13.4 | 8bit | T4 | 50.2 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(c.metric, c.value): _cond(cf, c) for c in cf.claims}
    assert got[("load_time", 58.08)]["model"] == "Llama-3.2-3B"
    first = got[("decode_tps", 0.63)]
    assert (first["model"], first["quant"], first["hardware"]) == ("Llama-3.2-3B", "8bit", "NVIDIA T4")


def test_setup_counts_and_model_h_are_no_results(tmp_path):
    """ "Number of CUDA devices: 1" describes the machine (no claim; "tokens_per_sec_per_gpu" stays a
    rate); "Granite 4.0 H Micro" is a model, no 4-hour duration; "2 h" stays a time."""
    cf = _drafted("```\nNumber of CUDA devices: 1\nNumber of draft proposals: 43,221\n```\n", tmp_path)
    assert [c.metric for c in cf.claims] == ["draft_proposals"]
    cf = _drafted("```\nttft_ms: 39806, tpot_ms: 80.13, tokens_per_sec_per_gpu: 3537\n```\n", tmp_path)
    assert 3537.0 in [c.value for c in cf.claims]
    cf = _drafted("Granite 4.0 H Micro reached 6.05 tok/s; the run took 2 h.\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(6.05, "tok/s"), (2.0, "h")]
    assert _cond(cf, cf.claims[0])["model"] == "Granite 4.0 H Micro"


def test_ascend_npus_and_cjk_card_counts():
    """Huawei's Ascend NPUs by their part ("910B3", "Ascend 910B"); a Chinese or Japanese count with the
    cards' measure word ("8卡910B3", "8卡A100", "2枚のA100")."""

    def hw(text: str) -> list:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert hw("A2服务器，8卡910B3。") == ["8x Ascend 910B3"]
    assert hw("单张910B上部署") == ["Ascend 910B"]
    assert hw("8卡A100") == ["8x NVIDIA A100"]
    assert hw("on 2枚のA100") == ["2x NVIDIA A100"]
    assert hw("it took 910 tokens") == []


def test_seconds_and_minutes_in_more_languages(tmp_path):
    """Seconds and minutes as Spanish, German, French and Vietnamese posts write them."""
    text = "tardó 320 segundos. Es dauerte 12 Sekunden. il faut 3 secondes. 7.21 giây. 2 phút.\n"
    cf = _drafted(text, tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [
        (320.0, "s"),
        (12.0, "s"),
        (3.0, "s"),
        (7.21, "s"),
        (2.0, "min"),
    ]


def test_row_unit_in_its_label(tmp_path):
    """A row whose label writes its own unit ("출력 길이 (토큰)", "Output length (tokens)") under columns
    whose first row states times: counts of tokens (``tokens``, as the corpus writes output lengths),
    not seconds."""
    text = (
        "| 항목 | Qwen2.5 0.5B | Qwen2.5 3B |\n|---|---|---|\n| 총 처리 시간 | 약 6.7초 | 약 14.6초 |\n"
        "| 출력 길이 (토큰) | 672 | 547 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted((c.metric, c.value, c.unit) for c in cf.claims) == [
        ("duration", 6.7, "s"),
        ("duration", 14.6, "s"),
        ("tokens", 547.0, "tokens"),
        ("tokens", 672.0, "tokens"),
    ]


def test_breaker_findings_of_session_51(tmp_path):
    """A card count written as a multiple ("2× L40S") is no speedup; a server log's KV cache usage is
    no result; "ISL/OSL = 512/128" sets the prompt and the tokens generated and its numbers are no
    rates; vLLM's log prefix ("INFO … metrics.py:341] Engine 000:") hides no prompt throughput."""
    cf = _drafted("Setup: vLLM v0.10.1 · tp 2 · 2× L40S · Qwen3-8B\n", tmp_path)
    assert cf.claims == []
    cf = _drafted("It is 2x faster than the 4090.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("speedup", 2.0)]
    cf = _drafted("ISL/OSL = 512/128, decode 40 tok/s\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(40.0, "tok/s")]
    got = _cond(cf, cf.claims[0])
    assert (got["prompt"], got["tokens_generated"]) == ("512 tokens", 128)
    log = (
        "```\n(APIServer pid=1) INFO 09-01 10:00:00 [loggers.py:123] Engine 000: Avg prompt throughput: "
        "412.5 tokens/s, Avg generation throughput: 88.3 tokens/s, Running: 1 reqs, "
        "GPU KV cache usage: 0.5%\n```\n"
    )
    cf = _drafted(log, tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("prefill_tps", 412.5), ("decode_tps", 88.3)]


def test_genai_perf_length_rows(tmp_path):
    """genai-perf's sequence length rows are token counts of each statistic, beside the latencies."""
    text = (
        "```\n┃                  Statistic ┃    avg ┃    min ┃    max ┃\n"
        "│   Time to first token (ms) │  16.26 │  12.39 │  17.25 │\n"
        "│ Output sequence length │ 256.00 │ 200.00 │ 296.60 │\n```\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.metric, c.value, _cond(cf, c)["other"]["stat"]) for c in cf.claims]
    assert got == [
        ("ttft", 16.26, "mean"),
        ("ttft", 12.39, "min"),
        ("ttft", 17.25, "max"),
        ("tokens", 256.0, "mean"),
        ("tokens", 200.0, "min"),
        ("tokens", 296.6, "max"),
    ]


def test_koboldcpp_console_line(tmp_path):
    """KoboldCpp's console line after a generation: the prompt's processing and the generation, each
    its time, ms a token and rate; the whole request's time and its effective rate; Amt the tokens
    generated; the time before it all, "Init:0.01s" (session 60)."""
    text = (
        "```\nCtxLimit:1124/4096, Amt:100/100, Init:0.01s, Process:1.91s (0.5ms/T = 2040.31T/s), "
        "Generate:6.85s (22.8ms/T = 43.80T/s), Total:8.76s (34.25T/s)\n```\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("duration", 0.01),
        ("duration", 1.91),
        ("ms_per_token", 0.5),
        ("prefill_tps", 2040.31),
        ("duration", 6.85),
        ("ms_per_token", 22.8),
        ("decode_tps", 43.8),
        ("duration", 8.76),
        ("effective_tps", 34.25),
    ]
    assert _cond(cf, cf.claims[6])["tokens_generated"] == 100

"""Kinds of input the held-out sets h243–h252 showed the drafter misreading (issue 29, session 49),
each fixed as a kind with controls: llama-batched-bench's output (its B column is the sequences
decoded at once, its S_PP/S_TG/S columns rates, not seconds); llama-batched-bench's own flags; a
model file named by its downloader ("Qwen_Qwen3-30B-A3B-Q4_K_M.gguf", llama.cpp's ``-hf`` cache,
"models/llama-7b/ggml-model-q4_0.gguf"); Intel's Arc Pro cards; a Ryzen AI Max chip's own
graphics; a prose sentence listing the setup without labels; a decode row's "n_kv" as its depth;
"ubatch 2048" in words."""

from __future__ import annotations

import pytest

from benchbook.audit.draft import apu_name
from benchbook.audit.draftcommand import model_and_quant
from benchbook.audit.draftcontext import settings_sentences
from benchbook.audit.drafttable import _header_unit, is_batched_bench
from drafting import conditions as _cond
from drafting import drafted as _drafted

#: llama-batched-bench's output as the tool prints it (tools/batched-bench), under its command
_BATCHED = """Results on my 3090:

```
./llama-batched-bench -m models/llama-7b/ggml-model-q8_0.gguf -c 2048 -b 512 \\
  -npp 128 -ntg 128 -npl 1,2,4 -ngl 99

|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |
|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|
|   128 |    128 |    1 |    256 |    0.108 |  1186.64 |    3.079 |    41.57 |    3.187 |    80.32 |
|   128 |    128 |    4 |   1024 |    0.373 |  1373.96 |    6.143 |    83.35 |    6.516 |   157.15 |
```
"""


def test_llama_batched_bench_output_is_read_by_its_columns(tmp_path):
    """PP/TG/B/N_KV are each row's settings (never rates of 128 t/s); T_* are times, S_* rates (not
    seconds: "S_PP t/s"); S_TG of several sequences and S (all tokens over the whole time) are
    summed rates, ``throughput``; one sequence's S_TG is its decode rate."""
    cf = _drafted(_BATCHED, tmp_path)
    got = {(c.metric, c.value, c.unit, _cond(cf, c).get("concurrency")) for c in cf.claims}
    assert got == {
        ("duration", 0.108, "s", 1),
        ("prefill_tps", 1186.64, "t/s", 1),
        ("duration", 3.079, "s", 1),
        ("decode_tps", 41.57, "t/s", 1),
        ("duration", 3.187, "s", 1),
        ("throughput", 80.32, "t/s", 1),
        ("duration", 0.373, "s", 4),
        ("prefill_tps", 1373.96, "t/s", 4),
        ("duration", 6.143, "s", 4),
        ("throughput", 83.35, "t/s", 4),
        ("duration", 6.516, "s", 4),
        ("throughput", 157.15, "t/s", 4),
    }
    row = _cond(cf, next(c for c in cf.claims if c.value == 83.35))
    assert row["tokens_generated"] == 128 and row["other"] == {"prompt_tokens": 128, "n_kv": 1024}
    assert row["model"] == "llama-7b" and row["quant"] == "q8_0" and row["batch"] == 512
    assert "depth" not in row  # N_KV of batched sequences is their total, no one sequence's depth


def test_a_hand_made_batched_bench_table_keeps_b_as_sequences(tmp_path):
    """h245: "| B | Parent S_TG t/s | PR S_TG t/s |" under llama-batched-bench's command."""
    cf = _drafted(
        "```\nllama-batched-bench -m Qwen_Qwen3-30B-A3B-Q4_K_M.gguf -c 32768 -npp 512 -ntg 128 "
        "-npl 1,2,4,8\n```\n\n| B | Parent S_TG t/s | PR S_TG t/s |\n|---:|---:|---:|\n"
        "| 1 | 84.54 | 84.27 |\n| 8 | 219.42 | 218.71 |\n",
        tmp_path,
    )
    got = {(c.metric, c.value, _cond(cf, c).get("concurrency")) for c in cf.claims}
    assert got == {
        ("decode_tps", 84.54, 1),
        ("decode_tps", 84.27, 1),
        ("throughput", 219.42, 8),
        ("throughput", 218.71, 8),
    }
    row = _cond(cf, cf.claims[0])
    assert row["model"] == "Qwen3-30B-A3B" and row["tokens_generated"] == 128
    assert row["other"] == {"prompt_tokens": 512} and "batch" not in row


@pytest.mark.parametrize(
    ("header", "batched"),
    [
        (["PP", "TG", "B", "N_KV", "T_PP s", "S_PP t/s", "T_TG s", "S_TG t/s", "T s", "S t/s"], True),
        (["B", "Parent S_TG t/s", "PR S_TG t/s", "Delta"], True),
        # controls: llama-sweep-bench's table (no B), a table of batch sizes
        (["PP", "TG", "N_KV", "T_PP s", "S_PP t/s", "T_TG s", "S_TG t/s"], False),
        (["B", "tok/s"], False),
        (["Batch", "S_TG t/s"], False),
    ],
)
def test_llama_batched_bench_tables_by_their_header(header, batched):
    assert is_batched_bench(header) is batched


@pytest.mark.parametrize(
    ("header", "unit"),
    [
        ("S_PP t/s", "t/s"),
        ("S_TG t/s", "t/s"),
        ("S t/s", "t/s"),
        # controls: the times stay seconds
        ("T_PP s", "s"),
        ("T s", "s"),
        ("Time (s)", "s"),
    ],
)
def test_a_speed_column_of_llama_tools_is_no_time(header, unit):
    assert _header_unit(header) == unit


def test_a_llama_batched_bench_command_sets_its_lengths(tmp_path):
    cf = _drafted(
        "```\nllama-batched-bench -m x/Qwen3-8B-Q4_0.gguf -c 8192 -npp 512 -ntg 128 -npl 4\n```\n\n"
        "It reached 84.5 t/s.\n",
        tmp_path,
    )
    cond = _cond(cf, cf.claims[0])
    assert (cond["tokens_generated"], cond["concurrency"], cond["other"]) == (128, 4, {"prompt_tokens": 512})
    # control: llama-bench's -n is its tokens generated, -p its prompt; no -npp of its own
    cf = _drafted(
        "```\nllama-bench -m x/Qwen3-8B-Q4_0.gguf -p 512 -n 128\n```\n\nIt reached 84.5 t/s.\n", tmp_path
    )
    assert "concurrency" not in _cond(cf, cf.claims[0])


@pytest.mark.parametrize(
    ("path", "model", "quant"),
    [
        # bartowski's files: the organisation before the model, joined by "_"
        ("bartowski/Qwen_Qwen3-30B-A3B-GGUF/Qwen_Qwen3-30B-A3B-Q4_K_M.gguf", "Qwen3-30B-A3B", "Q4_K_M"),
        ("google_gemma-3-27b-it-Q4_K_M.gguf", "gemma-3-27b-it", "Q4_K_M"),
        ("meta-llama_Llama-3.3-70B-Instruct-Q4_K_M.gguf", "Llama-3.3-70B-Instruct", "Q4_K_M"),
        (
            "mistralai_Mistral-Small-3.1-24B-Instruct-2503-Q6_K_L.gguf",
            "Mistral-Small-3.1-24B-Instruct-2503",
            "Q6_K_L",
        ),
        # llama.cpp's -hf download cache: organisation, repository and file
        ("ggml-org_gpt-oss-120b-GGUF_gpt-oss-120b-mxfp4-00001-of-00003.gguf", "gpt-oss-120b", "mxfp4"),
        ("unsloth_Qwen3-8B-GGUF_Qwen3-8B-UD-Q4_K_XL.gguf", "Qwen3-8B", "UD-Q4_K_XL"),
        # the conversion scripts' "ggml-model": the folder names the model
        ("./models/llama-7b/ggml-model-q4_0.gguf", "llama-7b", "q4_0"),
        ("/mnt/llama.cpp/models/open-llama/7B-v2/ggml-model-f16.gguf", "open-llama-7B-v2", "f16"),
        ("models/65B/ggml-model-q4_0.bin", "65B", "q4_0"),
        # controls: underscores of the model's own name, a file with no folder
        ("Qwen3_30B_A3B.gguf", "Qwen3_30B_A3B", None),
        ("gemma_3_27b.gguf", "gemma_3_27b", None),
        ("Mistral-7B-Instruct-v0.3.Q4_K_M.gguf", "Mistral-7B-Instruct-v0.3", "Q4_K_M"),
        ("ggml-model-q4_0.bin", "ggml-model", "q4_0"),
    ],
)
def test_a_model_file_named_by_its_downloader(path, model, quant):
    assert model_and_quant(path) == (model, quant)


def test_intels_arc_pro_cards(tmp_path):
    cf = _drafted(
        "I used a single Arc Pro B70 and got 24.5 tok/s.\n\nOn an Intel Arc B580: 30 tok/s.\n", tmp_path
    )
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["Intel Arc Pro B70", "Intel Arc B580"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # h244: the chip alone; its graphics are the 8060S whether the post names them or not
        ("a Strix Halo box (Ryzen AI MAX+ 395, 128 GB)", "AMD Ryzen AI Max+ 395 (Radeon 8060S)"),
        ("Ryzen AI Max 390 laptop", "AMD Ryzen AI Max 390 (Radeon 8050S)"),
        ("Ryzen AI Max+ 395 with its Radeon 8060S", "AMD Ryzen AI Max+ 395 (Radeon 8060S)"),
        # control: a chip this table does not know keeps its name alone
        ("Ryzen AI Max+ 392", "AMD Ryzen AI Max+ 392"),
    ],
)
def test_an_apu_chip_names_its_graphics(text, name):
    assert apu_name(text) == name


_SETUP = (
    "Qwen3.8-27B Q4_0 (64 layers, 16 full attention, 48 GDN), llama.cpp b10450 SYCL, single Arc Pro "
    "B70, q4_0 K and V cache, flash attention on, speculative decoding off, n_ctx 262144, ubatch "
    "2048, 200 tokens generated per row, one run. A 1024-token row ran first and was discarded."
)


def test_a_sentence_listing_the_setup_holds_for_the_table_below(tmp_path):
    """h243: the settings sentence names no label ("Hardware:"); its flash attention, decoding and
    ubatch hold for the table as its model and machine do."""
    cf = _drafted(
        f"{_SETUP}\n\n| n_kv | tok/s |\n|---|---|\n| 4,096 | 24.50 |\n| 16,384 | 21.31 |\n", tmp_path
    )
    rows = [_cond(cf, c) for c in cf.claims if c.metric == "decode_tps"]
    assert [r["depth"] for r in rows] == [4096, 16384]
    for r in rows:
        assert (r["flash_attn"], r["decoding"], r["ubatch"], r["hardware"]) == (
            True,
            "plain",
            2048,
            "Intel Arc Pro B70",
        )
        assert (r["model"], r["quant"], r["build"], r["backend"], r["ctx"]) == (
            "Qwen3.8-27B",
            "Q4_0",
            "b10450",
            "SYCL",
            262144,
        )


@pytest.mark.parametrize(
    ("line", "found"),
    [
        (_SETUP, 1),
        (
            "Single AMD Radeon RX 7900 XTX 24GB, Windows 11, llama.cpp build 9553, Vulkan backend, "
            "unsloth UD-Q4_K_XL, 131K context, q4_0 KV.",
            1,
        ),
        # controls: the arms of a comparison, a list of rates, a sentence of prose
        ("I've run Llama 3 8B across three stacks on one card: Ollama, vLLM, and llama.cpp, all Q4_K_M.", 0),
        (
            "On the RTX 3090 it ran at 24 tok/s, the 4090 at 41 tok/s, the 5090 at 60 tok/s, the A100 at 50.",
            0,
        ),
        ("The model loads fast, and it answers well, and it is small, and it is free.", 0),
    ],
)
def test_a_settings_sentence_is_one_listing_one_value_of_each(line, found):
    assert len(settings_sentences(line)) == found


def test_ubatch_in_words(tmp_path):
    cf = _drafted("With ubatch 2048 and n_ctx 8192 it reached 24.5 tok/s.\n", tmp_path)
    cond = _cond(cf, cf.claims[0])
    assert (cond["ubatch"], cond["ctx"]) == (2048, 8192)
    # control: a batch of requests is no ubatch
    cf = _drafted("With a batch of 2048 prompts it reached 24.5 tok/s.\n", tmp_path)
    assert "ubatch" not in _cond(cf, cf.claims[0])


def test_the_older_llama_server_log_lines_are_timing_lines(tmp_path):
    """h254: "INFO [ print_timings] … | tid=… id_slot=0 …" (llama.cpp's server before 2024's log
    rewrite, ik_llama.cpp's still): read line by line as timing lines, never as a table split on
    its "|"; "generation eval time" is the eval time."""
    log = (
        "INFO [           print_timings] prompt eval time     =   32736.15 ms /  3596 tokens (  9.10 ms per "
        'token,   109.85 tokens per second) | tid="140176171094016" id_slot=0 id_task=0\n'
        "INFO [           print_timings] generation eval time =   57112.32 ms /   454 runs   ( 125.80 ms per "
        'token,     7.95 tokens per second) | tid="140176171094016" id_slot=0 id_task=0\n'
        'INFO [           print_timings]           total time =   89848.46 ms | tid="140176171094016"\n'
    )
    cf = _drafted(f"Speeds are\n\n```\n{log}```\n", tmp_path)
    got = [(c.metric, c.value, _cond(cf, c).get("tokens_generated")) for c in cf.claims]
    assert got == [
        ("prompt_eval_ms", 32736.15, None),
        ("ms_per_token", 9.1, None),
        ("prefill_tps", 109.85, None),
        ("eval_ms", 57112.32, 454),
        ("ms_per_token", 125.8, 454),
        ("decode_tps", 7.95, 454),
        ("total_ms", 89848.46, None),
    ]


_TQDM = (
    "Processed prompts: 100%|███████████████████| 1/1 [00:01<00:00,  1.72s/it, est. speed input: 26.21 "
    "toks/s, output: 83.88 toks/s]"
)


@pytest.mark.parametrize("fenced", [True, False])
def test_a_tqdm_bars_progress_is_no_claim(tmp_path, fenced):
    """h265: the share done (100%), the items done (1/1) and the clock of a tqdm bar state no result;
    its s/it and rates do, in a code block (no table of its "|") as in prose."""
    text = f"Without spec:\n\n```\n{_TQDM}\n```\n" if fenced else f"Without spec:\n\n{_TQDM}\n"
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("latency", 1.72, "s"),
        ("input_throughput", 26.21, "tok/s"),
        ("throughput", 83.88, "tok/s"),
    ]
    # control: a share that is no bar's stays a claim
    cf = _drafted("```\nGPU utilization: 97%\n```\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(97.0, "%")]


def test_a_plural_s_is_no_seconds(tmp_path):
    """h261: lscpu's "Socket(s): 2" is two sockets, no 2 s duration; a time's "(s)" stays seconds."""
    cf = _drafted(
        "```\nSocket(s):             2\nThread(s) per core:    2\nbuild_time(s)=4.5\nTime (s): 3.2\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("duration", 4.5, "s"),
        ("duration", 3.2, "s"),
    ]


def test_a_column_of_backends_under_any_header(tmp_path):
    """h262: LM Studio's "Runtime" column of "Vulkan"/"ROCm" is each row's backend (never the engine);
    its "FTT" (first token time) is the time to the first token."""
    cf = _drafted(
        "| Runtime | TPS | FTT |\n|---|---|---|\n| Vulkan | 132.75 | 0.06s |\n"
        "| CUDA 12 llama.cpp | 140.1 | 0.03s |\n",
        tmp_path,
    )
    got = [(c.metric, c.value, _cond(cf, c).get("backend"), _cond(cf, c).get("engine")) for c in cf.claims]
    assert got == [
        ("decode_tps", 132.75, "Vulkan", None),
        ("decode_tps", 140.1, "CUDA", None),
        ("ttft", 0.06, "Vulkan", None),
        ("ttft", 0.03, "CUDA", None),
    ]
    # control: a column of engines stays the engine
    cf = _drafted("| Runtime | TPS |\n|---|---|\n| llama.cpp | 132.75 |\n| Ollama | 120.5 |\n", tmp_path)
    assert [_cond(cf, c).get("engine") for c in cf.claims] == ["llama.cpp", "Ollama"]


def test_a_value_columns_header_names_its_concurrency_and_statistic(tmp_path):
    """h263: "Throughput (50 req)" is a rate summed over 50 requests at once (``throughput``,
    concurrency 50); "TTFT p50 (10 req)" the median TTFT at 10; "Mean"/"P99" in a header are the
    statistic of its values (``other.stat``)."""
    cf = _drafted(
        "| Engine | Throughput (50 req) | TTFT p50 (10 req) | Mean TTFT (ms) | P99 TTFT (ms) | Output tok/s"
        " |\n"
        "|---|---|---|---|---|---|\n| vLLM | 1,850 tok/s | 120 ms | 130 | 200 | 41.5 |\n",
        tmp_path,
    )
    got = [
        (c.metric, c.value, _cond(cf, c).get("concurrency"), (_cond(cf, c).get("other") or {}).get("stat"))
        for c in cf.claims
    ]
    assert got == [
        ("throughput", 1850.0, 50, None),
        ("ttft", 120.0, 10, "p50"),
        ("ttft", 130.0, None, "mean"),
        ("ttft", 200.0, None, "p99"),
        ("throughput", 41.5, None, None),  # control: vLLM's "Output tok/s" names no statistic
    ]


@pytest.mark.parametrize("fenced", [True, False])
def test_a_backends_device_list_counts_its_devices(tmp_path, fenced):
    """h255: llama.cpp's start-up list "Device 0: AMD Instinct MI100", "Device 1: AMD Instinct MI100"
    is two of them (SOURCES.md: the count in the hardware name), fenced or pasted over the table."""
    devices = (
        "Device 0: AMD Instinct MI100, gfx908:sramecc+:xnack- (0x908), VMM: no\n"
        "  Device 1: AMD Instinct MI100, gfx908:sramecc+:xnack- (0x908), VMM: no\n"
    )
    table = "| test | t/s |\n|---|---|\n| tg128 | 30.66 |\n"
    text = f"```\n{devices}```\n\n{table}" if fenced else f"{devices}{table}"
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["2x AMD Instinct MI100"]
    # controls: one device listed; two of different names name no one machine
    one = "```\n  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6\n```\n\nIt reached 41.5 tok/s.\n"
    cf = _drafted(one, tmp_path)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["NVIDIA GeForce RTX 3090"]
    two = one.replace("```\n", "```\n  Device 1: NVIDIA GeForce RTX 4090, compute capability 8.9\n", 1)
    cf = _drafted(two, tmp_path)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == [None]


def test_a_label_listing_settings_names_each_piece_of_a_cell(tmp_path):
    """h259: "| C2 / C4 / C8 decode, greedy | 264.6 / 484.3 / 1003.8 |": each rate at its concurrency,
    not three runs; a label listing nothing leaves the pieces runs."""
    cf = _drafted(
        "| Setting | RTX 4090 |\n|---|---|\n| C2 / C4 / C8 decode, greedy | 264.6 / 484.3 / 1003.8 tok/s |\n"
        "| Runs | 11.2 / 11.5 tok/s |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("concurrency"), _cond(cf, c).get("run_index")) for c in cf.claims]
    assert got == [(264.6, 2, None), (484.3, 4, None), (1003.8, 8, None), (11.2, None, 1), (11.5, None, 2)]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # h253–h272: a size a machine's part owns, or each device's, is a spec (``systems``), no claim
        ("Each GPU has 32GB; the model runs at 40 tok/s.", [("decode_tps", 40.0)]),
        ("Two 3090s (24GB each) run it at 40 tok/s.", [("decode_tps", 40.0)]),
        # "two 3090s": cards, not 3090 seconds; "took 1200s" stays a time
        ("The run took 1200s at 40 tok/s.", [("duration", 1200.0), ("decode_tps", 40.0)]),
        # controls: a size a run used stays a claim
        ("It used 20GB each on both cards at 40 tok/s.", [("size", 20.0), ("decode_tps", 40.0)]),
        # a question of hope or a request states no measurement; "why is it only" states one
        ("Could it break 20 tok/s on a Pi 5?", []),
        ("Has anyone gotten over 30 t/s on a P40?", []),
        ("Could it be 2x faster with a draft?", []),
        ("Why is it only 5 tok/s?", [("decode_tps", 5.0)]),
        # h270: a modal reach inside the question, "Can anyone …"
        ("I suspect that with active cooling at 2.4 GHz, this engine could break 20 tok/s?", []),
        ("Can anyone hit 20+ tok/s with active cooling?", []),
        ("Why can it only reach 5 tok/s?", [("decode_tps", 5.0)]),
        # breaker: questions that report what the author measured
        (
            "Anyone else seeing generation drop from 40 tok/s to 12 tok/s?",
            [("decode_tps", 40.0), ("decode_tps", 12.0)],
        ),
        ("Could it be that the 7900 XTX is only doing 45 tok/s because of ROCm 6.1?", [("decode_tps", 45.0)]),
        ("It could reach 20 tok/s.", [("decode_tps", 20.0)]),
    ],
)
def test_specs_plurals_and_questions_state_no_claim(tmp_path, text, want):
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == want


def test_a_table_of_plain_rates_beside_an_acceptance_column_takes_the_posts_rate(tmp_path):
    """h257: "| n-max | Overall | P1 code | Acceptance |" over "43.9 | 47.7 | 0.60-0.95" under "43.9
    tok/s median": the plain columns are rates in the post's unit, the acceptance column stays a
    fraction (a column stating no unit of its own never made the others rates)."""
    cf = _drafted(
        "- Baseline: 30.7 tok/s median\n\n| n-max | Overall | P1 code | Acceptance |\n|---|---|---|---|\n"
        "| 2 | 43.9 | 47.7 | 0.60-0.95 |\n| 3 | 42.0 | 50.2 | 0.42-0.90 |\n",
        tmp_path,
    )
    got = [(c.metric, c.value or list(c.range or ()), c.unit) for c in cf.claims if c.source_line > 1]
    assert sorted(got, key=str) == sorted(
        [
            ("decode_tps", 43.9, "tok/s"),
            ("decode_tps", 42.0, "tok/s"),
            ("decode_tps", 47.7, "tok/s"),
            ("decode_tps", 50.2, "tok/s"),
            ("acceptance_rate", [0.6, 0.95], "ratio"),
            ("acceptance_rate", [0.42, 0.9], "ratio"),
        ],
        key=str,
    )


def test_a_stat_card_line(tmp_path):
    """h264: a page's stat cards copied as lines, the value first ("4108 TRT-LLM TPS @ c=64")."""
    cf = _drafted(
        "## Results\n\n4108 TRT-LLM TPS @ c=64\n2917 vLLM TPS @ c=64\n22 TRT-LLM TTFT ms @ c=1\n", tmp_path
    )
    got = [
        (c.metric, c.value, c.unit, _cond(cf, c).get("engine"), _cond(cf, c).get("concurrency"))
        for c in cf.claims
    ]
    assert got == [
        ("throughput", 4108.0, "tok/s", "TensorRT-LLM", 64),
        ("throughput", 2917.0, "tok/s", "vLLM", 64),
        ("ttft", 22.0, "ms", "TensorRT-LLM", 1),
    ]
    # control: a sentence is no stat card
    cf = _drafted("We measured 4108 tokens with TRT-LLM in 30 s.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("tokens", 4108.0), ("duration", 30.0)]


def test_llama_bench_output_names_its_engine(tmp_path):
    """h255: llama-bench's table in a post that names no engine: llama.cpp ran it; a post naming
    another engine keeps it (Ollama's issue pasting llama.cpp's output is still Ollama's)."""
    table = (
        "| model | size | params | backend | ngl | test | t/s |\n|---|---:|---:|---|--:|---:|---:|\n"
        "| mistral3 14B Q8_0 | 23.33 GiB | 23.57 B | ROCm | 99 | tg128 | 30.66 ± 0.13 |\n"
    )
    cf = _drafted(f"Latest numbers:\n\n{table}", tmp_path)
    # the rate and the size column's model_size
    assert [_cond(cf, c).get("engine") for c in cf.claims] == ["llama.cpp", "llama.cpp"]
    cf = _drafted(f"Ollama 0.5.7 on the same box:\n\n{table}", tmp_path)
    assert [_cond(cf, c).get("engine") for c in cf.claims] == ["Ollama", "Ollama"]


def test_a_prompt_column_header_with_a_remark(tmp_path):
    """h257: "| n-max | P1 code (py) | P2 prose (mmap) |" over plain rates under the post's unit: each
    column is a prompt's, its remark kept."""
    cf = _drafted(
        "- Baseline: 30.7 tok/s median\n\n| n-max | P1 code (py) | P2 prose (mmap) |\n|---|---|---|\n"
        "| 2 | 47.7 | 34.3 |\n| 3 | 50.2 | 35.1 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("prompt")) for c in cf.claims if c.source_line > 1]
    assert got == [
        (47.7, "P1 code (py)"),
        (50.2, "P1 code (py)"),
        (34.3, "P2 prose (mmap)"),
        (35.1, "P2 prose (mmap)"),
    ]


@pytest.mark.parametrize(
    ("text", "quant"),
    [
        # h263: a number format the words call the weights'
        ("We ran Llama 3.3 70B Instruct at FP8 precision on an H100: 1850 tok/s.", "FP8"),
        ("BF16 weights on one card: 41 tok/s.", "BF16"),
        # h262: MXFP8 beside MXFP4
        ("Model: openai/gpt-oss-20b (GGUF MXFP8).\n\nIt ran at 132 tok/s.", "MXFP8"),
        # h260: a llama.cpp type without its underscores in a file name
        (
            "```\nllama-server -m ~/models/qwen2.5-72b-iq4xs.gguf -ngl 99\n```\n\nIt ran at 12 tok/s.",
            "iq4_xs",
        ),
        # controls: a cache's precision is no quant of the weights; FP8 alone is not read
        ("With the KV cache in FP8 precision it ran at 50 tok/s.", None),
        ("FP8 on the H100 ran at 50 tok/s.", None),
    ],
)
def test_quant_formats_in_words_and_glued_names(tmp_path, text, quant):
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("quant") for c in cf.claims] == [quant]


def test_a_try_column_is_the_run_index(tmp_path):
    """h262: LM Studio tries ("| Runtime | Try | TPS |")."""
    cf = _drafted(
        "| Runtime | Try | TPS |\n|---|---|---|\n| Vulkan | 1 | 132.75 |\n| Vulkan | 2 | 131.95 |\n", tmp_path
    )
    assert [_cond(cf, c).get("run_index") for c in cf.claims] == [1, 2]


@pytest.mark.parametrize(
    ("text", "hardware"),
    [
        ("On a Raspberry Pi 5 it runs at 6.2 tok/s.", "Raspberry Pi 5"),
        ("4× Pi 5 16GB cluster: 15.1 tok/s.", "4x Raspberry Pi 5"),
        ("A Pi 4 manages 1.1 tok/s.", "Raspberry Pi 4"),
        ("Pi 3.14 tok/s is a joke.", None),  # control: no board
        # h268: a word of what kind of units between the count and the board
        ("It runs on four CPU-only Raspberry Pi 5 boards at 15.1 tok/s.", "4x Raspberry Pi 5"),
    ],
)
def test_raspberry_pi_boards(tmp_path, text, hardware):
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == [hardware]


def test_a_comparison_tables_speedup_cells_are_ratio_statements(tmp_path):
    """h253: a llama-bench table with one "t/s <label>" column per setup and a "Speedup" column
    (compare-llama-bench's shape): each column's claim carries its label's conditions, and each row's
    Speedup is a ratio of the last column's claim over the first's."""
    cf = _drafted(
        "| model | size | threads | test | t/s (CPU only) | t/s (CPU+GPU) | Speedup |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        "| deepseek2 16B Q4_K - Medium | 9.78 GiB | 16 | pp512 | 631.03 ± 4.89 | 1066.42 ± 29.88 | 1.690 |\n"
        "| deepseek2 16B Q4_K - Medium | 9.78 GiB | 16 | tg128 | 28.70 ± 0.03 | 45.28 ± 0.05 | 1.578 |\n",
        tmp_path,
    )
    claims = {c.id: c for c in cf.claims}
    rates = [c for c in cf.claims if c.metric != "model_size"]  # and the size column's 9.78 GiB, once
    assert [c.value for c in cf.claims if c.metric == "model_size"] == [9.78]
    got = [(c.value, _cond(cf, c).get("backend"), (_cond(cf, c).get("other") or {})) for c in rates]
    assert got == [
        # a pp512 test's prompt (draftmetric.settle_tests, the corpus's convention)
        (631.03, "CPU", {"threads": 16, "prompt_tokens": 512}),
        (1066.42, None, {"threads": 16, "compare": "CPU+GPU", "prompt_tokens": 512}),
        (28.7, "CPU", {"threads": 16}),
        (45.28, None, {"threads": 16, "compare": "CPU+GPU"}),
    ]
    ratios = [(s.value, [claims[i].value for i in s.of]) for s in cf.statements]
    assert ratios == [(1.69, [1066.42, 631.03]), (1.578, [45.28, 28.7])]


def test_of_several_engines_the_one_given_a_version_ran(tmp_path):
    """h265: "Test … with vllm v0.5.2 … The same model in TensorRT-LLM achieves a 2x speedup": the
    post's own runs are vLLM's; a post giving two engines versions names no one."""
    cf = _drafted(
        "Test medusa speculative sampling with vllm v0.5.2.\nThe same model in TensorRT-LLM achieves a 2x "
        "speedup.\n\n## Results\n\nWithout Medusa: 84 tokens/s.\n",
        tmp_path,
    )
    rate = next(c for c in cf.claims if c.value == 84.0)
    assert (_cond(cf, rate).get("engine"), _cond(cf, rate).get("build")) == ("vLLM", "v0.5.2")
    cf = _drafted("vLLM 0.5.0 vs SGLang 0.2.0.\n\n## Results\n\nIt reached 84 tokens/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0]).get("engine") is None


def test_tables_copied_from_a_page_with_single_spaces(tmp_path):
    """h236: two tables of a page copied as one paragraph, single spaces between cells, labels of
    several words, a footnote mark on a value: each row's numbers are the columns' (vLLM, SGLang)."""
    cf = _drafted(
        "Time to First Token (TTFT)\n\nN = 10 queries vLLM SGLang\nMean TTFT (ms) 125.68 66.53\n"
        "P99 TTFT (ms) 427.94* 84.02\nN = 6200 queries vLLM SGLang\nMean TTFT (ms) 34.57 48.74\n"
        "P99 TTFT (ms) 79.27 153.23\n",
        tmp_path,
    )
    got = [
        (c.metric, c.value, c.unit, _cond(cf, c).get("engine"), (_cond(cf, c).get("other") or {}).get("stat"))
        for c in cf.claims
    ]
    assert got == [
        ("ttft", 125.68, "ms", "vLLM", "mean"),
        ("ttft", 66.53, "ms", "SGLang", "mean"),
        ("ttft", 427.94, "ms", "vLLM", "p99"),
        ("ttft", 84.02, "ms", "SGLang", "p99"),
        ("ttft", 34.57, "ms", "vLLM", "mean"),
        ("ttft", 48.74, "ms", "SGLang", "mean"),
        ("ttft", 79.27, "ms", "vLLM", "p99"),
        ("ttft", 153.23, "ms", "SGLang", "p99"),
    ]
    # control: prose ending in numbers is no table
    cf = _drafted("We ran it twice and got 12 13\nthen the logs said 14 15\nand more 16 17\n", tmp_path)
    assert all(c.group is None for c in cf.claims)


def test_a_number_below_the_schemas_bound_is_left_unstated(tmp_path):
    """Breaker: a batched-bench "B" of 0 (or -1) read as concurrency 0 wrote a file that would not
    load; the drafted file loads, the rows' concurrency unset."""
    cf = _drafted(
        "| PP | TG | B | S_TG t/s |\n|---|---|---|---|\n| 512 | 128 | 0 | 10.5 |\n"
        "| 512 | 128 | -1 | 11.5 |\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("concurrency")) for c in cf.claims] == [(10.5, None), (11.5, None)]


def test_tqdm_bars_under_a_log_line_are_no_table(tmp_path):
    """Breaker: vLLM's start-up bars under an "INFO … [loader.py:458]" line were read as a table of
    shares; the bars' rates are read, their progress is not. (Since session 57 the prompts a second,
    tqdm's "12.10it/s" over prompts, are read too: ``request_throughput``, as corpus h411 writes
    vLLM's and lm_eval's; the loading bar's "1.32s/it" is no result.)"""
    cf = _drafted(
        "```\nINFO 05-02 10:11:12 [loader.py:458] Loading weights took 3.21 seconds\n"
        "Loading safetensors checkpoint shards: 100%|██████████| 4/4 [00:05<00:00,  1.32s/it]\n"
        "Processed prompts: 100%|██████████| 500/500 [00:41<00:00, 12.10it/s, est. speed input: 6195.20 "
        "toks/s, output: 3098.41 toks/s]\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("request_throughput", 12.1),
        ("input_throughput", 6195.2),
        ("throughput", 3098.41),
    ]


def test_a_plural_s_in_a_header_is_no_seconds(tmp_path):
    """Breaker: "GPU(s)", "Node(s)", "Prompt token(s)", "Request(s)" headers are counts; "Time (s)"
    stays seconds; a "GPU(s)" column of small numbers is how many GPUs, no machine."""
    cf = _drafted(
        "| Model | GPU(s) | Request(s) | Time (s) | tok/s |\n|---|---|---|---|---|\n"
        "| Llama 3.1 405B FP8 | 8 | 32 | 18.4 | 1,520 |\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("duration", 18.4, "s"),
        ("decode_tps", 1520.0, "tok/s"),
    ]
    assert _cond(cf, cf.claims[1])["other"]["gpus"] == 8 and "hardware" not in _cond(cf, cf.claims[1])


def test_breaker_siblings_of_the_new_kinds(tmp_path):
    """Breaker: a "Runtime" column of wall times is results, no engine; count columns beside an
    acceptance column stay counts, never rates; "Q4_K_M / Q5_K_M / Q8_0" label pieces are quants;
    an Orange Pi is no Raspberry Pi."""
    cf = _drafted(
        "| Config | Runtime | tok/s |\n|---|---|---|\n| baseline | 42.5s | 48.2 |\n| spec | 28.1s | 72.9 |\n",
        tmp_path,
    )
    assert [(c.metric, c.value, _cond(cf, c).get("engine")) for c in cf.claims] == [
        ("duration", 42.5, None),
        ("duration", 28.1, None),
        ("decode_tps", 48.2, None),
        ("decode_tps", 72.9, None),
    ]
    cf = _drafted(
        "- Baseline: 30.7 tok/s median\n\n| n-max | Drafted | Accepted | Acceptance |\n|---|---|---|---|\n"
        "| 2 | 1024 | 655 | 0.64 |\n| 3 | 1500 | 700 | 0.47 |\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("decode_tps", 30.7),
        ("acceptance_rate", 0.64),
        ("acceptance_rate", 0.47),
    ]
    cf = _drafted(
        "| Setting | RTX 4090 |\n|---|---|\n"
        "| Q4_K_M / Q5_K_M / Q8_0 decode | 151.2 / 132.8 / 104.9 tok/s |\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("quant")) for c in cf.claims] == [
        (151.2, "Q4_K_M"),
        (132.8, "Q5_K_M"),
        (104.9, "Q8_0"),
    ]
    cf = _drafted("Orange Pi 5 Plus (RK3588) running Qwen2.5-1.5B Q4_0: 9.8 tok/s.\n", tmp_path)
    # the board's chip (session 51: Rockchip's parts by name), never a Raspberry Pi 5
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["Rockchip RK3588"]


@pytest.mark.parametrize(
    ("path", "model"),
    [
        ("/home/alex/ggml-model-q4_0.gguf", "ggml-model"),  # the user's folder names no model
        ("models/ggml-model-q4_0.gguf", "ggml-model"),
        ("~/ggml-model-f16.gguf", "ggml-model"),
        ("./models/llama-7b/ggml-model-q4_0.gguf", "llama-7b"),
    ],
)
def test_a_ggml_model_file_takes_only_a_model_folders_name(path, model):
    assert model_and_quant(path)[0] == model


@pytest.mark.parametrize(
    "line",
    [
        # breaker: a setup that did not run, listed the same way, declares nothing
        "My other box is an RTX 3060 12GB, Ubuntu 22.04, llama.cpp b4500, CUDA 12.2, but I didn't test it.",
        "Things I tried that did not help: flash attention on, mmap off, ubatch 1024, 8 threads.",
    ],
)
def test_a_listed_setup_that_did_not_run_declares_nothing(line):
    assert settings_sentences(line) == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the new user's post and h228: a power draw in watts is a claim, never dropped as a name
        ("Edit: the card pulled ~410W under vLLM.", [("power", 410.0, "W")]),
        ("Power consumed: 260W", [("power", 260.0, "W")]),
        # controls: the W7900 is a card; a power the card is set to is no draw
        ("Two W7900 cards ran at 30 tok/s.", [("decode_tps", 30.0, "tok/s")]),
        ("A 450 W power limit gave 40 tok/s.", [("decode_tps", 40.0, "tok/s")]),
        ("Still pulling 52.8 tok/s at 250W.", [("decode_tps", 52.8, "tok/s")]),
    ],
)
def test_a_power_draw_in_watts(tmp_path, text, want):
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == want

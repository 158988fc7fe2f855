"""Numbers and metrics of `benchbook claims draft` (issue 29's "numbers captured with the right value,
unit and precision" and "the right metric"), by kind: each kind with its drafted values exactly and a
control that must not change.  Texts are made up in the field's style; the metric names follow the
draft corpus's conventions (tests/fixtures/draft_corpus/SOURCES.md, its header)."""

from __future__ import annotations

from benchbook.audit import schema
from benchbook.audit.draftprose import bound_of, numbers
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit, c.about) for c in cf.claims]


# --- units: "tk/s", a time word joined by a hyphen, an arrow before a number ----------------------


def test_tk_per_second_is_a_rate():
    got = [(n.text, n.unit, n.about) for n in numbers("about ~45tk/s decode, 800 tk/s prefill; 3 tks")]
    assert got == [("45", "tok/s", True), ("800", "tok/s", False), ("3", None, False)]


def test_time_word_joined_by_a_hyphen_is_the_unit():
    got = [(n.text, n.unit) for n in numbers("it needs 20-minute rebuilds and a 3-hour soak; 10-20 minutes")]
    assert got == [("20", "min"), ("3", "h"), ("10–20", "min")]
    # control: a hyphen before another word states no number ("4-bit"), nor before a token count
    assert [(n.text, n.unit) for n in numbers("a 4-bit cache, 512-token prompt")] == []


def test_arrow_before_a_number_is_no_bound():
    text = "MyEngine -->  48.20 tok/s, other => 31 t/s"
    assert [bound_of(text, n) for n in numbers(text)] == [None, None]
    # control: ">" alone is a lower bound
    text = "it stays > 40 t/s"
    assert [bound_of(text, n) for n in numbers(text)] == ["above"]


def test_arrow_line_drafts_a_claim(tmp_path):
    cf = _drafted("My fork -->  52.75 token / sec !!  (same prompt)\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 52.75, "tok/s", False)]
    assert cf.statements == []


# --- a table whose cells are parted by single spaces (its pipes lost) -----------------------------


def test_table_parted_by_single_spaces(tmp_path):
    cf = _drafted("Results\n\nname time(s) memory(GiB)\nfoo-3B 4.1 6.5\nbar-7B 7.9 11.0\n", tmp_path)
    assert [(c.metric, c.value, c.unit, c.source_line) for c in cf.claims] == [
        ("duration", 4.1, "s", 4),
        ("duration", 7.9, "s", 5),
        ("memory_used", 6.5, "GiB", 4),
        ("memory_used", 11.0, "GiB", 5),
    ]


def test_prose_lines_ending_in_numbers_are_no_table():
    from benchbook.audit.post import spaced_rows

    # control: a paragraph whose lines hold words between the numbers, or a header with a number
    assert spaced_rows([(1, "we ran 3 times"), (2, "got 12 tok/s"), (3, "then 14 tok/s")]) is None
    assert spaced_rows([(1, "run 1 2"), (2, "a 4.1 6.5"), (3, "b 7.9 11.0")]) is None
    assert spaced_rows([(1, "name time"), (2, "a 4.1"), (3, "b 7.9")]) == (
        [["name", "time"], ["a", "4.1"], ["b", "7.9"]],
        [1, 2, 3],
    )


# --- metrics by the corpus's conventions (SOURCES.md's header) ------------------------------------


def _metrics(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value if c.value is not None else c.range) for c in cf.claims]


def test_memory_of_no_named_kind_is_memory_used(tmp_path):
    cf = _drafted(
        "Memory usage was 9.1 GiB. 内存占用 4.2 GB.\n\n"
        "It also took 3.3 GB of system RAM and 2.5 GB of host memory; the card held 7.7 GB of VRAM.\n",
        tmp_path,
    )
    # control: host memory named (RAM, system/host memory) stays ram, GPU memory vram
    assert _metrics(cf) == [
        ("memory_used", 9.1),
        ("memory_used", 4.2),
        ("ram", 3.3),
        ("ram", 2.5),
        ("vram", 7.7),
    ]


def test_llama_cpp_timing_lines_keep_the_log_checks_names(tmp_path):
    cf = _drafted(
        "```\nllama_perf_sampler_print:    sampling time =      12.50 ms /   101 runs\n"
        "llama_perf_context_print:        load time =     950.00 ms\n"
        "llama_perf_context_print: prompt eval time =     300.00 ms /    30 tokens\n"
        "llama_perf_context_print:        eval time =    4000.00 ms /   100 runs\n"
        "llama_perf_context_print:       total time =    4500.00 ms /   130 tokens\n```\n",
        tmp_path,
    )
    assert _metrics(cf) == [
        ("sampling_ms", 12.5),
        ("load_time", 950.0),  # control: the schema's load time keeps its name
        ("prompt_eval_ms", 300.0),
        ("eval_ms", 4000.0),
        ("total_ms", 4500.0),
    ]


def test_vllm_summary_rates_by_their_labels(tmp_path):
    cf = _drafted(
        "```\nInput token throughput (tok/s):          812.50\n"
        "Output token throughput (tok/s):         95.25\n"
        "Peak output token throughput (tok/s):    130.00\n"
        "Total token throughput (tok/s):          907.75\n```\n",
        tmp_path,
    )
    assert _metrics(cf) == [
        ("input_throughput", 812.5),
        ("throughput", 95.25),  # control: vLLM's output rate over wall time stays throughput
        ("peak_throughput", 130.0),
        ("total_throughput", 907.75),
    ]


def test_vllm_tqdm_line_rates_and_step_time(tmp_path):
    cf = _drafted(
        "* base: [01:10<00:00,  2.05s/it, est. speed input: 33.10 toks/s, output: 98.20 toks/s]\n", tmp_path
    )
    assert _metrics(cf) == [("latency", 2.05), ("input_throughput", 33.1), ("throughput", 98.2)]


def test_rate_followed_by_prompt_is_the_prompts(tmp_path):
    cf = _drafted(
        "I get ~150 tok/s prompt and ~12 tok/s inference.\n\nWith a 512-token prompt it ran at 30 tok/s.\n",
        tmp_path,
    )
    # control: "prompt" before a number names the workload, not the rate
    assert _metrics(cf) == [("prefill_tps", 150), ("decode_tps", 12), ("decode_tps", 30)]


def test_rate_of_several_streams_is_throughput(tmp_path):
    cf = _drafted(
        "# Serving test\n\n"
        "| | Throughput (tok/s) |\n|---|---|\n| C1 | 41.5 |\n| C8 | 201.0 |\n\n"
        "- Single stream rate: 40–44 tokens/sec\n- 8-stream rate: 180–205 tokens/sec\n\n"
        "The other engine reached 77 tokens/sec at batch size 8, while ours reached 33 tokens/sec.\n",
        tmp_path,
    )
    assert _metrics(cf) == [
        ("decode_tps", (40, 44)),
        ("throughput", (180, 205)),
        ("throughput", 77),
        ("decode_tps", 33),  # control: the batch of another clause is not this rate's
        ("decode_tps", 41.5),  # a bare "Throughput" of one stream is its decode rate
        ("throughput", 201.0),
    ]


def test_one_streams_rate_stays_decode_tps(tmp_path):
    cf = _drafted(
        "```\nllama-server -m m.gguf -np 4 -ngl 99\n```\n\nIn one chat I get 55 tok/s.\n\n"
        "| Test | c | tg t/s |\n|---|---|---|\n| tg128 | c1 | 30.5 |\n| tg128 | c4 | 24.1 |\n",
        tmp_path,
    )
    # a server's parallel slots (-np 4) serve one request all the same; llama-benchy's "tg t/s" at c4
    # is each request's own decode rate
    assert _metrics(cf) == [("decode_tps", 55), ("decode_tps", 30.5), ("decode_tps", 24.1)]


# --- a rate's unit named once before its numbers --------------------------------------------------


def test_rate_named_once_before_its_numbers(tmp_path):
    cf = _drafted(
        "- Total TPS rose from 51.30 at 1 request to 402.75 at 32 requests.\n"
        "- Peak TPS by model: Alpha 7B 310 vs 145; Beta 3B 220 vs 180.\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("throughput", 51.3, "tok/s"),  # "Total TPS": a sum, whatever ran
        ("throughput", 402.75, "tok/s"),
        ("peak_throughput", 310, "tok/s"),
        ("peak_throughput", 145, "tok/s"),
        ("peak_throughput", 220, "tok/s"),
        ("peak_throughput", 180, "tok/s"),
    ]
    # control: the whole numbers counting requests ("at 1 request", "32 requests") take no unit


def test_rate_of_requests_run_at_once_is_throughput(tmp_path):
    cf = _drafted(
        "Ours reached 88.5 tok/s at 16 concurrent requests and 40.5 tok/s with 1 request.\n", tmp_path
    )
    assert _metrics(cf) == [("throughput", 88.5), ("decode_tps", 40.5)]


def test_rate_word_without_a_pair_or_decimals_gives_no_unit(tmp_path):
    # control: after "TPS", a whole number alone is a count of something else
    cf = _drafted("We measured TPS on 3 machines over 20 runs.\n", tmp_path)
    assert cf.claims == []


def test_labels_joined_by_a_slash_name_their_values(tmp_path):
    cf = _drafted("- Prose wall/decode: **90.25 / 97.50 tok/s**\n", tmp_path)
    # the first value is the wall-clock rate (a sum over the run: throughput), the second the decode rate
    assert _metrics(cf) == [("throughput", 90.25), ("decode_tps", 97.5)]
    # control: a list under one label keeps the label's metric for each value
    (tmp_path / "b").mkdir()
    cf = _drafted("- Decode runs: 40.25 / 41.50 tok/s\n", tmp_path / "b")
    assert _metrics(cf) == [("decode_tps", 40.25), ("decode_tps", 41.5)]


def test_kv_cache_and_prompt_eval_labels(tmp_path):
    cf = _drafted(
        "```\n                  a        b\nKV cache (MiB)    48.00    26.00\n"
        "Model size (MiB)  900.00   480.00\n```\n\n"
        "| ctx | Prompt Eval (ms) | prompt eval duration (ms) |\n|---|---|---|\n| 512 | 31.5 | 40.5 |\n",
        tmp_path,
    )
    # control: a model's size stays model_size; Ollama's "prompt eval duration" is a duration
    assert _metrics(cf) == [
        ("kv_cache_size", 48.0),
        ("kv_cache_size", 26.0),
        ("model_size", 900.0),
        ("model_size", 480.0),
        ("prompt_eval_ms", 31.5),
        ("duration", 40.5),
    ]


def test_list_lead_in_names_the_metric(tmp_path):
    cf = _drafted(
        "Results for time to first token:\n\n- long prompt: 2100 ms before, 900 ms after\n", tmp_path
    )
    assert _metrics(cf) == [("ttft", 2100), ("ttft", 900)]
    # control: with no line introducing it, a time of no named kind is a duration
    (tmp_path / "b").mkdir()
    cf = _drafted("- long prompt: 2100 ms before, 900 ms after\n", tmp_path / "b")
    assert _metrics(cf) == [("duration", 2100), ("duration", 900)]


# --- hardware specifications are no claims (SOURCES.md: they go under systems) --------------------


def test_machine_ram_in_a_parts_list_is_no_claim(tmp_path):
    cf = _drafted(
        "All runs on: RTX 4070 12GB, Ryzen 7 7700X, 96GB RAM.\n\n"
        "- RAM: 128 GiB\n- Memory: 36 GB unified\n\n"
        "The run used 14 GB RAM on the RTX 4070 box, and 9.5 GB of system RAM elsewhere.\n",
        tmp_path,
    )
    # control: a size the run used stays a claim, with or without "of"
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("ram", 14, "GB"), ("ram", 9.5, "GB")]


def test_time_word_of_a_label_is_no_unit(tmp_path):
    cf = _drafted(
        "| 모델 | 로딩 시간 | 처리 시간 |\n|---|---|---|\n| A | 3.5초 | 2 |\n| B | 4.0초 | 3 |\n", tmp_path
    )
    # "로딩 시간" is "loading time": the cells' 초 (seconds), a load time; control: a cell with no unit
    # under "처리 시간" ("processing time") takes no hours from the header either
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("load_time", 3.5, "s"),
        ("load_time", 4.0, "s"),
    ]


def test_paragraph_of_labelled_lines_is_read_line_by_line(tmp_path):
    cf = _drafted(
        "**run 2**\nprompt eval count:    **410 token(s)**\neval rate:            **31.25 tokens/s**\n",
        tmp_path,
    )
    # an ``ollama run --verbose`` paste as text: no table of one column
    assert [(c.metric, c.value, c.unit) for c in cf.claims if c.unit != "tokens"] == [
        ("decode_tps", 31.25, "tok/s")
    ]


def test_peak_rate_is_peak_throughput_unless_one_stream(tmp_path):
    cf = _drafted(
        "| Engine | Tokens/Sec (Peak) |\n|---|---|\n| A | 210.5 |\n| B | 88.25 |\n\n"
        "Our single stream peak was 61.5 tok/s.\n",
        tmp_path,
    )
    # control: a peak its words give to one stream is that stream's decode rate
    assert _metrics(cf) == [("decode_tps", 61.5), ("peak_throughput", 210.5), ("peak_throughput", 88.25)]


def test_ollama_ps_size_beside_its_processor_split_is_memory_used(tmp_path):
    cf = _drafted(
        "| Model | VRAM | Processor | tok/s |\n|---|---|---|---|\n"
        "| a:7b | 6 GB | 100% GPU | 80.5 |\n| b:70b | 48 GB | 40%/60% | 9.5 |\n\n"
        "| Model | VRAM used |\n|---|---|\n| c:7b | 5.5 GB |\n| d:14b | 9.5 GB |\n",
        tmp_path,
    )
    # control: a VRAM column with no CPU/GPU split beside it stays vram
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "GB"] == [
        ("memory_used", 6),
        ("memory_used", 48),
        ("vram", 5.5),
        ("vram", 9.5),
    ]


def test_time_that_is_the_inverse_of_its_rate_is_per_token(tmp_path):
    cf = _drafted("Run: total 25.00 ms, 40.00 tok/sec.\n\nRun: total 900.00 ms, 40.00 tok/sec.\n", tmp_path)
    # control: a time that is no inverse of the rate beside it stays a duration
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "ms"] == [
        ("ms_per_token", 25),
        ("duration", 900),
    ]


def test_minutes_and_seconds_written_together():
    got = [(n.text, n.unit) for n in numbers("took 2m15s, then 1m 07.5s and 40s")]
    assert got == [("135", "s"), ("67.5", "s"), ("40", "s")]
    # control: "7m" alone (a size, a count) is no time
    assert [(n.text, n.unit) for n in numbers("a 7m model, 5m")] == []

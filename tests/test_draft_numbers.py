"""Numbers `benchbook claims draft` captures from kinds of text it read poorly (issue 29): tool and
log output in code blocks (llama.cpp timing lines, ``ollama run --verbose``, vLLM/SGLang serving
summaries, ``key=value`` and JSON keys naming a unit, TAP lines), units and "about" words in other
languages, bounds in words and signs.  Each kind has its drafted values exactly (value, unit,
decimals, about or range, metric) and a control that must not fire (a version, a port, a GPU)."""

from __future__ import annotations

from benchbook.audit import schema
from benchbook.audit.toollines import tool_results
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit, c.decimals, c.about) for c in cf.claims]


def _stat(cf: schema.ClaimsFile, c: schema.Claim) -> str | None:
    return (cf.conditions_of(c).other or {}).get("stat")


# --- llama.cpp timing lines (tools/server print_timing, llama_perf_context_print) -------------------

LLAMA_PERF = (
    "llama_perf_sampler_print:    sampling time =      18.72 ms /   202 runs   (    0.09 ms per token, "
    " 10790.60 tokens per second)\n"
    "llama_perf_context_print:        load time =     728.24 ms\n"
    "llama_perf_context_print: prompt eval time =     519.43 ms /    56 tokens (    9.28 ms per token,"
    "   107.81 tokens per second)\n"
    "llama_perf_context_print:        eval time =    1991.26 ms /   159 runs   (   12.52 ms per token,"
    "    79.85 tokens per second)\n"
    "llama_perf_context_print:       total time =    2674.12 ms /   215 tokens\n"
    "llama_perf_context_print:    graphs reused =        201\n"
)


def test_llama_perf_lines_of_an_uncited_log_are_claims(tmp_path):
    cf = _drafted(f"# Run\n\n```\n{LLAMA_PERF}```\n", tmp_path)
    # every number the lines state: each time, ms per token and tokens per second (the sampler's too)
    assert _rows(cf) == [
        ("sampling_ms", 18.72, "ms", 2, False),
        ("ms_per_token", 0.09, "ms", 2, False),
        ("sampling_tps", 10790.6, "tok/s", 2, False),
        ("load_time", 728.24, "ms", 2, False),
        ("prompt_eval_ms", 519.43, "ms", 2, False),
        ("ms_per_token", 9.28, "ms", 2, False),
        ("prefill_tps", 107.81, "tok/s", 2, False),
        ("eval_ms", 1991.26, "ms", 2, False),
        ("ms_per_token", 12.52, "ms", 2, False),
        ("decode_tps", 79.85, "tok/s", 2, False),
        ("total_ms", 2674.12, "ms", 2, False),
    ]
    decode = cf.claims[9]
    assert cf.conditions_of(decode).tokens_generated == 159  # llama.cpp counts a run per token
    assert decode.method == "llama_perf_context_print" and decode.log == "post-l4.log"
    assert decode.source_line == 7
    per_token = cf.claims[5]
    assert (cf.conditions_of(per_token).other or {}).get("phase") == "prompt eval"
    # the "/ 56 tokens" and "215 tokens" counts are the lines' conditions, not claims
    assert not [c for c in cf.claims if c.unit == "tokens"]


def test_llama_server_timings_cited_by_prose_stay_evidence(tmp_path):
    # the prose states the rate of the log after it: the log is the evidence, not three more claims
    cf = _drafted(
        "# Run\n\n```\n"
        "prompt eval time =     212.40 ms /    61 tokens (    3.48 ms per token,"
        "   287.19 tokens per second)\n"
        "       eval time =   21516.39 ms /   525 tokens (   40.98 ms per token,"
        "    24.40 tokens per second)\n"
        "      total time =   21728.79 ms /   586 tokens\n```\n\n"
        "That is 24.4 tok/s on the coding prompt.\n",
        tmp_path,
    )
    assert _rows(cf) == [("decode_tps", 24.4, "tok/s", 1, False)]
    assert cf.claims[0].log == "post-l4.log"


#: llama-server's log as it prints it now (``common_log``: minutes.seconds.ms.us and the level letter
#: before each line; ``slot print_timing: id N | task N |`` before the figures), made up
SERVER_LOG = (
    "0.12.104.311 I slot print_timing: id  0 | task 3 | prompt eval time =     412.50 ms /    40 tokens"
    " (   10.31 ms per token,    96.97 tokens per second)\n"
    "0.12.104.330 I slot print_timing: id  0 | task 3 |        eval time =    3120.00 ms /   200 tokens"
    " (   15.60 ms per token,    64.10 tokens per second)\n"
)


def test_timestamped_server_timing_lines_are_a_log_not_a_table(tmp_path):
    """Issue 29 (a llama.cpp pull request comment pasted its server log): two ``print_timing`` lines
    with pipes were read as a two-row table (cells "id  0", "task 3"); they are a log excerpt whose
    timing lines, cited by nothing, are its claims, each naming the log."""
    cf = _drafted(f"# Baseline\n\n```text\n{SERVER_LOG}```\n", tmp_path)
    assert _rows(cf) == [
        ("prompt_eval_ms", 412.5, "ms", 2, False),
        ("ms_per_token", 10.31, "ms", 2, False),
        ("prefill_tps", 96.97, "tok/s", 2, False),
        ("eval_ms", 3120.0, "ms", 2, False),
        ("ms_per_token", 15.6, "ms", 2, False),
        ("decode_tps", 64.1, "tok/s", 2, False),
    ]
    assert {c.log for c in cf.claims} == {"post-l4.log"}
    assert [c.id for c in cf.claims][:2] == ["prompt-eval-ms-l4", "ms-per-token-l4"]


def test_a_pipe_table_whose_label_cells_hold_a_colon_stays_a_table_control(tmp_path):
    # control: a drawn table without outer pipes whose label cells hold "word: setting" (no
    # function's name, no log prefix) is no program's log
    cf = _drafted(
        "```\nmode: draft      | pp512 t/s | tg128 t/s\nplain run: n=0   | 1200.5    | 64.2\n"
        "spec run: n=4    | 1190.1    | 98.7\n```\n",
        tmp_path,
    )
    assert sorted(c.value for c in cf.claims) == [64.2, 98.7, 1190.1, 1200.5]
    assert all(c.log is None for c in cf.claims)


def test_a_claim_read_from_the_log_itself_does_not_make_its_timings_cited(tmp_path):
    """Issue 29: the log's own acceptance line drafted as a claim named the log, so its timing lines
    were taken as prose-cited evidence and dropped (1 claim of 8); only a claim from a line outside
    the log cites it."""
    log = SERVER_LOG + (
        "0.12.104.340 I slot print_timing: id  0 | task 3 | draft acceptance = 0.75000 (  120 accepted /"
        "   160 generated)\n"
    )
    cf = _drafted(f"# Spec\n\n```\n{log}```\n", tmp_path)
    assert [c.metric for c in cf.claims] == [
        "prompt_eval_ms",
        "ms_per_token",
        "prefill_tps",
        "eval_ms",
        "ms_per_token",
        "decode_tps",
        "acceptance_rate",
    ]
    # control: the same log with a sentence after it stating its rate stays evidence
    cf = _drafted(f"# Spec\n\n```\n{log}```\n\nThat is 64.1 tok/s with the draft.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims if c.source_line > 6] == [("decode_tps", 64.1)]
    assert "eval_ms" not in [c.metric for c in cf.claims]


def test_llama_print_timings_old_wording_and_inf_rate():
    got = tool_results(
        [
            (
                1,
                "llama_print_timings:        eval time =    5631.16 ms /   127 runs   (   44.34 ms per token,"
                "    22.55 tokens per second)",
            ),
            (
                2,
                "common_perf_print:        eval time =       0.00 ms /     1 runs   (    0.00 ms per token,"
                "      inf tokens per second)",
            ),
        ],
        code=False,
    )
    # the 0.00 ms line of a phase that did not run states its times as printed (issue 29's corpus p201,
    # h516), not its rate (inf)
    assert [(r.line, r.metric, r.value, r.unit, r.conditions, r.method) for r in got] == [
        (1, "eval_ms", "5631.16", "ms", {"tokens_generated": 127}, "llama_print_timings"),
        (
            1,
            "ms_per_token",
            "44.34",
            "ms",
            {"tokens_generated": 127, "other": {"phase": "eval"}},
            "llama_print_timings",
        ),
        (1, "decode_tps", "22.55", "tok/s", {"tokens_generated": 127}, "llama_print_timings"),
        (2, "eval_ms", "0.00", "ms", {"tokens_generated": 1}, "common_perf_print"),
        (
            2,
            "ms_per_token",
            "0.00",
            "ms",
            {"tokens_generated": 1, "other": {"phase": "eval"}},
            "common_perf_print",
        ),
    ]


# --- labelled lines: ollama --verbose, vLLM / SGLang serving summaries, scripts ------------------


def test_ollama_verbose_block(tmp_path):
    cf = _drafted(
        "```\ntotal duration:       1.785964042s\nload duration:        24.891208ms\n"
        "prompt eval count:    26 token(s)\nprompt eval duration: 159.531ms\n"
        "prompt eval rate:     162.98 tokens/s\neval count:           41 token(s)\n"
        "eval duration:        1.599716s\neval rate:            25.63 tokens/s\n```\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("duration", 1.785964042, "s", 9, False),
        ("load_time", 24.891208, "ms", 6, False),
        ("tokens", 26, "tokens", 0, False),
        ("duration", 159.531, "ms", 3, False),
        ("prefill_tps", 162.98, "tok/s", 2, False),
        ("tokens", 41, "tokens", 0, False),
        ("duration", 1.599716, "s", 6, False),
        ("decode_tps", 25.63, "tok/s", 2, False),
    ]


def test_vllm_benchmark_serving_summary(tmp_path):
    cf = _drafted(
        "```\n============ Serving Benchmark Result ============\n"
        "Successful requests:                     1000      \n"
        "Benchmark duration (s):                  45.12     \n"
        "Total input tokens:                      215196    \n"
        "Request throughput (req/s):              22.16     \n"
        "Output token throughput (tok/s):         4111.93   \n"
        "---------------Time to First Token----------------\n"
        "Mean TTFT (ms):                          10420.61  \n"
        "Median TTFT (ms):                        9765.33   \n"
        "P99 TTFT (ms):                           27520.83  \n"
        "-----Time per Output Token (excl. 1st token)------\n"
        "Mean TPOT (ms):                          47.87     \n"
        "---------------Inter-token Latency----------------\n"
        "Median ITL (ms):                         29.01     \n"
        "==================================================\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit, c.decimals, _stat(cf, c)) for c in cf.claims] == [
        ("duration", 45.12, "s", 2, None),
        ("tokens", 215196, "tokens", 0, None),
        ("request_throughput", 22.16, "req/s", 2, None),
        ("throughput", 4111.93, "tok/s", 2, None),
        ("ttft", 10420.61, "ms", 2, "mean"),
        ("ttft", 9765.33, "ms", 2, "median"),
        ("ttft", 27520.83, "ms", 2, "p99"),
        ("tpot", 47.87, "ms", 2, "mean"),
        ("itl", 29.01, "ms", 2, "median"),
    ]  # "Successful requests: 1000" states no unit: no claim


def test_script_output_floats_printed_whole_are_exact(tmp_path):
    cf = _drafted(
        "```text\nresult\nfirst token:  0.04074668884277344s\ndecode time:  14.328832149505615s\n"
        "output token:  1000\ndecode speed:  69.78935823702163 token/s\n```\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("ttft", 0.04074668884277344, "s", None, False),
        ("duration", 14.328832149505615, "s", None, False),
        ("tokens", 1000, "tokens", 0, False),
        ("decode_tps", 69.78935823702163, "tok/s", None, False),
    ]


def test_keys_naming_units_and_tap_lines(tmp_path):
    cf = _drafted(
        '```\nttft_ms=230 decode_tps=41.2 port=8080\n{"wall_s_total": 21.86, "max_tokens": 256, '
        '"timeout_s": 600, "vram_peak_mib": 20480}\n```\n\n'
        "```\nTAP version 13\nok 1 - decode 41.2 t/s >= 40\n"
        "not ok 2 - prefill 812.5 tok/s >= 900\n1..2\n```\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("ttft", 230, "ms", 0, False),
        ("decode_tps", 41.2, "tok/s", 1, False),
        ("duration", 21.86, "s", 2, False),
        ("vram_peak", 20480, "MiB", 0, False),
        ("decode_tps", 41.2, "t/s", 1, False),
        ("prefill_tps", 812.5, "tok/s", 1, False),
    ]  # the port, max_tokens, timeout and the TAP thresholds 40 and 900 are no results


def test_tool_output_controls_product_names_versions_ports(tmp_path):
    cf = _drafted(
        "```\nggml_cuda_init: found 1 CUDA devices:\n"
        "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n"
        "compute capability: 8.9\nclang version 18.1.8\nport: 8080\nGPU: RTX 4080,16GB\n"
        "Memory: 16 GB\nCPU:  3950X\nmain: server is listening on http://127.0.0.1:8080\n"
        "Merged PR:   #1234\n```\n",
        tmp_path,
    )
    assert cf.claims == []


def test_aligned_metric_rows_with_units_in_labels(tmp_path):
    cf = _drafted(
        "```\nMetric           Value\nPrompt tok/s     812.4\nDecode tok/s     41.2\nTTFT (ms)        230\n"
        "VRAM used (GiB)  20.1\n```\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("prefill_tps", 812.4, "tok/s", 1, False),
        ("decode_tps", 41.2, "tok/s", 1, False),
        ("ttft", 230, "ms", 0, False),
        ("vram", 20.1, "GiB", 1, False),
    ]


# --- prose in other languages: units, "about" words before and after, glued to CJK text -----------


def test_cjk_units_and_about_words_glued_to_text(tmp_path):
    cf = _drafted(
        "在4090上速度约50token/s，首字延迟 120毫秒左右。\n\n"
        "生成速度为 30 个令牌/秒。\n\n"
        "処理速度は約25トークン/秒で、レイテンシは200ミリ秒ほどでした。\n\n"
        "지연 시간은 150밀리초 정도입니다.\n\n"
        "Das Modell schafft etwa 35 Token/s; примерно 20 токенов/с.\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("decode_tps", 50, "tok/s", 0, True),
        ("ttft", 120, "ms", 0, True),  # 首字延迟, the first token's latency: TTFT
        ("decode_tps", 30, "tok/s", 0, False),
        ("decode_tps", 25, "tok/s", 0, True),
        ("latency", 200, "ms", 0, True),
        ("latency", 150, "ms", 0, True),
        ("decode_tps", 35, "tok/s", 0, True),
        ("decode_tps", 20, "tok/s", 0, True),
    ]  # the card's "4090" glued to the Chinese text is a name, no claim


def test_units_in_a_table_header_of_any_script(tmp_path):
    cf = _drafted(
        "| 模型 | 推理速度（token/s） | 每秒生成的令牌数 |\n|---|---|---|\n| Qwen2-7B | 45.6 | 44 |\n\n"
        "| Chip | Theoretical max (5.1 GB model) |\n|---|---|\n| M4 Pro | ~53 tok/s |\n",
        tmp_path,
    )
    assert [
        (c.metric or cf.group_of(c).metric, c.value, c.unit or cf.group_of(c).unit) for c in cf.claims
    ] == [
        ("decode_tps", 45.6, "tok/s"),
        ("decode_tps", 44, "tok/s"),
        ("decode_tps", 53, "tok/s"),  # the header's GB is its 5.1's: the column's unit is its cells'
    ]


def test_rate_and_time_per_token_spellings(tmp_path):
    cf = _drafted(
        "Decoding ran at 45 ms/token, 0.8 s/token on the CPU, about 500 tokens per minute, "
        "12 tok/sec and 1 token per second at worst.\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("ms_per_token", 45, "ms", 0, False),
        ("ms_per_token", 0.8, "s", 1, False),
        ("decode_tps", 500, "tok/min", 0, True),
        ("decode_tps", 12, "tok/s", 0, False),
        ("decode_tps", 1, "tok/s", 0, False),
    ]


# --- bounds: signs and words before or after the number, in several languages ---------------------


def _bounds(cf: schema.ClaimsFile) -> list[tuple]:
    return [
        (s.relation, s.value, s.unit, s.over.numerator.get("metric"))
        for s in cf.statements
        if s.kind == "bound"
    ]


def test_bounds_in_words_before_and_after(tmp_path):
    cf = _drafted(
        "显存占用超过10GB。\n\n速度不到5 tokens/s。\n\nモデルは10GB以上のVRAMが必要。\n\n"
        "処理は5 tok/s未満でした。\n\n속도는 20 토큰/초 이상입니다.\n\n"
        "Generation reached 40 tok/s or more. Es braucht mehr als 20 GB VRAM.\n",
        tmp_path,
    )
    assert cf.claims == []  # a bound states no value: never the bare number
    assert _bounds(cf) == [
        ("above", 10, "GB", "vram"),
        ("below", 5, "tok/s", "decode_tps"),
        ("above", 10, "GB", "vram"),
        ("below", 5, "tok/s", "decode_tps"),
        ("above", 20, "tok/s", "decode_tps"),
        ("above", 40, "tok/s", "decode_tps"),
        ("above", 20, "GB", "vram"),
    ]


def test_bound_controls_a_range_and_a_plain_value(tmp_path):
    cf = _drafted("Скорость от 10 до 50 ток/с. Decoding ran at 42 tok/s over the whole run.\n", tmp_path)
    assert _bounds(cf) == []
    # "от 10 до 50": a range (Russian writes a range so), no bound
    assert [(c.value, c.range, c.unit) for c in cf.claims] == [(None, (10, 50), "tok/s"), (42, None, "tok/s")]


def test_sglang_bench_serving_summary(tmp_path):
    cf = _drafted(
        "```\n============ Serving Benchmark Result ============\n"
        "Backend:                                 sglang    \n"
        "Traffic request rate:                    inf       \n"
        "Max request concurrency:                 not set   \n"
        "Successful requests:                     1000      \n"
        "Total generated tokens (retokenized):    195884    \n"
        "Input token throughput (tok/s):          3832.24   \n"
        "Concurrency:                             512.48    \n"
        "----------------End-to-End Latency----------------\n"
        "Mean E2E Latency (ms):                   45306.67  \n"
        "==================================================\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit, c.decimals, _stat(cf, c)) for c in cf.claims] == [
        ("tokens", 195884, "tokens", 0, None),
        ("input_throughput", 3832.24, "tok/s", 2, None),  # prompt tokens over wall time
        ("latency", 45306.67, "ms", 2, "mean"),
    ]  # the backend, the request rate and the concurrency reached are no results with a unit


def test_perplexity_lines(tmp_path):
    cf = _drafted(
        "```\nctx=4096  turbo2: PPL=1.79  (baseline 1.76, Δ=0.03 ✓)\n"
        "Final estimate: PPL = 5.9066 +/- 0.03336\n```\n",
        tmp_path,
    )
    got = [(c.metric, c.value, c.unit, c.decimals, c.spread, cf.conditions_of(c).ctx) for c in cf.claims]
    assert got == [
        ("perplexity", 1.79, "PPL", 2, None, 4096),
        ("perplexity", 1.76, "PPL", 2, None, 4096),  # the baseline's, and the difference, beside it
        ("perplexity_delta", 0.03, "PPL", 2, None, 4096),
        ("perplexity", 5.9066, "PPL", 4, 0.03336, None),
    ]


def test_llama_memory_breakdown_rows(tmp_path):
    cf = _drafted(
        "```\nllama_memory_breakdown_print: | memory breakdown [MiB] | total   free    self   model   context"
        "   compute    unaccounted |\n"
        "llama_memory_breakdown_print: |   - CUDA0 (RTX 4090)   | 24080 = 1234 + (21000 = 18000 +    2000 +"
        "     1000) +         1846 |\n"
        "llama_memory_breakdown_print: |   - Host               |                 2580 =   685 +    1500 +"
        "     395                |\n"
        "llama_memory_breakdown_print: |   - CPU_REPACK         |                  482 =   482 +       0 +"
        "       0                |\n```\n",
        tmp_path,
    )
    got = [(c.metric, c.value, c.unit, cf.conditions_of(c).other["component"]) for c in cf.claims]
    assert got == [
        ("vram", 18000, "MiB", "CUDA0 (RTX 4090) model"),
        ("vram", 2000, "MiB", "CUDA0 (RTX 4090) context"),
        ("vram", 1000, "MiB", "CUDA0 (RTX 4090) compute"),
        ("ram", 685, "MiB", "Host model"),
        ("ram", 1500, "MiB", "Host context"),
        ("ram", 395, "MiB", "Host compute"),
        ("ram", 482, "MiB", "CPU_REPACK model"),
    ]  # the device's total and free memory describe the card; zero parts state nothing


def test_json_acceptance_fraction_and_its_control(tmp_path):
    cf = _drafted('```json\n{"aggregate_accept_rate": 0.9393, "accept_threshold": 3}\n```\n', tmp_path)
    assert [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims] == [
        ("acceptance_rate", 0.9393, "ratio", 4)
    ]  # a count or setting above 1 is no fraction


# --- units glued to a word, units in Cyrillic, "prompt eval rate" ----------------------------------


def test_cyrillic_sizes_and_prompt_eval_rate(tmp_path):
    text = "Модель занимает 44.5 ГБ. Ollama: prompt eval rate 46 toks, eval rate 12.5 toks.\n"
    cf = _drafted(text, tmp_path)
    assert _rows(cf) == [
        ("model_size", 44.5, "GB", 1, False),
        ("prefill_tps", 46, "tok/s", 0, False),  # not the later "eval rate"'s decode
        ("decode_tps", 12.5, "tok/s", 1, False),
    ]


def test_unit_glued_to_a_word_is_no_unit():
    from benchbook.audit.draftprose import numbers

    assert [(n.text, n.unit) for n in numbers("PPL 6.12, 8 PPL, 12 GB, 5 msec")] == [
        ("6.12", None),
        ("8", None),  # "PP" of "PPL" is no rate
        ("12", "GB"),
        ("5", "ms"),
    ]


# --- several label: value parts on one line; numbers a code block cannot place --------------------


def test_sglang_bench_speculative_line(tmp_path):
    cf = _drafted(
        "```\nEAGLE-3:\n#questions: 80, Throughput: 276.30 token/s, Acceptance length: 5.36\n"
        "Average input length:      1052.17\n```\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("decode_tps", 276.3, "tok/s", 2, False),  # SGLang's "Throughput:" of one stream
        ("mean_accepted_length", 5.36, "tokens", 2, False),
        # a count of tokens, as the corpus writes lengths ("Average output length": ``tokens``; session 51)
        ("tokens", 1052.17, "tokens", 2, False),
    ]  # "#questions: 80" is a setting: no unit, no claim


def test_code_block_numbers_not_placed_are_listed():
    from benchbook.audit.draft import draft_text

    d = draft_text("```\nfoo bar 12 GB and 30 ms\ndecode speed: 41.5 t/s\nport: 8080\n```\n")
    assert [u[:2] for u in d.unplaced] == [(2, "12"), (2, "30")]  # the rate is a claim; 8080 no unit
    assert [e.fields["value"] for e in d.entries if e.kind == "claim"] == ["41.5"]


# --- tables: rate headers in llama-bench's words, PPL, measurement columns with no unit, settings --

ENGINE_TABLE = (
    "| Engine | TG/s | PP/s | tok/s/user | PPL | TTFT |\n|---|---|---|---|---|---|\n"
    "| llama.cpp | 45.2 | 1200.5 | 11.3 | 6.12 | 0.35 |\n"
)


def test_table_rate_headers_ppl_and_unplaced_columns():
    from benchbook.audit.draft import draft_text

    d = draft_text(ENGINE_TABLE)
    groups = {g.id: (g.fields["metric"], g.fields["unit"]) for g in d.groups}
    assert list(groups.values()) == [
        ("decode_tps", "t/s"),
        ("prefill_tps", "t/s"),
        ("decode_tps", "tok/s"),
        ("perplexity", "PPL"),  # not a rate: "PP" glued to "L" is no unit
    ]
    assert [e.fields["value"] for e in d.entries if e.kind == "claim"] == ["45.2", "1200.5", "11.3", "6.12"]
    assert [u[:2] for u in d.unplaced] == [(3, "0.35")]  # TTFT with no unit: listed, not a condition


def test_settings_table_is_no_claim_and_its_control():
    from benchbook.audit.draft import draft_text

    d = draft_text(
        "| Setting | Value |\n|---|---|\n| GPU | A100 40GB |\n| n_ctx | 2048 |\n| flags | -ngl 99 |\n"
    )
    assert [e for e in d.entries if e.kind == "claim"] == []
    assert [u[:2] for u in d.unplaced] == [(3, "40"), (4, "2048"), (5, "99")]
    # control: a two-column table of results under the same header states claims
    d = draft_text("| Setting | Value |\n|---|---|\n| Decode | 41.5 t/s |\n| Prefill | 900 t/s |\n")
    assert [e.fields["value"] for e in d.entries if e.kind == "claim"] == ["41.5", "900"]


# --- prose: a device count, a size times a count, hardware specs, the word right after a number ----


def test_device_counts_and_specs_are_no_claims(tmp_path):
    cf = _drafted(
        "# Qwen on a 16GB VRAM card\n\nI ran on 4 X H100 and 12GB × 2장. My box has 64GB DDR5; "
        "the run used 20 GB RAM and 14 GB VRAM and took 3 h.\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("size", 12, "GB", 0, False),  # a 12× speedup it is not
        ("ram", 20, "GB", 0, False),
        ("vram", 14, "GB", 0, False),  # the word right after it, not the RAM before
        ("duration", 3, "h", 0, False),  # control: hours; "4 X H100" is no 4 h
    ]


# --- a transposed table with a change column; a value stated twice in a sentence; metric words -----


def test_rows_as_metrics_with_a_change_column():
    from benchbook.audit.draft import draft_text

    d = draft_text(
        "| Metric | W7900 | W7900 + draft | % Difference |\n|:--|--:|--:|--:|\n"
        "| Memory Usage (GiB) | 20.57 | 22.12 | 7.5 |\n"
        "| Benchmark duration (s) | 1085.39 | 678.21 | -37.5 |\n"
    )
    groups = {g.id: (g.fields["metric"], g.fields["unit"]) for g in d.groups}
    claims = [(groups[e.group][1], e.fields["value"]) for e in d.entries if e.kind == "claim"]
    assert sorted(claims) == [("GiB", "20.57"), ("GiB", "22.12"), ("s", "1085.39"), ("s", "678.21")]
    changes = [
        (e.fields["kind"], e.fields["value"], e.fields["unit"]) for e in d.entries if e.kind == "statement"
    ]
    assert changes == [("percent_change", "7.5", "%"), ("percent_change", "-37.5", "%")]  # no 7.5 GiB


def test_value_stated_twice_in_a_sentence_and_its_control(tmp_path):
    cf = _drafted(
        "- n-max 2: 83.6 / 65.4 / 76.9, overall 76.9 tok/s.\n\nThat 65.4 tok/s is the worst.\n", tmp_path
    )
    assert [c.value for c in cf.claims] == [83.6, 65.4, 76.9, 76.9]  # a later sentence cites the first


def test_perplexity_baseline_and_difference(tmp_path):
    cf = _drafted("```\nctx=8192  turbo2: PPL=4.2   (baseline 1.76, Δ=2.4 ✗)\n```\n", tmp_path)
    assert [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims] == [
        ("perplexity", 4.2, "PPL", 1),
        ("perplexity", 1.76, "PPL", 2),
        ("perplexity_delta", 2.4, "PPL", 1),
    ]


def test_metric_words_output_tok_s_size_and_first_token():
    from benchbook.audit.draftprose import metric_of
    from benchbook.audit.toollines import label_metric

    assert label_metric("Output Tok/s", "tok/s") == "throughput"
    assert label_metric("Prompt tok/s", "tok/s") == "prefill_tps"  # control
    assert label_metric("初トークン", "s") == "ttft"
    assert metric_of("GB", "|Size|") == "model_size"
    assert metric_of("GB", "it used") == "size"  # control: no word, the unit's default


# --- a computation's result in a code block; Russian "от A до B"; a column of token counts ---------


def test_computed_result_in_code_and_its_control(tmp_path):
    cf = _drafted(
        "```\n512 ops/clock/CU * 40 CU * 2.9e9 clock / 1e12 = 59.392 FP16 TFLOPS\nx = 5 GB free\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims] == [
        ("peak_tflops", 59.392, "TFLOPS", 3)
    ]
    assert [(u.line, u.number) for u in cf.draft.unplaced] == [(3, "5")]  # words after it: listed


def test_russian_from_to_is_a_range(tmp_path):
    cf = _drafted("Скорость от 20 до 30.5 ток/с.\n", tmp_path)
    assert [(c.metric, c.range, c.unit, c.range_decimals) for c in cf.claims] == [
        ("decode_tps", (20.0, 30.5), "tok/s", (0, 1))
    ]


def test_a_column_of_token_counts_and_its_controls(tmp_path):
    cf = _drafted(
        "| モデル | トークン速度 | 総トークン | Tokens |\n|---|---|---|---|\n"
        "| A | 76.02 tok/sec | 786 | 100 |\n| B | 32.68 tok/sec | 1,280 | 200 |\n",
        tmp_path,
    )
    got = sorted((c.value, c.metric) for c in cf.claims)
    # "Tokens" (a label: the tokens generated) is a condition; "トークン速度" a rate
    assert got == [(32.68, "decode_tps"), (76.02, "decode_tps"), (786, "tokens"), (1280, "tokens")]
    assert sorted((c.value, c.unit) for c in cf.claims if c.metric == "tokens") == [
        (786, "tokens"),
        (1280, "tokens"),
    ]


# --- the metric of a memory figure, a time per token, a step's time, a decode throughput -----------


def _metrics(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric or cf.group_of(c).metric, c.value) for c in cf.claims]


def test_memory_is_a_peak_only_where_the_post_says_so(tmp_path):
    cf = _drafted(
        "The server used 18.2 GB of VRAM and 6 GB of system RAM.\n\n"
        "VRAM peaked at 21.4 GB; peak RAM was 9.5 GB.\n\n"
        "显存峰值 22.1 GB。ピーク時のメモリは 7.5 GB。\n\n"
        "| Model | VRAM (GiB) | Peak VRAM (GiB) |\n|---|---|---|\n| Qwen3-8B | 10.5 | 11.25 |\n",
        tmp_path,
    )
    assert _metrics(cf) == [
        ("vram", 18.2),
        ("ram", 6),
        ("vram_peak", 21.4),
        ("ram_peak", 9.5),
        ("vram_peak", 22.1),
        ("memory_used", 7.5),  # メモリ: memory of no named kind (SOURCES.md's convention)
        ("vram", 10.5),
        ("vram_peak", 11.25),
    ]


def test_a_time_per_token_a_step_time_and_itl(tmp_path):
    cf = _drafted(
        "Generation took 38.5 ms per token, the prompt 2.1 ms/tok. Step time was ~50 ms. "
        "The whole run took 12 s.\n\n"
        "| Config | Per-token latency (ms) | Latency (ms/token) | Mean ITL (ms) | E2E latency (ms) |\n"
        "|---|---|---|---|---|\n| a | 4.35 | 4.2 | 51.78 | 9100 |\n",
        tmp_path,
    )
    assert _metrics(cf) == [
        ("ms_per_token", 38.5),
        ("ms_per_token", 2.1),
        ("latency", 50),
        ("duration", 12),  # control: a run's time is no latency
        ("ms_per_token", 4.35),
        ("ms_per_token", 4.2),
        ("itl", 51.78),
        ("latency", 9100),
    ]


def test_a_decode_throughput_header_is_the_decode_rate(tmp_path):
    cf = _drafted(
        "| Method | Decode Throughput (tok/s) | Generation speed (t/s) | Output token throughput (tok/s) |\n"
        "|---|---|---|---|\n| eagle | 108.45 | 99.1 | 207.1 |\n",
        tmp_path,
    )
    # control: vLLM's "Output token throughput" stays a throughput
    assert _metrics(cf) == [("decode_tps", 108.45), ("decode_tps", 99.1), ("throughput", 207.1)]

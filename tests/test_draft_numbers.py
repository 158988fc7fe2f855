"""Numbers `benchbook claims draft` captures from kinds of text it read poorly (issue 29): tool and
log output in code blocks (llama.cpp timing lines, ``ollama run --verbose``, vLLM/SGLang serving
summaries, ``key=value`` and JSON keys naming a unit, TAP lines), units and "about" words in other
languages, bounds in words and signs.  Each kind has its drafted values exactly (value, unit,
decimals, about or range, metric) and a control that must not fire (a version, a port, a GPU)."""

from __future__ import annotations

from pathlib import Path

from benchbook.audit import schema
from benchbook.audit.draftfile import draft_post
from benchbook.audit.toollines import tool_results


def _drafted(text: str, tmp_path: Path) -> schema.ClaimsFile:
    post = tmp_path / "post.md"
    post.write_text(text, encoding="utf-8")
    out, _, _ = draft_post(post)
    return schema.load(out)


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
    assert _rows(cf) == [
        ("load_time", 728.24, "ms", 2, False),
        ("prefill_tps", 107.81, "tok/s", 2, False),
        ("decode_tps", 79.85, "tok/s", 2, False),
        ("duration", 2674.12, "ms", 2, False),
    ]
    decode = cf.claims[2]
    assert cf.conditions_of(decode).tokens_generated == 159  # llama.cpp counts a run per token
    assert decode.method == "llama_perf_context_print" and decode.log == "post-l4.log"
    assert decode.source_line == 7


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
    assert [(r.line, r.metric, r.value, r.unit, r.conditions, r.method) for r in got] == [
        (1, "decode_tps", "22.55", "tok/s", {"tokens_generated": 127}, "llama_print_timings")
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
        ("latency", 29.01, "ms", 2, "median"),
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
        ("vram_peak", 20.1, "GiB", 1, False),
    ]

"""Numbers `benchbook claims draft` left uncaptured (issue 29, branch numbers): a header named once
over several run columns, unit-less values under labels, several runs in one cell, arrow pairs, units
in words of other languages and a unit carried from the sentence before; each with its drafted
values exactly and a control that must not fire."""

from __future__ import annotations

from benchbook.audit import schema
from drafting import conditions
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims]


# --- a header named once over its run columns (p122) -------------------------------------------------

RUNS_TABLE = (
    "# Macs\n\n"
    "| GPU | Model | eval time |     |     | mean eval time |\n"
    "| --- | --- | --- | --- | --- | --- |\n"
    "| M2 Pro | 7B_q4_0 | 28.92 | 28.54 | 29.27 | 28.91 |\n"
)


def test_blank_headers_after_a_timing_header_are_its_runs_and_the_mean_column_a_statement(tmp_path):
    cf = _drafted(RUNS_TABLE, tmp_path)
    assert _rows(cf) == [
        ("eval_ms", 28.92, "ms", 2),
        ("eval_ms", 28.54, "ms", 2),
        ("eval_ms", 29.27, "ms", 2),
    ]
    assert [conditions(cf, c)["run_index"] for c in cf.claims] == [1, 2, 3]
    (mean,) = cf.statements
    assert (mean.kind, mean.value, mean.unit) == ("mean", 28.91, "ms")
    assert mean.of == [c.id for c in cf.claims]


def test_a_blank_header_after_a_label_column_is_no_run(tmp_path):
    # control: "| Model |  |" with a plain number under the blank: no run of a measurement
    cf = _drafted("# T\n\n| Model |  | Speed (tok/s) |\n| --- | --- | --- |\n| 7B | 3 | 41.5 |\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 41.5, "tok/s", 1)]


# --- decimal-comma cells whose unit is only in the row label (p130) ---------------------------------

COMMA_TABLE = (
    "# v1 and v2\n\n"
    "|                | v1         | v2         |\n"
    "| -------------- | ---------- | ---------- |\n"
    "| **VRAM**       | 11295MiB   | 11653MiB   |\n"
    "| **512 tokens (generation, seconds)**  | 13,25  | 10,04      |\n"
    "| **ppl**        | 5,57350826 | 5,57457876 |\n"
)


def test_a_table_of_metric_rows_reads_decimal_commas_under_the_row_labels_unit(tmp_path):
    cf = _drafted(COMMA_TABLE, tmp_path)
    assert _rows(cf) == [
        ("vram", 11295, "MiB", 0),
        ("vram", 11653, "MiB", 0),
        ("duration", 13.25, "s", 2),
        ("duration", 10.04, "s", 2),
        ("perplexity", 5.57350826, "PPL", 8),
        ("perplexity", 5.57457876, "PPL", 8),
    ]
    # "512 tokens" names the workload the time is of, not the unit of the cells
    assert not [c for c in cf.claims if c.unit == "tokens"]


# --- several numbers of one column in one cell (p152, p155, p156, p161) ------------------------------


def test_runs_in_one_cell_are_one_claim_each_with_their_run_index(tmp_path):
    text = "# R\n\n| arm | decode tok/s (3 runs) |\n|---|---|\n| baseline | 115.6 / 115.7 / 115.4 |\n"
    cf = _drafted(text, tmp_path)
    assert _rows(cf) == [
        ("decode_tps", 115.6, "tok/s", 1),
        ("decode_tps", 115.7, "tok/s", 1),
        ("decode_tps", 115.4, "tok/s", 1),
    ]
    assert [conditions(cf, c)["run_index"] for c in cf.claims] == [1, 2, 3]


def test_a_mean_and_a_median_in_one_cell_are_two_claims_with_their_stat(tmp_path):
    text = "# R\n\n| | tok/s |\n|---|---|\n| baseline (no spec) | 41.3 mean / 41.4 median |\n"
    cf = _drafted(text, tmp_path)
    assert _rows(cf) == [("decode_tps", 41.3, "tok/s", 1), ("decode_tps", 41.4, "tok/s", 1)]
    assert [conditions(cf, c)["other"]["stat"] for c in cf.claims] == ["mean", "median"]


def test_per_position_percentages_share_the_unit_written_after_the_last(tmp_path):
    text = (
        "# R\n\n| Metric | Value |\n|---|---|\n| Per-position accept (code) | 92 / 79 / 68 / 59 % |\n"
        "| VRAM | 22.5 GB/card |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [
        (92, "%"),
        (79, "%"),
        (68, "%"),
        (59, "%"),
        (22.5, "GB"),
    ]
    assert [conditions(cf, c)["other"]["draft_position"] for c in cf.claims[:4]] == [0, 1, 2, 3]
    assert cf.claims[4].metric == "vram"


def test_rows_without_a_header_give_each_engine_its_rate(tmp_path):
    text = (
        "# Single user\n\n"
        "| Llama 3.3 70B Q4 · 2× RTX 5090 | Ollama 28 tok/s · vLLM 32 tok/s | vLLM +14% |\n"
        "| Qwen 3 30B MoE · 1× RTX 5090 | Ollama 44 tok/s · vLLM 48 tok/s | vLLM +9% |\n"
        "| Llama 3.3 70B Q4 · 1× RTX 5090 (offload) | Ollama 9 tok/s · vLLM 11 tok/s | vLLM +22% |\n"
    )
    cf = _drafted(text, tmp_path)
    rates = [(c.value, conditions(cf, c)["engine"]) for c in cf.claims if c.unit == "tok/s"]
    assert rates == [(28, "Ollama"), (32, "vLLM"), (44, "Ollama"), (48, "vLLM"), (9, "Ollama"), (11, "vLLM")]


def test_a_cell_of_mixed_numbers_is_no_list(tmp_path):
    # control: "0 errors / 0 MiB VRAM growth" holds words other than a statistic or an engine
    from benchbook.audit.drafttable import cell_pieces

    assert cell_pieces("0 errors / 0 silent-empty / 0 MiB VRAM growth", "Soak", None) == []
    assert cell_pieces("20,366 MiB", "VRAM", "MiB") == []
    assert cell_pieces("12/19/32", "GPU", None) == []


# --- units in words (Russian, Ukrainian) and a unit carried to the other side (p163, p164) ----------


def test_russian_rate_words_and_a_unit_carried_to_the_next_sentence(tmp_path):
    text = (
        "# Цифры\n\nLlama.cpp выдает 42 токена в секунду. Ollama - 25.\n\n"
        "Разница составляет 17 секунд против 40.\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(42, "tok/s"), (25, "tok/s"), (17, "s"), (40, "s")]


def test_ukrainian_times_word_is_a_multiple():
    from benchbook.audit.draftprose import numbers

    assert [(n.text, n.unit) for n in numbers("прискорення інференсу LLM у 2-3 рази")] == [("2–3", "x")]
    assert [(n.text, n.unit) for n in numbers("у 3,6 рази на GPU H200")] == [("3.6", "x")]


def test_a_label_after_a_rate_takes_no_unit_and_a_count_of_tokens_stays_plain():
    from benchbook.audit.draftprose import numbers

    # control: a colon label is no other side; "4096 токенов" is a context size, not a rate
    assert [(n.text, n.unit) for n in numbers("at 40 tok/s. Threads: 8.")] == [("40", "tok/s"), ("8", None)]
    assert [(n.text, n.unit) for n in numbers("контекст 4096 токенов")] == [("4096", None)]
    assert [(n.text, n.unit) for n in numbers("2 GB/layer")] == [("2", None)]


# --- unit-less values under labels (p145, p146) ------------------------------------------------------


def test_bare_label_values_under_a_caption_take_its_rate_unit(tmp_path):
    text = (
        "# EAGLE\n\nOutput tokens/s on H100 BS1\n\n"
        "vanilla (`meta-llama/Llama-3.1-8B-Instruct`): 133\n\n"
        "EAGLE 1:\n* K=2: 201.69, speedup:  1.51x\n* Threads: 8\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims if c.unit == "tok/s"] == [
        ("decode_tps", 133, "tok/s"),
        ("decode_tps", 201.69, "tok/s"),
    ]
    (ratio,) = [s for s in cf.statements if s.kind == "ratio"]
    assert ratio.value == 1.51  # 201.69 / 133 = 1.516: its sides found by value


def test_bare_label_values_with_no_caption_stay_unplaced(tmp_path):
    # control: no caption names a unit: "K=2: 201.69" is no claim
    cf = _drafted("# EAGLE\n\nEAGLE 1:\n* K=2: 201.69\n* K=4: 198\n", tmp_path)
    assert cf.claims == []


def test_vllm_spec_decode_counts_in_snake_case_are_counts():
    from benchbook.audit.toollines import tool_results

    lines = [
        (1, "num_drafts: 993"),
        (2, "num_draft_tokens: 4960"),
        (3, "num_accepted_tokens: 3562"),
        (4, "num_tokens_generated_without_sd: 821"),
    ]
    got = [(r.metric, r.value, r.unit) for r in tool_results(lines, True)]
    assert got == [
        ("draft_proposals", "993", "proposals"),
        ("draft_tokens", "4960", "tokens"),
        ("accepted_tokens", "3562", "tokens"),
        ("tokens", "821", "tokens"),
    ]


# --- arrow pairs (p153), a device tag before a value (p114) ------------------------------------------


def test_a_multiple_before_an_arrow_pair_makes_the_pair_rates_and_a_unit_after_carries_back():
    from benchbook.audit.draftprose import numbers

    got = [(n.text, n.unit) for n in numbers("Только CPU - 1.88x (3.3-->6.2)")]
    assert got == [("1.88", "x"), ("3.3", "t/s"), ("6.2", "t/s")]
    assert [(n.text, n.unit) for n in numbers("2.1x (40 → 84 tok/s)")][1:] == [
        ("40", "tok/s"),
        ("84", "tok/s"),
    ]
    # control: a multiple the pair does not give (9 / 3 = 3, not 2) makes no rates of it
    assert [(n.text, n.unit) for n in numbers("2x (3 -> 9)")] == [("2", "x"), ("3", None), ("9", None)]


def test_the_arrow_pair_relates_its_two_rates(tmp_path):
    cf = _drafted("# Speed\n\n- GPU+CPU - 1.78x (5.4-->9.6)\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(5.4, "t/s"), (9.6, "t/s")]
    (ratio,) = cf.statements
    assert (ratio.kind, ratio.value, ratio.of) == ("ratio", 1.78, [cf.claims[1].id, cf.claims[0].id])


def test_exllama_vram_lines_with_a_device_tag_are_vram():
    from benchbook.audit.toollines import tool_results

    lines = [(1, " ** VRAM, Model: [cuda:0] 3,390.76 MB"), (2, " ** VRAM, Inference: [cuda:0] 1,585.17 MB")]
    assert [(r.metric, r.value, r.unit) for r in tool_results(lines, True)] == [
        ("vram", "3390.76", "MB"),
        ("vram", "1585.17", "MB"),
    ]
    # control: a card's VRAM stated as a spec is no result
    assert tool_results([(1, "VRAM: 24 GB")], True) == []


# --- HTML tables: a spanning caption row, <br> in a header (p121); a unit in a caption (p136) -------


def test_an_html_tables_caption_row_and_br_headers_keep_its_columns():
    from benchbook.audit.post import html_to_text

    html = (
        "<html><body><table><tr><th colspan=3><p>LLM Performance on M2 Ultra</p></th></tr>"
        "<tr><th>prompt<br>tok/sec</th><th>eval<br>tok/sec</th><th>model</th></tr>"
        "<tr><td>90</td><td>25</td><td>Mistral 7b</td></tr></table></body></html>"
    )
    assert (
        html_to_text(html).splitlines()
        == [
            "LLM Performance on M2 Ultra",
            "| prompt tok/sec | eval tok/sec | model |",
            "| --- | --- | --- |",
            "| 90 | 25 | Mistral 7b |",
            "",
        ][: len(html_to_text(html).splitlines())]
    )


def test_a_caption_naming_requests_per_second_is_the_unit_of_a_table_with_a_difference_column(tmp_path):
    text = (
        "# Bench\n\n吞吐量 (requests/sec)\n\n"
        "| 场景 | vLLM | SGLang | 差异 |\n|---|---|---|---|\n"
        "| 短文本 (512 tokens) | 12.5 | 14.2 | +14% |\n| 长文本 (4k tokens) | 3.2 | 4.8 | +50% |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("request_throughput", 12.5, "req/s"),
        ("request_throughput", 3.2, "req/s"),
        ("request_throughput", 14.2, "req/s"),
        ("request_throughput", 4.8, "req/s"),
    ]
    assert sorted(s.value for s in cf.statements) == [14, 50]


# --- a TPOT header with no unit (p129), a weights' size in a setup table (p160), token counts (p151) --


def test_tpot_columns_with_no_unit_are_ms(tmp_path):
    text = (
        "# TP=1\n\n| QPS | Baseline TPOT | k=1 TPOT |\n| --- | --- | --- |\n"
        "| 1 | 55.47 | 33.99 |\n| 2 | 57.58 | 48.8 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("tpot", 55.47, "ms"),
        ("tpot", 57.58, "ms"),
        ("tpot", 33.99, "ms"),
        ("tpot", 48.8, "ms"),
    ]


def test_a_setup_tables_format_row_states_the_weights_size_and_its_gpu_row_no_claim(tmp_path):
    text = (
        "# Setup\n\n| Component | Specification |\n|---|---|\n| GPU | RTX 5090 (32 GB VRAM, Blackwell) |\n"
        "| Ollama format | GGUF Q6_K (6.7 GB) |\n"
    )
    cf = _drafted(text, tmp_path)
    (size,) = cf.claims
    assert (size.metric, size.value, size.unit) == ("model_size", 6.7, "GB")
    assert conditions(cf, size)["quant"] == "Q6_K" and conditions(cf, size)["engine"] == "Ollama"


def test_draft_tokens_with_their_accepted_are_counts_and_a_tried_draft_size_is_not():
    from benchbook.audit.draftprose import numbers

    got = [(n.text, n.unit) for n in numbers("MTP output matched; 18 draft tokens, 9 accepted.")]
    assert got == [("18", "tokens"), ("9", "tokens")]
    # control: "6 draft tokens" alone is the draft size a run was set to, a condition
    assert [n.unit for n in numbers("I tried 4, 5, and 6 draft tokens.")] == [None, None, None]


# --- rates with no unit beside their run's words (p17, p71) -----------------------------------------


def test_a_rate_with_and_without_a_draft_and_a_rate_after_a_rate_verb():
    from benchbook.audit.draftprose import numbers

    got = [(n.text, n.unit) for n in numbers("A (main) + B (draft): 14.5 with draft / 16.5 without.")]
    assert got == [("14.5", "t/s"), ("16.5", "t/s")]
    got = [(n.text, n.unit) for n in numbers("reporting 19 tok/s on a model that actually decodes at 80.")]
    assert got == [("19", "tok/s"), ("80", "tok/s")]
    # controls: a count after "with draft /", a count of threads after "runs at"
    assert [n.unit for n in numbers("2 with draft / 3 prompts")] == [None, None]
    assert [n.unit for n in numbers("got 19 tok/s, runs at 4 threads")] == ["tok/s", None]


# --- the opposite fault: a page's reading time drafted as a duration (p07, p25, p161) ---------------


def test_a_pages_reading_time_is_no_duration_and_a_run_time_still_is():
    from benchbook.audit.draftprose import numbers

    for text in ["(njannasch.dev blog, 13 min read)", "Published 2026-05-12 · 8 min read", "1 분 소요"]:
        assert [n.unit for n in numbers(text) if n.text in ("13", "8", "1")] == [None], text
    # control: minutes of a run, and minutes spent reading a prompt, are times
    assert [(n.text, n.unit) for n in numbers("took 13 min total")] == [("13", "min")]
    assert [(n.text, n.unit) for n in numbers("took 13 min reading the prompt")] == [("13", "min")]


# --- a mean acceptance length after its number (p128), an acceptance rate in percent unsigned (p135) -


def test_an_avg_accept_length_after_its_number_is_a_mean_accepted_length(tmp_path):
    text = "# MTP\n\nThe accept rate is very high (~1.9 avg accept length; 2.5~3 avg accept length with 4).\n"
    cf = _drafted(text, tmp_path)
    got = [(c.metric, c.value, c.range, c.unit, c.about) for c in cf.claims if c.unit == "tokens"]
    assert got == [
        ("mean_accepted_length", 1.9, None, "tokens", True),
        ("mean_accepted_length", None, (2.5, 3.0), "tokens", False),
    ]


def test_an_accepted_rate_past_one_with_no_sign_is_in_percent():
    from benchbook.audit.toollines import tool_results

    line = [(1, "Value: 32.42, Draft: 8, Quantization: Q4_K_M, Accepted Rate: 58.68")]
    assert [(r.metric, r.value, r.unit) for r in tool_results(line, True)] == [
        ("acceptance_rate", "58.68", "%")
    ]
    # control: a fraction stays a ratio
    got = [(r.value, r.unit) for r in tool_results([(1, "Accept rate: 0.81")], True)]
    assert got == [("0.81", "ratio")]


# --- the opposite fault: setup effort and a card's capacity drafted as claims (p161, p42) -----------


def test_setup_effort_and_a_cards_capacity_are_no_claims(tmp_path):
    text = (
        "# Verdict\n\nOllama if you want to install/test a model in 5 minutes. vLLM if you can invest "
        "2-3h of setup. The model doesn't fit the 16 GB, so on a 12 GB card it offloads; it used 14 GB "
        "GPU memory and the build took 12 min.\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(14, "GB"), (12, "min")]


def test_a_statistics_number_in_parentheses_takes_the_rate_before_it():
    from benchbook.audit.draftprose import numbers

    text = (
        "measured by the server itself is 36.7 tok/s; the bench avg below (33.7) includes prompt processing"
    )
    assert [(n.text, n.unit) for n in numbers(text)] == [("36.7", "tok/s"), ("33.7", "tok/s")]
    # control: a run's number in parentheses is no rate
    assert [(n.text, n.unit) for n in numbers("at 36.7 tok/s (run 3)")] == [("36.7", "tok/s"), ("3", None)]

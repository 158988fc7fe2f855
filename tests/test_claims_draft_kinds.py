"""Kinds of text `benchbook claims draft` reads (issue 29, the corpus misses): units written other
ways (bandwidth, compute, request rates, "tokens-per-sec"), units given once for several numbers,
bounds, relations as words.  Each kind has the drafted entries exactly and a control that does not
fire."""

from __future__ import annotations

from benchbook.audit import schema
from benchbook.audit.draftprose import numbers
from drafting import conditions as _set_conditions
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.range, c.unit, c.about) for c in cf.claims]


def test_bandwidth_compute_request_rate_and_spelled_rate_units(tmp_path):
    cf = _drafted(
        "The STREAM Triad gives 66.7 GB/s; CPU to GPU speed is ~84 GB/s.\n"
        "hipBLASLt reaches 36.9 TFLOPS.\n"
        "The server sustains 2.09 req/s.\n"
        "Generation: 256 tokens, 31.783 tokens-per-sec\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("memory_bandwidth", 66.7, None, "GB/s", False),
        ("transfer_bandwidth", 84.0, None, "GB/s", True),
        ("matmul_tflops", 36.9, None, "TFLOPS", False),  # "reaches": a run's, no peak (p24's 36.9)
        ("request_throughput", 2.09, None, "req/s", False),
        ("tokens", 256.0, None, "tokens", False),
        ("decode_tps", 31.783, None, "tok/s", False),
    ]


def test_a_size_is_not_read_as_a_bandwidth(tmp_path):
    """Control: "5.1 GB" stays a size; GB/s is read only where "/s" follows."""
    cf = _drafted("The model file is 5.1 GB and loads in 3 s.\n", tmp_path)
    assert _rows(cf) == [("model_size", 5.1, None, "GB", False), ("load_time", 3.0, None, "s", False)]


def test_a_unit_given_once_for_a_slash_or_arrow_list(tmp_path):
    cf = _drafted(
        "Narrative wall/decode: 101.39 / 102.33 tok/s\n\n"
        "Peak/post VRAM: 23,185 / 22,878 MiB on GPU0/1\n\n"
        "Per prompt: 40.9 / 41.1 / 40.8, overall median 41.0 tok/s\n\n"
        "Repeated median result: 31.9 → 52.8 tok/s.\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("throughput", 101.39, None, "tok/s", False),  # "wall": over wall time (SOURCES.md)
        ("decode_tps", 102.33, None, "tok/s", False),
        ("vram_peak", 23185.0, None, "MiB", False),
        ("vram_peak", 22878.0, None, "MiB", False),
        ("decode_tps", 40.9, None, "tok/s", False),
        ("decode_tps", 41.1, None, "tok/s", False),
        ("decode_tps", 40.8, None, "tok/s", False),
        ("decode_tps", 41.0, None, "tok/s", False),
        ("decode_tps", 31.9, None, "tok/s", False),
        ("decode_tps", 52.8, None, "tok/s", False),
    ]


def test_no_shared_unit_across_words_counts_or_names(tmp_path):
    """Control: "3 / 5 and then 12 tok/s" (no comma before the unit's number), a count "438/438" and
    a name "GPU0/1" take no unit."""
    cf = _drafted(
        "Scores were 3 / 5 and then 12 tok/s.\nAccepted 438/438 at 40 t/s, GPU0/1 at 30 tok/s.\n", tmp_path
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("decode_tps", 12.0, "tok/s"),
        ("acceptance_rate", None, None),
        ("decode_tps", 40.0, "t/s"),
        ("decode_tps", 30.0, "tok/s"),
    ]
    assert [(c.counts.k, c.counts.n) for c in cf.claims if c.counts] == [(438, 438)]


def test_pp_and_tg_written_after_the_number_are_rates(tmp_path):
    cf = _drafted(
        "Wiki-2k prompt before fix, 512 gen: `309.76 PP`, `8.87 TG`, `141/2211` accepted.\n", tmp_path
    )
    assert _rows(cf) == [
        ("prefill_tps", 309.76, None, "t/s", False),
        ("decode_tps", 8.87, None, "t/s", False),
        ("acceptance_rate", None, None, None, False),
    ]


def test_lower_case_pp_and_tg_after_a_number_are_no_unit(tmp_path):
    """Control: "512 pp and 128 tg" are token counts of a test, not rates: no claim."""
    cf = _drafted("I tested 512 pp and 128 tg at 300 t/s.\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 300.0, None, "t/s", False)]


def test_a_header_unit_in_capitals_is_written_as_the_schema_spells_it(tmp_path):
    """ "Output Tok/s" is tok/s (it was drafted "Tok/s", a unit the audit does not know); the
    control "Mean TTFT (ms)" was read before and stays ms."""
    table = "| Concurrency | Output Tok/s | Mean TTFT (ms) |\n|---|---|---|\n| 4 | 210 | 63 |\n"
    cf = _drafted(table, tmp_path)
    assert [(c.id, c.metric, c.value, c.unit) for c in cf.claims] == [
        ("t1-output-tok-s-r1", "throughput", 210.0, "tok/s"),
        ("t1-mean-ttft-r1", "ttft", 63.0, "ms"),
    ]


def test_a_table_with_no_unit_takes_the_rate_of_the_paragraph_above(tmp_path):
    """Its columns of distinct plain numbers are rates; the settings' columns (a known label, a
    flag's name "draft-p-min") stay conditions; a rate column headed by a plain word names the
    prompt it ran (``drafttable._lead_prompt``)."""
    cf = _drafted(
        "Baseline: 33.92 tokens/second without a draft model.\n\n"
        "| draft-max | draft-p-min | python | swift |\n|---|---|---|---|\n"
        "| 16 | 0.9 | 71.64 | 48.06 |\n| 16 | 0.4 | _83.62_ (fastest) | 50.17 |\n",
        tmp_path,
    )
    got = [
        (
            c.id,
            c.metric,
            c.value,
            c.unit,
            cf.conditions_of(c).model_dump(exclude_none=True, exclude_defaults=True),
        )
        for c in cf.claims
    ]
    assert got == [
        ("decode-tps-l1", "decode_tps", 33.92, "tok/s", {"decoding": "plain"}),
        (
            "t1-python-r1",
            "decode_tps",
            71.64,
            "tok/s",
            {"block_max": 16, "prompt": "python", "other": {"draft_p_min": "0.9"}},
        ),
        (
            "t1-python-r2",
            "decode_tps",
            83.62,
            "tok/s",
            {"block_max": 16, "prompt": "python", "other": {"draft_p_min": "0.4"}},
        ),
        (
            "t1-swift-r1",
            "decode_tps",
            48.06,
            "tok/s",
            {"block_max": 16, "prompt": "swift", "other": {"draft_p_min": "0.9"}},
        ),
        (
            "t1-swift-r2",
            "decode_tps",
            50.17,
            "tok/s",
            {"block_max": 16, "prompt": "swift", "other": {"draft_p_min": "0.4"}},
        ),
    ]


def test_a_table_with_no_unit_and_no_rate_above_states_no_claims(tmp_path):
    """Control: nothing above states a rate (a size does not count): the numbers get no unit."""
    cf = _drafted(
        "The model is 5.1 GB.\n\n| draft-max | python | swift |\n|---|---|---|\n| 16 | 71.64 | 48.06 |\n"
        "| 8 | 83.62 | 50.17 |\n",
        tmp_path,
    )
    assert _rows(cf) == [("model_size", 5.1, None, "GB", False)]


def test_a_number_format_between_the_number_and_tflops_is_part_of_the_unit(tmp_path):
    cf = _drafted(
        "At 2.9GHz the peak is 59.4 FP16/BF16 TFLOPS.\nWithout hipBLASLt it only gets to 5.1 BF16 TFLOPS.\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("peak_tflops", 59.4, None, "TFLOPS", False),
        ("matmul_tflops", 5.1, None, "TFLOPS", False),
    ]


def test_digits_of_a_name_before_a_unit_are_no_number(tmp_path):
    """Control: "BF16 TFLOPS" is not 16 TFLOPS, "A100 80GB"'s 100 is no number (its 80GB is the
    card's memory, listed)."""
    cf = _drafted("The BF16 TFLOPS figure and the A100 80GB card.\n", tmp_path)
    assert cf.claims == []


def _bounds(cf: schema.ClaimsFile) -> list[tuple]:
    return [
        (s.id, s.relation, s.value, s.unit, s.over.numerator if s.over else None)
        for s in cf.statements
        if s.kind == "bound"
    ]


def test_a_number_written_as_a_bound_is_a_bound_statement(tmp_path):
    """ "40+ tok/s", "<9%", "at least 12 GB", "under 2 s", "up to 80 tok/s": a bound over the claims
    of the metric (and the conditions named), not a claim of the value."""
    cf = _drafted(
        "The fix keeps the 40+ tok/s high-acceptance path.\n\n"
        "Without hipBLASLt it only gets to 5.1 BF16 TFLOPS (<9% max theoretical).\n\n"
        "Loading takes under 2 s and it needs at least 12 GB of VRAM on Vulkan.\n\n"
        "Decoding reaches up to 80 tok/s.\n",
        tmp_path,
    )
    assert _rows(cf) == [("matmul_tflops", 5.1, None, "TFLOPS", False)]
    assert _bounds(cf) == [
        ("s-l1", "above", 40.0, "tok/s", {"metric": "decode_tps"}),
        ("s-l3", "below", 9.0, "%", {"metric": "share"}),
        ("s-l5", "below", 2.0, "s", {"metric": "load_time"}),
        ("s-l5-2", "above", 12.0, "GB", {"metric": "vram", "backend": "Vulkan"}),
        ("s-l7", "below", 80.0, "tok/s", {"metric": "decode_tps", "backend": "Vulkan"}),
    ]


def test_no_bound_for_a_rise_a_comparison_a_workload_or_a_plain_value(tmp_path):
    """Control: "goes up to 36.9 TFLOPS" (it rose to it), "939 MiB < 1024 MiB" (two numbers
    compared), "workloads above 1000 tokens" (what was run), "averaged over 3 s", a plain "41 tok/s":
    no bound of a value; the values with a unit are claims, and the comparison is a bound of the
    ratio of its two claims below 1 (over them by id), not of 1024 MiB."""
    cf = _drafted(
        "With hipBLASLt this goes up to 36.9 TFLOPS.\n\n"
        "Free VRAM was 939 MiB < 1024 MiB guard.\n\n"
        "It slows down on workloads above 1000 tokens, averaged over 3 s, at 41 tok/s.\n",
        tmp_path,
    )
    assert _bounds(cf) == [("s-l3", "below", 1.0, "x", {"id": "vram-l3"})]
    assert [s.over.denominator for s in cf.statements if s.over] == [{"id": "vram-l3-2"}]
    assert [(c.value, c.unit) for c in cf.claims] == [
        (36.9, "TFLOPS"),
        (939.0, "MiB"),
        (1024.0, "MiB"),
        (1000.0, "tokens"),
        (3.0, "s"),
        (41.0, "tok/s"),
    ]


def _statements(cf: schema.ClaimsFile) -> list[tuple]:
    return [(s.id, s.kind, s.value, s.unit, s.of) for s in cf.statements]


def test_a_signed_percentage_after_an_arrow_pair_is_its_change(tmp_path):
    """ "31.9 → 52.8 tok/s (+65.5%)", "(43.06 → 34.02 t/s, −21%)" with a Unicode minus: a percent
    change from the first to the second, even with other rates in the sentence."""
    cf = _drafted(
        "Repeated median result: 31.9 → 52.8 tok/s (+65.5%) with --spec-draft-n-max 4.\n\n"
        "Break-even (38.41 → 38.69 t/s) and a loss through the server (43.06 → 34.02 t/s, −21%).\n",
        tmp_path,
    )
    assert _statements(cf) == [
        ("s-l1", "percent_change", 65.5, "%", ["decode-tps-l1", "decode-tps-l1-2"]),
        ("s-l3", "percent_change", -21.0, "%", ["decode-tps-l3-3", "decode-tps-l3-4"]),
    ]


def test_an_unsigned_percentage_or_one_after_a_list_is_no_change_of_a_pair(tmp_path):
    """Control: "(65%)" unsigned after a pair, and "+12%" after "A / B" (a list, not a change of the
    pair): claims, no statement; "+12% over last week" names a side the post does not state, so it
    is a claim of the change (issue 29's corpus convention), never a share."""
    cf = _drafted(
        "It went 31.9 → 52.8 tok/s (65% acceptance).\n\nRates 40.1 / 41.3 tok/s, +12% over last week.\n",
        tmp_path,
    )
    assert _statements(cf) == []
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("decode_tps", 31.9, "tok/s"),
        ("decode_tps", 52.8, "tok/s"),
        ("acceptance_rate", 65.0, "%"),
        ("decode_tps", 40.1, "tok/s"),
        ("decode_tps", 41.3, "tok/s"),
        ("speed_change", 12.0, "%"),
    ]


def test_an_arrow_between_the_two_sides_orders_a_change(tmp_path):
    """ "3.3GB → 970MB と、70% 削減" (a reduction, written with no word boundary after it) and
    "782 MB → 267 MB, 66% smaller": the change from the arrow's first side to its second."""
    cf = _drafted(
        "ファイルサイズは `FP16` = 3.3GB → `IQ4_XS` = 970MB と、70% 削減となった\n\n"
        "The file went 782 MB → 267 MB, 66% smaller.\n",
        tmp_path,
    )
    assert _statements(cf) == [
        ("s-l1", "percent_change", -70.0, "%", ["model-size-l1", "model-size-l1-2"]),
        ("s-l3", "percent_change", -66.0, "%", ["model-size-l3", "model-size-l3-2"]),
    ]


def test_with_no_arrow_the_sides_are_ordered_by_their_values_in_one_unit(tmp_path):
    """Control: no arrow, no "from"/"than": ordered by value (a reduction from the larger), the
    values compared in one unit (3.3 GB is larger than 970 MB), said in a note."""
    cf = _drafted("The sizes are 970 MB and 3.3 GB, 70% smaller.\n", tmp_path)
    assert _statements(cf) == [("s-l1", "percent_change", -70.0, "%", ["size-l1-2", "size-l1"])]
    assert cf.statements[0].note == "sides ordered by their values: the sentence does not say which is which"


def test_a_multiple_with_nothing_to_relate_is_a_claim_of_it(tmp_path):
    """ "5–14x regression" (a slowdown range), "nearly 2x faster" with no claim in the post it could
    relate: claims of the multiple, not statements citing nothing."""
    cf = _drafted(
        "The 35B MoE variant shows 5–14x regression.\n\nSince the big model is nearly 2x faster, it helps.\n",
        tmp_path,
    )
    assert _rows(cf) == [("slowdown", None, (5.0, 14.0), "x", False), ("speedup", 2.0, None, "x", True)]
    assert cf.statements == [] and cf.todo == []


def test_a_multiple_with_a_candidate_side_stays_a_statement(tmp_path):
    """Control: a rate in the sentence it may relate: a todo statement listing it, no multiple claim."""
    cf = _drafted("Plain decoding ran at 40 t/s and speculation was 2x faster than plain.\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 40.0, None, "t/s", False)]
    assert [(t.kind, t.value, t.of) for t in cf.todo] == [("ratio", 2.0, ["decode-tps-l1"])]


_SWEEP = (
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
    "|-------|--------|--------|----------|----------|----------|----------|\n"
    "|  1024 |    256 |      0 |    1.569 |   652.55 |    8.321 |    30.77 |\n"
    "|  1024 |    256 |   1024 |    1.550 |   667.61 |    8.437 |    30.34 |\n"
)


def test_sweep_bench_time_columns_are_duration_claims(tmp_path):
    cf = _drafted(_SWEEP, tmp_path)
    got = [
        (c.id, c.metric, c.value, c.decimals, c.unit, c.method) for c in cf.claims if c.metric == "duration"
    ]
    assert got == [
        ("duration-pp1024-l3", "duration", 1.569, 3, "s", "llama-sweep-bench pp1024 (T_PP)"),
        ("duration-tg256-l3", "duration", 8.321, 3, "s", "llama-sweep-bench tg256 (T_TG)"),
        ("duration-pp1024-l4", "duration", 1.55, 3, "s", "llama-sweep-bench pp1024 (T_PP)"),
        ("duration-tg256-l4", "duration", 8.437, 3, "s", "llama-sweep-bench tg256 (T_TG)"),
    ]
    # llama-sweep-bench's table, no engine named: ik_llama.cpp's tool (``draftcontext._IK_TOOL``)
    assert _set_conditions(cf, cf.claim("duration-pp1024-l4")) == {
        "depth": 1024,
        "decoding": "plain",
        "engine": "ik_llama.cpp",
    }


def test_llama_bench_rows_have_no_time_claims(tmp_path):
    """Control: llama-bench's table states rates and the model's size only: no duration claim."""
    table = (
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
        "| qwen3moe 30B.A3B Q4_K - Medium | 16.47 GiB | 30.53 B | CUDA | 99 | tg128 | 151.42 ± 0.51 |\n"
    )
    cf = _drafted(table, tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("decode_tps", 151.42, "t/s"),
        ("model_size", 16.47, "GiB"),
    ]


def test_a_fraction_beside_an_acceptance_word_is_an_acceptance_rate(tmp_path):
    cf = _drafted(
        "- n-max 2: 76.9 tok/s (20.9 GiB; 0.79 aggregate acceptance from a re-run)\n"
        "- n-max 4: 70.8 tok/s — acceptance 0.61 aggregate\n"
        "- Acceptance aggregate 0.69 from server logs\n\n"
        "The spread is wide (code 0.87, bash 0.74, prose 0.40 acceptance).\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims if c.unit == "ratio"] == [
        ("acceptance_rate", 0.79, "ratio"),
        ("acceptance_rate", 0.61, "ratio"),
        ("acceptance_rate", 0.69, "ratio"),
        ("acceptance_rate", 0.87, "ratio"),
        ("acceptance_rate", 0.74, "ratio"),
        ("acceptance_rate", 0.4, "ratio"),
    ]


def test_no_acceptance_rate_for_a_setting_a_whole_number_or_a_fraction_far_from_the_word(tmp_path):
    """Control: "temperature 0.6" then "acceptance" later in the sentence, "acceptance 1" (no
    decimal), "draft-p-min 0.75 gave higher acceptance": listed, not claims."""
    cf = _drafted(
        "At temperature 0.6 the decode rate was 41 tok/s with good acceptance.\n\n"
        "Acceptance 1 on the easy prompt.\n\nA draft-p-min of 0.75 gave higher acceptance overall.\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("decode_tps", 41.0, "tok/s")]


def test_a_unit_after_a_number_in_a_header_is_not_the_columns(tmp_path):
    """ "Theoretical max (5.1 GB model)" holds rates (its cells say tok/s); the control "Size (GB)"
    is still the column's unit."""
    cf = _drafted(
        "| Chip | Theoretical max (5.1 GB model) | Size (GB) |\n|---|---|---|\n"
        "| M3 Ultra | ~160 tok/s | 5.1 |\n| M4 Pro | ~53 tok/s | 4.8 |\n",
        tmp_path,
    )
    assert [(c.id, c.metric, c.value, c.unit, c.about) for c in cf.claims] == [
        ("t1-theoretical-r1", "decode_tps", 160.0, "tok/s", True),
        ("t1-theoretical-r2", "decode_tps", 53.0, "tok/s", True),
        ("t1-size-r1", "model_size", 5.1, "GB", False),
        ("t1-size-r2", "model_size", 4.8, "GB", False),
    ]


def test_product_names_are_not_quantities(tmp_path):
    """ "3950X", "9950X" (no multiple), "8060S" (no seconds), "4080,16GB" (a card and its memory,
    not 4080.16 GB): no claims; the rate is."""
    cf = _drafted(
        "My Ryzen 3950X ran it with a 4080,16GB card.\n\nThe 9950X and the Radeon 8060S iGPU did 40 tok/s.\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("decode_tps", 40.0, "tok/s")]
    assert cf.draft is not None
    # (the card "a 4080" is a name, no number: since session 57 not listed; its 16GB is)
    assert [u.number for u in cf.draft.unplaced] == ["16"]


def test_glued_units_of_real_quantities_stay(tmp_path):
    """Control: "120s" (seconds, lower case), "6,7 GB" (a decimal comma), "10X" (a multiple of a
    short number) are still read."""
    cf = _drafted("It took 120s; the file is 6,7 GB.\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("duration", 120.0, "s"),
        ("model_size", 6.7, "GB"),
    ]
    assert [(n.text, n.unit) for n in numbers("10X faster")] == [("10", "x")]


def test_a_command_right_after_a_table_is_the_tables(tmp_path):
    """ "Server command:" then the command line, after a table no command preceded: its flags are
    the table's conditions; the closing backtick is not part of the last flag ("-fa`")."""
    cf = _drafted(
        "| GPU | n_max 0 |\n|--|--|\n| P40 | 8.7 tps |\n\nServer command:\n\n"
        "`./llama-server -m Qwen2.5-Coder-32B-Instruct-Q4_K_M.gguf -ngl 99 -fa`\n",
        tmp_path,
    )
    assert [(c.id, c.value, _set_conditions(cf, c)) for c in cf.claims] == [
        (
            "t1-n-max-0-r1",
            8.7,
            {
                "hardware": "NVIDIA Tesla P40",
                "engine": "llama.cpp",
                "model": "Qwen2.5-Coder-32B-Instruct",
                "quant": "Q4_K_M",
                "offload": {"n_gpu_layers": 99},
                "flash_attn": True,
                "decoding": "plain",  # the header's n_max 0: drafts nothing (header_settings)
            },
        )
    ]


def test_a_command_after_prose_after_a_table_is_not_the_tables(tmp_path):
    """Control: a paragraph between the table and a second command line of the section: the table
    keeps the command before it.  (The one command line of a section holds for all of it,
    ``draftcontext``: tests/test_draft_context.py.)"""
    cf = _drafted(
        "`./llama-server -m Qwen2.5-Coder-7B-Instruct-Q8_0.gguf -ngl 40`\n\n"
        "| GPU | n_max 0 |\n|--|--|\n| P40 | 8.7 tps |\n\nLater I tried something else entirely.\n\n"
        "`./llama-server -m Qwen2.5-Coder-32B-Instruct-Q4_K_M.gguf -ngl 99`\n",
        tmp_path,
    )
    assert [(c.id, _set_conditions(cf, c)) for c in cf.claims] == [
        (
            "t1-n-max-0-r1",
            {
                "hardware": "NVIDIA Tesla P40",
                "engine": "llama.cpp",
                "model": "Qwen2.5-Coder-7B-Instruct",
                "quant": "Q8_0",
                "offload": {"n_gpu_layers": 40},
                "decoding": "plain",
            },
        )
    ]

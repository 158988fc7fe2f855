"""Statements with the right sides (issue 29, session 45): a table's relating column of plain
multiples ("Speedup", "Relative Performance") and its sides found by the values; a "baseline" cell
naming the row a "Slowdown" column is relative to; prose changes in words of other languages and
with what changed between the number and its comparison word ("a 45% performance advantage", "40%
TTFT improvement"); and the controls where none of it must fire."""

from __future__ import annotations

from drafting import drafted as _drafted


def _by_value(cf):
    """The drafted claims by value (the first of each)."""
    out = {}
    for c in cf.claims:
        out.setdefault(c.value, c)
    return out


def _statements(cf):
    """(kind, value, unit, the values of the cited claims) of each drafted statement."""
    values = {c.id: c.value for c in cf.claims}
    return [(s.kind, s.value, s.unit, [values.get(x) for x in s.of]) for s in cf.statements]


# --- a column of plain multiples: "Speedup" -----------------------------------------------------


def test_a_speedup_column_of_plain_numbers_relates_the_row_whose_quotient_it_is(tmp_path):
    """ "New (t/s) | Old (t/s) | Speedup" over 1.5: the new over the old (180 / 120), a multiple
    in x, whichever column comes first; no claim of 1.5 in t/s."""
    cf = _drafted(
        "Prompt processing on my 5950X:\n\n"
        "| Type | Patched (t/s) | Master (t/s) | Speedup |\n|---|---|---|---|\n"
        "| Q4_K | 180.0 | 120.0 | 1.500 |\n| Q5_K | 90.3 | 60.2 | 1.500 |\n| Q6_K | 70.0 | 20.0 | 3.5 |\n",
        tmp_path,
    )
    assert sorted(_statements(cf)) == [
        ("ratio", 1.5, "x", [90.3, 60.2]),
        ("ratio", 1.5, "x", [180.0, 120.0]),
        ("ratio", 3.5, "x", [70.0, 20.0]),
    ]
    assert not [c for c in cf.claims if c.unit in ("t/s", "x") and c.value in (1.5, 3.5)]


def test_a_relative_column_relates_each_row_to_the_one_of_its_kind_whose_cell_is_one(tmp_path):
    """ "Decode Relative Speed" over 1.000 for the two reference rows (one per quant): each other
    row over the reference row whose rate gives its value (4.00 / 2.00 = 2.000 for Q8_0; 6.30 /
    4.20 = 1.500 for Q4), of the decode column, not the prefill one; no statement for the 1.000
    rows."""
    cf = _drafted(
        "| Engine | Quant | Prefill (tokens/s) | Decode (tokens/s) | Decode Relative Speed |\n"
        "|---|---|---|---|---|\n"
        "| fastllm | Q8_0 | 50.0 | 4.00 | 2.000 |\n"
        "| fastllm | Q4 | 70.0 | 6.30 | 1.500 |\n"
        "| refcpp | Q8_0 | 20.0 | 2.00 | 1.000 |\n"
        "| refcpp | Q4 | 30.0 | 4.20 | 1.000 |\n",
        tmp_path,
    )
    assert sorted(_statements(cf)) == [("ratio", 1.5, "x", [6.3, 4.2]), ("ratio", 2.0, "x", [4.0, 2.0])]


def test_a_ratio_column_of_a_setting_stays_no_multiple_control(tmp_path):
    """Control: a "Compression ratio" column of plain numbers is no speedup: no statement, no claim in x."""
    cf = _drafted(
        "| Codec | Compression ratio | Decode (t/s) |\n|---|---|---|\n"
        "| a | 2.5 | 40.0 |\n| b | 3.1 | 35.0 |\n",
        tmp_path,
    )
    assert not cf.statements
    assert not [c for c in cf.claims if c.unit == "x"]


# --- a "baseline" cell: "Slowdown" ----------------------------------------------------------------


def test_a_slowdown_column_whose_cell_says_baseline_relates_every_row_to_that_row(tmp_path):
    """ "| 512 tokens | 90.0 | baseline |" under "Slowdown": each other row's change is from 90.0 to
    the row's rate (-10% for 81.0), a percent change, no claim of the change."""
    cf = _drafted(
        "Generation speed by context:\n\n"
        "| Context | gen tok/s | Slowdown |\n|---|---|---|\n"
        "| 512 tokens | 90.0 | baseline |\n| 8,192 tokens | 81.0 | -10.0% |\n"
        "| 32,768 tokens | 45.0 | -50% |\n",
        tmp_path,
    )
    assert sorted(_statements(cf)) == [
        ("percent_change", -50.0, "%", [90.0, 45.0]),
        ("percent_change", -10.0, "%", [90.0, 81.0]),
    ]
    assert not [c for c in cf.claims if c.unit == "%"]


def test_a_change_column_with_no_baseline_row_stays_claims_control(tmp_path):
    """Control: "Slowdown" cells with no baseline row and one rate column: the other side is not
    in the table, so no statement is guessed."""
    cf = _drafted(
        "| Context | gen tok/s | Slowdown |\n|---|---|---|\n"
        "| 8,192 tokens | 81.0 | -10.0% |\n| 32,768 tokens | 45.0 | -50% |\n",
        tmp_path,
    )
    assert not cf.statements


# --- prose changes: what changed between the number and its word; other languages ------------------


def _claim(cf, value):
    (c,) = [c for c in cf.claims if c.value == value and c.unit == "%"]
    return c


def test_a_performance_advantage_after_a_pair_relates_the_pair(tmp_path):
    """ "A delivered 150.5 tok/s versus B's 100.2, representing a roughly 50% performance advantage":
    a percent change from the smaller to the larger (+50.2%), about; no claim of 50%."""
    cf = _drafted(
        "On my RX 6800, Vulkan delivered 150.5 tokens per second versus ROCm's 100.2 tokens per second, "
        "representing a roughly 50% performance advantage.\n",
        tmp_path,
    )
    assert _statements(cf) == [("percent_change", 50.0, "%", [100.2, 150.5])]
    assert cf.statements[0].about
    assert not [c for c in cf.claims if c.unit == "%"]


def test_an_improvement_of_a_time_is_a_decrease(tmp_path):
    """ "35% TTFT improvement": the time to first token 35% lower, a ttft_change of -35."""
    cf = _drafted(
        "Key optimizations: prefix caching (35% TTFT improvement in our tests), chunked prefill.\n", tmp_path
    )
    c = _claim(cf, -35.0)
    assert c.metric == "ttft_change"


def test_a_higher_time_stays_an_increase_control(tmp_path):
    """Control: "the TTFT came out 20% higher" is a rise (+20); "TTFT was 40% of the total" a share."""
    cf = _drafted(
        "Our notes.\n\nWith the new build the TTFT came out 20% higher than before.\n\n"
        "TTFT was 40% of the total request time.\n",
        tmp_path,
    )
    assert (_claim(cf, 20.0).metric, _claim(cf, 40.0).metric) == ("ttft_change", "share")


def test_changes_of_speed_in_other_languages_and_beat_by(tmp_path):
    """ "9% mais rápido" (Portuguese), "约有 12% 的性能提升" (Chinese: about, the word for performance
    between), "SGLang beat vLLM by 21%": speed changes with no rate on either side."""
    cf = _drafted(
        "O Ollama fica 9% mais rápido com a nova versão.\n\n"
        "通过 MLX 框架相比 GGUF 格式约有 12% 的性能提升。\n\n"
        "In our test SGLang beat vLLM by 21% in every run.\n",
        tmp_path,
    )
    got = {c.value: (c.metric, c.about) for c in cf.claims if c.unit == "%"}
    assert got == {9.0: ("speed_change", False), 12.0: ("speed_change", True), 21.0: ("speed_change", False)}


def test_a_percentage_of_performance_cores_is_no_change_control(tmp_path):
    """Control: "The performance cores sat at 45%" names no comparison: a share, no change."""
    cf = _drafted("Our notes.\n\nThe performance cores sat at 45% the whole run.\n", tmp_path)
    assert _claim(cf, 45.0).metric == "share"
    assert not cf.statements


# --- a multiple whose own line states the pair after it ----------------------------------------------


def test_a_bold_multiple_whose_bullet_states_the_pair_after_it_relates_that_pair(tmp_path):
    """ "**Cached prompts 6.2× faster.** ... first token drops from 248 ms to 40 ms": the larger
    over the smaller (6.2), a ratio statement, no speedup claim."""
    cf = _drafted(
        "## What changed\n\n"
        "- **Cached prompts 6.2× faster.** A new prompt cache skips the template: on a 2000-token prompt "
        "the time to first token drops from 248 ms to 40 ms.\n",
        tmp_path,
    )
    assert _statements(cf) == [("ratio", 6.2, "x", [248.0, 40.0])]
    assert not [c for c in cf.claims if c.metric == "speedup"]


def test_a_coarse_multiple_beside_a_pair_that_does_not_give_it_stays_a_claim_control(tmp_path):
    """Control: "3.5× faster" beside 248 ms and 40 ms (6.2) relates another pair: a speedup claim,
    no statement; "2×" is too coarse to pick a pair."""
    cf = _drafted(
        "## What changed\n\n"
        "- **Cached prompts 3.5× faster.** On a 2000-token prompt the time to first token drops from "
        "248 ms to 40 ms.\n\n- **Long chats 2× faster.** The wall goes from 90 ms to 45 ms.\n",
        tmp_path,
    )
    assert not cf.statements
    assert sorted(c.value for c in cf.claims if c.metric == "speedup") == [2.0, 3.5]


# --- a "vs" column its row's cells do not give --------------------------------------------------------


def test_a_vs_column_of_percentages_of_an_engine_not_in_the_table_is_claims_of_ratios(tmp_path):
    """ "vs upstream" over "75% → 98%" beside Before 100.0 and After 130.0 (+30%): each build
    against another engine the table does not give, no change from Before to After: no statement;
    the percentages (unsigned, around 100%) are claims of a ratio (``speedup`` in %)."""
    cf = _drafted(
        "## Decode (tok/s)\n\n| Model | Before | After | vs upstream |\n|---|---|---|---|\n"
        "| model-a | 100.0 | 130.0 | 75% → 98% |\n| model-b | 90.0 | 120.0 | 101% → 135% |\n",
        tmp_path,
    )
    assert not cf.statements
    assert sorted((c.value, c.metric) for c in cf.claims if c.unit == "%") == [
        (75.0, "speedup"),
        (101.0, "speedup"),
    ]


def test_a_gain_column_its_row_gives_stays_statements_control(tmp_path):
    """Control: "Gain" over "+30.0%" beside Before 100.0 and After 130.0: the change from Before to
    After, a statement per row."""
    cf = _drafted(
        "## Decode (tok/s)\n\n| Model | Before | After | Gain |\n|---|---|---|---|\n"
        "| model-a | 100.0 | 130.0 | +30.0% |\n| model-b | 90.0 | 120.0 | +33.3% |\n",
        tmp_path,
    )
    assert sorted(_statements(cf)) == [
        ("percent_change", 30.0, "%", [100.0, 130.0]),
        ("percent_change", 33.3, "%", [90.0, 120.0]),
    ]


# --- a difference and a change in one cell, under version columns --------------------------------------


def test_a_cell_stating_a_difference_and_a_change_gives_both_statements(tmp_path):
    """ "| 2.5s | 6s | **+3.5s (+140%)** |" under "v1.2.x | v1.3.x | Regression (% Change)": the
    difference 6 - 2.5 = 3.5 s and the change from 2.5 to 6 (+140%); "-0.5s (-25%)" from 2 to 1.5;
    "v1.2.x" is a version, no column of multiples."""
    cf = _drafted(
        "| Test | v1.2.x | v1.3.x | Regression (% Change) |\n|---|---|---|---|\n"
        "| Cold start | 2.5s | 6s | **+3.5s (+140%)** |\n| Hot start | 2s | 1.5s | **-0.5s (-25%)** |\n",
        tmp_path,
    )
    assert sorted(_statements(cf)) == [
        ("difference", -0.5, "s", [1.5, 2.0]),
        ("difference", 3.5, "s", [6.0, 2.5]),
        ("percent_change", -25.0, "%", [2.0, 1.5]),
        ("percent_change", 140.0, "%", [2.5, 6.0]),
    ]


def test_a_time_in_a_change_cell_no_pair_gives_is_no_difference_control(tmp_path):
    """Control: "+9.0s (+140%)" beside 2.5s and 6s (3.5 apart): no difference statement."""
    cf = _drafted(
        "| Test | v1.2.x | v1.3.x | Regression (% Change) |\n|---|---|---|---|\n"
        "| Cold start | 2.5s | 6s | **+9.0s (+140%)** |\n| Hot start | 2s | 1.5s | **-0.5s (-25%)** |\n",
        tmp_path,
    )
    assert not [s for s in cf.statements if s.kind == "difference" and s.value == 9.0]


# --- the two sides in one cell: "Ollama 28 tok/s · vLLM 32 tok/s | vLLM +14%" ---------------------------


def test_a_change_naming_its_side_relates_the_two_numbers_of_the_cell_beside_it(tmp_path):
    """ "| Ollama 30 tok/s · vLLM 36 tok/s | vLLM +20% |" (rows with no header): the change from
    Ollama's 30 to vLLM's 36, a percent change per row, no share claim."""
    cf = _drafted(
        "| Model A · 1× RTX 4090 | Ollama 30 tok/s · vLLM 36 tok/s | vLLM +20% |\n"
        "| Model B · 1× RTX 4090 | Ollama 50 tok/s · vLLM 55 tok/s | vLLM +10% |\n",
        tmp_path,
    )
    assert sorted(_statements(cf)) == [
        ("percent_change", 10.0, "%", [50.0, 55.0]),
        ("percent_change", 20.0, "%", [30.0, 36.0]),
    ]
    assert not [c for c in cf.claims if c.unit == "%"]


# --- a side the post states twice, once rounded ----------------------------------------------------------


def test_a_change_whose_other_side_is_stated_twice_cites_the_precise_one(tmp_path):
    """ "~1500 tokens/s" in the summary and "1500.64 tokens/s" in the list: one number, rounded
    once; "400.17 tokens/s (-73.3% decrease)" is from the precise one (400.17 / 1500.64 - 1)."""
    cf = _drafted(
        "The prompt rate fell from ~1500 tokens/s to ~400 tokens/s.\n\n"
        "#### Old version\n\n* **Prompt eval rate:** **1500.64 tokens/s**\n\n"
        "#### New version\n\n* **Prompt eval rate:** **400.17 tokens/s** (**-73.3% decrease**)\n",
        tmp_path,
    )
    assert ("percent_change", -73.3, "%", [1500.64, 400.17]) in _statements(cf)


def test_two_different_earlier_sides_that_both_fit_stay_unpicked_control(tmp_path):
    """Control: 1500.64 and 1499.9 (no rounding of one another) both give -73.3%: no side picked."""
    cf = _drafted(
        "#### Old version\n\n* **Prompt eval rate:** **1500.64 tokens/s**\n\n"
        "#### Older version\n\n* **Prompt eval rate:** **1499.9 tokens/s**\n\n"
        "#### New version\n\n* **Prompt eval rate:** **400.17 tokens/s** (**-73.3% decrease**)\n",
        tmp_path,
    )
    assert not [s for s in _statements(cf) if s[1] == -73.3]


def test_a_change_far_from_the_only_pair_of_another_line_is_no_statement_control(tmp_path):
    """Control: "SGLang beat vLLM by 15%, reaching 6,000 tokens/second" after a line stating 8,000
    tokens/second of another setup (+33% from 6,000): no statement citing that pair."""
    cf = _drafted(
        "- The Speed King: vLLM with FP4 weights hit 8,000 tokens/second, the highest throughput.\n"
        "- The Efficiency Winner: with INT4 weights on both, SGLang beat vLLM by 15%, reaching 6,000 "
        "tokens/second.\n",
        tmp_path,
    )
    assert not [s for s in cf.statements if s.value == 15.0]

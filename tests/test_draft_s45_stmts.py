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

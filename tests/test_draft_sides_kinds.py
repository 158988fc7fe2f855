"""`benchbook claims draft`: relating phrases whose sides the drafter missed, by kind (issue 29's
statements figure, the kinds found on the tuning posts): each kind with made-up text in new wording
and a control that must not change."""

from __future__ import annotations

from benchbook.audit import schema
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit) for c in cf.claims]


def _stmts(cf: schema.ClaimsFile) -> list[tuple]:
    """(kind, the values of the sides, value, unit) of each statement."""
    out = []
    for s in cf.statements:
        sides = [cf.claim(c).value if cf.claim(c) is not None else c for c in s.of]  # type: ignore[union-attr]
        out.append((s.kind, sides, s.value, s.unit))
    return out


# --- "A vs B unit": a compared pair states its unit once, after the second number --------------------


def test_a_multiple_before_its_pair_written_a_vs_b(tmp_path):
    """"3.1x the throughput of Omega (124 vs 40 tok/s)": both numbers are rates (the unit written
    once), and they are the multiple's sides, the first over the second."""
    cf = _drafted(
        "Engine Zeta delivers 3.1x the throughput of Engine Omega at batch 16 (124 vs 40 tok/s) on one card.\n",
        tmp_path,
    )
    assert [(u, v) for _, v, u in _rows(cf)] == [("tok/s", 124.0), ("tok/s", 40.0)]
    assert _stmts(cf) == [("ratio", [124.0, 40.0], 3.1, "x")]


def test_a_vs_pair_without_a_unit_stays_unread(tmp_path):
    """Control: "batch 8 vs 16" states no unit for either number: neither becomes a claim."""
    cf = _drafted("We compared batch 8 vs 16 and the engine held 52 tok/s in both.\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 52.0, "tok/s")]
    assert cf.statements == []

"""A malformed claims file shows every error, each with file:line, field and fix (a new user's finding:
only the first, followed by "(and 2 more)", so each fix took another run)."""

from __future__ import annotations

import pytest

from benchbook import cli
from benchbook.audit import schema

TWO_CLAIMS = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - id: a
    metric: decode_tps
    value: 10
    method: llama-bench tg128
  - id: b
    metric: decode_tps
    value: fast
    unit: tok/s
    method: llama-bench tg128
    colour: red
"""


def test_every_error_is_shown_with_line_field_and_fix(tmp_path, capsys):
    f = tmp_path / "two.yaml"
    f.write_text(TWO_CLAIMS)
    expected = [
        f"{f}: 3 errors, each with its line, field and fix:",
        f"{f}:5: claims.0.unit: a claim with a value or range needs its unit (tok/s, GiB, s, ratio, %); "
        "fix: see docs/claims.md for the field",
        f"{f}:11: claims.1.value: a number is needed, got str 'fast'; fix: write the number itself, unquoted",
        f"{f}:14: claims.1.colour: Extra inputs are not permitted; "
        "fix: remove it or rename it: claims.1 takes id, metric, value, range, decimals, range_decimals, "
        "about, unit, method, n, origin, conditions, "
        "counts, capacity, limit, spread, statement, log, note, source_line, quote, reviewed",
    ]
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    assert str(e.value).splitlines() == expected  # before: line 5 only, "... (and 2 more); fix: ..."
    assert "more)" not in str(e.value)
    assert cli.main(["audit", str(f)]) == 2
    assert capsys.readouterr().err.splitlines() == ["benchbook: error: " + expected[0], *expected[1:]]


def test_one_error_stays_one_line(tmp_path):
    f = tmp_path / "one.yaml"
    f.write_text(TWO_CLAIMS.replace("    value: fast\n", "    value: 5\n").replace("    colour: red\n", ""))
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    assert str(e.value) == (
        f"{f}:5: claims.0.unit: a claim with a value or range needs its unit (tok/s, GiB, s, ratio, %); "
        "fix: see docs/claims.md for the field"
    )

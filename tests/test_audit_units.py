"""Units whose case carries meaning (b bit / B byte, m milli / M mega, T tera), the direction of a
miss whose stated value has the wrong sign, and ``pp`` as the unit of a difference of values in %.
Each example is a regression test with its exact recomputed interval and verdict text; each has a
clean control."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook.audit import recompute, run, units
from benchbook.audit.delta import consistency_text
from benchbook.audit.verdicts import Here


def _audit(tmp_path: Path, claims: str, statements: str) -> dict:
    p = tmp_path / "c.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"
        f"claims:\n{claims}statements:\n{statements}"
    )
    return {v.id: v for v in run.audit_file(p, here=Here()).verdicts}


def _ends(v) -> tuple[float, float]:
    return (round(v.recomputed_lo, 4), round(v.recomputed_hi, 4))


# --- bits are not bytes ------------------------------------------------------------------------------


def test_a_gigabit_link_is_an_eighth_of_a_gigabyte_link(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: size, metric: model_size, value: 4.2, unit: GB}\n"
        "  - {id: link, metric: download_rate, value: 1, unit: Gb/s}\n"
        "  - {id: link-bytes, metric: download_rate, value: 1, unit: GB/s}\n",
        "  - {id: t, kind: ratio, statement: downloads in about 34 s on a 1 Gb/s link, of: [size, link],\n"
        "     value: 34, about: true, unit: s}\n"
        "  - {id: t-bytes, kind: ratio, statement: about 34 s, of: [size, link-bytes], value: 34,\n"
        "     about: true, unit: s}\n",
    )
    # 4.15e9 B / (1.5e9 / 8 B/s) = 22.1333 s, 4.25e9 / (0.5e9 / 8) = 68 s; "about 34 s" (33..35) meets
    # it.  Read as bytes (the bug) it was 2.767–8.500 s, inconsistent
    assert v["t"].consistency == "consistent" and _ends(v["t"]) == (22.1333, 68.0)
    assert v["t"].recomputed == "22.133–68.000"
    # control: the same link in GB/s is 8 times faster, 2.7667–8.5 s, and 34 s is a major overstatement
    bad = v["t-bytes"]
    assert _ends(bad) == (2.7667, 8.5)
    assert consistency_text(bad) == (
        "inconsistent (major overstatement: 24.500 s, 72.1% of the stated value, beyond its precision)"
    )


def test_case_carries_meaning():
    assert units.factor("Gb", "GB") == 0.125 and units.factor("Mb/s", "MB/s") == 0.125
    assert units.factor("b", "B") == 0.125 and units.factor("Gbit", "Gb") == 1.0
    assert units.quotient_factor("GB", "Gb/s", "s") == 8.0
    # m is milli, not mega; a bare T is tera (no unit), not tokens; lower-case IEC names are no unit
    for unit in ("mB", "T", "T/s", "gib", "MS", "mb/S"):
        assert units.quantity(unit) is None, unit
    with pytest.raises(units.UnitError, match=r"'mB' \(a unit of no known quantity\)"):
        units.factor("mB", "MB")
    # controls: the common spellings, and word units in any case
    assert units.quantity("GiB") == units.Quantity((1, 0, 0), 1024.0**3)
    assert units.quantity("MiB/s") == units.Quantity((1, -1, 0), 1024.0**2)
    assert units.quantity("kB") == units.quantity("KB") == units.Quantity((1, 0, 0), 1e3)
    rate = units.Quantity((0, -1, 1), 1.0)
    assert units.quantity("tok/s") == units.quantity("t/s") == units.quantity("Tok/s") == rate
    assert units.quantity("tokens/s") == units.quantity("TPS") == units.quantity("tps") == rate
    assert units.factor("ms", "s") == 0.001 and units.factor("min", "s") == 60.0
    assert units.factor("%", "x") == 0.01 and units.factor("×", "X") == 1.0
    assert units.unit_key(" Tok / s ") == "tok/s" and units.unit_key("Gb/s") != units.unit_key("GB/s")


def test_a_difference_of_bits_and_bytes_is_converted_and_named(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: a, metric: model_size, value: 8, unit: Gb}\n"
        "  - {id: b, metric: model_size, value: 0.5, unit: GB}\n",
        "  - {id: d, kind: difference, statement: 0.5 GB more, of: [a, b], value: 0.5, unit: GB}\n",
    )
    # 8 Gb = 1 GB (7.5..8.5 Gb = 0.9375..1.0625 GB) minus 0.45..0.55 GB: 0.3875..0.6125 GB
    assert v["d"].consistency == "consistent" and _ends(v["d"]) == (0.3875, 0.6125)


def test_a_statement_in_milli_bytes_is_refused(tmp_path):
    with pytest.raises(recompute.RecomputeError, match=r"'mB' \(a unit of no known quantity\)"):
        _audit(
            tmp_path,
            "  - {id: a, metric: model_size, value: 4, unit: MB}\n"
            "  - {id: b, metric: model_size, value: 3, unit: MB}\n",
            "  - {id: d, kind: difference, statement: 1 mB more, of: [a, b], value: 1, unit: mB}\n",
        )

"""Units whose case carries meaning (b bit / B byte, m milli / M mega, T tera), the direction of a
miss whose stated value has the wrong sign, and ``pp`` as the unit of a difference of values in %.
Each example is a regression test with its exact recomputed interval and verdict text; each has a
clean control."""

from __future__ import annotations

import pytest

from benchbook.audit import precision, recompute, units
from benchbook.audit.delta import consistency_text
from test_audit_precision import _audit, _ends

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


# --- a wrong sign is a wrong direction, not an understatement ------------------------------------------


def test_a_gain_stated_for_a_loss_is_the_wrong_direction(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: before, metric: decode_tps, value: 100.0, unit: tok/s, method: llama-bench tg128}\n"
        "  - {id: after, metric: decode_tps, value: 80.0, unit: tok/s, method: llama-bench tg128}\n",
        "  - {id: up3, kind: percent_change, statement: 3% faster, of: [before, after], value: 3,\n"
        "     unit: '%'}\n"
        "  - {id: r11, kind: ratio, statement: 1.1x faster, of: [after, before], value: 1.1, unit: x}\n"
        "  - {id: r90, kind: ratio, statement: 110% of before, of: [after, before], value: 110, unit: '%'}\n"
        "  - {id: down3, kind: percent_change, statement: 3% slower, of: [before, after], value: -3,\n"
        "     unit: '%'}\n"
        "  - {id: r09, kind: ratio, statement: 0.9x, of: [after, before], value: 0.9, unit: x}\n"
        "  - {id: r07, kind: ratio, statement: 0.7x, of: [after, before], value: 0.7, unit: x}\n"
        "  - {id: zero, kind: percent_change, statement: no change, of: [before, after], value: 0,\n"
        "     unit: '%'}\n",
    )
    # (79.95 / 100.05 - 1) x 100 = -20.0900, (80.05 / 99.95 - 1) x 100 = -19.9100; 3% allows 2.5..3.5
    assert _ends(v["up3"]) == (-20.09, -19.91)
    assert consistency_text(v["up3"]) == (
        "inconsistent (major, wrong direction: 22.410 pp, 747.0% of the stated value, beyond its precision)"
    )
    # 79.95 / 100.05 = 0.7991, 80.05 / 99.95 = 0.8009; "1.1x" allows 1.05..1.15
    assert _ends(v["r11"]) == (0.7991, 0.8009)
    assert consistency_text(v["r11"]) == (
        "inconsistent (major, wrong direction: 0.249 x, 22.6% of the stated value, beyond its precision)"
    )
    assert v["r11"].severity == "major, wrong direction"
    # a ratio in %: no effect is 100
    assert v["r90"].severity == "major, wrong direction"
    # controls: the right sign, too small, is an understatement (0.9x: 0.85 - 0.8009 = 0.0491, 5.5% of
    # 0.9), the right sign, too large, an overstatement (0.7x: 0.8009 - 0.75 = 0.0491 x, 7.0% of 0.7);
    # a stated 0 (-0.5..0.5 reaches no change) has no side to be wrong on: an understatement
    assert consistency_text(v["down3"]) == (
        "inconsistent (major understatement: 16.410 pp, 547.0% of the stated value, beyond its precision)"
    )
    assert consistency_text(v["r09"]) == (
        "inconsistent (material understatement: 0.049 x, 5.5% of the stated value, beyond its precision)"
    )
    assert consistency_text(v["r07"]) == (
        "inconsistent (material overstatement: 0.049 x, 7.0% of the stated value, beyond its precision)"
    )
    assert v["zero"].severity == "major understatement"


def test_miss_direction_by_side_of_the_reference():
    sev = precision.Severity()
    I = precision.Interval  # noqa: E741
    # stated 1.1 (allowed 1.05..1.15) above 1, recomputed below: wrong direction, as text
    m = precision.miss(I(0.7991, 0.8009), I(1.05, 1.15), I(1.1, 1.1), sev, 1.0)
    assert m is not None and m.direction == "wrong direction" and m.word == "major, wrong direction"
    assert m.text("x") == "major, wrong direction: 0.249 x (22.6% of the stated value) beyond its precision"
    # a stated -3 (allowed -3.5..-2.5) for a recomputed +20: wrong direction the other way
    m = precision.miss(I(19.91, 20.09), I(-3.5, -2.5), I(-3, -3), sev, 0.0)
    assert m is not None and m.direction == "wrong direction"
    # controls: one side, and an allowed interval that reaches the reference, keep their words;
    # a bound (reference None) has none
    assert precision.miss(I(0.7991, 0.8009), I(0.85, 0.95), I(0.9, 0.9), sev, 1.0).word == (
        "material understatement"
    )
    assert precision.miss(I(-20.09, -19.91), I(-0.5, 0.5), I(0, 0), sev, 0.0).direction == "understatement"
    assert precision.miss(I(0.7991, 0.8009), I(1.05, 1.15), I(1.1, 1.1), sev, None).word == "major"


# --- pp: the unit of a difference of values in % --------------------------------------------------------


def test_a_difference_of_percentages_in_points(tmp_path):
    claims = (
        "  - {id: a, metric: acceptance_rate, value: 75, unit: '%', counts: {accepted: 75, drafted: 100}}\n"
        "  - {id: b, metric: acceptance_rate, value: 60, unit: '%', counts: {accepted: 60, drafted: 100}}\n"
        "  - {id: ax, metric: acceptance_rate, value: 0.75, unit: x}\n"
        "  - {id: bx, metric: acceptance_rate, value: 0.60, unit: x}\n"
    )
    v = _audit(
        tmp_path,
        claims,
        "  - {id: d, kind: difference, statement: 15 points higher, of: [a, b], value: 15, unit: pp}\n"
        "  - {id: d-x, kind: difference, statement: 15 points higher, of: [ax, bx], value: 15, unit: pp}\n"
        "  - {id: d-20, kind: difference, statement: 20 points higher, of: [a, b], value: 20, unit: pp}\n",
    )
    # 74.5..75.5 - 59.5..60.5 = 14..16 pp, and 15 pp stands for 14.5..15.5: consistent
    assert v["d"].consistency == "consistent" and _ends(v["d"]) == (14.0, 16.0)
    assert v["d"].unit == "pp" and v["d"].recomputed == "14.000–16.000"
    # the same in x: 0.745..0.755 - 0.595..0.605 = 0.14..0.16 x = 14..16 pp
    assert v["d-x"].consistency == "consistent" and _ends(v["d-x"]) == (14.0, 16.0)
    # control: 20 pp (19.5..20.5) misses 14..16 by 3.5 pp, 3.5 / 20 = 17.5%
    assert consistency_text(v["d-20"]) == (
        "inconsistent (major overstatement: 3.500 pp, 17.5% of the stated value, beyond its precision)"
    )
    assert units.factor("%", "pp") == 1.0 and units.factor("x", "pp") == 100.0
    # pp is no unit of a ratio (a ratio in pp would be read as x), nor of a difference of speeds
    with pytest.raises(recompute.RecomputeError, match=r"statement r: a ratio stated in .pp., but a"):
        _audit(tmp_path, claims, "  - {id: r, kind: ratio, statement: q, of: [a, b], value: 125, unit: pp}\n")
    with pytest.raises(recompute.RecomputeError, match=r"'tok/s' \(a rate of tokens \(tok/s\)\) vs 'pp'"):
        _audit(
            tmp_path,
            "  - {id: s, metric: decode_tps, value: 75, unit: tok/s}\n"
            "  - {id: t, metric: decode_tps, value: 60, unit: tok/s}\n",
            "  - {id: d, kind: difference, statement: q, of: [s, t], value: 15, unit: pp}\n",
        )


def test_a_claim_in_a_unit_whose_case_has_no_reading_is_refused(tmp_path):
    with pytest.raises(Exception) as e:
        _audit(tmp_path, "  - {id: a, metric: model_size, value: 4, unit: mB}\n", "  []\n")
    assert str(e.value).endswith(
        ":5: claims.0.unit: 'mB' is no size unit as spelled: case carries meaning (B byte, b bit; M mega, "
        "m milli; T tera); fix: write it as units.py spells it (MB, GiB, Gb, ms, s, min)"
    )
    # a bare T is tera, not tokens
    with pytest.raises(Exception, match=r"claims.0.unit: 'T/s' is no rate unit as spelled"):
        _audit(tmp_path, "  - {id: a, metric: decode_tps, value: 4, unit: T/s}\n", "  []\n")
    # control: bits and bytes in their own spelling load
    v = _audit(
        tmp_path,
        "  - {id: a, metric: model_size, value: 4, unit: Mb}\n"
        "  - {id: b, metric: model_size, value: 4, unit: MB}\n"
        "  - {id: c, metric: decode_tps, value: 4, unit: Tok/s}\n"
        "  - {id: d, metric: decode_tps, value: 4, unit: it/s}\n",
        "  []\n",
    )
    assert set(v) == {"a", "b", "c", "d"}

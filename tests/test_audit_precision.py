"""Issue 27: the audit reads like a careful reader.  Cited values carry their stated precision through
every statement kind (interval arithmetic); an inconsistency has a size and a severity; quantities
combine by dimension; comparisons of small counts rank nothing.  Each example of the issue is a
regression test with its exact recomputed interval, each with a clean control; the property test
checks that a statement computed from the true values and rounded to its digits is never called
inconsistent, whatever digits its cited values were rounded to."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchbook.audit import command, precision, recompute, run, schema, units
from benchbook.audit.verdicts import Here

ROOT = Path(__file__).resolve().parents[1]


def _audit(tmp_path: Path, claims: str, statements: str) -> dict:
    p = tmp_path / "c.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"
        f"claims:\n{claims}statements:\n{statements}"
    )
    return {v.id: v for v in run.audit_file(p, here=Here()).verdicts}


def _ends(v) -> tuple[float, float]:
    return (round(v.recomputed_lo, 4), round(v.recomputed_hi, 4))


# --- 1. cited values carry their stated precision -----------------------------------------------------


def test_about_130_to_about_108_is_about_15_percent_lower(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: before, metric: decode_tps, value: 130, about: true, unit: tok/s}\n"
        "  - {id: after, metric: decode_tps, value: 108, about: true, unit: tok/s}\n",
        "  - {id: about-15, kind: percent_change, statement: about 15% lower, of: [before, after],\n"
        "     value: -15, about: true, unit: '%'}\n"
        "  - {id: exactly-14, kind: percent_change, statement: 14% lower, of: [before, after],\n"
        "     value: -14, unit: '%'}\n",
    )
    # the sides stand for 129..131 and 107..109: (107 / 131 - 1) x 100 = -18.3206, (109 / 129 - 1) x 100
    # = -15.5039; "about 15% lower" stands for -16..-14: they meet (exact 108 / 130 - 1 = -16.9% did not)
    assert v["about-15"].consistency == "consistent"
    assert _ends(v["about-15"]) == (-18.3206, -15.5039)
    assert v["about-15"].severity is None and v["about-15"].miss is None
    # control: "14% lower" stands for -14.5..-13.5: -15.5039 misses it by 1.0039 pp, 1.0039 / 14 = 7.2%
    bad = v["exactly-14"]
    assert bad.consistency == "inconsistent"
    assert bad.miss == pytest.approx(1.0039, abs=1e-4) and bad.miss_relative == pytest.approx(
        0.0717, abs=1e-4
    )
    # the stated drop (14) lies nearer no change than the numbers give: an understatement
    assert bad.severity == "material understatement"


def test_a_derived_rate_column_carries_the_seconds_precision(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: n, metric: tokens_generated, value: 850, unit: tokens}\n"
        "  - {id: t, metric: duration, value: 9.8, unit: s}\n"
        "  - {id: t-ms, metric: duration, value: 9800, unit: ms}\n",
        "  - {id: rate, kind: ratio, statement: 86.3 tok/s, of: [n, t], value: 86.3, unit: tok/s}\n"
        "  - {id: rate-ms, kind: ratio, statement: 86.7 tok/s, of: [n, t-ms], value: 86.7, unit: tok/s}\n"
        "  - {id: rate-bad, kind: ratio, statement: 88.0 tok/s, of: [n, t], value: 88.0, unit: tok/s}\n",
    )
    # 850 tokens is a count (exact); 9.8 s stands for 9.75..9.85: 850 / 9.85 = 86.2944, 850 / 9.75 =
    # 87.1795; 86.3 (86.25..86.35) meets it, though 850 / 9.8 = 86.73
    assert v["rate"].consistency == "consistent" and _ends(v["rate"]) == (86.2944, 87.1795)
    # 9800 ms (9799.5..9800.5 ms) is converted to s: 850 / 9.8005 = 86.7303, 850 / 9.7995 = 86.7391
    assert v["rate-ms"].consistency == "consistent" and _ends(v["rate-ms"]) == (86.7303, 86.7391)
    # control: 88.0 (87.95..88.05) lies 0.7705 tok/s above 87.1795: 0.88% of 88, minor
    bad = v["rate-bad"]
    assert bad.consistency == "inconsistent" and bad.miss == pytest.approx(0.7705, abs=1e-4)
    assert bad.severity == "minor overstatement"


def test_every_kind_reads_its_cited_values_as_intervals(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: x, metric: decode_tps, value: 40, unit: tok/s}\n"
        "  - {id: y, metric: decode_tps, value: 10, unit: tok/s}\n"
        "  - {id: r, metric: decode_tps, range: [6.1, 6.34], unit: tok/s}\n",
        "  - {id: diff, kind: difference, statement: d, of: [x, y], value: 31, unit: tok/s}\n"
        "  - {id: sum, kind: sum, statement: s, of: [x, y], value: 51, unit: tok/s}\n"
        "  - {id: mean, kind: mean, statement: m, of: [x, y], value: 24, unit: tok/s}\n"
        "  - {id: ratio-range, kind: ratio, statement: q, of: [x, r], value: 6.6, unit: x}\n",
    )
    # 40 and 10 stand for 39.5..40.5 and 9.5..10.5
    assert _ends(v["diff"]) == (29.0, 31.0) and v["diff"].consistency == "consistent"  # 39.5-10.5, 40.5-9.5
    assert _ends(v["sum"]) == (49.0, 51.0) and v["sum"].consistency == "consistent"
    # mean 24.5..25.5 meets "24" (23.5..24.5): exact 25 made it inconsistent
    assert _ends(v["mean"]) == (24.5, 25.5) and v["mean"].consistency == "consistent"
    # a range's ends keep their own digits: 6.1 -> 6.05, 6.34 -> 6.345; 39.5 / 6.345 = 6.2254,
    # 40.5 / 6.05 = 6.6942
    assert _ends(v["ratio-range"]) == (6.2254, 6.6942) and v["ratio-range"].consistency == "consistent"


def test_a_cited_zero_stays_in_its_domain(tmp_path):
    # "0 tok/s" stands for 0..0.5, never -0.5: a ratio over it is undefined, the rest still checked
    v = _audit(
        tmp_path,
        "  - {id: a, metric: decode_tps, value: 10, unit: tok/s}\n"
        "  - {id: z, metric: decode_tps, value: 0, unit: tok/s}\n",
        "  - {id: s, kind: ratio, statement: a over z, of: [a, z], value: 2}\n"
        "  - {id: d, kind: difference, statement: a minus z, of: [a, z], value: 10, unit: tok/s}\n",
    )
    assert v["s"].consistency == "not checkable"
    assert v["s"].notes[0].startswith("not checkable: a ratio over 0.0000–0.5000 is undefined")
    assert _ends(v["d"]) == (9.0, 10.5) and v["d"].consistency == "consistent"


# --- 2. an inconsistency has a size --------------------------------------------------------------------


def test_minus_31_4_percent_is_a_minor_miss(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: before, metric: decode_tps, value: 150.0, unit: tok/s}\n"
        "  - {id: after, metric: decode_tps, value: 102.4, unit: tok/s}\n",
        "  - {id: drop, kind: percent_change, statement: 31.4% slower, of: [before, after],\n"
        "     value: -31.4, unit: '%'}\n",
    )["drop"]
    # 149.95..150.05 -> 102.35..102.45: (102.35 / 150.05 - 1) x 100 = -31.7894, (102.45 / 149.95 - 1) x 100
    # = -31.6772; "-31.4" allows -31.45..-31.35: missed by 31.6772 - 31.45 = 0.2272 pp, 0.72% of 31.4
    assert v.consistency == "inconsistent" and _ends(v) == (-31.7894, -31.6772)
    assert (v.allowed_lo, v.allowed_hi) == pytest.approx((-31.45, -31.35))
    assert v.miss == pytest.approx(0.2272, abs=1e-4) and v.miss_relative == pytest.approx(0.00724, abs=1e-5)
    assert v.severity == "minor understatement"


def test_2x_faster_for_36_to_66_is_a_material_overstatement(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: base, metric: decode_tps, value: 36, unit: tok/s}\n"
        "  - {id: new, metric: decode_tps, value: 66, unit: tok/s}\n",
        "  - {id: twice, kind: ratio, statement: 2x faster, of: [new, base], value: 2, unit: x}\n"
        "  - {id: about-twice, kind: ratio, statement: about 2x, of: [new, base], value: 2, about: true,\n"
        "     unit: x}\n"
        "  - {id: one-eight, kind: ratio, statement: 1.8x faster, of: [new, base], value: 1.8, unit: x}\n",
    )
    # 65.5 / 36.5 = 1.7945, 66.5 / 35.5 = 1.8732; "2x", a whole multiple, is read as 2.0x: 1.95..2.05
    t = v["twice"]
    assert t.consistency == "inconsistent" and _ends(t) == (1.7945, 1.8732)
    assert (t.allowed_lo, t.allowed_hi) == pytest.approx((1.95, 2.05))
    # 1.95 - 1.8732 = 0.0768 x, 3.84% of 2: material; 2 lies farther from 1 than 1.87: overstatement
    assert t.miss == pytest.approx(0.0768, abs=1e-4) and t.miss_relative == pytest.approx(0.0384, abs=1e-4)
    assert t.severity == "material overstatement"
    # controls: "about 2x" (1..3) and "1.8x" (1.75..1.85) hold it
    assert v["about-twice"].consistency == "consistent" and v["one-eight"].consistency == "consistent"


def test_the_size_is_on_the_terminal_row_and_the_page(tmp_path, capsys, monkeypatch):
    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
        "  - {id: base, metric: decode_tps, value: 36, unit: tok/s}\n"
        "  - {id: new, metric: decode_tps, value: 66, unit: tok/s}\n"
        "statements:\n"
        "  - {id: twice, kind: ratio, statement: 2x faster, of: [new, base], value: 2, unit: x}\n"
    )
    monkeypatch.chdir(ROOT)
    assert command.main([str(f), "--out", str(tmp_path / "o"), "--pages", str(tmp_path / "o")]) == 0
    row = capsys.readouterr().out.splitlines()[-1].split("\t")
    assert row[6] == (
        "inconsistent (material overstatement: 0.077 x, 3.8% of the stated value, beyond its precision)"
    )
    page = (tmp_path / "o" / "c.qmd").read_text()
    assert "<b>material overstatement: 0.077 x, 3.8% of the stated value, beyond its precision</b>" in page


def test_severity_thresholds_come_from_params(tmp_path):
    here = Here.from_params({"audit": {"severity": {"minor": 0.05, "material": 0.5}}})
    assert here.severity == precision.Severity(minor=0.05, material=0.5)
    assert [here.severity.word(x) for x in (0.0384, 0.2, 0.5)] == ["minor", "material", "major"]
    with pytest.raises(ValueError, match="params.yaml audit.severity: .*minor < material"):
        Here.from_params({"audit": {"severity": {"minor": 0.2, "material": 0.1}}})
    with pytest.raises(ValueError, match="params.yaml audit.severity: .*minr"):
        Here.from_params({"audit": {"severity": {"minr": 0.2}}})


# --- 3. quantities combine by dimension ------------------------------------------------------------


def test_a_size_over_a_rate_is_a_time(tmp_path):
    v = _audit(
        tmp_path,
        "  - {id: size, metric: model_size, value: 4.2, unit: GB}\n"
        "  - {id: speed, metric: download_rate, value: 35, unit: MB/s}\n"
        "  - {id: size-iec, metric: model_size, value: 4.2, unit: GiB}\n"
        "  - {id: speed-iec, metric: download_rate, value: 35, unit: MiB/s}\n",
        "  - {id: took-40, kind: ratio, statement: took about 40 min, of: [size, speed], value: 40,\n"
        "     about: true, unit: min}\n"
        "  - {id: took-2, kind: ratio, statement: took about 2 min, of: [size, speed], value: 2,\n"
        "     about: true, unit: min}\n"
        "  - {id: took-iec, kind: ratio, statement: took 123 s, of: [size-iec, speed-iec], value: 123,\n"
        "     unit: s}\n",
    )
    # 4.15e9 B / 35.5e6 B/s = 116.90 s = 1.9484 min; 4.25e9 / 34.5e6 = 123.19 s = 2.0531 min (4.2 / 35 =
    # 0.12 GB per MB/s = 120 s = 2.0 min); "about 40 min" (39..41) misses by 39 - 2.0531 = 36.947 min
    bad = v["took-40"]
    assert bad.consistency == "inconsistent" and _ends(bad) == (1.9484, 2.0531)
    assert bad.miss == pytest.approx(36.9469, abs=1e-4) and bad.severity == "major overstatement"
    assert v["took-2"].consistency == "consistent"
    # IEC prefixes: 4.15 x 1024^3 / (35.5 x 1024^2) = 119.71 s, 4.25 x 1024 / 34.5 = 126.14 s
    assert v["took-iec"].consistency == "consistent" and _ends(v["took-iec"]) == (119.7070, 126.1449)


def test_a_mix_of_no_meaning_is_refused_with_its_reason(tmp_path):
    claims = (
        "  - {id: size, metric: model_size, value: 4.2, unit: GB}\n"
        "  - {id: speed, metric: download_rate, value: 35, unit: MB/s}\n"
    )
    with pytest.raises(
        recompute.RecomputeError,
        match=r"statement s: stated in 'tok/s', but 'GB' ÷ 'MB/s' is a time \(s\), not 'tok/s', a rate "
        r"of tokens \(tok/s\)",
    ):
        _audit(
            tmp_path,
            claims,
            "  - {id: s, kind: ratio, statement: q, of: [size, speed], value: 2, unit: tok/s}\n",
        )
    with pytest.raises(
        recompute.RecomputeError,
        match=r"statement s: a sum of numbers in different units \['GB', 'MB/s'\] \('MB/s' and 'GB' are "
        r"not units of one quantity: 'MB/s' \(a rate of bytes \(B/s\)\) vs 'GB' \(a size \(B\)\)\)",
    ):
        _audit(
            tmp_path, claims, "  - {id: s, kind: sum, statement: q, of: [size, speed], value: 2, unit: GB}\n"
        )
    # a plain ratio of two quantities ("x") is refused too; a ratio of one quantity converts (control)
    with pytest.raises(recompute.RecomputeError, match="a ratio of numbers in different units"):
        _audit(
            tmp_path, claims, "  - {id: s, kind: ratio, statement: q, of: [size, speed], value: 2, unit: x}\n"
        )


def test_units_by_dimension():
    assert units.quantity("MB/s") == units.Quantity((1, -1, 0), 1e6)
    assert units.quantity("tps") == units.quantity("tok/s") == units.Quantity((0, -1, 1), 1.0)
    assert units.quantity("it/s") is None and units.quantity("tokens/step") is None
    # 4.2 GB / 35 MB/s in min: 0.12 x 1e9 / 1e6 / 60 = 2.0
    assert 4.2 / 35 * units.quotient_factor("GB", "MB/s", "min") == pytest.approx(2.0)
    assert units.factor("GiB/s", "MB/s") == pytest.approx(1073.741824)
    assert units.factor("tok/ms", "tok/s") == 1000.0


# --- 4. comparisons of small counts ------------------------------------------------------------------


COUNTS = (
    "  - {id: a7, metric: accuracy, value: 58.3, unit: '%', counts: {successes: 7, trials: 12}}\n"
    "  - {id: b7, metric: accuracy, value: 58.3, unit: '%', counts: {successes: 7, trials: 12}}\n"
    "  - {id: c9, metric: accuracy, value: 75, unit: '%', counts: {successes: 9, trials: 12}}\n"
    "  - {id: big-a, metric: accuracy, value: 60, unit: '%', counts: {successes: 60, trials: 100}}\n"
    "  - {id: big-b, metric: accuracy, value: 90, unit: '%', counts: {successes: 90, trials: 100}}\n"
)


def test_small_counts_have_no_discriminating_power(tmp_path):
    v = _audit(
        tmp_path,
        COUNTS,
        "  - {id: tie, kind: difference, statement: as accurate, of: [a7, b7], value: 0, unit: '%'}\n"
        "  - {id: better, kind: difference, statement: C beats A, of: [c9, a7], value: 16.7, unit: '%'}\n"
        "  - {id: big, kind: difference, statement: B beats A, of: [big-b, big-a], value: 30, unit: '%'}\n",
    )
    small = {i: [q for q in v[i].qualifiers if q.check == "small_counts"] for i in ("tie", "better", "big")}
    # Fisher's exact test, two-sided: 7/12 vs 7/12 p = 1; 9/12 vs 7/12 p = 0.6668 (hypergeometric sum)
    assert [(q.kind, q.reason, q.evidence) for q in small["tie"]] == [
        (
            "at risk",
            "7 of 12 vs 7 of 12: Fisher's exact test (two-sided) p = 1.000 >= 0.05: counts this small have "
            "no discriminating power; the comparison ranks neither",
            ["a7", "b7"],
        )
    ]
    assert small["better"][0].reason.startswith(
        "9 of 12 vs 7 of 12: Fisher's exact test (two-sided) p = 0.667"
    )
    # control: 90 of 100 vs 60 of 100 (p ~ 1e-6) tells them apart
    assert small["big"] == []
    # a counted proportion is checked against its counts: 7 / 12 = 58.333% in 58.25..58.35
    assert (v["a7"].consistency, v["a7"].recomputed) == ("consistent", "58.333")


def test_counts_name_one_pair(tmp_path):
    with pytest.raises(schema.ClaimsError, match="give one pair"):
        _audit(
            tmp_path,
            "  - {id: a, metric: accuracy, value: 50, unit: '%', counts: {successes: 1, drafted: 2}}\n",
            "",
        )


# --- the property: rounding to the stated digits never makes a statement inconsistent --------------


def _rounded(x: float, digits: int) -> float:
    return round(x, digits)


def _claim(cid: str, value: float, digits: int, about: bool, unit: str, **more) -> dict:
    return {
        "id": cid,
        "metric": more.pop("metric", "decode_tps"),
        "value": _rounded(value, digits),
        "decimals": digits,
        "about": about,
        "unit": unit,
        **more,
    }


def _statement(sid: str, kind: str, of: list[str], true: float, unit: str, rng: random.Random) -> dict:
    # a whole multiple in x is read as N.0 (precision module doc): its digits start at 1
    digits = rng.randint(1 if unit == "x" else 0, 3)
    return {
        "id": sid,
        "kind": kind,
        "statement": sid,
        "of": of,
        "value": _rounded(true, digits),
        "decimals": digits,
        "about": rng.random() < 0.2,
        "unit": unit,
    }


def _check(claims: list[dict], statements: list[dict]) -> dict:
    cf = schema.ClaimsFile.model_validate(
        {
            "schema": "benchbook.claims",
            "schema_version": 1,
            "source": {"kind": "property"},
            "claims": claims,
            "statements": statements,
        }
    )
    return recompute.recompute_all(cf)


@pytest.mark.parametrize(
    "kind",
    ["ratio", "ratio_pct", "percent_change", "difference", "sum", "mean", "bound", "bound_above", "quotient"],
)
def test_rounding_to_the_stated_digits_is_never_inconsistent(kind):
    rng = random.Random(27)
    failures = []
    for case in range(2000):
        trues = [10 ** rng.uniform(-1, 3) for _ in range(3)]
        digits = [rng.randint(0, 3) for _ in trues]
        about = [rng.random() < 0.2 for _ in trues]
        claims = [
            _claim(f"c{i}", t, d, ab, "tok/s", conditions={"env": f"e{i % 2}", "decoding": "plain"})
            for i, (t, d, ab) in enumerate(zip(trues, digits, about, strict=True))
        ]
        a, b, c = trues
        if kind == "ratio":
            stmt = _statement("s", "ratio", ["c0", "c1"], a / b, "x", rng)
        elif kind == "ratio_pct":
            stmt = _statement("s", "ratio", ["c0", "c1"], 100 * a / b, "%", rng)
        elif kind == "percent_change":
            stmt = _statement("s", "percent_change", ["c0", "c1"], (b / a - 1) * 100, "%", rng)
        elif kind == "difference":
            stmt = _statement("s", "difference", ["c0", "c1"], a - b, "tok/s", rng)
        elif kind == "sum":
            stmt = _statement("s", "sum", ["c0", "c1", "c2"], a + b + c, "tok/s", rng)
        elif kind == "mean":
            stmt = _statement("s", "mean", ["c0", "c1", "c2"], (a + b + c) / 3, "tok/s", rng)
        elif kind == "bound":
            # every c? (env e0: c0, c2) below a bound above their largest true value, rounded to its digits
            claims[1]["conditions"] = {"env": "e1", "decoding": "other"}
            top = max(a, c) * (1 + rng.uniform(0.001, 0.5))
            stmt = _statement("s", "bound", [], top, "tok/s", rng)
            stmt |= {"over": {"numerator": {"env": "e0"}}, "relation": "below"}
            del stmt["of"]
        elif kind == "bound_above":
            claims[1]["conditions"] = {"env": "e1", "decoding": "other"}
            floor = min(a, c) * (1 - rng.uniform(0.001, 0.5))
            stmt = _statement("s", "bound", [], floor, "tok/s", rng)
            stmt |= {"over": {"numerator": {"env": "e0"}}, "relation": "above"}
            del stmt["of"]
        else:  # a count of tokens over a time in ms, stated in tok/s
            tokens = rng.randint(1, 5000)
            claims[0] = _claim("c0", tokens, 0, False, "tokens", metric="tokens_generated")
            claims[1] = _claim("c1", b * 1000, digits[1], about[1], "ms", metric="duration")
            stmt = _statement("s", "ratio", ["c0", "c1"], tokens / b, "tok/s", rng)
        r = _check(claims, [stmt])["s"]
        if r.verdict == "inconsistent":
            failures.append((case, claims, stmt, r.in_unit, r.allowed))
    assert failures == [], failures[:3]


def test_the_property_catches_a_wrong_statement():
    # control for the property: the same generator with the statement off by 10% is caught
    rng = random.Random(27)
    caught = 0
    for _ in range(200):
        a, b = 10 ** rng.uniform(0, 3), 10 ** rng.uniform(0, 3)
        claims = [_claim("c0", a, 2, False, "tok/s"), _claim("c1", b, 2, False, "tok/s")]
        stmt = _statement("s", "ratio", ["c0", "c1"], 110 * a / b, "%", rng) | {"about": False, "decimals": 3}
        stmt["value"] = round(110 * a / b, 3)
        caught += _check(claims, [stmt])["s"].verdict == "inconsistent"
    assert caught == 200


def test_the_stated_cell_keeps_the_digits_as_written(tmp_path):
    """ "0.70" stands for 0.695–0.705 and prints as written, not as 0.7 (which stands for 0.65–0.75);
    a range's ends keep their own digits; a value written without decimals stays bare."""
    from benchbook.audit.delta import delta

    v = _audit(
        tmp_path,
        "  - {id: a, metric: decode_tps, value: 72.60, unit: tok/s}\n"
        "  - {id: b, metric: decode_tps, value: 100, unit: tok/s}\n"
        "  - {id: r, metric: decode_tps, range: [6.1, 6.340], unit: tok/s}\n",
        "  - {id: s, kind: ratio, statement: 0.70 of before, of: [a, b], value: 0.70, unit: x}\n",
    )
    assert delta(v["s"]).stated == "0.70 x"
    assert delta(v["a"]).stated == "72.60 tok/s" and delta(v["b"]).stated == "100 tok/s"
    assert delta(v["r"]).stated == "6.1–6.340 tok/s"
    assert precision.written(None, None, None, None) is None
    assert precision.written(2500.0, None, None, None) == "2500"

"""The audit is linear in the claims file, at any depth of citation (issue 34 §3 leftovers): a chain of
statements, each citing the one before, is one merge per statement (``tables.Under``), in the order
``recompute.cited_first`` gives (a list, not the call stack); a cycle is an error naming its ids and
their file:line.  ``scripts/bench_audit_scale.py --chain`` prints the times."""

from pathlib import Path

import pytest

from benchbook.audit import recompute, run, schema, standing, tables
from benchbook.audit.verdicts import Here

HEAD = ["schema: benchbook.claims", "schema_version: 1", "source: {kind: blog}", "claims:"]


def chain(folder: Path, n: int, reverse: bool = False) -> Path:
    """``s1`` = a / b (20.5 / 20.5 tok/s), ``s{i}`` = ``s{i-1}`` / ``k{i}`` (1.0000 x), each stated as 1 x
    (the file ``scripts/bench_audit_scale.py --chain`` times)."""
    claims = [
        "  - {id: a, metric: decode_tps, value: 20.5, unit: tok/s, method: llama-bench tg128}",
        "  - {id: b, metric: decode_tps, value: 20.5, unit: tok/s, method: llama-bench tg128}",
    ]
    claims += [f"  - {{id: k{i}, metric: speedup, value: 1.0000, unit: x}}" for i in range(2, n + 1)]
    stmt = "  - {{id: s{i}, kind: ratio, statement: step {i}, of: [{of}], value: 1, unit: x}}"
    statements = [stmt.format(i=i, of="a, b" if i == 1 else f"s{i - 1}, k{i}") for i in range(1, n + 1)]
    if reverse:
        statements.reverse()
    path = folder / f"chain-{n}{'-r' if reverse else ''}.yaml"
    path.write_text("\n".join(HEAD + claims + ["statements:"] + statements) + "\n")
    return path


def _chain_interval(n: int) -> tuple[float, float]:
    # 20.45..20.55 / 20.45..20.55, then n - 1 divisions by 0.99995..1.00005
    return (20.45 / 20.55) / 1.00005 ** (n - 1), (20.55 / 20.45) / 0.99995 ** (n - 1)


def test_a_chain_of_statements_reads_each_claims_conditions_a_fixed_number_of_times(tmp_path, monkeypatch):
    # 800 chained statements took 39 s (175.6 s for this chain; 2.6 s after): every statement's
    # sides re-read every claim under it.  Now the work per claim is fixed: conditions_of is read
    # 25 times per claim, plus 25, at 100, 200 and 400 statements (2, 3 and 4 claims' worth each)
    calls = {"n": 0}
    conditions_of = schema.ClaimsFile.conditions_of

    def counted(self, c):
        calls["n"] += 1
        return conditions_of(self, c)

    monkeypatch.setattr(schema.ClaimsFile, "conditions_of", counted)
    for n in (100, 200, 400):
        calls["n"] = 0
        v = {x.id: x for x in run.audit_file(chain(tmp_path, n), here=Here()).verdicts}
        assert calls["n"] == 25 * n + 25
        lo, hi = _chain_interval(n)
        top = v[f"s{n}"]
        assert top.consistency == "consistent"
        assert top.recomputed_lo == pytest.approx(lo, rel=1e-12)
        assert top.recomputed_hi == pytest.approx(hi, rel=1e-12)
    assert top.recomputed == "0.975–1.025"  # s400: 0.97548..1.02514


def test_a_reversed_chain_of_any_depth_is_recomputed(tmp_path):
    # each statement before the one it cites: 250 deep raised RecursionError (recompute_all's get, one
    # frame per citation); 1,500 deep now loads (the loader's cycle check), recomputes and is judged
    path = chain(tmp_path, 1500, reverse=True)
    cf = schema.load(path)
    assert [s.id for s in recompute.cited_first(cf)][:3] == ["s1", "s2", "s3"]
    r = recompute.recompute_all(cf)
    lo, hi = _chain_interval(1500)  # 0.92328..1.08310
    top = r["s1500"]
    assert top.verdict == "consistent" and top.in_unit.text(3) == "0.923–1.083"
    assert (top.in_unit.lo, top.in_unit.hi) == pytest.approx((lo, hi), rel=1e-12)
    side = tables.side_of(cf, "s1500", r)
    # a and b state the method, the k claims none: one method; decode_tps and speedup: phases differ
    assert side.has_claims and side.varies == {"phase"} and side.method == "llama-bench tg128"
    v = run.audit_file(path, here=Here()).verdicts
    assert standing.standing(cf, v).weak_only == []


def test_a_side_takes_the_nearest_claims_method_and_its_class(tmp_path):
    # one method class ("llama-bench tg128", "llama-bench tg512") is one method, written as the
    # nearest claim writes it (fewest citations away, then the first cited): "llama-bench tg512"
    # is one citation from `outer`, "llama-bench tg128" two
    p = tmp_path / "m.yaml"
    p.write_text(
        "\n".join(
            HEAD
            + [
                "  - {id: a, metric: decode_tps, value: 20, unit: tok/s, method: llama-bench tg128}",
                "  - {id: b, metric: decode_tps, value: 10, unit: tok/s}",
                "  - {id: c, metric: speedup, value: 20, unit: x, method: llama-bench tg512}",
                "statements:",
                "  - {id: inner, kind: ratio, statement: x, of: [a, b], value: 2, unit: x}",
                "  - {id: outer, kind: ratio, statement: y, of: [inner, c], value: 0.1, unit: x}",
            ]
        )
        + "\n"
    )
    cf = schema.load(p)
    r = recompute.recompute_all(cf)
    assert tables.claims_under(cf, "outer", r) == ["c", "a", "b"]
    assert tables.side_of(cf, "outer", r).method == "llama-bench tg512"
    assert tables.side_of(cf, "inner", r).method == "llama-bench tg128"


def test_a_cycle_built_in_memory_names_its_statements_and_lines(tmp_path):
    # the loader refuses a cycle (malformed/cycle.yaml); a file changed in memory after loading
    # meets recompute's own check, which names the ids in citation order and their file:line
    path = chain(tmp_path, 3)
    cf = schema.load(path)
    # s1 now cites s3, which cites s2, which cites s1
    s1 = cf.statements[0].model_copy(update={"of": ["s3", "a"]})
    cf = cf.model_copy(update={"statements": [s1, *cf.statements[1:]]})
    with pytest.raises(recompute.RecomputeError) as e:
        recompute.recompute_all(cf)
    assert str(e.value) == (
        f"{path}:10: statements cite each other in a cycle (s1 (line 10) -> s3 (line 12) -> s2 (line 11) "
        "-> s1 (line 10)); fix: break the cycle (cite the claims themselves)"
    )
    with pytest.raises(recompute.RecomputeError, match="cycle"):
        tables.Under(cf)


def test_a_deep_cycle_is_refused_at_load_with_its_line(tmp_path):
    # 1,500 statements in one cycle: a ClaimsError naming the line, not a RecursionError
    path = chain(tmp_path, 1500)
    text = path.read_text().replace("of: [a, b]", "of: [s1500, b]")
    path.write_text(text)
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(path)
    # the walk from s1 reaches s1500, s1499 ... s2, which closes the cycle (line 1508: 4 head lines,
    # 1,501 claims, `statements:`, s1)
    assert str(e.value).startswith(
        f"{path}:1508: statements.1.of: statements cite each other in a cycle (s1 -> s1500 -> s1499 -> "
    )
    assert str(e.value).endswith("s3 -> s2 -> s1); fix: break the cycle (cite the claims themselves)")


def test_unsaid_notes_come_in_citation_order():
    # a statement's notes: its own, then each cited item's in citation order (they were in set order,
    # which changed from run to run)
    fx = Path(__file__).parent / "fixtures" / "audit" / "sides.yaml"
    v = {x.id: x for x in run.audit_file(fx, here=Here()).verdicts}
    spread = (
        "is one figure of 5 runs (mean, median or other: not stated) with no spread stated (sd, range or "
        "interval): how far the runs agreed is unknown"
    )
    assert v["dense-vs-dense"].unsaid == [
        f"{c} {spread}" for c in ("dense-plain", "dense-spec", "dense2-plain", "dense2-spec")
    ]

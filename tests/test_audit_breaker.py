"""Regression tests for the audit defects a tester found (breaker report items 1, 2, 4, 5, 6, 10, 11,
26, 30): each example with its right value.  Inputs: ``tests/fixtures/audit/breaker``."""

from pathlib import Path

import pytest

from benchbook.audit import recompute, run, units
from benchbook.audit.schema import load
from benchbook.audit.verdicts import Here

FX = Path(__file__).parent / "fixtures" / "audit" / "breaker"


def verdicts(name: str, logs: str | None = None) -> dict:
    audit = run.audit_file(FX / name, FX / logs if logs else None, here=Here())
    return {v.id: v for v in audit.verdicts}


def test_ratio_and_percent_change_convert_units_of_one_quantity():
    # breaker #1: 1.2 GiB / 599 MB was 0.002 "inconsistent"; 1.2 GiB = 1288.49 MB, / 599 = 2.151; with the
    # cited precision (issue 27) 1.15..1.25 GiB / 598.5..599.5 MB (0.5574..0.5583 GiB) = 2.060..2.243
    # ("about 2.2" stands for 2.1..2.3: consistent); 1.7 s / 850 ms = 1700 / 850 = 2.000 (1.65..1.75 /
    # 0.8495..0.8505 = 1.940..2.060); +100% (94.0..106.0)
    v = verdicts("ratio_units.yaml")
    assert (v["r-mem"].consistency, v["r-mem"].recomputed) == ("consistent", "2.060–2.243")
    assert v["r-mem"].arithmetic == "m2 / m1 = 1.1500–1.2500 / 0.5574–0.5583 (in GiB) = 2.0597–2.2426"
    assert (v["r-time"].consistency, v["r-time"].recomputed) == ("consistent", "1.940–2.060")
    assert (v["pc-time"].consistency, v["pc-time"].recomputed) == ("consistent", "94.004–106.004")
    # t/s and tok/s are one unit: 1200 / 20 = 60 (1199.5 / 20.5 .. 1200.5 / 19.5 = 58.512..61.564),
    # (1200 / 20 - 1) x 100 = 5900 (5751.220..6056.410)
    m = verdicts("mixed_units.yaml")
    assert (m["r"].recomputed, m["pc"].recomputed) == ("58.512–61.564", "5751.220–6056.410")


def test_unit_factors():
    assert units.factor("GiB", "MB") == pytest.approx(1073.741824)
    assert units.factor("ms", "s") == 0.001
    assert units.factor("tok/ms", "tok/s") == 1000.0
    with pytest.raises(units.UnitError, match="'it/s' and 'tok/s' are not units of one quantity"):
        units.factor("it/s", "tok/s")


def test_percent_change_of_different_quantities_is_refused(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: test}\nclaims:\n"
        "  - {id: a, metric: ttft, value: 850, unit: ms}\n"
        "  - {id: b, metric: vram_peak, value: 2, unit: GiB}\n"
        "statements:\n"
        "  - {id: s, kind: percent_change, statement: x, of: [a, b], value: 10, unit: '%'}\n"
    )
    with pytest.raises(recompute.RecomputeError) as e:
        run.audit_file(p, here=Here())
    assert str(e.value) == (
        f"{p}:8: statement s: a percent_change of numbers in different units ['GiB', 'ms'] ('GiB' and 'ms' "
        "are not units of one quantity: 'GiB' (a size (B)) vs 'ms' (a time (s))); fix: cite numbers of one "
        "quantity"
    )


def test_log_claim_checked_only_against_its_configuration():
    # breaker #2: 55 tok/s at ngl 99 was "consistent [10.120–101.400]" (ngl 0 and ngl 99 rows);
    # the ngl 99 tg128 row says 101.40: inconsistent by 101.4 - 55.0 = 46.4
    v = verdicts("claims_log_mixed.yaml", "logs_mixed")["tg-full-offload"]
    assert (v.consistency, v.recomputed) == ("inconsistent", "101.400")
    assert v.difference == pytest.approx(46.4)
    assert v.arithmetic == (
        "decode_tps recomputed from bench.md: 101.400 tok/s; left out: bench.md:3 "
        "(n_gpu_layers 0, the claim states 99); definition: avg_ts as the file states it (md: no samples)"
    )


def test_log_claim_without_the_telling_condition_is_ambiguous(tmp_path):
    text = (FX / "claims_log_mixed.yaml").read_text().replace("conditions: {offload: {n_gpu_layers: 99}}", "")
    (tmp_path / "c.yaml").write_text(text)
    audit = run.audit_file(tmp_path / "c.yaml", FX / "logs_mixed", here=Here())
    v = {x.id: x for x in audit.verdicts}["tg-full-offload"]
    assert v.consistency == "not checkable" and v.recomputed is None
    assert v.notes[-1] == (
        "log ambiguous: 2 entries of bench.md match what the claim states and differ in n_gpu_layers: "
        "0 (bench.md:3), 99 (bench.md:4); fix: state the condition that tells them apart in the claim's "
        "`conditions` (offload, batch) or the test in `method` (tg128, pp512)"
    )


def test_bound_member_with_unstated_env_is_not_dropped():
    # breaker #4: was "consistent, max over 1 pairs" with ds-unknown (35 tok/s, env not stated) dropped;
    # paired with either plain run it is 35 / 40 = 0.875 or 35 / 30 = 1.167, above 0.667 (with the cited
    # precision 34.5 / 40.5 .. 35.5 / 39.5 = 0.852..0.899 and 34.5 / 30.5 .. 35.5 / 29.5 = 1.131..1.203)
    v = verdicts("bound_unknown_env.yaml")["every-below"]
    assert v.consistency == "not checkable"
    assert v.notes[0] == (
        "not checkable: the verdict depends on members whose env is not stated (ds-unknown / plain-e1 = "
        "0.852–0.899; ds-unknown / plain-e2 = 1.131–1.203): with them the max is 1.131–1.203 against the "
        "stated below 0.667, without them 0.4815–0.519; fix: state env of those claims"
    )


def test_log_pair_speedup_is_request_against_request_and_a_speedup_claim_is_checked():
    # breaker #5: spec 31 / 1.13238 s = 27.376 tok/s; baseline request 1: 31 / 3.1 s = 10.000 tok/s;
    # speedup 2.738 (was 0.498 = 27.38 / mean(10, 100), the note claiming "one request each")
    v = verdicts("spec_pair.yaml", "logs_pair")
    spec = v["spec.log:12"]
    # issue 28: the hand-made baseline prints 10.32 tokens per second (32 / 3.1 s, n/ms), the speculative
    # log 27.38 ((n-1)/ms): the speedup takes both at the request's definition, and says so
    assert spec.notes == [
        "speedup 2.738 = 27.38 / 10.00 tok/s (baseline request plain.log:4, request 1 of each log, one "
        "request each; 1 speculative and 2 baseline request(s), paired in order; the baseline at (n-1)/ms "
        "like this request (its log prints n/ms: 10.32))"
    ]
    assert "acceptance_without_speedup" not in {q.check for q in spec.qualifiers}
    # the speedup claim (2.7 x, stands for 2.65..2.75) against the log's 2.738: consistent, supported
    sp = v["sp"]
    assert (sp.consistency, sp.recomputed) == ("consistent", "2.738")
    assert [q.check for q in sp.qualifiers] == []


def test_llama_cli_rate_uses_the_cli_rule():
    # breaker #6: "eval time = 550.00 ms / 11 runs ... 20.00 tokens per second": 11 / 0.55 s = 20.000
    # (was 10 / 0.55 = 18.182 by llama-server's (n - 1) rule, and the claim judged inconsistent)
    v = verdicts("cli_rate.yaml", "logs_cli")
    assert (v["cli-tg"].consistency, v["cli-tg"].recomputed) == ("consistent", "20.000")
    assert v["cli.txt:4"].recomputed == "20.000"


def test_range_ends_keep_their_own_precision():
    # breaker #10: "6.1 to 6.34" stands for 6.05..6.345; the measured 6.07 lies inside (was
    # inconsistent: both ends used two decimals, 6.095..6.345)
    cf = load(FX / "range_decimals.yaml")
    assert cf.claim("tg-range").range_decimals == (1, 2)
    v = verdicts("range_decimals.yaml", "logs_range")["tg-range"]
    assert (v.consistency, v.recomputed) == ("consistent", "6.070")


def test_ratio_across_different_conditions_is_qualified_and_unstated_is_noted():
    # breaker #11: n_cpu_moe 0 vs 24, ctx 8192 vs 32768, Q4_K_M vs Q8_0 got no qualifier
    v = verdicts("offload_differs.yaml")["speedup-from-draft"]
    assert [(q.kind, q.check, q.reason) for q in v.qualifiers] == [
        (
            "not comparable",
            "conditions",
            "3 conditions differ, so the comparison cannot be put down to one: quant Q4_K_M vs Q8_0; "
            "n_cpu_moe 0 vs 24; ctx 8192 vs 32768",
        )
    ]
    u = verdicts("unknown_vs_different.yaml")
    assert "ctx: stated for a (8192), not for b (not stated, not different)" in u["r-ab"].notes
    assert "env: stated for a (e1), not for b (not stated, not different)" in u["r-ab"].notes
    assert "n_gpu_layers: stated for c (99), not for a (not stated, not different)" in u["r-ac"].notes
    assert [q.check for q in u["r-ab"].qualifiers + u["r-ac"].qualifiers] == []


def test_non_log_files_are_named_and_left_out():
    # breaker #26: NOTES.txt and a .png aborted the audit with "fix: pass --format"
    v = verdicts("claims_log_mixed.yaml", "logs_readme")
    assert v["NOTES.txt"].notes == [
        "not read: no llama.cpp output found in it (no llama-bench table or rows, server log or "
        "spec-simple lines)"
    ]
    assert v["screenshot.png"].notes == ["not read: a binary file, not a llama.cpp text output"]
    assert v["tg-full-offload"].recomputed == "101.400"


def test_zero_baseline_makes_one_statement_not_checkable():
    # breaker #30: a percent change from 0 aborted the whole file (exit 2) and called it a ratio
    v = verdicts("zero_base.yaml")
    assert v["pc"].consistency == v["r"].consistency == "not checkable"
    # a cited 0 stands for 0..0.5 (a rate cannot be negative): still undefined
    assert v["pc"].notes[0].startswith("not checkable: a percent change from 0.0000–0.5000 is undefined")
    assert v["r"].notes[0].startswith("not checkable: a ratio over 0.0000–0.5000 is undefined")


def test_tok_per_ms_is_a_rate(tmp_path):
    # breaker #30: `tok/ms` was refused; 0.02 tok/ms = 20 tok/s
    p = tmp_path / "c.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: test}\nclaims:\n"
        "  - {id: a, metric: decode_tps, value: 0.04, unit: tok/ms}\n"
        "  - {id: b, metric: decode_tps, value: 20, unit: tok/s}\n"
        "statements:\n"
        "  - {id: s, kind: ratio, statement: x, of: [a, b], value: 2, unit: x}\n"
    )
    v = {x.id: x for x in run.audit_file(p, here=Here()).verdicts}["s"]
    # 0.035..0.045 tok/ms = 35..45 tok/s over 19.5..20.5: 1.707..2.308
    assert (v.consistency, v.recomputed) == ("consistent", "1.707–2.308")


def test_unquoted_exponent_numbers_are_numbers(tmp_path):
    # breaker #30: `value: 1.5e3` (unquoted; PyYAML reads it as a string without a sign after e) got
    # "a number is needed, got str '1.5e3'; fix: write the number itself, unquoted"
    p = tmp_path / "c.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: test}\nclaims:\n"
        "  - {id: a, metric: prefill_tps, value: 1.5e3, unit: tok/s}\n"
        "  - {id: b, metric: prefill_tps, value: 1e-3, unit: tok/s}\n"
        "  - {id: q, metric: prefill_tps, value: '1.5e3', unit: tok/s}\n"
    )
    with pytest.raises(Exception, match=r"c.yaml:7: claims.2.value: a number is needed, got str '1.5e3'"):
        load(p)
    p.write_text(p.read_text().rsplit("  - {id: q", 1)[0])
    cf = load(p)
    assert (cf.claim("a").value, cf.claim("a").decimals) == (1500.0, 0)
    assert (cf.claim("b").value, cf.claim("b").decimals) == (0.001, 3)


def test_audit_all_writes_every_file_under_its_own_name(tmp_path):
    # breaker #15: "my claims.yaml" and "my-claims.yaml" both became my-claims (28 verdicts reported,
    # 20 written, one page overwrote the other); sha256("my claims.yaml")[:8] = 7cb702ef,
    # sha256("my-claims.yaml")[:8] = ea6bf916
    out, pages = tmp_path / "o", tmp_path / "p"
    audits = run.audit_dir(FX / "collide", out, pages)
    assert sum(len(a.verdicts) for a in audits) == 28
    lines = {p.name: len(p.read_text().splitlines()) for p in out.iterdir()}
    assert lines == {"my-claims-7cb702ef.jsonl": 8, "my-claims-ea6bf916.jsonl": 20}
    assert sorted(p.name for p in pages.iterdir()) == [
        "index.qmd",
        "my-claims-7cb702ef.qmd",
        "my-claims-ea6bf916.qmd",
    ]
    index = (pages / "index.qmd").read_text()
    assert 'href="my-claims-7cb702ef.html"' in index and 'href="my-claims-ea6bf916.html"' in index


def test_audit_all_reads_yml_files(tmp_path):
    # breaker #15: *.yml files were silently not audited
    audits = run.audit_dir(FX / "yml", tmp_path / "o", tmp_path / "p")
    assert [a.path.name for a in audits] == ["blog.yaml", "forum-post.yml"]
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["blog.jsonl", "forum-post.jsonl"]


def test_slugs_never_take_the_index_name():
    assert run.slugs([Path("a/index.yaml"), Path("b/x.yaml")]) == {
        Path("a/index.yaml"): "index-08c65c1b",
        Path("b/x.yaml"): "x",
    }


def test_comparison_rules_read_both_sides_in_one_unit():
    # the caveat rules that divide the two sides (inconsistent_derived_value: 1.2 / 599 = 0.002 against
    # the stated 2.2) see 599 MB as 0.5579 GiB beside 1.2 GiB
    from benchbook import caveats
    from benchbook.audit.recompute import recompute_all
    from benchbook.audit.tables import comparison_table

    cf = load(FX / "ratio_units.yaml")
    table = comparison_table(cf, recompute_all(cf))
    # the sides carry their precision (issue 27): 598.5 MB at the low end
    assert table.filter(table["id"] == "r-mem")["den_lo"].item() == pytest.approx(598.5e6 / 1024**3)
    out, _ = caveats.evaluate(table, "comparison")
    assert out["caveats"].to_list() == [[], [], []]


def test_bound_names_claims_that_may_belong_to_its_set():
    # the Clover two-thirds bound stays consistent (max 20.6 / 32.95 = 0.6252 over 9 pairs, 0.624..0.627
    # with the cited precision); the claims
    # it could not place are named instead of dropped silently
    root = Path(__file__).resolve().parents[1]
    audit = run.audit_file(root / "data" / "claims" / "clover-35b-a3b-blog.yaml", here=Here())
    v = {x.id: x for x in audit.verdicts}["stmt-two-thirds"]
    assert (v.consistency, v.recomputed) == ("consistent", "0.624–0.627")
    assert v.arithmetic.split("; left out: ")[1].split("; ") == [
        "other-deepseek-strata (decoding not stated: it may belong to the set)",
        "other-qwen27b-q4km (decoding not stated: it may belong to the set)",
        "other-qwen27b-iq3xxs (decoding not stated: it may belong to the set)",
        "ext-h200-draft-self (no denominator",
        "env, n_cpu_moe not stated, and none shares its hardware and source)",
    ]


def test_two_models_are_one_condition():
    # "about 7 times Qwen 3.8 27B": model and quant differ together (two models come as two files): the
    # one condition compared, noted, not "not comparable"
    root = Path(__file__).resolve().parents[1]
    audit = run.audit_file(root / "data" / "claims" / "clover-35b-a3b-blog.yaml", here=Here())
    v = {x.id: x for x in audit.verdicts}["stmt-7x-qwen"]
    assert "conditions" not in {q.check for q in v.qualifiers}
    assert (
        "compares model Clover-35B-A3B-Preview (tg-win-ncmoe24) vs Qwen 3.8 27B (other-qwen27b-q4km), "
        "quant Q4_K_M (tg-win-ncmoe24) vs UD-Q4_K_M (other-qwen27b-q4km) (the one condition stated "
        "differently)" in v.notes
    )

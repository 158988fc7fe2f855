"""Conditions matched across claims and logs (issue 28 §5): flash attention, cache types, ubatch, depth
and backend stated on a claim select log rows; a claim whose configuration the log has at other depths
only is "not supported at the depths in use"; an effect that flips direction with depth says so; a
comparison changing two settings at once names them (from the claims, or from the log rows behind
them).  Fixture: logs_conditions/fa_depth.jsonl, tg128 rows at 5 repetitions each (rates x 1.000, 1.002,
0.998, 1.001, 0.999 of the nominal):

line  flash_attn  n_depth  n_ubatch  type_k/v  tok/s
1     0           0        512       f16       50
2     1           0        512       f16       60
3     0           16384    512       f16       40
4     1           16384    512       f16       28
5     1           0        512       q8_0      63
6     0           0        256       f16       45
7     0           16384    256       f16       36
"""

from pathlib import Path

from benchbook.audit import run
from benchbook.audit.verdicts import Here

FX = Path(__file__).parent / "fixtures" / "audit"


def verdicts():
    a = run.audit_file(FX / "conditions.yaml", FX / "logs_conditions", here=Here())
    return {v.id: v for v in a.verdicts}


def test_stated_conditions_select_the_log_row():
    v = verdicts()
    # fa-off: flash_attn false, depth 0, ubatch 512, type_k f16, backend CUDA -> line 1 alone (50 tok/s)
    for cid, line, value in (("fa-off", 1, "50.000"), ("fa-on", 2, "60.000"), ("fa-on-long", 4, "28.000")):
        assert v[cid].consistency == "consistent" and v[cid].recomputed == value
        assert v[cid].evidence == [cid, f"fa_depth.jsonl:{line}"]
    assert v["ub256"].evidence == ["ub256", "fa_depth.jsonl:6"]  # ubatch 256 at depth 0


def test_a_long_context_claim_backed_at_depth_0_only_is_unsupported():
    q = [q for q in verdicts()["q8-long"].qualifiers if q.check == "depth"]
    assert len(q) == 1 and q[0].kind == "unsupported"
    assert q[0].reason == (
        "not supported at the depths in use: the claim states depth 16384; fa_depth.jsonl measured its "
        "configuration at n_depth 0 only (fa_depth.jsonl:5)"
    )
    # control: fa-on at 16384 is in the log (line 4)
    assert not [q for q in verdicts()["fa-on-long"].qualifiers if q.check == "depth"]


def test_an_effect_whose_direction_flips_with_depth_says_so():
    v = verdicts()
    # 60 / 50 = 1.20 at depth 0; 28 / 40 = 0.70 at depth 16384
    (q,) = [q for q in v["s-fa"].qualifiers if q.check == "depth"]
    assert q.kind == "at risk" and q.reason == (
        "the effect flips with depth: fa-on ÷ fa-off = 1.20× at depth 0, 0.70× at depth 16384 "
        "(fa_depth.jsonl)"
    )
    assert v["s-fa"].consistency == "consistent"  # the stated 1.2 is right at the depth it was measured
    # control: ubatch 512 / 256 = 50 / 45 = 1.11 at depth 0 and 40 / 36 = 1.11 at 16384: no flip
    assert not [q for q in v["s-ub"].qualifiers if q.check in ("depth", "conditions")]


def test_a_comparison_changing_two_settings_names_them():
    v = verdicts()
    # the claims state one difference (type_k); the log rows behind them differ in three
    (q,) = [q for q in v["s-q8"].qualifiers if q.check == "conditions"]
    assert q.kind == "not comparable" and q.reason == (
        "the log entries of the two sides differ in 3 settings, so the comparison cannot be put down to one: "
        "flash_attn 1 (fa_depth.jsonl:5) vs 0 (fa_depth.jsonl:1); type_k q8_0 (fa_depth.jsonl:5) vs f16 "
        "(fa_depth.jsonl:1); type_v q8_0 (fa_depth.jsonl:5) vs f16 (fa_depth.jsonl:1)"
    )
    # control: fa-on / fa-off changes flash_attn alone (lines 2 and 1)
    assert not [q for q in v["s-fa"].qualifiers if q.check == "conditions"]


def test_two_conditions_stated_differently_on_claims_are_named(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
        "  - {id: a, metric: decode_tps, value: 63.0, unit: tok/s,\n"
        "     conditions: {flash_attn: true, type_k: q8_0}}\n"
        "  - {id: b, metric: decode_tps, value: 50.0, unit: tok/s,\n"
        "     conditions: {flash_attn: false, type_k: f16}}\n"
        "statements:\n  - {id: s, kind: ratio, statement: faster, of: [a, b], value: 1.26, unit: x}\n"
    )
    (v,) = [x for x in run.audit_file(p, here=Here()).verdicts if x.id == "s"]
    (q,) = [q for q in v.qualifiers if q.check == "conditions"]
    assert q.reason == (
        "2 conditions differ, so the comparison cannot be put down to one: flash_attn True vs False; "
        "type_k q8_0 vs f16"
    )


def _kv_claims(tmp_path, a_conditions: str, b_conditions: str):
    p = tmp_path / "kv.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
        f"  - {{id: a, metric: decode_tps, value: 63.0, unit: tok/s, conditions: {a_conditions}}}\n"
        f"  - {{id: b, metric: decode_tps, value: 50.0, unit: tok/s, conditions: {b_conditions}}}\n"
        "statements:\n"
        "  - {id: s, kind: ratio, statement: a q8_0 cache is faster, of: [a, b], value: 1.26, unit: x}\n"
    )
    (v,) = [x for x in run.audit_file(p, here=Here()).verdicts if x.id == "s"]
    return v


def test_k_and_v_cache_types_changed_together_are_one_condition(tmp_path):
    # corpus p22/p55: `-ctk q8_0 -ctv q8_0` against f16 is one change (the KV cache's type), as a model
    # and its quant are one; it was "2 conditions differ" and not comparable
    v = _kv_claims(tmp_path, "{type_k: q8_0, type_v: q8_0}", "{type_k: f16, type_v: f16}")
    assert [q for q in v.qualifiers if q.check == "conditions"] == []
    assert (
        "compares type_k q8_0 (a) vs f16 (b), type_v q8_0 (a) vs f16 (b) "
        "(the one condition stated differently)"
    ) in v.notes


def test_the_kv_cache_type_and_another_condition_still_confound(tmp_path):
    # control: the cache's type and flash attention both changed are two conditions
    v = _kv_claims(
        tmp_path,
        "{type_k: q8_0, type_v: q8_0, flash_attn: true}",
        "{type_k: f16, type_v: f16, flash_attn: false}",
    )
    (q,) = [q for q in v.qualifiers if q.check == "conditions"]
    assert q.reason == (
        "2 conditions differ, so the comparison cannot be put down to one: flash_attn True vs False; "
        "type_k q8_0 vs f16, type_v q8_0 vs f16"
    )


_MACHINE = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - {id: new, metric: decode_tps, value: 80.3, unit: t/s, method: tg128, conditions: {build: b11434}}
  - {id: old, metric: decode_tps, value: 40.1, unit: t/s, method: tg128, conditions: {build: b4000}}
  - {id: old-q8, metric: decode_tps, value: 40.1, unit: t/s, method: tg128,
     conditions: {build: b4000, quant: Q8_0}}
  - {id: new-q4, metric: decode_tps, value: 80.3, unit: t/s, method: tg128,
     conditions: {build: b11434, quant: Q4_K_M}}
  - {id: g4090, metric: decode_tps, value: 120, unit: t/s, method: tg128, conditions: {hardware: RTX 4090}}
  - {id: g3090, metric: decode_tps, value: 80, unit: t/s, method: tg128, conditions: {hardware: RTX 3090}}
statements:
  - {id: named, kind: ratio, of: [new, old], value: 2, about: true, unit: x,
     statement: "b11434 is about 2x faster than b4000"}
  - {id: worded, kind: ratio, of: [new, old], value: 2, about: true, unit: x,
     statement: "the newer build is about 2x faster"}
  - {id: unnamed, kind: ratio, of: [new, old], value: 2, about: true, unit: x,
     statement: "the second run is about 2x faster"}
  - {id: plus-quant, kind: ratio, of: [new-q4, old-q8], value: 2, about: true, unit: x,
     statement: "b11434 is about 2x faster than b4000"}
  - {id: gpus, kind: ratio, of: [g4090, g3090], value: 1.5, unit: x,
     statement: "the 4090 is 1.5x the 3090"}
"""


def test_a_comparison_of_the_machine_condition_it_names_is_comparable(tmp_path):
    """ "b11434 is about 2× faster than b4000" compares builds: the sides differing in exactly the
    build the sentence names is what it measures (a note), not "not comparable: builds"; so for
    hardware named by its model number.  Controls that still fire: a sentence naming no build
    ("the second run"), and one naming the build while the quant differs too (two things differ)."""
    f = tmp_path / "machine.yaml"
    f.write_text(_MACHINE)
    got = {v.id: v for v in run.audit_file(f, here=Here()).verdicts}
    comp = {k: [q.reason for q in got[k].qualifiers if q.kind == "not comparable"] for k in got}
    assert comp["named"] == [] and comp["worded"] == [] and comp["gpus"] == []
    assert "compares builds: b11434 vs b4000 (the condition the statement names)" in got["named"].notes
    assert "compares hardware: RTX 4090 vs RTX 3090 (the condition the statement names)" in got["gpus"].notes
    assert comp["unnamed"] == ["builds: b11434 vs b4000"]
    assert comp["plus-quant"] == ["builds: b11434 vs b4000"]
    assert {got[k].consistency for k in ("named", "unnamed", "gpus")} == {"consistent"}


def test_names_differing_only_in_letter_case_are_one_condition(tmp_path):
    # session 49's new user: "qwen2.5-7B-instruct vs qwen2.5-7b-instruct, quant Q8_0 vs q8_0" made a
    # comparison of two contexts "not comparable"; one model and one quant spelled two ways are one
    v = _kv_claims(
        tmp_path,
        "{model: qwen2.5-7B-instruct, quant: Q8_0, ctx: 8192}",
        "{model: qwen2.5-7b-instruct, quant: q8_0, ctx: 16384}",
    )
    assert [q for q in v.qualifiers if q.check == "conditions"] == []
    # control: two models differing in more than case still confound the context change
    v = _kv_claims(tmp_path, "{model: qwen2.5-7b, ctx: 8192}", "{model: qwen2.5-14b, ctx: 16384}")
    assert [q.kind for q in v.qualifiers if q.check == "conditions"] == ["not comparable"]

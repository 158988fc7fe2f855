"""Every caveat rule that fires reaches the verdict (issue 28, kind 1): ``verdicts.RULE_EFFECT`` names
what each rule of ``caveats.RULES`` does to a verdict, and the verdicts carry it."""

from pathlib import Path

import pytest

from benchbook import caveats
from benchbook.audit import run
from benchbook.audit.recompute import recompute_all
from benchbook.audit.schema import load
from benchbook.audit.tables import claims_table, comparison_table
from benchbook.audit.verdicts import (
    CONSISTENCY,
    NOTE,
    RULE_EFFECT,
    RULE_QUALIFIER,
    Here,
    _fired,
    rule_note,
)

ROOT = Path(__file__).resolve().parents[1]
FX = Path(__file__).parent / "fixtures" / "audit"


def test_every_rule_of_the_registry_has_an_effect_on_a_verdict():
    # a rule added to caveats without a line in RULE_EFFECT would be dropped from every verdict
    assert set(RULE_EFFECT) == set(caveats.RULES)
    assert set(RULE_EFFECT.values()) <= {"unsupported", "not comparable", "at risk", NOTE, CONSISTENCY}
    assert set(RULE_QUALIFIER) == {r for r, e in RULE_EFFECT.items() if e not in (NOTE, CONSISTENCY)}


def test_slower_than_baseline_reaches_the_statement_verdict():
    a = run.audit_file(FX / "slower_than_baseline.yaml", here=Here())
    v = {x.id: x for x in a.verdicts}
    slower = v["slower"]
    # 3.4-3.6 / 7.8-8.0 (each end ± 0.05 for its digits: 3.35-3.65 / 7.75-8.05) holds 0.44 (± 0.005):
    # consistent, and at most 3.65 / 7.75 = 0.471 < 1
    assert slower.consistency == "consistent"
    assert [(q.kind, q.check) for q in slower.qualifiers] == [("at risk", "slower_than_baseline")]
    q = slower.qualifiers[0]
    assert q.reason == (
        "slower than the baseline: the speed ratio is at most 3.65 / 7.75 = 0.471 (below 1), "
        "with stated acceptance 0.3"
    )
    assert q.evidence == ["plain", "spec"]
    # α 0.30 < 0.5: not acceptance_without_speedup
    assert "acceptance_without_speedup" not in {q.check for q in slower.qualifiers}
    # the clean control: 12.0-12.4 / 7.8-8.0 = 1.50-1.59, faster
    assert v["faster"].qualifiers == []


@pytest.mark.parametrize(
    "path",
    [ROOT / "data" / "claims" / "clover-35b-a3b-blog.yaml", *sorted(FX.glob("*.yaml"))],
    ids=lambda p: p.name,
)
def test_every_fired_rule_is_in_a_verdict(path):
    # the invariant behind kind 1: what caveats.evaluate fires on the claims and comparison tables
    # is a qualifier or a note of the verdict it belongs to (or that verdict's consistency itself)
    cf = load(path)
    recomputed = recompute_all(cf)
    fired = {**_fired(claims_table(cf), "claims")}
    for rid, rules in _fired(comparison_table(cf, recomputed), "comparison").items():
        sid = rid.split("[", 1)[0]
        fired[sid] = sorted(set(fired.get(sid, [])) | set(rules))
    verdicts = {v.id: v for v in run.audit_file(path, here=Here()).verdicts}
    for vid, rules in fired.items():
        v = verdicts[vid]
        for rule in rules:
            if RULE_EFFECT[rule] == CONSISTENCY:
                continue
            if rule == "at_capacity" and rule not in {q.check for q in v.qualifiers}:
                # judged with the rows beside it: with no slower row it is a note (verdicts._at_capacity)
                assert any(n.startswith("at capacity: ") for n in v.notes), (vid, rule)
            elif RULE_EFFECT[rule] == NOTE:
                assert rule_note(rule) in v.notes, (vid, rule)
            elif rule == "host_or_build_mismatch" and rule not in {q.check for q in v.qualifiers}:
                # the build or hardware the statement names is what it compares: a note says so
                assert any(n.endswith("(the condition the statement names)") for n in v.notes), (vid, rule)
            else:
                assert rule in {q.check for q in v.qualifiers}, (vid, rule, v.qualifiers)

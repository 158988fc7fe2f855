"""A llama-bench vs server comparison keeps its "not comparable" verdict and gets the gap this project
measured between the two tools as context (issue 31 item 4, ``audit.toolgap``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from benchbook.audit import command, run, toolgap
from benchbook.audit.verdicts import Here

FIXTURE = Path(__file__).parent / "fixtures" / "registry" / "tool_gap.json"
CLOVER = Path(__file__).resolve().parent.parent / "data" / "claims" / "clover-35b-a3b-blog.yaml"
NOTE = (
    "llama-bench vs server: on host 8b0c3265 (this project's) the same model's llama-server decode "
    "(95.0 tok/s) is 7.1% above llama-bench tg (88.7 tok/s); the gap, -0.462 ms per token (95% interval "
    "-3.73 to 2.81), is not measurable there; the factors measured: depth +2.81 ms per token, server_loop "
    "-4.48 ms per token, first_token -0.0761 ms per token, n_probs +2.57 ms per token (tool_gap "
    "experiment; context, not a correction of the claim)"
)


def test_the_registry_gives_each_hosts_gap():
    (g,) = toolgap.read_registry(FIXTURE)
    assert (g.host, g.bench_tok_s, g.server_tok_s, g.total_ms) == ("8b0c3265", 88.708, 95.013, -0.46158)
    assert g.total_ci == pytest.approx((-3.73348, 2.81032), abs=1e-5)
    # the parts whose interval excludes 0 (template, sampler, stream, ... span it)
    assert [p for p, _ms in g.factors] == ["depth", "server_loop", "first_token", "n_probs"]
    assert "llama-bench vs server: " + g.text() == NOTE
    assert toolgap.read_registry(FIXTURE.parent / "absent.json") == ()


def test_a_broken_registry_is_named(tmp_path):
    bad = tmp_path / "tool_gap.json"
    bad.write_text("{")
    with pytest.raises(ValueError, match="tool_gap.json: not a numbers registry"):
        toolgap.read_registry(bad)


def test_llama_bench_vs_server_keeps_its_verdict_and_gets_the_gap():
    """The Clover write-up's three llama-bench vs real-prompt statements: the same consistency and
    qualifiers as without the registry, plus the note; the vendor vs llama-bench statement (another
    method pair) and every claim get nothing (control)."""
    gap = toolgap.read_registry(FIXTURE)
    without = {v.id: v for v in run.audit_file(CLOVER, here=Here()).verdicts}
    with_gap = {v.id: v for v in run.audit_file(CLOVER, here=Here(tool_gap=gap)).verdicts}
    assert set(without) == set(with_gap)
    noted = []
    for vid, v in with_gap.items():
        w = without[vid]
        assert (v.consistency, v.qualifiers, v.reproducible) == (w.consistency, w.qualifiers, w.reproducible)
        extra = [n for n in v.notes if n not in w.notes]
        if extra:
            assert extra == [NOTE], vid
            assert any(q.check == "mixed_method" for q in v.qualifiers), vid
            noted.append(vid)
    assert noted == ["stmt-57pct", "stmt-two-thirds", "stmt-7x-qwen"]
    assert any(q.check == "mixed_method" for q in with_gap["stmt-2.4x-5070ti"].qualifiers)  # vendor: none


def test_here_reads_the_registry_beside_params(tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text("audit: {}\n")
    assert command.here_of(params)[0].tool_gap == ()
    (tmp_path / "reports" / "numbers").mkdir(parents=True)
    (tmp_path / toolgap.REGISTRY).write_text(json.dumps(json.loads(FIXTURE.read_text())))
    here, _label = command.here_of(params)
    assert here == replace(Here.from_params({"audit": {}}), tool_gap=toolgap.read_registry(FIXTURE))

"""Issue 27 item 5: limits and capacities (fixtures/audit/limits.yaml), each with a control."""

from pathlib import Path

import pytest

from benchbook.audit import run
from benchbook.audit.verdicts import Here

FX = Path(__file__).parent / "fixtures" / "audit"
CLOVER = Path(__file__).resolve().parents[1] / "data" / "claims" / "clover-35b-a3b-blog.yaml"


@pytest.fixture(scope="module")
def v() -> dict:
    return {x.id: x for x in run.audit_file(FX / "limits.yaml", here=Here()).verdicts}


def quals(verdict) -> dict[tuple[str, str], str]:
    return {(q.kind, q.check): q.reason for q in verdict.qualifiers}


def test_a_count_above_its_own_limit(v):
    # 14 turns used against 10 allowed: impossible if the field counts turns
    assert quals(v["turns"]) == {
        ("at risk", "exceeds_limit"): "turns_used = 14 turns against its limit 10: exceeds its own stated "
        "limit: the field may not count what its name says"
    }
    assert quals(v["turns-ok"]) == {}  # control: 10 of 10 is at the limit, not above it


def test_more_tokens_than_the_cap_is_not_a_cap_hit(v):
    # 2100 tokens generated under a 2000-token cap: not "stopped at the cap", a count of something else
    assert quals(v["over-cap"]) == {
        ("at risk", "exceeds_limit"): "2100 tokens generated against the cap of 2000: exceeds its own "
        "stated limit: the field may not count what its name says"
    }


def test_memory_at_capacity_beside_a_slower_row(v):
    # 11.5 / 12 = 0.9583 >= 0.95; spec-linux 20 < spec-windows 30 under the same decoding and prompt
    assert quals(v["vram-linux"]) == {
        ("at risk", "at_capacity"): "at capacity: 11.5 of 12 GiB (95.8%) beside slower rows: spec-linux "
        "20 tok/s against 30 (spec-windows)"
    }
    assert quals(v["spec-linux"])[("at risk", "at_capacity")] == (
        "at capacity: measured beside vram-linux at 11.5 of 12 GiB (95.8%), and slower than spec-windows "
        "(20 against 30 tok/s): memory may have spilled"
    )
    assert ("at risk", "at_capacity") in quals(v["spec-gap"])  # carried to the statement citing it
    assert quals(v["spec-windows"]) == {}


def test_controls_of_capacity(v):
    # 10.8 / 12 = 0.90: below 95%, nothing
    assert quals(v["vram-windows"]) == {} and not any("capacity" in n for n in v["vram-windows"].notes)
    # 11.9 / 12 = 0.992 but no rate row under plain decoding in linux: a note, not a qualifier
    assert quals(v["vram-plain"]) == {}
    assert "at capacity: 11.9 of 12 GiB (99.2%) of its stated capacity, no slower row beside it" in (
        v["vram-plain"].notes
    )


def test_clover_capacity_is_read():
    c = {x.id: x for x in run.audit_file(CLOVER, here=Here()).verdicts}
    # mem-wsl-vram: 11.76 / 12.29 = 0.9569; the WSL draft-self rows slower than the Windows ones:
    # story 6.7 < 10.3, code 18.3 < 24.4, code at block 8 20.6 < 24.6 (prob 17.6 > 16.5: not slower)
    assert quals(c["mem-wsl-vram"]) == {
        ("at risk", "at_capacity"): "at capacity: 11.76 of 12.29 GiB (95.7%) beside slower rows: "
        "ds-story-wsl 6.7 tok/s against 10.3 (ds-story-win); ds-code-wsl 18.3 tok/s against 24.4 "
        "(ds-code-win); ds-code-b8-wsl 20.6 tok/s against 24.6 (ds-code-b8-win)"
    }
    slow = {i for i, x in c.items() if ("at risk", "at_capacity") in quals(x)}
    assert slow == {"mem-wsl-vram", "ds-story-wsl", "ds-code-wsl", "ds-code-b8-wsl", "stmt-two-thirds"}
    # mem-wsl-rss: 14.7 / 15.5 = 0.948, below 95%: nothing
    assert quals(c["mem-wsl-rss"]) == {}


def test_a_memory_range_at_capacity_beside_range_rates(tmp_path):
    """A memory value stated as a range with a capacity crashed the audit (its text formatted the
    missing single value); rates stated as ranges were skipped as rows beside it.  The range reads as
    its middle (11.95 of 12, 99.6%), a rate range is slower only when its top is below the other's
    bottom."""
    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"
        "systems: [{id: pc, hardware: GPU A}]\n"
        "environments: [{id: wsl, system: pc}, {id: win, system: pc}]\nclaims:\n"
        "  - {id: vram, metric: vram_peak, range: [11.7, 12.2], unit: GiB, capacity: 12,"
        " conditions: {env: wsl, decoding: speculative}}\n"
        "  - {id: wsl, metric: decode_tps, range: [6.1, 6.3], unit: tok/s, method: llama-server,"
        " conditions: {env: wsl, decoding: speculative}}\n"
        "  - {id: win, metric: decode_tps, range: [9.9, 10.4], unit: tok/s, method: llama-server,"
        " conditions: {env: win, decoding: speculative}}\n"
    )
    v = {x.id: x for x in run.audit_file(f, here=Here()).verdicts}
    assert quals(v["vram"])[("at risk", "at_capacity")] == (
        "at capacity: 11.7–12.2 of 12 GiB (99.6%) beside slower rows: wsl 6.1–6.3 tok/s against 9.9–10.4 "
        "(win)"
    )
    assert ("at risk", "at_capacity") in quals(v["wsl"]) and quals(v["win"]) == {}

"""Issue 27 item 10: what a post leaves unsaid, beside the verdicts it weakens
(fixtures/audit/unsaid.yaml, unsaid_control.yaml), each with a clean control."""

from pathlib import Path

import pytest

from benchbook.audit import run
from benchbook.audit.verdicts import Here

FX = Path(__file__).parent / "fixtures" / "audit"


@pytest.fixture(scope="module")
def v() -> dict:
    return {x.id: x for x in run.audit_file(FX / "unsaid.yaml", here=Here()).verdicts}


def test_speculative_comparison_at_temperature(v):
    assert v["hot-speedup"].unsaid == [
        "a speculative comparison sampled at temperature 0.7: the speculative and plain runs wrote "
        "different text, so it compares different generations (state a greedy run, temperature 0)"
    ]
    assert v["greedy-speedup"].unsaid == []  # control: greedy


def test_cap_without_output_length(v):
    note = (
        "a generation cap of 2000 tokens is stated for capped but not its output length: the answers may "
        "have stopped at the cap (state the tokens generated)"
    )
    assert v["capped"].unsaid == [note]
    assert v["capped-vs"].unsaid == [note]  # beside the statement it weakens
    assert v["capped-known"].unsaid == []  # control: 1400 of 2000 stated


def test_averaged_runs_without_spread(v):
    assert v["mean3"].unsaid == [
        "mean3 is averaged over 3 runs with no spread stated (sd, range or interval): how far the runs "
        "agreed is unknown"
    ]
    assert v["mean3-sd"].unsaid == []  # control: spread 0.4 stated


def test_free_speedup_beside_a_memory_cost(v):
    assert v["free-speedup"].unsaid == [
        "called free, yet the source states a memory cost: vram_per_draft_token = 599 MB (mem-per-token)"
    ]
    control = {x.id: x for x in run.audit_file(FX / "unsaid_control.yaml", here=Here()).verdicts}
    assert control["free-speedup"].unsaid == []  # control: no memory increase stated


def test_the_clover_post_leaves_nothing_of_these_unsaid():
    clover = Path(__file__).resolve().parents[1] / "data" / "claims" / "clover-35b-a3b-blog.yaml"
    assert all(x.unsaid == [] for x in run.audit_file(clover, here=Here()).verdicts)


def test_runs_per_prompt_counts_as_n_for_the_sources_own_numbers(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog post, runs_per_prompt: 3}\n"
        "claims:\n  - {id: own, metric: decode_tps, value: 20, unit: tok/s}\n"
        "  - {id: quoted, metric: decode_tps, value: 20, unit: tok/s, origin: a forum post}\n"
    )
    got = {x.id: x.unsaid for x in run.audit_file(f, here=Here()).verdicts}
    # no statistic stated: never worded as a mean (a new user's page said "averaged" of a median)
    assert got["own"] == [
        "own is one figure of 3 runs (mean, median or other: not stated) with no spread stated (sd, range "
        "or interval): how far the runs agreed is unknown"
    ]
    assert got["quoted"] == []  # control: a quoted number is not the source's own runs


def test_the_terminal_row_and_the_page_show_what_is_unsaid(tmp_path, capsys, monkeypatch):
    from benchbook.audit import command, page

    monkeypatch.chdir(tmp_path)  # no params.yaml: the defaults of Here
    out = tmp_path / "out"
    assert command.main([str(FX / "unsaid.yaml"), "--out", str(out), "--pages", str(out)]) == 0
    rows = {r.split("\t")[0]: r.split("\t") for r in capsys.readouterr().out.splitlines()}
    assert rows["hot-speedup"][6] == (
        "consistent | at risk: n below 3 on a side of the comparison (single runs, no interval) | unsaid: "
        "a speculative comparison sampled at temperature 0.7: the speculative and plain runs wrote "
        "different text, so it compares different generations (state a greedy run, temperature 0)"
    )
    a = run.audit_file(FX / "unsaid.yaml", here=Here())
    text = page.render(a.claims, a.verdicts, "unsaid.yaml")
    assert (
        "<b>unsaid</b>: called free, yet the source states a memory cost: vram_per_draft_token = 599 MB"
        in text
    )


@pytest.mark.parametrize(
    ("text", "free"),
    [
        ("1.5x faster for free", True),
        ("a free speedup", True),
        ("at no extra cost", True),
        ("1.5x faster, but not free: the draft costs 1.2 GiB", False),  # breaker finding 10
        ("with a lock-free queue", False),
        ("with 2 GiB of free VRAM left", False),
    ],
)
def test_free_is_read_as_a_claim_of_no_cost_only(text, free):
    from benchbook.audit.unsaid import FREE

    assert bool(FREE.search(text)) is free


def test_non_greedy_sampling_is_not_greedy():
    """ "non-greedy" read as greedy (temperature 0), hiding the temperature note (breaker finding 10)."""
    from benchbook.audit import schema
    from benchbook.audit.unsaid import temperature

    cf = schema.ClaimsFile.model_validate(
        {
            "schema": "benchbook.claims",
            "schema_version": 1,
            "source": {"kind": "synthetic test"},
            "claims": [
                {
                    "id": "g",
                    "metric": "decode_tps",
                    "value": 1,
                    "unit": "tok/s",
                    "conditions": {"sampling": "greedy"},
                },
                {
                    "id": "n",
                    "metric": "decode_tps",
                    "value": 1,
                    "unit": "tok/s",
                    "conditions": {"sampling": "non-greedy"},
                },
            ],
        }
    )
    assert temperature(cf, cf.claims[0]) == 0.0 and temperature(cf, cf.claims[1]) is None


def test_the_statistic_of_n_runs_is_the_one_the_file_states(tmp_path):
    """A new user's post reported the median of 3 runs; the page said "averaged over 3 runs"."""
    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog post}\nclaims:\n"
        "  - {id: med, metric: decode_tps, value: 38.9, unit: t/s, n: 3,\n"
        "     conditions: {other: {stat: median}}}\n"
        "  - {id: med-m, metric: decode_tps, value: 38.9, unit: t/s, n: 3,\n"
        "     method: 'llama-server, median of 3'}\n"
        "  - {id: avg, metric: decode_tps, value: 38.9, unit: t/s, n: 3,\n"
        "     conditions: {other: {stat: average}}}\n"
        "  - {id: p99, metric: ttft, value: 120, unit: ms, n: 50, conditions: {other: {stat: p99}}}\n"
        "  - {id: lb, metric: decode_tps, value: 38.9, unit: t/s, n: 5, method: llama-bench tg128}\n"
        "  - {id: none, metric: decode_tps, value: 38.9, unit: t/s, n: 3, method: llama-server}\n"
    )
    got = {x.id: x.unsaid for x in run.audit_file(f, here=Here()).verdicts}
    tail = " with no spread stated (sd, range or interval): how far the runs agreed is unknown"
    assert got == {
        "med": ["med is the median of 3 runs" + tail],
        "med-m": ["med-m is the median of 3 runs" + tail],
        "avg": ["avg is averaged over 3 runs" + tail],
        "p99": ["p99 is the p99 of 50 runs" + tail],
        "lb": ["lb is averaged over 5 runs" + tail],  # llama-bench's avg_ts is a mean
        "none": ["none is one figure of 3 runs (mean, median or other: not stated)" + tail],
    }

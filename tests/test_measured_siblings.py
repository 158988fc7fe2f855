"""The "measured now, complete" rule (``benchbook.measured``) on the experiments that bypassed it:
draft-self (both raw layouts), spec_depth (an unfinished session) and offload (a failed point is data, a
missing point is not); τ never counts tokens past the generation cap; one legacy backend table."""

from __future__ import annotations

import html
import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest
import yaml

from benchbook import measured, migrations
from benchbook.experiments.draftself import report as ds_report
from benchbook.experiments.draftself import sessioncheck
from benchbook.experiments.draftself.analysis import acceptance
from benchbook.experiments.offload import report as offload_report
from benchbook.experiments.spec_depth.report import publishable_sessions
from benchbook.experiments.speculative.analysis import accepted_within_cap
from benchbook.experiments.speculative.analysis import tau as spec_tau
from benchbook.ingest import llama_bench as ingest_llama_bench
from conftest import committed_root

DS_SESSIONS = [  # the committed draft-self sessions (sessions.jsonl), oldest first
    "ff659678fa8c411d859253f0fc31ea6e",
    "f7ac36b183c640959aec2a130323a952",
    "9134c774d1884670af885b1cf54693fc",
    "6c11c22a4e464cfa856748873ca40c55",
]


# --- draft-self ---------------------------------------------------------------------------------


def test_committed_draftself_sessions_pass_the_check():
    checks = sessioncheck.check(committed_root() / "data" / "raw" / "draftself")
    assert list(checks) == DS_SESSIONS
    # 14 configurations x 7 prompts x 3 timed repetitions = 294 runs each, all inside their session,
    # each run's passes within its wall time (the largest share: 0.9724 of the run's wall time)
    assert [len(c.runs) for c in checks.values()] == [294] * 4
    assert all(c.ok for c in checks.values())


def _own_copy(tmp_path: Path) -> Path:
    """A private copy of the committed ``data/`` and ``params.yaml`` (``committed_root()`` is shared by
    every test of the session: never edit it)."""
    dst = tmp_path / "root"
    shutil.copytree(committed_root() / "data", dst / "data")
    shutil.copy(committed_root() / "params.yaml", dst / "params.yaml")
    return dst


def _iso(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _rewrite_runs(runs_file: Path, edit) -> None:
    """Rewrite ``runs_file`` line by line through ``edit(line_number, record) -> record | None``."""
    out = []
    for i, line in enumerate(runs_file.read_text().splitlines(), 1):
        rec = edit(i, json.loads(line))
        if rec is not None:
            out.append(json.dumps(rec))
    runs_file.write_text("\n".join(out) + "\n")


def _newest_runs(runs_file: Path) -> list[tuple[int, dict]]:
    return [
        (i, json.loads(line))
        for i, line in enumerate(runs_file.read_text().splitlines(), 1)
        if json.loads(line)["session_id"] == DS_SESSIONS[-1]
    ]


def test_a_replayed_draftself_run_is_not_published_and_the_page_says_why(tmp_path):
    root = _own_copy(tmp_path)
    runs_file = root / "data" / "raw" / "draftself" / "runs.jsonl"
    line, first = _newest_runs(runs_file)[0]
    # the run replayed from an hour before its session (13:21:02 .. 13:22:08)
    started = datetime.fromisoformat(first["started_at"].replace("Z", "+00:00")) - timedelta(hours=1)

    def replay(i, rec):
        if i == line:
            rec["started_at"] = _iso(started)
        return rec

    _rewrite_runs(runs_file, replay)
    check = sessioncheck.check(root / "data" / "raw" / "draftself")[DS_SESSIONS[-1]]
    assert len(check.reasons) == 1 and check.reasons[0].startswith(f"{runs_file}:{line} (run ")
    assert "outside its session" in check.reasons[0]
    params = yaml.safe_load((root / "params.yaml").read_text())
    rep = ds_report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=tmp_path / "rep")
    # before: the newest session was published as it was; now the newest one that passes
    assert rep.numbers[0].session_id == DS_SESSIONS[-2]
    page = (tmp_path / "rep" / "draftself" / "skipped.md").read_text()
    assert f"session `{DS_SESSIONS[-1]}` on host `246274abff670295`" in page and "outside its session" in page


def test_a_draftself_session_that_lost_a_run_or_timed_more_than_its_wall_time_fails(tmp_path):
    root = _own_copy(tmp_path)
    runs_file = root / "data" / "raw" / "draftself" / "runs.jsonl"
    newest = _newest_runs(runs_file)
    (lost_line, lost), (slow_line, slow) = newest[0], newest[1]

    def edit(i, rec):
        if i == lost_line:
            return None  # a run lost
        if i == slow_line:  # a pass that took 10 s in a run of well under a second
            rec["passes"] = [*rec["passes"], ["verify", 9, 10_000_000_000]]
        return rec

    _rewrite_runs(runs_file, edit)
    reasons = sessioncheck.check(root / "data" / "raw" / "draftself")[DS_SESSIONS[-1]].reasons
    wall = (
        datetime.fromisoformat(slow["ended_at"].replace("Z", "+00:00"))
        - datetime.fromisoformat(slow["started_at"].replace("Z", "+00:00"))
    ).total_seconds()
    timed = (sum(p[2] for p in slow["passes"]) + 10_000_000_000) / 1e9
    assert reasons == [
        f"{runs_file}:{slow_line - 1} (run {slow['run_id']}): its samples sum to {timed:.3f} s but the "
        f"invocation's wall time is {wall:.3f} s: the samples were not measured by this invocation",
        f"{root / 'data' / 'raw' / 'draftself' / 'sessions.jsonl'}: session {DS_SESSIONS[-1]} planned "
        f"{(lost['config_name'], lost['prompt_id'], lost['rep'])} but has no such run: an incomplete table",
    ]


# --- spec_depth ---------------------------------------------------------------------------------


def test_an_unfinished_spec_depth_session_is_not_published(tmp_path):
    raw = committed_root() / "data" / "raw"
    sessions, skipped = publishable_sessions(raw)
    # host 3f1dfa40's newest session is complete (f349b5cc, after 5d2b86d3); its first one, 1b5cda51
    # (server stage stopped at the deadline, no end record), is older and never the one published
    assert sessions == {
        "3f1dfa40cbf1eb67": "f349b5cc74b240b69302ce87db47035c",
        "e3618a24b4e44752": "23d37a9415f142818bb0b641722de543",
    }
    assert skipped == []
    # with only that session in the file (the data as it was committed first), nothing is published
    import shutil

    tmp = tmp_path
    (tmp / "spec_depth").mkdir()
    lines = (raw / "spec_depth" / "3f1dfa40cbf1eb67.jsonl").read_text().splitlines()
    first = [x for x in lines if json.loads(x).get("session_id") == "1b5cda514b0149ac9141994ab413ec3b"]
    (tmp / "spec_depth" / "3f1dfa40cbf1eb67.jsonl").write_text("\n".join(first) + "\n")
    shutil.copytree(raw / "snapshots", tmp / "snapshots")
    sessions, skipped = publishable_sessions(tmp)
    assert sessions == {}
    (unfinished,) = skipped
    assert (unfinished.session_id, unfinished.host_id) == (
        "1b5cda514b0149ac9141994ab413ec3b",
        "3f1dfa40cbf1eb67",
    )
    # the reason is record text, escaped on the page (escape.markdown_text): as the reader sees it
    shown = html.unescape(measured.skipped_markdown(skipped))
    assert "has a start record and no end record (9 runs present)" in shown


# --- offload ------------------------------------------------------------------------------------


def _offload_session(path: Path, planned: list[int]) -> None:
    """The hand-made offload session of ``test_offload`` (point 0 failed out of memory, points 2 and 4
    ran) with ``planned`` as its start record's sweep."""
    from test_offload import _write_session

    _write_session(path)
    lines = path.read_text().splitlines()
    start = json.loads(lines[0])
    start["config"] = {"n_cpu_moe": planned}
    path.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")


def test_offload_failed_point_is_data_and_a_missing_point_is_not(tmp_path):
    params = {"report": {"confidence": 0.95}}
    _offload_session(tmp_path / "raw" / "offload" / "h1.jsonl", [0, 2, 4])
    res = offload_report.build(params, root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("rep"))
    keys = {n.key for n in res["numbers"]}
    # the failed point 0 is shown as failed, never a value; the session is published
    assert "offload-hh1-ncmoe2-tg" in keys and not any("ncmoe0" in k for k in keys)
    assert "| 0 | 0 of 4 | — | — |" in (tmp_path / "rep/offload/sweep.md").read_text()
    # llama-bench's stderr, escaped (escape.markdown_text): as the reader sees it
    assert "failed: out of memory: cudaMalloc failed" in html.unescape(
        (tmp_path / "rep/offload/sweep.md").read_text()
    )
    assert "passed the checks" in (tmp_path / "rep/offload/skipped.md").read_text()

    other = tmp_path / "second"
    _offload_session(other / "raw" / "offload" / "h1.jsonl", [0, 2, 4, 6])  # 6: neither a row nor a failure
    res = offload_report.build(params, root=other, raw_dir=Path("raw"), reports_dir=Path("rep"))
    assert res["numbers"] == []
    assert "planned 6 but has no such run: an incomplete table" in html.unescape(
        (other / "rep/offload/skipped.md").read_text()
    )


# --- τ and the generation cap -------------------------------------------------------------------


def test_tau_never_counts_tokens_past_the_cap():
    # cap 8, three verify steps committing 3, 3 and 3 (6 accepted): 8 tokens over 3 steps, τ = 8/3, not 3
    assert spec_tau(6, 3, cap=8) == pytest.approx(8 / 3) and spec_tau(6, 3) == 3.0
    assert accepted_within_cap(6, 3, 8) == 5 and accepted_within_cap(6, 3, None) == 6
    assert accepted_within_cap(6, 3, 2) == 0  # never below 0
    # draft-self: n_tokens 9 = the prefill token + a cap of 8 for the verify steps
    run = pl.DataFrame(
        {
            "config_name": ["ds-k2"],
            "decoder": ["draftself"],
            "k": [2],
            "verify": ["batched"],
            "draft": ["one_pass"],
            "coreset_mass": [None],
            "coreset_apply": [None],
            "predictable": [True],
            "rep": [1],
            "accepted_total": [6],
            "verify_steps": [3],
            "rejections": [0],
            "drafted_total": [6],
            "n_tokens": [9],
            "forward_passes": [7],
            "expert_loads_per_token": [None],
            "equals_ar": [True],
            "_line": [1],
            "_file": ["x"],
            "run_id": ["r"],
        }  # fmt: skip
    )
    assert acceptance(run)["tau"].to_list() == [pytest.approx(8 / 3)]


def test_published_draftself_tau_no_longer_counts_the_last_blocks_overshoot():
    from benchbook.experiments.draftself.analysis import load_runs

    runs, _ = load_runs(committed_root() / "data" / "raw" / "draftself", DS_SESSIONS[-1])
    acc = acceptance(runs).filter(
        (pl.col("config_name") == "ds-k8-batched-one_pass") & (pl.col("prompt_class") == "predictable")
    )
    # 4 predictable prompts x 48 tokens: 188 committed by 24 verify steps = 7.833 (before: 216 / 24 = 9.0,
    # the accepted tokens of each last block past the 48-token cap counted)
    assert round(acc["tau"][0], 3) == 7.833


# --- one legacy backend table -------------------------------------------------------------------


def test_one_legacy_backend_table_with_opencl():
    assert not hasattr(ingest_llama_bench, "LEGACY_BACKENDS")
    assert ingest_llama_bench.LEGACY_BACKEND_FIELDS is migrations.LEGACY_BACKEND_FIELDS
    assert migrations.LEGACY_BACKEND_FIELDS["opencl"] == "OpenCL"
    row, version = migrations.legacy_llama_bench_row({"opencl": "1", "cuda": "0", "blas": "1"})
    assert (row, version) == ({"backends": "OpenCL,BLAS"}, 1)
    df = migrations.legacy_llama_bench_fields(pl.DataFrame({"opencl": [True], "cuda": [False]}))
    assert df["backends"].to_list() == ["OpenCL"]

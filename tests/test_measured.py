"""Issue 13 §1: a number is published only when its records prove a complete measurement made in the
session; a session that lost a row is never marked complete; the registry is written only after the
report's checks pass; a cold label says what the record proves."""

import json
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from benchbook import measured
from benchbook.experiments.llama_bench import report
from benchbook.experiments.llama_bench.analysis import load_llama_bench
from benchbook.experiments.llama_bench.run import run_session
from benchbook.records import iter_records
from conftest import committed_root

HOST = "246274abff670295"
LAST = "d2ee0d2ad2874050b015ff06a4c62196"  # the host's newest committed session (13:08:40 .. 13:08:57)


def _raw_copy(tmp_path: Path) -> tuple[Path, Path, list[dict]]:
    """A copy of the committed llama_bench + snapshots raw data; returns (raw_dir, host file, its records)."""
    raw = tmp_path / "raw"
    shutil.copytree(committed_root() / "data" / "raw" / "llama_bench", raw / "llama_bench")
    shutil.copytree(committed_root() / "data" / "raw" / "snapshots", raw / "snapshots")
    host_file = raw / "llama_bench" / f"{HOST}.jsonl"
    return raw, host_file, [rec for _, rec in iter_records(host_file)]


def _iso(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _append_copy_of_last(
    host_file: Path, recs: list[dict], start: datetime, window_ms: float, drop_row=None, retime=False
):
    """Append a new session holding the rows of session LAST verbatim (their test_time, samples) as if
    measured from ``start``: each invocation ``window_ms`` long; ``drop_row`` (run index, row index) left out
    as a tool that exited 0 would (rows_total = the rows printed, as the writer recorded it before);
    ``retime``: each row's test_time set to its invocation's start (truncated to the second)."""
    sid = "f" * 32
    out = [{**next(r for r in recs if r.get("session_id") == LAST and r.get("event") == "start"),
            "session_id": sid, "at": _iso(start)}]  # fmt: skip
    runs: dict[str, list[dict]] = {}
    for r in recs:
        if r["schema"] == "benchbook.llama_bench" and r["session_id"] == LAST:
            runs.setdefault(r["run_id"], []).append(r)
    t = start + timedelta(milliseconds=20)
    for i, rows in enumerate(runs.values()):
        kept = [row for j, row in enumerate(rows) if drop_row != (i, j)]
        for j, row in enumerate(kept):
            if retime:
                row = {
                    **row,
                    "llama_bench": {**row["llama_bench"], "test_time": t.strftime("%Y-%m-%dT%H:%M:%SZ")},
                }
            end = _iso(t + timedelta(milliseconds=window_ms))
            out.append({**row, "session_id": sid, "run_id": f"r{i:031d}", "started_at": _iso(t),
                        "ended_at": end, "wall_ns": int(window_ms * 1e6), "rows_total": len(kept),
                        "row_index": j, "run_complete": j == len(kept) - 1})  # fmt: skip
        t += timedelta(milliseconds=window_ms + 20)
    out.append({"schema": "benchbook.session", "schema_version": 1, "event": "end", "session_id": sid,
                "experiment": "llama_bench", "at": _iso(t)})  # fmt: skip
    with host_file.open("a") as fh:
        for rec in out:
            fh.write(json.dumps({k: v for k, v in rec.items() if not k.startswith("_")}) + "\n")
    return sid


def _derive(raw: Path, out: Path):
    P = yaml.safe_load((committed_root() / "params.yaml").read_text())
    return report.derive(
        raw / "llama_bench",
        raw / "snapshots",
        out / "llama_bench",
        out / "numbers" / "llama_bench.json",
        out / "metrics.json",
        thresholds={**P["report"], "primary_host": HOST},
        confidence=P["report"]["confidence"],
    )


def test_committed_sessions_pass_and_truncated_test_time_is_legitimate():
    # session e2b890c3 starts 12:40:59.481193Z; its first row's test_time is 12:40:59Z (truncated):
    # measured there
    files = sorted((committed_root() / "data" / "raw" / "llama_bench").glob("*.jsonl"))
    checks = measured.check_sessions(files, "llama_bench", ("benchbook.llama_bench",))
    assert len(checks) == 6 and all(c.ok for c in checks.values()), [c.reasons for c in checks.values()]
    first = next(r for _, r in iter_records(files[0]) if r.get("session_id", "").startswith("e2b890c3")
                 and r["schema"] == "benchbook.llama_bench")  # fmt: skip
    assert (first["llama_bench"]["test_time"], checks[first["session_id"]].started_at) == (
        "2026-11-29T12:40:59Z",
        "2026-11-29T12:40:59.481193Z",
    )


def test_replayed_rows_are_not_published_and_the_page_says_why(tmp_path):
    raw, host_file, recs = _raw_copy(tmp_path)
    # before the fix this session was published: rows of LAST (test_time 13:08:40Z ..) replayed in a session
    # starting 24 minutes later, each invocation 29 ms long
    start = datetime(2026, 11, 29, 13, 32, 40, 900000, tzinfo=UTC)
    sid = _append_copy_of_last(host_file, recs, start, window_ms=29)
    check = measured.check_sessions([host_file], "llama_bench", ("benchbook.llama_bench",))[sid]
    assert not check.ok
    # q4_1 warm: samples 2474817380 + 3243130217 ns = 5.718 s in a 0.029 s invocation
    assert any("samples sum to 5.718 s but the invocation's wall time is 0.029 s" in r for r in check.reasons)
    assert any("test_time 2026-11-29T13:08:40Z is 24 min before its invocation" in r for r in check.reasons)
    res = _derive(raw, tmp_path / "rep")
    assert res.session["session_id"] == LAST  # the newest session the records prove, not the replay
    assert {n.session_id for n in res.numbers if n.host_id == HOST} == {LAST}
    page = (tmp_path / "rep" / "llama_bench" / "skipped.md").read_text()
    assert f"session `{sid}` on host `{HOST}`" in page and "a replayed row" in page


def test_a_session_that_lost_a_row_is_not_published(tmp_path):
    raw, host_file, recs = _raw_copy(tmp_path)
    start = datetime(2026, 11, 29, 13, 40, 0, tzinfo=UTC)
    # a real-length window, so only the lost row is wrong: q8_0 warm (run 3) printed pp128 but not tg64
    sid = _append_copy_of_last(host_file, recs, start, window_ms=9000, drop_row=(3, 1), retime=True)
    check = measured.check_sessions([host_file], "llama_bench", ("benchbook.llama_bench",))[sid]
    assert [r.split(": ", 1)[1] for r in check.reasons] == [
        "1 of the 2 rows its argv asks for (a lost row): an incomplete table"
    ]
    res = _derive(raw, tmp_path / "rep")
    # before: 11 of 12 numbers published from the short session; now the 12 of the complete one before it
    published = [n for n in res.numbers if n.host_id == HOST]
    assert (len(published), {n.session_id for n in published}) == (12, {LAST})


def test_registry_is_written_only_after_the_checks_pass(tmp_path, monkeypatch):
    raw, _, _ = _raw_copy(tmp_path)
    registry = tmp_path / "rep" / "numbers" / "llama_bench.json"
    registry.parent.mkdir(parents=True)
    registry.write_text("the previous registry\n")

    def failing(*_a, **_k):
        raise RuntimeError("a check failed")

    monkeypatch.setattr(report, "check_publishable", failing)
    with pytest.raises(RuntimeError, match="a check failed"):
        _derive(raw, tmp_path / "rep")
    assert registry.read_text() == "the previous registry\n"
    assert not (tmp_path / "rep" / "llama_bench" / "rates.parquet").exists()


def test_check_publishable_refuses_a_partial_table(tmp_path):
    raw, _, _ = _raw_copy(tmp_path)
    res = _derive(raw, tmp_path / "rep")
    short = [n for n in res.numbers if n.key != "lb-smollm2-135m-q4_1-tg64-warm"]
    with pytest.raises(RuntimeError, match=f"session {LAST}: 11 numbers for 12 tests"):
        report.check_publishable(res.stats, short, {HOST: res.sessions[HOST]}, raw / "llama_bench")


FAKE_BENCH = """
import json, sys
rows = [json.loads(line) for line in open(sys.argv[0] + ".rows")]
print(json.dumps(rows[0]))  # pp only: the tg row is lost, and the tool still exits 0
"""


def test_a_run_that_lost_a_row_leaves_the_session_open(tmp_path):
    from benchbook.provenance import host_snapshot

    fix = Path(__file__).parent / "fixtures" / "llama_bench_b11434.jsonl"
    bench = tmp_path / "llama-bench"
    bench.write_text(f"#!{sys.executable}\n{FAKE_BENCH}")
    bench.chmod(0o755)
    Path(str(bench) + ".rows").write_text(fix.read_text())
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + bytes(4096))
    cfg = {"n_prompt": 8, "n_gen": 4, "n_depth": 0, "repetitions": 2, "threads": 1, "n_gpu_layers": 0,
           "flash_attn": "off", "cold_first_run": False, "models": ["m"]}  # fmt: skip
    raw = tmp_path / "lb.jsonl"
    res = run_session(
        cfg=cfg,
        bench_bin=bench,
        models=[{"model_id": "m", "path": str(model), "sha256": "0" * 64}],
        toolchain={"toolchain_id": "t"},
        host=host_snapshot(),
        root=tmp_path,
        raw_file=raw,
        log=lambda *_: None,
    )
    assert (res.ran, res.failed) == (0, 1)
    recs = [r for _, r in iter_records(raw)]
    assert [r["event"] for r in recs if r["schema"] == "benchbook.session"] == [
        "start"
    ]  # never marked complete
    lost = [r for r in recs if r["schema"] == "benchbook.llama_bench"]
    assert [(r["rows_total"], r["run_complete"]) for r in lost] == [
        (2, False)
    ]  # the printed row, kept verbatim
    failed = next(r for r in recs if r["schema"] == "benchbook.run_failed")
    assert failed["error"].endswith("llama-bench exited 0 but printed 1 of the 2 rows its argv asks for")
    assert load_llama_bench(tmp_path).height == 0  # the short group is dropped by readers


def test_cold_label_is_what_the_record_proves():
    files = sorted((committed_root() / "data" / "raw" / "llama_bench").glob("*.jsonl"))
    labels = {}
    for f in files:
        for _, r in iter_records(f):
            if r["schema"] == "benchbook.llama_bench" and r["phase"] == "cold":
                labels.setdefault(r["host_id"], set()).add(measured.cache_label("cold", r["cache_state"]))
    # the CUDA host's cold runs have evicted: false (residency stayed high): "cold, unverified"
    assert labels == {"246274abff670295": {"cold"}, "e3618a24b4e44752": {"cold, unverified"}}


def test_a_replayed_speculative_session_is_not_published(tmp_path):
    from benchbook.experiments.speculative import report as spec_report

    raw = tmp_path / "raw"
    shutil.copytree(committed_root() / "data" / "raw" / "speculative", raw / "speculative")
    shutil.copytree(committed_root() / "data" / "raw" / "snapshots", raw / "snapshots")
    path = raw / "speculative" / f"{HOST}.jsonl"
    last = "4ad890526e7e4457a6ca06dfa653d5c6"  # the newest committed session (ends 13:20:57Z)
    copy = []
    for _, rec in iter_records(path):
        if rec.get("session_id") == last:
            rec = {**rec, "session_id": "e" * 32}
            if rec["schema"] == "benchbook.session":  # the session "ran" an hour later; its records did not
                rec["at"] = rec["at"].replace("T13:", "T14:")
            copy.append(rec)
    with path.open("a") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in copy)
    P = yaml.safe_load((committed_root() / "params.yaml").read_text())
    res = spec_report.derive(
        raw / "speculative", raw / "snapshots", tmp_path / "out", tmp_path / "numbers.json", P["report"]
    )
    assert res.session["session_id"] == last
    page = (tmp_path / "out" / "skipped.md").read_text()
    assert f"session `{'e' * 32}`" in page and "outside its session" in page


@pytest.mark.parametrize("experiment", ["speculative", "draftself"])
def test_other_reports_write_the_registry_only_after_their_checks(tmp_path, monkeypatch, experiment):
    import importlib

    mod = importlib.import_module(f"benchbook.experiments.{experiment}.report")
    registry = tmp_path / "rep" / "numbers" / f"{experiment}.json"
    registry.parent.mkdir(parents=True)
    registry.write_text("the previous registry\n")

    def failing(*_a, **_k):
        raise RuntimeError("a check failed")

    monkeypatch.setattr(mod, "check_publishable", failing)
    P = yaml.safe_load((committed_root() / "params.yaml").read_text())
    with pytest.raises(RuntimeError, match="a check failed"):
        mod.build(P, root=committed_root(), raw_dir=Path("data/raw"), reports_dir=tmp_path / "rep")
    assert registry.read_text() == "the previous registry\n"


# --- one selection policy table (issue 26 item 3) ----------------------------------------------------


def _c(sid: str, host: str | None, ended_at: str, ok: bool = True) -> measured.SessionCheck:
    reasons = [] if ok else [f"{sid}: a fault"]
    return measured.SessionCheck(sid, "e", host, "2026-01-01T00:00:00Z", ended_at, "f.jsonl", reasons)


#: h1: a (passes, ended 01:00), b (fails, ended 02:00); h2: d (passes, 03:00); no host: e (passes, 04:00)
CHECKS = {
    c.session_id: c
    for c in (
        _c("a", "h1", "2026-01-01T01:00:00Z"),
        _c("b", "h1", "2026-01-01T02:00:00Z", ok=False),
        _c("d", "h2", "2026-01-01T03:00:00Z"),
        _c("e", None, "2026-01-01T04:00:00Z"),
    )
}


def _ids(sessions: list[measured.SessionCheck]) -> list[str]:
    return [c.session_id for c in sessions]


def test_select_every_host_newest_session():
    # llama_bench: each host's newest passing session (a for h1: b is newer but fails; d for h2); the
    # hostless e belongs to no host; skipped: b, newer than h1's published session
    picked = measured.select("llama_bench", CHECKS)
    assert (_ids(picked.published), _ids(picked.skipped)) == (["a", "d"], ["b"])
    assert {h: c.session_id for h, c in picked.by_host().items()} == {"h1": "a", "h2": "d"}


def test_select_primary_host_else_the_newest_host():
    # the primary host's newest passing session, and only its host's skipped sessions
    picked = measured.select("speculative", CHECKS, "h1")
    assert (picked.chosen.session_id, _ids(picked.skipped)) == ("a", ["b"])
    # no primary host, or one without a passing session: the host session that ended last (d, 03:00)
    for primary in (None, "h3"):
        picked = measured.select("draftself", CHECKS, primary)
        assert (picked.chosen.session_id, _ids(picked.skipped)) == ("d", [])
    # nothing passes: no session; the primary host's failures are what the page names
    failing = {"b": CHECKS["b"]}
    picked = measured.select("draftself_gpu", failing, "h1")
    assert (picked.chosen, _ids(picked.skipped)) == (None, ["b"])
    assert _ids(measured.select("template", failing, "h2").skipped) == []


def test_select_every_session():
    # the server-cost table: every passing session, the hostless one too (by host, then end time)
    picked = measured.select("speculative:server_cost", CHECKS)
    assert (_ids(picked.published), _ids(picked.skipped)) == (["e", "a", "d"], ["b"])


def test_check_takes_the_planned_runs_exactly_where_the_policy_says(tmp_path):
    with pytest.raises(ValueError, match="plan their runs, and planned runs were not given"):
        measured.check("llama_bench", tmp_path)
    with pytest.raises(ValueError, match="do not plan their runs.*fix: drop planned"):
        measured.check("template", tmp_path, report.PLANNED)
    assert measured.check("llama_bench", tmp_path, report.PLANNED) == {}  # no files, no sessions


def test_the_policy_table_names_each_experiments_own_kinds():
    from benchbook.experiments import offload, spec_depth, template
    from benchbook.experiments.draftself import sessioncheck

    kinds = {name: p.kinds for name, p in measured.POLICIES.items()}
    assert kinds["offload"] == (offload.SCHEMA, offload.BANDWIDTH_SCHEMA)
    assert kinds["spec_depth"] == (spec_depth.BENCH_SCHEMA, spec_depth.REQUEST_SCHEMA)
    assert kinds["template"] == (template.SCHEMA,) and kinds["draftself"] == (sessioncheck.RUN_SCHEMA,)
    # one policy per published table: the six experiments' pages, the template, and the speculative
    # records' two other tables (the depth page's comparison, the server-cost table)
    assert sorted(measured.POLICIES) == sorted(
        [*EXPERIMENTS, "template", "tool_gap", "speculative:hosts", "speculative:server_cost"]
    )


def test_the_committed_sessions_each_policy_publishes():
    """What each table publishes from the committed raw data (primary host 246274ab, the CPU host)."""
    import benchbook.experiments.spec_depth  # noqa: F401  (declares the depth record kinds)
    from benchbook.experiments.draftself import sessioncheck as draftself
    from benchbook.experiments.offload import report as offload
    from benchbook.experiments.spec_depth import runlabels as spec_depth_plan
    from benchbook.experiments.speculative import plan as speculative_plan

    raw = committed_root() / "data" / "raw"
    snapshots = raw / "snapshots"
    checks = {
        "llama_bench": measured.check("llama_bench", raw / "llama_bench", report.PLANNED),
        "offload": measured.check("offload", raw / "offload", offload.PLANNED),
        "spec_depth": measured.check("spec_depth", raw / "spec_depth", spec_depth_plan.planned(snapshots)),
        "draftself": draftself.check(raw / "draftself"),
        "draftself_gpu": draftself.check(raw / "draftself_gpu", "draftself_gpu"),
        **{
            name: measured.check(name, raw / "speculative", speculative_plan.planned(snapshots))
            for name in SPECULATIVE
        },
    }
    got = {
        name: [c.session_id[:8] for c in measured.select(name, found, HOST).published]
        for name, found in checks.items()
    }
    assert got == {
        "llama_bench": ["d2ee0d2a", "637789dc"],  # 246274ab's newest of 5, e3618a24's one
        "offload": ["d8cf33d1"],
        "spec_depth": ["f349b5cc", "23d37a94"],  # 3f1dfa40's newest that ended (1b5cda51 never did)
        "speculative": ["4ad89052"],  # the primary host's newest
        "speculative:hosts": ["4ad89052", "e5c68027", "5b481365"],
        "speculative:server_cost": [
            *("c81f79c3", "4787a708", "4ad89052"),  # 246274ab, by end time
            *("521afbb1", "e5c68027"),  # 3f1dfa40
            *("7554df47", "5b481365"),  # e3618a24
        ],
        "draftself": ["6c11c22a"],
        "draftself_gpu": ["57a59f95"],  # no session of the primary host: the newest GPU session
    }
    # every committed session passes, but the depth sweep that never ended
    assert [c.session_id[:8] for found in checks.values() for c in found.values() if not c.ok] == ["1b5cda51"]


SPECULATIVE = ("speculative", "speculative:hosts", "speculative:server_cost")
EXPERIMENTS = ("llama_bench", "speculative", "draftself", "offload", "spec_depth", "draftself_gpu")


@pytest.mark.parametrize(
    ("name", "session", "dropped"),
    [
        # a speculative request (config q2k-n4, prompt ko_story, repetition 1) and a depth request
        ("speculative", "4ad89052", ("request", "q2k-n4", "ko_story", 1)),
        ("spec_depth", "f349b5cc", ("request", "q2k-n4", 1, 256)),
    ],
)
def test_a_speculative_or_depth_session_missing_a_planned_run_is_not_published(
    tmp_path, name, session, dropped
):
    """Issue 26: the speculative and depth reports check each session's runs against the plan its start
    record makes (as llama_bench, offload and draft-self do).  Before: a session that lost a request
    (a line deleted, a run never made) was published as complete; right: it is skipped, naming the run."""
    import json
    import shutil

    import benchbook.experiments.spec_depth  # noqa: F401  (declares the depth record kinds)
    from benchbook.experiments.spec_depth import runlabels as spec_depth_plan
    from benchbook.experiments.speculative import plan as speculative_plan

    raw = committed_root() / "data" / "raw"
    plans = {"speculative": speculative_plan, "spec_depth": spec_depth_plan}
    label = plans[name].run_label
    shutil.copytree(raw / "snapshots", tmp_path / "snapshots")
    (tmp_path / name).mkdir()
    for f in sorted((raw / name).glob("*.jsonl")):
        lines = [
            line
            for line in f.read_text().splitlines()
            if not (
                json.loads(line).get("session_id", "").startswith(session)
                and json.loads(line).get("run_id")
                and label(json.loads(line)) == dropped
            )
        ]
        (tmp_path / name / f.name).write_text("\n".join(lines) + "\n")
    planned = plans[name].planned(tmp_path / "snapshots")
    whole = measured.check(name, raw / name, plans[name].planned(raw / "snapshots"))
    cut = measured.check(name, tmp_path / name, planned)
    full = next(c for sid, c in whole.items() if sid.startswith(session))
    lost = next(c for sid, c in cut.items() if sid.startswith(session))
    assert full.ok and len(lost.runs) == len(full.runs) - 1
    assert [r.split(": ", 1)[1] for r in lost.reasons] == [
        f"session {lost.session_id} planned {dropped} but has no such run: an incomplete table"
    ]
    # the control: every other session of the folder still passes
    assert all(c.ok for sid, c in cut.items() if sid != lost.session_id and c.ended)
    assert session not in [c.session_id[:8] for c in measured.select(name, cut).published]

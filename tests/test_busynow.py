"""The up-front busy-host line of a measurement session (new user: 185 s per configuration on a
loaded host, ~9 s quiet, and no word about it until the page flagged the numbers)."""

from __future__ import annotations

import json

from benchbook import busynow, caveats, session
from benchbook.busynow import Load


def test_thresholds_are_the_busy_host_rules():
    assert {k: caveats.DEFAULTS[k] for k in busynow.THRESHOLDS} == busynow.THRESHOLDS


def test_busy_by_load_or_by_another_process():
    # 2 cores: busy above 2 x 2 = 4.0 load, or another process above 50% CPU
    assert not Load(4.0, 2, "x", 50.0).busy
    assert Load(4.01, 2, None, 0.0).busy
    assert Load(0.3, 2, "python", 50.1).busy
    assert not busynow.is_busy(None, None, 2)


def test_start_line_names_the_load_the_consequence_and_the_options():
    # the new user's host: load 7 on 2 cores while the speculative stage ran
    line = busynow.start_notice("speculative", Load(7.02, 2, "python3", 96.4))
    assert line == (
        "benchbook: speculative: this host is busy (1-min load 7.02 on 2 cores; busiest other process "
        "python3 at 96% CPU): runs will be slow and their numbers flagged busy_host. Wait for a quiet host, "
        "or Ctrl-C and run again later (the session resumes where it stopped); --fresh-session "
        "(BENCHBOOK_FRESH_SESSION=1 under dvc repro) starts a new session."
    )
    assert busynow.start_notice("speculative", Load(1.1, 2, "sshd", 3.0)) is None


def test_the_busy_line_names_the_pid_and_command():
    # issue 33 §5: "benchbook at 71%" named no process a user could find; pid and command line now
    load = Load(3.9, 2, "benchbook", 71.2, 4242, "/usr/bin/python3 -m benchbook.cli run")
    assert busynow.start_notice("llama_bench", load).startswith(
        "benchbook: llama_bench: this host is busy (1-min load 3.90 on 2 cores; busiest other process "
        "pid 4242 `/usr/bin/python3 -m benchbook.cli run` at 71% CPU): "
    )
    # a long command line is cut at CMD_CHARS (80) with "…"
    long = busynow.command_text(["python", "-c", "x" * 200])
    assert len(long) == 80 and long.endswith("…") and long.startswith("python -c xxx")
    assert busynow.command_text(["sleep", "5"]) == "sleep 5"


def test_now_reports_the_busiest_process_pid_and_command():
    import subprocess
    import sys

    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        load = busynow.now(sample_s=0.5)
    finally:
        spin.kill()
        spin.wait()
    assert load.other_pid is not None and load.other_cmd
    if load.other_pid == spin.pid:  # on a shared host another process may be busier
        assert load.other_cmd == f"{sys.executable} -c while True: pass"


def test_record_busy_reads_the_runs_load_snapshots():
    snap = {"loadavg": [1.0, 1.0, 1.0], "top_processes": []}
    assert busynow.record_busy({"load_start": snap, "load_end": snap}, 2) is False
    hot = {"loadavg": [7.0, 5.0, 3.0], "top_processes": [{"pid": 1, "name": "x", "cpu_percent": 20.0}]}
    assert busynow.record_busy({"load_start": snap, "load_end": hot}, 2) is True  # 7.0 > 4.0
    hog = {"loadavg": [1.0, 1.0, 1.0], "top_processes": [{"pid": 1, "name": "x", "cpu_percent": 80.0}]}
    assert busynow.record_busy({"load_end": hog}, 2) is True  # 80% > 50%
    assert busynow.record_busy({}, 2) is None


def test_resume_line_only_when_the_regime_changed():
    # 3 earlier runs: 2 busy, 1 quiet; the host is quiet now -> 2 of 3 ran under the other regime
    line = busynow.resume_notice("speculative", "ab12", [True, True, False], busy_now=False)
    assert line == (
        "benchbook: speculative: resuming session ab12: 2 of its 3 completed runs ran on a busy host, the "
        "host is quiet now, so the session will mix both load regimes; Ctrl-C and run again with "
        "--fresh-session (BENCHBOOK_FRESH_SESSION=1 under dvc repro) to start a new session instead."
    )
    assert busynow.resume_notice("speculative", "ab12", [False, False], busy_now=False) is None
    assert busynow.resume_notice("speculative", "ab12", [], busy_now=True) is None


def _run(sid: str, key: str, load1: float) -> dict:
    snap = {"loadavg": [load1, load1, load1], "top_processes": []}
    rec = {"session_id": sid, "run_key": key, "status": "ok", "load_start": snap, "load_end": snap}
    return {"schema": "benchbook.speculative_request", "schema_version": 1, **rec}


def test_session_open_prints_both_lines_when_resuming_a_quiet_session_on_a_busy_host(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(busynow, "now", lambda: Load(9.5, 2, None, 0.0))
    monkeypatch.setattr(session.os, "cpu_count", lambda: 2)
    raw = tmp_path / "h.jsonl"
    with session.Session.open(raw, "speculative", {"c": 1}) as s:
        sid = s.session_id
        s.incomplete.append("interrupted")  # no end record: the next open resumes it
    with raw.open("a") as f:  # one completed run of that session, on a quiet host: 1.0 <= 4.0
        f.write(json.dumps(_run(sid, "k1", 1.0)) + "\n")
    capsys.readouterr()
    with session.Session.open(raw, "speculative", {"c": 1}) as s:
        assert s.resumed and s.session_id == sid
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("benchbook: speculative: this host is busy (1-min load 9.50 on 2 cores): ")
    assert err[1].startswith(
        f"benchbook: speculative: resuming session {sid}: 1 of its 1 completed runs ran on a quiet host"
    )
    assert len(err) == 2
    assert [json.loads(x)["resumed"] for x in raw.read_text().splitlines() if '"start"' in x] == [False, True]

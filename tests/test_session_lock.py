"""One writer per session raw file, and SIGTERM/SIGHUP stop a measuring command like Ctrl-C (issue 34 §4).

Before: a SIGTERM to ``benchbook run`` left the measurement stage running, orphaned; a second ``benchbook
run`` resumed the same session while the orphan still wrote (three runs measured twice at once, two end
records), and two ``python -m benchbook.experiments llama_bench`` at once did the same.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from benchbook.session import Session, SessionBusy

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _env(tmp_path: Path) -> dict:
    return {**os.environ, "PYTHONPATH": SRC, "BENCHBOOK_CACHE": str(tmp_path / "cache")}


def _wait_for(path: Path, timeout_s: float = 20.0) -> str:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.05)
    raise AssertionError(f"{path} never written")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_second_writer_of_the_same_raw_file_is_refused_naming_the_holder(tmp_path):
    raw = tmp_path / "llama_bench" / "h1.jsonl"
    with Session.open(raw, "llama_bench", {"config": {"a": 1}}) as first:
        with pytest.raises(SessionBusy) as e:
            Session.open(raw, "llama_bench", {"config": {"a": 1}})
        assert str(e.value) == (
            f"{raw}: another benchbook process (pid {os.getpid()}) is writing a session to this file now; "
            f"fix: wait for it to finish, or stop it (`kill {os.getpid()}`: it stops its measurement and "
            "keeps what it recorded), then run again"
        )
        first_id = first.session_id
    # the refused writer wrote nothing: one start and one end record, of the first session only
    recs = [json.loads(line) for line in raw.read_text().splitlines()]
    assert [(r["event"], r["session_id"]) for r in recs] == [("start", first_id), ("end", first_id)]
    # released at close: the next session opens
    with Session.open(raw, "llama_bench", {"config": {"a": 1}}) as again:
        assert again.session_id != first_id


def test_the_lock_holds_across_processes_and_dies_with_its_holder(tmp_path):
    raw = tmp_path / "llama_bench" / "h1.jsonl"
    ready = tmp_path / "ready"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import time, pathlib
                from benchbook.session import Session
                s = Session.open(pathlib.Path({str(raw)!r}), "llama_bench", {{}})
                pathlib.Path({str(ready)!r}).write_text("1")
                time.sleep(60)
                """
            ),
        ],
        env=_env(tmp_path),
    )
    try:
        _wait_for(ready)
        with pytest.raises(SessionBusy, match=rf"\(pid {holder.pid}\)"):
            Session.open(raw, "llama_bench", {})
    finally:
        holder.kill()  # kill -9: no close, no end record
        holder.wait()
    # the kernel dropped the lock with its holder: a stale lock file blocks nothing, and the killed
    # session (start, no end) is resumed
    with Session.open(raw, "llama_bench", {}) as s:
        assert s.resumed


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_the_stage_process_group_like_ctrl_c(tmp_path, sig):
    # a `benchbook run`-like parent (stage_runner, inside stop_signals_interrupt as cli.main sets it up for
    # `run`) whose stage starts a grandchild; the signal to the parent must stop the whole stage group
    child_pid = tmp_path / "child.pid"
    stage = (
        f"import os, time, pathlib; pathlib.Path({str(child_pid)!r}).write_text(str(os.getpid())); "
        "time.sleep(60)"
    )
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sys, pathlib
                from benchbook import errors
                from benchbook.cli import Interrupted, stage_runner
                run, _ = stage_runner(pathlib.Path({str(tmp_path)!r}), verbose=True)
                try:
                    with errors.stop_signals_interrupt():
                        run([sys.executable, "-c", {stage!r}])
                except Interrupted as e:
                    print("interrupted", file=sys.stderr)
                    sys.exit(130)
                """
            ),
        ],
        env=_env(tmp_path),
        stderr=subprocess.PIPE,
        text=True,
    )
    grandchild = int(_wait_for(child_pid))
    parent.send_signal(sig)
    _, err = parent.communicate(timeout=30)
    # before: the parent died at once (exit -15 / -1) and the stage went on running, orphaned
    assert parent.returncode == 130 and "interrupted" in err
    end = time.monotonic() + 10
    while _alive(grandchild) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _alive(grandchild)


def test_the_stop_signal_handlers_are_restored_after_the_block():
    from benchbook import errors

    before = signal.getsignal(signal.SIGTERM)
    with errors.stop_signals_interrupt():
        assert signal.getsignal(signal.SIGTERM) is signal.default_int_handler
    assert signal.getsignal(signal.SIGTERM) is before

"""Ctrl-C during `benchbook run` (a new user's finding: a raw KeyboardInterrupt traceback from cli.py's
``for line in proc.stdout``): the running command's process group is stopped, one line says what was
interrupted, that recorded measurements are kept and that the next `make run` resumes; exit 130."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, committed_root

#: ``benchbook run`` whose stage commands are replaced by a shell that records its pid, spawns a
#: grandchild in its process group and waits (a DVC stage running a papermill kernel).
SCRIPT = """
import signal
import sys
from benchbook import cli

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal (a background job ignores it)

real = cli.stage_runner


def fake(root, verbose):
    run, log_path = real(root, verbose)
    stage = ["sh", "-c", "sleep 120 & echo $! > grandchild.pid; echo $$ > child.pid; wait"]
    return (lambda argv, extra_env=None: run(stage, extra_env)), log_path


cli.stage_runner = fake
sys.exit(cli.main(["run", *sys.argv[1:]]))
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by init) counts as stopped
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ")[-1][:1] != "Z"


@pytest.mark.parametrize("verbose", [False, True])
def test_ctrl_c_stops_the_stage_and_exits_130_with_one_line(tmp_path, verbose):
    proj = tmp_path / "proj"
    proj.mkdir()
    shutil.copy(committed_root() / "params.yaml", proj / "params.yaml")
    shutil.copy(ROOT / "dvc.yaml", proj / "dvc.yaml")
    env = {
        **os.environ,
        "BENCHBOOK_ROOT": str(proj),
        "BENCHBOOK_CACHE": str(tmp_path / "cache"),
        "BENCHBOOK_QUIET": "1",
    }
    # --from-data: only the first site's stages (no llama.cpp build beside them in this empty cache)
    args = ["--from-data"] + (["--verbose"] if verbose else [])
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, *args],
        cwd=proj,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a terminal's foreground group: Ctrl-C signals the whole group
    )
    deadline = time.monotonic() + 120
    while not (proj / "grandchild.pid").exists() or not (proj / "child.pid").exists():
        if time.monotonic() > deadline or proc.poll() is not None:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"the stage never started: {proc.communicate()}")
        time.sleep(0.1)
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: benchbook's group (the stage has its own: we stop it)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert err.splitlines()[-1] == (
        "benchbook: interrupted `sh -c sleep 120 & echo $! > grandchild.pid; echo $$ > child.pid; wait`; "
        "measurements recorded so far are kept (each record is written as it finishes); `make run` again "
        "resumes (finished stages and configurations are not redone)"
    )
    for name in ("child.pid", "grandchild.pid"):
        pid = int((proj / name).read_text())
        for _ in range(50):
            if not _alive(pid):
                break
            time.sleep(0.1)
        assert not _alive(pid), f"{name} {pid} still running"


def test_ctrl_c_delivered_to_another_thread_still_stops_the_wait():
    """The kernel hands a process-directed SIGINT to any thread that does not block it (a library's
    native thread); the main thread's blocking ``wait()`` or read is then not interrupted, and Python
    ran the handler only when the stage printed its next line (a new user's Ctrl-C of `make run` took
    106 s).  ``cli.wait_interruptibly`` raises within its poll interval."""
    import threading

    from benchbook import cli

    # Ctrl-C's own handler, whatever an earlier test or the runner left installed
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    child = subprocess.Popen(["sleep", "30"], start_new_session=True)
    other = threading.Thread(target=time.sleep, args=(5,), daemon=True)
    other.start()
    # the signal lands on the other thread, as the kernel may deliver Ctrl-C
    timer = threading.Timer(0.5, signal.pthread_kill, args=(other.ident, signal.SIGINT))
    timer.start()
    t = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            cli.wait_interruptibly(child, poll_s=0.2)
        assert time.monotonic() - t < 3.0
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, before)
        child.kill()
        child.wait()

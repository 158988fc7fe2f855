"""A runner killed outright takes its llama.cpp child with it (llamacpp/lifetime.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

RUNNER = """
import subprocess, sys, time
from benchbook.llamacpp.lifetime import die_with_parent
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"]{preexec})
print(child.pid, flush=True)
time.sleep(120)
"""


def _child_after_runner_killed(preexec: str) -> bool:
    """Start a runner that starts a sleeping child, SIGKILL the runner; is the child alive 3 s later?"""
    src = RUNNER.format(preexec=preexec)
    runner = subprocess.Popen([sys.executable, "-c", src], stdout=subprocess.PIPE, text=True)
    assert runner.stdout is not None
    child_pid = int(runner.stdout.readline())
    os.kill(runner.pid, signal.SIGKILL)
    runner.wait()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            if psutil.Process(child_pid).status() == psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            return False
        time.sleep(0.05)
    os.kill(child_pid, signal.SIGKILL)  # the control's orphan: do not leave it running
    return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG) is Linux's")
def test_child_dies_with_its_killed_runner():
    assert _child_after_runner_killed(", preexec_fn=die_with_parent") is False
    # the control: without it the child outlives the runner (what left llama-bench orphans running)
    assert _child_after_runner_killed("") is True


def test_run_sampled_and_server_start_children_with_it():
    import inspect

    from benchbook.llamacpp import procmon, server

    assert "preexec_fn=die_with_parent" in inspect.getsource(procmon.run_sampled)
    assert "preexec_fn=die_with_parent" in inspect.getsource(server.LlamaServer._launch)


def test_the_child_only_calls_prctl(monkeypatch):
    # between fork and exec the child of a multi-threaded runner (sampler threads, Polars' pool) must not
    # take the dynamic loader's lock another thread may have held at the fork.  Before: die_with_parent
    # opened libc (dlopen) and looked prctl up (dlsym) in the child, at every start
    import ctypes

    from benchbook.llamacpp import lifetime

    def no_loading(*_a, **_k):
        raise AssertionError("a library was loaded in the child")

    monkeypatch.setattr(ctypes, "CDLL", no_loading)
    calls = []
    monkeypatch.setattr(lifetime, "_PRCTL", lambda *a: calls.append(a) or 0)
    lifetime.die_with_parent()
    assert calls == [(lifetime.PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)]

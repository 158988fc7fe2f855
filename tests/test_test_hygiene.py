"""The test suite cleans up after itself: the committed-data copy is made once per process and copies
left by dead processes are removed (a copy per call, never removed, filled the CI host's disk)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import conftest


def test_one_committed_copy_per_process_named_with_its_pid():
    a, b = conftest.committed_root(), conftest.committed_root()
    assert a == b
    if a != conftest.ROOT:  # a git checkout: a copy under the temp folder
        assert a.name.startswith(f"benchbook-committed-{os.getpid()}-")
        assert (a / "params.yaml").is_file()


def test_copies_of_dead_processes_are_removed_and_live_ones_kept():
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    dead_pid = int(dead.stdout)
    tmp = Path(tempfile.gettempdir())
    stale = Path(tempfile.mkdtemp(prefix=f"benchbook-committed-{dead_pid}-", dir=tmp))
    (stale / "data").mkdir()
    live = Path(tempfile.mkdtemp(prefix=f"benchbook-committed-{os.getpid()}-", dir=tmp))
    try:
        removed = conftest._remove_stale_copies()
        assert stale in removed and not stale.exists()
        assert live.exists() and live not in removed
    finally:
        for d in (stale, live):
            if d.exists():
                import shutil

                shutil.rmtree(d)

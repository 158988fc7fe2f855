"""Run a child process while sampling its peak memory (RSS of the process tree, GPU memory).

Used by every runner so that memory is measured the same way everywhere.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field

import psutil

from .lifetime import die_with_parent


@dataclass
class ProcResult:
    """Outcome of ``run_sampled``: exit code, output, wall time (ns) and peaks."""

    returncode: int
    stdout: str
    stderr: str
    wall_ns: int
    peak_rss_bytes: int
    peak_gpu_mem_mib: int | None
    timed_out: bool = False
    samples: int = 0
    argv: list[str] = field(default_factory=list)


def _gpu_used_mib() -> int | None:
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        return sum(int(x) for x in out.stdout.split()) if out.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None


class PeakSampler:
    """Background thread sampling RSS of ``pid`` and its children every ``interval_s`` seconds
    (and total GPU memory used every ``gpu_interval_s`` when ``nvidia-smi`` exists)."""

    def __init__(self, pid: int, interval_s: float = 0.02, gpu_interval_s: float = 0.25):
        self.pid, self.interval_s, self.gpu_interval_s = pid, interval_s, gpu_interval_s
        self.peak_rss_bytes, self.samples = 0, 0
        self.peak_gpu_mem_mib: int | None = None
        self._stop = threading.Event()
        self._gpu = shutil.which("nvidia-smi") is not None
        self._t = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        try:
            proc = psutil.Process(self.pid)
        except psutil.NoSuchProcess:
            return
        next_gpu = 0.0
        while not self._stop.is_set():
            try:
                rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
                self.peak_rss_bytes = max(self.peak_rss_bytes, rss)
                self.samples += 1
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
            if self._gpu and time.monotonic() >= next_gpu:
                g = _gpu_used_mib()
                if g is not None:
                    self.peak_gpu_mem_mib = max(self.peak_gpu_mem_mib or 0, g)
                next_gpu = time.monotonic() + self.gpu_interval_s
            self._stop.wait(self.interval_s)

    def __enter__(self) -> PeakSampler:
        self._t.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._t.join(timeout=5)


def run_sampled(argv: list[str], timeout_s: float, env: dict | None = None) -> ProcResult:
    """Run ``argv`` (no shell), capture stdout/stderr, sample peak memory, kill on timeout.

    A timed-out process is killed (SIGKILL) and reported with ``timed_out=True`` and
    returncode -9; the output captured so far is kept.
    """
    t0 = time.monotonic_ns()
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=die_with_parent,
    )
    timed_out = False
    with PeakSampler(proc.pid) as ps:
        try:
            out, err = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            timed_out = True
        except BaseException:  # Ctrl-C, or any error while waiting: the child does not outlive the call
            proc.kill()
            proc.wait()
            raise
    return ProcResult(
        proc.returncode,
        out,
        err,
        time.monotonic_ns() - t0,
        ps.peak_rss_bytes,
        ps.peak_gpu_mem_mib,
        timed_out,
        ps.samples,
        list(argv),
    )

"""GPU memory through the CUDA driver API (``libcuda.so.1``, via ctypes; no torch, no toolkit).

Two jobs, each run in its own child process so that this process never holds a CUDA context
(a context costs device memory that would then count against llama.cpp):

* **ballast** — hold device memory so that a chosen amount stays free: the way a 140 GiB GPU is
  made to behave like a 12 GiB card.  ``python -m benchbook.llamacpp.cudamem ballast --free-mib N``
  allocates until ``cuMemGetInfo`` reports at most ``N`` MiB (+ one refinement step) free, prints
  one JSON line (``BallastState``), and holds the memory until its stdin closes or it is killed.
* **bandwidth** — device-to-device copy bandwidth, the roofline's ceiling:
  ``python -m benchbook.llamacpp.cudamem bandwidth --mib 1024 --iters 20`` times ``cuMemcpyDtoD``
  loops (after a warm-up copy, one ``cuCtxSynchronize`` at the end) and prints one JSON line.
  Like CUDA's ``bandwidthTest``, a copy of ``n`` bytes counts ``2n`` bytes moved (read + write).

``--fake-total-mib M`` replaces the driver by an in-process fake device of ``M`` MiB (used by the
CPU dry run and the tests; every JSON line then says ``"mode": "fake"``).  Entry points for other
modules: ``Ballast`` (context manager around the child) and ``measure_bandwidth``.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

MIB = 1 << 20


class CudaError(RuntimeError):
    """A CUDA driver call failed, or the driver is absent; the message names the call and the fix."""


class Driver:
    """The few driver-API calls needed, on device ``device`` (its primary context made current)."""

    mode = "cuda"

    def __init__(self, device: int = 0):
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise CudaError(
                f"libcuda.so.1 not loadable ({e}); fix: run on a host with the NVIDIA driver, "
                "or use --fake-total-mib for a dry run"
            ) from None
        self._call("cuInit", ctypes.c_uint(0))
        dev = ctypes.c_int()
        self._call("cuDeviceGet", ctypes.byref(dev), ctypes.c_int(device))
        ctx = ctypes.c_void_p()
        self._call("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), dev)
        self._call("cuCtxSetCurrent", ctx)
        name = ctypes.create_string_buffer(256)
        self._call("cuDeviceGetName", name, ctypes.c_int(256), dev)
        self.name = name.value.decode(errors="replace")

    def _call(self, fn: str, *args) -> None:
        rc = getattr(self.lib, fn)(*args)
        if rc != 0:
            msg = ctypes.c_char_p()
            self.lib.cuGetErrorName(ctypes.c_int(rc), ctypes.byref(msg))
            raise CudaError(f"{fn} failed: CUDA error {rc} ({(msg.value or b'?').decode()})")

    def mem_info(self) -> tuple[int, int]:
        """``(free, total)`` bytes of the device (``cuMemGetInfo_v2``)."""
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        self._call("cuMemGetInfo_v2", ctypes.byref(free), ctypes.byref(total))
        return free.value, total.value

    def alloc(self, nbytes: int) -> int:
        ptr = ctypes.c_uint64()
        self._call("cuMemAlloc_v2", ctypes.byref(ptr), ctypes.c_size_t(nbytes))
        return ptr.value

    def copy(self, dst: int, src: int, nbytes: int) -> None:
        self._call("cuMemcpyDtoD_v2", ctypes.c_uint64(dst), ctypes.c_uint64(src), ctypes.c_size_t(nbytes))

    def sync(self) -> None:
        self._call("cuCtxSynchronize")


class FakeDriver:
    """A pretend device of ``total_mib`` MiB with ``used_mib`` already taken (dry runs, tests)."""

    mode = "fake"

    def __init__(self, total_mib: int, used_mib: int = 0):
        self.total, self.used, self.name = total_mib * MIB, used_mib * MIB, f"fake device ({total_mib} MiB)"

    def mem_info(self) -> tuple[int, int]:
        return self.total - self.used, self.total

    def alloc(self, nbytes: int) -> int:
        if nbytes > self.total - self.used:
            raise CudaError(
                f"cuMemAlloc_v2 failed: CUDA error 2 (CUDA_ERROR_OUT_OF_MEMORY) (fake, {nbytes} B)"
            )
        self.used += nbytes
        return self.used

    def copy(self, dst: int, src: int, nbytes: int) -> None:
        del dst, src  # the pretend device moves nothing; the signature is the real device's
        time.sleep(nbytes / 1e12)  # a 1 TB/s pretend device

    def sync(self) -> None:
        pass


@dataclass
class BallastState:
    """What the ballast achieved: device size, free before/after, bytes held (all MiB), how."""

    mode: str
    device: str
    total_mib: int
    free_before_mib: int
    target_free_mib: int
    held_mib: int
    free_after_mib: int
    allocations: int


def hold_free(drv, target_free_mib: int | None, step_mib: int = 64) -> BallastState:
    """Allocate on ``drv`` until at most ``target_free_mib`` (+ ``step_mib``) MiB stay free; None: hold
    nothing (the device's own free memory is the budget, recorded as ``target_free_mib``).

    One large allocation of ``free - target`` (1 GiB pieces where the driver refuses one that large),
    then ``step_mib`` pieces while free is still above ``target + step_mib`` (the driver's own
    bookkeeping moves free memory by a few MiB).

    Raises:
        CudaError: less than ``target_free_mib`` is free to begin with (fix: a smaller budget).
    """
    free0, total = drv.mem_info()
    target_free_mib = free0 // MIB if target_free_mib is None else target_free_mib
    target = target_free_mib * MIB
    if free0 < target:
        raise CudaError(
            f"only {free0 // MIB} MiB free on {drv.name}, less than the budget {target_free_mib} "
            "MiB; fix: choose a smaller offload.ballast_free_mib or free the device"
        )
    held, n = 0, 0
    if free0 - target > step_mib * MIB:
        try:
            drv.alloc(free0 - target)
            held, n = free0 - target, 1
        except CudaError:  # one allocation that large refused: GiB pieces instead
            while drv.mem_info()[0] > target + 1024 * MIB:
                drv.alloc(1024 * MIB)
                held, n = held + 1024 * MIB, n + 1
    while True:
        free, _ = drv.mem_info()
        if free <= target + step_mib * MIB:
            break
        drv.alloc(step_mib * MIB)
        held, n = held + step_mib * MIB, n + 1
    return BallastState(
        drv.mode,
        drv.name,
        total // MIB,
        free0 // MIB,
        target_free_mib,
        held // MIB,
        drv.mem_info()[0] // MIB,
        n,
    )


def bandwidth(drv, mib: int = 1024, iters: int = 20) -> dict:
    """Device-to-device copy bandwidth: ``{"mode", "device", "copy_bytes", "iters", "seconds",
    "bytes_moved", "gb_per_s"}``; ``bytes_moved = 2 * copy_bytes * iters`` (read + write, as CUDA's
    bandwidthTest counts), ``gb_per_s`` in 1e9 bytes/s.  One warm-up copy precedes the timed loop."""
    n = mib * MIB
    src, dst = drv.alloc(n), drv.alloc(n)
    drv.copy(dst, src, n)
    drv.sync()
    t0 = time.perf_counter()
    for _ in range(iters):
        drv.copy(dst, src, n)
    drv.sync()
    sec = time.perf_counter() - t0
    moved = 2 * n * iters
    return {
        "mode": drv.mode,
        "device": drv.name,
        "copy_bytes": n,
        "iters": iters,
        "seconds": sec,
        "bytes_moved": moved,
        "gb_per_s": moved / sec / 1e9,
    }


def _driver(fake_total_mib: int | None, fake_used_mib: int = 0):
    return FakeDriver(fake_total_mib, fake_used_mib) if fake_total_mib else Driver()


class Ballast:
    """Context manager: a child ``cudamem ballast`` process holding memory while the block runs.

    ``state`` is the child's ``BallastState`` as a dict, or ``{"error": ...}`` when it failed (the
    sweep then records every point with that reason instead of measuring without a budget).
    """

    def __init__(self, free_mib: int | None, fake_total_mib: int | None = None, timeout_s: float = 120):
        self.argv = [sys.executable, "-m", "benchbook.llamacpp.cudamem", "ballast"]
        if free_mib is not None:  # None: hold nothing, the device's free memory is the budget
            self.argv += ["--free-mib", str(free_mib)]
        if fake_total_mib:
            self.argv += ["--fake-total-mib", str(fake_total_mib)]
        self.timeout_s = timeout_s
        self.proc: subprocess.Popen[str] | None = None
        self.state: dict[str, Any] = {}

    def __enter__(self) -> Ballast:
        proc = self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert proc.stdin and proc.stdout and proc.stderr  # all three are pipes
        line = proc.stdout.readline()
        try:
            self.state = json.loads(line)
        except ValueError:
            proc.wait(timeout=self.timeout_s)
            self.state = {"error": f"ballast exited {proc.returncode}: {proc.stderr.read()[-1000:]}"}
        return self

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.stdin and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def measure_bandwidth(
    mib: int = 1024, iters: int = 20, fake_total_mib: int | None = None, timeout_s: float = 120
) -> dict:
    """Run ``cudamem bandwidth`` in a child process; its JSON, or ``{"error": ...}`` when it failed."""
    argv = [
        sys.executable,
        "-m",
        "benchbook.llamacpp.cudamem",
        "bandwidth",
        "--mib",
        str(mib),
        "--iters",
        str(iters),
    ]
    if fake_total_mib:
        argv += ["--fake-total-mib", str(fake_total_mib)]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": f"bandwidth exited {out.returncode}: {out.stderr[-1000:]}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchbook.llamacpp.cudamem")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("ballast", help="hold device memory so that --free-mib stays free, until stdin closes")
    b.add_argument(
        "--free-mib",
        type=int,
        default=None,
        help="MiB left free (default: hold nothing, report what is free)",
    )
    w = sub.add_parser("bandwidth", help="device-to-device copy bandwidth (JSON line)")
    w.add_argument("--mib", type=int, default=1024)
    w.add_argument("--iters", type=int, default=20)
    for p in (b, w):
        p.add_argument("--fake-total-mib", type=int, default=None)
        p.add_argument("--fake-used-mib", type=int, default=0)
    a = ap.parse_args(argv)
    try:
        drv = _driver(a.fake_total_mib, a.fake_used_mib)
        if a.cmd == "bandwidth":
            print(json.dumps(bandwidth(drv, a.mib, a.iters)), flush=True)
            return 0
        print(json.dumps(asdict(hold_free(drv, a.free_mib))), flush=True)
    except CudaError as e:
        print(f"cudamem: error: {e}", file=sys.stderr)
        return 1
    sys.stdin.read()  # hold until the parent closes our stdin (or kills us)
    return 0


if __name__ == "__main__":
    sys.exit(main())

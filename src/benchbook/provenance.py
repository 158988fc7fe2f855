"""Provenance facts attached to every record: host snapshot, load, git state.

* ``host_snapshot()`` — stable host facts (CPU model, cores, RAM, OS, GPU name/driver/VRAM) and a
  ``host_id`` = 16 hex of sha256 over those stable facts only, so the id survives reboots but
  changes with the hardware.  Stored once per host and referenced (the snapshot store below).
* The snapshot store (``store_snapshot`` / ``read_snapshots``): host, toolchain and model snapshots
  are stored once per id under ``data/raw/snapshots/<hosts|toolchains|models>/<host_id>.jsonl``,
  keyed by the host that wrote them, so two machines never append to one file.  Committed data
  from before the host-keyed layout (``data/raw/snapshots/{hosts,toolchains,models}.jsonl``,
  ``data/raw/draftself/hosts.jsonl``) stays where it is and is read alongside.
* ``load_snapshot()`` — volatile facts taken at the start and end of each run: 1/5/15-minute load
  average, CPU frequency governor, current CPU MHz, busiest other processes.
* ``git_state()`` — HEAD commit and a dirty flag for code and params only (data outputs such as
  ``data/raw``, ``reports`` and ``_site`` are excluded, because a measurement stage dirties them).
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil

from .records import append_once, iter_records, stable_hash
from .schemas import build

#: the shared snapshot store, relative to the project root
SNAPSHOT_DIR = Path("data/raw/snapshots")
#: snapshot kind -> (its folder under the store, the field that identifies one snapshot)
SNAPSHOT_KINDS = {
    "host": ("hosts", "host_id"),
    "toolchain": ("toolchains", "toolchain_id"),
    "model": ("models", "key"),
}

DATA_OUTPUTS = ("data/raw", "reports", "_site", "notebooks/out", "dvc.lock", "_variables.yml")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def gpu_info() -> list[dict]:
    """NVIDIA GPUs via ``nvidia-smi`` (name, driver, memory_total_mib); [] when none or no driver."""
    if not shutil.which("nvidia-smi"):
        return []
    try:
        out = subprocess.run(
            [
                "nvidia-smi",
                "--query-gpu=name,driver_version,memory.total,clocks.max.sm",
                "--format=csv,noheader,nounits",
            ],
            capture_output=True,
            text=True,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    gpus = []
    for line in out.stdout.strip().splitlines() if out.returncode == 0 else []:
        parts = [p.strip() for p in line.split(",")]
        if len(parts) >= 3:
            gpus.append(
                {
                    "name": parts[0],
                    "driver": parts[1],
                    "memory_total_mib": int(float(parts[2])),
                    "clock_max_sm_mhz": parts[3] if len(parts) > 3 else None,
                }
            )
    return gpus


@dataclass(frozen=True)
class HostSnapshot:
    """Stable facts of a host (``benchbook.host``): ``host_id`` is 16 hex of them (RAM rounded to GiB);
    ``gpus``: name, driver, memory_total_mib, clock_max_sm_mhz per NVIDIA GPU ([] when none)."""

    host_id: str
    hostname: str
    cpu_model: str
    cpu_logical: int
    cpu_physical: int
    ram_bytes: int
    os: str
    machine: str
    gpus: list[dict] = field(default_factory=list)

    def record(self) -> dict:
        """The ``benchbook.host`` record of this snapshot (built by ``schemas.build``)."""
        return build("host", **asdict(self))


def host_snapshot() -> HostSnapshot:
    """This host's stable facts and ``host_id`` (``HostSnapshot``)."""
    vm = psutil.virtual_memory()
    facts = {
        "hostname": platform.node(),
        "cpu_model": _cpu_model(),
        "cpu_logical": psutil.cpu_count(logical=True),
        "cpu_physical": psutil.cpu_count(logical=False),
        "ram_bytes": vm.total,
        "os": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "gpus": gpu_info(),
    }
    # RAM is rounded to GiB so that kernel reservations moving by a few MiB don't change the id.
    ident = {**facts, "ram_bytes": round(vm.total / 2**30)}
    return HostSnapshot(host_id=stable_hash(ident), **facts)


def _governor() -> str | None:
    p = Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    try:
        return p.read_text().strip()
    except OSError:
        return None


def load_snapshot(exclude_pids: set[int] | None = None, top: int = 3) -> dict:
    """Load facts now: ``loadavg`` [1, 5, 15 min], ``governor`` (None where unreadable),
    ``cpu_mhz``, and the ``top`` busiest other processes by CPU percent since the previous call
    (psutil measures CPU percent between calls, so the first call of a process lists none; the
    snapshot at a run's end covers the run)."""
    exclude = (exclude_pids or set()) | {os.getpid()}
    procs = []
    for p in psutil.process_iter(["pid", "name", "cpu_percent"]):
        if p.info["pid"] in exclude or not p.info["cpu_percent"]:
            continue
        procs.append({"pid": p.info["pid"], "name": p.info["name"], "cpu_percent": p.info["cpu_percent"]})
    procs.sort(key=lambda d: -d["cpu_percent"])
    freq = psutil.cpu_freq()
    return {
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "governor": _governor(),
        "cpu_mhz": round(freq.current) if freq else None,
        "top_processes": procs[:top],
    }


def git_state(root: str | Path) -> dict:
    """``{"git_commit": sha or None, "git_dirty": bool}``; dirty counts code and params only."""
    root = Path(root)
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True)
        if head.returncode != 0:
            return {"git_commit": None, "git_dirty": None}
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True, text=True
        ).stdout
    except OSError:
        return {"git_commit": None, "git_dirty": None}
    dirty = []
    for line in status.splitlines():
        path = re.sub(r"^.. ", "", line).split(" -> ")[-1].strip('"')
        if not any(path == d or path.startswith(d.rstrip("/") + "/") for d in DATA_OUTPUTS):
            dirty.append(path)
    return {"git_commit": head.stdout.strip(), "git_dirty": bool(dirty), "git_dirty_paths": dirty[:20]}


def uncommitted_raw(root: str | Path, raw: str = "data/raw") -> list[str]:
    """The raw record files (``*.jsonl`` under ``raw``, relative to ``root``) that git does not hold as
    they are: new (untracked) or changed since the last commit, sorted; [] outside a git checkout.  What
    a site built from ``raw`` shows beyond the committed data (this clone's own sessions)."""
    try:
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all", "--", raw],
            cwd=root,
            capture_output=True,
            text=True,
        )
    except OSError:
        return []
    if status.returncode != 0:
        return []
    paths = (re.sub(r"^.. ", "", line).split(" -> ")[-1].strip('"') for line in status.stdout.splitlines())
    return sorted(p for p in paths if p.endswith(".jsonl"))


def snapshot_file(snapshots_dir: str | Path, kind: str, host_id: str) -> Path:
    """``<snapshots_dir>/<hosts|toolchains|models>/<host_id>.jsonl``: where host ``host_id`` stores its
    snapshots of ``kind`` (host | toolchain | model)."""
    return Path(snapshots_dir) / SNAPSHOT_KINDS[kind][0] / f"{host_id}.jsonl"


def store_snapshot(snapshots_dir: str | Path, kind: str, rec: dict, host_id: str) -> bool:
    """Append snapshot ``rec`` (a built ``benchbook.<kind>`` record) to this host's file of the store unless
    a snapshot with the same id is already stored (in any host's file or the committed flat file);
    returns True when it appended."""
    key = SNAPSHOT_KINDS[kind][1]
    if rec[key] in read_snapshots(snapshots_dir, kind):
        return False
    return append_once(snapshot_file(snapshots_dir, kind, host_id), rec, key)


def snapshot_files(snapshots_dir: str | Path, kind: str, legacy: tuple[str | Path, ...] = ()) -> list[Path]:
    """The files holding snapshots of ``kind``: the committed flat file of the old layout
    (``<snapshots_dir>/<folder>.jsonl``), any ``legacy`` files given, then every host's file."""
    folder = SNAPSHOT_KINDS[kind][0]
    d = Path(snapshots_dir)
    flat = [p for p in (d / f"{folder}.jsonl", *map(Path, legacy)) if p.exists()]
    return flat + sorted((d / folder).glob("*.jsonl")) if (d / folder).is_dir() else flat


def read_snapshots(
    snapshots_dir: str | Path, kind: str, legacy: tuple[str | Path, ...] = ()
) -> dict[str, dict]:
    """``{id: snapshot}`` of every stored snapshot of ``kind`` (host | toolchain | model), old and
    host-keyed layouts together (``snapshot_files``); the first copy of an id wins.  Each snapshot
    carries ``_file`` and ``_line``.

    Raises:
        records.RecordError: a line is not a record, or of an unknown kind or newer version (file:line).
    """
    key = SNAPSHOT_KINDS[kind][1]
    schema = f"benchbook.{kind}"
    out: dict[str, dict] = {}
    for f in snapshot_files(snapshots_dir, kind, legacy):
        for line, rec in iter_records(f):
            if rec.get("schema") == schema and rec.get(key) not in out:
                out[rec[key]] = {**rec, "_file": str(f), "_line": line}
    return out

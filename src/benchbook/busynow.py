"""Is the host busy now, at the start of a measurement session?  One stderr line says so up front.

The test is the ``busy_host`` caveat's (``caveats``) for records that carry the per-process figure:
busy when another process used more than ``busy_other_cpu_pct`` CPU, or the 1-minute load average is
above ``busy_load_hard_per_core`` × cores.  Its thresholds are repeated in ``THRESHOLDS`` because the
measurement side may not import the report engine; ``tests/test_busynow.py`` checks they equal
``caveats.DEFAULTS``.  ``start_notice`` is the line printed when a session opens on a busy host;
``resume_notice`` the line printed when a resumed session's earlier runs ran under the other regime
(busy then, quiet now, or the reverse), so the user can start a new session instead of mixing both.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import psutil

#: the ``busy_host`` thresholds of ``caveats.DEFAULTS`` (same keys, same values; a test keeps them equal)
THRESHOLDS = {"busy_other_cpu_pct": 50.0, "busy_load_hard_per_core": 2.0}
#: seconds between the two process snapshots whose difference gives each process's CPU percent
SAMPLE_S = 0.25
#: how a user starts a new session instead of resuming (the option, and its form under ``dvc repro``)
FRESH = "--fresh-session (BENCHBOOK_FRESH_SESSION=1 under dvc repro)"


@dataclass(frozen=True)
class Load:
    """The host's load at one moment: ``load1`` (1-minute load average), ``cores`` (logical cores),
    ``other`` and ``other_cpu_pct`` (the busiest process not ours and its CPU percent over the sample;
    None and 0.0 when none used any), ``other_pid`` and ``other_cmd`` (its pid and command line,
    shortened to ``CMD_CHARS``; None when unknown), so the user can tell which process it is."""

    load1: float
    cores: int
    other: str | None
    other_cpu_pct: float
    other_pid: int | None = None
    other_cmd: str | None = None

    @property
    def busy(self) -> bool:
        """The ``busy_host`` rule: another process above ``busy_other_cpu_pct`` % CPU, or a load average
        above ``busy_load_hard_per_core`` × ``cores``."""
        return is_busy(self.load1, self.other_cpu_pct, self.cores)


def is_busy(load1: float | None, other_cpu_pct: float | None, cores: int) -> bool:
    """``busy_host`` (``caveats``) from a load average and the busiest other process's CPU percent;
    a figure that is None counts as not busy."""
    hard = load1 is not None and load1 > THRESHOLDS["busy_load_hard_per_core"] * cores
    return hard or (other_cpu_pct is not None and other_cpu_pct > THRESHOLDS["busy_other_cpu_pct"])


def now(sample_s: float = SAMPLE_S) -> Load:
    """The load now: the 1-minute load average and the busiest other process's CPU percent over
    ``sample_s`` seconds (psutil percent between two passes over the process table)."""
    own = os.getpid()
    procs = {p.pid: p for p in psutil.process_iter(["name"]) if p.pid != own}
    for p in procs.values():
        try:
            p.cpu_percent(None)
        except psutil.Error:
            pass
    time.sleep(sample_s)
    top, top_pct, top_proc = None, 0.0, None
    for p in procs.values():
        try:
            pct = p.cpu_percent(None)
        except psutil.Error:
            continue
        if pct > top_pct:
            top, top_pct, top_proc = p.info["name"], pct, p
    cmd = None
    if top_proc is not None:
        try:
            cmd = command_text(top_proc.cmdline()) or None
        except psutil.Error:
            cmd = None
    pid = top_proc.pid if top_proc is not None else None
    return Load(round(os.getloadavg()[0], 2), os.cpu_count() or 1, top, top_pct, pid, cmd)


#: the longest command line ``start_notice`` prints (the rest as "…")
CMD_CHARS = 80


def command_text(argv: list[str]) -> str:
    """A process's command line as one line: arguments joined by spaces (an argument's own line breaks and
    runs of spaces as one space: a `python -c` script of many lines cut the notice's advice off the
    line), cut at ``CMD_CHARS`` with "…"."""
    text = " ".join(" ".join(a.split()) for a in argv)
    return text if len(text) <= CMD_CHARS else text[: CMD_CHARS - 1] + "…"


def start_notice(experiment: str, load: Load) -> str | None:
    """The line for a session of ``experiment`` opening under ``load``: None on a quiet host."""
    if not load.busy:
        return None
    who = load.other
    if load.other_pid is not None:
        who = f"pid {load.other_pid} `{load.other_cmd or load.other}`"
    other = f"; busiest other process {who} at {load.other_cpu_pct:.0f}% CPU" if load.other else ""
    return (
        f"benchbook: {experiment}: this host is busy "
        f"(1-min load {load.load1:.2f} on {load.cores} cores{other}): runs will be slow and their "
        "numbers flagged busy_host. Wait for a quiet host, or Ctrl-C and run "
        f"again later (the session resumes where it stopped); {FRESH} starts a new session."
    )


def record_busy(rec: dict, cores: int) -> bool | None:
    """Was the run of raw record ``rec`` busy by ``is_busy``, from its ``load_start``/``load_end``
    snapshots (``provenance.load_snapshot``: ``loadavg`` and ``top_processes``)?  None when it has none."""
    snaps = [s for s in (rec.get("load_start"), rec.get("load_end")) if isinstance(s, dict)]
    loads = [s["loadavg"][0] for s in snaps if s.get("loadavg")]
    if not loads:
        return None
    procs = (rec.get("load_end") or {}).get("top_processes") or []
    others = max((p.get("cpu_percent") or 0.0 for p in procs), default=0.0)
    return is_busy(max(loads), others, cores)


def resume_notice(experiment: str, session_id: str, earlier: list[bool], busy_now: bool) -> str | None:
    """The line for resuming session ``session_id`` whose completed runs were busy or not (``earlier``,
    ``record_busy``) while the host is ``busy_now``: None when every earlier run ran under the regime
    of now (or there is none)."""
    other = [b for b in earlier if b != busy_now]
    if not other:
        return None
    then, here = ("busy", "quiet") if not busy_now else ("quiet", "busy")
    return (
        f"benchbook: {experiment}: resuming session {session_id}: {len(other)} of its {len(earlier)} "
        f"completed runs ran on a {then} host, the host is {here} now, so the session will mix both "
        f"load regimes; Ctrl-C and run again with {FRESH} to start a new session instead."
    )

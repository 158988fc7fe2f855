"""``benchbook hosts``: every host of the committed raw data, with its builds and sessions.

Read from the raw records only: host snapshots (``provenance.read_snapshots``, both layouts), the
toolchain snapshots the sessions name, and the shared session records (``benchbook.session`` start/end)
of every ``data/raw/<experiment>/*.jsonl``, plus draft-self's committed sessions of the old layout
(``sessions.jsonl``, complete by construction).  A session with a start record and no end record is
listed as incomplete (killed, or still running when committed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .escape import code_span, markdown_text, minute_text
from .provenance import read_snapshots
from .records import read_records
from .schemas import RecordError

#: files under ``data/raw/<experiment>/`` that hold no shared session records
_NOT_SESSION_FILES = ("steps.jsonl", "hosts.jsonl", "runs.jsonl", "sessions.jsonl")


@dataclass(frozen=True)
class SessionInfo:
    """One measurement session: ``started``/``ended`` UTC ISO times (``ended`` None: incomplete)."""

    experiment: str
    session_id: str
    host_id: str
    toolchain_id: str | None
    started: str
    ended: str | None
    runtime: str | None = None  # sessions without a llama.cpp build (draft-self's old layout): torch version


@dataclass(frozen=True)
class HostInfo:
    """A host: its snapshot (``None`` when only sessions name it) and its sessions, oldest first."""

    host_id: str
    snapshot: dict | None
    sessions: list[SessionInfo]


def _session_records(files: list[Path]) -> list[dict]:
    """The ``benchbook.session`` records of ``files`` (other kinds are skipped unread: an experiment may
    declare its own record kinds in its package).

    Raises:
        RecordError: a session line that is not JSON (file:line, and ``records repair`` for a torn one).
    """
    out = []
    for f in files:
        with open(f, encoding="utf-8", newline="\n") as fh:  # lines as the other readers split them
            for i, line in enumerate(fh, 1):
                if '"benchbook.session"' in line:
                    try:
                        rec = json.loads(line)
                    except ValueError as e:
                        raise RecordError(
                            f"{f}:{i}: not valid JSON ({e}); fix: if it is a torn last line (a run killed "
                            f"while writing), `benchbook records repair {f}` moves it aside; otherwise "
                            "restore the file from git"
                        ) from None
                    if rec.get("schema") == "benchbook.session":
                        out.append(rec)
    return out


def sessions(raw_dir: str | Path) -> list[SessionInfo]:
    """Every session under ``raw_dir`` (``data/raw``), ordered by experiment, then start time."""
    raw = Path(raw_dir)
    out: list[SessionInfo] = []
    for exp_dir in sorted(p for p in raw.iterdir() if p.is_dir() and p.name != "snapshots"):
        files = [
            f
            for f in sorted(exp_dir.glob("*.jsonl"))
            if f.name not in _NOT_SESSION_FILES and not f.name.endswith((".steps.jsonl", ".quarantine.jsonl"))
        ]
        starts: dict[str, dict] = {}
        ends: dict[str, str] = {}
        for r in _session_records(files):
            if r["event"] == "start":
                starts.setdefault(r["session_id"], r)
            elif r["event"] == "end":
                ends[r["session_id"]] = r["at"]
        for sid, s in starts.items():
            out.append(
                SessionInfo(
                    s["experiment"],
                    sid,
                    s.get("host_id") or "?",
                    s.get("toolchain_id"),
                    s["at"],
                    ends.get(sid),
                    s.get("runtime"),  # draft-self: its build is the runtime (torch, Python, device)
                )
            )
        legacy = exp_dir / "sessions.jsonl"
        if legacy.exists():
            for r in read_records([legacy], f"benchbook.{exp_dir.name}.session"):
                out.append(
                    SessionInfo(
                        r["experiment"],
                        r["session_id"],
                        r["host_id"],
                        None,
                        r["started_at"],
                        r["ended_at"],
                        f"torch {r['torch_version']}" if r.get("torch_version") else None,
                    )
                )
    return sorted(out, key=lambda s: (s.experiment, s.started))


def inventory(raw_dir: str | Path) -> list[HostInfo]:
    """Every host that has a snapshot or a session under ``raw_dir``, ordered by host id."""
    raw = Path(raw_dir)
    snaps = read_snapshots(raw / "snapshots", "host", legacy=(raw / "draftself" / "hosts.jsonl",))
    all_sessions = sessions(raw)
    ids = sorted(set(snaps) | {s.host_id for s in all_sessions})
    return [HostInfo(h, snaps.get(h), [s for s in all_sessions if s.host_id == h]) for h in ids]


def _hardware(snap: dict | None) -> str:
    if snap is None:
        return "no host snapshot"
    gpus = "; ".join(f"{g['name']} {g['memory_total_mib'] / 1024:.0f} GiB" for g in snap.get("gpus") or [])
    return (
        f"CPU {snap.get('cpu_model')} ({snap.get('cpu_logical')} threads), "
        f"RAM {snap.get('ram_bytes', 0) / 2**30:.1f} GiB, GPU {gpus or 'none'}, {snap.get('os')}"
    )


def _build(toolchain_id: str | None, toolchains: dict[str, dict], runtime: str | None = None) -> str:
    if toolchain_id is None:
        return runtime or "-"
    tc = toolchains.get(toolchain_id)
    if tc is None:
        return runtime or f"{toolchain_id[:8]} (no snapshot)"
    label = tc.get("source", {}).get("label") if isinstance(tc.get("source"), dict) else None
    return f"b{tc.get('build_number')} {tc.get('backend')}{' ' + label if label else ''} ({toolchain_id[:8]})"


def _minute(iso: str | None) -> str:
    return iso[:16].replace("T", " ") if iso else "-"


def hosts_table(raw_dir: str | Path) -> str:
    """Plain-text listing: per host a line of hardware, its builds, and a table of its sessions
    (experiment, session id prefix, build, start and end in UTC to the minute, complete or not)."""
    raw = Path(raw_dir)
    toolchains = read_snapshots(raw / "snapshots", "toolchain")
    lines: list[str] = []
    for host in inventory(raw):
        builds = sorted(
            {
                _build(s.toolchain_id, toolchains, s.runtime)
                for s in host.sessions
                if s.toolchain_id or s.runtime
            }
        )
        lines.append(f"host {host.host_id}: {_hardware(host.snapshot)}")
        lines.append(f"  builds: {', '.join(builds) if builds else '-'}")
        rows = [("experiment", "session", "build", "started (UTC)", "ended (UTC)", "complete")]
        for s in host.sessions:
            rows.append(
                (
                    s.experiment,
                    s.session_id[:8],
                    _build(s.toolchain_id, toolchains, s.runtime),
                    _minute(s.started),
                    _minute(s.ended),
                    "yes" if s.ended else "no",
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        for r in rows:
            lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        lines.append("")
    return "\n".join(lines)


def hosts_panel(raw_dir: str | Path, experiment: str, headline_session: str | None) -> str:
    """Markdown for an experiment page: every host with a session of ``experiment`` under ``raw_dir``
    (``data/raw``) in its own column, the host of ``headline_session`` (the page's numbers) first:
    its machine, builds, newest complete session (id prefix, end time UTC) and sessions complete of
    started.  Empty string when no host has a session of ``experiment``.  Every text from a snapshot or
    a session record (CPU, GPU, OS, build label, runtime, ids) goes through ``escape.markdown_text`` or
    ``escape.code_span``: snapshots travel between hosts through git, so none of it may become HTML, a
    shortcode or math on the page."""
    raw = Path(raw_dir)
    toolchains = read_snapshots(raw / "snapshots", "toolchain")
    cols = [h for h in inventory(raw) if any(s.experiment == experiment for s in h.sessions)]
    if not cols:
        return ""
    own = {h.host_id: [s for s in h.sessions if s.experiment == experiment] for h in cols}
    cols.sort(key=lambda h: (not any(s.session_id == headline_session for s in own[h.host_id]), h.host_id))

    def newest(h: HostInfo) -> str:
        done = [s for s in own[h.host_id] if s.ended]
        if not done:
            return "none complete"
        s = max(done, key=lambda s: s.ended or "")
        mark = " (this page's numbers)" if s.session_id == headline_session else " (not quoted on this page)"
        return f"{code_span(s.session_id[:8])}, ended {minute_text(s.ended)} UTC{mark}"

    def builds(h: HostInfo) -> str:
        names = sorted(
            {
                _build(s.toolchain_id, toolchains, s.runtime)
                for s in own[h.host_id]
                if s.toolchain_id or s.runtime
            }
        )
        return markdown_text(", ".join(names) or "-")

    def count(h: HostInfo) -> str:
        return f"{sum(1 for s in own[h.host_id] if s.ended)} of {len(own[h.host_id])}"

    rows = [
        ("machine", lambda h: markdown_text(_hardware(h.snapshot))),
        ("builds", builds),
        ("newest complete session", newest),
        ("sessions complete", count),
    ]
    lines = ["| | " + " | ".join(code_span(h.host_id) for h in cols) + " |", "|---|" + "---|" * len(cols)]
    lines += [f"| {label} | " + " | ".join(cell(h) for h in cols) + " |" for label, cell in rows]
    return "\n".join(lines) + "\n"

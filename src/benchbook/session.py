"""Measurement sessions: one invocation of a measurement stage, resumable after a kill.

A session is bracketed by ``benchbook.session`` records (``event: start`` / ``event: end``) in the
experiment's raw file.  ``Session.open`` repairs a torn last line (quarantined, see
``records.repair``), then:

* if the newest session of that experiment in the file has a start but no end, it was interrupted:
  the new invocation *resumes* it (same ``session_id``) and ``done(run_key)`` tells which runs already
  have a completed record, so they are not measured twice — but only when its ``meta`` (config,
  toolchain, host) hashes the same (``meta_hash``); after a change of config or build a new session
  starts, so runs of different conditions are never pooled into one session;
* otherwise a new session starts; a completed session is never reused.

One writer per raw file: ``Session.open`` takes an exclusive lock (``SessionLock``: ``flock`` on
``<raw file>.lock``, which holds the holder's pid) for the session's lifetime, before it repairs or
reads the file; a second writer (another ``benchbook run``, an orphaned stage, a second ``python -m
benchbook.experiments``) is refused with ``SessionBusy`` naming the pid that holds it.  The kernel drops
the lock when its holder exits, killed or not, so a stale lock file never blocks.

``$BENCHBOOK_FRESH_SESSION=1`` (``python -m benchbook.experiments NAME --fresh-session``) never resumes:
an open session is left as it is (the new start record names it ``abandoned_session_id``; no report
reads a session without an end record as complete) — for a session interrupted under conditions its
records should not be pooled with (e.g. a busy host).

``run_key`` = hash of config + model + toolchain + host (DESIGN.md, "Records").
"""

from __future__ import annotations

import fcntl
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import busynow
from .records import RecordWriter, iter_records, new_id, publish_logs, repair, stable_hash, utc_now
from .schemas import build

#: set to 1: ``Session.open`` starts a new session even where the open one could be resumed
FRESH_ENV = "BENCHBOOK_FRESH_SESSION"
#: values of ``FRESH_ENV`` that leave resuming on (any other value starts a new session)
_OFF = ("", "0", "false", "no", "off")


@dataclass
class SessionResult:
    """What one measurement session did (every experiment's ``measure`` returns one, or a subclass with
    the experiment's own extras).

    ``ran``/``skipped``/``failed``: runs measured now, found completed in the resumed session, failed
    (recorded as ``benchbook.run_failed``); ``failures``: one dict per failed run (config, prompt,
    repetition, kind); ``quarantined``: the torn line moved aside when the session opened (the
    ``benchbook.quarantine`` record), else None; ``raw_file``: where the session's records went;
    ``cfg``: the merged parameters it ran."""

    session_id: str
    experiment: str
    resumed: bool
    ran: int
    skipped: int
    failed: int = 0
    failures: list[dict] = field(default_factory=list)
    quarantined: dict | None = None
    raw_file: Path | None = None
    cfg: dict = field(default_factory=dict)


@dataclass(frozen=True)
class NewestSession:
    """The newest session of an experiment in a raw file: its ``start`` record, whether it has an end
    record (``ended``), and its completed runs (``completed``: run_key -> the record, ``completes``)."""

    start: dict
    ended: bool
    completed: dict[str, dict]

    @property
    def session_id(self) -> str:
        return str(self.start["session_id"])

    @property
    def done(self) -> int:
        """How many of its runs have a completed record."""
        return len(self.completed)


def newest_session(path: str | Path, experiment: str) -> NewestSession | None:
    """The newest session of ``experiment`` in ``path`` (the last start record with a new session id),
    or None (no file, no session); the file is only read, never repaired.  ``Session.open`` resumes it
    when it has no end and its meta hashes the same.

    Raises:
        records.RecordError: a line is not a record (file:line; ``benchbook records repair`` fixes a
            torn last line)."""
    path = Path(path)
    last: dict | None = None
    completed: dict[str, dict] = {}
    ended = False
    if not path.exists():
        return None
    for _, rec in iter_records(path):
        if rec.get("schema") == "benchbook.session" and rec.get("experiment") == experiment:
            if rec["event"] == "start" and (last is None or rec["session_id"] != last["session_id"]):
                last, completed, ended = rec, {}, False
            elif rec["event"] == "end" and last is not None and rec["session_id"] == last["session_id"]:
                ended = True
        elif last is not None and rec.get("session_id") == last["session_id"] and completes(rec):
            completed[rec["run_key"]] = rec
    return NewestSession(last, ended, completed) if last is not None else None


def open_session(path: str | Path, experiment: str) -> NewestSession | None:
    """The interrupted session of ``experiment`` in ``path`` (``newest_session`` without an end record),
    the one ``Session.open`` would consider resuming; else None.

    Raises:
        records.RecordError: as ``newest_session``."""
    newest = newest_session(path, experiment)
    return newest if newest is not None and not newest.ended else None


class SessionBusy(RuntimeError):
    """Another process writes a session to the same raw file now (its pid in the message)."""


class SessionLock:
    """An exclusive, non-blocking lock on ``raw``'s sessions: ``flock`` on ``<raw>.lock`` (next to the
    raw file, ignored by git), which holds the holder's pid as text.  Held until ``release`` or the
    holder's exit.

    Raises:
        SessionBusy: another process holds it (``held by pid N``, read from the lock file).
    """

    def __init__(self, raw: Path):
        self.path = raw.with_name(raw.name + ".lock")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise SessionBusy(
                f"{raw}: another benchbook process (pid {holder}) is writing a session to this file now; "
                "fix: wait for it to finish, or stop it (`kill "
                f"{holder}`: it stops its measurement and keeps what it recorded), then run again"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd: int | None = fd

    def release(self) -> None:
        """Drop the lock (idempotent); the lock file stays (an empty lock file blocks nothing)."""
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def run_key(config: dict, model_sha256: str | None, toolchain_id: str | None, host_id: str) -> str:
    """16-hex key identifying a run within a session (config + model + toolchain + host)."""
    return stable_hash({"config": config, "model": model_sha256, "toolchain": toolchain_id, "host": host_id})


def completes(rec: dict) -> bool:
    """A record completes its run when it has a run_key, status ok, and is not a partial row."""
    return bool(rec.get("run_key")) and rec.get("status", "ok") == "ok" and rec.get("run_complete", True)


class Session:
    """An open measurement session writing to ``path``; use as a context manager."""

    def __init__(
        self,
        path: Path,
        experiment: str,
        session_id: str,
        resumed: bool,
        done_keys: set[str],
        quarantined: dict | None,
        lock: SessionLock | None = None,
    ):
        self.path, self.experiment, self.session_id = path, experiment, session_id
        self.resumed, self._done, self.quarantined = resumed, done_keys, quarantined
        self.lock = lock
        self.writer = RecordWriter(path)
        #: the session an interrupted, non-resumable run left open (set by ``open``)
        self.abandoned: str | None = None
        #: why this session is not complete (``mark_incomplete``); non-empty: ``close`` writes no end
        self.incomplete: list[str] = []

    @classmethod
    def open(cls, path: str | Path, experiment: str, meta: dict | None = None) -> Session:
        """Open (resume or start) a session of ``experiment`` in ``path``; ``meta`` goes in the start
        record.  Prints one stderr line when the host is busy now (``busynow.start_notice``) and one
        when a resumed session's earlier runs ran under the other load regime (``busynow.resume_notice``).

        Raises:
            SessionBusy: another process holds the file's ``SessionLock`` (its pid in the message).
        """
        path = Path(path)
        lock = SessionLock(path)  # before repair: a live writer's last line is not torn
        try:
            return cls._open_locked(path, experiment, meta, lock)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def _open_locked(cls, path: Path, experiment: str, meta: dict | None, lock: SessionLock) -> Session:
        quarantined = repair(path)
        meta_hash = stable_hash(meta or {})
        newest = newest_session(path, experiment)
        if newest is not None:  # its runs a signal or kill -9 stopped before their logs were published
            publish_logs(path, newest.session_id)
        last_sid = newest.session_id if newest else None
        last_hash = newest.start.get("meta_hash") if newest else None
        ended = newest.ended if newest else False
        done: set[str] = set(newest.completed) if newest else set()
        cores = os.cpu_count() or 1
        # run_key -> was its run busy (busynow.record_busy)
        busy_then = {
            k: busynow.record_busy(r, cores) for k, r in (newest.completed if newest else {}).items()
        }
        fresh = os.environ.get(FRESH_ENV, "").strip().lower() not in _OFF
        resumed = last_sid is not None and not ended and last_hash == meta_hash and not fresh
        sid = last_sid if resumed and last_sid is not None else new_id()
        s = cls(path, experiment, sid, resumed, done if resumed else set(), quarantined, lock)
        s.abandoned = last_sid if (last_sid is not None and not ended and not resumed) else None
        load = busynow.now()
        earlier = [b for b in busy_then.values() if b is not None] if resumed else []
        for line in (
            busynow.start_notice(experiment, load),
            busynow.resume_notice(experiment, sid, earlier, load.busy),
        ):
            if line:
                print(line, file=sys.stderr, flush=True)
        s.writer.append(
            build(
                "session_start",
                session_id=sid,
                experiment=experiment,
                resumed=resumed,
                abandoned_session_id=s.abandoned,
                meta_hash=meta_hash,
                at=utc_now(),
                **(meta or {}),
            )
        )
        return s

    def done(self, key: str) -> bool:
        """True when this session already holds a completed record with ``run_key == key``."""
        return key in self._done

    def append(self, rec: dict) -> int:
        """Append a record of this session; returns its line number."""
        rec.setdefault("session_id", self.session_id)
        line = self.writer.append(rec)
        if completes(rec):
            self._done.add(rec["run_key"])
        return line

    def mark_incomplete(self, reason: str) -> None:
        """Record that a measurement of this session is missing or short (a failed run the experiment
        needs, rows lost although the tool exited 0): the session then never gets its end record, so
        no report reads it as complete, and the next invocation with the same meta resumes it and
        measures what is missing."""
        self.incomplete.append(reason)

    def close(self, completed: bool = True) -> None:
        """Write the end record (only when ``completed`` and nothing marked the session incomplete)
        and close the file; then release the session's lock."""
        try:
            if completed and not self.incomplete:
                self.writer.append(
                    build("session_end", session_id=self.session_id, experiment=self.experiment, at=utc_now())
                )
            self.writer.close()
        finally:
            if self.lock is not None:
                self.lock.release()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, exc_type, *_) -> None:
        self.close(completed=exc_type is None)


def completed_sessions(path: str | Path, experiment: str) -> list[str]:
    """Session ids of ``experiment`` in ``path`` that have an end record ([] when the file is absent)."""
    path = Path(path)
    if not path.exists():
        return []
    return [
        rec["session_id"]
        for _, rec in iter_records(path)
        if rec.get("schema") == "benchbook.session"
        and rec.get("experiment") == experiment
        and rec.get("event") == "end"
    ]

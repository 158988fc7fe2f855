"""The measurement harness every experiment's ``measure`` runs its plan through (``contract``).

``run_plan`` opens (or resumes) the session with ``Session.open``, reports a quarantined torn line,
walks the plan in order, skips each run whose key the session already holds completed, measures the
others with the experiment's ``measure_run``, counts and logs a failed run (the experiment's
``measure_run`` has recorded it as ``benchbook.run_failed``; a run the session needs marks it
incomplete, so it gets no end record and the next invocation resumes it), draws one progress step per
run, and returns the ``SessionResult``.  ``store_host`` is the host snapshot for experiments that need
no llama.cpp build (``resolve.store_snapshots`` stores the host, toolchain and models for those that do).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from benchbook.llamacpp.progress import SessionProgress
from benchbook.provenance import HostSnapshot, host_snapshot, store_snapshot
from benchbook.session import Session, SessionResult

from .contract import PlannedRun


@dataclass(frozen=True)
class Outcome:
    """What ``measure_run`` did with one run: ``ok`` (its records are in the session), else ``error``
    (one line for the log) and ``required`` (True: the session is not complete without this run, so it
    is marked incomplete; False: a failure the experiment publishes as such, e.g. an offload point
    that does not fit in memory)."""

    ok: bool
    error: str = ""
    required: bool = True


OK = Outcome(True)

#: an experiment's own ``PlannedRun`` subclass
Run = TypeVar("Run", bound=PlannedRun)


def run_plan(
    *,
    experiment: str,
    raw_file: Path,
    meta: dict,
    runs: Sequence[Run],
    measure_run: Callable[[Session, Run], Outcome],
    cfg: dict,
    log=print,
) -> SessionResult:
    """One session of ``experiment`` in ``raw_file`` (module doc): ``meta`` goes into the start record
    (its hash decides whether an interrupted session is resumed), ``runs`` is the experiment's
    ``plan``, ``measure_run(sess, run)`` measures one run and appends its records to ``sess``.

    Returns the ``SessionResult`` (``failures``: ``{"run", "error"}`` per failed run; ``cfg``: ``cfg``).
    An exception from ``measure_run`` ends the session without its end record (an interrupted session:
    the next invocation with the same meta resumes it).
    """
    ran = skipped = 0
    failures: list[dict] = []
    with Session.open(raw_file, experiment, meta) as sess, SessionProgress(experiment, len(runs)) as bar:
        if sess.quarantined:
            log(f"quarantined a torn line: {sess.quarantined['file']}:{sess.quarantined['line']}")
        if sess.resumed:
            log(f"resuming session {sess.session_id}")
        for run in runs:
            if sess.done(run.key):
                skipped += 1
                log(f"skip (done in this session): {run.label}")
                bar.step(f"{run.label} (done before)")
                continue
            outcome = measure_run(sess, run)
            if outcome.ok:
                ran += 1
            else:
                failures.append({"run": run.label, "error": outcome.error})
                if outcome.required:
                    sess.mark_incomplete(f"{run.label}: {outcome.error}")
                log(f"FAILED {run.label}: {outcome.error}")
            bar.step(run.label)
        return SessionResult(
            session_id=sess.session_id,
            experiment=experiment,
            resumed=sess.resumed,
            ran=ran,
            skipped=skipped,
            failed=len(failures),
            failures=failures,
            quarantined=sess.quarantined,
            raw_file=Path(raw_file),
            cfg=cfg,
        )


def store_host(snapshots_dir: Path) -> HostSnapshot:
    """This host's snapshot, stored once in the shared store ``snapshots_dir`` (normally
    ``data/raw/snapshots``, ``provenance.store_snapshot``); returns it."""
    host = host_snapshot()
    store_snapshot(snapshots_dir, "host", host.record(), host.host_id)
    return host

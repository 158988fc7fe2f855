"""The measurement harness every experiment's ``measure`` runs its plan through (``contract``).

``run_plan`` opens (or resumes) the session with ``Session.open``, reports a quarantined torn line and a
resumed session, calls the experiment's ``on_open`` (records that name the session before any run),
then walks the plan in its order — the order is part of the measurement design (configurations
interleaved within a session, DESIGN.md "Records"), so the harness never reorders it:

* **groups**: consecutive runs with the same ``group(run)`` key (not None) share one setup, e.g. one
  llama-server per (repetition, configuration), one memory ballast for a whole sweep, one prompt
  encoded once.  The runs of a group the session already holds completed are skipped first; when any
  run is left, ``open_group(sess, runs)`` (a context manager: start the server, hold the memory) is
  entered once for those runs and yields the function that measures one of them, and it is left after
  the last (stop the server) — also when a run raises.  A group with nothing left is never opened (no
  server starts).  A run whose key is None is measured by ``measure_run`` alone.
* **skip**: a run whose key the session holds completed is not measured again (one log line each).
* **warm-up**: a run whose ``warmup`` is True (``contract.PlannedRun.warmup``) is measured every time,
  resumed or not (its key is never done), counted neither as ran nor as skipped, and writes nothing:
  ``HarnessError`` when the session's raw file grew during it.
* **failures**: a measure function records a failed run itself (``benchbook.run_failed``, the fields
  only it knows) and returns ``Outcome(False, error, required)``; the harness counts and lists it,
  logs one ``FAILED`` line, and a run the session needs (``required``) marks it incomplete, so it gets
  no end record and the next invocation resumes it.
* **progress**: one step per planned run (``SessionProgress``), done-before and warm-up runs included.
* **an empty plan** (no run, or warm-ups only) is refused before the session opens: its session would
  hold no run yet end, and ``cli.measured_here`` would take it for this host's measurement.

It returns the ``SessionResult``; an exception from a measure function or a group ends the session
without its end record (an interrupted session: the next invocation with the same meta resumes it).
``store_host`` is the host snapshot for experiments that need no llama.cpp build
(``resolve.store_snapshots`` stores the host, toolchain and models for those that do).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from benchbook.llamacpp.progress import SessionProgress
from benchbook.provenance import HostSnapshot, host_snapshot, store_snapshot
from benchbook.session import Session, SessionResult

from .contract import ModelBenchRun, PlannedRun


class HarnessError(RuntimeError):
    """An experiment broke the harness's contract (an empty plan, a warm-up run that wrote a record, a
    run without a measure function); the message names the run or the plan and the fix."""


@dataclass(frozen=True)
class Outcome:
    """What a measure function did with one run: ``ok`` (its records are in the session), else ``error``
    (one line for the log and ``SessionResult.failures``) and ``required`` (True: the session is not
    complete without this run, so it is marked incomplete; False: a failure the experiment publishes as
    such and does not measure again, e.g. an offload point that does not fit in memory, a request whose
    server did not start)."""

    ok: bool
    error: str = ""
    required: bool = True


OK = Outcome(True)

#: an experiment's own ``PlannedRun`` subclass
Run = TypeVar("Run", bound=PlannedRun)
#: measures one run of the session and appends its records (``Outcome``: what happened)
Measure = Callable[[Session, Run], Outcome]


@dataclass(frozen=True)
class Groups(Generic[Run]):
    """How a plan's runs share a setup: ``key(run)`` (consecutive runs with equal keys form one group;
    None: the run has no group) and ``open(sess, runs)``, a context manager entered once per group that
    has runs to measure (``runs``: those, in plan order) and yielding the ``Measure`` for them."""

    key: Callable[[Run], Hashable | None]
    open: Callable[[Session, list[Run]], AbstractContextManager[Measure]]


def run_plan(
    *,
    experiment: str,
    raw_file: Path,
    meta: dict,
    runs: Sequence[Run],
    measure_run: Measure | None = None,
    groups: Groups | None = None,
    on_open: Callable[[Session], None] | None = None,
    cfg: dict,
    log=print,
) -> SessionResult:
    """One session of ``experiment`` in ``raw_file`` (module doc): ``meta`` goes into the start record
    (its hash decides whether an interrupted session is resumed), ``runs`` is the experiment's ``plan``,
    ``measure_run(sess, run)`` measures a run outside any group (``groups``) and appends its records to
    ``sess``; ``on_open(sess)`` runs once the session is open, before the first run.

    Returns the ``SessionResult`` (``ran``/``skipped``: runs measured now / done before, warm-ups in
    neither; ``failures``: ``{"run", "error"}`` per failed run; ``cfg``: ``cfg``).

    Raises:
        HarnessError: the plan has no run to record (none, or warm-ups only: its session would end at
            once and count as a measurement of this host), before anything is written; a warm-up run
            wrote a record, or a run has no measure function (no ``groups`` key and no ``measure_run``).
    """
    if all(run.warmup for run in runs):
        raise HarnessError(
            f"{experiment}: the plan holds no run to record ({len(runs)} planned, none but warm-ups), so its "
            "session would end at once and count as done; fix: give the params that size the plan "
            "(repetitions, the lists of models, sizes or configurations) at least one run; nothing was "
            f"written to {raw_file}"
        )
    ran = skipped = 0
    failures: list[dict] = []
    with Session.open(raw_file, experiment, meta) as sess, SessionProgress(experiment, len(runs)) as bar:
        if sess.quarantined:
            log(f"quarantined a torn line: {sess.quarantined['file']}:{sess.quarantined['line']}")
        if sess.resumed:
            planned = [run for run in runs if not run.warmup]
            done = sum(sess.done(run.key) for run in planned)
            log(f"resuming session {sess.session_id} ({done} of {len(planned)} done)")
        if on_open is not None:
            on_open(sess)
        for key, members in _groups(runs, groups.key if groups is not None else None):
            todo = []
            for run in members:
                if not run.warmup and sess.done(run.key):
                    skipped += 1
                    log(f"skip (done in this session): {run.label}")
                    bar.step(f"{run.label} (done before)")
                else:
                    todo.append(run)
            if not todo:
                continue
            setup: AbstractContextManager[Measure]
            if key is not None and groups is not None:
                setup = groups.open(sess, todo)
            elif measure_run is not None:
                setup = nullcontext(measure_run)
            else:
                raise HarnessError(
                    f"{experiment}: run {todo[0].label} has no group and run_plan got no measure_run; "
                    "fix: pass measure_run or give the run a group key"
                )
            with setup as measure:
                for run in todo:
                    outcome = _measure(sess, measure, run, Path(raw_file))
                    bar.step(run.label)
                    if run.warmup:
                        continue
                    if outcome.ok:
                        ran += 1
                        continue
                    failures.append({"run": run.label, "error": outcome.error})
                    if outcome.required:
                        sess.mark_incomplete(f"{run.label}: {outcome.error}")
                    log(f"FAILED {run.label}: {outcome.error}")
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


def _groups(runs: Sequence[Run], key: Callable[[Run], Hashable | None] | None) -> Iterator[tuple]:
    """``(group key, runs)`` in plan order: consecutive runs with the same key (not None) together, a
    run whose key is None (or every run, without ``key``) alone."""
    batch: list[Run] = []
    current: Hashable | None = None
    for run in runs:
        k = key(run) if key is not None else None
        if batch and (k is None or k != current):
            yield current, batch
            batch = []
        batch.append(run)
        current = k
    if batch:
        yield current, batch


def _measure(sess: Session, measure: Measure, run: PlannedRun, raw_file: Path) -> Outcome:
    """``measure(sess, run)``; for a warm-up run, checks that ``raw_file`` did not grow (module doc)."""
    if not run.warmup:
        return measure(sess, run)
    size = raw_file.stat().st_size
    outcome = measure(sess, run)
    if raw_file.stat().st_size != size:
        raise HarnessError(
            f"warm-up run {run.label} wrote to {raw_file}; fix: return before appending when run.warmup"
        )
    return outcome


def store_host(snapshots_dir: Path) -> HostSnapshot:
    """This host's snapshot, stored once in the shared store ``snapshots_dir`` (normally
    ``data/raw/snapshots``, ``provenance.store_snapshot``); returns it."""
    host = host_snapshot()
    store_snapshot(snapshots_dir, "host", host.record(), host.host_id)
    return host


def run_model_bench(
    sess: Session, run: ModelBenchRun, *, bench_bin: Path, timeout_s: float, base: dict, log=print
) -> Outcome:
    """Measure one ``ModelBenchRun``: llama-bench as planned, each row of its output one
    ``benchbook.llama_bench`` record (``base`` + run_id, run_key, config, argv, role, model_id,
    model_sha256, started_at/ended_at (UTC), peak_rss_bytes, peak_gpu_mem_mib;
    ``llamacpp.bench.append_result``), a failed invocation a ``benchbook.run_failed`` record and an
    ``Outcome`` the session publishes as a failure and does not measure again (``required`` False).
    ``timeout_s``: the invocation's limit (s)."""
    from benchbook.llamacpp.bench import append_result
    from benchbook.llamacpp.procmon import run_sampled
    from benchbook.records import new_id, utc_now

    m = run.model
    argv = [str(bench_bin), "-m", m["path"], *run.argv_tail]
    log(run.label)
    started = utc_now()
    res = run_sampled(argv, timeout_s)
    rec = {**base, "run_id": new_id(), "run_key": run.key, "config": run.config, "argv": argv}
    rec |= {"role": run.role, "model_id": m["model_id"], "model_sha256": m["sha256"]}
    rec |= {"started_at": started, "ended_at": utc_now()}
    rec |= {"peak_rss_bytes": res.peak_rss_bytes, "peak_gpu_mem_mib": res.peak_gpu_mem_mib}
    if append_result(sess, rec, res, f"llama-bench {m['model_id']}"):
        return OK
    return Outcome(False, f"exit {res.returncode}", required=False)

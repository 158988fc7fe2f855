"""One llama-server per group of requests (``harness.run_plan``'s ``open_group``), shared by the
experiments that measure through the server's HTTP API one request at a time (``spec_depth``,
``tool_gap``).

A *visit* is one (repetition, configuration) of a plan: a fresh server, something built once on it
(``prepare``: the context's token ids, a templated prompt), the server's speculative counters before
the next request (``llamacpp.specstats.spec_stats`` of its log), then one request per planned run.  A
server that does not start, or an error of ``VISIT_ERRORS`` while preparing or during a request, ends
the visit: that request and every later one it owes become ``benchbook.run_failed`` records (the
server's log tail, its argv, ``required`` False: published as failed, not measured again), and the
session goes on with the next visit.  The server is stopped after the last request, also when one
raises an error outside ``VISIT_ERRORS`` (that one ends the session: the next invocation resumes it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchbook.llamacpp.server import LlamaServer, ServerError
from benchbook.llamacpp.specstats import spec_stats
from benchbook.records import new_id, utc_now
from benchbook.schemas import build

from .harness import Measure, Outcome

#: errors that end a server's visit (the server's own, a context too short, a response without a key)
VISIT_ERRORS = (ServerError, ValueError, KeyError)


@dataclass
class ServerVisit:
    """The server of one visit: ``srv``, the ``argv`` it was started with, what ``prepare`` built on it
    (``prepared``; None until built), its log's speculative counters before the next request
    (``before``) and ``broken``: the error that ended the visit (every request it still owes is
    recorded as failed with it)."""

    srv: LlamaServer
    argv: list[str]
    prepared: Any = None
    before: dict | None = None
    broken: Exception | None = None


#: measures one request of a visit: ``(sess, run, visit) -> Outcome``; raises an error of
#: ``VISIT_ERRORS`` when the server fails it
Request = Callable[[Any, Any, ServerVisit], Outcome]


@contextmanager
def visit(
    sess,
    runs: list,
    *,
    server_bin: Path,
    log_dir: Path,
    health_timeout_s: float,
    prepare: Callable[[LlamaServer], Any],
    request: Request,
    base: dict,
    stage: str,
) -> Iterator[Measure]:
    """Start a fresh llama-server for the visit of ``runs`` (one repetition and configuration: the
    first run's ``model`` path and ``argv_tail``; its log ``<log_dir>/<session[:8]>-<config_id>-r<rep>.log``),
    ``prepare`` on it, and yield the function that measures one planned run (``request``, or its
    ``run_failed`` record once the visit is broken: ``failed``); the server is stopped on leaving, also
    when a request raises.  ``base``: the fields every record of the session carries; ``stage``: the
    experiment named in a failure."""
    first = runs[0]
    argv = [str(server_bin), "-m", str(first.model["path"]), *first.argv_tail]
    srv = LlamaServer(
        argv,
        Path(log_dir) / f"{sess.session_id[:8]}-{first.config_id}-r{first.rep}.log",
        health_timeout_s=health_timeout_s,
    )
    v = ServerVisit(srv, argv)
    try:
        try:
            srv.start()
            v.prepared = prepare(srv)
            # this process's lines only: a resumed session appends a new server's log to the file,
            # and its counters start again from 0 (stats_delta refuses counters that go down)
            v.before = spec_stats(srv.log_text())
        except VISIT_ERRORS as e:
            v.broken = e
        yield lambda sess, run: measure_or_fail(sess, run, v, request, base=base, stage=stage)
    finally:
        srv.stop()


def measure_or_fail(sess, run, v: ServerVisit, request: Request, *, base: dict, stage: str) -> Outcome:
    """``request(sess, run, v)`` while the visit is whole; when it is broken, or breaks now (an error of
    ``VISIT_ERRORS``), a ``benchbook.run_failed`` record for ``run`` (``run.key``, ``run.config``; the
    error's ``kind`` and ``returncode`` where it has them, the server's log tail and argv) and
    ``Outcome(False, "<kind>: <error>", required=False)``."""
    if v.broken is None:
        try:
            return request(sess, run, v)
        except VISIT_ERRORS as e:
            v.broken = e
    err = v.broken
    kind = getattr(err, "kind", type(err).__name__)
    sess.append(
        build(
            "run_failed",
            **base,
            run_id=new_id(),
            run_key=run.key,
            status="failed",
            stage=stage,
            kind=kind,
            error=str(err),
            returncode=getattr(err, "returncode", None),
            log_tail=v.srv.log_tail(),
            started_at=utc_now(),
            ended_at=utc_now(),
            argv=v.argv,
            config=run.config,
        )
    )
    return Outcome(False, f"{kind}: {err}", required=False)

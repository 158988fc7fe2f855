"""Template measurement: sha256 throughput of an in-memory buffer, one run per (size, repetition).

``measure`` runs ``plan.plan`` through the shared harness (``harness.run_plan``: resumable, a completed
run is not measured again); every run appends one ``benchbook.template`` record (``size_bytes``,
``wall_ns``, ``rep``) to ``raw_dir/template/<host_id>.jsonl``; the host snapshot goes to
``raw_dir/snapshots/``.
"""

from __future__ import annotations

import hashlib
import platform
import ssl
import time
from collections.abc import Iterator
from pathlib import Path

from benchbook import blocks
from benchbook.provenance import git_state
from benchbook.records import new_id, stable_hash, utc_now
from benchbook.schemas import build
from benchbook.session import Session, SessionResult

from ..harness import OK, Outcome, run_plan, store_host
from . import EXPERIMENT, SCHEMA  # noqa: F401  (SCHEMA: the notebook reads records of this kind)
from .plan import HashRun, TemplateParams, plan


def runtime() -> tuple[str, str]:
    """``(toolchain_id, runtime)``: what does the hashing here (Python's hashlib over OpenSSL) is this
    experiment's build; 16 hex over the versions, and the same in words."""
    facts = {"python": platform.python_version(), "openssl": ssl.OPENSSL_VERSION}
    return stable_hash(facts), f"Python {facts['python']}, {facts['openssl']}"


def hash_once(size_bytes: int) -> int:
    """Wall time in ns of one sha256 over ``size_bytes`` zero bytes."""
    buf = bytes(size_bytes)
    t0 = time.perf_counter_ns()
    hashlib.sha256(buf).digest()
    return time.perf_counter_ns() - t0


def measure(
    params: dict, *, root: Path, raw_dir: Path, overrides: dict | None = None, log=print
) -> SessionResult:
    """The stage ``template``: every size of ``params["template"]["sizes_kib"]`` (+ ``overrides``; the
    defaults of ``TemplateParams`` where both leave a key out) is hashed ``repetitions`` times, sizes
    interleaved per repetition (``plan.plan``).  Returns the session's ``SessionResult``.

    Raises:
        errors.ParamsError: the section does not fit ``TemplateParams`` (names the key and the fix).
    """
    root = Path(root)
    cfg = TemplateParams.from_params(params, overrides)
    host = store_host(root / raw_dir / "snapshots")
    raw_file = root / raw_dir / EXPERIMENT / f"{host.host_id}.jsonl"
    git = git_state(root)
    tc_id, rt = runtime()

    def measure_run(sess: Session, run: HashRun) -> Outcome:
        started = utc_now()
        wall_ns = hash_once(run.size_bytes)
        sess.append(
            build(
                EXPERIMENT,
                run_id=new_id(),
                run_key=run.key,
                session_id=sess.session_id,
                experiment=EXPERIMENT,
                config=run.config,
                **run.config,
                wall_ns=wall_ns,
                host_id=host.host_id,
                toolchain_id=tc_id,
                runtime=rt,
                started_at=started,
                ended_at=utc_now(),
                **{k: git[k] for k in ("git_commit", "git_dirty")},
            )
        )
        return OK

    out = run_plan(
        experiment=EXPERIMENT,
        raw_file=raw_file,
        meta={"host_id": host.host_id, "config": cfg.config()},
        runs=plan(cfg, tc_id, host.host_id),
        measure_run=measure_run,
        cfg=cfg.config(),
        log=log,
    )
    log(f"{EXPERIMENT}: {out.ran} runs, {out.skipped} skipped -> {raw_file}")
    return out


def sections(result: SessionResult) -> Iterator[blocks.Block]:
    """What the measurement notebook shows (``notebooks/measure.ipynb -p experiment template``, through
    ``blocks.show``): the session's summary, then the checks (``AssertionError`` on a failed one): every
    (size, repetition) recorded, each with a positive wall time."""
    from benchbook.records import read_records

    yield blocks.Value(result)
    raw_file = result.raw_file
    assert raw_file is not None, "the session names no raw file"
    recs = [r for r in read_records([raw_file], SCHEMA) if r["session_id"] == result.session_id]
    assert len(recs) == len(result.cfg["sizes_kib"]) * result.cfg["repetitions"], len(recs)
    assert all(r["wall_ns"] > 0 for r in recs)
    yield blocks.Text(f"ok: {len(recs)} runs")

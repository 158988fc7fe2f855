"""Template measurement: sha256 throughput of an in-memory buffer, one run per (size, repetition).

Every run appends one ``benchbook.template`` record (``size_bytes``, ``wall_ns``, ``rep``) through the
shared session (resumable: a completed run is not measured again), to ``raw_dir/template/<host_id>.jsonl``.
"""

from __future__ import annotations

import hashlib
import platform
import ssl
import time
from collections.abc import Iterator
from pathlib import Path

from benchbook import blocks
from benchbook.provenance import git_state, host_snapshot
from benchbook.records import new_id, stable_hash, utc_now
from benchbook.schemas import build
from benchbook.session import Session, SessionResult, run_key

from . import EXPERIMENT, SCHEMA

#: Parameters used when ``params.yaml`` has no ``template`` section.
DEFAULTS = {"sizes_kib": [64, 1024], "repetitions": 3}


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
    """The stage ``template``: every size of ``params["template"]["sizes_kib"]`` (+ ``overrides``) is
    hashed ``repetitions`` times, sizes interleaved per repetition.  Returns the session's
    ``SessionResult``."""
    root = Path(root)
    cfg = {**DEFAULTS, **((params or {}).get(EXPERIMENT) or {}), **(overrides or {})}
    host = host_snapshot()
    raw_file = root / raw_dir / EXPERIMENT / f"{host.host_id}.jsonl"
    git = git_state(root)
    tc_id, rt = runtime()
    ran = skipped = 0
    with Session.open(raw_file, EXPERIMENT, {"host_id": host.host_id, "config": cfg}) as sess:
        for rep in range(int(cfg["repetitions"])):
            for kib in cfg["sizes_kib"]:
                conf = {"size_bytes": int(kib) * 1024, "rep": rep}
                key = run_key(conf, "none", tc_id, host.host_id)
                if sess.done(key):
                    skipped += 1
                    continue
                started = utc_now()
                wall_ns = hash_once(conf["size_bytes"])
                sess.append(
                    build(
                        EXPERIMENT,
                        run_id=new_id(),
                        run_key=key,
                        session_id=sess.session_id,
                        experiment=EXPERIMENT,
                        config=conf,
                        **conf,
                        wall_ns=wall_ns,
                        host_id=host.host_id,
                        toolchain_id=tc_id,
                        runtime=rt,
                        started_at=started,
                        ended_at=utc_now(),
                        **{k: git[k] for k in ("git_commit", "git_dirty")},
                    )
                )
                ran += 1
        out = SessionResult(
            session_id=sess.session_id,
            experiment=EXPERIMENT,
            resumed=sess.resumed,
            ran=ran,
            skipped=skipped,
            quarantined=sess.quarantined,
            raw_file=raw_file,
            cfg=cfg,
        )
    log(f"{EXPERIMENT}: {ran} runs, {skipped} skipped -> {raw_file}")
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

"""llama-bench process wrapper: argv, page-cache eviction for cold runs, JSONL parsing, recording
one invocation's outcome in a session.

One llama-bench invocation per (model, phase).  Warm runs use llama-bench's own warmup and
``-r repetitions``; the optional cold run comes first for each model, after evicting the model
file from the page cache (``posix_fadvise(POSIX_FADV_DONTNEED)``, residency checked with
``fincore`` before and after), with ``--no-warmup -r 1`` so its single sample is really the first
touch.  Every output row of ``llama-bench -o jsonl`` (fields as in llama.cpp
``tools/llama-bench/llama-bench.cpp``: n_prompt, n_gen, n_depth, avg_ns, avg_ts, samples_ns,
samples_ts...) is kept verbatim under ``llama_bench`` in a ``benchbook.llama_bench`` record.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from ..measured import expected_rows
from ..records import jsonl_lines
from ..schemas import NATIVE, build
from ..session import Session
from .procmon import ProcResult

SCHEMA = "benchbook.llama_bench"
REQUIRED_FIELDS = ("n_prompt", "n_gen", "avg_ns", "avg_ts", "samples_ns", "build_number", "model_filename")


class LlamaBenchError(RuntimeError):
    """llama-bench output cannot be parsed; the message names the line and what is wrong."""


def parse_jsonl(text: str, source: str = "<stdout>") -> list[dict]:
    """Parse ``llama-bench -o jsonl`` output into rows (one dict per test).

    Raises:
        LlamaBenchError: a line is not JSON, or a row lacks one of REQUIRED_FIELDS, or
            ``samples_ns`` is empty (names ``source:line``).
    """
    rows = []
    for i, line in enumerate(jsonl_lines(text), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as e:
            raise LlamaBenchError(f"{source}:{i}: not JSON ({e}): {line[:120]!r}") from None
        missing = [f for f in REQUIRED_FIELDS if f not in row]
        if missing:
            raise LlamaBenchError(
                f"{source}:{i}: llama-bench row lacks {missing}; is this `-o jsonl` output?"
            )
        if not row["samples_ns"]:
            raise LlamaBenchError(f"{source}:{i}: samples_ns is empty")
        rows.append(row)
    return rows


def build_argv(binary: str | Path, model_path: str | Path, cfg: dict, phase: str) -> list[str]:
    """argv for one invocation. ``phase`` is ``warm`` (``-r cfg.repetitions``) or ``cold``
    (``--no-warmup -r 1``).  Both the pp test (``-p n_prompt``) and the tg test (``-n n_gen``) run."""
    argv = [
        str(binary),
        "-m",
        str(model_path),
        "-p",
        str(cfg["n_prompt"]),
        "-n",
        str(cfg["n_gen"]),
        "-d",
        str(cfg.get("n_depth", 0)),
        "-t",
        str(cfg["threads"]),
        "-ngl",
        str(cfg["n_gpu_layers"]),
        "-fa",
        str(cfg["flash_attn"]),
        "-o",
        "jsonl",
    ]
    if phase == "cold":
        argv += ["-r", "1", "--no-warmup"]
    elif phase == "warm":
        argv += ["-r", str(cfg["repetitions"])]
    else:
        raise ValueError(f"phase must be 'warm' or 'cold', got {phase!r}")
    return argv


def resident_pct(path: str | Path) -> float | None:
    """Percent of ``path``'s pages in the page cache, from util-linux ``fincore`` (None if unavailable)."""
    if not shutil.which("fincore"):
        return None
    out = subprocess.run(
        ["fincore", "--bytes", "--noheadings", "--output", "RES,SIZE", str(path)],
        capture_output=True,
        text=True,
    )
    m = re.match(r"\s*(\d+)\s+(\d+)", out.stdout)
    if out.returncode != 0 or not m or int(m.group(2)) == 0:
        return None
    return round(100.0 * int(m.group(1)) / int(m.group(2)), 2)


def mapped_by(path: str | Path) -> list[int]:
    """PIDs of the processes (other than this one) that map ``path`` (from ``/proc/<pid>/maps``).

    The page cache keeps a file's pages while a process maps them, so ``posix_fadvise(DONTNEED)``
    cannot evict a model that another llama.cpp process has loaded; this names them.  Processes whose
    maps are unreadable are skipped; empty where ``/proc`` is absent."""
    target, pids = str(Path(path).resolve()), []
    for maps in Path("/proc").glob("[0-9]*/maps"):
        pid = int(maps.parent.name)
        if pid == os.getpid():
            continue
        try:
            if target in maps.read_text(errors="replace"):
                pids.append(pid)
        except OSError:
            continue
    return sorted(pids)


def evict_from_page_cache(path: str | Path) -> dict:
    """Drop ``path`` from the page cache with ``posix_fadvise(DONTNEED)`` (no root needed for clean
    pages; the file is fsynced first so that dirty pages can go too).

    Returns ``{"method", "resident_before_pct", "resident_after_pct", "evicted", "mapped_by_pids"}``;
    ``evicted`` is True only when residency after is below 5% (checked, not assumed);
    ``mapped_by_pids`` (``mapped_by``) names the processes whose mappings kept pages resident."""
    before = resident_pct(path)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)  # dirty pages (a freshly written/quantized file) are not dropped until written back
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    after = resident_pct(path)
    return {
        "method": "posix_fadvise_dontneed",
        "resident_before_pct": before,
        "resident_after_pct": after,
        "evicted": after is not None and after < 5.0,
        "mapped_by_pids": mapped_by(path),
    }


def append_result(sess: Session, base: dict, res: ProcResult, label: str) -> bool:
    """Append one llama-bench invocation's outcome to ``sess``; True when it succeeded.

    Success: one ``benchbook.llama_bench`` record (the one llama-bench row kind, every experiment's:
    ``base`` holds what tells its use apart, e.g. ``role`` or offload's point) per output row, built by
    ``schemas.build`` (``origin`` "native" unless ``base`` says), the row verbatim under
    ``llama_bench``.  All rows share ``base["run_id"]`` and only the last has ``run_complete``, so a
    kill between rows leaves a short group (fewer than ``rows_total``) that readers drop.  Failure
    (non-zero exit, timeout, or unparseable output): one ``benchbook.run_failed`` record with the
    error, exit code and stderr tail.

    Lost rows: when llama-bench exits 0 but prints fewer rows than its argv asks for
    (``expected_rows(base["argv"])``), the rows it printed are kept verbatim with ``rows_total`` = the
    expected count and no ``run_complete`` (a short group: readers drop it, a resumed session measures
    it again), a ``benchbook.run_failed`` record names the loss, the session is marked incomplete
    (``Session.mark_incomplete``: it gets no end record) and the result is False.

    Raises:
        schemas.SchemaError: a record does not match its declaration (names the field and the fix).
    """
    fields = {**base, "session_id": sess.session_id}
    rows_fields = {"origin": NATIVE, **fields}
    try:
        if res.returncode != 0:
            raise LlamaBenchError(f"exit {res.returncode}{' (timeout)' if res.timed_out else ''}")
        rows = parse_jsonl(res.stdout, label)
    except LlamaBenchError as e:
        sess.append(
            build(
                "run_failed",
                **fields,
                status="failed",
                error=str(e),
                returncode=res.returncode,
                stderr_tail=res.stderr[-4000:],
            )
        )
        return False
    expected = expected_rows(list(base.get("argv") or []))
    lost = expected is not None and len(rows) < expected
    total = expected if lost and expected is not None else len(rows)
    for j, row in enumerate(rows):
        sess.append(
            build(
                "llama_bench",
                **rows_fields,
                row_index=j,
                rows_total=total,
                run_complete=not lost and j == len(rows) - 1,
                status="ok",
                llama_bench=row,
            )
        )
    if lost:
        error = (
            f"{label}: llama-bench exited 0 but printed {len(rows)} of the {expected} rows its argv asks for"
        )
        sess.append(
            build(
                "run_failed",
                **fields,
                status="failed",
                error=error,
                returncode=res.returncode,
                stderr_tail=res.stderr[-4000:],
            )
        )
        sess.mark_incomplete(error)
        return False
    return True

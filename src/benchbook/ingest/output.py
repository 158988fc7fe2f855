"""Where ingested records go: ``data/external/<group>/`` by default, never under ``data/raw`` (the
project's own measurements, read by its reports)."""

from __future__ import annotations

from pathlib import Path

from ..records import RecordWriter, iter_records
from .common import IngestError, nonfinite

#: where ``benchbook ingest`` writes by default (relative to the project root): one folder per group
EXTERNAL_DIR = Path("data/external")


def default_out(root: str | Path, records: list[dict], host: str | None = None) -> Path:
    """Where ``benchbook ingest`` writes ``records`` of one source file by default:
    ``<root>/data/external/<group>/<source name>.jsonl``, the group being ``host`` or the file's
    sha256[:16] (the value after ``unknown:`` in its ids).

    Raises:
        IngestError: ``host`` is not one plain folder name (``../x``, ``a/b``, ``.``): the records would
            land outside ``data/external``."""
    r = records[0]
    if host is not None and (host in ("", ".", "..") or Path(host).name != host or "\\" in host):
        raise IngestError(
            f"--host {host!r} is not a folder name under {EXTERNAL_DIR}/ (records would be written "
            f"outside it); fix: name the host with letters, digits, '-', '_' or '.', e.g. --host my-laptop"
        )
    group = host or r["source_sha256"][:16]
    return Path(root) / EXTERNAL_DIR / group / (Path(r["source_file"]).name + ".jsonl")


def write_records(records: list[dict], out: str | Path) -> int:
    """Append ``records`` to the JSONL file ``out`` (fsync per record); returns how many.

    Every record is checked first: nothing is written when one holds a NaN/inf (which JSON cannot
    carry), or when ``out`` lies under a ``data/raw`` folder (ingested records live apart from our own
    measurements, which the reports read).

    Raises:
        IngestError: names the record's source file:line and the field, or the folder; ``out`` is untouched.
    """
    parts = Path(out).resolve().parts
    if any(parts[i : i + 2] == ("data", "raw") for i in range(len(parts) - 1)):
        raise IngestError(
            f"{out}: ingested records never go under data/raw (the project's own measurements, read "
            f"by its reports); fix: write under {EXTERNAL_DIR}/ (the default) or elsewhere"
        )
    for r in records:
        bad = nonfinite(r)
        if bad:
            raise IngestError(
                f"{r.get('source_file', '?')}:{r.get('source_line', '?')}: field {bad[0]!r} is NaN or "
                f"inf, which cannot be recorded; nothing was written to {out}; fix: correct or drop "
                "that input line"
            )
    with RecordWriter(out, public=False) as w:  # another person's records, quoted as their file has them
        for r in records:
            w.append(r)
    return len(records)


def record_key(rec: dict) -> str:
    """What identifies an ingested record: its ``run_id`` (a hash of the source's sha256 and line, and
    the key of a line giving several records), else the source's sha256 and line."""
    return rec.get("run_id") or f"{rec.get('source_sha256')}:{rec.get('source_line')}:{rec.get('schema')}"


def not_yet_in(records: list[dict], out: str | Path) -> tuple[list[dict], int]:
    """``(records not already in out, how many were)``: ingesting one file twice (or passing it twice)
    appends nothing twice, since an ingested record's ``run_id`` is a hash of its source's sha256 and
    line (``record_key``).

    Raises:
        RecordError: ``out`` holds a line that is not a record (file:line and the fix).
    """
    seen = {record_key(r) for _, r in iter_records(out)} if Path(out).exists() else set()
    fresh = []
    for r in records:
        k = record_key(r)
        if k not in seen:
            seen.add(k)
            fresh.append(r)
    return fresh, len(records) - len(fresh)

"""Where ingested records go: ``data/external/<group>/`` by default, never under ``data/raw`` (the
project's own measurements, read by its reports)."""

from __future__ import annotations

from pathlib import Path

from ..records import RecordWriter
from .common import IngestError, nonfinite

#: where ``benchbook ingest`` writes by default (relative to the project root): one folder per group
EXTERNAL_DIR = Path("data/external")


def default_out(root: str | Path, records: list[dict], host: str | None = None) -> Path:
    """Where ``benchbook ingest`` writes ``records`` of one source file by default:
    ``<root>/data/external/<group>/<source name>.jsonl``, the group being ``host`` or the file's
    sha256[:16] (the value after ``unknown:`` in its ids)."""
    r = records[0]
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
    with RecordWriter(out) as w:
        for r in records:
            w.append(r)
    return len(records)

"""What every ingest reader shares: the error, the source fields of an ingested record, building a
checked record, and the typed row a reader hands to the record builders.

Every ingested record points to its source: ``source_file``, ``source_line`` (1-based),
``source_format``, ``source_sha256``, ``source_text`` (the raw line, up to ``SOURCE_TEXT_MAX``
characters), ``uninterpreted`` (every field of the source this code did not interpret: name -> raw
value, also kept in the record where the kind is open), ``ingest_notes`` (what ingest did to the
values: cells filled from the row above, a test spelling read, a fork's build counter set aside) and
``inconsistent`` (derived values of the line that disagree with its own inputs: flagged, kept).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..records import stable_hash
from ..schemas import SchemaError, build, unknown

LB_SCHEMA = "benchbook.llama_bench"
SERVER_SCHEMA = "benchbook.speculative_request"
SPEC_SCHEMA = "benchbook.ingest.speculative_simple"
#: longest raw line kept in ``source_text``
SOURCE_TEXT_MAX = 2000


class IngestError(ValueError):
    """Input that cannot be ingested; the message names file:line and the fix."""


@dataclass
class RawRow:
    """One row of llama-bench output as read from the source, before typing: ``fields`` (name -> raw
    value, llama-bench's field names), ``line`` (1-based), ``fmt`` (json | jsonl | csv | md | sql |
    sweep-bench | compare), ``text`` (the raw line), ``notes``, ``uninterpreted`` (source name -> raw
    value), ``inconsistent`` and ``extra`` (top-level record fields, e.g. ``compare``)."""

    fields: dict[str, Any]
    line: int
    fmt: str
    text: str = ""
    notes: list[str] = field(default_factory=list)
    uninterpreted: dict[str, Any] = field(default_factory=dict)
    inconsistent: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def refuse_duplicates(names: list[str], path: Path, line: int, what: str) -> None:
    """Refuse a header (or object) naming one field twice: a reader keyed by name keeps one of the two
    values silently (the last one for ``dict``, ``csv.DictReader`` and ``json``).  ``names``: the
    field names as the reader will key them (display names already mapped).

    Raises:
        IngestError: names file:line, the field, its column numbers (1-based) and the fix.
    """
    seen: dict[str, int] = {}
    for col, name in enumerate(names, 1):
        if name in seen:
            raise IngestError(
                f"{path}:{line}: {what} names {name!r} twice (columns {seen[name]} and {col}); one of the "
                f"two values would be dropped silently; fix: keep one {name!r} column, or give each its "
                "own name"
            )
        seen[name] = col


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """``json.loads`` ``object_pairs_hook``: the object as a dict, refusing a key given twice.

    Raises:
        ValueError: names the key (the JSON readers turn it into an ``IngestError`` with file:line).
    """
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"key {k!r} given twice in one object; one value would be dropped silently")
        out[k] = v
    return out


def nonfinite(obj, prefix: str = "") -> list[str]:
    """Dotted paths of the NaN/inf floats in ``obj`` (dicts and lists, recursively)."""
    if isinstance(obj, float):
        return [] if math.isfinite(obj) else [prefix]
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in nonfinite(v, f"{prefix}.{k}" if prefix else str(k))]
    if isinstance(obj, (list, tuple)):
        return [p for i, v in enumerate(obj) for p in nonfinite(v, f"{prefix}[{i}]")]
    return []


def origin(
    path: Path,
    fmt: str,
    sha: str,
    line: int,
    host: str | None,
    text: str = "",
    notes: list[str] | None = None,
    uninterpreted: dict | None = None,
    inconsistent: list[str] | None = None,
    key: str | None = None,
) -> dict:
    """The fields every ingested record of ``path`` shares: unknown ids of its group, origin, source
    (module doc); ``run_id`` is a hash of the file's sha256 and the line (and ``key`` where one line
    gives several records: a sweep-bench or comparison row)."""
    own = unknown(sha)
    rec: dict[str, Any] = {
        "run_id": stable_hash([sha, line, *([key] if key else [])], 32),
        "session_id": own,
        "host_id": unknown(host) if host else own,
        "toolchain_id": own,
        "model_sha256": own,
        "git_commit": None,
        "git_dirty": None,
        "status": "ok",
        "origin": "ingested:" + sha,
        "source_file": str(path),
        "source_line": line,
        "source_format": fmt,
        "source_sha256": sha,
        "source_text": text[:SOURCE_TEXT_MAX],
        "uninterpreted": dict(uninterpreted or {}),
    }
    if notes:
        rec["ingest_notes"] = list(notes)
    if inconsistent:
        rec["inconsistent"] = list(inconsistent)
    return rec


def build_record(kind: str, fields: dict, path: Path, line: int) -> dict:
    """``schemas.build`` with the source's file:line in the error."""
    try:
        return build(kind, **fields)
    except SchemaError as e:
        raise IngestError(f"{path}:{line}: {e}; fix: correct or drop this row") from None

"""Ingest someone else's raw output into benchbook records (``benchbook ingest``).

Ingested = native: the readers produce the record kinds our own runners write (``benchbook.schemas``),
so every analysis and caveat applies to them.  Output is found anywhere in a pasted text
(``scan``): issue text, forum posts and blogs put device lines, command lines, code fences, headings
and prose around it, and several tables (each with its own build line) in one post.

* llama-bench ``-o json | jsonl | csv | md | sql`` -> ``benchbook.llama_bench`` v2, one record per
  row, the row (typed) under ``llama_bench`` (``llama_bench``, ``markdown``, ``structured``);
  llama-sweep-bench and compare-llama-bench tables -> two records per row (``markdown``).
* llama-server / llama-cli log timing lines -> ``benchbook.speculative_request`` v2, one record per
  request (``serverlog``).
* ``llama-speculative-simple`` output -> ``benchbook.ingest.speculative_simple`` (``specsimple``).
* the context settings a log states, requested (command line, sweep-bench header) and effective
  (``llama_context:`` lines): ``settings``.

What the source does not state is unknown (``schemas.unknown``): ``host_id``, ``session_id``,
``toolchain_id`` and ``model_sha256`` hold ``unknown:<group>``, the group being the source file's
sha256[:16], so unknown never pools across files; ``host`` (``--host NAME``) says that several files
share a host (their ``host_id`` is ``unknown:NAME``; sessions stay per file).  ``origin`` is
``ingested:<sha256 of the file>``; ``source_file``/``source_line``/``source_text``/``source_format``/
``source_sha256`` point into it, ``uninterpreted`` keeps every field not interpreted (``common``).
``benchbook ingest`` writes under ``data/external/<group>/`` by default, apart from our own
measurements (``data/raw``, which it refuses), so no report of the project reads them (``output``).

Errors name file:line and the fix (``IngestError``).
"""

from __future__ import annotations

from .common import LB_SCHEMA, SERVER_SCHEMA, SPEC_SCHEMA, IngestError
from .llama_bench import field_version
from .output import EXTERNAL_DIR, default_out, not_yet_in, write_records
from .read import (
    FORMATS,
    Ingested,
    detect_format,
    ingest_file,
    ingest_text,
    read_llama_bench,
    read_source,
    summary,
)
from .serverlog import read_server_log
from .specsimple import read_speculative_simple

__all__ = [
    "EXTERNAL_DIR",
    "FORMATS",
    "LB_SCHEMA",
    "SERVER_SCHEMA",
    "SPEC_SCHEMA",
    "IngestError",
    "Ingested",
    "default_out",
    "detect_format",
    "field_version",
    "ingest_file",
    "ingest_text",
    "not_yet_in",
    "read_llama_bench",
    "read_server_log",
    "read_source",
    "read_speculative_simple",
    "summary",
    "write_records",
]

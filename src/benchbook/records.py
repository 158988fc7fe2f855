"""Append-only JSONL records (DESIGN.md, "Records").

Every record is one JSON object per line with ``schema`` and ``schema_version``.  Writers flush and
``fsync`` after every line, so a killed run loses no completed record.  Readers never drop data
silently: a torn (unparseable) *last* line is moved to ``<file>.quarantine.jsonl`` together with its
file:line position and the file is truncated to its last complete line; an unparseable line that is
not the last is an error naming file:line.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from . import atomicfile, errors
from .paths import public_record, public_text, record_root
from .schemas import RecordError, SchemaError, build, kind_error  # noqa: F401  (RecordError re-exported)


def publish_log(path: str | Path) -> bool:
    """Rewrite a tool's log that lies beside the raw records (llama-server's ``logs/*.log``) with every
    path in it made public (``paths.public_text``: ``<cache>/…``, relative to the repository, a model
    file's name), atomically; it is committed with the records, so nothing private leaves the machine
    (issue 33 §3).  Only once the tool has exited: its offsets are read while it runs.  Returns whether
    the file changed; a missing or unreadable file is left alone (False)."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8", errors="surrogateescape")
    except OSError:
        return False
    public = public_text(text, record_root(path))
    if public is None or public == text:
        return False
    atomicfile.write_bytes(path, public.encode("utf-8", errors="surrogateescape"))
    return True


def publish_logs(raw_file: str | Path, session_id: str) -> list[Path]:
    """``publish_log`` of the logs of session ``session_id`` in the ``logs/`` folder beside
    ``raw_file`` (named ``<session_id[:8]>-…log``): a run stopped by a signal, a kill -9 or a power cut
    never published its log, so a session opening (or resuming) on that file publishes its newest
    session's.  Other sessions' logs, other hosts' among them, are committed records and are left as
    they are.  Returns the files rewritten."""
    folder = Path(raw_file).parent / "logs"
    if not folder.is_dir():
        return []
    mine = sorted(folder.glob(f"{session_id[:8]}-*.log"))
    return [p for p in mine if p.is_file() and publish_log(p)]


def utc_now() -> str:
    """Current UTC time, ISO 8601 with microseconds and a ``Z`` suffix."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_id() -> str:
    """A fresh 32-hex random id (uuid4) for runs and sessions."""
    return uuid.uuid4().hex


def stable_hash(obj, n: int = 16) -> str:
    """First ``n`` hex of sha256 over canonical JSON of ``obj`` (sorted keys): stable across runs."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:n]


#: characters that ``str.splitlines`` (and some editors and JavaScript) take as line breaks although
#: JSON allows them raw inside a string: NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR.  ``json.dumps``
#: already escapes every other one (the C0 controls \n, \r, \v, \f, \x1c-\x1e).
LINE_BREAKS_IN_STRINGS = ("\u0085", "\u2028", "\u2029")


def json_line(obj, **kwargs) -> str:
    """``obj`` as one JSONL line (no newline): ``json.dumps(obj, ensure_ascii=False, **kwargs)`` with
    ``LINE_BREAKS_IN_STRINGS`` written as ``\\u2028``-style escapes, so that a model output holding
    one stays on its line for every reader.  Decoding gives the same object back."""
    line = json.dumps(obj, ensure_ascii=False, **kwargs)
    for ch in LINE_BREAKS_IN_STRINGS:
        line = line.replace(ch, f"\\u{ord(ch):04x}")
    return line


def jsonl_lines(text: str) -> list[str]:
    """The lines of JSONL ``text`` split at ``\\n`` only (line i + 1 at index i; a trailing newline
    adds no line).  Never ``str.splitlines``: it also splits at U+2028, U+0085... which JSON allows
    raw inside strings (a model output), and would tear a record in two."""
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


class RecordWriter:
    """Append records to a JSONL file, one ``write + flush + fsync`` per record.

    Records come from ``schemas.build`` (which checks every field); ``append`` refuses one without
    ``schema``/``schema_version``, of a kind ``schemas`` does not declare or of a newer version, and
    returns the 1-based line number the record landed on (used for provenance "file:line").  Before
    the first append, a torn last line left by a killed writer is quarantined (see ``repair``).

    Nothing private leaves the machine (issue 33 §3): every record is written as
    ``paths.public_record`` makes it - paths relative to the repository the file lies in
    (``paths.record_root``), ``<cache>/…`` for the cache, ``<models>/NAME`` for a model file elsewhere -
    whichever experiment built it; the measurement itself ran the real paths.  ``public=False`` writes
    records as they are: ingested records quote another person's file (``ingest.output``).
    """

    def __init__(self, path: str | Path, *, public: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._root = record_root(self.path) if public else None
        self._public = public
        repair(self.path)
        self._lines = count_lines(self.path)
        self._f = open(self.path, "a", encoding="utf-8")

    def append(self, rec: dict) -> int:
        for k in ("schema", "schema_version"):
            if k not in rec:
                raise RecordError(
                    f"record for {self.path} lacks {k!r}; every record needs schema and schema_version"
                    " (build it with benchbook.schemas.build)"
                )
        msg = kind_error(
            f"{self.path}:{self._lines + 1}", rec["schema"], rec["schema_version"], rec.get("event")
        )
        if msg:
            raise SchemaError(msg)
        if self._public:
            rec = public_record(rec, self._root)
        line = json_line(rec, allow_nan=False, separators=(",", ":"))
        with errors.naming(self.path):  # a full disk's "No space left on device" names no file
            self._f.write(line + "\n")
            self._f.flush()
            os.fsync(self._f.fileno())
        self._lines += 1
        return self._lines

    def close(self) -> None:
        with errors.naming(self.path):
            self._f.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def count_lines(path: Path) -> int:
    """Number of newline-terminated lines in ``path`` (0 when absent)."""
    if not path.exists():
        return 0
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def repair(path: str | Path) -> dict | None:
    """Move a torn last line of ``path`` aside; return what was moved, or None when intact.

    A line is torn when it is not valid JSON.  A last line that is a complete record (JSON object with
    ``schema``) but lacks its newline is finished with one and kept; a blank last line is left alone.
    A torn line's bytes go to ``<path>.quarantine.jsonl`` as a record ``{"schema": "benchbook.quarantine",
    "file", "line", "byte_offset", "raw"}``, then the file is truncated to the end of its last
    complete, valid line.  Nothing is deleted.
    """
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return None
    if path.suffix != ".jsonl":
        raise RecordError(
            f"{path}: not a benchbook raw file (its name does not end in .jsonl), nothing touched; fix: "
            "`records repair` only mends a raw records file (data/raw/**/*.jsonl) whose last line was torn"
        )
    with open(path, "rb") as f:
        data = f.read()
    _refuse_unless_records(path, data)
    cut = len(data)
    if data.endswith(b"\n"):
        start = data.rfind(b"\n", 0, len(data) - 1) + 1
        if not data[start:].strip():
            return None  # a blank last line is harmless: readers skip blank lines
        try:
            json.loads(data[start:])
            return None
        except ValueError:
            cut = start
    else:
        cut = data.rfind(b"\n") + 1
        try:  # a complete record whose newline was never written: finish the line, keep the record
            rec = json.loads(data[cut:])
            if isinstance(rec, dict) and "schema" in rec:
                with open(path, "ab") as f:
                    f.write(b"\n")
                    f.flush()
                    os.fsync(f.fileno())
                return None
        except ValueError:
            pass
    raw = data[cut:]
    line_no = data[:cut].count(b"\n") + 1
    entry = build(
        "quarantine",
        file=str(path),
        line=line_no,
        byte_offset=cut,
        raw=raw.decode("utf-8", errors="replace"),
        quarantined_at=utc_now(),
    )
    q = path.with_name(path.name + ".quarantine.jsonl")
    with errors.naming(q), open(q, "a", encoding="utf-8") as f:
        f.write(json_line(public_record(entry, record_root(path))) + "\n")  # as RecordWriter writes
        f.flush()
        os.fsync(f.fileno())
    with errors.naming(path), open(path, "r+b") as f:
        f.truncate(cut)
        f.flush()
        os.fsync(f.fileno())
    return entry


def _refuse_unless_records(path: Path, data: bytes) -> None:
    """Raise RecordError unless every complete line of ``data`` but the last is a benchbook record.

    ``repair`` truncates; it must only ever cut a file made of records (JSON objects with ``schema``),
    never a binary or text file handed to it by mistake.  The last line is the one being judged, so it is
    not checked here; blank lines are skipped as the readers skip them.
    """
    lines = data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")
    for i, line in enumerate(lines[:-1], 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line.decode("utf-8"))
        except ValueError:  # UnicodeDecodeError is a ValueError
            rec = None
        if not isinstance(rec, dict) or "schema" not in rec:
            raise RecordError(
                f"{path}: line {i} is not a benchbook record (a JSON object with 'schema'), so this is not "
                "a raw records file; nothing touched; fix: `records repair` only mends a raw records file "
                "whose last line was torn - restore this one from git if it is damaged"
            )


def iter_records(path: str | Path) -> Iterator[tuple[int, dict]]:
    """Yield ``(line_number, record)`` for every non-blank line of ``path``.

    Raises:
        RecordError: a line is not JSON or lacks ``schema``; names file:line and the fix.
        SchemaError: a record of a kind ``schemas`` does not declare, or of a version newer than this
            code knows (file:line named; older versions are upgraded by the readers' migrations).
    """
    path = Path(path)
    # lines end at "\n" only, as the writer counts them and the Polars readers split them (a lone "\r"
    # is not a line break: a file of "\r"-separated records is one bad line, not several good ones)
    with open(path, "rb") as f:  # binary lines end at b"\n" only
        for i, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:  # named by file:line, as a torn line is (not a traceback)
                raise RecordError(
                    f"{path}:{i}: byte {e.start} of the line is not UTF-8 ({e.reason}); fix: restore the "
                    "file from git (raw records are written as UTF-8 JSON lines)"
                ) from None
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as e:
                raise RecordError(
                    f"{path}:{i}: not valid JSON ({e}); fix: if it is a torn last line, `benchbook records "
                    f"repair {path}` moves it aside; otherwise restore the file from git"
                ) from None
            if not isinstance(rec, dict) or "schema" not in rec:
                raise RecordError(f"{path}:{i}: record lacks 'schema'; this file is not benchbook raw data")
            msg = kind_error(f"{path}:{i}", rec["schema"], rec.get("schema_version"), rec.get("event"))
            if msg:
                raise SchemaError(msg)
            yield i, rec


def read_records(paths: Iterable[str | Path], schema: str | None = None) -> list[dict]:
    """All records of ``paths`` (optionally only one ``schema``), each with ``_file`` and ``_line`` added."""
    out = []
    for p in paths:
        for i, rec in iter_records(p):
            if schema is None or rec.get("schema") == schema:
                rec["_file"], rec["_line"] = str(p), i
                out.append(rec)
    return out


def append_once(path: str | Path, rec: dict, key: str) -> bool:
    """Append ``rec`` to ``path`` unless a record with the same ``rec[key]`` is already there.

    Used for snapshots stored once and referenced (hosts, toolchains, models).  Returns True
    when it appended.
    """
    path = Path(path)
    if path.exists():
        for _, r in iter_records(path):
            if r.get(key) == rec[key]:
                return False
    with RecordWriter(path) as w:
        w.append(rec)
    return True

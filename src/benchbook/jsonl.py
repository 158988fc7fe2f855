"""Generic lazy reader of JSONL record files with vectorized validation (Polars).

``scan_jsonl`` decodes each file against an explicit Polars schema (fields that do not fit the type
become null and are caught by validation, with file:line); ``validate`` runs vectorized checks and
either raises ``RecordError`` naming file:line, the field and the fix, or drops the bad rows and
counts them (``on_error="skip"``).  Every experiment's analysis reads its raw records through these.
"""

from __future__ import annotations

import json
import mmap
import queue
import re
import threading
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import polars as pl

from .records import RecordError

T = TypeVar("T")


def _line_map(path: Path) -> np.ndarray | None:
    """1-based line numbers of the non-blank lines of ``path``, or None when no line is blank
    (then row i is line i + 1).  The check is one C-level search; the map is built only when needed."""
    with open(path, "rb") as f:
        if f.seek(0, 2) == 0:
            return None
        f.seek(0)
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            # a blank line anywhere, the first line included (a CRLF file's blank first line is "\r\n")
            if m.find(b"\n\n") < 0 and re.search(rb"(?:\A|\n)[ \t\r]*\n", m) is None:
                return None
            data = bytes(m)
    parts = data.split(b"\n")
    if data.endswith(b"\n"):
        parts = parts[:-1]
    return np.asarray([i for i, line in enumerate(parts, 1) if line.strip()], dtype=np.int64)


def _first_bad_json(path: Path) -> tuple[int, str] | None:
    """1-based line and reason of the first non-blank line of ``path`` that is not a JSON object in UTF-8
    (lines split at ``\n`` only, as the readers split them), or None."""
    with open(path, "rb") as f:
        for i, raw in enumerate(f, 1):
            if raw.strip():
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    return i, f"not UTF-8 text ({e})"
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    return i, str(e)
                if not isinstance(rec, dict):
                    return i, "not a JSON object"
    return None


def _objects_only(path: Path) -> bool:
    """Whether every non-blank line of ``path`` starts with ``{`` (after whitespace): Polars reads a line
    that is JSON but not an object (``[1]``, ``null``, ``5``) as a record of nulls, without an error."""
    with open(path, "rb", buffering=_READ_BUFFER) as f:
        return all(line[:1] == b"{" or line.lstrip()[:1] in (b"{", b"") for line in f)


def _good_lines(path: Path) -> tuple[bytes, np.ndarray, list[int]]:
    good, lines, bad = [], [], []
    with open(path, "rb") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                if isinstance(json.loads(line), dict):
                    good.append(line if line.endswith(b"\n") else line + b"\n")
                    lines.append(i)
                    continue
            except ValueError:
                pass
            bad.append(i)
    return b"".join(good), np.asarray(lines, dtype=np.int64), bad


def _lines(p: Path) -> pl.DataFrame:
    """Every line of ``p`` as a string (column ``_raw``; CSV reader, no quoting; blank lines are null
    rows, so row i is line i + 1) with its row number ``_row``."""
    return pl.read_csv(
        p,
        has_header=False,
        separator="\x01",
        quote_char=None,
        new_columns=["_raw"],
        schema={"_raw": pl.String},
        row_index_name="_row",
        comment_prefix=None,
    )


def _fast_file(p: Path, schema: dict, lines: pl.DataFrame | None = None) -> pl.DataFrame:
    """Fast path: every line as a string (``_lines``), then one vectorized ``str.json_decode``
    against ``schema``.  Raises ComputeError on any malformed line or type mismatch (the caller then
    takes the slow path)."""
    if lines is not None:
        return _decode_lines(lines, schema)
    return _decode_lines(_lines(p), schema)


def _decode_lines(lines: pl.DataFrame, schema: dict) -> pl.DataFrame:
    raw = lines["_raw"]
    # the filter copies every line's text: only when a line is blank (null) or may be whitespace only
    if raw.null_count() or raw.str.contains(r"^\s*$").any():
        lines = lines.filter(pl.col("_raw").str.strip_chars().str.len_bytes() > 0)
        raw = lines["_raw"]
    # a line that is JSON but not an object ([1], null, 5) decodes as a record of nulls, without an error
    if not raw.str.starts_with("{").all() and not raw.str.strip_chars_start().str.starts_with("{").all():
        raise pl.exceptions.ComputeError("a line is not a JSON object")
    del raw
    decode = [
        (pl.col("_row").cast(pl.Int64) + 1).alias("line"),
        pl.col("_raw").str.json_decode(pl.Struct(schema)).alias("_r"),
    ]
    # slices of _DECODE_SLICE lines, decoded in parallel (one slice is one thread's task): a decode's
    # working memory is several times its text, and small slices keep it in the CPU's caches (256 lines
    # took about half the CPU time of 4096 on the benchmark's records); the slices of one batch are then
    # joined into one chunk, which the flattening and the statistics read faster than many small ones
    if lines.height <= _DECODE_SLICE:
        return lines.select(decode).unnest("_r")
    slices = [
        lines.slice(i, _DECODE_SLICE).lazy().select(decode) for i in range(0, lines.height, _DECODE_SLICE)
    ]
    return pl.concat(pl.collect_all(slices), how="vertical", rechunk=True).unnest("_r")


#: lines decoded by one thread at a time (a batch of more lines is decoded in slices, in parallel)
_DECODE_SLICE = 256


def _tolerant_file(p: Path, schema: dict, on_error: str, report: dict | None) -> pl.DataFrame:
    """Slow path: Polars' NDJSON reader with ``ignore_errors`` (a field of the wrong type becomes null
    and validation names its line); a line that is not JSON raises RecordError or is skipped."""
    try:
        if not _objects_only(p):
            raise pl.exceptions.ComputeError(f"{p}: a line is not a JSON object")
        df = pl.scan_ndjson(
            p, schema=schema, ignore_errors=True, row_index_name="_row", low_memory=False
        ).collect()
        lmap = _line_map(p)
    except pl.exceptions.ComputeError:
        bad = _first_bad_json(p)
        if on_error == "raise":
            where = f"{p}:{bad[0]}: {bad[1]}" if bad else f"{p}: unreadable"
            raise RecordError(
                f"{where}; not a JSON record. fix: if it is a torn last line, `benchbook records "
                f"repair {p}` moves it aside; otherwise restore the file from git, or read with "
                "on_error='skip'"
            ) from None
        buf, lmap, badl = _good_lines(p)
        if report is not None:
            report["bad_json"] = report.get("bad_json", 0) + len(badl)
            report.setdefault("bad_lines", []).extend(f"{p}:{i}" for i in badl[:20])
        df = pl.read_ndjson(buf, schema=schema, ignore_errors=True).with_row_index("_row")
    rows = df["_row"].to_numpy()
    line = pl.Series("line", (rows + 1) if lmap is None else lmap[rows], dtype=pl.Int64)
    return df.drop("_row").with_columns(line)


def _tolerant_schema(p: Path, schema: dict, extend) -> dict:
    """``schema`` as ``extend`` widens it over every batch of ``p``'s lines (``_line_batches``' rows; a
    line that is not UTF-8 is decoded with replacement characters, the tolerant path names it)."""
    row = 0
    with open(p, "rb", buffering=_READ_BUFFER) as f:
        while chunk := f.readlines(_READ_BYTES):
            for i in range(0, len(chunk), _READ_BATCH):
                part = [line.decode("utf-8", errors="replace") for line in chunk[i : i + _READ_BATCH]]
                schema = extend(pl.Series("_raw", part, dtype=pl.String), p, schema, row)
                row += len(part)
    return schema


def _line_batches(p: Path):
    """The lines of ``p`` in batches of at most ``_READ_BATCH`` lines and about ``_READ_BYTES`` bytes
    (``_lines``' columns, ``_row`` counting from the file's first line): a file is never held as text
    all at once.

    Read with buffered reads, not a memory map: the text of one batch is resident at a time (a mapped
    file's touched pages count in the process's RSS until it is unmapped).  A row keeps its line's
    ending (JSON ignores it) and a blank line is a row of whitespace, so row i is line i + 1.

    Raises:
        polars.exceptions.ComputeError: a line is not UTF-8 (the caller then takes the tolerant path).
    """
    row = 0
    with open(p, "rb", buffering=_READ_BUFFER) as f:
        while chunk := f.readlines(_READ_BYTES):
            for i in range(0, len(chunk), _READ_BATCH):
                part = chunk[i : i + _READ_BATCH]
                try:
                    raw = pl.Series("_raw", part, dtype=pl.Binary).cast(pl.String)
                except pl.exceptions.InvalidOperationError as e:
                    raise pl.exceptions.ComputeError(f"{p}: not UTF-8 text: {e}") from None
                yield pl.DataFrame([pl.Series("_row", range(row, row + len(part)), dtype=pl.UInt32), raw])
                row += len(part)
            del chunk


#: lines read (and decoded) at a time, at most ...
_READ_BATCH = 16384
#: ... and about this many bytes of text (``readlines``' size hint)
_READ_BYTES = 16 << 20
#: the file's read buffer (1 MiB: ``readlines`` takes half the time of the 8 KiB default, in fewer reads)
_READ_BUFFER = 1 << 20


class _SlowPath(Exception):
    """The fast path cannot read a file (a line is not JSON, not UTF-8, or of another type)."""


#: batches read and decoded ahead of the one being used (``_read_ahead``)
_AHEAD = 1
#: ``_read_ahead``'s mark of the end of its items
_END = object()


def _decoded_batches(p: Path, schema: dict, extend) -> Generator[tuple[pl.DataFrame, dict], None, None]:
    """``(frame, schema)`` of each batch of ``p``'s lines (``_line_batches``): the schema ``extend``
    returns for the batch (``schema`` when None; each call starts from the previous one's) and the
    batch decoded with it (``_decode_lines``).

    Two stages, each on a thread of its own (``_read_ahead``): reading the lines and consulting
    ``extend`` (mostly Python, holding its lock) runs a batch ahead of decoding them (Polars, on its own
    threads), which runs a batch ahead of the caller.

    Raises:
        polars.exceptions.ComputeError: a line is not UTF-8, not JSON, or of another type."""
    lines = _read_ahead(_extended_lines(p, schema, extend))
    try:
        decoded = _read_ahead(_decode_each(lines))
        try:
            yield from decoded
        finally:
            decoded.close()
    finally:
        lines.close()


def _extended_lines(p: Path, schema: dict, extend) -> Iterator[tuple[pl.DataFrame, dict]]:
    """``(lines, schema)`` of each batch of ``p``'s lines: ``_decoded_batches``' first stage."""
    sch = schema
    for lines in _line_batches(p):
        if extend is not None:
            sch = extend(lines["_raw"], p, sch, int(lines["_row"][0]))
        yield lines, sch
        del lines


def _decode_each(batches: Iterator[tuple[pl.DataFrame, dict]]) -> Iterator[tuple[pl.DataFrame, dict]]:
    """``_decoded_batches``' second stage: each batch of lines decoded with its schema."""
    for lines, sch in batches:
        frame = _decode_lines(lines, sch)
        del lines
        yield frame, sch
        del frame


def _read_ahead(items: Iterator[T], depth: int = _AHEAD) -> Generator[T, None, None]:
    """The items of ``items`` in order, produced on a thread of their own up to ``depth`` items ahead of
    the consumer: reading and decoding the next batch (Polars works without Python's lock) overlaps
    with what the consumer does with this one.  Memory holds at most ``depth`` items more.

    An exception raised by ``items`` is raised here, at the item it replaced.  When the consumer stops
    early (an exception of its own, or ``close()``), the thread stops after its current item and
    ``items`` is closed (its file too) before this generator returns."""
    box: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry) -> bool:
        while not stop.is_set():
            try:
                box.put(entry, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put((True, item)):
                    return
                del item
            put((True, _END))
        except BaseException as e:  # handed to the consumer, raised there
            put((False, e))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    worker = threading.Thread(target=produce, name="jsonl-read-ahead", daemon=True)
    worker.start()
    try:
        while True:
            ok, item = box.get()
            if not ok:
                raise item
            if item is _END:
                return
            yield item
            del item
    finally:
        stop.set()
        worker.join()


def _fast_batches(p: Path, schema: dict, extend, finish) -> tuple[pl.DataFrame, dict]:
    """``_fast_file`` batch by batch (``_decoded_batches``, read ahead on a thread of its own while
    ``finish(frame, schema)`` is applied to the batch before); when a later batch widens the schema, the
    file is decoded again with the widened one (rare: a field the declaration lacks first seen past the
    first batch).

    Raises:
        _SlowPath: reading or decoding failed (a ComputeError; ``finish``'s own errors pass through)."""
    sch, widened = schema, False
    frames: list[pl.DataFrame] = []
    batches = _decoded_batches(p, schema, extend)
    try:
        while True:
            try:
                decoded = next(batches, None)
            except pl.exceptions.ComputeError as e:
                raise _SlowPath(str(e)) from None
            if decoded is None:
                break
            frame, wider = decoded
            del decoded
            widened |= bool(frames) and wider != sch
            sch = wider
            frames.append(finish(frame, sch))
            del frame
    finally:
        batches.close()
    if widened:
        frames.clear()
        try:
            for lines in _line_batches(p):
                frames.append(finish(_decode_lines(lines, sch), sch))
        except pl.exceptions.ComputeError as e:
            raise _SlowPath(str(e)) from None
    if not frames:
        empty = pl.DataFrame(schema={"_row": pl.UInt32, "_raw": pl.String})
        return finish(_decode_lines(empty, sch), sch), sch
    return pl.concat(frames, how="vertical", rechunk=False), sch


def iter_files(files, schema: dict, on_error: str, report: dict | None, extend=None, per_batch=None):
    """Each non-empty file of ``files`` decoded (``scan_jsonl``'s columns), one at a time.

    ``extend(raw_lines, path, schema, first_row) -> schema`` (optional): a look at each batch of raw
    lines (a String Series; its row i is line ``first_row + i + 1``; a blank line is whitespace) before
    decoding, returning the schema to decode with (e.g. ``identity.UnknownFields.extend``: fields the
    declaration lacks).  ``per_batch(frame) -> frame`` (optional): applied to each batch of decoded rows
    (these columns) before a file's batches are joined, so a file is never held decoded all at once
    (e.g. validate and flatten: the flat rows are a fraction of the decoded ones); the whole file when
    it is read by the tolerant path."""

    def finish(frame: pl.DataFrame, sch: dict) -> pl.DataFrame:
        frame = frame.with_columns(pl.lit(str(p)).alias("file")).select([*sch, "file", "line"])
        return per_batch(frame) if per_batch is not None else frame

    for p in map(Path, files):
        if not p.exists() or p.stat().st_size == 0:
            continue
        sch = schema
        try:
            df, sch = _fast_batches(p, schema, extend, finish)
        except _SlowPath:
            if extend is not None:  # every line's fields, those past the batch the fast path stopped at too
                sch = _tolerant_schema(p, schema, extend)
            df = finish(_tolerant_file(p, sch, on_error, report), sch)
        yield df
        del df  # before the next file is decoded


def scan_jsonl(
    files: Sequence[str | Path],
    schema: dict,
    on_error: str = "raise",
    report: dict | None = None,
    per_file=None,
) -> pl.LazyFrame:
    """Frame over JSONL ``files`` with columns of ``schema`` plus ``file`` (str) and ``line`` (1-based).

    Fields missing from a record, or of another type, are null (validation decides).  A line that is
    not a JSON object raises ``RecordError`` naming file:line (``on_error="raise"``) or is skipped and
    counted in ``report["bad_json"]`` (``on_error="skip"``).  Each file is decoded by one vectorized
    ``str.json_decode``; only a file where that fails is re-read by the tolerant (slower) path.
    Files are decoded one at a time, so peak memory holds one file's text, not all of them;
    ``per_file(frame) -> frame`` (e.g. filter, validate, flatten) runs on each before they are joined.
    """
    frames = []
    for df in iter_files(files, schema, on_error, report):
        frames.append((per_file(df) if per_file else df).lazy())
        del df
    if not frames:
        if per_file:
            return per_file(pl.DataFrame(schema={**schema, "file": pl.String, "line": pl.Int64})).lazy()
        return pl.DataFrame(schema={**schema, "file": pl.String, "line": pl.Int64}).lazy()
    return pl.concat(frames, how="vertical")


def validate(
    df: pl.DataFrame,
    checks: dict[str, tuple[pl.Expr, str]],
    on_error: str = "raise",
    report: dict | None = None,
) -> pl.DataFrame:
    """Keep rows that pass every check; ``checks`` maps a field name to ``(ok_expr, fix)``.

    Vectorized: one boolean column per check.  ``on_error="raise"``: ``RecordError`` for the first bad
    row, ``file:line: field 'x' <fix>`` (needs ``file``/``line`` columns), plus how many rows fail;
    ``"skip"``: bad rows are dropped and counted in ``report["invalid"]`` (with up to 20 examples in
    ``report["invalid_examples"]``).
    """
    if df.is_empty():
        return df
    oks = df.select([e.fill_null(False).alias(k) for k, (e, _) in checks.items()])
    all_ok = oks.select(pl.all_horizontal(pl.all())).to_series()
    n_bad = int((~all_ok).sum())
    if n_bad == 0:
        return df
    bad_idx = (~all_ok).arg_true()
    examples = []
    for i in bad_idx[:20].to_list():
        failed = [k for k in checks if not oks[k][i]]
        examples.append(f"{df['file'][i]}:{df['line'][i]}: field {failed[0]!r} {checks[failed[0]][1]}")
    if on_error == "raise":
        raise invalid_records(examples[0], n_bad)
    if report is not None:
        report["invalid"] = report.get("invalid", 0) + n_bad
        report.setdefault("invalid_examples", []).extend(examples)
    return df.filter(all_ok)


def invalid_records(first: str, n_bad: int) -> RecordError:
    """``validate``'s error for ``n_bad`` invalid records, ``first`` naming the first (file:line, field,
    fix)."""
    more = f" ({n_bad - 1} more invalid records; read with on_error='skip' to drop and count them)"
    return RecordError(first + (more if n_bad > 1 else ""))

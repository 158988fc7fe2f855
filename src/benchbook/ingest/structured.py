"""llama-bench's machine formats -> ``RawRow``s: ``-o json`` (an array), ``-o jsonl``, ``-o csv`` and
``-o sql`` (``INSERT INTO llama_bench (...)``, and ``INSERT INTO test (...)``, the table's name before
mid-2025).  Each reader takes the lines of one segment (``scan.Segment``) with their 1-based numbers,
so output found inside a pasted text keeps its own line numbers."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from .common import IngestError, RawRow, refuse_duplicates, unique_keys

_INSERT = re.compile(
    r"INSERT INTO (?:llama_bench|test)\s*\(([^)]*)\)\s*VALUES\s*\((.*)\);?\s*$", re.IGNORECASE
)


def _lines_of_json_array(text: str) -> list[int]:
    """0-based line offset of each top-level object's opening brace in a JSON array text."""
    out, depth, line, in_str, esc = [], 0, 0, False, False
    for ch in text:
        if ch == "\n":
            line += 1
        if in_str:
            esc = (ch == "\\") and not esc
            if ch == '"' and not esc:
                in_str = False
            continue
        if ch == '"':
            in_str, esc = True, False
        elif ch in "[{":
            depth += 1
            if ch == "{" and depth == 2:
                out.append(line)
        elif ch in "]}":
            depth -= 1
    return out


def json_rows(lines: list[tuple[int, str]], path: Path) -> list[RawRow]:
    """Rows of a JSON array (``-o json``); each row's line is its opening brace.

    Raises:
        IngestError: not valid JSON (file:line; a JSON-lines text gets the hint to use --format jsonl).
    """
    first = lines[0][0] if lines else 1
    text = "\n".join(t for _, t in lines)
    try:
        rows = json.loads(text, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as e:
        hint = "a truncated llama-bench -o json run lacks the closing ']' - re-run it or use -o jsonl"
        if e.msg == "Extra data" and text.lstrip().startswith("{"):
            hint = "this is JSON lines (one object per line, llama-bench -o jsonl): use --format jsonl"
        raise IngestError(f"{path}:{first + e.lineno - 1}: not valid JSON ({e.msg}); fix: {hint}") from None
    except ValueError as e:  # a key given twice, or an integer of > 4300 digits
        fix = "keep one value of that key" if "twice" in str(e) else "this is not llama-bench -o json output"
        raise IngestError(f"{path}: not readable JSON ({e}); fix: {fix}") from None
    if isinstance(rows, dict):
        rows = [rows]
    if not isinstance(rows, list):
        raise IngestError(f"{path}:{first}: JSON {type(rows).__name__}, not an array of llama-bench rows")
    starts = _lines_of_json_array(text)
    out = []
    for i, r in enumerate(rows):
        line = first + starts[i] if i < len(starts) else first
        if not isinstance(r, dict):
            raise IngestError(f"{path}:{line}: JSON array element {r!r} is not a llama-bench row (an object)")
        out.append(RawRow(dict(r), line, "json", json.dumps(r)))
    return out


def jsonl_rows(lines: list[tuple[int, str]], path: Path) -> list[RawRow]:
    """Rows of JSON lines (``-o jsonl``); blank lines skipped.

    Raises:
        IngestError: a line that is not a JSON object (file:line; a JSON array gets the hint to use
            --format json).
    """
    out = []
    for i, line in lines:
        s = line.strip()
        if not s or s.startswith("```"):
            continue
        if s in ("[", "]") or s.startswith("[{"):
            raise IngestError(
                f"{path}:{i}: {s[:20]!r} opens or closes a JSON array (llama-bench -o json), not one "
                "row per line; fix: use --format json"
            )
        try:
            obj = json.loads(s, object_pairs_hook=unique_keys)
        except ValueError as e:
            fix = "keep one value of that key" if "twice" in str(e) else "drop the torn line"
            raise IngestError(f"{path}:{i}: not valid JSON ({e}); fix: {fix}") from None
        if not isinstance(obj, dict):
            raise IngestError(f"{path}:{i}: JSON {type(obj).__name__}, not a llama-bench row (an object)")
        out.append(RawRow(obj, i, "jsonl", line))
    return out


def csv_rows(lines: list[tuple[int, str]], path: Path) -> list[RawRow]:
    """Rows of llama-bench CSV (header line first).

    Raises:
        IngestError: a header naming a column twice, or a row with more values than the header
            (file:line).
    """
    if not lines:
        return []
    first = lines[0][0]
    text = "\n".join(t for _, t in lines)
    refuse_duplicates(next(csv.reader([lines[0][1]])), path, first, "the CSV header")
    rd = csv.DictReader(io.StringIO(text))
    out = []
    for r in rd:
        line = first + rd.line_num - 1
        extra = r.pop(None, None)
        if extra:
            raise IngestError(f"{path}:{line}: {len(extra)} more values than the CSV header has columns")
        out.append(
            RawRow(dict(r), line, "csv", lines[rd.line_num - 1][1] if rd.line_num - 1 < len(lines) else "")
        )
    return out


def sql_rows(lines: list[tuple[int, str]], path: Path) -> list[RawRow]:
    """Rows of ``INSERT INTO llama_bench|test (...) VALUES (...);`` lines (module doc).

    Raises:
        IngestError: values and columns differ in number (file:line).
    """
    out = []
    for i, line in lines:
        m = _INSERT.search(line)
        if not m:
            continue
        names = [n.strip() for n in m.group(1).split(",")]
        refuse_duplicates(names, path, i, "the INSERT's column list")
        vals = next(csv.reader([m.group(2)], quotechar="'", skipinitialspace=True))
        if len(vals) != len(names):
            raise IngestError(f"{path}:{i}: {len(vals)} values for {len(names)} columns")
        out.append(RawRow(dict(zip(names, vals, strict=True)), i, "sql", line))
    return out

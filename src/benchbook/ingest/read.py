"""Reading one text: which output it holds (``detect_format``), every piece of llama-bench output in it
(``read_llama_bench``: tables, CSV, JSON, JSONL, SQL found anywhere, each table with its own build
line), llama-server logs and llama-speculative-simple output, with what was skipped
(``ingest_text`` -> ``Ingested``).

A table that is not llama-bench output (a hand-written summary, a llama-batched-bench table) is
skipped with a note; a llama-bench table or row that cannot be read is an error (file:line and fix),
never a silent loss.  Output of a fork (``fork``, or detected: a llama-sweep-bench table, a
``tg64@pp512`` test, "ik_llama" in the text) keeps its build counter as ``fork_build_number``.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .common import SOURCE_TEXT_MAX, IngestError, RawRow
from .fieldsets import field_sets
from .llama_bench import lb_record
from .markdown import compare_rows, describe, is_separator, llama_bench_rows, sweep_rows
from .responses import (
    _looks_like_response,
    _response_of,
    bad_json_line,
    is_responses,
    json_objects,
    read_responses,
)
from .scan import Scan, Segment, _looks_llama_bench, scan
from .serverlog import read_server_log
from .specsimple import read_speculative_simple
from .structured import csv_rows, json_rows, jsonl_rows, sql_rows

LLAMA_BENCH_FORMATS = ("json", "jsonl", "csv", "md", "sql")
FORMATS = (*LLAMA_BENCH_FORMATS, "server-log", "spec-simple", "server-json")
_FORK_MARKERS = (("ik_llama", "ik_llama.cpp"),)
#: a llama-bench markdown row (a test and a rate) outside a table with a header: named, never silent
_HEADLESS_ROW = re.compile(r"\|\s*(?:pp|tg)\s*\d+[^|]*\|\s*[\d.]+\s*(?:±|\+/-|Â±)")
_DEVICE = re.compile(r"^\s*(ggml_|Device \d+:|register_|load_backend|llama_|ggml_vulkan|build_info)")


@dataclass
class Ingested:
    """What one text gave: ``records``, ``formats`` read (in order), ``skipped`` (one line per range of
    the text that held no output, or output that is not read) and file-level ``notes``."""

    records: list[dict]
    formats: list[str]
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def headerless_table(text: str) -> str | None:
    """Why a text that looks like a llama-bench markdown table was not read as one (its header line has no
    separator line ``| --- | --- |`` under it), or None."""
    lines = text.splitlines()
    for i, t in enumerate(lines):
        cells = [c.strip().lower() for c in t.strip().strip("|").split("|")]
        if "t/s" in cells and ("test" in cells or "n_gen" in cells):
            if i + 1 >= len(lines) or not is_separator(lines[i + 1]):
                return (
                    f"line {i + 1} is a llama-bench table header, but line {i + 2} is not the separator "
                    "line markdown needs under it (| --- | --- |); fix: add the separator line under the "
                    "header (copy the table whole)"
                )
    return None


def detect_format(text: str) -> str:
    """Format of a llama.cpp output text: json | jsonl | csv | md | sql (llama-bench output found
    anywhere in the text: the first piece's format) | server-log | spec-simple | server-json (saved
    llama-server responses, ``responses``).

    Raises:
        IngestError: none matches (the message lists what was looked for).
    """
    found, _ = scan(text)
    if found.segments:
        return found.segments[0].fmt
    if re.search(r"\bn_drafted\s*=", text) and re.search(r"\bn_accept\s*=", text):
        return "spec-simple"
    if re.search(r"prompt eval time\s*=", text):
        return "server-log"
    if is_responses(text):
        return "server-json"
    s = text.lstrip()
    if s.startswith("["):
        return "json"
    if s.startswith("{"):
        return "jsonl"
    why = headerless_table(text)
    if why:
        raise IngestError(f"a table that cannot be read: {why}")
    raise IngestError(
        "cannot detect the format: expected llama-bench json/jsonl/csv/md/sql output (anywhere in the "
        "text: a markdown table with its header, a CSV header, a JSON array or lines, INSERT INTO "
        "llama_bench|test), a llama-server log with 'prompt eval time' lines, or "
        "llama-speculative-simple output with n_drafted/n_accept, and found none of them; fix: ingest the "
        "file that holds the tool's output as it printed it"
    )


#: names that only llama.cpp output carries: a JSON text naming none of them is someone else's file
_LLAMA_NAMES = re.compile(r'"(n_prompt|n_gen|avg_ts|samples_ns|build_commit|timings|predicted_n|prompt_n)"')


def _keys_shown(values: list) -> str:
    keys = sorted({str(k) for v in values if isinstance(v, dict) for k in v})
    return ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "") if keys else "no keys"


def foreign(text: str) -> str | None:
    """Why ``text`` holds no llama.cpp output at all (someone else's CSV, a notes JSON, a table of other
    numbers), or None when it may hold some (a malformed llama.cpp output is not foreign: reading it
    names the fault).  The reason names what the text is instead."""
    objs = json_objects(text)
    if objs is not None:
        values = [v for _, v in objs]
        if any(_looks_llama_bench(v) or _response_of(v) is not None for v in values):
            return None
        if values and all(_looks_like_response(v) for v in values):
            return (
                "OpenAI-compatible responses without llama-server 'timings': no server prompt or generation "
                "times in them (another engine, or a server build before 'timings')"
            )
        keys = _keys_shown(values)
        return f"a JSON file with no llama-bench rows and no llama-server responses (keys: {keys})"
    if text.lstrip().startswith(("{", "[")):  # JSON-looking: never judged by the CSV heuristic below
        if not _LLAMA_NAMES.search(text):
            return "JSON that does not decode and names no llama-bench or llama-server field"
        bad = bad_json_line(text) if text.lstrip().startswith("{") else None
        if bad is not None and bad[0] > 1:
            return (
                f"JSON lines naming llama.cpp fields whose line {bad[0]} does not decode ({bad[1]}); "
                "fix: save each response whole, one per line"
            )
        return None  # a malformed llama.cpp JSON output: reading it names the fault
    if re.search(r"prompt eval time\s*=", text) or re.search(r"\bn_drafted\s*=", text):
        return None
    found, _ = scan(text)
    tables = [(seg, seg.table) for seg in found.segments if seg.table is not None]
    if found.segments and len(tables) == len(found.segments) and all(t.kind == "other" for _, t in tables):
        return "; ".join(
            f"lines {seg.start}-{seg.end}: {describe(t.header)}: not llama-bench output" for seg, t in tables
        )
    if not found.segments:
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
        if first.count(",") >= 2 and not headerless_table(text):
            cols = ", ".join(c.strip().strip('"') for c in first.split(",")[:8])
            return (
                f"a CSV with columns {cols}: not llama-bench output (llama-bench's CSV header names "
                "build_commit, n_prompt, n_gen, avg_ts ...)"
            )
    return None


def _describe_skip(lines: list[str], start: int, end: int) -> str:
    kinds = []
    for t in lines[start - 1 : end]:
        s = t.strip()
        if not s:
            continue
        if _HEADLESS_ROW.search(s):
            k = "llama-bench rows without their table header: NOT READ"
        elif s.startswith(("```", "~~~")):
            k = "code fence"
        elif s.startswith("#"):
            k = "heading"
        elif s.startswith("<"):
            k = "html"
        elif _DEVICE.match(s) or s.startswith("Device "):
            k = "device lines"
        elif "llama-" in s or s.startswith(("$", "./", "-m ", "➜")) or "bin/" in s:
            k = "command line"
        elif (
            s.upper().startswith("CREATE TABLE")
            or re.match(r"^[a-z_]+ (TEXT|INTEGER|REAL),?$", s)
            or s == ");"
        ):
            k = "SQL schema"
        elif set(s) <= set("-=*_ "):
            k = "rule"
        else:
            k = "text"
        if k not in kinds:
            kinds.append(k)
    where = f"line {start}" if start == end else f"lines {start}-{end}"
    return f"{where}: skipped ({', '.join(kinds)})"


def _segment_rows(seg: Segment, path: Path) -> list[RawRow]:
    if seg.error:
        json_rows(seg.lines, path)  # raises with the decoder's line
        raise IngestError(f"{path}:{seg.start}: {seg.error}")
    return {"json": json_rows, "jsonl": jsonl_rows, "csv": csv_rows, "sql": sql_rows}[seg.fmt](
        seg.lines, path
    )


def _fork_of(text: str, found: Scan, fork: str | None) -> tuple[str | None, str | None]:
    """(fork name, why) from the caller or the text's markers."""
    if fork:
        return fork, None
    for marker, name in _FORK_MARKERS:
        if marker in text:
            return name, f"'{marker}' in the text"
    for seg in found.segments:
        if seg.table is not None and seg.table.kind == "sweep-bench":
            return "a fork (llama-sweep-bench)", f"llama-sweep-bench table at line {seg.start}"
        at = next((ln for ln, t in seg.lines if re.search(r"tg\s*\d+\s*@\s*pp", t)), None)
        if seg.table is not None and at is not None:
            return "a fork (tgN@ppM tests)", f"tgN@ppM test at line {at}"
    return None, None


def read_llama_bench(
    path: Path,
    text: str,
    fmt: str = "auto",
    build_hint: int | None = None,
    host: str | None = None,
    fork: str | None = None,
) -> Ingested:
    """llama-bench output in ``text`` -> ``benchbook.llama_bench`` records (``fmt`` auto: every piece found;
    json | jsonl | csv | md | sql: only that format).  Sweep-bench and comparison tables give two
    records per row (``markdown.sweep_rows``, ``markdown.compare_rows``).

    Raises:
        IngestError: no output of ``fmt`` in the text (the message names what the text holds and the
            --format to use), or a row that cannot be read (file:line and fix).
    """
    sha = hashlib.sha256(text.encode()).hexdigest()
    found, lines = scan(text)
    whole = text.lstrip()
    if fmt == "json" and whole.startswith(("[", "{")):
        found.segments = [Segment("json", 1, len(lines), list(enumerate(text.splitlines(), 1)))]
        found.skipped = []
    elif fmt == "jsonl" and whole.startswith(("[", "{")):
        found.segments = [Segment("jsonl", 1, len(lines), list(enumerate(text.splitlines(), 1)))]
        found.skipped = []
    elif fmt == "auto" and not found.segments and whole.startswith(("[", "{")):
        kind = "json" if whole.startswith("[") else "jsonl"
        found.segments = [Segment(kind, 1, len(lines), list(enumerate(text.splitlines(), 1)))]
    elif fmt != "auto":
        other = sorted({s.fmt for s in found.segments if s.fmt != fmt})
        found.segments = [s for s in found.segments if s.fmt == fmt]
        if not found.segments:
            why = headerless_table(text) if fmt == "md" else None
            holds = (
                f"it holds {', '.join(other)} output: use --format auto"
                if other
                else why
                or f"fix: check that the file holds llama-bench -o {fmt} output (or use --format auto)"
            )
            raise IngestError(f"{path}: no llama-bench {fmt} output found; {holds}")
    fork, why = _fork_of(text, found, fork)
    out = Ingested([], [])
    if why:
        out.notes.append(f"output of {fork} ({why}): build counters kept as fork_build_number")
    for seg in found.segments:
        if seg.table is None:
            for raw in _segment_rows(seg, path):
                out.records.append(lb_record(raw, path, sha, build_hint, host, fork))
            out.formats.append(seg.fmt)
            continue
        kind = seg.table.kind
        if kind == "other":
            out.skipped.append(
                f"lines {seg.start}-{seg.end}: {describe(seg.table.header)}: not llama-bench output, not read"
            )
            continue
        b = found.build_of(seg, lines)
        build = {"build_commit": b[0], "build_number": b[1]} if b else {}
        if b and build_hint is not None and build_hint != b[1]:
            raise IngestError(
                f"{path}:{seg.start}: --build {build_hint} disagrees with the table's build line "
                f"(build {b[1]}); fix: drop --build (the text states its build)"
            )
        if kind == "llama-bench":
            for raw in llama_bench_rows(seg.table, path, build):
                out.records.append(lb_record(raw, path, sha, build_hint, host, fork))
        elif kind == "sweep-bench":
            for pp, tg in sweep_rows(seg.table, path):
                out.records.append(lb_record(pp, path, sha, build_hint, host, fork, key="pp"))
                out.records.append(lb_record(tg, path, sha, build_hint, host, fork, key="tg"))
        else:
            for group in compare_rows(seg.table, path):
                for raw in group:
                    label = raw.extra["compare"]["label"]
                    out.records.append(lb_record(raw, path, sha, None, host, fork, key=label))
        out.formats.append("md" if kind == "llama-bench" else kind)
    raw_lines = text.splitlines()
    for rec in out.records:
        if rec["source_format"] != "json" and 0 < rec["source_line"] <= len(raw_lines):
            rec["source_text"] = raw_lines[rec["source_line"] - 1][:SOURCE_TEXT_MAX]
    out.skipped = [_describe_skip(lines, a, b) for a, b in found.skipped] + out.skipped
    return out


def ingest_text(
    path: Path,
    text: str,
    fmt: str = "auto",
    build_hint: int | None = None,
    host: str | None = None,
    fork: str | None = None,
) -> Ingested:
    """Records of one text of llama.cpp output (format detected unless ``fmt`` is given): native kinds for
    llama-bench rows and server-log requests, ``benchbook.ingest.speculative_simple`` for
    llama-speculative-simple output.  ``build_hint``: the build number when the source does not print it
    (an error when it disagrees with a build line the source prints); ``host``: a name saying that files
    share a host; ``fork``: the output comes from this fork of llama.cpp.

    Raises:
        IngestError: undetectable format, no rows, or bad content (file:line and the fix).
    """
    if fmt not in ("auto", *FORMATS):
        raise IngestError(f"{path}: unknown format {fmt!r}; known: auto, {', '.join(FORMATS)}")
    if not text.strip():
        raise IngestError(f"{path}: the file is empty (no rows); fix: ingest the file that holds the results")
    if fmt == "auto":
        try:
            fmt = detect_format(text)
        except IngestError as e:
            raise IngestError(f"{path}: {e}") from None
        if fmt in LLAMA_BENCH_FORMATS:
            fmt = "auto"
    if fmt in ("auto", *LLAMA_BENCH_FORMATS):
        got = read_llama_bench(path, text, fmt, build_hint, host, fork)
        if fmt == "auto" and re.search(r"prompt eval time\s*=", text):
            # a paste holding llama-bench output and a server log: both are read, neither is dropped
            requests = read_server_log(path, text, build_hint, host)
            got.records += requests
            got.formats.append("server-log")
            got.notes.append(f"{len(requests)} llama-server request(s) read from the same text")
    elif fmt == "server-log":
        got = Ingested(read_server_log(path, text, build_hint, host), ["server-log"])
    elif fmt == "server-json":
        got = Ingested(read_responses(path, text, host), ["server-json"])
    else:
        got = Ingested(read_speculative_simple(path, text), ["spec-simple"])
    if not got.records:
        skipped = f"; {'; '.join(got.skipped)}" if got.skipped else ""
        raise IngestError(
            f"{path}: {fmt} output with no rows (an empty array, or a header without rows){skipped}; "
            "fix: ingest the file that holds the results"
        )
    return got


def read_source(path: Path) -> tuple[str, str | None]:
    """``(text, how it was decoded or None)`` of a source file: UTF-8 (a leading byte-order mark
    dropped: Windows editors write one), UTF-16 with its byte-order mark (PowerShell's ``>`` redirect
    writes UTF-16 LE); undecodable bytes replaced; line ends ``\r\n`` and ``\r`` read as ``\n`` (as
    ``Path.read_text`` does, so a file's records keep their ``run_id`` whichever way it is read).

    Raises:
        IngestError: ``path`` is a directory or is missing (names it and the fix).
    """
    if path.is_dir():
        raise IngestError(
            f"{path}: is a directory, not a file of llama.cpp output; fix: pass the files in it "
            f"(e.g. benchbook ingest {shlex.quote(str(path))}/*.md)"
        )
    if not path.exists():
        raise IngestError(f"{path}: no such file; fix: check the path")
    data = path.read_bytes()
    text, how = data.decode("utf-8", errors="replace"), None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text, how = data.decode("utf-16", errors="replace"), "read as UTF-16 (byte-order mark)"
    elif data.startswith(b"\xef\xbb\xbf"):
        text, how = data[3:].decode("utf-8", errors="replace"), "read as UTF-8 (byte-order mark dropped)"
    elif data[:200].count(0) > len(data[:200]) // 4:
        raise IngestError(
            f"{path}: NUL bytes in every other position: UTF-16 without a byte-order mark; fix: convert it "
            "to UTF-8 (PowerShell: Get-Content FILE | Set-Content -Encoding utf8 OUT)"
        )
    return text.replace("\r\n", "\n").replace("\r", "\n"), how


def ingest_file(
    path: str | Path,
    fmt: str = "auto",
    build_hint: int | None = None,
    host: str | None = None,
    fork: str | None = None,
) -> list[dict]:
    """The records of ``ingest_text`` on the file ``path`` (decoded by ``read_source``).

    Raises:
        IngestError: see ``ingest_text`` and ``read_source``.
    """
    path = Path(path)
    return ingest_text(path, read_source(path)[0], fmt, build_hint, host, fork).records


def summary(records: list[dict]) -> str:
    """One line per file for the CLI: counts per schema and version, format and build, then the
    llama-bench field sets with their lines and what they mean (``fieldsets.field_sets``), so a file
    mixing versions, builds or field sets says so."""
    kinds = Counter(f"{r['schema']} v{r['schema_version']}" for r in records)
    parts = [", ".join(f"{n} {k}" for k, n in kinds.items()) + " record(s)"]
    fmts = Counter(r.get("source_format") for r in records)
    parts.append("formats " + ", ".join(f"{k}: {n}" for k, n in fmts.items()))
    builds = Counter((r.get("llama_bench") or {}).get("build_number", r.get("build_number")) for r in records)
    parts.append("builds " + ", ".join(f"{'unknown' if k is None else k}: {n}" for k, n in builds.items()))
    sets = field_sets(records)
    return "; ".join(parts) + (f" | {sets}" if sets else "")

"""Find llama.cpp output anywhere in a pasted text: markdown tables (with their header), CSV with
llama-bench's header, a JSON array, JSON lines, SQL ``INSERT INTO llama_bench|test`` statements and
build lines; everything else (device lines, command lines, code fences, headings, prose, ``CREATE
TABLE``) is skipped and listed (``Scan.skipped``).

Lines are normalised first (``normalise``): a reply quote ``> `` and a diff's ``+`` in front of output
are dropped, and ``Â±`` (± read as Latin-1) is read as ``±``.

Build lines: llama-bench prints ``build: <commit> (<number>)`` after its table; pastes also put one
before (``build: abc1234 (1000)``, ``llama.cpp build abc1234 (1000)``), and llama-server / llama-cli
print ``build: <number> (<commit>) with <compiler> ...`` or ``version: <number> (<commit>)``.
``build_of`` gives each table the build line printed right after it (only blank lines or a fence
between), else the last earlier build line not claimed by an earlier table.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field

from .markdown import Table, is_separator

#: CSV header fields that mark llama-bench's CSV (any two)
CSV_MARKERS = ("build_commit", "n_prompt", "n_gen", "avg_ts", "model_type", "test_time")
_BUILD = re.compile(
    r"^\s*(?:llama\.cpp\s+)?(?:build|version)\s*:?\s*`?([0-9a-zA-Z]+)`?\s*\(\s*`?([0-9a-zA-Z]+)`?\s*\)(.*)$"
)
_INSERT = re.compile(r"^\s*INSERT INTO (llama_bench|test)\s*\(", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(```|~~~)")


def normalise(line: str) -> str:
    """A pasted line without reply-quote / diff prefixes, ``Â±`` read as ``±`` (module doc)."""
    if not line or line.isspace():  # as it is: three patterns per blank line of a long paste
        return line
    s = re.sub(r"^\s*(?:>\s?)+", "", line)
    m = re.match(r"^\+(?!\+)\s?(.*)$", s)
    if m and re.match(r"\s*(\||\{|\[|\]|\}|INSERT|build|\"|[a-z_]+,)", m.group(1)):
        s = m.group(1)
    return s.replace("Â±", "±")


def parse_build(line: str) -> tuple[str | None, int] | None:
    """(commit, number) of a build line (module doc), or None.  ``build: X (Y)``: llama-bench puts the
    commit first, llama-server (``... with <compiler>``) and ``version:`` the number first."""
    m = _BUILD.match(line)
    if not m:
        return None
    a, b, rest = m.group(1), m.group(2), m.group(3)
    number_first = " with " in rest or line.strip().lower().startswith("version")
    if not number_first and not b.isdecimal() and a.isdecimal():
        number_first = True
    number, commit = (a, b) if number_first else (b, a)
    if not number.isdecimal():
        return None
    return (None if commit == "unknown" else commit), int(number)


@dataclass
class Segment:
    """One piece of output found in a text: ``fmt`` (md | csv | json | jsonl | sql), 1-based
    ``start``..``end`` lines, the lines themselves, and for md the ``table``."""

    fmt: str
    start: int
    end: int
    lines: list[tuple[int, str]]
    table: Table | None = None
    error: str | None = None


@dataclass
class Scan:
    """Output found in a text: ``segments`` in order, ``builds`` (line, commit, number) and
    ``skipped`` line ranges (start, end) that hold none."""

    segments: list[Segment] = field(default_factory=list)
    builds: list[tuple[int, str | None, int]] = field(default_factory=list)
    skipped: list[tuple[int, int]] = field(default_factory=list)
    #: segment start -> ``build_of_following`` of it, filled on the first ``build_of`` (each segment's
    #: asked once: asking every earlier segment's again per segment was cubic in a long paste)
    _following: dict[int, int | None] = field(default_factory=dict, repr=False, compare=False)

    def build_of(self, seg: Segment, lines: list[str]) -> tuple[str | None, int] | None:
        """The build (commit, number) of ``seg`` (module doc), or None."""
        if not self._following:
            starts = sorted(s.start for s in self.segments)
            for s in self.segments:
                k = bisect.bisect_right(starts, s.end)
                nxt = starts[k] if k < len(starts) else len(lines) + 1
                self._following[s.start] = self._build_between(s, nxt, lines)
        ln = (
            self._following[seg.start]
            if seg.start in self._following
            else self.build_of_following(seg, lines)
        )
        if ln is not None:
            return next((c, num) for at, c, num in self.builds if at == ln)
        claimed = {f for start, f in self._following.items() if start < seg.start}
        earlier = [b for b in self.builds if b[0] < seg.start and b[0] not in claimed]
        return (earlier[-1][1], earlier[-1][2]) if earlier else None

    def build_of_following(self, seg: Segment, lines: list[str]) -> int | None:
        """Line of the build line printed right after ``seg``, or None."""
        nxt = min((s.start for s in self.segments if s.start > seg.end), default=len(lines) + 1)
        return self._build_between(seg, nxt, lines)

    def _build_between(self, seg: Segment, nxt: int, lines: list[str]) -> int | None:
        """Line of the first build line after ``seg`` and before line ``nxt`` (the next segment's
        start), where only blank lines, fences or closing tags lie between; None otherwise."""
        for ln, _, _ in self.builds:
            if seg.end < ln < nxt:
                between = lines[seg.end : ln - 1]
                if all(not t.strip() or _FENCE.match(t) or t.strip().startswith("</") for t in between):
                    return ln
                return None
        return None


def _is_csv_header(s: str) -> bool:
    names = [c.strip().strip('"') for c in s.split(",")]
    return len(names) >= 4 and sum(m in names for m in CSV_MARKERS) >= 2


def _json_end(text_lines: list[str], i: int) -> tuple[int, object] | None:
    """(last line index, value) of the JSON value starting on line ``i``, or None when it does not
    decode."""
    joined = "\n".join(text_lines[i:])
    lead = len(joined) - len(joined.lstrip())
    try:
        value, end = json.JSONDecoder().raw_decode(joined, lead)
    except ValueError:
        return None
    return i + joined[:end].count("\n"), value


def _looks_llama_bench(obj) -> bool:
    return isinstance(obj, dict) and ("n_prompt" in obj or "avg_ts" in obj or "samples_ns" in obj)


def scan(text: str) -> tuple[Scan, list[str]]:
    """The output segments, build lines and skipped ranges of ``text`` and its normalised lines."""
    lines = [normalise(t) for t in text.splitlines()]
    out = Scan()
    used: set[int] = set()
    i, n = 0, len(lines)
    while i < n:
        s = lines[i].strip()
        if not s:  # no output starts on a blank line, and it is no build line
            i += 1
            continue
        seg = None
        if "|" in s and i + 1 < n and is_separator(lines[i + 1]) and not is_separator(lines[i]):
            j = i + 2
            while j < n and "|" in lines[j] and lines[j].strip() and not is_separator(lines[j]):
                if j + 1 < n and is_separator(lines[j + 1]):
                    break  # a header: the next table starts here (pasted without a blank line between)
                j += 1
            rows = [(k + 1, lines[k]) for k in range(i, j)]
            seg = Segment("md", i + 1, j, rows, Table(rows))
        elif _INSERT.match(s):
            j = i
            while j < n and (_INSERT.match(lines[j]) or not lines[j].strip()) and not _FENCE.match(lines[j]):
                j += 1
            while j > i and not lines[j - 1].strip():
                j -= 1
            seg = Segment("sql", i + 1, j, [(k + 1, lines[k]) for k in range(i, j) if lines[k].strip()])
        elif s.startswith("[") and (s == "[" or s.startswith("[{") or s.startswith("[ {")):
            got = _json_end(lines, i)
            if got is not None and isinstance(got[1], list) and any(_looks_llama_bench(o) for o in got[1]):
                end, _ = got
                seg = Segment("json", i + 1, end + 1, [(k + 1, lines[k]) for k in range(i, end + 1)])
            elif got is None and any(re.search(r'"(n_prompt|avg_ts)"', t) for t in lines[i : i + 80]):
                seg = Segment(
                    "json",
                    i + 1,
                    n,
                    [(k + 1, lines[k]) for k in range(i, n)],
                    error="a JSON array of llama-bench rows that does not decode",
                )
        elif s.startswith("{"):
            j = i
            while j < n:
                t = lines[j].strip()
                try:
                    obj = json.loads(t) if t.startswith("{") else None
                except ValueError:
                    obj = None
                torn = obj is None and t.startswith("{") and re.search(r'"(n_prompt|avg_ts|build_commit)"', t)
                if not _looks_llama_bench(obj) and not torn:
                    break
                j += 1  # a torn line is kept: jsonl_rows names it (never a silent loss)
            if j > i:
                seg = Segment("jsonl", i + 1, j, [(k + 1, lines[k]) for k in range(i, j)])
        elif _is_csv_header(s):
            j = i + 1
            while j < n and lines[j].strip() and "," in lines[j] and not _FENCE.match(lines[j]):
                j += 1
            if j > i + 1:
                seg = Segment("csv", i + 1, j, [(k + 1, lines[k]) for k in range(i, j)])
        if seg is not None:
            out.segments.append(seg)
            used.update(range(seg.start, seg.end + 1))
            i = seg.end
            continue
        b = parse_build(lines[i])
        if b is not None:
            out.builds.append((i + 1, b[0], b[1]))
            used.add(i + 1)
        i += 1
    start = None
    for k in range(1, n + 2):
        gap = k <= n and k not in used and lines[k - 1].strip() != ""
        if gap and start is None:
            start = k
        elif not gap and start is not None and (k > n or k in used):
            last = k - 1
            while last > start and not lines[last - 1].strip():
                last -= 1
            out.skipped.append((start, last))
            start = None
    return out, lines

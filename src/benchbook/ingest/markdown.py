"""Markdown tables of llama.cpp tools -> ``RawRow``s: llama-bench (``-o md``), llama-sweep-bench (a
fork's tool: ``PP | TG | N_KV | T_PP s | S_PP t/s | T_TG s | S_TG t/s``) and compare-llama-bench (two
or more ``t/s`` columns and a ``Speedup`` column).  Any other table is not read (``table_kind`` says
what it is; the caller skips it with a note).

llama-bench's markdown shows only the columns that differ from defaults, under display names
(``ngl``, ``fa``, ``ot``...: ``get_field_display_name`` in ``tools/llama-bench/llama-bench.cpp``); a
column it omits stays unknown.  Spellings read, across years and forks:

* tests ``pp512``, ``tg128``, ``pp512+tg128``, ``pp512 @ d1024`` and, before early 2024, ``pp 512`` /
  ``tg 128``; a fork's ``tg64@pp512`` (64 tokens generated with 512 already in the cache: n_gen 64,
  n_depth 512, noted);
* ``t/s`` cells ``mean ± sd``, ``mean +/- sd``, ``mean _ sd`` (a mangled ±), ``mean Â± sd`` (± read as
  Latin-1) and a bare ``mean`` (sd unknown);
* tables with or without outer pipes (``a | b`` over ``-- | --``, copied from a rendered page);
* blank cells ("same as above"): filled from the row above (configuration columns only, never the
  measured ``t/s``) and noted in the record;
* cells of override columns (``ot``, ``ts``, ``dev``, ``cpu_mask``) may hold an unescaped ``|``: a row
  with too many cells is re-joined into them.

Markdown carries no ``samples_ns``: rows keep ``avg_ts``/``stddev_ts`` as stated (n unknown).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from .common import IngestError, RawRow, refuse_duplicates

#: llama-bench markdown display names -> field names (llama-bench.cpp ``get_field_display_name``;
#: ``mmap`` is the display name of ``use_mmap`` in builds before ``load_mode``).
MD_NAMES = {
    "ngl": "n_gpu_layers",
    "sm": "split_mode",
    "threads": "n_threads",
    "nkvo": "no_kv_offload",
    "fa": "flash_attn",
    "lm": "load_mode",
    "mmap": "use_mmap",
    "embd": "embeddings",
    "nopo": "no_op_offload",
    "noh": "no_host",
    "rpk": "repack",
    "dev": "devices",
    "ts": "tensor_split",
    "ot": "tensor_buft_overrides",
    "fitt": "fit_target",
    "fitc": "fit_min_ctx",
    "n_cpu_moe": "n_cpu_moe",
    "ncmoe": "n_cpu_moe",
}
#: columns whose cells may hold an unescaped "|" (regexes, device lists)
PIPE_COLUMNS = ("ot", "ts", "dev", "cpu_mask")
#: columns that are measurements: never filled from the row above
MEASURED = ("t/s",)
_SEP = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$")
_TS = re.compile(r"\s*([\d.]+)\s*(?:(?:±|\+/-|\+-|_)\s*([\d.]+))?\s*")
_TEST = re.compile(r"\s*(?:pp\s*(\d+))?\s*\+?\s*(?:tg\s*(\d+))?\s*(?:@\s*d\s*(\d+))?\s*")
_FORK_TEST = re.compile(r"\s*tg\s*(\d+)\s*@\s*pp\s*(\d+)\s*")


def is_separator(line: str) -> bool:
    """A markdown header separator line (``|---|:--:|``, ``-- | --``)."""
    return bool(_SEP.match(line))


def split_cells(line: str) -> list[str]:
    """Cells of a table line, outer pipes optional.  Cells are split on ``" | "`` (llama-bench pads
    every cell), so a regex like ``(0|1)`` inside a cell stays whole; a line without padding is split
    on every unescaped ``|``."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells = s.split(" | ")
    if len(cells) == 1 or any("|" in c and not re.search(r"\(.*\|.*\)|\\\|", c) for c in cells):
        cells = re.split(r"(?<!\\)\|", s)
    return [c.strip() for c in cells]


def table_kind(header: list[str]) -> str:
    """llama-bench | sweep-bench | compare | other, from a table's header cells."""
    low = [h.strip().lower() for h in header]
    ts_cols = [h for h in low if h.startswith("t/s")]
    if len(ts_cols) >= 2 and any(h.startswith("speedup") for h in low):
        return "compare"
    if {"pp", "tg", "n_kv"} <= set(low) and "s_pp t/s" in low and "s_tg t/s" in low and "b" not in low:
        return "sweep-bench"
    if "t/s" in low and ("test" in low or {"n_prompt", "n_gen"} <= set(low)):
        return "llama-bench"
    return "other"


def describe(header: list[str]) -> str:
    """A short name of a table that is not read (the skip note says it)."""
    low = {h.strip().lower() for h in header}
    if {"pp", "tg", "b", "n_kv"} <= low:
        return "llama-batched-bench table"
    return "table with columns " + ", ".join(header[:6]) + (" ..." if len(header) > 6 else "")


def parse_test(cell: str) -> tuple[dict, str | None]:
    """n_prompt / n_gen / n_depth of a test cell and a note for a fork's spelling.

    Raises:
        ValueError: the cell is none of the spellings (module doc).
    """
    m = _FORK_TEST.fullmatch(cell)
    if m:
        n_gen, depth = int(m.group(1)), int(m.group(2))
        note = f"test {cell.strip()!r} (a fork's spelling) read as n_gen {n_gen} at depth {depth}"
        return {"n_prompt": 0, "n_gen": n_gen, "n_depth": depth}, note
    m = _TEST.fullmatch(cell)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(cell)
    return {
        "n_prompt": int(m.group(1) or 0),
        "n_gen": int(m.group(2) or 0),
        "n_depth": int(m.group(3) or 0),
    }, None


def parse_ts(cell: str) -> tuple[float, float | None]:
    """(mean, sd) of a t/s cell (module doc: ±, +/-, _, Â±, bare mean).

    Raises:
        ValueError: not a number.
    """
    m = _TS.fullmatch(cell.replace("Â±", "±"))
    if not m:
        raise ValueError(cell)
    return float(m.group(1)), float(m.group(2)) if m.group(2) else None


def _finite(text: str) -> float | None:
    """``float(text)``, or None for no number ("1.2.3") or one past a float's range (400 digits)."""
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def parse_size(cell: str) -> int | None:
    """llama-bench's size cell in bytes ("3.56 GiB" -> 3822520893); None where unreadable."""
    m = re.fullmatch(r"\s*([\d.]+)\s*(KiB|MiB|GiB|TiB)\s*", cell)
    v = _finite(m.group(1)) if m else None
    if m is None or v is None or not math.isfinite(v * 2**40):
        return None
    return int(round(v * {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}[m.group(2)]))


def parse_params(cell: str) -> int | None:
    """llama-bench's params cell ("6.74 B" -> 6740000000); None where unreadable."""
    m = re.fullmatch(r"\s*([\d.]+)\s*([KMBT]?)\s*", cell)
    v = _finite(m.group(1)) if m else None
    if m is None or v is None or not math.isfinite(v * 1e12):
        return None
    return int(round(v * {"": 1, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}[m.group(2)]))


@dataclass
class Table:
    """One markdown table of a text: ``lines`` = (1-based line, normalised text) from the header on."""

    lines: list[tuple[int, str]]

    @property
    def header(self) -> list[str]:
        return split_cells(self.lines[0][1])

    @property
    def start(self) -> int:
        return self.lines[0][0]

    @property
    def end(self) -> int:
        return self.lines[-1][0]

    @property
    def kind(self) -> str:
        return table_kind(self.header)


def _cells(path: Path, line: int, text: str, header: list[str]) -> list[str]:
    cells = split_cells(text)
    if len(cells) > len(header):
        extra = len(cells) - len(header)
        j = next((header.index(c) for c in PIPE_COLUMNS if c in header), None)
        if j is None:
            raise IngestError(
                f"{path}:{line}: {len(cells)} cells for {len(header)} columns and no override "
                f"column ({', '.join(PIPE_COLUMNS)}) that may hold a '|'; fix: if a cell holds a '|', "
                "escape it as '\\|'; if the row belongs to another table, put that table's header and "
                "separator line above it; else drop the extra cell"
            )
        cells = cells[:j] + [" | ".join(cells[j : j + extra + 1])] + cells[j + extra + 1 :]
    if len(cells) != len(header):
        raise IngestError(
            f"{path}:{line}: {len(cells)} cells for {len(header)} columns; a value would be read from the "
            "wrong column; fix: write every cell of the row (a blank cell keeps its '|' on both sides)"
        )
    return cells


def _filled(cells: list[str], header: list[str], above: list[str] | None, path: Path, line: int):
    """Blank configuration cells filled from the row above; returns (cells, names filled)."""
    blank = [i for i, c in enumerate(cells) if c == ""]
    if not blank:
        return cells, []
    measured = [
        header[i] for i in blank if header[i].lower() in MEASURED or header[i].lower().startswith("t/s")
    ]
    if measured:
        raise IngestError(f"{path}:{line}: the measured column {measured[0]!r} is blank; fix: drop this row")
    if above is None:
        raise IngestError(
            f"{path}:{line}: blank cell(s) {[header[i] for i in blank]} in the first row, nothing above "
            "to fill them from; fix: write the values"
        )
    return [above[i] if c == "" else c for i, c in enumerate(cells)], [header[i] for i in blank]


def llama_bench_rows(table: Table, path: Path, build: dict) -> list[RawRow]:
    """Rows of a llama-bench table; ``build``: build_commit / build_number of its build line (or {}).

    Raises:
        IngestError: a row with the wrong number of cells, a test or t/s cell that is none of the
            spellings, or a blank measured cell (file:line).
    """
    header = table.header
    names = [
        {"model": "model_type", "size": "model_size", "params": "model_n_params", "backend": "backends"}.get(
            h.lower(), h.lower() if h.lower() in ("test", "t/s") else MD_NAMES.get(h, h)
        )
        for h in header
    ]
    refuse_duplicates(names, path, table.start, "the table header")
    out: list[RawRow] = []
    above: list[str] | None = None
    for line, text in table.lines[2:]:
        cells, filled = _filled(_cells(path, line, text, header), header, above, path, line)
        above = cells
        raw = RawRow(dict(build), line, "md", text)
        if filled:
            raw.notes.append(f"blank cells {filled} filled from the row above (line {line - 1})")
        for h, c in zip(header, cells, strict=True):
            low = h.lower()
            if low == "model":
                raw.fields["model_type"] = c
            elif low == "size":
                raw.fields["model_size"] = parse_size(c)
            elif low == "params":
                raw.fields["model_n_params"] = parse_params(c)
            elif low == "backend":
                raw.fields["backends"] = c
            elif low == "test":
                try:
                    got, note = parse_test(c)
                except ValueError:
                    raise IngestError(
                        f"{path}:{line}: test cell {c!r} is not ppN, tgN, ppN+tgN, 'pp N', '@ dN' or tgN@ppM"
                    ) from None
                raw.fields.update(got)
                if note:
                    raw.notes.append(note)
            elif low == "t/s":
                try:
                    raw.fields["avg_ts"], sd = parse_ts(c)
                except ValueError:
                    raise IngestError(f"{path}:{line}: t/s cell {c!r} is not 'mean ± sd'") from None
                if sd is not None:
                    raw.fields["stddev_ts"] = sd
            else:
                name = MD_NAMES.get(h, h)
                raw.fields[name] = c
        out.append(raw)
    return out


def _num(cell: str) -> float:
    return float(cell.split("±")[0].strip())


def sweep_rows(table: Table, path: Path) -> list[tuple[RawRow, RawRow]]:
    """(prefill, generation) row pairs of a llama-sweep-bench table: ``PP`` tokens processed with
    ``N_KV`` already in the cache at ``S_PP`` t/s, then ``TG`` generated at ``S_TG`` t/s; each a
    llama-bench-shaped row (n_prompt/n_gen/n_depth/avg_ts, one run: no sd).  ``S_PP`` is checked
    against ``PP / T_PP`` and ``S_TG`` against ``TG / T_TG`` within the printed rounding
    (disagreement flagged in ``inconsistent``).

    Raises:
        IngestError: a cell that is not a number, a row with more or fewer cells than the header, a
            negative count or time, a rate not > 0, or a header naming a column twice (file:line).
    """
    refuse_duplicates([h.strip().lower() for h in table.header], path, table.start, "the table header")
    idx = {h.strip().lower(): i for i, h in enumerate(table.header)}
    out = []
    for line, text in table.lines[2:]:
        cells = split_cells(text)
        if len(cells) != len(table.header):
            raise IngestError(
                f"{path}:{line}: {len(cells)} cells for {len(table.header)} columns of the sweep-bench "
                "header; a cell would be dropped or read from the wrong column; fix: correct or drop this row"
            )
        try:
            pp, tg, n_kv = (int(cells[idx[k]]) for k in ("pp", "tg", "n_kv"))
            t_pp, s_pp = float(cells[idx["t_pp s"]]), float(cells[idx["s_pp t/s"]])
            t_tg, s_tg = float(cells[idx["t_tg s"]]), float(cells[idx["s_tg t/s"]])
        except (ValueError, IndexError, KeyError):
            raise IngestError(f"{path}:{line}: sweep-bench row {text.strip()!r} is not numbers") from None
        bad = [
            f"{k} {v}"
            for k, v in (("PP", pp), ("TG", tg), ("N_KV", n_kv), ("T_PP s", t_pp), ("T_TG s", t_tg))
            if v < 0
        ] + [f"{k} {v}" for k, v in (("S_PP t/s", s_pp), ("S_TG t/s", s_tg)) if not v > 0]
        if bad or not (pp > 0 and tg > 0):
            what = ", ".join(bad) or f"PP {pp}, TG {tg} (no tokens)"
            raise IngestError(
                f"{path}:{line}: sweep-bench row with {what}: counts and times must be >= 0 and rates > 0; "
                "fix: correct or drop this row"
            )
        pair = []
        for n_p, n_g, t_s, rate, what in ((pp, 0, t_pp, s_pp, "S_PP"), (0, tg, t_tg, s_tg, "S_TG")):
            raw = RawRow(
                {"n_prompt": n_p, "n_gen": n_g, "n_depth": n_kv, "avg_ts": rate, "build_commit": None},
                line,
                "sweep-bench",
                text,
                uninterpreted={"tool": "llama-sweep-bench", f"T_{what[2:]} s": t_s},
            )
            tokens = n_p + n_g
            # T is printed to 3 decimals: the true time lies within +-0.0005 s of it (0.000 included)
            lo = tokens / (t_s + 0.0005) - 0.005
            hi = tokens / (t_s - 0.0005) + 0.005 if t_s > 0.0005 else math.inf
            if not lo <= rate <= hi:
                took = f"{tokens / t_s:.2f} t/s" if t_s > 0 else f"at least {lo:.0f} t/s"
                raw.inconsistent.append(
                    f"{what} {rate} t/s disagrees with {tokens} tokens / {t_s} s = {took}"
                )
            pair.append(raw)
        out.append((pair[0], pair[1]))
    return out


def compare_rows(table: Table, path: Path) -> list[list[RawRow]]:
    """Per row of a comparison table (compare-llama-bench, or a hand-made one of its shape): one
    llama-bench-shaped row per ``t/s <label>`` column, each with ``compare`` = labels, its label, the
    stated ``Speedup`` (last ÷ first) and the recomputed one; a stated ratio that disagrees with its
    two values beyond the printed rounding is flagged in ``inconsistent``.

    Raises:
        IngestError: a t/s or test cell that cannot be read, a t/s value that is not > 0, or a header
            naming a column twice (file:line).
    """
    header = table.header
    low = [h.strip().lower() for h in header]
    refuse_duplicates(low, path, table.start, "the comparison table's header")
    ts_idx = [i for i, h in enumerate(low) if h.startswith("t/s")]
    labels = [re.sub(r"^t/s\s*", "", header[i].strip()).strip("() ") or f"column {i + 1}" for i in ts_idx]
    refuse_duplicates([f"t/s {x}" for x in labels], path, table.start, "the comparison table's header")
    sp_idx = next(i for i, h in enumerate(low) if h.startswith("speedup"))
    out = []
    for line, text in table.lines[2:]:
        cells = _cells(path, line, text, header)
        base: dict = {"build_commit": None}
        unread: dict = {}
        for i, (h, c) in enumerate(zip(low, cells, strict=True)):
            if i in ts_idx or i == sp_idx:
                continue
            if h == "test":
                try:
                    got, _ = parse_test(c)
                except ValueError:
                    raise IngestError(f"{path}:{line}: test cell {c!r} is not ppN, tgN or ppN+tgN") from None
                base.update(got)
            elif h == "model":
                base["model_type"] = c
            elif h == "gpu":
                base["gpu_info"] = c
            elif h == "cpu":
                base["cpu_info"] = c
            elif h == "backend":
                base["backends"] = c
            elif h in ("threads", "n_threads"):
                base["n_threads"] = c
            elif h.startswith("model size"):
                unread[header[i]] = c
            else:
                base[MD_NAMES.get(h, h)] = c
        try:
            values = [parse_ts(cells[i]) for i in ts_idx]
            stated = float(cells[sp_idx])
        except ValueError:
            raise IngestError(
                f"{path}:{line}: comparison row {text.strip()!r}: t/s or Speedup not a number"
            ) from None
        for label, (mean, _) in zip(labels, values, strict=True):
            if not (math.isfinite(mean) and mean > 0):
                raise IngestError(
                    f"{path}:{line}: column 't/s {label}' is {mean}, not a rate > 0 tok/s (a speedup "
                    "cannot be formed from it); fix: correct or drop this row"
                )
        recomputed = values[-1][0] / values[0][0]
        digits = len(cells[sp_idx].strip().split(".")[1]) if "." in cells[sp_idx] else 0
        ok = abs(stated - recomputed) <= 0.5 * 10**-digits + 1e-9 + recomputed * 0.005
        group = []
        for label, (mean, sd) in zip(labels, values, strict=True):
            # the label is part of the row: two columns (two builds or branches) never pool
            fields = {**base, "avg_ts": mean, "compare_label": label}
            raw = RawRow(fields, line, "compare", text, uninterpreted=dict(unread))
            if sd is not None:
                raw.fields["stddev_ts"] = sd
            raw.extra["compare"] = {
                "labels": labels,
                "label": label,
                "speedup_stated": stated,
                "speedup_recomputed": recomputed,
            }
            raw.notes.append(f"comparison table: value of column 't/s {label}'")
            if not ok:
                raw.inconsistent.append(
                    f"Speedup {stated} disagrees with {values[-1][0]} / {values[0][0]} = {recomputed:.3f}"
                )
            group.append(raw)
        out.append(group)
    return out

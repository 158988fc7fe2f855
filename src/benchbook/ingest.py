"""Ingest someone else's raw output into benchbook records (``benchbook ingest``).

Ingested = native: the readers produce the record kinds our own runners write (``benchbook.schemas``),
so every analysis and caveat applies to them.

* llama-bench ``-o json | jsonl | csv | md | sql`` -> ``benchbook.llama_bench`` v2, one record per
  row, the row (typed) under ``llama_bench``.  The format is detected from the content
  (``detect_format``).  Rows of builds before ``load_mode``/``backends`` (``use_mmap``, per-backend
  booleans, boolean ``flash_attn``) are brought to b11434's names and types by
  ``migrations.legacy_llama_bench_row`` and say so in ``llama_bench_fields`` (1); ``flash_attn`` is
  always b11434's int (1 on, 0 off, -1 auto).  Markdown shows only the columns that differ from
  defaults, under display names (``ngl``, ``fa``, ``ot``, ...: ``get_field_display_name`` in
  ``tools/llama-bench/llama-bench.cpp``); cells of override columns (``ot``, ``ts``, ``dev``) may contain
  an unescaped ``|``, so a row with too many cells is re-joined into them.  Markdown and CSV carry no
  ``samples_ns``: those rows keep ``avg_ts``/``stddev_ts`` as stated (n unknown; no samples invented).
* llama-server log timing lines -> ``benchbook.speculative_request`` v2, one record per request:
  ``prompt eval time = X ms / N tokens``, ``eval time = ...``, ``total time = ...`` and the draft
  line in both wordings: b11434 ``draft acceptance = 1.00000 (   23 accepted /    23 generated),
  mean len =  3.88`` (tools/server/server-context.cpp) and older ``draft acceptance rate = 0.57576
  (   19 accepted /    33 generated)``; with or without the ``slot print_timing: id N | task M |``
  prefix and the timestamp prefix of recent builds.  Values go under ``timings`` with the server's
  JSON names (``prompt_n``, ``prompt_ms``, ``predicted_n``, ``predicted_ms``, ``draft_n``,
  ``draft_n_accepted``); ``verify_steps`` = accepted ÷ (mean len − 1), rounded (the server's
  ``mean len`` is tokens per verify step, its own token counted), when the log states mean len.
  The prompt's length comes from ``stop processing: n_tokens = N`` (default verbosity) or the trace
  line ``new prompt, ... task.n_tokens = N``; with it ``timings.cache_n`` = length − ``prompt_n``
  (prompt tokens served from the prompt cache; ``_cache_n_from_log``), unknown without it.
* ``llama-speculative-simple`` output -> ``benchbook.ingest.speculative_simple`` (no runner of ours
  writes that summary).  Its ``n_draft`` line prints the *configured maximum*
  (``params_spec.draft.n_max``), not a count: it is stored as ``n_draft_max``; the count of drafted
  tokens is ``n_drafted``.

What the source does not state is unknown (``schemas.unknown``): ``host_id``, ``session_id``,
``toolchain_id`` and ``model_sha256`` hold ``unknown:<group>``, the group being the source file's
sha256[:16], so unknown never pools across files; ``host`` (``--host NAME``) says that several files
share a host (their ``host_id`` is ``unknown:NAME``; sessions stay per file).  ``origin`` is
``ingested:<sha256 of the file>`` and ``source_file``/``source_line``/``source_format``/``source_sha256``
point into it.  ``benchbook ingest`` writes under ``data/external/<group>/`` by default, apart from
our own measurements (``data/raw``, which it refuses), so no report of the project reads them.

Errors name file:line and the fix (``IngestError``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
from pathlib import Path
from typing import Any

from .migrations import flash_attn_int, legacy_llama_bench_row
from .records import RecordWriter, stable_hash, utc_now
from .schemas import SchemaError, build, unknown

LB_SCHEMA = "benchbook.llama_bench"
SERVER_SCHEMA = "benchbook.speculative_request"
SPEC_SCHEMA = "benchbook.ingest.speculative_simple"
#: where ``benchbook ingest`` writes by default (relative to the project root): one folder per group
EXTERNAL_DIR = Path("data/external")

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
INT_FIELDS = {
    "build_number",
    "n_batch",
    "n_ubatch",
    "n_threads",
    "poll",
    "model_size",
    "model_n_params",
    "n_gpu_layers",
    "main_gpu",
    "n_prompt",
    "n_gen",
    "n_depth",
    "avg_ns",
    "stddev_ns",
    "no_op_offload",
    "n_cpu_moe",
    "fit_target",
    "fit_min_ctx",
}
FLOAT_FIELDS = {"avg_ts", "stddev_ts"}
BOOL_FIELDS = {
    "no_kv_offload",
    "cpu_strict",
    "embeddings",
    "no_host",
    "repack",
    "use_mmap",
    "f16_kv",
    "cuda",
    "vulkan",
    "kompute",
    "metal",
    "sycl",
    "rpc",
    "gpu_blas",
    "blas",
}
V1_MARKERS = {"use_mmap", "cuda", "vulkan", "kompute", "metal", "sycl", "gpu_blas", "blas"}


class IngestError(ValueError):
    """Input that cannot be ingested; the message names file:line and the fix."""


def detect_format(text: str) -> str:
    """Format of a llama.cpp output text: json | jsonl | csv | md | sql | server-log | spec-simple.

    Raises:
        IngestError: none matches (the message lists what was looked for).
    """
    s = text.lstrip()
    if "INSERT INTO llama_bench" in text:
        return "sql"
    if s.startswith("["):
        return "json"
    if s.startswith("{"):
        return "jsonl"
    if s.startswith("|"):
        return "md"
    first = s.splitlines()[0] if s else ""
    if "," in first and ("n_prompt" in first or "avg_ts" in first):
        return "csv"
    if re.search(r"\bn_drafted\s*=", text) and re.search(r"\bn_accept\s*=", text):
        return "spec-simple"
    if re.search(r"prompt eval time\s*=", text):
        return "server-log"
    raise IngestError(
        "cannot detect the format: expected llama-bench json/jsonl/csv/md/sql output, a llama-server "
        "log with 'prompt eval time' lines, or llama-speculative-simple output with n_drafted/n_accept; "
        "fix: pass --format"
    )


def field_version(fields: set[str], build_hint: int | None = None) -> int:
    """llama-bench field-set version from the fields present: 1 (``use_mmap``/per-backend booleans),
    2 (``load_mode``/``backends``).  With neither (a markdown table of defaults) the build number
    decides when given (``load_mode`` appeared long before b11434; < 6000 is taken as v1), else 2."""
    if fields & V1_MARKERS:
        return 1
    if {"load_mode", "backends"} & fields:
        return 2
    if build_hint is not None and build_hint < 6000:
        return 1
    return 2


def _typed(field: str, v):
    if v is None:
        return None
    if isinstance(v, str):
        v = v.strip()
        if field in INT_FIELDS:
            try:
                return int(v)
            except ValueError:
                return int(float(v))
        if field in FLOAT_FIELDS:
            return float(v)
        if field in BOOL_FIELDS:
            return v.lower() in ("1", "true", "yes")
    return v


def _nonfinite(obj, prefix: str = "") -> list[str]:
    """Dotted paths of the NaN/inf floats in ``obj`` (dicts and lists, recursively)."""
    if isinstance(obj, float):
        return [] if math.isfinite(obj) else [prefix]
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _nonfinite(v, f"{prefix}.{k}" if prefix else str(k))]
    if isinstance(obj, (list, tuple)):
        return [p for i, v in enumerate(obj) for p in _nonfinite(v, f"{prefix}[{i}]")]
    return []


def _sample(x):
    """One ``samples_ns`` element as an int, or None when it is not an integer number of ns."""
    if isinstance(x, bool):
        return None
    if isinstance(x, str):
        try:
            x = int(x.strip())
        except ValueError:
            try:
                x = float(x.strip())
            except ValueError:
                return None
    if isinstance(x, float):
        return int(x) if math.isfinite(x) and x.is_integer() else None
    return x if isinstance(x, int) else None


def _check_lb_values(row: dict, path: Path, line: int) -> None:
    """avg_ts a finite rate > 0, samples_ns (when present) a non-empty list of integer ns > 0, no
    NaN/inf in any field; raises IngestError naming file:line and the field."""
    where = f"{path}:{line}: llama-bench row field"
    ts = row.get("avg_ts")
    if ts is not None and (
        isinstance(ts, bool) or not isinstance(ts, (int, float)) or not math.isfinite(ts) or ts <= 0
    ):
        raise IngestError(
            f"{where} 'avg_ts' is {ts!r}, not a finite rate > 0 tok/s; fix: re-run llama-bench or drop "
            "this row"
        )
    if "samples_ns" in row:
        raw = row["samples_ns"]
        if not isinstance(raw, list) or not raw:
            raise IngestError(
                f"{where} 'samples_ns' is {raw!r}: empty or not a list; it must hold one positive "
                "integer (ns) per repetition; fix: re-run llama-bench or drop this row"
            )
        vals = [_sample(x) for x in raw]
        for i, (x, v) in enumerate(zip(raw, vals, strict=True)):
            if v is None or v <= 0:
                raise IngestError(
                    f"{where} 'samples_ns[{i}]' is {x!r}, not a positive integer number of ns; fix: "
                    "re-run llama-bench or drop this row"
                )
        row["samples_ns"] = vals
    bad = _nonfinite(row)
    if bad:
        raise IngestError(
            f"{where} {bad[0]!r} is NaN or inf, which cannot be recorded; fix: correct or drop this row"
        )


def _origin(path: Path, fmt: str, sha: str, line: int, host: str | None) -> dict:
    """The fields every ingested record of ``path`` shares: unknown ids of its group, origin, source."""
    own = unknown(sha)
    return {
        "run_id": stable_hash([sha, line], 32),
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
    }


def _build(kind: str, fields: dict, path: Path, line: int) -> dict:
    """``schemas.build`` with the source's file:line in the error."""
    try:
        return build(kind, **fields)
    except SchemaError as e:
        raise IngestError(f"{path}:{line}: {e}; fix: correct or drop this row") from None


def _lb_record(
    row: dict, path: Path, line: int, fmt: str, build_hint: int | None, sha: str, host: str | None = None
) -> dict:
    """One ``benchbook.llama_bench`` v2 record (origin ingested) of a llama-bench output row: values
    typed and checked, older field names upgraded (``migrations.legacy_llama_bench_row``).

    Raises:
        IngestError: a field cannot be read as its type, n_prompt/n_gen missing, nothing measured, or a
            bad value (``_check_lb_values``); file:line and the field are named.
    """
    typed = {}
    for k, v in row.items():
        try:
            typed[k] = flash_attn_int(v) if k == "flash_attn" else _typed(k, v)
        except ValueError:
            raise IngestError(
                f"{path}:{line}: llama-bench row field {k!r} is {v!r}, not a number; fix: correct or "
                "drop this row"
            ) from None
    row = typed
    if "samples_ns" in row and isinstance(row["samples_ns"], str):
        row["samples_ns"] = [x for x in row["samples_ns"].split(";") if x.strip()]
    _check_lb_values(row, path, line)
    for k in ("n_prompt", "n_gen"):
        if row.get(k) is None:
            raise IngestError(
                f"{path}:{line}: llama-bench row lacks {k!r}; fix: the file is not llama-bench output "
                "(or pass the right --format)"
            )
    if row.get("avg_ts") is None and not row.get("samples_ns"):
        raise IngestError(
            f"{path}:{line}: llama-bench row has neither avg_ts nor samples_ns; nothing to measure"
        )
    bn = row.get("build_number") if isinstance(row.get("build_number"), int) else build_hint
    fields_set = field_version(set(row), bn)
    row, _ = legacy_llama_bench_row(row)
    if row.get("build_number") is None and build_hint is not None:
        row["build_number"] = build_hint
    if row.get("avg_ts") is None:  # samples only: llama-bench's definition, mean of per-repetition rates
        tokens = row["n_prompt"] + row["n_gen"]
        row["avg_ts"] = sum(1e9 * tokens / ns for ns in row["samples_ns"]) / len(row["samples_ns"])
    model = row.get("model_filename") or row.get("model_type")
    rec = {
        **_origin(path, fmt, sha, line, host),
        "experiment": "llama_bench",
        "model_id": Path(model).name if model else unknown(sha),
        "llama_bench": row,
        "llama_bench_fields": fields_set,
    }
    if isinstance(row.get("test_time"), str):
        rec["started_at"] = row["test_time"]
    return _build("llama_bench", rec, path, line)


def _lines_of_json_array(text: str) -> list[int]:
    """1-based line of each top-level object's opening brace in a JSON array text."""
    out, depth, line, in_str, esc = [], 0, 1, False, False
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


def _parse_md_test(test: str) -> dict:
    m = re.fullmatch(r"\s*(?:pp(\d+))?\s*\+?\s*(?:tg(\d+))?\s*(?:@\s*d(\d+))?\s*", test)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(test)
    return {"n_prompt": int(m.group(1) or 0), "n_gen": int(m.group(2) or 0), "n_depth": int(m.group(3) or 0)}


def _parse_size(cell: str) -> int | None:
    m = re.fullmatch(r"\s*([\d.]+)\s*(KiB|MiB|GiB|TiB)\s*", cell)
    if not m:
        return None
    return int(
        round(float(m.group(1)) * {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}[m.group(2)])
    )


def _parse_params(cell: str) -> int | None:
    m = re.fullmatch(r"\s*([\d.]+)\s*([KMBT]?)\s*", cell)
    if not m:
        return None
    return int(round(float(m.group(1)) * {"": 1, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}[m.group(2)]))


def read_llama_bench_md(
    path: Path, text: str, build_hint: int | None, sha: str, host: str | None = None
) -> list[dict]:
    """Rows of a llama-bench markdown table (see the module doc for ``|`` inside override cells)."""
    lines = text.splitlines()
    hdr_i = next((i for i, line in enumerate(lines) if line.lstrip().startswith("|")), None)
    if hdr_i is None:
        raise IngestError(f"{path}: no markdown table found")
    split = lambda line: [c.strip() for c in line.strip().strip("|").split(" | ")]  # noqa: E731
    header = split(lines[hdr_i])
    m = re.search(r"build:\s*(\S+)\s*\((\d+)\)", text)
    build = {"build_commit": m.group(1), "build_number": int(m.group(2))} if m else {}
    out = []
    for i in range(hdr_i + 2, len(lines)):
        line = lines[i]
        if not line.lstrip().startswith("|"):
            if line.strip():
                break
            continue
        cells = split(line)
        if len(cells) > len(header):
            extra = len(cells) - len(header)
            j = next((header.index(c) for c in PIPE_COLUMNS if c in header), None)
            if j is None:
                raise IngestError(
                    f"{path}:{i + 1}: {len(cells)} cells for {len(header)} columns and no override "
                    f"column ({', '.join(PIPE_COLUMNS)}) to hold a '|'; fix: escape '|' in cells"
                )
            cells = cells[:j] + [" | ".join(cells[j : j + extra + 1])] + cells[j + extra + 1 :]
        if len(cells) != len(header):
            raise IngestError(f"{path}:{i + 1}: {len(cells)} cells for {len(header)} columns")
        row = dict(build)
        for h, c in zip(header, cells, strict=True):
            if h == "model":
                row["model_type"] = c
            elif h == "size":
                row["model_size"] = _parse_size(c)
            elif h == "params":
                row["model_n_params"] = _parse_params(c)
            elif h == "backend":
                row["backends"] = c
            elif h == "test":
                try:
                    row.update(_parse_md_test(c))
                except ValueError:
                    raise IngestError(
                        f"{path}:{i + 1}: test cell {c!r} is not ppN, tgN, ppN+tgN or '@ dN'"
                    ) from None
            elif h == "t/s":
                mm = re.fullmatch(r"\s*([\d.]+)\s*±\s*([\d.]+)\s*", c)
                if not mm:
                    raise IngestError(f"{path}:{i + 1}: t/s cell {c!r} is not 'mean ± sd'")
                row["avg_ts"], row["stddev_ts"] = float(mm.group(1)), float(mm.group(2))
            else:
                name = MD_NAMES.get(h, h)
                row[name] = c
                if name == "use_mmap":
                    row[name] = c.lower() in ("1", "true", "yes")
        out.append(_lb_record(row, path, i + 1, "md", build_hint, sha, host))
    if not out:
        raise IngestError(f"{path}: markdown table has no rows")
    return out


def read_llama_bench(
    path: Path, text: str, fmt: str, build_hint: int | None = None, host: str | None = None
) -> list[dict]:
    """``benchbook.llama_bench`` records from llama-bench output text in ``fmt`` (json | jsonl | csv | md |
    sql); ``host``: see the module doc."""
    sha = hashlib.sha256(text.encode()).hexdigest()
    if fmt == "json":
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as e:
            raise IngestError(
                f"{path}:{e.lineno}: not valid JSON ({e.msg}); fix: a truncated llama-bench -o json "
                "run lacks the closing ']' - re-run it or use -o jsonl"
            ) from None
        except ValueError as e:  # valid syntax the decoder refuses, e.g. an integer of > 4300 digits
            raise IngestError(
                f"{path}: not readable JSON ({e}); fix: this is not llama-bench -o json output"
            ) from None
        starts = _lines_of_json_array(text)
        return [
            _lb_record(r, path, starts[i] if i < len(starts) else 0, fmt, build_hint, sha, host)
            for i, r in enumerate(rows)
        ]
    if fmt == "jsonl":
        out = []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    out.append(_lb_record(json.loads(line), path, i, fmt, build_hint, sha, host))
                except ValueError as e:
                    if isinstance(e, IngestError):
                        raise
                    raise IngestError(f"{path}:{i}: not valid JSON ({e}); fix: drop the torn line") from None
        return out
    if fmt == "csv":
        rd = csv.DictReader(io.StringIO(text))
        return [_lb_record(r, path, rd.line_num, fmt, build_hint, sha, host) for r in rd]
    if fmt == "sql":
        out = []
        pat = re.compile(r"INSERT INTO llama_bench \(([^)]*)\) VALUES \((.*)\);\s*$")
        for i, line in enumerate(text.splitlines(), 1):
            m = pat.search(line)
            if not m:
                continue
            names = [n.strip() for n in m.group(1).split(",")]
            vals = next(csv.reader([m.group(2)], quotechar="'", skipinitialspace=True))
            if len(vals) != len(names):
                raise IngestError(f"{path}:{i}: {len(vals)} values for {len(names)} columns")
            out.append(_lb_record(dict(zip(names, vals, strict=True)), path, i, fmt, build_hint, sha, host))
        return out
    if fmt == "md":
        return read_llama_bench_md(path, text, build_hint, sha, host)
    raise IngestError(f"{path}: unknown llama-bench format {fmt!r}")


_NUM = r"([-\d.]+|inf|nan)"
_PROMPT = re.compile(rf"prompt eval time\s*=\s*{_NUM}\s*ms\s*/\s*(\d+)\s*tokens")
_EVAL = re.compile(rf"(?<!prompt )\beval time\s*=\s*{_NUM}\s*ms\s*/\s*(\d+)\s*(tokens|runs)")
_TOTAL = re.compile(rf"total time\s*=\s*{_NUM}\s*ms(?:\s*/\s*(\d+)\s*tokens)?")
_DRAFT = re.compile(
    r"draft acceptance(?: rate)?\s*=\s*([\d.]+)\s*\(\s*(\d+)\s*accepted\s*/\s*(\d+)\s*generated\)"
    r"(?:,\s*mean len\s*=\s*([\d.]+))?"
)
_TASK = re.compile(r"\bid\s+(\d+)\s*\|\s*task\s+(-?\d+)|\"id_slot\":\s*(\d+),\s*\"id_task\":\s*(\d+)")


_MODEL = re.compile(r"loading (draft )?model '([^']+)'")
#: ``slot release: ... stop processing: n_tokens = N`` (b11434 tools/server/server-context.cpp,
#: ``server_slot::release``, INFO level): the tokens in the slot when the request ends, i.e. the whole
#: prompt (cached and evaluated) + the generated tokens but the last sampled one.  The only line at
#: default verbosity that carries the prompt length; ``new prompt, ... task.n_tokens = N``
#: (``SLT_TRC``, same file) states it directly but only at trace verbosity (``-lv 4``).
_RELEASE = re.compile(r"stop processing: n_tokens\s*=\s*(\d+)")
_NEW_PROMPT = re.compile(r"new prompt, .*task\.n_tokens\s*=\s*(\d+)")


def read_server_log(
    path: Path, text: str, build_hint: int | None = None, host: str | None = None
) -> list[dict]:
    """One ``benchbook.speculative_request`` v2 record (origin ingested) per request of a llama-server
    log (module doc).  ``model_id`` / ``draft_model_id`` are the file names of its ``loading model`` /
    ``loading draft model`` lines (unknown without them); ``build_number`` is ``build_hint`` (the log
    does not print it at default verbosity).

    Raises:
        IngestError: an ``eval time``/``draft acceptance`` line without a preceding ``prompt eval time``
        line, or a draft line whose ratio disagrees with its counts (names file:line).
    """
    sha = hashlib.sha256(text.encode()).hexdigest()
    found: list[dict] = []
    cur: dict | None = None
    slot = task = None
    pending_len: int | None = None
    models: dict[str, str] = {}
    for i, line in enumerate(text.splitlines(), 1):
        mm = _MODEL.search(line)
        if mm:
            models.setdefault("draft" if mm.group(1) else "target", Path(mm.group(2)).name)
        mt = _TASK.search(line)
        if mt:
            slot, task = (
                (int(mt.group(1)), int(mt.group(2))) if mt.group(1) else (int(mt.group(3)), int(mt.group(4)))
            )
        m = _NEW_PROMPT.search(line)
        if m:
            pending_len = int(m.group(1))
            continue
        m = _RELEASE.search(line)
        if m and cur is not None and "release_n_tokens" not in cur["timings"]:
            cur["timings"]["release_n_tokens"] = int(m.group(1))
            cur["lines"].append(i)
            continue
        m = _PROMPT.search(line)
        if m:
            cur = {
                "line": i,
                "lines": [i],
                "slot_id": slot,
                "task_id": task,
                "timings": {"prompt_ms": float(m.group(1)), "prompt_n": int(m.group(2))},
            }
            if pending_len is not None:
                cur["timings"]["prompt_tokens"] = pending_len
                pending_len = None
            found.append(cur)
            continue
        for pat, keys in ((_EVAL, ("predicted_ms", "predicted_n")), (_TOTAL, ("total_ms", "total_n"))):
            m = pat.search(line)
            if m and "prompt eval" not in line:
                if cur is None:
                    raise IngestError(
                        f"{path}:{i}: '{m.group(0)}' before any 'prompt eval time' line; "
                        "fix: pass the whole log, not an excerpt"
                    )
                cur["timings"][keys[0]] = float(m.group(1))
                if m.group(2):
                    cur["timings"][keys[1]] = int(m.group(2))
                cur["lines"].append(i)
                break
        m = _DRAFT.search(line)
        if m:
            if cur is None:
                raise IngestError(f"{path}:{i}: draft acceptance line before any 'prompt eval time' line")
            ratio, acc, gen = float(m.group(1)), int(m.group(2)), int(m.group(3))
            if gen and abs(ratio - acc / gen) > 1e-4:
                raise IngestError(
                    f"{path}:{i}: draft acceptance {ratio} disagrees with {acc}/{gen}; the line is corrupt"
                )
            cur["timings"].update({"draft_n": gen, "draft_n_accepted": acc})
            if m.group(4):
                cur["timings"]["draft_mean_len"] = float(m.group(4))
            cur["lines"].append(i)
    if not found:
        raise IngestError(
            f"{path}: no 'prompt eval time' line; fix: run llama-server with its default log verbosity"
        )
    out = []
    for req in found:
        t = req["timings"]
        rec = {
            **_origin(path, "server-log", sha, req["line"], host),
            "experiment": "speculative",
            "model_id": models.get("target") or unknown(sha),
            "timings": t,
            "draft_model_id": models.get("draft"),
            "build_number": build_hint,
            "slot_id": req["slot_id"],
            "task_id": req["task_id"],
            "source_lines": req["lines"],
        }
        _cache_n_from_log(t)
        if t.get("draft_mean_len") is not None and t["draft_mean_len"] > 1:
            rec["verify_steps"] = float(round(t["draft_n_accepted"] / (t["draft_mean_len"] - 1)))
        out.append(_build("speculative_request", rec, path, req["line"]))
    return out


def _cache_n_from_log(t: dict) -> None:
    """Set ``t["prompt_tokens"]`` (the prompt's length) and ``t["cache_n"]`` (prompt tokens served from
    the cache = length − ``prompt_n``) from a request's log lines, in place, when they tell: the trace
    line's ``task.n_tokens``, else ``release_n_tokens − predicted_n + 1`` (the slot holds the prompt and
    every generated token but the last sampled one).  Left unset (unknown) otherwise.

    >>> t = {"prompt_n": 73, "predicted_n": 32, "release_n_tokens": 840}
    >>> _cache_n_from_log(t); t["prompt_tokens"], t["cache_n"]
    (809, 736)
    """
    length = t.get("prompt_tokens")
    if length is None and t.get("release_n_tokens") is not None and t.get("predicted_n"):
        length = int(t["release_n_tokens"]) - int(t["predicted_n"]) + 1
    if length is None or length < int(t["prompt_n"]):
        return
    t["prompt_tokens"] = int(length)
    t["cache_n"] = int(length) - int(t["prompt_n"])


def read_speculative_simple(path: Path, text: str) -> list[dict]:
    """The one ``benchbook.ingest.speculative_simple`` record of a ``llama-speculative-simple`` output.

    Raises:
        IngestError: a required line (n_draft, n_predict, n_drafted, n_accept) is missing, or
        ``accept`` disagrees with ``n_accept / n_drafted`` (names file:line).
    """
    sha = hashlib.sha256(text.encode()).hexdigest()
    rec: dict[str, Any] = {
        "source_file": str(path),
        "source_format": "spec-simple",
        "source_sha256": sha,
        "ingested_at": utc_now(),
        "source_lines": {},
    }
    keys = {
        "n_draft": "n_draft_max",
        "n_predict": "n_predict",
        "n_drafted": "n_drafted",
        "n_accept": "n_accept",
    }
    for i, line in enumerate(text.splitlines(), 1):
        m = re.search(r"\b(n_draft|n_predict|n_drafted|n_accept)\s*=\s*(\d+)", line)
        if m:
            rec[keys[m.group(1)]] = int(m.group(2))
            rec["source_lines"][keys[m.group(1)]] = i
            continue
        m = re.search(r"\baccept\s*=\s*([\d.]+)%", line)
        if m:
            rec["accept_pct"] = float(m.group(1))
            rec["source_lines"]["accept_pct"] = i
            continue
        m = re.search(
            r"\b(encoded|decoded)\s+(\d+)\s+tokens in\s+([\d.]+)\s+seconds, speed:\s+([\d.]+|inf)\s+t/s", line
        )
        if m:
            k = "encode" if m.group(1) == "encoded" else "decode"
            rec[f"{k}_n"], rec[f"{k}_s"], rec[f"{k}_tps"] = (
                int(m.group(2)),
                float(m.group(3)),
                float(m.group(4)),
            )
            rec["source_lines"][k] = i
    missing = [v for v in keys.values() if v not in rec]
    if missing:
        raise IngestError(
            f"{path}: llama-speculative-simple output lacks {missing}; fix: pass its complete stderr"
        )
    if "accept_pct" in rec and rec["n_drafted"]:
        if abs(rec["accept_pct"] - 100.0 * rec["n_accept"] / rec["n_drafted"]) > 1e-2:
            raise IngestError(
                f"{path}:{rec['source_lines']['accept_pct']}: accept {rec['accept_pct']}% disagrees "
                f"with n_accept/n_drafted = {rec['n_accept']}/{rec['n_drafted']}"
            )
    rec["alpha"] = rec["n_accept"] / rec["n_drafted"] if rec["n_drafted"] else None
    rec["source_line"] = min(rec["source_lines"].values())
    return [_build("ingest_speculative_simple", rec, path, rec["source_line"])]


def ingest_file(
    path: str | Path, fmt: str = "auto", build_hint: int | None = None, host: str | None = None
) -> list[dict]:
    """Records from one file of llama.cpp output (format detected unless ``fmt`` is given): native kinds
    for llama-bench rows and server-log requests (module doc).  ``build_hint``: the llama.cpp build
    number when the source does not print it; ``host``: a name saying that files share a host.

    Raises:
        IngestError: undetectable format or bad content (file:line and the fix).
        FileNotFoundError: ``path`` does not exist.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt in ("json", "jsonl", "csv", "md", "sql"):
        records = read_llama_bench(path, text, fmt, build_hint, host)
    elif fmt == "server-log":
        records = read_server_log(path, text, build_hint, host)
    elif fmt == "spec-simple":
        records = read_speculative_simple(path, text)
    else:
        raise IngestError(f"{path}: unknown format {fmt!r}")
    if not records:
        raise IngestError(
            f"{path}: {fmt} output with no rows (an empty array, or a header without rows); "
            "fix: ingest the file that holds the results"
        )
    return records


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
        bad = _nonfinite(r)
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

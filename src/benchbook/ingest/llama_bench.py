"""One llama-bench output row (any format) -> one ``benchbook.llama_bench`` v2 record (origin ingested).

Values are typed by llama-bench's field types (``tools/llama-bench/llama-bench.cpp``,
``test::get_field_type``), checked (``check_values``) and brought to b11434's names: rows of builds
before ``load_mode``/``backends`` (``use_mmap``, per-backend booleans, boolean ``flash_attn``) go
through ``migrations.legacy_llama_bench_row`` and say so in ``llama_bench_fields`` (1); ``flash_attn``
is always b11434's int (1 on, 0 off, -1 auto), from a JSON boolean as from the "1" of md/csv.  The
per-backend booleans of 2023 builds include ``opencl``, which the migration does not know: it is read
here, so ``cuda=1`` / ``opencl=1`` give ``backends`` "CUDA" / "OpenCL" (joined with the other true
flags in upstream's order).  A field this code does not declare (``schemas.LLAMA_BENCH_ROW``) is kept in
the row and listed in the record's ``uninterpreted``.  What the source omits stays absent (unknown):
markdown omits columns at their default (``ngl``, ``threads``...), and an absent ``n_gpu_layers`` is
never read as "CPU only".
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

from ..identity import IdentityWarning, load_mode_value, load_mode_warning
from ..migrations import LEGACY_BACKEND_FIELDS, flash_attn_int, legacy_llama_bench_row
from ..schemas import LLAMA_BENCH_ROW, unknown
from .common import IngestError, RawRow, build_record, nonfinite, origin

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
    "opencl",
    "vulkan",
    "kompute",
    "metal",
    "sycl",
    "rpc",
    "gpu_blas",
    "blas",
    "mul_mat_q",
}
V1_MARKERS = {"use_mmap", "cuda", "opencl", "vulkan", "kompute", "metal", "sycl", "gpu_blas", "blas"}
#: fields benchbook interprets (the declared row); anything else is ``uninterpreted``
DECLARED = (
    {f.name for f in LLAMA_BENCH_ROW} | {"use_mmap", "samples_ns", "samples_ts"} | set(LEGACY_BACKEND_FIELDS)
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


def _typed(name: str, v):
    if v is None:
        return None
    if isinstance(v, str):
        v = v.strip()
        if name in INT_FIELDS:
            try:
                return int(v)
            except ValueError:
                return int(float(v))
        if name in FLOAT_FIELDS:
            return float(v)
        if name in BOOL_FIELDS:
            return v.lower() in ("1", "true", "yes")
    return v


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


def check_values(row: dict, path: Path, line: int) -> None:
    """avg_ts a finite rate > 0, samples_ns (when present) a non-empty list of integer ns > 0, no
    NaN/inf in any field.

    Raises:
        IngestError: names file:line and the field.
    """
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
    bad = nonfinite(row)
    if bad:
        raise IngestError(
            f"{where} {bad[0]!r} is NaN or inf, which cannot be recorded; fix: correct or drop this row"
        )


def _legacy_backends(row: dict) -> str | None:
    """``backends`` from the per-backend booleans of older builds; ``opencl`` removed; returns a note.

    Rows that still carry ``opencl`` (2023 builds) name *one* backend, the first true flag in
    upstream's order (``test::get_backend`` then returned early: the same run's markdown shows "CUDA"
    for ``cuda=1, gpu_blas=1, blas=1``, llama-bench README at build 1275); later rows list every true
    flag (``migrations.legacy_llama_bench_row``)."""
    flags = [k for k in LEGACY_BACKEND_FIELDS if k in row]
    note = None
    if flags and row.get("backends") is None:
        truthy = [
            LEGACY_BACKEND_FIELDS[k] for k in flags if str(row[k]).strip().lower() in ("1", "true", "yes")
        ]
        if "opencl" in row:
            row["backends"] = truthy[0] if truthy else "CPU"
            note = f"backends {row['backends']!r}: the first true backend flag of a 2023 row (opencl present)"
        else:
            row["backends"] = ",".join(truthy) or "CPU"
    row.pop("opencl", None)
    return note


def lb_record(
    raw: RawRow,
    path: Path,
    sha: str,
    build_hint: int | None = None,
    host: str | None = None,
    fork: str | None = None,
    key: str | None = None,
) -> dict:
    """One ``benchbook.llama_bench`` v2 record of ``raw`` (module doc).  ``fork``: the output comes from a
    fork of llama.cpp, whose build counter is not an upstream build number: it is kept as
    ``fork_build_number`` and ``build_number`` stays unknown.

    Raises:
        IngestError: a field cannot be read as its type, n_prompt/n_gen missing, nothing measured, or a
            bad value (``check_values``); file:line and the field are named.
    """
    line, notes = raw.line, list(raw.notes)
    row: dict = {}
    for k, v in raw.fields.items():
        try:
            row[k] = flash_attn_int(v) if k == "flash_attn" else _typed(k, v)
        except ValueError:
            raise IngestError(
                f"{path}:{line}: llama-bench row field {k!r} is {v!r}, not a number; fix: correct or "
                "drop this row"
            ) from None
    if "samples_ns" in row and isinstance(row["samples_ns"], str):
        row["samples_ns"] = [x for x in row["samples_ns"].split(";") if x.strip()]
    check_values(row, path, line)
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
    uninterpreted = {k: raw.fields[k] for k in raw.fields if k not in DECLARED}
    uninterpreted.update(raw.uninterpreted)
    own = row.get("build_number")
    if isinstance(own, int) and build_hint is not None and own != build_hint:
        raise IngestError(
            f"{path}:{line}: --build {build_hint} disagrees with the row's own build_number {own}; fix: drop "
            "--build (the output states its build)"
        )
    bn = own if isinstance(own, int) else build_hint
    fields_set = field_version(set(row), bn)
    backend_note = _legacy_backends(row)
    if backend_note:
        notes.append(backend_note)
    row, _ = legacy_llama_bench_row(row)
    if "load_mode" in row:  # benchbook.identity: the name normalised; an integer is unknown, row kept
        row["load_mode"], renumbered = load_mode_value(row["load_mode"])
        if renumbered:
            warnings.warn(
                load_mode_warning(path, line, raw.fields.get("load_mode")), IdentityWarning, stacklevel=2
            )
    if row.get("build_number") is None and build_hint is not None:
        row["build_number"] = build_hint
    if fork and row.get("build_number") is not None:
        row["fork_build_number"] = row.pop("build_number")
        notes.append(
            f"build counter {row['fork_build_number']} is {fork}'s, not an upstream llama.cpp build "
            "number: kept as fork_build_number, build_number unknown"
        )
    row.setdefault("build_commit", None)
    row.setdefault("build_number", None)
    if row.get("avg_ts") is None:  # samples only: llama-bench's definition, mean of per-repetition rates
        tokens = row["n_prompt"] + row["n_gen"]
        row["avg_ts"] = sum(1e9 * tokens / ns for ns in row["samples_ns"]) / len(row["samples_ns"])
    model = row.get("model_filename") or row.get("model_type")
    rec = {
        **origin(path, raw.fmt, sha, line, host, raw.text, notes, uninterpreted, raw.inconsistent, key),
        **raw.extra,
        "experiment": "llama_bench",
        "model_id": Path(model).name if model else unknown(sha),
        "llama_bench": row,
        "llama_bench_fields": fields_set,
    }
    if isinstance(row.get("test_time"), str):
        rec["started_at"] = row["test_time"]
    return build_record("llama_bench", rec, path, line)

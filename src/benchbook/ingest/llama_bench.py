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


#: fastest rate accepted, tok/s: no llama.cpp run comes near it (prompt processing of a small model on
#: a data-centre GPU is ~1e5 tok/s); above it a value is a typo or a corrupt sample (a 1 ns sample)
MAX_TPS = 1e7


def _int(v) -> int:
    """An integer field's value: an int, or a float / numeric string holding a whole number.

    Raises:
        ValueError: a fraction ("16.9" is not read as 16), a boolean, or not a number.
    """
    if isinstance(v, bool):
        raise ValueError(v)
    if isinstance(v, int):
        return v
    f = float(v)
    if not f.is_integer():
        raise ValueError(v)
    return int(f)


def _typed(name: str, v):
    if v is None:
        return None
    if name in INT_FIELDS and not isinstance(v, str):
        return _int(v)
    if isinstance(v, str):
        v = v.strip()
        if name in INT_FIELDS:
            return _int(v)
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
    """avg_ts a finite rate in (0, ``MAX_TPS``] tok/s, n_prompt/n_gen/n_depth >= 0 with at least one
    token (``tg0`` measures nothing), samples_ns (when present) a non-empty list of integer ns > 0
    whose rates stay below ``MAX_TPS``, no NaN/inf in any field.

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
    for k in ("n_prompt", "n_gen", "n_depth"):
        if isinstance(row.get(k), int) and row[k] < 0:
            raise IngestError(
                f"{where} {k!r} is {row[k]}, a negative token count; fix: correct or drop this row"
            )
    if isinstance(row.get("n_prompt"), int) and isinstance(row.get("n_gen"), int):
        if row["n_prompt"] + row["n_gen"] == 0:
            raise IngestError(
                f"{path}:{line}: llama-bench row with n_prompt 0 and n_gen 0 (test 'pp0'/'tg0'): no "
                "token was processed, so no rate exists; fix: correct the test or drop this row"
            )
    sd = row.get("stddev_ts")
    if isinstance(sd, (int, float)) and not isinstance(sd, bool) and sd < 0:
        raise IngestError(f"{where} 'stddev_ts' is {sd!r}, a negative spread; fix: correct or drop this row")
    if ts is not None and ts > MAX_TPS:
        raise IngestError(
            f"{where} 'avg_ts' is {ts!r} tok/s, above any llama.cpp run ({MAX_TPS:.0e} tok/s); fix: "
            "correct the value or drop this row"
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
        tokens = (row.get("n_prompt") or 0) + (row.get("n_gen") or 0)
        if tokens and 1e9 * tokens / min(vals) > MAX_TPS:
            raise IngestError(
                f"{where} 'samples_ns' has {min(vals)} ns for {tokens} tokens = "
                f"{1e9 * tokens / min(vals):.3g} tok/s, above any llama.cpp run ({MAX_TPS:.0e} tok/s); "
                "fix: correct the samples or drop this row"
            )
    bad = nonfinite(row)
    if bad:
        raise IngestError(
            f"{where} {bad[0]!r} is NaN or inf, which cannot be recorded; fix: correct or drop this row"
        )


def samples_disagree(row: dict) -> list[str]:
    """What of a row's stated ``avg_ts`` / ``samples_ts`` disagrees with its ``samples_ns`` (empty when
    both agree or either is absent): llama-bench derives them as avg_ts = mean over repetitions of
    (n_prompt + n_gen) · 1e9 / samples_ns[i] and samples_ts[i] = that rate (``tools/llama-bench``,
    ``test::get_ts``).  Tolerance 0.1 % + 0.005 tok/s (JSON prints 6 significant digits or more).

    >>> samples_disagree({"n_prompt": 16, "n_gen": 0, "avg_ts": 1657.3, "samples_ns": [99563484, 93699102]})
    ['avg_ts 1657.3 disagrees with samples_ns: mean of 16 tokens / each sample = 165.73 tok/s']
    """
    ns = row.get("samples_ns")
    tokens = (row.get("n_prompt") or 0) + (row.get("n_gen") or 0)
    if not ns or not tokens:
        return []
    rates = [1e9 * tokens / x for x in ns]
    mean = sum(rates) / len(rates)
    out = []
    ts = row.get("avg_ts")
    if ts is not None and abs(ts - mean) > 1e-3 * mean + 0.005:
        out.append(
            f"avg_ts {ts} disagrees with samples_ns: mean of {tokens} tokens / each sample = {mean:.2f} tok/s"
        )
    stated = row.get("samples_ts")
    if isinstance(stated, list) and len(stated) == len(rates):
        for i, (a, b) in enumerate(zip(stated, rates, strict=True)):
            if isinstance(a, (int, float)) and abs(a - b) > 1e-3 * b + 0.005:
                out.append(
                    f"samples_ts[{i}] {a} disagrees with {tokens} tokens / samples_ns[{i}] = {b:.2f} tok/s"
                )
                break
    return out


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
            kind = "a whole number" if k in INT_FIELDS else "a number"
            raise IngestError(
                f"{path}:{line}: llama-bench row field {k!r} is {v!r}, not {kind}; fix: correct or "
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
    inconsistent = list(raw.inconsistent) + samples_disagree(row)
    if row.get("avg_ts") is None:  # samples only: llama-bench's definition, mean of per-repetition rates
        tokens = row["n_prompt"] + row["n_gen"]
        row["avg_ts"] = sum(1e9 * tokens / ns for ns in row["samples_ns"]) / len(row["samples_ns"])
    model = row.get("model_filename") or row.get("model_type")
    rec = {
        **origin(path, raw.fmt, sha, line, host, raw.text, notes, uninterpreted, inconsistent, key),
        **raw.extra,
        "experiment": "llama_bench",
        "model_id": Path(model).name if model else unknown(sha),
        "llama_bench": row,
        "llama_bench_fields": fields_set,
    }
    if isinstance(row.get("test_time"), str):
        rec["started_at"] = row["test_time"]
    return build_record("llama_bench", rec, path, line)

"""Offload analysis: raw records -> one row per (sweep point, test) -> per-point rates, the fit
boundary and the decode roofline.

* ``load(raw_dir)``: one row per llama-bench output row of the sweep (pp or tg; ``benchrows``, the one
  llama-bench row kind) and one per failed point (``test`` null, ``status`` "failed", ``reason``), each
  with file and line.
* ``points(rows)``: per (host, session, model, n_cpu_moe, test): n, mean of per-repetition rates
  (llama-bench's ``avg_ts`` definition) with sd, cv and Student-t interval; llama.cpp's own device
  memory ``llama_gpu_peak_mib`` = sampled peak − used just before the run (the ballast and other
  processes are in both); ``budget_free_mib`` the memory the ballast left free.
* ``fit_boundary(points)``: per session, the smallest ``n_cpu_moe`` that ran and the largest that
  failed for lack of memory below it — the cliff on a host that fails instead of spilling.
* ``roofline(points, bandwidth, model_bytes)``: tg rows get bytes read per token × tok/s as GB/s and
  as % of the measured device-to-device copy bandwidth of the same host.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from benchbook import benchrows, schemas
from benchbook.jsonl import scan_jsonl, validate
from benchbook.stats import add_t_interval

from . import BANDWIDTH_KIND, EXPERIMENT, KIND, MODEL_BYTES_KIND

#: what a sweep point's reader decodes of its records (ok rows and failed points alike), typed as the one
#: llama-bench row kind and the point's declaration (``KIND``: ``schemas.OFFLOAD_POINT``) declare them
POINT_FIELDS = [
    "run_id",
    "session_id",
    "host_id",
    "toolchain_id",
    "profile",
    "model_id",
    "model_sha256",
    "synthetic_inputs",
    "n_cpu_moe",
    "argv",
    "placement",
    "decode_bytes",
    "ballast",
    "budget_free_mib",
    "gpu_used_before_mib",
    "peak_gpu_mem_mib",
    "started_at",
    "ended_at",
]
POINT_MEMBERS = {
    "placement": ["cpu_expert_blocks", "n_layer"],
    "decode_bytes": ["total", "gpu"],
    "ballast": ["mode", "held_mib"],
}
#: an ok row adds llama-bench's row (the members read) and the row count of its invocation
ROW_FIELDS = [*POINT_FIELDS, "status", "rows_total", "llama_bench"]
ROW_MEMBERS = {**POINT_MEMBERS, "llama_bench": ["n_prompt", "n_gen", "samples_ts", "avg_ts"]}
#: a failed point adds the run_failed kind's own fields
FAILED_FIELDS = ["status", "reason"]

_ROW: dict[str, schemas.PolarsDataType] = {
    "host_id": pl.String,
    "session_id": pl.String,
    "toolchain_id": pl.String,
    "profile": pl.String,
    "model_id": pl.String,
    "model_sha256": pl.String,
    "synthetic_inputs": pl.Boolean,
    "n_cpu_moe": pl.Int64,
    "test": pl.String,
    "n_prompt": pl.Int64,
    "n_gen": pl.Int64,
    "status": pl.String,
    "reason": pl.String,
    "samples_ts": pl.List(pl.Float64),
    "avg_ts": pl.Float64,
    "peak_gpu_mem_mib": pl.Float64,
    "gpu_used_before_mib": pl.Float64,
    "budget_free_mib": pl.Float64,
    "ballast_mode": pl.String,
    "ballast_held_mib": pl.Float64,
    "cpu_expert_blocks": pl.Int64,
    "placement_blocks": pl.String,
    "n_layer": pl.Int64,
    "decode_bytes_total": pl.Int64,
    "decode_bytes_gpu": pl.Int64,
    "started_at": pl.String,
    "ended_at": pl.String,
    "argv": pl.List(pl.String),
    "run_id": pl.String,
    "file": pl.String,
    "line": pl.Int64,
}


def _files(raw_dir: Path) -> list[Path]:
    folder = Path(raw_dir) / EXPERIMENT
    return sorted(f for f in folder.glob("*.jsonl") if not f.name.endswith(".quarantine.jsonl"))


def _read(raw_dir: Path, fields: dict) -> pl.DataFrame:
    """Every record under ``raw_dir/offload`` decoded with ``fields`` (+ ``experiment``), kinds checked."""
    df = scan_jsonl(_files(raw_dir), {**fields, "experiment": pl.String}).collect()
    return schemas.check_kinds(df)


def _point_columns(lb: pl.Expr) -> list[pl.Expr | str]:
    """``load``'s columns (``_ROW``) of a frame of sweep points; ``lb``: llama-bench's row (a null struct
    on a failed point)."""
    row = lb.struct
    return [
        *[
            pl.col(c)
            for c in (
                "host_id",
                "session_id",
                "toolchain_id",
                "profile",
                "model_id",
                "model_sha256",
                "synthetic_inputs",
                "n_cpu_moe",
            )
        ],
        pl.when(row.field("n_gen") > 0)
        .then(pl.lit("tg"))
        .when(row.field("n_gen").is_not_null())
        .then(pl.lit("pp"))
        .alias("test"),
        row.field("n_prompt"),
        row.field("n_gen"),
        "status",
        "reason",
        row.field("samples_ts"),
        row.field("avg_ts"),
        "peak_gpu_mem_mib",
        "gpu_used_before_mib",
        pl.col("budget_free_mib").cast(pl.Float64),
        pl.col("ballast").struct.field("mode").alias("ballast_mode"),
        pl.col("ballast").struct.field("held_mib").cast(pl.Float64).alias("ballast_held_mib"),
        pl.col("placement")
        .struct.field("cpu_expert_blocks")
        .list.len()
        .cast(pl.Int64)
        .alias("cpu_expert_blocks"),
        # the resolved placement itself (which blocks' experts are on the CPU): part of the key
        pl.col("placement")
        .struct.field("cpu_expert_blocks")
        .list.eval(pl.element().cast(pl.String))
        .list.join(",")
        .alias("placement_blocks"),
        pl.col("placement").struct.field("n_layer"),
        pl.col("decode_bytes").struct.field("total").alias("decode_bytes_total"),
        pl.col("decode_bytes").struct.field("gpu").alias("decode_bytes_gpu"),
        "started_at",
        "ended_at",
        "argv",
        "run_id",
        "file",
        "line",
    ]


def load(raw_dir: Path) -> pl.DataFrame:
    """Rows of ``raw_dir/offload/*.jsonl`` (columns ``_ROW``): the sweep's llama-bench rows of complete runs
    (``benchrows.read``: the one llama-bench row kind, experiment offload; committed sessions wrote the
    retired ``benchbook.offload``; a run cut short between rows is dropped), then its failed points
    (``benchbook.run_failed`` with a ``n_cpu_moe``, checked against the point's declaration
    ``schemas.OFFLOAD_POINT``: ``test`` null, ``reason``).

    Raises:
        records.RecordError: a line is not JSON, of an undeclared kind, or a field read is missing or of the
            wrong type (file:line, field, fix).
    """
    ok = benchrows.read(Path(raw_dir) / EXPERIMENT, EXPERIMENT, ROW_FIELDS, ROW_MEMBERS)
    fields = {
        **schemas.polars_schema(KIND.key, only=POINT_FIELDS, members=POINT_MEMBERS),
        **schemas.polars_schema("run_failed", only=FAILED_FIELDS),
    }
    df = _read(raw_dir, fields).filter(pl.col("experiment") == EXPERIMENT)
    failed = validate(
        df.filter((pl.col("schema") == schemas.RUN_FAILED.schema) & pl.col("n_cpu_moe").is_not_null()),
        {
            **schemas.checks(KIND.key, only=POINT_FIELDS, members=POINT_MEMBERS),
            **schemas.checks("run_failed", only=FAILED_FIELDS),
        },
    )
    ok = ok.with_columns(pl.lit(None, dtype=pl.String).alias("reason"))
    rows = _point_columns(pl.col("llama_bench"))
    failed_rows = _point_columns(pl.lit(None, dtype=ok.schema["llama_bench"]))
    return pl.concat(
        [ok.select(rows).cast(pl.Schema(_ROW)), failed.select(failed_rows).cast(pl.Schema(_ROW))],
        how="vertical",
    )


#: the columns of ``bandwidth``, as ``BANDWIDTH_KIND`` declares them
BANDWIDTH_FIELDS = [
    "host_id",
    "session_id",
    "toolchain_id",
    "mode",
    "device",
    "gb_per_s",
    "status",
    "error",
    "run_id",
]


def bandwidth(raw_dir: Path) -> pl.DataFrame:
    """Device-to-device copy bandwidth records: host_id, session_id, toolchain_id, mode, device,
    gb_per_s, status, error, run_id, file, line (``gb_per_s`` null where the measurement failed)."""
    fields = schemas.polars_schema(BANDWIDTH_KIND.key, only=BANDWIDTH_FIELDS)
    df = validate(
        _read(raw_dir, fields).filter(pl.col("schema") == BANDWIDTH_KIND.schema),
        schemas.checks(BANDWIDTH_KIND.key, only=BANDWIDTH_FIELDS),
    )
    return df.select(*BANDWIDTH_FIELDS[:-1], "file", "line", "run_id")


#: the columns ``model_bytes`` reads, as ``MODEL_BYTES_KIND`` declares them
MODEL_BYTES_FIELDS = [
    *("host_id", "session_id", "model_id", "model_sha256", "n_cpu_moe", "run_id", "decode_bytes")
]


def model_bytes(raw_dir: Path) -> pl.DataFrame:
    """Bytes read per decoded token per (session, model sha256, n_cpu_moe): host_id, session_id, model_id,
    model_sha256, n_cpu_moe, run_id, decode_bytes_total/gpu/cpu, file, line."""
    fields = schemas.polars_schema(MODEL_BYTES_KIND.key, only=MODEL_BYTES_FIELDS)
    df = validate(
        _read(raw_dir, fields).filter(pl.col("schema") == MODEL_BYTES_KIND.schema),
        schemas.checks(MODEL_BYTES_KIND.key, only=MODEL_BYTES_FIELDS),
    )
    db = pl.col("decode_bytes").struct
    return df.select(
        *MODEL_BYTES_FIELDS[:-1],
        db.field("total").alias("decode_bytes_total"),
        db.field("gpu").alias("decode_bytes_gpu"),
        db.field("cpu").alias("decode_bytes_cpu"),
        "file",
        "line",
    )


#: a point's configuration: two runs of one ``-ncmoe N`` whose overrides resolved to other blocks
#: (``placement_blocks``, ``benchbook.identity``) never pool
_KEYS = ["host_id", "session_id", "toolchain_id", "model_id", "n_cpu_moe", "placement_blocks", "test"]


def _per_point_columns() -> list[pl.Expr]:
    """The aggregations ``points`` takes alike for ok and failed runs: llama.cpp's own peak GPU memory
    (peak − before), the per-point constants (first value) and the source files."""
    return [
        (pl.col("peak_gpu_mem_mib") - pl.col("gpu_used_before_mib")).max().alias("peak_gpu_mem_mib"),
        *[
            pl.col(c).first()
            for c in (
                "budget_free_mib",
                "cpu_expert_blocks",
                "n_layer",
                "decode_bytes_total",
                "decode_bytes_gpu",
                "synthetic_inputs",
                "argv",
            )
        ],
        pl.col("file").unique().alias("files"),
    ]


def points(rows: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Per ``_KEYS``: n, mean_tps, sd_tps, cv, ci_low_tps, ci_high_tps, llama_bench_avg_ts, status, reason,
    peak_gpu_mem_mib (llama.cpp's own: peak − before), budget_free_mib, gpu_mem_total_mib (= the budget:
    the capacity the memory_spill rule compares with), cpu_expert_blocks, n_layer, decode_bytes_total,
    decode_bytes_gpu, synthetic_inputs, phase ("warm"), files, lines, run_ids, argv."""
    samples = rows.filter(pl.col("status") == "ok").explode("samples_ts")
    ok = samples.group_by(_KEYS, maintain_order=True).agg(
        pl.col("samples_ts").count().alias("n"),
        pl.col("samples_ts").mean().alias("mean_tps"),
        pl.col("samples_ts").std().alias("sd_tps"),
        pl.col("avg_ts").first().alias("llama_bench_avg_ts"),
        pl.lit("ok").alias("status"),
        pl.lit(None, pl.String).alias("reason"),
        *_per_point_columns(),
        pl.col("line").unique().sort().alias("lines"),
        pl.col("run_id").unique().alias("run_ids"),
    )
    failed = (
        rows.filter(pl.col("status") != "ok")
        .group_by(_KEYS, maintain_order=True)
        .agg(
            pl.lit(0, pl.UInt32).alias("n"),
            pl.lit(None, pl.Float64).alias("mean_tps"),
            pl.lit(None, pl.Float64).alias("sd_tps"),
            pl.lit(None, pl.Float64).alias("llama_bench_avg_ts"),
            pl.lit("failed").alias("status"),
            pl.col("reason").last(),
            *_per_point_columns(),
            pl.col("line").sort().alias("lines"),
            pl.col("run_id").alias("run_ids"),
        )
    )
    both = pl.concat([ok, failed.with_columns(pl.col("n").cast(ok.schema["n"]))], how="vertical_relaxed")
    both = both.with_columns(
        (pl.col("sd_tps") / pl.col("mean_tps")).alias("cv"),
        pl.col("budget_free_mib").alias("gpu_mem_total_mib"),
        pl.lit("warm").alias("phase"),
    )
    return add_t_interval(both, "mean_tps", "sd_tps", "n", "ci_low_tps", "ci_high_tps", confidence).sort(
        "host_id", "session_id", "n_cpu_moe", "test", nulls_last=True
    )


@dataclass(frozen=True)
class Boundary:
    """Where a sweep stops fitting: ``first_fit`` (smallest n_cpu_moe that ran), ``last_fail`` (largest
    n_cpu_moe below it that failed out of memory; None when none did), and the other failures."""

    session_id: str
    first_fit: int | None
    last_fail: int | None
    other_failures: list[int]


def fit_boundary(pts: pl.DataFrame) -> list[Boundary]:
    """One ``Boundary`` per session of ``pts`` (``points`` output)."""
    out = []
    for (sid,), g in pts.group_by(["session_id"], maintain_order=True):
        ok = sorted(g.filter(pl.col("status") == "ok")["n_cpu_moe"].unique().to_list())
        oom = g.filter((pl.col("status") == "failed") & pl.col("reason").str.starts_with("out of memory"))
        first = ok[0] if ok else None
        below = [n for n in oom["n_cpu_moe"].to_list() if first is None or n < first]
        other = sorted(set(g.filter(pl.col("status") == "failed")["n_cpu_moe"].to_list()) - set(below))
        out.append(Boundary(sid, first, max(below) if below else None, other))
    return out


def newest_bandwidth(bw: pl.DataFrame) -> pl.DataFrame:
    """Per host the newest ok record of ``bandwidth`` output: host_id, bandwidth_gb_s, bandwidth_mode,
    bandwidth_file, bandwidth_line, bandwidth_run_id."""
    return (
        bw.filter(pl.col("status") == "ok")
        .group_by("host_id")
        .agg(
            pl.col("gb_per_s").last().alias("bandwidth_gb_s"),
            pl.col("mode").last().alias("bandwidth_mode"),
            pl.col("file").last().alias("bandwidth_file"),
            pl.col("line").last().alias("bandwidth_line"),
            pl.col("run_id").last().alias("bandwidth_run_id"),
        )
    )


def roofline(pts: pl.DataFrame, bw: pl.DataFrame) -> pl.DataFrame:
    """tg rows of ``pts`` with ``achieved_gb_s`` (= mean_tps × decode_bytes_total / 1e9),
    ``bandwidth_gb_s`` (the newest ok bandwidth record of the host), ``roofline_pct`` (achieved as %
    of it), ``gpu_roofline_pct`` (GPU-resident bytes only) and ``bandwidth_mode`` (cuda | fake)."""
    best = newest_bandwidth(bw)
    tg = pts.filter((pl.col("test") == "tg") & (pl.col("status") == "ok")).join(
        best, on="host_id", how="left"
    )
    achieved = pl.col("mean_tps") * pl.col("decode_bytes_total") / 1e9
    return tg.with_columns(
        achieved.alias("achieved_gb_s"),
        (achieved / pl.col("bandwidth_gb_s") * 100).alias("roofline_pct"),
        (pl.col("mean_tps") * pl.col("decode_bytes_gpu") / 1e9 / pl.col("bandwidth_gb_s") * 100).alias(
            "gpu_roofline_pct"
        ),
    )

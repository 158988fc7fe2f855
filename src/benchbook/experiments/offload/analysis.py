"""Offload analysis: raw records -> one row per (sweep point, test) -> per-point rates, the fit
boundary and the decode roofline.

* ``load(raw_dir)``: one row per ``benchbook.offload`` output row (pp or tg) and one per failed point
  (``test`` null, ``status`` "failed", ``reason``), each with file and line.
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

from benchbook.records import iter_records
from benchbook.stats import add_t_interval

from . import BANDWIDTH_SCHEMA, EXPERIMENT, MODEL_BYTES_SCHEMA, SCHEMA

_ROW = {
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


def _row(rec: dict, path: Path, line: int) -> dict:
    lb = rec.get("llama_bench") or {}
    pl_ = rec.get("placement") or {}
    db = rec.get("decode_bytes") or {}
    ballast = rec.get("ballast") or {}
    test = None if not lb else ("tg" if lb.get("n_gen", 0) > 0 else "pp")
    return {
        "host_id": rec.get("host_id"),
        "session_id": rec.get("session_id"),
        "toolchain_id": rec.get("toolchain_id"),
        "profile": rec.get("profile"),
        "model_id": rec.get("model_id"),
        "model_sha256": rec.get("model_sha256"),
        "synthetic_inputs": rec.get("synthetic_inputs"),
        "n_cpu_moe": rec.get("n_cpu_moe"),
        "test": test,
        "n_prompt": lb.get("n_prompt"),
        "n_gen": lb.get("n_gen"),
        "status": rec.get("status"),
        "reason": rec.get("reason"),
        "samples_ts": lb.get("samples_ts"),
        "avg_ts": lb.get("avg_ts"),
        "peak_gpu_mem_mib": rec.get("peak_gpu_mem_mib"),
        "gpu_used_before_mib": rec.get("gpu_used_before_mib"),
        "budget_free_mib": rec.get("budget_free_mib"),
        "ballast_mode": ballast.get("mode"),
        "ballast_held_mib": ballast.get("held_mib"),
        "cpu_expert_blocks": len(pl_.get("cpu_expert_blocks") or []),
        "n_layer": pl_.get("n_layer"),
        "decode_bytes_total": db.get("total"),
        "decode_bytes_gpu": db.get("gpu"),
        "started_at": rec.get("started_at"),
        "ended_at": rec.get("ended_at"),
        "argv": rec.get("argv"),
        "run_id": rec.get("run_id"),
        "file": str(path),
        "line": line,
    }


def load(raw_dir: Path) -> pl.DataFrame:
    """Rows of ``raw_dir/offload/*.jsonl`` (columns ``_ROW``): ok output rows of complete runs and
    failed points; partial runs (a kill between rows) are dropped."""
    rows = []
    for f in _files(raw_dir):
        for line, rec in iter_records(f):
            if rec.get("experiment") != EXPERIMENT or rec.get("n_cpu_moe") is None:
                continue
            if rec.get("schema") == SCHEMA or rec.get("schema") == "benchbook.run_failed":
                rows.append(_row(rec, f, line))
    df = pl.DataFrame(rows, schema=_ROW)
    ok = df.filter(pl.col("status") == "ok")
    complete = ok.group_by("run_id").agg(pl.len().alias("_n"))
    return pl.concat([ok.join(complete, on="run_id").drop("_n"), df.filter(pl.col("status") != "ok")])


def _kind(raw_dir: Path, schema: str) -> list[dict]:
    out = []
    for f in _files(raw_dir):
        for line, rec in iter_records(f):
            if rec.get("schema") == schema:
                out.append({**rec, "file": str(f), "line": line})
    return out


def bandwidth(raw_dir: Path) -> pl.DataFrame:
    """Device-to-device copy bandwidth records: host_id, session_id, mode, device, gb_per_s, status,
    file, line, run_id (``gb_per_s`` null where the measurement failed)."""
    rows = [
        {
            "host_id": r["host_id"],
            "session_id": r["session_id"],
            "mode": r.get("mode"),
            "device": r.get("device"),
            "gb_per_s": r.get("gb_per_s"),
            "status": r.get("status"),
            "error": r.get("error"),
            "file": r["file"],
            "line": r["line"],
            "run_id": r["run_id"],
        }
        for r in _kind(raw_dir, BANDWIDTH_SCHEMA)
    ]
    return pl.DataFrame(
        rows,
        schema={
            "host_id": pl.String,
            "session_id": pl.String,
            "mode": pl.String,
            "device": pl.String,
            "gb_per_s": pl.Float64,
            "status": pl.String,
            "error": pl.String,
            "file": pl.String,
            "line": pl.Int64,
            "run_id": pl.String,
        },
    )


def model_bytes(raw_dir: Path) -> pl.DataFrame:
    """Bytes read per decoded token per (session, model sha256, n_cpu_moe): decode_bytes_total/gpu/cpu."""
    rows = [
        {
            "host_id": r["host_id"],
            "session_id": r["session_id"],
            "model_id": r["model_id"],
            "model_sha256": r["model_sha256"],
            "n_cpu_moe": r.get("n_cpu_moe"),
            "decode_bytes_total": r["decode_bytes"]["total"],
            "decode_bytes_gpu": r["decode_bytes"]["gpu"],
            "decode_bytes_cpu": r["decode_bytes"]["cpu"],
            "file": r["file"],
            "line": r["line"],
        }
        for r in _kind(raw_dir, MODEL_BYTES_SCHEMA)
    ]
    return pl.DataFrame(
        rows,
        schema={
            "host_id": pl.String,
            "session_id": pl.String,
            "model_id": pl.String,
            "model_sha256": pl.String,
            "n_cpu_moe": pl.Int64,
            "decode_bytes_total": pl.Int64,
            "decode_bytes_gpu": pl.Int64,
            "decode_bytes_cpu": pl.Int64,
            "file": pl.String,
            "line": pl.Int64,
        },
    )


_KEYS = ["host_id", "session_id", "toolchain_id", "model_id", "n_cpu_moe", "test"]


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


def roofline(pts: pl.DataFrame, bw: pl.DataFrame) -> pl.DataFrame:
    """tg rows of ``pts`` with ``achieved_gb_s`` (= mean_tps × decode_bytes_total / 1e9),
    ``bandwidth_gb_s`` (the newest ok bandwidth record of the host), ``roofline_pct`` (achieved as %
    of it), ``gpu_roofline_pct`` (GPU-resident bytes only) and ``bandwidth_mode`` (cuda | fake)."""
    best = (
        bw.filter(pl.col("status") == "ok")
        .group_by("host_id")
        .agg(
            pl.col("gb_per_s").last().alias("bandwidth_gb_s"),
            pl.col("mode").last().alias("bandwidth_mode"),
            pl.col("file").last().alias("bandwidth_file"),
            pl.col("line").last().alias("bandwidth_line"),
        )
    )
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

"""Template analysis: raw ``benchbook.template`` records -> one row per run -> per-size throughput.

Throughput of a run is ``size_bytes / wall_ns`` in MiB/s; the headline per size is the mean of the
per-run rates with its Student-t interval (``benchbook.stats``), per host and session.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from benchbook import schemas
from benchbook.jsonl import scan_jsonl, validate
from benchbook.schemas import polars_schema
from benchbook.stats import add_t_interval

from . import EXPERIMENT, SCHEMA

#: the columns read, typed as the kind declares them (``KIND`` in this package)
FIELDS = polars_schema(
    EXPERIMENT,
    only=["run_id", "session_id", "host_id", "toolchain_id", "runtime", "size_bytes", "rep", "wall_ns"],
)


def load(raw_dir: Path) -> pl.DataFrame:
    """One row per run under ``raw_dir/template/``: FIELDS plus ``file``, ``line`` and ``mib_s``.

    Raises:
        records.RecordError: a line is not JSON, or a field is missing/invalid (file:line, field, fix).
    """
    folder = Path(raw_dir) / EXPERIMENT
    files: list[str | Path] = sorted(
        f for f in folder.glob("*.jsonl") if not f.name.endswith(".quarantine.jsonl")
    )
    df = scan_jsonl(files, FIELDS).filter(pl.col("schema") == SCHEMA).collect()
    fix = "must be a positive integer; fix: re-run the measurement"
    checks = {
        **schemas.checks(EXPERIMENT, only=FIELDS),
        "size_bytes": (pl.col("size_bytes") > 0, fix),
        "wall_ns": (pl.col("wall_ns") > 0, fix),
    }
    df = validate(df, checks)
    return df.with_columns((pl.col("size_bytes") / 2**20 / (pl.col("wall_ns") / 1e9)).alias("mib_s"))


def table(runs: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Per (host, session, build, size): n, runtime, mean_mib_s, sd_mib_s, ci_low, ci_high, files, lines,
    run_ids."""
    g = runs.group_by("host_id", "session_id", "toolchain_id", "size_bytes", maintain_order=True).agg(
        pl.len().alias("n"),
        pl.col("runtime").first(),
        pl.col("mib_s").mean().alias("mean_mib_s"),
        pl.col("mib_s").std().alias("sd_mib_s"),
        pl.col("file").unique().alias("files"),
        pl.col("line").sort().alias("lines"),
        pl.col("run_id").alias("run_ids"),
    )
    return add_t_interval(g, "mean_mib_s", "sd_mib_s", "n", "ci_low", "ci_high", confidence)

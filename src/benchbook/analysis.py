"""Analysis: Polars tables from raw JSONL and statistics from raw samples.

Conventions (DESIGN.md, "Statistics and caveats"):

* A headline rate is the mean of per-repetition rates, as llama-bench's ``avg_ts``
  (``tools/llama-bench/llama-bench.cpp``: ``ts = 1e9 * (n_prompt + n_gen) / t_ns`` per sample, then
  averaged), never total tokens over total time.
* Its interval is Student's t 95% interval over the per-repetition rates:
  ``mean ± t_{0.975, n-1} · sd / sqrt(n)`` with the sample standard deviation (ddof=1), as in any
  statistics text (e.g. NIST/SEMATECH e-Handbook §7.2.2.1).  n < 2 gives no interval.
* pp and tg rows are separate tests; rates are never averaged across them.
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
from scipy import stats as sps

from .records import read_records


def t_interval(mean: float, sd: float | None, n: int, confidence: float = 0.95) -> list[float] | None:
    """Student-t interval ``[low, high]`` for a mean of ``n`` samples with sample sd ``sd``; None when n < 2."""
    if n < 2 or sd is None or not math.isfinite(sd):
        return None
    half = float(sps.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return [mean - half, mean + half]


def load_llama_bench(raw_dir: str | Path) -> pl.DataFrame:
    """One row per llama-bench test row of every complete run under ``raw_dir`` (``*.jsonl``).

    Columns: file, line, run_id, session_id, host_id, toolchain_id, model_id, model_sha256, phase,
    test ("pp" | "tg" | "pg"), n_prompt, n_gen, n_depth, samples_ns (list[i64]), avg_ts,
    build_number, build_commit, backends, started_at, ended_at, load1_start, load1_end, argv,
    git_commit, git_dirty, peak_rss_bytes.  Rows of an invocation cut short by a kill
    (fewer rows than ``rows_total``) are dropped.

    Raises:
        records.RecordError: a line is not a valid record (file:line named).
    """
    files = sorted(Path(raw_dir).glob("*.jsonl"))
    files = [f for f in files if not f.name.endswith(".quarantine.jsonl")]
    recs = read_records(files, schema="benchbook.llama_bench")
    rows = []
    for r in recs:
        lb = r["llama_bench"]
        n_p, n_g = int(lb["n_prompt"]), int(lb["n_gen"])
        rows.append({
            "file": r["_file"], "line": r["_line"], "run_id": r["run_id"], "session_id": r["session_id"],
            "host_id": r["host_id"], "toolchain_id": r["toolchain_id"], "model_id": r["model_id"],
            "model_sha256": r["model_sha256"], "phase": r["phase"],
            "test": "pp" if n_g == 0 else ("tg" if n_p == 0 else "pg"),
            "n_prompt": n_p, "n_gen": n_g, "n_depth": int(lb.get("n_depth", 0)),
            "samples_ns": [int(x) for x in lb["samples_ns"]], "avg_ts": float(lb["avg_ts"]),
            "build_number": int(lb["build_number"]), "build_commit": str(lb.get("build_commit")),
            "backends": str(lb.get("backends")), "started_at": r["started_at"], "ended_at": r["ended_at"],
            "load1_start": float(r["load_start"]["loadavg"][0]), "load1_end": float(r["load_end"]["loadavg"][0]),
            "argv": r["argv"], "git_commit": r.get("git_commit"), "git_dirty": r.get("git_dirty"),
            "peak_rss_bytes": int(r.get("peak_rss_bytes") or 0), "rows_total": int(r.get("rows_total", 1)),
        })
    schema = {"samples_ns": pl.List(pl.Int64), "argv": pl.List(pl.String)}
    df = pl.DataFrame(rows, schema_overrides=schema, infer_schema_length=None) if rows else pl.DataFrame()
    if df.is_empty():
        return df
    df = df.filter(pl.len().over("run_id") == pl.col("rows_total")).drop("rows_total")
    return df


CONFIG_COLS = ["host_id", "toolchain_id", "session_id", "model_id", "model_sha256", "phase", "test",
               "n_prompt", "n_gen", "n_depth"]


def rate_stats(df: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Per configuration (CONFIG_COLS): per-repetition rates from ``samples_ns`` and their statistics.

    Output columns: CONFIG_COLS + n, mean_tps, sd_tps, cv, ci_low_tps, ci_high_tps, llama_bench_avg_ts
    (llama-bench's own average, for the consistency check), files, lines (list), run_ids (list),
    argv (first), build_number, build_commit, started_at (min), ended_at (max), load1_max,
    peak_rss_bytes (max).  Rate per sample: ``1e9 * (n_prompt + n_gen) / samples_ns`` tok/s.
    """
    if df.is_empty():
        return df
    per = (df.explode("samples_ns")
             .with_columns((1e9 * (pl.col("n_prompt") + pl.col("n_gen")) / pl.col("samples_ns")).alias("ts")))
    g = (per.group_by(CONFIG_COLS, maintain_order=True)
            .agg(pl.len().alias("n"), pl.col("ts").mean().alias("mean_tps"), pl.col("ts").std().alias("sd_tps"),
                 pl.col("avg_ts").mean().alias("llama_bench_avg_ts"), pl.col("file").unique().alias("files"),
                 pl.col("line").unique().sort().alias("lines"), pl.col("run_id").unique().alias("run_ids"),
                 pl.col("argv").first().alias("argv"), pl.col("build_number").first(),
                 pl.col("build_commit").first(), pl.col("started_at").min(), pl.col("ended_at").max(),
                 pl.max_horizontal("load1_start", "load1_end").max().alias("load1_max"),
                 pl.col("peak_rss_bytes").max()))
    g = g.with_columns((pl.col("sd_tps") / pl.col("mean_tps")).alias("cv"))
    lows, highs = [], []
    for m, s, n in g.select("mean_tps", "sd_tps", "n").iter_rows():
        ci = t_interval(m, s, n, confidence)
        lows.append(ci[0] if ci else None)
        highs.append(ci[1] if ci else None)
    return g.with_columns(pl.Series("ci_low_tps", lows, dtype=pl.Float64),
                          pl.Series("ci_high_tps", highs, dtype=pl.Float64))


def latest_completed_session(raw_dir: str | Path, experiment: str) -> dict | None:
    """``{"session_id", "host_id", "file"}`` of the newest session with an end record, or None."""
    best = None
    for f in sorted(Path(raw_dir).glob("*.jsonl")):
        if f.name.endswith(".quarantine.jsonl"):
            continue
        starts = {}
        for r in read_records([f], schema="benchbook.session"):
            if r.get("experiment") != experiment:
                continue
            if r["event"] == "start":
                starts.setdefault(r["session_id"], r)
            elif r["event"] == "end" and r["session_id"] in starts:
                if best is None or r["at"] > best["at"]:
                    best = {"session_id": r["session_id"], "host_id": starts[r["session_id"]].get("host_id"),
                            "file": str(f), "at": r["at"]}
    return best

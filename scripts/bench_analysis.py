#!/usr/bin/env python
"""Benchmark of the analysis layer on synthetic raw records (time and peak memory per size).

For each size N (default 10k, 100k, 1M) a fresh child process:
  1. generates N synthetic ``benchbook.llama_bench`` records (5 samples each, about 2.6 KiB like real ones;
     ``--lean``: about 1 KiB) in one JSONL file per host (not timed as analysis; printed as ``gen_s``),
  2+3. loads, validates and aggregates them file by file (``analysis.rate_stats_raw``; with ``--full``:
     ``analysis.load_llama_bench`` (whole flat table) then ``analysis.rate_stats``, printed separately),
  4. runs every caveat rule that applies to the llama-bench table (``caveats.evaluate``),
  5. writes the numbers registry for the latest session of every host (``numbers.publish``),
and prints seconds per step, the total (2-5), its CPU seconds (user + system: on a shared host wall time
measures the contention, CPU time the analysis) and the child's peak RSS.

Records carry llama-bench's full b11434 field set plus ``UNKNOWN_FIELDS`` (fields the code does not
declare), so the configuration-identity rule runs as it does on foreign data.

Goal: 1M records in <= 15 s and <= 1 GiB peak RSS on a 2-core machine.

    python scripts/bench_analysis.py                 # 10k, 100k, 1M
    python scripts/bench_analysis.py --sizes 10000   # one size
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import polars as pl

HOSTS = 20
#: the goal: 1M records analysed in at most 15 s and 1 GiB peak RSS on a 2-core machine
TARGET = {"records": 1_000_000, "total_s": 15.0, "peak_rss_mib": 1024}
CONFIGS_PER_SESSION = 500
#: llama-bench row fields outside the declared b11434 set, written into every realistic record so that
#: the configuration-identity rule (``benchbook.identity``) is exercised: discovered, decoded, keyed
UNKNOWN_FIELDS = {"kv_unified": False, "n_seq_max": 1, "fork_tag": "draft-self"}


def generate(n: int, out: Path, seed: int = 0, lean: bool = False) -> None:
    """Write ``n`` valid llama-bench records in HOSTS files (one host at a time, so the generator's own
    memory stays small); each session of a host measures CONFIGS_PER_SESSION configurations (25 models x
    pp/tg x threads), so more records means more sessions; the registry holds the latest session of each
    host (HOSTS x CONFIGS_PER_SESSION numbers).

    Records have the shape and size of real ones (about 2.5 KiB: ``config``, ``cache_state``, full
    ``load_end.top_processes``, every llama-bench output field, ``samples_ts``; compare
    data/raw/llama_bench/*.jsonl); ``lean`` writes only the fields analysis reads (about 1 KiB)."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    for h in range(HOSTS):
        i = np.arange(h, n, HOSTS)
        m = len(i)
        if m == 0:
            continue
        k = i // HOSTS  # index within the host
        session = k // CONFIGS_PER_SESSION  # a session measures CONFIGS_PER_SESSION configurations
        cfg = k % CONFIGS_PER_SESSION
        model = cfg % 25
        is_tg = (cfg // 25) % 2 == 1
        threads = 1 + (cfg // 50) % 64
        phase = np.where(cfg % 97 == 0, "cold", "warm")
        n_prompt = np.where(is_tg, 0, 512)
        n_gen = np.where(is_tg, 128, 0)
        base_ns = np.where(is_tg, 2.0e9, 1.0e9) * (1 + model / 25)
        samples = (base_ns[:, None] * rng.normal(1.0, 0.03, size=(m, 5))).astype(np.int64)
        rates = 1e9 * (n_prompt + n_gen)[:, None] / samples
        load1 = rng.uniform(0.0, 1.5, size=m).round(2)
        loadavg = pl.Series(np.stack([load1, load1, load1], 1)).cast(pl.List(pl.Float64))
        sha = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
        gguf = f"/root/.cache/benchbook/models/{sha}.gguf"
        model_ids = pl.Series([f"smollm2-135m-model-{j}-q4_1" for j in range(25)])[model]
        lb = {"build_commit": "unknown", "build_number": 11434}
        if not lean:
            lb.update(
                {
                    "cpu_info": "AMD EPYC 7B13 64-Core Processor",
                    "gpu_info": "",
                }
            )
        lb["backends"] = "CPU"
        if not lean:
            lb.update(
                {
                    "model_filename": gguf,
                    "model_type": "llama 256M Q4_1",
                    "model_size": 96576768,
                    "model_n_params": 134515008,
                    "n_batch": 2048,
                    "n_ubatch": 512,
                }
            )
        lb["n_threads"] = threads
        if not lean:
            lb.update({"cpu_mask": "0x0", "cpu_strict": False, "poll": 50})
        lb.update({"type_k": "f16", "type_v": "f16", "n_gpu_layers": 99, "n_cpu_moe": 0})
        if not lean:
            lb.update({"split_mode": "layer", "main_gpu": 0, "no_kv_offload": False})
        lb["flash_attn"] = -1
        if not lean:
            lb.update(
                {
                    "devices": "auto",
                    "tensor_split": "0.00",
                    "tensor_buft_overrides": "none",
                    "load_mode": "auto",
                    "lazy_mode": "auto",
                    "embeddings": False,
                    "no_op_offload": 0,
                    "no_host": False,
                    "repack": True,
                    "fit_target": 0,
                    "fit_min_ctx": 0,
                }
            )
            # fields this code does not declare (a fork's or a newer build's): kept, keyed, warned
            lb.update({k: v for k, v in UNKNOWN_FIELDS.items()})
        lb.update({"n_prompt": n_prompt, "n_gen": n_gen, "n_depth": 0})
        if not lean:
            lb.update(
                {
                    "test_time": "2026-11-29T11:51:40Z",
                    "avg_ns": samples.mean(1).astype(np.int64),
                    "stddev_ns": samples.std(1, ddof=1).astype(np.int64),
                }
            )
        lb["avg_ts"] = rates.mean(1)
        if not lean:
            lb["stddev_ts"] = rates.std(1, ddof=1)
        lb["samples_ns"] = pl.Series(samples).cast(pl.List(pl.Int64))
        if not lean:
            lb["samples_ts"] = pl.Series(rates.round(4)).cast(pl.List(pl.Float64))
        cols = {
            "schema": "benchbook.llama_bench",
            "schema_version": 1,
            "run_id": pl.Series(i).cast(pl.String).str.zfill(32),
            "run_key": pl.Series(cfg).cast(pl.String).str.zfill(16),
            "experiment": "llama_bench",
            "phase": phase,
        }
        if not lean:
            cols["config"] = pl.DataFrame(
                {
                    "n_prompt": n_prompt,
                    "n_gen": n_gen,
                    "n_depth": 0,
                    "repetitions": 5,
                    "threads": threads,
                    "n_gpu_layers": 99,
                    "flash_attn": "auto",
                    "model_id": model_ids,
                    "phase": phase,
                }
            ).to_struct()
            argv = [
                "llama-bench",
                "-m",
                gguf,
                "-p",
                "512",
                "-n",
                "128",
                "-d",
                "0",
                "-t",
                "2",
                "-ngl",
                "99",
                "-fa",
                "auto",
                "-o",
                "jsonl",
                "-r",
                "5",
                "--no-warmup",
            ]
        else:
            argv = ["llama-bench", "-m", "/models/m.gguf", "-p", "512", "-n", "128", "-r", "5", "-o", "jsonl"]
        cols.update(
            {
                "argv": pl.Series([argv] * m, dtype=pl.List(pl.String)),
                "host_id": pl.Series([f"{h:016d}"] * m),
                "toolchain_id": "6bcbdc2942c465ab",
                "model_id": model_ids,
                "model_sha256": sha,
                "git_commit": "66ae4d84d91f207e7908afba438fa3a2e528a26c" if not lean else "9ddff54",
                "git_dirty": False,
                "started_at": "2026-11-29T11:51:38.908559Z",
                "ended_at": "2026-11-29T11:52:08.391299Z",
            }
        )
        if lean:
            cols["load_start"] = pl.DataFrame({"loadavg": loadavg}).to_struct()
            cols["load_end"] = cols["load_start"]
        else:
            top = [
                {"pid": 15407, "name": "llama-bench", "cpu_percent": 99.5},
                {"pid": 77, "name": "kdamond.0", "cpu_percent": 0.5},
                {"pid": 1, "name": "process_api", "cpu_percent": 0.3},
            ]
            cols["load_start"] = pl.DataFrame(
                {
                    "loadavg": loadavg,
                    "governor": pl.Series([None] * m, dtype=pl.String),
                    "cpu_mhz": 2596,
                    "top_processes": pl.Series(
                        [[]] * m,
                        dtype=pl.List(
                            pl.Struct({"pid": pl.Int64, "name": pl.String, "cpu_percent": pl.Float64})
                        ),
                    ),
                }
            ).to_struct()
            cols["load_end"] = pl.DataFrame(
                {
                    "loadavg": loadavg,
                    "governor": pl.Series([None] * m, dtype=pl.String),
                    "cpu_mhz": 2596,
                    "top_processes": pl.Series([top] * m),
                }
            ).to_struct()
            cols["cache_state"] = pl.DataFrame(
                {
                    "method": ["posix_fadvise_dontneed"] * m,
                    "resident_before_pct": 100.0,
                    "resident_after_pct": 0.0,
                    "evicted": True,
                }
            ).to_struct()
        cols.update(
            {"peak_rss_bytes": 137396224, "peak_gpu_mem_mib": pl.Series([None] * m, dtype=pl.Float64)}
        )
        if not lean:
            cols.update({"wall_ns": samples.sum(1) + 1_500_000_000, "row_index": 0})
        cols.update(
            {
                "rows_total": 1,
                "run_complete": True,
                "status": "ok",
                "llama_bench": pl.DataFrame(lb).to_struct(),
                "session_id": pl.Series(h * 1000 + session).cast(pl.String).str.zfill(32),
            }
        )
        pl.DataFrame(cols).write_ndjson(out / f"{h:016d}.jsonl")


def _cpu_s() -> float:
    """CPU seconds (user + system, every thread) this process has used: on a host shared with other
    work, wall time measures the contention; CPU time measures the analysis."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_one(n: int, lean: bool = False, full: bool = False, data: str | None = None) -> dict:
    from benchbook import caveats
    from benchbook.experiments.llama_bench import analysis
    from benchbook.numbers import Number, build_label, line_ranges, make_key_expr, publish

    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(data) / f"{n}{'-lean' if lean else ''}" if data else Path(tmp) / "raw"
        t = time.perf_counter()
        # generated by another process, so this one's peak RSS is the analysis alone
        if not (raw / "done").exists():
            subprocess.run(
                [sys.executable, __file__, "--gen", str(n), str(raw)] + (["--lean"] if lean else []),
                check=True,
            )
            (raw / "done").touch()
        res = {
            "n": n,
            "gen_s": time.perf_counter() - t,
            "bytes": sum(p.stat().st_size for p in raw.glob("*.jsonl")),
        }
        t0 = time.perf_counter()
        c0 = _cpu_s()
        report: dict = {}
        warnings.simplefilter("ignore")  # the identity warnings are counted from report["warnings"]
        if full:  # the whole flat table, then the statistics
            df = analysis.load_llama_bench(raw, on_error="raise", report=report)
            t1 = time.perf_counter()
            peaks = [_peak_mib()]
            st = analysis.rate_stats(df)
            rows = df.height
            del df
        else:  # file by file: the same table without holding every raw row
            t1 = t0
            peaks = [0]
            st = analysis.rate_stats_raw(raw, on_error="raise", report=report)
            rows = report["rows"]
        t2 = time.perf_counter()
        peaks.append(_peak_mib())
        st, status = caveats.evaluate(st, "llama_bench", {"cores": 2})
        t3 = time.perf_counter()
        peaks.append(_peak_mib())
        latest = st.filter(pl.col("session_id") == pl.col("session_id").max().over("host_id")).with_columns(
            make_key_expr(
                pl.lit("lb"),
                "host_id",
                "model_id",
                "test",
                pl.lit("t") + pl.col("n_threads").cast(pl.String),
                "phase",
            ).alias("key")
        )
        nums = [
            Number(
                key=r["key"],
                value=round(r["mean_tps"], 2),
                unit="tok/s",
                label=r["model_id"],
                n=r["n"],
                sd=r["sd_tps"],
                ci95=[r["ci_low_tps"], r["ci_high_tps"]] if r["ci_low_tps"] is not None else None,
                ci_method="student-t",
                sources=[{"file": f, "lines": line_ranges(r["lines"])} for f in r["files"]],
                run_ids=r["run_ids"],
                commands=[r["argv"]],
                toolchain_id=r["toolchain_id"],
                build=build_label(r["build_number"], r["build_commit"], "cpu"),
                build_number=r["build_number"],
                build_commit=r["build_commit"],
                model_sha256=r["model_sha256"],
                host_id=r["host_id"],
                session_id=r["session_id"],
                measured_from=r["started_at"],
                measured_to=r["ended_at"],
                caveats=r["caveats"],
                computation="benchbook.experiments.llama_bench.analysis.rate_stats",
            )
            for r in latest.iter_rows(named=True)
        ]
        publish(Path(tmp) / "numbers" / "bench.json", "bench", nums, replication="synthetic rows")
        t4 = time.perf_counter()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    res.update(
        load_validate_s=t1 - t0,
        aggregate_s=t2 - t1,
        caveats_s=t3 - t2,
        registry_s=t4 - t3,
        total_s=t4 - t0,
        cpu_s=_cpu_s() - c0,
        peak_rss_mib=rss / 2**20,
        peak_after_mib=[round(p) for p in peaks],
        rows=rows,
        configs=st.height,
        numbers=len(nums),
        rules_applied=sum(v == "applied" for v in status.values()),
        caveated=int((st["caveats"].list.len() > 0).sum()),
        warnings=len(report.get("warnings", [])),
    )
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--gen", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument(
        "--full",
        action="store_true",
        help="load_llama_bench (whole flat table) then rate_stats, instead of rate_stats_raw",
    )
    ap.add_argument(
        "--lean",
        action="store_true",
        help="write only the fields analysis reads (about 1 KiB a record, not the real 2.5 KiB)",
    )
    ap.add_argument(
        "--data",
        help="keep the generated records in DATA/<size> and reuse them on the next run (default: a "
        "temporary folder, generated every run)",
    )
    a = ap.parse_args()
    if a.gen:
        generate(int(a.gen[0]), Path(a.gen[1]), lean=a.lean)
        return 0
    if a.one:
        print(json.dumps(run_one(a.one, a.lean, a.full, a.data)))
        return 0
    import os

    print(
        f"records: {'lean (~1 KiB)' if a.lean else 'realistic (~2.5 KiB)'}; path: "
        + (
            "load_llama_bench + rate_stats"
            if a.full
            else "rate_stats_raw (load+validate+aggregate file by file)"
        )
    )
    print(
        f"{'records':>9} {'MiB':>6} {'B/rec':>5} {'gen_s':>6} | "
        f"{'load+val':>8} {'agg':>6} {'caveats':>7} {'registry':>8} "
        f"{'TOTAL_s':>7} {'cpu_s':>6} {'peakRSS':>8} | configs numbers caveated  load avg before -> after"
    )
    results = []
    for n in a.sizes:
        load0 = os.getloadavg()[0]
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(n)]
            + (["--data", a.data] if a.data else [])
            + (["--lean"] if a.lean else [])
            + (["--full"] if a.full else []),
            capture_output=True,
            text=True,
        )
        if out.returncode:
            print(out.stderr, file=sys.stderr)
            return 1
        r = json.loads(out.stdout.strip().splitlines()[-1])
        results.append(r)
        print(
            f"{r['n']:>9,} {r['bytes'] / 2**20:>6.0f} {r['bytes'] / r['n']:>5.0f} {r['gen_s']:>6.1f} | "
            f"{r['load_validate_s']:>8.2f} "
            f"{r['aggregate_s']:>6.2f} {r['caveats_s']:>7.2f} {r['registry_s']:>8.2f} {r['total_s']:>7.2f} "
            f"{r['cpu_s']:>6.1f} "
            f"{r['peak_rss_mib']:>6.0f}Mi | {r['configs']:>7,} {r['numbers']:>7,} {r['caveated']:>8,}"
            f"  {load0:.2f} -> {os.getloadavg()[0]:.2f}"
            f"  (rules applied: {r['rules_applied']}; peak MiB after load/agg/caveats: {r['peak_after_mib']})"
        )
    if len(results) > 1:
        lo, hi = results[0], results[-1]
        print(
            f"scaling {lo['n']:,} -> {hi['n']:,} records (x{hi['n'] / lo['n']:.0f}): total time "
            f"x{hi['total_s'] / lo['total_s']:.1f}, CPU time x{hi['cpu_s'] / lo['cpu_s']:.1f}, "
            f"peak RSS x{hi['peak_rss_mib'] / lo['peak_rss_mib']:.1f}; "
            f"unknown-field warnings per load: {hi['warnings']}"
        )
    for r in results:
        if r["n"] == TARGET["records"]:
            t_ok = "met" if r["total_s"] <= TARGET["total_s"] else "NOT met"
            m_ok = "met" if r["peak_rss_mib"] <= TARGET["peak_rss_mib"] else "NOT met"
            print(
                f"target for {r['n']:,} records on 2 cores: total {r['total_s']:.1f} s <= "
                f"{TARGET['total_s']} s {t_ok}; peak RSS {r['peak_rss_mib']:.0f} MiB <= "
                f"{TARGET['peak_rss_mib']} MiB {m_ok} (the time holds on a quiet host only: compare the "
                "load average printed beside it with the 2 cores)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Depth sweep tables: llama-bench rows against depth, server requests against depth, and the cost model.

* ``bench_table``: one row per llama-bench test (model, n_depth, n_prompt, n_gen): mean rate avg_ts
  (llama-bench's own mean of per-repetition rates), its sd and n, the mean time avg_ns and the
  per-repetition times samples_ns.
* ``request_table``: one row per ``/completion`` (timings, the draft counters, wall time, peak GPU memory).
* ``depth_table``: one row per (host, session, configuration, depth), each configuration against the
  baseline of its own session and depth: decode rate (mean over repetitions of predicted_per_second)
  and prefill rate, their ratios to the baseline, whether the greedy tokens equal the baseline's at
  every repetition (the output_mismatch rule), α, τ, k (drafted per verify step), and the cost model
  twice:

  - before (llama-bench terms, DESIGN.md): speedup = τ / (k·c + r(k+1)), c = draft tg step ÷ target tg
    step and r(n) = pp(n) pass ÷ target tg step, both from this session's llama-bench rows at the same
    depth, each test's time the median of its repetitions (r interpolated linearly between measured n,
    none outside them; c = 1 when the draft is the target itself);
  - after (the draft timed inside llama-server): the same formula with c_server = the server's own
    drafting time per drafted token (``dur(b,g,a)``'s g, ``common_speculative_print_stats``) ÷ the
    baseline's decode step (Σ predicted_ms ÷ Σ (predicted_n − 1): the first token comes out of the
    prompt pass); beside it v_server = (decode time − drafting time) ÷ verify steps ÷ the baseline
    step, the verify pass plus per-step overhead as measured, to compare with r(k+1).
    residual = model ÷ measured − 1.  ``cost_r1`` = r(1) of the model at that depth (the caveat
    ``cost_rows_disturbed``'s input).

  The arithmetic is ``benchbook.costmodel``'s, shared with the speculative experiment.

  Verify steps are the draft generations counted by the server (``gen_drafts``); τ = 1 + accepted ÷
  verify steps, the accepted tokens past a request's cap left out (as
  ``experiments.speculative.analysis.tau``).
* ``memory_per_draft_token``: the least-squares slope of peak GPU memory against n_max over the
  configurations that share a draft model (MiB per draft token), per host and depth.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import polars as pl

from ... import benchrows, costmodel
from ...records import jsonl_lines
from ...stats import paired_ratio_interval, sample_interval
from ..speculative import analysis as spec
from . import EXPERIMENT, REQUEST_SCHEMA


def _records(raw_dir: str | Path, schema: str) -> list[tuple[str, int, dict]]:
    """``(file, line, record)`` of every record of ``schema`` under ``raw_dir/spec_depth/*.jsonl``."""
    out = []
    for f in sorted((Path(raw_dir) / EXPERIMENT).glob("*.jsonl")):
        for i, line in enumerate(jsonl_lines(f.read_text(encoding="utf-8")), 1):
            if line.strip():
                rec = json.loads(line)
                if rec.get("schema") == schema and rec.get("status", "ok") == "ok":
                    out.append((str(f), i, rec))
    return out


#: what ``bench_table`` reads of a llama-bench row record (``benchrows``) and of llama-bench's own row
_BENCH_KEYS = ("host_id", "session_id", "toolchain_id", "role", "model_id", "model_sha256")
_BENCH_READ = [*_BENCH_KEYS, "llama_bench", "run_id"]
_BENCH_ROW = {"llama_bench": ["n_depth", "n_prompt", "n_gen", "avg_ts", "stddev_ts", "avg_ns", "samples_ns"]}


def bench_table(raw_dir: str | Path) -> pl.DataFrame:
    """One row per llama-bench test of the depth sweep (``benchrows.read`` of ``raw_dir/spec_depth``, rows
    of complete runs): host_id, session_id, toolchain_id, role, model_id, model_sha256, n_depth, n_prompt,
    n_gen, avg_ts (tok/s), stddev_ts (0 when absent), n (repetitions), avg_ns (one test's mean time, ns),
    samples_ns (each repetition's time, ns), file, line, run_id.

    Raises:
        records.RecordError: a line is not JSON or a record fails its kind's checks (file:line, field, fix).
    """
    rows = benchrows.read(Path(raw_dir) / EXPERIMENT, EXPERIMENT, _BENCH_READ, _BENCH_ROW)
    lb = pl.col("llama_bench").struct.field
    return rows.select(
        *_BENCH_KEYS,
        lb("n_depth").fill_null(0).alias("n_depth"),
        lb("n_prompt").alias("n_prompt"),
        lb("n_gen").alias("n_gen"),
        lb("avg_ts").alias("avg_ts"),
        lb("stddev_ts").fill_null(0.0).alias("stddev_ts"),
        lb("samples_ns").list.len().cast(pl.Int64).alias("n"),
        lb("avg_ns").cast(pl.Float64).alias("avg_ns"),
        lb("samples_ns").alias("samples_ns"),
        "file",
        "line",
        "run_id",
    )


def bench_rates(bench: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """``bench`` (``bench_table``) with each test's rate statistics over its repetitions, as the
    llama-bench experiment states them (``experiments.llama_bench.analysis.rate_stats``): the rate of
    a repetition ``1e9 · (n_prompt + n_gen) ÷ samples_ns`` (tok/s; the ``n_depth`` tokens before the
    test are not counted), ``mean_tps`` their mean (llama-bench's avg_ts), ``sd_tps`` (ddof=1; None
    below 2), ``cv`` = sd ÷ mean, ``ci_low_tps``/``ci_high_tps`` (``stats.sample_interval``: log-scale
    Student-t, none below n = 3) and ``first_sample_ratio`` (the first repetition's rate ÷ the median
    of the others': the ``cold_start`` rule's first-sample form; None below 2).

    >>> t = bench_rates(pl.DataFrame({"n_prompt": [0], "n_gen": [16], "samples_ns": [[200_000_000,
    ...     100_000_000, 100_000_000]]}))
    >>> t.select("mean_tps", "first_sample_ratio").row(0)  # rates 80, 160, 160
    (133.33333333333334, 0.5)
    """
    stats = []
    for tokens, ns in zip(bench["n_prompt"] + bench["n_gen"], bench["samples_ns"], strict=True):
        rates = [1e9 * tokens / x for x in ns]
        mean, sd, ci = sample_interval(rates, confidence)
        mid = statistics.median(rates[1:]) if len(rates) > 1 else None
        stats.append(
            {
                "mean_tps": mean,
                "sd_tps": sd,
                "cv": sd / mean if sd is not None and mean else None,
                "ci_low_tps": ci[0] if ci else None,
                "ci_high_tps": ci[1] if ci else None,
                "first_sample_ratio": rates[0] / mid if mid else None,
            }
        )
    return pl.concat([bench, pl.DataFrame(stats, infer_schema_length=None)], how="horizontal")


def request_table(raw_dir: str | Path) -> pl.DataFrame:
    """One row per request: host_id, session_id, config_id, role, draft_model_id, draft_model_sha256,
    model_sha256, n_max, depth, rep, prompt_n, prompt_ms, prefill_tps, predicted_n, predicted_ms,
    decode_tps, draft_n, draft_n_accepted, verify_steps, t_draft_ms, wall_ms, cap_hit (stop_type
    "limit"; null when not recorded), cache_n (prompt tokens served from the cache), peak_gpu_mem_mib,
    tokens, file, line, run_id."""
    rows = []
    for f, i, r in _records(raw_dir, REQUEST_SCHEMA):
        t, s = r["timings"], r.get("spec_stats") or {}
        rows.append(
            {
                "host_id": r["host_id"],
                "session_id": r["session_id"],
                "toolchain_id": r["toolchain_id"],
                "config_id": r["config_id"],
                "role": r["role"],
                "draft_model_id": r.get("draft_model_id"),
                "draft_model_sha256": r.get("draft_model_sha256"),
                "model_sha256": r["model_sha256"],
                "n_max": r.get("n_max"),
                "depth": int(r["depth"]),
                "rep": int(r["rep"]),
                "prompt_n": int(t["prompt_n"]),
                "prompt_ms": float(t["prompt_ms"]),
                "prefill_tps": float(t["prompt_per_second"]),
                "predicted_n": int(t["predicted_n"]),
                "predicted_ms": float(t["predicted_ms"]),
                "decode_tps": float(t["predicted_per_second"]),
                "draft_n": t.get("draft_n"),
                "draft_n_accepted": t.get("draft_n_accepted"),
                "verify_steps": s.get("gen_drafts"),
                "t_draft_ms": s.get("t_draft_ms"),
                "wall_ms": float(r["wall_ms"]),
                "cap_hit": r["stop_type"] == "limit" if r.get("stop_type") is not None else None,
                "cache_n": t.get("cache_n"),
                "peak_gpu_mem_mib": r.get("peak_gpu_mem_mib"),
                "tokens": [int(x) for x in r.get("tokens") or []],
                "file": f,
                "line": i,
                "run_id": r.get("run_id"),
            }
        )
    return pl.DataFrame(
        rows,
        schema_overrides={"n_max": pl.Int64, "draft_n": pl.Int64, "cap_hit": pl.Boolean, "cache_n": pl.Int64},
    )


def _bench_test(row: dict) -> costmodel.BenchTest:
    return costmodel.BenchTest(row["n_prompt"], row["n_gen"], row["samples_ns"])


def _bench_terms(bench: pl.DataFrame, session_id: str, depth: int) -> costmodel.BenchTerms | None:
    """The llama-bench side of the cost model at one depth of one session (``costmodel.bench_terms``: the
    target's tg step, r(n) from its pp tests, c of each draft keyed by its model_sha256); None without a
    target tg test."""
    b = bench.filter((pl.col("session_id") == session_id) & (pl.col("n_depth") == depth))
    tgt = b.filter(pl.col("role") == "target")
    tg = tgt.filter(pl.col("n_gen") > 0)
    if tg.is_empty():
        return None
    drafts = b.filter((pl.col("role") == "draft") & (pl.col("n_gen") > 0))
    return costmodel.bench_terms(
        _bench_test(tg.row(0, named=True)),
        [_bench_test(r) for r in tgt.filter(pl.col("n_prompt") > 0).iter_rows(named=True)],
        {r["model_sha256"]: _bench_test(r) for r in drafts.iter_rows(named=True)},
    )


def _bench_lines(bench: pl.DataFrame, session_id: str, depth: int, draft_sha256: str | None) -> dict:
    """The llama-bench rows (their lines in the host's file) the cost model of a speculative row read
    at one depth of one session (``_bench_terms``): ``bench_lines_after`` the target's pp and tg rows
    (r(n) and the tg step), ``bench_lines_before`` those and the draft's tg row (c), ``bench_lines_c``
    the two tg rows c_bench read (none for the target as its own draft: c = 1 without a row)."""
    if bench.is_empty():
        return {"bench_lines_before": [], "bench_lines_after": [], "bench_lines_c": []}
    b = bench.filter((pl.col("session_id") == session_id) & (pl.col("n_depth") == depth))
    target = b.filter(pl.col("role") == "target")
    draft = b.filter((pl.col("model_sha256") == draft_sha256) & (pl.col("n_gen") > 0))["line"].to_list()
    own = target["model_sha256"].first() == draft_sha256
    tg = target.filter(pl.col("n_gen") > 0)["line"].to_list()
    return {
        "bench_lines_before": sorted(set(target["line"].to_list() + draft)),
        "bench_lines_after": sorted(target["line"].to_list()),
        "bench_lines_c": [] if own or not draft else sorted(set(tg + draft)),
    }


def _sum(s: pl.Series) -> float:
    return float(s.sum())


def _mean(s: pl.Series) -> float:
    m = s.mean()
    return float(m) if isinstance(m, (int, float)) else float("nan")


def cost_terms(
    g: pl.DataFrame,
    b_step_ms: float | None,
    bench: costmodel.BenchTerms | None,
    alone: dict[str, float],
    measured: float,
) -> dict:
    """The speculative columns of one (configuration, depth) group ``g`` of ``request_table`` rows:
    alpha, tau, k, c_bench, r_k1, cost_r1, model_before, residual_before, c_server, c_alone, v_server,
    model_after, residual_after, overhead_server (module docstring; ``b_step_ms``: the baseline's decode
    step at this depth, ``costmodel.decode_step_ms``; ``bench``: ``_bench_terms``; ``alone``: c of each
    draft served alone by its sha256; ``measured``: the measured speedup).

    τ, k and the server's terms are pooled over the requests that have the server's counters
    (``spec_stats``; a request whose statistics line came late records none): each sum of a ratio over
    the same requests (alpha, from the timings, over all)."""
    first = g.row(0, named=True)
    all_drafted, all_acc = _sum(g["draft_n"]), _sum(g["draft_n_accepted"])
    g = g.filter(pl.col("verify_steps").is_not_null() & pl.col("t_draft_ms").is_not_null())
    drafted, steps = int(_sum(g["draft_n"])), int(_sum(g["verify_steps"]))
    dsha, t_sha = first["draft_model_sha256"], first["model_sha256"]
    # accepted tokens past a request's cap are not committed (``costmodel.tau``)
    in_cap = sum(
        costmodel.accepted_within_cap(a, v, p - 1 if p else None)
        for a, v, p in zip(g["draft_n_accepted"], g["verify_steps"], g["predicted_n"], strict=True)
        if a is not None and v is not None
    )
    tau, k = costmodel.pooled_tau_k(in_cap, drafted, steps)
    c_bench = 1.0 if dsha == t_sha else (bench.c.get(dsha) if bench else None)
    rk = costmodel.r_at(bench.r, k + 1) if bench and k is not None else None
    server = (
        costmodel.server_terms(_sum(g["predicted_ms"]), _sum(g["t_draft_ms"]), drafted, steps, b_step_ms)
        if b_step_ms
        else None
    )
    c_server = server.c_server if server else None
    v_server = server.v_server if server else None
    before = costmodel.predicted(tau, k, c_bench, rk)
    after = costmodel.predicted(tau, k, c_server, rk)
    return {
        "alpha": all_acc / all_drafted if all_drafted else None,
        "tau": tau,
        "k": k,
        "c_bench": c_bench,
        "r_k1": rk,
        "cost_r1": bench.r1 if bench else None,
        "model_before": before,
        "residual_before": costmodel.residual(before, measured),
        "c_server": c_server,
        "c_alone": 1.0 if dsha == t_sha else alone.get(dsha),
        "v_server": v_server,
        "model_after": after,
        "residual_after": costmodel.residual(after, measured),
        "overhead_server": v_server - rk if v_server is not None and rk is not None else None,
    }


def rep_spread(g: pl.DataFrame, base: pl.DataFrame, confidence: float = 0.95) -> dict:
    """The spread over the repetitions of one (configuration, depth) group ``g`` of ``request_table`` rows
    and its same-session baseline ``base``: ``decode_tps_sd`` (tok/s, ddof=1; None below 2) and
    ``decode_tps_ci_low``/``_high`` (``stats.sample_interval``: the log-scale Student-t interval of the
    mean rate), the same three of the prefill rate (``prefill_tps_sd``, ``prefill_tps_ci_low``/``_high``),
    and the intervals of the two ratios of mean rates ``speedup_ci_low``/``_high`` (decode)
    and ``prefill_ratio_ci_low``/``_high``, each ``stats.paired_ratio_interval`` over the repetitions
    the configuration and the baseline both have, paired by ``rep`` (each repetition runs every
    configuration in turn); None below ``stats.MIN_N_INTERVAL`` repetitions or pairs."""
    out: dict[str, float | None] = {}
    for rate in ("decode_tps", "prefill_tps"):
        _, sd, ci = sample_interval(g[rate].to_list(), confidence)
        out |= {f"{rate}_sd": sd, f"{rate}_ci_low": ci[0] if ci else None}
        out |= {f"{rate}_ci_high": ci[1] if ci else None}
    pairs = g.join(base, on="rep", suffix="_base")
    for col, rate in (("speedup", "decode_tps"), ("prefill_ratio", "prefill_tps")):
        ci = paired_ratio_interval(pairs[rate].to_list(), pairs[f"{rate}_base"].to_list(), confidence)
        out |= {f"{col}_ci_low": ci[0] if ci else None, f"{col}_ci_high": ci[1] if ci else None}
    return out


def cap_columns(g: pl.DataFrame, base: pl.DataFrame) -> dict:
    """The columns the cap and cache rules of the ``speculative`` caveat kind read, for one
    (configuration, depth) group ``g`` and its baseline ``base``: ``cap_hit`` (a repetition stopped at
    its generation cap; null when no stop type was recorded), ``cap_equal_work``
    (``speculative.analysis._cap_equal_work``: every repetition of both stopped at the cap with the same
    ``predicted_n``) and ``cache_n_max`` (the most prompt tokens a repetition took from the cache)."""
    cap_hit = None if g["cap_hit"].null_count() == g.height else bool(g["cap_hit"].any())
    return {
        "cap_hit": cap_hit,
        "cap_equal_work": spec._cap_equal_work(g, base, cap_hit),
        "cache_n_max": g["cache_n"].max(),
    }


def depth_table(raw_dir: str | Path, confidence: float = 0.95) -> pl.DataFrame:
    """One row per (host_id, session_id, config_id, depth); columns in the module docstring: n,
    decode_tps, prefill_tps, prompt_ms, wall_ms, speedup (decode ÷ baseline decode), prefill_ratio
    (prefill rate ÷ baseline prefill rate), output_match (tokens equal to the baseline's at every
    repetition; null for the baseline and draft_only), alpha, tau, k, c_bench, r_k1, cost_r1, model_before,
    residual_before, c_server, c_alone (the draft served alone: its decode step ÷ the baseline step),
    v_server, overhead_server (v_server − r(k+1): the verify step's cost beyond the llama-bench pass),
    model_after, residual_after, peak_gpu_mem_mib (the most over its requests), toolchain_id, file and
    lines (the requests read, the baseline's included: one host's file), own_lines and baseline_lines
    (the configuration's requests, the baseline's), run_ids and baseline_run_ids (of those requests),
    bench_lines_before/bench_lines_after/bench_lines_c (the llama-bench rows the two cost models and c_bench
    read, ``_bench_lines``) and alone_lines (the requests of its draft served alone, which c_alone read;
    empty for the target as its own draft): speculative rows only; decode_tps_sd, prefill_tps_sd and
    the intervals of decode_tps, prefill_tps, speedup and prefill_ratio at ``confidence``
    (``rep_spread``); cap_hit, cap_equal_work, cache_n_max (``cap_columns``)."""
    req, bench = request_table(raw_dir), bench_table(raw_dir)
    if req.is_empty():
        return pl.DataFrame()
    rows = []
    keys = req.select("host_id", "session_id", "depth").unique().sort("host_id", "session_id", "depth")
    for host, sess, depth in keys.iter_rows():
        at = req.filter((pl.col("session_id") == sess) & (pl.col("depth") == depth))
        base = at.filter(pl.col("role") == "baseline")
        if base.is_empty():
            continue
        # decode steps over predicted_n − 1 tokens each (the first comes out of the prompt pass)
        b_step_ms = costmodel.decode_step_ms(base["predicted_ms"], base["predicted_n"])
        b_tokens = {r["rep"]: r["tokens"] for r in base.iter_rows(named=True)}
        alone, alone_lines = {}, {}
        for (sha,), a in at.filter(pl.col("role") == "draft_only").group_by("model_sha256"):
            a_step = costmodel.decode_step_ms(a["predicted_ms"], a["predicted_n"])
            if a_step is not None and b_step_ms:
                alone[sha], alone_lines[sha] = a_step / b_step_ms, sorted(a["line"].to_list())
        terms = _bench_terms(bench, sess, depth) if not bench.is_empty() else None
        for cid in sorted(at["config_id"].unique().to_list()):
            g = at.filter(pl.col("config_id") == cid)
            first = g.row(0, named=True)
            row = {
                "host_id": host,
                "session_id": sess,
                "config_id": cid,
                "role": first["role"],
                "draft_model_id": first["draft_model_id"],
                "n_max": first["n_max"],
                "depth": depth,
                "n": g.height,
                "prompt_n": int(_sum(g["prompt_n"]) / g.height),
                "decode_tps": _mean(g["decode_tps"]),
                "prefill_tps": _mean(g["prefill_tps"]),
                "prompt_ms": _mean(g["prompt_ms"]),
                "wall_ms": _mean(g["wall_ms"]),
                "speedup": _mean(g["decode_tps"]) / _mean(base["decode_tps"]),
                "prefill_ratio": _mean(g["prefill_tps"]) / _mean(base["prefill_tps"]),
                "peak_gpu_mem_mib": g["peak_gpu_mem_mib"].max(),
                "toolchain_id": first["toolchain_id"],
                "file": first["file"],
                "lines": sorted(g["line"].to_list() + base["line"].to_list()),
                "own_lines": sorted(g["line"].to_list()),
                "baseline_lines": sorted(base["line"].to_list()),
                "run_ids": [x for x in g["run_id"].to_list() if x],
                "baseline_run_ids": [x for x in base["run_id"].to_list() if x],
            }
            row |= rep_spread(g, base, confidence) | cap_columns(g, base)
            if first["role"] == "speculative":
                row["output_match"] = all(
                    r["tokens"] == b_tokens.get(r["rep"]) for r in g.iter_rows(named=True)
                )
                row |= cost_terms(g, b_step_ms, terms, alone, row["speedup"])
                row |= _bench_lines(bench, sess, depth, first["draft_model_sha256"])
                row["alone_lines"] = alone_lines.get(first["draft_model_sha256"], [])
            rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def memory_per_draft_token(depth: pl.DataFrame) -> pl.DataFrame:
    """Per (host_id, session_id, draft_model_id, depth) with ≥ 2 n_max values: the least-squares slope of
    peak GPU memory (MiB) against n_max (MiB per draft token), and the n_max values used."""
    if depth.is_empty() or "n_max" not in depth.columns:
        return pl.DataFrame()
    spec = depth.filter((pl.col("role") == "speculative") & pl.col("peak_gpu_mem_mib").is_not_null())
    rows = []
    for (host, sess, draft, d), g in spec.group_by("host_id", "session_id", "draft_model_id", "depth"):
        if g["n_max"].n_unique() < 2:
            continue
        x, y = g["n_max"].cast(pl.Float64), g["peak_gpu_mem_mib"].cast(pl.Float64)
        dx, dy = x - _mean(x), y - _mean(y)
        slope = _sum(dx * dy) / _sum(dx * dx)
        rows.append(
            {
                "host_id": host,
                "session_id": sess,
                "draft_model_id": draft,
                "depth": d,
                "n_max": sorted(g["n_max"].to_list()),
                "mib_per_draft_token": slope,
            }
        )
    return pl.DataFrame(rows).sort("host_id", "depth") if rows else pl.DataFrame()

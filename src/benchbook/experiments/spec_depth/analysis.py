"""Depth sweep tables: llama-bench rows against depth, server requests against depth, and the cost model.

* ``bench_table``: one row per llama-bench test (model, n_depth, n_prompt, n_gen): mean rate avg_ts
  (llama-bench's own mean of per-repetition rates), its sd and n, the mean time avg_ns.
* ``request_table``: one row per ``/completion`` (timings, the draft counters, wall time, peak GPU memory).
* ``depth_table``: one row per (host, session, configuration, depth), each configuration against the
  baseline of its own session and depth: decode rate (mean over repetitions of predicted_per_second)
  and prefill rate, their ratios to the baseline, whether the greedy tokens equal the baseline's at
  every repetition (the output_mismatch rule), α, τ, k (drafted per verify step), and the cost model
  twice:

  - before (llama-bench terms, DESIGN.md): speedup = τ / (k·c + r(k+1)), c = draft tg step ÷ target tg
    step and r(n) = pp(n) pass ÷ target tg step, both from this session's llama-bench rows at the same
    depth (r interpolated linearly between measured n; c = 1 when the draft is the target itself);
  - after (the draft timed inside llama-server): the same formula with c_server = the server's own
    drafting time per drafted token (``dur(b,g,a)``'s g, ``common_speculative_print_stats``) ÷ the
    baseline's time per decoded token; beside it v_server = (decode time − drafting time) ÷ verify
    steps ÷ the baseline step, the verify pass plus per-step overhead as measured, to compare with
    r(k+1).  residual = model ÷ measured − 1.

  Verify steps are the draft generations counted by the server (``gen_drafts``); τ = 1 + accepted ÷
  verify steps, the accepted tokens past a request's cap left out (as
  ``experiments.speculative.analysis.tau``).
* ``memory_per_draft_token``: the least-squares slope of peak GPU memory against n_max over the
  configurations that share a draft model (MiB per draft token), per host and depth.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from ...records import jsonl_lines
from ..speculative import analysis as spec
from . import BENCH_SCHEMA, EXPERIMENT, REQUEST_SCHEMA


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


def bench_table(raw_dir: str | Path) -> pl.DataFrame:
    """One row per llama-bench test: host_id, session_id, role, model_id, model_sha256, n_depth,
    n_prompt, n_gen, avg_ts (tok/s), stddev_ts, n (repetitions), avg_ns (one test's mean time, ns),
    file, line."""
    rows = []
    for f, i, r in _records(raw_dir, BENCH_SCHEMA):
        b = r["llama_bench"]
        rows.append(
            {
                "host_id": r["host_id"],
                "session_id": r["session_id"],
                "role": r["role"],
                "model_id": r["model_id"],
                "model_sha256": r["model_sha256"],
                "n_depth": int(b.get("n_depth", 0)),
                "n_prompt": int(b["n_prompt"]),
                "n_gen": int(b["n_gen"]),
                "avg_ts": float(b["avg_ts"]),
                "stddev_ts": float(b.get("stddev_ts") or 0.0),
                "n": len(b["samples_ns"]),
                "avg_ns": float(b["avg_ns"]),
                "file": f,
                "line": i,
            }
        )
    return pl.DataFrame(rows)


def request_table(raw_dir: str | Path) -> pl.DataFrame:
    """One row per request: host_id, session_id, config_id, role, draft_model_id, draft_model_sha256,
    model_sha256, n_max, depth, rep, prompt_n, prompt_ms, prefill_tps, predicted_n, predicted_ms,
    decode_tps, draft_n, draft_n_accepted, verify_steps, t_draft_ms, wall_ms, peak_gpu_mem_mib,
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
                "peak_gpu_mem_mib": r.get("peak_gpu_mem_mib"),
                "tokens": [int(x) for x in r.get("tokens") or []],
                "file": f,
                "line": i,
                "run_id": r.get("run_id"),
            }
        )
    return pl.DataFrame(rows, schema_overrides={"n_max": pl.Int64, "draft_n": pl.Int64})


def r_of(pp: dict[int, float], n: float) -> float | None:
    """r(n) by linear interpolation over ``pp`` (``{n_tokens: pass time ÷ one tg step}``); None outside
    the measured range.  Example: pp = {1: 1.4, 5: 1.8}, n = 3 → 1.6."""
    ks = sorted(pp)
    if not ks or n < ks[0] or n > ks[-1]:
        return None
    for lo, hi in zip(ks, ks[1:], strict=False):
        if lo <= n <= hi:
            return pp[lo] + (pp[hi] - pp[lo]) * (n - lo) / (hi - lo)
    return pp[ks[0]]


def _bench_terms(bench: pl.DataFrame, session_id: str, depth: int) -> tuple[dict, dict[str, float]]:
    """At one depth of one session: ``(r_pp, tg_step_ns_by_model_sha)``;
    r_pp = {n: pass ns ÷ target tg step ns}."""
    b = bench.filter((pl.col("session_id") == session_id) & (pl.col("n_depth") == depth))
    tg = {
        r["model_sha256"]: r["avg_ns"] / r["n_gen"]
        for r in b.filter(pl.col("n_gen") > 0).iter_rows(named=True)
    }
    tgt = b.filter(pl.col("role") == "target")
    step = next(
        (r["avg_ns"] / r["n_gen"] for r in tgt.filter(pl.col("n_gen") > 0).iter_rows(named=True)), None
    )
    rpp = {}
    if step:
        for r in tgt.filter(pl.col("n_prompt") > 0).iter_rows(named=True):
            rpp[r["n_prompt"]] = r["avg_ns"] / step
    return rpp, tg


def _bench_lines(bench: pl.DataFrame, session_id: str, depth: int, draft_sha256: str | None) -> dict:
    """The llama-bench rows (their lines in the host's file) the cost model of a speculative row read
    at one depth of one session (``_bench_terms``): ``bench_lines_after`` the target's pp and tg rows
    (r(n) and the tg step), ``bench_lines_before`` those and the draft's tg row (c)."""
    if bench.is_empty():
        return {"bench_lines_before": [], "bench_lines_after": []}
    b = bench.filter((pl.col("session_id") == session_id) & (pl.col("n_depth") == depth))
    target = b.filter(pl.col("role") == "target")["line"].to_list()
    draft = b.filter((pl.col("model_sha256") == draft_sha256) & (pl.col("n_gen") > 0))["line"].to_list()
    return {"bench_lines_before": sorted(set(target + draft)), "bench_lines_after": sorted(target)}


def _sum(s: pl.Series) -> float:
    return float(s.sum())


def _mean(s: pl.Series) -> float:
    m = s.mean()
    return float(m) if isinstance(m, (int, float)) else float("nan")


def cost_terms(
    g: pl.DataFrame,
    b_step_ms: float,
    rpp: dict,
    tg_ns: dict[str, float],
    alone: dict[str, float],
    measured: float,
) -> dict:
    """The speculative columns of one (configuration, depth) group ``g`` of ``request_table`` rows:
    alpha, tau, k, c_bench, r_k1, model_before, residual_before, c_server, c_alone, v_server,
    model_after, residual_after, overhead_server (module docstring; ``b_step_ms``: the baseline's ms
    per decoded token at this depth; ``rpp``, ``tg_ns``: ``_bench_terms``; ``alone``: c of each draft
    served alone by its sha256; ``measured``: the measured speedup).

    τ, k and the server's terms are pooled over the requests that have the server's counters
    (``spec_stats``; a request whose statistics line came late records none): each sum of a ratio over
    the same requests (alpha, from the timings, over all)."""
    first = g.row(0, named=True)
    all_drafted, all_acc = _sum(g["draft_n"]), _sum(g["draft_n_accepted"])
    g = g.filter(pl.col("verify_steps").is_not_null() & pl.col("t_draft_ms").is_not_null())
    drafted, steps = _sum(g["draft_n"]), _sum(g["verify_steps"])
    dsha, t_sha = first["draft_model_sha256"], first["model_sha256"]
    # accepted tokens past a request's cap are not committed (``speculative.analysis.tau``)
    in_cap = sum(
        spec.accepted_within_cap(a, v, p - 1 if p else None)
        for a, v, p in zip(g["draft_n_accepted"], g["verify_steps"], g["predicted_n"], strict=True)
        if a is not None and v is not None
    )
    tau = spec.tau(in_cap, steps) if steps else None
    k = drafted / steps if steps else None
    c_bench = (
        1.0 if dsha == t_sha else (tg_ns[dsha] / tg_ns[t_sha] if dsha in tg_ns and t_sha in tg_ns else None)
    )
    rk = r_of(rpp, k + 1) if k is not None else None
    t_draft = _sum(g["t_draft_ms"])
    c_server = (t_draft / drafted) / b_step_ms if drafted else None
    v_server = ((_sum(g["predicted_ms"]) - t_draft) / steps) / b_step_ms if steps else None
    before = after = None
    if tau is not None and k is not None and rk is not None:
        before = tau / (k * c_bench + rk) if c_bench is not None else None
        after = tau / (k * c_server + rk) if c_server is not None else None
    return {
        "alpha": all_acc / all_drafted if all_drafted else None,
        "tau": tau,
        "k": k,
        "c_bench": c_bench,
        "r_k1": rk,
        "model_before": before,
        "residual_before": before / measured - 1 if before is not None else None,
        "c_server": c_server,
        "c_alone": 1.0 if dsha == t_sha else alone.get(dsha),
        "v_server": v_server,
        "model_after": after,
        "residual_after": after / measured - 1 if after is not None else None,
        "overhead_server": v_server - rk if v_server is not None and rk is not None else None,
    }


def depth_table(raw_dir: str | Path) -> pl.DataFrame:
    """One row per (host_id, session_id, config_id, depth); columns in the module docstring: n,
    decode_tps, prefill_tps, prompt_ms, wall_ms, speedup (decode ÷ baseline decode), prefill_ratio
    (prefill rate ÷ baseline prefill rate), output_match (tokens equal to the baseline's at every
    repetition; null for the baseline and draft_only), alpha, tau, k, c_bench, r_k1, model_before,
    residual_before, c_server, c_alone (the draft served alone: its decode step ÷ the baseline step),
    v_server, overhead_server (v_server − r(k+1): the verify step's cost beyond the llama-bench pass),
    model_after, residual_after, peak_gpu_mem_mib, toolchain_id, file and lines (the requests read,
    the baseline's included: one host's file), run_ids and baseline_run_ids (of those requests),
    bench_lines_before/bench_lines_after (the llama-bench rows the two cost models read,
    ``_bench_lines``; speculative rows only)."""
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
        b_step_ms = _sum(base["predicted_ms"]) / _sum(base["predicted_n"])
        b_tokens = {r["rep"]: r["tokens"] for r in base.iter_rows(named=True)}
        alone = {}
        for r in (
            at.filter(pl.col("role") == "draft_only")
            .group_by("model_sha256")
            .agg((pl.col("predicted_ms").sum() / pl.col("predicted_n").sum()).alias("ms"))
            .iter_rows(named=True)
        ):
            alone[r["model_sha256"]] = float(r["ms"]) / b_step_ms
        rpp, tg_ns = _bench_terms(bench, sess, depth) if not bench.is_empty() else ({}, {})
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
                "run_ids": [x for x in g["run_id"].to_list() if x],
                "baseline_run_ids": [x for x in base["run_id"].to_list() if x],
            }
            if first["role"] == "speculative":
                row["output_match"] = all(
                    r["tokens"] == b_tokens.get(r["rep"]) for r in g.iter_rows(named=True)
                )
                row |= cost_terms(g, b_step_ms, rpp, tg_ns, alone, row["speedup"])
                row |= _bench_lines(bench, sess, depth, first["draft_model_sha256"])
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

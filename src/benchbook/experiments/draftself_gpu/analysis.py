"""Draft-self on the GPU (Polars): raw records -> trainings, per-prompt and per-k tables.

The run records are the CPU experiment's kind, so its analysis (``experiments.draftself.analysis``)
reads them: ``load_runs`` (the latest completed session under ``raw/draftself_gpu``), ``pass_costs``
(mean wall time per pass kind and size, r = over the 1-token decode pass), ``break_even``
(τ* = r_draft(k+1) + r_verify(k+1), one-pass draft and batched verify) and ``speedup`` (AR decode
time ÷ draft-self decode time per prompt and repetition; the repetitions of a prompt averaged on the
log scale; geometric mean over prompts with a Student-t interval on the per-prompt log ratios, unit of
replication the prompt).  Added here:

* ``per_prompt``: per (configuration, prompt), τ = min(Σ(a+1), n_tokens − 1) / steps (the tokens the
  verify steps committed: a run stops at its cap of n_tokens, the first from the prefill, and accepted
  tokens of its last block past the cap are not committed; the CPU experiment's definition) and
  α = accepted ÷ drafted of the first timed repetition (the decoders are deterministic), decode tok/s
  averaged over repetitions, whether every repetition's output equals AR greedy, and the AR output's
  ``repeat_share``.
* ``by_k``: per configuration, τ over prompts (mean, log-scale t interval: τ ≥ 1 > 0), α pooled
  (Σ accepted ÷ Σ drafted, no interval), AR and draft-self decode tok/s over prompts (log-scale t
  intervals), the measured speedup with its interval, the cost model's residual (``model_residual``)
  and its prediction (measured × (1 + residual)), the break-even τ*, and how far τ is above or
  below it.
* ``repeat_share``: 1 − distinct ÷ total word 4-grams of a text: 0 for no repeated 4-gram; greedy
  decoding of a small model falls into loops, and a loop is easy to draft.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl

from benchbook import stats
from benchbook.experiments.draftself import analysis as cpu
from benchbook.records import read_records

from . import EXPERIMENT, TRAIN_SCHEMA


def repeat_share(text: str, n: int = 4) -> float:
    """1 − distinct ÷ total word ``n``-grams of ``text`` (whitespace words); 0.0 below n words.

    >>> repeat_share("a b c d a b c d")  # 5 four-grams, 4 distinct
    0.2
    """
    w = text.split()
    grams = [tuple(w[i : i + n]) for i in range(len(w) - n + 1)]
    return 0.0 if not grams else round(1 - len(set(grams)) / len(grams), 6)


def load_train(raw_dir: str | Path) -> pl.DataFrame:
    """Every training record under ``raw_dir/draftself_gpu`` (``*.train.jsonl``), oldest first: one row
    each with its file and line, sizes, steps, wall time, losses, hashes, device and torch version."""
    raw = Path(raw_dir) / EXPERIMENT
    rows = []
    for r in read_records(sorted(raw.glob("*.train.jsonl")), TRAIN_SCHEMA):
        c = r["corpus"]
        rows.append(
            {
                "session_id": r["session_id"],
                "host_id": r["host_id"],
                "started_at": r["started_at"],
                "device": r["device"],
                "torch_version": r["torch_version"],
                "tokenizers_version": r["tokenizers_version"],
                "model_sha256": r["model_sha256"],
                "tokenizer_sha256": r["tokenizer_sha256"],
                "corpus_sha256": c["corpus_sha256"],
                "archive_sha256": c["archive_sha256"],
                "train_files": c["train_files"],
                "held_out_files": c["held_out_files"],
                "vocab_size": r["vocab_size"],
                "n_params": r["n_params"],
                "steps": r["steps"],
                "train_seconds": r["train_seconds"],
                "tokens_seen": r["tokens_seen"],
                "train_tokens": r["train_tokens"],
                "epochs": r["tokens_seen"] / r["train_tokens"],
                "final_loss_next": r["final_loss_next"],
                "final_loss_masked": r["final_loss_masked"],
                "held_out_loss_next": r["held_out_loss_next"],
                "train_loss_next_eval": r["train_loss_next_eval"],
                "curve": json.dumps(r["curve"]),
                "file": r["_file"],
                "line": r["_line"],
            }
        )
    return pl.DataFrame(rows).sort("started_at") if rows else pl.DataFrame()


def load(raw_dir: Path, session: str = "latest") -> pl.DataFrame:
    """The run records of one completed session under ``raw_dir/draftself_gpu`` (``session``: an id, or
    "latest"; ``draftself.analysis.load_runs``), with their ``output_text`` and the session's ``runtime``
    and ``toolchain_id`` (torch, Python, device: the decoder's build)."""
    runs, sess = cpu.load_runs(Path(raw_dir) / EXPERIMENT, session)
    text = {
        r["run_id"]: r["output_text"]
        for r in read_records([sess["runs_file"]], "benchbook.draftself.run")
        if r["session_id"] == sess["session_id"]
    }
    return runs.with_columns(
        output_text=pl.col("run_id").replace_strict(text, return_dtype=pl.String, default=None),
        runtime=pl.lit(sess["runtime"]),
        toolchain_id=pl.lit(sess["toolchain_id"]),
    )


def per_prompt(runs: pl.DataFrame) -> pl.DataFrame:
    """One row per (configuration, prompt): τ, α (first timed repetition), decode tok/s (mean over
    repetitions), equals_ar (every repetition), the AR output's repeat_share, and the runs they read:
    ``first_run_id`` (τ, α) and ``ar_run_id`` (the AR run whose output gives repeat_share); sorted by
    k, prompt."""
    first = runs.filter(pl.col("rep") == pl.col("rep").min())
    ar_rep = first.filter(pl.col("decoder") == "ar").select(
        "prompt_id",
        pl.col("output_text").map_elements(repeat_share, return_dtype=pl.Float64).alias("repeat_share"),
        pl.col("run_id").alias("ar_run_id"),
    )
    agg = runs.group_by("config_name", "decoder", "k", "prompt_id", "prompt_kind").agg(
        decode_tps=pl.col("decode_tps").mean(),
        equals_ar=pl.col("equals_ar").all(),
        reps=pl.len(),
    )
    acc = first.select(
        "config_name",
        "prompt_id",
        tau=pl.when(pl.col("verify_steps") > 0)
        .then(
            pl.min_horizontal(pl.col("accepted_total") + pl.col("verify_steps"), pl.col("n_tokens") - 1)
            / pl.col("verify_steps")
        )
        .otherwise(1.0),
        alpha=pl.when(pl.col("drafted_total") > 0)
        .then(pl.col("accepted_total") / pl.col("drafted_total"))
        .otherwise(None),
        accepted=pl.col("accepted_total"),
        drafted=pl.col("drafted_total"),
        steps=pl.col("verify_steps"),
        first_run_id=pl.col("run_id"),
    )
    return (
        agg.join(acc, on=["config_name", "prompt_id"], how="left")
        .join(ar_rep, on="prompt_id", how="left")
        .sort("k", "config_name", "prompt_id")
    )


def model_residual(runs: pl.DataFrame, costs: pl.DataFrame) -> pl.DataFrame:
    """Per draft-self configuration: the cost model's residual, paired per prompt.

    For each draft-self run and the AR run of the same prompt and repetition: measured = AR decode
    ns ÷ draft-self decode ns; predicted = the same ratio with every pass (prefill excluded) replaced by
    the session mean of its (kind, size) (``pass_costs``).  log(predicted ÷ measured) is averaged over
    a prompt's repetitions, then over prompts: ``residual`` = exp(mean) − 1 with a Student-t interval
    on the per-prompt logs (unit: prompts).  Pairing per prompt keeps the comparison on one scale (a
    geometric-mean speedup against an arithmetic-mean prediction would mix scales: with τ spread
    over prompts, that alone gave +21% at k = 15)."""
    cost = {(a, b): m for a, b, m in costs.select("pass_kind", "pass_n", "mean_ns").iter_rows()}

    def pred(kinds, ns) -> float:
        return float(sum(cost[(k, n)] for k, n in zip(kinds, ns, strict=True) if k != "prefill"))

    rows = [
        {
            "config_name": r["config_name"],
            "decoder": r["decoder"],
            "prompt_id": r["prompt_id"],
            "rep": r["rep"],
            "ns": r["decode_wall_ns"],
            "pred_ns": pred(r["pass_kind"], r["pass_n"]),
        }
        for r in runs.select(
            "config_name", "decoder", "prompt_id", "rep", "decode_wall_ns", "pass_kind", "pass_n"
        ).iter_rows(named=True)
    ]
    t = pl.DataFrame(rows)
    ar = t.filter(pl.col("decoder") == "ar").select("prompt_id", "rep", ar_ns="ns", ar_pred="pred_ns")
    ds = t.filter(pl.col("decoder") == "draftself").join(ar, on=["prompt_id", "rep"])
    ds = ds.with_columns(
        log_res=((pl.col("ar_pred") / pl.col("pred_ns")) / (pl.col("ar_ns") / pl.col("ns"))).log()
    )
    out = []
    for (name,), g in ds.group_by("config_name"):
        per = g.group_by("prompt_id").agg(pl.col("log_res").mean()).sort("prompt_id")["log_res"]
        d = stats.describe(per.to_numpy())
        out.append(
            {
                "config_name": name,
                "residual": math.exp(d["mean"]) - 1,
                "residual_ci": [math.exp(d["ci_low"]) - 1, math.exp(d["ci_high"]) - 1]
                if d["ci_low"] is not None
                else None,
            }
        )
    return pl.DataFrame(out, infer_schema_length=None)


def _interval(values: list[float]) -> tuple[float, list[float] | None, int]:
    """(mean, log-scale t interval or None below n = 3, n) of positive values."""
    mean, sd, ci = stats.sample_interval(values, log=True)
    return mean, ci, len(values)


def by_k(runs: pl.DataFrame) -> pl.DataFrame:
    """One row per draft-self configuration (module doc), sorted by k."""
    costs, _ = cpu.pass_costs(runs)
    ks = sorted({int(k) for k in runs.filter(pl.col("decoder") == "draftself")["k"].to_list()})
    be = cpu.break_even(costs, ks)
    sp = cpu.speedup(runs, costs)
    res = model_residual(runs, costs)
    pp = per_prompt(runs)
    ar_pp = pp.filter(pl.col("decoder") == "ar")
    ar_tps, ar_ci, _ = _interval(ar_pp["decode_tps"].to_list())
    rows = []
    for k in ks:
        g = pp.filter((pl.col("decoder") == "draftself") & (pl.col("k") == k))
        name = g["config_name"][0]
        tau, tau_ci, n = _interval(g["tau"].to_list())
        tps, tps_ci, _ = _interval(g["decode_tps"].to_list())
        s = sp.filter(pl.col("config_name") == name).row(0, named=True)
        m = res.filter(pl.col("config_name") == name).row(0, named=True)
        b = be.filter(pl.col("k") == k)
        tau_star = float(b["tau_break_even"][0]) if b.height else None
        rows.append(
            {
                "config_name": name,
                "k": k,
                "prompts": n,
                "tau": tau,
                "tau_ci": tau_ci,
                "alpha": float(g["accepted"].sum()) / float(g["drafted"].sum()),
                "ar_tps": ar_tps,
                "ar_tps_ci": ar_ci,
                "ds_tps": tps,
                "ds_tps_ci": tps_ci,
                "speedup": s["speedup"],
                "speedup_ci": [s["ci_low"], s["ci_high"]] if s["ci_low"] is not None else None,
                "predicted": s["speedup"] * (1 + m["residual"]),
                "residual": m["residual"],
                "residual_ci": m["residual_ci"],
                "outside_passes": s["outside_passes"],
                "r_draft": float(b["r_draft"][0]) if b.height else None,
                "r_verify": float(b["r_verify"][0]) if b.height else None,
                "tau_break_even": tau_star,
                "tau_over_break_even": tau / tau_star - 1 if tau_star else None,
                "equals_ar_all": bool(g["equals_ar"].all()),
                "run_ids": s["run_ids"] + s["ar_run_ids"],
                "lines": sorted(s["lines"] + s["ar_lines"]),
                "file": s["file"],
            }
        )
    return pl.DataFrame(rows, infer_schema_length=None)


def decode_pass_ms(runs: pl.DataFrame) -> float:
    """Mean wall time of one 1-token decode pass (ms), the unit r is counted in."""
    _, c1 = cpu.pass_costs(runs)
    return c1 / 1e6


def is_finite(x) -> bool:
    return x is not None and math.isfinite(float(x))

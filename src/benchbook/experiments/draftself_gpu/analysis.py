"""Draft-self on the GPU (Polars): raw records -> trainings, per-prompt and per-k tables.

The run records are the CPU experiment's kind, so its analysis (``experiments.draftself.analysis``)
reads them: ``load_runs`` (the latest completed session under ``raw/draftself_gpu``), ``pass_costs``
(mean wall time per pass kind and size, r = over the 1-token decode pass), ``break_even``
(τ* = r_draft(k+1) + r_verify(k+1), one-pass draft and batched verify), ``speedup`` (AR decode
time ÷ draft-self decode time per prompt and repetition; the repetitions of a prompt averaged on the
log scale; geometric mean over prompts with a Student-t interval on the per-prompt log ratios, unit of
replication the prompt; the cost model's gap paired per prompt) and ``decode_rates`` (mean over
prompts of the per-prompt mean tok/s, log-scale t interval).  Added here:

* ``per_prompt``: per (configuration, prompt), τ = committed tokens / steps
  (``draftself.analysis.committed_tokens``, the CPU experiment's numerator) and
  α = accepted ÷ drafted of the first timed repetition (the decoders are deterministic), decode tok/s
  averaged over repetitions, whether every repetition's output equals AR greedy, and the AR output's
  ``repeat_share``.
* ``by_k``: per configuration, τ over prompts (mean, log-scale t interval: τ ≥ 1 > 0), α pooled
  (Σ accepted ÷ Σ drafted, no interval), AR and draft-self decode tok/s over prompts (log-scale t
  intervals), the measured speedup with its interval, the cost model's residual paired per prompt
  (``draftself.analysis.paired_gap``: predicted ÷ measured − 1) and its prediction (measured ×
  (1 + residual)), the break-even τ*, and how far τ is above or below it.
* ``repeat_share``: 1 − distinct ÷ total word 4-grams of a text: 0 for no repeated 4-gram; greedy
  decoding of a small model falls into loops, and a loop is easy to draft.
"""

from __future__ import annotations

import json
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
    "latest"; ``draftself.analysis.load_runs``, ``output_text`` included) with the session's
    ``runtime`` and ``toolchain_id`` (torch, Python, device: the decoder's build)."""
    runs, sess = cpu.load_runs(Path(raw_dir) / EXPERIMENT, session)
    return runs.with_columns(runtime=pl.lit(sess["runtime"]), toolchain_id=pl.lit(sess["toolchain_id"]))


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
        .then(cpu.committed_tokens() / pl.col("verify_steps"))
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


def _ci(row: dict) -> list[float] | None:
    """``[ci_low, ci_high]`` of a table row, None without an interval."""
    return None if row["ci_low"] is None else [row["ci_low"], row["ci_high"]]


def by_k(runs: pl.DataFrame) -> pl.DataFrame:
    """One row per draft-self configuration (module doc), sorted by k.

    The rows of ``draftself.analysis`` read for it: ``speedup`` (speedup and the paired residual),
    ``decode_rates`` (AR and draft-self tok/s), ``break_even``; τ and α from ``per_prompt``."""
    costs, _ = cpu.pass_costs(runs)
    ks = sorted({int(k) for k in runs.filter(pl.col("decoder") == "draftself")["k"].to_list()})
    be = cpu.break_even(costs, ks)
    sp = cpu.speedup(runs, costs)
    # one row per configuration: the natural-text prompts are one class (none "predictable")
    rates = {r["config_name"]: r for r in cpu.decode_rates(runs).iter_rows(named=True)}
    pp = per_prompt(runs)
    ar = rates["ar"]
    rows = []
    for k in ks:
        g = pp.filter((pl.col("decoder") == "draftself") & (pl.col("k") == k))
        name = g["config_name"][0]
        tau, _, tau_ci = stats.sample_interval(g["tau"].to_list(), log=True)
        s = sp.filter(pl.col("config_name") == name).row(0, named=True)
        b = be.filter(pl.col("k") == k)
        tau_star = float(b["tau_break_even"][0]) if b.height else None
        rows.append(
            {
                "config_name": name,
                "k": k,
                "prompts": g.height,
                "tau": tau,
                "tau_ci": tau_ci,
                "alpha": float(g["accepted"].sum()) / float(g["drafted"].sum()),
                "ar_tps": ar["decode_tps"],
                "ar_tps_ci": _ci(ar),
                "ds_tps": rates[name]["decode_tps"],
                "ds_tps_ci": _ci(rates[name]),
                "speedup": s["speedup"],
                "speedup_ci": _ci(s),
                "predicted": s["speedup"] * (1 + s["residual"]),
                "residual": s["residual"],
                "residual_ci": s["residual_ci"],
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

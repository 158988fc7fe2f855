"""Caveats of the GPU draft-self numbers: one row per published number for the shared engine
(``caveats.evaluate``, table kind ``draftself``, run by the report pipeline:
``reporting.judge_numbers``), each column from the records that number read.

A number's row (``number_table``):

* ``run_ids``: the runs it cites; ``n``: the fewest timed repetitions of a (configuration, prompt) among
  them (``single_run``); ``load1_max``, ``others_cpu_pct_max``: the host's load over them
  (``busy_host``, with the measured host's core count); ``output_equal``: every cited run's output
  equal to AR greedy (``output_mismatch``); ``synthetic``: false (natural text, a trained model);
* ``cv`` (numbers that read wall times): the highest, over the configurations it read, of the median over
  prompts of the per-prompt coefficient of variation of the repetitions' decode rates
  (``high_variance``);
* ``alpha``, ``speedup_mean``, ``speedup_ci_high`` (numbers of one draft-self configuration): its pooled
  α and its measured speedup (``acceptance_without_speedup``, ``slower_than_baseline``);
* ``repeat_share`` (numbers that depend on what was accepted): the highest share of repeated word
  4-grams among the AR outputs of the prompts it read (``greedy_loop``);
* ``sessions``: completed sessions of the host that measured the number's checkpoint
  (``single_session``; null for a training number); ``checkpoint_stored``: the session start
  record's ``checkpoint`` path is kept in the artifact store, its ``dvc add`` pointer in the repository
  (``draftself.store.is_kept``; ``checkpoint_unavailable``);
* ``prompts``: n of a number whose interval is over prompts, else null (``few_prompts``).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from benchbook.draftself import store
from benchbook.experiments.draftself.analysis import sessions
from benchbook.numbers import Number

#: The rules attached to draftself_gpu numbers, in the order the engine evaluates them.
RULES = [
    "single_run",
    "high_variance",
    "busy_host",
    "output_mismatch",
    "synthetic_inputs",
    "acceptance_without_speedup",
    "slower_than_baseline",
    "greedy_loop",
    "single_session",
    "checkpoint_unavailable",
    "few_prompts",
]


@dataclass(frozen=True)
class Reads:
    """What a number's value depends on beyond the runs it cites: wall times (``timing``), what the
    draft accepted (``acceptance``), and the k of its one draft-self configuration (``k``, else None)."""

    timing: bool = False
    acceptance: bool = False
    k: int | None = None


def session_checkpoints(raw: Path, root: Path) -> dict[str, dict]:
    """``{model_sha256: {"checkpoint": path, "stored": bool, "sessions": {(host, session_id), ...}}}``
    of the completed draft-self sessions under ``raw`` (``draftself.analysis.sessions``: their start
    records' model and ``checkpoint``); ``stored``: some session's ``checkpoint`` is kept in ``root``'s
    artifact store (``draftself.store.is_kept``)."""
    out: dict[str, dict] = {}
    for s in sessions(raw):
        if s["model_sha256"]:
            e = out.setdefault(
                s["model_sha256"], {"checkpoint": s.get("checkpoint"), "stored": False, "sessions": set()}
            )
            e["sessions"].add((s["host_id"], s["session_id"]))
            if store.is_kept(s.get("checkpoint"), root):
                e["checkpoint"], e["stored"] = s["checkpoint"], True
    return out


def config_cv(runs: pl.DataFrame) -> dict[str, float]:
    """Per configuration: the median over prompts of the coefficient of variation (sd with ddof=1 ÷
    mean) of its repetitions' decode rates (``decode_tps``); prompts with one repetition left out."""
    per = (
        runs.group_by("config_name", "prompt_id")
        .agg(sd=pl.col("decode_tps").std(), mean=pl.col("decode_tps").mean())
        .drop_nulls("sd")
    )
    out: dict[str, list[float]] = {}
    for name, sd, mean in per.select("config_name", "sd", "mean").iter_rows():
        out.setdefault(name, []).append(sd / mean)
    return {name: statistics.median(v) for name, v in out.items()}


def number_table(
    numbers: list[Number],
    reads: dict[str, Reads],
    runs: pl.DataFrame,
    per_prompt: pl.DataFrame,
    by_k: pl.DataFrame,
    checkpoints: dict[str, dict],
) -> pl.DataFrame:
    """One row per number of ``numbers`` (module doc), in their order; ``reads``: key -> ``Reads``
    (absent: nothing beyond the cited runs); ``runs``: the session's run table (``analysis.load``);
    ``per_prompt`` and ``by_k``: ``analysis.per_prompt`` and ``analysis.by_k``; ``checkpoints``:
    ``session_checkpoints``."""
    by_id = {
        r["run_id"]: r
        for r in runs.select(
            "run_id", "config_name", "prompt_id", "load1_max", "others_cpu_pct_max", "equals_ar"
        ).iter_rows(named=True)
    }
    reps = {(c, p): n for c, p, n in runs.group_by("config_name", "prompt_id").agg(pl.len()).iter_rows()}
    share = {
        r["prompt_id"]: r["repeat_share"]
        for r in per_prompt.filter(pl.col("decoder") == "ar").iter_rows(named=True)
    }
    cv = config_cv(runs)
    k_row = {int(r["k"]): r for r in by_k.iter_rows(named=True)}
    rows = []
    for num in numbers:
        read = reads.get(num.key, Reads())
        cited = [by_id[i] for i in num.run_ids if i in by_id]
        configs = {r["config_name"] for r in cited}
        prompts = {r["prompt_id"] for r in cited}
        loads = [r["load1_max"] for r in cited if r["load1_max"] is not None]
        others = [r["others_cpu_pct_max"] for r in cited if r["others_cpu_pct_max"] is not None]
        ck = checkpoints.get(num.model_sha256 or "", {})
        kr = k_row.get(read.k) if read.k is not None else None
        rows.append(
            {
                "key": num.key,
                "run_ids": list(num.run_ids),
                "n": min((reps[(r["config_name"], r["prompt_id"])] for r in cited), default=None),
                "load1_max": max(loads, default=None),
                "others_cpu_pct_max": max(others, default=None),
                "output_equal": all(bool(r["equals_ar"]) for r in cited) if cited else None,
                "synthetic": False,
                "cv": max((cv[c] for c in configs if c in cv), default=None) if read.timing else None,
                "alpha": kr["alpha"] if kr else None,
                "speedup_mean": kr["speedup"] if kr else None,
                "speedup_ci_high": kr["speedup_ci"][1] if kr and kr["speedup_ci"] else None,
                "repeat_share": max((share[p] for p in prompts if p in share), default=None)
                if read.acceptance
                else None,
                "sessions": len({s for s in ck.get("sessions", ()) if s[0] == num.host_id})
                if cited
                else None,
                "checkpoint_stored": bool(ck.get("stored")),
                "prompts": num.n if num.ci95 is not None and num.replication == "prompts" else None,
            }
        )
    return pl.DataFrame(
        rows,
        schema_overrides={
            "n": pl.Int64,
            "load1_max": pl.Float64,
            "others_cpu_pct_max": pl.Float64,
            "output_equal": pl.Boolean,
            "cv": pl.Float64,
            "alpha": pl.Float64,
            "speedup_mean": pl.Float64,
            "speedup_ci_high": pl.Float64,
            "repeat_share": pl.Float64,
            "sessions": pl.Int64,
            "prompts": pl.Int64,
            "run_ids": pl.List(pl.String),
        },
    )

"""Caveats: named, documented rules that flag measurement traps beside the numbers they affect.

Each rule is a function registered with ``@rule(id, severity)``; its docstring says what it
catches, why it matters and where the trap was seen.  A rule takes the per-configuration statistics
table (``analysis.rate_stats`` output) and the thresholds (params.yaml ``report``) and returns a
boolean Polars expression; ``attach`` adds a ``caveats`` list column with the ids that fire.
Thresholds are parameters with the defaults in ``DEFAULTS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import polars as pl

DEFAULTS = {"min_n": 3, "high_cv": 0.05, "busy_load_per_core": 0.5, "avg_ts_rel_tol": 1e-3, "cores": 2}


@dataclass(frozen=True)
class Rule:
    id: str
    severity: str  # "warning" (changes what a number means) or "note"
    doc: str
    fn: Callable[[dict], pl.Expr]


RULES: dict[str, Rule] = {}


def rule(rule_id: str, severity: str):
    """Register a caveat rule under ``rule_id`` (its docstring becomes the documentation)."""
    def deco(fn):
        RULES[rule_id] = Rule(rule_id, severity, (fn.__doc__ or "").strip(), fn)
        return fn
    return deco


@rule("single_run", "warning")
def single_run(t: dict) -> pl.Expr:
    """Fewer than ``min_n`` (default 3) repetitions: no usable interval.  The clover write-up
    reported every draft-self speed from one run each."""
    return pl.col("n") < t["min_n"]


@rule("high_variance", "warning")
def high_variance(t: dict) -> pl.Expr:
    """Coefficient of variation of the per-repetition rates above ``high_cv`` (default 5%): the
    mean hides run-to-run spread (thermal throttling, background load, memory pressure)."""
    return pl.col("cv").fill_null(0) > t["high_cv"]


@rule("cold_start", "warning")
def cold_start(t: dict) -> pl.Expr:
    """The number comes from a cold first run (model file evicted from the page cache, no warmup).
    The clover write-up's first tg128 run gave 27.22 tok/s against 36.93 once the file was cached."""
    return pl.col("phase") == "cold"


@rule("busy_host", "warning")
def busy_host(t: dict) -> pl.Expr:
    """The 1-minute load average at the start or end of a run exceeded ``busy_load_per_core``
    × cores (default 0.5 × cores): other processes competed for the CPU while measuring."""
    return pl.col("load1_max") > t["busy_load_per_core"] * t["cores"]


@rule("inconsistent_derived_value", "warning")
def inconsistent_derived_value(t: dict) -> pl.Expr:
    """A stated value disagrees with the values it is derived from: here llama-bench's own avg_ts
    differs from the mean recomputed from its samples_ns by more than ``avg_ts_rel_tol``."""
    return ((pl.col("mean_tps") - pl.col("llama_bench_avg_ts")).abs() / pl.col("llama_bench_avg_ts")) > t["avg_ts_rel_tol"]


def attach(stats: pl.DataFrame, thresholds: dict | None = None, rules: list[str] | None = None) -> pl.DataFrame:
    """Add ``caveats`` (list[str], rule ids in RULES order) to ``stats``; thresholds override DEFAULTS."""
    t = {**DEFAULTS, **(thresholds or {})}
    chosen = [RULES[r] for r in (rules or RULES)]
    if stats.is_empty():
        return stats.with_columns(pl.lit([], dtype=pl.List(pl.String)).alias("caveats"))
    flags = [pl.when(r.fn(t)).then(pl.lit(r.id)).otherwise(None) for r in chosen]
    return stats.with_columns(pl.concat_list(flags).list.drop_nulls().alias("caveats"))

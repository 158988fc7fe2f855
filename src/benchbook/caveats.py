"""Caveats: named, documented rules that flag measurement traps beside the numbers they affect.

A rule (``Rule``) has an ``id``, a ``severity`` ("warning": changes what a number means; "note":
context a reader needs), a ``doc`` (its docstring: what it catches, why it matters, where the trap
was seen) and the thresholds it reads (``params``: name -> documented default, all in
``DEFAULTS``).  A rule has one implementation per *table kind* it applies to; each implementation
declares the columns it needs:

===============  ============================================================================  ===========
kind             table                                                                         record id
===============  ============================================================================  ===========
``llama_bench``  ``experiments.llama_bench.analysis.rate_stats`` output (one row per           ``run_ids``
                 llama-bench configuration)
``speculative``  the speculative-decoding per-configuration table (columns                     ``config_id``
                 ``SPECULATIVE_COLUMNS``, ``experiments.speculative.analysis.config_table``)
``claims``       ``audit.tables.claims_table``: one published number per row                   ``id``
``comparison``   a table of ratios between two numbers: ``ratio_stats`` output                 ``id``
                 (``experiments.llama_bench.analysis``) or ``audit.tables.comparison_table``
                 (derived statements, bound pairs)
``draftself``    ``experiments.draftself.analysis.caveat_table``: one row per draft-self         ``run_ids``
                 configuration (repetitions, the host's load over its runs, synthetic)
===============  ============================================================================  ===========

The ``draftself`` kind also takes ``experiments.draftself_gpu.caveat_rows.number_table``: one row per
published GPU draft-self number, with the columns its extra rules read (``cv``, ``alpha``,
``speedup_mean``, ``speedup_ci_high``, ``repeat_share``, ``sessions``, ``checkpoint_stored``, ``prompts``).

An implementation takes ``(table, thresholds)`` and returns a boolean Polars expression or a
boolean Series aligned with the rows (null counts as False).  ``evaluate`` runs every rule that
applies to a kind and whose columns are present, adds a ``caveats`` list column (rule ids in
``RULES`` order) and says which rules it skipped and why; ``attach`` is the llama-bench shortcut
used by the llama-bench report; ``findings`` turns the result into ``(rule, severity, record id)``
rows for tests and audits.  Thresholds come from ``params.yaml`` ``report`` and override
``DEFAULTS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from .errors import check_keys
from .identity import ORDER_DRIFT_MIN, ORDER_MIN_N, ORDER_RHO_MIN, ORDER_RHO_REST_MIN, STATE_EFFECT_ALPHA
from .stats import t_quantile

#: Threshold defaults; every rule documents the ones it reads.
DEFAULTS: dict = {
    "min_n": 3,  # single_run: fewer repetitions than this
    "high_cv": 0.05,  # high_variance: coefficient of variation above this
    "busy_load_per_core": 0.5,  # busy_host: 1-min load average per core above this
    "busy_other_cpu_pct": 50.0,  # busy_host: another process used more CPU % than this
    # busy_host whatever the per-process figure: a 1-min load average per core above this (many
    # processes each under busy_other_cpu_pct; a benchmark's own threads keep it under ~2.6 on 2 cores)
    "busy_load_hard_per_core": 2.0,
    # state_effect: level of the test that splits one configuration's rows (applied in the analysis,
    # identity.state_effect: Welch's t, two-sided, Bonferroni over the pairs); the rule reads the flag
    "state_effect_alpha": STATE_EFFECT_ALPHA,
    # order_trend (identity.order_trend; the analyses split drifting rows with the same values): at least
    # order_min_n values in run order, |Spearman ρ| at or above order_rho_min, and the rest's mean at
    # least order_drift_min away from the first
    "order_min_n": ORDER_MIN_N,
    "order_rho_min": ORDER_RHO_MIN,
    "order_drift_min": ORDER_DRIFT_MIN,
    "order_rho_rest_min": ORDER_RHO_REST_MIN,
    # cross_request_state on tables without a paired speedup (logs, claims): a decode rate rising faster
    # than this fraction of its mean per request
    "rate_slope_rel_max": 0.1,
    # busy_host: logical cores of the host; a report sets the host snapshot's own (``host_thresholds``:
    # None where it states none), this default serves tables without a host (claims, ingested logs)
    "cores": 2,
    "avg_ts_rel_tol": 1e-3,  # inconsistent_derived_value: llama-bench avg_ts vs recomputed mean
    "derived_rel_tol": 0.05,  # inconsistent_derived_value: stated ratio vs numerator/denominator
    "spill_drop": 0.25,  # memory_spill: throughput falls by more than this fraction ...
    "spill_mem_frac": 0.95,  # memory_spill: ... or device memory peak above this fraction of capacity
    "device_mem_mib": None,  # memory_spill: device memory (MiB); None: the column gpu_mem_total_mib
    "accept_min": 0.5,  # acceptance_without_speedup: α at or above this ...
    "min_speedup": 1.0,  # ... and speedup upper bound at or below this
    "alpha_slope_max": 0.01,  # cross_request_state: α rising faster than this per repetition ...
    "drafted_slope_rel_max": 0.1,  # ... or drafted tokens rising > this fraction of their mean per rep.
    "speedup_slope_max": 0.05,  # ... or the per-repetition speedup rising faster than this per rep.
    "cold_first_ratio": 0.5,  # cold_start (first sample): first sample below this × median of the rest
    "cold_faster_ratio": 1.1,  # cold_label_untrusted: a cold run faster than this × its warm runs' mean
    "warm_cache_min_tokens": 1,  # warm_prompt_cache: prompt tokens served from cache at or above this
    "synthetic_pattern": r"(?i)(random|synthetic|dummy|rand-init|untrained)",  # synthetic_inputs
    "cold_pattern": r"(?i)\bcold\b|^\s*first run\s*(,|$)",  # cold_start on claims: note says cold/first run
    "bimodal_gap_ratio": 3.0,  # bimodal_samples: gap between two clusters over the wider cluster's range
    "phase_classes": {  # mixed_phase on comparisons: metric text -> phase (first matching regex)
        "prefill": r"(?i)prefill|prompt[_ ](eval|tps|processing)|\bpp\d*\b|^pp",
        "decode": r"(?i)decode|generation[_ ]tps|eval_tps|\btg\d*\b|^tg",
    },
    "method_classes": {  # mixed_method: method text -> method class (first regex that matches)
        "llama-bench": r"(?i)llama-bench|\btg\d+|\bpp\d+",
        "real-prompt": r"(?i)real[- ]prompt|generation on prompts|/completion|server",
        "vendor": r"(?i)vendor|stated by|blog",
    },
    # greedy_loop: the AR greedy output's share of repeated word 4-grams at or above this (0.15: about one
    # word 4-gram in seven repeats an earlier one; the committed GPU outputs that loop read 0.19-0.40)
    "loop_share": 0.15,
    "min_prompts": 30,  # few_prompts: an interval over fewer prompts than this
    # cost_rows_disturbed: a cost model's r(1) (a 1-token pass ÷ one decode step: the same work) outside
    # [cost_r1_min, cost_r1_max]; sound cost rows read 0.92-1.18 on the 2-core CPU host and 0.99-1.08 on
    # an H200 (medians), disturbed ones 2.5-5.0: a factor 1.5 either way leaves room for the pp path's
    # own overhead
    "cost_r1_min": 0.67,
    "cost_r1_max": 1.5,
}

#: Columns of the speculative-decoding table (``experiments.speculative.analysis.config_table``).
SPECULATIVE_COLUMNS = [
    "host_id",
    "toolchain_id",
    "session_id",
    "config_id",
    "prompt_id",
    "spec_type",
    "draft_model_id",
    "n_max",
    "n",
    "decode_tps_mean",
    "decode_tps_ci_low",
    "decode_tps_ci_high",
    "speedup_mean",
    "speedup_ci_low",
    "speedup_ci_high",
    "alpha",
    "tau",
    "output_equal",
    "first_mismatch_pos",
    "cap_hit",
    "alpha_trend_slope",
    "server_policy",
    "cache_n_max",
    "lines",
    "files",
    "run_ids",
]

#: Record-id column per table kind.
ID_COLUMN = {
    "llama_bench": "run_ids",
    "speculative": "config_id",
    "claims": "id",
    "comparison": "id",
    "draftself": "run_ids",
}

KINDS = tuple(ID_COLUMN)

Impl = Callable[[pl.DataFrame, dict], "pl.Expr | pl.Series"]


@dataclass(frozen=True)
class Variant:
    """One implementation of a rule: the table kind, the columns it needs and the function."""

    kind: str
    needs: tuple[str, ...]
    fn: Impl


@dataclass
class Rule:
    """A caveat rule: ``id``, ``severity`` ("warning" | "note"), ``doc``, thresholds read (``params``)
    and implementations per table kind (``variants``)."""

    id: str
    severity: str
    doc: str
    params: tuple[str, ...] = ()
    variants: dict[str, Variant] = field(default_factory=dict)

    @property
    def applies_to(self) -> tuple[str, ...]:
        return tuple(self.variants)

    def on(self, kind: str, needs: tuple[str, ...] | list[str]):
        """Decorator registering an implementation of this rule for table ``kind``."""
        if kind not in KINDS:
            raise ValueError(f"rule {self.id}: unknown table kind {kind!r}; kinds: {KINDS}")

        def deco(fn: Impl) -> Impl:
            self.variants[kind] = Variant(kind, tuple(needs), fn)
            return fn

        return deco


RULES: dict[str, Rule] = {}


def rule(rule_id: str, severity: str, params: tuple[str, ...] = ()) -> Callable:
    """Register a caveat rule under ``rule_id``; the decorated function only carries the docstring.

    Returns the ``Rule`` (use ``@<rule>.on(kind, needs)`` for implementations).
    """
    if severity not in ("warning", "note"):
        raise ValueError(f"rule {rule_id}: severity must be 'warning' or 'note', got {severity!r}")
    for p in params:
        if p not in DEFAULTS:
            raise ValueError(f"rule {rule_id}: threshold {p!r} has no documented default in DEFAULTS")

    def deco(fn) -> Rule:
        r = Rule(rule_id, severity, " ".join((fn.__doc__ or "").split()), tuple(params))
        RULES[rule_id] = r
        return r

    return deco


def _col_false(name: str) -> pl.Expr:
    return pl.col(name).fill_null(False)


def _method_class(col: str, t: dict) -> pl.Expr:
    """Method text -> class name via ``method_classes`` (first match wins; else the lowercased text)."""
    expr = pl.col(col).str.to_lowercase()
    for name, pattern in reversed(list(t["method_classes"].items())):
        expr = pl.when(pl.col(col).str.contains(pattern)).then(pl.lit(name)).otherwise(expr)
    return expr


def _cliff(
    df: pl.DataFrame, group: list[str], sweep: str, value: str, drop: float, device_up: str
) -> pl.Series:
    """True where ``value`` is below ``(1 - drop)`` × the best value at the neighbouring sweep level
    that puts *less* on the device (``device_up``: "descending" when a smaller ``sweep`` puts more on the
    device, as -ncmoe; "ascending" when a larger one does, as -ngl)."""
    group = [g for g in group if g in df.columns and g != sweep]
    if df[sweep].drop_nulls().n_unique() <= 1:  # no sweep, no neighbour to compare with
        return pl.Series([False] * df.height)
    d = df.with_row_index("_i").with_columns(pl.col(sweep).cast(pl.Float64).alias("_s"))
    levels = (
        d.filter(pl.col("_s").is_not_null() & pl.col(value).is_not_null())
        .group_by(group + ["_s"])
        .agg(pl.col(value).max().alias("_best"))
    )
    # the neighbour with less on the device: next larger -ncmoe, next smaller -ngl
    desc = device_up == "descending"
    levels = levels.sort(group + ["_s"], descending=[False] * len(group) + [desc])
    levels = levels.with_columns(pl.col("_best").shift(1).over(group or pl.lit(1)).alias("_prev"))
    j = d.join(levels.select(group + ["_s", "_prev"]), on=group + ["_s"], how="left", nulls_equal=True)
    j = j.sort("_i")
    return (j["_prev"].is_not_null() & (j[value] < (1 - drop) * j["_prev"])).fill_null(False)


# --- the rules -----------------------------------------------------------------------------------


@rule("cap_hit", "warning")
def _cap_hit():
    """A request stopped at its generation cap (``stop_type`` "limit", or ``predicted_n`` equal to
    ``n_predict``), so the text and token counts are truncated and rates or times per answer compare
    unequal work.  Seen: a team's benchmark where a 2,000-token cap cut every answer of one model at
    exactly 2,000 tokens and made it look six times slower.  Applies to the speculative table
    (``cap_hit``) and to claims/ingested rows with ``tokens_generated`` and ``cap``."""


@RULES["cap_hit"].on("speculative", ["cap_hit"])
def _(df, t):
    if "cap_equal_work" in df.columns:  # a cap both sides stopped at with equal work is cap_by_design
        return _col_false("cap_hit") & pl.col("cap_equal_work").not_().fill_null(True)
    return _col_false("cap_hit")


@rule("cap_by_design", "note")
def _cap_by_design():
    """Every request of the configuration and of its baseline stopped at the same generation cap with
    the same number of tokens: the cap was chosen by the experiment and both sides did equal work,
    so rates compare like with like; the answers themselves are truncated (not a quality measure).
    The warning ``cap_hit`` is kept for a cap that cut answers short in a comparison of unequal work.
    Speculative table: ``cap_equal_work`` (``experiments.speculative.analysis._cap_equal_work``)."""


@RULES["cap_by_design"].on("speculative", ["cap_equal_work"])
def _(df, t):
    return _col_false("cap_equal_work")


@RULES["cap_hit"].on("claims", ["tokens_generated", "cap"])
def _(df, t):
    # more tokens than the cap is not a cap hit but a count of something else (``exceeds_limit``)
    return pl.col("tokens_generated") == pl.col("cap")


@rule("single_run", "warning", ("min_n",))
def _single_run():
    """Fewer than ``min_n`` (default 3) repetitions: no usable interval, and one outlier is the
    number.  Seen: the clover write-up reported every draft-self speed from one run each
    (``runs_per_prompt: 1``).  llama-bench table: ``n`` samples; speculative table: ``n``
    repetitions; claims: the claim's ``n`` (from the source's ``runs_per_prompt`` for real-prompt
    runs); comparisons: the smaller n of numerator and denominator."""


@RULES["single_run"].on("llama_bench", ["n"])
def _(df, t):
    return pl.col("n") < t["min_n"]


@RULES["single_run"].on("speculative", ["n"])
def _(df, t):
    return pl.col("n") < t["min_n"]


@RULES["single_run"].on("draftself", ["n"])
def _(df, t):
    return pl.col("n") < t["min_n"]


@RULES["single_run"].on("claims", ["n"])
def _(df, t):
    return pl.col("n") < t["min_n"]


@RULES["single_run"].on("comparison", ["num_n", "den_n"])
def _(df, t):
    return pl.min_horizontal("num_n", "den_n") < t["min_n"]


@rule("high_variance", "warning", ("high_cv",))
def _high_variance():
    """Coefficient of variation of the per-repetition rates above ``high_cv`` (default 5%): the mean
    hides run-to-run spread (thermal throttling, background load, memory pressure).  The speculative
    table: ``decode_tps_sd`` ÷ ``decode_tps_mean``; a table with a symmetric interval and no sd:
    ``sd = (ci_high - ci_low)/2 · sqrt(n) / t_{0.975,n-1}``."""


@RULES["high_variance"].on("llama_bench", ["cv"])
def _(df, t):
    return pl.col("cv").fill_null(0) > t["high_cv"]


@RULES["high_variance"].on("speculative", ["n", "decode_tps_mean", "decode_tps_ci_low", "decode_tps_ci_high"])
def _(df, t):
    if "decode_tps_sd" in df.columns:  # the sd itself (the interval is log-scale since issue 12)
        return (pl.col("decode_tps_sd") / pl.col("decode_tps_mean")).fill_null(0) > t["high_cv"]
    q = np.atleast_1d(t_quantile(df["n"].to_numpy()))
    half = ((df["decode_tps_ci_high"] - df["decode_tps_ci_low"]) / 2).to_numpy().astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = df["decode_tps_mean"].to_numpy().astype(float)
        cv = half * np.sqrt(df["n"].to_numpy().astype(float)) / q / mean
    return pl.Series(np.nan_to_num(cv, nan=0.0) > t["high_cv"])


@rule("cold_start", "warning", ("cold_pattern", "cold_first_ratio"))
def _cold_start():
    """The number comes from a cold first run (model file not in the page cache, no warmup), which
    measures disk reads, not inference.  Seen: the clover write-up's first tg128 run gave 27.22 tok/s
    against 36.93 once the file was cached; our own CUDA pp128 runs' first of 5 repetitions ran at
    about 40% of the others.  llama-bench table: ``phase == "cold"``, or the first-sample form: a
    row's first sample below ``cold_first_ratio`` (default 0.5) × the median of its other samples
    (column ``first_sample_ratio``; ``samples_ts`` [8000, 41000, 42900, 43000, 42800] gives 0.19 and
    fires, [40000, 41000, 42900, 43000, 42800] gives 0.93 and does not); the report then publishes
    the median and the mean without that sample beside llama-bench's mean.  Claims: the note matches
    ``cold_pattern`` (default: "cold", or a note that is just "first run")."""


@RULES["cold_start"].on("llama_bench", ["phase"])
def _(df, t):
    by_phase = pl.col("phase") == "cold"
    if "first_sample_ratio" in df.columns:
        return by_phase | (pl.col("first_sample_ratio") < t["cold_first_ratio"]).fill_null(False)
    return by_phase


@RULES["cold_start"].on("speculative", ["phase"])
def _(df, t):
    return pl.col("phase") == "cold"


@RULES["cold_start"].on("claims", ["note"])
def _(df, t):
    # cast: a claims table where no claim has a note has an all-null (Null-typed) column
    by_note = pl.col("note").cast(pl.String).str.contains(t["cold_pattern"]).fill_null(False)
    return (by_note | _col_false("cold")) if "cold" in df.columns else by_note


@rule("cold_label_untrusted", "warning", ("cold_faster_ratio",))
def _cold_label_untrusted():
    """A run labelled cold (the first run, no warmup, the model file taken to be out of the page cache)
    ran faster than ``cold_faster_ratio`` (default 1.1) × the mean of the warm runs of the same test in
    the same session: the file was cached after all (an earlier run, another process), so the label
    says nothing about disk reads and the cold number is one more warm sample.  Seen: a new user's
    cold tg at 5.76 tok/s against 1.99 warm on a busy 2-core host; our own CPU host's cold tg64 of the
    Q4_1 model at 109.7 tok/s against 78.7 warm.  llama-bench table: cold and warm rows paired by
    session, model and test (prompt, generation and depth sizes, threads, layers on the GPU, experts
    on the CPU, flash attention, cache types, batch sizes)."""


#: what pairs a cold llama-bench row with the warm rows of the same test (their argv differs: ``-r 1
#: --no-warmup``, so ``config_key`` does not pair them)
_COLD_PAIR = (
    "session_id",
    "model_id",
    "test",
    "n_prompt",
    "n_gen",
    "n_depth",
    "n_threads",
    "n_gpu_layers",
    "n_cpu_moe",
    "flash_attn",
    "type_k",
    "type_v",
    "n_batch",
    "n_ubatch",
)


@RULES["cold_label_untrusted"].on("llama_bench", ["phase", "mean_tps", "session_id", "model_id", "test"])
def _(df, t):
    key = [c for c in _COLD_PAIR if c in df.columns]
    warm = pl.col("mean_tps").filter(pl.col("phase") == "warm").mean().over(key)
    return ((pl.col("phase") == "cold") & (pl.col("mean_tps") > t["cold_faster_ratio"] * warm)).fill_null(
        False
    )


@rule("warm_prompt_cache", "warning", ("warm_cache_min_tokens",))
def _warm_prompt_cache():
    """Part of the prompt was served from the server's prompt cache (``cache_n`` ≥
    ``warm_cache_min_tokens``, default 1), so prompt-eval time and time-to-first-token are too low and
    a repeated request does not repeat the measured work.  llama-server reuses the KV cache of a
    matching prefix by default (``cache_prompt``; tools/server/README.md, ``/completion`` options).
    Seen: a request that evaluated 73 of its 809 prompt tokens averaged with one that evaluated all
    809.  The speculative table keeps cold and warm requests apart (``cache_state``; the warm share
    ``warm_share`` = Σ cache_n ÷ Σ prompt tokens); ``cache_n`` comes from the server's counts or, for
    a log, from its ``stop processing: n_tokens`` line (``ingest._cache_n_from_log``)."""


@RULES["warm_prompt_cache"].on("speculative", ["cache_n_max"])
def _(df, t):
    warm = pl.col("cache_n_max") >= t["warm_cache_min_tokens"]
    return (warm | (pl.col("cache_state") == "warm")) if "cache_state" in df.columns else warm


@rule(
    "cross_request_state",
    "warning",
    ("alpha_slope_max", "drafted_slope_rel_max", "speedup_slope_max", "rate_slope_rel_max"),
)
def _cross_request_state():
    """State learned from earlier requests served by one server process (an ngram cache, a prompt
    cache holding the previous answer) makes the draft look better than it is on new text.  Fires
    with ``server_policy == "same"`` when, over the repetition index, α rises faster than
    ``alpha_slope_max`` (default 0.01 per repetition), or the drafted tokens rise faster than
    ``drafted_slope_rel_max`` (default 0.1) × their mean per repetition (``drafted_trend_rel``), or
    the per-repetition speedup rises faster than ``speedup_slope_max`` (default 0.05 per repetition,
    ``speedup_trend_slope``).  Seen: with one server for every repetition, drafted tokens jumped
    12 → 41 and 53 → 117 and per-repetition speedups climbed 1.05 → 1.77 and 1.24 → 1.70 while α
    stayed flat.  Such configurations publish per-repetition values and the trend, never a pooled
    speedup.  A fresh server per repetition has no trend (null).  Tables without a paired speedup per
    repetition (raw logs: the requests of one server in file order, ``audit.logstate``; claims stated
    with ``run_index``) read the decode rate's slope relative to its mean instead
    (``decode_trend_rel``, above ``rate_slope_rel_max``, default 0.1 per request).  Seen in a log: 12/96
    → 55/140 → 180/200 accepted over three requests to one server, the decode rate ×3."""


@RULES["cross_request_state"].on("speculative", ["server_policy", "alpha_trend_slope"])
def _(df, t):
    rising = (pl.col("alpha_trend_slope") > t["alpha_slope_max"]).fill_null(False)
    if "drafted_trend_rel" in df.columns:
        rising = rising | (pl.col("drafted_trend_rel") > t["drafted_slope_rel_max"]).fill_null(False)
    if "speedup_trend_slope" in df.columns:
        rising = rising | (pl.col("speedup_trend_slope") > t["speedup_slope_max"]).fill_null(False)
    if "decode_trend_rel" in df.columns:  # logs: no paired speedup per repetition
        rising = rising | (pl.col("decode_trend_rel") > t["rate_slope_rel_max"]).fill_null(False)
    return (pl.col("server_policy") == "same") & rising


@rule("order_trend", "warning", ("order_min_n", "order_rho_min", "order_rho_rest_min", "order_drift_min"))
def _order_trend():
    """The repetitions (or repeated requests) drift in the order they ran: Spearman ρ of the values
    against their run order at or beyond ``order_rho_min`` (default 0.9) in size over at least
    ``order_min_n`` (default 5) values, the values after the first ordered the same way (their ρ at or
    beyond ``order_rho_rest_min``, default 0.8, same sign: a slow first value alone is ``cold_start``,
    not a drift), and the mean of the values after the first at least
    ``order_drift_min`` (default 2%) away from the first (``identity.order_trend``).  Not noise: the
    mean depends on how many repetitions ran (a warm-up, a cache filling, clocks falling as the device
    heats), so the number reports where the series stopped, and a high variance hides the direction.
    Seen: five trials 30.2, 27.9, 27.1, 26.4, 26.0 tok/s (ρ −1.00, the rest 11.1% below the first).
    Such a row is not pooled with the other rows of its configuration. Columns ``order_n``,
    ``order_rho``, ``order_rho_rest``, ``order_drift`` (1 − mean of the rest ÷ first): llama-bench rows
    (samples in run order), speculative rows (repetitions; logs: the requests of one server in order),
    claims (claims of one configuration stated with ``run_index``)."""


def _order_expr(df, t):
    return (
        (pl.col("order_n") >= t["order_min_n"])
        & (pl.col("order_rho").fill_nan(None).abs() >= t["order_rho_min"])
        & (pl.col("order_rho_rest").fill_nan(None) * pl.col("order_rho") > 0)
        & (pl.col("order_rho_rest").fill_nan(None).abs() >= t["order_rho_rest_min"])
        & (pl.col("order_drift").abs() >= t["order_drift_min"])
    ).fill_null(False)


for _kind in ("llama_bench", "speculative", "claims"):
    RULES["order_trend"].on(_kind, ["order_n", "order_rho", "order_rho_rest", "order_drift"])(_order_expr)


@RULES["cross_request_state"].on("claims", ["run_index", "alpha_trend_slope", "decode_trend_rel"])
def _(df, t):
    # a series of claims stated with run_index (audit.tables.series_columns): repeated requests
    rising = (pl.col("alpha_trend_slope") > t["alpha_slope_max"]).fill_null(False)
    return rising | (pl.col("decode_trend_rel") > t["rate_slope_rel_max"]).fill_null(False)


@rule("mixed_method", "warning", ("method_classes",))
def _mixed_method():
    """Two numbers compared (a ratio, a "x% of", a "N times") were measured by different methods,
    e.g. llama-bench tg (random tokens, no sampling, no server) against generation on real prompts
    through a server.  Seen: the clover write-up's "draft-self is about 57% of plain decoding"
    divides a real-prompt draft-self speed by a llama-bench tg128 speed.  Methods are classed by
    ``method_classes`` (regex per class; an unclassed method is its own text).  A method that is not
    stated (null) is unknown, not different: it never fires the rule (the audit notes it instead)."""


@RULES["mixed_method"].on("comparison", ["num_method", "den_method"])
def _(df, t):
    return (_method_class("num_method", t) != _method_class("den_method", t)).fill_null(False)


@RULES["mixed_method"].on("speculative", ["mixed_method"])
def _(df, t):
    return _col_false("mixed_method")


@rule("mixed_phase", "warning", ("phase_classes",))
def _mixed_phase():
    """A rate mixes phases: prefill and decode tokens over one time (llama-bench ``-pg``: ``pp+tg``
    in one tok/s), or a comparison divides a prefill rate by a decode rate.  Prefill is
    compute-bound and decode memory-bound; their mixture depends on the mix (DESIGN.md: rates are
    never averaged across phases).  Comparisons: each side's metric is classed by ``phase_classes``
    (prefill | decode); only two *known, different* phases fire, so tokens ÷ seconds or a memory
    ratio is not a phase mix."""


@RULES["mixed_phase"].on("llama_bench", ["test"])
def _(df, t):
    return pl.col("test") == "pg"


def _phase_class(col: str, t: dict) -> pl.Expr:
    """Metric text -> "prefill" | "decode" via ``phase_classes``; null when neither matches."""
    expr = pl.lit(None, pl.String)
    for name, pattern in reversed(list(t["phase_classes"].items())):
        expr = pl.when(pl.col(col).cast(pl.String).str.contains(pattern)).then(pl.lit(name)).otherwise(expr)
    return expr


@RULES["mixed_phase"].on("comparison", ["num_phase", "den_phase"])
def _(df, t):
    return (_phase_class("num_phase", t) != _phase_class("den_phase", t)).fill_null(False)


@RULES["mixed_phase"].on("speculative", ["mixed_phase"])
def _(df, t):
    return _col_false("mixed_phase")


@rule("output_mismatch", "warning")
def _output_mismatch():
    """Under greedy decoding speculative decoding must reproduce the baseline's tokens exactly
    (verification keeps only tokens the target itself would pick).  A mismatch means a bug, a
    non-greedy sampler (GGUF penalty defaults), or batch-dependent numerics, and the speedup is then
    not for the same output.  Fires when ``output_equal`` is false (``first_mismatch_pos`` says where)
    under a greedy sampler.  Under any other sampler (seen: temperature 0.8) outputs may differ by
    design: the check is skipped and ``output_check_note`` says so.  At greedy, ``output_check`` tells
    a deterministic per-mode divergence (each mode reproduces itself over ≥ 2 repetitions, the modes
    disagree) from run-to-run nondeterminism, or "cannot tell" with one repetition;
    ``first_diverging_token`` and ``matching_prefix_len`` say where
    (``experiments.speculative.analysis.divergence``)."""


@RULES["output_mismatch"].on("speculative", ["output_equal"])
def _(df, t):
    mismatch = pl.col("output_equal").not_().fill_null(False)
    if "greedy" in df.columns:  # not greedy: skipped (a null sampler is unknown, still checked)
        return mismatch & pl.col("greedy").fill_null(True)
    return mismatch


@RULES["output_mismatch"].on("draftself", ["output_equal"])
def _(df, t):
    # draft-self is lossless by construction; a variant that changes the verifier (coreset on both passes)
    # may not be: seen, coreset0.6-both matched AR greedy on 0 of 3 "other" prompts
    return pl.col("output_equal").not_().fill_null(False)


@rule("between_session_spread", "warning")
def _between_session_spread():
    """The host has other completed sessions of the same configuration (same host, build, model and
    llama-bench parameters) whose means fall outside this number's interval: the interval describes
    one session's repetitions, not what a rerun gives.  Seen: three quiet sessions on one host within
    30 minutes gave Q4_1 tg64 114.7, 78.7 and 99.3 tok/s, and the published 99.3 [88.6, 109.9]
    excluded both others.  llama-bench table: ``other_session_means`` (``experiments.llama_bench.
    spread.with_session_spread``), compared with ``ci_low_tps``/``ci_high_tps``."""


@RULES["between_session_spread"].on("llama_bench", ["other_session_means", "ci_low_tps", "ci_high_tps"])
def _(df, t):
    means, lows, highs = df["other_session_means"], df["ci_low_tps"], df["ci_high_tps"]
    rows = zip(means.to_list(), lows.to_list(), highs.to_list(), strict=True)
    return pl.Series(
        [
            lo is not None and hi is not None and any(m < lo or m > hi for m in means or [])
            for means, lo, hi in rows
        ],
        dtype=pl.Boolean,
    )


@rule("bimodal_samples", "warning", ("bimodal_gap_ratio",))
def _bimodal_samples():
    """The per-repetition rates fall into two clusters: sorted, the largest gap that leaves at least two
    samples on each side is more than ``bimodal_gap_ratio`` (default 3) times the wider cluster's range
    and more than 2% of the mean.  A mean of two regimes (another process, a frequency change, a
    page-cache state) describes neither, and its t-interval is too wide for one and too narrow for the
    other.  Seen: Q4_1 tg64 samples 89.6, 90.2 | 105.4, 105.5, 105.7 tok/s published as 99.3.
    llama-bench table: ``cluster_gap_ratio`` and ``cluster_gap_frac`` (``experiments.llama_bench.spread.
    with_session_spread``)."""


@RULES["bimodal_samples"].on("llama_bench", ["cluster_gap_ratio", "cluster_gap_frac"])
def _(df, t):
    return (pl.col("cluster_gap_ratio") > t["bimodal_gap_ratio"]).fill_null(False) & (
        pl.col("cluster_gap_frac") > 0.02
    ).fill_null(False)


@rule("acceptance_without_speedup", "warning", ("accept_min", "min_speedup"))
def _acceptance_without_speedup():
    """High acceptance (α ≥ ``accept_min``, default 0.5) but no speedup (the point estimate
    ``speedup_mean`` ≤ ``min_speedup``, default 1.0): acceptance is not the goal, wall time is.
    Drafting or verifying costs more than it saves (the verifier's k+1-token pass touches more
    experts in an MoE).  Judged on the point estimate, not the interval's upper end (a 35% slowdown
    at 100% acceptance with n = 2 has an upper end of 1.13 and was passed); ``speedup_verdict`` says
    whether the interval decides or n is too small.  Seen: the clover write-up showed "100%
    acceptance" while draft-self ran at 6.7-24.6 tok/s against 32.95-42.72 tok/s plain."""


@RULES["acceptance_without_speedup"].on("speculative", ["alpha", "speedup_mean"])
def _(df, t):
    return (pl.col("alpha") >= t["accept_min"]) & (pl.col("speedup_mean") <= t["min_speedup"])


@rule("slower_than_baseline", "warning")
def _slower_than_baseline():
    """The speculative configuration is slower than its same-session baseline: the speedup's interval
    lies below 1 (``speedup_ci_high`` < 1), whatever α.  Seen: a draft run at 3.4-3.6 tok/s against a
    baseline of 7.8-8.0 tok/s (speedup 0.44, α 0.30) got no caveat because α was low.  Without an
    interval (n < 3) the rule does not decide; ``speedup_verdict`` says so.  Comparisons (audits) that
    state α: the ratio's range ``num_hi ÷ den_lo`` below 1 (3.6 ÷ 7.8 = 0.46 in the example)."""


@RULES["slower_than_baseline"].on("speculative", ["speedup_ci_high"])
def _(df, t):
    return (pl.col("speedup_ci_high") < 1.0).fill_null(False)


@RULES["slower_than_baseline"].on("comparison", ["num_alpha", "num_hi", "den_lo"])
def _(df, t):
    # a speculative comparison (it states α): the ratio's range [num_lo/den_hi, num_hi/den_lo] below 1
    return (pl.col("num_alpha").is_not_null() & (pl.col("num_hi") / pl.col("den_lo") < 1.0)).fill_null(False)


@rule("acceptance_definition_mismatch", "warning")
def _acceptance_definition_mismatch():
    """Acceptance (α) compared across llama.cpp builds that count its denominator differently:
    ggml-org/llama.cpp PR #14104 (merged 2025-06-10) stopped counting drafts skipped by ``--draft-min``
    in ``draft_n``, so an older build's α is lower for the same drafts and a comparison would report a
    change of definition as an improvement.  Speculative table: one session holds more than one
    ``acceptance_definition`` (``experiments.speculative.analysis.ACCEPTANCE_DEFINITIONS``);
    comparisons: ``num_acceptance_definition`` and ``den_acceptance_definition`` both known and
    different."""


@RULES["acceptance_definition_mismatch"].on("speculative", ["session_id", "acceptance_definition"])
def _(df, t):
    return pl.col("acceptance_definition").drop_nulls().n_unique().over("session_id") > 1


@RULES["acceptance_definition_mismatch"].on(
    "comparison", ["num_acceptance_definition", "den_acceptance_definition"]
)
def _(df, t):
    return (pl.col("num_acceptance_definition") != pl.col("den_acceptance_definition")).fill_null(False)


@RULES["acceptance_without_speedup"].on("comparison", ["num_alpha", "value"])
def _(df, t):
    return (pl.col("num_alpha") >= t["accept_min"]) & (pl.col("value") <= t["min_speedup"])


@rule("memory_spill", "warning", ("spill_drop", "spill_mem_frac", "device_mem_mib"))
def _memory_spill():
    """Throughput cliff near device memory capacity: moving one step towards more on the device
    (fewer -ncmoe layers, more -ngl) lowers throughput by more than ``spill_drop`` (default 25%), or
    peak device memory exceeds ``spill_mem_frac`` (default 95%) of capacity (``device_mem_mib``, or the
    ``gpu_mem_total_mib`` column).  The driver then pages over PCIe (Windows "shared GPU memory") and
    the number measures the bus.  Seen: clover tg at -ncmoe 22 fell to 23.48 tok/s from 42.72 at 24,
    "VRAM exceeded"."""


def _spill(df: pl.DataFrame, t: dict, group: list[str], value: str) -> pl.Series:
    out = pl.Series([False] * df.height)
    if "n_cpu_moe" in df.columns:
        out = out | _cliff(
            df,
            group + (["n_gpu_layers"] if "n_gpu_layers" in df.columns else []),
            "n_cpu_moe",
            value,
            t["spill_drop"],
            "descending",
        )
    if "n_gpu_layers" in df.columns:
        out = out | _cliff(
            df,
            group + (["n_cpu_moe"] if "n_cpu_moe" in df.columns else []),
            "n_gpu_layers",
            value,
            t["spill_drop"],
            "ascending",
        )
    cap = t.get("device_mem_mib")
    if "peak_gpu_mem_mib" in df.columns and (cap or "gpu_mem_total_mib" in df.columns):
        capx = pl.lit(float(cap)) if cap else pl.col("gpu_mem_total_mib")
        over = (pl.col("peak_gpu_mem_mib") > t["spill_mem_frac"] * capx).fill_null(False)
        out = out | df.select(over).to_series()
    return out


@RULES["memory_spill"].on("llama_bench", ["mean_tps"])
def _(df, t):
    group = [
        c
        for c in (
            "host_id",
            "toolchain_id",
            "session_id",
            "model_id",
            "phase",
            "test",
            "n_prompt",
            "n_gen",
            "n_depth",
            "n_threads",
            "flash_attn",
            "type_k",
            "type_v",
        )
        if c in df.columns
    ]
    return _spill(df, t, group, "mean_tps")


@RULES["memory_spill"].on("claims", ["value", "metric"])
def _(df, t):
    # (one model, quant, machine and build: rows of another model or quant are no sweep's neighbours)
    keys = (
        "env",
        "hardware",
        "model",
        "quant",
        "build",
        "metric",
        "method",
        "decoding",
        "prompt",
        "block_max",
    )
    group = [c for c in (*keys, "unit") if c in df.columns]
    return _spill(df, t, group, "value")


@rule("at_capacity", "warning", ("spill_mem_frac",))
def _at_capacity():
    """A memory value at or above ``spill_mem_frac`` (default 95%) of the capacity stated beside it
    (device memory, a RAM or WSL limit): the run had no headroom, so the driver may have paged over
    PCIe or the OS swapped, and the speeds measured under the same conditions may measure that, not
    inference.  The audit names the slower rows beside it (``audit.verdicts``).  Seen: the clover
    write-up's WSL draft-self run peaked at 11.76 of 12.29 GiB of VRAM, and its WSL draft-self speeds
    were below the Windows ones.  Claims: ``family`` "size", ``value`` ÷ ``capacity``."""


@RULES["at_capacity"].on("claims", ["value", "capacity", "family"])
def _(df, t):
    return (
        (pl.col("family") == "size") & (pl.col("value") >= t["spill_mem_frac"] * pl.col("capacity"))
    ).fill_null(False)


@rule("exceeds_limit", "warning")
def _exceeds_limit():
    """A count above the limit stated beside it (turns allowed, max tokens, max steps), or more tokens
    generated than the generation cap: impossible if the field counts what its name says, so it counts
    something else.  Seen: a team's harness field ``turns_used`` that counted commands, and exceeded
    the turns allowed.  Claims: ``lo`` above ``limit``, or ``tokens_generated`` above ``cap``."""


@RULES["exceeds_limit"].on("claims", ["lo", "limit", "tokens_generated", "cap"])
def _(df, t):
    return (pl.col("lo") > pl.col("limit")).fill_null(False) | (
        pl.col("tokens_generated") > pl.col("cap")
    ).fill_null(False)


#: What a number's memory note says when its run has no device-memory telemetry or capacity.
HEADROOM_UNKNOWN = "memory headroom unknown"
#: What it says for a run on a host whose snapshot lists no GPU (there is no device memory to fill).
NO_GPU = "no GPU"


def device_memory_mib(host: dict | None) -> int | None:
    """Device memory of a host snapshot (``benchbook.host``): the sum of its GPUs' ``memory_total_mib``
    (``nvidia-smi``); None for a host without GPUs (or a snapshot without the field)."""
    sizes = [g.get("memory_total_mib") for g in (host or {}).get("gpus") or []]
    return sum(sizes) if sizes and all(isinstance(x, (int, float)) for x in sizes) else None


def with_device_memory(table: pl.DataFrame, hosts: dict[str, dict]) -> pl.DataFrame:
    """Add ``gpu_mem_total_mib`` (per ``host_id``, from ``hosts``: host id -> host snapshot) where the
    table lacks it, so that ``memory_spill`` compares each run's peak with its own host's capacity."""
    if "gpu_mem_total_mib" in table.columns or "host_id" not in table.columns:
        return table
    cap = {h: device_memory_mib(s) for h, s in hosts.items()}
    return table.with_columns(
        pl.col("host_id")
        .replace_strict(cap, default=None, return_dtype=pl.Float64)
        .alias("gpu_mem_total_mib")
    )


def memory_headroom(peak_mib: float | None, capacity_mib: float | None) -> str:
    """One phrase on device memory left: ``"96 MiB free of 24,576 MiB (99.6% used)"``, or
    ``HEADROOM_UNKNOWN`` when the run has no memory telemetry (peak) or the host no known capacity."""
    if peak_mib is None or capacity_mib is None or capacity_mib <= 0:
        return HEADROOM_UNKNOWN
    return (
        f"{capacity_mib - peak_mib:,.0f} MiB free of {capacity_mib:,.0f} MiB "
        f"({100 * peak_mib / capacity_mib:.1f}% used)"
    )


def headroom_column(
    table: pl.DataFrame,
    peak: str = "peak_gpu_mem_mib",
    capacity: str = "gpu_mem_total_mib",
    hosts: dict[str, dict] | None = None,
) -> pl.DataFrame:
    """``table`` with a ``memory_headroom`` column (``memory_headroom`` per row; a missing column counts
    as no telemetry).  ``hosts`` (host id -> host snapshot): a row whose host's snapshot lists no GPU
    (``gpus`` an empty list) says ``NO_GPU`` instead of ``HEADROOM_UNKNOWN``; a host without a
    snapshot, or one without the field, stays unknown."""

    def col(name: str) -> list:
        return table[name].to_list() if name in table.columns else [None] * table.height

    no_gpu = {h for h, snap in (hosts or {}).items() if (snap or {}).get("gpus") == []}
    vals = [
        NO_GPU if h in no_gpu else memory_headroom(p, c)
        for p, c, h in zip(col(peak), col(capacity), col("host_id"), strict=True)
    ]
    return table.with_columns(pl.Series("memory_headroom", vals, dtype=pl.String))


@rule("synthetic_inputs", "note", ("synthetic_pattern",))
def _synthetic_inputs():
    """The inputs or weights are synthetic (random tokens, randomly initialised or untrained weights):
    speed does not depend on them for a dense model, but acceptance, MoE expert routing and output
    length do.  Fires when ``model_id``, ``prompt_id`` or ``draft_model_id`` matches
    ``synthetic_pattern`` or a ``synthetic`` column is true."""


def _synthetic(df: pl.DataFrame, t: dict, cols: list[str]) -> pl.Expr:
    e = pl.lit(False)
    for c in cols:
        if c in df.columns:
            e = e | pl.col(c).cast(pl.String).str.contains(t["synthetic_pattern"]).fill_null(False)
    if "synthetic" in df.columns:
        e = e | _col_false("synthetic")
    return e


@RULES["synthetic_inputs"].on("llama_bench", ["model_id"])
def _(df, t):
    return _synthetic(df, t, ["model_id"])


@RULES["synthetic_inputs"].on("speculative", ["prompt_id"])
def _(df, t):
    return _synthetic(df, t, ["prompt_id", "draft_model_id"])


@RULES["synthetic_inputs"].on("draftself", ["synthetic"])
def _(df, t):
    return _synthetic(df, t, [])


@RULES["synthetic_inputs"].on("claims", ["id"])
def _(df, t):
    return _synthetic(df, t, ["model", "prompt"])


@rule("host_or_build_mismatch", "warning")
def _host_or_build_mismatch():
    """The numbers compared come from different hosts, builds or environments, so the ratio mixes
    hardware and software changes with the effect claimed.  Seen: the clover write-up's "about 2.4
    times this PC" divides a vendor's RTX 5070 Ti number by a local one.  Comparisons: numerator and
    denominator ``host``/``build`` (and ``env`` when the table has ``num_env``/``den_env``) are both
    known and differ; a side that does not state one is unknown, never different (the audit notes
    it).  Speculative table: one session holds more than one host or toolchain."""


@RULES["host_or_build_mismatch"].on("comparison", ["num_host", "den_host", "num_build", "den_build"])
def _(df, t):
    out = (pl.col("num_host") != pl.col("den_host")).fill_null(False) | (
        pl.col("num_build") != pl.col("den_build")
    ).fill_null(False)
    if "num_env" in df.columns and "den_env" in df.columns:
        out = out | (pl.col("num_env") != pl.col("den_env")).fill_null(False)
    return out


@RULES["host_or_build_mismatch"].on("speculative", ["session_id", "host_id", "toolchain_id"])
def _(df, t):
    return (pl.col("host_id").n_unique().over("session_id") > 1) | (
        pl.col("toolchain_id").n_unique().over("session_id") > 1
    )


@rule("inconsistent_derived_value", "warning", ("avg_ts_rel_tol", "derived_rel_tol"))
def _inconsistent_derived_value():
    """A stated value disagrees with the values it is derived from.  llama-bench table: its own
    ``avg_ts`` differs from the mean recomputed from ``samples_ns`` by more than ``avg_ts_rel_tol``
    (default 0.1%); comparisons: the stated ratio, widened by its stated precision (column
    ``value_halfwidth``: half a unit of the last digit given, a whole unit for "about";
    ``benchbook.audit.precision``), misses ``[min, max]`` of numerator ÷ denominator, each side the
    interval its own stated precision allows (``audit.recompute.cited_interval``).  Without
    that column (or where it is null) the flat ``derived_rel_tol`` (default 5%) is used, which is
    too loose for "−31.4%" and too tight for "about 57%".  Seen: a harness field named
    ``turns_used`` that counted commands."""


@RULES["inconsistent_derived_value"].on("llama_bench", ["mean_tps", "llama_bench_avg_ts"])
def _(df, t):
    stated = pl.col("llama_bench_avg_ts")
    return ((pl.col("mean_tps") - stated).abs() / stated) > t["avg_ts_rel_tol"]


@RULES["inconsistent_derived_value"].on("comparison", ["value", "num_lo", "num_hi", "den_lo", "den_hi"])
def _(df, t):
    lo = pl.col("num_lo") / pl.col("den_hi")
    hi = pl.col("num_hi") / pl.col("den_lo")
    tol = t["derived_rel_tol"]
    flat = (pl.col("value") < lo * (1 - tol)) | (pl.col("value") > hi * (1 + tol))
    if "value_halfwidth" not in df.columns:
        return flat.fill_null(False)
    h = pl.col("value_halfwidth")
    stated = (pl.col("value") + h < lo) | (pl.col("value") - h > hi)
    return pl.when(h.is_not_null()).then(stated).otherwise(flat).fill_null(False)


@rule(
    "busy_host", "warning", ("busy_load_per_core", "busy_other_cpu_pct", "busy_load_hard_per_core", "cores")
)
def _busy_host():
    """Other processes competed for the CPU during the run: a process other than the benchmark used
    more than ``busy_other_cpu_pct`` (default 50%) CPU over the run (psutil CPU percent between the
    start and end snapshots).  Where that figure is absent (older records), the 1-minute load average
    at the start or end above ``busy_load_per_core`` × ``cores`` (default 0.5 × cores) is used instead.
    The load average alone cannot tell: it counts the benchmark's own threads and decays over a
    minute, so back-to-back runs on a quiet 2-core host read 2+ (seen on our own llama-bench sessions).
    A load average above ``busy_load_hard_per_core`` × ``cores`` (default 2 × cores) is busy in any case:
    many processes each under the per-process threshold (a 2-core host shared by eight people read
    16-25 while every other process used 20-30% CPU, and the per-process test alone missed it), or
    processes that start and end between the two snapshots, which the per-process figure cannot see
    (speculative session 521afbb1: load 4.1-5.6 on 2 cores, every process seen at 1%; the quiet
    session after it read at most 2.2).
    Throughput then measures the sharing.  ``cores`` is the host snapshot's own count
    (``host_thresholds``); a host whose snapshot states none is judged by the per-process figure only."""


def _busy_expr(df, t):
    if t["cores"] is None:  # no core count for this host: the load average cannot be judged per core
        if "others_cpu_pct_max" not in df.columns:
            return pl.lit(False)
        return (pl.col("others_cpu_pct_max") > t["busy_other_cpu_pct"]).fill_null(False)
    by_load = pl.col("load1_max") > t["busy_load_per_core"] * t["cores"]
    if "others_cpu_pct_max" not in df.columns:
        return by_load
    overloaded = (pl.col("load1_max") > t["busy_load_hard_per_core"] * t["cores"]).fill_null(False)
    return (
        pl.when(pl.col("others_cpu_pct_max").is_not_null())
        .then(pl.col("others_cpu_pct_max") > t["busy_other_cpu_pct"])
        .otherwise(by_load)
    ) | overloaded


@RULES["busy_host"].on("llama_bench", ["load1_max"])
def _(df, t):
    return _busy_expr(df, t)


@RULES["busy_host"].on("speculative", ["load1_max"])
def _(df, t):
    return _busy_expr(df, t)


@RULES["busy_host"].on("draftself", ["load1_max"])
def _(df, t):
    return _busy_expr(df, t)


@rule("state_effect", "warning", ("state_effect_alpha",))
def _state_effect():
    """Rows of one identical configuration disagree beyond their own noise (Welch's t test on their
    per-repetition rates, two-sided, Bonferroni over the pairs, below ``state_effect_alpha``,
    ``identity.state_effect``): something outside the configuration changed between them - the order
    of the tests, a warm cache, thermal state, another process.  Each row is published on its own and
    no pooled number is formed.  Seen: a pp512 run repeated later in one session at +40%."""


@RULES["state_effect"].on("llama_bench", ["state_effect"])
def _(df, t):
    return _col_false("state_effect")


@rule("placement_unresolved", "warning")
def _placement_unresolved():
    """``-ncmoe N`` without the tensor overrides it resolved to: which blocks' experts sat on the CPU
    depends on the build (b11434: blocks 0 .. N-1; a fork may count from the end), and two runs of one
    flag measured 2030 against 2234 tok/s with blocks 0-21 and 18-39 on the CPU.  Numbers with this
    caveat are not comparable with another placement of the same ``N``."""


@RULES["placement_unresolved"].on("llama_bench", ["placement_unresolved"])
def _(df, t):
    return _col_false("placement_unresolved")


# --- draft-self on natural text (issue 15): the rules of draftself_gpu's per-number table -------------


@RULES["high_variance"].on("draftself", ["cv"])
def _(df, t):
    # cv: the median over prompts of a configuration's per-prompt coefficient of variation of its
    # repetitions' decode rates (experiments.draftself_gpu.caveat_rows)
    return pl.col("cv").fill_null(0) > t["high_cv"]


@RULES["acceptance_without_speedup"].on("draftself", ["alpha", "speedup_mean"])
def _(df, t):
    return ((pl.col("alpha") >= t["accept_min"]) & (pl.col("speedup_mean") <= t["min_speedup"])).fill_null(
        False
    )


@RULES["slower_than_baseline"].on("draftself", ["speedup_ci_high"])
def _(df, t):
    return (pl.col("speedup_ci_high") < 1.0).fill_null(False)


@rule("greedy_loop", "note", ("loop_share",))
def _greedy_loop():
    """The plain greedy (AR) output of the prompt falls into a loop: its share of repeated word 4-grams
    (1 − distinct ÷ total, ``experiments.draftself_gpu.analysis.repeat_share``) is at or above
    ``loop_share`` (default 0.15).  Draft-self and speculative decoding reproduce the greedy output, so
    τ, α and the speedup on such a prompt measure how the model drafts its own loop, not the text:
    a loop the draft has seen once can be drafted whole, while a loop of short varying lines can also be
    drafted worse than prose.  Seen on the H200 draft-self session: 5 of 12 held-out prompts looped
    (a repeated cmake line, a column of ``[84, 184,``, one comment sentence twice), and their τ at k = 8
    was 2.2–3.7 against 2.3–9.0 for the others.  A number over prompts carries it when any of its
    prompts does (column ``repeat_share``: the highest share among the prompts it read)."""


@RULES["greedy_loop"].on("draftself", ["repeat_share"])
def _(df, t):
    return (pl.col("repeat_share") >= t["loop_share"]).fill_null(False)


@rule("single_session", "note")
def _single_session():
    """The number comes from the only completed session that measured this model (checkpoint sha256) on
    this host: its interval (over prompts or repetitions) describes that one session, and nothing shows
    what another session would give (DESIGN.md: where a host has several sessions of one configuration,
    the spread between sessions is shown; here there is none to show).  Seen: three quiet llama-bench
    sessions of one configuration on one host within 30 minutes gave 114.7, 78.7 and 99.3 tok/s
    (``between_session_spread``).  Column ``sessions``: completed sessions of the host with the
    number's model; fires below 2."""


@RULES["single_session"].on("draftself", ["sessions"])
def _(df, t):
    return (pl.col("sessions") < 2).fill_null(False)


@rule("checkpoint_unavailable", "note")
def _checkpoint_unavailable():
    """The model checkpoint the number was measured with is identified only by its sha256: the records
    name a file outside the repository's artifact store (``data/artifacts/``, which ``dvc pull``
    restores), so the decoding cannot be rerun with that checkpoint here, and training again from the
    committed corpus, tokenizer and configuration gives another checkpoint with another sha256 (float
    nondeterminism; seen: the CPU draft-self checkpoint retrained on another machine hashed 82d01b33…
    where the committed one is c39a7197…).  Seen: the H200 draft-self checkpoints stayed in the lent
    GPU machine's /tmp, returned after each call.  Column ``checkpoint_stored``: the session start
    record's ``checkpoint`` path lies in the artifact store (``data/artifacts/checkpoints/<sha256>.pt``,
    where the runners keep it) and its ``dvc add`` pointer is in the repository
    (``draftself.store.is_kept``); fires when it does not."""


@RULES["checkpoint_unavailable"].on("draftself", ["checkpoint_stored"])
def _(df, t):
    return pl.col("checkpoint_stored").not_().fill_null(False)


@rule("few_prompts", "note", ("min_prompts",))
def _few_prompts():
    """The interval's unit of replication is the prompt and it rests on fewer than ``min_prompts``
    (default 30) of them: the Student-t interval assumes the per-prompt values (log τ, log speedup) are
    near normal, which a few prompts drafted almost whole break, and every prompt comes from one corpus,
    so the interval says how these prompts vary, not how other text would.  Seen: per-prompt τ at
    k = 15 on the H200 ranged 2.03 to 12.6 over 12 prompts, two regular code listings far above the
    rest.  Column ``prompts``: the number of prompts of a number with an interval over prompts (null
    otherwise)."""


@RULES["few_prompts"].on("draftself", ["prompts"])
def _(df, t):
    return (pl.col("prompts") < t["min_prompts"]).fill_null(False)


@RULES["few_prompts"].on("speculative", ["prompts"])
def _(df, t):
    # the speculative experiment's mean over prompts on the depth page (spec_depth.hostspec)
    return (pl.col("prompts") < t["min_prompts"]).fill_null(False)


# --- the cost model's own rows (issue 26) ------------------------------------------------------------


@rule("cost_rows_disturbed", "warning", ("cost_r1_min", "cost_r1_max"))
def _cost_rows_disturbed():
    """The llama-bench rows of the cost model a number was built on fail the model's own sanity check:
    r(1), the target's 1-token pass ÷ its decode step (one token through the model either way), lies
    outside [``cost_r1_min``, ``cost_r1_max``] (default 0.67-1.5).  The two tests ran at different moments,
    so something outside the model set the ratio, and every c and r(n) of that model, and every
    prediction and residual built on them, is in doubt.  Seen twice.  Load: the resumed speculative
    session 4787a708 on the 2-core CPU host read r(1) = 5.0 (1-token passes of 38-71 ms against a 10 ms
    decode step) where the host's other sessions read 0.92-0.95, and only the 3 of its 15 cost-model
    numbers whose requests ran under load were flagged (``busy_host`` judges the requests; the cost rows
    carry no load fields).  Warm-up: the H200 depth sweep 23d37a94 at depths 2048-8064, where the first
    two of three repetitions of its pp tests ran slower than the third (pp1 at depth 2048: 3.3, 4.9 and
    1.4 ms against a 1.27 ms decode step: r(1) = 2.5-2.7; 1.08 at depth 0) on a machine lent to the run
    alone: not load, so not ``busy_host``.  Medians of each test's repetitions
    (``costmodel.median_ns``) absorb one slowed repetition, not a majority.  Column ``cost_r1`` (null: no
    1-token pass measured, not checked).  Evaluated apart from a row's own caveats (``COST_MODEL_RULES``,
    ``with_cost_caveats``): only the numbers that read the cost model carry it, not the row's measured
    rates."""


@RULES["cost_rows_disturbed"].on("speculative", ["cost_r1"])
def _(df, t):
    return ((pl.col("cost_r1") < t["cost_r1_min"]) | (pl.col("cost_r1") > t["cost_r1_max"])).fill_null(False)


#: Rules about a cost model's own llama-bench rows (``costmodel``), not about the requests of the row
#: that carries its terms: ``with_cost_caveats`` evaluates them into their own column, and a report
#: adds that column to the numbers built on the cost model alone.
COST_MODEL_RULES = ["cost_rows_disturbed"]


# --- evaluation ---------------------------------------------------------------------------------


def evaluate(
    table: pl.DataFrame, kind: str, thresholds: dict | None = None, rules: list[str] | None = None
) -> tuple[pl.DataFrame, dict[str, str]]:
    """Run the rules that apply to ``kind`` on ``table``.

    Returns ``(table + caveats column, status)`` where ``caveats`` is list[str] of rule ids in RULES
    order and ``status`` maps each considered rule id to "applied", "not for <kind>" or
    "missing columns: a, b".

    Raises:
        ValueError: unknown kind or rule id, or a threshold name not in DEFAULTS.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown table kind {kind!r}; kinds: {KINDS}")
    unknown = set(thresholds or {}) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown caveat thresholds {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    t = {**DEFAULTS, **(thresholds or {})}
    ids = rules or list(RULES)
    bad = [r for r in ids if r not in RULES]
    if bad:
        raise ValueError(f"unknown caveat rules {bad}; known: {list(RULES)}")
    status: dict[str, str] = {}
    flags: list[pl.Expr] = []
    flagged: list[str] = []
    for rid in ids:
        v = RULES[rid].variants.get(kind)
        if v is None:
            status[rid] = f"not for {kind}"
            continue
        missing = [c for c in v.needs if c not in table.columns]
        if missing:
            status[rid] = "missing columns: " + ", ".join(missing)
            continue
        status[rid] = "applied"
        if table.is_empty():
            continue
        res = v.fn(table, t)
        if isinstance(res, pl.Series):
            res = pl.lit(res.fill_null(False).alias(f"_c_{rid}"))
        flags.append((pl.lit(True) & res.fill_null(False)).cast(pl.UInt64) * (1 << len(flagged)))
        flagged.append(rid)
    if table.is_empty() or not flags:
        return table.with_columns(pl.lit([], dtype=pl.List(pl.String)).alias("caveats")), status
    return table.with_columns(_caveat_lists(table, flags, flagged)), status


#: ``params.yaml`` ``report`` keys that are not caveat thresholds (read by the reports themselves)
REPORT_KEYS = {
    "primary_host": "the host whose numbers the pages' prose quotes (a host id, or null: the newest)",
    "confidence": "the confidence level of every interval (0.95)",
}


def check_report(report: dict | None) -> dict:
    """``params.yaml`` ``report`` checked against its declared keys: the caveat thresholds
    (``DEFAULTS``; ``host_thresholds`` then sets ``cores`` from each host's snapshot) and
    ``REPORT_KEYS``.  Returns it with ``confidence`` defaulted to 0.95 and ``primary_host`` to None.

    Raises:
        ValueError: ``report`` is not a mapping; a threshold whose default is a number given as something
            else; ``confidence`` outside (0, 1); ``primary_host`` not a string.
        ParamsError (a ValueError): a key that is neither (a typo would otherwise be ignored, or be a
            KeyError later): ``errors.check_keys``'s message, naming the nearest declared spelling.
    """
    if report is None:
        report = {}
    if not isinstance(report, dict):
        raise ValueError(
            f"params.yaml `report` must be a mapping (key: value lines indented under `report:`), got "
            f"{type(report).__name__}; fix: restore it from git (`git restore params.yaml`)"
        )
    check_keys(report, [*DEFAULTS, *REPORT_KEYS], "params.yaml", "report")
    for k, v in report.items():
        if k in DEFAULTS and _is_number(DEFAULTS[k]) and not _is_number(v):
            raise ValueError(
                f"params.yaml report.{k}: {v!r} is not a number; fix: write a number like {DEFAULTS[k]!r}"
            )
    out = {"confidence": 0.95, "primary_host": None, **report}
    if not _is_number(out["confidence"]) or not 0 < out["confidence"] < 1:
        raise ValueError(
            f"params.yaml report.confidence: {out['confidence']!r} is not a level between 0 and 1; "
            "fix: write e.g. 0.95"
        )
    if out["primary_host"] is not None and not isinstance(out["primary_host"], str):
        raise ValueError(
            f"params.yaml report.primary_host: {out['primary_host']!r} is not a host id; fix: write the "
            "16-hex host id in quotes (`benchbook hosts` lists them), or null"
        )
    return out


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def host_cores(host: dict | None) -> int | None:
    """The logical core count a host snapshot states (``cpu_logical``: a positive integer), else None
    (no snapshot, no count, or a value that is not one: judged unknown, never guessed)."""
    cores = (host or {}).get("cpu_logical")
    return cores if isinstance(cores, int) and not isinstance(cores, bool) and cores > 0 else None


def host_thresholds(report: dict | None, host: dict | None = None) -> dict:
    """The thresholds one host's rows are judged by: ``DEFAULTS`` overridden by ``report`` (``params.yaml``
    ``report``; its other keys, ``REPORT_KEYS``, are left out), ``cores`` set to the host snapshot's
    logical core count (``host_cores``; ``provenance.read_snapshots(..., "host")``) or None where the
    snapshot states none: ``busy_host`` then judges by the per-process figure only, never by a load
    average divided by a guessed core count (a 16-core host judged with 2 cores flags a load of 1.5).
    The one place a report turns params and a host into thresholds.

    Raises:
        ValueError: a ``report`` key that is neither a threshold nor in ``REPORT_KEYS`` (a typo would
            otherwise be ignored), or a threshold whose default is a number given as something else.
    """
    report = check_report(report)
    out = DEFAULTS | {k: v for k, v in report.items() if k in DEFAULTS}
    out["cores"] = host_cores(host)
    return out


def evaluate_per_host(
    table: pl.DataFrame,
    kind: str,
    report: dict | None,
    hosts: dict[str, dict],
    rules: list[str] | None = None,
) -> pl.DataFrame:
    """``evaluate`` on each host's rows of ``table`` (column ``host_id``) with that host's own thresholds
    (``host_thresholds(report, hosts.get(host_id))``); rows keep their order within a host, hosts in
    order of first appearance.  Returns ``table`` + ``caveats``.

    Raises:
        ValueError: as ``evaluate``; ``table`` has no ``host_id`` column."""
    if "host_id" not in table.columns:
        raise ValueError(
            f"evaluate_per_host: the {kind} table has no host_id column; columns: {table.columns}"
        )
    if table.is_empty():
        return evaluate(table, kind, host_thresholds(report), rules)[0]
    parts = [
        evaluate(g, kind, host_thresholds(report, hosts.get(str(host))), rules)[0]
        for (host,), g in table.group_by("host_id", maintain_order=True)
    ]
    return pl.concat(parts, how="diagonal_relaxed")


def with_cost_caveats(table: pl.DataFrame, report: dict | None, kind: str = "speculative") -> pl.DataFrame:
    """``table`` + ``cost_caveats`` (list[str]): the ``COST_MODEL_RULES`` that fire on each row (from its
    column ``cost_r1``; none where the table has no such column), with the thresholds
    ``host_thresholds(report)`` (``report``: ``params.yaml`` ``report``; these rules read no host fact).
    ``caveats`` is left as it is: a row's measured numbers (a decode rate, a measured speedup) read no
    cost model, and only the numbers built on one add ``cost_caveats`` to it.

    Raises:
        ValueError: as ``evaluate``."""
    judged, _ = evaluate(
        table.drop("caveats", strict=False), kind, host_thresholds(report), list(COST_MODEL_RULES)
    )
    return table.with_columns(judged["caveats"].alias("cost_caveats"))


def _caveat_lists(table: pl.DataFrame, flags: list[pl.Expr], rids: list[str]) -> pl.Series:
    """The ``caveats`` column: for each row, the ids of ``rids`` whose flag (``flags[i]``, an integer
    expression worth ``2**i`` where rule ``rids[i]`` fires) is set, in ``rids`` order.

    One integer code per row (summed rule by rule), then one list per distinct code, gathered: a table
    of a million rows has a handful of distinct codes, so the rule ids are not written once per row and
    rule before the lists are formed (that took about half as much memory as the table itself)."""
    codes = table.select(flags[0].alias("_code")).to_series()
    for flag in flags[1:]:  # one rule at a time: one column of flags alive, not one per rule
        codes = codes + table.select(flag.alias("_code")).to_series()
    distinct = codes.unique().sort()
    lists = pl.Series(
        "caveats",
        [[rid for i, rid in enumerate(rids) if code >> i & 1] for code in distinct.to_list()],
        dtype=pl.List(pl.String),
    )
    return lists.gather(distinct.search_sorted(codes))


def attach(
    stats: pl.DataFrame,
    thresholds: dict | None = None,
    rules: list[str] | None = None,
    kind: str = "llama_bench",
) -> pl.DataFrame:
    """Add ``caveats`` (list[str], rule ids in RULES order) to ``stats`` (default: the llama-bench
    ``rate_stats`` table); thresholds override DEFAULTS.  Rules whose columns are missing are skipped
    (``evaluate`` reports which)."""
    thresholds = {k: v for k, v in (thresholds or {}).items() if k in DEFAULTS}
    return evaluate(stats, kind, thresholds, rules)[0]


def findings(table: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Long form of an evaluated table: columns ``rule``, ``severity``, ``record`` (the kind's id
    column; list ids such as ``run_ids`` are joined with ",")."""
    idc = ID_COLUMN[kind]
    rid = pl.col(idc)
    if table.schema.get(idc) is not None and isinstance(table.schema[idc], pl.List):
        rid = pl.col(idc).list.sort().list.join(",")
    sev = {k: r.severity for k, r in RULES.items()}
    return (
        table.select(rid.cast(pl.String).alias("record"), pl.col("caveats").alias("rule"))
        .explode("rule")
        .drop_nulls("rule")
        .with_columns(pl.col("rule").replace_strict(sev, return_dtype=pl.String).alias("severity"))
        .select("rule", "severity", "record")
    )


def rules_table() -> pl.DataFrame:
    """One row per rule: id, severity, applies_to, needs (per kind), params with defaults, doc."""
    rows = []
    for r in RULES.values():
        rows.append(
            {
                "id": r.id,
                "severity": r.severity,
                "applies_to": list(r.applies_to),
                "needs": "; ".join(f"{k}: {', '.join(v.needs)}" for k, v in r.variants.items()),
                "params": ", ".join(f"{p}={DEFAULTS[p]!r}" for p in r.params),
                "doc": r.doc,
            }
        )
    return pl.DataFrame(rows)

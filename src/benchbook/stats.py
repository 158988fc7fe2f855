"""Statistics from raw samples: mean, sd, cv, Student-t and bootstrap intervals, ratios of means.

Conventions (DESIGN.md, "Statistics and caveats"):

* Sample standard deviation with ``ddof=1``; coefficient of variation ``cv = sd / mean``.
* 95% interval of a mean: Student's t, ``mean ± t_{0.975, n-1} · sd / sqrt(n)`` (NIST/SEMATECH
  e-Handbook of Statistical Methods §7.2.2.1).  n < 2 gives no interval (None / null).
* Percentile bootstrap (Efron & Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 13) is
  offered for skewed samples; it is never the default because n is usually 3-10 here.
* Ratio of two independent means ``r = m1 / m2``: delta method on the log scale (Casella & Berger,
  *Statistical Inference*, 2nd ed., §5.5.4), ``var(log r) ≈ a + b`` with
  ``a = s1² / (n1·m1²)`` and ``b = s2² / (n2·m2²)``; degrees of freedom by Welch–Satterthwaite
  ``(a + b)² / (a²/(n1-1) + b²/(n2-1))``; interval ``r · exp(± t_{0.975, df} · sqrt(a + b))``.
  Ratios are only formed between records of one session, host and build
  (``experiments.llama_bench.analysis.ratio_stats`` enforces it).

All functions that take arrays accept numpy arrays or Polars Series and are vectorized.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import polars as pl
from scipy import stats as sps


def series_mean(x: pl.Series) -> float | None:
    """Mean of the non-null values of a numeric Series; None when it has none."""
    # Polars types Series.mean as any scalar (dates, strings ...); of a numeric Series it is a float
    return cast("float | None", x.mean())


def t_quantile(n, confidence: float = 0.95):
    """Two-sided Student-t critical value ``t_{(1+confidence)/2, n-1}``, vectorized over ``n``.

    ``n`` is a count (int or array of ints); entries with n < 2 give NaN.
    Example: ``t_quantile(5) == 2.7764451051977987`` (table value 2.776 for 4 degrees of freedom).
    """
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore"):
        q = sps.t.ppf(0.5 + confidence / 2, np.where(n >= 2, n - 1, np.nan))
    return float(q) if q.ndim == 0 else q


def t_interval(mean: float, sd: float | None, n: int, confidence: float = 0.95) -> list[float] | None:
    """Student-t interval ``[low, high]`` for a mean of ``n`` samples with sample sd ``sd``.

    Returns None when n < 2 or sd is missing/not finite.  Units: those of ``mean``.
    """
    if n is None or n < 2 or sd is None or not math.isfinite(sd):
        return None
    half = t_quantile(n, confidence) * sd / math.sqrt(n)
    return [mean - half, mean + half]


def describe(x, confidence: float = 0.95) -> dict:
    """``{n, mean, sd, cv, ci_low, ci_high}`` of a 1-D sample (sd with ddof=1, Student-t interval).

    Raises:
        ValueError: the sample is empty or holds a non-finite value.
    """
    a = np.asarray(x, dtype=float)
    if a.size == 0 or not np.all(np.isfinite(a)):
        raise ValueError(f"describe: sample must be non-empty and finite, got {a!r}")
    n, m = int(a.size), float(a.mean())
    sd = float(a.std(ddof=1)) if n > 1 else None
    ci = t_interval(m, sd, n, confidence)
    return {
        "n": n,
        "mean": m,
        "sd": sd,
        "cv": (sd / m if sd is not None and m else None),
        "ci_low": ci[0] if ci else None,
        "ci_high": ci[1] if ci else None,
    }


def bootstrap_interval(
    x, confidence: float = 0.95, n_boot: int = 10_000, seed: int = 0
) -> list[float] | None:
    """Percentile-bootstrap interval of the mean (``n_boot`` resamples, fixed ``seed``); None when n < 2."""
    a = np.asarray(x, dtype=float)
    if a.size < 2:
        return None
    rng = np.random.default_rng(seed)
    means = a[rng.integers(0, a.size, size=(n_boot, a.size))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    return [float(lo), float(hi)]


def add_t_interval(
    df: pl.DataFrame, mean: str, sd: str, n: str, low: str, high: str, confidence: float = 0.95
) -> pl.DataFrame:
    """Add Student-t interval columns ``low``/``high`` to ``df`` from its ``mean``/``sd``/``n`` columns.

    Vectorized (one scipy call over the column); rows with n < 2 or null sd get nulls.
    """
    if df.is_empty():
        return df.with_columns(pl.lit(None, pl.Float64).alias(low), pl.lit(None, pl.Float64).alias(high))
    q = t_quantile(df[n].to_numpy(), confidence)
    q = pl.Series("_q", np.atleast_1d(q), dtype=pl.Float64).fill_nan(None)
    half = pl.col("_q") * pl.col(sd) / pl.col(n).cast(pl.Float64).sqrt()
    return (
        df.with_columns(q)
        .with_columns((pl.col(mean) - half).alias(low), (pl.col(mean) + half).alias(high))
        .drop("_q")
    )


def ratio_interval(m1, s1, n1, m2, s2, n2, confidence: float = 0.95):
    """Ratio ``m1/m2`` of two independent means with its interval (module docstring formula).

    Vectorized over numpy arrays.  Returns ``(ratio, low, high, df)``; low/high/df are NaN when a
    side has n < 2 or a missing sd.
    """
    m1, s1, n1, m2, s2, n2 = (np.asarray(v, dtype=float) for v in (m1, s1, n1, m2, s2, n2))
    r = m1 / m2
    with np.errstate(invalid="ignore", divide="ignore"):
        a = s1**2 / (n1 * m1**2)
        b = s2**2 / (n2 * m2**2)
        dof = (a + b) ** 2 / (a**2 / (n1 - 1) + b**2 / (n2 - 1))
        ok = (n1 >= 2) & (n2 >= 2) & np.isfinite(a) & np.isfinite(b)
        # zero spread on both sides: the interval collapses to the point
        dof = np.where(ok & (a + b == 0), np.inf, dof)
        q = sps.t.ppf(0.5 + confidence / 2, np.where(ok, dof, np.nan))
        q = np.where(np.isinf(dof) & ok, sps.norm.ppf(0.5 + confidence / 2), q)
        half = q * np.sqrt(a + b)
        low, high = r * np.exp(-half), r * np.exp(half)
    low, high, dof = (np.where(ok, v, np.nan) for v in (low, high, dof))
    return r, low, high, dof

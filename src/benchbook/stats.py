"""Statistics from raw samples: mean, sd, cv, Student-t and bootstrap intervals, ratios of means.

Conventions (DESIGN.md, "Statistics and caveats"):

* Sample standard deviation with ``ddof=1``; coefficient of variation ``cv = sd / mean``.
* Rates (tok/s) and ratios (speedups) are positive, so their interval is formed on the log scale
  and cannot leave the domain: ``mean · exp(± t_{0.975, n-1} · cv / sqrt(n))`` with ``cv = sd / mean``
  (delta method: ``se(log mean) ≈ sd / (mean · sqrt(n))``, Casella & Berger, *Statistical
  Inference*, 2nd ed., §5.5.4; Student's t as in NIST/SEMATECH e-Handbook §7.2.2.1).  ``LOG_T``
  names it in the registry's ``ci_method``.  Quantities that may be negative (slopes, log ratios)
  keep the symmetric interval ``mean ± t_{0.975, n-1} · sd / sqrt(n)`` (``T``).
* No interval below ``MIN_N_INTERVAL`` (3) samples: with n = 2 the t quantile is 12.7 and the
  interval says nothing (two prefill requests gave [−137, 305] tok/s).  Such rows get None / null.
* Percentile bootstrap (Efron & Tibshirani, *An Introduction to the Bootstrap*, 1993, ch. 13) is
  offered for skewed samples; it is never the default because n is usually 3-10 here.
* Ratio of two independent means ``r = m1 / m2``: delta method on the log scale (Casella & Berger,
  *Statistical Inference*, 2nd ed., §5.5.4), ``var(log r) ≈ a + b`` with
  ``a = s1² / (n1·m1²)`` and ``b = s2² / (n2·m2²)``; degrees of freedom by Welch–Satterthwaite
  ``(a + b)² / (a²/(n1-1) + b²/(n2-1))``; interval ``r · exp(± t_{0.975, df} · sqrt(a + b))``.
  Ratios are only formed between records of one session, host and build
  (``experiments.llama_bench.analysis.ratio_stats`` enforces it).
* Difference of two independent means ``d = m1 − m2`` (a per-token time of one configuration minus
  another's; may be negative): Welch's interval ``d ± t_{0.975, df} · sqrt(s1²/n1 + s2²/n2)``, df by
  Welch–Satterthwaite ``(a + b)² / (a²/(n1-1) + b²/(n2-1))`` with ``a = s1²/n1``, ``b = s2²/n2``
  (Welch, *Biometrika* 34, 1947; NIST/SEMATECH e-Handbook §7.3.1) (``difference_interval``, ``WELCH``).

All functions that take arrays accept numpy arrays or Polars Series and are vectorized.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import polars as pl
from scipy import stats as sps

#: Fewest samples that get an interval (DESIGN.md: "below n = 3 no interval is shown").
MIN_N_INTERVAL = 3
#: ``ci_method`` of a log-scale Student-t interval of a positive mean (``log_t_interval``).
LOG_T = "student-t on the log scale (delta method), n >= 3"
#: ``ci_method`` of a symmetric Student-t interval (a quantity that may be negative).
T = "student-t, n >= 3"
#: ``ci_method`` of a difference of two independent means (``difference_interval``).
WELCH = "welch t, difference of two independent means, n >= 3 each"


def series_mean(x: pl.Series) -> float | None:
    """Mean of the non-null values of a numeric Series; None when it has none."""
    # Polars types Series.mean as any scalar (dates, strings ...); of a numeric Series it is a float
    return cast("float | None", x.mean())


def t_quantile(n, confidence: float = 0.95):
    """Two-sided Student-t critical value ``t_{(1+confidence)/2, n-1}``, vectorized over ``n``.

    ``n`` is a count (int or array of ints); entries with n < 2 give NaN (callers refuse an interval
    below ``MIN_N_INTERVAL`` themselves).
    Example: ``t_quantile(5) == 2.7764451051977987`` (table value 2.776 for 4 degrees of freedom).
    """
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore"):
        q = sps.t.ppf(0.5 + confidence / 2, np.where(n >= 2, n - 1, np.nan))
    return float(q) if q.ndim == 0 else q


def t_interval(mean: float, sd: float | None, n: int, confidence: float = 0.95) -> list[float] | None:
    """Symmetric Student-t interval ``[low, high]`` for a mean of ``n`` samples with sample sd ``sd``
    (for quantities that may be negative: slopes, log ratios; a rate or ratio uses ``log_t_interval``).

    Returns None when n < ``MIN_N_INTERVAL`` or sd is missing/not finite.  Units: those of ``mean``.
    """
    if n is None or n < MIN_N_INTERVAL or sd is None or not math.isfinite(sd):
        return None
    half = t_quantile(n, confidence) * sd / math.sqrt(n)
    return [mean - half, mean + half]


def log_t_interval(mean: float, sd: float | None, n: int, confidence: float = 0.95) -> list[float] | None:
    """Log-scale Student-t interval ``[low, high]`` of a positive mean (a rate, a ratio):
    ``mean · exp(± t_{(1+confidence)/2, n-1} · (sd / mean) / sqrt(n))`` (module docstring; delta
    method).  Both ends are positive and ``low · high == mean²``.

    >>> [round(x, 2) for x in log_t_interval(100.0, 10.0, 5)]
    [88.32, 113.22]

    Returns None when n < ``MIN_N_INTERVAL``, sd is missing/not finite, or mean is not positive.
    Units: those of ``mean``.
    """
    if n is None or n < MIN_N_INTERVAL or sd is None or not math.isfinite(sd) or not mean > 0:
        return None
    half = t_quantile(n, confidence) * sd / mean / math.sqrt(n)
    return [mean * math.exp(-half), mean * math.exp(half)]


def paired_ratio_interval(num, den, confidence: float = 0.95) -> list[float] | None:
    """Log-scale Student-t interval ``[low, high]`` of the ratio of two means ``r = mean(num) / mean(den)``
    whose samples are paired by index (repetition i of a configuration and repetition i of its
    same-session baseline, measured side by side): ``log_t_interval(r, r · s, n)``, ``s`` the sample sd
    (ddof=1) of ``d_i = num_i / mean(num) − den_i / mean(den)``.  Delta method on
    ``log r = log mean(num) − log mean(den)`` (Casella & Berger, *Statistical Inference*, 2nd ed.,
    §5.5.4): ``se(log r) ≈ s / sqrt(n)``, the covariance of the pairs included; the interval is
    ``r · exp(± t_{(1+confidence)/2, n-1} · s / sqrt(n))`` and centred on ``r`` (a ratio of mean rates,
    not the mean of per-pair ratios).  A sample divided by itself gives ``[1, 1]``.

    >>> [round(x, 4) for x in paired_ratio_interval([110.0, 120.0, 130.0], [100.0, 100.0, 100.0])]
    [0.9756, 1.476]

    (r = 120 / 100 = 1.2; d = (−1/12, 0, 1/12), s = 1/12; t_{0.975,2} = 4.3027;
    1.2 · exp(± 4.3027 · (1/12) / √3) = 1.2 · exp(± 0.20701) = [0.9756, 1.4760].)

    Returns None below ``MIN_N_INTERVAL`` pairs or when a mean is not positive.

    Raises:
        ValueError: ``num`` and ``den`` differ in length (the samples are not paired).
    """
    x, y = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"paired_ratio_interval: {x.size} numerator and {y.size} denominator samples")
    if x.size < MIN_N_INTERVAL or not (x.mean() > 0 and y.mean() > 0):
        return None
    ratio = float(x.mean() / y.mean())
    spread = float(np.std(x / x.mean() - y / y.mean(), ddof=1))
    ci = log_t_interval(ratio, ratio * spread, int(x.size), confidence)
    return [float(ci[0]), float(ci[1])] if ci else None


def sample_interval(x, confidence: float = 0.95, log: bool = True) -> tuple[float, float | None, list | None]:
    """``(mean, sd, interval)`` of the finite values of ``x`` (None entries dropped): sd with ddof=1
    (None below 2 values), the interval ``log_t_interval`` (``log``, for positive quantities) or
    ``t_interval`` (None below ``MIN_N_INTERVAL`` values).  Mean NaN for no values."""
    v = np.asarray([float(y) for y in x if y is not None and math.isfinite(float(y))], dtype=float)
    if v.size == 0:
        return float("nan"), None, None
    m = float(v.mean())
    sd = float(v.std(ddof=1)) if v.size > 1 else None
    ci = (log_t_interval if log else t_interval)(m, sd, int(v.size), confidence)
    return m, sd, ci


def describe(x, confidence: float = 0.95) -> dict:
    """``{n, mean, sd, cv, ci_low, ci_high}`` of a 1-D sample (sd with ddof=1, symmetric Student-t
    interval: for log ratios and other quantities that may be negative; none below ``MIN_N_INTERVAL``).

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
    """Percentile-bootstrap interval of the mean (``n_boot`` resamples, fixed ``seed``); None when
    n < ``MIN_N_INTERVAL``.  Stays inside the range of the sample (so inside a positive domain)."""
    a = np.asarray(x, dtype=float)
    if a.size < MIN_N_INTERVAL:
        return None
    rng = np.random.default_rng(seed)
    means = a[rng.integers(0, a.size, size=(n_boot, a.size))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    return [float(lo), float(hi)]


def add_t_interval(
    df: pl.DataFrame, mean: str, sd: str, n: str, low: str, high: str, confidence: float = 0.95
) -> pl.DataFrame:
    """Add log-scale Student-t interval columns ``low``/``high`` (``log_t_interval``: the ``mean``
    column is a positive rate) to ``df`` from its ``mean``/``sd``/``n`` columns.

    Vectorized (one scipy call over the column); rows with n < ``MIN_N_INTERVAL``, a null sd or a
    mean that is not positive get nulls.
    """
    if df.is_empty():
        return df.with_columns(pl.lit(None, pl.Float64).alias(low), pl.lit(None, pl.Float64).alias(high))
    counts = df[n].to_numpy().astype(float)
    q = t_quantile(np.where(counts >= MIN_N_INTERVAL, counts, np.nan), confidence)
    q = pl.Series("_q", np.atleast_1d(q), dtype=pl.Float64).fill_nan(None)
    m = pl.col(mean)
    half = pl.col("_q") * pl.col(sd) / m / pl.col(n).cast(pl.Float64).sqrt()
    ok = m > 0
    return (
        df.with_columns(q)
        .with_columns(
            pl.when(ok).then(m * (-half).exp()).alias(low), pl.when(ok).then(m * half.exp()).alias(high)
        )
        .drop("_q")
    )


def ratio_interval(m1, s1, n1, m2, s2, n2, confidence: float = 0.95):
    """Ratio ``m1/m2`` of two independent means with its interval (module docstring formula).

    Vectorized over numpy arrays.  Returns ``(ratio, low, high, df)``; low/high/df are NaN when a
    side has n < ``MIN_N_INTERVAL`` or a missing sd.
    """
    m1, s1, n1, m2, s2, n2 = (np.asarray(v, dtype=float) for v in (m1, s1, n1, m2, s2, n2))
    r = m1 / m2
    with np.errstate(invalid="ignore", divide="ignore"):
        a = s1**2 / (n1 * m1**2)
        b = s2**2 / (n2 * m2**2)
        dof = (a + b) ** 2 / (a**2 / (n1 - 1) + b**2 / (n2 - 1))
        ok = (n1 >= MIN_N_INTERVAL) & (n2 >= MIN_N_INTERVAL) & np.isfinite(a) & np.isfinite(b)
        # zero spread on both sides: the interval collapses to the point
        dof = np.where(ok & (a + b == 0), np.inf, dof)
        q = sps.t.ppf(0.5 + confidence / 2, np.where(ok, dof, np.nan))
        q = np.where(np.isinf(dof) & ok, sps.norm.ppf(0.5 + confidence / 2), q)
        half = q * np.sqrt(a + b)
        low, high = r * np.exp(-half), r * np.exp(half)
    low, high, dof = (np.where(ok, v, np.nan) for v in (low, high, dof))
    return r, low, high, dof


def difference_interval(x, y, confidence: float = 0.95) -> tuple[float, list[float] | None]:
    """``(mean(x) − mean(y), [low, high])`` for two independent samples (module docstring: Welch's
    interval, for a difference that may be negative, e.g. two configurations' per-token times).  None
    entries and non-finite values are dropped; the interval is None when a side has fewer than
    ``MIN_N_INTERVAL`` values; two samples without spread give ``[d, d]``.  Units: those of the samples.

    >>> d, ci = difference_interval([10.0, 11.0, 12.0], [8.0, 8.0, 8.0])
    >>> d, [round(v, 4) for v in ci]
    (3.0, [0.5159, 5.4841])

    (a = 1/3, b = 0, df = 2, t_{0.975,2} = 4.3027; 3 ± 4.3027 · sqrt(1/3) = [0.5159, 5.4841].)

    Raises:
        ValueError: a side has no finite value (no mean to subtract).
    """
    u, v = (np.asarray([float(z) for z in s if z is not None and math.isfinite(float(z))]) for s in (x, y))
    if u.size == 0 or v.size == 0:
        raise ValueError(f"difference_interval: {u.size} and {v.size} finite values; a side has none")
    d = float(u.mean() - v.mean())
    if u.size < MIN_N_INTERVAL or v.size < MIN_N_INTERVAL:
        return d, None
    a, b = float(u.var(ddof=1)) / u.size, float(v.var(ddof=1)) / v.size
    if a + b == 0:
        return d, [d, d]
    dof = (a + b) ** 2 / ((a**2 / (u.size - 1) if a else 0.0) + (b**2 / (v.size - 1) if b else 0.0))
    half = float(sps.t.ppf(0.5 + confidence / 2, dof)) * math.sqrt(a + b)
    return d, [d - half, d + half]


# --- trends and gaps over repetitions (the analyses and the audit read the same definitions) ---------


def slope_interval(x, y, confidence: float = 0.95) -> dict:
    """Least-squares slope of ``y`` on ``x`` with a Student-t interval (n − 2 degrees of freedom,
    ``scipy.stats.linregress`` stderr).  Returns ``{slope, intercept, ci_low, ci_high, n}``; the
    interval is None with fewer than 3 points, everything None when x has one distinct value."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = int(x.size)
    if n < 2 or np.unique(x).size < 2:
        return {"slope": None, "intercept": None, "ci_low": None, "ci_high": None, "n": n}
    xm, ym = x.mean(), y.mean()
    sxx = float(((x - xm) ** 2).sum())
    slope = float(((x - xm) * (y - ym)).sum() / sxx)
    icpt = float(ym - slope * xm)
    lo = hi = None
    if n >= 3:
        resid = y - (icpt + slope * x)
        se = math.sqrt(float((resid**2).sum()) / (n - 2) / sxx)
        half = float(sps.t.ppf(0.5 + confidence / 2, n - 2)) * se
        lo, hi = slope - half, slope + half
    return {"slope": slope, "intercept": icpt, "ci_low": lo, "ci_high": hi, "n": n}


def rep_trend(values, index=None) -> float | None:
    """Least-squares slope of ``values`` (None entries dropped) over their repetition index (0, 1, ...
    unless ``index`` is given; ``slope_interval``), in the values' unit per repetition; None with fewer
    than 2 points.

    >>> rep_trend([0.125, 0.393, 0.9])   # α of three requests to one server: +0.3875 per request
    0.3875"""
    pairs = [
        (float(i), float(v))
        for i, v in zip(index if index is not None else range(len(values)), values, strict=True)
        if v is not None
    ]
    if len(pairs) < 2:
        return None
    return slope_interval([i for i, _ in pairs], [v for _, v in pairs])["slope"]


def cluster_gap(rates: list[float]) -> tuple[float | None, float | None]:
    """``(gap ÷ wider cluster's range, gap ÷ mean)`` of the largest gap between sorted ``rates`` that
    leaves at least two samples on each side; ``(None, None)`` for fewer than 4 samples.  A zero range
    with a positive gap gives ``inf``.

    >>> cluster_gap([89.6, 90.2, 105.4, 105.5, 105.7])[0] > 25   # gap 15.2 over range 0.6
    True
    >>> round(cluster_gap([108.4, 108.6, 114.2, 119.5, 122.8])[0], 2)   # gap 5.6 over range 8.6
    0.65
    """
    xs = sorted(float(x) for x in rates)
    if len(xs) < 4:
        return None, None
    best = None
    for i in range(2, len(xs) - 1):  # split before xs[i]: xs[:i] | xs[i:]
        gap = xs[i] - xs[i - 1]
        if best is None or gap > best[0]:
            best = (gap, max(xs[i - 1] - xs[0], xs[-1] - xs[i]))
    assert best is not None
    gap, width = best
    mean = sum(xs) / len(xs)
    ratio = gap / width if width > 0 else (float("inf") if gap > 0 else 0.0)
    return ratio, gap / mean if mean else None

"""Comparisons of counted proportions ("7 of 12 vs 9 of 12 correct"): whether counts this small can
tell the two sides apart at all (an exact test), so the verdict says so instead of ranking them."""

from __future__ import annotations

from .schema import ClaimsFile

#: level of the exact test below which two counts are told apart (``small_counts``)
COUNTS_ALPHA = 0.05


def small_counts(cf: ClaimsFile, a: str, b: str) -> str | None:
    """Why a comparison of two counted proportions ranks nothing, or None: both cited claims state
    ``counts`` ("k of n") and Fisher's exact test of the 2×2 table [[k_a, n_a − k_a], [k_b, n_b − k_b]]
    (two-sided; ``scipy.stats.fisher_exact``; R. A. Fisher, *The Design of Experiments*, 1935, §2) gives
    p ≥ ``COUNTS_ALPHA``: counts this small are as likely under one shared proportion, so "9 of 12 vs
    7 of 12" (p = 0.667) says neither is better, and "7 of 12 vs 7 of 12" no more that they are equal.
    """
    ca, cb = cf.claim(a), cf.claim(b)
    if ca is None or cb is None or ca.counts is None or cb.counts is None:
        return None
    from scipy.stats import fisher_exact

    ka, na, kb, nb = ca.counts.k, ca.counts.n, cb.counts.k, cb.counts.n
    p = float(fisher_exact([[ka, na - ka], [kb, nb - kb]], alternative="two-sided").pvalue)
    if p < COUNTS_ALPHA:
        return None
    return (
        f"{ca.counts.text()} vs {cb.counts.text()}: Fisher's exact test (two-sided) p = {p:.3f} "
        f">= {COUNTS_ALPHA}: counts this small have no discriminating power; the comparison ranks neither"
    )

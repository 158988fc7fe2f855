"""draftself_gpu's generated verdict sentences on odd rows: a k whose break-even τ* could not be
computed (no (k+1)-token passes measured) and a τ without an interval (fewer than 3 prompts)."""

from __future__ import annotations

import polars as pl

from benchbook.experiments.draftself_gpu.report import verdict_md


def _row(k: int, tau: float, tau_ci, star, speedup: float, speedup_ci) -> dict:
    return {
        "k": k,
        "tau": tau,
        "tau_ci": tau_ci,
        "tau_break_even": star,
        "speedup": speedup,
        "speedup_ci": speedup_ci,
        "equals_ar_all": True,
    }


def test_verdict_without_a_break_even_or_without_an_interval():
    table = pl.DataFrame(
        [
            _row(2, 2.5, None, 1.9, 1.2, None),  # 2 prompts: no interval
            _row(3, 2.5, [2.1, 2.9], None, 1.3, [1.1, 1.5]),  # no 4-token passes: τ* None
        ],
        schema_overrides={"tau_ci": pl.List(pl.Float64), "tau_break_even": pl.Float64},
    )
    v = verdict_md(table).splitlines()
    # τ 2.5 > τ* 1.9 with no interval: said like the speedup's word, "(no interval)"
    assert v[0] == (
        "- k = 2: mean τ {{< var draftself_gpu-k2-tau >}} is above (no interval) its break-even τ* "
        "{{< var draftself_gpu-k2-tau_break_even >}}; faster (no interval) than AR: "
        "{{< var draftself_gpu-k2-speedup >}}; greedy output equal to AR on every run."
    )
    # τ* None raised TypeError ("'>' not supported between 'float' and 'NoneType'"): the page did not build
    assert v[1] == (
        "- k = 3: mean τ {{< var draftself_gpu-k3-tau >}} has no break-even τ* (no (k+1)-token draft and "
        "verify passes measured); faster than AR: {{< var draftself_gpu-k3-speedup >}}; greedy output "
        "equal to AR on every run."
    )

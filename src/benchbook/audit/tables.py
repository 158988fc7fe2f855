"""A claims file as the two tables ``caveats`` evaluates: ``claims`` and ``comparison``.

``claims_table``: one row per claim *with a number* (numberless claims have nothing a rule could
read; the verdict engine still judges them).  Columns (typed even when every value is null):
id, metric, value (a range's midpoint), lo, hi, unit, method, n, origin, env, hardware, model,
decoding, n_cpu_moe, n_gpu_layers, prompt, block_max, tokens_generated, cap, cold, note.

``comparison_table``: one row per two-sided statement (ratio, percent_change, difference) and one
per pair of a bound's set (row id ``<statement>[<numerator>/<denominator>]``).  Columns: id,
statement, num_id, den_id, value (the stated ratio as a fraction; a percent change as the ratio
1 + p/100; the recomputed ratio where none is stated; null for a difference), value_halfwidth (the
stated precision in the same scale; null where nothing is stated), and per side (``num_``/``den_``):
lo, hi, method, phase (the metric), host (the hardware identity), env, build (engine + build),
source (``origin``, or "the source"), n, acceptance_definition (an acceptance-rate side's,
``acceptance.definition_of``), and num_alpha (the acceptance rate the file states for the
numerator's decoding mode, when the denominator decodes plainly; another engine's acceptance only as
llama.cpp's α converted from its counts, ``acceptance.to_llama_cpp``).  A side that is a statement has
only lo/hi (its recomputed interval); the rest is null = not stated.
"""

from __future__ import annotations

import polars as pl

from .acceptance import LLAMA_CPP, definition_of, to_llama_cpp
from .precision import half_width
from .recompute import Recomputed, claim_interval
from .schema import Claim, ClaimsFile, host_of
from .units import UnitError, factor

OWN_SOURCE = "the source"

CLAIMS_SCHEMA = {
    "id": pl.String,
    "metric": pl.String,
    "value": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "unit": pl.String,
    "method": pl.String,
    "n": pl.Int64,
    "origin": pl.String,
    "env": pl.String,
    "hardware": pl.String,
    "model": pl.String,
    "decoding": pl.String,
    "n_cpu_moe": pl.Int64,
    "n_gpu_layers": pl.Int64,
    "prompt": pl.String,
    "block_max": pl.Int64,
    "tokens_generated": pl.Int64,
    "cap": pl.Int64,
    "cold": pl.Boolean,
    "note": pl.String,
}

_SIDE = {
    "id": pl.String,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "method": pl.String,
    "phase": pl.String,
    "host": pl.String,
    "env": pl.String,
    "build": pl.String,
    "source": pl.String,
    "n": pl.Int64,
    "acceptance_definition": pl.String,
}
COMPARISON_SCHEMA = {
    "id": pl.String,
    "statement": pl.String,
    "value": pl.Float64,
    "value_halfwidth": pl.Float64,
    **{f"{s}_{k}": t for s in ("num", "den") for k, t in _SIDE.items()},
    "num_alpha": pl.Float64,
}


def build_of(cf: ClaimsFile, claim: Claim) -> str | None:
    """Engine and build of a claim ("llama.cpp fork (...) commit 4838ffb"); None when neither is stated."""
    cond = cf.conditions_of(claim)
    parts = [p for p in (cond.engine, cond.build) if p]
    return " ".join(parts) or None


def claims_table(cf: ClaimsFile) -> pl.DataFrame:
    """The ``claims`` table kind of ``caveats`` (module doc)."""
    rows = []
    for c in cf.claims:
        iv = claim_interval(c)
        if iv is None:
            continue
        cond = cf.conditions_of(c)
        off = cond.offload
        rows.append(
            {
                "id": c.id,
                "metric": c.metric,
                "value": iv.mid,
                "lo": iv.lo,
                "hi": iv.hi,
                "unit": c.unit,
                "method": c.method,
                "n": c.n,
                "origin": c.origin,
                "env": cond.env,
                "hardware": host_of(cf, c),
                "model": cond.model,
                "decoding": cond.decoding,
                "n_cpu_moe": off.n_cpu_moe if off else None,
                "n_gpu_layers": off.n_gpu_layers if off else None,
                "prompt": cond.prompt,
                "block_max": cond.block_max,
                "tokens_generated": cond.tokens_generated,
                "cap": cond.cap,
                "cold": cond.file_cache == "cold" if cond.file_cache else None,
                "note": c.note,
            }
        )
    return pl.DataFrame(rows, schema=CLAIMS_SCHEMA)


def _side(cf: ClaimsFile, ref: str, recomputed: dict[str, Recomputed]) -> dict:
    c = cf.claim(ref)
    if c is None:
        natural = recomputed[ref].natural
        return {"id": ref, "lo": natural.lo if natural else None, "hi": natural.hi if natural else None}
    iv = claim_interval(c)
    return {
        "id": ref,
        "lo": iv.lo if iv else None,
        "hi": iv.hi if iv else None,
        "method": c.method,
        "phase": c.metric,
        "host": host_of(cf, c),
        "env": cf.conditions_of(c).env,
        "build": build_of(cf, c),
        "source": c.origin or OWN_SOURCE,
        "n": c.n,
        "acceptance_definition": definition_of(cf, c) if c.metric == "acceptance_rate" else None,
    }


def _sides(cf: ClaimsFile, num: str, den: str, recomputed: dict[str, Recomputed]) -> dict:
    """``num_*`` and ``den_*`` columns of a comparison row; the denominator's lo/hi in the numerator's
    unit when both are claims in units of one quantity (``units.factor``: 599 MB beside 1.2 GiB is
    0.558 GiB), so the rules that divide them (``slower_than_baseline``, ``inconsistent_derived_value``)
    compare like with like."""
    n_side, d_side = _side(cf, num, recomputed), _side(cf, den, recomputed)
    n_claim, d_claim = cf.claim(num), cf.claim(den)
    if n_claim is not None and d_claim is not None and d_side["lo"] is not None:
        try:
            f = factor(d_claim.unit, n_claim.unit)
        except UnitError:
            f = 1.0
        d_side["lo"], d_side["hi"] = d_side["lo"] * f, d_side["hi"] * f
    return {**{f"num_{k}": v for k, v in n_side.items()}, **{f"den_{k}": v for k, v in d_side.items()}}


def _alpha(cf: ClaimsFile, num: str, den: str) -> float | None:
    """The acceptance rate stated for ``num``'s decoding mode when ``den`` decodes plainly."""
    n, d = cf.claim(num), cf.claim(den)
    if n is None or d is None:
        return None
    mode, base = cf.conditions_of(n).decoding, cf.conditions_of(d).decoding
    if mode in (None, "plain") or base != "plain":
        return None
    for a in cf.claims:
        if a.metric != "acceptance_rate" or a.value is None or cf.conditions_of(a).decoding != mode:
            continue
        if definition_of(cf, a) in (None, *LLAMA_CPP):
            return a.value
        converted = to_llama_cpp(cf, a)  # another engine's acceptance: only as llama.cpp's α
        if converted is not None:
            return converted.alpha
    return None


def comparison_table(cf: ClaimsFile, recomputed: dict[str, Recomputed]) -> pl.DataFrame:
    """The ``comparison`` table kind of ``caveats`` (module doc)."""
    rows = []
    for s in cf.statements:
        r = recomputed[s.id]
        if s.kind == "bound":
            for p in r.pairs:
                if p.denominator is None:
                    continue
                row = {
                    "id": f"{s.id}[{p.numerator}/{p.denominator}]",
                    "statement": s.id,
                    "value": p.value.mid,
                    "value_halfwidth": None,
                    "num_alpha": _alpha(cf, p.numerator, p.denominator),
                }
                row.update(_sides(cf, p.numerator, p.denominator, recomputed))
                rows.append(row)
            continue
        if s.kind not in ("ratio", "percent_change", "difference"):
            continue
        first, second = s.of
        num, den = (second, first) if s.kind == "percent_change" else (first, second)
        value = h = None
        if s.kind != "difference":
            scale = 100.0 if s.unit == "%" else 1.0
            if s.value is not None:
                value = s.value / scale + (1.0 if s.kind == "percent_change" else 0.0)
                h = half_width(s.decimals, s.about) / scale
            elif r.natural is not None:
                value = r.natural.mid / (100.0 if s.kind == "percent_change" else 1.0) + (
                    1.0 if s.kind == "percent_change" else 0.0
                )
        row = {
            "id": s.id,
            "statement": s.id,
            "value": value,
            "value_halfwidth": h,
            "num_alpha": _alpha(cf, num, den) if s.kind == "ratio" else None,
        }
        row.update(_sides(cf, num, den, recomputed))
        rows.append(row)
    return pl.DataFrame(rows, schema=COMPARISON_SCHEMA)

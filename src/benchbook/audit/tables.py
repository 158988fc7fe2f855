"""A claims file as the two tables ``caveats`` evaluates: ``claims`` and ``comparison``.

``claims_table``: one row per claim *with a number* (numberless claims have nothing a rule could
read; the verdict engine still judges them).  Columns (typed even when every value is null):
id, metric, value (a range's midpoint), lo, hi, unit, family (the unit's family: rate, size...),
method, n, origin, env, hardware, model, decoding, n_cpu_moe, n_gpu_layers, prompt, block_max,
tokens_generated, cap, cold, capacity (what a memory value is measured against), limit (the most the
value can be by its own definition), note.

``comparison_table``: one row per two-sided statement (ratio, percent_change, difference) and one
per pair of a bound's set (row id ``<statement>[<numerator>/<denominator>]``).  Columns: id,
statement, num_id, den_id, value (the stated ratio as a fraction; a percent change as the ratio
1 + p/100; the recomputed ratio where none is stated; null for a difference), value_halfwidth (the
stated precision in the same scale; null where nothing is stated), and per side (``num_``/``den_``):
lo, hi (the interval the stated precision allows, ``recompute.cited_interval``), method, phase (the
metric), host (the hardware identity), env, build (engine + build),
source (``origin``, or "the source"), n, acceptance_definition (an acceptance-rate side's,
``acceptance.definition_of``), and num_alpha (the acceptance rate the file states for the
numerator's decoding mode, when the denominator decodes plainly; another engine's acceptance only as
llama.cpp's α converted from its counts, ``acceptance.to_llama_cpp``).  A side that is a statement has
its recomputed interval as lo/hi and keeps the conditions of the claims under it (``side_of``): a
field its claims agree on is the side's, one they state differently is what the cited statement
compares (null here, never "different"), and n is the smallest n stated under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from .. import caveats
from .acceptance import LLAMA_CPP, definition_of, to_llama_cpp
from .recompute import Recomputed, cited_interval, claim_interval
from .schema import COMPARING_KINDS, Claim, ClaimsFile, family_of, field_of, host_of, stated_interval_of
from .units import UnitError, factor

OWN_SOURCE = "the source"

CLAIMS_SCHEMA = {
    "id": pl.String,
    "metric": pl.String,
    "value": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "unit": pl.String,
    "family": pl.String,
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
    "capacity": pl.Float64,
    "limit": pl.Float64,
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


def method_class(method: str | None) -> str | None:
    """Method text -> class by ``caveats.DEFAULTS['method_classes']``; None when not stated."""
    if method is None:
        return None
    for name, pattern in caveats.DEFAULTS["method_classes"].items():
        if re.search(pattern, method):
            return name
    return method.lower()


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
                "family": family_of(c.unit),
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
                "capacity": c.capacity,
                "limit": c.limit,
                "note": c.note,
            }
        )
    return pl.DataFrame(rows, schema=CLAIMS_SCHEMA)


#: conditions a side of a comparison keeps (``Side.fields``) besides method, phase, hardware,
#: environment, build and source: a field of ``schema.Conditions``, an offload field, or a key of
#: ``conditions.other`` (added per file); ``model_class`` (dense | MoE ...) is read from ``other``
SIDE_CONDITIONS = (
    "model",
    "model_class",
    "quant",
    "n_gpu_layers",
    "n_cpu_moe",
    "ctx",
    "batch",
    "decoding",
    "block_max",
    "prompt",
    "sampling",
    "cap",
    "file_cache",
)


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a claim, or a statement with the claims under it (every claim it
    cites, through cited statements and a bound's set).

    Each fact (``method``, ``phase`` = the metric, ``host``, ``env``, ``build``, ``source``, and the
    conditions in ``fields``) is the one value its claims state; None when none states it or when
    they state different values (``varies``: what the cited statement itself compares, e.g. the
    decoding of a speedup).  ``n``: the smallest n stated under it (None: none stated)."""

    id: str
    claims: tuple[str, ...]
    method: str | None = None
    phase: str | None = None
    host: str | None = None
    env: str | None = None
    build: str | None = None
    source: str | None = None
    n: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    varies: frozenset[str] = frozenset()


def claims_under(cf: ClaimsFile, ref: str, recomputed: dict[str, Recomputed] | None = None) -> list[str]:
    """The claim ids a claim or statement ``ref`` rests on, in first-read order: the claim itself, or
    every claim a statement cites, through the statements it cites (a bound: its set's claims,
    ``Recomputed.reads``)."""
    out: list[str] = []
    todo, seen = [ref], set()
    while todo:
        cur = todo.pop(0)
        if cur in seen:
            continue
        seen.add(cur)
        if cf.claim(cur) is not None:
            out.append(cur)
            continue
        st = cf.statement(cur)
        if st is None:
            continue
        if st.kind == "bound":
            todo += list(recomputed[cur].reads) if recomputed and cur in recomputed else []
        else:
            todo += list(st.of)
    return out


def _one(values: list[Any]) -> tuple[Any, bool]:
    """(the one value stated, whether stated values differ) of a side's claims; unstated are skipped."""
    distinct = []
    for v in values:
        if v is not None and v not in distinct:
            distinct.append(v)
    return (distinct[0] if len(distinct) == 1 else None), len(distinct) > 1


def side_of(cf: ClaimsFile, ref: str, recomputed: dict[str, Recomputed] | None = None) -> Side:
    """The ``Side`` of a claim or statement ``ref`` (class doc)."""
    ids = claims_under(cf, ref, recomputed)
    claims = [c for i in ids if (c := cf.claim(i)) is not None]
    conds = [cf.conditions_of(c) for c in claims]
    facts: dict[str, list[Any]] = {
        "method": [c.method for c in claims],
        "phase": [c.metric for c in claims],
        "host": [host_of(cf, c) for c in claims],
        "env": [k.env for k in conds],
        "build": [build_of(cf, c) for c in claims],
        "source": [c.origin or OWN_SOURCE for c in claims],
    }
    names = list(SIDE_CONDITIONS) + sorted({k for cond in conds for k in cond.other} - set(SIDE_CONDITIONS))
    for name in names:
        facts[f"cond:{name}"] = [field_of(c, k, name) for c, k in zip(claims, conds, strict=True)]
    one: dict[str, Any] = {}
    varies: set[str] = set()
    for key, values in facts.items():
        if key == "method":  # one method class is one method ("llama-bench tg128" and "tg512")
            value, differ = _one([method_class(m) for m in values])
            value = next((m for m in values if m is not None), None) if value is not None else None
        else:
            value, differ = _one(values)
        one[key] = value
        if differ:
            varies.add(key.removeprefix("cond:"))
    stated_n = [c.n for c in claims if c.n is not None]
    return Side(
        id=ref,
        claims=tuple(ids),
        method=one["method"],
        phase=one["phase"],
        host=one["host"],
        env=one["env"],
        build=one["build"],
        source=one["source"],
        n=min(stated_n) if stated_n else None,
        fields={k.removeprefix("cond:"): v for k, v in one.items() if k.startswith("cond:")},
        varies=frozenset(varies),
    )


def _side(cf: ClaimsFile, ref: str, recomputed: dict[str, Recomputed]) -> dict:
    c = cf.claim(ref)
    if c is None:
        natural = recomputed[ref].natural
        lo, hi = (natural.lo, natural.hi) if natural else (None, None)
    else:
        iv = cited_interval(c)  # what a comparison reads: the interval its stated precision allows
        lo, hi = (iv.lo, iv.hi) if iv else (None, None)
    side = side_of(cf, ref, recomputed)
    return {
        "id": ref,
        "lo": lo,
        "hi": hi,
        "method": side.method,
        "phase": side.phase,
        "host": side.host,
        "env": side.env,
        "build": side.build,
        "source": side.source,
        "n": side.n,
        "acceptance_definition": definition_of(cf, c)
        if c is not None and c.metric == "acceptance_rate"
        else None,
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
        if s.kind not in COMPARING_KINDS:  # a sum or mean pools its members, it compares nothing
            continue
        first, second = s.of
        num, den = (second, first) if s.kind == "percent_change" else (first, second)
        value = h = None
        if s.kind != "difference":
            scale = 100.0 if s.unit == "%" else 1.0
            if s.value is not None:
                value = s.value / scale + (1.0 if s.kind == "percent_change" else 0.0)
                allowed = stated_interval_of(s)  # the precision recompute reads ("2x" is 2.0x)
                h = (allowed.hi - allowed.lo) / 2 / scale if allowed is not None else None
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

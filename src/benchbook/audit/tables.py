"""A claims file as the two tables ``caveats`` evaluates: ``claims`` and ``comparison``.

``claims_table``: one row per claim *with a number* (numberless claims have nothing a rule could
read; the verdict engine still judges them).  Columns (typed even when every value is null):
id, metric, value (a range's midpoint), lo, hi, unit, family (the unit's family: rate, size...), method,
n, origin, env, hardware, model, decoding, n_cpu_moe, n_gpu_layers, prompt, block_max, tokens_generated,
cap, cold, capacity (what a memory value is measured against), limit (the most the value can be by its
own definition), note, run_index, and the order and state of a series (``series_columns``): order_n,
order_rho, order_rho_rest, order_drift, alpha_trend_slope, decode_trend_rel and the reasons
order_trend_reason, cross_request_state_reason.

A series: claims stated with ``conditions.run_index`` that share everything else (metric, unit,
method, origin, every other condition), in run_index order: repeated runs or requests of one
configuration.  ``order_trend`` reads the order statistics of their values (``identity.order_trend``);
``cross_request_state`` reads the slope of α per request (an ``acceptance_rate`` series: α from its
``counts`` where stated, else its value) and of a rate relative to its mean (a series in a rate unit).

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

import json
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from .. import caveats
from ..identity import order_trend
from ..stats import rep_trend
from .acceptance import LLAMA_CPP, definition_of, to_llama_cpp
from .recompute import Recomputed, cited_first, cited_interval, claim_interval
from .schema import (
    COMPARING_KINDS,
    Claim,
    ClaimsFile,
    Conditions,
    family_of,
    field_of,
    host_of,
    stated_interval_of,
)
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
    "quant": pl.String,
    "build": pl.String,
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
    "run_index": pl.Int64,
    "order_n": pl.Int64,
    "order_rho": pl.Float64,
    "order_rho_rest": pl.Float64,
    "order_drift": pl.Float64,
    "order_trend_reason": pl.String,
    "alpha_trend_slope": pl.Float64,
    "decode_trend_rel": pl.Float64,
    "cross_request_state_reason": pl.String,
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


def _alpha_of(c: Claim) -> float | None:
    """α of an acceptance-rate claim: its counts where stated, else its value (÷ 100 for %)."""
    if c.counts is not None:
        return c.counts.alpha
    iv = claim_interval(c)
    if iv is None:
        return None
    return iv.mid / 100.0 if (c.unit or "").strip() == "%" else iv.mid


def series_columns(cf: ClaimsFile) -> dict[str, dict]:
    """Claim id -> the order and state columns of its series (module doc); claims outside a series of
    at least two are left out."""
    series: dict[str, list[Claim]] = {}
    for c in cf.claims:
        cond = cf.conditions_of(c)
        if cond.run_index is None or claim_interval(c) is None:
            continue
        rest = cond.model_dump(exclude={"run_index"}, mode="json")
        key = json.dumps([c.metric, c.unit, c.method, c.origin, rest], sort_keys=True)
        series.setdefault(key, []).append(c)
    out: dict[str, dict] = {}
    for claims in series.values():
        if len(claims) < 2:
            continue
        claims = sorted(claims, key=lambda c: cf.conditions_of(c).run_index or 0)
        index = [cf.conditions_of(c).run_index for c in claims]
        values = [iv.mid for c in claims if (iv := claim_interval(c)) is not None]
        what = f"runs of one configuration ({', '.join(c.id for c in claims)})"
        where = f"{len(claims)} {what}"
        cols: dict = {}
        trend = order_trend(values)
        if trend is not None:
            cols |= {
                "order_n": trend.n,
                "order_rho": trend.rho,
                "order_rho_rest": trend.rho_rest,
                "order_drift": trend.drift,
                "order_trend_reason": trend.text(claims[0].unit or "", what),
            }
        first = claims[0]
        if first.metric == "acceptance_rate":
            alphas = [_alpha_of(c) for c in claims]
            slope = rep_trend(alphas, index)
            cols["alpha_trend_slope"] = slope
            shown = " → ".join(
                f"{c.counts.accepted}/{c.counts.drafted}" if c.counts else f"{a:.3f}"
                for c, a in zip(claims, alphas, strict=True)
            )
            if slope is not None:
                cols["cross_request_state_reason"] = (
                    f"acceptance {shown} over {where} in run_index order (α "
                    f"{' → '.join(f'{a:.3f}' for a in alphas if a is not None)}, {slope:+.3f} per run): "
                    "state carried between requests, not the draft on new text"
                )
        elif family_of(first.unit) == "rate" and values[0]:
            slope = rep_trend(values, index)
            mean = sum(values) / len(values)
            cols["decode_trend_rel"] = slope / mean if slope is not None and mean else None
            cols["cross_request_state_reason"] = (
                f"{first.metric} {' → '.join(f'{v:g}' for v in values)} {first.unit} over {where} in "
                f"run_index order (×{values[-1] / values[0]:.2f} from the first to the last): state carried "
                "between requests"
            )
        for c in claims:
            out[c.id] = cols
    return out


def claims_table(cf: ClaimsFile) -> pl.DataFrame:
    """The ``claims`` table kind of ``caveats`` (module doc)."""
    series = series_columns(cf)
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
                "quant": cond.quant,
                # (``build_of``'s words, from the conditions read once: not a second read per claim)
                "build": " ".join(p for p in (cond.engine, cond.build) if p) or None,
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
                "run_index": cond.run_index,
                **series.get(c.id, {}),
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
    "ubatch",
    "flash_attn",
    "type_k",
    "type_v",
    "depth",
    "backend",
    "concurrency",
)


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a claim, or a statement with the claims under it (every claim it
    cites, through cited statements and a bound's set).

    Each fact (``method``, ``phase`` = the metric, ``host``, ``env``, ``build``, ``source``, and the
    conditions in ``fields``) is the one value its claims state; None when none states it or when
    they state different values (``varies``: what the cited statement itself compares, e.g. the
    decoding of a speedup).  ``method`` is one method class (``method_class``) written as the nearest
    claim stating it writes it (fewest citations away; the first cited of those).  ``n``: the smallest
    n stated under it (None: none stated).  ``has_claims``: whether any claim is under it (the claims
    themselves: ``claims_under``)."""

    id: str
    has_claims: bool
    method: str | None = None
    phase: str | None = None
    host: str | None = None
    env: str | None = None
    build: str | None = None
    source: str | None = None
    n: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    varies: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Facts:
    """What a ``Side`` is built from, merged from the cited items' own (``Under.side``): the one value
    stated per fact key (``one``; a key none states is absent), the keys stated differently
    (``differ``), the nearest claim's method as (citations away, method), the smallest n, the
    ``conditions.other`` keys stated under it, and whether any claim is."""

    one: dict[str, Any]
    differ: frozenset[str]
    method: tuple[int, str] | None
    n: int | None
    other: frozenset[str]
    has_claims: bool


class Under:
    """What each claim and statement of one claims file rests on, found once per audit (build one per
    ``recompute_all`` result and pass it along; the functions that take one build their own without).

    A statement's answer is merged from the answers of the items it cites (``cites``), each found
    before it: a chain of 800 statements, each citing the one before, is 800 merges, not the 320,000
    walks of every statement's whole chain it took when each side was found from scratch (39 s, issue
    34 §3); the walk is kept on a list, not the call stack, so any depth of citation works.

    Raises (on construction):
        RecomputeError: statements that cite each other in a cycle (``recompute.cited_first``)."""

    def __init__(self, cf: ClaimsFile, recomputed: dict[str, Recomputed] | None = None) -> None:
        self.cf, self.recomputed = cf, recomputed
        cited_first(cf)  # refuses a cycle, which the walks below assume absent
        self._conds: dict[str, Conditions] = {}
        self._facts: dict[str, _Facts] = {}
        self._gathered: dict[str, dict[str, tuple]] = {}
        self._acceptance: dict[str | None, list[Claim]] | None = None

    def conditions(self, c: Claim) -> Conditions:
        """``ClaimsFile.conditions_of`` of a claim, read once per audit."""
        if c.id not in self._conds:
            self._conds[c.id] = self.cf.conditions_of(c)
        return self._conds[c.id]

    def acceptance(self, mode: str | None) -> list[Claim]:
        """The ``acceptance_rate`` claims of decoding ``mode``, in file order (one pass per audit)."""
        if self._acceptance is None:
            self._acceptance = {}
            for c in self.cf.claims:
                if c.metric == "acceptance_rate":
                    self._acceptance.setdefault(self.conditions(c).decoding, []).append(c)
        return self._acceptance.get(mode, [])

    def cites(self, ref: str) -> list[str]:
        """The ids a statement reads, in order: its ``of``, or a bound's set (``Recomputed.reads``);
        [] for a claim or an unknown id."""
        if self.cf.claim(ref) is not None:
            return []
        st = self.cf.statement(ref)
        if st is None:
            return []
        if st.kind == "bound":
            r = (self.recomputed or {}).get(ref)
            return list(r.reads) if r is not None else []
        return list(st.of)

    def _pending(self, ref: str, memo: dict) -> list[str]:
        """The statements under ``ref`` (itself included) not in ``memo``, each after those it cites."""
        out: list[str] = []
        walk = [(ref, False)]
        seen: set[str] = set()
        while walk:
            node, ready = walk.pop()
            if ready:
                out.append(node)
                continue
            if (
                node in memo
                or node in seen
                or self.cf.claim(node) is not None
                or self.cf.statement(node) is None
            ):
                continue
            seen.add(node)
            walk.append((node, True))
            walk += [(x, False) for x in reversed(self.cites(node))]
        return out

    def gather(self, ref: str, name: str, own: Callable[[str], Iterable[Any]]) -> tuple:
        """The distinct values ``own`` gives for ``ref`` and every item under it (claims and statements),
        ``ref``'s own first, then each cited item's gathered values in citation order; memoised per
        ``name`` (one ``own`` per name)."""
        memo = self._gathered.setdefault(name, {})
        if ref in memo:
            return memo[ref]
        for sid in self._pending(ref, memo):
            parts = [tuple(own(sid))] + [
                memo[x] if x in memo else memo.setdefault(x, tuple(dict.fromkeys(own(x))))
                for x in self.cites(sid)
            ]
            memo[sid] = tuple(dict.fromkeys(v for p in parts for v in p))
        if ref not in memo:  # a claim, or an unknown id
            memo[ref] = tuple(dict.fromkeys(own(ref)))
        return memo[ref]

    def claims_among(self, ref: str, name: str, keep: Callable[[Claim], bool]) -> tuple[str, ...]:
        """The ids of the claims under ``ref`` for which ``keep`` holds (``gather``, memoised per
        ``name``)."""
        cf = self.cf
        return self.gather(ref, name, lambda x: [x] if (c := cf.claim(x)) is not None and keep(c) else [])

    def _claim_facts(self, c: Claim) -> _Facts:
        cond = self.conditions(c)
        one: dict[str, Any] = {
            "method": method_class(c.method),
            "phase": c.metric,
            "host": host_of(self.cf, c),
            "env": cond.env,
            "build": build_of(self.cf, c),
            "source": c.origin or OWN_SOURCE,
        }
        for name in [*SIDE_CONDITIONS, *sorted(set(cond.other) - set(SIDE_CONDITIONS))]:
            one[f"cond:{name}"] = field_of(c, cond, name)
        return _Facts(
            one={k: v for k, v in one.items() if v is not None},
            differ=frozenset(),
            method=(0, c.method) if c.method is not None else None,
            n=c.n,
            other=frozenset(cond.other),
            has_claims=True,
        )

    def _facts_of(self, ref: str) -> _Facts:
        if ref in self._facts:
            return self._facts[ref]
        c = self.cf.claim(ref)
        if c is not None:
            self._facts[ref] = self._claim_facts(c)
            return self._facts[ref]
        for sid in self._pending(ref, self._facts):
            self._facts[sid] = _merge([self._facts_of(x) for x in self.cites(sid)])
        return self._facts.get(ref) or self._facts.setdefault(ref, _merge([]))

    def side(self, ref: str) -> Side:
        """The ``Side`` of a claim or statement ``ref`` (its class doc)."""
        f = self._facts_of(ref)
        names = list(SIDE_CONDITIONS) + sorted(f.other - set(SIDE_CONDITIONS))
        return Side(
            id=ref,
            has_claims=f.has_claims,
            method=f.method[1] if f.method is not None and "method" in f.one else None,
            phase=f.one.get("phase"),
            host=f.one.get("host"),
            env=f.one.get("env"),
            build=f.one.get("build"),
            source=f.one.get("source"),
            n=f.n,
            fields={name: f.one.get(f"cond:{name}") for name in names},
            varies=frozenset(k.removeprefix("cond:") for k in f.differ),
        )


def same_value(a: object, b: object) -> bool:
    """Whether two stated condition values are one: equal, or names that differ only in letter case
    ("Qwen2.5-7B-Instruct" and "qwen2.5-7b-instruct", "Q8_0" and "q8_0": one model, one quant as two
    posts or a post and its logs spell them)."""
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    return a == b


def _merge(parts: list[_Facts]) -> _Facts:
    """The ``_Facts`` of a statement from those of the items it cites, in citation order: a key stated
    with two values (``==``) differs; the nearest method is the cited items' nearest, one citation
    further (the first cited on a tie)."""
    one: dict[str, Any] = {}
    differ: set[str] = set()
    method: tuple[int, str] | None = None
    ns = [p.n for p in parts if p.n is not None]
    for p in parts:
        differ |= p.differ
        for k, v in p.one.items():
            if k not in one:
                one[k] = v
            elif not same_value(one[k], v):
                differ.add(k)
        if p.method is not None and (method is None or p.method[0] + 1 < method[0]):
            method = (p.method[0] + 1, p.method[1])
    return _Facts(
        one={k: v for k, v in one.items() if k not in differ},
        differ=frozenset(differ),
        method=method,
        n=min(ns) if ns else None,
        other=frozenset().union(*(p.other for p in parts)),
        has_claims=any(p.has_claims for p in parts),
    )


def claims_under(cf: ClaimsFile, ref: str, recomputed: dict[str, Recomputed] | None = None) -> list[str]:
    """The claim ids a claim or statement ``ref`` rests on, in first-read order (nearest first): the
    claim itself, or every claim a statement cites, through the statements it cites (a bound: its
    set's claims, ``Recomputed.reads``).  One walk of everything under ``ref``: to ask it of every
    statement of a file, ask an ``Under`` (``claims_among``)."""
    out: list[str] = []
    todo, seen = deque([ref]), set()
    while todo:
        cur = todo.popleft()
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


def side_of(
    cf: ClaimsFile, ref: str, recomputed: dict[str, Recomputed] | None = None, under: Under | None = None
) -> Side:
    """The ``Side`` of a claim or statement ``ref`` (class doc); pass the audit's ``under`` when asking
    of many (without one, everything under ``ref`` is read again)."""
    return (under or Under(cf, recomputed)).side(ref)


def _side(cf: ClaimsFile, ref: str, recomputed: dict[str, Recomputed], under: Under) -> dict:
    c = cf.claim(ref)
    if c is None:
        natural = recomputed[ref].natural
        lo, hi = (natural.lo, natural.hi) if natural else (None, None)
    else:
        iv = cited_interval(c)  # what a comparison reads: the interval its stated precision allows
        lo, hi = (iv.lo, iv.hi) if iv else (None, None)
    side = under.side(ref)
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


def _sides(cf: ClaimsFile, num: str, den: str, recomputed: dict[str, Recomputed], under: Under) -> dict:
    """``num_*`` and ``den_*`` columns of a comparison row; the denominator's lo/hi in the numerator's
    unit when both are claims in units of one quantity (``units.factor``: 599 MB beside 1.2 GiB is
    0.558 GiB), so the rules that divide them (``slower_than_baseline``, ``inconsistent_derived_value``)
    compare like with like."""
    n_side, d_side = _side(cf, num, recomputed, under), _side(cf, den, recomputed, under)
    n_claim, d_claim = cf.claim(num), cf.claim(den)
    if n_claim is not None and d_claim is not None and d_side["lo"] is not None:
        try:
            f = factor(d_claim.unit, n_claim.unit)
        except UnitError:
            f = 1.0
        d_side["lo"], d_side["hi"] = d_side["lo"] * f, d_side["hi"] * f
    return {**{f"num_{k}": v for k, v in n_side.items()}, **{f"den_{k}": v for k, v in d_side.items()}}


def _alpha(cf: ClaimsFile, num: str, den: str, under: Under) -> float | None:
    """The acceptance rate stated for ``num``'s decoding mode when ``den`` decodes plainly."""
    n, d = cf.claim(num), cf.claim(den)
    if n is None or d is None:
        return None
    mode, base = under.conditions(n).decoding, under.conditions(d).decoding
    if mode in (None, "plain") or base != "plain":
        return None
    for a in under.acceptance(mode):
        if a.value is None:
            continue
        if definition_of(cf, a) in (None, *LLAMA_CPP):
            return a.value
        converted = to_llama_cpp(cf, a)  # another engine's acceptance: only as llama.cpp's α
        if converted is not None:
            return converted.alpha
    return None


def comparison_table(
    cf: ClaimsFile, recomputed: dict[str, Recomputed], under: Under | None = None
) -> pl.DataFrame:
    """The ``comparison`` table kind of ``caveats`` (module doc); ``under``: the audit's (``Under``)."""
    under = under or Under(cf, recomputed)
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
                    "num_alpha": _alpha(cf, p.numerator, p.denominator, under),
                }
                row.update(_sides(cf, p.numerator, p.denominator, recomputed, under))
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
            "num_alpha": _alpha(cf, num, den, under) if s.kind == "ratio" else None,
        }
        row.update(_sides(cf, num, den, recomputed, under))
        rows.append(row)
    return pl.DataFrame(rows, schema=COMPARISON_SCHEMA)

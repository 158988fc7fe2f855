"""Recompute derived statements from the claims and statements they cite, and check them against
the value stated, within its stated precision (``precision``).

Every cited number is an interval: a claim's ``value`` or ``range`` as the interval its stated
precision allows (``cited_interval``: "24.4" is 24.35–24.45, "about 130" 129–131, "850 tokens"
exactly 850; ``precision.interval_of``); a cited statement's recomputed interval.  Interval
arithmetic carries them through every kind, all inputs positive where divided:

==================  ===========================================  ===========================
kind                recomputed                                   unit of the result
==================  ===========================================  ===========================
``ratio``           a / b: ``[a.lo / b.hi, a.hi / b.lo]``         ``x`` (×100 when unit "%"),
                                                                 or the quotient's unit
                                                                 (tokens ÷ s in tok/s, GB ÷
                                                                 MB/s in min: ``units``)
``percent_change``  (b / a - 1) · 100, from a to b                %
``difference``      a - b: ``[a.lo - b.hi, a.hi - b.lo]``         the claims' unit
``sum`` / ``mean``  sum / mean of the lows, of the highs          the claims' unit
``bound``           the set's extreme: max for "below", min for   ``x`` (ratios) or the
                    "above"; the set = every numerator claim ÷    claims' unit
                    every denominator claim equal on ``match``
==================  ===========================================  ===========================

Consistent: the recomputed interval meets the stated interval (``allowed``: the interval the stated
value's precision allows); a bound: the extreme's interval reaches the stated side of the bound,
within the bound's precision.  So a statement computed from the true values and rounded to its
digits is never inconsistent, however its cited values were rounded.  Inconsistent: the recomputed
value and the difference in the statement's own unit (the size of the miss: ``precision.miss``).
Not checkable: no stated value, or a cited claim has no number, or the set is empty.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass, field
from typing import Final, Literal

from .precision import Interval
from .schema import BoundSet, Claim, ClaimsFile, Statement, family_of, field_of, host_of, stated_interval_of
from .units import RATIO, UnitError, common_scale, factor, quantity, quotient_factor, unit_key

Consistency = Literal["consistent", "inconsistent", "not checkable"]
CONSISTENT: Final = "consistent"
INCONSISTENT: Final = "inconsistent"
NOT_CHECKABLE: Final = "not checkable"


class RecomputeError(ValueError):
    """Cited numbers that cannot be combined (different units in a sum, a division by zero); the
    message names the statement id and the fix, and ``recompute_all`` prefixes it with the
    statement's ``file:line`` (``ClaimsFile.where``)."""

    located: bool = False


@dataclass(frozen=True)
class Pair:
    """One member of a bound's set: numerator claim ÷ denominator claim (or the value alone)."""

    numerator: str
    denominator: str | None
    value: Interval


@dataclass
class Recomputed:
    """A statement recomputed: ``natural`` (ratios as fractions, percent change in %, else the
    claims' unit) and ``in_unit`` (in the statement's unit), the ids read, the arithmetic as text,
    the consistency verdict and, when inconsistent, the difference in the statement's unit."""

    id: str
    natural: Interval | None
    in_unit: Interval | None
    reads: list[str]
    arithmetic: str
    verdict: Consistency
    difference: float | None = None
    pairs: list[Pair] = field(default_factory=list)
    reason: str = ""
    allowed: Interval | None = None  # what the stated value's precision allows (a bound: one side open)


def claim_interval(claim: Claim) -> Interval | None:
    """A claim's number as written: ``[v, v]`` or its ``range``; None when it has no number (what the
    claim states; what it stands for when cited is ``cited_interval``)."""
    if claim.value is not None:
        return Interval(claim.value, claim.value)
    if claim.range is not None:
        return Interval(*claim.range)
    return None


def cited_interval(claim: Claim) -> Interval | None:
    """A claim's number as a statement citing it must read it: the interval its stated precision
    allows (``schema.stated_interval_of``: "102.4" is 102.35–102.45, "about 130" 129–131, a range's
    ends each with their own digits, "850 tokens" exact); None when it has no number.  The interval
    stays in the quantity's domain: a rate, size, time or count cannot be negative, so "0 tok/s" is
    ``[0, 0.5]`` (a change in % can be)."""
    iv = stated_interval_of(claim)
    if iv is None or family_of(claim.unit) is None or (claim.unit or "").strip() == "%":
        return iv
    return Interval(max(iv.lo, 0.0), max(iv.hi, 0.0))


def _derived_unit(stmt: Statement) -> bool:
    """Whether a ratio is stated in a unit of a quantity (tok/s, min), not as a plain ratio (x, %)."""
    q = quantity(stmt.unit)
    return stmt.kind == "ratio" and q is not None and q.dimension != RATIO


def _unit_factor(stmt: Statement) -> float:
    return 100.0 if stmt.kind == "ratio" and stmt.unit == "%" else 1.0


class Undefined(RecomputeError):
    """A quotient with no value (a zero or negative denominator): the statement is not checkable,
    the rest of the file still is."""


def _divide(a: Interval, b: Interval, sid: str, kind: str = "ratio") -> Interval:
    if b.lo <= 0 or a.lo < 0:
        what = "a percent change from" if kind == "percent_change" else "a ratio over"
        raise Undefined(
            f"{what} {b.text(4)} is undefined ({a.text(4)} / {b.text(4)}): "
            f"statement {sid} needs positive numbers; fix: cite the speeds or sizes themselves"
        )
    return Interval(a.lo / b.hi, a.hi / b.lo)


def _on_one_scale(stmt: Statement, ivs: list[Interval], units: list[str | None]) -> list[Interval]:
    """The cited intervals in the first cited unit (``units.common_scale``): ``1.2 GiB`` and ``599 MB``
    become ``1288.5 MB`` and ``599 MB``.

    Raises:
        RecomputeError: units of different quantities (names the statement, the units and their
        dimensions)."""
    try:
        scale = common_scale(units)
    except UnitError as e:
        raise RecomputeError(
            f"statement {stmt.id}: a {stmt.kind} of numbers in different units "
            f"{sorted({str(u) for u in units})} ({e}); fix: cite numbers of one quantity"
        ) from None
    return [iv.scaled(f) for iv, f in zip(ivs, scale.factors, strict=True)]


def _is_quotient(stmt: Statement, units: list[str | None]) -> bool:
    """Whether a ratio is a quotient of two quantities rather than a plain ratio: stated in a unit of
    a quantity (tok/s, min: ``_derived_unit``), or in a unit the table does not know (tokens/step)
    over cited numbers of different units (computed as written)."""
    if stmt.kind != "ratio":
        return False
    if _derived_unit(stmt):
        return True
    unknown = stmt.unit is not None and quantity(stmt.unit) is None and family_of(stmt.unit) != "ratio"
    return unknown and len({unit_key(u) for u in units}) > 1


def _quotient(stmt: Statement, ivs: list[Interval], units: list[str | None]) -> tuple[Interval, str]:
    """A ratio stated in the unit of its quotient (``_is_quotient``): (interval in ``stmt.unit``,
    arithmetic).  850 tokens ÷ 9.8 s in tok/s; 4.2 GB ÷ 35 MB/s in min (``units.quotient_factor``).

    Raises:
        RecomputeError: the quotient is not of the statement's quantity (both named).
        Undefined: a quotient over a non-positive number."""
    a, b = ivs
    f = 1.0
    if _derived_unit(stmt):
        try:
            f = quotient_factor(units[0], units[1], stmt.unit)
        except UnitError as e:
            raise RecomputeError(
                f"statement {stmt.id}: stated in {stmt.unit!r}, but {e}; fix: cite the numbers whose "
                "quotient it states, or state it in the quotient's unit"
            ) from None
    natural = _divide(a, b, stmt.id).scaled(f)
    conv = f" x {f:.6g} (to {stmt.unit})" if f != 1.0 else ""
    return natural, (f"{stmt.of[0]} / {stmt.of[1]} = {a.text(4)} {units[0]} / {b.text(4)} {units[1]}{conv}")


def _matches(cf: ClaimsFile, claim: Claim, select: dict) -> bool:
    cond = cf.conditions_of(claim)
    return all(field_of(claim, cond, k) == v for k, v in select.items())


def _bound_set(stmt: Statement) -> tuple[BoundSet, float]:
    """``over`` and the bound (``value``) of a bound statement; the schema requires both."""
    if stmt.over is None or stmt.value is None:
        raise RecomputeError(
            f"statement {stmt.id}: a bound needs `over` and the bound as `value`; "
            "fix: state both (schema.Statement)"
        )
    return stmt.over, stmt.value


def _in_unit(iv: Interval, unit: str | None, to: str | None, sid: str) -> Interval:
    """``iv`` (in ``unit``) in ``to`` (``units.factor``); unchanged when ``to`` is None.

    Raises:
        RecomputeError: units of different quantities."""
    if to is None:
        return iv
    try:
        return iv.scaled(factor(unit, to))
    except UnitError:
        raise RecomputeError(
            f"statement {sid}: a set of numbers in {unit!r} and {to!r}; fix: cite numbers of one quantity"
        ) from None


def _may_share(cf: ClaimsFile, a: Claim, b: Claim) -> bool:
    """Whether two claims, one with a ``match`` field unstated, may still share it: both from the same
    source (``origin``; a quoted number never ran in the source's own environments) and no known
    difference in hardware (a different machine is a different environment)."""
    ha, hb = host_of(cf, a), host_of(cf, b)
    return a.origin == b.origin and (ha is None or hb is None or ha == hb)


def _bound_members(cf: ClaimsFile, stmt: Statement) -> tuple[list[Pair], list[Pair], list[str]]:
    """(definite pairs, uncertain pairs, numerators left out) of a bound's set (``schema.BoundSet``),
    in claims-file order.  Definite: every ``match`` field stated on both sides and equal.  Uncertain:
    the stated fields equal, at least one unstated on a side (unknown is never "different": the pair
    may belong to the set).  Left out, as ``"id (why)"``: claims that may be numerators but leave a
    ``numerator`` field unstated, and numerators with no pair of either kind.
    Without a denominator every numerator is a definite member (its value in the statement's unit)."""
    over, _ = _bound_set(stmt)
    nums = [
        (c, iv)
        for c in cf.claims
        if _matches(cf, c, over.numerator) and (iv := cited_interval(c)) is not None
    ]
    left_out = [
        f"{c.id} ({', '.join(unstated)} not stated: it may belong to the set)"
        for c in cf.claims
        if claim_interval(c) is not None
        and not _matches(cf, c, over.numerator)
        and all(field_of(c, cf.conditions_of(c), k) in (None, v) for k, v in over.numerator.items())
        and (unstated := [k for k in over.numerator if field_of(c, cf.conditions_of(c), k) is None])
    ]
    if over.denominator is None:
        unit = stmt.unit if family_of(stmt.unit) not in (None, "ratio") else None
        return (
            [
                Pair(
                    c.id,
                    None,
                    _in_unit(iv, c.unit, unit, stmt.id) if family_of(c.unit) == family_of(unit) else iv,
                )
                for c, iv in nums
            ],
            [],
            left_out,
        )
    dens = [
        (c, iv)
        for c in cf.claims
        if _matches(cf, c, over.denominator) and (iv := cited_interval(c)) is not None
    ]
    definite: list[Pair] = []
    uncertain: list[Pair] = []
    for n, n_iv in nums:
        key = [field_of(n, cf.conditions_of(n), m) for m in over.match]
        found = False
        for d, d_iv in dens:
            if d.id == n.id:
                continue
            other = [field_of(d, cf.conditions_of(d), m) for m in over.match]
            known = all(a is not None and b is not None for a, b in zip(key, other, strict=True))
            if not all(a is None or b is None or a == b for a, b in zip(key, other, strict=True)):
                continue
            if not known and not _may_share(cf, n, d):
                continue
            pair = Pair(n.id, d.id, _divide(n_iv, _in_unit(d_iv, d.unit, n.unit, stmt.id), stmt.id))
            (definite if known else uncertain).append(pair)
            found = True
        if not found:
            stated = ", ".join(f"{m} {v}" for m, v in zip(over.match, key, strict=True) if v is not None)
            unstated = [m for m, v in zip(over.match, key, strict=True) if v is None]
            why = f"no denominator with the same {stated}" if stated else "no denominator"
            if unstated:
                why += f"; {', '.join(unstated)} not stated, and none shares its hardware and source"
            left_out.append(f"{n.id} ({why})")
    return definite, uncertain, left_out


def bound_pairs(cf: ClaimsFile, stmt: Statement) -> list[Pair]:
    """The definite members of a bound's set (``_bound_members``), in claims-file order."""
    return _bound_members(cf, stmt)[0]


def _check_bound_unit(cf: ClaimsFile, stmt: Statement, pairs: list[Pair]) -> None:
    """A bound's unit must be the unit of what it bounds: a ratio family (x, %) over a ratio set,
    the claims' own unit family (tok/s, GiB...) over plain values; None is "the set's unit"."""
    if stmt.unit is None:
        return
    if pairs[0].denominator is not None:
        if family_of(stmt.unit) != "ratio":
            raise RecomputeError(
                f"statement {stmt.id}: unit {stmt.unit!r} for a bound over ratios; "
                "fix: state the bound in x or %"
            )
        return
    units = {c.unit for p in pairs if (c := cf.claim(p.numerator)) is not None}
    wrong = sorted(str(u) for u in units if family_of(u) != family_of(stmt.unit))
    if wrong:
        raise RecomputeError(
            f"statement {stmt.id}: the bound is in {stmt.unit!r} but bounds claims in {wrong}; "
            "fix: state the bound in the claims' unit"
        )


def _extreme(stmt: Statement, pairs: list[Pair]) -> tuple[Pair, Interval, bool]:
    """The extreme member of ``pairs`` (max for "below", min for "above"), the interval of the set's
    extreme in the statement's unit (below: ``[max of the lows, max of the highs]``) and whether it
    reaches the stated side of the bound within the bound's precision (below: its low end under the
    bound + its half-width: the members' true values may all lie below it)."""
    below = stmt.relation == "below"
    ext = max(pairs, key=lambda p: p.value.hi) if below else min(pairs, key=lambda p: p.value.lo)
    # a ratio set against a bound stated in percent ("below 30%") compares in the statement's unit
    scale = 100.0 if stmt.unit == "%" and ext.denominator else 1.0
    if below:
        edge = Interval(max(p.value.lo for p in pairs) * scale, ext.value.hi * scale)
    else:
        edge = Interval(ext.value.lo * scale, min(p.value.hi for p in pairs) * scale)
    allowed = bound_allowed(stmt)
    return ext, edge, (edge.lo < allowed.hi if below else edge.hi > allowed.lo)


def bound_allowed(stmt: Statement) -> Interval:
    """What a bound allows, in its unit: below b, ``[-inf, b + h]``; above b, ``[b - h, inf]`` (``h``:
    the half-width its stated precision allows, ``schema.stated_interval_of``: "below 2×" reads 2.0×)."""
    stated = stated_interval_of(stmt)
    bound = stmt.value or 0.0
    h = (stated.hi - stated.lo) / 2 if stated is not None else 0.0
    return Interval(-math.inf, bound + h) if stmt.relation == "below" else Interval(bound - h, math.inf)


def _bound(cf: ClaimsFile, stmt: Statement) -> Recomputed:
    over, bound = _bound_set(stmt)
    pairs, maybe, left_out = _bound_members(cf, stmt)
    match = ", ".join(over.match) or "nothing"
    left = f"; left out: {'; '.join(left_out)}" if left_out else ""
    if not pairs and not maybe:
        return Recomputed(
            stmt.id,
            None,
            None,
            [],
            "",
            NOT_CHECKABLE,
            reason=(
                f"no claim pair matches the set (numerator {_set_words(over.numerator)}, denominator "
                f"{_set_words(over.denominator)}, same {match}){left}"
            ),
        )
    _check_bound_unit(cf, stmt, pairs or maybe)
    below = stmt.relation == "below"
    everything = pairs + maybe
    reads = sorted({p.numerator for p in everything} | {p.denominator for p in everything if p.denominator})
    unsure = "; ".join(
        f"{p.numerator} / {p.denominator} = {p.value.text(3)}" for p in maybe
    )  # pairs with an unstated match field on a side
    _, edge_all, ok_all = _extreme(stmt, everything)
    ext, edge, ok = _extreme(stmt, pairs or everything)
    if maybe and (not pairs or ok != ok_all) and not (pairs and not ok):
        # the verdict depends on members whose `match` fields are not stated: not checkable
        return Recomputed(
            stmt.id,
            None,
            None,
            reads,
            "",
            NOT_CHECKABLE,
            pairs=pairs,
            reason=(
                f"the verdict depends on members whose {match} is not stated ({unsure}): with them the "
                f"{'max' if below else 'min'} is {_g(edge_all)} against the stated {stmt.relation} {bound:g}"
                + (f", without them {_g(edge)}" if pairs else "")
                + f"; fix: state {match} of those claims{left}"
            ),
        )
    what = f"{ext.numerator} / {ext.denominator}" if ext.denominator else ext.numerator
    arithmetic = (
        f"{'max' if below else 'min'} over {len(pairs)} pairs (same {match}) = {what} = "
        f"{_g(edge)}; stated {stmt.relation} {bound:g}"
    )
    if maybe:
        arithmetic += f"; the same with the pairs whose {match} is not stated ({unsure})"
    arithmetic += left
    return Recomputed(
        stmt.id,
        edge,
        edge,
        reads,
        arithmetic,
        CONSISTENT if ok else INCONSISTENT,
        None if ok else (edge.lo if below else edge.hi) - bound,
        pairs,
        allowed=bound_allowed(stmt),
    )


def _g(iv: Interval) -> str:
    """``0.6268`` for a point, ``0.6232–0.6268`` for an interval (4 significant digits)."""
    lo, hi = f"{iv.lo:.4g}", f"{iv.hi:.4g}"
    return lo if lo == hi else f"{lo}–{hi}"


def _combine(stmt: Statement, ivs: list[Interval], conv: str) -> tuple[Interval, str]:
    """The statement's kind applied to the cited intervals (one unit): (natural interval, arithmetic).

    Raises:
        Undefined: a ratio or percent change over a non-positive number."""
    a, b = ivs[0], ivs[-1]
    if stmt.kind == "ratio":
        natural = _divide(a, b, stmt.id)
        return natural, f"{stmt.of[0]} / {stmt.of[1]} = {a.text(4)} / {b.text(4)}{conv}"
    if stmt.kind == "percent_change":
        r = _divide(b, a, stmt.id, stmt.kind)
        natural = Interval((r.lo - 1) * 100, (r.hi - 1) * 100)
        return natural, (
            f"({stmt.of[1]} / {stmt.of[0]} - 1) x 100 = ({b.text(4)} / {a.text(4)} - 1) x 100{conv}"
        )
    if stmt.kind == "difference":
        return a - b, (f"{stmt.of[0]} - {stmt.of[1]} = {a.text(4)} - {b.text(4)}{conv}")
    total = functools.reduce(operator.add, ivs)
    k = len(ivs) if stmt.kind == "mean" else 1
    shown = ", ".join(i.text(4) for i in ivs)
    return total.scaled(1 / k), (f"{stmt.kind} of {', '.join(stmt.of)} = {stmt.kind}({shown}){conv}")


def cited_first(cf: ClaimsFile) -> list[Statement]:
    """Every statement of ``cf``, each after the statements it cites and otherwise in file order: a
    depth-first walk kept on a list, not on the call stack, so a chain of citations of any depth is
    ordered (a statement cited 1,000 deep raised ``RecursionError``).  A cited id that is a claim
    (``ClaimsFile.claim``) is read as the claim, as ``recompute_all`` reads it.

    Raises:
        RecomputeError: statements that cite each other in a cycle: ``file:line`` of the first, then
        each id in citation order with its line (``ClaimsFile.where``; the loader refuses a cycle
        first, so this guards a file built or changed in memory)."""
    by_id = {s.id: s for s in cf.statements}

    def cited(sid: str) -> list[str]:
        return [r for r in by_id[sid].of if r in by_id and cf.claim(r) is None]

    state: dict[str, int] = {}  # 1: on the walk, 2: ordered
    out: list[Statement] = []
    for root in cf.statements:
        if root.id in state:
            continue
        state[root.id] = 1
        walk = [(root.id, iter(cited(root.id)))]
        while walk:
            sid, todo = walk[-1]
            ref = next(todo, None)
            if ref is None:
                walk.pop()
                state[sid] = 2
                out.append(by_id[sid])
            elif state.get(ref) == 1:
                trail = [x for x, _ in walk]
                cycle = trail[trail.index(ref) :] + [ref]
                err = RecomputeError(
                    f"{cf.where(ref)}: statements cite each other in a cycle ("
                    + " -> ".join(f"{x} (line {cf.where(x).rpartition(':')[2]})" for x in cycle)
                    + "); fix: break the cycle (cite the claims themselves)"
                )
                err.located = True
                raise err
            elif ref not in state:
                state[ref] = 1
                walk.append((ref, iter(cited(ref))))
    return out


def recompute_all(cf: ClaimsFile) -> dict[str, Recomputed]:
    """Recompute every statement of ``cf``, each after the statements it cites (``cited_first``: any
    depth of citation).

    Returns id -> ``Recomputed``, in file order.

    Raises:
        RecomputeError: a sum/mean/difference over claims of different units, or a division by a
        non-positive number (names the statement); statements that cite each other in a cycle
        (``cited_first``); each message starts with the statement's ``file:line``.
    """
    out: dict[str, Recomputed] = {}
    by_stmt = {s.id: s for s in cf.statements}

    def value_of(ref: str) -> tuple[Interval | None, str | None, str]:
        """(natural interval, unit, why None)."""
        c = cf.claim(ref)
        if c is not None:
            iv = cited_interval(c)
            return iv, c.unit, "" if iv else f"{ref} states no number"
        r = out[ref]  # computed already: ``cited_first`` puts every cited statement first
        cited_stmt = by_stmt[ref]
        unit = (
            "%"
            if cited_stmt.kind == "percent_change"
            else (
                "x"
                if cited_stmt.kind in ("ratio", "bound") and not _derived_unit(cited_stmt)
                else cited_stmt.unit
            )
        )
        return r.natural, unit, "" if r.natural else f"{ref} is not checkable ({r.reason})"

    def one(stmt: Statement) -> Recomputed:
        if unit_key(stmt.unit) == "pp" and stmt.kind != "difference":
            raise RecomputeError(
                f"statement {stmt.id}: a {stmt.kind} stated in 'pp', but a percentage point is the unit of "
                "a difference of values in %; fix: state it in % or x, or as a difference"
            )
        if stmt.kind == "bound":
            try:
                return _bound(cf, stmt)
            except Undefined as e:  # a member over 0: this statement only is not checkable
                return Recomputed(stmt.id, None, None, [], "", NOT_CHECKABLE, reason=str(e))
        vals = [value_of(ref) for ref in stmt.of]
        missing = [why for iv, _, why in vals if iv is None]
        if missing:
            return Recomputed(
                stmt.id, None, None, list(stmt.of), "", NOT_CHECKABLE, reason="; ".join(missing)
            )
        units = [u for _, u, _ in vals]
        cited = [iv for iv, _, _ in vals if iv is not None]
        try:
            if _is_quotient(stmt, units):
                natural, arithmetic = _quotient(stmt, cited, units)
                in_unit = natural
            else:
                ivs = _on_one_scale(stmt, cited, units)
                # the unit every cited number is now in (the first cited unit), named where converted
                conv = "" if len({unit_key(u) for u in units}) < 2 else f" (in {units[0]})"
                natural, arithmetic = _combine(stmt, ivs, conv)
                in_unit = natural.scaled(_unit_factor(stmt))
        except Undefined as e:
            return Recomputed(stmt.id, None, None, list(stmt.of), "", NOT_CHECKABLE, reason=str(e))
        if stmt.kind in ("difference", "sum", "mean") and stmt.unit is not None:
            # a difference stated in another unit of the same quantity ("1.1 GiB more" of MB claims)
            try:
                in_unit = natural.scaled(factor(units[0], stmt.unit))
            except UnitError as e:
                raise RecomputeError(
                    f"statement {stmt.id}: stated in {stmt.unit!r}, but it {stmt.kind}s numbers in "
                    f"{units[0]!r} ({e}); fix: state it in a unit of the same quantity"
                ) from None
        arithmetic += f" = {in_unit.text(4)}{' %' if stmt.unit == '%' else ''}"
        stated = stated_interval_of(stmt)
        if stmt.value is not None:
            lo, hi = stmt.value, stmt.value
        elif stmt.range is not None:
            lo, hi = stmt.range
        if stated is None:
            return Recomputed(
                stmt.id,
                natural,
                in_unit,
                list(stmt.of),
                arithmetic,
                NOT_CHECKABLE,
                reason="no value stated: nothing to check the recomputed value against",
            )
        if in_unit.meets(stated):
            return Recomputed(
                stmt.id, natural, in_unit, list(stmt.of), arithmetic, CONSISTENT, allowed=stated
            )
        nearest = in_unit.hi if in_unit.hi < stated.lo else in_unit.lo
        target = lo if nearest < lo else hi
        return Recomputed(
            stmt.id,
            natural,
            in_unit,
            list(stmt.of),
            arithmetic,
            INCONSISTENT,
            nearest - target,
            reason=f"recomputed {in_unit.text(4)} lies outside the stated {stated.text(4)}",
            allowed=stated,
        )

    for stmt in cited_first(cf):
        try:
            out[stmt.id] = one(stmt)
        except RecomputeError as e:
            located = RecomputeError(f"{cf.where(stmt.id)}: {e}")
            located.located = True
            raise located from None
    return {s.id: out[s.id] for s in cf.statements}


def _set_words(fields: dict | None) -> str:
    """A bound's set as a reader writes it: ``{"metric": "share", "engine": "llama.cpp"}`` -> "metric
    share, engine llama.cpp" (the page showed Python's dict); "none" for no set."""
    if fields is None:
        return "none"
    return ", ".join(f"{k} {v}" for k, v in fields.items()) or "any claim"

"""A verdict's stated value, its recomputed value and their difference, as the audit shows them
(``benchbook audit`` on the terminal and the audit pages).

The difference is *recomputed − stated* in the verdict's unit, and relative to the stated value in %
(*recomputed ÷ stated − 1*).  Where either side is a range the difference is the interval of every
difference between a value of one and a value of the other (interval arithmetic):
``[r.lo − s.hi, r.hi − s.lo]`` and, for a stated range not reaching 0, the least and greatest
``(r − s) ÷ |s|`` over the ends (``relative``).
The stated value is taken as written (``57`` for "about 57%"), not as the interval its precision
stands for: the verdict (consistent or not) is what judges the precision; the difference shows how
far apart the two numbers are.  A number is printed with 3 decimals (1 for a %), never a non-zero as
0 (``numfmt.fmt_fixed``); a difference within floating-point rounding of the numbers (``NOISE``) is 0.
For a verdict in % the absolute difference is in percentage points (pp).  For a ``bound`` statement
("every X below 0.667") the stated value is a limit, not an estimate: the difference is the margin of
the set's extreme to it and no % is shown (``delta(v, bound=True)``).

An inconsistent verdict also has a size (``sized``, ``precision.miss``): how far its recomputed
interval lies outside what the stated precision allows (``allowed_lo``–``allowed_hi``), in its unit
and relative to the stated value, with a severity word (``params.yaml`` ``audit.severity``) and a
direction (overstatement: the stated value lies farther from "no effect" than the numbers give;
wrong direction: a gain stated where the numbers give a loss, or the reverse);
``consistency_text`` shows it beside the verdict: ``inconsistent (minor understatement: 0.227 pp,
0.7% of the stated value, beyond its precision)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..numfmt import fmt_fixed
from .precision import Interval, Miss, Severity, miss
from .schema import ClaimsFile
from .units import RATIO, quantity
from .verdicts import Verdict

#: printed where a side or the difference is absent
NONE = "—"
#: a difference at most this fraction of the numbers compared is the rounding of binary floating point
#: in the recomputation (about 1e-16 per operation: (11 / 10 − 1) × 100 = 10.000000000000009), not a
#: difference, and shows as 0; a real one stays (a log's avg_ts 75.625439 against 75.6254393: 4e-9)
NOISE = 1e-12


@dataclass(frozen=True)
class Delta:
    """The four cells of a verdict's comparison, as text: ``stated`` (``"57 %"``, ``"6.11–6.34 tok/s"``),
    ``recomputed`` (``"57.116 %"``), ``absolute`` (``"+0.116 pp"``, ``"-0.262 to -0.008 x"``) and
    ``relative`` (``"+0.2%"``); ``NONE`` for what is absent."""

    stated: str
    recomputed: str
    absolute: str
    relative: str


def _signed(x: float, decimals: int) -> str:
    text = fmt_fixed(float(x), decimals)
    return text if text.startswith("-") else "+" + text


def _span(lo: float, hi: float, decimals: int) -> str:
    """``+0.116`` for a point, ``-0.262 to -0.008`` for an interval."""
    a, b = _signed(lo, decimals), _signed(hi, decimals)
    return a if a == b else f"{a} to {b}"


def _exact(x: float, scale: float) -> float:
    """``x``, or 0.0 where it is within ``NOISE × scale`` of 0 (floating-point rounding)."""
    return 0.0 if abs(x) <= NOISE * scale else x


def _number(iv: Interval) -> str:
    """A number as stated, up to 10 significant digits (``32.95``, ``0.667``, a log's avg_ts
    ``75.625439``), a range as ``lo–hi``."""
    return f"{iv.lo:.10g}" if iv.lo == iv.hi else f"{iv.lo:.10g}–{iv.hi:.10g}"


def _interval(lo: float | None, hi: float | None) -> Interval | None:
    if lo is None or hi is None:
        return None
    return Interval(lo, hi)


def relative(recomputed: Interval, stated: Interval) -> Interval | None:
    """``(recomputed − stated) ÷ |stated|`` as an interval (fractions, not %): for a positive stated
    value ``recomputed ÷ stated − 1``; a negative one (a percent change of −31.4) is taken by its size.
    Over ranges it is the least and the greatest value at the four pairs of ends (the expression is
    monotonic in each side where ``stated`` does not reach 0), whatever the signs: a recomputed −3
    against a stated 2–4 is ``[−2.5, −1.75]``, not the reversed ``[−1.75, −2.5]``.  None when the
    stated value is 0 or a range that reaches 0 (nothing to be relative to).
    """
    if stated.lo <= 0 <= stated.hi:
        return None
    ends = [(r - s) / abs(s) for r in (recomputed.lo, recomputed.hi) for s in (stated.lo, stated.hi)]
    return Interval(min(ends), max(ends))


def delta(v: Verdict, bound: bool = False) -> Delta:
    """The comparison cells of verdict ``v`` (module doc).  The recomputed text is the verdict's own
    ``recomputed`` (rounded where it was computed); a verdict without numbers gives ``NONE`` cells;
    ``bound`` (``v`` is a ``bound`` statement): the relative cell is ``NONE``.

    >>> from benchbook.audit.verdicts import Reproducible
    >>> v = Verdict(claims_file="f", id="s", kind="statement", text="t", consistency="consistent",
    ...     recomputed="57.116", unit="%", stated_lo=57, stated_hi=57, recomputed_lo=57.1161,
    ...     recomputed_hi=57.1161, reproducible=Reproducible(here=False))
    >>> delta(v)
    Delta(stated='57 %', recomputed='57.116 %', absolute='+0.116 pp', relative='+0.2%')
    """
    unit = v.unit or ""
    stated, recomputed = _interval(v.stated_lo, v.stated_hi), _interval(v.recomputed_lo, v.recomputed_hi)
    stated_text = f"{v.stated_text or _number(stated)} {unit}".rstrip() if stated else NONE
    recomputed_text = f"{v.recomputed} {unit}".rstrip() if v.recomputed else NONE
    if stated is None or recomputed is None:
        return Delta(stated_text, recomputed_text, NONE, NONE)
    diff_unit = "pp" if unit.strip() == "%" else unit
    scale = max(abs(recomputed.lo), abs(recomputed.hi), abs(stated.lo), abs(stated.hi))
    lo, hi = _exact(recomputed.lo - stated.hi, scale), _exact(recomputed.hi - stated.lo, scale)
    absolute = f"{_span(lo, hi, 3)} {diff_unit}".rstrip()
    rel = None if bound else relative(recomputed, stated)
    relative_text = NONE if rel is None else _span(100 * _exact(rel.lo, 1), 100 * _exact(rel.hi, 1), 1) + "%"
    if rel is not None and " to " in relative_text:
        relative_text = relative_text.replace(" to ", "% to ", 1)
    return Delta(stated_text, recomputed_text, absolute, relative_text)


def reference(v: Verdict, cf: ClaimsFile | None = None) -> float | None:
    """The value of "no effect" a verdict's stated value is measured from for its direction: 1 for a
    ratio in x, 100 for one in %, None for a bound (no direction), 0 for everything else (a value, a
    change in %, a difference, a sum)."""
    stmt = cf.statement(v.id) if cf is not None and v.kind == "statement" else None
    if stmt is None:
        return 0.0
    if stmt.kind == "bound":
        return None
    q = quantity(stmt.unit or "x")
    if stmt.kind == "ratio" and (q is None or q.dimension == RATIO):
        return 100.0 if (stmt.unit or "").strip() == "%" else 1.0
    return 0.0


def miss_of(v: Verdict, severity: Severity, ref: float | None = 0.0) -> Miss | None:
    """The size of an inconsistent verdict's miss (``precision.miss``) from its record: recomputed
    ``recomputed_lo``–``hi`` against ``allowed_lo``–``hi`` (a null end: open), relative to the stated
    value ``stated_lo``–``hi``; None where a side is absent or they meet."""
    if v.recomputed_lo is None or v.recomputed_hi is None or v.stated_lo is None or v.stated_hi is None:
        return None
    if v.allowed_lo is None and v.allowed_hi is None:
        return None
    allowed = Interval(
        -math.inf if v.allowed_lo is None else v.allowed_lo,
        math.inf if v.allowed_hi is None else v.allowed_hi,
    )
    return miss(
        Interval(v.recomputed_lo, v.recomputed_hi), allowed, Interval(v.stated_lo, v.stated_hi), severity, ref
    )


def sized(v: Verdict, cf: ClaimsFile | None, severity: Severity) -> Verdict:
    """``v`` with ``miss``, ``miss_relative`` and ``severity`` set where it is inconsistent (module doc)."""
    if v.consistency != "inconsistent":
        return v
    m = miss_of(v, severity, reference(v, cf))
    if m is None:
        return v
    return v.model_copy(update={"miss": m.absolute, "miss_relative": m.relative, "severity": m.word})


def consistency_text(v: Verdict) -> str:
    """The consistency with the size of an inconsistency: ``consistent``; ``inconsistent (material
    overstatement: 0.077 x, 3.9% of the stated value, beyond its precision)``."""
    if v.severity is None or v.miss is None or v.miss_relative is None:
        return v.consistency
    unit = "pp" if (v.unit or "").strip() == "%" else (v.unit or "")
    rel = (
        "" if math.isinf(v.miss_relative) else f", {fmt_fixed(100 * v.miss_relative, 1)}% of the stated value"
    )
    amount = f"{fmt_fixed(v.miss, 3)} {unit}".rstrip()
    return f"{v.consistency} ({v.severity}: {amount}{rel}, beyond its precision)"

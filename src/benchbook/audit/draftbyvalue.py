"""Sides of a relating phrase found by value: the one pair of a post's claims whose values give the
stated number as the post would have written it (issue 29's statements).

A post often states its rates first (a table, bullets of tool output) and relates them later in
words that name nothing the claims carry ("k=2 is 36% faster than vanilla", "the 7.24× gain"): the
labels are run names, not conditions.  What still ties the phrase to its sides is arithmetic: the
stated number is the pair's ratio or change, rounded (or cut) to the digits written.  A pair is
taken only where it is the single pair that fits and the digits are precise enough for a fit to
mean something ("2×" fits half the pairs of a table; "36%" or "7.24×" few).

Pure functions over plain values; ``draftsides.Sides.relation`` supplies the candidates (the claims
of the phrase's part of the post, one metric) and writes the statement.  ``first_repeat``: a side
the post states twice is cited where it is stated first (found by value too).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .draftcore import DraftCore

#: the widest a stated number's interval (``stated_interval``) may be, as a fraction of the
#: multiple it states, for a fit to pick sides: "36%" (1.355–1.37: 1.1%), "4%" (1.4%) and "7.24×"
#: (0.2%) are precise enough; "2.3×" (2.25–2.4: 6.5%) and "2×" (1.5–3: 75%) fit too many pairs
MAX_WIDTH = 0.03
#: the widest interval a fit may have among pairs with a side the phrase's words name ("on the 70B
#: model ... 2.2x faster": 2.15–2.3, 6.8%; "1.5x": 10%); "2×" (75%) and "3×" (50%) never fit
NAMED_WIDTH = 0.25
#: the widest a multiple's interval may be where only two values are there to fit it ("5x": 4.5–6,
#: 0.3 of it; "2x": 0.5): one order of the one pair fits or none does
COARSE_WIDTH = 0.5


def decimals_of(text: str) -> int:
    """The digits after the point of a number as written (``"7.24"`` -> 2, ``"36"`` -> 0)."""
    return len(text.split(".", 1)[1]) if "." in text else 0


def stated_interval(stated: float, decimals: int, about: bool) -> tuple[float, float]:
    """The values that a post writing ``stated`` with ``decimals`` digits after the point may have
    computed: rounded (half a unit of the last digit either way) or cut (up to one unit away from
    zero: 28.8% written "28%"), one unit either way more when ``about`` ("~36%").  (low, high),
    both included."""
    unit = 10.0**-decimals
    lo, hi = abs(stated) - unit / 2, abs(stated) + unit
    if about:
        lo, hi = lo - unit, hi + unit
    return (lo, hi) if stated >= 0 else (-hi, -lo)


def as_multiple(kind: str, value: float) -> float:
    """A ratio as is, a percent change as the multiple it makes (+36% -> 1.36)."""
    return 1 + value / 100 if kind == "percent_change" else value


def implied(kind: str, a: float, b: float) -> float | None:
    """What a statement of ``kind`` over sides ``[a, b]`` computes to: ``ratio`` a / b,
    ``percent_change`` from a to b in %, ``difference`` a - b; None where a side of a ratio or
    change is 0."""
    if kind == "difference":
        return a - b
    if a == 0 or b == 0:
        return None
    return a / b if kind == "ratio" else (b / a - 1) * 100


def fitting_pair(
    kind: str,
    stated: float,
    decimals: int,
    about: bool,
    values: list[tuple[str, float]],
    allowed: Callable[[str, str], bool] = lambda _a, _b: True,
    max_width: float = MAX_WIDTH,
) -> list[str] | None:
    """The sides ``[a, b]`` (ids of ``values``: (id, value in one unit), post order) of the one
    ordered pair whose ``implied`` value lies in ``stated``'s interval (``stated_interval``), or None:
    no pair, several (the digits do not tell them apart), or digits too coarse for a fit to mean
    anything (wider than ``max_width``: ``MAX_WIDTH``, or ``NAMED_WIDTH`` among named pairs).
    ``kind`` is ``ratio``, ``percent_change`` or ``difference`` (its size, in the values' unit:
    "1.2 GB more" fits 11.6 and 10.4); ``stated`` signed (a drop is negative; a ratio below 1 a
    slowdown).  Values stated twice count once (the first);
    ``allowed(a, b)`` rules out pairs that are no comparison (``Sides.sides_by_value``: sides
    differing in more than one condition)."""
    if kind not in ("ratio", "percent_change", "difference"):
        return None
    lo, hi = stated_interval(stated, decimals, about)
    seen: set[float] = set()
    unique = []
    for cid, v in values:
        if v not in seen:
            seen.add(v)
            unique.append((cid, v))
    # (digits too coarse tell nothing among many values; between the only two there are, one
    # order alone can fit: "~70 tok/s … 14 tok/s … a 5x speedup", ``COARSE_WIDTH``)
    coarse_ok = len(unique) == 2 and kind == "ratio"
    if kind == "difference":
        # its digits against the values it is a difference of (0.15 GB of 11.6 GB), not against
        # itself: a difference is small beside its sides
        scale = max((abs(v) for _, v in values), default=0.0)
        if scale <= 0 or (hi - lo) / scale > max_width:
            return None
    else:
        mid = as_multiple(kind, stated)
        width = (as_multiple(kind, hi) - as_multiple(kind, lo)) / mid if mid > 0 else 0.0
        if mid <= 0 or width > (COARSE_WIDTH if coarse_ok else max_width):
            return None
    found = []
    for a, va in unique:
        for b, vb in unique:
            if a == b or not allowed(a, b):
                continue
            got = implied(kind, va, vb)
            if got is not None and lo <= got <= hi:
                found.append([a, b])
    return found[0] if len(found) == 1 else None


def same_name(a: object, b: object) -> bool:
    """Whether two condition values may name the same thing: equal, or two names one of whose
    words holds all the other's ("35B" and "Qwen3.6 35B", spelled apart in two tables)."""
    if a == b:
        return True
    if not (isinstance(a, str) and isinstance(b, str)):
        return False
    wa, wb = set(re.findall(r"[\w.]+", a.lower())), set(re.findall(r"[\w.]+", b.lower()))
    return bool(wa) and bool(wb) and (wa <= wb or wb <= wa)


def first_repeat(core: DraftCore, cid: str) -> str:
    """The claim a statement's side ``cid`` repeats: the first claim drafted before it (in
    ``core``) with the same metric, digits and unit whose conditions agree with its own on every
    condition both state (``same_name``: a table restating a row of an earlier table, "74 tok/s"
    with the same settings) on another line; SOURCES.md's convention, "a number the post repeats
    with the same digits cites the first claim".  A claim of the same digits under another setting
    (a condition differing), or on the same line ("76.9 / 65.4 / 76.9, overall 76.9": a prompt's
    and the median), is no repeat; else ``cid``."""
    e = core.claims.get(cid)
    if e is None:
        return cid
    shared = core.groups[e.group].fields if e.group in core.groups else {}
    value = e.fields.get("value") or "–".join(e.fields.get("range") or ())
    same = core.by_value.get((str(value), e.fields.get("unit") or shared.get("unit")), [])
    if cid not in same:
        return cid
    metric, mine, line = core.metric_of_claim(cid), core.flat_conditions(cid), e.fields.get("source_line")
    for c in same[: same.index(cid)]:
        if core.claims[c].fields.get("source_line") == line:
            continue  # "76.9 / 65.4 / 76.9, overall 76.9": one line's numbers are its own
        theirs = core.flat_conditions(c)
        if core.metric_of_claim(c) == metric and all(
            same_name(theirs[k], mine[k]) for k in theirs.keys() & mine.keys()
        ):
            return c
    return cid


def mean_run(values: list[float], stated: str, about: bool) -> int:
    """How many of the last ``values`` (in the post's order) a number ``stated`` as their average
    averages: the longest run ending at the last, of two or more, whose mean rounds to it (within
    half a unit of its last digit; 5% for ``about``: "On average that's a 1.6x speedup" after
    multiples 2.09, 1.88, 1.43, 1.12, mean 1.63).  0 where none does."""
    try:
        value = float(stated)
    except ValueError:
        return 0
    step = 10.0 ** -(len(stated.split(".")[1]) if "." in stated else 0)
    tol = value * 0.05 if about else step / 2 + 1e-9
    for k in range(len(values), 1, -1):
        if abs(sum(values[-k:]) / k - value) <= tol:
            return k
    return 0

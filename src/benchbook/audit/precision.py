"""Stated precision: the interval of true values a stated number stands for.

A number written with ``d`` decimals (``31.4``: d = 1; ``150.0``: d = 1; ``7``: d = 0) stands for
every value that rounds to it: ``value ± 0.5·10^-d``.  "About" (``about: true`` in a claims file:
"about", "~", "roughly") widens that to one whole unit of the last digit, ``value ± 10^-d``: "about
57%" stands for 56–58%, "about 7 times" for 6–8.  A stated range ``[lo, hi]`` stands for
``[lo - h, hi + h]``, each end with its own decimals.  Decimals are counted from the number as
written in the YAML text (the loader keeps it); ``decimals:`` in the file overrides the count.  A
number written in thousands has negative decimals, the place of its last digit: "10k tok/s" is
``value: 10000, decimals: -3`` and stands for 9,500–10,500; "1.5k" is -2, 1,450–1,550 (``written``
prints them so again).

Two readings refine the digits (``interval_of``):

* a count of tokens written as a whole number (unit ``tokens``/``token``, no decimals, not "about":
  "850 tokens") is exact: a count has no fraction to round away;
* a multiple written as a whole number (unit ``x``/``×``, no decimals, not "about": "2×", "twice",
  "7 times") is read with one decimal more (``WHOLE_MULTIPLE_DECIMALS``): "2×" stands for 1.95–2.05,
  as "+100%" stands for 99.5–100.5%.  Read as ± half its only digit, "2×" would allow 1.5–2.5, a
  tolerance of ±25% that the same claim written in percent never gets; a writer who rounded 1.83 to a
  whole multiple writes "about 2×" (1–3, ± one unit of its last digit as for every "about").

Every cited number is such an interval, and so is what is computed from them (interval arithmetic,
``recompute``); a statement is consistent iff its recomputed interval meets its stated one.  How far
an inconsistent one lies outside (``Miss``) and how bad that is (``Severity``, ``params.yaml``
``audit.severity``) are defined here too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..numfmt import fmt_fixed

#: decimals a multiple written as a whole number ("2×") is read with (module doc)
WHOLE_MULTIPLE_DECIMALS = 1
#: units of a multiple (``x``, ``×``; lower case) and of a count of tokens
MULTIPLE_UNITS = frozenset({"x", "×"})
COUNT_UNITS = frozenset({"tokens", "token"})


@dataclass(frozen=True)
class Interval:
    """A closed interval ``[lo, hi]`` in one unit; ``lo == hi`` for a point."""

    lo: float
    hi: float

    @property
    def mid(self) -> float:
        return (self.lo + self.hi) / 2

    def overlaps(self, other: Interval) -> bool:
        return self.lo <= other.hi and other.lo <= self.hi

    def meets(self, other: Interval) -> bool:
        """Whether the two intervals share a value (``overlaps``)."""
        return self.overlaps(other)

    def gap(self, other: Interval) -> float:
        """The distance between the two intervals: 0 where they meet, else the space between the
        nearest ends (``[1, 2]`` and ``[2.5, 3]``: 0.5)."""
        return max(other.lo - self.hi, self.lo - other.hi, 0.0)

    def __add__(self, other: Interval) -> Interval:
        return Interval(self.lo + other.lo, self.hi + other.hi)

    def __sub__(self, other: Interval) -> Interval:
        return Interval(self.lo - other.hi, self.hi - other.lo)

    def scaled(self, factor: float) -> Interval:
        a, b = self.lo * factor, self.hi * factor
        return Interval(min(a, b), max(a, b))

    def text(self, digits: int = 3) -> str:
        """``"0.571"`` for a point, ``"6.74–6.99"`` for a range, ``"-11.504 to -11.483"`` for one with
        a negative end (an en dash beside a minus sign read as "-11.504–-11.483") (``digits``
        decimals; a non-zero end that would print as 0 gets its first significant digit,
        ``numfmt.fmt_fixed``)."""
        lo, hi = fmt_fixed(float(self.lo), digits), fmt_fixed(float(self.hi), digits)
        if self.lo == self.hi:
            return lo
        return f"{lo} to {hi}" if hi.startswith("-") or lo.startswith("-") else f"{lo}–{hi}"


_NUMBER = re.compile(r"^[+-]?(?=\.?\d)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$")


def decimals_of(text: str) -> int | None:
    """Decimals of a number as written: ``"31.4"`` -> 1, ``"150.0"`` -> 1, ``"7"`` -> 0,
    ``".5"`` -> 1, ``"2.5e3"`` -> 0 (``2500``), ``"1e-3"`` -> 3; None when ``text`` is not a plain
    number."""
    m = _NUMBER.match(text.strip().replace("_", ""))
    if not m:
        return None
    frac = len(m.group(2) or "")
    exp = int(m.group(3) or 0)
    return max(frac - exp, 0)


def half_width(decimals: int | None, about: bool) -> float:
    """Half-width of the interval a stated number stands for: ``0.5·10^-decimals``, doubled for
    "about"; 0 when the decimals are unknown (an exact number)."""
    if decimals is None:
        return 0.0
    h = 0.5 * 10.0 ** (-decimals)
    return 2 * h if about else h


def stated_interval(lo: float, hi: float, decimals: int | None, about: bool) -> Interval:
    """The interval a stated value (``lo == hi``) or stated range stands for (module doc)."""
    h = half_width(decimals, about)
    return Interval(lo - h, hi + h)


def _read_decimals(decimals: int | None, about: bool, unit: str | None) -> int | None:
    """The decimals a number is read with: a whole count of tokens is exact (None), a whole multiple
    gets ``WHOLE_MULTIPLE_DECIMALS`` (module doc); else ``decimals`` as written."""
    key = (unit or "").strip().lower()
    if about or decimals not in (0, None):
        return decimals
    if key in COUNT_UNITS:
        return None
    if key in MULTIPLE_UNITS and decimals == 0:
        return WHOLE_MULTIPLE_DECIMALS
    return decimals


def interval_of(
    value: float | None,
    range_: tuple[float, float] | None,
    decimals: int | None,
    range_decimals: tuple[int, int] | None,
    about: bool,
    unit: str | None,
) -> Interval | None:
    """The interval of true values a stated ``value`` or ``range`` (in ``unit``) stands for: ± half a
    unit of the last digit, one unit with ``about``; each end of a range with its own decimals ("6.1
    to 6.34": ``[6.05, 6.345]``); a whole count of tokens exact and a whole multiple read with one
    decimal more (module doc).  None when neither is given.

    >>> interval_of(850, None, 0, None, False, "tokens"), interval_of(2, None, 0, None, False, "x")
    (Interval(lo=850.0, hi=850.0), Interval(lo=1.95, hi=2.05))
    """
    if value is not None:
        h = half_width(_read_decimals(decimals, about, unit), about)
        return Interval(value - h, value + h)
    if range_ is None:
        return None
    lo_dec, hi_dec = range_decimals or (decimals, decimals)
    return Interval(
        range_[0] - half_width(_read_decimals(lo_dec, about, unit), about),
        range_[1] + half_width(_read_decimals(hi_dec, about, unit), about),
    )


# --- the size of an inconsistency ------------------------------------------------------------------

SeverityWord = Literal["minor", "material", "major"]
Direction = Literal["overstatement", "understatement", "wrong direction"]


class Severity(BaseModel):
    """``params.yaml`` ``audit.severity``: how far outside its allowed interval an inconsistent value
    may lie, relative to the stated value, and still be called "minor" (below ``minor``) or
    "material" (below ``material``); at or beyond ``material`` it is "major".  Fractions: 0.02 = 2%."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    minor: float = Field(default=0.02, gt=0, description="below this fraction of the stated value: minor")
    material: float = Field(default=0.10, gt=0, description="below this: material; at or above: major")

    @model_validator(mode="after")
    def _ordered(self) -> Severity:
        if self.material <= self.minor:
            raise ValueError(
                f"material: {self.material} is not above minor {self.minor}; fix: write minor < material"
            )
        return self

    def word(self, relative: float) -> SeverityWord:
        """ "minor", "material" or "major" for a miss of ``relative`` (a fraction of the stated value)."""
        if relative < self.minor:
            return "minor"
        return "material" if relative < self.material else "major"


@dataclass(frozen=True)
class Miss:
    """How far a recomputed interval lies outside the interval a stated value allows.

    ``absolute``: the gap between the two intervals, in the statement's unit (percentage points for
    a %); ``relative``: that gap ÷ the size of the stated value (of the stated end nearest the
    recomputed value; of the recomputed end nearest the stated one where the stated value is 0);
    ``direction``: "overstatement" where the stated value lies farther from ``reference`` (no effect:
    0 for values, changes and differences, 1 for a multiple, 100 for a ratio in %) than the recomputed
    one, "understatement" where it lies nearer, "wrong direction" where the allowed and the recomputed
    intervals lie wholly on opposite sides of ``reference`` (a gain stated where the numbers give a
    loss: "3% faster" for 100 → 80 tok/s), None for a bound; ``severity``: ``Severity.word``."""

    absolute: float
    relative: float
    direction: Direction | None
    severity: SeverityWord

    def text(self, unit: str | None) -> str:
        """``"minor understatement: 0.227 pp (0.7% of the stated value) beyond its precision"``."""
        u = "pp" if (unit or "").strip() == "%" else (unit or "")
        return (
            f"{self.word}: {fmt_fixed(self.absolute, 3)} {u}".rstrip()
            + f" ({fmt_fixed(100 * self.relative, 1)}% of the stated value) beyond its precision"
        )

    @property
    def word(self) -> str:
        """The severity with the direction: ``"minor understatement"``, ``"major, wrong direction"``,
        ``"major"`` (a bound)."""
        if self.direction == "wrong direction":
            return f"{self.severity}, {self.direction}"
        return f"{self.severity} {self.direction}" if self.direction else self.severity


def miss(
    recomputed: Interval,
    allowed: Interval,
    stated: Interval,
    severity: Severity,
    reference: float | None = 0.0,
) -> Miss | None:
    """The size of the miss of ``recomputed`` against ``allowed`` (the interval ``stated``, the value
    or range as written, allows), or None where they meet (``Miss``; ``reference`` None: no
    direction, a bound; the allowed and recomputed intervals on opposite sides of ``reference``: the
    "wrong direction").  Infinite ends of ``allowed`` (a bound: "below 0.667") are allowed."""
    gap = recomputed.gap(allowed)
    if gap <= 0:
        return None
    below = recomputed.hi < allowed.lo
    near_stated = stated.lo if below else stated.hi
    near_recomputed = recomputed.hi if below else recomputed.lo
    size = abs(near_stated) or abs(near_recomputed)
    relative = gap / size if size and math.isfinite(size) else math.inf
    direction: Direction | None = None
    if reference is not None and (
        (allowed.lo > reference and recomputed.hi < reference)
        or (allowed.hi < reference and recomputed.lo > reference)
    ):
        direction = "wrong direction"
    elif reference is not None:
        farther = abs(near_stated - reference) > abs(near_recomputed - reference)
        direction = "overstatement" if farther else "understatement"
    return Miss(gap, relative, direction, severity.word(relative))


def written(
    value: float | None,
    rng: tuple[float, float] | None,
    decimals: int | None,
    range_decimals: tuple[int, int] | None,
) -> str | None:
    """A stated number with the digits it was written with: ``0.70`` stays ``"0.70"`` (``f"{v:g}"``
    prints ``0.7``, which stands for 0.65–0.75, not 0.695–0.705), a range ``"6.1–6.34"`` each end with
    its own; None without a number, and ``"{v:.10g}"`` where the decimals are unknown (an exact number)."""

    def one(v: float, d: int | None) -> str:
        if d is not None and d < 0:
            # written in thousands or millions ("10k", "1.5k", "2M": decimals -3, -2, -6)
            power, letter = (6, "M") if d <= -6 else (3, "k")
            return f"{v / 10**power:.{max(0, d + power)}f}{letter}"
        return f"{v:.10g}" if d is None else f"{v:.{d}f}"

    if value is not None:
        return one(value, decimals)
    if rng is not None:
        lo_d, hi_d = range_decimals or (decimals, decimals)
        return f"{one(rng[0], lo_d)}–{one(rng[1], hi_d)}"
    return None

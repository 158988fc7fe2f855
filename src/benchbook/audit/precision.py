"""Stated precision: the interval of true values a stated number stands for.

A number written with ``d`` decimals (``31.4``: d = 1; ``150.0``: d = 1; ``7``: d = 0) stands for
every value that rounds to it: ``value ± 0.5·10^-d``.  "About" (``about: true`` in a claims file:
"about", "~", "roughly") widens that to one whole unit of the last digit, ``value ± 10^-d``: "about
57%" stands for 56–58%, "about 7 times" for 6–8.  A stated range ``[lo, hi]`` stands for
``[lo - h, hi + h]``.  Decimals are counted from the number as written in the YAML text (the loader
keeps it); ``decimals:`` in the file overrides the count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..numfmt import fmt_fixed


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

    def scaled(self, factor: float) -> Interval:
        a, b = self.lo * factor, self.hi * factor
        return Interval(min(a, b), max(a, b))

    def text(self, digits: int = 3) -> str:
        """``"0.571"`` for a point, ``"6.74–6.99"`` for a range (``digits`` decimals; a non-zero end
        that would print as 0 gets its first significant digit, ``numfmt.fmt_fixed``)."""
        lo, hi = fmt_fixed(float(self.lo), digits), fmt_fixed(float(self.hi), digits)
        return lo if self.lo == self.hi else f"{lo}–{hi}"


_NUMBER = re.compile(r"^[+-]?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$")


def decimals_of(text: str) -> int | None:
    """Decimals of a number as written: ``"31.4"`` -> 1, ``"150.0"`` -> 1, ``"7"`` -> 0,
    ``"2.5e3"`` -> 0 (``2500``), ``"1e-3"`` -> 3; None when ``text`` is not a plain number."""
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

"""One formatter for every number a reader sees: value and interval, rounded by one rule.

Rule (used by the pages, the chart tooltips and ``benchbook numbers``):

* with a 95% interval ``[low, high]`` of non-zero width: the value and both bounds are rounded to the
  decimal place of the second significant digit of the half-width ``(high - low) / 2``, and shown
  compactly as ``value [low, high]``: 120.97 with [117.6, 125.3] (half-width 3.85 -> 3.9, one
  decimal) reads ``121.0 [117.6, 125.3]``;
* without an interval (or a zero-width one): three significant digits (``0.0123``, ``1.50``,
  ``17,300``); an ``int`` value is an exact count and is shown whole (``1,612,544``);
* thousands separated by ``,``; never scientific notation; no ``-0``; a value or bound that is not 0
  is never shown as 0: where the common decimal place would round it to zero it gets its first
  significant digit (``0.04 [0.001, 3.0]``, not ``0.0 [0.0, 3.0]``).

Why two digits of the half-width: the second digit of an uncertainty is the last one that carries
information (JCGM 100:2008, GUM §7.2.6: "it may be necessary to retain only two significant digits"
of an uncertainty; the value is rounded to the same place).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal

#: Significant digits of the interval's half-width that fix the decimal place.
HALF_WIDTH_DIGITS = 2
#: Significant digits of a value shown without an interval.
VALUE_DIGITS = 3


def decimal_place(x: float, digits: int) -> int:
    """Decimals that keep ``digits`` significant digits of ``x`` (negative: round to tens, hundreds...).

    >>> decimal_place(3.85, 2), decimal_place(6908.56, 2), decimal_place(0.0123, 3)
    (1, -2, 4)

    Raises:
        ValueError: ``x`` is zero or not finite (it has no significant digits).
    """
    if not math.isfinite(x) or x == 0:
        raise ValueError(f"decimal_place: {x!r} has no significant digits")
    exponent = Decimal(repr(abs(x))).adjusted()  # exact decimal exponent, no float log10 edge cases
    place = digits - 1 - exponent
    # rounding can carry into a new digit (9.96 -> 10.0 at 3 digits): re-check on the rounded value
    rounded = Decimal(repr(abs(x))).quantize(Decimal(1).scaleb(-place), rounding=ROUND_HALF_EVEN)
    if rounded.adjusted() > exponent:
        place -= 1
    return place


def round_to(x: float, place: int) -> str:
    """``x`` rounded half-to-even at ``place`` decimals, with ``,`` thousands separators.

    >>> round_to(17271.4, -2), round_to(4.875, 1), round_to(-0.04, 1)
    ('17,300', '4.9', '0.0')
    """
    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-place), rounding=ROUND_HALF_EVEN)
    if q == 0:
        q = abs(q)
    return f"{q:,.{max(place, 0)}f}"


def fmt_value(value: float | int) -> str:
    """A value without an interval: three significant digits; an ``int`` whole (an exact count).

    >>> fmt_value(1612544), fmt_value(1.5), fmt_value(0.0), fmt_value(17271.4)
    ('1,612,544', '1.50', '0', '17,300')
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"fmt_value: {value!r} is not a number")
    if isinstance(value, int):
        return f"{value:,}"
    if not math.isfinite(value):
        raise ValueError(f"fmt_value: {value!r} is not a finite number")
    if value == 0:
        return "0"
    return round_to(value, decimal_place(value, VALUE_DIGITS))


def fmt_interval(value: float, ci: tuple[float, float] | list[float] | None) -> str:
    """``value [low, high]`` rounded at the second significant digit of the half-width; the value
    alone (``fmt_value``) without an interval or with a zero-width one.

    >>> fmt_interval(120.97, (117.6, 125.3))
    '121.0 [117.6, 125.3]'
    >>> fmt_interval(17271.4, (17271.4 * 0.6, 17271.4 * 1.4))   # ± 40%
    '17,300 [10,400, 24,200]'

    Raises:
        ValueError: the interval is not ``[low, high]`` with ``low <= high``.
    """
    if ci is None:
        return fmt_value(value)
    if len(ci) != 2 or not ci[0] <= ci[1]:
        raise ValueError(f"fmt_interval: interval {ci!r} is not [low, high]")
    low, high = float(ci[0]), float(ci[1])
    half = (high - low) / 2
    if half == 0:
        return fmt_value(value)
    place = decimal_place(half, HALF_WIDTH_DIGITS)
    shown = (never_zero(float(value), place), never_zero(low, place), never_zero(high, place))
    return f"{shown[0]} [{shown[1]}, {shown[2]}]"


def never_zero(x: float, place: int) -> str:
    """``round_to(x, place)``, except that a non-zero ``x`` that would print as zero (``0.04`` at one
    decimal: ``0.0``) is printed to its first significant digit (``0.04``): a value or bound is never
    shown as 0 when it is not, and its sign is kept (``-0.001``).

    >>> never_zero(0.04, 1), never_zero(0.3, 0), never_zero(2.34, 1), never_zero(0.0, 1)
    ('0.04', '0.3', '2.3', '0.0')
    """
    text = round_to(x, place)
    if x != 0 and math.isfinite(x) and Decimal(text.replace(",", "")) == 0:
        return round_to(x, decimal_place(x, 1))
    return text


def fmt_fixed(x: float | int | None, decimals: int, missing: str = "–") -> str:
    """``x`` with ``decimals`` digits after the point for a table column of one precision
    (``fmt_fixed(3.14159, 2)`` = ``"3.14"``, no thousands separator), never printing a non-zero as 0
    (``fmt_fixed(0.001, 2)`` = ``"0.001"``, as ``never_zero``); an ``int`` whole; ``missing`` for None."""
    if x is None:
        return missing
    if isinstance(x, bool) or not isinstance(x, float):
        return str(x)
    text = f"{x:.{decimals}f}"
    if x != 0 and math.isfinite(x) and float(text) == 0:
        return round_to(x, decimal_place(x, 1))
    return text


def fmt_number(num: dict, *, unit: bool = True) -> str:
    """A registry entry (``value``, ``ci95``, ``unit``) as the reader sees it: ``121.0 [117.6, 125.3] tok/s``
    (``unit=False``: without the unit, for a table whose header names it)."""
    text = fmt_interval(num["value"], num.get("ci95"))
    u = num.get("unit") or ""
    return f"{text} {u}" if unit and u else text


def counted(n: int, noun: str) -> str:
    """A count with its noun in the singular or the plural: ``1 claim``, ``0 claims``, ``2 claims``
    (English: an ``s`` for every count but one; ``noun`` is a regular noun, "todo statement" included)."""
    return f"{n} {noun}{'s' * (n != 1)}"

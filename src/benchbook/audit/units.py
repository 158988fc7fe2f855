"""Conversion between the units of one family, so that a ratio, percent change, difference, sum or mean
of claims stated in different units (``1.2 GiB`` and ``599 MB``, ``1.7 s`` and ``850 ms``) is computed
on one scale.

Factors to the family's base unit (lower-case unit names, as ``schema.UNIT_FAMILIES`` lists them):

* size, base bytes: ``b`` 1; binary ``kib mib gib tib`` 1024^1..4 (IEC 80000-13); decimal ``kb mb gb
  tb`` 1000^1..4 (SI prefixes; a "MB" is read as 10^6 bytes, as the SI defines it);
* time, base seconds: ``ns us µs ms s min h`` (1e-9, 1e-6, 1e-6, 1e-3, 1, 60, 3600);
* rate, base tokens per second: ``tok/s t/s tokens/s token/s tps`` 1; ``tok/ms`` 1000; ``it/s``
  (iterations, not tokens) has no factor and converts to nothing else;
* ratio, base a fraction: ``x × ratio`` 1, ``%`` 0.01;
* tokens: ``tokens token`` 1 (``tokens/step`` is a different quantity and converts to nothing else).

Units of different families, or a unit with no factor, are never converted: ``common_scale`` raises.
"""

from __future__ import annotations

from dataclasses import dataclass

from .schema import family_of

#: unit (lower case) -> factor to its family's base unit (module doc)
FACTORS: dict[str, float] = {
    "b": 1.0,
    "kib": 1024.0,
    "mib": 1024.0**2,
    "gib": 1024.0**3,
    "tib": 1024.0**4,
    "kb": 1e3,
    "mb": 1e6,
    "gb": 1e9,
    "tb": 1e12,
    "ns": 1e-9,
    "us": 1e-6,
    "µs": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "min": 60.0,
    "h": 3600.0,
    "tok/s": 1.0,
    "t/s": 1.0,
    "tokens/s": 1.0,
    "token/s": 1.0,
    "tps": 1.0,
    "tok/ms": 1000.0,
    "x": 1.0,
    "×": 1.0,
    "ratio": 1.0,
    "%": 0.01,
    "tokens": 1.0,
    "token": 1.0,
}


class UnitError(ValueError):
    """Units that cannot be put on one scale; the message names them and says why."""


@dataclass(frozen=True)
class Scale:
    """The factors that put each cited number on the scale of ``unit`` (the first cited unit):
    ``factors[i]`` multiplies the i-th number; ``converted`` is True when any factor is not 1."""

    unit: str | None
    factors: tuple[float, ...]

    @property
    def converted(self) -> bool:
        return any(f != 1.0 for f in self.factors)


def _key(unit: str | None) -> str | None:
    return unit.strip().lower() if unit is not None else None


def factor(unit: str | None, to: str | None) -> float:
    """The factor that turns a number in ``unit`` into ``to`` (``factor("GiB", "MB")`` = 1073.741824).

    Raises:
        UnitError: the units are of different families or one of them has no factor (``it/s``,
        ``tokens/step``, an unknown unit), unless both are the same text.
    """
    a, b = _key(unit), _key(to)
    if a == b:
        return 1.0
    if a not in FACTORS or b not in FACTORS or family_of(a) != family_of(b):
        raise UnitError(f"{unit!r} and {to!r} are not units of one quantity")
    return FACTORS[a] / FACTORS[b]


def common_scale(units: list[str | None]) -> Scale:
    """Factors that put numbers stated in ``units`` on the scale of the first unit.

    Raises:
        UnitError: two units cannot be converted (``factor``).
    """
    first = units[0] if units else None
    return Scale(first, tuple(factor(u, first) for u in units))

"""Units by dimension, so that numbers are combined on one scale (``1.2 GiB`` and ``599 MB``, ``1.7 s``
and ``850 ms``) and a quotient has the dimension of its parts (a size ÷ a rate of bytes is a time,
tokens ÷ seconds a rate of tokens).

A unit is a ``Quantity``: a dimension, the exponents of (bytes, seconds, tokens), and the factor to
the base units of that dimension.  The base units and their prefixes:

Case carries meaning and is matched exactly: ``b`` is a bit and ``B`` a byte, ``m`` milli and ``M``
mega, ``T`` tera (never tokens); only the word units (``tokens token tok min ratio tps x``) are matched
whatever their case.  The units:

* size, base bytes: ``B`` 1; binary ``KiB MiB GiB TiB`` 1024^1..4 (IEC 80000-13); decimal ``kB KB MB
  GB TB`` 1000^1..4 (SI prefixes: a "MB" is 10^6 bytes, as the SI defines it); bits ``b bit`` 1/8
  and ``kb Kb Mb Gb Tb`` (also ``kbit Mbit Gbit Tbit``) 1000^1..4 / 8 (a gigabit is 1/8 gigabyte);
  ``mB``, ``gb`` and other spellings whose case has no reading are no unit;
* time, base seconds: ``ns us µs μs ms s min h`` (1e-9, 1e-6, 1e-6, 1e-6, 1e-3, 1, 60, 3600);
* tokens, base one token: ``tokens token tok t`` 1;
* a rate is a size or a count of tokens per time, written ``<size or tokens>/<time>`` (``tok/s``,
  ``t/s``, ``tokens/s``, ``tok/ms`` = 1000 tok/s, ``MB/s``, ``GiB/s``, ``Gb/s`` = 1.25e8 B/s);
  ``tps`` is ``tok/s``;
* a ratio has no dimension: ``x × ratio`` 1, ``%`` 0.01, ``pp`` 0.01 (a percentage point: the unit of
  a difference of two values in %, 75% − 60% = 15 pp; ``recompute`` takes it for nothing else).

A unit not built from these (``it/s``: iterations are not tokens; ``tokens/step``: a step is not a
time) has no quantity and converts to nothing but itself.  Units of different dimensions are never
converted, and a quotient whose dimension is not the one its statement is stated in is refused with
both named (``UnitError``): "GB ÷ MB/s is a time (s), not a rate of tokens (tok/s)".
"""

from __future__ import annotations

from dataclasses import dataclass

#: exponents of (bytes, seconds, tokens)
Dimension = tuple[int, int, int]
SIZE: Dimension = (1, 0, 0)
TIME: Dimension = (0, 1, 0)
TOKENS: Dimension = (0, 0, 1)
RATIO: Dimension = (0, 0, 0)

#: names of the dimensions a reader knows, with an example unit (others are written as exponents)
DIMENSION_NAMES: dict[Dimension, str] = {
    SIZE: "a size (B)",
    TIME: "a time (s)",
    TOKENS: "a count of tokens",
    RATIO: "a ratio (x)",
    (0, -1, 1): "a rate of tokens (tok/s)",
    (1, -1, 0): "a rate of bytes (B/s)",
    (-1, 0, 1): "tokens per byte",
    (1, 0, -1): "bytes per token",
    (0, 1, -1): "a time per token (s/token)",
    (-1, 1, 0): "a time per byte (s/B)",
}

#: plain units, spelled exactly (case carries meaning) -> (dimension, factor to the dimension's base unit)
_PLAIN: dict[str, tuple[Dimension, float]] = {
    "B": (SIZE, 1.0),
    "KiB": (SIZE, 1024.0),
    "MiB": (SIZE, 1024.0**2),
    "GiB": (SIZE, 1024.0**3),
    "TiB": (SIZE, 1024.0**4),
    "kB": (SIZE, 1e3),
    "KB": (SIZE, 1e3),
    "MB": (SIZE, 1e6),
    "GB": (SIZE, 1e9),
    "TB": (SIZE, 1e12),
    "b": (SIZE, 1 / 8),
    "bit": (SIZE, 1 / 8),
    "kb": (SIZE, 1e3 / 8),
    "Kb": (SIZE, 1e3 / 8),
    "Mb": (SIZE, 1e6 / 8),
    "Gb": (SIZE, 1e9 / 8),
    "Tb": (SIZE, 1e12 / 8),
    "kbit": (SIZE, 1e3 / 8),
    "Mbit": (SIZE, 1e6 / 8),
    "Gbit": (SIZE, 1e9 / 8),
    "Tbit": (SIZE, 1e12 / 8),
    "ns": (TIME, 1e-9),
    "us": (TIME, 1e-6),
    "µs": (TIME, 1e-6),
    "μs": (TIME, 1e-6),
    "ms": (TIME, 1e-3),
    "s": (TIME, 1.0),
    "min": (TIME, 60.0),
    "h": (TIME, 3600.0),
    "tokens": (TOKENS, 1.0),
    "token": (TOKENS, 1.0),
    "tok": (TOKENS, 1.0),
    "t": (TOKENS, 1.0),
    "x": (RATIO, 1.0),
    "×": (RATIO, 1.0),
    "ratio": (RATIO, 1.0),
    "%": (RATIO, 0.01),
    "pp": (RATIO, 0.01),
}
#: words whose case carries no meaning, matched in any case ("Tokens", "TOK/S", "X")
_WORDS = frozenset({"tokens", "token", "tok", "min", "ratio", "tps", "x"})
#: whole-unit names that are not a quotient as written
_ALIASES = {"tps": "tok/s"}


@dataclass(frozen=True)
class Quantity:
    """A unit's dimension (``Dimension``) and its factor to the base units (``mb/s``: size/time, 1e6)."""

    dimension: Dimension
    factor: float

    def __truediv__(self, other: Quantity) -> Quantity:
        dim = tuple(a - b for a, b in zip(self.dimension, other.dimension, strict=True))
        return Quantity((dim[0], dim[1], dim[2]), self.factor / other.factor)


class UnitError(ValueError):
    """Units that cannot be put on one scale; the message names them and says why."""


def _part(text: str) -> str:
    """One unit name as the table spells it: a word unit in any case lower-cased, else as written."""
    return text.lower() if text.lower() in _WORDS else text


def unit_key(unit: str | None) -> str | None:
    """``unit`` as the table spells it (stripped; word units lower-cased, each side of a ``/``): two
    units with one key are one unit; ``"Gb/s"`` and ``"GB/s"`` are not."""
    if unit is None:
        return None
    num, sep, den = unit.strip().partition("/")
    return _part(num.strip()) + (sep + _part(den.strip()) if sep else "")


def quantity(unit: str | None) -> Quantity | None:
    """The ``Quantity`` of ``unit`` (spelled exactly, word units in any case: module doc): a plain unit,
    or ``<size or tokens>/<time>``; None for a unit not built from the table (``it/s``,
    ``tokens/step``, ``mB``, ``T``, None)."""
    key = unit_key(unit)
    if key is None:
        return None
    key = _ALIASES.get(key, key)
    if key in _PLAIN:
        dim, f = _PLAIN[key]
        return Quantity(dim, f)
    num, sep, den = key.partition("/")
    if not sep or num not in _PLAIN or den not in _PLAIN:
        return None
    (nd, nf), (dd, df) = _PLAIN[num], _PLAIN[den]
    if nd not in (SIZE, TOKENS) or dd != TIME:
        return None
    return Quantity(nd, nf) / Quantity(dd, df)


def dimension_name(dim: Dimension) -> str:
    """``"a time (s)"``; an unnamed dimension as its exponents (``"B^2"``, ``"B·s^-2"``)."""
    if dim in DIMENSION_NAMES:
        return DIMENSION_NAMES[dim]
    parts = [f"{sym}^{e}" if e != 1 else sym for sym, e in zip(("B", "s", "token"), dim, strict=True) if e]
    return "·".join(parts)


def _what(unit: str | None) -> str:
    q = quantity(unit)
    return f"{unit!r} ({dimension_name(q.dimension)})" if q else f"{unit!r} (a unit of no known quantity)"


def factor(unit: str | None, to: str | None) -> float:
    """The factor that turns a number in ``unit`` into ``to`` (``factor("GiB", "MB")`` = 1073.741824,
    ``factor("MB/s", "GiB/min")`` = 6e7 / 1024^3).

    Raises:
        UnitError: the units are of different dimensions or one has no quantity (``it/s``,
        ``tokens/step``, an unknown unit), unless both are the same text.
    """
    a, b = unit_key(unit), unit_key(to)
    if a == b:
        return 1.0
    qa, qb = quantity(a), quantity(b)
    if qa is None or qb is None or qa.dimension != qb.dimension:
        raise UnitError(f"{unit!r} and {to!r} are not units of one quantity: {_what(unit)} vs {_what(to)}")
    return qa.factor / qb.factor


def quotient_factor(num: str | None, den: str | None, to: str | None) -> float:
    """The factor that turns a quotient of a number in ``num`` by one in ``den`` into ``to``: 4.2 GB ÷
    35 MB/s in min is ``4.2 / 35 × quotient_factor("GB", "MB/s", "min")`` = 0.12 × 1000 / 60 = 2.0.
    Two numbers of one unit text divide to a plain ratio (``x``, ``%``: ×100) whatever the unit.

    Raises:
        UnitError: a unit has no quantity, or the quotient's dimension is not ``to``'s (names both:
        "'GB' ÷ 'MB/s' is a time (s), not 'tok/s', a rate of tokens (tok/s)").
    """
    qt = quantity(to)
    if unit_key(num) == unit_key(den) and qt is not None and qt.dimension == RATIO:
        return 1.0 / qt.factor
    qn, qd = quantity(num), quantity(den)
    if qn is None or qd is None or qt is None:
        missing = [u for u, q in ((num, qn), (den, qd), (to, qt)) if q is None]
        raise UnitError(
            f"{' and '.join(repr(u) for u in missing)} {'is' if len(missing) == 1 else 'are'} no unit "
            "of a known quantity (sizes, times, tokens, rates of them, ratios)"
        )
    q = qn / qd
    if q.dimension != qt.dimension:
        raise UnitError(
            f"{num!r} ÷ {den!r} is {dimension_name(q.dimension)}, not {to!r}, {dimension_name(qt.dimension)}"
        )
    return q.factor / qt.factor


@dataclass(frozen=True)
class Scale:
    """The factors that put each cited number on the scale of ``unit`` (the first cited unit):
    ``factors[i]`` multiplies the i-th number; ``converted`` is True when any factor is not 1."""

    unit: str | None
    factors: tuple[float, ...]

    @property
    def converted(self) -> bool:
        return any(f != 1.0 for f in self.factors)


def common_scale(units: list[str | None]) -> Scale:
    """Factors that put numbers stated in ``units`` on the scale of the first unit.

    Raises:
        UnitError: two units cannot be converted (``factor``).
    """
    first = units[0] if units else None
    return Scale(first, tuple(factor(u, first) for u in units))

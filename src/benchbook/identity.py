"""Configuration identity: which fields of a llama-bench row name its configuration, and when two rows
of one configuration may pool (DESIGN.md, "Statistics and caveats": a configuration is every
non-measurement field of a record, including fields the code does not know yet).

* ``MEASUREMENT_FIELDS``: what llama-bench *measured* in a row (samples, their averages, the time it
  ran).  Every other field of the row is configuration: ``CONFIG_FIELDS`` (the declared b11434 field
  set, ``schemas.LLAMA_BENCH_ROW``, minus the measurements) and any field this code has never seen.
  Rows that differ in any of them never pool (``config_key``).
* Unknown fields (``UnknownFields``): found per file before decoding (``discover``), decoded as text,
  kept in the flat table (``config_extra``, ``name=value, ...``: shown next to the numbers) and part of
  the key; one ``IdentityWarning`` per unknown field per load, naming its first ``file:line``.
* ``load_mode`` (``load_mode_expr`` / ``load_mode_value``): llama-bench prints the enum's name
  (``auto | none | mmap | mlock | mmap+mlock | dio``, ``llama_load_mode_name``); the string is
  normalised (case, blanks), the older ``use_mmap`` boolean becomes ``mmap`` / ``none``, and an integer
  (the enum was renumbered across builds, so a number cannot be named) is *unknown* (null), with a
  warning naming file:line; the row is kept.
* Expert placement (``placement_expr``): ``-ncmoe N`` stands for tensor overrides whose blocks depend
  on the build (b11434: blocks 0 .. N-1, ``llm_ffn_block_regex``; a fork may count from the end).  The
  override list (``tensor_buft_overrides``) is part of the key; a row with ``n_cpu_moe`` > 0 whose
  overrides do not name the expert tensors has its placement *unresolved* (``placement_unresolved``,
  the ``placement_unresolved`` caveat).  The offload runner records the resolved placement of every
  point (``experiments.offload``: ``placement.cpu_expert_blocks`` from the model's block count).
* Order or state effect (``state_effect``): rows of one configuration that disagree beyond their own
  noise are not pooled.  Test: Welch's two-sample t test (Welch 1947, *Biometrika* 34:28-35; NIST/
  SEMATECH e-Handbook §1.3.5.3) on the per-repetition rates of the two rows with the lowest and the
  highest mean, two-sided, Bonferroni-corrected for the ``g(g-1)/2`` pairs of a configuration of
  ``g`` rows; the pair disagrees when the corrected p-value is below ``STATE_EFFECT_ALPHA`` (0.01,
  ``caveats.DEFAULTS["state_effect_alpha"]``).  A row of one sample has no noise estimate and is never
  flagged by this test.
* Order trend (``order_trend``): the repetitions of one row (or repeated requests) drift in the order
  they ran: Spearman's rank correlation ρ of the values against their run order (Spearman 1904, *Am.
  J. Psychol.* 15:72-101; average ranks for ties) at or beyond ``ORDER_RHO_MIN`` in size, over at least
  ``ORDER_MIN_N`` values; the values after the first still ordered the same way (their own ρ at or
  beyond ``ORDER_RHO_REST_MIN``, same sign: one slow first value, a cold start, is not a drift); and the
  mean of the rest at least ``ORDER_DRIFT_MIN`` away from the first.  A
  drifting row is not pooled with the other rows of its configuration: its mean depends on when it
  stopped, not on the configuration.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from . import schemas

#: fields of llama-bench's row that are measurements (what it measured, and when), never configuration
MEASUREMENT_FIELDS = frozenset(
    {"samples_ns", "samples_ts", "avg_ns", "stddev_ns", "avg_ts", "stddev_ts", "test_time"}
)
#: the declared (b11434) fields of the row
DECLARED_FIELDS = tuple(f.name for f in schemas.LLAMA_BENCH_ROW)
#: field names of older builds that ``migrations`` converts (``use_mmap``, the per-backend booleans):
#: known, so never reported as unknown
LEGACY_FIELDS = (
    "use_mmap",
    "cuda",
    "vulkan",
    "kompute",
    "metal",
    "sycl",
    "rpc",
    "gpu_blas",
    "blas",
)
#: the declared configuration fields, in declaration order
CONFIG_FIELDS = tuple(n for n in DECLARED_FIELDS if n not in MEASUREMENT_FIELDS)
#: level of the state-effect test (module doc); the caveat's threshold table repeats it
STATE_EFFECT_ALPHA = 0.01
#: order trend (module doc): at least this many values in run order; at n = 5 a perfectly monotone order
#: arises by chance with probability 2/120 = 0.017 (either direction), at n = 4 with 2/24 = 0.083
ORDER_MIN_N = 5
#: ... |Spearman ρ| at or above this (0.9 at n = 5: at most one adjacent pair out of order)
ORDER_RHO_MIN = 0.9
#: ... and the mean of the values after the first at least this fraction away from the first
ORDER_DRIFT_MIN = 0.02
#: ... with the values after the first ordered the same way, |ρ| at or above this (0.8 over 4 values: at
#: most one adjacent pair out of order)
ORDER_RHO_REST_MIN = 0.8


def _stats():
    """``scipy.stats``, imported when a test needs it: the import takes most of a second, and the
    commands that read no measurement (``benchbook claims draft`` imports this module through the
    ingest readers) never need it."""
    from scipy import stats

    return stats


class IdentityWarning(UserWarning):
    """A row kept with a configuration field this code cannot name (unknown field, integer load_mode);
    the message names the first file:line."""


def _keys_of(obj) -> set[str]:
    return set(obj) if isinstance(obj, dict) else set()


@dataclass
class UnknownFields:
    """Unknown fields of one object (``llama_bench``) of the records of one load.

    ``first``: field name -> ``(file, line)`` of its first occurrence (files in reading order).
    ``extend(raw, path, schema, first_row)`` is the per-batch hook of ``jsonl.iter_files``: it finds
    the unknown fields of the lines and returns the schema with them added (decoded as text).
    ``warn()`` emits one ``IdentityWarning`` per field (and returns the messages)."""

    obj: str = "llama_bench"
    known: frozenset[str] = frozenset(DECLARED_FIELDS) | frozenset(LEGACY_FIELDS)
    first: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: file -> (first line, its value, rows) of integer ``load_mode`` values (``note_load_mode``)
    load_mode_ints: dict[str, tuple[int, str, int]] = field(default_factory=dict)

    def discover(self, raw: pl.Series) -> dict[str, int]:
        """Unknown member names of ``obj`` in the JSON lines ``raw`` -> 0-based row of the first line that
        showed it (null rows: blank lines, skipped).

        Vectorized filter, then a Python look at few lines: lines are classed by their number of keys
        (``":`` occurrences, one C-level literal count), and the first line of each class is parsed.  A
        line with the same key count as its class's first line is taken to have its keys.  Limit: a
        line that swaps one key of its class's first line for an unknown one (same count) is not
        looked at, so that unknown field is neither decoded nor warned about."""
        counts = raw.str.count_matches('":', literal=True)
        firsts = (
            pl.DataFrame({"c": counts})
            .with_row_index("i")
            .drop_nulls("c")
            .group_by("c")
            .agg(pl.col("i").min())["i"]
            .sort()
            .to_list()
        )
        found: dict[str, int] = {}
        for i in firsts:
            for name in self._unknown_in(raw[i]):
                found.setdefault(name, i)
        return found

    def _unknown_in(self, line: str | None) -> list[str]:
        try:
            rec = json.loads(line) if line else None
        except ValueError:
            return []  # not JSON: the reader names the line
        if not isinstance(rec, dict):
            return []
        return sorted(_keys_of(rec.get(self.obj)) - self.known)

    def note(self, names: dict[str, int], path: Path | str, line_of) -> None:
        for name, row in names.items():
            self.first.setdefault(name, (str(path), int(line_of(row))))

    def extend(self, raw: pl.Series, path: Path | str, schema: dict, first_row: int = 0) -> dict:
        """``schema`` with the unknown members of ``obj`` in the lines ``raw`` added as ``pl.String``
        (row i of ``raw`` is line ``first_row + i + 1``: the reader keeps blank lines as null rows)."""
        names = self.discover(raw)
        self.note(names, path, lambda r: first_row + r + 1)
        if not names or self.obj not in schema:
            return schema
        st = schema[self.obj]
        have = {f.name for f in st.fields}
        extra = [pl.Field(n, pl.String) for n in sorted(names) if n not in have]
        return {**schema, self.obj: pl.Struct([*st.fields, *extra])} if extra else schema

    def messages(self) -> list[str]:
        out = [
            f"{f}:{ln}: {self.obj} field {name!r} is not in the declared llama-bench field set "
            f"(schemas.LLAMA_BENCH_ROW); kept as text in config_extra and made part of the configuration "
            f"key (rows differing in it never pool); fix: declare it in schemas.LLAMA_BENCH_ROW "
            f"(MEASUREMENT_FIELDS in benchbook.identity if it is a measurement)"
            for name, (f, ln) in self.first.items()
        ]
        out += [
            load_mode_warning(f, ln, v) + (f" ({n - 1} more rows in this file)" if n > 1 else "")
            for f, (ln, v, n) in self.load_mode_ints.items()
        ]
        return out

    def note_load_mode(self, df: pl.DataFrame, raw_load_mode: pl.Expr) -> None:
        """Record the first integer ``load_mode`` of each file of ``df`` (columns file, line)."""
        bad = df.lazy().filter(load_mode_int(raw_load_mode.cast(pl.String)).fill_null(False))
        rows = (
            bad.group_by("file")
            .agg(
                pl.col("line").min(),
                raw_load_mode.cast(pl.String).sort_by("line").first().alias("v"),
                pl.len(),
            )
            .collect()
        )
        for f, ln, v, n in rows.iter_rows():
            self.load_mode_ints.setdefault(f, (ln, v, n))

    def warn(self, report: dict | None = None) -> list[str]:
        msgs = self.messages()
        for m in msgs:
            warnings.warn(m, IdentityWarning, stacklevel=3)
        if report is not None and msgs:
            report.setdefault("warnings", []).extend(msgs)
        return msgs


def member_names(struct_dtype) -> list[str]:
    """Member names of a decoded Struct dtype ([] for any other dtype)."""
    return [f.name for f in getattr(struct_dtype, "fields", [])]


def extra_names(struct_dtype, obj_known: Iterable[str] | None = None) -> list[str]:
    """Member names of a decoded ``llama_bench`` struct that are not declared (the unknown fields)."""
    known = set(obj_known) if obj_known is not None else set(DECLARED_FIELDS) | set(LEGACY_FIELDS)
    return [n for n in member_names(struct_dtype) if n not in known]


def load_mode_warning(path, line: int, value) -> str:
    """The warning for an integer ``load_mode`` at ``path:line``."""
    return (
        f"{path}:{line}: llama_bench field 'load_mode' is the integer {value} (the enum was renumbered "
        "across builds: it cannot be named); the row is kept with load_mode unknown (null); fix: none "
        "needed, or re-run with a build that prints the mode's name"
    )


def load_mode_value(v) -> tuple[str | None, bool]:
    """One ``load_mode`` value (a string, an integer, or the older ``use_mmap`` bool) -> (normalised
    name or None, True when the value was an integer and so is unknown).

    >>> load_mode_value(" MMAP "), load_mode_value(1), load_mode_value(True)
    (('mmap', False), (None, True), ('mmap', False))
    """
    if v is None:
        return None, False
    if isinstance(v, bool):
        return ("mmap" if v else "none"), False
    if isinstance(v, int):
        return None, True
    t = str(v).strip().lower()
    if t.lstrip("-").isdigit():
        return None, True
    return {"true": "mmap", "false": "none"}.get(t, t), False


def load_mode_int(col: pl.Expr) -> pl.Expr:
    """True where a ``load_mode`` decoded as text is an integer (unknown)."""
    return col.str.strip_chars().str.contains(r"^-?\d+$")


def load_mode_expr(load_mode: pl.Expr, use_mmap: pl.Expr | None = None) -> pl.Expr:
    """``load_mode`` normalised (``load_mode_value``, vectorized): lowercase name; "true"/"false" (the
    older ``use_mmap`` spelled as text) mmap/none; an integer null; null falls back to ``use_mmap``."""
    t = load_mode.cast(pl.String).str.strip_chars().str.to_lowercase()
    out = (
        pl.when(load_mode_int(t))
        .then(pl.lit(None, pl.String))
        .when(t == "true")
        .then(pl.lit("mmap"))
        .when(t == "false")
        .then(pl.lit("none"))
        .otherwise(t)
    )
    if use_mmap is not None:
        u = use_mmap.cast(pl.String).str.strip_chars().str.to_lowercase()
        legacy = (
            pl.when(u.is_in(["1", "true", "yes"]))
            .then(pl.lit("mmap"))
            .when(u.is_not_null())
            .then(pl.lit("none"))
        )
        out = pl.when(t.is_null()).then(legacy).otherwise(out)
    return out


#: an override list that places expert tensors (``LLM_FFN_EXPS_REGEX``: ``ffn_(up|down|gate)_exps``)
EXPERT_OVERRIDE = r"_exps"


def placement_expr(n_cpu_moe: pl.Expr, overrides: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """``(placement, placement_unresolved)`` of a llama-bench row.

    ``placement``: the override list as llama-bench printed it (``tensor_buft_overrides``; "none" when
    absent) - part of the configuration key.  ``placement_unresolved``: ``n_cpu_moe`` > 0 and the
    overrides do not name expert tensors (only the flag is known, not which blocks it moved)."""
    ot = overrides.cast(pl.String).fill_null("none")
    ot = pl.when(ot.str.strip_chars() == "").then(pl.lit("none")).otherwise(ot)
    moe = n_cpu_moe.fill_null(0) > 0
    unresolved = moe & ~ot.str.contains(EXPERT_OVERRIDE)
    return ot, unresolved


def extra_expr(names: list[str], obj: str = "llama_bench") -> pl.Expr:
    """``config_extra``: ``name=value, ...`` of the unknown members ``names`` a row holds (sorted; a null
    value reads as absent), null when it holds none."""
    if not names:
        return pl.lit(None, pl.String)
    col = pl.col(obj).struct.field
    joined = pl.concat_str(
        [pl.lit(f"{n}=") + col(n).cast(pl.String) for n in sorted(names)], separator=", ", ignore_nulls=True
    )
    return pl.when(joined == "").then(pl.lit(None, pl.String)).otherwise(joined)


def state_effect(k1, m1, v1, k2, m2, v2, groups_rows, alpha: float = STATE_EFFECT_ALPHA) -> np.ndarray:
    """True where two rows of one configuration disagree beyond their own noise (module doc).

    ``k``: samples of a row, ``m``: mean rate, ``v``: sample variance (ddof=1) of its per-repetition
    rates; side 1 and 2 are the rows with the lowest and highest mean; ``groups_rows``: rows in the
    configuration (g; Bonferroni factor g(g-1)/2).  Vectorized over numpy arrays; a side with k < 2
    (no variance) gives False.  Welch: ``t = (m2 - m1) / sqrt(v1/k1 + v2/k2)``, degrees of freedom
    ``(a + b)² / (a²/(k1-1) + b²/(k2-1))`` with ``a = v1/k1``, ``b = v2/k2``."""
    k1, m1, v1, k2, m2, v2, g = (np.asarray(x, dtype=float) for x in (k1, m1, v1, k2, m2, v2, groups_rows))
    with np.errstate(invalid="ignore", divide="ignore"):
        a, b = v1 / k1, v2 / k2
        se = np.sqrt(a + b)
        t = np.abs(m2 - m1) / se
        dof = (a + b) ** 2 / (a**2 / (k1 - 1) + b**2 / (k2 - 1))
        p = 2 * _stats().t.sf(t, dof)
        p = np.where((se == 0) & (m1 != m2), 0.0, p)
        p = np.where((se == 0) & (m1 == m2), 1.0, p)
        pairs = np.maximum(g * (g - 1) / 2, 1)
        ok = (k1 >= 2) & (k2 >= 2) & np.isfinite(p)
    return ok & (np.minimum(p * pairs, 1.0) < alpha)


@dataclass(frozen=True)
class OrderTrend:
    """Values of one row or series in the order they ran (module doc, "Order trend"): ``n``, ``rho``
    (Spearman ρ against run order), the ``first`` value, ``rest_mean`` (mean of the values after the
    first) and the ``last``."""

    values: tuple[float, ...]
    rho: float
    rho_rest: float | None = None  # Spearman ρ of the values after the first (None: fewer than 3)

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def first(self) -> float:
        return self.values[0]

    @property
    def last(self) -> float:
        return self.values[-1]

    @property
    def rest_mean(self) -> float:
        return sum(self.values[1:]) / (self.n - 1)

    @property
    def drift(self) -> float:
        """``1 - rest_mean / first``: the fraction by which the rest lie below the first (negative: above)."""
        return 1.0 - self.rest_mean / self.first

    @property
    def drifting(self) -> bool:
        """The trend is an order effect by the module's thresholds."""
        rest = self.rho_rest
        return (
            self.n >= ORDER_MIN_N
            and abs(self.rho) >= ORDER_RHO_MIN
            and rest is not None
            and rest * self.rho > 0
            and abs(rest) >= ORDER_RHO_REST_MIN
            and abs(self.drift) >= ORDER_DRIFT_MIN
        )

    def text(self, unit: str = "tok/s", what: str = "trials") -> str:
        """``"5 trials in run order 30.2, 27.9, 27.1, 26.4, 26.0 tok/s: Spearman ρ -1.00; first 30.2,
        settling to 26.0 (the rest average 26.85, 11.1% below the first)"``."""
        small = min(abs(v) for v in self.values)
        d = 1 if small >= 10 else (2 if small >= 1 else 3)  # the digits a rate is usually printed with
        shown = ", ".join(f"{v:.{d}f}" for v in self.values)
        side = "below" if self.drift >= 0 else "above"
        return (
            f"{self.n} {what} in run order {shown} {unit}: Spearman ρ {self.rho:.2f}; first "
            f"{self.first:.{d}f}, settling to {self.last:.{d}f} (the rest average "
            f"{self.rest_mean:.{d + 1}f}, {abs(self.drift):.1%} {side} the first)"
        )


def order_trend(values: Iterable[float | None]) -> OrderTrend | None:
    """The order trend of ``values`` in run order (None entries dropped); None with fewer than 3 values,
    a first value of 0, or values that are all equal (no order to rank).

    >>> t = order_trend([30.2, 27.9, 27.1, 26.4, 26.0])
    >>> round(t.rho, 6), round(t.rest_mean, 4), round(t.drift, 4), t.drifting
    (-1.0, 26.85, 0.1109, True)
    """
    xs = tuple(float(v) for v in values if v is not None)
    if len(xs) < 3 or xs[0] == 0 or len(set(xs)) == 1:
        return None
    sps = _stats()
    rho = float(sps.spearmanr(np.arange(len(xs)), np.asarray(xs)).statistic)
    rest = xs[1:]
    rho_rest = (
        float(sps.spearmanr(np.arange(len(rest)), np.asarray(rest)).statistic)
        if len(rest) >= 3 and len(set(rest)) > 1
        else None
    )
    return OrderTrend(xs, rho, rho_rest) if np.isfinite(rho) else None


def order_rho_expr(values: str, skip_first: bool = False) -> pl.Expr:
    """Spearman ρ of each row's list column ``values`` against its positions (run order): the vectorized
    ``order_trend(...).rho`` (``skip_first``: ``.rho_rest``, the values after the first; null below 3 of
    them) for tables of many rows (NaN with fewer than two distinct values)."""
    col = pl.col(values).list.slice(1) if skip_first else pl.col(values)
    rho = col.list.eval(pl.corr(pl.int_range(pl.len()), pl.element(), method="spearman")).list.first()
    return pl.when(col.list.len() >= 3).then(rho) if skip_first else rho


def truncated_id(src_sha256: str, n_layers: int) -> str:
    """The model id of the first ``n_layers`` blocks of the model with sha256 ``src_sha256``:
    ``trunc<L>-of-<src sha256[:12]>`` (``llamacpp.draft_models.truncated_draft`` makes the file; a
    plan names it by this id before it exists).

    >>> truncated_id("b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53", 20)
    'trunc20-of-b179c9523d0e'
    """
    return f"trunc{n_layers}-of-{src_sha256[:12]}"

"""Schema-version upgrades: readers bring older records to the current version through explicit,
vectorized migrations (Polars frames, never per-record Python objects).

Raw records are immutable (DESIGN.md, "Records"): a migration never rewrites a file, it upgrades
the frame a reader built from it.  ``CURRENT[schema]`` is the version readers produce (taken from
the declarations in ``benchbook.schemas``); ``MIGRATIONS[(schema, v)]`` upgrades a frame from version
``v`` to ``v + 1``.  ``upgrade`` applies the chain to the rows of each older version and refuses
versions newer than this code knows.

Registered migrations:

* every step the declarations define by themselves (``schemas.derived_migrations``: fields added in
  a version, backfilled): ``benchbook.llama_bench`` v1 -> v2 and ``benchbook.speculative_request``
  v1 -> v2 add ``origin`` = "native" (v1 records are our own runners') and null ``source_*``;
* ``benchbook.llama_bench`` v2 -> v3 (derived): the fields the retired kinds held (``role``,
  ``profile``, offload's sweep point), null on the rows of v1 and v2 (the llama_bench experiment's);
* hand-written steps for a kind's ``manual_steps`` (none today);
* retired kinds (``RETIRED``): a kind no longer written whose records are read as another kind's rows.
  ``benchbook.speculative_cost``, ``benchbook.spec_depth.bench`` and ``benchbook.offload`` v1 (the
  speculative cost model's, the depth sweep's and the offload sweep's llama-bench rows) are read as
  ``benchbook.llama_bench`` v3: their fields are the one kind's fields of the same names and types
  (``experiment`` and ``role`` tell their uses apart), so the step relabels the rows and backfills
  ``origin`` = "native" (our runners wrote them).  ``upgrade_as`` applies it; ``read_as`` names the kind
  a schema is read as;
* ``legacy_draftself_session``: committed ``benchbook.draftself.session`` v1 records (draft-self's own
  session record, before it used the shared ``benchbook.session``) read as a shared session's facts.

llama-bench's own field set.  Builds before ``load_mode``/``backends`` printed ``use_mmap`` (bool),
one boolean per backend (``cuda``, ``vulkan``, ``kompute``, ``metal``, ``sycl``, ``rpc``,
``gpu_blas``, ``blas``) and a boolean ``flash_attn``; b11434 (``tools/llama-bench/llama-bench.cpp``,
``test::get_fields``) prints ``load_mode`` "mmap" | "none", ``backends`` comma-joined and
``flash_attn`` an int (1 | 0, -1 = auto).  ``legacy_llama_bench_row`` (one row, used by ingest) and
``legacy_llama_bench_fields`` (a flat frame) bring the old names to the new; the record says which
set its source used (``benchbook.llama_bench`` ``llama_bench_fields``: 1 | 2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from . import schemas

#: the declarations' own table (the same dict: kinds an experiment declares later are in it too)
CURRENT: dict[str, int] = schemas.CURRENT

MIGRATIONS: dict[tuple[str, int], Callable[[pl.DataFrame], pl.DataFrame]] = dict(schemas.derived_migrations())

#: llama-bench's per-backend booleans of older builds, in the order upstream printed them
#: (``test::get_backend``; ``opencl`` only in 2023 builds).  The one table: ``ingest.llama_bench``
#: reads it too.
LEGACY_BACKEND_FIELDS = {
    "cuda": "CUDA",
    "opencl": "OpenCL",
    "vulkan": "Vulkan",
    "kompute": "Kompute",
    "metal": "Metal",
    "sycl": "SYCL",
    "rpc": "RPC",
    "gpu_blas": "GPU BLAS",
    "blas": "BLAS",
}


class MigrationError(ValueError):
    """A record version this code cannot upgrade; the message names the schema, version and fix."""


def migration(schema: str, from_version: int):
    """Register ``fn(frame) -> frame`` upgrading ``schema`` rows from ``from_version`` to the next."""

    def deco(fn):
        MIGRATIONS[(schema, from_version)] = fn
        return fn

    return deco


def _truthy(col: str) -> pl.Expr:
    c = pl.col(col).cast(pl.String).str.to_lowercase()
    return c.is_in(["1", "true", "yes"])


def legacy_llama_bench_fields(df: pl.DataFrame) -> pl.DataFrame:
    """Rename/convert old llama-bench fields of a flat frame to the b11434 names (see module doc).

    Columns absent from ``df`` are left alone, so it is safe on frames from any build.
    """
    out = []
    if "use_mmap" in df.columns:
        lm = pl.when(_truthy("use_mmap")).then(pl.lit("mmap")).otherwise(pl.lit("none"))
        if "load_mode" in df.columns:
            lm = pl.coalesce(pl.col("load_mode"), lm)
        out.append(lm.alias("load_mode"))
    legacy = [c for c in LEGACY_BACKEND_FIELDS if c in df.columns]
    if legacy:
        parts = [pl.when(_truthy(c)).then(pl.lit(LEGACY_BACKEND_FIELDS[c])).otherwise(None) for c in legacy]
        joined = pl.concat_list(parts).list.drop_nulls().list.join(",")
        be = pl.when(joined == "").then(pl.lit("CPU")).otherwise(joined)
        if "backends" in df.columns:
            be = pl.coalesce(pl.col("backends"), be)
        out.append(be.alias("backends"))
    if "flash_attn" in df.columns and df.schema["flash_attn"] in (pl.Boolean, pl.String):
        fa = pl.col("flash_attn").cast(pl.String).str.to_lowercase()
        out.append(
            pl.when(fa.is_in(["true", "1"]))
            .then(1)
            .when(fa.is_in(["false", "0"]))
            .then(0)
            .otherwise(-1)
            .cast(pl.Int64)
            .alias("flash_attn")
        )
    df = df.with_columns(out) if out else df
    return df.drop([c for c in ["use_mmap", *legacy] if c in df.columns])


def _truthy_value(v) -> bool:
    return str(v).strip().lower() in ("1", "true", "yes", "on")


def flash_attn_int(v) -> int | None:
    """llama-bench's ``flash_attn`` as b11434's int: 1 on, 0 off, -1 auto (from a bool of older builds,
    an int, or a string of CSV/SQL/markdown: "1", "true", "on", "enabled", "auto"...); None when absent.

    Raises:
        ValueError: a value that is none of these (the caller names file:line).
    """
    if v is None:
        return None
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        if v in (-1, 0, 1):
            return v
        raise ValueError(v)
    t = str(v).strip().lower()
    table = {
        "1": 1,
        "true": 1,
        "yes": 1,
        "on": 1,
        "enabled": 1,
        "0": 0,
        "false": 0,
        "no": 0,
        "off": 0,
        "disabled": 0,
        "-1": -1,
        "auto": -1,
    }
    if t not in table:
        raise ValueError(v)
    return table[t]


def legacy_llama_bench_row(row: dict) -> tuple[dict, int]:
    """One llama-bench row in b11434's field names (module doc) and the field set it came in (1 | 2).

    ``use_mmap`` becomes ``load_mode``, the per-backend booleans ``backends`` (``"CPU"`` when none is
    true), ``flash_attn`` an int; a row already in b11434's names is returned unchanged (a copy).
    """
    out = dict(row)
    legacy = [k for k in LEGACY_BACKEND_FIELDS if k in out]
    version = 1 if legacy or "use_mmap" in out else 2
    if "use_mmap" in out:
        mm = out.pop("use_mmap")
        out.setdefault("load_mode", "mmap" if _truthy_value(mm) else "none")
    if legacy:
        names = [LEGACY_BACKEND_FIELDS[k] for k in legacy if _truthy_value(out.pop(k))]
        out.setdefault("backends", ",".join(names) or "CPU")
    if "flash_attn" in out:
        out["flash_attn"] = flash_attn_int(out["flash_attn"])
    return out, version


@dataclass(frozen=True)
class Retired:
    """A kind no longer written (``schema``, its last version ``version``) read as ``into`` at version
    ``as_version`` by ``step`` (frame -> frame; ``upgrade_as`` sets ``schema``/``schema_version`` after
    it)."""

    schema: str
    version: int
    into: str
    as_version: int
    step: Callable[[pl.DataFrame], pl.DataFrame]


#: retired schema -> how its records are read (``upgrade_as``); the raw files keep their kind
RETIRED: dict[str, Retired] = {}


def retired(schema: str, version: int, into: str, as_version: int):
    """Register ``fn(frame) -> frame`` reading rows of the retired ``schema`` (at ``version``, its last)
    as rows of ``into`` at ``as_version``."""

    def deco(fn):
        RETIRED[schema] = Retired(schema, version, into, as_version, fn)
        return fn

    return deco


def read_as(schema: str) -> str:
    """The schema whose rows records of ``schema`` are read as: ``into`` of a retired kind, else itself.

    >>> read_as("benchbook.speculative_cost"), read_as("benchbook.llama_bench")
    ('benchbook.llama_bench', 'benchbook.llama_bench')
    """
    r = RETIRED.get(schema)
    return r.into if r else schema


def _native_llama_bench_rows(df: pl.DataFrame) -> pl.DataFrame:
    """Rows of a retired llama-bench row kind as ``benchbook.llama_bench`` v3: its fields are the one kind's
    (same names and types), so only ``origin`` is filled ("native": our runners wrote them)."""
    native = pl.lit(schemas.NATIVE, dtype=pl.String)
    origin = pl.coalesce(pl.col("origin"), native) if "origin" in df.columns else native
    return df.with_columns(origin.alias("origin"))


for _schema in schemas.LLAMA_BENCH_SCHEMAS[1:]:
    retired(_schema, 1, schemas.LLAMA_BENCH.schema, 3)(_native_llama_bench_rows)


def upgrade_as(df: pl.DataFrame, schema: str) -> pl.DataFrame:
    """Every row of ``df`` (records of ``schema`` and of the kinds retired into it, ``RETIRED``) as a row of
    ``schema`` at ``CURRENT[schema]``: a retired kind's rows by its step (``schema`` and
    ``schema_version`` relabelled), then every row by ``upgrade``.  Row order is kept.

    Raises:
        MigrationError: a row of another schema, a version newer than its kind's (fix: upgrade
            benchbook) or a step missing.
    """
    if df.is_empty() or "schema" not in df.columns:
        return upgrade(df, schema)
    kinds = df["schema"].unique().to_list()
    if kinds == [schema]:
        return upgrade(df, schema)
    other = [k for k in kinds if k != schema and (k not in RETIRED or RETIRED[k].into != schema)]
    if other:
        raise MigrationError(
            f"{other[0]!r} records are not read as {schema}; fix: read them with their own kind's reader"
        )
    df = df.with_row_index("_as_i")
    parts = []
    for k in kinds:
        part = df.filter(pl.col("schema") == k)
        r = RETIRED.get(k)
        if r is not None:
            part = upgrade(part, k)  # its own chain first (to its last version)
            part = r.step(part).with_columns(
                pl.lit(r.into, dtype=pl.String).alias("schema"),
                pl.lit(r.as_version, dtype=df.schema["schema_version"]).alias("schema_version"),
            )
        parts.append(upgrade(part, schema))
    return pl.concat(parts, how="diagonal_relaxed").sort("_as_i").drop("_as_i")


def upgrade(df: pl.DataFrame, schema: str, version_col: str = "schema_version") -> pl.DataFrame:
    """Upgrade every row of ``df`` (records of one ``schema``) to ``CURRENT[schema]``.

    Rows are grouped by version, each group runs its migration chain, and the groups are concatenated
    (diagonal: columns a migration adds or removes are reconciled; row order is kept via a temporary
    index).

    Raises:
        MigrationError: a version is newer than CURRENT (fix: upgrade benchbook) or a step is missing.
    """
    cur = CURRENT.get(schema)
    if cur is None:
        raise MigrationError(f"schema {schema!r} has no registered current version; known: {sorted(CURRENT)}")
    if df.is_empty() or version_col not in df.columns:
        return df
    versions = df[version_col].unique().drop_nulls().to_list()
    if all(v == cur for v in versions) and df[version_col].null_count() == 0:
        return df
    newer = [v for v in versions if v > cur]
    if newer:
        raise MigrationError(
            f"{schema}: schema_version {max(newer)} is newer than this benchbook knows ({cur}); "
            "fix: update benchbook (pip install -e .) before reading these records"
        )
    if df[version_col].null_count():
        raise MigrationError(
            f"{schema}: {df[version_col].null_count()} records lack {version_col}; "
            "fix: every record needs schema_version"
        )
    if len(versions) == 1:  # one version: its chain on the frame itself (no split, no re-sort)
        for step in range(versions[0], cur):
            fn = MIGRATIONS.get((schema, step))
            if fn is None:
                raise MigrationError(
                    f"{schema}: no migration from version {step} to {step + 1}; "
                    "fix: add one in benchbook/migrations.py"
                )
            df = fn(df).with_columns(pl.lit(step + 1, dtype=df.schema[version_col]).alias(version_col))
        return df
    df = df.with_row_index("_mig_i")
    parts, dropped = [], set()
    for v in sorted(versions):
        part = df.filter(pl.col(version_col) == v)
        before = set(part.columns)
        for step in range(v, cur):
            fn = MIGRATIONS.get((schema, step))
            if fn is None:
                raise MigrationError(
                    f"{schema}: no migration from version {step} to {step + 1}; "
                    "fix: add one in benchbook/migrations.py"
                )
            part = fn(part).with_columns(pl.lit(step + 1, dtype=df.schema[version_col]).alias(version_col))
        dropped |= before - set(part.columns)
        parts.append(part)
    out = pl.concat(parts, how="diagonal_relaxed").sort("_mig_i").drop("_mig_i")
    # a field a migration removed is gone from the current version: drop it where no row still holds it
    return out.drop([c for c in dropped if c in out.columns and out[c].null_count() == out.height])


def legacy_draftself_session(rec: dict) -> dict:
    """A committed ``benchbook.draftself.session`` v1 record (written once at a session's end, before
    draft-self used the shared session) as the facts a shared session's start/end records give:
    ``session_id``, ``host_id``, ``model_sha256``, ``started_at``, ``ended_at``, ``params``, ``runtime``
    (torch version; Python not recorded), ``toolchain_id`` (null: not recorded), ``load_start``,
    ``load_end`` (session-level; v2 runs carry their own), ``runs_file`` (``runs.jsonl`` beside it)."""
    return {
        "session_id": rec["session_id"],
        "host_id": rec["host_id"],
        "model_sha256": rec["model_sha256"],
        "started_at": rec["started_at"],
        "ended_at": rec["ended_at"],
        "params": rec["params"],
        "runtime": f"torch {rec['torch_version']}",
        "toolchain_id": None,
        "load_start": rec.get("load_start"),
        "load_end": rec.get("load_end"),
        "file": rec.get("_file"),
        "line": rec.get("_line"),
        "runs_file": str(Path(rec["_file"]).with_name("runs.jsonl")) if rec.get("_file") else None,
    }

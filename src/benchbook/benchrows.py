"""The one reader of llama-bench rows: every record of the one llama-bench row kind
(``benchbook.llama_bench``, ``schemas.LLAMA_BENCH``), and of the kinds it replaced read as it
(``migrations.RETIRED``: ``benchbook.speculative_cost``, ``benchbook.spec_depth.bench``,
``benchbook.offload``), under a raw folder, as one Polars table, each row with the ``file`` and ``line``
it came from (the citation of every number built on it).

A record is decoded against the declaration (``schemas.polars_schema``: a field of the wrong type is null,
then caught), checked against the declaration of the kind it was written as (``schemas.checks``: a retired
kind's records keep their own checks; an error names ``file:line``, the field and the fix) and upgraded to
the one kind at its current version (``migrations.upgrade_as``); the raw files are never rewritten.
Records of other kinds in the same files are left out.

* ``files(folder)``: the raw files under ``folder`` (``data/raw``: every experiment's; ``data/raw/<name>``:
  one experiment's), quarantined lines' files left out.
* ``iter_rows(paths, ...)``: one frame per file, read a batch of lines at a time (``jsonl.iter_files``), so
  memory holds one batch decoded; ``per_batch`` (e.g. a flat table's ``select``) runs on each batch's rows.
* ``read(folder, experiment=None, ...)``: one table of the rows of complete runs (``complete_runs``).
* ``complete_runs(rows, report)``: a record written twice is kept once, the rows of an invocation cut short
  (fewer rows than ``rows_total``) are dropped, both counted in ``report``.

The analyses read llama-bench rows through it: ``experiments.llama_bench.analysis`` (``load_llama_bench``,
its flat table), ``experiments.offload.analysis`` (``load``), ``experiments.speculative.analysis``
(``cost_model``) and ``experiments.spec_depth.analysis`` (``bench_table``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import polars as pl

from . import migrations, schemas
from .jsonl import invalid_records, iter_files, validate

#: the one kind's schema name: what every row this reader returns is
SCHEMA = schemas.LLAMA_BENCH.schema
#: the schemas it reads: the one kind, then the retired kinds read as it
SCHEMAS = schemas.LLAMA_BENCH_SCHEMAS

Checks = dict[str, tuple[pl.Expr, str]]


def files(folder: str | Path) -> list[Path]:
    """Every ``*.jsonl`` under ``folder`` (recursive, sorted), ``*.quarantine.jsonl`` left out."""
    return sorted(f for f in Path(folder).rglob("*.jsonl") if not f.name.endswith(".quarantine.jsonl"))


def decode_schema(
    only: Iterable[str] | None = None, members: Mapping[str, Iterable[str]] | None = None
) -> dict[str, schemas.PolarsDataType]:
    """The Polars schema the rows are decoded with: the one kind's (``schemas.polars_schema``; ``only``: just
    these top-level fields, ``members``: just these members of a nested object).  The retired kinds'
    fields are the one kind's fields of the same names and types, so it decodes them too."""
    return schemas.polars_schema(schemas.LLAMA_BENCH.key, only, members)


def _kind_checks(
    schema: str, only: Iterable[str] | None, members: Mapping[str, Iterable[str]] | None
) -> Checks:
    """``schemas.checks`` of the kind ``schema`` was written as, for the fields of ``only``/``members`` that
    kind declares (a retired kind declares fewer: a free-form ``llama_bench`` row has no member checks)."""
    k = schemas.kind(schema)
    declared = {f.name: f for f in k.fields}
    keep = None if only is None else [n for n in only if n in declared]
    nested = {}
    for parent, names in (members or {}).items():
        f = declared.get(parent)
        if f is not None and f.members and not f.many and (keep is None or parent in keep):
            have = {m.name for m in f.members if m.dtype is not None}
            nested[parent] = [n for n in names if n in have]
    return schemas.checks(k.key, keep, nested)


def checks(
    only: Iterable[str] | None = None, members: Mapping[str, Iterable[str]] | None = None
) -> dict[str, Checks]:
    """``{schema: checks}`` for every schema of ``SCHEMAS`` (``_kind_checks``), the fields chosen."""
    return {s: _kind_checks(s, only, members) for s in SCHEMAS}


def rows_of(
    df: pl.DataFrame, by_schema: dict[str, Checks], on_error: str, report: dict | None
) -> pl.DataFrame:
    """The llama-bench rows of one decoded frame (``jsonl.iter_files``' columns): records of the other kinds
    left out, each kind's records checked (``jsonl.validate``: ``on_error`` "raise" | "skip"), then every row
    upgraded to the one kind (``migrations.upgrade_as``).  Rows keep their order.

    Raises:
        records.RecordError: ``on_error="raise"`` and a record fails a check (file:line, field, fix).
    """
    kind = df["schema"]
    if not (kind == SCHEMA).fill_null(False).all():  # filter copies: only when needed
        df = df.filter(pl.col("schema").is_in(list(SCHEMAS)))
        kind = df["schema"]
    present = [s for s in SCHEMAS if s == SCHEMA or (kind == s).any()] if df.height else [SCHEMA]
    if len(present) == 1:
        df = validate(df, by_schema[present[0]], on_error, report)
    else:
        parts = [validate(df.filter(pl.col("schema") == s), by_schema[s], on_error, report) for s in present]
        df = pl.concat(parts, how="vertical").sort("line")
    # the columns decoded, no more: an upgrade step may add a field the reader did not ask for (``origin``)
    return migrations.upgrade_as(df, SCHEMA).select(df.columns)


def iter_rows(
    paths: Iterable[str | Path],
    only: Iterable[str] | None = None,
    members: Mapping[str, Iterable[str]] | None = None,
    *,
    schema: dict | None = None,
    on_error: str = "raise",
    report: dict | None = None,
    extend=None,
    per_batch: Callable[[pl.DataFrame], pl.DataFrame] | None = None,
) -> Iterator[pl.DataFrame]:
    """The llama-bench rows of each file of ``paths`` in turn (``rows_of``; columns: ``decode_schema(only,
    members)``, or ``schema`` where the caller decodes more, e.g. an older build's fields; then ``file``,
    ``line``), each batch of a file's lines passed to ``per_batch`` (default: kept as is) before the
    file's batches are joined.  ``extend``: ``jsonl.iter_files``' look at each batch's raw lines (fields
    the declaration lacks, ``identity.UnknownFields.extend``).

    Invalid records are counted over the whole file, then raise (``on_error="raise"``: the first one,
    file:line, field and fix, and how many more) or are dropped and counted in ``report["invalid"]`` with
    examples in ``report["invalid_examples"]`` (``on_error="skip"``), as ``jsonl.validate`` does on a frame.

    Raises:
        records.RecordError: a line is not JSON (``on_error="raise"``), or a record fails a check.
    """
    by_schema = checks(only, members)
    sch = schema if schema is not None else decode_schema(only, members)
    invalid: dict[int, dict] = {}  # first line of a batch -> what validate counted in it

    def batch(df: pl.DataFrame) -> pl.DataFrame:
        counted: dict = {}  # the batch's invalid records
        if not df.is_empty():
            first, last = int(df["line"][0]), int(df["line"][-1])
            # lines read again (a wider schema, or the whole file by the tolerant path) replace their count
            for k in [k for k in invalid if first <= k <= last]:
                del invalid[k]
            invalid[first] = counted
        rows = rows_of(df, by_schema, "skip", counted)
        return per_batch(rows) if per_batch is not None else rows

    for frame in iter_files(paths, sch, on_error, report, extend=extend, per_batch=batch):
        counts = [invalid[k] for k in sorted(invalid) if invalid[k].get("invalid")]
        invalid.clear()
        if counts:
            n_bad = sum(c["invalid"] for c in counts)
            examples = [e for c in counts for e in c["invalid_examples"]]
            if on_error == "raise":
                raise invalid_records(examples[0], n_bad)
            if report is not None:
                report["invalid"] = report.get("invalid", 0) + n_bad
                report.setdefault("invalid_examples", []).extend(examples[:20])
        yield frame
        del frame


def empty(
    only: Iterable[str] | None = None,
    members: Mapping[str, Iterable[str]] | None = None,
    schema: dict | None = None,
) -> pl.DataFrame:
    """No rows, with ``iter_rows``' columns (the decoded fields, ``file``, ``line``)."""
    sch = schema if schema is not None else decode_schema(only, members)
    return pl.DataFrame(schema={**sch, "file": pl.String, "line": pl.Int64})


def complete_runs(rows: pl.DataFrame, report: dict | None = None) -> pl.DataFrame:
    """``rows`` (columns ``file``, ``line``, ``run_id``, ``row_index``, ``rows_total``) de-duplicated, then
    the rows of invocations cut short dropped; order kept.

    1. A record written twice (same ``run_id`` and ``row_index``, e.g. a line appended again) is one row:
       the first is kept; the others are counted in ``report["duplicates"]`` (file:line examples in
       ``report["duplicate_examples"]``).  Without this, the extra row would make the run look like it has
       more rows than ``rows_total`` and the whole run would be dropped.
    2. An invocation with fewer distinct rows than ``rows_total`` (cut short by a kill, or a lost row:
       ``llamacpp.bench.append_result``) is dropped and counted in ``report["incomplete_runs"]`` (its rows
       in ``report["incomplete_rows"]``).  A null ``rows_total`` (an ingested row) counts as 1.
    """
    if rows.is_empty():
        return rows
    keep = rows.select(pl.struct("run_id", "row_index").is_first_distinct()).to_series()
    n_dup = rows.height - int(keep.sum())
    if n_dup:
        if report is not None:
            dups = rows.filter(~keep)
            report["duplicates"] = report.get("duplicates", 0) + n_dup
            report.setdefault("duplicate_examples", []).extend(
                f"{f}:{ln}: run {r} row {i} repeated (first copy kept)"
                for f, ln, r, i in dups.select("file", "line", "run_id", "row_index").head(20).iter_rows()
            )
        rows = rows.filter(keep)
    del keep
    total = pl.col("rows_total").fill_null(1)
    if (rows["rows_total"].fill_null(1) == 1).all():
        return rows
    ok = rows.select((total == 1) | (pl.len().over("run_id") == total)).to_series()
    if not ok.all():
        if report is not None:
            cut = rows.filter(~ok)
            report["incomplete_runs"] = report.get("incomplete_runs", 0) + cut["run_id"].n_unique()
            report["incomplete_rows"] = report.get("incomplete_rows", 0) + cut.height
        rows = rows.filter(ok)
    return rows


def read(
    folder: str | Path,
    experiment: str | None = None,
    only: Iterable[str] | None = None,
    members: Mapping[str, Iterable[str]] | None = None,
    on_error: str = "raise",
    report: dict | None = None,
) -> pl.DataFrame:
    """Every llama-bench row under ``folder`` (``files``), those of ``experiment`` only when given, of runs
    that completed (``complete_runs``), in file and line order: the one kind at its current version, the
    fields of ``only``/``members`` (default: every declared field), ``file`` and ``line``.

    >>> rows = read("data/raw/speculative", "speculative", only=["run_id", "role"])  # doctest: +SKIP

    Raises:
        records.RecordError: a line is not JSON or a record fails a check (file:line, field, fix).
    """
    if only is not None:  # what the filters below read
        need = ("run_id", "row_index", "rows_total", *(("experiment",) if experiment is not None else ()))
        only = [*only, *(n for n in need if n not in only)]
    frames = list(iter_rows(files(folder), only, members, on_error=on_error, report=report))
    rows = pl.concat(frames, how="vertical") if frames else empty(only, members)
    if experiment is not None:
        rows = rows.filter(pl.col("experiment") == experiment)
    return complete_runs(rows, report)

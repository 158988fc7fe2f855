"""llama-bench analysis: raw ``benchbook.llama_bench`` records -> one flat table -> per-configuration
rate statistics and same-session ratios.

Conventions (DESIGN.md, "Statistics and caveats"; formulas in ``benchbook.stats``):

* A headline rate is the mean of per-repetition rates, as llama-bench's ``avg_ts``
  (``tools/llama-bench/llama-bench.cpp``: ``ts = 1e9 * (n_prompt + n_gen) / t_ns`` per sample, then
  averaged), never total tokens over total time.
* Its interval is Student's t 95% interval over the per-repetition rates:
  ``mean ± t_{0.975, n-1} · sd / sqrt(n)`` with the sample standard deviation (ddof=1), as in any
  statistics text (e.g. NIST/SEMATECH e-Handbook §7.2.2.1).  n < 2 gives no interval.
* pp and tg rows are separate tests; rates are never averaged across them (a ``pg`` row is one
  test of its own and carries the ``mixed_phase`` caveat).
* A configuration is every field of a row that is not a measurement (``benchbook.identity``): the
  columns of ``CONFIG_COLS``/``PARAM_COLS`` plus ``config_key``, a hash of every other configuration
  field (fields this code does not know included, shown in ``config_extra``); rows differing in any
  never pool, and rows of one configuration that disagree beyond their noise are published apart
  (``state_effect``).
* Ratios only between configurations of the same session, host and build (``ratio_stats``), with
  their own interval (delta method on the log ratio, Welch-Satterthwaite degrees of freedom).

Reading goes through ``benchbook.benchrows``, the one reader of llama-bench rows (the one kind
``benchbook.llama_bench`` and the retired kinds read as it; schema-checked, file:line per row, vectorized
checks raising ``RecordError`` with file:line, field and fix; runs cut short dropped).
Entry point: ``load(raw_dir)`` (see ``benchbook.experiments``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from benchbook import benchrows, identity, schemas
from benchbook.stats import add_t_interval, ratio_interval

LLAMA_BENCH_SCHEMA = benchrows.SCHEMA

#: The top-level fields of a ``benchbook.llama_bench`` record the analysis reads ...
_READ = [
    "run_id",
    "session_id",
    "host_id",
    "toolchain_id",
    "model_id",
    "model_sha256",
    "phase",
    "argv",
    "git_commit",
    "git_dirty",
    "started_at",
    "ended_at",
    "load_start",
    "load_end",
    "peak_rss_bytes",
    "peak_gpu_mem_mib",
    "row_index",
    "rows_total",
    "status",
    "origin",
    "source_format",
    "llama_bench",
]
#: ... and the members of llama-bench's own row: every configuration field (``identity.CONFIG_FIELDS``)
#: and the measurements the statistics read; of the load snapshots, what the flat table and the checks
#: read (the governor and clock are not decoded: about 5% of the decoding time)
_READ_ROW = {
    "llama_bench": [*identity.CONFIG_FIELDS, "samples_ns", "avg_ts", "stddev_ts"],
    "load_start": ["loadavg", "top_processes"],
    "load_end": ["loadavg", "top_processes"],
}


def _with_legacy(schema: dict) -> dict:
    """``schema`` with the older builds' ``use_mmap`` (decoded as text) under ``llama_bench``."""
    st = schema["llama_bench"]
    return {**schema, "llama_bench": pl.Struct([*st.fields, pl.Field("use_mmap", pl.String)])}


#: Polars schema of what the analysis reads, typed as ``benchbook.schemas`` declares the kind.
LLAMA_BENCH_FIELDS = schemas.polars_schema("llama_bench", only=_READ, members=_READ_ROW)
#: ... as the files are decoded: plus the older builds' ``use_mmap`` (``identity.load_mode_expr``)
_DECODE_FIELDS = _with_legacy(LLAMA_BENCH_FIELDS)


#: String columns of the flat llama-bench table whose values repeat from row to row.
_REPEATED = (
    "file",
    "session_id",
    "host_id",
    "toolchain_id",
    "model_id",
    "model_sha256",
    "phase",
    "test",
    "build_commit",
    "backends",
    "type_k",
    "type_v",
    "git_commit",
    "load_mode",
    "placement",
    "config_extra",
    # one value for the rows of one invocation (often of one session)
    "started_at",
    "ended_at",
)


def _share_strings(df: pl.DataFrame, cols=_REPEATED) -> pl.DataFrame:
    """The same frame, each String column of ``cols`` with at most half as many distinct values as rows
    rebuilt by gathering from its distinct values.

    Polars strings are 16-byte views into shared buffers, and a gather copies views, not text; so a
    column of a few distinct values then costs 16 bytes a row instead of the text decoded once per row
    (a 64-character sha256 in every record).  Values and dtype are unchanged.  A column of one value
    (no null) gathers its first row, without sorting (most columns of one host's file)."""
    names = [c for c in cols if c in df.columns and df.schema[c] == pl.String]
    if df.height < 2 or not names:
        return df
    counts = df.select(
        *[pl.col(c).drop_nulls().n_unique().alias(f"u{i}") for i, c in enumerate(names)],
        *[pl.col(c).null_count().alias(f"n{i}") for i, c in enumerate(names)],
    ).row(0, named=True)
    out = []
    for i, c in enumerate(names):
        if counts[f"u{i}"] == 1 and counts[f"n{i}"] == 0:
            out.append(pl.col(c).first().gather(pl.zeros(pl.len(), pl.UInt32)))
        elif counts[f"u{i}"] * 2 <= df.height:  # nulls rank null, and gather null
            out.append(
                pl.col(c).drop_nulls().unique().sort().gather(pl.col(c).rank("dense").cast(pl.Int64) - 1)
            )
    return df.with_columns(out) if out else df


#: configuration columns of the flat table shown beside the statistics (the rest of the configuration
#: is in ``config_key`` only; ``config_extra`` shows the fields this code does not know)
SHOWN_COLS = ["n_batch", "n_ubatch", "load_mode", "placement", "placement_unresolved", "config_extra"]


def _identity_columns(raw: pl.DataFrame) -> tuple[list[pl.Expr], list[pl.Expr]]:
    """The configuration columns ``identity`` derives from a decoded frame: SHOWN_COLS and
    ``config_key`` (a 64-bit hash of every configuration field of the row, normalised, the unknown ones
    as ``config_extra``, and the argv).

    Returns ``(first, columns)``: ``first`` adds the normalised fields to the decoded frame (computed
    once: the key hashes the same columns the table shows), ``columns`` selects them from it."""
    lb = pl.col("llama_bench").struct.field
    members = set(identity.member_names(raw.schema["llama_bench"]))
    extra = identity.extra_names(raw.schema["llama_bench"])
    use_mmap = lb("use_mmap") if "use_mmap" in members else None
    placement, unresolved = identity.placement_expr(lb("n_cpu_moe"), lb("tensor_buft_overrides"))
    first = [
        identity.load_mode_expr(lb("load_mode"), use_mmap).alias("_id_load_mode"),
        placement.alias("_id_placement"),
        identity.extra_expr(extra).alias("_id_extra"),
    ]
    load_mode, placement, config_extra = pl.col("_id_load_mode"), pl.col("_id_placement"), pl.col("_id_extra")
    normalised = {"load_mode": load_mode, "tensor_buft_overrides": placement}
    parts = [normalised.get(n, lb(n)).alias(n) for n in identity.CONFIG_FIELDS]
    key = pl.struct(*parts, config_extra.alias("_extra"), pl.col("argv"))
    return first, [
        lb("n_batch").alias("n_batch"),
        lb("n_ubatch").alias("n_ubatch"),
        load_mode.alias("load_mode"),
        placement.alias("placement"),
        unresolved.alias("placement_unresolved"),
        config_extra.alias("config_extra"),
        key.hash().alias("config_key"),
    ]


#: column of the flat rows of ``_flat_files`` (dropped before they are yielded): llama-bench's own
#: ``load_mode`` text, for ``identity.UnknownFields.note_load_mode``
_RAW_LOAD_MODE = "_load_mode_raw"


def _flatten_llama_bench(raw: pl.DataFrame, raw_load_mode: bool = False, share: bool = True) -> pl.DataFrame:
    """The flat rows of decoded llama-bench records (``load_llama_bench``'s columns); ``share``: with
    ``_share_strings`` applied (``_flat_files`` applies it to a file's rows at once instead)."""
    lb = pl.col("llama_bench").struct.field
    n_p, n_g = lb("n_prompt"), lb("n_gen")
    others = (
        pl.col("load_end")
        .struct.field("top_processes")
        .list.eval(
            pl.element()
            .filter(~pl.element().struct.field("name").fill_null("").str.starts_with("llama-"))
            .struct.field("cpu_percent")
        )
        .list.max()
    )
    first, identity_columns = _identity_columns(raw)
    flat = raw.with_columns(first).select(
        "file",
        "line",
        "run_id",
        "session_id",
        "host_id",
        "toolchain_id",
        "model_id",
        "model_sha256",
        "phase",
        pl.when(n_g == 0)
        .then(pl.lit("pp"))
        .when(n_p == 0)
        .then(pl.lit("tg"))
        .otherwise(pl.lit("pg"))
        .alias("test"),
        n_p.alias("n_prompt"),
        n_g.alias("n_gen"),
        lb("n_depth").fill_null(0).alias("n_depth"),
        lb("samples_ns").alias("samples_ns"),
        lb("avg_ts").alias("avg_ts"),
        lb("stddev_ts").alias("stddev_ts"),
        pl.col("origin").fill_null(schemas.NATIVE).alias("origin"),
        pl.when(lb("samples_ns").is_null()).then(pl.col("line")).otherwise(None).alias(STATED_KEY),
        lb("build_number").alias("build_number"),
        lb("build_commit").cast(pl.String).alias("build_commit"),
        lb("backends").cast(pl.String).alias("backends"),
        "started_at",
        "ended_at",
        pl.col("load_start").struct.field("loadavg").list.first().alias("load1_start"),
        pl.col("load_end").struct.field("loadavg").list.first().alias("load1_end"),
        "argv",
        "git_commit",
        "git_dirty",
        pl.col("peak_rss_bytes").fill_null(0).alias("peak_rss_bytes"),
        lb("n_threads").alias("n_threads"),
        lb("n_gpu_layers").alias("n_gpu_layers"),
        lb("n_cpu_moe").fill_null(0).alias("n_cpu_moe"),
        lb("flash_attn").alias("flash_attn"),
        lb("type_k").alias("type_k"),
        lb("type_v").alias("type_v"),
        "peak_gpu_mem_mib",
        others.alias("others_cpu_pct_max"),
        "schema_version",
        pl.col("row_index").alias("row_index"),
        pl.col("rows_total").fill_null(1).alias("rows_total"),
        *identity_columns,
        *([lb("load_mode").cast(pl.String).alias(_RAW_LOAD_MODE)] if raw_load_mode else []),
    )
    return _share_strings(flat) if share else flat


def _complete_rows(flat: pl.DataFrame, report: dict | None = None) -> pl.DataFrame:
    """Flat rows of complete runs (``benchrows.complete_runs``: a record written twice kept once, rows of an
    invocation cut short dropped, both counted in ``report``); ``row_index`` and ``rows_total`` removed."""
    flat = benchrows.complete_runs(flat, report).clone()
    # a shallow copy; drop_in_place, unlike drop, never rechunks (copies) the columns
    flat.drop_in_place("rows_total")
    flat.drop_in_place("row_index")
    return flat


def scan_llama_bench(
    raw_dir: str | Path, on_error: str = "raise", report: dict | None = None
) -> pl.LazyFrame:
    """``load_llama_bench(raw_dir, on_error, report)`` as a LazyFrame."""
    return load_llama_bench(raw_dir, on_error, report).lazy()


def _flat_files(raw_dir, on_error: str, report: dict | None, unknown: identity.UnknownFields | None = None):
    """Validated, flat llama-bench rows (with ``rows_total``) of each file under ``raw_dir`` in turn
    (``benchrows.iter_rows``: every row of the one kind and of the retired kinds read as it); fields of
    llama-bench's row this code does not know are found per file (``unknown``) and kept.

    Each batch of a file's lines is decoded, validated and flattened before the next is read, so memory
    holds one batch decoded and the file's flat rows.  Invalid records raise or are dropped and counted in
    ``report``, as ``benchrows.iter_rows`` says."""
    unknown = unknown if unknown is not None else identity.UnknownFields()

    def flatten(rows: pl.DataFrame) -> pl.DataFrame:
        return _flatten_llama_bench(rows, raw_load_mode=True, share=False)

    decoded = benchrows.iter_rows(
        benchrows.files(raw_dir),
        _READ,
        _READ_ROW,
        schema=_DECODE_FIELDS,
        on_error=on_error,
        report=report,
        extend=unknown.extend,
        per_batch=flatten,
    )
    for flat in decoded:
        if not flat.is_empty():
            unknown.note_load_mode(flat, pl.col(_RAW_LOAD_MODE))
        flat.drop_in_place(_RAW_LOAD_MODE)
        yield _share_strings(flat)
        del flat


def load_llama_bench(
    raw_dir: str | Path, on_error: str = "raise", report: dict | None = None
) -> pl.DataFrame:
    """One row per llama-bench test row of every complete run under ``raw_dir`` (``**/*.jsonl``).

    Columns: file, line, run_id, session_id, host_id, toolchain_id, model_id, model_sha256, phase,
    test ("pp" | "tg" | "pg"), n_prompt, n_gen, n_depth, samples_ns (list[i64], ns), avg_ts (tok/s),
    build_number, build_commit, backends, started_at, ended_at, load1_start, load1_end, argv,
    git_commit, git_dirty, peak_rss_bytes, n_threads, n_gpu_layers, n_cpu_moe, flash_attn, type_k,
    type_v, peak_gpu_mem_mib, others_cpu_pct_max (highest CPU % of a non-llama process at the end of
    the run), schema_version.  A record repeated (same run_id and row_index) is kept once (the first;
    ``report["duplicates"]`` counts the others); then rows of an invocation cut short by a kill (fewer
    rows than ``rows_total``) are dropped (``report["incomplete_runs"]``/``["incomplete_rows"]``).
    ``on_error``: "raise" or "skip" (counts go to ``report``).

    Configuration columns (``benchbook.identity``): n_batch, n_ubatch, load_mode (normalised; null when
    unknown), placement (the override list), placement_unresolved, config_extra (fields llama-bench
    printed that this code does not know, ``name=value, ...``), config_key (hash of every configuration
    field).  One ``identity.IdentityWarning`` per unknown field (and per file with an integer
    load_mode) names its first file:line (also in ``report["warnings"]``).

    Raises:
        records.RecordError: a line is not JSON, or a field is missing/invalid (file:line, field, fix).
    """
    flats = []
    unknown = identity.UnknownFields()
    for flat in _flat_files(raw_dir, on_error, report, unknown):
        flats.append(flat)
        del flat
    unknown.warn(report)
    if not flats:
        return _complete_rows(_flatten_llama_bench(benchrows.empty(schema=_DECODE_FIELDS)))
    flat = pl.concat(flats, how="vertical", rechunk=False)
    del flats
    return _complete_rows(flat, report)


CONFIG_COLS = [
    "host_id",
    "toolchain_id",
    "session_id",
    "model_id",
    "model_sha256",
    "phase",
    "test",
    "n_prompt",
    "n_gen",
    "n_depth",
]
#: Further llama-bench parameters that distinguish configurations (grouped on when present).
PARAM_COLS = ["n_threads", "n_gpu_layers", "n_cpu_moe", "flash_attn", "type_k", "type_v"]
#: The flat table's line of a row without samples (null for rows with samples): grouped on, so such a
#: row is never pooled with another (its sd cannot be combined without n).
STATED_KEY = "stated_line"


def _keys(df: pl.DataFrame) -> list[str]:
    return CONFIG_COLS + [c for c in (*PARAM_COLS, "config_key", STATED_KEY) if c in df.columns]


def _shown(df: pl.DataFrame, keys: list[str]) -> list[str]:
    """The key columns plus the configuration columns shown beside them (functions of config_key)."""
    return keys + [c for c in SHOWN_COLS if c in df.columns and c not in keys]


def rate_stats(df: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Per configuration (CONFIG_COLS + PARAM_COLS present + ``config_key``): per-repetition rates and
    their statistics.

    Output columns: CONFIG_COLS, PARAM_COLS present in ``df``, config_key and SHOWN_COLS (n_batch,
    n_ubatch, load_mode, placement, placement_unresolved, config_extra), state_effect (the row is one
    record of a configuration whose records disagree beyond their noise, ``identity.state_effect``:
    published apart, never pooled), n, mean_tps, sd_tps, cv, ci_low_tps,
    ci_high_tps, llama_bench_avg_ts (llama-bench's own average, for the consistency check), files,
    lines (list), run_ids (list), argv (first), build_number, build_commit, started_at (min), ended_at
    (max), load1_max, peak_rss_bytes (max), peak_gpu_mem_mib (max), others_cpu_pct_max (max), and the
    robust summary beside llama-bench's mean: median_tps (median of every sample), mean_tps_rest (mean
    without each row's first sample) and first_sample_ratio (smallest over the rows of first sample ÷
    median of the row's other samples: the ``cold_start`` first-sample form); null for stated rows;
    order_n, order_rho, order_rho_rest and order_drift (``identity.order_trend`` of a record's samples
    in run order: the ``order_trend`` caveat; for a pooled row, those of its record with the largest
    |ρ|). A record whose samples drift (``identity.order_trend``) is not pooled with the other records
    of its configuration: each record of that configuration is a row of its own (``state_effect`` false
    unless the test fired).
    Rate per sample: ``1e9 * (n_prompt + n_gen) / samples_ns`` tok/s; the interval is the log-scale
    Student-t interval (``stats.add_t_interval``; none below n = 3).
    Rows are in the order of each configuration's first row in ``df``.

    Computed without exploding samples: per record ``k`` (samples), mean ``m`` and ``M2`` (sum of squared
    deviations), combined per configuration by Chan et al.'s pairwise formula
    ``M2 = Σ M2_i + Σ k_i (m_i - mean)²`` (Chan, Golub & LeVeque, 1979), so ``sd = sqrt(M2 / (n - 1))``
    equals the sample sd over all per-repetition rates.

    Host by host: host_id is part of every configuration, so grouping one host's rows at a time is
    exact and keeps the grouping's working memory to one host's share.
    """
    if df.is_empty():
        return df
    keys = _keys(df)
    if df["host_id"].n_unique() <= 1:
        parts = [_config_stats(df, keys, 0)]
    else:
        idx = (
            df.select(pl.int_range(pl.len(), dtype=pl.UInt32).alias("_i"), "host_id")
            .group_by("host_id", maintain_order=True)
            .agg("_i")["_i"]
        )
        parts = [_config_stats(df[rows], keys, rows) for rows in idx]
        del idx
    return _finish_rate_stats(parts, confidence)


def rate_stats_raw(
    raw_dir: str | Path, on_error: str = "raise", report: dict | None = None, confidence: float = 0.95
) -> pl.DataFrame:
    """``rate_stats(load_llama_bench(raw_dir, on_error, report), confidence)``, file by file.

    The same table, row for row, without holding every raw row at once: each file is read, validated,
    flattened and aggregated before the next, so memory holds the statistics plus one file's rows.
    Exact when no host_id and no multi-row invocation appears in more than one file (the layout the
    runners write: one file per host); otherwise it computes the table the whole-table way.
    ``report["rows"]`` (when given) counts the raw rows aggregated.
    """
    before = dict(report or {})
    parts, hosts, multi, offset = [], [], [], 0
    keys = None
    unknown = identity.UnknownFields()
    for flat in _flat_files(raw_dir, on_error, report, unknown):
        hosts.append(flat["host_id"].unique())
        if not (flat["rows_total"] == 1).all():
            multi.append(flat.filter(pl.col("rows_total") > 1)["run_id"].unique())
        flat = _complete_rows(flat, report)
        if keys is None:
            keys = _keys(flat)
        if not flat.is_empty():
            parts.append(_config_stats(flat, keys, offset))
        offset += flat.height
        del flat
    spans = lambda ss: bool(ss) and sum(len(x) for x in ss) > pl.concat(ss).n_unique()  # noqa: E731
    if not (spans(hosts) or spans(multi)):
        unknown.warn(report)
    if spans(hosts) or spans(multi):
        del parts
        if report is not None:
            report.clear()
            report.update(before)
        df = load_llama_bench(raw_dir, on_error, report)
        if report is not None:
            report["rows"] = report.get("rows", 0) + df.height
        return rate_stats(df, confidence)
    if report is not None:
        report["rows"] = report.get("rows", 0) + offset
    if not parts:
        return rate_stats(load_llama_bench(raw_dir, on_error, None), confidence)
    return _finish_rate_stats(parts, confidence)


def _aggregations(extra: list[pl.Expr]) -> list[pl.Expr]:
    """Per-configuration aggregations of ``_config_stats`` over its per-record frame (``_k`` samples,
    ``_m`` mean and ``_M2`` sum of squared deviations of a record's per-repetition rates)."""
    k, m = pl.col("_k"), pl.col("_m")
    mean = (k * m).sum() / k.sum()
    m2 = pl.col("_M2").sum() + (k * (m - mean) ** 2).sum()
    # a row without samples (markdown, CSV) is a configuration of its own (keyed by its line): its mean
    # and sd as the source states them, n unknown (null), so no interval is formed
    stated = k.is_null().any()
    return [
        pl.col("_first").min(),
        pl.when(stated).then(None).otherwise(k.sum()).cast(pl.UInt32).alias("n"),
        pl.when(stated).then(pl.col("avg_ts").first()).otherwise(mean).alias("mean_tps"),
        pl.when(stated)
        .then(pl.col("stddev_ts").first())
        .when(k.sum() > 1)
        .then((m2 / (k.sum() - 1)).sqrt())
        .otherwise(None)
        .alias("sd_tps"),
        pl.col("avg_ts").mean().alias("llama_bench_avg_ts"),
        # the robust summary beside llama-bench's mean (cold_start's first-sample form, issue 12)
        pl.when(stated).then(None).otherwise(pl.col("_ts").explode().median()).alias("median_tps"),
        pl.when(stated | (k.sum() <= k.count()))
        .then(None)
        .otherwise(pl.col("_sr").sum() / (k.sum() - k.count()))
        .alias("mean_tps_rest"),
        pl.col("_r").min().alias("first_sample_ratio"),
        *_order_of_strongest(),
        pl.col("file").unique().alias("files"),
        pl.col("line").unique().sort().alias("lines"),
        pl.col("run_id").unique().alias("run_ids"),
        # categorical words: one argv per configuration is ~20 words, 4 bytes each instead of 16
        pl.col("argv").first().cast(pl.List(pl.Categorical)).alias("argv"),
        pl.col("build_number").first(),
        pl.col("build_commit").first(),
        pl.col("started_at").min(),
        pl.col("ended_at").max(),
        pl.max_horizontal("load1_start", "load1_end").max().alias("load1_max"),
        pl.col("peak_rss_bytes").max(),
        *extra,
        # a record drifting in run order splits its configuration (identity.order_trend)
        _drifting().any().alias("_drift_any"),
        # the state-effect test's inputs: the records with the lowest and the highest mean
        pl.len().alias("_rows"),
        m.min().alias("_m_lo"),
        k.get(m.arg_min()).alias("_k_lo"),
        (pl.col("_M2") / (k - 1)).get(m.arg_min()).alias("_v_lo"),
        m.max().alias("_m_hi"),
        k.get(m.arg_max()).alias("_k_hi"),
        (pl.col("_M2") / (k - 1)).get(m.arg_max()).alias("_v_hi"),
    ]


def _one_record(extra: Sequence[str]) -> list[pl.Expr]:
    """``_aggregations`` (without the state-effect inputs) of configurations of one record each, row by
    row: no grouping.  The same values, bit for bit, and dtypes: a sum, first, min or max of one value
    is that value (so ``mean = (k·m)/k`` and ``M2 = M2_1 + k·(m - mean)²`` are the pooled formulas'
    own arithmetic), the median of every sample is the median of the record's samples, and the lists
    (files, lines, run_ids) hold one element."""
    k, m = pl.col("_k"), pl.col("_m")
    mean = (k * m) / k
    m2 = pl.col("_M2") + k * (m - mean) ** 2
    stated = k.is_null()
    return [
        pl.col("_first"),
        pl.when(stated).then(None).otherwise(k).cast(pl.UInt32).alias("n"),
        pl.when(stated).then(pl.col("avg_ts")).otherwise(mean).alias("mean_tps"),
        pl.when(stated)
        .then(pl.col("stddev_ts"))
        .when(k > 1)
        .then((m2 / (k - 1)).sqrt())
        .otherwise(None)
        .alias("sd_tps"),
        pl.col("avg_ts").alias("llama_bench_avg_ts"),
        pl.when(stated).then(None).otherwise(pl.col("_ts").list.median()).alias("median_tps"),
        pl.when(stated | (k <= 1)).then(None).otherwise(pl.col("_sr") / (k - 1)).alias("mean_tps_rest"),
        pl.col("_r").alias("first_sample_ratio"),
        pl.when(stated).then(None).otherwise(k).cast(pl.UInt32).alias("order_n"),
        pl.col("_rho").alias("order_rho"),
        pl.col("_rho_rest").alias("order_rho_rest"),
        pl.col("_drift").alias("order_drift"),
        pl.concat_list("file").alias("files"),
        pl.concat_list("line").alias("lines"),
        pl.concat_list("run_id").alias("run_ids"),
        pl.col("argv").cast(pl.List(pl.Categorical)),
        pl.col("build_number"),
        pl.col("build_commit"),
        pl.col("started_at"),
        pl.col("ended_at"),
        pl.max_horizontal("load1_start", "load1_end").alias("load1_max"),
        pl.col("peak_rss_bytes"),
        *[pl.col(c) for c in extra],
    ]


def _drifting() -> pl.Expr:
    """True for a record whose samples drift in run order (``identity.order_trend``'s thresholds)."""
    return (
        (pl.col("_k") >= identity.ORDER_MIN_N)
        & (pl.col("_rho").abs() >= identity.ORDER_RHO_MIN)
        & (pl.col("_rho_rest") * pl.col("_rho") > 0)
        & (pl.col("_rho_rest").abs() >= identity.ORDER_RHO_REST_MIN)
        & (pl.col("_drift").abs() >= identity.ORDER_DRIFT_MIN)
    ).fill_null(False)


def _order_of_strongest() -> list[pl.Expr]:
    """order_n, order_rho, order_drift of a pooled configuration: those of its record with the largest
    |ρ| (a record with no ρ counts as 0)."""
    at = pl.col("_rho").abs().fill_null(0.0).arg_max()
    return [
        pl.col("_k").get(at).cast(pl.UInt32).alias("order_n"),
        pl.col("_rho").get(at).alias("order_rho"),
        pl.col("_rho_rest").get(at).alias("order_rho_rest"),
        pl.col("_drift").get(at).alias("order_drift"),
    ]


def _state_effect(g: pl.DataFrame) -> pl.Series:
    """``identity.state_effect`` of each aggregated configuration of ``_config_stats`` (False for one
    record)."""
    multi = (g["_rows"] > 1).fill_null(False)
    if not multi.any():
        return pl.Series("state_effect", [False] * g.height, dtype=pl.Boolean)
    k1, m1, v1, k2, m2, v2 = (
        g[c].cast(pl.Float64).fill_null(np.nan).to_numpy()
        for c in ("_k_lo", "_m_lo", "_v_lo", "_k_hi", "_m_hi", "_v_hi")
    )
    flag = identity.state_effect(k1, m1, v1, k2, m2, v2, g["_rows"].cast(pl.Float64).to_numpy())
    return pl.Series("state_effect", flag & multi.to_numpy(), dtype=pl.Boolean)


def _alone(df: pl.DataFrame, keys: list[str]) -> pl.Series:
    """True for the rows of ``df`` that are the only record of their configuration (``keys``).

    Configurations of one record (the common case: each configuration measured once per session) need
    no grouping (``_one_record``).  Decided on a 64-bit hash of the keys: rows sharing a hash go to the
    grouping, which compares the keys themselves, so a collision costs time, never a wrong pool."""
    return df.select(pl.struct(keys).hash().is_unique()).to_series()


#: ``state_effect`` of a configuration of one record (nothing to split)
_NOT_SPLIT = pl.lit(False).alias("state_effect")


def _config_stats(df: pl.DataFrame, keys: list[str], first) -> pl.DataFrame:
    """``rate_stats`` columns (before the interval) of the configurations in ``df`` plus ``_first``:
    the row number of each configuration's first row, from ``first`` (an offset, or the row numbers
    of ``df``'s rows in the whole table).

    A configuration whose records disagree beyond their own noise (``identity.state_effect``) is not
    pooled: each of its records is a row of its own with ``state_effect`` true."""
    extra_cols = [c for c in ("peak_gpu_mem_mib", "others_cpu_pct_max") if c in df.columns]
    extra = [pl.col(c).max() for c in extra_cols]
    row = (
        pl.int_range(pl.len(), dtype=pl.UInt32) + first
        if isinstance(first, int)
        else pl.lit(first.cast(pl.UInt32))
    )
    ts = (pl.lit(1e9) * (pl.col("n_prompt") + pl.col("n_gen")).cast(pl.Float64)) / pl.col("samples_ns").cast(
        pl.List(pl.Float64)
    )
    per = (
        df.lazy()
        .select(
            *keys,
            "avg_ts",
            "stddev_ts",
            "file",
            "line",
            "run_id",
            "argv",
            "build_number",
            "build_commit",
            "started_at",
            "ended_at",
            "load1_start",
            "load1_end",
            "peak_rss_bytes",
            *[c for c in ("peak_gpu_mem_mib", "others_cpu_pct_max") if c in df.columns],
            row.alias("_first"),
            ts.alias("_ts"),
        )
        .with_columns(
            pl.col("_ts").list.len().alias("_k"),
            pl.col("_ts").list.mean().alias("_m"),
            (pl.col("_ts").list.var(ddof=0) * pl.col("_ts").list.len()).alias("_M2"),
            # first-sample form of cold_start: the first sample ÷ the median of the row's others
            (pl.col("_ts").list.first() / pl.col("_ts").list.slice(1).list.median()).alias("_r"),
            (pl.col("_ts").list.sum() - pl.col("_ts").list.first()).alias("_sr"),
            # order trend of the samples in run order (identity.order_trend)
            identity.order_rho_expr("_ts").fill_nan(None).alias("_rho"),
            identity.order_rho_expr("_ts", skip_first=True).fill_nan(None).alias("_rho_rest"),
        )
        .with_columns(
            pl.when(pl.col("_k") > 1)
            .then(1.0 - pl.col("_sr") / (pl.col("_k") - 1) / pl.col("_ts").list.first())
            .alias("_drift"),
        )
    )
    cv = (pl.col("sd_tps") / pl.col("mean_tps")).alias("cv")
    alone = _alone(df, keys)
    if alone.all():
        g = per.select(*_one_record(extra_cols)).with_columns(cv, _NOT_SPLIT).collect()
        # one chunk per column (``df`` holds one per batch read): a part of many chunks would be copied
        # whole by the first column added to the joined table, and its columns would keep every
        # batch's buffers alive
        return pl.concat([df.select(_shown(df, keys)), g], how="horizontal").rechunk()
    if alone.any():
        single = per.filter(pl.lit(alone)).select(*keys, *_one_record(extra_cols))
        per = per.filter(pl.lit(~alone))
    aggs = _aggregations(extra)
    g = per.group_by(keys, maintain_order=True).agg(*aggs).with_columns(cv).collect()
    flag = _state_effect(g)
    g = g.with_columns(flag)
    # split: the state-effect test fired, or a record drifts in run order (identity.order_trend)
    apart = flag | (g["_drift_any"] & (g["_rows"] > 1)).fill_null(False)
    if apart.any():  # the records of those configurations, each on a row of its own
        split = (
            per.join(
                g.filter(apart).select([*keys, "state_effect"]).lazy(), on=keys, how="inner", nulls_equal=True
            )
            .group_by([*keys, "_first"], maintain_order=True)
            .agg(*aggs[1:], pl.col("state_effect").first())
            .with_columns((pl.col("sd_tps") / pl.col("mean_tps")).alias("cv"))
            .collect()
        )
        g = pl.concat([g.filter(~apart), split.select(g.columns)], how="vertical").sort("_first")
    for c in ("_rows", "_m_lo", "_k_lo", "_v_lo", "_m_hi", "_k_hi", "_v_hi", "_drift_any"):
        g.drop_in_place(c)  # drop() would rechunk: a copy of the whole table
    if alone.any():
        one = single.with_columns(cv, _NOT_SPLIT).collect()
        g = pl.concat([g, one.select(g.columns)], how="vertical").sort("_first")
    # the group keys again, as a gather of each configuration's first row: string columns then share
    # ``df``'s (deduplicated, see _share_strings) buffers instead of a copy of the text per row
    if isinstance(first, int):
        pos = g["_first"] - first
    else:  # global row numbers (ascending) -> positions in df
        pos = first.cast(pl.UInt32).search_sorted(g["_first"])
    key_cols = df.select(_shown(df, keys))[pos]
    for c in keys:
        g.drop_in_place(c)
    return pl.concat([key_cols, g], how="horizontal")


def _finish_part(g: pl.DataFrame, confidence: float) -> pl.DataFrame:
    """One part of ``_finish_rate_stats``: ``stated`` and the interval columns added."""
    if STATED_KEY in g.columns:
        g = g.with_columns(pl.col(STATED_KEY).is_not_null().alias("stated"))
        g.drop_in_place(STATED_KEY)
    return add_t_interval(g, "mean_tps", "sd_tps", "n", "ci_low_tps", "ci_high_tps", confidence)


def _finish_rate_stats(parts: list[pl.DataFrame], confidence: float) -> pl.DataFrame:
    """The parts of ``_config_stats`` finished one by one (``_finish_part``), then joined in first-row
    order.  Part by part because adding a column to a frame of many chunks copies every column into
    one chunk (a second copy of the whole table at its largest); the joined table keeps one chunk per
    part, which Polars' expressions read as they are."""
    for i, part in enumerate(parts):
        parts[i] = _finish_part(part, confidence)
    g = pl.concat(parts, how="vertical", rechunk=False) if len(parts) > 1 else parts[0]
    parts.clear()
    if not g["_first"].is_sorted():  # hosts interleaved in the input: a copy in first-row order
        g = g.sort("_first")
    g.drop_in_place("_first")  # drop() would rechunk: a copy of the whole table
    return g


def ratio_stats(
    stats: pl.DataFrame,
    numerator: pl.Expr,
    denominator: pl.Expr,
    match: list[str],
    confidence: float = 0.95,
    name: str = "ratio",
) -> pl.DataFrame:
    """Ratios of mean rates between rows of one session, host and build (``rate_stats`` output).

    ``numerator``/``denominator`` select rows (e.g. ``pl.col("model_id") == "a"``); pairs are joined on
    ``session_id, host_id, toolchain_id`` plus ``match`` (e.g. ``["test", "n_gen", "phase"]``), so a
    ratio across sessions, hosts or builds cannot be formed.  Output: the join keys, ``id`` (stable:
    ``name`` + num/den model ids + match values), value (ratio), ci_low, ci_high, dof, and per side
    ``num_*``/``den_*``: n, mean_tps, model_id, method ("llama-bench"), phase (the test), host, build,
    run_ids, lo/hi (the side's mean) - the columns the ``comparison`` caveat rules read.
    """
    on = ["session_id", "host_id", "toolchain_id"] + list(match)
    cols = list(dict.fromkeys(on + ["model_id", "test", "n", "mean_tps", "sd_tps", "run_ids"]))
    a = stats.filter(numerator).select(cols)
    b = stats.filter(denominator).select(cols)
    j = a.join(b, on=on, suffix="_den")
    if j.is_empty():
        return j
    r, lo, hi, dof = ratio_interval(
        j["mean_tps"],
        j["sd_tps"].fill_null(np.nan),
        j["n"],
        j["mean_tps_den"],
        j["sd_tps_den"].fill_null(np.nan),
        j["n_den"],
        confidence,
    )
    den = lambda c: c + "_den" if c + "_den" in j.columns else c  # noqa: E731
    return j.select(
        *on,
        pl.concat_str(
            [
                pl.lit(name),
                pl.col("model_id"),
                pl.col(den("model_id")),
                *[pl.col(m).cast(pl.String) for m in match],
            ],
            separator="-",
        ).alias("id"),
        pl.Series("value", r),
        pl.Series("ci_low", lo).fill_nan(None),
        pl.Series("ci_high", hi).fill_nan(None),
        pl.Series("dof", dof).fill_nan(None),
        pl.col("n").alias("num_n"),
        pl.col(den("n")).alias("den_n"),
        pl.col("model_id").alias("num_model_id"),
        pl.col(den("model_id")).alias("den_model_id"),
        pl.col("mean_tps").alias("num_lo"),
        pl.col("mean_tps").alias("num_hi"),
        pl.col(den("mean_tps")).alias("den_lo"),
        pl.col(den("mean_tps")).alias("den_hi"),
        pl.lit("llama-bench").alias("num_method"),
        pl.lit("llama-bench").alias("den_method"),
        pl.col("test").alias("num_phase"),
        pl.col(den("test")).alias("den_phase"),
        pl.col("host_id").alias("num_host"),
        pl.col("host_id").alias("den_host"),
        pl.col("toolchain_id").alias("num_build"),
        pl.col("toolchain_id").alias("den_build"),
        pl.col("run_ids").alias("num_run_ids"),
        pl.col(den("run_ids")).alias("den_run_ids"),
    )


def load(raw_dir: Path) -> pl.DataFrame:
    """The tidy table of the experiment: ``load_llama_bench(raw_dir / "llama_bench")`` (one row per
    completed llama-bench output row, every host and session)."""
    return load_llama_bench(Path(raw_dir) / "llama_bench")

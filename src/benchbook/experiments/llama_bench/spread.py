"""Between-session spread and two-cluster samples of llama-bench configurations.

A session's interval describes the repetitions of that session (the unit of replication:
``repetitions``).  When a host has several completed sessions of one configuration, the spread
between their means is what a rerun gives; ``with_session_spread`` adds, per row of the ``rate_stats``
table, the means of the host's other sessions of the same configuration (``other_session_means``),
and the two-cluster statistics of the row's own per-repetition rates (``cluster_gap_ratio``,
``cluster_gap_frac``).  The caveat rules ``between_session_spread`` and ``bimodal_samples``
(``benchbook.caveats``) read them; ``sessions_markdown`` renders the spread for a page.
"""

from __future__ import annotations

import polars as pl

from benchbook.escape import code_span, markdown_table
from benchbook.stats import cluster_gap  # named here too (tests, the analyses)

from .analysis import CONFIG_COLS, PARAM_COLS


def with_session_spread(stats: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    """``stats`` (``analysis.rate_stats``) plus ``other_session_means`` (list[f64]: the ``mean_tps`` of
    every other session of the same host and configuration, oldest first), ``other_session_ids``,
    ``cluster_gap_ratio`` and ``cluster_gap_frac`` (``cluster_gap`` of the row's per-repetition rates,
    from ``rows``: ``analysis.load_llama_bench``'s table).  A configuration is every grouping column of
    ``rate_stats`` except ``session_id``."""
    keys = [c for c in CONFIG_COLS + PARAM_COLS if c in stats.columns and c != "session_id"]
    rates = (
        rows.select(
            "run_id",
            (pl.lit(1e9) * (pl.col("n_prompt") + pl.col("n_gen")).cast(pl.Float64))
            .truediv(pl.col("samples_ns").cast(pl.List(pl.Float64)))
            .alias("rates"),
            "n_prompt",
            "n_gen",
        )
        .explode("rates")
        .group_by("run_id", "n_prompt", "n_gen")
        .agg("rates")
    )
    by_run = {(r, p, g): xs for r, p, g, xs in rates.iter_rows()}
    ratio, frac = [], []
    for row in stats.select("run_ids", "n_prompt", "n_gen").iter_rows():
        xs = [x for rid in row[0] for x in by_run.get((rid, row[1], row[2]), [])]
        a, b = cluster_gap(xs)
        ratio.append(a)
        frac.append(b)
    order = stats.with_row_index("_row").select("_row", *keys, "session_id", "mean_tps", "ended_at")
    pairs = order.join(order, on=keys, how="inner", suffix="_other", nulls_equal=True).filter(
        pl.col("session_id") != pl.col("session_id_other")
    )
    others = (
        pairs.sort("ended_at_other")
        .group_by("_row")
        .agg(
            pl.col("mean_tps_other").alias("other_session_means"),
            pl.col("session_id_other").alias("other_session_ids"),
        )
    )
    out = (
        stats.with_row_index("_row")
        .join(others, on="_row", how="left")
        .sort("_row")
        .drop("_row")
        .with_columns(
            pl.col("other_session_means").fill_null(pl.lit([], dtype=pl.List(pl.Float64))),
            pl.col("other_session_ids").fill_null(pl.lit([], dtype=pl.List(pl.String))),
            pl.Series("cluster_gap_ratio", ratio, dtype=pl.Float64),
            pl.Series("cluster_gap_frac", frac, dtype=pl.Float64),
        )
    )
    return out


def sessions_markdown(stats: pl.DataFrame, host_id: str) -> str:
    """A Markdown table for a page: for each configuration of ``host_id`` measured in more than one
    completed session, every session's mean (newest last) and whether the other sessions fall outside
    the newest one's interval; a line saying so when the host has one session per configuration."""
    keys = [c for c in CONFIG_COLS + PARAM_COLS if c in stats.columns and c != "session_id"]
    h = stats.filter(pl.col("host_id") == host_id)
    if h.is_empty():
        return ""
    groups = (
        h.sort("ended_at")
        .group_by(keys, maintain_order=True)
        .agg(
            pl.col("session_id"),
            pl.col("mean_tps"),
            pl.col("ci_low_tps").last(),
            pl.col("ci_high_tps").last(),
        )
    )
    groups = groups.filter(pl.col("session_id").list.len() > 1)
    if groups.is_empty():
        return (
            f"Host {code_span(host_id)} has one completed session per configuration: "
            "no spread between sessions.\n"
        )
    table = groups.select(
        "model_id",
        "phase",
        pl.concat_str(
            pl.col("test"), pl.when(pl.col("test") == "tg").then("n_gen").otherwise("n_prompt")
        ).alias("test"),
        pl.col("session_id").list.len().alias("sessions"),
        pl.col("mean_tps")
        .list.eval(pl.element().round(1).cast(pl.String))
        .list.join(", ")
        .alias("session means, oldest first (tok/s)"),
        pl.concat_str(
            pl.lit("["),
            pl.col("ci_low_tps").round(1).cast(pl.String),
            pl.lit(", "),
            pl.col("ci_high_tps").round(1).cast(pl.String),
            pl.lit("]"),
        ).alias("newest session's 95% interval"),
        pl.struct("mean_tps", "ci_low_tps", "ci_high_tps")
        .map_elements(
            lambda s: sum(
                1
                for m in s["mean_tps"][:-1]
                if s["ci_low_tps"] is not None and not s["ci_low_tps"] <= m <= s["ci_high_tps"]
            ),
            return_dtype=pl.Int64,
        )
        .alias("other sessions outside it"),
    )
    head = (
        f"Host {code_span(host_id)}: configurations measured in several completed sessions. "
        "The interval of a number covers its own session's repetitions; the other sessions' means "
        "show what a rerun gave.\n\n"
    )
    return head + markdown_table(table) + "\n"

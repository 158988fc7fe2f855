"""The published numbers of the depth tables: one ``Number`` per cell that shows a measurement.

* ``depth_numbers``: each ``cells.COLUMNS`` column of each ``analysis.depth_table`` row (server.md and
  cost_model.md);
* ``bench_numbers``: each llama-bench rate bench.md shows (``analysis.bench_rates``);
* ``memory_numbers``: each slope of memory.md (``analysis.memory_per_draft_token``).

Every number carries the caveats of the row it comes from (the engine's verdict on that row) and, when
it read llama-bench cost rows, the cost model's rules at that depth (``cost_caveats``); it cites exactly
the lines its column reads (``cells.cited_lines``) with their run ids and commands (``runfacts``), names
the build of its toolchain snapshot, and has a log-scale interval when it is a rate or a ratio of rates
over n >= 3 repetitions (``analysis.rep_spread``, ``analysis.bench_rates``).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from benchbook import caveats
from benchbook.numbers import NO_INTERVAL_SLOPE, Number, Unit, build_of, line_ranges
from benchbook.stats import LOG_T, MIN_N_INTERVAL

from .cells import COLUMNS, bench_key, cited_lines, memory_key, number_key, reads_bench
from .runfacts import cited_runs, run_facts

#: What varied between the n samples of a depth number (the registry's ``replication``).
REPLICATION = "repetitions of one request at one depth (same configuration, one session)"
#: ... and of a ratio to the baseline (``stats.paired_ratio_interval``).
PAIRED = "repetitions of one request at one depth, paired by repetition index with the same-session baseline"
#: ... and of a llama-bench rate.
BENCH_REPLICATION = "repetitions of one llama-bench test (-r) at one depth, one session"
#: ... and of a memory slope.
MEMORY_REPLICATION = "configurations of the n_max sweep (one draft, depth and session)"
#: ``ci_method`` of a rate (``stats.sample_interval``) and of a ratio of mean rates.
RATE_CI = LOG_T + " over per-repetition rates"
RATIO_CI = LOG_T + " of a ratio of mean rates, paired by repetition (stats.paired_ratio_interval)"
BENCH_TABLE = "benchbook.experiments.spec_depth.analysis.bench_rates"
MEMORY = "benchbook.experiments.spec_depth.analysis.memory_per_draft_token"


@dataclass(frozen=True)
class Facts:
    """What the numbers of one report name beside their values: ``runs`` (``runfacts.run_index``),
    ``at`` (``runfacts.records_at``) and ``toolchains`` (toolchain snapshots by id)."""

    runs: dict[str, list[dict]]
    at: dict[tuple[str, int], dict]
    toolchains: dict[str, dict]


def _row_number(r: dict, col: str, facts: Facts) -> Number:
    """The number of ``col`` (a ``cells.COLUMNS`` column) of the depth-table row ``r``."""
    spec = COLUMNS[col]
    first_six = spec.reads[0] == "row"  # published before issue 26's table cells: cited as they were
    lines = cited_lines(r, col)
    cited = cited_runs(facts.at, r["file"], lines)
    # the times the records it cites span; the model file its own runs served (a draft_only row: the
    # draft model); the first six keep the span of their runs and their baseline's
    span_ids = list(r.get("run_ids") or []) + list(r.get("baseline_run_ids") or [])
    facts_of = run_facts(facts.runs, span_ids if first_six else cited["run_ids"])
    low, high = r.get(f"{col}_ci_low"), r.get(f"{col}_ci_high")
    spread: dict = {
        "sd": r.get(f"{col}_sd") if spec.interval == "rate" else None,
        "replication": PAIRED if spec.interval == "ratio" else REPLICATION,
    }
    if spec.interval and low is not None and high is not None:
        spread |= {"ci95": [low, high], "ci_method": RATE_CI if spec.interval == "rate" else RATIO_CI}
    elif r["n"] >= MIN_N_INTERVAL:
        spread["ci_method"] = spec.no_interval
    return Number(
        key=number_key(r, col),
        value=round(r[col], 4),
        unit=spec.unit,
        label=f"{r['config_id']} at depth {r['depth']}: {spec.label}",
        n=r["n"],
        computation=spec.computation,
        sources=[{"file": r["file"], "lines": line_ranges(lines)}],  # publish writes it relative to root
        host_id=r["host_id"],
        session_id=r["session_id"],
        toolchain_id=r["toolchain_id"],
        **build_of(facts.toolchains.get(r["toolchain_id"])),
        caveats=[*r["caveats"], *(r["cost_caveats"] if reads_bench(r, col) else [])],
        measured_from=facts_of["measured_from"],
        measured_to=facts_of["measured_to"],
        model_sha256=run_facts(facts.runs, list(r.get("run_ids") or []))["model_sha256"],
        **cited,
        **spread,
    )


def depth_numbers(depth: pl.DataFrame, facts: Facts) -> list[Number]:
    """One number per ``cells.COLUMNS`` column of each row of ``depth`` (``analysis.depth_table`` with
    ``overhead.with_overhead``'s columns, ``caveats`` and ``cost_caveats``) that has a value: every row
    its rates and ratios, a speculative row its cost-model terms too."""
    nums = []
    for r in depth.iter_rows(named=True):
        for col, spec in COLUMNS.items():
            if (spec.speculative and r["role"] != "speculative") or r.get(col) is None:
                continue
            nums.append(_row_number(r, col, facts))
    return nums


def judged_bench(
    bench: pl.DataFrame, depth: pl.DataFrame, thresholds: dict, hosts: dict[str, dict]
) -> pl.DataFrame:
    """``bench`` (``analysis.bench_rates``) with ``caveats``: the ``llama_bench`` kind's rules on each test
    (its host's thresholds; ``first_sample_ratio`` the cold-start form, ``mean_tps`` against llama-bench's
    own ``avg_ts``; these records carry no load fields), and ``cost_caveats``: the cost-model rules of the
    session and depth (``depth``'s speculative rows: one r(1) per session and depth), which judge the
    llama-bench rows the cost model was built from."""
    table = bench.with_columns(
        pl.concat_list("run_id").alias("run_ids"),
        pl.col("avg_ts").alias("llama_bench_avg_ts"),
        pl.lit(None, pl.String).alias("phase"),
    ).select(
        "host_id", "session_id", "n_depth", "line", "run_ids", "n", "cv", "model_id", "mean_tps",
        "llama_bench_avg_ts", "phase", "first_sample_ratio",
    )  # fmt: skip
    judged = caveats.evaluate_per_host(table, "llama_bench", thresholds, hosts)
    cost = (
        depth.filter(pl.col("role") == "speculative")
        .group_by("session_id", "depth")
        .agg(pl.col("cost_caveats").first())
        .rename({"depth": "n_depth"})
        if "cost_caveats" in depth.columns
        else pl.DataFrame(
            schema={"session_id": pl.String, "n_depth": pl.Int64, "cost_caveats": pl.List(pl.String)}
        )
    )
    out = bench.join(judged.select("session_id", "line", "caveats"), on=["session_id", "line"], how="left")
    out = out.join(cost, on=["session_id", "n_depth"], how="left")
    return out.with_columns(pl.col("cost_caveats").fill_null(pl.lit([], pl.List(pl.String))))


def bench_numbers(rows: pl.DataFrame, facts: Facts) -> list[Number]:
    """The rate of each llama-bench test of ``rows`` (``judged_bench``'s, those bench.md shows), keyed
    by ``cells.bench_key``: mean of its per-repetition rates with the log-scale interval (n >= 3),
    its test's caveats and the cost-model rules of its session and depth."""
    nums = []
    for r in rows.iter_rows(named=True):
        col, size = ("tg", r["n_gen"]) if r["n_gen"] > 0 else ("pp", r["n_prompt"])
        key_row = {**r, "pp_n_prompt": r["n_prompt"], "tg_n_gen": r["n_gen"]}
        test = f"{col}{size} at depth {r['n_depth']}"
        ci = [r["ci_low_tps"], r["ci_high_tps"]] if r["ci_low_tps"] is not None else None
        nums.append(
            Number(
                key=str(bench_key(key_row, col)),
                value=round(r["mean_tps"], 4),
                unit=Unit.TOK_S,
                label=f"llama-bench {test}, {r['model_id']} ({r['role']}): mean of per-repetition rates",
                n=r["n"],
                computation=BENCH_TABLE,
                sd=r["sd_tps"],
                ci95=ci,
                ci_method=RATE_CI if ci else None,
                replication=BENCH_REPLICATION,
                sources=[{"file": r["file"], "lines": line_ranges([r["line"]])}],
                host_id=r["host_id"],
                session_id=r["session_id"],
                toolchain_id=r["toolchain_id"],
                **build_of(facts.toolchains.get(r["toolchain_id"])),
                model_sha256=r["model_sha256"],
                caveats=_ordered([*r["caveats"], *r["cost_caveats"]]),
                **{k: v for k, v in run_facts(facts.runs, [r["run_id"]]).items() if k != "model_sha256"},
                **cited_runs(facts.at, r["file"], [r["line"]]),
            )
        )
    return nums


def memory_numbers(memory: pl.DataFrame, depth: pl.DataFrame, facts: Facts) -> list[Number]:
    """The slope of each row of ``memory`` (``analysis.memory_per_draft_token``), keyed by
    ``cells.memory_key``: it cites the requests of the configurations it was fitted on (``depth``'s rows
    of that host, session, draft and depth) and carries their caveats; n = those configurations; no
    interval (a least-squares slope, not a rate)."""
    nums = []
    for m in memory.iter_rows(named=True):
        read = depth.filter(
            (pl.col("session_id") == m["session_id"])
            & (pl.col("depth") == m["depth"])
            & (pl.col("draft_model_id") == m["draft_model_id"])
            & (pl.col("role") == "speculative")
            & pl.col("n_max").is_in(m["n_max"])
        )
        first = read.row(0, named=True)
        lines = sorted({x for ls in read["own_lines"] for x in ls})
        cited = cited_runs(facts.at, first["file"], lines)
        nums.append(
            Number(
                key=str(memory_key(m, "mib_per_draft_token")),
                value=round(m["mib_per_draft_token"], 4),
                unit=Unit.MIB_PER_DRAFT_TOKEN,
                label=f"peak GPU memory per draft token (least-squares slope over n_max {m['n_max']}), draft "
                f"{m['draft_model_id']} at depth {m['depth']}",
                n=read.height,
                computation=MEMORY,
                replication=MEMORY_REPLICATION,
                ci_method=NO_INTERVAL_SLOPE,
                sources=[{"file": first["file"], "lines": line_ranges(lines)}],
                host_id=m["host_id"],
                session_id=m["session_id"],
                toolchain_id=first["toolchain_id"],
                **build_of(facts.toolchains.get(first["toolchain_id"])),
                caveats=_ordered([c for cs in read["caveats"] for c in cs]),
                **run_facts(facts.runs, cited["run_ids"]),
                **cited,
            )
        )
    return nums


def _ordered(ids: list[str]) -> list[str]:
    """``ids`` (rule ids) each once, in ``caveats.RULES`` order."""
    return [r for r in caveats.RULES if r in set(ids)]

"""Offload report: every host's newest offload session -> numbers, the sweep table, the cliff, the
roofline and the chart.

Numbers (per host; the host prefix ``h<id[:8]>`` keeps hosts apart, never in one ratio):
``offload-h<host>-ncmoe<N>-{tg,pp}`` (tok/s, mean of per-repetition rates, Student-t interval),
``offload-h<host>-ncmoe<N>-tg-roofline`` (% of the measured copy bandwidth), ``offload-h<host>-d2d``
(GB/s) and ``offload-h<host>-fit-min-ncmoe`` (the smallest ``n_cpu_moe`` that ran under the budget).
Caveats per point from ``benchbook.caveats`` (``memory_spill`` with the budget as capacity,
``synthetic_inputs``, ``single_run``, ``high_variance``).  Tables under ``reports_dir/offload/``:
``sweep.md`` (failed points with their reason), ``roofline.md``, ``model.md`` (the model each sweep
measured, ``modelpage``); the chart ``offload_sweep``.
Published through the one report pipeline (``reporting.publish_report``: ``REPORT``: the ``offload``
policy's sessions checked against their plan, ``PLANNED``; each row judged with its host's thresholds;
citations by ``reporting.cite``).  A repository without offload data gets an empty registry and a
``sweep.md`` that says so.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import altair as alt
import polars as pl

from benchbook import atomicfile, blocks, caveats, charts, measured
from benchbook.escape import code_span, markdown_text
from benchbook.experiments import drift, reporting
from benchbook.measured import parse_utc
from benchbook.numbers import NO_INTERVAL_ROOFLINE, Number, Unit, make_key
from benchbook.numfmt import fmt_interval, fmt_value
from benchbook.numtable import var_cell
from benchbook.paths import public_text
from benchbook.provenance import read_snapshots

from ..llama_bench.analysis import load_llama_bench, rate_stats
from ..llama_bench.report import selection as llama_bench_selection
from . import EXPERIMENT
from .analysis import (
    Boundary,
    bandwidth,
    fit_boundary,
    load,
    model_bytes,
    newest_bandwidth,
    points,
    roofline,
)
from .modelpage import model_markdown
from .plan import OffloadParams, SweepRun, plan

#: the ``llama_bench`` kind's rules a sweep point is judged by (``memory_spill`` with the budget as capacity)
RULES = ["memory_spill", "synthetic_inputs", "single_run", "high_variance"]
#: The command that measured a session: the command of a record without an argv of its own (the bytes
#: per token and the copy bandwidth are computed in the measuring process, not by a binary).
COMMAND = ["python", "-m", "benchbook.experiments", EXPERIMENT]


def planned_points(start: dict) -> set:
    """The ``n_cpu_moe`` points of the sweep runs ``plan.plan`` makes from an offload session's start
    record (its ``config``, with ``OffloadParams``' defaults for keys it leaves out).  The model stands
    in by an empty record (a point's label needs no model file).

    Raises:
        errors.ParamsError: the config is not an ``OffloadParams``.
    """
    cfg = OffloadParams.from_record(start.get("config") or {}).config()
    model = {"model_id": "", "sha256": None}
    return {run.n_cpu_moe for run in plan(cfg, model, [], None, "") if isinstance(run, SweepRun)}


#: the points a session plans and the point a record belongs to (``measured.check``): a failed point
#: (``benchbook.run_failed``, e.g. out of memory) is data, not a fault (``measured.POLICIES["offload"]``):
#: it stands for its planned point and is shown as failed; a planned point with neither is missing
PLANNED = measured.Planned(planned_points, lambda r: r.get("n_cpu_moe"))


def rate_text(row: dict) -> str:
    """A point's mean tok/s (``mean_tps``) with its interval (``ci_low_tps``/``ci_high_tps``), rounded by
    ``numfmt`` (the pages' rule), no unit (the column header names it); "—" when it did not run.

    >>> rate_text({"mean_tps": 134.4, "ci_low_tps": 126.5, "ci_high_tps": 142.9})
    '134 [126, 143]'
    >>> rate_text({"mean_tps": None})
    '—'
    """
    if row.get("mean_tps") is None:
        return "—"
    low, high = row.get("ci_low_tps"), row.get("ci_high_tps")
    return fmt_interval(row["mean_tps"], (low, high) if low is not None and high is not None else None)


def mib_text(mib: float | None) -> str:
    """Whole MiB (nvidia-smi reads whole MiB), thousands separated, no unit; "—" when not measured.

    >>> mib_text(11748.0), mib_text(None)
    ('11,748', '—')
    """
    return "—" if mib is None else fmt_value(int(round(mib)))


def headroom_cells(peak_mib: float | None, capacity_mib: float | None) -> tuple[str, str]:
    """``(free at peak in MiB, share of the budget used in %)`` as table cells (units in the header);
    "—" for both without telemetry (the ``memory_headroom`` phrase's numbers, ``caveats``).

    >>> headroom_cells(11748.0, 12288.0), headroom_cells(None, 12288.0)
    (('540', '95.6'), ('—', '—'))
    """
    if peak_mib is None or capacity_mib is None or capacity_mib <= 0:
        return "—", "—"
    return mib_text(capacity_mib - peak_mib), f"{100 * peak_mib / capacity_mib:.1f}"


def _rate_cell(by_test: dict[str, dict], test: str, published: Collection[str] = ()) -> str:
    """A sweep table cell: ``rate_text`` of ``test`` (its published number's link when there is one),
    or "—" when it did not run."""
    r = by_test.get(test)
    if r is None:
        return "—"
    key = make_key("offload", f"h{r['host_id'][:8]}", f"ncmoe{r['n_cpu_moe']}", test)
    return var_cell(key, published, rate_text(r))


def sweep_markdown(pts: pl.DataFrame, bounds: list[Boundary], published: Collection[str] = ()) -> str:
    """Markdown: one row per (host, n_cpu_moe) with tg/pp tok/s, llama.cpp's GPU memory, the budget,
    the experts on the CPU, the headroom and the failure reason; then the fit boundary per session.
    A rate whose key is in ``published`` is its ``{{< var KEY__v >}}`` link (``var_cell``)."""
    lines = [
        "| host | n_cpu_moe | expert blocks on CPU | tg (tok/s) | pp (tok/s) "
        "| GPU memory, llama.cpp peak (MiB) | budget, free (MiB) | free at peak (MiB) | budget used (%) "
        "| status |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (h, n), g in pts.group_by(["host_id", "n_cpu_moe"], maintain_order=True):
        by = {r["test"]: r for r in g.iter_rows(named=True)}
        any_row = next(iter(by.values()))
        cell = partial(_rate_cell, by, published=published)
        mem = any_row["peak_gpu_mem_mib"]
        # the reason quotes llama-bench's stderr: text, never Markdown, HTML, a shortcode or math
        status = (
            "ok" if any_row["status"] == "ok" else f"failed: {markdown_text(public_text(any_row['reason']))}"
        )
        free, used = headroom_cells(mem, any_row.get("gpu_mem_total_mib"))
        lines.append(
            f"| {code_span(h)} | {n} | {any_row['cpu_expert_blocks']} of {any_row['n_layer']} | {cell('tg')} "
            f"| {cell('pp')} | {mib_text(mem)} | {mib_text(any_row['budget_free_mib'])} | {free} | {used} | "
            f"{status} |"
        )
    for b in bounds:
        if b.first_fit is None:
            text = "no point ran"
        elif b.last_fail is None:
            text = f"every point from n_cpu_moe {b.first_fit} up ran; none failed for memory below it"
        else:
            text = (
                f"fits from n_cpu_moe {b.first_fit} up; n_cpu_moe {b.last_fail} failed out of memory "
                "(the cliff: on Linux an over-allocation fails instead of spilling)"
            )
        lines.append(f"\nSession {code_span(b.session_id)}: {text}.")
    return "\n".join(lines) + "\n"


def roofline_row(r: dict, published: Collection[str] = ()) -> str:
    """One row of the roofline table (units in its header; rates by ``numfmt``); the rate, the copy
    bandwidth and the roofline share are their ``{{< var KEY__v >}}`` links where ``published``."""
    stem = ("offload", f"h{r['host_id'][:8]}")
    bw = (
        "—"
        if r["bandwidth_gb_s"] is None
        else var_cell(make_key(*stem, "d2d"), published, fmt_value(float(r["bandwidth_gb_s"])))
    )
    pct = (
        "—"
        if r["roofline_pct"] is None
        else var_cell(
            make_key(*stem, f"ncmoe{r['n_cpu_moe']}", "tg", "roofline"),
            published,
            fmt_value(float(r["roofline_pct"])),
        )
    )
    tg = var_cell(make_key(*stem, f"ncmoe{r['n_cpu_moe']}", "tg"), published, rate_text(r))
    return (
        f"| {code_span(r['host_id'])} | {r['n_cpu_moe']} | {tg} "
        f"| {fmt_value(r['decode_bytes_total'] / 1e6)} | {fmt_value(float(r['achieved_gb_s']))} "
        f"| {bw} | {markdown_text(r['bandwidth_mode'] or '—')} | {pct} |"
    )


def dense_roofline_row(r: dict, published: Collection[str] = ()) -> str:
    """One row of the default models' roofline table (units in its header; values by ``numfmt``); the
    roofline share is its ``{{< var KEY__v >}}`` link where ``published``."""
    pct = var_cell(
        make_key("offload", f"h{r['host_id'][:8]}", r["model_id"], "tg", "roofline"),
        published,
        fmt_value(float(r["roofline_pct"])),
    )
    return (
        f"| {code_span(r['host_id'])} | {markdown_text(r['model_id'])} | {rate_text(r)} "
        f"| {fmt_value(r['decode_bytes_total'] / 1e6)} "
        f"| {fmt_value(1e6 / r['mean_tps'])} | {fmt_value(float(r['bytes_us']))} "
        f"| {pct} |"
    )


def chart_points(pts: pl.DataFrame) -> list[dict]:
    """The sweep chart's points with their tooltip fields: the configuration (host, model, n_cpu_moe,
    test, the llama-bench argv), the rate and its interval rounded by ``numfmt`` (``rate_shown``), n, the
    GPU memory in whole MiB, the caveats and the run ids."""
    rows = pts.select(
        "host_id",
        "model_id",
        "n_cpu_moe",
        "test",
        "n",
        "mean_tps",
        "ci_low_tps",
        "ci_high_tps",
        "status",
        pl.col("reason").fill_null(""),
        "peak_gpu_mem_mib",
        "budget_free_mib",
        pl.col("caveats").list.join(", ").alias("caveat_ids"),
        pl.col("argv").list.join(" ").alias("command")
        if "argv" in pts.columns
        else pl.lit("").alias("command"),
        "run_ids",
    ).to_dicts()
    for row in rows:
        row["rate_shown"] = rate_text(row)
        row["interval"] = (
            "95%, log-scale Student-t over repetitions" if row["ci_low_tps"] is not None else "none"
        )
        row["memory_shown"] = mib_text(row["peak_gpu_mem_mib"])
        ids = row.pop("run_ids") or []
        row["run_ids_short"] = " ".join(i[:8] for i in ids[:6]) + (
            f" … (+{len(ids) - 6})" if len(ids) > 6 else ""
        )
        row["command"] = row["command"].split("/bin/")[-1] if row["command"] else ""
        # no folder of the measuring machine on a page (paths.public_text: <cache>/…, a file's name)
        row["command"], row["reason"] = public_text(row["command"]), public_text(row["reason"])
    return rows


def _chart(pts: pl.DataFrame):
    data = chart_points(pts)
    base = alt.Chart(alt.Data(values=data)).encode(
        x=alt.X("n_cpu_moe:Q", title="n_cpu_moe (expert blocks on the CPU)")
    )
    tips = [
        alt.Tooltip("host_id:N", title="host"),
        alt.Tooltip("model_id:N", title="model"),
        alt.Tooltip("n_cpu_moe:Q", format="d"),
        alt.Tooltip("test:N"),
        alt.Tooltip("command:N", title="configuration (llama-bench argv)"),
        alt.Tooltip("rate_shown:N", title="tok/s [95% CI]"),
        alt.Tooltip("interval:N", title="interval"),
        alt.Tooltip("n:Q", format="d", title="n (repetitions)"),
        alt.Tooltip("memory_shown:N", title="GPU memory, llama.cpp peak (MiB)"),
        alt.Tooltip("status:N"),
        alt.Tooltip("reason:N"),
        alt.Tooltip("caveat_ids:N", title="caveats"),
        alt.Tooltip("run_ids_short:N", title="run ids"),
    ]
    rate = (
        base.transform_filter("datum.status == 'ok'")
        .mark_line(point=True)
        .encode(
            y=alt.Y("mean_tps:Q", title="tok/s (mean of per-repetition rates)"),
            color="test:N",
            tooltip=tips,
        )
    )
    fail = (
        base.transform_filter("datum.status != 'ok'")
        .mark_rule(color="red", strokeDash=[4, 3])
        .encode(tooltip=tips)
    )
    mem = (
        base.transform_filter("datum.test == 'tg'")
        .mark_line(point=True, color="gray")
        .encode(
            y=alt.Y("peak_gpu_mem_mib:Q", title="GPU memory, llama.cpp peak (MiB)"),
            tooltip=tips,
        )
    )
    budget = base.mark_rule(color="black", strokeDash=[2, 2]).encode(y="budget_free_mib:Q")
    return alt.vconcat(
        (rate + fail).properties(width=460, height=200),
        (mem + budget + fail).properties(width=460, height=140),
    ).properties(
        title="Expert offload sweep: throughput and GPU memory against n_cpu_moe (red: failed points)"
    )


def default_roofline(inputs: reporting.Inputs, bw: pl.DataFrame, dense_bytes: pl.DataFrame) -> pl.DataFrame:
    """The roofline of the default models: warm llama-bench tg rates (``data/raw/llama_bench``, the
    sessions the ``llama_bench`` policy publishes: ``llama_bench.report.selection``) of every host that
    has an ok bandwidth record, joined on model sha256 with bytes per token recorded by an offload
    session (``dense_bytes``).  Adds ``bandwidth_gb_s``, ``bandwidth_mode``, ``bytes_us`` (µs its bytes
    take at that bandwidth), ``roofline_pct`` and ``bytes_file``/``bytes_line`` (the model_bytes record
    read); empty without llama-bench data.  Caveats as on the llama-bench page (``inputs.judge``: each
    host by its own thresholds)."""
    folder = inputs.where.raw / "llama_bench"
    measured_bw = bw.filter(pl.col("status") == "ok")["host_id"].unique().to_list()
    if not measured_bw or not folder.exists() or dense_bytes.is_empty():
        return pl.DataFrame()
    lb = load_llama_bench(folder).filter(pl.col("host_id").is_in(measured_bw))
    if lb.is_empty():
        return pl.DataFrame()
    stats = rate_stats(lb).filter((pl.col("test") == "tg") & (pl.col("phase") == "warm"))
    stats = stats.filter(
        pl.col("session_id").is_in([c.session_id for c in llama_bench_selection(folder).published])
    )
    stats = inputs.judge(stats, "llama_bench", ["single_run", "high_variance", "busy_host"])
    per = dense_bytes.unique(["host_id", "model_sha256"], keep="last").select(
        "host_id",
        "model_sha256",
        "decode_bytes_total",
        # the model_bytes record read: a roofline number cites it (its bytes per token)
        pl.col("file").alias("bytes_file"),
        pl.col("line").alias("bytes_line"),
        pl.col("run_id").alias("bytes_run_id"),
    )
    best = newest_bandwidth(bw)
    j = stats.join(per, on=["host_id", "model_sha256"]).join(best, on="host_id")
    return j.with_columns(
        (pl.col("decode_bytes_total") / (pl.col("bandwidth_gb_s") * 1e9) * 1e6).alias("bytes_us"),
        (pl.col("mean_tps") * pl.col("decode_bytes_total") / 1e9 / pl.col("bandwidth_gb_s") * 100).alias(
            "roofline_pct"
        ),
    ).sort("host_id", "model_id")


def run_facts(records: pl.DataFrame, run_ids: list[str]) -> dict:
    """What ``run_ids``' records (``analysis.load``) state that a number cites (``reporting.cite`` reads
    them as a row's columns): ``model_sha256`` (the one model file they ran; None when they ran several
    or none is recorded) and ``started_at`` / ``ended_at`` (the earliest start, the latest end)."""
    mine = records.filter(pl.col("run_id").is_in(list(run_ids)))
    shas = {s for s in mine["model_sha256"].to_list() if s} if "model_sha256" in mine.columns else set()
    starts = [t for t in mine["started_at"].to_list() if t] if "started_at" in mine.columns else []
    ends = [t for t in mine["ended_at"].to_list() if t] if "ended_at" in mine.columns else []
    return {
        "model_sha256": shas.pop() if len(shas) == 1 else None,
        "started_at": min(starts, key=parse_utc) if starts else None,
        "ended_at": max(ends, key=parse_utc) if ends else None,
    }


#: the columns ``tables`` adds to the points for their citations (``run_facts``), not on the page
FACTS = ["model_sha256", "started_at", "ended_at"]


@dataclass
class Tables:
    """The tables of the published sessions (``tables``): the sweep ``points`` (``analysis.points``
    with ``caveats``, ``memory_headroom`` and the ``FACTS`` columns), the fit ``bounds``, the bandwidth
    records ``bw``, the sweep ``roofline`` and the default models' roofline ``dense``."""

    points: pl.DataFrame
    bounds: list[Boundary]
    bw: pl.DataFrame
    roofline: pl.DataFrame
    dense: pl.DataFrame


def tables(inputs: reporting.Inputs) -> Tables:
    """The offload tables of each host's published session: the sweep points judged by the
    ``llama_bench`` kind's ``RULES`` (``inputs.judge``: each host by its own thresholds, the budget as
    the memory capacity) with their memory headroom, the fit boundary, the bandwidth records, the sweep
    roofline and the default models' (``default_roofline``)."""
    raw, sessions = inputs.where.raw, inputs.session_ids()
    records = load(raw).filter(pl.col("session_id").is_in(sessions))
    pts = caveats.headroom_column(inputs.judge(points(records, inputs.confidence), "llama_bench", RULES))
    facts = [run_facts(records, ids) for ids in pts["run_ids"].to_list()]
    pts = pts.with_columns(
        pl.Series(c, [f[c] for f in facts], dtype=records.schema.get(c, pl.String)) for c in FACTS
    )
    bw = bandwidth(raw).filter(pl.col("session_id").is_in(sessions))
    dense = default_roofline(inputs, bw, model_bytes(raw).filter(pl.col("n_cpu_moe").is_null()))
    return Tables(pts, fit_boundary(pts), bw, roofline(pts, bw), dense)


def _cited(inputs: reporting.Inputs, rows: dict | list[dict]) -> dict:
    """``reporting.cite`` of ``rows`` (the build label from their toolchain snapshot): every record a
    number read, one source entry per file, each run id once, the time span of its rows."""
    return reporting.cite(rows, toolchains=inputs.toolchains)


def table_numbers(inputs: reporting.Inputs, t: Tables) -> list[Number]:
    """The offload page's numbers (module docstring), each cited from the rows it reads (``_cited``)
    and carrying its row's caveats."""
    nums = []
    for r in t.points.filter(pl.col("status") == "ok").iter_rows(named=True):
        ci = [r["ci_low_tps"], r["ci_high_tps"]] if r["ci_low_tps"] is not None else None
        nums.append(
            Number(
                key=make_key("offload", f"h{r['host_id'][:8]}", f"ncmoe{r['n_cpu_moe']}", r["test"]),
                value=round(r["mean_tps"], 2),
                unit=Unit.TOK_S,
                label=f"{r['model_id']} {r['test']} at n_cpu_moe {r['n_cpu_moe']}, "
                f"{r['budget_free_mib']:.0f} MiB "
                f"budget, on host {r['host_id']}",
                n=r["n"],
                sd=r["sd_tps"],
                ci95=ci,
                ci_method="student-t on the log scale (delta method), n >= 3, over per-repetition rates"
                if ci
                else None,
                **_cited(inputs, r),
                caveats=r["caveats"],
                computation="benchbook.experiments.offload.analysis.points",
            )
        )
    for r in t.roofline.filter(pl.col("roofline_pct").is_not_null()).iter_rows(named=True):
        nums.append(
            Number(
                key=make_key("offload", f"h{r['host_id'][:8]}", f"ncmoe{r['n_cpu_moe']}", "tg", "roofline"),
                value=round(r["roofline_pct"], 2),
                unit=Unit.PERCENT,
                ci_method=NO_INTERVAL_ROOFLINE,
                label="decode bytes per token × tok/s as % of the "
                f"{r['bandwidth_mode']} device-to-device copy "
                f"bandwidth ({r['bandwidth_gb_s']:.0f} GB/s) at n_cpu_moe {r['n_cpu_moe']}",
                n=r["n"],
                # the tg row's run and the bandwidth record's (the row holds its bytes per token)
                **_cited(inputs, [r, _record(r, "bandwidth_")]),
                caveats=r["caveats"],
                computation="benchbook.experiments.offload.analysis.roofline",
            )
        )
    for r in t.bw.filter(pl.col("status") == "ok").iter_rows(named=True):
        nums.append(
            Number(
                key=make_key("offload", f"h{r['host_id'][:8]}", "d2d"),
                value=round(r["gb_per_s"], 1),
                unit=Unit.GB_S,
                label=f"device-to-device copy bandwidth ({r['mode']}, {r['device']})",
                n=1,
                **_cited(inputs, _record(r)),
                computation="benchbook.llamacpp.cudamem.bandwidth",
            )
        )
    for b in t.bounds:
        g = t.points.filter(pl.col("session_id") == b.session_id)
        if b.first_fit is not None:
            nums.append(
                Number(
                    key=make_key("offload", f"h{g['host_id'][0][:8]}", "fit-min-ncmoe"),
                    value=b.first_fit,
                    unit=Unit.BLOCKS,
                    label="smallest n_cpu_moe that ran under the memory budget",
                    n=1,
                    **_cited(inputs, g.to_dicts()),
                    computation="benchbook.experiments.offload.analysis.fit_boundary",
                )
            )
    for r in t.dense.iter_rows(named=True):
        nums.append(
            Number(
                key=make_key("offload", f"h{r['host_id'][:8]}", r["model_id"], "tg", "roofline"),
                value=round(r["roofline_pct"], 2),
                unit=Unit.PERCENT,
                ci_method=NO_INTERVAL_ROOFLINE,
                label=f"{r['model_id']} tg: bytes per token × tok/s as % of the "
                f"{r['bandwidth_mode']} copy bandwidth; "
                f"{1e6 / r['mean_tps']:.0f} µs per token of which {r['bytes_us']:.1f} µs move its bytes",
                n=r["n"],
                # the llama-bench tg row's run, the bandwidth record's and the model_bytes record's; the
                # default model's file (the join key)
                **_cited(inputs, [r, _record(r, "bandwidth_"), _record(r, "bytes_")]),
                caveats=r["caveats"],
                computation="benchbook.experiments.offload.report.default_roofline",
            )
        )
    return nums


def _record(r: dict, prefix: str = "") -> dict:
    """The record row ``r`` read, as a row ``reporting.cite`` reads: its ``<prefix>file``, ``line`` and
    ``run_id`` (a bandwidth row's own; a roofline row's ``bandwidth_`` record, a default model's also its
    ``bytes_`` record), the measuring process's command (``COMMAND``) and the row's host, session, build
    and model."""
    cols = (f"{prefix}file", f"{prefix}line", f"{prefix}run_id")
    return {**r, "files": [r[cols[0]]], "lines": [r[cols[1]]], "run_ids": [r[cols[2]]], "argv": COMMAND}


#: what offload plugs into the one report pipeline (``reporting.publish_report``): each host's newest
#: session whose planned points all have a row or a failure record (``PLANNED``); none yet is no error
REPORT = reporting.Report(
    EXPERIMENT,
    table=tables,
    numbers=table_numbers,
    replication="repetitions of one llama-bench test (samples_ns)",
    planned=lambda _: PLANNED,
    fix="`scripts/gpu_session.sh` on a CUDA host",
    empty_ok=True,
)


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> dict:
    """The stage ``offload_report``: the one report pipeline (``REPORT``) from ``raw_dir/offload`` into
    ``reports_dir/numbers/offload.json`` with ``params["report"]``'s thresholds and confidence, then the
    page fragments under ``reports_dir/offload/``: ``skipped.md`` (each skipped session, and each
    published one that ran other parameters than params.yaml asks now: ``drift.of_sessions``),
    ``sweep.md``, ``model.md``, ``roofline.md``, ``points.parquet`` and the chart.  Every number names its
    build (``numbers.build_of``): the toolchain snapshot of the session that measured it; an id without
    a snapshot reads as an unknown build.  Returns ``{"points", "bounds", "roofline", "numbers",
    "sessions"}``.

    Raises:
        ValueError: ``params["report"]`` is invalid; a number fails the publish checks.
    """
    root = Path(root).resolve()
    where = reporting.Where.of(EXPERIMENT, root=root, raw_dir=raw_dir, reports_dir=reports_dir)
    out_dir = where.out
    out_dir.mkdir(parents=True, exist_ok=True)
    done = reporting.publish_report(REPORT, params, where)
    sel, hosts = done.inputs.selection, done.inputs.hosts
    sessions = {c.session_id: c.host_id for c in sel.published}
    drifted = (
        drift.of_sessions(EXPERIMENT, where.folder, sessions, params, hosts) if params is not None else {}
    )
    atomicfile.write_text(
        out_dir / "skipped.md",
        measured.skipped_markdown(sel.skipped, root, drift=drifted) if sessions or sel.skipped else "",
    )
    if done.table is None:
        atomicfile.write_text(
            out_dir / "sweep.md",
            "No offload session has been committed yet: run `scripts/gpu_session.sh` "
            "on a CUDA host and commit `data/raw/offload/`.\n",
        )
        atomicfile.write_text(out_dir / "roofline.md", "")
        atomicfile.write_text(out_dir / "model.md", "")
        return {"points": None, "bounds": [], "roofline": None, "numbers": [], "sessions": []}
    t, nums = done.table, done.numbers
    pts = t.points.drop(FACTS)
    keys = {n.key for n in nums}  # published numbers' cells link to their entries (var_cell)
    atomicfile.write_text(out_dir / "sweep.md", sweep_markdown(pts, t.bounds, keys))
    models = read_snapshots(where.snapshots, "model")
    atomicfile.write_text(out_dir / "model.md", model_markdown(pts, t.bounds, models, keys))
    roof_md = [
        "| host | n_cpu_moe | tg (tok/s) | bytes/token (MB) | achieved (GB/s) | copy bandwidth (GB/s) "
        "| copy mode | of roofline (%) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    roof_md += [roofline_row(r, keys) for r in t.roofline.iter_rows(named=True)]
    roof_md += [
        "",
        "Default models (llama-bench tg, warm, same host): time per token against the time its bytes "
        "take at the copy bandwidth.",
        "",
        "| host | model | tg (tok/s) | bytes/token (MB) | per token (µs) | at copy bandwidth (µs) "
        "| of roofline (%) |",
        "|---|---|---|---|---|---|---|",
    ]
    roof_md += [dense_roofline_row(r, keys) for r in t.dense.iter_rows(named=True)]
    atomicfile.write_text(out_dir / "roofline.md", "\n".join(roof_md) + "\n")
    atomicfile.write_with(out_dir / "points.parquet", pts.drop("argv").write_parquet)
    charts.save(_chart(pts), out_dir, "offload_sweep")
    return {
        "points": pts,
        "bounds": t.bounds,
        "roofline": t.roofline,
        "numbers": nums,
        "sessions": list(sessions),
    }


def sections(res: dict, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment offload``, through
    ``blocks.show``): the model each sweep measured (``modelpage``), the sweep and roofline tables, their
    published cells linked to their provenance
    entries (``numtable.link_cells``), then the checks (``AssertionError`` on a failed one)."""
    from benchbook.numtable import link_cells

    yield blocks.Markdown(
        "# Offload sweep report\nThroughput and GPU memory against `n_cpu_moe` under the memory budget, the "
        "fit boundary (the cliff), and the decode roofline; every host's newest session, hosts never mixed."
    )
    out = paths.reports_dir / EXPERIMENT
    for name in ("model", "sweep", "roofline"):
        yield blocks.Markdown(
            link_cells((out / f"{name}.md").read_text(), res["numbers"], to_root=paths.to_root)
        )
    assert all(n.sources for n in res["numbers"])
    yield blocks.Text(f"ok: {len(res['numbers'])} numbers, {len(res['sessions'])} sessions")

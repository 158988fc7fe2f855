"""Depth sweep report: the depth tables (llama-bench and llama-server), the cost model before and after
the draft was timed inside the server, memory per draft token, and the speculative experiment's
speedups per host side by side (each against its own session's baseline; hosts never in one ratio).

Writes ``reports_dir/spec_depth/{bench,server,cost_model,memory,hosts,skipped,sessions}.md`` and publishes
``reports_dir/numbers/spec_depth.json``: every number those tables show (``cells``: the keys and what
each column reads; ``depthnums``: the depth, llama-bench and memory numbers; ``hostspec``: the
speculative experiment per host), each table cell the ``{{< var KEY__v >}}`` link of its number.  Each
number carries its row's caveats (the ``speculative`` kind's rules, ``caveat_table``, or the
``llama_bench`` kind's on a llama-bench test; each host judged by its own thresholds) and, when it read
llama-bench cost rows, the cost model's (``cost_caveats``), a log-scale interval from n = 3 for a rate
or a measured speed ratio, the build label of its toolchain snapshot and the run ids and commands of
the records it cites.  The cells left as plain numbers are labels: depths, repetition and prompt counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import altair as alt
import polars as pl

from benchbook import atomicfile, blocks, caveats, charts, measured
from benchbook.experiments import drift, reporting
from benchbook.numbers import Number
from benchbook.numfmt import fmt_interval
from benchbook.numtable import md_table

from ..tool_gap.analysis import verify_ratios
from . import EXPERIMENT
from .analysis import bench_rates, bench_table, depth_table, memory_per_draft_token
from .cells import bench_key, cell_key, host_key, memory_key
from .depthnums import REPLICATION, Facts, bench_numbers, depth_numbers, judged_bench, memory_numbers
from .hostspec import HostSpec, host_spec
from .overhead import with_overhead
from .runfacts import records_at, run_index
from .runlabels import planned
from .sessions import session_states, sessions_markdown

#: A depth-table row: one configuration at one depth of one session.
ROW = ["host_id", "session_id", "config_id", "depth"]


@dataclass
class SpecDepthReport:
    """What the report notebook shows: the published numbers and the tables (newest session per host)."""

    numbers: list[Number] = field(default_factory=list)
    sessions: dict[str, str] = field(default_factory=dict)
    depth: pl.DataFrame = field(default_factory=pl.DataFrame)
    bench: pl.DataFrame = field(default_factory=pl.DataFrame)
    memory: pl.DataFrame = field(default_factory=pl.DataFrame)
    hosts: pl.DataFrame = field(default_factory=pl.DataFrame)


def caveat_table(depth: pl.DataFrame) -> pl.DataFrame:
    """``depth`` (``analysis.depth_table`` rows) as the caveat engine's ``speculative`` kind reads a
    configuration table, its columns under ``caveats.SPECULATIVE_COLUMNS``' names: host_id,
    session_id, toolchain_id, config_id (the id the kind's findings name), depth, n,
    decode_tps_mean/_sd/_ci_low/_ci_high, speedup_mean/_ci_low/_ci_high, output_equal (the greedy tokens
    equal the baseline's at every repetition; null for the baseline and a draft served alone), alpha,
    cap_hit, cap_equal_work and cache_n_max, where ``depth`` has them (a rule whose columns are missing
    is skipped by ``caveats.evaluate``).  A draft served alone (role ``draft_only``) is not a
    speculative configuration: its rate ÷ the baseline's is the draft's own cost, so its speedup columns
    are null and the speedup rules (``acceptance_without_speedup``, ``slower_than_baseline``) do not
    judge it."""
    as_kind = {  # a depth-table column -> its name in the speculative kind
        "toolchain_id": "toolchain_id",
        "n": "n",
        "decode_tps": "decode_tps_mean",
        "decode_tps_sd": "decode_tps_sd",
        "decode_tps_ci_low": "decode_tps_ci_low",
        "decode_tps_ci_high": "decode_tps_ci_high",
        "speedup": "speedup_mean",
        "speedup_ci_low": "speedup_ci_low",
        "speedup_ci_high": "speedup_ci_high",
        "output_match": "output_equal",
        "alpha": "alpha",
        "cap_hit": "cap_hit",
        "cap_equal_work": "cap_equal_work",
        "cache_n_max": "cache_n_max",
    }
    speculated = pl.col("role") != "draft_only"
    return depth.select(
        *ROW,
        *[
            (pl.when(speculated).then(pl.col(col)) if col.startswith("speedup") else pl.col(col)).alias(name)
            for col, name in as_kind.items()
            if col in depth.columns
        ],
    )


def publishable_sessions(raw: Path) -> tuple[dict[str, str], list[measured.SessionCheck]]:
    """``{host_id: session_id}`` of each host's newest spec_depth session under ``raw/spec_depth`` whose
    records prove a complete measurement made in it (``measured.check_sessions``: runs inside the
    session, samples and server timings within wall times, every llama-bench row its argv asks for),
    and the sessions skipped, unfinished ones (no end record) included, with their reasons."""
    chosen = measured.select(
        EXPERIMENT, measured.check(EXPERIMENT, raw / EXPERIMENT, planned(raw / "snapshots"))
    )
    return {h: c.session_id for h, c in chosen.by_host().items()}, chosen.skipped


def _ci(row: dict, col: str) -> tuple[float, float] | None:
    """``(low, high)`` of ``col``'s interval in a depth-table row (``analysis.rep_spread``), or None."""
    low, high = row.get(f"{col}_ci_low"), row.get(f"{col}_ci_high")
    return (low, high) if low is not None and high is not None else None


def chart_points(depth: pl.DataFrame) -> list[dict]:
    """The depth chart's points: one per (host, configuration, depth) of ``depth_table`` other than the
    baseline, with the tooltip fields: the configuration, the speedup (and its interval's ends) and the
    prefill ratio with their 95% intervals rounded by ``numfmt.fmt_interval`` (``analysis.rep_spread``;
    none below n = 3, which ``interval`` says), n (requests) and the run ids (then the baseline's)."""
    rows = []
    for r in depth.filter(pl.col("role") != "baseline").iter_rows(named=True):
        ids, base = r.get("run_ids") or [], r.get("baseline_run_ids") or []
        rows.append(
            {
                "host": r["host_id"][:8],
                "config_id": r["config_id"],
                "role": r["role"],
                "draft_model_id": r.get("draft_model_id") or "",
                "n_max": r.get("n_max"),
                "depth": r["depth"],
                "speedup": r["speedup"],
                "speedup_ci_low": r.get("speedup_ci_low"),
                "speedup_ci_high": r.get("speedup_ci_high"),
                "speedup_shown": fmt_interval(float(r["speedup"]), _ci(r, "speedup")),
                "prefill_shown": fmt_interval(float(r["prefill_ratio"]), _ci(r, "prefill_ratio")),
                "interval": (
                    "log-scale Student-t, paired by repetition with the baseline"
                    if _ci(r, "speedup")
                    else f"none: n = {r['n']} < 3 repetitions"
                ),
                "n": r["n"],
                "series": f"{r['config_id']} ({r['host_id'][:8]})",
                "run_ids_short": " ".join(i[:8] for i in ids[:4])
                + ("; baseline " + " ".join(i[:8] for i in base[:4]) if base else ""),
            }
        )
    return rows


def chart_depth(depth: pl.DataFrame) -> alt.LayerChart:
    """Decode speedup against context depth, one line and symbol per (configuration, host); a rule at 1."""
    pts = alt.Chart(alt.Data(values=chart_points(depth)))
    series = alt.Color("series:N", title="configuration (host)")
    line = pts.mark_line(point=False).encode(
        x=alt.X("depth:Q", title="context depth (tokens before the generated ones)"),
        y=alt.Y("speedup:Q", title="decode rate ÷ baseline decode rate (×)"),
        color=series,
        strokeDash=alt.StrokeDash("host:N", title="host"),
    )
    dots = pts.mark_point(filled=True, size=60).encode(
        x="depth:Q",
        y="speedup:Q",
        color=series,
        shape=alt.Shape("series:N", title="configuration (host)"),
        tooltip=[
            alt.Tooltip("config_id:N", title="configuration"),
            alt.Tooltip("host:N"),
            alt.Tooltip("draft_model_id:N", title="draft"),
            alt.Tooltip("n_max:Q", format="d"),
            alt.Tooltip("depth:Q", format=",d"),
            alt.Tooltip("speedup_shown:N", title="decode ÷ baseline (×) [95% CI]"),
            alt.Tooltip("prefill_shown:N", title="prefill ÷ baseline (×) [95% CI]"),
            alt.Tooltip("interval:N", title="95% interval"),
            alt.Tooltip("n:Q", format="d", title="n (requests)"),
            alt.Tooltip("run_ids_short:N", title="run ids"),
        ],
    )
    one = alt.Chart(alt.Data(values=[{"y": 1}])).mark_rule(color="gray").encode(y="y:Q")
    return (one + line + dots).properties(
        title="decode speedup against context depth (each against its own session's baseline)",
        width=440,
        height=260,
    )


def bench_wide(shown: pl.DataFrame) -> pl.DataFrame:
    """bench.md's rows from the llama-bench tests it shows (``judged_bench``'s rows: each model's tg test
    and its largest pp test): per host, model and n_depth, ``pp`` and ``tg`` (the mean of the
    per-repetition rates, tok/s) with the sizes of the two tests (``pp_n_prompt``, ``tg_n_gen``: their
    keys, ``cells.bench_key``)."""
    if shown.is_empty():
        return pl.DataFrame()
    on = ["host_id", "model_id", "n_depth"]
    tg = shown.filter(pl.col("n_gen") > 0).select(
        *on, pl.col("mean_tps").alias("tg"), pl.col("n_gen").alias("tg_n_gen")
    )
    pp = shown.filter(pl.col("n_gen") == 0).select(
        *on, pl.col("mean_tps").alias("pp"), pl.col("n_prompt").alias("pp_n_prompt")
    )
    return tg.join(pp, on=on, how="left").sort(on)


_NO_RECORDS = "no spec_depth records under {folder}; fix: `python -m benchbook.experiments spec_depth`"


@dataclass
class Tables:
    """The tables of the published sessions (``tables``): the server ``depth`` table (with its
    ``caveats`` and ``cost_caveats``), the llama-bench tests shown (``shown``), the ``memory`` slopes,
    the speculative sessions beside them (``per_host``) and the record facts numbers cite (``facts``)."""

    depth: pl.DataFrame
    shown: pl.DataFrame
    memory: pl.DataFrame
    per_host: HostSpec
    facts: Facts


def tables(inputs: reporting.Inputs) -> Tables:
    """The depth tables of each host's published session (``spec_depth`` policy): the server table with
    the per-step overhead (``with_overhead``), judged by the speculative experiment's rules on the same
    kind of table (``inputs.judge``: each host by its own thresholds), its cost rows checked
    (``caveats.with_cost_caveats``: only the residuals, which read them, carry what fires); the llama-bench
    tests bench.md shows (each model's tg test and its largest pp test, per host and depth), the memory
    slopes and the speculative sessions of each host (``host_spec``)."""
    raw, thresholds, confidence = inputs.where.raw, inputs.report, inputs.confidence
    published = inputs.session_ids()
    depth = depth_table(raw, confidence)
    if depth.is_empty():
        raise RuntimeError(_NO_RECORDS.format(folder=raw / EXPERIMENT))
    depth = depth.filter(pl.col("session_id").is_in(published)).sort("host_id", "config_id", "depth")
    # o(k) measured where the host's verify step is (tool_gap), else fitted on the other configurations
    depth = with_overhead(depth, verify_ratios(raw, confidence))
    judged = inputs.judge(caveat_table(depth), "speculative")
    depth = depth.join(judged.select(*ROW, "caveats"), on=ROW, how="left").sort(
        "host_id", "config_id", "depth"
    )
    depth = caveats.with_cost_caveats(depth, thresholds)
    bench = bench_rates(bench_table(raw).filter(pl.col("session_id").is_in(published)))
    runs = run_index(raw)
    facts = Facts(runs=runs, at=records_at(runs), toolchains=inputs.toolchains)
    shown = (
        judged_bench(bench, depth, thresholds, inputs.hosts).filter(
            (pl.col("n_gen") > 0) | (pl.col("n_prompt") == pl.col("n_prompt").max().over("host_id"))
        )
        if not bench.is_empty()
        else pl.DataFrame()
    )
    per_host = host_spec(raw, thresholds, inputs.hosts, facts.toolchains, confidence)
    return Tables(depth, shown, memory_per_draft_token(depth), per_host, facts)


def table_numbers(_inputs: reporting.Inputs, t: Tables) -> list[Number]:
    """The depth page's numbers: each server cell (``depth_numbers``), llama-bench test shown
    (``bench_numbers``), memory slope (``memory_numbers``) and speculative session beside them."""
    nums = depth_numbers(t.depth, t.facts)
    nums += bench_numbers(t.shown, t.facts) if not t.shown.is_empty() else []
    nums += memory_numbers(t.memory, t.depth, t.facts) if not t.memory.is_empty() else []
    return nums + t.per_host.numbers


#: what the depth experiment plugs into the one report pipeline (``reporting.publish_report``): each
#: host's newest session whose runs are all those its start record plans
REPORT = reporting.Report(
    EXPERIMENT,
    table=tables,
    numbers=table_numbers,
    replication=REPLICATION,
    planned=lambda inputs: planned(inputs.where.snapshots),
    fix="`python -m benchbook.experiments spec_depth`",
)


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> SpecDepthReport:
    """The stage ``spec_depth_report`` (every host's committed records; each host's newest session).
    ``params["report"]``: the caveat thresholds (``caveats.host_thresholds``, with each host's own core
    count from its snapshot) and ``confidence`` (default 0.95) of the intervals.  ``skipped.md`` also
    names each published session that ran other parameters than params.yaml asks now
    (``drift.of_sessions``).

    Raises:
        RuntimeError: no spec_depth records under ``raw_dir/spec_depth`` (fix: run
        ``python -m benchbook.experiments spec_depth`` on a host, or ``scripts/gpu_session.sh depth``).
    """
    root = Path(root)
    raw, rep = root / raw_dir, root / reports_dir
    if not any((raw / EXPERIMENT).glob("*.jsonl")):
        raise RuntimeError(_NO_RECORDS.format(folder=raw / EXPERIMENT))
    where = reporting.Where.of(EXPERIMENT, root=root, raw_dir=raw_dir, reports_dir=reports_dir)
    done = reporting.publish_report(REPORT, params, where)
    t, nums = done.table, done.numbers
    depth, wide, memory, per_host = t.depth, bench_wide(t.shown), t.memory, t.per_host
    sessions = {c.host_id: c.session_id for c in done.inputs.selection.published if c.host_id}
    skipped, hosts = done.inputs.selection.skipped, done.inputs.hosts
    (rep / EXPERIMENT).mkdir(parents=True, exist_ok=True)
    drifted = drift.of_sessions(
        EXPERIMENT, raw / EXPERIMENT, {s: h for h, s in sessions.items()}, params, hosts
    )
    atomicfile.write_text(
        rep / EXPERIMENT / "skipped.md", measured.skipped_markdown(skipped, root, drift=drifted)
    )
    atomicfile.write_text(rep / EXPERIMENT / "sessions.md", sessions_markdown(session_states(raw)))
    out = rep / EXPERIMENT
    keys = {n.key for n in nums}  # the cells of published numbers link to their entries (cells.py)
    atomicfile.write_text(
        out.joinpath("bench.md"),
        md_table(
            wide,
            {
                "host_id": ("host", 0),
                "model_id": ("model", 0),
                "n_depth": ("n_depth", 0),
                "pp": ("pp tok/s", 1),
                "tg": ("tg tok/s", 1),
            },
            key_of=bench_key,
            published=keys,
        )
        if not wide.is_empty()
        else "",
    )
    atomicfile.write_text(
        out.joinpath("server.md"),
        md_table(
            depth,
            {
                "host_id": ("host", 0),
                "config_id": ("configuration", 0),
                "depth": ("depth", 0),
                "n": ("n", 0),
                "decode_tps": ("decode tok/s", 1),
                "speedup": ("decode ÷ baseline", 2),
                "prefill_tps": ("prefill tok/s", 0),
                "prefill_ratio": ("prefill ÷ baseline", 2),
                "output_match": ("greedy output = baseline", 0),
                "tau": ("τ", 2),
                "peak_gpu_mem_mib": ("peak GPU MiB", 0),
            },
            key_of=cell_key,
            published=keys,
        ),
    )
    cm = depth.filter(pl.col("role") == "speculative") if "alpha" in depth.columns else pl.DataFrame()
    atomicfile.write_text(
        out.joinpath("cost_model.md"),
        md_table(
            cm,
            {
                "host_id": ("host", 0),
                "config_id": ("configuration", 0),
                "depth": ("depth", 0),
                "tau": ("τ", 2),
                "k": ("k", 2),
                "speedup": ("measured", 3),
                "c_bench": ("c (llama-bench)", 2),
                "r_k1": ("r(k+1) (llama-bench)", 2),
                "model_before": ("model before", 3),
                "residual_before": ("residual before", 3),
                "c_server": ("c (in server)", 2),
                "c_alone": ("c (draft alone)", 2),
                "model_after": ("model after", 3),
                "residual_after": ("residual after", 3),
                "v_server": ("verify step (in server)", 2),
                "overhead_server": ("verify − r(k+1)", 2),
                "beta_loo": ("β (other configs)", 3),
                "overhead_model": ("o(k) = β(k+1)c_alone", 2),
                "model_overhead": ("model + o(k)", 3),
                "residual_overhead": ("residual + o(k)", 3),
            },
            key_of=cell_key,
            published=keys,
        )
        if not cm.is_empty()
        else "",
    )
    atomicfile.write_text(
        out.joinpath("memory.md"),
        md_table(
            memory,
            {
                "host_id": ("host", 0),
                "draft_model_id": ("draft", 0),
                "depth": ("depth", 0),
                "mib_per_draft_token": ("MiB per draft token", 2),
            },
            key_of=memory_key,
            published=keys,
        )
        if not memory.is_empty()
        else "",
    )
    atomicfile.write_text(
        out.joinpath("hosts.md"),
        md_table(
            per_host.table,
            {
                "config_id": ("configuration", 0),
                "host_id": ("host", 0),
                "prompts": ("prompts", 0),
                "speedup": ("speedup (own baseline)", 3),
                "output_equal": ("greedy output = baseline", 0),
                "tau": ("τ", 2),
                "model": ("cost model", 3),
                "residual": ("residual", 3),
            },
            key_of=host_key,
            published=keys,
        )
        if not per_host.table.is_empty()
        else "",
    )
    charts.save(chart_depth(depth), out, "depth_speedup")
    return SpecDepthReport(
        numbers=nums, sessions=sessions, depth=depth, bench=wide, memory=memory, hosts=per_host.table
    )


def sections(res: SpecDepthReport, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment spec_depth``, through
    ``blocks.show``): the depth, server, cost-model, memory and per-host tables, their published cells
    linked to their provenance entries (``numtable.link_cells``), then the checks (``AssertionError`` on a
    failed one)."""
    from benchbook.numtable import link_cells

    yield blocks.Markdown(
        "# Speculation against context depth: report\nDepth tables (llama-bench `-d` and llama-server with "
        "and without a draft), the cost model before and after the draft was timed inside the server, memory "
        "per draft token, and the speculative experiment per host; every host's newest session, hosts never "
        "mixed in one ratio."
    )
    out = paths.reports_dir / EXPERIMENT
    for name in ("bench", "server", "cost_model", "memory", "hosts"):
        yield blocks.Markdown(
            link_cells((out / f"{name}.md").read_text(), res.numbers, to_root=paths.to_root)
        )
    assert all(n.sources for n in res.numbers)
    yield blocks.Text(f"ok: {len(res.numbers)} numbers, {len(res.sessions)} sessions")

"""The llama-bench report: statistics table, caveats, numbers, chart and DVC metrics.

Called by ``notebooks/report.ipynb`` (``-p experiment llama_bench``).  Reads only committed raw data
(``data/raw/llama_bench/*.jsonl`` and ``data/raw/snapshots``), so it runs on a fresh clone with
no models or binaries.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import altair as alt
import polars as pl

from benchbook import atomicfile, blocks, caveats, charts, measured
from benchbook.escape import code_span, markdown_text, minute_text
from benchbook.experiments import drift, reporting
from benchbook.numbers import Number, Unit, make_key
from benchbook.numfmt import fmt_interval
from benchbook.provenance import read_snapshots
from benchbook.records import read_records
from benchbook.schemas import NATIVE
from benchbook.stats import LOG_T

from .analysis import load_llama_bench, rate_stats
from .plan import LlamaBenchParams, plan
from .spread import sessions_markdown, with_session_spread

#: llama-bench parameters named in a key only when they vary within the session (sweeps), with the
#: short names llama-bench's own flags use.
SWEEP_ABBR = {
    "n_threads": "t",
    "n_gpu_layers": "ngl",
    "n_cpu_moe": "ncmoe",
    "flash_attn": "fa",
    "type_k": "ctk",
    "type_v": "ctv",
}


def number_key(row: dict, varying: tuple[str, ...] = ()) -> str:
    """Stable key of one configuration, e.g. ``lb-smollm2-135m-q4_1-tg64-warm``; parameters in
    ``varying`` (a sweep) are appended, e.g. ``lb-...-tg64-t1-warm`` for a thread sweep."""
    size = row["n_gen"] if row["test"] == "tg" else row["n_prompt"]
    depth = f"-d{row['n_depth']}" if row["n_depth"] else ""
    sweep = [f"{SWEEP_ABBR[c]}{row[c]}" for c in varying]
    return make_key("lb", row["model_id"], f"{row['test']}{size}{depth}", *sweep, row["phase"])


def planned_runs(start: dict) -> set:
    """(model_id, phase) of every run ``plan.plan`` makes from a llama_bench session's start record
    (its ``config``): every model, cold first when ``cold_first_run``, then warm.  The model ids stand
    for their files (a label needs no sha256).

    Raises:
        errors.ParamsError: the config is not a ``LlamaBenchParams``.
    """
    params = LlamaBenchParams.from_record(start.get("config") or {})
    models = [{"model_id": m, "sha256": None} for m in params.models]
    return {(run.config["model_id"], run.phase) for run in plan(params, models, None, "")}


#: ``Number.computation`` of a configuration's headline number (the robust summaries name their column)
HEADLINE = "benchbook.experiments.llama_bench.analysis.rate_stats"

#: the runs a session plans and the run a row belongs to (``measured.check``)
PLANNED = measured.Planned(planned_runs, lambda r: (r.get("model_id"), r.get("phase")))


def publishable_sessions(raw_dir: Path) -> tuple[dict[str, dict], list[measured.SessionCheck]]:
    """``{host_id: {"session_id", "host_id", "at"}}``: the sessions under ``raw_dir``
    (``data/raw/llama_bench``) that the ``llama_bench`` policy publishes (``measured.select``: each
    host's newest session whose records prove a complete measurement made in it), and the newer
    sessions skipped (with their reasons, for the page)."""
    chosen = selection(raw_dir)
    sessions = {
        h: {"session_id": c.session_id, "host_id": h, "at": c.ended_at} for h, c in chosen.by_host().items()
    }
    return sessions, chosen.skipped


def selection(raw_dir: Path) -> measured.Selection:
    """``measured.select`` of the ``llama_bench`` policy over ``raw_dir``'s checked sessions."""
    return measured.select("llama_bench", measured.check("llama_bench", raw_dir, PLANNED))


def check_publishable(
    stats: pl.DataFrame, nums: list[Number], sessions: dict[str, dict], raw_dir: Path
) -> None:
    """The report's checks of its table, run before anything is written (``numbers.publish`` then
    checks every number: unique keys, finite values, units, intervals, citations, commands): every
    published session's table is whole (one number per (model, phase, test) its raw records hold),
    every mean is finite, every n >= 3 row has an interval, and our mean reproduces llama-bench's
    ``avg_ts`` within 0.1 %.

    Raises:
        RuntimeError: naming the session or key and the check that failed (nothing was written).
    """
    files = [f for f in sorted(Path(raw_dir).rglob("*.jsonl")) if not f.name.endswith(".quarantine.jsonl")]
    wanted = {s["session_id"] for s in sessions.values()}
    tests: dict[str, set] = {}
    for r in read_records(files, schema="benchbook.llama_bench"):
        if r.get("session_id") in wanted:
            row = r["llama_bench"]
            tests.setdefault(r["session_id"], set()).add(
                (r["model_id"], r["phase"], row["n_prompt"], row["n_gen"], row.get("n_depth", 0))
            )
    for sid in wanted:
        # the headline numbers (the robust summaries beside a cold first sample are extra, issue 12)
        published = [n for n in nums if n.session_id == sid and n.computation == HEADLINE]
        if len(published) != len(tests.get(sid, ())):
            raise RuntimeError(
                f"llama_bench session {sid}: {len(published)} numbers for {len(tests.get(sid, ()))} tests "
                "in its raw records: a partial table is never published (fix: see which rows the analysis "
                "dropped)"
            )
    cur = stats.filter(pl.col("session_id").is_in(list(wanted)))
    if cur.select(pl.col("mean_tps").is_nan().any()).item():
        raise RuntimeError("llama_bench: a mean rate is NaN")
    if cur.filter(pl.col("n") >= 3)["ci_low_tps"].null_count():
        raise RuntimeError("llama_bench: a configuration with n >= 3 has no interval")
    rel = ((cur["mean_tps"] - cur["llama_bench_avg_ts"]).abs() / cur["llama_bench_avg_ts"]).max()
    if cur.height and rel is not None and float(rel) >= 1e-3:  # type: ignore[arg-type]
        raise RuntimeError(f"llama_bench: a mean differs from llama-bench's avg_ts by {float(rel):.2%}")  # type: ignore[arg-type]


def host_line(host: dict, toolchain: dict) -> str:
    """One-line description of a host and its build, for pages: ``escape.markdown_text`` (a snapshot's
    text, from any host through git, stays text in a Markdown table cell: no HTML, shortcode or math)."""
    gpus = ", ".join(f"{g['name']} ({g['memory_total_mib']} MiB)" for g in host.get("gpus") or []) or "no GPU"
    text = (
        f"{host.get('cpu_model')} ({host.get('cpu_logical')} threads, "
        f"{round(host.get('ram_bytes', 0) / 2**30)} GiB), "
        f"{gpus}; llama.cpp b{toolchain.get('build_number')} {toolchain.get('backend') or ''}"
    )
    return markdown_text(text)


def _only_native(rows: pl.DataFrame, raw_dir: Path) -> None:
    """The project's reports publish its own measurements only: an ingested record under ``raw_dir``
    (someone else's output) is an error naming its file:line."""
    foreign = rows.filter(pl.col("origin") != NATIVE)
    if foreign.height:
        f, line = foreign.row(0, named=True)["file"], foreign.row(0, named=True)["line"]
        raise RuntimeError(
            f"{f}:{line}: an ingested record (origin {foreign['origin'][0]}) under {raw_dir}; the "
            f"project's reports read its own measurements only ({foreign.height} such rows); fix: keep "
            "ingested records under data/external/ (`benchbook ingest` writes there)"
        )


def _sessions(inputs: reporting.Inputs) -> tuple[dict[str, dict], str]:
    """``({host_id: {"session_id", "host_id", "at"}}, primary host)`` of the published sessions: the
    primary host is ``report.primary_host``, else the host of the newest session.

    Raises:
        RuntimeError: ``report.primary_host`` has no published session."""
    sessions = {
        h: {"session_id": c.session_id, "host_id": h, "at": c.ended_at}
        for h, c in inputs.selection.by_host().items()
    }
    primary = inputs.primary_host or max(sessions.values(), key=lambda s: s["at"])["host_id"]
    if primary not in sessions:
        raise RuntimeError(
            f"report.primary_host {primary} has no completed llama_bench session; hosts with one: "
            f"{', '.join(sorted(sessions))}"
        )
    return sessions, primary


def stats_table(inputs: reporting.Inputs) -> pl.DataFrame:
    """``rate_stats`` of every row under the raw folder (all sessions: a configuration's other sessions
    are its spread) with each row's device memory, session spread and memory headroom; the pipeline then
    adds its ``caveats`` (table kind ``llama_bench``, each host's own thresholds)."""
    rows = load_llama_bench(inputs.where.folder)
    _only_native(rows, inputs.where.folder)
    # memory_spill compares each run's peak with its own host's device memory (None on a CPU host)
    stats = caveats.with_device_memory(rate_stats(rows, inputs.confidence), inputs.hosts)
    # the host's other sessions of each configuration and two-cluster samples (between_session_spread,
    # bimodal_samples)
    stats = with_session_spread(stats, rows)
    return caveats.headroom_column(stats, hosts=inputs.hosts)  # "no GPU" on a host whose snapshot lists none


def table_numbers(inputs: reporting.Inputs, stats: pl.DataFrame) -> list[Number]:
    """One number per configuration of each published session (``number_key``; another host than the
    primary one with the prefix ``h<host id[:8]>``), its citation from its row (``reporting.cite``), and
    the robust summaries beside a cold first sample (``robust_numbers``); ``check_publishable`` run on
    them.

    Raises:
        RuntimeError: a check of ``check_publishable`` fails."""
    sessions, primary = _sessions(inputs)
    raw_dir = inputs.where.folder
    cache_states = {
        r["run_id"]: r.get("cache_state")
        for r in read_records(
            [f for f in sorted(Path(raw_dir).rglob("*.jsonl")) if not f.name.endswith(".quarantine.jsonl")],
            schema="benchbook.llama_bench",
        )
    }
    cold_first = caveats.host_thresholds(inputs.report)["cold_first_ratio"]
    nums: list[Number] = []
    for h, s in sorted(sessions.items(), key=lambda kv: (kv[0] != primary, kv[0])):
        rows = stats.filter(pl.col("session_id") == s["session_id"]).sort("model_id", "test", "phase")
        varying = tuple(c for c in SWEEP_ABBR if c in rows.columns and rows[c].n_unique() > 1)
        prefix = () if h == primary else (f"h{h[:8]}",)
        for r in rows.iter_rows(named=True):
            key = number_key(r, varying)
            if prefix:
                key = make_key("lb", *prefix, *key.split("-", 1)[1:])
            nums.append(
                Number(
                    key=key,
                    value=round(r["mean_tps"], 2),
                    unit=Unit.TOK_S,
                    label=f"{r['model_id']} {r['test']}"
                    f"{r['n_gen'] if r['test'] == 'tg' else r['n_prompt']} "
                    f"({measured.cache_label(r['phase'], cache_states.get(r['run_ids'][0]))}) on host {h}",
                    n=r["n"],
                    sd=r["sd_tps"],
                    ci95=[r["ci_low_tps"], r["ci_high_tps"]] if r["ci_low_tps"] is not None else None,
                    ci_method=LOG_T + " over per-repetition rates" if r["ci_low_tps"] is not None else None,
                    replication=REPLICATION,
                    **reporting.cite(r, toolchains=inputs.toolchains),
                    caveats=r["caveats"],
                    computation=HEADLINE,
                )
            )
            if (r["first_sample_ratio"] or 1.0) < cold_first:
                nums.extend(robust_numbers(r, nums[-1]))
    check_publishable(stats, nums, sessions, raw_dir)  # before anything is written
    return nums


def derive(
    raw_dir: Path,
    snapshots_dir: Path,
    out_dir: Path,
    numbers_path: Path,
    metrics_path: Path,
    thresholds: dict,
    confidence: float = 0.95,
    root: Path | None = None,
    params: dict | None = None,
) -> LlamaBenchReport:
    """Compute and write everything through the one report pipeline (``reporting.publish_report``:
    ``REPORT``); returns a ``LlamaBenchReport``.

    Every host's newest completed session is published; hosts are never mixed in one number.  The
    *primary* host (``thresholds["primary_host"]``, default: the host of the newest session) gets
    the plain keys (``lb-<model>-tg64-warm``) that pages quote; other hosts get
    ``lb-h<host id[:8]>-...``.  ``out_dir/hosts.md`` is a generated table of every host's numbers (as
    ``{{< var >}}`` links) for the page to include.  Caveat thresholds use each host's own core count.
    Source file paths in the numbers are made relative to ``root`` when under it.  With ``params``
    (the whole params.yaml), ``skipped.md`` also names each published session that ran other
    parameters than params.yaml asks now (``drift.of_sessions``).

    Raises:
        RuntimeError: no completed llama_bench session under ``raw_dir`` (fix: run the measurement).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    where = reporting.Where(Path(raw_dir), Path(snapshots_dir), Path(out_dir), Path(numbers_path), root)
    done = reporting.publish_report(REPORT, params, where, {**thresholds, "confidence": confidence})
    stats, nums, hosts, tcs = done.table, done.numbers, done.inputs.hosts, done.inputs.toolchains
    sessions, primary = _sessions(done.inputs)
    sess, skipped = sessions[primary], done.inputs.selection.skipped
    # each host's headline numbers beside their rows, in the order table_numbers made them
    headline = iter(n for n in nums if n.computation == HEADLINE)
    per_host = {
        h: [
            (r, next(headline))
            for r in stats.filter(pl.col("session_id") == s["session_id"])
            .sort("model_id", "test", "phase")
            .iter_rows(named=True)
        ]
        for h, s in sorted(sessions.items(), key=lambda kv: (kv[0] != primary, kv[0]))
    }
    atomicfile.write_with(out_dir / "rates.parquet", stats.write_parquet)
    drifted = (
        drift.of_sessions(
            "llama_bench", raw_dir, {s["session_id"]: h for h, s in sessions.items()}, params, hosts
        )
        if params is not None
        else {}
    )
    published = done.inputs.selection.published
    atomicfile.write_text(
        out_dir / "skipped.md", measured.skipped_markdown(skipped, root, drift=drifted, published=published)
    )
    atomicfile.write_text(out_dir / "sessions.md", sessions_markdown(stats, primary))
    atomicfile.write_text(out_dir / "hosts.md", hosts_table(per_host, hosts, tcs, primary, sessions))
    cur = stats.filter(pl.col("session_id") == sess["session_id"]).sort("model_id", "test", "phase")

    chart_df = cur.select(
        "model_id",
        "test",
        "phase",
        "n",
        "mean_tps",
        "ci_low_tps",
        "ci_high_tps",
        "cv",
        "session_id",
        "toolchain_id",
        "host_id",
        pl.col("caveats").list.join(", ").alias("caveat_ids"),
        pl.col("run_ids").list.eval(pl.element().str.slice(0, 8)).list.join(" ").alias("run_ids_short"),
    )
    bars_data = chart_df.to_dicts()
    for bar in bars_data:  # the page's rounding rule (numfmt) in the tooltip
        ci = (bar["ci_low_tps"], bar["ci_high_tps"]) if bar["ci_low_tps"] is not None else None
        bar["tps_shown"] = fmt_interval(bar["mean_tps"], ci)
    base = alt.Chart(alt.Data(values=bars_data)).encode(
        y=alt.Y("model_id:N", title=None), yOffset="phase:N", color=alt.Color("phase:N")
    )
    bars = base.mark_bar().encode(
        x=alt.X("mean_tps:Q", title="tok/s (mean of per-repetition rates)"),
        tooltip=[
            alt.Tooltip("model_id:N"),
            alt.Tooltip("test:N"),
            alt.Tooltip("phase:N"),
            alt.Tooltip("tps_shown:N", title="tok/s [95% CI]"),
            alt.Tooltip("ci_low_tps:Q", format=",.4~r"),
            alt.Tooltip("ci_high_tps:Q", format=",.4~r"),
            alt.Tooltip("n:Q", format="d"),
            alt.Tooltip("cv:Q", format=".2~p"),
            alt.Tooltip("caveat_ids:N"),
            alt.Tooltip("session_id:N"),
            alt.Tooltip("toolchain_id:N"),
            alt.Tooltip("host_id:N"),
            alt.Tooltip("run_ids_short:N", title="run ids"),
        ],
    )
    err = base.mark_errorbar(color="black").encode(
        x=alt.X("ci_low_tps:Q", title="tok/s (mean of per-repetition rates)"), x2="ci_high_tps:Q"
    )
    # the phase is written beside each bar, so the chart does not rely on colour alone
    label = base.mark_text(align="left", dx=4, fontSize=9, color="#222").encode(
        x="ci_high_tps:Q", text="phase:N"
    )
    chart = (
        (bars + err + label)
        .properties(width=460, height=110)
        # one panel per test, stacked: the chart stays one panel wide (was two side by side, 1,050 px)
        .facet(row=alt.Row("test:N", title="llama-bench test (pp: prompt processing, tg: generation)"))
        .resolve_scale(x="independent")
        .properties(title="llama-bench throughput, latest session, 95% t-intervals")
    )
    charts.save(chart, out_dir, "llama_bench_rates")

    metrics = {"session_id": sess["session_id"], "host_id": sess["host_id"]}
    for n in nums:
        if n.host_id == primary and n.key.endswith("-warm"):
            metrics[n.key] = n.value
    metrics_path.parent.mkdir(parents=True, exist_ok=True)
    atomicfile.write_text(metrics_path, json.dumps({"llama_bench": metrics}, indent=1))
    return LlamaBenchReport(stats=stats, numbers=nums, session=sess, sessions=sessions)


@dataclass
class LlamaBenchReport:
    """What ``derive`` computed and wrote: ``stats`` (``rate_stats`` with caveats, every host), the
    published ``numbers``, the primary host's ``session`` and every host's newest ``sessions``
    (``{host_id: {session_id, host_id, at}}``)."""

    stats: pl.DataFrame
    numbers: list[Number]
    session: dict
    sessions: dict[str, dict]


def _var_cell(keys: dict[str, str], test: str) -> str:
    """A table cell: the ``{{< var >}}`` shortcode of ``test``'s number, or "—" when there is none."""
    return f"{{{{< var {keys[test]} >}}}}" if test in keys else "—"


def hosts_table(per_host: dict, hosts: dict, tcs: dict, primary: str, sessions: dict | None = None) -> str:
    """Markdown: the hosts side by side, one column per host (the primary first), one row per model and
    warm test (pp, tg) with the numbers as ``{{< var >}}`` links, then each model's GPU memory headroom.
    The head rows give each host's machine, build and newest complete session (``sessions``:
    ``{host_id: {"session_id", "at"}}``).  Hosts share a row only as neighbours: no cell mixes two hosts
    (a CPU and a GPU host are never in one ratio)."""
    cols = list(per_host)
    models: list[str] = []
    cells: dict[tuple[str, str, str], str] = {}
    for h, items in per_host.items():
        for r, n in items:
            if r["phase"] != "warm":
                continue
            if r["model_id"] not in models:
                models.append(r["model_id"])
            size = r["n_gen"] if r["test"] == "tg" else r["n_prompt"]
            cells[(h, r["model_id"], r["test"])] = f"{{{{< var {n.key} >}}}} ({r['test']}{size})"
            if r["test"] == "tg":
                cells[(h, r["model_id"], "mem")] = r.get("memory_headroom") or caveats.HEADROOM_UNKNOWN
    head = [code_span(h) + (" (primary)" if h == primary else "") for h in cols]
    lines = ["| | " + " | ".join(head) + " |", "|---|" + "---|" * len(cols)]

    def machine(h: str) -> str:
        tc = tcs.get(per_host[h][0][0]["toolchain_id"], {}) if per_host[h] else {}
        return host_line(hosts.get(h, {}), tc)

    def session(h: str) -> str:
        s = (sessions or {}).get(h)
        if not s:
            return "—"
        return f"{code_span(s['session_id'][:8])}, ended {minute_text(s['at'])} UTC"

    lines.append("| machine and build | " + " | ".join(machine(h) for h in cols) + " |")
    lines.append("| newest complete session | " + " | ".join(session(h) for h in cols) + " |")
    for mid in models:
        for test, label in (("pp", "prompt (warm)"), ("tg", "generation (warm)"), ("mem", "GPU memory (tg)")):
            row = [cells.get((h, mid, test), "—") for h in cols]
            lines.append(f"| {markdown_text(mid)} {label} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


#: What varied between a llama-bench number's samples.
REPLICATION = "repetitions of one llama-bench test (samples_ns)"


def robust_numbers(row: dict, headline: Number) -> list[Number]:
    """The robust summary published beside a ``cold_start`` row's headline (llama-bench's mean of rates,
    which stays the headline): ``<key>-median`` (median of every sample) and ``<key>-mean_rest`` (the
    mean without each repetition row's first sample, the flagged one); no interval, same sources."""
    out = []
    for suffix, col, what in (
        ("median", "median_tps", "median of the samples"),
        ("mean_rest", "mean_tps_rest", "mean without the first sample"),
    ):
        if row[col] is None:
            continue
        out.append(
            Number(
                **{
                    **headline.__dict__,
                    "key": f"{headline.key}-{suffix}",
                    "value": round(row[col], 2),
                    "label": f"{headline.label}, {what} (cold first sample)",
                    "n": row["n"] - (len(row["lines"]) if suffix == "mean_rest" else 0),
                    "sd": None,
                    "ci95": None,
                    "ci_method": "none: a robust summary",
                    "computation": "benchbook.experiments.llama_bench.analysis.rate_stats (" + col + ")",
                }
            )
        )
    return out


#: what llama-bench plugs into the one report pipeline (``reporting.publish_report``)
REPORT = reporting.Report(
    "llama_bench",
    table=stats_table,
    numbers=table_numbers,
    replication=REPLICATION,
    planned=lambda _: PLANNED,
    caveat_kind="llama_bench",
    fix="`dvc repro -f -s llama_bench`",
)


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> LlamaBenchReport:
    """The stage ``llama_bench_report``: ``derive`` from ``raw_dir/llama_bench`` and ``raw_dir/snapshots``
    into ``reports_dir/llama_bench/``, ``reports_dir/numbers/llama_bench.json`` and
    ``reports_dir/metrics/llama_bench.json``, with ``params["report"]``'s thresholds and confidence.
    ``raw_dir``/``reports_dir`` relative to ``root`` unless absolute.  Returns ``derive``'s report."""
    root = Path(root)
    raw, rep = root / raw_dir, root / reports_dir
    return derive(
        raw / "llama_bench",
        raw / "snapshots",
        rep / "llama_bench",
        rep / "numbers" / "llama_bench.json",
        rep / "metrics" / "llama_bench.json",
        thresholds=caveats.check_report(params.get("report")),
        confidence=caveats.check_report(params.get("report"))["confidence"],
        root=root,
        params=params,
    )


def sections(res: LlamaBenchReport, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment llama_bench``, through
    ``blocks.show``): the primary host's session, its configurations' statistics, the chart, every
    published number, the model files' tensor types, then the checks (``AssertionError`` on a failed one).
    """
    from benchbook.numtable import frame_table, numbers_table

    yield blocks.Markdown(
        "# llama-bench report\nStatistics from raw samples of the latest completed session: the mean of "
        "per-repetition rates (llama-bench's `avg_ts` definition), sample standard deviation and Student-t "
        "95% interval; caveats; the numbers registry entry of each configuration; one chart."
    )
    yield blocks.Value(res.session)
    cur = res.stats.filter(pl.col("session_id") == res.session["session_id"])
    yield blocks.Markdown(
        frame_table(
            cur.select(
                "model_id",
                "test",
                "phase",
                "n",
                pl.col("mean_tps").round(2),
                pl.col("sd_tps").round(2),
                pl.col("ci_low_tps").round(2),
                pl.col("ci_high_tps").round(2),
                pl.col("cv").round(4),
                pl.col("llama_bench_avg_ts").round(2),
                "caveats",
            ).sort("model_id", "test", "phase")
        )
    )
    yield blocks.Svg(paths.reports_dir / "llama_bench" / "llama_bench_rates.svg")
    # every published number, its key linking to its provenance entry
    yield blocks.Markdown(numbers_table(res.numbers, to_root=paths.to_root))
    yield blocks.Markdown(
        "## Model files: declared type vs the tensor types they really hold\nFrom each GGUF via the `gguf` "
        "package (snapshots in `data/raw/snapshots/`). A requested Q2_K falls back for SmolLM2's 576-wide "
        "tensors (not multiples of 256)."
    )
    snap = read_snapshots(paths.raw_dir / "snapshots", "model").values()
    models_table = pl.DataFrame(
        [
            {
                "model_id": m["model_id"],
                "declared": m["manifest"]["file_type_declared"],
                "tensor_types": ", ".join(
                    f"{k} ×{v['count']}" for k, v in m["manifest"]["tensor_types"].items()
                ),
                "params": m["manifest"]["parameter_count"],
                "layers": m["manifest"]["n_layer"],
                "size_mib": round(m["size_bytes"] / 2**20, 1),
                "sha256": m["sha256"][:16],
            }
            for m in snap
        ]
    )
    yield blocks.Markdown(frame_table(models_table))
    yield blocks.Markdown("## Checks")
    # one headline per configuration; a cold first sample adds its robust summary (-median, -mean_rest)
    headline = [n for n in res.numbers if not n.key.endswith(("-median", "-mean_rest"))]
    assert cur.height == sum(n.host_id == res.session["host_id"] for n in headline) > 0
    assert len({n.key for n in res.numbers}) == len(res.numbers)
    assert cur.select(pl.col("mean_tps").is_nan().any()).item() is False
    assert cur.filter(pl.col("n") >= 3)["ci_low_tps"].null_count() == 0  # no interval below n = 3
    assert cur.filter(pl.col("n") < 3)["ci_low_tps"].null_count() == cur.filter(pl.col("n") < 3).height
    # our mean of per-repetition rates must reproduce llama-bench's own avg_ts
    rel = (pl.col("mean_tps") - pl.col("llama_bench_avg_ts")).abs() / pl.col("llama_bench_avg_ts")
    assert cur.select(rel.max()).item() < 1e-3
    assert all(n.sources and n.commands for n in res.numbers)
    yield blocks.Text(f"ok: {cur.height} configurations")
    assert models_table.height >= 1 and models_table.null_count().sum_horizontal().item() == 0

"""The llama-bench report: statistics table, caveats, numbers, chart and DVC metrics.

Called by ``notebooks/llama_bench_report.ipynb``.  Reads only committed raw data
(``data/raw/llama_bench/*.jsonl`` and ``data/raw/snapshots``), so it runs on a fresh clone with
no models or binaries.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from pathlib import Path

import altair as alt
import polars as pl

from benchbook import caveats, charts
from benchbook.numbers import Number, build_of, line_ranges, make_key, publish
from benchbook.provenance import read_snapshots
from benchbook.records import read_records
from benchbook.schemas import NATIVE
from benchbook.stats import LOG_T

from .analysis import load_llama_bench, rate_stats


def _rel(path: str, root: Path | None) -> str:
    if root is None:
        return path
    rel = os.path.relpath(path, root)
    return path if rel.startswith("..") else rel


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


def latest_sessions_by_host(raw_dir: Path) -> dict[str, dict]:
    """``{host_id: {"session_id", "at"}}``: each host's newest llama_bench session with an end record
    (a session whose start record names no host belongs to none)."""
    files = [f for f in sorted(Path(raw_dir).rglob("*.jsonl")) if not f.name.endswith(".quarantine.jsonl")]
    starts: dict[str, dict] = {}
    best: dict[str, dict] = {}
    for r in read_records(files, schema="benchbook.session"):
        if r.get("experiment") != "llama_bench":
            continue
        if r["event"] == "start":
            starts.setdefault(r["session_id"], r)
        elif r["event"] == "end" and r["session_id"] in starts:
            h = starts[r["session_id"]].get("host_id")
            if h is None:
                continue
            if h not in best or r["at"] > best[h]["at"]:
                best[h] = {"session_id": r["session_id"], "host_id": h, "at": r["at"]}
    return best


def host_line(host: dict, toolchain: dict) -> str:
    """One-line description of a host and its build, for pages (escaped for a Markdown table cell)."""
    gpus = ", ".join(f"{g['name']} ({g['memory_total_mib']} MiB)" for g in host.get("gpus") or []) or "no GPU"
    text = (
        f"{host.get('cpu_model')} ({host.get('cpu_logical')} threads, "
        f"{round(host.get('ram_bytes', 0) / 2**30)} GiB), "
        f"{gpus}; llama.cpp b{toolchain.get('build_number')} {toolchain.get('backend') or ''}"
    )
    return html.escape(text).replace("|", "&#124;")


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


def derive(
    raw_dir: Path,
    snapshots_dir: Path,
    out_dir: Path,
    numbers_path: Path,
    metrics_path: Path,
    thresholds: dict,
    confidence: float = 0.95,
    root: Path | None = None,
) -> LlamaBenchReport:
    """Compute and write everything; returns a ``LlamaBenchReport``.

    Every host's newest completed session is published; hosts are never mixed in one number.  The
    *primary* host (``thresholds["primary_host"]``, default: the host of the newest session) gets
    the plain keys (``lb-<model>-tg64-warm``) that pages quote; other hosts get
    ``lb-h<host id[:8]>-...``.  ``out_dir/hosts.md`` is a generated table of every host's numbers (as
    ``{{< var >}}`` links) for the page to include.  Caveat thresholds use each host's own core count.
    Source file paths in the numbers are made relative to ``root`` when under it.

    Raises:
        RuntimeError: no completed llama_bench session under ``raw_dir`` (fix: run the measurement).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    hosts, tcs = read_snapshots(snapshots_dir, "host"), read_snapshots(snapshots_dir, "toolchain")
    sessions = latest_sessions_by_host(raw_dir)
    if not sessions:
        raise RuntimeError(
            f"no completed llama_bench session under {raw_dir}; fix: `dvc repro -f -s llama_bench`"
        )
    primary = thresholds.get("primary_host") or max(sessions.values(), key=lambda s: s["at"])["host_id"]
    if primary not in sessions:
        raise RuntimeError(
            f"report.primary_host {primary} has no completed llama_bench session; hosts with one: "
            f"{', '.join(sorted(sessions))}"
        )
    sess = sessions[primary]
    rows = load_llama_bench(raw_dir)
    _only_native(rows, raw_dir)
    # memory_spill compares each run's peak with its own host's device memory (None on a CPU host)
    stats = caveats.with_device_memory(rate_stats(rows, confidence), hosts)
    known = {k: v for k, v in thresholds.items() if k in caveats.DEFAULTS}
    stats = pl.concat(
        [
            caveats.attach(
                stats.filter(pl.col("host_id") == h),
                {**known, "cores": (hosts.get(h) or {}).get("cpu_logical") or caveats.DEFAULTS["cores"]},
            )
            for h in stats["host_id"].unique(maintain_order=True)
        ],
        how="diagonal_relaxed",
    )
    stats = caveats.headroom_column(stats)
    stats.write_parquet(out_dir / "rates.parquet")

    nums: list[Number] = []
    per_host: dict[str, list] = {}
    for h, s in sorted(sessions.items(), key=lambda kv: (kv[0] != primary, kv[0])):
        rows = stats.filter(pl.col("session_id") == s["session_id"]).sort("model_id", "test", "phase")
        varying = tuple(c for c in SWEEP_ABBR if c in rows.columns and rows[c].n_unique() > 1)
        prefix = () if h == primary else (f"h{h[:8]}",)
        per_host[h] = []
        for r in rows.iter_rows(named=True):
            tc = tcs.get(r["toolchain_id"], {})
            key = number_key(r, varying)
            if prefix:
                key = make_key("lb", *prefix, *key.split("-", 1)[1:])
            nums.append(
                Number(
                    key=key,
                    value=round(r["mean_tps"], 2),
                    unit="tok/s",
                    label=f"{r['model_id']} {r['test']}"
                    f"{r['n_gen'] if r['test'] == 'tg' else r['n_prompt']} ({r['phase']}) on host {h}",
                    n=r["n"],
                    sd=r["sd_tps"],
                    ci95=[r["ci_low_tps"], r["ci_high_tps"]] if r["ci_low_tps"] is not None else None,
                    ci_method=LOG_T + " over per-repetition rates" if r["ci_low_tps"] is not None else None,
                    replication=REPLICATION,
                    sources=[{"file": _rel(f, root), "lines": line_ranges(r["lines"])} for f in r["files"]],
                    run_ids=r["run_ids"],
                    commands=[r["argv"]],
                    toolchain_id=r["toolchain_id"],
                    **build_of(tc, r["build_number"], r["build_commit"]),
                    model_sha256=r["model_sha256"],
                    host_id=r["host_id"],
                    session_id=r["session_id"],
                    measured_from=r["started_at"],
                    measured_to=r["ended_at"],
                    caveats=r["caveats"],
                    computation="benchbook.experiments.llama_bench.analysis.rate_stats",
                )
            )
            per_host[h].append((r, nums[-1]))
            if (r["first_sample_ratio"] or 1.0) < known.get(
                "cold_first_ratio", caveats.DEFAULTS["cold_first_ratio"]
            ):
                nums.extend(robust_numbers(r, nums[-1]))
    publish(numbers_path, "llama_bench", nums, replication=REPLICATION)
    (out_dir / "hosts.md").write_text(hosts_table(per_host, hosts, tcs, primary))
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
    )
    base = alt.Chart(alt.Data(values=chart_df.to_dicts())).encode(
        y=alt.Y("model_id:N", title=None), yOffset="phase:N", color=alt.Color("phase:N")
    )
    bars = base.mark_bar().encode(
        x=alt.X("mean_tps:Q", title="tok/s (mean of per-repetition rates)"),
        tooltip=[
            alt.Tooltip("model_id:N"),
            alt.Tooltip("test:N"),
            alt.Tooltip("phase:N"),
            alt.Tooltip("mean_tps:Q", format=".1f"),
            alt.Tooltip("ci_low_tps:Q", format=".1f"),
            alt.Tooltip("ci_high_tps:Q", format=".1f"),
            alt.Tooltip("n:Q", format="d"),
            alt.Tooltip("cv:Q", format=".1%"),
            alt.Tooltip("caveat_ids:N"),
            alt.Tooltip("session_id:N"),
            alt.Tooltip("toolchain_id:N"),
            alt.Tooltip("host_id:N"),
        ],
    )
    err = base.mark_errorbar(color="black").encode(
        x=alt.X("ci_low_tps:Q", title="tok/s (mean of per-repetition rates)"), x2="ci_high_tps:Q"
    )
    chart = (
        (bars + err)
        .properties(width=420, height=110)
        .facet(column=alt.Column("test:N", title="llama-bench test (pp: prompt processing, tg: generation)"))
        .resolve_scale(x="independent")
        .properties(title="llama-bench throughput, latest session, 95% t-intervals")
    )
    charts.save(chart, out_dir, "llama_bench_rates")

    metrics = {"session_id": sess["session_id"], "host_id": sess["host_id"]}
    for n in nums:
        if n.host_id == primary and n.key.endswith("-warm"):
            metrics[n.key] = n.value
    metrics_path.parent.mkdir(parents=True, exist_ok=True)
    metrics_path.write_text(json.dumps({"llama_bench": metrics}, indent=1))
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


def hosts_table(per_host: dict, hosts: dict, tcs: dict, primary: str) -> str:
    """Markdown: one row per (host, model) with the warm pp/tg numbers as ``{{< var >}}`` links."""
    lines = [
        "| host | machine and build | model | pp (warm) | tg (warm) | GPU memory (tg, warm) |",
        "|---|---|---|---|---|---|",
    ]
    for h, items in per_host.items():
        tc = tcs.get(items[0][0]["toolchain_id"], {}) if items else {}
        desc = host_line(hosts.get(h, {}), tc)
        by_model: dict[str, dict] = {}
        headroom: dict[str, str] = {}
        for r, n in items:
            if r["phase"] == "warm":
                by_model.setdefault(r["model_id"], {})[r["test"]] = n.key
                if r["test"] == "tg":
                    headroom[r["model_id"]] = r.get("memory_headroom") or caveats.HEADROOM_UNKNOWN
        for mid, keys in by_model.items():
            mark = " (primary)" if h == primary else ""
            mem = headroom.get(mid, caveats.HEADROOM_UNKNOWN)
            pp, tg = _var_cell(keys, "pp"), _var_cell(keys, "tg")
            lines.append(f"| `{h}`{mark} | {desc} | {mid} | {pp} | {tg} | {mem} |")
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
        thresholds=params["report"],
        confidence=params["report"]["confidence"],
        root=root,
    )

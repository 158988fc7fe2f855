"""The speculative-decoding report: per-configuration table with caveats, cost model, memory slope,
numbers registry entries and charts.

Called by ``notebooks/speculative_report.ipynb``; reads only committed raw data
(``data/raw/speculative/*.jsonl``), so it runs on a fresh clone without models or binaries.
Headline speedups come from configurations with a fresh server per repetition; ``same``-policy rows
are probes of state carried between requests and carry the ``cross_request_state`` caveat when α rises.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import altair as alt
import numpy as np
import polars as pl

from benchbook import caveats, charts
from benchbook.numbers import Number, build_of, line_ranges, make_key, publish
from benchbook.numfmt import fmt_interval
from benchbook.provenance import read_snapshots
from benchbook.session import latest_completed_session

from . import analysis as sp

#: Caveat rules this table asks for (those that exist in ``caveats.RULES`` are applied).
WANTED_RULES = [
    "cap_hit",
    "single_run",
    "high_variance",
    "warm_prompt_cache",
    "cross_request_state",
    "output_mismatch",
    "acceptance_without_speedup",
    "host_or_build_mismatch",
    "busy_host",
]


def _rel(path: str, root: Path | None) -> str:
    if root is None:
        return path
    rel = os.path.relpath(path, root)
    return path if rel.startswith("..") else rel


def _num(
    key, value, unit, label, row, root, *, n=None, sd=None, ci=None, ci_method=None, computation, cav=None
):
    return Number(
        key=key,
        value=round(float(value), 4),
        unit=unit,
        label=label,
        n=int(n if n is not None else row["n"]),
        **{k: row[k] for k in ("build", "build_number", "build_commit")},
        sd=sd,
        ci95=[float(ci[0]), float(ci[1])] if ci and ci[0] is not None else None,
        ci_method=ci_method if ci and ci[0] is not None else None,
        sources=[{"file": _rel(f, root), "lines": line_ranges(row["lines"])} for f in row["files"]],
        run_ids=list(row["run_ids"]),
        commands=[list(row["argv"])],
        toolchain_id=row["toolchain_id"],
        model_sha256=row["model_sha256"],
        host_id=row["host_id"],
        session_id=row["session_id"],
        measured_from=row["started_at"],
        measured_to=row["ended_at"],
        caveats=list(cav if cav is not None else row["caveats"]),
        computation=computation,
    )


def derive(
    raw_dir: Path,
    snapshots_dir: Path,
    out_dir: Path,
    numbers_path: Path,
    thresholds: dict,
    confidence: float = 0.95,
    root: Path | None = None,
    session_id: str | None = None,
) -> SpeculativeReport:
    """Compute and write everything for the latest completed session (or ``session_id``).

    Writes under ``out_dir``: ``configs.parquet`` (the caveat-engine contract table + cost-model
    columns + ``caveats``), ``memory.parquet``, ``cost_model.json``, charts ``spec_speedup_alpha``,
    ``spec_acceptance``, ``spec_memory``; and the numbers registry file ``numbers_path``.
    Returns a ``SpeculativeReport``.

    Raises:
        RuntimeError: no completed speculative session under ``raw_dir`` (fix: run the measurement).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    if session_id is None:
        sess = latest_completed_session(raw_dir, "speculative")
        if sess is None:
            raise RuntimeError(
                f"no completed speculative session under {raw_dir}; fix: `dvc repro -f -s speculative`"
            )
    else:
        sess = {"session_id": session_id, "host_id": None}
    sid = sess["session_id"]
    req = sp.load_requests(raw_dir)
    req = req.filter(pl.col("session_id") == sid)
    if req.is_empty():
        raise RuntimeError(f"session {sid} has no completed requests in {raw_dir}")
    sess["host_id"] = sess.get("host_id") or req["host_id"][0]
    table = sp.config_table(req, confidence)
    cost = sp.cost_model(raw_dir, sid)
    table = sp.with_model(table, cost)
    tcs = read_snapshots(snapshots_dir, "toolchain")
    builds = [
        build_of(tcs.get(r["toolchain_id"]), r["build_number"], r["build_commit"])
        for r in table.select("toolchain_id", "build_number", "build_commit").iter_rows(named=True)
    ]
    table = table.with_columns(
        pl.Series("build", [b["build"] for b in builds], dtype=pl.String),
        pl.Series("build_number", [b["build_number"] for b in builds], dtype=pl.Int64),
        pl.Series("build_commit", [b["build_commit"] for b in builds], dtype=pl.String),
    )
    hosts = read_snapshots(snapshots_dir, "host")
    cores = (hosts.get(sess["host_id"]) or {}).get("cpu_logical") or caveats.DEFAULTS["cores"]
    rules = [r for r in WANTED_RULES if r in caveats.RULES]
    missing = [r for r in WANTED_RULES if r not in caveats.RULES]
    thr = {k: v for k, v in {**thresholds, "cores": cores}.items() if k in caveats.DEFAULTS}
    table, status = caveats.evaluate(table, "speculative", thr, rules)
    table.write_parquet(out_dir / "configs.parquet")
    mem = sp.memory_slopes(req, confidence)
    if not mem.is_empty():
        mem.write_parquet(out_dir / "memory.parquet")
    (out_dir / "cost_model.json").write_text(json.dumps(asdict(cost) if cost else {}, indent=1, default=str))
    fails = sp.load_failures(raw_dir)
    n_fail = 0 if fails.is_empty() else fails.filter(pl.col("session_id") == sid).height

    nums: list[Number] = []
    for r in table.iter_rows(named=True):
        base = make_key("spec", r["config_id"], r["prompt_id"])
        label = f"{r['config_id']} on {r['prompt_id']}"
        nums.append(
            _num(
                f"{base}-decode",
                r["decode_tps_mean"],
                "tok/s",
                f"decode rate, {label}",
                r,
                root,
                sd=r["decode_tps_sd"],
                ci=[r["decode_tps_ci_low"], r["decode_tps_ci_high"]],
                ci_method="student-t over per-repetition rates",
                computation="benchbook.experiments.speculative.analysis.config_table",
            )
        )
        if r["config_id"] != "baseline" and r["speedup_mean"] is not None:
            nums.append(
                _num(
                    f"{base}-speedup",
                    r["speedup_mean"],
                    "×",
                    f"decode speedup vs same-session baseline, {label}",
                    r,
                    root,
                    ci=[r["speedup_ci_low"], r["speedup_ci_high"]],
                    ci_method="student-t over paired per-repetition ratios",
                    computation="benchbook.experiments.speculative.analysis.config_table",
                )
            )
        if r["alpha"] is not None:
            nums.append(
                _num(
                    f"{base}-alpha",
                    r["alpha"],
                    "",
                    f"acceptance α, {label} ({r['accepted']}/{r['drafted']})",
                    r,
                    root,
                    computation="benchbook.experiments.speculative.analysis.alpha (pooled over repetitions)",
                )
            )
            if r["tau"] is not None:  # null: verify steps not recorded (τ unknown, not 1)
                nums.append(
                    _num(
                        f"{base}-tau",
                        r["tau"],
                        "tok/step",
                        f"tokens per verify step τ, {label}",
                        r,
                        root,
                        computation="benchbook.experiments.speculative.analysis.tau (pooled)",
                    )
                )
        if r["speedup_model"] is not None:
            nums.append(
                _num(
                    f"{base}-model",
                    r["speedup_model"],
                    "×",
                    f"cost-model speedup τ/(k·c+r(k+1)), {label}",
                    r,
                    root,
                    computation="benchbook.experiments.speculative.analysis.with_model",
                )
            )
    if cost:
        crow = {
            "lines": cost.lines,
            "files": cost.files,
            "run_ids": [],
            "argv": cost.argv[0] if cost.argv else [],
            "toolchain_id": table["toolchain_id"][0],
            "model_sha256": table["model_sha256"][0],
            "host_id": table["host_id"][0],
            "session_id": sid,
            "started_at": None,
            "ended_at": None,
            "caveats": [],
            **{k: table[k][0] for k in ("build", "build_number", "build_commit")},
        }
        n_rep = int(cost.n or 1)
        for did, c in cost.c.items():
            nums.append(
                _num(
                    make_key("spec-cost-c", did),
                    c,
                    "",
                    f"draft cost c of {did} (per token ÷ target decode step)",
                    crow,
                    root,
                    n=n_rep,
                    computation="benchbook.experiments.speculative.analysis.cost_model",
                )
            )
        for n, ratio in cost.r.items():
            nums.append(
                _num(
                    make_key("spec-cost-r", n),
                    ratio,
                    "",
                    f"r({n}): target {n}-token pass ÷ 1-token decode step",
                    crow,
                    root,
                    n=n_rep,
                    computation="benchbook.experiments.speculative.analysis.cost_model",
                )
            )
        nums.append(
            _num(
                "spec-cost-t1",
                cost.t1_ms,
                "ms",
                "target decode step (llama-bench tg)",
                crow,
                root,
                n=n_rep,
                computation="benchbook.experiments.speculative.analysis.cost_model",
            )
        )
    for m in mem.iter_rows(named=True) if not mem.is_empty() else []:
        sel = table.filter(
            (pl.col("spec_type") == m["spec_type"])
            & (pl.col("draft_model_id").eq_missing(m["draft_model_id"]))
        )
        mrow = {
            "lines": sorted(x for ls in sel["lines"] for x in ls),
            "files": sorted({f for fs in sel["files"] for f in fs}),
            "run_ids": [x for rs in sel["run_ids"] for x in rs],
            "argv": sel["argv"][0],
            "toolchain_id": sel["toolchain_id"][0],
            "model_sha256": sel["model_sha256"][0],
            "host_id": sel["host_id"][0],
            "session_id": sid,
            "started_at": sel["started_at"].min(),
            "ended_at": sel["ended_at"].max(),
            "caveats": [],
            **{k: sel[k][0] for k in ("build", "build_number", "build_commit")},
        }
        nums.append(
            _num(
                make_key("spec-mem-slope", m["spec_type"], m["draft_model_id"] or "none"),
                m["slope_mib_per_token"],
                "MiB/draft token",
                f"peak RSS slope over n_max ({m['spec_type']}, draft {m['draft_model_id']})",
                mrow,
                root,
                n=m["n_points"],
                ci=[m["ci_low"], m["ci_high"]],
                ci_method="student-t on the least-squares slope (n-2 df)",
                computation="benchbook.experiments.speculative.analysis.memory_slopes",
            )
        )
    publish(numbers_path, "speculative", nums)

    _charts(table, req, cost, out_dir)
    return SpeculativeReport(
        table=table,
        memory=mem,
        cost=cost,
        numbers=nums,
        session=sess,
        rule_status=status,
        missing_rules=missing,
        failures=n_fail,
    )


@dataclass
class SpeculativeReport:
    """What ``derive`` computed and wrote: the per-configuration ``table`` (with caveats), ``memory``
    slopes, the ``cost`` model (None without cost runs), the published ``numbers``, the ``session``
    reported (``session_id``, ``host_id``), each rule's ``rule_status``, ``missing_rules`` (asked for,
    not in ``caveats.RULES``) and ``failures`` (failed requests of the session)."""

    table: pl.DataFrame
    memory: pl.DataFrame
    cost: sp.CostModel | None
    numbers: list[Number]
    session: dict
    rule_status: dict[str, str]
    missing_rules: list[str]
    failures: int


def _charts(table: pl.DataFrame, req: pl.DataFrame, cost: sp.CostModel | None, out_dir: Path) -> None:
    spec = table.filter(pl.col("alpha").is_not_null() & pl.col("speedup_mean").is_not_null())
    pts = spec.select(
        "config_id",
        "prompt_id",
        "spec_type",
        "n_max",
        "n",
        "alpha",
        "tau",
        "speedup_mean",
        "speedup_ci_low",
        "speedup_ci_high",
        "speedup_model",
        "server_policy",
        "session_id",
        pl.col("caveats").list.join(", ").alias("caveat_ids"),
        (
            pl.col("run_ids").list.eval(pl.element().str.slice(0, 8)).list.join(" ")
            if "run_ids" in spec.columns
            else pl.lit("")
        ).alias("run_ids_short"),
    ).to_dicts()
    for pt in pts:  # the page's rounding rule (numfmt) for the tooltip, not raw floats
        ci = (pt["speedup_ci_low"], pt["speedup_ci_high"]) if pt["speedup_ci_low"] is not None else None
        pt["speedup_shown"] = fmt_interval(pt["speedup_mean"], ci)
    curves = []
    if cost:
        for did, c in cost.c.items():
            short_draft = did.replace("smollm2-135m-", "").split("-of-")[0]
            for k in sorted(
                {int(x) for x in spec.filter(pl.col("draft_model_id") == did)["n_max"].drop_nulls()}
            ):
                rk = sp.r_at(cost.r, k + 1)
                if rk is None:  # r(k+1) not measured: no model curve (with_model leaves it null too)
                    continue
                for a in np.linspace(0, 1, 41):
                    curves.append(
                        {
                            "alpha": float(a),
                            "model_speedup": sp.speedup_model(sp.tau_independent(a, k), k, c, rk),
                            # short: the legend names every curve (draft without the target's name)
                            "curve": f"k={k}, c={c:.2f} ({short_draft})",
                        }
                    )
    tips = [
        alt.Tooltip("config_id:N"),
        alt.Tooltip("prompt_id:N"),
        alt.Tooltip("spec_type:N"),
        alt.Tooltip("n_max:Q", format="d"),
        alt.Tooltip("alpha:Q", format=".3f"),
        alt.Tooltip("tau:Q", format=".2f"),
        alt.Tooltip("speedup_shown:N", title="speedup × [95% CI]"),
        alt.Tooltip("speedup_ci_low:Q", format=".3~g"),
        alt.Tooltip("speedup_ci_high:Q", format=".3~g"),
        alt.Tooltip("n:Q", format="d", title="n (requests)"),
        alt.Tooltip("speedup_model:Q", format=".3~g"),
        alt.Tooltip("server_policy:N"),
        alt.Tooltip("caveat_ids:N"),
        alt.Tooltip("session_id:N"),
        alt.Tooltip("run_ids_short:N", title="run ids"),
    ]
    p = alt.Chart(alt.Data(values=pts)).encode(
        x=alt.X("alpha:Q", title="acceptance α", scale=alt.Scale(domain=[0, 1]))
    )
    layers = [
        p.mark_rule(color="gray").encode(y="speedup_ci_low:Q", y2="speedup_ci_high:Q"),
        p.mark_point(filled=True, size=60).encode(
            y=alt.Y("speedup_mean:Q", title="decode speedup vs baseline"),
            # colour and shape on the same field: one legend, a distinct symbol per drafter
            color=alt.Color("spec_type:N", title="drafter"),
            shape=alt.Shape("spec_type:N", title="drafter"),
            tooltip=tips,
        ),
    ]
    if curves:
        layers.insert(
            0,
            alt.Chart(alt.Data(values=curves))
            .mark_line(color="#555", opacity=0.8)
            # each curve its own dash pattern, named in a legend ("labelled", not told apart by colour)
            .encode(
                x="alpha:Q",
                y="model_speedup:Q",
                strokeDash=alt.StrokeDash("curve:N", title="cost model", legend=alt.Legend(labelLimit=240)),
                tooltip=[alt.Tooltip("curve:N")],
            ),
        )
    one = alt.Chart(alt.Data(values=[{"y": 1.0}])).mark_rule(color="black").encode(y="y:Q")
    charts.save(
        alt.layer(*layers, one).properties(
            width=460,
            height=320,
            title="Speedup vs acceptance; lines: τ/(k·c + r(k+1)) with measured c and r",
        ),
        out_dir,
        "spec_speedup_alpha",
    )

    acc = (
        table.filter(pl.col("alpha").is_not_null())
        .select(
            "config_id",
            "prompt_id",
            "spec_type",
            "n_max",
            "n",
            "alpha",
            "accepted",
            "drafted",
            "server_policy",
        )
        .to_dicts()
    )
    bars = alt.Chart(alt.Data(values=acc)).encode(
        x=alt.X("alpha:Q", title="α = accepted ÷ drafted", scale=alt.Scale(domain=[0, 1.2])),
        y=alt.Y("config_id:N", title=None),
        yOffset="prompt_id:N",
    )
    # the prompt is named beside each bar, so the chart does not rely on colour alone
    labels = bars.mark_text(align="left", dx=3, fontSize=9, color="#222").encode(text="prompt_id:N")
    charts.save(
        alt.layer(
            bars.mark_bar().encode(
                color="prompt_id:N",
                tooltip=[
                    alt.Tooltip("config_id:N"),
                    alt.Tooltip("prompt_id:N"),
                    alt.Tooltip("spec_type:N"),
                    alt.Tooltip("n_max:Q", format="d"),
                    alt.Tooltip("alpha:Q", format=".3f"),
                    alt.Tooltip("accepted:Q", format=",d"),
                    alt.Tooltip("drafted:Q", format=",d"),
                    alt.Tooltip("n:Q", format="d", title="n (requests)"),
                    alt.Tooltip("server_policy:N"),
                ],
            ),
            labels,
        ).properties(width=480, title="Acceptance per prompt"),
        out_dir,
        "spec_acceptance",
    )

    m = (
        req.filter(pl.col("spec_type") != "none")
        .select(
            "config_id",
            "spec_type",
            "draft_model_id",
            "n_max",
            (pl.col("peak_rss_bytes") / 2**20).alias("peak_rss_mib"),
            "prompt_id",
            "rep",
            pl.len().over("config_id", "prompt_id").alias("n"),
        )
        .to_dicts()
    )
    charts.save(
        alt.Chart(alt.Data(values=m))
        .mark_point()
        .encode(
            x=alt.X("n_max:Q", title="n_max (draft tokens)"),
            y=alt.Y("peak_rss_mib:Q", title="peak RSS of llama-server (MiB)", scale=alt.Scale(zero=False)),
            color=alt.Color("spec_type:N", title="drafter"),
            shape=alt.Shape("spec_type:N", title="drafter"),
            tooltip=[
                alt.Tooltip("config_id:N"),
                alt.Tooltip("spec_type:N"),
                alt.Tooltip("draft_model_id:N"),
                alt.Tooltip("n_max:Q", format="d"),
                alt.Tooltip("prompt_id:N"),
                alt.Tooltip("rep:Q", format="d", title="repetition"),
                alt.Tooltip("n:Q", format="d", title="n (repetitions of this prompt)"),
                alt.Tooltip("peak_rss_mib:Q", format=",.1f", title="peak RSS (MiB, this request)"),
            ],
        )
        .properties(width=480, title="Memory vs n_max"),
        out_dir,
        "spec_memory",
    )


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> SpeculativeReport:
    """The stage ``speculative_report``: ``derive`` from ``raw_dir/speculative`` and ``raw_dir/snapshots``
    into ``reports_dir/speculative/`` and ``reports_dir/numbers/speculative.json``, with
    ``params["report"]``'s thresholds and confidence; the latest completed session.  ``raw_dir`` and
    ``reports_dir`` relative to ``root`` unless absolute.  Returns ``derive``'s report."""
    root = Path(root)
    raw, rep = root / raw_dir, root / reports_dir
    return derive(
        raw / "speculative",
        raw / "snapshots",
        rep / "speculative",
        rep / "numbers" / "speculative.json",
        thresholds=params["report"],
        confidence=params["report"]["confidence"],
        root=root,
    )

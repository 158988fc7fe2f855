"""Draft-self report: the analysis tables -> charts, caveats and the numbers registry (stage
``draftself_report``).  Definitions of τ, α̂, r(n) and the speedups are in ``analysis``.
Entry point: ``build(params, root=, raw_dir=, reports_dir=)`` (see ``benchbook.experiments``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import altair as alt
import polars as pl

from benchbook import atomicfile, blocks, caveats, charts, measured
from benchbook.costmodel import tau_independent
from benchbook.experiments import drift, reporting
from benchbook.hosts import hosts_panel
from benchbook.numbers import (
    NO_INTERVAL_MODEL_GAP,
    NO_INTERVAL_PASSES,
    NO_INTERVAL_POOLED_RUNS,
    Number,
    Unit,
    line_ranges,
    make_key,
)
from benchbook.numfmt import fmt_interval, fmt_value
from benchbook.provenance import read_snapshots

from . import sessioncheck
from .analysis import (
    acceptance,
    break_even,
    caveat_table,
    decode_rates,
    experts_by_pass,
    load_runs,
    pass_costs,
    pooled_alpha,
    speedup,
    steady_state,
)
from .outputs import session_outputs_md
from .statements import best_sentence, equality_sentence, per_prompt_markdown

#: ``ci_method`` of a cost-model speedup: a prediction from the configuration's mean pass costs
NO_INTERVAL_MODEL = (
    "none: a cost-model prediction from the configuration's mean pass costs, not a mean of replicates"
)


def run_ids_text(ids: list[str], limit: int = 6) -> str:
    """Run ids for a tooltip: the first 8 characters of each (``limit`` at most, then how many more).

    >>> run_ids_text(["a" * 32, "b" * 32]), run_ids_text(["abcdefghij"] * 3, limit=1)
    ('aaaaaaaa bbbbbbbb', 'abcdefgh … (+2 more)')
    """
    shown = " ".join(i[:8] for i in ids[:limit])
    return shown + (f" … (+{len(ids) - limit} more)" if len(ids) > limit else "")


#: The tooltip's interval field of a value published without one (pooled over runs).
NO_INTERVAL = "none (pooled over runs)"


def tau_points(b: pl.DataFrame) -> list[dict]:
    """The τ chart's points (one per configuration and prompt class of ``acceptance``'s table ``b``), with
    the tooltip fields: τ and α̂ rounded by ``numfmt`` (three significant digits: no interval), the runs."""
    rows = b.select(
        "config_name", "prompt_class", "k", "verify", "draft", "tau", "alpha_mle", "runs", "run_ids"
    ).to_dicts()
    for row in rows:
        row["tau_shown"] = fmt_value(float(row["tau"]))
        row["alpha_shown"] = fmt_value(float(row["alpha_mle"]))
        row["interval"] = NO_INTERVAL
        row["run_ids_short"] = run_ids_text(row.pop("run_ids"))
    return rows


def speedup_points(sp: pl.DataFrame) -> list[dict]:
    """The speedup chart's points (one-pass draft, no coreset), with the tooltip fields: the speedup and
    its 95% interval and the cost-model prediction rounded by ``numfmt``, the draft-self and AR run ids."""
    rows = (
        sp.filter(pl.col("coreset_mass").is_null() & (pl.col("draft") == "one_pass"))
        .select(
            "config_name",
            "k",
            "verify",
            "prompt_class",
            "speedup",
            "ci_low",
            "ci_high",
            "predicted",
            "n",
            "run_ids",
            "ar_run_ids",
        )
        .to_dicts()
    )
    for row in rows:  # the page's rounding rule (numfmt) in the tooltip
        ci = (row["ci_low"], row["ci_high"]) if row["ci_low"] is not None else None
        row["speedup_shown"] = fmt_interval(row["speedup"], ci)
        row["predicted_shown"] = fmt_value(float(row["predicted"]))
        ar = list(dict.fromkeys(row.pop("ar_run_ids")))
        row["run_ids_short"] = run_ids_text(row.pop("run_ids"), 3) + "; AR " + run_ids_text(ar, 3)
    return rows


def experts_points(ex: pl.DataFrame) -> list[dict]:
    """The experts chart's points (``experts_by_pass``), with the tooltip fields rounded by ``numfmt``."""
    rows = ex.to_dicts()
    for row in rows:
        row["unique_shown"] = fmt_value(float(row["unique_experts"]))
        row["bound_shown"] = fmt_value(float(row["bound"]))
        row["interval"] = "none (pooled over passes)"
        row["run_ids_short"] = run_ids_text(row.pop("run_ids", None) or [])
    return rows


def chart_tau(acc: pl.DataFrame) -> alt.Chart:
    b = acc.filter(
        (pl.col("verify") == "batched") & (pl.col("draft") == "one_pass") & pl.col("coreset_mass").is_null()
    )
    curve = []
    for cls, g in b.group_by("prompt_class"):
        a = pooled_alpha(g)
        curve += [
            {"prompt_class": cls[0], "k": k, "tau": tau_independent(a, k), "alpha": a} for k in range(1, 16)
        ]
    pts = (
        alt.Chart(alt.Data(values=tau_points(b)))
        .mark_point(size=70, filled=True)
        .encode(
            x=alt.X("k:Q", title="drafted tokens per block (k)"),
            y=alt.Y("tau:Q", title="τ: tokens committed per verify step"),
            color="prompt_class:N",
            shape="prompt_class:N",  # a symbol per prompt class as well as a colour
            tooltip=[
                alt.Tooltip("config_name:N", title="configuration"),
                alt.Tooltip("prompt_class:N"),
                alt.Tooltip("k:Q", format="d"),
                alt.Tooltip("verify:N"),
                alt.Tooltip("draft:N"),
                alt.Tooltip("tau_shown:N", title="τ (tok/verify step)"),
                alt.Tooltip("interval:N", title="95% interval"),
                alt.Tooltip("alpha_shown:N", title="α̂ (MLE)"),
                alt.Tooltip("runs:Q", format="d", title="n (runs)"),
                alt.Tooltip("run_ids_short:N", title="run ids"),
            ],
        )
    )
    line = (
        alt.Chart(alt.Data(values=curve))
        .mark_line(strokeDash=[4, 3])
        .encode(
            x="k:Q",
            y="tau:Q",
            color="prompt_class:N",
            tooltip=[alt.Tooltip("prompt_class:N"), alt.Tooltip("alpha:Q", format=".3~g", title="pooled α̂")],
        )
    )
    return (line + pts).properties(
        title="τ against k; dashed: (1−α^(k+1))/(1−α) with pooled α̂", width=420, height=260
    )


def chart_speedup(sp: pl.DataFrame) -> alt.Chart:
    d = speedup_points(sp)
    base = alt.Chart(alt.Data(values=d)).encode(
        x=alt.X("k:Q", title="k"), color="prompt_class:N", strokeDash="verify:N"
    )
    meas = base.mark_line(point=True).encode(
        y=alt.Y("speedup:Q", title="decode speedup vs AR (×)"),
        shape="prompt_class:N",
        tooltip=[
            alt.Tooltip("config_name:N", title="configuration"),
            alt.Tooltip("prompt_class:N"),
            alt.Tooltip("k:Q", format="d"),
            alt.Tooltip("verify:N"),
            alt.Tooltip("speedup_shown:N", title="speedup × [95% CI]"),
            alt.Tooltip("n:Q", format="d", title="n (prompts)"),
            alt.Tooltip("predicted_shown:N", title="cost-model prediction (×)"),
            alt.Tooltip("run_ids_short:N", title="run ids (draft-self, then AR)"),
        ],
    )
    err = base.mark_errorbar().encode(y=alt.Y("ci_low:Q", title="decode speedup vs AR (×)"), y2="ci_high:Q")
    pred = base.mark_point(shape="cross", size=60).encode(y="predicted:Q")
    one = alt.Chart(alt.Data(values=[{"y": 1}])).mark_rule(color="gray").encode(y="y:Q")
    return (one + err + meas + pred).properties(
        title="measured speedup (95% CI) and cost-model prediction (crosses)", width=420, height=260
    )


def chart_experts(ex: pl.DataFrame) -> alt.Chart:
    d = experts_points(ex)
    pts = (
        alt.Chart(alt.Data(values=d))
        .mark_point(filled=True, size=70)
        .encode(
            x=alt.X("n_tokens:Q", title="tokens in the pass"),
            y=alt.Y("unique_experts:Q", title="distinct routed experts per layer"),
            color="kind:N",
            shape="kind:N",
            tooltip=[
                alt.Tooltip("kind:N", title="pass kind"),
                alt.Tooltip("n_tokens:Q", format="d", title="tokens in the pass"),
                alt.Tooltip("unique_shown:N", title="distinct experts per layer"),
                alt.Tooltip("interval:N", title="95% interval"),
                alt.Tooltip("bound_shown:N", title="E·(1−(1−K/E)^n)"),
                alt.Tooltip("passes:Q", format=",d", title="n (passes)"),
                alt.Tooltip("run_ids_short:N", title="run ids"),
            ],
        )
    )
    line = (
        alt.Chart(alt.Data(values=d))
        .mark_line(color="gray", strokeDash=[4, 3])
        .encode(x="n_tokens:Q", y="bound:Q")
    )
    return (line + pts).properties(
        title="distinct experts per pass; dashed: E·(1−(1−K/E)^n)", width=420, height=260
    )


def save_charts(acc, sp, ex, out_dir) -> dict:
    out = {
        "tau_vs_k": charts.save(chart_tau(acc), out_dir, "tau_vs_k"),
        "speedup_vs_k": charts.save(chart_speedup(sp), out_dir, "speedup_vs_k"),
    }
    if len(ex):
        out["experts_vs_bound"] = charts.save(chart_experts(ex), out_dir, "experts_vs_bound")
    return out


# ---------------------------------------------------------------- numbers


def cite(runs: pl.DataFrame, run_ids) -> dict:
    """``{"sources", "run_ids"}`` of a number that read exactly the runs ``run_ids`` of ``runs``
    (``analysis.load_runs``'s table: ``_file``/``_line`` per run)."""
    wanted = set(run_ids)
    rows = runs.filter(pl.col("run_id").is_in(list(wanted))).select("_file", "_line", "run_id")
    by_file: dict[str, list[int]] = {}
    for f, line, _ in rows.iter_rows():
        by_file.setdefault(f, []).append(line)
    return {
        "sources": [{"file": f, "lines": line_ranges(ls)} for f, ls in sorted(by_file.items())],
        "run_ids": sorted(rows["run_id"].to_list()),
    }


def runs_with_passes(runs: pl.DataFrame, passes: list[tuple[str, int]]) -> list[str]:
    """Run ids whose pass list holds a pass of one of ``passes`` ((kind, n_tokens)): the runs a mean
    pass cost (``analysis.pass_costs``) read."""
    want = pl.DataFrame({"pass_kind": [k for k, _ in passes], "pass_n": [n for _, n in passes]})
    hit = (
        runs.select("run_id", "pass_kind", "pass_n")
        .explode("pass_kind", "pass_n")
        .join(want, on=["pass_kind", "pass_n"], how="semi")
    )
    return hit["run_id"].unique().to_list()


def numbers(
    acc,
    sp,
    be,
    ex,
    c1,
    sess,
    manifest: dict,
    manifest_path: str,
    by_config: dict[str, list[str]],
    runs: pl.DataFrame | None = None,
) -> list[Number]:
    """The published numbers (keys from configuration only).  ``by_config``: the caveat ids of each
    configuration (``session_caveats``); a number over every configuration takes their union.

    Each number cites exactly the runs its computation read (``runs``: the session's run table): a
    speedup its draft-self runs and the AR runs it is divided by; the cost-model speedup also the runs
    whose passes gave the mean pass costs; break-even τ the runs with (k+1)-token draft and verify
    passes and the 1-token decode passes (AR runs); the decode-pass cost the runs with 1-token decode
    passes; training numbers the manifest line and its host."""
    every = [r for r in caveats.RULES if any(r in c for c in by_config.values())]
    build = {"build": sess["runtime"] or "unknown runtime", "toolchain_id": sess["toolchain_id"]}
    common = {
        "model_sha256": manifest.get("sha256"),
        "host_id": sess["host_id"],
        "session_id": sess["session_id"],
        "measured_from": sess["started_at"],
        "measured_to": sess["ended_at"],
        "commands": [["dvc", "repro", "draftself"]],
        **build,
    }
    out = []
    for r in acc.iter_rows(named=True):
        cav = by_config[r["config_name"]]
        base = make_key("draftself", r["config_name"], r["prompt_class"])
        src = {"sources": [{"file": r["file"], "lines": line_ranges(r["lines"])}], "run_ids": r["run_ids"]}
        if r["expert_loads_per_token"] is not None and not math.isnan(r["expert_loads_per_token"]):
            out.append(
                Number(
                    key=base + "-expert_loads_per_token",
                    value=round(r["expert_loads_per_token"], 2),
                    unit=Unit.EXPERT_LOADS_PER_TOKEN,
                    n=r["runs"],
                    ci_method=NO_INTERVAL_POOLED_RUNS,
                    label=f"distinct experts per pass summed over layers and passes, per generated token, "
                    f"{r['config_name']}, {r['prompt_class']}",
                    computation="draftself.experts.expert_loads",
                    caveats=cav,
                    **src,
                    **common,
                )
            )
        if r["decoder"] != "draftself":
            continue
        for suffix, col, unit, what, tail in (
            ("tau", "tau", Unit.TAU, "τ", " prompts"),
            ("tokens_per_pass", "tokens_per_pass", Unit.TOKENS_PER_PASS, "tokens per forward pass", ""),
            ("alpha", "alpha_mle", Unit.FRACTION, "α̂ (MLE)", ""),
            ("equals_ar", "equals_ar_rate", Unit.FRACTION, "output equal to AR greedy", ""),
        ):
            out.append(
                Number(
                    key=f"{base}-{suffix}",
                    value=round(r[col], 3),
                    unit=unit,
                    label=f"{what}, {r['config_name']}, {r['prompt_class']}{tail}",
                    n=r["runs"],
                    ci_method=NO_INTERVAL_POOLED_RUNS,
                    computation="experiments.draftself.analysis.acceptance",
                    caveats=cav,
                    **src,
                    **common,
                )
            )
    for r in sp.iter_rows(named=True):
        cav = by_config[r["config_name"]]
        base = make_key("draftself", r["config_name"], r["prompt_class"])
        pair_ids = [*r["run_ids"], *r.get("ar_run_ids", [])]
        if runs is not None:
            src = cite(runs, pair_ids)
            model_ids = set(pair_ids)
            used = runs.filter(pl.col("run_id").is_in(list(model_ids))).select("pass_kind", "pass_n")
            kinds = {
                (k, n) for ks, ns in used.iter_rows() for k, n in zip(ks, ns, strict=True) if k != "prefill"
            }
            model_src = cite(runs, [*pair_ids, *runs_with_passes(runs, sorted(kinds))])
        else:
            src = {
                "sources": [{"file": r["file"], "lines": line_ranges(r["lines"])}],
                "run_ids": r["run_ids"],
            }
            model_src = src
        ci = [round(r["ci_low"], 3), round(r["ci_high"], 3)] if r["ci_low"] is not None else None
        out.append(
            Number(
                key=base + "-speedup",
                value=round(r["speedup"], 3),
                unit=Unit.SPEEDUP,
                n=r["n"],
                ci95=ci,
                ci_method="Student-t over prompts of the per-prompt mean log(AR time / draft-self time) "
                "(the repetitions of one prompt time one deterministic output and are averaged first)",
                replication=r.get("replication") or "prompts",
                label=f"measured decode speedup vs AR, {r['config_name']}, {r['prompt_class']} "
                f"({r['n']} prompts, {r.get('n_timings', r['n'])} paired timings)",
                computation="experiments.draftself.analysis.speedup",
                caveats=cav,
                **src,
                **common,
            )
        )
        out.append(
            Number(
                key=base + "-predicted_speedup",
                value=round(r["predicted"], 3),
                unit=Unit.SPEEDUP,
                n=r["n"],
                ci_method=NO_INTERVAL_MODEL,
                label=f"cost-model speedup, {r['config_name']}, {r['prompt_class']}",
                computation="experiments.draftself.analysis.speedup (mean pass costs)",
                caveats=cav,
                **model_src,
                **common,
            )
        )
        if r.get("steady") is not None:
            out.append(
                Number(
                    key=base + "-steady_speedup",
                    value=round(r["steady"], 3),
                    unit=Unit.SPEEDUP,
                    n=r["n"],
                    ci_method=NO_INTERVAL_MODEL,
                    label=f"steady-state cost-model speedup τ/(r_draft+r_verify), {r['config_name']}, "
                    f"{r['prompt_class']}",
                    computation="experiments.draftself.analysis.steady_state",
                    caveats=cav,
                    **model_src,
                    **common,
                )
            )
        out.append(
            Number(
                key=base + "-model_gap",
                value=round(100 * r["gap"], 1),
                unit=Unit.PERCENT,
                n=r["n"],
                label=f"measured ÷ predicted − 1 paired per prompt, {r['config_name']}, {r['prompt_class']}",
                ci_method=NO_INTERVAL_MODEL_GAP,
                computation="experiments.draftself.analysis.paired_gap",
                caveats=cav,
                **model_src,
                **common,
            )
        )
    all_runs: dict[str, Any] = {  # Number(**all_runs): its sources
        "sources": [
            {"file": f, "lines": line_ranges(ls)}
            for f, ls in sp.explode("lines").group_by("file").agg(pl.col("lines")).iter_rows()
        ]
    }

    def passes_src(passes: list[tuple[str, int]]) -> dict:
        """Sources and caveats of a number over the runs holding ``passes`` (its caveats: those of
        the configurations it read)."""
        if runs is None:
            return {**all_runs, "caveats": every}
        ids = runs_with_passes(runs, passes)
        names = set(runs.filter(pl.col("run_id").is_in(ids))["config_name"].to_list())
        cav = [c for c in caveats.RULES if any(c in by_config.get(name, []) for name in names)]
        return {**cite(runs, ids), "caveats": cav}

    for r in be.iter_rows(named=True):
        out.append(
            Number(
                key=make_key("draftself", "break_even_tau", "k", r["k"]),
                value=round(r["tau_break_even"], 3),
                unit=Unit.TAU,
                n=1,
                label=f"break-even τ at k={r['k']} (r_draft + r_verify of a {r['k'] + 1}-token pass)",
                computation="experiments.draftself.analysis.break_even",
                **passes_src([("draft", r["k"] + 1), ("verify", r["k"] + 1), ("decode", 1)]),
                **common,
            )
        )
    out.append(
        Number(
            key="draftself-decode_pass_ms",
            value=round(c1 / 1e6, 4),
            unit=Unit.MS,
            n=1,
            label="mean 1-token decode pass",
            computation="experiments.draftself.analysis.pass_costs",
            **passes_src([("decode", 1)]),
            **common,
        )
    )

    def experts_src(kind: str, n_tokens: int) -> dict:
        """Sources and caveats of an experts number: the runs ``analysis.experts_by_pass`` read for a
        ``kind`` pass of ``n_tokens`` tokens (no coreset, first timed repetition)."""
        if runs is None:
            return {**all_runs, "caveats": every}
        read = runs.filter(pl.col("coreset_mass").is_null() & (pl.col("rep") == pl.col("rep").min()))
        hit = (
            read.select("run_id", "config_name", "ux_kind", "ux_n")
            .explode("ux_kind", "ux_n")
            .filter((pl.col("ux_kind") == kind) & (pl.col("ux_n") == n_tokens))
        )
        names = set(hit["config_name"].to_list())
        cav = [c for c in caveats.RULES if any(c in by_config.get(name, []) for name in names)]
        return {**cite(runs, hit["run_id"].unique().to_list()), "caveats": cav}

    for r in ex.iter_rows(named=True) if len(ex) else []:
        if r["kind"] in ("draft", "verify") and r["n_tokens"] in (9,):
            k = make_key("draftself", "unique_experts", r["kind"], "n", r["n_tokens"])
            out.append(
                Number(
                    key=k,
                    value=round(r["unique_experts"], 2),
                    unit=Unit.EXPERTS_PER_LAYER,
                    n=int(r["passes"]),
                    ci_method=NO_INTERVAL_PASSES,
                    label=f"distinct experts per layer, {r['kind']} pass of {r['n_tokens']} tokens",
                    computation="experiments.draftself.analysis.experts_by_pass",
                    **experts_src(r["kind"], r["n_tokens"]),
                    **common,
                )
            )
            out.append(
                Number(
                    key=k + "-bound",
                    value=round(r["bound"], 2),
                    unit=Unit.EXPERTS_PER_LAYER,
                    n=1,
                    label=f"independent-routing bound for {r['n_tokens']} tokens (E={r['E']}, K={r['K']})",
                    computation="draftself.experts.independent_bound",
                    **{k: v for k, v in experts_src(r["kind"], r["n_tokens"]).items() if k != "caveats"},
                    **common,
                )
            )
    mlines = Path(manifest_path).read_text().splitlines()

    def msrc(field):  # the manifest line holding ``field``
        hit = [i + 1 for i, ln in enumerate(mlines) if ln.strip().startswith(f'"{field}":')]
        return {
            "sources": [{"file": manifest_path, "lines": [[hit[-1], hit[-1]]] if hit else [[1, len(mlines)]]}]
        }

    for key, val, unit, label in [
        ("train_seconds", manifest.get("train_seconds"), Unit.S, "training time"),
        ("final_loss_next", manifest.get("final_loss_next"), Unit.NATS, "final next-token loss"),
        ("final_loss_masked", manifest.get("final_loss_masked"), Unit.NATS, "final masked-slot loss"),
        ("n_params", manifest.get("n_params"), Unit.PARAMETERS, "model parameters"),
    ]:
        if val is not None:
            out.append(
                Number(
                    key=make_key("draftself", "train", key),
                    value=val,
                    unit=unit,
                    n=1,
                    label=label,
                    computation="draftself.train",
                    # the stage that trained the checkpoint and wrote its manifest (no run id: the
                    # manifest is one record of one training, not a run of a session)
                    commands=[["dvc", "repro", "draftself_train"]],
                    model_sha256=manifest.get("sha256"),
                    build=f"torch {manifest.get('torch_version') or 'unknown'}",
                    caveats=["synthetic_inputs"],
                    host_id=manifest.get("host_id"),
                    measured_to=manifest.get("written_at"),
                    **msrc(key),
                )
            )
    return out


def rate_numbers(
    rates: pl.DataFrame, sess: dict, manifest: dict, by_config: dict[str, list[str]], runs: pl.DataFrame
) -> list[Number]:
    """``draftself-<config>-<class>-decode_tps``: the decode rate of every configuration, AR included
    (``analysis.decode_rates``), so that a speedup is shown beside both of its sides.  Each cites exactly
    its runs; interval log-scale Student-t over prompts (none below 3 prompts); caveats those of its
    configuration (``by_config``)."""
    out = []
    for r in rates.iter_rows(named=True):
        ci = [round(r["ci_low"], 3), round(r["ci_high"], 3)] if r["ci_low"] is not None else None
        out.append(
            Number(
                key=make_key("draftself", r["config_name"], r["prompt_class"]) + "-decode_tps",
                value=round(r["decode_tps"], 3),
                unit=Unit.TOK_S,
                n=r["n"],
                sd=None if r["sd"] is None else round(r["sd"], 3),
                ci95=ci,
                ci_method="Student-t on the log scale over prompts of the per-prompt mean decode rate (mean "
                "of its repetitions' rates)"
                if ci
                else "none: n < 3",
                replication="prompts",
                label=f"decode rate (generated tokens after the first ÷ decode time), {r['config_name']}, "
                f"{r['prompt_class']} ({r['n']} prompts, {r['n_timings']} runs)",
                computation="experiments.draftself.analysis.decode_rates",
                caveats=by_config[r["config_name"]],
                **cite(runs, r["run_ids"]),
                model_sha256=manifest.get("sha256"),
                host_id=sess["host_id"],
                session_id=sess["session_id"],
                measured_from=sess["started_at"],
                measured_to=sess["ended_at"],
                commands=[["dvc", "repro", "draftself"]],
                build=sess["runtime"] or "unknown runtime",
                toolchain_id=sess["toolchain_id"],
            )
        )
    return out


def session_caveats(
    runs: pl.DataFrame, sess: dict, thresholds: dict | None = None, host: dict | None = None
) -> tuple[pl.DataFrame, dict[str, list[str]]]:
    """Caveats of each configuration from the shared engine (``caveats.evaluate``, table kind
    ``draftself``) with ``params.yaml`` ``report`` thresholds and the measured host's snapshot
    (``caveats.host_thresholds``: its core count):
    synthetic_inputs always; single_run below ``min_n`` repetitions; busy_host when another process
    used more than ``busy_other_cpu_pct`` CPU over a run (or, for runs recorded without that, the
    1-minute load exceeded ``busy_load_per_core`` × cores).  Returns ``(table, {config: ids})``."""
    known = caveats.host_thresholds(thresholds, host)
    table = caveat_table(runs, sess["params"].get("repetitions", 0))
    table, _ = caveats.evaluate(table, "draftself", known, RULES)
    return table, dict(zip(table["config_name"].to_list(), table["caveats"].to_list(), strict=True))


#: float columns of the analysis tables that may be null or NaN (no interval, no coreset, no verify)
_MAY_BE_EMPTY = ("steady", "coreset_mass", "ci_low", "ci_high", "tau", "alpha_mle", "alpha_accept_rate")


def check_publishable(acc: pl.DataFrame, sp: pl.DataFrame, be: pl.DataFrame, nums: list[Number]) -> None:
    """The report's checks, run before the registry is written: numbers exist; the acceptance, speedup
    and break-even tables are non-empty with no NaN or null in a float column outside ``_MAY_BE_EMPTY``;
    every draft-self τ is a number.

    Raises:
        RuntimeError: naming the table and column (nothing was published).
    """
    if not nums:
        raise RuntimeError("draftself: no numbers to publish")
    for name, df in (("acceptance", acc), ("speedup", sp), ("break_even", be)):
        if df.height == 0:
            raise RuntimeError(f"draftself: the {name} table is empty")
        for c in df.columns:
            if df[c].dtype in (pl.Float64, pl.Float32) and c not in _MAY_BE_EMPTY:
                if df[c].is_nan().any() or df[c].null_count():
                    raise RuntimeError(f"draftself: {name}.{c} holds NaN or null")
    if acc.filter(pl.col("decoder") == "draftself")["tau"].is_nan().sum():
        raise RuntimeError("draftself: a draft-self τ is NaN")


#: the caveat rules of a draft-self configuration (``session_caveats``)
RULES = ["synthetic_inputs", "single_run", "output_mismatch", "busy_host"]


@dataclass
class Tables:
    """The analysis tables of the published session (``tables``): its ``runs`` and ``session``, the
    checkpoint ``manifest`` (and its path), ``acc`` (``acceptance``), ``costs`` and ``c1`` (``pass_costs``),
    ``be`` (``break_even``), ``sp`` (``speedup`` with ``steady``), ``ex`` (``experts_by_pass``), ``st``
    (``steady_state``) and ``caveats`` (one row per configuration, judged: ``session_caveats``)."""

    runs: pl.DataFrame
    session: dict
    manifest: dict
    manifest_path: str
    acc: pl.DataFrame
    costs: pl.DataFrame
    c1: float
    be: pl.DataFrame
    sp: pl.DataFrame
    ex: pl.DataFrame
    st: pl.DataFrame
    caveats: pl.DataFrame = field(default_factory=pl.DataFrame)


def tables(inputs: reporting.Inputs, manifest_path: Path, session: str | None = "latest") -> Tables:
    """The analysis tables of the session the pipeline selected (``draftself`` policy; ``session``: an
    id to report instead), and its configurations' caveats, each judged with the ``params.yaml``
    ``report`` thresholds and the measured host's snapshot (``inputs.judge``, table kind ``draftself``,
    ``RULES``: synthetic_inputs always; single_run below ``min_n`` repetitions; output_mismatch;
    busy_host)."""
    sid = inputs.session_ids()[0] if session in (None, "latest") else session
    runs, sess = load_runs(inputs.where.folder, sid, inputs.primary_host)
    acc = acceptance(runs)
    costs, c1 = pass_costs(runs)
    ks = sorted(set(runs.filter(pl.col("verify") == "batched")["k"].to_list()))
    be = break_even(costs, ks)
    sp = speedup(runs, costs)
    st = steady_state(acc, be, costs)
    sp = sp.join(
        st.select("config_name", "prompt_class", "steady"), on=["config_name", "prompt_class"], how="left"
    )
    table = caveat_table(runs, sess["params"].get("repetitions", 0)).with_columns(
        pl.lit(sess["host_id"]).alias("host_id")
    )
    judged = inputs.judge(table, "draftself", RULES).drop("host_id")
    manifest = json.loads(Path(manifest_path).read_text())
    return Tables(
        runs, sess, manifest, str(manifest_path), acc, costs, c1, be, sp, experts_by_pass(runs), st, judged
    )


def table_numbers(_inputs: reporting.Inputs, t: Tables) -> list[Number]:
    """The published numbers (``numbers``, ``rate_numbers``), checked (``check_publishable``)."""
    by_config = dict(zip(t.caveats["config_name"].to_list(), t.caveats["caveats"].to_list(), strict=True))
    nums = numbers(t.acc, t.sp, t.be, t.ex, t.c1, t.session, t.manifest, t.manifest_path, by_config, t.runs)
    nums += rate_numbers(decode_rates(t.runs), t.session, t.manifest, by_config, t.runs)
    check_publishable(
        t.acc, t.sp, t.be, nums
    )  # before the registry is written: a failing check leaves the old one
    return nums


#: what draft-self on the CPU plugs into the one report pipeline (``reporting.publish_report``); its
#: sessions checked as the draft-self layout (``sessioncheck``); its checkpoint manifest
#: ``data/draftself/checkpoint.json`` (``derive`` names its own)
REPORT = reporting.Report(
    "draftself",
    table=lambda inputs: tables(inputs, inputs.where.raw.parent / "draftself" / "checkpoint.json"),
    numbers=table_numbers,
    # the default unit of replication; the speedups (over prompts) state their own
    replication="prompts × repetitions (draft-self runs)",
    check=lambda folder: sessioncheck.check(folder, "draftself"),
    fix="`dvc repro -f -s draftself`",
)


def derive(
    raw_dir,
    manifest_path,
    out_dir,
    numbers_path,
    session: str | None = "latest",
    thresholds: dict | None = None,
    snapshots_dir: Path | None = None,
    root: Path | None = None,
    params: dict | None = None,
) -> DraftselfReport:
    """Everything the report notebook shows; writes tables (JSON), charts and the numbers registry.
    ``thresholds``: ``params.yaml`` ``report`` (caveat thresholds); ``snapshots_dir``: the shared
    snapshot store (default ``raw_dir/../snapshots``), for the measured host's core count.  The session is
    ``thresholds["primary_host"]``'s newest (``load_runs``); ``out_dir/hosts.md``: every host's newest
    complete session side by side (``hosts.hosts_panel``).  ``root``: the repository the registry names
    its cited files relative to (default: the one holding the working directory).  With ``params`` (the
    whole params.yaml), ``skipped.md`` also says whether the session ran other parameters than
    params.yaml asks now (``drift.of_sessions``; sessions from before the shared start record: not known)."""
    raw = Path(raw_dir)
    where = reporting.Where(
        raw,
        Path(snapshots_dir) if snapshots_dir else raw.parent / "snapshots",
        Path(out_dir),
        Path(numbers_path),
        root,
        legacy_hosts=(raw / "hosts.jsonl",),
    )
    spec = dataclasses.replace(
        REPORT, table=functools.partial(tables, manifest_path=Path(manifest_path), session=session)
    )
    done = reporting.publish_report(spec, params, where, thresholds or {})
    t, nums, picked = done.table, done.numbers, done.inputs.selection
    chosen, skipped = picked.chosen, picked.skipped
    runs, sess, manifest = t.runs, t.session, t.manifest
    acc, costs, c1, be, sp, ex, st = t.acc, t.costs, t.c1, t.be, t.sp, t.ex, t.st
    cav_table = t.caveats
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    drifted = (
        drift.of_sessions(
            "draftself",
            raw_dir,
            {sess["session_id"]: chosen.host_id if chosen else None},
            params,
            read_snapshots(where.snapshots, "host"),
        )
        if params is not None
        else {}
    )
    atomicfile.write_text(
        (Path(out_dir) / "skipped.md"),
        measured.skipped_markdown(
            skipped,
            root,
            drift=drifted,
            published=picked.published,
            primary_host=(thresholds or {}).get("primary_host"),
        ),
    )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, df in {
        "acceptance": acc,
        "pass_costs": costs,
        "break_even": be,
        "speedup": sp,
        "experts": ex,
    }.items():
        atomicfile.write_text(
            out / f"{name}.json",
            json.dumps(
                df.drop(
                    [c for c in ("lines", "run_ids", "ar_lines", "ar_run_ids") if c in df.columns]
                ).to_dicts(),
                indent=1,
                default=str,
            ),
        )
    chart_paths = save_charts(acc, sp, experts_by_pass(runs, with_run_ids=True), out)
    atomicfile.write_text(
        out / "hosts.md", hosts_panel(Path(raw_dir).parent, "draftself", sess["session_id"])
    )
    # sentences that characterise numbers, generated from the records (included by draftself.qmd)
    atomicfile.write_text(out / "equality.md", equality_sentence(runs) + "\n")
    atomicfile.write_text(
        out / "best.md",
        best_sentence(
            sp, runs, lambda r: make_key("draftself", r["config_name"], r["prompt_class"]) + "-speedup"
        )
        + "\n",
    )
    atomicfile.write_text(out / "per_prompt.md", per_prompt_markdown(sp))
    atomicfile.write_text(out / "outputs.md", session_outputs_md(Path(sess["runs_file"]), sess["session_id"]))
    return DraftselfReport(
        runs=runs,
        session=sess,
        acceptance=acc,
        pass_costs=costs,
        c1_ns=c1,
        break_even=be,
        speedup=sp,
        steady_state=st,
        experts=ex,
        caveats=cav_table,
        charts=chart_paths,
        numbers=nums,
        manifest=manifest,
    )


@dataclass
class DraftselfReport:
    """What ``derive`` computed and wrote: the session's ``runs`` and the analysis tables (module
    ``analysis``), ``c1_ns`` (mean 1-token decode pass), ``caveats`` (one row per configuration, from
    the shared engine), the ``charts`` written, the published ``numbers``, the ``session`` reported
    and the checkpoint ``manifest``."""

    runs: pl.DataFrame
    session: dict
    acceptance: pl.DataFrame
    pass_costs: pl.DataFrame
    c1_ns: float
    break_even: pl.DataFrame
    speedup: pl.DataFrame
    steady_state: pl.DataFrame
    experts: pl.DataFrame
    caveats: pl.DataFrame
    charts: dict
    numbers: list[Number]
    manifest: dict


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> DraftselfReport:
    """The stage ``draftself_report``: ``derive`` for the latest completed session under
    ``raw_dir/draftself`` with the checkpoint manifest ``root/data/draftself/checkpoint.json``, into
    ``reports_dir/draftself/`` and ``reports_dir/numbers/draftself.json``, with ``params["report"]``'s
    caveat thresholds.  Returns ``derive``'s report."""
    root = Path(root)
    return derive(
        root / raw_dir / "draftself",
        root / "data" / "draftself" / "checkpoint.json",
        root / reports_dir / "draftself",
        root / reports_dir / "numbers" / "draftself.json",
        "latest",
        thresholds=(params or {}).get("report"),
        snapshots_dir=root / raw_dir / "snapshots",
        root=root,
        params=params,
    )


def sections(res: DraftselfReport, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment draftself``, through
    ``blocks.show``): the session and its caveats, the training, τ and α̂, pass costs and break-even τ,
    the speedups, the experts per pass, the coreset sweep, every published number, then the checks
    (``AssertionError`` on a failed one)."""
    from benchbook.numtable import frame_table, numbers_table

    def table(frame: pl.DataFrame) -> blocks.Markdown:
        return blocks.Markdown(frame_table(frame))  # every row and column, as a Markdown table

    yield blocks.Markdown(
        "# Draft-self: where the time goes\n\nAnalysis of the latest `draftself` session "
        "(`benchbook.draftself.report`): τ against k with the analytic curve, tokens per forward pass, "
        "measured speedup against AR with its interval and the cost-model prediction, break-even τ, distinct "
        "experts per pass against the independent-routing bound, and the coreset sweep."
    )
    s = res.session
    yield blocks.Text(
        f"session {s['session_id']} {s['started_at']} -> {s['ended_at']} on {s['host_id']} "
        f"with {s['runtime']}"
    )
    yield table(res.caveats)
    yield blocks.Markdown("## Training")
    m = res.manifest
    keys = (
        "sha256",
        "bytes",
        "n_params",
        "train_seconds",
        "final_loss_next",
        "final_loss_masked",
        "corpus_sha256",
    )
    yield blocks.Value({k: m.get(k) for k in keys})
    yield blocks.Markdown("## τ, α̂ and tokens per forward pass")
    yield table(
        res.acceptance.select(
            "config_name",
            "prompt_class",
            "tau",
            "alpha_mle",
            "alpha_accept_rate",
            "tokens_per_pass",
            "expert_loads_per_token",
            "equals_ar_rate",
            "runs",
        )
    )
    yield blocks.Svg(Path(res.charts["tau_vs_k"]["svg"]))
    yield blocks.Markdown(
        "## Pass costs and break-even τ\n\nr(n) = mean n-token pass time ÷ mean 1-token decode pass. "
        "Draft-self (one draft pass + one batched verify) beats AR only when τ > r_draft(k+1) + "
        "r_verify(k+1)."
    )
    yield blocks.Text(f"1-token decode pass: {res.c1_ns / 1e6:.3f} ms")
    yield table(res.pass_costs)
    yield table(res.break_even)
    yield blocks.Markdown(
        "## Speedup: measured (paired with AR in the same session) vs predicted from pass costs"
    )
    yield table(
        res.speedup.select(
            "config_name",
            "prompt_class",
            "speedup",
            "ci_low",
            "ci_high",
            "n",
            "predicted",
            "steady",
            "gap",
            "outside_passes",
            "ar_outside_passes",
        )
    )
    yield blocks.Svg(Path(res.charts["speedup_vs_k"]["svg"]))
    yield blocks.Markdown("## Distinct experts per pass against E·(1−(1−K/E)^n)")
    yield table(res.experts)
    if "experts_vs_bound" in res.charts:
        yield blocks.Svg(Path(res.charts["experts_vs_bound"]["svg"]))
    yield blocks.Markdown(
        "## Block coreset (k fixed): draft only (lossless) vs draft+verify (may change the output)"
    )
    acc = res.acceptance
    k_cs = acc.filter(pl.col("coreset_mass").is_not_null())["k"].unique().to_list()
    yield table(
        acc.filter(
            pl.col("k").is_in(k_cs) & (pl.col("verify") == "batched") & (pl.col("draft") == "one_pass")
        ).select(
            "config_name",
            "prompt_class",
            "coreset_mass",
            "coreset_apply",
            "tau",
            "expert_loads_per_token",
            "equals_ar_rate",
        )
    )
    yield blocks.Markdown(
        "## Numbers published\n\nEvery number of the registry, its key linking to its provenance entry "
        "(records, command, build, model, host)."
    )
    yield blocks.Markdown(numbers_table(res.numbers, to_root=paths.to_root))
    # checks
    nums = json.loads((paths.reports_dir / "numbers" / "draftself.json").read_text())["numbers"]
    assert len(nums) == len(res.numbers) > 0
    unset = ("steady", "coreset_mass", "ci_low", "ci_high", "tau", "alpha_mle", "alpha_accept_rate")
    for name in ("acceptance", "speedup", "break_even"):
        df = getattr(res, name)
        assert df.height > 0, name
        for c in df.columns:
            if df[c].dtype in (pl.Float64, pl.Float32) and c not in unset:
                assert not df[c].is_nan().any() and df[c].null_count() == 0, (name, c)
    assert res.acceptance.filter(pl.col("decoder") == "draftself")["tau"].is_nan().sum() == 0
    for p in res.charts.values():
        assert Path(p["spec"]).exists() and Path(p["svg"]).exists()

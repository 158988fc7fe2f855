"""Analysis of a draft-self session (Polars): τ, tokens per pass, speedup, cost model, experts, coreset.

Inputs are the raw records of ``run.measure`` (``runs.jsonl``, ``sessions.jsonl``) and the training
manifest.  Ratios are only taken within one session (one host, one build, one checkpoint).

Definitions (DESIGN.md, "Statistics and caveats"):

* τ — tokens committed per verify step, counting the verifier's own token; pooled over a
  configuration's runs as Σ(a+1) / steps.
* α̂ — per-token acceptance probability, maximum likelihood under independent acceptance with the
  draft truncated at k: Σa / (Σa + #steps with a < k).  Analytic curve τ(k) = (1 − α^(k+1)) / (1 − α)
  (Leviathan et al. 2023, eq. 1).  ``alpha_accept_rate`` = accepted ÷ drafted is also kept.
* r(n) — mean wall time of an n-token pass of a kind over the mean 1-token decode pass, same session.
  Break-even τ* (one-pass draft, batched verify) = r_draft(k+1) + r_verify(k+1): draft-self is
  faster than AR only when τ > τ*.
* Measured speedup — per (prompt, repetition), AR decode time ÷ draft-self decode time for the same
  N tokens (decode = after the prefill token); geometric mean over pairs with a Student-t interval on
  the log ratios.  Predicted speedup — the same ratio with every pass replaced by its session mean
  cost; the gap (measured ÷ predicted − 1) is the time spent outside forward passes plus noise.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import altair as alt
import polars as pl

from benchbook import charts, stats
from benchbook.numbers import Number, line_ranges, make_key
from benchbook.records import read_records

from .experts import independent_bound

RUN_COLS = ["run_id", "session_id", "rep", "config_name", "prompt_id", "prompt_kind", "predictable", "n_tokens",
            "forward_passes", "tokens_per_pass", "decode_wall_ns", "decode_tps", "equals_ar", "output_sha256",
            "expert_loads_per_token", "n_experts", "top_k", "n_layers", "model_sha256", "host_id",
            "started_at", "ended_at", "_file", "_line"]


def load_runs(raw_dir: str | Path, session: str | None = "latest") -> tuple[pl.DataFrame, dict]:
    """Run records of one session as a DataFrame (config flattened, passes as three list columns),
    and that session's record.  ``session``: an id, or "latest" (the last completed session)."""
    raw = Path(raw_dir)
    sessions = read_records([raw / "sessions.jsonl"], "benchbook.draftself.session")
    if not sessions:
        raise ValueError(f"{raw}/sessions.jsonl holds no completed draftself session; run the draftself stage")
    sess = sessions[-1] if session in (None, "latest") else next(s for s in sessions if s["session_id"] == session)
    rows = []
    for r in read_records([raw / "runs.jsonl"], "benchbook.draftself.run"):
        if r["session_id"] != sess["session_id"]:
            continue
        c = r["config"]
        row = {k: r.get(k) for k in RUN_COLS}
        row.update({"decoder": c["decoder"], "k": c.get("k", 0), "verify": c.get("verify", "-"),
                    "draft": c.get("draft", "-"), "coreset_mass": c.get("coreset_mass"),
                    "coreset_apply": c.get("coreset_apply"), "tau": r.get("tau"),
                    "verify_steps": r.get("verify_steps", 0), "accepted_total": r.get("accepted_total", 0),
                    "drafted_total": r.get("drafted_total", 0), "rejections": r.get("rejections", 0),
                    "pass_kind": [p[0] for p in r["passes"]], "pass_n": [p[1] for p in r["passes"]],
                    "pass_ns": [p[2] for p in r["passes"]],
                    "ux_kind": [u["kind"] for u in r.get("unique_experts_per_layer_by_pass") or []],
                    "ux_n": [u["n_tokens"] for u in r.get("unique_experts_per_layer_by_pass") or []],
                    "ux_mean": [float(u["mean"]) for u in r.get("unique_experts_per_layer_by_pass") or []],
                    "ux_passes": [u["passes"] for u in r.get("unique_experts_per_layer_by_pass") or []]})
        rows.append(row)
    if not rows:
        raise ValueError(f"session {sess['session_id']} has no run records in {raw}/runs.jsonl")
    return pl.DataFrame(rows, infer_schema_length=None), sess


def _class(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(pl.when(pl.col("predictable")).then(pl.lit("predictable"))
                           .otherwise(pl.lit("other")).alias("prompt_class"))


def acceptance(runs: pl.DataFrame) -> pl.DataFrame:
    """τ, α̂, accept rate, tokens per pass, expert loads per token, equals_ar: per config and prompt
    class (first timed repetition: the decoders are deterministic)."""
    first = _class(runs).filter(pl.col("rep") == pl.col("rep").min())
    return (first.group_by("config_name", "decoder", "k", "verify", "draft", "coreset_mass", "coreset_apply",
                           "prompt_class")
            .agg(tau=((pl.col("accepted_total") + pl.col("verify_steps")).sum() / pl.col("verify_steps").sum()),
                 alpha_mle=pl.col("accepted_total").sum() / (pl.col("accepted_total").sum() + pl.col("rejections").sum()),
                 alpha_accept_rate=pl.col("accepted_total").sum() / pl.col("drafted_total").sum(),
                 tokens_per_pass=(pl.col("n_tokens") - 1).sum() / (pl.col("forward_passes") - 1).sum(),
                 expert_loads_per_token=pl.col("expert_loads_per_token").mean(),
                 equals_ar_rate=pl.col("equals_ar").cast(pl.Float64).mean(),
                 accepted_sum=pl.col("accepted_total").sum(), rejections_sum=pl.col("rejections").sum(),
                 runs=pl.len(), lines=pl.col("_line"), file=pl.col("_file").first(), run_ids=pl.col("run_id"))
            .sort("prompt_class", "decoder", "verify", "draft", "k"))


def analytic_tau(alpha: float, k: int) -> float:
    """τ(k) = (1 − α^(k+1)) / (1 − α) (Leviathan et al. 2023, eq. 1); k+1 when α = 1."""
    return k + 1.0 if alpha >= 1 else (1 - alpha ** (k + 1)) / (1 - alpha)


def pass_costs(runs: pl.DataFrame) -> tuple[pl.DataFrame, float]:
    """Mean wall time per (pass kind, tokens) over the session (prefill excluded), and r = mean over
    the mean 1-token decode pass.  Returns (table, c1_ns)."""
    p = (runs.select("pass_kind", "pass_n", "pass_ns").explode("pass_kind", "pass_n", "pass_ns")
         .filter(pl.col("pass_kind") != "prefill"))
    t = (p.group_by("pass_kind", "pass_n")
         .agg(mean_ns=pl.col("pass_ns").mean(), median_ns=pl.col("pass_ns").median(),
              sd_ns=pl.col("pass_ns").std(), passes=pl.len()).sort("pass_kind", "pass_n"))
    c1 = t.filter((pl.col("pass_kind") == "decode") & (pl.col("pass_n") == 1))["mean_ns"][0]
    return t.with_columns(r=pl.col("mean_ns") / c1), c1


def steady_state(acc: pl.DataFrame, be: pl.DataFrame, costs: pl.DataFrame) -> pl.DataFrame:
    """Steady-state speedup from τ and pass-cost ratios alone (no end-of-output truncation):
    batched τ / (r_draft(k+1) + r_verify(k+1)); sequential τ / (r_draft(k+1) + τ·r_verify(1))
    (a sequential step makes a+1 = τ one-token verify passes on average)."""
    rv1 = costs.filter((pl.col("pass_kind") == "verify") & (pl.col("pass_n") == 1))["r"]
    rv1 = float(rv1[0]) if len(rv1) else 1.0
    d = acc.filter((pl.col("decoder") == "draftself") & (pl.col("draft") == "one_pass")).join(
        be.select("k", "r_draft", "r_verify", "tau_break_even"), on="k", how="inner")
    return d.with_columns(steady=pl.when(pl.col("verify") == "batched")
                          .then(pl.col("tau") / (pl.col("r_draft") + pl.col("r_verify")))
                          .otherwise(pl.col("tau") / (pl.col("r_draft") + pl.col("tau") * rv1))).select(
        "config_name", "prompt_class", "k", "verify", "tau", "tau_break_even", "steady")


def break_even(costs: pl.DataFrame, ks: list[int]) -> pl.DataFrame:
    """τ* = r_draft(k+1) + r_verify(k+1) for one-pass draft + batched verify."""
    def r(kind, n):
        v = costs.filter((pl.col("pass_kind") == kind) & (pl.col("pass_n") == n))["r"]
        return float(v[0]) if len(v) else None
    rows = []
    for k in ks:
        rd, rv = r("draft", k + 1), r("verify", k + 1)
        if rd is not None and rv is not None:
            rows.append({"k": k, "r_draft": rd, "r_verify": rv, "tau_break_even": rd + rv})
    return pl.DataFrame(rows)


def speedup(runs: pl.DataFrame, costs: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Measured and predicted speedup of every draft-self config over AR, per prompt class."""
    cost = {(a, b): m for a, b, m in costs.select("pass_kind", "pass_n", "mean_ns").iter_rows()}
    runs = _class(runs).with_columns(pl.struct("pass_kind", "pass_n").map_elements(
        lambda s: float(sum(cost[(k, n)] for k, n in zip(s["pass_kind"], s["pass_n"]) if k != "prefill")),
        return_dtype=pl.Float64).alias("pred_ns"))
    # time outside forward passes (Python bookkeeping, argmax, expert logging): decode time − Σ passes
    runs = runs.with_columns(outside=1 - (pl.col("pass_ns").list.sum() - pl.col("pass_ns").list.first())
                             / pl.col("decode_wall_ns"))
    ar = runs.filter(pl.col("decoder") == "ar").select("prompt_id", "rep", ar_ns="decode_wall_ns", ar_pred_ns="pred_ns",
                                                       ar_outside="outside")
    ds = runs.filter(pl.col("decoder") == "draftself").join(ar, on=["prompt_id", "rep"])
    ds = ds.with_columns(log_ratio=(pl.col("ar_ns") / pl.col("decode_wall_ns")).log(),
                         pred=(pl.col("ar_pred_ns") / pl.col("pred_ns")))
    out = []
    for key, g in ds.group_by("config_name", "k", "verify", "draft", "coreset_mass", "coreset_apply", "prompt_class"):
        d = stats.describe(g["log_ratio"].to_numpy(), confidence)
        out.append({**dict(zip(["config_name", "k", "verify", "draft", "coreset_mass", "coreset_apply",
                                "prompt_class"], key)),
                    "speedup": math.exp(d["mean"]), "ci_low": math.exp(d["ci_low"]) if d["ci_low"] is not None else None,
                    "ci_high": math.exp(d["ci_high"]) if d["ci_high"] is not None else None, "n": d["n"],
                    "predicted": float(g["pred"].mean()),
                    "outside_passes": float(g["outside"].mean()), "ar_outside_passes": float(g["ar_outside"].mean()),
                    "lines": g["_line"].to_list(), "file": g["_file"][0], "run_ids": g["run_id"].to_list()})
    res = pl.DataFrame(out, infer_schema_length=None).with_columns(gap=pl.col("speedup") / pl.col("predicted") - 1)
    return res.sort("prompt_class", "verify", "draft", "k")


def experts_by_pass(runs: pl.DataFrame) -> pl.DataFrame:
    """Mean distinct routed experts per layer, by pass kind and size, with the independent bound
    (configs without coreset)."""
    if runs["n_experts"].drop_nulls().len() == 0:
        return pl.DataFrame()
    E, K = int(runs["n_experts"].drop_nulls()[0]), int(runs["top_k"].drop_nulls()[0])
    x = (runs.filter(pl.col("coreset_mass").is_null() & (pl.col("rep") == pl.col("rep").min()))
         .select("ux_kind", "ux_n", "ux_mean", "ux_passes").explode("ux_kind", "ux_n", "ux_mean", "ux_passes")
         .drop_nulls())
    t = (x.group_by("ux_kind", "ux_n")
         .agg(unique_experts=(pl.col("ux_mean") * pl.col("ux_passes")).sum() / pl.col("ux_passes").sum(),
              passes=pl.col("ux_passes").sum())
         .rename({"ux_kind": "kind", "ux_n": "n_tokens"}).sort("kind", "n_tokens"))
    return t.with_columns(bound=pl.col("n_tokens").map_elements(lambda n: independent_bound(E, K, n),
                                                                return_dtype=pl.Float64),
                          E=pl.lit(E), K=pl.lit(K))


# ---------------------------------------------------------------- charts

def chart_tau(acc: pl.DataFrame) -> alt.Chart:
    b = acc.filter((pl.col("verify") == "batched") & (pl.col("draft") == "one_pass") & pl.col("coreset_mass").is_null())
    curve = []
    for cls, g in b.group_by("prompt_class"):
        a = pooled_alpha(g)
        curve += [{"prompt_class": cls[0], "k": k, "tau": analytic_tau(a, k), "alpha": a} for k in range(1, 16)]
    pts = alt.Chart(alt.Data(values=b.select("prompt_class", "k", "tau", "alpha_mle", "config_name").to_dicts())).mark_point(
        size=70, filled=True).encode(x=alt.X("k:Q", title="drafted tokens per block (k)"),
                                     y=alt.Y("tau:Q", title="τ: tokens committed per verify step"),
                                     color="prompt_class:N", tooltip=["config_name:N", "prompt_class:N", "tau:Q", "alpha_mle:Q"])
    line = alt.Chart(alt.Data(values=curve)).mark_line(strokeDash=[4, 3]).encode(
        x="k:Q", y="tau:Q", color="prompt_class:N", tooltip=["prompt_class:N", "alpha:Q"])
    return (line + pts).properties(title="τ against k; dashed: (1−α^(k+1))/(1−α) with pooled α̂", width=420, height=260)


def pooled_alpha(g: pl.DataFrame) -> float:
    """α̂ (MLE) pooled over the rows of ``g`` (several k): Σa / (Σa + Σ rejections)."""
    a, rej = float(g["accepted_sum"].sum()), float(g["rejections_sum"].sum())
    return a / (a + rej) if a + rej else float("nan")


def chart_speedup(sp: pl.DataFrame, be: pl.DataFrame) -> alt.Chart:
    d = sp.filter(pl.col("coreset_mass").is_null() & (pl.col("draft") == "one_pass")).select(
        "config_name", "k", "verify", "prompt_class", "speedup", "ci_low", "ci_high", "predicted", "n").to_dicts()
    base = alt.Chart(alt.Data(values=d)).encode(x=alt.X("k:Q", title="k"), color="prompt_class:N",
                                                 strokeDash="verify:N")
    meas = base.mark_line(point=True).encode(y=alt.Y("speedup:Q", title="decode speedup vs AR (×)"),
                                             tooltip=["config_name:N", "prompt_class:N", "speedup:Q", "ci_low:Q", "ci_high:Q",
                                                      "predicted:Q", "n:Q"])
    err = base.mark_errorbar().encode(y=alt.Y("ci_low:Q", title="decode speedup vs AR (×)"), y2="ci_high:Q")
    pred = base.mark_point(shape="cross", size=60).encode(y="predicted:Q")
    one = alt.Chart(alt.Data(values=[{"y": 1}])).mark_rule(color="gray").encode(y="y:Q")
    return (one + err + meas + pred).properties(
        title="measured speedup (95% CI) and cost-model prediction (crosses)", width=420, height=260)


def chart_experts(ex: pl.DataFrame) -> alt.Chart:
    d = ex.to_dicts()
    pts = alt.Chart(alt.Data(values=d)).mark_point(filled=True, size=70).encode(
        x=alt.X("n_tokens:Q", title="tokens in the pass"),
        y=alt.Y("unique_experts:Q", title="distinct routed experts per layer"), color="kind:N",
        tooltip=["kind:N", "n_tokens:Q", "unique_experts:Q", "bound:Q", "passes:Q"])
    line = alt.Chart(alt.Data(values=d)).mark_line(color="gray", strokeDash=[4, 3]).encode(x="n_tokens:Q", y="bound:Q")
    return (line + pts).properties(title="distinct experts per pass; dashed: E·(1−(1−K/E)^n)", width=420, height=260)


def save_charts(acc, sp, be, ex, out_dir) -> dict:
    out = {"tau_vs_k": charts.save(chart_tau(acc), out_dir, "tau_vs_k"),
           "speedup_vs_k": charts.save(chart_speedup(sp, be), out_dir, "speedup_vs_k")}
    if len(ex):
        out["experts_vs_bound"] = charts.save(chart_experts(ex), out_dir, "experts_vs_bound")
    return out


# ---------------------------------------------------------------- numbers

def numbers(acc, sp, be, ex, costs, c1, sess, manifest: dict, manifest_path: str, caveats: list[str]) -> list[Number]:
    """The published numbers (keys from configuration only)."""
    common = {"model_sha256": manifest.get("sha256"), "host_id": sess["host_id"], "session_id": sess["session_id"],
              "measured_from": sess["started_at"], "measured_to": sess["ended_at"],
              "commands": [["dvc", "repro", "draftself"]]}
    out = []
    for r in acc.iter_rows(named=True):
        base = make_key("draftself", r["config_name"], r["prompt_class"])
        src = {"sources": [{"file": r["file"], "lines": line_ranges(r["lines"])}], "run_ids": r["run_ids"]}
        if r["expert_loads_per_token"] is not None and not math.isnan(r["expert_loads_per_token"]):
            out.append(Number(key=base + "-expert_loads_per_token", value=round(r["expert_loads_per_token"], 2),
                              unit="expert loads/token", n=r["runs"],
                              label=f"distinct experts per pass summed over layers and passes, per generated token, "
                                    f"{r['config_name']}, {r['prompt_class']}",
                              computation="draftself.experts.expert_loads", caveats=caveats, **src, **common))
        if r["decoder"] != "draftself":
            continue
        for suffix, col, unit, what, tail in (
                ("tau", "tau", "tokens/verify step", "τ", " prompts"),
                ("tokens_per_pass", "tokens_per_pass", "tokens/pass", "tokens per forward pass", ""),
                ("alpha", "alpha_mle", "", "α̂ (MLE)", ""),
                ("equals_ar", "equals_ar_rate", "fraction of runs", "output equal to AR greedy", "")):
            out.append(Number(key=f"{base}-{suffix}", value=round(r[col], 3), unit=unit,
                              label=f"{what}, {r['config_name']}, {r['prompt_class']}{tail}", n=r["runs"],
                              computation="draftself.report.acceptance", caveats=caveats, **src, **common))
    for r in sp.iter_rows(named=True):
        base = make_key("draftself", r["config_name"], r["prompt_class"])
        src = {"sources": [{"file": r["file"], "lines": line_ranges(r["lines"])}], "run_ids": r["run_ids"]}
        ci = [round(r["ci_low"], 3), round(r["ci_high"], 3)] if r["ci_low"] is not None else None
        out.append(Number(key=base + "-speedup", value=round(r["speedup"], 3), unit="×", n=r["n"], ci95=ci,
                          ci_method="Student-t on log(AR time / draft-self time), paired by prompt and repetition",
                          label=f"measured decode speedup vs AR, {r['config_name']}, {r['prompt_class']}",
                          computation="draftself.report.speedup", caveats=caveats, **src, **common))
        out.append(Number(key=base + "-predicted_speedup", value=round(r["predicted"], 3), unit="×", n=r["n"],
                          label=f"cost-model speedup, {r['config_name']}, {r['prompt_class']}",
                          computation="draftself.report.speedup (mean pass costs)", caveats=caveats, **src, **common))
        if r.get("steady") is not None:
            out.append(Number(key=base + "-steady_speedup", value=round(r["steady"], 3), unit="×", n=r["n"],
                              label=f"steady-state cost-model speedup τ/(r_draft+r_verify), {r['config_name']}, "
                                    f"{r['prompt_class']}",
                              computation="draftself.report.steady_state", caveats=caveats, **src, **common))
        out.append(Number(key=base + "-model_gap", value=round(100 * r["gap"], 1), unit="%", n=r["n"],
                          label=f"measured ÷ predicted − 1, {r['config_name']}, {r['prompt_class']}",
                          computation="draftself.report.speedup", caveats=caveats, **src, **common))
    all_runs = {"sources": [{"file": f, "lines": line_ranges(ls)} for f, ls in
                            sp.explode("lines").group_by("file").agg(pl.col("lines")).iter_rows()]}
    for r in be.iter_rows(named=True):
        out.append(Number(key=make_key("draftself", "break_even_tau", "k", r["k"]), value=round(r["tau_break_even"], 3),
                          unit="tokens/verify step", n=1,
                          label=f"break-even τ at k={r['k']} (r_draft + r_verify of a {r['k'] + 1}-token pass)",
                          computation="draftself.report.break_even", caveats=caveats, **all_runs, **common))
    out.append(Number(key="draftself-decode_pass_ms", value=round(c1 / 1e6, 4), unit="ms", n=1,
                      label="mean 1-token decode pass", computation="draftself.report.pass_costs",
                      caveats=caveats, **all_runs, **common))
    for r in ex.iter_rows(named=True) if len(ex) else []:
        if r["kind"] in ("draft", "verify") and r["n_tokens"] in (9,):
            k = make_key("draftself", "unique_experts", r["kind"], "n", r["n_tokens"])
            out.append(Number(key=k, value=round(r["unique_experts"], 2), unit="experts/layer", n=int(r["passes"]),
                              label=f"distinct experts per layer, {r['kind']} pass of {r['n_tokens']} tokens",
                              computation="draftself.report.experts_by_pass", caveats=caveats, **all_runs, **common))
            out.append(Number(key=k + "-bound", value=round(r["bound"], 2), unit="experts/layer", n=1,
                              label=f"independent-routing bound for {r['n_tokens']} tokens (E={r['E']}, K={r['K']})",
                              computation="draftself.experts.independent_bound", **all_runs, **common))
    mlines = Path(manifest_path).read_text().splitlines()

    def msrc(field):                                   # the manifest line holding ``field``
        hit = [i + 1 for i, ln in enumerate(mlines) if ln.strip().startswith(f'"{field}":')]
        return {"sources": [{"file": manifest_path, "lines": [[hit[-1], hit[-1]]] if hit else [[1, len(mlines)]]}]}
    for key, val, unit, label in [("train_seconds", manifest.get("train_seconds"), "s", "training time"),
                                  ("final_loss_next", manifest.get("final_loss_next"), "nats", "final next-token loss"),
                                  ("final_loss_masked", manifest.get("final_loss_masked"), "nats", "final masked-slot loss"),
                                  ("n_params", manifest.get("n_params"), "parameters", "model parameters")]:
        if val is not None:
            out.append(Number(key=make_key("draftself", "train", key), value=val, unit=unit, n=1, label=label,
                              computation="draftself.train", model_sha256=manifest.get("sha256"),
                              caveats=["synthetic_inputs"], **msrc(key)))
    return out


def session_caveats(sess: dict, busy_load_per_core: float = 0.5, busy_other_cpu_pct: float = 50.0) -> list[str]:
    """Caveat ids for the session: always synthetic_inputs; busy_host when another process used more
    than ``busy_other_cpu_pct`` CPU over the session (``load_end.top_processes``: psutil percent since
    the start snapshot, our own process excluded), or — for sessions recorded without that — when the
    1-minute load per core at start or end exceeded ``busy_load_per_core``.  The load average alone
    over-fires: it counts our own threads and the previous stage's decaying load (caveats.busy_host)."""
    import os
    cav = ["synthetic_inputs"]
    procs = (sess.get("load_end") or {}).get("top_processes")
    if procs is not None:
        busy = max([float(p.get("cpu_percent") or 0) for p in procs], default=0.0) > busy_other_cpu_pct
    else:
        cores = os.cpu_count() or 1
        loads = [s.get("loadavg", [0])[0] for s in (sess.get("load_start") or {}, sess.get("load_end") or {})]
        busy = max(loads) / cores > busy_load_per_core
    if busy:
        cav.append("busy_host")
    if sess["params"].get("repetitions", 0) < 3:
        cav.append("single_run")
    return cav


def build(raw_dir, manifest_path, out_dir, numbers_path, session: str | None = "latest") -> dict:
    """Everything the report notebook shows; writes tables (JSON), charts and the numbers registry."""
    from benchbook.numbers import publish
    runs, sess = load_runs(raw_dir, session)
    manifest = json.loads(Path(manifest_path).read_text())
    acc = acceptance(runs)
    costs, c1 = pass_costs(runs)
    ks = sorted(set(runs.filter(pl.col("verify") == "batched")["k"].to_list()))
    be = break_even(costs, ks)
    sp = speedup(runs, costs)
    ex = experts_by_pass(runs)
    st = steady_state(acc, be, costs)
    sp = sp.join(st.select("config_name", "prompt_class", "steady"), on=["config_name", "prompt_class"], how="left")
    cav = session_caveats(sess)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, df in {"acceptance": acc, "pass_costs": costs, "break_even": be, "speedup": sp, "experts": ex}.items():
        (out / f"{name}.json").write_text(json.dumps(df.drop([c for c in ("lines", "run_ids") if c in df.columns])
                                                     .to_dicts(), indent=1, default=str))
    chart_paths = save_charts(acc, sp, be, ex, out)
    nums = numbers(acc, sp, be, ex, costs, c1, sess, manifest, str(manifest_path), cav)
    publish(numbers_path, "draftself", nums)
    return {"runs": runs, "session": sess, "acceptance": acc, "pass_costs": costs, "c1_ns": c1, "break_even": be,
            "speedup": sp, "steady_state": st, "experts": ex, "caveats": cav, "charts": chart_paths, "numbers": nums, "manifest": manifest}

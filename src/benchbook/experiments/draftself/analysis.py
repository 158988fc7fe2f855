"""Draft-self analysis (Polars): raw records of a session -> τ, tokens per pass, speedup, cost model,
experts, coreset tables.

Inputs are the raw records of ``run.measure`` (``<host_id>.jsonl``: the shared session's start/end and
the run records; committed sessions: ``runs.jsonl``, ``sessions.jsonl``) and the training manifest.
Ratios are only taken within one session (one host, one build, one checkpoint).

Definitions (DESIGN.md, "Statistics and caveats"):

* τ — tokens committed per verify step, counting the verifier's own token; pooled over a
  configuration's runs as Σ min(Σ(a+1), n_tokens − 1) / steps: a run stops at its cap of n_tokens
  (the first from the prefill), and the accepted tokens of its last block past the cap are not
  committed, so they are not counted.
* α̂ — per-token acceptance probability, maximum likelihood under independent acceptance with the
  draft truncated at k: Σa / (Σa + #steps with a < k).  Analytic curve τ(k) = (1 − α^(k+1)) / (1 − α)
  (Leviathan et al. 2023, eq. 1; ``costmodel.tau_independent``).  ``alpha_accept_rate`` = accepted ÷
  drafted is also kept.
* r(n) — mean wall time of an n-token pass of a kind over the mean 1-token decode pass, same session.
  Break-even τ* (one-pass draft, batched verify) = r_draft(k+1) + r_verify(k+1): draft-self is
  faster than AR only when τ > τ*.
* Measured speedup — per (prompt, repetition), AR decode time ÷ draft-self decode time for the same
  N tokens (decode = after the prefill token); the log ratios of one prompt's repetitions are averaged
  (they time one deterministic output), and the speedup is the geometric mean over prompts with a
  Student-t interval on the per-prompt log ratios: the unit of replication is the prompt
  (``replication``), never the timing repetition.  Predicted speedup — the same ratio with every
  pass replaced by its session mean cost (``predicted``: its mean over the pairs).  The model gap
  (measured ÷ predicted − 1, the time spent outside forward passes plus noise) is paired per prompt
  (``paired_gap``): the log of measured ÷ predicted of each pair, averaged like the speedup.

Entry point: ``load(raw_dir)`` (see ``benchbook.experiments``).
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from benchbook import migrations, stats
from benchbook.draftself.experts import independent_bound
from benchbook.records import read_records

RUN_COLS = [
    "run_id",
    "session_id",
    "rep",
    "config_name",
    "prompt_id",
    "prompt_kind",
    "predictable",
    "n_tokens",
    "forward_passes",
    "tokens_per_pass",
    "decode_wall_ns",
    "decode_tps",
    "equals_ar",
    "output_sha256",
    "output_text",
    "expert_loads_per_token",
    "n_experts",
    "top_k",
    "n_layers",
    "model_sha256",
    "host_id",
    "started_at",
    "ended_at",
    "_file",
    "_line",
]
#: files of ``raw_dir`` that hold no session: per-step records, and the snapshot file of the old layout
_NOT_SESSION_FILES = ("steps.jsonl", "hosts.jsonl", "runs.jsonl", "sessions.jsonl")


def sessions(raw_dir: str | Path) -> list[dict]:
    """Completed draft-self sessions under ``raw_dir``, oldest end first: the shared sessions of
    ``<host_id>.jsonl`` (start and end records) and the committed ones of ``sessions.jsonl``
    (``migrations.legacy_draftself_session``).  Each: ``session_id``, ``host_id``, ``model_sha256``,
    ``checkpoint`` (the start record's checkpoint path; shared sessions only), ``started_at``,
    ``ended_at``, ``params``, ``runtime``, ``toolchain_id``, ``load_start``, ``load_end`` (null for
    shared sessions: their runs carry the load), ``runs_file``."""
    raw = Path(raw_dir)
    out = (
        [
            migrations.legacy_draftself_session(r)
            for r in read_records([raw / "sessions.jsonl"], "benchbook.draftself.session")
        ]
        if (raw / "sessions.jsonl").exists()
        else []
    )
    for f in sorted(raw.glob("*.jsonl")):
        if f.name in _NOT_SESSION_FILES or f.name.endswith((".steps.jsonl", ".quarantine.jsonl")):
            continue
        starts: dict[str, dict] = {}
        for r in read_records([f], "benchbook.session"):
            if r.get("experiment") != "draftself":
                continue
            if r["event"] == "start":
                starts.setdefault(r["session_id"], r)
            elif r["session_id"] in starts:
                st = starts[r["session_id"]]
                out.append(
                    {
                        "session_id": r["session_id"],
                        "host_id": st.get("host_id"),
                        "model_sha256": st.get("model_sha256"),
                        "checkpoint": st.get("checkpoint"),
                        "started_at": st["at"],
                        "ended_at": r["at"],
                        "params": st.get("config") or {},
                        "runtime": st.get("runtime"),
                        "toolchain_id": st.get("toolchain_id"),
                        "load_start": None,
                        "load_end": None,
                        "file": str(f),
                        "line": st["_line"],
                        "runs_file": str(f),
                    }
                )
    return sorted(out, key=lambda s: s["ended_at"])


def _load1(load: dict | None) -> float | None:
    return float(load["loadavg"][0]) if load and load.get("loadavg") else None


def _others_cpu(load: dict | None) -> float | None:
    """Highest CPU percent of another process over the run (``load_end.top_processes``, psutil percent
    since the previous snapshot, this process excluded); None when not recorded."""
    procs = (load or {}).get("top_processes")
    return None if procs is None else max([float(p.get("cpu_percent") or 0) for p in procs], default=0.0)


def load_runs(
    raw_dir: str | Path, session: str | None = "latest", primary_host: str | None = None
) -> tuple[pl.DataFrame, dict]:
    """Run records of one session as a DataFrame (config flattened, passes as three list columns, the
    host's load as ``load1_max`` and ``others_cpu_pct_max``: the run's own, or the session's for
    committed sessions whose runs carry none), and that session (``sessions``).  ``session``: an id, or
    "latest" (the last completed session of ``primary_host``, of any host when it has none)."""
    raw = Path(raw_dir)
    done = sessions(raw)
    if not done:
        raise ValueError(f"{raw} holds no completed draftself session; run the draftself stage")
    of_host = [s for s in done if s["host_id"] == primary_host] or done
    sess = of_host[-1] if session in (None, "latest") else next(s for s in done if s["session_id"] == session)
    s_load1 = max(
        [x for x in (_load1(sess["load_start"]), _load1(sess["load_end"])) if x is not None], default=None
    )
    s_others = _others_cpu(sess["load_end"])
    rows = []
    for r in read_records([sess["runs_file"]], "benchbook.draftself.run"):
        if r["session_id"] != sess["session_id"]:
            continue
        c = r["config"]
        row = {k: r.get(k) for k in RUN_COLS}
        own = [x for x in (_load1(r.get("load_start")), _load1(r.get("load_end"))) if x is not None]
        row.update(
            {
                "decoder": c["decoder"],
                "k": c.get("k", 0),
                "verify": c.get("verify", "-"),
                "draft": c.get("draft", "-"),
                "coreset_mass": c.get("coreset_mass"),
                "coreset_apply": c.get("coreset_apply"),
                "tau": r.get("tau"),
                "verify_steps": r.get("verify_steps", 0),
                "accepted_total": r.get("accepted_total", 0),
                "drafted_total": r.get("drafted_total", 0),
                "rejections": r.get("rejections", 0),
                "load1_max": max(own) if own else s_load1,
                "others_cpu_pct_max": _others_cpu(r["load_end"]) if r.get("load_end") else s_others,
                "pass_kind": [p[0] for p in r["passes"]],
                "pass_n": [p[1] for p in r["passes"]],
                "pass_ns": [p[2] for p in r["passes"]],
                "ux_kind": [u["kind"] for u in r.get("unique_experts_per_layer_by_pass") or []],
                "ux_n": [u["n_tokens"] for u in r.get("unique_experts_per_layer_by_pass") or []],
                "ux_mean": [float(u["mean"]) for u in r.get("unique_experts_per_layer_by_pass") or []],
                "ux_passes": [u["passes"] for u in r.get("unique_experts_per_layer_by_pass") or []],
            }
        )
        rows.append(row)
    if not rows:
        raise ValueError(f"session {sess['session_id']} has no run records in {sess['runs_file']}")
    return pl.DataFrame(
        rows,
        infer_schema_length=None,
        schema_overrides={"load1_max": pl.Float64, "others_cpu_pct_max": pl.Float64},
    ), sess


def caveat_table(runs: pl.DataFrame, repetitions: int) -> pl.DataFrame:
    """One row per configuration for the caveat engine (``caveats`` table kind ``draftself``):
    ``config_name``, ``run_ids``, ``n`` (timed repetitions), ``load1_max`` and ``others_cpu_pct_max``
    (highest over its runs), ``output_equal`` (every run's output equal to AR greedy), ``synthetic`` (always:
    a tiny model trained here on a generated corpus)."""
    return (
        runs.group_by("config_name", maintain_order=True)
        .agg(
            pl.col("run_id").alias("run_ids"),
            pl.col("load1_max").max(),
            pl.col("others_cpu_pct_max").max(),
            # a draft-self variant must reproduce AR greedy output on every run (absent column: not checked)
            *(
                [pl.col("equals_ar").fill_null(True).all().alias("output_equal")]
                if "equals_ar" in runs.columns
                else []
            ),
        )
        .with_columns(pl.lit(int(repetitions), dtype=pl.Int64).alias("n"), pl.lit(True).alias("synthetic"))
    )


def _class(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(
        pl.when(pl.col("predictable"))
        .then(pl.lit("predictable"))
        .otherwise(pl.lit("other"))
        .alias("prompt_class")
    )


def committed_tokens() -> pl.Expr:
    """Tokens a run's verify steps committed, never past its cap: min(accepted_total + verify_steps,
    n_tokens − 1) (a run generates n_tokens, the first from the prefill; the accepted tokens of its
    last block beyond the cap are cut).  The numerator of τ."""
    return pl.min_horizontal(pl.col("accepted_total") + pl.col("verify_steps"), pl.col("n_tokens") - 1)


def acceptance(runs: pl.DataFrame) -> pl.DataFrame:
    """τ, α̂, accept rate, tokens per pass, expert loads per token, equals_ar: per config and prompt
    class (first timed repetition: the decoders are deterministic)."""
    first = _class(runs).filter(pl.col("rep") == pl.col("rep").min())
    return (
        first.group_by(
            "config_name", "decoder", "k", "verify", "draft", "coreset_mass", "coreset_apply", "prompt_class"
        )
        .agg(
            tau=committed_tokens().sum() / pl.col("verify_steps").sum(),
            alpha_mle=pl.col("accepted_total").sum()
            / (pl.col("accepted_total").sum() + pl.col("rejections").sum()),
            alpha_accept_rate=pl.col("accepted_total").sum() / pl.col("drafted_total").sum(),
            tokens_per_pass=(pl.col("n_tokens") - 1).sum() / (pl.col("forward_passes") - 1).sum(),
            expert_loads_per_token=pl.col("expert_loads_per_token").mean(),
            equals_ar_rate=pl.col("equals_ar").cast(pl.Float64).mean(),
            accepted_sum=pl.col("accepted_total").sum(),
            rejections_sum=pl.col("rejections").sum(),
            runs=pl.len(),
            lines=pl.col("_line"),
            file=pl.col("_file").first(),
            run_ids=pl.col("run_id"),
        )
        .sort(
            "prompt_class", "decoder", "verify", "draft", "k", "config_name"
        )  # a total order: reports reproduce
    )


def pass_costs(runs: pl.DataFrame) -> tuple[pl.DataFrame, float]:
    """Mean wall time per (pass kind, tokens) over the session (prefill excluded), and r = mean over
    the mean 1-token decode pass.  Returns (table, c1_ns)."""
    p = (
        runs.select("pass_kind", "pass_n", "pass_ns")
        .explode("pass_kind", "pass_n", "pass_ns")
        .filter(pl.col("pass_kind") != "prefill")
    )
    t = (
        p.group_by("pass_kind", "pass_n")
        .agg(
            mean_ns=pl.col("pass_ns").mean(),
            median_ns=pl.col("pass_ns").median(),
            sd_ns=pl.col("pass_ns").std(),
            passes=pl.len(),
        )
        .sort("pass_kind", "pass_n")
    )
    c1 = t.filter((pl.col("pass_kind") == "decode") & (pl.col("pass_n") == 1))["mean_ns"][0]
    return t.with_columns(r=pl.col("mean_ns") / c1), c1


def steady_state(acc: pl.DataFrame, be: pl.DataFrame, costs: pl.DataFrame) -> pl.DataFrame:
    """Steady-state speedup from τ and pass-cost ratios alone (no end-of-output truncation):
    batched τ / (r_draft(k+1) + r_verify(k+1)); sequential τ / (r_draft(k+1) + τ·r_verify(1))
    (a sequential step makes a+1 = τ one-token verify passes on average)."""
    verify1 = costs.filter((pl.col("pass_kind") == "verify") & (pl.col("pass_n") == 1))["r"]
    rv1 = float(verify1[0]) if len(verify1) else 1.0
    d = acc.filter((pl.col("decoder") == "draftself") & (pl.col("draft") == "one_pass")).join(
        be.select("k", "r_draft", "r_verify", "tau_break_even"), on="k", how="inner"
    )
    return d.with_columns(
        steady=pl.when(pl.col("verify") == "batched")
        .then(pl.col("tau") / (pl.col("r_draft") + pl.col("r_verify")))
        .otherwise(pl.col("tau") / (pl.col("r_draft") + pl.col("tau") * rv1))
    ).select("config_name", "prompt_class", "k", "verify", "tau", "tau_break_even", "steady")


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
    """Measured and predicted speedup of every draft-self config over AR, per prompt class.

    One row per (config, prompt class): ``speedup`` (geometric mean over prompts), ``ci_low``/``ci_high``
    (Student-t over the per-prompt mean log ratios), ``n`` (prompts), ``replication`` ("prompts"),
    ``n_timings`` (paired timings), ``per_prompt`` ([{prompt_id, speedup}]), ``predicted`` (the mean over
    the pairs of the predicted ratio), the cited draft-self ``run_ids``/``lines`` and the AR runs they
    are divided by (``ar_run_ids``/``ar_lines``), and the cost model's ``gap``, ``residual`` and
    ``residual_ci`` paired per prompt (``paired_gap``)."""
    cost = {(a, b): m for a, b, m in costs.select("pass_kind", "pass_n", "mean_ns").iter_rows()}
    runs = _class(runs).with_columns(
        pl.struct("pass_kind", "pass_n")
        .map_elements(
            lambda s: float(
                sum(cost[(k, n)] for k, n in zip(s["pass_kind"], s["pass_n"], strict=True) if k != "prefill")
            ),
            return_dtype=pl.Float64,
        )
        .alias("pred_ns")
    )
    # time outside forward passes (Python bookkeeping, argmax, expert logging): decode time − Σ passes
    runs = runs.with_columns(
        outside=1 - (pl.col("pass_ns").list.sum() - pl.col("pass_ns").list.first()) / pl.col("decode_wall_ns")
    )
    ar = runs.filter(pl.col("decoder") == "ar").select(
        "prompt_id",
        "rep",
        ar_ns="decode_wall_ns",
        ar_pred_ns="pred_ns",
        ar_outside="outside",
        ar_run_id="run_id",
        ar_line="_line",
    )
    ds = (
        runs.filter(pl.col("decoder") == "draftself")
        .join(ar, on=["prompt_id", "rep"])
        .sort("config_name", "prompt_id", "rep")  # one summation order: the same bits every run
    )
    ds = ds.with_columns(
        log_ratio=(pl.col("ar_ns") / pl.col("decode_wall_ns")).log(),
        pred=(pl.col("ar_pred_ns") / pl.col("pred_ns")),
    ).with_columns(log_res=(pl.col("pred") / (pl.col("ar_ns") / pl.col("decode_wall_ns"))).log())
    out = []
    group = ["config_name", "k", "verify", "draft", "coreset_mass", "coreset_apply", "prompt_class"]
    for key, g in ds.group_by(*group):
        # the unit that varies is the prompt: the decoders are deterministic, so the repetitions of one
        # prompt time the same output; they are averaged (on the log scale) before the interval over prompts
        per_prompt = g.group_by("prompt_id").agg(pl.col("log_ratio").mean()).sort("prompt_id")
        d = stats.describe(per_prompt["log_ratio"].to_numpy(), confidence)
        out.append(
            {
                **dict(zip(group, key, strict=True)),
                "speedup": math.exp(d["mean"]),
                "ci_low": math.exp(d["ci_low"]) if d["ci_low"] is not None else None,
                "ci_high": math.exp(d["ci_high"]) if d["ci_high"] is not None else None,
                "n": d["n"],
                "replication": "prompts",
                "n_timings": g.height,
                "per_prompt": [
                    {"prompt_id": pid, "speedup": math.exp(lr)} for pid, lr in per_prompt.iter_rows()
                ],
                "ar_run_ids": g["ar_run_id"].to_list(),
                "ar_lines": g["ar_line"].to_list(),
                "predicted": stats.series_mean(g["pred"]),
                "outside_passes": stats.series_mean(g["outside"]),
                "ar_outside_passes": stats.series_mean(g["ar_outside"]),
                "lines": g["_line"].to_list(),
                "file": g["_file"][0],
                "run_ids": g["run_id"].to_list(),
                **paired_gap(g, confidence),
            }
        )
    res = pl.DataFrame(out, infer_schema_length=None)
    return res.sort("prompt_class", "verify", "draft", "k", "config_name")  # a total order


def paired_gap(pairs: pl.DataFrame, confidence: float = 0.95) -> dict:
    """The cost model against the measured speedup of one configuration, paired per prompt.

    ``pairs``: one row per draft-self run joined to the AR run of its prompt and repetition, with
    ``prompt_id`` and ``log_res`` = log(predicted ÷ measured), measured = AR decode ns ÷ draft-self
    decode ns, predicted = the same ratio with every pass (prefill excluded) at the session mean of its
    (kind, size) (``pass_costs``).  ``log_res`` is averaged over a prompt's repetitions, then over
    prompts (mean m, Student-t interval on the per-prompt values: ``stats.describe``; unit of
    replication the prompt, as for ``speedup``).

    Returns ``{"gap", "residual", "residual_ci"}``: ``gap`` = exp(−m) − 1 (measured ÷ predicted − 1,
    fraction), ``residual`` = exp(m) − 1 (predicted ÷ measured − 1, fraction) and its interval
    ``[low, high]`` (None below 3 prompts).  Pairing keeps both sides on one scale: a geometric-mean
    speedup over an arithmetic-mean prediction mixes them, and with τ spread over prompts that alone
    moved the committed CPU gap of k = 8 (other prompts) from +10.7% to −0.4% and gave +21% on the GPU
    at k = 15.
    """
    per = pairs.group_by("prompt_id").agg(pl.col("log_res").mean()).sort("prompt_id")["log_res"]
    d = stats.describe(per.to_numpy(), confidence)
    return {
        "gap": math.exp(-d["mean"]) - 1,
        "residual": math.exp(d["mean"]) - 1,
        "residual_ci": [math.exp(d["ci_low"]) - 1, math.exp(d["ci_high"]) - 1]
        if d["ci_low"] is not None
        else None,
    }


def experts_by_pass(runs: pl.DataFrame, with_run_ids: bool = False) -> pl.DataFrame:
    """Mean distinct routed experts per layer, by pass kind and size, with the independent bound
    (configs without coreset, first timed repetition); ``with_run_ids``: also the ``run_ids`` read (for
    the chart's tooltips)."""
    if runs["n_experts"].drop_nulls().len() == 0:
        return pl.DataFrame()
    E, K = int(runs["n_experts"].drop_nulls()[0]), int(runs["top_k"].drop_nulls()[0])
    x = (
        runs.filter(pl.col("coreset_mass").is_null() & (pl.col("rep") == pl.col("rep").min()))
        .select("run_id", "ux_kind", "ux_n", "ux_mean", "ux_passes")
        .explode("ux_kind", "ux_n", "ux_mean", "ux_passes")
        .drop_nulls()
    )
    t = (
        x.group_by("ux_kind", "ux_n")
        .agg(
            unique_experts=(pl.col("ux_mean") * pl.col("ux_passes")).sum() / pl.col("ux_passes").sum(),
            passes=pl.col("ux_passes").sum(),
            run_ids=pl.col("run_id").unique().sort(),
        )
        .rename({"ux_kind": "kind", "ux_n": "n_tokens"})
        .sort("kind", "n_tokens")
    )
    if not with_run_ids:
        t = t.drop("run_ids")
    return t.with_columns(
        bound=pl.col("n_tokens").map_elements(lambda n: independent_bound(E, K, n), return_dtype=pl.Float64),
        E=pl.lit(E),
        K=pl.lit(K),
    )


# ---------------------------------------------------------------- charts


def pooled_alpha(g: pl.DataFrame) -> float:
    """α̂ (MLE) pooled over the rows of ``g`` (several k): Σa / (Σa + Σ rejections)."""
    a, rej = float(g["accepted_sum"].sum()), float(g["rejections_sum"].sum())
    return a / (a + rej) if a + rej else float("nan")


def load(raw_dir: Path) -> pl.DataFrame:
    """The tidy table of the experiment: the run records of the latest completed session under
    ``raw_dir/draftself`` (``load_runs``)."""
    return load_runs(Path(raw_dir) / "draftself", "latest")[0]


def decode_rates(runs: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Decode rate (tok/s, the run records' ``decode_tps``: generated tokens after the prefill token ÷
    ``decode_wall_ns``) of every configuration, AR included, per prompt class: both sides of each
    speedup.

    One row per (config, prompt class): ``decode_tps`` = the mean of the per-prompt mean rates (each the
    mean of that prompt's per-repetition rates, llama-bench's ``avg_ts`` definition; with equal
    repetitions per prompt it is the mean of every per-repetition rate), ``sd`` and the log-scale
    Student-t interval ``ci_low``/``ci_high`` over the per-prompt means (``stats.sample_interval``; none
    below 3 prompts): the unit of replication is the prompt, as for the speedups, since the repetitions
    of one prompt time one deterministic output.  Also ``n`` (prompts), ``n_timings`` (runs) and the cited
    ``run_ids``/``lines``/``file``.  Sorted by prompt class, decoder, verify, draft, k, config name."""
    out = []
    group = ["config_name", "decoder", "k", "verify", "draft", "prompt_class"]
    for key, g in _class(runs).group_by(*group):
        per_prompt = g.group_by("prompt_id").agg(pl.col("decode_tps").mean()).sort("prompt_id")
        mean, sd, ci = stats.sample_interval(per_prompt["decode_tps"].to_list(), confidence, log=True)
        out.append(
            {
                **dict(zip(group, key, strict=True)),
                "decode_tps": mean,
                "sd": sd,
                "ci_low": ci[0] if ci else None,
                "ci_high": ci[1] if ci else None,
                "n": per_prompt.height,
                "n_timings": g.height,
                "lines": g["_line"].to_list(),
                "file": g["_file"][0],
                "run_ids": g["run_id"].to_list(),
            }
        )
    return pl.DataFrame(out, infer_schema_length=None).sort(
        "prompt_class", "decoder", "verify", "draft", "k", "config_name"
    )

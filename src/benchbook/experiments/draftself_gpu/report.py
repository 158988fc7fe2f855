"""Draft-self on the GPU: report tables and the numbers registry.

Writes ``reports_dir/draftself_gpu/{train,by_k,per_prompt,curve}.md`` and publishes
``reports_dir/numbers/draftself_gpu.json``: per k of the latest session ``draftself_gpu-k<k>-``
``tau|alpha|speedup|ds_tps|break_even_tau|residual``, ``draftself_gpu-ar_tps``, and per training
``draftself_gpu-t<session8>-train_seconds|steps|held_out_loss|n_params``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from benchbook.numbers import Number, line_ranges, make_key, publish
from benchbook.numtable import md_table

from . import EXPERIMENT
from .analysis import by_k, decode_pass_ms, load, load_train, per_prompt


@dataclass
class DraftselfGpuReport:
    """What the report shows: the published numbers and the tables of the latest session."""

    numbers: list[Number] = field(default_factory=list)
    session_id: str = ""
    train: pl.DataFrame = field(default_factory=pl.DataFrame)
    by_k: pl.DataFrame = field(default_factory=pl.DataFrame)
    per_prompt: pl.DataFrame = field(default_factory=pl.DataFrame)


def verdict_md(table: pl.DataFrame) -> str:
    """One generated sentence per k: τ against its break-even τ*, and the speedup or the shortfall
    (from the numbers themselves: "above"/"below" and "faster"/"slower" follow their signs)."""
    lines = []
    for r in table.iter_rows(named=True):
        above = r["tau"] > r["tau_break_even"]
        ci = r["speedup_ci"]
        if ci and ci[0] > 1:
            sp = f"faster than AR: ×{r['speedup']:.2f} (95% CI over prompts {ci[0]:.2f}–{ci[1]:.2f})"
        elif ci and ci[1] < 1:
            short = 1 - r["speedup"]
            sp = f"slower than AR: ×{r['speedup']:.2f}, {short:.0%} short (CI {ci[0]:.2f}–{ci[1]:.2f})"
        else:
            sp = f"not distinguishable from AR: ×{r['speedup']:.3f}" + (
                f" (CI {ci[0]:.2f}–{ci[1]:.2f} includes 1)" if ci else ""
            )
        lines.append(
            f"- k = {r['k']}: mean τ {r['tau']:.2f} is {'above' if above else 'below'} its break-even "
            f"τ* {r['tau_break_even']:.2f} by {abs(r['tau'] - r['tau_break_even']):.2f}; {sp}; "
            f"greedy output {'equal to' if r['equals_ar_all'] else 'NOT always equal to'} AR on every run."
        )
    return "\n".join(lines) + "\n"


def build(params: dict, *, root: Path, raw_dir: Path, reports_dir: Path) -> DraftselfGpuReport:
    """The stage ``draftself_gpu_report``: the latest completed session under ``raw_dir/draftself_gpu``
    and every training record.

    Raises:
        ValueError: no completed session (fix: run ``python -m benchbook.experiments draftself_gpu``
        on a CUDA host and merge its records with ``scripts/gpu_merge_draftself.sh``).
    """
    del params  # the committed records select themselves: the latest session
    root = Path(root)
    raw, rep = root / raw_dir, root / reports_dir
    runs = load(raw)
    session = runs["session_id"][0]
    host = runs["host_id"][0]
    model_sha = runs["model_sha256"][0]
    train = load_train(raw)
    table = by_k(runs)
    pp = per_prompt(runs)
    build_text = runs["runtime"][0]
    common = {
        "host_id": host,
        "session_id": session,
        "model_sha256": model_sha,
        "build": build_text,
        "toolchain_id": runs["toolchain_id"][0],
        "measured_from": runs["started_at"].min(),
        "measured_to": runs["ended_at"].max(),
    }
    nums: list[Number] = []
    for r in table.iter_rows(named=True):
        src = [{"file": str(r["file"]), "lines": line_ranges(r["lines"])}]
        stem = (EXPERIMENT, f"k{r['k']}")
        for col, unit, label, ci_key, computation in (
            ("tau", "tokens", "τ (tokens per verify step, mean over prompts)", "tau_ci", "per_prompt"),
            ("alpha", "fraction", "α (accepted ÷ drafted, pooled over prompts)", None, "by_k"),
            ("speedup", "x", "AR decode time ÷ draft-self decode time", "speedup_ci", "speedup"),
            ("ds_tps", "tok/s", "draft-self decode rate (mean over prompts)", "ds_tps_ci", "per_prompt"),
            ("tau_break_even", "tokens", "break-even τ* = r_draft(k+1) + r_verify(k+1)", None, "break_even"),
            ("residual", "fraction", "cost model ÷ measured speedup − 1", "residual_ci", "model_residual"),
        ):
            ci = r.get(ci_key) if ci_key else None
            nums.append(
                Number(
                    key=make_key(*stem, col),
                    value=round(float(r[col]), 4),
                    unit=unit,
                    label=f"draft-self k={r['k']} on the GPU: {label}",
                    n=int(r["prompts"]),
                    computation=f"benchbook.experiments.draftself_gpu.analysis.{computation}",
                    ci95=[round(ci[0], 4), round(ci[1], 4)] if ci and ci[0] is not None else None,
                    ci_method=(
                        "student-t over per-prompt logs"
                        if ci and ci[0] is not None
                        else "none: pooled ratio"
                        if col == "alpha"
                        else "none: computed from session mean pass costs"
                        if col == "tau_break_even"
                        else None
                    ),
                    replication="prompts",
                    sources=src,
                    run_ids=r["run_ids"],
                    **common,
                )
            )
    first = table.row(0, named=True)
    nums.append(
        Number(
            key=make_key(EXPERIMENT, "ar_tps"),
            value=round(float(first["ar_tps"]), 2),
            unit="tok/s",
            label="plain greedy AR decode rate on the GPU (mean over prompts)",
            n=int(first["prompts"]),
            computation="benchbook.experiments.draftself_gpu.analysis.per_prompt",
            ci95=[round(x, 2) for x in first["ar_tps_ci"]] if first["ar_tps_ci"] else None,
            ci_method="student-t over per-prompt logs" if first["ar_tps_ci"] else None,
            replication="prompts",
            sources=[{"file": str(first["file"]), "lines": line_ranges(first["lines"])}],
            **common,
        )
    )
    nums.append(
        Number(
            key=make_key(EXPERIMENT, "decode_pass_ms"),
            value=round(decode_pass_ms(runs), 3),
            unit="ms",
            label="mean wall time of a 1-token decode pass on the GPU (the unit of r)",
            n=int(first["prompts"]),
            computation="benchbook.experiments.draftself.analysis.pass_costs",
            replication="prompts",
            sources=[{"file": str(first["file"]), "lines": line_ranges(first["lines"])}],
            **common,
        )
    )
    for t in train.iter_rows(named=True):
        for col, unit, label in (
            ("train_seconds", "s", "training wall time"),
            ("steps", "steps", "training steps"),
            ("held_out_loss_next", "nats", "held-out next-token loss"),
            ("n_params", "params", "model parameters"),
        ):
            nums.append(
                Number(
                    key=make_key(EXPERIMENT, f"t{t['session_id'][:8]}", col),
                    value=float(t[col]),
                    unit=unit,
                    label=f"draft-self GPU training {t['session_id'][:8]}: {label}",
                    n=1,
                    computation="benchbook.experiments.draftself_gpu.analysis.load_train",
                    sources=[{"file": str(t["file"]), "lines": [[t["line"], t["line"]]]}],
                    host_id=t["host_id"],
                    session_id=t["session_id"],
                    model_sha256=t["model_sha256"],
                    build=f"torch {t['torch_version']}, {t['device']}",
                    replication="none: one training",
                )
            )
    out = rep / EXPERIMENT
    out.mkdir(parents=True, exist_ok=True)
    tr = train.with_columns(
        session=pl.col("session_id").str.slice(0, 8),
        model=pl.col("model_sha256").str.slice(0, 12),
        tokenizer=pl.col("tokenizer_sha256").str.slice(0, 12),
        corpus=pl.col("corpus_sha256").str.slice(0, 12),
        files=pl.format("{} / {}", "train_files", "held_out_files"),
        params_m=pl.col("n_params") / 1e6,
    )
    out.joinpath("train.md").write_text(
        md_table(
            tr,
            {
                "session": ("session", 0),
                "device": ("GPU", 0),
                "torch_version": ("torch", 0),
                "params_m": ("params (M)", 1),
                "steps": ("steps", 0),
                "train_seconds": ("train s", 1),
                "epochs": ("epochs", 2),
                "final_loss_next": ("train loss (next)", 3),
                "final_loss_masked": ("train loss (masked)", 3),
                "held_out_loss_next": ("held-out loss (next)", 3),
                "model": ("checkpoint sha256", 0),
                "tokenizer": ("tokenizer sha256", 0),
                "corpus": ("corpus sha256", 0),
                "files": ("files train / held-out", 0),
            },
        )
    )
    curve_rows = []
    for t in train.iter_rows(named=True):
        for c in json.loads(t["curve"]):
            if c["step"] % 500 == 0 or c["step"] == t["steps"]:
                curve_rows.append({"session": t["session_id"][:8], **c})
    out.joinpath("curve.md").write_text(
        md_table(
            pl.DataFrame(curve_rows),
            {
                "session": ("session", 0),
                "step": ("step", 0),
                "loss_next": ("loss (next)", 3),
                "loss_masked": ("loss (masked)", 3),
                "elapsed_s": ("elapsed s", 1),
            },
        )
    )
    out.joinpath("by_k.md").write_text(
        md_table(
            table,
            {
                "k": ("k", 0),
                "prompts": ("prompts", 0),
                "tau": ("τ", 2),
                "tau_ci": ("τ 95% CI", 2),
                "alpha": ("α", 3),
                "r_draft": ("r_draft(k+1)", 2),
                "r_verify": ("r_verify(k+1)", 2),
                "tau_break_even": ("break-even τ*", 2),
                "ar_tps": ("AR tok/s", 1),
                "ds_tps": ("draft-self tok/s", 1),
                "speedup": ("speedup", 3),
                "speedup_ci": ("speedup 95% CI", 3),
                "predicted": ("cost model", 3),
                "residual": ("residual", 3),
                "equals_ar_all": ("output = AR", 0),
            },
        )
    )
    wide = (
        pp.filter(pl.col("decoder") == "draftself")
        .pivot(on="k", index=["prompt_id", "prompt_kind", "repeat_share"], values="tau")
        .sort("prompt_kind", "prompt_id")
    )
    ks = [c for c in wide.columns if c not in ("prompt_id", "prompt_kind", "repeat_share")]
    out.joinpath("per_prompt.md").write_text(
        md_table(
            wide,
            {
                "prompt_id": ("prompt", 0),
                "prompt_kind": ("kind", 0),
                "repeat_share": ("AR output repeated 4-grams", 2),
                **{k: (f"τ k={k}", 2) for k in ks},
            },
        )
    )
    out.joinpath("verdict.md").write_text(verdict_md(table))
    out.joinpath("facts.json").write_text(
        json.dumps({"decode_pass_ms": round(decode_pass_ms(runs), 3), "session_id": session}) + "\n"
    )
    publish(rep / "numbers" / f"{EXPERIMENT}.json", EXPERIMENT, nums, root=root, replication="prompts")
    return DraftselfGpuReport(numbers=nums, session_id=session, train=train, by_k=table, per_prompt=pp)

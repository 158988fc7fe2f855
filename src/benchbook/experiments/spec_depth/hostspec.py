"""The speculative experiment per host, as the depth page shows it (hosts.md) and publishes it.

Each host's newest speculative session that passes the checks (``measured.select``, policy
``speculative:hosts``, as the speculative report), one row per configuration over the session's prompts:

* ``speedup``: the mean over prompts of each prompt's speedup (``speculative.analysis.config_table``'s
  ``speedup_mean``: decode rate ÷ the same-session baseline's, paired by repetition), with its
  log-scale Student-t interval over the prompts (``stats.sample_interval``; none below 3 prompts);
* ``tau``: the mean over prompts of each prompt's pooled τ, with its interval over the prompts;
* ``model``: the mean over the prompts that have one of the llama-bench cost model's prediction
  τ/(k·c + r(k+1)) (``speculative.analysis.with_model``); ``residual`` = model ÷ speedup − 1;
* ``output_equal``: every prompt's greedy output equals its baseline's.

Each number carries the caveats of every (configuration, prompt) row it reads, judged by the
``speculative`` kind's rules with its own host's thresholds (``caveats.evaluate_per_host``), the
``few_prompts`` note when its interval is over fewer than ``min_prompts`` prompts, and, for the model
and the residual, the session's cost-model rules (``caveats.with_cost_caveats``).  It cites the
requests it read (the baseline's too for a speedup or residual) and the llama-bench cost rows
(``CostModel.used``) a model read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from benchbook import caveats, costmodel, measured
from benchbook.numbers import Number, Unit, build_of, line_ranges
from benchbook.stats import LOG_T, MIN_N_INTERVAL, sample_interval

from ..speculative import analysis as spec
from ..speculative.plan import planned as speculative_planned
from .cells import host_key

#: ``computation`` of every number of hosts.md.
COMPUTATION = "benchbook.experiments.spec_depth.hostspec.host_table"


def unstated_or(n: int, reason: str) -> str | None:
    """``ci_method`` of a number published without an interval: ``reason`` from ``MIN_N_INTERVAL`` values
    on, None below (``numbers.publish`` writes "none: n < 3")."""
    return reason if n >= MIN_N_INTERVAL else None


#: What varied between the n values a hosts.md number averages.
REPLICATION = "prompts (each prompt's value over its repetitions; one configuration of one session)"
#: Label, unit and whether the number has an interval over prompts, per published column.
WHAT = {
    "speedup": ("decode speedup against its own session's baseline, mean over prompts", Unit.SPEEDUP, True),
    "tau": ("τ, tokens committed per verify step, mean over prompts", Unit.TAU, True),
    "model": ("cost model τ/(k·c+r(k+1)) from llama-bench, mean over prompts", Unit.SPEEDUP, False),
    "residual": ("cost model ÷ measured speedup − 1 (both means over prompts)", Unit.FRACTION, False),
}


@dataclass
class HostSpec:
    """hosts.md's table (``table``: config_id, host_id, session_id, prompts, speedup, output_equal, tau,
    model, residual) and its published ``numbers``."""

    table: pl.DataFrame = field(default_factory=pl.DataFrame)
    numbers: list[Number] = field(default_factory=list)


def judged_sessions(
    raw: Path, thresholds: dict, hosts: dict[str, dict], confidence: float = 0.95
) -> list[tuple[pl.DataFrame, spec.CostModel | None]]:
    """Each host's newest publishable speculative session under ``raw/speculative``: its
    ``config_table`` (per configuration and prompt) with the cost model's columns (``with_model``),
    ``caveats`` (the ``speculative`` kind's rules, the host's own thresholds: ``hosts`` are the host
    snapshots by id, ``thresholds`` ``params["report"]``) and ``cost_caveats``; with its cost model."""
    req = spec.load(raw)
    if req.is_empty():
        return []
    table = spec.config_table(req, confidence)
    best = measured.select(
        "speculative:hosts",
        measured.check("speculative", raw / "speculative", speculative_planned(raw / "snapshots")),
    ).by_host()
    present = set(table["session_id"].to_list())
    out = []
    for check in sorted(best.values(), key=lambda c: str(c.host_id)):
        if check.session_id not in present:
            continue
        cost = spec.cost_model(raw / "speculative", check.session_id)
        rows = spec.with_model(table.filter(pl.col("session_id") == check.session_id), cost)
        # the cost model's own rule judges only the numbers built on it (cost_caveats)
        judged = caveats.evaluate_per_host(rows.drop("cost_r1"), "speculative", thresholds, hosts)
        out.append((caveats.with_cost_caveats(judged.with_columns(rows["cost_r1"]), thresholds), cost))
    return out


def _union(lists) -> list[str]:
    """The rule ids of ``lists`` (lists of rule ids), each once, in ``caveats.RULES`` order."""
    seen = {c for cs in lists for c in cs or []}
    return [r for r in caveats.RULES if r in seen]


def _cost_rows(cost: spec.CostModel | None, rows: pl.DataFrame) -> list[dict]:
    """The llama-bench rows (``CostModel.used``) the model of each of ``rows`` read: its draft's c and
    the r sizes around k + 1 (``costmodel.r_sizes_read``)."""
    if cost is None:
        return []
    keys = set()
    for r in rows.iter_rows(named=True):
        keys.add(f"c:{r['draft_model_id']}")
        keys |= {f"r{x}" for x in costmodel.r_sizes_read(cost.r, r["k_eff"] + 1)}
    return [u for k in sorted(keys) for u in cost.used.get(k, [])]


def _cited(rows: pl.DataFrame, used: list[dict], argv: list[list[str]]) -> dict:
    """The ``Number`` fields naming what a number read: the requests of ``rows`` (config_table rows)
    and the cost rows ``used`` (``argv``: their invocation's commands)."""
    by_file: dict[str, set[int]] = {}
    for r in rows.iter_rows(named=True):
        for f in r["files"]:
            by_file.setdefault(f, set()).update(r["lines"])
    for u in used:
        by_file.setdefault(u["file"], set()).add(u["line"])
    ids = [i for r in rows.iter_rows(named=True) for i in r["run_ids"]] + [u["run_id"] for u in used]
    commands = [list(a) for a in rows["argv"].to_list()] + (argv if used else [])
    starts = [x for x in rows["started_at"].to_list() + [u["started_at"] for u in used] if x]
    ends = [x for x in rows["ended_at"].to_list() + [u["ended_at"] for u in used] if x]
    return {
        "sources": [{"file": f, "lines": line_ranges(sorted(ls))} for f, ls in sorted(by_file.items())],
        "run_ids": list(dict.fromkeys(i for i in ids if i)),
        "commands": [list(c) for c in dict.fromkeys(tuple(c) for c in commands)],
        "measured_from": min(starts) if starts else None,
        "measured_to": max(ends) if ends else None,
    }


def _per_config(judged: pl.DataFrame, confidence: float) -> list[dict]:
    """One row of hosts.md per configuration of one session's ``judged`` table (``judged_sessions``), with
    what its numbers read: ``rows`` (its config_table rows), ``base`` (the baseline's rows of the same
    prompts), ``with_model`` (its rows that have a model) and each value's spread over prompts."""
    out = []
    for (cid,), g in judged.group_by("config_id", maintain_order=True):
        first = g.row(0, named=True)
        base = judged.filter(
            (pl.col("config_id") == "baseline") & pl.col("prompt_id").is_in(g["prompt_id"].to_list())
        )
        with_model = g.filter(pl.col("speedup_model").is_not_null())
        mean_speedup, speedup_sd, speedup_ci = sample_interval(g["speedup_mean"].to_list(), confidence)
        tau, tau_sd, tau_ci = sample_interval(g["tau"].to_list(), confidence)
        speedup = mean_speedup if math.isfinite(mean_speedup) else None
        model = float(with_model["speedup_model"].mean()) if with_model.height else None  # type: ignore[arg-type]
        out.append(
            {
                "config_id": cid,
                "host_id": first["host_id"],
                "session_id": first["session_id"],
                "prompts": g.height,
                "speedup": speedup,
                "output_equal": bool(g["output_equal"].all()),
                "tau": tau if math.isfinite(tau) else None,
                "model": model,
                "residual": model / speedup - 1 if model is not None and speedup else None,
                "first": first,
                "rows": g,
                "base": base if cid != "baseline" else base.clear(),
                "with_model": with_model,
                "spread": {"speedup": (speedup_sd, speedup_ci), "tau": (tau_sd, tau_ci)},
                "n": {
                    "speedup": int(g["speedup_mean"].is_not_null().sum()),
                    "tau": int(g["tau"].is_not_null().sum()),
                    "model": with_model.height,
                    "residual": int(g["speedup_mean"].is_not_null().sum()),
                },
            }
        )
    return out


def host_spec(
    raw: Path,
    thresholds: dict,
    hosts: dict[str, dict],
    toolchains: dict[str, dict],
    confidence: float = 0.95,
) -> HostSpec:
    """hosts.md's table and numbers (module docstring) from every host's newest publishable
    speculative session under ``raw/speculative``; ``toolchains``: the toolchain snapshots by id (the
    build label).  Empty when there is none."""
    shown, nums = [], []
    for judged, cost in judged_sessions(raw, thresholds, hosts, confidence):
        rows = _per_config(judged, confidence)
        # few_prompts: an interval over fewer prompts than the host's min_prompts (the engine's rule)
        few = caveats.evaluate_per_host(
            pl.DataFrame([{"host_id": r["host_id"], "prompts": r["n"]["speedup"]} for r in rows]),
            "speculative",
            thresholds,
            hosts,
            ["few_prompts"],
        )["caveats"].to_list()
        for r, few_prompts in zip(rows, few, strict=True):
            shown.append({k: r[k] for k in SHOWN})
            nums += _numbers(r, few_prompts, cost, toolchains)
    table = pl.DataFrame(shown, infer_schema_length=None).sort("config_id", "host_id") if shown else None
    return HostSpec(table=table if table is not None else pl.DataFrame(), numbers=nums)


#: The columns of hosts.md's table.
SHOWN = (
    "config_id",
    "host_id",
    "session_id",
    "prompts",
    "speedup",
    "output_equal",
    "tau",
    "model",
    "residual",
)


def _numbers(r: dict, few_prompts: list[str], cost: spec.CostModel | None, toolchains: dict) -> list[Number]:
    """The published numbers of one ``_per_config`` row ``r`` (``few_prompts``: the rule's verdict on
    its interval over prompts; ``cost``: the session's cost model)."""
    first, g = r["first"], r["rows"]
    used = _cost_rows(cost, r["with_model"])
    argv = cost.argv if cost else []
    reads = {  # the rows each number read and the llama-bench cost rows among them
        "speedup": (pl.concat([g, r["base"]]), []),
        "tau": (g.filter(pl.col("tau").is_not_null()), []),
        "model": (r["with_model"], used),
        "residual": (pl.concat([g, r["base"]]), used),
    }
    out = []
    for col, (label, unit, over_prompts) in WHAT.items():
        if r[col] is None:
            continue
        read, cost_used = reads[col]
        sd, ci = r["spread"][col] if over_prompts else (None, None)
        cav = [*g["caveats"].to_list()]
        if col in ("model", "residual"):  # built on the cost model: its rows' rule too
            cav += g["cost_caveats"].to_list()
        what = "speedups" if col == "speedup" else "τ"
        out.append(
            Number(
                key=str(host_key(r, col)),
                value=round(float(r[col]), 4),
                unit=unit,
                label=f"{r['config_id']} on host {r['host_id'][:8]} (speculative session "
                f"{r['session_id'][:8]}): {label}",
                n=r["n"][col],
                computation=COMPUTATION,
                sd=sd,
                ci95=[float(ci[0]), float(ci[1])] if ci else None,
                ci_method=f"{LOG_T} over per-prompt {what}"
                if ci
                else unstated_or(
                    r["n"][col], "none: a cost-model prediction or residual (a mean over prompts)"
                ),
                replication=REPLICATION,
                toolchain_id=first["toolchain_id"],
                **build_of(
                    toolchains.get(first["toolchain_id"]), first["build_number"], first["build_commit"]
                ),
                model_sha256=first["model_sha256"],
                host_id=r["host_id"],
                session_id=r["session_id"],
                caveats=_union([*cav, few_prompts if ci else []]),
                **_cited(read, cost_used, argv),
            )
        )
    return out

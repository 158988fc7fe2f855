"""The speculative-decoding report: per-configuration table with caveats, cost model, memory slope,
numbers registry entries and charts.

Called by ``notebooks/report.ipynb`` (``-p experiment speculative``); reads only committed raw data
(``data/raw/speculative/*.jsonl``), so it runs on a fresh clone without models or binaries.
Headline speedups come from configurations with a fresh server per repetition; ``same``-policy rows
are probes of state carried between requests and carry the ``cross_request_state`` caveat when α, the
drafted tokens or the per-repetition speedup rise: such a row publishes its per-repetition speedups and
their trend, never a pooled speedup.  Warm requests (prompt tokens reused from the cache) are their own
rows (keys end in ``-warm``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import altair as alt
import numpy as np
import polars as pl

from benchbook import atomicfile, blocks, caveats, charts, costmodel, measured
from benchbook.experiments import drift, reporting
from benchbook.hosts import hosts_panel
from benchbook.numbers import (
    NO_INTERVAL_POOLED,
    NO_INTERVAL_SLOPE,
    Number,
    Unit,
    build_of,
    make_key,
    row_measured,
    row_sources,
)
from benchbook.numfmt import fmt_interval
from benchbook.stats import LOG_T
from benchbook.wording import zero_word

from . import analysis as sp
from . import server_cost_report
from .plan import planned

#: Caveat rules this table asks for (those that exist in ``caveats.RULES`` are applied).
WANTED_RULES = [
    "cap_hit",
    "single_run",
    "high_variance",
    "warm_prompt_cache",
    "cross_request_state",
    "output_mismatch",
    "acceptance_without_speedup",
    "slower_than_baseline",
    "cap_by_design",
    "acceptance_definition_mismatch",
    "host_or_build_mismatch",
    "busy_host",
]


#: What varied between the n samples of a speculative number.
REPLICATION = "repetitions of one request (same prompt and configuration, one session)"
PAIRED = "repetitions of one request, paired by repetition index with the same-session baseline"


def _num(
    key,
    value,
    unit,
    label,
    row,
    *,
    n=None,
    sd=None,
    ci=None,
    ci_method=None,
    computation,
    cav=None,
    replication=REPLICATION,
    no_ci=None,
):
    """A ``Number`` of table row ``row`` (its build, sources, run ids, command, host, session and span).
    ``ci_method`` names the interval ``ci``; without one, ``no_ci`` says why there is none (e.g.
    ``numbers.NO_INTERVAL_POOLED``)."""
    has_ci = bool(ci and ci[0] is not None)
    n = int(n if n is not None else row["n"])
    return Number(
        key=key,
        value=round(float(value), 4),
        unit=unit,
        label=label,
        n=n,
        **{k: row[k] for k in ("build", "build_number", "build_commit")},
        sd=sd,
        ci95=[float(ci[0]), float(ci[1])] if has_ci else None,
        ci_method=ci_method if has_ci else no_ci,
        replication=replication,
        sources=row_sources(row),
        run_ids=list(row["run_ids"]),
        **row_measured(row),
        caveats=list(cav if cav is not None else row["caveats"]),
        computation=computation,
    )


def check_publishable(table: pl.DataFrame, nums: list[Number], mem: pl.DataFrame) -> None:
    """The report's checks of its table, run before the registry is written (``numbers.publish`` checks
    every number: unique keys, finite values, units, intervals, citations, commands): one decode-rate
    number per (configuration, prompt) row and one memory slope per memory row; a baseline row per
    prompt with speedup 1; α in [0, 1] and null for plain decoding; τ >= 1; an interval for every
    speculative speedup with n >= 3; output equality known for every row.

    Raises:
        RuntimeError: naming the check that failed (nothing was published).
    """
    keys = [n.key for n in nums]
    want_decode = sorted(
        make_key("spec", r["config_id"], r["prompt_id"]) + "-decode" for r in table.iter_rows(named=True)
    )
    plain = table.filter(pl.col("spec_type") == "none")
    base = table.filter(pl.col("config_id") == "baseline")
    checks = [
        (
            sorted(k for k in keys if k.endswith("-decode")) == want_decode,
            "a (configuration, prompt) has no decode number",
        ),
        (
            sum(k.startswith("spec-mem-slope-") for k in keys) == mem.height,
            "a memory row has no slope number",
        ),
        (
            base.height == table["prompt_id"].n_unique() and bool((base["speedup_mean"] == 1.0).all()),
            "a prompt has no baseline",
        ),
        (plain["alpha"].null_count() == plain.height, "plain decoding has an α"),
        (
            bool(table.filter(pl.col("alpha").is_not_null())["alpha"].is_between(0, 1).all()),
            "an α outside [0, 1]",
        ),
        (bool((table["tau"] >= 1).all()), "a τ below 1"),
        (
            table.filter((pl.col("n") >= 3) & (pl.col("config_id") != "baseline"))[
                "speedup_ci_low"
            ].null_count()
            == 0,
            "a speedup with n >= 3 has no interval",
        ),
        (table["output_equal"].null_count() == 0, "output equality unknown for a row"),
    ]
    failed = [what for ok, what in checks if not ok]
    if failed:
        raise RuntimeError(f"speculative: {'; '.join(failed)}; nothing was published")


def memory_sentence(nums: list[Number], key: str = "spec-mem-slope-draft-simple-smollm2-135m-q4_1") -> str:
    """The page's sentence on memory per draft token, its words from the slope and its interval
    (``wording.zero_word``); empty when the session has no such slope."""
    num = next((n for n in nums if n.key == key), None)
    if num is None:
        return ""
    word = zero_word(num.value, num.ci95)
    meaning = (
        "no memory cost per draft token is measurable here"
        if word == "about zero"
        else f"each extra draft token changes peak RSS (the interval lies {word})"
    )
    return (
        f"Memory per extra draft token (slope of peak RSS over n_max for the self-draft sweep): "
        f"{{{{< var {key} >}}}}, {word}: {meaning}. The method (a slope with its interval) is what transfers "
        "to models whose draft branches copy state.\n"
    )


def _r_keys(r: dict[int, float], n: float) -> list[str]:
    """``CostModel.used`` keys of the r sizes ``costmodel.r_at(r, n)`` reads (``costmodel.r_sizes_read``)."""
    return [f"r{x}" for x in costmodel.r_sizes_read(r, n)]


def _with_denominator(row: dict, baseline: dict | None) -> dict:
    """``row`` citing also ``baseline``'s records (the requests a speedup is divided by)."""
    if baseline is None or baseline is row:
        return row
    return {
        **row,
        "lines": sorted({*row["lines"], *baseline["lines"]}),
        "files": sorted({*row["files"], *baseline["files"]}),
        "run_ids": [*row["run_ids"], *[x for x in baseline["run_ids"] if x not in set(row["run_ids"])]],
        "started_at": min(row["started_at"], baseline["started_at"]),
        "ended_at": max(row["ended_at"], baseline["ended_at"]),
    }


def _with_cost_rows(row: dict, cost: sp.CostModel, keys: list[str], only: bool = False) -> dict:
    """``row`` citing the cost-model rows that ``keys`` (``CostModel.used``) read; ``only``: those rows
    alone (a cost number), else added to the row's own records (a speedup model), with their run ids
    and times."""
    used = [u for k in keys for u in cost.used.get(k, [])]
    if not used:
        return row
    lines = {u["line"] for u in used} | (set() if only else set(row["lines"]))
    files = {u["file"] for u in used} | (set() if only else set(row["files"]))
    ids = list(dict.fromkeys([*([] if only else row["run_ids"]), *(u["run_id"] for u in used)]))
    starts = [u["started_at"] for u in used if u["started_at"]] + ([] if only else [row["started_at"]])
    ends = [u["ended_at"] for u in used if u["ended_at"]] + ([] if only else [row["ended_at"]])
    return {
        **row,
        "lines": sorted(lines),
        "files": sorted(files),
        "run_ids": ids,
        "started_at": min((x for x in starts if x), default=None),
        "ended_at": max((x for x in ends if x), default=None),
    }


@dataclass
class Tables:
    """The tables of the published session (``tables``): its ``session`` (id, host), its requests
    (``req``) and every session's (``all_req``, for the server-cost table), the configuration ``table``
    (judged: ``caveats``, ``cost_caveats``) with each rule's ``status`` and the rules asked for that do
    not exist (``missing``), its cost model (``cost``) and memory slopes (``mem``); ``sc_table`` and
    ``sc_nums``: the server-cost table and its numbers (filled by ``table_numbers``)."""

    session: dict
    req: pl.DataFrame
    all_req: pl.DataFrame
    table: pl.DataFrame
    status: dict[str, str]
    missing: list[str]
    cost: sp.CostModel | None
    mem: pl.DataFrame
    rules: list[str]
    sc_table: pl.DataFrame = field(default_factory=pl.DataFrame)
    sc_nums: list[Number] = field(default_factory=list)


def tables(inputs: reporting.Inputs, session_id: str | None = None) -> Tables:
    """The configuration table of the session the ``speculative`` policy publishes (``session_id``: one
    to report instead) with its cost model, builds and acceptance definition, judged by the
    ``speculative`` rules (``WANTED_RULES``) with the thresholds of its host (``Inputs.thresholds``) and
    its cost rows checked (``caveats.with_cost_caveats``: only the numbers built on the cost model carry
    what fires); and its memory slopes.

    Raises:
        RuntimeError: the session has no completed requests."""
    raw_dir, thresholds, confidence = inputs.where.folder, inputs.report, inputs.confidence
    if session_id is None:
        chosen = inputs.selection.chosen
        assert chosen is not None  # publish_report refuses a selection without one
        sess: dict = {"session_id": chosen.session_id, "host_id": chosen.host_id, "at": chosen.ended_at}
    else:
        sess = {"session_id": session_id, "host_id": None}
    sid = str(sess["session_id"])
    all_req = sp.load_requests(raw_dir)
    req = all_req.filter(pl.col("session_id") == sid)
    if req.is_empty():
        raise RuntimeError(f"session {sid} has no completed requests in {raw_dir}")
    sess["host_id"] = sess.get("host_id") or req["host_id"][0]
    table = sp.config_table(req, confidence)
    cost = sp.cost_model(raw_dir, sid)
    table = sp.with_model(table, cost)
    tcs = inputs.toolchains
    builds = [
        build_of(tcs.get(r["toolchain_id"]), r["build_number"], r["build_commit"])
        for r in table.select("toolchain_id", "build_number", "build_commit").iter_rows(named=True)
    ]
    table = table.with_columns(
        pl.Series("build", [b["build"] for b in builds], dtype=pl.String),
        pl.Series("build_number", [b["build_number"] for b in builds], dtype=pl.Int64),
        pl.Series("build_commit", [b["build_commit"] for b in builds], dtype=pl.String),
    )
    table = table.with_columns(
        pl.Series(
            "acceptance_definition",
            [sp.acceptance_definition(b) for b in table["build_number"].to_list()],
            dtype=pl.String,
        )
    )
    hosts = inputs.hosts
    rules = [r for r in WANTED_RULES if r in caveats.RULES]
    missing = [r for r in WANTED_RULES if r not in caveats.RULES]
    thr = caveats.host_thresholds(thresholds, hosts.get(str(sess["host_id"])))
    table, status = caveats.evaluate(table, "speculative", thr, rules)
    # the cost model's own rows (its r(1) check): on the numbers built on it only (model, c, r, t1)
    table = caveats.with_cost_caveats(table, thr)
    mem = sp.memory_slopes(req, confidence)
    return Tables(sess, req, all_req, table, status, missing, cost, mem, rules)


def table_numbers(inputs: reporting.Inputs, t: Tables) -> list[Number]:
    """The page's numbers (decode rates, speedups, α, τ, cost-model speedups and terms, memory slopes)
    and the server-cost table's (every session, every host), checked (``check_publishable``)."""
    raw_dir, thresholds, hosts, tcs = inputs.where.folder, inputs.report, inputs.hosts, inputs.toolchains
    table, cost, mem, rules, all_req = t.table, t.cost, t.mem, t.rules, t.all_req
    sid = str(t.session["session_id"])
    baselines = {
        b["prompt_id"]: b for b in table.filter(pl.col("config_id") == "baseline").iter_rows(named=True)
    }
    nums: list[Number] = []
    for r in table.iter_rows(named=True):
        warm = r["cache_state"] == "warm"
        base = make_key("spec", r["config_id"], r["prompt_id"], *(["warm"] if warm else []))
        # a speedup reads the configuration's requests and the baseline's requests it is divided by
        paired = _with_denominator(r, baselines.get(r["prompt_id"]))
        label = f"{r['config_id']} on {r['prompt_id']}" + (
            f" (warm prompt cache, {r['warm_share']:.0%} of prompt tokens reused)" if warm else ""
        )
        nums.append(
            _num(
                f"{base}-decode",
                r["decode_tps_mean"],
                Unit.TOK_S,
                f"decode rate, {label}",
                r,
                sd=r["decode_tps_sd"],
                ci=[r["decode_tps_ci_low"], r["decode_tps_ci_high"]],
                ci_method=LOG_T + " over per-repetition rates",
                computation="benchbook.experiments.speculative.analysis.config_table",
            )
        )
        if warm and r["warm_share"] is not None:
            nums.append(
                _num(
                    f"{base}-warm_share",
                    r["warm_share"],
                    Unit.FRACTION,
                    f"warm share: prompt tokens reused from the cache ÷ prompt tokens, {label}",
                    r,
                    computation="benchbook.experiments.speculative.analysis.config_table (warm_share)",
                )
            )
        if r["config_id"] != "baseline" and "cross_request_state" in r["caveats"]:
            nums.extend(_per_repetition(paired, base, label))  # each divided by the baseline
        elif r["config_id"] != "baseline" and r["speedup_mean"] is not None:
            nums.append(
                _num(
                    f"{base}-speedup",
                    r["speedup_mean"],
                    Unit.SPEEDUP,
                    f"decode speedup vs same-session baseline, {label} ({r['speedup_verdict']})",
                    paired,
                    ci=[r["speedup_ci_low"], r["speedup_ci_high"]],
                    ci_method=LOG_T + " over paired per-repetition ratios",
                    computation="benchbook.experiments.speculative.analysis.config_table",
                    n=r["speedup_n"],
                    replication=PAIRED,
                )
            )
        if r["alpha"] is not None:
            nums.append(
                _num(
                    f"{base}-alpha",
                    r["alpha"],
                    Unit.FRACTION,
                    f"acceptance α, {label} ({r['accepted']}/{r['drafted']}; draft_n counts "
                    f"{r['acceptance_definition'] or 'unknown (build)'})",
                    r,
                    computation="benchbook.experiments.speculative.analysis.alpha (pooled over repetitions)",
                    no_ci=NO_INTERVAL_POOLED,
                )
            )
            if r["tau"] is not None:  # null: verify steps not recorded (τ unknown, not 1)
                nums.append(
                    _num(
                        f"{base}-tau",
                        r["tau"],
                        Unit.TAU,
                        f"tokens per verify step τ, {label}",
                        r,
                        no_ci=NO_INTERVAL_POOLED,
                        computation="benchbook.experiments.speculative.analysis.tau (pooled)",
                    )
                )
        if r["speedup_model"] is not None:
            nums.append(
                _num(
                    f"{base}-model",
                    r["speedup_model"],
                    Unit.SPEEDUP,
                    f"cost-model speedup τ/(k·c+r(k+1)), {label}",
                    _with_cost_rows(r, cost, [f"c:{r['draft_model_id']}", *_r_keys(cost.r, r["k_eff"] + 1)])
                    if cost
                    else r,
                    computation="benchbook.experiments.speculative.analysis.with_model",
                    cav=[*r["caveats"], *r["cost_caveats"]],
                    no_ci=NO_INTERVAL_POOLED,
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
            "caveats": table["cost_caveats"].to_list()[0],  # the session's cost model: one r(1), every row
            **{k: table[k][0] for k in ("build", "build_number", "build_commit")},
        }
        n_rep = int(cost.n or 1)
        for did, c in cost.c.items():
            nums.append(
                _num(
                    make_key("spec-cost-c", did),
                    c,
                    Unit.SPEEDUP,
                    f"draft cost c of {did} (per token ÷ target decode step)",
                    _with_cost_rows(crow, cost, [f"c:{did}"], only=True),
                    n=n_rep,
                    no_ci=NO_INTERVAL_POOLED,
                    computation="benchbook.experiments.speculative.analysis.cost_model",
                )
            )
        for n, ratio in cost.r.items():
            nums.append(
                _num(
                    make_key("spec-cost-r", n),
                    ratio,
                    Unit.SPEEDUP,
                    f"r({n}): target {n}-token pass ÷ 1-token decode step",
                    _with_cost_rows(crow, cost, [f"r{n}"], only=True),
                    n=n_rep,
                    no_ci=NO_INTERVAL_POOLED,
                    computation="benchbook.experiments.speculative.analysis.cost_model",
                )
            )
        nums.append(
            _num(
                "spec-cost-t1",
                cost.t1_ms,
                Unit.MS,
                "target decode step (llama-bench tg)",
                _with_cost_rows(crow, cost, ["t1"], only=True),
                n=n_rep,
                no_ci=NO_INTERVAL_POOLED,
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
                Unit.MIB_PER_DRAFT_TOKEN,
                f"peak RSS slope over n_max ({m['spec_type']}, draft {m['draft_model_id']})",
                mrow,
                n=m["n_points"],
                ci=[m["ci_low"], m["ci_high"]],
                ci_method="student-t on the least-squares slope (n-2 df)",
                replication="requests over the n_max sweep (one session)",
                computation="benchbook.experiments.speculative.analysis.memory_slopes",
            )
        )
    # the cost model against the time measured in the server: every session, every host
    sc_table, sc_costs = server_cost_report.sessions_table(Path(raw_dir), all_req)
    sc_table = server_cost_report.with_caveats(sc_table, hosts, thresholds, rules)
    sc_nums = server_cost_report.numbers(sc_table, sc_costs, tcs)
    nums.extend(sc_nums)
    t.sc_table, t.sc_nums = sc_table, sc_nums
    check_publishable(table, nums, mem)  # before the registry is written: a failure leaves the old one
    return nums


#: what the speculative experiment plugs into the one report pipeline (``reporting.publish_report``):
#: the primary host's newest session whose runs are all those its start record plans
REPORT = reporting.Report(
    "speculative",
    table=lambda inputs: tables(inputs),
    numbers=table_numbers,
    replication=REPLICATION,
    planned=lambda inputs: planned(inputs.where.snapshots),
    fix="`dvc repro -f -s speculative`",
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
    params: dict | None = None,
) -> SpeculativeReport:
    """Compute and write everything for the newest completed session of ``thresholds["primary_host"]``
    (any host's newest when that host has none, or ``session_id``); ``out_dir/hosts.md``: every host's
    newest complete session side by side (``hosts.hosts_panel``).

    Writes under ``out_dir``: ``configs.parquet`` (the caveat-engine contract table + cost-model
    columns + ``caveats``), ``memory.parquet``, ``cost_model.json``, charts ``spec_speedup_alpha``,
    ``spec_acceptance``, ``spec_memory``; and the numbers registry file ``numbers_path``.
    Returns a ``SpeculativeReport``.  With ``params`` (the whole params.yaml), ``skipped.md`` also says
    whether the published session ran other parameters than params.yaml asks now (``drift.of_sessions``).

    Raises:
        RuntimeError: no completed speculative session under ``raw_dir`` (fix: run the measurement).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    where = reporting.Where(Path(raw_dir), Path(snapshots_dir), out_dir, Path(numbers_path), root)
    spec = dataclasses.replace(REPORT, table=functools.partial(tables, session_id=session_id))
    done = reporting.publish_report(spec, params, where, {**thresholds, "confidence": confidence})
    t, nums, hosts = done.table, done.numbers, done.inputs.hosts
    sess, req, table, cost, mem = t.session, t.req, t.table, t.cost, t.mem
    sc_table, sc_nums = t.sc_table, t.sc_nums
    # the page names the sessions skipped (none when a session was named)
    picked = done.inputs.selection
    skipped, published = (picked.skipped, picked.published) if session_id is None else ([], [])
    sid = str(sess["session_id"])
    atomicfile.write_text(out_dir / "hosts.md", hosts_panel(Path(raw_dir).parent, "speculative", sid))
    atomicfile.write_with(out_dir / "configs.parquet", table.write_parquet)
    if not mem.is_empty():
        atomicfile.write_with(out_dir / "memory.parquet", mem.write_parquet)
    atomicfile.write_text(
        out_dir / "cost_model.json", json.dumps(asdict(cost) if cost else {}, indent=1, default=str)
    )
    fails = sp.load_failures(raw_dir)
    n_fail = 0 if fails.is_empty() else fails.filter(pl.col("session_id") == sid).height
    atomicfile.write_text(out_dir / "memory.md", memory_sentence(nums))
    drifted = (
        drift.of_sessions("speculative", raw_dir, {sid: sess.get("host_id")}, params, hosts)
        if params is not None
        else {}
    )
    page = measured.skipped_markdown(
        skipped, drift=drifted, published=published, primary_host=thresholds.get("primary_host")
    )
    atomicfile.write_text(out_dir / "skipped.md", page)
    server_cost_report.write(out_dir, sc_table, sc_nums)

    _charts(table, req, cost, out_dir)
    return SpeculativeReport(
        table=table,
        memory=mem,
        cost=cost,
        numbers=nums,
        session=sess,
        rule_status=t.status,
        missing_rules=t.missing,
        failures=n_fail,
    )


def _per_repetition(row: dict, base: str, label: str) -> list[Number]:
    """A ``cross_request_state`` configuration's speedup as it is: one number per repetition
    (``<base>-speedup-rep<i>``, n = 1, each against the baseline's repetition i) and the least-squares
    trend over the repetition index (``<base>-speedup-trend``, × per repetition), never a pooled mean.
    ``row`` cites the baseline's requests too (``_with_denominator``): every ratio is divided by them."""
    out = []
    comp = "benchbook.experiments.speculative.analysis.config_table (speedup_reps)"
    for i, v in enumerate(row["speedup_reps"]):
        if v is None:
            continue
        out.append(
            _num(
                f"{base}-speedup-rep{i}",
                v,
                Unit.SPEEDUP,
                f"decode speedup of repetition {i} (one server for every repetition), {label}",
                row,
                n=1,
                computation=comp,
                replication="one repetition",
            )
        )
    if row["speedup_trend_slope"] is not None:
        out.append(
            _num(
                f"{base}-speedup-trend",
                row["speedup_trend_slope"],
                Unit.SPEEDUP_TREND,
                f"trend of the per-repetition speedup (state carried between requests), {label}",
                row,
                n=sum(1 for v in row["speedup_reps"] if v is not None),
                computation="benchbook.experiments.speculative.analysis.rep_trend",
                replication="repetitions served by one server process",
                no_ci=NO_INTERVAL_SLOPE,
            )
        )
    return out


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
                rk = costmodel.r_at(cost.r, k + 1)
                if rk is None:  # r(k+1) not measured: no model curve (with_model leaves it null too)
                    continue
                for a in np.linspace(0, 1, 41):
                    curves.append(
                        {
                            "alpha": float(a),
                            "model_speedup": costmodel.speedup_model(
                                costmodel.tau_independent(a, k), k, c, rk
                            ),
                            # short: the legend names every curve (draft without the target's name)
                            "curve": f"k={k}, c={c:.2f} ({short_draft})",
                        }
                    )
    tips = [
        alt.Tooltip("config_id:N"),
        alt.Tooltip("prompt_id:N"),
        alt.Tooltip("spec_type:N"),
        alt.Tooltip("n_max:Q", format="d"),
        alt.Tooltip("alpha:Q", format=".3~g"),
        alt.Tooltip("tau:Q", format=".3~g"),
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
                    alt.Tooltip("alpha:Q", format=".3~g"),
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
                alt.Tooltip("peak_rss_mib:Q", format=",.4~r", title="peak RSS (MiB, this request)"),
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
        thresholds=caveats.check_report(params.get("report")),
        confidence=caveats.check_report(params.get("report"))["confidence"],
        root=root,
        params=params,
    )


def sections(res: SpeculativeReport, paths: blocks.Paths) -> Iterator[blocks.Block]:
    """What the report notebook shows (``notebooks/report.ipynb -p experiment speculative``, through
    ``blocks.show``): the session, the per-configuration table, prefill, the cost model and its check
    against the server's own timing, the charts, state carried between requests, memory, answers, every
    published number, then the checks (``AssertionError`` on a failed one)."""
    from benchbook.numtable import frame_table, numbers_table

    def table(frame: pl.DataFrame) -> blocks.Markdown:
        return blocks.Markdown(frame_table(frame))

    rep = paths.reports_dir / "speculative"
    T = res.table
    yield blocks.Markdown(
        "# Speculative decoding report\nFrom the raw requests of the latest completed `speculative` session: "
        "α = accepted ÷ drafted, τ = 1 + accepted ÷ verify steps (verify steps from `/metrics` "
        "`spec_decode_num_drafts_total`), decode and prefill rates separately (llama-server's own "
        "`timings`), speedup against the same-session baseline on the same prompt (log-scale Student-t over "
        "paired per-repetition ratios; no interval below n = 3), token-id equality with the baseline, memory "
        "slope over n_max, and the cost model τ / (k·c + r(k+1)) with c and r(n) from llama-bench runs in "
        "the same session (Leviathan et al. 2023)."
    )
    yield blocks.Value(
        {
            "session": res.session["session_id"],
            "configs": T["config_id"].n_unique(),
            "prompts": T["prompt_id"].n_unique(),
            "failed_runs": res.failures,
            "caveat rules missing": res.missing_rules,
        }
    )
    yield blocks.Markdown("## Per configuration and prompt")
    yield table(
        T.select(
            "config_id",
            "prompt_id",
            "n",
            pl.col("decode_tps_mean").round(1),
            pl.col("speedup_mean").round(3),
            pl.col("speedup_ci_low").round(3),
            pl.col("speedup_ci_high").round(3),
            pl.col("alpha").round(3),
            pl.col("tau").round(2),
            pl.col("k_eff").round(2),
            pl.col("speedup_model").round(3),
            "output_equal",
            "first_mismatch_pos",
            "cap_hit",
            "server_policy",
            pl.col("caveats").list.join(", "),
        )
    )
    yield blocks.Markdown(
        "## Prefill (never mixed with decode)\nA draft model processes the prompt too, so prefill slows down "
        "with a draft."
    )
    yield table(
        T.select(
            "config_id",
            "prompt_id",
            pl.col("prefill_tps_mean").round(1),
            pl.col("prefill_tps_ci_low").round(1),
            pl.col("prefill_tps_ci_high").round(1),
        )
    )
    yield blocks.Markdown(
        "## Cost model\n`c`: draft decode time per token ÷ target decode time per token; `r(n)`: target "
        "n-token pass ÷ target 1-token decode step (llama-bench `-p n` vs `-n`, same build, same session). "
        "The target as its own draft has c = 1, so τ/(k + r(k+1)) ≤ (k+1)/(k + r(k+1)) < 1 whenever r(k+1) > "
        "1: even at α = 1 it cannot win, because its draft is produced token by token at full cost and the "
        "verify pass is extra work."
    )
    cost = res.cost
    yield blocks.Value({"t1_ms": cost.t1_ms, "r": cost.r, "c": cost.c} if cost else {})
    yield blocks.Markdown(
        "## Cost model against the time measured inside llama-server\nEvery draft-model configuration of "
        "every complete session (each host): the measured speedup (pooled decode rate ÷ the session's "
        "baseline's), the model before (llama-bench c, r) and after (c_server: the drafting time the server "
        "measured at `-lv 4`), the measured components per verify step, and the model with the per-step "
        "overhead fitted on the session's other configurations. Residual = model ÷ measured − 1; null "
        '"after" columns: the session did not run at `-lv 4`.'
    )
    sc_path = rep / "server_cost.parquet"
    if sc_path.exists():
        yield table(
            pl.read_parquet(sc_path).select(
                pl.col("host_id").str.slice(0, 8),
                pl.col("session_id").str.slice(0, 8),
                "config_id",
                "lv4",
                "n",
                *(
                    pl.col(c).round(3)
                    for c in (
                        "measured",
                        "model_before",
                        "residual_before",
                        "model_after",
                        "residual_after",
                        "c_bench",
                        "c_server",
                        "r_k1",
                        "v_server",
                    )
                ),
                *(pl.col(c).round(2) for c in ("draft_ms", "verify_ms", "verify_bench_ms", "overhead_ms")),
                *(pl.col(c).round(3) for c in ("beta_loo", "model_overhead", "residual_overhead")),
            )
        )
    yield blocks.Svg(rep / "spec_speedup_alpha.svg")
    yield blocks.Markdown("## Acceptance per prompt")
    yield blocks.Svg(rep / "spec_acceptance.svg")
    yield blocks.Markdown(
        "## State carried between requests\n`same`-policy configurations serve every repetition from one "
        "server; a rising α, rising drafted tokens or a rising per-repetition speedup (slopes per "
        "repetition) means the drafter learned from earlier requests (the previous answer to the same "
        "prompt). Such rows publish per-repetition speedups and the trend, never a pooled speedup; headline "
        "speedups use fresh servers only."
    )
    yield table(
        T.filter(pl.col("server_policy") == "same").select(
            "config_id",
            "prompt_id",
            "alpha",
            "alpha_trend_slope",
            "accepted_frac_trend_slope",
            "drafted_reps",
            "drafted_trend_rel",
            "speedup_reps",
            "speedup_trend_slope",
            pl.col("caveats").list.join(", "),
        )
    )
    yield blocks.Markdown("## Memory per draft token")
    yield blocks.Svg(rep / "spec_memory.svg")
    yield table(res.memory)
    yield blocks.Markdown(
        "## Answers\nThe probability prompt's answer 15/28 is checked in every output (`answer_ok`: fraction "
        "of repetitions)."
    )
    yield table(
        T.filter(pl.col("answer_ok").is_not_null()).select("config_id", "prompt_id", "answer_ok", "cap_hit")
    )
    yield blocks.Markdown(
        "## Numbers published\n\nEvery number of the registry, its key linking to its provenance entry "
        "(records, command, build, model, host)."
    )
    yield blocks.Markdown(numbers_table(res.numbers, to_root=paths.to_root))
    yield blocks.Markdown("## Checks")
    keys = [n.key for n in res.numbers]
    assert len(set(keys)) == len(keys)
    # one decode-rate number per (configuration, prompt) row, one memory slope per memory row
    assert sorted(k for k in keys if k.endswith("-decode")) == sorted(
        make_key("spec", r["config_id"], r["prompt_id"]) + "-decode" for r in T.iter_rows(named=True)
    )
    assert sum(k.startswith("spec-mem-slope-") for k in keys) == res.memory.height
    base = T.filter(pl.col("config_id") == "baseline")
    assert base.height == T["prompt_id"].n_unique() and (base["speedup_mean"] == 1.0).all()
    plain = T.filter(pl.col("spec_type") == "none")
    assert plain["alpha"].null_count() == plain.height
    assert (T.filter(pl.col("alpha").is_not_null())["alpha"].is_between(0, 1)).all()
    assert (T["tau"] >= 1).all()
    speculative = T.filter((pl.col("speedup_n") >= 3) & (pl.col("config_id") != "baseline"))
    assert speculative["speedup_ci_low"].null_count() == 0
    assert (T.filter(pl.col("speedup_ci_low").is_not_null())["speedup_ci_low"] > 0).all()
    assert T["output_equal"].null_count() == 0
    assert all(n.sources and n.commands for n in res.numbers)
    assert [c for c in caveats.SPECULATIVE_COLUMNS if c not in T.columns] == []
    yield blocks.Text(f"ok: {T.height} rows, {len(res.numbers)} numbers")

"""Every published number recomputes from the records it cites, and nothing else (issue 13 §3).

The kinds are enumerated from the registries that the report stages build from the committed raw
data (``reports/numbers/*.json``): a kind is a number's ``(computation, unit)``.  Each kind has a
recompute in ``RECOMPUTE`` below that reads only the number's cited lines (``sources``: file and line
ranges) and its key; a kind without one fails ``test_every_kind_has_a_recompute``, and a number whose
cited records do not give its value fails ``test_every_number_recomputes_from_its_cited_records``
(a citation that leaves out a record the computation read, a denominator, a cost row, is that bug).
The arithmetic is written out here, independently of the analysis code; only the pure formulas of
the design (``costmodel.r_at``'s interpolation, the independent-routing bound) are shared.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import yaml

from benchbook.costmodel import r_at
from benchbook.draftself.experts import independent_bound
from benchbook.numbers import make_key
from conftest import committed_root
from test_registry_fixture import EXPERIMENTS  # every experiment that publishes numbers


@pytest.fixture(scope="module")
def registry(tmp_path_factory) -> dict[str, dict]:
    """``{key: number}`` of every registry built from the committed raw data by the reports."""
    import importlib

    out = tmp_path_factory.mktemp("reports")
    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    for name in EXPERIMENTS:
        report = importlib.import_module(f"benchbook.experiments.{name}.report")
        report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=out)
    numbers: dict[str, dict] = {}
    for name in EXPERIMENTS:
        numbers |= json.loads((out / "numbers" / f"{name}.json").read_text())["numbers"]
    return numbers


_LINES: dict[Path, list[str]] = {}


def cited_lines(num: dict) -> list[str]:
    """The raw text of every line ``num`` cites (its ``sources``), read from the committed files alone."""
    root = committed_root()
    out = []
    for src in num["sources"]:
        path = Path(src["file"]) if Path(src["file"]).is_absolute() else root / src["file"]
        if path not in _LINES:
            _LINES[path] = path.read_text().splitlines()
        for first, last in src["lines"]:
            out += _LINES[path][first - 1 : last]
    return out


def cited(num: dict) -> list[dict]:
    """The records (JSON lines) ``num`` cites; a line of a pretty-printed JSON file (the training
    manifest) is not a record: ``{"_text": line}``."""
    out = []
    for line in cited_lines(num):
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            out.append({"_text": line, "schema": None})
    return out


# --- llama-bench rows -----------------------------------------------------------------------------


def _rates(row: dict) -> list[float]:
    """Per-repetition rates of a llama-bench row: (n_prompt + n_gen) tokens ÷ each sample (tok/s)."""
    return [1e9 * (row["n_prompt"] + row["n_gen"]) / s for s in row["samples_ns"]]


def _one_row(recs: list[dict]) -> dict:
    (rec,) = recs  # a rate number cites exactly its one row
    return rec["llama_bench"]


def lb_mean(num, recs):
    return statistics.mean(_rates(_one_row(recs)))


def lb_median(num, recs):
    return statistics.median(_rates(_one_row(recs)))


def lb_mean_rest(num, recs):
    return statistics.mean(_rates(_one_row(recs))[1:])  # without the cold first sample


# --- llama-server requests (speculative) ----------------------------------------------------------


def _requests(recs):
    return [r for r in recs if r["schema"] == "benchbook.speculative_request"]


def _decode(r) -> float:
    t = r["timings"]
    return 1e3 * (t["predicted_n"] - 1) / t["predicted_ms"]


def _split_baseline(recs) -> tuple[dict[int, dict], dict[int, dict]]:
    """(configuration's requests by rep, baseline's by rep) among the cited requests."""
    reqs = _requests(recs)
    mine = {r["rep"]: r for r in reqs if r["config"]["config_id"] != "baseline"}
    base = {r["rep"]: r for r in reqs if r["config"]["config_id"] == "baseline"}
    assert len({r["config"]["config_id"] for r in reqs}) == 2, "a speedup cites its config and its baseline"
    return mine, base


def spec_decode(num, recs):
    reqs = _requests(recs)
    assert len({r["config"]["config_id"] for r in reqs}) == 1
    return statistics.mean(_decode(r) for r in reqs)


def spec_speedup(num, recs):
    mine, base = _split_baseline(recs)
    return statistics.mean(_decode(mine[i]) / _decode(base[i]) for i in mine)


def spec_speedup_rep(num, recs):
    mine, base = _split_baseline(recs)
    i = sorted(mine)[int(num["key"].rsplit("-rep", 1)[1])]
    return _decode(mine[i]) / _decode(base[i])


def spec_trend(num, recs):
    mine, base = _split_baseline(recs)
    reps = sorted(mine)
    x = np.arange(len(reps), dtype=float)
    y = np.array([_decode(mine[i]) / _decode(base[i]) for i in reps])
    return float(np.polyfit(x, y, 1)[0])


def spec_alpha(num, recs):
    reqs = _requests(recs)
    # absent timings fields: nothing drafted or accepted in that request
    acc = sum(r["timings"].get("draft_n_accepted") or 0 for r in reqs)
    return acc / sum(r["timings"].get("draft_n") or 0 for r in reqs)


def _committed(r) -> int:
    """Tokens the verify steps of a request committed: steps + accepted, never past the cap (the first
    token comes from the prompt pass: at most predicted_n − 1)."""
    steps, acc = r["verify_steps"], r["timings"].get("draft_n_accepted") or 0
    return min(steps + acc, r["timings"]["predicted_n"] - 1)


def spec_tau(num, recs):
    reqs = _requests(recs)
    return sum(_committed(r) for r in reqs) / sum(r["verify_steps"] for r in reqs)


def _cost_terms(recs) -> tuple[float, dict[int, float], dict[str, float]]:
    """(t1 ns, r(n), c per draft model id) from the cited llama-bench cost rows (medians, as llama-bench
    samples of one test: ``speculative.analysis.cost_model``)."""
    rows = _kind(recs, "benchbook.speculative_cost")
    target_tg = [r for r in rows if r["role"] == "target" and r["llama_bench"]["n_gen"] > 0]
    (tg,) = target_tg
    t1 = float(np.median(tg["llama_bench"]["samples_ns"])) / tg["llama_bench"]["n_gen"]
    r_n = {
        r["llama_bench"]["n_prompt"]: float(np.median(r["llama_bench"]["samples_ns"])) / t1
        for r in rows
        if r["role"] == "target" and r["llama_bench"]["n_gen"] == 0
    }
    c = {
        r["model_id"]: float(np.median(r["llama_bench"]["samples_ns"])) / r["llama_bench"]["n_gen"] / t1
        for r in rows
        if r["role"] == "draft"
    }
    return t1, r_n, c


def spec_model(num, recs):
    reqs = _requests(recs)
    first = reqs[0]
    t1, r_n, c = _cost_terms(recs)
    steps = sum(r["verify_steps"] for r in reqs)
    k = sum(r["timings"].get("draft_n") or 0 for r in reqs) / steps
    tau = sum(_committed(r) for r in reqs) / steps
    spec_type = first["config"]["spec_type"]
    cost = 0.0 if spec_type.startswith("ngram") else c.get(first["draft_model_id"], 1.0)
    rk = r_at(r_n, k + 1)
    assert rk is not None
    return tau / (k * cost + rk)


def spec_cost(num, recs):
    t1, r_n, c = _cost_terms(recs)
    tail = num["key"].removeprefix("spec-cost-")
    if tail.startswith("r-"):
        return r_n[int(tail[2:])]
    assert tail.startswith("c-") and len(c) <= 1
    # no draft row: the target as its own draft, the same decode step (c = 1)
    return next(iter(c.values())) if c else 1.0


def spec_t1(num, recs):
    return _cost_terms(recs)[0] / 1e6


def spec_mem_slope(num, recs):
    reqs = _requests(recs)
    x = [r["config"]["n_max"] for r in reqs]
    y = [r["peak_rss_bytes"] / 2**20 for r in reqs]
    return float(np.polyfit(x, y, 1)[0])


# --- draft-self runs ------------------------------------------------------------------------------


def _runs(recs):
    return [r for r in recs if r["schema"] == "benchbook.draftself.run"]


def ds_tau(num, recs):
    runs = _runs(recs)
    # tokens committed by the verify steps: never past the cap of n_tokens (the first from the prefill)
    committed = sum(min(r["accepted_total"] + r["verify_steps"], r["n_tokens"] - 1) for r in runs)
    return committed / sum(r["verify_steps"] for r in runs)


def ds_alpha(num, recs):
    runs = _runs(recs)
    acc = sum(r["accepted_total"] for r in runs)
    return acc / (acc + sum(r["rejections"] for r in runs))


def ds_tokens_per_pass(num, recs):
    runs = _runs(recs)
    return sum(r["n_tokens"] - 1 for r in runs) / sum(r["forward_passes"] - 1 for r in runs)


def ds_equals_ar(num, recs):
    runs = _runs(recs)
    return sum(bool(r["equals_ar"]) for r in runs) / len(runs)


def ds_fraction(num, recs):
    """α̂ or the share of runs whose output equals AR: two quantities of one unit (``fraction``)."""
    return ds_alpha(num, recs) if num["key"].endswith("-alpha") else ds_equals_ar(num, recs)


def ds_expert_loads(num, recs):
    return statistics.mean(r["expert_loads_per_token"] for r in _runs(recs))


def ds_decode_rate(num, recs):
    """Mean over prompts of each prompt's mean decode rate (the runs' decode_tps)."""
    by_prompt: dict[str, list[float]] = {}
    for r in _runs(recs):
        by_prompt.setdefault(r["prompt_id"], []).append(r["decode_tps"])
    return statistics.mean(statistics.mean(v) for v in by_prompt.values())


def _pairs(num, recs) -> tuple[list[dict], dict[tuple, dict]]:
    """(the draft-self runs of the number's configuration, AR runs by (prompt, rep)) among the cited."""
    runs = _runs(recs)
    base = num["key"].rsplit("-", 1)[0]  # make_key("draftself", config_name, prompt class)

    def cls(r):
        return "predictable" if r["predictable"] else "other"

    mine = [r for r in runs if make_key("draftself", r["config_name"], cls(r)) == base]
    ar = {(r["prompt_id"], r["rep"]): r for r in runs if r["config"]["decoder"] == "ar"}
    return mine, ar


def _speedup(mine, ar) -> float:
    by_prompt: dict[str, list[float]] = {}
    for r in mine:
        by_prompt.setdefault(r["prompt_id"], []).append(
            math.log(ar[(r["prompt_id"], r["rep"])]["decode_wall_ns"] / r["decode_wall_ns"])
        )
    return math.exp(statistics.mean(statistics.mean(v) for v in by_prompt.values()))


def _mean_costs(recs) -> dict[tuple[str, int], float]:
    """Mean wall time per (pass kind, tokens) over every pass of the cited runs (prefill excluded)."""
    by: dict[tuple[str, int], list[int]] = {}
    for r in _runs(recs):
        for kind, n, ns in r["passes"]:
            if kind != "prefill":
                by.setdefault((kind, n), []).append(ns)
    return {k: statistics.mean(v) for k, v in by.items()}


def _predicted(mine, ar, cost) -> float:
    def pred(r):
        return sum(cost[(k, n)] for k, n, _ in r["passes"] if k != "prefill")

    return statistics.mean(pred(ar[(r["prompt_id"], r["rep"])]) / pred(r) for r in mine)


def ds_speedup(num, recs):
    return _speedup(*_pairs(num, recs))


def ds_predicted(num, recs):
    return _predicted(*_pairs(num, recs), _mean_costs(recs))


def _paired_log_gap(mine, ar, cost) -> float:
    """Mean over prompts of the mean over repetitions of log(predicted ÷ measured) of each pair."""

    def pred(r):
        return sum(cost[(k, n)] for k, n, _ in r["passes"] if k != "prefill")

    by_prompt: dict[str, list[float]] = {}
    for r in mine:
        a = ar[(r["prompt_id"], r["rep"])]
        measured = a["decode_wall_ns"] / r["decode_wall_ns"]
        by_prompt.setdefault(r["prompt_id"], []).append(math.log(pred(a) / pred(r) / measured))
    return statistics.mean(statistics.mean(v) for v in by_prompt.values())


def ds_gap(num, recs):
    """measured ÷ predicted − 1 paired per prompt, in percent: 100 · (exp(−mean log(pred ÷ measured)) − 1)."""
    mine, ar = _pairs(num, recs)
    return 100 * (math.exp(-_paired_log_gap(mine, ar, _mean_costs(recs))) - 1)


def ds_steady(num, recs):
    mine, _ = _pairs(num, recs)
    cost = _mean_costs(recs)
    c1 = cost[("decode", 1)]
    k = mine[0]["config"]["k"]
    first = [r for r in mine if r["rep"] == min(x["rep"] for x in mine)]
    tau = ds_tau(num, first)
    rd = cost[("draft", k + 1)] / c1
    if mine[0]["config"]["verify"] == "batched":
        return tau / (rd + cost[("verify", k + 1)] / c1)
    return tau / (rd + tau * cost[("verify", 1)] / c1)


def ds_break_even(num, recs):
    k = int(num["key"].rsplit("-", 1)[1])
    cost = _mean_costs(recs)
    return (cost[("draft", k + 1)] + cost[("verify", k + 1)]) / cost[("decode", 1)]


def ds_decode_pass(num, recs):
    return _mean_costs(recs)[("decode", 1)] / 1e6


def _experts(num, recs) -> list[dict]:
    kind, n = num["key"].split("unique_experts-")[1].split("-n-")
    n = n.removesuffix("-bound")
    return [
        u
        for r in _runs(recs)
        for u in r["unique_experts_per_layer_by_pass"]
        if (u["kind"], u["n_tokens"]) == (kind, int(n))
    ]


def ds_experts(num, recs):
    per = _experts(num, recs)
    return sum(u["mean"] * u["passes"] for u in per) / sum(u["passes"] for u in per)


def ds_bound(num, recs):
    runs = _runs(recs)
    (n,) = {u["n_tokens"] for u in _experts(num, recs)}
    return independent_bound(runs[0]["n_experts"], runs[0]["top_k"], n)


def ds_train(num, recs_unused):
    (line,) = cited_lines(num)  # one line of the pretty-printed manifest: "field": value,
    return next(iter(json.loads("{" + line.strip().rstrip(",") + "}").values()))


# --- offload --------------------------------------------------------------------------------------


#: the schemas a llama-bench row is stored under, each with the experiment whose rows it held: the one kind
#: (benchbook.llama_bench v3, what every runner writes now, ``experiment`` telling its uses apart) and the
#: kinds it replaced, which the committed sessions of the other experiments wrote
LB_ROWS = {
    "benchbook.llama_bench": "llama_bench",
    "benchbook.speculative_cost": "speculative",
    "benchbook.spec_depth.bench": "spec_depth",
    "benchbook.offload": "offload",
}


def _kind(recs, schema):
    """The records of ``schema`` among ``recs``; for a llama-bench row kind, every llama-bench row of its
    experiment (stored under the one kind or the kind it replaced)."""
    if schema in LB_ROWS:
        return [r for r in recs if r["schema"] in LB_ROWS and r["experiment"] == LB_ROWS[schema]]
    return [r for r in recs if r["schema"] == schema]


def off_point(num, recs):
    (row,) = [r["llama_bench"] for r in _kind(recs, "benchbook.offload")]
    return statistics.mean(row["samples_ts"])


def off_bandwidth(num, recs):
    (bw,) = _kind(recs, "benchbook.offload.bandwidth")
    return bw["gb_per_s"]


def off_fit(num, recs):
    ran = [r["n_cpu_moe"] for r in _kind(recs, "benchbook.offload")]
    failed = [r["n_cpu_moe"] for r in _kind(recs, "benchbook.run_failed")]
    assert failed and max(failed) < min(ran)  # the failures it rests on are cited too
    return min(ran)


def off_roofline(num, recs):
    (row,) = _kind(recs, "benchbook.offload")
    (bw,) = _kind(recs, "benchbook.offload.bandwidth")
    rate = statistics.mean(row["llama_bench"]["samples_ts"])
    return 100 * rate * row["decode_bytes"]["total"] / 1e9 / bw["gb_per_s"]


def off_default_roofline(num, recs):
    (bw,) = _kind(recs, "benchbook.offload.bandwidth")
    (size,) = _kind(recs, "benchbook.offload.model_bytes")  # bytes per token of the model
    (row,) = _kind(recs, "benchbook.llama_bench")
    rate = statistics.mean(_rates(row["llama_bench"]))
    return 100 * rate * size["decode_bytes"]["total"] / 1e9 / bw["gb_per_s"]


# --- spec_depth -----------------------------------------------------------------------------------


def _depth_split(num, recs) -> tuple[list[dict], list[dict]]:
    """(the number's configuration's requests, the baseline's) among the cited requests."""
    reqs = _kind(recs, "benchbook.spec_depth.request")
    base = [r for r in reqs if r["role"] == "baseline"]
    mine = [r for r in reqs if r["role"] != "baseline"] or base
    assert len({r["config_id"] for r in mine}) == 1 and len({r["depth"] for r in reqs}) == 1
    return mine, base


def sd_decode(num, recs):
    """A decode rate (it cites its baseline too) or a prefill rate (its own requests only)."""
    mine, _ = _depth_split(num, recs)
    field = "prompt_per_second" if num["key"].endswith("prefill_tps") else "predicted_per_second"
    return statistics.mean(r["timings"][field] for r in mine)


def sd_peak_mem(num, recs):
    """Peak GPU memory: the most over the configuration's own requests (no baseline cited)."""
    mine = _kind(recs, "benchbook.spec_depth.request")
    assert len({(r["config_id"], r["depth"]) for r in mine}) == 1
    return max(r["peak_gpu_mem_mib"] for r in mine)


def sd_ratio(num, recs):
    mine, base = _depth_split(num, recs)
    field = "prompt_per_second" if num["key"].endswith("prefill_ratio") else "predicted_per_second"
    return statistics.mean(r["timings"][field] for r in mine) / statistics.mean(
        r["timings"][field] for r in base
    )


def _bench_rows(recs) -> list[dict]:
    """The cited spec_depth llama-bench rows, each with its role and model sha256."""
    return [
        r["llama_bench"] | {"role": r["role"], "sha": r["model_sha256"]}
        for r in _kind(recs, "benchbook.spec_depth.bench")
    ]


def sd_residual(num, recs):
    mine, base = _depth_split(num, recs)
    bench = _bench_rows(recs)
    t = _spec_terms(mine, base, bench, {})
    assert t["r_sizes"][0] <= t["k"] + 1 <= t["r_sizes"][-1]
    if num["key"].endswith("residual_before"):
        sha = mine[0]["draft_model_sha256"]
        draft_tg = [b for b in bench if b["sha"] == sha and b["n_gen"] > 0]
        c = (
            statistics.median(draft_tg[0]["samples_ns"]) / draft_tg[0]["n_gen"] / t["step_ns"]
            if draft_tg
            else None
        )
        c = 1.0 if sha == mine[0]["model_sha256"] else c
        assert c is not None
        return t["tau"] / (t["k"] * c + t["rk"]) / t["speedup"] - 1
    return t["tau"] / (t["k"] * t["c_server"] + t["rk"]) / t["speedup"] - 1


def _spec_terms(mine, base, bench, alone_ms) -> dict:
    """τ, k, c_server, c_alone, r(k+1), the verify step's excess over r(k+1) and the measured speedup of
    one configuration's requests ``mine`` against ``base`` (spec_depth.analysis.cost_terms), the target's
    ns per decoded token ``step_ns`` and the pass sizes ``r_sizes`` of r(n); c_alone is NaN when
    ``alone_ms`` lacks the draft.  Each llama-bench test's time is the median of its ``samples_ns``; the
    baseline's decode step is over predicted_n − 1 tokens per request (the first from the prompt pass)."""
    b_step_ms = sum(r["timings"]["predicted_ms"] for r in base) / sum(
        r["timings"]["predicted_n"] - 1 for r in base
    )
    target = [b for b in bench if b["role"] == "target"]
    (step_row,) = [b for b in target if b["n_gen"] > 0]
    step = statistics.median(step_row["samples_ns"]) / step_row["n_gen"]
    r_pp = {b["n_prompt"]: statistics.median(b["samples_ns"]) / step for b in target if b["n_prompt"] > 0}
    drafted = sum(r["timings"]["draft_n"] for r in mine)
    steps = sum(r["spec_stats"]["gen_drafts"] for r in mine)
    committed = sum(
        min(r["spec_stats"]["gen_drafts"] + r["timings"]["draft_n_accepted"], r["timings"]["predicted_n"] - 1)
        for r in mine
    )
    tau, k = committed / steps, drafted / steps
    xs = sorted(r_pp)
    rk = float(np.interp(k + 1, xs, [r_pp[x] for x in xs]))
    t_draft = sum(r["spec_stats"]["t_draft_ms"] for r in mine)
    v_server = (sum(r["timings"]["predicted_ms"] for r in mine) - t_draft) / steps / b_step_ms
    sha = mine[0]["draft_model_sha256"]
    c_alone = 1.0 if sha == mine[0]["model_sha256"] else alone_ms.get(sha, math.nan) / b_step_ms
    speedup = statistics.mean(r["timings"]["predicted_per_second"] for r in mine) / statistics.mean(
        r["timings"]["predicted_per_second"] for r in base
    )
    return {
        "tau": tau,
        "k": k,
        "rk": rk,
        "c_server": t_draft / drafted / b_step_ms,
        "c_alone": c_alone,
        "excess": v_server - rk,
        "speedup": speedup,
        "step_ns": step,
        "r_sizes": xs,
    }


def sd_overhead(num, recs):
    """The per-step overhead model (spec_depth.overhead): β fitted through the origin on the *other*
    configurations' excess against (k+1)·c_alone, o(k) = β(k+1)c_alone, the model τ / (k·c_server + r(k+1)
    + o(k)) and its residual (model ÷ measured − 1)."""
    reqs = _kind(recs, "benchbook.spec_depth.request")
    assert len({r["depth"] for r in reqs}) == 1
    bench = _bench_rows(recs)
    base = [r for r in reqs if r["role"] == "baseline"]
    alone: dict[str, list[dict]] = {}
    for r in reqs:
        if r["role"] == "draft_only":
            alone.setdefault(r["model_sha256"], []).append(r)
    alone_ms = {
        sha: sum(r["timings"]["predicted_ms"] for r in rs) / sum(r["timings"]["predicted_n"] - 1 for r in rs)
        for sha, rs in alone.items()
    }
    configs: dict[str, list[dict]] = {}
    for r in reqs:
        if r["role"] == "speculative":
            configs.setdefault(r["config_id"], []).append(r)
    terms = {cid: _spec_terms(rs, base, bench, alone_ms) for cid, rs in configs.items()}
    mine = num["label"].split(" at depth ")[0]
    others = [t for cid, t in terms.items() if cid != mine]
    assert len(others) >= 2
    xs = [(t["k"] + 1) * t["c_alone"] for t in others]
    beta = sum(x * t["excess"] for x, t in zip(xs, others, strict=True)) / sum(x * x for x in xs)
    what = num["key"].rsplit("-", 1)[1]
    if what == "beta_loo":  # β alone never reads the configuration's own requests (left out)
        assert mine not in terms
        return beta
    t = terms[mine]
    o_k = beta * (t["k"] + 1) * t["c_alone"]
    model = t["tau"] / (t["k"] * t["c_server"] + t["rk"] + o_k)
    return {"overhead_model": o_k, "model_overhead": model}.get(what, model / t["speedup"] - 1)


def _roles(recs) -> dict[str, list[dict]]:
    """The cited spec_depth requests by role (speculative, baseline, draft_only), one depth."""
    reqs = _kind(recs, "benchbook.spec_depth.request")
    assert len({r["depth"] for r in reqs}) == 1
    out: dict[str, list[dict]] = {}
    for r in reqs:
        out.setdefault(r["role"], []).append(r)
    assert len({r["config_id"] for r in out.get("speculative", [])}) <= 1
    return out


def _pooled(mine) -> tuple[float, float]:
    """(τ, k) pooled over one configuration's requests: committed ÷ steps, drafted ÷ steps."""
    steps = sum(r["spec_stats"]["gen_drafts"] for r in mine)
    committed = sum(
        min(r["spec_stats"]["gen_drafts"] + r["timings"]["draft_n_accepted"], r["timings"]["predicted_n"] - 1)
        for r in mine
    )
    return committed / steps, sum(r["timings"]["draft_n"] for r in mine) / steps


def _step_ns(row) -> float:
    return statistics.median(row["samples_ns"]) / row["n_gen"]


def sd_cost_term(num, recs):
    """A cost-model term of one configuration at one depth (spec_depth.analysis.cost_terms), from exactly
    what it cites: τ and k its own requests; c_bench the draft's and the target's llama-bench tg rows
    (1 without rows: the target as its own draft); r(k+1) and the models the target's pp and tg rows;
    c_server, v_server and the model after the baseline's requests (its decode step); c_alone the
    requests of the draft served alone and the baseline's."""
    by = _roles(recs)
    mine, base, alone = by["speculative"], by.get("baseline", []), by.get("draft_only", [])
    what = num["key"].rsplit("-", 1)[1]
    tau, k = _pooled(mine)
    if what in ("tau", "k"):
        assert not base and not _bench_rows(recs)
        return tau if what == "tau" else k
    self_draft = mine[0]["draft_model_sha256"] == mine[0]["model_sha256"]
    if what == "c_bench":
        tg = [b for b in _bench_rows(recs) if b["n_gen"] > 0]
        if self_draft:
            assert not tg
            return 1.0
        (target,) = [b for b in tg if b["role"] == "target"]
        (draft,) = [b for b in tg if b["role"] == "draft"]
        return _step_ns(draft) / _step_ns(target)
    if what == "c_alone":
        if self_draft:
            assert not alone and not base
            return 1.0
        b_step = sum(r["timings"]["predicted_ms"] for r in base) / sum(
            r["timings"]["predicted_n"] - 1 for r in base
        )
        a_step = sum(r["timings"]["predicted_ms"] for r in alone) / sum(
            r["timings"]["predicted_n"] - 1 for r in alone
        )
        return a_step / b_step
    if what in ("r_k1", "model_before"):
        bench = _bench_rows(recs)
        (tg,) = [b for b in bench if b["role"] == "target" and b["n_gen"] > 0]
        r_pp = {
            b["n_prompt"]: statistics.median(b["samples_ns"]) / _step_ns(tg)
            for b in bench
            if b["role"] == "target" and b["n_prompt"] > 0
        }
        rk = r_at(r_pp, k + 1)
        assert rk is not None and not base
        if what == "r_k1":
            return rk
        drafts = [
            b
            for b in bench
            if b["role"] == "draft" and b["n_gen"] > 0 and b["sha"] == mine[0]["draft_model_sha256"]
        ]
        c = 1.0 if self_draft else _step_ns(drafts[0]) / _step_ns(tg)
        return tau / (k * c + rk)
    b_step = sum(r["timings"]["predicted_ms"] for r in base) / sum(
        r["timings"]["predicted_n"] - 1 for r in base
    )
    t_draft = sum(r["spec_stats"]["t_draft_ms"] for r in mine)
    steps = sum(r["spec_stats"]["gen_drafts"] for r in mine)
    if what == "c_server":  # the server's drafting time per drafted token, in baseline decode steps
        assert not _bench_rows(recs)
        return t_draft / sum(r["timings"]["draft_n"] for r in mine) / b_step
    if what == "v_server":  # decode time less drafting time per verify step, in baseline decode steps
        assert not _bench_rows(recs)
        return (sum(r["timings"]["predicted_ms"] for r in mine) - t_draft) / steps / b_step
    t = _spec_terms(mine, base, _bench_rows(recs), {})
    if what == "overhead_server":
        return t["excess"]
    assert what == "model_after"
    return t["tau"] / (t["k"] * t["c_server"] + t["rk"])


def sd_bench(num, recs):
    """A llama-bench rate of the depth sweep: the mean of its per-repetition rates (n_prompt + n_gen tokens
    over each repetition's samples_ns), from its one row."""
    (row,) = _bench_rows(recs)
    return statistics.mean(1e9 * (row["n_prompt"] + row["n_gen"]) / ns for ns in row["samples_ns"])


def sd_memory(num, recs):
    """Peak GPU memory per draft token: the least-squares slope of each configuration's peak (the most
    over its requests) against its n_max, over the cited requests of one draft at one depth."""
    reqs = _kind(recs, "benchbook.spec_depth.request")
    assert {r["role"] for r in reqs} == {"speculative"} and len({r["depth"] for r in reqs}) == 1
    assert len({r["draft_model_id"] for r in reqs}) == 1
    peak: dict[int, int] = {}
    for r in reqs:
        peak[r["n_max"]] = max(peak.get(r["n_max"], 0), r["peak_gpu_mem_mib"])
    return float(np.polyfit(list(peak), list(peak.values()), 1)[0])


def sd_hosts(num, recs):
    """The speculative experiment per host on the depth page (spec_depth.hostspec): the mean over the
    cited prompts of each prompt's speedup (paired with its baseline), τ (1 without drafting) or cost
    model (its llama-bench rows cited), and the residual model ÷ speedup − 1."""
    what = num["key"].rsplit("-", 1)[1]
    reqs = _requests(recs)
    prompts = sorted({r["prompt_id"] for r in reqs})
    cost_rows = [r for r in recs if r["schema"] == "benchbook.speculative_cost"]
    assert bool(cost_rows) == (what in ("model", "residual"))

    def speedup(p: str) -> float:
        mine = [r for r in reqs if r["prompt_id"] == p]
        if {r["config"]["config_id"] for r in mine} == {"baseline"}:
            return 1.0  # the baseline against itself
        return spec_speedup(num, mine)

    def tau(p: str) -> float:
        mine = [r for r in reqs if r["prompt_id"] == p]
        plain = mine[0]["config"]["spec_type"] == "none"
        return 1.0 if plain or not sum(r["verify_steps"] for r in mine) else spec_tau(num, mine)

    def model(p: str) -> float:
        own = [r for r in reqs if r["prompt_id"] == p and r["config"]["config_id"] != "baseline"]
        return spec_model(num, own + cost_rows)

    if what == "speedup":
        return statistics.mean(speedup(p) for p in prompts)
    if what == "tau":
        assert len({r["config"]["config_id"] for r in reqs}) == 1
        return statistics.mean(tau(p) for p in prompts)
    if what == "model":
        assert len({r["config"]["config_id"] for r in reqs}) == 1
        return statistics.mean(model(p) for p in prompts)
    assert what == "residual"
    # the model over the prompts that drafted (a prompt with no verify step has none), the speedup over all
    drafted = [
        p
        for p in prompts
        if sum(
            r["verify_steps"] or 0
            for r in reqs
            if r["prompt_id"] == p and r["config"]["config_id"] != "baseline"
        )
    ]
    return statistics.mean(model(p) for p in drafted) / statistics.mean(speedup(p) for p in prompts) - 1


#: (computation, unit) -> recompute(number, its cited records) -> value
RECOMPUTE: dict[tuple[str, str], Callable[[dict, list[dict]], float]] = {
    ("benchbook.experiments.llama_bench.analysis.rate_stats", "tok/s"): lb_mean,
    ("benchbook.experiments.llama_bench.analysis.rate_stats (median_tps)", "tok/s"): lb_median,
    ("benchbook.experiments.llama_bench.analysis.rate_stats (mean_tps_rest)", "tok/s"): lb_mean_rest,
    ("benchbook.experiments.speculative.analysis.config_table", "tok/s"): spec_decode,
    ("benchbook.experiments.speculative.analysis.config_table", "×"): spec_speedup,
    ("benchbook.experiments.speculative.analysis.config_table (speedup_reps)", "×"): spec_speedup_rep,
    ("benchbook.experiments.speculative.analysis.rep_trend", "× per repetition"): spec_trend,
    ("benchbook.experiments.speculative.analysis.alpha (pooled over repetitions)", "fraction"): spec_alpha,
    ("benchbook.experiments.speculative.analysis.tau (pooled)", "tok/step"): spec_tau,
    ("benchbook.experiments.speculative.analysis.with_model", "×"): spec_model,
    ("benchbook.experiments.speculative.analysis.cost_model", "×"): spec_cost,
    ("benchbook.experiments.speculative.analysis.cost_model", "ms"): spec_t1,
    ("benchbook.experiments.speculative.analysis.memory_slopes", "MiB/draft token"): spec_mem_slope,
    ("experiments.draftself.analysis.acceptance", "tok/step"): ds_tau,
    ("experiments.draftself.analysis.decode_rates", "tok/s"): ds_decode_rate,
    ("experiments.draftself.analysis.acceptance", "fraction"): ds_fraction,
    ("experiments.draftself.analysis.acceptance", "tokens/pass"): ds_tokens_per_pass,
    ("draftself.experts.expert_loads", "expert loads/token"): ds_expert_loads,
    ("experiments.draftself.analysis.speedup", "×"): ds_speedup,
    ("experiments.draftself.analysis.paired_gap", "%"): ds_gap,
    ("experiments.draftself.analysis.speedup (mean pass costs)", "×"): ds_predicted,
    ("experiments.draftself.analysis.steady_state", "×"): ds_steady,
    ("experiments.draftself.analysis.break_even", "tok/step"): ds_break_even,
    ("experiments.draftself.analysis.pass_costs", "ms"): ds_decode_pass,
    ("experiments.draftself.analysis.experts_by_pass", "experts/layer"): ds_experts,
    ("draftself.experts.independent_bound", "experts/layer"): ds_bound,
    ("draftself.train", "s"): ds_train,
    ("draftself.train", "nats"): ds_train,
    ("draftself.train", "parameters"): ds_train,
    ("benchbook.experiments.offload.analysis.points", "tok/s"): off_point,
    ("benchbook.llamacpp.cudamem.bandwidth", "GB/s"): off_bandwidth,
    ("benchbook.experiments.offload.analysis.fit_boundary", "blocks"): off_fit,
    ("benchbook.experiments.offload.analysis.roofline", "%"): off_roofline,
    ("benchbook.experiments.offload.report.default_roofline", "%"): off_default_roofline,
    ("benchbook.experiments.spec_depth.analysis.depth_table", "tok/s"): sd_decode,
    ("benchbook.experiments.spec_depth.analysis.depth_table", "×"): sd_ratio,
    ("benchbook.experiments.spec_depth.analysis.depth_table", "fraction"): sd_residual,
    ("benchbook.experiments.spec_depth.overhead.with_overhead", "fraction"): sd_overhead,
    # issue 26: every numeric cell of the depth page is a published number
    ("benchbook.experiments.spec_depth.analysis.depth_table", "MiB"): sd_peak_mem,
    ("benchbook.experiments.spec_depth.analysis.cost_terms", "tok/step"): sd_cost_term,
    ("benchbook.experiments.spec_depth.analysis.cost_terms", "drafted/step"): sd_cost_term,
    ("benchbook.experiments.spec_depth.analysis.cost_terms", "decode steps"): sd_cost_term,
    ("benchbook.experiments.spec_depth.analysis.cost_terms", "×"): sd_cost_term,
    ("benchbook.experiments.spec_depth.overhead.with_overhead", "coefficient"): sd_overhead,
    ("benchbook.experiments.spec_depth.overhead.with_overhead", "decode steps"): sd_overhead,
    ("benchbook.experiments.spec_depth.overhead.with_overhead", "×"): sd_overhead,
    ("benchbook.experiments.spec_depth.analysis.bench_rates", "tok/s"): sd_bench,
    ("benchbook.experiments.spec_depth.analysis.memory_per_draft_token", "MiB/draft token"): sd_memory,
    ("benchbook.experiments.spec_depth.hostspec.host_table", "×"): sd_hosts,
    ("benchbook.experiments.spec_depth.hostspec.host_table", "tok/step"): sd_hosts,
    ("benchbook.experiments.spec_depth.hostspec.host_table", "fraction"): sd_hosts,
}


# --- draftself_gpu (issue 15): the draft-self run kind on the GPU, one configuration per k -----------


def _one_config(recs, decoder: str = "draftself", alone: bool = True) -> list[dict]:
    """The cited runs of one configuration of ``decoder``; ``alone``: the number cites no other run (a
    speedup or residual also cites the AR runs it divides by)."""
    runs = [r for r in _runs(recs) if r["config"]["decoder"] == decoder]
    assert len({r["config_name"] for r in runs}) == 1, "cites exactly one configuration"
    assert not alone or len(runs) == len(_runs(recs)), "cites exactly one configuration"
    return runs


def gpu_tau(num, recs):
    """Mean over prompts of τ = min(accepted + steps, n_tokens − 1) ÷ steps of the first timed repetition
    (the tokens the verify steps committed, never past the cap); a per-prompt τ is the same with one."""
    runs = _one_config(recs)
    assert len({r["rep"] for r in runs}) == 1, "τ reads the first timed repetition only"
    return statistics.mean(
        min(r["accepted_total"] + r["verify_steps"], r["n_tokens"] - 1) / r["verify_steps"] for r in runs
    )


def gpu_alpha(num, recs):
    runs = _one_config(recs)
    assert len({r["rep"] for r in runs}) == 1, "α reads the first timed repetition only"
    return sum(r["accepted_total"] for r in runs) / sum(r["drafted_total"] for r in runs)


def gpu_rate(num, recs):
    """Mean over prompts of each prompt's mean decode_tps (AR for ``ar_tps``)."""
    runs = _one_config(recs, "ar" if num["key"].endswith("-ar_tps") else "draftself")
    by_prompt: dict[str, list[float]] = {}
    for r in runs:
        by_prompt.setdefault(r["prompt_id"], []).append(r["decode_tps"])
    return statistics.mean(statistics.mean(v) for v in by_prompt.values())


def _gpu_pairs(recs) -> tuple[list[dict], dict[tuple, dict]]:
    """(the draft-self runs of the one configuration, AR runs by (prompt, rep)); every draft-self run has
    its AR run among the cited (the denominator)."""
    mine = _one_config(recs, alone=False)
    ar = {(r["prompt_id"], r["rep"]): r for r in _runs(recs) if r["config"]["decoder"] == "ar"}
    assert all((r["prompt_id"], r["rep"]) in ar for r in mine), "a speedup cites the AR runs it divides by"
    return mine, ar


def gpu_speedup(num, recs):
    mine, ar = _gpu_pairs(recs)
    assert len(ar) == len(mine), "a speedup cites exactly its pairs"
    return _speedup(mine, ar)


def gpu_residual(num, recs):
    """exp(mean over prompts of the mean over repetitions of log(predicted ÷ measured)) − 1, predicted =
    the AR run's passes over the draft-self run's, each pass at the mean of its (kind, size) over the
    cited runs (the runs holding every pass kind the pairs used)."""
    return math.exp(_paired_log_gap(*_gpu_pairs(recs), _mean_costs(recs))) - 1


def gpu_break_even(num, recs):
    k = int(num["key"].split("-")[1].removeprefix("k"))  # draftself_gpu-k<k>-tau_break_even
    cost = _mean_costs(recs)
    return (cost[("draft", k + 1)] + cost[("verify", k + 1)]) / cost[("decode", 1)]


def gpu_repeat_share(num, recs):
    """1 − distinct ÷ total whitespace-word 4-grams of the one cited AR output."""
    (run,) = _one_config(recs, "ar")
    words = run["output_text"].split()
    grams = [tuple(words[i : i + 4]) for i in range(len(words) - 3)]
    return 1 - len(set(grams)) / len(grams) if grams else 0.0


def gpu_train(num, recs):
    (rec,) = recs  # the one training record
    assert rec["schema"] == "benchbook.draftself_gpu.train"
    return rec[num["key"].split("-", 2)[2]]  # draftself_gpu-t<session8>-<field>


RECOMPUTE_DRAFTSELF_GPU: dict[tuple[str, str], Callable[[dict, list[dict]], float]] = {
    ("benchbook.experiments.draftself_gpu.analysis.per_prompt", "tok/step"): gpu_tau,
    ("benchbook.experiments.draftself_gpu.analysis.by_k", "fraction"): gpu_alpha,
    ("benchbook.experiments.draftself_gpu.analysis.per_prompt", "tok/s"): gpu_rate,
    ("benchbook.experiments.draftself.analysis.speedup", "×"): gpu_speedup,
    ("benchbook.experiments.draftself.analysis.paired_gap", "fraction"): gpu_residual,
    ("benchbook.experiments.draftself.analysis.break_even", "tok/step"): gpu_break_even,
    ("benchbook.experiments.draftself.analysis.pass_costs", "ms"): ds_decode_pass,
    ("benchbook.experiments.draftself_gpu.analysis.repeat_share", "fraction"): gpu_repeat_share,
    ("benchbook.experiments.draftself_gpu.analysis.load_train", "s"): gpu_train,
    ("benchbook.experiments.draftself_gpu.analysis.load_train", "steps"): gpu_train,
    ("benchbook.experiments.draftself_gpu.analysis.load_train", "nats"): gpu_train,
    ("benchbook.experiments.draftself_gpu.analysis.load_train", "parameters"): gpu_train,
}
RECOMPUTE.update(RECOMPUTE_DRAFTSELF_GPU)
# --- speculative: the cost model against the time measured inside llama-server (issue 15 item 4) ----


def _sc_split(num, recs) -> tuple[list[dict], list[dict], dict[str, list[dict]]]:
    """(the number's configuration's requests, the baseline's, the other configurations' by id) among the
    cited requests with a decode step; the configuration is named first in the label."""
    reqs = [r for r in _requests(recs) if r["timings"]["predicted_n"] > 1]
    mine_id = num["label"].split(", session ")[0]
    mine = [r for r in reqs if r["config"]["config_id"] == mine_id]
    base = [r for r in reqs if r["config"]["config_id"] == "baseline"]
    others: dict[str, list[dict]] = {}
    for r in reqs:
        if r["config"]["config_id"] not in (mine_id, "baseline"):
            others.setdefault(r["config"]["config_id"], []).append(r)
    assert mine and base and {r["prompt_id"] for r in mine} == {r["prompt_id"] for r in base}
    return mine, base, others


def _sc_rate(reqs) -> float:
    tokens = sum(r["timings"]["predicted_n"] - 1 for r in reqs)
    return tokens / sum(r["timings"]["predicted_ms"] for r in reqs)


def _sc_terms(mine, base, recs) -> dict:
    """server_cost.config_terms written out: the baseline step b (ms), the pooled measured speedup, τ,
    k, r(k+1), c (llama-bench; 1 for the target as its own draft) and, with spec_stats, the drafting
    time and the verify ms per step."""
    b = sum(r["timings"]["predicted_ms"] for r in base) / sum(r["timings"]["predicted_n"] - 1 for r in base)
    steps = sum(r["verify_steps"] for r in mine)
    out = {"b": b, "measured": _sc_rate(mine) / _sc_rate(base), "steps": steps}
    out["tau"] = sum(_committed(r) for r in mine) / steps
    out["k"] = sum(r["timings"]["draft_n"] for r in mine) / steps
    if _kind(recs, "benchbook.speculative_cost"):
        _, r_n, c = _cost_terms(recs)
        out["rk"] = r_at(r_n, out["k"] + 1)
        out["c"] = c.get(mine[0]["draft_model_id"], 1.0)
    if all(r.get("spec_stats") for r in mine):
        t_draft = sum(r["spec_stats"]["t_draft_ms"] for r in mine)
        out["draft_ms"] = t_draft / steps
        out["verify_ms"] = (sum(r["timings"]["predicted_ms"] for r in mine) - t_draft) / steps
        out["c_server"] = t_draft / sum(r["timings"]["draft_n"] for r in mine) / b
    return out


def sc_value(num, recs):
    """measured, model_before/after (×), residual_before/after (fraction), the ms-per-step components."""
    mine, base, _ = _sc_split(num, recs)
    t = _sc_terms(mine, base, recs)
    what = num["key"].rsplit("-", 1)[1]
    if what == "measured":
        return t["measured"]
    if what == "draft_ms":
        return t["draft_ms"]
    if what == "verify_ms":
        return t["verify_ms"]
    if what == "verify_bench_ms":
        return t["rk"] * t["b"]
    if what == "overhead_ms":
        return t["verify_ms"] - t["rk"] * t["b"]
    c = t["c"] if what.endswith("before") else t["c_server"]
    model = t["tau"] / (t["k"] * c + t["rk"])
    return model if what.startswith("model") else model / t["measured"] - 1


def sc_overhead(num, recs):
    """The per-step overhead model (server_cost.with_overhead): β through the origin of the other
    configurations' (verify ms ÷ b − r(k+1)) against (k+1)·c_server, then
    τ / (k·c_server + r(k+1) + β(k+1)c_server)."""
    mine, base, others = _sc_split(num, recs)
    t = _sc_terms(mine, base, recs)
    terms = [_sc_terms(o, base, recs) for o in others.values()]
    assert len(terms) >= 2
    xs = [(o["k"] + 1) * o["c_server"] for o in terms]
    ys = [o["verify_ms"] / o["b"] - o["rk"] for o in terms]
    beta = sum(x * y for x, y in zip(xs, ys, strict=True)) / sum(x * x for x in xs)
    model = t["tau"] / (t["k"] * t["c_server"] + t["rk"] + beta * (t["k"] + 1) * t["c_server"])
    return model if num["key"].endswith("model_overhead") else model / t["measured"] - 1


RECOMPUTE |= {
    ("benchbook.experiments.speculative.server_cost.server_cost_table", "×"): sc_value,
    ("benchbook.experiments.speculative.server_cost.server_cost_table", "fraction"): sc_value,
    ("benchbook.experiments.speculative.server_cost.server_cost_table", "ms"): sc_value,
    ("benchbook.experiments.speculative.server_cost.with_overhead", "×"): sc_overhead,
    ("benchbook.experiments.speculative.server_cost.with_overhead", "fraction"): sc_overhead,
}


def kind(num: dict) -> tuple[str, str]:
    return (num["computation"], num["unit"])


def _decimals(value: float) -> int:
    text = repr(float(value))
    return 0 if "e" in text else len(text.split(".")[1])


def _agrees(got: float, value: float) -> bool:
    """``got`` rounds to the published ``value`` (at the decimals it was published with)."""
    return abs(got - value) <= 0.5 * 10 ** -_decimals(value) * (1 + 1e-9) + 1e-12


def test_every_kind_has_a_recompute(registry):
    kinds = {kind(n) for n in registry.values()}
    # every experiment publishes, and the registries hold more kinds than any one experiment
    assert {n["experiment"] for n in registry.values()} == set(EXPERIMENTS) and len(kinds) >= 30
    missing = sorted(kinds - set(RECOMPUTE))
    assert missing == [], f"computation kinds with no recompute from cited records: {missing}"


def test_registries_cite_files_relative_to_the_repository(registry):
    # before: every draft-self number cited /work/main/data/raw/draftself/runs.jsonl (one machine's path)
    absolute = sorted(
        {s["file"] for n in registry.values() for s in n["sources"] if Path(s["file"]).is_absolute()}
    )
    assert absolute == []


def test_every_number_recomputes_from_its_cited_records(registry):
    wrong = []
    for key, num in sorted(registry.items()):
        fn = RECOMPUTE.get(kind(num))
        if fn is None:
            continue  # test_every_kind_has_a_recompute names it
        try:
            got = fn({**num, "key": key}, cited(num))
        except (AssertionError, KeyError, ValueError, StopIteration, ZeroDivisionError, TypeError) as e:
            wrong.append(f"{key}: cannot recompute from its cited records ({type(e).__name__}: {e})")
            continue
        if not _agrees(got, num["value"]):
            wrong.append(f"{key}: published {num['value']}, its cited records give {got}")
    assert wrong == [], "\n".join(wrong[:40]) + f"\n({len(wrong)} numbers)"


def test_a_number_that_leaves_out_its_denominator_fails(registry):
    # the regression this test exists for: a speedup citing only its own requests (before: 3 of the 6)
    num = registry["spec-self-n4-code_echo-speedup"]
    own = [r for r in cited(num) if r.get("config", {}).get("config_id") != "baseline"]
    with pytest.raises(AssertionError, match="cites its config and its baseline"):
        spec_speedup(num, own)
    # and a per-repetition speedup now cites the baseline's repetitions it is divided by (before: it did not)
    rep0 = next(k for k in registry if k.endswith("-speedup-rep0"))
    assert {r["config"]["config_id"] for r in _requests(cited(registry[rep0]))} >= {"baseline"}


def test_draftself_gpu_numbers_cite_exactly_their_runs(registry):
    # before: every number of a k cited that k's runs of all three repetitions and the AR runs, and the AR
    # rate cited k = 1's runs too: τ and α read the first repetition of one configuration only, and a
    # decode rate of one configuration mixed with AR's is another number
    tau = registry["draftself_gpu-k8-tau"]
    speedup = cited(registry["draftself_gpu-k8-speedup"])  # k = 8's 36 runs and the 36 AR runs
    assert len(_runs(speedup)) == 72 and len(_runs(cited(tau))) == 12
    with pytest.raises(AssertionError, match="cites exactly one configuration"):
        gpu_tau(tau, [*cited(tau), *[r for r in speedup if r["config"]["decoder"] == "ar"]])
    with pytest.raises(AssertionError, match="first timed repetition only"):
        gpu_tau(tau, [r for r in speedup if r["config"]["decoder"] == "draftself"])
    rate = registry["draftself_gpu-ar_tps"]
    assert {r["config_name"] for r in _runs(cited(rate))} == {"ar"}
    # a speedup without its denominator cannot be recomputed
    with pytest.raises(AssertionError, match="cites the AR runs it divides by"):
        gpu_speedup(tau, [r for r in speedup if r["config"]["decoder"] == "draftself"])
    # τ counts committed tokens only: on code-1 at k = 8 the first repetition's 9 verify steps accepted
    # 62 tokens, past the cap of 64 (63 after the prefill token): min(62 + 9, 63) / 9 = 7.0 (before: 71 / 9
    # = 7.89, tokens never committed counted)
    num = registry["draftself_gpu-p-code-1-k8-tau"]
    (run,) = _runs(cited(num))
    assert (run["n_tokens"], run["verify_steps"], run["accepted_total"], num["value"]) == (64, 9, 62, 7.0)


# --- tool_gap (issue 31): the parts of the gap between llama-bench tg and llama-server decode -----------


def _tg_steps(recs: list[dict], depth: int) -> list[float]:
    """ms per token of the cited llama-bench tg row at ``depth``: each sample ÷ n_gen."""
    (row,) = [
        r["llama_bench"]
        for r in recs
        if r["schema"] == "benchbook.llama_bench"
        and r["llama_bench"]["n_gen"] > 0
        and (r["llama_bench"].get("n_depth") or 0) == depth
    ]
    return [s / 1e6 / row["n_gen"] for s in row["samples_ns"]]


def _tg_depths(recs: list[dict]) -> list[int]:
    return sorted(
        {
            r["llama_bench"].get("n_depth") or 0
            for r in recs
            if r["schema"] == "benchbook.llama_bench" and r["llama_bench"]["n_gen"] > 0
        }
    )


def _steps(recs: list[dict], config: str, how: str = "reported", index: int = 1) -> list[float]:
    """ms per token of the cited requests of ``config`` (request ``index``), in rep order."""
    reqs = sorted(
        (
            r
            for r in recs
            if r["schema"] == "benchbook.tool_gap.request"
            and r["config_id"] == config
            and r["request_index"] == index
        ),
        key=lambda r: r["rep"],
    )
    assert reqs, f"cites no {config} requests"
    out = []
    for r in reqs:
        t = r["timings"]
        n, ms = t["predicted_n"], t["predicted_ms"]
        if how == "reported":
            out.append(ms / n)
        elif how == "true":
            out.append(ms / (n - 1))
        elif how == "client":
            out.append((r["wall_ms"] - t["prompt_ms"]) / n)
        else:  # verify: the draft's own time taken out, per verify step
            out.append((ms - r["spec_stats"]["t_draft_ms"]) / r["spec_stats"]["gen_drafts"])
    return out


def _tg_part(part: str, recs: list[dict]) -> float:
    """The ms-per-token value of a tool_gap part from its cited records alone."""
    m = statistics.mean
    depths = _tg_depths(recs)
    end = "combined"
    if part == "total":
        return m(_steps(recs, end)) - m(_tg_steps(recs, 0))
    if part == "depth":
        return m(_tg_steps(recs, depths[-1])) - m(_tg_steps(recs, 0))
    if part == "server_loop":
        return m(_steps(recs, "base", "true")) - m(_tg_steps(recs, depths[-1]))
    if part == "first_token":
        return m(_steps(recs, "base")) - m(_steps(recs, "base", "true"))
    if part == "http":
        return m(_steps(recs, end, "client")) - m(_steps(recs, end))
    if part == "cold":
        return m(_steps(recs, "base", index=0)) - m(_steps(recs, "base"))
    if part == "residual":
        factors = sorted(
            {r["config_id"] for r in recs if r["schema"] == "benchbook.tool_gap.request"}
            - {"base", "combined"}
        )
        parts = ["depth", "server_loop", "first_token", *factors] if len(depths) > 1 else []
        return _tg_part("total", recs) - sum(_tg_part(p, recs) for p in parts)
    return m(_steps(recs, part)) - m(_steps(recs, "base"))  # one factor against base


def tool_gap_value(num, recs):
    """A tool_gap number (experiments.tool_gap.analysis.decompose): a part's ms per token (a difference
    of means), its share of the total, the rates at both ends, or the verify step ratio."""
    part, what = num["key"].split("-", 2)[2].rsplit("-", 1)
    if what == "tok_s":
        steps = _tg_steps(recs, 0) if part == "start" else _steps(recs, "combined")
        return statistics.mean(1000.0 / s for s in steps)
    if part == "verify":  # key ...-verify-k<k>
        k = int(what.removeprefix("k"))
        (row,) = [
            r["llama_bench"]
            for r in recs
            if r["schema"] == "benchbook.llama_bench" and r["llama_bench"]["n_prompt"] == k + 1
        ]
        passes = statistics.mean(s / 1e6 for s in row["samples_ns"])
        return statistics.mean(_steps(recs, f"verify-k{k}", "verify")) / passes
    if what == "share":
        return _tg_part(part, recs) / _tg_part("total", recs)
    return _tg_part(part, recs)


RECOMPUTE |= {
    ("benchbook.experiments.tool_gap.analysis.decompose", u): tool_gap_value
    for u in ("ms", "fraction", "tok/s", "×")
}

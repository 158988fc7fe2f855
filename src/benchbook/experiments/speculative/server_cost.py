"""The speculative cost model against the time measured inside llama-server: one row per draft-model
configuration of a session, the model before and after, and the measured components beside them.

Terms (DESIGN.md "Statistics and caveats"; the arithmetic is ``benchbook.costmodel``'s, shared with
``spec_depth.analysis.cost_terms``), pooled over every request of the configuration in the session
(all prompts and repetitions that the session's baseline also ran, requests with a decode step only):

* b = the baseline's decode step, Σ predicted_ms ÷ Σ (predicted_n − 1) over its requests (ms; the first
  generated token comes from the prompt pass: ``costmodel.decode_step_ms``);
* measured = the configuration's pooled decode rate ÷ the baseline's, each Σ (predicted_n − 1) ÷
  Σ predicted_ms: the quantity the pooled model predicts (the page's per-prompt speedups are paired
  means per prompt; this one weights each request by its decoded tokens);
* α = Σ accepted ÷ Σ drafted (``analysis.alpha``); τ = 1 + Σ accepted (inside each request's cap) ÷
  Σ verify steps, k = Σ drafted ÷ Σ verify steps (verify steps from ``/metrics``,
  ``costmodel.pooled_tau_k``);
* before: τ / (k·c + r(k+1)), c and r(n) from the session's llama-bench runs (``analysis.cost_model``,
  r interpolated by ``costmodel.r_at``: none outside the measured sizes);
* after (sessions at ``-lv 4``, whose records carry ``spec_stats``): c_server = Σ t_draft_ms ÷
  Σ drafted ÷ b (the drafting time the server measured, per drafted token, in baseline steps) in place
  of c: τ / (k·c_server + r(k+1));
* measured components: draft_ms = Σ t_draft_ms ÷ Σ verify steps, verify_ms = (Σ predicted_ms −
  Σ t_draft_ms) ÷ Σ verify steps (everything in a step that is not drafting: the verify pass and the
  server's own work; ``costmodel.server_terms``), verify_bench_ms = r(k+1)·b (what the model assumes
  for it) and overhead_ms = verify_ms − verify_bench_ms; v_server = verify_ms ÷ b;
* per-step overhead model (``spec_depth.overhead``'s form): o(k) = β·(k+1)·c_server with β the
  least-squares slope through the origin (``costmodel.fit_left_out``) of (v_server − r(k+1)) against
  (k+1)·c_server over the *other* draft-model configurations of the same session (leave one
  configuration out), then τ / (k·c_server + r(k+1) + o(k)).  Fewer than two others: none.  The
  regressor is the draft cost the server measured, not llama-bench's c (spec_depth's c_alone has no
  counterpart here: no draft-only server run): on the first -lv 4 sessions (CPU e5c680bf, H200
  5b481365) (k+1)·c left trunc20-n2 at +16% and +20%, (k+1)·c_server every configuration within ±10%
  (the choice was made after seeing those sessions; later sessions test it).

residual = model ÷ measured − 1.  A session without ``spec_stats`` has every "after" column null and
``stats`` = "not measured in this session"; a session at ``-lv 4`` where some request has
``spec_stats`` null has them null too, and ``stats`` says how many (``incomplete``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from benchbook import costmodel
from benchbook.records import read_records

from . import analysis as sp

#: every numeric column of ``server_cost_table`` (Float64 even where a table holds only nulls)
_FLOATS = {
    c: pl.Float64
    for c in (
        "b_step_ms measured alpha tau k c_bench r_k1 cost_r1 model_before residual_before c_server v_server "
        "draft_ms verify_ms verify_bench_ms overhead_ms overhead_server model_after residual_after beta_loo "
        "overhead_model model_overhead residual_overhead load1_max others_cpu_pct_max verify_ratio"
    ).split()
}
#: ``stats`` of a row whose session recorded the server's counters (``-lv 4``) / did not.
MEASURED = "measured in the server (-lv 4)"
NOT_MEASURED = "not measured in this session"


def incomplete(missing: int, n: int) -> str:
    """``stats`` of a row whose session ran at ``-lv 4`` but ``missing`` of its ``n`` requests have no
    counters (``spec_stats`` null: the statistics line did not come within ``await_stats``' wait); its
    "after" columns stay null, as a pooled sum over part of the requests is not the configuration's.

    >>> incomplete(1, 12)
    'incomplete at -lv 4: no statistics line for 1 of 12 requests'
    """
    return f"incomplete at -lv 4: no statistics line for {missing} of {n} requests"


def load_stats(raw_dir: str | Path) -> pl.DataFrame:
    """The ``spec_stats`` of every completed request under ``raw_dir`` (``*.jsonl``): file, line,
    has_stats (the record has the field: its session ran at -lv 4), t_draft_ms and gen_drafts (null
    where the field is null, empty or absent)."""
    rows = []
    for r in read_records(sp._files(raw_dir), sp.REQUEST_SCHEMA):
        if r.get("status", "ok") != "ok":
            continue
        s = r.get("spec_stats") or {}  # {} (spec_depth's form of "none") is none too
        rows.append(
            {
                "file": r["_file"],
                "line": r["_line"],
                "has_stats": "spec_stats" in r,
                "t_draft_ms": None if s.get("t_draft_ms") is None else float(s["t_draft_ms"]),
                "gen_drafts": None if s.get("gen_drafts") is None else int(s["gen_drafts"]),
            }
        )
    schema = {"file": pl.String, "line": pl.Int64, "has_stats": pl.Boolean}
    schema |= {"t_draft_ms": pl.Float64, "gen_drafts": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def config_terms(mine: pl.DataFrame, base: pl.DataFrame, cost: sp.CostModel | None) -> dict:
    """The columns of one configuration (module docstring) from its requests ``mine`` and the same
    session's baseline requests ``base`` on the same prompts (``load_requests`` rows joined with
    ``load_stats``; requests with predicted_n > 1), and the session's ``cost`` model (None: no model).
    The arithmetic is ``benchbook.costmodel``'s; ``cost_r1`` is the cost model's r(1) (the input of the
    caveat ``cost_rows_disturbed``).

    Raises:
        ValueError: ``mine`` or ``base`` has no request with predicted_n > 1."""
    b_step = costmodel.decode_step_ms(base["predicted_ms"], base["predicted_n"])
    mine_step = costmodel.decode_step_ms(mine["predicted_ms"], mine["predicted_n"])
    if b_step is None or mine_step is None:
        raise ValueError(
            "config_terms: no decode step among the requests (every predicted_n is 1); "
            "fix: pass requests with predicted_n > 1, as server_cost_table does"
        )
    measured = b_step / mine_step  # the pooled rates' ratio: (Σ(n−1)/Σms)_mine ÷ (Σ(n−1)/Σms)_base
    known = mine["verify_steps"].null_count() == 0
    steps = int(mine["verify_steps"].sum()) if known else 0
    drafted = int(mine["drafted"].sum())
    tau, k = costmodel.pooled_tau_k(int(mine["accepted_in_cap"].sum()), drafted, steps)
    draft_id = mine["draft_model_id"][0]
    c_bench = cost.c.get(draft_id) if cost and draft_id else None
    r_k1 = costmodel.r_at(cost.r, k + 1) if cost and k is not None else None
    out: dict = {
        "b_step_ms": b_step,
        "measured": measured,
        "alpha": sp.alpha(int(mine["accepted"].sum()), drafted),
        "tau": tau,
        "k": k,
        "c_bench": c_bench,
        "r_k1": r_k1,
        "cost_r1": cost.r1 if cost else None,
        "model_before": costmodel.predicted(tau, k, c_bench, r_k1),
        "residual_before": None,
        "stats": NOT_MEASURED,
        "c_server": None,
        "v_server": None,
        "draft_ms": None,
        "verify_ms": None,
        "verify_bench_ms": None if r_k1 is None else r_k1 * b_step,
        "overhead_ms": None,
        "overhead_server": None,
        "model_after": None,
        "residual_after": None,
    }
    out["residual_before"] = costmodel.residual(out["model_before"], measured)
    missing = int(mine["t_draft_ms"].null_count())
    timed = bool(mine["has_stats"].all()) and missing == 0
    # a record of a -lv 4 session without the field (written by code that did not record it) is one
    # more request without counters, not a session below -lv 4
    if bool(mine["has_stats"].any()) and missing:
        out["stats"] = incomplete(missing, mine.height)
    if timed:
        out["stats"] = MEASURED  # the counters are there; a term they cannot give stays null
    server = (
        costmodel.server_terms(
            float(mine["predicted_ms"].sum()), float(mine["t_draft_ms"].sum()), drafted, steps, b_step
        )
        if timed
        else None
    )
    if server is not None:
        out |= {
            "c_server": server.c_server,  # per drafted token
            "v_server": server.v_server,
            "draft_ms": server.draft_ms,
            "verify_ms": server.verify_ms,
        }
        if r_k1 is not None and tau is not None and k is not None:
            out["overhead_ms"] = server.verify_ms - r_k1 * b_step
            out["overhead_server"] = server.v_server - r_k1
            # k·c_server: the drafting per step in baseline steps; with no token drafted the time the
            # draft calls took is still spent: 1 · draft_ms ÷ b in its place
            k_c = (k, server.c_server) if drafted else (1.0, server.draft_ms / b_step)
            out["model_after"] = costmodel.predicted(tau, *k_c, r_k1)
            out["residual_after"] = costmodel.residual(out["model_after"], measured)
    return out


def _max_of(a: pl.DataFrame, b: pl.DataFrame, col: str) -> float | None:
    """The largest non-null ``col`` of ``a`` and ``b``; None where neither has one."""
    vals = [float(x) for df in (a, b) if col in df.columns for x in df[col].to_list() if x is not None]
    return max(vals) if vals else None


def server_cost_table(
    req: pl.DataFrame,
    stats: pl.DataFrame,
    costs: dict[str, sp.CostModel | None],
    baseline_id: str = "baseline",
    ratios: Mapping[tuple[str, int], float] | None = None,
) -> pl.DataFrame:
    """One row per (host_id, session_id, config_id) of the draft-model configurations (``spec_type``
    draft-*, a fresh server per repetition, whole prompts evaluated) of every session in ``costs``
    (``{session_id: its cost model}``): ``config_terms``' columns, then ``with_overhead``'s.

    Also: draft_model_id, n_max, prompts (list), n (requests), lv4 (the session ran at -lv 4), lines
    (the configuration's requests and the baseline's it is divided by), baseline_lines, file,
    toolchain_id, model_sha256, build_number, build_commit, argv, started_at, ended_at, run_ids, and
    load1_max / others_cpu_pct_max (the highest 1-min load average and the busiest other process's CPU %
    over those requests: the ``busy_host`` caveat's inputs, ``caveats``).
    ``req``: ``analysis.load_requests``; ``stats``: ``load_stats`` of the same files; ``ratios``: the
    measured verify-step ratios by (host_id, k) (``with_overhead``)."""
    if req.is_empty():
        return pl.DataFrame()
    joined = req.join(stats, on=["file", "line"], how="left")
    usable = joined.filter(
        (pl.col("policy") == "fresh")
        & (pl.col("cache_state") == "cold")
        & (pl.col("predicted_n") > 1)
        & pl.col("session_id").is_in(list(costs))
    )
    rows = []
    for (host, sess), s in usable.group_by("host_id", "session_id", maintain_order=True):
        base_all = s.filter(pl.col("config_id") == baseline_id)
        if base_all.is_empty():
            continue
        drafts = s.filter(pl.col("spec_type").str.starts_with("draft"))
        for cid in sorted(drafts["config_id"].unique().to_list()):
            g = drafts.filter(pl.col("config_id") == cid)
            prompts = sorted(set(g["prompt_id"].to_list()) & set(base_all["prompt_id"].to_list()))
            mine = g.filter(pl.col("prompt_id").is_in(prompts))
            base = base_all.filter(pl.col("prompt_id").is_in(prompts))
            if mine.is_empty():
                continue
            first = mine.row(0, named=True)
            rows.append(
                {
                    "host_id": host,
                    "session_id": sess,
                    "config_id": cid,
                    "draft_model_id": first["draft_model_id"],
                    "n_max": first["n_max"],
                    "prompts": prompts,
                    "n": mine.height,
                    "lv4": bool(s["has_stats"].any()),
                    **config_terms(mine, base, costs.get(str(sess))),
                    "lines": sorted(mine["line"].to_list() + base["line"].to_list()),
                    "baseline_lines": sorted(base["line"].to_list()),
                    "files": sorted(set(mine["file"].to_list() + base["file"].to_list())),
                    "toolchain_id": first["toolchain_id"],
                    "model_sha256": first["model_sha256"],
                    "build_number": first["build_number"],
                    "build_commit": first["build_commit"],
                    "argv": first["argv"],
                    "started_at": min(str(x) for x in [*mine["started_at"], *base["started_at"]] if x),
                    "ended_at": max(str(x) for x in [*mine["ended_at"], *base["ended_at"]] if x),
                    "run_ids": mine["run_id"].to_list() + base["run_id"].to_list(),
                    "load1_max": _max_of(mine, base, "load1_max"),
                    "others_cpu_pct_max": _max_of(mine, base, "others_cpu_pct_max"),
                }
            )
    if not rows:
        return pl.DataFrame()
    return with_overhead(pl.DataFrame(rows, infer_schema_length=None), ratios)


def with_overhead(table: pl.DataFrame, ratios: Mapping[tuple[str, int], float] | None = None) -> pl.DataFrame:
    """``table`` (``server_cost_table`` rows) with beta_loo, overhead_model (o(k), baseline steps),
    model_overhead, residual_overhead and overhead_configs (the other configurations β read); nulls
    where the row has no "after" terms, its session fewer than two other such configurations, or the
    model's denominator k·c_server + r(k+1) + o(k) is not positive (a negative fitted β).  ``ratios``: the
    measured verify-step ratios by (host_id, k) (``costmodel.overhead_term``): a row of such a host and
    n_max takes o(k) from it (beta_loo null, verify_ratio set)."""
    need = ("overhead_server", "c_bench", "c_server", "r_k1", "tau", "k")

    def usable(o: dict) -> bool:
        return all(o.get(c) is not None for c in need)

    rows = table.to_dicts()
    out = []
    for r in rows:
        row = dict(r, beta_loo=None, overhead_model=None, model_overhead=None, residual_overhead=None)
        row["overhead_configs"], row["verify_ratio"] = [], None
        fit = (
            costmodel.overhead_term(r, rows, ("session_id",), "c_server", usable, ratios)
            if usable(r)
            else None
        )
        if fit is not None:
            row |= {"beta_loo": fit.beta, "overhead_model": fit.o_k, "verify_ratio": fit.verify_ratio}
            row["overhead_configs"] = sorted(o["config_id"] for o in fit.others)
            # a negative fitted overhead can exceed the rest of the step: no model then (null)
            model = costmodel.predicted(r["tau"], r["k"], r["c_server"], r["r_k1"], fit.o_k)
            row |= {"model_overhead": model, "residual_overhead": costmodel.residual(model, r["measured"])}
        out.append(row)
    return pl.DataFrame(out, infer_schema_length=None, schema_overrides=_FLOATS)


def with_checks(table: pl.DataFrame, configs: pl.DataFrame, baseline_id: str = "baseline") -> pl.DataFrame:
    """``table`` (``server_cost_table`` rows) with the columns the caveat rules of table kind
    ``speculative`` read (``caveats``), each row's from the requests it pools: ``speedup_mean`` = its
    ``measured`` speedup (α is the row's own, ``config_terms``), and from ``configs``
    (``analysis.config_table`` of the same sessions) the cold rows of the row's configuration, session and
    prompts, where the output comparison with the baseline lives:

    * output_equal: False when any of those rows' outputs differ from the baseline's, else null when any
      comparison could not be made, else True; first_mismatch_pos the earliest mismatch; greedy: every
      row's sampler greedy (null when any is unknown);
    * cap_hit: a request hit its cap; cap_equal_work (null without a cap hit): every prompt whose requests
      hit the cap did equal work on both sides (``analysis._cap_equal_work`` per prompt: the pooled rate
      then compares like with like);
    * cache_n_max: the most prompt tokens served from the cache; acceptance_definition (one per build).

    Rules that read an interval (``high_variance``, ``slower_than_baseline``) or a trend over repetitions
    (``cross_request_state``) have no column here: a pooled row has no interval, and a fresh server served
    each of its requests."""
    if table.is_empty():
        return table
    cold = configs.filter((pl.col("cache_state") == "cold") & (pl.col("config_id") != baseline_id))
    out = []
    for r in table.iter_rows(named=True):
        rows = cold.filter(
            (pl.col("session_id") == r["session_id"])
            & (pl.col("config_id") == r["config_id"])
            & pl.col("prompt_id").is_in(r["prompts"])
        )
        equal = rows["output_equal"].to_list()
        greedy = rows["greedy"].to_list()
        capped = rows.filter(pl.col("cap_hit").fill_null(False))
        out.append(
            {
                "output_equal": False if False in equal else (None if None in equal or not equal else True),
                "first_mismatch_pos": rows["first_mismatch_pos"].min(),
                "greedy": None if None in greedy or not greedy else all(greedy),
                "cap_hit": None if rows["cap_hit"].null_count() == rows.height else not capped.is_empty(),
                "cap_equal_work": None
                if capped.is_empty()
                else all(capped["cap_equal_work"].fill_null(False)),
                "cache_n_max": rows["cache_n_max"].max(),
                "acceptance_definition": sp.acceptance_definition(r["build_number"]),
            }
        )
    schema = {"output_equal": pl.Boolean, "first_mismatch_pos": pl.Int64, "greedy": pl.Boolean}
    schema |= {"cap_hit": pl.Boolean, "cap_equal_work": pl.Boolean, "cache_n_max": pl.Int64}
    checks = pl.DataFrame(out, schema=schema | {"acceptance_definition": pl.String})
    return pl.concat([table, checks], how="horizontal").with_columns(pl.col("measured").alias("speedup_mean"))

"""The cost model against the time measured inside llama-server, as published numbers and a page part.

Every draft-model configuration of every publishable session (``server_cost.server_cost_table``): the
measured speedup, the model before with its residual, the model after (the draft timed in the server)
with its residual, and beside them the measured components (draft ms and verify ms per step in the
server, the verify pass llama-bench's r(k+1) assumes, the per-step overhead) and the model with the
per-step overhead estimated from the session's other configurations.  Keys:
``spec-sc-<host8>-<session8>-<config>-<what>``; each number cites the configuration's requests, the
baseline's it is divided by, and the cost-model rows it read (numerator and denominator).
``markdown`` writes the table with ``{{< var KEY__v >}}`` cells (every value a link to its entry);
a session without the server's counters reads "not measured in this session" in those cells.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from benchbook import atomicfile, costmodel
from benchbook.numbers import NO_INTERVAL_POOLED, Number, Unit, build_of, line_ranges, make_key, row_measured

from . import analysis as sp
from . import server_cost as sc
from .plan import planned

COMPUTATION = "benchbook.experiments.speculative.server_cost.server_cost_table"
COMPUTATION_OVERHEAD = "benchbook.experiments.speculative.server_cost.with_overhead"
REPLICATION = "requests of one configuration, pooled over prompts and repetitions (one session)"

#: column -> (what in the key, unit, label); the order of the page's table
WHAT: dict[str, tuple[str, Unit, str]] = {
    "measured": (
        "measured",
        Unit.SPEEDUP,
        "measured decode speedup (pooled rate ÷ the session's baseline's)",
    ),
    "model_before": ("model_before", Unit.SPEEDUP, "cost model τ/(k·c+r(k+1)), c and r from llama-bench"),
    "residual_before": ("residual_before", Unit.FRACTION, "cost model before ÷ measured − 1"),
    "model_after": ("model_after", Unit.SPEEDUP, "cost model τ/(k·c_server+r(k+1)), c timed in llama-server"),
    "residual_after": ("residual_after", Unit.FRACTION, "cost model after ÷ measured − 1"),
    "draft_ms": ("draft_ms", Unit.MS, "drafting time per verify step inside llama-server"),
    "verify_ms": ("verify_ms", Unit.MS, "decode time minus drafting time per verify step (server)"),
    "verify_bench_ms": (
        "verify_bench_ms",
        Unit.MS,
        "verify step the model assumes: r(k+1) × the step",
    ),
    "overhead_ms": ("overhead_ms", Unit.MS, "per-step overhead: verify ms in the server − r(k+1) × step"),
    "model_overhead": (
        "model_overhead",
        Unit.SPEEDUP,
        "model after + per-step overhead β(k+1)c (β: other configs)",
    ),
    "residual_overhead": (
        "residual_overhead",
        Unit.FRACTION,
        "model with per-step overhead ÷ measured − 1",
    ),
}
#: the columns that read the server's counters (a session below -lv 4 has none)
NEEDS_STATS: tuple[str, ...] = ("model_after", "residual_after", "draft_ms", "verify_ms", "overhead_ms")
NEEDS_STATS += ("model_overhead", "residual_overhead")


def key_of(row: dict, what: str) -> str:
    """The registry key of column ``what`` of a ``server_cost_table`` row."""
    return make_key("spec-sc", row["host_id"][:8], row["session_id"][:8], row["config_id"], WHAT[what][0])


def _cost_rows(cost: sp.CostModel | None, keys: list[str]) -> list[dict]:
    return [u for k in keys for u in (cost.used.get(k, []) if cost else [])]


def _cited(
    row: dict,
    cost_rows: list[dict],
    extra_lines: tuple[int, ...] | list[int] = (),
    extra_runs: tuple[str, ...] | list[str] = (),
) -> tuple[list[dict], list[str]]:
    """(sources, run ids): the row's requests and baseline's, ``extra_lines`` of the same file (the
    records of the runs ``extra_runs``), and the cost-model rows."""
    by_file: dict[str, set[int]] = {}
    for f in row["files"]:
        by_file.setdefault(f, set())
    (req_file,) = row["files"]  # one host's file
    by_file[req_file] |= set(row["lines"]) | set(extra_lines)
    for u in cost_rows:
        by_file.setdefault(u["file"], set()).add(u["line"])
    ids = [*row["run_ids"], *extra_runs, *(u["run_id"] for u in cost_rows if u.get("run_id"))]
    ids = list(dict.fromkeys(ids))
    return [{"file": f, "lines": line_ranges(sorted(ls))} for f, ls in sorted(by_file.items())], ids


def numbers(
    table: pl.DataFrame, costs: dict[str, sp.CostModel | None], toolchains: dict[str, dict]
) -> list[Number]:
    """The published numbers of ``table`` (``server_cost.server_cost_table``): one per non-null column
    of ``WHAT`` per row.  ``costs``: the cost model of each session; ``toolchains``: toolchain snapshots
    by id (for each number's build)."""
    out: list[Number] = []
    if table.is_empty():
        return out
    rows = table.to_dicts()
    for r in rows:
        cost = costs.get(r["session_id"])
        r_keys = (
            [f"r{x}" for x in costmodel.r_sizes_read(cost.r, r["k"] + 1)]
            if cost and r["k"] is not None
            else []
        )
        own_c = [f"c:{r['draft_model_id']}"]
        others = [
            o for o in rows if o["session_id"] == r["session_id"] and o["config_id"] in r["overhead_configs"]
        ]
        other_lines = [x for o in others for x in o["lines"]]
        other_runs = [x for o in others for x in o["run_ids"]]
        other_r = [
            f"r{x}" for o in others for x in (costmodel.r_sizes_read(cost.r, o["k"] + 1) if cost else [])
        ] + [f"c:{o['draft_model_id']}" for o in others]
        reads = {
            "measured": [],
            "model_before": own_c + r_keys,
            "residual_before": own_c + r_keys,
            "model_after": r_keys,
            "residual_after": r_keys,
            "draft_ms": [],
            "verify_ms": [],
            "verify_bench_ms": r_keys,
            "overhead_ms": r_keys,
            "model_overhead": own_c + r_keys + other_r,
            "residual_overhead": own_c + r_keys + other_r,
        }
        build = build_of(toolchains.get(r["toolchain_id"]), r["build_number"], r["build_commit"])
        for col, (_, unit, label) in WHAT.items():
            if r.get(col) is None:
                continue
            overhead = col in ("model_overhead", "residual_overhead")
            # a number built on the cost model carries its rows' caveats too (with_caveats)
            cost_cav = list(r.get("cost_caveats") or []) if reads[col] else []
            sources, ids = _cited(
                r, _cost_rows(cost, reads[col]), *((other_lines, other_runs) if overhead else ((), ()))
            )
            out.append(
                Number(
                    key=key_of(r, col),
                    value=round(float(r[col]), 4),
                    unit=unit,
                    label=f"{r['config_id']}, session {r['session_id'][:8]} "
                    f"(host {r['host_id'][:8]}): {label}",
                    n=int(r["n"]),
                    ci_method=NO_INTERVAL_POOLED,
                    computation=COMPUTATION_OVERHEAD if overhead else COMPUTATION,
                    replication=REPLICATION,
                    sources=sources,
                    run_ids=ids,
                    **row_measured(r),
                    caveats=[*(r.get("caveats") or []), *cost_cav],
                    **build,
                )
            )
    return out


def _cell(row: dict, col: str, published: set[str]) -> str:
    key = key_of(row, col)
    if key in published:
        return f"{{{{< var {key}__v >}}}}"
    if col in NEEDS_STATS and row["stats"] != sc.MEASURED:
        return row["stats"]  # not measured in this session, or incomplete (sc.incomplete)
    if col in ("model_overhead", "residual_overhead"):
        if row.get("beta_loo") is not None:  # with_overhead: the denominator was not positive
            return "none: the fitted overhead (β < 0) exceeds the rest of the step"
        if row.get("c_server") is None and row.get("verify_ms") is not None:
            return "none: no token drafted (no draft cost per token to scale the overhead by)"
        if row.get("model_after") is None or row.get("c_bench") is None:
            return "not known (no cost model or verify steps)"
        return "fewer than 2 other configurations"
    return "not known (no cost model or verify steps)"


def markdown(table: pl.DataFrame, nums: list[Number]) -> str:
    """The page part: one row per (session, configuration) with the ``WHAT`` columns as registry
    links, a note on the sessions that ran at -lv 4, and what each column is."""
    if table.is_empty():
        return "No draft-model configuration has a session with a baseline.\n"
    published = {n.key for n in nums}
    heads = {
        "measured": "measured (×)",
        "model_before": "model before (×)",
        "residual_before": "residual before",
        "model_after": "model after (×)",
        "residual_after": "residual after",
        "draft_ms": "draft ms/step (server)",
        "verify_ms": "verify ms/step (server)",
        "verify_bench_ms": "verify ms/step (llama-bench r(k+1))",
        "overhead_ms": "per-step overhead (ms)",
        "model_overhead": "model + overhead (×)",
        "residual_overhead": "residual + overhead",
    }
    head = ["host", "session", "log level", "configuration", "requests"] + [heads[c] for c in WHAT]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in table.sort("host_id", "started_at", "config_id").iter_rows(named=True):
        cells = [
            r["host_id"][:8],
            r["session_id"][:8],
            "-lv 4 (trace)" if r["lv4"] else "default",
            r["config_id"],
            str(r["n"]),
        ] + [_cell(r, c, published) for c in WHAT]
        lines.append("| " + " | ".join(cells) + " |")
    lv4 = sorted({r["session_id"][:8] for r in table.iter_rows(named=True) if r["lv4"]})
    notes = ["", within_sentence(table)]
    notes += [
        "",
        "Measured speedup here: the configuration's decode rate pooled over its requests (Σ decoded "
        "tokens ÷ Σ decode time, the first token of each request excluded) ÷ the same session's "
        "baseline's on the same prompts; the models' τ, k, c and r are pooled the same way. "
        "Residual = model ÷ measured − 1 (a positive residual: the model promises more than was measured).",
        "",
    ]
    if lv4:
        notes += [
            f"Sessions {', '.join(lv4)} ran llama-server at `-lv 4` (trace): the server then logs its "
            "speculative counters and drafting time after each request (`spec_stats` in the records) and "
            "writes trace lines at every decode step, for the baseline too; their rates are compared only "
            "with their own baseline at the same log level.",
            "",
        ]
    else:
        notes += [
            "No session yet ran llama-server at `-lv 4`, the log level at which the server reports its "
            "drafting time (`speculative.log_verbosity: 4` in `params.yaml` for new sessions): the model "
            "after and the measured components are not measured in these sessions.",
            "",
        ]
    return "\n".join(lines) + "\n" + "\n".join(notes)


#: a model "lands" when its residual is within this fraction of the measured speedup (issue 15 item 4)
WITHIN = 0.15


def within_sentence(table: pl.DataFrame) -> str:
    """How many rows each model lands within ``WITHIN`` of the measured speedup, counted from the table
    (rows without that model are said as such)."""
    parts = []
    for col, name in (
        ("residual_before", "before"),
        ("residual_after", "after"),
        ("residual_overhead", "with the per-step overhead"),
    ):
        vals = [v for v in table[col].to_list() if v is not None] if col in table.columns else []
        if vals:
            inside = sum(abs(v) <= WITHIN for v in vals)
            parts.append(f"{name}: {inside} of {len(vals)} rows")
        else:
            parts.append(f"{name}: no row (not measured)")
    return f"Models within ±{WITHIN:.0%} of the measured speedup — " + "; ".join(parts) + "."


def write(out_dir: Path, table: pl.DataFrame, nums: list[Number]) -> None:
    """``out_dir/server_cost.md`` (``markdown``) and ``server_cost.parquet`` (the table)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    atomicfile.write_text(out_dir / "server_cost.md", markdown(table, nums))
    if not table.is_empty():
        atomicfile.write_with(out_dir / "server_cost.parquet", table.drop("argv", "run_ids").write_parquet)


def with_caveats(
    table: pl.DataFrame, hosts: dict[str, dict], thresholds: dict, rules: list[str]
) -> pl.DataFrame:
    """``table`` (``sessions_table``: with ``server_cost.with_checks``' columns) with a ``caveats`` column:
    ``rules`` (the speculative report's ``WANTED_RULES``, the rules its per-prompt table is judged by)
    evaluated on each row with its own host's thresholds (``caveats.evaluate_per_host``; ``hosts``: host
    snapshots by id; ``thresholds``: ``params["report"]``).  Every host's rows: the page shows them all.
    And ``cost_caveats``: the session's cost-model rows checked (``caveats.with_cost_caveats``:
    ``cost_rows_disturbed`` from the row's ``cost_r1``), for the numbers that read the cost model."""
    from benchbook import caveats

    if table.is_empty():
        return table
    judged = caveats.evaluate_per_host(table, "speculative", thresholds, hosts, rules)
    return caveats.with_cost_caveats(judged, thresholds)


def sessions_table(raw_dir: Path, req: pl.DataFrame) -> tuple[pl.DataFrame, dict[str, sp.CostModel | None]]:
    """``server_cost.server_cost_table`` over the sessions under ``raw_dir`` (``data/raw/speculative``)
    that the ``speculative:server_cost`` policy publishes (``measured.select``: every session whose
    records prove a complete measurement, every host), with the caveat rules' columns
    (``server_cost.with_checks`` over those sessions' ``analysis.config_table``); and the cost model of
    each.  ``req``: ``analysis.load_requests(raw_dir)``."""
    from benchbook import measured

    chosen = measured.select(
        "speculative:server_cost",
        measured.check("speculative:server_cost", raw_dir, planned(Path(raw_dir).parent / "snapshots")),
    )
    costs = {c.session_id: sp.cost_model(raw_dir, c.session_id) for c in chosen.published}
    from benchbook.experiments.tool_gap.analysis import verify_ratios

    # o(k) measured where the host's verify step is (the tool_gap experiment), else fitted
    ratios = verify_ratios(Path(raw_dir).parent)
    table = sc.server_cost_table(req, sc.load_stats(raw_dir), costs, ratios=ratios)
    if table.is_empty():
        return table, costs
    configs = sp.config_table(req.filter(pl.col("session_id").is_in(list(costs))))
    return sc.with_checks(table, configs), costs

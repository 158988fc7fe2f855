"""The server's per-step overhead as a cost-model term, estimated from the other configurations.

``depth_table``'s "after" model, τ / (k·c_server + r(k+1)), still over-predicts the GPU speedups
(+8% to +23%): the verify step measured inside llama-server (``v_server``: decode time minus the
drafting time, per verify step, over the baseline step) exceeds llama-bench's pass r(k+1) by
``overhead_server``.  Across the configurations of one host, session and depth that excess grows with
the tokens of the step times the draft's own decode cost, so the term is

    o(k) = β · (k+1) · c_alone          (c_alone: the draft served alone ÷ the baseline step)

with one coefficient β per (host, session, depth).  To keep the prediction honest, β for a
configuration is the least-squares fit (through the origin) over the *other* configurations of the
same host, session and depth (leave one configuration out): its own overhead is never used.  The
model then is τ / (k·c_server + r(k+1) + o(k)); ``residual_overhead`` = model ÷ measured − 1.
Fewer than two other configurations of the host, session and depth: no estimate (null).
``lines_overhead``: every line the term read — the row's own requests and baseline, the other
configurations' requests, the drafts served alone (c_alone) and the target's llama-bench rows (r(k+1)) —
the citation of ``residual_overhead``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl


def beta_fit(xs: list[float], ys: list[float]) -> float | None:
    """Least-squares slope through the origin, Σxy / Σx²; None for fewer than 2 points.

    >>> beta_fit([1.0, 2.0], [2.0, 4.0])
    2.0
    """
    if len(xs) < 2:
        return None
    sxx = sum(x * x for x in xs)
    return sum(x * y for x, y in zip(xs, ys, strict=True)) / sxx if sxx else None


@dataclass(frozen=True)
class OverheadFit:
    """The overhead term of one row: ``beta`` (β, fitted over ``others``, the rows it read) and
    ``o_k`` = β · (k+1) · c of the row (baseline steps)."""

    beta: float
    o_k: float
    others: list[dict]


def fit_left_out(
    row: dict, rows: list[dict], group: tuple[str, ...], c: str, usable: Callable[[dict], bool]
) -> OverheadFit | None:
    """β and o(k) of ``row`` from the *other* configurations (module doc): the rows of ``rows`` for which
    ``usable`` holds, with ``row``'s values of the ``group`` columns and another ``config_id``; β =
    ``beta_fit`` of their ``overhead_server`` against (k+1) · their column ``c``; o(k) = β · (k+1) ·
    ``row[c]``.  None when β has no estimate (fewer than two such rows).  Used by ``with_overhead``
    (c = ``c_alone``, per host, session and depth) and ``speculative.server_cost.with_overhead``
    (c = ``c_server``, per session)."""
    others = [
        o
        for o in rows
        if usable(o) and all(o[g] == row[g] for g in group) and o["config_id"] != row["config_id"]
    ]
    beta = beta_fit([(o["k"] + 1) * o[c] for o in others], [o["overhead_server"] for o in others])
    if beta is None:
        return None
    return OverheadFit(beta, beta * (row["k"] + 1) * row[c], others)


def with_overhead(depth: pl.DataFrame) -> pl.DataFrame:
    """The speculative rows of ``depth_table`` with ``beta_loo``, ``overhead_model`` (o(k)),
    ``model_overhead`` and ``residual_overhead`` (module doc); other rows unchanged (nulls)."""
    need = ("overhead_server", "c_alone", "c_server", "r_k1", "tau", "k", "speedup")
    if depth.is_empty() or not all(c in depth.columns for c in need):
        return depth

    def usable(o: dict) -> bool:
        return o["role"] == "speculative" and all(o.get(c) is not None for c in need)

    rows = list(depth.iter_rows(named=True))
    out = []
    alone_lines: dict[tuple, list[int]] = {}
    for o in rows:
        if o["role"] == "draft_only":
            alone_lines.setdefault((o["host_id"], o["session_id"], o["depth"]), []).extend(o["lines"])
    for r in rows:
        row = dict(
            r,
            beta_loo=None,
            overhead_model=None,
            model_overhead=None,
            residual_overhead=None,
            lines_overhead=None,
        )
        fit = (
            fit_left_out(r, rows, ("host_id", "session_id", "depth"), "c_alone", usable)
            if usable(r)
            else None
        )
        if fit is not None:
            model = r["tau"] / (r["k"] * r["c_server"] + r["r_k1"] + fit.o_k)
            read = set(r["lines"]) | set(r.get("bench_lines_after") or [])
            read |= set(alone_lines.get((r["host_id"], r["session_id"], r["depth"]), []))
            for o in fit.others:
                read |= set(o["lines"]) | set(o.get("bench_lines_after") or [])
            row |= {
                "lines_overhead": sorted(read),
                "beta_loo": fit.beta,
                "overhead_model": fit.o_k,
                "model_overhead": model,
                "residual_overhead": model / r["speedup"] - 1,
            }
        out.append(row)
    return pl.DataFrame(out, infer_schema_length=None)

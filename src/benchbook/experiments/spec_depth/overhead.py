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
Fewer than two other configurations of the host, session and depth: no estimate (null); a fitted
o(k) so negative that the denominator is not positive: no model (null).  The fit and the model are
``benchbook.costmodel``'s (``fit_left_out``, ``predicted``), shared with the speculative server-cost
table.
``lines_overhead``: every line the term read — the row's own requests and baseline, the other
configurations' requests, the drafts served alone (c_alone) and the target's llama-bench rows (r(k+1)) —
the citation of ``residual_overhead``, ``overhead_model`` and ``model_overhead``; ``lines_beta``: the lines
β alone read (the other configurations' requests and baseline, their r(k+1) rows and their drafts
served alone), the citation of ``beta_loo``.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from ... import costmodel


def with_overhead(depth: pl.DataFrame, ratios: Mapping[tuple[str, int], float] | None = None) -> pl.DataFrame:
    """The speculative rows of ``depth_table`` with ``beta_loo``, ``overhead_model`` (o(k)),
    ``model_overhead``, ``residual_overhead``, ``lines_overhead`` and ``lines_beta`` (module doc); other
    rows unchanged (nulls).  ``ratios``: the measured verify-step ratios by (host_id, k)
    (``costmodel.overhead_term``): a row of such a host and n_max takes o(k) from it, ``beta_loo`` null
    and ``verify_ratio`` set."""
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
            lines_beta=None,
            verify_ratio=None,
        )
        fit = (
            costmodel.overhead_term(r, rows, ("host_id", "session_id", "depth"), "c_alone", usable, ratios)
            if usable(r)
            else None
        )
        if fit is not None:
            # β read the other configurations: their requests and baseline, their r(k+1) rows and the
            # requests of their drafts served alone (c_alone); the model adds the row's own
            beta_read: set[int] = set()
            for o in fit.others:
                beta_read |= set(o["lines"]) | set(o.get("bench_lines_after") or [])
                beta_read |= set(o.get("alone_lines") or [])
            read = beta_read | set(r["lines"]) | set(r.get("bench_lines_after") or [])
            read |= set(alone_lines.get((r["host_id"], r["session_id"], r["depth"]), []))
            # null where a negative fitted o(k) exceeds the rest of the step
            model = costmodel.predicted(r["tau"], r["k"], r["c_server"], r["r_k1"], fit.o_k)
            row |= {
                "lines_overhead": sorted(read),
                "lines_beta": sorted(beta_read),
                "beta_loo": fit.beta,
                "verify_ratio": fit.verify_ratio,
                "overhead_model": fit.o_k,
                "model_overhead": model,
                "residual_overhead": costmodel.residual(model, r["speedup"]),
            }
        out.append(row)
    return pl.DataFrame(out, infer_schema_length=None)

"""Order and state across the entries of raw logs: the columns the ``order_trend`` and
``cross_request_state`` rules read, computed for log tables as the analyses compute them for native
records (one rule, one definition each).

* A llama-bench row: ``identity.order_trend`` of its per-repetition rates in run order (``samples_ns``
  is written in the order the repetitions ran).
* The requests of one log file: one server process served them in file order, so its requests are
  repetitions under the native ``server_policy`` "same" (state carried from request to request: an
  ngram cache, a prompt cache holding the previous answer).  Grouped by prompt where every request of
  the file names its prompt (saved responses), else the file's requests in order (a server log names
  no prompt).  Per group: ``order_trend`` of the decode rates, and for speculative requests the slope of
  α over the request index (``alpha_trend_slope``, per request; α 0 for a request that drafted nothing,
  as ``experiments.speculative.analysis.config_table`` counts it), of the drafted tokens relative to
  their mean (``drafted_trend_rel``) and of the decode rate relative to its mean (``decode_trend_rel``:
  a log has no paired speedup per repetition).

Each rule that fires gets its reason beside the columns (``order_trend_reason``,
``cross_request_state_reason``): the values in order, so a verdict says what moved, not only that
something did.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from ..identity import order_trend
from ..stats import rep_trend

#: a ``logs.LogEntry`` (``logs`` imports this module, so the type is not imported here)
LogEntry = Any

#: columns a llama-bench log row gets from ``sample_order``
SAMPLE_SCHEMA: dict = {
    "order_n": pl.Int64,
    "order_rho": pl.Float64,
    "order_rho_rest": pl.Float64,
    "order_drift": pl.Float64,
    "order_trend_reason": pl.String,
}

#: columns the speculative log table gets from ``with_request_state``
REQUEST_SCHEMA: dict = {
    **SAMPLE_SCHEMA,
    "server_policy": pl.String,
    "alpha_trend_slope": pl.Float64,
    "drafted_trend_rel": pl.Float64,
    "decode_trend_rel": pl.Float64,
    "cross_request_state_reason": pl.String,
}


def sample_order(rates: list[float], unit: str = "tok/s") -> dict:
    """``order_n``, ``order_rho``, ``order_rho_rest``, ``order_drift`` and ``order_trend_reason`` of a
    llama-bench row's per-repetition rates (in run order); nulls below 3 rates."""
    t = order_trend(rates)
    if t is None:
        return dict.fromkeys(SAMPLE_SCHEMA)
    return {
        "order_n": t.n,
        "order_rho": t.rho,
        "order_rho_rest": t.rho_rest,
        "order_drift": t.drift,
        "order_trend_reason": t.text(unit, "repetitions"),
    }


def _counts(rec: dict) -> tuple[int | None, int | None]:
    drafted = rec.get("draft_n", rec.get("n_drafted"))
    accepted = rec.get("draft_n_accepted", rec.get("n_accept"))
    return drafted, accepted


def _groups(entries: list[LogEntry]) -> dict[tuple, list[LogEntry]]:
    """Request entries per server process (file, and ``LogEntry.process`` within it: a restart in one
    log starts a new process, ``ingest.serverlog.process_starts``) and, where every request of the
    process names it, per prompt; each group in file order."""
    by_server: dict[tuple[str, int], list[LogEntry]] = {}
    for e in entries:
        if e.kind in ("speculative", "baseline"):
            by_server.setdefault((e.file, e.process), []).append(e)
    out: dict[tuple, list[LogEntry]] = {}
    for (name, process), reqs in by_server.items():
        reqs = sorted(reqs, key=lambda e: e.lines[0])
        known = all(e.record.get("prompt_id") is not None for e in reqs)
        for e in reqs:
            out.setdefault((name, process, e.record.get("prompt_id") if known else None), []).append(e)
    return out


def _server(e: LogEntry) -> str:
    """The server of a request, for reasons: its file, and the line its process starts at where the
    file holds a later one (``server.log`` or ``server.log from line 28``)."""
    return f"{e.file} from line {e.process_line}" if e.process else e.file


def _state_of(group: list[LogEntry]) -> dict:
    """The cross-request columns of one server's requests (module doc)."""
    spec = [e for e in group if e.kind == "speculative"]
    out: dict = {"server_policy": "same"}
    if len(spec) < 2:
        return out
    counts = [_counts(e.record) for e in spec]
    alphas = [(a or 0) / d if d else 0.0 for d, a in counts]
    drafted = [d or 0 for d, _ in counts]
    rates = [e.value for e in spec]
    out["alpha_trend_slope"] = rep_trend(alphas)
    mean_drafted = sum(drafted) / len(drafted)
    slope = rep_trend(drafted)
    out["drafted_trend_rel"] = slope / mean_drafted if slope is not None and mean_drafted else None
    known = [r for r in rates if r is not None]
    slope = rep_trend(rates) if len(known) >= 2 else None
    mean_rate = sum(known) / len(known) if known else 0.0
    out["decode_trend_rel"] = slope / mean_rate if slope is not None and mean_rate else None
    accepted = " → ".join(f"{a}/{d}" for d, a in counts)
    shown_alpha = " → ".join(f"{x:.3f}" for x in alphas)
    text = (
        f"{len(spec)} requests to one server ({_server(spec[0])}, in order): accepted/drafted {accepted} "
        f"(α {shown_alpha}, {out['alpha_trend_slope']:+.3f} per request)"
    )
    if len(known) >= 2 and known[0]:
        text += (
            f"; decode rate {' → '.join(f'{r:.1f}' for r in known)} tok/s (×{known[-1] / known[0]:.2f} "
            "from the first to the last)"
        )
    out["cross_request_state_reason"] = text + ": state carried between requests, not the draft on new text"
    return out


def with_request_state(spec: pl.DataFrame, entries: list[LogEntry]) -> pl.DataFrame:
    """``spec`` (the speculative log table, one row per request, ``config_id`` = entry id) with the
    ``REQUEST_SCHEMA`` columns of ``entries`` (module doc)."""
    rows = []
    for group in _groups(entries).values():
        state = _state_of(group)
        order = order_trend([e.value for e in group])
        what = f"requests to one server ({_server(group[0])})"
        for e in group:
            row = {"config_id": e.id, **dict.fromkeys(REQUEST_SCHEMA), **state}
            if order is not None:
                row.update(
                    order_n=order.n,
                    order_rho=order.rho,
                    order_rho_rest=order.rho_rest,
                    order_drift=order.drift,
                    order_trend_reason=order.text("tok/s", what),
                )
            rows.append(row)
    extra = pl.DataFrame(rows, schema={"config_id": pl.String, **REQUEST_SCHEMA})
    # these columns are this module's (per server and prompt): they replace a per-file first guess
    kept = spec.drop([c for c in REQUEST_SCHEMA if c in spec.columns])
    return kept.join(extra, on="config_id", how="left", maintain_order="left")

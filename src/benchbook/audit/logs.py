"""The one adapter between the audit and ``benchbook.ingest``: raw logs in a folder -> audited entries.

Every file under the folder goes through ``ingest.ingest_file`` (every format ``benchbook ingest``
reads: llama-bench json/jsonl/csv/md/sql, llama-sweep-bench tables, llama-server logs,
llama-speculative-simple output, saved llama-server responses and ``/completion`` exchanges with their
``argv``, ``request`` and client clock, as our speculative runner and ``tests/fixtures/speculative``
keep them).  A file with no llama.cpp output in it (someone else's CSV or JSON) is listed as not read
(``ingest.foreign``), never an error.

Each entry exposes every value its log states, by the claim metric that names it (``LogEntry.metrics``,
units in ``METRIC_UNITS``), each with the definition it was computed by (``LogEntry.definitions``):
decode and prefill rates (the rate definition the log itself prints, ``ingest.serverlog.
RATE_DEFINITIONS``), acceptance (accepted ÷ drafted, with llama.cpp's definition of its build), τ and
the mean acceptance length, durations and the sampling share; the context settings the file states
(``ingest.settings``: requested and effective ``n_batch``/``n_ubatch``/``flash_attn``).

Out of it come two tables with the columns of the native tables of the same kinds, so every rule
that applies to our own records applies to a log (``tests/test_audit_log_tables.py`` counts them):

* ``llama_bench``: one row per llama-bench (or sweep-bench) result, the columns of
  ``experiments.llama_bench.analysis.rate_stats`` + ``spread.with_session_spread``: ``run_ids`` (the
  entry id), ``n`` (samples), ``mean_tps`` (mean of per-repetition rates, ``(n_prompt + n_gen) /
  sample_s``; llama-bench's ``avg_ts`` definition), ``sd_tps``, ``cv``, the log-scale interval,
  ``llama_bench_avg_ts`` (the file's own), ``first_sample_ratio``/``median_tps``/``mean_tps_rest``
  (``cold_start``'s first-sample form), ``placement``/``placement_unresolved``, ``state_effect``
  (rows of one configuration in one file that disagree beyond their noise), ``other_session_means``
  (the same configuration in the folder's other files: other sessions), ``cluster_gap_ratio``/
  ``cluster_gap_frac``, the configuration fields, and ``load1_max`` (null: a log records no load);
* ``speculative``: one row per request of a server log, speculative-simple output or completion
  exchange, the columns of ``experiments.speculative.analysis.config_table``: ``config_id`` (entry
  id), ``session_id`` (the file: one server process), ``n`` (1 request), ``decode_tps_mean``,
  ``prefill_tps_mean``, ``alpha``, ``tau``, ``drafted``/``accepted``/``verify_steps``, ``speedup_mean``
  (÷ the paired baseline's decode rate; null without a pair), ``cap_hit``, ``output_equal`` (paired,
  token ids known), ``greedy``/``sampler`` (from the request or the server's sampler line: a
  temperature-0.8 log is not greedy, so ``output_mismatch`` does not judge it), ``cache_n_max``/
  ``cache_state``/``warm_share``, ``acceptance_definition`` (of the build), ``speedup_trend_slope`` and
  ``drafted_reps`` per server process of a log (``_trends``), and per process and prompt
  ``server_policy`` ("same": one process served them), the order and the trends of α and drafted
  tokens over the requests (``audit.logstate.with_request_state``).

A speculative entry is paired with a baseline only when a pair names both files (claims file
``log_pairs`` or ``--pair SPEC=BASELINE``); without one it gets no speedup and a note saying why.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ..experiments.speculative.analysis import ACCEPTANCE_DEFINITIONS, acceptance_definition, sampler_of
from ..identity import EXPERT_OVERRIDE, MEASUREMENT_FIELDS, STATE_EFFECT_ALPHA, state_effect
from ..ingest import IngestError, detect_format, foreign, ingest_file
from ..ingest.read import ingest_text, read_source
from ..ingest.responses import torn_last_line
from ..ingest.serverlog import RATE_DEFINITIONS, process_starts, rate_definition
from ..ingest.settings import Setting, context_settings
from ..stats import cluster_gap, log_t_interval, rep_trend
from .logstate import SAMPLE_SCHEMA, sample_order, with_request_state

#: claim metric -> the unit a log entry's value of it is in (``LogEntry.metrics``)
METRIC_UNITS = {
    "decode_tps": "tok/s",
    "prefill_tps": "tok/s",
    "mixed_tps": "tok/s",
    "acceptance_rate": "ratio",
    "tau": "tokens",
    "mean_accepted_length": "tokens",
    "prompt_eval_ms": "ms",
    "eval_ms": "ms",
    "total_ms": "ms",
    "latency": "ms",
    "sampling_share": "ratio",
}
#: what τ (and llama.cpp's "mean acceptance length", the same number) counts
TAU_DEFINITION = "1 + accepted ÷ verify steps (tokens per verify step, the verifier's own token counted)"
PREFILL_DEFINITION = "prompt tokens evaluated ÷ prompt eval time (tokens served from the cache not counted)"
LLAMA_BENCH_DEFINITION = "mean of per-repetition (n_prompt + n_gen) ÷ sample time (llama-bench avg_ts)"


class LogsError(ValueError):
    """A log folder or pair that cannot be audited; the message names the file and the fix."""


@dataclass
class LogEntry:
    """One audited unit of a log: a llama-bench result or one request (``kind``), with the file
    lines it came from, the main rate (``metric``, ``value``: tok/s), every value the log states by
    claim metric (``metrics``, in ``METRIC_UNITS``) with the definition each was computed by
    (``definitions``), the counts behind them (``counts``), the file's own figure and the notes."""

    id: str
    kind: str  # "llama_bench" | "speculative" | "baseline"
    file: str
    lines: list[int]
    text: str
    metric: str  # decode_tps | prefill_tps | mixed_tps
    value: float | None  # recomputed rate, tok/s
    stated: float | None = None  # the file's own figure (llama-bench avg_ts)
    n: int | None = None
    notes: list[str] = field(default_factory=list)
    record: dict = field(default_factory=dict, repr=False)  # the ingested record it came from
    speedup: float | None = None  # decode rate ÷ its paired baseline request's (speculative entries)
    baseline: str | None = None  # file:line of that baseline request
    metrics: dict[str, float] = field(default_factory=dict)
    #: metric -> (low, high) its value may take given the rounding of the times the log prints
    #: (``printed_span``); a metric absent is exact as recomputed
    spans: dict[str, tuple[float, float]] = field(default_factory=dict)
    definitions: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # accepted, drafted, generated, prompt_n, ...
    settings: dict[str, Setting] = field(default_factory=dict)  # the file's context settings
    rate_definition: str | None = None  # the RATE_DEFINITIONS key of ``value`` (requests)
    process: int = 0  # the server process of its file that served it (``ingest.serverlog.process_starts``)
    process_line: int = 1  # the line where that process starts (1: the file's first)

    @property
    def evidence(self) -> list[str]:
        return [f"{self.file}:{line}" for line in self.lines]

    def value_of(self, metric: str) -> float | None:
        """The entry's value of claim metric ``metric`` (in ``METRIC_UNITS[metric]``); None when the log
        does not state it."""
        return self.metrics.get(metric)

    def span_of(self, metric: str) -> tuple[float, float] | None:
        """(low, high) of claim metric ``metric`` given the rounding of the inputs the log prints
        (``spans``), else (value, value); None when the log does not state it."""
        v = self.metrics.get(metric)
        return None if v is None else self.spans.get(metric, (v, v))


@dataclass
class Logs:
    """Entries of every log in a folder and the two caveat tables (module doc)."""

    entries: list[LogEntry]
    llama_bench: pl.DataFrame
    speculative: pl.DataFrame
    skipped: dict[str, str] = field(default_factory=dict)  # file name -> why it was not read
    #: "file:line" -> why that line of a file otherwise read was not (a torn last response)
    lines_not_read: dict[str, str] = field(default_factory=dict)


#: ``file:N:`` at the start of an ingest error: the line it names
_ERROR_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): ")


def read_excerpt(path: str | Path) -> tuple[list[dict], dict[int, str]]:
    """Records of a log excerpt pasted into a post (``draftfile`` writes them to ``X.claims.logs/``):
    untrusted text that nobody can correct, so a line that ``benchbook ingest`` refuses (a value
    rounded by hand, ``draft acceptance rate = 0.71000 (300 accepted / 422 generated)``; a negative
    time; a count that cannot be) is left out, its line number kept (blank, so every other line keeps
    its number), and the rest read: ``(records, {line: why it was not read})``.  A user's own raw log
    (``--logs DIR``) is read by ``read``, which refuses the whole file instead.

    Raises:
        LogsError: an error that names no line of the file (no llama.cpp output left, an encoding),
            as ``read``.
    """
    path = Path(path)
    lines = read_source(path)[0].split("\n")
    bad: dict[int, str] = {}
    while True:
        try:
            recs = ingest_text(path, "\n".join(lines)).records
            return [
                {**r, **r["timings"]} if r["schema"] == "benchbook.speculative_request" else r for r in recs
            ], bad
        except IngestError as e:
            m = _ERROR_LINE.match(str(e))
            n = int(m.group("line")) if m and m.group("file") == str(path) else 0
            if not 1 <= n <= len(lines) or n in bad or not lines[n - 1].strip():
                msg = str(e) if str(path) in str(e) else f"{path}: {e}"
                raise LogsError(f"{msg} (benchbook audit reads what `benchbook ingest` reads)") from None
            bad[n] = str(e)[m.end() :] if m else str(e)
            lines[n - 1] = ""


def read(path: str | Path) -> list[dict]:
    """Records of one log file: ``ingest.ingest_file`` (saved ``/completion`` exchanges and responses
    included: ``ingest.responses``).

    A server-log request (``benchbook.speculative_request``) has its ``timings`` (``predicted_n``,
    ``predicted_ms``, ``draft_n``, ``draft_n_accepted``...) also at the top level, where the entries
    below read them.

    Raises:
        LogsError: neither reads it (the ingest error's file:line and fix are kept).
    """
    path = Path(path)
    try:
        return [
            {**r, **r["timings"]} if r["schema"] == "benchbook.speculative_request" else r
            for r in ingest_file(path)
        ]
    except IngestError as e:
        msg = str(e) if str(path) in str(e) else f"{path}: {e}"
        msg = msg.replace("fix: pass --format", "fix: save the tool's output unchanged")
        raise LogsError(f"{msg} (benchbook audit --logs reads what `benchbook ingest` reads)") from None


def not_a_log(path: str | Path) -> str | None:
    """Why ``path`` is no llama.cpp output at all (a README, a screenshot), or None when it may be one:
    ``ingest.detect_format`` finds no format in it and it is no saved ``/completion`` exchange.  Such a
    file is left out of an audit and named (``Logs.skipped``), with what it is instead where that can
    be told (``ingest.foreign``: someone else's CSV, a notes JSON); a file in a known format that is
    malformed still fails the audit (``read``)."""
    path = Path(path)
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None  # UTF-16 text (a PowerShell redirect): ingest names the encoding and the fix
    if b"\0" in raw[:8192]:
        return "a binary file, not a llama.cpp text output"
    text = raw.decode("utf-8", errors="replace")
    why = foreign(text)
    if why is not None:
        return why
    try:
        detect_format(text)
    except IngestError:
        return (
            "no llama.cpp output found in it (no llama-bench table or rows, server log or spec-simple lines)"
        )
    return None


def _ingest_notes(rec: dict) -> list[str]:
    """What ingest flagged on the record: derived values that disagree with their own inputs
    (``inconsistent``, e.g. a printed tok/s against its ms and tokens) and what it did to the values."""
    return [f"inconsistent in the log: {x}" for x in rec.get("inconsistent") or []] + [
        f"ingest: {x}" for x in rec.get("ingest_notes") or []
    ]


def _first_sample_ratio(rates: list[float]) -> float | None:
    """First sample ÷ the median of the others (``cold_start``'s first-sample form, as
    ``experiments.llama_bench.analysis`` computes it); None below 2 samples."""
    if len(rates) < 2:
        return None
    rest = sorted(rates[1:])
    mid = len(rest) // 2
    median = rest[mid] if len(rest) % 2 else (rest[mid - 1] + rest[mid]) / 2
    return rates[0] / median if median else None


def _settings_of(lb: dict, settings: dict[str, Setting]) -> dict:
    """``n_batch``/``n_ubatch``/``flash_attn`` of a llama-bench row: the row's own values, else the
    effective values the file's context lines state (a sweep-bench table prints none)."""
    out = {k: lb.get(k) for k in ("n_batch", "n_ubatch")}
    fa = lb.get("flash_attn")
    out["flash_attn"] = {1: "on", 0: "off", -1: "auto"}.get(fa, fa) if fa is not None else None
    for k, s in settings.items():
        if out.get(k) is None and s.effective is not None:
            out[k] = s.effective
    return out


def _lb_entry(rec: dict, name: str, settings: dict[str, Setting]) -> tuple[LogEntry, dict]:
    lb = rec["llama_bench"]
    n_p, n_g = int(lb.get("n_prompt") or 0), int(lb.get("n_gen") or 0)
    test = "pg" if n_p and n_g else ("pp" if n_p else "tg")
    label = {"pp": f"pp{n_p}", "tg": f"tg{n_g}", "pg": f"pp{n_p}+tg{n_g}"}[test]
    samples = lb.get("samples_ns") or []
    rates = [(n_p + n_g) * 1e9 / ns for ns in samples if ns]
    n = len(rates) or None
    mean = sum(rates) / n if n else None
    sd = ((sum((r - mean) ** 2 for r in rates) / (n - 1)) ** 0.5) if n and n > 1 else None
    ci = log_t_interval(mean, sd, n) if mean is not None and n else None
    eid = f"{name}:{rec['source_line']}"
    if rec.get("source_format") in ("sweep-bench", "compare"):  # one line, several results
        eid += f":{label if rec.get('source_format') == 'sweep-bench' else rec['run_id'][:8]}"
    metric = {"pp": "prefill_tps", "tg": "decode_tps", "pg": "mixed_tps"}[test]
    notes = [] if n else ["n: not in the file (this format carries no samples_ns); avg_ts used as stated"]
    notes += _ingest_notes(rec)
    value = mean if mean is not None else lb.get("avg_ts")
    if n:
        definition = LLAMA_BENCH_DEFINITION
    elif rec.get("source_format") == "sweep-bench":
        definition = (
            f"{'PP ÷ T_PP' if test == 'pp' else 'TG ÷ T_TG'} of one run, as llama-sweep-bench prints it"
        )
    else:
        definition = f"avg_ts as the file states it ({rec.get('source_format')}: no samples)"
    entry = LogEntry(
        eid,
        "llama_bench",
        name,
        [rec["source_line"]],
        f"llama-bench {label}, {lb.get('model_type')}, -t {lb.get('n_threads')}",
        metric,
        value,
        lb.get("avg_ts"),
        n,
        notes,
        record=rec,
        metrics={metric: value} if value is not None else {},
        definitions={metric: definition},
        settings=settings,
    )
    ot = str(lb.get("tensor_buft_overrides") or "").strip() or "none"
    ratio, frac = cluster_gap(rates)
    others = rates[1:]
    row = {
        "run_ids": [eid],
        "host_id": rec.get("host_id"),
        "toolchain_id": rec.get("toolchain_id"),
        "session_id": rec.get("session_id"),
        "n": n,
        "mean_tps": value,
        "sd_tps": sd,
        "cv": (sd / mean if sd is not None and mean else None),
        "ci_low_tps": ci[0] if ci else None,
        "ci_high_tps": ci[1] if ci else None,
        "llama_bench_avg_ts": lb.get("avg_ts"),
        "median_tps": _median(rates),
        "mean_tps_rest": sum(others) / len(others) if others else None,
        "first_sample_ratio": _first_sample_ratio(rates),
        "test": test,
        "phase": "warm",
        "model_id": lb.get("model_type"),
        "n_prompt": n_p,
        "n_gen": n_g,
        "n_depth": lb.get("n_depth"),
        "n_threads": lb.get("n_threads"),
        "n_gpu_layers": lb.get("n_gpu_layers"),
        "n_cpu_moe": lb.get("n_cpu_moe"),
        "type_k": lb.get("type_k"),
        "type_v": lb.get("type_v"),
        **_settings_of(lb, settings),
        "placement": ot,
        "placement_unresolved": bool((lb.get("n_cpu_moe") or 0) > 0 and EXPERT_OVERRIDE not in ot),
        "build_number": lb.get("build_number"),
        "load1_max": None,  # a log records no load average: busy_host judges it unknown, never quiet
        "cluster_gap_ratio": ratio,
        "cluster_gap_frac": frac,
        "_rates": rates,
        "_config": json.dumps(
            {k: v for k, v in lb.items() if k not in MEASUREMENT_FIELDS}, sort_keys=True, default=str
        ),
        "_file": name,
        **sample_order(rates),  # order_trend: the repetitions in run order (audit.logstate)
    }
    return entry, row


def _median(xs: list[float]) -> float | None:
    if not xs:
        return None
    ys = sorted(xs)
    mid = len(ys) // 2
    return ys[mid] if len(ys) % 2 else (ys[mid - 1] + ys[mid]) / 2


def _between_rows(rows: list[dict]) -> None:
    """``state_effect`` (rows of one configuration in one file that disagree beyond their noise,
    ``identity.state_effect``) and ``other_session_means`` (the means of the same configuration in the
    folder's other files: each file is its own session), in place."""
    by_config: dict[str, list[dict]] = {}
    for r in rows:
        by_config.setdefault(r["_config"], []).append(r)
    for group in by_config.values():
        for r in group:
            r["other_session_means"] = [o["mean_tps"] for o in group if o["_file"] != r["_file"]]
            r["state_effect"] = False
        for f in {r["_file"] for r in group}:
            same = [r for r in group if r["_file"] == f and len(r["_rates"]) >= 2]
            if len(same) < 2:
                continue
            lo, hi = min(same, key=lambda r: r["mean_tps"]), max(same, key=lambda r: r["mean_tps"])

            def var(r: dict) -> float:
                return (r["sd_tps"] or 0.0) ** 2

            flag = state_effect(
                [len(lo["_rates"])],
                [lo["mean_tps"]],
                [var(lo)],
                [len(hi["_rates"])],
                [hi["mean_tps"]],
                [var(hi)],
                [len(same)],
                STATE_EFFECT_ALPHA,
            )
            if bool(flag[0]):
                for r in same:
                    r["state_effect"] = True


def is_cli_perf(rec: dict) -> bool:
    """True when the record was read from llama-cli / llama-completion ``llama_perf_context_print``
    lines rather than llama-server ``print_timing`` lines (the two tools count a rate differently)."""
    return "llama_perf_context_print" in str(rec.get("source_text") or "")


@dataclass(frozen=True)
class Rate:
    """A decode rate (tok/s), the ``RATE_DEFINITIONS`` key it follows and the arithmetic."""

    value: float | None
    definition: str | None
    arithmetic: str


def decode_rate(rec: dict, definition: str | None = None) -> Rate:
    """Decode rate of a request by the definition its log prints (``ingest.serverlog.rate_definition``:
    ``timings.predicted_rate_definition``; a completion's ``predicted_per_second``): b11434's
    llama-server counts ``predicted_n - 1`` tokens (the first comes out of prompt processing: ``1132.38
    ms / 32 tokens ... 27.38 tokens per second`` = 31 / 1.13238 s), older builds every token (``2500.00
    ms / 300 tokens ... 120.00 tokens per second`` = 300 / 2.5 s); llama-cli's
    ``llama_perf_context_print`` the runs it counts (``1e3 / t_eval_ms * n_eval``, llama.cpp
    ``src/llama-context.cpp``).  A log that prints no rate: llama-cli n/ms, llama-server (n-1)/ms
    (b11434), said so.  llama-speculative-simple prints its ``decoded ... speed`` itself (n/s).
    ``definition`` (a ``RATE_DEFINITIONS`` key): that definition instead (a speedup's two sides)."""
    n, ms = rec.get("predicted_n"), rec.get("predicted_ms")
    if ms and n:
        printed = rec.get("predicted_rate_definition")
        if printed is None and rec.get("predicted_per_second") is not None:
            printed = rate_definition(int(n), float(ms), None, str(rec["predicted_per_second"]))
        definition = definition or printed or ("n/ms" if is_cli_perf(rec) else "(n-1)/ms")
        count = n if definition == "n/ms" else n - 1
        value = count * 1000.0 / ms
        how = (
            "as the log prints it"
            if printed == definition
            else f"the log prints {printed}"
            if printed
            else "the tool's own definition; the log prints no rate"
        )
        other = n - 1 if definition == "n/ms" else n
        other_def = "(n-1)/ms" if definition == "n/ms" else "n/ms"
        return Rate(
            value,
            definition,
            f"{count} tokens / {ms:g} ms = {value:.2f} tok/s (rate definition {definition}: "
            f"{RATE_DEFINITIONS[definition]}, {how}; {other_def} gives {other * 1000.0 / ms:.2f})",
        )
    if rec.get("decode_tps") is not None:
        return Rate(
            rec["decode_tps"],
            "n/ms",
            f"{rec.get('decode_n')} tokens / {rec.get('decode_s')} s = {rec['decode_tps']} tok/s as "
            "llama-speculative-simple prints it (rate definition n/ms: every decoded token ÷ time)",
        )
    return Rate(None, None, "no decode rate in the log")


#: half the last printed digit of a time llama.cpp's timing lines print (tools/server/server.cpp's
#: print_timing and llama_perf_context_print: "%10.2f ms"), in ms
PRINTED_MS_HALF = 0.005


def printed_span(tokens: int, ms: float) -> tuple[float, float]:
    """(low, high) tok/s of ``tokens`` over a time printed as ``ms`` to two decimals (``PRINTED_MS_HALF``):
    the rate llama.cpp computed from the unrounded time lies between; 678 tokens over "393.93 ms" ->
    (1721.096…, 1721.140…), so its printed "1721.13 tokens per second" agrees with the log."""
    return (
        tokens * 1000.0 / (ms + PRINTED_MS_HALF),
        tokens * 1000.0 / max(ms - PRINTED_MS_HALF, PRINTED_MS_HALF),
    )


def _request_values(rec: dict, rate: Rate) -> tuple[dict[str, float], dict[str, str], dict[str, int]]:
    """Every value a request states, by claim metric (``METRIC_UNITS``), their definitions, and the
    counts behind them (module doc)."""
    metrics: dict[str, float] = {}
    defs: dict[str, str] = {}
    counts: dict[str, int] = {}
    if rate.value is not None:
        metrics["decode_tps"], defs["decode_tps"] = rate.value, rate.arithmetic
    p_n, p_ms = rec.get("prompt_n"), rec.get("prompt_ms")
    if p_n and p_ms:
        metrics["prefill_tps"] = p_n * 1000.0 / p_ms
        defs["prefill_tps"] = f"{p_n} tokens / {p_ms:g} ms: {PREFILL_DEFINITION}"
    elif rec.get("encode_tps") is not None:
        metrics["prefill_tps"] = rec["encode_tps"]
        defs["prefill_tps"] = "encoded tokens ÷ time, as llama-speculative-simple prints it"
    drafted = rec.get("draft_n", rec.get("n_drafted"))
    accepted = rec.get("draft_n_accepted", rec.get("n_accept"))
    for key, v in (
        ("drafted", drafted),
        ("accepted", accepted),
        ("generated", rec.get("predicted_n")),
        ("prompt_n", p_n),
        ("cache_n", rec.get("cache_n")),
    ):
        if v is not None:
            counts[key] = int(v)
    definition = acceptance_definition(rec.get("build_number"))
    if drafted:
        metrics["acceptance_rate"] = accepted / drafted
        named = f"{definition}: {ACCEPTANCE_DEFINITIONS[definition]}" if definition else "build unknown"
        defs["acceptance_rate"] = f"{accepted} accepted / {drafted} drafted (llama.cpp α, {named})"
    steps = rec.get("verify_steps")
    mean_len = rec.get("draft_mean_len")
    if mean_len is not None or (steps and accepted is not None):
        tau = float(mean_len) if mean_len is not None else 1.0 + (accepted or 0) / float(steps or 1)
        how = f"the log's mean len {mean_len}" if mean_len is not None else f"1 + {accepted} / {steps}"
        for m in ("tau", "mean_accepted_length"):
            metrics[m], defs[m] = tau, f"{how}: {TAU_DEFINITION}"
        if steps:
            counts["verify_steps"] = int(steps)
    for m, key, what in (
        ("prompt_eval_ms", "prompt_ms", "prompt eval time"),
        ("eval_ms", "predicted_ms", "eval time"),
        ("total_ms", "total_ms", "total time"),
        ("latency", "total_ms", "the server's total time (prompt eval + generation; no queue, no network)"),
    ):
        if rec.get(key) is not None:
            metrics[m], defs[m] = float(rec[key]), what
    if rec.get("sampling_share_of_eval") is not None:
        metrics["sampling_share"] = rec["sampling_share_of_eval"]
        defs["sampling_share"] = "sampling time ÷ eval time (llama-cli's sampling line)"
    return metrics, defs, counts


def _request_entry(rec: dict, name: str, i: int, settings: dict[str, Setting]) -> LogEntry:
    drafted = rec.get("draft_n", rec.get("n_drafted"))
    kind = "speculative" if drafted is not None else "baseline"
    lines = rec.get("source_lines") or [rec.get("source_line", 1)]
    lines = sorted(lines.values()) if isinstance(lines, dict) else list(lines)
    rate = decode_rate(rec)
    metrics, defs, counts = _request_values(rec, rate)
    spans: dict[str, tuple[float, float]] = {}
    if rec.get("source_format") == "server-log":
        # the times as the log prints them, to two decimals: each rate recomputed from them is known
        # to that rounding only
        p_n, p_ms = rec.get("prompt_n"), rec.get("prompt_ms")
        if "prefill_tps" in metrics and p_n and p_ms:
            spans["prefill_tps"] = printed_span(int(p_n), float(p_ms))
        n, ms = rec.get("predicted_n"), rec.get("predicted_ms")
        if rate.value is not None and n and ms:
            counted = int(n) if rate.definition == "n/ms" else int(n) - 1
            spans["decode_tps"] = printed_span(counted, float(ms))
    text = (
        f"{'speculative' if drafted is not None else 'plain'} decoding, request {i + 1}: "
        f"{rec.get('predicted_n', rec.get('n_predict'))} tokens"
    )
    return LogEntry(
        f"{name}:{lines[0]}",
        kind,
        name,
        lines,
        text,
        "decode_tps",
        rate.value,
        None,
        1,
        _ingest_notes(rec),
        rec,
        metrics=metrics,
        spans=spans,
        definitions=defs,
        counts=counts,
        settings=settings,
        rate_definition=rate.definition,
    )


def _baseline_of(entry: LogEntry, spec: list[LogEntry], plain: list[LogEntry]) -> tuple[LogEntry | None, str]:
    """The baseline request a speculative request is compared with, and how it was chosen: the one
    with the same prompt (``prompt_id``, when both logs know it), else the one at the same position
    in its log (request i with request i).  (None, why) when there is none; a speedup is never taken
    against a mean of other prompts' requests."""
    pid = entry.record.get("prompt_id")
    if pid is not None and all(b.record.get("prompt_id") is not None for b in plain):
        same = [b for b in plain if b.record.get("prompt_id") == pid]
        if same:
            return same[0], "same prompt, one request each"
        return None, f"the baseline log has no request with this prompt ({pid!r})"
    i = spec.index(entry)
    counts = f"{len(spec)} speculative and {len(plain)} baseline request(s), paired in order"
    if i >= len(plain):
        return None, f"no baseline request at position {i + 1} ({counts})"
    return plain[i], f"request {i + 1} of each log, one request each; {counts}"


def _sampler(rec: dict) -> tuple[bool | None, str | None]:
    """``(greedy, sampler)`` of a request (``experiments.speculative.analysis.sampler_of``): from the
    saved request body, else from the sampler line of the server log (``generation_settings``:
    ``temp``, ``top_k``, penalties); ``(None, None)`` when the log states neither (unknown, never
    assumed greedy)."""
    if isinstance(rec.get("request"), dict):
        return sampler_of(rec["request"])
    gs = rec.get("generation_settings") or {}
    if "temp" not in gs and "temperature" not in gs and "top_k" not in gs:
        return None, None
    body = {"temperature": gs.get("temp", gs.get("temperature")), "top_k": gs.get("top_k")}
    for k in ("repeat_penalty", "presence_penalty", "frequency_penalty", "dry_multiplier", "mirostat"):
        if k in gs:
            body[k] = gs[k]
    return sampler_of(body)


def _trends(rows: list[dict], files_with_many: set[str], process_of: dict[str, int]) -> None:
    """The per-log columns ``audit.logstate.with_request_state`` does not compute, in place, per server
    process of a log (``process_of``: config_id -> ``LogEntry.process``) as
    ``experiments.speculative.analysis.config_table`` computes them over repetitions: the slope of the
    paired speedups over the request index (``speedup_trend_slope``; a file of one request, or of saved
    responses, is no server's sequence: null) and the drafted tokens of each request
    (``drafted_reps``).  ``server_policy`` and the α and drafted trends are per process and prompt:
    ``with_request_state`` computes them."""
    by_file: dict[tuple[str, int], list[dict]] = {}
    for r in rows:
        by_file.setdefault((r["files"][0], process_of.get(r["config_id"], 0)), []).append(r)
    for (f, _), group in by_file.items():
        spec = [r for r in group if r["spec_type"] != "none"]
        drafted = [r["drafted"] for r in spec]
        s_slope = rep_trend([r["speedup_mean"] for r in spec]) if f in files_with_many and spec else None
        for r in group:
            speculative = r["spec_type"] != "none"
            r["speedup_trend_slope"] = s_slope if speculative else None
            r["drafted_reps"] = drafted if speculative else []


def outside(path: Path, inside: Path) -> str | None:
    """Why ``path`` is not read: a symbolic link (of the file or a folder above it) that leads out of
    the logs folder ``inside`` (resolved): a contributed logs folder must not make the builder read
    another file of its machine.  None for a file in the folder."""
    target = path.resolve()
    if target.is_relative_to(inside):
        return None
    return (
        "a symbolic link to a file outside the logs folder: not read (a contributed folder must not read "
        "the builder's files); fix: copy the log itself into the folder"
    )


def audit_logs(folder: str | Path, pairs: dict[str, str] | None = None, excerpts: bool = False) -> Logs:
    """Read every file under ``folder`` (sorted, recursively) and build the entries and tables; a
    symbolic link out of the folder is skipped, never read (``outside``).  ``excerpts``: the files are
    log excerpts a post pasted (the folder ``draftfile`` writes beside a drafted claims file): a line
    ingest refuses is left out and listed in ``Logs.lines_not_read`` (``read_excerpt``), never an
    error; otherwise (a user's own raw logs, ``--logs DIR``) such a line fails the audit (``read``).

    ``pairs`` maps a speculative log's file name (relative to ``folder``) to its baseline's.

    Raises:
        LogsError: ``folder`` is missing, a file cannot be read (file:line and fix), or a pair names a
        file that is not in the folder or a baseline file with no plain request.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise LogsError(f"{folder}: --logs must name a folder of llama.cpp outputs")
    pairs = dict(pairs or {})
    entries: list[LogEntry] = []
    lb_rows: list[dict] = []
    recs_of: dict[str, list[dict]] = {}
    skipped: dict[str, str] = {}
    lines_not_read: dict[str, str] = {}
    inside = folder.resolve()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")):
        name = str(path.relative_to(folder))
        why = outside(path, inside) or not_a_log(path)
        if why is not None:
            skipped[name] = why
            continue
        if excerpts:
            try:
                recs, bad = read_excerpt(path)
            except LogsError as refused:
                # an excerpt the drafter cut from the post's prose that ingest cannot read as a whole
                # ("n_drafted = 376, n_accept = 107" in a sentence, not llama-speculative's full
                # output): not read, named with why; the post is still audited
                skipped[name] = f"a log excerpt of the post that ingest cannot read: {refused}"
                continue
            for n, why in bad.items():
                lines_not_read[f"{name}:{n}"] = (
                    f"{why.split('; fix: ')[0]}; a line of the log excerpt the post pasted: left out, "
                    f"the rest of {name} read; fix: check this log's claims against the log as "
                    "llama-server printed it (ask the author), or delete their `log:`"
                )
        else:
            recs = read(path)
        recs_of[name] = recs
        text = path.read_text(encoding="utf-8", errors="replace")
        settings = context_settings(text)
        starts = process_starts(text) if any(r.get("source_format") == "server-log" for r in recs) else []
        torn = torn_last_line(text) if any(r.get("source_format") == "server-json" for r in recs) else None
        if torn is not None:
            lines_not_read[f"{name}:{torn}"] = (
                f"a torn last line (a response cut off mid-write: not JSON); the {len(recs)} complete "
                f"response{'s' * (len(recs) != 1)} before it read"
            )
        for i, rec in enumerate(recs):
            if rec.get("schema", "").endswith("llama_bench"):
                entry, row = _lb_entry(rec, name, settings)
                entries.append(entry)
                lb_rows.append(row)
            else:
                entry = _request_entry(rec, name, i, settings)
                entry.process = bisect.bisect_right(starts, entry.lines[0])
                entry.process_line = starts[entry.process - 1] if entry.process else 1
                entries.append(entry)
    for e in entries:
        e.notes += [
            f"setting differs: {s.text(e.file)}; the numbers are of the setting the context used"
            for s in e.settings.values()
            if s.differs
        ]
    _between_rows(lb_rows)
    for spec, base in pairs.items():
        for f in (spec, base):
            if f in skipped:
                raise LogsError(f"log pair {spec}={base}: {folder / f}: {skipped[f]}; fix: name a log")
            if f not in recs_of:
                raise LogsError(
                    f"log pair {spec}={base}: {f} is not a file under {folder}; files: {sorted(recs_of)}"
                )
    by_file: dict[str, list[LogEntry]] = {}
    for e in entries:
        by_file.setdefault(e.file, []).append(e)
    spec_rows = []
    for e in entries:
        if e.kind not in ("speculative", "baseline"):
            continue
        rec = e.record
        speedup = equal = None
        paired = None
        if e.kind == "speculative":
            base_file = pairs.get(e.file)
            if base_file is None:
                e.notes.append(
                    "no baseline named for this log: speedup not computed (name the pair in the "
                    "claims file `log_pairs` or with --pair SPEC=BASELINE)"
                )
            else:
                plain = [b for b in by_file[base_file] if b.kind == "baseline" and b.value]
                if not plain:
                    raise LogsError(
                        f"log pair {e.file}={base_file}: {base_file} holds no plain-decoding request"
                    )
                spec_entries = [x for x in by_file[e.file] if x.kind == "speculative"]
                paired, how = _baseline_of(e, spec_entries, plain)
                if e.value is None:
                    e.notes.append(
                        "no decode rate in this request (no predicted_n/predicted_ms): speedup not computed"
                    )
                elif paired is None or paired.value is None:
                    e.notes.append(f"speedup not computed: {how}")
                else:
                    base_value, same_def = paired.value, ""
                    if e.rate_definition and paired.rate_definition not in (None, e.rate_definition):
                        # one definition on both sides: the baseline recomputed by the request's
                        aligned = decode_rate(paired.record, e.rate_definition).value
                        if aligned is not None:
                            base_value = aligned
                            same_def = (
                                f"; the baseline at {e.rate_definition} like this request (its log prints "
                                f"{paired.rate_definition}: {paired.value:.2f})"
                            )
                    speedup = e.value / base_value
                    e.speedup, e.baseline = speedup, paired.evidence[0]
                    e.notes.append(
                        f"speedup {speedup:.3f} = {e.value:.2f} / {base_value:.2f} tok/s "
                        f"(baseline request {paired.evidence[0]}, {how}{same_def})"
                    )
                if paired is not None and rec.get("tokens") and paired.record.get("tokens"):
                    equal = rec["tokens"] == paired.record["tokens"]
        greedy, sampler = _sampler(rec)
        if paired is not None and greedy is not None:
            base_greedy, _ = _sampler(paired.record)
            greedy = greedy and base_greedy is not False
        if equal is False and greedy is False:
            e.notes.append(
                f"outputs differ from the baseline's; not checked: the sampler is not greedy ({sampler}), "
                "so they may differ by design"
            )
        cap_hit = None
        if rec.get("stop_type") is not None:
            cap_hit = rec["stop_type"] == "limit"
        cache_n = e.counts.get("cache_n")
        prompt_tokens = (
            cache_n + e.counts["prompt_n"] if cache_n is not None and "prompt_n" in e.counts else None
        )
        drafted, accepted = e.counts.get("drafted", 0), e.counts.get("accepted", 0)
        steps = e.counts.get("verify_steps")
        spec_rows.append(
            {
                "host_id": rec.get("host_id"),
                "toolchain_id": rec.get("toolchain_id"),
                "session_id": rec.get("session_id") or e.file,
                "config_id": e.id,
                "origin": rec.get("origin"),
                "build_number": rec.get("build_number"),
                "prompt_id": rec.get("prompt_id"),
                "spec_type": "none"
                if e.kind == "baseline"
                else ("draft" if rec.get("draft_model_id") else "unknown"),
                "draft_model_id": rec.get("draft_model_id"),
                "n": 1,
                "n_requests": 1,
                "decode_tps_mean": e.value,
                "decode_tps_sd": None,
                "decode_tps_ci_low": None,
                "decode_tps_ci_high": None,
                "rate_definition": e.rate_definition,
                "prefill_tps_mean": e.metrics.get("prefill_tps"),
                "alpha": e.metrics.get("acceptance_rate"),
                "tau": e.metrics.get("tau") if e.kind == "speculative" else 1.0,
                "drafted": drafted,
                "accepted": accepted,
                "verify_steps": steps,
                "k_eff": drafted / steps if steps else None,
                "acceptance_definition": acceptance_definition(rec.get("build_number")),
                "speedup_mean": speedup,
                "speedup_ci_low": None,
                "speedup_ci_high": None,
                "speedup_n": 1 if speedup is not None else 0,
                "cap_hit": cap_hit,
                "cap_equal_work": None,
                "cap": rec.get("n_predict"),
                "predicted_n_mean": rec.get("predicted_n"),
                "output_equal": equal,
                "greedy": greedy,
                "sampler": sampler,
                "cache_n_max": cache_n,
                "cache_state": None if cache_n is None else ("warm" if cache_n > 0 else "cold"),
                "warm_share": cache_n / prompt_tokens if cache_n is not None and prompt_tokens else None,
                "load1_max": None,  # a log records no load average
                "lines": e.lines,
                "files": [e.file],
                "kind": e.kind,
            }
        )
    many = {f for f, es in by_file.items() if sum(x.kind != "llama_bench" for x in es) > 1}
    _trends(spec_rows, {f for f in many if not f.endswith(".json")}, {e.id: e.process for e in entries})
    lb = pl.DataFrame(
        [{k: v for k, v in r.items() if not k.startswith("_")} for r in lb_rows],
        schema=LB_LOG_SCHEMA,
    )
    spec_df = pl.DataFrame(spec_rows, schema=SPEC_LOG_SCHEMA)
    spec_df = with_request_state(spec_df, entries)  # order_trend, cross_request_state (audit.logstate)
    return Logs(entries, lb, spec_df, skipped, lines_not_read)


#: Columns of the log tables (module doc), typed even when every value is null.
LB_LOG_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "run_ids": pl.List(pl.String),
    "host_id": pl.String,
    "toolchain_id": pl.String,
    "session_id": pl.String,
    "n": pl.Int64,
    "mean_tps": pl.Float64,
    "sd_tps": pl.Float64,
    "cv": pl.Float64,
    "ci_low_tps": pl.Float64,
    "ci_high_tps": pl.Float64,
    "llama_bench_avg_ts": pl.Float64,
    "median_tps": pl.Float64,
    "mean_tps_rest": pl.Float64,
    "first_sample_ratio": pl.Float64,
    "test": pl.String,
    "phase": pl.String,
    "model_id": pl.String,
    "n_prompt": pl.Int64,
    "n_gen": pl.Int64,
    "n_depth": pl.Int64,
    "n_threads": pl.Int64,
    "n_gpu_layers": pl.Int64,
    "n_cpu_moe": pl.Int64,
    "type_k": pl.String,
    "type_v": pl.String,
    "n_batch": pl.Int64,
    "n_ubatch": pl.Int64,
    "flash_attn": pl.String,
    "placement": pl.String,
    "placement_unresolved": pl.Boolean,
    "build_number": pl.Int64,
    "load1_max": pl.Float64,
    "cluster_gap_ratio": pl.Float64,
    "cluster_gap_frac": pl.Float64,
    "other_session_means": pl.List(pl.Float64),
    "state_effect": pl.Boolean,
    **SAMPLE_SCHEMA,
}
SPEC_LOG_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "host_id": pl.String,
    "toolchain_id": pl.String,
    "session_id": pl.String,
    "config_id": pl.String,
    "origin": pl.String,
    "build_number": pl.Int64,
    "prompt_id": pl.String,
    "spec_type": pl.String,
    "draft_model_id": pl.String,
    "n": pl.Int64,
    "n_requests": pl.Int64,
    "decode_tps_mean": pl.Float64,
    "decode_tps_sd": pl.Float64,
    "decode_tps_ci_low": pl.Float64,
    "decode_tps_ci_high": pl.Float64,
    "rate_definition": pl.String,
    "prefill_tps_mean": pl.Float64,
    "alpha": pl.Float64,
    "tau": pl.Float64,
    "drafted": pl.Int64,
    "accepted": pl.Int64,
    "verify_steps": pl.Int64,
    "k_eff": pl.Float64,
    "acceptance_definition": pl.String,
    "speedup_mean": pl.Float64,
    "speedup_ci_low": pl.Float64,
    "speedup_ci_high": pl.Float64,
    "speedup_n": pl.Int64,
    "cap_hit": pl.Boolean,
    "cap_equal_work": pl.Boolean,
    "cap": pl.Int64,
    "predicted_n_mean": pl.Float64,
    "output_equal": pl.Boolean,
    "greedy": pl.Boolean,
    "sampler": pl.String,
    "cache_n_max": pl.Int64,
    "cache_state": pl.String,
    "warm_share": pl.Float64,
    "load1_max": pl.Float64,
    "lines": pl.List(pl.Int64),
    "files": pl.List(pl.String),
    "kind": pl.String,
    "server_policy": pl.String,
    "alpha_trend_slope": pl.Float64,
    "drafted_trend_rel": pl.Float64,
    "speedup_trend_slope": pl.Float64,
    "drafted_reps": pl.List(pl.Int64),
}

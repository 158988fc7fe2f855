"""The one adapter between the audit and ``benchbook.ingest``: raw logs in a folder -> audited entries.

Every file under the folder goes through ``ingest.ingest_file`` (every format ``benchbook ingest``
reads: llama-bench json/jsonl/csv/md/sql, llama-server logs, llama-speculative-simple output, saved
llama-server responses and ``/completion`` exchanges with their ``argv``, ``request`` and client clock,
as our speculative runner and ``tests/fixtures/speculative`` keep them).  When ingest emits native
record kinds, only this module changes.

Out of it come two tables in the shapes ``caveats`` already evaluates for native records:

* ``llama_bench``: one row per llama-bench result: ``run_ids`` (the entry id), ``n`` (samples),
  ``mean_tps`` (mean of per-repetition rates, ``(n_prompt + n_gen) / sample_s``; llama-bench's
  ``avg_ts`` definition), ``sd_tps``, ``cv``, ``llama_bench_avg_ts`` (the file's own), ``test``
  (pp | tg | pg), ``phase`` ("warm"), ``model_id``, ``n_gpu_layers``, ``n_cpu_moe``;
* ``speculative``: one row per request of a server log, speculative-simple output or completion
  exchange: ``config_id`` (entry id), ``n`` (1 request), ``decode_tps_mean`` (``_rate``),
  ``alpha`` (accepted ÷ drafted), ``speedup_mean`` (÷ the paired baseline's decode rate; null
  without a pair),
  ``speedup_ci_high`` (null: one request), ``cap_hit``, ``output_equal`` (paired, token ids
  known), ``prompt_id``.

A speculative entry is paired with a baseline only when a pair names both files (claims file
``log_pairs`` or ``--pair SPEC=BASELINE``); without one it gets no speedup and a note saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ..ingest import IngestError, detect_format, foreign, ingest_file
from .logstate import SAMPLE_SCHEMA, sample_order, with_request_state


class LogsError(ValueError):
    """A log folder or pair that cannot be audited; the message names the file and the fix."""


@dataclass
class LogEntry:
    """One audited unit of a log: a llama-bench result or one request (``kind``), with the file
    lines it came from, the rate recomputed (tok/s), the file's own figure and the notes."""

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

    @property
    def evidence(self) -> list[str]:
        return [f"{self.file}:{line}" for line in self.lines]


@dataclass
class Logs:
    """Entries of every log in a folder and the two caveat tables (module doc)."""

    entries: list[LogEntry]
    llama_bench: pl.DataFrame
    speculative: pl.DataFrame
    skipped: dict[str, str] = field(default_factory=dict)  # file name -> why it was not read


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


def _lb_entry(rec: dict, name: str) -> tuple[LogEntry, dict]:
    lb = rec["llama_bench"]
    n_p, n_g = int(lb.get("n_prompt") or 0), int(lb.get("n_gen") or 0)
    test = "pg" if n_p and n_g else ("pp" if n_p else "tg")
    label = {"pp": f"pp{n_p}", "tg": f"tg{n_g}", "pg": f"pp{n_p}+tg{n_g}"}[test]
    samples = lb.get("samples_ns") or []
    rates = [(n_p + n_g) * 1e9 / ns for ns in samples if ns]
    n = len(rates) or None
    mean = sum(rates) / n if n else None
    sd = ((sum((r - mean) ** 2 for r in rates) / (n - 1)) ** 0.5) if n and n > 1 else None
    eid = f"{name}:{rec['source_line']}"
    metric = {"pp": "prefill_tps", "tg": "decode_tps", "pg": "mixed_tps"}[test]
    notes = [] if n else ["n: not in the file (this format carries no samples_ns); avg_ts used as stated"]
    notes += _ingest_notes(rec)
    entry = LogEntry(
        eid,
        "llama_bench",
        name,
        [rec["source_line"]],
        f"llama-bench {label}, {lb.get('model_type')}, -t {lb.get('n_threads')}",
        metric,
        mean if mean is not None else lb.get("avg_ts"),
        lb.get("avg_ts"),
        n,
        notes,
        record=rec,
    )
    row = {
        "run_ids": [eid],
        "n": n,
        "mean_tps": mean if mean is not None else lb.get("avg_ts"),
        "sd_tps": sd,
        "cv": (sd / mean if sd is not None and mean else None),
        "llama_bench_avg_ts": lb.get("avg_ts"),
        "test": test,
        "phase": "warm",
        "model_id": lb.get("model_type"),
        "n_gpu_layers": lb.get("n_gpu_layers"),
        "n_cpu_moe": lb.get("n_cpu_moe"),
        **sample_order(rates),  # order_trend (logstate)
    }
    return entry, row


def is_cli_perf(rec: dict) -> bool:
    """True when the record was read from llama-cli / llama-completion ``llama_perf_context_print``
    lines rather than llama-server ``print_timing`` lines (the two tools count a rate differently)."""
    return "llama_perf_context_print" in str(rec.get("source_text") or "")


def _rate(rec: dict) -> float | None:
    """Decode rate, tok/s, by the tool's own definition: llama-server divides ``predicted_ms`` by
    ``predicted_n - 1`` (the first token comes out of prompt processing; its log prints
    ``1132.38 ms / 32 tokens ... 27.38 tokens per second`` = 31 / 1.13238 s); llama-cli's
    ``llama_perf_context_print`` divides by the runs it counts, ``n_eval`` (``eval time = 550.00 ms /
    11 runs ... 20.00 tokens per second`` = 11 / 0.55 s; llama.cpp ``src/llama-context.cpp``
    ``llama_perf_context_print``: ``1e3 / t_eval_ms * n_eval``); llama-speculative-simple prints its
    ``decoded ... speed`` itself."""
    if rec.get("predicted_ms") and rec.get("predicted_n"):
        runs = rec["predicted_n"] if is_cli_perf(rec) else rec["predicted_n"] - 1
        return runs * 1000.0 / rec["predicted_ms"]
    return rec.get("decode_tps")


def _request_entry(rec: dict, name: str, i: int) -> LogEntry:
    drafted = rec.get("draft_n", rec.get("n_drafted"))
    kind = "speculative" if drafted is not None else "baseline"
    lines = rec.get("source_lines") or [rec.get("source_line", 1)]
    lines = sorted(lines.values()) if isinstance(lines, dict) else list(lines)
    tps = _rate(rec)
    text = (
        f"{'speculative' if drafted is not None else 'plain'} decoding, request {i + 1}: "
        f"{rec.get('predicted_n', rec.get('n_predict'))} tokens"
    )
    return LogEntry(
        f"{name}:{lines[0]}", kind, name, lines, text, "decode_tps", tps, None, 1, _ingest_notes(rec), rec
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


def audit_logs(folder: str | Path, pairs: dict[str, str] | None = None) -> Logs:
    """Read every file under ``folder`` (sorted, recursively) and build the entries and tables.

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
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")):
        name = str(path.relative_to(folder))
        why = not_a_log(path)
        if why is not None:
            skipped[name] = why
            continue
        recs = read(path)
        recs_of[name] = recs
        for i, rec in enumerate(recs):
            if rec.get("schema", "").endswith("llama_bench"):
                entry, row = _lb_entry(rec, name)
                entries.append(entry)
                lb_rows.append(row)
            else:
                entries.append(_request_entry(rec, name, i))
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
        drafted = rec.get("draft_n", rec.get("n_drafted"))
        accepted = rec.get("draft_n_accepted", rec.get("n_accept"))
        speedup = equal = None
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
                    speedup = e.value / paired.value
                    e.speedup, e.baseline = speedup, paired.evidence[0]
                    e.notes.append(
                        f"speedup {speedup:.3f} = {e.value:.2f} / {paired.value:.2f} tok/s "
                        f"(baseline request {paired.evidence[0]}, {how})"
                    )
                if paired is not None and rec.get("tokens") and paired.record.get("tokens"):
                    equal = rec["tokens"] == paired.record["tokens"]
        cap_hit = None
        if rec.get("stop_type") is not None:
            cap_hit = rec["stop_type"] == "limit"
        spec_rows.append(
            {
                "config_id": e.id,
                "n": 1,
                "decode_tps_mean": e.value,
                "alpha": accepted / drafted if drafted else None,
                "speedup_mean": speedup,
                "speedup_ci_high": None,
                "cap_hit": cap_hit,
                "output_equal": equal,
                "prompt_id": rec.get("prompt_id"),
                "kind": e.kind,
            }
        )
    lb = pl.DataFrame(
        lb_rows,
        schema={
            "run_ids": pl.List(pl.String),
            "n": pl.Int64,
            "mean_tps": pl.Float64,
            "sd_tps": pl.Float64,
            "cv": pl.Float64,
            "llama_bench_avg_ts": pl.Float64,
            "test": pl.String,
            "phase": pl.String,
            "model_id": pl.String,
            "n_gpu_layers": pl.Int64,
            "n_cpu_moe": pl.Int64,
            **SAMPLE_SCHEMA,
        },
    )
    spec_df = pl.DataFrame(
        spec_rows,
        schema={
            "config_id": pl.String,
            "n": pl.Int64,
            "decode_tps_mean": pl.Float64,
            "alpha": pl.Float64,
            "speedup_mean": pl.Float64,
            "speedup_ci_high": pl.Float64,
            "cap_hit": pl.Boolean,
            "output_equal": pl.Boolean,
            "prompt_id": pl.String,
            "kind": pl.String,
        },
    )
    spec_df = with_request_state(spec_df, entries)  # order_trend, cross_request_state (logstate)
    return Logs(entries, lb, spec_df, skipped)

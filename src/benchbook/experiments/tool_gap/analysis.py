"""Tool-gap analysis: llama-bench rows and llama-server requests of one session -> per-token times -> the
parts of the gap between llama-bench's tg rate and the server's decode rate.

Everything is a per-token time in ms (times add, rates do not):

* llama-bench: a tg test's step ``samples_ns / 1e6 / n_gen`` per repetition (llama-bench times
  ``n_gen`` single-token decodes after a warm-up run, ``tools/llama-bench/llama-bench.cpp``
  ``test_gen``), at depth 0 (``B0``, the tg rate people quote) and at ``depth`` (``BD``); a pass of
  ``k+1`` tokens at ``depth``: ``samples_ns / 1e6`` (llama-bench ``-p k+1``).
* llama-server (the measured request of each server, ``request_index`` 1): the step as the server
  reports it, ``predicted_ms / predicted_n`` (the inverse of ``predicted_per_second``), and the step it
  really timed, ``predicted_ms / (predicted_n − 1)``: the first generated token is sampled from the
  prompt pass's logits and the generation clock starts only then (``if (slot.n_decoded == 1)
  slot.t_start_generation = t_current``, ``update_slots`` in llama.cpp
  ``tools/server/server-context.cpp``; the same since the server's first versions), so
  ``predicted_ms`` spans n − 1 decode steps while ``predicted_n`` counts n tokens.  The client's view
  ``(wall_ms − prompt_ms) / predicted_n``: the HTTP request, JSON and (streamed) events included.

The parts (``decompose``), each a difference of two means with Welch's interval (``stats.difference_
interval``) unless said otherwise, in waterfall order from ``B0``:

``depth``        BD − B0: llama-bench tg runs at an empty context unless ``-d``
``server_loop``  base's true step − BD: the server's own work per token (its sampler, detokenizing,
                 the slot's bookkeeping) at the same depth, batch and flash attention as llama-bench
``first_token``  base's reported step − its true step (paired per request, Student-t): the n vs n − 1
                 accounting, negative (the server's rate reads faster than it decoded)
``<factor>``     the factor's configuration − base, both as reported (one factor changed each)
``residual``     total − the sum of the parts above: what they leave unexplained, the interactions of
                 the factors among it (no interval)

``total`` = combined (every factor at once) as reported − B0.  ``within_bound``: |residual| ≤
``BOUND`` × |total| (the parts sum to the measured total within 10%).  Beside the waterfall, outside
the sum: ``http`` (combined, the client's step − the reported one, paired per request), ``cold`` (base,
the first request of a fresh server − the measured one) and per k ``verify`` (the server's verify step
``(predicted_ms − t_draft_ms) / gen_drafts`` of ``verify-k<k>`` ÷ llama-bench's ``k+1`` pass at
``depth``: ``stats.ratio_interval``, log scale).  Shares: part ÷ total (the interval: the part's ÷ the
total's mean), only where the total's interval excludes 0 (``measurable``; else no part has a share:
there is no measurable gap to decompose, and the parts are given in ms per token alone).  Rates
(tok/s) are means of per-repetition rates with the log-scale interval
(``stats.sample_interval``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ... import benchrows
from ...records import jsonl_lines
from ...schemas import PolarsDataType
from ...stats import LOG_T, WELCH, T, difference_interval, ratio_interval, sample_interval
from . import EXPERIMENT, FACTORS, REQUEST_SCHEMA

#: the parts must sum to the measured total within this share of it (issue 31)
BOUND = 0.10
#: the request of each server that is measured (0: the cold first one)
MEASURED_INDEX = 1

_BENCH_KEYS = ("host_id", "session_id", "toolchain_id", "model_id", "model_sha256")
_BENCH_READ = [*_BENCH_KEYS, "llama_bench", "run_id", "argv", "started_at", "ended_at"]
_BENCH_ROW = {"llama_bench": ["n_depth", "n_prompt", "n_gen", "samples_ns"]}


def load_bench(raw_dir: str | Path) -> pl.DataFrame:
    """One row per llama-bench test under ``raw_dir/tool_gap`` (``benchrows.read``: complete runs):
    host_id, session_id, toolchain_id, model_id, model_sha256, n_depth, n_prompt, n_gen, samples_ns
    (ns, one per repetition), argv, started_at, ended_at, file, line, run_id.

    Raises:
        records.RecordError: a line is not JSON or a record fails its kind's checks (file:line, field, fix).
    """
    rows = benchrows.read(Path(raw_dir) / EXPERIMENT, EXPERIMENT, _BENCH_READ, _BENCH_ROW)
    lb = pl.col("llama_bench").struct.field
    return rows.select(
        *_BENCH_KEYS,
        lb("n_depth").fill_null(0).alias("n_depth"),
        lb("n_prompt").alias("n_prompt"),
        lb("n_gen").alias("n_gen"),
        lb("samples_ns").alias("samples_ns"),
        "argv",
        "started_at",
        "ended_at",
        "file",
        "line",
        "run_id",
    )


def load_requests(raw_dir: str | Path) -> pl.DataFrame:
    """One row per ``benchbook.tool_gap.request`` record under ``raw_dir/tool_gap/*.jsonl``: host_id,
    session_id, toolchain_id, model_sha256, config_id, factor, rep, request_index, predicted_n,
    predicted_ms, prompt_ms, wall_ms, gen_drafts, t_draft_ms (null without the draft counters),
    load1_max (the higher 1-min load average of ``load_start``/``load_end``) and others_cpu_pct_max (the
    busiest other process of ``load_end``; both null where the record has no load snapshot, as the
    sessions before they were recorded), started_at, ended_at, argv, file, line, run_id.

    Raises:
        ValueError: a line is not JSON, or a request's timings lack predicted_n/predicted_ms (file:line;
            fix: re-measure with a build whose server reports them).
    """
    rows = []
    for f in sorted((Path(raw_dir) / EXPERIMENT).glob("*.jsonl")):
        if f.name.endswith(".quarantine.jsonl"):
            continue
        for i, line in enumerate(jsonl_lines(f.read_text(encoding="utf-8")), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as e:
                raise ValueError(f"{f}:{i}: not JSON ({e}); fix: quarantine or remove the line") from None
            if rec.get("schema") != REQUEST_SCHEMA:
                continue
            tm, st = rec.get("timings") or {}, rec.get("spec_stats") or {}
            if not tm.get("predicted_n") or not tm.get("predicted_ms"):
                raise ValueError(
                    f"{f}:{i}: field timings has no predicted_n/predicted_ms; fix: re-measure with a build "
                    "whose llama-server reports its timings"
                )
            rows.append(
                {
                    **{k: rec.get(k) for k in ("host_id", "session_id", "toolchain_id", "model_sha256")},
                    **{k: rec.get(k) for k in ("config_id", "factor", "rep", "request_index")},
                    "predicted_n": int(tm["predicted_n"]),
                    "predicted_ms": float(tm["predicted_ms"]),
                    "prompt_ms": float(tm.get("prompt_ms") or 0.0),
                    "wall_ms": float(rec["wall_ms"]),
                    "gen_drafts": st.get("gen_drafts"),
                    "t_draft_ms": st.get("t_draft_ms"),
                    **load_of(rec),
                    **{k: rec.get(k) for k in ("started_at", "ended_at", "argv")},
                    "file": str(f),
                    "line": i,
                    "run_id": rec.get("run_id"),
                }
            )
    return pl.DataFrame(rows, schema=REQUEST_COLUMNS) if rows else pl.DataFrame(schema=REQUEST_COLUMNS)


def load_of(rec: dict) -> dict:
    """``{"load1_max", "others_cpu_pct_max"}`` of a record's ``load_start``/``load_end`` snapshots
    (``provenance.load_snapshot``): the higher 1-min load average of the two and the highest CPU % of
    another process at the end (psutil, over the request); None where not recorded."""
    loads = [
        float(x["loadavg"][0])
        for x in (rec.get("load_start"), rec.get("load_end"))
        if isinstance(x, dict) and x.get("loadavg")
    ]
    procs = (rec.get("load_end") or {}).get("top_processes")
    return {
        "load1_max": max(loads, default=None),
        "others_cpu_pct_max": None
        if procs is None
        else max((float(p.get("cpu_percent") or 0) for p in procs), default=0.0),
    }


#: the columns of ``load_requests`` (also of an empty table: a folder without requests)
REQUEST_COLUMNS: dict[str, PolarsDataType] = {
    **dict.fromkeys(
        ("host_id", "session_id", "toolchain_id", "model_sha256", "config_id", "factor"), pl.String
    ),
    "rep": pl.Int64,
    "request_index": pl.Int64,
    "predicted_n": pl.Int64,
    "predicted_ms": pl.Float64,
    "prompt_ms": pl.Float64,
    "wall_ms": pl.Float64,
    "gen_drafts": pl.Int64,
    "t_draft_ms": pl.Float64,
    "load1_max": pl.Float64,
    "others_cpu_pct_max": pl.Float64,
    "started_at": pl.String,
    "ended_at": pl.String,
    "argv": pl.List(pl.String),
    "file": pl.String,
    "line": pl.Int64,
    "run_id": pl.String,
}


@dataclass(frozen=True)
class Sample:
    """Per-token times (``values``, ms) and what they were read from: ``cites`` ``(file, line)`` and the
    records' ``run_ids``."""

    values: tuple[float, ...]
    cites: tuple[tuple[str, int], ...]
    run_ids: tuple[str, ...]

    def mean(self) -> float:
        """The mean of ``values`` (NaN when empty)."""
        return sum(self.values) / len(self.values) if self.values else math.nan

    def cv(self) -> float | None:
        """The coefficient of variation of the per-repetition rates ``1000 ÷ values`` (sd with n − 1 ÷
        mean; what ``caveats`` ``high_variance`` reads); None below 2 values."""
        rates = [1000.0 / v for v in self.values if v > 0]
        if len(rates) < 2:
            return None
        m = sum(rates) / len(rates)
        return math.sqrt(sum((r - m) ** 2 for r in rates) / (len(rates) - 1)) / m

    def __add__(self, other: Sample) -> Sample:
        """Both samples' citations (the values of ``self``): what a difference read."""
        return Sample(
            self.values, tuple(dict.fromkeys(self.cites + other.cites)), self.run_ids + other.run_ids
        )


@dataclass
class Part:
    """One bar of the decomposition: ``id`` (``depth``, ``server_loop``, ``first_token``, a factor,
    ``residual``; ``start``/``end``/``total``; extras ``http``, ``cold``, ``verify-k<k>``), ``ms`` (per
    token; for verify, the ratio), its interval ``ci`` and ``ci_method``, ``n`` (the smaller side's
    samples), ``share`` of the total (None outside the sum) with ``share_ci``, and the citations."""

    id: str
    kind: str  # start | part | residual | end | total | extra | verify
    ms: float
    ci: list[float] | None
    ci_method: str | None
    n: int
    cites: tuple[tuple[str, int], ...] = ()
    run_ids: tuple[str, ...] = ()
    share: float | None = None
    share_ci: list[float] | None = None
    rate: float | None = None  # tok/s of a start or end bar
    rate_ci: list[float] | None = None
    #: the highest coefficient of variation of the per-repetition rates among the samples it read
    #: (``Sample.cv``; the caveat row's ``cv``)
    cv: float | None = None


@dataclass
class Decomposition:
    """The parts of one session's gap (``decompose``): ``parts`` in waterfall order (start, the parts,
    residual, end), ``total``, ``extras`` (outside the sum) and ``within_bound``; ``host_id``,
    ``session_id``, ``toolchain_id``, ``model_sha256``, ``n_gen``, ``depth``; ``missing``: the
    configurations or tests the session lacks (their parts are left out, and said so)."""

    host_id: str
    session_id: str
    toolchain_id: str
    model_sha256: str | None
    n_gen: int
    depth: int
    parts: list[Part]
    total: Part
    extras: list[Part]
    within_bound: bool
    missing: list[str] = field(default_factory=list)

    def frame(self) -> pl.DataFrame:
        """Every bar and extra as a row: id, kind, ms, ci_low, ci_high, n, share, rate."""
        rows = [
            {
                "id": p.id,
                "kind": p.kind,
                "ms": p.ms,
                "ci_low": p.ci[0] if p.ci else None,
                "ci_high": p.ci[1] if p.ci else None,
                "n": p.n,
                "share": p.share,
                "rate": p.rate,
            }
            for p in [*self.parts, self.total, *self.extras]
        ]
        return pl.DataFrame(rows, infer_schema_length=None)


def bench_sample(bench: pl.DataFrame, *, n_prompt: int, n_gen: int, depth: int) -> Sample | None:
    """The test ``n_prompt``/``n_gen`` at ``depth`` of ``bench`` (one session's rows) as per-token times:
    ``samples_ns / 1e6 / n_gen`` for a tg test, ``samples_ns / 1e6`` (one pass) for a pp test; None
    when the session has no such test."""
    t = bench.filter(
        (pl.col("n_prompt") == n_prompt) & (pl.col("n_gen") == n_gen) & (pl.col("n_depth") == depth)
    )
    if t.is_empty():
        return None
    per = n_gen if n_gen > 0 else 1
    vals, cites, ids = [], [], []
    for r in t.iter_rows(named=True):
        vals += [ns / 1e6 / per for ns in r["samples_ns"]]
        cites.append((r["file"], r["line"]))
        ids.append(r["run_id"])
    return Sample(tuple(vals), tuple(cites), tuple(ids))


def request_sample(
    reqs: pl.DataFrame, config_id: str, how: str, index: int = MEASURED_INDEX
) -> Sample | None:
    """Per-token times of ``config_id``'s requests number ``index`` (``reqs``: one session's), in ms:
    ``how`` ``reported`` (predicted_ms / predicted_n), ``true`` (predicted_ms / (predicted_n − 1)),
    ``client`` ((wall_ms − prompt_ms) / predicted_n) or ``verify`` ((predicted_ms − t_draft_ms) /
    gen_drafts, requests without the counters left out); None without such requests."""
    t = reqs.filter((pl.col("config_id") == config_id) & (pl.col("request_index") == index)).sort("rep")
    vals, cites, ids = [], [], []
    for r in t.iter_rows(named=True):
        n, ms = r["predicted_n"], r["predicted_ms"]
        if how == "reported":
            v = ms / n
        elif how == "true":
            v = ms / (n - 1) if n > 1 else math.nan
        elif how == "client":
            v = (r["wall_ms"] - r["prompt_ms"]) / n
        elif how == "verify":
            if not r["gen_drafts"] or r["t_draft_ms"] is None:
                continue
            v = (ms - r["t_draft_ms"]) / r["gen_drafts"]
        else:
            raise ValueError(f"request_sample: how {how!r} is not reported | true | client | verify")
        vals.append(v)
        cites.append((r["file"], r["line"]))
        ids.append(r["run_id"])
    return Sample(tuple(vals), tuple(cites), tuple(ids)) if vals else None


def difference(pid: str, kind: str, a: Sample, b: Sample, confidence: float) -> Part:
    """``a − b`` (independent samples, Welch's interval)."""
    d, ci = difference_interval(a.values, b.values, confidence)
    both = a + b
    return Part(
        pid,
        kind,
        d,
        ci,
        WELCH if ci else None,
        min(len(a.values), len(b.values)),
        both.cites,
        both.run_ids,
        cv=_noisiest(a, b),
    )


def _noisiest(*samples: Sample) -> float | None:
    """The highest ``Sample.cv`` of ``samples`` (None where none has one)."""
    return max((c for c in (s.cv() for s in samples) if c is not None), default=None)


def paired(pid: str, kind: str, a: Sample, b: Sample, confidence: float) -> Part:
    """``a − b`` over pairs (the same requests read two ways): Student-t of the per-pair differences.

    Raises:
        ValueError: the samples differ in length (not paired).
    """
    if len(a.values) != len(b.values):
        raise ValueError(f"{pid}: {len(a.values)} and {len(b.values)} values are not paired")
    d, _sd, ci = sample_interval(
        [x - y for x, y in zip(a.values, b.values, strict=True)], confidence, log=False
    )
    both = a + b
    return Part(
        pid, kind, d, ci, T if ci else None, len(a.values), both.cites, both.run_ids, cv=_noisiest(a, b)
    )


def rate_of(s: Sample, confidence: float) -> tuple[float, list[float] | None]:
    """The mean of the per-repetition rates ``1000 ÷ ms`` (tok/s) of a sample of per-token times, with
    its log-scale interval (``stats.sample_interval``)."""
    m, _sd, ci = sample_interval([1000.0 / v for v in s.values if v > 0], confidence)
    return m, ci


def decompose(bench: pl.DataFrame, reqs: pl.DataFrame, cfg: dict, confidence: float = 0.95) -> Decomposition:
    """The gap of one session (``bench``, ``reqs``: its rows of ``load_bench`` / ``load_requests``;
    ``cfg``: its start record's config: ``n_gen``, ``depth``, ``factors``, ``verify_k``), module doc.

    Raises:
        ValueError: the session lacks llama-bench's tg at depth 0, its base or its combined requests
            (no gap to decompose; names what is missing and the fix: re-run the session).
    """
    n_gen, depth = int(cfg["n_gen"]), int(cfg["depth"])
    factors = [f for f in FACTORS if f in cfg["factors"]]
    end_id = "combined" if len(factors) > 1 else factors[0]
    b0 = bench_sample(bench, n_prompt=0, n_gen=n_gen, depth=0)
    bd = bench_sample(bench, n_prompt=0, n_gen=n_gen, depth=depth)
    base_rep, base_true = request_sample(reqs, "base", "reported"), request_sample(reqs, "base", "true")
    end = request_sample(reqs, end_id, "reported")
    lacking = [
        w
        for w, s in (("llama-bench tg at depth 0", b0), ("base requests", base_rep), (end_id, end))
        if s is None
    ]
    if lacking or b0 is None or base_rep is None or base_true is None or end is None:
        raise ValueError(
            f"session lacks {', '.join(lacking)}: no gap to decompose; fix: re-run "
            "`python -m benchbook.experiments tool_gap` (a resumed session measures what is missing)"
        )
    missing: list[str] = []
    total = difference("total", "total", end, b0, confidence)
    parts: list[Part] = []
    r0, r0ci = rate_of(b0, confidence)
    parts.append(
        Part(
            "start",
            "start",
            b0.mean(),
            None,
            None,
            len(b0.values),
            b0.cites,
            b0.run_ids,
            rate=r0,
            rate_ci=r0ci,
            cv=b0.cv(),
        )
    )
    if bd is not None:
        parts.append(difference("depth", "part", bd, b0, confidence))
        parts.append(difference("server_loop", "part", base_true, bd, confidence))
    else:
        missing.append(f"llama-bench tg at depth {depth}")
        parts.append(difference("server_loop", "part", base_true, b0, confidence))
    parts.append(paired("first_token", "part", base_rep, base_true, confidence))
    for f in factors:
        s = request_sample(reqs, f, "reported")
        if s is None:
            missing.append(f"{f} requests")
            continue
        parts.append(difference(f, "part", s, base_rep, confidence))
    explained = sum(p.ms for p in parts if p.kind == "part")
    resid = total.ms - explained
    # the residual reads every part's records and the total's: it cites them all
    read = [total, *parts]
    parts.append(
        Part(
            "residual",
            "residual",
            resid,
            None,
            None,
            min(p.n for p in read),
            tuple(dict.fromkeys(c for p in read for c in p.cites)),
            tuple(dict.fromkeys(i for p in read for i in p.run_ids)),
            cv=max((p.cv for p in read if p.cv is not None), default=None),
        )
    )
    re, reci = rate_of(end, confidence)
    parts.append(
        Part(
            "end",
            "end",
            end.mean(),
            None,
            None,
            len(end.values),
            end.cites,
            end.run_ids,
            rate=re,
            rate_ci=reci,
            cv=end.cv(),
        )
    )
    for p in parts:
        if p.kind in ("part", "residual") and total.ms and measurable(total):
            p.share = p.ms / total.ms
            p.share_ci = sorted([p.ci[0] / total.ms, p.ci[1] / total.ms]) if p.ci else None
    extras: list[Part] = []
    client = request_sample(reqs, end_id, "client")
    if client is not None:
        extras.append(paired("http", "extra", client, end, confidence))
    cold = request_sample(reqs, "base", "reported", index=0)
    if cold is not None:
        extras.append(difference("cold", "extra", cold, base_rep, confidence))
    for k in cfg.get("verify_k") or []:
        v = request_sample(reqs, f"verify-k{k}", "verify")
        passes = bench_sample(bench, n_prompt=int(k) + 1, n_gen=0, depth=depth)
        if v is None or passes is None:
            what = "requests with draft counters" if v is None else f"llama-bench pp{k + 1}"
            missing.append(f"verify-k{k} {what}")
            continue
        extras.append(verify_ratio(f"verify-k{k}", v, passes, confidence))
    first = reqs.row(0, named=True) if not reqs.is_empty() else {}
    return Decomposition(
        host_id=str(first.get("host_id")),
        session_id=str(first.get("session_id")),
        toolchain_id=str(first.get("toolchain_id")),
        model_sha256=first.get("model_sha256"),
        n_gen=n_gen,
        depth=depth,
        parts=parts,
        total=total,
        extras=extras,
        within_bound=abs(resid) <= BOUND * abs(total.ms),
        missing=missing,
    )


def measurable(total: Part) -> bool:
    """Whether the measured total gap is a gap to decompose: its interval excludes 0 (without an
    interval, fewer than 3 repetitions, its mean is taken as it is).  A total whose interval spans 0 has
    no share to give: a part ÷ a total indistinguishable from 0 reads any size (the CPU host's first
    session: total −0.46 ms per token [−3.73, 2.81], residual "1370%")."""
    return total.ci is None or not total.ci[0] <= 0 <= total.ci[1]


def verify_ratio(pid: str, v: Sample, p: Sample, confidence: float) -> Part:
    """The server's verify step ÷ llama-bench's ``k+1`` pass (ratio of two independent means, log-scale
    Welch interval: ``stats.ratio_interval``)."""
    import numpy as np

    def sd(x: Sequence[float]) -> float:
        return float(np.std(x, ddof=1)) if len(x) > 1 else math.nan

    r, lo, hi, _df = ratio_interval(
        v.mean(), sd(v.values), len(v.values), p.mean(), sd(p.values), len(p.values), confidence
    )
    ok = bool(np.isfinite(lo)) and bool(np.isfinite(hi))
    both = v + p
    ci = [float(lo), float(hi)] if ok else None
    return Part(
        pid,
        "verify",
        float(r),
        ci,
        LOG_T + " (ratio of two means)" if ok else None,
        min(len(v.values), len(p.values)),
        both.cites,
        both.run_ids,
        cv=_noisiest(v, p),
    )


def verify_ratios(raw_dir: str | Path, confidence: float = 0.95) -> dict[tuple[str, int], float]:
    """``{(host_id, k): the server's verify step ÷ llama-bench's k+1 pass}`` of each host's newest
    tool_gap session that passes the checks (``measured.POLICIES["tool_gap"]``), for each k of its
    ``verify_k`` measured (``verify_ratio``'s value): what the speculative cost model uses instead of a
    fitted overhead term on that host (``costmodel.overhead_term``).  Empty without a tool_gap folder or
    session."""
    from ... import measured
    from ..drift import start_records

    folder = Path(raw_dir) / EXPERIMENT
    if not folder.is_dir():
        return {}
    picked = measured.select(EXPERIMENT, measured.check(EXPERIMENT, folder))
    if not picked.published:
        return {}
    bench, reqs = load_bench(raw_dir), load_requests(raw_dir)
    out: dict[tuple[str, int], float] = {}
    for sess in picked.published:
        cfg = start_records(sess.file, EXPERIMENT)[sess.session_id]["config"]
        sid = pl.col("session_id") == sess.session_id
        b, q = bench.filter(sid), reqs.filter(sid)
        for k in cfg.get("verify_k") or []:
            v = request_sample(q, f"verify-k{k}", "verify")
            passes = bench_sample(b, n_prompt=int(k) + 1, n_gen=0, depth=int(cfg["depth"]))
            if v is not None and passes is not None:
                out[(str(sess.host_id), int(k))] = verify_ratio(f"verify-k{k}", v, passes, confidence).ms
    return out

"""Speculative decoding analysis: acceptance, tokens per verify step, decode/prefill rates, speedup
against the same-session baseline, lossless check, memory per draft token, cost model.

Terms (DESIGN.md "Statistics and caveats"; Leviathan, Kalman & Matias 2023, "Fast Inference from
Transformers via Speculative Decoding", ICML, §3):

* α (acceptance) = accepted ÷ drafted tokens (llama-server ``timings.draft_n_accepted`` /
  ``timings.draft_n``; absent fields mean nothing was drafted, α undefined).
* τ (tokens committed per verify step, the verifier's own token included) = 1 + accepted ÷ verify
  steps, where the verify steps of a request are the increase of ``/metrics``
  ``llamacpp:spec_decode_num_drafts_total`` over it (llama.cpp ``tools/server/server-context.cpp``:
  ``n_draft_verif_steps``; the server logs the same ``mean len``).  τ = 1 for plain decoding; unknown
  (null, never 1) for a speculative configuration whose verify steps were not recorded.  Accepted
  tokens past the request's cap are not committed and not counted (``accepted_within_cap``: the verify
  steps commit at most ``predicted_n`` − 1 tokens).
  Under independent acceptance with k drafted tokens τ = (1 − α^(k+1)) / (1 − α) (Leviathan et al.).
* Speedup model: speedup = τ / (k·c + r(k+1)), c = draft cost per drafted token ÷ target decode
  cost per token, r(n) = target n-token pass ÷ target 1-token decode step (Leviathan et al. §3.3
  with r added for the verify pass), both from llama-bench runs in the same session and build: the
  arithmetic is ``benchbook.costmodel``'s (medians of ``samples_ns``, r(n) interpolated inside the
  measured sizes only), shared with the depth sweep.
* Decode rate = (``predicted_n`` − 1) ÷ ``predicted_ms`` (llama-server's own ``predicted_per_second``:
  the first generated token comes from the prompt pass, ``n_gen_steps`` in
  ``tools/server/server-common.h``) and prefill rate = ``prompt_n`` ÷ ``prompt_ms``
  per request (llama-server's own timings), never mixed; a configuration's rate is the mean of its
  per-repetition rates with a log-scale Student-t interval (``stats.log_t_interval``; none below
  n = 3).  Requests that reused prompt tokens from the cache (``cache_n`` > 0: "warm") and requests
  that evaluated the whole prompt ("cold") are separate groups (``cache_state``), never one mean.
* Speedup of a configuration on a prompt = its decode rate ÷ the baseline's on the same prompt, in
  the same session; repetitions are interleaved, so repetition i of both ran close in time: the
  interval is the log-scale Student-t interval over the paired per-repetition ratios.
* Acceptance definitions: ``ACCEPTANCE_DEFINITIONS`` (what ``draft_n``, the denominator of α,
  counts in the build that produced a record).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from benchbook import benchrows, costmodel, identity
from benchbook.costmodel import accepted_within_cap, tau
from benchbook.records import read_records
from benchbook.schemas import NATIVE
from benchbook.stats import (  # rep_trend, slope_interval: named here too (report provenance)
    MIN_N_INTERVAL,
    rep_trend,
    sample_interval,
    series_mean,
    slope_interval,
)

REQUEST_SCHEMA = "benchbook.speculative_request"
#: the cost model's llama-bench rows: the one llama-bench row kind (``role`` target | draft); committed
#: sessions wrote the retired ``benchbook.speculative_cost``, read as it (``benchrows``)
COST_SCHEMA = benchrows.SCHEMA


# --- scalar arithmetic ------------------------------------------------------------------------


def _others_cpu_pct(rec: dict) -> float | None:
    """Highest CPU % over the request of a process other than the runner and llama.cpp's own
    (``load_end.top_processes``, psutil percent since the start snapshot); None when not recorded."""
    procs = (rec.get("load_end") or {}).get("top_processes")
    if procs is None:
        return None
    return max(
        [float(p["cpu_percent"]) for p in procs if not str(p.get("name", "")).startswith("llama-")],
        default=0.0,
    )


def alpha(accepted: int | None, drafted: int | None) -> float | None:
    """α = accepted ÷ drafted (tokens); None when nothing was drafted (``drafted`` 0 or None)."""
    if not drafted:
        return None
    return float(accepted or 0) / float(drafted)


#: What ``draft_n`` (α's denominator) counts, by llama.cpp build.  ggml-org/llama.cpp PR #14104
#: ("server: Fixed speculative decoding stats to use #accepted / #tested rather than #accepted /
#: #drafted", merged 2025-06-10) moved the ``n_draft_total`` increment after the ``--draft-min`` test:
#: before it, drafts too small to be verified counted as drafted (α too low).  The build that first
#: carried it is not stated here: builds below ``ACCEPTANCE_BUILD_BEFORE`` predate it, builds from
#: ``ACCEPTANCE_BUILD_SINCE`` carry it (b11434: ``slot.stats.n_draft_tokens += draft.size()`` on the
#: drafts sent to verification, tools/server/server-context.cpp), builds between are unknown.
ACCEPTANCE_DEFINITIONS = {
    "drafted": "accepted ÷ every drafted token, small drafts skipped by --draft-min included (before #14104)",
    "tested": "accepted ÷ drafted tokens sent to verification (llama.cpp PR #14104 and later)",
}
ACCEPTANCE_BUILD_BEFORE = 5500
ACCEPTANCE_BUILD_SINCE = 6000


def acceptance_definition(build_number: int | None) -> str | None:
    """Key of ``ACCEPTANCE_DEFINITIONS`` in force in llama.cpp build ``build_number``; None (unknown)
    for an unknown build or one between ``ACCEPTANCE_BUILD_BEFORE`` and ``ACCEPTANCE_BUILD_SINCE``.

    >>> acceptance_definition(11434), acceptance_definition(4000), acceptance_definition(5600)
    ('tested', 'drafted', None)
    """
    if build_number is None:
        return None
    if build_number >= ACCEPTANCE_BUILD_SINCE:
        return "tested"
    return "drafted" if build_number < ACCEPTANCE_BUILD_BEFORE else None


#: Request-body fields that must hold these values for a greedy sampler (DESIGN.md: temperature 0,
#: top-k 1, every penalty off).  A field the request does not state is taken as its neutral value.
_PENALTIES_OFF = {
    "repeat_penalty": 1.0,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
    "dry_multiplier": 0.0,
    "xtc_probability": 0.0,
    "mirostat": 0,
}


def sampler_of(body: dict | None) -> tuple[bool | None, str | None]:
    """``(greedy, description)`` of a ``/completion`` request body: greedy when ``temperature`` ≤ 0 or
    ``top_k`` == 1 (llama.cpp samples the arg-max) and every penalty in ``_PENALTIES_OFF`` is off;
    the description names what is not greedy (``"temperature 0.8"``).  ``(None, None)`` when the
    body is unknown (an ingested log), never assumed greedy.

    >>> sampler_of({"temperature": 0.8, "top_k": 40})
    (False, 'temperature 0.8, top_k 40')
    >>> sampler_of({"temperature": 0.0, "top_k": 1, "repeat_penalty": 1.0})
    (True, 'greedy')
    """
    if body is None:
        return None, None
    temp, top_k = body.get("temperature"), body.get("top_k")
    argmax = (temp is not None and float(temp) <= 0) or top_k == 1
    why = [] if argmax else [f"temperature {temp}", f"top_k {top_k}"]
    why += [f"{k} {body[k]}" for k, off in _PENALTIES_OFF.items() if k in body and body[k] != off]
    return (not why), (", ".join(why) if why else "greedy")


def divergence(
    mode: list[list[int] | None], base: list[list[int] | None]
) -> tuple[str, int | None, int | None]:
    """Tell why a configuration's greedy output differs from the baseline's: ``(verdict,
    first_diverging_index, matching_prefix_len)`` from each mode's repetitions' token ids.

    verdict: ``"equal"`` (every repetition of both modes identical); ``"deterministic"`` (each mode
    reproduces itself over ≥ 2 repetitions, the modes disagree: a per-mode numeric path);
    ``"nondeterministic"`` (a mode differs from itself between repetitions: run-to-run
    nondeterminism); ``"cannot tell"`` (they differ and a mode has one repetition, or token ids are
    missing).  The index is the first token where the configuration's first repetition leaves the
    baseline's first (``first_mismatch``); the matching prefix is that many tokens (the shorter
    length when one is a prefix of the other); both None when equal or unknown.
    """
    if not mode or not base or any(x is None for x in mode + base):
        return "cannot tell", None, None
    pos = first_mismatch(mode[0], base[0])
    if pos is None and all(first_mismatch(x, base[0]) is None for x in mode + base):
        return "equal", None, None
    if pos is None:
        pos = min(p for p in (first_mismatch(x, base[0]) for x in mode + base) if p is not None)
    self_mode = all(first_mismatch(x, mode[0]) is None for x in mode)
    self_base = all(first_mismatch(x, base[0]) is None for x in base)
    if not (self_mode and self_base):
        verdict = "nondeterministic"
    elif len(mode) < 2 or len(base) < 2:
        verdict = "cannot tell"
    else:
        verdict = "deterministic"
    return verdict, pos, pos


def first_mismatch(a: list[int] | None, b: list[int] | None) -> int | None:
    """0-based position of the first differing token id between two sequences; None when equal.
    When one is a strict prefix of the other, the position is the shorter length.

    Raises:
        ValueError: ``a`` or ``b`` is None (token ids not recorded: equality is unknown, not true;
            see ``compare_outputs``)."""
    if a is None or b is None:
        raise ValueError(
            "token ids absent: output equality is unknown; fix: compare with compare_outputs "
            "(falls back to content_sha256) or record the request's token ids"
        )
    a, b = list(a), list(b)
    for i, (x, y) in enumerate(zip(a, b, strict=False)):  # a strict prefix is handled below
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def _usable_tokens(tokens: list[int] | None, predicted_n: int | None) -> bool:
    return tokens is not None and (predicted_n is None or len(tokens) == int(predicted_n))


def compare_outputs(a: dict, b: dict) -> tuple[bool | None, int | None]:
    """Whether two requests generated the same output: ``(equal, first_mismatch_pos)``.

    ``a``/``b`` hold ``tokens`` (list or None when not recorded), ``predicted_n`` and
    ``content_sha256``.  Token ids decide when both sides have them and each list holds
    ``predicted_n`` ids (``first_mismatch``); otherwise equal content_sha256 gives ``(True, None)``,
    different ``(False, None)`` (position unknown); otherwise ``(None, None)``: unknown, never equal."""
    if _usable_tokens(a.get("tokens"), a.get("predicted_n")) and _usable_tokens(
        b.get("tokens"), b.get("predicted_n")
    ):
        pos = first_mismatch(a["tokens"], b["tokens"])
        return pos is None, pos
    sa, sb = a.get("content_sha256"), b.get("content_sha256")
    if sa and sb:
        return sa == sb, None
    return None, None


# --- tables -----------------------------------------------------------------------------------


def _files(raw_dir: str | Path) -> list[Path]:
    return [f for f in sorted(Path(raw_dir).glob("*.jsonl")) if not f.name.endswith(".quarantine.jsonl")]


def _ingested_config(r: dict) -> dict:
    """What a request ingested from a server log says of its configuration: the log file is its
    configuration (``config_id``), each request its own unknown prompt (never pooled with another),
    spec_type "none" (no draft model, nothing drafted), "draft" (a draft model loaded) or "unknown";
    n_max, cap, policy and the repetition unknown (null)."""
    t = r["timings"]
    spec = "draft" if r.get("draft_model_id") else ("unknown" if t.get("draft_n") is not None else "none")
    group = r["session_id"]  # unknown:<sha256[:16] of the source file>
    return {
        "config_id": Path(r.get("source_file") or group).name,
        "spec_type": spec,
        "n_max": None,
        "prompt_id": f"{group}:line{r.get('source_line')}",
        "cap": None,
        "rep": 0,
        "policy": None,
    }


def load_requests(raw_dir: str | Path) -> pl.DataFrame:
    """One row per completed request (``benchbook.speculative_request``, status ok) under ``raw_dir``
    (its ``*.jsonl``), native or ingested from someone else's server log (``origin``).

    Columns: file, line, run_id, session_id, host_id, toolchain_id, origin, build_number, build_commit,
    config_id, prompt_id, rep, spec_type, draft_model_id, draft_model_sha256, model_sha256, n_max, policy,
    cap, stop_type, cap_hit, prompt_n, prompt_ms, predicted_n, predicted_ms, drafted (timings.draft_n, 0
    when absent), accepted (timings.draft_n_accepted, 0 when absent), verify_steps (from /metrics, or
    from the log's mean len; null when not recorded), cache_n (prompt tokens reused from the cache),
    prompt_tokens (the prompt's length: cache_n + prompt_n), cache_state ("cold": the whole prompt
    evaluated; "warm": part of it reused; null when unknown), greedy and sampler (``sampler_of`` the
    request body; null for an ingested log), tokens (list[i64]; null when the record
    has none), content_sha256, peak_rss_bytes, request_index (on its server), answer_found, decode_tps,
    prefill_tps (tok/s), alpha, tau, argv, started_at, ended_at, load1_max.  What an ingested log does
    not state is null (unknown; ``_ingested_config``), never a default.

    Raises:
        records.RecordError: a line is not a valid record (file:line named).
    """
    rows = []
    for r in read_records(_files(raw_dir), REQUEST_SCHEMA):
        if r.get("status", "ok") != "ok":
            continue
        native = r.get("origin", NATIVE) == NATIVE
        t = r["timings"]
        c = r["config"] if native else _ingested_config(r)
        drafted, acc = int(t.get("draft_n") or 0), int(t.get("draft_n_accepted") or 0)
        vs = r.get("verify_steps")
        p_n, p_ms = t.get("predicted_n"), t.get("predicted_ms")
        greedy, sampler = sampler_of(r.get("request"))
        cache_n = int(t.get("cache_n") or 0) if native else t.get("cache_n")
        prompt_tokens = None if cache_n is None else int(cache_n) + int(t["prompt_n"])
        rows.append(
            {
                "file": r["_file"],
                "line": r["_line"],
                "run_id": r["run_id"],
                "session_id": r["session_id"],
                "host_id": r["host_id"],
                "toolchain_id": r["toolchain_id"],
                "origin": r.get("origin", NATIVE),
                "build_number": r.get("build_number"),
                "build_commit": r.get("build_commit"),
                "config_id": c["config_id"],
                "prompt_id": r.get("prompt_id", c.get("prompt_id")),
                "rep": int(r["rep"] if "rep" in r else c["rep"]),
                "spec_type": c["spec_type"],
                "draft_model_id": r.get("draft_model_id"),
                "draft_model_sha256": r.get("draft_model_sha256"),
                "model_sha256": r["model_sha256"],
                "n_max": c.get("n_max"),
                "policy": r.get("policy", c.get("policy")),
                "cap": r.get("cap", c.get("cap")),
                "stop_type": r.get("stop_type"),
                "cap_hit": r["stop_type"] == "limit" if r.get("stop_type") is not None else None,
                "prompt_n": int(t["prompt_n"]),
                "prompt_ms": float(t["prompt_ms"]),
                "predicted_n": p_n,
                "predicted_ms": p_ms,
                "drafted": drafted,
                "accepted": acc,
                "verify_steps": None if vs is None else int(vs),
                "cache_n": cache_n,
                "prompt_tokens": prompt_tokens,
                "cache_state": None if cache_n is None else ("warm" if cache_n > 0 else "cold"),
                "greedy": greedy,
                "sampler": sampler,
                "tokens": None if r.get("tokens") is None else [int(x) for x in r["tokens"]],
                "content_sha256": r.get("content_sha256"),
                "peak_rss_bytes": int(r.get("peak_rss_bytes") or 0) if native else r.get("peak_rss_bytes"),
                "request_index": int((r.get("server") or {}).get("request_index") or 0),
                "answer_found": r.get("answer_found"),
                "decode_tps": 1e3 * (int(p_n) - 1) / float(p_ms)
                if p_n and p_ms and float(p_ms) > 0 and int(p_n) > 1
                else None,
                "prefill_tps": 1e3 * int(t["prompt_n"]) / float(t["prompt_ms"])
                if float(t["prompt_ms"]) > 0
                else None,
                "alpha": alpha(acc, drafted),
                "tau": tau(acc, vs, plain=c["spec_type"] == "none", cap=int(p_n) - 1 if p_n else None),
                # accepted tokens inside the cap (the pooled τ sums these, ``config_table``)
                "accepted_in_cap": accepted_within_cap(acc, vs, int(p_n) - 1 if p_n else None),
                "argv": None if r.get("argv") is None else [str(a) for a in r["argv"]],
                "started_at": r.get("started_at"),
                "ended_at": r.get("ended_at"),
                "load1_max": max(float(r["load_start"]["loadavg"][0]), float(r["load_end"]["loadavg"][0]))
                if r.get("load_start") and r.get("load_end")
                else None,
                "others_cpu_pct_max": _others_cpu_pct(r),
            }
        )
    if not rows:
        return pl.DataFrame()
    return pl.DataFrame(
        rows,
        schema_overrides={
            "tokens": pl.List(pl.Int64),
            "argv": pl.List(pl.String),
            "answer_found": pl.Boolean,
            "alpha": pl.Float64,
            "tau": pl.Float64,
            "content_sha256": pl.String,
            "cap_hit": pl.Boolean,
            "verify_steps": pl.Int64,
            "n_max": pl.Int64,
            "cap": pl.Int64,
            "cache_n": pl.Int64,
            "prompt_tokens": pl.Int64,
            "cache_state": pl.String,
            "greedy": pl.Boolean,
            "sampler": pl.String,
            "peak_rss_bytes": pl.Int64,
            "predicted_n": pl.Int64,
            "predicted_ms": pl.Float64,
            "build_number": pl.Int64,
            "build_commit": pl.String,
            "policy": pl.String,
            "stop_type": pl.String,
            "started_at": pl.String,
            "ended_at": pl.String,
            "load1_max": pl.Float64,
            "others_cpu_pct_max": pl.Float64,
            "draft_model_id": pl.String,
            "draft_model_sha256": pl.String,
        },
        infer_schema_length=None,
    )


def load_failures(raw_dir: str | Path) -> pl.DataFrame:
    """Failed runs of the experiment (``benchbook.run_failed`` with experiment ``speculative``):
    session_id, config_id, prompt_id, rep, stage, kind, error, file, line."""
    rows = [
        {
            "session_id": r["session_id"],
            "config_id": (r.get("config") or {}).get("config_id"),
            "prompt_id": r.get("prompt_id"),
            "rep": r.get("rep"),
            "stage": r.get("stage"),
            "kind": r.get("kind"),
            "error": r.get("error"),
            "file": r["_file"],
            "line": r["_line"],
        }
        for r in read_records(_files(raw_dir), "benchbook.run_failed")
        if r.get("experiment") == "speculative"
    ]
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def speedup_verdict(mean: float | None, low: float | None, high: float | None, n: int) -> str | None:
    """What the speedup's interval decides: ``"slower"`` (interval below 1), ``"faster"`` (above 1),
    ``"undecided: interval contains 1"``, or ``"undecided: n = N < 3, no interval"`` (too few paired
    repetitions for an interval to decide; the point estimate is then all there is).  None without a
    speedup."""
    if mean is None:
        return None
    if low is None or high is None:
        return f"undecided: n = {n} < {MIN_N_INTERVAL}, no interval"
    if high < 1.0:
        return "slower"
    if low > 1.0:
        return "faster"
    return "undecided: interval contains 1"


@dataclass(frozen=True)
class OutputCheck:
    """The lossless check of one configuration (``config_table``): ``verdict`` ("equal",
    "deterministic", "nondeterministic", "cannot tell", "skipped", "unknown"), a ``note`` in words,
    the ``first_index`` of the first diverging token and the ``prefix_len`` of the matching prefix."""

    verdict: str
    note: str
    first_index: int | None = None
    prefix_len: int | None = None


def _output_check(
    g: pl.DataFrame,
    b: pl.DataFrame | None,
    is_baseline: bool,
    greedy: bool | None,
    sampler: str | None,
    equal: bool | None,
) -> OutputCheck:
    """``OutputCheck`` of a configuration's repetitions ``g`` against the baseline's ``b``: skipped under
    a sampler that is not greedy (outputs may differ by design), else ``divergence`` of the token ids."""
    if greedy is False:
        return OutputCheck("skipped", f"output check skipped: sampler not greedy ({sampler})")
    if is_baseline or b is None:
        return OutputCheck("unknown" if equal is None else ("equal" if equal else "nondeterministic"), "")
    mode = g["tokens"].to_list()
    ref = b["tokens"].to_list()
    if equal is True:
        return OutputCheck("equal", "every repetition reproduces the baseline's tokens")
    if any(x is None for x in mode + ref):
        return OutputCheck("unknown" if equal is None else "cannot tell", "token ids not recorded")
    verdict, pos, prefix = divergence(mode, ref)
    notes = {
        "equal": "every repetition reproduces the baseline's tokens",
        "deterministic": "each mode reproduces itself; the modes disagree (a per-mode numeric path)",
        "nondeterministic": "a mode differs from itself between repetitions (run-to-run nondeterminism)",
        "cannot tell": "one repetition per mode: per-mode divergence and nondeterminism cannot be told apart",
    }
    where = f"; first diverging token {pos}, matching prefix {prefix} tokens" if pos is not None else ""
    return OutputCheck(verdict, notes[verdict] + where, pos, prefix)


def _cap_equal_work(g: pl.DataFrame, b: pl.DataFrame | None, cap_hit: bool | None) -> bool | None:
    """True when every repetition of the configuration and of its baseline stopped at the same cap with
    the same number of tokens (the cap chosen by the experiment: both sides did equal work); False when
    a cap was hit and the work differs; None without a cap hit or a baseline."""
    if not cap_hit:
        return None
    if b is None:
        return False
    both = pl.concat([g.select("cap_hit", "predicted_n"), b.select("cap_hit", "predicted_n")])
    return bool(both["cap_hit"].fill_null(False).all()) and both["predicted_n"].n_unique() == 1


def config_table(req: pl.DataFrame, confidence: float = 0.95, baseline_id: str = "baseline") -> pl.DataFrame:
    """Per (session, configuration, prompt) statistics: the columns the caveat rules read
    (``caveats.SPECULATIVE_COLUMNS``) plus prefill_tps_mean/ci, drafted, accepted, verify_steps,
    k_eff (drafted ÷ verify steps), accepted_frac_trend_slope, predicted_n_mean, peak_rss_mib_max,
    answer_ok (fraction of repetitions whose output holds the recorded answer, null without one),
    load1_max, model_sha256, draft_model_sha256, argv.

    * n: repetitions with a decode rate (a request that generated one token has none: its only token
      came from the prompt pass); ``n_requests`` all repetitions, ``n_no_decode_rate`` those excluded.
    * alpha, tau: pooled over repetitions (Σ accepted ÷ Σ drafted; 1 + Σ accepted ÷ Σ verify steps,
      counting only the accepted tokens inside each request's cap, ``accepted_within_cap``).
      When a speculative configuration's verify steps are unknown for any repetition, verify_steps,
      tau and k_eff are null (never τ = 1).
    * speedup: paired per repetition index with the baseline of the same session and prompt
      (mean and Student-t interval of decode_tps_cfg[i] ÷ decode_tps_base[i]); the baseline's own
      row has speedup 1 with no interval.
    * output_equal / first_mismatch_pos: every repetition's output against the baseline's first
      repetition (``compare_outputs``: token ids, else content_sha256; the worst, i.e. earliest,
      mismatch is kept); the baseline against itself across repetitions.  False when any repetition
      differs; else null (unknown) when any comparison could not be made (no token ids and no
      content_sha256 on a side); else True.  ``tokens_len_mismatch``: repetitions (with the baseline
      reference) whose token list does not hold predicted_n ids (not used for the comparison).
    * alpha_trend_slope: with ``policy == "same"`` only (one server for all repetitions), the slope of
      per-repetition α over the repetition index, α counted 0 for a repetition that drafted nothing
      (no acceptance from it); null with a fresh server per repetition.
      accepted_frac_trend_slope: the same for accepted ÷ generated tokens.
    * order_n, order_rho, order_rho_rest, order_drift: ``identity.order_trend`` of the repetitions'
      decode rates in repetition order (the ``order_trend`` caveat); null below 3 rates.

    Raises:
        ValueError: ``req`` holds no baseline rows for a session.
    """
    if req.is_empty():
        return pl.DataFrame()
    out = []
    for col, dtype in (("cache_state", pl.String), ("greedy", pl.Boolean), ("sampler", pl.String)):
        if col not in req.columns:  # a table built before these columns: unknown
            req = req.with_columns(pl.lit(None, dtype).alias(col))
    if "prompt_tokens" not in req.columns:
        req = req.with_columns((pl.col("cache_n") + pl.col("prompt_n")).alias("prompt_tokens"))
    keys = ["session_id", "config_id", "prompt_id", "cache_state"]
    base: dict = {}
    for (s, c, p, cs), g in req.group_by(keys, maintain_order=True):
        if c == baseline_id and ((s, p) not in base or cs != "warm"):  # the cold baseline wins
            base[(s, p)] = g.sort("rep")
    sessions_with_base = {s for s, _ in base}
    native_sessions = (
        req.filter(pl.col("origin") == NATIVE)["session_id"].unique()
        if "origin" in req.columns
        else req["session_id"].unique()
    )
    for s in native_sessions:  # an ingested log has no same-session baseline: its speedup is unknown
        if s not in sessions_with_base:
            raise ValueError(
                f"session {s}: no '{baseline_id}' requests; a speedup needs the same-session baseline"
            )
    for (s, cid, pid, cstate), g in req.group_by(keys, maintain_order=True):
        g = g.sort("rep")
        b = base.get((s, pid))
        first = g.row(0, named=True)
        n_rate = int(g["decode_tps"].is_not_null().sum())
        dm, dsd, dci = sample_interval(g["decode_tps"].to_list(), confidence)
        pm, _, pci = sample_interval(g["prefill_tps"].to_list(), confidence)
        dlo, dhi = dci or (None, None)
        plo, phi = pci or (None, None)
        sm: float | None
        slo: float | None
        shi: float | None
        ratios: list[float | None] = []
        if cid == baseline_id:
            sm, slo, shi = 1.0, None, None
        elif b is None:
            sm = slo = shi = None
        else:
            bt = dict(zip(b["rep"].to_list(), b["decode_tps"].to_list(), strict=True))
            ratios = [
                v / bt[r] if v is not None and bt.get(r) else None
                for r, v in zip(g["rep"].to_list(), g["decode_tps"].to_list(), strict=True)
            ]
            sm, _, sci = sample_interval(ratios, confidence)
            slo, shi = sci or (None, None)
            sm = None if math.isnan(sm) else sm
        n_ratio = sum(1 for x in ratios if x is not None)
        drafted, acc = int(g["drafted"].sum()), int(g["accepted"].sum())
        plain = first["spec_type"] == "none"
        vsteps: int | None
        if plain:
            vsteps = int(g["verify_steps"].fill_null(0).sum())  # plain decoding: no verify step
        else:
            vsteps = int(g["verify_steps"].sum()) if g["verify_steps"].null_count() == 0 else None
        greedy_all = None if g["greedy"].null_count() else bool(g["greedy"].all())
        if b is not None and greedy_all is not None:
            greedy_all = greedy_all and b["greedy"].null_count() == 0 and bool(b["greedy"].all())
        cmp_cols = ["tokens", "predicted_n", "content_sha256"]
        ref = (
            (b if b is not None else g).select(cmp_cols).row(0, named=True)
            if (b is not None or cid == baseline_id)
            else None
        )
        mism = equal = None
        short = 0
        if ref is not None:
            rows_cmp = g.select(cmp_cols).to_dicts()
            short = sum(
                1
                for x in rows_cmp + ([ref] if cid != baseline_id else [])
                if x["tokens"] is not None and len(x["tokens"]) != x["predicted_n"]
            )
            results = [compare_outputs(ref, x) for x in rows_cmp]
            eqs = [e for e, _ in results]
            equal = False if False in eqs else (None if None in eqs else True)
            pos = [m for _, m in results if m is not None]
            mism = min(pos) if pos else None
        check = _output_check(g, b, cid == baseline_id, greedy_all, first["sampler"], equal)
        policy = first["policy"]
        trend = ftrend = None
        if policy == "same" and g.height >= 2 and first["spec_type"] != "none":
            a_rep = [(a if a is not None else 0.0) for a in g["alpha"].to_list()]
            trend = slope_interval(g["rep"].to_list(), a_rep, confidence)["slope"]
            frac = [
                x / y if y else 0.0
                for x, y in zip(g["accepted"].to_list(), g["predicted_n"].to_list(), strict=True)
            ]
            ftrend = slope_interval(g["rep"].to_list(), frac, confidence)["slope"]
        drafted_rep = g["drafted"].to_list()
        speed_trend = rep_trend(ratios, g["rep"].to_list()) if policy == "same" and ratios else None
        drafted_trend = (
            rep_trend(drafted_rep, g["rep"].to_list())
            if policy == "same" and not plain and g.height >= 2
            else None
        )
        mean_drafted = sum(drafted_rep) / len(drafted_rep) if drafted_rep else 0
        prompt_total = int(g["prompt_tokens"].sum()) if g["prompt_tokens"].null_count() == 0 else None
        cap_hit = None if g["cap_hit"].null_count() == g.height else bool(g["cap_hit"].any())
        ans = g["answer_found"].drop_nulls()
        order = identity.order_trend(g["decode_tps"].to_list())  # repetitions in run order
        out.append(
            {
                "host_id": first["host_id"],
                "toolchain_id": first["toolchain_id"],
                "session_id": s,
                "config_id": cid,
                "origin": first.get("origin", NATIVE),
                "build_number": first.get("build_number"),
                "build_commit": first.get("build_commit"),
                "prompt_id": pid,
                "spec_type": first["spec_type"],
                "draft_model_id": first["draft_model_id"],
                "n_max": first["n_max"],
                "n": n_rate,
                "n_requests": g.height,
                "n_no_decode_rate": g.height - n_rate,
                "decode_tps_mean": dm,
                "decode_tps_sd": dsd,
                "decode_tps_ci_low": dlo,
                "decode_tps_ci_high": dhi,
                "prefill_tps_mean": pm,
                "prefill_tps_ci_low": plo,
                "prefill_tps_ci_high": phi,
                "speedup_mean": sm,
                "speedup_ci_low": slo,
                "speedup_ci_high": shi,
                "speedup_n": n_ratio if cid != baseline_id else None,
                "speedup_verdict": speedup_verdict(sm, slo, shi, n_ratio) if cid != baseline_id else None,
                "speedup_reps": [None if x is None else float(x) for x in ratios],
                "speedup_trend_slope": speed_trend,
                "drafted_reps": [int(x) for x in drafted_rep],
                "drafted_trend_rel": drafted_trend / mean_drafted
                if drafted_trend is not None and mean_drafted
                else None,
                "decode_tps_reps": [None if x is None else float(x) for x in g["decode_tps"].to_list()],
                "order_n": order.n if order else None,
                "order_rho": order.rho if order else None,
                "order_rho_rest": order.rho_rest if order else None,
                "order_drift": order.drift if order else None,
                "cache_state": cstate,
                "warm_share": float(g["cache_n"].sum()) / float(prompt_total) if prompt_total else None,
                "greedy": greedy_all,
                "sampler": first["sampler"],
                "output_check": check.verdict,
                "output_check_note": check.note,
                "first_diverging_token": check.first_index,
                "matching_prefix_len": check.prefix_len,
                "acceptance_definition": acceptance_definition(first.get("build_number")),
                "cap_equal_work": _cap_equal_work(g, b, cap_hit),
                "alpha": alpha(acc, drafted),
                # the accepted tokens inside each request's cap (``tau``: none past the cap)
                "tau": tau(
                    int(g["accepted_in_cap"].sum()) if "accepted_in_cap" in g.columns else acc,
                    vsteps,
                    plain=plain,
                ),
                "drafted": drafted,
                "accepted": acc,
                "verify_steps": vsteps,
                "k_eff": drafted / vsteps if vsteps else None,
                "output_equal": equal,
                "first_mismatch_pos": mism,
                "tokens_len_mismatch": short,
                "cap_hit": cap_hit,
                "cap": first["cap"],
                "predicted_n_mean": g["predicted_n"].mean(),
                "alpha_trend_slope": trend,
                "accepted_frac_trend_slope": ftrend,
                "server_policy": policy,
                "cache_n_max": g["cache_n"].max(),
                "peak_rss_mib_max": (g["peak_rss_bytes"] / 2**20).max(),
                "answer_ok": series_mean(ans.cast(pl.Float64)) if ans.len() else None,
                "load1_max": g["load1_max"].max(),
                "others_cpu_pct_max": g["others_cpu_pct_max"].max()
                if "others_cpu_pct_max" in g.columns
                else None,
                "model_sha256": first["model_sha256"],
                "draft_model_sha256": first["draft_model_sha256"],
                "argv": first["argv"],
                "started_at": g["started_at"].min(),
                "ended_at": g["ended_at"].max(),
                "lines": sorted(g["line"].to_list()),
                "files": sorted(set(g["file"].to_list())),
                "run_ids": g["run_id"].to_list(),
            }
        )
    df = pl.DataFrame(
        out,
        infer_schema_length=None,
        schema_overrides={
            "alpha": pl.Float64,
            "alpha_trend_slope": pl.Float64,
            "accepted_frac_trend_slope": pl.Float64,
            "speedup_mean": pl.Float64,
            "speedup_ci_low": pl.Float64,
            "speedup_ci_high": pl.Float64,
            "decode_tps_ci_low": pl.Float64,
            "decode_tps_ci_high": pl.Float64,
            "decode_tps_sd": pl.Float64,
            "prefill_tps_ci_low": pl.Float64,
            "prefill_tps_ci_high": pl.Float64,
            "k_eff": pl.Float64,
            "first_mismatch_pos": pl.Int64,
            "output_equal": pl.Boolean,
            "answer_ok": pl.Float64,
            "tau": pl.Float64,
            "verify_steps": pl.Int64,
            "decode_tps_mean": pl.Float64,
            "draft_model_id": pl.String,
            "draft_model_sha256": pl.String,
            "n_max": pl.Int64,
            "load1_max": pl.Float64,
            "others_cpu_pct_max": pl.Float64,
            "cap_hit": pl.Boolean,
            "cap": pl.Int64,
            "cache_n_max": pl.Int64,
            "speedup_n": pl.Int64,
            "speedup_verdict": pl.String,
            "speedup_reps": pl.List(pl.Float64),
            "speedup_trend_slope": pl.Float64,
            "drafted_reps": pl.List(pl.Int64),
            "drafted_trend_rel": pl.Float64,
            "decode_tps_reps": pl.List(pl.Float64),
            "order_n": pl.Int64,
            "order_rho": pl.Float64,
            "order_rho_rest": pl.Float64,
            "order_drift": pl.Float64,
            "cache_state": pl.String,
            "warm_share": pl.Float64,
            "greedy": pl.Boolean,
            "sampler": pl.String,
            "output_check": pl.String,
            "output_check_note": pl.String,
            "first_diverging_token": pl.Int64,
            "matching_prefix_len": pl.Int64,
            "acceptance_definition": pl.String,
            "cap_equal_work": pl.Boolean,
            "peak_rss_mib_max": pl.Float64,
            "predicted_n_mean": pl.Float64,
            "server_policy": pl.String,
            "argv": pl.List(pl.String),
            "started_at": pl.String,
            "ended_at": pl.String,
            "build_number": pl.Int64,
            "build_commit": pl.String,
        },
    )
    return df.with_columns((pl.col("decode_tps_sd") / pl.col("decode_tps_mean")).alias("cv"))


def memory_slopes(req: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Memory per extra draft token: per (session, spec_type, draft model) with ≥ 2 distinct n_max,
    the least-squares slope of per-request peak RSS (MiB) over n_max with a Student-t interval.

    Columns: session_id, spec_type, draft_model_id, slope_mib_per_token, ci_low, ci_high,
    intercept_mib, n_points, n_max_values (list).  Peak RSS is of the whole server process tree
    (procmon.PeakSampler during the request; on a GPU build the GPU memory column would be used).
    """
    if req.is_empty():
        return pl.DataFrame()
    rows = []
    spec = req.filter(pl.col("spec_type") != "none")
    for (s, st, dmid), g in spec.group_by(["session_id", "spec_type", "draft_model_id"], maintain_order=True):
        if g["n_max"].n_unique() < 2:
            continue
        fit = slope_interval(g["n_max"].to_list(), (g["peak_rss_bytes"] / 2**20).to_list(), confidence)
        rows.append(
            {
                "session_id": s,
                "spec_type": st,
                "draft_model_id": dmid,
                "slope_mib_per_token": fit["slope"],
                "ci_low": fit["ci_low"],
                "ci_high": fit["ci_high"],
                "intercept_mib": fit["intercept"],
                "n_points": fit["n"],
                "n_max_values": sorted(g["n_max"].unique().to_list()),
            }
        )
    return pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()


@dataclass
class CostModel:
    """The speculative cost model of one session (``cost_model``): ``t1_ms`` target decode time per token;
    ``r`` {n: target n-token pass ÷ one decode step}; ``c`` {draft model id: its decode step ÷ the
    target's}; ``n`` fewest repetitions of any of its llama-bench runs; ``lines``/``files``/``argv`` the
    records and commands it came from."""

    t1_ms: float
    r: dict[int, float]
    c: dict[str, float]
    target_model_id: str
    n: int
    lines: list[int] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    argv: list[list[str]] = field(default_factory=list)
    #: the rows each published cost number read: ``"t1"``, ``"r<n>"``, ``"c:<model id>"`` ->
    #: [{"file", "line", "run_id", "started_at", "ended_at"}] (numerator and denominator)
    used: dict[str, list[dict]] = field(default_factory=dict)

    @property
    def r1(self) -> float | None:
        """r(1): the r(1) check's input (caveat ``cost_rows_disturbed``); None when not measured."""
        return self.r.get(1)


def _bench_test(rec: dict) -> costmodel.BenchTest:
    lb = rec["llama_bench"]
    return costmodel.BenchTest(int(lb["n_prompt"]), int(lb["n_gen"]), lb["samples_ns"])


#: what ``cost_model`` reads of a llama-bench row record (``benchrows``) and of llama-bench's own row
_COST_READ = ["run_id", "session_id", "role", "model_id", "argv", "started_at", "ended_at", "llama_bench"]
_COST_ROW = {"llama_bench": ["n_prompt", "n_gen", "samples_ns"]}


def cost_model(raw_dir: str | Path, session_id: str) -> CostModel | None:
    """c and r(n) from the session's llama-bench runs (``benchrows.read`` of ``raw_dir``, experiment
    speculative: the rows with a ``role``; committed sessions wrote them as ``benchbook.speculative_cost``),
    by ``costmodel.bench_terms``: t1 = the target's decode step (median ``samples_ns`` of its ``-n`` test ÷
    n_gen), r(n) = median ``samples_ns`` of its ``-p n`` test ÷ t1, c(draft) = the draft's decode step ÷
    t1 (medians: ``costmodel.median_ns``); the target as its own draft has c = 1.  Runs with fewer rows
    than their ``rows_total`` (interrupted) are left out.  Returns a ``CostModel``; None when the session
    has no cost runs or no target tg test.

    Raises:
        records.RecordError: a line is not JSON or a record fails its kind's checks (file:line, field, fix).
    """
    rows = benchrows.read(raw_dir, "speculative", _COST_READ, _COST_ROW)
    rows = rows.filter((pl.col("session_id") == session_id) & pl.col("role").is_not_null())
    recs = [r | {"_file": r["file"], "_line": r["line"]} for r in rows.iter_rows(named=True)]
    if not recs:
        return None

    tgt = [r for r in recs if r["role"] == "target"]
    tg = [r for r in tgt if int(r["llama_bench"]["n_gen"]) > 0 and int(r["llama_bench"]["n_prompt"]) == 0]
    if not tg:
        return None
    pp = [r for r in tgt if int(r["llama_bench"]["n_gen"]) == 0]
    drafts = [r for r in recs if r["role"] == "draft" and int(r["llama_bench"]["n_gen"]) > 0]
    terms = costmodel.bench_terms(
        _bench_test(tg[0]), [_bench_test(r) for r in pp], {r["model_id"]: _bench_test(r) for r in drafts}
    )
    c = dict(terms.c)
    c[tgt[0]["model_id"]] = 1.0  # the target as its own draft: the same decode step
    n_rep = min(len(r["llama_bench"]["samples_ns"]) for r in recs)

    def row(r: dict) -> dict:
        return {k: r.get(k) for k in ("run_id", "started_at", "ended_at")} | {
            "file": r["_file"],
            "line": r["_line"],
        }

    used = {"t1": [row(tg[0])]}
    used |= {f"r{int(r['llama_bench']['n_prompt'])}": [row(r), row(tg[0])] for r in pp}
    used |= {f"c:{r['model_id']}": [row(r), row(tg[0])] for r in drafts}
    used[f"c:{tgt[0]['model_id']}"] = [row(tg[0])]
    return CostModel(
        t1_ms=terms.step_ns / 1e6,
        r=terms.r,
        c=c,
        target_model_id=tgt[0]["model_id"],
        n=n_rep,
        lines=sorted(r["_line"] for r in recs),
        files=sorted({r["_file"] for r in recs}),
        argv=[r["argv"] for r in recs if r["row_index"] == 0],
        used=used,
    )


def with_model(table: pl.DataFrame, cm: CostModel | None) -> pl.DataFrame:
    """Add ``c`` (draft cost ratio; 0 for n-gram drafts, whose lookup costs no model pass),
    ``r_k1`` = r(k_eff + 1) (``costmodel.r_at``: null outside the measured sizes), ``speedup_model`` =
    τ / (k_eff·c + r(k_eff + 1)) (``costmodel.predicted``) and ``cost_r1`` (the cost model's r(1), the
    input of the caveat ``cost_rows_disturbed``; null without a cost model) to a config table.  Rows
    without drafts, or whose draft has no measured c, get nulls."""
    cs, rs, ms = [], [], []
    for row in table.iter_rows(named=True):
        c = None
        if row["spec_type"].startswith("ngram"):
            c = 0.0
        elif row["draft_model_id"] is not None:
            c = cm.c.get(row["draft_model_id"]) if cm else None
        k = row["k_eff"]
        rk = costmodel.r_at(cm.r, k + 1) if cm and k else None
        cs.append(c)
        rs.append(rk)
        ms.append(costmodel.predicted(row["tau"], k, c, rk) if k else None)
    return table.with_columns(
        pl.Series("c", cs, dtype=pl.Float64),
        pl.Series("r_k1", rs, dtype=pl.Float64),
        pl.Series("speedup_model", ms, dtype=pl.Float64),
        pl.lit(cm.r1 if cm else None, dtype=pl.Float64).alias("cost_r1"),
    )


def load(raw_dir: Path) -> pl.DataFrame:
    """The tidy table of the experiment: ``load_requests(raw_dir / "speculative")`` (one row per
    completed request, every host and session)."""
    return load_requests(Path(raw_dir) / "speculative")

"""The speculative-decoding cost model: its terms, its prediction, its residual and its overhead fit, once.

Used by the speculative experiment (``experiments.speculative``: the page's model column, the cost rows of
a session, the server-cost table) and the depth sweep (``experiments.spec_depth``).  The model
(DESIGN.md "Statistics and caveats"):

    predicted speedup = τ / (k·c + r(k+1) + o(k))

Leviathan, Kalman & Matias 2023, "Fast Inference from Transformers via Speculative Decoding", ICML, §3.3
(Theorem 3.8: improvement factor (1 − α^(γ+1)) / ((1 − α)(γc + 1))), with the numerator written as the
measured τ, the verify pass's cost r(k+1) in place of their 1 (a (k+1)-token pass is not one decode step
on real hardware) and, where it is fitted, a per-step overhead o(k).  Every term is dimensionless,
relative to one decode step of the target measured in the same session:

* τ: tokens committed per verify step, the verifier's own token included (``tau``, ``pooled_tau_k``);
* k: tokens drafted per verify step (``pooled_tau_k``);
* c: the draft's time per drafted token ÷ the target's decode step, from llama-bench tg tests
  (``bench_terms``) or from the drafting time llama-server measured (``server_terms``);
* r(n): the target's n-token pass ÷ its decode step (``bench_terms``), read at k+1 by ``r_at``.  One
  token through the model is one decode step's work, so r(1) ≈ 1: the caveat ``cost_rows_disturbed``
  (``caveats``) flags the numbers built on a cost model whose r(1) is far from it;
* o(k): the per-step overhead, β·(k+1)·c with β fitted on the other configurations (``fit_left_out``),
  or where the host's verify step was measured against llama-bench's pass (the tool_gap experiment),
  (ratio − 1)·r(k+1) (``measured_overhead``; ``overhead_term`` picks).

Three decisions (issue 26): c and r(n) from the *median* of llama-bench's per-repetition times
(``median_ns``); the decode step of llama-server requests over predicted_n − 1 tokens
(``decode_step_ms``); one r(n) rule, interpolation inside the measured sizes and nothing outside them
(``r_at``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# --- llama-bench terms: c and r(n) ---------------------------------------------------------------


@dataclass(frozen=True)
class BenchTest:
    """One llama-bench test a cost model reads: ``n_prompt`` and ``n_gen`` tokens (llama-bench's names: a
    pp test has n_gen 0, a tg test n_prompt 0) and ``samples_ns``, the time of each repetition (ns)."""

    n_prompt: int
    n_gen: int
    samples_ns: Sequence[float]


def median_ns(samples_ns: Sequence[float]) -> float:
    """The median of one test's per-repetition times (ns).  The median, not llama-bench's mean ``avg_ns``:
    the terms are ratios of two tests, and on a shared host one slowed repetition would decide a mean
    (seen: a 1-token pass at 169 ms against 6 ms on a 2-core host; an H200 pp1 test whose cold first
    repetition took 5.9 ms against 1.1 ms for the other two).

    >>> median_ns([6.0, 169.0, 7.0])
    7.0

    Raises:
        ValueError: no samples."""
    if len(samples_ns) == 0:
        raise ValueError("median_ns: the test has no samples_ns; fix: read a completed llama-bench row")
    return float(np.median(np.asarray(samples_ns, dtype=float)))


def decode_step_ns(tg: BenchTest) -> float:
    """One decode step of a tg test (ns per token): median(samples_ns) ÷ n_gen.

    Raises:
        ValueError: ``tg`` generates no token (n_gen ≤ 0: a pp test) or has no samples."""
    if tg.n_gen <= 0:
        raise ValueError(f"decode_step_ns: a tg test is needed, got n_prompt {tg.n_prompt}, n_gen {tg.n_gen}")
    return median_ns(tg.samples_ns) / tg.n_gen


@dataclass(frozen=True)
class BenchTerms:
    """The llama-bench side of a cost model: ``step_ns`` the target's decode step (ns per token); ``r``
    {n: the target's n-token pass ÷ ``step_ns``}; ``c`` {draft key: its decode step ÷ ``step_ns``}."""

    step_ns: float
    r: dict[int, float]
    c: dict[str, float]

    @property
    def r1(self) -> float | None:
        """r(1), the r(1) check's input (``cost_rows_disturbed``); None when no 1-token pass was measured."""
        return self.r.get(1)


def bench_terms(
    target_tg: BenchTest, target_pp: Iterable[BenchTest], drafts_tg: Mapping[str, BenchTest]
) -> BenchTerms:
    """c and r(n) of one session (and depth) from its llama-bench tests: step = ``decode_step_ns(target_tg)``;
    r(n) = ``median_ns`` of the target's pp test of n tokens ÷ step; c = each draft's ``decode_step_ns``
    ÷ step (keys as in ``drafts_tg``: model id or sha256).  Medians: ``median_ns``.

    >>> t = bench_terms(BenchTest(0, 4, [40.0, 44.0, 400.0]), [BenchTest(1, 0, [10.0, 11.0, 12.0])],
    ...                 {"d": BenchTest(0, 4, [8.0, 8.0, 9.0])})
    >>> (t.step_ns, t.r, t.c)
    (11.0, {1: 1.0}, {'d': 0.18181818181818182})

    Raises:
        ValueError: as ``decode_step_ns``."""
    step = decode_step_ns(target_tg)
    r = {int(t.n_prompt): median_ns(t.samples_ns) / step for t in target_pp}
    c = {key: decode_step_ns(t) / step for key, t in drafts_tg.items()}
    return BenchTerms(step_ns=step, r=dict(sorted(r.items())), c=c)


def r_at(r: Mapping[int, float], n: float) -> float | None:
    """r(n) from the measured sizes ``r`` ({n_prompt: ratio}): the measured value at a measured size,
    linear interpolation between the two measured sizes around ``n``, and None outside
    [smallest, largest] measured size (or with none measured).

    No extrapolation: r is not linear in n beyond what was measured (H200: r(5) 1.25, r(9) 2.80,
    r(16) 2.86: flat, a step, flat; a line through the last two would be a guess published as a
    measurement), and a value below the smallest size is not r(1) held constant but unknown.  The
    speculative code extrapolated and the depth sweep's did not; on the committed sessions every k+1 read
    lies in [1, 16], inside the measured sizes, so the choice moves none of the 304 published numbers
    that read r (37 model speedups, 180 server-cost numbers, 87 depth residuals): the rule that never
    invents a value is kept.

    >>> r_at({1: 1.0, 5: 2.0}, 2)
    1.25
    >>> r_at({1: 1.0, 5: 2.0}, 6) is None
    True
    """
    xs = sorted(r)
    if not xs or n < xs[0] or n > xs[-1]:
        return None
    return float(np.interp(n, xs, [r[x] for x in xs]))


def r_sizes_read(r: Mapping[int, float], n: float) -> list[int]:
    """The measured sizes of ``r`` that ``r_at(r, n)`` reads (the rows a number built on r(n) cites): ``n``
    itself when measured, else the two sizes around it; none outside the measured sizes.

    >>> r_sizes_read({1: 1.0, 3: 1.2, 5: 1.5}, 4.2), r_sizes_read({1: 1.0, 3: 1.2, 5: 1.5}, 9)
    ([3, 5], [])
    """
    xs = sorted(r)
    if n in r:
        return [int(n)]
    if not xs or n < xs[0] or n > xs[-1]:
        return []
    return next([a, b] for a, b in zip(xs, xs[1:], strict=False) if a <= n <= b)


# --- llama-server terms: the decode step, τ and k, the server's own timing ----------------------------


def decode_step_ms(predicted_ms: Iterable[float], predicted_n: Iterable[int]) -> float | None:
    """ms per decode step pooled over llama-server requests: Σ predicted_ms ÷ Σ (predicted_n − 1).

    The first generated token comes out of the prompt pass, so ``predicted_ms`` times predicted_n − 1
    decode steps: llama.cpp b11434 ``tools/server/server-common.h``, ``n_gen_steps()`` = n_gen − 1 ("the
    first token is free, it comes from the logits of the last prompt batch"), ``predicted_per_token_ms``
    = predicted_ms ÷ n_gen_steps and ``predicted_per_second`` = n_gen_steps ÷ predicted_ms.  None when no
    request decoded a token past its first (Σ (predicted_n − 1) = 0).

    >>> decode_step_ms([100.0, 100.0], [11, 11])  # 200 ms over 20 steps
    10.0
    """
    ms = [float(x) for x in predicted_ms]
    steps = sum(int(n) - 1 for n in predicted_n)
    return sum(ms) / steps if steps > 0 else None


def accepted_within_cap(accepted: int | None, verify_steps: int | float | None, cap: int | None) -> int:
    """Accepted draft tokens that the verify steps committed: ``accepted``, less those past ``cap`` (the
    most tokens the steps can commit, their own tokens included): min(accepted, cap − steps), never
    below 0.  No cap or no steps: ``accepted`` (0 for None).

    >>> accepted_within_cap(6, 3, 8), accepted_within_cap(6, 3, None)
    (5, 6)
    """
    acc = int(accepted or 0)
    if cap is None or verify_steps is None:
        return acc
    return max(0, min(acc, int(cap) - int(verify_steps)))


def tau(
    accepted: int | None, verify_steps: int | float | None, plain: bool = False, cap: int | None = None
) -> float | None:
    """τ = min(verify steps + accepted, cap) ÷ verify steps: tokens committed per verify step, the
    verifier's own token included (1 + accepted ÷ verify steps below the cap).

    ``cap``: the most tokens the verify steps can have committed (the request's generation cap; for a
    llama-server request ``predicted_n − 1``, its first token coming from the prompt pass): a verify
    step that accepts tokens past the cap does not commit them, so they are not counted (cap 8, three
    steps committing 3, 3 and 3: 8 tokens over 3 steps, τ = 8/3, not 3).  None: no cap known.
    1.0 for plain decoding (``plain``, spec_type "none") and when there were 0 verify steps (nothing
    drafted); None when the verify steps are unknown (``None``: ``/metrics`` had no
    ``spec_decode_num_drafts_total``) - τ of a speculative configuration is then not known, not 1.

    >>> tau(9, 3), tau(6, 3, cap=8), tau(5, None)
    (4.0, 2.666666666666667, None)
    """
    if plain:
        return 1.0
    if verify_steps is None:
        return None
    if not verify_steps:
        return 1.0
    return 1.0 + float(accepted_within_cap(accepted, verify_steps, cap)) / float(verify_steps)


def pooled_tau_k(accepted_in_cap: int, drafted: int, verify_steps: int) -> tuple[float | None, float | None]:
    """(τ, k) pooled over requests: τ = 1 + Σ accepted (each request's inside its cap,
    ``accepted_within_cap``) ÷ Σ verify steps, k = Σ drafted ÷ Σ verify steps; (None, None) without a
    verify step.

    >>> pooled_tau_k(12, 16, 8)
    (2.5, 2.0)
    """
    if not verify_steps:
        return None, None
    return tau(accepted_in_cap, verify_steps), drafted / verify_steps


@dataclass(frozen=True)
class ServerTerms:
    """The verify step as llama-server timed it (``-lv 4``'s drafting time): ``draft_ms`` Σ t_draft_ms ÷
    verify steps and ``verify_ms`` (Σ predicted_ms − Σ t_draft_ms) ÷ verify steps (ms per step: everything
    in a step that is not drafting, the verify pass and the server's own work); ``c_server`` = Σ
    t_draft_ms ÷ Σ drafted ÷ the decode step (None when nothing was drafted) and ``v_server`` =
    ``verify_ms`` ÷ the decode step (decode steps)."""

    draft_ms: float
    verify_ms: float
    c_server: float | None
    v_server: float


def server_terms(
    predicted_ms: float, t_draft_ms: float, drafted: int, verify_steps: int, step_ms: float
) -> ServerTerms | None:
    """``ServerTerms`` of requests pooled: their Σ ``predicted_ms``, Σ ``t_draft_ms`` (the server's
    drafting time), Σ drafted and Σ verify steps, against the baseline's decode step ``step_ms``
    (``decode_step_ms``).  None without a verify step.

    >>> server_terms(160.0, 32.0, 16, 8, 10.0)
    ServerTerms(draft_ms=4.0, verify_ms=16.0, c_server=0.2, v_server=1.6)
    """
    if not verify_steps:
        return None
    verify_ms = (predicted_ms - t_draft_ms) / verify_steps
    return ServerTerms(
        draft_ms=t_draft_ms / verify_steps,
        verify_ms=verify_ms,
        c_server=t_draft_ms / drafted / step_ms if drafted else None,
        v_server=verify_ms / step_ms,
    )


# --- the prediction and its residual --------------------------------------------------------------


def tau_independent(a: float, k: float) -> float:
    """Expected τ with k drafted tokens under independent per-token acceptance α:
    (1 − α^(k+1)) / (1 − α), and k + 1 at α = 1 (Leviathan et al. 2023, eq. 1).

    >>> tau_independent(0.5, 4)
    1.9375
    """
    if a >= 1.0:
        return k + 1.0
    return (1.0 - a ** (k + 1)) / (1.0 - a)


def speedup_model(t: float, k: float, c: float, r_k1: float, o_k: float = 0.0) -> float:
    """Predicted decode speedup τ / (k·c + r(k+1) + o(k)) (dimensionless; c, r and o relative to one
    target decode step; o(k) = 0 without an overhead term).

    >>> speedup_model(5.0, 4, 1.0, 2.1)  # 5 / 6.1
    0.819672131147541

    Raises:
        ValueError: the denominator is not positive."""
    den = k * c + r_k1 + o_k
    if den <= 0:
        raise ValueError(f"speedup model: k·c + r(k+1) + o(k) = {den} must be > 0")
    return t / den


def predicted(
    t: float | None, k: float | None, c: float | None, r_k1: float | None, o_k: float = 0.0
) -> float | None:
    """``speedup_model`` where every term is known and the denominator positive (a negative fitted
    overhead can exceed the rest of the step); None otherwise."""
    if t is None or k is None or c is None or r_k1 is None or k * c + r_k1 + o_k <= 0:
        return None
    return speedup_model(t, k, c, r_k1, o_k)


def residual(model: float | None, measured: float | None) -> float | None:
    """model ÷ measured − 1 (a positive residual: the model promises more than was measured); None when
    either is unknown or ``measured`` is 0.

    >>> residual(1.5, 1.25)
    0.19999999999999996
    """
    if model is None or not measured:
        return None
    return model / measured - 1


# --- the per-step overhead, fitted on the other configurations ----------------------------------------


def beta_fit(xs: list[float], ys: list[float]) -> float | None:
    """Least-squares slope through the origin, Σxy / Σx²; None for fewer than 2 points or Σx² = 0.

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
    ``o_k`` = β · (k+1) · c of the row (decode steps); or, where the host's verify step was measured
    (``overhead_term``), ``verify_ratio`` and ``o_k`` = ``measured_overhead`` (β None, no others)."""

    beta: float | None
    o_k: float
    others: list[dict]
    verify_ratio: float | None = None


def measured_overhead(r_k1: float, verify_ratio: float) -> float:
    """o(k) from a measured verify step instead of a fitted one (issue 31 §3): the server's verify step
    of k+1 positions is ``verify_ratio`` × llama-bench's ``-p k+1`` pass (``experiments.tool_gap``: its
    ``verify-k<k>`` part, the server's (predicted_ms − t_draft_ms) ÷ gen_drafts over the pass), so in
    decode steps it is ratio · r(k+1), and the model's term beyond r(k+1) is (ratio − 1) · r(k+1).

    >>> round(measured_overhead(1.2, 1.75), 6)
    0.9
    """
    return (verify_ratio - 1.0) * r_k1


def overhead_term(
    row: dict,
    rows: list[dict],
    group: tuple[str, ...],
    c: str,
    usable: Callable[[dict], bool],
    ratios: Mapping[tuple[str, int], float] | None = None,
) -> OverheadFit | None:
    """The overhead term of ``row``: measured where its host's verify step is (``ratios``:
    ``{(host_id, k): server verify step ÷ llama-bench's k+1 pass}``, ``experiments.tool_gap.analysis.
    verify_ratios``; the row's k is its ``n_max``): ``measured_overhead(row["r_k1"], ratio)``; else
    fitted on the other configurations (``fit_left_out``).  None as ``fit_left_out``."""
    k = row.get("n_max")
    ratio = (ratios or {}).get((str(row.get("host_id")), int(k))) if k is not None else None
    if ratio is not None and row.get("r_k1") is not None:
        return OverheadFit(None, measured_overhead(float(row["r_k1"]), ratio), [], ratio)
    return fit_left_out(row, rows, group, c, usable)


def fit_left_out(
    row: dict, rows: list[dict], group: tuple[str, ...], c: str, usable: Callable[[dict], bool]
) -> OverheadFit | None:
    """β and o(k) of ``row`` from the *other* configurations: the rows of ``rows`` for which ``usable``
    holds, with ``row``'s values of the ``group`` columns and another ``config_id``; β = ``beta_fit`` of
    their ``overhead_server`` (v_server − r(k+1), decode steps) against (k+1) · their column ``c``;
    o(k) = β · (k+1) · ``row[c]``.  Leave one out: a row's own overhead never enters its β, so the model
    with o(k) is a prediction.  None when β has no estimate (fewer than two such rows).  Used by
    ``experiments.spec_depth.overhead.with_overhead`` (c = ``c_alone``, per host, session and depth) and
    ``experiments.speculative.server_cost.with_overhead`` (c = ``c_server``, per session)."""
    others = [
        o
        for o in rows
        if usable(o) and all(o[g] == row[g] for g in group) and o["config_id"] != row["config_id"]
    ]
    beta = beta_fit([(o["k"] + 1) * o[c] for o in others], [o["overhead_server"] for o in others])
    if beta is None:
        return None
    return OverheadFit(beta, beta * (row["k"] + 1) * row[c], others)

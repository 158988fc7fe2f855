"""What a source leaves unsaid, noted beside the verdicts it weakens (``Verdict.unsaid``).

Each check reads only what the claims file states and names what is missing and why it matters:

* ``temperature``: a speculative comparison (a speculative side and a plain one, or a speedup) run
  at temperature > 0 compares different generations: sampling makes each run write other text, so
  the rates are of different work (greedy runs reproduce the same text, DESIGN.md).  Temperature is
  read from ``conditions.other.temperature``, ``conditions.sampling`` ("greedy" is 0, "temperature
  0.8" or "temp=0.8" its number) and, for the source's own claims, ``settings.temperature``;
* ``cap``: a generation cap stated (``conditions.cap``) with no output length
  (``conditions.tokens_generated``): the answers may have stopped at the cap (``caveats`` rule
  ``cap_hit`` cannot be judged);
* ``spread``: a value of n ≥ 2 runs (its ``n``, else the source's ``runs_per_prompt`` for its own
  numbers) with no spread stated (``spread``): how far the runs agreed is unknown; worded by the
  statistic the file states (``statistic_of``: mean, median...; never assumed a mean);
* ``free``: a speedup called free ("free", "no cost", "costs nothing"; a claim's quote right around
  its value: "free 1.8x on code") in a file that states a memory increase (a size claim or statement
  whose words or arithmetic say more memory, or two sizes of one metric its source gives as a change
  up: "VRAM went from 5.9 GB to 6.8 GB"): the cost is named.

A note lands on the claim or statement it concerns and on every statement resting on it
(``tables.Under.gather``).
"""

from __future__ import annotations

import re

from .recompute import Recomputed
from .schema import COMPARING_KINDS, Claim, ClaimsFile, Statement, family_of
from .tables import Under

#: words that call a result free of cost
FREE = re.compile(
    # "free" as a claim, not "not free", "lock-free", "free VRAM", "free memory"
    r"(?i)(?<!not )(?<!-)\bfree\b(?!-| (vram|ram|memory|space|slots?|gpu)\b)"
    r"|\bno (extra |additional )?cost\b|\bcosts? nothing\b|\bat no cost\b"
)
#: words that say a memory figure is an increase
INCREASE = re.compile(r"(?i)increase|\bextra\b|\bmore\b|\bper (draft )?token\b|overhead|\bcost\b|\badds?\b")
#: a change written from one figure to another ("went from 5.9 GB to 6.8 GB", "5.9 → 6.8 GB")
_FROM_TO = re.compile(r"(?i)\bfrom\b(?:[^.;]|\.(?=\d)){0,40}?\bto\b|→|->")
_TEMPERATURE = re.compile(r"(?i)\btemp(?:erature)?\s*[=:]?\s*([0-9]*\.?[0-9]+)")


def temperature(cf: ClaimsFile, claim: Claim) -> float | None:
    """The sampling temperature a claim ran at (module doc), None when not stated."""
    cond = cf.conditions_of(claim)
    stated = cond.other.get("temperature")
    if isinstance(stated, (int, float)) and not isinstance(stated, bool):
        return float(stated)
    if cond.sampling:
        if re.search(r"(?i)(?<!non-)(?<!non )(?<!not )\bgreedy\b", cond.sampling):
            return 0.0
        m = _TEMPERATURE.search(cond.sampling)
        if m:
            return float(m.group(1))
    own = cf.settings.get("temperature") if claim.origin is None else None
    if isinstance(own, (int, float)) and not isinstance(own, bool):
        return float(own)
    return None


def _speculative(mode: str | None) -> bool:
    return mode is not None and mode != "plain"


def _temperature_notes(cf: ClaimsFile, under: Under) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}

    def mode(x: str) -> list[str | None]:
        c = cf.claim(x)
        return [under.conditions(c).decoding] if c is not None else []

    def heat(x: str) -> list[float]:
        c = cf.claim(x)
        t = temperature(cf, c) if c is not None else None
        return [t] if t is not None and t > 0 else []

    for s in cf.statements:
        if s.kind not in COMPARING_KINDS and s.kind != "bound":
            continue
        modes = under.gather(s.id, "decoding", mode)
        if not (any(_speculative(m) for m in modes) and "plain" in modes):
            continue
        hot = sorted(under.gather(s.id, "temperature > 0", heat))
        if hot:
            out.setdefault(s.id, []).append(_temperature_text(hot))
    for c in cf.claims:
        t = temperature(cf, c)
        if c.metric == "speedup" and t is not None and t > 0:
            out.setdefault(c.id, []).append(_temperature_text([t]))
    return out


def _temperature_text(temps: list[float]) -> str:
    shown = ", ".join(f"{t:g}" for t in temps)
    return (
        f"a speculative comparison sampled at temperature {shown}: the speculative and plain runs wrote "
        "different text, so it compares different generations (state a greedy run, temperature 0)"
    )


def _cap_notes(cf: ClaimsFile) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in cf.claims:
        cond = cf.conditions_of(c)
        if cond.cap is not None and cond.tokens_generated is None:
            out.setdefault(c.id, []).append(
                f"a generation cap of {cond.cap} tokens is stated for {c.id} but not its output length: "
                "the answers may have stopped at the cap (state the tokens generated)"
            )
    return out


#: a statistic of repeated runs named in a claim's ``method`` ("median of 3 runs", "averaged over 2 runs")
_STAT_WORD = re.compile(
    r"(?i)\b(median|mean|average[ds]?|avg|p\d{2}(?:\.\d+)?|min(?:imum)?|max(?:imum)?|best)\b"
)
_STAT_NAME = {"average": "mean", "averaged": "mean", "averages": "mean", "avg": "mean", "minimum": "min"}


def statistic_of(cf: ClaimsFile, c: Claim) -> str | None:
    """The statistic a claim of several runs states (``mean``, ``median``, ``p99``, ``min``, ``max``,
    ``best``): its ``conditions.other.stat`` (the file's defaults under it; what the drafter writes
    for "Mean TTFT", "Median TTFT"), else the one word of them its ``method`` names ("median of 3
    runs"; a llama-bench method: its avg_ts, a mean); None when the file states none or several: never
    assumed to be a mean."""
    stat = cf.conditions_of(c).other.get("stat")
    if isinstance(stat, str) and stat.strip():
        return _STAT_NAME.get(stat.strip().lower(), stat.strip().lower())
    words = {_STAT_NAME.get(w.lower(), w.lower()) for w in _STAT_WORD.findall(c.method or "")}
    if not words and re.search(r"(?i)\bllama-bench\b", c.method or ""):
        return "mean"  # llama-bench's avg_ts: the mean of its repetitions' rates (LLAMA_BENCH_DEFINITION)
    return words.pop() if len(words) == 1 else None


def runs_wording(stat: str | None, n: int) -> str:
    """How a value of ``n`` runs is worded by the statistic the file states (``statistic_of``):
    "averaged over 3 runs" (mean), "the median of 3 runs", "the p99 of 3 runs", "one figure of 3 runs
    (mean, median or other: not stated)"."""
    if stat == "mean":
        return f"averaged over {n} runs"
    if stat is None:
        return f"one figure of {n} runs (mean, median or other: not stated)"
    return f"the {stat} of {n} runs"


def _spread_notes(cf: ClaimsFile) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in cf.claims:
        # the claim's n, else the runs the source states behind each of its own numbers
        n = c.n if c.n is not None else (cf.source.runs_per_prompt if c.origin is None else None)
        if n is not None and n >= 2 and c.spread is None and (c.value is not None or c.range):
            out.setdefault(c.id, []).append(
                f"{c.id} is {runs_wording(statistic_of(cf, c), n)} with no spread stated (sd, range or "
                "interval): how far the runs agreed is unknown"
            )
    return out


def _memory_increases(cf: ClaimsFile, recomputed: dict[str, Recomputed]) -> list[str]:
    """``"vram_per_draft_token = 599 MB (mem-per-token)"``: the memory increases the file states; and
    two sizes of one metric its source gives in one sentence as a change up ("VRAM went from 5.9 GB
    to 6.8 GB": ``_FROM_TO``), ``"vram from 5.9 to 6.8 GB (vram-l31, vram-l31-2)"``."""
    found = []
    by_line: dict[tuple, list[Claim]] = {}
    for c in cf.claims:
        words = " ".join(x for x in (c.metric, c.statement, c.note) if x)
        if family_of(c.unit) == "size" and c.value is not None and INCREASE.search(words):
            found.append(f"{c.metric} = {c.value:g} {c.unit} ({c.id})")
        elif family_of(c.unit) == "size" and c.value is not None and c.quote and _FROM_TO.search(c.quote):
            by_line.setdefault((c.source_line, c.quote, c.metric, c.unit), []).append(c)
    for (_, _, metric, unit), pair in by_line.items():
        if len(pair) == 2 and pair[1].value > pair[0].value:  # type: ignore[operator]
            found.append(
                f"{metric} from {pair[0].value:g} to {pair[1].value:g} {unit} ({pair[0].id}, {pair[1].id})"
            )
    for s in cf.statements:
        r = recomputed.get(s.id)
        units = {cf.claim(i).unit for i in s.of if cf.claim(i) is not None}  # type: ignore[union-attr]
        if s.kind not in COMPARING_KINDS or not units or any(family_of(u) != "size" for u in units):
            continue
        grows = (
            r is not None and r.natural is not None and (r.natural.lo > (1.0 if s.kind == "ratio" else 0.0))
        )
        if grows or INCREASE.search(s.statement):
            found.append(f"{s.statement} ({s.id})")
    return found


def _is_speedup(cf: ClaimsFile, item: Claim | Statement) -> bool:
    if isinstance(item, Claim):
        return item.metric == "speedup" or family_of(item.unit) == "rate"
    units = {c.unit for i in item.of if (c := cf.claim(i)) is not None}
    return bool(units) and all(family_of(u) == "rate" for u in units) or "speed" in item.statement.lower()


def _called_free(item: Claim | Statement) -> bool:
    """Whether ``item``'s words call it free (``FREE``): its statement or note, or for a claim the words
    of its quote right around its value ("TL;DR: free 1.8x on code, ~1.2x on prose": the 1.8x, not the
    1.2x; a drafted claim's words are its quote)."""
    if FREE.search(" ".join(x for x in (item.statement, item.note) if x)):
        return True
    quote = getattr(item, "quote", None)
    if not quote or item.value is None:
        return False
    return any(
        FREE.search(quote, max(0, m.start() - 12), m.end() + 12)
        for m in re.finditer(rf"(?<![\d.]){re.escape(f'{item.value:g}')}(?![\d])", quote)
    )


def _free_notes(cf: ClaimsFile, recomputed: dict[str, Recomputed]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    items: list[Claim | Statement] = [*cf.claims, *cf.statements]
    called_free = [it for it in items if _called_free(it) and _is_speedup(cf, it)]
    if not called_free:
        return out
    costs = _memory_increases(cf, recomputed)
    if costs:
        for it in called_free:
            out.setdefault(it.id, []).append(
                f"called free, yet the source states a memory cost: {'; '.join(costs)}"
            )
    return out


def unsaid(
    cf: ClaimsFile, recomputed: dict[str, Recomputed], under: Under | None = None
) -> dict[str, list[str]]:
    """Claim or statement id -> the notes on what the source leaves unsaid (module doc), each note on
    the item it concerns and on every statement resting on that item: a statement's own notes, then
    those of each item it cites, in citation order (``tables.Under.gather``), each note once.
    ``under``: the audit's (``tables.Under``)."""
    under = under or Under(cf, recomputed)
    own: dict[str, list[str]] = {}
    for part in (
        _temperature_notes(cf, under),
        _cap_notes(cf),
        _spread_notes(cf),
        _free_notes(cf, recomputed),
    ):
        for key, notes in part.items():
            own.setdefault(key, []).extend(notes)
    out: dict[str, list[str]] = {k: list(v) for k, v in own.items()}
    for s in cf.statements:
        out[s.id] = list(under.gather(s.id, "unsaid", lambda x: own.get(x, [])))
    return {k: v for k, v in out.items() if v}

"""Result lines of a tool's output pasted in a post, read as claims (``benchbook claims draft``).

What a tool prints as ``label: value`` or ``key=value`` states its numbers without a unit the
prose reader (``draftprose.numbers``) would know, so each known shape is read here:

* llama-cli's summary ``[ Prompt: 196.3 t/s | Generation: 47.6 t/s ]``: prefill and decode rates;
* llama-speculative's ``encoded N tokens in T seconds, speed: R t/s`` (prefill) and ``decoded N
  tokens in T seconds, speed: R t/s`` (decode, N the tokens generated), and its counts
  ``n_drafted = D``, ``n_accept = A`` with ``accept = P%``: the acceptance rate α = A ÷ D, with
  its counts where both are printed (llama.cpp ``examples/speculative``);
* ``key=value`` lines with two or more pairs (a benchmark script's per-prompt line ``code_python
  pred= 192 draft= 122 acc= 118 rate=0.967 tok/s=79.8``): a value with ``s`` or ``ms`` after it a
  time (``ttft=0.30s`` a TTFT, another key's a duration), ``tok/s=``/``t/s=`` a decode rate,
  ``rate=`` (``accept_rate=``, ``acceptance=``) the acceptance rate with ``acc=``/``draft=`` as
  its counts, ``pred=`` the tokens generated, a leading word the prompt;
* a ``label: value`` line naming the acceptance (``Aggregate draft acceptance: 0.648``): the
  acceptance rate, a ratio (or % where written).

Offsets are those of the line read, so a caller may blank a result out of the prose it reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..ingest.specsimple import ACCEPT_LINE, COUNT_LINE, SPEED_LINE

_NUM = r"\d+(?:\.\d+)?"
_CLI = re.compile(
    rf"\[\s*Prompt:\s*(?P<pp>{_NUM})\s*t/s\s*\|\s*Generation:\s*(?P<tg>{_NUM})\s*t/s\s*\]", re.IGNORECASE
)
_PAIR = re.compile(rf"(?<![\w/])(?P<k>[A-Za-z_][\w/]*)\s*=\s*(?P<v>-?{_NUM})(?P<u>ms|s)?(?![\w.])")
#: a time's key -> its metric (``ttft=0.30s``, ``tpot=21ms``); another key's time is a duration
_TIME_KEYS = (
    ("ttft", "ttft"),
    ("tpot", "tpot"),
    ("itl", "latency"),
    ("latency", "latency"),
    ("load", "load_time"),
)
_LABELLED = re.compile(
    rf"^[\s*_>-]*(?P<label>[A-Za-z][\w ()-]{{0,40}}?\baccept(?:ance|ed)?(?: rate)?)\s*:\s*"
    rf"(?P<v>{_NUM})\s*(?P<pct>%)?\s*\.?[\s*_]*$",
    re.IGNORECASE,
)
_RATE_KEYS = frozenset({"tok/s", "t/s", "tokens/s", "tps"})
_ACC_KEYS = frozenset({"rate", "accept_rate", "acceptance", "acceptance_rate", "acc_rate"})


@dataclass
class Result:
    """One number a result line states: its ``line``, ``metric``, ``value`` as written, ``unit``,
    the span ``start``..``end`` of the line it was read from, ``counts`` (accepted, drafted),
    ``conditions`` the line sets (``tokens_generated``, ``prompt``), the tool (``method``)."""

    line: int
    metric: str
    value: str
    unit: str
    start: int
    end: int
    counts: dict[str, int] | None = None
    conditions: dict = field(default_factory=dict)
    method: str | None = None
    #: the ± printed beside the value (llama-perplexity's ``PPL = 5.9066 +/- 0.03336``), as written
    spread: str | None = None
    #: "about" written before the value ("prompt_token/s: around 303.8")
    about: bool = False


def results(lines: list[tuple[int, str]]) -> list[Result]:
    """The results stated by ``lines`` (``(line, text)`` of one block, module doc), in line order.
    The counts ``n_drafted``/``n_accept`` are those of the block (they print on lines of their
    own before ``accept =``)."""
    out: list[Result] = []
    drafted = accepted = None
    tokens: int | None = None
    for _n, t in lines:
        for c in COUNT_LINE.finditer(t):
            if c.group("k") == "n_drafted":
                drafted = int(c.group("v"))
            elif c.group("k") == "n_accept":
                accepted = int(c.group("v"))
    for n, t in lines:
        if m := _CLI.search(t):
            out.append(Result(n, "prefill_tps", m.group("pp"), "t/s", m.start(), m.end(), method="llama-cli"))
            out.append(Result(n, "decode_tps", m.group("tg"), "t/s", m.start(), m.end(), method="llama-cli"))
            continue
        if (m := SPEED_LINE.search(t)) and m.group("r") != "inf":
            decoded = m.group("what").lower() == "decoded"
            cond = {"tokens_generated": int(m.group("n"))} if decoded else {}
            if decoded:
                tokens = int(m.group("n"))
            metric = "decode_tps" if decoded else "prefill_tps"
            out.append(
                Result(n, metric, m.group("r"), "t/s", m.start(), m.end(), None, cond, "llama-speculative")
            )
            continue
        if m := ACCEPT_LINE.fullmatch(t.strip()):
            counts = (
                {"accepted": accepted, "drafted": drafted}
                if accepted is not None and drafted is not None and 0 <= accepted <= drafted and drafted > 0
                else None
            )
            cond = {"tokens_generated": tokens} if tokens is not None else {}
            out.append(Result(n, "acceptance_rate", m.group("v"), "%", m.start(), m.end(), counts, cond))
            continue
        pairs = list(_PAIR.finditer(t))
        if len(pairs) >= 2:
            out.extend(_pairs(n, t, pairs))
            continue
        if m := _LABELLED.search(t):
            value, pct = m.group("v"), m.group("pct")
            if pct or float(value) <= 1:
                out.append(
                    Result(n, "acceptance_rate", value, "%" if pct else "ratio", m.start("v"), m.end())
                )
    return out


def _pairs(n: int, text: str, pairs: list[re.Match]) -> list[Result]:
    """The results of one ``key=value`` line (module doc)."""
    got = {p.group("k").lower(): p for p in pairs}
    cond: dict = {}
    lead = text[: pairs[0].start()].strip()
    if re.fullmatch(r"[\w.-]+", lead) and not lead.replace(".", "").isdigit():
        cond["prompt"] = lead
    pred = got.get("pred") or got.get("n_predict") or got.get("predicted")
    if pred is not None and re.fullmatch(r"\d+", pred.group("v")):
        cond["tokens_generated"] = int(pred.group("v"))
    acc = got.get("acc") or got.get("accepted") or got.get("n_accept")
    dr = got.get("draft") or got.get("drafted") or got.get("n_drafted")
    out: list[Result] = []
    for p in pairs:
        k, v = p.group("k").lower(), p.group("v")
        if p.group("u") is not None and not v.startswith("-"):
            # "ttft=0.30s", "wall=12.5s": a time, its unit written after it
            metric = next((m for key, m in _TIME_KEYS if key in k), "duration")
            out.append(Result(n, metric, v, p.group("u"), p.start(), p.end(), None, dict(cond)))
        elif k in _RATE_KEYS:
            unit = "tok/s" if k in ("tok/s", "tokens/s", "tps") else "t/s"
            out.append(Result(n, "decode_tps", v, unit, p.start(), p.end(), None, dict(cond)))
        elif k in _ACC_KEYS and not v.startswith("-") and float(v) <= 1:
            counts = None
            if acc is not None and dr is not None:
                a, d = acc.group("v"), dr.group("v")
                if a.isdecimal() and d.isdecimal() and 0 <= int(a) <= int(d) and int(d) > 0:
                    counts = {"accepted": int(a), "drafted": int(d)}
            out.append(Result(n, "acceptance_rate", v, "ratio", p.start(), p.end(), counts, dict(cond)))
    return out

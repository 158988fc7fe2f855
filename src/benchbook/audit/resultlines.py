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

import bisect
import math
import re
from dataclasses import dataclass, field

from ..ingest.serverlog import DRAFT_LINE
from ..ingest.specsimple import ACCEPT_LINE, COUNT_LINE, SPEED_LINE
from .post import NVSMI_ROW

_NUM = r"\d+(?:\.\d+)?"
_CLI = re.compile(
    rf"\[\s*Prompt:\s*(?P<pp>{_NUM})\s*t/s\s*\|\s*Generation:\s*(?P<tg>{_NUM})\s*t/s\s*\]", re.IGNORECASE
)
#: (a value may be quoted with its unit: text-generation-inference's ``total_time="2.5s"``,
#: ``time_per_token="24ms"``, ``queue_time="50us"``)
_PAIR = re.compile(rf'(?<![\w/])(?P<k>[A-Za-z_][\w/]*)\s*=\s*"?(?P<v>-?{_NUM})(?P<u>ms|s|us|µs)?"?(?![\w.])')
#: a time's key -> its metric (``ttft=0.30s``, ``tpot=21ms``); another key's time is a duration
_TIME_KEYS = (
    ("time_per_token", "ms_per_token"),  # text-generation-inference's: the inference time a token
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
    #: the decimals where the value's digits do not give them: a value written in thousands ("88k":
    #: "88000", -3; ``draftprose.scaled``)
    decimals: int | None = None


def owned(text: str) -> bool:
    """Whether a line is of a shape ``results`` reads whole, results or none (an SGLang prefill line,
    a speculative decoding metrics line): no other reader is to read its labels."""
    return any(
        p.search(text)
        for p in (DRAFT_LINE, _VLLM_SPEC, _VLLM_SPEC_V0, _SGLANG_BATCH, NVSMI_ROW, _NVSMI_NAME, _KOBOLD)
    )


def results(lines: list[tuple[int, str]]) -> list[Result]:
    """The results stated by ``lines`` (``(line, text)`` of one block, module doc), in line order.
    The counts ``n_drafted``/``n_accept`` of an ``accept =`` line are the last the block prints
    before it (on lines of their own), else its first after it: a block holding two runs' summaries
    ("## With heuristic" … "## Without heuristic") gives each rate its own run's counts."""
    out: list[Result] = []
    seen: dict[str, list[tuple[int, int]]] = {"n_drafted": [], "n_accept": []}
    tokens: int | None = None
    for n, t in lines:
        for c in COUNT_LINE.finditer(t):
            if c.group("k") in seen:
                seen[c.group("k")].append((n, int(c.group("v"))))

    def count(key: str, line: int) -> int | None:
        # by bisection: a pass over every count per rate was quadratic in a long log
        at = bisect.bisect_right(seen[key], (line, math.inf))
        return seen[key][at - 1][1] if at else seen[key][0][1] if seen[key] else None

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
        if m := DRAFT_LINE.search(t):
            out.extend(_server_draft(n, m))
            continue
        if m := NVSMI_ROW.search(t):
            out.extend(_nvsmi(n, m, lines))
            continue
        if m := _KOBOLD.search(t):
            out.extend(_kobold(n, t, m))
            continue
        if m := _VLLM_SPEC.search(t):
            out.extend(_vllm_spec(n, t, m.end()))
            continue
        if m := _VLLM_SPEC_V0.search(t):
            out.extend(_vllm_spec_v0(n, t, m.end()))
            continue
        if _SGLANG_BATCH.search(t):
            out.extend(_sglang_batch(n, t))
            continue
        if m := ACCEPT_LINE.fullmatch(t.strip()):
            drafted, accepted = count("n_drafted", n), count("n_accept", n)
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


def _positions(n: int, text: str, start: int, method: str) -> list[Result]:
    """Each position's acceptance rate of a comma list ``text`` found at ``start`` of its line
    ("0.805, 0.632, 0.483": ``other.draft_position`` from 0), as ``method`` prints them."""
    out = []
    for k, v in enumerate(re.finditer(_NUM, text)):
        at = start + v.start()
        cond = {"other": {"draft_position": k}}
        out.append(
            Result(n, "acceptance_rate", v.group(0), "ratio", at, at + len(v.group(0)), None, cond, method)
        )
    return out


def _counts(accepted: str | int, drafted: str | int) -> dict[str, int] | None:
    """The counts behind α (accepted of drafted) where both are whole and possible, else None."""
    if not (str(accepted).isdecimal() and str(drafted).isdecimal()):
        return None
    a, d = int(accepted), int(drafted)
    return {"accepted": a, "drafted": d} if 0 <= a <= d and d > 0 else None


#: vLLM's speculative decoding log line ("SpecDecoding metrics: Mean acceptance length: 2.45, Accepted
#: throughput: 12.30 tokens/s, Drafted throughput: 20.10 tokens/s, Accepted: 123 tokens, Drafted: 201
#: tokens, Per-position acceptance rate: 0.812, 0.601, Avg Draft acceptance rate: 61.2%"; vLLM 0.9's
#: "SpecDecoding metrics: Draft acceptance rate: 38.8%, Mean acceptance length: 2.16, …" first;
#: vllm/v1/spec_decode/metrics.py)
_VLLM_SPEC = re.compile(r"\bSpecDecoding metrics:\s*", re.IGNORECASE)
_VLLM_SPEC_ITEM = re.compile(
    rf"(?P<k>Mean acceptance length|Accepted throughput|Drafted throughput|Accepted|Drafted|"
    rf"Per-position acceptance rate|(?:Avg )?Draft acceptance rate):\s*"
    rf"(?P<v>{_NUM}(?:,\s*{_NUM})*)\s*(?P<u>tokens/s|tokens|%)?",
    re.IGNORECASE,
)


def _vllm_spec(n: int, text: str, start: int) -> list[Result]:
    """The results of vLLM's ``SpecDecoding metrics:`` line (``_VLLM_SPEC``): the mean acceptance
    length τ (tokens a verify step, its own token counted), the accepted and drafted tokens a second
    (``accepted_throughput``, ``drafted_throughput``), the counts (``accepted_tokens``,
    ``draft_tokens``), each position's acceptance rate (``other.draft_position`` from 0) and the
    average acceptance rate in % with the counts α = accepted ÷ drafted."""
    items = {m.group("k").lower(): m for m in _VLLM_SPEC_ITEM.finditer(text, start)}
    out: list[Result] = []
    acc, dr = items.get("accepted"), items.get("drafted")
    names = {
        "mean acceptance length": ("mean_accepted_length", "tokens"),
        "accepted throughput": ("accepted_throughput", "tok/s"),
        "drafted throughput": ("drafted_throughput", "tok/s"),
        "accepted": ("accepted_tokens", "tokens"),
        "drafted": ("draft_tokens", "tokens"),
    }
    for key, m in items.items():
        if key in names:
            metric, unit = names[key]
            out.append(Result(n, metric, m.group("v"), unit, m.start("v"), m.end("v"), method="vLLM"))
        elif key == "per-position acceptance rate":
            out += _positions(n, m.group("v"), m.start("v"), "vLLM")
        else:  # "Avg Draft acceptance rate: 61.2%"
            counts = _counts(acc.group("v"), dr.group("v")) if acc is not None and dr is not None else None
            unit = "%" if m.group("u") == "%" else "ratio"
            out.append(
                Result(
                    n, "acceptance_rate", m.group("v"), unit, m.start("v"), m.end("v"), counts, method="vLLM"
                )
            )
    return sorted(out, key=lambda r: r.start)


#: vLLM's older line ("Speculative metrics: Draft acceptance rate: 0.651, System efficiency: 0.421,
#: Number of speculative tokens: 5, Number of accepted tokens: 1234, Number of draft tokens: 1896,
#: Number of emitted tokens: 2000."; vllm/spec_decode/metrics.py)
_VLLM_SPEC_V0 = re.compile(r"\bSpeculative metrics:\s*", re.IGNORECASE)
_VLLM_V0_ITEM = re.compile(
    rf"(?P<k>Draft acceptance rate|System efficiency|Number of (?:speculative|accepted|draft|emitted) tokens)"
    rf":\s*(?P<v>{_NUM})",
    re.IGNORECASE,
)


def _vllm_spec_v0(n: int, text: str, start: int) -> list[Result]:
    """The results of vLLM's older ``Speculative metrics:`` line (``_VLLM_SPEC_V0``): the acceptance
    rate α with its counts (accepted of draft tokens), the system efficiency (emitted tokens over the
    most a step could emit: a ratio), the accepted, draft and emitted tokens; the speculative tokens a
    step (k) is the run's ``block_max``, a setting on each."""
    items = {m.group("k").lower(): m for m in _VLLM_V0_ITEM.finditer(text, start)}
    k = items.get("number of speculative tokens")
    cond = {"block_max": int(k.group("v"))} if k is not None and k.group("v").isdecimal() else {}
    acc, dr = items.get("number of accepted tokens"), items.get("number of draft tokens")
    out: list[Result] = []
    for key, m in items.items():
        v, at, end = m.group("v"), m.start("v"), m.end("v")
        if key == "draft acceptance rate":
            counts = _counts(acc.group("v"), dr.group("v")) if acc is not None and dr is not None else None
            out.append(Result(n, "acceptance_rate", v, "ratio", at, end, counts, dict(cond), "vLLM"))
        elif key == "system efficiency":
            out.append(Result(n, "system_efficiency", v, "ratio", at, end, None, dict(cond), "vLLM"))
        elif key != "number of speculative tokens":
            metric = {"accepted": "accepted_tokens", "draft": "draft_tokens", "emitted": "emitted_tokens"}[
                key.split()[2]
            ]
            out.append(Result(n, metric, v, "tokens", at, end, None, dict(cond), "vLLM"))
    return out


#: SGLang's scheduler log lines ("Decode batch. #running-req: 1, #token: 1234, token usage: 0.01, gen
#: throughput (token/s): 45.67, #queue-req: 0", "Prefill batch. #new-seq: 1, #new-token: 512, …"):
#: counts of the KV pool's state, and the decode's rate
_SGLANG_BATCH = re.compile(r"\b(?:Decode|Prefill) batch[.,]?\s.*#(?:running-req|new-seq)\s*:", re.IGNORECASE)
_SGLANG_GEN = re.compile(rf"\bgen throughput \(token/s\):\s*(?P<v>{_NUM})", re.IGNORECASE)
_SGLANG_ACCEPT = re.compile(rf"\baccept len:\s*(?P<v>{_NUM})", re.IGNORECASE)
_SGLANG_RUNNING = re.compile(r"#running-req:\s*(\d+)", re.IGNORECASE)
_SGLANG_COUNTS = (
    (re.compile(rf"#new-token:\s*(?P<v>{_NUM})"), "tokens", "tokens"),
    (re.compile(rf"#cached-token:\s*(?P<v>{_NUM})"), "tokens", "tokens"),
    (re.compile(rf"cache hit rate:\s*(?P<v>{_NUM})%"), "cache_hit_rate", "%"),
    (re.compile(rf"token usage:\s*(?P<v>{_NUM})(?![\d.%])"), "kv_cache_usage", "ratio"),
)


def _sglang_batch(n: int, text: str) -> list[Result]:
    """The results of an SGLang scheduler line (``_SGLANG_BATCH``): the decode batch's generation
    rate over its running requests (one request: its ``decode_tps``; several: their summed
    ``throughput``, ``concurrency`` the running requests) and, where it drafts, its "accept len"
    (the mean accepted length a verify step); a prefill batch's new and cached tokens, the prefix
    cache's hit rate (%) and the KV pool's token usage (a fraction of the pool), ``_SGLANG_COUNTS``."""
    out: list[Result] = []
    running = _SGLANG_RUNNING.search(text)
    streams = int(running.group(1)) if running else None
    cond = {"concurrency": streams} if streams else {}
    if m := _SGLANG_GEN.search(text):
        metric = "throughput" if streams and streams > 1 else "decode_tps"
        out.append(
            Result(n, metric, m.group("v"), "tok/s", m.start("v"), m.end("v"), None, dict(cond), "SGLang")
        )
    # a prefill batch's tokens: new and taken from the prefix cache, the cache's hit rate; the KV
    # pool's share in use ("token usage: 0.02"), at the running requests of the line
    for pat, metric, unit in _SGLANG_COUNTS:
        if (m := pat.search(text)) and float(m.group("v")) > 0:  # "#cached-token: 0": none, no result
            out.append(
                Result(n, metric, m.group("v"), unit, m.start("v"), m.end("v"), None, dict(cond), "SGLang")
            )
    if m := _SGLANG_ACCEPT.search(text):
        out.append(
            Result(
                n,
                "mean_accepted_length",
                m.group("v"),
                "tokens",
                m.start("v"),
                m.end("v"),
                None,
                dict(cond),
                "SGLang",
            )
        )
    return out


#: nvidia-smi's row naming a device above its figures ("|   0  NVIDIA GeForce RTX 4090   On  | …"): its
#: index and name
_NVSMI_NAME = re.compile(r"^\|\s*(?P<i>\d+)\s+(?P<name>.+?)\s+(?:On|Off)\s*\|")


def _nvsmi(n: int, m: re.Match, lines: list[tuple[int, str]]) -> list[Result]:
    """The figures of an nvidia-smi device row (``post.NVSMI_ROW``): its power draw (``power``, W), the
    memory used (``vram``, MiB) and its utilisation (``gpu_utilization``, %), each of the device the
    row above names (``hardware``; ``other.gpu``, its index, where the box lists several); the cap
    and total memory are the card's specifications, no results."""
    above = [t for k, t in lines if k < n]
    name = _NVSMI_NAME.match(above[-1].strip()) if above else None
    cond: dict = {}
    if name is not None:
        cond["hardware"] = name.group("name")
        if sum(1 for _, t in lines if NVSMI_ROW.search(t)) > 1:
            cond["other"] = {"gpu": int(name.group("i"))}
    out = []
    for group, metric, unit in (
        ("pw", "power", "W"),
        ("used", "vram", "MiB"),
        ("util", "gpu_utilization", "%"),
    ):
        if m.group(group) is not None:
            out.append(
                Result(
                    n,
                    metric,
                    m.group(group),
                    unit,
                    m.start(group),
                    m.end(group),
                    None,
                    dict(cond),
                    "nvidia-smi",
                )
            )
    return out


#: KoboldCpp's console line after a generation ("Process:1.91s (0.5ms/T = 2040.31T/s), Generate:6.85s
#: (22.8ms/T = 43.80T/s), Total:8.76s (34.25T/s)"; koboldcpp.py): the prompt's processing, the
#: generation and the whole request, each a time and a rate
_KOBOLD = re.compile(
    rf"\bProcess(?:ing)?:\s*(?P<pt>{_NUM})s\s*\((?:(?P<pms>{_NUM})ms/T\s*=\s*)?(?P<pr>{_NUM})T/s\),\s*"
    rf"Generat(?:e|ion):\s*(?P<gt>{_NUM})s\s*\((?:(?P<gms>{_NUM})ms/T\s*=\s*)?(?P<gr>{_NUM})T/s\)"
    rf"(?:,\s*Total:\s*(?P<tt>{_NUM})s\s*\((?P<tr>{_NUM})T/s\))?",
    re.IGNORECASE,
)
_KOBOLD_AMT = re.compile(r"\bAmt:\s*(\d+)(?:/\d+)?")
#: the line's "Init:0.07s" before its Process: the time the request took before processing its prompt
_KOBOLD_INIT = re.compile(rf"\bInit:\s*(?P<it>{_NUM})s\s*,\s*$")


def _kobold(n: int, text: str, m: re.Match) -> list[Result]:
    """The results of KoboldCpp's console line (``_KOBOLD``): the time before it ("Init:0.07s",
    ``_KOBOLD_INIT``: a ``duration``, ``other.phase`` init), the prompt processing's time (a
    ``duration``, ``other.phase`` prefill), its ms a token and its rate (``prefill_tps``); the
    generation's the same (``decode_tps``); the whole request's time and rate (``effective_tps``: the
    tokens generated over the whole time, the prompt's included); "Amt:N" the tokens generated."""
    amt = _KOBOLD_AMT.search(text)
    generated = {"tokens_generated": int(amt.group(1))} if amt else {}
    out: list[Result] = []
    init = _KOBOLD_INIT.search(text, max(0, m.start() - 40), m.start())
    if init is not None:  # "Init:0.07s, Process:…": the request's setup before the prompt (phase init)
        it = init.group("it")
        out.append(
            Result(
                n,
                "duration",
                it,
                "s",
                init.start("it"),
                init.end("it"),
                None,
                {"other": {"phase": "init"}},
                "KoboldCpp",
            )
        )
    for group, metric, unit, phase in (
        ("pt", "duration", "s", "prefill"),
        ("pms", "ms_per_token", "ms", "prefill"),
        ("pr", "prefill_tps", "t/s", None),
        ("gt", "duration", "s", "decode"),
        ("gms", "ms_per_token", "ms", "decode"),
        ("gr", "decode_tps", "t/s", None),
        ("tt", "duration", "s", "total"),
        ("tr", "effective_tps", "t/s", None),
    ):
        if m.group(group) is None:
            continue
        cond: dict = dict(generated) if metric in ("decode_tps", "effective_tps") or phase == "decode" else {}
        if phase is not None:
            cond["other"] = {"phase": phase}
        out.append(
            Result(n, metric, m.group(group), unit, m.start(group), m.end(group), None, cond, "KoboldCpp")
        )
    return out


def _server_draft(n: int, m: re.Match) -> list[Result]:
    """The results of llama-server's draft line (``ingest.serverlog.DRAFT_LINE``: "draft acceptance
    rate = 0.57143 (12 accepted / 21 generated)", ", mean acceptance length = 2.92, acceptance rate
    per position = (0.805, 0.632, 0.483)"): the acceptance rate α with its counts (accepted of the
    drafted tokens the server calls generated), the mean acceptance length τ in tokens (a verify
    step's tokens, its own counted: tools/server/server-context.cpp), and each position's rate
    (``other.draft_position`` from 0).  What drafted (a draft model, MTP heads) is the context's to
    say: the line prints the same for both."""
    counts = _counts(m.group(2), m.group(3))
    out = [
        Result(n, "acceptance_rate", m.group(1), "ratio", m.start(1), m.end(1), counts, method="llama-server")
    ]
    if m.group(4):
        out.append(
            Result(
                n, "mean_accepted_length", m.group(4), "tokens", m.start(4), m.end(4), method="llama-server"
            )
        )
    if m.group(5):
        out += _positions(n, m.group(5), m.start(5), "llama-server")
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
            unit = "µs" if p.group("u") == "us" else p.group("u")
            out.append(Result(n, metric, v, unit, p.start(), p.end(), None, dict(cond)))
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

"""Sentences -> claims: each number with a unit in prose, titles and headings (``draftprose.numbers``)
becomes a claim with the conditions its sentence names, or cites one already drafted.

* ``prose``: a paragraph's numbers -> claims (metric from the unit and the words near it, "about",
  ranges, ``±``, "N of M GiB", ``origin`` when the sentence names who published the number:
  ``origin_of``), then its relating phrases (``draftsides``), means and bounds;
* ``count_claim``: "N of M" counts; ``tokens_over_time``: "N tokens in T s";
* ``named_conditions`` (``draftcore``) and ``_in_clause``: the conditions a sentence names near a
  number; ``inline_commands``: a command line written in a sentence; ``label_spans``: the
  "block size 4" spans whose numbers are conditions, not claims;
* ``rate_lines``: lines of program output stating tokens, a time and a rate (``RATE_LINE``).

Where it sits: ``Sentences`` extends ``draftsides.Sides`` (a sentence's relating phrases are
statements); ``draft._Drafter`` calls ``prose`` for each paragraph, title and heading.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field, replace

from .draftcommand import command_lines, has_path
from .draftcontext import FLAGS_ONLY, named_once, names_drafting, parallel_count, quant_labels, run_label
from .draftcore import (
    AFTER_NUMBER,
    AND_SEP,
    LABELS,
    NAMED_CONDITION,
    Bounds,
    Entry,
    Num,
    in_own_aside,
    label_key,
    merged,
    number_fields,
    origin_at,
    origin_of,
    others_conditions,
    plain_value,
    sentence_at,
    sentence_bounds,
    set_path,
    source_fields,
    stateable,
)
from .draftnames import (
    CLAUSE_ONLY,
    CPU,
    DECODING_PHRASE,
    MEASURED_BANDWIDTH,
    Mention,
    clause_bounds,
    from_side,
    in_spans,
    machine_bandwidth,
    machine_size,
    mentions,
    supposed_spans,
)
from .draftprose import (
    ACCEPT_LENGTH_WORDS,
    CAPITALS_ONLY,
    LENGTH_PAIR,
    PER_TOKEN_UNIT,
    STAT_WORD,
    WHOLE_TIME_BEFORE,
    Number,
    baseline_label,
    bound_of,
    family,
    hypothetical,
    metric_of,
    number_text,
    numbers,
    threshold,
    unit_of,
    whole_time_after,
)
from .draftrelations import pair_units, relations, repetitions
from .draftsides import JOINED, Placed, Sides, rate_named
from .draftwords import REQUEST_RATE, accept_counts, layers_setting
from .toollines import stat_name
from .units import factor

#: words before a time naming a time of its own, whatever its section measures: a total, a run's
#: wall time, a load ("total 25783.48ms" under a TTFT heading)
_OWN_TIME = re.compile(r"(?i)\b(?:total|wall|elapsed|took|load(?:ing)?|startup|build)\b")
#: a label's colon or a phase's word between a list item's label and a rate: the rate's own
_OWN_PHASE = re.compile(
    r"[:：]|(?i:\b(?:prefill|prompt|pp|decod\w*|generat\w*|gen|tg|eval|output|input|read|write)\b)"
)
#: a list item's (or a paragraph's) opening label, up to its colon: "- Prompt processing (prefill
#: phase): …" (no number in it: "PP 512: 1021 t/s" is a result's own label)
_ITEM_LABEL = re.compile(r"\s*(?:[-*+•]\s+|\d+[.)]\s+)?[*_]*(?P<l>[^:：\n\d]{3,60}?)[*_]*\s*[:：]\s")
#: a noun after a number that makes it a limit set for the runs, no result ("exceed the 10% gate",
#: "a 5% threshold", "the 200 ms SLO", "a 2 s budget")
_LIMIT_NOUN = r"(?:gate|threshold|cut-?off|budget|SLOs?|SLAs?)"
_LIMIT_AFTER = re.compile(
    # (not a result measured against one: "92% SLO attainment", "200 ms SLO-compliant")
    rf"\s*{_LIMIT_NOUN}\b(?![\s-]*(?:attain|complian|violat|goodput|met\b))",
    re.IGNORECASE,
)
#: a limit's noun right before its number ("Our TTFT SLO of 200 ms was met", "the latency budget is
#: 50 ms", "SLA: p99 < 200 ms"): a limit set for the runs, no result
_LIMIT_BEFORE = re.compile(rf"(?i)\b{_LIMIT_NOUN}\s*(?:of|is|was|=|:)?\s*(?:p\d{{2,3}}\s*)?(?:[<≤]=?\s*)?$")
#: a guide's reading of a figure, after it ("Running at 2–5 t/s usually means VRAM overflow"): what
#: such a figure tells, no run's result (a hedge before the verb: "which means" follows results)
_DIAGNOSIS_AFTER = re.compile(
    r"\s+(?:usually|typically|often|generally|normally)\s+"
    r"(?:means|indicates|suggests|signals|points\s+to)\b",
    re.IGNORECASE,
)

#: a line of program output stating tokens, a time and a rate ("decoded 202 tokens in 2.533 seconds,
#: speed: 79.745 t/s")
RATE_LINE = re.compile(
    r"\d+\s+tokens\s+in\s+[\d.]+\s*(?:s|sec|seconds)\b.{0,40}?[\d.]+\s*(?:t/s|tok/s|tokens/s)|"
    # a generator's summary line: exllamav2's "Response generated in 8.56 seconds, 1024 tokens,
    # 119.64 tokens/second", text-generation-webui's "Output generated in 8.11 seconds (24.65
    # tokens/s, 200 tokens, context 15, seed 1964973376)"
    r"\bgenerated\s+in\s+[\d.]+\s*(?:s|sec|secs|seconds)\b.{0,60}?[\d.]+\s*"
    r"(?:t/s|tok/s|tokens/s(?:ec(?:ond)?)?|tokens per second)|"
    # a script's own timing line: "Generation time: 19.69s for 1128 tokens, speed: 57.29 tokens/s"
    r"[\d.]+\s*(?:s|sec|secs|seconds)\s+for\s+\d+\s+tokens\b.{0,40}?[\d.]+\s*(?:t/s|tok/s|tokens/s)",
    re.I,
)
#: a command line written in a sentence, not in backticks ("with llama-server -m x.gguf -ngl 99 -fa
#: on, generation ran at ..."; quoted ".\\llama-cli -m ... -cnv"): the tool and its flags, each with
#: at most one value, up to the first word that is neither
_PROSE_COMMAND = re.compile(
    r"(?<![\w.-])(?:[\w.~:-]*[/\\])?(?:llama-(?:server|bench|cli|sweep-bench|batched-bench|"
    r"speculative-simple|speculative)|vllm\s+serve(?:\s+[\w./:-]+)?)(?:\.exe)?"
    r"(?:\s+-{1,2}[A-Za-z][\w-]*(?:=[^\s,;()\"'`]+)?(?:\s+(?!-[A-Za-z])[^\s,;()\"'`]+)?)+"
)
#: a command-line flag in a sentence ("-ngld 99", "--ctx-size")
_FLAG_WORD = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
#: characters before a number whose words label it (``Sentences.prose``)
_LABEL_WINDOW = 256


#: words right after a percentage that name the ceiling it is a share of: "(<9% max theoretical)",
#: "(>60% of peak)", "80% of the theoretical bandwidth"
_CEILING_AFTER = re.compile(
    r"\s*(?:of\s+)?(?:the\s+)?(?:max(?:imum)?|peak|theoretical|roofline|ceiling|spec(?:ified)?)\b", re.I
)
#: words naming a ceiling on a claim (its label or conditions): "theoretical", "peak", "max"
_CEILING_WORDS = re.compile(r"\b(?:theoretical|theory|peak|max(?:imum)?|roofline|ceiling)\b", re.I)


def _sentence(text: str, start: int, bounds: list[int] | None = None) -> str:
    """The sentence of ``text`` around offset ``start`` (``sentence_at``)."""
    return sentence_at(text, start, bounds)[1]


def _from_to_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with the unit of "from A unit" given to a "to B" that states none ("from 38 t/s
    (without draft) to 33.93 (with draft)"): the second number of a change is in the first's unit
    (within 120 characters, no sentence end between); a range too ("from about 11 tok/s to 19-21
    effective", h241)."""
    out = list(found)
    for i, n in enumerate(out):
        if n.unit is not None or n.of is not None:
            continue
        if not re.search(r"(?:^|\W)(?:to|→|->)\s*$", text[max(0, n.start - 6) : n.start]):
            continue
        for m in reversed(out[max(0, i - 3) : i]):
            if (
                m.unit is not None
                and n.start - m.end <= 120
                and re.search(r"(?:^|\W)from\s*$", text[max(0, m.start - 8) : m.start])
                and not re.search(r"[.!?](?:\s|$)", text[m.end : n.start])
            ):
                out[i] = replace(n, unit=m.unit, end=n.end)
                break
    return out


#: what joins the numbers of a list that states its unit once: "83.6 / 65.4 / 76.9", "31.9 → 52.8",
#: a compared pair "61 vs 27 tok/s" ("vs", "vs.", "versus": the two sides of one comparison, one unit)
_LIST_SEP = re.compile(r"\s*(?:/|→|->|\bvs\.?|\bversus\b)\s*", re.IGNORECASE)
#: what may stand between a unitless list and the number whose unit it takes: no digit, no sentence end
_LIST_GAP = re.compile(r",\s*(?:[^\W\d]+\s+){0,3}")


def _shared_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with a unit given once for several numbers given to each: a list joined by " / " or
    "→" whose last number states the unit ("wall/decode: 101.39 / 102.33 tok/s", "31.9 → 52.8
    tok/s", "23,185 / 22,878 MiB"), or a list of two or more unitless numbers followed by a comma and
    at most three words, then a number with a unit ("40.9 / 41.1 / 40.8, overall median 41.0
    tok/s"), or, the other way round, a number with a unit, a comma and at most three words, then
    such a list ending its clause ("~50 tok/s, README says 83 / 87").  Counts ("438/438"), ranges
    and numbers glued to names are not lists, nor are a serving benchmark's lengths ("ISL/OSL =
    512/128": ``draftprose.LENGTH_PAIR``)."""
    out = list(found)
    lengths = [(m.start(1), m.end()) for m in LENGTH_PAIR.finditer(text)]
    i = 0
    while i < len(out):
        if any(a <= out[i].start < b for a, b in lengths):
            i += 1
            continue
        j = i
        while (
            j + 1 < len(out)
            and out[j].unit is None
            and out[j].of is None
            and out[j].range is None
            and out[j + 1].of is None
            and out[j + 1].range is None
            and _LIST_SEP.fullmatch(text[out[j].end : out[j + 1].start])
        ):
            j += 1
        if j == i:
            i += 1
            continue
        unit = out[j].unit
        if unit is None and j + 1 < len(out) and out[j + 1].unit is not None and out[j + 1].of is None:
            gap = text[out[j].end : out[j + 1].start]
            if _LIST_GAP.fullmatch(gap) and len(gap) <= 30:
                unit = out[j + 1].unit
        if unit is None and i > 0 and out[i - 1].unit is not None and out[i - 1].range is None:
            # the same the other way round: "~50 tok/s, README says 83 / 87" (the list ends its
            # clause: "2 / 4 GPUs" is a count of something else)
            gap = text[out[i - 1].end : out[i].start]
            rest = text[out[j].end : out[j].end + 2]
            if _LIST_GAP.fullmatch(gap) and len(gap) <= 30 and re.match(r"\s*(?:[.,;:)!?]|$)", rest):
                unit = out[i - 1].unit
        # a series of three or more percentages written once ("수락률 97/95/91%": one per draft
        # position) is each in %; two ("50/50%", a split) and multiples keep theirs
        series = unit == "%" and j - i >= 2 and all(0 <= float(out[k].text) <= 100 for k in range(i, j + 1))
        if unit is not None and (unit not in ("%", "x") or series):
            for k in range(i, j + 1):
                if out[k].unit is None:
                    out[k] = replace(out[k], unit=unit)
        i = j + 1
    return out


#: what stands between two labelled numbers of one list: a comma, then the next one's label of one
#: or two words, a colon or not ("9.66 tok/s, f16 15.15", "22.1 tok/s, Min: 16.19, Max: 28.09")
#: The label is a statistic's word, a number format or quantisation ("Min:", "p99", "f16", "q4_0",
#: "Q8_0"), or any short word before a colon but a product's or a program's, whose number is its
#: version ("Ubuntu 24.04", "CUDA: 12.8", "driver 590.26"); another quantity's key ("AL=6.42",
#: "accept 0.7") is none.
_LABELLED_NEXT = re.compile(
    r",\s*(?:and\s+)?(?:"
    r"(?i:min|max|mean|avg|average|median|p\d{2}|std|best|worst)\s*:?\s*"
    r"|(?i:f16|f32|bf16|fp16|fp8|fp4|nvfp4|mxfp4|int4|int8|[iq]?q\d(?:_[0-9a-z]+)*)\s*:?\s*"
    r"|(?!(?i:acc|al\b|τ|tau\b|cuda|rocm|ubuntu|macos|windows|linux|debian|fedora|python|driver|version|"
    r"torch|pytorch|vllm|sglang|llama\.cpp|build|kernel|ios|android|v\d))[^\s,;:()=]{1,20}:\s*"
    r")"
)


def _listed_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with the unit of a rate or time given to the labelled numbers listed after
    it in its sentence, each after a comma and its own label, written with decimals and no unit
    ("q4_0 9.66 tok/s, f16 15.15", "Mean: 22.1 tok/s, Min: 16.19, Max: 28.09"): one list, one unit.
    Whole numbers ("tok/s, n_ctx 131072") count something else and keep none."""
    out = list(found)
    for k in range(1, len(out)):
        prev, n = out[k - 1], out[k]
        if n.unit is not None or n.of is not None or prev.unit is None or prev.of is not None:
            continue
        if family(prev.unit) not in ("rate", "time") or "." not in n.text:
            continue
        if not _LABELLED_NEXT.fullmatch(text[prev.end : n.start]):
            continue
        if prev.range is not None and n.range is None:
            continue
        out[k] = replace(n, unit=prev.unit, unit_written=prev.unit_written)
    return out


#: a rate's unit written alone as the name of what is measured ("общий TPS вырос с 84.21 до 609.52",
#: "peak tok/s: 455 vs 246"): no number right before it
_BARE_RATE = re.compile(
    # (a CJK word may touch it: "平均TPS 83")
    r"(?<![A-Za-z0-9_/])(?:TPS|tok/s|t/s|it/s|tokens?/s(?:ec(?:ond)?)?|tokens? per second|токенов/с|ток/с)"
    r"(?![\w/])",
    re.IGNORECASE,
)
#: what joins the two numbers of a compared pair: "455 vs 246", "455 versus 246", "455 против 246"
_VS = re.compile(r"\s*(?:vs\.?|versus|против|对比|対)\s*", re.IGNORECASE)


#: between a rate's "on NAME" and the next number of a parallel pair: "… on vLLM & around 10 for SGLang"
_PAIR_NEXT = re.compile(
    r"\s+(?:on|for|with|in|using)\s+(?P<a>[^\s,&;]+(?:\s[^\s,&;]+)?)\s*(?:,\s*)?(?:&|and|vs\.?|versus)\s+"
    r"(?:about|around|roughly|approx\.?|~|≈)?\s*$",
    re.IGNORECASE,
)
_PAIR_AFTER = re.compile(r"\s+(?:on|for|with|in|using)\s+(?P<b>\S+)", re.IGNORECASE)


def _pairs(text: str, found: list[Number]) -> list[tuple[int, int, Mention, Mention]]:
    """The parallel pairs of ``found``: ``(k - 1, k, name of the first, name of the second)`` where
    "NUMBER unit on/for/with NAME" is followed by "& / and [about] NUMBER [unit] on/for/with NAME2",
    the second's unit one of the first's family or (after a rate) not written, both names of one
    kind (``mentions``: engines, machines, models, quants): "~5 output tokens/s on vLLM & around 10
    for SGLang", "peaked at 5.1 GB for Q4_K_M and 8.4 GB for Q8_0"."""
    out = []
    for k in range(1, len(found)):
        prev, n = found[k - 1], found[k]
        if n.of is not None or family(prev.unit) is None:
            continue
        if n.unit is None and family(prev.unit) != "rate":
            continue  # a unit is carried to a bare second number only from a rate
        if n.unit is not None and family(n.unit) != family(prev.unit):
            continue  # both written: one family ("5.1 GB for Q4_K_M and 8.4 GB for Q8_0")
        between = _PAIR_NEXT.fullmatch(text, prev.end, n.start)
        after = _PAIR_AFTER.match(text, n.end)
        if between is None or after is None:
            continue
        a, b = mentions(between.group("a")), mentions(after.group("b").strip(".,;:!?"))
        if a and b and a[0].path == b[0].path:
            out.append((k - 1, k, a[0], b[0]))
    return out


#: the statistics a rate's parentheses may state of it: "97.57 t/s (peak 108)", "41 tok/s (max: 44)"
_STAT_WORDS = r"peak|max(?:imum)?|min(?:imum)?|median|best|worst"
#: the opening of such parentheses, up to the statistic's number (its word: group 1)
_STAT_PAREN = re.compile(rf"\s*[(（]\s*({_STAT_WORDS})\s*[:=]?\s*$", re.I)
#: a statistic's word right before its number, in a list of them ("avg 1611.47ms, std 143.69ms,
#: p95 1795.47ms", "p99=2.1s"): which statistic of the runs the number is (group 1); not "max"/"min"
#: alone, which bound a value as often ("max 40 tok/s")
_STAT_BEFORE = re.compile(
    rf"(?:^|[\s,;(|])({STAT_WORD})"
    r"(?:\s+(?:TTFT|TPOT|ITL|E2EL|latency))?\s*[:=]?\s*$",  # "mean TTFT 1611 ms, P99 TTFT 2000 ms"
    re.I,
)


_EXTREME_BEFORE = re.compile(r"(?:^|[\s,;(|])(max|min)\s*[:=]?\s*$", re.I)


def stat_list(text: str, found: list[Number]) -> bool:
    """Whether a line states two or more times or rates each after a statistic's word
    (``_STAT_BEFORE``: "Batch 64: 16 batches, total 25783.48ms, avg 1611.47ms, std 143.69ms, p95
    1795.47ms", a script's summary of its runs); ``found``: its numbers (``numbers``)."""
    return (
        sum(
            1
            for n in found
            if family(n.unit) in ("time", "rate") and _STAT_BEFORE.search(text, max(0, n.start - 24), n.start)
        )
        >= 2
    )


def _stat_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with a rate's unit given to the statistic in parentheses right after it ("Baseline:
    97.57 t/s (peak 108)": the peak in t/s); its word is the statistic's, not the rate's."""
    out = list(found)
    for k in range(1, len(out)):
        prev, n = out[k - 1], out[k]
        if n.unit is None and family(prev.unit) == "rate" and _STAT_PAREN.fullmatch(text, prev.end, n.start):
            if re.match(r"\s*[)）]", text[n.end :]):
                out[k] = replace(n, unit=prev.unit, unit_written=prev.unit_written)
    return out


def _paired_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with a rate's unit given to the second number of each parallel pair (``_pairs``):
    "~5 output tokens/s on vLLM & around 10 for SGLang", "40 t/s with llama.cpp and 55 with MLX"."""
    out = list(found)
    for i, k, _, _ in _pairs(text, found):
        if out[k].unit is None:
            out[k] = replace(out[k], unit=out[i].unit, unit_written=out[i].unit_written)
    return out


def paired_names(text: str, found: list[Number]) -> dict[int, tuple[str, object]]:
    """A parallel pair's numbers (``_pairs``, by their offsets) -> the name each is stated with
    (its engine, machine or model): the second side's name is after its number, never the
    first's."""
    out: dict[int, tuple[str, object]] = {}
    for i, k, a, b in _pairs(text, found):
        out[found[i].start] = (a.path, a.value)
        out[found[k].start] = (b.path, b.value)
    return out


def _headed_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with the unit of a rate named once before its numbers given to them: after a rate's
    unit written alone (``_BARE_RATE``: "TPS", "tok/s" with no number right before it), in the
    same sentence, each number with no unit that is written with decimals ("вырос с 84.21 … до
    609.52"), is one of a compared pair ("455 vs 246", ``_VS``) or stands right after the unit
    ("平均TPS 83") is in that unit.  Whole numbers alone ("при 1 запросе", "64 requests") count
    something else and keep none; numbers glued to names (3B) are none of these."""
    heads = [
        m
        for m in _BARE_RATE.finditer(text)
        if not re.search(r"\d\s*$", text[max(0, m.start() - 3) : m.start()])
    ]
    if not heads:
        return found
    ends = [b for b in sentence_bounds(text)]
    out = list(found)
    for i, n in enumerate(out):
        if n.unit is not None or n.of is not None or n.range is not None or not n.text[:1].isdigit():
            continue
        head = next((m for m in reversed(heads) if m.end() <= n.start), None)
        if head is None or any(head.end() < b <= n.start for b in ends):
            continue  # no rate named before it in its sentence
        paired = (i + 1 < len(out) and _VS.fullmatch(text[n.end : out[i + 1].start])) or (
            i > 0 and _VS.fullmatch(text[out[i - 1].end : n.start])
        )
        # (or right after the unit as its label: "平均TPS 83", "TPS 83 at 50 concurrency", h327)
        labelled = re.fullmatch(r"[^\S\n]*[:=：]?[^\S\n]*[~≈约]?[^\S\n]*", text[head.end() : n.start]) and (
            # (its clause ends there or goes on with a preposition: "TPS 83 at 50 concurrency"; not a
            # count of something named after it, "TPS 8 GPUs", "TPS 2024 report", "TPS 1 request")
            re.match(r"\s*(?:$|[,.;:)）|，。；]|(?:at|with|on|for|in|from|to|vs|under)\b|@)", text[n.end :])
            is not None
        )
        if "." in n.text or paired or labelled:
            out[i] = replace(n, unit=unit_of(head.group(0)), unit_written=head.group(0))
    return out


#: an acceptance word right before a fraction: "acceptance 0.73", "Acceptance aggregate 0.69",
#: "accept rate: 0.64"
_ACCEPT_BEFORE = re.compile(
    r"accept\w*(?:[\s:=\"]+(?:rate|ratio|aggregate|avg|average|mean|median|overall|was|is|of|at|around|about"
    # a verb of its change before it, past or present ("acceptance dropped to ~0.45", "rose to 0.8",
    # "the acceptance drops to 0.69 avg")
    r"|(?:drop(?:ped|s)|f(?:ell|alls)|r(?:ose|ises)|climb(?:ed|s)|improv(?:ed|es)|(?:in|de)creas(?:ed|es)"
    r"|(?:went|goes)(?:\s+(?:up|down))?)\s+to|reach(?:ed|es)|hits?))*[\s:=\"~≈]*$",
    re.IGNORECASE,
)
#: ... or right after it, or after a list of labelled fractions: "0.79 aggregate acceptance",
#: "(code 0.87, bash 0.74, prose 0.40 acceptance)"
_ACCEPT_AFTER = re.compile(
    r"(?:,\s*[^\W\d]+\s+\d?\.\d+)*\s+(?:(?:aggregate|average|mean|overall|draft)\s+)?accept", re.IGNORECASE
)


#: a label naming the mean tokens accepted per verify step, right before a number with no unit:
#: "accept length ~2.5", "Accpt Len: 1.89", "acceptance length of 3.1", "mean accepted tokens 2.4",
#: "avg. acc. len = 2.2", "τ = 3.05"
_ACCEPT_LENGTH_BEFORE = re.compile(
    # the papers' abbreviations in capitals: "AL=6.42", "MAL 3.1", "AAL: 2.9" (mean accepted length)
    rf"(?:{ACCEPT_LENGTH_WORDS}|\baccepted\s+(?:tokens|length)\b|"
    r"(?-i:\b[MA]?AL\b))"
    r"[\s:：=\"*]*(?:(?:is|was|of|at|about|around)\s+)*$",
    re.IGNORECASE,
)


def _accept_length(text: str, n: Number) -> bool:
    """Whether ``n``, a number written with no unit, is a mean acceptance length (tokens accepted
    per verify step): right after a label naming one (``_ACCEPT_LENGTH_BEFORE``), from 1 up (a
    step yields its own token at least), no "N of M"; or a decimal above 1 (to 16) after a word of
    acceptance alone (``_ACCEPT_BEFORE``: "accept 2.49")."""
    try:
        lows = [float(number_text(x)) for x in (n.range or (n.text,))]
    except ValueError:
        return False
    if not all(1 <= v <= 64 for v in lows) or n.spread is not None:
        return False
    before = text[max(0, n.start - 40) : n.start]
    if _ACCEPT_LENGTH_BEFORE.search(before):
        return True
    # "accept 2.49", "mean acceptance 5.1" (a tool's column, a sentence): a decimal above one after
    # an acceptance word is no share of the drafts (a fraction is at most 1), so the tokens a step
    # accepts; up to 16, not a percentage written without its sign ("acceptance 87.5")
    return "." in n.text and all(1 < v <= 16 for v in lows) and _ACCEPT_BEFORE.search(before) is not None


#: how far (characters) after a list item's label a number may stand for the label to name it
_ITEM_REACH = 600


def _acceptance_fraction(text: str, n: Number) -> bool:
    """Whether ``n``, a number written with no unit, is an acceptance rate as a fraction: a decimal
    in [0, 1] (``0.73``, not ``1``) beside an acceptance word (``_ACCEPT_BEFORE``, ``_ACCEPT_AFTER``)
    or before the counts it is the quotient of (``_COUNTS_AFTER_FRACTION``: "0.81 (1834 accepted /
    2264 drafted)", 1834 / 2264 = 0.8101)."""
    if "." not in n.text or n.spread is not None:
        return False
    try:
        lows = [float(x) for x in (n.range or (n.text,))]
    except ValueError:
        return False
    if not all(0 <= v <= 1 for v in lows):
        return False
    counted = _COUNTS_AFTER_FRACTION.match(text, n.end)
    if counted is not None and n.range is None:
        # "0.66961 (5,089 accepted / 7,600 generated)": the counts it is the quotient of, to its digits
        k, m = (int(counted.group(g).replace(",", "")) for g in ("k", "n"))
        if 0 < m and abs(k / m - lows[0]) <= 0.5 * 10 ** -(len(n.text.split(".")[1])) + 1e-9:
            return True
    before = _ACCEPT_BEFORE.search(text[max(0, n.start - 40) : n.start])
    if before is not None and _SPEEDUP_WITH.search(
        text, max(0, n.start - 80), max(0, n.start - 40) + before.start()
    ):
        # "The speedup with high acceptance falls to 0.9": the speedup's, acceptance its condition
        return False
    return before is not None or bool(_ACCEPT_AFTER.match(text, n.end))


#: a speedup whose condition is the acceptance named after it ("the speedup with high acceptance")
_SPEEDUP_WITH = re.compile(
    r"(?i)\bspeed[- ]?ups?\s+(?:with|at|under|given|for)\s+(?:(?:a|the|high|low|\w+er)\s+)*$"
)


#: the counts in parentheses after a fraction: accepted of drafted ("(1834 accepted / 2264 drafted)",
#: "(5,089 accepted / 7,600 generated)")
_COUNTS_AFTER_FRACTION = re.compile(
    r"\s*\(\s*(?P<k>\d[\d,]*)\s+accepted\s*/\s*(?P<n>\d[\d,]*)(?:\s+(?:generated|drafted|proposed|draft\s+tokens))?\s*\)",
    re.IGNORECASE,
)


#: a line that starts with its own label ("Speculative decoding model: 133.2 s")
_LABEL_LINE = re.compile(
    # (or a name and a spaced dash: "Llama.cpp - ngl-17, …" under "koboldcpp - ngl - 17, …")
    r"[^:.!?]{1,40}:\s|\[[^\]\n]{1,30}\]|\w[\w.+/]*(?:\s[\w.+/]+){0,3}\s[-–—]\s"
)


#: words saying a number is of another run than the one just shown ("on the other box", "another
#: machine", "a second GPU", "a different server")
_ANOTHER_RUN = re.compile(
    r"(?i)\b(?:other|another|second|different)\s+(?:box|machine|card|gpu|server|system|rig|pc|computer|node|"
    r"setup|host|laptop|desktop)\b"
)
#: a name the clause contrasts its number with, not the number's own ("unlike Ollama", "不同于 vLLM")
_UNLIKE_BEFORE = re.compile(r"(?i)(?:\bunlike|不同于)\s*(?:the\s+)?$")
#: the same written after the name, in Japanese ("ollama で推論した場合と異なり", "vLLM と違って")
_UNLIKE_AFTER = re.compile(
    r"[^\s、。,.]{1,20}(?:\s?[^\s、。,.]{1,20}){0,3}?\s?(?:とは?異なり|とは?違って|とは違い)"
)


#: a list's lead-in naming the decode phase ("Per-test decode speed:"): ``prose``
_DECODE_LEAD = re.compile(r"(?i)decod|generat|\btg\b")
_COMMA = re.compile(r",\s")
#: a number right after a name ("AR 58.25", "baseline: 41"): the name labels it
_NUMBER_NEXT = re.compile(r"\s*[:=]?\s*~?\d")


#: how far from a number, in characters, ``_in_clause`` reads its clause's names
_CLAUSE_REACH = 1500


@functools.lru_cache(maxsize=4096)
def _labels_number(text: str, start: int) -> int | None:
    """Where the number starts that the plain decoding's phrase at ``text[start]`` labels, right
    after it ("AR 58.25", "baseline: 41"), or None; once per phrase (``_in_clause`` asks it for every number
    of the clause: matching each time made a long line of them quadratic)."""
    phrase = DECODING_PHRASE.match(text, start)
    if phrase is None or not phrase.group("plain"):
        return None  # ("DFlash 218 tok/s, AL 7.1": a drafting method's name is the clause's run's)
    label = _NUMBER_NEXT.match(text, phrase.end())
    return label.end() - 1 if label is not None else None


def labels_number_clear() -> None:
    """Forget ``_labels_number``'s answers (``draft_text`` after each post: the cache is keyed by the
    post's paragraphs, and no later post asks of them)."""
    _labels_number.cache_clear()


def _in_clause(
    named: list[Mention],
    clauses: list[int],
    at: int,
    text: str,
    labelled: tuple[int, ...] = (),
    items: tuple[int, ...] = (),
) -> dict:
    """The conditions named in the clause around offset ``at`` (``draftnames.clause_bounds``): of
    several for one condition, the nearest (before it on a tie).  ``labelled``: where the text's
    lines that start with a label start; a name after such a line start is that line's
    ("Baseline (non-speculative): 215.8 s" over "Speculative decoding model: 133.2 s", "TG: 40 t/s"
    over "[Q8_0]").  ``items``:
    where the text's lines that open a new item start (a capital or a list mark, ``_ITEM_START``); a
    name after the number past one is the next line's ("On Intel CPU, 8 tokens/s" over "On Apple M1
    …, 20 tokens/s"; a sentence wrapped onto a line in lower case goes on)."""
    k = bisect.bisect_right(clauses, at) - 1
    lo, hi = clauses[max(k, 0)], clauses[min(k + 1, len(clauses) - 1)]
    # (within reach of the number: a clause of a thousand unpunctuated lines, each naming its own
    # drafting, made every number weigh every name, quadratic in the clause's length)
    lo, hi = max(lo, at - _CLAUSE_REACH), min(hi, at + _CLAUSE_REACH)
    best: dict[str, tuple[tuple[bool, int], object]] = {}
    nxt = bisect.bisect_right(items, at)
    item_end = items[nxt] if nxt < len(items) else 1 << 60
    # the first "and" or comma after the number, found once (a search per name of a long paragraph
    # with none was quadratic)
    sep = AND_SEP.search(text, at)
    for m in named:
        if not lo <= m.start < hi:
            continue  # outside the clause: no name of it
        if m.start > at and sep is not None and sep.end() <= m.start:
            continue  # named after the number past "and": the next number's ("2.4 t/s and Qwen3 6.1 t/s")
        if m.start >= item_end:
            continue
        if m.path == "decoding" and (target := _labels_number(text, m.start)) is not None and target != at:
            # "218.23 tok/s (AR 58.25, 3.75x, AL 7.12)": the label of the number right after it,
            # neither the one before nor those after
            continue
        if m.start > at and any(at < x <= m.start for x in labelled):
            # past the start of a line opening with a label: that line's ("TG: 40 t/s" over "[Q8_0]")
            continue
        if (
            m.start < at
            and AFTER_NUMBER.search(text, max(0, m.start - 24), m.start)
            and (after := AND_SEP.search(text, m.start, at)) is not None
            # ("and" next, no number of the name's own between: "SGLang 0.4.3 (it/s): [69.22, …")
            and not re.search(r"(?<![\w.-])\d", text[m.start : after.start()])
        ):
            # right after the number before, then "and" or a comma: that number's label ("71.9 tok/s
            # baseline and 170.3 tok/s at n-max 7")
            continue
        if m.start > at and in_own_aside(text, at, m.start):
            continue  # "3.9x (llama.cpp only manages 1.2x)": the aside's number's name, not this one's
        if _UNLIKE_BEFORE.search(text, max(0, m.start - 20), m.start) or _UNLIKE_AFTER.match(text, m.start):
            continue  # "ollama で推論した場合と異なり … 9.41 tps", "unlike Ollama, …": the other setup's
        # one named before the number past a comma is the previous number's where one is named
        # after it with none between ("15.10 tok/sec without draft, 11.01 tok/sec with draft")
        apart = m.start < at and _COMMA.search(text, m.start, at) is not None
        d = (apart, abs(at - m.start) + (m.start > at))
        if m.path not in best or d < best[m.path][0]:
            best[m.path] = (d, m.value)
    out: dict = {}
    for path, (_, value) in best.items():
        set_path(out, path, value)
    return out


#: what follows a size that is a machine's memory, not a measurement: its kind ("64GB DDR5", "32 GB
#: LPDDR5X", "24GB GDDR6X", "80GB HBM3"; unified memory in the languages posts use: "64GB 统一内存",
#: "ユニファイドメモリ", "통합 메모리", not its use: "统一内存占用")
_MEMORY_KIND = re.compile(
    r"\s*(?:of\s+)?(?:LP|G)?DDR\d|\s*(?:of\s+)?HBM\d?e?\b|\s*unified\b(?!\s+memory\s+(?:usage|use|used))"
    r"|\s*(?:的\s*)?(?:统一内存|統一記憶體|ユニファイドメモリ|통합\s*메모리)(?!\s*(?:占用|使用|用量|使用量|사용))"
    # a machine's configuration of memory ("24GBメモリ構成", "16GB配置", "32GB 内存配置")
    r"|\s*(?:メモリ|内存|記憶體)?\s*(?:構成|配置)(?!\s*(?:占用|使用))",
    re.IGNORECASE,
)
#: a machine's RAM written in a list of its parts ("RTX 5080 16GB, Ryzen 9 9950X, 128GB RAM", "Ryzen
#: 5700X3D, 64 ГБ RAM"): the size right before "RAM" (no "of": "6 GB of system RAM" is what a run used)
_RAM_AFTER = re.compile(r"\s*(?:RAM|ОЗУ)\b(?!\s*(?:usage|use|used|peak))", re.IGNORECASE)
#: words of a clause saying a size was used or needed, not owned ("used 12 GB RAM", "peak", "needs")
_USED_WORDS = re.compile(
    r"\b(?:us(?:e|ed|es|ing)|took|takes|consum\w*|need\w*|requir\w*|peak\w*|alloc\w*|in\s+use)\b|占用|使用",
    re.I,
)
_CLAUSE_END = re.compile(r"[.;!?。](?:\s|$)")
#: words after a power saying it is the card's setting, not its measured draw ("450 W power limit",
#: "250W cap", "300 W TDP", "PL")
_POWER_SETTING = re.compile(r"(?i)\s*(?:power\s+)?(?:limit\w*|cap\w*|tdp|pl)\b")
#: a machine's part owning a size: "each GPU has 32GB", "the card comes with 24 GB", "a box with 128GB"
_HAS_BEFORE = re.compile(
    r"(?i)\b(?:gpus?|cards?|devices?|each|boards?|machines?|systems?|box|nodes?)\s+"
    r"(?:has|have|with|comes\s+with|ships\s+with|sports|packs)\s+(?:only\s+)?$"
)
#: a size of each of several devices: "2x 3090 (24GB each)", "32 GB per card"
_EACH_AFTER = re.compile(r"(?i)\s*(?:of\s+(?:VRAM|memory)\s+)?(?:each|per\s+(?:card|gpu|device))\b")
#: words before a bound saying it bounds what one setup adds or saves over another ("the draft costs
#: under 1 GB of VRAM", "adds less than 5 ms", "an overhead of at most 2%", "saves over 3 GB")
_COST_BEFORE = re.compile(
    r"\b(?:costs?|adds?|added|extra|overhead|saves?|saved|savings?|increases?|difference|penalty)\b[^.;]*$",
    re.I,
)
#: a spec list's RAM line: "RAM: 64GB DDR5-6000", "- RAM: 247 GiB;" (the label alone before the size)
_RAM_LABEL = re.compile(r"(?:^|[\n;]|[-*•]\s)\s*(?:system\s+|host\s+)?(?:RAM|ОЗУ)\s*[:：]\s*$", re.IGNORECASE)
#: what follows a size in a title or heading that makes it the machine's ("16GB VRAM")
_MEMORY_WORD = re.compile(r"\s*(?:of\s+)?(?:VRAM|RAM|memory|unified)\b", re.IGNORECASE)


def _spec_size(
    text: str, end: int, heading: bool, start: int = 0, named: list[Mention] | None = None
) -> bool:
    """Whether the size ending at ``text[end]`` (starting at ``start``) is a hardware spec (SOURCES.md:
    specs are the ``systems``, not claims): followed by a memory kind (``_MEMORY_KIND``: "64GB DDR5",
    "16 GB unified"; "32GB of RAM" may be a measured size: "used 32GB of RAM"), or, in a title or
    heading, by a memory word ("16GB VRAM"); a spec list's "RAM: 64 GB" (``_RAM_LABEL``); "128GB RAM"
    in a clause naming the machine's other parts (``named``: a hardware mention; a CPU by its model,
    ``draftnames.CPU``: "ThinkPad T480 (i5-8350U, 4 cores, 16 GB RAM)") and no use of it
    (``_USED_WORDS``); a size a part owns ("each GPU has 32GB", ``_HAS_BEFORE``) or each device's
    ("24 GB each", ``_EACH_AFTER``), in a clause naming no use of it."""
    if _MEMORY_KIND.match(text, end) or heading and _MEMORY_WORD.match(text, end):
        return True
    if _HAS_BEFORE.search(text, max(0, start - 40), start) or _EACH_AFTER.match(text, end):
        # "each GPU has 32GB", "two cards with 24 GB each": what the machine has, not what a run took
        lo = max([0, *(m.end() for m in _CLAUSE_END.finditer(text, 0, start))])
        return not _USED_WORDS.search(text, lo, start)
    if _RAM_LABEL.search(text, max(0, start - 40), start) and not _USED_WORDS.match(text, end):
        return True
    if not _RAM_AFTER.match(text, end):
        return False
    lo = max([0, *(m.end() for m in _CLAUSE_END.finditer(text, 0, start))])
    clause = text[lo:start]
    return not _USED_WORDS.search(clause) and (
        any(m.path == "hardware" and lo <= m.start for m in named or []) or CPU.search(clause) is not None
    )


#: a run's output length listed among its settings ("a 512-token prompt, 400 tokens generated, temp
#: 0", "200 tokens generated per row"): the condition ``tokens_generated``, no count measured (not
#: "64 tokens generated in 22.36 seconds": a run's report)
_GENERATED_SETTING = re.compile(r"[\d,.]+\s*tokens?\s+generated\s*(?:[,;)]|per\b|each\b|$|\.(?!\d))", re.I)


def _round_count(text: str) -> bool:
    """Whether a count is one a person sets (a multiple of ten or a power of two: 400, 128, 512),
    not one a run reports ("Output: 46,054 tokens generated")."""
    digits = re.sub(r"[,\s]", "", text)
    if not digits.isdecimal() or int(digits) == 0:
        return False
    k = int(digits)
    return k % 10 == 0 or k & (k - 1) == 0


def _request_rate_set(text: str, start: int) -> bool:
    """Whether the number at ``text[start]`` is a request rate set for a benchmark's client
    (``draftwords.REQUEST_RATE``: "with a request rate of 8 req/s"): a setting
    (``other.request_rate``, as the corpus writes vLLM's ``--request-rate``), not a rate measured."""
    return any(m.start("n") == start for m in REQUEST_RATE.finditer(text, max(0, start - 40), start + 12))


#: what separates the items of a spec list
_ITEM_SEP = re.compile(r"[,;]")
#: how far before a number the parenthesis opening a machine's spec list may be (characters)
_SPEC_LIST_REACH = 120


def _in_spec_list(text: str, start: int, named: list[Mention]) -> bool:
    """Whether the number at ``text[start]`` is in a parenthesis right after a machine's name, its
    spec list ("a Mac mini M2 (8-core CPU, 10-core GPU, 100 GB/s memory bandwidth, 16 GB)", "2x
    RTX 3090 (24 GB, 936 GB/s)") and the list says no use of it (``_USED_WORDS``: "(peak 21 GB
    used)" is measured): what the machine has, SOURCES.md's ``systems``, not a claim."""
    open_ = text.rfind("(", max(0, start - _SPEC_LIST_REACH), start)
    if open_ < 0 or ")" in text[open_:start]:
        return False
    # the list's item holding the number ("(192 GB, 800 GB/s; 38 tok/s, 80 GB in use)": "80 GB in
    # use" is measured, "192 GB" the machine's): between the separators around it
    lo = max([open_ + 1, *(m.end() for m in _ITEM_SEP.finditer(text, open_, start))])
    close = text.find(")", start)
    stop = close if close >= 0 else len(text)
    if any(family(n.unit) == "rate" for n in numbers(text[open_:stop])):
        return False  # "(VRAM: 19.1 GB, 61 tok/s)": a run's results, no spec list
    after = _ITEM_SEP.search(text, start, stop)
    item = text[lo : after.start() if after else stop]
    if _USED_WORDS.search(item) or re.search(r"\d\s*/\s*\d", item):
        return False  # "(peak 21 GB used)", "(VRAM: 23.1/24 GB)": what a run took
    # the machine's name right before the bracket, or reading into it ("2x H100 (80 GB, …)")
    return any(
        m.path == "hardware"
        and (m.end <= open_ and not text[m.end : open_].strip() or m.start < open_ < m.end)
        for m in named
    )


#: words saying a figure was measured, not specified ("measured STREAM Triad 66.7 GB/s", "sustained")
_MEASURED_WORDS = re.compile(
    r"(?i)\b(?:measur\w*|achiev\w*|observ\w*|sustain\w*|effective|actual|real[- ]world|stream\s+triad|"
    r"benchmark\w*|tested|test|got|reach\w*|idle|load\w*|while|during|when|usage|practice|footprint|fits?|"
    r"running|runs|decod\w*|generat\w*|prefill|kv|cache|ctx|context|draw|wall|read|write|copy)\b|实测|実測|測定"
)
#: a spec list's key naming what a machine has ("統合メモリ:", "Memory bandwidth:", "Power:", "TDP:",
#: "VRAM:"), a colon after it
_SPEC_KEY = re.compile(
    r"\s*(?:[-*+•]|\d{1,2}[.)])\s+(?:\*\*|__)?[^:：\n]{0,24}?"
    r"(?:memory|ram|vram|bandwidth|power|tdp|storage|ssd|disk|cache\s+size|メモリ|帯域|消費電力|内存|显存|带宽|功耗)"
    r"[^:：\n]{0,12}?(?:\*\*|__)?\s*[:：]",
    re.IGNORECASE,
)


def _spec_item(line: str) -> bool:
    """Whether ``line`` is an item of a list under a heading of the machine's specifications, keyed
    by what a machine has (``_SPEC_KEY``: "## 主要スペック" over "- メモリ帯域幅: 100GB/s", "## Specs"
    over "- Power: 20W"): SOURCES.md's ``systems``, no measurement, unless it says a use or a
    measurement ("peak 21 GB used", "while decoding", "in practice", ``_MEASURED_WORDS``) or holds
    a rate (a run's result)."""
    return (
        _SPEC_KEY.match(line) is not None
        and not _USED_WORDS.search(line)
        and not _MEASURED_WORDS.search(line)
        and not any(family(x.unit) == "rate" for x in numbers(line))
    )


#: how far a listed rate may be from the listed count ÷ the listed time and still be stated as it:
#: posts round and slip (p133's "9.6 seconds, 232 tokens, 22,9 tokens/second": 24.2), never by a quarter
_LISTED_FAR = 0.25


def _listed_rate(
    three: list[tuple[Number, str]], text: str
) -> tuple[tuple[Number, str], tuple[Number, str], tuple[Number, str]] | None:
    """Three numbers listed one after another ("35.44 seconds, 150 tokens, 4.23 tokens/second": only
    commas, "and" or markup between them) that are a token count, a time in seconds and a rate within
    ``_LISTED_FAR`` of the count ÷ the time: (tokens, time, rate); None otherwise."""
    for (a, _), (b, _) in zip(three, three[1:], strict=False):
        if not re.fullmatch(r"[\s*_`]*(?:[,;/]|and)?[\s*_`]*", text[a.end : b.start]):
            return None
    by = {("tokens" if n.unit == "tokens" else family(n.unit)): (n, c) for n, c in three}
    if set(by) != {"tokens", "time", "rate"} or any(n.range is not None for n, _ in three):
        return None
    tokens, seconds, rate = (float(by[k][0].text) for k in ("tokens", "time", "rate"))
    if by["time"][0].unit != "s" or not seconds or not rate or abs(tokens / seconds / rate - 1) > _LISTED_FAR:
        return None
    return by["tokens"], by["time"], by["rate"]


#: how far (characters) acceptance counts may be from the rate they are of ("72% (181 of 250 …)")
_COUNTS_NEAR = 40


def _counts_fit(n: Number, accepted: int, drafted: int) -> bool:
    """Whether ``accepted`` ÷ ``drafted`` gives the acceptance rate ``n`` states (in % or as a
    fraction) to its last digit, give or take one unit of it (two where it says "about"): posts
    round and truncate ("about 72%" of 181 ÷ 250 = 72.4%)."""
    digits = n.text.lstrip("+~≈")
    try:
        value = float(digits)
    except ValueError:
        return False
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    scale = 100.0 if n.unit == "%" else 1.0
    step = 10.0**-decimals * (2 if n.about else 1)
    return abs(accepted / drafted * scale - value) <= step + 1e-9


#: between a comparison's first side and its other: "faster than", "slower than", "compared to"
_THAN_SIDE = re.compile(
    r"\b(?:faster|slower|quicker|higher|lower|more|less|better|worse)\s+than\b|\bcompared\s+(?:to|with)\b",
    re.I,
)
#: a line opening a new item of a paragraph, not going on with a wrapped sentence: a list mark, or
#: a capital or a digit after a line that ends as an item does (``_ITEM_END``: "On Intel CPU, 8
#: tokens/s" / "On Apple M1 …"; not "45 tok/s on the" / "RTX 4090 …")
_ITEM_START = re.compile(r"[-*+•]\s|\d|[A-Z]")
_ITEM_END = re.compile(r"(?:\d|%|/s|/sec|[.:;!?)]|\b(?:ms|s|GB|MB|GiB|MiB|tokens?|tps))\W*$", re.IGNORECASE)
#: a bracket opening a number of its own ("(>60% max theoretical)", "(~2x)")
_BRACKETED_NUMBER = re.compile(
    # (a statistic's word before it: "97.57 t/s (peak 108)": the peak is the bracket's number's)
    rf"[(（\[]\s*(?:(?:{_STAT_WORDS})\s*[:=]?\s*)?[<>≤≥~≈+-]?\s*\d",
    re.IGNORECASE,
)
#: a sentence stating its values in the order of names given before them
_RESPECTIVELY = re.compile(
    r"\brespectively\b|соответственно|分别|それぞれ|respectivamente|jeweils|respectivement", re.I
)
#: what stands between the two values of a pair joined as a comparison ("62 versus 31", "62 tok/s
#: vs 31"): the joining word, after the first value's unit
_PAIR_GAP = re.compile(rf"\s*(?:[^\s\d]{{1,8}}\s*)?(?:{JOINED.pattern})\s*", re.I)
#: what stands between two names a sentence compares in order ("vLLM is 2x faster than SGLang",
#: "llama.cpp vs Ollama", "vLLM and SGLang")
_NAMES_COMPARED = re.compile(r"\b(?:than|vs\.?|versus|and|over|against)\b|&|/", re.IGNORECASE)
#: the conditions whose names a "respectively" sentence's values follow
_RESPECTIVE_PATHS = ("hardware", "engine", "model", "quant", "backend", "build")


def _respective(
    text: str, s0: int, sentence: str, found: list[Number], named: list[Mention], bounds, rels=()
) -> dict[int, dict[str, object]]:
    """A "respectively" sentence's values (``found``'s numbers with a unit in it, in order: "71 vs 84
    tok/s respectively") -> the condition each takes: the names of one condition given in order
    before them, as many as the values, in the sentence itself before its first value or else in
    the sentence before it ("M4 Max 356 vs M3 Ultra 192. Generation: 71 vs 84 respectively"); empty
    where no condition names exactly that many.  A sentence's two values joined as a comparison
    (``_PAIR_GAP``: "vLLM is 2x faster than SGLang, 62 versus 31") follow its own two names so too,
    without the word.  ``rels``: (start, end) of the relating phrases' numbers ("2x"), no values."""
    end = s0 + len(sentence)
    values = [n for n in found if s0 <= n.start < end and n.unit and (n.start, n.end) not in rels]
    if len(values) < 2:
        return {}
    spans = [(s0, values[0].start)]
    joined = False  # a pair after two names the sentence compares ("A is 2x faster than B")
    if not _RESPECTIVELY.search(sentence):
        # "vLLM is 2x faster than SGLang, 62 versus 31 tok/s": a pair joined as a comparison after
        # the two names is in their order, as "respectively" says (each took the nearer "SGLang")
        between = text[values[0].end : values[1].start] if len(values) == 2 else ""
        if not _PAIR_GAP.fullmatch(between):
            return {}
        joined = True
    elif s0 > 0:
        p0, prev = sentence_at(text, max(0, s0 - 2), bounds)
        if p0 < s0:
            spans.append((p0, p0 + len(prev)))
    for lo, hi in spans:
        for path in _RESPECTIVE_PATHS:
            said = [m for m in named if m.path == path and lo <= m.start < hi]
            names = list(dict.fromkeys(m.value for m in said))
            if len(names) != len(values):
                continue
            if joined and not _NAMES_COMPARED.search(text, said[0].start, said[-1].start):
                # "Compared to SGLang, vLLM is 2x faster: 62 versus 31": the reference named first,
                # the subject after; the order says nothing
                return {}
            return {n.start: {path: v} for n, v in zip(values, names, strict=True)}
    return {}


#: the runs of one measurement printed as a list with their mean after it ("[71.87, 73.51, 71.03,
#: 71.77] avg=72.045 it/s", a Python list; its closing bracket may be lost in a paste)
_RUN_LIST = re.compile(
    r"\[\s*(?P<list>\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?)+)\s*\]?\s*,?\s*"
    r"(?:avg|mean|average)\s*[=:]\s*(?P<mean>\d+(?:\.\d+)?)",
    re.IGNORECASE,
)


#: the rest of a pair "A to B unit" after its first number: the unit written after both
_PAIR_UNIT_AFTER = re.compile(r"\s*(?:to|→|->|-->)\s*[\d.,]+\s*[A-Za-z]", re.IGNORECASE)


#: the times of one token or request a sentence names once for all its numbers in that unit
_PER_TOKEN_TIMES = frozenset({"tpot", "ttft", "itl", "ms_per_token"})
#: a tool's summary line, one field and its value ("prompt eval count:    68 token(s)", "load
#: duration: 4.30s", "eval rate: 10.04 tokens/s"): the label, a colon, one number and its unit
_FIELD_LINE = re.compile(r"\s*(?P<k>[A-Za-z][\w ()/.-]{2,40}?)\s*[:=]\s*[\d.,]+\s*[A-Za-z/()%µ]{0,14}\s*")


@dataclass
class RunLists:
    """The ``_RUN_LIST``s of a paragraph: ``index``, a listed number's offset -> its place in the
    list (its ``run_index``, 1, 2, …); ``means``, the offset of the mean after a list -> the offsets
    of the list's numbers."""

    index: dict[int, int] = field(default_factory=dict)
    means: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str) -> RunLists:
        out = cls()
        if "[" not in text:
            return out
        for m in _RUN_LIST.finditer(text):
            starts = [m.start("list") + x.start() for x in re.finditer(r"\d+(?:\.\d+)?", m.group("list"))]
            out.index.update({at: k + 1 for k, at in enumerate(starts)})
            out.means[m.start("mean")] = starts
        return out


class Sentences(Sides):
    """The drafter's sentences: numbers with units in prose, titles and headings -> claims, and the
    statements their sentences make."""

    #: whether the post names drafting (``about_drafting``), once read
    _about_drafting: bool | None = None

    # --- prose ------------------------------------------------------------------------------------
    def restated_unit(self, n: Number, line: int) -> tuple[str, list[str]] | None:
        """The unit of a rate or time the claims of ``line`` and the two lines before it state
        ``n``'s value in (a range: either end), where ``n`` is a decimal written with no unit ("…
        is only 22.1" after "22.1 → 41.6 tok/s"), the one unit they use, and the claims stating it;
        None otherwise (whole numbers repeat by chance: "2" is no restated "2 tok/s")."""
        ends = n.range or (n.text,)
        if not all("." in x for x in ends):
            return None
        wanted = {plain_value(number_text(x)) for x in ends} - {None}
        units: set[str] = set()
        stating: list[str] = []
        for k in (line - 2, line - 1, line):
            for e in self.by_line.get(k, []):
                shared = self.groups[e.group].fields if e.group is not None else {}
                unit = e.fields.get("unit") or shared.get("unit")
                if family(unit) not in ("rate", "time"):
                    continue
                got = plain_value(str(e.fields.get("value") or ""))
                if got is not None and got in wanted:
                    units.add(str(unit))
                    stating.append(str(e.fields["id"]))
        return (units.pop(), stating) if len(units) == 1 else None

    def restated_in(self, value: object, unit: str | None) -> list[str]:
        """The one claim stating ``value`` (a number as written) in the other unit of time, ms for s
        and s for ms ("vllm is 32ms" after a table's "TPOT(s)" cell 0.032: that claim, h548); []
        where none or several do."""
        other = {"ms": "s", "s": "ms"}.get(str(unit))
        x = plain_value(str(value))
        if other is None or x is None:
            return []
        key = (round(x * factor(unit, other), 9), other)
        return [self.by_number[key]] if self.number_count.get(key) == 1 else []

    def _list_names(self, pieces: list[tuple[int, str]], said: dict[str, object], carried: dict) -> None:
        """A list's items naming one model or quant each, another each, and stating no result
        ("- Qwen3.5-2B-4bit …" / "- Qwen3.5-4B-8bit …"): none of them holds for what follows the
        list (the last item's name was carried to the table below it); what the paragraphs before
        the list named stands.  ``said``: what this paragraph named; ``carried``: ``self.named``
        before it."""
        first = pieces[0][0] if pieces else 0
        item = bool(pieces) and _LIST_ITEM_LINE.match(self.post.line(first)) is not None
        last = self._list_item
        if not item:
            self._list_item = None
            return
        if last is None or last[0] != first - 1:
            last = (0, {}, set(), dict(carried))  # a new list
        _, before, apart, outside = last
        apart = apart | {p for p in _LIST_PATHS if p in said and p in before and before[p] != said[p]}
        for path in apart:
            if path in outside:
                self.named[path] = outside[path]
            else:
                self.named.pop(path, None)
        self._list_item = (pieces[-1][0], {**before, **said}, apart, outside)

    def prose(self, pieces: list[tuple[int, str]], read: list[str] | None = None) -> None:
        """The numbers and relations of one paragraph (``pieces``: its lines), read as one text so a
        sentence may run over lines; each number keeps the line it is on.  ``read``: the lines as
        numbers are read from them (inline command lines blanked out), quotes keep ``pieces``."""
        text, scanned, starts = "", "", []
        carried = dict(self.named)  # what the paragraphs before named (a quote's names are not kept)
        for k, (ln, t) in enumerate(pieces):
            starts.append((len(text), ln))
            lead = len(t) - len(t.lstrip())
            text += t.strip() + " "
            scanned += (read[k] if read is not None else t)[lead : lead + len(t.strip())] + " "
        raw = numbers(scanned)
        found = pair_units(
            scanned,
            _listed_units(
                scanned,
                _headed_units(
                    scanned,
                    _paired_units(
                        scanned,
                        _stat_units(scanned, _shared_units(scanned, _from_to_units(scanned, raw))),
                    ),
                ),
            ),
        )

        def line_of(i: int) -> int:
            return next(ln for at, ln in reversed(starts) if at <= i)

        rels = {(r.number.start, r.number.end): r for r in relations(scanned, found)}
        spans = self.label_spans(scanned)  # once per paragraph: per number it was quadratic
        # a CPU's name ("Ryzen 7 5800X": its tier's digit is no number, as a card's "RTX 3090" is none)
        cpus = [(m.start(), m.end()) for m in CPU.finditer(scanned)]
        bounds = sentence_bounds(text)
        # table rows read as prose (no header rule: "| A | 30 tok/s | 98 tok/s · ×3.3 |" line under
        # line): each row is its own sentence, its relation between its own cells
        rows = [
            at
            for (at, _), (_, before) in zip(starts[1:], pieces, strict=False)
            if text.startswith("|", at) and before.rstrip().endswith("|")
        ]
        # lines of a record list, each opening with its label ("Context 256: S=1 17.43 tokens/s"
        # under "Context 0: S=1 17.33 tokens/s", "[Code] 512 tokens in 8.62s" under "[Q&A] …"): each
        # line is its own sentence, what one names is not the next line's number's
        records = [at for at, _ in starts[1:] if _LABEL_LINE.match(text, at)]
        if records and _LABEL_LINE.match(text, 0):
            rows += records
        if rows:
            bounds = Bounds(sorted(set(bounds) | set(rows)))
        named = mentions(scanned)  # not the inline commands blanked out of it (``inline_commands``)
        ends = [at for at, _ in starts[1:]] + [len(scanned)] * bool(starts)
        line_texts = [(at, scanned[at:end]) for (at, _), end in zip(starts, ends, strict=True)]
        # "fp16: 142.641 tokens/sec" / "awq: 144.663 …": each line's quant, named before its number
        if labelled_quants := quant_labels(line_texts, self.lead_in[-200:]):
            named = sorted([*named, *labelled_quants], key=lambda m: m.start)
        if supposed := supposed_spans(scanned):
            # "Even something like a 3060Ti would be amazing!": advice names no machine the post ran
            named = [m for m in named if m.path != "hardware" or not in_spans(supposed, m.start)]
        machines = {m.value for m in named if m.path == "hardware"}
        devices = parallel_count(scanned) if len(machines) == 1 else None
        if devices is not None and not re.match(r"\d+\s*[x×]", str(next(iter(machines)))):
            # "tp4 h20" over a table, "8x H200 at TP=8": the run spans that many of the one machine
            # named (as ``draftcontext``'s setup counts them)
            named = [replace(m, value=f"{devices}x {m.value}") if m.path == "hardware" else m for m in named]
        clauses = clause_bounds(text)

        def own(at: int) -> bool:
            """Whether a name at ``at`` is the author's, not in a quoted person's clause
            (``origin_at``: "Someone on the forum got 52 tok/s on a 4090" names their GPU)."""
            s0, sentence = sentence_at(text, at, bounds)
            return origin_at(sentence, at - s0) is None

        labelled = tuple(at for at, _ in starts if _LABEL_LINE.match(text, at))
        line_starts = [at for at, _ in starts]
        item_starts = tuple(
            at
            for (_, prev), (at, _) in zip(pieces, starts[1:], strict=False)
            if _ITEM_START.match(text, at) and (text[at] in "-*+•" or _ITEM_END.search(prev))
        )
        # acceptance counts in words ("181 of 250 drafted tokens accepted"): the counts of the rate
        # beside them, else a claim of the counts; their numbers are neither's value
        counted = accept_counts(scanned) if "ccept" in scanned else []
        counts_used: set[int] = set()
        deferred: dict[int, tuple[Number, int, str]] = {}  # a phrase -> its first number, line, sentence
        # the names a number can be a digit of (a machine's, a model's), once: every unitless number
        # weighed every name of the paragraph (a thousand "AR 1" drafting labels, quadratic)
        parts = [m for m in named if m.path in ("hardware", "model")]
        k_named = 0  # the mentions before the current number, taken into self.named
        placed: list[tuple[Number, str]] = []
        here: set[str] = set()  # the claims of ``placed``
        run_lists = RunLists.of(scanned)

        @functools.cache
        def stats_listed() -> bool:
            """``stat_list`` of the paragraph, read once (per number it was quadratic)."""
            return stat_list(scanned, found)

        paired = paired_names(scanned, raw) if "&" in scanned or " and " in scanned else {}
        origins: dict[int, str | None] = {}
        joined: dict[int, bool] = {}  # a sentence's start -> whether it lists sides "respectively"
        prev_end = 0
        for n in found:
            # the words since the last number with a unit, within a window: splitting all of them
            # per number was quadratic in a paragraph of unit-less numbers ("1,1,1,…")
            label = scanned[max(prev_end, n.start - _LABEL_WINDOW) : n.start]
            label = re.split(r"[.;,!?]\s", label)[-1]
            if n.unit is not None:
                prev_end = n.end
            line = line_of(n.start)
            s0, sentence = sentence_at(text, n.start, bounds)
            while k_named < len(named) and named[k_named].start < n.start:
                if named[k_named].path not in CLAUSE_ONLY and own(named[k_named].start):
                    self.named[named[k_named].path] = named[k_named].value
                k_named += 1
            if (n.start, n.end) in rels:
                continue
            phrase = next((k for k, c in enumerate(counted) if c[0] <= n.start < c[1]), None)
            if phrase is not None:
                # a rate after them may take them ("n_drafted = 376, n_accept = 107, acceptance
                # 28.5%"): a claim of the counts once the paragraph is read, if none did
                deferred.setdefault(phrase, (n, line, sentence))
                continue
            if repetitions(scanned, n):  # "ran it 3 times": a count of runs, no multiple
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            if hypothetical(sentence):
                # "Could it break 20 tok/s?", "Has anyone gotten over 30 t/s on a P40?": a hope or a
                # request, no measurement: listed
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            if family(n.unit) == "power" and (
                re.search(r"(?:\bat|@)\s*~?$", scanned[max(0, n.start - 8) : n.start])
                or _POWER_SETTING.match(scanned, n.end)
            ):
                # "Still pulling +65% at 250W", "a 450 W power limit": the card's setting, no draw
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            if n.unit in (None, "tokens") and n.of is None and any(a <= n.start < b for a, b in spans):
                # "block size 4", "-ncmoe 26", "Context: 131,072 tokens": a condition of the numbers
                # near it (in tokens, the setting's own unit)
                continue
            if not stateable(n):
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            fraction = n.unit is None and n.of is None and _acceptance_fraction(scanned, n)
            accept_length = n.unit is None and n.of is None and not fraction and _accept_length(scanned, n)
            if accept_length:
                n = replace(n, unit="tokens")  # "Accpt Len: 1.89", "accept length ~2.5–3": tokens
            if n.unit is None and not fraction and n.of is None and (restated := self.restated_unit(n, line)):
                # "22.1 → 41.6 tok/s … decode is only 22.1; … it lands at 41.6-42.9": a value the
                # paragraph stated with a rate's unit, written again without it
                unit, stating = restated
                if len(stating) == 1 and self.same_sentence(stating[0], line, sentence):
                    # "At 82.9 tok/s: 4.92 GB × 82.9 = 407.9 GB/s": the same figure in its own
                    # sentence's arithmetic, that claim's
                    placed.append((n, stating[0]))
                    here.add(stating[0])
                    continue
                n = replace(n, unit=unit)
            if n.unit is None and not fraction:
                if n.of is not None:
                    rate = self.rate_of_counts(n, placed, scanned, line, sentence)
                    placed.append((n, rate or self.count_claim(n, text, line, sentence)))
                    here.add(placed[-1][1])
                elif not any(
                    (m.path == "hardware" and m.start <= n.start < m.end)
                    # (a model's mention has no end: its name as written, "Llama 3 8B")
                    or (
                        m.path == "model"
                        and scanned.startswith(str(m.value), m.start)
                        and m.start <= n.start < m.start + len(str(m.value))
                    )
                    for m in parts
                ) and not any(a <= n.start < b for a, b in cpus):
                    # (the digits of a machine's or a model's name, "RTX 3090", "Llama 3 8B", are no
                    # number: docs/claims.md)
                    self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            before = scanned[max(0, n.start - 60) : n.start]
            if n.unit_written in CAPITALS_ONLY:  # "296.96 PP": the unit names the test
                before += f" {n.unit_written}"
            elif n.unit_written and PER_TOKEN_UNIT.search(n.unit_written):
                before += " per token"  # "45 ms/token": a time per token, whatever the words before
            elif (
                n.unit_written
                and _BARE_RATE.fullmatch(n.unit_written)
                and n.end <= n.start + len(n.text)
                # (not the first side of "857.0 to 853.0 tok/s": its unit is the pair's, after it)
                and not _PAIR_UNIT_AFTER.match(scanned, n.end)
            ):
                # a unit named once before its numbers (``_headed_units``): the words naming the rate
                # are those before that unit ("пик TPS … 455 vs 246": a peak)
                head = [m for m in _BARE_RATE.finditer(scanned, 0, n.start)][-1:]
                if head:
                    before = scanned[max(0, head[0].start() - 40) : head[0].end()] + " "
            elif n.unit_written and re.search(r"/\s*it\b", n.unit_written, re.I):
                before += " per iteration"  # tqdm's "1.61s/it": a step's time (latency), not a run's
            elif n.unit_written and re.search(r"/\s*req", n.unit_written, re.I):
                before += " per request"  # "2.09s/req": a request's time (latency)
            if fraction:  # "acceptance 0.73 aggregate", "0.79 aggregate acceptance"
                n = replace(n, unit="ratio")
                metric: str | None = "acceptance_rate"
            elif accept_length:
                metric = "mean_accepted_length"
            elif family(n.unit) == "rate" and re.match(r"[\d.,]+\s+total\s", scanned[n.start : n.end], re.I):
                # "2314.96 total tokens/s" (vLLM's throughput benchmark): prompt and output tokens
                # over the run, whatever the words before it
                metric = "total_throughput"
            elif (
                family(n.unit) == "rate"
                and re.match(r"[\d.,]+\s+output\s", scanned[n.start : n.end], re.I)
                and re.search(r"\bthroughput\s*:", scanned[: n.start], re.I)
            ):
                # "Throughput: 34.52 requests/s, 8837.12 total tokens/s, 4418.56 output tokens/s" (vLLM's
                # throughput benchmark): the output tokens of the whole batch over the run
                metric = "throughput"
            else:
                # the words after it up to a bracket opening another number: "36.9 TFLOPS (>60% max
                # theoretical)" is measured, the ceiling's words are the percentage's
                # (within its sentence: "PP 512: 1021 t/s" over "TG 128: 45.3 t/s", a record list's
                # lines each a sentence, is not named by the next line's label)
                after = _BRACKETED_NUMBER.split(
                    scanned[n.end : max(n.end, min(n.end + 30, s0 + len(sentence)))], maxsplit=1
                )[0]
                if n.unit_written in CAPITALS_ONLY:
                    after = ""  # "PP 1713 TG 40": its phase is its own label's, not the next number's
                elif n.unit == "tokens":
                    # "2.37 accepted tokens/round": the words the number was read with name it
                    own_words = re.sub(r"^[^A-Za-z]*", "", scanned[n.start : n.end])
                    after = f"{own_words} {after.lstrip()}" if own_words else after
                metric = metric_of(n.unit, before, after)
                # "148 ms total" names a run's whole time, the unit's default metric: no word before
                # it or around it overrides that as it would an unnamed time's
                whole = whole_time_after(after) or WHOLE_TIME_BEFORE.search(before) is not None
                if family(n.unit) == "rate" and metric == metric_of(n.unit, ""):
                    # no word near it names the phase: its list item's label does ("- Prompt
                    # processing (prefill phase): ROCm dominates. … ROCm hits ~1052 t/s at 2K")
                    # (its own line's label first: "Prompt evaluation speed : 4668 …" over
                    # "Generation speed : 93 …")
                    at = line_starts[bisect.bisect_right(line_starts, n.start) - 1]
                    k = bisect.bisect_right(item_starts, n.start) - 1
                    item_head = _ITEM_LABEL.match(scanned, at) or _ITEM_LABEL.match(
                        scanned, item_starts[k] if k >= 0 else 0
                    )
                    if (
                        item_head is not None
                        and item_head.end() <= n.start
                        # (a label within reach: one a whole line of numbers earlier labels none of
                        # them, and searching back to it for each was quadratic)
                        and n.start - item_head.end() <= _ITEM_REACH
                        # (no label or phase word of its own between: "Avg prompt throughput: 12.3
                        # tokens/s, Avg generation throughput: 45.6", "while generation is … 40 tok/s")
                        and not _OWN_PHASE.search(scanned, item_head.end(), n.start)
                    ):
                        metric = metric_of(n.unit, item_head.group("l")) or metric
                if (
                    family(n.unit) == "time"
                    and self.heading_time is not None
                    and not self.in_heading
                    and metric == metric_of(n.unit, "")
                    and not whole
                    and not _OWN_TIME.search(re.split(r"\d", before[-24:])[-1])  # (since the number before)
                ):
                    # no word near it names the time: its section's heading does ("### 延迟对比(P99)"
                    # over "- 短文本生成:vLLM 82ms vs SGLang 65ms"); not a total or a load
                    metric = self.heading_time
                if (
                    metric == "prefill_tps"
                    and self.lead_in
                    and _DECODE_LEAD.search(self.lead_in)
                    and re.search(r"(?i)\bprompt\s*[:：]\s*$", before)
                ):
                    # "Per-test decode speed:" over "- Prompt: 45.1 tok/s (short chat)": a test named
                    # "Prompt", its decode rate
                    metric = "decode_tps"
                if (
                    metric is not None
                    and self.lead_in
                    and family(n.unit) != "rate"
                    and metric == metric_of(n.unit, "")
                    and not whole
                ):
                    # no word near it names the metric: the line introducing the list does ("results
                    # for TTFT speed up:" over "- 8k: 4141 ms / 1640 ms")
                    metric = metric_of(n.unit, self.lead_in[-80:].rstrip(": ")) or metric
                if (
                    metric is not None
                    and family(n.unit) == "time"
                    and metric == metric_of(n.unit, "")
                    and not whole
                    and placed
                    and placed[-1][0].start >= s0
                    and placed[-1][0].unit == n.unit
                    and self.metric_of_claim(placed[-1][1]) in _PER_TOKEN_TIMES
                ):
                    # "TPOT remains at ~2.7-2.9ms, while vanilla increases from 3.15ms (K=3) to
                    # 4.33ms": the sentence's later times in its unit are of the metric it names first
                    metric = str(self.metric_of_claim(placed[-1][1]))
                if (
                    metric is not None
                    and family(n.unit) == "rate"
                    and metric == metric_of(n.unit, "")
                    and placed
                    and placed[-1][0].start >= s0
                    and _THAN_SIDE.search(between := scanned[placed[-1][0].end : n.start])
                    # "… slower than that: generation at 40 tok/s", "the 40 tok/s of token generation"
                    and rate_named(between) is None
                    and rate_named(after) is None
                ):
                    # "prefill reached 18,600 tok/s — 19× faster than the M4's 942 tok/s": the other
                    # side of a comparison is of the phase its first side names
                    first = self.metric_of_claim(placed[-1][1])
                    if first != metric and family(self.profile.get(placed[-1][1], (None,))[0]) == "rate":
                        metric = first
            if (
                metric is None
                or family(n.unit) == "size"
                and (
                    machine_size(text, n.start, n.end, named)
                    or _spec_size(scanned, n.end, self.in_heading, n.start, named)
                )
                or family(n.unit) == "bandwidth"
                and machine_bandwidth(text, n.start, named)
                and not MEASURED_BANDWIDTH.search(sentence + " " + self.lead_in[-200:])
                or family(n.unit) in ("size", "bandwidth")
                and _in_spec_list(scanned, n.start, named)
                or family(n.unit) in ("size", "bandwidth", "power")
                and self.spec_section
                and _spec_item(self.post.line(line))
                or _request_rate_set(scanned, n.start)
                or _LIMIT_AFTER.match(scanned, n.end) is not None
                or _DIAGNOSIS_AFTER.match(scanned, n.end) is not None
                or _LIMIT_BEFORE.search(scanned, max(0, n.start - 30), n.start) is not None
                or family(n.unit) == "layers"
                and layers_setting(scanned, n.start)
                or family(n.unit) == "tokens"
                and _GENERATED_SETTING.match(scanned, n.start) is not None
                and _round_count(n.text)
            ):
                self.out.unplaced.append((line, n.text, sentence[:300]))  # "RTX 5090 32GB": the card's
                continue
            relation = bound_of(scanned, n)
            if relation is not None and self.share_of_peak(n, relation, scanned, placed, line, sentence):
                continue  # "5.1 TFLOPS (<9% max theoretical)": a bound of the measured over the peak
            if relation is not None and _COST_BEFORE.search(scanned[max(0, n.start - 60) : n.start]):
                # "the draft costs under 1 GB of VRAM": a bound on a difference (what one setup adds
                # over another), not on each value of the metric: listed, for the user to state
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            if relation is not None and threshold(sentence, n.start - s0):
                # "below 30 tok/s is too slow", "I would need 45+ GB of RAM": a scale's threshold or
                # a requirement, no result: listed
                self.out.unplaced.append((line, n.text, sentence[:300]))
                continue
            if relation is not None:  # "40+ tok/s", "<9%", "at least 12 GB": a bound, no value claimed
                rel = rels.get((n.start, n.end))
                if n.unit == "%" and rel is not None and rel.kind == "percent_change":
                    # "最大30%以上の速度向上", "over 20% faster": a bound of the change, not of a share
                    metric = self.change_metric_at(scanned, n, s0, sentence)
                cond = merged(
                    merged(self.context(), _in_clause(named, clauses, n.start, text, labelled, item_starts)),
                    self.named_conditions(n.start, s0, sentence, clauses),
                )
                self.bound_statement(n, relation, metric, cond, line, sentence)
                continue
            if self.mean_statement(n, metric, scanned, line, sentence, here, self.lead_in):
                continue  # "This gives a 89.76 tok/s average." of the rates listed before it
            if n.start in run_lists.means:
                members = [cid for x, cid in placed if x.start in run_lists.means[n.start]]
                if len(members) >= 2 and self.listed_mean(n, members, line, sentence):
                    continue  # "[71.87, 73.51, 71.03, 71.77] avg=72.045 it/s": the runs' mean
            fields = number_fields(n)
            value = fields.get("value") or "–".join(fields.get("range") or ())
            same = self.by_value.get((str(value), n.unit), [])
            if not same and (other := self.restated_in(value, n.unit)):
                # (the same run only: "SGLang's E2E latency is 1600 ms" after vLLM's 1.6 s is its own)
                here_said = {**self.named, **_in_clause(named, clauses, n.start, text, labelled, item_starts)}
                theirs = self.flat_conditions(other[0])
                if not any(
                    p in here_said and p in theirs and str(here_said[p]).lower() != str(theirs[p]).lower()
                    for p in ("engine", "hardware", "model")
                ):
                    same = other
            if (
                len(same) == 1
                and not n.of
                and not self.same_sentence(same[0], line, sentence)
                and not self.parallel_run(same[0], line)
                and not self.field_again(same[0], line)
                and not self.run_of_several(line)
            ):
                placed.append((n, same[0]))  # the post repeats a number it stated: cite that claim
                here.add(same[0])
                self.maybe_log(same[0], metric)
                continue
            cfields = {"metric": metric, **fields}
            if s0 not in origins:  # once per sentence: per number it was quadratic in a long sentence
                origins[s0] = origin_of(sentence)
            origin = origins[s0] and origin_at(sentence, n.start - s0)
            if origin:
                cfields["origin"] = origin
            clause = _in_clause(named, clauses, n.start, text, labelled, item_starts)
            cond = merged(
                merged(self.context(engine=clause.get("engine")), clause),
                self.named_conditions(n.start, s0, sentence, clauses),
            )
            if family(n.unit) == "rate" and baseline_label(scanned, n):
                # "70 tok/s vs 41 without", "(AR 58.25, …)", "(w/o 41)": the run that drafted nothing,
                # whatever drafting the line names for the rate beside it
                cond = {k: v for k, v in cond.items() if k != "block_max"} | {"decoding": "plain"}
            if origin:
                cond = others_conditions(cond, sentence, n.start - s0)
            if s0 not in joined:  # (once a sentence: each number's search of a long one was quadratic)
                joined[s0] = bool(_RESPECTIVELY.search(sentence) or JOINED.search(sentence))
            if joined[s0]:
                for path, value in (
                    _respective(text, s0, sentence, found, named, bounds, rels).get(n.start, {}).items()
                ):
                    set_path(cond, path, value)
            own_paren = re.match(r"\s*\(([^()]{1,40})\)", scanned[n.end : n.end + 44])
            if (
                cond.get("decoding") in ("draft-self", "speculative", None)
                and from_side(scanned, n.start)
                # (not a side with its own drafting setting: "from 40 tok/s (K=3) to 55 tok/s (K=8)")
                and not (own_paren and _drafting_count(own_paren.group(1)))
                and (
                    cond.get("decoding")
                    or names_drafting(sentence)
                    # a post about drafting: the change is drafting's, unless the sentence names the
                    # setting it is of ("`-ngld 99` took it from 45tps to 103.9 tps")
                    or self.about_drafting()
                    and not _FLAG_WORD.search(sentence)
                )
            ):
                # (a decoding named after the change's other side is that side's: "from 30 to 45
                # tok/s with the draft model")
                # (where the sentence names a flag, the change is that setting's: both sides drafted)
                nxt = n.start + 30
                if not _FLAG_WORD.search(sentence):
                    nxt = next((x.start for x in found if x.start > n.start), nxt)
                if not any(
                    m.path == "decoding" and n.start <= m.start < min(n.start + 30, nxt) for m in named
                ):
                    # "QAT+MTP hits 70-80 tok/s (from 40 tok/s)", "63.3 → 96.1 tok/s, n-max 2": the
                    # drafting is where the change went; the run it started from drafted nothing
                    cond = {k: v for k, v in cond.items() if k != "block_max"} | {"decoding": "plain"}
            stat = _STAT_PAREN.search(scanned, max(0, n.start - 12), n.start)
            if (
                stat is not None
                and stat.group(1).lower() not in ("best", "worst")  # a best run is no statistic named
                and family(n.unit) == "rate"
                and re.match(r"\s*[)）]", scanned[n.end : n.end + 3])
            ):
                # "97.57 t/s (peak 108)": the same rate's maximum over the run
                word = stat.group(1).lower()
                word = {"peak": "max", "maximum": "max", "minimum": "min"}.get(word, word)
                cond = {**cond, "other": {**(cond.get("other") or {}), "stat": word}}
            before_stat = _STAT_BEFORE.search(scanned, max(0, n.start - 24), n.start) or (
                # "median 11.3s p90 90.8s max 247.9s": max and min among other statistics only ("max
                # 4096 tokens of context" names a setting)
                _EXTREME_BEFORE.search(scanned, max(0, n.start - 24), n.start) if stats_listed() else None
            )
            if before_stat is not None and not has_path(cond, "other.stat"):
                # "avg 1611.47ms, std 143.69ms, p95 1795.47ms": each number the statistic before it
                word = before_stat.group(1).lower()
                word = {"stddev": "std", "stdev": "std"}.get(word, stat_name(word))
                cond = {**cond, "other": {**(cond.get("other") or {}), "stat": word}}
            if n.start in paired:  # "~5 tok/s on vLLM & around 10 for SGLang": each its own name
                cond = {**cond, paired[n.start][0]: paired[n.start][1]}
            if n.start in run_lists.index and not has_path(cond, "run_index"):
                cond = {**cond, "run_index": run_lists.index[n.start]}  # the k-th run of its list
            if cond:
                cfields["conditions"] = cond
            if metric == "acceptance_rate" and n.range is None:
                # "about 72% (181 of 250 drafted tokens accepted)": the counts behind the rate
                s_end = s0 + len(sentence)
                for k, (a, b, accepted, drafted) in enumerate(counted):
                    near = n.end <= a <= n.end + _COUNTS_NEAR or n.start - _COUNTS_NEAR <= b <= n.start
                    # counts in parentheses right after the rate are its own whatever they give
                    # ("81% (181 of 250 drafted tokens accepted)": the audit then says it is wrong)
                    # (and a rate in parentheses right after them: "acceptance: 164/269 tokens (61%)")
                    adjacent = re.fullmatch(r"\s*[(（]\s*", scanned[n.end : a]) is not None or (
                        b <= n.start and re.fullmatch(r"\s*[(（]\s*", scanned[b : n.start]) is not None
                    )
                    if k not in counts_used and near and s0 <= a and b <= s_end:
                        if adjacent or _counts_fit(n, accepted, drafted):
                            cfields["counts"] = {"accepted": accepted, "drafted": drafted}
                            counts_used.add(k)
                            break
            cfields.update(source_fields(line, sentence))
            cid = self.add_claim(cfields, f"{metric.replace('_', '-')}-l{line}", label=label)
            self.maybe_log(cid, metric)
            placed.append((n, cid))
            here.add(cid)
        for k, (n, line, sentence) in deferred.items():
            if k not in counts_used:  # no rate took them: a claim of the counts
                counts_used.add(k)
                placed.append((n, self.count_claim(n, text, line, sentence, counted[k])))
                here.add(placed[-1][1])
        if deferred:
            placed.sort(key=lambda x: x[0].start)
        rest = [m for m in named[k_named:] if m.path not in CLAUSE_ONLY and own(m.start)]
        for m in rest:
            self.named[m.path] = m.value
        if labelled_quants:
            # (each line's own: the paragraphs after it keep what the paragraphs before named)
            if "quant" in carried:
                self.named["quant"] = carried["quant"]
            else:
                self.named.pop("quant", None)
        if not here and not self.in_heading:
            # "I have tested AWQ and GPTQ on llama-7b" (no number of its own): a paragraph naming two
            # quants after its last number names neither for the paragraphs after it (the last named
            # is no more theirs than the first); what the paragraphs before named stands
            once = named_once(rest)
            for path in {m.path for m in rest} - set(once):
                if path in carried:
                    self.named[path] = carried[path]
                else:
                    self.named.pop(path, None)
        if self.in_heading:
            # a heading naming two engines or machines ("# MLX vs llama.cpp on M2 Max", "# MLX vs
            # llama.cpp on an RTX 4090": all its names, before its numbers too) names neither for its
            # section: the last named is no more its subject than the first
            said = [m for m in named if m.path not in CLAUSE_ONLY and own(m.start)]
            once = named_once(said)
            for path in {m.path for m in said} - set(once):
                self.named.pop(path, None)
        for path in ("engine", "hardware"):
            # "vLLM and SGLang reached 112 and 141 tok/s respectively": a paragraph whose claims are
            # of two engines or machines names neither for the paragraphs after it (the last named
            # was carried to every later claim): they keep what the paragraphs before named ("I
            # upgraded from a 3090 to a 5090", no claim of either: the last named stands)
            values = {
                re.sub(r"^\d+\s*[x×]\s*", "", str(v)).lower()  # "8x MI300X" is an MI300X
                for c in here
                if c in self.claims and (v := (self.claims[c].fields.get("conditions") or {}).get(path))
            }
            if any(a not in b and b not in a for a in values for b in values):
                if path in carried:
                    self.named[path] = carried[path]
                else:
                    self.named.pop(path, None)
        if not here:  # (a list of results, "- `FP16` = 3.3GB", keeps its own names, as any paragraph)
            self._list_names(pieces, {m.path: m.value for m in rest}, carried)
        if pieces and all(self.post.line(ln).startswith(">") for ln, _ in pieces):
            # a quoted paragraph is someone else's: its machine, engine, build and backend are not
            # the post's for the paragraphs after it ("> I tested it with my 3090 …")
            for path in ("hardware", "engine", "build", "backend"):
                if path in carried:
                    self.named[path] = carried[path]
                else:
                    self.named.pop(path, None)
        # the relations read the claims' conditions (plain_baseline changes one's: it says so)
        self._flat, self._values = {}, None
        self.rel_starts = [rel.number.start for rel in rels.values()]
        indexed = Placed(placed)
        try:
            for rel in rels.values():
                self.relation(rel, text, line_of(rel.start), indexed, bounds)
        finally:
            self._flat, self._values = None, None
        if re.search(r"[<>≤≥]", scanned):  # "34 MiB < 64 MiB": a comparison of two stated numbers
            compared: set[int] = set()
            for k, (x, _) in enumerate(placed[:-1]):
                if not re.search(r"[<>≤≥]", scanned[x.end : placed[k + 1][0].start]):
                    continue
                s0, sentence = sentence_at(text, x.start, bounds)
                if s0 in compared:
                    continue
                compared.add(s0)
                items = [(y.start, y.end, cid) for y, cid in indexed.within(s0, s0 + len(sentence))]
                self.comparisons(scanned, items, line_of(x.start), sentence)
        self.tokens_over_time(placed, text, line_of, bounds)

    def share_of_peak(
        self, n: Number, relation: str, text: str, placed: list[tuple[Number, str]], line: int, sentence: str
    ) -> bool:
        """A percentage written as a bound and naming a ceiling right after it, beside the claim it
        is a share of ("only gets to 5.1 BF16 TFLOPS (<9% max theoretical)", "36.9 TFLOPS (>60% of
        peak)"): a ``bound`` statement that the claim over the ceiling's claims (those of a peak
        metric, or whose words name the theoretical/peak/max, in the claim's unit family) is below
        or above N/100, over the claim by ``id`` and the ceiling by its metric.  False (nothing
        drafted) with no claim right before it or no ceiling claim stated."""
        if n.unit != "%" or not _CEILING_AFTER.match(text, n.end) or not placed:
            return False
        m, cid = placed[-1]
        if not re.fullmatch(r"[^\d.!?;]{0,12}", text[m.end : n.start]):
            return False  # not the number right before it ("5.1 TFLOPS (<9%")
        fam = family(self.profile[cid][0]) if cid in self.profile else None
        ceilings = [
            c
            for c in self.claim_ids[-60:]
            if c != cid
            and family(self.profile[c][0]) == fam
            and (
                "peak" in str(self.metric_of_claim(c))
                or _CEILING_WORDS.search(
                    self.labels.get(c, "") + " " + str(self.claims[c].fields.get("conditions"))
                )
            )
        ]
        if not ceilings:
            return False
        digits = n.text.lstrip("+")
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        value = round(float(digits) / 100, decimals + 2)
        fields: dict = {
            "kind": "bound",
            "statement": sentence,
            "over": {"numerator": {"id": cid}, "denominator": {"metric": self.metric_of_claim(ceilings[-1])}},
            "relation": relation,
            "value": Num(f"{value:.{decimals + 2}f}".rstrip("0").rstrip(".")),
            "unit": "x",
            **source_fields(line, sentence),
        }
        if n.about:
            fields["about"] = True
        sid = self.new_id(f"s-l{line}")
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
        return True

    def about_drafting(self) -> bool:
        """Whether the post names any kind of drafting (``draftcontext.names_drafting``), read once: a
        change written as a path in it ("went from 38.7 t/s to 29.29 t/s") starts from the plain run."""
        if self._about_drafting is None:
            self._about_drafting = names_drafting(self.post.text)
        return self._about_drafting

    def line_units(self, line: int) -> list[tuple[str, str | None]]:
        """The numbers with a unit a source line states, as (text, unit), read once a line (asked
        for each value a long post repeats)."""
        if line not in self._line_units:
            self._line_units[line] = [(x.text, x.unit) for x in numbers(self.post.line(line)) if x.unit]
        return self._line_units[line]

    def parallel_run(self, cid: str, line: int) -> bool:
        """Whether ``line`` reports another run in the shape of claim ``cid``'s line, so a value both
        state is measured twice, no repetition: the same units in the same order, two or more, and
        other values ("512 tokens in 7.68s = 66.6 tok/s" under "512 tokens in 8.62s = 59.3 tok/s";
        "PP 1758 TG 40" under "PP 1713 TG 40": each run generated 512 tokens, decoded at 40 t/s)."""
        c = self.claims.get(cid)
        first = c.fields.get("source_line") if c is not None else None
        if not isinstance(first, int) or first == line:
            return False
        here, there = self.line_units(line), self.line_units(first)
        if len(here) < 2 or [u for _, u in here] != [u for _, u in there] or here == there:
            return False

        # a recap repeats every number it states ("TL;DR decode goes 40 t/s → 45 t/s"): no new run
        def stated_before(t: str, u: str | None) -> bool:
            x = plain_value(t)
            cid = self.by_number.get((round(x, 9), u)) if x is not None else None
            return cid is not None and self.claims[cid].fields.get("source_line") != line

        return not all(stated_before(t, u) for t, u in here)

    def run_of_several(self, line: int) -> bool:
        """Whether ``line`` leads with one run's label and a line near it another run's ("- Run 1:
        144.3 tok/s" … "- Run 3: 144.3 tok/s"): its number is that run's own measurement, never a
        repetition of the same value stated before (the first run's, a table's mean); a lone "- Run
        1: 75.5 tok/s" under a table of 75.5 restates it."""
        k = _run_index(self.post.line(line))
        if k is None:
            return False
        # (outside the text a line reads "": no label)
        return any(
            j != line and _run_index(self.post.line(j)) not in (None, k) for j in range(line - 4, line + 5)
        )

    def field_again(self, cid: str, line: int) -> bool:
        """Whether ``line`` prints the field of claim ``cid``'s line again, a few lines on, as a
        tool's summary does for each run ("prompt eval count:    68 token(s)" in ``ollama run
        --verbose``'s first and second run): the same label before the colon, nothing after the
        number but its unit, at most 30 lines apart -- a second measurement, no repetition."""
        c = self.claims.get(cid)
        first = c.fields.get("source_line") if c is not None else None
        if not isinstance(first, int) or first == line or abs(first - line) > 30:
            return False
        a, b = _FIELD_LINE.fullmatch(self.post.line(first)), _FIELD_LINE.fullmatch(self.post.line(line))
        return (
            a is not None and b is not None and a.group("k").strip().lower() == b.group("k").strip().lower()
        )

    def same_sentence(self, cid: str, line: int, sentence: str) -> bool:
        """Whether claim ``cid`` was drafted from ``sentence`` on ``line``: a value a sentence states
        twice ("83.6 / 65.4 / 76.9, overall 76.9 tok/s": a prompt's rate and the overall one) is
        two claims, where a later sentence repeating it cites the first."""
        c = self.claims.get(cid)  # an index: ``Drafted.claim`` scans every entry
        return c is not None and c.fields.get("source_line") == line and c.fields.get("quote") == sentence

    def inline_commands(self, line: int, text: str) -> str:
        """``text`` with each command line written inline (`` `llama-server -m x.gguf -ngl 99` ``)
        taken as the command for what follows and blanked out (same length: offsets stay)."""

        def take_bare(m: re.Match) -> str:
            found = command_lines([(line, m.group(0).strip())])
            if not found:
                return m.group(0)
            self.command, self.command_tool = found[-1].conditions, found[-1].tool
            return " " * len(m.group(0))

        def take(m: re.Match) -> str:
            found = command_lines([(line, m.group(1))])
            if not found:
                # flags without a tool (`-md small-0.5B-Q8_0.gguf --draft-max 16`): the section's
                # settings (``draftcontext``); a model file of a flag is no model the prose names
                return " " * len(m.group(0)) if FLAGS_ONLY.match(m.group(1)) else m.group(0)
            self.command, self.command_tool = found[-1].conditions, found[-1].tool
            return " " * len(m.group(0))

        text = re.sub(r"`([^`]+)`", take, text)
        return _PROSE_COMMAND.sub(take_bare, text) if "-" in text else text

    def label_spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` names a condition with a number (``NAMED_CONDITION``)."""
        return [(m.start("n"), m.end("n")) for m in NAMED_CONDITION.finditer(text)]

    def rate_of_counts(
        self, n: Number, placed: list[tuple[Number, str]], text: str, line: int, sentence: str
    ) -> str | None:
        """The acceptance rate claim that counts "k of n" or "k/n" (``n``) are of, given its counts:
        the claim drafted last in the sentence (within ``_COUNTS_NEAR`` characters before them:
        "Acceptance aggregate 0.69 (1860/2696 from server logs)"), of metric ``acceptance_rate``,
        with no counts yet, whose value they give (``_counts_fit``); None where there is none."""
        if not placed or n.of is None:
            return None
        before, cid = placed[-1]
        entry = self.claims.get(cid)
        if (
            entry is None
            or n.start - before.end > _COUNTS_NEAR
            or entry.fields.get("metric") != "acceptance_rate"
            or "counts" in entry.fields
            or not self.same_sentence(cid, line, sentence)
            or re.search(r"[.;!?]\s", text[before.end : n.start])
        ):
            return None
        accepted, drafted = int(float(n.text)), int(float(n.of))
        if not 0 <= accepted <= drafted or not drafted or not _counts_fit(before, accepted, drafted):
            return None
        entry.fields["counts"] = {"accepted": accepted, "drafted": drafted}
        return cid

    def count_claim(
        self, n: Number, text: str, line: int, sentence: str, phrase: tuple[int, int, int, int] | None = None
    ) -> str:
        """A claim of counts with no rate stated beside them: "k of n" (``n`` with ``of``) or an
        acceptance phrase (``phrase``: ``draftwords.accept_counts``'s start, end, accepted, drafted):
        ``acceptance_rate`` with ``counts: {accepted, drafted}`` where "accept" is near, else a
        ``proportion`` with ``{successes, trials}``."""
        window = text[max(0, n.start - 60) : n.end + 40].lower()
        accepted = phrase is not None or re.search(r"accept|수락", window)
        if phrase is not None:
            counts = {"accepted": phrase[2], "drafted": phrase[3]}
        elif accepted:
            counts = {"accepted": int(float(n.text)), "drafted": int(float(n.of or 1))}
        else:
            counts = {"successes": int(float(n.text)), "trials": int(float(n.of or 1))}
        fields = {
            "metric": "acceptance_rate" if accepted else "proportion",
            "statement": text[phrase[0] : phrase[1]] if phrase else text[n.start : n.end],
            "counts": counts,
        }
        cond = self.conditions()
        if cond:
            fields["conditions"] = cond
        fields.update(source_fields(line, sentence))
        return self.add_claim(fields, f"count-l{line}")

    def maybe_log(self, cid: str, metric: str) -> None:
        """Name the log excerpt right before this paragraph on the first claim of each metric the
        excerpt states (``log_metrics``)."""
        entry = self.claims.get(cid)
        if entry is None or not self.pending_log or metric not in self.log_metrics:
            return
        if _ANOTHER_RUN.search(str(entry.fields.get("quote") or "")):
            return  # "Also on the other box: 55 t/s." under a log: another run's number, not the log's
        self.log_metrics.discard(metric)
        entry.fields.setdefault("log", self.pending_log)

    def rate_lines(self, lines: list[tuple[int, str]], skip: set[int]) -> None:
        """Lines of program output stating "N tokens in T s ... R t/s" (``RATE_LINE``:
        llama-speculative's "decoded 202 tokens in 2.533 seconds, speed: 79.745 t/s") drafted as
        prose, each line alone: the tokens, the time and the rate, and the rate as their ratio."""
        for n, t in lines:
            if n not in skip and RATE_LINE.search(t):
                self.prose([(n, t)])

    def tokens_over_time(
        self, placed: list[tuple[Number, str]], text: str, line_of, bounds: list[int] | None = None
    ) -> None:
        """ "N tokens in T s (R t/s)": the rate R is stated as N ÷ T, a ratio statement of the two
        claims (tokens, then the time), in R's unit; so is a list of the three in any order ("35.44
        seconds, 150 tokens, 4.23 tokens/second") where R is N ÷ T give or take a quarter (``_LISTED_FAR``:
        a list may also hold three unrelated figures); ``bounds``: ``sentence_bounds(text)``."""
        for k in range(len(placed) - 2):
            three = placed[k : k + 3]
            kinds = (three[0][0].unit, family(three[1][0].unit), family(three[2][0].unit))
            if kinds == ("tokens", "time", "rate"):
                (nt, ct), (ns, cs), (nr, cr) = three
                # ("N tokens in T s", or an arrow between: "256 tokens → 3.14 s = ~81 tokens/s")
                if not _TOKENS_TO_TIME.fullmatch(text[nt.end : ns.start]) or nr.start - ns.end > 40:
                    continue
            else:
                listed = _listed_rate(three, text)
                if listed is None:
                    continue
                (nt, ct), (ns, cs), (nr, cr) = listed
            if nr.range is not None or ns.unit != "s":
                continue  # a time in ms does not divide to the rate's unit: left to the reader
            line = line_of(nr.start)
            sid = self.new_id(f"s-l{line}")
            fields = {
                "kind": "ratio",
                "statement": text[min(nt.start, ns.start) : nr.end],
                "of": [ct, cs],
                "value": Num(nr.text),
                "unit": nr.unit,
                **source_fields(line, _sentence(text, nr.start, bounds)),
            }
            self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))


#: what joins a count of tokens to the time they took: "in", or an arrow ("256 tokens → 3.14 s")
_TOKENS_TO_TIME = re.compile(r"\s+in\s+|\s*(?:→|->|=>|⟶|⇒)\s*")
#: a list item's line as written ("- x", "* x", "1. x")
_LIST_ITEM_LINE = re.compile(r"\s*(?:[-*+•]|\d{1,2}[.)])\s")
#: the names a list's items give one each (``_list_names``)
_LIST_PATHS = ("model", "quant")


def _drafting_count(remark: str) -> bool:
    """Whether a number's remark in parentheses sets a drafting count ("K=3", "draft-max 8",
    ``NAMED_CONDITION`` of ``block_max``)."""
    return any(
        LABELS.get(label_key(m.group("label")), ("", ""))[0] == "block_max"
        for m in NAMED_CONDITION.finditer(remark)
    )


def _run_index(text: str) -> int | None:
    """The run a line's leading label names ("- Run 3: 144.3 tok/s", "2nd try: 41 t/s":
    ``draftcontext.run_label``), else None."""
    head = re.match(r"[^:：\n]{1,60}[:：]", text)
    return run_label(head.group(0)) if head is not None else None

"""Statements and their sides: a relating phrase ("2.1× faster", "drops 11%", "from 30 to 45 tok/s")
-> a statement citing the claims it relates, or a ``todo`` statement with the candidates.

* ``relation``: a phrase found by ``draftrelations.relations`` -> the statement; its own number is a
  claim too where it states one (``share_claim``: "+30%", ``change_claim``: "from X to Y",
  ``multiple_claim``: "2×"); a number that restates one drafted before cites it (``restated``);
* finding the sides: in the phrase's clause and sentence (``sides_in_scope``, ``_from_subject``,
  ``_pick``: the pair whose ratio best matches the stated one), by the conditions that differ
  (``sides_by_condition``), by the words after the phrase (``scored``, ``named_by``,
  ``candidates``: among the last ``_REACH`` claims);
* other statements: a mean of claims (``mean_statement``), a bound ("up to", "at least":
  ``bound_statement``).

Where it sits: on ``draftcore`` (``Sides`` extends ``DraftCore``); ``drafttable`` and
``draftsentences`` build on it and ``draft`` runs it; it imports neither.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .draftbyvalue import MAX_WIDTH, NAMED_WIDTH, decimals_of, first_repeat, fitting_pair, mean_run
from .draftcore import (
    AND_SEP,
    METRIC_WORDS_OF,
    QUOTE,
    DraftCore,
    Entry,
    Num,
    in_own_aside,
    merged,
    number_fields,
    origin_at,
    others_conditions,
    plain_value,
    sentence_at,
    source_fields,
    stateable,
    word_set,
)
from .draftnames import DECODING_PHRASE, mentions
from .draftprose import Number, bound_of, family, hypothetical, metric_of, number_text
from .units import UnitError, factor

#: a word saying a number is the mean of others ("a 89.76 tok/s average", "averaged", "on average",
#: "mean", "avg", 平均, 평균, Durchschnitt, moyenne, promedio)
_MEAN = re.compile(
    r"\baverag\w*|\bmean\b|\bavg\b|平均|평균|durchschnitt\w*|mittelwert\w*|\bim\s+mittel\b|moyenne|promedio",
    re.IGNORECASE,
)
#: a list item's line ("- TTFT: 34.8 ms", "* E2E …", "1. …")
_LIST_ITEM = re.compile(r"\s*(?:[-*+•]|\d+[.)])\s")
#: words that make a relating phrase one about speed: its sides are rates
_SPEED = re.compile(
    r"faster|slower|quicker|speed|schneller|langsamer|rapide|lent|rápido|lento|速|快|慢|빠|느|遅",
    re.IGNORECASE,
)
#: a speed word right after a percentage ("8% slower", "12 % faster"): of a time, its sign is the other
_SPEED_WORD_AFTER = re.compile(r"\s*%?\s*(?:faster|slower|quicker)\b", re.IGNORECASE)
#: what ends a clause around a relating phrase (``Sides._clause_of``)
_CLAUSE_CUT = re.compile(
    r"[,;:()\[\]]\s|[()\[\]，、；：（）]|[,;:](?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])|\s[—–]\s|\bbut\b|\band\b(?=\s+[~≈]?\d)"
)
#: every offset where a ``_CLAUSE_CUT`` starts (overlapping ones too: ``re.search``'s answer from any
#: offset is the first of them at or after it)
_CLAUSE_CUT_AT = re.compile(rf"(?=(?:{_CLAUSE_CUT.pattern}))")
#: words that may open a clause before a relating phrase ("a", "just", "about", "~"; ``sides_in_scope``)
_OPENS = re.compile(r"\W*(?:(?:a|an|the|just|only|about|around|roughly|nearly|almost|some|~|≈)\W*)*")
#: a time said to be longer or shorter ("total generation time is 2x longer", "2x shorter wall
#: time"): the sides are times, not the rates of the phase the clause names
_LONGER = re.compile(r"\btimes?\b.{0,30}\b(?:longer|shorter)\b|\b(?:longer|shorter)\b.{0,30}\btimes?\b", re.I)
#: a pair of numbers with no unit joined by an arrow right before a change ("41.3 -> 63.5 (+54%)"):
#: the rates a table below states (``Sides.later_sides``)
_BARE_PAIR = re.compile(
    r"(?<![\w.])(?P<a>\d[\d,]*(?:\.\d+)?)\s*(?:→|-->|->)\s*(?P<b>\d[\d,]*(?:\.\d+)?)\s*[(,]\s*[+]?$"
)
#: how far before a relating phrase its subject's words are read (as a number's label is read)
_SUBJECT_WINDOW = 256
#: the most numbers of its sentence a todo statement lists as candidates (the nearest to its phrase)
_CANDIDATES = 12
#: words every claim of a metric shares (its name, its unit's words): they name no side
_GENERIC = frozenset(
    " ".join(METRIC_WORDS_OF.values()).split()
    + "decode prefill tps rate speed throughput tok t/s tokens faster slower".split()
)
#: how far (relative, as multiples) the only pair's values may be from a stated value and still be
#: its sides: posts round loosely ("doubles" for 1.86×: 7%), never by a quarter
_FAR = 0.25
#: a multiple's words relating two arms ("2x slower than SGLang", "vs vLLM", "1.63x speedup"), not
#: an expectation ("than expected", "than it should", "than before")
#: how many lines below a multiple its table's rows may be (``row_pair``)
_ROW_REACH = 80
_AGAINST_NAMED = re.compile(r"(?i)\b(?:than|vs\.?|versus|compared\s+(?:to|with)|speed-?ups?|faster|slower)\b")
_AGAINST_EXPECTED = re.compile(
    r"(?i)\bthan\s+(?:expected|it\s+should|advertised|normal|usual|before|previously|what)\b"
)
#: the words joining two numbers as the sides of a comparison ("24.8 vs 15.2 t/s")
JOINED = re.compile(
    r"\b(?:vs\.?|versus|v\.s\.|against|compared\s+(?:to|with)|statt|anstatt|instead\s+of|rather\s+than)(?!\w)"
    r"|对比|对",
    re.I,
)
#: a word opening a contrasting clause: what follows it is another comparison's
_CONTRAST = r"\b(?:but|while|whilst|whereas|although|though|however|yet)\b"
#: what parts a relating phrase from a pair of another clause: "but", "while", a bracket
_OTHER_CLAUSE = re.compile(rf"{_CONTRAST}|[()（）\[\]]", re.I)
#: a comparison normalised per device, power or money ("2x faster per GPU", "Per GPU, … 2x"): not
#: of the raw numbers
_PER_UNIT = re.compile(
    r"\W*(?:\w+\W+){0,2}?per\s+(?:gpu|card|device|node|chip|watt|w|dollar|\$|user|socket)\b|"
    r"\bper\s+(?:gpu|card|device|node|chip|watt|dollar|user|socket)\b",
    re.I,
)
#: the comparison word right after a multiple or change ("2.5x faster", "30 % less", "2x speedup")
_WORD_AFTER = re.compile(r"\s*(?:x|×|times|%)?\s*(?:as\s+)?(?P<w>[^\W\d_]+(?:-[^\W\d_]+)?)")
#: per family of the sides, the comparison words that say the multiple is of them: a rate is faster,
#: slower or sped up, a time lower or longer, a size smaller or more
_PAIR_WORDS = {
    "rate": r"faster|slower|quicker|fast|quick|slow|speed-?up|speedup|schneller|langsamer|быстрее|медленнее",
    "time": r"faster|slower|quicker|fast|slow|lower|higher|shorter|longer|long|less|more|reduction|increase",
    "size": r"less|more|much|smaller|larger|bigger|big|large|lower|higher|reduction|increase",
}


def _says_pair(text: str, n: Number, fam: str | None) -> bool:
    """Whether the relating phrase at ``n`` says its multiple or change is of a pair in family
    ``fam`` (``_PAIR_WORDS``: "2.5x faster" of rates, "2x less" of sizes; "a speedup of 2.5x" too),
    not of another quantity ("4x more GPUs", "3x cheaper per token", "Context 4x longer" beside two
    rates)."""
    words = _PAIR_WORDS.get(fam or "")
    if words is None:
        return False
    m = _WORD_AFTER.match(text, n.end)
    if m is not None and re.fullmatch(words, m.group("w"), re.I):
        return True
    if re.search(rf"\b(?:{words})\b", n.unit_written or "", re.I):
        return True  # "twice as fast", "2,5-mal schneller": the phrase read as the multiple
    return (
        fam == "rate"
        and re.search(r"speed-?\s?up|speedup", text[max(0, n.start - 30) : n.start], re.I) is not None
    )


#: how many of the claims drafted last a relating phrase's other side is looked for among
_REACH = 400


def _side_names(text: str) -> set[str]:
    """The words of ``text`` that may name one side of a comparison: no metric's or unit's words
    (``_GENERIC``), no numbers."""
    return {w for w in word_set(text) - _GENERIC if not re.fullmatch(r"[\d.]+", w)}


#: the words right before a number that restate one already given: "not the 15× headline", "that
#: 2x figure"
_RESTATED = re.compile(
    r"\b(?:the|that|this|those|these|its|their)\s+(?:same\s+|quoted\s+|claimed\s+)?$", re.I
)


#: words naming a rate's phase: prompt processing (prefill) or token generation (decode); a
#: method's name ("speculative decoding") names neither
_PHASE_WORDS = {
    "prefill_tps": re.compile(
        r"\b(?:prompt(?:\s+(?:processing|eval\w*|ingestion))?|prefill\w*|pp\d*|pp\s?/\s?s|pre-?fill)\b"
        r"|预填充|提示词?处理|プリフィル",
        re.I,
    ),
    "decode_tps": re.compile(
        r"\b(?:(?:token\s+)?generation|generating|generierung|textgenerierung|geração|generación|"
        r"génération|генераци\w*|tg\d*|"
        r"decod(?:e|ing)\s+(?:speed|rate|throughput)|"
        r"(?<!speculative\s)(?<!self-speculative\s)decod(?:e|ing)|output\s+(?:speed|rate))\b"
        r"|(?<!推测)(?:生成|解码)(?:速度|速率)",
        re.I,
    ),
}


#: where coordinated clauses meet ("…, and …", "… while …", "… und …", "…；…")
_COORDINATED = re.compile(r"\s(?:and|while|whereas|but|und|aber|während|и|а)\s|[;；，]\s*|,\s+(?=\D)")


def rate_named(words: str, at: int | None = None) -> str | None:
    """The rate metric (``prefill_tps`` or ``decode_tps``) that ``words`` name by its phase
    ("prompt processing", "PP", "prefill", 预填充; "generation", "TG", "decode", 生成速度), None
    when they name neither.  With ``at`` (the offset of the stated number in ``words``) the phase its own
    coordinated clause names nearest it (``_COORDINATED``), else the phase named nearest before it,
    else the first after it ("PP is 28% faster while generation gained ~6%": prefill,
    then decode); without, None when they name both.  "speculative decoding" is a method, not the
    decode phase."""
    hits = sorted((m.start(), metric) for metric, pat in _PHASE_WORDS.items() for m in pat.finditer(words))
    if at is not None:
        # the phase of the number's own coordinated clause first, on either side ("11% faster at
        # generation and 25% faster at the prompt": each its own; ``_COORDINATED`` splits them)
        lo = max([0, *(m.end() for m in _COORDINATED.finditer(words, 0, at))])
        hi = min([len(words), *(m.start() for m in _COORDINATED.finditer(words, at))])
        own = [(abs(start - at), metric) for start, metric in hits if lo <= start < hi]
        if own:
            return min(own)[1]
        before = [metric for start, metric in hits if start < at]
        after = [metric for start, metric in hits if start >= at]
        return before[-1] if before else after[0] if after else None
    named = {metric for _, metric in hits}
    return named.pop() if len(named) == 1 else None


def _factor(unit: str | None, to: str | None) -> float:
    """``units.factor`` (970 MB in GB: 0.97), 1 where the units are not of one known quantity."""
    try:
        return factor(unit, to)
    except UnitError:
        return 1.0


def _mid(n: Number) -> float:
    """The middle of a drafted number (a range's midpoint)."""
    if n.range is not None:
        return (float(n.range[0]) + float(n.range[1])) / 2
    return float(n.text)


def _multiple(n: Number) -> float:
    """A stated ratio as a multiple: "57%" -> 0.57, "2.1×" -> 2.1."""
    return _mid(n) / 100 if n.unit == "%" else _mid(n)


#: "speculative decoding" names a method, not the decode phase (``_change_metric``)
_SPEC_DECODING = re.compile(r"speculative\s+decoding|推测解码|投機的デコーディング")
#: what a change of no rate is of, by the words of its clause: TPOT, TTFT, latency, memory
_CHANGE_OF = [
    # (ASCII bounds: "MacのTTFTが30%改善", the letters beside Japanese ones)
    (r"(?<![a-z])tpot(?![a-z])|time per output token", "tpot_change"),
    (r"(?<![a-z])ttft(?![a-z])|time to first|first token|首字|首个?token", "ttft_change"),
    (r"latency|延迟|遅延|レイテンシ|지연|задержк", "latency_change"),
    # (a bandwidth before a memory: "メモリバンド幅を20%向上", "memory bandwidth up 20%")
    (r"bandwidth|バンド幅|帯域|带宽|帶寬|대역폭|пропускн", "memory_bandwidth_change"),
    (r"\bmemory|\bvram\b|\bram\b|内存|显存|メモリ|메모리|памят", "memory_change"),
]


#: words of a percent change that say it is one of speed (``_change_metric``), in any language
_CHANGE_SPEED = (
    r"fast|slow|speed|throughput|rate|outperform|\bbeat|performance|advantage|rápid|rapide|\blent[oa]?s?\b|"
    r"schnell|langsam|быстр|медлен|성능|性能|速|遅|快|慢|领先|优|スループット|처리량"
)


def _change_metric(clause: str, sentence: str, at: int) -> str:
    """The metric of a percent change whose sides are not stated (``Sides.change_claim``), from the
    phase its ``clause`` names nearest the number at offset ``at`` (``rate_named``: "PP +28% while
    generation gained ~6%"), else the words of its ``clause`` (a clause of no speed naming TPOT,
    TTFT, latency or memory: ``_CHANGE_OF``), else of its ``sentence``."""
    phase = rate_named(clause, at)
    if phase is not None:
        return "prefill_change" if phase == "prefill_tps" else "decode_change"
    # "speculative decoding can speed up inference by 50-80%": a method, no phase
    words = _SPEC_DECODING.sub(" ", clause.lower())
    speed = _CHANGE_SPEED
    if not re.search(speed, words):
        for pattern, metric in _CHANGE_OF:
            if re.search(pattern, words):
                return metric  # "内存占用减少65%", "推理延迟…降低50%", "40% lower TPOT"
    if not re.search(rf"prefill|prompt|\bpp|decod|generat|\btg|output|{speed}", words):
        words = _SPEC_DECODING.sub(" ", sentence.lower())  # "Rates 40.1 / 41.3 tok/s, +12% over last week"
    if re.search(r"prefill|prompt|\bpp\b|pp\d", words):
        return "prefill_change"
    if re.search(r"decod|generat|\btg\b|tg\d", words):
        return "decode_change"
    if re.search(r"throughput|吞吐|スループット|처리량", words):
        # "~60% higher throughput", "output throughput +12%" (SOURCES.md's convention: a serving
        # benchmark's output token throughput is ``throughput``)
        return "throughput_change"
    if re.search(r"output", words):
        return "decode_change"
    if re.search(rf"{_CHANGE_SPEED}|t/s|tok/s", words):
        # "10%程度高速化", "15%程度遅くなった", "略优 4–5%", "outperforms (+25%)", "9% mais rápido",
        # "12% 的性能提升", "beat vLLM by 21%", "a 45% performance advantage"
        return "speed_change"
    return "change"


def _said_of_speed(rel, text: str) -> bool:
    """Whether a change is said with a speed word and no sign written ("8% slower", "40% faster";
    "+11.17% slower": the sign written stands): of two times, its sign is the other way round (a
    faster time is a lower one)."""
    n = rel.number
    return (
        rel.kind == "percent_change"
        and _SPEED_WORD_AFTER.match(text, n.end) is not None
        and not re.search(r"[+\-−]\s*$", text[max(0, n.start - 2) : n.start])
        and text[n.start : n.start + 1] not in "+-−"
    )


def _signed_value(rel) -> float | None:
    """The value a relating phrase states, signed as the phrase says ("12% slower": -12; a minus
    sign "−" read as "-"); None when its digits are no plain number (a range, "2–3×")."""
    value = plain_value(rel.number.text.replace("−", "-"))
    if value is not None and rel.kind == "percent_change" and rel.sign < 0 and value > 0:
        return -value
    return value


def _gap(text: str, n: Number, a: Number, b: Number, s0: int = 0) -> str:
    """The words between the phrase's number ``n`` and the nearer end of the pair ``a``, ``b`` (the
    pair after it or before it; a phrase between the two: none); a pair before it, from the start of
    its sentence ``s0`` ("While TTFT was 210 ms vs 180 ms, decode is 1.3x faster": the pair's own
    clause opens with the contrast)."""
    if n.end <= a.start:
        return text[n.end : a.start]
    if b.end > n.start:
        return ""
    after = text[b.end : n.start]
    if not re.search(r"[,;]", after):
        return after  # "But MTPLX prefill collapses: 115.5 vs 231.7 tok/s (50% slower)": one clause
    # the pair's clause from its sentence's start, a word opening the sentence left out ("But …",
    # "However, …": against the sentence before)
    return re.sub(r"^\W*(?:but|however|yet)\b", "", text[s0 : a.start], flags=re.I) + " " + after


def _ends_with(pattern: re.Pattern, text: str, end: int) -> bool:
    """Whether ``pattern``, anchored at its end (``$``) and spanning at most two words of up to 16
    characters and the spaces after each (``_RESTATED``: "the same "), matches ``text[:end]``:
    searched from two words before ``end``, not from the start (per number of a long sentence that
    was quadratic); ``\\b`` still sees the character before where the search starts."""
    i = end
    for _ in range(2):
        while i > 0 and text[i - 1].isspace():
            i -= 1
        k = max(0, i - 16)
        while i > k and not text[i - 1].isspace():
            i -= 1
    return pattern.search(text, max(0, i - 16), end) is not None


class Placed(list):
    """The numbers a paragraph placed, ``(Number, claim id)`` in text order, indexed for its relating
    phrases (``Sides.relation``): those starting in a sentence or clause found by bisection, a
    number's claim by the number, each claim's last place, and the measured numbers (no ratio or
    multiple) and the rates apart.  Each phrase read every placed number of its paragraph, quadratic
    in a paragraph of many phrases and numbers.  Not changed once built."""

    def __init__(self, items: list[tuple[Number, str]]):
        super().__init__(items)
        self.starts = [m.start for m, _ in self]
        self.ordered = all(a <= b for a, b in zip(self.starts, self.starts[1:], strict=False))
        self.ids = {id(m): cid for m, cid in self}  # a number's claim
        self.last: dict[str, int] = {}  # a claim's last place
        for m, cid in self:
            self.last[cid] = max(self.last.get(cid, -1), m.start)
        self._kinds: dict[str, Placed] = {}

    def measured(self) -> Placed:
        """Those whose unit is no ratio or multiple (and that have one)."""
        if "measured" not in self._kinds:
            self._kinds["measured"] = Placed(
                [(m, c) for m, c in self if family(m.unit) not in ("ratio", "multiple", None)]
            )
        return self._kinds["measured"]

    def rates(self) -> Placed:
        """Those whose unit is a rate."""
        if "rates" not in self._kinds:
            self._kinds["rates"] = Placed([(m, c) for m, c in self if family(m.unit) == "rate"])
        return self._kinds["rates"]

    def of_family(self, fam: str | None) -> Placed:
        """Those whose unit is of the family ``fam`` (``draftprose.family``: "size", "time"...)."""
        key = f"family {fam}"
        if key not in self._kinds:
            self._kinds[key] = Placed([(m, c) for m, c in self if family(m.unit) == fam])
        return self._kinds[key]

    def times(self) -> Placed:
        """Those whose unit is a time."""
        if "times" not in self._kinds:
            self._kinds["times"] = Placed([(m, c) for m, c in self if family(m.unit) == "time"])
        return self._kinds["times"]

    def _span(self, lo: int, hi: int) -> tuple[int, int]:
        return bisect.bisect_left(self.starts, lo), bisect.bisect_left(self.starts, hi)

    def within(self, lo: int, hi: int) -> list[tuple[Number, str]]:
        """Those starting at ``lo`` up to ``hi``, in order."""
        if not self.ordered:
            return [(m, c) for m, c in self if lo <= m.start < hi]
        a, b = self._span(lo, hi)
        return self[a:b]

    def how_many(self, lo: int, hi: int) -> int:
        """How many start at ``lo`` up to ``hi``."""
        if not self.ordered:
            return len(self.within(lo, hi))
        a, b = self._span(lo, hi)
        return b - a

    def last_in(self, lo: int, hi: int) -> tuple[Number, str] | None:
        """The last (in order) of those starting at ``lo`` up to ``hi``."""
        if not self.ordered:
            return next(reversed(self.within(lo, hi)), None)
        a, b = self._span(lo, hi)
        return self[b - 1] if b > a else None

    def last_before(self, lo: int, hi: int, at: int) -> tuple[Number, str] | None:
        """The last (in order) of those starting at ``lo`` up to ``hi`` that ends by ``at``."""
        if not self.ordered:
            return next((x for x in reversed(self.within(lo, hi)) if x[0].end <= at), None)
        a, b = self._span(lo, hi)
        k = min(b, bisect.bisect_right(self.starts, at)) - 1  # later ones start after ``at``
        while k >= a and self[k][0].end > at:
            k -= 1
        return self[k] if k >= a else None

    def nearest(self, lo: int, hi: int, at: int, most: int) -> list[tuple[Number, str]]:
        """Those starting at ``lo`` up to ``hi``, in order: all where at most ``most``, else the
        ``most`` nearest to offset ``at`` (the earlier on a tie)."""
        if self.how_many(lo, hi) <= most:
            return self.within(lo, hi)
        if not self.ordered:
            near = sorted(self.within(lo, hi), key=lambda x: abs(x[0].start - at))[:most]
            return [x for x in self if x in near]
        a, b = self._span(lo, hi)
        j = min(max(bisect.bisect_left(self.starts, at), a), b)
        i = j
        while j - i < most:  # widen towards the nearer side
            if i > a and (j >= b or at - self.starts[i - 1] <= self.starts[j] - at):
                i -= 1
            else:
                j += 1
        return self[i:j]


#: words that make a multiple or change a requirement or advice, not a measured change: "rule of
#: thumb", "we recommend", "you need a draft that is 5x faster", "should be", "ideally", "at
#: minimum" (other languages too: 经验法则, 建议, 推荐, 应该, 目安, 推奨, べき, 권장, Faustregel,
#: empfohlen, sollte, рекомендуется)
_ADVICE = re.compile(
    r"\b(?:rules? of thumb|recommend\w*|guidelines?|ideally|aim (?:for|at)|at minimum|"
    r"you (?:need|want|should)|(?:needs?|has|have|ought) to be|should be|must be|make sure|"
    r"require[sd]?|requirements?)\b|经验法则|建议|推荐|应该|应当|目安|推奨|べき|권장|Faustregel|"
    r"empfohlen|empfehl\w*|sollte|рекоменд\w*|следует",
    re.IGNORECASE,
)
#: words of an expectation before a multiple or change: "we expect roughly a 2x speedup", "should
#: give ~30% more", "could reach 3x", "hoping for 2x", "projected +40%" (not "as expected" or "than
#: expected": those follow a measurement): no measured sides either
_EXPECT = re.compile(
    r"(?<!\bas )(?<!\bthan )\bexpect(?:s|ed|ing)?\b|\banticipat\w*|\bhop(?:e|es|ed|ing) (?:for|to)\b|"
    r"\bprojected\b|\bpredict\w*|\b(?:should|could|would|might|may) (?:give|get|bring|reach|see|yield|"
    r"deliver|be)\b|erwart\w*|ожида\w*|预计|预期|見込|期待",
    re.IGNORECASE,
)
#: a threshold word right after a multiple: "a 2.5× min draft/target ratio", "3x minimum"
_ADVICE_AFTER = re.compile(r"\s*(?:min(?:imum)?|max(?:imum)?|target)\b", re.IGNORECASE)


#: what stands between a margin's percentage and the limit it gives: "+ 15% margin (50.9 ms)"
_MARGIN = re.compile(r"\s*(?:margin|tolerance|slack|headroom|buffer|allowance)?\s*[(:=]?\s*", re.IGNORECASE)
#: "than" in a bound before a number ("more than 70%", "no less than 2x"), not naming a side
_BOUND_THAN = re.compile(
    r"\b(?:no\s+)?(?:more|less|fewer|greater|higher|lower|better|worse)\s+than(?=\s*[~≈]?\s*\d)", re.I
)


#: a label a sentence opens with ("Rule of thumb:")
_LABEL = re.compile(r"[^:.!?]{1,40}:")


def _advice(text: str, n: Number, lo: int, s0: int) -> bool:
    """Whether the multiple or change ``n`` (in the clause starting at ``lo`` of a sentence starting
    at ``s0``) is a requirement or advice (``_ADVICE`` in its clause before it, or in a label the
    sentence opens with: "Rule of thumb: keep a 2.5× ratio"; within ``_SUBJECT_WINDOW`` characters:
    the whole clause before each phrase was quadratic in a long clause; ``_ADVICE_AFTER`` right after it),
    or an expectation (``_EXPECT``: "we expect a 2x speedup"): no measured sides, so no statement and
    no claim of a change."""
    label = _LABEL.match(text, s0, lo)  # not text[s0:lo], nor the whole clause before it: per phrase
    before = text[max(lo, n.start - _SUBJECT_WINDOW) : n.start] + (" " + label.group(0) if label else "")
    return bool(_ADVICE.search(before) or _EXPECT.search(before) or _ADVICE_AFTER.match(text, n.end))


def _ratio_text(value: float, text: str) -> str:
    """``value`` (a ratio from a percentage: 1 - 0.70) as a claims file writes it: no float noise
    ("0.3", "1.15"); the digits of ``text`` where it states them."""
    for m in re.finditer(r"\d+(?:\.\d+)?", text):
        if abs(float(m.group(0)) - value) < 1e-9:
            return m.group(0)
    return repr(float(value))


#: how far from a relation's number, in characters, ``Sides.phrase_claim`` weighs a name of its
#: sentence as the number's own (the reach of ``DraftCore.named_conditions``)
_NAME_REACH = 80


class Sides(DraftCore):
    """The drafter's statements: relating phrases, means and bounds, and the claims they cite."""

    # --- relations ----------------------------------------------------------------------------
    def relation(self, rel, text: str, line: int, placed: Placed, bounds: list[int] | None = None) -> None:
        n = rel.number
        self.phrase_line = line
        if n.text.startswith("+"):
            n = replace(n, text=n.text[1:])  # "+1,134 MiB": the sign is the direction, stated apart
        s0, sentence = sentence_at(text, n.start, bounds)
        if hypothetical(sentence):  # "Could it be 2x faster with a draft?": no change measured
            self.out.unplaced.append((line, n.text, sentence[:300]))
            return
        # "15–25% slower than ROCm on every model (A 120 vs 150 tok/s; B 80 vs 98 tok/s)": a range
        # over the pairs its sentence states is a todo listing them, as a gain's range is
        over_pairs = n.range is not None and rel.sign < 0 and self._pairs_stated(n, s0, sentence, placed)
        if stateable(n) and n.range is not None and rel.sign < 0 and rel.kind == "ratio" and not over_pairs:
            self.multiple_claim(n, rel.sign, s0, sentence, line, rel.other)  # "5–14x regression": slowdown
            return
        if not stateable(n):
            self.out.unplaced.append((line, n.text, sentence[:300]))
            return
        if n.range is not None and rel.sign < 0 and not over_pairs:  # "3.6–4.5% lower": no sides stated
            if rel.kind == "percent_change":
                self.change_claim(rel, text, s0, sentence, line)
            else:
                self.out.unplaced.append((line, n.text, sentence[:300]))
            return
        if rel.pair is None and _advice(text, n, self._clause_of(text, n.start, s0, sentence)[0], s0):
            # "Rule of thumb: keep a 2.5× min draft/target ratio", "we recommend at least 3x faster
            # drafts": a requirement, no measured change: listed, neither a statement nor a claim
            self.out.unplaced.append((line, n.text, sentence[:300]))
            return
        if self.mean_of_multiples(rel, text, s0, sentence, line):
            return  # "On average that's a 1.6x speedup" after a table's per-row multiples
        bound = (
            bound_of(text, n)
            if rel.kind in ("ratio", "percent_change") and rel.pair is None and n.range is None
            else None
        )
        if bound is None and n.range is None and self.restated(rel, text, s0, sentence, line, placed):
            return
        # "23% slower for the 35B MoE on 16GB", "2× slower on workloads above 1000 tokens": a phrase
        # about speed relates rates, not the sizes or token counts beside it
        lo_c, hi_c = self._clause_of(text, n.start, s0, sentence)
        self.rates_only = self._once(
            text, ("speed", lo_c, hi_c), lambda: bool(_SPEED.search(text, lo_c, hi_c))
        )
        if self.rates_only and rel.pair is None:  # "speed up of 4141 ms / 1640 ms = 2.5x": its pair
            s_end = s0 + len(sentence)
            if not placed.rates().how_many(s0, s_end) and placed.times().how_many(s0, s_end) == 2:
                # "Ollama 47s P95 latency | vLLM 8s P95 · ×6 faster": a sentence of two times and no
                # rate says which is faster by its times
                placed = placed.times()
            else:
                placed = placed.rates()
        if rel.kind == "difference" and rel.pair is None:
            # "1.2 GB more VRAM": a difference of two sizes, whatever rates its sentence states
            placed = placed.of_family(family(n.unit))
        # the measured numbers of its sentence: how many, and the nearest (a todo lists them)
        measured, s_end = placed.measured(), s0 + len(sentence)
        n_in = measured.how_many(s0, s_end)
        in_sentence = measured.nearest(s0, s_end, n.start, _CANDIDATES)
        fams = {family(m.unit) for m, _ in in_sentence}
        if len(fams) > 1:
            # "…: 382.29 s … 224.20 s  Speedup: 1.71×  Average acceptance length: 2.44" (a list of
            # labelled lines read as one sentence): what follows the phrase in another unit is none
            # of its sides
            lead = {family(m.unit) for m, _ in in_sentence if m.end <= n.start}
            if len(lead) == 1:
                in_sentence = [(m, cid) for m, cid in in_sentence if family(m.unit) in lead]
                fams = lead
                if n_in <= _CANDIDATES:  # all of them were in the list (more: the nearest only)
                    n_in = len(in_sentence)
        sides: list[str] | None = None
        ordered_by_value = False
        by_number = placed.ids
        note: str | None = None
        if rel.pair is not None and id(rel.pair[0]) in by_number and id(rel.pair[1]) in by_number:
            sides = [by_number[id(rel.pair[0])], by_number[id(rel.pair[1])]]  # from A to B
            if rel.kind == "difference":
                sides.reverse()  # "20,366 MiB / 21,500 MiB (+1,134 MiB)": the second less the first
        elif (
            n_in == 2
            and len(fams) == 1
            and re.search(r"→|->", text[in_sentence[0][0].end : in_sentence[1][0].start])
        ):
            # "3.3GB → 970MB, 70% less": from the first to the second, whatever their values
            (_, a), (_, b) = in_sentence
            sides = [a, b] if rel.kind == "percent_change" else [b, a]
        elif (
            n_in == 2
            and len(fams) == 1
            # "48.7 t/s for pp512 and 10.4 t/s for tg128, so PP is 28% faster": a prefill and a
            # decode rate are no two sides of one change
            and self.metric_of_claim(in_sentence[0][1]) == self.metric_of_claim(in_sentence[1][1])
            # "Decode is 1.3x faster …, though TTFT was 210 ms vs 180 ms": a pair in a contrasting
            # clause after the phrase (or before it: "while TTFT …, decode is 1.3x faster") is another
            # comparison's
            and not re.search(_CONTRAST, _gap(text, n, in_sentence[0][0], in_sentence[1][0], s0), re.I)
            and not (  # "Rates 40.1 / 41.3 tok/s, +12% over last week": a list, the other side named
                _side_names(rel.other)
                and re.fullmatch(r"\s*/\s*", text[in_sentence[0][0].end : in_sentence[1][0].start])
            )
        ):
            (na, a), (nb, b) = in_sentence
            # "more than 70% smaller", "less than 2x": a bound's "than", not the other side's
            worded, later_first = self._once(
                text,
                ("from", s0),
                lambda: (
                    re.search(r"\b(?:from|than)\b", _BOUND_THAN.sub(" ", sentence), re.IGNORECASE)
                    is not None,
                    re.search(r"\bfrom\b", sentence, re.IGNORECASE) is not None,
                ),
            )
            if later_first and re.search(
                r"\bfrom\s*[~≈]?\s*$", text[max(s0, nb.start - 12) : nb.start], re.I
            ):
                later_first = False  # "44 tok/s, down from 50": "from" names the second, the origin
            if not worded:
                # no "than"/"from" (another language's word order, a list): the sides in the order
                # the stated value needs (a gain: the larger over the smaller), said in a note
                ordered_by_value = True
                # (a multiple is the larger over the smaller, "1.6x slower" too: its value is 1.6)
                # ("TTFT is 40% faster: 120 ms vs 200 ms": a faster time is a lower one)
                sign = -rel.sign if family(na.unit) == "time" and _said_of_speed(rel, text) else rel.sign
                larger_wanted = sign > 0 if rel.kind == "percent_change" else _multiple(n) >= 1
                big_first = _mid(na) >= _mid(nb) * _factor(nb.unit, na.unit)  # 3.3 GB > 970 MB
                sides = [a, b] if big_first == larger_wanted else [b, a]
                if rel.kind == "percent_change":
                    sides.reverse()  # a change from the smaller to the larger
            elif rel.kind == "percent_change":
                sides = [a, b] if later_first else [b, a]  # "A is 40% faster than B": from B to A
            else:
                sides = [b, a] if (rel.sign < 0) != later_first else [a, b]  # from 310 to 1,420: 1,420 / 310
        if sides is not None and rel.pair is None and n.range is None:
            stated_value = _signed_value(rel)
            if stated_value is not None and rel.kind == "ratio" and n.unit == "%":
                stated_value /= 100  # "91% of 215,000": a share, as a fraction
            implied = self._implied(rel.kind, sides[0], sides[1]) if rel.kind != "difference" else None
            if (
                stated_value is not None
                and implied is not None
                and self._error(rel.kind, implied, stated_value) > _FAR
            ):
                explicit = self._explicit_pair(text, in_sentence, rel, s0, s_end)
                flipped = self._implied(rel.kind, sides[1], sides[0])
                if (
                    explicit
                    and not ordered_by_value
                    and flipped is not None
                    and self._error(rel.kind, flipped, stated_value) <= _FAR
                ):
                    # "llama.cpp is 1.6x faster than Ollama: 15.2 vs 24.8 t/s": the pair's order is
                    # not the names' (the values give 1.63 the other way round): ordered by value
                    sides, ordered_by_value = sides[::-1], True
                elif explicit:
                    # "2.5x faster: 24.8 vs 15.2 t/s": the sentence pairs them itself and relates
                    # nothing else: its sides, however far their values are (the audit judges it)
                    note = (
                        f"sides the sentence pairs ('vs'): their values give {implied:.3g}, "
                        f"not the stated {n.text}"
                    )
                else:
                    # "faster (5x) prompt eval: 512 t/s vs 100 t/s, and the eval time is ~2x
                    # faster": the pair gives 5.1, not ~2: the pair of another phrase of the sentence
                    sides, ordered_by_value = None, False
        before = measured.last_before(s0, s_end, n.start)
        phase = rate_named(text[lo_c:hi_c], n.start - lo_c)
        if (
            sides is None
            and before is not None
            and rel.other
            and phase in (None, self.metric_of_claim(before[1]))
        ):
            # the number before the phrase is its subject, unless the phrase names another phase
            # ("10.4 t/s for tg128, so prompt processing is 28% faster")
            subject_n, subject = before
            other = self.named_by(rel.other, exclude={subject}, fam=family(subject_n.unit))
            if other is not None and self.metric_of_claim(other) == self.metric_of_claim(subject):
                sides = [subject, other] if rel.kind == "ratio" else [other, subject]
                if rel.kind == "ratio" and rel.sign < 0:
                    sides.reverse()
        if sides is None and rel.other and n_in < 2:
            # "b11434 is about 2× faster than b4000": the sides named by a condition's values, in
            # the words before it in its sentence, within a window (the whole sentence before each
            # phrase was quadratic in a long sentence of many of them)
            subject = text[max(s0, n.start - _SUBJECT_WINDOW) : n.start]
            pair = self.sides_by_condition(subject, rel.other, sentence)
            if pair is not None:
                subject, other = pair
                sides = [subject, other] if rel.kind == "ratio" else [other, subject]
                if rel.kind == "ratio" and rel.sign < 0:
                    sides.reverse()
        if sides is None:
            # the claims of the phrase's own section first (the table right above "MTP is 23%
            # slower"), then those of the sections before (a post discusses its tables later)
            self.section_only = True
            found = self.sides_in_scope(rel, text, s0, sentence, placed)
            self.section_only = False
            if found is None:
                found = self.sides_in_scope(rel, text, s0, sentence, placed)
            if found is not None:
                sides, note = found
        if sides is None and bound is None and n.range is None:
            # "k=2 is 36% faster than vanilla" under bullets labelled by run names the claims do not
            # carry: the one pair whose values give the stated digits (``draftbyvalue``)
            sides = self.sides_by_value(rel, text[lo_c:hi_c], n.start - lo_c)
            if sides is not None:
                note = "sides found by value: the one pair of the claims before it giving the stated number"
        if sides is None and bound is None and n.range is None and rel.kind in ("percent_change", "ratio"):
            # "On the refactor prompt speculative decoding was 40% faster than the baseline" under a
            # table whose one row is "Python refactor": that row's cell the other side names and its
            # other cell, whatever their values give (the audit then judges the number)
            found_pair = self.row_named(rel, text[max(s0, n.start - _SUBJECT_WINDOW) : n.start])
            if found_pair is not None:
                subject, other = found_pair
                sides = [subject, other] if rel.kind == "ratio" else [other, subject]
                if rel.kind == "ratio" and rel.sign < 0:
                    sides.reverse()
                note = "sides: the one row the sentence names by its words, the other side by its name"
        if (
            sides is None
            and bound is None
            and n.range is None
            and rel.kind in ("percent_change", "ratio")
            and not rel.other
            and before is not None
        ):
            # "decoding reached 190.6 tok/s, so speculative decoding is 3x faster" after "The baseline
            # decoded at 95.3 tok/s": the drafted rate before the phrase over the one plain-decoding
            # rate of its metric before it, whatever their values give (the audit judges the 3x)
            sides = self.plain_other_side(before[1], rel)
            if sides is not None:
                note = (
                    "sides: the drafted rate before the phrase and the one plain-decoding rate of its metric"
                )
        if sides is None and rel.kind == "difference" and rel.pair is None:
            # "only 5 tokens/s faster than running LLaMa on half precision with HuggingFace" (no
            # HuggingFace rate stated): a claim of the difference, as the corpus writes one
            self.difference_claim(n, s0, sentence, line, text[lo_c : n.start])
            return
        if sides is not None and len(sides) == 2:
            self.plain_baseline(sides, rel.sign)
        if bound is not None and (sides is not None or in_sentence):
            # "at least 2.5× faster" beside its rates: a bound (a todo where the sides are not
            # found); with no claim to relate ("up to 15× higher"), a todo of kind bound below
            self.ratio_bound(rel, bound, sides, sentence, line, in_sentence)
            return
        value = n.text
        sign = rel.sign
        if (
            sides
            and all(c in self.profile and family(self.profile[c][0]) == "time" for c in sides)
            and _said_of_speed(rel, text)
        ):
            # "TTFT rose from 850 ms to 920 ms, about 8% slower": a slower time is a longer one
            sign = -sign
        if rel.kind == "percent_change" and sign > 0 and value.startswith("-") and sign != rel.sign:
            value = value[1:]
        if rel.kind == "percent_change" and sign < 0 and not value.startswith("-"):
            value = "-" + value
        fields: dict = {"kind": rel.kind, "statement": sentence[:QUOTE]}
        if ordered_by_value and sides is not None and not note:
            fields["note"] = "sides ordered by their values: the sentence does not say which is which"
        elif note and sides is not None:
            fields["note"] = note
        sid = self.new_id(f"s-l{line}")
        if sides is not None:
            fields["of"] = [first_repeat(self, c) for c in sides]
        else:
            candidates = [cid for _, cid in in_sentence] + [
                c
                for c in self.candidates(rel.other, {c for _, c in in_sentence})
                if not self.rates_only or family(self.profile[c][0]) == "rate"
            ]
            self.section_only = True
            in_section = self.scope_candidates(rel, text, s0, sentence)
            self.section_only = False
            candidates += in_section or self.scope_candidates(rel, text, s0, sentence)
            candidates = self.one_metric(candidates, text[lo_c:hi_c], n.start - lo_c)
            # (less the words both sides share: "a Q4_K_M 7B model is roughly 2x faster than a Q8_0
            # 7B model on the same hardware": the Q8_0 names the other side, the 7B and what is "the
            # same" both)
            named_other = _side_names(re.sub(r"(?i)\bsame\s+[\w-]+", " ", rel.other))
            if named_other - (shared := _side_names(text[lo_c : n.start])):
                named_other -= shared  # (not where that leaves none: "40 t/s plain, 2x faster than plain")
            if named_other and not any(
                named_other & self.profile[c][1] for c in candidates if c in self.profile
            ):
                candidates = []  # "+12% over last week": the other side it names is no claim here
            if not named_other and len(set(candidates)) < 2:
                candidates = []  # "the dense model gets 42% slower": one claim is no pair, none named
            if not candidates and rel.kind == "percent_change" and bound is not None:
                # "up to 40% faster than stock llama.cpp", "最大30%以上の速度向上" with no rate of either
                # side stated: a bound of the change (never a claim of its value: docs/claims.md),
                # signed as the change is ("up to 40% slower": the change is -40% or above)
                metric = self.change_metric_at(text, n, s0, sentence)
                # (the subject's names: "vLLM is up to 40% faster than llama.cpp" bounds vLLM's change)
                cond, _ = self.phrase_conditions(n, s0, sentence, rel.other)
                signed = n
                if rel.sign < 0 and not n.text.startswith(("-", "−")):
                    signed = replace(n, text="-" + n.text.lstrip("+"))
                    bound = "above" if bound == "below" else "below"
                self.ids.discard(sid)  # (the bound takes the statement's id)
                self.bound_statement(signed, bound, metric, cond, line, sentence)
                return
            if not candidates and rel.kind == "percent_change":
                # "the dense model gets 42% slower", "+18.8% on the same kind of prompt": no rate
                # of either side stated: a claim of the change (issue 29's corpus convention)
                self.change_claim(rel, text, s0, sentence, line)
                return
            if not candidates and rel.kind == "ratio" and n.unit == "%":
                # "busy 95% of the time": a share of something the post states no number of
                self.share_claim(n, text, s0, sentence, line)
                return
            if not candidates and bound is not None and rel.kind == "ratio" and n.unit != "%":
                # a multiple written as a bound ("over 2x") whose words name no side: the rates of
                # its section (the table it sums up), nearest first, as a todo's candidates
                self.section_only = True
                rates = [c for c in self._scope() if family(self.profile[c][0]) == "rate"]
                self.section_only = False
                rates = self.one_metric(rates[::-1], text[lo_c:hi_c], n.start - lo_c)
                candidates = rates[:6] if len(rates) >= 2 else []
            if candidates and bound is not None and rel.kind == "ratio":
                # "on the long prompts it's over 2x" after a table of the rates it relates: a bound
                # (never a claim of its value) whose sides the words do not single out: a todo
                # bound statement listing the candidates
                self.ratio_bound(rel, bound, None, sentence, line, [], list(dict.fromkeys(candidates)))
                return
            if not candidates and rel.kind == "ratio" and bound is not None and n.unit != "%":
                # "up to 15× higher", "2倍以上的降低" with no claim it could relate: a bound all
                # the same, a todo of kind bound citing nothing (never a claim of its value:
                # docs/claims.md; the corpus writes it as a claim whose statement names the bound)
                self.ratio_bound(rel, bound, None, sentence, line, [])
                return
            if not candidates and rel.kind == "ratio":
                # "nearly 2x faster", "5–14x regression" with no claim it could relate: a claim of
                # the multiple itself (what the post states), not a statement with nothing to cite
                self.multiple_claim(n, rel.sign, s0, sentence, line, rel.other)
                return
            fields = {
                "todo": "name the two sides in `of` (the claims it relates), then delete `todo`",
                **fields,
                "of": list(dict.fromkeys(candidates)),
            }
        if n.range is not None and rel.sign < 0 and rel.kind == "percent_change":
            low, high = (n.range[0].lstrip("+-−"), n.range[1].lstrip("+-−"))
            fields["range"] = [Num(f"-{high}"), Num(f"-{low}")]  # "15–25% slower": a drop's range
        elif n.range is not None:
            fields["range"] = [Num(n.range[0]), Num(n.range[1])]  # "2–3× faster", "1.5–2x slower"
        elif n.range is None:
            fields["value"] = Num(value.lstrip("+"))
        if n.about:
            fields["about"] = True
        fields["unit"] = n.unit if rel.kind == "difference" else "%" if n.unit == "%" else "x"
        fields.update(source_fields(line, sentence))
        self.out.entries.append(Entry("statement" if sides else "todo", sid, {"id": sid, **fields}))

    def _pairs_stated(self, n: Number, s0: int, sentence: str, placed: Placed) -> bool:
        """Whether the sentence of a relating phrase (at ``s0``) states two or more measured numbers
        of one unit family after the phrase (the pairs a range is over: "15–25% slower (A 120 vs
        150 tok/s; B 80 vs 98 tok/s)"), rates where the phrase is about speed."""
        after = [m for m, _ in placed.measured().within(n.end, s0 + len(sentence))]
        if _SPEED.search(sentence):
            after = [m for m in after if family(m.unit) == "rate"]
        return len(after) >= 2 and len({family(m.unit) for m in after}) == 1

    def plain_other_side(self, subject: str, rel) -> list[str] | None:
        """The sides of a relating phrase naming no other side whose subject (the claim right before
        it) is a drafted rate (speculative or draft-self decoding): the subject and the one claim of
        the phrase's part of the post (``_scope``) of the same metric that decodes plainly, in the
        order of ``rel``'s kind (a ratio: subject over plain, reversed for a "slower"; a change: from
        plain to subject); None where the subject drafts nothing or no one plain claim is there."""
        if self.flat_conditions(subject).get("decoding") not in ("speculative", "draft-self"):
            return None
        metric = self.metric_of_claim(subject)
        plain = [
            c
            for c in self._scope()
            if c != subject
            and self.metric_of_claim(c) == metric
            and self.flat_conditions(c).get("decoding") == "plain"
        ]
        if len(plain) != 1:
            return None
        if rel.kind == "percent_change":
            return [plain[0], subject]
        return [plain[0], subject] if rel.sign < 0 else [subject, plain[0]]

    def row_named(self, rel, clause: str) -> tuple[str, str] | None:
        """(subject, other) of a relating phrase whose ``clause`` (its words before it) names one row of
        the rates before it by a word no other row's claims carry ("On the refactor prompt … 40%
        faster than the baseline" over rows "Python refactor", "Write unit tests"): of the two rate
        claims of that row, the one the phrase's other side names ("the baseline": the "Baseline"
        column's; where the phrase names no other side, the row's plain decoding run) and the other;
        None where the words name no one row of two rates, or the other side's words name neither or
        both."""
        other_words = _side_names(rel.other or "")
        rates = [c for c in self._scope() if family(self.profile[c][0]) == "rate"]
        counts: dict[str, int] = {}
        for c in rates:
            for w in self.profile[c][1]:
                counts[w] = counts.get(w, 0) + 1
        words = _side_names(clause) - other_words
        rare = {w for w in words if counts.get(w) == 2}
        rows = {tuple(c for c in rates if w in self.profile[c][1]) for w in rare}
        if len(rows) != 1:
            return None
        a, b = next(iter(rows))
        if other_words:
            named = [c for c in (a, b) if other_words & self.profile[c][1]]
        else:
            # "the gain is basically nothing, about 4%": no other side named, the row's plain run is
            named = [c for c in (a, b) if self.flat_conditions(c).get("decoding") == "plain"]
        if len(named) != 1 or self.metric_of_claim(a) != self.metric_of_claim(b):
            return None
        other = named[0]
        return (b if other == a else a), other

    def sides_by_value(self, rel, clause: str, at: int) -> list[str] | None:
        """The sides of a ratio or percent change (not a share in %) that no words tie to claims:
        among the claims of its part of the post (``_scope``: its section first, then the last
        60), those of one metric (the phase its ``clause`` names at offset ``at``, else decode where
        both rates are there, else each metric on its own), the one pair whose values give the
        stated digits (``draftbyvalue.fitting_pair``), of sides differing in one condition at most;
        digits too coarse for that ("2.2x": 2.15–2.3) fit among the pairs with a side the clause
        names before the phrase or the words after it name as the other side ("on the 70B model
        ... 2.2x faster": a 70B claim; ``NAMED_WIDTH``).  None where no
        metric has exactly one."""
        n = rel.number
        stated = _signed_value(rel)
        if rel.kind == "difference":
            stated = plain_value(n.text.lstrip("+"))  # its size: the sides in the order that gives it
        if stated is None or rel.kind not in ("ratio", "percent_change", "difference"):
            return None
        if rel.kind == "ratio" and n.unit == "%":
            return None  # "57% of": a share, of a whole the post may not state
        # the words naming a side: the clause's before the phrase (its subject) and those after
        # "than", "vs", "over" (the other side), not another item of a list the clause goes on with
        # ("coding 1.9x decode / 70.4% acceptance and chat 50.1% acceptance": not chat's)
        words = _side_names(clause[:at])
        if re.match(
            r"\S*\s*(?:\w+\s+){0,3}?(?:than|vs\.?|versus|over|compared (?:to|with))\s", clause[at:], re.I
        ):
            words |= _side_names(rel.other)
        for width in (MAX_WIDTH, NAMED_WIDTH):
            for section_only in (True, False):
                self.section_only = section_only
                scope = self._scope()
                self.section_only = False
                named = {c for c in scope if words & self.profile[c][1]} if width > MAX_WIDTH else set(scope)
                if not named:
                    continue
                by_metric: dict[str, list[str]] = {}
                for c in scope:
                    by_metric.setdefault(self.metric_of_claim(c) or "", []).append(c)
                phase = rate_named(clause, at) or (
                    "decode_tps" if {"prefill_tps", "decode_tps"} <= set(by_metric) else None
                )
                groups = [by_metric[phase]] if phase in by_metric else list(by_metric.values())
                fits = []

                def allowed(a: str, b: str, named: set[str] = named) -> bool:
                    return (a in named or b in named) and self._one_change(a, b)

                if rel.kind == "difference":  # of the number's own unit family (any phase), in its unit
                    groups = [
                        ids for ids in by_metric.values() if family(self.profile[ids[0]][0]) == family(n.unit)
                    ]
                for ids in groups:
                    unit = n.unit if rel.kind == "difference" else self.profile[ids[0]][0]
                    values = [
                        (c, v * _factor(self.profile[c][0], unit))
                        for c in ids
                        if (v := self._value(c)) is not None
                    ]
                    pair = fitting_pair(
                        rel.kind,
                        stated,
                        decimals_of(n.text),
                        n.about,
                        values,
                        allowed,
                        width,
                    )
                    if pair is not None:
                        fits.append(pair)
                if len(fits) == 1:
                    return fits[0]
                if fits:
                    return None
        return None

    def _one_change(self, a: str, b: str) -> bool:
        """Whether claims ``a`` and ``b`` differ in at most one condition both state (a comparison
        changes one thing: the engine, the draft, the quant; a pair differing in quant and context
        too is two rows of a sweep, no comparison a phrase states)."""
        fa, fb = self.flat_conditions(a), self.flat_conditions(b)
        differ = [k for k in fa.keys() & fb.keys() if fa[k] != fb[k]]
        settings = [k for k in differ if not k.startswith("other.")]
        if settings:
            # a row's own words for its configuration ("| C3 | --spec-draft-n-max 16 |": other.config,
            # other.description) name the setting that differs, no second change
            differ = [k for k in differ if not (k.startswith("other.") and isinstance(fa[k], str))]
        return len(differ) <= 1

    def _clause_of(self, text: str, at: int, s0: int, sentence: str) -> tuple[int, int]:
        """Where the clause around offset ``at`` of ``text`` begins and ends, inside its sentence
        (``s0``, ``sentence``): up to ",", ";", ":", " — ", "(", ")", "but", or "and" before a number on
        either side ("2.5x generation and 15x prompt eval": two clauses)."""
        end = s0 + len(sentence)
        ends, starts = self._clause_cuts(text, s0, end)
        k = bisect.bisect_right(ends, at)  # the last cut ending at or before it
        j = bisect.bisect_left(starts, at)  # the first cut starting at or after it
        return (ends[k - 1] if k else s0), (starts[j] if j < len(starts) else end)

    def _clause_cuts(self, text: str, s0: int, end: int) -> tuple[list[int], list[int]]:
        """Where the clause cuts (``_CLAUSE_CUT``) of the sentence ``text[s0:end]`` end, read left
        to right, and where any starts (``_CLAUSE_CUT_AT``), once per sentence (``_once``)."""
        return self._once(
            text,
            ("cuts", s0, end),
            lambda: (
                [m.end() for m in _CLAUSE_CUT.finditer(text, s0, end)],
                [m.start() for m in _CLAUSE_CUT_AT.finditer(text, s0, end)],
            ),
        )

    def _once(self, text: str, key: tuple, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per paragraph ``text`` and ``key`` (what a sentence or clause
        of it says: its clause cuts, its words): a long sentence of many relating phrases read the
        whole sentence or clause again for each of them, quadratic in its length."""
        # (the last few texts, each by identity: a relation reads its paragraph and its line in
        # turn, and one memo per text thrown away at each turn was read again for every number)
        memo = next((m for t, m in self._memo if t is text), None)
        if memo is None:
            memo = {}
            self._memo.insert(0, (text, memo))
            del self._memo[4:]
        if key not in memo:
            memo[key] = make()
        return memo[key]

    def _clause_words(self, text: str, lo: int, hi: int) -> tuple[str, set[str]]:
        """The clause ``text[lo:hi]`` and its words (``word_set``), once per clause (``_once``)."""
        return self._once(text, ("words", lo, hi), lambda: (text[lo:hi], word_set(text[lo:hi])))

    def restated(self, rel, text: str, s0: int, sentence: str, line: int, placed: Placed) -> bool:
        """A change or multiple with no claim in its clause that restates an earlier statement of
        the same kind and sides, as rounded ("+65%" after "31.9 → 52.8 tok/s (+65.5%)": within half
        a unit of its last digit, same sign): a statement citing the same sides, said in a note.
        True when drafted."""
        n = rel.number
        if rel.pair is not None or rel.kind == "difference":
            return False
        lo, hi = self._clause_of(text, n.start, s0, sentence)
        if placed.measured().how_many(lo, hi):
            return False
        own = placed.measured().within(s0, s0 + len(sentence))
        if len(own) == 2 and self._explicit_pair(text, own, rel, s0, s0 + len(sentence)):
            return False  # "twice as fast again: 62 vs 31 tok/s": its own pair, another section's 2.1x
        value = _signed_value(rel)
        if value is None:
            return False
        step = 10.0 ** -(len(n.text.split(".")[1]) if "." in n.text else 0)
        # "total generation time is 2x longer" after "2.4x faster in token generation": times, no
        # restatement of the rates' ratio
        times_only = _LONGER.search(text, lo, hi) is not None
        hits = []
        for e in self.out.entries[-60:]:  # the entries drafted last: a restatement follows soon
            f = e.fields
            if (
                e.kind != "statement"
                or f.get("kind") != rel.kind
                or "value" not in f
                or len(f.get("of", [])) != 2
            ):
                continue
            prev = plain_value(str(f["value"]))
            # rounded to the stated digits: "+65%" restates +65.5%, "3×" does not restate 2.05×
            rounded = prev is not None and abs(prev - value) <= step / 2 + 1e-9
            if times_only and any(family(self.profile[c][0]) != "time" for c in f["of"] if c in self.profile):
                continue
            if prev is not None and prev != value and rounded and prev * value > 0:
                hits.append(e)
        if len({tuple(e.fields["of"]) for e in hits}) != 1:
            return False
        first = hits[0]
        sid = self.new_id(f"s-l{line}")
        fields: dict = {"kind": rel.kind, "statement": sentence[:QUOTE], "of": list(first.fields["of"])}
        fields["value"] = Num(str(value) if value != int(value) or "." in n.text else str(int(value)))
        if n.about:
            fields["about"] = True
        fields["unit"] = "%" if rel.kind == "percent_change" else "x"
        fields["note"] = f"restates {first.id} ({first.fields['value']}) as rounded"
        fields.update(source_fields(line, sentence))
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
        return True

    def phrase_claim(
        self, cfields: dict, n: Number, s0: int, sentence: str, line: int, base: str, other: str = ""
    ) -> str:
        """Add the claim a relating phrase states by itself (a share, a change or a multiple whose
        sides the post does not state): its conditions and origin (``phrase_conditions``);
        ``source_line`` and ``quote`` of the sentence.  ``cfields``: metric and number fields;
        ``other``: the words naming the relation's other side, whose names are not the claim's."""
        cond, origin = self.phrase_conditions(n, s0, sentence, other)
        if origin:
            cfields["origin"] = origin
        if cond:
            cfields["conditions"] = cond
        cfields.update(source_fields(line, sentence))
        cid = self.add_claim(cfields, base)
        # "# Prompt eval is 5x slower …", "TL;DR: 2.35x the throughput": the body may state its
        # sides later; outside a heading only digits precise enough to be one relation ("2.35x",
        # "36%", not "2x")
        if self.in_heading or len(re.sub(r"\D", "", n.text).lstrip("0")) >= 2:
            self.headline_claims.append(cid)  # ``draftheadlines.headline_statements``
        return cid

    def phrase_conditions(
        self, n: Number, s0: int, sentence: str, other: str = ""
    ) -> tuple[dict, str | None]:
        """The conditions of what a relating phrase states by itself (``phrase_claim``, a bound of a
        change): the post's context and the conditions its sentence names, the subject's engine and
        machine, not the other side's (``other``: the words naming it); someone else's number
        ("someone on the forum reported 2.5x … on a 4090", ``origin_of``) only the conditions its
        own clause names (``others_conditions``), and that origin (None for the author's)."""
        cond = merged(self.context(), self.named_conditions(n.start, s0, sentence))
        # of the engines and machines the sentence names, the nearest the number's (before it on a
        # tie), not one an aside after it names for its own number ("vLLM scales 3.9x (llama.cpp
        # only manages 1.2x)": the section's last-named is llama.cpp)
        # (the other side's names apart: "than on the 3090" leaves the context's card)
        # (within ``_NAME_REACH`` of the number: every name of a long sentence weighed for each of its
        # numbers was quadratic)
        rel = n.start - s0
        other_names = mentions(other) if other else []
        others = {(m.path, m.value) for m in other_names}
        named = mentions(sentence)
        said = [
            m
            for m in named
            if m.path in ("engine", "hardware")
            and abs(m.start - rel) <= _NAME_REACH
            and (m.path, m.value) not in others
        ]
        # (a name after the number past "and" or a comma is the next number's: "1.4x … and vLLM 3x")
        sep = AND_SEP.search(sentence, rel)
        for path in dict.fromkeys(m.path for m in said):
            near = [
                m
                for m in said
                if m.path == path
                and not (
                    m.start > rel and (in_own_aside(sentence, rel, m.start) or (sep and sep.end() <= m.start))
                )
            ]
            if near:
                cond[path] = min(near, key=lambda m: (abs(rel - m.start) + (m.start > rel), m.start)).value
        # the other side's names are not this claim's ("The 4090 is 1.6x faster than the 3090": the
        # 4090's change), the subject's, in its sentence before the number, where it names one
        # (the sentence's names read once, those before the number kept: a prefix read anew for each
        # number of a long sentence was quadratic)
        subject = [x for x in named if x.start < rel and (x.end or x.start) <= rel]
        for m in other_names:
            own = [x.value for x in subject if x.path == m.path and x.value != m.value]
            if own:  # ("EAGLE-3 … is 2.1x faster than plain decoding": speculative)
                cond[m.path] = own[-1]
            elif cond.get(m.path) == m.value:
                del cond[m.path]
        origin = origin_at(sentence, n.start - s0)
        if origin:
            cond = others_conditions(cond, sentence, n.start - s0)
        return cond, origin

    def share_claim(self, n: Number, text: str, s0: int, sentence: str, line: int) -> None:
        """A claim of a percentage "N% of X" where no claim of X is drafted ("busy 95% of the
        time"): its metric from the words near it (``metric_of``: share, acceptance_rate)."""
        metric = metric_of("%", text[max(0, n.start - 60) : n.start], text[n.end : n.end + 30]) or "share"
        cfields: dict = {"metric": metric, **number_fields(n)}
        self.phrase_claim(cfields, n, s0, sentence, line, f"{metric.replace('_', '-')}-l{line}")

    def change_metric_at(self, text: str, n: Number, s0: int, sentence: str) -> str:
        """The metric of the percent change ``n`` of ``text`` states (``_change_metric`` of its
        clause): ``decode_change``, ``speed_change``, ``ttft_change``… or ``change``."""
        lo, hi = self._clause_of(text, n.start, s0, sentence)
        return self._once(
            text, ("change", lo, hi, s0), lambda: _change_metric(text[lo:hi], sentence, n.start - lo)
        )

    def change_claim(self, rel, text: str, s0: int, sentence: str, line: int) -> None:
        """A claim of a percent change whose sides the post does not state ("the dense model gets
        42% slower", "3.6–4.5% lower", "+18.8%"): ``decode_change`` / ``prefill_change`` where the
        words name the rate, else ``speed_change`` for faster/slower, else ``change``; the value
        signed (a range of a decrease is ``[-high, -low]``)."""
        n = rel.number
        metric = self.change_metric_at(text, n, s0, sentence)
        if metric == "change" and self.lead_in:
            # "Output throughput improvement:" over "- C=1: +12% (MT-Bench)": the list's line says
            # what changed
            lead = re.sub(r"\([^()]*\)", " ", self.lead_in[-120:])
            metric = _change_metric(lead, lead, len(lead))
        fields = number_fields(n)
        negative = rel.sign < 0
        if n.range is not None:
            low, high = (n.range[0].lstrip("+-−"), n.range[1].lstrip("+-−"))
            fields["range"] = [Num(f"-{high}"), Num(f"-{low}")] if negative else [Num(low), Num(high)]
        else:
            v = n.text.replace("−", "-").lstrip("+")
            fields["value"] = Num(f"-{v}" if negative and not v.startswith("-") else v)
        cfields: dict = {"metric": metric, **fields}
        cid = self.phrase_claim(
            cfields, n, s0, sentence, line, f"{metric.replace('_', '-')}-l{line}", rel.other
        )
        m = _BARE_PAIR.search(text, max(s0, n.start - 40), n.start)
        if m is not None and n.range is None:
            a, b = number_text(m.group("a")), number_text(m.group("b"))
            try:
                implied = (float(b) / float(a) - 1) * 100
            except (ValueError, ZeroDivisionError):
                return
            digits = len(v.split(".")[1]) if "." in (v := str(fields["value"]).lstrip("-")) else 0
            if abs(implied - float(str(fields["value"]))) <= 0.5 * 10.0**-digits + 1e-9:
                self.bare_pairs.append((cid, a, b))  # ``later_sides``

    def _scope(self) -> list[str]:
        """The claims a relating phrase may relate (the last 60 drafted: a post discusses its tables
        in later sections), one per number: a claim repeating an earlier one's metric, value and unit is left
        out (the post states the number once; the expected files cite the first)."""
        ids = self.claim_ids[-60:]
        if self.section_only:
            ids = self.claim_ids[max(self.section_start, len(self.claim_ids) - 60) :]
        seen: set[tuple] = set()
        out = []
        for cid in ids:
            f = self.claims[cid].fields
            unit = self.profile[cid][0]
            if family(unit) in ("ratio", "multiple", None) or "counts" in f:
                continue
            if self.rates_only and family(unit) != "rate":
                continue
            key = (self.metric_of_claim(cid), str(f.get("value") or f.get("range")), unit)
            if key in seen:
                continue
            seen.add(key)
            out.append(cid)
        return out

    def _named_in(self, words: str, ids: list[str], want: set[str] | None = None) -> list[str]:
        """Of ``ids``, those sharing most words with ``words`` (their label, conditions, metric's
        words; ``want``: ``word_set(words)`` where known); all of them when none shares a word."""
        want = word_set(words) if want is None else want
        scored = [(len(want & self.profile[c][1]), c) for c in ids]
        best = max((k for k, _ in scored), default=0)
        return [c for k, c in scored if k == best]

    def _value(self, cid: str) -> float | None:
        f = self.claims[cid].fields
        if f.get("value") is not None:
            return plain_value(str(f["value"]))
        r = f.get("range")
        return (float(r[0]) + float(r[1])) / 2 if r else None

    def _implied(self, kind: str, a: str, b: str) -> float | None:
        """What a statement of ``kind`` over sides ``[a, b]`` computes to (a ratio, a change in %)."""
        va, vb = self._value(a), self._value(b)
        if va is None or vb is None or vb == 0 or va == 0:
            return None
        vb *= _factor(self.profile[b][0], self.profile[a][0])
        if kind == "ratio":
            return va / vb
        if kind == "percent_change":
            return (vb / va - 1) * 100
        return va - vb

    def _error(self, kind: str, implied: float | None, stated: float) -> float:
        """How far a pair's ``implied`` value is from the ``stated`` one, relative (ratios as
        multiples: -23.7% against -23% is 0.009)."""
        if implied is None:
            return float("inf")
        if kind == "percent_change":
            return abs((1 + implied / 100) - (1 + stated / 100)) / max(abs(1 + stated / 100), 1e-9)
        return abs(implied - stated) / max(abs(stated), 1e-9)

    def sides_in_scope(
        self, rel, text: str, s0: int, sentence: str, placed: Placed
    ) -> tuple[list[str], str] | None:
        """The sides of a relating phrase whose sentence does not give both (``relation``), among
        the claims of the current part of the post (``_scope``), and a note saying how:

        * one number in its clause (the subject: "a 20% boost to 34 t/s", "jumps to 144 t/s
          (1.47x)"): the other side is an earlier claim of the same metric, on the side the change
          goes from (below it for a gain), the one the clause's words name (``_named_in``), else
          the one whose value gives the stated one (within 6%, 12% "about"), else the only one;
        * none: two claims of one metric that the clause's words name ("2.5x generation", "Median
          TTFT nearly triples"), from the one whose condition value the text names first to the
          other ("From 16 → 32 concurrency:" in the sentence or the line that introduces it), else
          ordered by value for the direction stated (a gain from the smaller to the larger), the
          only pair or the one whose value gives the stated one.

        None when no single pair remains (a todo lists the candidates)."""
        n = rel.number
        if rel.kind not in ("ratio", "percent_change") or n.range is not None:
            return None
        stated = _signed_value(rel)
        if stated is None:
            return None
        gain = stated > 0 if rel.kind == "percent_change" else (stated >= 1) == (rel.sign > 0)
        if rel.kind == "ratio" and rel.sign < 0:
            stated = 1 / stated if stated else stated
        tol = 0.12 if n.about else 0.06
        lo, hi = self._clause_of(text, n.start, s0, sentence)
        clause, clause_words = self._clause_words(text, lo, hi)
        measured = placed.measured()
        if measured.how_many(lo, hi) > 1:
            return None
        anchors = measured.within(lo, hi)
        if not anchors and _OPENS.fullmatch(text, lo, n.start):
            # the phrase opens its clause ("144 t/s (1.47x)", "2085 t/s PP — nearly 4× Ollama and
            # 3.8× mlx_lm"): the last number of the clauses before it, over clauses of other
            # multiples, is its subject
            cur = lo
            for _ in range(3):
                if cur <= s0:
                    break
                lo2 = self._clause_of(text, max(s0, cur - 2), s0, sentence)[0]
                last = measured.last_in(lo2, cur)
                if last is not None:
                    anchors, lo = [last], lo2
                    break
                if lo2 >= cur or not re.search(r"\d\s*(?:×|x\b|times)", text[lo2:cur]):
                    break  # a clause that is no other multiple: no subject before it
                cur = lo2
        if anchors:
            return self._from_subject(
                rel, anchors[0][1], text[lo : anchors[0][0].start], placed, gain, stated, tol
            )
        scope = self._scope()
        # "Prompt processing drops ~4%", "TG gained 6%", "2x faster": the rate the clause's words
        # name, else (a speed with no phase named) generation's, picks the sides' metric
        rates = {self.metric_of_claim(c) for c in scope} & {"prefill_tps", "decode_tps"}
        worded = rate_named(clause, n.start - lo)
        if _LONGER.search(clause):
            # "total generation time is 2x longer": times, whatever phase the clause names
            scope = [c for c in scope if family(self.profile[c][0]) == "time"]
            rates, worded = set(), None
        phase = worded or ("decode_tps" if len(rates) == 2 else None)
        by_phase = phase in rates and len([c for c in scope if self.metric_of_claim(c) == phase]) >= 2
        if by_phase:
            scope = [c for c in scope if self.metric_of_claim(c) == phase]
        if len(scope) < 2:
            return None
        # the clause's words before it, within a window (its whole clause before each phrase was
        # quadratic in a long clause of many of them)
        subject_words = text[max(lo, n.start - _SUBJECT_WINDOW) : n.start]
        if word_set(subject_words) - _GENERIC:
            named = self._named_in(subject_words, scope)
            if len(named) == 1:  # "MTP gives 40% more": the words before it name one claim, the subject
                found = self._from_subject(
                    rel, named[0], subject_words, placed, gain, stated, tol, must_fit=True
                )
                if found is not None:
                    return found
        arms = self._drafting_arms(rel.kind, clause, scope, stated, tol)
        if arms is not None:
            return arms
        named = self._named_in(clause, scope, clause_words)
        widened = len(named) == 1 and worded is not None and by_phase
        if widened:
            # "PP is 28% faster on the new build", "PP drops ~4% with the small draft" naming one
            # rate of the phase: of the pairs of it and another rate of the phase (a table row's:
            # the table's first row, its baseline), the one whose values give the stated value
            anchor, named = named[0], scope
            group = self.claims[anchor].group
            if group is not None:
                first = next(c for c in scope if self.claims[c].group == group)
                named = [first, anchor] if first != anchor else [anchor]
        if len(named) == len(scope) and not (
            clause_words & set().union(*(self.profile[c][1] for c in scope))
        ):
            return None  # the clause names nothing the claims state: no pair to guess
        context = f"{self.lead_in} {clause}"
        ordered = self._condition_pairs(context, named)
        pairs = ordered or [
            (a, b) for i, a in enumerate(named) for b in named[i + 1 :] if self._comparable(a, b)
        ]
        if widened:
            pairs = [(a, b) for a, b in pairs if anchor in (a, b)]
        oriented = []
        for a, b in pairs:
            va, vb = self._value(a), self._value(b)
            if va is None or vb is None or va == vb:
                continue
            larger_b = vb * _factor(self.profile[b][0], self.profile[a][0]) > va
            frm, to = (a, b) if ordered or larger_b == gain else (b, a)
            oriented.append([to, frm] if rel.kind == "ratio" else [frm, to])
        pick = self._pick(rel.kind, oriented, stated, tol, must_fit=widened)
        if pick is None:
            return None
        sides, how = pick
        return sides, f"sides: {how} of the claims the sentence names"

    def _drafting_arms(
        self, kind: str, clause: str, scope: list[str], stated: float, tol: float
    ) -> tuple[list[str], str] | None:
        """The sides of a relation its clause says a drafting made ("So speculative decoding gave 1.8x
        faster decode", "MTP gives +40%": ``DECODING_PHRASE``, one kind, no plain words): a drafted
        claim of the scope against a plain one of the same metric, from the plain run to the drafted
        one (a ratio of drafted over plain), the pair whose values give the stated value (``_pick``,
        which must fit); None where the clause names no drafting or no such pair fits.  Two drafted
        runs are never its sides: "1.8x on code" over 203.1 and 131 tok/s, both drafted, relates
        neither to the drafting."""
        said = [m for m in DECODING_PHRASE.finditer(clause) if not re.fullmatch(r"\d.*", m.group(0))]
        if not said or any(m.group("plain") for m in said):
            return None
        decoding = {c: (self.claims[c].fields.get("conditions") or {}).get("decoding") for c in scope}
        drafted = [c for c in scope if decoding[c] in ("speculative", "draft-self")]
        plain = [c for c in scope if decoding[c] == "plain"]
        options = [
            [d, p] if kind == "ratio" else [p, d]
            for d in drafted
            for p in plain
            if self.metric_of_claim(d) == self.metric_of_claim(p) and self._comparable(d, p)
        ]
        pick = self._pick(kind, options, stated, tol, must_fit=True) if options else None
        if pick is None:
            return None
        return pick[0], f"sides: {pick[1]}, a drafted run against a plain one (the clause names the drafting)"

    def _from_subject(
        self,
        rel,
        subject: str,
        before_words: str,
        placed: Placed,
        gain: bool,
        stated: float,
        tol: float,
        must_fit: bool = False,
    ) -> tuple[list[str], str] | None:
        """The sides of a phrase whose subject is known (``sides_in_scope``): the other side is an
        earlier claim of the subject's metric on the side the change comes from (below it for a
        gain), named by the words after the phrase (``rel.other``; of those, the ones differing from
        the subject only in what the words name) and the ones before the subject
        (``before_words``), then the only one or the one whose value gives ``stated`` (the only one
        too where ``must_fit``: a subject named by words alone, not by its number)."""
        if subject not in self.claims:
            return None
        vs = self._value(subject)
        end = rel.number.end  # a claim stated after the phrase is no side it comes from
        others = [
            c
            for c in self._scope()
            if self._comparable(c, subject) and c != subject and placed.last.get(c, -1) <= end
        ]
        if vs is None:
            return None
        # the other side is where the change comes from: below the subject for a gain
        others = [
            c
            for c in others
            if (v := self._value(c)) is not None
            and v * _factor(self.profile[c][0], self.profile[subject][0]) != vs
            and ((v * _factor(self.profile[c][0], self.profile[subject][0]) < vs) == gain)
        ]
        other_words = _side_names(rel.other)
        if other_words:  # "2.4 times this PC's plain decoding": the claims those words name
            others = [c for c in others if other_words & self.profile[c][1]]
            # "2085 t/s PP — nearly 4× Ollama": of those, the ones differing from the subject
            # only in what the words name (the engine), not in model or quant as well
            mine = self.flat_conditions(subject)
            alike = [
                c
                for c in others
                if all(
                    v == mine[k] or word_set(str(v)) <= other_words
                    for k, v in self.flat_conditions(c).items()
                    if k in mine
                )
            ]
            others = alike or others
        if not others:
            return None
        named = self._named_in(before_words, others)
        pick = self._pick(
            rel.kind,
            [([subject, c] if rel.kind == "ratio" else [c, subject]) for c in named],
            stated,
            tol,
            must_fit,
        )
        if pick is None:
            return None
        sides, how = pick
        return sides, f"the other side: {how} before it in the post"

    def _explicit_pair(
        self, text: str, in_sentence: list[tuple[Number, str]], rel, s0: int, s_end: int
    ) -> bool:
        """Whether a sentence's two measured numbers are joined as a comparison ("24.8 vs 15.2 t/s",
        "71.4 tok/s versus 38.6", "62 against 31") and ``rel`` is its only relating phrase: then they
        are its sides whatever their values give (a wrong multiple is judged, never left a todo)."""
        (na, _), (nb, _) = in_sentence
        between = text[na.end : nb.start]
        if len(between) > 40 or not JOINED.search(between):
            return False
        n = rel.number
        if not _says_pair(text, n, family(na.unit)):
            return False  # "Context 4x longer, 48 vs 31 tok/s": the multiple is of something else
        if _PER_UNIT.match(text, n.end) or _PER_UNIT.search(text[max(s0, n.start - 24) : n.start]):
            return False  # "Per GPU, SGLang is 2x faster: 1,600 on 4 GPUs vs 400 on 2": normalised
        other = _side_names(rel.other)
        if other and not any(other & self.profile[c][1] for _, c in in_sentence if c in self.profile):
            # "2,300 vs 1,100 tok/s for TGI, and it is 5x faster than plain HF transformers": the
            # other side it names is neither of the pair
            return False
        gap = text[n.end : na.start] if n.end <= na.start else text[nb.end : n.start]
        if _OTHER_CLAUSE.search(gap):
            # "faster TTFT (18ms vs 132ms) …, but … total generation time is 2x longer": the pair
            # of another clause
            return False
        return all(s0 > r or r >= s_end or r == n.start for r in self.rel_starts)

    def _comparable(self, a: str, b: str) -> bool:
        """Whether two claims may be the sides of one comparison: one metric, units of one family,
        and, for table cells, one column (a mean and a median TTFT are not compared)."""
        ga, gb = self.claims[a].group, self.claims[b].group
        return (
            self.metric_of_claim(a) == self.metric_of_claim(b)
            and family(self.profile[a][0]) == family(self.profile[b][0])
            and (ga is None or gb is None or ga == gb)
        )

    def _pick(
        self, kind: str, options: list[list[str]], stated: float, tol: float, must_fit: bool = False
    ) -> tuple[list[str], str] | None:
        """Of candidate sides, the only one, or the one whose value gives ``stated`` (within
        ``tol``, and clearly closer than the next; the only one too where ``must_fit``); None
        otherwise."""
        options = [o for i, o in enumerate(options) if o not in options[:i]]
        if len(options) == 1 and not must_fit:
            # the only pair, unless its values are far from the stated one ("~60% higher" beside
            # a quoted 45 -> 103.9 tok/s of another machine: +131%): another comparison's numbers
            implied = self._implied(kind, options[0][0], options[0][1])
            if self._error(kind, implied, stated) > _FAR:
                return None
            if (
                kind == "percent_change"
                and implied is not None
                and abs(implied - stated) > max(_FAR * abs(stated), 3.0)
                and any(self.claims[c].fields.get("source_line") != self.phrase_line for c in options[0])
            ):
                # "SGLang beat vLLM by 17%" beside 6,395 and, a line above, 8,033 tok/s (+25.6%): as
                # multiples 1.256 is near 1.17, as changes half as much again: another line's pair
                # (the phrase's own line's only pair stands: "a 20% boost to 34 t/s" after 31 t/s)
                return None
            return options[0], "the only pair"
        scored = sorted(
            (self._error(kind, self._implied(kind, o[0], o[1]), stated), k) for k, o in enumerate(options)
        )
        if not scored or scored[0][0] > tol:
            return None
        if len(scored) > 1 and scored[1][0] <= 2 * scored[0][0] + 0.01:
            precise = self._more_precise(options[scored[0][1]], options[scored[1][1]])
            if precise is None or (len(scored) > 2 and scored[2][0] <= 2 * scored[0][0] + 0.01):
                return None
            return precise, "the pair whose values give the stated value (a side the post rounds elsewhere)"
        return options[scored[0][1]], "the pair whose values give the stated value"

    def _more_precise(self, one: list[str], other: list[str]) -> list[str] | None:
        """Of two candidate sides differing in one claim whose values are one number stated twice,
        once rounded ("~1326 tokens/s" in the summary, "1326.78 tokens/s" in the list: within one
        unit of the coarser one's last digit), the one citing the more precise; else None."""
        diff = [k for k in range(len(one)) if one[k] != other[k]]
        if len(one) != len(other) or len(diff) != 1:
            return None
        a, b = one[diff[0]], other[diff[0]]
        va, vb = self._value(a), self._value(b)
        da = decimals_of(str(self.claims[a].fields.get("value") or ""))
        db = decimals_of(str(self.claims[b].fields.get("value") or ""))
        if va is None or vb is None or da == db or self.profile[a][0] != self.profile[b][0]:
            return None
        if abs(va - vb) > 10.0 ** -min(da, db):
            return None
        return one if da > db else other

    def _condition_pairs(self, context: str, ids: list[str]) -> list[tuple[str, str]]:
        """Pairs of ``ids`` told apart by one condition whose two values the ``context`` names in
        order ("From 16 → 32 concurrency": concurrency 16, then 32), the first named first."""
        flat = {c: self.flat_conditions(c) for c in ids}
        low = context.lower()
        pairs: list[tuple[str, str]] = []
        for path in dict.fromkeys(p for f in flat.values() for p in f):  # (post order: no hash order)
            where: dict[object, int] = {}
            for f in flat.values():
                v = f.get(path)
                if v is None or isinstance(v, bool) or v in where:
                    continue
                m = re.search(rf"(?<![\w.-]){re.escape(str(v).lower())}(?![\w.])", low)
                if m:
                    where[v] = m.start()
            if len(where) != 2:
                continue
            v1, v2 = sorted(where, key=lambda v: where[v])
            for a in ids:
                if flat[a].get(path) != v1:
                    continue
                for b in ids:
                    if (
                        flat[b].get(path) == v2
                        and self._comparable(a, b)
                        and all(flat[b].get(k) == x for k, x in flat[a].items() if k != path and k in flat[b])
                    ):
                        pairs.append((a, b))
        return pairs

    def one_metric(self, candidates: list[str], clause: str, at: int) -> list[str]:
        """The candidates of a todo a reader would weigh: those of the metric the clause names
        nearest the phrase (at offset ``at`` of ``clause``: "1.91x decode / 70.4% acceptance": the
        decode rates, not the acceptance), else, where they are of several metrics, those of the
        first candidate's (the sentence's claims come first): a relation never compares a rate with
        a size or an acceptance."""
        metrics = {c: self.metric_of_claim(c) for c in candidates if c in self.claims}
        if len(set(metrics.values())) < 2:
            return candidates
        low = clause.lower()
        near: dict[str, int] = {}
        for m in dict.fromkeys(metrics.values()):  # the candidates' order: a tie goes to the first
            words = set(METRIC_WORDS_OF.get(m or "", "").split())
            words |= set((m or "").split("_")) - {"tps", "rate"}
            for w in words:
                for hit in re.finditer(rf"\b{re.escape(w)}", low):
                    d = abs(hit.start() - at)
                    if m and (m not in near or d < near[m]):
                        near[m] = d
        keep = min(near, key=lambda m: near[m]) if near else metrics.get(candidates[0])
        return [c for c in candidates if metrics.get(c) == keep]

    def scope_candidates(self, rel, text: str, s0: int, sentence: str) -> list[str]:
        """The claims of the current part of the post a todo lists for a relating phrase whose
        sides were not found: those its clause's words name (none when it names none), at most 6."""
        lo, hi = self._clause_of(text, rel.number.start, s0, sentence)
        scope = self._scope()
        want = self._clause_words(text, lo, hi)[1]
        scored = sorted(((len(want & self.profile[c][1]), c) for c in scope), key=lambda x: -x[0])
        best = scored[0][0] if scored else 0
        if best == 0:
            return []
        named = [c for k, c in scored if k == best]
        return named[:6] if len(named) >= 2 else []

    def mean_of_multiples(self, rel, text: str, s0: int, sentence: str, line: int) -> bool:
        """A multiple stated as the average of multiples the post stated before ("On average it's a
        1.6x speedup" after a table's Speedup column, each a ratio statement): a mean word in its
        clause (``_MEAN``) and the last of the (at most 12) ratio statements in x before it (no
        todo; statements of other kinds between them skipped) whose mean rounds to it
        (``draftbyvalue.mean_run``): a ``mean`` statement citing those statements.  True when
        drafted."""
        n = rel.number
        if rel.kind != "ratio" or n.unit != "x" or rel.pair is not None or n.range is not None:
            return False
        lo, hi = self._clause_of(text, n.start, s0, sentence)
        if not _MEAN.search(text, lo, hi):
            return False
        run: list[tuple[str, float]] = []
        for e in reversed(self.out.entries):
            if e.kind != "statement":
                continue
            f = e.fields
            if f.get("kind") != "ratio" or f.get("unit") != "x" or f.get("value") is None:
                continue  # "VRAM went up 1.3 GB" between the table and its mean: no multiple
            run.append((e.id, float(str(f["value"]))))
            if len(run) == 12:
                break
        run.reverse()
        k = mean_run([v for _, v in run], n.text, n.about)
        if k == 0:
            return False
        sid = self.new_id(f"s-l{line}")
        fields: dict = {"kind": "mean", "statement": sentence[:QUOTE], "of": [c for c, _ in run[-k:]]}
        fields["value"] = Num(n.text)
        if n.about:
            fields["about"] = True
        fields["unit"] = "x"
        fields["note"] = f"the mean of the {k} multiples stated before it"
        fields.update(source_fields(line, sentence))
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
        return True

    def listed_mean(self, n: Number, members: list[str], line: int, sentence: str) -> bool:
        """The mean printed after a list of runs (``draftsentences.RunLists``: "[71.87, 73.51, 71.03,
        71.77] avg=72.045 it/s"): a ``mean`` statement citing the listed runs' claims ``members``
        when their mean rounds to it (within half a unit of its last digit), else nothing drafted
        (the number is then a claim of its own).  True when drafted."""
        value = plain_value(n.text)
        values = [self._value(c) for c in members]
        if value is None or n.unit is None or any(v is None for v in values):
            return False
        mean = sum(
            (v or 0) * _factor(self.profile[c][0], n.unit) for v, c in zip(values, members, strict=True)
        )
        step = 10.0 ** -(len(n.text.split(".")[1]) if "." in n.text else 0)
        if abs(mean / len(members) - value) > step / 2 + 1e-9:
            return False
        sid = self.new_id(f"s-l{line}")
        fields: dict = {"kind": "mean", "statement": sentence[:QUOTE], "of": members, "value": Num(n.text)}
        fields["unit"] = n.unit
        fields["note"] = f"the mean of the {len(members)} runs listed before it"
        fields.update(source_fields(line, sentence))
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
        return True

    def mean_statement(
        self, n: Number, metric: str, text: str, line: int, sentence: str, here: set[str], lead: str = ""
    ) -> bool:
        """A number stated as the average of numbers listed before it ("This gives a 89.76 tok/s
        average" after nine per-prompt rates): a mean word within 30 characters (``_MEAN``) or in the
        line introducing its list (``lead``: "**Average (3 runs):**" over "- TTFT: 34.8 ms"), and
        the last two or more claims of its metric and unit family drafted before this paragraph
        (the longest such run, not crossing a claim of the metric from another table column) whose
        mean rounds to it (within half a unit of its last digit; 5% for "about"): a ``mean``
        statement citing them, no claim.  True when drafted."""
        if n.range is not None or n.spread is not None or n.unit is None:
            return False
        # (or in the line introducing its list: "**Mittelwert Context 4096:**" over "- TTFT: 34.863 ms")
        if not _MEAN.search(text[max(0, n.start - 30) : n.end + 30]) and not (
            lead and _MEAN.search(lead) and _LIST_ITEM.match(self.post.line(line))
        ):
            return False
        value = plain_value(n.text)
        if value is None:
            return False
        members: list[str] = []
        for cid in reversed(self.claim_ids[-60:]):
            if cid in here:
                continue
            if self.metric_of_claim(cid) != metric or family(self.profile[cid][0]) != family(n.unit):
                continue
            if members and self.claims[cid].group != self.claims[members[-1]].group:
                break
            members.append(cid)
        members.reverse()
        step = 10.0 ** -(len(n.text.split(".")[1]) if "." in n.text else 0)
        tol = value * 0.05 if n.about else step / 2 + 1e-9
        for k in range(len(members), 1, -1):
            chosen = members[-k:]
            values = [self._value(c) for c in chosen]
            if any(v is None for v in values):
                continue
            mean = (
                sum(
                    (v or 0) * _factor(self.profile[c][0], n.unit)
                    for v, c in zip(values, chosen, strict=True)
                )
                / k
            )
            if abs(mean - value) <= tol:
                sid = self.new_id(f"s-l{line}")
                fields: dict = {
                    "kind": "mean",
                    "statement": sentence[:QUOTE],
                    "of": chosen,
                    "value": Num(n.text),
                }
                if n.about:
                    fields["about"] = True
                fields["unit"] = n.unit
                fields["note"] = f"the mean of the {k} claims of {metric} before it"
                fields.update(source_fields(line, sentence))
                self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
                return True
        return False

    def comparisons(self, text: str, items: list[tuple[int, int, str]], line: int, quote: str) -> None:
        """Two stated numbers of one kind compared in ``text`` ("q8_0 KV memory (34 MiB) < f16 KV
        memory (64 MiB)", "TTFT 32.8 ms <= 44.3 ms"; ``items``: the claims drafted from it, (start,
        end, id) in order): a ``bound`` statement that the first over the second is below (<, <=,
        ≤) or above (>, >=, ≥) 1, over the two claims (``over`` by ``id``).  A margin after the
        second ("<= f16 TTFT (44.3 ms) + 15% margin (50.9 ms)", "- 15% margin (690.9 t/s)") makes it
        a percent change from the second to the limit, and the bound 1 ± N/100 (the margin's % is
        no claim of its own)."""
        done: set[int] = set()
        for i in range(len(items) - 1):
            if i in done:
                continue
            (_, a1, a), (b0, b1, b) = items[i], items[i + 1]
            fam = family(self.profile[a][0])
            if fam in (None, "ratio", "multiple") or fam != family(self.profile[b][0]) or a == b:
                continue
            # an arrow ("3.3-->6.2", "a -> b") goes from one to the other: no comparison sign
            ops = re.findall(r"<=|>=|=<|=>|≤|≥|<|>", re.sub(r"-+>|<-+", " ", text[a1:b0]))
            if len(ops) != 1:
                continue
            relation = "below" if ops[0] in ("<", "<=", "=<", "≤") else "above"
            value = "1"
            if i + 3 < len(items):
                (p0, p1, pct), (c0, _, c) = items[i + 2], items[i + 3]
                sign = re.fullmatch(r"[\s)\]]*([+\-−])\s*", text[b1:p0])
                if (
                    sign
                    and self.profile[pct][0] == "%"
                    and family(self.profile[c][0]) == fam
                    and _MARGIN.fullmatch(text[p1:c0])
                ):
                    digits = str(self.claims[pct].fields.get("value"))
                    negative = sign.group(1) != "+"
                    self.drop_claim(pct)
                    fields: dict = {
                        "kind": "percent_change",
                        "statement": quote,
                        "of": [b, c],
                        "value": Num(f"-{digits}" if negative else digits),
                        "unit": "%",
                        **source_fields(line, quote),
                    }
                    sid = self.new_id(f"s-l{line}")
                    self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))
                    decimals = len(digits.split(".")[1]) if "." in digits else 0
                    ratio = round(1 + (-1 if negative else 1) * float(digits) / 100, decimals + 2)
                    value = _ratio_text(ratio, digits)
                    done |= {i + 1, i + 2, i + 3}
            fields = {
                "kind": "bound",
                "statement": quote,
                "over": {"numerator": {"id": a}, "denominator": {"id": b}},
                "relation": relation,
                "value": Num(value),
                "unit": "x",
                **source_fields(line, quote),
            }
            sid = self.new_id(f"s-l{line}")
            self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def drop_claim(self, cid: str) -> None:
        """Take back the claim ``cid`` drafted from a number that turned out to be part of a
        statement (a margin's "15%"): out of the entries and the indexes (its id stays taken)."""
        entry = self.claims.pop(cid, None)
        if entry is None:
            return
        self.out.entries = [e for e in self.out.entries if e is not entry]
        self.claim_ids.remove(cid)
        for ids in self.by_value.values():
            if cid in ids:
                ids.remove(cid)
        for key in [k for k, first in self.by_number.items() if first == cid]:
            del self.by_number[key]
        self.profile.pop(cid, None)

    def ratio_bound(
        self,
        rel,
        relation: str,
        sides: list[str] | None,
        sentence: str,
        line: int,
        in_sentence: list[tuple[Number, str]],
        candidates: list[str] | None = None,
    ) -> None:
        """A multiple or change written as a bound ("a speedup of ≥2.5×", "at least 20% faster",
        "more than 70% smaller", "七成以上"): a ``bound`` statement over the ratio of the two sides'
        sets (``over``, written by ``bound_sets`` once the claims' conditions are filled), a change
        of N% as the ratio 1 ± N/100 ("more than 70% smaller": below 0.3; "+15% margin": below
        1.15), the relation turned for a decrease; with no sides identified, a todo statement of
        kind bound listing the sentence's claims (never a claim of the value: a bound states none),
        or ``candidates`` (claims of its part of the post the words do not single out: always a
        todo, even two of them)."""
        n = rel.number
        digits = n.text.replace("−", "-").lstrip("+-")
        value = Num(digits)
        if rel.kind == "percent_change":
            decimals = len(digits.split(".")[1]) if "." in digits else 0
            sign = -1 if rel.sign < 0 or n.text[:1] in "-−" else 1
            value = Num(_ratio_text(round(1 + sign * float(digits) / 100, decimals + 2), digits))
            if sign < 0:
                relation = "below" if relation == "above" else "above"
        fields: dict = {"kind": "bound", "statement": sentence, "relation": relation, "value": value}
        if n.about:
            fields["about"] = True
        fields["unit"] = "x"
        fields.update(source_fields(line, sentence))
        sid = self.new_id(f"s-l{line}")
        entry = Entry("statement", sid, {"id": sid, **fields})
        self.out.entries.append(entry)
        if candidates:
            entry.fields["of"] = candidates  # no sides named: bound_sets writes the todo
            self.ratio_bounds.append((entry, candidates))
        elif sides is not None and len(sides) == 2:
            # a change from a to b is the ratio b / a
            self.ratio_bounds.append((entry, sides[::-1] if rel.kind == "percent_change" else list(sides)))
        else:
            self.ratio_bounds.append((entry, [cid for _, cid in in_sentence]))

    def contradicted_bounds(self) -> None:
        """A bound statement (``bound_statement``) whose drafted set is not what it bounds is a todo
        naming the claims on the wrong side of it:

        * a claim of its own sentence is on the other side ("around 50 tps on 5070Ti …, while using
          llama-cli, it can produce over 140 tps": an author does not contradict a bound in its own
          sentence; the conditions drafted do not tell the two runs apart);
        * the set holds claims on both sides ("without regressing the 40+ tok/s high-acceptance
          path" over every decode rate of the post: 42.91 on the high-acceptance prompt, 8.87 and
          18.28 on the others): the words name a part of it the conditions do not.

        A set wholly on the other side stays a statement: the audit judges it (the post's numbers
        all contradict it).  Run after the claims' conditions are filled (``draftcontext.fill``),
        as the audit reads them."""
        for k, entry in enumerate(self.out.entries):
            f = entry.fields
            if entry.kind != "statement" or f.get("kind") != "bound":
                continue
            over = f.get("over") or {}
            numerator = over.get("numerator") or {}
            bound = plain_value(str(f["value"]))
            if "metric" not in numerator or "denominator" in over or bound is None:
                continue  # a bound of the values themselves, not of a ratio of two sets
            against, within, own = [], 0, False
            for cid, c in self.claims.items():
                cf = c.fields
                if cf.get("metric") != numerator["metric"]:
                    continue
                flat = {key.rsplit(".", 1)[-1]: v for key, v in self.flat_conditions(cid).items()}
                if any(flat.get(x) != v for x, v in numerator.items() if x != "metric"):
                    continue
                value = self._value(cid)
                if value is None:
                    continue
                value *= _factor(cf.get("unit"), f.get("unit"))
                if (value < bound) if f.get("relation") == "above" else (value > bound):
                    against.append(cid)
                    own |= cf.get("source_line") == f.get("source_line") or cf.get("quote") == f.get("quote")
                else:
                    within += 1
            if not against or not (own or within):
                continue
            why = "of its own sentence" if own else f"beside {within} within it"
            todo = (
                f"a bound ({f['relation']} {f['value']}) whose drafted set holds {', '.join(against)} {why}, "
                "on the other side of it: write `over` to name the runs it bounds (conditions that tell "
                "them apart), then delete `todo`"
            )
            fields = {
                "id": entry.id,
                "todo": todo,
                **{x: v for x, v in f.items() if x not in ("id", "over", "relation")},
            }
            fields["of"] = against
            self.out.entries[k] = Entry("todo", entry.id, fields, entry.group)

    def bound_sets(self) -> None:
        """The ``over`` of each bound drafted by ``ratio_bound``, from the claims' conditions as
        filled: the numerator's set is the first side's metric and the conditions it does not share
        with the second, the denominator's likewise, ``match`` the conditions they share ("≥2.5×
        faster with a draft": decode_tps with decoding speculative over decode_tps with decoding
        plain); where no condition tells them apart, the two claims by ``id``.  With no two sides,
        a todo statement of kind bound listing the sentence's claims, saying what to write."""
        for entry, sides in self.ratio_bounds:
            k = self.out.entries.index(entry)
            f = entry.fields
            over: dict = {}
            if len(sides) == 2 and entry.fields.get("of") is None:
                a, b = sides
                fa = {key.rsplit(".", 1)[-1]: v for key, v in self.flat_conditions(a).items()}
                fb = {key.rsplit(".", 1)[-1]: v for key, v in self.flat_conditions(b).items()}
                over = {
                    "numerator": {
                        "metric": self.metric_of_claim(a),
                        **{x: v for x, v in fa.items() if fb.get(x) != v},
                    },
                    "denominator": {
                        "metric": self.metric_of_claim(b),
                        **{x: v for x, v in fb.items() if fa.get(x) != v},
                    },
                }
                shared = [x for x, v in fa.items() if fb.get(x) == v]
                if shared:
                    over["match"] = shared
            if over and over["numerator"] == over["denominator"]:
                # no condition tells the two sides apart: the bound is over those two claims
                over = {"numerator": {"id": sides[0]}, "denominator": {"id": sides[1]}}
            if over:
                at = list(f).index("relation")
                items = list(f.items())
                self.out.entries[k] = Entry(
                    "statement", entry.id, dict([*items[:at], ("over", over), *items[at:]])
                )
                continue
            todo = (
                f"a bound ({f['relation']} {f['value']}): write `over` (numerator and denominator: the sets "
                "whose ratio it bounds) and `relation`, then delete `todo`"
            )
            fields = {
                "id": entry.id,
                "todo": todo,
                **{x: v for x, v in f.items() if x not in ("id", "relation")},
            }
            fields["of"] = list(dict.fromkeys(sides))
            self.out.entries[k] = Entry("todo", entry.id, fields, entry.group)

    def multiple_claim(
        self, n: Number, sign: int, s0: int, sentence: str, line: int, other: str = ""
    ) -> None:
        """A ``speedup`` (``slowdown`` for "slower", "regression") claim of a multiple whose sides
        the post does not state ("nearly 2x faster"), under the conditions the section and the
        sentence name.  "the 15× headline" restating a multiple the post stated before (one claim
        of that value and unit) is that claim: nothing new drafted."""
        metric = "slowdown" if sign < 0 else "speedup"
        if n.range is None and _ends_with(_RESTATED, sentence, max(0, n.start - s0)):
            same = self.by_value.get((str(Num(n.text.lstrip("+"))), n.unit), [])
            if len(same) == 1 and self.claims[same[0]].fields.get("metric") == metric:
                return
            if any(
                e.fields.get("kind") == "bound"
                and str(e.fields.get("value")) == str(Num(n.text.lstrip("+")))
                and e.fields.get("unit") == n.unit
                for e in self.out.entries
                if e.kind in ("statement", "todo")
            ):
                return  # "not the 15× headline" after "up to 15× higher": the bound stated before
        cfields: dict = {"metric": metric, **number_fields(n)}
        cid = self.phrase_claim(cfields, n, s0, sentence, line, f"{metric}-l{line}", other)
        if n.range is None:
            clause = sentence[slice(*self._clause_of(sentence, n.start - s0, 0, sentence))]
            self.multiple_claims.append((cid, rate_named(clause) or "decode_tps"))  # ``later_sides``

    def difference_claim(self, n: Number, s0: int, sentence: str, line: int, before: str) -> None:
        """A claim of a difference whose sides the post does not state ("5 tokens/s faster than
        HuggingFace", "about 1.95 GiB smaller"): metric ``<the unit's metric>_difference``
        (``metric_of`` of the words before it: ``decode_tps_difference``, ``model_size_difference``),
        its value as written (``Relation.sign`` is in the sentence it quotes)."""
        metric = f"{metric_of(n.unit, before) or family(n.unit)}_difference"
        cid = self.phrase_claim(
            {"metric": metric, **number_fields(n)},
            n,
            s0,
            sentence,
            line,
            f"{metric.replace('_', '-')}-l{line}",
        )
        if self.headline_claims and self.headline_claims[-1] == cid:
            self.headline_claims.pop()  # no multiple for the body to find sides of

    def later_sides(self) -> None:
        """A multiple drafted as a claim for want of sides (``multiple_claim``: "Version 0.7.0 is 3
        times slower compared to 0.6.8", "the eval time is ~2x faster" above the logs that give the
        rates) whose rates the post states after it: where the post has exactly two claims of the
        phase its clause names (generation where it names none), both below it, in one unit, the
        larger over the smaller within ``_FAR`` of the stated multiple and no statement relating them
        already, it is a ratio statement of them (the larger first, for "faster" and "slower"
        alike), in the claim's place.  So is a
        change drafted as a claim after a pair with no unit ("41.3 -> 63.5 (+54%)" in a title,
        ``change_claim``: the pair gives the stated change) where the post has one claim of each
        value, in one unit and metric (the table below it).  Called once every claim is drafted."""
        units_of: dict[str, list[str | None]] = {}  # value text -> its units: per pair, quadratic
        for v, u in self.by_value:
            units_of.setdefault(v, []).append(u)
        for cid, a, b in self.bare_pairs:
            # "41.3 -> 63.5 (+54%)" in a title over the table that states 41.3 and 63.5 tok/s
            entry = self.claims.get(cid)
            pair = [
                (x[0], y[0])
                for u in units_of.get(a, [])
                for x, y in [(self.by_value.get((a, u), []), self.by_value.get((b, u), []))]
                if len(x) == 1 and len(y) == 1 and self.metric_of_claim(x[0]) == self.metric_of_claim(y[0])
            ]
            if entry is None or len(pair) != 1:
                continue
            self._replace_claim(
                entry, cid, "percent_change", "%", list(pair[0]), f"the pair {a} → {b} stated below"
            )
        # a pair the body relates itself ("141 tok/s against 60 tok/s (2x)"): a coarse summary above
        # it stays a claim (``draftheadlines`` decides where the digits name one relation)
        related = {c for e in self.out.entries if e.kind == "statement" for c in e.fields.get("of") or []}
        # the claims of each metric and of each line, once (per multiple claim, a pass over every claim
        # was quadratic in a long post); a multiple replaced below is no rate of a phase nor a side
        by_metric: dict[str, list[str]] = {}
        on_line: dict[object, list[str]] = {}
        for c in self.claim_ids:
            if c in self.claims:
                by_metric.setdefault(str(self.metric_of_claim(c)), []).append(c)
                on_line.setdefault(self.claims[c].fields.get("source_line"), []).append(c)
        for cid, phase in self.multiple_claims:
            entry = self.claims.get(cid)
            if entry is None or "value" not in entry.fields:
                continue
            if self.line_pair(entry, cid, related, on_line.get(entry.fields.get("source_line"), [])):
                continue
            if _AGAINST_EXPECTED.search(str(entry.fields.get("quote") or "")):
                continue  # "5x slower than expected": against an expectation, no claims of the post
            line = entry.fields.get("source_line")
            of_phase = by_metric.get(phase, [])
            if len(of_phase) > 3 or not of_phase:
                # two claims of the phase are wanted (this loop removes none of them); else the one
                # row below it whose two cells give it (a title's "2x slower than SGLang" over a table)
                self.row_pair(entry, cid, on_line)
                continue
            rates = [c for c in of_phase if c != cid and c in self.claims]
            if len(rates) != 2 or not isinstance(line, int):
                continue
            lines = [self.claims[c].fields.get("source_line") for c in rates]
            if not all(isinstance(x, int) and x > line for x in lines):
                continue
            if self.profile[rates[0]][0] != self.profile[rates[1]][0]:
                continue
            va, vb = self._value(rates[0]), self._value(rates[1])
            stated = float(str(entry.fields["value"]))
            if not va or not vb or va == vb or not stated:
                continue
            big, small = (rates[0], rates[1]) if va > vb else (rates[1], rates[0])
            implied = max(va, vb) / min(va, vb)
            if abs(implied - stated) / stated > _FAR or related >= {big, small}:
                continue
            note = f"sides found below it: the post's only two {phase} claims ({implied:.2f})"
            self._replace_claim(entry, cid, "ratio", "x", [big, small], note)

    def row_pair(self, entry: Entry, cid: str, on_line: dict[object, list[str]]) -> bool:
        """A multiple drafted as a claim, with no two claims of its phase to relate (``later_sides``:
        "[Bug]: Qwen3-32B-FP8 2x slower than SGLang" over a table of TPOTs, h548): the one pair of
        claims of one line below it (a table's row: its arms side by side), of one metric and unit,
        whose larger over smaller is within ``_FAR`` of the stated multiple: a ratio statement of them,
        the larger first, in the claim's place (a "boost" column relating them too states its own
        figure: the title's 2x is the title's).  True when drafted."""
        line, stated = entry.fields.get("source_line"), plain_value(str(entry.fields["value"]))
        if not isinstance(line, int) or stated is None or stated <= 1:
            return False
        quote = str(entry.fields.get("quote") or "")
        if not _AGAINST_NAMED.search(quote) or _AGAINST_EXPECTED.search(quote):
            return False  # "gives me 1.37x", "~5x slower than expected": no two arms named to find
        fits = []
        # (the lines within ``_ROW_REACH`` below it only: every line for each multiple was quadratic)
        for at in range(line + 1, line + 1 + _ROW_REACH):
            ids = on_line.get(at)
            if not ids:
                continue
            mine = [
                c for c in ids if c != cid and family(self.profile[c][0]) not in ("ratio", "multiple", None)
            ]
            for k, a in enumerate(mine):
                for b in mine[k + 1 :]:
                    va, vb = self._value(a), self._value(b)
                    if (
                        not va
                        or not vb
                        or va == vb
                        or self.metric_of_claim(a) != self.metric_of_claim(b)
                        or self.profile[a][0] != self.profile[b][0]
                    ):
                        continue
                    if abs(max(va, vb) / min(va, vb) - stated) / stated <= _FAR:
                        fits.append((a, b) if va > vb else (b, a))
        if len(fits) != 1:
            return False
        big, small = fits[0]
        self._replace_claim(
            entry, cid, "ratio", "x", [big, small], "sides found below it: the one row whose pair gives it"
        )
        return True

    def line_pair(self, entry: Entry, cid: str, related: set[str], on_line: list[str] | None = None) -> bool:
        """A multiple drafted as a claim (``multiple_claim``: "**Warm chats 7.7× faster.**") whose
        line (its paragraph or bullet) states the pair it is the quotient of ("... drops from 271 ms
        to 35 ms" after it): the one pair of the line's other claims of one metric and unit whose
        larger over smaller gives the stated digits (``draftbyvalue.fitting_pair``: "2×" is too
        coarse to pick a pair), no statement relating them already: a ratio statement of them, the
        larger first (faster and slower alike), in the claim's place.  True when drafted.
        ``on_line``: the claims of the entry's line where the caller indexed them (else all)."""
        line, stated = entry.fields.get("source_line"), plain_value(str(entry.fields["value"]))
        if not isinstance(line, int) or stated is None or stated <= 1:
            return False
        mine = [
            c
            for c in (self.claim_ids if on_line is None else on_line)
            if c != cid
            and c in self.claims
            and self.claims[c].fields.get("source_line") == line
            and family(self.profile[c][0]) not in ("ratio", "multiple", None)
        ]
        values = [(c, v) for c in mine if (v := self._value(c)) is not None]
        pair = fitting_pair(
            "ratio",
            stated,
            decimals_of(str(entry.fields["value"])),
            bool(entry.fields.get("about")),
            values,
            lambda a, b: (
                self.metric_of_claim(a) == self.metric_of_claim(b)
                and self.profile[a][0] == self.profile[b][0]
            ),
        )
        if pair is None or related >= set(pair):
            return False
        self._replace_claim(entry, cid, "ratio", "x", pair, "sides found by value: the pair its line states")
        return True

    def _replace_claim(
        self, entry: Entry, cid: str, kind: str, unit: str, sides: list[str], note: str
    ) -> None:
        """Put a statement of ``kind`` citing ``sides`` in the place of the claim ``cid`` (``entry``)
        that stated the same relation for want of them (``later_sides``)."""
        line = int(entry.fields["source_line"])
        sid = self.new_id(f"s-l{line}")
        quote = str(entry.fields.get("quote") or "")
        fields = {
            "id": sid,
            "kind": kind,
            "statement": quote[:QUOTE],
            "of": [first_repeat(self, c) for c in sides],
            **{k: entry.fields[k] for k in ("value", "about") if k in entry.fields},
            "unit": unit,
            "note": note,
            **source_fields(line, quote),
        }
        at = self.out.entries.index(entry)
        self.drop_claim(cid)
        self.out.entries.insert(at, Entry("statement", sid, fields))

    def bound_statement(
        self, n: Number, relation: str, metric: str, cond: dict, line: int, sentence: str
    ) -> None:
        """A ``bound`` statement for a number written as a bound ("40+ tok/s", "<9%", "at least 12
        GB", ``draftprose.bound_of``): every claim of ``metric`` under the conditions the sentence
        and section name (``cond``, its plain top-level values) is ``relation`` (below | above) the
        number, in its unit (``schema.Statement``; docs/claims.md, "bound")."""
        numerator: dict[str, object] = {"metric": metric}
        numerator.update(
            {k: v for k, v in cond.items() if k != "other" and isinstance(v, str | int | float | bool)}
        )
        fields: dict = {
            "kind": "bound",
            "statement": sentence[:QUOTE],
            "over": {"numerator": numerator},
            "relation": relation,
            "value": Num(n.text.lstrip("+")),
        }
        if n.about:
            fields["about"] = True
        fields["unit"] = n.unit
        fields.update(source_fields(line, sentence))
        sid = self.new_id(f"s-l{line}")
        self.out.entries.append(Entry("statement", sid, {"id": sid, **fields}))

    def plain_baseline(self, sides: list[str], sign: int = 1) -> None:
        """A comparison of a speculative side with one whose decoding is not stated compares it with
        plain decoding ("85 t/s, and with a draft model it reached 141 t/s, 1.66x faster"): the
        other side's ``decoding`` is set to plain (a prose claim of its own, not a table row).  So
        is a comparison of two rates of one sentence that both took its "speculative decoding"
        ("speculative decoding is about 2.4x faster (110 vs 61 tok/s)"): the slower of a gain
        (``sign`` > 0), the faster of a loss, is the baseline."""
        decodings = [self.flat_conditions(c).get("decoding") for c in sides]
        if decodings == ["speculative", "speculative"] and all(
            self.claims[c].group is None
            and family(self.profile[c][0]) == "rate"
            and self.claims[c].fields.get("source_line") == self.phrase_line
            for c in sides
        ):
            a, b = (self._value(c) for c in sides)
            if a is not None and b is not None and a != b:
                slower = sides[0] if a < b else sides[1]
                faster = sides[1] if slower == sides[0] else sides[0]
                decodings[sides.index(slower if sign > 0 else faster)] = None
        if sorted(map(str, decodings)) != ["None", "speculative"]:
            return
        other = self.claims[sides[decodings.index(None)]]
        if other.group is None:
            other.fields.setdefault("conditions", {})["decoding"] = "plain"
            if self._flat is not None:
                self._flat.pop(other.id, None)
                self._values = None

    def sides_by_condition(self, subject: str, other: str, sentence: str) -> tuple[str, str] | None:
        """The two claims a comparison names by the values of one condition: a value of it in the
        words before the stated number (``subject``: "b11434 is about") and another in the words
        naming the other side (``other``: "b4000"), each the condition of a drafted claim (among
        the last ``_REACH``) that agrees with the other on metric and every other condition both
        state (the sides differ in the one condition named; one stated on one side only is not
        different); rates and times only where the phrase is about speed (``rates_only``).  Of several such
        pairs (a table of pp and tg per build) the one of the metric the sentence names ("prompt
        processing"); None when no single pair remains."""
        recent = self.claim_ids[-_REACH:]
        if self.rates_only:
            # "2x faster than plain decoding" relates rates, never the memory of the next line
            recent = [c for c in recent if family(self.profile[c][0]) in ("rate", "time")]
        low_s, low_o = subject.lower(), other.lower()

        def said(value: str, words: str) -> bool:
            return re.search(rf"(?<![\w.-]){re.escape(value.lower())}(?![\w])", words) is not None

        values = self._recent_values()
        in_subject = [(p, v) for p, v in values if said(v, low_s)]
        in_other = [(p, v) for p, v in values if said(v, low_o)] if in_subject else []
        flat = {cid: self.flat_conditions(cid) for cid in recent} if in_other else {}
        pairs: list[tuple[str, str]] = []
        for p, v1 in in_subject:
            for p2, v2 in in_other:
                if p2 != p or v1 == v2:
                    continue
                for a in recent:
                    if flat[a].get(p) != v1:
                        continue
                    for b in recent:
                        if (
                            flat[b].get(p) == v2
                            and self.metric_of_claim(a) == self.metric_of_claim(b)
                            and all(flat[b][k] == x for k, x in flat[a].items() if k != p and k in flat[b])
                        ):
                            pairs.append((a, b))
        pairs = list(dict.fromkeys(pairs))
        if len(pairs) > 1:
            named = [
                m
                for m, words in METRIC_WORDS_OF.items()
                if re.search(rf"\b(?:{words.replace(' ', '|')})", sentence, re.I)
            ]
            pairs = [(a, b) for a, b in pairs if self.metric_of_claim(a) in named] if len(named) == 1 else []
        return pairs[0] if len(pairs) == 1 else None

    def _recent_values(self) -> list[tuple[str, str]]:
        """The (condition, value) pairs of string values of two characters or more that the last
        ``_REACH`` claims state (``flat_conditions``; ``sides_by_condition``).  While the relations
        of a paragraph are drafted the pairs are counted once and the count moved along as claims
        are added (``_values``): read from every recent claim per phrase, a paragraph of thousands
        of phrases read millions of conditions."""

        def pairs(k: int) -> list[tuple[str, str]]:
            f = self.flat_conditions(self.claim_ids[k])
            return [(p, v) for p, v in f.items() if isinstance(v, str) and len(v) >= 2]

        n = len(self.claim_ids)
        lo = max(0, n - _REACH)
        if self._flat is None:  # not within a paragraph's relations: read them all
            return list({pair for k in range(lo, n) for pair in pairs(k)})
        a, b, counts = self._values if self._values is not None else (lo, lo, {})
        for k in range(max(a, b, lo), n):
            for pair in pairs(k):
                counts[pair] = counts.get(pair, 0) + 1
        for k in range(a, min(b, lo)):
            for pair in pairs(k):
                counts[pair] -= 1
                if not counts[pair]:
                    del counts[pair]
        self._values = (lo, n, counts)
        return list(counts)

    def named_by(self, words: str, exclude: set[str], fam: str | None) -> str | None:
        """The claim whose quote and conditions share most words with ``words`` (two or more, and
        more than any other claim of the family ``fam``), or None."""
        scored = self.scored(words, exclude, fam)
        if not scored or scored[0][0] < 2 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return None
        return scored[0][1]

    def scored(self, words: str, exclude: set[str], fam: str | None = None) -> list[tuple[int, str]]:
        """Claims sharing words with ``words`` (their label, conditions and metric's words), most
        first: among the last ``_REACH`` claims drafted (a post relates numbers it has stated, and
        a long post stays linear)."""
        first = max(0, len(self.claim_ids) - _REACH)
        shared: dict[int, int] = {}  # where in claim_ids -> how many of the words its profile holds
        for word in word_set(words):  # from the index: per phrase, every recent profile was read
            at = self.by_word.get(word, [])
            for k in at[bisect.bisect_left(at, first) :]:
                shared[k] = shared.get(k, 0) + 1
        out = []
        for k in sorted(shared):
            cid = self.claim_ids[k]
            if cid in exclude or (fam is not None and family(self.profile[cid][0]) != fam):
                continue
            out.append((shared[k], cid))
        return sorted(out, key=lambda x: -x[0])

    def candidates(self, words: str, exclude: set[str]) -> list[str]:
        return [cid for _, cid in self.scored(words, exclude)[:4]]

"""Phrases that relate numbers in one piece of a post's prose (issue 29: "2.1× faster", "40% more",
"about 57% of", "roughly 3×", "just 12% on the other prompt").

A relating phrase (``relations``) is a ``Relation``: its kind (ratio, percent_change), the stated
number (``draftprose.Number``), its direction (``sign``) and the words after it that name the other
side; a signed percentage after a pair "A → B unit" is the change from A to B (``_changed_pair``).
``draft`` finds the claims it relates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .draftprose import Number, family

#: comparison words after a multiple or percentage: the direction of a change (Korean, Japanese,
#: Chinese, German, French and Spanish words too: "N배 빠른", "N%速く", "快了", "N% schneller"; "70% on
#: top of the baseline")
_MORE = (
    r"faster|quicker|more|higher|better|greater|larger|increase|gain|speed-?up|up|boost|improvement|"
    r"uplift|jump|bump|on top|advantage|edge|"
    r"빠른|빨라|빠르|높|향상|증가|더|速い|速く|高速|高い|向上|改善|増加|増|快|提升|提高|增加|加快|"
    r"schneller|höher|plus rapide|más rápid[oa]|mais rápid[oa]|быстрее|выше|"
    # "10.7% ahead of vLLM", "50% mehr als ohne", "30% más", "20% больше" (not "ahead-of-time", not
    # "más o menos"/"mais ou menos": more or less; French "mais" is "but")
    r"ahead(?![\w-])|mehr|más(?!\s+o\s+menos)|больше"
)
_LESS = (
    r"slower|less|lower|fewer|worse|smaller|decrease|drop|down|loss|reduction|regression|slowdown|"
    # ("a 20% performance hit"; not a cache's "65% hit rate", a share of lookups)
    r"penalty|hit(?![\s_-]*(?:rate|ratio))|"
    r"느린|느려|느리|낮|감소|遅い|遅く|低い|低下|削減|短縮|減少|減|慢|减少|降低|下降|缩短|"
    r"langsamer|niedriger|plus lent|más lent[oa]|mais lent[oa]|медленнее|ниже|"
    r"behind|weniger|(?<!más o )(?<!mais ou )menos|меньше"
)
#: what a change may be said of between its percentage and its comparison word ("a 45% performance
#: advantage", "40% TTFT improvement", "15% 的性能提升", "19~27% 성능 향상")
_CHANGED = (
    r"성능이?|性能|パフォーマンス|速度|スピード|performance|perf|speed|throughput|ttft|tpot|itl|latency|"
    r"decode|prefill|(?:token\s+)?generation|inference|pp|tg|prompt\s+processing"
)
#: a remark in parentheses between a percentage and its comparison word ("13% (context of 65k
#: tokens) improvement")
_REMARK_AFTER = r"(?:\s*[(（][^()（）]{0,60}[)）])?"
#: the second percentage of a pair one comparison word serves ("6% (short context) to 13% (long)
#: improvement", "~10% PP and ~2% TG improvement"): the word after it is the first's too
_PAIRED_AFTER = (
    rf"(?:\s*(?:to|and|or|[-–~])\s*[~≈]?\s*[+\-−]?\d+(?:\.\d+)?\s?%{_REMARK_AFTER}"
    rf"\s*(?:(?:{_CHANGED})\s+)?)?"
)
#: metrics a lower value of is better: an improvement of them is a decrease
_LOWER_BETTER = r"ttft|tpot|itl|latency"
#: a metric a lower value of is better named as the subject before a change's number, in its clause
#: ("MacのTTFTが30%改善", "TTFT improved by 30%", "延迟改善了30%")
_LOWER_BEFORE = re.compile(
    rf"(?i)(?<![a-z])(?:{_LOWER_BETTER}|レイテンシ|遅延|延迟|首字|지연)(?![a-z])[^.,;:!?、。，；！？]{{0,30}}$"
)
#: a rate named as what changed ("Throughput at the same p99 latency improved by 30%", "低レイテンシ設定
#: でのスループットが30%改善", "… improvement in throughput"): no time improved, whatever latency is named
_RATE_SUBJECT = re.compile(
    r"(?i)\s*(?:in|of)?\s*(?:the\s+)?(?:throughput|speed|tokens?\s+per\s+second|tok/s|t/s|tps|rate)"
    r"|(?i:throughput|speed|tokens?\s+per\s+second|tok/s|tps)|スループット|速度|吞吐|처리량"
)
#: comparison words saying better, not higher ("improvement", "gain"): of ``_LOWER_BETTER`` a decrease
_BETTER = r"improvement|better|gain|boost|uplift|advantage|edge|speed-?up|改善|改进|개선"
#: verbs right before a percentage that make it a change ("throughput drops 11%", "increases
#: roughly 50%", "速度提升了23%", "improved by 12%", "flash attention adds 9%", "is worth 10%", "the
#: cache saves 30%", "offloading costs 12%"; Chinese with a precision word between: "快约 14%",
#: "慢了近 10%"): the direction from the verb
_MORE_BEFORE = (
    r"increas\w*|ris(?:e|es|ing)|rose|gr(?:ow|ows|ew|owing)|improv\w*|gain(?:s|ed)?|jump(?:s|ed)?|"
    r"climb(?:s|ed)?|boost(?:s|ed|ing)?|speeds? up|sped up|went up|goes up|up|add(?:s|ed|ing)?|"
    r"rais(?:e|es|ed|ing)|lift(?:s|ed)?|worth|beat(?:s|ing)?|outperform(?:s|ed|ing)?|"
    # a margin won by ("vLLM wins multi-user throughput by 320%"; "wins 20% of runs" is a share)
    r"(?:win(?:s|ning)?|won)(?=(?:\s+[\w./-]+){0,5}?\s+by\s*$)|"
    r"aceler\w*|ganhos?|ganancias?|melhor\w*|mejor\w*|"
    r"(?:(?:提升|提高|增加|加快|快|领先|快出|高出)了?|略优于?|优于)(?:约|大约|近|将近|超过)?"
)
_LESS_BEFORE = (
    r"drop(?:s|ped|ping)?|f(?:all|alls|ell|alling)|decreas\w*|declin\w*|reduc\w*|regress\w*|shr[iu]nk\w*|"
    r"los(?:e|es|t|ing)|slow(?:s|ed|ing)? down|went down|goes down|down|cut(?:s|ting)?|slash\w*|"
    r"sav(?:e|es|ed|ing)|"
    r"cost(?:s|ing)?|shav(?:e|es|ed|ing)|lower(?:s|ed|ing)|trim(?:s|med)?|shorten\w*|"
    r"(?:降低|下降|减少|慢|压缩|缩小|缩减|节省)了?(?:约|大约|近|将近|超过)?"
)
#: (up to five words may stand between the verb and "by": "improved prefill by 35%", "cut the
#: peak memory by 40%", "reduces first-token latency by 20%", "increases inference speeds using
#: multiple P40s by about 30%")
_BEFORE = re.compile(
    # a whole word ("long-form prose ~31%" holds no "rose"; Chinese verbs follow Chinese letters)
    rf"(?<![A-Za-z])(?:(?P<less>{_LESS_BEFORE})|(?P<more>{_MORE_BEFORE}))"
    # (whom it costs or saves, right after the verb: "Ollama costs you 18–23% single-user speed")
    rf"(?:\s+(?:you|us|me|them))?"
    rf"(?:(?:\s+[\w./-]+){{0,5}}?\s+(?:by|em|en|por|um|на))?\s*(?:(?:of|de)\s+)?$",
    re.IGNORECASE,
)
#: a noun of a gain (``_NOUN_BEFORE``, ``_NOUN_BEFORE_APPROX``)
_GAIN_NOUN = r"(?<![A-Za-z])(?P<less>(?!))?(?P<more>speed-?ups?|improvements?|gains?|boosts?|uplifts?)"
#: a noun of a gain a few words before its percentage, a dash, colon or "of" and an about-word between
#: ("a much more significant speedup for Qwen3.6-35B-A3B - about 65%", "a gain of about 30%", "an
#: improvement of roughly 12%"): a change, as "improved by 12%" is (``_BEFORE``'s groups)
_NOUN_BEFORE = re.compile(
    _GAIN_NOUN + r"(?:\s+(?!(?:and|but|while|whereas)\b)[\w./-]+){0,4}?\s*(?:[-–—:]|\bof\b)\s*"
    r"(?:(?:about|around|roughly|approximately|nearly|almost|~|≈)\s*)?$",
    re.IGNORECASE,
)
#: the same noun of a gain, then a comma, before an approximate amount ("the gain is basically
#: nothing, about 4%": the number's own "about" is read with it, ``relations``)
_NOUN_BEFORE_APPROX = re.compile(
    _GAIN_NOUN + r"(?:\s+(?!(?:and|but|while|whereas)\b)[\w./-]+){0,4}?\s*,\s*$",
    re.IGNORECASE,
)
#: a verb of change and "by" right before a size, time or rate ("drops peak memory by 11.2 GB", "cuts
#: TTFT by 120 ms", "raises decode by 4 tok/s"): a difference (``_BEFORE``'s verbs; "by" required)
_BY_BEFORE = re.compile(
    rf"(?<![A-Za-z])(?:(?P<less>{_LESS_BEFORE})|(?P<more>{_MORE_BEFORE}))(?:\s+[\w./-]+){{0,5}}?\s+by\s*"
    r"(?:(?:about|around|roughly|approximately|nearly|almost|~|≈)\s*)?$",
    re.IGNORECASE,
)
#: what a word multiple may multiply that is a setting, not a result: "for twice the load", "doubling
#: the batch", "triple the context" (the sides would be the settings, which are no claims)
_SETTING_AFTER = (
    r"(?!\s+(?:the\s+|its\s+)?(?:load|users?|clients?|requests?|concurrency|batch(?:\s+size)?|context|"
    r"ctx|threads?|gpus?|cards?|nodes?|price|cost|budget|prompts?|draft\s+length|layers?)\b)"
)
#: a multiple written as a word: "doubles", "nearly triples", "twice as fast", "half the speed",
#: "翻了一倍" (doubled), "倍増", "두 배", "doppelt so schnell"; not of a setting (``_SETTING_AFTER``)
_WORD_MULTIPLES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"\b(?:doubl(?:es|ed|ing)|double(?= the| its)|twice(?= as| the)|(?:2|two)-fold)\b"
            + _SETTING_AFTER,
            re.I,
        ),
        "2",
    ),
    (
        re.compile(
            r"\b(?:tripl(?:es|ed|ing)|triple(?= the| its)|three times(?= as| the)|thrice)\b" + _SETTING_AFTER,
            re.I,
        ),
        "3",
    ),
    (re.compile(r"\b(?:quadrupl(?:es|ed|ing)|quadruple(?= the| its))\b" + _SETTING_AFTER, re.I), "4"),
    (
        re.compile(
            r"\b(?:halv(?:es|ed|ing)|half (?:as|the (?:speed|throughput|rate|size|memory|time|latency|"
            r"tokens?|accepted|performance)))\b",
            re.I,
        ),
        "0.5",
    ),
    (re.compile(r"翻了?一倍|翻倍|倍増|두\s?배|doppelt so"), "2"),
    (re.compile(r"halb so"), "0.5"),
]
#: a multiple written "N-fold"
_FOLD = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*-?\s*fold\b", re.IGNORECASE)
#: a multiple written in digits and another language's word for "times", then a comparison word
#: (German "2,5-mal schneller", "3-fach höher"; Russian "в 2,5 раза быстрее"; French "2,5 fois plus
#: rapide"; Spanish and Portuguese "2,5 veces más rápido", "2 vezes mais"): the number as a
#: multiple; "3 mal gemessen", "2 раза подряд" (counts of runs) have no comparison word after
#: them.  ``less``: the comparison says slower, lower, less
_LANG_TIMES = re.compile(
    r"(?<![\w.,])(?P<n>\d+(?:[.,]\d+)?)\s*-?\s*(?:mal|fach|раза?|fois|veces|vezes)\s+(?:so\s+)?"
    r"(?:(?P<less>langsamer|niedriger|weniger|kleiner|медленнее|ниже|меньше|moins|menos|"
    r"(?:plus|más|mais)\s+lent[oa]?s?)|(?P<more>schneller|höher|mehr|größer|schnell|hoch|viel|быстрее|"
    r"выше|больше|plus|más|mais))(?!\w)",
    re.IGNORECASE,
)
#: a comparison word right before a multiple written with 倍 ("慢1倍", "快了2倍", "提升1倍")
_CJK_COMPARED = re.compile(
    r"(?:(?P<less>慢|降低|下降|减少|減少|遅く?)|(?P<more>快|提升|提高|增加|増加|速く?))了?\s*$"
)
#: a Russian verb of slowing or speeding before "в N раз(а)" in its clause ("будет тормозить RTX 4090 …
#: в 1.75 раза", "ускоряет генерацию в 2 раза")
_SLOWS_BY = re.compile(r"(?i)(?:(?P<less>тормоз\w*|замедл\w*)|(?P<more>ускор\w*))[^.,;!?]*\bв\s*$")
#: what names the other side after such a comparison: "als", "чем", "que" (than)
_LANG_THAN = re.compile(r"^\s*(?:\w+\s+){0,2}?(?:als|чем|que|than)\s+", re.IGNORECASE)
#: words right after a number that make it approximate: "10%程度" (about 10%), "15%ほど", "5%左右"
_ABOUT_AFTER = r"程度|ほど|くらい|ぐらい|前後|左右|上下"
#: acceptance words: a percentage beside them is an acceptance rate, no relation
_ACCEPT = re.compile(r"accept|수락|採択|受理|接受", re.IGNORECASE)
_ABOUT_BEFORE = re.compile(
    r"(?:about|around|roughly|nearly|almost|approximately|~|≈|약|約|ほぼ|(?:大约|约|大概)有?|etwa|ungefähr|fast|"
    r"cerca de|aproximadamente|примерно|около)\s*$",
    re.IGNORECASE,
)
#: "3 times" counting repetitions: after a verb of running ("ran it 3 times", "repeated 5 times"),
#: or with what counts them after it ("3 times in a row", "3 times each", "5 times and took the
#: median") or nothing ("... 3 times."); "7 times Qwen 3.8", "3 times faster" compare
_RUN_BEFORE = re.compile(
    r"\b(?:r[au]n|runs|running|repeat\w*|measur\w*|test\w*|tried|tries|tr(?:y|ying)|execut\w*|"
    r"call\w*|sampl\w*|benchmark\w*|did|do|does|done|each|every)\b(?:\s+\w+){0,3}\s*(?:about\s+)?$",
    re.IGNORECASE,
)
_RUN_AFTER = re.compile(
    r"\s*(?:$|[.,;:!?)]|in a row|each|per\b|with\b|and\b|to\b|for\b|on\b|at\b|over\b|"
    r"in\b|before|after|until|back)",
    re.IGNORECASE,
)
_TIMES_COMPARED = re.compile(rf"\s*(?:(?:{_MORE})|(?:{_LESS})|the\b|as\b|than\b)", re.IGNORECASE)


@dataclass(frozen=True)
class Relation:
    """A phrase relating two numbers: ``kind`` ratio | percent_change | difference, the stated
    ``number`` (its unit x or %, or the pair's unit for a difference; a multiple written as a word
    is a ``Number`` of its value, "doubles" -> 2), ``sign`` (-1 for slower/less/lower), ``other``:
    the words naming the other side ("plain decoding"), ``start``: where in the piece."""

    kind: str
    number: Number
    sign: int
    other: str
    start: int
    #: the two numbers it relates where the text pairs them ("31.9 → 52.8 tok/s (+65.5%)": from
    #: the first to the second), else None
    pair: tuple[Number, Number] | None = None


def repetitions(text: str, n: Number) -> bool:
    """Whether ``n``, a multiple written "N times", counts repetitions ("ran it 3 times", "3 times
    in a row"): no comparison word right after it (``_TIMES_COMPARED``), and a verb of running
    before it (``_RUN_BEFORE``) or a count's words or a clause's end after it (``_RUN_AFTER``)."""
    written = (n.unit_written or "").lower()
    if n.unit != "x" or written != "times" or _TIMES_COMPARED.match(text, n.end):
        return False
    return bool(_RUN_BEFORE.search(text[max(0, n.start - 40) : n.start])) or bool(
        _RUN_AFTER.match(text, n.end)
    )


#: tenths written as a word: "七成" (seven tenths: 70%), "3成", "7割" (Japanese), "半数" no
_TENTHS = re.compile(
    r"(?<![\d一二两三四五六七八九十])([一二两三四五六七八九]|[1-9])\s*(?:成|割)(?![\d一二三四五六七八九])"
)
_CJK_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def word_percents(text: str) -> list[Number]:
    """Percentages written as tenths in Chinese and Japanese ("压缩了七成以上": more than 70%;
    "7割削減": a 70% cut) as numbers of unit %, where the word is."""
    out: list[Number] = []
    for m in _TENTHS.finditer(text):
        d = m.group(1)
        tenths = _CJK_DIGIT.get(d) or int(d)
        about = bool(_ABOUT_BEFORE.search(text[max(0, m.start() - 16) : m.start()]))
        out.append(Number(str(tenths * 10), "%", about, m.start(), m.end(), unit_written=m.group(0)))
    return out


def word_multiples(text: str) -> list[Number]:
    """Multiples written as words (``_WORD_MULTIPLES``: "doubles" 2, "nearly triples" 3 and about,
    "half the speed" 0.5, "翻了一倍" 2) as numbers of unit x, where the word is."""
    out: list[Number] = []
    for m in _FOLD.finditer(text):  # "3-fold", "2.5 fold"
        about = bool(_ABOUT_BEFORE.search(text[max(0, m.start() - 16) : m.start()]))
        out.append(Number(m.group(1), "x", about, m.start(), m.end(), unit_written=m.group(0)))
    for pat, value in _WORD_MULTIPLES:
        for m in pat.finditer(text):
            about = bool(_ABOUT_BEFORE.search(text[max(0, m.start() - 16) : m.start()]))
            out.append(Number(value, "x", about, m.start(), m.end(), unit_written=m.group(0)))
    return sorted(out, key=lambda n: n.start)


#: the end of a sentence between two numbers: a stop and a capital or a digit after it, or a stop of
#: Chinese or Japanese
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9])|[。！？]")


#: a sentence going on with the change before it, up to its percentage: a few words, "only", "just",
#: "about" or "another" right before the number ("On the M2 Max, only 7%.", "Just 3% on the 3060.")
_ELLIPTIC = re.compile(
    r"(?i)\s*(?:[\w.+-]+[\s,]+){0,5}?(?:only|just|merely|about|around|roughly|another|a further)\s*[~≈]?\s*"
)


def relations(text: str, found: list[Number]) -> list[Relation]:
    """The relating phrases of ``text`` among its ``found`` numbers (module doc): a multiple
    (``2.1× faster``, ``roughly 3×``, ``7 times faster``; not "ran it 3 times": ``repetitions``), a
    multiple written as a word (``word_multiples``: "doubles", "half the speed"), a percentage
    followed by a comparison word (``40% more``, ``12% slower``, "a 23% regression", "70% 削減") or
    by "of" (``about 57% of``), one after a verb of change ("drops 11%", "increases roughly 50%",
    "提升了23%"), a signed percentage ("+65%", "−11%": a change, never a share), and a bare
    percentage after another percent change in the same piece ("just 12% on the other prompt"); a
    signed percentage after a pair "A → B unit" is the change from A to B, a signed number in the
    pair's unit after it their difference (``_changed_pair``)."""
    out: list[Relation] = []
    for i, n in enumerate(found):
        tail = text[n.end : n.end + 60]
        stated_diff = _stated_difference(text, found, i)
        if stated_diff is not None:  # "21,500 MiB ... 20,366 MiB, a difference of 1,134 MiB"
            out.append(Relation("difference", n, 1, "", n.start, stated_diff))
            continue
        pair = _changed_pair(text, found, i)
        if pair is not None:
            kind = "percent_change" if n.unit == "%" else "difference"
            out.append(Relation(kind, n, 1, "", n.start, pair))
            continue
        if n.unit == "x":
            if repetitions(text, n):
                continue
            quotient = _quotient(text, found, i)
            if quotient is not None:  # "4141 ms / 1640 ms = 2.5x": the first over the second
                out.append(Relation("ratio", n, 1, "", n.start, quotient))
                continue
            # (a bound's word and 的 may come between in Chinese: "2倍以上的降低", twice or more lower)
            m = re.match(rf"\s*(?:(?:以上|以下)的?\s*)?(?P<w>(?:{_LESS})|(?:{_MORE}))?", tail, re.IGNORECASE)
            word = (m.group("w") or "").strip().lower() if m else ""
            sign = -1 if word and re.fullmatch(_LESS, word, re.IGNORECASE) else 1
            cjk = (
                _CJK_COMPARED.search(text, max(0, n.start - 8), n.start)
                if "倍" in (n.unit_written or "")
                else None
            )
            slowed = (
                _SLOWS_BY.search(text, max(0, n.start - 60), n.start)
                if "раз" in (n.unit_written or "")
                else None
            )
            if not word and slowed is not None:
                # "будет тормозить RTX 4090 … в 1.75 раза" (will slow it down 1.75 times), "ускоряет в
                # 2 раза": the verb before the number says which way
                sign = -1 if slowed.group("less") else 1
            if not word and cjk is not None:
                # "慢1倍" (one time slower: half the speed), "快1倍", "提升1倍" (doubled): the comparison
                # before the number; "1倍" with it is a factor of two (corpus h354's convention)
                sign = -1 if cjk.group("less") else 1
                if n.range is None and n.text in ("1", "1.0"):
                    n = replace(n, text="2")
            other = re.sub(
                r"^\s*(?:\w+\s+)?(?:than|of|over|vs\.?|versus)\s+", "", tail[m.end() if m else 0 :]
            )
            if re.search(r"[^\x00-\x7f]", word):
                other = ""  # "2.5배 향상되었다", "3倍速くなった": the other side comes before (보다, より)
            out.append(Relation("ratio", n, sign, _side_words(other), n.start))
        elif n.unit == "%" and n.of is None:
            verb = _BEFORE.search(text[max(0, n.start - 64) : n.start])
            if (
                verb is not None
                and re.match(r"\s*of\b", tail, re.IGNORECASE)
                and not re.fullmatch(r"(?:up|down)\W*(?:by\W*)?(?:of\W*)?", verb.group(0), re.IGNORECASE)
                # ("costs you 20% of your VRAM": a share it takes)
                and not re.search(r"(?i)\b(?:you|us|me|them)\s*$", verb.group(0))
            ):
                # "saves 30% of the wall time", "cuts 40% of the memory": a change of what follows
                # (not "takes up 30% of the VRAM": a share)
                sign = -1 if verb.group("less") else 1
                out.append(Relation("percent_change", n, sign, "", n.start))
                continue
            if re.match(r"\s*of\b", tail, re.IGNORECASE):
                if _ACCEPT.search(text[max(0, n.start - 40) : n.start]):
                    continue  # "acceptance was 72% of drafted tokens": an acceptance rate
                if re.search(r"\bwithin\s*[~≈]?\s*$", text[max(0, n.start - 12) : n.start], re.IGNORECASE):
                    # "within ~3-6% of measurement": how far apart two numbers are, no share
                    out.append(
                        Relation("percent_change", n, 1, _side_words(re.sub(r"^\s*of\s+", "", tail)), n.start)
                    )
                    continue
                out.append(Relation("ratio", n, 1, _side_words(re.sub(r"^\s*of\s+", "", tail)), n.start))
                continue
            # no word boundary after a word of a script that writes none ("70% 削減となった"); "程度",
            # "ほど", "くらい", "左右" between (about): "10%程度高速化", "15%程度遅くなった"
            # a word for performance or for what changed may stand between: "19~27% 성능 향상", "15%
            # 的性能提升", "a 45% performance advantage", "40% TTFT improvement"
            m = re.match(
                # (a bound's word glued after it and "の" before what changed: "30%以上の速度向上")
                rf"\s*(?P<about>{_ABOUT_AFTER})?(?:以上|以下|超)?{_REMARK_AFTER}\s*(?:(?:[的の]\s*)?(?P<what>{_CHANGED})\s*)?"
                rf"{_PAIRED_AFTER}(?:(?P<less>{_LESS})|(?P<more>{_MORE}))(?:\b|(?<=[^\x00-\x7f]))",
                tail,
                re.IGNORECASE,
            )
            if m and m.group("about"):
                n = replace(n, about=True)
            before = text[max(0, n.start - 64) : n.start]
            verb = (
                _BEFORE.search(before)
                or _NOUN_BEFORE.search(before)
                or (_NOUN_BEFORE_APPROX.search(before) if n.about else None)
            )
            signed = re.match(r"[+\-−]\d", text[n.start : n.end]) is not None
            # the clause's subject before the number a lower value of is better ("MacのTTFTが30%改善",
            # "TTFT improved by 30%"): its improvement is a decrease
            clause_before = re.split(r"[.,;:!?、。，；！？]", before)[-1]
            lower_before = _LOWER_BEFORE.search(before) is not None and not _RATE_SUBJECT.search(
                clause_before
            )
            if m:
                sign = -1 if m.group("less") or text[n.start] in "-−" else 1
                if (
                    m.group("more")
                    and (
                        re.fullmatch(_LOWER_BETTER, m.group("what") or "", re.IGNORECASE)
                        # ("… gives a 30% improvement in throughput": the rate after it is what improved)
                        or lower_before
                        and not _RATE_SUBJECT.match(tail, m.end(), m.end() + 30)
                    )
                    and re.fullmatch(_BETTER, m.group("more"), re.IGNORECASE)
                ):
                    sign = -1  # "40% TTFT improvement": the time to first token 40% lower
                other = re.sub(r"^\s*(?:than|over|vs\.?|versus|compared (?:to|with))\s+", "", tail[m.end() :])
                if re.search(r"[^\x00-\x7f]", m.group("less") or m.group("more") or ""):
                    # "12%速くなりました", "30% 빨라졌다": Japanese, Korean and Chinese name the other
                    # side before the comparison ("Aより", "A보다", "比A"); the words after are a verb
                    other = ""
                out.append(Relation("percent_change", n, sign, _side_words(other), n.start))
            elif verb or (signed and n.range is None):
                sign = -1 if (verb and verb.group("less")) or text[n.start] in "-−" else 1
                if (
                    verb
                    and re.match(r"(?i)w[io]n", verb.group(0))
                    and re.search(_LOWER_BETTER, verb.group(0), re.I)
                ):
                    sign = -1  # "wins single-user latency by 35%": the latency 35% lower
                if verb and re.match(r"(?i)improv", verb.group(0)) and lower_before and not signed:
                    sign = -1  # "TTFT improved by 30%": the time to first token 30% lower
                other = re.sub(r"^\s*(?:than|over|vs\.?|versus|compared (?:to|with))\s+", "", tail)
                out.append(Relation("percent_change", n, sign, _side_words(other), n.start))
            elif (
                out
                and out[-1].kind == "difference"
                and re.match(r"\s*,?\s*or\s+(?:about\s+|~\s*)?$", text[out[-1].number.end : n.start])
            ):
                # "drops peak memory by 11.2 GB, or 28%": the same change as a percentage
                out.append(Relation("percent_change", n, out[-1].sign, "", n.start))
            elif (
                out
                and out[-1].kind == "percent_change"
                and out[-1].pair is None  # after "(A → B, +88%)" a bare percentage is its own
                and not _ACCEPT.search(text[max(0, n.start - 40) : n.end + 20])
                # (in the same sentence, or a short one going on with it: "a 12% speedup. On the M2
                # Max, only 7%."; "Ollama costs 18% speed. Ollama offloads 40% to system RAM." states
                # a share after the change)
                and (
                    not (end := _SENTENCE_END.search(text, out[-1].number.end, n.start))
                    or _ELLIPTIC.fullmatch(text[end.end() : n.start]) is not None
                )
            ):
                out.append(Relation("percent_change", n, out[-1].sign, _side_words(tail), n.start))
        elif family(n.unit) in _DIFFERENCE_FAMILIES and n.range is None and n.of is None:
            m = _DIFFERENCE_WORD.match(tail)
            by = _BY_BEFORE.search(text[max(0, n.start - 64) : n.start]) if m is None else None
            if by is not None:
                # "drops peak memory by 11.2 GB", "cuts TTFT by 120 ms": a difference its verb signs
                sign = -1 if by.group("less") else 1
                out.append(Relation("difference", n, sign, "", n.start))
            if m:
                # "uses 1.2 GB more VRAM", "30 ms faster", "5 tok/s slower than Ollama": the
                # difference of two values in that unit (sides found by value: ``Sides.relation``)
                sign = -1 if m.group("less") else 1
                other = re.sub(
                    r"^\s*(?:[^\W\d]+\s+){0,3}?(?:than|over|vs\.?|versus|compared (?:to|with))\s+",
                    "",
                    tail[m.end() :],
                )
                out.append(Relation("difference", n, sign, _side_words(other), n.start))
    taken = [(r.number.start, r.number.end) for r in out] + [(n.start, n.end) for n in found if n.unit]
    for w in word_percents(text):  # "体积压缩了七成以上": a change after a verb of change, or a word
        if any(a < w.end and w.start < b for a, b in taken):
            continue
        verb = _BEFORE.search(text[max(0, w.start - 40) : w.start])
        m = re.match(
            rf"\s*(?:{_ABOUT_AFTER}|以上|以下|未満|超)?\s*(?:(?P<less>{_LESS})|(?P<more>{_MORE}))",
            text[w.end :],
        )
        if verb is None and m is None:
            continue  # "七成の人が": a share of people, no change
        less = (verb is not None and verb.group("less")) or (m is not None and m.group("less"))
        out.append(Relation("percent_change", w, -1 if less else 1, "", w.start))
    for m in _LANG_TIMES.finditer(text):  # "2,5-mal schneller als", "в 3 раза быстрее, чем"
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        about = bool(_ABOUT_BEFORE.search(text[max(0, m.start() - 16) : m.start()]))
        w = Number(m.group("n").replace(",", "."), "x", about, m.start(), m.end(), unit_written=m.group(0))
        other = _LANG_THAN.sub("", text[m.end() : m.end() + 60], count=1)
        out.append(Relation("ratio", w, -1 if m.group("less") else 1, _side_words(other), w.start))
        taken.append((m.start(), m.end()))
    for w in word_multiples(text):
        if any(a < w.end and w.start < b for a, b in taken):
            continue
        tail = text[w.end : w.end + 60]
        other = re.sub(r"^\s*(?:\w+\s+)?(?:than|of|over|vs\.?|versus)\s+", "", tail)
        out.append(Relation("ratio", w, 1, _side_words(other), w.start))
    out.sort(key=lambda r: r.start)
    # "k=2 is 36% faster and k=4 is 28% faster than vanilla": relations of one kind joined by
    # "and" / "," / "while" share the other side the last one names
    for k in range(len(out) - 2, -1, -1):
        a, b = out[k], out[k + 1]
        if a.kind != b.kind or a.pair is not None or not b.other:
            continue
        # only where the first names no side of its own ("nearly 4× Ollama and 3.8× mlx_lm": two)
        if not a.other or re.match(r"(?:and|while|whereas)\b", a.other):
            gap = text[a.number.end : b.number.start]
            if not re.search(r"\b(?:than|over|vs\.?|versus|compared)\b|[.;!?](?:\s|$)", gap):
                out[k] = replace(a, other=b.other)
    return out


def _changed_pair(text: str, found: list[Number], i: int) -> tuple[Number, Number] | None:
    """The pair a signed percentage right after it changes: "31.9 → 52.8 tok/s (+65.5%)", "(43.06
    → 33.8 t/s, −21%)", "from 38 to 33.93 t/s, -11%": two numbers of one unit (not % or x) joined
    by an arrow or "to", then "(" or "," and the signed percentage; a signed number in the pair's
    own unit is their difference, and then the pair may be labelled ("20,366 MiB baseline / 21,500
    MiB with spec (+1,134 MiB)"); a row of a table copied without its borders, two values and the
    percentage with nothing but spaces or bars between ("42 t/s68 t/s+62%"), is such a pair too;
    else None."""
    n = found[i]
    if i < 2 or n.unit is None or n.unit == "x" or n.of is not None or n.range is not None:
        return None
    # the sign in the number's text ("+1,134") or right before it ("(+1.3 GB)")
    if not re.match(r"[+\-−]\d", text[n.start : n.end]) and text[n.start - 1 : n.start] not in (
        "+",
        "-",
        "−",
    ):
        return _unsigned_change(text, found, i)
    # the pair may be followed by what it was measured with, a name's number in it ("from 19.8 GB
    # to 21.1 GB with the 0.5B draft (+1.3 GB)"): up to six words of one sentence before the change
    for j in range(i - 1, max(1, i - 3) - 1, -1):
        a, b = found[j - 1], found[j]
        if a.unit is None or a.unit != b.unit or a.unit in ("%", "x") or a.range or b.range:
            continue
        if n.unit != "%" and n.unit != a.unit:
            continue
        joint = r"\s*(?:→|->|to)\s*" if n.unit == "%" else r"\s*(?:→|->|to|/|(?:[^\W\d]+\s*){1,3}/)\s*"
        if (
            n.unit == "%"
            and re.fullmatch(r"\s*\|?\s*", text[a.end : b.start])
            and re.fullmatch(r"\s*\|?\s*", text[b.end : n.start])
        ):
            # a table row copied without its borders ("Q4_K_M42 t/s68 t/s+62%", "42 t/s | 68 t/s |
            # +62%"): the row's two values, then its change from the first to the second
            return a, b
        if not re.fullmatch(joint, text[a.end : b.start]):
            continue
        words = r"[^\s;!?(),]*[^\s;!?(),.]"  # no word ending a sentence
        if re.fullmatch(rf"\s*(?:(?:{words}\s*){{0,6}})?[(,;]\s*", text[b.end : n.start]):
            return a, b
    return None


def _unsigned_change(text: str, found: list[Number], i: int) -> tuple[Number, Number] | None:
    """An unsigned percentage opening a parenthesis right after a pair "A → B unit" that it is the
    gain of, to its stated digits ("75 → 100 tok/s (33% cap)": 100 / 75 − 1 = 33.3%): the pair;
    else None (a share in parentheses, "(33% of the VRAM)", differs from the pair's change; a drop
    is written signed)."""
    n, a, b = found[i], found[i - 2], found[i - 1]
    if n.unit != "%" or a.unit is None or a.unit != b.unit or a.unit in ("%", "x") or a.range or b.range:
        return None
    if not re.fullmatch(r"\s*(?:→|->)\s*", text[a.end : b.start]) or not re.fullmatch(
        r"\s*\(\s*", text[b.end : n.start]
    ):
        return None
    try:
        va, vb, pct = float(a.text), float(b.text), float(n.text)
    except ValueError:
        return None
    digits = len(n.text.split(".")[1]) if "." in n.text else 0
    if not va or vb < va or abs((vb / va - 1) * 100 - pct) > 0.5 * 10.0**-digits + 1e-9:
        return None
    return a, b


#: words right before a number that make it a stated difference: "a difference of", "Δ", "Δ=",
#: "delta", "diff:" (of the two numbers before it)
_DIFF_BEFORE = re.compile(
    r"(?:\bdifference\s+of|\bdelta\b\s*[=:]?|\bdiff\b\.?\s*[=:]?|Δ\s*[=:]?)\s*[~≈]?\s*$", re.I
)


def _stated_difference(text: str, found: list[Number], i: int) -> tuple[Number, Number] | None:
    """The two numbers a stated difference is of: "21,500 MiB with the draft and 20,366 MiB without,
    a difference of 1,134 MiB", "182 ms vs 240 ms (Δ 58 ms)": after ``_DIFF_BEFORE``, a number in a
    unit (not % or x) whose two numbers before it in the same sentence, in its unit, differ by it
    (to its stated digits); (smaller, larger), the order ``Sides.relation`` turns into larger −
    smaller.  Else None."""
    n = found[i]
    if i < 2 or n.unit in (None, "%", "x") or n.range is not None:
        return None
    if not _DIFF_BEFORE.search(text[max(0, n.start - 24) : n.start]):
        return None
    a, b = found[i - 2], found[i - 1]
    if a.unit != n.unit or b.unit != n.unit or a.range or b.range:
        return None
    if re.search(r"[.!?](?:\s|$)", text[a.end : n.start]):
        return None
    try:
        va, vb, d = float(a.text), float(b.text), float(n.text.lstrip("+"))
    except ValueError:
        return None
    digits = len(n.text.split(".")[1]) if "." in n.text else 0
    if abs(abs(va - vb) - abs(d)) > 0.5 * 10.0**-digits + 1e-9:
        return None
    return (a, b) if va < vb else (b, a)


def _quotient(text: str, found: list[Number], i: int) -> tuple[Number, Number] | None:
    """The two numbers a multiple is written as the quotient of: "speed up of 4141 ms / 1640 ms =
    2.5x" (A / B = N×, one unit on both, not % or x): (A, B), the ratio's numerator first; else
    None."""
    if i < 2 or found[i].range is not None:
        return None
    a, b = found[i - 2], found[i - 1]
    if a.unit is None or a.unit != b.unit or a.unit in ("%", "x") or a.range or b.range:
        return None
    if not re.fullmatch(r"\s*(?:/|÷)\s*", text[a.end : b.start]):
        return None
    if not re.fullmatch(r"\s*(?:=|≈|~)\s*[~≈]?\s*", text[b.end : found[i].start]):
        return None
    return a, b


#: the units whose numbers a comparison word after them makes a difference of two values
_DIFFERENCE_FAMILIES = frozenset({"size", "time", "rate"})
#: the comparison word right after such a number ("1.2 GB more", "30 ms faster"; not "40 tok/s or
#: more": a bound)
_DIFFERENCE_WORD = re.compile(
    r"\s*(?:(?P<more>more|extra|higher|faster|longer|larger|bigger)|(?P<less>less|fewer|lower|slower|shorter|"
    r"smaller))\b",
    re.IGNORECASE,
)


def _side_words(text: str) -> str:
    """The words naming the other side: up to the end of the clause; none where the phrase goes on
    to the value it reached ("a 20% boost to 34 t/s": the subject, not the other side)."""
    # a point ends the clause only before a space or the end: "llama.cpp", "v0.3" are names
    if re.match(r"\s*(?:(?:that|this|it)\s+)?(?:to|at|reaching|→|->)\s+[~≈]?\d", text):
        return ""
    cut = r"[,;:()\[\]?!]|\.(?=\s|$)|\s—\s|\s-\s|\s(?:and|but)\s+(?=[~≈]?\d)"
    return re.split(cut, text.strip(), maxsplit=1)[0].strip()


def pair_units(text: str, found: list[Number]) -> list[Number]:
    """``found`` with the unit of a relation's sides given where the text states it once: a second
    pair "A → B, −11%" after a pair with a unit in the same sentence ("(43.06 → 33.8 t/s, −21%;
    44.15 → 39.3, −11%)"), and the M of "X unit (N% of M)" ("197,435 tok (91% of 215,000)")."""
    out = list(found)
    for i in range(len(out) - 2):
        a, b, n = out[i], out[i + 1], out[i + 2]
        if a.unit is not None or b.unit is not None or a.range or b.range or n.unit != "%":
            continue
        if not re.fullmatch(r"\s*(?:→|->)\s*", text[a.end : b.start]):
            continue
        if not re.fullmatch(r"\s*[(,;]\s*", text[b.end : n.start]) or not re.match(
            r"[+\-−]\d", text[n.start :]
        ):
            continue
        for k in range(i - 1, 0, -1):
            p, q = out[k - 1], out[k]
            if re.search(r"[.!?](?:\s|$)", text[q.end : a.start]):
                break
            if (
                q.unit is not None
                and q.unit == p.unit
                and q.unit not in ("%", "x")
                and re.fullmatch(r"\s*(?:→|->)\s*", text[p.end : q.start])
            ):
                out[i], out[i + 1] = replace(a, unit=q.unit), replace(b, unit=q.unit)
                break
    for i in range(2, len(out)):
        x, pct, m = out[i - 2], out[i - 1], out[i]
        if m.unit is not None or m.range or x.unit in (None, "%", "x") or pct.unit != "%":
            continue
        if re.fullmatch(r"\s*[(,]\s*", text[x.end : pct.start]) and re.fullmatch(
            r"\s*of\s*", text[pct.end : m.start]
        ):
            out[i] = replace(m, unit=x.unit)
    return out

"""Numbers with units in one piece of a post's prose.

Numbers and units are language-independent; the words around them are read in a few languages
(English, Korean, Japanese, Chinese, German, French, Spanish), and a word not known leaves the
field a guess, never a wrong certainty.  What is read (``numbers``):

* a number with a unit it recognises (``UNITS``: tok/s, t/s, tokens/s, ms, s, min, GB/GiB/MB/MiB, %,
  × / x / times, tokens, layers), written as stated: the digits it was written with (``text``),
  "about" (``about``, ``~``, ``nearly``, ``roughly``, ``약``, ``約``...: ``ABOUT``), a range
  (``6.1–6.3``, ``6.1 to 6.3``, ``6.1~6.3``) and ``±`` (``spread``);
* "N of M" and "N out of M" (``counts``), and "N unit of M unit" (``capacity``: "11.76 GiB of its
  12.29 GiB");
* every other number (a year, a version, a model size such as 35B) is ``unit=None``: listed by the
  caller as not placed, never dropped.

A metric is guessed from the unit and the words near it (``metric_of``).  The phrases that relate
numbers are read by ``draftrelations``.
"""

from __future__ import annotations

import bisect
import math
import re
from contextvars import ContextVar
from dataclasses import dataclass, replace
from decimal import Decimal

from .draftnames import CPU

#: words (lower case) or signs that make the next number approximate ("about" in a claims file)
ABOUT = (
    "about|around|approximately|approx\\.?|roughly|nearly|almost|circa|ca\\.|some|~|≈|∼|"
    # ("大概是1.5分钟": about, then "is"; "基本都在100%": basically all at)
    "약|대략|거의|約|およそ|ほぼ|大约为|大约有|大约是|大约|约为|约有|约是|约|大概为|大概有|大概是|大概|基本都在|基本上|"
    "将近|接近|差不多|etwa|ungefähr|rund|"
    "environ|presque|"
    # ("getting closer to 45,000 Tok/s": about, not "should be closer to 35-60 tok/s"; "alrededor de
    # 2 minutos", "en torno a": Spanish)
    "close to|getting closer to|aproximadamente|casi|cerca de|alrededor de|en torno a|примерно|около|почти|"
    "приблизительно"
)
#: words right after a number (and its unit) that make it approximate: "3秒左右", "5秒程度", "200ミリ
#: 秒ほど", "150밀리초 정도", "40 tok/s or so"
ABOUT_AFTER = re.compile(r"\s*(?:左右|上下|ほど|程度|前後|くらい|ぐらい|정도|가량|쯤|or so\b|-ish\b|ish\b)")
#: unit spellings -> the unit a claims file writes (``units.py`` spelling)
UNITS: dict[str, str] = {
    "tok/s": "tok/s",
    "tok/sec": "tok/s",
    "tok/second": "tok/s",
    "tok/seconds": "tok/s",
    "tokens/second": "tok/s",
    "token/sec": "tok/s",
    "toks": "tok/s",
    "toks/s": "tok/s",  # vLLM's tqdm line: "est. speed input: 47.09 toks/s, output: 128.64 toks/s"
    "toks/sec": "tok/s",
    "t/sec": "t/s",
    "t//s": "t/s",  # a slip of the keys ("got 20 t//s")
    "tokens/s": "tok/s",
    "tokens/sec": "tok/s",
    "token/s": "tok/s",
    "tokens per second": "tok/s",
    "tokens a second": "tok/s",
    "PP": "t/s",
    "TG": "t/s",
    "tokens-per-sec": "tok/s",
    "tokens-per-second": "tok/s",
    "token per second": "tok/s",
    "token/second": "tok/s",
    "GB/s": "GB/s",
    "GiB/s": "GiB/s",
    "TB/s": "TB/s",
    "ГБ/с": "GB/s",  # Russian ("пропускной способностью 576 ГБ/с")
    "ГБ/сек": "GB/s",
    "ТБ/с": "TB/s",
    # a disk's or a link's rate ("416 MB/s" of a swap device, "Effective I/O Bandwidth | 277.87 MB/s")
    "MB/s": "MB/s",
    "MiB/s": "MiB/s",
    # a storage device's operations a second ("9,708 IOPS")
    "IOPS": "IOPS",
    "TFLOPS": "TFLOPS",
    # a machine's power draw ("~410W under vLLM", "260 W"); "W" after a number only (the W7900 is a card)
    "W": "W",
    # the power a token costs ("0.34 watts per token", "0.19 W/tok"): a power per token, no draw
    "W/tok": "W/tok",
    "W/token": "W/tok",
    "watts per token": "W/tok",
    "watt per token": "W/tok",
    "watts": "W",
    "bytes": "B",  # llama.cpp's old main: "mem per token = 43387780 bytes"
    "req/s": "req/s",
    "req/sec": "req/s",
    "requests/s": "req/s",
    "requests/sec": "req/s",
    "requests per second": "req/s",
    # a request rate a minute (LMDeploy's "RPM (request per minute): 1181.649 req/min")
    "req/min": "req/min",
    "requests/min": "req/min",
    "requests per minute": "req/min",
    # tqdm's iterations a second, where an iteration is one request (lm_eval's and vLLM's progress
    # bars over prompts: "208.46it/s"); "s/it" is its inverse, a time
    "it/s": "it/s",
    "it/sec": "it/s",
    "iterations per second": "it/s",
    "iterations/s": "it/s",
    # a multimodal run's images a second ("~9.8 img/sec with batchsize=48")
    "img/s": "img/s",
    "img/sec": "img/s",
    "images/s": "img/s",
    "images/sec": "img/s",
    "image/s": "img/s",
    "images per second": "img/s",
    "QPS": "req/s",  # queries (requests) per second, as serving benchmarks name their request rate
    "RPS": "req/s",  # requests per second ("Req Tput (RPS)")
    "t/s": "t/s",
    "tps": "tok/s",
    "TKs": "tok/s",  # "speed on llama.cpp is over 23 TKs" (tokens a second, the slash dropped)
    "토큰/초": "tok/s",
    "토큰/s": "tok/s",
    "トークン/秒": "tok/s",
    "トークン/s": "tok/s",
    "个令牌/秒": "tok/s",
    "令牌/秒": "tok/s",
    "个token/秒": "tok/s",
    "tokens/秒": "tok/s",
    "token/秒": "tok/s",
    "tok/秒": "tok/s",
    "токенов/с": "tok/s",
    "токена/с": "tok/s",
    "токенов/сек": "tok/s",
    "ток/с": "tok/s",
    "т/с": "t/s",
    "tokens per minute": "tok/min",
    "token per minute": "tok/min",
    "tokens/min": "tok/min",
    "tok/min": "tok/min",
    "ms/token": "ms",
    "ms/tok": "ms",
    "ms per token": "ms",
    "s/token": "s",
    "s/tok": "s",
    "sec/token": "s",
    "sec/tok": "s",
    "secs/token": "s",
    "secs/tok": "s",
    # (in Chinese and Japanese posts: "1.2 秒/token", "35 毫秒/token")
    "秒/token": "s",
    "秒/tok": "s",
    "毫秒/token": "ms",
    "s/it": "s",
    # a time per request ("Mean latency: 2.09s/req"): a request's latency
    "s/req": "s",
    "ms/req": "ms",
    "s/request": "s",
    "ms/request": "ms",
    "seconds per token": "s",
    "ms": "ms",
    "milliseconds": "ms",
    # the short times of kernels and tools ("~21-25 ns per KV position", Ollama's API in ns, "350 µs")
    "ns": "ns",
    "µs": "µs",
    "μs": "µs",
    "毫秒": "ms",
    "ミリ秒": "ms",
    "밀리초": "ms",
    "мс": "ms",
    "сек": "s",
    # units in words, Russian and Ukrainian ("42 токена в секунду", "17 секунд", "у 2-3 рази")
    "токена в секунду": "tok/s",
    "токенов в секунду": "tok/s",
    "токен в секунду": "tok/s",
    "токенов в сек": "tok/s",
    "токенів за секунду": "tok/s",
    "токени за секунду": "tok/s",
    "токенів на секунду": "tok/s",
    "токенів/с": "tok/s",
    "миллисекунд": "ms",
    "мілісекунд": "ms",
    "секунд": "s",
    "секунды": "s",
    "секунду": "s",
    "секунда": "s",
    "секунди": "s",
    "минут": "min",
    "минуты": "min",
    "минуту": "min",
    "хвилин": "min",
    "хвилини": "min",
    "раза": "x",
    "рази": "x",
    "разів": "x",
    "分钟": "min",
    "小时": "h",
    "時間": "h",
    "시간": "h",
    "s": "s",
    "sec": "s",
    # a time per batch ("3.34 sec/batch": the batch's latency; "2048 tokens/batch" is no unit)
    "sec/batch": "s",
    "s/batch": "s",
    "ms/batch": "ms",
    "secs": "s",
    "seconds": "s",
    "second": "s",
    "초": "s",
    "秒": "s",
    # seconds and minutes in other languages posts are written in (Spanish, Portuguese, Italian, French,
    # German, Vietnamese, Indonesian)
    "segundos": "s",
    "segundo": "s",
    "secondi": "s",
    "secondes": "s",
    "sekunden": "s",
    "giây": "s",
    "detik": "s",
    "minutos": "min",
    "minuti": "min",
    "minuten": "min",
    "phút": "min",
    "min": "min",
    "mins": "min",
    "minutes": "min",
    "minute": "min",
    "분": "min",
    "分": "min",
    "h": "h",
    "hours": "h",
    "hour": "h",
    "GiB": "GiB",
    "GB": "GB",
    "ГБ": "GB",
    "Гб": "GB",
    "ГиБ": "GiB",
    "МБ": "MB",
    "Мб": "MB",
    "МиБ": "MiB",
    "ТБ": "TB",
    "msec": "ms",
    "MiB": "MiB",
    "MB": "MB",
    "TB": "TB",
    "TiB": "TiB",
    "%": "%",
    # the percent sign spelled out ("1-3 percent perplexity degradation", "12 per cent", "5 Prozent")
    "percent": "%",
    "per cent": "%",
    "Prozent": "%",
    "процентов": "%",
    "процента": "%",
    "процент": "%",
    "퍼센트": "%",
    "パーセント": "%",
    "×": "x",
    "x": "x",
    "times": "x",
    "배": "x",
    "倍": "x",
    "tokens": "tokens",
    "token": "tokens",
    "tok": "tokens",
    "토큰": "tokens",
    "トークン": "tokens",
    # tokens in Chinese words ("10.2 個詞元", "9.7 个词元"): a rate where "每秒" stands before ("_per_second")
    "个词元": "tokens",
    "个token": "tokens",
    "個token": "tokens",
    "個詞元": "tokens",
    "词元": "tokens",
    "詞元": "tokens",
    "layers": "layers",
    "layer": "layers",
}
#: a rate of tokens spelled any way the field writes it, spaces around the slash or not: "toks/s",
#: "tokens / sec", "tok / s", "tkn/s", "tk/s", "token/secs", "tokens per sec" (each one unit: tok/s)
#: and in the words of other languages: "71 tokens por segundo", "45 tokens par seconde", "33 Tokens pro
#: Sekunde", "20 token al secondo"
_RATE_SPELLED = (
    r"(?:tokens?|toks?|tkns?|tks?)\s*(?:/|\s+(?:per|por|par|pro|al|a)\s+)\s*"
    r"(?:s|secs?|seconds?|segundos?|seconde|sekunde|secondo)(?![A-Za-z])|t\s+/\s+s(?![A-Za-z])"
)
_UNIT_ALT = "|".join(
    re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if u not in ("x", "s", "h", "tok", "min", "W")
)
#: a number format written between a number and TFLOPS ("59.4 FP16/BF16 TFLOPS"): part of the unit
_PRECISION = r"(?:FP|BF|INT|TF)\d+(?:/(?:FP|BF|INT|TF)\d+)*"
#: a number as written: thousands separators (1,234) or a decimal comma (6,7; not after four digits:
#: "4080,16GB" is a card and its memory); a leading sign
# (a decimal written without its leading zero, ".5", is one number: not the digits after a point)
_NUM = (
    r"[+\-−]?(?:(?:\d{1,3}(?:[,٬]\d{3})+(?![\d,٬])(?:[.٫．]\d+)?"
    # full-width digits grouped by a full-width comma ("１，２３４"; "120，115" is a Chinese list)
    r"|[０-９]{1,3}(?:，[０-９]{3})+(?![\d，])(?:[.．][０-９]+)?"
    # grouped by narrow no-break spaces (``post.read_post`` writes no-break and thin spaces between
    # digits so), with a decimal point or comma ("1 234,5 tok/s": French, Russian); by spaces, with
    # a decimal point only ("512 128,5" is two numbers)
    # (not the digits ending a name before a number: "EAGLE-3 111 t/s" is no 3111)
    r"|(?<![A-Za-z][-‐])\d{1,3}(?:\u202f\d{3})+(?![\d])(?:[.٫．]\d+|,\d+(?![\d,]))?"
    r"|(?<![A-Za-z][-‐])\d{1,3}(?:[\u202f ]\d{3})+(?![\d,])(?:[.٫．]\d+)?"
    # (the Arabic decimal separator and the full-width point are points too: "٤٥٫٢", "４５．２")
    r"|\d+(?:[.٫．]\d+|(?<!\d{4}),\d+)?)|(?<![\w.])\.\d+)"
)
#: a unit right after a number; single letters only where no letter follows (2x, 9.8 s, 12 h)
#: (a unit followed by "/s" is a rate of it: "GB/s" is read whole, a bandwidth, never GB)
#: (a unit followed by "/" and a word is a unit per that word, not this one: "1.61s/it" is tqdm's
#: seconds per iteration, "2 GB/layer" no size; per device it is: "22.5 GB/card")
#: a device a size is given per ("22.5 GB/card", "20 GB/GPU": the size on each, a size all the same)
_PER_DEVICE = r"(?:cards?|gpus?|devices?)\b"
#: a drafting step a count of tokens is given per ("3.3 tokens/round", "2.4 tok/step"): tokens all the same
_PER_STEP = r"(?:rounds?|steps?|cycles?|iter(?:ation)?s?)\b"
#: the same after a count of tokens only ("3.3 tokens/round"; "1.5 ms/step" is a time per step, no ms)
_TOKENS_PER_STEP = rf"(?:(?<=tokens/)|(?<=token/)|(?<=toks/)|(?<=tok/)){_PER_STEP}"
_UNIT = (
    rf"(?:{_PRECISION}\s+TFLOPS\b|{_RATE_SPELLED}|(?:{_UNIT_ALT})(?!/s\b)(?![A-Za-z])(?!/(?!{_PER_DEVICE}|{_TOKENS_PER_STEP})[A-Za-z])|"
    # (an upper-case H before a capitalised word is a model's name: "Granite 4.0 H Micro")
    r"x(?![a-z\d])|s(?![a-z\d/])|(?-i:h)(?![a-z\d/])|(?-i:H)(?![a-z\d/]|\s+[A-Z])|tok(?![a-z\d/])"
    r"|min(?![a-z\d/])|(?-i:W)(?![A-Za-z\d/]))"
)
#: a hyphen joining a number to a time word it qualifies ("15-minute engine rebuilds", "a 2-hour
#: run", "30-second warm-up"): the number in that unit; a range ("15-20 minutes") keeps its hyphen
_HYPHENED = r"[-\u2010\u2011](?=(?:minute|hour|second)s?\b)"
# (Chinese "to": "1.5 倍至 3 倍", "10到15秒"; not Japanese "から", also "from A" of a change "AからBに")
_RANGE_SEP = r"\s*(?P<sep>–|—|-|~|〜|～|to|bis|à|hasta|(?<=\s)auf(?=\s)|(?<=\s)a(?=\s)|до|至|到)\s*"
_NUMBER = re.compile(
    # (a sign of approximation glued to a word before it, "Q4_K_M~40 GB" of a table copied without its
    # cell borders, is one too: only a word must stand apart)
    rf"(?P<about>(?:(?<![A-Za-z0-9_\uac00-\ud7a3])(?:{ABOUT})(?:\s+an?(?=\s))?|[~≈∼])\s*)?(?P<a>{_NUM})(?P<plus>\+(?![\d.+])|(?:多|余)(?=\s*[A-Za-z]))?"
    # (a sign of approximation after the number, before its unit: "3100~ tokens/sec", "about 700~
    # tokens/second"; "60~80" is a range)
    rf"(?P<about_after>[~〜～](?=\s*(?:{_UNIT})))?"
    rf"(?:(?:\s*|{_HYPHENED})(?P<ua>{_UNIT}))?"
    # (a spread in parentheses after the unit: "180.28ms (± 54.44)", as a script prints a mean and its
    # standard deviation)
    # (a range's open upper end: "60 to 80+ tokens per second" is the range 60 to 80)
    rf"(?:(?:{_RANGE_SEP})(?P<b>{_NUM})(?:\+(?![\d.+]))?|\s*(?P<pmo>\(\s*)?(?:±|\+/-|\+-)\s*(?P<pm>{_NUM})(?(pmo)\s*\)))?"
    rf"(?:\s*(?P<unit>{_UNIT}))?"
    rf"(?P<of>(?:\s+(?:of|out of|중)\s+(?:the\s+|its\s+|their\s+)?|\s*のうち\s*|(?P<slash>/))(?P<m>{_NUM})"
    rf"(?:\s*(?P<um>{_UNIT}))?)?",
    re.IGNORECASE,
)
#: a date (2026-10-28, 2026-10, 2026/10/28) or a dotted version (0.19.1, b1.2.3)
_DATE = re.compile(r"\d{4}[-/]\d{1,2}(?:[-/]\d{1,2})?(?!\d|\.\d)|\d+\.\d+\.\d+")
#: words before a four-digit number with a glued "s" that make it cards ("two 3090s", "my 4090s",
#: "4x 3090s"), not seconds ("took 1200s")
_CARDS_BEFORE = re.compile(
    r"(?i)(?:\b(?:two|three|four|five|six|seven|eight|dual|twin|quad|my|our|both|multiple|several|"
    r"pair\s+of)|\d\s?[x×]|\b(?:RTX|GTX|RX|Radeon|Quadro|Titan))\s*$"
)
#: ("RTX 3090s", "GTX 1080s": a card's line before its number, the glued "s" its plural)
#: what follows "4x" when it counts devices, not a multiple
#: what a count of CPUs or memory modules written as a multiple leads ("2× AMD EPYC 7713", "dual
#: sockets", "32×128GB Samsung DIMMs", "16 x DDR5 6400"): a count of parts, no multiple
_PARTS_AFTER = (
    r"(?i:(?:AMD\s+|Intel\s+)?(?:EPYC|Xeon|Threadripper|Ryzen)\b|sockets\b|DDR\d"
    r"|\d+\s?[GT]i?B\s+(?:\w+\s+)?(?:DIMMs?|sticks?|modules?|DDR\d)\b)"
)
_HARDWARE = re.compile(
    r"\s*(?:RTX|GTX|RX|Radeon|Tesla|GPUs?\b|cards?\b|[AHBL]\d{2,3}\b|MI\d|M\d|\d{4}\b|" + _PARTS_AFTER + ")",
    re.I,
)
#: a token holding a letter and a digit glued together (a name: H200, i9-12900K, DDR5-4800)
_IDENT = re.compile(
    r"[A-Za-z0-9_.\-/]*(?:[A-Za-z_][A-Za-z0-9_.\-/]*[0-9]|[0-9][A-Za-z0-9_.\-/]*[A-Za-z_])[A-Za-z0-9_\-/]*"
    r"(?:\.[A-Za-z0-9_]+)*"
)


def _token_start(text: str, i: int) -> int:
    # Latin letters, digits and joiners only: a name glued to CJK text ("在4090上速度约50token/s")
    # starts at its first Latin character, not at the start of the CJK run
    while i > 0 and re.match(r"[A-Za-z0-9_.\-/]", text[i - 1]):
        i -= 1
    return i


#: a quantisation's name of letters at its end, digits glued on, then a rate ("Q4_K_M42 t/s",
#: "IQ4_XS118 tok/s", "Q8_0118 t/s"; not "Q8_016 GB": no rate after it)
def _glued_to_quant(text: str, token: int, at: int) -> bool:
    """Whether the number at ``at`` is glued to a quantisation's name before it, a rate after it
    (``_QUANT_GLUED``: "Q4_K_M42 t/s"); ``token``: where the token holding it starts (``_Names``)."""
    glued = _QUANT_GLUED.match(text, token)
    return glued is not None and glued.start("n") == at


_QUANT_GLUED = re.compile(
    # (a type ending in its one digit too: "Q8_0118 t/s" is Q8_0 and 118 t/s, ggml's Q4_0 … Q8_0)
    r"(?:UD-)?(?:I?Q\d_(?:K(?:_XL|_[SML])?|XXS|XS|NL|[SML])|Q[4-8]_[01])(?P<n>\d+(?:\.\d+)?)"
    r"(?=\s?(?:t/s|tok/s|tokens/s|TPS)(?![A-Za-z/]))"
)
#: a token's characters (``_IDENT``'s ``[A-Za-z0-9_.\-/]``), and those of its tail after a dot
_TOKEN_RUN = re.compile(r"[A-Za-z0-9_.\-/]*")
_ASCII_LETTER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_DIGITS = frozenset("0123456789")


class _Names:
    r"""The token a number is in and the name ``_IDENT`` reads from the token's start, each worked out
    once per token and in time linear in its length: per number, walking back to the token's start
    and matching ``_IDENT`` (whose nested ``[A-Za-z0-9_.\-/]*`` backtracks quadratically on a token
    with no letter) made a line of 100,000 digits, or "1-1-1-…", draft for minutes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.run = (0, 0)  # the last token walked back over: [start, end)
        self.ends: dict[int, int | None] = {}

    def start(self, i: int) -> int:
        """``_token_start(text, i)``: the start of the token holding ``text[i - 1]``, else ``i``."""
        a, b = self.run
        if a < i <= b:
            return a
        j = _token_start(self.text, i)
        if j < i:
            self.run = (j, _TOKEN_RUN.match(self.text, j).end())  # type: ignore[union-attr]
        return j

    def end(self, start: int) -> int | None:
        r"""``_IDENT.match(text, start).end()``, or None where it does not match: the regex's first
        match, found without backtracking.  In the token ``[A-Za-z0-9_.\-/]*`` from ``start``, the greedy
        prefix stops at the last place a letter is followed by a digit later or a digit by a letter
        later; the name runs to the last of those (digit or letter), then over ``[A-Za-z0-9_\-/]*`` and
        ``(\.[A-Za-z0-9_]+)*``."""
        if start in self.ends:
            return self.ends[start]
        text = self.text
        stop = _TOKEN_RUN.match(text, start).end()  # type: ignore[union-attr]
        last_digit = last_letter = -1
        pivot = -1  # the greedy prefix's end: a letter before a later digit, or a digit before a later letter
        for k in range(stop - 1, start - 1, -1):
            c = text[k]
            if c in _DIGITS:
                if last_letter > k:
                    pivot = max(pivot, k)
                last_digit = max(last_digit, k)
            elif c in _ASCII_LETTER:
                if last_digit > k:
                    pivot = max(pivot, k)
                last_letter = max(last_letter, k)
            if pivot >= 0:
                break
        if pivot < 0:
            self.ends[start] = None
            return None
        at = (last_digit if text[pivot] in _ASCII_LETTER else last_letter) + 1
        while at < stop and text[at] != ".":
            at += 1  # [A-Za-z0-9_\-/]*: the token's characters but the dot
        while at + 1 < stop and text[at] == "." and _WORD.match(text, at + 1):
            at = _WORD.match(text, at + 1).end()  # type: ignore[union-attr]
        self.ends[start] = at
        return at


_WORD = re.compile(r"[A-Za-z0-9_]+")


@dataclass(frozen=True)
class Number:
    """One number of a piece of prose: ``text`` as written (``"42.72"``), ``value`` or ``range``
    (texts of each end), ``unit`` (None: not placed), ``about``, ``spread`` (text after ``±``),
    ``of``: the M of "N of M" (a count's trials, or a capacity with ``of_unit``), ``start``/``end``:
    where in the piece, ``words``: the piece's text."""

    text: str
    unit: str | None
    about: bool
    start: int
    end: int
    low: str | None = None
    high: str | None = None
    spread: str | None = None
    of: str | None = None
    of_unit: str | None = None
    unit_written: str | None = None
    #: the decimals where the digits of ``text`` do not give them: a number written in thousands
    #: ("10k": ``text`` "10000", decimals -3; ``scaled``)
    decimals: int | None = None

    @property
    def range(self) -> tuple[str, str] | None:
        return (self.low, self.high) if self.low is not None and self.high is not None else None


def _as_float(text: str) -> float:
    """``text`` (a number as ``number_text`` writes it) as a float; infinity where it is none."""
    try:
        return float(text)
    except ValueError:
        return math.inf


def number_text(raw: str) -> str:
    """A number as a claims file writes it: thousands separators dropped, a decimal comma read as
    a point (``1,234`` -> ``1234``, ``6,7`` -> ``6.7``), a minus sign as ``-``, a leading zero
    added or dropped (``.5`` -> ``0.5``, ``09`` -> ``9``); the digits after the point kept."""
    s = raw.replace("−", "-").replace("\u202f", "").replace("٫", ".").replace("．", ".").strip()
    s = s.replace("٬", ",").replace("，", ",")  # the Arabic and full-width thousands separators
    # ".5" is 0.5 and "09" is 9: the value as YAML reads a number (an unquoted 09 is no number)
    s = re.sub(r"^([+-]?)\.(?=\d)", r"\g<1>0.", s)
    s = re.sub(r"^([+-]?)0+(?=\d)", r"\1", s)
    if re.fullmatch(r"[+-]?\d{1,3}(?:[, ]\d{3})+(?:\.\d+)?", s):
        return s.replace(",", "").replace(" ", "")
    if re.fullmatch(r"[+-]?\d{1,3}(?:\u202f\d{3})+,\d+", raw.replace("−", "-").strip()):
        return s.replace(",", ".").lstrip("+")  # "1 234,5": no-break spaces group, the comma is decimal
    return s.replace(",", ".").lstrip("+")


#: what follows a capitals-only unit word when it opens the next label, not a rate ("PP Size:", "PP
#: degree")
_LABEL_NEXT = re.compile(r"\s+(?:size|degree|rank|parallel\w*)\b|\s*[:=]\s*\d", re.IGNORECASE)
#: units that are words of the field only in capitals: "296.96 PP", "42.91 TG" (prompt processing,
#: text generation, llama-bench's test names, as rates); "512 pp" is no rate
CAPITALS_ONLY = frozenset(("PP", "TG"))
#: units that are words of the field only as written: "23 TKs" (tokens a second); "3 tks" is none
AS_WRITTEN_ONLY = frozenset(("TKs",))


def _unit(raw: str | None) -> str | None:
    if raw is None:
        return None
    key = re.sub(rf"^{_PRECISION}\s+(?=TFLOPS$)", "", raw.strip(), flags=re.IGNORECASE)
    if re.fullmatch(_RATE_SPELLED, key, re.IGNORECASE):
        return "t/s" if key[:1] in "tT" and re.fullmatch(r"t\s+/\s+s", key, re.IGNORECASE) else "tok/s"
    if key.upper() in CAPITALS_ONLY and key not in CAPITALS_ONLY:
        return None
    if key.lower() in {u.lower() for u in AS_WRITTEN_ONLY} and key not in AS_WRITTEN_ONLY:
        return None
    return (
        UNITS.get(key) or UNITS.get(key.lower()) or (UNITS.get(key.upper()) if key.upper() in UNITS else None)
    )


def unit_of(raw: str | None) -> str | None:
    """The unit a claims file writes for a unit as written (``UNITS``: ``"tokens/sec"`` ->
    ``"tok/s"``, ``"毫秒"`` -> ``"ms"``), None when it is no unit known here."""
    return _unit(raw)


#: a letter, ``_``, ``-`` or ``.`` right before a number glues it to a word (``V4``, ``pp-512``)
_GLUE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.")
#: a change in percent in parentheses after a pair and its words ("(+51.4%)", "(-0.5%)"): the pair's
#: own change ("47.7 to 72.2 long gen (+51.4%)")
_CHANGE_PAREN = re.compile(r"[^()\n.;]{0,30}?\(\s*(?P<p>[+\-−]?\d+(?:\.\d+)?)\s*%\s*\)")


#: words after a pair saying it spans values, not a change ("depending on the prompt", "varying")
_VARYING = re.compile(r"\s*,?\s*(?:depending|varying|depends|dependent|across|range)\b", re.IGNORECASE)


def _change_follows(text: str, end: int, low: str, high: str) -> bool:
    """Whether a percentage in parentheses right after a pair "A to B" ending at ``end`` is the
    change from A to B (``_CHANGE_PAREN``: "47.7 to 72.2 long gen (+51.4%)"): 100 (B - A) / A within
    0.3 points or a tenth of it (authors round and truncate: "25.3 to 27.2 (+7.7%)"), of its sign;
    then the pair is a change, not a range."""
    m = _CHANGE_PAREN.match(text, end, min(len(text), end + 60))
    if m is None or float(low) == 0 or _VARYING.match(text, m.end()):
        return False  # ("40 to 44 tok/s (+10%) depending on the prompt": a range all the same)
    stated = float(m.group("p").replace("\u2212", "-"))
    change = 100 * (float(high) - float(low)) / float(low)
    return (stated >= 0) == (change >= 0) and abs(change - stated) <= max(0.3, 0.1 * abs(stated))


#: what follows a range's second number when it opens counts instead ("— 333 drafts accepted / 531",
#: "- 181/250 accepted", "- 181 of 250")
_COUNTS_AFTER = re.compile(r"\s*(?:/\s*\d|(?:[\w-]{1,16}\s+){0,2}accepted\b|of\s+\d)", re.IGNORECASE)
#: the word before a pair that makes it "from A to B", not a range (the last five characters)
_WINDOW = 256  # characters before a number the reader looks at
_FROM = re.compile(r"(?:^|\W)(?:from|von|de|desde)$|[从從由]$", re.I)
#: a noun of a change or an amount before "de" ("um ganho de 2% a 3%", "una mejora de 2 a 3%"): "a
#: gain of A to B", a range, not "from A to B"
_AMOUNT_OF = re.compile(
    r"(?:ganhos?|ganancias?|aumentos?|mejoras?|melhorias?|melhoras?|incrementos?|acr[eé]scimos?|"
    r"reducci[oó]n|redu[cç][aã]o|quedas?|ca[ií]das?|p[eé]rdidas?|perdas?|diferen[cç]as?|"
    r"velocidad|velocidade|entre)\s+de$",
    re.I,
)


#: words near "k/n" that make it a count of successes ("39/40 correct", "438/438 accepted", "GSM8K")
_COUNT_WORDS = re.compile(
    r"accept|pass|correct|succe|solved|right\b|match|tests?\b|responses?\b|questions?\b|prompts?\b|"
    r"runs?\b|trials?\b|gsm8k|humaneval|mmlu|vision|수락|採択|接受",
    re.IGNORECASE,
)


def _slash_count(text: str, m: re.Match) -> bool:
    """Whether "k/n" at ``m`` is a count: two whole numbers, no unit, k <= n, a count word
    (``_COUNT_WORDS``) within 40 characters."""
    a, b = m.group("a"), m.group("m")
    if not (a.isdecimal() and b.isdecimal()) or m.group("ua") or m.group("unit") or m.group("um"):
        return False
    if int(a) > int(b) or m.group("b") is not None or m.group("pm") is not None:
        return False
    return _COUNT_WORDS.search(text[max(0, m.start() - 40) : m.end() + 40]) is not None


#: words right before a number that make it a bound: below it ("<9%", "under 2 s", "at most",
#: "up to") or above it (">50 tok/s", "over 100", "at least"); "+" right after it is above ("40+")
_BELOW = re.compile(
    r"(?:<=?|≤|\b(?:under|below|less than|fewer than|lower than|at most|no more than|up to|"
    r"not more than|max(?:imum)?(?: of)?|unter|weniger als|bis zu|höchstens|maximal|menos de|hasta|"
    r"moins de|jusqu'à|менее|меньше|не более|до)|不到|少于|低于|小于|不超过|最多|最高|至多|最大|"
    r"최대)\s*$",
    re.IGNORECASE,
)
#: (">" after "-" or "=" is an arrow, "-->", "=>": what follows is a result, no bound)
_ABOVE = re.compile(
    r"(?:(?<![-=])>=?|≥|\b(?:over|above|more than|greater than|higher than|at least|no less than|upwards of|"
    r"in excess of|exceed(?:s|ed|ing)?|surpass(?:es|ed|ing)?|north of|min(?:imum)?(?: of)?|über|mehr als|"
    r"mindestens|más de|plus de|au moins|более|больше|свыше|не менее|превыша\w*)|超过|超出|超過|高于|大于|"
    r"多于|至少|不少于|不低于|最少|最低|최소)\s*$",
    re.IGNORECASE,
)
#: "exceeds" in a clause of "when"/"if": a threshold the clause sets, no bound of a result
_WHEN_EXCEEDS = re.compile(
    r"\b(?:when|whenever|if|once|until)\b[^.;:!?]*\b(?:exceed\w*|surpass\w*)\s+(?:[^\W\d]+\s+)?$",
    re.IGNORECASE,
)
#: words right after a number (and its unit) that make it a bound: "10GB以上", "5 tok/s未満", "20
#: 토큰/초 이상", "40 tok/s or more"
_ABOVE_AFTER = re.compile(r"\s*(?:以上|超|이상|or (?:more|higher|above|faster)\b|and up\b|\+(?!\d))")
_BELOW_AFTER = re.compile(r"\s*(?:以下|未満|以内|이하|미만|or (?:less|lower|fewer|below)\b)")
#: "Max" ending a product's name right before a number: a model token of capitals and digits, then
#: "Max" capitalised ("M1 Max 38 tok/s", "M4 Max: 71 tok/s", "Ryzen AI MAX+ 395"), no "at most"
_PRODUCT_MAX = re.compile(r"\b[A-Z]{1,3}\d{1,3}[A-Za-z]?\s+(?:Max|MAX)\+?\s*[:=]?\s*$|\bAI\s+MAX\+?\s*$")
#: words before "up to" / "over" that make them no bound: "goes up to 36.9 TFLOPS" (it rose to it),
#: "averaged over 128 tokens" (what a mean was taken across)
#: a statistic's word as tools print one before its number (a percentile: p50, p90, p99, p999, p99.9;
#: never a card's name, "Tesla P40"); ``draftsentences._STAT_BEFORE`` reads it too
STAT_WORD = r"avg|average|mean|median|std|stddev|stdev|p(?:10|25|50|75|90|95|99|999|99\.9+)"
#: a statistic's word right before a number ("median 11.3s", "p90 90.8s", "mean: 4.2"): a list of the
#: runs' statistics, where "max 247.9s" is one more
_STAT_BEFORE_NUMBER = re.compile(rf"(?i)(?:^|[\s,;(|])(?:{STAT_WORD})\s*[:=]?\s*\d")
_NOT_BOUND = re.compile(
    r"(?:\b(?:go|goes|going|went|gone|rose|rises|rising|jump(?:s|ed)?|climb(?:s|ed)?|increas\w*|"
    r"ramp(?:s|ed)?|averag\w*|mean|median|measured|across|runs?|ran|tested|sum(?:med)?|total(?:led)?)"
    r"\s+(?:up\s+to|over))\s*$",
    re.IGNORECASE,
)


#: words that make a bound a threshold of a scale, a definition, a condition or a requirement, not a
#: result, when they stand in the bound's own clause: "below 30 tok/s is too slow", "defined by TTFT >
#: 10 seconds", "Models requiring >24 GB", "Models that need more than 24 GB … will not fit", "I would
#: need 45+ GB", "we recommend … at least 80GB", "If you get less than 10 tok/s, check …"
_THRESHOLD = re.compile(
    r"\btoo\s+(?:slow|fast|long|short|much|little)\b|\bfeels?\b|\b(?:un)?usable\b|\binteractive\b|"
    r"\b(?:excellent|painful|comfortable|acceptable|tolerable|unbearable|elite)\b|"
    r"\b(?:defined|considered|counts?|classed|qualif(?:y|ies|ied))\s+(?:by|as)\b|\bthresholds?\b|"
    # a need in the conditional, as advice or of a class of models; not what a model was found to
    # need ("it needs at least 12 GB of VRAM")
    r"\bcut-?offs?\b|\b(?:would|will|you|you'd|may|might)\s+need\b|\bneeds?\s+to\b|\brequiring\b|"
    r"\b(?:that|which|who)\s+(?:need|require)s?\b|\b(?:won't|will\s+not|doesn't|does\s+not)\s+fit\b|"
    r"\brequirements?\b|\brecommend\w*|\bshould\s+(?:be|have|fit)\b|\bideally\b|"
    r"\b(?:if|when|unless)\s+(?:you|your)\b|"
    r"建议|推荐|可接受|卡顿|推奨|快適",
    re.IGNORECASE,
)
#: a verb reporting what a run did: the bound beside it is a result ("it generated at least 25
#: tok/s", "decode stayed above 100 tok/s", "reaching only up to 6 tok/s")
_RESULT_VERB = re.compile(
    r"\b(?:reach\w*|generat\w*|ran|runs|stay\w*|stayed|hit|hits|got|gets|achiev\w*|measured|held|"
    r"peak\w*|averag\w*|produc\w*|decod\w*|process\w*|was|were|is)\b|达到|生成|运行",
    re.IGNORECASE,
)
#: what ends a clause around a bound: a comma, a colon, a semicolon, a full stop, a dash, "and"/"but"
_BOUND_CLAUSE = re.compile(r"[,;:，；：。]|\.\s|\s[—–-]\s|\s(?:and|but|while|whereas|then)\s", re.IGNORECASE)


#: a table column rating what a row's values feel like ("| Speed | Feel |", "| Speed | Experience |",
#: "| Speed | Verdict |"): its rows are a scale's thresholds
RATING_COLUMN = re.compile(r"^\W*(?:feel|feels|experience|verdict|rating|perceived|ux|impression)\W*$", re.I)


def threshold(sentence: str, at: int | None = None) -> bool:
    """Whether a bound at offset ``at`` of ``sentence`` is a threshold, a definition, a condition or
    a requirement (``_THRESHOLD`` in its own clause, ``_BOUND_CLAUSE``), no result of a run: the
    bound is listed, no statement checks the post's claims against it (every such bound of the
    corpus was judged "inconsistent" against the post's own measurements).  A clause whose verb
    reports a run before the bound ("it generated at least 25 tok/s") holds a result whatever word
    it has; "below 30 tok/s is too slow" (the verb after the bound) stays a threshold.  With no
    ``at``, the whole text (a table row's other cells)."""
    if at is None:
        return _THRESHOLD.search(sentence) is not None
    lo = max([0, *(m.end() for m in _BOUND_CLAUSE.finditer(sentence, 0, at))])
    hi = next((m.start() for m in _BOUND_CLAUSE.finditer(sentence, at)), len(sentence))
    if _RESULT_VERB.search(sentence, lo, at) and not _THRESHOLD.search(sentence, lo, at):
        return False
    return _THRESHOLD.search(sentence, lo, hi) is not None


def bound_of(text: str, n: Number) -> str | None:
    """``below`` or ``above`` when ``n`` (a number of ``text`` with a unit, no range) is written as
    a bound (``_BELOW``, ``_ABOVE``, "40+"), else None: not for token or layer counts (what was run)
    nor after another number ("939 MiB < 1024 MiB": a comparison)."""
    if n.unit is None or n.range is not None or n.spread is not None:
        return None
    if family(n.unit) in ("tokens", "layers"):
        return None  # "workloads above 1000 tokens", "over 40 layers": what was run, not a result
    if re.match(r"[^\d]*\d[\d.,\u202f ]*(?:\+(?![\d.])|多|余)", text[n.start : n.end]):
        return "above"  # "40+ tok/s", "30多token/s" (30-odd: more than 30)
    before = text[max(0, n.start - 30) : n.start]
    if _NOT_BOUND.search(before) or re.search(
        r"\d\s*[^\W\d]*(?:/[^\W\d]+)?\s*\)?\s*(?:<=?|>=?|≤|≥|до|bis zu|hasta)\s*$", before
    ):
        return None  # "939 MiB < 1024 MiB", "41.0 t/s ≥ 40 t/s": two numbers compared, not a bound
    if _PRODUCT_MAX.search(before):
        return None  # "the M1 Max 38 tok/s": a chip's name ends in "Max", no bound
    if re.search(r"(?i)\b(?:max|min)\s*[:=]?\s*$", before) and _STAT_BEFORE_NUMBER.search(text[: n.start]):
        return None  # "median 11.3s p90 90.8s max 247.9s": the runs' largest, a statistic beside others
    if re.match(r"\s*(?:以上|이상)", text[n.end :]):
        return "above"  # "最大30%以上": the word glued after the number says which end ("or more")
    if re.match(r"\s*(?:以下|未満|이하|미만)", text[n.end :]):
        return "below"
    if _BELOW.search(before):
        return "below"
    if _WHEN_EXCEEDS.search(text[max(0, n.start - 100) : n.start]):
        return None  # "when weights plus KV cache exceed approximately 14GB": a threshold, no result
    if _ABOVE.search(before):
        return "above"
    if _ABOVE_AFTER.match(text, n.end):
        return "above"
    if _BELOW_AFTER.match(text, n.end):
        return "below"
    return None


#: a word naming which rate between a number and a rate's unit: "41.7 eff tok/s", "35 gen t/s",
#: "1200 prompt tok/s", "40 avg tokens/s", "18 output tok/sec", "1692 out tok/s"
_QUALIFIED_RATE = re.compile(
    r"\s+(?:eff|effective|output|out|input|total|prompt|gen|generation|decode|decoding|prefill|avg|average|mean|"
    r"median|peak|net|real|actual)\.?\s+(?P<u>tok/s|t/s|tokens/s|token/s|tok/sec|tokens/sec|toks/s|tps)"
    r"(?![A-Za-z/])",
    re.IGNORECASE,
)


#: a count of draft tokens with the accepted of them after it ("18 draft tokens, 9 accepted"); not a
#: rate ("draft tokens/s") nor per step (``_ACCEPTED_PER``); a number of draft tokens with no accepted
#: ones beside it is a setting ("I tried 4, 5, and 6 draft tokens")
_QUALIFIED_COUNT = re.compile(
    r"\s+(?:(?:draft|drafted)(?=\s+tokens?\s*(?:,|and)\s*\d[\d,]*\s+accepted\b)"
    # a count of the tokens a run made or read, then the time it took ("128 generated tokens → 1.93
    # s", "512 prompt tokens in 0.8 s"): a count stated with its time
    r"|(?:generated|output|new|decoded|prompt|input)(?=\s+tokens?\s*(?:in\s+|→|->|=>|⟶)\s*[\d.]+\s?(?:s|sec|secs|seconds|ms)\b))"
    r"\s+(?P<u>tokens?)\b(?!\s*(?:/|per\b))",
    re.IGNORECASE,
)
#: a mean acceptance length written after its number ("~1.9 avg accept length", "2.5~3 mean acceptance
#: length"): tokens accepted per verify step
_LENGTH_AFTER = re.compile(
    r"\s+(?:avg\.?|average|mean)\s+(?P<u>accept(?:ed|ance)?\s+length|acceptance\s+len)\b", re.IGNORECASE
)
#: tokens accepted (or drafted) per verify step, the word naming them before "tokens": "~1.2–1.3
#: accepted tokens per cycle", "3.1 accepted tokens per step", "2.4 drafted tokens per round"
_ACCEPTED_PER = re.compile(
    # ("2.37 accepted tokens/round", "1.37 accepted draft tokens/round": per written as a slash)
    r"\s+(?:accepted|drafted)\s+(?:draft\s+)?(?P<u>tokens?)\s*(?:\s+per\s+|/\s*)"
    r"(?:cycle|step|verify(?:\s+step)?|verification|draft|round|iteration|forward(?:\s+pass)?)\b",
    re.IGNORECASE,
)


#: a time written in minutes and seconds together: "1m42s", "2m 05.5s" (a tool's or a table's clock)
_MIN_SEC = re.compile(r"(?<![\w.])(?P<m>\d{1,4})\s?m\s?(?P<s>[0-5]?\d(?:\.\d+)?)\s?s\b")


#: a count of tokens under its label, then the time they took ("Prompt tokens: 7530 in 6.51s",
#: "Decoded tokens: 2441 in 61.40s"): the label before the number, the time after it
_TOKENS_LABEL = re.compile(r"\btok(?:en)?s?\s*[:=]\s*$", re.IGNORECASE)
_IN_TIME = re.compile(r"\s+in\s+\d[\d.]*\s?(?:s|sec|secs|seconds|ms)\b", re.IGNORECASE)


def _labelled_counts(text: str, found: list[Number]) -> list[Number]:
    """``found`` with each bare number labelled as tokens and followed by the time they took
    (``_TOKENS_LABEL``, ``_IN_TIME``: "Decoded tokens: 2441 in 61.40s") a count in tokens."""
    return [
        replace(n, unit="tokens", unit_written="tokens")
        if n.unit is None
        and n.range is None
        and _TOKENS_LABEL.search(text, max(0, n.start - 20), n.start)
        and _IN_TIME.match(text, n.end)
        else n
        for n in found
    ]


def _minutes_seconds(text: str, found: list[Number]) -> list[Number]:
    """``found`` with each time written "1m42s" (``_MIN_SEC``) as one number in seconds (102 s; the
    seconds' decimals kept), in place of the numbers read from inside it."""
    spans = list(_MIN_SEC.finditer(text))
    if not spans:
        return found
    kept = [n for n in found if not any(m.start() <= n.start < m.end() for m in spans)]
    for m in spans:
        sec = m.group("s")
        digits = len(sec.split(".")[1]) if "." in sec else 0
        total = int(m.group("m")) * 60 + float(sec)
        kept.append(Number(f"{total:.{digits}f}", "s", False, m.start(), m.end(), unit_written="s"))
    return sorted(kept, key=lambda n: n.start)


#: between a number with a unit and one without that takes it: "17 секунд против 40", "38 t/s vs 33.93"
_AGAINST = re.compile(
    r"\s*(?:против|проти|vs\.?|versus|against|compared (?:to|with)|instead of|вместо|замість)\s*$", re.I
)
#: between a number with no unit and the other side's number with one, the other side named in a few
#: words ("115.5 vs oMLX's 231.7 tok/s", "RTX 5090 356 vs M3 Ultra 192 tok/s"): one unit for both
_VS_NAMED = re.compile(
    # (a word naming the first side before it: "37 (yours) vs 34 tokens / sec"; not a setting's
    # remark, "concurrency 16 (default) vs 45 tok/s")
    r"\s*(?:\((?:yours|mine|ours|theirs|his|hers|old|new|before|after|baseline|stock|patched)\)\s*)?"
    r"(?:vs\.?|versus|statt|anstatt|instead\s+of|rather\s+than)\s+(?:[^\s\d.!?;:,()]\S*\s+){0,3}",
    re.IGNORECASE,
)
#: a sentence naming one thing and its number after the sentence that gave the unit ("Llama.cpp
#: выдает 42 токена в секунду. Ollama - 25.")
_NAMED_AFTER = re.compile(r"[.!?;]\s+[^\W\d][\w.\-]*\s*[-–—]\s*$")


#: what a count of tokens after another is: "…, 9 accepted"
_COUNTED_AFTER = re.compile(r"\s+(?:accepted|drafted|rejected)\b", re.IGNORECASE)


#: a verb of a rate right before a number of the same clause as a rate ("reporting 19 tok/s on a model
#: that actually decodes at 80")
_RATE_VERB = re.compile(r"\b(?:decod\w*|generat\w*|runs?|running|reach\w*)\s+at\s+$", re.IGNORECASE)


_STAT_PAREN = re.compile(r"\b(?:avg|average|mean|median)\b[^()\d.!?]{0,15}\(\s*$", re.IGNORECASE)

#: a baseline's label right before a number in the parentheses or the clause after a rate ("218.23
#: tok/s (AR 58.25, 3.75x)", "70 tok/s, baseline 41"): the rate without drafting, in the same unit
_BASELINE_WORDS = (
    r"(?:AR|baseline|base|vanilla|plain|autoregressive|no[- ]?spec|w/o(?:\s+\w+)?|without(?:\s+\w+)?)"
)
_BASELINE_BEFORE = re.compile(rf"\s*[(,;]\s*{_BASELINE_WORDS}\s*[:=]?\s*", re.IGNORECASE)
#: the same label right after the number ("218.23 tok/s vs 58.25 without", "vs 58.25 w/o MTP")
_BASELINE_AFTER = re.compile(r"\s+(?:without|w/o)\b[^.!?;,()\n]{0,20}?(?=[.!?;,)]|$)", re.IGNORECASE)


#: the words after a number and before the next of a parallel phrase: a preposition and its object,
#: then "and" or a comma ("… tokens per second for 8B models and 25 to 40 for 14B models")
_PARALLEL_GAP = re.compile(r"\s+(?P<p>for|on|with|at|in)\s+[^.!?;:,]{1,40}?\s*(?:,\s*(?:and\s+)?|\s+and\s+)")


def _parallel(text: str, prev: Number, n: Number) -> bool:
    """Whether ``n`` is the second of two parallel phrases after ``prev`` ("40 tok/s for 8B models and
    25 for 14B models"): the words between are a preposition's phrase and "and" (``_PARALLEL_GAP``),
    and the same preposition follows ``n``."""
    m = _PARALLEL_GAP.fullmatch(text, prev.end, n.start)
    return (
        m is not None
        and re.match(rf"\s+{m.group('p')}\s", text[n.end : n.end + 8], re.IGNORECASE) is not None
    )


#: words naming a quantity of no rate before a change ("MMLU score", "accuracy", "latency", "VRAM"):
#: its sides take no rate of a change before them
_OTHER_QUANTITY = re.compile(
    r"\b(?:score|accuracy|mmlu|gsm8k|humaneval|perplexity|ppl|latency|ttft|tpot|memory|vram|ram|size|"
    r"power|watts?|temperature|loss|acceptance|accepted|util\w*|cost|price|percent\w*)\b",
    re.IGNORECASE,
)
#: the word between the two sides of a change ("from 41.2 to 57.6", "47.7 to 72.2", "586.7 → 583.7")
_TO = re.compile(r"\s*(?:to|→|->)\s*", re.IGNORECASE)


#: a comparison's word right before a pair ("versus 23.2 -> 20.4", "vs. 3 -> 5", "against 41 → 52")
_COMPARED_BEFORE = re.compile(r"(?i)\b(?:versus|vs\.?|against|compared\s+(?:to|with))\s*$")


#: a baseline's label right before a number, after a bracket, a comma or a comparison's word ("(AR
#: 58.25", ", baseline 41", "(w/o 41", "vs plain 41")
_BASELINE_LABEL = re.compile(rf"(?:[(,;]|\bvs\.?|\bversus)\s*{_BASELINE_WORDS}\s*[:=]?\s*~?$", re.IGNORECASE)


def baseline_label(text: str, n: Number) -> bool:
    """Whether a baseline's label (``_BASELINE_LABEL``, ``_BASELINE_AFTER``: "vs 41 without") names
    the number ``n`` of ``text``: the rate of the run that drafted nothing."""
    return (
        _BASELINE_LABEL.search(text, max(0, n.start - 30), n.start) is not None
        or _BASELINE_AFTER.match(text, n.end) is not None
        and re.search(
            r"(?i)\b(?:vs\.?|versus|against|compared\s+(?:to|with))\s*$", text[max(0, n.start - 20) : n.start]
        )
        is not None
    )


def _baseline_scale(rate: str, base: str) -> bool:
    """Whether ``base`` can be the baseline of the rate ``rate`` (both as written): between a
    twentieth of it and twice it."""
    try:
        r, b = _as_float(rate), _as_float(base)
    except ValueError:
        return False
    return r > 0 and r / 20 <= b <= 2 * r


def _carried(text: str, found: list[Number]) -> list[Number]:
    """A number with no unit right after one with a rate's, time's or size's unit takes it where the
    words between compare the two ("17 секунд против 40") or start a sentence that names the other
    side alone ("… 42 токена в секунду. Ollama - 25.") or a rate's verb is before it in the same
    clause ("19 tok/s on a model that actually decodes at 80") or it is a statistic's in parentheses
    ("36.7 tok/s; the bench avg below (33.7)"); the number then ends its clause.  A change "A to B
    (+N%)" with no unit (its own change after it: ``_change_follows``) takes the rate of the change
    before it in the same paragraph ("from 41.2 to 57.6 tok/s (+39.8%)" then "47.7 to 72.2 long gen
    (+51.4%)")."""
    out = list(found)
    for i in range(1, len(out)):
        n, prev = out[i], out[i - 1]
        if n.unit is None and family(prev.unit) in ("rate", "time") and _parallel(text, prev, n):
            # "roughly 40 to 60 tokens per second for 8B models and 25 to 40 for 14B models": the
            # second of two parallel phrases leaves the unit (and the "roughly") out
            out[i] = replace(n, unit=prev.unit, about=n.about or prev.about)
            continue
        if n.unit is not None or n.range is not None:
            continue
        gap = text[prev.end : n.start]
        if (
            prev.unit == "tokens"
            and re.fullmatch(r"\s*(?:,|and)\s*", gap)
            and _COUNTED_AFTER.match(text, n.end)
        ):
            out[i] = replace(n, unit="tokens")  # "18 draft tokens, 9 accepted": the accepted of them
            continue
        if family(prev.unit) not in ("rate", "time", "size"):
            continue
        verb = family(prev.unit) == "rate" and len(gap) <= 80 and not re.search(r"[.!?;]", gap)
        # "36.7 tok/s; the bench avg below (33.7)": the statistic of the same rate, in parentheses
        stat = len(gap) <= 50 and _STAT_PAREN.search(gap) and text[n.end : n.end + 1] == ")"
        # "218.23 tok/s (AR 58.25, 3.75x)": the baseline's rate beside it (a drafted run is at most a
        # few tens of times faster: "120 tok/s (AR 0.72)" is an acceptance rate, no rate)
        base = (
            family(prev.unit) == "rate"
            and _BASELINE_BEFORE.fullmatch(gap) is not None
            and _baseline_scale(prev.text, n.text)
        )
        named = _AGAINST.match(gap) or _NAMED_AFTER.search(gap)
        if not (named or (verb and _RATE_VERB.search(gap)) or stat or base):
            continue
        if not re.match(r"\s*(?:[.!?;,)]|$)", text[n.end : n.end + 2]) and not (
            _AGAINST.match(gap) and _BASELINE_AFTER.match(text, n.end)
        ):
            continue
        out[i] = replace(n, unit=prev.unit)
    paired: str | None = None  # the unit of the last pair "A vs B unit" read
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if (
            a.unit is None
            and a.range is None
            and family(b.unit) in ("rate", "time", "size")
            and _VS_NAMED.fullmatch(text[a.end : b.start])
            # (not a count of what is named before it: "H100 NVL 94GB×4 vs A100 80GB×4", four cards;
            # a word ending in x is no count's sign: "MLX 30 vs llama.cpp 45 tok/s", "M2 Max 60 vs …")
            and not re.search(
                r"(?:[\w)]\s?[×*]|(?:\d|[GMT]i?B)\s?[xX])\s?$", text[max(0, a.start - 5) : a.start]
            )
        ):
            out[i] = replace(a, unit=b.unit)  # "356 vs M3 Ultra 192 tok/s": the unit of both sides
            paired = b.unit
            continue
        if (
            paired is not None
            and a.unit is None
            and b.unit is None
            and a.range is None
            and b.range is None
            and (
                re.fullmatch(r"\s*(?:vs\.?|versus)\s*", text[a.end : b.start], re.IGNORECASE)
                # (an arrow pair after a comparison's word: "versus 23.2 -> 20.4"; not one under a
                # label of its own, "offloaded layers 41 -> 33", "VRAM 10.2 -> 9.4")
                or _ARROW.fullmatch(text[a.end : b.start])
                and _COMPARED_BEFORE.search(text, max(0, a.start - 30), a.start) is not None
            )
            and not re.search(r"[.!?;\n]", text[out[i - 1].end : a.start] if i else "")
        ):
            # "41.4 vs 37.5 tok/s at 1K (+10%), 31.6 vs 28.2 at 8K (+12%)", "(23.5 -> 18.5 t/s across
            # the sweep, versus 23.2 -> 20.4)": a second pair of the sentence with no unit written is
            # in the first's
            out[i], out[i + 1] = replace(a, unit=paired), replace(b, unit=paired)
            continue
        if a.unit is not None or a.range is not None or not _ARROW.fullmatch(text[a.end : b.start]):
            continue
        if family(b.unit) in ("rate", "time", "size"):
            out[i] = replace(a, unit=b.unit)  # "40 → 84 tok/s": the unit of both
            paired = b.unit
        elif b.unit is None and i and _multiple_of(out[i - 1], a, b, text):
            # "1.88x (3.3-->6.2)": the pair the multiple is of, rates with no unit written (t/s)
            out[i], out[i + 1] = replace(a, unit="t/s"), replace(b, unit="t/s")
    changed: Number | None = None  # the last change "A to B unit (+N%)" read with a rate's unit
    breaks = [m.start() for m in re.finditer(r"\n\s*\n", text)]  # once: a slice per pair was quadratic
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if a.range is not None or b.range is not None or not _TO.fullmatch(text, a.end, b.start):
            continue
        if not _change_follows(text, b.end, a.text, b.text):
            continue
        if family(b.unit) == "rate":
            changed = b
        elif (
            a.unit is None
            and b.unit is None
            and changed is not None
            and bisect.bisect(breaks, changed.end) == bisect.bisect(breaks, a.start)
            # ("… and the MMLU score went from 70.1 to 71.5 (+2.0%)": another quantity's words)
            and not _OTHER_QUANTITY.search(text, out[i - 1].end if i else 0, a.start)
        ):
            # "from 41.2 to 57.6 tok/s (+39.8%)\n47.7 to 72.2 long gen (+51.4%)": a change of the
            # paragraph after one in a rate, its unit left out, is in the same rate
            out[i], out[i + 1] = replace(a, unit=changed.unit), replace(b, unit=changed.unit)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if a.unit is None and b.unit is None and a.range is None and b.range is None:
            if _WITH_DRAFT.fullmatch(text[a.end : b.start]) and _WITH_AFTER.match(text, b.end):
                # "14.5 with draft / 16.5 without": a run's rate with and without drafting (t/s)
                out[i], out[i + 1] = replace(a, unit="t/s"), replace(b, unit="t/s")
    return out


#: what joins the numbers of a list whose last one alone writes the unit ("112 and 141 tok/s",
#: "112, 130 and 141 tok/s", "12/15 GB", "30 или 40 ms"); a range's "to" too ("from 40 to 84 tok/s")
_LIST_JOIN = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|to|&|und|oder|bis|et|ou|y|o|e|и|или)\s+|\s*/\s*)",
    re.IGNORECASE,
)
#: what may stand right before a list's first number ("reached 112 and 141 tok/s", "Results: 112,
#: 130 and 141", "were 12/15 GB", a line's start): a verb of measuring, a preposition of a value, an
#: approximation, a colon or bracket; never a name's word ("RTX 3090 and 24 GB"), a setting's
#: ("batch 8, 16 tok/s", "--max-model-len 8192 and 20 GB", "temperature 0.7 and 42 tok/s"), a "#"
#: ("#787, 12 GB") or a clock ("00:00, 1.61s/it")
_LIST_LEAD = re.compile(
    r"(?:^|[(\[:—–]\s*|(?<!\S)-\s+|\b(?:reached|reach|reaches|got|get|gets|getting|hit|hits|saw|see|sees|"
    r"measured|measures|scored|was|were|are|is|at|from|gave|gives|give|giving|yielded|yields|"
    r"managed|achieved|achieves|around|about|roughly|approximately|nearly|respectively|and|erreicht|"
    # "of" after a word of values ("speeds of 112 and 141 tok/s"), never after a setting ("a context
    # of 16384 and 20 GB", "a batch size of 512 and 45 tok/s", "an average of 3 and 70%")
    r"(?:speeds?|rates?|throughputs?|values|results|numbers|figures|timings)\s+of)\s+|[~≈]\s*)$",
    re.IGNORECASE,
)


#: the words of a range written "between A and B" (German "zwischen A und B", Spanish and French
#: "entre A y B", "entre A et B"): before its first number, between its two
_BETWEEN = re.compile(r"\b(?:between|zwischen|entre)\s+(?:[~≈]\s*)?$", re.IGNORECASE)
_BETWEEN_AND = re.compile(r"\s+(?:and|und|y|et|e)\s+", re.IGNORECASE)


def _between(text: str, found: list[Number]) -> list[Number]:
    """A range written in words, "between 2 and 40 percent", "between 57 and 83 tokens per second",
    as one number with its two ends (as "2–40%" is read), in the unit the second writes."""
    out: list[Number] = []
    i = 0
    while i < len(found):
        a = found[i]
        b = found[i + 1] if i + 1 < len(found) else None
        if (
            b is not None
            and a.unit is None
            and a.range is None
            and b.unit is not None
            and b.range is None
            and not b.text.startswith(("+", "-"))
            and _BETWEEN.search(text, max(0, a.start - 20), a.start)
            and _BETWEEN_AND.fullmatch(text, a.end, b.start)
        ):
            out.append(
                replace(b, text=f"{a.text}–{b.text}", start=a.start, low=a.text, high=b.text, about=a.about)
            )
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def _listed(text: str, found: list[Number]) -> list[Number]:
    """A list of numbers whose last alone writes a rate's, time's, size's or percentage's unit
    (joined by ``_LIST_JOIN``: "reached 112 and 141 tok/s respectively", "112, 130 and 141 tok/s",
    "12/15 GB"): each takes that unit.  A comma joins a list only before a word that ends it ("112,
    130 and 141": "compute capability 6.1, 40 tokens/s" is no list); a percentage's list is joined
    by words ("60 and 70%", never "39.3, 11%"); the first number follows what leads a list of
    values (``_LIST_LEAD``: "reached", "Results:"), never a name's or a setting's word ("RTX 3090
    and 24 GB", "--max-model-len 8192 and 20 GB")."""
    out = list(found)
    i = 0
    while i < len(out):
        # the run of unitless numbers from i, each joined to the next, up to one with a unit
        j, joins = i, []
        while (
            j + 1 < len(out)
            and out[j].unit is None
            and out[j].range is None
            and out[j].of is None  # "8/10 and 52 tok/s": a score, no number of a list
            and not re.match(r"[\w.]", text[out[j].end : out[j].end + 1])  # glued to what follows
            and (join := _LIST_JOIN.fullmatch(text, out[j].end, out[j + 1].start)) is not None
        ):
            joins.append(join.group(0))
            j += 1
        last = out[j]
        worded = any(re.search(r"\w", x) for x in joins)
        if (
            j > i
            and last.unit is not None
            and last.range is None
            and (family(last.unit) in ("rate", "time", "size") or last.unit == "%" and worded)
            and not last.text.startswith(("+", "-"))  # "44.15 → 39.3, −11%": a change after them
            and (worded or not any("," in x for x in joins))
            and _LIST_LEAD.search(text[max(0, out[i].start - 40) : out[i].start]) is not None
        ):
            # "around 350/370 tokens/s" (p115): the first one's approximation is the list's
            about = out[i].about and all("/" in x for x in joins)
            for k in range(i, j + 1):
                out[k] = replace(
                    out[k],
                    unit=last.unit if k < j else out[k].unit,
                    unit_written=last.unit_written if k < j else out[k].unit_written,
                    about=out[k].about or about,
                )
        i = max(j, i + 1)
    return out


#: between the two rates of a run with and without drafting, no unit written: "14.5 with draft / 16.5"
_WITH_DRAFT = re.compile(
    r"\s+with(?:out)?\s+(?:a\s+|the\s+)?(?:draft(?:\s+model)?|speculat\w*(?:\s+decoding)?|spec|mtp)\s*/\s*",
    re.IGNORECASE,
)
_WITH_AFTER = re.compile(r"\s+with(?:out)?\b", re.IGNORECASE)


#: what follows a number of minutes that is a page's reading time
_READ_TIME = re.compile(r"\s*(?:read\b|reading\s+time\b|소요|で読め|чтени|читанн)", re.IGNORECASE)

_SETUP_BEFORE = re.compile(r"\b(?:install\w*|set(?:ting)?[ -]?up|configur\w*)\b[^.;!?]{0,30}$", re.IGNORECASE)
_SETUP_AFTER = re.compile(r"\s*(?:of\s+)?(?:setup|set-up|installation|configuration)\b", re.IGNORECASE)


_FIT_BEFORE = re.compile(r"\bfit\w*\s+(?:in(?:to)?\s+|on\s+)?(?:the|a|an|my|one|our|your)\s+$", re.IGNORECASE)
_CARD_AFTER = re.compile(r"\s*(?:cards?|gpus?|graphics cards?)\b(?!\s*(?:memory|mem|usage|used|vram))", re.I)


#: a serving benchmark's input and output lengths written as a pair ("ISL/OSL = 512/128")
LENGTH_PAIR = re.compile(r"\bISL\s*/\s*OSL\s*[=:]?\s*(\d+[kK]?\s*/\s*\d+[kK]?)", re.IGNORECASE)
#: what follows a count of cards written as a multiple ("2× L40S", "4x H100", "8x RTX 3090", "2x MI50"):
#: a device's name, no comparison word (the vendor in any case: "8 x nVIDIA Quadro P6000")
_CARDS_AFTER = re.compile(
    r"\s?(?:(?i:nvidia|amd|intel)\s+)?(?:GeForce\s+)?(?:RTX|GTX|Tesla|Quadro|Radeon|Instinct|Arc|"
    r"[ABHLPTV]\d{1,3}S?\b|GB\d{2,3}\b|MI\d{2,3}|W\d{4}|[1-5]0[5-9]0\b|Jetson|Mac|M[1-5]\b|Pi\s?[345]\b|"
    + _PARTS_AFTER
    + ")",
)


def _card_capacity(text: str, n: Number) -> bool:
    """Whether a size is a card's capacity ("doesn't fit the 16 GB", "a 12 GB card"), not a measured
    size; the number is then no claim (SOURCES.md: hardware specifications go under systems)."""
    if family(n.unit) != "size" or n.range is not None:
        return False
    return bool(_CARD_AFTER.match(text, n.end) or _FIT_BEFORE.search(text[max(0, n.start - 40) : n.start]))


def _setup_time(text: str, n: Number) -> bool:
    """Whether a number of minutes or hours is the time setting something up takes ("install/test a
    model in 5 minutes", "2-3h of setup"), not a measured run's."""
    if n.unit not in ("min", "h"):
        return False
    return bool(_SETUP_AFTER.match(text, n.end) or _SETUP_BEFORE.search(text[max(0, n.start - 50) : n.start]))


#: an arrow between two numbers: from the first to the second ("3.3-->6.2", "40 → 84")
_ARROW = re.compile(r"\s*(?:-+>|=+>|→|⟶|➜|➔)\s*")


def _multiple_of(m: Number, a: Number, b: Number, text: str) -> bool:
    """Whether the multiple ``m`` ("1.88x") is written right before the parenthesised pair ``a`` ->
    ``b`` and is ``b / a`` to the digits it was written with."""
    if m.unit != "x" or m.range is not None or not re.fullmatch(r"\s*[(（]\s*", text[m.end : a.start]):
        return False
    try:
        low, high = float(a.text), float(b.text)
        stated = float(m.text)
    except ValueError:
        return False
    if low <= 0:
        return False
    digits = len(m.text.split(".")[1]) if "." in m.text else 0
    return abs(high / low - stated) <= 0.5 * 10**-digits + 1e-9


#: a label and a number with no unit, the number ending its clause: "vanilla (`model`): 133", "* K=2:
#: 201.69, speedup: 1.51x"
_LABELLED_BARE = re.compile(
    r"(?:^|(?<=[,;]\s))\s*(?:[-*•]\s+)?(?P<label>[^:,;\d\s][^:,;]{0,60}?)\s*:\s*"
    r"(?P<v>\d[\d,]*(?:\.\d+)?)\s*(?=[,;]|$)"
)


def labelled_bare(text: str) -> list[tuple[str, str, int, int]]:
    """The ``label: number`` parts of a line whose number has no unit and ends its clause (a list of
    results under a caption naming their unit, "Output tokens/s on H100 BS1"): (label, number as
    written, start, end of the number)."""
    return [
        (m.group("label").strip(), number_text(m.group("v")), m.start("v"), m.end("v"))
        for m in _LABELLED_BARE.finditer(text)
    ]


def _ordered_pair(a: str, b: str) -> bool:
    """Whether "a–b" can be a range: two plain numbers, the first not above the second."""
    try:
        return 0 <= float(number_text(a)) <= float(number_text(b))
    except ValueError:
        return False


#: a token count over the time it took, as a status line writes them ("pp 6.7K/5.7s", "out
#: 335/4.5s"): the count (K for thousands), a slash, the time with its unit
_COUNT_IN_TIME = re.compile(
    r"(?<![\w.,/])\d+(?:\.\d+)?[kK]?\s?/\s?(?P<t>\d+(?:\.\d+)?)\s?(?P<u>ms|s|sec)(?![\w/])"
)


#: a tqdm progress bar's fields before its rates ("100%|███████| 1/1 [00:01<00:00,  1.72s/it, est.
#: speed input: …"): the share done, the items done of all, the elapsed and remaining time
PROGRESS = re.compile(r"\d{1,3}%\s*\|[^|\n]{0,200}\|\s*\d+/\d+\s*(?:\[[\d:<?]*(?:,|\]))?")


#: a question asking whether a number could be reached or asking others for theirs ("Could it break
#: 20 tok/s?", "Would 2x be possible?", "Has anyone gotten 30 t/s?", "Is it possible to reach …?")
_HYPOTHETICAL = re.compile(
    r"(?i)^\W*(?:(?:could|would|can|will|might|should)\s+(?:it|this|that|we|you|i|they|one|the\s+\w+)\b"
    # asking others for a number they reached ("Has anyone gotten over 30 t/s?", "Can anyone hit 20+?");
    # "Anyone else seeing 40 -> 12 tok/s?" reports one
    r"|(?:does|did|has|have|can|could|will)\s+(?:anyone|anybody|someone|somebody)\s+(?:\w+\s+){0,2}?"
    r"(?:get|gotten|got|achieve|achieved|manage|managed|reach|reached|hit|break|run)\b"
    r"|is\s+it\s+possible\b|is\s+there\s+(?:a|any)\s+way\b)"
)


#: a question's modal reach anywhere in it ("… this engine could break 20 tok/s?", "can we hit 30?")
_MODAL_REACH = re.compile(
    r"(?i)\b(?:could|would|can|might)\s+(?:\w+\s+){0,3}?(?:break|hit|reach|get|achieve|surpass|exceed|beat)\b"
)


def hypothetical(sentence: str) -> bool:
    """Whether ``sentence`` is a question of hope or a request (``_HYPOTHETICAL`` at its start, or a
    modal reach in it, ``_MODAL_REACH``; ending in "?"): its numbers state no measurement ("Could it
    break 20 tok/s on a Pi 5?", "… this engine could break 20 tok/s?"); "Why is it only 5 tok/s?"
    states one."""
    if not sentence.rstrip(" *_)\"'").endswith("?") or re.match(
        r"(?i)\W*(?:why|how come|anyone else|could it be that)\b", sentence
    ):
        return False  # "Why can it only reach 5 tok/s?": what it reached
    return _HYPOTHETICAL.match(sentence) is not None or _MODAL_REACH.search(sentence) is not None


#: a phase's label right before a number ("PP 1713", "TG: 40"; ``numbers``), not a number's unit
#: ("1200 PP 45 TG": the 1200's)
_PHASE_BEFORE = re.compile(
    # (or the label's verb between: "PP is 310 at 4k context", "TG was around 20")
    r"(?<![\w/.-])(?P<w>PP|TG|pp|tg)(?:\s*[:=]|\s+(?:is|was|at|of)(?:\s+(?:around|about|roughly))?)?\s*$"
)


#: after a phase's label, its number and the other phase's label with its number ("PP 1713 TG 40"): the
#: labels lead their numbers
_LABELS_LEAD = re.compile(r"\s*[:=]?\s*\d[\d.,]*\s*[,;/|]?\s*(?:PP|TG|pp|tg)\s*[:=]?\s*\d")


def _test_sizes(a: str, after: str) -> bool:
    """Whether the number ``a`` after a phase's label is a llama-bench test's size, not a rate: a
    power of two from 16 (pp512, tg128), and so the number after the next label ("PP 512 TG 128")
    where one follows."""

    def sized(x: str) -> bool:
        return x.isdigit() and int(x) >= 16 and int(x) & (int(x) - 1) == 0

    nxt = re.match(r"\s*[,;/]?\s*(?:PP|TG|pp|tg)\s*[:=]?\s*(\d+)(?![\d.])", after)
    return sized(a) and (nxt is None or sized(nxt.group(1)))


#: a number written in thousands or millions ("10k", "1.5K", "2M"): its digits and the letter
_THOUSANDS = re.compile(r"(?P<n>\d+(?:\.\d+)?)(?P<k>[kKM])")
#: a unit after such a number, a space or none between ("10k tok/s", "12k req/s")
_UNIT_AFTER = re.compile(rf"\s?(?P<u>{_UNIT})(?![A-Za-z])", re.IGNORECASE)
#: the units a number in thousands is a claim in: rates, requests, IOPS, bandwidths (not tokens: "128k
#: tokens" is most often a context's size, a setting)
_SCALED_FAMILIES = frozenset({"rate", "requests", "iops", "images", "bandwidth"})


#: words before a count of tokens in thousands that make it the tokens a run went through ("weighted
#: over 23.4M tokens", "(weighted, 126K tokens)", "processed 1.2M tokens"), no context's size
_COUNTED_BEFORE = re.compile(
    r"(?i)\b(?:over|across|weighted|processed|generated|decoded|served|consumed|total|after)\b[\s,:]*"
    r"(?:(?:~|≈|about|around|roughly)\s*)?$"
)
#: words after such a count that make it a size of context after all ("126K tokens of context")
_CONTEXT_AFTER = re.compile(r"(?i)\s*(?:of\s+)?(?:context|ctx|window|prompt|cache|kv)\b")


#: the signs of Chinese and Japanese ten-thousands and hundred-millions (万/萬 = 10^4, 亿/億 = 10^8)
_MYRIAD_SIGNS = frozenset("万萬亿億")
#: such a sign right after a number, then a unit ("207万トークン", "1.2万 tokens/s")
_MYRIAD = re.compile(rf"(?P<k>[万萬亿億])\s?(?P<u>{_UNIT})", re.IGNORECASE)
#: words of a context's size before or after a count in ten-thousands ("上下文 3万 token", "3万token的上下文")
_MYRIAD_CONTEXT = re.compile(
    r"\s*(?:的\s*|の\s*)?(?:上下文|コンテキスト|context|ctx|窗口|ウィンドウ|長さ|长度)", re.IGNORECASE
)


def scaled(digits: str, letter: str) -> tuple[str, int]:
    """A number written with a thousands or millions letter as a claims file states it: the value's
    digits and its decimals, negative where the last written digit stands for thousands ("10k" ->
    ("10000", -3): 9,500–10,500; "1.5k" -> ("1500", -2); "2.25M" -> ("2250000", -4); the decimals
    convention of ``precision.decimals_of``, a digit's place); Chinese and Japanese ten-thousands and
    hundred-millions likewise ("207万" -> ("2070000", -4), "1.2亿" -> ("120000000", -7))."""
    power = {"M": 6, "万": 4, "萬": 4, "亿": 8, "億": 8}.get(letter, 3)
    value = Decimal(digits).scaleb(power)
    frac = len(digits.split(".")[1]) if "." in digits else 0
    return f"{value:f}".split(".")[0] if value == value.to_integral() else f"{value:f}", frac - power


def _scaled_number(m: re.Match, digits: str, letter: str, unit: re.Match) -> Number:
    """The ``Number`` of ``_NUMBER``'s match ``m`` written with a scale's letter or sign and then a
    unit (``unit``'s group "u", ending the number): "10k tok/s", "207万トークン" (``scaled``)."""
    value, decimals = scaled(digits, letter)
    written = unit.group("u")
    return Number(
        value, _unit(written), _about(m), m.start(), unit.end(), unit_written=written, decimals=decimals
    )


#: a unit written per token ("45 ms/token", "1.2 秒/token", "3 ms per tok"): a time per token
PER_TOKEN_UNIT = re.compile(r"/\s*tok|per\s+tok", re.IGNORECASE)


def _about(m: re.Match) -> bool:
    """Whether a ``_NUMBER`` match is approximate: a word or sign before it ("about 700", "~700") or
    a sign after it, before its unit ("3100~ tokens/sec")."""
    return bool(m.group("about") or m.group("about_after"))


def _relative_spread_of(value: str, before: str) -> bool:
    """Whether "``value`` ± N%" with no unit before the sign is a spread in % of the value: a value no
    share or change is (above 100) written to two decimals or more, as a tool prints a rate
    ("23752.94 ± 10.7%"), not signed and not after "by" ("improved by 120 ± 15%", "+210 ± 12%": a
    change and its spread in points)."""
    digits = value.replace(",", "")
    return (
        not digits.startswith(("+", "-", "−"))
        and len(digits.partition(".")[2]) >= 2
        and float(digits) > 100
        and not re.search(r"(?i)\bby\s*$|[+\-−]\s*$", before)
    )


def relative_spread(value: str, percent: str) -> str:
    """A spread written as a share of its value ("23752.94 ± 10.7%") in the value's unit: ``percent``
    of ``value``, to five significant digits ("2541.6"), as a claims file's ``spread`` is stated
    (docs/claims.md: same unit as the value)."""
    return f"{float(value) * float(percent) / 100:.5g}"


#: a word a CPU's name holds (``draftnames.CPU``), searched before its longer pattern
_CPU_WORD = re.compile(r"(?i)ryzen|core|xeon|epyc|ultra|\b1[2-8]5[HU]\b")


def numbers(text: str) -> list[Number]:
    """Every number of ``text`` (module doc), in order.  A number glued to letters (``35B``,
    ``Q4_K_M``, ``RTX 3080``'s model number after a word is kept, unit None) or inside a word is
    kept with no unit; a date (``2026-10-28``) and a version (``3.8``) have no unit either."""
    out: list[Number] = []
    pos = 0
    names = _Names(text)
    cpus: list[tuple[int, int]] | None = None  # the spans of the CPUs named (``draftnames.CPU``)
    led_by_label = False  # the number before was read by its phase's label before it ("PP 1713")
    label_freed = False  # the number before left the label after it to the next ("3090 PP 1713 TG 40")
    while True:
        m = _NUMBER.search(text, pos)
        if not m:
            break
        pos = m.end()
        timed = _COUNT_IN_TIME.match(text, m.start("a"))
        if timed is not None and not _about(m):
            # "pp 6.7K/5.7s", "out 335/4.5s": a token count and the seconds it took; the time is a
            # stated number, the count the run's size (no claim)
            out.append(
                Number(
                    number_text(timed.group("t")),
                    _unit(timed.group("u")),
                    False,
                    timed.start("t"),
                    timed.end(),
                    unit_written=timed.group("u"),
                )
            )
            pos = timed.end()
            continue
        date = _DATE.match(text, m.start("a"))
        if date:  # a date or a version (2026-10-28, 1.2.3): no stated measurement
            pos = date.end()
            continue
        progress = PROGRESS.match(text, m.start("a"))
        if progress:  # tqdm's "100%|████| 1/1 [00:01<00:00,": how far a run got, and its clock
            pos = progress.end()
            continue
        if cpus is None:  # (once per text, and only where one may be named)
            cpus = [(c.start(), c.end()) for c in CPU.finditer(text)] if _CPU_WORD.search(text) else []
        inside = next((b for a, b in cpus if a <= m.start("a") < b), None)
        glued = m.group("ua") or m.group("unit") or ""
        # (a capital X glued to the model is read as a product's name further on: "Ryzen-7950X")
        if inside is not None and (_unit(glued) == "h" or glued == "x") and m.end() <= inside:
            # "ryzen 5 4600h", "Ryzen 7 7840HS", "epyc 7773x": the CPU's model number, its "h" no
            # hours, its "x" no multiple
            out.append(Number(number_text(m.group("a")), None, False, m.start("a"), m.end("a")))
            pos = inside
            continue
        name_start = names.start(m.start("a"))
        name_end = names.end(name_start)
        if name_end is not None and m.group("ua") is None and m.group("unit") is None:
            glued = _QUANT_GLUED.match(text, name_start)
            if glued is not None and glued.end() == name_end and m.start("a") < glued.start("n"):
                # "Q4_K_M42 t/s" (a table copied without its cell borders): the quantisation's
                # name, then a number of its own
                pos = glued.start("n")
                continue
            token = text[name_start:name_end]
            thousands = _THOUSANDS.fullmatch(token)
            after_unit = _UNIT_AFTER.match(text, name_end) if thousands is not None else None
            unit = _unit(after_unit.group("u")) if after_unit is not None else None
            counted = (
                thousands is not None
                and unit == "tokens"
                and _COUNTED_BEFORE.search(text, max(0, m.start("a") - 30), m.start("a")) is not None
                and not _CONTEXT_AFTER.match(text, after_unit.end())  # type: ignore[union-attr]
            )
            if thousands is not None and (family(unit) in _SCALED_FAMILIES or counted):
                # "10k tok/s", "12k req/s", "850k IOPS": thousands (millions) of a unit, with the
                # precision written (``scaled``: "1.5k" stands for 1450–1550)
                out.append(_scaled_number(m, thousands.group("n"), thousands.group("k"), after_unit))  # type: ignore[arg-type]
                pos = after_unit.end()  # type: ignore[union-attr]
                continue
            if thousands is not None and after_unit is not None:
                # "128k tokens": a count in thousands of a unit no claim takes so (a context's size,
                # read as a setting): its digits, no unit, listed as not placed rather than dropped
                out.append(Number(number_text(m.group("a")), None, False, m.start("a"), m.end("a")))
            pos = max(name_end, m.start("a") + 1)
            continue  # a name (H200, Q4_K_M, 35B-A3B, pp512, V4.1): not a stated number
        # a window before the number, and the character before or after it: slicing or searching the
        # whole rest of the line for each number made drafting quadratic in the line's length
        before = text[max(0, m.start("a") - _WINDOW) : m.start("a")]
        glued_before = before[-1:] in _GLUE and before != "" and not _about(m)
        after = text[m.end("a") : m.end("a") + 1]
        if (
            re.match(r"[A-Za-z]", before[-1:])
            and not _about(m)
            and m.group("a")[0].isdigit()
            # (a rate's unit glued to the next number, "42 t/s68 t/s": a table copied without its
            # cell borders, the unit no name's part)
            and not re.search(r"(?<![A-Za-z])(?:t|tok|tokens)/s$", before, re.IGNORECASE)
            and not _glued_to_quant(text, name_start, m.start("a"))
        ):
            # the digits of a name followed by a unit ("BF16 TFLOPS", "FP8 GB"): not a stated number
            pos = max(name_end or 0, m.start("a") + 1)
            continue
        if re.match(r"[A-Za-z_]", after) and m.group("ua") is None and m.group("unit") is None:
            out.append(Number(number_text(m.group("a")), None, False, m.start("a"), m.end("a")))
            pos = m.end("a")
            continue
        myriad = _MYRIAD.match(text, m.end("a")) if after in _MYRIAD_SIGNS else None
        if myriad is not None and m.group("b") is None and m.group("a")[0].isdigit():
            unit = _unit(myriad.group("u"))
            context = _MYRIAD_CONTEXT.search(before[-12:]) or _MYRIAD_CONTEXT.match(text, myriad.end())
            if family(unit) in _SCALED_FAMILIES or family(unit) == "tokens" and not context:
                # "207万トークン" (Japanese and Chinese count in ten-thousands: 2,070,000 tokens), "1.2万
                # tokens/s"; "3万token的上下文" is a context's size, a setting: listed below
                out.append(_scaled_number(m, number_text(m.group("a")), myriad.group("k"), myriad))
                pos = myriad.end()
                continue
        ua, ub = _unit(m.group("ua")), _unit(m.group("unit"))
        glued_unit = m.group("ua") if m.group("ua") is not None else m.group("unit")
        lead = _PHASE_BEFORE.search(before)
        if (
            lead is not None
            and re.search(r"\d\s*$", before[: lead.start()])
            and not led_by_label
            and not label_freed
        ):
            lead = None  # "1200 PP 45 TG": the label after a number is its unit
        label_freed = False
        if (
            lead is not None
            and lead.group("w").upper() == "PP"
            and re.fullmatch(r"\d{1,2}", m.group("a"))
            and int(m.group("a")) <= 16
            and m.group("ua") is None
        ):
            lead = None  # "TP 4, PP 2": pipeline parallelism's degree, no prompt's rate
        if (
            lead is not None
            and m.group("b") is None
            and m.group("pm") is None
            and m.group("unit") is None
            and (m.group("ua") is None or m.group("ua") in CAPITALS_ONLY)
            and not _test_sizes(m.group("a"), text[m.end("a") : m.end("a") + 20])
        ):
            # "PP 1713 TG 40" (KoboldCpp's and llama.cpp's words for the two phases, each before its
            # number): a rate in tokens a second by its label, the label after it the next number's
            # (not a test's sizes: "PP 512 TG 128" names llama-bench's pp512 and tg128)
            word = lead.group("w").upper()
            out.append(
                Number(number_text(m.group("a")), "t/s", False, m.start(), m.end("a"), unit_written=word)
            )
            pos = m.end("a")
            led_by_label = True
            continue
        led_by_label = False
        leads = (
            ua is not None
            and m.group("ua") in CAPITALS_ONLY
            and m.group("unit") is None
            and m.group("b") is None
            and _LABELS_LEAD.match(text, m.end("ua")) is not None
        )
        if leads or (
            ua is not None
            and m.group("ua") in CAPITALS_ONLY
            and m.group("unit") is None
            and m.group("b") is None
            and _LABEL_NEXT.match(text, m.end("ua"))
        ):
            # "TP Size: 8" over "PP Size: 1" read as one text: "8 PP" is no rate, the PP the next
            # label's (a parallelism's size); "on RTX 3090" over "PP 1713 TG 40": the labels lead their
            # numbers, so "3090 PP" is no rate and the PP is the next number's (``leads``)
            out.append(Number(number_text(m.group("a")), None, False, m.start("a"), m.end("a")))
            pos = m.end("a")
            label_freed = leads
            continue
        if (
            glued_unit in ("X", "S", "H")
            and re.fullmatch(r"\d{3,}", m.group("a"))
            and text[m.end("a") : m.end("a") + 1] == glued_unit
        ):
            pos = m.end()  # "3950X", "9950X", "8060S": a product's name, not a multiple or seconds
            continue
        if (
            glued_unit == "s"
            and re.fullmatch(r"\d{4}", m.group("a"))
            and text[m.end("a") : m.end("a") + 1] == "s"
            and _CARDS_BEFORE.search(before)
        ):
            pos = m.end()  # "two 3090s", "my 4090s", "4x 3090s": cards, not seconds
            continue
        if (ua or ub) == "x" and _HARDWARE.match(text, m.end()):  # "4x RTX 3090": a count of devices
            pos = m.end()
            continue
        if (
            ua
            and ub
            and m.group("b") is None
            and m.group("pm") is None
            # ("1200 TG tok/s": a phase's label, then the unit)
            and (family(ua) != family(ub) or m.group("ua") not in CAPITALS_ONLY)
        ):
            # "12GB × 2 cards", "5 ms x", "38.16 seconds" over "Min Response Time" read as one text: the
            # second unit is no unit of this number (no range, no spread between them); read it alone
            about = _about(m)
            out.append(
                Number(
                    number_text(m.group("a")), ua, about, m.start(), m.end("ua"), unit_written=m.group("ua")
                )
            )
            pos = m.end("ua")
            continue
        if not (ua or ub) and m.group("pm") is None:
            last = "b" if m.group("b") is not None else "a"
            q = (
                _QUALIFIED_RATE.match(text, m.end(last))
                or _ACCEPTED_PER.match(text, m.end(last))
                or _LENGTH_AFTER.match(text, m.end(last))
                or (_QUALIFIED_COUNT.match(text, m.end(last)) if last == "a" else None)
            )
            ordered = last == "a" or _ordered_pair(m.group("a"), m.group("b"))
            if q is not None and ordered and (last == "a" or q.re in (_ACCEPTED_PER, _LENGTH_AFTER)):
                # "41.7 eff tok/s", "35 gen t/s": a rate with a word naming which; "~1.2–1.3
                # accepted tokens per cycle": tokens accepted per verify step
                u = q.group("u")
                a_text = number_text(m.group("a"))
                b_text = number_text(m.group("b")) if last == "b" else None
                out.append(
                    Number(
                        a_text if b_text is None else f"{a_text}–{b_text}",
                        _unit(u) if q.re is _QUALIFIED_RATE else "tokens",
                        _about(m),
                        m.start(),
                        m.end(last) if q.re is _LENGTH_AFTER else q.end(),  # its words after it name it
                        a_text if b_text is not None else None,
                        b_text,
                        unit_written=u,
                    )
                )
                pos = q.end()
                continue
        unit = ub or ua
        written = m.group("unit") or m.group("ua")
        low = high = spread = None
        if m.group("b") is not None:
            if ua and ub and ua != ub or (m.group("ua") and not m.group("unit") and ua != "%"):
                # "6 GB to 8 tok/s", "12 tokens - 3": no range; read the first number alone
                out.append(Number(number_text(m.group("a")), ua, _about(m), m.start(), m.end("ua")))
                pos = m.end("ua")
                continue
            low, high = number_text(m.group("a")), number_text(m.group("b"))
            try:
                worded = bool(
                    m.group("sep").isalpha()
                    and _FROM.search(before.rstrip()[-5:])
                    and not _AMOUNT_OF.search(before.rstrip()[-20:])
                )
                # "55% — 333 drafts accepted / 531 generated", "72% - 181/250 accepted": the second
                # number opens counts, no range's end
                # (within a window: a match per number over the rest of a long run of glued
                # numbers, "1-1-1-…", was quadratic)
                counts_after = _COUNTS_AFTER.match(text[m.end("b") : m.end("b") + 40]) is not None
                # "857.0 to 853.0 tok/s (-0.5%)", "47.7 to 72.2 long gen (+51.4%)": a pair in words
                # that falls, or that its own change follows, is a change from A to B, no range
                worded = worded or (
                    m.group("sep").isalpha()
                    and (float(low) > float(high) or _change_follows(text, m.end(), low, high))
                )
                if float(low) > float(high) or low.startswith("-") or glued_before or worded or counts_after:
                    raise ValueError
            except ValueError:  # a date 2026-10-28, a descending pair, "from 310 to 1,420 t/s": no range
                # the first number alone; after "from", with the unit of the pair ("from 310 to 1420 t/s")
                first = ua or (ub if worded else None)
                end = m.end("ua") if m.group("ua") else m.end("a")
                about = _about(m) and first is not None
                text_a = number_text(m.group("a"))
                out.append(Number(text_a, first, about, m.start(), end, unit_written=written))
                pos = end
                continue
        if m.group("pm") is not None:
            spread = number_text(m.group("pm"))
            if ub == "%" and (
                (ua is not None and ua != "%")
                or ua is None
                and _relative_spread_of(m.group("a"), text[max(0, m.start() - 12) : m.start()])
            ):
                # "180.28 ms ± 5%", "23752.94 ± 10.7%" (a rate no share can be): a spread relative
                # to the value, in the value's unit (``relative_spread``)
                spread = relative_spread(number_text(m.group("a")), spread)
                unit, written = ua, m.group("ua")
        if glued_before and unit is None:
            out.append(Number(number_text(m.group("a")), None, False, m.start("a"), m.end("a")))
            pos = m.end("a")
            continue
        of = of_unit = None
        end = m.end()
        if m.group("slash") is not None and not _slash_count(text, m):
            end = m.start("of")  # "83.6/65.4", "10/28": no count; the second number is read on its own
        elif m.group("of") is not None:
            um = _unit(m.group("um"))
            if unit is None or um == unit:
                of, of_unit = number_text(m.group("m")), um
            else:
                end = m.start("of")
            # the part no larger than the whole ("24GB 중 30GB" is no part of 24 GB)
            ordered = of is not None and _as_float(of) <= _as_float(number_text(m.group("a")))
            if of is not None and re.search(r"중|のうち", m.group("of")) and low is None and ordered:
                # "24GB 중 21.3GB 사용", "24GBのうち21.3GB": the whole first, then the part (the value)
                out.append(
                    Number(
                        of,
                        of_unit or unit,
                        _about(m),
                        m.start(),
                        end,
                        None,
                        None,
                        spread,
                        number_text(m.group("a")),
                        unit,
                        written,
                    )
                )
                pos = end
                continue
        out.append(
            Number(
                number_text(m.group("a")) if low is None else f"{low}–{high}",
                unit,
                _about(m),
                m.start(),
                end,
                low,
                high,
                spread,
                of,
                of_unit,
                written,
            )
        )
        pos = end
    out = _labelled_counts(text, _minutes_seconds(text, out))
    out = [_dot_thousands(_per_second(text, n)) for n in out]
    out = _leading_times(text, out)
    out = _word_multiples(text, out)
    out = _carried(text, out)
    out = _listed(text, _between(text, out))
    # "13 min read", "1 분 소요", "5分で読めます": a page's reading time, no measurement
    out = [replace(n, unit=None) if n.unit == "min" and _READ_TIME.match(text, n.end) else n for n in out]
    # "install/test a model in 5 minutes", "invest 2-3h of setup": the effort of setting up, no run's time
    out = [replace(n, unit=None) if _setup_time(text, n) else n for n in out]
    # "doesn't fit the 16 GB", "a 12 GB card": a card's capacity, a specification, no measurement
    out = [replace(n, unit=None) if _card_capacity(text, n) else n for n in out]
    # "I also set `timeout: 30s`": a setting's value in code after a verb of setting, no measurement
    out = [
        replace(n, unit=None) if _SET_IN_CODE.search(text, max(0, n.start - 80), n.start) else n for n in out
    ]
    # "ISL/OSL = 512/128": a serving benchmark's lengths, settings (``draftwords``), no results
    pairs = [(m.start(1), m.end()) for m in LENGTH_PAIR.finditer(text)]
    if pairs:
        out = [replace(n, unit=None) if any(a <= n.start < b for a, b in pairs) else n for n in out]
    # "2× L40S", "4x H100": a count of cards (``draftnames``' hardware names), no multiple
    out = [replace(n, unit=None) if n.unit == "x" and _CARDS_AFTER.match(text, n.end) else n for n in out]
    out = _about_both_ends(text, out)
    out = _per_item_shares(text, out)
    out = _spreads_in_parens(text, out)
    # "6000左右的token", "3000程度のトークン": the "about" word between the number and its unit
    out = [_about_then_unit(text, n) for n in out]
    # "3秒左右", "5秒程度", "150밀리초 정도": an "about" word after the number and its unit
    return [
        replace(n, about=True) if n.unit is not None and not n.about and ABOUT_AFTER.match(text, n.end) else n
        for n in out
    ]


#: a standard deviation's word opening parentheses after a value ("45.2 tok/s (std 0.3 tok/s)",
#: "(sd 0.4)", "(σ = 1.2 ms)")
_SPREAD_OPEN = re.compile(r"\s*[(（]\s*(?:std|sd|stdev|stddev|σ|std\.?\s*dev\.?)\s*[:=]?\s*$", re.I)


def _spreads_in_parens(text: str, found: list[Number]) -> list[Number]:
    """``found`` with a standard deviation in parentheses right after a value, in its unit or none
    ("45.2 tok/s (std 0.3 tok/s) over 5 runs"), as that value's ``spread`` (docs/claims.md: the
    run-to-run spread stated beside a value), no number of its own."""
    out: list[Number] = []
    for n in found:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.spread is None
            and prev.range is None
            and n.range is None
            and n.unit in (None, prev.unit)
            and _SPREAD_OPEN.fullmatch(text[prev.end : n.start])
            and re.match(r"\s*[)）]", text[n.end : n.end + 3])
        ):
            out[-1] = replace(prev, spread=n.text)
            continue
        out.append(n)
    return out


#: a unitless number's "per <item>" after it, in parentheses after a number with a unit: "46.961 s
#: (2.935 per prompt)"
_PER_ITEM = re.compile(r"\s*(?:per|each|/)\s*(?:prompt|request|query|sample|image|item)\b", re.I)


def _per_item_shares(text: str, found: list[Number]) -> list[Number]:
    """``found`` with the unit of a number with one given to the unitless number in parentheses
    right after it that "per prompt" (``_PER_ITEM``) follows: "46.961 s (2.935 per prompt)" is
    2.935 s a prompt, the total divided among the prompts."""
    out = list(found)
    for k in range(1, len(out)):
        prev, n = out[k - 1], out[k]
        if (
            n.unit is None
            and prev.unit is not None
            and n.range is None
            and "." in n.text  # (a share written with decimals: "(4 per batch)" counts prompts)
            and re.fullmatch(r"\s*[(（]\s*", text[prev.end : n.start])
            and _PER_ITEM.match(text, n.end)
        ):
            out[k] = replace(n, unit=prev.unit, unit_written=prev.unit_written)
    return out


#: a verb of setting, then inline code opening with a key and ":" or "=" right before a number
#: ("set `timeout: 30s`", "configured `max_wait=5s`")
_SET_IN_CODE = re.compile(
    r"(?i)\b(?:set|sets|setting|configured?|configuring|changed?|changing)\s+(?:the\s+|a\s+)?`"
    r"\s*[\w.-]+\s*[:=]\s*$"
)
#: an "about" word of Chinese or Japanese between a number and its unit, 的/の joining them ("6000左右的
#: token", "3000程度のトークン")
_ABOUT_THEN_UNIT = re.compile(
    rf"\s*(?:左右|上下|前後|程度|ほど|くらい|ぐらい)(?:的|の)?\s*(?P<u>{_UNIT})", re.IGNORECASE
)


def _about_then_unit(text: str, n: Number) -> Number:
    """``n`` (no unit read) with the unit after its "about" word (``_ABOUT_THEN_UNIT``), approximate;
    ``n`` as it is otherwise."""
    if n.unit is not None or n.range is not None:
        return n
    m = _ABOUT_THEN_UNIT.match(text, n.end)
    unit = _unit(m.group("u")) if m else None
    if m is None or unit is None:
        return n
    if unit == "tokens" and re.search(r"每秒|毎秒", text[max(0, n.start - 8) : n.start]):
        unit = "tok/s"  # "每秒 30左右的token": tokens a second, no count
    return replace(n, unit=unit, about=True, end=m.end(), unit_written=m.group("u"))


#: between the two ends of a range each end of which has its own remark ("About 6% (short context) to
#: 13% (context of 65k tokens)"): the remark, then "to"
_REMARKED_TO = re.compile(r"\s*[(（][^()（）]{1,60}[)）]\s*(?:to|-|–)\s*")


def _about_both_ends(text: str, found: list[Number]) -> list[Number]:
    """The second end of a range written as two numbers with their remarks, "About 6% (short
    context) to 13% (long context)": two claims (each end's own conditions), both as approximate as
    the "about" before the first says."""
    out = list(found)
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if (
            a.about
            and not b.about
            and a.unit is not None
            and a.unit == b.unit
            and _REMARKED_TO.fullmatch(text, a.end, b.start)
        ):
            out[i] = replace(b, about=True)
    return out


#: "per second" written before a count of tokens ("每秒 10.2 個詞元", "每秒钟约 30 个token", "초당 25 토큰",
#: "1秒あたり 40 トークン"): the count is a rate
_PER_SECOND_BEFORE = re.compile(
    r"(?:每秒钟?|每一秒|1秒あたり|一秒あたり|毎秒|초당)\s*(?:大约|大概|约|約|达到?|達到?|可达|可達|能|可以|生成|输出|輸出)*\s*$"
)


#: a unit written in the words of a language that groups thousands with a dot ("tokens por segundo",
#: "Tokens pro Sekunde", "токенов в секунду")
_DOT_GROUPING_UNIT = re.compile(r"\s(?:por|pro|par|al|в|за|на)\s|токен|секунд", re.IGNORECASE)


#: whether the post being drafted writes a dot between groups of thousands (``dot_grouping``; set for
#: one post by ``draft.draft_text``): "42.582 ms" beside "216 ms" in a German post is 42582 ms
DOT_GROUPED: ContextVar[bool] = ContextVar("DOT_GROUPED", default=False)
#: the commonest short words of the languages that group thousands with a dot (German, Portuguese,
#: Spanish, Italian, Dutch), and of English (a post in English quoting a German word is English)
_DOT_LANGUAGE_WORD = re.compile(
    r"(?i)(?<![\w-])(?:und|der|die|das|nach|mit|wurde|wird|bei|ist|nicht|eine?|auf|für|im|vom|zur|"
    r"não|uma|com|para|que|são|está|los|las|una|con|más|che|della|sono|het|een|voor|niet)(?![\w-])"
)
_ENGLISH_WORD = re.compile(r"(?i)(?<![\w-])(?:the|and|of|is|with|for|on|at|was|to|in|it)(?![\w-])")
#: a number written with a dot and three digits after it ("42.582"), with any other count of digits
#: after a dot ("3.5 s", "12.25") or a zero before it ("0.216 s": a decimal); neither glued to a word
#: ("Qwen3.5", "v1.234")
_DOT_THREE = re.compile(r"(?<![\w.,])[1-9]\d{0,2}(?:\.\d{3})+(?![\w.,]|,\d)")
_DOT_OTHER = re.compile(r"(?<![\w.,])(?:\d+\.(?:\d{1,2}|\d{4,})|0\.\d+)(?![\w.]|,\d)")


def dot_grouping(text: str) -> bool:
    """Whether a post's ``text`` writes a dot as its thousands separator (``DOT_GROUPED``): its prose
    in a language grouping thousands so (``_DOT_LANGUAGE_WORD``: five of its words at least, more
    than English's), at least three numbers written "N.NNN" (``_DOT_THREE``) and none with a dot and
    another count of digits (``_DOT_OTHER``): "42.582 ms", "104.820 ms" beside "216 ms" (h549: E2E
    105.036 = 104.820 + 216 ms only as thousands).  A post of decimals ("0.582 s", "42.58 ms") is
    none."""
    words = len(_DOT_LANGUAGE_WORD.findall(text))
    if words < 5 or words <= len(_ENGLISH_WORD.findall(text)):
        return False
    return len(_DOT_THREE.findall(text)) >= 3 and _DOT_OTHER.search(text) is None


def _dot_thousands(n: Number) -> Number:
    """``n`` with its dots read as thousands separators where its unit is written in the words of a
    language grouping thousands with a dot (``_DOT_GROUPING_UNIT``), or the post groups them so
    (``DOT_GROUPED``), and every group after the first has three digits: "5.800 tokens por segundo"
    is 5800 tok/s; "5.8 tokens por segundo" stays."""
    if DOT_GROUPED.get() and n.range is None and re.fullmatch(r"[1-9]\d{0,2}(?:\.\d{3})+", n.text):
        return replace(n, text=n.text.replace(".", ""))  # a post grouping all its thousands so
    if n.range is not None or not n.unit_written or not _DOT_GROUPING_UNIT.search(n.unit_written):
        return n
    if not re.fullmatch(r"[1-9]\d{0,2}(?:\.\d{3})+", n.text):
        return n
    return replace(n, text=n.text.replace(".", ""))


def _per_second(text: str, n: Number) -> Number:
    """``n`` in tok/s where it counts tokens and "per second" stands right before it
    (``_PER_SECOND_BEFORE``), else ``n``."""
    if n.unit != "tokens" or n.range is None and n.of is not None:
        return n
    if not _PER_SECOND_BEFORE.search(text[max(0, n.start - 16) : n.start]):
        return n
    return replace(n, unit="tok/s")


#: a multiplication sign written before its number, where no number or word stands before it
#: ("98 tok/s cumulative · ×3.3", "vLLM 8s P95 · ×6 faster", "(×2)"): not "12GB × 2", "2 × 3090"
_LEADING_TIMES = re.compile(r"(?:^|[·•(\[|,;:—–])\s*×\s?$")


def _leading_times(text: str, out: list[Number]) -> list[Number]:
    """A number with no unit right after a multiplication sign (``_LEADING_TIMES``) is a multiple."""
    return [
        replace(n, unit="x", start=text.rindex("×", 0, n.start), unit_written="×")
        if n.unit is None and n.range is None and _LEADING_TIMES.search(text, max(0, n.start - 8), n.start)
        else n
        for n in out
    ]


#: a multiple written in words where it relates two quantities ("twice as fast", "half the speed",
#: "roughly one third of speed", "load time doubled", "divided by 3", "翻了一倍", "절반", "вдвое"):
#: the multiple as a number claims write (group ``n``: a number written in the phrase)
#: a speed's or time's word earlier in the clause, at most 40 characters before
_MEASURED_BEFORE = (
    r"\b(?:speed|throughput|rate|performance|time|latency|ttft|tok/s|t/s|tps)\b[^.,;:!?]{0,40}?"
)
_WORD_MULTIPLES: list[tuple[re.Pattern[str], str]] = [
    # "twice as fast", "twice the throughput", "twice as long" (a time); not "twice as slow" (a
    # slowdown the words say the other way round) nor "twice as much memory" (no speed)
    (
        re.compile(
            r"\btwice\s+(?:as\s+(?:fast|quick|high|long)|the\s+(?:speed|throughput|rate|performance|time))\b",
            re.I,
        ),
        "2",
    ),
    # "doubled"/"tripled" of a speed or time the clause names before it ("the model loading time has
    # nearly doubled", "throughput doubled"); "I doubled the batch size" relates no measurement
    (re.compile(_MEASURED_BEFORE + r"\b(?P<w>doubl(?:ed|es|ing))\b", re.I), "2"),
    (re.compile(_MEASURED_BEFORE + r"\b(?P<w>tripl(?:ed|es|ing))\b", re.I), "3"),
    (
        re.compile(
            r"\b(?:half|one half)\s+(?:as\s+(?:fast|quick|high)"
            r"|(?:of\s+)?the\s+(?:speed|throughput|rate|performance|time))\b|\bhalved\b",
            re.I,
        ),
        "0.5",
    ),
    (
        re.compile(
            r"\b(?:one|a)[ -]third\s+(?:of\s+)?(?:the\s+)?(?:speed|throughput|rate|performance)\b", re.I
        ),
        "0.333",
    ),
    (
        re.compile(
            r"\b(?:one|a)[ -]quarter\s+(?:of\s+)?(?:the\s+)?(?:speed|throughput|rate|performance)\b", re.I
        ),
        "0.25",
    ),
    # "divided by 3!" of a speed: no noun after it ("divided by 3 GPUs" splits weights)
    (re.compile(r"\bdivided\s+by\s+(?P<n>[2-9])\b(?!\s*[A-Za-z])", re.I), ""),
    # a speed doubled in CJK: the speed's word before it ("推理速度还翻了一倍"); "显存占用翻了一倍" is memory
    (
        re.compile(
            r"(?:速度|性能|吞吐|速さ)[^。，,.！!？?]{0,8}?(?P<w>翻了?一倍|翻倍|提升了?一倍|快了?一倍|倍増)"
        ),
        "2",
    ),
    # "half" in CJK only beside a speed's or time's word ("速度降了一半", "半分の速度", "속도 절반"), not
    # "一半以上的层"
    (
        re.compile(
            r"(?:速度|性能|吞吐|时间|時間|속도|성능|시간)[^。，,.！!？?]{0,16}?(?P<w>减半|一半|절반|半分|半減)"
            r"|(?P<v>减半|一半|절반|半分|半減)[^。，,.！!？?]{0,3}?(?:速度|性能|吞吐|时间|時間|속도|성능|시간)"
        ),
        "0.5",
    ),
    # "roughly six times slower", "three times faster", "five times as fast" (h561): a multiple in
    # English words before a comparative (the number's word alone: "three times" of a count is none)
    *(
        (
            re.compile(
                rf"\b(?P<w>{word}[\s-]+times)\s+(?:faster|slower|quicker|higher|lower|better|worse"
                r"|as\s+(?:fast|slow|quick|high|long))\b",
                re.I,
            ),
            str(k),
        )
        for k, word in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 2)
    ),
    # Russian "вдвое/втрое быстрее" (two, three times faster or slower): the comparative after it
    (re.compile(r"(?<![\w-])(?P<w>вдвое|в два раза)\s+(?:быстр|медлен|выше|ниже|больше|меньше)", re.I), "2"),
    (re.compile(r"(?<![\w-])(?P<w>втрое|в три раза)\s+(?:быстр|медлен|выше|ниже|больше|меньше)", re.I), "3"),
]
_ABOUT_BEFORE = re.compile(rf"(?:{ABOUT})\s*$", re.IGNORECASE)


def _word_multiples(text: str, out: list[Number]) -> list[Number]:
    """``out`` with the multiples ``text`` writes in words (``_WORD_MULTIPLES``) among its numbers,
    in order: "roughly one third of speed" -> 0.333 x (about), "divided by 3" -> 3 x (its 3, read
    with no unit, replaced); one that overlaps a number with a unit ("2x") or another multiple is
    none.  ``out`` is in text order: the numbers a match overlaps are found by bisection."""
    starts = [n.start for n in out]
    found: list[Number] = []
    dropped: set[int] = set()  # indexes in ``out`` of the unitless numbers a multiple replaces
    for pat, value in _WORD_MULTIPLES:
        for m in pat.finditer(text):
            # the words of the multiple alone where the pattern reads a quantity's word beside them
            word = next((g for g in ("w", "v") if g in pat.groupindex and m.group(g) is not None), 0)
            start, end = m.start(word), m.end(word)
            if any(n.start < end and start < n.end for n in found):
                continue
            k = bisect.bisect_left(starts, start)
            lo = k - 1 if k and out[k - 1].end > start else k
            hit = [i for i in range(lo, bisect.bisect_left(starts, end)) if out[i].end > start]
            if any(out[i].unit is not None for i in hit):
                continue  # "2x faster": read as written
            dropped.update(hit)
            about = bool(_ABOUT_BEFORE.search(text[max(0, start - 16) : start]))
            found.append(Number(value or m.group("n"), "x", about, start, end, unit_written=m.group(word)))
    if not found:
        return out
    kept = [n for i, n in enumerate(out) if i not in dropped]
    return sorted(kept + found, key=lambda n: n.start)


#: the words naming a time to the first token, in a sentence or a label: "TTFT", "time to first
#: token", "first token latency" as a whole, LM Studio's "FTT" (first token time), 首字/初トークン/첫 토큰,
#: 初始延迟 (initial delay); shared with ``toollines.label_metric``
TTFT_WORDS = (
    # (IPEX-LLM's benchmark csv: "1st token average latency(ms)")
    # (not the time after it: "2+ avg latency excluding first token(ms)")
    r"ttft|\bftt\b|(?<!excluding )(?<!except )(?<!after )(?<!after the )(?<!without )(?<!w/o )"
    r"(?:first token|首字|首个?\s*token|最初のトークン|初トークン|첫 토큰)"
    r"(?:\s*(?:latency|delay|time|延迟|遅延))?|time to first|初始延迟"
    # a statistic between ("1st token average latency(ms)", IPEX-LLM's benchmark csv)
    r"|(?<!excluding )(?<!except )(?<!after )(?<!without )\b(?:first|1st)\s+token\s+"
    r"(?:(?:average|avg|mean|median)\s+)?(?:latency|delay|time)"
)

#: the words naming a mean acceptance length (the tokens accepted per verify step), in a sentence
#: or a label: "accept length", "acc len", "Accpt Len", "avg. acc. len", "mean accepted tokens",
#: "τ"/"tau" (EAGLE's and Spec-Bench's papers), the tokens a verify step emits ("emitted per
#: verify", "tokens per verification", "accepted per step", "tokens per target forward pass": τ
#: as DESIGN.md counts it, the verifier's own token in); shared with ``toollines`` and
#: ``draftsentences`` (not "512 tokens per step" nor "2048 tokens per forward pass" alone: a
#: prefill's batch, no verify step named)
ACCEPT_LENGTH_WORDS = (
    r"\bacc(?:e?pt)?\w*\.?\s*(?:length|len)\b|\bmean\s+accepted\s+(?:length|tokens)\b|τ|\btau\b|"
    r"\b(?:(?:emitted|accepted|committed|tokens?)\s+(?:tokens?\s+)?per\s+verif(?:y|ication)(?:\s+step)?|"
    r"(?:emitted|accepted|committed)\s+(?:tokens?\s+)?per\s+(?:step|forward(?:\s+pass)?|iteration)|"
    r"tokens?\s+per\s+target\s+forward\s+pass)\b"
)
#: a score on a benchmark of tasks: the word, or a benchmark's name (MMLU, MMLU-Pro, GSM8K, HumanEval,
#: pass@k, GPQA, HellaSwag, ARC, MATH-500, AIME, WinoGrande, C-Eval), in the drafter's languages
ACCURACY_WORDS = (
    r"\baccura(?:cy|te)\b|\bmmlu|\bgsm8k\b|\bhumaneval|\bpass@\d|\bgpqa\b|\bhellaswag\b|\barc[-_ ]?[ce]\b|"
    r"\bmath[-_ ]?500\b|\baime\b|\bwinogrande\b|\bc-?eval\b|准确率|正确率|정확도|точност"
)
#: words near a number -> the metric it is (first match wins, in this order)
#: a model's load in the drafter's languages ("load time", 로드/로딩 시간, ロード, 加载, загрузка)
LOAD_WORDS = r"\bload(?:ing|ed|s)?(?![a-z])|로딩|로드|ロード|加载|загрузк"
_METRIC_WORDS: list[tuple[str, str, str]] = [
    # the highest rate a run reached ("peak TPS", "Tokens/Sec (Peak)", "пик TPS", "峰值"), as vLLM's
    # "Peak output token throughput": peak_throughput (one stream's peak is its decode rate:
    # ``draftmetric.settle_rates``)
    ("rate", r"\bpeak\b|\bпик\b|峰值|ピーク", "peak_throughput"),
    (
        "rate",
        r"\bpp\s?\d+|prefill|prompt (?:eval|processing|speed|throughput)|\bpp\b|\bencoded\b|"
        # "generation at 45 tok/s and prompt at 1200 tok/s": the prompt's rate
        r"\bprompt\s+(?:at|was|is|reached|hit|ran)\b|"
        # KoboldCpp's "ProcessingSpeed: 812.3T/s" (its prompt processing)
        r"\bprocessing\s?speed|"
        # ("ingestion 76.27 tok/s": the prompt's tokens taken in)
        r"\binput\s*(?::|speed|throughput|rate|tok)|\bingestion\b|프리필|프롬프트 처리|プロンプト処理",
        "prefill_tps",
    ),
    # a "Prompt: N tokens" label counting the prompt before its rate (mlx-lm's "Prompt: 14 tokens,
    # 250.5 tokens-per-sec" beside "Generation: 256 tokens, ..."): the prompt's rate
    # (or "Prompt tokens: 7530 in 6.51s (1156.15 tokens/s)": the count, its time, then its rate)
    (
        "rate",
        r"\bprompt\s*:\s*[\d,]+\s*tok(?:en)?s?\b|\bprompt\s+tok(?:en)?s?\s*[:=]\s*[\d,]+\s+in\b",
        "prefill_tps",
    ),
    # a "Prompt:" label right before its rate ("- Prompt (2048 tokens): 615.28 tok/s", mlx_lm.benchmark's
    # results as a list): the prompt's rate
    # (not a remark after another rate: "44.3 tok/s (prompt: 17)" counts the prompt's tokens)
    (
        "rate",
        # (the label alone: "Per prompt: 40.9 / 41.1" names each prompt's decode rate)
        r"^(?:[^\w(（]|\d)*prompt\s*(?:\(\s*[\d,.]+\s*[kK]?\s*tok(?:en)?s?\s*\))?\s*[:：]\s*$",
        "prefill_tps",
    ),
    (
        "rate",
        # a status line's "out 335/4.5s 74t/s" (the output's tokens, time and rate)
        r"\btg\s?\d*\b|decod|generat|\bgen\b|\boutput\b|\bout(?=\s+[\d.,]+[kK]?\s?/)|(?<!prompt )\beval rate|"
        r"토큰 생성|生成|デコード",
        "decode_tps",
    ),
    ("rate", r".", "decode_tps"),
    ("size", r"\bkv[ _-]?cache\b|\bkv\b|kv缓存|kvキャッシュ", "kv_cache_size"),
    (
        "size",
        # "GPUメモリ", "GPU 메모리", "GPU 内存" whole: the GPU's memory, not memory of unknown kind
        r"vram|gpu memory|video memory|dedicated|gpu\s*(?:メモリ|内存|메모리|памят\w*|speicher)|gpu|显存|"
        r"ビデオメモリ|그래픽 메모리|видеопамят",
        "vram",
    ),
    ("size", r"\brss\b|resident|process", "rss_peak"),
    ("size", r"working set", "working_set_peak"),
    # host memory only where the words name the host's (RAM, system/host/CPU memory, ОЗУ, 主机/CPU 内存,
    # 시스템 메모리); memory whose kind is not given ("Memory Usage", 内存占用, メモリー使用量, "memory
    # GB") is ``memory_used`` (the corpus's convention, SOURCES.md)
    (
        "size",
        # (a key's words joined by "_": "peak_ram: 3.5 GB")
        r"(?:\b|_)ram(?:\b|_)|\bddr\d|(?:system|host|cpu|main)\s+memory|\bозу\b|оперативн|(?:主机|cpu\s*)内存|"
        r"システムメモリ|메인 메모리|시스템 메모리|arbeitsspeicher",
        "ram",
    ),
    ("size", r"memory|памят|内存|メモリ|메모리|speicher", "memory_used"),
    (
        "size",
        # (in the drafter's other languages too: "Tamaño ~2.2 GB", "Größe", "taille", 权重 weights)
        r"model|file|gguf|weights|quant|download|disk|\bsize\b|サイズ|크기|модел|файл|вес|размер|大小|文件|ファイル"
        # (not 模型/モデル/모델, "model", before a VRAM after the number: "モデルは10GB以上のVRAMが必要")
        r"|tamaño|tamanho|größe|\btaille\b|权重|權重",
        "model_size",
    ),
    ("size", r".", "size"),
    # "First token latency" as a whole: TTFT, not the latency word after it; 初始延迟 (initial delay)
    ("time", TTFT_WORDS, "ttft"),
    ("time", r"tpot|time per output token", "tpot"),
    # ("token间延迟", "令牌间延迟": the latency between tokens, in Chinese)
    (
        "time",
        r"\bitl\b|inter[- ]token|(?:token\s*|令牌)间(?:\s*的)?(?:\s*延迟)?"
        r"|トークン間(?:の)?(?:遅延|レイテンシ)?",
        "itl",
    ),
    ("time", r"per[- ]token|/\s*tok(?:en)?\b|每个?token|トークンあたり|토큰당|на токен", "ms_per_token"),
    # the time of one step of a loop ("draft ms/step", "verify ms/step", "ms per iteration"): a latency
    ("time", r"\bms\s*/\s*(?:step|iter(?:ation)?)\b|\bper\s+(?:step|iteration)\b", "latency"),
    (
        "time",
        # ("Avg Lat(s)": latency written short)
        # ("Response Time", "E2E", "end-to-end": a request's time from sending it to its last token)
        r"latency|\blat\b|step time|per (?:step|iteration|request)|/\s*it\b|延迟|遅延|レイテンシ|지연|"
        # (not a run's total: "Total Response Time (all requests)" is its duration)
        r"задержк|(?<!total )(?<!total_)response[\s_-]*times?|\be2el?\b|end[\s-]to[\s-]end",
        "latency",
    ),
    ("time", LOAD_WORDS, "load_time"),
    ("time", r".", "duration"),
    ("ratio", r"accept|수락|採択|受理|接受", "acceptance_rate"),
    # the share of a memory in use ("内存使用率 50.14%", "显存占用率", "memory usage 63%", "GPU memory
    # utilization 85%"; not vLLM's setting written as its key, "gpu_memory_utilization")
    (
        "ratio",
        r"(?:内存|显存|記憶體|メモリ)\s*(?:使用|占用|利用)率|\bmem(?:ory)?\s+(?:usage|utili[sz]ation|use)\b",
        "memory_utilization",
    ),
    # a GPU's busy share ("GPU utilization 92%", "GPU利用率", "GPUの使用率は75%", "загрузка GPU")
    (
        "ratio",
        # (a column headed "GPU" or "GPU %" alone over percentages: its busy share)
        r"\bgpu[\s-]*(?:util\w*|usage|load|busy)|gpu\s*(?:の)?\s*(?:利用率|使用率|占用率|사용률)|загрузк\w*\s+gpu|"
        r"^\W*gpu\W*$",
        "gpu_utilization",
    ),
    # a CPU's busy share ("CPU usage 85%", "pegged at 100% of one core", "CPU占用率")
    (
        "ratio",
        r"\bcpu[\s-]*(?:util\w*|usage|load|busy)|\bof\s+(?:one|a|each|every|all)\s+(?:cpu\s+)?cores?\b|"
        r"cpu\s*(?:の)?\s*(?:利用率|使用率|占用率|사용률)|^\W*cpu\W*$",
        "cpu_utilization",
    ),
    # a cache's hits among lookups ("cache hit rate: 11.56%", "Prefix cache hit rate ~76%", "命中率")
    ("ratio", r"\bhit[\s_-]*rate\b|命中率|ヒット率|적중률", "cache_hit_rate"),
    # a model's score on a benchmark of tasks ("71.5% vs 69.4% MMLU", "GSM8K 82.4%", "pass@1",
    # 准确率/正确率), as ``drafttable``'s score columns name it
    ("ratio", ACCURACY_WORDS, "accuracy"),
    # a quality evaluation's score in percent ("80.6% quality", "quality score 71%")
    ("ratio", r"\bquality\b", "quality_score"),
    # how much repeated runs differ ("run-to-run spread was under 2%", "CV=0.6%", "±3% variation",
    # "noise of 1.5%"): a coefficient of variation where named so, else the variation
    ("ratio", r"\bcv\b|coefficient\s+of\s+variation", "cv"),
    (
        "ratio",
        r"run[\s-]to[\s-]run|\bspread\b|\bvariation\b|\bvariance\b|\bjitter\b|\bnoise\b|"
        r"\bstd\.?\s?dev|standard\s+deviation|variación|波动|抖动|ばらつき",
        "variation",
    ),
    ("ratio", r".", "share"),
    ("multiple", r".", "speedup"),
    # (an "accept length" is a mean with or without the word: "acc len" column, "Accept Length")
    # the draft's tokens accepted a step, the verifier's own token not counted ("1.37 accepted draft
    # tokens/round" beside "2.37 accepted tokens/round, including the guaranteed target token")
    ("tokens", r"accepted\s+draft\s+tokens?\s*(?:per\b|/)", "accepted_per_cycle"),
    ("tokens", ACCEPT_LENGTH_WORDS, "mean_accepted_length"),
    ("tokens", r".", "tokens"),
    ("layers", r".", "layers"),
    # a storage device's: its input and output ("Effective I/O Bandwidth"), a read off it ("the sequential
    # read limit", hdparm's, an NVMe's, a swap device's)
    ("bandwidth", r"\bi/o\b", "io_bandwidth"),
    ("bandwidth", r"\bread\b|hdparm|nvme|\bssd\b|\bdisk\b|\bswap\b", "read_bandwidth"),
    ("bandwidth", r"(?:cpu|host|pcie).{0,20}(?:gpu|device)|transfer|pcie", "transfer_bandwidth"),
    ("bandwidth", r".", "memory_bandwidth"),
    # a run's ("when run with hipBLASLt, this goes up to 36.9 TFLOPS", "the benchmark reached …")
    (
        "compute",
        r"matmul|gemm|mamf|measured|achiev|get|\brun\b|\bran\b|bench|\btest|\bscor|reach|"
        r"\bhit|\bgoes\b|\bwent\b|blas",
        "matmul_tflops",
    ),
    ("compute", r".", "peak_tflops"),
    ("power", r".", "power"),
    ("power_per_token", r".", "power_per_token"),
    ("requests", r".", "request_throughput"),
    ("images", r".", "image_throughput"),
    ("iops", r".", "iops"),
]
_FAMILY = {
    "tok/s": "rate",
    "t/s": "rate",
    "tok/min": "rate",
    "ns": "time",
    "µs": "time",
    "ms": "time",
    "s": "time",
    "min": "time",
    "h": "time",
    "GiB": "size",
    "GB": "size",
    "MiB": "size",
    "MB": "size",
    "TB": "size",
    "TiB": "size",
    "KiB": "size",
    "kB": "size",
    "B": "size",
    "%": "ratio",
    "x": "multiple",
    "tokens": "tokens",
    "layers": "layers",
    "GB/s": "bandwidth",
    "GiB/s": "bandwidth",
    "TB/s": "bandwidth",
    "MB/s": "bandwidth",
    "MiB/s": "bandwidth",
    "IOPS": "iops",
    "TFLOPS": "compute",
    "req/s": "requests",
    "req/min": "requests",
    "img/s": "images",
    "it/s": "requests",
    "W": "power",
    "W/tok": "power_per_token",
}


def family(unit: str | None) -> str | None:
    """rate | time | size | ratio | multiple | tokens | layers | bandwidth | compute | requests | images
    | power of a drafted unit; None if unplaced."""
    return _FAMILY.get(unit or "")


#: words saying a compute figure is the hardware's, not a run's: "peak", "theoretical", "on paper",
#: "rated", "spec sheet", "datasheet"
_SPEC_WORDS = re.compile(
    r"\bpeak\b|\btheoretical\w*|\bon paper\b|\brated\b|\bspec(?:s|ification)?\b|spec sheet|datasheet"
)


def metric_of(unit: str | None, before: str, after: str = "") -> str | None:
    """``_metric_of``, but a benchmark's name is no score where the clause speaks of acceptance
    ("on GSM8K prompts, with 72% of drafted tokens accepted", "acceptance by dataset: GSM8K 76%"):
    speculative decoding's posts report acceptance per dataset; a size of no kind named under a word
    of a peak ("peak GB") is the memory the run used at most (``memory_used``)."""
    metric = _metric_of(unit, before, after)
    if metric == "quality_score" and not _QUALITY_AFTER.match(after):
        # only "80.6% quality" names a score: "at high quality the GPU was at 95%", "a 2.1% quality
        # drop" do not
        metric = "share"
    if metric == "size" and _PEAK.search(before[-40:]):
        return "memory_used"  # "peak GB" alone: the run's peak memory, of no kind named
    if metric == "accuracy" and _ACCEPTANCE_NEAR.search(
        re.split(r"[.!?;](?:\s|$)|[。！？]", before.lower())[-1] + " " + after.lower()[:40]
    ):
        return "acceptance_rate"
    return metric


#: "quality" right after a percentage, naming its score ("80.6% quality"; not "2.1% quality drop")
_QUALITY_AFTER = re.compile(
    r"\s*quality\b(?!\s*(?:drop|loss|degradation|hit|decrease|penalty|retention|retained))", re.IGNORECASE
)
#: words of drafted tokens' acceptance near a percentage (``metric_of``)
_ACCEPTANCE_NEAR = re.compile(r"accept|drafted|수락|採択|受理|接受")


#: a run's whole time named right after its number ("148 ms total", "2.3 s in total"; not "210 ms
#: total 1024 tokens": the word is the next figure's label) or right before it ("total 25783.48ms",
#: "total: 12 s")
_WHOLE_TIME_AFTER = re.compile(r"(\s*)(?:in\s+)?(?:total|wall)\b(\s*)([:=]?)\s*([\d~≈])?", re.IGNORECASE)
WHOLE_TIME_BEFORE = re.compile(r"\b(?:total|wall)\s*[:=]?\s*$", re.IGNORECASE)


def whole_time_after(after: str) -> bool:
    """Whether the words right after a time name it a run's whole time (``_WHOLE_TIME_AFTER``): a
    number after "total" is the word's where a colon joins them or the word stands nearer it (an
    aligned line, "210 ms   total 1024 tokens"); "148 ms total   82.1 tok/s" is the time's."""
    m = _WHOLE_TIME_AFTER.match(after)
    if m is None:
        return False
    if m.group(4) is None:
        return True
    return not m.group(3) and len(m.group(2)) > len(m.group(1))


#: a count of tokens given per drafting step, right after its unit ("/round", " per step")
_PER_A_STEP = rf"(?:/|per\s+|a\s+|each\s+)\s*{_PER_STEP}"
_PER_STEP_AFTER = re.compile(rf"\s*(?:tok(?:en)?s?\s*)?{_PER_A_STEP}")
#: the same count named after it ("2.37 accepted tokens/round"; not "accepted draft tokens": the
#: draft's own, ``accepted_per_cycle``)
_KEPT_PER_STEP = re.compile(rf"\s*(?:tok\w*\s+)?(accepted|drafted|proposed)\s+tok(?:en)?s?\s*{_PER_A_STEP}")
#: the verb before such a count: the draft proposes, the verifier accepts ("drafts ~3.3", "accepts 2.8")
_STEP_VERB = re.compile(r"\b(accept\w*|draft\w*|propos\w*)\s+(?:(?:~|≈|about|around|exactly|only)\s*)?$")


def _metric_of(unit: str | None, before: str, after: str = "") -> str | None:
    """The metric a number in ``unit`` is, from the words near it (``_METRIC_WORDS``): the keyword
    nearest before the number wins ("VRAM peaked at 11.7 GiB and the working set at 18.8 GiB": the
    second is the working set), then the first right after it, then the unit's default; None for a
    number with no unit."""
    fam = family(unit)
    rules = [(pat, m) for f, pat, m in _METRIC_WORDS if f == fam]
    if not rules:
        return None
    # this sentence only before it, this clause only after it ("+108% ... acceptance" later on)
    low = re.split(r"[.!?;](?:\s|$)|[。！？]", before.lower())[-1]
    tail = re.split(r"[.!?;,(](?:\s|$)|[。！？，]|\s[—–]\s", after.lower()[:30])[0]
    if fam == "compute" and _SPEC_WORDS.search(low + " " + tail):
        # "On paper the RTX 4090 can reach 165 TFLOPS", "rated at 989 TFLOPS", "the theoretical peak
        # goes up to 59.4 TFLOPS": a spec's words in its sentence outweigh a verb of reaching
        return "peak_tflops"
    if re.match(r"\s*[^\W\d][^\W\d ]*(?:\s[^\W\d]+){0,3}\s*[:：]", tail) and not (
        fam == "ratio" and re.match(r"\s*accept", tail)  # "100% acceptance: 37.19 -> 79.39 tok/s"
    ):
        # "Key: value" lines run together ("total duration: 21.43s load duration: 1.02s"): the
        # words after the number up to a colon are the next pair's label, not this number's name
        tail = ""
    # a word right after the number names it first ("14 GB VRAM", "46 t/s prefill"), past a
    # percentile's label ("47s P95 latency")
    tail = re.sub(r"^\s*[pP]\d{2}(?:\.\d+)?\b", "", tail)
    right = re.sub(r"^of\s+", "", re.split(r"\d", tail, maxsplit=1)[0].lstrip())  # "6 GB of system RAM"
    if fam == "rate" and re.match(r"(?:prompt|pp)\b(?!\s*(?:of|with|length|size|tokens?)\b)", right):
        return "prefill_tps"  # "~90 tok/s prompt and ~10 tok/s inference": the prompt's rate
    if fam == "tokens" and (kept := _KEPT_PER_STEP.match(after.lower())) is not None:
        # "2.37 accepted tokens/round" (the verifier's own token counted), "3.1 drafted tokens per step"
        return "mean_accepted_length" if kept.group(1) == "accepted" else "draft_tokens"
    if fam == "tokens" and _PER_STEP_AFTER.match(after.lower()):
        # "drafts ~3.3 tokens/round", "accepts 2.8 tokens per step": the tokens a drafting step
        # proposes (draft_tokens) or keeps (mean_accepted_length), by the verb before the number
        verb = _STEP_VERB.search(low[-30:])
        if verb is not None:
            return "mean_accepted_length" if verb.group(1).startswith("accept") else "draft_tokens"
    if fam == "time" and (whole_time_after(after.lower()[:30]) or WHOLE_TIME_BEFORE.search(low)):
        # a run's whole time named right beside it ("148 ms total", "total 25783.48ms"): no word of a
        # phase further before it ("124 ms TTFT    148 ms total") names it
        return "duration"
    for pat, metric in rules[:-1]:
        # "14 GB VRAM", "6 GB system RAM"; not past a conjunction ("45 tok/s and prompt at 1200": the
        # next number's)
        if re.match(rf"(?:(?!(?:and|or|but|while|whereas|vs|versus|than)\s)[^\W\d]+\s)?(?:{pat})", right):
            return _peak(metric, low[-40:] + " " + tail)
    best: tuple[int, str] | None = None
    for pat, metric in rules[:-1]:
        hits = [h.end() for h in re.finditer(pat, low)]
        if hits and (best is None or hits[-1] > best[0]):
            best = (hits[-1], metric)
    if best is not None:
        return _peak(best[1], low[-40:] + " " + tail)
    # after it, the keyword nearest the number ("20 GB RAM and 14 GB VRAM": the first is RAM), and
    # nothing past the next number (that number's words)
    tail = re.split(r"\d", tail, maxsplit=1)[0]
    first: tuple[int, str] | None = None
    for pat, metric in rules[:-1]:
        hit = re.search(pat, tail)
        if hit and (first is None or hit.start() < first[0]):
            first = (hit.start(), metric)
    return _peak(first[1] if first is not None else rules[-1][1], low[-40:] + " " + tail)


#: a word saying that a memory figure is the highest it reached ("peak VRAM", "VRAM peaked at",
#: "峰值显存", "ピーク時", "пиковое", "최대 메모리")
_PEAK = re.compile(r"\bpeak|峰值|ピーク|пиков|\bпик\b|최대|spitzen|höchst", re.IGNORECASE)


def _peak(metric: str, words: str) -> str:
    """``vram``/``ram`` as ``vram_peak``/``ram_peak`` where ``words`` say the figure is a peak
    (``_PEAK``): memory a post states without the word is what it used, not its peak."""
    return f"{metric}_peak" if metric in ("vram", "ram") and _PEAK.search(words) else metric

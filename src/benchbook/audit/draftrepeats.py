"""How many times a post's measurements were repeated and which statistic of the runs it reports
(``benchbook claims draft``, issue 29).

A post states its repetitions once for many numbers, in words: "each prompt run 3 times and I took
the median", "median of 5 runs", "averaged over 3 runs", "每个配置跑 5 次取平均值", "Mittelwert aus
3 Läufen".  Such a statement gives the measured claims of its scope (the innermost section around
it, else the whole post: ``draftcontext``'s scopes) their ``n`` (docs/claims.md: "repetitions, if
stated") and ``conditions.other.stat`` (``mean``, ``median``: the statistic the audit words its
spread note by).  A measured claim is one in a rate or a time (``draftprose.family``); what a claim
states itself wins (a claim whose own words name a statistic,
"median TTFT 41 ms", "p99", gets neither), and a quoted claim (``origin``) ran elsewhere and gets none.
"""

from __future__ import annotations

import re

from .draftcontext import context_of
from .draftcore import Entry, Group
from .draftprose import family
from .post import Post

#: a statistic's word -> its name in ``other.stat``
_STAT = {
    "median": "median",
    "中位数": "median",
    "中位值": "median",
    "中央値": "median",
    "медиана": "median",
}

_WORD_N = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "zwei": 2, "drei": 3, "fünf": 5, "zehn": 10}
_N = r"(?P<n>\d{1,3}|two|three|four|five|ten|zwei|drei|fünf|zehn)"
_RUNS_EN = r"(?:runs?|trials?|repetitions?|iterations?|measurements?|passes|attempts?|samples?)"
_RUNS_DE = r"(?:L[äa]ufen?|Durchl[äa]ufen?|Runs|Messungen|Wiederholungen|Versuchen?|Durchg[äa]ngen?)"
_STAT_EN = r"(?P<s>median|mean|average|averaged|avg)"
_STAT_DE = r"(?P<s>Mittelwert|Durchschnitt|Median|gemittelt)"
_STAT_CJK = r"(?P<s>平均值?|均值|中位数|中位值|中央値)"

#: the kinds of statement (one regex each, searched in one sentence): a statistic "of"/"over" N runs
#: ("median of 5 runs", "averaged over 3 runs", "Mittelwert aus 3 Läufen"); N repetitions, then the
#: statistic taken ("run 3 times and I took the median", "3 runs, median reported", "跑 5 次取平均值",
#: "3 Läufe, Median"); "N 次" needs a verb of running before it or 取/求 after it
_KINDS = [
    re.compile(rf"\b{_STAT_EN}\s+(?:over|across|of)\s+(?:the\s+)?{_N}\s+(?:\w+\s+)?{_RUNS_EN}\b", re.I),
    re.compile(rf"\b{_N}\s+{_RUNS_EN}\b[^.;!?\n]{{0,50}}?\b{_STAT_EN}\b", re.I),
    re.compile(
        rf"\b(?:r[au]n|repeated|measured|tested|executed|benchmarked)\b[^.;!?\n]{{0,30}}?\b{_N}\s+times\b"
        rf"[^.;!?\n]{{0,50}}?\b{_STAT_EN}\b",
        re.I,
    ),
    # "Each prompt was run 3 times, temperature 0, 512 tokens generated; numbers are the mean."
    re.compile(
        rf"\b(?:r[au]n|repeated|measured|tested)\b[^.!?\n]{{0,30}}?\b{_N}\s+times\b[^.!?\n]{{0,80}}?"
        rf"\b(?:numbers|results|values|figures|rates)\s+(?:are|is|were)\s+(?:the\s+)?{_STAT_EN}\b",
        re.I,
    ),
    re.compile(rf"\b{_STAT_DE}\s+(?:aus|von|über|ueber)\s+{_N}\s+{_RUNS_DE}\b", re.I),
    re.compile(rf"\b{_N}\s+{_RUNS_DE}\b[^.;!?\n]{{0,40}}?\b{_STAT_DE}\b", re.I),
    re.compile(
        rf"(?:跑|测|测试|运行|重复|執行|実行|測定)了?\s*{_N}\s*(?:次|遍|回)[^。；，,]{{0,6}}?(?:取|求|的)?{_STAT_CJK}"
    ),
    re.compile(rf"{_N}\s*(?:次|遍|回)[^。；]{{0,4}}?(?:取|求){_STAT_CJK}"),
]


#: a statistic a claim's own words name (over requests or tokens, not over runs): the statement's
#: ``n`` and ``stat`` are not its
_OWN_STAT = re.compile(
    r"\b(?:median|mean|average|avg|p\d{2}(?:\.\d+)?|percentile|Median|Mittelwert|Durchschnitt)\b|中位|平均|均值",
    re.I,
)


def repeats(text: str) -> tuple[int, str] | None:
    """The repetitions and statistic one line states (module doc): ``(n, stat)`` with ``n`` ≥ 2 and
    ``stat`` ``mean`` or ``median``; None where it states none or a count of 1 (one run has no
    statistic).  "3 times faster" is no statement: a statistic must follow or precede the count."""
    for kind in _KINDS:
        m = kind.search(text)
        if not m:
            continue
        word = m.group("n").lower()
        n = _WORD_N.get(word) or int(word)
        if n < 2:
            continue
        s = m.group("s").lower()
        return n, _STAT.get(s, "mean")
    return None


#: llama-bench's repetitions flag with its count ("llama-bench -m x.gguf -p 512 -n 128 -r 5"): each
#: test is run that many times and reported as their mean ± standard deviation (tools/llama-bench:
#: ``-r, --repetitions``, ``avg_ts``/``stddev_ts``)
_BENCH_REPS = re.compile(r"\bllama-bench\b.*?\s(?:-r|--repetitions)[\s=]+(?P<n>\d{1,3})(?![\w.,])")


#: the method of a llama-bench test's claim ("llama-bench pp512", "tg128 @ d8192", "pp4096+tg128")
_BENCH_METHOD = re.compile(r"\b(?:pp|tg)\d+|llama-bench", re.IGNORECASE)


def bench_repeats(text: str) -> tuple[int, str] | None:
    """The repetitions a llama-bench command line sets (``_BENCH_REPS``): ``(n, "mean")`` with
    ``n`` ≥ 2; None for another line, no ``-r`` or ``-r 1``."""
    m = _BENCH_REPS.search(text)
    return (int(m.group("n")), "mean") if m and int(m.group("n")) >= 2 else None


def stated_repeats(post: Post, entries: list[Entry], groups: list[Group]) -> None:
    """Give the measured claims in the scope of each repetitions statement of the post's prose
    (``repeats``) or llama-bench command (``bench_repeats``: its tests' claims only, by their method;
    the innermost section around its line, else the whole post) ``n`` and ``conditions.other.stat``,
    changed in place; a table's group gets them where its unit is a rate or a time.  Where two
    statements' scopes nest, the inner one wins (it is applied first); in one section the prose's
    words win over a command's flag."""
    found = [
        (ln, r, False)
        for block in post.blocks
        if block.kind != "code"
        for ln, t in block.lines
        if (r := repeats(t))
    ] + [(ln, r, True) for block in post.blocks for ln, t in block.lines if (r := bench_repeats(t))]
    if not found:
        return
    ctx = context_of(post)
    spans = []
    for line, r, bench in found:
        section = next(s for s in ctx.chain(line) if s.level <= 6)
        spans.append((section.level, section.first, section.last, r, bench))
    unit_of = {g.id: g.fields.get("unit") for g in groups}
    method_of = {g.id: g.fields.get("method") for g in groups}
    for _, first, last, (n, stat), bench in sorted(spans, key=lambda s: -s[0]):
        for g in groups:
            if bench and not _BENCH_METHOD.search(str(g.fields.get("method") or "")):
                continue  # llama-bench's -r: its tests' repetitions, not the prose's numbers
            if first <= g.line <= last and family(g.fields.get("unit")) in ("rate", "time"):
                _give(g.fields, n, stat)
        for e in entries:
            at = e.fields.get("source_line")
            if (
                e.kind != "claim"
                or "origin" in e.fields
                or not isinstance(at, int)
                or not first <= at <= last
                or bench
                and not _BENCH_METHOD.search(
                    str(e.fields.get("method") or method_of.get(e.group or "") or "")
                )
            ):
                continue
            if e.group is not None and family(unit_of.get(e.group)) in ("rate", "time"):
                continue  # its group has them
            if _own_stat(e.fields) and not repeats(post.line(at)):
                continue  # "median TTFT 41 ms", "p99 88 ms": the claim names its own statistic
            if family(e.fields.get("unit") or unit_of.get(e.group or "")) in ("rate", "time"):
                _give(e.fields, n, stat)


#: a claim's fields a claims file writes after ``n`` (docs/claims.md's schema order)
_AFTER_N = ("conditions", "spread", "origin", "note", "source_line", "quote", "reviewed", "table")


def _own_stat(fields: dict) -> bool:
    """Whether the clause of the claim's quote that holds its value names a statistic
    (``_OWN_STAT``); clauses split at , ; and sentence ends (not inside a number)."""
    value = fields.get("value")
    if value is None:
        return False
    text = str(value)
    written = text[:-2] if text.endswith(".0") else text
    for clause in re.split(r"(?<!\d)[,;.!?]|[,;.!?](?!\d)|[。，；]", str(fields.get("quote") or "")):
        if re.search(rf"(?<![\d.]){re.escape(written)}(?![\d])", clause) and _OWN_STAT.search(clause):
            return True
    return False


def _give(fields: dict, n: int, stat: str) -> None:
    """Set ``n`` and ``conditions.other.stat`` where the entry does not state them itself."""
    if "n" not in fields:  # in a claims file's order: before the conditions
        rest = {k: fields.pop(k) for k in list(fields) if k in _AFTER_N}
        fields["n"] = n
        fields.update(rest)
    other = fields.setdefault("conditions", {}).setdefault("other", {})
    other.setdefault("stat", stat)

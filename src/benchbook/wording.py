"""Words that characterise a number, derived from the number and its interval, and the check that a
page's hand-written words agree with the registry.

A page may say "faster", "slower", "a gain", "about zero" next to a number only when the number and
its 95% interval say so (DESIGN.md, "Statistics and caveats": sentences that characterise a number
are generated from it).  ``ratio_word`` and ``zero_word`` generate the words; ``check_page`` finds the
words a page wrote by hand beside a ``{{< var KEY >}}`` and returns one line per disagreement, so a
test fails the build when a number moves and its sentence no longer fits (a speedup that became 1.35
while the overview still says "is slower").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .numbers import Unit
from .numfmt import fmt_interval

VAR = re.compile(r"\{\{<\s*var\s+([a-z0-9_-]+)\s*>\}\}")
#: the table-cell variant of a key (``sitecheck.CELL_SUFFIX``; this layer cannot import the site's)
CELL_SUFFIX = "__v"


def _bounds(value: float, ci: list[float] | None) -> tuple[float, float]:
    return (ci[0], ci[1]) if ci else (value, value)


def ratio_word(value: float, ci: list[float] | None) -> str:
    """ "faster" when the whole interval of a speedup (×) lies above 1, "slower" when below, else "not
    distinguishable from the baseline"; without an interval (n < 3) the value decides and the word says
    so ("faster (no interval)").

    >>> ratio_word(0.476, [0.217, 0.736]), ratio_word(1.16, [0.9, 1.5]), ratio_word(1.2, None)
    ('slower', 'not distinguishable from the baseline', 'faster (no interval)')
    """
    low, high = _bounds(value, ci)
    suffix = "" if ci else " (no interval)"
    if low > 1:
        return "faster" + suffix
    if high < 1:
        return "slower" + suffix
    return "not distinguishable from the baseline"


def zero_word(value: float, ci: list[float] | None) -> str:
    """ "about zero" only when the interval includes 0; otherwise "above zero" or "below zero".

    >>> zero_word(0.336, [0.321, 0.350]), zero_word(0.01, [-0.2, 0.3])
    ('above zero', 'about zero')
    """
    low, high = _bounds(value, ci)
    if low <= 0 <= high:
        return "about zero"
    return "above zero" if low > 0 else "below zero"


@dataclass(frozen=True)
class Claim:
    """A characterising word and what it requires of the number it describes."""

    pattern: re.Pattern
    unit: str | None  # the unit the described number must have (None: any)
    holds: object  # (value, ci) -> bool


CLAIMS = {
    "slower": Claim(re.compile(r"\bslower\b", re.I), Unit.SPEEDUP, lambda v, ci: _bounds(v, ci)[1] < 1),
    "faster": Claim(re.compile(r"\bfaster\b", re.I), Unit.SPEEDUP, lambda v, ci: _bounds(v, ci)[0] > 1),
    "gain": Claim(
        re.compile(r"\b(gain|speeds? up)\b", re.I), Unit.SPEEDUP, lambda v, ci: _bounds(v, ci)[0] > 1
    ),
    "about zero": Claim(
        re.compile(r"\b(about|near|close to) zero\b", re.I),
        None,
        lambda v, ci: zero_word(v, ci) == "about zero",
    ),
}


def _sentences(text: str) -> list[str]:
    """Sentences of Markdown prose (split at '.', '!' or '?' followed by a space, and at blank lines);
    ``{{< ... >}}`` shortcodes are kept whole."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        out += re.split(r"(?<=[.!?])\s+(?=[A-Z{*(])", " ".join(para.split()))
    return out


def _plain(sentence: str, limit: int = 160) -> str:
    """A sentence as an error shows it: whitespace collapsed, cut at ``limit`` characters."""
    text = " ".join(sentence.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_page(text: str, registry: dict[str, dict], page: str = "<page>") -> list[str]:
    """Disagreements between the characterising words of ``text`` (a .qmd page) and the numbers they
    sit beside: for each sentence with a word of ``CLAIMS`` and a ``{{< var KEY >}}`` whose number has
    the claim's unit, the claim must hold for the number nearest after the word (else nearest before).
    ``registry``: ``numbers.load_all``'s ``{key: entry}``.  Returns one line per disagreement naming the
    page, the word, the key, its value and interval, the number as shown and the sentence; [] when
    every word fits.  ``site.render`` fails the build on any (``sitewords.wording_problems``)."""
    problems = []
    for sentence in _sentences(text):
        # ``KEY__v`` (a table cell without the unit, ``sitecheck.CELL_SUFFIX``) quotes ``KEY``
        keys = [(m.start(), m.group(1).removesuffix(CELL_SUFFIX)) for m in VAR.finditer(sentence)]
        if not keys:
            continue
        for name, claim in CLAIMS.items():
            for hit in claim.pattern.finditer(sentence):
                candidates = [
                    (pos, key)
                    for pos, key in keys
                    if key in registry and (claim.unit is None or registry[key].get("unit") == claim.unit)
                ]
                after = [c for c in candidates if c[0] > hit.start()]
                before = [c for c in candidates if c[0] < hit.start()]
                target = after[0] if after else (before[-1] if before else None)
                if target is None:
                    continue
                entry = registry[target[1]]
                if not claim.holds(entry["value"], entry.get("ci95")):  # type: ignore[operator]
                    shown = fmt_interval(entry["value"], entry.get("ci95"))
                    problems.append(
                        f"{page}: {hit.group(0)!r} beside {target[1]} = {entry['value']} "
                        f"{entry.get('ci95')}: the number does not say {name!r} (shown as {shown} "
                        f"{entry.get('unit') or ''}; sentence: {_plain(sentence)!r})"
                    )
    return problems

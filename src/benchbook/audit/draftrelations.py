"""Phrases that relate numbers in one piece of a post's prose (issue 29: "2.1× faster", "40% more",
"about 57% of", "roughly 3×", "just 12% on the other prompt").

A relating phrase (``relations``) is a ``Relation``: its kind (ratio, percent_change), the stated
number (``draftprose.Number``), its direction (``sign``) and the words after it that name the other
side; a signed percentage after a pair "A → B unit" is the change from A to B (``_changed_pair``).
``draft`` finds the claims it relates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .draftprose import Number

#: comparison words after a multiple or percentage: the direction of a change
_MORE = (
    r"faster|quicker|more|higher|better|greater|larger|increase|gain|speed-?up|up|"
    r"빠르|높|더|速い|高い|快|schneller|plus rapide|más rápido"
)
_LESS = (
    r"slower|less|lower|fewer|worse|smaller|decrease|drop|down|loss|reduction|regression|"
    r"느리|낮|遅い|低い|慢|削減|減少|감소|减少|降低|langsamer|plus lent|más lento"
)


@dataclass(frozen=True)
class Relation:
    """A phrase relating two numbers: ``kind`` ratio | percent_change, the stated ``number`` (its
    unit x or %), ``sign`` (-1 for slower/less/lower), ``other``: the words naming the other side
    ("plain decoding"), ``start``: where in the piece."""

    kind: str
    number: Number
    sign: int
    other: str
    start: int
    #: the two numbers it relates where the text pairs them ("31.9 → 52.8 tok/s (+65.5%)": from
    #: the first to the second), else None
    pair: tuple[Number, Number] | None = None


def relations(text: str, found: list[Number]) -> list[Relation]:
    """The relating phrases of ``text`` among its ``found`` numbers (module doc): a multiple
    (``2.1× faster``, ``roughly 3×``, ``7 times``), a percentage followed by a comparison word
    (``40% more``, ``12% slower``) or by "of" (``about 57% of``), and a bare percentage after
    another percent change in the same piece ("just 12% on the other prompt"); a signed percentage
    after a pair "A → B unit" is the change from A to B (``_changed_pair``)."""
    out: list[Relation] = []
    for i, n in enumerate(found):
        tail = text[n.end : n.end + 60]
        pair = _changed_pair(text, found, i)
        if pair is not None:
            out.append(Relation("percent_change", n, 1, "", n.start, pair))
            continue
        if n.unit == "x":
            m = re.match(rf"\s*(?:(?:{_LESS})|(?:{_MORE}))?", tail, re.IGNORECASE)
            word = m.group(0).strip().lower() if m else ""
            sign = -1 if word and re.fullmatch(_LESS, word, re.IGNORECASE) else 1
            other = re.sub(
                r"^\s*(?:\w+\s+)?(?:than|of|over|vs\.?|versus)\s+", "", tail[m.end() if m else 0 :]
            )
            out.append(Relation("ratio", n, sign, _side_words(other), n.start))
        elif n.unit == "%" and n.of is None:
            if re.match(r"\s*of\b", tail, re.IGNORECASE):
                out.append(Relation("ratio", n, 1, _side_words(re.sub(r"^\s*of\s+", "", tail)), n.start))
                continue
            # no word boundary after a word of a script that writes none ("70% 削減となった")
            m = re.match(
                rf"\s*(?:(?P<less>{_LESS})|(?P<more>{_MORE}))(?:\b|(?<=[^\x00-\x7f]))", tail, re.IGNORECASE
            )
            if m:
                sign = -1 if m.group("less") else 1
                other = re.sub(r"^\s*(?:than|over|vs\.?|versus)\s+", "", tail[m.end() :])
                out.append(Relation("percent_change", n, sign, _side_words(other), n.start))
            elif (
                out
                and out[-1].kind == "percent_change"
                and out[-1].pair is None  # after "(A → B, +88%)" a bare percentage is its own
                and not re.search(r"accept|수락", text[max(0, n.start - 40) : n.end + 20], re.IGNORECASE)
            ):
                out.append(Relation("percent_change", n, out[-1].sign, _side_words(tail), n.start))
    return out


def _changed_pair(text: str, found: list[Number], i: int) -> tuple[Number, Number] | None:
    """The pair a signed percentage right after it changes: "31.9 → 52.8 tok/s (+65.5%)", "(43.06
    → 33.8 t/s, −21%)", "from 38 to 33.93 t/s, -11%": two numbers of one unit (not % or x) joined
    by an arrow or "to", then "(" or "," and the signed percentage; else None."""
    n = found[i]
    if i < 2 or n.unit != "%" or n.of is not None or n.range is not None:
        return None
    if not re.match(r"[+\-−]\d", text[n.start : n.end]):
        return None
    a, b = found[i - 2], found[i - 1]
    if a.unit is None or a.unit != b.unit or a.unit in ("%", "x") or a.range or b.range:
        return None
    if not re.fullmatch(r"\s*(?:→|->|to)\s*", text[a.end : b.start]):
        return None
    if not re.fullmatch(r"\s*[(,;]\s*", text[b.end : n.start]):
        return None
    return a, b


def _side_words(text: str) -> str:
    """The words naming the other side: up to the end of the clause."""
    # a point ends the clause only before a space or the end: "llama.cpp", "v0.3" are names
    return re.split(r"[,;:()\[\]?!]|\.(?=\s|$)|\s—\s|\s-\s", text.strip(), maxsplit=1)[0].strip()

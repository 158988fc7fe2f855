"""The machine a table's value column names in its header (``benchbook claims draft``, issue 29).

A table that compares machines often gives each its own column of rates: "| Model | RTX 3090 |
RTX 4090 |", "| Model | V1: 3090Ti | V1: 4090 | V2: 3090Ti | V2: 4090 |" (an engine version and the
card together), "| Model | M2 Ultra (tok/s) | M3 Max (tok/s) |".  The header is where the column's
machine is stated once, for every claim in the column (``column_machine``); ``drafttable`` puts it
in the column's group.  A header naming two machines ("RTX 4090 vs 3090", "2x 4090 / 1x 4090")
names none for its column.
"""

from __future__ import annotations

import re

from .draftnames import hardware_of, mentions

#: what follows a header's name in parentheses or brackets: its unit or a remark ("(tok/s)", "[t/s]")
_PAREN = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*")


def column_machine(header: str) -> str | None:
    """The one machine a value column's ``header`` names (module doc), written with its vendor as
    ``draftnames`` writes hardware ("3090Ti" -> "NVIDIA GeForce RTX 3090 Ti"), or None where it
    names none or several.  A card by its number alone counts where it is the header's whole last
    part after a label ("V1: 3090Ti", "4090"), as ``draftnames.hardware_of`` reads a cell."""
    text = header.strip().strip("*_`").strip()
    named = {str(m.value) for m in mentions(text) if m.path == "hardware"}
    if len(named) > 1:
        return None
    if named:
        return named.pop()
    last = re.split(r"[:：]", _PAREN.sub(" ", text))[-1].strip()
    if not last or re.search(r"\bvs\.?\b|/|\+|&|\band\b", last, re.IGNORECASE):
        return None
    return hardware_of(last)

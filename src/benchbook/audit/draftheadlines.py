"""A title's or heading's relating phrase whose sides the body states after it (issue 29's statements).

A post often opens with its result ("# Prompt eval is 5x slower than in Ollama", "## 3x faster
generation with speculative decoding") and gives the numbers below.  Read in order, the headline
finds no claims to relate and was drafted as a claim of the multiple or change; the body's own
phrase then relates the pair.  The headline states that same relation first: it becomes a statement
citing the sides the body's statement found (same kind, value and unit; the first such statement
after it), and its claim is taken back.  A headline no later statement repeats stays a claim.  A
summary sentence before the body ("TL;DR: 2.35x the throughput of vLLM") is one too where its digits
are precise enough to name one relation (two or more: "2.35x", "36%"; not "2x").

``find_restating`` is pure over the drafted entries; ``Sides.phrase_claim`` records the headline
claims (``DraftCore.headline_claims``) and ``draft._Drafter`` calls ``headline_statements`` at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .draftcore import DraftCore, Entry, source_fields

#: the claim metric of a relating phrase drafted with no sides -> the statement kind and unit that
#: state the same relation ("speedup" 3x: a ratio of 3 in x)
KIND_OF_METRIC = {
    "speedup": ("ratio", "x"),
    "slowdown": ("ratio", "x"),
    "speed_change": ("percent_change", "%"),
    "decode_change": ("percent_change", "%"),
    "prefill_change": ("percent_change", "%"),
    "change": ("percent_change", "%"),
}


def _num(v: Any) -> float | None:
    try:
        return float(str(v))
    except ValueError:
        return None


def find_restating(claim: dict[str, Any], statements: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first of ``statements`` (the fields of drafted statements, post order) after the headline
    claim ``claim`` (its fields: ``metric``, ``value`` or ``range``, ``source_line``) that states the
    same relation: the kind and unit ``KIND_OF_METRIC`` gives for its metric, the same value (or
    range), two sides; None where there is none or the metric is no relation's."""
    kind_unit = KIND_OF_METRIC.get(str(claim.get("metric")))
    line = claim.get("source_line")
    if kind_unit is None or not isinstance(line, int):
        return None
    kind, unit = kind_unit
    want = _num(claim.get("value")) if claim.get("value") is not None else None
    want_range = tuple(_num(x) for x in claim["range"]) if claim.get("range") else None
    for s in statements:
        if s.get("kind") != kind or (s.get("unit") or "x") != unit or len(s.get("of") or []) != 2:
            continue
        if not isinstance(s.get("source_line"), int) or s["source_line"] <= line:
            continue
        got = _num(s.get("value")) if s.get("value") is not None else None
        got_range = tuple(_num(x) for x in s["range"]) if s.get("range") else None
        if (want is not None and got == want) or (want_range is not None and got_range == want_range):
            return s
    return None


def headline_statements(core: DraftCore, drop_claim: Callable[[str], None]) -> None:
    """Each headline claim of ``core`` (``headline_claims``: a multiple or change drafted with no
    sides from a title or heading, or elsewhere with two digits or more: a summary before the body)
    that a later statement of the post states again (``find_restating``) becomes a statement citing
    that statement's sides, where it stands; the claim is taken back (``drop_claim``:
    ``Sides.drop_claim``)."""
    statements = [e.fields for e in core.out.entries if e.kind == "statement"]
    for cid in core.headline_claims:
        entry = core.claims.get(cid)
        if entry is None:
            continue
        later = find_restating(entry.fields, statements)
        if later is None:
            continue
        sid = core.new_id(f"s-l{entry.fields['source_line']}")
        fields = {
            "id": sid,
            "kind": later["kind"],
            "statement": entry.fields.get("quote") or "",
            "of": list(later["of"]),
            **{k: entry.fields[k] for k in ("value", "range", "about") if k in entry.fields},
            "unit": later.get("unit") or "x",
            "note": f"a headline: the sides of the same relation stated on line {later['source_line']}",
            **source_fields(entry.fields["source_line"], str(entry.fields.get("quote") or "")),
        }
        at = core.out.entries.index(entry)
        drop_claim(cid)
        core.out.entries.insert(at, Entry("statement", sid, fields))

"""What a whole source rests on: the summary at the top of its audit page.

``standing(cf, verdicts)`` counts, over the claims file: the published numbers and how many are
approximate ("about", or a range; and the statements stated "about"), who published them (the
source itself, or whom it quotes: ``origin``), for how many an n is stated (unknown for most
write-ups), and which of the source's conclusions (its statements) rest *only* on claims that are
at risk or unsupported (every claim under the statement, through the statements it cites, carries
such a qualifier).  What kind of
source it is comes from ``schema.Source``: its ``kind`` (blog post, vendor page, forum post...) and
``summary_of`` (a summary or report of another publication: second-hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import caveats
from .schema import ClaimsFile
from .tables import OWN_SOURCE
from .verdicts import AT_RISK, UNSUPPORTED, Verdict


@dataclass(frozen=True)
class Conclusion:
    """A statement whose every claim is at risk or unsupported: its id, words and the claims with
    their qualifier kinds (``"ds-code-win (at risk)"``)."""

    id: str
    text: str
    claims: list[str]


@dataclass(frozen=True)
class Standing:
    """The counts of ``standing`` (module doc).  ``sources``: who published the numbers, in file
    order, each with its count (``"the source"`` for the source's own)."""

    kind: str
    summary_of: str | None
    numbers: int
    approximate: int
    approximate_statements: int
    ranges: int
    sources: list[tuple[str, int]]
    n_stated: int
    n_below_min: int
    runs_per_prompt: int | None
    weak_only: list[Conclusion]

    @property
    def n_unknown(self) -> int:
        return self.numbers - self.n_stated


def _claims_under(sid: str, by_id: dict[str, Verdict]) -> set[str]:
    """Claim ids a statement verdict read, through the statements it cites (their ``evidence``); the
    walk is kept on a list, not the call stack (any depth of citation)."""
    out: set[str] = set()
    todo, seen = list(by_id[sid].evidence), {sid}
    while todo:
        ref = todo.pop()
        v = by_id.get(ref)
        if v is None or ref in seen:
            continue
        seen.add(ref)
        if v.kind == "statement":
            todo += v.evidence
        else:
            out.add(ref)
    return out


def _weak_statements(by_id: dict[str, Verdict], weak: Mapping[str, Sequence[str]]) -> set[str]:
    """The statement ids whose claims (``_claims_under``) are all weak and at least one: each found
    from the statements it cites, found first (linear in the verdicts, any depth of citation)."""
    state: dict[str, tuple[bool, bool]] = {}  # statement -> (rests on a claim, every such claim weak)
    for root in by_id:
        walk = [(root, False)]
        while walk:
            sid, ready = walk.pop()
            v = by_id[sid]
            if v.kind != "statement" or (sid in state and not ready):
                continue
            if not ready:
                state[sid] = (False, True)  # provisional: a cycle (refused at load) reads as nothing
                walk.append((sid, True))
                walk += [(r, False) for r in v.evidence if r in by_id and r not in state]
                continue
            has, all_weak = False, True
            for ref in v.evidence:
                x = by_id.get(ref)
                if x is None or ref == sid:
                    continue
                h, w = state[ref] if x.kind == "statement" else (True, bool(weak.get(ref)))
                has, all_weak = has or h, all_weak and w
            state[sid] = (has, all_weak)
    return {sid for sid, (has, all_weak) in state.items() if has and all_weak}


def standing(cf: ClaimsFile, verdicts: list[Verdict]) -> Standing:
    """The summary of what ``cf``'s source rests on (module doc), from its verdicts."""
    numbered = [c for c in cf.claims if c.value is not None or c.range is not None]
    sources: dict[str, int] = {}
    for c in numbered:
        who = c.origin or OWN_SOURCE
        sources[who] = sources.get(who, 0) + 1
    by_id = {v.id: v for v in verdicts if v.kind in ("claim", "statement")}
    weak = {
        v.id: sorted({q.kind for q in v.qualifiers if q.kind in (AT_RISK, UNSUPPORTED)})
        for v in verdicts
        if v.kind == "claim"
    }
    weak_only = []
    weak_ids = _weak_statements(by_id, weak)
    for s in cf.statements:
        if s.id not in weak_ids:
            continue
        under = sorted(_claims_under(s.id, by_id))
        if under and all(weak.get(c) for c in under):
            weak_only.append(Conclusion(s.id, s.statement, [f"{c} ({', '.join(weak[c])})" for c in under]))
    min_n = caveats.DEFAULTS["min_n"]
    return Standing(
        kind=cf.source.kind,
        summary_of=cf.source.summary_of,
        numbers=len(numbered),
        approximate=sum(c.about for c in numbered),
        approximate_statements=sum(s.about for s in cf.statements),
        ranges=sum(c.range is not None for c in numbered),
        sources=list(sources.items()),
        n_stated=sum(c.n is not None for c in numbered),
        n_below_min=sum(c.n is not None and c.n < min_n for c in numbered),
        runs_per_prompt=cf.source.runs_per_prompt,
        weak_only=weak_only,
    )

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


def _claims_under(sid: str, by_id: dict[str, Verdict], seen: set[str] | None = None) -> set[str]:
    """Claim ids a statement verdict read, through the statements it cites (their ``evidence``)."""
    seen = seen if seen is not None else set()
    out: set[str] = set()
    for ref in by_id[sid].evidence:
        v = by_id.get(ref)
        if v is None or ref in seen:
            continue
        seen.add(ref)
        out |= _claims_under(ref, by_id, seen) if v.kind == "statement" else {ref}
    return out


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
    for s in cf.statements:
        if s.id not in by_id:
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

"""The audit page of one claims file, and the index of all audits (Quarto/smalldocs ``.qmd``).

A page holds: the source (kind, date, language, link as text), what the whole source rests on
(``standing``: approximate values, who published the numbers, stated n, the conclusions that rest
only on claims at risk or unsupported), a summary of what each of the source's conclusions (its
statements) rests on (each with the sentence it quotes), the relations a draft could not tie to
their numbers (``todo``), and the table of every claim, statement and log entry with the source's
words it judges (``source_line`` and ``quote``: the sentence or table row) and, for a claim, the
conditions it is stated under (``conditions_line``: a draft's guesses shown), its consistency verdict,
qualifiers (kind, reason, evidence), notes and whether it is reproducible here.  Every text that
comes from a claims file or a log is untrusted: it is written only inside a raw HTML block and
escaped with ``escape.html_text`` (HTML, backticks, newlines), so no claim can inject markup,
Markdown or a shortcode; anchors and hrefs are built from ids reduced to ``[a-z0-9-]``, made
distinct (``anchors``).
"""

from __future__ import annotations

import re

from .. import caveats
from ..escape import code_span
from ..escape import html_text as _esc
from ..numfmt import counted
from .delta import NONE, consistency_text, delta
from .schema import Claim, ClaimsFile, Statement, Todo
from .standing import Standing, standing
from .verdicts import Verdict

VERDICT_CLASS = {"consistent": "bb-ok", "inconsistent": "bb-bad", "not checkable": "bb-none"}


def anchor(vid: str) -> str:
    """Anchor of a verdict row: ``v-`` + the id lowercased with every run of other characters than
    ``[a-z0-9]`` turned into ``-`` (``stmt-2.4x-5070ti`` -> ``v-stmt-2-4x-5070ti``)."""
    return "v-" + (re.sub(r"[^a-z0-9]+", "-", vid.lower()).strip("-") or "id")


def anchors(ids: list[str]) -> dict[str, str]:
    """``{id: anchor}`` of a page's verdict ids, every anchor distinct: ``anchor(id)``, and where
    several ids reduce to one (``stmt-2.4x`` and ``STMT-2-4x``; ``τ`` and ``α``, both ``v-id``) the
    later ones get ``-2``, ``-3``... in page order, never another id's own anchor.  Without this two
    rows had one ``id`` and a link to the second led to the first."""
    bases = {i: anchor(i) for i in ids}
    taken = set(bases.values())
    used: set[str] = set()
    out: dict[str, str] = {}
    for i in ids:
        if i in out:
            continue
        cand, n = bases[i], 2
        while cand in used or (cand != bases[i] and cand in taken):
            cand, n = f"{bases[i]}-{n}", n + 1
        used.add(cand)
        out[i] = cand
    return out


def _evidence(items: list[str], ids: dict[str, str]) -> str:
    """The ids ``items`` as links to their rows (a code span where the page has none), each once."""
    return ", ".join(
        f'<a href="#{ids[x]}">{_esc(x)}</a>' if x in ids else f"<code>{_esc(x)}</code>"
        for x in dict.fromkeys(items)
    )


def _qualifiers(v: Verdict, ids: dict[str, str]) -> str:
    if not v.qualifiers:
        return "—"
    return (
        "<ul>"
        + "".join(
            f"<li><b>{_esc(q.kind)}</b> ({_esc(q.check)}): {_esc(q.reason)}"
            f"{' — ' + _evidence(q.evidence, ids) if q.evidence else ''}</li>"
            for q in v.qualifiers
        )
        + "</ul>"
    )


def _compared(v: Verdict, bound: bool = False) -> str:
    """Stated, recomputed and their difference (absolute and %), as ``benchbook audit`` prints them
    (``delta``; ``bound``: a bound statement, its margin without a %); the distance outside the stated
    precision where the verdict is inconsistent."""
    d = delta(v, bound)
    if d.recomputed == NONE:
        return ""
    text = f"<br>stated {_esc(d.stated)}, recomputed {_esc(d.recomputed)}"
    if d.absolute != NONE:
        rel = f" ({_esc(d.relative)})" if d.relative != NONE else ""
        text += f"<br>{'margin to the bound' if bound else 'difference'} {_esc(d.absolute)}{rel}"
    if v.consistency == "inconsistent" and v.severity is not None:
        text += f"<br><b>{_esc(consistency_text(v).removeprefix(v.consistency).strip(' ()'))}</b>"
    elif v.difference is not None and v.consistency == "inconsistent":
        text += f"; outside the stated precision by {_esc(f'{v.difference:+.4g}')} {_esc(v.unit or '')}"
    return text


def quoted(item: Claim | Statement | Todo | None) -> str:
    """The source's words an entry judges, as the page shows them beside its verdict: ``line N``
    and the quoted sentence or table row (``source_line``, ``quote``), escaped; "" when the entry
    states neither."""
    if item is None or (item.quote is None and item.source_line is None):
        return ""
    at = f"line {item.source_line}" if item.source_line is not None else "the source"
    words = f": <q>{_esc(item.quote)}</q>" if item.quote else ""
    guess = " <i>(drafted, not reviewed)</i>" if not item.reviewed else ""
    return f'<br><small class="bb-source">{at}{words}{guess}</small>'


def _same(drafted: object, now: object) -> bool:
    """Whether a condition still holds the value the draft gave it (names compared case-blind)."""
    return str(drafted).strip().lower() == str(now).strip().lower()


def conditions_line(cf: ClaimsFile, claim: Claim) -> str:
    """The conditions a claim is stated under, as its row shows them below the source's words:
    ``ClaimsFile.conditions_of`` (the file's and its group's defaults filled in), one
    ``name: value`` per stated field in the schema's order, ``offload`` and ``other`` key by key
    (``offload.n_gpu_layers: 99``, ``other.draft_model: 0.5B``), escaped; "" when it states none.
    A drafted claim's conditions are the drafter's guesses (issue 29): showing them is how a reader
    spots a wrong one without opening the YAML.  Of a claim not yet reviewed, a condition its own
    words do not state says where the draft took it from (``draft.conditions_from``: "(line 3,
    setup)", "(guess: the post names no speculative decoding)"), while it holds the value drafted."""
    cond = cf.conditions_of(claim).model_dump(exclude_none=True)
    came = cf.draft.conditions_from.get(claim.id, {}) if cf.draft is not None and not claim.reviewed else {}
    parts: list[str] = []
    for name, value in cond.items():
        items = value.items() if isinstance(value, dict) else [(None, value)]
        for k, v in items:
            if v is None:
                continue
            path = name if k is None else f"{name}.{k}"
            drafted = came.get(path)
            where = f" ({drafted[1]})" if drafted is not None and _same(drafted[0], v) else ""
            parts.append(f"{path}: {str(v).lower() if isinstance(v, bool) else v}{where}")
    if not parts:
        return ""
    return f'<br><small class="bb-conditions">conditions: {_esc(" · ".join(parts))}</small>'


def _row(
    v: Verdict, ids: dict[str, str], bounds: frozenset[str] = frozenset(), cf: ClaimsFile | None = None
) -> str:
    rec = _compared(v, v.kind == "statement" and v.id in bounds)
    claim = cf.claim(v.id) if cf is not None else None
    source = quoted(claim or (cf.statement(v.id) if cf is not None else None))
    if cf is not None and claim is not None:
        source += conditions_line(cf, claim)
    arith = f"<br><small>{_esc(v.arithmetic)}</small>" if v.arithmetic else ""
    notes = (
        "<br>".join([*(f"<b>unsaid</b>: {_esc(u)}" for u in v.unsaid), *(_esc(n) for n in v.notes)]) or "—"
    )
    rep = "yes" if v.reproducible.here else "no: " + "; ".join(_esc(m) for m in v.reproducible.missing)
    return (
        f'<tr id="{ids[v.id]}"><td><code>{_esc(v.id)}</code><br><small>{_esc(v.kind)}</small></td>'
        f"<td>{_esc(v.text)}{source}</td>"
        f'<td class="{VERDICT_CLASS[v.consistency]}">{_esc(v.consistency)}{rec}{arith}</td>'
        f"<td>{_qualifiers(v, ids)}</td><td><small>{notes}</small></td>"
        f"<td><small>{rep}</small></td></tr>"
    )


def _rests_on(
    verdicts: list[Verdict],
    ids: dict[str, str],
    weak_only: frozenset[str] = frozenset(),
    cf: ClaimsFile | None = None,
) -> str:
    """One item per statement: its verdict, what it rests on, its qualifiers, what the source leaves
    unsaid beside it, and whether it rests only on claims at risk or unsupported (``weak_only``)."""
    stmts = [v for v in verdicts if v.kind == "statement"]
    if not stmts:
        return "<p>The file states no derived statements.</p>"
    items = []
    for v in stmts:
        quals = "; ".join(f"{q.kind}: {q.reason}" for q in v.qualifiers) or "no qualifier"
        unsaid = "".join(f"; unsaid: {_esc(u)}" for u in v.unsaid)
        only = "; <b>rests only on claims at risk or unsupported</b>" if v.id in weak_only else ""
        items.append(
            f'<li><a href="#{ids[v.id]}">{_esc(v.text)}</a> — <b>{_esc(v.consistency)}</b>'
            f"{' (recomputed ' + _esc(v.recomputed) + ')' if v.recomputed else ''}; rests on "
            f"{_evidence(v.evidence or _cited(cf, v.id), ids) or 'no claim of the file'}; "
            f"{_esc(quals)}{unsaid}{only}"
            f"{quoted(cf.statement(v.id)) if cf is not None else ''}</li>"
        )
    return "<ul>" + "".join(items) + "</ul>"


def _cited(cf: ClaimsFile | None, sid: str) -> list[str]:
    """What statement ``sid`` cites (its ``of``), for one whose recompute read no claim (not
    checkable: "rests on" names what the file says it rests on); none without the file."""
    stmt = cf.statement(sid) if cf is not None else None
    return list(stmt.of) if stmt is not None else []


def _todo(cf: ClaimsFile, ids: dict[str, str]) -> str:
    """The relating phrases a draft could not tie to their sides (``todo``): not audited until the
    file names them; each with its candidates and the source's words."""
    if not cf.todo:
        return ""
    items = "".join(
        f"<li><code>{_esc(t.id)}</code>: {_esc(t.statement)} — <b>not audited</b>: {_esc(t.todo)}; "
        f"candidates: {_evidence(t.of, ids) or 'none'}{quoted(t)}</li>"
        for t in cf.todo
    )
    return f"\n<h2>Relations not yet tied to their numbers (todo)</h2>\n<ul>{items}</ul>"


def _a(word: str) -> str:
    """The article before ``word`` by its first letter: "an issue", "an update", "a blog post", "a
    user", "a unit" (a source kind is a word a person wrote: no rule for acronyms)."""
    w = word.strip().lower()
    return "an" if w[:1] in ("a", "e", "i", "o") or (w[:1] == "u" and not w.startswith(("us", "un"))) else "a"


def _whole_source(st: Standing, ids: dict[str, str]) -> str:
    """The "what the whole source rests on" list (``standing``)."""
    hand = (
        f"{_a(st.kind)} {st.kind} summarising {st.summary_of} (second-hand)"
        if st.summary_of
        else f"{_a(st.kind)} {st.kind}, publishing its own numbers or quoting others by name (first-hand)"
    )
    who = "; ".join(f"{name} ({counted(n, 'number')})" for name, n in st.sources) or "none"
    runs = (
        f"; runs per prompt stated for the source's own: {st.runs_per_prompt}" if st.runs_per_prompt else ""
    )
    if st.weak_only:
        weak = (
            "<ul>"
            + "".join(
                f'<li><a href="#{ids[c.id]}">{_esc(c.text)}</a> — rests on '
                f"{_esc(', '.join(c.claims) or 'no claim of the file')}</li>"
                for c in st.weak_only
                if c.id in ids
            )
            + "</ul>"
        )
    else:
        weak = " none"
    return (
        "<ul>"
        f"<li>source: {_esc(hand)}</li>"
        f"<li>numbers: {_esc(counted(st.numbers, 'published number'))}, {st.approximate} stated as "
        "approximate "
        f'("about"), {st.ranges} as ranges; {_esc(counted(st.approximate_statements, "statement"))} '
        "stated as approximate</li>"
        f"<li>published by: {_esc(who)}</li>"
        f"<li>n: stated for {st.n_stated} of {st.numbers} numbers, unknown for {st.n_unknown}; "
        f"{st.n_below_min} below {caveats.DEFAULTS['min_n']} runs{_esc(runs)}</li>"
        f"<li>conclusions resting only on claims at risk or unsupported:{weak}</li>"
        "</ul>"
    )


def _counts(verdicts: list[Verdict]) -> str:
    """The page's tally: each entry's one verdict ("consistent: 2, not checkable: 11 (13 entries)"),
    then the entries carrying each qualifier ("at risk: 1"), which adds to no total: an entry has one
    verdict and any number of qualifiers (docs/claims.md)."""
    verdict: dict[str, int] = {}
    qualified: dict[str, int] = {}
    for v in verdicts:
        verdict[v.consistency] = verdict.get(v.consistency, 0) + 1
        for kind in {q.kind for q in v.qualifiers}:
            qualified[kind] = qualified.get(kind, 0) + 1
    n = len(verdicts)
    out = "Verdicts: " + (", ".join(f"{k}: {c}" for k, c in sorted(verdict.items())) or "none")
    out += f" ({n} {'entry' if n == 1 else 'entries'})."
    if qualified:
        out += " Entries qualified (an entry may carry several qualifiers, or none): "
        out += ", ".join(f"{k}: {c}" for k, c in sorted(qualified.items())) + "."
    return out


def render(
    cf: ClaimsFile,
    verdicts: list[Verdict],
    filename: str,
    claims_path: str | None = None,
    records: str = "reports/audit/",
) -> str:
    """The ``.qmd`` text of one audit page (module doc).  ``claims_path``: the claims file as the command
    named it, for a file audited on its own (``benchbook audit X.yaml``: its page names that file and
    ``records``, and has no audits index to link to); None for the ``audit`` stage's pages
    (``data/claims/<filename>``, linked to the site's audits index)."""
    ids = anchors([v.id for v in verdicts])
    s = cf.source
    facts = [
        ("kind", s.kind),
        ("date", s.date),
        ("language", s.language),
        ("title", s.title),
        ("author", s.author),
        ("link", s.link),
        ("note", s.note),
    ]
    source = "".join(f"<li>{_esc(k)}: {_esc(v)}</li>" for k, v in facts if v)
    bounds = frozenset(st.id for st in cf.statements if st.kind == "bound")
    rows = "\n".join(_row(v, ids, bounds, cf) for v in verdicts)
    whole = standing(cf, verdicts)
    slugged = re.sub(r"[^A-Za-z0-9._-]", "-", filename)
    if claims_path is None:
        header = (
            f"Generated by `benchbook audit` from `data/claims/{slugged}`; verdict records in\n"
            f"`{records}`. How to read a verdict: see the [audits index](index.qmd)."
        )
    else:  # a path the user gave: any text, shown literally (escape.code_span)
        header = (
            f"Generated by `benchbook audit` from {code_span(claims_path)}; verdict records in "
            f"{code_span(records)}. "
            "How to read a verdict: `docs/claims.md` of benchbook."
        )
    return f"""---
title: "Audit: {slugged}"
---

{header}

```{{=html}}
<h2>Source</h2>
<ul>{source}</ul>
<h2>What the whole source rests on</h2>
{_whole_source(whole, ids)}
<h2>What the conclusions rest on</h2>
{_rests_on(verdicts, ids, frozenset(c.id for c in whole.weak_only), cf)}{_todo(cf, ids)}
<p>{_esc(_counts(verdicts))}</p>
<h2>Every claim</h2>
<div class="table-responsive bb-audit-wrap">
<table class="table table-sm bb-audit">
<thead><tr><th>id</th><th>claim</th><th>verdict</th><th>qualifiers</th><th>notes</th>
<th>reproducible here</th></tr></thead>
<tbody>
{rows}
</tbody></table>
</div>
```
"""


def index(audits: list[tuple[str, ClaimsFile, list[Verdict]]]) -> str:
    """The ``.qmd`` text of the audits index: one line per claims file, and how to read a verdict."""
    items = "".join(
        f'<li><a href="{_esc(slug)}.html">{_esc(slug)}</a> — {_esc(cf.source.kind)}'
        f"{', ' + _esc(cf.source.date) if cf.source.date else ''}: {_esc(_counts(v))}</li>"
        for slug, cf, v in audits
    )
    return f"""---
title: "Audits"
---

Other people's published numbers, transcribed into `data/claims/*.yaml` and audited by
`benchbook audit`. Each claim and statement gets a consistency verdict (**consistent**: recomputed
within the stated precision; **inconsistent**: with the recomputed value and the difference;
**not checkable**: nothing to recompute from), zero or more qualifiers (**unsupported**: something
the claim needs is absent; **not comparable**: different methods, phases, hardware, environments,
builds or sources; **at risk**: cap hit, cold first run, a cliff at the memory limit, memory at its stated
capacity beside a slower row, a count above its own stated limit, n below 3, acceptance without
speedup), notes for what the source does not state ("not stated" is never "different"), what it
leaves unsaid beside the verdicts it weakens, and whether it could be re-measured here.

```{{=html}}
<ul>{items}</ul>
```
"""

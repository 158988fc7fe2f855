"""What ``benchbook audit`` prints for one audited claims file: a header line naming the claims file
and the records it was checked against, then a tab-separated table with one row per claim,
statement and log entry: id, kind, stated, recomputed, difference (absolute and %: ``delta``),
verdict (consistency, each qualifier with its whole reason, and what the source leaves unsaid that
weakens it) and whether it is reproducible here.

The records a claims file is checked against: its own claims (a statement is recomputed from the
claims it cites), the raw logs of ``--logs DIR`` (each log entry and each claim with ``log:``), and
for "reproducible here" this project's build, GPUs and model registry (``verdicts.Here``, from
``params.yaml`` where the command runs).
"""

from __future__ import annotations

from ..escape import visible_controls
from ..numfmt import counted
from .delta import consistency_text, delta
from .run import LOGS_SUFFIX, Audit
from .verdicts import Here

#: the table's column names, in order (the second line of each file's block)
COLUMNS = ("id", "kind", "stated", "recomputed", "difference", "difference %", "verdict", "reproducible here")


def checked_against(audit: Audit) -> str:
    """The records ``audit`` was checked against, in words: ``"its own 33 claims; no raw logs
    (--logs DIR not given, no blog.logs/ beside it)"`` or ``"its own 33 claims; 3 log entries of 2
    files in logs/ (1 file not read)"``."""
    own = f"its own {counted(len(audit.claims.claims), 'claim')}"
    if audit.logs is None:
        return f"{own}; no raw logs (--logs DIR not given, no {audit.path.stem}{LOGS_SUFFIX}/ beside it)"
    files = len({e.file for e in audit.logs.entries})
    skipped = len(audit.logs.skipped)
    lines = len(audit.logs.lines_not_read)
    not_read = ", ".join(
        x
        for x in (
            f"{counted(skipped, 'file')} not read" if skipped else "",
            f"{counted(lines, 'line')} not read" if lines else "",
        )
        if x
    )
    not_read = f" ({not_read})" if not_read else ""
    return (
        f"{own}; {len(audit.logs.entries)} log entr{'y' if len(audit.logs.entries) == 1 else 'ies'} of "
        f"{counted(files, 'file')} "
        f"in {audit.logs_dir}/{not_read}"
    )


def header(audit: Audit, here: Here, here_from: str) -> str:
    """The first line of a file's block: the claims file, what it holds, the records it was checked
    against and what "reproducible here" was judged against (``here_from``: where ``here`` came from,
    e.g. ``"params.yaml"``)."""
    cf = audit.claims
    gpus = ", ".join(here.gpus) or "CPU only"
    holds = f"{counted(len(cf.claims), 'claim')}, {counted(len(cf.statements), 'statement')}"
    if cf.todo:
        todo = ", ".join(t.id for t in cf.todo)
        holds += f", {counted(len(cf.todo), 'todo statement')} not audited ({todo})"
    return (
        f"audit of {audit.path} ({holds}) "
        f"checked against {checked_against(audit)}; reproducible here: {here.build}, {gpus} ({here_from})"
    )


#: control characters that would break a tab-separated row, and what a cell shows instead
_CONTROL = {9: "\\t", 10: "\\n", 13: "\\r"}


def cell(text: str) -> str:
    """``text`` as one cell of a tab-separated row: a tab, newline or carriage return in it (an id
    ``"b<TAB>c"`` quoted in a claims file) is shown as ``\\t``, ``\\n``, ``\\r``, so every row keeps
    its columns (``"b\\tc"``, not the two cells ``b`` and ``c``); any other control or bidirectional
    character (an escape sequence in a claim id, a right-to-left override) is shown as its code point
    (``escape.visible_controls``), so no value drives the terminal or re-orders the row."""
    return visible_controls(text.translate(_CONTROL))


def verdict_text(consistency: str, qualifiers: list[str]) -> str:
    """``consistent | not comparable: methods: real prompt generation vs llama-bench tg128``: the
    consistency, then each qualifier (``qualifier_text``) and each ``unsaid:`` note, joined by `` | ``
    (a reason may hold ``;`` itself)."""
    return " | ".join([consistency, *qualifiers])


def qualifier_text(kind: str, reason: str) -> str:
    """One qualifier in a row: its kind and its whole reason (``at risk: n = 1: below 3 runs...``),
    never the check's id alone (``unsupported (needs)`` did not say what was needed)."""
    return f"{kind}: {reason}"


def lines(audit: Audit, here: Here, here_from: str) -> list[str]:
    """The header, the column names and one tab-separated row per verdict of ``audit`` (module doc)."""
    out = [cell(header(audit, here, here_from)), "\t".join(COLUMNS)]
    bounds = {st.id for st in audit.claims.statements if st.kind == "bound"}
    for v in audit.verdicts:
        d = delta(v, bound=v.kind == "statement" and v.id in bounds)
        quals = [qualifier_text(q.kind, q.reason) for q in v.qualifiers]
        quals += [f"unsaid: {u}" for u in v.unsaid]
        cells = [
            v.id,
            v.kind,
            d.stated,
            d.recomputed,
            d.absolute,
            d.relative,
            verdict_text(consistency_text(v), quals),
            "yes" if v.reproducible.here else "no",
        ]
        out.append("\t".join(cell(c) for c in cells))
    return out

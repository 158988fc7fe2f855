"""The depth sweep's sessions per host, as the page states them: which session is published, which
passed the checks but is older, which failed them and which never ended, generated from the session
records (``measured.check`` and ``measured.select``, the ``spec_depth`` policy) so that the page's
prose cannot go stale when a host measures again.

Writes nothing itself: ``report.build`` writes ``sessions_markdown``'s text to
``reports/spec_depth/sessions.md``, included at the top of ``spec_depth.qmd``.
"""

from __future__ import annotations

from pathlib import Path

from benchbook import measured
from benchbook.escape import code_span, minute_text

from . import EXPERIMENT
from .runlabels import planned


def session_states(raw: Path) -> dict[str, list[tuple[measured.SessionCheck, str]]]:
    """``{host_id: [(check, state), ...]}`` for every spec_depth session under ``raw/spec_depth``, newest
    first per host, ``state`` one of ``"published"`` (what the ``spec_depth`` policy publishes,
    ``measured.select``: the host's newest session that passes the checks, what the page's tables show),
    ``"older"`` (passes, but a newer one is published), ``"failed"`` (ended, fails a check: its reasons
    are in ``check.reasons``) and ``"unfinished"`` (a start record and no end record; never published).
    Sessions whose start record names no host are left out.

    Raises:
        records.RecordError: a line of a file is not JSON (file:line).
    """
    chosen = measured.select(
        EXPERIMENT, measured.check(EXPERIMENT, Path(raw) / EXPERIMENT, planned(Path(raw) / "snapshots"))
    )
    published = {c.session_id for c in chosen.published}
    out: dict[str, list[tuple[measured.SessionCheck, str]]] = {}
    for c in sorted(chosen.checks.values(), key=lambda c: measured.parse_utc(c.started_at), reverse=True):
        if c.host_id is None:
            continue
        state = (
            "unfinished"
            if not c.ended
            else "published"
            if c.session_id in published
            else "older"
            if c.ok
            else "failed"
        )
        out.setdefault(c.host_id, []).append((c, state))
    return dict(sorted(out.items()))


_SAYS = {
    "published": "published: the host's newest session that passes the checks; the tables below are its",
    "older": "complete and passes the checks; not published, a newer session of this host is",
    "failed": "ended but fails the checks; not published",
    "unfinished": "no end record: it did not complete, so it is never published",
}


def _minute(at: str) -> str:
    """``2026-12-01T04:21:38.357243Z`` → ``2026-12-01 04:21``."""
    return at[:16].replace("T", " ")


def sessions_markdown(states: dict[str, list[tuple[measured.SessionCheck, str]]]) -> str:
    """Markdown: per host (``session_states``), each session with its start and last times and what the
    page does with it (``_SAYS``).  No session: a line saying so.

    >>> sessions_markdown({})
    'No spec_depth session is recorded.\\n'
    """
    if not states:
        return "No spec_depth session is recorded.\n"
    lines = []
    for host, checks in states.items():
        lines.append(f"- host {code_span(host[:8])}:")
        for c, state in checks:
            when = f"{minute_text(c.started_at)} to {minute_text(c.ended_at)} UTC"
            lines.append(f"  - session {code_span(c.session_id[:8])} ({when}): {_SAYS[state]}")
    return "\n".join(lines) + "\n"

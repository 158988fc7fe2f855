"""What a session's records prove: measured inside the session, complete, labelled by the record.

A report publishes a session's numbers only when its records show they were measured in that
session and that none is missing (DESIGN.md, "Records"; issue 13 §1):

* **inside the session**: every run's ``started_at``/``ended_at`` lie between the session's start and
  end records, and every llama-bench row's ``test_time`` lies inside its own invocation.  llama-bench
  prints ``test_time`` truncated to the second, so the lower bound is the invocation's start truncated
  to the second (a row stamped 12:40:59Z in an invocation that starts at 12:40:59.504Z is measured
  there).  A row replayed from an earlier run (its ``test_time`` minutes before the session) fails.
* **samples within the wall time**: the ``samples_ns`` of all rows of one invocation (one ``run_id``)
  sum to no more than the invocation's recorded wall time (``wall_ns``, else ``ended_at −
  started_at``).  29 ms of wall time cannot hold 2.6 s of samples.  The same holds for any record's
  timed spans (``recorded_ns``: a server request's timings, a draft-self run's passes).
* **complete**: every run group has the rows its argv asks for (``expected_rows``) and ``rows_total``;
  no run of the session failed; and the runs the session's start record plans are all there
  (``expected_runs``, given by the experiment).

``check_sessions`` returns one ``SessionCheck`` per session with an end record.  Which of the passing
sessions a report publishes is declared once, in ``POLICIES`` (one ``Policy`` per published table:
which hosts, which sessions, the measurement kinds, whether the start record plans the runs, whether a
failed run is a fault), and applied by one function, ``select``; ``check`` runs ``check_sessions`` the
way a policy says.  A page states the reasons of every session it skipped (``skipped_markdown``).
``cache_label`` derives the label of a cold run from what its record proves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from . import migrations
from .escape import code_span, markdown_text
from .records import read_records

#: llama-bench options that take a comma-separated list and multiply the test matrix (llama.cpp
#: ``tools/llama-bench/llama-bench.cpp``, ``get_cmd_params_instances``: every combination is one instance).
_MATRIX_OPTIONS = {
    "-m": "-m", "--model": "-m",
    "-d": "-d", "--n-depth": "-d",
    "-t": "-t", "--threads": "-t",
    "-ngl": "-ngl", "--n-gpu-layers": "-ngl",
    "-ncmoe": "-ncmoe", "--n-cpu-moe": "-ncmoe",
    "-fa": "-fa", "--flash-attn": "-fa",
    "-ctk": "-ctk", "--cache-type-k": "-ctk",
    "-ctv": "-ctv", "--cache-type-v": "-ctv",
    "-b": "-b", "--batch-size": "-b",
    "-ub": "-ub", "--ubatch-size": "-ub",
    "-sm": "-sm", "--split-mode": "-sm",
    "-mg": "-mg", "--main-gpu": "-mg",
    "-nkvo": "-nkvo", "--no-kv-offload": "-nkvo",
    "-mmp": "-mmp", "--mmap": "-mmp",
    "-embd": "-embd", "--embeddings": "-embd",
    "-ts": "-ts", "--tensor-split": "-ts",
}  # fmt: skip


def expected_rows(argv: list[str]) -> int | None:
    """How many rows ``llama-bench -o jsonl`` prints for ``argv`` (``argv[0]`` the binary) when every
    test runs, or None when the argv uses a form this count does not read (a range such as
    ``-p 32-512*2``).

    llama-bench runs, for every combination of the list options (``_MATRIX_OPTIONS``), one pp test per
    non-zero ``-p`` value, one tg test per non-zero ``-n`` value and one test per ``-pg`` pair
    (``get_cmd_params_instances`` in ``tools/llama-bench/llama-bench.cpp``); defaults ``-p 512 -n 128``.

    >>> expected_rows(["llama-bench", "-m", "a.gguf", "-p", "128", "-n", "64", "-o", "jsonl"])
    2
    >>> expected_rows(["llama-bench", "-m", "a.gguf", "-p", "1,5,9", "-n", "64", "-t", "1,2"])
    8
    >>> expected_rows(["llama-bench", "-m", "a.gguf", "-p", "0", "-n", "64"])
    1
    """
    lists: dict[str, list[str]] = {}
    prompts, gens, pairs = ["512"], ["128"], []
    for opt, value in zip(argv[1:], argv[2:], strict=False):
        values = value.split(",")
        if opt != "-m" and any(re.fullmatch(r"\d+-\d+([+*]\d+)?", v) for v in values):
            return None
        if opt in ("-p", "--n-prompt"):
            prompts = values
        elif opt in ("-n", "--n-gen"):
            gens = values
        elif opt in ("-pg",):
            pairs.append(value)
        elif opt in _MATRIX_OPTIONS:
            lists.setdefault(_MATRIX_OPTIONS[opt], []).extend(values)
    try:
        tests = sum(int(v) != 0 for v in prompts) + sum(int(v) != 0 for v in gens) + len(pairs)
    except ValueError:
        return None
    combos = 1
    for values in lists.values():
        combos *= len(values)
    return tests * combos


def parse_utc(text: str) -> datetime:
    """A record's UTC ISO 8601 time (``2026-11-29T12:40:59.481193Z`` or ``...59Z``) as an aware datetime.

    Raises:
        ValueError: ``text`` is not ISO 8601 (the message quotes it).
    """
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (AttributeError, ValueError):
        raise ValueError(f"not an ISO 8601 UTC time: {text!r}") from None


def _floor_second(t: datetime) -> datetime:
    return t.replace(microsecond=0)


@dataclass
class SessionCheck:
    """One session with an end record and what its records prove.

    ``reasons``: one line per fault (empty: publishable), each naming file:line or run id and the rule;
    ``runs``: the run ids of its measurement records; ``started_at``/``ended_at``: its start and end
    records' ``at``; ``ended``: False for a session with no end record (``check_sessions(...,
    unfinished=True)``; its ``ended_at`` is then its last record's time); ``notes``: what the check
    corrected without failing the session (a duplicated line dropped, file:line), for the page."""

    session_id: str
    experiment: str
    host_id: str | None
    started_at: str
    ended_at: str
    file: str
    reasons: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    ended: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.reasons


def recorded_ns(rec: dict) -> float:
    """Nanoseconds a measurement record says were timed, by the fields it carries (0 with none):
    a llama-bench row's ``samples_ns`` (summed), a llama-server request's ``timings`` ``prompt_ms`` +
    ``predicted_ms``, a draft-self run's ``passes`` (``[kind, n_tokens, wall_ns]``, summed).  The
    default ``timed_ns`` of ``check_session``: a run's records cannot have timed more than its wall time.

    >>> recorded_ns({"llama_bench": {"samples_ns": [2, 3]}})
    5.0
    >>> recorded_ns({"timings": {"prompt_ms": 1.5, "predicted_ms": 2.0}})
    3500000.0
    >>> recorded_ns({"passes": [["prefill", 6, 10], ["draft", 9, 4]]})
    14.0
    """
    total = float(sum((rec.get("llama_bench") or {}).get("samples_ns") or []))
    timings = rec.get("timings") or {}
    total += 1e6 * float(timings.get("prompt_ms") or 0) + 1e6 * float(timings.get("predicted_ms") or 0)
    total += float(sum(p[2] for p in rec.get("passes") or []))
    return total


def _run_faults(
    recs: list[dict], start: datetime, end: datetime, timed_ns: Callable[[dict], float] = recorded_ns
) -> list[str]:
    """The faults of one run group (records sharing a ``run_id``), see the module docstring."""
    first = recs[0]
    where = f"{first['_file']}:{first['_line']} (run {first['run_id']})"
    out = []
    untimed = [r for r in recs if not (r.get("started_at") and r.get("ended_at"))]
    if untimed:
        return [
            f"{untimed[0]['_file']}:{untimed[0]['_line']} (run {first['run_id']}): no started_at/ended_at, "
            "so nothing shows it was measured in this session"
        ]
    # the run's span: its records' earliest start and latest end (llama-bench rows of one invocation
    # share both; the requests of one server each have their own)
    began = min((r["started_at"] for r in recs), key=parse_utc)
    finished = max((r["ended_at"] for r in recs), key=parse_utc)
    t0, t1 = parse_utc(began), parse_utc(finished)
    if t0 < _floor_second(start) or t1 > end:
        out.append(
            f"{where}: ran {began} .. {finished}, outside its session "
            f"({start.isoformat()} .. {end.isoformat()}): not measured in this session"
        )
    for r in recs:
        row = r.get("llama_bench") or {}
        if row.get("test_time"):
            tt = parse_utc(row["test_time"])
            if tt < _floor_second(t0) or tt > t1:
                before = (_floor_second(t0) - tt).total_seconds()
                when = f"{before / 60:.0f} min before" if before > 0 else "after"
                out.append(
                    f"{r['_file']}:{r['_line']}: test_time {row['test_time']} is {when} its invocation "
                    f"({began} .. {finished}): a replayed row, "
                    "not measured in this session"
                )
    sampled = sum(timed_ns(r) for r in recs)
    wall = first.get("wall_ns")
    if wall is None:
        wall = (t1 - t0) / timedelta(microseconds=1) * 1000
    if sampled > wall:
        out.append(
            f"{where}: its samples sum to {sampled / 1e9:.3f} s but the invocation's wall time is "
            f"{wall / 1e9:.3f} s: the samples were not measured by this invocation"
        )
    if recs[0].get("rows_total") is not None:
        total = max(r.get("rows_total") or 0 for r in recs)
        argv_rows = expected_rows(list(first.get("argv") or [])) if "llama_bench" in first else None
        want = max(total, argv_rows or 0)
        if len(recs) < want:
            out.append(
                f"{where}: {len(recs)} of the {want} rows its argv asks for (a lost row): an incomplete table"
            )
    return out


def check_session(
    session_id: str,
    experiment: str,
    host_id: str | None,
    started_at: str,
    ended_at: str,
    file: str,
    runs: dict[str, list[dict]],
    timed_ns: Callable[[dict], float] = recorded_ns,
    planned: set | None = None,
    have: set | None = None,
    failures: list[str] | None = None,
) -> SessionCheck:
    """One session's check from its facts (start and end times, the file of its start record) and its
    measurement records grouped by ``run_id`` (``runs``; each record with ``_file``/``_line``,
    ``started_at``/``ended_at``): every run inside the session, the time ``timed_ns(record)`` of a run's
    records within its wall time, its rows all there; ``planned`` − ``have`` (run labels the session
    planned, and those present) are missing runs; ``failures``: reasons of failed runs, stated after
    the run faults.  ``check_sessions`` calls it for sessions with
    start/end records; a layout with its own session record (draft-self's ``sessions.jsonl``) calls
    it directly.

    Raises:
        ValueError: a time field is not ISO 8601.
    """
    start, end = parse_utc(started_at), parse_utc(ended_at)
    check = SessionCheck(
        session_id=session_id,
        experiment=experiment,
        host_id=host_id,
        started_at=started_at,
        ended_at=ended_at,
        file=file,
    )
    check.runs = list(runs)
    for recs in runs.values():
        check.reasons += _run_faults(recs, start, end, timed_ns)
    check.reasons += failures or []
    for missing in sorted((planned or set()) - (have or set()), key=str):
        check.reasons.append(
            f"{file}: session {session_id} planned {missing} but has no such run: an incomplete table"
        )
    if not runs:
        check.reasons.append(f"{file}: session {session_id} has no measurement records")
    return check


def check_sessions(
    files: Iterable[str | Path],
    experiment: str,
    kinds: tuple[str, ...],
    expected_runs: Callable[[dict], set] | None = None,
    run_label: Callable[[dict], object] | None = None,
    failed_is_fault: bool = True,
    timed_ns: Callable[[dict], float] = recorded_ns,
    unfinished: bool = False,
) -> dict[str, SessionCheck]:
    """``{session_id: SessionCheck}`` of every session of ``experiment`` with an end record in ``files``.

    ``kinds``: the record schemas that are measurements (``benchbook.llama_bench``; a retired kind and the
    kind it is read as, ``migrations.RETIRED``, name the same records); every record of the session with
    one of these schemas and a ``run_id`` is checked (``benchbook.run_failed`` records of
    the session are a fault unless ``failed_is_fault`` is False: a sweep whose failed points are data, such
    as ``offload``).  ``expected_runs(start_record)``: the set of run labels the session's
    start record plans, compared with ``run_label(record)`` of the runs present (both or neither).
    ``timed_ns(record)``: the nanoseconds a measurement record says were timed (default
    ``recorded_ns``), summed over a run and compared with its wall time.  ``unfinished``: also return
    the sessions with a start record and no end record (stopped or killed), each with that reason and
    ``ended_at`` its last record's time, so that a page names them (they are never publishable).

    Raises:
        records.RecordError: a line of a file is not JSON (file:line).
        ValueError: a time field is not ISO 8601.
    """
    paths = [Path(f) for f in files if not str(f).endswith(".quarantine.jsonl")]
    # a record of a retired kind is a record of the kind it is read as (migrations.RETIRED)
    measurement = {migrations.read_as(k) for k in kinds}
    starts: dict[str, dict] = {}
    ends: dict[str, dict] = {}
    groups: dict[str, dict[str, list[dict]]] = {}
    failed: dict[str, list[dict]] = {}
    seen: dict[tuple, dict] = {}  # (session, run, row) -> its first record
    dropped: dict[str, list[str]] = {}  # session -> notes on duplicated lines dropped
    for rec in read_records(paths):
        schema, sid = rec.get("schema"), str(rec.get("session_id"))
        if schema == "benchbook.session" and rec.get("experiment") == experiment:
            kept = (starts if rec["event"] == "start" else ends).setdefault(sid, rec)
            if kept is not rec and (rec["event"] == "end" or rec.get("at") == kept.get("at")):
                # a start line copied (a resume writes its own start, at its own time) or a second end
                same = "a duplicate of" if rec.get("at") == kept.get("at") else "a second end record after"
                dropped.setdefault(sid, []).append(
                    f"{rec['_file']}:{rec['_line']}: {same} the session's {rec['event']} record at line "
                    f"{kept['_line']}: dropped, the first kept"
                )
        elif schema is not None and migrations.read_as(schema) in measurement and rec.get("run_id"):
            key = (sid, rec["run_id"], _row_identity(rec))
            first = seen.setdefault(key, rec)
            if first is not rec:  # the same run and row again: one measurement, read once (benchrows too)
                dropped.setdefault(sid, []).append(
                    f"{rec['_file']}:{rec['_line']}: a duplicate of line {first['_line']} "
                    f"(run {rec['run_id']}, same row): dropped, the first copy kept"
                )
                continue
            groups.setdefault(sid, {}).setdefault(rec["run_id"], []).append(rec)
        elif schema == "benchbook.run_failed" and rec.get("experiment", experiment) == experiment:
            failed.setdefault(sid, []).append(rec)
    out: dict[str, SessionCheck] = {}
    for sid, open_rec in starts.items() if unfinished else []:
        if sid in ends:
            continue
        recs = [r for g in groups.get(sid, {}).values() for r in g] + failed.get(sid, [])
        last = max([r["ended_at"] for r in recs if r.get("ended_at")] + [open_rec["at"]], key=parse_utc)
        out[sid] = SessionCheck(
            session_id=sid,
            experiment=experiment,
            host_id=open_rec.get("host_id"),
            started_at=open_rec["at"],
            ended_at=last,
            file=str(open_rec["_file"]),
            reasons=[
                f"{open_rec['_file']}:{open_rec['_line']}: session {sid} has a start record and no end "
                f"record ({len(groups.get(sid, {}))} runs present): it did not complete, so it is never "
                "published; fix: run the stage again on that host (it resumes the session)"
            ],
            runs=list(groups.get(sid, {})),
            ended=False,
        )
    for sid, end_rec in ends.items():
        start_rec = starts.get(sid)
        if start_rec is None:
            continue
        runs = groups.get(sid, {})
        planned = have = None
        if expected_runs is not None and run_label is not None:
            planned = expected_runs(start_rec)
            have = {run_label(recs[0]) for recs in runs.values()}
            if not failed_is_fault:  # a failed point is data: it stands for its planned run
                have |= {run_label(rec) for rec in failed.get(sid, [])}
        check = check_session(
            sid,
            experiment,
            start_rec.get("host_id"),
            start_rec["at"],
            end_rec["at"],
            str(start_rec["_file"]),
            runs,
            timed_ns,
            planned,
            have,
            failures=[
                f"{rec['_file']}:{rec['_line']}: a run failed ({rec.get('error')}): an incomplete table"
                for rec in (failed.get(sid, []) if failed_is_fault else [])
            ],
        )
        check.notes = dropped.get(sid, [])
        out[sid] = check
    return out


def _row_identity(rec: dict) -> object:
    """What makes a measurement record one row of its run: llama-bench's ``row_index`` where the record
    has one (``benchrows.complete_runs`` keeps the first of a repeated ``(run_id, row_index)`` too),
    else the record's whole content (a line appended twice)."""
    if rec.get("row_index") is not None:
        return ("row", rec["row_index"])
    return ("content", repr(sorted((k, repr(v)) for k, v in rec.items() if k not in ("_file", "_line"))))


def newest_publishable(checks: dict[str, SessionCheck]) -> tuple[dict[str, SessionCheck], list[SessionCheck]]:
    """Per host, the newest session whose check passed, and every newer session of that host that was
    skipped (its reasons are what the page states).  Returns ``({host_id: check}, skipped)``; a session
    whose start record names no host belongs to none."""
    by_host: dict[str, list[SessionCheck]] = {}
    for c in checks.values():
        if c.host_id is not None:
            by_host.setdefault(c.host_id, []).append(c)
    best: dict[str, SessionCheck] = {}
    skipped: list[SessionCheck] = []
    for host, cs in sorted(by_host.items()):
        for c in sorted(cs, key=lambda c: c.ended_at, reverse=True):
            if c.ok:
                best[host] = c
                break
            skipped.append(c)
    return best, skipped


@dataclass(frozen=True)
class Policy:
    """Which sessions of ``experiment`` one published table reads (an entry of ``POLICIES``).

    ``hosts``: ``"every"`` (each host's sessions, side by side) or ``"primary"`` (one host: the
    ``primary_host`` of ``params.yaml`` ``report`` when it has a passing session, else the host whose
    passing session ended last); ``sessions``: ``"newest"`` (per host read, its newest session that
    passes the checks; newer sessions of that host that fail are named on the page) or ``"every"``
    (every passing session).  ``kinds``: the record schemas that are measurements (``check_sessions``);
    ``planned``: the start record plans the session's runs (the experiment's ``plan``), each one of
    which must be present (``Planned``, passed to ``check``); ``failed_is_fault``: a failed run
    (``benchbook.run_failed``) makes the session unpublishable (False: a sweep whose failed points are
    data); ``unfinished``: sessions without an end record are checked too, so that the page names them
    (never published)."""

    experiment: str
    hosts: Literal["primary", "every"]
    sessions: Literal["newest", "every"]
    kinds: tuple[str, ...]
    planned: bool = False
    failed_is_fault: bool = True
    unfinished: bool = False


_SPECULATIVE_KINDS = ("benchbook.speculative_request", "benchbook.llama_bench")
_DRAFTSELF_KINDS = ("benchbook.draftself.run",)

#: Every published table's session policy, by the name a report passes to ``select``: the experiment's
#: name for its page's numbers; ``<experiment>:<table>`` where another table of the same records reads
#: other sessions.
POLICIES: dict[str, Policy] = {
    # each host's llama-bench sweep beside the others'; the start record plans (model, phase) runs
    "llama_bench": Policy("llama_bench", "every", "newest", ("benchbook.llama_bench",), planned=True),
    # every host's sweep; a point that failed (out of memory) is data; planned: the n_cpu_moe points
    "offload": Policy(
        "offload",
        "every",
        "newest",
        ("benchbook.llama_bench", "benchbook.offload.bandwidth"),
        planned=True,
        failed_is_fault=False,
        unfinished=True,
    ),
    # every host's depth sweep, the runs its start record plans; the page names the sessions that never
    # ended
    "spec_depth": Policy(
        "spec_depth",
        "every",
        "newest",
        ("benchbook.llama_bench", "benchbook.spec_depth.request"),
        planned=True,
        unfinished=True,
    ),
    # the speculative page's numbers: one session, of the primary host
    "speculative": Policy("speculative", "primary", "newest", _SPECULATIVE_KINDS, planned=True),
    # the depth page's comparison with the speculative experiment: each host's newest session
    "speculative:hosts": Policy("speculative", "every", "newest", _SPECULATIVE_KINDS, planned=True),
    # the server-cost table: the cost model against the server's own timings in every session
    "speculative:server_cost": Policy("speculative", "every", "every", _SPECULATIVE_KINDS, planned=True),
    # draft-self (its own raw layouts: ``experiments.draftself.sessioncheck`` checks them): one
    # session, of the primary host; the plan's configurations x prompts x repetitions all present
    "draftself": Policy("draftself", "primary", "newest", _DRAFTSELF_KINDS, planned=True),
    "draftself_gpu": Policy("draftself_gpu", "primary", "newest", _DRAFTSELF_KINDS, planned=True),
    "template": Policy("template", "primary", "newest", ("benchbook.template",)),
    # every host's newest tool-gap session (issue 31), side by side; the page names unfinished ones
    "tool_gap": Policy(
        "tool_gap",
        "every",
        "newest",
        ("benchbook.llama_bench", "benchbook.tool_gap.request"),
        unfinished=True,
    ),
}


def raw_files(folder: str | Path) -> list[Path]:
    """The raw record files of an experiment's folder: ``*.jsonl`` but the quarantined torn lines
    (``*.quarantine.jsonl``, ``records.repair``), sorted."""
    return [f for f in sorted(Path(folder).glob("*.jsonl")) if not f.name.endswith(".quarantine.jsonl")]


@dataclass(frozen=True)
class Planned:
    """The runs a session's start record plans, from the experiment's ``plan``: ``runs(start record)``
    -> their labels, and ``label(record)`` -> the label of the run a measurement record belongs to."""

    runs: Callable[[dict], set]
    label: Callable[[dict], object]


def check(name: str, folder: str | Path, planned: Planned | None = None) -> dict[str, SessionCheck]:
    """``check_sessions`` of the ``*.jsonl`` files of ``folder`` (``data/raw/<experiment>``) as
    ``POLICIES[name]`` declares it (kinds, planned runs, failed runs, unfinished sessions).

    Raises:
        ValueError: ``planned`` given to a policy whose sessions plan no runs, or missing for one
            whose sessions do (the fix: pass the experiment's ``Planned``).
        records.RecordError: a line of a file is not JSON (file:line).
    """
    policy = POLICIES[name]
    if policy.planned != (planned is not None):
        raise ValueError(
            f"measured.check({name!r}): POLICIES says its sessions {'do' if policy.planned else 'do not'} "
            f"plan their runs, and planned runs were {'not ' if planned is None else ''}given; fix: "
            + ("pass the experiment's Planned (from its plan)" if policy.planned else "drop planned")
        )
    return check_sessions(
        raw_files(folder),
        policy.experiment,
        policy.kinds,
        expected_runs=planned.runs if planned else None,
        run_label=planned.label if planned else None,
        failed_is_fault=policy.failed_is_fault,
        unfinished=policy.unfinished,
    )


@dataclass(frozen=True)
class Selection:
    """What ``select`` chose for one policy: ``published`` (the sessions whose numbers the table shows,
    by host id, then end time), ``skipped`` (the sessions its page names as not published, with their
    reasons: ``skipped_markdown``) and ``checks`` (every session checked, ``{session_id: check}``)."""

    name: str
    published: list[SessionCheck]
    skipped: list[SessionCheck]
    checks: dict[str, SessionCheck]

    @property
    def chosen(self) -> SessionCheck | None:
        """The one session of a ``"primary"`` policy (the first published; None: no session passed)."""
        return self.published[0] if self.published else None

    def by_host(self) -> dict[str, SessionCheck]:
        """``{host_id: session}`` of a ``"newest"`` policy (one session per host)."""
        return {c.host_id: c for c in self.published if c.host_id is not None}


def select(name: str, checks: dict[str, SessionCheck], primary_host: str | None = None) -> Selection:
    """The sessions of ``checks`` (``check``'s, or an experiment's own layout's) that the table ``name``
    publishes, by ``POLICIES[name]`` (``Policy``): every report chooses its sessions here.

    * ``"every"`` hosts, ``"newest"`` sessions: each host's newest passing session; skipped: each
      host's sessions newer than it that fail (all of a host's, when none passes).
    * ``"primary"`` hosts: of those newest passing sessions, ``primary_host``'s (``params.yaml``
      ``report``), else the one that ended last; skipped: the failing sessions of its host newer than
      it (``primary_host``'s when none passes; every host's when no primary host is named either).
    * ``"every"`` sessions: every passing session (a session whose start record names no host too),
      by host id then end time; skipped: every failing one.

    A session whose start record names no host belongs to no host (``newest_publishable``).

    Raises:
        KeyError: ``name`` is not in ``POLICIES``.
    """
    policy = POLICIES[name]
    best, newer_failed = newest_publishable(checks)
    if policy.sessions == "every":
        published = sorted((c for c in checks.values() if c.ok), key=lambda c: (c.host_id or "", c.ended_at))
        return Selection(name, published, [c for c in checks.values() if not c.ok], checks)
    if policy.hosts == "every":
        return Selection(name, [best[h] for h in sorted(best)], newer_failed, checks)
    chosen = (best.get(primary_host) if primary_host else None) or max(
        best.values(), key=lambda c: c.ended_at, default=None
    )
    host = chosen.host_id if chosen else primary_host
    # the primary host's failed sessions too when the chosen one is another host's: the page says why
    skipped = [c for c in newer_failed if host is None or c.host_id in (host, primary_host)]
    return Selection(name, [chosen] if chosen else [], skipped, checks)


def skipped_markdown(
    skipped: list[SessionCheck],
    root: str | Path | None = None,
    drift: Mapping[str, list[str]] | None = None,
    published: Iterable[SessionCheck] = (),
    primary_host: str | None = None,
) -> str:
    """Markdown for a page: each skipped session and why it was not published (empty list: a line saying
    that every host's newest session passed), then each published session that ran other parameters
    than params.yaml asks now (``drift``: ``{session_id: lines}``, ``experiments.drift.of_sessions``).
    File paths under ``root`` (default: the working directory, the repository root when a stage runs)
    are shown relative to it.  Ids, times, reasons and drift values come from records (any host's, through
    git): each goes through ``escape.code_span`` or ``escape.markdown_text``.

    ``published``: the sessions whose numbers the page shows (``Selection.published``); each one older
    than a skipped session of its host is said to be so, one from another host than ``primary_host``
    (``params.yaml`` ``report.primary_host``) is said to be so, and the lines their checks dropped
    (``SessionCheck.notes``: duplicates) are listed."""
    prefix = str(Path(root or Path.cwd()).resolve()) + "/"
    if not skipped:
        lines = [
            "Every host's newest completed session passed the checks (measured in the session, complete)."
        ]
    else:
        lines = [
            "Sessions not published (their records do not show a complete measurement made in the session):",
            "",
        ]
    for c in skipped:
        lines.append(
            f"- session {code_span(c.session_id)} on host {code_span(c.host_id)} "
            f"(ended {markdown_text(c.ended_at)}):"
        )
        lines += [f"  - {markdown_text(r.replace(prefix, ''))}" for r in c.reasons[:10]]
        if len(c.reasons) > 10:
            lines.append(f"  - … and {len(c.reasons) - 10} more")
    published = list(published)
    for c in published:
        newer = [s for s in skipped if s.host_id == c.host_id and s.ended_at > c.ended_at]
        if newer:
            lines += [
                "",
                f"The numbers of host {code_span(c.host_id)} come from session {code_span(c.session_id)} "
                f"(ended {markdown_text(c.ended_at)}), older than its newest: the {len(newer)} newer "
                f"session{'s' if len(newer) != 1 else ''} of that host did not pass the checks (above).",
            ]
        if primary_host and c.host_id != primary_host:
            lines += [
                "",
                f"The numbers on this page come from host {code_span(c.host_id)}, not the primary host "
                f"{code_span(primary_host)} (params.yaml `report.primary_host`): no session of the primary "
                "host passed the checks.",
            ]
    noted = [c for c in published if c.notes]
    if noted:
        lines += [
            "",
            "Lines the checks dropped from published sessions (each a copy of a line before it, or a "
            "second end):",
            "",
        ]
        for c in noted:
            lines.append(f"- session {code_span(c.session_id)}:")
            lines += [f"  - {markdown_text(n.replace(prefix, ''))}" for n in c.notes[:10]]
            if len(c.notes) > 10:
                lines.append(f"  - … and {len(c.notes) - 10} more")
    if drift:
        lines += [
            "",
            "Published sessions that ran other parameters than params.yaml asks now (their records "
            "say what they ran; `make run` on their host measures again):",
            "",
        ]
        for sid, diffs in sorted(drift.items()):
            lines.append(f"- session {code_span(sid)}: " + "; ".join(_drift_line(d) for d in diffs))
    return "\n".join(lines) + "\n"


def _drift_line(line: str) -> str:
    """A ``drift.differences`` line for a page: its leading key (in backticks) as a code span, the rest
    (values a session recorded) through ``escape.markdown_text``."""
    m = re.match(r"`([A-Za-z0-9_.\-]+)`: (.*)", line, re.S)
    return f"{code_span(m[1])}: {markdown_text(m[2])}" if m else markdown_text(line)


def cache_label(phase: str, cache_state: dict | None) -> str:
    """The label a run's record proves: ``"cold"`` only when eviction was done and residency checked
    (``cache_state.evicted`` true, ``resident_after_pct`` recorded); ``"cold, unverified"`` when the
    run was meant cold but the record cannot show it (``evicted`` false or residency unknown, e.g. a
    CUDA host where ``fincore`` residency could not be brought under 5 %); otherwise ``phase``.

    >>> cache_label("cold", {"evicted": True, "resident_after_pct": 0.0})
    'cold'
    >>> cache_label("cold", {"evicted": False, "resident_after_pct": None})
    'cold, unverified'
    >>> cache_label("warm", None)
    'warm'
    """
    if phase != "cold":
        return phase
    state = cache_state or {}
    if state.get("evicted") is True and state.get("resident_after_pct") is not None:
        return "cold"
    return "cold, unverified"

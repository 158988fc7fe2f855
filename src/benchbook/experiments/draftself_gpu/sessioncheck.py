"""Which GPU draft-self sessions are publishable: the "measured now, complete" rule of
``benchbook.measured`` applied to ``raw_dir/draftself_gpu``.

A session there is the CPU experiment's shared session (start and end records in ``<host_id>.jsonl``,
``experiments.draftself.analysis.sessions``) whose start record's ``config`` holds ``ks`` and
``repetitions``.  Its plan is plain greedy AR and one batched one-pass draft-self configuration per k
(``plan.configs``: names ``ar`` and ``ds-k<k>-batched-one_pass``), each on every prompt of the plan
(``prompts_per_class`` prose and code prompts, ``planned_prompts``) and every prompt the runs name, at
each timed repetition 1..``repetitions``.  Every run must lie inside the session, and the
wall times of its forward passes must sum to no more than its own wall time (``measured.recorded_ns``).

Entry point: ``check(raw_dir)``; which session a report publishes is ``measured.select("draftself_gpu",
check(raw_dir), primary_host)`` (the ``draftself_gpu`` policy: the primary host's newest passing
session, else the newest of any host; the newer ones skipped are named with
``measured.skipped_markdown``).
"""

from __future__ import annotations

from pathlib import Path

from benchbook import measured
from benchbook.experiments.draftself.analysis import sessions
from benchbook.experiments.draftself.sessioncheck import check_runs
from benchbook.records import read_records

from . import EXPERIMENT
from .plan import configs

#: the run records of a session (the ``draftself_gpu`` policy's one measurement kind)
RUN_SCHEMA = measured.POLICIES[EXPERIMENT].kinds[0]
#: the prompt classes of a session, in ``draftself.natural.prompts``' order: ``prompts_per_class`` of
#: each, ids ``<class>-<i>``
PROMPT_CLASSES = ("prose", "code")


def planned_prompts(params: dict) -> set[str]:
    """The prompt ids a session with start-record ``config`` ``params`` measures (``natural.prompts``:
    ``prompts_per_class`` of each class, or CorpusError before any run); empty without that key.

    >>> sorted(planned_prompts({"prompts_per_class": 2}))
    ['code-0', 'code-1', 'prose-0', 'prose-1']
    """
    n = int(params.get("prompts_per_class") or 0)
    return {f"{kind}-{i}" for kind in PROMPT_CLASSES for i in range(n)}


def planned_configs(params: dict) -> list[str]:
    """The configuration names a session with start-record ``config`` ``params`` runs.

    >>> planned_configs({"ks": [1, 8]})
    ['ar', 'ds-k1-batched-one_pass', 'ds-k8-batched-one_pass']
    """
    return [c["name"] for c in configs([int(k) for k in params["ks"]])]


def check(raw_dir: str | Path) -> dict[str, measured.SessionCheck]:
    """``{session_id: SessionCheck}`` of every completed session under ``raw_dir/draftself_gpu`` (module
    doc); a check's ``reasons`` name file:line and the rule that failed (empty: publishable).

    Raises:
        records.RecordError: a line of a runs file is not JSON (file:line).
        ValueError: a time field is not ISO 8601.
    """
    done = sessions(Path(raw_dir) / EXPERIMENT)
    groups: dict[str, dict[str, dict[str, list[dict]]]] = {}
    for f in {s["runs_file"] for s in done}:
        by_session = groups.setdefault(f, {})
        for r in read_records([f], RUN_SCHEMA):
            by_session.setdefault(r["session_id"], {}).setdefault(r["run_id"], []).append(r)
    out: dict[str, measured.SessionCheck] = {}
    for s in done:
        runs = groups[s["runs_file"]].get(s["session_id"], {})
        params = s.get("params") or {}
        # the plan's prompts, not only those the runs name: a prompt with no run left is missing too
        prompts = {recs[0]["prompt_id"] for recs in runs.values()} | planned_prompts(params)
        names = sorted(planned_configs({"ks": params.get("ks", [])}))
        reps = int(params.get("repetitions", 0))
        out[s["session_id"]] = check_runs(s, runs, names, prompts, reps, EXPERIMENT)
    return out

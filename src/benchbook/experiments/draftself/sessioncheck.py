"""Which draft-self sessions are publishable: the "measured now, complete" rule of ``benchbook.measured``
applied to both raw layouts (the shared session's start/end records in ``<host_id>.jsonl``, and the
committed ``sessions.jsonl`` + ``runs.jsonl`` whose session record is written once at its end).

For each completed session (``analysis.sessions``): every run's ``started_at``/``ended_at`` inside the
session, the wall times of a run's forward passes (``passes``) summing to no more than the run's own
wall time (``ended_at − started_at``), and every planned run present: each configuration of the
session's parameters (``plan.configs``) on each prompt of the session, at each timed repetition
1..``repetitions``.  (The prompts are those the session's runs name: the prompt set is generated with
the model's tokenizer, which this check does not load.)

Entry point: ``check(raw_dir)`` (``{session_id: measured.SessionCheck}``); which session a report
publishes is ``measured.select("draftself", check(raw_dir), primary_host)`` (the ``draftself`` policy).
"""

from __future__ import annotations

from pathlib import Path

from benchbook import measured
from benchbook.records import read_records

from .analysis import sessions
from .plan import DEFAULTS, configs

EXPERIMENT = "draftself"
#: the run records of a session (the ``draftself`` policy's one measurement kind)
RUN_SCHEMA = measured.POLICIES[EXPERIMENT].kinds[0]


def check(raw_dir: str | Path) -> dict[str, measured.SessionCheck]:
    """``{session_id: SessionCheck}`` of every completed draft-self session under ``raw_dir`` (module
    doc); a check's ``reasons`` name file:line and the rule that failed (empty: publishable).

    Raises:
        records.RecordError: a line of a runs file is not JSON (file:line).
        ValueError: a time field is not ISO 8601.
    """
    done = sessions(raw_dir)
    by_file: dict[str, dict[str, dict[str, list[dict]]]] = {}
    for f in {s["runs_file"] for s in done}:
        groups = by_file.setdefault(f, {})
        for r in read_records([f], RUN_SCHEMA):
            groups.setdefault(r["session_id"], {}).setdefault(r["run_id"], []).append(r)
    out: dict[str, measured.SessionCheck] = {}
    for s in done:
        runs = by_file[s["runs_file"]].get(s["session_id"], {})
        params = {**DEFAULTS, **(s.get("params") or {})}
        prompts = {recs[0]["prompt_id"] for recs in runs.values()}
        names = [c["name"] for c in configs(params)]
        out[s["session_id"]] = check_runs(s, runs, names, prompts, int(params["repetitions"]), EXPERIMENT)
    return out


def check_runs(
    s: dict,
    runs: dict[str, list[dict]],
    names: list[str],
    prompts: set[str],
    repetitions: int,
    experiment: str,
) -> measured.SessionCheck:
    """``measured.check_session`` of one draft-self session ``s`` (its ``sessions`` row) whose runs are
    ``runs`` (``{run_id: [records]}``): planned = every configuration name × prompt × repetition
    1..``repetitions``, against the (config_name, prompt_id, rep) of the runs present."""
    planned = {
        (name, prompt, rep) for name in names for prompt in prompts for rep in range(1, repetitions + 1)
    }
    have = {(recs[0]["config_name"], recs[0]["prompt_id"], recs[0]["rep"]) for recs in runs.values()}
    return measured.check_session(
        s["session_id"],
        experiment,
        s["host_id"],
        s["started_at"],
        s["ended_at"],
        str(s.get("file") or s["runs_file"]),
        runs,
        planned=planned,
        have=have,
    )

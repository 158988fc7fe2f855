"""Which draft-self sessions are publishable, for both variants of the experiment (``VARIANTS``: on
the CPU, ``draftself``; on the GPU on natural text, ``draftself_gpu``, its own raw folder and registry
file): the "measured now, complete" rule of ``benchbook.measured`` applied to both raw layouts (the
shared session's start/end records in ``<host_id>.jsonl``, and the committed ``sessions.jsonl`` +
``runs.jsonl`` whose session record is written once at its end).

For each completed session (``analysis.sessions``): every run's ``started_at``/``ended_at`` inside the
session, the wall times of a run's forward passes (``passes``) summing to no more than the run's own
wall time (``ended_at − started_at``), and every planned run present: each configuration of the
session's parameters (the variant's ``configs``) on each prompt of the session, at each timed
repetition 1..``repetitions``.  The prompts are those the session's runs name and those the variant
plans from its parameters (the CPU prompt set is generated with the model's tokenizer, which this check
does not load: none planned; the GPU's ``prompts_per_class`` of each class).

Entry point: ``check(folder, variant)`` (``{session_id: measured.SessionCheck}``); which session a report
publishes is ``measured.select(variant, check(folder, variant), primary_host)`` (the variant's policy).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from benchbook import measured
from benchbook.records import read_records

from .analysis import sessions
from .plan import DEFAULTS, configs

EXPERIMENT = "draftself"
#: the run records of a session (the ``draftself`` policy's one measurement kind, both variants')
RUN_SCHEMA = measured.POLICIES[EXPERIMENT].kinds[0]


@dataclass(frozen=True)
class Variant:
    """One variant of the draft-self experiment: its ``name`` (policy, raw folder and registry file),
    the parameters a start record leaves out (``defaults``), the configuration names it plans from the
    start record's parameters (``configs``) and the prompts it plans beyond those its runs name
    (``prompts``)."""

    name: str
    configs: Callable[[Mapping], list[str]]
    prompts: Callable[[Mapping], set[str]] = lambda _: set()
    defaults: Mapping = field(default_factory=dict)


def _gpu_configs(params: Mapping) -> list[str]:
    from ..draftself_gpu.plan import planned_configs

    return planned_configs(params)


def _gpu_prompts(params: Mapping) -> set[str]:
    from ..draftself_gpu.plan import planned_prompts

    return planned_prompts(params)


#: the variants of the draft-self experiment, by name
VARIANTS = {
    "draftself": Variant("draftself", lambda p: [c["name"] for c in configs(dict(p))], defaults=DEFAULTS),
    "draftself_gpu": Variant("draftself_gpu", _gpu_configs, _gpu_prompts),
}


def check(folder: str | Path, variant: str = EXPERIMENT) -> dict[str, measured.SessionCheck]:
    """``{session_id: SessionCheck}`` of every completed session of ``variant`` (``VARIANTS``) under
    ``folder`` (``data/raw/<variant>``; module doc); a check's ``reasons`` name file:line and the rule
    that failed (empty: publishable).

    Raises:
        KeyError: ``variant`` is not in ``VARIANTS``.
        records.RecordError: a line of a runs file is not JSON (file:line).
        ValueError: a time field is not ISO 8601.
    """
    v = VARIANTS[variant]
    # the variant's package declares the record kinds of its folder (draftself_gpu's training records)
    importlib.import_module(f"benchbook.experiments.{variant}")
    done = sessions(folder)
    by_file: dict[str, dict[str, dict[str, list[dict]]]] = {}
    for f in {s["runs_file"] for s in done}:
        groups = by_file.setdefault(f, {})
        for r in read_records([f], RUN_SCHEMA):
            groups.setdefault(r["session_id"], {}).setdefault(r["run_id"], []).append(r)
    out: dict[str, measured.SessionCheck] = {}
    for s in done:
        runs = by_file[s["runs_file"]].get(s["session_id"], {})
        params = {**v.defaults, **(s.get("params") or {})}
        # the plan's prompts, not only those the runs name: a prompt with no run left is missing too
        prompts = {recs[0]["prompt_id"] for recs in runs.values()} | v.prompts(params)
        reps = int(params.get("repetitions", 0))
        out[s["session_id"]] = check_runs(s, runs, v.configs(params), prompts, reps, variant)
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

"""Parameters drift: a session measured with other parameters than ``params.yaml`` asks for now.

DVC re-runs a measurement stage when its params differ from its lock, but the lock says nothing of
the records: a session measured with ``--overrides '{"repetitions": 5}'`` (or before a change of
``params.yaml`` that was committed with ``dvc commit``) leaves records of 5 repetitions under a lock
of 3, and DVC calls the stage up to date.  So the records themselves are compared with the
parameters: a session's start record keeps the ``config`` it ran (``contract.Params.config``), and
``differences`` compares it, key by key, with what ``params.yaml`` resolves to on the session's host
now (the experiment's section, then the host profile's layer, as ``python -m benchbook.experiments``
merges them: ``profiles.section``).

Used by ``cli.measured_here`` (a completed session with differences does not count: the stage measures
again) and by the reports (the page names each published session's differences:
``measured.skipped_markdown(..., drift=)``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path

from ..records import iter_records
from . import profiles
from .contract import Params, ParamsError

#: the experiments whose start records this module compares (``draftself_gpu`` keeps its own parameters
#: per run and is not compared)
EXPERIMENTS = ("llama_bench", "speculative", "draftself", "offload", "spec_depth", "tool_gap", "template")


def params_class(experiment: str) -> type[Params]:
    """The typed parameters of ``experiment`` (its ``plan.PARAMS``).

    Raises:
        KeyError: ``experiment`` is not one of ``EXPERIMENTS``.
    """
    if experiment not in EXPERIMENTS:
        raise KeyError(f"{experiment!r}: parameters drift compares {', '.join(EXPERIMENTS)}")
    return importlib.import_module(f"benchbook.experiments.{experiment}.plan").PARAMS


def current(experiment: str, params: Mapping, picked: profiles.Picked) -> Params:
    """What a new session of ``experiment`` would run on a host whose profile is ``picked``: the
    section updated by the profile's layer (``Params.resolve_current``; no ``--overrides``).

    Raises:
        errors.ParamsError: params.yaml does not validate (the message names the key and the fix).
    """
    cls = params_class(experiment)
    return cls.resolve_current(params, profiles.layer(dict(params), cls.SECTION, picked))


def _show(value: object) -> str:
    """A parameter's value as a page writes it: a string quoted; unset (None) in words, never
    Python's ``None``."""
    if value is None:
        return "it unset"
    return repr(value) if isinstance(value, str) else str(value)


def differences(config: Mapping, now: Params) -> list[str]:
    """One line per parameter whose recorded value (a start record's ``config``) differs from ``now``:
    ``"`repetitions`: the session ran 5, params.yaml asks 3"``.  Only the keys the typed parameters
    declare are compared (a runner's own additions such as ``raw_dir`` are not parameters); a key
    the session did not record compares as its default (``Params.from_record`` fills it).

    A config that does not validate any more is one line saying so (a changed schema: measure again).
    """
    cls = type(now)
    try:
        was = cls.from_record(config)
    except ParamsError as e:
        return [f"the session's config no longer validates ({e})"]
    keys = list(cls.model_fields)
    a, b = was.model_dump(include=set(keys)), now.model_dump(include=set(keys))
    return [
        f"`{k}`: the session ran {'with ' if a.get(k) is None else ''}{_show(a.get(k))}, "
        f"params.yaml asks {'for ' if b.get(k) is None else ''}{_show(b.get(k))}"
        for k in keys
        if a.get(k) != b.get(k)
    ]


def start_records(file: str | Path, experiment: str) -> dict[str, dict]:
    """``{session_id: first start record}`` of ``experiment`` in one raw file."""
    out: dict[str, dict] = {}
    for _, rec in iter_records(Path(file)):
        if rec.get("schema") == "benchbook.session" and rec.get("experiment") == experiment:
            if rec.get("event") == "start":
                out.setdefault(rec["session_id"], rec)
    return out


def host_profile(params: Mapping, snapshot: Mapping | None) -> profiles.Picked:
    """The profile ``profiles.pick`` gives a host from its snapshot's GPUs (``provenance`` host
    snapshot; none: a host without a GPU), ``$BENCHBOOK_PROFILE`` not read (another host's
    environment is not known here)."""
    return profiles.pick(dict(params), env={}, gpus=list((snapshot or {}).get("gpus") or []))


def of_sessions(
    experiment: str,
    folder: str | Path,
    sessions: Mapping[str, str | None],
    params: Mapping,
    snapshots: Mapping[str, dict],
) -> dict[str, list[str]]:
    """``{session_id: differences}`` for each of ``sessions`` (``{session_id: host_id}``: those a page
    publishes, their start records in ``folder/*.jsonl``) whose recorded config differs from what
    ``params`` resolves to on its host (``host_profile`` of ``snapshots[host_id]``, the
    ``provenance.read_snapshots(..., "host")`` mapping).  No entry: no difference, or a start record
    without a config (a session from before configs were recorded).

    Raises:
        errors.ParamsError: params.yaml does not validate for the experiment.
    """
    starts: dict[str, dict] = {}
    for f in sorted(Path(folder).glob("*.jsonl")):
        for sid, rec in start_records(f, experiment).items():
            starts.setdefault(sid, rec)
    out = {}
    for sid, host in sessions.items():
        config = starts.get(sid, {}).get("config")
        if config is None:
            continue
        now = current(experiment, params, host_profile(params, snapshots.get(host or "")))
        if lines := differences(config, now):
            out[sid] = lines
    return out

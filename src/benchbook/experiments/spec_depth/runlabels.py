"""The runs a spec_depth session plans, as labels the report can check its records against without the
measurement code (``plan`` builds each run's server argv and key from the same iteration).

``request_cells`` and ``bench_drafts`` are the plan's order (``plan.request_runs``, ``plan.plan``);
``planned_labels`` names every run of a session from its start record, ``run_label`` the run a record
belongs to, and ``planned`` is the ``measured.Planned`` the depth report's session check uses.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from benchbook import measured

from ..speculative.plan import model_shas, plan_order, start_models


def request_cells(cfg: Mapping) -> list[tuple[int, str, list[int]]]:
    """``(rep, config_id, depths)`` of every configuration served in a session, in the plan's order:
    per repetition, the configurations rotated (``speculative.plan.plan_order``), each at every depth in
    increasing order."""
    ids = [c["id"] for c in cfg["configs"]]
    depths = sorted(int(d) for d in cfg["depths"])
    return [(rep, cid, depths) for rep in range(int(cfg["repetitions"])) for cid in plan_order(ids, rep)]


def bench_drafts(target: Mapping, drafts: Mapping[str, Mapping]) -> list[Mapping]:
    """The draft files llama-bench measures beside the target: each distinct file (by sha256) of
    ``drafts`` other than the target's, in draft-key order."""
    return list({d["sha256"]: d for d in drafts.values() if d["sha256"] != target["sha256"]}.values())


def planned_labels(start: Mapping, shas: Mapping[str, str]) -> set:
    """The labels of every run ``plan.plan`` makes from a spec_depth session's start record (its
    ``config``): ``("bench", role, model_id)`` per llama-bench run, ``("request", config_id, rep, depth)``
    per request.  ``shas``: ``speculative.plan.model_shas`` (the target's sha256 names its truncated
    drafts and tells a draft that is the target itself).

    Raises:
        ValueError: the target's model id is not in ``shas`` (naming the start record's file:line).
    """
    cfg = start.get("config") or {}
    target, drafts = start_models(start, shas)
    out: set = {("bench", "target", target["model_id"])}
    out |= {("bench", "draft", d["model_id"]) for d in bench_drafts(target, drafts)}
    out |= {("request", cid, rep, d) for rep, cid, depths in request_cells(cfg) for d in depths}
    return out


def run_label(rec: Mapping) -> tuple:
    """The ``planned_labels`` label of the run a spec_depth record belongs to (a request has a
    ``config_id``; a llama-bench row its ``role`` and ``model_id``)."""
    if rec.get("config_id") is not None:
        return ("request", rec["config_id"], rec.get("rep"), rec.get("depth"))
    return ("bench", rec.get("role"), rec.get("model_id"))


def planned(snapshots_dir: str | Path) -> measured.Planned:
    """``measured.Planned`` of spec_depth sessions (``planned_labels`` with the models of
    ``snapshots_dir``, ``run_label``): what ``measured.check`` compares each session's runs with."""
    return measured.Planned(functools.partial(planned_labels, shas=model_shas(snapshots_dir)), run_label)

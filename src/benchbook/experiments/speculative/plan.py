"""What a speculative session runs, from its resolved profile alone: the cost model's llama-bench runs,
then every request (configuration x prompt x repetition), each with its run key.  ``run.run_session``
iterates ``plan``; ``tests/test_plan_keys.py`` recomputes the keys of every committed session from its
start record.  Nothing here starts a process or reads a model file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchbook.llamacpp.draft_models import truncated_id
from benchbook.session import run_key

from ..contract import PlannedRun


def load_prompts(path: str | Path, ids: list[str] | None = None, caps: dict | None = None) -> list[dict]:
    """Prompts of ``data/prompts/speculative.yaml`` (``ids`` selects and orders; ``caps`` overrides caps).

    Raises:
        KeyError: an id in ``ids`` is not in the file (the message lists the known ids).
    """
    import yaml

    doc = yaml.safe_load(Path(path).read_text())
    by_id = {p["id"]: p for p in doc["prompts"]}
    sel = []
    for pid in ids or list(by_id):
        if pid not in by_id:
            raise KeyError(f"prompt {pid!r} not in {path}; known: {sorted(by_id)}")
        p = dict(by_id[pid])
        if caps and pid in caps:
            p["cap"] = int(caps[pid])
        sel.append(p)
    return sel


def plan_order(config_ids: list[str], rep: int) -> list[str]:
    """Interleaving: every repetition runs every configuration; the order is rotated by ``rep`` so no
    configuration always runs first (or right after the same neighbour)."""
    k = rep % len(config_ids)
    return config_ids[k:] + config_ids[:k]


def draft_model_ids(cfg: Mapping, target: Mapping) -> dict[str, str]:
    """``{draft key: model id}`` of every draft a configuration of ``cfg["configs"]`` uses, in sorted key
    order, named as ``run.resolve_drafts`` names the records it resolves: the target's own id
    (``{model: target}``), the registry id (``{model: ID}``), ``trunc<L>-of-<sha256[:12]>``
    (``{truncate_layers: L}``, ``draft_models.truncated_id``) or the file's ``id`` / stem (``{path: P}``)."""
    out = {}
    for key in sorted({c["draft"] for c in cfg["configs"] if c.get("draft")}):
        spec = cfg["drafts"][key]
        if "truncate_layers" in spec:
            out[key] = truncated_id(target["sha256"], int(spec["truncate_layers"]))
        elif spec.get("model") == "target":
            out[key] = target["model_id"]
        elif spec.get("path"):
            out[key] = spec.get("id", Path(spec["path"]).stem)
        else:
            out[key] = spec["model"]
    return out


@dataclass(frozen=True)
class CostRun(PlannedRun):
    """One llama-bench invocation of the cost model: ``model`` in ``role`` (target | draft), argv
    ``[llama-bench, -m, <model path>, *argv_tail]``."""

    role: str
    model: Mapping
    argv_tail: tuple[str, ...]


@dataclass(frozen=True)
class RequestRun(PlannedRun):
    """One ``/completion`` request: ``prompt`` (a ``load_prompts`` record) to configuration ``config_id``
    (with ``draft``, a model record, or None) in repetition ``rep``."""

    config_id: str
    rep: int
    prompt: Mapping
    draft: Mapping | None


def cost_runs(
    cfg: Mapping, target: Mapping, drafts: Sequence[Mapping], toolchain_id: str | None, host_id: str
) -> list[CostRun]:
    """The cost model's runs (empty when ``cfg`` has no ``cost_model``): the target with
    ``-p <p_sizes> -n <n_gen>``, then each of ``drafts`` with ``-p 0 -n <n_gen>``, all ``-t threads
    -r repetitions -o jsonl``.  ``config`` = ``{role, model_id, argv_tail}``; key =
    ``run_key(config, model sha256, toolchain_id, host_id)``."""
    cm = cfg.get("cost_model")
    if not cm:
        return []
    jobs = [("target", target, ["-p", ",".join(str(x) for x in cm["p_sizes"]), "-n", str(cm["n_gen"])])]
    jobs += [("draft", d, ["-p", "0", "-n", str(cm["n_gen"])]) for d in drafts]
    runs = []
    for role, m, sizes in jobs:
        tail = [*sizes, "-t", str(cfg["threads"]), "-r", str(cm["repetitions"]), "-o", "jsonl"]
        conf = {"role": role, "model_id": m["model_id"], "argv_tail": tail}
        key = run_key(conf, m["sha256"], toolchain_id, host_id)
        runs.append(CostRun(key, conf, f"cost model {role} {m['model_id']}", role, m, tuple(tail)))
    return runs


def request_config(cfg: Mapping, c: Mapping, draft: Mapping | None) -> dict:
    """The configuration fields of every request of configuration ``c`` (a ``cfg["configs"]`` entry)."""
    spec = c["spec_type"] != "none"
    return {
        "config_id": c["id"],
        "spec_type": c["spec_type"],
        "draft_model_id": draft["model_id"] if draft else None,
        "n_max": c.get("n_max"),
        "n_min": cfg.get("n_min", 0) if spec else None,
        "p_min": cfg.get("p_min", 0.0) if spec else None,
        "policy": c.get("policy", "fresh"),
        "threads": cfg["threads"],
        "ctx_size": cfg["ctx_size"],
        "extra_args": c.get("extra_args") or [],
    }


def request_runs(
    cfg: Mapping,
    prompts: Sequence[Mapping],
    target: Mapping,
    drafts: Mapping[str, Mapping],
    toolchain_id: str | None,
    host_id: str,
) -> list[RequestRun]:
    """Every request, repetition-major, configurations rotated per repetition (``plan_order``), prompts
    in the given order.  ``config`` = ``request_config`` + ``prompt_id``, ``cap``, ``rep``; key =
    ``run_key(config, target sha256[:draft sha256], toolchain_id, host_id)``."""
    by_id = {c["id"]: c for c in cfg["configs"]}
    runs = []
    for rep in range(int(cfg["repetitions"])):
        for cid in plan_order(list(by_id), rep):
            c = by_id[cid]
            d = drafts[c["draft"]] if c.get("draft") else None
            conf = request_config(cfg, c, d)
            sha = target["sha256"] + (":" + d["sha256"] if d else "")
            for p in prompts:
                rconf = {**conf, "prompt_id": p["id"], "cap": p["cap"], "rep": rep}
                key = run_key(rconf, sha, toolchain_id, host_id)
                runs.append(RequestRun(key, rconf, f"{cid} r{rep} {p['id']}", cid, rep, p, d))
    return runs


def plan(
    cfg: Mapping,
    prompts: Sequence[Mapping],
    target: Mapping,
    drafts: Mapping[str, Mapping],
    toolchain_id: str | None,
    host_id: str,
) -> list[CostRun | RequestRun]:
    """Every run of one session, in order: ``cost_runs`` (each distinct draft file other than the
    target's, in draft-key order) then ``request_runs``.  ``target`` and ``drafts`` (``{draft key:
    model record}``) need ``model_id`` and ``sha256`` (and ``path`` when measuring)."""
    uniq = {d["sha256"]: d for d in drafts.values() if d["sha256"] != target["sha256"]}
    return [
        *cost_runs(cfg, target, list(uniq.values()), toolchain_id, host_id),
        *request_runs(cfg, prompts, target, drafts, toolchain_id, host_id),
    ]

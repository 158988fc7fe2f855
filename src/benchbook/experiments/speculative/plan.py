"""What a speculative session runs, from its resolved profile alone: ``SpeculativeParams`` (the
``speculative`` section with one of its profiles resolved, typed) and ``plan`` (the cost model's
llama-bench runs, then every request: configuration x prompt x repetition), each run with its key.
``run.run_session`` iterates ``plan``; ``tests/test_plan_keys.py`` recomputes the keys of every committed
session from its start record.  Nothing here starts a process or reads a model file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from benchbook.llamacpp.draft_models import truncated_id
from benchbook.session import run_key

from ..contract import Params, PlannedRun


class SpeculativeParams(Params):
    """One resolved profile of the ``speculative`` section of ``params.yaml`` (``resolve``; the section's
    comments say what each key does), with the defaults the runner uses where it leaves a key out.

    ``config()`` is the mapping as resolved, without those defaults (``exclude_unset``): what every
    session recorded as its ``config``, so a committed session's meta hashes as it did and resuming it
    keeps working (``tests/test_contract.py``).  Numbers that YAML may give as an int or a float are
    typed ``int | float`` so a value is never converted (``0`` and ``0.0`` hash differently).
    """

    SECTION = "speculative"

    profile: str = "default"  # the entry of the section's `profiles` resolved (resolve sets it)
    target: str = "smollm2-135m-q4_1"  # models.registry id
    prompts_file: str = "data/prompts/speculative.yaml"  # relative to the repository root
    threads: int  # -t (and -td for draft models)
    ctx_size: int  # -c (tokens)
    repetitions: int  # every configuration runs every prompt once per repetition
    configs: list[dict]  # {id, spec_type, draft, n_max, policy (fresh | same), extra_args}
    drafts: dict[str, dict] = {}  # draft key -> {model: ID | target} | {truncate_layers: L} | {path, id}
    prompts: list[str] | None = None  # prompt ids of prompts_file, in order (None: all of them)
    caps: dict[str, int] | None = None  # prompt id -> n_predict (None: the file's caps)
    n_min: int = 0  # --spec-draft-n-min / --spec-ngram-mod-n-min
    p_min: int | float = 0.0  # --spec-draft-p-min
    health_timeout_s: int | float = 60  # a server's start (s)
    request_timeout_s: int | float = 300  # one request, and one cost-model llama-bench run (s)
    log_verbosity: int | None = None  # -lv (4: spec_stats per request); None: the server's default
    cost_model: dict | None = None  # {p_sizes, n_gen, repetitions} of llama-bench; None: no cost model

    @classmethod
    def resolve(cls, section: Mapping, profile: str | None = None, overrides: Mapping | None = None) -> Self:
        """The flat run configuration: ``section`` (params.yaml ``speculative``) minus ``profiles``, with
        the profile ``profile`` (default: the section's ``profile``, else ``default``) on top, then
        ``overrides`` (key by key), and ``profile`` set to the profile's name.

        Raises:
            KeyError: unknown profile (names the known ones); a config's ``draft`` key not in ``drafts``.
            contract.ParamsError: a key has the wrong type (names it and the fix).
        """
        name = profile or section.get("profile", "default")
        if name not in section["profiles"]:
            raise KeyError(
                f"speculative profile {name!r} not in params.yaml; known: {sorted(section['profiles'])}"
            )
        cfg = {k: v for k, v in section.items() if k != "profiles"}
        cfg.update(section["profiles"][name])
        cfg.update(overrides or {})
        cfg["profile"] = name
        for c in cfg["configs"]:
            if c.get("draft") and c["draft"] not in cfg["drafts"]:
                known = sorted(cfg["drafts"])
                raise KeyError(f"config {c['id']}: draft {c['draft']!r} not in speculative.drafts {known}")
        return cls.from_section(cfg)

    def config(self) -> dict:
        """The resolved mapping, without the defaults of keys it leaves out (class doc)."""
        return self.model_dump(exclude_unset=True)


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
    cfg: SpeculativeParams, target: Mapping, drafts: Sequence[Mapping], toolchain_id: str | None, host_id: str
) -> list[CostRun]:
    """The cost model's runs (empty when ``cfg`` has no ``cost_model``): the target with
    ``-p <p_sizes> -n <n_gen>``, then each of ``drafts`` with ``-p 0 -n <n_gen>``, all ``-t threads
    -r repetitions -o jsonl``.  ``config`` = ``{role, model_id, argv_tail}``; key =
    ``run_key(config, model sha256, toolchain_id, host_id)``."""
    cm = cfg.cost_model
    if not cm:
        return []
    jobs = [("target", target, ["-p", ",".join(str(x) for x in cm["p_sizes"]), "-n", str(cm["n_gen"])])]
    jobs += [("draft", d, ["-p", "0", "-n", str(cm["n_gen"])]) for d in drafts]
    runs = []
    for role, m, sizes in jobs:
        tail = [*sizes, "-t", str(cfg.threads), "-r", str(cm["repetitions"]), "-o", "jsonl"]
        conf = {"role": role, "model_id": m["model_id"], "argv_tail": tail}
        key = run_key(conf, m["sha256"], toolchain_id, host_id)
        runs.append(CostRun(key, conf, f"cost model {role} {m['model_id']}", role, m, tuple(tail)))
    return runs


def request_config(cfg: SpeculativeParams, c: Mapping, draft: Mapping | None) -> dict:
    """The configuration fields of every request of configuration ``c`` (a ``cfg.configs`` entry)."""
    spec = c["spec_type"] != "none"
    return {
        "config_id": c["id"],
        "spec_type": c["spec_type"],
        "draft_model_id": draft["model_id"] if draft else None,
        "n_max": c.get("n_max"),
        "n_min": cfg.n_min if spec else None,
        "p_min": cfg.p_min if spec else None,
        "policy": c.get("policy", "fresh"),
        "threads": cfg.threads,
        "ctx_size": cfg.ctx_size,
        "extra_args": c.get("extra_args") or [],
    }


def request_runs(
    cfg: SpeculativeParams,
    prompts: Sequence[Mapping],
    target: Mapping,
    drafts: Mapping[str, Mapping],
    toolchain_id: str | None,
    host_id: str,
) -> list[RequestRun]:
    """Every request, repetition-major, configurations rotated per repetition (``plan_order``), prompts
    in the given order.  ``config`` = ``request_config`` + ``prompt_id``, ``cap``, ``rep``; key =
    ``run_key(config, target sha256[:draft sha256], toolchain_id, host_id)``."""
    by_id = {c["id"]: c for c in cfg.configs}
    runs = []
    for rep in range(cfg.repetitions):
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
    cfg: SpeculativeParams | Mapping,
    prompts: Sequence[Mapping],
    target: Mapping,
    drafts: Mapping[str, Mapping],
    toolchain_id: str | None,
    host_id: str,
) -> list[CostRun | RequestRun]:
    """Every run of one session, in order: ``cost_runs`` (each distinct draft file other than the
    target's, in draft-key order) then ``request_runs``.  ``cfg``: the params, or the mapping a session
    recorded as its config.  ``target`` and ``drafts`` (``{draft key: model record}``) need ``model_id``
    and ``sha256`` (and ``path`` when measuring)."""
    p = SpeculativeParams.of(cfg)
    uniq = {d["sha256"]: d for d in drafts.values() if d["sha256"] != target["sha256"]}
    return [
        *cost_runs(p, target, list(uniq.values()), toolchain_id, host_id),
        *request_runs(p, prompts, target, drafts, toolchain_id, host_id),
    ]

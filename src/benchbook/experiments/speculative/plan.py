"""What a speculative session runs, from its resolved profile alone: ``SpeculativeParams`` (the
``speculative`` section with one of its profiles resolved, typed) and ``plan`` (the cost model's
llama-bench runs, then every request: configuration x prompt x repetition), each run with its key.
``run.run_session`` iterates ``plan``; ``tests/test_plan_keys.py`` recomputes the keys of every committed
session from its start record.  Nothing here starts a process or reads a model file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, Required, Self

from pydantic import AfterValidator, ConfigDict, Field, ValidationInfo, model_validator, with_config
from typing_extensions import TypedDict

from benchbook.identity import truncated_id
from benchbook.session import run_key

from ..contract import (
    OVERRIDES,
    PARAMS_FILE,
    Count,
    Fraction,
    ModelBenchRun,
    ModelId,
    Natural,
    Params,
    ParamsError,
    PlannedRun,
    Positive,
    Source,
    Sourced,
    invalid,
    registered,
    registry_ids,
)


def _draft_model(value: str, info: ValidationInfo) -> str:
    """A draft's ``model``: ``target`` (the target itself) or a ``models.registry`` id."""
    return value if value == "target" else registered(value, info)


@with_config(ConfigDict(extra="allow"))
class DraftSpec(TypedDict, total=False):
    """One entry of ``drafts`` (speculative and spec_depth): exactly one of ``model`` (a
    ``models.registry`` id, or ``target``: the target as its own draft), ``truncate_layers`` (the
    target's first L blocks, ``draft_models.truncated_draft``) or ``path`` (a GGUF file; ``id`` names
    it, default the file's stem)."""

    model: Annotated[str, AfterValidator(_draft_model)]
    truncate_layers: Count
    path: str
    id: str


#: how a draft is made: the keys of which a ``DraftSpec`` names exactly one
DRAFT_KINDS = ("model", "truncate_layers", "path")


def _one_kind(spec: DraftSpec) -> DraftSpec:
    """A ``DraftSpec`` that names exactly one of ``DRAFT_KINDS``."""
    kinds = [k for k in DRAFT_KINDS if k in spec]
    if len(kinds) != 1:
        raise invalid(
            f"a draft names {' and '.join(kinds) or 'none'} of {', '.join(DRAFT_KINDS)}",
            "give it exactly one: {model: ID | target}, {truncate_layers: L} or {path: FILE, id: NAME}",
        )
    return spec


#: a ``drafts`` entry (``DraftSpec``, one kind)
Draft = Annotated[DraftSpec, AfterValidator(_one_kind)]


@with_config(ConfigDict(extra="allow"))
class SpecConfig(TypedDict, total=False):
    """One entry of a speculative profile's ``configs``: a llama-server configuration."""

    id: Required[str]  # the configuration's name in records and tables (`baseline`: the reference)
    spec_type: Required[str]  # llama-server --spec-type (none: plain decoding; draft-*: needs `draft`)
    draft: str | None  # a key of `drafts`
    n_max: Count | None  # --spec-draft-n-max (tokens drafted per step at most)
    policy: Literal["fresh", "same"]  # a server per (configuration, repetition), or one for the session
    extra_args: list[str]  # more llama-server arguments


@with_config(ConfigDict(extra="allow"))
class CostModel(TypedDict):
    """``cost_model``: the llama-bench runs behind c and r(n): prompt sizes (tokens), tokens generated and
    repetitions."""

    p_sizes: Annotated[list[Count], Field(min_length=1)]
    n_gen: Count
    repetitions: Count


def config_errors(
    configs: Sequence[Mapping], drafts: Mapping, is_baseline: Callable[[Mapping], bool], baseline: str
) -> None:
    """The checks of a ``configs`` list that its types cannot state, shared by speculative and spec_depth:
    ids unique, each ``draft`` a key of ``drafts``, and a baseline (``is_baseline``; the configuration
    every speedup divides by; ``baseline``: one written out, for the fix).

    Raises:
        PydanticCustomError: the first that fails (``invalid``: its place under ``configs`` and the fix).
    """
    seen: dict[str, int] = {}
    for i, c in enumerate(configs):
        if c["id"] in seen:
            raise invalid(
                f"id {c['id']!r} is also configuration {seen[c['id']]}'s",
                "give every configuration its own id (records and tables name it)",
                ("configs", i, "id"),
            )
        seen[c["id"]] = i
        if c.get("draft") and c["draft"] not in drafts:
            raise invalid(
                f"draft {c['draft']!r} is not a key of `drafts`",
                f"name one of {', '.join(map(str, drafts)) or '(none: add the draft to `drafts`)'}",
                ("configs", i, "draft"),
            )
    if not any(is_baseline(c) for c in configs):
        raise invalid(
            "no baseline configuration (every speedup divides by the same session's baseline)",
            f"add {baseline}",
            ("configs",),
        )


def _is_baseline(c: Mapping) -> bool:
    """The speculative report's reference: id ``baseline`` without speculation (``spec_type: none``)."""
    return c["id"] == "baseline" and c["spec_type"] == "none"


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
    target: ModelId = "smollm2-135m-q4_1"  # models.registry id
    prompts_file: str = "data/prompts/speculative.yaml"  # relative to the repository root
    threads: Count  # -t (and -td for draft models)
    ctx_size: Count  # -c (tokens)
    repetitions: Count  # every configuration runs every prompt once per repetition
    configs: Annotated[list[SpecConfig], Field(min_length=1)]  # {id, spec_type, draft, n_max, policy, ...}
    drafts: dict[str, Draft] = {}  # draft key -> {model: ID | target} | {truncate_layers: L} | {path, id}
    prompts: list[str] | None = None  # prompt ids of prompts_file, in order (None: all of them)
    caps: dict[str, Count] | None = None  # prompt id -> n_predict (None: the file's caps)
    n_min: Natural = 0  # --spec-draft-n-min / --spec-ngram-mod-n-min (tokens)
    p_min: Fraction = 0.0  # --spec-draft-p-min (a probability)
    health_timeout_s: Positive = 60  # a server's start (s)
    request_timeout_s: Positive = 300  # one request, and one cost-model llama-bench run (s)
    log_verbosity: Natural | None = None  # -lv (4: spec_stats per request); None: the server's default
    cost_model: CostModel | None = None  # {p_sizes, n_gen, repetitions} of llama-bench; None: no cost model

    @model_validator(mode="after")
    def _configs_fit(self) -> Self:
        """``config_errors`` of ``configs`` (a baseline: id ``baseline`` with ``spec_type: none``), and
        each configuration's draft as its ``spec_type`` needs: a draft type names a draft, ``none``
        names none."""
        config_errors(self.configs, self.drafts, _is_baseline, "{id: baseline, spec_type: none}")
        for i, c in enumerate(self.configs):
            if c["spec_type"].startswith("draft") and not c.get("draft"):
                raise invalid(
                    f"spec_type {c['spec_type']} drafts with a model but names no `draft`",
                    f"add `draft:` (one of {', '.join(self.drafts) or 'the keys of `drafts`'})",
                    ("configs", i),
                )
            if c["spec_type"] == "none" and c.get("draft"):
                raise invalid(
                    "spec_type none (plain decoding) names a draft",
                    "remove `draft`, or set the spec_type that uses it (draft-simple)",
                    ("configs", i, "draft"),
                )
        return self

    @classmethod
    def resolve(
        cls,
        section: Mapping,
        profile: str | None = None,
        overrides: Mapping | None = None,
        *,
        models: Sequence[str] | None = None,
    ) -> Self:
        """The flat run configuration of a new session: ``section`` (params.yaml ``speculative``) minus
        ``profiles``, with the profile on top, then ``overrides`` (key by key), and ``profile`` set to the
        profile's name.  The profile is ``profile``, else the overrides' ``profile``, else the section's,
        else ``default``.  ``models``: the ``models.registry`` ids (``from_section``).

        Raises:
            errors.ParamsError: unknown profile (names the known ones); a key is unknown, has the wrong
                type or is out of bounds; a config's ``draft`` is not in ``drafts``; no baseline (each
                clause names where the value was written and the fix).
        """
        sec = Sourced.of(section, Source(PARAMS_FILE, cls.SECTION))
        over = Sourced.of(overrides, Source(OVERRIDES))
        profiles = sec.sub("profiles")
        if profile is not None:
            name, where = profile, "the speculative profile asked for"
        elif "profile" in over:
            name, where = over["profile"], over.source("profile").at(("profile",))
        else:
            name, where = sec.get("profile", "default"), sec.source("profile").at(("profile",))
        if name not in profiles:
            raise ParamsError(
                f"{where}: {name!r} is not a profile of {profiles.home.at()}; fix: name one of "
                f"{', '.join(map(str, profiles)) or '(none: add one)'}"
            )
        cfg = sec.without("profiles") | profiles.sub(name) | over.without("profile")
        cfg["profile"] = name
        return cls.from_section(cfg, models=models)

    @classmethod
    def resolve_current(cls, params: Mapping, layer: Mapping) -> Self:
        """``resolve`` of params.yaml ``speculative`` with the host profile's ``layer`` as overrides
        (``run.measure``'s merge; ``drift.current``).

        Raises:
            errors.ParamsError: as ``resolve``.
        """
        return cls.resolve(Sourced.section(params, cls.SECTION), overrides=layer, models=registry_ids(params))

    def config(self) -> dict:
        """The resolved mapping, without the defaults of keys it leaves out (class doc)."""
        return self.model_dump(exclude_unset=True)


def load_prompts(path: str | Path, ids: list[str] | None = None, caps: dict | None = None) -> list[dict]:
    """Prompts of ``data/prompts/speculative.yaml`` (``ids`` selects and orders; ``caps`` overrides caps).

    Raises:
        errors.ParamsError: an id in ``ids`` is not in the file (the message lists the known ids).
    """
    import yaml

    doc = yaml.safe_load(Path(path).read_text())
    by_id = {p["id"]: p for p in doc["prompts"]}
    sel = []
    for pid in ids or list(by_id):
        if pid not in by_id:
            raise ParamsError(
                f"speculative `prompts` names {pid!r}, not a prompt of {path}; fix: name one of "
                f"{', '.join(sorted(by_id))}"
            )
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
    (``{truncate_layers: L}``, ``identity.truncated_id``) or the file's ``id`` / stem (``{path: P}``)."""
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
class RequestRun(PlannedRun):
    """One ``/completion`` request: ``prompt`` (a ``load_prompts`` record) to configuration ``config_id``
    (with ``draft``, a model record, or None) in repetition ``rep``."""

    config_id: str
    rep: int
    prompt: Mapping
    draft: Mapping | None


def cost_runs(
    cfg: SpeculativeParams, target: Mapping, drafts: Sequence[Mapping], toolchain_id: str | None, host_id: str
) -> list[ModelBenchRun]:
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
        runs.append(ModelBenchRun(key, conf, f"cost model {role} {m['model_id']}", role, m, tuple(tail)))
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
            key = c.get("draft")
            d = drafts[key] if key else None
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
) -> list[ModelBenchRun | RequestRun]:
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


#: the typed parameters of this experiment (``drift.params_class``)
PARAMS = SpeculativeParams


def model_shas(snapshots_dir: str | Path) -> dict[str, str]:
    """``{model_id: sha256}`` of the model snapshot store (``data/raw/snapshots``): what a start
    record's model ids stand for (one file per id)."""
    from benchbook.provenance import read_snapshots

    return {s["model_id"]: s["sha256"] for s in read_snapshots(snapshots_dir, "model").values()}


def known_target(start: Mapping, shas: Mapping[str, str]) -> None:
    """Refuse a start record whose target model the snapshot store does not hold (its plan names the
    target's truncated drafts by its sha256, so it cannot be computed without it).

    Raises:
        ValueError: naming the start record's file:line, the model id and the fix."""
    target = (start.get("config") or {}).get("target")
    if target not in shas:
        raise ValueError(
            f"{start.get('_file')}:{start.get('_line')}: session {start.get('session_id')} targets model "
            f"{target!r}, which the model snapshot store does not hold ({len(shas)} models), so the runs it "
            "planned cannot be computed; fix: keep the snapshots of the models it measured under "
            "data/raw/snapshots/models/ (`benchbook` stores them when it measures)"
        )


def start_models(start: Mapping, shas: Mapping[str, str]) -> tuple[dict, dict[str, dict]]:
    """``(target, {draft key: draft})`` of a session's start record (its ``config``'s ``target`` and
    drafts, ``draft_model_ids``) as the model records ``plan`` reads at report time: ``model_id`` and
    ``sha256`` (``shas``: ``model_shas``; a truncated draft's id stands for its sha256).  Used by the
    speculative and spec_depth plan checks.

    Raises:
        ValueError: the target's model id is not in ``shas`` (``known_target``: the start record's
            file:line)."""
    cfg = start.get("config") or {}
    known_target(start, shas)
    target = {"model_id": cfg["target"], "sha256": shas[cfg["target"]]}
    drafts = {
        key: {"model_id": mid, "sha256": shas.get(mid, mid)}
        for key, mid in draft_model_ids(cfg, target).items()
    }
    return target, drafts


def planned_labels(start: Mapping, shas: Mapping[str, str]) -> set:
    """The labels of every run ``plan`` makes from a speculative session's start record (its
    ``config``): ``("cost", role, model_id)`` per cost-model run, ``("request", config_id, prompt_id,
    rep)`` per request.  ``shas``: ``model_shas`` (the target's sha256 names its truncated drafts and
    tells a draft that is the target itself).  The labels read no prompt text and no file path, so a
    session's plan is known at report time without its models (``run_label`` labels its records).

    Raises:
        ValueError: the target's model id is not in ``shas`` (naming the start record's file:line).
    """
    cfg = start.get("config") or {}
    target, drafts = start_models(start, shas)
    caps = cfg.get("caps") or {}
    prompts = [{"id": pid, "cap": caps.get(pid, 0)} for pid in cfg.get("prompts") or []]
    out: set = set()
    for run in plan(cfg, prompts, target, drafts, None, str(start.get("host_id"))):
        if isinstance(run, RequestRun):
            out.add(("request", run.config_id, run.prompt["id"], run.rep))
        else:
            out.add(("cost", run.config["role"], run.config["model_id"]))
    return out


def run_label(rec: Mapping) -> tuple:
    """The ``planned_labels`` label of the run a speculative record belongs to."""
    if rec.get("prompt_id") is not None:
        return ("request", (rec.get("config") or {}).get("config_id"), rec["prompt_id"], rec.get("rep"))
    return ("cost", rec.get("role"), rec.get("model_id"))


def planned(snapshots_dir: str | Path):
    """``measured.Planned`` of speculative sessions (``planned_labels`` with the models of
    ``snapshots_dir``, ``run_label``): what ``measured.check`` compares each session's runs with."""
    import functools

    from benchbook import measured

    return measured.Planned(functools.partial(planned_labels, shas=model_shas(snapshots_dir)), run_label)

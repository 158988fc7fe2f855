"""What a depth session runs, from its parameters and resolved models alone: one llama-bench ``-d``
sweep per model, then one request per (repetition, configuration, depth), each with its run key.
``run.measure`` iterates ``plan``; ``tests/test_plan_keys.py`` recomputes the keys of every committed
session from its start record.  Nothing here starts a process or reads a model file.

A request's key includes its server's argv after the model path (``server_argv(...)[3:]``), and with it
the draft's file path (``-md``): a resumed session recognises its requests only where the draft file
is where it was (the same cache directory).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, Required, Self

from pydantic import ConfigDict, Field, model_validator, with_config
from typing_extensions import TypedDict

from benchbook.llamacpp.server import build_argv
from benchbook.session import run_key

from ..contract import Count, Fraction, ModelBenchRun, ModelId, Natural, Params, PlannedRun, Positive, invalid
from ..llama_bench.plan import FlashAttn
from ..speculative.plan import Draft, config_errors
from . import EXPERIMENT
from .runlabels import bench_drafts, request_cells


@with_config(ConfigDict(extra="allow"))
class DepthConfig(TypedDict, total=False):
    """One entry of ``spec_depth.configs``: a llama-server configuration and its role."""

    id: Required[str]  # its name in records and tables
    # baseline: the target alone (the reference); speculative: the target with `draft`, n_max tokens
    # drafted per step; draft_only: the draft model alone
    role: Required[Literal["baseline", "speculative", "draft_only"]]
    draft: str  # a key of `drafts`
    n_max: Count  # --spec-draft-n-max (tokens)


class SpecDepthParams(Params):
    """The ``spec_depth`` section of ``params.yaml`` (updated by the host profile), with the defaults used
    where it leaves a key out (its comments say what each key does)."""

    SECTION = EXPERIMENT

    target: ModelId = "smollm2-135m-q4_1"  # models.registry id
    context_file: str = "data/prompts/depth_context.txt"  # the prompts' text, relative to the root
    depths: Annotated[list[Natural], Field(min_length=1)] = [0, 512, 1024]  # -d, the prompts' lengths
    min_prompt: Count = 16  # shortest request prompt (tokens)
    n_prompt: Count = 128  # llama-bench -p (tokens)
    pp_sizes: list[Count] = [1, 3, 5, 9, 16]  # llama-bench -p of the verify passes (tokens)
    n_gen: Count = 32  # llama-bench -n and n_predict (tokens)
    repetitions: Count = 3
    threads: Count = 2
    n_gpu_layers: Natural = 99
    flash_attn: FlashAttn = "auto"
    timeout_s: Positive = 900  # per llama-bench invocation (s)
    health_timeout_s: Positive = 120  # a server's start (s)
    request_timeout_s: Positive = 300  # one request (s)
    drafts: dict[str, Draft] = {}  # draft key -> {model: ID | target} or {truncate_layers: L}
    configs: Annotated[list[DepthConfig], Field(min_length=1)] = [{"id": "baseline", "role": "baseline"}]
    # read with these defaults; recorded only when set (UNRECORDED)
    ctx_size: Count | None = None  # -c (tokens; None: the deepest depth + n_gen + 64)
    n_min: Natural = 0  # --spec-draft-n-min (tokens)
    p_min: Fraction = 0.0  # --spec-draft-p-min (a probability)

    UNRECORDED = frozenset({"ctx_size", "n_min", "p_min"})

    @model_validator(mode="after")
    def _configs_fit(self) -> Self:
        """``speculative.plan.config_errors`` (a config with role ``baseline``), and what each role needs:
        ``speculative`` a draft and ``n_max``, ``draft_only`` a draft, ``baseline`` no draft."""
        config_errors(
            self.configs, self.drafts, lambda c: c["role"] == "baseline", "{id: baseline, role: baseline}"
        )
        for i, c in enumerate(self.configs):
            need = {"speculative": ("draft", "n_max"), "draft_only": ("draft",), "baseline": ()}[c["role"]]
            lacking = [k for k in need if c.get(k) is None]
            if lacking:
                what = {
                    "draft": f"`draft:` (one of {', '.join(self.drafts) or 'the keys of `drafts`'})",
                    "n_max": "`n_max:` (an integer >= 1: the tokens drafted per step at most)",
                }
                raise invalid(
                    f"role {c['role']} needs {' and '.join(lacking)}",
                    "add " + " and ".join(what[k] for k in lacking),
                    ("configs", i),
                )
            if c["role"] == "baseline" and c.get("draft"):
                raise invalid(
                    "role baseline (the target alone) names a draft",
                    "remove `draft`, or set role speculative or draft_only",
                    ("configs", i, "draft"),
                )
        return self


@dataclass(frozen=True)
class RequestRun(PlannedRun):
    """One ``/completion`` at ``depth`` to configuration ``config_id`` (``c``, its ``cfg["configs"]``
    entry) in repetition ``rep``: served by ``model`` (the target, or the draft alone for ``draft_only``)
    with ``draft`` (None without one), server argv ``[llama-server, -m, <model path>, *argv_tail]``."""

    config_id: str
    rep: int
    depth: int
    c: Mapping
    model: Mapping
    draft: Mapping | None
    argv_tail: tuple[str, ...]


def server_argv(
    server_bin: Path | str, model: Mapping, draft: Mapping | None, c: Mapping, cfg: Mapping
) -> list[str]:
    """llama-server argv of one configuration (``server.build_argv`` plus -ngl/-ngld, -fa and -lv 4)."""
    spec = None
    if c["role"] == "speculative":
        spec = {"type": "draft-simple", "draft_path": draft["path"] if draft else None, "n_max": c["n_max"]}
        spec |= {"n_min": cfg.get("n_min", 0), "p_min": cfg.get("p_min", 0.0)}
    extra = ["-ngl", str(cfg["n_gpu_layers"]), "-fa", str(cfg["flash_attn"]), "-lv", "4"]
    if spec:
        extra += ["-ngld", str(cfg["n_gpu_layers"])]
    ctx = int(cfg.get("ctx_size") or (max(cfg["depths"]) + int(cfg["n_gen"]) + 64))
    return build_argv(server_bin, model["path"], threads=cfg["threads"], ctx_size=ctx, spec=spec, extra=extra)


def bench_runs(
    cfg: Mapping, target: Mapping, drafts: Sequence[Mapping], toolchain_id: str | None, host_id: str
) -> list[ModelBenchRun]:
    """The target with ``-p <pp_sizes>,<n_prompt>``, then each of ``drafts`` with ``-p <n_prompt>``, all
    ``-n n_gen -d <depths> -t -ngl -fa -r repetitions -o jsonl``.  ``config`` = ``{role, model_id}``;
    key = ``run_key({**config, "argv_tail": argv_tail}, model sha256, toolchain_id, host_id)``."""
    depths = ",".join(str(int(d)) for d in cfg["depths"])
    jobs = [("target", target, [*cfg["pp_sizes"], cfg["n_prompt"]])]
    jobs += [("draft", d, [cfg["n_prompt"]]) for d in drafts]
    runs = []
    for role, m, sizes in jobs:
        tail = ["-p", ",".join(str(int(s)) for s in sizes)]
        tail += ["-n", str(cfg["n_gen"]), "-d", depths, "-t", str(cfg["threads"])]
        tail += ["-ngl", str(cfg["n_gpu_layers"]), "-fa", str(cfg["flash_attn"])]
        tail += ["-r", str(cfg["repetitions"]), "-o", "jsonl"]
        conf = {"role": role, "model_id": m["model_id"]}
        key = run_key({**conf, "argv_tail": tail}, m["sha256"], toolchain_id, host_id)
        runs.append(ModelBenchRun(key, conf, f"llama-bench {role} {m['model_id']}", role, m, tuple(tail)))
    return runs


def request_runs(
    cfg: Mapping, target: Mapping, drafts: Mapping[str, Mapping], toolchain_id: str | None, host_id: str
) -> list[RequestRun]:
    """Every request: per repetition, per configuration (rotated per repetition, ``plan_order``), each
    depth in increasing order.  ``config`` = ``{config_id, role, n_max, rep}``; key = ``run_key({**config,
    "depth", "argv": server argv[3:]}, model sha256[:draft sha256 when speculative], toolchain_id,
    host_id)``.

    Raises:
        KeyError: a ``draft_only`` configuration names no draft.
    """
    by_id = {c["id"]: c for c in cfg["configs"]}
    runs = []
    for rep, cid, depths in request_cells(cfg):
        c = by_id[cid]
        draft = drafts[c["draft"]] if c.get("draft") else None
        model = target
        if c["role"] == "draft_only":
            if draft is None:
                raise KeyError(f"spec_depth config {cid}: role draft_only needs a draft")
            model = draft
        tail = server_argv("llama-server", model, draft, c, cfg)[3:]
        conf = {"config_id": cid, "role": c["role"], "n_max": c.get("n_max"), "rep": rep}
        sha = model["sha256"] + (":" + draft["sha256"] if draft and c["role"] == "speculative" else "")
        for d in depths:
            key = run_key({**conf, "depth": d, "argv": tail}, sha, toolchain_id, host_id)
            label = f"{cid} r{rep} d{d}"
            runs.append(RequestRun(key, conf, label, cid, rep, d, c, model, draft, tuple(tail)))
    return runs


def plan(
    cfg: Mapping, target: Mapping, drafts: Mapping[str, Mapping], toolchain_id: str | None, host_id: str
) -> list[ModelBenchRun | RequestRun]:
    """Every run of one session, in order: ``bench_runs`` (each distinct draft file other than the
    target's) then ``request_runs``.  ``target`` and ``drafts`` (``{draft key: model record}``) need
    ``model_id``, ``sha256`` and ``path`` (a speculative request's key holds the draft's path)."""
    return [
        *bench_runs(cfg, target, bench_drafts(target, drafts), toolchain_id, host_id),
        *request_runs(cfg, target, drafts, toolchain_id, host_id),
    ]


#: the typed parameters of this experiment (``drift.params_class``)
PARAMS = SpecDepthParams

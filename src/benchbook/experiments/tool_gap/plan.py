"""What a tool-gap session runs, from its parameters and resolved model alone: ``ToolGapParams`` (the
``tool_gap`` section, typed, with its defaults), the configurations (``CONFIGS``: one factor changed
each) and ``plan`` (one llama-bench invocation, then two requests per (repetition, configuration), each
with its run key).  ``run.measure`` iterates ``plan``; ``tests/test_plan_keys.py`` recomputes the keys
of every committed session from its start record.  Nothing here starts a process or reads a model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Self

from pydantic import Field, model_validator

from benchbook.session import run_key

from ..contract import Count, ModelBenchRun, ModelId, Natural, Params, PlannedRun, Positive, invalid
from ..llama_bench.plan import FlashAttn
from ..speculative.plan import plan_order
from . import EXPERIMENT, FACTORS, Factor

#: requests per server: index 0 is the cold first request of a fresh process, 1 the measured one (and,
#: with the prompt cache, the one that finds its prompt cached)
REQUESTS_PER_SERVER = 2


@dataclass(frozen=True)
class Setup:
    """How one configuration's server is started and asked (``base``: every field at its default, the
    server as close to llama-bench as its flags allow).

    ``template``: the prompt is the depth tokens' text inside the model's chat template (``POST
    /apply-template``), sent as text (the server tokenizes it, special tokens parsed) instead of token
    ids; ``sampler``: the server's default sampler chain and settings (seed fixed) instead of one
    ``top_k`` = 1 sampler; ``n_probs``: ``n_probs`` candidates returned per token; ``stream``: server-sent
    events; ``prompt_cache``: ``cache_prompt`` true and the server's RAM cache on (no ``--cache-ram 0``),
    the measured request repeating the cold one's prompt; ``server_defaults``: no ``-b``/``-ub``/``-fa``
    (the server's own defaults instead of llama-bench's); ``verify_k``: the target as its own draft
    (``--spec-type draft-simple``, ``n_max`` k, ``-lv 4`` for the draft counters)."""

    template: bool = False
    sampler: bool = False
    n_probs: bool = False
    stream: bool = False
    prompt_cache: bool = False
    server_defaults: bool = False
    verify_k: int | None = None


class ToolGapParams(Params):
    """The ``tool_gap`` section of ``params.yaml`` (updated by the host profile), with the defaults used
    where it leaves a key out (its comments say what each key does)."""

    SECTION = EXPERIMENT

    model: ModelId = "smollm2-135m-q4_1"  # models.registry id
    context_file: str = "data/prompts/depth_context.txt"  # the prompts' text, relative to the root
    depth: Count = 256  # prompt tokens of every request and llama-bench -d (tokens)
    n_gen: Count = 128  # llama-bench -n and the server's n_predict (tokens; at least 2)
    repetitions: Count = 5  # llama-bench -r and servers per configuration
    threads: Count = 2
    n_gpu_layers: Natural = 99
    flash_attn: FlashAttn = "auto"
    batch: Count = 2048  # -b of llama-bench and of every server but server_defaults (tokens)
    ubatch: Count = 512  # -ub, likewise (tokens)
    n_probs: Count = 10  # candidates returned per token by the n_probs configuration
    factors: Annotated[list[Factor], Field(min_length=1)] = list(FACTORS)  # one configuration each
    verify_k: list[Count] = [4]  # n_max of each verify-k<k> configuration; llama-bench -p k+1
    timeout_s: Positive = 1800  # the llama-bench invocation (s)
    health_timeout_s: Positive = 120  # a server's start (s)
    request_timeout_s: Positive = 600  # one request (s)

    @model_validator(mode="after")
    def _fits(self) -> Self:
        """``n_gen`` >= 2 (the server's decode time spans n_gen − 1 steps: ``analysis``), each factor
        once, and a verify pass of ``k+1`` tokens fits one ubatch."""
        if self.n_gen < 2:
            raise invalid(
                f"n_gen {self.n_gen}: the server times n_gen − 1 decode steps, none at 1",
                "write n_gen: 2 or more (128 is llama-bench's default)",
                ("n_gen",),
            )
        twice = sorted({f for f in self.factors if self.factors.count(f) > 1})
        if twice:
            raise invalid(f"factors named twice: {', '.join(twice)}", "name each factor once", ("factors",))
        too_big = [k for k in self.verify_k if k + 1 > self.ubatch]
        if too_big:
            raise invalid(
                f"verify_k {too_big}: a verify pass of k+1 tokens exceeds ubatch {self.ubatch}",
                f"raise ubatch to {max(too_big) + 1} or more, or lower verify_k",
                ("verify_k",),
            )
        return self


def configs(cfg: Mapping) -> dict[str, tuple[str, Setup]]:
    """``{config_id: (factor, Setup)}`` of one session, in order: ``base`` (factor ``none``), one per
    factor of ``cfg["factors"]`` (the factor's name is its id), ``combined`` (factor ``all``: every
    listed factor at once; left out with one factor, where it would equal that one) and
    ``verify-k<k>`` per ``cfg["verify_k"]`` (factor ``verify``)."""
    out = {"base": ("none", Setup())}
    for f in cfg["factors"]:
        out[f] = (f, replace(Setup(), **{f: True}))
    if len(cfg["factors"]) > 1:
        out["combined"] = ("all", replace(Setup(), **dict.fromkeys(cfg["factors"], True)))
    for k in cfg["verify_k"]:
        out[f"verify-k{k}"] = ("verify", Setup(verify_k=int(k)))
    return out


def ctx_size(cfg: Mapping) -> int:
    """``-c`` of every server: the prompt, the generated tokens and 128 for the chat template's tokens."""
    return int(cfg["depth"]) + int(cfg["n_gen"]) + 128


def server_argv(server_bin: Path | str, model: Mapping, setup: Setup, cfg: Mapping) -> list[str]:
    """llama-server argv of one configuration: ``-m -t -c -np 1 --no-webui -ngl``, then (not
    ``server_defaults``) llama-bench's ``-b -ub -fa``, (not ``prompt_cache``) ``--cache-ram 0``, and for
    a verify configuration the target as its own draft (``--spec-type draft-simple -md <model path> -td
    -ngld --spec-draft-n-max k --spec-draft-n-min 0 --spec-draft-p-min 0.0 -lv 4``; flag names of
    ``llama-server --help``, build b11434, as ``llamacpp.server.build_argv``)."""
    t, ngl = str(cfg["threads"]), str(cfg["n_gpu_layers"])
    argv = [str(server_bin), "-m", str(model["path"]), "-t", t, "-c", str(ctx_size(cfg)), "-np", "1"]
    argv += ["--no-webui", "-ngl", ngl]
    if not setup.server_defaults:
        argv += ["-b", str(cfg["batch"]), "-ub", str(cfg["ubatch"]), "-fa", str(cfg["flash_attn"])]
    if not setup.prompt_cache:
        argv += ["--cache-ram", "0"]
    if setup.verify_k is not None:
        argv += ["--spec-type", "draft-simple", "-md", str(model["path"]), "-td", t, "-ngld", ngl]
        argv += ["--spec-draft-n-max", str(setup.verify_k), "--spec-draft-n-min", "0"]
        argv += ["--spec-draft-p-min", "0.0", "-lv", "4"]
    return argv


def bench_tail(cfg: Mapping) -> list[str]:
    """llama-bench's argv after ``-m <path>``: ``-p <k+1 of verify_k, or 0> -n n_gen -d 0,depth -t -ngl -b
    -ub -fa -r repetitions -o jsonl`` (``-p 0`` runs no pp test)."""
    sizes = sorted({int(k) + 1 for k in cfg["verify_k"]}) or [0]
    tail = ["-p", ",".join(map(str, sizes)), "-n", str(cfg["n_gen"]), "-d", f"0,{int(cfg['depth'])}"]
    tail += ["-t", str(cfg["threads"]), "-ngl", str(cfg["n_gpu_layers"])]
    tail += ["-b", str(cfg["batch"]), "-ub", str(cfg["ubatch"]), "-fa", str(cfg["flash_attn"])]
    return tail + ["-r", str(cfg["repetitions"]), "-o", "jsonl"]


@dataclass(frozen=True)
class RequestRun(PlannedRun):
    """Request ``request_index`` of the server of configuration ``config_id`` (``factor``, ``setup``) in
    repetition ``rep``, argv ``[llama-server, -m, <model path>, *argv_tail]``."""

    config_id: str
    factor: str
    setup: Setup
    rep: int
    request_index: int
    model: Mapping
    argv_tail: tuple[str, ...]


def plan(
    cfg: Mapping, model: Mapping, toolchain_id: str | None, host_id: str
) -> list[ModelBenchRun | RequestRun]:
    """Every run of one session, in order: the llama-bench invocation (``config`` ``{role: target,
    model_id}``; key ``run_key({**config, "argv_tail"}, sha256, toolchain_id, host_id)``), then per
    repetition each configuration (rotated per repetition, ``speculative.plan.plan_order``), two
    requests each (``REQUESTS_PER_SERVER``).  A request's ``config`` = ``{config_id, factor, rep,
    request_index}``; key = ``run_key({**config, "argv": server argv[3:]}, sha256, toolchain_id,
    host_id)``.  ``model`` needs ``model_id``, ``sha256`` and ``path``.

    Example: the default factors and verify_k [4] plan 1 + 5 repetitions × 9 configurations × 2 = 91 runs.
    """
    conf = {"role": "target", "model_id": model["model_id"]}
    tail = bench_tail(cfg)
    bkey = run_key({**conf, "argv_tail": tail}, model["sha256"], toolchain_id, host_id)
    runs: list[ModelBenchRun | RequestRun] = [
        ModelBenchRun(bkey, conf, f"llama-bench {model['model_id']}", "target", model, tuple(tail))
    ]
    by_id = configs(cfg)
    for rep in range(int(cfg["repetitions"])):
        for cid in plan_order(list(by_id), rep):
            factor, setup = by_id[cid]
            argv_tail = server_argv("llama-server", model, setup, cfg)[3:]
            for i in range(REQUESTS_PER_SERVER):
                c = {"config_id": cid, "factor": factor, "rep": rep, "request_index": i}
                key = run_key({**c, "argv": argv_tail}, model["sha256"], toolchain_id, host_id)
                label = f"{cid} r{rep} #{i}"
                runs.append(RequestRun(key, c, label, cid, factor, setup, rep, i, model, tuple(argv_tail)))
    return runs


def config_ids(cfg: Mapping) -> Sequence[str]:
    """The configuration ids of one session, in ``configs`` order."""
    return list(configs(cfg))


#: the typed parameters of this experiment (``drift.params_class``)
PARAMS = ToolGapParams

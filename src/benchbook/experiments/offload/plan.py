"""What an offload session runs, from its parameters and resolved models alone: the bytes read per
token of each model (the swept MoE at every sweep point, then the roofline models), the copy
bandwidth, then one llama-bench run per ``n_cpu_moe``, each with its run key.  ``run.run_session``
iterates ``plan``; ``tests/test_plan_keys.py`` recomputes the keys of every committed session from its
start record.  Nothing here reads a model file or touches the GPU.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal, Required

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from benchbook.session import run_key

from ..contract import Count, ModelId, Natural, Params, PlannedRun, Positive
from ..llama_bench.plan import FlashAttn
from . import EXPERIMENT

#: The section keys that are part of every sweep point's ``config`` (with the model, ``n_cpu_moe`` and
#: the memory budget).
CONFIG_KEYS = ("n_prompt", "n_gen", "n_depth", "repetitions", "threads", "n_gpu_layers", "flash_attn")


@with_config(ConfigDict(extra="allow"))
class SynthModel(TypedDict, total=False):
    """``offload.model``: the synthetic MoE's ``llamacpp.synth.SynthSpec`` fields (a key left out: its
    default there; ``tests/test_contract.py`` holds the keys equal to the dataclass's fields)."""

    arch: Literal["llama", "qwen3moe", "qwen2moe"]  # synth.ARCHES
    n_layer: Count
    n_embd: Count
    n_head: Count
    n_head_kv: Count
    n_ff: Count  # dense FFN width (llama), feed_forward_length of a MoE file
    n_expert: Natural
    n_expert_used: Natural
    n_ff_exp: Natural  # width of one routed expert
    n_ff_shexp: Natural  # width of the shared expert (qwen2moe only)
    head_dim: Count | None
    context_length: Count
    weight_type: Literal["Q8_0", "F16", "F32"]  # synth.WEIGHT_TYPES
    seed: int


@with_config(ConfigDict(extra="allow"))
class Ballast(TypedDict, total=False):
    """``offload.ballast``: the GPU memory the sweep leaves free (MiB: an emulated smaller card; None:
    the GPU's own free memory at the start of the sweep, measured and recorded with every point), and a
    fake device of ``fake_total_mib`` (a CPU host's dry run; None or left out: the real device)."""

    free_mib: Required[Natural | None]
    fake_total_mib: Count | None


@with_config(ConfigDict(extra="allow"))
class Bandwidth(TypedDict):
    """``offload.bandwidth``: the device-to-device copy measured: buffer size (MiB) and copies."""

    mib: Count
    iters: Count


class OffloadParams(Params):
    """The ``offload`` section of ``params.yaml`` updated by the host profile (``profiles.<p>.offload``),
    with the defaults used under every profile.  ``model``, ``ballast`` and ``bandwidth`` replace their
    default as a whole (a profile's ``ballast`` without ``fake_total_mib`` has none)."""

    SECTION = EXPERIMENT

    n_prompt: Count = 128  # llama-bench -p (tokens)
    n_gen: Count = 32  # -n (tokens)
    n_depth: Natural = 0  # -d (tokens)
    repetitions: Count = 3  # -r
    threads: Count = 2  # -t
    n_gpu_layers: Natural = 99  # -ngl
    flash_attn: FlashAttn = "auto"  # -fa
    timeout_s: Positive = 600  # per point (s)
    n_cpu_moe: Annotated[list[Natural], Field(min_length=1)] = [0, 1, 2, 3, 4]  # the sweep: -ncmoe values
    # the MoE measured: a models.registry id (`benchbook models add`: any MoE GGUF llama.cpp loads), or
    # the synthetic MoE's llamacpp.synth.SynthSpec fields (the default: {}, SynthSpec's defaults)
    model: ModelId | SynthModel = {}
    ballast: Ballast = {
        "free_mib": 12288,
        "fake_total_mib": None,
    }  # GPU memory left free (MiB; null: the GPU's own free memory); a fake device
    bandwidth: Bandwidth = {"mib": 1024, "iters": 20}  # device-to-device copy: buffer (MiB) and copies
    roofline_models: list[ModelId] = []  # models.registry ids whose bytes per token the roofline quotes


@dataclass(frozen=True)
class BytesRun(PlannedRun):
    """The bytes per decoded token of ``model`` (a model record), at ``n_cpu_moe`` (None: a roofline
    model, all on the device); ``synthetic``: the sweep's own model."""

    model: Mapping
    n_cpu_moe: int | None
    synthetic: bool


@dataclass(frozen=True)
class BandwidthRun(PlannedRun):
    """The device-to-device copy bandwidth (``config``: the ``bandwidth`` section and ``fake``)."""


@dataclass(frozen=True)
class SweepRun(PlannedRun):
    """One llama-bench invocation of the sweep's ``model`` (synthetic or registered) with ``-ncmoe
    n_cpu_moe``."""

    model: Mapping
    n_cpu_moe: int


def plan(
    cfg: Mapping, model: Mapping, others: Sequence[Mapping], toolchain_id: str | None, host_id: str
) -> list[BytesRun | BandwidthRun | SweepRun]:
    """Every run of one session, in order.  ``model``: the swept model's record, ``others``: the
    models whose bytes per token the roofline quotes (``model_id``, ``sha256``; ``path`` when measuring).

    * bytes: ``run_key({"bytes": n}, sha256, None, host_id)`` for the swept model at each ``n`` of
      ``n_cpu_moe``, then each of ``others`` with n None;
    * bandwidth: ``run_key({"bandwidth": {**bandwidth, "fake": fake ballast?}}, None, None, host_id)``;
    * sweep: ``config`` = ``CONFIG_KEYS`` + ``model_id``, ``n_cpu_moe``, ``budget_free_mib`` (the
      ballast's ``free_mib``, None: the GPU's own free memory); key ``run_key(config, sha256,
      toolchain_id, host_id)``.
    """
    runs: list[BytesRun | BandwidthRun | SweepRun] = []
    for m, n in [(model, n) for n in cfg["n_cpu_moe"]] + [(o, None) for o in others]:
        conf = {"bytes": n}
        key = run_key(conf, m["sha256"], None, host_id)
        runs.append(BytesRun(key, conf, f"bytes {m['model_id']} n_cpu_moe={n}", m, n, m is model))
    bw_conf = {**cfg["bandwidth"], "fake": bool(cfg["ballast"].get("fake_total_mib"))}
    runs.append(BandwidthRun(run_key({"bandwidth": bw_conf}, None, None, host_id), bw_conf, "bandwidth"))
    for n in cfg["n_cpu_moe"]:
        conf = {k: cfg[k] for k in CONFIG_KEYS}
        conf.update(model_id=model["model_id"], n_cpu_moe=int(n), budget_free_mib=cfg["ballast"]["free_mib"])
        key = run_key(conf, model["sha256"], toolchain_id, host_id)
        runs.append(SweepRun(key, conf, f"n_cpu_moe={n}", model, int(n)))
    return runs


#: the typed parameters of this experiment (``drift.params_class``)
PARAMS = OffloadParams

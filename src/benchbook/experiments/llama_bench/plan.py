"""What a llama-bench session runs, from its parameters alone: ``Params`` (the ``llama_bench`` section,
typed) and ``plan`` (one run per model and phase, with its run key).  No build, model file or process
is touched here: ``run.measure`` resolves those and iterates ``plan``; ``tests/test_plan_keys.py``
recomputes the keys of every committed session from its start record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from benchbook.session import run_key

from ..contract import Count, ModelId, Natural, Params, PlannedRun, Positive

#: llama-bench ``-fa``: auto | on | off (build b11434), or 0 | 1 (older builds).  A YAML bare on/off is a
#: boolean and is refused (quote it).
FlashAttn = Literal["auto", "on", "off"] | Annotated[int, Field(ge=0, le=1)]

#: The section keys that are part of every run's ``config`` (with ``model_id`` and ``phase``).
CONFIG_KEYS = ("n_prompt", "n_gen", "n_depth", "repetitions", "threads", "n_gpu_layers", "flash_attn")


class LlamaBenchParams(Params):
    """The ``llama_bench`` section of ``params.yaml`` (its comments say what each key does).  Keys without
    a default are required (the section always lists them); ``cold_first_run`` and ``timeout_s`` have
    the defaults the runner applied when a section left them out."""

    SECTION = "llama_bench"

    models: Annotated[list[ModelId], Field(min_length=1)]  # models.registry ids, measured in this order
    n_prompt: Count  # llama-bench -p (tokens; the pp test)
    n_gen: Count  # -n (tokens; the tg test)
    n_depth: Natural  # -d (tokens of context before each test)
    repetitions: Count  # -r of the warm run
    threads: Count  # -t
    n_gpu_layers: Natural  # -ngl (a CPU build ignores it)
    flash_attn: FlashAttn  # -fa (quote on/off: YAML reads them as booleans)
    cold_first_run: bool = (
        False  # one --no-warmup -r 1 run per model first, its file evicted from the page cache
    )
    timeout_s: Positive = 900  # per llama-bench invocation (s)


@dataclass(frozen=True)
class BenchRun(PlannedRun):
    """One llama-bench invocation: ``model`` (a model record: ``model_id``, ``sha256``, and ``path`` when
    measuring) in ``phase`` (``cold`` | ``warm``)."""

    model: Mapping
    phase: str


def plan(
    params: LlamaBenchParams, models: Sequence[Mapping], toolchain_id: str | None, host_id: str
) -> list[BenchRun]:
    """Every run of one session, in order: per model of ``models`` (in the order given), the cold run
    when ``cold_first_run``, then the warm run.  A run's ``config`` is ``CONFIG_KEYS`` of ``params``
    plus ``model_id`` and ``phase``; its key is ``run_key(config, model sha256, toolchain_id, host_id)``.
    """
    phases = (["cold"] if params.cold_first_run else []) + ["warm"]
    runs = []
    for m in models:
        for phase in phases:
            conf = {k: getattr(params, k) for k in CONFIG_KEYS}
            conf.update(model_id=m["model_id"], phase=phase)
            key = run_key(conf, m["sha256"], toolchain_id, host_id)
            runs.append(BenchRun(key, conf, f"{m['model_id']} {phase}", model=m, phase=phase))
    return runs


#: the typed parameters of this experiment (``drift.params_class``)
PARAMS = LlamaBenchParams

"""What a draft-self session plans to run, from its parameters alone (no model, no torch): the
default parameters, the configurations (``configs``) with their names (``config_name``), and every
decode of a session with its run key (``plan``; ``runs`` for the GPU variant's configurations too).
The runner (``run``) iterates ``plan``; the session check (``sessioncheck``) expects every
configuration; ``tests/test_plan_keys.py`` recomputes the keys of every committed session.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from benchbook.records import stable_hash

from ..contract import Count, Fraction, Natural, Params, PlannedRun

#: a document kind of ``draftself.data.KINDS`` (not imported: it loads torch; ``tests/test_contract.py``
#: holds the two lists equal)
Kind = Literal["letters", "count", "days", "months", "table", "story", "words"]

#: a share of the draft's probability mass within (0, 1]
Mass = Annotated[int, Field(gt=0, le=1)] | Annotated[float, Field(gt=0, le=1)]


class DraftselfParams(Params):
    """The ``draftself.measure`` section of ``params.yaml``, with the defaults used where it leaves a key
    out."""

    SECTION = "draftself.measure"

    n_tokens: Count = 48  # tokens generated per run (fixed length, like llama-bench tg)
    prompts_per_kind: Count = 1
    prompt_seed: int = 1
    # None: every document kind; else a list (e.g. ["letters", "story"])
    prompt_kinds: Annotated[list[Kind], Field(min_length=1)] | None = None
    ks: list[Count] = [1, 2, 4, 8, 15]  # block sizes for batched one-pass draft-self (tokens)
    sequential_ks: list[Count] = [4, 8, 15]
    iterative_ks: list[Count] = [8]
    threshold: Fraction = 0.95  # the iterative draft commits tokens above this confidence
    coreset_k: Count = 8
    coreset_masses: list[Mass] = [0.6, 0.9]  # probability mass each coreset keeps
    coreset_min: Count = 4  # floor on the coreset size (>= top_k)
    repetitions: Count = 3  # timed repetitions (plus one warm-up)
    step_reps: Natural = 1  # repetitions whose per-step records are written
    threads: Count = 1
    seed: int = 0
    dtype: Literal["float32", "float64"] = "float32"


#: The defaults as a dict (``DraftselfParams``').
DEFAULTS = DraftselfParams().config()


def configs(p: dict) -> list[dict]:
    """The configurations of one session, from params ``p``."""
    out = [{"decoder": "ar"}]
    out += [{"decoder": "draftself", "k": k, "verify": "batched", "draft": "one_pass"} for k in p["ks"]]
    out += [
        {"decoder": "draftself", "k": k, "verify": "sequential", "draft": "one_pass"}
        for k in p["sequential_ks"]
    ]
    out += [
        {
            "decoder": "draftself",
            "k": k,
            "verify": "batched",
            "draft": "iterative",
            "threshold": p["threshold"],
        }
        for k in p["iterative_ks"]
    ]
    for m in p["coreset_masses"]:
        for where in ("draft", "both"):
            out.append(
                {
                    "decoder": "draftself",
                    "k": p["coreset_k"],
                    "verify": "batched",
                    "draft": "one_pass",
                    "coreset_mass": m,
                    "coreset_min": p["coreset_min"],
                    "coreset_apply": where,
                }
            )
    for c in out:
        c["name"] = config_name(c)
    return out


def config_name(c: dict) -> str:
    if c["decoder"] == "ar":
        return "ar"
    s = f"ds-k{c['k']}-{c['verify']}-{c['draft']}"
    if "coreset_mass" in c:
        s += f"-coreset{c['coreset_mass']}-{c['coreset_apply']}"
    return s


def run_key(config: dict, rep: int, model_sha256: str, host_id: str) -> str:
    """16 hex identifying a draft-self run within its session: its ``config`` (the configuration, the
    generation settings and the prompt id), the repetition, the checkpoint's sha256 and the host.
    (Not ``session.run_key``: the runtime is not part of it, the repetition is.)"""
    return stable_hash([config, rep, model_sha256, host_id])


@dataclass(frozen=True)
class DecodeRun(PlannedRun):
    """One decode of ``prompt`` (``{"prompt_id", ...}``) by configuration ``c`` (a ``configs`` entry) in
    repetition ``rep``; repetition 0 is the warm-up, run but never written (its key is never done)."""

    rep: int
    prompt: Mapping
    c: Mapping

    @property
    def warmup(self) -> bool:
        return self.rep == 0


def runs(
    confs: Sequence[dict],
    prompts: Sequence[Mapping],
    repetitions: int,
    seed: int,
    settings: Mapping,
    model_sha256: str,
    host_id: str,
) -> list[DecodeRun]:
    """Every decode of one session, in order: for each repetition 0 (warm-up) .. ``repetitions``, for
    each prompt, every configuration of ``confs`` in an order shuffled by (``seed``, rep, prompt id)
    (``random.Random(stable_hash([seed, rep, prompt_id])).shuffle``), so slow drifts of the host hit
    all configurations alike.  ``config`` = the configuration, ``settings`` (``n_tokens``, ``dtype``,
    ``threads``) and ``prompt_id``; key = ``run_key(config, rep, model_sha256, host_id)``."""
    out = []
    for rep in range(repetitions + 1):
        for pr in prompts:
            order = list(confs)
            random.Random(stable_hash([seed, rep, pr["prompt_id"]])).shuffle(order)
            for c in order:
                config = dict(c) | dict(settings) | {"prompt_id": pr["prompt_id"]}
                key = run_key(config, rep, model_sha256, host_id)
                out.append(DecodeRun(key, config, f"r{rep} {pr['prompt_id']} {c['name']}", rep, pr, c))
    return out


def plan(p: Mapping, prompts: Sequence[Mapping], model_sha256: str, host_id: str) -> list[DecodeRun]:
    """Every decode of one CPU session of params ``p`` (``DEFAULTS`` updated by the section): ``runs`` of
    ``configs(p)`` with settings ``n_tokens``, ``dtype`` and ``threads`` (as an int) of ``p``.
    ``prompts``: ``draftself.data.prompts(prompt_seed, prompts_per_kind)`` of the kinds ``prompt_kinds``
    selects (``prompt_id`` is all a key needs)."""
    settings = {"n_tokens": p["n_tokens"], "dtype": p["dtype"], "threads": int(p["threads"])}
    return runs(configs(dict(p)), prompts, int(p["repetitions"]), p["seed"], settings, model_sha256, host_id)


#: the typed parameters of this experiment (``drift.params_class``)
PARAMS = DraftselfParams

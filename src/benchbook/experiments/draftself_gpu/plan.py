"""What a GPU draft-self session runs, from its parameters alone: AR and one-pass draft-self with
batched verify at each block size of ``ks`` (``configs``), every prompt, every repetition, each decode
with its run key (``plan``: ``draftself.plan.runs``, the CPU experiment's order and key).  ``run.measure``
iterates ``plan``; ``tests/test_plan_keys.py`` recomputes the keys of every committed session.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated

from pydantic import Field

from ..contract import Count, Params
from ..draftself.plan import DecodeRun, config_name, runs


class MeasureParams(Params):
    """The ``draftself_gpu.measure`` section of ``params.yaml``, with the defaults used where it leaves a
    key out."""

    SECTION = "draftself_gpu.measure"

    n_tokens: Count = 64  # tokens generated per run
    prompts_per_class: Count = 6  # prose and code: 12 prompts
    prompt_tokens: Count = 48  # tokens of each prompt
    ks: list[Count] = [1, 2, 3, 4, 6, 8]  # block sizes (tokens)
    repetitions: Count = 3  # timed, plus one warm-up
    seed: int = 0
    # files held out of training, per 256 (by sha256 of the path): at least one, never all
    held_out_per_256: Annotated[int, Field(ge=1, le=255)] = 26


#: The defaults as a dict (``MeasureParams``').
MEASURE_DEFAULTS = MeasureParams().config()


def configs(ks: Sequence[int]) -> list[dict]:
    """AR, then one-pass draft-self with batched verify at each k of ``ks``, each with its ``name``."""
    out = [{"decoder": "ar"}] + [
        {"decoder": "draftself", "k": k, "verify": "batched", "draft": "one_pass"} for k in ks
    ]
    for c in out:
        c["name"] = config_name(c)
    return out


def plan(
    mp: Mapping, prompts: Sequence[Mapping], model_sha256: str, host_id: str, threads: int
) -> list[DecodeRun]:
    """Every decode of one session of measure params ``mp`` (``MEASURE_DEFAULTS`` updated by the
    section): ``draftself.plan.runs`` of ``configs(mp["ks"])`` with settings ``n_tokens``, dtype
    ``float32`` and ``threads`` (torch's intra-op thread count when measuring, which the start record
    does not name: by default the host's physical cores).  ``prompts``: ``natural.prompts`` of the
    session (``prompt_id`` is all a key needs; the committed ones are in ``<host_id>.prompts.json``)."""
    settings = {"n_tokens": mp["n_tokens"], "dtype": "float32", "threads": threads}
    return runs(
        configs(mp["ks"]), prompts, int(mp["repetitions"]), mp["seed"], settings, model_sha256, host_id
    )


#: the prompt classes of a session, in ``draftself.natural.prompts``' order: ``prompts_per_class`` of
#: each, ids ``<class>-<i>``
PROMPT_CLASSES = ("prose", "code")


def planned_prompts(params: Mapping) -> set[str]:
    """The prompt ids a session with start-record ``config`` ``params`` measures (``natural.prompts``:
    ``prompts_per_class`` of each class, or CorpusError before any run); empty without that key.

    >>> sorted(planned_prompts({"prompts_per_class": 2}))
    ['code-0', 'code-1', 'prose-0', 'prose-1']
    """
    n = int(params.get("prompts_per_class") or 0)
    return {f"{kind}-{i}" for kind in PROMPT_CLASSES for i in range(n)}


def planned_configs(params: Mapping) -> list[str]:
    """The configuration names a session with start-record ``config`` ``params`` runs.

    >>> planned_configs({"ks": [1, 8]})
    ['ar', 'ds-k1-batched-one_pass', 'ds-k8-batched-one_pass']
    """
    return [c["name"] for c in configs([int(k) for k in params.get("ks", [])])]

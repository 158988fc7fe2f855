"""What a template session runs, from its parameters alone: ``Params`` (the ``template`` section, typed,
with its defaults) and ``plan`` (one run per repetition and size, with its run key).  ``run.measure``
iterates ``plan``; copy both when you copy the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from benchbook.session import run_key

from ..contract import Count, Params, PlannedRun
from . import EXPERIMENT

#: The template's model sha256 in its run keys: it hashes an in-memory buffer, no model file.
NO_MODEL = "none"


class TemplateParams(Params):
    """The ``template`` section of ``params.yaml``; every key has its default here (params.yaml need
    not have the section)."""

    SECTION = EXPERIMENT

    sizes_kib: Annotated[list[Count], Field(min_length=1)] = [64, 1024]  # buffer sizes hashed (KiB)
    repetitions: Count = 3  # timed runs per size


@dataclass(frozen=True)
class HashRun(PlannedRun):
    """One timed sha256 of ``size_bytes`` zero bytes (repetition ``rep``, 0-based)."""

    size_bytes: int
    rep: int


def plan(params: TemplateParams, toolchain_id: str, host_id: str) -> list[HashRun]:
    """Every run of one session, sizes interleaved per repetition: for each repetition, each size of
    ``sizes_kib`` in order.  ``config`` = ``{"size_bytes", "rep"}``; key =
    ``run_key(config, NO_MODEL, toolchain_id, host_id)``.

    Example: sizes [64, 1024] and 3 repetitions plan 2 x 3 = 6 runs, (65536, 0), (1048576, 0), (65536, 1) ...
    """
    runs = []
    for rep in range(params.repetitions):
        for kib in params.sizes_kib:
            conf = {"size_bytes": kib * 1024, "rep": rep}
            key = run_key(conf, NO_MODEL, toolchain_id, host_id)
            runs.append(HashRun(key, conf, f"{kib} KiB r{rep}", size_bytes=conf["size_bytes"], rep=rep))
    return runs


#: the typed parameters of this experiment (``drift.params_class``)
PARAMS = TemplateParams

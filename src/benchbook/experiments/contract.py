"""What an experiment implements, declared once: typed ``Params``, ``plan`` and ``measure``.

``experiments/<name>/plan.py`` holds ``plan`` and the experiment's ``Params`` subclass,
``experiments/<name>/run.py`` holds ``measure`` (``tests/test_contract.py`` checks every package):

* ``Params``: a pydantic model of the experiment's ``params.yaml`` section holding its defaults (the
  ``DEFAULTS`` dicts it replaces duplicated params.yaml beside the code).  ``from_section`` merges
  defaults, the section and a run's overrides, key by key, as ``{**DEFAULTS, **section, **overrides}``
  did; keys the model does not declare are kept as they are (``extra="allow"``: a committed session's
  config with a key no longer read, such as ``raw_dir``, still validates), types are checked strictly
  (YAML's bare ``on`` is a boolean, never the string llama-bench wants).  ``config()`` is the merged
  mapping a session records as its ``config``; it hashes as the dict it replaces did (``stable_hash``
  sorts keys), so resuming an interrupted session keeps working.
* ``plan(params, ...) -> list[PlannedRun]``: every run of one session, in measurement order, each
  with its run key (``session.run_key``; draft-self's own ``draftself.plan.run_key``), computed from
  the params and the ids a session's start record names (host, toolchain, model sha256), nothing
  measured.  ``measure`` iterates exactly this list, so what a resumed session skips is what the plan
  says was done; ``tests/test_plan_keys.py`` recomputes every committed session's keys from its start
  record.
* ``measure(params, *, root, raw_dir, overrides, log) -> session.SessionResult`` (or a subclass with
  the experiment's extras): one session, through ``harness.run_plan`` (open or resume, skip done run
  keys, one setup per group of runs, warm-up runs, record failures, progress, the result); what an
  experiment's ``run.py`` keeps is its measurement: how one run is measured and recorded, and what a
  group of runs shares (a llama-server, the memory ballast, an encoded prompt).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from pydantic import BaseModel, ConfigDict, ValidationError


class ParamsError(ValueError):
    """An experiment's params section does not fit its ``Params`` model: the message names the section,
    the key, what is wrong and the fix (a ValueError: the CLI prints it as one line)."""


class Params(BaseModel):
    """Base of an experiment's typed parameters (module doc).  A subclass declares its fields with their
    defaults and sets ``SECTION`` (the ``params.yaml`` key it reads)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    #: the ``params.yaml`` section this model reads (dotted: a subsection, ``draftself.measure``)
    SECTION: ClassVar[str] = ""

    @classmethod
    def from_section(cls, section: Mapping | None, overrides: Mapping | None = None) -> Self:
        """Defaults, then ``section``, then ``overrides`` (key by key), validated.

        Raises:
            ParamsError: a key has the wrong type or a required key is missing (names them and the fix).
        """
        merged = {**(section or {}), **(overrides or {})}
        try:
            return cls.model_validate(merged)
        except ValidationError as e:
            raise ParamsError(
                f"params.yaml {_explain(cls.SECTION, e)}; fix: correct it (the committed values: "
                "`git show HEAD:params.yaml`)"
            ) from None

    @classmethod
    def from_params(cls, params: Mapping | None, overrides: Mapping | None = None) -> Self:
        """``from_section`` of ``params[SECTION]`` (the whole ``params.yaml`` mapping; a dotted
        ``SECTION`` names a subsection; an absent one is empty)."""
        section = params
        for part in cls.SECTION.split("."):
            section = (section or {}).get(part)
        return cls.from_section(section, overrides)

    @classmethod
    def of(cls, value: Self | Mapping) -> Self:
        """``value`` itself when it is already of this class, else ``from_section(value)`` (a runner that
        takes the params or the mapping a session recorded as its config).

        Raises:
            ParamsError: the mapping does not fit (names the key and the fix).
        """
        return cls.from_section(value) if isinstance(value, Mapping) else value

    def config(self) -> dict:
        """The merged parameters as a plain dict: defaults filled in, undeclared keys kept (what a
        session records as its ``config`` and a ``SessionResult`` as its ``cfg``)."""
        return self.model_dump()


def _explain(section: str, error: ValidationError) -> str:
    """One clause per wrong key: ``section.key[.index]``, what it should be and the value given (a
    missing key: "missing").  pydantic puts the union member it tried into an error's location
    (``flash_attn.str``): not a key, so dropped, the members' messages joined ("a valid string or a
    valid integer")."""
    by_key: dict[str, tuple[list[str], str]] = {}
    for err in error.errors():
        field, *rest = err["loc"]
        key = ".".join(map(str, (section, field, *(i for i in rest if isinstance(i, int)))))
        given = "" if err["type"] == "missing" else f" (got {err.get('input')!r:.60})"
        msgs, _ = by_key.setdefault(key, ([], given))
        msgs.append("missing" if not given else err["msg"].removeprefix("Input should be " if msgs else ""))
    return "; ".join(f"`{key}`: {' or '.join(dict.fromkeys(m))}{given}" for key, (m, given) in by_key.items())


@dataclass(frozen=True)
class PlannedRun:
    """One run of a session's plan: ``key`` (16 hex, ``session.run_key``: what a resumed session
    skips), ``config`` (the run's configuration as its records carry it) and ``label`` (the run in
    words, for the log and the progress line).  An experiment subclasses it with what its ``measure``
    needs (the model record, the phase, ...)."""

    key: str
    config: dict
    label: str

    @property
    def warmup(self) -> bool:
        """A warm-up run: measured every time, never written, counted neither as ran nor as skipped
        (``harness.run_plan``).  False here; a subclass whose plan has warm-ups overrides it."""
        return False

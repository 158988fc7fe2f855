"""The claims-file schema (``schema: benchbook.claims``, ``schema_version: 1``) and its loader.

A claims file transcribes someone else's published numbers as facts (docs/claims.md):

* ``source``: where the numbers were published (kind, date, language, link, title, author,
  ``runs_per_prompt``, note);
* ``systems`` (machines: hardware facts) and ``environments`` (an OS/runtime on a system, with its
  limits); ``software`` (engine and build: what the source's *own* claims ran on, unless their
  ``conditions`` say otherwise; other facts), ``model`` and ``settings`` (free facts kept and shown,
  not interpreted); ``conditions``: defaults for the conditions of the source's *own* claims;
* ``claims``: one published number each (``id``, ``metric``, ``value`` or ``range``, ``unit``,
  stated precision, ``method``, ``n`` if stated, ``origin`` when the number is quoted from someone
  else, ``conditions``, ``counts``, ``capacity``, ``limit``, ``spread``, ``statement``, ``note``).
  A claim with no number behind it is kept (``statement`` gives its words) and judged;
* ``statements``: derived statements citing claims *or other statements* (``ratio``,
  ``percent_change``, ``difference``, ``sum``, ``mean``) or bounding a set (``bound``: "every X
  below Y", the pairing rule written in ``over.match``);
* ``log_pairs``: which raw log (``--logs DIR``) is the baseline of which speculative log.

Numbers keep the precision they were written with: the loader counts the decimals of ``value`` and
``range`` from the YAML text (``150.0`` has one), unless ``decimals`` is given.

``load(path)`` validates everything (types, required fields, unknown fields, references, duplicate
ids, cycles between statements) and raises ``ClaimsError`` naming ``file:line``, the field and the fix.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from ..errors import read_utf8
from .precision import Interval, decimals_of, interval_of
from .units import quantity

SCHEMA = "benchbook.claims"
SCHEMA_VERSION = 1


class ClaimsError(ValueError):
    """A malformed claims file; the message names file:line, the field and the fix."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _written_number(v: Any) -> Any:
    """A number as written in YAML: ``true`` or ``"10"`` are refused, not coerced to 1.0 or 10.0."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        shown = (
            "a boolean (YAML reads unquoted on/off/yes/no/true/false as one)"
            if isinstance(v, bool)
            else (f"{type(v).__name__} {v!r}")
        )
        raise ValueError(f"a number is needed, got {shown}; fix: write the number itself, unquoted")
    return v


#: a published number: finite (pydantic refuses nan/inf), never a boolean or a quoted string
Number = Annotated[float, BeforeValidator(_written_number)]

#: unit families, each unit spelled as users write it and ``units`` reads it (GiB, MB, ms), so an error
#: that lists them shows them so; a unit is matched to its family whatever its case (``family_of``;
#: ``units.quantity`` then reads the case: MB is not Mb).  A claim whose metric has a known family
#: must use one of its units, and a value in these families cannot be negative (a rate, size, time or
#: ratio).
UNIT_FAMILIES: dict[str, tuple[str, ...]] = {
    "rate": ("tok/s", "t/s", "tokens/s", "token/s", "tps", "tok/ms", "tok/min", "it/s"),
    "size": ("B", "KiB", "MiB", "GiB", "TiB", "kB", "MB", "GB", "TB"),
    "time": ("ns", "us", "µs", "ms", "s", "min", "h"),
    "ratio": ("x", "×", "ratio", "%"),
    "tokens": ("tokens", "token", "tokens/step", "tokens/verify step"),
}
#: lower-cased unit -> its family (``family_of``)
_FAMILY_OF = {u.lower(): f for f, units in UNIT_FAMILIES.items() for u in units}

#: the unit family of each known metric (an unknown metric is not checked)
METRIC_FAMILIES: dict[str, tuple[str, ...]] = {
    "decode_tps": ("rate",),
    "prefill_tps": ("rate",),
    "tg_tps": ("rate",),
    "pp_tps": ("rate",),
    "throughput": ("rate",),
    "acceptance_rate": ("ratio",),
    "speedup": ("ratio",),
    "vram_peak": ("size",),
    "vram": ("size",),
    "ram_peak": ("size",),
    "rss_peak": ("size",),
    "model_size": ("size",),
    "ttft": ("time",),
    "tpot": ("time",),
    "latency": ("time",),
    "load_time": ("time",),
    "mean_accepted_length": ("tokens", "ratio"),
    "tau": ("tokens", "ratio"),
}


def family_of(unit: str | None) -> str | None:
    """The family (``UNIT_FAMILIES`` key) of ``unit``, matched case-insensitively; None if unknown."""
    if unit is None:
        return None
    return _FAMILY_OF.get(unit.strip().lower())


def _check_number_unit(metric: str | None, unit: str | None, numbers: list[float]) -> None:
    """Raise ValueError (field named first) when ``unit`` does not fit ``metric`` or a number is
    negative in a family where that is impossible; ``%`` may be negative (a change)."""
    fam = family_of(unit)
    wanted = METRIC_FAMILIES.get(metric or "")
    if wanted and unit is not None and fam not in wanted:
        units = ", ".join(u for f in wanted for u in UNIT_FAMILIES[f])
        raise ValueError(f"unit: {unit!r} is not a unit of {metric}; fix: use one of {units}")
    if fam in ("size", "time", "rate") and quantity(unit) is None and (unit or "").strip().lower() != "it/s":
        raise ValueError(
            f"unit: {unit!r} is no {fam} unit as spelled: case carries meaning (B byte, b bit; M mega, "
            "m milli; T tera); fix: write it as units.py spells it (MB, GiB, Gb, ms, s, min)"
        )
    if fam is not None and (unit or "").strip() != "%" and any(x < 0 for x in numbers):
        raise ValueError(
            f"value: {min(numbers):g} {unit} is negative; a {fam} cannot be "
            "(fix: write a change in % or as a percent_change or difference statement)"
        )


class Source(_Strict):
    """Where the numbers were published."""

    kind: str = Field(description="blog post | paper | vendor page | forum post | README | ...")
    date: str | None = Field(default=None, description="as precise as known: 2026-10, 2026-10-31")
    language: str | None = Field(default=None, description="ISO 639-1 code of the text: ko, en")
    link: str | None = Field(default=None, description="URL; null when not recorded")
    title: str | None = None
    author: str | None = None
    runs_per_prompt: int | None = Field(
        default=None, description="runs behind each of the source's own numbers"
    )
    summary_of: str | None = Field(
        default=None,
        description="what this source summarises or reports (title or link of the original); "
        "null: the source published its numbers itself",
    )
    note: str | None = None


class System(_Strict):
    """A machine the source measured on; ``hardware`` is its identity in comparisons."""

    id: str
    hardware: str = Field(description="the identity compared between claims, e.g. the GPU name")
    gpu: dict[str, Any] | None = None
    cpu: dict[str, Any] | None = None
    ram: dict[str, Any] | None = None
    storage: str | None = None
    note: str | None = None


class Environment(_Strict):
    """An OS/runtime on a system (``system`` names a ``systems`` id), with its limits."""

    id: str
    system: str
    os: str | None = None
    facts: dict[str, Any] = Field(default_factory=dict, description="limits and idle usage, units in names")


class Software(_Strict):
    engine: str | None = None
    build: str | None = None
    facts: dict[str, Any] = Field(default_factory=dict)


class Offload(_Strict):
    n_gpu_layers: int | None = None
    n_cpu_moe: int | None = None


class Conditions(_Strict):
    """Conditions of one claim; null means not stated (never "different")."""

    env: str | None = Field(default=None, description="an environments id")
    hardware: str | None = Field(default=None, description="hardware of a system the file does not declare")
    engine: str | None = None
    build: str | None = None
    model: str | None = None
    quant: str | None = None
    offload: Offload | None = None
    decoding: str | None = Field(
        default=None, description="plain | draft-self | speculative | block diffusion ..."
    )
    block_max: int | None = Field(default=None, description="block size: most tokens drafted per step")
    prompt: str | None = None
    tokens_generated: int | None = None
    cap: int | None = Field(default=None, description="generation cap (n_predict / max tokens)")
    sampling: str | None = None
    ctx: int | None = None
    batch: int | None = None
    ubatch: int | None = Field(default=None, description="physical batch (-ub, llama-bench n_ubatch)")
    flash_attn: bool | None = Field(default=None, description="flash attention on (-fa 1) or off")
    type_k: str | None = Field(default=None, description="K cache type (-ctk: f16, q8_0 ...)")
    type_v: str | None = Field(default=None, description="V cache type (-ctv)")
    depth: int | None = Field(
        default=None, description="tokens already in the context when measured (llama-bench -d, n_depth)"
    )
    backend: str | None = Field(default=None, description="ggml backend: CUDA, Vulkan, Metal, CPU ...")
    concurrency: int | None = Field(
        default=None, ge=1, description="requests served at once (parallel slots)"
    )
    run_index: int | None = Field(
        default=None,
        ge=1,
        description="position among repeated runs or requests of one configuration, in the order they ran "
        "(1 = first)",
    )
    file_cache: Literal["cold", "warm"] | None = Field(
        default=None, description="model file in the page cache?"
    )
    other: dict[str, Any] = Field(default_factory=dict, description="facts with no field of their own")


class Counts(_Strict):
    """The counts behind a proportion, "k of n": an acceptance rate's ``accepted`` of ``drafted``
    (llama-server's ``draft_n_accepted`` / ``draft_n``: α = accepted ÷ drafted), or any other count's
    ``successes`` of ``trials`` ("7 of 12 tasks correct").  One pair, 0 ≤ k ≤ n, n ≥ 1."""

    accepted: int | None = Field(default=None, ge=0)
    drafted: int | None = Field(default=None, ge=1)
    successes: int | None = Field(
        default=None, ge=0, description="k of 'k of n': tasks passed, answers right"
    )
    trials: int | None = Field(default=None, ge=1, description="n of 'k of n'")

    @model_validator(mode="after")
    def _possible(self) -> Counts:
        acc = (self.accepted, self.drafted)
        trial = (self.successes, self.trials)
        if sum(None not in pair for pair in (acc, trial)) != 1 or any(
            (a is None) != (b is None) for a, b in (acc, trial)
        ):
            raise ValueError(
                "accepted: give one pair, {accepted: k, drafted: n} for an acceptance rate or "
                "{successes: k, trials: n} for another count; fix: write both numbers of one pair"
            )
        if self.k > self.n:
            names = ("accepted", "drafted") if self.accepted is not None else ("successes", "trials")
            raise ValueError(
                f"{names[0]}: {self.k} {names[0]} of {self.n} {names[1]} is impossible (k / n ≤ 1); "
                "fix: check which count is which"
            )
        return self

    @property
    def k(self) -> int:
        """The count: ``accepted`` or ``successes``."""
        return self.accepted if self.accepted is not None else self.successes or 0

    @property
    def n(self) -> int:
        """Out of: ``drafted`` or ``trials``."""
        return self.drafted if self.drafted is not None else self.trials or 1

    @property
    def alpha(self) -> float:
        """k / n (α = accepted / drafted for an acceptance rate): a ratio in [0, 1]."""
        return self.k / self.n

    def text(self) -> str:
        """``"60 accepted / 99 drafted"``, ``"7 of 12"``."""
        if self.accepted is not None:
            return f"{self.accepted} accepted / {self.drafted} drafted"
        return f"{self.successes} of {self.trials}"


def _about_needs_digits(item: Any) -> None:
    """``about: true`` with ``decimals: null`` (an exact number) contradicts itself: the "about" was
    dropped silently (breaker finding 17).

    Raises:
        ValueError: both given (the loader names the file:line and field).
    """
    if item.about and "decimals" in item.model_fields_set and item.decimals is None:
        raise ValueError(
            "about: an approximate value needs the digits it was written with, and `decimals: null` says "
            "it is exact; drop one of the two"
        )


class Claim(_Strict):
    """One published number (or a numberless claim, kept and judged)."""

    id: str
    metric: str = Field(description="decode_tps | prefill_tps | acceptance_rate | speedup | vram_peak | ...")
    value: Number | None = None
    range: tuple[Number, Number] | None = None
    decimals: int | None = Field(
        default=None,
        ge=-15,
        le=15,
        description="digits after the point as stated (from the YAML text); negative for a number "
        "written in thousands or millions: 10k is 10000 with decimals -3",
    )
    range_decimals: tuple[Annotated[int, Field(ge=0, le=15)], Annotated[int, Field(ge=0, le=15)]] | None = (
        Field(default=None, description="digits after the point of each end of a range (from the YAML text)")
    )
    about: bool = False
    unit: str | None = None
    method: str | None = Field(default=None, description="how it was measured, as stated; null: not stated")
    n: int | None = Field(default=None, ge=1, description="repetitions behind the number, if stated")
    origin: str | None = Field(default=None, description="who published it, when not the source itself")
    conditions: Conditions = Field(default_factory=Conditions)
    counts: Counts | None = None
    capacity: Number | None = Field(
        default=None,
        gt=0,
        description="the capacity a memory value is measured against (device memory, a RAM limit), same unit",
    )
    limit: Number | None = Field(
        default=None,
        description="the most the value can be by its own definition (turns allowed, max tokens, max steps)",
    )
    spread: Number | None = Field(
        default=None,
        ge=0,
        description="run-to-run spread stated beside a value over n runs (sd, or ± half a range), same unit",
    )
    statement: str | None = Field(default=None, description="the claim in the source's words")
    log: str | None = Field(default=None, description="a raw log file (under --logs DIR) behind this number")
    note: str | None = None
    source_line: int | None = Field(default=None, ge=1, description="line of the post the number is on")
    quote: str | None = Field(default=None, description="the source's sentence or table row, as written")
    reviewed: bool = Field(
        default=True,
        description="false: guessed by `benchbook claims draft`, replaced when the post is drafted again",
    )

    @model_validator(mode="after")
    def _number_needs_unit(self) -> Claim:
        if self.value is not None and self.range is not None:
            raise ValueError("give value or range, not both")
        if (self.value is not None or self.range is not None) and not self.unit:
            raise ValueError("unit: a claim with a value or range needs its unit (tok/s, GiB, s, ratio, %)")
        if self.value is None and self.range is None and not self.statement:
            raise ValueError("statement: a claim with no number needs the source's words in `statement`")
        if self.range is not None and self.range[0] > self.range[1]:
            raise ValueError("range: write [low, high]")
        _about_needs_digits(self)
        numbers = [self.value] if self.value is not None else list(self.range or ())
        _check_number_unit(self.metric, self.unit, numbers)
        return self


class BoundSet(_Strict):
    """The set a ``bound`` statement ranges over: each claim matching ``numerator`` divided by each
    claim matching ``denominator`` with equal values of every ``match`` field (or the numerator
    values themselves when ``denominator`` is absent).  Field names: the claim's top-level fields
    (``metric``, ``method``, ``unit``) and its conditions (``env``, ``decoding``, ``n_cpu_moe``...)."""

    numerator: dict[str, Any]
    denominator: dict[str, Any] | None = None
    match: list[str] = Field(default_factory=list)


#: statement kinds that compare their two sides (a ratio, a change, a gap): whatever else differs
#: between the sides (method, hardware, source, conditions) confounds what is compared
COMPARING_KINDS = ("ratio", "percent_change", "difference")
#: statement kinds that pool their members (a total, an average: "the three models take 40 GiB
#: together"): the members differ by design and nothing is compared, so only a mix of phases (rates
#: of prefill and decode added or averaged) makes one meaningless
AGGREGATING_KINDS = ("sum", "mean")


class Statement(_Strict):
    """A statement derived from claims or other statements.

    ``of`` cites ids: ``ratio`` of[0] / of[1]; ``percent_change`` from of[0] to of[1], in %;
    ``difference`` of[0] - of[1]; ``sum`` / ``mean`` of all.  ``bound``: every value of ``over``
    is ``relation`` (below | above) ``value``."""

    id: str
    kind: Literal["ratio", "percent_change", "difference", "sum", "mean", "bound"]
    statement: str
    of: list[str] = Field(default_factory=list)
    over: BoundSet | None = None
    relation: Literal["below", "above"] | None = None
    value: Number | None = None
    range: tuple[Number, Number] | None = None
    decimals: int | None = Field(default=None, ge=-15, le=15)
    range_decimals: tuple[int, int] | None = None
    about: bool = False
    unit: str | None = Field(
        default=None, description="'%' or 'x' for ratios; % for percent_change; else the claims'"
    )
    note: str | None = None
    source_line: int | None = Field(default=None, ge=1, description="line of the post the statement is on")
    quote: str | None = Field(default=None, description="the source's sentence, as written")
    reviewed: bool = Field(
        default=True,
        description="false: guessed by `benchbook claims draft`, replaced when the post is drafted again",
    )

    @model_validator(mode="after")
    def _shape(self) -> Statement:
        if self.kind == "bound":
            if self.over is None or self.relation is None or self.value is None:
                raise ValueError("over: a bound statement needs `over`, `relation` and the bound as `value`")
        elif self.kind in ("ratio", "percent_change", "difference") and len(self.of) != 2:
            raise ValueError(f"of: a {self.kind} cites exactly two ids, got {len(self.of)}")
        elif self.kind in ("sum", "mean") and len(self.of) < 2:
            raise ValueError(f"of: a {self.kind} cites at least two ids")
        if self.kind == "percent_change" and self.unit not in (None, "%"):
            raise ValueError("unit: a percent_change is stated in %")
        if self.range is not None and self.range[0] > self.range[1]:
            raise ValueError("range: write [low, high]")
        _about_needs_digits(self)
        return self


def stated_interval_of(item: Claim | Statement) -> Interval | None:
    """The interval of true values a claim's or statement's stated ``value`` or ``range`` stands for
    (``precision.interval_of``), each end of a range with its own decimals: "6.1 to 6.34" stands for
    ``[6.05, 6.345]``, not ``[6.095, 6.345]``.  None when nothing is stated."""
    return interval_of(item.value, item.range, item.decimals, item.range_decimals, item.about, item.unit)


class Todo(_Strict):
    """A relating phrase whose sides were not identified (``todo:`` on a statement): kept with the
    candidate claims, listed on the audit page, never recomputed until ``of`` names its two sides and
    ``todo`` is removed."""

    id: str
    todo: str = Field(description="what is missing, e.g. 'name the two sides in of'")
    kind: Literal["ratio", "percent_change", "difference", "sum", "mean", "bound"] | None = None
    statement: str
    of: list[str] = Field(default_factory=list, description="the candidate claims (any number)")
    value: Number | None = None
    range: tuple[Number, Number] | None = None
    decimals: int | None = Field(default=None, ge=-15, le=15)
    range_decimals: tuple[int, int] | None = None
    about: bool = False
    unit: str | None = None
    note: str | None = None
    source_line: int | None = Field(default=None, ge=1)
    quote: str | None = None
    reviewed: bool = True


class Unplaced(_Strict):
    """A number of the post the draft could not make a claim of: listed, never dropped."""

    line: int = Field(ge=1)
    number: str
    text: str


class Draft(_Strict):
    """What ``benchbook claims draft`` wrote: the post, every id it has drafted (an id the user
    deleted is not drafted again), where its guessed conditions came from, and the numbers it could
    not place."""

    post: str
    drafted: list[str] = Field(default_factory=list)
    sums: dict[str, str] = Field(
        default_factory=dict,
        description="id -> digests of what the draft wrote (its quote, metric and value; the whole "
        "entry), so a re-draft names the same entry whatever line it moved to, and tells a guess you edited",
    )
    conditions_from: dict[str, dict[str, tuple[Any, str]]] = Field(
        default_factory=dict,
        description="claim id -> condition path -> [the value drafted, where the draft took it from: "
        "'line 3, setup', 'line 1, the title', 'guess: ...'] for a condition the claim's own words do not "
        "state; shown on the audit page beside the condition while it holds that value",
    )
    unplaced: list[Unplaced] = Field(default_factory=list)


class LogPair(_Strict):
    """A speculative log and the baseline log it is compared with (file names under ``--logs``)."""

    log: str
    baseline: str


class ClaimsFile(_Strict):
    """A whole claims file (module doc)."""

    schema_: Literal["benchbook.claims"] = Field(alias="schema")
    schema_version: Literal[1]
    source: Source
    systems: list[System] = Field(default_factory=list)
    environments: list[Environment] = Field(default_factory=list)
    software: Software = Field(default_factory=Software)
    model: dict[str, Any] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)
    conditions: Conditions = Field(default_factory=Conditions, description="defaults for own claims")
    claims: list[Claim] = Field(default_factory=list)
    statements: list[Statement] = Field(default_factory=list)
    log_pairs: list[LogPair] = Field(default_factory=list, description="speculative log -> its baseline log")
    todo: list[Todo] = Field(
        default_factory=list, description="statements marked todo: (moved here from `statements` on load)"
    )
    draft: Draft | None = Field(default=None, description="written by `benchbook claims draft`")
    _where: dict[str, str] = PrivateAttr(default_factory=dict)
    _index: dict = PrivateAttr(default_factory=dict)

    def where(self, item_id: str) -> str:
        """``file:line`` of the claim or statement ``item_id`` as loaded (``"?"`` for a file built
        in memory)."""
        return self._where.get(item_id, "?")

    def claim(self, cid: str) -> Claim | None:
        """The claim ``cid`` (None: no such claim); by an index, so an audit stays linear in the file."""
        return self._by_id(self.claims).get(cid)

    def statement(self, sid: str) -> Statement | None:
        """The statement ``sid`` (None: no such statement)."""
        return self._by_id(self.statements).get(sid)

    def _by_id(self, items: list) -> dict:
        """``{id: item}`` of ``items`` (the first of a repeated id, as a scan finds it), rebuilt when
        the list is another object or changed length (a file built in memory may append)."""
        key = (id(items), len(items))
        if self._index.get("key", {}).get(id(items)) != key:
            index: dict = {}
            for item in items:
                index.setdefault(item.id, item)
            self._index[id(items)] = index
            self._index.setdefault("key", {})[id(items)] = key
        return self._index[id(items)]

    def conditions_of(self, claim: Claim) -> Conditions:
        """The claim's conditions with the file's defaults filled in where the claim states none:
        its ``conditions``, and under them ``software`` (``engine``, ``build``: the software the
        source measured with); a quoted claim (``origin`` set) gets no defaults.

        A build belongs to its engine: where a nearer level names another ``engine`` than the farther
        one and no ``build``, the farther level's build is not carried over (``software: {engine:
        llama.cpp fork, build: b11434}`` and a claim's ``engine: llama.cpp``: engine llama.cpp,
        build not stated; not llama.cpp b11434, which would read as this project's build); a build
        stated under no engine is carried over.  ``offload`` and ``other`` merge key by key: a claim's
        ``offload: {n_cpu_moe: 26}`` under the file's ``offload: {n_gpu_layers: 99}`` is both."""
        if claim.origin is not None:
            return claim.conditions
        merged: dict = {}
        for level in (
            self.software.model_dump(include={"engine", "build"}, exclude_none=True),
            self.conditions.model_dump(exclude_none=True, exclude_defaults=True),
            claim.conditions.model_dump(exclude_none=True, exclude_defaults=True),
        ):
            farther = merged.get("engine")
            if (
                "engine" in level
                and "build" not in level
                and farther is not None
                and level["engine"] != farther
            ):
                merged.pop("build", None)
            merged = _merge(merged, level)  # offload and other key by key: n_cpu_moe keeps n_gpu_layers
        return Conditions.model_validate(merged)

    def system_of(self, claim: Claim) -> System | None:
        """The declared system a claim ran on (through its environment), or None."""
        env = self.conditions_of(claim).env
        e = next((x for x in self.environments if x.id == env), None)
        return next((s for s in self.systems if e and s.id == e.system), None)


def host_of(cf: ClaimsFile, claim: Claim) -> str | None:
    """Hardware identity of a claim: its declared system's ``hardware``, else ``conditions.hardware``."""
    system = cf.system_of(claim)
    return system.hardware if system else cf.conditions_of(claim).hardware


def field_of(claim: Claim, conditions: Conditions, name: str):
    """Value of a field by name for set matching: a claim field (``metric``, ``method``, ``unit``,
    ``origin``), a condition (``env``, ``decoding``...), an offload field (``n_cpu_moe``,
    ``n_gpu_layers``) or a key of ``conditions.other``; None when absent."""
    if name in Claim.model_fields and name != "conditions":
        return getattr(claim, name)
    if name in Conditions.model_fields:
        return getattr(conditions, name)
    if name in Offload.model_fields:
        return getattr(conditions.offload, name) if conditions.offload else None
    return conditions.other.get(name)


# --- YAML with line numbers and number text --------------------------------------------------------


#: a plain scalar in exponent notation without the sign PyYAML needs (``1.5e3``, ``2E6``), or a signed
#: fraction with no digit before its point (``-.5``, ``+.25``: YAML 1.1 reads only ``.5`` as a number)
_EXPONENT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)[eE][+-]?\d+|[+-]\.\d+")


#: PyYAML's safe loader in C (libyaml) where the wheel has it: the pure-Python one parses a claims file
#: of 4,000 claims in about 10 s
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _refuse_aliases(path: Path, text: str) -> None:
    """Refuse an alias (``*name``): a claims file has no use for one, and a few kilobytes of nested
    aliases expand to gigabytes when the document is walked (issue 34 §3: an 11 KB file took 72 s and
    over 4 GB, then a ``MemoryError``).  Checked on the event stream, before anything is composed.

    Raises:
        ClaimsError: the first alias, with its line and the fix.
    """
    if "*" not in text:
        return
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent):
            raise ClaimsError(
                f"{path}:{event.start_mark.line + 1}: YAML alias *{event.anchor}: a claims file takes no "
                "aliases (they repeat parts of the file; nested ones expand without bound); fix: write the "
                "values out, or give what claims share through `groups:`"
            )


#: the deepest nesting of lists and mappings a claims file may have (the schema needs 5; deeper input
#: would exhaust Python's recursion limit while reading or validating it)
MAX_DEPTH = 64


class _Marks(dict):
    """A mapping of paths (tuples) to marks (a line, a number's text) that also finds every path under
    a prefix (``under``) from an index of each path's children, without a scan of all paths:
    ``groups:`` copy the marks of each table cell and row, and a scan of all paths per copy made a
    10,000-cell table take minutes (quadratic).  A deleted path stays in the index, skipped there."""

    def __init__(self) -> None:
        super().__init__()
        self._kids: dict[tuple, dict[tuple, None]] = {}

    def __setitem__(self, loc: tuple, value: Any) -> None:
        if loc not in self:
            child = loc
            while child:  # link the path to its parent, the parent to its own, up to a linked one
                parent = child[:-1]
                linked = parent in self._kids
                self._kids.setdefault(parent, {})[child] = None
                if linked:
                    break
                child = parent
        super().__setitem__(loc, value)

    def setdefault(self, loc: tuple, value: Any = None) -> Any:
        if loc not in self:
            self[loc] = value
        return self[loc]

    def under(self, prefix: tuple) -> list[tuple]:
        """The paths that start with ``prefix`` (``prefix`` itself included when present)."""
        out, stack = [], [prefix]
        while stack:
            loc = stack.pop()
            if loc in self:
                out.append(loc)
            stack.extend(self._kids.get(loc, ()))
        return out


class _Doc:
    """The parsed YAML plus ``lines`` (path tuple -> 1-based line) and ``texts`` (path -> scalar text)."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines: _Marks = _Marks()
        self.texts: _Marks = _Marks()
        self.written_as: dict[tuple, tuple] = {}  # a claim from `groups:` -> where it was written
        loader = _LOADER(text)
        try:
            _refuse_aliases(path, text)
            node = loader.get_single_node()
            self.data = self._walk(loader, node, ()) if node is not None else None
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            line = mark.line + 1 if mark else 0
            raise ClaimsError(
                f"{path}:{line}: YAML syntax error: {e.problem or e}; fix: correct the YAML at that line"
            ) from None
        except yaml.reader.ReaderError as e:  # a character YAML may not hold (YAML 1.1 §5.1)
            raise ClaimsError(
                f"{path}:{text.count(chr(10), 0, e.position) + 1}: character #x{e.character:04x}: YAML may "
                "not hold it "
                "(a control character or non-character); fix: delete it, or write it as a \\u escape "
                "inside double quotes"
            ) from None
        except yaml.YAMLError as e:
            raise ClaimsError(f"{path}: not YAML ({e}); fix: correct the YAML") from None
        except RecursionError:  # the parser's own nesting, before ``_walk`` counts it
            raise ClaimsError(
                f"{path}: nesting deeper than {MAX_DEPTH} levels of lists or mappings; fix: a claims file "
                "nests a few levels: flatten the value"
            ) from None
        finally:
            loader.dispose()

    def _walk(self, loader, node, path):
        self.lines[path] = node.start_mark.line + 1
        if len(path) > MAX_DEPTH:
            raise ClaimsError(
                f"{self.path}:{node.start_mark.line + 1}: nesting deeper than {MAX_DEPTH} levels of lists "
                "or mappings; fix: a claims file nests a few levels: flatten the value"
            )
        if isinstance(node, yaml.MappingNode):
            out = {}
            previous = None
            for k, v in node.value:
                if not isinstance(k, yaml.ScalarNode):
                    # a complex key (`? [a, b]`, `{x: 1}: 2`): a list or mapping is no name, and as
                    # a dict key it raised TypeError (unhashable), a traceback
                    raise ClaimsError(
                        f"{self.path}:{k.start_mark.line + 1}: {_loc_text(path) or 'top level'}: a key "
                        "that is a list or mapping (`? [...]`, `{...}: value`); fix: a key is a name: write "
                        "`name: value`"
                    )
                key = loader.construct_object(k, deep=True)
                if key in out:
                    raise ClaimsError(
                        f"{self.path}:{k.start_mark.line + 1}: duplicate key {key!r}; fix: keep one"
                    )
                if node.flow_style and previous is not None and _split_off(k, v):
                    self._split_error(k, path, previous, out[previous], key)
                out[key] = self._walk(loader, v, path + (key,))
                previous = key
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self._walk(loader, v, path + (i,)) for i, v in enumerate(node.value)]
        if node.tag.endswith((":int", ":float")):
            if ":" in node.value:  # YAML 1.1 reads 1:30 as 90 (base 60)
                raise ClaimsError(
                    f"{self.path}:{node.start_mark.line + 1}: {_loc_text(path)}: YAML read the unquoted "
                    f"{node.value} as the base-60 number {loader.construct_object(node)}; fix: quote it "
                    f"({path[-1]}: '{node.value}'), or write the number in one unit (90 s)"
                )
            digits = node.value.lstrip("+-").replace("_", "")
            if node.tag.endswith(":int") and (
                (len(digits) > 1 and digits[0] == "0" and digits.isdigit())
                or digits[:2].lower() in ("0x", "0o", "0b")
            ):
                # YAML 1.1 reads 010 as octal 8, 0x1F as 31: no figure is written so (a name or a
                # commit written so is a string: quoted)
                meant = (digits.lstrip("0") or "0") if digits.isdigit() else loader.construct_object(node)
                raise ClaimsError(
                    f"{self.path}:{node.start_mark.line + 1}: {_loc_text(path)}: YAML reads the unquoted "
                    f"{node.value} as {loader.construct_object(node)} (octal, hexadecimal or binary); fix: "
                    f"quote it if it is a name or a commit ({path[-1]}: '{node.value}'), else write the "
                    f"number in decimals ({path[-1]}: {meant})"
                )
            if len(digits) > 18 and node.tag.endswith(":int"):
                # past a 64-bit integer (the tables' and the audit's arithmetic), or past Python's
                # 4300-digit conversion limit (which raised without a file or line)
                raise ClaimsError(
                    f"{self.path}:{node.start_mark.line + 1}: {_loc_text(path)}: an integer of {len(digits)} "
                    "digits; fix: a count or setting has at most 18 digits: check the value (a name or a "
                    "commit is quoted)"
                )
            if len(digits) > 300 and node.tag.endswith(":float"):
                raise ClaimsError(
                    f"{self.path}:{node.start_mark.line + 1}: {_loc_text(path)}: a number of {len(digits)} "
                    "characters; fix: check the value"
                )
            self.texts[path] = node.value
        if node.tag.endswith(":str") and not node.style and _EXPONENT.fullmatch(node.value):
            # YAML 1.1 (PyYAML) reads an unquoted 1.5e3 as a string (it wants 1.5e+3), and -.5 too;
            # YAML 1.2 and every reader of the number mean 1500 and -0.5
            self.texts[path] = node.value
            return float(node.value)
        return loader.construct_object(node, deep=True)

    def _split_error(self, k, path: tuple, previous: Any, value: Any, key: Any) -> None:
        """Raise the error for a flow-mapping entry with no ``:`` (``_split_off``): the comma before it
        ended the previous value."""
        where = _loc_text(path + (previous,))
        joined = f"{value}, {key}" if value is not None else f"{key}"
        raise ClaimsError(
            f"{self.path}:{k.start_mark.line + 1}: {where}: a comma inside a flow mapping {{...}} split "
            f"the value: {previous}: {value!r} ended at the comma and {str(key)!r} became a key with no "
            f'value; fix: quote the value ({previous}: "{joined}")'
        )

    def name(self, loc: tuple) -> str:
        """The dotted field path of ``loc`` as the user wrote it: a claim from ``groups:`` is named
        where it was written (``groups.0.table.rows.2``), not as the claim it became."""
        for i in range(len(loc), 0, -1):
            written = self.written_as.get(tuple(loc[:i]))
            if written is not None:
                return _loc_text(written + tuple(loc[i:]))
        return _loc_text(loc)

    def line(self, loc: tuple) -> int:
        """Line of the deepest existing prefix of ``loc``."""
        for i in range(len(loc), -1, -1):
            if tuple(loc[:i]) in self.lines:
                return self.lines[tuple(loc[:i])]
        return 1


def read_yaml(path: Path, text: str) -> Any:
    """``text`` (the claims file ``path``) read as YAML the way ``load`` reads it, before any field is
    checked: plain Python values, or None for an empty file.  ``claims draft`` reads the file it merges
    into with it, so a file the audit would refuse is refused there too, with the same line (a tag, an
    alias, a duplicate key, a key that is a list, nesting past ``MAX_DEPTH``), not met as a traceback
    halfway through the merge.

    Raises:
        ClaimsError: the first such fault, naming ``path``:line and the fix.
    """
    return _Doc(path, text).data


def _split_off(k, v) -> bool:
    """Whether a flow-mapping entry has no ``:`` at all (``{note: fell back, then recovered}`` has the
    entry ``then recovered``): its value is an empty null starting where the key ends."""
    return (
        isinstance(v, yaml.ScalarNode)
        and v.tag.endswith(":null")
        and v.value == ""
        and v.start_mark.index == k.end_mark.index
    )


#: fields a ``groups:`` entry gives to the claims it lists (a claim's own value wins; ``conditions``
#: are merged, the claim's over the group's)
GROUP_FIELDS = ("metric", "unit", "method", "n", "origin", "about", "conditions", "note", "reviewed")
#: the keys of a ``groups:`` entry
GROUP_KEYS = ("id", *GROUP_FIELDS, "claims", "table")


def _merge(farther: dict, nearer: dict) -> dict:
    """``nearer`` over ``farther``, mappings merged key by key (``conditions``, ``offload``, ``other``)."""
    out = dict(farther)
    for k, v in nearer.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _table_columns() -> dict[str, tuple]:
    """Column name -> where its cell goes in a claim: a claim field, a condition, an offload field;
    ``other.KEY`` columns go under ``conditions.other`` (``_row_claim``)."""
    where: dict[str, tuple] = {}
    for name in Offload.model_fields:
        where[name] = ("conditions", "offload", name)
    for name in Conditions.model_fields:
        if name not in ("offload", "other"):
            where[name] = ("conditions", name)
    for name in Claim.model_fields:
        if name not in ("conditions", "counts", "range_decimals"):
            where[name] = (name,)
    return where


def _copy_marks(doc: _Doc, src: tuple, dst: tuple) -> None:
    """Lines and number texts of ``src`` (and below) also under ``dst``."""
    for store in (doc.lines, doc.texts):
        for loc in store.under(src):
            store[dst + loc[len(src) :]] = store[loc]


def _expand_groups(doc: _Doc) -> None:
    """Turn ``groups:`` into claims (docs/claims.md "Groups and tables"): each entry's ``claims`` and
    each row of its ``table`` become claims after the file's own, taking the group's fields where they
    state none; lines and number texts follow them, and errors name where they were written.

    Raises:
        ClaimsError: a group that is not a mapping, an unknown group key, an unknown table column, or
        a row whose length is not the number of columns (file:line, the field, the fix)."""
    data: dict = doc.data or {}
    groups = data.pop("groups", None)
    if groups is None:
        return
    where = doc.path
    if not isinstance(groups, list):
        raise ClaimsError(
            f"{where}:{doc.line(('groups',))}: groups: a list of groups is needed; fix: "
            "write `groups:` then `- {conditions: ..., claims: [...]}` entries"
        )
    claims = data.setdefault("claims", [])
    if not isinstance(claims, list):
        return  # the schema names this error
    columns_known = _table_columns()
    for gi, group in enumerate(groups):
        gloc = ("groups", gi)
        if not isinstance(group, dict):
            raise ClaimsError(
                f"{where}:{doc.line(gloc)}: groups.{gi}: a group is a mapping; fix: write "
                f"{{{', '.join(GROUP_KEYS)}}}"
            )
        unknown = [k for k in group if k not in GROUP_KEYS]
        if unknown:
            raise ClaimsError(
                f"{where}:{doc.line(gloc + (unknown[0],))}: groups.{gi}.{unknown[0]}: not a group field; "
                f"fix: a group takes {', '.join(GROUP_KEYS)} (claim fields go on each claim)"
            )
        shared = {k: group[k] for k in GROUP_FIELDS if k in group}
        items: list[tuple[tuple, dict]] = []
        for j, item in enumerate(group.get("claims") or []):
            if not isinstance(item, dict):
                raise ClaimsError(
                    f"{where}:{doc.line(gloc + ('claims', j))}: groups.{gi}.claims.{j}: a "
                    "claim is a mapping; fix: write {id: ..., value: ...}"
                )
            items.append((gloc + ("claims", j), item))
        items += _table_rows(doc, gloc, group.get("table"), columns_known)
        for src, item in items:
            k = len(claims)
            dst = ("claims", k)
            claims.append(_merge(shared, item))
            for name in shared:
                if name not in item:
                    _copy_marks(doc, gloc + (name,), dst + (name,))
            _copy_marks(doc, src, dst)
            doc.lines.setdefault(dst, doc.line(src))
            doc.written_as[dst] = src


def _table_rows(
    doc: _Doc, gloc: tuple, table: Any, columns_known: dict[str, tuple]
) -> list[tuple[tuple, dict]]:
    """The claims of a group's ``table: {columns: [...], rows: [[...], ...]}``, each with the path of
    its row; a cell written null is left out (the group's value, or not stated)."""
    if table is None:
        return []
    where, tloc = doc.path, gloc + ("table",)
    name = _loc_text(tloc)
    if not isinstance(table, dict) or set(table) != {"columns", "rows"}:
        raise ClaimsError(
            f"{where}:{doc.line(tloc)}: {name}: a table is {{columns: [...], rows: [[...], "
            "...]}; fix: give both, nothing else"
        )
    columns = table["columns"]
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
        raise ClaimsError(
            f"{where}:{doc.line(tloc + ('columns',))}: {name}.columns: a list of field "
            "names is needed; fix: columns: [id, value, prompt]"
        )
    for i, col in enumerate(columns):
        if col in columns[:i] or col == "other.":
            # "[id, value, value]": the second cell overwrote the first without a word
            raise ClaimsError(
                f"{where}:{doc.line(tloc + ('columns', i))}: {name}.columns.{i}: "
                + (f"{col!r} is named twice" if col != "other." else "'other.' names no key")
                + "; fix: one column per field (other.NAME for a condition of your own)"
            )
        if col not in columns_known and not col.startswith("other."):
            raise ClaimsError(
                f"{where}:{doc.line(tloc + ('columns', i))}: {name}.columns.{i}: {col!r} is neither a "
                f"claim field nor a condition; fix: use one of {', '.join(sorted(columns_known))}, or "
                f"other.{col} for a fact with no field of its own"
            )
    out = []
    for r, row in enumerate(table["rows"] or []):
        rloc = tloc + ("rows", r)
        if not isinstance(row, list) or len(row) != len(columns):
            got = len(row) if isinstance(row, list) else type(row).__name__
            raise ClaimsError(
                f"{where}:{doc.line(rloc)}: {name}.rows.{r}: {got} cells for {len(columns)} columns "
                f"({', '.join(columns)}); fix: one cell per column, null where the row states nothing"
            )
        claim: dict = {}
        for i, (col, cell) in enumerate(zip(columns, row, strict=True)):
            if cell is None:
                continue
            dest = (
                ("conditions", "other", col.removeprefix("other."))
                if col.startswith("other.")
                else (columns_known[col])
            )
            node = claim
            for part in dest[:-1]:
                node = node.setdefault(part, {})
            node[dest[-1]] = cell
            _copy_marks(doc, rloc + (i,), rloc + dest)
        out.append((rloc, claim))
    return out


def _split_todo(doc: _Doc) -> None:
    """Move the statements marked ``todo:`` out of ``statements`` into the file's ``todo`` list (no
    recomputation, no verdict: their sides are not named yet); lines and errors follow them, named
    where they were written (``statements.3``)."""
    data: dict = doc.data or {}
    items = data.get("statements")
    if not isinstance(items, list) or not any(isinstance(s, dict) and "todo" in s for s in items):
        return
    keep: list = []
    todo = data.setdefault("todo", [])
    moves: list[tuple[tuple, tuple]] = []
    for i, item in enumerate(items):
        if isinstance(item, dict) and "todo" in item:
            moves.append((("statements", i), ("todo", len(todo))))
            todo.append(item)
        else:
            moves.append((("statements", i), ("statements", len(keep))))
            keep.append(item)
    data["statements"] = keep
    for store in (doc.lines, doc.texts):
        old = {src: [(loc, store[loc]) for loc in store.under(src)] for src, _ in moves}
        for loc in store.under(("statements",)):
            if len(loc) > 1:
                del store[loc]
        for src, dst in moves:
            for loc, v in old[src]:
                store[dst + loc[2:]] = v
    for src, dst in moves:
        doc.written_as[dst] = src


def _fill_decimals(doc: _Doc) -> None:
    """Set ``decimals`` of every claim/statement value or range from the number as written."""
    for section in ("claims", "statements", "todo"):
        items = doc.data.get(section) if isinstance(doc.data, dict) else None
        if not isinstance(items, list):  # the schema names a section that is not a list
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict) or "decimals" in item:
                continue
            texts = [doc.texts.get((section, i, "value"))]
            texts += [doc.texts.get((section, i, "range", j)) for j in (0, 1)]
            digits = [d for d in (decimals_of(t) for t in texts if t is not None) if d is not None]
            if digits:
                item["decimals"] = max(digits)
            ends = [decimals_of(t) if t is not None else None for t in texts[1:]]
            if "range_decimals" not in item and ends[0] is not None and ends[1] is not None:
                item["range_decimals"] = ends  # each end of a range stands for its own precision


def _loc_text(loc: tuple) -> str:
    return ".".join(str(p) for p in loc)


def _check_references(cf: ClaimsFile, doc: _Doc) -> None:
    where = doc.path
    ids: dict[str, tuple] = {}
    sections: tuple[tuple[str, Sequence[Claim | Statement]], ...] = (
        ("claims", cf.claims),
        ("statements", cf.statements),
    )
    for section, items in sections:
        for i, it in enumerate(items):
            if it.id in ids:
                raise ClaimsError(
                    f"{where}:{doc.line((section, i, 'id'))}: {doc.name((section, i, 'id'))}: duplicate id "
                    f"{it.id!r} (first at line {doc.line(ids[it.id])}); fix: make ids unique"
                )
            ids[it.id] = (section, i, "id")
    systems = {s.id for s in cf.systems}
    envs = {e.id for e in cf.environments}
    for i, e in enumerate(cf.environments):
        if e.system not in systems:
            raise ClaimsError(
                f"{where}:{doc.line(('environments', i, 'system'))}: environments.{i}.system: "
                f"{e.system!r} is not a systems id; known: {sorted(systems)}; "
                "fix: name one of them, or declare it under `systems:` ({id: ..., hardware: ...})"
            )
    for i, c in enumerate(cf.claims):
        env = c.conditions.env
        if env is not None and env not in envs:
            line = doc.line(("claims", i, "conditions", "env"))
            raise ClaimsError(
                f"{where}:{line}: {doc.name(('claims', i, 'conditions', 'env'))}: "
                f"{env!r} is not an environments id; known: {sorted(envs)}; "
                f"fix: name one of them, or declare it under `environments:` ({{id: {env}, system: ...}})"
            )
    if cf.conditions.env is not None and cf.conditions.env not in envs:
        raise ClaimsError(
            f"{where}:{doc.line(('conditions', 'env'))}: conditions.env: {cf.conditions.env!r} is not an "
            f"environments id; known: {sorted(envs)}; fix: name one of them, or declare it under "
            f"`environments:` ({{id: {cf.conditions.env}, system: ...}})"
        )
    for i, t in enumerate(cf.todo):
        if t.id in ids:
            raise ClaimsError(
                f"{where}:{doc.line(('todo', i, 'id'))}: {doc.name(('todo', i, 'id'))}: duplicate id "
                f"{t.id!r} (first at line {doc.line(ids[t.id])}); fix: make ids unique"
            )
        for j, ref in enumerate(t.of):
            if ref not in ids:
                raise ClaimsError(
                    f"{where}:{doc.line(('todo', i, 'of', j))}: {doc.name(('todo', i, 'of', j))}: "
                    f"{ref!r} is neither a claim nor a statement id; fix: cite one of {sorted(ids)}"
                )
    stmt_ids = {s.id for s in cf.statements}
    for i, s in enumerate(cf.statements):
        for j, ref in enumerate(s.of):
            if ref not in ids:
                raise ClaimsError(
                    f"{where}:{doc.line(('statements', i, 'of', j))}: statements.{i}.of.{j}: "
                    f"{ref!r} is neither a claim nor a statement id; fix: cite one of "
                    f"{sorted(ids)}, or add the claim it names under `claims:`"
                )
    # cycles between statements: depth-first search over statement -> cited statements, kept on a
    # list (not the call stack: a chain of any depth is checked)
    state: dict[str, int] = {}
    index = {s.id: i for i, s in enumerate(cf.statements)}

    def cited(sid: str) -> list[str]:
        return [ref for ref in cf.statements[index[sid]].of if ref in stmt_ids]

    for s in cf.statements:
        if state.get(s.id) is not None:
            continue
        state[s.id] = 1
        walk = [(s.id, iter(cited(s.id)))]
        while walk:
            sid, todo = walk[-1]
            nxt = next(todo, None)
            if nxt is None:
                state[sid] = 2
                walk.pop()
            elif state.get(nxt) == 1:
                trail = [x for x, _ in walk]
                cycle = " -> ".join(trail[trail.index(nxt) :] + [nxt])
                raise ClaimsError(
                    f"{where}:{doc.line(('statements', index[sid], 'of'))}: statements."
                    f"{index[sid]}.of: statements cite each other in a cycle ({cycle}); "
                    "fix: break the cycle (cite the claims themselves)"
                )
            elif state.get(nxt) is None:
                state[nxt] = 1
                walk.append((nxt, iter(cited(nxt))))


def load(path: str | Path) -> ClaimsFile:
    """Read and validate a claims file (module doc).

    Returns the ``ClaimsFile``; every ``value``/``range`` carries the ``decimals`` it was written with.

    Raises:
        ClaimsError: YAML syntax error, a missing or mistyped field, an unknown field, a duplicate id,
        a reference to an unknown id, or a cycle between statements; the message names file:line,
        the field (dotted path, e.g. ``claims.3.unit``) and the fix.
        FileNotFoundError: ``path`` does not exist.
    """
    path = Path(path)
    # a binary file, or another encoding: named, not a bare codec error
    text = read_utf8(
        path,
        ", so this is no claims file (YAML text)",
        "give the claims file (docs/claims.md), or save it as UTF-8",
        ClaimsError,
    )
    doc = _Doc(path, text)
    if not isinstance(doc.data, dict):
        raise ClaimsError(
            f"{path}:1: a claims file is a mapping with schema, schema_version, source, claims; fix: start "
            "from docs/claims.md's example, or draft one from a post (`benchbook claims draft POST`)"
        )
    _expand_groups(doc)
    _split_todo(doc)
    _fill_decimals(doc)
    try:
        cf = ClaimsFile.model_validate(doc.data)
    except ValidationError as e:
        lines = [f"{path}:{_error_line(err, doc)}" for err in e.errors()]
        if len(lines) > 1:
            lines.insert(0, f"{path}: {len(lines)} errors, each with its line, field and fix:")
        raise ClaimsError("\n".join(lines)) from None
    _check_references(cf, doc)
    for section in ("claims", "statements"):
        for i, it in enumerate(getattr(cf, section)):
            cf._where[it.id] = f"{path}:{doc.line((section, i, 'id'))}"
    return cf


def _error_line(err, doc: _Doc) -> str:
    """``LINE: FIELD: WHAT; fix: ...`` for one pydantic error ``err`` of the document ``doc``."""
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p in _UNION_TAGS))
    msg = err["msg"].removeprefix("Value error, ")
    got = err.get("input")
    if isinstance(got, bool) and err["type"] == "string_type":
        msg += (
            f" (YAML read the unquoted word as the boolean {got}: on/off/yes/no/true/"
            "false are booleans in YAML 1.1; quote it, e.g. id: 'on')"
        )
    elif isinstance(got, (datetime.date, datetime.datetime)) and err["type"] == "string_type":
        msg += f" (YAML read the unquoted {got.isoformat()} as a date; fix: quote it, '{got.isoformat()}')"
    elif isinstance(got, (int, float)) and err["type"] == "string_type":
        text = doc.texts.get(loc, str(got))
        msg += f" (YAML read the unquoted {text} as a number; fix: quote it, '{text}')"
    elif isinstance(got, (datetime.date, datetime.datetime)):
        msg += f" (YAML read the unquoted {got.isoformat()} as a date; quote what is not one)"
    named = re.match(r"(\w+): ", msg)  # a model check names its field first ("unit: ...")
    if named and named.group(1) in _FIELDS:
        loc, msg = loc + (named.group(1),), msg[named.end() :]
    if err["type"] == "extra_forbidden":
        msg += f"; fix: {_extra_field_fix(loc)}"
    fix = "" if "fix:" in msg else "; fix: see docs/claims.md for the field"
    return f"{doc.line(loc)}: {doc.name(loc) or '(file)'}: {msg}{fix}"


def _model_at(loc: tuple) -> type[BaseModel] | None:
    """The schema model whose field ``loc`` (a pydantic error location: field names and list
    indices, from the file's top) would be; None where ``loc`` leaves the models (a free mapping)."""
    tp: Any = ClaimsFile
    for part in loc[:-1]:
        if isinstance(part, int):
            continue  # a list item: the list's model is found below
        model = _model_in(tp)
        field = None if model is None else _field_named(model, part)
        if field is None:
            return None
        tp = field.annotation
    return _model_in(tp)


def _model_in(tp: Any) -> type[BaseModel] | None:
    """The schema model inside the annotation ``tp`` (``list[Claim]``, ``Offload | None``...), or None."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    return next((m for a in get_args(tp) if (m := _model_in(a)) is not None), None)


def _field_named(model: type[BaseModel], name: str) -> Any:
    """The pydantic field of ``model`` written ``name`` in YAML (its alias, e.g. ``schema``), or None."""
    return next(
        (f for k, f in model.model_fields.items() if name in (k, f.alias)),
        None,
    )


def _extra_field_fix(loc: tuple) -> str:
    """The fix for an unknown field at ``loc``: the fields its mapping takes (a ``{...}`` copied from
    the README's example is named as the placeholder it is)."""
    model = _model_at(loc)
    if model is None:
        return "remove it (docs/claims.md)"
    fields = ", ".join(f.alias or k for k, f in model.model_fields.items())
    parent = _loc_text(loc[:-1]) or "the file"
    head = (
        "`{...}` is the claims guide's placeholder (docs/claims.md): write the fields or drop the mapping"
        if loc[-1] == "..."
        else "remove it or rename it"
    )
    return f"{head}: {parent} takes {fields}"


#: pydantic inserts the union member tried into error locations; they are not YAML keys
_UNION_TAGS = {"float", "int", "str", "bool", "tuple[float, float]", "dict[str,any]", "list[str]"}

_FIELDS = set(Claim.model_fields) | set(Statement.model_fields) | set(Counts.model_fields)

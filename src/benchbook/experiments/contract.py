"""What an experiment implements, declared once: typed ``Params``, ``plan`` and ``measure``.

``experiments/<name>/plan.py`` holds ``plan`` and the experiment's ``Params`` subclass,
``experiments/<name>/run.py`` holds ``measure`` (``tests/test_contract.py`` checks every package):

* ``Params``: a pydantic model of the experiment's ``params.yaml`` section holding its defaults (the
  ``DEFAULTS`` dicts it replaces duplicated params.yaml beside the code), each field with its type and
  bounds (a count is >= 1, a time > 0, a fraction within [0, 1]; the field's comment says which) and
  the parts of a section that are lists or mappings typed too (``typing_extensions.TypedDict``: the
  validated value stays the plain dict it was, so it dumps and hashes as before).  Two ways in:

  - a new measurement: ``from_params`` / ``from_section`` merge defaults, the section and a run's
    overrides, key by key, as ``{**DEFAULTS, **section, **overrides}`` did, and refuse what does not
    fit: an unknown key at any depth (naming it, the closest known one and the known keys: the wording
    of every params reader, ``errors.unknown_key_fix``), a wrong type (strict: YAML's bare ``on`` is a
    boolean, never the string llama-bench wants; ``"16"`` is a string, never a count), a value out of
    bounds, a ``models.registry`` id the registry lacks (``ModelId``; before any build or model is
    resolved), and what an experiment's own checks refuse (``invalid``).  All of it in one
    ``ParamsError`` whose clauses each name where the value was written (``Source``: params.yaml
    ``section.key``, a host profile's ``profiles.<name>.<section>.<key>``, ``--overrides``) and a fix
    that says what to write (the type and bounds expected, the allowed values or the known names).
    ``Sourced`` carries those places through a merge.
  - a committed session's config (its start record's ``config``): ``from_record`` / ``of`` validate
    the types but keep keys the model no longer declares (``extra="allow"``: such as ``raw_dir``, or a
    speculative GPU session's ``profiles``), so every committed session still validates and
    ``config()`` hashes as the dict it recorded.

  ``config()`` is the merged mapping a session records as its ``config``; it hashes as the dict it
  replaces did (``stable_hash`` sorts keys), so resuming an interrupted session keeps working.
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

import functools
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, NotRequired, Required, Self, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError
from typing_extensions import get_type_hints, is_typeddict

from ..errors import UNKNOWN_KEY, ParamsError, unknown_key_fix

#: ``Source.origin`` of a layer read from the params file
PARAMS_FILE = "params.yaml"
#: ``Source.origin`` of a run's overrides given as a plain mapping (``measure(..., overrides=)``, the
#: notebooks' ``overrides`` parameter); ``python -m benchbook.experiments`` names its option instead
OVERRIDES = "overrides"


@dataclass(frozen=True)
class Source:
    """Where a layer of parameters was written: ``origin`` is ``PARAMS_FILE`` (``path``: the layer's
    dotted key in it, ``llama_bench`` or ``profiles.gpu.llama_bench``) or the option or parameter that
    passed it (``--overrides``, ``overrides``; ``path``: the key inside it, "" at its top)."""

    origin: str
    path: str = ""

    def at(self, loc: Sequence[str | int] = ()) -> str:
        """The place of ``loc`` (keys and list indices under the layer) in words: params.yaml
        `profiles.gpu.llama_bench.threads`, `--overrides` key `threads`, `--overrides`."""
        dotted = ".".join(str(x) for x in ([self.path] if self.path else []) + list(loc))
        if self.origin == PARAMS_FILE:
            return f"params.yaml `{dotted}`" if dotted else "params.yaml"
        return f"`{self.origin}` key `{dotted}`" if dotted else f"`{self.origin}`"

    def child(self, key: str | int) -> Source:
        """The source of the value at ``key`` of this layer."""
        return Source(self.origin, f"{self.path}.{key}" if self.path else str(key))


def not_a_mapping(source: Source, value: Any) -> str:
    """The message for a layer that should be a mapping and is ``value`` (a list, a string, ...)."""
    if source.origin == PARAMS_FILE:
        last = source.path.rsplit(".", 1)[-1] or "the file"
        fix = f"write its keys as `key: value` lines indented under `{last}:`"
    else:
        fix = 'pass a JSON object of keys and values, e.g. {"repetitions": 3}'
    return f"{source.at()} is a {type(value).__name__} ({value!r:.60}), not a mapping; fix: {fix}"


class Sourced(dict):
    """A parameters mapping (a plain ``dict``, for every reader) whose keys remember where each was
    written: ``source(key)``; ``home`` is the layer a key it lacks belongs in (its params.yaml section).
    ``a | b`` replaces ``a``'s keys by ``b``'s, key by key, each keeping its own source.

    Raises:
        ParamsError: ``values`` is neither None nor a mapping (names the place and the fix).
    """

    def __init__(self, values: Mapping | None, source: Source):
        if values is not None and not isinstance(values, Mapping):
            raise ParamsError(not_a_mapping(source, values))
        super().__init__(values or {})
        self.home = source
        self.sources: dict[Any, Source] = dict.fromkeys(self, source)

    @classmethod
    def of(cls, values: Mapping | None, source: Source) -> Sourced:
        """``values`` itself when it already knows its sources, else all of it from ``source``."""
        return values if isinstance(values, Sourced) else cls(values, source)

    @classmethod
    def section(cls, params: Mapping | None, dotted: str) -> Sourced:
        """``params[a][b]`` for ``dotted`` ``a.b`` (the whole params.yaml mapping; an absent section is
        empty), from params.yaml ``a.b``.

        Raises:
            ParamsError: the file's top level, or a section on the way, is not a mapping.
        """
        node: Any = params
        walked: list[str] = []
        for part in dotted.split("."):
            if node is not None and not isinstance(node, Mapping):
                raise ParamsError(not_a_mapping(Source(PARAMS_FILE, ".".join(walked)), node))
            node = (node or {}).get(part)
            walked.append(part)
        return cls(node, Source(PARAMS_FILE, dotted))

    def source(self, key: Any) -> Source:
        """Where the value of ``key`` was written (``home`` for a key this mapping lacks)."""
        return self.sources.get(key, self.home)

    def sub(self, key: str) -> Sourced:
        """The mapping at ``key`` (None: empty) with its own source.

        Raises:
            ParamsError: the value at ``key`` is not a mapping (names its place).
        """
        return Sourced(self.get(key), self.source(key).child(key))

    def __or__(self, other: Mapping | None) -> Sourced:
        other = Sourced.of(other, Source(OVERRIDES))
        out = Sourced(self, self.home)
        out.update(other)
        out.sources = {**self.sources, **other.sources}
        return out

    def without(self, key: str) -> Sourced:
        """A copy without ``key``."""
        out = Sourced({k: v for k, v in self.items() if k != key}, self.home)
        out.sources = {k: s for k, s in self.sources.items() if k != key}
        return out


def registry_ids(params: Mapping | None) -> list[str] | None:
    """The ``models.registry`` ids of the whole params mapping (None when it has no registry: nothing
    to check a model id against)."""
    reg = ((params or {}).get("models") or {}).get("registry") if isinstance(params, Mapping) else None
    return list(reg) if isinstance(reg, Mapping) else None


def invalid(what: str, fix: str, at: Sequence[str | int] = ()) -> PydanticCustomError:
    """An error for a validator to raise: ``what`` is wrong at ``at`` (keys and indices below the place
    pydantic reports; a model validator's place is the section itself) and ``fix``, what to write."""
    return PydanticCustomError("benchbook", "{what}", {"what": what, "fix": fix, "at": tuple(at)})


def registered(value: str, info: ValidationInfo) -> str:
    """``value`` when it is a ``models.registry`` id of the params being validated (their ids are the
    validation context's ``models``; no context, as for a committed session's config: not checked).

    Raises:
        PydanticCustomError: not a registry id (``invalid``: names the known ids)."""
    known = (info.context or {}).get("models")
    if known is not None and value not in known:
        raise invalid(
            f"{value!r} is not a models.registry id",
            f"name one of {', '.join(map(str, known))} (`benchbook models add PATH|URL` registers a file)",
        )
    return value


#: a ``models.registry`` id (checked against the registry when a new measurement's params are validated)
ModelId = Annotated[str, AfterValidator(registered)]
#: a count of things or of repetitions (>= 1)
Count = Annotated[int, Field(ge=1)]
#: a size, a position or an index that may be 0 (tokens of depth, layers on the GPU, a seed offset)
Natural = Annotated[int, Field(ge=0)]
#: a time in seconds, or anything else that must be > 0 (an int or a float, never converted)
Positive = Annotated[int, Field(gt=0)] | Annotated[float, Field(gt=0)]
#: a probability, a share or a threshold within [0, 1] (an int or a float, never converted)
Fraction = Annotated[int, Field(ge=0, le=1)] | Annotated[float, Field(ge=0, le=1)]


class Params(BaseModel):
    """Base of an experiment's typed parameters (module doc).  A subclass declares its fields with their
    defaults and bounds and sets ``SECTION`` (the ``params.yaml`` key it reads)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    #: the ``params.yaml`` section this model reads (dotted: a subsection, ``draftself.measure``)
    SECTION: ClassVar[str] = ""
    #: fields whose default ``config()`` leaves out while the parameters leave the key out (a key read
    #: with a default that committed sessions never recorded: their configs keep hashing as recorded)
    UNRECORDED: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def from_section(
        cls, section: Mapping | None, overrides: Mapping | None = None, *, models: Sequence[str] | None = None
    ) -> Self:
        """A new measurement's parameters: defaults, then ``section``, then ``overrides`` (key by key),
        validated (module doc).  ``section`` is from params.yaml ``SECTION`` and ``overrides`` from
        ``overrides`` unless they are ``Sourced`` (then each key names its own place); ``models``: the
        ``models.registry`` ids a ``ModelId`` must be one of (None: not checked).

        Raises:
            ParamsError: a layer is not a mapping, a key is unknown, has the wrong type or is out of
                bounds, a required key is missing, a model id is not registered, or the experiment's own
                checks fail: one clause per problem, each with its place and fix.
        """
        merged = Sourced.of(section, Source(PARAMS_FILE, cls.SECTION)) | Sourced.of(
            overrides, Source(OVERRIDES)
        )
        problems = _unknown_keys(cls, merged, ())
        context = {"models": tuple(models)} if models is not None else None
        params = None
        try:
            params = cls.model_validate(merged, context=context)
        except ValidationError as e:
            problems += _problems(cls, merged, e)
        if problems or params is None:
            raise ParamsError(_render(problems, merged))
        return params

    @classmethod
    def from_params(cls, params: Mapping | None, overrides: Mapping | None = None) -> Self:
        """``from_section`` of ``params[SECTION]`` (the whole ``params.yaml`` mapping; a dotted
        ``SECTION`` names a subsection; an absent one is empty), model ids checked against its
        ``models.registry``.

        Raises:
            ParamsError: as ``from_section``; also a section on the way that is not a mapping.
        """
        return cls.from_section(Sourced.section(params, cls.SECTION), overrides, models=registry_ids(params))

    @classmethod
    def resolve_current(cls, params: Mapping, layer: Mapping) -> Self:
        """What a new session runs on a host now: ``from_params`` with the host profile's ``layer``
        (``profiles.layer``) as the overrides, as ``python -m benchbook.experiments`` merges them (an
        experiment that resolves its section otherwise overrides this; ``drift.current``).

        Raises:
            ParamsError: as ``from_params``.
        """
        return cls.from_params(params, layer)

    @classmethod
    def from_record(cls, config: Mapping) -> Self:
        """A committed session's config (its start record's ``config``): types checked, keys the model
        does not declare kept (module doc), model ids not checked.

        Raises:
            ParamsError: the config does not fit (names the key and what is wrong).
        """
        try:
            return cls.model_validate(config)
        except ValidationError as e:
            where = Sourced(config, Source("a start record's config"))
            raise ParamsError(_render(_problems(cls, where, e), where)) from None

    @classmethod
    def of(cls, value: Self | Mapping) -> Self:
        """``value`` itself when it is already of this class, else ``from_record(value)`` (a runner that
        takes the params or the mapping a session recorded as its config).

        Raises:
            ParamsError: the mapping does not fit (names the key and the fix).
        """
        if isinstance(value, cls):
            return value
        if not isinstance(value, Mapping):
            raise ParamsError(not_a_mapping(Source("the params of " + cls.__name__), value))
        return cls.from_record(value)

    def config(self) -> dict:
        """The merged parameters as a plain dict: defaults filled in (but those of ``UNRECORDED`` keys
        left out), undeclared keys kept (what a session records as its ``config`` and a
        ``SessionResult`` as its ``cfg``)."""
        return self.model_dump(exclude=set(self.UNRECORDED - self.model_fields_set) or None)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a new measurement's parameters: at ``loc`` (keys and indices from the top of
    the merged section), ``what`` (a wrong value: pydantic's words and the value given) and ``fix``;
    ``missing``: a required key the section lacks (``loc`` ends with it; ``fix``: the line to add)."""

    loc: tuple
    what: str
    fix: str
    missing: bool = False

    def place(self, merged: Sourced) -> str:
        """Where: ``merged``'s source of the top key, at ``loc`` (a missing key: the mapping it is
        missing from)."""
        source = merged.source(self.loc[0]) if self.loc else merged.home
        return source.at(self.loc[:-1] if self.missing else self.loc)


def _render(problems: list[Problem], merged: Sourced) -> str:
    """The message: one clause per problem (``place: what; fix: ...``), the keys missing from one mapping
    in one clause (``params.yaml `llama_bench` has no `n_gen`, `threads`; fix: add ...``)."""
    clauses: dict[str, list[Problem]] = {}
    for p in problems:
        clauses.setdefault(p.place(merged) if p.missing else f"{id(p)}", []).append(p)
    out = []
    for key, group in clauses.items():
        p = group[0]
        if not p.missing:
            out.append(f"{p.place(merged)}: {p.what}; fix: {p.fix}")
            continue
        names = ", ".join(f"`{q.loc[-1]}`" for q in group)
        out.append(f"{key} has no {names}; fix: add {', '.join(q.fix for q in group)}")
    return "; ".join(out)


def _problems(model: type[BaseModel], data: Mapping, error: ValidationError) -> list[Problem]:
    """``Problem``s of a ``ValidationError`` of ``model`` on ``data``: one per place, the messages of a
    union's members joined ("a valid string or a valid integer").  pydantic puts the union member it
    tried into an error's location (``flash_attn.str``): not a key of ``data``, so dropped."""
    by_loc: dict[tuple, list] = {}
    for err in error.errors():
        at = tuple((err.get("ctx") or {}).get("at") or ())
        loc = _data_loc(data, err["loc"], err["type"] == "missing") + at
        by_loc.setdefault(loc, []).append(err)
    out = []
    for loc, errs in by_loc.items():
        first = errs[0]
        expects = _expects(model, loc)
        if first["type"] == "missing":
            out.append(Problem(loc, "missing", f"`{loc[-1]}:` ({expects or 'see the section'})", True))
            continue
        custom = [e for e in errs if e["type"] == "benchbook"]
        if custom:
            out += [Problem(loc, e["ctx"]["what"], e["ctx"]["fix"]) for e in custom]
            continue
        # a union member whose type the value has tells what is wrong (-1.5: not "a valid integer")
        errs = [e for e in errs if not e["type"].endswith("_type")] or errs
        lead = "Input should be "
        msgs = list(dict.fromkeys(e["msg"].removeprefix(lead) for e in errs))
        words = (lead if errs[0]["msg"].startswith(lead) else "") + " or ".join(msgs)
        given = first.get("input")
        out.append(Problem(loc, f"{words} (got {given!r:.60})", _write(expects, given)))
    return out


def _data_loc(data: Any, loc: Sequence, missing: bool) -> tuple:
    """``loc`` without pydantic's union-member tags: an item is kept where it is a key (or an index) of
    the data it walks, so a mapping's own keys (``drafts.q2k``) stay and ``flash_attn.str`` loses
    ``str``; the last item of a ``missing`` error is the key the data lacks."""
    out: list = []
    node = data
    for i, item in enumerate(loc):
        if isinstance(node, Mapping) and item in node:
            node = node[item]
        elif isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node):
            node = node[item]
        elif not (missing and i == len(loc) - 1):
            continue
        out.append(item)
    return tuple(out)


def _write(expects: str | None, given: Any) -> str:
    """The fix for a wrong value: what to write, with YAML's two traps said when they apply."""
    if expects is None:
        return "correct it (the committed values: `git show HEAD:params.yaml`)"
    fix = f"write {expects}"
    if isinstance(given, str) and ("integer" in expects or "number" in expects):
        fix += f" without quotes ({given!r} is a string)"
    elif isinstance(given, bool) and ("string" in expects or "one of" in expects):
        fix += " (quote it: YAML reads a bare on, off, yes or no as a boolean)"
    return fix


@functools.cache
def _schema(model: type[BaseModel]) -> dict:
    return model.model_json_schema()


def _expects(model: type[BaseModel], loc: Sequence) -> str | None:
    """What ``model`` expects at ``loc`` in words ("an integer >= 1", "one of auto, on, off"), from its
    JSON schema; None where the schema does not say (a key the model does not declare)."""
    root = _schema(model)
    defs = root.get("$defs", {})
    node: dict | None = root
    for item in loc:
        node = _step(node, item, defs) if node is not None else None
    return _describe(node, defs) if node is not None else None


def _deref(node: dict, defs: dict) -> dict:
    return defs[node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else node


def _step(node: dict, item: Any, defs: dict) -> dict | None:
    """The schema of ``item`` (a key or an index) inside ``node`` (a union's structured member)."""
    node = _deref(node, defs)
    for n in [node, *(_deref(m, defs) for m in node.get("anyOf", []))]:
        if isinstance(item, int) and "items" in n:
            return n["items"]
        if isinstance(item, str):
            if item in n.get("properties", {}):
                return n["properties"][item]
            if isinstance(n.get("additionalProperties"), dict):
                return n["additionalProperties"]
    return None


def _bounds(node: dict) -> str:
    """A number's bounds in words: " >= 1", " > 0", " from 0 to 1", " > 0 and <= 1"."""
    lo = next(((op, node[k]) for k, op in (("minimum", ">="), ("exclusiveMinimum", ">")) if k in node), None)
    hi = next(((op, node[k]) for k, op in (("maximum", "<="), ("exclusiveMaximum", "<")) if k in node), None)
    if lo and hi and (lo[0], hi[0]) == (">=", "<="):
        return f" from {lo[1]} to {hi[1]}"
    return " and".join(f" {op} {v}" for op, v in (b for b in (lo, hi) if b))


def _describe(node: dict, defs: dict) -> str:
    """A JSON schema node in words (the fix of a wrong value says what to write)."""
    node = _deref(node, defs)
    if "anyOf" in node:
        words = list(dict.fromkeys(_describe(m, defs) for m in node["anyOf"]))
        words = [w for w in words if not (w.startswith("an integer") and "a number" + w[10:] in words)]
        return " or ".join(sorted(words, key=lambda w: w == "null"))
    if "enum" in node or "const" in node:
        values = node.get("enum", [node.get("const")])
        return f"one of {', '.join(map(str, values))}" if len(values) > 1 else f"{values[0]}"
    kind = node.get("type")
    if kind == "integer":
        return "an integer" + _bounds(node)
    if kind == "number":
        return "a number" + _bounds(node)
    if kind == "string":
        return "a string"
    if kind == "boolean":
        return "true or false"
    if kind == "null":
        return "null"
    if kind == "array":
        lead = "a non-empty list" if node.get("minItems") else "a list"
        return f"{lead} (each item {_describe(node['items'], defs)})" if "items" in node else lead
    if kind == "object":
        if node.get("properties"):
            return "a mapping with the keys " + ", ".join(node["properties"])
        if isinstance(node.get("additionalProperties"), dict):
            return f"a mapping of names to {_describe(node['additionalProperties'], defs)}"
        return "a mapping"
    return "a value of the committed kind (`git show HEAD:params.yaml`)"


def _bare(tp: Any) -> Any:
    """``tp`` without ``Annotated``, ``Required`` and ``NotRequired``."""
    while get_origin(tp) in (Annotated, Required, NotRequired):
        tp = get_args(tp)[0]
    return tp


def _keys(tp: Any) -> dict[str, Any] | None:
    """The declared keys of a model or TypedDict ``tp`` with their types; None for any other type."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return {k: f.annotation for k, f in tp.model_fields.items()}
    if is_typeddict(tp):
        return get_type_hints(tp, include_extras=True)
    return None


def _unknown_keys(tp: Any, value: Any, loc: tuple) -> list[Problem]:
    """Every key of ``value`` (at ``loc``) that its type ``tp`` does not declare, at any depth: in a model
    or a TypedDict, the items of a list, the values of a ``dict[str, X]``; of a union, the member that
    fits ``value`` best (fewest unknown keys among those of its shape)."""
    tp = _bare(tp)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        found = [_unknown_keys(m, value, loc) for m in get_args(tp) if _shaped(m, value)]
        return min(found, key=len) if found else []
    keys = _keys(tp)
    if keys is not None and isinstance(value, Mapping):
        out = []
        for k, v in value.items():
            if k in keys:
                out += _unknown_keys(keys[k], v, (*loc, k))
                continue
            out.append(Problem((*loc, k), UNKNOWN_KEY, unknown_key_fix(k, keys)))
        return out
    if origin is list and isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _unknown_keys(get_args(tp)[0], v, (*loc, i))]
    if origin is dict and isinstance(value, Mapping) and len(get_args(tp)) == 2:
        return [p for k, v in value.items() for p in _unknown_keys(get_args(tp)[1], v, (*loc, k))]
    return []


def _shaped(tp: Any, value: Any) -> bool:
    """Whether a union member ``tp`` is a structure ``value`` has the shape of (a model, TypedDict or dict
    for a mapping, a list for a list)."""
    tp = _bare(tp)
    if isinstance(value, Mapping):
        return _keys(tp) is not None or get_origin(tp) is dict
    return isinstance(value, list) and get_origin(tp) is list


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


@dataclass(frozen=True)
class ModelBenchRun(PlannedRun):
    """One llama-bench invocation of ``model`` (a model record: model_id, sha256, path) in ``role``
    (target | draft), argv ``[llama-bench, -m, <model path>, *argv_tail]``: the cost model's runs of the
    speculative experiment and the depth sweep's (``harness.run_model_bench`` measures one)."""

    role: str
    model: Mapping
    argv_tail: tuple[str, ...]

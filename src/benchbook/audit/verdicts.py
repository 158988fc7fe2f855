"""The verdict engine: one ``Verdict`` per claim and per statement of a claims file.

A verdict has five parts:

* ``consistency``: "consistent" (recomputed within the stated precision) | "inconsistent" (with
  the recomputed value and the difference in the claim's own unit) | "not checkable" (nothing to
  recompute from: a single published number, a statement with no stated value, or one citing a
  claim with no number);
* ``qualifiers``, each with its reason and evidence (claim ids, ``file:line`` of logs):
  "unsupported" only when the claim needs something absent (a comparison whose baseline states no
  number, an acceptance rate without its counts, a speedup without both speeds); "not comparable"
  (different methods, phases, hardware, environments, builds or sources — named — between the two
  sides of a ratio, percent change or difference, a side that is a statement keeping the facts of
  the claims under it, ``tables.side_of``; a sum or mean compares nothing and is only refused for
  mixing phases); "at risk" (cap hit, cold first run, a throughput cliff at the memory limit, memory
  at its stated capacity beside a slower row, a count above its own stated limit, n below 3,
  acceptance without speedup, synthetic inputs);
* ``notes``: what is not stated (method, n, hardware, build): "not stated", never "different", and
  never by itself a lower verdict;
* ``unsaid``: what the source leaves unsaid that weakens this verdict (``unsaid`` module);
* ``reproducible``: whether this project could re-measure it here, and the missing pieces (model,
  hardware, method, build), judged against ``Here`` (``params.yaml`` ``audit.here`` + the model
  registry).

Qualifiers come from the named rules of ``caveats`` (claims and comparison tables, ``tables``);
the checks that are not caveat rules (different sources, conditions, the slower rows beside a
memory value at capacity) are done here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .. import caveats
from ..errors import check_keys
from . import acceptance
from .counts import small_counts
from .precision import Interval, Severity, written
from .recompute import CONSISTENT, INCONSISTENT, NOT_CHECKABLE, Consistency, Recomputed, claim_interval
from .schema import AGGREGATING_KINDS, Claim, ClaimsFile, Statement, family_of, stated_interval_of
from .tables import (
    SIDE_CONDITIONS,
    Under,
    build_of,
    claims_table,
    claims_under,
    comparison_table,
    host_of,
    method_class,
    same_value,
)
from .toolgap import METHODS, GapContext
from .unsaid import unsaid

VERDICT_SCHEMA = "benchbook.audit.verdict"
VERDICT_SCHEMA_VERSION = 1

QualifierKind = Literal["unsupported", "not comparable", "at risk"]
UNSUPPORTED: Final = "unsupported"
NOT_COMPARABLE: Final = "not comparable"
AT_RISK: Final = "at risk"

#: What a fired rule does to a verdict that is not a qualifier: ``NOTE`` (context a reader needs: the
#: rule's first sentence goes to the verdict's notes) or ``CONSISTENCY`` (the rule is itself a
#: consistency check, and the verdict's consistency is that check: a log's avg_ts against its samples,
#: a statement recomputed from what it cites).
NOTE: Final = "note"
CONSISTENCY: Final = "consistency"
RuleEffect = Literal["unsupported", "not comparable", "at risk", "note", "consistency"]

#: Every caveat rule (``caveats.RULES``) -> what it does to a verdict when it fires: a qualifier kind,
#: ``NOTE`` or ``CONSISTENCY``.  Complete by test (``tests/test_audit_rule_effects.py``): a rule added
#: to ``caveats`` without a line here fails it, so no fired rule is dropped silently.
RULE_EFFECT: dict[str, RuleEffect] = {
    "cap_hit": AT_RISK,
    "cap_by_design": NOTE,
    "single_run": AT_RISK,
    "high_variance": AT_RISK,
    "cold_start": AT_RISK,
    "cold_label_untrusted": AT_RISK,
    "warm_prompt_cache": AT_RISK,
    "cross_request_state": AT_RISK,
    "order_trend": AT_RISK,
    "at_capacity": AT_RISK,
    "exceeds_limit": AT_RISK,
    "mixed_method": NOT_COMPARABLE,
    "mixed_phase": NOT_COMPARABLE,
    "output_mismatch": AT_RISK,
    "between_session_spread": AT_RISK,
    "bimodal_samples": AT_RISK,
    "acceptance_without_speedup": AT_RISK,
    "slower_than_baseline": AT_RISK,
    "acceptance_definition_mismatch": NOT_COMPARABLE,
    "memory_spill": AT_RISK,
    "synthetic_inputs": AT_RISK,
    "host_or_build_mismatch": NOT_COMPARABLE,
    "inconsistent_derived_value": CONSISTENCY,
    "busy_host": AT_RISK,
    "state_effect": AT_RISK,
    "placement_unresolved": NOT_COMPARABLE,
    "greedy_loop": NOTE,
    "single_session": NOTE,
    "checkpoint_unavailable": NOTE,
    "few_prompts": NOTE,
    "cost_rows_disturbed": AT_RISK,
}
#: caveat rule -> qualifier kind (the rules of ``RULE_EFFECT`` that become qualifiers)
RULE_QUALIFIER: dict[str, QualifierKind] = {
    r: e for r, e in RULE_EFFECT.items() if e in (UNSUPPORTED, NOT_COMPARABLE, AT_RISK)
}


def rule_reason(rule: str) -> str:
    """The generic reason of a fired rule: the first sentence of its documentation (``caveats.Rule.doc``)."""
    return re.split(r"(?<!\.)\.(?!\.)(?=\s+[A-Z]|\s*$)", caveats.RULES[rule].doc)[0]


def rule_note(rule: str) -> str:
    """The note a fired ``NOTE`` rule leaves on a verdict: ``"<rule>: <first sentence of its doc>"``."""
    return f"{rule}: {rule_reason(rule)}"


#: at-risk rules of a cited claim that carry over to a statement citing it
CARRIED = ("cap_hit", "cold_start", "memory_spill", "synthetic_inputs", "at_capacity", "exceeds_limit")


class Qualifier(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: QualifierKind
    check: str = Field(description="the caveat rule id, or the audit check ('sources', 'needs')")
    reason: str
    evidence: list[str] = Field(default_factory=list)


class Reproducible(BaseModel):
    here: bool
    missing: list[str] = Field(default_factory=list, description="'model: ...', 'hardware: ...', ...")


class Verdict(BaseModel):
    """One verdict record (``reports/audit/<claims file stem>.jsonl``)."""

    schema_: str = Field(default=VERDICT_SCHEMA, alias="schema", serialization_alias="schema")
    schema_version: int = VERDICT_SCHEMA_VERSION
    claims_file: str
    id: str
    kind: Literal["claim", "statement", "log"]
    text: str = Field(description="the claim as stated (metric, value, unit, method) or the statement")
    consistency: Consistency
    recomputed: str | None = None
    difference: float | None = Field(default=None, description="recomputed - stated, in `unit`")
    stated_lo: float | None = Field(
        default=None, description="the stated value, or a range's low end, in `unit`"
    )
    stated_hi: float | None = Field(default=None, description="the stated value, or a range's high end")
    stated_text: str | None = Field(
        default=None, description="the stated number with the digits it was written with (0.70, 6.1–6.34)"
    )
    recomputed_lo: float | None = Field(default=None, description="the recomputed value (low end), in `unit`")
    recomputed_hi: float | None = Field(default=None, description="the recomputed value (high end)")
    allowed_lo: float | None = Field(
        default=None,
        description="low end of what the stated precision allows, in `unit` (null: none, a bound)",
    )
    allowed_hi: float | None = Field(default=None, description="high end of what the stated precision allows")
    miss: float | None = Field(
        default=None, description="inconsistent: how far the recomputed value lies outside allowed_lo..hi"
    )
    miss_relative: float | None = Field(default=None, description="miss / the stated value's size (fraction)")
    severity: str | None = Field(
        default=None,
        description="inconsistent: 'minor understatement', 'material overstatement', 'major, wrong "
        "direction' (a gain stated for a loss), 'major'...",
    )
    unit: str | None = None
    arithmetic: str | None = None
    qualifiers: list[Qualifier] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    unsaid: list[str] = Field(
        default_factory=list,
        description="what the source leaves unsaid that weakens this verdict (``unsaid`` module)",
    )
    reproducible: Reproducible
    evidence: list[str] = Field(default_factory=list, description="ids or file:line the verdict read")

    model_config = ConfigDict(populate_by_name=True)


#: the keys of ``params.yaml`` ``audit.here`` that ``Here.from_params`` reads (``resolve.KNOWN_KEYS``
#: lists the same for ``benchbook doctor``; the audit reads params.yaml without ``resolve``)
HERE_KEYS: Final = ("build", "methods", "decodings", "gpus")
#: the keys of ``params.yaml`` ``audit`` (``tests/test_params_unknown_keys.py`` holds both lists to
#: ``resolve.KNOWN_KEYS``)
AUDIT_KEYS: Final = ("here", "severity")


@dataclass(frozen=True)
class Here:
    """What this project can measure here: model names, the build, method classes, decoding modes
    and GPUs (an empty list: CPU only)."""

    models: frozenset[str] = frozenset()
    build: str = "llama.cpp b11434"
    methods: frozenset[str] = frozenset({"llama-bench", "real-prompt"})
    decodings: frozenset[str] = frozenset({"plain", "speculative"})
    gpus: tuple[str, ...] = ()
    #: the gap between llama-bench tg and llama-server decode measured on this project's hosts
    #: (``toolgap.read_registry``): a llama-bench vs server comparison notes it (``toolgap``)
    tool_gap: tuple[GapContext, ...] = ()
    #: how an inconsistency's size is named (``params.yaml`` ``audit.severity``; ``precision.Severity``)
    severity: Severity = Severity()

    @classmethod
    def from_params(cls, params: dict) -> Here:
        """From ``params.yaml``: ``audit.here`` (build, methods, decodings, gpus) and the names in
        ``models.registry`` (ids and GGUF member names).

        Raises:
            ValueError: ``methods``, ``decodings`` or ``gpus`` is not a list of names (``gpus: NVIDIA
                H200`` made the GPUs ``N, V, I, D, I, A, ...``); a section is not a mapping.
            ParamsError (a ValueError): a key of ``audit`` or ``audit.here`` outside ``AUDIT_KEYS`` or
                ``HERE_KEYS`` (``errors.check_keys``: the nearest known spelling named).
        """
        if not isinstance(params, dict):
            raise ValueError(
                f"params.yaml: the top level is a {type(params).__name__}, not a mapping of sections; "
                "fix: restore it from git (`git restore params.yaml`)"
            )
        audit = params.get("audit") or {}
        if not isinstance(audit, dict):
            raise ValueError(
                f"params.yaml audit: a mapping is needed, got {type(audit).__name__} {audit!r:.60}; fix: "
                "write `audit:` with keys `here:` and `severity:` (or remove the section for the defaults)"
            )
        here = audit.get("here") or {}
        if not isinstance(here, dict):
            raise ValueError(
                f"params.yaml audit.here: a mapping is needed, got {type(here).__name__} {here!r:.60}; "
                "fix: write `here: {build: ..., methods: [...], decodings: [...], gpus: [...]}`"
            )
        # a typo (`decodngs`) left the default in force, silently
        check_keys(audit, AUDIT_KEYS, "params.yaml", "audit")
        check_keys(here, HERE_KEYS, "params.yaml", "audit.here")
        if not isinstance(here.get("build", ""), str):
            raise ValueError(
                f"params.yaml audit.here.build: a string is needed, got {here['build']!r:.60}; fix: write "
                "the build's name, e.g. `build: llama.cpp b11434`"
            )
        try:
            severity = Severity.model_validate(audit.get("severity") or {})
        except ValidationError as e:
            what = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'severity'}: "
                + err["msg"].removeprefix("Value error, ")
                for err in e.errors()
            )
            raise ValueError(
                f"params.yaml audit.severity: {what}; fix: write {{minor: 0.02, material: 0.1}} "
                "(fractions of the stated value, minor < material)"
            ) from None
        for key in ("methods", "decodings", "gpus"):
            got = here.get(key)
            if got is not None and not (isinstance(got, list) and all(isinstance(x, str) for x in got)):
                raise ValueError(
                    f"params.yaml audit.here.{key}: a list of names is needed, got "
                    f"{type(got).__name__} {got!r} (a string was read as its letters); "
                    f"fix: write {key}: [{got if isinstance(got, str) else '...'}]"
                )
        names = set()
        models = params.get("models") or {}
        registry = (models.get("registry") if isinstance(models, dict) else None) or {}
        for mid, spec in registry.items() if isinstance(registry, dict) else ():
            names.add(mid)
            if isinstance(spec, dict) and isinstance(spec.get("member"), str):
                names.add(spec["member"].rsplit("/", 1)[-1])
        return cls(
            models=frozenset(names),
            build=here.get("build", cls.build),
            methods=frozenset(here.get("methods", cls.methods)),
            decodings=frozenset(here.get("decodings", cls.decodings)),
            gpus=tuple(here.get("gpus") or ()),
            severity=severity,
        )


def _fmt(v: float | None) -> str:
    return "—" if v is None else f"{v:.4g}"


def claim_text(c: Claim) -> str:
    """``decode_tps = 32.95 tok/s (llama-bench tg128)``, the number with the digits it was written
    with (``42.0`` stays ``42.0``: ``precision.written``); a numberless claim: its statement."""
    num = written(c.value, c.range, c.decimals, c.range_decimals)
    if num is None:
        return c.statement or c.metric
    about = "about " if c.about else ""
    return f"{c.metric} = {about}{num} {c.unit}" + (f" ({c.method})" if c.method else "")


#: a word naming an inference engine or a fork of one (``ik_llama.cpp``, ``llama-cpp-python``,
#: ``vLLM``): a stated build naming one other than this project's is another engine's build
_ENGINE_WORD = re.compile(r"[\w.+-]*(?:llama|vllm|sglang|mlx|ollama|koboldcpp|lm ?studio)[\w.+-]*", re.I)


def build_matches(here_build: str, stated: str) -> bool:
    """Whether ``stated`` (a claim's engine and build) names this project's build ``here_build`` as
    whole words (case-insensitive): ``llama.cpp b11434`` is in ``llama.cpp b11434, CUDA build``, but
    not in ``llama.cpp b114345`` (another build) or ``ik_llama.cpp b11434`` (a fork), which a plain
    substring test took for it.  A build stated without its engine (``b11434``: a post names
    llama.cpp's builds by number alone) matches when its number is this build's and it names no
    other engine.

    >>> here = "llama.cpp b11434"
    >>> build_matches(here, "llama.cpp b11434, CUDA"), build_matches(here, "llama.cpp b114345")
    (True, False)
    >>> build_matches(here, "b11434"), build_matches(here, "ik_llama.cpp b11434")
    (True, False)
    """
    pattern = rf"(?<![\w.-]){re.escape(here_build.lower())}(?![\w])"
    if re.search(pattern, stated.lower()) is not None:
        return True
    number = re.search(r"(?<![\w.-])b\d+(?![\w])", here_build)
    if number is None or not re.search(rf"(?<![\w.-]){number.group(0)}(?![\w])", stated, re.I):
        return False
    engine = {w.lower() for w in _ENGINE_WORD.findall(here_build)}
    return all(w.lower() in engine for w in _ENGINE_WORD.findall(stated))


def build_number_matches(here_build: str, number: int | str) -> bool:
    """Whether a log's llama.cpp ``build_number`` is this project's build: equal to the number of
    ``here_build``'s ``b<number>`` (``11434`` of ``llama.cpp b11434``; ``1143`` is another build, which
    a substring test of ``"1143"`` in ``"llama.cpp b11434"`` took for it); without such a number,
    ``b<number>`` as whole words in ``here_build``.

    >>> build_number_matches("llama.cpp b11434", 11434), build_number_matches("llama.cpp b11434", 1143)
    (True, False)
    """
    m = re.search(r"(?<![\w])b(\d+)(?![\w])", here_build)
    return int(m.group(1)) == int(number) if m else build_matches(f"b{number}", here_build)


#: hardware written as a CPU with no GPU ("CPU only (no GPU)", "a bare CPU", "Ryzen 9 CPU, no GPU")
_CPU_TEXT = re.compile(r"\bCPU\b", re.IGNORECASE)
_GPU_TEXT = re.compile(r"(?<!no )\bGPUs?\b", re.IGNORECASE)


def _cpu_only(cf: ClaimsFile, c: Claim) -> bool:
    """Whether ``c`` was measured without a GPU: on a declared system with no ``gpu`` and a ``cpu``
    stated, or on hardware whose text names a CPU and no GPU ("CPU only (no GPU)"): its hardware is
    a CPU, which a CPU-only ``Here`` lacks no GPU for."""
    system = cf.system_of(c)
    if system is not None:
        return system.gpu is None and system.cpu is not None
    hw = cf.conditions_of(c).hardware or ""
    return bool(_CPU_TEXT.search(hw)) and not _GPU_TEXT.search(hw)


def reproducibility(cf: ClaimsFile, c: Claim, here: Here) -> Reproducible:
    """Whether ``c`` could be re-measured here, and what is missing (module doc)."""
    cond = cf.conditions_of(c)
    missing = []
    model = cond.model or cf.model.get("name")
    if not model:
        missing.append("model: not stated")
    elif not any(m.lower() in model.lower() or model.lower() in m.lower() for m in here.models):
        missing.append(f"model: {model} is not in this project's model registry")
    host = host_of(cf, c)
    if host is None:
        missing.append("hardware: not stated")
    elif _cpu_only(cf, c):  # a CPU claim: here it would run on this host's CPU, not that one
        no_gpu = "" if "gpu" in host.lower() else ", no GPU"
        missing.append(f"hardware: {host}{no_gpu} (here: this host's CPU, not necessarily that one)")
    elif host not in here.gpus:
        missing.append(f"hardware: {host} (here: {', '.join(here.gpus) or 'CPU only'})")
    build = build_of(cf, c)
    if build is None:
        missing.append("build: not stated")
    elif not cf.conditions_of(c).build and not re.search(r"\d", build):  # an engine, no build of it
        missing.append(f"build: not stated ({build}, no build or version; here: {here.build})")
    elif not build_matches(here.build, build):
        missing.append(f"build: {build} (here: {here.build})")
    mc = method_class(c.method)
    if mc is None:
        missing.append("method: not stated")
    elif mc not in here.methods:
        missing.append(f"method: {c.method}")
    if cond.decoding and cond.decoding not in here.decodings:
        missing.append(f"method: {cond.decoding} decoding is not available here")
    return Reproducible(here=not missing, missing=missing)


def _not_stated(cf: ClaimsFile, c: Claim) -> list[str]:
    if claim_interval(c) is None:
        return []
    out = []
    if c.method is None:
        out.append(f"method: not stated for {c.id}")
    if c.n is None:
        out.append(f"n: not stated for {c.id}")
    if host_of(cf, c) is None:
        out.append(f"hardware: not stated for {c.id}")
    if build_of(cf, c) is None:
        out.append(f"engine/build: not stated for {c.id}")
    return out


def _cliff_neighbour(table: pl.DataFrame, cid: str) -> str:
    """ "42.72 at n_cpu_moe 24 (tg-win-ncmoe24)", "92.1 at n_gpu_layers 20 (off-tps-20)": the best value
    one offload level further (more experts on the CPU, or fewer layers on the GPU), of the same
    model, quant, machine and build (``caveats``' memory_spill groups), for reasons; "" where none."""
    row = table.filter(pl.col("id") == cid).row(0, named=True)
    same = table.filter(
        (pl.col("env").eq_missing(row["env"]))
        & (pl.col("metric") == row["metric"])
        & pl.col("method").eq_missing(row["method"])
        & pl.col("prompt").eq_missing(row["prompt"])
        & pl.col("block_max").eq_missing(row["block_max"])
        & pl.col("hardware").eq_missing(row["hardware"])
        & pl.col("model").eq_missing(row["model"])
        & pl.col("quant").eq_missing(row["quant"])
        & pl.col("build").eq_missing(row["build"])
    )
    for sweep, further in (("n_cpu_moe", True), ("n_gpu_layers", False)):
        if row[sweep] is None:
            continue
        up = same.filter(pl.col(sweep) > row[sweep] if further else pl.col(sweep) < row[sweep])
        if up.is_empty():
            continue
        # the nearest level further, its best value
        best = up.sort([sweep, "value"], descending=[not further, True]).row(0, named=True)
        return f"{best['value']:g} at {sweep} {best[sweep]} ({best['id']})"
    return ""


def slower_rows(cf: ClaimsFile, memory: Claim) -> list[tuple[Claim, Claim]]:
    """(row, faster) pairs beside a memory claim: ``row`` a rate claim measured under every condition
    the memory claim states for itself (its own ``conditions``: env, decoding...), ``faster`` a rate
    claim of the same metric, method class, prompt, block size and decoding that differs in one of
    those conditions and is faster.  In claims-file order; empty when no such pair exists."""
    own = {k: v for k, v in memory.conditions.model_dump(exclude_none=True, exclude_defaults=True).items()}
    keys = [k for k in own if k not in ("other", "offload")]
    if not keys:
        return []
    mem_cond = cf.conditions_of(memory)
    rates = [c for c in cf.claims if family_of(c.unit) == "rate" and claim_interval(c) is not None]

    def same(c: Claim, name: str) -> bool:
        return getattr(cf.conditions_of(c), name) == getattr(mem_cond, name)

    out = []
    for row in rates:
        if not all(same(row, k) for k in keys):
            continue
        rc = cf.conditions_of(row)
        for other in rates:
            oc = cf.conditions_of(other)
            alike = (
                other.metric == row.metric
                and method_class(other.method) == method_class(row.method)
                and (oc.prompt, oc.block_max, oc.decoding) == (rc.prompt, rc.block_max, rc.decoding)
            )
            slow, fast = claim_interval(row), claim_interval(other)
            if alike and not all(same(other, k) for k in keys) and slow and fast and fast.lo > 0:
                if slow.hi < fast.lo:  # slower whatever the ranges' values
                    out.append((row, other))
    return out


def _as_written(c: Claim) -> str:
    """A claim's number as written (``11.76``, a range ``11.7–12.2``)."""
    return written(c.value, c.range, c.decimals, c.range_decimals) or "?"


def _capacity_text(c: Claim) -> str:
    """``11.76 of 12.29 GiB (95.7%)``: a memory claim against its stated capacity (a range: its
    middle, as ``tables.claims_table`` reads it)."""
    iv = claim_interval(c)
    frac = (iv.mid if iv else 0.0) / (c.capacity or 1.0)
    return f"{_as_written(c)} of {c.capacity:g} {c.unit} ({100 * frac:.1f}%)"


def _at_capacity(cf: ClaimsFile, fired: dict) -> tuple[dict[str, Qualifier], dict[str, list[str]]]:
    """The at-capacity qualifiers (claim id -> qualifier: the memory claim and each slower row beside
    it, ``slower_rows``) and, for a memory claim at capacity with no slower row, its note."""
    quals: dict[str, Qualifier] = {}
    notes: dict[str, list[str]] = {}
    for c in cf.claims:
        if "at_capacity" not in fired.get(c.id, []):
            continue
        pairs = slower_rows(cf, c)
        if not pairs:
            notes.setdefault(c.id, []).append(
                f"at capacity: {_capacity_text(c)} of its stated capacity, no slower row beside it"
            )
            continue
        shown = "; ".join(
            f"{r.id} {_as_written(r)} {r.unit} against {_as_written(o)} ({o.id})" for r, o in pairs
        )
        quals[c.id] = Qualifier(
            kind=AT_RISK,
            check="at_capacity",
            reason=f"at capacity: {_capacity_text(c)} beside slower rows: {shown}",
            evidence=[c.id] + list(dict.fromkeys(r.id for r, _ in pairs)),
        )
        for r, o in pairs:
            if r.id not in quals:
                quals[r.id] = Qualifier(
                    kind=AT_RISK,
                    check="at_capacity",
                    reason=(
                        f"at capacity: measured beside {c.id} at {_capacity_text(c)}, and slower than "
                        f"{o.id} ({_as_written(r)} against {_as_written(o)} {r.unit}): memory may have "
                        "spilled"
                    ),
                    evidence=[c.id, r.id, o.id],
                )
    return quals, notes


def _claim_qualifiers(c: Claim, table: pl.DataFrame, fired: dict) -> list[Qualifier]:
    out = []
    row: dict[str, Any] = {}
    if fired.get(c.id):  # a rule fired: c has a row (looked up only then: one filter per claim is quadratic)
        rows = table.filter(pl.col("id") == c.id)
        row = rows.row(0, named=True) if rows.height else {}
    for rule in fired.get(c.id, []):
        if rule == "at_capacity":
            continue  # judged with the rows beside it (``_at_capacity``)
        if rule == "exceeds_limit":
            over = (
                f"{c.metric} = {row['lo']:g} {c.unit} against its limit {row['limit']:g}"
                if row["limit"] is not None and row["lo"] > row["limit"]
                else f"{row['tokens_generated']} tokens generated against the cap of {row['cap']}"
            )
            out.append(
                Qualifier(
                    kind=AT_RISK,
                    check=rule,
                    reason=f"{over}: exceeds its own stated limit: "
                    "the field may not count what its name says",
                    evidence=[c.id],
                )
            )
            continue
        if rule == "single_run":
            reason = (
                f"n = {row['n']}: below {caveats.DEFAULTS['min_n']} runs, no interval; "
                "one outlier is the number"
            )
        elif rule == "cold_start":
            reason = "a cold first run (model file not in the page cache): measures disk reads, not inference"
        elif rule == "memory_spill":
            neighbour = _cliff_neighbour(table, c.id)
            reason = (
                f"throughput cliff at the memory limit: {row['value']:g} {row['unit']}"
                + (f" against {neighbour} with more offloaded" if neighbour else "")
                + (f"; the source says: {c.note}" if c.note else "")
            )
        elif rule == "cap_hit":
            reason = f"stopped at the generation cap ({row['tokens_generated']} of {row['cap']} tokens)"
        else:  # the table's own reason where it states one (tables.series_columns), else the rule's
            reason = row.get(f"{rule}_reason") or rule_reason(rule)
        if rule in RULE_QUALIFIER:  # the others are notes (``judge``) or the consistency itself
            out.append(Qualifier(kind=RULE_QUALIFIER[rule], check=rule, reason=reason, evidence=[c.id]))
    if c.metric == "acceptance_rate" and c.counts is None:
        out.append(
            Qualifier(
                kind=UNSUPPORTED,
                check="needs",
                reason="an acceptance rate without the counts (accepted / drafted) behind it",
                evidence=[c.id],
            )
        )
    if c.metric == "speedup":
        out.append(
            Qualifier(
                kind=UNSUPPORTED,
                check="needs",
                reason="a speedup without both speeds: cite the two speeds in a ratio statement",
                evidence=[c.id],
            )
        )
    return out


def _side_pairs(s: Statement, r: Recomputed) -> list[tuple[str, str]]:
    """The (numerator, denominator) sides a statement compares: its two cited ids for a
    ``COMPARING_KINDS`` statement, every pair of a bound's set; none for a sum or mean (it pools its
    members and compares nothing, ``AGGREGATING_KINDS``)."""
    if s.kind == "bound":
        return [(p.numerator, p.denominator) for p in r.pairs if p.denominator]
    if s.kind in ("ratio", "difference"):
        return [(s.of[0], s.of[1])]
    if s.kind == "percent_change":
        return [(s.of[1], s.of[0])]
    return []


def _differences(under: Under, a: str, b: str) -> dict[str, str]:
    """Named differences between two sides (claims, or statements with the claims under them:
    ``tables.side_of``), both sides known: methods, phases, hardware, environments, builds, sources."""
    sa, sb = under.side(a), under.side(b)
    if not sa.has_claims or not sb.has_claims:
        return {}
    out = {}
    ma, mb = method_class(sa.method), method_class(sb.method)
    if ma and mb and ma != mb:
        out["methods"] = f"methods: {sa.method} ({a}) vs {sb.method} ({b})"
    if sa.phase and sb.phase and _phases([sa.phase, sb.phase]) >= {"prefill", "decode"}:
        out["phases"] = f"phases: {sa.phase} ({a}) vs {sb.phase} ({b})"
    if sa.host and sb.host and sa.host != sb.host:
        out["hardware"] = f"hardware: {sa.host} ({a}) vs {sb.host} ({b})"
    if sa.env and sb.env and sa.env != sb.env:
        out["environments"] = f"environments: {sa.env} ({a}) vs {sb.env} ({b})"
    if sa.build and sb.build and sa.build != sb.build:
        out["builds"] = f"builds: {sa.build} ({a}) vs {sb.build} ({b})"
    if sa.source and sb.source and sa.source != sb.source:
        out["sources"] = f"sources: {sa.source} ({a}) vs {sb.source} ({b})"
    return out


def _phases(metrics: list[str]) -> set[str]:
    """The known phases (prefill | decode, ``caveats.DEFAULTS['phase_classes']``) of metric names."""
    out = set()
    for metric in metrics:
        for name, pattern in caveats.DEFAULTS["phase_classes"].items():
            if re.search(pattern, metric):
                out.add(name)
                break
    return out


#: conditions compared between the two sides of a comparison besides method, phase, hardware,
#: environment, build and source (those have their own checks): ``tables.SIDE_CONDITIONS`` (a field
#: of ``schema.Conditions``, an offload field, ``model_class`` from ``conditions.other``), and any
#: other key of ``conditions.other``
COMPARED_CONDITIONS = SIDE_CONDITIONS
#: conditions that name one model: two models come as two files, so a different model, its class and
#: its quant are one condition
MODEL_CONDITIONS = ("model", "model_class", "quant")
#: the KV cache's type: llama.cpp's ``-ctk``/``-ctv`` are set together to quantize the cache (a q8_0
#: cache is ``-ctk q8_0 -ctv q8_0``), so K and V types that differ together are one condition
KV_CONDITIONS = ("type_k", "type_v")
#: conditions that differ together as one: the model's, the KV cache's
CONDITION_GROUPS = (MODEL_CONDITIONS, KV_CONDITIONS)


@dataclass(frozen=True)
class ConditionDiff:
    """How the conditions of two sides compare: ``differ`` (stated on both sides, different:
    ``"ctx 8192 (a) vs 32768 (b)"``; each of ``CONDITION_GROUPS`` counts as one: a different model, its
    class and its quant; the K and V cache types; a row's words for its configuration, a
    ``conditions.other`` text, beside a setting that differs are that setting's name, no difference
    of their own) and ``unstated`` (stated on one side only: not stated, never different).  A
    condition that varies inside a side that is a statement (the decoding of a speedup) is what that
    statement compares, and is left out."""

    differ: list[str]
    unstated: list[str]


def condition_diff(
    cf: ClaimsFile,
    a: str,
    b: str,
    recomputed: dict[str, Recomputed] | None = None,
    under: Under | None = None,
) -> ConditionDiff:
    """The conditions (``COMPARED_CONDITIONS`` and ``conditions.other``) of sides ``a`` and ``b``
    (claims or statements: ``tables.side_of``) that differ, and those stated for one side only;
    ``under``: the audit's (``tables.Under``)."""
    under = under or Under(cf, recomputed)
    sa, sb = under.side(a), under.side(b)
    if not sa.has_claims or not sb.has_claims:
        return ConditionDiff([], [])
    names = list(dict.fromkeys(list(sa.fields) + list(sb.fields)))
    differ: list[str] = []
    group_at: dict[tuple[str, ...], int] = {}  # a group's entry in ``differ``
    unstated: list[str] = []
    for name in names:
        if name in sa.varies or name in sb.varies:
            continue
        va, vb = sa.fields.get(name), sb.fields.get(name)
        if va is not None and vb is not None and not same_value(va, vb):
            text = f"{name} {va} ({a}) vs {vb} ({b})"
            group = next((g for g in CONDITION_GROUPS if name in g), None)
            if group is not None and group in group_at:
                differ[group_at[group]] += f", {text}"
            else:
                if group is not None:
                    group_at[group] = len(differ)
                differ.append(text)
        elif (va is None) != (vb is None):
            known, value, missing = (a, va, b) if va is not None else (b, vb, a)
            unstated.append(f"{name}: stated for {known} ({value}), not for {missing}")
    named = [n for n in names if n not in COMPARED_CONDITIONS]  # conditions.other's keys
    if len(differ) > 1 and any(not d.startswith(tuple(f"{n} " for n in named)) for d in differ):
        # a row's own words for its configuration (a table's "Config" column: "C4" vs "C0") beside a
        # setting that differs (decoding speculative vs plain) name that change, no second one
        words = [n for n in named if isinstance(sa.fields.get(n), str) and isinstance(sb.fields.get(n), str)]
        differ = [d for d in differ if not d.startswith(tuple(f"{n} " for n in words))]
    return ConditionDiff(differ, unstated)


#: side attribute and the words that name each machine check in a statement's text
_MACHINE_WORDS = {
    "hardware": ("host", r"hardware|gpus?|cards?|devices?|machines?|hosts?|systems?"),
    "environments": ("env", r"environments?|os|drivers?|wsl2?|windows|linux|macos"),
    "builds": ("build", r"builds?|versions?|commits?|releases?|b\d+"),
}


def _tokens(text: str) -> set[str]:
    return {t for t in re.findall(r"[\w.+-]*\w", text.lower()) if len(t) >= 2}


def _compared_machine(
    s: Statement, under: Under, a: str, b: str, diffs: dict[str, str], cond: ConditionDiff
) -> str | None:
    """The machine check (hardware | environments | builds) a comparison is about: the one check
    the sides differ in (no other machine check, no condition: ``cond.differ`` empty) when the
    statement's words name it: a word of one side's value the other's lacks ("b11434 is about 2×
    faster than b4000", "the 4090 is 1.5× the 3090") or the check's word ("the newer build").  A
    difference the sentence compares is what it measures, not a confounder; None where it names
    none, or more than one thing differs."""
    machine = [c for c in _MACHINE_WORDS if c in diffs]
    if len(machine) != 1 or cond.differ:
        return None
    check = machine[0]
    attr, words = _MACHINE_WORDS[check]
    text = f"{s.statement} {s.quote or ''}"
    va, vb = getattr(under.side(a), attr) or "", getattr(under.side(b), attr) or ""
    ta, tb = _tokens(va), _tokens(vb)
    said = _tokens(text)
    if (ta - tb) & said or (tb - ta) & said or re.search(rf"\b(?:{words})\b", text, re.IGNORECASE):
        return check
    return None


def _slower_reason(row: dict) -> str:
    """``slower_than_baseline`` on a comparison row: the ratio's upper end ``num_hi ÷ den_lo``."""
    top = row["num_hi"] / row["den_lo"]
    return (
        f"slower than the baseline: the speed ratio is at most {row['num_hi']:g} / {row['den_lo']:g} = "
        f"{top:.3f} (below 1), with stated acceptance {row['num_alpha']:g}"
    )


def _statement_qualifiers(
    cf: ClaimsFile,
    s: Statement,
    r: Recomputed,
    comp_fired: dict,
    claim_fired: dict,
    under: Under,
    comp_rows: dict[str, dict] | None = None,
    gap: tuple[GapContext, ...] = (),
) -> tuple[list[Qualifier], list[str]]:
    """The qualifiers and notes of statement ``s``; ``claim_fired``: claim id -> the rules that fired
    on it (one dict per audit: ``under`` keeps the claims it marks, per statement); ``gap``: the
    measured llama-bench vs server gaps (``Here.tool_gap``), noted beside a ``mixed_method`` qualifier
    between a llama-bench and a server (real-prompt) side."""
    quals: dict[tuple, Qualifier] = {}
    notes: list[str] = []

    def add(kind: QualifierKind, check: str, reason: str, evidence: list[str]) -> None:
        key = (kind, check, reason)
        if key in quals:
            quals[key] = Qualifier(
                kind=kind,
                check=check,
                reason=reason,
                evidence=sorted(set(quals[key].evidence) | set(evidence)),
            )
        else:
            quals[key] = Qualifier(kind=kind, check=check, reason=reason, evidence=sorted(set(evidence)))

    pairs = _side_pairs(s, r)
    row_ids = {s.id} if s.kind != "bound" else {f"{s.id}[{a}/{b}]" for a, b in pairs}
    rules = {rule for rid in row_ids for rule in comp_fired.get(rid, [])}
    answered: set[tuple[str, str]] = set()  # pairs whose machine difference the statement compares
    for a, b in pairs:
        diffs = _differences(under, a, b)
        for check, rule in (("methods", "mixed_method"), ("phases", "mixed_phase")):
            if check in diffs and rule in rules:
                add(NOT_COMPARABLE, rule, _strip_ids(diffs[check]), [a, b])
                sides = {method_class(under.side(x).method) for x in (a, b)}
                if rule == "mixed_method" and sides == METHODS:
                    notes += [f"llama-bench vs server: {g.text()}" for g in gap if g.text() not in notes]
        cond = condition_diff(cf, a, b, under=under)
        compared = _compared_machine(s, under, a, b, diffs, cond)
        for check in ("hardware", "environments", "builds"):
            if check == compared:
                notes.append(f"compares {_strip_ids(diffs[check])} (the condition the statement names)")
            elif check in diffs and "host_or_build_mismatch" in rules:
                add(NOT_COMPARABLE, "host_or_build_mismatch", _strip_ids(diffs[check]), [a, b])
        if compared is not None:
            del diffs[compared]  # what is compared does not confound a condition below
            answered.add((a, b))
        if "sources" in diffs:
            add(NOT_COMPARABLE, "sources", _strip_ids(diffs["sources"]), [a, b])
        if (small := small_counts(cf, a, b)) is not None:
            add(AT_RISK, "small_counts", small, [a, b])
        # the machine is a condition too: a different machine and one other condition confound it
        machine = [
            w for w, key in (("hardware", "hardware"), ("environment", "environments")) if key in diffs
        ]
        if len(cond.differ) > 1:  # one differing condition is what is compared; more confound it
            add(
                NOT_COMPARABLE,
                "conditions",
                f"{len(cond.differ)} conditions differ, so the comparison cannot be put down to one: "
                + "; ".join(_strip_ids(d) for d in cond.differ),
                [a, b],
            )
        elif cond.differ and machine:
            add(
                NOT_COMPARABLE,
                "conditions",
                f"the sides differ in {' and '.join(machine)} and in one condition, so the comparison "
                f"cannot be put down to one: {_strip_ids(cond.differ[0])}",
                [a, b],
            )
        if s.kind == "bound":
            continue  # a bound's pairs differ by its own rule (numerator vs denominator, `match`)
        if len(cond.differ) == 1 and not machine and "builds" in diffs:
            # "llama.cpp Q4_K_M vs vLLM AWQ": the engine or build differs too (``host_or_build_mismatch``
            # says whether that confounds it), so the quant is not the one thing stated differently
            notes.append(f"compares {cond.differ[0]}, and {_strip_ids(diffs['builds'])} differ too")
        elif len(cond.differ) == 1 and not machine:
            notes.append(f"compares {cond.differ[0]} (the one condition stated differently)")
        notes += [f"{u} (not stated, not different)" for u in cond.unstated]
        ea, eb = under.side(a).env, under.side(b).env
        if (ea is None) != (eb is None) and cf.claim(a) is not None and cf.claim(b) is not None:
            known, missing = (a, b) if ea is not None else (b, a)
            notes.append(
                f"env: stated for {known} ({ea or eb}), not for {missing} (not stated, not different)"
            )
    if s.kind in AGGREGATING_KINDS:
        metrics = under.gather(s.id, "metric", lambda x: [c.metric] if (c := cf.claim(x)) else [])
        if _phases(list(metrics)) >= {"prefill", "decode"}:
            add(
                NOT_COMPARABLE,
                "mixed_phase",
                f"phases: a {s.kind} of prefill and decode rates ({', '.join(sorted(metrics))})",
                claims_under(cf, s.id, under.recomputed),
            )
    for rid in row_ids:
        fired = comp_fired.get(rid, [])
        ids = [x for x in rid.removeprefix(s.id).strip("[]").split("/") if x]
        ids = ids or list(pairs[0] if pairs else [])
        if "single_run" in fired:
            ones = sorted({u for i in ids for u in under.claims_among(i, "single_run", _below_min_n)})
            add(
                AT_RISK,
                "single_run",
                f"n below {caveats.DEFAULTS['min_n']} on a side of the comparison (single runs, no interval)",
                ones,
            )
        num_claim = cf.claim(ids[0]) if ids else None
        if "acceptance_without_speedup" in fired and num_claim is not None:
            acc = [c.id for c in under.acceptance(under.conditions(num_claim).decoding)]
            add(
                AT_RISK,
                "acceptance_without_speedup",
                "high stated acceptance, yet the speed ratio is at or below 1: no speedup",
                ids + acc,
            )
    # every other rule that fired on a row of this statement reaches the verdict (``RULE_EFFECT``)
    for rid in sorted(row_ids):
        ids = [x for x in rid.removeprefix(s.id).strip("[]").split("/") if x] or [
            x for p in pairs[:1] for x in p
        ]
        for rule in comp_fired.get(rid, []):
            effect = RULE_EFFECT[rule]
            if rule == "host_or_build_mismatch" and tuple(ids) in answered:
                continue  # the difference is what the statement compares (``_compared_machine``)
            if effect == NOTE:
                notes.append(rule_note(rule))
            elif effect != CONSISTENCY:
                same = [k for k, q in quals.items() if q.check == rule]
                if same:  # one qualifier per rule: a bound's other pairs add their ids
                    kind, check, reason = same[0]
                    add(kind, check, reason, ids)
                    continue
                row = (comp_rows or {}).get(rid)
                reason = rule_reason(rule)
                if rule == "slower_than_baseline" and row:
                    reason = _slower_reason(row)
                elif rule == "acceptance_definition_mismatch" and row:
                    reason = (
                        f"acceptance of two definitions, {row['num_acceptance_definition']} vs "
                        f"{row['den_acceptance_definition']} (audit.acceptance.DEFINITIONS): not one quantity"
                    )
                add(RULE_QUALIFIER[rule], rule, reason, ids)
    # a side whose conditions the drafter guessed: a condition it misread (the same engine read for
    # both, a machine missed) would hide the difference "not comparable" names; said, never a lower
    # verdict by itself
    guessed = sorted({x for p in pairs for x in p if (c := cf.claim(x)) is not None and not c.reviewed})
    if guessed:
        notes.append(
            f"sides' conditions drafted, not reviewed ({', '.join(guessed)}): "
            "whether they are comparable rests on the draft"
        )
    cited = set(r.reads) | {x for p in pairs for x in p}
    # at-risk rules carry over from every claim the statement rests on, through cited statements

    def carries(c: Claim) -> bool:
        return any(rule in CARRIED for rule in claim_fired.get(c.id, []))

    rests_on = {u for x in cited for u in under.claims_among(x, "carried", carries)}
    for cid in sorted(rests_on):
        for rule in claim_fired.get(cid, []):
            if rule in CARRIED:
                add(AT_RISK, rule, f"cites a claim at risk ({rule})", [cid])
    for cid in sorted(cited):
        c = cf.claim(cid)
        if c is not None and claim_interval(c) is None:
            add(UNSUPPORTED, "needs", f"a comparison whose cited number {cid} is absent", [cid])
        if c is not None:
            notes += _not_stated(cf, c)
    return list(quals.values()), sorted(set(notes))


def _below_min_n(c: Claim) -> bool:
    """Whether a claim states an n below ``caveats.DEFAULTS['min_n']`` (single runs, no interval)."""
    return c.n is not None and c.n < caveats.DEFAULTS["min_n"]


def _strip_ids(text: str) -> str:
    return re.sub(r" \([^()]*\)(?= vs |, |$)", "", text)


def _fired(table: pl.DataFrame, kind: str) -> dict[str, list[str]]:
    if table.is_empty():
        return {}
    out, _ = caveats.evaluate(table, kind)
    return {row["id"]: row["caveats"] for row in out.select("id", "caveats").iter_rows(named=True)}


def _finite(x: float) -> float | None:
    """``x``, or None for an open end (a bound allows everything below or above it)."""
    return x if math.isfinite(x) else None


def _ends(iv: Interval | None) -> tuple[float | None, float | None]:
    """``(lo, hi)`` of an interval, ``(None, None)`` without one (a verdict's ``*_lo``/``*_hi``)."""
    return (iv.lo, iv.hi) if iv is not None else (None, None)


def _stated(item: Claim | Statement) -> Interval | None:
    """The value or range ``item`` states, as written (no precision added); None without a number."""
    if item.value is not None:
        return Interval(item.value, item.value)
    return Interval(*item.range) if item.range is not None else None


@dataclass(frozen=True)
class CountsCheck:
    """A stated acceptance rate against the counts it states beside it (``alpha`` in the claim's unit)."""

    consistency: Consistency
    recomputed: str
    arithmetic: str
    difference: float | None
    alpha: float
    allowed: Interval | None = None


def counts_check(c: Claim) -> CountsCheck | None:
    """Check a proportion's value against its ``counts``: k ÷ n (an acceptance rate's α = accepted ÷
    drafted, llama-server ``draft_n_accepted`` / ``draft_n``; "7 of 12 correct"), ×100 when the unit
    is %, compared with the interval the stated value's precision allows (``precision.interval_of``).

    Returns None when the claim is not an acceptance rate or a ratio (x, %) with a number and counts."""
    iv = claim_interval(c)
    if c.counts is None or iv is None or not (c.metric == "acceptance_rate" or family_of(c.unit) == "ratio"):
        return None
    scale = 100.0 if (c.unit or "").strip() == "%" else 1.0
    alpha = c.counts.alpha * scale
    stated = stated_interval_of(c) or iv
    arithmetic = f"{c.counts.text()}{' x 100' if scale != 1 else ''} = {alpha:.4f}"
    if Interval(alpha, alpha).overlaps(stated):
        return CountsCheck(CONSISTENT, f"{alpha:.3f}", arithmetic, None, alpha, stated)
    target = stated.lo if alpha < stated.lo else stated.hi
    return CountsCheck(INCONSISTENT, f"{alpha:.3f}", arithmetic, alpha - target, alpha, stated)


def _own_definition_check(cf: ClaimsFile, c: Claim) -> CountsCheck | None:
    """An acceptance claim of another engine's definition against its own counts
    (``acceptance.own_value``), as ``counts_check`` does for accepted ÷ drafted."""
    own = acceptance.own_value(cf, c)
    stated = stated_interval_of(c) or claim_interval(c)
    if own is None or stated is None:
        return None
    scale = 100.0 if (c.unit or "").strip() == "%" else 1.0
    value = own.alpha * scale
    if Interval(value, value).overlaps(stated):
        return CountsCheck(CONSISTENT, f"{value:.3f}", own.arithmetic, None, value, stated)
    target = stated.lo if value < stated.lo else stated.hi
    return CountsCheck(INCONSISTENT, f"{value:.3f}", own.arithmetic, value - target, value, stated)


def acceptance_check(cf: ClaimsFile, c: Claim) -> tuple[CountsCheck | None, str | None]:
    """A claim's stated proportion against its counts, in the claim's own acceptance definition
    (``acceptance.definition_of``): llama.cpp's α = accepted ÷ drafted (``counts_check``) for a
    llama.cpp definition, an unknown one or a non-acceptance ratio; another engine's definition only
    through its own counts (``_own_definition_check``: system efficiency from ``emitted_tokens`` and
    ``verify_steps``), never against accepted ÷ drafted.

    Returns ``(check, None)``, or ``(None, why)`` where the definition cannot be computed from the
    counts stated (the reason for a "not checkable" note), or ``(None, None)`` with nothing to check.

    Raises:
        ClaimsError: as ``acceptance.definition_of`` and ``acceptance.to_llama_cpp``."""
    definition = acceptance.definition_of(cf, c) if c.metric == "acceptance_rate" else None
    if definition is None or definition in acceptance.LLAMA_CPP:
        return counts_check(c), None
    own = _own_definition_check(cf, c)
    if own is not None or claim_interval(c) is None:
        return own, None
    if definition == "system_efficiency":
        return None, (
            "system_efficiency (emitted ÷ (steps × (k + 1))) cannot be computed from accepted ÷ drafted "
            "alone; state emitted_tokens and verify_steps in conditions.other"
        )
    return None, (
        f"{definition} cannot be computed from accepted ÷ drafted (it also counts matches after the first "
        "mismatch, which the counts do not give)"
    )


def judge(cf: ClaimsFile, recomputed: dict[str, Recomputed], here: Here, claims_file: str) -> list[Verdict]:
    """Verdicts for every claim, then every statement, of ``cf`` (file order)."""
    ctable = claims_table(cf)
    claim_fired = _fired(ctable, "claims")
    under = Under(cf, recomputed)  # what each claim and statement rests on, found once
    ctable_cmp = comparison_table(cf, recomputed, under)
    comp_fired = _fired(ctable_cmp, "comparison")
    comp_rows = {row["id"]: row for row in ctable_cmp.iter_rows(named=True)}
    gaps = unsaid(cf, recomputed, under)
    out = []
    # acceptance claims are at risk where a comparison of their decoding mode shows no speedup
    acc_risk: dict[str, set[str]] = {}
    for row in ctable_cmp.iter_rows(named=True):
        num_claim = cf.claim(row["num_id"])
        # fires only where both sides are claims (``tables._alpha``)
        if num_claim is not None and "acceptance_without_speedup" in comp_fired.get(row["id"], []):
            for c in under.acceptance(under.conditions(num_claim).decoding):
                acc_risk.setdefault(c.id, set()).add(row["statement"])
    capacity_quals, capacity_notes = _at_capacity(cf, claim_fired)
    for c in cf.claims:
        quals = _claim_qualifiers(c, ctable, claim_fired)
        if c.id in capacity_quals:
            quals.append(capacity_quals[c.id])
        if c.id in acc_risk:
            quals.append(
                Qualifier(
                    kind=AT_RISK,
                    check="acceptance_without_speedup",
                    reason="the same decoding mode runs at or below the plain speed: "
                    "acceptance is high, speed is not",
                    evidence=sorted(acc_risk[c.id]),
                )
            )
        counted, uncheckable = acceptance_check(cf, c)
        if counted is not None or acceptance.to_llama_cpp(cf, c) is not None:
            quals = [q for q in quals if q.check != "needs"]  # the counts behind it are stated
        stated_lo, stated_hi = _ends(_stated(c))
        out.append(
            Verdict(
                claims_file=claims_file,
                id=c.id,
                kind="claim",
                text=claim_text(c),
                consistency=counted.consistency if counted else NOT_CHECKABLE,
                recomputed=counted.recomputed if counted else None,
                difference=counted.difference if counted else None,
                stated_lo=stated_lo,
                stated_hi=stated_hi,
                stated_text=written(c.value, c.range, c.decimals, c.range_decimals),
                recomputed_lo=counted.alpha if counted else None,
                recomputed_hi=counted.alpha if counted else None,
                allowed_lo=counted.allowed.lo if counted and counted.allowed else None,
                allowed_hi=counted.allowed.hi if counted and counted.allowed else None,
                arithmetic=counted.arithmetic if counted else None,
                unit=c.unit,
                qualifiers=quals,
                notes=([f"not checkable: {uncheckable}"] if uncheckable else [])
                + _not_stated(cf, c)
                + capacity_notes.get(c.id, [])
                + [rule_note(x) for x in claim_fired.get(c.id, []) if RULE_EFFECT[x] == NOTE]
                + acceptance.notes(cf, c),
                unsaid=gaps.get(c.id, []),
                reproducible=reproducibility(cf, c, here),
                evidence=[c.id],
            )
        )
    # a statement carries "at capacity" from the rows judged at capacity (not from a memory claim
    # at capacity with no slower row beside it)
    carried = {k: [x for x in v if x != "at_capacity"] for k, v in claim_fired.items()}
    for cid in capacity_quals:
        carried.setdefault(cid, []).append("at_capacity")
    for s in cf.statements:
        r = recomputed[s.id]
        quals, notes = _statement_qualifiers(cf, s, r, comp_fired, carried, under, comp_rows, here.tool_gap)
        if r.verdict == NOT_CHECKABLE and r.reason:
            notes = [f"not checkable: {r.reason}"] + notes
        cited = [claim for i in sorted(set(r.reads)) if (claim := cf.claim(i)) is not None]
        reps = [reproducibility(cf, c, here) for c in cited]
        missing = sorted({m for rep in reps for m in rep.missing})
        (stated_lo, stated_hi), (recomputed_lo, recomputed_hi) = _ends(_stated(s)), _ends(r.in_unit)
        out.append(
            Verdict(
                claims_file=claims_file,
                id=s.id,
                kind="statement",
                text=s.statement,
                consistency=r.verdict,
                recomputed=(r.in_unit.text(3) if r.in_unit else None),
                difference=r.difference,
                stated_lo=stated_lo,
                stated_hi=stated_hi,
                stated_text=written(s.value, s.range, s.decimals, s.range_decimals),
                recomputed_lo=recomputed_lo,
                recomputed_hi=recomputed_hi,
                allowed_lo=_finite(r.allowed.lo) if r.allowed else None,
                allowed_hi=_finite(r.allowed.hi) if r.allowed else None,
                unit=s.unit,
                arithmetic=r.arithmetic or None,
                qualifiers=quals,
                notes=notes,
                unsaid=gaps.get(s.id, []),
                reproducible=Reproducible(here=bool(cited) and not missing, missing=missing),
                evidence=list(r.reads),
            )
        )
    return out


@dataclass
class Summary:
    """Counts over verdicts: consistency verdicts and qualifier kinds (each at least once?)."""

    consistency: dict[str, int] = field(default_factory=dict)
    qualifiers: dict[str, int] = field(default_factory=dict)
    checks: dict[str, int] = field(default_factory=dict)
    reproducible: int = 0


def summarize(verdicts: list[Verdict]) -> Summary:
    """How often each consistency verdict, qualifier kind and check fired."""
    s = Summary()
    for v in verdicts:
        s.consistency[v.consistency] = s.consistency.get(v.consistency, 0) + 1
        for q in v.qualifiers:
            s.qualifiers[q.kind] = s.qualifiers.get(q.kind, 0) + 1
            s.checks[q.check] = s.checks.get(q.check, 0) + 1
        s.reproducible += v.reproducible.here
    return s

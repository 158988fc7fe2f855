"""Which entries of a raw log a claim with ``log:`` speaks about.

A log often holds more than the claim's configuration (a llama-bench table with ``-ngl 0,99``, pp and
tg rows).  A claim is checked only against the entries of its ``log`` that

* carry its metric (``logs.LogEntry.value_of``: ``decode_tps``, ``prefill_tps``, ``acceptance_rate``,
  ``tau``, durations ...; for ``speedup``: speculative requests with a paired baseline,
  ``logs.LogEntry.speedup``), and
* agree with every condition the claim states that the entry also records: ``offload.n_gpu_layers``
  (llama-bench ``n_gpu_layers``), ``offload.n_cpu_moe`` (``n_cpu_moe``), ``batch`` (``n_batch``), and
  the test named in ``method`` (``tg128``: ``n_gen`` 128; ``pp512``: ``n_prompt`` 512; ``@ d4096``:
  ``n_depth`` 4096).  A condition the claim or the entry does not state excludes nothing.

When the llama-bench entries left still differ in a configuration field (every field that is not a
measurement, ``identity.MEASUREMENT_FIELDS``), the log is ambiguous for the claim: no value is taken
from it, and the fields that differ are named with the fix.  Requests of one server log share one
configuration; their values give a range (one per request).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..identity import MEASUREMENT_FIELDS
from .logs import METRIC_UNITS, LogEntry
from .schema import Claim, ClaimsFile
from .units import UnitError, factor


@dataclass
class Match:
    """The entries of a claim's log that it speaks about, their values in ``unit``, how they were
    taken (``how``, appended to the arithmetic), and ``why`` (nothing matched, or the ambiguity)."""

    entries: list[LogEntry] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    unit: str = "tok/s"
    how: str = ""
    ambiguous: bool = False
    why: str = ""


def stated_test(method: str | None) -> dict[str, int]:
    """llama-bench fields named by a method text: ``"llama-bench tg128"`` -> ``{"n_gen": 128}``,
    ``"pp512 @ d4096"`` -> ``{"n_prompt": 512, "n_depth": 4096}``; {} when none is named."""
    out: dict[str, int] = {}
    text = method or ""
    for pattern, name in (
        (r"\btg(\d+)\b", "n_gen"),
        (r"\bpp(\d+)\b", "n_prompt"),
        (r"@\s*d(\d+)\b", "n_depth"),
    ):
        m = re.search(pattern, text, re.I)
        if m:
            out[name] = int(m.group(1))
    return out


def _stated(cf: ClaimsFile, claim: Claim) -> dict[str, int]:
    cond = cf.conditions_of(claim)
    want: dict[str, int] = {}
    if cond.offload is not None and cond.offload.n_gpu_layers is not None:
        want["n_gpu_layers"] = cond.offload.n_gpu_layers
    if cond.offload is not None and cond.offload.n_cpu_moe is not None:
        want["n_cpu_moe"] = cond.offload.n_cpu_moe
    if cond.batch is not None:
        want["n_batch"] = cond.batch
    return {**want, **stated_test(claim.method)}


def _config(entry: LogEntry) -> dict[str, str]:
    lb = entry.record.get("llama_bench") or {}
    return {k: json.dumps(v, sort_keys=True) for k, v in lb.items() if k not in MEASUREMENT_FIELDS}


def _differing(entries: list[LogEntry]) -> str:
    configs = [_config(e) for e in entries]
    names = sorted({k for c in configs for k in c if len({c2.get(k) for c2 in configs}) > 1})
    shown = "; ".join(
        f"{n}: "
        + ", ".join(
            f"{json.loads(c[n]) if n in c else 'absent'} ({e.evidence[0]})"
            for c, e in zip(configs, entries, strict=True)
        )
        for n in names
    )
    return shown


def matching(cf: ClaimsFile, claim: Claim, entries: list[LogEntry]) -> Match:
    """The entries of ``claim.log`` that ``claim`` speaks about (module doc), with their values in the
    claim's unit (tok/s rates converted to ``tok/ms`` when the claim states that; a speedup in ``%``
    as ×100)."""
    in_file = [e for e in entries if e.file == claim.log]
    if claim.metric == "speedup":
        cand = [e for e in in_file if e.speedup is not None]
        if not cand:
            return Match(
                why=f"no speculative request of {claim.log} has a paired baseline request (name the "
                "pair in the claims file `log_pairs` or with --pair SPEC=BASELINE)"
            )
    else:
        cand = [e for e in in_file if e.value_of(claim.metric) is not None]
        if not cand:
            return Match(why=f"no {claim.metric} entry in {claim.log}")
    want = _stated(cf, claim)
    kept: list[tuple[LogEntry, list[str]]] = []
    left_out: list[tuple[LogEntry, list[str]]] = []
    for e in cand:
        lb = e.record.get("llama_bench") or {}
        clash = [
            f"{k} {lb[k]}, the claim states {v}"
            for k, v in want.items()
            if lb.get(k) is not None and lb[k] != v
        ]
        (left_out if clash else kept).append((e, clash))
    if not kept:
        shown = "; ".join(f"{e.evidence[0]} ({', '.join(c)})" for e, c in left_out)
        return Match(why=f"no entry of {claim.log} matches the claim's conditions: {shown}")
    found = [e for e, _ in kept]
    configs = {tuple(sorted(_config(e).items())) for e in found if e.kind == "llama_bench"}
    if len(configs) > 1:
        return Match(
            entries=found,
            ambiguous=True,
            why=(
                f"{len(found)} entries of {claim.log} match what the claim states and differ in "
                f"{_differing(found)}; fix: state the condition that tells them apart in the claim's "
                "`conditions` (offload, batch) or the test in `method` (tg128, pp512)"
            ),
        )
    if claim.metric == "speedup":
        scale, unit = (100.0, "%") if (claim.unit or "").strip() == "%" else (1.0, "x")
        values = [e.speedup * scale for e in found if e.speedup is not None]
    else:
        unit = METRIC_UNITS.get(claim.metric, "tok/s")
        try:
            scale, unit = factor(unit, claim.unit), str(claim.unit)
        except UnitError:
            scale = 1.0
        values = [v * scale for e in found if (v := e.value_of(claim.metric)) is not None]
    how = f" (range over {len(values)} requests of one log)" if len(values) > 1 else ""
    if left_out:
        how += "; left out: " + "; ".join(f"{e.evidence[0]} ({', '.join(c)})" for e, c in left_out)
    return Match(entries=found, values=values, unit=unit, how=how)

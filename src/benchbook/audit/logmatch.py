"""Which entries of a raw log a claim with ``log:`` speaks about.

A log often holds more than the claim's configuration (a llama-bench table with ``-ngl 0,99``, pp and
tg rows).  A claim is checked only against the entries of its ``log`` that

* carry its metric (``logs.LogEntry.value_of``: ``decode_tps``, ``prefill_tps``, ``acceptance_rate``,
  ``tau``, durations ...; for ``speedup``: speculative requests with a paired baseline,
  ``logs.LogEntry.speedup``), and
* agree with every condition the claim states that the entry also records (``CONDITION_FIELDS``):
  ``offload.n_gpu_layers`` (llama-bench ``n_gpu_layers``), ``offload.n_cpu_moe`` (``n_cpu_moe``),
  ``batch`` (``n_batch``), ``ubatch`` (``n_ubatch``), ``flash_attn`` (``flash_attn``: 1/0; llama-bench's
  -1 "auto" does not say which ran, so it excludes nothing), ``type_k``/``type_v``, ``depth``
  (``n_depth``), ``backend`` (one of ``backends``), ``concurrency`` (a server's parallel slots), and
  the test named in ``method`` (``tg128``: ``n_gen`` 128; ``pp512``: ``n_prompt`` 512; ``@ d4096``:
  ``n_depth`` 4096).  A condition the claim or the entry does not state excludes nothing.

A claim whose log holds its configuration only at other depths (``depth: 16384`` against a log measured
at ``n_depth`` 0) is "not supported at the depths in use" (``Match.unsupported``), not merely
unmatched.  Statements citing two claims with logs (``statement_findings``) say where the logs' own
entries contradict them: an effect whose direction flips with depth (``FA 1.20× at depth 0, 0.70× at
depth 16384``), and a comparison whose two sides' log entries differ in more than one setting.

When the llama-bench entries left still differ in a configuration field (every field that is not a
measurement, ``identity.MEASUREMENT_FIELDS``), the log is ambiguous for the claim: no value is taken
from it, and the fields that differ are named with the fix.  Requests of one server log share one
configuration; their values give a range (one per request).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..identity import MEASUREMENT_FIELDS, order_trend
from .logs import METRIC_UNITS, LogEntry
from .schema import Claim, ClaimsFile
from .units import UnitError, factor
from .verdicts import AT_RISK, NOT_COMPARABLE, Qualifier, Verdict

#: claim condition -> the entry field it is matched with (llama-bench's names; ``concurrency``: a
#: server's parallel slots where the record states them)
CONDITION_FIELDS = {
    "batch": "n_batch",
    "ubatch": "n_ubatch",
    "flash_attn": "flash_attn",
    "type_k": "type_k",
    "type_v": "type_v",
    "depth": "n_depth",
    "backend": "backends",
    "concurrency": "n_parallel",
}


@dataclass
class Match:
    """The entries of a claim's log that it speaks about, their values in ``unit``, how they were
    taken (``how``, appended to the arithmetic), ``why`` (nothing matched, or the ambiguity), and
    ``unsupported``: why the log does not support the claim at its stated depth (module doc)."""

    entries: list[LogEntry] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    #: (low, high) of each value given the rounding of what the log prints (``LogEntry.span_of``)
    spans: list[tuple[float, float]] = field(default_factory=list)
    unit: str = "tok/s"
    how: str = ""
    ambiguous: bool = False
    why: str = ""
    unsupported: str | None = None


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


def _stated(cf: ClaimsFile, claim: Claim) -> dict[str, Any]:
    """The entry fields (llama-bench names) and values the claim states (module doc)."""
    cond = cf.conditions_of(claim)
    want: dict[str, Any] = {}
    if cond.offload is not None and cond.offload.n_gpu_layers is not None:
        want["n_gpu_layers"] = cond.offload.n_gpu_layers
    if cond.offload is not None and cond.offload.n_cpu_moe is not None:
        want["n_cpu_moe"] = cond.offload.n_cpu_moe
    for name, key in CONDITION_FIELDS.items():
        if getattr(cond, name) is not None:
            want[key] = getattr(cond, name)
    return {**want, **stated_test(claim.method)}


def entry_value(entry: LogEntry, key: str) -> Any:
    """The value of ``key`` (a llama-bench field name) an entry records: its llama-bench row's, else the
    record's own (a server request: what ingest read from the server's lines); None when not recorded."""
    lb = entry.record.get("llama_bench") or {}
    value = lb.get(key) if key in lb else entry.record.get(key)
    return None if key == "flash_attn" and value == -1 else value  # -1: auto, which ran is unknown


def _same(key: str, got: Any, want: Any) -> bool:
    """Whether an entry's ``got`` agrees with a claim's ``want`` for ``key`` (cache types and backends
    compared case-insensitively, a backend as one of the comma-joined ``backends``)."""
    if key == "flash_attn":
        return bool(int(got)) == bool(want)
    if key == "backends":
        return str(want).strip().lower() in {b.strip().lower() for b in str(got).split(",")}
    if key in ("type_k", "type_v"):
        return str(got).strip().lower() == str(want).strip().lower()
    return got == want


def _clashes(entry: LogEntry, want: dict[str, Any]) -> list[tuple[str, str]]:
    """``(field, text)`` of each stated condition the entry records otherwise."""
    out = []
    for k, v in want.items():
        got = entry_value(entry, k)
        if got is not None and not _same(k, got, v):
            out.append((k, f"{k} {got}, the claim states {v}"))
    return out


def sample_drift(entry: LogEntry) -> bool:
    """Whether a llama-bench entry's samples (``samples_ns``, in run order) drift
    (``identity.order_trend``)."""
    lb = entry.record.get("llama_bench") or {}
    tokens = (lb.get("n_prompt") or 0) + (lb.get("n_gen") or 0)
    trend = order_trend([tokens * 1e9 / ns for ns in lb.get("samples_ns") or [] if ns])
    return trend is not None and trend.drifting


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
    only_depth: list[LogEntry] = []
    for e in cand:
        clash = _clashes(e, want)
        (left_out if clash else kept).append((e, [text for _, text in clash]))
        if clash and {k for k, _ in clash} == {"n_depth"}:
            only_depth.append(e)
    if not kept:
        shown = "; ".join(f"{e.evidence[0]} ({', '.join(c)})" for e, c in left_out)
        why = f"no entry of {claim.log} matches the claim's conditions: {shown}"
        if only_depth:  # the configuration is there, at other depths only
            depths = sorted({entry_value(e, "n_depth") for e in only_depth})
            return Match(
                why=why,
                unsupported=(
                    f"not supported at the depths in use: the claim states depth {want['n_depth']}; "
                    f"{claim.log} measured its configuration at n_depth {', '.join(map(str, depths))} only "
                    f"({', '.join(e.evidence[0] for e in only_depth)})"
                ),
            )
        return Match(why=why)
    found = [e for e, _ in kept]
    configs = {tuple(sorted(_config(e).items())) for e in found if e.kind == "llama_bench"}
    if len(configs) > 1:
        return Match(
            entries=found,
            ambiguous=True,
            why=(
                f"{len(found)} entries of {claim.log} match what the claim states and differ in "
                f"{_differing(found)}; fix: state the condition that tells them apart in the claim's "
                "`conditions` (offload, batch, ubatch, flash_attn, type_k, type_v, depth, backend) or "
                "the test in `method` (tg128, pp512)"
            ),
        )
    if claim.metric == "speedup":
        scale, unit = (100.0, "%") if (claim.unit or "").strip() == "%" else (1.0, "x")
        values = [e.speedup * scale for e in found if e.speedup is not None]
        spans = [(v, v) for v in values]
    else:
        unit = METRIC_UNITS.get(claim.metric, "tok/s")
        try:
            scale, unit = factor(unit, claim.unit), str(claim.unit)
        except UnitError:
            scale = 1.0
        values = [v * scale for e in found if (v := e.value_of(claim.metric)) is not None]
        spans = [
            (lo * scale, hi * scale) for e in found if (sp := e.span_of(claim.metric)) for lo, hi in [sp]
        ]
    rows = "rows" if found[0].kind == "llama_bench" else "requests"
    how = f" (range over {len(values)} {rows} of one log)" if len(values) > 1 else ""
    drift = [e for e in found if sample_drift(e)]
    if drift and len(found) > 1:  # one configuration, a drifting row beside settled ones: kept apart
        how += (
            f"; not pooled: {', '.join(e.evidence[0] for e in drift)} drift in run order (order_trend), "
            f"{', '.join(e.evidence[0] for e in found if e not in drift)} do not"
        )
    if left_out:
        how += "; left out: " + "; ".join(f"{e.evidence[0]} ({', '.join(c)})" for e, c in left_out)
    return Match(entries=found, values=values, spans=spans, unit=unit, how=how)


def _side_entries(cf: ClaimsFile, claim: Claim, entries: list[LogEntry]) -> list[LogEntry]:
    """The entries of ``claim.log`` with its metric that agree with every condition it states except the
    depth (``depth``, ``@ dN`` in ``method``): the same configuration at every depth the log measured."""
    want = {k: v for k, v in _stated(cf, claim).items() if k != "n_depth"}
    return [
        e
        for e in entries
        if e.file == claim.log
        and e.metric == claim.metric
        and e.value is not None
        and e.kind == "llama_bench"
        and not _clashes(e, want)
    ]


def _one_per_depth(found: list[LogEntry]) -> dict[int, LogEntry]:
    """Depth -> the one entry at that depth; depths holding entries of more than one configuration are
    left out (which of them the claim means is not known)."""
    by_depth: dict[int, list[LogEntry]] = {}
    for e in found:
        depth = entry_value(e, "n_depth")
        by_depth.setdefault(int(depth or 0), []).append(e)
    return {d: es[0] for d, es in by_depth.items() if len(es) == 1}


def depth_flip(
    cf: ClaimsFile, num: Claim, den: Claim, entries: list[LogEntry]
) -> tuple[str, list[str]] | None:
    """``(reason, evidence)`` when the ratio of ``num``'s entries to ``den``'s, depth by depth in their
    logs, lies above 1 at some depth and below 1 at another: ``"the effect flips with depth: fa-on ÷
    fa-off = 1.20× at depth 0, 0.70× at depth 16384 (bench.json)"``; None otherwise (fewer than two
    depths measured on both sides, or one direction throughout)."""
    a, b = _one_per_depth(_side_entries(cf, num, entries)), _one_per_depth(_side_entries(cf, den, entries))
    depths = sorted(set(a) & set(b))
    ratios = {d: va / vb for d in depths if (va := a[d].value) and (vb := b[d].value)}
    if len(ratios) < 2 or not (min(ratios.values()) < 1.0 < max(ratios.values())):
        return None
    shown = ", ".join(f"{r:.2f}× at depth {d}" for d, r in ratios.items())
    logs = ", ".join(sorted({num.log or "", den.log or ""}))
    evidence = [x for d in ratios for x in (*a[d].evidence, *b[d].evidence)]
    return f"the effect flips with depth: {num.id} ÷ {den.id} = {shown} ({logs})", evidence


def settings_changed(found_a: list[LogEntry], found_b: list[LogEntry]) -> list[str]:
    """The configuration fields (llama-bench's) in which the entries behind two sides of a comparison
    differ, as ``"flash_attn 1 (a.json:2) vs 0 (a.json:5)"``; [] unless each side is one configuration."""
    ca = {tuple(sorted(_config(e).items())) for e in found_a}
    cb = {tuple(sorted(_config(e).items())) for e in found_b}
    if len(ca) != 1 or len(cb) != 1:
        return []
    xa, xb = dict(next(iter(ca))), dict(next(iter(cb)))
    ea, eb = found_a[0].evidence[0], found_b[0].evidence[0]
    return [
        f"{k} {json.loads(xa[k]) if k in xa else 'absent'} ({ea}) vs "
        f"{json.loads(xb[k]) if k in xb else 'absent'} ({eb})"
        for k in sorted(set(xa) | set(xb))
        if xa.get(k) != xb.get(k)
    ]


def with_log_findings(cf: ClaimsFile, verdicts: list[Verdict], entries: list[LogEntry]) -> list[Verdict]:
    """``verdicts`` with what the logs say about each two-sided statement (ratio, percent change,
    difference) whose cited claims both have a ``log``: "at risk" (check ``depth``) where the effect
    flips direction with depth (``depth_flip``), and "not comparable" (check ``conditions``) where the
    entries behind the two sides differ in more than one setting and the verdict does not already say
    which conditions differ (``settings_changed``)."""
    out = []
    for v in verdicts:
        s = cf.statement(v.id) if v.kind == "statement" else None
        sides = [cf.claim(x) for x in s.of] if s is not None and len(s.of) == 2 else []
        if (
            s is None
            or s.kind not in ("ratio", "percent_change", "difference")
            or not all(c is not None and c.log for c in sides)
        ):
            out.append(v)
            continue
        num, den = (sides[1], sides[0]) if s.kind == "percent_change" else (sides[0], sides[1])
        assert num is not None and den is not None  # checked above
        quals = list(v.qualifiers)
        flip = depth_flip(cf, num, den, entries)
        if flip is not None:
            quals.append(Qualifier(kind=AT_RISK, check="depth", reason=flip[0], evidence=flip[1]))
        ma, mb = matching(cf, num, entries), matching(cf, den, entries)
        changed = settings_changed(ma.entries, mb.entries) if not (ma.ambiguous or mb.ambiguous) else []
        if len(changed) > 1 and not any(q.check == "conditions" for q in quals):
            quals.append(
                Qualifier(
                    kind=NOT_COMPARABLE,
                    check="conditions",
                    reason=f"the log entries of the two sides differ in {len(changed)} settings, so the "
                    f"comparison cannot be put down to one: {'; '.join(changed)}",
                    evidence=[x for e in ma.entries + mb.entries for x in e.evidence],
                )
            )
        out.append(v.model_copy(update={"qualifiers": quals}) if quals != v.qualifiers else v)
    return out

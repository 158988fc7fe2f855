"""Audit a claims file (and raw logs): verdicts in memory, verdict records and pages on disk.

``audit_file`` loads and validates the claims file (``schema``), recomputes its statements
(``recompute``), judges every claim and statement (``verdicts``), reads the logs through the ingest
adapter (``logs``) and judges every log entry with the same caveat rules as native records; a claim
with ``log:`` is checked against the rate recomputed from that log.  ``write`` puts the verdict
records in ``<out>/<claims stem>.jsonl`` (rewritten each run; ``schema`` and ``schema_version`` in
each) and the page in ``<pages>/<claims stem>.qmd``; ``audit_dir`` does it for every ``*.yaml``/``*.yml`` of
a folder and writes the index page.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .. import caveats
from ..experiments.speculative.analysis import acceptance_definition
from ..records import json_line
from . import acceptance, page
from .delta import sized
from .logmatch import Match, matching, with_log_findings
from .logs import LogEntry, Logs, audit_logs
from .precision import Interval
from .recompute import CONSISTENT, INCONSISTENT, NOT_CHECKABLE, Consistency, recompute_all
from .schema import Claim, ClaimsError, ClaimsFile, load, stated_interval_of
from .verdicts import (
    NOT_COMPARABLE,
    NOTE,
    RULE_EFFECT,
    RULE_QUALIFIER,
    Here,
    Qualifier,
    Reproducible,
    Verdict,
    build_number_matches,
    judge,
    rule_note,
    rule_reason,
)


@dataclass
class Audit:
    """One audited claims file: its path, the parsed file, the verdicts (claims, statements, logs),
    the logs read and the folder they were read from (None without ``--logs``)."""

    path: Path
    claims: ClaimsFile
    verdicts: list[Verdict]
    logs: Logs | None = None
    logs_dir: Path | None = None


def _rule_reason(rule: str, row: dict) -> str:
    if row.get(f"{rule}_reason"):  # the table states what fired (audit.logstate: the values in order)
        return row[f"{rule}_reason"]
    if rule == "single_run":
        return f"n = {row.get('n')}: fewer than {caveats.DEFAULTS['min_n']} repetitions, no interval"
    if rule == "acceptance_without_speedup":
        return (
            f"acceptance {row['alpha']:.3f} but speedup {row['speedup_mean']:.3f} against the paired "
            "baseline: no speedup"
        )
    if rule == "high_variance":
        return f"coefficient of variation {row['cv']:.3f} above {caveats.DEFAULTS['high_cv']}"
    return rule_reason(rule)


def _settings_qualifiers(e: LogEntry) -> list[Qualifier]:
    """ "not comparable" for each context setting the log's context used other than the one requested
    (``ingest.settings``: ``-ub 4096`` run at ``n_ubatch`` 2048): the numbers are not of the setting
    the command asked for."""
    return [
        Qualifier(
            kind=NOT_COMPARABLE,
            check="settings",
            reason=f"{s.name}: requested {s.requested}, the context used {s.effective}",
            evidence=[f"{e.file}:{s.requested_line}", f"{e.file}:{s.effective_line}"],
        )
        for s in e.settings.values()
        if s.differs
    ]


def _log_verdicts(lg: Logs, claims_file: str, here: Here) -> list[Verdict]:
    fired: dict[str, tuple[list[str], dict]] = {}
    for table, kind, idc in (
        (lg.llama_bench, "llama_bench", "run_ids"),
        (lg.speculative, "speculative", "config_id"),
    ):
        if table.is_empty():
            continue
        out, _ = caveats.evaluate(table, kind)
        for row in out.iter_rows(named=True):
            rid = row[idc][0] if isinstance(row[idc], list) else row[idc]
            fired[rid] = (row["caveats"], row)
    verdicts = []
    for e in lg.entries:
        rules, row = fired.get(e.id, ([], {}))
        quals = [
            Qualifier(kind=RULE_QUALIFIER[r], check=r, reason=_rule_reason(r, row), evidence=e.evidence)
            for r in rules
            if r in RULE_QUALIFIER
        ]
        rule_notes = [rule_note(r) for r in rules if RULE_EFFECT[r] == NOTE]
        consistency: Consistency = NOT_CHECKABLE
        recomputed: str | None = None
        diff: float | None = None
        stated: float | None = None  # the figure the file states beside the recomputed one
        allowed: tuple[float, float] | None = None  # what the tolerance allows around it
        arithmetic: str | None = None
        if e.kind == "llama_bench" and e.n and e.value is not None and e.stated is not None:
            tol = caveats.DEFAULTS["avg_ts_rel_tol"]
            bad = "inconsistent_derived_value" in rules
            consistency = INCONSISTENT if bad else CONSISTENT
            recomputed, diff, stated = f"{e.value:.3f}", e.value - e.stated, e.stated
            allowed = (e.stated * (1 - tol), e.stated * (1 + tol))
            arithmetic = (
                f"mean of {e.n} per-repetition rates (n_tokens / sample_s) = {e.value:.3f} tok/s; "
                f"the file's avg_ts {e.stated:.3f} (tolerance {tol:.1%}); rate definition: "
                f"{e.definitions.get(e.metric)}"
            )
        elif e.value is not None:
            recomputed = f"{e.value:.3f}"
            arithmetic = e.definitions.get(e.metric)
        quals += _settings_qualifiers(e)
        missing = []
        lb = e.record.get("llama_bench") or {}
        build = lb.get("build_number")
        if build is None:
            missing.append("build: not stated in the log")
        elif not build_number_matches(here.build, build):
            missing.append(f"build: b{build} (here: {here.build})")
        if lb.get("gpu_info") and lb["gpu_info"] not in here.gpus:
            missing.append(f"hardware: {lb['gpu_info']} (here: {', '.join(here.gpus) or 'CPU only'})")
        verdicts.append(
            Verdict(
                claims_file=claims_file,
                id=e.id,
                kind="log",
                text=e.text,
                consistency=consistency,
                recomputed=recomputed,
                difference=diff,
                stated_lo=stated,
                stated_hi=stated,
                recomputed_lo=e.value,
                recomputed_hi=e.value,
                allowed_lo=allowed[0] if allowed else None,
                allowed_hi=allowed[1] if allowed else None,
                unit="tok/s",
                arithmetic=arithmetic,
                qualifiers=quals,
                notes=list(e.notes) + rule_notes,
                reproducible=Reproducible(here=not missing, missing=missing),
                evidence=e.evidence,
            )
        )
    return verdicts


def _log_missing(lg: Logs, name: str) -> str | None:
    """Why a claim's ``log:`` has no entry at all: the file was not read (its reason), or there is no
    such file under the logs folder (a typo: the files read are named); None when the file was read."""
    if name in lg.skipped:
        return f"{name} was not read: {lg.skipped[name]}"
    read = sorted({e.file for e in lg.entries})
    if name not in read:
        return f"no file {name} under the logs folder (read: {', '.join(read) or 'none'})"
    return None


def _against_logs(
    cf: ClaimsFile, verdicts: list[Verdict], lg: Logs | None, no_logs: str = "no --logs folder given"
) -> list[Verdict]:
    """Claims with ``log:``: the stated value against the value recomputed from the entries of that
    log that match the claim (``logmatch.matching``): a decode or prefill rate, or for a ``speedup``
    claim the paired speedup of each speculative request (``logs.audit_logs``).  Entries of more than
    one configuration left after matching make the log ambiguous: not checkable, never the min–max
    over configurations.  ``no_logs`` says why a claim's log was not read where ``lg`` is None."""
    out = []
    for v in verdicts:
        c = cf.claim(v.id) if v.kind == "claim" else None
        if c is None or c.log is None:
            out.append(v)
            continue
        found = matching(cf, c, lg.entries if lg else [])
        # lines of its log left out (an edited line of a post's excerpt, a torn response): named
        left_out = [
            f"{where} not read: {why}"
            for where, why in sorted((lg.lines_not_read if lg else {}).items())
            if where.rpartition(":")[0] == c.log
        ]
        if left_out:  # at risk: part of the evidence behind it could not be read
            quals = [
                Qualifier(kind="at risk", check="log_line_not_read", reason=w, evidence=[c.log])
                for w in left_out
            ]
            v = v.model_copy(update={"qualifiers": v.qualifiers + quals})
        if not found.entries:
            why = no_logs if lg is None else _log_missing(lg, c.log) or found.why
            update: dict = {"notes": v.notes + [f"log: {c.log} not checked ({why})"]}
            if found.unsupported:  # the configuration is in the log at other depths only (logmatch)
                q = Qualifier(kind="unsupported", check="depth", reason=found.unsupported, evidence=[c.id])
                update["qualifiers"] = v.qualifiers + [q]
            out.append(v.model_copy(update=update))
            continue
        evidence = v.evidence + [x for e in found.entries for x in e.evidence]
        if found.ambiguous:
            out.append(
                v.model_copy(
                    update={
                        "consistency": NOT_CHECKABLE,
                        "notes": v.notes + [f"log ambiguous: {found.why}"],
                        "evidence": evidence,
                    }
                )
            )
            continue
        settings = {(q.reason, tuple(q.evidence)): q for e in found.entries for q in _settings_qualifiers(e)}
        judged = _acceptance_against_log(cf, c, v, found) if c.metric == "acceptance_rate" else None
        if judged is not None:
            out.append(judged.model_copy(update={"qualifiers": judged.qualifiers + list(settings.values())}))
            continue
        got = Interval(min(found.values), max(found.values))
        # the log's values as far as the rounding of its printed times lets them go (``logs.printed_span``:
        # "393.93 ms" for 678 tokens is 1721.10–1721.14 tok/s, and llama.cpp printed 1721.13)
        spread = (
            Interval(min(a for a, _ in found.spans), max(b for _, b in found.spans)) if found.spans else got
        )
        rounded = (
            f" ({spread.text(3)} within the rounding of the times the log prints)"
            if spread.text(3) not in (got.text(3), f"{got.text(3)}–{got.text(3)}")
            else ""
        )
        shown = f"{c.metric} recomputed from {c.log}: {got.text(3)} {found.unit}{rounded}{found.how}"
        defs = sorted({d for e in found.entries if (d := e.definitions.get(c.metric))})
        if defs:  # every verdict on a log's value names the definition it was computed by
            shown += "; definition: " + " | ".join(defs)
        stated = stated_interval_of(c)
        if stated is None:  # a claim in words only: the log's value is shown, nothing to check it against
            out.append(
                v.model_copy(
                    update={
                        "recomputed": got.text(3),
                        "recomputed_lo": got.lo,
                        "recomputed_hi": got.hi,
                        "arithmetic": shown,
                        "notes": v.notes + [f"log: {c.log} not checked (the claim states no number)"],
                        "evidence": evidence,
                    }
                )
            )
            continue
        lo, hi = (c.value, c.value) if c.value is not None else (c.range or (stated.lo, stated.hi))
        ok = spread.overlaps(stated)
        nearest = spread.hi if spread.hi < stated.lo else spread.lo
        quals = v.qualifiers
        if c.metric == "speedup" or (
            c.metric == "acceptance_rate" and all(e.counts.get("drafted") for e in found.entries)
        ):
            quals = [q for q in quals if q.check != "needs"]  # the log holds both speeds, or the counts
        quals = quals + list(settings.values())
        out.append(
            v.model_copy(
                update={
                    "consistency": CONSISTENT if ok else INCONSISTENT,
                    "recomputed": got.text(3),
                    "difference": None if ok else nearest - (lo if nearest < lo else hi),
                    "stated_lo": lo,
                    "stated_hi": hi,
                    "recomputed_lo": got.lo,
                    "recomputed_hi": got.hi,
                    "allowed_lo": stated.lo,
                    "allowed_hi": stated.hi,
                    "arithmetic": shown,
                    "qualifiers": quals,
                    "evidence": evidence,
                }
            )
        )
    return out


DEFINITION_RULE = "acceptance_definition_mismatch"


def _acceptance_against_log(cf: ClaimsFile, c: Claim, v: Verdict, found: Match) -> Verdict | None:
    """An acceptance claim against its log's α (llama.cpp's accepted ÷ drafted, the definition of the
    log's build); None when the definitions agree or one is unknown (the ordinary check applies).  A
    claim of another definition (``acceptance.definition_of``) is never compared with the log's α as
    if equal:

    * system efficiency: the log's counts are put in the claim's definition (``acceptance.
      system_efficiency``: (accepted + steps) ÷ (steps + drafted)) and checked against the stated value;
    * else, with the claim's counts converting it (``acceptance.to_llama_cpp``), its llama.cpp α is
      checked against the log's (both from counts: within 0.0005), and "not comparable"
      (``acceptance_definition_mismatch``) says the stated number is of another definition;
    * else not checkable and "not comparable"."""
    claim_def = acceptance.definition_of(cf, c)
    log_defs = sorted(
        {d for e in found.entries if (d := acceptance_definition(e.record.get("build_number")))}
    )
    if claim_def is None or not log_defs or claim_def in log_defs:
        return None
    evidence = v.evidence + [x for e in found.entries for x in e.evidence]
    counted = [e.counts for e in found.entries]
    stated = stated_interval_of(c)
    converted = acceptance.to_llama_cpp(cf, c)
    quals = [q for q in v.qualifiers if q.check != "needs"]  # the log states the counts
    if claim_def == "system_efficiency" and stated and all(k.get("verify_steps") for k in counted):
        own = [acceptance.system_efficiency(k["accepted"], k["verify_steps"], k["drafted"]) for k in counted]
        got = Interval(min(o.alpha for o in own), max(o.alpha for o in own))
        ok = got.overlaps(stated)
        nearest = got.hi if got.hi < stated.lo else got.lo
        return v.model_copy(
            update={
                "consistency": CONSISTENT if ok else INCONSISTENT,
                "recomputed": got.text(3),
                "recomputed_lo": got.lo,
                "recomputed_hi": got.hi,
                "difference": None if ok else nearest - (stated.lo if nearest < stated.lo else stated.hi),
                "arithmetic": f"the log's counts as {claim_def}: " + "; ".join(o.arithmetic for o in own),
                "qualifiers": quals,
                "evidence": evidence,
            }
        )
    reason = (
        f"the claim's acceptance is {claim_def} ({acceptance.DEFINITIONS[claim_def]}); the log's is "
        f"{', '.join(log_defs)} ({'; '.join(acceptance.DEFINITIONS[d] for d in log_defs)})"
    )
    qual = Qualifier(kind=NOT_COMPARABLE, check=DEFINITION_RULE, reason=reason, evidence=evidence)
    got = Interval(min(found.values), max(found.values))
    if converted is None:
        note = f"log: {c.log} not checked: the definitions differ and no counts convert the claim's"
        return v.model_copy(
            update={
                "consistency": NOT_CHECKABLE,
                "recomputed": got.text(3),
                "recomputed_lo": got.lo,
                "recomputed_hi": got.hi,
                "qualifiers": v.qualifiers + [qual],
                "notes": v.notes + [note],
                "evidence": evidence,
            }
        )
    tol = 0.0005
    ok = got.lo - tol <= converted.alpha <= got.hi + tol
    nearest = got.lo if converted.alpha < got.lo else got.hi
    note = f"the stated {c.value} is {claim_def}; compared: its llama.cpp α {converted.alpha:.4f}"
    return v.model_copy(
        update={
            "consistency": CONSISTENT if ok else INCONSISTENT,
            "recomputed": got.text(3),
            "stated_lo": converted.alpha,
            "stated_hi": converted.alpha,
            "recomputed_lo": got.lo,
            "recomputed_hi": got.hi,
            "difference": None if ok else nearest - converted.alpha,
            "arithmetic": f"{converted.arithmetic}; the log's α: {got.text(4)} (accepted ÷ drafted)",
            "qualifiers": quals + [qual],
            "notes": v.notes + [note],
            "evidence": evidence,
        }
    )


def _skipped_verdicts(lg: Logs, claims_file: str) -> list[Verdict]:
    """One verdict per file of the logs folder that is no llama.cpp output, and one per line of a file
    otherwise read that was not (``Logs.lines_not_read``: ``t2.jsonl:3``), so none is left out silently."""

    def not_read(where: str, why: str, missing: str) -> Verdict:
        return Verdict(
            claims_file=claims_file,
            id=where,
            kind="log",
            text=f"{where}: not read",
            consistency=NOT_CHECKABLE,
            notes=[f"not read: {why}"],
            reproducible=Reproducible(here=False, missing=[missing]),
            evidence=[where],
        )

    return [
        not_read(name, why, "log: not a llama.cpp output") for name, why in sorted(lg.skipped.items())
    ] + [not_read(where, why, "log: a line not read") for where, why in sorted(lg.lines_not_read.items())]


#: The logs folder of ``X.yaml`` when none is named: ``X.logs/`` beside it (how the ``audit`` stage,
#: which audits every file of ``data/claims`` with ``--all``, gets the raw logs of claims with ``log:``).
LOGS_SUFFIX = ".logs"


def logs_beside(path: str | Path) -> Path | None:
    """The conventional logs folder of the claims file ``path``: ``<stem>.logs/`` in its folder
    (``data/claims/blog.yaml`` -> ``data/claims/blog.logs/``) when it is a folder, else None."""
    path = Path(path)
    folder = path.with_name(path.stem + LOGS_SUFFIX)
    return folder if folder.is_dir() else None


def audit_file(
    path: str | Path,
    logs_dir: str | Path | None = None,
    pairs: dict[str, str] | None = None,
    here: Here | None = None,
) -> Audit:
    """Audit one claims file (module doc).  ``pairs`` (speculative log -> baseline log, file names
    under ``logs_dir``) add to the claims file's ``log_pairs``.  Without ``logs_dir`` the logs are
    read from ``logs_beside(path)`` when that folder exists.

    Raises:
        schema.ClaimsError, recompute.RecomputeError, logs.LogsError, ingest.IngestError: malformed
        input (each names file:line or the statement and the fix).
    """
    path = Path(path)
    cf = load(path)
    here = here or Here()
    name = path.name
    verdicts = judge(cf, recompute_all(cf), here, name)
    lg = None
    logs_given = logs_dir
    logs_dir = logs_dir if logs_dir is not None else logs_beside(path)
    if logs_dir is not None:
        all_pairs = {p.log: p.baseline for p in cf.log_pairs}
        all_pairs.update(pairs or {})
        # the excerpts a drafted file's post pasted (X.claims.logs/): untrusted text, a refused line is
        # listed, not fatal; a folder named with --logs holds the user's own raw logs: refused whole
        lg = audit_logs(logs_dir, all_pairs, excerpts=logs_given is None and cf.draft is not None)
        verdicts = verdicts + _log_verdicts(lg, name, here) + _skipped_verdicts(lg, name)
    no_logs = f"no --logs folder given and no {path.stem}{LOGS_SUFFIX}/ folder beside {path.name}"
    verdicts = _against_logs(cf, verdicts, lg, no_logs)
    if lg is not None:  # statements whose claims have logs: depth flips, two settings changed (logmatch)
        verdicts = with_log_findings(cf, verdicts, lg.entries)
    verdicts = [sized(v, cf, here.severity) for v in verdicts]
    return Audit(path, cf, verdicts, lg, Path(logs_dir) if logs_dir is not None else None)


def slug(path: Path) -> str:
    """File-system and URL-safe name of a claims file: its stem with anything else than
    ``[A-Za-z0-9._-]`` replaced by ``-``."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", path.stem)


def slugs(paths: list[Path]) -> dict[Path, str]:
    """A distinct file name for each claims file audited together: ``slug``, or where two files share
    it (``my claims.yaml`` and ``my-claims.yaml``; ``blog.yaml`` and ``blog.yml``) or it is the index's
    name, ``slug`` + ``-`` + the first 8 hex digits of the sha256 of the file name, so no record file
    or page overwrites another."""
    bases = {p: slug(p) for p in paths}
    count: dict[str, int] = {}
    for b in bases.values():
        count[b] = count.get(b, 0) + 1
    return {
        p: (f"{b}-{hashlib.sha256(p.name.encode()).hexdigest()[:8]}" if count[b] > 1 or b == "index" else b)
        for p, b in bases.items()
    }


def write(
    audit: Audit,
    out_dir: str | Path,
    pages_dir: str | Path | None = None,
    name: str | None = None,
    source: str | None = None,
) -> Path:
    """Write ``<out_dir>/<name>.jsonl`` (one verdict record per line, rewritten) and, with
    ``pages_dir``, ``<pages_dir>/<name>.qmd``; returns the JSONL path.  ``name`` defaults to
    ``slug(audit.path)``; pass ``slugs(...)[path]`` when several files are audited together.
    ``source``: the claims file as the user named it, for a page of a file audited on its own
    (``page.render``)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = name or slug(audit.path)
    dest = out_dir / f"{name}.jsonl"
    tmp = dest.with_suffix(".jsonl.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for v in audit.verdicts:
            f.write(json_line(v.model_dump(by_alias=True)) + "\n")
    tmp.replace(dest)
    if pages_dir is not None:
        pages_dir = Path(pages_dir)
        pages_dir.mkdir(parents=True, exist_ok=True)
        text = page.render(audit.claims, audit.verdicts, audit.path.name, source, f"{out_dir}/")
        (pages_dir / f"{name}.qmd").write_text(text)
    return dest


def audit_dir(
    claims_dir: str | Path, out_dir: str | Path, pages_dir: str | Path, here: Here | None = None
) -> list[Audit]:
    """Audit every ``*.yaml`` and ``*.yml`` in ``claims_dir``, each against the raw logs of its
    ``<stem>.logs/`` folder where it has one (``logs_beside``); write records, one page each (named by
    ``slugs``) and ``index.qmd``.  Records and pages of claims files that no longer exist are removed.
    A malformed file does not stop the others: they are audited and written, then its error is raised.

    Raises:
        ClaimsError: after the others are written, the error of each malformed file (one a line;
        also a logs, recompute or ingest error of a file, as ``audit_file`` raises it).
    """
    files = sorted(p for p in Path(claims_dir).iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    audits, errors = [], []
    for p in files:
        try:
            audits.append(audit_file(p, here=here))
        except ValueError as e:  # ClaimsError, LogsError, RecomputeError, IngestError
            errors.append(str(e))
    names = slugs(files)
    keep = {names[a.path] for a in audits}
    for d, ext in ((Path(out_dir), ".jsonl"), (Path(pages_dir), ".qmd")):
        for old in d.glob(f"*{ext}") if d.is_dir() else []:
            if old.stem not in keep and old.stem != "index":
                old.unlink()
    for a in audits:
        write(a, out_dir, pages_dir, names[a.path])
    Path(pages_dir).mkdir(parents=True, exist_ok=True)
    listing = [(names[a.path], a.claims, a.verdicts) for a in audits]
    (Path(pages_dir) / "index.qmd").write_text(page.index(listing))
    if errors:
        raise ClaimsError(
            f"{len(errors)} of {len(files)} claims files not audited (the others were):\n" + "\n".join(errors)
        )
    return audits


def verdict_frame(verdicts: list[Verdict]) -> pl.DataFrame:
    """Verdicts as a flat table: id, kind, consistency, qualifiers (list of "kind: check"), reproducible."""
    return pl.DataFrame(
        [
            {
                "id": v.id,
                "kind": v.kind,
                "consistency": v.consistency,
                "qualifiers": [f"{q.kind}: {q.check}" for q in v.qualifiers],
                "reproducible": v.reproducible.here,
            }
            for v in verdicts
        ],
        schema={
            "id": pl.String,
            "kind": pl.String,
            "consistency": pl.String,
            "qualifiers": pl.List(pl.String),
            "reproducible": pl.Boolean,
        },
    )

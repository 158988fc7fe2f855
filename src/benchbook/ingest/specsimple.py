"""``llama-speculative-simple`` output -> ``benchbook.ingest.speculative_simple`` (no runner of ours
writes that summary).  Its ``n_draft`` line prints the *configured maximum*
(``params_spec.draft.n_max``), not a count: it is stored as ``n_draft_max``; the count of drafted tokens
is ``n_drafted``."""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path
from typing import Any

from ..records import utc_now
from .common import IngestError, build_record

#: llama-speculative's summary lines (``examples/speculative*/speculative*.cpp``): the counts
#: (``n_draft`` is the configured maximum, the others counts), ``accept = 61.500%``, and ``encoded|decoded
#: N tokens in T seconds, speed: R t/s``.  Shared with ``audit.resultlines``, which drafts the same lines
#: pasted into a post.
COUNT_LINE = re.compile(r"\b(?P<k>n_draft|n_predict|n_drafted|n_accept)\s*=\s*(?P<v>\d+)")
ACCEPT_LINE = re.compile(r"\baccept\s*=\s*(?P<v>[\d.]+)\s*%")
SPEED_LINE = re.compile(
    r"\b(?P<what>encoded|decoded)\s+(?P<n>\d+)\s+tokens\s+in\s+(?P<s>[\d.]+)\s+seconds?,\s*"
    r"speed:\s*(?P<r>[\d.]+|inf)\s*t/s",
    re.IGNORECASE,
)


def _speed_agrees(n: int, seconds: float, tps: float) -> bool:
    """Whether a printed ``speed`` agrees with ``n / seconds`` within the printed rounding (seconds to
    3 decimals: ±0.0005 s; speed to 3 decimals).  A 0.000 s time only bounds the speed from below."""
    lo = n / (seconds + 0.0005) - 0.0005
    hi = n / (seconds - 0.0005) + 0.0005 if seconds > 0.0005 else math.inf
    return lo <= tps <= hi


def _rate(n: int, seconds: float) -> str:
    """``n / seconds`` for a message; a printed 0.000 s only bounds the rate from below."""
    return f"{n / seconds:.2f} t/s" if seconds > 0 else f"at least {n / 0.0005:.0f} t/s"


def read_speculative_simple(path: Path, text: str) -> list[dict]:
    """The one ``benchbook.ingest.speculative_simple`` record of a ``llama-speculative-simple`` output.

    A printed ``speed`` that disagrees with its own ``tokens in seconds`` (within the printed rounding)
    is flagged in ``inconsistent`` and kept.

    Raises:
        IngestError: a required line (n_draft, n_predict, n_drafted, n_accept) is missing, ``n_accept``
        exceeds ``n_drafted``, or ``accept`` disagrees with ``n_accept / n_drafted`` (names file:line).
    """
    sha = hashlib.sha256(text.encode()).hexdigest()
    rec: dict[str, Any] = {
        "source_file": str(path),
        "source_format": "spec-simple",
        "source_sha256": sha,
        "ingested_at": utc_now(),
        "source_lines": {},
    }
    keys = {
        "n_draft": "n_draft_max",
        "n_predict": "n_predict",
        "n_drafted": "n_drafted",
        "n_accept": "n_accept",
    }
    for i, line in enumerate(text.splitlines(), 1):
        m = COUNT_LINE.search(line)
        if m:
            rec[keys[m.group("k")]] = int(m.group("v"))
            rec["source_lines"][keys[m.group("k")]] = i
            continue
        m = ACCEPT_LINE.search(line)
        if m:
            rec["accept_pct"] = float(m.group("v"))
            rec["source_lines"]["accept_pct"] = i
            continue
        m = SPEED_LINE.search(line)
        if m:
            k = "encode" if m.group("what").lower() == "encoded" else "decode"
            rec[f"{k}_n"], rec[f"{k}_s"], rec[f"{k}_tps"] = (
                int(m.group("n")),
                float(m.group("s")),
                float(m.group("r")),
            )
            rec["source_lines"][k] = i
    missing = [v for v in keys.values() if v not in rec]
    if missing:
        raise IngestError(
            f"{path}: llama-speculative-simple output lacks {missing}; fix: pass its complete stderr"
        )
    if rec["n_accept"] > rec["n_drafted"]:
        raise IngestError(
            f"{path}:{rec['source_lines']['n_accept']}: n_accept {rec['n_accept']} is more than n_drafted "
            f"{rec['n_drafted']} (line {rec['source_lines']['n_drafted']}): a draft token can be accepted "
            "only once; the output is corrupt or edited; fix: ingest the output as the tool printed it"
        )
    inconsistent = [
        f"line {rec['source_lines'][k]}: speed {rec[f'{k}_tps']} t/s disagrees with {rec[f'{k}_n']} "
        f"tokens / {rec[f'{k}_s']} s = {_rate(rec[f'{k}_n'], rec[f'{k}_s'])}"
        for k in ("encode", "decode")
        if f"{k}_n" in rec and not _speed_agrees(rec[f"{k}_n"], rec[f"{k}_s"], rec[f"{k}_tps"])
    ]
    if inconsistent:
        rec["inconsistent"] = inconsistent
    if "accept_pct" in rec and rec["n_drafted"]:
        if abs(rec["accept_pct"] - 100.0 * rec["n_accept"] / rec["n_drafted"]) > 1e-2:
            raise IngestError(
                f"{path}:{rec['source_lines']['accept_pct']}: accept {rec['accept_pct']}% disagrees "
                f"with n_accept/n_drafted = {rec['n_accept']}/{rec['n_drafted']}"
            )
    rec["alpha"] = rec["n_accept"] / rec["n_drafted"] if rec["n_drafted"] else None
    rec["source_line"] = min(rec["source_lines"].values())
    return [build_record("ingest_speculative_simple", rec, path, rec["source_line"])]

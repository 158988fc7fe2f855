"""How close `benchbook claims draft` comes to a hand-written claims file (issue 29's figures).

    PYTHONPATH=src python scripts/draft_measure.py [POST] [HAND.yaml]

Defaults: the test post ``tests/fixtures/draft/clover-blog.md`` (written after the blog behind
``data/claims/clover-35b-a3b-blog.yaml``) and that hand-written file.  A hand claim is *captured*
when a drafted claim states the same value or range (units of one dimension compared after
conversion: 100 % = 1.0 ratio, t/s = tok/s); of those, how many have the same metric, and the same
conditions where the hand file states them (``decoding``, ``prompt``, ``block_max``, ``n_cpu_moe``,
``tokens_generated``) and the same ``capacity``; and of the hand file's quoted numbers (``origin``),
how many the draft gives an origin.  A hand statement is matched when a drafted
statement (or todo) states its value and unit, and *tied* when its ``of`` names the drafted claims
captured for the hand statement's sides.  Prints the figures and the time drafting took.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from benchbook.audit import schema
from benchbook.audit.draft import draft_text
from benchbook.audit.draftfile import write

ROOT = Path(__file__).resolve().parent.parent
COMPARED = ("decoding", "prompt", "block_max", "n_cpu_moe", "tokens_generated")


def _stated(c: schema.Claim) -> tuple | None:
    """The stated value or range in a common unit (ratios as fractions; t/s as tok/s), with the
    unit's family (a rate, a size...)."""
    nums = (c.value,) if c.value is not None else c.range
    if nums is None:
        return None
    scale = 0.01 if (c.unit or "") == "%" else 1.0
    return (schema.family_of(c.unit), *(round(x * scale, 6) for x in nums))


def _condition(cf: schema.ClaimsFile, c: schema.Claim, name: str):
    return schema.field_of(c, cf.conditions_of(c), name)


def measure(post: Path, hand_path: Path) -> dict[str, int | float]:
    """The figures (module doc) of drafting ``post`` against the hand-written ``hand_path``."""
    text = post.read_text(encoding="utf-8")
    t = time.monotonic()
    drafted = draft_text(text, post.name)
    seconds = time.monotonic() - t
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "draft.claims.yaml"
        write(drafted, out, post.name)
        got = schema.load(out)
    hand = schema.load(hand_path)
    by_value: dict[tuple, list[schema.Claim]] = {}
    for c in got.claims:
        key = _stated(c)
        if key is not None:
            by_value.setdefault(key, []).append(c)
    figures: dict[str, int | float] = {
        "hand claims": len(hand.claims),
        "drafted claims": len(got.claims),
        "captured (value and unit)": 0,
        "same metric": 0,
        "same conditions (where the hand file states them)": 0,
        "same metric and conditions": 0,
    }
    captured: dict[str, str] = {}
    for h in hand.claims:
        key = _stated(h)
        cands = by_value.get(key, []) if key is not None else []
        if not cands:
            continue

        # several drafted claims of one value: the one agreeing on the most conditions
        def agree(d: schema.Claim, h: schema.Claim = h) -> int:
            same = sum(_condition(got, d, n) == _condition(hand, h, n) for n in COMPARED)
            return same + (d.metric == h.metric)

        d = max(cands, key=agree)
        captured[h.id] = d.id
        figures["captured (value and unit)"] += 1
        metric = d.metric == h.metric
        stated = [n for n in COMPARED if _condition(hand, h, n) is not None]
        conds = all(_condition(got, d, n) == _condition(hand, h, n) for n in stated) and (
            h.capacity is None or d.capacity == h.capacity
        )
        if h.origin is not None:
            figures["quoted numbers (hand origin)"] = int(figures.get("quoted numbers (hand origin)", 0)) + 1
            figures["  of them drafted with an origin"] = int(
                figures.get("  of them drafted with an origin", 0)
            ) + (d.origin is not None)
        figures["same metric"] += metric
        figures["same conditions (where the hand file states them)"] += conds
        figures["same metric and conditions"] += metric and conds
    figures["hand statements"] = len(hand.statements)
    stmts = [*got.statements, *got.todo]
    figures["drafted statements (todo)"] = f"{len(got.statements)} ({len(got.todo)})"  # type: ignore[assignment]
    matched = tied = 0
    for s in hand.statements:
        same = [x for x in stmts if x.value == s.value and (x.unit or "x") == (s.unit or "x")]
        if not same:
            continue
        matched += 1
        sides = [captured.get(ref) for ref in s.of]
        tied += any(isinstance(x, schema.Statement) and x.of == sides for x in same)
    figures["statements matched (value and unit)"] = matched
    figures["statements tied to the right sides"] = tied
    figures["unplaced numbers listed"] = len(drafted.unplaced)
    figures["drafting seconds"] = round(seconds, 3)
    return figures


def main(argv: list[str]) -> int:
    post = Path(argv[0]) if argv else ROOT / "tests/fixtures/draft/clover-blog.md"
    hand = Path(argv[1]) if len(argv) > 1 else ROOT / "data/claims/clover-35b-a3b-blog.yaml"
    for name, value in measure(post, hand).items():
        print(f"{name}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Helpers of the drafter's tests (``benchbook claims draft``): a post's text drafted into a claims file
and loaded, and a claim's conditions as a claims file states them (groups and the file's merged)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path

from benchbook.audit import schema
from benchbook.audit.draftfile import draft_post


def drafted(text: str, tmp_path: Path) -> schema.ClaimsFile:
    """``text`` written to ``tmp_path/post.md``, drafted beside it as ``draft_post`` does, loaded."""
    post = tmp_path / "post.md"
    post.write_text(text, encoding="utf-8")
    out, _, _ = draft_post(post)
    return schema.load(out)


def conditions(cf: schema.ClaimsFile, c: schema.Claim) -> dict:
    """The conditions ``c`` holds in ``cf`` (its own, its group's and the file's), unset ones left out."""
    return cf.conditions_of(c).model_dump(exclude_none=True, exclude_defaults=True)


def wide_table(n: int, cell: str = "5 tok/s") -> str:
    """A Markdown table of one row and ``n`` columns ``c0``… holding ``cell`` each (the drafter's
    guards against work per column that grows with the columns)."""
    return (
        "|"
        + "|".join(f"c{i}" for i in range(n))
        + "|\n|"
        + "---|" * n
        + "\n|"
        + "|".join(cell for _ in range(n))
        + "|\n"
    )


def cpu_growth(run: Callable[[int], object], n: int, factor: int = 4) -> float:
    """How many times more CPU seconds (this process's: other load on the machine counts little)
    ``run(factor * n)`` takes than ``run(n)``, after a warm-up ``run(n // 16)`` (regexes compiled,
    caches filled).  A linear step gives about ``factor``, a quadratic one ``factor ** 2``: a guard
    against a super-linear step compares the two in one run, never a time against a fixed limit
    (machines are shared and differ in speed; speed figures are printed by scripts/draft_measure.py
    and scripts/draft_scale.py).  The smaller time counts as at least 0.05 s, so a fast run's noise
    cannot make a ratio.

    Each size is timed twice and the faster run counts, with Python's cyclic garbage collector off
    while timing: inside a whole test session the collector's passes scan every object the earlier
    tests left alive, so their cost grows with the session, not with ``run``'s input (CI measured
    11.1 for a step that gives 5 on its own)."""
    run(max(1, n // 16))

    def best(k: int) -> float:
        times = []
        for _ in range(2):
            t = time.process_time()
            run(k)
            times.append(time.process_time() - t)
        return min(times)

    gc.collect()
    gc.disable()
    try:
        small, large = best(n), best(factor * n)
    finally:
        gc.enable()
    return large / max(small, 0.05)


#: the most ``cpu_growth`` may give at its default factor 4 for a step to count as linear (n log n
#: and noise stay well under it; a quadratic step gives 16)
LINEAR = 10.0

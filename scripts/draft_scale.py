"""Times of ``benchbook claims draft`` (and of the audit of its draft) on the hostile and large posts
of ``draft_faults.py`` and ``draft_measure.py --robust``, each at 1×, 2× and 4× its size, so that
whether a step grows linearly can be read off: a linear step takes about twice as long at twice the
size, a quadratic one four times (issue 29: "nothing crashes on any input (binary, empty, 10 MB).
Drafting a post takes under 2 s").

    PYTHONPATH=src python scripts/draft_scale.py [--only NAME[,NAME...]] [--src DIR] [--timeout S]
                                                 [--big]

Each size runs in a process of its own (``--src``: the ``src`` folder to time, e.g. another
checkout's, for before/after figures), stopped after ``--timeout`` seconds (printed as ``> S s``;
the larger sizes of that input are then skipped).  Prints one line per size: the input, its size,
the seconds of the draft (and of the audit where timed) and what was drafted.  ``--big`` adds the
10 MB post of ``draft_measure.py`` (2.5, 5 and 10 MB).  The machine's load moves the seconds; compare
the ratios within one run.  Not a test: the regression tests (tests/test_draft_scale.py) assert what
is drafted, not how fast.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the 10 MB post's paragraph (``draft_measure.robustness``)
_PARA = (
    "On my GPU generation ran at about 85 t/s with -ngl 99, and prompt processing at 1,420 t/s; "
    "the draft model made it 1.66x faster.\n\n| build | tg128 (t/s) |\n|---|---|\n| b4000 | 40.1 |\n\n"
)

#: name -> (what it is, the Python expression of its text at size ``k``, the sizes, audit too?)
INPUTS: dict[str, tuple[str, str, tuple[int, ...], bool]] = {
    "wide-table": (
        "a Markdown table of k columns (DB12)",
        "'|' + '|'.join(f'c{i}' for i in range(k)) + '|\\n|' + '---|' * k + '\\n|'"
        " + '|'.join('5 tok/s' for _ in range(k)) + '|\\n'",
        (2_500, 5_000, 10_000),
        True,
    ),
    "empty-lines": (
        "k empty lines, then 5 tok/s (DB13)",
        "'\\n' * k + '5 tok/s\\n'",
        (250_000, 500_000, 1_000_000),
        False,
    ),
    "multiples": (
        "'2× ' k times, then 'faster' (DB15)",
        "'2× ' * k + 'faster\\n'",
        (7_500, 15_000, 30_000),
        False,
    ),
    "rates-and-multiples": (
        "one sentence of k 'x 10 tok/s, 2× faster than 5 tok/s' (todo statements)",
        "'on x the rate was 10 tok/s, 2× faster than 5 tok/s ' * k + '\\n'",
        (2_500, 5_000, 10_000),
        False,
    ),
    "labelled-pairs": (
        "one line of k 'label: A = x tok/s, B = y tok/s' pairs (session 74's breaker)",
        "'# long\\n\\nRTX 4090 で vLLM。' + ' '.join(f'同時{i}の出力: H{i} = {100 + i}.5 tok/s, "
        "B{i} = {3000 + i}.5 tok/s' for i in range(k)) + '\\n'",
        (200, 400, 800),
        False,
    ),
    "post": (
        "draft_measure's 10 MB post, cut at k bytes",
        f"({_PARA!r} * (k // {len(_PARA)} + 1))[:k]",
        (500_000, 1_000_000, 2_000_000),
        False,
    ),
}
BIG = ("post-10MB", "draft_measure's 10 MB post, cut at k bytes", (2_500_000, 5_000_000, 10_000_000))

#: the program one size runs: writes the post, drafts it (and audits the draft), prints JSON
_RUN = textwrap.dedent(
    """
    import contextlib, io, json, sys, time
    from pathlib import Path
    from benchbook.audit.draftfile import draft_post
    k, d, audit = int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "1"
    text = {expr}
    post = d / "post.md"
    post.write_text(text, encoding="utf-8")
    t = time.perf_counter()
    with contextlib.redirect_stderr(io.StringIO()):
        out, drafted, _ = draft_post(post, d / "c.yaml")
    res = {{"bytes": post.stat().st_size, "draft": time.perf_counter() - t,
            "claims": sum(e.kind == "claim" for e in drafted.entries),
            "statements": sum(e.kind != "claim" for e in drafted.entries),
            "yaml_bytes": out.stat().st_size}}
    if audit:
        from benchbook.audit import command
        t = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            rc = command.main([str(out), "--out", str(d / "o"), "--pages", str(d / "o")])
        res["audit"], res["audit_rc"] = time.perf_counter() - t, rc
    print(json.dumps(res))
    """
)


def _one(expr: str, k: int, audit: bool, src: Path, timeout: float) -> dict | None:
    """The figures of one size, or None when it ran past ``timeout``."""
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "PYTHONPATH": str(src), "BENCHBOOK_QUIET": "1"}
        try:
            p = subprocess.run(
                [sys.executable, "-c", _RUN.format(expr=expr), str(k), d, "1" if audit else "0"],
                capture_output=True,
                text=True,
                timeout=timeout,
                env=env,
                cwd=d,
            )
        except subprocess.TimeoutExpired:
            return None
        if p.returncode != 0:
            return {"error": (p.stderr.strip().splitlines() or ["?"])[-1]}
        return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated input names: " + ", ".join(INPUTS))
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the src folder to time")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per size (default 120)")
    ap.add_argument("--big", action="store_true", help="also the 10 MB post at 2.5, 5 and 10 MB")
    a = ap.parse_args(argv)
    inputs = dict(INPUTS)
    if a.big:
        inputs[BIG[0]] = (BIG[1], INPUTS["post"][1], BIG[2], False)
    names = [n for n in inputs if not a.only or n in a.only.split(",")]
    print(f"src: {a.src}")
    for name in names:
        what, expr, sizes, audit = inputs[name]
        print(f"{name}: {what}")
        base = None
        for k in sizes:
            r = _one(expr, k, audit, a.src, a.timeout)
            if r is None:
                print(f"  k={k:>10,}  > {a.timeout:.0f} s (stopped; larger sizes skipped)", flush=True)
                break
            if "error" in r:
                print(f"  k={k:>10,}  error: {r['error']}", flush=True)
                break
            secs = r["draft"] + r.get("audit", 0.0)
            base = base or secs
            audited = f", audit {r['audit']:6.2f} s (rc {r['audit_rc']})" if "audit" in r else ""
            print(
                f"  k={k:>10,}  {r['bytes']:>11,} B  draft {r['draft']:6.2f} s{audited}  "
                f"x{secs / base:4.1f} of the first  {r['claims']} claims, {r['statements']} statements, "
                f"claims file {r['yaml_bytes']:,} B",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Audit time against the size of a claims file: prints seconds per size, and the ratio of the largest
to the smallest per claim or statement (1.0: linear).  Issue 34 §3: 20,000 claims took 156 s before
the audit looked claims up by index and read YAML with libyaml; a chain of 800 statements, each citing
the one before, took 39 s before the claims under each statement were found once per audit
(``tables.Under``).  Usage (repository root):

    python scripts/bench_audit_scale.py [N ...]              (claims; default 2000 4000 8000 16000)
    python scripts/bench_audit_scale.py --chain [N ...]      (statements; default 100 200 400 800)
    python scripts/bench_audit_scale.py --chain --reversed   (each statement before the one it cites)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from benchbook.audit import run
from benchbook.audit.verdicts import Here

HEAD = ["schema: benchbook.claims", "schema_version: 1", "source: {kind: blog}", "claims:"]


def claims_file(folder: Path, n: int) -> Path:
    """A claims file of ``n`` llama-bench decode claims (values 10.5 … 59.5 tok/s)."""
    claim = "  - {{id: c{i}, metric: decode_tps, value: {v}.5, unit: tok/s, method: llama-bench tg128}}"
    lines = HEAD + [claim.format(i=i, v=10 + i % 50) for i in range(n)]
    path = folder / f"claims-{n}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def chain_file(folder: Path, n: int, reverse: bool = False) -> Path:
    """A claims file of ``n`` ratio statements, each citing the one before: ``s1`` = 20.5 / 20.5 tok/s,
    ``s{i}`` = ``s{i-1}`` / ``k{i}`` (a speedup claim of 1.0000 x), each stated as 1 x (consistent: the
    recomputed interval stays within 0.99–1.05).  ``reverse``: the statements in the opposite order, each
    before the one it cites (the evaluation order cannot follow the file)."""
    claims = [
        "  - {id: a, metric: decode_tps, value: 20.5, unit: tok/s, method: llama-bench tg128}",
        "  - {id: b, metric: decode_tps, value: 20.5, unit: tok/s, method: llama-bench tg128}",
    ]
    claims += [f"  - {{id: k{i}, metric: speedup, value: 1.0000, unit: x}}" for i in range(2, n + 1)]
    stmt = "  - {{id: s{i}, kind: ratio, statement: step {i}, of: [{of}], value: 1, unit: x}}"
    statements = [stmt.format(i=i, of="a, b" if i == 1 else f"s{i - 1}, k{i}") for i in range(1, n + 1)]
    if reverse:
        statements.reverse()
    path = folder / f"chain-{n}{'-reversed' if reverse else ''}.yaml"
    path.write_text("\n".join(HEAD + claims + ["statements:"] + statements) + "\n")
    return path


def main(sizes: list[int], chain: bool = False, reverse: bool = False) -> None:
    per_item = []
    what = "statements" if chain else "claims"
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            path = chain_file(Path(d), n, reverse) if chain else claims_file(Path(d), n)
            t = time.perf_counter()
            audit = run.audit_file(path, here=Here())
            s = time.perf_counter() - t
            per_item.append(s / n)
            print(
                f"{n:>7} {what}: {s:7.2f} s ({1e3 * s / n:.2f} ms per {what[:-1]}, "
                f"{len(audit.verdicts)} verdicts)"
            )
    print(f"per-{what[:-1]} time, largest ÷ smallest file: {per_item[-1] / per_item[0]:.2f} (1.0: linear)")


if __name__ == "__main__":
    args = sys.argv[1:]
    chain, reverse = "--chain" in args, "--reversed" in args
    sizes = [int(a) for a in args if not a.startswith("--")]
    main(sizes or ([100, 200, 400, 800] if chain else [2000, 4000, 8000, 16000]), chain, reverse)

"""Audit time against the size of a claims file: prints seconds per size, and the ratio of the largest
to the smallest per claim (1.0: linear).  Issue 34 §3: 20,000 claims took 156 s before the audit
looked claims up by index and read YAML with libyaml.  Usage (repository root):

    python scripts/bench_audit_scale.py [N ...]    (default 2000 4000 8000 16000)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from benchbook.audit import run
from benchbook.audit.verdicts import Here


def claims_file(folder: Path, n: int) -> Path:
    """A claims file of ``n`` llama-bench decode claims (values 10.5 … 59.5 tok/s)."""
    lines = ["schema: benchbook.claims", "schema_version: 1", "source: {kind: blog}", "claims:"]
    claim = "  - {{id: c{i}, metric: decode_tps, value: {v}.5, unit: tok/s, method: llama-bench tg128}}"
    lines += [claim.format(i=i, v=10 + i % 50) for i in range(n)]
    path = folder / f"claims-{n}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def main(sizes: list[int]) -> None:
    per_claim = []
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            path = claims_file(Path(d), n)
            t = time.perf_counter()
            audit = run.audit_file(path, here=Here())
            s = time.perf_counter() - t
            per_claim.append(s / n)
            print(
                f"{n:>7} claims: {s:7.2f} s ({1e3 * s / n:.2f} ms per claim, {len(audit.verdicts)} verdicts)"
            )
    print(f"per-claim time, largest ÷ smallest file: {per_claim[-1] / per_claim[0]:.2f} (1.0: linear)")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2000, 4000, 8000, 16000])

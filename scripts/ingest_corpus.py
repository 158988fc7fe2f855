"""Parse rate of ``benchbook ingest`` on the corpus of publicly posted llama-bench outputs.

Usage: ``python scripts/ingest_corpus.py [FOLDER]`` (default ``tests/fixtures/ingest_corpus``).

Per file: ``auto`` (format detection reads every row), ``explicit`` (only some ``--format`` reads every
row), ``lossy`` (rows read, but fewer than the file holds: silent loss), ``refused`` (``IngestError``
for every format), ``crashed`` (any other exception).  Rows = distinct source lines of the records;
the expected count per file is ``tests/test_ingest_corpus.EXPECTED_ROWS``.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from benchbook.ingest import IngestError, ingest_file  # noqa: E402
from test_ingest_corpus import EXPECTED_ROWS  # noqa: E402

FORMATS = ("json", "jsonl", "csv", "md", "sql")


def rows_of(path: Path, fmt: str) -> int:
    """Distinct source lines of the records ``ingest_file(path, fmt)`` returns."""
    return len({r.get("source_line") for r in ingest_file(path, fmt)})


def classify(path: Path, expected: int) -> tuple[str, str]:
    """(outcome, detail) of one corpus file (module doc)."""
    try:
        got = rows_of(path, "auto")
        if got == expected:
            return "auto", f"{got} rows"
        auto_detail = f"auto read {got} of {expected} rows"
    except IngestError as e:
        auto_detail = f"auto refused: {str(e)[:110]}"
    except Exception as e:  # noqa: BLE001 - the point is to count crashes
        return "crashed", f"auto: {type(e).__name__}: {e}"[:140]
    best = 0
    for fmt in FORMATS:
        try:
            got = rows_of(path, fmt)
        except IngestError:
            continue
        except Exception as e:  # noqa: BLE001
            return "crashed", f"--format {fmt}: {type(e).__name__}: {e}"[:140]
        if got == expected:
            return "explicit", f"--format {fmt}; {auto_detail}"
        best = max(best, got)
    if best:
        return "lossy", f"best {best} of {expected} rows; {auto_detail}"
    return "refused", auto_detail


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "tests/fixtures/ingest_corpus"
    counts: Counter[str] = Counter()
    for path in sorted(folder.iterdir()):
        if path.name == "SOURCES.md":
            continue
        outcome, detail = classify(path, EXPECTED_ROWS[path.name])
        counts[outcome] += 1
        print(f"{outcome:9s} {path.name}: {detail}")
    n = sum(counts.values())
    print(
        f"\n{n} files: auto {counts['auto']} ({100 * counts['auto'] / n:.0f}%), explicit "
        f"{counts['explicit']}, lossy {counts['lossy']}, refused {counts['refused']}, "
        f"crashed {counts['crashed']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Rebuild the numbers registry of every experiment from the committed raw data and compare it with
``tests/fixtures/registry``: one line per changed field kind with its count and an example, then
(``--write``) the fixture replaced by the rebuilt registry.  Usage (repository root):

    python scripts/registry_diff.py [--write]

The counts go into ``tests/fixtures/registry/HISTORY.md`` with the commit that changes them.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_registry_fixture import EXPERIMENTS, FIXTURE  # noqa: E402

FIELDS = ("value", "n", "ci95", "unit", "caveats", "run_ids", "build", "ci_method", "replication")


def rebuild(out: Path) -> None:
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    for name in EXPERIMENTS:
        report = importlib.import_module(f"benchbook.experiments.{name}.report")
        report.build(params, root=ROOT, raw_dir=Path("data/raw"), reports_dir=out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="replace the fixture with the rebuilt registry")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rebuild(Path(tmp))
        for name in EXPERIMENTS:
            new_file = Path(tmp) / "numbers" / f"{name}.json"
            fixed = FIXTURE / f"{name}.json"  # absent: an experiment the fixture does not cover yet
            want = json.loads(fixed.read_text())["numbers"] if fixed.exists() else {}
            got = json.loads(new_file.read_text())["numbers"]
            changes: dict[str, list[str]] = collections.defaultdict(list)
            for key in sorted(set(want) - set(got)):
                changes["removed"].append(key)
            for key in sorted(set(got) - set(want)):
                changes["added"].append(key)
            for key in sorted(set(want) & set(got)):
                for f in FIELDS:
                    if want[key].get(f) != got[key].get(f):
                        changes[f].append(f"{key}: {want[key].get(f)!r} -> {got[key].get(f)!r}")
            for what, items in changes.items():
                print(f"{name}: {what}: {len(items)} (e.g. {items[0]})")
            if args.write:
                shutil.copy(new_file, FIXTURE / f"{name}.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

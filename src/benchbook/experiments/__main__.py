"""``python -m benchbook.experiments NAME [--profile P]``: one measurement session of experiment NAME
with this host's profile (``experiments.profiles``), outside DVC — the way a host-bound measurement
(``offload``; the ``gpu`` profile of ``llama_bench``) runs on a machine without DVC or papermill.
Prints the session summary as JSON; raw records go to ``<raw_dir>/<NAME>/<host_id>.jsonl``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

import yaml

from . import profiles


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchbook.experiments")
    ap.add_argument("name", help="experiment package under benchbook.experiments (offload, llama_bench, ...)")
    ap.add_argument("--profile", default=None, help=f"profile name (default: ${profiles.ENV}, else auto)")
    ap.add_argument("--root", default=".")
    ap.add_argument("--raw-dir", default="data/raw")
    ap.add_argument(
        "--overrides", default="{}", help="JSON merged into the section after the profile (null: none)"
    )
    a = ap.parse_args(argv)
    if a.profile:
        os.environ[profiles.ENV] = a.profile
    root = Path(a.root).resolve()
    params = yaml.safe_load((root / "params.yaml").read_text())
    picked = profiles.pick(params)
    over = {**profiles.section(params, a.name, picked), **(json.loads(a.overrides) or {})}
    run = importlib.import_module(f"benchbook.experiments.{a.name}.run")
    print(f"{a.name}: profile {picked.name} ({picked.reason})", file=sys.stderr)
    out = run.measure(params, root=root, raw_dir=Path(a.raw_dir), overrides=over)
    summary = out if isinstance(out, dict) else vars(out)
    print(json.dumps({k: v for k, v in summary.items() if k != "cfg"}, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())

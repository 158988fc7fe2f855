"""``python -m benchbook.experiments NAME [--profile P]``: one measurement session of experiment NAME
with this host's profile (``experiments.profiles``), outside DVC — the way a host-bound measurement
(``offload``; the ``gpu`` profile of ``llama_bench``) runs on a machine without DVC or papermill.
Prints the session summary as JSON; raw records go to ``<raw_dir>/<NAME>/<host_id>.jsonl``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import sys
from pathlib import Path

import yaml

from .. import session
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
    ap.add_argument(
        "--fresh-session",
        action="store_true",
        help="start a new session even where an interrupted one with the same config could be resumed",
    )
    a = ap.parse_args(argv)
    before = os.environ.get(profiles.ENV)
    before_fresh = os.environ.get(session.FRESH_ENV)
    if a.profile:  # for the runner too; restored afterwards (an in-process caller keeps its environment)
        os.environ[profiles.ENV] = a.profile
    if a.fresh_session:
        os.environ[session.FRESH_ENV] = "1"
    try:
        root = Path(a.root).resolve()
        params = yaml.safe_load((root / "params.yaml").read_text())
        picked = profiles.pick(params)
        over = {**profiles.section(params, a.name, picked), **(json.loads(a.overrides) or {})}
        run = importlib.import_module(f"benchbook.experiments.{a.name}.run")
        print(f"{a.name}: profile {picked.name} ({picked.reason})", file=sys.stderr)
        out = run.measure(params, root=root, raw_dir=Path(a.raw_dir), overrides=over)
        # every experiment returns a SessionResult (or a subclass with its extras)
        print(json.dumps({k: v for k, v in dataclasses.asdict(out).items() if k != "cfg"}, default=str))
        return 0
    finally:
        for name, value in ((profiles.ENV, before), (session.FRESH_ENV, before_fresh)):
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


if __name__ == "__main__":
    sys.exit(main())

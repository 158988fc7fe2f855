"""Where things live: the repository root and the per-machine cache outside it.

The cache (toolchains keyed by source sha256 + backend + cmake flags, models keyed by
sha256, downloads) defaults to ``$XDG_CACHE_HOME/benchbook`` (``~/.cache/benchbook``);
``BENCHBOOK_CACHE`` overrides it.  Nothing in the cache is ever committed.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Return the cache root (created if missing)."""
    env = os.environ.get("BENCHBOOK_CACHE")
    if env:
        root = Path(env)
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "benchbook"
    root.mkdir(parents=True, exist_ok=True)
    return root


def repo_root(start: Path | None = None) -> Path:
    """Return the repository root: the nearest parent holding ``params.yaml`` and ``dvc.yaml``.

    Raises:
        FileNotFoundError: when no such directory is found above ``start`` (default: cwd).
    """
    env = os.environ.get("BENCHBOOK_ROOT")
    if env:
        return Path(env)
    here = (start or Path.cwd()).resolve()
    for p in (here, *here.parents):
        if (p / "params.yaml").exists() and (p / "dvc.yaml").exists():
            return p
    raise FileNotFoundError(
        f"no benchbook project (params.yaml + dvc.yaml) at or above {here}; "
        "run from the repository or set BENCHBOOK_ROOT"
    )

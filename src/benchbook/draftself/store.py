"""The draft-self checkpoints a measurement used, kept in the repository's artifact store by sha256.

A measurement session (``experiments.draftself.run``, ``experiments.draftself_gpu.run``) calls ``keep``
on the checkpoint it measured with: the file is copied to ``data/artifacts/checkpoints/<sha256>.pt``
beside a small committed description ``<sha256>.json``, and the session start record names that
repository-relative path.  ``benchbook artifacts add`` then runs
``dvc add`` on the file, so ``<sha256>.pt.dvc`` goes to git and the bytes to ``dvc push``; another
clone's ``dvc pull`` brings them back, and ``find`` hands the file to a run that asks for that sha256.

The caveat ``checkpoint_unavailable`` asks ``is_kept``: the recorded path lies in the store and its
``.dvc`` pointer is in the repository.  A file only placed there (on a lent machine whose disk is
returned, or never ``dvc add``-ed) is not kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from benchbook import atomicfile

#: where kept checkpoints live, relative to the repository root
STORE_DIR = "data/artifacts/checkpoints"


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def stored_path(sha256: str) -> str:
    """The repository-relative path (POSIX) of the checkpoint with this sha256 (64 hex)."""
    return f"{STORE_DIR}/{sha256}.pt"


def keep(checkpoint: str | Path, root: str | Path, sha256: str, about: dict | None = None) -> str:
    """Place ``checkpoint`` (a ``torch.save`` file whose sha256 is ``sha256``) in the store under
    ``root``, with its description ``<sha256>.json`` (``sha256``, ``bytes`` and ``about``: what made
    it; an existing description is kept).  Returns ``stored_path(sha256)``, for the session record.

    Raises:
        ValueError: ``checkpoint`` does not hash to ``sha256`` (names the file; fix: pass the sha256
            of the file actually measured).
    """
    root = Path(root)
    src = Path(checkpoint)
    rel = stored_path(sha256)
    dest = root / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    if src.resolve() != dest.resolve() and not (dest.exists() and _sha256(dest) == sha256):
        if _sha256(src) != sha256:
            raise ValueError(
                f"{src}: sha256 differs from {sha256[:16]}…; fix: pass the sha256 of the file measured"
            )
        part = dest.with_name(dest.name + ".part")
        shutil.copyfile(src, part)  # a copy: `dvc add` moves it into DVC's cache
        os.replace(part, dest)
    desc = dest.with_suffix(".json")
    if not desc.exists():
        body = {"sha256": sha256, "bytes": dest.stat().st_size, "about": about or {}}
        atomicfile.write_text(desc, json.dumps(body, indent=1, sort_keys=True) + "\n")
    return rel


def find(root: str | Path, sha256: str) -> Path | None:
    """The stored checkpoint with this sha256 under ``root`` when present and intact (``dvc pull``
    brought it, or this host kept it), else None."""
    path = Path(root) / stored_path(sha256)
    return path if path.is_file() and _sha256(path) == sha256 else None


def is_kept(path: str | None, root: str | Path) -> bool:
    """Whether the checkpoint a session start record names (``path``) is kept: a path in the store
    (``STORE_DIR``, relative) whose ``dvc add`` pointer ``<path>.dvc`` is in the repository ``root``."""
    if not path or not str(path).startswith(STORE_DIR + "/"):
        return False
    return (Path(root) / f"{path}.dvc").is_file()

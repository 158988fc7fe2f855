"""Models that travel between hosts through DVC's remote, keyed by sha256.

A host that fetched or derived a model (a Q8_0/Q2_K made with llama-quantize, the wheel's default
model) places it in the repository as ``data/artifacts/models/<sha256>.gguf`` (a hard link into the
model cache when possible) beside a small committed description ``<sha256>.json`` (model id, sha256,
size, origin: the derivation with the parent's sha256, or the source); ``benchbook artifacts add``
then runs ``dvc add`` on the GGUF, so only ``<sha256>.gguf.dvc`` goes to git and the bytes go to
``dvc push``.  Every name carries the content hash, so two hosts adding the same model write the same
two files and two hosts adding different ones touch different files: git merges them without
conflict.

Another clone runs ``dvc pull``; ``import_models`` then puts each pulled file into the model cache
by its sha256 (``<cache>/models/<sha256>.gguf``, verified) with the sidecar ``models.fetch`` reads,
so ``fetch`` finds it and neither downloads nor quantizes it again.  The cache stays outside the
repository and keyed by sha256; a model whose registry entry no longer matches the description
(another quantize type, another parent) is ignored here and made again by ``fetch``.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from benchbook import atomicfile

from . import models as models_mod
from .fetch import sha256_file

#: where pulled and exported model files live, relative to the repository root
MODELS_DIR = Path("data/artifacts/models")


@dataclass(frozen=True)
class Exported:
    """One model placed under ``MODELS_DIR``: ``gguf`` (to ``dvc add``), ``description`` (committed),
    ``new``: False when both were there already."""

    model_id: str
    sha256: str
    gguf: Path
    description: Path
    new: bool


@dataclass(frozen=True)
class Imported:
    """One pulled model put into the cache (``path``), or skipped with ``why`` (``path`` None)."""

    model_id: str
    sha256: str
    path: Path | None
    why: str | None = None


def _link_or_copy(src: Path, dest: Path) -> None:
    tmp = dest.with_name(dest.name + ".part")
    tmp.unlink(missing_ok=True)
    try:
        os.link(src, tmp)
    except OSError:
        shutil.copyfile(src, tmp)
    os.replace(tmp, dest)


def export_models(root: Path, registry: dict, ids: list[str]) -> list[Exported]:
    """Place every cached model of ``ids`` (usable per ``models._cached``) under ``root/MODELS_DIR``.

    A ``source: file`` model (the user's own file) is never exported; an id not in the cache is
    skipped (nothing is fetched here).  Returns one ``Exported`` per placed model, in ``ids`` order.
    """
    out_dir = Path(root) / MODELS_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    done: list[Exported] = []
    for model_id in dict.fromkeys(models_mod.canonical_id(registry, i) for i in ids):  # an alias: its target
        rec = models_mod._cached(model_id, registry)
        if rec is None or rec.get("origin", {}).get("source") == "file":
            continue
        sha = rec["sha256"]
        gguf, desc = out_dir / f"{sha}.gguf", out_dir / f"{sha}.json"
        new = not (gguf.exists() and desc.exists())
        if not gguf.exists() or gguf.stat().st_size != rec["size_bytes"]:
            _link_or_copy(Path(rec["path"]), gguf)
        if not desc.exists():
            body = {k: rec[k] for k in ("model_id", "sha256", "size_bytes", "origin")}
            atomicfile.write_text(desc, json.dumps(body, indent=1, sort_keys=True) + "\n")
        done.append(Exported(model_id, sha, gguf, desc, new))
    return done


def import_models(root: Path, registry: dict, log=print) -> list[Imported]:
    """Put each pulled ``root/MODELS_DIR/<sha256>.gguf`` with its description into the model cache.

    Skipped (``why`` says which): the GGUF was not pulled; the id is not in ``registry``; the id or the
    description is a ``source: file`` model (used in place, nothing of it in the cache); the cache
    already holds a usable copy of the id; the description's origin differs from the registry entry
    (``derived_from``/``quantize``, or a pinned ``sha256``); the file's sha256 differs from its name.
    Parents come first, so a derived model's parent sha256 is checked by ``models.fetch`` afterwards.

    Raises:
        ValueError: a description is not JSON or lacks ``model_id``/``sha256``/``origin`` (names the
            file; fix: restore it from git).
    """
    d = Path(root) / MODELS_DIR
    descs = []
    for f in sorted(d.glob("*.json")) if d.is_dir() else []:
        try:
            body = json.loads(f.read_text())
            descs.append((f, body["model_id"], body["sha256"], body["origin"]))
        except (ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{f}: not a model description ({e}); fix: restore it from git") from None
    descs.sort(key=lambda t: "derived_from" in t[3])  # parents first
    out: list[Imported] = []
    for f, model_id, sha, origin in descs:
        gguf = f.with_suffix(".gguf")
        ent = registry.get(model_id)
        why = None
        if not gguf.exists():
            why = "not pulled (`dvc pull` fetches it)"
        elif ent is None:
            why = "not in params.yaml models.registry"
        elif ent.get("source") == "file" or origin.get("source") == "file":
            why = "a user's own file (source: file) is used in place, never put into the cache"
        elif models_mod._cached(model_id, registry) is not None:
            why = "already in the cache"
        elif "derived_from" in ent and (
            origin.get("derived_from"),
            origin.get("quantize"),
        ) != (ent["derived_from"], ent.get("quantize")):
            why = f"derived as {origin.get('derived_from')}/{origin.get('quantize')}, registry differs"
        elif "derived_from" not in ent and ent.get("sha256") != sha:
            why = f"registry pins sha256 {str(ent.get('sha256'))[:16]}…"
        elif sha256_file(gguf) != sha:
            why = f"{gguf} does not hash to its name (damaged; `dvc pull --force` fetches it again)"
        if why:
            out.append(Imported(model_id, sha, None, why))
            continue
        dest = models_mod._into_cache(gguf, sha)
        models_mod._store(model_id, models_mod._record(model_id, dest, sha, origin))
        log(f"model {model_id}: imported from {gguf.relative_to(root)} into the cache ({sha[:16]}…)")
        out.append(Imported(model_id, sha, dest))
    return out

"""Resolve what a measurement needs from ``params.yaml``: the toolchain and the models.

Snapshots (host, toolchain, model + manifest) are stored once per id under
``data/raw/snapshots/`` and referenced by id from every record.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from . import models as models_mod
from . import toolchain as tc_mod
from .provenance import host_snapshot
from .records import append_once

SNAPSHOT_DIR = Path("data/raw/snapshots")


def load_params(root: Path) -> dict:
    """``params.yaml`` of the project at ``root`` as a dict (FileNotFoundError names the path)."""
    p = Path(root) / "params.yaml"
    if not p.exists():
        raise FileNotFoundError(f"{p} not found; run from the benchbook repository")
    return yaml.safe_load(p.read_text())


def get_toolchain(params: dict, build: bool = True, log=print) -> tc_mod.Toolchain:
    """The toolchain of ``params['toolchain']``: the user's build dir when set, else our cached build.

    With ``build=False`` a missing cache raises ToolchainError with the fix instead of building.
    """
    t = params["toolchain"]
    if t.get("user_build_dir"):
        return tc_mod.from_user_dir(t["user_build_dir"])
    src = tc_mod.SourceSpec(**t["source"])
    if not build:
        backend = tc_mod.detect_backend() if t.get("backend", "auto") == "auto" else t["backend"]
        flags = tc_mod.cmake_flags(backend, src.build_number, t.get("extra_cmake_flags") or [])
        key = tc_mod.toolchain_key(src.sha256, backend, flags)
        path = tc_mod.cache_dir() / "toolchains" / f"b{src.build_number}-{backend}-{key}" / "toolchain.json"
        if not path.exists():
            raise tc_mod.ToolchainError(f"no llama.cpp build in the cache ({path.parent}); fix: "
                                        "`benchbook toolchain build` (about 14 min on 2 cores)")
    return tc_mod.build(src, t.get("backend", "auto"), tuple(t.get("extra_cmake_flags") or []), log=log)


def get_models(params: dict, ids: list[str], toolchain: tc_mod.Toolchain | None, log=print) -> list[dict]:
    """Fetch/derive each model id; returns model records (see ``models.fetch``)."""
    reg = params["models"]["registry"]
    qbin = toolchain.binary("llama-quantize") if toolchain is not None else None
    return [models_mod.fetch(reg, mid, qbin, log) for mid in ids]


def store_snapshots(root: Path, toolchain: tc_mod.Toolchain | None, model_recs: list[dict]) -> dict:
    """Append host, toolchain and model(+manifest) snapshots once each; return the host snapshot."""
    d = Path(root) / SNAPSHOT_DIR
    host = host_snapshot()
    append_once(d / "hosts.jsonl", host, "host_id")
    if toolchain is not None:
        append_once(d / "toolchains.jsonl", toolchain.record, "toolchain_id")
    for m in model_recs:
        snap = {**{k: v for k, v in m.items() if k != "path"}, "key": f"{m['model_id']}:{m['sha256']}"}
        if not (d / "models.jsonl").exists() or snap["key"] not in (d / "models.jsonl").read_text():
            snap["manifest"] = models_mod.manifest(m["path"], m["sha256"])
            append_once(d / "models.jsonl", snap, "key")
    return host

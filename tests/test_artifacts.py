"""Artifacts pulled from the DVC remote are used instead of being made again: models into the cache by
sha256 (only while their registry entry still matches), the draft-self checkpoint the manifest names."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from benchbook.draftself import train
from benchbook.experiments.draftself.run import resolve_checkpoint
from benchbook.llamacpp import artifacts
from benchbook.llamacpp import models as models_mod


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def _describe(root: Path, model_id: str, payload: bytes, origin: dict) -> str:
    d = root / artifacts.MODELS_DIR
    d.mkdir(parents=True, exist_ok=True)
    sha = _sha(payload)
    (d / f"{sha}.gguf").write_bytes(payload)
    desc = {"model_id": model_id, "sha256": sha, "size_bytes": len(payload), "origin": origin}
    (d / f"{sha}.json").write_text(json.dumps(desc))
    return sha


def test_a_pulled_derived_model_is_imported_only_while_the_registry_still_derives_it_so(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    base, q8 = b"base model bytes", b"the Q8_0 that llama-quantize made elsewhere"
    registry = {
        "base": {"source": "url", "url": "http://127.0.0.1:9/x", "sha256": _sha(base)},
        "base-q8": {"derived_from": "base", "quantize": "Q8_0"},
        "base-q2": {"derived_from": "base", "quantize": "Q2_K"},
    }
    _describe(tmp_path, "base", base, {"source": "url", "url": "http://127.0.0.1:9/x"})
    derivation = {"derived_from": "base", "parent_sha256": _sha(base), "quantize": "Q8_0", "argv": []}
    _describe(tmp_path, "base-q8", q8, derivation)
    # described as base-q2 but made with Q8_0: the registry says Q2_K now, so it is not imported
    _describe(tmp_path, "base-q2", q8 + b"!", {**derivation, "quantize": "Q8_0"})
    got = {i.model_id: i.why for i in artifacts.import_models(tmp_path, registry, log=lambda _: None)}
    assert got == {"base": None, "base-q8": None, "base-q2": "derived as base/Q8_0, registry differs"}
    # fetch finds the derived model in the cache: no llama-quantize (quantize_bin None would raise)
    rec = models_mod.fetch(registry, "base-q8", quantize_bin=None, log=lambda m: None)
    assert (rec["sha256"], Path(rec["path"]).read_bytes()) == (_sha(q8), q8)
    assert Path(rec["path"]) == tmp_path / "cache" / "models" / f"{_sha(q8)}.gguf"


def test_a_damaged_pull_is_not_imported(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    sha = _describe(tmp_path, "m", b"good", {"source": "url", "url": "u"})
    (tmp_path / artifacts.MODELS_DIR / f"{sha}.gguf").write_bytes(b"bad!")
    registry = {"m": {"source": "url", "url": "u", "sha256": sha}}
    [got] = artifacts.import_models(tmp_path, registry, log=lambda _: None)
    assert got.path is None and "does not hash to its name" in str(got.why)


def test_the_pulled_checkpoint_is_copied_into_the_cache_instead_of_training(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)  # stages run at the repository root; PULLED_DIR is relative to it
    cfg = train.TrainConfig(n_docs=20, steps=1)
    key = train.checkpoint_key(cfg)
    pulled = tmp_path / train.PULLED_DIR / f"{key}.pt"
    pulled.parent.mkdir(parents=True)
    pulled.write_bytes(b"weights trained on another host")
    pulled.with_suffix(".json").write_text(json.dumps({"final_loss_next": 0.79}))
    path, summary, trained_now = train.ensure_checkpoint(cfg, log=lambda _: None)
    assert (trained_now, summary, path.read_bytes()) == (
        False,
        {"final_loss_next": 0.79},
        b"weights trained on another host",
    )
    assert path == tmp_path / "cache" / "draftself" / f"{key}.pt"


def test_a_measurement_uses_the_pulled_checkpoint_the_manifest_names(tmp_path):
    weights = b"the manifest's checkpoint"
    pulled = tmp_path / train.PULLED_DIR / "k123.pt"
    pulled.parent.mkdir(parents=True)
    pulled.write_bytes(weights)
    manifest = tmp_path / "data/draftself/checkpoint.json"
    manifest.parent.mkdir(parents=True, exist_ok=True)
    man = {"path": "/nonexistent/other-host-cache/k123.pt", "sha256": _sha(weights), "key": "k123"}
    manifest.write_text(json.dumps(man))
    path, got = resolve_checkpoint(manifest, log=lambda _: None)
    assert (path, got) == (pulled, man)

"""Which draft-self checkpoints `benchbook artifacts add` places (the README's "Artifacts through DVC"):
the training's checkpoint goes to `data/artifacts/draftself/<key>.pt` only when its bytes hash to the
sha256 `data/draftself/checkpoint.json` names; a retraining on another machine (a new user's hashed
82d01b33… against the manifest's c39a7197…) is not placed there, while the checkpoint a session
measured with, kept in `data/artifacts/checkpoints/<sha256>.pt`, always is a new artifact."""

from __future__ import annotations

import hashlib
import json

from benchbook import cli

PARAMS = {"llama_bench": {"models": []}, "models": {"registry": {}, "default": "none"}}


def _setup(tmp_path, monkeypatch, trained: bytes, manifest_bytes: bytes):
    root, cache = tmp_path / "repo", tmp_path / "cache"
    monkeypatch.setenv("BENCHBOOK_CACHE", str(cache))
    (root / "data/draftself").mkdir(parents=True)
    sha = hashlib.sha256(manifest_bytes).hexdigest()
    (root / "data/draftself/checkpoint.json").write_text(json.dumps({"key": "k1", "sha256": sha}))
    (cache / "draftself").mkdir(parents=True)
    (cache / "draftself/k1.pt").write_bytes(trained)
    (cache / "draftself/k1.json").write_text("{}")
    return root


def test_the_manifests_checkpoint_is_placed(tmp_path, monkeypatch):
    root = _setup(tmp_path, monkeypatch, b"weights", b"weights")
    assert cli.export_artifacts(root, PARAMS) == [root / "data/artifacts/draftself/k1.pt"]
    assert (root / "data/artifacts/draftself/k1.pt").read_bytes() == b"weights"


def test_a_retrained_checkpoint_is_not_placed_but_the_measured_one_is(tmp_path, monkeypatch):
    root = _setup(tmp_path, monkeypatch, b"retrained elsewhere", b"weights")
    assert cli.export_artifacts(root, PARAMS) == []
    assert not (root / "data/artifacts/draftself").exists()
    # the session that measured with the retrained checkpoint kept it by its sha256 (draftself.store.keep)
    kept = root / "data/artifacts/checkpoints" / (hashlib.sha256(b"retrained elsewhere").hexdigest() + ".pt")
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"retrained elsewhere")
    assert cli.export_artifacts(root, PARAMS) == [kept]

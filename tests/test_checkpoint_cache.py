"""The draft-self checkpoint is looked up (and named in the log) in this machine's cache, which
``BENCHBOOK_CACHE`` moves: a new user's run with ``BENCHBOOK_CACHE=/work/fresh-cache`` logged
``checkpoint /root/.cache/benchbook/draftself/c7f9def4de503bfe.pt missing or changed`` (the manifest's
recorded path) although the checkpoint was written to and read from /work/fresh-cache/draftself/."""

from __future__ import annotations

import hashlib
import json
import os

from benchbook.draftself import train
from benchbook.experiments.draftself import run as ds_run

WEIGHTS = b"weights in the fresh cache"


def _manifest(tmp_path):
    manifest = tmp_path / "repo/data/draftself/checkpoint.json"
    manifest.parent.mkdir(parents=True)
    man = {
        "path": "/root/.cache/benchbook/draftself/c7f9def4de503bfe.pt",  # where the training host kept it
        "sha256": hashlib.sha256(WEIGHTS).hexdigest(),
        "key": "c7f9def4de503bfe",
        "train_config": {"n_docs": 20, "steps": 1},
    }
    manifest.write_text(json.dumps(man))
    return manifest, man


def test_the_checkpoint_in_benchbook_cache_is_used(tmp_path, monkeypatch):
    fresh = tmp_path / "fresh-cache"
    monkeypatch.setenv("BENCHBOOK_CACHE", str(fresh))
    manifest, man = _manifest(tmp_path)
    pt = fresh / "draftself" / "c7f9def4de503bfe.pt"
    pt.parent.mkdir(parents=True)
    pt.write_bytes(WEIGHTS)
    logged: list[str] = []
    assert ds_run.resolve_checkpoint(manifest, log=logged.append) == (pt, man)
    assert logged == []  # before: "checkpoint /root/.cache/... missing or changed" and a lookup elsewhere


def test_a_missing_checkpoint_is_named_in_benchbook_cache(tmp_path, monkeypatch):
    fresh = tmp_path / "fresh-cache"
    monkeypatch.setenv("BENCHBOOK_CACHE", str(fresh))
    manifest, man = _manifest(tmp_path)
    pt = fresh / "draftself" / "c7f9def4de503bfe.pt"

    def ensure(cfg, log):  # stands in for training: writes the manifest's bytes where train.py would
        pt.parent.mkdir(parents=True, exist_ok=True)
        pt.write_bytes(WEIGHTS)
        return pt, {}, True

    monkeypatch.setattr(train, "ensure_checkpoint", ensure)
    logged: list[str] = []
    assert ds_run.resolve_checkpoint(manifest, log=logged.append) == (pt, man)
    assert logged == [
        f"checkpoint {pt} missing or changed; from the cache or trained from {manifest}'s train_config"
    ]


def _other_weights(tmp_path, monkeypatch):
    """A manifest and, in a fresh cache, a checkpoint of other weights than it names (as
    ``ensure_checkpoint`` finds one trained here earlier); nothing warned of in this process yet."""
    fresh = tmp_path / "fresh-cache"
    monkeypatch.setenv("BENCHBOOK_CACHE", str(fresh))
    manifest, _ = _manifest(tmp_path)
    pt = fresh / "draftself" / "other.pt"
    pt.parent.mkdir(parents=True)
    pt.write_bytes(b"other weights")
    monkeypatch.setattr(train, "ensure_checkpoint", lambda cfg, log: (pt, {}, False))
    monkeypatch.setattr(ds_run, "_WARNED", set())
    return manifest, pt


def test_a_cached_checkpoint_of_other_weights_is_named_cached_and_warned_of_once(tmp_path, monkeypatch):
    """A new user saw "retrained checkpoint … differs" twice (the prefetch and the stage) for a
    checkpoint that came from the cache: it says where it came from, and is warned of once."""
    manifest, pt = _other_weights(tmp_path, monkeypatch)
    logged: list[str] = []
    for _ in range(2):
        assert ds_run.resolve_checkpoint(manifest, log=logged.append)[0] == pt
    warnings = [x for x in logged if x.startswith("warning:")]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "warning: the checkpoint (from this host's cache, trained here earlier) has"
    )
    assert "retrained" not in warnings[0]


def test_a_stage_process_under_the_run_does_not_warn_again(tmp_path, monkeypatch):
    """The warning came twice in one run's log: the run's prefetch warned, then the stage's kernel
    (another process, ``_WARNED`` empty) warned again.  The prefetch names the pair in the environment
    the stage inherits (``WARNED_ENV``), so the stage stays quiet; another pair is warned of (control)."""
    manifest, pt = _other_weights(tmp_path, monkeypatch)
    first: list[str] = []
    ds_run.resolve_checkpoint(manifest, log=first.append)
    assert sum(x.startswith("warning:") for x in first) == 1
    told = os.environ[ds_run.WARNED_ENV]
    monkeypatch.setattr(ds_run, "_WARNED", set())  # the stage's own process
    second: list[str] = []
    ds_run.resolve_checkpoint(manifest, log=second.append)
    assert not any(x.startswith("warning:") for x in second)
    monkeypatch.setenv(ds_run.WARNED_ENV, "0" * 64 + ":" + told.split(":")[1])
    third: list[str] = []
    ds_run.resolve_checkpoint(manifest, log=third.append)
    assert sum(x.startswith("warning:") for x in third) == 1

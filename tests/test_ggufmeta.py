"""GGUF key-value reader (``llamacpp.ggufmeta``): the same values as ``gguf.GGUFReader``, without the
tensors, on files written here with ``gguf.GGUFWriter`` and on the cached default model."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import gguf
import numpy as np
import pytest

from benchbook.llamacpp import draft_models as dm
from benchbook.llamacpp.ggufmeta import GGUFMetaError, read_kv

TOKENS = ["<|endoftext|>", "<|im_start|>", "Ġthe", "한", "é"]


def _write(path: Path, endian=gguf.GGUFEndian.LITTLE) -> Path:
    w = gguf.GGUFWriter(str(path), arch="llama", endianess=endian)
    w.add_uint32("llama.block_count", 4)
    w.add_float32("llama.rope.freq_base", 10000.0)
    w.add_bool("general.flag", True)
    w.add_tokenizer_model("gpt2")
    w.add_token_list(TOKENS)
    w.add_array("tokenizer.ggml.token_type", [1, 3, 1, 1, 1])
    w.add_bos_token_id(1)
    w.add_eos_token_id(0)
    w.add_tensor("t", np.zeros((2, 2), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def _reference(path: Path) -> dict:
    r = gguf.GGUFReader(str(path))
    return {k: f.contents() for k, f in r.fields.items() if not k.startswith("GGUF.")}


@pytest.mark.parametrize("endian", [gguf.GGUFEndian.LITTLE, gguf.GGUFEndian.BIG])
def test_read_kv_equals_gguf_reader(tmp_path, endian):
    p = _write(tmp_path / "m.gguf", endian)
    kv = read_kv(p)
    assert kv == _reference(p)
    assert kv["llama.block_count"] == 4 and kv["llama.rope.freq_base"] == 10000.0
    assert kv["general.flag"] is True and kv["general.architecture"] == "llama"
    assert kv["tokenizer.ggml.tokens"] == TOKENS and kv["tokenizer.ggml.token_type"] == [1, 3, 1, 1, 1]
    assert kv["tokenizer.ggml.bos_token_id"] == 1 and kv["tokenizer.ggml.eos_token_id"] == 0


def test_read_kv_selected_keys_stop_early(tmp_path):
    p = _write(tmp_path / "m.gguf")
    assert read_kv(p, {"llama.block_count", "no.such.key"}) == {"llama.block_count": 4}
    # cut the file 3 bytes into the key-value section's last value: a read of every key fails there,
    # a read that stops at an earlier key does not
    data = p.read_bytes()
    eos_key = b"tokenizer.ggml.eos_token_id"
    cut = data.index(eos_key) + len(eos_key) + 4 + 1  # key, uint32 type, 1 of the value's 4 bytes
    short = tmp_path / "short.gguf"
    short.write_bytes(data[:cut])
    assert read_kv(short, {"tokenizer.ggml.model"}) == {"tokenizer.ggml.model": "gpt2"}
    with pytest.raises(GGUFMetaError, match=rf"short\.gguf: .* at byte {cut - 1} .*needs 4 more bytes"):
        read_kv(short)


def test_read_kv_refuses_what_is_not_gguf_v2_v3(tmp_path):
    bad = tmp_path / "x.gguf"
    bad.write_bytes(b"NOPE" + bytes(40))
    with pytest.raises(GGUFMetaError, match=r"x\.gguf: starts with b'NOPE'.*not a GGUF"):
        read_kv(bad)
    v1 = tmp_path / "v1.gguf"
    v1.write_bytes(b"GGUF" + struct.pack("<I", 1) + bytes(40))
    with pytest.raises(GGUFMetaError, match=r"v1\.gguf: GGUF version 1; read here: 2 and 3"):
        read_kv(v1)
    tiny = tmp_path / "tiny.gguf"
    tiny.write_bytes(b"GGUF")
    with pytest.raises(GGUFMetaError, match=r"tiny\.gguf: 4 bytes, too short"):
        read_kv(tiny)


def test_vocab_fingerprint_from_the_kv_section(tmp_path):
    p = _write(tmp_path / "m.gguf")
    fp = dm.vocab_fingerprint(p)
    assert fp == {
        "model": "gpt2",
        "n_vocab": 5,
        "tokens_sha256": hashlib.sha256("\0".join(TOKENS).encode()).hexdigest(),
        "bos": 1,
        "eos": 0,
    }


def test_vocab_fingerprint_of_the_default_model():
    """The fingerprint of SmolLM2-135M Q4_1 as the GGUFReader-based version computed it."""
    import yaml

    from benchbook.llamacpp import models

    params = yaml.safe_load((Path(__file__).resolve().parents[1] / "params.yaml").read_text())
    hit = models._cached(params["models"]["default"])
    if hit is None:
        pytest.skip("default model not in the cache; run a measurement stage once to fetch it")
    assert dm.vocab_fingerprint(hit["path"]) == {
        "model": "gpt2",
        "n_vocab": 49152,
        "tokens_sha256": "0e0d60eaa849a6265d6376432d4e79de04a0b21c91918017d99781f9785245d6",
        "bos": 1,
        "eos": 2,
    }

"""``models add`` refuses a truncated GGUF (issue 34 §9): its header parsed, so the magic check passed
and a half file was registered and measured.  Every tensor's data must lie inside the file."""

from __future__ import annotations

import numpy as np
import pytest

from benchbook.llamacpp import registry, verify


def _tiny_gguf(path) -> int:
    """A valid GGUF v3 with two f32 tensors (64 and 256 values); returns its size in bytes."""
    import gguf

    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tensor("a", np.arange(64, dtype=np.float32))
    w.add_tensor("b", np.ones((16, 16), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path.stat().st_size


def test_a_truncated_gguf_is_not_registered(tmp_path):
    whole = tmp_path / "whole.gguf"
    size = _tiny_gguf(whole)
    assert verify.gguf_problem(whole, full=True) is None  # control: the whole file passes
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(whole.read_bytes()[: size - 512])  # the last tensor's data cut short
    assert verify.gguf_problem(cut) is None  # the magic alone: before, this was all models add checked
    with pytest.raises(registry.RegistryError) as e:
        registry.entry_for(str(cut), tmp_path / "repo")
    assert str(e.value).startswith(
        f"{cut}: a truncated or damaged GGUF: its header or tensors do not fit in "
    )
    assert "nothing was registered" in str(e.value)


def test_a_gguf_header_with_absurd_counts_is_named_damaged(tmp_path):
    """Catalogue E04: the magic, version 3, 2**63-1 tensors and key/value pairs, then zeros: the reader met
    the empty key twice and ``models add`` ended in ``KeyError: 'Duplicate  already in list at offset
    37'``, a traceback."""
    import struct

    bad = tmp_path / "h.gguf"
    bad.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 2**63 - 1, 2**63 - 1) + b"\0" * 64)
    assert verify.gguf_problem(bad, full=True) == (
        "a truncated or damaged GGUF: its header or tensors do not fit in its 88 bytes "
        "('Duplicate  already in list at offset 37')"
    )

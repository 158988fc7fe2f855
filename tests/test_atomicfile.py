"""Every file the tool rewrites is replaced atomically (issue 34 §6): a full disk, a kill or an error
while writing leaves the old file whole, never a cut one."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from benchbook import atomicfile
from benchbook.llamacpp import registry

PARAMS = """\
toolchain:
  source: pypi
models:
  default: m1
  registry:
    m1:
      source: file
      path: /models/m1.gguf
      sha256: {sha}
report:
  confidence: 0.95
""".format(sha="a" * 64)


def _disk_full_after(monkeypatch, n_bytes: int) -> None:
    """Writes through ``atomicfile`` fail with ENOSPC once ``n_bytes`` have gone out (a full disk)."""
    real = os.fdopen

    def fdopen(fd, mode="r", *args, **kwargs):
        fh = real(fd, mode, *args, **kwargs)
        write = fh.write
        sent = [0]

        def limited(data):
            if sent[0] + len(data) > n_bytes:
                raise OSError(errno.ENOSPC, "No space left on device")
            sent[0] += len(data)
            return write(data)

        fh.write = limited
        return fh

    monkeypatch.setattr(atomicfile.os, "fdopen", fdopen)


def test_a_rewrite_replaces_the_content_and_keeps_the_permissions(tmp_path):
    f = tmp_path / "params.yaml"
    f.write_text("old\n")
    f.chmod(0o640)
    atomicfile.write_text(f, "new\n")
    assert f.read_text() == "new\n" and stat.S_IMODE(f.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["params.yaml"]  # no temporary file left


def test_a_new_file_gets_the_umask_mode_not_mkstemps_0600(tmp_path):
    atomicfile.write_text(tmp_path / "page.md", "x")
    assert stat.S_IMODE((tmp_path / "page.md").stat().st_mode) == 0o666 & ~atomicfile._UMASK


def test_a_full_disk_leaves_the_old_file_whole(tmp_path, monkeypatch):
    f = tmp_path / "numbers.json"
    f.write_text("old content\n")
    _disk_full_after(monkeypatch, 4)
    with pytest.raises(OSError, match="No space left"):
        atomicfile.write_text(f, "new content that does not fit\n")
    assert f.read_text() == "old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["numbers.json"]


def test_models_add_on_a_full_disk_leaves_params_yaml_as_it_was(tmp_path, monkeypatch):
    # before: params.yaml was rewritten in place and cut at the disk's last free byte (16,384 in the
    # report), still parseable YAML with a section's tail gone; now the old file stays whole
    params = tmp_path / "params.yaml"
    params.write_text(PARAMS)
    _disk_full_after(monkeypatch, 100)
    entry = {"source": "file", "path": "/models/m2.gguf", "sha256": "b" * 64}
    with pytest.raises(OSError, match="No space left"):
        registry.add(params, "m2", entry)
    assert params.read_text() == PARAMS
    monkeypatch.undo()
    registry.add(params, "m2", entry)
    assert "m2:" in params.read_text() and params.read_text().endswith("report:\n  confidence: 0.95\n")


def test_write_with_replaces_a_file_a_library_writes_by_path(tmp_path):
    target = tmp_path / "t.bin"
    target.write_bytes(b"old")

    def broken(p: Path) -> None:
        p.write_bytes(b"ne")
        raise RuntimeError("writer failed")

    with pytest.raises(RuntimeError):
        atomicfile.write_with(target, broken)
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["t.bin"]
    atomicfile.write_with(target, lambda p: p.write_bytes(b"new"))
    assert target.read_bytes() == b"new"

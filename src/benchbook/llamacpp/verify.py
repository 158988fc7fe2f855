"""Is a cached file still the bytes that were verified?  Stat stamps and sha256 re-hashing.

A file verified once gets a *stamp*: its size, mtime (ns) and inode at that moment.  Later checks
re-hash the file whenever the stamp changed (an edit, a copy, a replaced file), and a *full* check
(once per measurement session) re-hashes every file under ``FULL_REHASH_MAX_BYTES`` even when the
stamp is unchanged, because bytes can be changed in place without changing size (and mtime can be
set back).  Larger files with an unchanged stamp are reported as verified by ``size/mtime``.

Costs on a 2-core host: the default model (98 MB) re-hashes in about 0.4 s; the toolchain's
binaries and libraries (about 20 MB) in about 0.1 s.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path

from ..records import utc_now
from .fetch import sha256_file

#: Files below this size are re-hashed on every full check; above it an unchanged stamp is trusted.
FULL_REHASH_MAX_BYTES = 1 << 30

#: ``Verified.method`` values.
BY_SHA256 = "sha256"
BY_STAT = "size/mtime"


class VerifyError(RuntimeError):
    """A file's bytes differ from the sha256 they were pinned or recorded with; ``actual`` is the
    file's sha256 (the caller can tell an edited pin from changed bytes)."""

    actual: str | None = None


@dataclass(frozen=True)
class Stamp:
    """What ``os.stat`` says about a file: size in bytes, mtime in ns, inode number."""

    size: int
    mtime_ns: int
    inode: int

    @classmethod
    def of(cls, path: str | Path) -> Stamp:
        """The stamp of ``path`` now (raises FileNotFoundError when it is absent)."""
        st = os.stat(path)
        return cls(st.st_size, st.st_mtime_ns, st.st_ino)

    @classmethod
    def from_dict(cls, d: dict | None) -> Stamp | None:
        """The stamp stored by ``as_dict``; None for a missing or malformed one."""
        if d is None:
            return None
        try:
            return cls(int(d["size"]), int(d["mtime_ns"]), int(d["inode"]))
        except (KeyError, TypeError, ValueError):
            return None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Verified:
    """Outcome of ``check``: the file's sha256, how it was established, its stamp and when (UTC)."""

    sha256: str
    method: str
    stamp: Stamp
    at: str

    def as_dict(self) -> dict:
        """``{"method", "at", "size", "mtime_ns", "inode"}``: stored in sidecars and model records."""
        return {"method": self.method, "at": self.at, **self.stamp.as_dict()}


def needs_rehash(stamp_now: Stamp, stamp_then: Stamp | None, full: bool) -> bool:
    """Re-hash when no stamp was stored, the stamp changed, or a full check meets a file < 1 GiB."""
    if stamp_then is None or stamp_now != stamp_then:
        return True
    return full and stamp_now.size < FULL_REHASH_MAX_BYTES


def check(
    path: str | Path, expected_sha256: str, stamp_then: Stamp | None, *, full: bool, what: str, fix: str
) -> Verified:
    """Verify ``path`` against ``expected_sha256`` (full 64-hex comparison, never a prefix).

    ``stamp_then``: the stamp stored at the last verification (None: never verified).  ``full``:
    a measurement session's check (see the module docstring).  ``what`` names the file in errors
    (e.g. ``model smollm2-135m-q4_1``), ``fix`` is the remedy appended to the message.

    Raises:
        VerifyError: the file's sha256 differs (file, both digests and ``fix`` in the message).
        FileNotFoundError: ``path`` is absent.
    """
    now = Stamp.of(path)
    if not needs_rehash(now, stamp_then, full):
        return Verified(expected_sha256, BY_STAT, now, utc_now())
    actual = sha256_file(Path(path))
    if actual != expected_sha256.lower():
        why = (
            "the bytes changed after they were verified"
            if stamp_then is not None
            else "the file does not match the pinned value; first difference at hex digit "
            f"{first_difference(actual, expected_sha256.lower()) + 1} of 64"
        )
        err = VerifyError(
            f"{what} {path}: sha256 is {actual}, expected {expected_sha256} ({why}); fix: {fix}"
        )
        err.actual = actual
        raise err
    return Verified(actual, BY_SHA256, now, utc_now())


def first_difference(a: str, b: str) -> int:
    """0-based index of the first character where ``a`` and ``b`` differ (the shorter length when one
    is a prefix of the other): two sha256 digests differing in one digit look alike when cut."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


#: the first 4 bytes of every GGUF file (``gguf.GGUF_MAGIC``, little-endian 0x46554747)
GGUF_MAGIC = b"GGUF"


def gguf_problem(path: str | Path, full: bool = False) -> str | None:
    """Why ``path`` is not a GGUF file (its first bytes are not ``GGUF``), or None when it starts as one.
    The usual culprit is a web page saved under a ``.gguf`` name: a Hugging Face ``/blob/`` URL (the
    page showing the file) instead of ``/resolve/`` (the file).  ``full``: also parse the header
    (``gguf.GGUFReader``, memory-mapped) and check that every tensor's data lies inside the file: a
    truncated copy (an interrupted ``cp``, a full disk) parses its header but not its tensors, and
    llama.cpp would fail on it later, or a half file would be registered and measured."""
    with open(path, "rb") as f:
        head = f.read(512)
    if head[:4] == GGUF_MAGIC:
        return _truncation(Path(path)) if full else None
    text = head.lstrip().lower()
    if text.startswith((b"<!doctype html", b"<html", b"<")):
        what = "an HTML page (a Hugging Face '/blob/' link gives the page; '/resolve/' gives the file)"
    elif text.startswith((b"{", b"[")):
        what = "JSON (an error or API response, not the file)"
    elif text.startswith(b"version https://git-lfs"):
        what = "a Git LFS pointer (the file itself was never downloaded)"
    elif not head:
        what = "an empty file"
    else:
        what = f"bytes {head[:4]!r}"
    return f"not a GGUF file: it starts with {what}, not the magic {GGUF_MAGIC!r}"


def _truncation(path: Path) -> str | None:
    """Why the GGUF at ``path`` is cut short (its header or its tensors' data run past the end of the
    file), or None when every tensor lies inside it.  Only a file of a GGUF version llama.cpp reads
    (2 or 3) is parsed; another version is left to llama.cpp's own message."""
    import gguf

    with open(path, "rb") as f:
        version = int.from_bytes(f.read(8)[4:8], "little")
    if version not in (2, 3):
        return None
    size = path.stat().st_size
    try:
        reader = gguf.GGUFReader(path)
    except (ValueError, IndexError, OverflowError, KeyError) as e:  # KeyError: a key repeated (gguf)
        return f"a truncated or damaged GGUF: its header or tensors do not fit in its {size:,} bytes ({e})"
    end = max((int(t.data_offset) + int(t.n_bytes) for t in reader.tensors), default=0)
    if end > size:
        return f"a truncated GGUF: its tensors end at byte {end:,} but the file has {size:,} bytes"
    return None

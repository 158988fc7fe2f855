"""Key-value metadata of a GGUF file, read without its tensor infos or data.

``gguf.GGUFReader`` parses every field into numpy views, one per array element: a 49,152-token
vocabulary (SmolLM2) with its merges takes about 2 CPU-seconds per file, paid for every model a
session checks.  ``read_kv`` reads only the header and the key-value section, stops once the asked
keys are found, and returns plain Python values (strings decoded as UTF-8, numbers as ``int``/``float``/
``bool``, arrays as lists); the same values ``GGUFReader(path).fields[key].contents()`` returns.

Layout (ggml ``docs/gguf.md``, versions 2 and 3): ``"GGUF"``, ``uint32`` version, ``uint64`` tensor
count, ``uint64`` key-value count, then per key-value a string key (``uint64`` length + UTF-8 bytes),
a ``uint32`` value type and the value; an array is a ``uint32`` element type, a ``uint64`` count and
the elements.  A big-endian file is recognised by its byte-swapped version, as ``GGUFReader`` does.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path
from typing import Any

MAGIC = b"GGUF"
STRING, ARRAY = 8, 9
#: GGUF value type -> struct format of one scalar (``GGUFValueType`` in gguf-py ``constants.py``).
SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


class GGUFMetaError(ValueError):
    """The file is not a GGUF of version 2 or 3, or its key-value section is cut short or malformed;
    the message names the file, the byte offset and the fix."""


class _Cursor:
    """Reads little- or big-endian values from ``buf`` at ``pos``; raises GGUFMetaError past the end."""

    def __init__(self, buf, path: Path, endian: str):
        self.buf, self.path, self.endian, self.pos = buf, path, endian, 0

    def unpack(self, fmt: str) -> Any:
        size = struct.calcsize(self.endian + fmt)
        if self.pos + size > len(self.buf):
            raise self.error(f"needs {size} more bytes")
        (value,) = struct.unpack_from(self.endian + fmt, self.buf, self.pos)
        self.pos += size
        return value

    def string(self, decode: bool = True) -> str | None:
        n = self.unpack("Q")
        if self.pos + n > len(self.buf):
            raise self.error(f"a string of {n} bytes runs past the end of the file")
        start, self.pos = self.pos, self.pos + n
        return bytes(self.buf[start : self.pos]).decode("utf-8") if decode else None

    def value(self, vtype: int, keep: bool) -> Any:
        if vtype == STRING:
            return self.string(keep)
        if vtype in SCALAR:
            return self.unpack(SCALAR[vtype])
        if vtype != ARRAY:
            raise self.error(f"unknown value type {vtype}")
        etype, count = self.unpack("I"), self.unpack("Q")
        if etype in SCALAR and not keep:  # skipped without reading the elements
            size = struct.calcsize(self.endian + SCALAR[etype]) * count
            if self.pos + size > len(self.buf):
                raise self.error(f"an array of {count} values runs past the end of the file")
            self.pos += size
            return None
        items = [self.value(etype, keep) for _ in range(count)]
        return items if keep else None

    def error(self, what: str) -> GGUFMetaError:
        return GGUFMetaError(
            f"{self.path}: GGUF key-value section unreadable at byte {self.pos} ({what}); the file is "
            "truncated or not a GGUF; fix: delete it and fetch or make it again"
        )


def read_kv(path: str | Path, keys: set[str] | frozenset[str] | None = None) -> dict[str, Any]:
    """The GGUF metadata of ``path``: ``{key: value}`` for every key in ``keys`` present in the file
    (every key when ``keys`` is None); reading stops after the last key asked for.

    Values as ``GGUFReader(path).fields[key].contents()`` gives them: ``str`` for strings, ``int``,
    ``float`` or ``bool`` for scalars, lists for arrays (of arrays, for nested ones).

    Raises:
        FileNotFoundError: no file at ``path``.
        GGUFMetaError: not a GGUF (magic), an unsupported version (1, or unknown), or a key-value
            section that is cut short or holds an unknown value type (names the file and byte offset).
    """
    path = Path(path)
    with open(path, "rb") as f:
        if path.stat().st_size < 24:
            raise GGUFMetaError(
                f"{path}: {path.stat().st_size} bytes, too short for a GGUF header; fix: "
                "delete it and fetch or make it again"
            )
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            return _parse(buf, path, keys)


def _parse(buf, path: Path, keys) -> dict[str, Any]:
    if bytes(buf[:4]) != MAGIC:
        raise GGUFMetaError(f"{path}: starts with {bytes(buf[:4])!r}, not {MAGIC!r}: not a GGUF file")
    (version,) = struct.unpack_from("<I", buf, 4)
    endian = "<"
    if version & 0xFFFF == 0:  # byte-swapped: a big-endian file (GGUFReader's rule)
        endian, version = ">", struct.unpack_from(">I", buf, 4)[0]
    if version not in (2, 3):
        raise GGUFMetaError(f"{path}: GGUF version {version}; read here: 2 and 3")
    cur = _Cursor(buf, path, endian)
    cur.pos = 8
    cur.unpack("Q")  # tensor count
    n_kv = cur.unpack("Q")
    want = None if keys is None else set(keys)
    out: dict[str, Any] = {}
    for _ in range(n_kv):
        if want is not None and not want:
            break
        key = cur.string()
        assert key is not None  # decode=True
        keep = want is None or key in want
        value = cur.value(cur.unpack("I"), keep)
        if keep:
            out[key] = value
            if want is not None:
                want.discard(key)
    return out

"""Rewriting a file so that a reader (or a crash, a full disk, a kill) sees the old bytes or the new
ones, never a cut file: write a temporary file in the same folder, flush and fsync it, rename it over
the target (``os.replace``, atomic on POSIX within one file system), then fsync the folder so that the
rename itself survives a power cut.

Used by every file the tool rewrites: ``params.yaml`` (``models add``), the numbers registry, model
and toolchain sidecars, generated pages and report outputs.  Append-only raw JSONL is not rewritten
and keeps its own per-record fsync (``benchbook.jsonl``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from . import errors


@contextlib.contextmanager
def _beside(path: str | Path) -> Iterator[Path]:
    """A temporary path in ``path``'s folder to write the new content to; on a clean exit it is
    fsynced, given ``path``'s permission bits and renamed over ``path``, then the folder is fsynced;
    on an exception it is removed and ``path`` left as it was.

    Raises:
        ValueError: ``path`` is a device, a pipe or a socket (``-o /dev/null``): renaming over it
            replaced the device itself with a regular file (run as root, in a container: the
            system's ``/dev/null`` became a file of claims); nothing is written.
    """
    target = Path(path)
    try:
        kind = stat.S_IFMT(target.lstat().st_mode)
    except OSError:
        kind = None  # none yet (or unreadable: the write below names why)
    if kind in (stat.S_IFCHR, stat.S_IFBLK, stat.S_IFIFO, stat.S_IFSOCK):
        raise ValueError(
            f"{target}: a device, pipe or socket, no file: rewriting it would replace it with a regular "
            "file; nothing written; fix: give the path of a file (a new one, or one to rewrite)"
        )
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:  # it names the random temporary file: name the file being rewritten
        raise type(e)(e.errno, e.strerror, str(target)) from None
    os.close(fd)
    tmp = Path(name)
    try:
        with errors.naming(target):  # a full disk's write/fsync error names no file: name the target
            yield tmp
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
            _chmod_like(str(tmp), target)
            os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    _fsync_dir(target.parent)


@contextlib.contextmanager
def replacing(path: str | Path, mode: str = "w") -> Iterator[IO]:
    """A file object to write ``path``'s new content into (``mode`` "w" text UTF-8, or "wb"); on a
    clean exit the content replaces ``path`` atomically (fsync, rename, fsync of the folder); on an
    exception ``path`` is untouched and the temporary file removed.  An existing ``path`` keeps its
    permission bits (a ``params.yaml`` stays as the user made it).

    Raises:
        OSError: the folder is missing or not writable, or the disk is full (``path`` unchanged).
        ValueError: ``path`` is a device, a pipe or a socket (``_beside``).
    """
    with _beside(path) as tmp:
        fd = os.open(tmp, os.O_WRONLY | os.O_TRUNC)
        handle: IO = os.fdopen(fd, "wb") if "b" in mode else os.fdopen(fd, "w", encoding="utf-8")
        with handle as fh:
            yield fh


def write_text(path: str | Path, text: str) -> None:
    """``Path(path).write_text(text)`` (UTF-8), atomically (``replacing``)."""
    with replacing(path) as fh:
        fh.write(text)


def write_bytes(path: str | Path, data: bytes) -> None:
    """``Path(path).write_bytes(data)``, atomically (``replacing``)."""
    with replacing(path, "wb") as fh:
        fh.write(data)


def write_with(path: str | Path, writer: Callable[[Path], object]) -> None:
    """Atomically replace ``path`` with what ``writer(tmp_path)`` writes to a temporary path in the same
    folder (for library writers that take a path: ``DataFrame.write_parquet``, ``torch.save``)."""
    with _beside(path) as tmp:
        writer(tmp)


def _read_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: the process's umask, read once at import (``os.umask`` can only be read by setting it)
_UMASK = _read_umask()


def _chmod_like(tmp: str, target: Path) -> None:
    """Give ``tmp`` (``mkstemp``: 0600) ``target``'s permission bits, or a new file's (0666 less the
    umask) when ``target`` does not exist yet."""
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_UMASK
    os.chmod(tmp, mode)


def _fsync_dir(folder: Path) -> None:
    """fsync ``folder`` so a rename in it is durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

"""How a command reports an error its user can fix: one ``benchbook: error: ...`` line on stderr, exit 2.

benchbook's own errors are ValueErrors (bad input: ``params.yaml``, a claims file, a record) or
RuntimeErrors (a missing build or model, a tool that failed), each message naming the place (file and
key, or file:line) and the fix; ``USER_ERRORS`` is that set.  Any other exception is a bug: its
traceback is the report.  ``benchbook`` (``cli.main``), ``benchbook audit`` and ``python -m
benchbook.experiments NAME`` all report through ``report``; an interrupted command prints
``INTERRUPTED`` and exits 130.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import signal
import sys
import threading
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import TextIO


class ParamsError(ValueError):
    """``params.yaml`` (or a run's overrides, or a session's recorded config) does not give what
    benchbook needs: empty, not YAML, a missing or unknown key, a wrong type or an out-of-bounds value.
    The message names the file or option, the key (the line for a syntax error) and the fix.  One class
    for every reader of parameters (``resolve`` for the toolchain and models, ``experiments.contract``
    for an experiment's section); a ValueError, so a command prints it as one line."""


#: what an unknown key is called in every message that refuses one (``unknown_key``)
UNKNOWN_KEY = "unknown key"


def nearest(key: object, known: Collection[str], cutoff: float = 0.6) -> str | None:
    """The known key closest in spelling to ``key`` (``difflib.get_close_matches``: ratio >= ``cutoff``,
    difflib's default 0.6), or None when none is that close."""
    near = difflib.get_close_matches(str(key), list(known), n=1, cutoff=cutoff)
    return near[0] if near else None


def unknown_key_fix(key: object, known: Collection[str]) -> str:
    """The fix for ``key``, which ``known`` (in the order given) lacks: ``write `backend` (known: source,
    backend, amx)``, the nearest known spelling (``nearest``), or ``remove it or use a known key (known:
    ...)`` when none is near."""
    near = nearest(key, known)
    lead = f"write `{near}`" if near is not None else "remove it or use a known key"
    return f"{lead} (known: {', '.join(map(str, known))})"


def unknown_key(place: str, key: object, known: Collection[str]) -> str:
    """The one message for a key ``known`` lacks, at ``place`` (the file and the key's dotted name:
    ``params.yaml `toolchain.bakend```): ``<place>: unknown key; fix: write `backend` (known: source,
    backend, ...)`` (``unknown_key_fix``).  Every reader of parameters words it so: ``resolve``,
    ``caveats.check_report``, ``audit.verdicts.Here``, ``draftself.train`` and ``experiments.contract``
    (which names the place its own way: ``--overrides`` key ``x``)."""
    return f"{place}: {UNKNOWN_KEY}; fix: {unknown_key_fix(key, known)}"


def check_keys(given: Mapping, known: Collection[str], file: str | Path, section: str = "") -> None:
    """Refuse the keys of ``given`` (the mapping at dotted ``section`` of ``file``; "" for its top level)
    that ``known`` lacks: a typo (``bakend``) would otherwise be ignored and its default used silently.

    Raises:
        ParamsError: one ``unknown_key`` clause per unknown key, in ``given``'s order, joined by "; "
            (``params.yaml `report.confidnce`: unknown key; fix: write `confidence` (known: ...)``).
    """
    clauses = [
        unknown_key(f"{file} `{section + '.' if section else ''}{key}`", key, known)
        for key in given
        if key not in known
    ]
    if clauses:
        raise ParamsError("; ".join(clauses))


def read_utf8(path: str | Path, why: str, fix: str, error: type[Exception] = ValueError) -> str:
    """The text of ``path``, or ``error`` naming ``path:LINE``, the byte offset that is not UTF-8 and the
    fix: ``params.yaml:2: byte 22 is not UTF-8 (invalid start byte)<why>; fix: <fix>`` (a binary file
    or another encoding, where Python says only ``'utf-8' codec can't decode byte 0xff in position
    22``).  ``why``: what that makes the file (", so this is no claims file"), or "".

    Raises:
        error: the file is not UTF-8 (the message above).
        OSError: the file cannot be read.
    """
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise error(f"{path}:{line}: byte {e.start} is not UTF-8 ({e.reason}){why}; fix: {fix}") from None


#: the exceptions a command reports as one line (their messages name the place and the fix)
#: (an ``OSError``, a full disk or a read-only folder, as ``os_error``'s one line)
USER_ERRORS: tuple[type[BaseException], ...] = (RuntimeError, ValueError, OSError)

#: the exit status of a command that stopped on one of ``USER_ERRORS``
EXIT_ERROR = 2

#: the exit status of a command stopped by Ctrl-C (128 + SIGINT)
EXIT_INTERRUPTED = 130

#: the line printed when a measuring command is interrupted (``what``: " `the command`" or "")
INTERRUPTED = (
    "benchbook: interrupted{what}; measurements recorded so far are kept (each record is written "
    "as it finishes); `make run` again resumes (finished stages and configurations are not redone)"
)


#: signals a measuring command treats like Ctrl-C: a plain ``kill``, ``timeout``, a CI job's timeout
#: (SIGTERM) and a closed terminal or ssh session (SIGHUP)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def stop_signals_interrupt() -> Iterator[None]:
    """Inside the block SIGTERM and SIGHUP raise ``KeyboardInterrupt`` in the main thread, as Ctrl-C
    does, so a measuring command stops its children's process group and closes its session the same
    way (Python's default for them is to die at once, leaving the stage's process group running,
    orphaned).  The previous handlers come back after the block.  Outside the main thread (where
    ``signal.signal`` cannot be called) the block runs unchanged."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.signal(sig, signal.default_int_handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


#: the fix of an ``OSError`` by its errno (``os_error``)
_OS_FIXES = {
    errno.EACCES: "make it writable by you (or run from a folder you may write)",
    errno.EPERM: "make it writable by you (or run from a folder you may write)",
    errno.EROFS: "the file system is read-only: run from a writable copy (or set BENCHBOOK_CACHE)",
    errno.ENOSPC: (
        "free disk space there, then run again (a rewritten file keeps its old content; a record cut "
        "short at the end of a raw file is moved aside when the file is next written)"
    ),
    errno.EDQUOT: "free space within your disk quota",
    errno.ENOTDIR: "a file stands where a folder should be: move it away",
    errno.EISDIR: "a folder stands where a file should be: give the file's path, or move the folder away",
    errno.EEXIST: "something already stands at that path: move it away",
    errno.ENOENT: "check the path (a folder on it may be missing, or the file was never made)",
}


@contextlib.contextmanager
def naming(path: str | Path) -> Iterator[None]:
    """Inside the block an ``OSError`` that names no file (``write``, ``flush``, ``fsync`` on a full disk
    say only "No space left on device") is given ``path`` as its ``filename``, so ``report`` prints
    ``<path>: <reason>; fix: …`` instead of ``?: …``.  The exception is re-raised, otherwise unchanged."""
    try:
        yield
    except OSError as e:
        if e.filename is None and e.errno is not None:
            e.filename = str(path)
        raise


def os_error(error: OSError) -> str:
    """An ``OSError`` as one line ``<path>: <reason>; fix: <what to do>`` (the fix by errno; the path
    the system names, both paths of a rename)."""
    path = error.filename if error.filename is not None else "?"
    if error.filename2 is not None:
        path = f"{path} -> {error.filename2}"
    reason = error.strerror or str(error)
    fix = _OS_FIXES.get(error.errno or 0, "check that path (permissions, free space, what stands there)")
    return f"{path}: {reason}; fix: {fix}"


def report(error: BaseException, file: TextIO | None = None) -> int:
    """Print ``error`` as ``benchbook: error: <message>`` (to ``file``, default stderr) and return
    ``EXIT_ERROR``."""
    # benchbook's own FileNotFoundErrors carry a message with its fix and no errno; the system's name a path
    system = isinstance(error, OSError) and error.errno is not None
    text = os_error(error) if system and isinstance(error, OSError) else error
    print(f"benchbook: error: {text}", file=file or sys.stderr)
    return EXIT_ERROR


#: what a YAML reader calls a value of each Python type (messages say "got a list", "got a number")
_YAML_KINDS = {
    bool: "true/false",
    int: "a number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a mapping",
    type(None): "nothing (null)",
}


def yaml_kind(value: object) -> str:
    """The kind of a parsed YAML value as its writer knows it: ``yaml_kind(3) == "a number"``,
    ``yaml_kind("x") == "a string"``, ``yaml_kind([1]) == "a list"``; other types by their name."""
    return _YAML_KINDS.get(type(value), f"a {type(value).__name__}")

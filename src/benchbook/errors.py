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
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TextIO


class ParamsError(ValueError):
    """``params.yaml`` (or a run's overrides, or a session's recorded config) does not give what
    benchbook needs: empty, not YAML, a missing or unknown key, a wrong type or an out-of-bounds value.
    The message names the file or option, the key (the line for a syntax error) and the fix.  One class
    for every reader of parameters (``resolve`` for the toolchain and models, ``experiments.contract``
    for an experiment's section); a ValueError, so a command prints it as one line."""


#: the exceptions a command reports as one line (their messages name the place and the fix)
USER_ERRORS: tuple[type[BaseException], ...] = (RuntimeError, ValueError, FileNotFoundError)

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


def report(error: BaseException, file: TextIO | None = None) -> int:
    """Print ``error`` as ``benchbook: error: <message>`` (to ``file``, default stderr) and return
    ``EXIT_ERROR``."""
    print(f"benchbook: error: {error}", file=file or sys.stderr)
    return EXIT_ERROR

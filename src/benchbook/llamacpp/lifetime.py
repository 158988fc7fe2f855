"""Children that do not outlive their runner.

A runner killed outright (SIGKILL, the OOM killer, a test's timeout) cannot stop its llama-bench or
llama-server child; the child, re-parented to init, then goes on loading the cores that the next
measurement times (seen here: llama-bench and llama-server orphans running for 50 minutes).  Linux
delivers a chosen signal to a process when the thread that started it exits (prctl(2),
``PR_SET_PDEATHSIG``); ``die_with_parent`` asks for SIGKILL, as a ``preexec_fn`` of ``subprocess.Popen``.
Start such children from a thread that outlives them (the runners start and stop them in one call).
"""

from __future__ import annotations

import ctypes
import signal
import sys

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

#: libc's ``prctl``, looked up once here in the parent: the child (between fork and exec, where another
#: thread of a multi-threaded runner may have held the dynamic loader's lock at the fork) only calls it
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def die_with_parent() -> None:
    """``preexec_fn``: the child gets SIGKILL when the thread that started it exits.

    Runs in the child between fork and exec: one ``prctl`` call, no library loaded or symbol looked up
    there.  A no-op off Linux; a failed ``prctl`` is ignored (the child then only lacks the guarantee,
    as before)."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)

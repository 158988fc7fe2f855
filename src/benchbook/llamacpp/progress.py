"""Progress lines for the long steps: build percentage, download bytes and rate, session i of n.

Bars are tqdm bars on stderr (one updating line each; elapsed and remaining time).  ``BENCHBOOK_QUIET=1``
turns them off.  A measurement session runs inside a papermill kernel whose output goes to a log
file under ``benchbook run``; there the session reports through a *progress file* instead
(``BENCHBOOK_PROGRESS``: one JSON object per step, ``{"task", "i", "n", "label"}``; label ``start`` when
a session opens, ``end`` when it closes), which ``follow`` renders in the terminal of ``benchbook run``:
a task's bar is closed (its line finished) at its ``end``, so the next stage's line starts on a line of
its own.  Lines printed while bars may be open go through ``say`` (tqdm clears and redraws them).
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from pathlib import Path

from tqdm import tqdm

PROGRESS_ENV = "BENCHBOOK_PROGRESS"
QUIET_ENV = "BENCHBOOK_QUIET"
#: The labels of a progress file's first and last event of a session (``SessionProgress``).
START, END = "start", "end"

#: cmake's progress prefix on a build line, e.g. ``[ 45%] Building CXX object ...``.
CMAKE_PERCENT = re.compile(r"^\[\s*(\d{1,3})%\]")
#: cmake's line when a target is complete, e.g. ``[100%] Built target llama-bench``.
BUILT_TARGET = re.compile(r"^\[\s*\d{1,3}%\] Built target (\S+)\s*$")
#: Ninja's whole-build step counter, e.g. ``[12/345] Building CXX object ...``.
NINJA_STEP = re.compile(r"^\[(\d+)/(\d+)\]")


#: A line of a command's output that ``benchbook run`` shows on the terminal too, not only in its log
#: file: ``warning: ...`` or ``benchbook: ...`` (the busy-host line of a session, ``busynow``), alone or
#: after one label (``draftself checkpoint: warning: retrained checkpoint sha256 ... differs ...``).
#: Python's ``RuntimeWarning: ...`` and DVC's ``WARNING: ...`` are not such lines.
NOTICE = re.compile(r"^(?:[A-Za-z][\w -]*: )?(?:warning|benchbook): ")


def is_notice(line: str) -> bool:
    """Whether ``line`` is a ``NOTICE``: a line for the user's terminal, not only for the log file."""
    return NOTICE.match(line) is not None


def quiet() -> bool:
    """True when ``BENCHBOOK_QUIET`` is set to a non-empty value other than ``0``."""
    return os.environ.get(QUIET_ENV, "") not in ("", "0")


def bar(total: float | None, desc: str, unit: str = "it", **kw) -> tqdm:
    """A tqdm bar on stderr (disabled when ``quiet()``); bytes: ``unit="B"`` scales to kB/MB and rates."""
    extra = {"unit_scale": True, "unit_divisor": 1024} if unit == "B" else {}
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        file=sys.stderr,
        disable=quiet(),
        mininterval=0.5,
        dynamic_ncols=True,
        leave=True,
        **extra,
        **kw,
    )


def say(line: str) -> None:
    """Print ``line`` on stderr above any open bar (``tqdm.write``: the bars are cleared, the line
    printed, the bars redrawn), so a bar and a line never share a terminal line."""
    tqdm.write(line, file=sys.stderr)


def cmake_percent(line: str) -> int | None:
    """The percentage of a cmake build line (``[ 45%] ...`` -> 45), None for other lines."""
    m = CMAKE_PERCENT.match(line)
    return int(m.group(1)) if m else None


class BuildPercent:
    """The percentage of a whole ``cmake --build --target T1 T2 ...`` run, from its output lines.

    With the Makefile generator, cmake's ``[ 45%]`` counts within one requested target's own
    dependencies and starts again for the next target: a build of llama-bench then llama-server showed
    ``[100%] Built target llama-bench`` and then ``[ 67%] Built target llama-common`` while the server
    still compiled for 24 minutes.  So each requested target is one equal share: ``100 * (k + p / 100)
    / n`` with ``k`` of the ``n`` requested targets built and ``p`` cmake's percentage within the current
    one (Ninja's ``[i/N]`` counts the whole build and is used as ``100 * i / N``).  The value never
    decreases and stays at most 99 until ``finish(rc)`` with ``rc == 0`` (100 only once the build
    process has exited successfully).
    """

    def __init__(self, targets: tuple[str, ...] | list[str] = ()):
        self.targets = tuple(targets)
        self._left = set(self.targets)
        self._within = 0
        self.value = 0.0

    def feed(self, line: str) -> float:
        """Account for one output line; returns the percentage so far (0-99)."""
        ninja = NINJA_STEP.match(line)
        if ninja and int(ninja.group(2)) > 0:
            self._raise(100 * int(ninja.group(1)) / int(ninja.group(2)))
            return self.value
        pct = cmake_percent(line)
        if pct is not None:
            self._within = max(self._within, pct)
        built = BUILT_TARGET.match(line)
        if built and built.group(1) in self._left:
            self._left.discard(built.group(1))
            self._within = 0
        n = max(len(self.targets), 1)
        self._raise(100 * (len(self.targets) - len(self._left) + self._within / 100) / n)
        return self.value

    def finish(self, rc: int) -> float:
        """The percentage once the build process exited with ``rc``: 100 when 0, else unchanged."""
        if rc == 0:
            self.value = 100.0
        return self.value

    def _raise(self, pct: float) -> None:
        self.value = max(self.value, min(pct, 99.0))


class SessionProgress:
    """Configuration ``i`` of ``n`` of a measurement session: ``step(label)`` after each configuration.

    With ``BENCHBOOK_PROGRESS`` set, steps are appended to that file (``benchbook run`` draws them);
    otherwise a bar on stderr.  Use as a context manager.
    """

    def __init__(self, task: str, total: int, done: int = 0):
        self.task, self.total, self.i = task, total, done
        target = os.environ.get(PROGRESS_ENV)
        self._file = open(target, "a", buffering=1) if target else None
        self._bar = None if self._file else bar(total, task, unit="config", initial=done)
        self._emit(START)

    def _emit(self, label: str) -> None:
        if self._file:
            self._file.write(
                json.dumps({"task": self.task, "i": self.i, "n": self.total, "label": label}) + "\n"
            )

    def step(self, label: str = "", n: int = 1) -> None:
        """``n`` more configurations finished (``label`` names the last one)."""
        self.i += n
        self._emit(label)
        if self._bar is not None:
            self._bar.set_postfix_str(label, refresh=False)
            self._bar.update(n)

    def close(self) -> None:
        if self._file:
            self._emit(END)
            self._file.close()
        if self._bar is not None:
            self._bar.close()

    def __enter__(self) -> SessionProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def follow(path: Path, stop: threading.Event, poll_s: float = 0.5) -> None:
    """Draw the steps appended to the progress file ``path`` as bars (one per task) until ``stop``
    is set; meant for a daemon thread of ``benchbook run``, one file per command it runs.  A task's
    bar is closed at its ``end`` event (a session that opens again gets a new bar), the others when
    ``stop`` is set."""
    bars: dict[str, tqdm] = {}
    offset = 0
    while True:
        finished = stop.is_set()
        if path.exists():
            with open(path) as f:
                f.seek(offset)
                chunk = f.read()
            complete = chunk[: chunk.rfind("\n") + 1]
            offset += len(complete.encode())
            for line in complete.splitlines():
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                b = bars.get(ev["task"])
                if b is None:
                    b = bars[ev["task"]] = bar(ev["n"], ev["task"], unit="config", initial=ev["i"])
                if ev["label"] not in (START, END):
                    b.set_postfix_str(ev["label"], refresh=False)
                b.update(max(ev["i"] - b.n, 0))
                if ev["label"] == END:
                    bars.pop(ev["task"]).close()
        if finished:
            break
        stop.wait(poll_s)
    for b in bars.values():
        b.close()

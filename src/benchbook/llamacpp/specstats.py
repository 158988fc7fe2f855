"""The speculative decoder's own counters from a llama-server log (``-lv 4``): calls, drafts, tokens and
the time spent drafting inside the server.

llama-server at log verbosity 4 (trace) prints, when a request's slot finishes (``print_timings`` in
``tools/server/server-context.cpp``, before the final response is sent), one line per speculative
implementation from ``common_speculative_print_stats`` (``common/speculative.cpp``, build b11434)::

    statistics     draft-simple: #calls(b,g,a) =    2     12     12, #gen drafts =     12,
    #acc drafts =    12, #gen tokens =     48, #acc tokens =    48, ...,
    dur(b,g,a) = 0.215, 7988.537, 0.023 ms

(one line in the log, wrapped here)

The counters are cumulative since the server started (``calls``: begin / draft / accept calls; ``dur``:
wall time inside ``begin``, ``draft`` and ``accept``, ms).  One request's share is the difference of
the line printed after it and the one before it (``stats_delta``).  A server without speculation
(``--spec-type`` none) prints no such line.  Every configuration measured here has one implementation
(one ``--spec-type``), so the last line is that implementation's; ``spec_stats(log, impl)`` picks one
implementation's line where a server has several.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

#: ``common_speculative_print_stats`` (llama.cpp common/speculative.cpp, build b11434), logged at -lv 4.
STATS_RE = re.compile(
    r"statistics\s+(?P<impl>\S+): #calls\(b,g,a\) =\s*(?P<cb>\d+)\s+(?P<cg>\d+)\s+(?P<ca>\d+), "
    r"#gen drafts =\s*(?P<gd>\d+), #acc drafts =\s*(?P<ad>\d+), #gen tokens =\s*(?P<gt>\d+), "
    r"#acc tokens =\s*(?P<at>\d+).*?dur\(b,g,a\) = (?P<db>[\d.]+), (?P<dg>[\d.]+), (?P<da>[\d.]+) ms"
)

#: record key -> regex group, integer counters
_COUNTS = {
    "calls_begin": "cb",
    "calls_draft": "cg",
    "calls_accept": "ca",
    "gen_drafts": "gd",
    "acc_drafts": "ad",
    "gen_tokens": "gt",
    "acc_tokens": "at",
}
#: record key -> regex group, durations (ms)
_DURATIONS = {"t_begin_ms": "db", "t_draft_ms": "dg", "t_accept_ms": "da"}


def spec_stats(log_text: str, impl: str | None = None) -> dict | None:
    """The last ``statistics`` line of a llama-server log (of implementation ``impl`` when given) as
    numbers (cumulative since the server started).

    Returns ``{"calls_begin", "calls_draft", "calls_accept", "gen_drafts", "acc_drafts", "gen_tokens",
    "acc_tokens"}`` (counts), ``{"t_begin_ms", "t_draft_ms", "t_accept_ms"}`` (``dur(b,g,a)``, ms) and
    ``"impl"`` (the implementation's name, e.g. ``draft-simple``); None when the log has no such line.
    A server with several implementations prints one line each per request: without ``impl`` the
    last line is whichever implementation the server printed last.  A line still being written (no
    `` ms`` at its end yet) does not match.
    """
    found = [m for m in STATS_RE.finditer(log_text) if impl is None or m.group("impl") == impl]
    if not found:
        return None
    m = found[-1]
    out: dict = {key: int(m.group(g)) for key, g in _COUNTS.items()}
    out |= {key: float(m.group(g)) for key, g in _DURATIONS.items()}
    out["impl"] = m.group("impl")
    return out


def stats_delta(before: dict | None, after: dict | None) -> dict | None:
    """``after - before`` of every numeric counter (``before`` None: since the start; strings such as
    ``impl`` kept from ``after``); None without ``after``.  Durations are rounded to the log's 3
    decimals (µs), so a difference carries no binary noise (0.052, not 0.052000000000000005).

    Raises:
        ValueError: ``before`` and ``after`` are lines of two implementations, or a counter of
            ``after`` is below ``before``'s (the lines are of two server processes: a restarted
            server counts from 0 again; take ``before`` from the same process's log,
            ``LlamaServer.log_text``).
    """
    if after is None:
        return None
    base = before or {}
    if base and base.get("impl") != after.get("impl"):
        raise ValueError(
            f"statistics of two implementations: {base.get('impl')} before, {after.get('impl')} after "
            "(fix: compare lines of one implementation, spec_stats(log, impl=...))"
        )
    down = [
        f"{k} {base[k]} -> {v}" for k, v in after.items() if not isinstance(v, str) and v < base.get(k, 0)
    ]
    if down:
        raise ValueError(
            f"speculative counters went down ({', '.join(down)}): the lines are of two server "
            "processes (fix: take before from the same process's log, LlamaServer.log_text())"
        )
    out: dict = {}
    for k, v in after.items():
        if isinstance(v, str):
            out[k] = v
        elif isinstance(v, float):
            out[k] = round(v - base.get(k, 0.0), 3)
        else:
            out[k] = v - base.get(k, 0)
    return out


def await_stats(
    read_log: Callable[[], str], before: dict | None, timeout_s: float = 2.0, poll_s: float = 0.02
) -> dict | None:
    """The counters once the log shows the line of the request that just finished.

    ``read_log()`` returns the server's log written since the request began (or any part of the
    current process's log that holds its lines); ``before`` is ``spec_stats`` of the log before the
    request (None: no line yet).  The line is written before the response is sent, but the server's
    logger writes from its own thread, so it can reach the file a little later: the log is read every
    ``poll_s`` s until a line with more ``calls_begin`` than ``before`` appears (one ``begin`` per
    request), for at most ``timeout_s`` s; with ``before`` given, only a line of ``before``'s
    implementation counts (a server with several prints one line each, and the newest line can be
    another implementation's while the logger writes).  Returns that line's counters, or None when
    none appeared (a server without speculation, not at ``-lv 4``, or a line later than
    ``timeout_s``).
    """
    floor = (before or {}).get("calls_begin", 0)
    impl = (before or {}).get("impl")
    deadline = time.monotonic() + timeout_s
    while True:
        now = spec_stats(read_log(), impl)
        if now is not None and now["calls_begin"] > floor:
            return now
        if time.monotonic() >= deadline:
            return None
        time.sleep(poll_s)


def delta_fault(delta: dict | None, timings: dict) -> str | None:
    """Why the counters ``delta`` (``stats_delta`` over one request) are not that request's own, or None
    when they are (or there are none).  One request makes one ``begin`` call, and the server's
    ``timings`` of the same request state its drafted and accepted tokens (``draft_n``,
    ``draft_n_accepted``; absent when nothing was drafted: 0), which the counters' ``gen_tokens`` and
    ``acc_tokens`` equal (all 132 requests of the H200 session 5b481365 at -lv 4).  A statistics line
    later than ``await_stats``' wait shifts the lines: the next request's delta then covers two
    requests (``calls_begin`` 2) or is the late line's own, and neither is that request's.

    >>> delta_fault({"calls_begin": 1, "gen_tokens": 53, "acc_tokens": 50},
    ...             {"draft_n": 53, "draft_n_accepted": 50}) is None
    True
    >>> delta_fault({"calls_begin": 2, "gen_tokens": 90, "acc_tokens": 80}, {"draft_n": 40})
    'the counters cover 2 requests (begin calls 2), not 1: a statistics line came late'
    """
    if delta is None:
        return None
    if delta.get("calls_begin") != 1:
        return (
            f"the counters cover {delta.get('calls_begin')} requests (begin calls "
            f"{delta.get('calls_begin')}), not 1: a statistics line came late"
        )
    got = (delta.get("gen_tokens"), delta.get("acc_tokens"))
    want = (int(timings.get("draft_n") or 0), int(timings.get("draft_n_accepted") or 0))
    if got != want:
        return (
            f"the counters' drafted/accepted tokens {got[0]}/{got[1]} differ from the request's timings "
            f"{want[0]}/{want[1]}: they are another request's (a statistics line came late)"
        )
    return None

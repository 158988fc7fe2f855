"""llama-server (and llama-cli) log timing lines -> ``benchbook.speculative_request`` v2, one record per
request (origin ingested).

Read per request: ``prompt eval time = X ms / N tokens``, ``eval time = ...``, ``total time = ...``,
the draft line in its three wordings — b11434 ``draft acceptance = 1.00000 (   23 accepted /    23
generated), mean len =  3.88`` (tools/server/server-context.cpp), the newer ``..., mean acceptance
length =  2.82, acceptance rate per position = (0.818, 0.606, 0.394)`` and the older ``draft acceptance
rate = 0.57576 (   19 accepted /    33 generated)`` — with or without the ``slot print_timing: id N |
task M |`` prefix and the timestamp prefix of recent builds.  Values go under ``timings`` with the
server's JSON names (``prompt_n``, ``prompt_ms``, ``predicted_n``, ``predicted_ms``, ``draft_n``,
``draft_n_accepted``), plus ``draft_mean_len`` and ``draft_accept_per_position``.

Checks (a value the line derives from its own inputs):

* the acceptance ratio must equal accepted ÷ generated (else the line is corrupt: error);
* ``verify_steps`` = accepted ÷ (mean len − 1), rounded (mean len = tokens per verify step, the
  verifier's own token counted): 60 accepted at mean length 2.82 -> 33 steps (1 + 60/33 = 2.818);
  per-position rates must sum to accepted ÷ steps (0.818 + 0.606 + 0.394 = 1.818 = 60/33) and each
  rate × steps must be a whole number of tokens, within the printed rounding; disagreement is flagged
  in ``inconsistent``, the values kept;
* ``(… ms per token, … tokens per second)`` of each timing line against its own ms and tokens
  (within the printed rounding): disagreement flagged in ``inconsistent``; the generation line's
  printed rate names its definition (``RATE_DEFINITIONS``: n/ms or (n-1)/ms, builds differ), kept as
  ``timings.predicted_rate_definition``.

Lines of a request's timing block whose values are not read (``graphs reused = 7``) are kept in the
record's ``uninterpreted`` (``"line N"`` -> text).  Also kept: llama-cli's ``sampling time = X ms / N
runs`` (older ``sample time``) as ``timings.sampling_ms`` / ``sampling_n`` (it is printed before the
request's other lines; ``sampling_share_of_eval`` = sampling_ms ÷ predicted_ms), and the sampler
parameters the server prints at start (``top_k = 40, top_p = 0.950, ..., temp = 0.800``) as
``generation_settings`` of every request after them.  The log's own build line (``build: 4641
(9f4cc8f8) with ...``, ``version: 4641 (...)`` or the JSON log's ``"build":2710``) sets
``build_number``/``build_commit``; a ``--build`` that disagrees with it is an error.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ..schemas import unknown
from .common import IngestError, build_record, origin
from .scan import parse_build

_NUM = r"([-\d.]+|inf|nan)"
_RATE = r"(?:\(\s*([\d.]+|inf|nan)\s*ms per token,\s*([\d.]+|inf|nan)\s*tokens per second\s*\))?"
_PROMPT = re.compile(rf"prompt eval time\s*=\s*{_NUM}\s*ms\s*/\s*(\d+)\s*tokens\s*{_RATE}")
_EVAL = re.compile(rf"(?<!prompt )\beval time\s*=\s*{_NUM}\s*ms\s*/\s*(\d+)\s*(?:tokens|runs)\s*{_RATE}")
_TOTAL = re.compile(rf"total time\s*=\s*{_NUM}\s*ms(?:\s*/\s*(\d+)\s*tokens)?")
_SAMPLING = re.compile(rf"\bsampl(?:ing|e) time\s*=\s*{_NUM}\s*ms\s*/\s*(\d+)\s*runs")
#: the draft line in its three wordings (module doc): the rate, accepted, generated (drafted), the mean
#: acceptance length and the per-position rates where printed
DRAFT_LINE = re.compile(
    r"draft acceptance(?: rate)?\s*=\s*([\d.]+)\s*\(\s*(\d+)\s*accepted\s*/\s*(\d+)\s*generated\)"
    r"(?:,\s*mean (?:len|acceptance length)\s*=\s*([\d.]+))?"
    r"(?:,\s*acceptance rate per position\s*=\s*\(([^)]*)\))?"
)
_TASK = re.compile(r"\bid\s+(\d+)\s*\|\s*task\s+(-?\d+)|\"id_slot\":\s*(\d+),\s*\"id_task\":\s*(\d+)")
#: one timing line of llama.cpp's (llama-server ``print_timing``, llama-cli/llama-simple
#: ``llama_perf_context_print``/``common_perf_print``, older ``llama_print_timings``), whatever the
#: prefix: ``what`` (load, sample, sampling, prompt eval, eval, total), ``ms``, ``n`` and ``of``
#: (tokens | runs) where printed, ``per_token`` (ms per token) and ``tps`` (tokens per second) where
#: printed.  Shared with ``audit.toollines``, which drafts the same lines pasted into a post.
TIMING_LINE = re.compile(
    # "predict": the old ``main`` example's generation loop ("main:  predict time = 37065.80 ms /
    # 226.01 ms per token", llama.cpp before the ``llama_print_timings`` lines)
    r"\b(?P<what>load|sampl(?:e|ing)|prompt eval|(?<!prompt )eval|total|predict) time\s*=\s*"
    r"(?P<ms>\d+(?:\.\d+)?)\s*ms"
    r"(?:\s*/\s*(?P<n>\d+)\s*(?P<of>tokens|runs)|\s*/\s*(?P<per>\d+(?:\.\d+)?)\s*ms per token)?"
    r"(?:\s*\(\s*(?P<per_token>\d+(?:\.\d+)?|inf|nan)\s*ms per token,\s*"
    r"(?P<tps>\d+(?:\.\d+)?|inf|nan)\s*tokens per second\s*\))?"
)
#: lines of a request's timing block (their values not read above land in ``uninterpreted``)
_TIMING_BLOCK = re.compile(r"print_timing:|llama_perf_\w+:|llama_print_timings:")
_MODEL = re.compile(r"loading (draft )?model '([^']+)'")
#: ``slot release: ... stop processing: n_tokens = N`` (b11434 tools/server/server-context.cpp,
#: ``server_slot::release``, INFO level): the tokens in the slot when the request ends, i.e. the whole
#: prompt (cached and evaluated) + the generated tokens but the last sampled one.  The only line at
#: default verbosity that carries the prompt length; ``new prompt, ... task.n_tokens = N``
#: (``SLT_TRC``, same file) states it directly but only at trace verbosity (``-lv 4``).
_RELEASE = re.compile(r"stop processing: n_tokens\s*=\s*(\d+)")
_NEW_PROMPT = re.compile(r"new prompt, .*task\.n_tokens\s*=\s*(\d+)")
_JSON_BUILD = re.compile(r"\"build\":\s*(\d+),\s*\"commit\":\s*\"([0-9a-f]+)\"")
_SAMPLER = re.compile(r"\b(top_k|top_p|min_p|temp|typical_p|repeat_penalty|repeat_last_n)\s*=")
#: lines a llama-server process prints once, at its start, before its first request
#: (``llama_server: initializing``, the ``build: 4641 (...)`` and ``system info:`` lines, model
#: loading, ``main: server is listening``): one after a request is a restart, a new process
_PROCESS_START = re.compile(
    r"llama_server: initializing|\bserver is listening\b|\bbuild: \d+ \(|\bsystem info:|"
    r"loading (?:draft )?model '"
)
_PAIR = re.compile(r"\b([a-z_]+)\s*=\s*(-?[\d.]+(?:e-?\d+)?|[A-Za-z_]+)\b")


def _number(s: str):
    try:
        return int(s)
    except ValueError:
        try:
            return float(s)
        except ValueError:
            return s


def _time_of(path: Path, line_no: int, what: str, value: str) -> float:
    """The ms of a timing line, refused when negative; 0 ms for tokens is kept (a rate cannot be formed:
    the caller flags it).

    Raises:
        IngestError: a negative time (file:line, the line's name, the fix).
    """
    ms = float(value)
    if ms < 0:
        raise IngestError(
            f"{path}:{line_no}: {what} is {value} ms, a negative time; the log is corrupt or edited; fix: "
            "ingest the log as llama-server wrote it, or drop this request"
        )
    return ms


#: How a generation rate is defined (key: its name in records and verdicts).  llama.cpp builds differ:
#: b11434's llama-server counts every generated token but the first, which comes out of the prompt pass
#: (``1132.38 ms / 32 tokens (..., 27.38 tokens per second)`` = 31 / 1.13238 s); older servers and
#: llama-cli's ``llama_perf_context_print`` count every token (or run) they print (``600.00 ms / 40
#: tokens (..., 66.67 tokens per second)`` = 40 / 0.6 s).
RATE_DEFINITIONS = {
    "n/ms": "every generated token (or counted run) ÷ eval time",
    "(n-1)/ms": "generated tokens but the first (it comes out of the prompt pass) ÷ eval time",
}


def rate_definition(n: int, ms: float, per_tok: str | None, per_s: str | None) -> str | None:
    """The ``RATE_DEFINITIONS`` key an ``eval time`` line's printed rate follows: the count (``n`` or
    ``n - 1``) whose rate (or ms per token) is nearest the printed one; None when the line prints
    neither or no rate can be formed.

    >>> rate_definition(300, 2500.0, None, "120.00"), rate_definition(32, 1132.38, "36.53", "27.38")
    ('n/ms', '(n-1)/ms')
    """
    if not n or n < 2 or not ms or ms != ms:
        return None
    if per_s is not None:
        r = float(per_s)
        off = {d: abs(r - c * 1000.0 / ms) for d, c in (("n/ms", n), ("(n-1)/ms", n - 1))}
    elif per_tok is not None:
        t = float(per_tok)
        off = {d: abs(t - ms / c) for d, c in (("n/ms", n), ("(n-1)/ms", n - 1))}
    else:
        return None
    return min(off, key=lambda d: off[d])


def _rate_check(what: str, ms: float, n: int, per_tok: str | None, per_s: str | None, line: int) -> list[str]:
    """Disagreements of a timing line's printed ms-per-token / tokens-per-second with its ms and n
    (within the printed rounding).  Generation lines count either every token or all but the first
    (``RATE_DEFINITIONS``): both agree."""
    out: list[str] = []
    if n and n > 1 and ms == 0:
        return [f"line {line}: {what} prints 0 ms for {n} tokens; no rate can be formed"]
    if not n or not ms or ms != ms:
        return out
    counts = [n, n - 1] if what == "eval time" and n > 1 else [n]
    if per_tok is not None:
        p = float(per_tok)
        if not any(abs(p - ms / c) <= 0.006 + 1e-4 * ms / c for c in counts):
            out.append(f"line {line}: {what} prints {per_tok} ms per token; {ms} ms / {n} = {ms / n:.2f}")
    if per_s is not None:
        r = float(per_s)
        if not any(abs(r - c * 1000.0 / ms) <= 0.006 + 1e-4 * c * 1000.0 / ms for c in counts):
            out.append(
                f"line {line}: {what} prints {per_s} tokens per second; {n} / {ms} ms = {n * 1000.0 / ms:.2f}"
            )
    return out


def _request_of(
    path: Path, line_no: int, line: str, by_task: dict, key: tuple, latest: dict | None
) -> dict | None:
    """The open request of the slot/task named on ``line`` (llama-server's parallel slots print their
    requests' timing lines interleaved: ``id  1 | task 1 | eval time ...`` between task 0's lines).  A
    prompt line opens its own request (None here); a task with no request yet takes the latest one only
    when the log never named a task before it (a log of one slot).

    Raises:
        IngestError: a timing line of a task whose ``prompt eval time`` line is not in the log.
    """
    if _PROMPT.search(line) or not (_EVAL.search(line) or _TOTAL.search(line) or DRAFT_LINE.search(line)):
        return by_task.get(key, latest)
    if key in by_task:
        return by_task[key]
    if not by_task:
        return latest
    raise IngestError(
        f"{path}:{line_no}: timing line of slot {key[0]} task {key[1]}, whose 'prompt eval time' line is "
        "not in the log; fix: pass the whole log, not an excerpt"
    )


def _once(path: Path, line_no: int, req: dict, key: str, what: str) -> None:
    """Refuse a second value of ``key`` for one request (it would replace the first silently).

    Raises:
        IngestError: names both lines and the fix.
    """
    if key in req["timings"]:
        raise IngestError(
            f"{path}:{line_no}: a second '{what.split('=')[0].strip()}' line for the request of line "
            f"{req['line']} (its lines name no slot and task to tell requests apart); fix: ingest a log "
            "whose timing lines carry 'id N | task M', or split the log per request"
        )


def _draft_checks(t: dict, line: int) -> list[str]:
    """verify_steps from mean len; per-position rates against the counts (module doc)."""
    acc, mean = t["draft_n_accepted"], t.get("draft_mean_len")
    out: list[str] = []
    if mean is not None and mean <= 1 and acc > 0:
        return [
            f"line {line}: mean acceptance length {mean} says no draft token was accepted, "
            f"the line counts {acc}"
        ]
    if mean is None or mean <= 1:
        return out
    steps = round(acc / (mean - 1))
    t["_steps"] = steps
    if steps <= 0 or abs(1 + acc / steps - mean) > 0.0051:
        out.append(
            f"line {line}: mean acceptance length {mean} fits no whole number of steps for {acc} accepted"
        )
        return out
    rates = t.get("draft_accept_per_position")
    if rates:
        tol = 0.0005 * len(rates) + 1e-9
        if abs(sum(rates) - acc / steps) > tol:
            out.append(
                f"line {line}: per-position rates sum to {sum(rates):.3f}, accepted / steps = "
                f"{acc}/{steps} = {acc / steps:.3f}"
            )
        for k, r in enumerate(rates):
            if abs(r * steps - round(r * steps)) > 0.0005 * steps + 1e-9:
                out.append(
                    f"line {line}: position {k + 1} rate {r} x {steps} steps is not a whole number of tokens"
                )
    return out


def process_starts(text: str) -> list[int]:
    """The lines of a llama-server log where a later server process starts: the first start line
    (``_PROCESS_START``) after a request (a ``prompt eval time`` line), in file order; [] for a log of
    one process.  The requests before the first of them are process 0, and so on.

    >>> process_starts("build: 1 (a)\\nprompt eval time = 1 ms / 1 tokens\\nbuild: 1 (a)\\nsystem info: x\\n")
    [3]
    """
    out: list[int] = []
    served = False
    for i, line in enumerate(text.splitlines(), 1):
        if _PROMPT.search(line):
            served = True
        elif served and _PROCESS_START.search(line):
            out.append(i)
            served = False
    return out


def read_server_log(
    path: Path, text: str, build_hint: int | None = None, host: str | None = None
) -> list[dict]:
    """One ``benchbook.speculative_request`` v2 record (origin ingested) per request of a llama-server
    log (module doc).  Each request is of its own server process (a log may hold several, one after the
    other: ``process_starts``): ``model_id`` / ``draft_model_id`` are the file names of that process's
    ``loading model`` / ``loading draft model`` lines (unknown without them), ``build_number`` its build
    line, else ``build_hint`` (else unknown), and the sampler parameters its own (a restarted server
    keeps nothing of the process before it).

    Raises:
        IngestError: an ``eval time``/``draft acceptance`` line without a preceding ``prompt eval time``
        line, a draft line whose ratio disagrees with its counts, or a ``build_hint`` that disagrees with
        a build line of the log (names file:line).
    """
    sha = hashlib.sha256(text.encode()).hexdigest()
    starts = process_starts(text)
    found: list[dict] = []
    cur: dict | None = None
    by_task: dict[
        tuple[int | None, int | None], dict
    ] = {}  # (slot, task) -> its request: parallel slots interleave
    slot = task = None
    # per server process of the log: its models and its build line (line, commit, number)
    models: list[dict[str, str]] = [{}]
    builds: list[tuple[int, str | None, int] | None] = [None]
    sampler: dict = {}
    pending_sampling: dict | None = None
    pending_len: int | None = None
    for i, line in enumerate(text.splitlines(), 1):
        if len(builds) <= len(starts) and i == starts[len(builds) - 1]:  # a later process starts here
            models.append({})
            builds.append(None)
            sampler = {}
        if builds[-1] is None:
            at = re.search(r"\b(?:build|version)\s*:", line)
            b = parse_build(line[at.start() :]) if at else None
            mj = _JSON_BUILD.search(line)
            if mj:
                b = (mj.group(2), int(mj.group(1)))
            if b is not None:
                builds[-1] = (i, b[0], b[1])
        if _SAMPLER.search(line) and "=" in line and "prompt eval" not in line:
            sampler = {**sampler, **{k: _number(v) for k, v in _PAIR.findall(line)}, "_line": i}
        mm = _MODEL.search(line)
        if mm:
            models[-1].setdefault("draft" if mm.group(1) else "target", Path(mm.group(2)).name)
        mt = _TASK.search(line)
        if mt:
            slot, task = (
                (int(mt.group(1)), int(mt.group(2))) if mt.group(1) else (int(mt.group(3)), int(mt.group(4)))
            )
        # a line naming its slot and task belongs to that task's request, else to the latest one
        target = _request_of(path, i, line, by_task, (slot, task), cur) if mt else cur
        m = _NEW_PROMPT.search(line)
        if m:
            pending_len = int(m.group(1))
            continue
        m = _RELEASE.search(line)
        if m and target is not None and "release_n_tokens" not in target["timings"]:
            target["timings"]["release_n_tokens"] = int(m.group(1))
            target["lines"].append(i)
            continue
        ms = _SAMPLING.search(line)
        if ms:
            pending_sampling = {"sampling_ms": float(ms.group(1)), "sampling_n": int(ms.group(2)), "_line": i}
            continue
        m = _PROMPT.search(line)
        if m:
            cur = {
                "line": i,
                "text": line,
                "lines": [i],
                "slot_id": slot,
                "task_id": task,
                "timings": {
                    "prompt_ms": _time_of(path, i, "prompt eval time", m.group(1)),
                    "prompt_n": int(m.group(2)),
                },
                "inconsistent": _rate_check(
                    "prompt eval time", float(m.group(1)), int(m.group(2)), m.group(3), m.group(4), i
                ),
                "sampler": {k: v for k, v in sampler.items() if k != "_line"},
                "sampler_line": sampler.get("_line"),
                "uninterpreted": {},
                "process": len(builds) - 1,
            }
            if pending_len is not None:
                cur["timings"]["prompt_tokens"] = pending_len
                pending_len = None
            if pending_sampling is not None:
                cur["lines"].insert(0, pending_sampling.pop("_line"))
                cur["timings"].update(pending_sampling)
                pending_sampling = None
            found.append(cur)
            if mt:
                by_task[(slot, task)] = cur
            continue
        used = False
        for pat, keys in ((_EVAL, ("predicted_ms", "predicted_n")), (_TOTAL, ("total_ms", "total_n"))):
            m = pat.search(line)
            if m and "prompt eval" not in line:
                used = True
                if target is None:
                    raise IngestError(
                        f"{path}:{i}: '{m.group(0)}' before any 'prompt eval time' line; "
                        "fix: pass the whole log, not an excerpt"
                    )
                _once(path, i, target, keys[0], m.group(0))
                target["timings"][keys[0]] = _time_of(path, i, m.group(0).split("=")[0].strip(), m.group(1))
                if m.group(2):
                    target["timings"][keys[1]] = int(m.group(2))
                if pat is _EVAL:
                    target["inconsistent"] += _rate_check(
                        "eval time", float(m.group(1)), int(m.group(2)), m.group(3), m.group(4), i
                    )
                    printed = rate_definition(int(m.group(2)), float(m.group(1)), m.group(3), m.group(4))
                    if printed is not None:
                        target["timings"]["predicted_rate_definition"] = printed
                target["lines"].append(i)
                break
        m = DRAFT_LINE.search(line)
        if m:
            if target is None:
                raise IngestError(f"{path}:{i}: draft acceptance line before any 'prompt eval time' line")
            _once(path, i, target, "draft_n", "draft acceptance")
            ratio, acc, gen = float(m.group(1)), int(m.group(2)), int(m.group(3))
            if acc > gen:
                raise IngestError(
                    f"{path}:{i}: draft acceptance counts {acc} accepted of {gen} generated: a draft token "
                    "can be accepted only once; the line is corrupt or edited; fix: ingest the log as "
                    "llama-server wrote it"
                )
            if gen and abs(ratio - acc / gen) > 1e-4:
                raise IngestError(
                    f"{path}:{i}: draft acceptance {m.group(1)} disagrees with {acc}/{gen} = "
                    f"{acc / gen:.5f}; "
                    "the line is corrupt or edited (a value rounded by hand); fix: ingest the log as "
                    "llama-server wrote it"
                )
            target["timings"].update({"draft_n": gen, "draft_n_accepted": acc})
            if m.group(4):
                target["timings"]["draft_mean_len"] = float(m.group(4))
            if m.group(5):
                target["timings"]["draft_accept_per_position"] = [
                    float(x) for x in m.group(5).split(",") if x.strip()
                ]
            target["inconsistent"] += _draft_checks(target["timings"], i)
            target["lines"].append(i)
            used = True
        if not used and target is not None and _TIMING_BLOCK.search(line):
            rest = _TIMING_BLOCK.split(line, 1)[-1]
            rest = re.sub(r"^\s*id\s+\d+\s*\|\s*task\s+-?\d+\s*\|?", "", rest).strip(" |")
            if rest:
                target["uninterpreted"][f"line {i}"] = rest
    if pending_sampling is not None and cur is not None:
        cur["lines"].append(pending_sampling.pop("_line"))
        cur["timings"].update(pending_sampling)
    if not found:
        raise IngestError(
            f"{path}: no 'prompt eval time' line; fix: run llama-server with its default log verbosity"
        )
    for log_build in builds:
        if log_build is not None and build_hint is not None and build_hint != log_build[2]:
            raise IngestError(
                f"{path}:{log_build[0]}: --build {build_hint} disagrees with the log's own build line (build "
                f"{log_build[2]}); fix: drop --build (the log states its build) or ingest the right log"
            )
    out = []
    for req in found:
        log_build, own = builds[req["process"]], models[req["process"]]
        number = log_build[2] if log_build else build_hint
        t = req["timings"]
        steps = t.pop("_steps", None)
        notes = []
        if log_build:
            notes.append(f"build {log_build[2]} from the log's line {log_build[0]}")
        if req["sampler"]:
            notes.append(f"generation_settings: the sampler parameters of line {req['sampler_line']}")
        _cache_n_from_log(t)
        if t.get("sampling_ms") is not None and t.get("predicted_ms"):
            t["sampling_share_of_eval"] = t["sampling_ms"] / t["predicted_ms"]
        rec = {
            **origin(
                path,
                "server-log",
                sha,
                req["line"],
                host,
                req["text"],
                notes,
                req["uninterpreted"],
                req["inconsistent"] or None,
            ),
            "experiment": "speculative",
            "model_id": own.get("target") or unknown(sha),
            "timings": t,
            "draft_model_id": own.get("draft"),
            "build_number": number,
            "slot_id": req["slot_id"],
            "task_id": req["task_id"],
            "source_lines": sorted(set(req["lines"])),
        }
        if log_build and log_build[1]:
            rec["build_commit"] = log_build[1]
        if req["sampler"]:
            rec["generation_settings"] = req["sampler"]
        if steps:
            rec["verify_steps"] = float(steps)
        out.append(build_record("speculative_request", rec, path, req["line"]))
    return out


def _cache_n_from_log(t: dict) -> None:
    """Set ``t["prompt_tokens"]`` (the prompt's length) and ``t["cache_n"]`` (prompt tokens served from
    the cache = length − ``prompt_n``) from a request's log lines, in place, when they tell: the trace
    line's ``task.n_tokens``, else ``release_n_tokens − predicted_n + 1`` (the slot holds the prompt and
    every generated token but the last sampled one).  Left unset (unknown) otherwise.

    >>> t = {"prompt_n": 73, "predicted_n": 32, "release_n_tokens": 840}
    >>> _cache_n_from_log(t); t["prompt_tokens"], t["cache_n"]
    (809, 736)
    """
    length = t.get("prompt_tokens")
    if length is None and t.get("release_n_tokens") is not None and t.get("predicted_n"):
        length = int(t["release_n_tokens"]) - int(t["predicted_n"]) + 1
    if length is None or length < int(t["prompt_n"]):
        return
    t["prompt_tokens"] = int(length)
    t["cache_n"] = int(length) - int(t["prompt_n"])

"""Saved llama-server responses -> ``benchbook.speculative_request`` v2, one record per request (origin
ingested, ``source_format`` "server-json").

Read: a ``/completion`` response (``content``, ``tokens``, ``stop_type``, ``generation_settings``,
``timings``), an OpenAI-compatible chat or text completion response of llama-server (``choices``,
``usage``, ``system_fingerprint`` ``b<build>-<commit>``, and llama-server's own ``timings``), or an
exchange holding one of them as ``response`` beside the request's ``request`` body, the server's
``argv`` and the client's own clock (``client``).  A file holds one of these, a JSON array of them or
one per line (JSON lines).

``timings`` keep llama-server's names (tools/server ``result_timings::to_json``: ``cache_n``,
``prompt_n``, ``prompt_ms``, ``prompt_per_token_ms``, ``prompt_per_second``, ``predicted_n``,
``predicted_ms``, ``predicted_per_token_ms``, ``predicted_per_second``, ``draft_n``,
``draft_n_accepted``).  The request's parameters (``n_predict`` or ``max_tokens`` as the cap, the
sampler) are kept where the file has them; a response without ``timings`` has no server times and is
not read (an engine other than llama-server, or a build before ``timings``).

Client records: ``client: {sent, first_content, done}`` (aliases below), each a number of seconds (an
epoch or any common origin: only differences are used) or an ISO 8601 time.  Kept as
``client.first_content_ms`` / ``client.done_ms`` from ``sent``; beside the server's times they say:

* ``client time exceeds server time by 30.1 s (prompt eval 0.2 s): load or queue``: the client waited
  more than the server worked (``prompt_ms + predicted_ms``) by at least ``QUEUE_MIN_S`` and
  ``QUEUE_MIN_SHARE`` of the server time: a queue in front of the server, another client, model loading;
* the end-to-end rate, ``predicted_n`` ÷ the client's wall time, labelled end-to-end (queue, prompt and
  generation together), never a generation speed; the record's decode rate stays the server's.

Checks: ``usage.completion_tokens`` against ``timings.predicted_n`` and ``usage.prompt_tokens`` against
``cache_n + prompt_n`` (flagged in ``inconsistent`` when they disagree); accepted > drafted and a client
clock running backwards are refused (file:line).
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from ..schemas import kind, unknown
from .common import IngestError, build_record, origin

#: client record keys (first name: the documented one)
CLIENT_KEYS = {
    "sent": ("sent", "request_sent", "start", "sent_at"),
    "first_content": ("first_content", "first_token", "first_content_at", "ttft_at"),
    "done": ("done", "end", "done_at", "finished"),
}
#: a client wait beyond the server's time is named when it is at least this long (s) ...
QUEUE_MIN_S = 1.0
#: ... and at least this share of the server's time (HTTP and JSON take milliseconds, not seconds)
QUEUE_MIN_SHARE = 0.1

_FINGERPRINT = re.compile(r"^b(\d+)-([0-9a-f]+)$")
#: the ``request`` body fields the record kind declares (others are kept in ``uninterpreted``)
_REQUEST_FIELDS = {f.name for f in kind("speculative_request").field("request").members}
_TIMING_FIELDS = {f.name for f in kind("speculative_request").field("timings").members}


def _response_of(obj: Any) -> dict | None:
    """The llama-server response inside ``obj`` (itself, or its ``response``) when it has ``timings``."""
    if not isinstance(obj, dict):
        return None
    inner: dict = obj["response"] if isinstance(obj.get("response"), dict) else obj
    return inner if isinstance(inner.get("timings"), dict) else None


def _looks_like_response(obj: Any) -> bool:
    """A saved response of llama-server or of any OpenAI-compatible server (with or without timings)."""
    if not isinstance(obj, dict):
        return False
    inner: dict = obj["response"] if isinstance(obj.get("response"), dict) else obj
    return isinstance(inner.get("timings"), dict) or (
        isinstance(inner.get("choices"), list) and isinstance(inner.get("usage"), dict)
    )


def json_objects(text: str) -> list[tuple[int, Any]] | None:
    """``(line, value)`` of every top-level JSON value of ``text``: the elements of one array, one
    object, or one value per line (JSON lines); None when the text is not JSON throughout."""
    decoder = json.JSONDecoder()
    s = text.strip()
    if not s or s[0] not in "[{":
        return None
    start = text.index(s[0])
    try:
        value, end = decoder.raw_decode(text, start)
    except ValueError:
        value, end = None, -1
    if end != -1 and not text[end:].strip():
        if isinstance(value, list):
            return _array_items(text, start)
        return [(text.count("\n", 0, start) + 1, value)]
    out = []
    torn = torn_last_line(text)
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or i == torn:
            continue
        try:
            out.append((i, json.loads(line)))
        except ValueError:
            return None
    return out


def bad_json_line(text: str) -> tuple[int, str] | None:
    """``(line, decoder message)`` of the first non-empty line of JSON lines ``text`` that does not
    decode as JSON; None when every line does (or the text is blank)."""
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            json.loads(line)
        except ValueError as e:
            return i, str(e)
    return None


def torn_last_line(text: str) -> int | None:
    """The line of a torn last line of JSON lines ``text`` (a response cut off mid-write: every
    earlier non-empty line decodes, the last one does not, and at least one came before it), or None.
    ``json_objects`` reads the lines before it; callers name it (file:line) as not read."""
    numbered = [(i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if len(numbered) < 2 or not numbered[0][1].lstrip().startswith("{"):
        return None
    bad = bad_json_line(text)
    return bad[0] if bad is not None and bad[0] == numbered[-1][0] else None


def _array_items(text: str, start: int) -> list[tuple[int, Any]]:
    """``(line, element)`` of the array starting at ``text[start]`` (a decodable array)."""
    decoder = json.JSONDecoder()
    out: list[tuple[int, Any]] = []
    pos = start + 1
    while True:
        while text[pos] in " \t\r\n,":
            pos += 1
        if text[pos] == "]":
            return out
        value, end = decoder.raw_decode(text, pos)
        out.append((text.count("\n", 0, pos) + 1, value))
        pos = end


def is_responses(text: str) -> bool:
    """Whether ``text`` is saved responses of an OpenAI-compatible or llama-server endpoint (module doc)."""
    objs = json_objects(text) or []
    return bool(objs) and all(_looks_like_response(o) for _, o in objs)


def _seconds(value: Any, path: Path, line: int, name: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            pass
    raise IngestError(
        f"{path}:{line}: client.{name} is {value!r}, neither seconds nor an ISO 8601 time; fix: write the "
        "client's times as numbers of seconds or ISO 8601 times"
    )


def _client(obj: dict, path: Path, line: int) -> dict | None:
    """The client record of an exchange as ``client`` fields (ms from sent), or None without one.

    Raises:
        IngestError: no ``sent`` or ``done``, a value that is no time, or a clock running backwards.
    """
    if not isinstance(obj.get("client"), dict):
        return None
    raw: dict = obj["client"]
    got: dict[str, Any] = {}
    for name, keys in CLIENT_KEYS.items():
        key = next((k for k in keys if k in raw), None)
        if key is not None:
            got[name] = raw[key]
    if "sent" not in got or "done" not in got:
        raise IngestError(
            f"{path}:{line}: the client record names {sorted(raw)}; fix: give at least 'sent' and 'done' "
            f"(aliases: {', '.join(CLIENT_KEYS['sent'] + CLIENT_KEYS['done'])})"
        )
    sent = _seconds(got["sent"], path, line, "sent")
    out: dict[str, Any] = {"sent_at": str(got["sent"])}
    for name in ("first_content", "done"):
        if name not in got:
            continue
        ms = (_seconds(got[name], path, line, name) - sent) * 1000.0
        if ms < 0:
            raise IngestError(
                f"{path}:{line}: client.{name} comes {-ms / 1000:.3f} s before client.sent; fix: save the "
                "client's times as it recorded them"
            )
        out[f"{name}_ms"] = ms
    return out


def client_notes(timings: dict, client: dict) -> list[str]:
    """What the client's clock says beside the server's ``timings`` (module doc): the wait beyond the
    server's time when it is load or queue, the time to first content, and the end-to-end rate."""
    notes = []
    wall = client.get("done_ms")
    server = (timings.get("prompt_ms") or 0.0) + (timings.get("predicted_ms") or 0.0)
    prompt_s = (timings.get("prompt_ms") or 0.0) / 1000.0
    if wall is not None:
        gap = (wall - server) / 1000.0
        if gap >= QUEUE_MIN_S and gap * 1000.0 >= QUEUE_MIN_SHARE * server:
            notes.append(
                f"client time exceeds server time by {gap:.1f} s (prompt eval {prompt_s:.1f} s): "
                "load or queue"
            )
    if client.get("first_content_ms") is not None:
        notes.append(
            f"client: first content after {client['first_content_ms'] / 1000:.1f} s (server prompt eval "
            f"{prompt_s:.1f} s)"
        )
    n = timings.get("predicted_n")
    if wall and n:
        notes.append(
            f"end-to-end rate {n * 1000.0 / wall:.2f} tok/s ({n} tokens / {wall / 1000:.1f} s from request "
            "sent to done, client clock: queue, prompt and generation together; not generation speed)"
        )
    return notes


def _prompt_of(request: dict) -> str | None:
    if isinstance(request.get("prompt"), str):
        return request["prompt"]
    if request.get("messages") is not None:
        return json.dumps(request["messages"], sort_keys=True, ensure_ascii=False)
    return None


def _content_of(resp: dict) -> str | None:
    if isinstance(resp.get("content"), str):
        return resp["content"]
    choices = resp.get("choices") or []
    first = choices[0] if choices and isinstance(choices[0], dict) else {}
    msg: dict = first["message"] if isinstance(first.get("message"), dict) else {}
    text = msg.get("content", first.get("text"))
    return text if isinstance(text, str) else None


def _checks(t: dict, usage: dict, line: int) -> list[str]:
    out = []
    if usage.get("completion_tokens") is not None and t.get("predicted_n") is not None:
        if usage["completion_tokens"] != t["predicted_n"]:
            out.append(
                f"line {line}: usage.completion_tokens {usage['completion_tokens']} but timings.predicted_n "
                f"{t['predicted_n']}"
            )
    if usage.get("prompt_tokens") is not None and t.get("prompt_n") is not None:
        total = t["prompt_n"] + (t.get("cache_n") or 0)
        if usage["prompt_tokens"] != total:
            out.append(
                f"line {line}: usage.prompt_tokens {usage['prompt_tokens']} but cache_n + prompt_n = {total}"
            )
    return out


def _key_line(path: Path, line: int, key: str) -> int:
    """The line of the first ``"key"`` at or after ``line`` in ``path`` (a pretty-printed response
    spans many lines: an error names the field's own), else ``line``."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return line
    return next((i for i in range(line, len(lines) + 1) if f'"{key}"' in lines[i - 1]), line)


def _record(obj: dict, path: Path, sha: str, line: int, host: str | None) -> dict:
    resp = _response_of(obj)
    if resp is None:
        raise IngestError(
            f"{path}:{line}: a response without llama-server 'timings' (no server prompt or generation "
            "times); fix: save llama-server's response whole (its /completion and /v1/chat/completions "
            "responses carry 'timings')"
        )
    t = {k: v for k, v in resp["timings"].items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    for need in ("prompt_n", "prompt_ms"):
        if need not in t:
            raise IngestError(
                f"{path}:{line}: timings lack {need!r}; fix: save llama-server's response whole"
            )
    negative = [k for k, v in t.items() if v < 0]
    if negative:  # a time or a count below 0 cannot be: an edited or corrupt response
        at = _key_line(path, line, negative[0])
        raise IngestError(
            f"{path}:{at}: timings.{negative[0]} is {t[negative[0]]}: a time or count below 0 cannot be; "
            "the response is corrupt or edited; fix: save the response as the server sent it"
        )
    drafted, accepted = t.get("draft_n"), t.get("draft_n_accepted")
    if drafted is not None and accepted is not None and accepted > drafted:
        at = _key_line(path, line, "draft_n_accepted")
        raise IngestError(
            f"{path}:{at}: timings count {accepted} accepted of {drafted} drafted: a draft token is "
            "accepted at most once; the response is corrupt or edited; fix: save the response as the server "
            "sent it"
        )
    request: dict = obj["request"] if isinstance(obj.get("request"), dict) and resp is not obj else {}
    usage: dict = resp["usage"] if isinstance(resp.get("usage"), dict) else {}
    uninterpreted = {
        f"request.{k}": v for k, v in request.items() if k not in _REQUEST_FIELDS and k not in ("messages",)
    }
    uninterpreted |= {f"timings.{k}": v for k, v in resp["timings"].items() if k not in _TIMING_FIELDS}
    notes: list[str] = []
    rec: dict[str, Any] = {}
    fp = _FINGERPRINT.match(str(resp.get("system_fingerprint") or ""))
    if fp:
        rec["build_number"], rec["build_commit"] = int(fp.group(1)), fp.group(2)
        notes.append(f"build {fp.group(1)} from system_fingerprint {resp['system_fingerprint']}")
    prompt = _prompt_of(request)
    if prompt is not None:
        digest = hashlib.sha256(prompt.encode()).hexdigest()
        rec["prompt_text_sha256"], rec["prompt_id"] = digest, digest[:16]
    body = {k: v for k, v in request.items() if k in _REQUEST_FIELDS}
    if body:
        rec["request"] = body
    cap = request.get("n_predict", request.get("max_tokens"))
    if isinstance(cap, int) and not isinstance(cap, bool) and cap > 0:
        rec["cap"] = cap
    finish = ((resp.get("choices") or [{}])[0] or {}).get("finish_reason") if resp.get("choices") else None
    stop_type = resp.get("stop_type") or {"length": "limit"}.get(str(finish))
    if stop_type is not None:
        rec["stop_type"] = stop_type
    if stop_type is not None or finish is not None:  # finish_reason "stop": eos or a stop word, no cap
        rec["cap_hit"] = stop_type == "limit"
    content = _content_of(resp)
    if content is not None:
        rec["content"] = content
        rec["content_sha256"] = hashlib.sha256(content.encode()).hexdigest()
    if isinstance(resp.get("tokens"), list) and resp["tokens"]:
        rec["tokens"] = resp["tokens"]
    for k in ("tokens_predicted", "tokens_evaluated", "truncated"):
        if k in resp:
            rec[k] = resp[k]
    if isinstance(resp.get("generation_settings"), dict):
        rec["generation_settings"] = resp["generation_settings"]
    if isinstance(obj.get("argv"), list):
        rec["argv"] = [str(a) for a in obj["argv"]]
    client = _client(obj, path, line) if resp is not obj else None
    if client is not None:
        rec["client"] = client
        notes += client_notes(t, client)
    model = resp.get("model")
    text = json.dumps(obj, ensure_ascii=False)
    return build_record(
        "speculative_request",
        {
            **origin(
                path,
                "server-json",
                sha,
                line,
                host,
                text,
                notes,
                uninterpreted,
                _checks(t, usage, line) or None,
            ),
            "experiment": "speculative",
            "model_id": Path(model).name if isinstance(model, str) and model else unknown(sha),
            "timings": t,
            "source_lines": [line],
            **rec,
        },
        path,
        line,
    )


def read_responses(path: Path, text: str, host: str | None = None) -> list[dict]:
    """One ``benchbook.speculative_request`` v2 record per saved response of ``text`` (module doc).

    Raises:
        IngestError: the text is not saved responses, a response without timings, impossible counts,
            or a bad client record (file:line and the fix).
    """
    objs = json_objects(text)
    if not objs or not all(_looks_like_response(o) for _, o in objs):
        raise IngestError(
            f"{path}: not saved llama-server responses (a JSON object, array or lines of responses with "
            "'timings'); fix: save the responses whole"
        )
    sha = hashlib.sha256(text.encode()).hexdigest()
    return [_record(o, path, sha, line, host) for line, o in objs]

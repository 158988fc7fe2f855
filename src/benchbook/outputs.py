"""Model outputs behind the speculative-decoding numbers, for the page (escaped, with mismatches marked).

For every prompt and configuration of the sessions the registry cites, ``output_rows`` reads the
``benchbook.speculative_request`` records (``content``, ``content_sha256``, ``tokens``,
``tokens_predicted``) and compares each output with the same-session baseline (``config_id ==
"baseline"``) of the same prompt and repetition, token by token; ``outputs_md`` renders them as a raw
HTML block: the first ``PREVIEW_CHARS`` characters, HTML-escaped, the sha256 and the token count,
and for a mismatch the index of the first diverging token with the text from the first diverging
character highlighted (``<mark>``; the records hold token ids, not per-token text, so the highlight
starts where the decoded texts first differ).  Under greedy decoding a lossless speculative
configuration reproduces the baseline exactly (the ``output_mismatch`` caveat).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .escape import html_text
from .records import jsonl_lines

#: Characters of each output shown on the page.
PREVIEW_CHARS = 300
REQUEST_SCHEMA = "benchbook.speculative_request"


@dataclass(frozen=True)
class OutputRow:
    """One (prompt, configuration, repetition) output: ``content`` (the decoded text), ``sha256`` (the
    record's ``content_sha256``), ``n_tokens`` (``tokens_predicted``), ``stop_type``, and against the
    same-session baseline: ``first_diff_token`` (index of the first differing token id, None when equal
    or for the baseline itself) and ``first_diff_char`` (index of the first differing character);
    ``host_id``: the host that ran it (None where the records do not say)."""

    session_id: str
    prompt_id: str
    config_id: str
    rep: int
    content: str
    sha256: str
    n_tokens: int
    stop_type: str | None
    first_diff_token: int | None
    first_diff_char: int | None
    host_id: str | None = None


def first_difference(a, b) -> int | None:
    """Index of the first position where sequences ``a`` and ``b`` differ (a length difference counts
    at the shorter length); None when equal.

    >>> first_difference([1, 2, 3], [1, 2, 4]), first_difference("ab", "abc"), first_difference("x", "x")
    (2, 2, None)
    """
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def read_requests(raw_file: Path, sessions: set[str]) -> list[dict]:
    """The ``benchbook.speculative_request`` records of ``sessions`` in ``raw_file`` (JSONL).

    Raises:
        ValueError: a line is not JSON (names the file and line; fix: ``benchbook records repair FILE``).
    """
    out = []
    for i, line in enumerate(jsonl_lines(Path(raw_file).read_text(encoding="utf-8")), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(
                f"{raw_file}:{i}: not JSON ({e}); fix: if it is a torn last line, `benchbook records "
                f"repair {raw_file}` moves it aside; otherwise restore the file from git"
            ) from None
        if (
            rec.get("schema") == REQUEST_SCHEMA
            and rec.get("session_id") in sessions
            and rec.get("status") == "ok"
        ):
            out.append(rec)
    return out


def output_rows(requests: list[dict]) -> list[OutputRow]:
    """One row per request, each compared with the baseline of the same session, prompt and repetition;
    sorted by prompt, baseline first, then configuration and repetition."""
    base = {
        (r["session_id"], r["prompt_id"], r["rep"]): r
        for r in requests
        if r["config"]["config_id"] == "baseline"
    }
    rows = []
    for r in requests:
        config = r["config"]["config_id"]
        b = base.get((r["session_id"], r["prompt_id"], r["rep"]))
        diff_token = diff_char = None
        if b is not None and config != "baseline":
            diff_token = first_difference(r.get("tokens") or [], b.get("tokens") or [])
            if diff_token is not None or r["content_sha256"] != b["content_sha256"]:
                diff_char = first_difference(r.get("content") or "", b.get("content") or "")
        rows.append(
            OutputRow(
                r["session_id"],
                r["prompt_id"],
                config,
                int(r["rep"]),
                r.get("content") or "",
                r["content_sha256"],
                int(r.get("tokens_predicted") or len(r.get("tokens") or [])),
                r.get("stop_type"),
                diff_token,
                diff_char,
                r.get("host_id"),
            )
        )
    return sorted(rows, key=lambda o: (o.prompt_id, o.config_id != "baseline", o.config_id, o.rep))


def preview_html(text: str, highlight_from: int | None) -> str:
    """The first ``PREVIEW_CHARS`` characters of ``text`` HTML-escaped, the part from ``highlight_from``
    in ``<mark>``, and ``…`` when cut."""
    cut = text[:PREVIEW_CHARS]
    more = "…" if len(text) > PREVIEW_CHARS else ""
    if highlight_from is None or highlight_from >= len(cut):
        return html_text(cut) + more
    return html_text(cut[:highlight_from]) + "<mark>" + html_text(cut[highlight_from:]) + "</mark>" + more


def reps_label(rows: list[OutputRow], word: str = "repetitions") -> str:
    """The repetitions ``rows`` stand for: ``"repetitions 0,1"`` within one session; across sessions
    each session's own (``"session 4ad89052 repetitions 0,1,2; session 5b481365 repetitions 0,1,2"``),
    since repetition numbers restart in every session (they read ``0,0,0,1,1,1`` pooled).

    >>> from dataclasses import replace
    >>> row = OutputRow("s1aaaaaaaa", "p", "baseline", 0, "", "", 0, None, None, None)
    >>> reps_label([replace(row, rep=1), row])
    'repetitions 0,1'
    >>> reps_label([row, replace(row, session_id="s2bbbbbbbb")], "rep")
    'session s1aaaaaa rep 0; session s2bbbbbb rep 0'
    """
    sessions = sorted({r.session_id for r in rows})
    if len(sessions) == 1:
        return f"{word} " + ",".join(str(r.rep) for r in sorted(rows, key=lambda r: r.rep))
    return "; ".join(
        f"session {sid[:8]} {word} "
        + ",".join(str(r.rep) for r in sorted(rows, key=lambda r: r.rep) if r.session_id == sid)
        for sid in sessions
    )


def baseline_note(base: list[OutputRow], baseline: str = "baseline") -> str:
    """One HTML paragraph when ``base`` (one prompt's baseline rows) holds more than one output (sha256):
    how many, whether the repetitions of one session disagree (greedy decoding not reproducible there)
    or only sessions differ (and on which hosts), and that each configuration is compared with its own
    session's baseline; "" when every baseline output is the same."""
    shas = {b.sha256 for b in base}
    if len(shas) < 2:
        return ""
    inside = sorted(
        {b.session_id[:8] for b in base if len({x.sha256 for x in base if x.session_id == b.session_id}) > 1}
    )
    by_sha = {
        sha: sorted({b.host_id[:8] for b in base if b.sha256 == sha and b.host_id}) for sha in sorted(shas)
    }
    split_by_host = all(by_sha.values()) and sum(map(len, by_sha.values())) == len(
        set().union(*by_sha.values())
    )
    if inside:
        where = f"the repetitions of session{'s' if len(inside) > 1 else ''} {', '.join(inside)} disagree"
    elif split_by_host:
        where = (
            "each session's repetitions agree; the outputs split by host ("
            + "; ".join(f"{sha[:8]}… on {', '.join(h)}" for sha, h in by_sha.items())
            + "): a greedy output can differ between builds and backends"
        )
    else:
        where = "each session's repetitions agree; the sessions differ"
    return (
        f'<p class="bb-mismatch">The {html_text(baseline)} gave {len(shas)} different outputs for this '
        f"prompt: {html_text(where)}. Each configuration is compared with the {html_text(baseline)} of its "
        "own session and repetition.</p>"
    )


def outputs_md(rows: list[OutputRow], baseline: str = "baseline", anchor: str = "out") -> str:
    """Markdown with one raw HTML block per prompt: the baseline output (``config_id == baseline``), then
    per configuration its repetitions grouped by output (sha256, tokens): a diverging output in full
    (first 300 characters) with its first differing token index and the text from there highlighted;
    outputs with exactly the baseline's tokens listed in a collapsed ``<details>``.  ``anchor``: the
    prefix of each prompt heading's id (``<anchor>-<prompt>``)."""
    if not rows:
        return "No outputs in the cited sessions.\n"
    out = []
    for prompt in sorted({r.prompt_id for r in rows}):
        mine = [r for r in rows if r.prompt_id == prompt]
        base = [r for r in mine if r.config_id == baseline]
        parts = [f'<h3 id="{anchor}-{html_text(prompt)}">Prompt <code>{html_text(prompt)}</code></h3>']
        if note := baseline_note(base, baseline):
            parts.append(note)
        for b_sha in sorted({b.sha256 for b in base}):
            b = next(x for x in base if x.sha256 == b_sha)
            reps = reps_label([x for x in base if x.sha256 == b_sha])
            parts.append(
                f"<p><b>{html_text(baseline)}</b> ({reps}): {b.n_tokens} tokens, "
                f"stop {html_text(b.stop_type)}, sha256 <code>{html_text(b.sha256)}</code></p>"
                f'<pre class="bb-output">{preview_html(b.content, None)}</pre>'
            )
        items: list[str] = []
        same: list[str] = []
        for config in sorted({row.config_id for row in mine} - {baseline}):
            runs = [row for row in mine if row.config_id == config]
            for sha in sorted({row.sha256 for row in runs}):
                group = [row for row in runs if row.sha256 == sha]
                first = group[0]
                head = (
                    f"<b>{html_text(config)}</b> ({reps_label(group, 'rep')}): "
                    f"{first.n_tokens} tokens, sha256 <code>{html_text(sha[:16])}…</code>"
                )
                if first.first_diff_token is None and first.first_diff_char is None:
                    same.append(f"<li>{head}</li>")
                    continue
                where = "token " + (
                    str(first.first_diff_token) if first.first_diff_token is not None else "?"
                )
                items.append(
                    f'<li>{head} — <span class="bb-mismatch">differs from the baseline from {where}</span>'
                    f'<pre class="bb-output">{preview_html(first.content, first.first_diff_char)}</pre></li>'
                )
        if items:
            parts.append("<ul>" + "".join(items) + "</ul>")
        if same:  # identical outputs collapsed: each still named with its sha256 and token count
            parts.append(
                f"<details><summary>{len(same)} configuration outputs with exactly the baseline's tokens"
                f"</summary><ul>{''.join(same)}</ul></details>"
            )
        out.append("```{=html}\n" + "".join(parts) + "\n```\n")
    return "\n".join(out)


def speculative_outputs_md(raw_dir: Path, nums: dict[str, dict]) -> str:
    """``outputs_md`` for the sessions the registry's speculative numbers cite, read from ``raw_dir``
    (``data/raw/speculative/*.jsonl``)."""
    sessions = {
        n["session_id"] for n in nums.values() if n.get("experiment") == "speculative" and n.get("session_id")
    }
    requests = [r for f in sorted(Path(raw_dir).glob("*.jsonl")) for r in read_requests(f, sessions)]
    return outputs_md(output_rows(requests))

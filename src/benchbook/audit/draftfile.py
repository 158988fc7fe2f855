"""A draft (``draft.Drafted``) written as a claims file, keeping what the user reviewed.

``write(drafted, out, post_name)`` writes ``out`` (``benchbook.claims`` version 1, the loader's
schema) and the log excerpts into ``<out stem>.logs/`` beside it.  Numbers are written as the post
wrote them (``draft.Num``: ``42.70`` stays ``42.70``, so the loader counts two decimals); every text
is a double-quoted YAML scalar.

Re-running keeps the user's edits: an entry of ``claims``, ``statements`` or ``groups`` already in
``out`` without ``reviewed: false`` (a reviewed entry, or one the user wrote) is kept as it is
written, line for line, and the draft's entry of the same id is not written; an id the draft wrote
before (``draft.drafted``) and the user deleted is not drafted again; the top-level sections the
draft does not write (``source``, ``systems``, ``environments``, ``software``, ``model``,
``settings``, ``conditions``, ``log_pairs``) are kept as the user left them.  Entries still
``reviewed: false`` are replaced by the new draft.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..atomicfile import write_text
from .draft import Drafted, Entry, Num

#: top-level sections the draft writes itself (all others in an existing file are the user's)
_OWN = ("schema", "schema_version", "draft", "claims", "groups", "statements")
_ITEM_SECTIONS = ("claims", "groups", "statements")
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_YAML_WORDS = frozenset("y n yes no on off true false null".split())


def scalar(v) -> str:
    """One value as YAML flow text (module doc)."""
    if isinstance(v, Num):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{key(k)}: {scalar(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(scalar(x) for x in v) + "]"
    text = json.dumps(str(v), ensure_ascii=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\x85", "\\x85")


def key(k) -> str:
    k = str(k)
    return k if _PLAIN_KEY.match(k) and k.lower() not in _YAML_WORDS else scalar(k)


@dataclass
class _Kept:
    """An existing file's parts: top-level sections the user keeps (text), reviewed items per section
    (``(id, source_line, text)``), and the ids every draft wrote."""

    sections: dict[str, str]
    items: dict[str, list[tuple[str, int | None, str]]]
    drafted: set[str]
    guessed: set[str]


def _read_existing(path: Path) -> _Kept:
    """The reviewed parts of an existing claims file at ``path`` (module doc).

    Raises:
        ValueError: ``path`` is not YAML or not a mapping (names the file and the fix).
    """
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as e:
        raise ValueError(
            f"{path}: not YAML ({e}); fix: correct it, or move it away to draft the post afresh"
        ) from None
    kept = _Kept({}, {s: [] for s in _ITEM_SECTIONS}, set(), set())
    if root is None:
        return kept
    if not isinstance(root, yaml.MappingNode):
        raise ValueError(f"{path}: not a claims file (no mapping); fix: move it away to draft afresh")
    starts = [k.start_mark.line for k, _ in root.value] + [len(lines)]
    for i, (k, v) in enumerate(root.value):
        name = k.value
        body = lines[starts[i] : starts[i + 1]]
        if name == "draft":
            data = yaml.safe_load("\n".join(body)) or {}
            kept.drafted = set(((data.get("draft") or {}).get("drafted")) or [])
        elif name in _ITEM_SECTIONS and isinstance(v, yaml.SequenceNode):
            marks = [x.start_mark.line for x in v.value] + [starts[i + 1]]
            for j in range(len(v.value)):
                chunk = lines[marks[j] : marks[j + 1]]
                while chunk and not chunk[-1].strip():
                    chunk.pop()
                data = yaml.safe_load("\n".join(_dedent(chunk)))
                data = data[0] if isinstance(data, list) and data else data
                if not isinstance(data, dict):
                    continue
                iid = str(data.get("id", f"{name}-{j}"))
                if data.get("reviewed") is False:
                    kept.guessed.add(iid)
                    continue
                sl = data.get("source_line")
                kept.items[name].append((iid, sl if isinstance(sl, int) else None, "\n".join(chunk)))
                if name == "groups":
                    kept.items.setdefault("group-rows", []).extend(
                        (str(r[0]), None, "") for r in ((data.get("table") or {}).get("rows") or []) if r
                    )
                    kept.items["group-rows"].extend(
                        (str(c.get("id")), None, "")
                        for c in (data.get("claims") or [])
                        if isinstance(c, dict)
                    )
        elif name not in _OWN:
            kept.sections[name] = "\n".join(body).rstrip() + "\n"
    return kept


def _dedent(chunk: list[str]) -> list[str]:
    """A list item's lines as a YAML document of their own (a ``- `` item at its indent)."""
    first = chunk[0]
    indent = len(first) - len(first.lstrip())
    return [ln[indent:] if ln[:indent].strip() == "" else ln for ln in chunk]


def _entry_text(e: Entry) -> str:
    fields = dict(e.fields)
    fields["reviewed"] = False
    return "  - " + scalar(fields)


def _group_text(g, rows: list[Entry]) -> str:
    cols = ["id", "value"]
    extra = [k for k in ("about", "range", "spread") if any(k in r.fields for r in rows)]
    if any("range" in r.fields for r in rows):
        cols = ["id"]
    cols += [k for k in extra if k not in cols]
    cond_cols: list[str] = []
    for r in rows:
        for path in _paths(r.fields.get("conditions", {})):
            if path not in cond_cols:
                cond_cols.append(path)
    tail = ["log"] if any("log" in r.fields for r in rows) else []
    cols += (
        [c.split(".")[-1] if c.startswith("offload.") else c for c in cond_cols]
        + tail
        + ["source_line", "quote"]
    )
    out = [f"  - id: {key(g.id)}"]
    for k, v in g.fields.items():
        out.append(f"    {key(k)}: {scalar(v)}")
    out.append("    reviewed: false")
    out.append("    table:")
    out.append(f"      columns: {scalar(cols)}")
    out.append("      rows:")
    for r in rows:
        cells = []
        for c in cols:
            if c in r.fields:
                cells.append(r.fields[c])
            else:
                found = next((p for p in cond_cols if p == c or p == f"offload.{c}"), None)
                cells.append(_get(r.fields.get("conditions", {}), found) if found else None)
        out.append(f"        - {scalar(cells)}")
    return "\n".join(out)


def _paths(d: dict, prefix: str = "") -> list[str]:
    out = []
    for k, v in d.items():
        if isinstance(v, dict) and k in ("offload", "other"):
            out += _paths(v, f"{prefix}{k}.")
        else:
            out.append(f"{prefix}{k}")
    return out


def _get(d: dict, path: str):
    for p in path.split("."):
        if not isinstance(d, dict):
            return None
        d = d.get(p)  # type: ignore[assignment]
    return d


def render(drafted: Drafted, post_name: str, existing: Path | None = None) -> tuple[str, list[str]]:
    """The claims-file text of ``drafted`` merged with the reviewed parts of ``existing`` (module
    doc), and the ids of the entries written as guesses (``reviewed: false``)."""
    kept = (
        _read_existing(existing)
        if existing is not None and existing.exists()
        else _Kept({}, {}, set(), set())
    )
    kept_ids = {i for items in kept.items.values() for i, _, _ in items}
    deleted = kept.drafted - kept_ids - kept.guessed
    skip = kept_ids | deleted
    entries = [e for e in drafted.entries if e.id not in skip and (e.group is None or e.group not in skip)]
    written = {e.id for e in entries} | kept_ids
    for e in entries:  # a statement citing a claim the user deleted: a todo with what is left
        if e.kind == "statement" and any(ref not in written for ref in e.fields.get("of", [])):
            e.kind = "todo"
            e.fields = {"id": e.id, "todo": "a side was deleted: name the two sides in `of`", **e.fields}
            e.fields["of"] = [r for r in e.fields.get("of", []) if r in written]
        elif e.kind == "todo":
            e.fields["of"] = [r for r in e.fields.get("of", []) if r in written]
    guessed = [e.id for e in entries]
    groups = [g for g in drafted.groups if g.id not in skip and any(e.group == g.id for e in entries)]
    guessed += [g.id for g in groups]
    out = [
        f"# Drafted by `benchbook claims draft` from {post_name}. Every entry with `reviewed: false` is a",
        "# guess: check it against its quote, fix it, and set `reviewed: true` (or delete the line); a",
        "# reviewed entry is never overwritten when the post is drafted again.",
        "schema: benchbook.claims",
        "schema_version: 1",
    ]
    if "source" not in kept.sections:
        title = f", title: {scalar(drafted.title)}" if drafted.title else ""
        out.append(f"source: {{kind: post{title}, note: {scalar('drafted from ' + post_name)}}}")
    for text in kept.sections.values():
        out.append(text.rstrip("\n"))
    all_ids = sorted(kept.drafted | set(guessed) | {i for i in kept_ids if i in kept.drafted})
    draft = {
        "post": post_name,
        "drafted": all_ids,
        "unplaced": [{"line": ln, "number": num, "text": t} for ln, num, t in drafted.unplaced],
    }
    out.append("draft:")
    out.append(f"  post: {scalar(draft['post'])}")
    out.append(f"  drafted: {scalar(draft['drafted'])}")
    out.append("  unplaced:" + ("" if draft["unplaced"] else " []"))
    out += [f"    - {scalar(u)}" for u in draft["unplaced"]]

    def section(name: str, new: list[tuple[int | None, str]]) -> None:
        items = [(sl, text) for _, sl, text in kept.items.get(name, [])] + new
        if not items:
            return
        out.append(f"{name}:")
        order = sorted(range(len(items)), key=lambda i: (items[i][0] is None, items[i][0] or 0, i))
        out.extend(items[i][1] for i in order)

    section(
        "claims",
        [
            (e.fields.get("source_line"), _entry_text(e))
            for e in entries
            if e.kind == "claim" and e.group is None
        ],
    )
    section(
        "groups",
        [(g.line, _group_text(g, [e for e in entries if e.group == g.id])) for g in groups],
    )
    section(
        "statements",
        [(e.fields.get("source_line"), _entry_text(e)) for e in entries if e.kind in ("statement", "todo")],
    )
    return "\n".join(out) + "\n", guessed


def write(drafted: Drafted, out: Path, post_name: str) -> list[str]:
    """Write the claims file ``out`` (merged with the reviewed parts of an existing one, module doc)
    and the log excerpts into ``<out stem>.logs/`` (an excerpt already there is kept: the user may
    have replaced it with the whole log); returns the ids written as guesses.

    Raises:
        ValueError: an existing ``out`` that is not YAML (names it and the fix).
        OSError: ``out`` cannot be written.
    """
    text, guessed = render(drafted, post_name, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_text(out, text)
    if drafted.logs:
        logs = out.with_name(out.stem + ".logs")
        logs.mkdir(exist_ok=True)
        for name, body in drafted.logs.items():
            if not (logs / name).exists():
                write_text(logs / name, body)
    return guessed

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
``reviewed: false`` are replaced by the new draft, unless the user edited one (its text differs
from what the last draft wrote): that one is kept as the user's, and a note says so.

Drafted ids name a line (``decode-tps-l48``), and the post's lines move when the user edits it. So
what an entry is, is its quote, metric, kind, value and unit, never its line: ``draft.sums``
records, per id the draft wrote, digests of that (``_keys``) and of the whole entry as written. A
re-draft gives the entry of the same quote, metric and value (``_match``; the nearest line where
several; for a kept entry, or a guess one cites, whose sentence the user edited around its number,
the one entry of its number, metric, kind and run on its line, ``_number_key``, ``_same_run``) the
old id of every entry that must keep its name: a kept entry, a deleted one, and a guess that a kept
entry cites (a statement's ``of``, any id in a kept entry), so a reference never moves to another
number. A guess a kept entry cites that the post no longer holds (its number changed or gone) stops
the draft with an error naming both (``_check_cited``), never re-pointed silently. A table's group
is named by its place (``t1-…``) and is what its metric, unit and rows' quotes and values are
(``_match_groups``): a table added above a kept one takes a fresh id, and the kept one is not
drafted again.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..atomicfile import write_text
from ..errors import read_utf8
from ..ingest.read import read_source
from ..numfmt import counted
from . import schema
from .draft import draft_text
from .draftcore import Drafted, Entry, Num
from .post import html_to_text, is_html

#: libyaml's safe loader where PyYAML was built with it (ten times the pure-Python one), else that
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: the comment a draft opens with (an existing file's own opening comments are kept instead)
_HEADER = (
    "# Drafted by `benchbook claims draft` from {post}. Every entry with `reviewed: false` is a",
    "# guess: check it against its quote, fix it, and set `reviewed: true` (or delete the line); a",
    "# reviewed entry is never overwritten when the post is drafted again.",
)
#: top-level sections the draft writes itself (all others in an existing file are the user's)
_OWN = ("schema", "schema_version", "draft", "claims", "groups", "statements")
_ITEM_SECTIONS = ("claims", "groups", "statements")
#: characters written as ``\\uXXXX`` escapes inside a double-quoted scalar: those YAML may not hold
#: raw (C1 controls, surrogates, U+FFFE/U+FFFF; YAML 1.1 §5.1) and the line breaks U+0085,
#: U+2028, U+2029, which YAML folds
_NOT_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_YAML_WORDS = frozenset("y n yes no on off true false null".split())


def scalar(v) -> str:
    """One value as YAML flow text (module doc)."""
    if isinstance(v, Num):
        return ascii_number(str(v))
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
    return _NOT_YAML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def ascii_number(text: str) -> str:
    """A number as written, in the digits YAML reads: full-width and other Unicode decimal digits
    ("１２３", "١٢٣") as ASCII digits, a full-width point as ".", U+2212 as "-" (a post's "１２３
    tok/s" wrote ``value: １２３``, a string, and the drafted file did not load)."""
    text = unicodedata.normalize("NFKC", text).replace("\u2212", "-")
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else c for c in text)


def key(k) -> str:
    k = str(k)
    return k if _PLAIN_KEY.match(k) and k.lower() not in _YAML_WORDS else scalar(k)


@dataclass
class _Kept:
    """An existing file's parts: top-level sections the user keeps (text), reviewed items per section
    (``(id, source_line, text)``), the ids every draft wrote, and the ``(source_line, quote)`` of each
    reviewed claim and statement."""

    sections: dict[str, str]
    items: dict[str, list[tuple[str, int | None, str]]]
    drafted: set[str]
    guessed: set[str]
    quotes: dict[str, tuple[int | None, str | None]] = field(default_factory=dict)
    #: id -> ``(section, the entry as read)`` of every claim and statement of the file (guesses too)
    data: dict[str, tuple[str, dict]] = field(default_factory=dict)
    #: id -> ``[exact key, loose key, written digest]`` of ``draft.sums`` (``_keys``)
    sums: dict[str, list[str]] = field(default_factory=dict)
    #: id of a kept entry -> the ids of the file's other entries its text names (``of``, any field)
    cites: dict[str, list[str]] = field(default_factory=dict)
    #: guesses the user edited (``reviewed: false`` but not as drafted): kept as the user's
    edited: list[str] = field(default_factory=list)
    #: id -> the ``groups:`` entry as read, of every group of the file (``_old_group_keys``)
    groups: dict[str, dict] = field(default_factory=dict)
    #: id of a kept entry -> the new quote of its line, where the user edited the sentence around
    #: its number (``_match``): said in a note, the entry kept as written
    requoted: dict[str, str] = field(default_factory=dict)
    #: top-level key -> the user's comment lines right above it ("# checked against the log" over
    #: ``claims:``), written above it again (``_leads``)
    leads: dict[str, str] = field(default_factory=dict)


def _read_existing(path: Path) -> _Kept:
    """The reviewed parts of an existing claims file at ``path`` (module doc).

    Raises:
        ValueError: ``path`` is not YAML or not a mapping (names the file and the fix).
    """
    text = read_utf8(
        path,
        ", so it is no claims file to merge into",
        "name another file with -o, or move this one away to draft afresh",
    )
    lines = text.splitlines()
    try:
        # the audit's reading first: a tag, an alias, a duplicate key, a key that is a list, nesting
        # past its limit are refused with their line (the merge below met them as tracebacks)
        tree = schema.read_yaml(path, text)
        root = yaml.compose(text, Loader=_FAST_LOADER)
    except schema.ClaimsError as e:
        raise ValueError(f"{e}, or move the file away to draft the post afresh") from None
    except yaml.YAMLError as e:
        raise ValueError(
            f"{path}: not YAML ({e}); fix: correct it, or move it away to draft the post afresh"
        ) from None
    kept = _Kept({}, {s: [] for s in _ITEM_SECTIONS}, set(), set())
    if root is None:
        if any(ln.strip() for ln in lines):
            kept.sections["#"] = text.rstrip() + "\n"  # a file of comments only: the user's notes, kept
        return kept
    if not isinstance(root, yaml.MappingNode):
        raise ValueError(f"{path}: not a claims file (no mapping); fix: move it away to draft afresh")
    if root.flow_style:
        # the whole file one flow mapping ({schema: …, claims: [...]}): no section to keep apart
        raise ValueError(
            f"{path}:{root.start_mark.line + 1}: the claims file is one flow mapping {{...}}; nothing "
            "written; fix: write its top-level keys one per line (schema:, source:, claims:, …), as the "
            "drafter and `yaml.safe_dump(data, sort_keys=False)` do, then draft again"
        )
    # a document's end marker ("...", PyYAML's explicit_end) is no part of the entry above it
    lines = ["" if ln.rstrip() == "..." else ln for ln in lines]
    named = next((v for k, v in root.value if k.value == "schema"), None)
    if root.value and not (isinstance(named, yaml.ScalarNode) and named.value == "benchbook.claims"):
        # another YAML file (-o params.yaml): a merge would rewrite it with a claims file around its text
        raise ValueError(
            f"{path}: not a claims file (no `schema: benchbook.claims`), so it is not merged into or "
            "overwritten; fix: name another file with -o, or move this one away to draft afresh"
        )
    head = lines[: root.value[0][0].start_mark.line] if root.value else []
    # the drafter's own header, as it wrote it ("Drafted by … from POST", its two lines after)
    ours = {ln.strip() for ln in _HEADER[1:]}
    own = [
        ln
        for ln in head
        if ln.strip()
        and ln.strip() not in ours
        and not ln.startswith("# Drafted by `benchbook claims draft`")
    ]
    if own:
        # the user's own opening comments, or lines they added to the drafter's header: kept as written
        kept.sections["#"] = "\n".join(head).rstrip() + "\n"
    starts = [k.start_mark.line for k, _ in root.value] + [len(lines)]
    # the comments right above a key are that key's (kept above it), not the end of the section before
    ends = list(starts[1:])
    for i, (k, _) in enumerate(root.value):
        first = _leads(lines, starts[i], starts[i - 1] if i else len(head))
        if i and first is not None:
            kept.leads[k.value] = "\n".join(lines[first : starts[i]]).rstrip() + "\n"
            ends[i - 1] = first
    guesses: list[tuple[str, str, int | None, str, dict, list[str]]] = []
    for i, (k, v) in enumerate(root.value):
        name = k.value
        body = lines[starts[i] : ends[i]]
        if name == "draft":
            draft = tree[name] if isinstance(tree[name], dict) else {}
            kept.drafted = _ids(draft.get("drafted"))
            sums = draft.get("sums")
            if isinstance(sums, dict):  # id -> "exact loose written" (``_keys``, ``_digest``)
                # (a fourth digest, of its number apart from its quote, since session 75: ``_number_key``)
                kept.sums = {str(d): str(x).split() for d, x in sums.items() if len(str(x).split()) in (3, 4)}
        elif name in _ITEM_SECTIONS and not isinstance(v, yaml.SequenceNode) and not _null(v):
            # "claims: {id: …}" (one entry written as a mapping), "claims: see below": the audit
            # refuses it, and a merge would drop it without a word
            raise ValueError(
                f"{path}:{v.start_mark.line + 1}: {name}: a list of entries is needed, got "
                f"{'a mapping' if isinstance(v, yaml.MappingNode) else 'a single value'}; nothing written; "
                f"fix: write each entry as a list item (`{name}:` then `  - {{id: …}}`), then draft again"
            )
        elif name in _ITEM_SECTIONS and isinstance(v, yaml.SequenceNode):
            marks = [x.start_mark.line for x in v.value] + [ends[i]]
            if v.value and marks[0] > starts[i]:
                marks[0] = starts[i] + 1  # comments between `claims:` and its first item stay with it
            for j in range(1, len(v.value)):
                # comments right above an item, blank lines between or not, are that item's ("# NOTE:
                # confirmed on Discord"), not the end of the one before (which a new guess may replace)
                k, first = marks[j], None
                while k - 1 > marks[j - 1] and (
                    not lines[k - 1].strip() or lines[k - 1].lstrip().startswith("#")
                ):
                    k -= 1
                    if lines[k].strip():
                        first = k
                if first is not None:
                    marks[j] = first
            for j in range(len(v.value)):
                chunk = lines[marks[j] : marks[j + 1]]
                while chunk and not chunk[-1].strip():
                    chunk.pop()
                # the item as the whole file reads it (each item's text read on its own lost the
                # anchor an alias names, and met a tag as a traceback)
                data = tree[name][j]
                node = v.value[j]
                written = _item_text(path, chunk, data, text[node.start_mark.index : node.end_mark.index])
                if not isinstance(data, dict):  # the user's own (`- some text`): kept, the audit names it
                    kept.items[name].append((f"{name}-{j}", None, written))
                    continue
                iid = str(data.get("id", f"{name}-{j}"))
                rows = _group_ids(data) if name == "groups" else []
                sl = data.get("source_line") if name != "groups" else _group_line(data)
                if name != "groups":
                    kept.data[iid] = (name, data)
                else:
                    kept.groups[iid] = data
                if data.get("reviewed") is False:
                    guesses.append((name, iid, sl if isinstance(sl, int) else None, written, data, rows))
                    continue
                _keep(kept, name, iid, sl, written, data, rows)
        elif name not in _OWN:
            kept.sections[name] = kept.leads.pop(name, "") + "\n".join(body).rstrip() + "\n"
    for name, iid, sl, text, data, rows in guesses:
        sums = kept.sums.get(iid)
        if sums is not None and sums[2] != _digest(data):  # the user edited it, left it a guess
            kept.edited.append(iid)
            _keep(kept, name, iid, sl, text, data, rows)
        else:
            kept.guessed.update([iid, *rows])
    ids = kept.drafted | set(kept.data)
    for iid, (_, data) in kept.data.items():
        if iid not in kept.guessed:
            kept.cites[iid] = sorted(_named(data, ids - {iid}))
    return kept


def _group_line(group: dict) -> int | None:
    """The first ``source_line`` of a ``groups:`` entry's rows (its table's place in the post, as a
    drafted group is ordered by it): a reviewed group stays among the others, not last."""
    table = group.get("table")
    if not isinstance(table, dict) or not isinstance(table.get("columns"), list):
        return None
    columns = table["columns"]
    if "source_line" not in columns:
        return None
    k = columns.index("source_line")
    lines = [
        r[k] for r in table.get("rows") or [] if isinstance(r, list) and k < len(r) and type(r[k]) is int
    ]
    return min(lines) if lines else None


def _leads(lines: list[str], start: int, floor: int) -> int | None:
    """The first of the comment lines right above line ``start`` (a top-level key), blank lines between
    them allowed, none above ``floor``; a comment written at the line's start ("# my notes"), not an
    item's indented one.  None where no comment stands right above."""
    k, first = start, None
    while k - 1 >= floor and (not lines[k - 1].strip() or lines[k - 1].startswith("#")):
        k -= 1
        if lines[k].strip():
            first = k
    return first


def _null(node: yaml.Node) -> bool:
    """Whether a YAML node is empty: ``claims:`` with nothing after it (null, ``~``)."""
    return isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null")


def _item_text(path: Path, chunk: list[str], data: object, node: str) -> str:
    """An item of an existing file (``path``) as the merge writes it back, read again as the audit
    reads it (``schema.read_yaml``) to the same ``data``: its own lines (comments above it kept)
    where they hold that item alone in a block list, indented as the drafter indents (``  - ``: a
    file saved by PyYAML writes ``- id:`` at column 0, a hand-edited one may indent by 4); else its
    text as written (``node``: an item of a flow list ``claims: [{…}, {…}]``, on one line or several,
    joined into one line), so its numbers keep their digits ("42.70") and its strings their quotes.

    Raises:
        ValueError: neither reads back as the item (a flow item holding a comment): names the file,
            its line and the fix.
    """

    def reads(text: str) -> bool:
        try:
            return schema.read_yaml(path, text) == [data]
        except (schema.ClaimsError, yaml.YAMLError):
            return False

    body = [ln for ln in chunk if ln.strip() and not ln.lstrip().startswith("#")]
    if body and body[0].lstrip().startswith("- "):
        cut = min(len(ln) - len(ln.lstrip()) for ln in body)
        lines = [ln[cut:] if ln[:cut].isspace() or not ln[:cut] else ln.lstrip() for ln in chunk]
        if reads("\n".join(lines)):
            return "\n".join(f"  {ln}" if ln else ln for ln in lines)
    one = re.sub(r"\s*\n\s*", " ", node.strip())
    if reads(f"- {one}"):
        return f"  - {one}"
    raise ValueError(
        f"{path}: an entry could not be kept as written ({one[:80]!r}); nothing written; fix: write "
        "each entry of claims:, statements: and groups: as its own list item (`  - {id: …}`), then "
        "draft again"
    )


def _keep(kept: _Kept, name: str, iid: str, sl, text: str, data: dict, rows: list[str]) -> None:
    """Record an entry of the file kept as it is written (reviewed, the user's, or an edited guess)."""
    kept.items[name].append((iid, sl if isinstance(sl, int) else None, text))
    quote = data.get("quote")
    kept.quotes[iid] = (sl if isinstance(sl, int) else None, quote if isinstance(quote, str) else None)
    kept.items.setdefault("group-rows", []).extend((r, None, "") for r in rows)


def _named(x: object, ids: set[str]) -> set[str]:
    """The strings of ``x`` (nested lists and mappings, keys too) that are one of ``ids``: the ids an
    entry cites, in whatever field (``of``, a field of the user's own)."""
    if isinstance(x, str):
        return {x} & ids
    if isinstance(x, dict):
        return set().union(*(_named(k, ids) | _named(v, ids) for k, v in x.items()))
    if isinstance(x, list):
        return set().union(*(_named(v, ids) for v in x))
    return set()


def _digest(x: object) -> str:
    """A short digest of ``x`` (JSON of sorted keys; numbers as floats: ``42.70`` and ``42.7`` are one)."""
    text = json.dumps(_plain(x), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def _plain(x: object) -> object:
    """``x`` with every number a float (a ``Num`` as the float YAML reads it) and tuples lists."""
    if isinstance(x, Num):
        try:
            return float(ascii_number(str(x)))
        except ValueError:
            return str(x)
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return str(x)


def _keys(section: str, fields: dict) -> tuple[str, str]:
    """``(exact, loose)``: what a claim or statement is, whatever its id and line.  Exact: its
    section, metric, kind, value (or range), unit and quote; loose: the same without value, range
    and unit (a reviewed entry whose number the user corrected, in a file drafted before
    ``draft.sums``)."""
    what = [section, fields.get("metric"), fields.get("kind"), fields.get("quote")]
    number = [fields.get("value"), fields.get("range"), fields.get("unit")]
    return _digest([*what, *number]), _digest(what)


def _group_keys(metric: object, unit: object, rows: list[tuple[object, object]]) -> tuple[str, str]:
    """``(exact, loose)`` of a table's group, as ``_keys`` of a claim: its metric, unit and rows'
    ``(quote, value)``; loose: without the unit and values.  A table is the same table whatever its
    ``tN`` and lines: a table added above it renumbered it, and a reviewed group kept its id while the
    new table under that id was dropped and the old one drafted again under the next."""
    return (
        _digest(["groups", metric, unit, [list(r) for r in rows]]),
        _digest(["groups", metric, [q for q, _ in rows]]),
    )


def _group_item_keys(item: dict) -> tuple[str, str]:
    """``_group_keys`` of a ``groups:`` entry as the file holds it (its ``claims`` and table rows)."""
    rows: list[tuple[object, object]] = []
    claims = item.get("claims")
    for c in claims if isinstance(claims, list) else []:
        if isinstance(c, dict):
            rows.append((c.get("quote"), c.get("value")))
    table = item.get("table")
    cols = table.get("columns") if isinstance(table, dict) else None
    cols = cols if isinstance(cols, list) else []
    if isinstance(table, dict) and isinstance(table.get("rows"), list):
        for r in table["rows"]:
            if isinstance(r, list) and len(r) == len(cols):
                cell = dict(zip(cols, r, strict=True))
                rows.append((cell.get("quote"), cell.get("value")))
    return _group_keys(item.get("metric"), item.get("unit"), rows)


def _old_group_keys(kept: _Kept, iid: str) -> tuple[str, str] | None:
    """The ``(exact, loose)`` keys of the old group ``iid``: as the file holds it, else as the draft
    wrote it (``draft.sums``; a file drafted before groups had keys holds "-"); None when unknown."""
    if iid in kept.groups:
        return _group_item_keys(kept.groups[iid])
    if iid in kept.sums and kept.sums[iid][0] != "-":
        return kept.sums[iid][0], kept.sums[iid][1]
    return None


def _match_groups(
    kept: _Kept, groups: list, entries: list[Entry], names: set[str], taken: set[str]
) -> dict[str, str]:
    """The new draft's group ids (and their rows' ids) as the old names, as ``_match`` does for
    claims: an old group that must keep its name names the new group of the same exact key
    (``_group_keys``), else of the same loose key; a new group left whose id is such a name (another
    table now holds that number ``tN``) gets the id an earlier draft gave it (same exact key), else a
    fresh id ``X-2``, its rows renamed with it.  An old name
    whose keys are unknown (a file drafted before groups had keys) stays with the group of its id."""
    rows_of: dict[str, list[Entry]] = {}
    for e in entries:
        if e.group is not None:
            rows_of.setdefault(e.group, []).append(e)
    new_keys = {
        g.id: _group_keys(
            g.fields.get("metric"),
            g.fields.get("unit"),
            [(r.fields.get("quote"), r.fields.get("value")) for r in rows_of.get(g.id, [])],
        )
        for g in groups
    }
    # new keys in the form the file reads back (numbers as floats): ``_digest`` does that for both
    final: dict[str, str] = {}
    done: set[str] = set()
    olds = {old: keys for old in sorted(names) if (keys := _old_group_keys(kept, old)) is not None}
    for tier in (0, 1):
        for old, keys in olds.items():
            if old in final.values():
                continue
            g = next((g for g in groups if g.id not in done and new_keys[g.id][tier] == keys[tier]), None)
            if g is not None:
                done.add(g.id)
                final[g.id] = old
    # the id an earlier draft gave a guessed group of the same exact key: ids stay put from run to run
    prior = {
        keys[0]: old
        for old in sorted(kept.guessed - names, reverse=True)
        if (keys := _old_group_keys(kept, old)) is not None
    }
    for g in groups:
        if g.id in done or g.id not in names or g.id not in olds:
            continue
        was = prior.pop(new_keys[g.id][0], None)
        k = 2
        while f"{g.id}-{k}" in taken:
            k += 1
        final[g.id] = was if was is not None and was not in final.values() else f"{g.id}-{k}"
        taken.add(final[g.id])
    for gid, new in list(final.items()):
        for r in rows_of.get(gid, []):
            if r.id.startswith(gid):
                final[r.id] = new + r.id[len(gid) :]
    return final


def _ids(drafted: object) -> set[str]:
    """The ids of a ``draft.drafted`` list as the user left it: its names and numbers (a list or
    mapping in it, or a ``drafted:`` that is no list, raised TypeError or AttributeError)."""
    items = drafted if isinstance(drafted, list) else []
    return {str(x) for x in items if isinstance(x, (str, int, float)) and not isinstance(x, bool)}


def _group_ids(group: dict) -> list[str]:
    """The ids of the claims a ``groups:`` entry lists (its ``claims`` and its table's ``id`` column);
    a ``claims``, ``table``, ``columns`` or ``rows`` of another type than the schema's lists none."""
    claims = group.get("claims")
    ids = [str(c.get("id")) for c in (claims if isinstance(claims, list) else []) if isinstance(c, dict)]
    table = group.get("table")
    cols = table.get("columns") if isinstance(table, dict) else None
    cols = cols if isinstance(cols, list) else []
    if isinstance(table, dict) and "id" in cols and isinstance(table.get("rows"), list):
        at = cols.index("id")
        ids += [str(r[at]) for r in (table.get("rows") or []) if isinstance(r, list) and len(r) > at]
    return ids


def _entry_text(e: Entry) -> str:
    fields = dict(e.fields)
    fields["reviewed"] = False
    return "  - " + scalar(fields)


def _group_text(g, rows: list[Entry]) -> str:
    # a value column when any row states one, a range column when any states a range: a table of
    # both (">50 tok/s", "30-50 tok/s") lost its value column and wrote a file that did not load
    cols = ["id", "value"] if any("value" in r.fields for r in rows) or not rows else ["id"]
    if any("metric" in r.fields for r in rows):  # a cell whose metric is not its column's
        cols.insert(1, "metric")
    # a cell in another unit than its column's ("223 ms" under "6.9 秒": the others' cells null)
    cols += ["unit"] if any("unit" in r.fields for r in rows) else []
    cols += [k for k in ("about", "range", "spread") if any(k in r.fields for r in rows)]
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


def _old_keys(kept: _Kept, iid: str) -> tuple[str, str] | None:
    """The ``(exact, loose)`` keys of the old entry ``iid``: as the draft wrote it (``draft.sums``),
    else as the file holds it; None for an id known by name alone (deleted before sums were kept)."""
    if iid in kept.sums:
        return kept.sums[iid][0], kept.sums[iid][1]
    if iid in kept.data:
        return _keys(*kept.data[iid])
    return None


def _section(e: Entry) -> str:
    return "claims" if e.kind == "claim" else "statements"


def _match(kept: _Kept, entries: list[Entry], kept_ids: set[str]) -> tuple[dict[str, str], set[str]]:
    """The new draft's ids as the old names (module doc): ``(drafted id -> its final id, the old ids
    that must keep their name)``.

    An old id that must keep its name (kept, deleted, or a guess a kept entry cites) names the new
    entry of the same exact key (``_keys``), else of the same loose key, the nearest line where
    several.  A new entry left whose id is such a name (the number now on that line is another) is
    given the id an earlier draft gave its guess (same exact key), else a fresh id ``X-2`` (the first
    free), never dropped or merged; ids stay put from run to run."""
    deleted = kept.drafted - kept_ids - kept.guessed
    cited = {c for cs in kept.cites.values() for c in cs} & kept.guessed
    names = kept_ids | deleted | cited
    loose_of: dict[str, list[Entry]] = {}
    exact_of: dict[str, list[Entry]] = {}
    for e in entries:
        if e.group is None:
            exact, loose = _keys(_section(e), e.fields)
            exact_of.setdefault(exact, []).append(e)
            loose_of.setdefault(loose, []).append(e)
    final: dict[str, str] = {}
    done: set[int] = set()
    olds = sorted(names & (set(kept.sums) | set(kept.data)))
    for tier in (0, 1):
        for old in olds:
            if old in final.values():
                continue
            keys = _old_keys(kept, old)
            cands = (
                [e for e in (exact_of, loose_of)[tier].get(keys[tier], []) if id(e) not in done]
                if keys
                else []
            )
            if not cands:
                continue
            sl = kept.data[old][1].get("source_line") if old in kept.data else _line_of_id(old)
            sl = sl if isinstance(sl, int) else 0
            e = min(
                cands,
                key=lambda c: (
                    abs(int(c.fields.get("source_line") or 0) - sl),
                    c.fields.get("source_line") or 0,
                ),
            )
            done.add(id(e))
            final[e.id] = old
    # a kept entry whose sentence the user edited around its number ("2x faster" -> "3x faster"
    # after "190.6 tok/s"): the one new entry of its number, metric and kind on its line, its quote
    # changed; kept as written, not drafted again as a second claim of the same number
    # (and a guess a kept entry cites, of its line so edited: drafted again under its name, the
    # citing entry's reference kept)
    # (its number as the draft wrote it, where ``draft.sums`` holds it: a number the user corrected
    # since, and an entry the user deleted, whose line was edited too, are still that entry)
    for old in olds:
        if old in final.values():
            continue
        section, fields = kept.data.get(old, ("", {}))
        at = fields.get("source_line") if old in kept.data else _line_of_id(old)
        drafted_as = kept.sums.get(old, [])
        want = drafted_as[3] if len(drafted_as) == 4 and drafted_as[3] != "-" else None
        want = want or (_number_digest(section, fields) if old in kept.data else None)
        same = [
            e
            for e in entries
            if e.group is None
            and id(e) not in done
            and e.fields.get("source_line") == at
            and _number_digest(_section(e), e.fields) == want
            and _same_run(fields, e.fields)
        ]
        if isinstance(at, int) and want is not None and len(same) == 1:
            done.add(id(same[0]))
            final[same[0].id] = old
            if old in kept_ids:
                kept.requoted[old] = str(same[0].fields.get("quote") or "")
    taken = {e.id for e in entries} | kept.drafted | set(kept.data) | kept_ids
    used = set(final.values()) | {e.id for e in entries}
    prior: dict[str, list[str]] = {}
    for g in kept.guessed - names:
        keys = _old_keys(kept, g)
        if keys is not None:
            prior.setdefault(keys[0], []).append(g)
    for e in entries:
        if e.group is not None or id(e) in done or e.id not in names:
            continue
        if e.id in deleted and _old_keys(kept, e.id) is None:
            continue  # deleted before sums were kept: known by its id alone, not drafted again
        exact = _keys(_section(e), e.fields)[0]
        # the id an earlier draft gave this guess, where it has to leave its own: ids stay put
        was = [g for g in sorted(prior.get(exact, [])) if g not in used]
        k = 2
        while f"{e.id}-{k}" in taken:
            k += 1
        final[e.id] = was[0] if was else f"{e.id}-{k}"
        taken.add(final[e.id])
        used.add(final[e.id])
    return final, names


def _number_key(section: str, fields: dict) -> tuple | None:
    """What an entry states, its quote apart: section, metric, kind, value or range (as numbers:
    190.6 read from the file is the draft's "190.6") and unit; None where it states no number."""
    try:
        value = float(fields["value"]) if fields.get("value") is not None else None
        rng = fields.get("range")
        span = tuple(float(x) for x in rng) if isinstance(rng, (list, tuple)) else None
    except (TypeError, ValueError):
        return None
    if value is None and span is None:
        return None
    return (section, fields.get("metric"), fields.get("kind"), value, span, fields.get("unit"))


def _number_digest(section: str, fields: dict) -> str | None:
    """``_digest`` of ``_number_key``; None where the entry states no number."""
    key = _number_key(section, fields)
    return _digest(list(key)) if key is not None else None


def _same_run(kept: dict, drafted: dict) -> bool:
    """Whether a kept entry and a drafted one name no different engine, model, machine or decoding
    where both name one ("vLLM hit 50 tok/s" edited to "vLLM hit 48 tok/s, SGLang 50 tok/s": the 50
    is SGLang's now, another claim)."""
    a, b = kept.get("conditions"), drafted.get("conditions")
    if not isinstance(a, dict) or not isinstance(b, dict):
        return True
    return all(
        a.get(k) is None or b.get(k) is None or str(a[k]) == str(b[k])
        for k in ("engine", "model", "hardware", "decoding")
    )


def _line_of_id(iid: str) -> int | None:
    """The line a drafted id names (``decode-tps-l48`` -> 48), None for another id."""
    m = re.search(r"-l(\d+)(?:-\d+)?$", iid)
    return int(m.group(1)) if m else None


def _check_cited(kept: _Kept, written: set[str], path: Path | None) -> None:
    """Raises ValueError where an entry kept as the user wrote it cites a guess of the last draft
    that this draft no longer makes (its quote left the post, or its number changed): the id would
    name nothing, or, re-drafted under it, another number."""
    for kid, cited in kept.cites.items():
        for cid in cited:
            if cid in kept.guessed and cid not in written:
                quote = (kept.data.get(cid, ("", {}))[1]).get("quote")
                was = f" (quote: {scalar(quote)})" if isinstance(quote, str) else ""
                raise ValueError(
                    f"{path or 'the claims file'}: {kid} (kept as you wrote it) cites {cid}, a drafted entry"
                    f"{was} that the post no longer holds as it was drafted; nothing written; fix: in {kid}, "
                    f"cite the entry that replaces {cid} (or set {cid} `reviewed: true` to keep it as is), "
                    "then draft again"
                )


def render(drafted: Drafted, post_name: str, existing: Path | None = None) -> tuple[str, list[str]]:
    """The claims-file text of ``drafted`` merged with the reviewed parts of ``existing`` (module
    doc), and the ids of the entries written as guesses (``reviewed: false``).  Lines that moved
    since the last draft under a reviewed entry, and guesses the user edited, are said in
    ``drafted.notes``.

    Raises:
        ValueError: ``existing`` is no claims file (``_read_existing``), or an entry kept as the user
            wrote it cites a guess this draft no longer makes (``_check_cited``).
    """
    kept = (
        _read_existing(existing)
        if existing is not None and existing.exists()
        else _Kept({}, {}, set(), set())
    )
    kept_ids = {i for items in kept.items.values() for i, _, _ in items}
    final, names = _match(kept, drafted.entries, kept_ids)
    taken = {e.id for e in drafted.entries} | {g.id for g in drafted.groups} | kept.drafted | kept_ids
    moved = _match_groups(kept, drafted.groups, drafted.entries, names, taken)
    for g in drafted.groups:
        g.id = moved.get(g.id, g.id)
    for e in drafted.entries:
        if e.group is not None:
            e.group = moved.get(e.group, e.group)
    final.update({k: v for k, v in moved.items() if k in {e.id for e in drafted.entries}})
    line_of = {e.id: e.fields.get("source_line") for e in drafted.entries}
    for new, old in final.items():
        sl = kept.quotes.get(old, (None, None))[0] if old in kept_ids else None
        if sl is not None and line_of[new] != sl and old not in kept.edited:
            drafted.notes.append(
                f"{old} (reviewed): its quote is now on line {line_of[new]} of the post, not "
                f"{sl}; kept as you wrote it, not drafted again as {new}; fix: set its "
                f"source_line: {line_of[new]}"
            )
    for iid, quote in kept.requoted.items():
        drafted.notes.append(
            f"{iid} (reviewed): its line now reads {quote[:120]!r}, not its quote; kept as you wrote it, "
            "not drafted again; fix: check it against the line and update its quote (or delete it to "
            "draft it again)"
        )
    for iid in dict.fromkeys(kept.edited):  # (each once: a new user saw one twice in one run)
        drafted.notes.append(
            f"{iid}: edited since the last draft but still `reviewed: false`; kept as you wrote it, not "
            "drafted again; fix: set `reviewed: true` once checked (or undo the edit to draft it again)"
        )
    for e in drafted.entries:  # renamed before anything reads the ids: statements cite them
        if e.id in final:
            e.id = e.fields["id"] = final[e.id]
        if isinstance(e.fields.get("of"), list):
            e.fields["of"] = [final.get(r, r) for r in e.fields["of"]]
    deleted = kept.drafted - kept_ids - kept.guessed
    skip = kept_ids | deleted
    entries = [e for e in drafted.entries if e.id not in skip and (e.group is None or e.group not in skip)]
    written = {e.id for e in entries} | kept_ids
    _check_cited(kept, written, existing)
    for e in entries:  # a statement citing a claim the user deleted: a todo with what is left
        if e.kind == "statement" and any(ref not in written for ref in e.fields.get("of", [])):
            e.kind = "todo"
            e.fields = {"id": e.id, "todo": "a side was deleted: name the two sides in `of`", **e.fields}
            e.fields["of"] = [r for r in e.fields.get("of", []) if r in written]
        elif e.kind == "todo":
            e.fields["of"] = [r for r in e.fields.get("of", []) if r in written]
    guessed = [e.id for e in entries]
    # each group's rows gathered once: per group, a pass over every entry was quadratic (a table of
    # 10,000 columns, one group each, did not finish in 90 s)
    rows_of: dict[str, list[Entry]] = {}
    for e in entries:
        if e.group is not None:
            rows_of.setdefault(e.group, []).append(e)
    groups = [g for g in drafted.groups if g.id not in skip and g.id in rows_of]
    guessed += [g.id for g in groups]
    head = kept.sections.pop("#", None)
    out = [head.rstrip("\n")] if head else [_HEADER[0].format(post=post_name), *_HEADER[1:]]
    out += ["schema: benchbook.claims", "schema_version: 1"]
    if "source" not in kept.sections:
        title = f", title: {scalar(drafted.title)}" if drafted.title else ""
        link = f", link: {scalar(drafted.link)}" if drafted.link else ""
        out.append(f"source: {{kind: post{title}{link}, note: {scalar('drafted from ' + post_name)}}}")
    for text in kept.sections.values():
        out.append(text.rstrip("\n"))
    # a guess of the last draft that this one does not make (its line moved) was not deleted by the
    # user: it leaves the list, or a number later drafted under that id would be taken as deleted
    all_ids = sorted((kept.drafted - kept.guessed) | set(guessed))
    draft = {
        "post": post_name,
        "drafted": all_ids,
        "unplaced": [{"line": ln, "number": num, "text": t} for ln, num, t in drafted.unplaced],
    }
    if "draft" in kept.leads:
        out.append(kept.leads["draft"].rstrip("\n"))
    out.append("draft:")
    out.append(f"  post: {scalar(draft['post'])}")
    out.append(f"  drafted: {scalar(draft['drafted'])}")
    at_sums = len(out)
    groups_of = {g.id: g for g in groups}
    came = {e.id: _came(e, groups_of.get(e.group or "")) for e in entries if e.kind == "claim"}
    came = {i: o for i, o in sorted(came.items()) if o}
    if came:  # where each guessed condition its claim's words do not state came from: the audit page shows it
        out.append(f"  conditions_from: {scalar(came)}")
    out.append("  unplaced:" + ("" if draft["unplaced"] else " []"))
    out += [f"    - {scalar(u)}" for u in draft["unplaced"]]

    def section(name: str, new: list[tuple[int | None, str]]) -> None:
        items = [(sl, text) for _, sl, text in kept.items.get(name, [])] + new
        if name in kept.leads:
            out.append(kept.leads[name].rstrip("\n"))  # the user's comment over the section, kept
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
        [(g.line, _group_text(g, rows_of[g.id])) for g in groups],
    )
    section(
        "statements",
        [(e.fields.get("source_line"), _entry_text(e)) for e in entries if e.kind in ("statement", "todo")],
    )
    text = "\n".join(out) + "\n"
    sums = {i: " ".join(kept.sums[i]) for i in all_ids if i in kept.sums and i not in guessed}
    sums.update(_sums(text, entries, set(guessed)))
    out.insert(at_sums, f"  sums: {scalar(dict(sorted(sums.items())))}")
    return "\n".join(out) + "\n", guessed


def _sums(text: str, entries: list[Entry], guessed: set[str]) -> dict[str, str]:
    """``draft.sums`` of the guesses written in ``text``: id -> "exact loose written number" (``_keys``,
    the digest of the entry as read back, to tell a guess the user edited, and of its number apart
    from its quote, ``_number_digest``, "-" for none; a group's keys are ``_group_item_keys``)."""
    data = yaml.load(text, Loader=_FAST_LOADER) or {}
    section_of = {e.id: _section(e) for e in entries if e.group is None}
    out: dict[str, str] = {}
    for name in _ITEM_SECTIONS:
        for item in data.get(name) or []:
            iid = str(item.get("id")) if isinstance(item, dict) else None
            if iid is None or iid not in guessed:
                continue
            number = "-"
            if iid in section_of:
                exact, loose = _keys(section_of[iid], item)
                number = _number_digest(section_of[iid], item) or "-"
            else:  # a group: its metric, unit and rows
                exact, loose = _group_item_keys(item) if name == "groups" else ("-", "-")
            out[iid] = f"{exact} {loose} {_digest(item)} {number}"
    return out


@contextlib.contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``folder`` while a draft reads, merges and writes a claims file in
    it: two drafts into one file at once each merged the file as it was before either wrote, and
    the second replaced the first's (a reviewed entry, or another post's draft, lost)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def write(drafted: Drafted, out: Path, post_name: str, post: Path | None = None) -> list[str]:
    """Write the claims file ``out`` (merged with the reviewed parts of an existing one, module doc)
    and the log excerpts into ``<out stem>.logs/`` (an excerpt already there is kept: the user may
    have replaced it with the whole log); returns the ids written as guesses.  Drafts into one
    folder take turns (``_folder_locked``); ``out`` changed by anything else (an editor) between
    its reading and its writing is not overwritten.  ``post``: the post's path, to refuse a file
    drafted from another post (``_check_origin``) under the lock.

    Raises:
        ValueError: an existing ``out`` that is not YAML, drafted from another post, or changed
            while it was merged, or ``out`` or its folder may not be written (names it and the fix:
            for a folder that may not be written, ``-o`` elsewhere or the post on stdin).
        OSError: ``out`` cannot be written otherwise (a full disk, …).
    """
    try:
        return _write(drafted, out, post_name, post)
    except OSError as e:
        if e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        # a post in a folder the user may not write (a read-only share): the draft goes elsewhere
        raise ValueError(
            f"{e.filename or out}: {e.strerror or e}; nothing written; fix: draft it into a folder you "
            f"may write (benchbook claims draft POST -o FOLDER/{out.name}), or audit it from stdin "
            "(benchbook audit - < POST)"
        ) from None


def _write(drafted: Drafted, out: Path, post_name: str, post: Path | None) -> list[str]:
    out.parent.mkdir(parents=True, exist_ok=True)
    with _folder_locked(out.parent):
        if post is not None:
            _check_origin(out, post_name, post)
        before = out.read_bytes() if out.is_file() else None
        text, guessed = render(drafted, post_name, out)
        if (out.read_bytes() if out.is_file() else None) != before:
            raise ValueError(
                f"{out}: changed while the draft was merged into it (an editor saved it?); nothing "
                "written; fix: run the draft again"
            )
        write_text(out, text)
    if drafted.logs:
        logs = out.with_name(out.stem + ".logs")
        logs.mkdir(exist_ok=True)
        for name, body in drafted.logs.items():
            if not (logs / name).exists():
                write_text(logs / name, body)
    return guessed


#: the claims file drafted beside a post: ``blog.md`` -> ``blog.claims.yaml`` (its logs in
#: ``blog.claims.logs/``, where ``benchbook audit`` finds them)
CLAIMS_SUFFIX = ".claims.yaml"


def default_out(post: Path) -> Path:
    """Where the claims file of ``post`` goes: beside it, ``<stem>.claims.yaml``; for a post that is
    a device or a pipe (``/dev/stdin``, ``<(curl …)``'s ``/dev/fd/63``), or any path under ``/dev``
    or ``/proc`` (``/dev/stdin`` redirected from a file is a regular file), in the working folder, as
    for stdin: beside it was ``/dev/fd/63.claims.yaml`` (an error naming no fix) or, run as root,
    a file written into ``/dev``."""
    with contextlib.suppress(OSError):
        if post.exists() and not post.is_file() and not post.is_dir():
            return Path(post.stem + CLAIMS_SUFFIX)
    if post.absolute().parts[1:2] in (("dev",), ("proc",)):  # /dev/stdin redirected from a file is one
        return Path(post.stem + CLAIMS_SUFFIX)
    return post.with_name(post.stem + CLAIMS_SUFFIX)


#: the most a post file may hold (the drafter reads 10 MB in seconds; a larger file is no post)
MAX_POST_BYTES = 64 * 2**20


def read_stdin() -> bytes:
    """A post's bytes from standard input (``benchbook claims draft -``, ``benchbook audit -``), at
    most ``MAX_POST_BYTES`` + 1 (``draft_post`` names a larger one); a hint on stderr when stdin is a
    terminal (the command seemed to hang).

    Raises:
        ValueError: stdin is closed (``<&-``), or empty or blank (a pipe whose command failed: an
            earlier draft's guesses were wiped by an empty one), naming the fix.
    """
    if sys.stdin is None:
        raise ValueError(
            "stdin is closed, so there is no post to read; fix: pipe the post in "
            "(benchbook audit - < POST.md) or name its file"
        )
    if sys.stdin.isatty():
        print("reading the post from the terminal; end it with Ctrl-D", file=sys.stderr)
    data = sys.stdin.buffer.read(MAX_POST_BYTES + 1)
    if not data.strip():
        raise ValueError(
            "stdin: empty, so nothing drafted and nothing written; fix: check the command that pipes the "
            "post in (curl -f URL | …), or name the post's file"
        )
    return data


def read_post_file(post: Path) -> str:
    """The text of a post file (``read_post``'s first part)."""
    return read_post(post)[0]


def read_post(post: Path) -> tuple[str, str | None]:
    """``(text, how it was decoded or None)`` of a post file: decoded as ``benchbook ingest`` decodes
    (byte-order marks, UTF-16), UTF-16 without a byte-order mark by where its NUL bytes are, and a
    file that is not UTF-8 line by line: a line that is not UTF-8 read as Windows-1252 (a Latin-1
    page saved by an old forum or editor; undefined bytes replaced), where decoding it all as UTF-8
    with replacement characters put "D\ufffdcodage" in the quotes.  A binary file (a PDF, an
    image, random bytes: ``binary_kind``) is refused by name; a device or a pipe is read up to
    ``MAX_POST_BYTES``.

    Raises:
        ValueError: ``post`` is a directory, is missing (ingest's IngestError names it), holds more
        than ``MAX_POST_BYTES`` or is binary (``decode_post``); OSError: it cannot be read.
    """
    if post.is_dir():  # ingest's message spoke of llama.cpp output and `benchbook ingest`
        raise ValueError(
            f"{post}: a folder, no post; fix: name the post's file "
            f"(benchbook claims draft {post.as_posix().rstrip('/')}/POST.md)"
        )
    if not post.exists():
        return read_source(post)  # IngestError naming the missing file
    with post.open("rb") as fh:  # a device or a pipe (<(curl …)) read up to the limit: /dev/zero never ends
        data = fh.read(MAX_POST_BYTES + 1)
    _at_most(data, str(post))
    return decode_post(data, str(post))


def _at_most(data: bytes, name: str) -> None:
    """Raises ValueError naming ``name`` where ``data`` holds more than ``MAX_POST_BYTES``."""
    if len(data) > MAX_POST_BYTES:
        raise ValueError(
            f"{name}: more than {MAX_POST_BYTES // 2**20} MiB, no post; fix: draft the part of it that "
            "is the post (saved to a file of its own)"
        )


#: leading bytes of files that are no post, and what each is (the refusal names it)
BINARY_MAGIC = {
    b"%PDF-": "a PDF document (convert it first: pdftotext POST.pdf POST.txt)",
    b"PK\x03\x04": "a ZIP archive (a .docx, .odt or .xlsx is one: save the post as text or HTML)",
    b"\x89PNG\r\n\x1a\n": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"\x7fELF": "an executable (ELF)",
    b"\x1f\x8b": "gzip-compressed data (gunzip it first)",
    b"GGUF": "a GGUF model file",
    b"SQLite format 3\x00": "an SQLite database",
}
#: share of control characters (C0 but tab, newline, carriage return, form feed and escape; DEL;
#: U+FFFD where the decoder put it for a byte no encoding held) in a sample of a post's text above
#: which it is binary: random bytes hold 13%, text posts none (a pasted stray NUL or two stays far
#: below)
BINARY_SHARE = 0.02
#: and more control characters than this (one stray NUL in a two-line post is 2% of it)
BINARY_LEAST = 16
#: characters per sample: the head, the middle and the tail of the text are judged (a LoRA's
#: safetensors file opens with 97 KB of JSON before its 3 MB of floats)
BINARY_SAMPLE = 65536
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f]")
#: a terminal's escape sequences (colours, cursor moves: CSI and OSC), removed from a pasted output
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def _controls(text: str, replaced: bool) -> int:
    """The control characters of ``text`` (``_CONTROL``), and its U+FFFD where ``replaced`` (the
    decoder put them there: a U+FFFD the post itself holds, quoting broken output, is text)."""
    return len(_CONTROL.findall(text)) + (text.count("\ufffd") if replaced else 0)


def binary_kind(data: bytes, text: str, replaced: bool = False) -> str | None:
    """What a post's bytes ``data``, read as ``text``, are where they are no text: a kind of
    ``BINARY_MAGIC`` by their first bytes where its first 4 KiB also hold a control byte or no
    UTF-8 (a post titled "GGUF quantization compared" is text), or "binary data" where control
    characters (``_controls``; ``replaced``: the decoder replaced bytes) are more than ``BINARY_SHARE``
    and more than ``BINARY_LEAST`` of a sample of the text: its head, middle or tail
    (``BINARY_SAMPLE`` characters each); None for text."""
    head = data[:4096]
    binary_head = bool(_CONTROL.search(head.decode("latin-1"))) or not _utf8_prefix(head)
    for magic, kind in BINARY_MAGIC.items():
        if data.startswith(magic) and binary_head:
            return kind
    n = len(text)
    starts = sorted({0, max(0, n // 2 - BINARY_SAMPLE // 2), max(0, n - BINARY_SAMPLE)})
    for at in starts:
        sample = text[at : at + BINARY_SAMPLE]
        controls = _controls(sample, replaced)
        if controls > BINARY_LEAST and controls / len(sample) > BINARY_SHARE:
            where = "first" if at == 0 else ("last" if at + len(sample) >= n else "middle")
            return (
                f"binary data ({100 * controls / len(sample):.0f}% of its {where} {len(sample):,} "
                "characters are control characters)"
            )
    return None


def _utf8_prefix(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 up to a character cut at its end."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start >= len(data) - 3 and e.reason == "unexpected end of data"
    return True


def _utf16(data: bytes) -> tuple[str, str] | None:
    """``(text, "LE"|"BE")`` where ``data`` is UTF-16 without a byte-order mark and no UTF-8:
    decoded strictly (random bytes never are: unpaired surrogates), with line ends, few control
    characters and mostly ``_COMMON`` characters (CJK text in UTF-16 holds no NUL bytes but its line
    ends' to tell it by)."""
    if len(data) % 2:
        return None
    best: tuple[int, str, str] | None = None
    for order in ("le", "be"):
        try:
            text = data.decode(f"utf-16-{order}")
        except UnicodeDecodeError:
            continue
        sample = text[:BINARY_SAMPLE]
        common = len(_COMMON.findall(sample))
        # read in the wrong byte order, CJK is other CJK, but a line end is U+0A00 and ASCII is gone;
        # Latin-1 text read as UTF-16 is CJK too, but its line ends are no U+000A
        if "\n" in sample and _controls(sample, False) <= BINARY_LEAST and 2 * common > len(sample):
            if best is None or common > best[0]:
                best = (common, text, order.upper())
    return (best[1], best[2]) if best else None


#: the characters most text is made of (ASCII, Latin, Cyrillic, CJK and its punctuation, kana,
#: Hangul, full-width forms): ``_utf16`` tells the byte order by them
_COMMON = re.compile(
    "[\t\n\r\x20-\x7e\u00a0-\u024f\u0400-\u04ff\u3000-\u30ff\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]"
)


#: the legacy encodings a post that is no UTF-8 is read in whole, when ``charset_normalizer`` finds one
#: of them: the multibyte ones of Japanese (Shift_JIS, EUC-JP), Chinese (GB18030 and its subsets, Big5)
#: and Korean (EUC-KR), and Windows-1251 (Cyrillic); anything else (a Western text, where the detector
#: often names Windows-1250 for Windows-1252) is read line by line as Windows-1252
_LEGACY = frozenset(
    "cp932 shift_jis shift_jis_2004 shift_jisx0213 euc_jp euc_jis_2004 euc_jisx0213 gb18030 gbk gb2312 "
    "big5 big5hkscs cp950 euc_kr cp949 johab cp1251".split()
)


def _legacy_encoding(data: bytes) -> str | None:
    """The encoding of a post that is no UTF-8 when it is one of ``_LEGACY`` (a Japanese blog saved
    as Shift_JIS, a Chinese forum page as GB18030): ``charset_normalizer``'s best guess, kept only
    when the whole text decodes in it strictly and no line of it is UTF-8 with other than ASCII in
    it (a UTF-8 post with one pasted Latin-1 line stays UTF-8, that line Windows-1252); else None."""
    from charset_normalizer import from_bytes

    for raw in data.split(b"\n"):
        if not raw.isascii():
            try:
                raw.decode("utf-8")
                return None
            except UnicodeDecodeError:
                pass
    best = from_bytes(data[:200_000]).best()
    if best is None or best.encoding not in _LEGACY:
        return None
    try:
        data.decode(best.encoding)
    except (UnicodeDecodeError, LookupError):
        return None
    return best.encoding


def decode_post(data: bytes, name: str = "the post") -> tuple[str, str | None]:
    """``(text, how it was decoded or None)`` of a post's bytes (``read_post``; stdin too): UTF-8,
    UTF-16 by its byte-order mark, by where its NUL bytes are or by decoding strictly (``_utf16``), a
    Japanese, Chinese, Korean or Cyrillic legacy encoding found by its characters (``_legacy_encoding``),
    else a line that is not UTF-8 as Windows-1252.  A terminal's escape sequences are removed (a coloured
    llama-bench table drafted nothing); line ends are ``\n``, ``\r\n`` or, in a text without ``\n``,
    ``\r``; a lone ``\r`` inside a line (a progress bar redrawn) keeps what a terminal shows, the text
    after it, so line numbers stay those of an editor and ``grep -n``.

    Raises:
        ValueError: ``data`` is no text (``binary_kind``: a PDF, an image, an archive, random bytes),
            naming ``name``, what it is and the fix; nothing is drafted from it.
    """
    how: str | None = None
    replaced = False
    head = data[:200]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text, how = data.decode("utf-16", errors="replace"), "read as UTF-16 (byte-order mark)"
        replaced = True
    elif head.count(0) > len(head) // 4:  # UTF-16 without a byte-order mark: NULs beside ASCII
        le = head[1::2].count(0) >= head[0::2].count(0)
        text = data.decode("utf-16-le" if le else "utf-16-be", errors="replace")
        how = f"read as UTF-16 {'LE' if le else 'BE'} (no byte-order mark: by where its NUL bytes are)"
        replaced = True
    else:
        data = data.removeprefix(b"\xef\xbb\xbf")  # UTF-8's byte-order mark (Windows editors)
        try:
            text, utf8 = data.decode("utf-8"), True
        except UnicodeDecodeError:
            text, utf8 = "", False
        # UTF-16 without NULs (CJK) is no UTF-8; Cyrillic's is UTF-8 of control characters
        wide = _utf16(data) if not utf8 or binary_kind(data, text) is not None else None
        if wide is not None:
            text, order = wide
            how = f"read as UTF-16 {order} (no byte-order mark; by its characters)"
        elif not utf8 and (legacy := _legacy_encoding(data)) is not None:
            text, how = data.decode(legacy), f"not UTF-8: read as {legacy} (by its characters)"
        elif not utf8:
            lines, other = [], []
            for n, raw in enumerate(data.split(b"\n"), 1):
                try:
                    lines.append(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    lines.append(raw.decode("cp1252", errors="replace"))
                    other.append(n)
            text = "\n".join(lines)
            replaced = True
            shown = ", ".join(map(str, other[:5])) + (f" and {len(other) - 5} more" if len(other) > 5 else "")
            how = (
                f"line{'s' if len(other) > 1 else ''} {shown} not UTF-8: read as Windows-1252 (Latin-1); "
                f"check {'their' if len(other) > 1 else 'its'} quotes, or save the post as UTF-8"
            )
    kind = binary_kind(data, text, replaced)
    if kind is not None:  # random bytes drafted 29 claims of nonsense from a "post"
        raise ValueError(
            f"{name}: {kind}, no post; nothing drafted; fix: give the post as text: Markdown, "
            ".txt, or the page saved from the browser as HTML (text in another encoding: save it as UTF-8)"
        )
    return _line_ends(_ANSI.sub("", text)), how


def _line_ends(text: str) -> str:
    """``text`` with ``\n`` line ends (``decode_post``): ``\r\n`` -> ``\n``; ``\r`` alone is a
    line end only in a text that has no ``\n`` (an old Mac file), else a redraw: the last non-empty
    part of its line is kept, as a terminal shows ``10%\r20%\r100%`` (``100%``)."""
    text = text.replace("\r\n", "\n")
    if "\r" not in text:
        return text
    if "\n" not in text:
        return text.replace("\r", "\n")
    return "\n".join(
        next((seg for seg in reversed(line.split("\r")) if seg), "") if "\r" in line else line
        for line in text.split("\n")
    )


def _drafted_from(claims: Path) -> str | None:
    """The post an existing claims file was drafted from (its ``draft.post``); None when there is no
    file, no draft section, or it cannot be read (the merge then says why)."""
    if not claims.is_file():
        return None
    try:
        data = yaml.load(claims.read_text(encoding="utf-8"), Loader=_FAST_LOADER)
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return None
    draft = data.get("draft") if isinstance(data, dict) else None
    post = draft.get("post") if isinstance(draft, dict) else None
    return str(post) if post is not None else None


def _check_origin(target: Path, post_name: str, path: Path) -> None:
    """Raises ValueError where ``target`` was drafted from another post than ``post_name``: blog.md
    and blog.html share the stem, and a silent merge would mix one post's claims into the other's
    reviewed file."""
    other = _drafted_from(target)
    if other is not None and other != post_name:
        # (the command that does it: `benchbook audit` takes no -o, `claims draft` does)
        into = f"{path.stem}.{path.suffix.lstrip('.') or 'post'}{CLAIMS_SUFFIX}"
        arg = "-" if post_name == "stdin" else post_name
        raise ValueError(
            f"{target}: drafted from {other}, not {post_name} (a claims file holds one post's draft; "
            "never merged); "
            f"fix: draft it into another file, `benchbook claims draft {arg} -o {into}`, then "
            f"`benchbook audit {into}`"
        )


def _came(e: Entry, group) -> dict[str, list]:
    """``draft.conditions_from`` of the claim ``e`` (in ``group``, a ``Group``, or None): path ->
    ``[value, where]`` of each condition with an origin, its group's where the claim does not state
    the path itself (a row's own "RTX 3090" is not the title's "RTX 4090"); the value, so the page
    shows no origin beside a value the user changed."""
    own = e.fields.get("conditions") or {}
    shared = (group.fields.get("conditions") or {}) if group is not None else {}
    out: dict[str, list] = {}
    for source, cond, origins in ((group, shared, group.origins if group else {}), (e, own, e.origins)):
        for path, where in origins.items():
            value = _get(cond, path)
            if value is not None and (source is e or _get(own, path) is None):
                out[path] = [value, where]
    return dict(sorted(out.items()))


def _reviewed_quotes(data: dict) -> list[str]:
    """The quotes of the reviewed claims, statements and group rows of a claims file as read (a
    table cell's quote "Header: 42.7 — | row |" as its row), whitespace collapsed."""
    out: list[str] = []

    def add(q: object) -> None:
        if isinstance(q, str) and q.strip():
            out.append(re.sub(r"\s+", " ", q.split(" — ")[-1]).strip())

    for section in ("claims", "statements", "groups"):
        entries = data.get(section)
        for e in entries if isinstance(entries, list) else []:
            if not isinstance(e, dict) or e.get("reviewed") is not True:
                continue
            add(e.get("quote"))
            for c in e.get("claims") or [] if isinstance(e.get("claims"), list) else []:
                if isinstance(c, dict):
                    add(c.get("quote"))
            table = e.get("table")
            if (
                isinstance(table, dict)
                and isinstance(table.get("columns"), list)
                and "quote" in table["columns"]
            ):
                k = table["columns"].index("quote")
                for row in table.get("rows") or []:
                    if isinstance(row, list) and k < len(row):
                        add(row[k])
    return out


def _check_stdin_post(target: Path, title: str | None, text: str = "") -> None:
    """Raises ValueError where ``target``, drafted from a post on stdin, holds another post than the
    one of ``title`` and ``text`` (the post as piped in): where it holds reviewed entries, none of
    their quotes is in this post (``_reviewed_quotes``, read in the post's text: an HTML post's as
    extracted, whitespace collapsed); where it holds none, both posts have titles and they differ.
    Posts piped in one after another all draft into ``post.claims.yaml``, and the second was merged
    into the first's reviewed entries without a word."""
    if _drafted_from(target) != "stdin":
        return
    with contextlib.suppress(OSError, yaml.YAMLError, UnicodeDecodeError, RecursionError, AttributeError):
        data = yaml.load(target.read_text(encoding="utf-8"), Loader=_FAST_LOADER)
        if not isinstance(data, dict):
            return
        source = data.get("source")
        old = source.get("title") if isinstance(source, dict) else None
        old = old.strip() if isinstance(old, str) and old.strip() else None
        quotes = _reviewed_quotes(data)
        if quotes:
            plain = re.sub(r"\s+", " ", html_to_text(text) if is_html(text) else text)
            unlike = not any(q[:60] in plain for q in quotes)
            said = "its reviewed entries quote none of this one"
        else:
            unlike = old is not None and title is not None and old != title.strip()
            said = f"{old!r}, this one {title.strip() if title else ''!r}"
        if unlike:
            raise ValueError(
                f"{target}: drafted from another post on stdin ({said}); never merged, "
                f"nothing written; fix: draft this one into a file of its own (benchbook claims draft - -o "
                f"NAME.claims.yaml < POST), or move {target} away"
            )


def draft_post(
    post: str | Path, out: str | Path | None = None, text: str | bytes | None = None, link: str | None = None
) -> tuple[Path, Drafted, list[str]]:
    """Draft the claims file of the post ``post`` (``"-"``: ``text``, read from stdin by the caller;
    bytes are decoded as a file's, ``decode_post``)
    into ``out`` (default ``default_out``; for stdin ``post.claims.yaml`` in the working folder),
    keeping reviewed entries of an existing ``out`` (module doc); ``link``: where the post was
    published (``draft.draft_text``), written as ``source.link`` on a first draft.  Returns ``(out,
    the draft, the ids written as guesses)``.

    Raises:
        ValueError: a missing post, a directory, an empty path, an existing ``out`` that is not YAML,
        a device or pipe or ``-`` as ``out`` (names it and the fix); OSError: ``out`` cannot be written.
    """
    if "" in (str(post), None if out is None else str(out)):  # Path("") is the working folder
        raise ValueError(
            "an empty path given for the post or -o; fix: name the post's file (and the claims file)"
        )
    if out is not None and str(out) == "-":  # `-o - | less` wrote a file named "-", stdout empty
        raise ValueError(
            "-o -: the claims file is a file (a re-run merges into it, keeping what you reviewed), not "
            "standard output; fix: name a file with -o, then read it (cat), or leave -o out"
        )
    stdin = str(post) == "-"
    path = Path("post.md") if stdin else Path(post)
    how = None
    if text is None:
        text, how = read_post(path)
    elif isinstance(text, bytes):
        _at_most(text, "stdin")
        text, how = decode_post(text, "stdin")
    target = Path(out) if out is not None else (Path("post" + CLAIMS_SUFFIX) if stdin else default_out(path))
    if target.is_symlink():
        # "-o link.yaml" pointing at the claims file: written through, the link kept (a rename over
        # it replaced the link with a file and left its target stale)
        target = target.resolve()
    if target.exists() and not target.is_file() and not target.is_dir():
        # read to merge, a pipe never ended (a hang); renamed over, a device was replaced by a file
        raise ValueError(
            f"{target}: a device, pipe or socket, no file: rewriting it would replace it with a regular "
            "file; nothing written; fix: give the path of a file (a new one, or one to rewrite)"
        )
    if target.resolve() == path.resolve() and not stdin:
        raise ValueError(f"{target}: the claims file would overwrite the post; fix: name another with -o")
    post_name = "stdin" if stdin else path.name
    _check_origin(target, post_name, path)  # before drafting, and again under write's lock
    drafted = draft_text(text, path.name, link)
    if stdin:
        _check_stdin_post(target, drafted.title, text)
    if how is not None:
        drafted.notes.insert(0, f"{post_name}: {how}")
    guessed = write(drafted, target, post_name, path)
    return target, drafted, guessed


def held(out: Path) -> dict[str, int]:
    """How many entries the claims file ``out`` holds now, by kind (``claim``: its ``claims:`` and the
    claims of its ``groups:``, as mappings or table rows; ``statement``; ``todo``: a statement with
    ``todo:``), read from the file as written, so entries the user added are counted; all 0 when it
    cannot be read as YAML (the audit that follows names the error)."""
    counts = {"claim": 0, "statement": 0, "todo": 0}
    try:
        # (libyaml's loader where the build has it: a drafted file of 5,000 timing blocks took 95 s
        # to count in pure Python)
        data = yaml.load(out.read_text(encoding="utf-8"), Loader=_FAST_LOADER) or {}
    except (OSError, yaml.YAMLError):
        return counts
    if not isinstance(data, dict):
        return counts

    def items(x: object) -> list:
        return x if isinstance(x, list) else []

    def rows(g: dict) -> list:  # a `table:` that is no mapping holds no rows (it raised AttributeError)
        t = g.get("table")
        return items(t.get("rows")) if isinstance(t, dict) else []

    counts["claim"] = len(items(data.get("claims"))) + sum(
        len(items(g.get("claims"))) + len(rows(g)) for g in items(data.get("groups")) if isinstance(g, dict)
    )
    for st in items(data.get("statements")):
        counts["todo" if isinstance(st, dict) and st.get("todo") else "statement"] += 1
    return counts


#: how many guessed ids the terminal summary names before it says how many more
GUESSED_SHOWN = 20


def summary(post: str, out: Path, drafted: Drafted, guessed: list[str]) -> list[str]:
    """What a draft wrote, for the terminal: what the file ``out`` holds now (``held``: the user's added
    entries counted) and how many entries were drafted this time vs kept as the user wrote them, the
    guessed ids, the logs and the unplaced numbers.  A new user's re-run after hand edits said "found 9
    claims, 3 statements" of a file of 11 claims and 4 statements: it counted the draft alone."""
    kinds = held(out)
    total = sum(kinds.values())
    # the claims and statements guessed (a table's group id is none: it counted as one, and "11
    # drafted, 0 kept" was said of a file with one kept entry)
    groups = {g.id for g in drafted.groups}
    ids = [i for i in guessed if i not in groups]
    entries = len(set(ids))
    kept = max(total - entries, 0)
    if ids:
        # the ids of a large post fill a screen: the first ones, then how many more (the file's
        # entries marked `reviewed: false`; draft.drafted lists every id a draft wrote, reviewed too)
        shown = ", ".join(ids[:GUESSED_SHOWN]) + (
            f", … {len(ids) - GUESSED_SHOWN} more (the entries marked `reviewed: false` in the file)"
            if len(ids) > GUESSED_SHOWN
            else ""
        )
        second = (
            f"{len(ids)} {'entry' if len(ids) == 1 else 'entries'} guessed (reviewed: false; "
            f"check each against its quote): {shown}"
        )
    elif not drafted.entries:  # an empty draft is no "every entry is reviewed" (a new user's reading)
        second = "nothing drafted: no number the drafter could read as a measurement (see draft.unplaced)"
    else:
        second = "no entry guessed: every entry of the file is reviewed, kept as you wrote it"
    lines = [
        f"{post}: {out} holds {counted(kinds['claim'], 'claim')}, "
        f"{counted(kinds['statement'], 'statement')}, {counted(kinds['todo'], 'todo statement')}: "
        f"{entries} drafted this time (reviewed: false), {kept} kept as you wrote them; "
        f"{counted(len(drafted.unplaced), 'number')} not placed (listed under draft.unplaced)",
        second,
    ]
    if drafted.logs:
        lines.append(f"log excerpts kept in {out.with_name(out.stem + '.logs')}/: {', '.join(drafted.logs)}")
    lines += drafted.notes
    return lines

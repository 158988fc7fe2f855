"""Faults found in session 58 in `claims draft`'s re-run (issue 29: "the draft never overwrites a
reviewed entry", "nothing already recorded is lost", bad input gets an error naming the file, line or
field and the fix): a reviewed entry written as a mapping under ``claims:`` (one entry, no list
item) was dropped from the file without a word, while the audit refuses that file."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook.audit import schema
from benchbook.audit.draftfile import draft_post

POST = "# t\n\nIt ran at 40 tok/s on a 4090.\n"
HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\n"
ENTRY = (
    '{id: mine, metric: decode_tps, value: 40, unit: tok/s, source_line: 3, quote: "It ran", reviewed: true}'
)


@pytest.mark.parametrize(
    ("section", "got"),
    [
        (f"claims: {ENTRY}\n", "a mapping"),
        ("claims: see below\n", "a single value"),
        ("statements: 3\n", "a single value"),
    ],
)
def test_a_section_that_is_no_list_is_refused_and_the_file_kept(tmp_path: Path, section: str, got: str):
    """ "claims: {id: …}" is refused with its line and the fix, the file left as it was; the audit
    refuses it too (so the user's entry was never silently dropped by one and read by the other)."""
    post = tmp_path / "post.md"
    post.write_text(POST)
    out = tmp_path / "c.yaml"
    text = HEAD + section
    out.write_text(text)
    with pytest.raises(ValueError) as e:
        draft_post(post, out)
    name = section.split(":")[0]
    assert str(e.value) == (
        f"{out}:4: {name}: a list of entries is needed, got {got}; nothing written; fix: write each "
        f"entry as a list item (`{name}:` then `  - {{id: …}}`), then draft again"
    )
    assert out.read_text() == text
    with pytest.raises(schema.ClaimsError, match=rf":4: {name}: Input should be a valid list"):
        schema.load(out)


def test_an_empty_section_is_no_entry_to_keep(tmp_path: Path):
    """Control: "claims:" and "statements: ~" with nothing in them merge as empty sections."""
    post = tmp_path / "post.md"
    post.write_text(POST)
    out = tmp_path / "c.yaml"
    out.write_text(HEAD + "claims:\nstatements: ~\n")
    draft_post(post, out)
    assert [(c.id, c.value) for c in schema.load(out).claims] == [("decode-tps-l3", 40)]


@pytest.mark.parametrize(
    ("written", "value", "decimals"),
    [
        (".5", 0.5, 1),
        ("-.5", -0.5, 1),
        ("+.25", 0.25, 2),
        ("0.5", 0.5, 1),
        ("1.", 1.0, 0),
        ("-.5e1", -5.0, 0),
    ],
)
def test_a_fraction_written_without_its_leading_zero(
    tmp_path: Path, written: str, value: float, decimals: int
):
    """ "value: .5" was read as an exact number (no decimals) and "-.5" refused as text (YAML 1.1
    reads only an unsigned ".5" as a number): both are the number with the decimals written."""
    out = tmp_path / "c.yaml"
    out.write_text(HEAD + f"claims:\n  - {{id: a, metric: speed_change, value: {written}, unit: '%'}}\n")
    (c,) = schema.load(out).claims
    assert (c.value, c.decimals) == (value, decimals)


def test_a_lone_point_is_still_no_number(tmp_path: Path):
    """Control: "." and "-." are text, refused with the line and the fix."""
    out = tmp_path / "c.yaml"
    out.write_text(HEAD + "claims:\n  - {id: a, metric: speed_change, value: -., unit: '%'}\n")
    with pytest.raises(schema.ClaimsError, match=r":5: claims.0.value: a number is needed, got str '-.'"):
        schema.load(out)


def test_a_file_of_comments_only_and_a_line_added_to_the_header_are_kept(tmp_path: Path):
    """ "-o notes.yaml" holding only comments was overwritten, and a line the user added under the
    drafter's header was dropped on the next run: both are the user's notes, kept as written; the
    drafter's header alone is written afresh (not doubled)."""
    post = tmp_path / "post.md"
    post.write_text(POST)
    notes = tmp_path / "notes.yaml"
    notes.write_text("# my notes about this post\n# TODO check the 4090 number\n")
    draft_post(post, notes)
    assert notes.read_text().startswith("# my notes about this post\n# TODO check the 4090 number\nschema:")
    out = tmp_path / "c.yaml"
    draft_post(post, out)
    lines = out.read_text().splitlines()
    lines.insert(3, "# checked against the author's reply")
    out.write_text("\n".join(lines) + "\n")
    draft_post(post, out)
    again = out.read_text().splitlines()
    assert again[3:5] == ["# checked against the author's reply", "schema: benchbook.claims"]
    assert sum(ln.startswith("# Drafted by") for ln in again) == 1
    # control: the header as drafted is not taken for the user's
    fresh = tmp_path / "f.yaml"
    draft_post(post, fresh)
    draft_post(post, fresh)
    assert fresh.read_text().splitlines()[3] == "schema: benchbook.claims"

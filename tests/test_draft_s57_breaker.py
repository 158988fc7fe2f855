"""Faults a session-57 attempt to break `claims draft` / `audit POST` found (issue 29: "the draft never
overwrites a reviewed entry", "nothing already recorded is lost", bad input gets an error naming the
file, line or field and the fix): the re-run's merge cut a file into entries by their lines, so a
flow list or a file saved back by PyYAML lost reviewed entries or raised a traceback; a comment above
a reviewed entry went with the guess before it; untitled posts piped in one after another merged; an
HTML table whose cells close implicitly swallowed the page, and a forum's post laid out in a table's
cell was read as a table of numbers; ``-o`` to a symlink replaced the link; a read-only post folder's
fix named nothing that works; huge, octal and hexadecimal integers and doubled table columns passed
unchecked or raised without a line."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
import yaml

from benchbook.audit import schema
from benchbook.audit.draft import draft_text
from benchbook.audit.draftfile import draft_post, write
from benchbook.audit.post import html_to_text

POST = (
    "# My test of Qwen3-30B-A3B on RTX 3090\n\nI ran llama.cpp b4980 with Qwen3-30B-A3B Q4_K_M.\n\n"
    "Decode reached 42.7 tok/s, and prompt processing was 1200 tok/s.\n"
)
HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\n"


def _post(tmp_path: Path) -> Path:
    post = tmp_path / "post.md"
    post.write_text(POST)
    return post


@pytest.mark.parametrize(
    "claims",
    [
        # one flow list on one line: the reviewed entry had an empty slice of text and was dropped
        "claims: [{id: mine, metric: decode_tps, value: 10, unit: tok/s, reviewed: true}, "
        "{id: other, metric: decode_tps, value: 11, unit: tok/s, reviewed: false}]\n",
        # with no `reviewed:` on the second, the line came back as a second `claims:` key
        "claims: [{id: mine, metric: decode_tps, value: 10, unit: tok/s, reviewed: true}, "
        "{id: other, metric: decode_tps, value: 11, unit: tok/s}]\n",
        # a flow list across lines: a ScannerError traceback
        "claims: [\n  {id: mine, metric: decode_tps, value: 10, unit: tok/s, reviewed: true},\n"
        "  {id: other, metric: decode_tps, value: 11, unit: tok/s, reviewed: false}\n]\n",
        # PyYAML's block list at column 0, and one indented by 4: ParserError tracebacks
        "claims:\n- id: mine\n  metric: decode_tps\n  value: 10\n  unit: tok/s\n  reviewed: true\n",
        "claims:\n    - id: mine\n      metric: decode_tps\n      value: 10\n      unit: tok/s\n"
        "      reviewed: true\n",
    ],
)
def test_a_redraft_keeps_a_reviewed_entry_whatever_the_files_layout(tmp_path, claims):
    """Each layout is valid YAML the audit accepts; a re-draft keeps ``mine`` exactly as read,
    writes a file the audit loads, with one ``claims:`` key, and adds the post's guesses."""
    out = tmp_path / "post.claims.yaml"
    out.write_text(HEAD + claims)
    draft_post(_post(tmp_path), out)
    cf = schema.load(out)
    (mine,) = [c for c in cf.claims if c.id == "mine"]
    assert (mine.value, mine.unit, mine.reviewed) == (10, "tok/s", True)
    assert sorted(c.value for c in cf.claims if c.id != "mine" and c.id != "other") == [42.7, 1200]
    assert out.read_text().count("\nclaims:") == 1


def test_a_comment_above_a_reviewed_entry_stays_with_it(tmp_path):
    """A note written right above a reviewed entry is that entry's: it was the end of the guess
    before it, and went when the guess was drafted anew."""
    post = _post(tmp_path)
    out, _, _ = draft_post(post)
    lines = out.read_text().splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith('  - {id: "prefill'))
    lines[at] = lines[at].replace("reviewed: false", "reviewed: true")
    lines.insert(at, "  # NOTE: author confirmed prefill on Discord (keep!)")
    out.write_text("\n".join(lines) + "\n")
    draft_post(post)
    text = out.read_text().splitlines()
    at = text.index("  # NOTE: author confirmed prefill on Discord (keep!)")
    assert text[at + 1].startswith('  - {id: "prefill-tps-l5"') and "reviewed: true" in text[at + 1]


def test_untitled_posts_on_stdin_are_not_merged(tmp_path, monkeypatch):
    """Two posts piped in one after another draft into post.claims.yaml: the reviewed entries' quotes
    tell them apart (a title may be the same, or edited by the user, or missing); the same post again
    (edited, a reviewed sentence wrapped across lines) merges."""
    monkeypatch.chdir(tmp_path)
    first = "Alpha post.\n\nDecode 10 tok/s.\n"
    out, _, _ = draft_post("-", text=first.encode())
    out.write_text(out.read_text().replace("reviewed: false}", "reviewed: true}"))
    with pytest.raises(ValueError, match="its reviewed entries quote none of this one"):
        draft_post("-", text=b"Different post about vLLM on H100.\n\nThroughput 4111 tok/s.\n")
    with pytest.raises(ValueError, match="its reviewed entries quote none of this one"):
        draft_post("-", text=b"# Other\n\nThroughput 4111 tok/s.\n")
    draft_post("-", text=(first + "\nAnd prefill 300 tok/s.\n").encode())
    assert sorted(c.value for c in schema.load(out).claims) == [10, 300]


def test_html_cells_closed_by_the_next_cell_and_a_forum_post_in_a_cell():
    """HTML ends a cell at the next cell, row or the table's end ("<td>a<td>5<tr>…</table>"): the
    table and the text after it are read (all of it was lost). A table laying out a forum's posts
    (a cell of several sentences apart) is read as paragraphs: its rates are claims, not a table of
    "3090" in tok/s."""
    text = html_to_text(
        "<html><body><table><tr><th>cfg<th>tok/s<tr><td>a<td>5<tr><td>b<td>6</table><p>Decode 4 tok/s"
    )
    assert text == "| cfg | tok/s |\n| --- | --- |\n| a | 5 |\n| b | 6 |\n\nDecode 4 tok/s\n"
    forum = (
        "<html><body><table><tr><th>Author</th><th>Message</th></tr><tr><td>user123</td><td><div>"
        "I tried llama.cpp on my RTX 3090.<br>Decode reached 42.7 tok/s and prefill 1200 tok/s.<br><br>"
        "With the draft model it went to 61.2 tok/s, about 1.4x faster.</div></td></tr></table></body></html>"
    )
    drafted = draft_text(forum, "forum.html")
    values = sorted(float(str(e.fields["value"])) for e in drafted.entries if e.kind == "claim")
    assert values == [42.7, 61.2, 1200.0]
    # control: a header cell broken in two ("prompt<br>tok/sec") stays one header of a table
    text = html_to_text(
        "<html><body><table><tr><th>prompt<br>tok/sec</th><th>model</th></tr><tr><td>45</td><td>x</td></tr></table>"
    )
    assert text.splitlines()[0] == "| prompt tok/sec | model |"


def test_o_to_a_symlink_writes_its_target(tmp_path):
    """``-o link.yaml`` pointing at a claims file elsewhere: the target is written, the link kept."""
    (tmp_path / "real").mkdir()
    link = tmp_path / "link.yaml"
    link.symlink_to(tmp_path / "real" / "x.yaml")
    draft_post(_post(tmp_path), link)
    assert link.is_symlink() and (tmp_path / "real" / "x.yaml").is_file()


def test_a_folder_that_may_not_be_written_names_o_and_stdin(tmp_path, monkeypatch):
    """The draft goes beside the post; where that folder may not be written the fix names what works
    (``-o`` elsewhere, or the post on stdin), not "run from a folder you may write"."""
    import benchbook.audit.draftfile as draftfile

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), str(tmp_path / "post.claims.yaml"))

    monkeypatch.setattr(draftfile, "_write", refuse)
    drafted = draft_text(POST, "post.md")
    with pytest.raises(ValueError, match=r"-o FOLDER/post.claims.yaml\), or audit it from stdin"):
        write(drafted, tmp_path / "post.claims.yaml", "post.md")


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("value: 9223372036854775808", "claims.0.value: an integer of 19 digits"),
        ("value: " + "9" * 4400, "claims.0.value: an integer of 4400 digits"),
        ("value: 010", "claims.0.value: YAML reads the unquoted 010 as 8 .*value: 10"),
        ("value: 0x1F", "claims.0.value: YAML reads the unquoted 0x1F as 31 .*value: 31"),
    ],
)
def test_integers_yaml_misreads_or_no_table_holds_are_refused_with_their_line(tmp_path, cell, message):
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + "claims:\n  - {id: a, metric: decode_tps, " + cell + ", unit: tok/s}\n")
    with pytest.raises(schema.ClaimsError, match="t.yaml:5: " + message):
        schema.load(path)


def test_a_table_naming_a_column_twice_is_refused(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(
        HEAD + "groups:\n  - id: g\n    metric: decode_tps\n    unit: tok/s\n"
        "    table: {columns: [id, value, value], rows: [[a, 1, 2]]}\n"
    )
    with pytest.raises(
        schema.ClaimsError, match="t.yaml:8: groups.0.table.columns.2: 'value' is named twice"
    ):
        schema.load(path)
    # control: the same table with its columns once each loads
    path.write_text(
        path.read_text().replace("[id, value, value], rows: [[a, 1, 2]]", "[id, value], rows: [[a, 1]]")
    )
    assert [c.value for c in schema.load(path).claims] == [1]
    assert yaml.safe_load(path.read_text())["groups"][0]["id"] == "g"


# Round two of the same session's breaker, on the fixes above.

PLAIN = "# Test\n\nPlain decoding reached 42.70 tok/s on my RTX 3090.\n"


@pytest.mark.parametrize(
    ("html", "first"),
    [
        # a results table whose cell holds a note under its number stays a table (it became prose)
        (
            "<html><body><table><tr><th>Quant</th><th>Decode (tok/s)</th></tr><tr><td>Q4_K_M</td><td>42.7<br>"
            "(median of 3 runs on my machine)</td></tr><tr><td>Q8_0</td><td>30.1</td></tr></table>",
            "| Quant | Decode (tok/s) |",
        ),
        # a table of one column is a table too
        (
            "<html><body><table><tr><th>Decode (tok/s)</th></tr><tr><td>42.7</td></tr></table>",
            "| Decode (tok/s) |",
        ),
        # a forum's post of a paragraph in one cell, no <br>: prose
        (
            "<html><body><table><tr><td>user123<br>Posts: 45</td><td>I tested the model on my RTX 3090. It "
            "reached 42.7 tok/s with Q4_K_M. Prefill was 1200 tok/s.</td></tr></table>",
            "user123",
        ),
        # a page ending inside its table: the table as far as it went
        ("<html><body><p>x</p><table><tr><th>a</th><th>tok/s</th></tr><tr><td>b</td><td>5</td></tr>", "x"),
    ],
)
def test_html_tables_that_hold_data_or_prose(html, first):
    text = html_to_text(html)
    assert text.splitlines()[0] == first
    assert "| b | 5 |" in text or "42.7" in text


@pytest.mark.parametrize(
    ("claims", "kept"),
    [
        # a flow item keeps its digits and its quotes (re-dumped, 42.70 became 42.7 and the quoted
        # commit "4838e12" an unquoted number the audit refused)
        (
            "claims: [{id: my1, metric: decode_tps, value: 42.70, unit: tok/s, "
            'conditions: {build: "4838e12"}, reviewed: true}]\n',
            '  - {id: my1, metric: decode_tps, value: 42.70, unit: tok/s, conditions: {build: "4838e12"}, '
            "reviewed: true}",
        ),
        # a block item with an exponent and a comment is kept as written (it was re-dumped)
        (
            "claims:\n  - id: my1   # checked with the author\n    metric: decode_tps\n    value: 1.50e3\n"
            "    unit: tok/s\n    reviewed: true\n",
            "  - id: my1   # checked with the author\n    metric: decode_tps\n    value: 1.50e3",
        ),
        # a document end marker after the last entry, and a plain-string entry at column 0
        (
            "claims:\n  - {id: my1, metric: decode_tps, value: 42.70, unit: tok/s, reviewed: true}\n...\n",
            "  - {id: my1, metric: decode_tps, value: 42.70, unit: tok/s, reviewed: true}",
        ),
        (
            "claims:\n- my own note\n- {id: my1, metric: decode_tps, value: 9, unit: tok/s}\n",
            "  - my own note",
        ),
    ],
)
def test_a_redraft_writes_kept_entries_as_they_were_written(tmp_path, claims, kept):
    post = tmp_path / "p.md"
    post.write_text(PLAIN)
    out = tmp_path / "p.claims.yaml"
    out.write_text(HEAD + claims)
    draft_post(post, out)
    assert kept in out.read_text()
    if "my own note" not in claims:
        schema.load(out)  # and it loads


def test_a_claims_file_of_one_flow_mapping_is_refused_with_the_fix(tmp_path):
    post = tmp_path / "p.md"
    post.write_text(PLAIN)
    out = tmp_path / "p.claims.yaml"
    out.write_text("{schema: benchbook.claims, schema_version: 1, source: {kind: post}, claims: []}\n")
    with pytest.raises(ValueError, match="p.claims.yaml:1: the claims file is one flow mapping"):
        draft_post(post, out)


def test_stdin_posts_are_told_apart_by_their_reviewed_quotes(tmp_path, monkeypatch):
    """A reviewed table of another post (its rows' quotes), not only sentences, tells posts apart; the
    same post with a reviewed sentence wrapped across lines, or an HTML post whose sentence holds
    <b> and &amp;, is the same post."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "post.claims.yaml"

    def review() -> None:
        out.write_text(out.read_text().replace("reviewed: false", "reviewed: true"))

    table = "| Quant | Decode (tok/s) |\n| --- | --- |\n| Q4_K_M | 42.7 |\n| Q8_0 | 30.1 |\n"
    draft_post("-", text=table.encode())
    review()
    with pytest.raises(ValueError, match="its reviewed entries quote none of this one"):
        draft_post(
            "-",
            text=table.replace("Q4_K_M | 42.7", "Q4_K_S | 55.0")
            .replace("Q8_0 | 30.1", "Q6_K | 39.9")
            .encode(),
        )
    for post in (
        "I ran llama.cpp on my RTX 3090 and plain decoding\nreached 42.70 tok/s with llama-bench tg128 on "
        "the\nlong prompt.\n",
        "<html><body><p>On my <b>RTX 3090</b> &amp; llama.cpp plain decoding reached 42.70 tok/s.</p>"
        "</body></html>",
    ):
        out.unlink()
        draft_post("-", text=post.encode())
        review()
        draft_post("-", text=post.encode())  # the same post: merged, no error
        assert [c.value for c in schema.load(out).claims] == [42.7]


def test_a_comment_a_blank_line_above_a_reviewed_entry_stays(tmp_path):
    post = tmp_path / "p.md"
    post.write_text(PLAIN)
    out, _, _ = draft_post(post)
    with out.open("a") as f:
        f.write("\n  # NOTE: my1 was confirmed by the author\n\n")
        f.write("  - {id: my1, metric: decode_tps, value: 9, unit: tok/s, reviewed: true}\n")
    draft_post(post)
    draft_post(post)
    text = out.read_text()
    assert text.count("# NOTE: my1 was confirmed by the author") == 1 and "id: my1" in text


def test_an_octal_looking_name_is_told_to_be_quoted(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(
        HEAD
        + "claims:\n  - {id: a, metric: decode_tps, value: 1, unit: tok/s, conditions: {build: 0123456}}\n"
    )
    with pytest.raises(
        schema.ClaimsError, match=r"quote it if it is a name or a commit \(build: '0123456'\)"
    ):
        schema.load(path)

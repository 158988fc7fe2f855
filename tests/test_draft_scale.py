"""Issue 29 ("nothing crashes on any input … 10 MB"): the hostile and the very large posts of
scripts/draft_faults.py (DB12, DB13, DB15, a 10 MB post) draft and audit with the right outcome.
Behaviour only (what is drafted, what is loaded, the message); their times are printed by
scripts/draft_scale.py (1×/2×/4× sizes), not asserted here."""

from __future__ import annotations

import contextlib
import io

from benchbook.audit import command, draftfile, schema
from benchbook.audit.draft import draft_text
from drafting import wide_table


def _write(tmp_path, body: str):
    f = tmp_path / "c.yaml"
    f.write_text("schema: benchbook.claims\nschema_version: 1\nsource: {kind: test}\n" + body)
    return f


def test_a_group_table_of_thousands_of_rows_keeps_each_rows_line_and_digits(tmp_path):
    """DB12's audit: a group's table copied the line marks of each cell by a scan of every mark of the
    file (quadratic: 10,000 cells did not load in 90 s); each claim still gets its row's line and the
    digits its value was written with."""
    n = 3_000
    rows = "".join(f"      - [r{i}, {i}.50]\n" for i in range(n))
    f = _write(
        tmp_path,
        "groups:\n  - metric: decode_tps\n    unit: tok/s\n    table:\n      columns: [id, value]\n"
        "      rows:\n" + rows,
    )
    cf = schema.load(f)
    assert len(cf.claims) == n
    last = cf.claim(f"r{n - 1}")
    assert last is not None and (last.value, last.decimals, last.metric) == (n - 1 + 0.5, 2, "decode_tps")
    assert cf.where("r0") == f"{f}:10"
    assert cf.where(f"r{n - 1}") == f"{f}:{10 + n - 1}"


def test_many_todo_statements_keep_their_lines(tmp_path):
    """A draft of many relating phrases (DB15) moves each ``todo:`` statement to ``todo`` with its
    lines (a scan of every mark per statement was quadratic); a statement left in place keeps its own."""
    n = 2_000
    claims = "claims:\n  - {id: a, metric: decode_tps, value: 2, unit: tok/s}\n"
    claims += "  - {id: b, metric: decode_tps, value: 1, unit: tok/s}\n"
    stmts = "statements:\n"
    for i in range(n):
        if i == n // 2:
            stmts += f"  - {{id: s{i}, statement: two, kind: ratio, of: [a, b], value: 2.0, unit: x}}\n"
        else:
            stmts += f"  - {{id: s{i}, todo: name them, statement: two, kind: ratio, of: [a, b], value: 2}}\n"
    f = _write(tmp_path, claims + stmts)
    cf = schema.load(f)
    assert [s.id for s in cf.statements] == [f"s{n // 2}"]
    assert len(cf.todo) == n - 1
    assert cf.statements[0].decimals == 1
    assert cf.where(f"s{n // 2}") == f"{f}:{8 + n // 2}"


def test_an_error_in_the_last_of_many_todo_statements_names_its_line(tmp_path):
    """The lines a moved ``todo:`` statement keeps are its own: an error in it names where it was
    written (statements.N), not where it went."""
    n = 1_500
    claims = "claims:\n  - {id: a, metric: decode_tps, value: 2, unit: tok/s}\n"
    stmts = "statements:\n" + "".join(
        f"  - {{id: s{i}, todo: name the sides, statement: two, kind: ratio, of: [a], value: 2, unit: x}}\n"
        for i in range(n - 1)
    )
    stmts += f"  - {{id: s{n - 1}, todo: name them, statement: two, kind: ratio, of: [a, zz], value: 2}}\n"
    f = _write(tmp_path, claims + stmts)
    try:
        schema.load(f)
    except schema.ClaimsError as e:
        msg = str(e)
    else:
        raise AssertionError("no error")
    assert msg.startswith(f"{f}:{7 + n - 1}: statements.{n - 1}.of.1: 'zz' is neither")


def test_thousands_of_multiples_in_one_sentence_draft_one_claim_each(tmp_path):
    """DB15: "2× " 30,000 times did not draft in 90 s (each phrase read its sentence, its clause and
    every placed number again); each is a speedup claim of 2 x, quoting at most 500 characters, and
    the file loads."""
    n = 3_000
    post = tmp_path / "post.md"
    post.write_text("2× " * n + "faster\n")
    out, drafted, _ = draftfile.draft_post(post, tmp_path / "c.yaml")
    claims = [e for e in drafted.entries if e.kind == "claim"]
    assert len(claims) == len(drafted.entries) == n
    assert {(e.fields["metric"], str(e.fields["value"]), e.fields["unit"]) for e in claims} == {
        ("speedup", "2", "x")
    }
    assert [e.id for e in claims[:3]] == ["speedup-l1", "speedup-l1-2", "speedup-l1-3"]
    assert max(len(e.fields["quote"]) for e in claims) == 500
    assert len(schema.load(out).claims) == n


def test_a_todo_of_a_sentence_of_many_numbers_lists_the_nearest_twelve():
    """A todo statement listed every number of its sentence: a sentence of thousands of numbers
    and phrases wrote a claims file quadratic in it.  It lists the 12 nearest its phrase, in order
    (then those its words name, as before);
    its ``statement`` is at most 500 characters, as its quote."""
    text = "".join(f"on x the rate was {100 + i} tok/s, 2× faster than {50 + i}.5 tok/s " for i in range(200))
    drafted = draft_text(text + "\n")
    todos = [e for e in drafted.entries if e.kind == "todo"]
    claims = [e.id for e in drafted.entries if e.kind == "claim"]
    assert (len(todos), len(claims)) == (200, 400)
    # the 100th phrase stands between its sentence's 199th and 200th numbers (0-based 198, 199);
    # after the 12 of its sentence, the 4 claims its other side's words name and 6 of its scope
    assert todos[99].fields["of"][:12] == claims[193:205]
    assert todos[0].fields["of"][:12] == claims[:12]
    assert max(len(e.fields["of"]) for e in todos) == 12 + 4 + 6
    assert {len(e.fields["statement"]) for e in todos} == {500}
    assert todos[0].fields["statement"] == todos[0].fields["quote"]


def test_a_todo_of_a_short_sentence_lists_all_its_numbers():
    """Control: up to 12 numbers in the sentence, the todo lists them all, as before."""
    drafted = draft_text("on x the rate was 10 tok/s, 2× faster than 5 tok/s " * 3 + "\n")
    todos = [e for e in drafted.entries if e.kind == "todo"]
    claims = [e.id for e in drafted.entries if e.kind == "claim"]
    assert len(todos) == 3 and all(t.fields["of"] == claims for t in todos)


def test_a_multiple_restating_the_same_one_is_not_drafted_again():
    """ "the same 2×" (``_RESTATED``, read from the words right before the number, not the sentence
    from its start) cites the multiple stated before; "soothe 2×" is no restatement (a word ending
    in "the"), nor is it when spaces run long between the words ("the      claimed    2×": still one)."""

    def ids(text: str) -> list[str]:
        return [e.id for e in draft_text(text).entries]

    assert ids("MTP made decoding 2× faster. Remember the same 2× when reading the rest.\n") == ["speedup-l1"]
    assert ids("MTP made decoding 2× faster. Remember the      claimed    2× when reading.\n") == [
        "speedup-l1"
    ]
    assert ids("MTP made decoding 2× faster. Remember soothe 2× when reading the rest.\n") == [
        "speedup-l1",
        "speedup-l1-2",
    ]


def test_a_statement_of_a_long_sentence_quotes_its_first_500_characters():
    """A relation's ``statement`` is cut as its ``quote`` is (500 characters)."""
    words = "word " * 150
    drafted = draft_text(f"The {words} rate was 10 tok/s and then 20 tok/s, 2× faster.\n")
    (s,) = [e for e in drafted.entries if e.kind == "statement"]
    assert s.fields["of"] == ["decode-tps-l1-2", "decode-tps-l1"]
    assert s.fields["statement"] == s.fields["quote"] == f"The {words}"[:500]


def test_a_million_empty_lines_draft_the_number_after_them():
    """DB13: 1,000,000 empty lines before "5 tok/s" (ingest's scan read three patterns per blank
    line): the claim, on its line."""
    drafted = draft_text("\n" * 1_000_000 + "5 tok/s\n")
    assert [(e.id, str(e.fields["value"]), e.fields["source_line"]) for e in drafted.entries] == [
        ("decode-tps-l1000001", "5", 1_000_001)
    ]


def test_a_table_of_a_thousand_columns_drafts_and_audits(tmp_path):
    """DB12 end to end: a 1,000-column table drafts a group per column and its audit gives a verdict
    per cell (a 10,000-column draft did not audit in 90 s)."""
    n = 1_000
    post = tmp_path / "wide.md"
    post.write_text(wide_table(n))
    out, drafted, _ = draftfile.draft_post(post, tmp_path / "c.yaml")
    assert len(drafted.groups) == n
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        rc = command.main([str(out), "--out", str(tmp_path / "o"), "--pages", str(tmp_path / "o")])
    assert rc == 0
    assert f"audited {n} claims/statements/log entries of 1 file(s)" in err.getvalue()
    cf = schema.load(out)
    assert (cf.claims[-1].id, cf.claims[-1].value, cf.claims[-1].unit) == (f"t1-c{n - 1}-r1", 5, "tok/s")

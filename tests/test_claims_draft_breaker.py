"""Breaker's faults in `benchbook claims draft` (issue 29; `scripts/draft_faults.py` re-runs them as a
catalogue): drafting time quadratic or worse on hostile runs of characters (B01-B06), a reviewed
entry drafted again when the post's lines moved (M01), Latin-1 posts read with replacement characters
(E01), two drafts writing one claims file at once (K01)."""

from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path

import pytest

from benchbook.audit import draftfile, schema
from benchbook.audit.draft import draft_text
from benchbook.audit.draftfile import MAX_POST_BYTES, ascii_number, decode_post, draft_post
from benchbook.audit.draftprose import _IDENT, _Names, _token_start, numbers
from drafting import LINEAR, cpu_growth, wide_table


def test_names_reads_what_the_ident_regex_reads():
    """``_Names`` (linear) gives ``_IDENT.match(text, _token_start(text, i))``'s end for every
    position of random tokens of letters, digits (an Arabic-Indic one), ``_ . - /`` and spaces."""
    rng = random.Random(29)
    alphabet = "a1_.-/ Z9x\u0663\u00e9+"
    for _ in range(5_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        names = _Names(text)
        for i in range(len(text) + 1):
            start = _token_start(text, i)
            assert names.start(i) == start
            m = _IDENT.match(text, start)
            assert names.end(start) == (m.end() if m else None), (text, i)


def test_names_examples():
    names = _Names("on H200.5 and Q4_K_M-v2. then 2026.")
    assert names.end(3) == 9  # "H200.5"
    assert names.end(14) == 23  # "Q4_K_M-v2", not its sentence's dot
    assert names.end(30) is None  # "2026." holds no letter: no name


def test_a_run_of_100000_digits_drafts_at_once():
    """B01: 100,000 digits before "tok/s" took > 20 s (the name regex backtracked quadratically);
    now a fraction of a second, and the number is listed as not placed, not dropped."""
    assert cpu_growth(lambda n: draft_text("x " + "1" * n + " tok/s\n"), 25_000) < LINEAR
    drafted = draft_text("x " + "1" * 100_000 + " tok/s\n")
    assert drafted.entries == []
    assert [(ln, len(num)) for ln, num, _ in drafted.unplaced] == [(1, 100_000)]


def test_runs_of_numbers_glued_by_dots_dashes_slashes_draft_at_once():
    """B02-B04: "1.1.1…", "1-1-1…", "1/1/1…" (100 KB each) took > 20 s: each number walked back to
    its token's start and matched the name regex over the whole token."""
    for glue in ".-/":
        assert cpu_growth(lambda n, g=glue: numbers(("1" + g) * n + " tok/s\n"), 5_000) < LINEAR, glue
        assert len(numbers(("1" + glue) * 20_000 + " tok/s\n")) >= 1


def test_arabic_indic_digits_draft_at_once():
    """B05: 100,000 Arabic-Indic digits (Unicode ``\\d``) before "tok/s"."""
    assert cpu_growth(lambda n: draft_text("\u0661" * n + " tok/s\n"), 25_000) < LINEAR
    drafted = draft_text("\u0661" * 100_000 + " tok/s\n")
    assert drafted.entries == []


def test_a_paragraph_of_unit_less_numbers_drafts_in_linear_time():
    """B06: "1,1,1,…,5 tok/s": each number split all the words since the last number with a unit
    (quadratic); the label is now read from a window before the number."""
    small = "1, " * 2_000 + "5 tok/s\n"
    big = "1, " * 16_000 + "5 tok/s\n"
    t = time.process_time()
    d_small = draft_text(small)
    t_small = time.process_time() - t
    t = time.process_time()
    d_big = draft_text(big)
    t_big = time.process_time() - t
    assert t_big < 20 * max(t_small, 0.05)  # eight times the text, not sixty-four times the time
    assert [(e.id, str(e.fields["value"])) for e in d_small.entries] == [("decode-tps-l1", "5")]
    assert [(e.id, str(e.fields["value"])) for e in d_big.entries] == [("decode-tps-l1", "5")]
    assert len(d_big.unplaced) == 16_000
    assert re.fullmatch(r"1", d_big.unplaced[0][1])


POST_A = (
    "# Fast\n\nI got 123.4 tok/s decode.\n\nPrompt processing was 2345 tok/s.\n\n"
    "The baseline ran at 61.7 tok/s.\n"
)
POST_B = POST_A.replace("# Fast\n\n", "# Fast\n\nNew: decode 99 tok/s.\n\n")
REVIEWED = (
    '  - {id: "decode-tps-l3", metric: "decode_tps", value: 123.5, unit: "tok/s", '
    'conditions: {decoding: "plain"}, source_line: 3, quote: "I got 123.4 tok/s decode.", reviewed: true}'
)


def _claims(out: Path) -> list[tuple[str, str, int]]:
    return [(c.id, f"{c.value:g}", c.source_line) for c in schema.load(out).claims]


def test_lines_moved_keep_the_reviewed_entry_and_draft_it_once(tmp_path):
    """M01: a line added above a reviewed claim: the draft wrote the same number again under its new
    line's id (decode-tps-l5 beside the reviewed decode-tps-l3), and the new sentence's claim on line
    3 (decode-tps-l3) was skipped as reviewed, its number lost.  Now the reviewed one is kept once
    (a note names its new line), the new sentence's claim gets a fresh id, and re-running and
    moving the lines back change nothing the user wrote."""
    post, out = tmp_path / "m.md", tmp_path / "m.yaml"
    post.write_text(POST_A)
    draft_post(post, out)
    text = out.read_text()
    guess = REVIEWED.replace("123.5", "123.4").replace("reviewed: true", "reviewed: false")
    assert guess in text
    out.write_text(text.replace(guess, REVIEWED))
    post.write_text(POST_B)
    _, drafted, guessed = draft_post(post, out)
    assert REVIEWED in out.read_text()
    assert _claims(out) == [
        ("decode-tps-l3", "123.5", 3),
        ("decode-tps-l3-2", "99", 3),
        ("prefill-tps-l7", "2345", 7),
        ("decode-tps-l9", "61.7", 9),
    ]
    assert guessed == ["decode-tps-l3-2", "prefill-tps-l7", "decode-tps-l9"]
    assert drafted.notes == [
        "decode-tps-l3 (reviewed): its quote is now on line 5 of the post, not 3; kept as you wrote it, "
        "not drafted again as decode-tps-l5; fix: set its source_line: 5"
    ]
    again = out.read_text()
    draft_post(post, out)
    assert out.read_text() == again  # ids stay put from run to run
    post.write_text(POST_A)  # the line removed again: the guesses of the moved lines come back
    _, _, guessed = draft_post(post, out)
    assert _claims(out) == [
        ("decode-tps-l3", "123.5", 3),
        ("prefill-tps-l5", "2345", 5),
        ("decode-tps-l7", "61.7", 7),
    ]
    assert guessed == ["prefill-tps-l5", "decode-tps-l7"]


def test_a_statement_cites_the_reviewed_claim_its_line_moved_from(tmp_path):
    """M01: a drafted statement citing a claim whose line moved cites the reviewed id, not the
    draft's new one (which is not written)."""
    post, out = tmp_path / "s.md", tmp_path / "s.yaml"
    post.write_text("# S\n\nPlain decoding gave 50 tok/s and speculative gave 100 tok/s, 2x faster.\n")
    draft_post(post, out)
    first = schema.load(out).claims[0].id
    text = out.read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith(f'  - {{id: "{first}"'))
    out.write_text(text.replace(line, line.replace("reviewed: false", "reviewed: true")))
    post.write_text("# S\n\nIntro.\n\n" + post.read_text().split("\n\n", 1)[1])
    draft_post(post, out)
    loaded = schema.load(out)
    assert [c.id for c in loaded.claims] == [first, first.replace("-l3", "-l5") + "-2"]
    assert first in loaded.statements[0].of


def test_a_drafted_id_the_user_holds_for_another_number_gets_a_fresh_id(tmp_path):
    """M02: the user wrote a claim of their own under an id the draft later makes (decode-tps-l3,
    another number): the drafted claim was skipped as if reviewed; now it is written as
    decode-tps-l3-2 and the user's claim kept."""
    post, out = tmp_path / "u.md", tmp_path / "u.yaml"
    out.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\nclaims:\n"
        "  - {id: decode-tps-l3, metric: decode_tps, value: 7, unit: tok/s}  # my own\n"
    )
    post.write_text("# U\n\nI got 123.4 tok/s decode.\n")
    _, _, guessed = draft_post(post, out)
    assert guessed == ["decode-tps-l3-2"]
    assert _claims(out) == [("decode-tps-l3-2", "123.4", 3), ("decode-tps-l3", "7", None)]
    assert "value: 7, unit: tok/s}  # my own" in out.read_text()


def test_a_latin1_line_is_read_as_windows_1252_and_said(tmp_path):
    """E01: a Latin-1 post (or one Latin-1 line in a UTF-8 post) was read with replacement
    characters: the quote said "D\\ufffdcodage".  Now such lines are read as Windows-1252 and a note
    names them."""
    post = tmp_path / "l1.md"
    post.write_bytes(
        "# Vitesse\n\nUTF-8 : décodage 5 tok/s.\n".encode()
        + "Latin : Décodage 123,4 tok/s.\n".encode("latin-1")
    )
    out, drafted, _ = draft_post(post)
    assert [(c.id, c.quote) for c in schema.load(out).claims] == [
        ("decode-tps-l3", "UTF-8 : décodage 5 tok/s."),
        ("decode-tps-l4", "Latin : Décodage 123,4 tok/s."),
    ]
    assert drafted.notes[0] == (
        "l1.md: line 4 not UTF-8: read as Windows-1252 (Latin-1); check its quotes, or save the post as UTF-8"
    )
    assert decode_post(b"\xe9\n\xe8\n" * 4) == (
        "é\nè\n" * 4,
        "lines 1, 2, 3, 4, 5 and 3 more not UTF-8: read as Windows-1252 (Latin-1); check their quotes, "
        "or save the post as UTF-8",
    )
    assert decode_post("ok é".encode()) == ("ok é", None)  # control: UTF-8 is read as it is


def test_utf16_without_a_byte_order_mark_is_read_whole(tmp_path):
    """E02: UTF-16 without a byte-order mark was read as UTF-8 with its NULs dropped: every
    character beyond ASCII was lost ("Décodage" -> "Dcodage", "速度" gone)."""
    text = "# T\n\nDécodage 5 tok/s — 速度 6 tok/s\n"
    for codec, how in [("utf-16-le", "LE"), ("utf-16-be", "BE")]:
        assert decode_post(text.encode(codec)) == (
            text,
            f"read as UTF-16 {how} (no byte-order mark: by where its NUL bytes are)",
        )
    assert decode_post(text.encode("utf-16")) == (text, "read as UTF-16 (byte-order mark)")
    assert decode_post(b"\xef\xbb\xbf" + text.encode()) == (text, None)


def test_a_post_that_never_ends_is_refused(tmp_path):
    """E03: `claims draft /dev/zero` read without end (memory); stdin bytes past the limit too."""
    with pytest.raises(ValueError) as e:
        draft_post("/dev/zero", tmp_path / "z.yaml")
    assert str(e.value) == (
        "/dev/zero: more than 64 MiB, no post; fix: draft the part of it that is the post (saved to a file "
        "of its own)"
    )
    with pytest.raises(ValueError) as e:
        draft_post("-", tmp_path / "z.yaml", b"x" * (MAX_POST_BYTES + 1))
    assert str(e.value).startswith("stdin: more than 64 MiB, no post; fix:")
    assert not (tmp_path / "z.yaml").exists()


def test_stdin_bytes_are_decoded_like_a_file(tmp_path):
    """E04: Latin-1 on stdin read through the locale's codec (replacement characters, or a
    UnicodeDecodeError under a C locale); now decoded as a file is."""
    out, drafted, _ = draft_post("-", tmp_path / "s.yaml", "Décodage 5 tok/s\n".encode("latin-1"))
    assert [c.quote for c in schema.load(out).claims] == ["Décodage 5 tok/s"]
    assert drafted.notes[0].startswith("stdin: line 1 not UTF-8: read as Windows-1252")


def test_two_drafts_into_one_file_at_once_never_lose_one_silently(tmp_path):
    """K01: blog.md and blog.html drafted into one -o at once: both passed the check that the file
    was drafted from the same post (no file yet), both wrote, both said so (exit 0), and the file
    held the second post's draft alone.  Now drafts into one folder take turns: the second is
    refused naming the first post."""
    (tmp_path / "blog.md").write_text("".join(f"Run {i}: decode {i}.5 tok/s.\n\n" for i in range(300)))
    (tmp_path / "blog.html").write_text(
        "<html><body>"
        + "".join(f"<p>Run {i}: prefill {i}.5 tok/s.</p>" for i in range(300))
        + "</body></html>"
    )
    out = tmp_path / "c.yaml"
    results: dict[str, str] = {}

    def draft(name: str) -> None:
        try:
            draft_post(tmp_path / name, out)
            results[name] = "ok"
        except ValueError as e:
            results[name] = str(e)

    threads = [threading.Thread(target=draft, args=(n,)) for n in ("blog.md", "blog.html")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    first = next(n for n, r in results.items() if r == "ok")
    second = "blog.html" if first == "blog.md" else "blog.md"
    assert results[second] == (
        f"{out}: drafted from {first}, not {second} (a claims file holds one post's draft; "
        "never merged); fix: draft it into another file, "
        f"`benchbook claims draft {second} -o {second}.claims.yaml`, "
        f"then `benchbook audit {second}.claims.yaml`"
    )
    assert f'  post: "{first}"' in out.read_text()


def test_a_claims_file_saved_while_the_draft_merges_it_is_not_overwritten(tmp_path, monkeypatch):
    """K02: the user saved the claims file (a review) while a draft was merging it: the draft wrote
    the file as it was before, the review lost.  Now the draft stops, naming the file."""
    post, out = tmp_path / "p.md", tmp_path / "p.yaml"
    post.write_text("I got 123.4 tok/s decode.\n")
    draft_post(post, out)
    saved = out.read_text().replace("reviewed: false}", "reviewed: true}")
    real = draftfile.render

    def render_while_saving(*args, **kwargs):
        text = real(*args, **kwargs)
        out.write_text(saved)  # the editor's save, during the merge
        return text

    monkeypatch.setattr(draftfile, "render", render_while_saving)
    with pytest.raises(ValueError) as e:
        draft_post(post, out)
    assert str(e.value) == (
        f"{out}: changed while the draft was merged into it (an editor saved it?); nothing written; fix: "
        "run the draft again"
    )
    assert out.read_text() == saved


def test_full_width_and_arabic_indic_digits_are_written_as_numbers(tmp_path):
    """N01: "١٢٣ tok/s", "~６ tok/s", "6–７ tok/s", "5 ± ０.５ ms", "２× faster" were written as
    ``value: ١٢٣``, ``range: [6, ７]``, ``spread: ０.５``: strings, and the drafted file did not load
    ("claims.0.value: a number is needed").  Now the digits are written as ASCII and it loads."""
    post = tmp_path / "u.md"
    post.write_text("A: ١٢٣ tok/s, ~６ tok/s, 6–７ tok/s, 5 ± ０.５ ms, ２× faster than 3 tok/s\n")
    out, _, _ = draft_post(post)
    loaded = schema.load(out)
    assert [(c.id, c.value, c.range, c.spread) for c in loaded.claims] == [
        ("decode-tps-l1", 123, None, None),
        ("decode-tps-l1-2", 6, None, None),
        ("decode-tps-l1-3", None, (6, 7), None),
        ("duration-l1", 5, None, 0.5),
        ("decode-tps-l1-4", 3, None, None),
    ]
    assert 'kind: "ratio", statement: "A: ١٢٣ tok/s' in out.read_text()
    assert '"decode-tps-l1-4"], value: 2, unit: "x"' in out.read_text()
    assert ascii_number("１２３．５") == "123.5"
    assert ascii_number("−0.5") == "-0.5"
    assert ascii_number("2,345") == "2,345"  # control: ASCII as written


def test_a_table_of_thousands_of_columns_renders_in_linear_time():
    """DB12: a table of 10,000 columns (one group per column) did not finish in 90 s: each group
    passed over every drafted entry twice (quadratic); rows are now gathered once."""

    drafts = {k: draft_text(wide_table(k)) for k in (46, 750, 3_000)}  # drafted outside the timing
    # was ~10 s for 3,000 columns, 100 s for 10,000: four times the columns, about four times the time
    assert cpu_growth(lambda k: draftfile.render(drafts[k], "wide.md"), 750) < LINEAR
    n = 3_000
    text, guessed = draftfile.render(drafts[n], "wide.md")
    assert len(guessed) == 2 * n  # a group and its row per column
    assert text.count("\n  - id: ") == n
    assert '        - ["t1-c2999-r1", 5, 3, "c2999: 5 tok/s — |5 tok/s|' in text


def test_the_terminal_summary_of_an_empty_draft_and_of_a_reviewed_file(tmp_path):
    """New users read "no entry guessed: every entry of the file is reviewed" for a draft of nothing,
    and "drafted 2 claims ... into FILE" when the draft kept their reviewed file as it was."""
    from benchbook.audit.draftfile import summary

    empty = tmp_path / "empty.md"
    empty.write_text("# A post\n\nNo measurements here, only 3 cats.\n")
    out, drafted, guessed = draft_post(empty)
    assert summary("empty.md", out, drafted, guessed)[:2] == [
        f"empty.md: {out} holds 0 claims, 0 statements, 0 todo statements: 0 drafted this time "
        "(reviewed: false), 0 kept as you wrote them; 1 number not placed (listed under draft.unplaced)",
        "nothing drafted: no number the drafter could read as a measurement (see draft.unplaced)",
    ]
    post = tmp_path / "one.md"
    post.write_text("# A post\n\nI got 12.5 tok/s.\n")
    out, _, _ = draft_post(post)
    out.write_text(out.read_text().replace("reviewed: false", "reviewed: true"))
    out, drafted, guessed = draft_post(post)
    assert guessed == []
    assert summary("one.md", out, drafted, guessed)[1] == (
        "no entry guessed: every entry of the file is reviewed, kept as you wrote it"
    )


def test_the_summary_counts_what_the_file_holds_after_hand_edits(tmp_path):
    """A new user's re-run after adding entries by hand said "found 9 claims, 3 statements" while the
    audit read 11 claims and 4 statements: the first line counted the draft alone.  It counts the file
    as written now, and how many entries this draft wrote vs kept as the user wrote them."""
    from benchbook.audit.draftfile import summary

    post = tmp_path / "two.md"
    post.write_text(
        "# A post\n\nPlain decoding gave 12.5 tok/s.\n\nWith a draft model it gave 25.0 tok/s, 2x faster.\n"
    )
    out, drafted, guessed = draft_post(post)
    assert summary("two.md", out, drafted, guessed)[0] == (
        f"two.md: {out} holds 2 claims, 1 statement, 0 todo statements: 3 drafted this time (reviewed: "
        "false), 0 kept as you wrote them; 0 numbers not placed (listed under draft.unplaced)"
    )
    text = out.read_text().replace(
        'source_line: 3, quote: "Plain decoding gave 12.5 tok/s.", reviewed: false',
        ('source_line: 3, quote: "Plain decoding gave 12.5 tok/s."'),
    )
    text = text.replace(
        "statements:\n",
        (
            '  - {id: "mine-1", metric: "decode_tps", value: 13.0, unit: "tok/s", '
            'conditions: {decoding: "plain"}}\n'
            "statements:\n"
            '  - {id: "s-mine", kind: "ratio", statement: "mine", of: ["decode-tps-l5", "mine-1"], '
            'value: 1.9, unit: "x"}\n'
        ),
    )
    out.write_text(text)
    out, drafted, guessed = draft_post(post)
    assert guessed == ["decode-tps-l5", "s-l5"]
    assert summary("two.md", out, drafted, guessed)[:2] == [
        f"two.md: {out} holds 3 claims, 2 statements, 0 todo statements: 2 drafted this time (reviewed: "
        "false), 3 kept as you wrote them; 0 numbers not placed (listed under draft.unplaced)",
        "2 entries guessed (reviewed: false; check each against its quote): decode-tps-l5, s-l5",
    ]

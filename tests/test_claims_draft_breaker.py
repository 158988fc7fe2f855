"""Breaker's faults in `benchbook claims draft` (issue 29; `scripts/draft_faults.py` re-runs them as a
catalogue): drafting time quadratic or worse on hostile runs of characters (B01-B06), a reviewed
entry drafted again when the post's lines moved (M01), Latin-1 posts read with replacement characters
(E01), two drafts writing one claims file at once (K01)."""

from __future__ import annotations

import random
import re
import time

from benchbook.audit.draft import draft_text
from benchbook.audit.draftprose import _IDENT, _Names, _token_start, numbers


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
    t = time.process_time()
    drafted = draft_text("x " + "1" * 100_000 + " tok/s\n")
    assert time.process_time() - t < 5
    assert drafted.entries == []
    assert [(ln, len(num)) for ln, num, _ in drafted.unplaced] == [(1, 100_000)]


def test_runs_of_numbers_glued_by_dots_dashes_slashes_draft_at_once():
    """B02-B04: "1.1.1…", "1-1-1…", "1/1/1…" (100 KB each) took > 20 s: each number walked back to
    its token's start and matched the name regex over the whole token."""
    for glue in ".-/":
        text = ("1" + glue) * 20_000 + " tok/s\n"
        t = time.process_time()
        found = numbers(text)
        assert time.process_time() - t < 5, glue
        assert len(found) >= 1


def test_arabic_indic_digits_draft_at_once():
    """B05: 100,000 Arabic-Indic digits (Unicode ``\\d``) before "tok/s"."""
    t = time.process_time()
    drafted = draft_text("\u0661" * 100_000 + " tok/s\n")
    assert time.process_time() - t < 5
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

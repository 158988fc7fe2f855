"""Numbers and metrics of `benchbook claims draft` (issue 29's "numbers captured with the right value,
unit and precision" and "the right metric"), by kind: each kind with its drafted values exactly and a
control that must not change.  Texts are made up in the field's style; the metric names follow the
draft corpus's conventions (tests/fixtures/draft_corpus/SOURCES.md, its header)."""

from __future__ import annotations

from benchbook.audit import schema
from benchbook.audit.draftprose import bound_of, numbers
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit, c.about) for c in cf.claims]


# --- units: "tk/s", a time word joined by a hyphen, an arrow before a number ----------------------


def test_tk_per_second_is_a_rate():
    got = [(n.text, n.unit, n.about) for n in numbers("about ~45tk/s decode, 800 tk/s prefill; 3 tks")]
    assert got == [("45", "tok/s", True), ("800", "tok/s", False), ("3", None, False)]


def test_time_word_joined_by_a_hyphen_is_the_unit():
    got = [(n.text, n.unit) for n in numbers("it needs 20-minute rebuilds and a 3-hour soak; 10-20 minutes")]
    assert got == [("20", "min"), ("3", "h"), ("10–20", "min")]
    # control: a hyphen before another word states no number ("4-bit"), nor before a token count
    assert [(n.text, n.unit) for n in numbers("a 4-bit cache, 512-token prompt")] == []


def test_arrow_before_a_number_is_no_bound():
    text = "MyEngine -->  48.20 tok/s, other => 31 t/s"
    assert [bound_of(text, n) for n in numbers(text)] == [None, None]
    # control: ">" alone is a lower bound
    text = "it stays > 40 t/s"
    assert [bound_of(text, n) for n in numbers(text)] == ["above"]


def test_arrow_line_drafts_a_claim(tmp_path):
    cf = _drafted("My fork -->  52.75 token / sec !!  (same prompt)\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 52.75, "tok/s", False)]
    assert cf.statements == []

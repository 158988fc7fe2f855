"""`benchbook claims draft`: relating phrases drafted as statements with the right sides (issue 29's
statements figure), each kind with made-up text in the field's style and a control."""

from __future__ import annotations

from pathlib import Path

from benchbook.audit import schema
from benchbook.audit.draftfile import draft_post


def _drafted(text: str, tmp_path: Path, name: str = "post.md") -> schema.ClaimsFile:
    post = tmp_path / name
    post.write_text(text, encoding="utf-8")
    out, _, _ = draft_post(post)
    return schema.load(out)


def _stmts(cf: schema.ClaimsFile) -> list[tuple]:
    return [(s.kind, s.of, s.value, s.unit) for s in cf.statements]


def _value_of(cf: schema.ClaimsFile, cid: str) -> float | None:
    c = cf.claim(cid)
    assert c is not None, cid
    return c.value


_SWEEP = (
    "We kept the 8B target fixed: without a draft model it decodes at a baseline of 30.0 tok/s.\n\n"
    "| Draft | Size on disk | Decode | Speedup | VRAM |\n|---|---|---|---|---|\n"
    "| 0.6B | 640 MB | 45.0 tok/s | 1.50× | 7,100 MB |\n"
    "| 1.7B | 1,800 MB | 39.0 tok/s | 1.30× | 8,200 MB |\n"
)


def test_a_speedup_column_over_a_baseline_stated_in_prose(tmp_path):
    """A "Speedup" column beside one rate column and two size columns, with no baseline row: each
    cell is a ratio of the row's rate (not its sizes) over the baseline rate the prose states before
    the table."""
    cf = _drafted(_SWEEP, tmp_path)
    got = _stmts(cf)
    assert [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in got] == [
        ("ratio", [45.0, 30.0], 1.5, "x"),
        ("ratio", [39.0, 30.0], 1.3, "x"),
    ]
    assert not [c for c in cf.claims if c.metric == "speedup"]


def test_a_speedup_column_over_a_plain_rate_in_prose_other_wordings(tmp_path):
    """The same with the baseline written "no-spec" and a "vs. plain" column of percentages: a
    percent change from the baseline to the row's rate."""
    text = (
        "Plain decoding (no-spec) runs at 20 t/s on this card.\n\n"
        "| Method | Model size | Generation (t/s) | vs. plain |\n|---|---|---|---|\n"
        "| n-gram | 4.1 GB | 25 | +25% |\n| EAGLE | 4.4 GB | 31 | +55% |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in _stmts(cf)]
    assert got == [("percent_change", [20.0, 25.0], 25.0, "%"), ("percent_change", [20.0, 31.0], 55.0, "%")]


def test_a_speedup_column_with_no_baseline_anywhere_stays_claims(tmp_path):
    """Control: with no baseline in the prose (a rate that is no baseline), the cells are claims
    of the change, no statement with guessed sides."""
    text = _SWEEP.replace("without a draft model it decodes at a baseline of 30.0 tok/s", "it ran 30.0 tok/s")
    cf = _drafted(text, tmp_path)
    assert cf.statements == []
    assert sorted(c.value for c in cf.claims if c.metric == "speedup") == [1.3, 1.5]


def test_a_change_in_japanese_korean_word_order_relates_the_previous_rate(tmp_path):
    """ "17.5tok/sec!12%速くなりました" (12% faster): the words after a Japanese, Korean or Chinese
    comparison word are a verb, not the other side, so the change relates the rate before it to
    the one it follows (the one pair), not a claim of the change."""
    for text in (
        "最初は15.6tok/secでした。\n\n設定を変えたら17.5tok/sec!12%速くなりましたね。\n",
        "처음에는 15.6 tok/s였다.\n\n설정을 바꾸니 17.5 tok/s, 12% 빨라졌습니다.\n",
    ):
        cf = _drafted(text, tmp_path)
        got = [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in _stmts(cf)]
        assert got == [("percent_change", [15.6, 17.5], 12.0, "%")], text
        assert not [c for c in cf.claims if c.unit == "%"]


def test_a_change_with_no_earlier_rate_stays_a_claim_of_the_change(tmp_path):
    """Control: "12%速くなりました" with no other rate in the post is a claim of the change."""
    cf = _drafted("設定を変えたら17.5tok/sec!12%速くなりましたね。\n", tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value, c.unit) for c in cf.claims if c.unit == "%"] == [("speed_change", 12.0, "%")]

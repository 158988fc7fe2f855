"""Issue 27 item 8: what the whole source rests on, on the audit page (fixtures/audit/standing.yaml)."""

from pathlib import Path

from benchbook.audit import page, run
from benchbook.audit.standing import standing
from benchbook.audit.verdicts import Here

FX = Path(__file__).parent / "fixtures" / "audit"
CLOVER = Path(__file__).resolve().parents[1] / "data" / "claims" / "clover-35b-a3b-blog.yaml"


def test_standing_counts_and_the_conclusions_on_weak_claims_only():
    a = run.audit_file(FX / "standing.yaml", here=Here())
    st = standing(a.claims, a.verdicts)
    assert (st.kind, st.summary_of) == ("news item", "a forum thread on local inference")
    # 5 numbers: a "about", d a range; statement weak-too "about"; n stated for a, b, c (2 below 3)
    assert (st.numbers, st.approximate, st.ranges, st.approximate_statements) == (5, 1, 1, 1)
    assert st.sources == [("the source", 3), ("a forum user", 2)]
    assert (st.n_stated, st.n_unknown, st.n_below_min) == (3, 2, 2)
    # weak: b, a both n = 1; weak-too cites weak twice (same claims); sound rests on c too (control)
    assert [(c.id, c.claims) for c in st.weak_only] == [
        ("weak", ["a (at risk)", "b (at risk)"]),
        ("weak-too", ["a (at risk)", "b (at risk)"]),
    ]
    text = page.render(a.claims, a.verdicts, "standing.yaml")
    assert "<li>source: a news item summarising a forum thread on local inference (second-hand)</li>" in text
    assert "<li>published by: the source (3 numbers); a forum user (2 numbers)</li>" in text
    assert "<li>n: stated for 3 of 5 numbers, unknown for 2; 2 below 3 runs</li>" in text
    assert text.count("<b>rests only on claims at risk or unsupported</b>") == 2


def test_clover_standing():
    a = run.audit_file(CLOVER, here=Here())
    st = standing(a.claims, a.verdicts)
    # 33 numbers, ext-h200-draft-self "about", 4 earlier-post ranges; 3 statements "about"
    assert (st.numbers, st.approximate, st.ranges, st.approximate_statements) == (33, 1, 4, 3)
    assert st.sources == [
        ("the source", 25),
        ("the fork's author", 1),
        ("the model's vendor", 3),
        ("the author's earlier post", 4),
    ]
    assert (st.n_stated, st.n_unknown, st.n_below_min, st.runs_per_prompt) == (9, 24, 9, 1)
    assert st.weak_only == []  # each statement cites a plain tg128 number with no qualifier


def test_the_source_kind_takes_its_article():
    """A new user's page read "source: a issue"."""
    from benchbook.audit.page import _a

    assert [_a(w) for w in ("issue", "update", "blog post", "user comment", "unit", "forum", "Issue")] == [
        "an",
        "an",
        "a",
        "a",
        "a",
        "a",
        "an",
    ]


def test_a_claim_is_shown_with_the_digits_it_was_written_with(tmp_path):
    """A new user's page showed "42 tok/s" where the post (and the claims file) say 42.0."""
    from benchbook.audit import schema
    from benchbook.audit.verdicts import claim_text

    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\nclaims:\n"
        "  - {id: a, metric: decode_tps, value: 42.0, unit: tok/s}\n"
        "  - {id: b, metric: decode_tps, range: [6.10, 6.3], unit: t/s, about: true}\n"
        "  - {id: c, metric: ttft, value: 0.04074668884277344, decimals: null, unit: s}\n"
    )
    cf = schema.load(f)
    assert [claim_text(c) for c in cf.claims] == [
        "decode_tps = 42.0 tok/s",
        "decode_tps = about 6.10–6.3 t/s",
        "ttft = 0.04074668884 s",
    ]

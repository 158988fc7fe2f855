"""Someone else's number quoted in a post (``draftcore.origin_at``, ``draftcontext._own_words``, issue
29): the quoted person's clauses get ``origin``, the author's own clause in the same sentence does
not, and what the quoted sentence names (their GPU) is no condition of the author's claims, before
or after it.  Controls: a number before a plain "according to …" stays quoted; the author's own
GPU still reaches their claims.  The texts are made up here in the shapes posts use."""

from __future__ import annotations

from benchbook.audit.draftcore import origin_at
from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_the_authors_own_clause_after_a_quote_is_the_authors():
    s = "A redditor on r/foo got 3.1x on a 7900 XTX, I tried the same and got 44 tok/s on mine."
    assert origin_at(s, s.index("3.1x")) == "A redditor on r/foo"
    assert origin_at(s, s.index("44")) is None
    s = "Prefill is roughly 9% below the server numbers, which matches what others report."
    assert origin_at(s, s.index("9%")) is None
    # controls: a number before a plain attribution is theirs; a sentence naming nobody has none
    s = "The model reaches 2.2x, according to the paper."
    assert origin_at(s, s.index("2.2x")) == "the paper"
    assert origin_at("I got 44 tok/s.", 7) is None


def test_a_quoted_sentence_names_no_condition_of_the_authors_claims(tmp_path):
    text = (
        "My run gave 31.4 tok/s with the 7B model.\n\n"
        "Someone on the forum reported 52 tok/s on an RTX 4090.\n\n"
        "A second try gave 30.9 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = {c.value: c for c in cf.claims}
    assert "hardware" not in _cond(cf, by_value[31.4])
    assert "hardware" not in _cond(cf, by_value[30.9])
    assert by_value[52].origin == "Someone on the forum"
    assert _cond(cf, by_value[52])["hardware"] == "NVIDIA GeForce RTX 4090"


def test_control_the_authors_own_gpu_still_reaches_their_claims(tmp_path):
    text = (
        "Tested on an RTX 3060.\n\nMy run gave 31.4 tok/s.\n\n"
        "Someone on the forum reported 52 tok/s on an RTX 4090.\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = {c.value: c for c in cf.claims}
    assert _cond(cf, by_value[31.4])["hardware"] == "NVIDIA GeForce RTX 3060"
    assert _cond(cf, by_value[52])["hardware"] == "NVIDIA GeForce RTX 4090"

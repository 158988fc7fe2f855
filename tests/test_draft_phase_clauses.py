"""The phase of a percent change named in its own coordinated clause (``draftsides.rate_named``,
issue 29): "N% faster at generation and M% faster at the prompt" gives each number the phase of its
clause, in English and German ("Generierung").  Control: a phase named only before the number in
one clause still holds ("PP is 28% faster").  Chinese phase words (预填充, 生成速度) and a change
verb with a precision word before the number ("快约 9%", ``draftrelations._BEFORE``).  The texts
are made up here in the shapes posts use."""

from __future__ import annotations

from benchbook.audit.draftsides import rate_named


def _phases(text: str) -> list[str | None]:
    return [rate_named(text, i) for i in range(len(text)) if text[i].isdigit() and text[i + 1] == "%"]


def test_each_coordinated_clause_names_its_own_phase():
    assert _phases("It is about 7% faster at generation and 19% faster at prompt processing.") == [
        "decode_tps",
        "prefill_tps",
    ]
    assert _phases("Version B ist rund 8% schneller bei der Generierung und 14% schneller beim Prompt.") == [
        "decode_tps",
        "prefill_tps",
    ]
    # controls: the phase before the number in its clause; no phase at all
    assert _phases("PP is 3% faster while generation gained 6% too") == ["prefill_tps", "decode_tps"]
    assert _phases("It got 9% faster overall.") == [None]


def test_chinese_phase_words_and_a_precision_word_after_the_verb():
    s = "甲的生成速度比乙快约 9%，预填充快了 31%。"
    assert rate_named(s, s.index("9%")) == "decode_tps"
    assert rate_named(s, s.index("31%")) == "prefill_tps"
    # control: speculative decoding is a method, not the decode phase
    assert rate_named("推测解码速度 31%", 7) is None


def test_a_chinese_change_with_a_precision_word_is_a_change():
    from benchbook.audit.draftprose import numbers
    from benchbook.audit.draftrelations import relations

    for text in ("甲比乙快约 9%。", "甲比乙慢了近 9%。"):
        found = relations(text, numbers(text))
        assert [(r.kind, r.number.text, r.sign) for r in found] == [
            ("percent_change", "9", 1 if "快" in text else -1)
        ]
    # control: a share with no comparison word is no change
    assert relations("占用约 9%。", numbers("占用约 9%。")) == []

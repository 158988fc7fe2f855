"""The phase of a percent change named in its own coordinated clause (``draftsides.rate_named``,
issue 29): "N% faster at generation and M% faster at the prompt" gives each number the phase of its
clause, in English and German ("Generierung").  Control: a phase named only before the number in
one clause still holds ("PP is 28% faster").  The texts are made up here in the shapes posts use."""

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

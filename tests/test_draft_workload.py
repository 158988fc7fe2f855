"""The workload a claim ran (``benchbook claims draft``, issue 29): its prompt or task, its decoding
(plain or speculative), its concurrency, its draft size (``block_max``) and the tokens it generated --
from a table's column or row labels, a setup list's labelled lines, a command's flags and the words
of a post.  Made-up posts; each kind with a control of what must not change."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_column_of_rates_without_a_unit_named_by_a_word_is_its_prompt(tmp_path):
    """A table whose rates take their unit from the paragraph above, with columns headed by plain
    words ("| go | rust |"), ran one prompt per column.  Control: columns headed by hardware or a
    decoding word name that, not a prompt."""
    cf = _drafted(
        "# Draft sizes\n\nPlain decoding: 20.5 tokens/second.\n\n"
        "| draft-max | go | rust |\n|---|---|---|\n| 8 | 31.25 | 28.75 |\n| 4 | 29.5 | 27.25 |\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert (got[31.25]["prompt"], got[28.75]["prompt"], got[27.25]["prompt"]) == ("go", "rust", "rust")
    assert "prompt" not in got[20.5]
    cf = _drafted(
        "# Two cards\n\nSpeeds in tokens/second.\n\n"
        "| model | RTX 4090 | Baseline |\n|---|---|---|\n| 7B | 51.5 | 42.5 |\n| 13B | 33.5 | 30.25 |\n",
        tmp_path,
    )
    assert all("prompt" not in _cond(cf, c) for c in cf.claims)

"""``blocks.show``: what the generic notebooks display of an experiment's ``sections``, in order; anything
but a block is refused (naming its type).  In a kernel each block is one output (the executed report
notebooks: ``tests/test_executed_notebooks.py``); outside one, IPython prints it."""

from __future__ import annotations

import pytest

from benchbook import blocks


def test_show_displays_each_block_in_order(capsys):
    def sections():
        yield blocks.Text("ok: 12 configurations")
        yield blocks.Value({"session": "s1", "configs": 12})
        assert False, "a failed check stops the notebook after what was shown"  # noqa: B011

    with pytest.raises(AssertionError, match="a failed check"):
        blocks.show(sections())
    # outside a kernel IPython's display() prints the object; a kernel would make it a text/plain output
    assert capsys.readouterr().out == "ok: 12 configurations\n{'session': 's1', 'configs': 12}\n"


def test_show_refuses_what_is_not_a_block():
    with pytest.raises(TypeError, match="got str; fix: yield one of those"):
        blocks.show([blocks.Text("ok"), "## a heading"])  # type: ignore[list-item]

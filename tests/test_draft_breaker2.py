"""Breaker2's faults in `benchbook claims draft` (issue 29; `scripts/draft_faults.py` DX01-DX05 re-run
them as a catalogue): an empty ATX heading (IndexError), a context size past a float's range
("10^400 k": OverflowError), a superscript or circled digit as a flag's count ("-n ²": ValueError),
a llama-bench size or params cell of 400 digits (OverflowError)."""

from __future__ import annotations

import pytest

from benchbook.audit.draft import draft_text
from benchbook.audit.draftcommand import conditions_of
from benchbook.audit.draftwords import count
from benchbook.audit.post import blocks_of


@pytest.mark.parametrize("text", ["# \n", "#\n\nDecode 5 tok/s.\n", "## ![](x.png)\n\nDecode 5 tok/s.\n"])
def test_an_empty_heading_drafts(text):
    d = draft_text(text, "post.md")
    values = [e.fields["value"] for e in d.entries if e.kind == "claim"]
    assert values == ([] if text == "# \n" else ["5"])


def test_an_empty_heading_is_no_block_and_a_control_heading_is():
    assert blocks_of("# \n") == []
    (b,) = blocks_of("# Fast\n")
    assert b.heading and b.lines == [(1, "Fast")]


def test_a_count_past_a_floats_range_is_none():
    assert count("9" * 400, "k") is None
    assert count("9" * 307, "k") is None  # finite, but x 1000 is not
    assert count("9" * 400, None) is None
    # controls: the documented values stay
    assert count("128", "k") == 131072
    assert count("80", "k") == 80000
    assert count("8192", None) == 8192


def test_a_context_of_400_digits_k_drafts_without_a_ctx():
    d = draft_text("With a context of " + "9" * 400 + "k tokens I got 5 tok/s.\n", "post.md")
    (c,) = [e for e in d.entries if e.kind == "claim"]
    assert c.fields["value"] == "5" and "ctx" not in c.fields.get("conditions", {})
    d = draft_text("| ctx | tok/s |\n|---|---|\n| " + "9" * 400 + "K | 5 |\n", "post.md")
    assert d.groups  # the row drafted; its ctx cell kept as text


@pytest.mark.parametrize("n", ["²", "①", "¹²⁸"])
def test_a_non_decimal_digit_count_is_no_cap(n):
    out = conditions_of("llama-cli", ["llama-cli", "-m", "x.gguf", "-n", n])
    assert "cap" not in out and out["other"]["n"] == n
    out = conditions_of("llama-bench", ["llama-bench", "-n", n])
    assert "tokens_generated" not in out


def test_a_decimal_count_is_a_cap_control():
    assert conditions_of("llama-cli", ["llama-cli", "-n", "128"])["cap"] == 128
    assert conditions_of("llama-cli", ["llama-cli", "-n", "١٢٨"])["cap"] == 128  # int() reads Arabic-Indic
    assert conditions_of("llama-bench", ["llama-bench", "-n", "64"])["tokens_generated"] == 64


def test_a_command_with_superscript_counts_drafts():
    d = draft_text("```\nllama-cli -m x.gguf -n ² --temp ①\n```\nI got 5 tok/s.\n", "post.md")
    assert [e.fields["value"] for e in d.entries if e.kind == "claim"] == ["5"]


_BENCH = (
    "| model | size | params | backend | ngl | test | t/s |\n"
    "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
)


def test_llama_bench_size_and_params_past_a_floats_range_are_none():
    from benchbook.ingest.markdown import parse_params, parse_size

    assert parse_size("9" * 400 + " GiB") is None and parse_params("9" * 400 + " B") is None
    assert parse_size("9" * 300 + " TiB") is None  # finite, but x 2^40 is not
    assert parse_size("1.2.3 GiB") is None and parse_params("1.2.3 B") is None
    # controls
    assert parse_size("3.56 GiB") == 3822520893 and parse_params("6.74 B") == 6740000000


def test_a_llama_bench_row_of_400_digit_cells_drafts_with_a_note():
    big = "9" * 400
    row = f"| llama 7B Q4_K_M | {big} GiB | {big} B | CUDA | {big} | pp{big} @ d{big} | {big} ± {big} |\n"
    d = draft_text(_BENCH + row, "post.md")
    assert d.notes and "not a whole number" in d.notes[0]

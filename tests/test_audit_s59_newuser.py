"""A new user's findings against the audit (issue 29, session 59): a "throughput cliff at the memory
limit" between rows of different models (and quants), with a hole where its neighbour should be
named; each fixed with its right value and a control."""

from __future__ import annotations

from benchbook.audit import run
from benchbook.audit.verdicts import Here

_ROWS = """\
schema: benchbook.claims
schema_version: 1
source: {kind: post}
claims:
  - {id: gemma, metric: decode_tps, value: 134.3, unit: tok/s,
     conditions: {model: Gemma-3-1B, quant: Q4_K_M, offload: {n_gpu_layers: 35}}}
  - {id: llama, metric: decode_tps, value: 18.7, unit: tok/s,
     conditions: {model: Llama-3.1-8B, quant: Q4_K_M, offload: {n_gpu_layers: 99}}}
  - {id: ngl20, metric: decode_tps, value: 92.1, unit: tok/s,
     conditions: {model: Qwen3-8B, quant: Q4_K_M, offload: {n_gpu_layers: 20}}}
  - {id: ngl36, metric: decode_tps, value: 31.0, unit: tok/s,
     conditions: {model: Qwen3-8B, quant: Q4_K_M, offload: {n_gpu_layers: 36}}}
"""


def test_a_cliff_is_between_rows_of_one_model_and_names_its_neighbour(tmp_path):
    f = tmp_path / "rows.yaml"
    f.write_text(_ROWS, encoding="utf-8")
    got = {v.id: v for v in run.audit_file(f, here=Here()).verdicts}
    reasons = {k: [q.reason for q in v.qualifiers if q.check == "memory_spill"] for k, v in got.items()}
    assert reasons["llama"] == []  # another model (Gemma's 35 layers): no sweep, no cliff
    assert reasons["gemma"] == []
    assert reasons["ngl36"] == [
        "throughput cliff at the memory limit: 31 tok/s against 92.1 at n_gpu_layers 20 (ngl20) with more "
        "offloaded"
    ]


def test_the_busy_notice_names_a_many_line_command_on_one_line():
    """The notice stopped at another user's `python -c "…` (its script's line breaks), its advice lost."""
    from benchbook.busynow import command_text

    assert command_text([".venv/bin/python", "-c", "import x\n\nx.run(\n  1)\n"]) == (
        ".venv/bin/python -c import x x.run( 1)"
    )
    assert "\n" not in command_text(["sh", "-c", "a\n" * 100])
    assert len(command_text(["sh", "-c", "a\n" * 100])) == 80  # cut at CMD_CHARS, "…" last


def test_the_guesses_beyond_those_shown_are_said_where_to_find(tmp_path):
    """ "… 12 more (draft.drafted lists them all)" pointed at a list of every id a draft wrote, the
    reviewed and deleted ones too: the summary names the entries marked `reviewed: false`."""
    from benchbook.audit.draftfile import GUESSED_SHOWN, draft_post, summary

    post = tmp_path / "post.md"
    runs = "".join(f"Run {k} ran at {10 + k} tok/s.\n\n" for k in range(GUESSED_SHOWN + 3))
    post.write_text("# Rates\n\n" + runs)
    out, drafted, guessed = draft_post(post)
    text = "\n".join(summary(str(post), out, drafted, guessed))
    assert "… 3 more (the entries marked `reviewed: false` in the file)" in text
    assert "draft.drafted lists them all" not in text


def test_a_reviewed_group_stays_beside_its_table_s_groups(tmp_path):
    """A re-draft wrote the user's reviewed groups after every drafted one (a group has no
    source_line of its own): it is ordered by its rows' first line, beside its table's others."""
    from benchbook.audit.draftfile import draft_post

    post = tmp_path / "post.md"
    post.write_text(
        "# Two tables\n\n| model | tok/s | VRAM |\n| --- | --- | --- |\n| a | 10.5 | 1.2 GB |\n\n"
        "Later:\n\n| model | TTFT (ms) |\n| --- | --- |\n| b | 120 |\n",
        encoding="utf-8",
    )
    out, _, _ = draft_post(post)
    text = out.read_text(encoding="utf-8")
    first = text.index('  - id: "t1-tok-s"')
    out.write_text(
        text[:first] + text[first:].replace("reviewed: false", "reviewed: true", 1), encoding="utf-8"
    )
    draft_post(post)
    ids = [
        ln.split('"')[1] for ln in out.read_text(encoding="utf-8").splitlines() if ln.startswith('  - id: "t')
    ]
    assert ids.index("t1-tok-s") < ids.index("t2-ttft")

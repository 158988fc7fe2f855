"""Where a drafted condition came from (the new user's report: "the page does not show where each
condition came from: sentence, section, command or guess"): ``draft.conditions_from`` names, per
guessed claim, the line (and kind) of each condition its own line does not write, and the audit page
shows it beside the condition until the claim is reviewed."""

from __future__ import annotations

from benchbook.audit import page, schema
from benchbook.audit.draftfile import draft_post
from benchbook.audit.run import audit_file

POST = """# Speculative decoding on an RTX 4090

Hardware: RTX 4090, llama.cpp b4500
Model: Qwen2.5-7B-Instruct Q4_K_M

## Baseline

Plain decoding ran at 98.5 tok/s.

## With a draft model

    llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -md qwen2.5-0.5b-instruct-q8_0.gguf --draft-max 16 -ngl 99

Decode reached 152.3 tok/s with 71% acceptance.

| prompt | tok/s |
|---|---|
| code | 160.2 |
| chat | 141.0 |
"""


def _draft(tmp_path, text=POST):
    post = tmp_path / "post.md"
    post.write_text(text)
    out, _, _ = draft_post(post)
    return schema.load(out), out


def test_each_condition_a_claim_does_not_write_names_its_line(tmp_path):
    cf, _ = _draft(tmp_path)
    came = {i: {p: w for p, (_, w) in c.items()} for i, c in cf.draft.conditions_from.items()}
    # the baseline's sentence writes only "plain": the rest is the setup lines' (3, 4) and the command's
    assert came["decode-tps-l8"] == {
        "build": "line 3, setup",
        "engine": "line 3, setup",
        "hardware": "line 3",
        # ("Model: …" declares the setup, as "Hardware: …" does)
        "model": "line 4, setup",
        "offload.n_gpu_layers": "line 12, mention",
        "quant": "line 4, setup",
    }
    assert cf.draft.conditions_from["decode-tps-l8"]["hardware"] == ("NVIDIA GeForce RTX 4090", "line 3")
    # the drafting run's sentence: the command above it (line 12) and the title's "Speculative"
    assert came["decode-tps-l14"] == {
        "block_max": "line 12, command",
        "build": "line 3, setup",
        "decoding": "line 1, the title",
        "engine": "line 12, command",
        "hardware": "line 3",
        "model": "line 12, command",
        "offload.n_gpu_layers": "line 12, command",
        "other.draft_model": "line 12, command",
        # the -md file's name gives the draft's quant (q8_0), as the -m file's gives the target's
        "other.draft_quant": "line 12, command",
        "quant": "line 12, command",
    }
    # a table row: its prompt is its own cell; what the table shares comes with the group
    assert "prompt" not in came["t1-tok-s-r1"]
    assert came["t1-tok-s-r1"]["other.draft_model"] == "line 12, command"
    assert "t1-tok-s" not in came  # claims only: a group's origins are its rows'


def test_a_rows_own_condition_is_not_given_its_groups_origin(tmp_path):
    """The breaker's fault: the RTX 3090 row of a table under an "RTX 4090" title showed "(line 1,
    the title)" beside its own 3090."""
    cf, _ = _draft(
        tmp_path,
        "# llama.cpp on an RTX 4090\n\n| GPU | pp512 t/s |\n|---|---|\n| RTX 4090 | 11000 |\n"
        "| RTX 3090 | 5500 |\n",
    )
    rows = {c.id: c for c in cf.claims}
    came = cf.draft.conditions_from
    assert rows["t1-pp512-t-s-r2"].conditions.hardware == "NVIDIA GeForce RTX 3090"
    assert "hardware" not in came.get("t1-pp512-t-s-r2", {})


def test_a_value_written_otherwise_is_inferred_and_a_guess_says_why(tmp_path):
    cf, _ = _draft(tmp_path, "# Long context on a 3090\n\nAt 16k context, decode ran at 41.2 tok/s.\n")
    (claim,) = cf.claims
    assert claim.conditions.ctx == 16384 and claim.conditions.decoding == "plain"
    came = cf.draft.conditions_from[claim.id]
    assert came["decoding"] == ("plain", "guess: the post names no speculative decoding")
    assert came["hardware"] == ("NVIDIA GeForce RTX 3090", "line 1, the title")
    assert "ctx" not in came  # "16k" on its own line: its own words, though not the digits 16384


def test_the_page_shows_origins_of_guesses_only(tmp_path):
    cf, out = _draft(tmp_path)
    claim = cf.claim("decode-tps-l8")
    line = page.conditions_line(cf, claim)
    assert line == (
        '<br><small class="bb-conditions">conditions: hardware: NVIDIA GeForce RTX 4090 (line 3) · '
        "engine: llama.cpp (line 3, setup) · build: b4500 (line 3, setup) · model: Qwen2.5-7B-Instruct "
        "(line 4, setup) · quant: Q4_K_M (line 4, setup) · offload.n_gpu_layers: 99 (line 12, mention) "
        "· decoding: plain</small>"
    )
    assert line in page.render(cf, audit_file(out).verdicts, out.name)
    reviewed = claim.model_copy(update={"reviewed": True})
    assert "(line" not in page.conditions_line(cf, reviewed)
    # a value the user changed, still a guess: no origin beside it (line 3 names the 4090, not a 4080)
    edited = claim.model_copy(
        update={"conditions": claim.conditions.model_copy(update={"hardware": "NVIDIA GeForce RTX 4080"})}
    )
    assert "hardware: NVIDIA GeForce RTX 4080 · " in page.conditions_line(cf, edited)


def test_a_reviewed_entry_loses_its_origins_when_drafted_again(tmp_path):
    cf, out = _draft(tmp_path)
    text = out.read_text()
    line = next(ln for ln in text.splitlines() if '"decode-tps-l8"' in ln and "reviewed: false" in ln)
    out.write_text(text.replace(line, line.replace("reviewed: false", "reviewed: true")))
    again, _ = _draft(tmp_path)
    assert "decode-tps-l8" not in again.draft.conditions_from
    assert "decode-tps-l14" in again.draft.conditions_from

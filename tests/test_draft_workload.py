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


def test_a_column_of_sources_names_no_prompt(tmp_path):
    """Columns of one table are one kind: where one lead column's header names no prompt ("this
    box": a source of the numbers), none of them is a prompt ("Docs")."""
    cf = _drafted(
        "# Compared\n\nDecode in tokens/second.\n\n"
        "| run | Docs | this box |\n|---|---|---|\n| short | 61.5 | 50.25 |\n| long | 55.5 | 44.75 |\n",
        tmp_path,
    )
    assert all("prompt" not in _cond(cf, c) for c in cf.claims)


def test_a_prompt_under_its_label_or_named_before_the_word_prompt():
    """A setup line "Prompt: …" / "Task: …" (any script's label) names the prompt, the rest of
    the line; words heading a list item or after on/for before "prompt" name it ("Recipe-9k prompt,
    256 gen:" -> "Recipe-9k"); a count keeps the word ("12k-token prompt").  Controls: a phase
    ("prompt processing"), "the same prompt", and a label with nothing after it name none."""
    from benchbook.audit.draftcontext import stated

    def prompts(line: str) -> list[object]:
        return [v for p, v in stated([(1, line)], "text") if p == "prompt"]

    assert prompts("- Prompt: write a haiku about GPUs") == ["write a haiku about GPUs"]
    assert prompts("**Task**: 「translate a menu」") == ["translate a menu"]
    assert prompts("プロンプト：ログを要約") == ["ログを要約"]
    assert prompts("Recipe-9k prompt, 256 gen: `150.5 PP`, `20.25 TG`") == ["Recipe-9k"]
    assert prompts("It reached 30 t/s on the poetry prompt.") == ["poetry"]
    assert prompts("Decode fell to 12 t/s (12k-token prompt)") == ["12k-token prompt"]
    assert prompts("Prompt processing: 500 t/s, prompt eval 480 t/s") == []
    assert prompts("I sent the same prompt three times at 30 t/s.") == []
    assert prompts("Prompt:") == []


def test_a_prompt_named_in_a_measured_sentence_is_that_sentences_only(tmp_path):
    """"36.5 t/s (3k token prompt)" is that sentence's prompt; the section's other rates keep none.
    Control: a settings line "Task: …" (no measurement) holds for the section's rates."""
    cf = _drafted(
        "# Offload\n\nAll on GPU: 14.25 t/s.\n\nAll on CPU: 36.5 t/s (3k token prompt)\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert got[36.5]["prompt"] == "3k token prompt" and "prompt" not in got[14.25]
    cf = _drafted("# Offload\n\n- Task: sort a list in C\n\nAll on GPU: 14.25 t/s.\n", tmp_path)
    assert [_cond(cf, c).get("prompt") for c in cf.claims] == ["sort a list in C"]


def test_a_benchmark_commands_dataset_is_its_prompt():
    """vLLM's ``--dataset-name random`` names the prompts; with a loader ("hf") the dataset's path
    does: its last part, or the folder above a generic file name.  Control: a command with no
    dataset states no prompt."""
    from benchbook.audit.draftcommand import command_lines

    def prompt(line: str) -> object:
        (c,) = command_lines([(1, line)])
        return c.conditions.get("prompt")

    assert prompt("vllm bench serve --model m --dataset-name random --num-prompts 8") == "random"
    assert prompt("vllm bench serve --model m --dataset-name hf --dataset-path org/chat-eval") == "chat-eval"
    assert prompt("vllm bench serve --model m --dataset data/alpaca_mini/questions.jsonl") == "alpaca_mini"
    assert prompt("vllm bench serve --model m --dataset-name hf") is None
    assert prompt("vllm bench serve --model m --num-prompts 8") is None

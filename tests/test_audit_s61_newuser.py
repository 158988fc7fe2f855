"""A new user's findings of session 61 (issue 29), each with its right value: "40% faster than the
baseline" on the one row a sentence names was left a todo listing every baseline, so the audit said
nothing of the wrong number (12.0 -> 15.0 is +25%); "run 3 times …; numbers are the mean" gave no n."""

from __future__ import annotations

from benchbook.audit import command
from drafting import conditions as _cond
from drafting import drafted as _drafted

_POST = """\
# Speculative decoding on my 4070 Ti

Each prompt was run 3 times, temperature 0, 512 tokens generated; numbers are the mean.

| Prompt            | Baseline (tok/s) | Speculative (tok/s) | Acceptance |
|-------------------|------------------|---------------------|------------|
| Python refactor   | 12.0             | 15.0                | 71%        |
| Write unit tests  | 11.8             | 19.9                | 78%        |
| Explain a regex   | 12.1             | 12.6                | 44%        |

On the refactor prompt speculative decoding was 40% faster than the baseline, and on the unit-test
prompt it was 1.69x faster.
"""


def test_a_change_on_the_row_a_sentence_names_cites_that_row(tmp_path):
    """ "On the refactor prompt … 40% faster than the baseline": the "Python refactor" row's baseline
    (12.0) then its speculative rate (15.0), though 15.0 / 12.0 is +25%; "1.69x" on the unit-test
    row (19.9 / 11.8); the rows' rates state n = 3, the mean."""
    cf = _drafted(_POST, tmp_path)
    value = {c.id: float(c.value) for c in cf.claims}
    by_value = {float(s.value): [value[x] for x in s.of] for s in cf.statements}
    assert by_value == {40.0: [12.0, 15.0], 1.69: [19.9, 11.8]}
    assert not cf.todo
    rates = [c for c in cf.claims if str(c.unit) == "tok/s"]
    assert {c.n for c in rates} == {3}


def test_the_audit_then_says_the_40_percent_is_wrong(tmp_path, capsys):
    """The audit of the post judges "40%" inconsistent (+25% recomputed) and ``--check`` exits 1."""
    post = tmp_path / "post.md"
    post.write_text(_POST, encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "out"), "--check"]) == 1
    out = capsys.readouterr()
    row = next(line for line in out.out.splitlines() if line.startswith("s-l11\t"))
    assert "inconsistent" in row
    assert "s-l11" in out.err


def test_a_label_naming_another_engine_over_a_clients_output(tmp_path):
    """ "SGLang 0.4.5 (same client command, `--backend sglang`):" over `vllm bench serve`'s output, the
    client command written once for vLLM above: SGLang's numbers, at 0.4.5, none of the vLLM
    command's backend; the vLLM block stays vLLM's.  A sentence without a colon naming another engine
    ("unlike ollama, …") names no arm (control, in the next test)."""
    post = (
        "```\nvllm bench serve --backend vllm --model meta-llama/Llama-3.1-8B-Instruct\n```\n\n"
        "vLLM:\n\n```\nOutput token throughput (tok/s):         5797.78\n```\n\n"
        "SGLang 0.4.5 (same client command, `--backend sglang`):\n\n"
        "```\nOutput token throughput (tok/s):         2760.88\n```\n"
    )
    cf = _drafted(post, tmp_path)
    by_value = {float(c.value): _cond(cf, c) for c in cf.claims}
    assert by_value[5797.78]["engine"] == "vLLM"
    assert (by_value[2760.88]["engine"], by_value[2760.88]["build"]) == ("SGLang", "0.4.5")
    assert "backend" not in by_value[2760.88].get("other", {})


def test_a_sentence_naming_another_engine_is_no_label(tmp_path):
    """ "… 12.98 tps でした。 ollama で推論した場合と異なり …" under a llama-server command: llama.cpp's."""
    post = (
        "```\nllama-server -hf ggml-org/gpt-oss-120b-GGUF -c 0 --n-gpu-layers 12 -fa on\n```\n\n"
        "このコマンドでの推論( decoding )速度は 12.98 tps でした。 ollama で推論した場合と異なり"
        " GPU が多少動いていた。\n"
    )
    cf = _drafted(post, tmp_path)
    assert {_cond(cf, c)["engine"] for c in cf.claims} == {"llama.cpp"}


def test_prompt_processing_joined_by_a_dash_names_no_prompt(tmp_path):
    """ "beim Prompt-Processing sogar doppelt so schnell" named the prompt "beim" for every claim after
    it: "Prompt-Processing" is the phase, as "prompt processing" is; "on the refactor prompt" still
    names one (control)."""
    cf = _drafted("RTX 4090: 148.9 tok/s.\nbeim Prompt-Processing sogar 1338 tok/s.\n", tmp_path)
    assert {_cond(cf, c).get("prompt") for c in cf.claims} == {None}
    (tmp_path / "control").mkdir()
    named = _drafted("On the refactor prompt the RTX 4090 ran at 148.9 tok/s.\n", tmp_path / "control")
    assert {_cond(named, c).get("prompt") for c in named.claims} == {"refactor"}


def test_a_gain_about_n_percent_on_a_named_row(tmp_path):
    """ "For free-form prose (the regex explanation) the gain is basically nothing, about 4%.": a change
    (it was a share of nothing) from the "Explain a regex" row's baseline 12.1 to its 12.6 (+4.1%)."""
    post = _POST + "For free-form prose (the regex explanation) the gain is basically nothing, about 4%.\n"
    cf = _drafted(post, tmp_path)
    value = {c.id: float(c.value) for c in cf.claims}
    gain = next(s for s in cf.statements if float(s.value) == 4)
    assert (gain.kind, gain.about, [value[x] for x in gain.of]) == ("percent_change", True, [12.1, 12.6])
    assert not any(c.metric == "share" for c in cf.claims)

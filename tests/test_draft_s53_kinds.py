"""Kinds fixed in issue 29's session 53, each with controls: a wrong multiple stated beside the pair
it relates ("2.5x faster: 24.8 vs 15.2 t/s") was left a todo because its values were far from it,
so the audit never judged it."""

from __future__ import annotations

import json
from pathlib import Path

from benchbook.audit import command
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _by_value(cf):
    return {c.value: c for c in cf.claims}


_WRONG = (
    "# Llama 3.1 8B Q8_0 on M2 Max\n\nSpeculative decoding is 2.5x faster: 24.8 vs 15.2 t/s for generation.\n"
)


def test_a_wrong_multiple_beside_its_explicit_pair_is_tied_to_it(tmp_path):
    """24.8 / 15.2 = 1.63, far from 2.5: the sentence pairs them itself ("vs") and relates nothing
    else, so they are its sides (a note says what they give), never a todo."""
    cf = _drafted(_WRONG, tmp_path)
    (s,) = cf.statements
    by_value = _by_value(cf)
    assert not cf.todo
    assert s.of == [by_value[24.8].id, by_value[15.2].id]
    assert s.note == "sides the sentence pairs ('vs'): their values give 1.63, not the stated 2.5"


def test_the_audit_judges_the_wrong_multiple(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    post = tmp_path / "wrong.md"
    post.write_text(_WRONG, encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "out")]) == 0
    lines = (tmp_path / "out" / "wrong.claims.jsonl").read_text().splitlines()
    (s,) = [r for r in map(json.loads, lines) if r["kind"] == "statement"]
    assert s["recomputed"] == "1.623–1.640"  # 24.75–24.85 over 15.15–15.25
    assert s["severity"] == "major overstatement"


def test_a_second_phrase_of_the_sentence_keeps_its_todo(tmp_path):
    """Control: "faster (5x) prompt eval: 512 t/s vs 100 t/s, and the eval time is ~2x faster": the
    pair is the 5x's (5.12); the ~2x, far from it, is another comparison's: a todo."""
    text = "# M2 Max\n\nIt is faster (5x) prompt eval: 512 t/s vs 100 t/s, and the eval time is ~2x faster.\n"
    cf = _drafted(text, tmp_path)
    (five,) = cf.statements
    (two,) = cf.todo
    assert five.value == 5 and two.value == 2


def test_a_pair_in_another_clause_is_not_the_phrases(tmp_path):
    """Control: "faster TTFT (18ms vs 132ms) …, but … total generation time is 2x longer": the
    bracketed pair of times is the TTFT's, not the total time's."""
    text = (
        "# RTX 5090\n\nvLLM has faster TTFT (18ms vs 132ms) due to its optimized prefill pipeline, but this "
        "advantage is irrelevant when total generation time is 2x longer.\n"
    )
    cf = _drafted(text, tmp_path)
    ttft = {c.id for c in cf.claims if c.metric == "ttft"}
    assert len(ttft) == 2
    assert not any(set(s.of) == ttft for s in [*cf.statements, *cf.todo])


def test_a_multiple_with_its_own_pair_restates_nothing(tmp_path):
    """ "twice as fast again: 62 vs 31 tok/s" under another heading was drafted as a restatement of
    the first section's "2.1x" (its sides 84 and 40): its own sentence pairs its sides."""
    text = (
        "# Qwen3 8B on RTX 4090\n\n## Short prompts\n\nWith a draft model we get 2.1x faster generation: "
        "84 tok/s against 40 tok/s.\n\n## Long prompts\n\nHere it is twice as fast again: 62 vs 31 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = _by_value(cf)
    first, again = cf.statements
    assert first.of == [by_value[84].id, by_value[40].id]
    assert again.of == [by_value[62].id, by_value[31].id]
    assert "restates" not in (again.note or "")


def test_a_rounded_restatement_without_a_pair_still_restates(tmp_path):
    """Control: "+65%" in a later sentence with no number of its own restates "(+65.5%)"."""
    text = "# RTX 4090\n\nDecode went 31.9 → 52.8 tok/s (+65.5%).\n\nThat +65% is the headline.\n"
    cf = _drafted(text, tmp_path)
    first, again = cf.statements
    assert again.of == first.of and again.note == f"restates {first.id} (65.5) as rounded"


# --- a new user's post (session 52's note): a spec list, "Target only", llama-bench's -r, pp rows ---

_MAC = """# Speculative decoding with llama.cpp on a Mac mini M2

I used llama.cpp build b4589 on a Mac mini M2 (8-core CPU, 10-core GPU, 100 GB/s memory bandwidth, 16 GB).

```
llama-bench -m Qwen2.5-7B-Instruct-Q4_K_M.gguf -p 512 -n 128 -r 5 -o md
```

| Config | pp512 (t/s) | tg128 (t/s) |
|---|---|---|
| Target only | 210.5 | 18.2 |
| With draft | 208.9 | 25.6 |

With a request rate of 8 req/s the server kept up.
"""


def test_a_machines_spec_list_is_no_claim(tmp_path):
    """ "Mac mini M2 (…, 100 GB/s memory bandwidth, 16 GB)": the machine's specs, listed unplaced."""
    cf = _drafted(_MAC, tmp_path)
    assert not [c for c in cf.claims if c.value in (100, 16)]
    assert {u.number for u in cf.draft.unplaced} >= {"100", "16"}


def test_a_spec_list_that_says_a_use_is_measured(tmp_path):
    """Control: "(peak 21 GB used)" after the card is what the run took: a claim."""
    cf = _drafted("# Test\n\nOn an RTX 3090 (peak 21 GB used) it ran at 30 tok/s.\n", tmp_path)
    assert {c.value for c in cf.claims} == {21, 30}


def test_target_only_is_plain_and_llama_bench_tests_fix_their_lengths(tmp_path):
    """ "Target only" is the plain row; "-r 5" is each cell's n (the mean of 5 runs); a pp512 cell
    generates nothing (no ``tokens_generated`` from ``-n 128``) and has its 512-token prompt; a
    tg128 cell has no prompt; "-p", "-r", "-o" are not kept under ``other``."""
    cf = _drafted(_MAC, tmp_path)
    by_value = _by_value(cf)
    assert _cond(cf, by_value[210.5])["decoding"] == "plain"
    assert _cond(cf, by_value[208.9])["decoding"] == "speculative"
    pp, tg = _cond(cf, by_value[210.5]), _cond(cf, by_value[18.2])
    assert "tokens_generated" not in pp and pp["other"] == {
        "prompt_tokens": 512,
        "stat": "mean",
        "request_rate": 8,
    }
    assert tg["tokens_generated"] == 128 and tg["other"] == {"stat": "mean", "request_rate": 8}
    assert {c.n for c in cf.claims} == {5}


def test_a_request_rate_is_a_setting(tmp_path):
    """ "With a request rate of 8 req/s": the client's setting (``other.request_rate``), no claim of
    requests a second; a measured "4.2 req/s" stays a claim."""
    cf = _drafted(_MAC, tmp_path)
    assert not [c for c in cf.claims if c.unit == "req/s"]
    cf = _drafted("# vLLM\n\nThe server reached 4.2 req/s at a request rate of 8.\n", tmp_path)
    (c,) = [c for c in cf.claims if c.unit == "req/s"]
    assert c.value == 4.2 and _cond(cf, c)["other"]["request_rate"] == 8


def test_llama_bench_repetitions_give_n():
    from benchbook.audit.draftrepeats import bench_repeats

    assert bench_repeats("./llama-bench -m m.gguf -p 512 -n 128 -r 5") == (5, "mean")
    assert bench_repeats("llama-bench -m m.gguf --repetitions=3 -o json") == (3, "mean")
    assert bench_repeats("llama-bench -m m.gguf -r 1") is None  # one run: no statistic
    assert bench_repeats("llama-server -m m.gguf -r 5") is None  # not llama-bench's flag


# --- numbers as their digits say (the breaker's finding, session 52) ---


def test_numbers_grouped_by_no_break_spaces_or_carrying_invisible_characters(tmp_path):
    """ "1\u202f234,5 tok/s" (French: a narrow no-break space groups, the comma is decimal) was read
    as 234.5; "4\u200b5.2" (a zero-width space from a web page) as 5.2; "1\u00a0250" as 250."""
    text = (
        "# RTX 4090\n\nLe débit atteint 1\u202f234,5 tok/s avec vLLM.\n\nThe rate was 4\u200b5.3 tok/s.\n\n"
        "Throughput: 1\u00a0250 tok/s.\n\nAbout 12 000 tokens per second in total, and 2\u00a0048,0 ms.\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted(c.value for c in cf.claims) == [45.3, 1234.5, 1250, 2048.0, 12000]


def test_other_scripts_digits_read_as_ascii(tmp_path):
    """Arabic-Indic digits with the Arabic decimal separator, Persian digits and full-width digits
    (with a full-width decimal point) read as the numbers they are."""
    text = "# T\n\nالسرعة ٤٥٫٢ tok/s\n\nسرعت ۱۲۳ tok/s\n\n速度は１８．５ tok/s でした。\n"
    cf = _drafted(text, tmp_path)
    assert sorted(c.value for c in cf.claims) == [18.5, 45.2, 123]
    assert [c.quote for c in cf.claims][0] == "السرعة ٤٥٫٢ tok/s"  # quoted as written


def test_a_space_grouped_number_stays_apart_from_a_list():
    """Control: "1,234,567" and "1 234" still read as thousands; "4096,16GB" (a card and its
    memory) is no decimal comma; "6,7" is one."""
    from benchbook.audit.draftprose import numbers

    assert [n.text for n in numbers("1,234,567 tok/s")] == ["1234567"]
    assert [n.text for n in numbers("1 234 tok/s")] == ["1234"]
    assert [n.text for n in numbers("6,7 tok/s")] == ["6.7"]
    assert [n.text for n in numbers("RTX 4080,16GB")] == ["4080", "16"]
    # a plain space before a decimal comma: two numbers (a list), not 512128.5
    assert [n.text for n in numbers("sizes 512 128,5 t/s")] == ["512", "128.5"]


# --- a list's shared unit, a range in words, changes in words (the breaker's findings) ---


def test_a_lists_last_unit_is_every_numbers():
    """ "112 and 141 tok/s": the unit of both (the first was listed unplaced); a comma joins a list
    that a word ends; names, settings, issue numbers and clocks are no list's numbers."""
    from benchbook.audit.draftprose import numbers

    def read(text):
        return [(n.text, n.unit) for n in numbers(text)]

    assert read("reached 112 and 141 tok/s respectively") == [("112", "tok/s"), ("141", "tok/s")]
    assert read("got 112, 130 and 141 tok/s") == [("112", "tok/s"), ("130", "tok/s"), ("141", "tok/s")]
    assert read("12/15 GB") == [("12", "GB"), ("15", "GB")]
    assert read("60 and 70% of the time") == [("60", "%"), ("70", "%")]
    assert read("RTX 3090 and 24 GB") == [("3090", None), ("24", "GB")]
    assert read("batch 8, 16 tok/s") == [("8", None), ("16", "tok/s")]
    assert read("compute capability 6.1, 40 tokens/s") == [("6.1", None), ("40", "tok/s")]
    assert read("(#787, 12 GB)") == [("787", None), ("12", "GB")]
    assert read("44.15 → 39.3, −11%")[1] == ("39.3", None)  # a change after it, no list


def test_a_range_in_words_is_one_number():
    from benchbook.audit.draftprose import numbers

    (n,) = numbers("a slowdown of between 2 and 40 percent")
    assert (n.text, n.unit, n.range) == ("2–40", "%", ("2", "40"))
    (n,) = numbers("zwischen 12 und 15 tok/s")
    assert (n.text, n.unit, n.range) == ("12–15", "tok/s", ("12", "15"))


def test_respectively_names_each_value_of_a_shared_unit(tmp_path):
    """ "vLLM and SGLang reached 112 and 141 tok/s respectively": two claims, one per engine."""
    cf = _drafted(
        "# Qwen3 8B on RTX 4090\n\nvLLM and SGLang reached 112 and 141 tok/s respectively.\n", tmp_path
    )
    assert {c.value: _cond(cf, c)["engine"] for c in cf.claims} == {112: "vLLM", 141: "SGLang"}


def test_changes_said_ahead_or_mehr_are_changes_not_shares(tmp_path):
    """ "10.7% ahead of vLLM", "50% mehr als ohne": changes, never a share of something."""
    text = (
        "# RTX 4090\n\nMit Draft-Modell: 36 tok/s. Das sind 50% mehr als ohne.\n\n"
        "SGLang is 10.7% ahead of vLLM on code.\n"
    )
    cf = _drafted(text, tmp_path)
    assert not [c for c in cf.claims if c.metric == "share"]
    # no rate of either side stated: claims of the changes (the corpus's convention)
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "%"] == [("change", 50), ("change", 10.7)]


# --- a "## Commands" section over a "## Results" section (session 52's new user) ---

_SECTIONS = """# Draft models on an RTX 3060

## Setup

llama.cpp b5200, Qwen2.5-14B-Instruct Q4_K_M as target.

## Commands

```
llama-server -m Qwen2.5-14B-Instruct-Q4_K_M.gguf -md Qwen2.5-0.5B-Q8_0.gguf --draft-max 16 -ngl 99 -c 8192
```

## Results

| Mode | Generation (tok/s) |
|---|---|
| Plain | 21.4 |
| Speculative | 33.9 |
"""


def test_a_commands_sections_one_command_ran_the_results_below(tmp_path):
    """The speculative row gets the command's draft model and draft size (the plain row neither),
    though the command is in the section before; a "Mode" cell "Speculative" is the decoding
    ``speculative`` (it was written as the cell, "Speculative")."""
    cf = _drafted(_SECTIONS, tmp_path)
    by_value = _by_value(cf)
    plain, spec = _cond(cf, by_value[21.4]), _cond(cf, by_value[33.9])
    assert plain["decoding"] == "plain" and "block_max" not in plain and "other" not in plain
    assert spec["decoding"] == "speculative" and spec["block_max"] == 16
    assert spec["other"] == {"draft_model": "Qwen2.5-0.5B", "draft_quant": "Q8_0"}
    assert spec["ctx"] == 8192 and spec["offload"] == {"n_gpu_layers": 99}


def test_a_commands_section_of_two_commands_runs_nothing_below(tmp_path):
    """Control: two command lines in the section (which ran which row is not said): neither is
    carried as the command of the results (no draft model on either row)."""
    text = _SECTIONS.replace(
        "```\nllama-server",
        "```\nllama-server -m Qwen2.5-14B-Instruct-Q4_K_M.gguf -ngl 99 -c 8192\nllama-server",
    )
    cf = _drafted(text, tmp_path)
    assert not any("draft_model" in _cond(cf, c).get("other", {}) for c in cf.claims)


# --- the breaker's findings on this session's first version (each a kind, with its right value) ---

_HEAD = "# Notes\n\nLlama 3.1 8B Q4_K_M on an RTX 4090 with llama.cpp.\n\n"


def _audited(tmp_path, monkeypatch, line: str) -> dict:
    """The audit's record of the one statement of a post ``_HEAD`` + ``line``."""
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    post = tmp_path / "p.md"
    post.write_text(_HEAD + line + "\n", encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "out")]) == 0
    lines = (tmp_path / "out" / "p.claims.jsonl").read_text().splitlines()
    (s,) = [r for r in map(json.loads, lines) if r["kind"] == "statement"]
    return s


def test_a_correct_slower_or_less_multiple_beside_its_pair_is_consistent(tmp_path, monkeypatch):
    """ "1.6x slower: 24.8 vs 15.2" was judged "major, wrong direction": a multiple is the larger
    over the smaller whatever its word; a pair written in the other order than its names ("faster
    than Ollama: 15.2 vs 24.8") is ordered by value when that gives the stated multiple."""
    for k, line in enumerate(
        (
            "Ollama is 1.6x slower: 24.8 vs 15.2 t/s.",
            "TTFT is 2x lower: 100 ms vs 200 ms.",
            "It uses 2x less memory: 12 GB vs 24 GB.",
            "llama.cpp is 1.6x faster than Ollama: 15.2 vs 24.8 t/s.",
        )
    ):
        (tmp_path / str(k)).mkdir()
        s = _audited(tmp_path / str(k), monkeypatch, line)
        assert s["consistency"] == "consistent", line


def test_a_multiple_of_something_else_is_not_the_pairs(tmp_path):
    """ "Context 4x longer, 48 vs 31 tok/s", "4x more GPUs", "3x cheaper", "shrinks the model 4x":
    the multiple is of another quantity: never a statement over the two rates."""
    for line in (
        "Context 4x longer, 48 vs 31 tok/s.",
        "Using 4x more GPUs gives 48 vs 31 tok/s.",
        "It is 3x cheaper per token, 48 vs 31 tok/s.",
        "Quantization shrinks the model 4x: 48 vs 31 tok/s.",
    ):
        cf = _drafted(_HEAD + line + "\n", tmp_path)
        assert not cf.statements, line


def test_a_semicolon_keeps_the_sentences_own_pair(tmp_path, monkeypatch):
    """ "Decode was 2.5x faster; 24.8 vs 15.2 t/s." after another paragraph's 62 tok/s: its own pair
    (an overstatement), not 62 / 24.8 (which gave 2.5 and was called consistent)."""
    s = _audited(
        tmp_path, monkeypatch, "Short prompts: 62 tok/s.\n\nDecode was 2.5x faster; 24.8 vs 15.2 t/s."
    )
    assert s["recomputed"] == "1.623–1.640" and s["severity"] == "major overstatement"


def test_a_settings_number_takes_no_unit_of_the_list_after_it():
    from benchbook.audit.draftprose import numbers

    for text, first in (
        ("I launched it with --max-model-len 8192 and 20 GB of KV cache", "8192"),
        ("At temperature 0.7 and 42 tok/s it was usable.", "0.7"),
        ("With --tensor-parallel-size 2 and 80 GB each", "2"),
        ("With -np 4 and 38 tok/s per slot", "4"),
        ("seed 42 and 38 tok/s", "42"),
        ("version 0.6 and 50 tok/s", "0.6"),
    ):
        assert [(n.text, n.unit) for n in numbers(text)][0] == (first, None), text
    # a list stays one: "Results: 112, 130 and 141 tok/s"
    assert {n.unit for n in numbers("Results: 112, 130 and 141 tok/s")} == {"tok/s"}


def test_change_words_in_other_senses_are_no_changes(tmp_path):
    """French "mais" (but), "más o menos" (more or less), "ahead-of-time": no change."""
    text = (
        "# N\n\nLa GPU est utilisée à 95 % mais le débit reste à 40 tok/s.\n\n"
        "El modelo va 20% más o menos igual.\n\nWe keep 10% ahead-of-time buffer; decode ran at 44 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    assert not cf.statements and not cf.todo
    assert not [c for c in cf.claims if "change" in c.metric]


def test_other_scripts_thousands_separators():
    from benchbook.audit.draftfile import ascii_number
    from benchbook.audit.draftprose import numbers

    for text, value in (
        ("سرعت ۱۲٬۳۴۵ tok/s", "12345"),
        ("プリフィルは １，２３４ tok/s", "1234"),
        ("٤٥٬٢٠٠٫٥ tok/s", "45200.5"),
    ):
        (n,) = numbers(text)
        assert ascii_number(n.text) == value, text


def test_main_model_only_on_a_device_is_no_plain_run(tmp_path):
    text = (
        "# N\n\nWith speculative decoding (draft on CPU, main model only on the GPU) llama.cpp gets "
        "61 tok/s on an RTX 4060.\n"
    )
    (c,) = _drafted(text, tmp_path).claims
    assert c.conditions.decoding == "speculative"


def test_deep_and_combined_llama_bench_tests_take_their_own_lengths(tmp_path):
    """ "tg128 @ d8192" has no prompt of "-p 512"; "pp512 @ d8192" no tokens generated of "-n 128";
    "pp4096+tg128" a 4096-token prompt and 128 generated."""
    text = (
        "# RTX 4090\n\n```\nllama-bench -m Llama-3.1-8B-Q4_K_M.gguf -p 512 -n 128 -d 0,8192 -r 3\n```\n\n"
        "| model | test | t/s |\n|---|---|---|\n| llama 8B Q4_K_M | pp512 @ d8192 | 3100.5 ± 2.1 |\n"
        "| llama 8B Q4_K_M | tg128 @ d8192 | 120.2 ± 0.3 |\n"
        "| llama 8B Q4_K_M | pp4096+tg128 | 900.1 ± 1.0 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert "tokens_generated" not in got[3100.5] and got[3100.5]["other"]["prompt_tokens"] == 512
    assert got[120.2]["tokens_generated"] == 128 and "prompt_tokens" not in got[120.2].get("other", {})
    assert got[900.1]["tokens_generated"] == 128 and got[900.1]["other"]["prompt_tokens"] == 4096


def test_a_measured_request_rate_stays_a_claim(tmp_path):
    text = "# vLLM\n\nOur achieved request rate: 7.9 req/s.\n"
    (c,) = _drafted(text, tmp_path).claims
    assert (c.value, c.unit) == (7.9, "req/s")


def test_a_spec_lists_used_item_and_a_bracket_read_into_by_the_name(tmp_path):
    """ "2x H100 (80 GB, 3.35 TB/s)": no claim; "(VRAM: 23.1/24 GB)": the 23.1 GB used is a claim,
    "(an item, 80 GB in use)" too; a bracket holding a rate is a run's results, no spec list ("RTX
    4090 (VRAM: 19.1 GB, 61 tok/s)": both claims)."""
    text = (
        "# N\n\nOn 2x H100 (80 GB, 3.35 TB/s) it flies.\n\nRTX 3090 (VRAM: 23.1/24 GB) at 30 tok/s.\n\n"
        "A Mac Studio M2 Ultra (192 GB, 70 GB in use) is quiet.\n\n"
        "Same model on the RTX 4090 (VRAM: 19.1 GB, 61 tok/s).\n"
    )
    values = {c.value for c in _drafted(text, tmp_path).claims}
    assert {23.1, 30, 70, 19.1, 61} <= values and not values & {3.35, 192}


def test_statt_joins_a_pair(tmp_path):
    """ "50% mehr: 60 statt 40 tok/s": 60 is a rate too, and the change relates the two."""
    cf = _drafted(_HEAD + "Mit Flash Attention sind es 50% mehr: 60 statt 40 tok/s.\n", tmp_path)
    by_value = _by_value(cf)
    (s,) = cf.statements
    assert s.kind == "percent_change" and s.of == [by_value[40].id, by_value[60].id]


# --- the second breaker's findings ---


def test_a_multiple_naming_a_third_side_or_per_device_is_not_the_pairs(tmp_path):
    """ "2,300 vs 1,100 tok/s for TGI, and it is 5x faster than plain HF transformers": the 5x is
    against a third engine; "Per GPU, … 2x faster: 1,600 … vs 400": normalised. Neither ties the
    pair (both were judged major misstatements of honest posts)."""
    for line in (
        "vLLM hit 2,300 tok/s vs 1,100 tok/s for TGI, and it is 5x faster than plain HF transformers.",
        "MLX decodes at 31 tok/s against 28 tok/s for llama.cpp, a 4x speedup over PyTorch MPS.",
        "Per GPU, SGLang is 2x faster: 1,600 tok/s on 4 GPUs vs 400 tok/s on 2 GPUs.",
    ):
        cf = _drafted(_HEAD + line + "\n", tmp_path)
        assert not cf.statements, line


def test_a_settings_noun_of_a_number_leads_no_list():
    from benchbook.audit.draftprose import numbers

    for text, first in (
        ("I run it with a context of 16384 and 20 GB of VRAM used.", "16384"),
        ("With a batch size of 512 and 45 tok/s decode it is usable.", "512"),
        ("Con un contexto de 8192 y 18 GB de VRAM va bien.", "8192"),
        ("The draft model accepted an average of 3 and 70% of tokens.", "3"),
        ("Quality: 8/10 and 52 tok/s on the coding prompt.", "8"),
    ):
        assert [(n.text, n.unit) for n in numbers(text)][0] == (first, None), text
    assert {n.unit for n in numbers("speeds of 112 and 141 tok/s")} == {"tok/s"}


def test_a_chinese_list_with_full_width_commas_is_a_list():
    from benchbook.audit.draftprose import numbers

    text = "在 prompt 长度为 128，512，2048 时，生成速度分别为 120，115，108 tok/s。"
    assert [n.text for n in numbers(text)][-3:] == ["120", "115", "108"]


def test_a_setup_command_of_another_engine_stays_out_of_its_section(tmp_path):
    text = (
        "# Qwen2.5 14B\n\n## Setup\n\n"
        "```\nvllm serve Qwen/Qwen2.5-14B-Instruct-AWQ --max-num-seqs 64\n```\n\n"
        "## Ollama results\n\nOllama managed 52 tok/s for a single user.\n"
    )
    (c,) = _drafted(text, tmp_path).claims
    assert c.conditions.engine == "Ollama" and c.conditions.concurrency == 1


def test_naming_two_machines_without_claims_of_both_keeps_the_last(tmp_path):
    text = (
        "# Gemma\n\nI finally upgraded from a 3090 to an RTX 5090 last week.\n\n"
        "Gemma 3 27B QAT Q4_0 now runs at 58 tok/s.\n"
    )
    (c,) = _drafted(text, tmp_path).claims
    assert c.conditions.hardware == "NVIDIA GeForce RTX 5090"


def test_llama_bench_repetitions_stay_with_its_tests(tmp_path):
    """The prose under a llama-bench command ("drops 31% at 8K depth (71.2 vs 48.8 t/s)") gets no n
    of its -r (the audit then said "averaged over 5 runs with no spread stated") nor its -p."""
    text = (
        "# RTX 4090\n\n```\nllama-bench -m Llama-3.1-8B-Q4_K_M.gguf -p 512 -n 128 -r 5\n```\n\n"
        "| model | test | t/s |\n|---|---|---|\n| llama 8B Q4_K_M | tg128 | 120.2 ± 0.3 |\n\n"
        "Token generation drops 31% at 8K depth (71.2 vs 48.8 t/s).\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = _by_value(cf)
    assert by_value[120.2].n == 5
    for v in (71.2, 48.8):
        assert by_value[v].n is None and "prompt_tokens" not in _cond(cf, by_value[v]).get("other", {})


def test_a_faster_time_beside_its_pair_is_a_drop(tmp_path, monkeypatch):
    """ "TTFT is 40% faster: 120 ms vs 200 ms": from 200 to 120 ms, −40%: consistent (it was
    "major, wrong direction")."""
    s = _audited(tmp_path, monkeypatch, "With the cache, TTFT is 40% faster: 120 ms vs 200 ms.")
    assert s["consistency"] == "consistent"


def test_a_no_break_space_in_a_models_name_groups_no_digits(tmp_path):
    from benchbook.audit.post import read_post

    assert (
        read_post("Qwen3\u00a0235B-A22B and Llama 3\u00a0405B\n").text == "Qwen3 235B-A22B and Llama 3 405B\n"
    )
    assert read_post("1\u00a0234\u00a0567 t/s\n").text == "1\u202f234\u202f567 t/s\n"


def test_a_change_over_cells_of_two_quantities_is_a_todo_and_the_audit_runs(tmp_path, monkeypatch):
    """ "| Concurrency | 2.47 tok/s | 4.56 req/s | 6.22 req/s (+152% base, +36% nvidia) |" (h242,
    the post's slip): the +152% over a tok/s and a req/s cell was a statement the audit refused,
    which stopped the audit of the whole post (exit 2). Now a todo naming the units; +36% stands."""
    text = (
        "# Gemma\n\n| Metric | Base | NVIDIA | Turbo |\n|---|---|---|---|\n"
        "| Decode | 20.1 tok/s | 30.2 tok/s | 41.0 tok/s (+104% base, +36% nvidia) |\n"
        "| Concurrency | 2.47 tok/s | 4.56 req/s | 6.22 req/s (+152% base, +36% nvidia) |\n"
    )
    cf = _drafted(text, tmp_path)
    (todo,) = [t for t in cf.todo if t.value == 152]
    assert todo.todo.startswith("the claims it cites are in tok/s and req/s")
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    post = tmp_path / "t.md"
    post.write_text(text, encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "out")]) == 0


def test_a_second_pair_of_a_sentence_takes_the_first_pairs_unit():
    """h314: "41.4 vs 37.5 tok/s at 1K (+10%), 31.6 vs 28.2 at 8K (+12%)": the second pair is in
    tok/s too (its +12% was tied to the first pair and judged an overstatement of an honest post)."""
    from benchbook.audit.draftprose import numbers

    text = "41.4 vs 37.5 tok/s at 1K (+10%), 31.6 vs 28.2 at 8K (+12%) vs oMLX oQ4e."
    assert [(n.text, n.unit) for n in numbers(text)][3:5] == [("31.6", "tok/s"), ("28.2", "tok/s")]


def test_a_borderless_table_rows_change_is_of_its_two_values(tmp_path):
    """h304: a table copied without its borders, "DeepSeek R1 Q4_K_M42 t/s68 t/s+62%": the +62% is
    from the row's 42 to its 68 t/s (it was tied to the next row's and called "wrong direction")."""
    text = (
        "# RTX 4090 vs RTX 5090\n\nModelRTX 4090RTX 5090Improvement\n"
        "DeepSeek R1 Q4_K_M42 t/s68 t/s+62%\nPhi-4 Q8_0 118 t/s 187 t/s +58%\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = _by_value(cf)
    got = {s.value: s.of for s in cf.statements}
    assert got[62] == [by_value[42].id, by_value[68].id]
    assert got[58] == [by_value[118].id, by_value[187].id]


def test_an_about_word_before_an_article_makes_the_number_approximate():
    """h365: "nearly an 18x increase" (6.692 / 0.362 = 18.5) was exact 18 and judged inconsistent."""
    from benchbook.audit.draftprose import numbers

    assert [(n.text, n.about) for n in numbers("We achieved nearly an 18x increase.")] == [("18", True)]
    assert [(n.text, n.about) for n in numbers("about a 2x speedup")] == [("2", True)]
    assert [(n.text, n.about) for n in numbers("about an hour, 5 tok/s")] == [("5", False)]


# --- the new user's post of session 53 (tests/fixtures/draft/newuser53_4090_spec.md, as written) ---

_NEWUSER = Path(__file__).parent / "fixtures" / "draft" / "newuser53_4090_spec.md"


def test_the_plain_side_of_a_speculative_sentences_pair_is_plain(tmp_path):
    """ "speculative decoding is about 2.4x faster on generation for code (110 vs 61 tok/s)": both
    rates took the sentence's "speculative decoding"; the slower is the baseline, plain, with no
    draft model or draft size."""
    cf = _drafted(_NEWUSER.read_text(encoding="utf-8"), tmp_path)
    by_value = _by_value(cf)
    plain, spec = _cond(cf, by_value[61]), _cond(cf, by_value[110])
    assert plain["decoding"] == "plain" and "block_max" not in plain
    assert "draft_model" not in plain.get("other", {})
    assert spec["decoding"] == "speculative" and spec["block_max"] == 16


def test_the_new_users_wrong_speedup_is_caught(tmp_path, monkeypatch):
    """The planted error: "about 2.4x faster" where the table gives 110.3 / 61.2 = 1.80."""
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    post = tmp_path / "post.md"
    post.write_text(_NEWUSER.read_text(encoding="utf-8"), encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "out")]) == 0
    lines = (tmp_path / "out" / "post.claims.jsonl").read_text().splitlines()
    got = {r["stated_text"]: r for r in map(json.loads, lines) if r["kind"] == "statement"}
    assert got["2.4"]["consistency"] == "inconsistent" and got["2.4"]["severity"] == "major overstatement"
    assert got["-22"]["consistency"] == "consistent"


def test_a_prompts_length_before_completion_prompt_is_no_output_length(tmp_path):
    """ "a 512-token code completion prompt, 400 tokens generated": 512 is the prompt's (it was read
    as tokens generated too, and the two values left the table's rows with neither)."""
    from benchbook.audit.draftwords import settings_in_words

    out: list = []
    settings_in_words("runs of a 512-token code completion prompt, 400 tokens generated, temp 0.", out)
    assert ("tokens_generated", 400) in out and ("tokens_generated", 512) not in out
    cf = _drafted(_NEWUSER.read_text(encoding="utf-8"), tmp_path)
    assert _cond(cf, _by_value(cf)[110.3])["tokens_generated"] == 400


def test_the_verdicts_script_counts_catches_and_no_false_accusation():
    """scripts/draft_verdicts.py on h304 (a borderless table whose changes were tied to the wrong
    rows: two false accusations) and h242 (a draft the audit refused): none of either now."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, str(root / "scripts" / "draft_verdicts.py"), "--posts", "h304_*,h242_*"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
    ).stdout
    assert "    false accusations:         0 " in out
    assert "drafts the audit refused:      0" in out

"""Kinds fixed in issue 29's session 54, each with controls: a bound that is a scale's threshold or a
requirement was judged against the post's own measurements (every such verdict in the corpus was a
false "inconsistent"), a heading naming two engines gave every claim the last, and a pair joined by
"versus" after two names gave both the nearer name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from drafting import conditions as _cond
from drafting import drafted as _drafted

ROOT = Path(__file__).resolve().parent.parent


def _by_value(cf):
    return {c.value: c for c in cf.claims}


def _bounds(cf):
    return [(s.relation, s.value, s.unit) for s in cf.statements if s.kind == "bound"]


def test_a_heading_naming_two_engines_names_neither(tmp_path):
    """ "# MLX vs llama.cpp on M2 Max": the claims under it were all llama.cpp's (the last named);
    the machine it names once holds, and a section's own "## MLX" names its engine."""
    cf = _drafted(
        "# MLX vs llama.cpp on M2 Max\n\nPrompt processing: 510 tok/s.\n\n## MLX\n\nDecode: 62 tok/s.\n",
        tmp_path,
    )
    by_value = _by_value(cf)
    assert "engine" not in _cond(cf, by_value[510])
    assert _cond(cf, by_value[510])["hardware"] == "Apple M2 Max"
    assert _cond(cf, by_value[62])["engine"] == "MLX"
    # control: a title naming one engine names it for the post
    cf = _drafted("# llama.cpp on M2 Max\n\nPrompt processing: 510 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["engine"] == "llama.cpp"


def test_a_pair_joined_by_versus_follows_the_two_names_before_it(tmp_path):
    """ "vLLM is 2x faster than SGLang, 62 versus 31 tok/s": both took the nearer "SGLang"; the pair
    is in the names' order, as "respectively" says, and the 2x relates them."""
    cf = _drafted("# Serving on an H100\n\nvLLM is 2x faster than SGLang, 62 versus 31 tok/s.\n", tmp_path)
    by_value = _by_value(cf)
    assert _cond(cf, by_value[62])["engine"] == "vLLM"
    assert _cond(cf, by_value[31])["engine"] == "SGLang"
    (s,) = cf.statements
    assert s.of == [by_value[62].id, by_value[31].id]
    # control: each value named by its own engine keeps it
    cf = _drafted("# RTX 4090\n\nvLLM 112 tok/s vs SGLang 141 tok/s.\n", tmp_path)
    by_value = _by_value(cf)
    assert (_cond(cf, by_value[112])["engine"], _cond(cf, by_value[141])["engine"]) == ("vLLM", "SGLang")


def test_a_pair_in_a_contrasting_clause_is_not_the_phrases(tmp_path):
    """ "Decode is 1.3x faster with the draft model, though TTFT was 210 ms vs 180 ms": the two
    times were the 1.3x's sides (210/180 = 1.17: an accusation); the multiple stands alone."""
    cf = _drafted(
        "# RTX 4090\n\nDecode is 1.3x faster with the draft model, though TTFT was 210 ms vs 180 ms.\n",
        tmp_path,
    )
    assert cf.statements == []
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "x"] == [("speedup", 1.3)]
    # control: the phrase's own bracketed pair is its sides
    cf = _drafted(
        "# RTX 4090\n\nDecode is 1.3x faster with the draft model (52 vs 40 tok/s), though TTFT was 210 ms "
        "vs 180 ms.\n",
        tmp_path,
    )
    (s,) = cf.statements
    by_value = _by_value(cf)
    assert s.of == [by_value[52].id, by_value[40].id]


def test_a_request_rate_label_is_a_setting(tmp_path):
    """ "- Request rate 4: 610 tok/s": the client's setting of the line (``other.request_rate``), as
    "with a request rate of 4" is; a measured "request rate: 7.9 req/s" stays a claim."""
    cf = _drafted(
        "# vLLM on an H100\n\n- Request rate 4: 610 tok/s\n- request-rate (req/s) 16: 1480 tok/s\n\n"
        "The achieved request rate: 7.9 req/s.\n",
        tmp_path,
    )
    by_value = _by_value(cf)
    assert _cond(cf, by_value[610])["other"]["request_rate"] == 4
    assert _cond(cf, by_value[1480])["other"]["request_rate"] == 16
    assert by_value[7.9].unit == "req/s"
    assert sorted(by_value) == [7.9, 610, 1480]


def test_a_threshold_or_a_requirement_is_no_bound(tmp_path):
    """A scale's threshold ("below 30 tok/s is too slow"), a definition ("defined by TTFT > 10
    seconds"), a need in the conditional ("I would need 45+ GB") and advice ("we recommend … at least
    80GB"): listed, no bound statement over the post's claims (h283, p177, p243, p244)."""
    cf = _drafted(
        "# RTX 3090\n\nGeneration ran at 120 tok/s.\n\n- below 30 tok/s is too slow. You can read faster.\n\n"
        "Unusable models were defined by time-to-first-token (TTFT) > 10 seconds.\n\n"
        "With the 65B model, I would need 45+ GB of RAM.\n\n"
        "We recommend the sum of VRAM + RAM to be at least 80GB+.\n",
        tmp_path,
    )
    assert _bounds(cf) == []
    assert [u.number for u in cf.draft.unplaced if u.line > 1] == ["30", "10", "45", "80"]
    # controls: a result written as a bound, and what a model was found to need, stay bounds
    cf = _drafted(
        "# RTX 3090\n\nGeneration reached 40 tok/s or more.\n\nThe model needs at least 12 GB of VRAM.\n",
        tmp_path,
    )
    assert _bounds(cf) == [("above", 40, "tok/s"), ("above", 12, "GB")]


def test_a_bound_its_own_sentence_contradicts_is_a_todo(tmp_path):
    """h295: "around 50 tps on 5070Ti …, while using llama-cli, it can produce over 140 tps": the 50
    was in the set of "over 140" (no condition drafted tells the two runs apart): a todo naming it.
    Control: a bound whose runs the conditions tell apart stays."""
    cf = _drafted(
        "# gpt-oss-20b on a 5070 Ti\n\nWith llama-server it is around 50 tps on 5070Ti with < 40% GPU usage, "
        "while using llama-cli, it can produce over 140 tps.\n",
        tmp_path,
    )
    assert _bounds(cf) == [("below", 40, "%")]  # the GPU's usage: no run of its sentence above it
    (todo,) = [t for t in cf.todo if "bound (above 140)" in t.todo]
    assert todo.of == [_by_value(cf)[50].id]
    cf = _drafted(
        "# RTX 4090\n\nWithout a draft model it ran at 50 tok/s; with a draft model it reached over "
        "140 tok/s.\n",
        tmp_path,
    )
    assert _bounds(cf) == [("above", 140, "tok/s")]


def test_a_measured_tflops_beside_a_share_of_peak_is_no_peak(tmp_path):
    """p24: "this goes up to 36.9 TFLOPS (>60% max theoretical)": the ceiling's words are the
    percentage's; 36.9 was drafted a peak, so "<9% max theoretical" of 5.1 was judged against it."""
    cf = _drafted(
        "# Strix Halo\n\nAt 2.9GHz this should have a peak of 59.4 FP16/BF16 TFLOPS.\n\n"
        "Without hipBLASLt it only gets to 5.1 BF16 TFLOPS (<9% max theoretical).\n\n"
        "When run with hipBLASLt, this goes up to 36.9 TFLOPS (>60% max theoretical).\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("peak_tflops", 59.4),
        ("matmul_tflops", 5.1),
        ("matmul_tflops", 36.9),
    ]


def test_the_other_side_of_a_comparison_takes_its_first_sides_phase(tmp_path):
    """h219: "a prefill speed of 18,600 tok/s — more than 19× faster than the M4's 942 tok/s": the
    942 was a decode rate, so the bound related a prefill to a decode rate. Control: a phase the
    other side names itself holds."""
    cf = _drafted(
        "# x\n\nOn the RTX 4090, prompt processing reached 5,000 tok/s, 2x faster than the 3090 at "
        "2,500 tok/s.\n\n"
        "Prompt processing: 900 tok/s, while generation is slower than that at 40 tok/s.\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("prefill_tps", 5000),
        ("prefill_tps", 2500),
        ("prefill_tps", 900),
        ("decode_tps", 40),
    ]
    (s,) = cf.statements
    assert s.of == [cf.claims[0].id, cf.claims[1].id]


def test_the_corpus_posts_of_these_kinds_are_judged_without_false_accusations():
    """scripts/draft_verdicts.py on the corpus posts behind these kinds (h219, h283, h295, p23, p24,
    p177, p243, p244, p19, p98): each had a drafted statement judged "inconsistent" that the author
    got right or never made; none is judged inconsistent now."""
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "draft_verdicts.py"),
            "--posts",
            "h219_*,h283_*,h295_*,p23_*,p24_*,p177_*,p243_*,p244_*,p19_*,p98_*",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    ).stdout
    assert "  judged inconsistent:         0\n" in out
    assert "drafts the audit refused:      0" in out


def test_a_bound_whose_set_holds_values_on_both_sides_is_a_todo(tmp_path):
    """p19: "without regressing the 40+ tok/s high-acceptance path" was a bound over every decode
    rate of the post (42.91 on the high-acceptance prompt; 8.87 and 18.28 on the others): judged
    "inconsistent" though the author is right; a todo naming the two below it.  Control: a set
    wholly on the other side stays a statement, for the audit to judge."""
    rows = "- High-accept prompt: `42.91 TG` tok/s.\n- Wiki prompt before fix: `8.87 TG` tok/s.\n"
    cf = _drafted(
        f"# MTP fix on ROCm\n\n{rows}- Wiki prompt with fix: `18.28 TG` tok/s.\n\n"
        "The fix keeps the 40+ tok/s high-acceptance path.\n",
        tmp_path,
    )
    by_value = _by_value(cf)
    assert _bounds(cf) == []
    (todo,) = [t for t in cf.todo if "bound (above 40)" in t.todo]
    assert todo.of == [by_value[8.87].id, by_value[18.28].id]
    cf = _drafted(
        "# MTP on ROCm\n\n- Wiki prompt: 8.87 tok/s.\n- Code prompt: 18.28 tok/s.\n\nIt keeps 40+ tok/s.\n",
        tmp_path,
    )
    assert _bounds(cf) == [("above", 40, "tok/s")]


def test_a_count_of_cards_with_the_vendor_in_any_case_is_no_multiple(tmp_path):
    """p98: "On 8 x nVIDIA Quadro P6000, …, 40 tokens/s" was a multiple of 8 relating the two rates
    before it ("wrong direction"); each line's machine is its own, not the next line's."""
    cf = _drafted(
        "# llama.cpp\n\nOn Intel CPU, 8 tokens/s\nOn Apple M1 and M2 (10 core GPU), 20 tokens/s\n"
        "On 8 x nVIDIA Quadro P6000, compute capability 6.1, 40 tokens/s\n\n"
        "I got 45 tok/s\non my RTX 4090.\n",
        tmp_path,
    )
    assert cf.statements == [] and cf.todo == []
    by_value = _by_value(cf)
    assert "hardware" not in _cond(cf, by_value[8])  # not the M1 of the line after
    assert _cond(cf, by_value[20])["hardware"] == "Apple M1"
    assert _cond(cf, by_value[40])["hardware"] == "8x NVIDIA Quadro P6000"
    # control: a sentence wrapped onto a line in lower case goes on
    assert _cond(cf, by_value[45])["hardware"] == "NVIDIA GeForce RTX 4090"
    # control: and onto a line opening with a name, after a line ending mid-sentence
    cf = _drafted("# llama.cpp\n\nGeneration ran at 45 tok/s on the\nRTX 4090 with Q4_K_M.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "NVIDIA GeForce RTX 4090"


_NEWUSER = ROOT / "tests" / "fixtures" / "draft" / "newuser53_4090_spec.md"


def test_a_difference_in_a_unit_relates_the_pair_that_gives_it(tmp_path):
    """The new user's "it only uses 1.2 GB more VRAM for the draft model" was a VRAM claim of 1.2
    GB; it is a difference of the table's 11.6 and 10.4 GB (found by value, said in a note), not of
    the sentence's rates; and "400 tokens generated" among the run's settings is no count claimed."""
    cf = _drafted(_NEWUSER.read_text(encoding="utf-8"), tmp_path)
    by_value = _by_value(cf)
    (s,) = [s for s in cf.statements if s.kind == "difference"]
    assert (s.value, s.unit, s.source_line) == (1.2, "GB", 21)
    assert s.of == [by_value[11.6].id, by_value[10.4].id]
    assert s.note == "sides found by value: the one pair of the claims before it giving the stated number"
    assert [c for c in cf.claims if c.metric in ("vram", "tokens") and c.value in (1.2, 400)] == []
    assert 400 in [int(u.number) for u in cf.draft.unplaced if u.number.isdecimal()]
    # the draft model's quant from its file name ("-md Qwen2.5-0.5B-Instruct-Q8_0.gguf")
    assert _cond(cf, by_value[110.3])["other"]["draft_quant"] == "Q8_0"


def test_a_difference_with_no_sides_stated_is_a_claim_of_it(tmp_path):
    """h200: "roughly 45 tokens/s which is only 5 tokens/s faster than running LLaMa on half
    precision with HuggingFace" (no HuggingFace rate): a claim of the difference, as the corpus
    writes one; "40 tok/s or more" stays a bound; a reported count ("Output: 46,054 tokens
    generated") stays a claim."""
    cf = _drafted(
        "# FasterTransformer\n\nThat's roughly 45 tokens/s which is only 5 tokens/s faster than running "
        "LLaMa on half precision with HuggingFace.\n\nGeneration reached 40 tok/s or more.\n\n"
        "Output: 46,054 tokens generated, 277,568 prompt tokens processed.\n",
        tmp_path,
    )
    assert [(c.id, c.metric, c.value, c.unit) for c in cf.claims] == [
        ("decode-tps-l3", "decode_tps", 45, "tok/s"),
        ("decode-tps-difference-l3", "decode_tps_difference", 5, "tok/s"),
        ("tokens-l7", "tokens", 46054, "tokens"),
    ]
    assert _bounds(cf) == [("above", 40, "tok/s")]


def test_a_count_of_cards_in_chinese_and_the_title_card_counted_in_the_text(tmp_path):
    """ "四卡H20", "4 卡 16GB V100", "4 x 昇腾910B4" (h383, h384): the count and the card; a title naming
    "MI300X" and a text "on 8xMI300X (tp8)" (h334): the counted card."""
    from benchbook.audit.draftnames import mentions

    said = {
        s: [m.value for m in mentions(s) if m.path == "hardware"]
        for s in ("四卡H20 GPU", "在 4 卡 16GB V100 机器上", "4 x 昇腾910B4 NPU", "一张卡上")
    }
    assert said == {
        "四卡H20 GPU": ["4x NVIDIA H20"],
        "在 4 卡 16GB V100 机器上": ["4x NVIDIA Tesla V100"],
        "4 x 昇腾910B4 NPU": ["4x Ascend 910B4"],
        "一张卡上": [],  # "one card": no count, no card named
    }
    cf = _drafted(
        "# Triton MoE tuning configs for GLM-4.6 for MI300X\n\n"
        "This PR adds tuned configs on **8xMI300X (tp8)**.\n\n"
        "Output throughput went to 2,100 tok/s.\n",
        tmp_path,
    )
    assert _cond(cf, cf.claims[0])["hardware"] == "8x AMD Instinct MI300X"


def test_an_ollama_model_tag_names_the_engine_of_a_post_naming_none(tmp_path):
    """h390: "Running benchmark 3 times using model: llama3.2:3b" and an "Eval Rate" table, no engine
    named: "name:tag" is how Ollama names models, so the runs are Ollama's (a guess, said so).
    Controls: a post naming its engine keeps it; a time of day is no tag."""
    cf = _drafted(
        "# Radxa Orion O6\n\nRunning benchmark 3 times using model: llama3.2:3b\n\n"
        "| Run | Eval Rate (Tokens/Second) |\n|---|---|\n| 1 | 4.12 |\n| 2 | 4.15 |\n",
        tmp_path,
    )
    assert [_cond(cf, c)["engine"] for c in cf.claims] == ["Ollama", "Ollama"]
    assert cf.draft.conditions_from[cf.claims[0].id]["engine"][1] == (
        "guess: the post names no engine, and 'llama3.2:3b' is an Ollama model tag"
    )
    cf = _drafted("# vLLM\n\nModel qwen3:8b at 12:30 reached 41 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["engine"] == "vLLM"
    cf = _drafted("# RTX 4090\n\nAt 12:30 the run reached 41 tok/s.\n", tmp_path)
    assert "engine" not in _cond(cf, cf.claims[0])


def test_a_markdown_posts_html_table_is_read_as_a_table(tmp_path):
    """A Markdown post with an HTML table: read as an HTML page (its tags were most of its lines:
    every line after the table moved), or a one-line table's "<td>45.2 tok/s</td>" a bound of 45.2
    (the tag's ">"); its rows are pipe rows on their own lines now, every later line keeping its
    number."""
    cf = _drafted(
        "# Results\n\n<table>\n<tr><th>GPU</th><th>tg128 (t/s)</th></tr>\n"
        "<tr><td>RTX 4090</td><td>45.2</td></tr>\n<tr><td>RTX 3090</td><td>30.1</td></tr>\n</table>\n\n"
        "The 4090 is 50% faster.\n",
        tmp_path,
    )
    assert _bounds(cf) == []
    rows = [
        (c.value, c.source_line, _cond(cf, c)["hardware"], _cond(cf, c)["tokens_generated"])
        for c in cf.claims
    ]
    assert rows == [(45.2, 5, "NVIDIA GeForce RTX 4090", 128), (30.1, 6, "NVIDIA GeForce RTX 3090", 128)]
    (s,) = cf.statements
    assert (s.value, s.source_line, s.of) == (50, 9, [cf.claims[1].id, cf.claims[0].id])
    # a one-line table: no bound either
    cf = _drafted("# RTX 4090\n\n<table><tr><td>Q4_K_M</td><td>45.2 tok/s</td></tr></table>\n", tmp_path)
    assert _bounds(cf) == [] and [c.value for c in cf.claims] == [45.2]


def test_prompt_at_a_rate_is_the_prefill_and_a_conjunction_ends_a_numbers_words():
    """ "generation at 45.2 tok/s and prompt at 1200 tok/s": the second is the prompt's; the words
    after the first, past "and", are not its."""
    from benchbook.audit.draftprose import metric_of

    assert (
        metric_of("tok/s", "I ran llama-bench: generation at ", " and prompt at 1200 tok/s") == "decode_tps"
    )
    assert metric_of("tok/s", "generation at 45.2 tok/s and prompt at ", "") == "prefill_tps"
    assert metric_of("GB", "it used ", " system RAM") == "ram"  # control: one word before the name


# --- the breaker's round on this session's kinds -------------------------------------------------

_RESULTS_AS_BOUNDS = (
    "It feels snappy: Llama 3 8B generation reached over 100 tok/s.",
    "In an interactive chat session, Llama 3 8B generated at least 90 tok/s.",
    "Excellent result: decode stayed above 100 tok/s for every prompt.",
    "The 70B model needs to be offloaded, and even then it generated over 8 tok/s.",
    "You will need a 24 GB card; on ours, Llama 3 8B ran at over 100 tok/s.",
    "The 32B model is usable here: it generated at least 25 tok/s in every run.",
    "In practice the 70B model counts as slow, reaching only up to 6 tok/s.",
    "运行非常流畅，Llama 3 8B 生成速度超过 100 tok/s。",
)
_THRESHOLDS = (
    "If you get less than 10 tok/s, check that the model is fully offloaded.",
    "Models that need more than 24 GB of VRAM will not fit on this card.",
    "Tokens-per-second decides whether a deployment is interactive (above ~30 tps for chat).",
)


def test_a_threshold_word_counts_in_the_bounds_own_clause_only(tmp_path):
    """The breaker's results written as bounds beside a judging word in another clause ("It feels
    snappy: … reached over 100 tok/s") or after a verb of the run ("it generated at least 25 tok/s")
    were listed; they are bounds.  A condition ("If you get less than 10 tok/s") and a class of models
    ("Models that need more than 24 GB … will not fit") are thresholds."""
    for sentence in _RESULTS_AS_BOUNDS:
        cf = _drafted(f"# RTX 4090 with llama.cpp\n\n{sentence}\n", tmp_path)
        assert len(_bounds(cf)) == 1, sentence
    for sentence in _THRESHOLDS:
        cf = _drafted(f"# RTX 3090 with llama.cpp\n\nGeneration ran at 120 tok/s.\n\n{sentence}\n", tmp_path)
        assert _bounds(cf) == [], sentence


def test_a_tables_rating_column_makes_a_scale_and_a_results_header_word_does_not(tmp_path):
    """ "| Speed | Verdict |" rows are a scale's; "| GPU | Recommended model | Decode |" and "| Model |
    Decode | Usable? |" hold results (a header's word judged every row before)."""
    head = "# RTX 3090 with llama.cpp\n\nGeneration ran at 120 tok/s.\n\n"
    cf = _drafted(
        head + "| Speed | Verdict |\n|---|---|\n| <10 tok/s | Slow |\n| >50 tok/s | Fast |\n", tmp_path
    )
    assert _bounds(cf) == []
    for table in (
        "| GPU | Recommended model | Decode |\n|---|---|---|\n| RTX 4090 | Llama 3 8B | >100 tok/s |\n",
        "| Model | Decode | Usable? |\n|---|---|---|\n| Llama 3 8B | >100 tok/s | yes |\n",
    ):
        cf = _drafted(head + table, tmp_path)
        assert _bounds(cf) == [("above", 100, "tok/s")], table


def test_a_heading_with_a_number_in_it_and_two_engines_of_one_family(tmp_path):
    """ "# MLX vs llama.cpp on an RTX 4090": the card's number came first and the names before it
    were taken; "# llama.cpp vs. llama-cpp-python": two engines, not one said in full."""
    for title in (
        "# MLX vs llama.cpp on an RTX 4090",
        "# vLLM vs SGLang on RTX 6000 Ada",
        "# llama.cpp vs. llama-cpp-python on an RTX 4090",
    ):
        cf = _drafted(f"{title}\n\nPrompt processing: 510 tok/s.\n", tmp_path)
        assert "engine" not in _cond(cf, cf.claims[0]), title
    cf = _drafted("# RTX 3090 vs RTX 4090 with llama.cpp\n\nPrompt processing: 510 tok/s.\n", tmp_path)
    assert "hardware" not in _cond(cf, cf.claims[0])
    cf = _drafted("# llama.cpp (llama-server) on an RTX 4090\n\nPrompt processing: 510 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["engine"] == "llama.cpp"


def test_names_compared_in_order_only_give_a_pair_their_order(tmp_path):
    """ "Compared to SGLang, vLLM is 2x faster: 62 versus 31": the reference first, the order says
    nothing (62 was SGLang's); each takes the nearer name, as before."""
    for sentence in (
        "Compared to SGLang, vLLM is 2x faster: 62 versus 31 tok/s.",
        "While SGLang was easier to set up, vLLM was 2x faster, 62 vs 31 tok/s.",
    ):
        cf = _drafted(f"# Serving on an H100\n\n{sentence}\n", tmp_path)
        assert _cond(cf, _by_value(cf)[62])["engine"] == "vLLM", sentence
    cf = _drafted("# Serving on an H100\n\nSGLang is 2x slower than vLLM, 31 versus 62 tok/s.\n", tmp_path)
    by_value = _by_value(cf)
    assert (_cond(cf, by_value[31])["engine"], _cond(cf, by_value[62])["engine"]) == ("SGLang", "vLLM")


def test_other_contrasting_clauses_keep_their_pair(tmp_path):
    """ "While TTFT was 210 ms vs 180 ms, decode is 1.3x faster", "…, however TTFT was …", "…, yet TTFT
    went from 180 ms to 210 ms": the times are not the 1.3x's (judged "inconsistent", 1.17).  Control:
    "But MTPLX prefill collapses …: 115.5 vs 231.7 tok/s at 16K (50% slower)" (h314) keeps its pair."""
    for sentence in (
        "While TTFT was 210 ms vs 180 ms, decode is 1.3x faster with the draft model.",
        "Decode is 1.3x faster with the draft model, however TTFT was 210 ms vs 180 ms.",
        "Decode is 1.3x faster with the draft model, yet TTFT went from 180 ms to 210 ms.",
    ):
        cf = _drafted(f"# RTX 4090 with llama.cpp\n\n{sentence}\n", tmp_path)
        assert cf.statements == [], sentence
    cf = _drafted(
        "# M3 Max\n\nBut MTPLX prefill collapses at long context: 115.5 vs oMLX's 231.7 tok/s at 16K "
        "(50% slower).\n",
        tmp_path,
    )
    (s,) = cf.statements
    assert s.value == -50 and sorted(_by_value(cf)[v].id for v in (115.5, 231.7)) == sorted(s.of)


def test_a_specs_words_make_a_tflops_the_peak(tmp_path):
    """ "On paper … can reach 165 TFLOPS", "rated at 989 TFLOPS", "the theoretical peak goes up to 59.4
    TFLOPS", "of the 59.4 TFLOPS peak": the hardware's; "The benchmark reached 36.9 TFLOPS": a run's."""
    cf = _drafted(
        "# GPUs\n\nOn paper the RTX 4090 can reach 165 TFLOPS of FP16 with sparsity.\n\n"
        "Our test machine has an H100, rated at 989 TFLOPS dense BF16.\n\n"
        "The theoretical peak goes up to 59.4 TFLOPS at 2.9 GHz.\n\n"
        "The benchmark reached 36.9 TFLOPS, about 62% of the 58.4 TFLOPS peak.\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "TFLOPS"] == [
        ("peak_tflops", 165),
        ("peak_tflops", 989),
        ("peak_tflops", 59.4),
        ("matmul_tflops", 36.9),
        ("peak_tflops", 58.4),
    ]


def test_a_phase_named_after_the_other_side_holds(tmp_path):
    """ "Prompt processing reached 5,000 tok/s, far more than the 40 tok/s of token generation": the 40
    names its own phase after it."""
    cf = _drafted(
        "# RTX 4090 with llama.cpp\n\nPrompt processing reached 5,000 tok/s, far more than the 40 tok/s of "
        "token generation.\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims] == [("prefill_tps", 5000), ("decode_tps", 40)]

"""`benchbook claims draft`: relating phrases drafted as statements with the right sides (issue 29's
statements figure), each kind with made-up text in the field's style and a control."""

from __future__ import annotations

from benchbook.audit import schema
from benchbook.audit.draftfile import draft_post
from drafting import drafted as _drafted


def _stmts(cf: schema.ClaimsFile) -> list[tuple]:
    return [(s.kind, s.of, s.value, s.unit) for s in cf.statements]


def _value_of(cf: schema.ClaimsFile, cid: str) -> float | None:
    c = cf.claim(cid)
    assert c is not None, cid
    return c.value


_SWEEP = (
    "We kept the 8B target fixed: without a draft model it decodes at a baseline of 30.0 tok/s.\n\n"
    "| Draft | Size on disk | Decode | Speedup | VRAM |\n|---|---|---|---|---|\n"
    "| 0.6B | 640 MB | 45.0 tok/s | 1.50× | 7,100 MB |\n"
    "| 1.7B | 1,800 MB | 39.0 tok/s | 1.30× | 8,200 MB |\n"
)


def test_a_speedup_column_over_a_baseline_stated_in_prose(tmp_path):
    """A "Speedup" column beside one rate column and two size columns, with no baseline row: each
    cell is a ratio of the row's rate (not its sizes) over the baseline rate the prose states before
    the table."""
    cf = _drafted(_SWEEP, tmp_path)
    got = _stmts(cf)
    assert [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in got] == [
        ("ratio", [45.0, 30.0], 1.5, "x"),
        ("ratio", [39.0, 30.0], 1.3, "x"),
    ]
    assert not [c for c in cf.claims if c.metric == "speedup"]


def test_a_speedup_column_over_a_plain_rate_in_prose_other_wordings(tmp_path):
    """The same with the baseline written "no-spec" and a "vs. plain" column of percentages: a
    percent change from the baseline to the row's rate."""
    text = (
        "Plain decoding (no-spec) runs at 20 t/s on this card.\n\n"
        "| Method | Model size | Generation (t/s) | vs. plain |\n|---|---|---|---|\n"
        "| n-gram | 4.1 GB | 25 | +25% |\n| EAGLE | 4.4 GB | 31 | +55% |\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in _stmts(cf)]
    assert got == [("percent_change", [20.0, 25.0], 25.0, "%"), ("percent_change", [20.0, 31.0], 55.0, "%")]


def test_a_speedup_column_with_no_baseline_anywhere_stays_claims(tmp_path):
    """Control: with no baseline in the prose (a rate that is no baseline, and that the cells are
    not the rows' rates over: 45.0 / 26.0 = 1.73, not 1.50), the cells are claims of the change, no
    statement with guessed sides."""
    text = _SWEEP.replace("without a draft model it decodes at a baseline of 30.0 tok/s", "it ran 26.0 tok/s")
    cf = _drafted(text, tmp_path)
    assert cf.statements == []
    assert sorted(c.value for c in cf.claims if c.metric == "speedup") == [1.3, 1.5]


def test_a_change_in_japanese_korean_word_order_relates_the_previous_rate(tmp_path):
    """ "17.5tok/sec!12%速くなりました" (12% faster): the words after a Japanese, Korean or Chinese
    comparison word are a verb, not the other side, so the change relates the rate before it to
    the one it follows (the one pair), not a claim of the change."""
    for text in (
        "最初は15.6tok/secでした。\n\n設定を変えたら17.5tok/sec!12%速くなりましたね。\n",
        "처음에는 15.6 tok/s였다.\n\n설정을 바꾸니 17.5 tok/s, 12% 빨라졌습니다.\n",
    ):
        cf = _drafted(text, tmp_path)
        got = [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in _stmts(cf)]
        assert got == [("percent_change", [15.6, 17.5], 12.0, "%")], text
        assert not [c for c in cf.claims if c.unit == "%"]


def test_a_change_with_no_earlier_rate_stays_a_claim_of_the_change(tmp_path):
    """Control: "12%速くなりました" with no other rate in the post is a claim of the change."""
    cf = _drafted("設定を変えたら17.5tok/sec!12%速くなりましたね。\n", tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value, c.unit) for c in cf.claims if c.unit == "%"] == [("speed_change", 12.0, "%")]


def test_a_multiple_or_change_written_as_a_bound_is_a_bound_over_the_sides_ratio(tmp_path):
    """ "at least 2.5× faster" beside its two rates is a ``bound`` statement over the ratio of the
    sides' sets (the condition telling them apart: speculative over plain), not a ratio of 2.5 nor a
    speedup claim; "≥", "more than", "mindestens" alike; a change as the ratio 1 ± N/100 ("more than
    40% faster": above 1.4; "more than 70% smaller": below 0.3)."""
    cases = [
        (
            "Plain decoding ran at 20 t/s; with a draft model it reached 52 t/s, at least 2.5× faster.",
            2.5,
            "above",
        ),
        (
            "Plain decoding ran at 20 t/s, and with a draft model it reached 52 t/s: a speedup of ≥2.5×.",
            2.5,
            "above",
        ),
        (
            "Plain decoding ran at 20 t/s; with a draft model it reached 30 t/s, more than 40% faster.",
            1.4,
            "above",
        ),
    ]
    for sentence, value, relation in cases:
        cf = _drafted(sentence + "\n", tmp_path)
        assert [(s.kind, s.value, s.relation, s.unit) for s in cf.statements] == [
            ("bound", value, relation, "x")
        ], sentence
        over = cf.statements[0].over
        assert over is not None
        assert (over.numerator, over.denominator) == (
            {"metric": "decode_tps", "decoding": "speculative"},
            {"metric": "decode_tps", "decoding": "plain"},
        ), sentence
        assert not [c for c in cf.claims if c.metric in ("speedup", "speed_change")], sentence


def test_a_bound_whose_sides_no_condition_tells_apart_is_over_the_two_claims(tmp_path):
    """A bound over two claims whose conditions are the same would bound a set over itself: it is
    over the two claims by ``id``; with a rate but no second side, a todo of kind bound listing it,
    saying what to write; never a claim of the value."""
    cf = _drafted("It ran at 30 t/s before and 45 t/s after, at least 40% faster.\n", tmp_path)
    assert [(s.kind, s.value, s.relation, s.unit) for s in cf.statements] == [("bound", 1.4, "above", "x")]
    over = cf.statements[0].over
    assert over is not None and over.denominator is not None
    assert (_value_of(cf, over.numerator["id"]), _value_of(cf, over.denominator["id"])) == (45.0, 30.0)
    cf = _drafted("The new build reached 45 t/s, at least 40% faster.\n", tmp_path)
    assert cf.statements == []
    assert [(t.kind, t.value, t.unit, [_value_of(cf, c) for c in t.of]) for t in cf.todo] == [
        ("bound", 1.4, "x", [45.0])
    ]
    assert "relation" in cf.todo[0].todo and "over" in cf.todo[0].todo
    assert not [c for c in cf.claims if c.unit in ("%", "x")]


def test_a_multiple_as_a_bound_with_nothing_to_relate_is_a_bound_todo(tmp_path):
    """Control: "up to 15× higher throughput" with no claim in the sentence is a todo of kind bound
    citing nothing, for the user to write its sets (since session 58: a claim of 15× stated a value
    the post does not, and the corpus writes such a bound as a claim naming it, no value)."""
    cf = _drafted('The vendor says "up to 15× higher throughput" with speculative decoding.\n', tmp_path)
    assert cf.statements == [] and cf.claims == []
    assert [(t.kind, t.value, t.unit, t.of) for t in cf.todo] == [("bound", 15.0, "x", [])]


def test_a_rule_of_thumb_or_requirement_with_a_multiple_is_no_measured_change(tmp_path):
    """ "Rule of thumb: keep a 2.5× min draft/target ratio", "we recommend at least 3x faster
    drafts", "you need a draft that is 5x faster" state no measurement: listed under
    ``draft.unplaced``, neither a ratio statement over the post's rates nor a speedup claim (an
    audit called the first "unsupported: a speedup without both speeds")."""
    text = (
        "The 8B target decodes at 41.2 tok/s and the 0.6B draft at 210 tok/s.\n\n"
        "Rule of thumb: keep a 2.5× min draft/target ratio in speed, otherwise speculation does not pay.\n\n"
        "We recommend at least 3x faster drafts.\n\n"
        "You need a draft that is 5x faster than the target.\n\n"
        "经验上,草稿模型的速度建议是目标模型的3倍以上。\n"
    )
    post = tmp_path / "post.md"
    post.write_text(text, encoding="utf-8")
    out, _, _ = draft_post(post)
    cf = schema.load(out)
    assert cf.statements == [] and cf.todo == []
    assert [c.value for c in cf.claims] == [41.2, 210.0]
    assert cf.draft is not None
    assert [(u.line, u.number) for u in cf.draft.unplaced] == [(3, "2.5"), (5, "3"), (7, "5"), (9, "3")]


def test_a_measured_multiple_beside_advice_elsewhere_is_still_a_statement(tmp_path):
    """Control: a measured "2.05x faster" in a post that gives advice in another sentence stays a
    ratio statement of its two rates; "roughly 3× faster" with no rate to relate stays a claim of
    the change (the corpus convention)."""
    text = (
        "We recommend a small draft model.\n\n"
        "Plain decoding ran at 20 t/s; with the draft it reached 41 t/s, 2.05x faster.\n\n"
        "## Elsewhere\n\nOthers report speculative decoding is roughly 3× faster.\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in _stmts(cf)] == [
        ("ratio", [41.0, 20.0], 2.05, "x")
    ]
    assert [(c.metric, c.value, c.about) for c in cf.claims if c.unit == "x"] == [("speedup", 3.0, True)]


def test_tenths_in_chinese_and_japanese_words_are_a_change(tmp_path):
    """ "体积压缩了七成以上" (compressed by more than seven tenths) after "从13GB到3.5GB" is a bound of
    the ratio, below 0.3, over the two sizes (a sentence ends at "。" with no space, a clause at a
    comma before Chinese text); "7割削減" a 70% cut; a share of people ("七成的人") is no change."""
    from benchbook.audit.draftprose import numbers
    from benchbook.audit.draftrelations import relations

    for text, want in (
        ("从13GB到3.5GB,体积压缩了七成以上。", [("percent_change", "70", -1)]),
        ("ファイルは7割削減された。", [("percent_change", "70", -1)]),
        ("七成的人使用GPU。", []),
    ):
        got = [(r.kind, r.number.text, r.sign) for r in relations(text, numbers(text))]
        assert got == want, text
    text = (
        "| 版本 | 显存占用 |\n|---|---|\n| FP16 | 13GB |\n| q4_0 | 3.5GB |\n\n"
        "看到没?从13GB到3.5GB,体积压缩了七成以上,推理速度还快了不少。\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(s.kind, s.value, s.relation) for s in cf.statements] == [("bound", 0.3, "below")]
    # 显存占用: VRAM used, no peak word: vram
    over = cf.statements[0].over
    assert over is not None and over.numerator["metric"] == over.denominator["metric"] == "vram"


def test_a_phrase_relates_the_claims_of_its_own_section_first(tmp_path):
    """ "MTP is 23% slower" under the table of its own section relates that table's rates (the pair
    whose values give -23%: 97 -> 74), not the rates of the post's summary in an earlier section."""
    text = (
        "# MTP on a 16 GB card\n\n"
        "Summary: 56 tok/s generation and 1,584 tok/s prompt processing for the 35B MoE.\n\n"
        "## Without MTP is faster\n\n"
        "| Config | Avg tok/s |\n|---|---|\n"
        "| no MTP, fit 0 | 97 |\n| no MTP, fit 1536 | 86 |\n| MTP, fit 1536 | 74 |\n\n"
        "MTP is 23% slower for the 35B MoE.\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(k, [_value_of(cf, c) for c in of], v, u) for k, of, v, u in _stmts(cf)]
    assert got == [("percent_change", [97.0, 74.0], -23.0, "%")]
    assert cf.todo == []


def test_a_todo_lists_only_candidates_of_the_metric_it_names(tmp_path):
    """A todo's candidates are the claims a reader would weigh: "1.9x decode" lists decode rates,
    not the acceptance rates beside it in the sentence nor the prompt rates (one metric, the one
    the clause names nearest the phrase)."""
    text = (
        "| Category | Decode t/s | Prompt t/s |\n|---|---|---|\n"
        "| code | 13.5 | 410 |\n| chat | 6.3 | 395 |\n| math | 12.4 | 402 |\n\n"
        "The split was large: coding 1.9x decode / 70.4% acceptance and chat 50.1% acceptance.\n"
    )
    cf = _drafted(text, tmp_path)
    assert [t.value for t in cf.todo] == [1.9]
    listed = [cf.claim(cid) for cid in cf.todo[0].of]
    assert {c.metric for c in listed if c} == {"decode_tps"} and len(listed) >= 2


def test_two_stated_numbers_compared_are_a_bound_and_a_margin_a_change(tmp_path):
    """A line comparing two stated numbers of one kind ("q8_0 KV memory (34 MiB) < f16 KV memory
    (64 MiB)", a test's TAP line, or prose "TTFT 32.8 ms ≤ 44.3 ms") is a bound statement of the
    first over the second below/above 1 (over the two claims by id); "+ 15% margin (50.9 ms)" after
    the second is a percent change from it to the limit and makes the bound 1.15 ("- 10% margin"
    0.9, above for >=); the margin's % is no claim.  Control: a line of two numbers with no
    comparison ("34 MiB / 64 MiB") gives no statement."""
    text = (
        "```\n"
        "ok 3 - q8_0 KV memory (34 MiB) < f16 KV memory (64 MiB)\n"
        "ok 4 - q8_0 TTFT (32.8 ms) <= f16 TTFT (44.3 ms) + 15% margin (50.9 ms)\n"
        "ok 5 - q8_0 prompt eval (1100 t/s) >= f16 (800 t/s) - 10% margin (720 t/s)\n"
        "```\n\n"
        "Decode held at 41.0 t/s ≥ 40 t/s. Memory was 34 MiB / 64 MiB.\n"
    )
    cf = _drafted(text, tmp_path)
    got = []
    for s in cf.statements:
        if s.kind == "bound":
            assert s.over is not None and s.over.denominator is not None
            sides = [_value_of(cf, s.over.numerator["id"]), _value_of(cf, s.over.denominator["id"])]
            got.append((s.kind, sides, s.relation, s.value))
        else:
            got.append((s.kind, [_value_of(cf, c) for c in s.of], None, s.value))
    assert got == [
        ("bound", [34.0, 64.0], "below", 1.0),
        ("percent_change", [44.3, 50.9], None, 15.0),
        ("bound", [32.8, 44.3], "below", 1.15),
        ("percent_change", [800.0, 720.0], None, -10.0),
        ("bound", [1100.0, 800.0], "above", 0.9),
        ("bound", [41.0, 40.0], "above", 1.0),
    ]
    assert not [c for c in cf.claims if c.unit == "%"]


def test_relations_joined_by_and_share_the_other_side_the_last_names():
    """ "k=2 is 36% faster and k=4 is 28% faster than vanilla": both changes are over vanilla (the
    first's other side is not "and k=4 is ..."); "20% faster than A and 10% faster than B" keep
    their own; a multiple and a change joined are of different kinds and keep theirs."""
    from benchbook.audit.draftprose import numbers
    from benchbook.audit.draftrelations import relations

    for text, want in (
        ("k=2 is 36% faster and k=4 is 28% faster than vanilla.", [("36", "vanilla"), ("28", "vanilla")]),
        ("n=3 gives +12%, n=5 gives +9% over plain.", [("12", "plain"), ("9", "plain")]),
        ("It is 20% faster than A and 10% faster than B.", [("20", "A"), ("10", "B")]),
        ("It hits 2085 t/s PP — nearly 4× Ollama and 3.8× mlx_lm.", [("4", "Ollama"), ("3.8", "mlx_lm")]),
    ):
        assert [(r.number.text, r.other) for r in relations(text, numbers(text))] == want, text


def test_vllm_tqdm_rates_in_toks_per_second():
    """vLLM's progress line "est. speed input: 47.09 toks/s, output: 128.64 toks/s": rates in tok/s,
    read as a prompt and a decode rate by the words (the relations compare them so); the drafted
    claims are input_throughput and throughput (``draftmetric.settle_rates``, test_draft_metric)."""
    from benchbook.audit.draftprose import metric_of, numbers

    text = "* k=2: [01:34<00:00,  1.18s/it, est. speed input: 64.12 toks/s, output: 175.49 toks/s]"
    found = [n for n in numbers(text) if n.unit == "tok/s"]
    assert [(n.text, metric_of(n.unit, text[: n.start], text[n.end :])) for n in found] == [
        ("64.12", "prefill_tps"),
        ("175.49", "decode_tps"),
    ]


def test_a_percentage_bound_of_the_peak_is_a_bound_of_the_claim_over_the_peak(tmp_path):
    """ "only gets to 5.1 TFLOPS (<9% max theoretical)" beside a stated theoretical peak is a bound of
    that claim over the peak's claims below 0.09 (a fraction), not a bound of some share at 9%;
    ">60% of peak" above 0.6.  Control: "<9% of the time" names no ceiling: no such bound (a
    share, as before)."""
    text = (
        "The theoretical peak is 59.4 TFLOPS at 2.9 GHz.\n\n"
        "Without the tuned kernels it only gets to 5.1 TFLOPS (<9% max theoretical).\n\n"
        "The GPU was busy <9% of the time.\n"
    )
    cf = _drafted(text, tmp_path)
    got = []
    for s in cf.statements:
        assert s.kind == "bound" and s.over is not None
        num = s.over.numerator
        got.append((s.value, s.unit, s.relation, _value_of(cf, num["id"]) if "id" in num else num))
    assert got[0] == (0.09, "x", "below", 5.1)
    assert cf.statements[0].over is not None
    assert cf.statements[0].over.denominator == {"metric": _metric_of_value(cf, 59.4)}
    assert len(got) == 1
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "%"] == [("share", 9.0)]


def _metric_of_value(cf: schema.ClaimsFile, value: float) -> str | None:
    return next(c.metric for c in cf.claims if c.value == value)

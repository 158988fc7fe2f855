"""`benchbook claims draft`: relating phrases whose sides the drafter missed, by kind (issue 29's
statements figure, the kinds found on the tuning posts): each kind with made-up text in new wording
and a control that must not change."""

from __future__ import annotations

from benchbook.audit import schema
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit) for c in cf.claims]


def _stmts(cf: schema.ClaimsFile) -> list[tuple]:
    """(kind, the values of the sides, value, unit) of each statement."""
    out = []
    for s in cf.statements:
        sides = [cf.claim(c).value if cf.claim(c) is not None else c for c in s.of]  # type: ignore[union-attr]
        out.append((s.kind, sides, s.value, s.unit))
    return out


# --- "A vs B unit": a compared pair states its unit once, after the second number --------------------


def test_a_multiple_before_its_pair_written_a_vs_b(tmp_path):
    """ "3.1x the throughput of Omega (124 vs 40 tok/s)": both numbers are rates (the unit written
    once), and they are the multiple's sides, the first over the second."""
    cf = _drafted(
        "Engine Zeta delivers 3.1x the throughput of Engine Omega at batch 16 (124 vs 40 tok/s) "
        "on one card.\n",
        tmp_path,
    )
    assert [(u, v) for _, v, u in _rows(cf)] == [("tok/s", 124.0), ("tok/s", 40.0)]
    assert _stmts(cf) == [("ratio", [124.0, 40.0], 3.1, "x")]


def test_a_vs_pair_without_a_unit_stays_unread(tmp_path):
    """Control: "batch 8 vs 16" states no unit for either number: neither becomes a claim."""
    cf = _drafted("We compared batch 8 vs 16 and the engine held 52 tok/s in both.\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 52.0, "tok/s")]
    assert cf.statements == []


# --- sides found by value: runs labelled by names no claim carries, related later ------------------

_PASSES = (
    "Three passes over the same prompt set on one card:\n\n"
    "- first pass (reference): wall 40 s, gen 50.0 tok/s\n"
    "- second pass: wall 28 s, gen 71.2 tok/s\n"
    "- third pass: wall 34 s, gen 58.6 tok/s\n\n"
)


def test_percent_changes_whose_sides_only_their_values_tie(tmp_path):
    """ "The second pass is 42% faster ... than the reference": the labels are no condition, but one
    pair of the rates gives +42% (50.0 -> 71.2: +42.4%) and one +17% (50.0 -> 58.6: +17.2%), each a
    change from the reference; the wall times are no sides of "faster"."""
    text = _PASSES + "The second pass is 42% faster and the third is 17% faster than the reference.\n"
    cf = _drafted(text, tmp_path)
    assert _stmts(cf) == [
        ("percent_change", [50.0, 71.2], 42.0, "%"),
        ("percent_change", [50.0, 58.6], 17.0, "%"),
    ]


def test_a_stated_value_cut_rather_than_rounded_still_fits(tmp_path):
    """A post that cuts its digits: 50.0 -> 64.9 is +29.8%, written "29%"."""
    text = _PASSES.replace("71.2", "64.9") + "The second pass is 29% faster than the reference.\n"
    cf = _drafted(text, tmp_path)
    assert _stmts(cf) == [("percent_change", [50.0, 64.9], 29.0, "%")]


def test_coarse_or_ambiguous_values_pick_no_sides(tmp_path):
    """Controls: "about 2x" fits too many pairs to mean one (a claim of the multiple stays); a
    change two pairs give alike (50.0 -> 58.6 and 58.6 -> 68.7, both +17%) picks neither (a claim of
    the change stays)."""
    cf = _drafted(_PASSES + "The fastest pass is about 2x faster than the slowest one.\n", tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value) for c in cf.claims if c.source_line == 7] == [("speedup", 2.0)]
    cf = _drafted(_PASSES.replace("71.2", "68.7") + "One pass is 17% faster than another.\n", tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value) for c in cf.claims if c.source_line == 7] == [("speed_change", 17.0)]


def test_a_fit_across_two_conditions_is_no_comparison(tmp_path):
    """Control: in a quant x context sweep, "-8.6%" fits only Q4 at 8192 -> Q8 at 2048 (70.0 -> 64.0),
    two rows differing in quant and context both: no comparison a phrase states, so the change
    stays a claim."""
    text = (
        "Generation speed by quant and context:\n\n| quant | ctx | gen (tok/s) |\n|---|---|---|\n"
        "| Q4 | 2048 | 80.0 |\n| Q4 | 8192 | 70.0 |\n| Q8 | 2048 | 64.0 |\n| Q8 | 8192 | 60.0 |\n\n"
        "Summary: Q8 decodes slower (-8.6%).\n"
    )
    cf = _drafted(text, tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value) for c in cf.claims if c.source_line == 10] == [("decode_change", -8.6)]


# --- a side the post states twice cites the first claim (SOURCES.md's convention) -----------------

_DETAIL = (
    "## Large model, with and without a draft\n\n"
    "| Large model run | Draft | Gen tok/s |\n|---|---|---|\n"
    "| no draft | No | 50 |\n| with draft | Yes | 40 |\n\n"
    "The draft makes the large model 20% slower.\n"
)


def test_a_side_restated_from_an_earlier_table_cites_the_first(tmp_path):
    """The overview table gives the large model's 40 tok/s; the detail table restates it under the
    same settings: the statement's slower side is the overview's claim, the first stating it."""
    text = (
        "## Overview\n\n| Metric | Small model | Large model |\n|---|---|---|\n"
        "| Gen tok/s | 55 | 40 |\n| Draft accept | 71% | 64% |\n\n" + _DETAIL
    )
    cf = _drafted(text, tmp_path)
    (s,) = cf.statements
    assert (s.kind, s.value, [(cf.claim(c).value, cf.claim(c).source_line) for c in s.of]) == (  # type: ignore[union-attr]
        "percent_change",
        -20.0,
        [(50.0, 12), (40.0, 5)],
    )


def test_the_same_digits_under_another_setting_are_no_repeat(tmp_path):
    """Control: an earlier 40 tok/s measured without a draft (decoding plain) is another number than
    the detail table's 40 tok/s with a draft: the statement cites the table's rows."""
    text = "## Overview\n\nWithout a draft model the small model decodes at 40 tok/s.\n\n" + _DETAIL
    cf = _drafted(text, tmp_path)
    (s,) = cf.statements
    assert [(cf.claim(c).value, cf.claim(c).source_line) for c in s.of] == [(50.0, 9), (40.0, 10)]  # type: ignore[union-attr]


# --- multiples in other languages: digits and the language's word for "times" --------------------


def test_multiples_written_in_german_russian_and_french(tmp_path):
    """ "2,5-mal schneller", "в 3,2 раза быстрее", "1,5 fois plus rapide": a multiple (decimal comma)
    whose sides are the pair in its sentence ("50 vs. 20 tok/s": the point of "vs." ends no
    sentence), faster over slower."""
    texts = [
        "Mit Entwurfsmodell läuft die Ausgabe 2,5-mal schneller (50 vs. 20 tok/s).\n",
        "На этой карте вывод идёт в 3,2 раза быстрее, чем на CPU: 64 tok/s против 20 tok/s.\n",
        "Le serveur répond 1,5 fois plus rapide avec le brouillon (45 tok/s contre 30 tok/s).\n",
    ]
    got = [_stmts(_drafted(t, tmp_path)) for t in texts]
    assert got == [
        [("ratio", [50.0, 20.0], 2.5, "x")],
        [("ratio", [64.0, 20.0], 3.2, "x")],
        [("ratio", [45.0, 30.0], 1.5, "x")],
    ]


def test_a_count_of_runs_in_german_is_no_multiple(tmp_path):
    """Control: "3 mal gemessen" (measured three times) has no comparison word after it: no
    relation, the rate stays the only entry."""
    cf = _drafted("Jeder Lauf wurde 3 mal gemessen, im Mittel 50 tok/s.\n", tmp_path)
    assert _rows(cf) == [("decode_tps", 50.0, "tok/s")]
    assert cf.statements == [] and cf.todo == []


# --- a chip named "... Max" before its rate is no bound ---------------------------------------------


def test_a_chip_named_max_before_its_rate_is_a_side_not_a_bound(tmp_path):
    """ "the M3 Max 41 tok/s": "Max" ends the chip's name; the rate is a claim and a side of the
    change after it (27 -> 41: +51.9%), not an "at most 41 tok/s" bound."""
    cf = _drafted(
        "In our runs the M3 Max 41 tok/s and the M3 Pro 27 tok/s; so the bigger chip is 52% faster.\n",
        tmp_path,
    )
    assert _rows(cf) == [("decode_tps", 41.0, "tok/s"), ("decode_tps", 27.0, "tok/s")]
    assert _stmts(cf) == [("percent_change", [27.0, 41.0], 52.0, "%")]


def test_max_as_a_word_before_a_rate_stays_a_bound(tmp_path):
    """Control: "at max 38 tok/s" (no chip's name before it) is a bound below 38 tok/s."""
    cf = _drafted("The hosted plan caps each user at max 38 tok/s.\n", tmp_path)
    assert [(s.kind, s.relation, s.value, s.unit) for s in cf.statements] == [
        ("bound", "below", 38.0, "tok/s")
    ]


# --- verbs of change: "adds", "saves", "costs"; "down from" names the origin ---------------------


def test_verbs_that_make_a_percentage_a_change(tmp_path):
    """ "the sliding window adds 27.6%" (sides in the sentence before: 980 -> 1,250, +27.6%), "the
    cache saves 30% of the wall time" (20.0 -> 14.0 s: a change, not a share of 30%), "costs 12%
    ... (44 tok/s down from 50 tok/s)": from 50, the number "from" names, to 44."""
    texts = [
        "Prefill: 1,250 tok/s with the sliding window, 980 tok/s without. The sliding window adds 27.6%.\n",
        "Enabling the prompt cache saves 30% of the wall time: 14.0 s instead of 20.0 s.\n",
        "Offloading the experts costs 12% in decode speed (44 tok/s down from 50 tok/s).\n",
    ]
    got = [_stmts(_drafted(t, tmp_path)) for t in texts]
    assert got == [
        [("percent_change", [980.0, 1250.0], 27.6, "%")],
        [("percent_change", [20.0, 14.0], -30.0, "%")],
        [("percent_change", [50.0, 44.0], -12.0, "%")],
    ]


def test_takes_up_a_share_stays_a_share(tmp_path):
    """Control: "takes up 30% of the 24 GB card" is a share of the card, no change."""
    cf = _drafted("The draft model takes up 30% of the 24 GB card, about 7.2 GB.\n", tmp_path)
    assert _rows(cf) == [("model_size", 7.2, "GB"), ("share", 30.0, "%")]
    assert cf.statements == []


# --- a range over several stated pairs is a todo listing them, a drop's as a gain's -----------------


def _todos(cf: schema.ClaimsFile) -> list[tuple]:
    val = {c.id: c.value for c in cf.claims}
    return [(s.kind, s.range, [val.get(x) for x in s.of]) for s in cf.todo]


def test_a_range_of_drops_over_the_pairs_it_lists_is_a_todo(tmp_path):
    """ "12–20% slower than CUDA on each card (card A 88 vs 104 tok/s; card B 61 vs 75 tok/s)": no one
    pair is named, so a todo over the four rates, the range signed as a drop."""
    cf = _drafted(
        "Vulkan ran 12–20% slower than CUDA on each card (card A 88 vs 104 tok/s; card B 61 vs 75 tok/s).\n",
        tmp_path,
    )
    assert cf.statements == []
    assert _todos(cf) == [("percent_change", (-20.0, -12.0), [88.0, 104.0, 61.0, 75.0])]
    assert not [c for c in cf.claims if c.unit == "%"]


def test_a_range_of_drops_with_no_pair_stays_a_claim(tmp_path):
    """Control: "12–20% slower" with no rate after it in its sentence is a claim of the change."""
    cf = _drafted("On every card we tried, Vulkan ran 12–20% slower than CUDA.\n", tmp_path)
    assert cf.todo == [] and cf.statements == []
    assert [(c.metric, c.range) for c in cf.claims] == [("speed_change", (-20.0, -12.0))]


# --- an expectation is no measured relation -------------------------------------------------------


def test_an_expected_speedup_is_neither_a_statement_nor_a_claim(tmp_path):
    """ "we anticipate roughly a 2x speedup", "should give ~30% more": what the author expects, not
    what was measured: only the measured rate is drafted."""
    cf = _drafted(
        "With the new scheduler we anticipate roughly a 2x speedup. The patch should give ~30% more "
        "on long prompts. Today the model decodes at 35 tok/s.\n",
        tmp_path,
    )
    assert _rows(cf) == [("decode_tps", 35.0, "tok/s")]
    assert cf.statements == [] and cf.todo == []


def test_as_expected_before_a_measured_multiple_keeps_it(tmp_path):
    """Control: "As expected, ... 2x faster: 24 tok/s before, 48 tok/s after" is measured."""
    cf = _drafted(
        "As expected, the fused kernel made decoding 2x faster: 24 tok/s before, 48 tok/s after.\n", tmp_path
    )
    assert _stmts(cf) == [("ratio", [48.0, 24.0], 2.0, "x")]


# --- a verb of change, what it changes, then "by N%" -------------------------------------------------


def test_a_verb_then_what_it_changes_then_by_a_percentage(tmp_path):
    """ "raised prompt throughput by 22%": a change (150 -> 183 prompt tok/s: +22%), the words
    between the verb and "by" naming what changed; not a share of 22%."""
    text = (
        "| Threads | Prompt (tok/s) | Gen (tok/s) |\n|---|---|---|\n| 4 | 150 | 9.0 |\n| 8 | 183 | 9.4 |\n\n"
        "Moving from 4 to 8 threads raised prompt throughput by 22%.\n"
    )
    cf = _drafted(text, tmp_path)
    assert _stmts(cf) == [("percent_change", [150.0, 183.0], 22.0, "%")]
    assert not [c for c in cf.claims if c.unit == "%"]


def test_by_a_percentage_with_no_verb_of_change_stays_a_share(tmp_path):
    """Control: "a hit rate of 35% by the end of the run" has no verb of change: a share claim."""
    cf = _drafted(
        "The prompt cache reached a hit rate of 35% by the end of the run, at 52 tok/s.\n", tmp_path
    )
    # (a claim of a proportion, no change; since session 57 named as what it is, a cache's hit rate)
    assert _rows(cf) == [("cache_hit_rate", 35.0, "%"), ("decode_tps", 52.0, "tok/s")]
    assert cf.statements == []


# --- coarse digits fit among the pairs the phrase's words name ---------------------------------------

_BY_SIZE = (
    "| Model | Plain (tok/s) | Speculative (tok/s) |\n|---|---|---|\n"
    "| 3B | 120.4 | 198.0 |\n| 32B | 22.6 | 39.5 |\n\n"
)


def test_one_decimal_multiples_fit_the_pair_of_the_row_they_name(tmp_path):
    """ "for the 32B model speculation is 1.7x faster, for the 3B only 1.6x": 1.7 (1.65–1.8) and 1.6
    are too coarse to pick a pair among all rates, but among those of the row each names one pair
    fits (39.5 / 22.6 = 1.75; 198.0 / 120.4 = 1.64)."""
    text = _BY_SIZE + "For the 32B model speculation is 1.7x faster, for the 3B only 1.6x.\n"
    cf = _drafted(text, tmp_path)
    assert _stmts(cf) == [("ratio", [39.5, 22.6], 1.7, "x"), ("ratio", [198.0, 120.4], 1.6, "x")]


def test_one_decimal_multiple_naming_no_row_stays_a_claim(tmp_path):
    """Control: "Speculation is 1.7x faster." names no row: the coarse digits pick no pair (a
    claim of the multiple stays)."""
    cf = _drafted(_BY_SIZE + "Speculation is 1.7x faster.\n", tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value) for c in cf.claims if c.source_line == 6] == [("speedup", 1.7)]


# --- the only pair in scope, far from the stated value, is another comparison ------------------------

_READER = "A reader measured 45 tok/s before and {} tok/s after moving the draft layers to the GPU.\n\n"
_OURS = "On our workstation card, speculative decoding gives ~60% higher throughput overall.\n"


def test_the_only_pair_far_from_the_stated_change_is_not_its_sides(tmp_path):
    """ "~60% higher" after a paragraph quoting 45 -> 104 tok/s (+131%): not the pair it relates,
    so a claim of the change: of throughput, the quantity its clause names (SOURCES.md: "~60% higher
    throughput"; "speculative decoding" is a method, no decode phase)."""
    cf = _drafted(_READER.format(104) + _OURS, tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value, c.about) for c in cf.claims if c.unit == "%"] == [
        ("throughput_change", 60.0, True)
    ]


def test_the_only_pair_near_the_stated_change_stays_its_sides(tmp_path):
    """Control: 45 -> 70 tok/s (+55.6%) is near "~60%": the statement cites the pair."""
    cf = _drafted(_READER.format(70) + _OURS, tmp_path)
    assert _stmts(cf) == [("percent_change", [45.0, 70.0], 60.0, "%")]


# --- a sentence's pair far from a second phrase's value belongs to the first phrase -----------------


def test_a_second_multiple_does_not_take_the_pair_of_the_first(tmp_path):
    """ "much faster (4x) prompt reading: 400 t/s vs 100 t/s, and token generation is ~1.5x faster":
    the pair gives 4.0, the first multiple's; "~1.5x" is none of its statements (a claim of the
    multiple), while the first keeps the pair (control)."""
    cf = _drafted(
        "On my box the new build gives much faster (4x) prompt reading: 400 t/s vs 100 t/s, and token "
        "generation is ~1.5x faster too.\n",
        tmp_path,
    )
    assert _stmts(cf) == [("ratio", [400.0, 100.0], 4.0, "x")]
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "x"] == [("speedup", 1.5)]


# --- a word multiple of a setting is no relation of the results --------------------------------------


def test_twice_the_load_is_a_setting_not_a_relation_of_the_rates(tmp_path):
    """ "a 60% gain for twice the load": the load doubled (a setting), the rates rose 60%; only the
    change is a statement."""
    cf = _drafted(
        "With 16 clients the server delivered 1,840 tok/s, against 1,150 tok/s with 8 clients: a 60% gain "
        "for twice the load.\n",
        tmp_path,
    )
    assert _stmts(cf) == [("percent_change", [1150.0, 1840.0], 60.0, "%")]


def test_twice_the_speed_stays_a_relation(tmp_path):
    """Control: "twice the speed" multiplies a result: a ratio of the pair."""
    cf = _drafted(
        "The fused kernel runs at twice the speed of the old one: 96 tok/s against 48 tok/s.\n", tmp_path
    )
    assert _stmts(cf) == [("ratio", [96.0, 48.0], 2.0, "x")]


# --- a headline's relation takes the sides the body's statement of it finds --------------------------


def test_a_heading_relation_cites_the_sides_the_body_states_later(tmp_path):
    """ "## Decoding 2.5x faster with a draft model" then the body "from 16 tok/s to 40 tok/s, i.e.
    2.5x faster": the heading states the same ratio first, so it is a statement of the body's pair
    (not a claim of a multiple with no sides)."""
    text = (
        "## Decoding 2.5x faster with a draft model\n\n"
        "With a small draft the 32B model went from 16 tok/s to 40 tok/s, i.e. 2.5x faster.\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(s.source_line, *t) for s, t in zip(cf.statements, _stmts(cf), strict=True)] == [
        (1, "ratio", [40.0, 16.0], 2.5, "x"),
        (3, "ratio", [40.0, 16.0], 2.5, "x"),
    ]
    assert not [c for c in cf.claims if c.unit == "x"]


def test_a_heading_relation_no_later_statement_repeats_stays_a_claim(tmp_path):
    """Control: a body that relates nothing (one rate): the heading stays a claim of its multiple."""
    text = (
        "## Decoding 2.5x faster with a draft model\n\nWith a small draft the 32B model reached 40 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    assert cf.statements == []
    assert [(c.metric, c.value, c.source_line) for c in cf.claims] == [
        ("speedup", 2.5, 1),
        ("decode_tps", 40.0, 3),
    ]


# --- a table's multiples over an unlabelled rate stated before the table -----------------------------

_UPGRADES = (
    "My current laptop manages only 9.5 tok/s on this model.\n\n"
    "| Upgrade | Expected speed | Improvement | Price |\n|---|---|---|---|\n"
    "| Desktop card A | 61 tok/s | {a} | $900 |\n| Desktop card B | 44 tok/s | 4.6x | $600 |\n"
)


def test_a_multiples_column_over_the_rate_stated_before_the_table(tmp_path):
    """ "only 9.5 tok/s" names no baseline, but every row's multiple is its rate over it (61 / 9.5 =
    6.4, 44 / 9.5 = 4.6): a ratio statement per row, the row's rate over that rate."""
    cf = _drafted(_UPGRADES.format(a="6.4x"), tmp_path)
    assert _stmts(cf) == [("ratio", [61.0, 9.5], 6.4, "x"), ("ratio", [44.0, 9.5], 4.6, "x")]


def test_a_multiples_column_the_rate_before_does_not_give_stays_claims(tmp_path):
    """Control: with 61 tok/s at "3.0x" (61 / 9.5 = 6.4) the rate before is no baseline of the
    column: no statements, the multiples stay claims."""
    cf = _drafted(_UPGRADES.format(a="3.0x"), tmp_path)
    assert cf.statements == []
    assert sorted(c.value for c in cf.claims if c.unit == "x") == [3.0, 4.6]


def test_an_improvement_factor_column_headed_in_japanese(tmp_path):
    """The same with the column headed "改善倍率" (improvement factor) and cells "6.4倍"."""
    text = (
        "今のノートPCではこのモデルが 9.5 tok/s しか出ません。\n\n"
        "| 構成 | 期待速度 | 改善倍率 |\n|---|---|---|\n"
        "| デスクトップA | 61 tok/s | 6.4倍 |\n| デスクトップB | 44 tok/s | 4.6倍 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert _stmts(cf) == [("ratio", [61.0, 9.5], 6.4, "x"), ("ratio", [44.0, 9.5], 4.6, "x")]


# --- a stated difference of the two numbers before it --------------------------------------------------


def test_a_difference_stated_after_its_two_sides(tmp_path):
    """ "... 20,366 MiB without, a difference of 1,134 MiB", "(Δ 58 ms)": a difference statement of
    the two numbers before it, the larger less the smaller; the difference is no claim of its own."""
    texts = [
        "Peak memory was 21,500 MiB with the draft and 20,366 MiB without, a difference of 1,134 MiB.\n",
        "TTFT: 182 ms with the cache vs 240 ms without (Δ 58 ms).\n",
    ]
    got = [_drafted(t, tmp_path) for t in texts]
    assert [_stmts(cf) for cf in got] == [
        [("difference", [21500.0, 20366.0], 1134.0, "MiB")],
        [("difference", [240.0, 182.0], 58.0, "ms")],
    ]
    assert [[c.value for c in cf.claims] for cf in got] == [[21500.0, 20366.0], [182.0, 240.0]]


def test_a_difference_the_two_numbers_do_not_make_is_no_statement(tmp_path):
    """Control: "(Δ 40 ms)" after 182 ms and 240 ms (58 apart) is not their difference: no statement."""
    cf = _drafted("TTFT: 182 ms with the cache vs 240 ms without (Δ 40 ms).\n", tmp_path)
    assert cf.statements == []


# --- "worth N%", "N% on top of the baseline": changes -------------------------------------------------


def test_worth_and_on_top_of_make_percentages_changes(tmp_path):
    """ "the bigger batch alone is worth 10%, and the draft 70% on top of the baseline": two changes
    from the baseline row (52.0 -> 57.2: +10%; 52.0 -> 88.4: +70%), not shares."""
    text = (
        "| Config | Decode tok/s |\n|---|---|\n| baseline | 52.0 |\n| + bigger batch | 57.2 |\n"
        "| + draft | 88.4 |\n\n"
        "The bigger batch alone is worth 10%, and the draft 70% on top of the baseline.\n"
    )
    cf = _drafted(text, tmp_path)
    assert _stmts(cf) == [
        ("percent_change", [52.0, 57.2], 10.0, "%"),
        ("percent_change", [52.0, 88.4], 70.0, "%"),
    ]
    assert not [c for c in cf.claims if c.unit == "%"]


def test_a_percentage_on_top_of_nothing_compared_stays_a_share(tmp_path):
    """Control: "70% of the baseline's memory" is a share (no comparison word after it)."""
    cf = _drafted("The draft adds a cache that takes 70% of the baseline's memory budget.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("share", 70.0)]


def test_a_model_spelled_shorter_in_one_table_is_the_same_name():
    """A repeat's conditions compare names by their words: "35B" in one table and "Qwen3.6 35B" in
    another may name one model; two quants never do (control)."""
    from benchbook.audit.draftbyvalue import same_name as _same_name

    assert [
        _same_name("35B", "Qwen3.6 35B"),
        _same_name("Qwen3.6 35B", "35B"),
        _same_name("Q4_K_M", "Q8_0"),
        _same_name(2, 2),
        _same_name(2, "2"),
    ] == [True, True, False, True, False]


def test_a_summary_before_the_body_with_precise_digits_takes_the_body_sides(tmp_path):
    """ "TL;DR: the new allocator delivers 2.35x the throughput." before the body's "... 141 tok/s
    against 60 tok/s (2.35x)": the summary states the body's relation first: a statement of its
    pair; a coarse "2x" summary (control, the second post) stays a claim."""
    body = "\n\nMeasured on one card, the new allocator reached 141 tok/s against 60 tok/s ({v}x).\n"
    cf = _drafted("TL;DR: the new allocator delivers 2.35x the throughput." + body.format(v="2.35"), tmp_path)
    assert [(s.source_line, *t) for s, t in zip(cf.statements, _stmts(cf), strict=True)] == [
        (1, "ratio", [141.0, 60.0], 2.35, "x"),
        (3, "ratio", [141.0, 60.0], 2.35, "x"),
    ]
    cf = _drafted("TL;DR: the new allocator delivers 2x the throughput." + body.format(v="2"), tmp_path)
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "x"] == [("speedup", 2.0)]


# --- a multiple written as a bound whose words name no side: a todo bound over its section's rates --

_LANES = (
    "| Workload | Lane A (tok/s) | Lane B (tok/s) |\n"
    "|----------|----------------|----------------|\n"
    "| Parsing  | 20.0           | 47.0           |\n"
    "| Poetry   | 21.0           | 25.0           |\n\n"
)


def test_a_multiple_bound_naming_no_side_is_a_todo_bound(tmp_path):
    """ "on parsing alone it's over 2x" after a table of the rates it sums up: no words name the
    sides, but it is a bound over them (a todo listing the section's rates), never a claim of 2x."""
    cf = _drafted(_LANES + "With lane B, parsing alone gets over 2x.\n", tmp_path)
    assert [r for r in _rows(cf) if r[0] == "speedup"] == []
    assert cf.statements == []
    assert [(s.kind, s.value, s.unit) for s in cf.todo] == [("bound", 2.0, "x")]
    values = {c.id: c.value for c in cf.claims}
    assert sorted(values[c] for c in cf.todo[0].of) == [20.0, 47.0]  # the row its words name


def test_a_multiple_bound_naming_nothing_lists_its_sections_rates(tmp_path):
    """ "At best it's over 2x" names no row nor column: the todo lists the section's rates."""
    cf = _drafted(_LANES + "At best it's over 2x.\n", tmp_path)
    assert [r for r in _rows(cf) if r[0] == "speedup"] == []
    assert [(s.kind, s.value, s.unit) for s in cf.todo] == [("bound", 2.0, "x")]
    values = {c.id: c.value for c in cf.claims}
    assert sorted(values[c] for c in cf.todo[0].of) == [20.0, 21.0, 25.0, 47.0]


def test_a_multiple_bound_with_no_rates_is_a_bound_todo(tmp_path):
    """Control: "up to 15x faster" in a post stating no rate is still a bound: a todo of kind bound
    citing nothing (since session 58; it was a claim of 15x, the value docs/claims.md says a bound
    never claims), while "nearly 2x faster" stays a claim of the multiple."""
    cf = _drafted("The new kernel is up to 15x faster on long prompts.\n", tmp_path)
    assert _rows(cf) == [] and cf.statements == []
    assert [(t.kind, t.value, t.unit, t.of) for t in cf.todo] == [("bound", 15.0, "x", [])]
    cf = _drafted("The new kernel is nearly 2x faster on long prompts.\n", tmp_path)
    assert _rows(cf) == [("speedup", 2.0, "x")] and cf.todo == []


# --- a multiple stated as the mean of the multiples a table states ---------------------------------

_GAINS = (
    "| Job   | Old (tok/s) | New (tok/s) | Gain  |\n"
    "|-------|-------------|-------------|-------|\n"
    "| Sort  | 10.0        | 25.0        | 2.50x |\n"
    "| Merge | 10.0        | 15.0        | 1.50x |\n"
    "| Scan  | 10.0        | 12.0        | 1.20x |\n\n"
)


def test_a_mean_multiple_cites_the_multiples_it_averages(tmp_path):
    """ "Across the three jobs that averages a 1.7x gain": 2.50, 1.50, 1.20 average 1.73, which
    rounds to 1.7: a mean statement of the table's three ratio statements, no speedup claim."""
    cf = _drafted(_GAINS + "Across the three jobs that averages a 1.7x gain.\n", tmp_path)
    assert [r for r in _rows(cf) if r[0] == "speedup"] == []
    means = [s for s in cf.statements if s.kind == "mean"]
    assert [(s.value, s.unit, len(s.of)) for s in means] == [(1.7, "x", 3)]
    ratios = {s.id: s.value for s in cf.statements if s.kind == "ratio"}
    assert [ratios[c] for c in means[0].of] == [2.5, 1.5, 1.2]


def test_a_multiple_no_mean_of_them_gives_stays_a_claim(tmp_path):
    """Control: "on average a 3.1x gain" is the mean of no run of the table's multiples: a claim."""
    cf = _drafted(_GAINS + "Elsewhere we saw on average a 3.1x gain.\n", tmp_path)
    assert [r for r in _rows(cf) if r[0] == "speedup"] == [("speedup", 3.1, "x")]
    assert [s for s in cf.statements if s.kind == "mean"] == []

"""Relating phrases -> statements citing the claims they relate (issue 29: "2.1× faster", "40% more",
"drops 11%", "doubles", "X → Y (+N%)", "a 89.76 tok/s average", in several languages).  Each kind
has its drafted statement exactly (kind, value, unit, ``of``) and a control that must not fire."""

from __future__ import annotations

import pytest

from benchbook.audit import schema
from benchbook.audit.draftprose import numbers
from benchbook.audit.draftrelations import relations, repetitions, word_multiples
from drafting import drafted as _drafted


def _statements(cf: schema.ClaimsFile) -> list[tuple]:
    return [(s.kind, s.value, s.range, s.unit, s.of) for s in cf.statements]


def _claims(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.id, c.metric, c.value, c.unit) for c in cf.claims]


def test_a_multiple_whose_baseline_is_an_earlier_paragraph(tmp_path):
    """ "it reached 84 t/s, 2.1× faster": the subject is the clause's rate, the other side the
    earlier claim of its metric below it; a ratio of the subject over it, said in a note."""
    cf = _drafted("Plain decoding: 40 t/s.\n\nWith a draft model it reached 84 t/s, 2.1× faster.\n", tmp_path)
    assert _statements(cf) == [("ratio", 2.1, None, "x", ["decode-tps-l3", "decode-tps-l1"])]
    assert cf.statements[0].note == "the other side: the only pair before it in the post"


def test_a_verb_of_change_before_a_percentage(tmp_path):
    """ "throughput drops 11% to 40 t/s": a percent change from the earlier, higher rate to the
    subject (a drop comes from above it), -11."""
    cf = _drafted(
        "Plain decoding: 45 t/s.\n\nWith the draft model throughput drops 11% to 40 t/s.\n", tmp_path
    )
    assert _statements(cf) == [("percent_change", -11.0, None, "%", ["decode-tps-l1", "decode-tps-l3"])]


def test_a_percentage_named_as_a_regression_after_its_subject(tmp_path):
    """ "decodes at 23 t/s, a 23% regression": the clause "a 23% regression" opens after the rate
    it is about."""
    cf = _drafted(
        "Build b4000 decodes at 30 t/s.\n\nBuild b4365 decodes at 23 t/s, a 23% regression.\n", tmp_path
    )
    assert _statements(cf) == [("percent_change", -23.0, None, "%", ["decode-tps-l1", "decode-tps-l3"])]


def test_the_words_before_a_phrase_name_its_subject(tmp_path):
    """ "MTP gives 40% more throughput": "MTP" names the 70 tok/s claim; the other side is the
    earlier rate below it."""
    cf = _drafted("Baseline 50 tok/s. With MTP 70 tok/s.\n\nMTP gives 40% more throughput.\n", tmp_path)
    assert _statements(cf) == [("percent_change", 40.0, None, "%", ["decode-tps-l1", "decode-tps-l1-2"])]


def test_multiples_written_as_words(tmp_path):
    """ "doubles that at 80 tok/s" (2), "half the speed at 20 tok/s" (0.5): ratios of the subject
    over the earlier rate."""
    cf = _drafted(
        "The old build gave 40 tok/s.\n\nThe new build doubles that at 80 tok/s.\n\n"
        "The draft model gives half the speed at 20 tok/s.\n",
        tmp_path,
    )
    assert _statements(cf) == [
        ("ratio", 2.0, None, "x", ["decode-tps-l3", "decode-tps-l1"]),
        ("ratio", 0.5, None, "x", ["decode-tps-l5", "decode-tps-l1"]),
    ]


def test_word_multiples_read_and_their_controls():
    """ "nearly triples" is 3 and about, "翻了一倍" 2, "twice as fast" 2; "double-check", "half of
    the layers" and "twice" alone are none."""
    got = [
        (n.text, n.about) for n in word_multiples("Median TTFT nearly triples; 速度翻了一倍; twice as fast")
    ]
    assert got == [("3", True), ("2", False), ("2", False)]
    assert word_multiples("Double-check it: half of the layers ran twice.") == []


def test_a_list_introduced_by_the_condition_values_it_compares(tmp_path):
    """ "From 16 → 32 concurrency:" above a list: each item relates the two rows of the column its
    words name ("Request throughput": Req/s, "Median TTFT"), from 16 to 32 (corpus p21's kind)."""
    cf = _drafted(
        "| Concurrency | Req/s | Median TTFT (ms) |\n|---|---|---|\n"
        "| 16 | 6.44 | 97 |\n| 32 | 9.73 | 277 |\n\nFrom 16 → 32 concurrency:\n\n"
        "- Request throughput increases roughly 50%\n- Median TTFT nearly triples\n",
        tmp_path,
    )
    assert _statements(cf) == [
        ("percent_change", 50.0, None, "%", ["t1-req-s-r1", "t1-req-s-r2"]),
        ("ratio", 3.0, None, "x", ["t1-median-ttft-r2", "t1-median-ttft-r1"]),
    ]
    assert [s.about for s in cf.statements] == [True, True]


def test_a_subject_over_clauses_of_other_multiples(tmp_path):
    """ "hits 2085 t/s PP — nearly 4× Ollama and 3.8× mlx_lm": both multiples are of the 2085 claim,
    each over the row its words name, in the PP column."""
    cf = _drafted(
        "| Engine | PP (t/s) | TG (t/s) |\n|---|---|---|\n| llama.cpp | 2085 | 103 |\n"
        "| mlx_lm | 553 | 192 |\n| Ollama | 611 | 51 |\n\n"
        "llama.cpp hits 2085 t/s PP — nearly 4× Ollama and 3.8× mlx_lm.\n",
        tmp_path,
    )
    assert _statements(cf) == [
        ("ratio", 4.0, None, "x", ["t1-pp-r1", "t1-pp-r3"]),
        ("ratio", 3.8, None, "x", ["t1-pp-r1", "t1-pp-r2"]),
    ]


def test_a_difference_after_a_labelled_pair(tmp_path):
    """ "20,366 MiB baseline / 21,500 MiB with spec (+1,134 MiB)": the second less the first."""
    cf = _drafted("VRAM 20,366 MiB baseline / 21,500 MiB with spec (+1,134 MiB).\n", tmp_path)
    assert _statements(cf) == [("difference", 1134.0, None, "MiB", ["vram-l1-2", "vram-l1"])]
    assert [c.value for c in cf.claims] == [20366.0, 21500.0]


def test_a_rounded_restatement_cites_the_same_sides(tmp_path):
    """ "+65%" after "31.9 → 52.8 tok/s (+65.5%)": the same change rounded, the same sides."""
    cf = _drafted(
        "Repeated median result: 31.9 → 52.8 tok/s (+65.5%).\n\nStill pulling +65% at 250W.\n", tmp_path
    )
    assert _statements(cf) == [
        ("percent_change", 65.5, None, "%", ["decode-tps-l1", "decode-tps-l1-2"]),
        ("percent_change", 65.0, None, "%", ["decode-tps-l1", "decode-tps-l1-2"]),
    ]
    assert cf.statements[1].note == "restates s-l1 (65.5) as rounded"


def test_a_second_arrow_pair_takes_the_first_pairs_unit(tmp_path):
    """ "(43.06 → 33.8 t/s, −21%, code; 44.15 → 39.3, −11%, thinking)": both pairs are rates."""
    cf = _drafted(
        "A loss through the server (43.06 → 33.8 t/s, −21%, code; 44.15 → 39.3, −11%, thinking).\n", tmp_path
    )
    assert _statements(cf) == [
        ("percent_change", -21.0, None, "%", ["decode-tps-l1", "decode-tps-l1-2"]),
        ("percent_change", -11.0, None, "%", ["decode-tps-l1-3", "decode-tps-l1-4"]),
    ]


def test_a_share_of_a_number_stated_after_of(tmp_path):
    """ "197,435 tok (91% of 215,000)": 215,000 is in the tokens of the number it is a share of."""
    cf = _drafted("Ceiling recalled to 197,435 tok (91% of 215,000).\n", tmp_path)
    assert _statements(cf) == [("ratio", 91.0, None, "%", ["tokens-l1", "tokens-l1-2"])]


def test_an_average_of_the_numbers_before_it_is_a_mean_statement(tmp_path):
    """ "This gives a 85.63 tok/s average" after three rates whose mean is 85.633: a mean statement
    citing them, no claim of it."""
    cf = _drafted(
        "Per prompt: 79.8 tok/s, 89.1 tok/s and 88.0 tok/s.\n\nThis gives a 85.63 tok/s average.\n", tmp_path
    )
    assert _statements(cf) == [
        ("mean", 85.63, None, "tok/s", ["decode-tps-l1", "decode-tps-l1-2", "decode-tps-l1-3"])
    ]
    assert len(cf.claims) == 3


def test_an_average_that_is_not_the_mean_of_the_numbers_before_stays_a_claim(tmp_path):
    """Control: "The average was 70.0 tok/s on another day" (the three give 85.63): a claim."""
    cf = _drafted(
        "Per prompt: 79.8 tok/s, 89.1 tok/s and 88.0 tok/s.\n\nThe average was 70.0 tok/s on another day.\n",
        tmp_path,
    )
    assert cf.statements == []
    assert _claims(cf)[-1] == ("decode-tps-l3", "decode_tps", 70.0, "tok/s")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("基线速度为 40 tok/s，使用投机解码后为 80 tok/s，速度提升了100%。", ("percent_change", 100.0, "%")),
        ("ベースラインは 40 tok/s、MTP では 60 tok/s で、50%速くなった。", ("percent_change", 50.0, "%")),
        ("기본 40 tok/s, MTP 80 tok/s 로 2배 빠른 속도.", ("ratio", 2.0, "x")),
        ("Ohne Draft 40 tok/s, mit Draft 52 tok/s, also 30% schneller.", ("percent_change", 30.0, "%")),
    ],
)
def test_relations_in_other_languages(tmp_path, text, want):
    """Chinese "提升了100%", Japanese "50%速く", Korean "2배 빠른", German "30% schneller": the two
    rates of the sentence, from the smaller to the larger (a ratio of the larger over it)."""
    cf = _drafted(text + "\n", tmp_path)
    kind, value, unit = want
    sides = ["decode-tps-l1-2", "decode-tps-l1"] if kind == "ratio" else ["decode-tps-l1", "decode-tps-l1-2"]
    assert _statements(cf) == [(kind, value, None, unit, sides)]


def test_a_change_with_no_side_stated_is_a_claim_of_the_change(tmp_path):
    """ "the dense model gets 42% slower" (one rate in the post, none named as the other side), "3.6–4.5%
    lower" (a range): claims of the change, signed, never shares."""
    cf = _drafted(
        "The dense model runs at 31 t/s; with MTP the dense model gets 42% slower.\n\n"
        "Canonical decode throughput is 3.6–4.5% lower.\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.range, c.unit) for c in cf.claims] == [
        ("decode_tps", 31.0, None, "t/s"),
        ("speed_change", -42.0, None, "%"),
        ("decode_change", None, (-4.5, -3.6), "%"),
    ]
    assert cf.statements == [] and cf.todo == []


def test_percentages_that_are_shares_and_repetitions_are_no_relations(tmp_path):
    """Controls: "acceptance 72%" is an acceptance rate, "ran it 3 times" counts runs (listed, no
    speedup claim), "3 times faster" does compare."""
    cf = _drafted(
        "Acceptance was 72% and decode ran at 40 tok/s.\n\nI ran it 3 times and got 41 tok/s.\n", tmp_path
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("acceptance_rate", 72.0, "%"),
        ("decode_tps", 40.0, "tok/s"),
        ("decode_tps", 41.0, "tok/s"),
    ]
    assert cf.statements == [] and cf.todo == []
    assert cf.draft is not None and [u.number for u in cf.draft.unplaced] == ["3"]
    text = "ran it 3 times, then 3 times faster"
    found = numbers(text)
    assert [repetitions(text, n) for n in found] == [True, False]
    assert [r.number.text for r in relations(text, found)] == ["3"]


def test_a_phrase_about_speed_relates_rates_only(tmp_path):
    """ "roughly 2× slower on workloads above 1000 tokens": the token count is no side (a claim of the
    slowdown, nothing to relate); "MTP is 23% slower for the MoE on 16GB" after two rates whose
    change is -23.7%: the rates, not the card's 16 GB (corpus p06, p04's kinds)."""
    cf = _drafted("Early tests showed it roughly 2× slower on workloads above 1000 tokens.\n", tmp_path)
    assert [(c.metric, c.value, c.about, c.unit) for c in cf.claims] == [
        ("tokens", 1000.0, False, "tokens"),
        ("slowdown", 2.0, True, "x"),
    ]
    assert cf.statements == [] and cf.todo == []
    cf = _drafted(
        "No MTP: 97 tok/s. MTP enabled: 74 tok/s.\n\nMTP is 23% slower for the MoE on 16GB.\n", tmp_path
    )
    assert _statements(cf) == [("percent_change", -23.0, None, "%", ["decode-tps-l1", "decode-tps-l1-2"])]


def test_a_share_of_what_the_post_states_no_number_of_is_a_share_claim(tmp_path):
    """Controls: "busy 95% of the time" (no claim of the time) is a share claim, "acceptance was 72% of
    drafted tokens" an acceptance rate: neither a speedup claim nor a statement; "3-fold faster" is
    a multiple (3) of the rate it reached over the earlier one."""
    cf = _drafted(
        "The GPU was busy 95% of the time at 40 tok/s.\n\nAcceptance was 72% of drafted tokens.\n\n"
        "It is 3-fold faster at 120 tok/s.\n",
        tmp_path,
    )
    assert _claims(cf) == [
        ("decode-tps-l1", "decode_tps", 40.0, "tok/s"),
        ("share-l1", "share", 95.0, "%"),
        ("acceptance-rate-l3", "acceptance_rate", 72.0, "%"),
        ("decode-tps-l5", "decode_tps", 120.0, "tok/s"),
    ]
    assert _statements(cf) == [("ratio", 3.0, None, "x", ["decode-tps-l5", "decode-tps-l1"])]
    assert cf.todo == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # 程度 (about) between the percentage and the word of change: about, signed, never a share
        ("- FastAttentionは10%程度高速化。\n", [("speed-change-l1", "speed_change", 10.0, None, True)]),
        ("- 実行速度も15%程度遅くなった\n", [("speed-change-l1", "speed_change", -15.0, None, True)]),
        ("- 補助モデルは7%高速化。\n", [("speed-change-l1", "speed_change", 7.0, None, False)]),
        # 略优 (slightly better) / 领先 (leads by) before a range, no rates stated: a claim of the change
        ("MLX 略优 4–5%。\n", [("speed-change-l1", "speed_change", None, (4.0, 5.0), False)]),
        ("llama.cpp 领先 6–11%。\n", [("speed-change-l1", "speed_change", None, (6.0, 11.0), False)]),
        # "within ~3-6% of": how far apart two numbers are, no share
        ("Estimate landed within ~3-6% of measurement.\n", [("change-l1", "change", None, (3.0, 6.0), True)]),
        (
            "Decode is 3.6–4.5% lower than before.\n",
            [("decode-change-l1", "decode_change", None, (-4.5, -3.6), False)],
        ),
    ],
)
def test_percentages_that_relate_are_changes_not_shares(tmp_path, text, want):
    """Issue 29 item 2: "10%程度高速化", "15%程度遅くなった" (程度 = about), "N%高速化", "略优 4–5%"
    (slightly better), "领先 6–11%" (leads by), "3.6–4.5% lower": with no rate on either side, a
    claim of the change (SOURCES.md), never a ``share``."""
    cf = _drafted(text, tmp_path)
    assert [(c.id, c.metric, c.value, c.range, c.about) for c in cf.claims] == want
    assert cf.statements == []


def test_a_lead_between_two_stated_rates_is_a_percent_change(tmp_path):
    """ "llama.cpp 120 tok/s，vLLM 110 tok/s，llama.cpp 领先 6–11%" (leads by): a percent change
    statement of the two rates (from the lower to the higher: +9.1%, within the stated range).
    Control: a percentage with no word of change stays a share ("占 40%")."""
    cf = _drafted("llama.cpp 的解码速度为 120 tok/s，vLLM 为 110 tok/s，llama.cpp 领先 6–11%。\n", tmp_path)
    assert _statements(cf) == [
        ("percent_change", None, (6.0, 11.0), "%", ["decode-tps-l1-2", "decode-tps-l1"])
    ]
    assert all(c.metric != "share" for c in cf.claims)
    control = _drafted("GPU 占用为 40%。\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in control.claims] == [("share", 40, "%")]


def test_a_multiple_written_as_a_quotient_relates_its_two_numbers(tmp_path):
    """ "speed up of 4141 ms / 1640 ms = 2.5x": a ratio of the first over the second as written
    (durations: "speed up" does not limit its sides to rates).  Control: "4141 ms and 1640 ms,
    2.5x" is no quotient written (two claims of one metric named by no word: no statement cites a
    guessed pair)."""
    cf = _drafted("- ISL=8k: speed up of 4141 ms / 1640 ms = 2.5x\n", tmp_path)
    assert _statements(cf) == [("ratio", 2.5, None, "x", ["duration-l1", "duration-l1-2"])]
    assert [c.metric for c in cf.claims] == ["duration", "duration"]
    found = numbers("it took 4141 ms and 1640 ms, 2.5x")
    assert [r.pair for r in relations("it took 4141 ms and 1640 ms, 2.5x", found)] == [None]


def test_a_printed_rate_that_is_the_lines_before_it_count_over_time(tmp_path):
    """A script's printout "decode time: 14.33s / output token: 1000 / decode speed: 69.79
    token/s": the rate is the count over the time (1000 / 14.328832 = 69.789358), a ratio
    statement of the two claims with every digit of the rate.  Control: a rate the lines before
    it do not divide to (947 / 14.33 = 66.1, not 69.79) gets no statement."""
    text = (
        "```\ndecode time:  14.328832149505615s\noutput token:  1000\n"
        "decode speed:  69.78935823702163 token/s\n```\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(s.kind, s.value, s.unit, s.of, s.decimals) for s in cf.statements] == [
        ("ratio", 69.78935823702163, "tok/s", ["tokens-l3", "duration-l2"], None)
    ]
    control = _drafted(text.replace("1000", "947"), tmp_path)
    assert control.statements == []

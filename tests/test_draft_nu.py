"""The drafter on a new user's kinds of post (issue 29): a setting's word over a unit heads a result
column, relation words pick the sides' metric, a difference beside its two values, someone else's
number, a build's engine, the target beside a draft model, runs and tokens stated in words."""

from __future__ import annotations

import pytest

from benchbook.audit import schema
from drafting import conditions
from drafting import drafted as _drafted


def _by_value(cf: schema.ClaimsFile) -> dict[float, schema.Claim]:
    return {c.value: c for c in cf.claims if isinstance(c.value, float | int)}


@pytest.mark.parametrize(
    ("header", "unit", "metric"),
    [
        ("Prompt (t/s)", "t/s", "prefill_tps"),
        ("PP (t/s)", "t/s", "prefill_tps"),
        ("Prompt processing (tok/s)", "tok/s", "prefill_tps"),
        ("Prompt eval (tokens/s)", "tok/s", "prefill_tps"),
        ("Prompt (ms)", "ms", "duration"),
    ],
)
def test_a_setting_word_over_a_rate_unit_heads_a_result_column(tmp_path, header, unit, metric):
    """ "Prompt (t/s)" is a column of prefill rates, not the `prompt` setting: a header with a
    rate's, time's or size's unit is a result column whatever its word."""
    text = (
        f"| Config | {header} | Gen (t/s) |\n|---|---|---|\n"
        "| no draft | 812.4 | 17.2 |\n| with draft | 790.1 | 29.6 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = _by_value(cf)
    assert (got[812.4].metric, got[812.4].unit) == (metric, unit)
    assert (got[29.6].metric, got[29.6].unit) == ("decode_tps", "t/s")
    assert "prompt" not in conditions(cf, got[29.6])


def test_a_setting_word_over_a_count_stays_the_setting(tmp_path):
    """Control: "Context (tokens)" over 4096 and 16384 is the ctx setting of each row's rate."""
    text = "| Context (tokens) | Gen (t/s) |\n|---|---|\n| 4096 | 31.5 |\n| 16384 | 24.8 |\n"
    cf = _drafted(text, tmp_path)
    got = _by_value(cf)
    assert [(c.value, conditions(cf, c)["ctx"]) for c in cf.claims] == [(31.5, 4096), (24.8, 16384)]
    assert 4096 not in got


_PHASE_TABLE = (
    "| Setup | PP (t/s) | TG (t/s) |\n|---|---|---|\n"
    "| plain | 1500.0 | 40.0 |\n| small draft | 1440.0 | 70.0 |\n| big draft | 1350.0 | 60.0 |\n\n"
)


@pytest.mark.parametrize(
    "sentence",
    [
        "Prompt processing drops ~4% with the small draft loaded.",
        "PP is about 4% lower with the small draft.",
        "Prefill got ~4% slower with the small draft.",
    ],
)
def test_a_relations_phase_words_pick_the_sides_metric(tmp_path, sentence):
    """ "Prompt processing drops ~4%" relates two prefill rates (1500 -> 1440: -4%), never two
    generation rates of the table, whatever the phase's name (PP, prefill, prompt processing)."""
    cf = _drafted(_PHASE_TABLE + sentence + "\n", tmp_path)
    s = next(s for s in cf.statements if s.value == -4)
    assert [next(c.value for c in cf.claims if c.id == i) for i in s.of or []] == [1500.0, 1440.0]


def test_a_speed_with_no_phase_named_relates_generation_rates(tmp_path):
    """Control: "about 50% more speed" names no phase: the generation rates (40 -> 60), not the
    prefill ones; "token generation is 75% faster" the same column."""
    text = (
        _PHASE_TABLE
        + "The big draft gave about 50% more speed. Token generation is 75% faster with the small one.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {
        s.value: [next(c.value for c in cf.claims if c.id == i) for i in s.of or []] for s in cf.statements
    }
    assert got == {50: [40.0, 60.0], 75: [40.0, 70.0]}


def test_each_phase_of_one_sentence_relates_its_own_rates(tmp_path):
    """ "48.0 t/s for pp512 and 9.0 t/s for tg128 on the old build, so PP is ~25% faster on the new
    one while TG gained ~10%": each change relates its phase's two rates (old build -> table)."""
    text = (
        "| test | t/s |\n|---|---|\n| pp512 | 60.00 |\n| tg128 | 9.90 |\n\n"
        "The old build gave 48.0 t/s for pp512 and 9.0 t/s for tg128, so prompt processing is ~25% "
        "faster on the new one while generation gained ~10%.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {
        s.value: [next(c.value for c in cf.claims if c.id == i) for i in s.of or []] for s in cf.statements
    }
    assert got == {25: [48.0, 60.0], 10: [9.0, 9.9]}
    assert {c.value: c.metric for c in cf.claims} == {
        60.0: "prefill_tps",
        9.9: "decode_tps",
        48.0: "prefill_tps",
        9.0: "decode_tps",
    }


@pytest.mark.parametrize("other", ["Ollama", "vLLM", "LM Studio"])
def test_a_llama_cpp_build_stays_off_another_engines_claim(tmp_path, other):
    """ "llama.cpp b4100 does 12.0 t/s … {other} does 10.0 t/s": b4100 is a llama.cpp release tag,
    no build of the other engine's claim."""
    text = f"On llama.cpp b4100 generation runs at 12.0 t/s.\n\n{other} on the same box does 10.0 t/s.\n"
    cf = _drafted(text, tmp_path)
    got = {c.value: conditions(cf, c) for c in cf.claims}
    assert got[12.0].get("build") == "b4100"
    assert "build" not in got[10.0]


def test_a_build_stays_on_its_engines_claims(tmp_path):
    """Control: a llama.cpp fork's (ik_llama.cpp) claim keeps the b-tag build stated for it."""
    text = "ik_llama.cpp b3800 does 14.0 t/s here.\n"
    cf = _drafted(text, tmp_path)
    assert conditions(cf, cf.claims[0]).get("build") == "b3800"


@pytest.mark.parametrize(
    "sentence",
    [
        "Memory went from 10.2 GB to 11.0 GB with the 1.5B draft (+0.8 GB), fine.",
        "Memory rose from 10.2 GB to 11.0 GB once the draft model was loaded (+0.8 GB).",
        "Memory: 10.2 GB → 11.0 GB, +0.8 GB.",
    ],
)
def test_a_signed_number_after_a_pair_is_their_difference(tmp_path, sentence):
    """ "+0.8 GB" after "from 10.2 GB to 11.0 GB …" (the sign inside or before the number, words
    naming what was loaded between) is a difference statement of the second less the first, no
    0.8 GB claim."""
    cf = _drafted(sentence + "\n", tmp_path)
    (s,) = cf.statements
    assert (s.kind, s.value, s.unit) == ("difference", 0.8, "GB")
    assert [next(c.value for c in cf.claims if c.id == i) for i in s.of or []] == [11.0, 10.2]
    assert sorted(c.value for c in cf.claims) == [10.2, 11.0]


def test_a_signed_number_in_another_sentence_is_no_difference(tmp_path):
    """Control: "+0.8 GB" after a full stop ("… to 11.0 GB. The cache adds (+0.8 GB)") is no
    difference of the pair before it."""
    cf = _drafted("Memory went from 10.2 GB to 11.0 GB. The cache then takes (+0.8 GB) more.\n", tmp_path)
    assert not [s for s in cf.statements if s.kind == "difference"]


@pytest.mark.parametrize(
    ("sentence", "origin"),
    [
        (
            "For comparison, someone on the forum reported 2.2x on a 4090, so mine is in line.",
            "someone on the forum",
        ),
        ("A user on r/LocalLLaMA got 2.2x faster decoding on an RTX 4090.", "A user on r/LocalLLaMA"),
        ("Others report 2.2x on a 4090 with the same pair.", "Others"),
    ],
)
def test_someone_elses_number_has_its_origin_and_own_hardware(tmp_path, sentence, origin):
    """A multiple someone else reported ("someone on the forum reported 2.2x on a 4090") is theirs:
    ``origin`` set, the hardware of its clause (RTX 4090), not the post's RTX 3090."""
    text = f"All runs on my RTX 3090 with llama.cpp.\n\nSpeculative decoding gave 1.7x here.\n\n{sentence}\n"
    cf = _drafted(text, tmp_path)
    got = {c.value: c for c in cf.claims}
    assert (got[2.2].metric, got[2.2].origin) == ("speedup", origin)
    assert conditions(cf, got[2.2])["hardware"] == "NVIDIA GeForce RTX 4090"
    assert got[1.7].origin is None
    assert conditions(cf, got[1.7])["hardware"] == "NVIDIA GeForce RTX 3090"


def test_someone_elses_change_and_share_have_their_origin_too(tmp_path):
    """The sibling kinds of a multiple: a percent change ("reported 40% faster decoding") and a share
    someone else stated are theirs as well (``phrase_claim``: one path for all three), on the
    hardware of their clause; the post's own change keeps no origin."""
    text = (
        "All runs on my RTX 3090 with llama.cpp.\n\nDecoding was 12% faster here.\n\n"
        "Someone on the forum reported 40% faster decoding on a 4090.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: c for c in cf.claims}
    assert (got[40.0].unit, got[40.0].origin) == ("%", "Someone on the forum")
    assert conditions(cf, got[40.0])["hardware"] == "NVIDIA GeForce RTX 4090"
    assert got[12.0].origin is None
    assert conditions(cf, got[12.0])["hardware"] == "NVIDIA GeForce RTX 3090"
    # a bare card number ending the sentence ("on a 4090.") names it; a decimal ("on a 4090.5") does not
    from benchbook.audit.draftnames import mentions

    assert [m.value for m in mentions("It ran on a 4090.")] == ["NVIDIA GeForce RTX 4090"]
    assert [m.value for m in mentions("It ran on a 4090.5 setup.")] == []


def test_the_posts_own_number_has_no_origin(tmp_path):
    """Control: "I got 2.2x on my 4090" and "someone should try it; I got 2.2x" are the post's."""
    cf = _drafted("Someone should try this too, but I got 2.2x on my 4090.\n", tmp_path)
    (c,) = cf.claims
    assert c.origin is None


@pytest.mark.parametrize(
    "code",
    [
        "-md Qwen3-0.6B-Q8_0.gguf --draft-max 8",
        "--model-draft Qwen3-0.6B-Q8_0.gguf",
        "-md Qwen3-0.6B-Q8_0.gguf -ngld 99",
    ],
)
def test_a_draft_model_flag_names_no_model_of_the_prose(tmp_path, code):
    """`-md Qwen3-0.6B-Q8_0.gguf` written inline is the draft model: never the claims' model or quant
    (the target's are the post's)."""
    text = f"Target is Qwen3-14B Q4_K_M. Plain it ran 30.5 t/s; with `{code}` it reached 47.5 t/s.\n"
    cf = _drafted(text, tmp_path)
    for c in cf.claims:
        got = conditions(cf, c)
        assert (got.get("model"), got.get("quant")) == ("Qwen3-14B", "Q4_K_M"), got


def test_a_model_flag_in_a_server_command_is_the_model(tmp_path):
    """Control: `llama-server -m Qwen3-14B-Q4_K_M.gguf -md Qwen3-0.6B-Q8_0.gguf` sets the target as
    the model and the draft as other.draft_model."""
    text = "With `llama-server -m Qwen3-14B-Q4_K_M.gguf -md Qwen3-0.6B-Q8_0.gguf` it ran 47.5 t/s.\n"
    cf = _drafted(text, tmp_path)
    got = conditions(cf, cf.claims[0])
    assert (got["model"], got["quant"], got["other"]["draft_model"]) == ("Qwen3-14B", "Q4_K_M", "Qwen3-0.6B")


@pytest.mark.parametrize(
    "words", ["512 tokens generated", "512 tokens were generated", "generating 512 tokens"]
)
def test_tokens_generated_in_words_is_the_tables_condition(tmp_path, words):
    """ "Same prompt each time, 512 tokens generated." sets tokens_generated 512 on the table below."""
    table = "| Setup | Gen (t/s) |\n|---|---|\n| plain | 20.5 |\n| draft | 35.5 |\n"
    text = f"Same prompt each time, {words}.\n\n{table}"
    cf = _drafted(text, tmp_path)
    assert [conditions(cf, c).get("tokens_generated") for c in cf.claims if c.value in (20.5, 35.5)] == [
        512,
        512,
    ]


def test_tokens_in_the_prompt_are_no_tokens_generated(tmp_path):
    """Control: "a 512 tokens prompt" sets no tokens_generated."""
    text = "A 512 tokens prompt each time.\n\n| Setup | Gen (t/s) |\n|---|---|\n| plain | 20.5 |\n"
    cf = _drafted(text, tmp_path)
    assert "tokens_generated" not in conditions(cf, cf.claims[-1])

"""Numbers the drafter reads with the right value, unit and precision (issue 29, session 45): rate
units in the words of other languages, "per second" written before a count of tokens, a dot grouping
thousands where the unit's words are of a language that writes it so, ranges with "a" and "de A a
B" after a noun of a change; and the controls where each must not fire."""

from __future__ import annotations

from drafting import drafted as _drafted


def _numbers(text: str, tmp_path) -> list[tuple]:
    cf = _drafted(text, tmp_path)
    return [(c.metric, c.value, c.range, c.unit, c.decimals) for c in cf.claims]


def test_a_rate_in_words_of_other_languages_is_a_rate(tmp_path):
    got = _numbers(
        "Il obtient 45 tokens par seconde.\n\nEr erreichte 33,5 Tokens pro Sekunde.\n\n"
        "Con el servidor llegó a 71 tokens por segundo.\n",
        tmp_path,
    )
    want = [("tok/s", 45.0, 0), ("tok/s", 33.5, 1), ("tok/s", 71.0, 0)]
    assert [(u, v, d) for _, v, _, u, d in got] == want


def test_a_rate_with_spaces_round_the_slash_is_a_rate(tmp_path):
    got = _numbers("Here: 412.5 tok / s for prompt processing and 9.81 tok / s for decoding.\n", tmp_path)
    assert got == [
        ("prefill_tps", 412.5, None, "tok/s", 1),
        ("decode_tps", 9.81, None, "tok/s", 2),
    ]


def test_tokens_a_second_written_before_the_count_is_a_rate(tmp_path):
    text = "外接电源时达到每秒 18.4 個詞元,电池模式下每秒 6.1 个词元。\n\n초당 27 토큰을 생성했다.\n"
    got = _numbers(text, tmp_path)
    want = [("tok/s", 18.4, 1), ("tok/s", 6.1, 1), ("tok/s", 27.0, 0)]
    assert [(u, v, d) for _, v, _, u, d in got] == want


def test_control_a_count_of_tokens_with_no_per_second_stays_a_count(tmp_path):
    got = _numbers("这次一共生成了 350 个词元,用时 12 秒。\n", tmp_path)
    assert ("tokens", 350.0) in [(u, v) for _, v, _, u, _ in got]
    assert all(u != "tok/s" for _, _, _, u, _ in got)


def test_a_dot_grouping_thousands_where_the_unit_is_in_such_words(tmp_path):
    got = _numbers(
        "No servidor ele obteve 4.300 tokens por segundo.\n\nНа сервере вышло 1.250 токенов в секунду.\n",
        tmp_path,
    )
    assert [(u, v, d) for _, v, _, u, d in got] == [("tok/s", 4300.0, 0), ("tok/s", 1250.0, 0)]


def test_control_a_dot_before_three_digits_in_an_english_unit_is_a_decimal_point(tmp_path):
    got = _numbers("The run gave 4.300 tok/s, and the other 6.2 tokens por segundo.\n", tmp_path)
    assert [(u, v, d) for _, v, _, u, d in got] == [("tok/s", 4.3, 3), ("tok/s", 6.2, 1)]


def test_a_range_with_a_between_its_ends_in_portuguese_and_spanish(tmp_path):
    got = _numbers(
        "A otimização acelera a geração em 3% a 8%.\n\nLos tests indicaron una mejora de 4 a 6% en la "
        "velocidad.\n",
        tmp_path,
    )
    assert [(r, u) for _, _, r, u, _ in got] == [((3.0, 8.0), "%"), ((4.0, 6.0), "%")]


def test_control_from_a_to_b_after_a_verb_stays_two_numbers(tmp_path):
    got = _numbers("A velocidade passou de 20 a 30 t/s depois da atualização.\n", tmp_path)
    assert [(v, r, u) for _, v, r, u, _ in got] == [(20.0, None, "t/s"), (30.0, None, "t/s")]


def test_a_list_indented_past_its_parent_is_prose_not_code(tmp_path):
    got = _numbers(
        "1. 第一级测试\n\n  1. 1.1. 纯CPU运行\n\n"
        "    1. 机器价格约为$550。\n    2. 纯CPU性能为12.5 tokens/秒\n",
        tmp_path,
    )
    assert [(u, v, d) for _, v, _, u, d in got] == [("tok/s", 12.5, 1)]


def test_control_an_indented_command_stays_code(tmp_path):
    text = "Run:\n\n    1. llama-bench -m x.gguf -p 512 -n 128\n    2. llama-cli -m x.gguf -n 64\n"
    got = _numbers(text, tmp_path)
    assert got == []


def test_a_section_header_states_the_unit_of_its_bare_labels(tmp_path):
    cf = _drafted(
        "Output:\n\n```\n-- Time To First Token (ms) -----\n\n[TTFT] P50    : 812.4402\n"
        "[TTFT] P99    : 1490.0171\n```\n",
        tmp_path,
    )
    assert [(c.value, c.unit, c.decimals) for c in cf.claims] == [(812.4402, "ms", 4), (1490.0171, "ms", 4)]


def test_control_a_banner_with_no_unit_gives_its_bare_labels_none(tmp_path):
    cf = _drafted("```\n= RUN DETAILS\n\nNumber of Requests: 5000\nWarmup: 2\n```\n", tmp_path)
    assert all(c.unit not in ("ms", "s") for c in cf.claims)


def test_a_prose_label_naming_a_rate_with_about_before_the_value(tmp_path):
    got = _drafted("Results:\n\n* prompt_token/s: around 512.6\n* eval_token/s: about 21.04\n", tmp_path)
    assert [(c.metric, c.value, c.unit, c.about) for c in got.claims] == [
        ("prefill_tps", 512.6, "tok/s", True),
        ("decode_tps", 21.04, "tok/s", True),
    ]


def test_a_rate_per_user_in_a_label_is_a_rate(tmp_path):
    cf = _drafted("```\nOutput Throughput (tokens/s/user):   42.7310\n```\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(42.731, "tok/s")]


def test_control_a_prose_label_naming_no_rate_stays_unplaced(tmp_path):
    cf = _drafted("Notes:\n\n* max_new_tokens: 16384\n* seed: 42\n", tmp_path)
    assert cf.claims == []


def test_a_row_of_a_measured_size_under_columns_of_rates_is_its_own_claim(tmp_path):
    cf = _drafted(
        "| Metric | Model A | Model B |\n|---|---|---|\n| Generation | 88 tok/s | 61 tok/s |\n"
        "| Memory used | 3.4 GB | 5.0 GB |\n",
        tmp_path,
    )
    sizes = [(c.value, c.unit, c.decimals) for c in cf.claims if c.unit == "GB"]
    assert sizes == [(3.4, "GB", 1), (5.0, "GB", 1)]


def test_control_a_row_of_card_memory_under_columns_of_rates_stays_unplaced(tmp_path):
    cf = _drafted(
        "| Metric | A100 | H100 |\n|---|---|---|\n| Decode | 40 tok/s | 60 tok/s |\n"
        "| VRAM | 80 GB | 94 GB |\n",
        tmp_path,
    )
    assert [c.unit for c in cf.claims] == ["tok/s", "tok/s"]

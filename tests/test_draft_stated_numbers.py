"""Stated numbers `benchbook claims draft` missed (issue 29's "numbers captured with the right value,
unit and precision"), by kind: each kind with its drafted values exactly and a control that must
not fire.  Texts are made up in the field's style."""

from __future__ import annotations

from benchbook.audit import schema
from drafting import conditions
from drafting import drafted as _drafted


def _rows(cf: schema.ClaimsFile) -> list[tuple]:
    return [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims]


# --- "label: value" output pasted without a code fence: the unit from the label ------------------


def test_spec_decode_metrics_pasted_as_prose(tmp_path):
    cf = _drafted(
        "# EAGLE run\n\n"
        "Results on 50 prompts:\n"
        "Total num output tokens: 48,211\n"
        "Number of drafts: 10,020\n"
        "Number of draft tokens: 30,060\n"
        "Number of accepted tokens: 19,733\n"
        "Mean acceptance length: 2.97\n"
        "Accept rate at position 0: 0.81\n"
        "Accept rate at position 1: 0.62\n",
        tmp_path,
    )
    assert _rows(cf) == [
        ("tokens", 48211, "tokens", 0),
        ("drafts", 10020, "drafts", 0),
        ("draft_tokens", 30060, "tokens", 0),
        ("accepted_tokens", 19733, "tokens", 0),
        ("mean_accepted_length", 2.97, "tokens", 2),
        ("acceptance_rate", 0.81, "ratio", 2),
        ("acceptance_rate", 0.62, "ratio", 2),
    ]
    assert conditions(cf, cf.claims[6])["other"]["draft_position"] == 1


def test_pasted_label_lines_controls(tmp_path):
    # a lone "label: value" line is the prose reader's; a workload's size, a flag-named setting
    # and a count of nothing known state no result
    cf = _drafted(
        "# Setup\n\nNumber of prompts: 200\nnum-draft-tokens: 5\ndraft-p-min: 0.75\n\nBuild number: 4,512\n",
        tmp_path,
    )
    assert _rows(cf) == []


def test_grouped_thousands_in_a_code_block(tmp_path):
    cf = _drafted("```\nTotal generated tokens:   1,024,000\nTotal time (s): 1,234.5\n```\n", tmp_path)
    assert _rows(cf) == [("tokens", 1024000, "tokens", 0), ("duration", 1234.5, "s", 1)]


# --- units spelled with spaces or unusual spellings ------------------------------------------------


def test_rate_spellings_with_spaces_and_tqdm_seconds_per_iteration():
    from benchbook.audit.draftprose import numbers

    text = (
        "Processed prompts: 100%|████| 80/80 [02:11<00:00,  1.64s/it, est. speed input: 51.20 toks/s, "
        "output: 130.07 toks/s]; later runs gave 42 tokens / sec, 38.5 tkn/s and 40 t / s."
    )
    got = [(n.text, n.unit) for n in numbers(text) if n.unit is not None]
    assert got == [  # (the bar's 100% is how far the run got, no result: session 49)
        ("1.64", "s"),
        ("51.20", "tok/s"),
        ("130.07", "tok/s"),
        ("42", "tok/s"),
        ("38.5", "tok/s"),
        ("40", "t/s"),
    ]


def test_unit_per_another_word_is_no_unit():
    from benchbook.audit.draftprose import numbers

    # "2 GB/layer" is a size per layer, not 2 GB; "GB/s" is a bandwidth, read whole
    got = [(n.text, n.unit) for n in numbers("about 2 GB/layer, 1.5 ms/step and 900 GB/s")]
    assert got == [("2", None), ("1.5", None), ("900", "GB/s")]


# --- a mean acceptance length said with no unit ----------------------------------------------------


def test_accept_length_in_prose(tmp_path):
    cf = _drafted(
        "# EAGLE on a 4090\n\n"
        "* k=3: output: 151.2 toks/s **Accpt Len: 2.31**\n"
        "* k=5: output: 149.8 toks/s **Accpt Len: 2.64**\n\n"
        "The acceptance length of ~3.1 on coding prompts is what the paper reports.\n",
        tmp_path,
    )
    got = [(c.metric, c.value, c.range, c.unit, c.about) for c in cf.claims if c.unit == "tokens"]
    assert got == [
        ("mean_accepted_length", 2.31, None, "tokens", False),
        ("mean_accepted_length", 2.64, None, "tokens", False),
        ("mean_accepted_length", 3.1, None, "tokens", True),
    ]


def test_accept_length_controls(tmp_path):
    # a fraction after "acceptance" is a rate, not a length; a length word with no number beside it,
    # or a number after other words, states no length
    cf = _drafted(
        "# Run\n\nAcceptance 0.73 overall. I think the accept len is ok, 4 drafts per step.\n", tmp_path
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("acceptance_rate", 0.73, "ratio")]


# --- a table under a banner in a code block; a TAP line restating the table ------------------------


BANNER = (
    "```\n"
    "==============================\n"
    "  KV cache type benchmark\n"
    "  Model:  TinyModel-1B-Q4_K_M.gguf\n"
    "  GPU:    RTX 3060\n"
    "==============================\n"
    "                       f16      q8_0\n"
    "------------------------------\n"
    "KV cache (MiB)        128.00    68.00\n"
    "Decode (t/s)          101.4     103.9\n"
    "------------------------------\n"
    "\n"
    "ok 1 - q8_0 KV memory (68 MiB) < f16 KV memory (128 MiB)\n"
    "ok 2 - decode 97.5 t/s >= 90\n"
    "```\n"
)


def test_table_under_a_banner_and_tap_lines_restating_it(tmp_path):
    cf = _drafted(BANNER, tmp_path)
    got = sorted((c.value, c.unit) for c in cf.claims)
    # the table's four cells; the TAP line's 68 and 128 MiB restate cells (no second claim); 97.5 t/s
    # is stated only there (a claim), the threshold 90 is the test's
    assert got == [(68.0, "MiB"), (97.5, "t/s"), (101.4, "t/s"), (103.9, "t/s"), (128.0, "MiB")]
    assert {c.decimals for c in cf.claims if c.unit == "MiB"} == {2}


def test_banner_without_a_table_stays_code(tmp_path):
    # a banner over labelled lines (no table) is read line by line: its sizes name the machine
    cf = _drafted(
        "```\n==========\n  Bench\n==========\nGPU:  24 GB\nPrompt eval rate:  512.3 tokens/s\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("prefill_tps", 512.3, "tok/s")]


def test_speedup_sides_are_the_lines_before_it_not_a_length_after(tmp_path):
    cf = _drafted(
        "# Run\n\nBaseline (plain): 300.40 s\nSpeculative: 150.20 s\nSpeedup: 2.00×\n"
        "Average acceptance length: 2.44\n",
        tmp_path,
    )
    by_id = {c.id: c for c in cf.claims}
    assert [(c.value, c.unit) for c in cf.claims] == [(300.4, "s"), (150.2, "s"), (2.44, "tokens")]
    assert len(cf.statements) == 1
    s = cf.statements[0]
    assert (s.value, s.unit) == (2.0, "x")
    assert [by_id[i].value for i in s.of] == [300.4, 150.2]


# --- a generator's summary line in a code block; a table row pasted without its header ------------


def test_generated_in_lines_in_a_code_block(tmp_path):
    cf = _drafted(
        "```\nOutput generated in 5.42 seconds (36.90 tokens/s, 200 tokens, context 64, seed 42)\n"
        "Response generated in 3.10 seconds, 512 tokens, 165.16 tokens/second\n"
        "Model loaded in 12.5 seconds\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("duration", 5.42, "s"),
        ("decode_tps", 36.9, "tok/s"),
        ("tokens", 200, "tokens"),
        ("duration", 3.1, "s"),
        ("tokens", 512, "tokens"),
        ("decode_tps", 165.16, "tok/s"),
    ]


def test_table_row_without_its_header(tmp_path):
    cf = _drafted(
        "From the README:\n\nMistral | GPTQ 4-bit | 7B | 151 t/s | 183 t/s\n-- | -- | -- | -- | --\n",
        tmp_path,
    )
    assert sorted((c.value, c.unit) for c in cf.claims) == [(151, "t/s"), (183, "t/s")]
    assert {c.source_line for c in cf.claims} == {3}


def test_header_only_table_of_words_is_no_row(tmp_path):
    cf = _drafted("| Model | Quant | Speed |\n|---|---|---|\n", tmp_path)
    assert cf.claims == []


def test_token_speed_header_is_a_rate_and_its_control(tmp_path):
    cf = _drafted(
        "| GPU | Prompt tokens | Token Generation Speed | Token throughput |\n|---|---|---|---|\n"
        "| 4090 | 512 | 61.25 | 60.1 |\n| 3090 | 512 | 44.80 | 43.9 |\n",
        tmp_path,
    )
    got = sorted({(c.value, c.unit, c.metric) for c in cf.claims})
    # a speed of tokens is a rate (no unit written: t/s); "Prompt tokens" stays a count of tokens;
    # "Token throughput" of one stream is its decode rate (SOURCES.md's convention)
    assert got == [
        (43.9, "t/s", "decode_tps"),
        (44.8, "t/s", "decode_tps"),
        (60.1, "t/s", "decode_tps"),
        (61.25, "t/s", "decode_tps"),
        (512.0, "tokens", "tokens"),
    ]


# --- a word naming which rate between the number and its unit --------------------------------------


def test_rate_with_a_qualifier_word_and_its_control():
    from benchbook.audit.draftprose import numbers

    got = [(n.text, n.unit, n.about) for n in numbers("Ollama 26.0 eff tok/s, ~35 gen t/s; 3 output tokens")]
    # "output tokens" after a number is a count of tokens' name, no rate: the 3 stays unplaced
    assert got == [("26.0", "tok/s", False), ("35", "t/s", True), ("3", None, False)]


# --- junk claims a table made: bounds in cells, a settings table in another language ------------


def test_bound_in_a_table_cell_is_no_value(tmp_path):
    cf = _drafted(
        "| Speed | Feel |\n|---|---|\n| >50 tok/s | instant |\n| 20 tok/s | fine |\n| <5 tok/s | painful |\n",
        tmp_path,
    )
    # ">50 tok/s" and "<5 tok/s" are no values of 50 and 5; under a "Feel" column they are a scale's
    # thresholds, no results (session 54: each such bound was audited "inconsistent" against the
    # post's own measurements): listed, no bound statement
    assert [(c.value, c.unit) for c in cf.claims] == [(20, "tok/s")]
    assert [s for s in cf.statements if s.kind == "bound"] == []
    assert [(u.line, u.number) for u in cf.draft.unplaced] == [(3, "50"), (5, "5")]
    # control: a results table's bound cell is a bound statement
    cf = _drafted("| GPU | tg128 |\n|---|---|\n| RTX 4090 | >50 tok/s |\n| RTX 3090 | 20 tok/s |\n", tmp_path)
    assert sorted(s.value for s in cf.statements if s.kind == "bound") == [50]


def test_settings_table_in_chinese_is_no_claim_and_its_control(tmp_path):
    cf = _drafted(
        "| 项目 | 配置 |\n|---|---|\n| GPU | NVIDIA L40S 48GB |\n| 参数 | -ngl 99 -c 8192 |\n", tmp_path
    )
    assert cf.claims == []
    # a two-column table under other headers keeps its results
    cf = _drafted("| 模型 | 速度 |\n|---|---|\n| Qwen3-8B | 48.2 tok/s |\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(48.2, "tok/s")]


def test_peak_concurrent_requests_and_a_setting_control(tmp_path):
    cf = _drafted(
        "```\nPeak concurrent requests:                32.00\nMax running requests:  8\n"
        "Maximum request concurrency:  32\n```\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims] == [
        ("peak_concurrent_requests", 32.0, "requests", 2)
    ]


def test_token_row_of_a_metrics_as_rows_table_and_its_control(tmp_path):
    # metrics as rows, configurations as columns: "Generated tokens" is each configuration's result
    cf = _drafted(
        "```\n                   greedy     sampled\nDecode (t/s)        88.1      86.4\n"
        "TTFT (ms)           51.2      49.8\nGenerated tokens     256       231\n```\n",
        tmp_path,
    )
    assert sorted((c.value, c.unit) for c in cf.claims if c.unit == "tokens") == [
        (231, "tokens"),
        (256, "tokens"),
    ]
    # a column "Generated tokens" of an ordinary table is each row's condition (tokens generated)
    cf = _drafted(
        "| Model | Generated tokens | Decode (t/s) |\n|---|---|---|\n"
        "| A-7B | 128 | 90.1 |\n| B-8B | 256 | 80.3 |\n",
        tmp_path,
    )
    assert [(c.value, c.unit) for c in cf.claims] == [(90.1, "t/s"), (80.3, "t/s")]
    assert [conditions(cf, c)["tokens_generated"] for c in cf.claims] == [128, 256]


def test_aligned_rows_of_several_values_in_code(tmp_path):
    # a header the table reader does not take ("t=0.7" reads as a log's key=value): each row's values
    # are read all the same, not only the last
    cf = _drafted(
        "```\n                   greedy     t=0.7\nDecode (t/s)        88.1      86.4\n"
        "Generated tokens     256       231\nport  8080  8081\n```\n",
        tmp_path,
    )
    assert [(c.value, c.unit) for c in cf.claims] == [
        (88.1, "t/s"),
        (86.4, "t/s"),
        (256, "tokens"),
        (231, "tokens"),
    ]


def test_key_value_times_with_their_unit_glued(tmp_path):
    cf = _drafted("```\nttft=0.42s tok/s=61.3 wall=12.5s\nrun=3 seed=42\n```\n", tmp_path)
    assert [(c.metric, c.value, c.unit, c.decimals) for c in cf.claims] == [
        ("ttft", 0.42, "s", 2),
        ("decode_tps", 61.3, "tok/s", 1),
        ("duration", 12.5, "s", 1),
    ]


def test_list_after_a_number_takes_its_unit_and_its_control():
    from benchbook.audit.draftprose import numbers
    from benchbook.audit.draftsentences import _shared_units

    text = "I get ~41 tok/s, the blog says 58 / 61. With 2 / 4 GPUs at 30 tok/s, it scales."
    got = [(n.text, n.unit) for n in _shared_units(text, numbers(text))]
    # "58 / 61" ends its clause after "41 tok/s, the blog says": rates; "2 / 4 GPUs" counts GPUs
    assert got == [
        ("41", "tok/s"),
        ("58", "tok/s"),
        ("61", "tok/s"),
        ("2", None),
        ("4", None),
        ("30", "tok/s"),
    ]


def test_accepted_tokens_per_step_and_its_control():
    from benchbook.audit.draftprose import numbers

    got = [
        (n.text, n.unit, n.about, n.range)
        for n in numbers(
            "~2.1–2.4 accepted tokens per step on chat; 12 accepted tokens in total; "
            "3-1 accepted tokens per step"
        )
    ]
    # "12 accepted tokens in total" is no per-step figure (unplaced); "3-1" is no range
    assert got[:2] == [("2.1–2.4", "tokens", True, ("2.1", "2.4")), ("12", None, False, None)]
    assert all(n[1] is None or n[0] != "3–1" for n in got)


def test_acceptance_length_column_and_its_control(tmp_path):
    cf = _drafted(
        "Method | k | Mean Acceptance Length | Acceptance rate\n-- | -- | -- | --\n"
        "eagle | 4 | 2.71 | 0.43\nngram | 4 | 1.38 | 0.10\n",
        tmp_path,
    )
    got = sorted((c.value, c.unit, c.metric) for c in cf.claims)
    # the length in tokens; the rate beside it a fraction, not tokens
    assert got == [
        (0.1, "ratio", "acceptance_rate"),
        (0.43, "ratio", "acceptance_rate"),
        (1.38, "tokens", "mean_accepted_length"),
        (2.71, "tokens", "mean_accepted_length"),
    ]


def test_tap_lines_sharing_a_margin_do_not_crash(tmp_path):
    # two test lines with the same "+ 10% margin": the margin is each line's statement, and a
    # restated cell cites the table's claim (a regression: the second line cited the first's margin)
    cf = _drafted(
        BANNER.replace(
            "ok 2 - decode 97.5 t/s >= 90\n",
            "ok 2 - q8_0 decode (103.9 t/s) >= f16 (101.4 t/s) - 10% margin (91.3 t/s)\n"
            "ok 3 - q8_0 KV (68 MiB) <= f16 KV (128 MiB) + 10% margin (140.8 MiB)\n",
        ),
        tmp_path,
    )
    values = sorted((c.value, c.unit) for c in cf.claims)
    assert (91.3, "t/s") in values and (140.8, "MiB") in values
    assert not [c for c in cf.claims if c.unit == "%"]

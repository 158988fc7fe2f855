"""Kinds fixed in issue 29's session 68 (the forty-sixth held-out set's misses, read after a
forty-seventh set replaced it as the clean one), each with controls."""

from __future__ import annotations

import pytest

from benchbook.audit import schema
from benchbook.audit.draftprose import numbers, scaled
from benchbook.audit.draftwords import accept_counts, settings_in_words
from benchbook.audit.precision import interval_of, written
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _claims(cf: schema.ClaimsFile) -> list[tuple]:
    """(metric, value or range, unit, about, decimals) of each claim, in post order."""
    return [
        (c.metric, c.value if c.value is not None else c.range, c.unit, c.about, c.decimals)
        for c in cf.claims
    ]


def test_a_sign_of_approximation_after_the_number_is_about():
    """ "3100~ tokens/sec" (h531): about 3100 tok/s; "60~80 tok/s" stays a range."""
    got = [
        (n.text, n.unit, n.about, n.range) for n in numbers("at 3100~ tokens/sec, about 700~ tokens/second")
    ]
    assert got == [("3100", "tok/s", True, None), ("700", "tok/s", True, None)]
    (r,) = numbers("and 60~80 tok/s")
    assert (r.range, r.unit, r.about) == (("60", "80"), "tok/s", False)


def test_a_number_in_thousands_keeps_its_precision(tmp_path):
    """ "10k tok/s" (h535) is 10000 to the thousand: decimals -3, standing for 9,500–10,500; "1.5K
    t/s" 1500 to the hundred; "128k tokens" (a context's size) stays unplaced."""
    assert scaled("10", "k") == ("10000", -3)
    assert scaled("1.5", "K") == ("1500", -2)
    assert scaled("2.25", "M") == ("2250000", -4)
    cf = _drafted(
        "The server did 10k tok/s on one GPU and ~1.5K t/s on two, with 128k tokens of context.", tmp_path
    )
    assert _claims(cf) == [("decode_tps", 10000, "tok/s", False, -3), ("decode_tps", 1500, "t/s", True, -2)]
    assert [u.number for u in cf.draft.unplaced] == ["128"]
    got = interval_of(10000, None, -3, None, False, "tok/s")
    assert (got.lo, got.hi) == (9500, 10500)
    assert written(10000, None, -3, None) == "10k" and written(1500, None, -2, None) == "1.5k"


def test_negative_decimals_load_and_stay_bounded(tmp_path):
    """The schema takes decimals down to -15 (a number in thousands), not below."""
    base = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog}\nclaims:\n"
    ok = tmp_path / "ok.yaml"
    ok.write_text(base + "  - {id: a, metric: throughput, value: 88000, decimals: -3, unit: tok/s}\n")
    assert schema.load(ok).claims[0].decimals == -3
    bad = tmp_path / "bad.yaml"
    bad.write_text(base + "  - {id: a, metric: throughput, value: 88000, decimals: -16, unit: tok/s}\n")
    with pytest.raises(Exception, match="decimals"):
        schema.load(bad)


def test_a_stat_card_over_two_lines_is_one_claim(tmp_path):
    """ "88k" over "Peak tok/s" (h535, a page's headline figure): the peak rate 88000 to the thousand;
    a number alone over a line naming no unit is none."""
    cf = _drafted("# Work\n\n88k\nPeak tok/s\n\n42\nModels tested\n", tmp_path)
    assert _claims(cf) == [("peak_throughput", 88000, "tok/s", False, -3)]
    assert cf.claims[0].source_line == 3


@pytest.mark.parametrize(
    "text",
    [
        "MTP draft acceptance: 164/269 tokens (61%).",
        "Draft acceptance: 164/269 (61%).",
        "Accepted 164/269 draft tokens (61%).",
        "Acceptance was 61% (164/269 tokens accepted).",
    ],
)
def test_acceptance_counts_beside_their_share_are_its_counts(tmp_path, text):
    """The counts before or after the share in parentheses (h530) are the share's counts: one claim."""
    cf = _drafted(text, tmp_path)
    assert [
        (c.metric, c.value, c.counts.model_dump(exclude_none=True) if c.counts else None) for c in cf.claims
    ] == [("acceptance_rate", 61, {"accepted": 164, "drafted": 269})]


def test_counts_before_a_share_they_do_not_give_are_still_its_own(tmp_path):
    """ "164/269 tokens (45%)": the counts in the share's sentence are its counts (the audit then
    finds 61% ≠ 45%); a proportion not of acceptance ("5/6 runs (83%)") stays apart."""
    cf = _drafted("Acceptance: 164/269 tokens (45%).", tmp_path)
    assert [(c.value, c.counts.accepted, c.counts.drafted) for c in cf.claims] == [(45, 164, 269)]
    assert accept_counts("We got 5/6 runs (83%) passing.") == []


def test_times_per_token_in_any_spelling():
    """ "1.2 秒/token", "1.2 sec/token", "35 毫秒/token" (h533): a time per token."""
    got = [
        (n.text, n.unit, n.unit_written)
        for t in ("~1.2 秒/token", "1.2 sec/token", "35 毫秒/token")
        for n in numbers(t)
    ]
    assert got == [("1.2", "s", "秒/token"), ("1.2", "s", "sec/token"), ("35", "ms", "毫秒/token")]


def test_a_hit_rate_is_no_slowdown(tmp_path):
    """ "a 60–68% hit rate" (h529): a cache's hit rate; "a 20% hit in speed" is a drop."""
    cf = _drafted("The prefix cache achieves a 60–68% hit rate.\n\nIt takes a 20% hit in speed.", tmp_path)
    assert [(c.metric, c.value if c.value is not None else c.range) for c in cf.claims] == [
        ("cache_hit_rate", (60, 68)),
        ("speed_change", -20),
    ]


def test_a_quality_score_in_percent(tmp_path):
    """ "80.6% quality" (h535): a quality score; "quality" elsewhere in the sentence names none (the
    breaker's: "At high quality the GPU was at 95% utilization", "a 2.1% quality drop")."""
    cf = _drafted("qwen2.5:7b wins on value — 80.6% quality, 100% multi-turn.", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("quality_score", 80.6), ("share", 100)]
    for text in (
        "At high quality the GPU was at 95% utilization.",
        "The high-quality Q6_K quant used 85% of VRAM.",
        "IQ3_XXS shows a 2.1% quality drop versus Q8_0.",
    ):
        assert "quality_score" not in [c.metric for c in _drafted(text, tmp_path).claims], text


def test_a_setup_line_of_settings_after_context(tmp_path):
    """ "**Context:** 131,072 tokens · Flash Attention · Q4_0 KV · batch/microbatch 2048/512 · vision +
    Q4 MTP" (h530): the runs' ctx, flash attention, cache types, both batches and MTP drafting; no
    claim of 131072 tokens, and "Q4_0 KV" no quant of the weights."""
    cf = _drafted(
        "**Model:** Unsloth Dynamic UD-Q4_K_XL\n"
        "**Context:** 131,072 tokens · Flash Attention · Q4_0 KV · batch/microbatch 2048/512"
        " · vision + Q4 MTP\n\n"
        "Decode ran at 40.1 tok/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    got = _cond(cf, c)
    assert {
        k: got.get(k)
        for k in ("ctx", "flash_attn", "type_k", "type_v", "batch", "ubatch", "decoding", "quant")
    } == {
        "ctx": 131072,
        "flash_attn": True,
        "type_k": "q4_0",
        "type_v": "q4_0",
        "batch": 2048,
        "ubatch": 512,
        "decoding": "draft-self",
        "quant": "UD-Q4_K_XL",
    }


def test_batch_pairs_and_a_context_label_in_words():
    """The pair "batch/ubatch N/M" in any of its spellings; "microbatch 2048" alone is a ubatch, never a
    batch; a setup naming two decodings ("plain vs MTP") names none."""
    for text in ("batch/microbatch 2048/512", "b/ub 2048/512", "batch/ubatch: 2048/512"):
        out: list = []
        settings_in_words(text, out)
        assert sorted(out) == [("batch", 2048), ("ubatch", 512)], text
    out = []
    settings_in_words("microbatch 1024", out)
    assert out == [("ubatch", 1024)]


def test_a_setup_comparing_decodings_names_none(tmp_path):
    """ "Settings: 32k context, plain vs MTP" names no one decoding of the runs."""
    cf = _drafted("Settings: flash attention on, plain vs MTP\n\nDecode ran at 40.1 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0]).get("decoding") != "draft-self"


def test_a_table_average_row_is_a_mean_of_the_rows_above(tmp_path):
    """ "| **Average** | **40.7** |" under runs 1–3 (h530): a mean statement of the three; a table with no
    such row has none."""
    cf = _drafted(
        "| Run | Decode tok/s |\n|---:|---:|\n| 1 | 40.1 |\n| 2 | 41.0 |\n| 3 | 40.9 |\n"
        "| **Average** | **40.7** |\n",
        tmp_path,
    )
    (s,) = cf.statements
    runs = [c.id for c in cf.claims if c.value in (40.1, 41.0, 40.9)]
    assert (s.kind, s.value, s.unit, s.of) == ("mean", 40.7, "tok/s", runs)
    cf = _drafted("| Run | Decode tok/s |\n|---:|---:|\n| 1 | 40.1 |\n| 2 | 41.0 |\n", tmp_path)
    assert cf.statements == []


def test_a_count_named_before_a_full_stop_and_a_label_after_a_number(tmp_path):
    """ "at n-max 7." names block_max 7 (the full stop is no decimal); "71.9 tok/s baseline and 170.3
    tok/s at n-max 7" (h534): the baseline is the first number's, the draft size the second's."""
    cf = _drafted(
        "# MTP bench\n\n- records 71.9 tok/s baseline and 170.3 tok/s at n-max 7 (+136.9%, 2.37x)\n", tmp_path
    )
    got = [(c.value, _cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims]
    assert got == [(71.9, "plain", None), (170.3, "draft-self", 7)]
    cf = _drafted("# MTP bench\n\nWe got 170.3 tok/s at n-max 7.\n", tmp_path)
    assert _cond(cf, cf.claims[0]).get("block_max") == 7


def test_vllm_spec_decode_total_output_tokens(tmp_path):
    """vLLM's spec_decode.py prints "total_num_output_tokens: 16990" (h526): a count of tokens."""
    cf = _drafted(
        "```\ntotal_num_output_tokens: 16990\nnum_drafts: 4816\nnum_draft_tokens: 33712\n```\n", tmp_path
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("tokens", 16990, "tokens"),
        ("draft_proposals", 4816, "proposals"),
        ("draft_tokens", 33712, "tokens"),
    ]


def test_a_table_of_metrics_as_rows_keeps_its_configurations_names(tmp_path):
    """Column heads "DeepSeek-R1:14B（32GB）" over metric rows (h533): each column's model; the size in
    parentheses no claim; "CPU 60%、GPU 45%" two busy shares; "1.2 秒/token" a time per token."""
    cf = _drafted(
        "| 指标 | DeepSeek-R1:14B（32GB） | DeepSeek-R1:32B（64GB） |\n|---|---|---|\n"
        "| 推理速度 | 10-12 tokens/s | 4.8-5 tokens/s |\n"
        "| 代码生成 | 1.2 秒/token | 3.5 秒/token |\n"
        "| 硬件负载 | CPU 60%、GPU 45% | CPU 85%、GPU 72% |\n",
        tmp_path,
    )
    got = [
        (c.metric, c.value if c.value is not None else c.range, _cond(cf, c).get("model")) for c in cf.claims
    ]
    assert sorted(got, key=str) == sorted(
        [
            ("decode_tps", (10, 12), "DeepSeek-R1-14B"),
            ("decode_tps", (4.8, 5), "DeepSeek-R1-32B"),
            ("ms_per_token", 1.2, "DeepSeek-R1-14B"),
            ("ms_per_token", 3.5, "DeepSeek-R1-32B"),
            ("cpu_utilization", 60, "DeepSeek-R1-14B"),
            ("gpu_utilization", 45, "DeepSeek-R1-14B"),
            ("cpu_utilization", 85, "DeepSeek-R1-32B"),
            ("gpu_utilization", 72, "DeepSeek-R1-32B"),
        ],
        key=str,
    )


def test_a_setup_sections_table_of_specifications_states_no_claims(tmp_path):
    """Under "## Hardware configuration", a table of memory and bandwidth is the machines' specs (h533);
    a probe's measured bandwidth ("copy") under a hardware heading is a result (p188)."""
    spec = (
        "## Hardware configuration\n\n| Item | Base | Pro |\n|---|---|---|\n"
        "| Memory | 16GB | 32GB |\n| Bandwidth | 120GB/s | 200GB/s |\n"
    )
    cf = _drafted(spec, tmp_path)
    assert cf.claims == [] and sorted(u.number for u in cf.draft.unplaced) == ["120", "16", "200", "32"]
    probe = "## Hardware tested\n\n| cap | theory | copy |\n|---|---|---|\n| 200 W | 936 GB/s | 391 GB/s |\n"
    cf = _drafted(probe, tmp_path)
    assert 391 in [c.value for c in cf.claims]


def test_tokens_then_an_arrow_to_their_time_and_rate(tmp_path):
    """ "256 tokens → 3.14 s = ~81 tokens/s" and "128 generated tokens → 1.93 s = ~67 tokens/s" (h529):
    the rate is a ratio of the count and the time; "256 generated tokens each" stays a setting."""
    cf = _drafted(
        "Short prompt, 256 tokens        → 3.14 s  = ~81 tokens/s\n\n"
        "128 generated tokens            → 1.93 s  = ~67 tokens/s end-to-end\n\n"
        "Three runs, 256 generated tokens each.\n",
        tmp_path,
    )
    by_id = {c.id: c for c in cf.claims}
    assert [(s.kind, s.value, [by_id[x].value for x in s.of]) for s in cf.statements] == [
        ("ratio", 81, [256, 3.14]),
        ("ratio", 67, [128, 1.93]),
    ]
    assert "256" in [u.number for u in cf.draft.unplaced if u.line == 5]


def test_one_apple_desktop_named_alone_is_the_machine(tmp_path):
    """ "on a single Mac Studio" and no chip or card named (h535): the claims' hardware; with its chip
    named elsewhere ("My Mac Studio has an M2 Ultra") the chip's reading stands."""
    cf = _drafted("Evaluation on a single Mac Studio.\n\nMLX did 42 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0]).get("hardware") == "Apple Mac Studio"
    cf = _drafted("My Mac Studio has an M2 Ultra.\n\nMLX did 42 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0]).get("hardware") != "Apple Mac Studio"


def test_a_label_line_in_a_block_names_its_engine_with_no_command_above(tmp_path):
    """ "minivllm:" and "vLLM:" over their key: value results (h532), no command in the post: each
    block part is its label's engine."""
    cf = _drafted(
        "Compare vllm speed vs. minivllm:\n\n```\nminivllm:\n  tokens: 335.0000\n  tps: 63.7527\n"
        "vLLM:\n  tokens: 335.0000\n  tps: 660.5919\n```\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("engine")) for c in cf.claims if c.unit == "tok/s"]
    assert got == [(63.7527, "MinivLLM"), (660.5919, "vLLM")]


# --- the breaker's cases of this session's changes ------------------------------------------------


def test_a_heading_of_the_setup_keeps_its_tables_of_what_the_runs_used(tmp_path):
    """Only a heading naming hardware or specs makes a size-only table the machines' specifications;
    "## Setup", "# VRAM by configuration", "## 测试环境" over what runs used stay claims, and so does a
    "VRAM used"/"Peak power" table under "## Hardware"."""
    used = "| GPU | VRAM used | Peak power |\n|---|---|---|\n| RTX 3090 | 21.3 GB | 348 W |\n"
    for text, value in (
        (f"## Setup\n\n{used}", 21.3),
        ("# VRAM by configuration\n\n| Config | VRAM |\n|---|---|\n| Q4_K_M, 8k ctx | 6.1 GB |\n", 6.1),
        ("## 测试环境\n\n| 模型 | 显存占用 |\n|---|---|\n| Qwen3-8B | 6.2 GB |\n", 6.2),
        (f"## Hardware\n\n{used}", 21.3),
    ):
        assert value in [c.value for c in _drafted(text, tmp_path).claims], text


def test_labels_over_their_values_are_no_stat_cards_and_no_runs(tmp_path):
    """ "Output tok/s" over "1234.5" over "Peak tok/s" over "2000": each value its own label's, no run
    index; a title under a number ("88" over "Settings for max TPS") is no card."""
    cf = _drafted("# Results\n\nOutput tok/s\n1234.5\nPeak tok/s\n2000\nMean TTFT ms\n350\n", tmp_path)
    got = [(c.metric, c.value, _cond(cf, c).get("run_index")) for c in cf.claims]
    assert got == [("throughput", 1234.5, None), ("peak_throughput", 2000, None), ("ttft", 350, None)]
    cf = _drafted("# Thread\n\n88\nSettings for max TPS\n\nI run Qwen3-8B at 45 tok/s.\n", tmp_path)
    assert [c.value for c in cf.claims] == [45]


def test_a_mean_row_over_statistics_or_a_total(tmp_path):
    """An "Average" row under Min/Max rows states no mean of them; a "Total" row above it is left out."""
    cf = _drafted(
        "| Stat | TTFT (ms) |\n|---|---|\n| Min | 120 |\n| Max | 480 |\n| Mean | 210 |\n| Median | 190 |\n",
        tmp_path,
    )
    assert cf.statements == []
    cf = _drafted(
        "| Prompt | Time (s) |\n|---|---|\n| code | 2.0 |\n| prose | 4.0 |\n"
        "| Total | 6.0 |\n| Average | 3.0 |\n",
        tmp_path,
    )
    by_id = {c.id: c.value for c in cf.claims}
    assert [(s.kind, s.value, [by_id[x] for x in s.of]) for s in cf.statements] == [("mean", 3.0, [2.0, 4.0])]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I swept ubatch 128,256,512 and the best prefill was 1450 t/s.", {"ubatch": 128}),
        ("With batch 256,512 (both) prefill was about 1450 t/s.", {}),
        ("Ran with nctx 8192: 45.2 tok/s.", {"ctx": 8192}),
        ("The maxctx 8192 run gave 45.2 tok/s.", {"ctx": 8192}),
        ("At ctx 65,536, decode was 40.1 tok/s.", {"ctx": 65536}),
        ("With batch/ubatch 2048/512 I got 40 tok/s.", {"batch": 2048, "ubatch": 512}),
        ("With -b/-ub 4096/1024 I got 40 tok/s.", {"batch": 4096, "ubatch": 1024}),
        ("I ran -b/-ub 4096/1024 for 40 tok/s, and b/ub 2048/512 gave 41 tok/s.", {}),
    ],
)
def test_grouped_counts_and_batch_pairs_in_a_sentence(tmp_path, text, want):
    """Thousands grouping only for a count that is one (a power of two or of thousands: "65,536", not
    the sweep "128,256,512"); "nctx"/"maxctx" glued names; one batch pair per sentence, or none."""
    cf = _drafted(text, tmp_path)
    got = _cond(cf, cf.claims[0])
    keys = ("ctx", "batch", "ubatch", "concurrency")
    assert {k: got[k] for k in keys if k in got} == want


@pytest.mark.parametrize(
    "line",
    [
        "Settings: defaults, except I could not get MTP to load.",
        "Settings: everything default. Next week I will try speculative decoding.",
        "**Setup:** RTX 3090, llama.cpp b6400 (MTP not supported in this build)",
        "**Model:** Qwen3-8B Q4_K_M (draft model comes in part 2)",
        "**Model:** GLM-4.5-Air Q4_K_M (MTP layers stripped)",
        "**Settings:** ctx 32768 · FA on · no MTP",
    ],
)
def test_a_setup_line_naming_a_drafting_it_did_not_run(tmp_path, line):
    """A drafting a setup line says is off, missing or to come drafts nothing of the runs."""
    cf = _drafted(f"{line}\n\nDecode ran at 40.1 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0]).get("decoding") in (None, "plain")


def test_a_draft_size_after_a_number_then_a_comma_is_that_numbers(tmp_path):
    """ "70.1 tok/s at n-max 4, 65.0 tok/s at n-max 8": each its own block_max."""
    cf = _drafted("# MTP\n\nMTP: 70.1 tok/s at n-max 4, 65.0 tok/s at n-max 8.\n", tmp_path)
    assert [(c.value, _cond(cf, c).get("block_max")) for c in cf.claims] == [(70.1, 4), (65.0, 8)]


def test_a_feature_said_off_in_parentheses_and_a_word_beginning_with_kv(tmp_path):
    """ "Flash Attention (not supported on this GPU)" is off; "the Q4_K_M KV-cache-heavy build" keeps
    its quant (only "Q4_0 KV" names the cache's type)."""
    cf = _drafted(
        "**Context:** 32,768 tokens · Flash Attention (not supported on this GPU)\n\nDecode 40 tok/s.\n",
        tmp_path,
    )
    assert _cond(cf, cf.claims[0]).get("flash_attn") is False
    cf = _drafted("I run the Q4_K_M KV-cache-heavy build of Qwen3-8B at 40 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0]).get("quant") == "Q4_K_M"


def test_acceptance_counts_only_under_an_acceptances_label(tmp_path):
    """ "The draft acceptance was high; context 4096/8192 (50%) used.": no acceptance counts of 50%."""
    assert accept_counts("The draft acceptance was high; context 4096/8192 (50%) used.") == []
    assert accept_counts("MTP acceptance (n-max 3): 164/269 drafted tokens (61.0%)") == [(26, 48, 164, 269)]


def test_a_table_cell_in_thousands_keeps_its_precision(tmp_path):
    """ "| 64 | 4.2k tok/s |": a claim of its own (a table row writes no decimals), 4200 to the hundred."""
    cf = _drafted("| Batch | Throughput |\n|---|---|\n| 64 | 4.2k tok/s |\n| 128 | 980 tok/s |\n", tmp_path)
    assert sorted((c.value, c.decimals) for c in cf.claims) == [(980, 0), (4200, -2)]


def test_a_microbatch_beside_a_batch_keeps_it_llama_cpps(tmp_path):
    """ "batch 4096 microbatch 1024" (the breaker's): llama.cpp's two batches, no concurrency of 4096."""
    cf = _drafted("batch 4096 microbatch 1024 gave 43 tok/s\n", tmp_path)
    got = _cond(cf, cf.claims[0])
    assert (got.get("batch"), got.get("ubatch"), got.get("concurrency")) == (4096, 1024, None)


def test_a_drafted_runs_relation_is_against_the_plain_run(tmp_path):
    """The new user's post: "without a draft: 112.6 tok/s", "with the draft model: 203.1 tok/s", then
    "So speculative decoding gave 1.8x faster decode on code." and "about 1.2x (131 tok/s)" of
    another prompt: the 1.8x is 203.1 over the plain 112.6, never over the other drafted 131; an
    acceptance that "dropped to ~0.45" is an acceptance rate; a CPU's tier digit no number."""
    cf = _drafted(
        "# Spec on a 3090, 1.8x faster decode\n\n"
        "Setup: RTX 3090 with a Ryzen 7 5800X.\n\n"
        "```\nllama-server -m Qwen2.5-7B-Instruct-Q4_K_M.gguf -md Qwen2.5-0.5B-Instruct-Q8_0.gguf"
        " --draft-max 16\n```\n\n"
        "On a coding prompt I got:\n\n- without a draft: 112.6 tok/s\n- with the draft model: 203.1 tok/s\n\n"
        "So speculative decoding gave 1.8x faster decode on code. On a creative writing prompt it was only "
        "about 1.2x (131 tok/s), acceptance dropped to ~0.45.\n",
        tmp_path,
    )
    by_id = {c.id: c.value for c in cf.claims}
    assert sorted((s.value, tuple(by_id[x] for x in s.of)) for s in cf.statements) == [
        (1.8, (203.1, 112.6)),
        (1.8, (203.1, 112.6)),
    ]
    assert ("acceptance_rate", 0.45) in [(c.metric, c.value) for c in cf.claims]
    assert "7" not in [u.number for u in cf.draft.unplaced]


def test_a_free_speedup_beside_a_memory_change_up_is_noted(tmp_path):
    """ "TL;DR: free 1.8x on code, ~1.2x on prose." under "VRAM went from 5.9 GB to 6.8 GB": the 1.8x
    (the word right before it) gets the cost named; the 1.2x does not."""
    from benchbook.audit.unsaid import _free_notes

    cf = _drafted(
        "VRAM went from 5.9 GB to 6.8 GB with the draft loaded.\n\n"
        "TL;DR: free 1.8x on code, ~1.2x on prose.\n",
        tmp_path,
    )
    notes = _free_notes(cf, {})
    assert [(cf.claim(i).value, n) for i, ns in notes.items() for n in ns] == [
        (
            1.8,
            "called free, yet the source states a memory cost: vram from 5.9 to 6.8 GB (vram-l1, vram-l1-2)",
        )
    ]

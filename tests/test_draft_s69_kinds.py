"""Kinds fixed in issue 29's session 69 (the forty-seventh held-out set's misses, read after a
forty-eighth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit import schema
from benchbook.audit.draftcontext import _fuller_of, header_settings
from benchbook.audit.draftnames import CPU, hardware_of, mentions
from benchbook.audit.draftprose import numbers
from benchbook.audit.drafttable import _header_unit, _no_draft, _test_depth
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _values(cf: schema.ClaimsFile) -> list[tuple]:
    """(metric, value, unit) of each claim, in post order."""
    return [(c.metric, c.value, c.unit) for c in cf.claims]


def test_a_header_unit_with_a_backslash_or_a_statistic_after_a_key():
    """ "average tk\\s" (a Windows user's slash) is tok/s; "wall_s_total", "ttft_ms_p99" are a
    tool's keys in s and ms with a statistic after the unit (h536); a quant's name is no key."""
    assert _header_unit("average tk\\s") == "tok/s"
    assert _header_unit("tok\\s") == "tok/s"
    assert _header_unit("wall_s_total") == "s"
    assert _header_unit("run_s_max") == "s"
    assert _header_unit("ttft_ms_p99.9") == "ms"
    assert _header_unit("Q4_K_S") is None
    assert _header_unit("spec-draft-n-max") is None


def test_a_laptop_card_by_its_number_and_a_jetson_with_its_memory_run_together():
    """ "a 3060 Laptop" is NVIDIA's laptop part (h536); "Orin AGX(32G)Jetpack 5.1", a README's row
    label run together, is the 32 GB module with its system software after it (h539)."""
    assert [m.value for m in mentions("On a 3060 Laptop 6GB vram")] == ["NVIDIA GeForce RTX 3060 Laptop GPU"]
    assert [m.value for m in mentions("on the 3060 today")] == ["NVIDIA GeForce RTX 3060"]
    assert hardware_of("Orin AGX(32G)Jetpack 5.1") == "NVIDIA Jetson AGX Orin 32GB"
    assert hardware_of("Orin NX(16G)Jetpack 5.1") == "NVIDIA Jetson Orin NX 16GB"
    assert hardware_of("Jetson Orin NX (16GB)") == "NVIDIA Jetson Orin NX 16GB"
    assert hardware_of("RTX 4090, CUDA 12.4") == "NVIDIA GeForce RTX 4090"
    assert hardware_of("Orin NX16") is None


def test_a_drafting_column_cell_that_drafts_nothing_with_its_reason(tmp_path):
    """ "n/a - no mtp" in a --spec-draft-n-max column (h536) is the plain run, as "none" is; a
    cell naming a size is no such cell."""
    assert _no_draft("n/a - no mtp") and _no_draft("none (baseline)") and _no_draft("off")
    assert not _no_draft("4") and not _no_draft("n/a - 4 tokens")
    cf = _drafted(
        "| spec-draft-n-max | average tk\\s |\n|---|---|\n| n/a - no mtp | 22.92 |\n| 2 | 29.39 |\n", tmp_path
    )
    got = [(c.value, c.unit, _cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims]
    assert got == [(22.92, "tok/s", "plain", None), (29.39, "tok/s", None, 2)]


def test_a_model_one_generation_glued_to_its_family_is_another_model():
    """ "InternLM-7B" beside "InternLM2-7B" (h539, two table columns) are two models; "Llama 70B"
    beside "Llama 3 70B" (its version a word apart), "Mistral-7B" beside "Mistral-7B-Instruct-v0.3"
    and "Llama 8B" in prose after "Llama3-8B" (a breaker's) are one."""
    assert _fuller_of(["InternLM2-7B"], tables={"internlm 7b"})("InternLM-7B") == "InternLM-7B"
    assert _fuller_of(["Llama2-7B"], tables={"llama 7b"})("Llama-7B") == "Llama-7B"
    # (in prose, after the post names the model in full: that model said short)
    assert _fuller_of(["Llama3-8B"])("Llama 8B") == "Llama3-8B"
    assert _fuller_of(["Llama 3 70B"])("Llama 70B") == "Llama 3 70B"
    assert _fuller_of(["Mistral-7B-Instruct-v0.3"])("Mistral-7B") == "Mistral-7B-Instruct-v0.3"


def test_a_spread_in_percent_of_a_value_is_in_the_value_s_unit():
    """llama-bench's "23752.94 ± 10.7%" (h541) and "180.28 ms ± 5%": a spread relative to a value
    no share can be, in the value's unit; "72.5 ± 3.1%" stays a share and its spread."""
    (a,) = numbers("23752.94 ± 10.7%")
    assert (a.text, a.unit, a.spread) == ("23752.94", None, "2541.6")
    (b,) = numbers("180.28 ms ± 5%")
    assert (b.text, b.unit, b.spread) == ("180.28", "ms", "9.014")
    (c,) = numbers("72.5 ± 3.1%")
    assert (c.text, c.unit, c.spread) == ("72.5", "%", "3.1")


_RATIO_TABLE = """### Q8_0

| test | single-token | batched (b=512) | llama.cpp | batched ratio |
|---|---:|---:|---:|---:|
| pp512 | 196.53 | **7764.35** | 23752.94 ± 10.7% | **0.327** |
| pp512 @ d2048 | 184.91 | **3466.59** | 21724.37 ± 6.7% | 0.160 |
| tg128 | 200.42 | 197.40 | 236.77 | 0.834 |
"""


def test_a_ratio_column_of_a_table_of_tests_relates_the_pair_it_fits(tmp_path):
    """A "batched ratio" column beside three engines' columns (h541, a table read with its tests as
    rows): each cell a ratio statement of the one pair of its row's cells whose quotient it is
    (7764.35 / 23752.94 = 0.327), never a rate; the tests' depths, 0 where "@ d" is not written
    beside one that is."""
    cf = _drafted(_RATIO_TABLE, tmp_path)
    assert 0.327 not in [c.value for c in cf.claims]
    by_id = {c.id: c for c in cf.claims}
    got = [(s.kind, s.value, s.unit, [by_id[x].value for x in s.of]) for s in cf.statements]
    assert got == [
        ("ratio", 0.327, "x", [7764.35, 23752.94]),
        ("ratio", 0.16, "x", [3466.59, 21724.37]),
        ("ratio", 0.834, "x", [197.4, 236.77]),
    ]
    depths = {(c.value, _cond(cf, c).get("depth")) for c in cf.claims}
    assert {(196.53, 0), (184.91, 2048), (200.42, 0)} <= depths
    spread = next(c for c in cf.claims if c.value == 23752.94)
    assert (spread.unit, spread.spread) == ("t/s", 2541.6)
    # (a rate of 100 or less with its spread in % under the same columns: "85.30 ± 4.1%", a breaker's)
    cf = _drafted(
        "| test | ours | llama.cpp |\n|---|---:|---:|\n| tg128 | 197.40 | 85.30 ± 4.1% |\n", tmp_path
    )
    assert [(c.value, c.unit, c.spread) for c in cf.claims] == [(197.4, "t/s", None), (85.3, "t/s", 3.4973)]


def test_a_test_s_depth():
    """llama-bench names a test at depth 0 without "@ d" (``test::name()``)."""
    assert _test_depth("pp512 @ d2048", []) == 2048
    assert _test_depth("pp512", ["pp512 @ d2048", "tg128"]) == 0
    assert _test_depth("pp512", ["tg128"]) is None
    assert _test_depth("Qwen3-8B", ["pp512 @ d2048"]) is None


def test_a_number_naming_a_gate_is_a_limit_no_result(tmp_path):
    """ "exceed the 10% gate" (h541), "a 200 ms SLO": limits set for the runs, listed; a share
    measured stays a claim."""
    cf = _drafted(
        "The spreads exceed the 10% gate, within the 200 ms SLO. GPU busy 95% of the time.", tmp_path
    )
    assert _values(cf) == [("gpu_utilization", 95, "%")]
    assert [u.number for u in cf.draft.unplaced] == ["10", "200"]


def test_statistics_before_their_numbers(tmp_path):
    """ "avg 1611.47ms, std 143.69ms, p95 1795.47ms, p999 2068.31ms" (h540) and "mean TTFT 1611 ms,
    P99 TTFT 2000 ms": each number the statistic before it; a rate with none before it has none."""
    cf = _drafted(
        "TTFT: avg 1611.47ms, std 143.69ms, p95 1795.47ms, p999 2068.31ms\n\n"
        "mean TTFT 1611 ms, P99 TTFT 2000 ms\n\nDecode ran at 40 tok/s.",
        tmp_path,
    )
    got = [(c.value, (_cond(cf, c).get("other") or {}).get("stat")) for c in cf.claims]
    assert got == [
        (1611.47, "mean"),
        (143.69, "std"),
        (1795.47, "p95"),
        (2068.31, "p999"),
        (1611, "mean"),
        (2000, "p99"),
        (40, None),
    ]


def test_a_code_line_of_statistics_under_its_head_label(tmp_path):
    """A script's "Batch 64: 16 batches, total …ms, avg …ms, std …ms, p95 …ms" lines in a fence
    (h540): every time a claim, each with the head label's setting however far from it."""
    cf = _drafted(
        "sglang:\n```\n"
        "Batch 64: 16 batches, total 25783.48ms, avg 1611.47ms, std 143.69ms, p95 1795.47ms, p999 2068.31ms\n"
        "Batch 128: 8 batches, total 12996.97ms, avg 1624.62ms, std 33.60ms, p95 1673.05ms, p999 1675.57ms\n"
        "```\n",
        tmp_path,
    )
    got = [(c.value, c.unit, _cond(cf, c).get("concurrency")) for c in cf.claims]
    assert got == [
        (25783.48, "ms", 64),
        (1611.47, "ms", 64),
        (143.69, "ms", 64),
        (1795.47, "ms", 64),
        (2068.31, "ms", 64),
        (12996.97, "ms", 128),
        (1624.62, "ms", 128),
        (33.6, "ms", 128),
        (1673.05, "ms", 128),
        (1675.57, "ms", 128),
    ]
    assert [(_cond(cf, c).get("other") or {}).get("stat") for c in cf.claims[:5]] == [
        None,
        "mean",
        "std",
        "p95",
        "p999",
    ]


def test_a_share_per_item_in_parentheses_takes_the_total_s_unit():
    """ "46.961 s (2.935 per prompt)" (h544): 2.935 s a prompt; a bare "(2.935)" stays unitless."""
    got = [(n.text, n.unit) for n in numbers("Prefill model call: 46.961 s (2.935 per prompt)")]
    assert got == [("46.961", "s"), ("2.935", "s")]
    assert [(n.text, n.unit) for n in numbers("Prefill: 46.961 s (2.935)")] == [
        ("46.961", "s"),
        ("2.935", None),
    ]


def test_a_multiple_whose_other_side_no_claim_carries_is_a_claim(tmp_path):
    """ "A Q4_K_M 7B model is roughly 2x faster than a Q8_0 7B model" (h545) beside rates of "a 7B
    model" in no quant: the words both sides share (7B) name neither side, so no claim is a side:
    a speedup claim, about 2."""
    cf = _drafted(
        "An RTX 3070 typically achieves 40 t/s on a 7B model. A CPU does 10 t/s on a 7B model.\n\n"
        "A Q4_K_M 7B model is roughly 2x faster than a Q8_0 7B model on the same hardware.",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit, c.about) for c in cf.claims][-1] == ("speedup", 2, "x", True)
    assert cf.statements == []


def test_a_laptop_cpu_s_suffix_is_no_hours():
    """ "ryzen 5 4600h" (h542) is a CPU, its number no 4600 hours; "took 4600h" is hours."""
    assert all(n.unit is None for n in numbers("rest on cpu, ryzen 5 4600h on a laptop"))
    assert CPU.search("Ryzen 7 7840HS").group(0) == "Ryzen 7 7840HS"
    assert [(n.text, n.unit) for n in numbers("the job took 4600h")] == [("4600", "h")]


def test_settings_separated_by_dashes_one_line_per_run(tmp_path):
    """ "Llama.cpp - ngl-17, t-6, context length - 2048, generation speed- 4.37 t/s" over a
    koboldcpp line (h542): each line its own run, its settings after dashes; "15 layers offloaded"
    is a setting, no claim."""
    cf = _drafted(
        "This is with a 7b model, 15 layers offloaded to gtx 1650.\n\n"
        "Llama.cpp - ngl-17, t-6, context length - 2048, generation speed- 4.37 t/s\n"
        "koboldcpp - ngl - 24, t - 6, context length - 2048, gen speed -  3.2 t/s (using clblast)\n",
        tmp_path,
    )
    got = [
        (
            c.value,
            _cond(cf, c).get("engine"),
            (_cond(cf, c).get("offload") or {}).get("n_gpu_layers"),
            _cond(cf, c).get("ctx"),
        )
        for c in cf.claims
    ]
    assert got == [(4.37, "llama.cpp", 17, 2048), (3.2, "KoboldCpp", 24, 2048)]


def test_a_column_of_good_values_and_a_guide_s_reading_are_no_results(tmp_path):
    """A "Good value" column (h545: "50+ t/s typical", "<5s on SSD") holds a scale's thresholds, no
    bound statements; "Running at 2–5 t/s usually means VRAM overflow" reads a figure, no run's."""
    cf = _drafted(
        "| Metric | What it measures | Good value |\n|---|---|---|\n"
        "| prompt eval rate | Input processing speed | 50+ t/s typical |\n"
        "| load duration | Time to load model into memory | <5s on SSD |\n\n"
        "Running at 2–5 t/s usually means VRAM overflow. My run gave 31 t/s, which means it fits.",
        tmp_path,
    )
    assert cf.statements == []
    assert _values(cf) == [("decode_tps", 31, "t/s")]


def test_a_batch_in_a_setup_line(tmp_path):
    """ "Context: 32k tokens, batch 512" (a breaker's case): the batch too, a serving engine's
    concurrency where no llama.cpp engine is named (``serving_batch``), llama.cpp's batch under
    llama-server; a batch told in a sentence sets none."""
    cf = _drafted("Context: 32k tokens, batch 512\n\nDecode ran at 41.2 tok/s.", tmp_path)
    (c,) = cf.claims
    assert (_cond(cf, c).get("ctx"), _cond(cf, c).get("concurrency")) == (32768, 512)
    cf = _drafted("Setup: llama-server, n_batch = 2048\n\nDecode ran at 41.2 tok/s.", tmp_path)
    (c,) = cf.claims
    assert (_cond(cf, c).get("engine"), _cond(cf, c).get("batch")) == ("llama.cpp", 2048)
    # (a batch in a story is no setting of the runs: a breaker's)
    cf = _drafted(
        "I tried batch 256 once and it ran out of memory.\n\n## Results\n\nLlama 3 8B decodes at 95 tok/s.",
        tmp_path,
    )
    (c,) = cf.claims
    assert "concurrency" not in _cond(cf, c) and "batch" not in _cond(cf, c)


def test_a_ratio_row_that_fits_no_pair_is_listed(tmp_path):
    """Control: a "Compression ratio" row of a table of metrics as rows (no relating word beside
    "ratio") is each codec's setting: no statement, no claim in x; the table's rates stay claims."""
    cf = _drafted(
        "| Metric | codec a | codec b | codec c |\n|---|---|---|---|\n"
        "| Decode t/s | 40.0 | 35.0 | 20.0 |\n| Prefill t/s | 400.0 | 350.0 | 300.0 |\n"
        "| Compression ratio | 2.5 | 3.1 | 4.4 |\n",
        tmp_path,
    )
    assert cf.statements == []
    assert not [c for c in cf.claims if c.unit == "x"]
    assert sorted(c.value for c in cf.claims) == [20.0, 35.0, 40.0, 300.0, 350.0, 400.0]
    assert [(_cond(cf, c).get("other") or {}).get("compression_ratio") for c in cf.claims[:3]] == [
        "2.5",
        "3.1",
        "4.4",
    ]


def test_a_list_item_s_label_names_the_phase_of_its_rates(tmp_path):
    """ "- Prompt processing (prefill phase): ROCm dominates. … ROCm hits ~1052 t/s at 2K" (h307):
    the rates of the item, no phase word near them, are its label's phase; a line's own label
    comes first ("Generation speed : 93 tokens per second" under a prompt line, h201)."""
    cf = _drafted(
        "- Token generation (decode phase): Vulkan leads. Vulkan starts at ~57.5 t/s.\n\n"
        "- Prompt processing (prefill phase): ROCm dominates. ROCm hits ~1052 t/s at 2K context.\n",
        tmp_path,
    )
    assert _values(cf) == [("decode_tps", 57.5, "t/s"), ("prefill_tps", 1052, "t/s")]
    cf = _drafted(
        "Prompt evaluation speed : 4668 tokens per second\nGeneration speed : 93 tokens per second\n",
        tmp_path,
    )
    assert [c.metric for c in cf.claims] == ["prefill_tps", "decode_tps"]


def test_a_heading_naming_a_latency_names_its_section_s_times(tmp_path):
    """ "### 2.2 延迟对比(P99)" over "vLLM 82ms vs SGLang 65ms" (h473), a title "Slower TTFT
    Performance" over a fence of "avg …ms, p95 …ms" (h540): those times are its latency or TTFT;
    a total, a load, and times under another heading keep their own; a heading of "loaders" names
    no load time (p90)."""
    cf = _drafted(
        "# Slower TTFT Performance Compared to vLLM\n\n"
        "```\nBatch 64: 16 batches, total 25783.48ms, avg 1611.47ms, p95 1795.47ms\n```\n\n"
        "### Latency (P99)\n\n- short: vLLM 82ms vs SGLang 65ms\n",
        tmp_path,
    )
    assert [(c.metric, c.value) for c in cf.claims] == [
        ("duration", 25783.48),
        ("ttft", 1611.47),
        ("ttft", 1795.47),
        ("latency", 82),
        ("latency", 65),
    ]
    cf = _drafted("# Add ExLlamaV2 loaders\n\nOutput generated in 8.11 seconds (24.65 tokens/s)\n", tmp_path)
    assert [c.metric for c in cf.claims if c.unit == "s"] == ["duration"]


def test_the_breaker_s_controls_of_session_69(tmp_path):
    """Controls a breaker found the session's kinds broke, each right again: a card's name is no
    percentile ("Tesla P40: 12.5 tok/s"); a result measured against an SLO is a result ("92% SLO
    attainment"); a change and its spread in points ("improved by 120 ± 15%"); a count "(4 per
    batch)" is no share of a time; targets in a config fence are no results; a desktop card is no
    laptop part the post names elsewhere; a result that "probably means" something is a result."""
    cf = _drafted("Tesla P40: 12.5 tok/s, Tesla P100: 20.1 tok/s.", tmp_path)
    assert [(_cond(cf, c).get("other") or {}).get("stat") for c in cf.claims] == [None, None]
    cf = _drafted("vLLM reaches 92% SLO attainment at 4 req/s, and TTFT was 200 ms SLO-compliant.", tmp_path)
    assert [c.value for c in cf.claims if c.unit != "req/s"] == [92, 200]
    (n,) = numbers("decode throughput improved by 120 ± 15% over plain decoding")
    assert (n.text, n.unit, n.spread) == ("120", "%", "15")
    assert [(n.text, n.unit) for n in numbers("We ran 16 prompts in 46.961 s (4 per batch).")][1:] == [
        ("46.961", "s"),
        ("4", None),
    ]
    cf = _drafted("config:\n```yaml\nslo:\n  tpot: avg 20ms, p99 50ms\n```\n", tmp_path)
    assert cf.claims == [] and [u.number for u in cf.draft.unplaced] == ["20", "50"]
    cf = _drafted("My laptop has a 3060 Laptop. On my desktop RTX 3060 I got 30 tok/s.", tmp_path)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["NVIDIA GeForce RTX 3060"]
    cf = _drafted("On my 3090, Qwen3-32B Q8 gave 4 t/s, which probably means it spilled into RAM.", tmp_path)
    assert [c.value for c in cf.claims] == [4]


def test_a_change_claim_takes_its_subject_s_names_not_the_other_side_s(tmp_path):
    """ "The 4090 is 1.6x faster than the 3090" with only the 4090's rate stated (a breaker's): a
    speedup claim of the 4090, never the 3090's; "EAGLE-3 … is 2.1x faster than plain decoding":
    the speculative run's."""
    cf = _drafted(
        "Llama 3 8B decodes at 90 tok/s on the 4090. The 4090 is 1.6x faster than the 3090 with the "
        "same model.",
        tmp_path,
    )
    (s,) = [c for c in cf.claims if c.metric == "speedup"]
    assert (s.value, _cond(cf, s).get("hardware")) == (1.6, "NVIDIA GeForce RTX 4090")
    cf = _drafted(
        "With EAGLE-3 on Llama 3 8B we got 160 tok/s. EAGLE-3 on Llama 3 8B is 2.1x faster than plain "
        "decoding on Llama 3 8B.",
        tmp_path,
    )
    (s,) = [c for c in cf.claims if c.metric == "speedup"]
    assert (s.value, _cond(cf, s).get("decoding")) == (2.1, "speculative")


def test_a_breaker_s_near_misses_of_session_69(tmp_path):
    """A rate key with a statistic after its unit ("gen_tok_s_mean") is a rate, the statistic a
    condition; a Jetson's memory is kept beside its JetPack; a limit named before its number ("Our
    TTFT SLO of 200 ms") is no result; a Target column beside an Achieved one holds no results
    (a "Target" alone may be speculative decoding's target model)."""
    assert _header_unit("gen_tok_s_mean") == "tok/s" and _header_unit("req_s_mean") == "req/s"
    assert header_settings("ttft_ms_p99") == {"other.stat": "p99"}
    assert hardware_of("Jetson AGX Orin 64GB, JetPack 6.1") == "NVIDIA Jetson AGX Orin 64GB"
    cf = _drafted("Our TTFT SLO of 200 ms was met. The latency budget is 50 ms. TTFT was 180 ms.", tmp_path)
    assert _values(cf) == [("ttft", 180, "ms")]
    cf = _drafted(
        "| Metric | Baseline | Target | Achieved |\n|---|---|---|---|\n| Decode t/s | 40 | 60 | 65 |\n",
        tmp_path,
    )
    assert sorted(c.value for c in cf.claims) == [40, 65]
    assert [u.number for u in cf.draft.unplaced] == ["60"]
    cf = _drafted("| Setup | Draft | Target |\n|---|---|---|\n| EAGLE | 310 tok/s | 95 tok/s |\n", tmp_path)
    assert sorted(c.value for c in cf.claims) == [95, 310]


def test_a_standard_deviation_in_parentheses_is_the_value_s_spread(tmp_path):
    """ "45.2 tok/s (std 0.3 tok/s) over 5 runs" (a breaker's): 0.3 is 45.2's spread, no claim of
    its own; a statistic listed beside others ("avg 1611.47ms, std 143.69ms") stays one."""
    cf = _drafted("Decode was 45.2 tok/s (std 0.3 tok/s) over 5 runs. TTFT 120 ms (sd 4).", tmp_path)
    assert [(c.value, c.unit, c.spread) for c in cf.claims] == [(45.2, "tok/s", 0.3), (120, "ms", 4)]
    assert [(n.text, n.spread) for n in numbers("avg 1611.47ms, std 143.69ms")] == [
        ("1611.47", None),
        ("143.69", None),
    ]


def test_a_model_s_version_digit_is_no_number_to_place(tmp_path):
    """ "Llama 3 8B decodes at 90 tok/s" (a breaker's post): the 3 is the model's name, not listed
    as a number the drafter could not place, as a card's "RTX 3090" is not; a bare count still is."""
    cf = _drafted("Llama 3 8B decodes at 90 tok/s on the 4090. Then we ran it 7 more times.", tmp_path)
    assert [u.number for u in cf.draft.unplaced] == ["7"]
    assert _values(cf)[0] == ("decode_tps", 90, "tok/s")

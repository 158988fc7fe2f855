"""Metric confusions and relations left untied by `benchbook claims draft` (issue 29, the draft corpus's
statements): a table's statistic columns beside a latency column (p139), a listed "T s, N tokens, R
tok/s" (p133), a leading "×3.3" in table rows read as prose and "×6 faster" between two times (p161)."""

from __future__ import annotations

from benchbook.audit.draft import draft_text
from benchbook.audit.draftprose import numbers


def _claims(d) -> dict[str, dict]:
    """value (or range) -> the claim's fields with its group's metric and unit filled in."""
    groups = {g.id: g.fields for g in d.groups}
    out = {}
    for e in d.entries:
        if e.kind != "claim":
            continue
        f = {**groups.get(e.group, {}), **e.fields} if e.group else dict(e.fields)
        out[str(f.get("value") or "–".join(f.get("range") or ()))] = f
    return out


def _statements(d) -> list[dict]:
    return [e.fields for e in d.entries if e.kind == "statement"]


def _of(d, s: dict) -> list[str]:
    """The values of the claims a statement cites."""
    by_id = {f["id"]: v for v, f in _claims(d).items()}
    return [by_id[c] for c in s["of"]]


_P139 = """## 結果一覧

| プロバイダー | モデル | 平均レイテンシ | 標準偏差 | 最小/最大 |
|---|---|---|---|---|
| Ollama (ローカル) | qwen2.5:3b | 0.368秒 | 0.079秒 | 0.291〜0.450秒 |
| Ollama (ローカル) | qwen2.5:7b | 0.817秒 | 0.460秒 | 0.409〜1.317秒 |
"""


def test_a_latency_header_in_japanese_and_its_statistic_columns_are_latency():
    claims = _claims(draft_text(_P139, "post.md"))
    for v in ("0.368", "0.817", "0.079", "0.460", "0.291–0.450", "0.409–1.317"):
        assert claims[v]["metric"] == "latency", v


def test_statistic_columns_beside_an_english_latency_column_are_latency():
    text = "| Model | Mean latency | Std | Min / Max |\n|---|---|---|---|\n"
    text += "| a | 1.5 s | 0.2 s | 1.2–1.9 s |\n"
    claims = _claims(draft_text(text, "post.md"))
    assert [claims[v]["metric"] for v in ("1.5", "0.2", "1.2–1.9")] == ["latency"] * 3


def test_statistic_columns_beside_a_duration_stay_durations_control():
    text = "| Model | Total time | Std |\n|---|---|---|\n| a | 12.5 s | 0.4 s |\n"
    claims = _claims(draft_text(text, "post.md"))
    assert [claims[v]["metric"] for v in ("12.5", "0.4")] == ["duration", "duration"]


def test_a_listed_time_count_and_rate_is_a_ratio_statement():
    text = (
        " * With exllamv2 I get my sample response in:  **35.44 seconds, 150 tokens, 4.23 tokens/second**\n"
        " * With lama-cpp-python I get the same response in **9.6 seconds, 232 tokens, 22,9 tokens/second**\n"
    )
    d = draft_text(text, "post.md")
    got = sorted((s["value"], _of(d, s), s["unit"]) for s in _statements(d))
    assert got == [("22.9", ["232", "9.6"], "tok/s"), ("4.23", ["150", "35.44"], "tok/s")]
    assert all(s["kind"] == "ratio" for s in _statements(d))


def test_three_listed_figures_that_do_not_divide_are_no_statement_control():
    d = draft_text("Results: 10 seconds, 150 tokens, 50 tok/s.\n", "post.md")
    assert _statements(d) == []
    assert {"10", "150", "50"} <= set(_claims(d))


def test_a_leading_multiplication_sign_is_a_multiple():
    assert [(n.text, n.unit) for n in numbers("vLLM 98 tok/s cumulative · ×3.3 |")] == [
        ("98", "tok/s"),
        ("3.3", "x"),
    ]
    assert [(n.text, n.unit) for n in numbers("(×2)")] == [("2", "x")]
    # a product of a size and a count, a count of devices: no multiple
    assert [(n.text, n.unit) for n in numbers("12GB × 2 cards")] == [("12", "GB"), ("2", None)]
    assert [(n.text, n.unit) for n in numbers("2 × 3090")][-1][1] is None


_P161 = """## 4 concurrent users

| Llama 3.3 70B Q4 · 2× RTX 5090 | Ollama 30 tok/s cumulative | vLLM 98 tok/s cumulative · ×3.3 |
| Qwen 3 30B MoE · 1× RTX 5090 | Ollama 46 tok/s cumulative | vLLM 156 tok/s cumulative · ×3.4 |

## 10 concurrent users

| Llama 3.3 70B Q4 · 2× RTX 5090 | Ollama 47s P95 latency | vLLM 8s P95 · ×6 faster |
| Qwen 3 30B MoE · 1× RTX 5090 | Ollama 32s P95 latency | vLLM 5s P95 · ×6 faster |
"""


def test_rows_read_as_prose_relate_their_own_cells():
    d = draft_text(_P161, "post.md")
    got = [(s["source_line"], s["value"], _of(d, s)) for s in _statements(d)]
    assert got == [
        (3, "3.3", ["98", "30"]),
        (4, "3.4", ["156", "46"]),
        (8, "6", ["47", "8"]),
        (9, "6", ["32", "5"]),
    ]
    claims = _claims(d)
    # "47s P95 latency": the word after the percentile names it
    assert [claims[v]["metric"] for v in ("47", "8", "32", "5")] == ["latency"] * 4


_P127 = """Version 0.7.0 is 3 times slower compared to 0.6.8 using **gemma3:27b-it-qat**

```
0.7.0:
eval count:           74 token(s)
eval duration:        5.657106746s
eval rate:            13.08 tokens/s

0.6.8:
eval count:           63 token(s)
eval duration:        1.748827692s
eval rate:            36.02 tokens/s
```
"""


def test_a_multiple_above_the_two_rates_it_relates_cites_them():
    d = draft_text(_P127, "post.md")
    (s,) = [s for s in _statements(d) if s["unit"] == "x"]
    assert (s["kind"], s["value"], s["source_line"], _of(d, s)) == ("ratio", "3", 1, ["36.02", "13.08"])
    assert not [c for c in _claims(d).values() if c["metric"] in ("speedup", "slowdown")]


def test_a_multiple_with_no_pair_below_it_stays_a_claim_control():
    text = "MLX is nearly 2x faster than llama.cpp on my M2.\n\nllama.cpp: 31.7 tok/s\n\nMLX: 35.6 tok/s\n"
    d = draft_text(text, "post.md")  # 35.6 / 31.7 = 1.12: not the stated 2
    assert [(c["metric"], c["value"]) for c in _claims(d).values() if c["unit"] == "x"] == [("speedup", "2")]
    assert [s for s in _statements(d) if s["unit"] == "x"] == []


def test_an_unsigned_percentage_after_an_arrow_pair_it_is_the_gain_of():
    text = "**Dual RTX 3060 Ti (16 GB VRAM) MTP ceiling** — 75 → 100 tok/s (33% cap), bandwidth-limited\n"
    d = draft_text(text, "post.md")
    (s,) = _statements(d)
    assert (s["kind"], s["value"], s["unit"], _of(d, s)) == ("percent_change", "33", "%", ["75", "100"])
    assert "33" not in _claims(d)


def test_an_unsigned_percentage_that_is_no_gain_of_the_pair_stays_control():
    d = draft_text("Decode went 75 → 100 tok/s (60% of the card's peak).\n", "post.md")
    assert [s for s in _statements(d) if s.get("kind") == "percent_change" and s.get("of")] == []


_P160 = """| Metric | Ollama Q6_K | vLLM NVFP4 |
|---|---|---|
| Token generation speed | 161 tok/s | 68 tok/s |
| Time to first token (TTFT) | 132 ms | 18 ms |
| Total time (256 tokens) | 1.6s | 3.8s |

For a single user, Ollama is 2.4x faster in raw token generation.

vLLM has faster TTFT due to its optimized prefill pipeline, but this advantage is irrelevant when
total generation time is 2x longer.
"""


def test_a_time_said_longer_relates_times_not_the_rates_ratio_rounded():
    d = draft_text(_P160, "post.md")
    got = sorted((s["value"], _of(d, s)) for s in _statements(d))
    assert got == [("2", ["3.8", "1.6"]), ("2.4", ["161", "68"])]


_P155 = """# Add RTX 3090 row on b10450: 41.3 -> 63.5 (+54%)

| config | tok/s |
|---|---|
| baseline (no spec) | 41.3 mean / 41.4 median |
| `--spec-type draft-mtp --spec-draft-n-max 2` | 63.5 mean / 65.0 median |
"""


def test_a_change_of_a_bare_pair_in_a_title_cites_the_table_below():
    d = draft_text(_P155, "post.md")
    (s,) = [s for s in _statements(d) if s["unit"] == "%"]
    got = (s["kind"], s["value"], s["source_line"], _of(d, s))
    assert got == ("percent_change", "54", 1, ["41.3", "63.5"])
    assert not [c for c in _claims(d).values() if c["unit"] == "%"]


def test_a_change_the_bare_pair_does_not_give_stays_a_claim_control():
    d = draft_text(_P155.replace("(+54%)", "(+40%)"), "post.md")  # 63.5 / 41.3 - 1 = 53.8%
    assert [(c["value"], c["unit"]) for c in _claims(d).values() if c["unit"] == "%"] == [("40", "%")]


def test_first_token_latency_and_initial_delay_are_ttft():
    claims = _claims(draft_text("First token latency: 720–980 ms\n", "post.md"))
    assert claims["720–980"]["metric"] == "ttft"
    text = "| CPU型号 | 初始延迟 (ms) | 生成速度 (TPS) |\n|---|---|---|\n| Intel i7-12700K | 890 | 6.8 |\n"
    claims = _claims(draft_text(text, "post.md"))
    assert (claims["890"]["metric"], claims["6.8"]["metric"]) == ("ttft", "decode_tps")
    # a latency alone stays latency (control)
    assert _claims(draft_text("P95 latency: 47 s\n", "post.md"))["47"]["metric"] == "latency"


_P132 = """Here are some benchmark on a 13B GPTQ (128g) with a 6700 XT:

 -- Measuring prompt speed...
 ** Length   128 tokens:    355.7812 t/s
 ** Length   512 tokens:    670.5597 t/s
 -- Measuring token speed...
 ** Position     1 + 127 tokens:   35.9594 t/s
 -- Inference, first pass.
 ** Time, Inference: 1.35 seconds
 ** Speed: 1423.20 tokens/second
 -- Generating 128 tokens...
 ** Speed: 36.62 tokens/second
"""


def test_exllama_prompt_speed_sections_are_prefill():
    claims = _claims(draft_text(_P132, "post.md"))
    got = {v: claims[v]["metric"] for v in ("355.7812", "670.5597", "35.9594", "1423.20", "36.62")}
    assert got == {
        "355.7812": "prefill_tps",
        "670.5597": "prefill_tps",
        "35.9594": "decode_tps",
        "1423.20": "prefill_tps",
        "36.62": "decode_tps",
    }


def test_gpu_memory_in_korean_and_japanese_is_vram():
    text = "| Model | GPU 메모리 사용 |\n|---|---|\n| google/gemma-3-4b-it | 약 13~14GB |\n"
    assert _claims(draft_text(text, "post.md"))["13–14"]["metric"] == "vram"
    claims = _claims(draft_text("GPUメモリは12GB中10.1GBが専用メモリとして使用されている。\n", "post.md"))
    assert claims["10.1"]["metric"] == "vram"
    # memory of no named kind stays memory_used (control)
    assert _claims(draft_text("内存占用 13 GB\n", "post.md"))["13"]["metric"] == "memory_used"


def test_a_rate_said_cumulative_is_throughput():
    claims = _claims(draft_text(_P161, "post.md"))
    assert [claims[v]["metric"] for v in ("30", "98", "46", "156")] == ["throughput"] * 4
    # one stream's rate with no such word stays decode_tps (control)
    assert _claims(draft_text("Ollama 28 tok/s, vLLM 32 tok/s.\n", "post.md"))["28"]["metric"] == "decode_tps"


def _metric_of(text: str, value: str) -> str:
    return _claims(draft_text(text, "post.md"))[value]["metric"]


def test_changes_of_memory_latency_and_tpot_are_not_speed_changes():
    text = "而llama.cpp 在同等模型参数下,通过4级量化可使推理速度提升2.3倍,内存占用减少65%。\n"
    assert _metric_of(text, "-65") == "memory_change"
    text = "在端侧设备实测中,Ollama(基于llama.cpp )的推理延迟比原生llama.cpp 降低50%。\n"
    assert _metric_of(text, "-50") == "latency_change"
    assert _metric_of("Speculative decoding gave 40% lower TPOT on the W7900.\n", "-40") == "tpot_change"
    # a change of speed stays speed_change (control)
    assert _metric_of("FastAttentionは10%程度高速化した。\n", "10") == "speed_change"


def test_speculative_decoding_is_no_decode_phase_of_a_change():
    text = "Speculative decoding can speed up LLM inference by 50-80%, but only with the right draft.\n"
    assert _metric_of(text, "50–80") == "speed_change"


def test_outperforms_and_performance_words_make_a_speed_change():
    text = "TP=2 on a NVLink-bonded pair outperforms TP=4 across all four cards (+25% at concurrency 1).\n"
    assert _metric_of(text, "25") == "speed_change"
    assert _metric_of("전반적으로 M5는 M4 대비 19~27% 성능 향상을 보였다.\n", "19–27") == "speed_change"
    text = "`--split-mode row` - increases inference speeds using multiple P40s by about 30%\n"
    assert _metric_of(text, "30") == "speed_change"


def test_a_word_ending_in_a_verb_of_change_is_no_change():
    text = "Code sees ~66% acceptance (1.53x speedup); long-form prose ~31% (effectively no gain).\n"
    d = draft_text(text, "post.md")
    assert not [c for c in _claims(d).values() if str(c.get("metric")).endswith("_change")]


def test_a_change_of_throughput_is_throughput_change():
    text = "On our workstation card, speculative decoding gives ~60% higher throughput overall.\n"
    assert _metric_of(text, "60") == "throughput_change"
    assert _metric_of("Decode throughput is 4% lower on the new build.\n", "-4") == "decode_change"  # control


def test_a_rate_written_eff_tok_s_is_effective_tps():
    assert _metric_of("oMLX reached 38.0 eff tok/s on the long prompt.\n", "38.0") == "effective_tps"
    assert _metric_of("oMLX reached 38.0 tok/s on the long prompt.\n", "38.0") == "decode_tps"  # control


def test_an_acceptance_labelled_before_a_colon_is_an_acceptance_rate():
    text = "- 512-token, 100% acceptance: 37.19 -> 79.39 tok/s (**2.135x**)\n"
    claims = _claims(draft_text(text, "post.md"))
    assert claims["100"]["metric"] == "acceptance_rate"
    assert claims["37.19"]["metric"] == "decode_tps"


_P126 = """先日の結果は 12.64トークン/秒 でした。

| モデル | 期待速度 | 改善倍率 |
|---|---|---|
| MacBook Pro M4 Max(128GB) | 95トークン/秒 | 7.5倍 |
| ゲーミングノート(RTX4080) | 90-100トークン/秒 | 7-8倍 |
"""


def test_a_range_of_multiples_in_a_relating_column_is_a_statement():
    d = draft_text(_P126, "post.md")
    got = [(s.get("value"), s.get("range"), _of(d, s)) for s in _statements(d)]
    assert got == [("7.5", None, ["95", "12.64"]), (None, ["7", "8"], ["90–100", "12.64"])]

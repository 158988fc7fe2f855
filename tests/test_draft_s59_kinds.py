"""Kinds fixed in issue 29's session 59 (read from the thirty-sixth held-out set's misses, h426–h435,
once a thirty-seventh set replaced it as the clean one), each with controls: llama-server's
``timings`` object pasted as JSON lost its draft counts and its eval fields' tokens; a chat request's
user message was no prompt; a serving benchmark's summary pasted without a fence (its closing rule
making a setext heading) was read as a heading's prose; "* Mainline" over a table named no engine; a
"draft-n-max" column set no draft size, its "none" row no plain decoding, and a "draft rate" column
of fractions was no acceptance."""

from __future__ import annotations

from benchbook.audit.draftnames import heading_engine
from benchbook.audit.draftwords import REQUEST_SETTINGS
from benchbook.audit.post import blocks_of
from benchbook.audit.toollines import server_timings, tool_results
from drafting import conditions as _cond
from drafting import drafted as _drafted

_TIMINGS = """\
# Draft stats in the timings

```
$ curl -s http://localhost:8080/v1/chat/completions \\
    -d '{"max_tokens":128, "messages": [{"role": "system", "content": "be brief"},
    {"role": "user","content": "tell me about cats"}]}' | jq .timings

{
  "prompt_n": 12,
  "prompt_ms": 95.5,
  "prompt_per_token_ms": 7.958,
  "prompt_per_second": 125.65,
  "predicted_n": 128,
  "predicted_ms": 4096.0,
  "predicted_per_token_ms": 32.0,
  "predicted_per_second": 31.25,
  "draft_n": 210,
  "draft_n_accepted": 97
}
```
"""


def test_llama_server_timings_json_is_read_field_by_field_with_its_counts(tmp_path):
    """Each field of the timings object is a claim in the metric llama-server's own name gives
    (prompt_ms the prompt eval time, predicted_ms the eval time, draft_n/draft_n_accepted the draft's
    counts), predicted_n the tokens generated of the eval fields, prompt_n the prompt's tokens."""
    cf = _drafted(_TIMINGS, tmp_path)
    got = {(c.metric, c.value): c for c in cf.claims}
    assert sorted(got) == sorted(
        [
            ("prompt_eval_ms", 95.5),
            ("ms_per_token", 7.958),
            ("prefill_tps", 125.65),
            ("eval_ms", 4096.0),
            ("ms_per_token", 32.0),
            ("decode_tps", 31.25),
            ("draft_tokens", 210),
            ("accepted_tokens", 97),
        ]
    )
    eval_ms = _cond(cf, got[("eval_ms", 4096.0)])
    assert eval_ms["tokens_generated"] == 128
    assert _cond(cf, got[("accepted_tokens", 97)])["tokens_generated"] == 128
    prefill = _cond(cf, got[("prefill_tps", 125.65)])
    assert prefill["other"]["prompt_tokens"] == 12 and "tokens_generated" not in prefill
    assert _cond(cf, got[("ms_per_token", 32.0)])["other"]["phase"] == "eval"
    assert _cond(cf, got[("ms_per_token", 7.958)])["other"]["phase"] == "prompt eval"
    # the chat body's user message is the prompt (not the system message)
    assert {_cond(cf, c).get("prompt") for c in cf.claims} == {"tell me about cats"}


def test_compact_timings_of_two_requests_on_one_line_keep_their_own_counts():
    """Compact JSON (no jq) with two requests' objects on one line: each object's fields with its own
    predicted_n; a zero time (a phase that did not run) is no result; one lone field is no object."""
    line = (
        '{"timings":{"prompt_n":0,"prompt_ms":0,"predicted_n":50,"predicted_ms":1000.5,'
        '"draft_n":40}} {"timings":{"predicted_n":20,"predicted_ms":300.0,"draft_n_accepted":7}}'
    )
    got = server_timings([(3, line)])[3]
    assert [(r.metric, r.value, r.conditions.get("tokens_generated")) for r in got] == [
        ("eval_ms", "1000.5", 50),
        ("draft_tokens", "40", 50),
        ("eval_ms", "300.0", 20),
        ("accepted_tokens", "7", 20),
    ]
    assert line[got[0].start : got[0].end] == "1000.5"
    assert server_timings([(1, '  "predicted_ms": 12.5,')]) == {}
    # the pair reader still reads a lone field as a time, as before
    assert [(r.metric, r.value) for r in tool_results([(1, '  "predicted_ms": 12.5,')])] == [
        ("duration", "12.5")
    ]


def test_a_chat_request_prompt_is_its_user_message_only():
    pat = next(p for p, what in REQUEST_SETTINGS if what == "prompt" and "role" in p.pattern)
    assert pat.search('{"role": "user", "content": "hi there"}').group("n") == "hi there"
    assert pat.search('{"role":"assistant","content":"hello"}') is None
    assert pat.search('{"role": "system", "content": "be brief"}') is None


_SUMMARY = """\
# Question about the benchmark

I want to know the difference, like below:

============ Serving Benchmark Result ============
Successful requests:                     100
Benchmark duration (s):                  50.25
Request throughput (req/s):              1.99
Output token throughput (tok/s):         410.50
---------------Time to First Token----------------
Mean TTFT (ms):                          120.75
P99 TTFT (ms):                           400.25
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          22.40
==================================================

Why is it so?
"""


def test_a_serving_summary_pasted_without_a_fence_is_read_as_its_tool_prints_it(tmp_path):
    """The closing rule made the summary a setext heading: each line was a heading's prose, the
    TTFT read as a rate.  Read as a code block, each line is its label's metric and statistic."""
    kinds = [(b.kind, b.heading) for b in blocks_of(_SUMMARY)]
    assert ("code", False) in kinds
    cf = _drafted(_SUMMARY, tmp_path)
    got = {(c.metric, c.value, c.unit) for c in cf.claims}
    assert got == {
        ("duration", 50.25, "s"),
        ("request_throughput", 1.99, "req/s"),
        ("throughput", 410.5, "tok/s"),
        ("ttft", 120.75, "ms"),
        ("ttft", 400.25, "ms"),
        ("tpot", 22.4, "ms"),
    }
    stats = {c.value: _cond(cf, c)["other"]["stat"] for c in cf.claims if c.metric == "ttft"}
    assert stats == {120.75: "mean", 400.25: "p99"}


def test_a_setext_heading_of_prose_stays_a_heading():
    """Control: a real setext heading (one line of words over its rule) and a paragraph of label
    lines with no banner are not pasted output."""
    assert [(b.kind, b.heading) for b in blocks_of("Results\n=======\n\nSpeed: 40 tok/s\n")] == [
        ("text", True),
        ("text", False),
    ]
    assert [b.kind for b in blocks_of("Model:  Llama 3\nSpeed:  40 tok/s\n")] == ["text"]


def test_mainline_as_a_heading_names_upstream_llama_cpp():
    assert heading_engine("* Mainline") == "llama.cpp"
    assert heading_engine("### Mainline results") == "llama.cpp"
    assert heading_engine("Mainline (b5635)") == "llama.cpp"
    assert heading_engine("Mainline PP performance drops") is None  # a sentence, not a label
    assert heading_engine("Results on the main line") is None


_DRAFT_N_MAX = """\
# MTP drafter sizes

`llama-server -m gemma-4-12B-it-Q4_K_M.gguf -md gemma-4-12B-it-Q8_0-MTP.gguf --spec-type draft-mtp \
--spec-draft-n-max 1 -ngl 99`:

| draft-n-max | T/s | draft rate |
|-------------|-----|------------|
| none        | 36.00 | N/A      |
| 1           | 47.77 | 0.47     |
| 4           | 41.86 | 0.20     |
"""


def test_a_draft_n_max_column_sets_each_row_and_its_none_row_decodes_plainly(tmp_path):
    """ "draft-n-max" is llama-server's --spec-draft-n-max: each row's block_max (not the command's
    1); its "none" row drafts nothing (plain decoding, no draft size from the command); a "draft
    rate" column of fractions is the acceptance rate."""
    cf = _drafted(_DRAFT_N_MAX, tmp_path)
    rates = {c.value: _cond(cf, c) for c in cf.claims if c.metric == "decode_tps"}
    assert rates[36.0]["decoding"] == "plain" and "block_max" not in rates[36.0]
    assert (rates[47.77]["block_max"], rates[41.86]["block_max"]) == (1, 4)
    assert rates[41.86]["decoding"] == "draft-self"
    accepted = {
        (c.value, c.unit, _cond(cf, c)["block_max"]) for c in cf.claims if c.metric == "acceptance_rate"
    }
    assert accepted == {(0.47, "ratio", 1), (0.2, "ratio", 4)}

"""Kinds fixed in issue 29's session 64 (the forty-second held-out set's misses, read after a
forty-third set replaced it as the clean one), each with controls."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def _by_value(cf):
    return {float(c.value): (c, _cond(cf, c)) for c in cf.claims if c.value is not None}


_APP_JSON = """# Benchmark of a local app

```json
{
  "promptTokens" : 2048,
  "completionTokens" : 400,
  "generationTPS" : 55.25,
  "promptTPS" : 3100.5,
  "ttftMs" : 640.75,
  "memoryUsedGB" : 12.5,
  "modelLoadTimeS" : 2,
  "ramGB" : 64,
  "runs" : 3
}
```
"""


def test_a_camel_case_json_key_names_its_unit_and_metric(tmp_path):
    """An app's JSON writes its keys in camelCase with a space before the colon ("generationTPS" :
    55.25): the key's words give the unit and metric as a snake_case key's do; the machine's "ramGB"
    (no measured size) and "runs" (a count of runs, no unit) are no claims."""
    got = {v: (c.metric, c.unit) for v, (c, _) in _by_value(_drafted(_APP_JSON, tmp_path)).items()}
    assert got[55.25] == ("decode_tps", "tok/s")
    assert got[3100.5] == ("prefill_tps", "tok/s")
    assert got[640.75] == ("ttft", "ms")
    assert got[12.5] == ("memory_used", "GB")
    assert got[2.0] == ("load_time", "s")
    assert got[2048.0] == ("tokens", "tokens") and got[400.0] == ("tokens", "tokens")
    assert 64.0 not in got and 3.0 not in got


def test_a_usage_objects_token_counts_are_claims_but_a_labels_last_word_is_not_a_key(tmp_path):
    """An OpenAI-style usage object ("prompt_tokens": 31) counts tokens; a tool's line "Prompt tokens:
    7530 in 6.51s (1156.15 tokens/s)" keeps its time and rate (its label's last word "tokens" is no
    key of its own)."""
    usage = '```\n{"usage": {"prompt_tokens": 31, "completion_tokens": 250}}\n```\n'
    got = _by_value(_drafted(usage, tmp_path))
    assert {v: c.unit for v, (c, _) in got.items()} == {31.0: "tokens", 250.0: "tokens"}
    line = "```\n--- Performance Metrics ---\nPrompt tokens: 7530 in 6.51s (1156.15 tokens/s)\n```\n"
    got = _by_value(_drafted(line, tmp_path))
    assert got[6.51][0].unit == "s" and got[1156.15][0].metric == "prefill_tps"

"""Kinds fixed in issue 29's session 62 (read from the thirty-ninth held-out set's misses, h456–h465,
once a fortieth set replaced it as the clean one), each with controls: a "| Metric | Value |" table
of settings and results read its settings as results; a cap ("Max Tokens") and a temperature in a
table were no conditions; "Response Time" was a duration, not a latency; a unit of the next line
("38.16 seconds" over "Min Response Time") took the number; vLLM's collect_env block named no
machine."""

from __future__ import annotations

from benchbook.audit.draftnames import mentions
from benchbook.audit.draftprose import metric_of, numbers
from benchbook.audit.toollines import label_metric
from drafting import conditions as _cond
from drafting import drafted as _drafted

_STRESS = """# v0.10 is slower than 0.8.5 for qwen3

### Your current environment

```text
GPU models and configuration : GPU 0: NVIDIA A10
Nvidia driver version        : 550.127.08
```

```
┏━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Metric                ┃ Value                    ┃
┡━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ Model                 │ /home/llm/Qwen3-8B       │
│ Max Tokens            │ 256                      │
│ Temperature           │ 0.7                      │
│ Concurrent Requests   │ 10                       │
│ Total Test Duration   │ 38.16 seconds            │
│ Min Response Time     │ 0.86 seconds             │
│ P90 Response Time     │ 3.82 seconds             │
└───────────────────────┴──────────────────────────┘
```
"""


def test_a_metric_value_table_of_settings_and_results(tmp_path):
    """A two-column "| Metric | Value |" table (a stress-test script's rich box) lists settings and
    results: the model, cap, temperature and concurrency are the conditions of its three times, and
    none of them is a claim; the response times are latencies (the run's duration is a duration); the
    machine comes from collect_env's "GPU models and configuration" line in the block above."""
    cf = _drafted(_STRESS, tmp_path)
    got = sorted((float(c.value), str(c.unit), c.metric) for c in cf.claims)
    assert got == [(0.86, "s", "latency"), (3.82, "s", "latency"), (38.16, "s", "duration")]
    for c in cf.claims:
        cond = _cond(cf, c)
        assert (cond["model"], cond["cap"], cond["sampling"], cond["concurrency"]) == (
            "Qwen3-8B",
            256,
            "temperature 0.7",
            10,
        )
        assert cond["hardware"] == "NVIDIA A10"


def test_a_temperature_cell_above_two_is_no_sampling(tmp_path):
    """Control: a "Temperature" column of a GPU's degrees (85) is no sampling temperature."""
    post = "| GPU | Temperature | Decode |\n|---|---|---|\n| RTX 4090 | 85 | 120 t/s |\n| RTX 3090 | 80 | 90 t/s |\n"
    cf = _drafted(post, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [90.0, 120.0]
    assert all("sampling" not in _cond(cf, c) for c in cf.claims)


def test_a_unit_after_a_unit_belongs_to_the_next_words():
    """ "38.16 seconds Min Response Time" (two lines read as one text): "Min" is the next label's,
    not minutes; a range's or a spread's unit after both numbers still counts."""
    text = "Total Test Duration: 38.16 seconds Min Response Time: 0.86 seconds"
    assert [(n.text, n.unit) for n in numbers(text)] == [("38.16", "s"), ("0.86", "s")]
    assert [(n.low, n.high, n.unit) for n in numbers("6.1–6.3 t/s")] == [("6.1", "6.3", "t/s")]
    assert [(n.text, n.spread, n.unit) for n in numbers("41.2 ± 0.3 t/s")] == [("41.2", "0.3", "t/s")]


def test_response_time_is_a_latency_in_prose_and_labels():
    """ "Response Time", "E2E", "end-to-end" and Russian "задержка" name a request's latency in prose
    and in a tool's labels alike (one list of words); a plain "Duration" stays a duration."""
    assert metric_of("s", "Average Response Time:") == "latency"
    assert metric_of("s", "end-to-end") == "latency"
    assert label_metric("P90 Response Time", "s") == "latency"
    assert label_metric("Средняя задержка", "ms") == "latency"
    assert label_metric("E2E", "ms") == "latency"
    assert label_metric("Total Test Duration", "s") == "duration"
    assert label_metric("Load time", "s") == "load_time"


def test_an_a10g_is_a_card():
    """AWS's A10G is NVIDIA's card; "A10" stays the A10."""
    assert [(m.path, m.value) for m in mentions("on an NVIDIA A10G")] == [("hardware", "NVIDIA A10G")]
    assert [(m.path, m.value) for m in mentions("A10 GPU")] == [("hardware", "NVIDIA A10")]

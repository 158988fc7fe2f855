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
    """"Prompt (t/s)" is a column of prefill rates, not the `prompt` setting: a header with a
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

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

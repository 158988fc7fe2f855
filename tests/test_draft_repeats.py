"""Repetitions and their statistic stated once in words (``draftrepeats``, issue 29): "run 3 times and
took the median", "averaged over 4 runs", "跑 5 次取平均值", "Mittelwert aus 3 Läufen" give the
measured claims of their scope ``n`` and ``conditions.other.stat``.  Controls: a multiple ("3 times
faster"), a count with no statistic, a claim outside the statement's section, a quoted claim, a
size.  The texts are made up here in the shapes posts use."""

from __future__ import annotations

from benchbook.audit.draftrepeats import repeats
from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_statement_of_runs_and_statistic_in_three_languages():
    assert repeats("Every config was run 4 times and I kept the median.") == (4, "median")
    assert repeats("Numbers are the median of 5 runs.") == (5, "median")
    assert repeats("averaged over three runs after a warmup") == (3, "mean")
    assert repeats("每组测试跑 6 次取平均值。") == (6, "mean")
    assert repeats("每个模型运行 3 次，取中位数") == (3, "median")
    assert repeats("Werte sind der Mittelwert aus 4 Läufen.") == (4, "mean")
    assert repeats("Jede Messung 5 Durchläufe, davon der Median") == (5, "median")
    # controls: a multiple, a count with no statistic, one run, a best-of
    assert repeats("It is 3 times faster on average than before.") is None
    assert repeats("I ran every prompt 3 times.") is None
    assert repeats("median of 1 run") is None
    assert repeats("took the best of 3 runs") is None


def test_the_statement_gives_its_section_s_rates_n_and_stat(tmp_path):
    text = (
        "# Testing a 14B model on an RTX 4080\n\n"
        "## Method\n\n"
        "Every prompt was run 4 times and I report the median.\n\n"
        "Plain decoding gave 41.5 tok/s and the model file is 8.9 GB.\n\n"
        "## Older numbers\n\n"
        "Last month the same card did 37.2 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = {c.value: c for c in cf.claims}
    assert by_value[41.5].n == 4
    assert _cond(cf, by_value[41.5])["other"] == {"stat": "median"}
    # controls: a size is no measured run; another section's rate keeps nothing
    assert by_value[8.9].n is None
    assert "stat" not in _cond(cf, by_value[8.9]).get("other", {})
    assert by_value[37.2].n is None
    assert "stat" not in _cond(cf, by_value[37.2]).get("other", {})


def test_a_statement_before_any_section_holds_for_the_post_and_its_tables(tmp_path):
    text = (
        "每个配置跑 5 次取平均值。\n\n"
        "| 引擎 | 速度 (tok/s) |\n|---|---|\n| llama.cpp | 52.3 |\n| MLX | 61.8 |\n\n"
        "A friend reported 70.1 tok/s on his machine, according to his blog.\n"
    )
    cf = _drafted(text, tmp_path)
    rows = [c for c in cf.claims if c.value in (52.3, 61.8)]
    assert [c.n for c in rows] == [5, 5]
    assert [_cond(cf, c)["other"]["stat"] for c in rows] == ["mean", "mean"]


def test_a_claim_naming_its_own_statistic_or_quoted_keeps_none(tmp_path):
    text = (
        "Results are the mean of 3 runs.\n\n"
        "I got 40.2 tok/s, and the median TTFT was 41 ms. Someone on a forum got 58 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    by_value = {c.value: c for c in cf.claims}
    assert by_value[40.2].n == 3
    assert _cond(cf, by_value[40.2])["other"] == {"stat": "mean"}
    # controls: "median TTFT" is a statistic over requests, not the runs' mean; a quoted figure
    assert by_value[41].n is None
    assert "stat" not in _cond(cf, by_value[41]).get("other", {})
    assert by_value[58].origin is not None and by_value[58].n is None

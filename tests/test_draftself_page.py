"""The draft-self page's parts from the report: both sides of each speedup (decode rates of AR and every
variant, published with an interval over prompts) and the outputs behind the numbers."""

from __future__ import annotations

import json
import math

import polars as pl
import pytest

from benchbook import stats
from benchbook.experiments.draftself import analysis
from benchbook.experiments.draftself import outputs as ds_outputs


@pytest.fixture(scope="module")
def committed_runs():
    from conftest import committed_root

    return analysis.load_runs(committed_root() / "data" / "raw" / "draftself", "latest")


def test_ar_decode_rate_is_the_mean_of_per_prompt_rates_with_an_interval_over_prompts(committed_runs):
    runs, _ = committed_runs
    rates = analysis.decode_rates(runs)
    ar = {r["prompt_class"]: r for r in rates.filter(pl.col("config_name") == "ar").iter_rows(named=True)}
    # by hand from the run records: per prompt the mean of its repetitions' decode_tps, then the mean
    # over the prompts of the class, log-scale Student-t over those per-prompt means
    for cls, predictable in (("predictable", True), ("other", False)):
        mine = [
            r
            for r in runs.iter_rows(named=True)
            if r["config_name"] == "ar" and r["predictable"] == predictable
        ]
        per_prompt: dict[str, list[float]] = {}
        for r in mine:
            per_prompt.setdefault(r["prompt_id"], []).append(r["decode_tps"])
        means = [sum(v) / len(v) for v in per_prompt.values()]
        mean = sum(means) / len(means)
        sd = math.sqrt(sum((m - mean) ** 2 for m in means) / (len(means) - 1))
        low, high = stats.log_t_interval(mean, sd, len(means))
        row = ar[cls]
        assert row["n"] == len(means) and row["n_timings"] == len(mine)
        assert row["decode_tps"] == pytest.approx(mean, rel=1e-12)
        assert (row["ci_low"], row["ci_high"]) == (
            pytest.approx(low, rel=1e-12),
            pytest.approx(high, rel=1e-12),
        )
        assert row["ci_low"] < row["decode_tps"] < row["ci_high"]
    # the committed session: 4 predictable prompts (count, days, letters, months), 3 other, 3 repetitions
    assert (ar["predictable"]["n"], ar["other"]["n"]) == (4, 3)
    assert (ar["predictable"]["n_timings"], ar["other"]["n_timings"]) == (12, 9)
    # every configuration and class has a rate: 14 configurations × 2 classes
    assert rates.height == 28 and rates["decode_tps"].min() > 0


def test_model_gap_is_paired_per_prompt_and_flips_sign(committed_runs):
    # ds-k8-batched-one_pass on the 3 other prompts.  Per prompt, measured = AR decode ns ÷ draft-self
    # decode ns (geometric mean of the 3 repetitions), predicted = the same with every pass at its
    # session mean (the same passes on every repetition: one value):
    #   story-0  0.9570 ÷ 0.8009 = 1.1950   log 0.17813
    #   table-0  2.7563 ÷ 2.5361 = 1.0868   log 0.08326
    #   words-0  1.7643 ÷ 1.6907 = 1.0435   log 0.04262
    # paired: exp((0.17813 + 0.08326 + 0.04262) / 3) − 1 = exp(0.101337) − 1 = +0.1067 (+10.7%).
    # The unpaired gap divided the geometric-mean speedup 1.6696 by the arithmetic-mean prediction
    # (0.8009 + 2.5361 + 1.6907) / 3 = 1.6759: 1.6696 ÷ 1.6759 − 1 = −0.0038 (−0.4%), the wrong sign.
    runs, _ = committed_runs
    costs, _ = analysis.pass_costs(runs)
    cost = {(k, n): m for k, n, m in costs.select("pass_kind", "pass_n", "mean_ns").iter_rows()}

    def pred_ns(r):
        return sum(cost[(k, n)] for k, n in zip(r["pass_kind"], r["pass_n"], strict=True) if k != "prefill")

    ar = {(r["prompt_id"], r["rep"]): r for r in runs.iter_rows(named=True) if r["decoder"] == "ar"}
    per_prompt: dict[str, list[tuple[float, float]]] = {}
    for r in runs.iter_rows(named=True):
        if r["config_name"] == "ds-k8-batched-one_pass" and not r["predictable"]:
            a = ar[(r["prompt_id"], r["rep"])]
            measured = a["decode_wall_ns"] / r["decode_wall_ns"]
            per_prompt.setdefault(r["prompt_id"], []).append((measured, pred_ns(a) / pred_ns(r)))
    logs = {p: sum(math.log(m / q) for m, q in v) / len(v) for p, v in per_prompt.items()}
    assert {p: round(x, 5) for p, x in logs.items()} == {
        "story-0": 0.17813,
        "table-0": 0.08326,
        "words-0": 0.04262,
    }
    row = (
        analysis.speedup(runs, costs)
        .filter((pl.col("config_name") == "ds-k8-batched-one_pass") & (pl.col("prompt_class") == "other"))
        .row(0, named=True)
    )
    assert row["gap"] == pytest.approx(math.exp((0.17813 + 0.08326 + 0.04262) / 3) - 1, abs=1e-5)
    assert round(100 * row["gap"], 1) == 10.7  # the published model_gap (%)
    assert round(100 * (row["speedup"] / row["predicted"] - 1), 1) == -0.4  # the unpaired ratio
    # the residual of the GPU page is the same comparison the other way round: 1 / (1 + gap) − 1
    assert row["residual"] == pytest.approx(1 / (1 + row["gap"]) - 1, rel=1e-12)


def test_the_decode_rates_are_published_beside_the_speedups(tmp_path):
    from pathlib import Path

    import yaml

    from benchbook.experiments.draftself import report
    from conftest import committed_root

    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    rep = report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=tmp_path)
    nums = {n.key: n for n in rep.numbers}
    ar = nums["draftself-ar-predictable-decode_tps"]
    assert ar.unit == "tok/s" and ar.n == 4 and ar.replication == "prompts" and ar.ci95 is not None
    assert ar.ci95[0] < ar.value < ar.ci95[1] and ar.caveats == ["synthetic_inputs"]
    assert len(ar.run_ids) == 12 and ar.sources  # exactly its 12 AR runs
    for key in [k for k in nums if k.endswith("-speedup") and k.startswith("draftself-ds-")]:
        assert key.removesuffix("-speedup") + "-decode_tps" in nums, key
    # the lossy configuration's rate carries its output_mismatch caveat, as its speedup does
    lossy = "draftself-ds-k8-batched-one_pass-coreset0_6-both-predictable"
    assert nums[lossy + "-decode_tps"].caveats == nums[lossy + "-speedup"].caveats
    page = (tmp_path / "draftself" / "outputs.md").read_text()
    assert page.count('<h3 id="ds-out-') == 7  # one section per prompt
    assert page.count("<b>AR greedy</b>") == 7


def _run(run_id, config, text, sha, rep=1, prompt="p"):
    return {
        "run_id": run_id,
        "session_id": "s",
        "config_name": config,
        "prompt_id": prompt,
        "rep": rep,
        "output_text": text,
        "output_sha256": sha,
        "n_tokens": len(text.split()),
        "stop_type": "length",
    }


def test_outputs_compare_each_variant_with_ar_from_the_first_diverging_token():
    runs = [
        _run("a", "ar", "w x y z a b", "s-ar"),
        _run("b", "ds-k8", "w x y z a b", "s-ar"),
        _run("c", "ds-k8-both", "w x y y z a", "s-bad"),
        _run("d", "ds-k4", "w <b>y z a b", "s-words"),  # no steps: compared word by word
    ]
    steps = [
        {"run_id": "a", "step": 1, "committed": [11, 12, 13, 14, 15]},
        {"run_id": "a", "step": 0, "committed": [10]},
        {"run_id": "b", "step": 0, "committed": [10, 11, 12, 13, 14, 15]},
        {"run_id": "c", "step": 0, "committed": [10, 11, 12, 12, 13, 14]},
    ]
    rows = ds_outputs.output_rows(runs, ds_outputs.generated_tokens(steps))
    by = {r.config_id: r for r in rows}
    assert [r.config_id for r in rows] == ["AR greedy", "ds-k4", "ds-k8", "ds-k8-both"]
    assert by["ds-k8"].first_diff_token is None and by["AR greedy"].first_diff_token is None
    # token ids [10, 11, 12, 12, ...] against [10, 11, 12, 13, ...]: token 3;
    # text "w x y y" against "w x y z": character 6
    assert (by["ds-k8-both"].first_diff_token, by["ds-k8-both"].first_diff_char) == (3, 6)
    # words "w <b>y ..." against "w x ...": word 1; characters from 2
    assert (by["ds-k4"].first_diff_token, by["ds-k4"].first_diff_char) == (1, 2)
    md = ds_outputs.outputs_md(rows, baseline=ds_outputs.BASELINE, anchor="ds-out")
    assert '<h3 id="ds-out-p">' in md and "<b>AR greedy</b> (repetitions 1): 6 tokens" in md
    assert "differs from the baseline from token 3" in md and "w x y <mark>y z a</mark>" in md
    assert "w <mark>&lt;b&gt;y z a b</mark>" in md  # escaped, highlighted from the first differing character
    assert "1 configuration outputs with exactly the baseline's tokens" in md


def test_steps_file_beside_each_layout(tmp_path):
    assert ds_outputs.steps_file(tmp_path / "runs.jsonl") == tmp_path / "steps.jsonl"
    assert ds_outputs.steps_file(tmp_path / "abc.jsonl") == tmp_path / "abc.steps.jsonl"
    assert json.dumps(ds_outputs.generated_tokens([])) == "{}"

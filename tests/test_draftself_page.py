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

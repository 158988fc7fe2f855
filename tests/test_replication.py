"""Issue 13 §2 and §3 over the committed raw data: lossy variants flagged and kept out of "best",
intervals over the unit that varies, τ counting the verifier's token, the spread between sessions,
every computation kind recomputed from its cited records alone, and characterising words that the
numbers support."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml

from benchbook import caveats, wording
from benchbook.experiments.draftself.analysis import acceptance
from benchbook.experiments.llama_bench.spread import cluster_gap
from benchbook.experiments.speculative.analysis import tau as spec_tau
from benchbook.stats import t_quantile
from conftest import ROOT, committed_root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Every report built from the committed raw data: ``{experiment: report}`` and the out dir."""
    from benchbook.experiments.draftself import report as ds
    from benchbook.experiments.llama_bench import report as lb
    from benchbook.experiments.speculative import report as spec

    out = tmp_path_factory.mktemp("reports")
    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    reps = {
        name: mod.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=out)
        for name, mod in (("llama_bench", lb), ("speculative", spec), ("draftself", ds))
    }
    return reps, out


def _num(built, experiment, key):
    return next(n for n in built[0][experiment].numbers if n.key == key)


def _cited(num) -> list[dict]:
    """The raw records a number cites (file + lines), read from the committed data alone."""
    root = committed_root()
    recs = []
    for src in num.sources:
        path = Path(src["file"]) if Path(src["file"]).is_absolute() else root / src["file"]
        lines = path.read_text().splitlines()
        for first, last in src["lines"]:
            recs += [json.loads(lines[i - 1]) for i in range(first, last + 1)]
    return recs


# --- τ ------------------------------------------------------------------------------------------


def test_tau_counts_the_verifiers_own_token():
    # one run: 6 accepted tokens over 4 verify steps -> (6 + 4) / 4 = 2.5 tokens per step (1.5 without the +1)
    run = pl.DataFrame(
        {
            "config_name": ["ds-k4"],
            "decoder": ["draftself"],
            "k": [4],
            "verify": ["batched"],
            "draft": ["one_pass"],
            "coreset_mass": [None],
            "coreset_apply": [None],
            "predictable": [True],
            "rep": [1],
            "accepted_total": [6],
            "verify_steps": [4],
            "rejections": [3],
            "drafted_total": [16],
            "n_tokens": [11],
            "forward_passes": [9],
            "expert_loads_per_token": [None],
            "equals_ar": [True],
            "_line": [1],
            "_file": ["x"],
            "run_id": ["r"],
        }  # fmt: skip
    )
    assert acceptance(run)["tau"].to_list() == [2.5]
    assert spec_tau(6, 4) == 2.5


def test_published_draftself_tau_recomputes_from_its_cited_runs(built):
    num = _num(built, "draftself", "draftself-ds-k8-batched-one_pass-predictable-tau")
    runs = [r for r in _cited(num) if r["schema"] == "benchbook.draftself.run"]
    assert len(runs) == num.n == 4  # first timed repetition of the 4 predictable prompts
    # tokens the verify steps committed, never past the 48-token cap (the first token from the prefill):
    # 188 over 24 steps = 7.833 (before: 216 / 24 = 9.0, each last block's overshoot counted)
    committed = sum(min(r["accepted_total"] + r["verify_steps"], r["n_tokens"] - 1) for r in runs)
    tau = committed / sum(r["verify_steps"] for r in runs)
    assert (committed, num.value) == (188, round(tau, 3)) and num.value == 7.833


# --- lossy variants -----------------------------------------------------------------------------


def test_lossy_variant_gets_output_mismatch_and_stays_out_of_best(built):
    reps, out = built
    lossy = [
        n for n in reps["draftself"].numbers if "coreset0_6-both" in n.key and n.key.endswith("-speedup")
    ]
    assert lossy and all("output_mismatch" in n.caveats for n in lossy)
    lossless = _num(built, "draftself", "draftself-ds-k8-batched-one_pass-predictable-speedup")
    assert "output_mismatch" not in lossless.caveats
    equality = (out / "draftself" / "equality.md").read_text()
    # before: "Every variant produced exactly the AR greedy output" (static text)
    assert equality.startswith("12 of 13 draft-self variants produced exactly the AR greedy output")
    assert (
        "`ds-k8-batched-one_pass-coreset0.6-both`: 0 of 3 other prompts, 3 of 4 predictable prompts"
        in equality
    )
    best = (out / "draftself" / "best.md").read_text()
    assert (
        "coreset0.6-both` on" not in best
        and "lossy variants left out: `ds-k8-batched-one_pass-coreset0.6-both`" in best
    )
    page = (ROOT / "draftself.qmd").read_text()
    assert "Every\nvariant produced exactly" not in page and "reports/draftself/equality.md" in page


# --- replication --------------------------------------------------------------------------------


def test_draftself_speedup_interval_is_over_prompts(built):
    reps, out = built
    num = _num(built, "draftself", "draftself-ds-k8-batched-one_pass-other-speedup")
    # before: 1.67 [1.119, 2.49], n = 9 (3 prompts x 3 timing repetitions of one deterministic output)
    assert (num.value, num.ci95, num.n, num.replication) == (1.67, [0.446, 6.245], 3, "prompts")
    row = (
        reps["draftself"]
        .speedup.filter(
            (pl.col("config_name") == "ds-k8-batched-one_pass") & (pl.col("prompt_class") == "other")
        )
        .row(0, named=True)
    )
    per = {p["prompt_id"]: round(p["speedup"], 3) for p in row["per_prompt"]}
    assert per == {"story-0": 0.957, "table-0": 2.756, "words-0": 1.764}
    # the prompts disagree in direction: the page shows them
    assert (
        "| ds-k8-batched-one&#95;pass | other | 1.67 | "
        "story-0 0.957, table-0 2.756, words-0 1.764 | story-0 |"
        in (out / "draftself" / "per_prompt.md").read_text()
    )


def test_llama_bench_numbers_state_their_replication(built):
    num = _num(built, "llama_bench", "lb-smollm2-135m-q4_1-tg64-warm")
    assert (num.replication, num.n) == ("repetitions of one llama-bench test (samples_ns)", 5)


# --- between sessions ---------------------------------------------------------------------------


def test_between_session_spread_and_bimodal_samples_are_flagged(built):
    reps, out = built
    stats = reps["llama_bench"].stats
    row = stats.filter(
        (pl.col("session_id") == "d2ee0d2ad2874050b015ff06a4c62196")
        & (pl.col("model_id") == "smollm2-135m-q4_1")
        & (pl.col("test") == "tg")
        & (pl.col("phase") == "warm")
    ).row(0, named=True)
    # the published 99.3 [89.2, 110.5] (log-scale interval); the host's other sessions (oldest first)
    # 18.8, 114.7, 78.7 lie outside it
    assert [round(x, 1) for x in row["other_session_means"]] == [18.8, 114.7, 78.7]
    assert (round(row["ci_low_tps"], 1), round(row["ci_high_tps"], 1)) == (89.2, 110.5)
    num = _num(built, "llama_bench", "lb-smollm2-135m-q4_1-tg64-warm")
    assert {"between_session_spread", "bimodal_samples"} <= set(num.caveats)
    assert (
        "| smollm2-135m-q4&#95;1 | warm | tg64 | 4 | 18.8, 114.7, 78.7, 99.3 | &#91;89.2, 110.5&#93; | 3 |"
        in (out / "llama_bench" / "sessions.md").read_text()
    )
    # a host with one session per configuration gets no such caveat
    cuda = _num(built, "llama_bench", "lb-he3618a24-smollm2-135m-q4_1-tg128-warm")
    assert "between_session_spread" not in cuda.caveats


def test_bimodal_rule_on_hand_made_samples():
    # 89.6, 90.2 | 105.4, 105.5, 105.7: gap 15.2 over the wider cluster's range 0.6 = 25.3 > 3,
    # and 15.2/99.3 > 2%
    ratio, frac = cluster_gap([89.6, 90.2, 105.4, 105.5, 105.7])
    assert (round(ratio, 1), round(frac, 3)) == (25.3, 0.153)
    # 108.4, 108.6 | 114.2, 119.5, 122.8: gap 5.6 over range 8.6 = 0.65: one spread cluster, not two
    assert round(cluster_gap([108.4, 108.6, 114.2, 119.5, 122.8])[0], 2) == 0.65
    assert cluster_gap([1.0, 2.0, 3.0]) == (None, None)  # fewer than 4 samples: no judgement
    table = pl.DataFrame(
        {
            "cluster_gap_ratio": [25.3, 0.65, None],
            "cluster_gap_frac": [0.153, 0.05, None],
            "other_session_means": [[50.0], [100.0], []],
            "ci_low_tps": [88.6, 90.0, 1.0],
            "ci_high_tps": [109.9, 110.0, 2.0],
            "run_ids": [["a"], ["b"], ["c"]],
        }  # fmt: skip
    )
    got = caveats.attach(table, rules=["bimodal_samples", "between_session_spread"])["caveats"].to_list()
    assert [set(c) for c in got] == [{"between_session_spread", "bimodal_samples"}, set(), set()]


# --- every computation kind from its cited records alone ----------------------------------------


def test_llama_bench_rate_from_cited_records(built):
    num = _num(built, "llama_bench", "lb-smollm2-135m-q4_1-tg64-warm")
    (rec,) = _cited(num)
    row = rec["llama_bench"]
    rates = [1e9 * (row["n_prompt"] + row["n_gen"]) / s for s in row["samples_ns"]]
    assert num.value == round(statistics.mean(rates), 2) and num.run_ids == [rec["run_id"]]
    # the log-scale Student-t interval: mean · exp(± t · (sd / mean) / √n)
    mean = statistics.mean(rates)
    half = t_quantile(5) * statistics.stdev(rates) / mean / math.sqrt(5)
    assert num.ci95 == pytest.approx([mean * math.exp(-half), mean * math.exp(half)])


def test_draftself_speedup_from_cited_ar_and_draftself_runs(built):
    num = _num(built, "draftself", "draftself-ds-k8-batched-one_pass-other-speedup")
    recs = _cited(num)
    ar = {(r["prompt_id"], r["rep"]): r for r in recs if r["config"]["decoder"] == "ar"}
    ds = [r for r in recs if r["config"]["decoder"] == "draftself"]
    assert len(ar) == len(ds) == 9 and set(num.run_ids) == {r["run_id"] for r in recs}  # AR runs are cited
    by_prompt: dict[str, list[float]] = {}
    for r in ds:
        by_prompt.setdefault(r["prompt_id"], []).append(
            math.log(ar[(r["prompt_id"], r["rep"])]["decode_wall_ns"] / r["decode_wall_ns"])
        )
    per_prompt = [statistics.mean(v) for v in by_prompt.values()]
    assert num.value == round(math.exp(statistics.mean(per_prompt)), 3)


def _passes(recs, kind, n):
    return [p[2] for r in recs for p in r["passes"] if p[0] == kind and p[1] == n]


def test_break_even_and_decode_pass_from_cited_runs(built):
    c1_num = _num(built, "draftself", "draftself-decode_pass_ms")
    c1_recs = _cited(c1_num)
    # before: the 273 draft-self runs were cited, and none of them holds a 1-token decode pass
    assert {r["config"]["decoder"] for r in c1_recs} == {"ar"} and len(c1_recs) == 21
    c1 = statistics.mean(_passes(c1_recs, "decode", 1))
    assert c1_num.value == round(c1 / 1e6, 4)
    be = _num(built, "draftself", "draftself-break_even_tau-k-8")
    recs = _cited(be)
    tau_star = (statistics.mean(_passes(recs, "draft", 9)) + statistics.mean(_passes(recs, "verify", 9))) / (
        statistics.mean(_passes(recs, "decode", 1))
    )
    assert be.value == round(tau_star, 3)


def test_speculative_speedup_cites_its_baseline(built):
    num = _num(built, "speculative", "spec-self-n4-code_echo-speedup")
    recs = [r for r in _cited(num) if r["schema"] == "benchbook.speculative_request"]
    by = {}
    for r in recs:
        t = r["timings"]
        by.setdefault(r["config"]["config_id"], {})[r["rep"]] = (
            1e3 * (t["predicted_n"] - 1) / t["predicted_ms"]
        )
    # before: only the 3 self-draft requests were cited; the 3 baseline requests it divides by were not
    assert sorted(by) == ["baseline", "self-n4"] and len(recs) == 6
    ratios = [by["self-n4"][k] / by["baseline"][k] for k in by["self-n4"]]
    assert num.value == round(statistics.mean(ratios), 4)


def test_speculative_cost_numbers_cite_only_the_rows_used(built):
    r5 = _num(built, "speculative", "spec-cost-r-5")
    recs = _cited(r5)
    # before: all 9 cost rows (lines 313-321), no run ids; now the pp5 row and the tg row, with run ids
    # and times
    assert [(r["llama_bench"]["n_prompt"], r["llama_bench"]["n_gen"]) for r in recs] == [(5, 0), (0, 32)]
    assert len(r5.run_ids) == 1 and r5.measured_from and r5.measured_to
    pp, tg = recs
    t1 = float(np.median(tg["llama_bench"]["samples_ns"])) / 32
    assert r5.value == round(float(np.median(pp["llama_bench"]["samples_ns"])) / t1, 4)


def test_training_numbers_name_their_host(built):
    num = _num(built, "draftself", "draftself-train-train_seconds")
    manifest = json.loads((committed_root() / "data" / "draftself" / "checkpoint.json").read_text())
    assert (
        (num.host_id, num.value)
        == (manifest["host_id"], manifest["train_seconds"])
        == ("246274abff670295", 420.06)
    )


# --- words beside numbers -----------------------------------------------------------------------


def test_page_words_agree_with_their_numbers(built):
    from benchbook.numbers import load_all

    registry = load_all(built[1] / "numbers")
    problems = []
    for page in sorted(ROOT.glob("*.qmd")):
        problems += wording.check_page(page.read_text(), registry, page.name)
    for md in sorted(built[1].rglob("*.md")):  # the generated sentences too
        problems += wording.check_page(md.read_text(), registry, md.name)
    assert problems == []


def test_words_that_the_numbers_do_not_support_fail():
    registry = {
        "s": {"value": 1.35, "ci95": [1.1, 1.6], "unit": "×"},
        "h": {"value": 1.16, "ci95": [0.9, 1.5], "unit": "×"},
        "m": {"value": 0.3357, "ci95": [0.321, 0.3503], "unit": "MiB/draft token"},
    }
    text = (
        "The self draft is slower (speedup {{< var s >}}). A headline gain of {{< var h >}}.\n\n"
        "Memory per draft token {{< var m >}} is about zero."
    )
    got = wording.check_page(text, registry, "p.qmd")
    assert [g.split(" beside ")[1].split(" =")[0] for g in got] == ["s", "h", "m"]
    assert (
        wording.ratio_word(1.35, [1.1, 1.6]) == "faster"
        and wording.zero_word(0.3357, [0.321, 0.3503]) == "above zero"
    )


def test_experts_per_pass_from_cited_runs(built):
    num = _num(built, "draftself", "draftself-unique_experts-verify-n-9")
    recs = _cited(num)
    per = [
        u
        for r in recs
        for u in r["unique_experts_per_layer_by_pass"]
        if (u["kind"], u["n_tokens"]) == ("verify", 9)
    ]
    assert sum(u["passes"] for u in per) == num.n
    assert num.value == round(sum(u["mean"] * u["passes"] for u in per) / num.n, 2)


def test_speculative_alpha_from_cited_requests(built):
    num = _num(built, "speculative", "spec-self-n4-code_echo-alpha")
    recs = [r for r in _cited(num) if r["schema"] == "benchbook.speculative_request"]
    acc = sum(r["timings"]["draft_n_accepted"] for r in recs)
    drafted = sum(r["timings"]["draft_n"] for r in recs)
    assert num.value == round(acc / drafted, 4)

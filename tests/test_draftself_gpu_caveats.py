"""draftself_gpu: the caveats attached to its numbers (exact lists on the committed H200 session), the
rules they come from, the page tables that show them beside each number, and the measured-now check
that chooses the published session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from benchbook import caveats, measured
from benchbook.experiments.draftself import sessioncheck
from benchbook.experiments.draftself_gpu import caveat_rows
from benchbook.experiments.draftself_gpu import plan as gpu_plan
from benchbook.experiments.draftself_gpu.report import build
from conftest import committed_root

SESSION = "57a59f950b524d6fa05f60d19471706e"
#: the prompts whose AR greedy output repeats ≥ 15% of its word 4-grams (code-2 0.2917, code-3 0.2143,
#: prose-0 0.3182, prose-2 0.1905, prose-3 0.4; prose-1 0.0769 and the other six 0)
LOOPING = {"code-2", "code-3", "prose-0", "prose-2", "prose-3"}
PROMPTS = [f"{kind}-{i}" for kind in ("code", "prose") for i in range(6)]
KS = [1, 2, 3, 4, 8, 15]
#: every number of the session: one session measured this checkpoint (the other measured another one),
#: and the checkpoint stayed on the lent GPU machine (/tmp/bbcache/...)
SESSION_WIDE = ["single_session", "checkpoint_unavailable"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    params = {"report": {"high_cv": 0.05, "min_n": 3, "busy_load_per_core": 0.5}}
    return build(params, root=committed_root(), raw_dir=Path("data/raw"), reports_dir=out), out


def expected_caveats() -> dict[str, list[str]]:
    """The exact caveat list of every number of the committed registry, in caveats.RULES order."""
    want: dict[str, list[str]] = {}
    for k in KS:
        # k = 1: α 0.9144 ≥ 0.5 and speedup 0.9777 ≤ 1 -> acceptance_without_speedup on its numbers;
        # no k is slower than AR with its interval (k = 1: upper end 1.0442)
        aws = ["acceptance_without_speedup"] if k == 1 else []
        # every configuration's repetitions vary: median per-prompt CV of decode_tps 7.0% (k = 8) to 18.0%
        # (AR) > 5%, so every number that reads wall times carries high_variance
        want[f"draftself_gpu-k{k}-tau"] = [*aws, "greedy_loop", *SESSION_WIDE, "few_prompts"]
        want[f"draftself_gpu-k{k}-alpha"] = [*aws, "greedy_loop", *SESSION_WIDE]  # no interval
        for col in ("speedup", "ds_tps"):
            want[f"draftself_gpu-k{k}-{col}"] = [
                "high_variance",
                *aws,
                "greedy_loop",
                *SESSION_WIDE,
                "few_prompts",
            ]
        want[f"draftself_gpu-k{k}-tau_break_even"] = ["high_variance", *SESSION_WIDE]
        want[f"draftself_gpu-k{k}-residual"] = ["high_variance", *aws, *SESSION_WIDE, "few_prompts"]
        for p in PROMPTS:
            want[f"draftself_gpu-p-{p}-k{k}-tau"] = (["greedy_loop"] if p in LOOPING else []) + SESSION_WIDE
    for p in PROMPTS:
        want[f"draftself_gpu-p-{p}-repeat_share"] = (["greedy_loop"] if p in LOOPING else []) + SESSION_WIDE
    want["draftself_gpu-ar_tps"] = ["high_variance", *SESSION_WIDE, "few_prompts"]
    want["draftself_gpu-decode_pass_ms"] = ["high_variance", *SESSION_WIDE]
    for t in ("t33165c04", "t57a59f95"):  # trainings: no measurement session, the checkpoint not kept
        for col in ("train_seconds", "steps", "held_out_loss_next", "n_params"):
            want[f"draftself_gpu-{t}-{col}"] = ["checkpoint_unavailable"]
    return want


def test_the_caveats_that_fire_on_the_committed_session(report):
    res, _ = report
    assert res.session_id == SESSION
    got = {n.key: n.caveats for n in res.numbers}
    want = expected_caveats()
    assert len(got) == len(want) == 130  # 6 k × 6 + 2 + 12 prompts × (6 + 1) + 2 trainings × 4
    assert {k: v for k, v in got.items() if want.get(k) != v} == {}
    # never fired here: greedy output equals AR on all 252 runs, 3 repetitions, a quiet 16-core host,
    # natural text and trained weights, and no k slower than AR
    fired = {c for v in got.values() for c in v}
    assert fired.isdisjoint({"output_mismatch", "single_run", "busy_host", "synthetic_inputs"})
    assert "slower_than_baseline" not in fired


def test_the_number_table_reads_the_records(report):
    res, _ = report
    nums = {n.key: n for n in res.numbers}
    from benchbook.experiments.draftself_gpu import analysis

    raw = committed_root() / "data" / "raw"
    runs = analysis.load(raw, SESSION)
    table = caveat_rows.number_table(
        [nums["draftself_gpu-k1-speedup"], nums["draftself_gpu-p-prose-3-k8-tau"]],
        {
            "draftself_gpu-k1-speedup": caveat_rows.Reads(timing=True, acceptance=True, k=1),
            "draftself_gpu-p-prose-3-k8-tau": caveat_rows.Reads(acceptance=True),
        },
        runs,
        analysis.per_prompt(runs),
        analysis.by_k(runs),
        caveat_rows.session_checkpoints(raw / "draftself_gpu", committed_root()),
    )
    sp, pr = table.row(0, named=True), table.row(1, named=True)
    # the k = 1 speedup reads 36 draft-self and 36 AR runs, 3 repetitions each; cv: AR's median
    # per-prompt CV (0.1799) is the higher of the two configurations' (k = 1: 0.1311)
    assert (len(sp["run_ids"]), sp["n"], round(sp["cv"], 4)) == (72, 3, 0.1799)
    assert (round(sp["alpha"], 4), round(sp["speedup_mean"], 4), round(sp["speedup_ci_high"], 4)) == (
        0.9144,
        0.9777,
        1.0442,
    )
    assert (sp["repeat_share"], sp["sessions"], sp["checkpoint_stored"], sp["prompts"]) == (0.4, 1, False, 12)
    # the host over those 72 runs: 1-min load at most 1.45 on 16 cores, another process at most 2.3% CPU
    assert sp["output_equal"] is True and sp["load1_max"] == 1.45 and sp["others_cpu_pct_max"] == 2.3
    # one run, one prompt: its own AR output's share; no interval, no timing, no configuration
    assert (len(pr["run_ids"]), pr["repeat_share"], pr["cv"], pr["alpha"], pr["prompts"]) == (
        1,
        0.4,
        None,
        None,
        None,
    )


def test_every_fired_caveat_is_beside_its_number_on_the_page(report):
    _, out = report
    page = (Path(__file__).resolve().parents[1] / "draftself_gpu.qmd").read_text()
    for part in ("by_k_page.md", "per_prompt_page.md", "skipped.md"):
        assert f"{{{{< include reports/draftself_gpu/{part} >}}}}" in page
    assert "{{< include _generated/draftself_gpu-caveats.md >}}" in page  # the legend
    by_k = (out / "draftself_gpu" / "by_k_page.md").read_text().splitlines()
    assert by_k[2].startswith(
        "| 1 {{< var draftself_gpu-k1__cfg >}} | 12 | {{< var draftself_gpu-k1-tau__v >}} | "
        "{{< var draftself_gpu-k1-alpha__v >}} | 0.95 | 0.99 | "
        "{{< var draftself_gpu-k1-tau_break_even__v >}} | {{< var draftself_gpu-ar_tps__v >}} |"
    )
    rows = (out / "draftself_gpu" / "per_prompt_page.md").read_text().splitlines()
    assert rows[0] == (
        "| prompt | kind | AR output repeated 4-grams | τ k=1 | τ k=2 | τ k=3 | τ k=4 | τ k=8 | τ k=15 |"
    )
    code2 = next(r for r in rows if r.startswith("| code-2 "))
    assert code2.startswith("| code-2 {{< var draftself_gpu-p-code-2__cfg >}} | code | ")
    assert "{{< var draftself_gpu-p-code-2-k15-tau__v >}}" in code2
    assert (out / "draftself_gpu" / "skipped.md").read_text().startswith("Every host's newest completed")


def test_the_legend_and_markers_name_the_rules(report):
    from benchbook import site

    _, out = report
    nums = json.loads((out / "numbers" / "draftself_gpu.json").read_text())["numbers"]
    # checkpoint_unavailable is on all 130 numbers, single_session on 122 (not the 8 training numbers):
    # both said once for the page; a looping prompt's τ then shows greedy_loop alone
    assert site.experiment_wide_rules(nums)["draftself_gpu"] == ["single_session", "checkpoint_unavailable"]
    v = site.variables(nums)
    assert v["draftself_gpu-p-code-2-k8-tau__v"].startswith("[2.17 †")
    assert (
        "caveats: greedy_loop, single_session, checkpoint_unavailable" in v["draftself_gpu-p-code-2-k8-tau"]
    )
    assert not v["draftself_gpu-p-code-0-k8-tau__v"].split("](")[0].count("†")
    legend = site.caveats_md(nums, "draftself_gpu")
    for rule in ("greedy_loop", "few_prompts", "high_variance", "acceptance_without_speedup"):
        assert rule in legend


# --- the rules -------------------------------------------------------------------------------------


def _fire(rows: list[dict], rule: str, **thresholds) -> list[bool]:
    t, status = caveats.evaluate(pl.DataFrame(rows), "draftself", thresholds, [rule])
    assert status[rule] == "applied"
    return [rule in c for c in t["caveats"].to_list()]


def test_the_new_rules_at_their_thresholds():
    assert {"greedy_loop", "single_session", "checkpoint_unavailable", "few_prompts"} <= set(caveats.RULES)
    # greedy_loop: share ≥ 0.15 (0.1905 fires, 0.0769 does not; no share: not a number over outputs)
    rows = [{"repeat_share": x} for x in (0.1905, 0.15, 0.0769, None)]
    assert _fire(rows, "greedy_loop") == [True, True, False, False]
    assert _fire(rows, "greedy_loop", loop_share=0.2) == [False, False, False, False]
    assert _fire([{"sessions": n} for n in (1, 2, None)], "single_session") == [True, False, False]
    assert _fire([{"checkpoint_stored": x} for x in (False, True, None)], "checkpoint_unavailable") == [
        True,
        False,
        False,
    ]
    assert _fire([{"prompts": n} for n in (12, 30, None)], "few_prompts") == [True, False, False]
    assert _fire([{"prompts": 12}], "few_prompts", min_prompts=12) == [False]
    # the draftself variants of three existing rules
    assert _fire([{"cv": x} for x in (0.1799, 0.05, None)], "high_variance") == [True, False, False]
    rows = [{"alpha": a, "speedup_mean": s} for a, s in ((0.9144, 0.9777), (0.3054, 1.8295), (0.9, 1.01))]
    assert _fire(rows, "acceptance_without_speedup") == [True, False, False]
    rows = [{"speedup_ci_high": x} for x in (0.98, 1.0443, None)]
    assert _fire(rows, "slower_than_baseline") == [True, False, False]


# --- the measured-now check --------------------------------------------------------------------------


def _copy_raw(tmp_path: Path) -> Path:
    raw = tmp_path / "raw"
    shutil.copytree(committed_root() / "data" / "raw" / "draftself_gpu", raw / "draftself_gpu")
    return raw


def test_both_committed_sessions_pass_and_the_newest_is_published():
    checks = sessioncheck.check(committed_root() / "data" / "raw" / "draftself_gpu", "draftself_gpu")
    assert {sid[:8]: (c.ok, len(c.runs)) for sid, c in checks.items()} == {
        "33165c04": (True, 252),  # 12 prompts × (AR + k 1, 2, 3, 4, 6, 8) × 3 repetitions
        "57a59f95": (True, 252),  # 12 prompts × (AR + k 1, 2, 3, 4, 8, 15) × 3 repetitions
    }
    picked = measured.select("draftself_gpu", checks, "246274abff670295")  # the primary host: no GPU
    assert picked.chosen is not None and (picked.chosen.session_id, picked.skipped) == (SESSION, [])


def test_a_newest_session_with_a_run_from_outside_it_is_skipped(tmp_path):
    raw = _copy_raw(tmp_path)
    f = raw / "draftself_gpu" / "e3618a24b4e44752.jsonl"
    lines = f.read_text().splitlines()
    i = next(
        n for n, line in enumerate(lines) if SESSION in line and '"benchbook.draftself.run"' in line
    )  # the newest session's first run: replayed from an hour before its session
    rec = json.loads(lines[i])
    rec["started_at"], rec["ended_at"] = "2026-11-30T23:28:00.000000Z", "2026-11-30T23:28:01.000000Z"
    lines[i] = json.dumps(rec)
    f.write_text("\n".join(lines) + "\n")
    picked = measured.select("draftself_gpu", sessioncheck.check(raw / "draftself_gpu", "draftself_gpu"))
    chosen, skipped = picked.chosen, picked.skipped
    assert chosen is not None and chosen.session_id.startswith("33165c04")  # the older one is published
    assert [c.session_id for c in skipped] == [SESSION]
    assert (
        f"e3618a24b4e44752.jsonl:{i + 1} (run {rec['run_id']}): ran 2026-11-30T23:28:00"
        in (skipped[0].reasons[0])
    )
    assert skipped[0].reasons[0].endswith("not measured in this session")


def test_a_session_missing_a_planned_run_is_not_published(tmp_path):
    raw = _copy_raw(tmp_path)
    f = raw / "draftself_gpu" / "e3618a24b4e44752.jsonl"
    lines = f.read_text().splitlines()
    recs = [json.loads(line) for line in lines]
    gone = [
        n
        for n, r in enumerate(recs)
        if r["schema"] == "benchbook.draftself.run"
        and (r["session_id"], r["config_name"], r["prompt_id"], r["rep"])
        == (SESSION, "ds-k15-batched-one_pass", "code-0", 3)
    ]
    assert len(gone) == 1
    f.write_text("\n".join(line for n, line in enumerate(lines) if n not in gone) + "\n")
    checks = sessioncheck.check(raw / "draftself_gpu", "draftself_gpu")
    assert checks[SESSION].reasons == [
        f"{f}: session {SESSION} planned ('ds-k15-batched-one_pass', 'code-0', 3) but has no such run: "
        "an incomplete table"
    ]
    with pytest.raises(RuntimeError, match="no completed draftself_gpu session under .* passes the checks"):
        # and with the older session gone too, nothing is published
        (raw / "draftself_gpu" / "e3618a24b4e44752.jsonl").write_text(
            "\n".join(ln for ln in f.read_text().splitlines() if "33165c04" not in ln) + "\n"
        )
        build({}, root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("reports"))


def test_a_session_missing_every_run_of_a_planned_prompt_is_not_published(tmp_path):
    # the plan's prompts came from the runs alone: with all 21 runs of code-5 gone (7 configurations ×
    # 3 repetitions) the session still passed; its start record plans 6 prose and 6 code prompts
    raw = _copy_raw(tmp_path)
    f = raw / "draftself_gpu" / "e3618a24b4e44752.jsonl"
    lines = f.read_text().splitlines()
    keep = [
        line
        for line in lines
        if not (
            '"benchbook.draftself.run"' in line
            and json.loads(line)["session_id"] == SESSION
            and json.loads(line)["prompt_id"] == "code-5"
        )
    ]
    assert len(lines) - len(keep) == 21
    f.write_text("\n".join(keep) + "\n")
    reasons = sessioncheck.check(raw / "draftself_gpu", "draftself_gpu")[SESSION].reasons
    assert len(reasons) == 21
    assert reasons[0] == (
        f"{f}: session {SESSION} planned ('ar', 'code-5', 1) but has no such run: an incomplete table"
    )
    assert gpu_plan.planned_prompts({"prompts_per_class": 6}) == {
        f"{kind}-{i}" for kind in ("prose", "code") for i in range(6)
    }

"""speculative.server_cost: the cost model before and after the draft was timed inside llama-server, on
hand-made requests with the arithmetic written out, the leave-one-out overhead, the page part, and exact
values of the committed sessions (none ran at -lv 4: every "after" cell says so)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
import yaml

from benchbook.experiments.speculative import analysis as sp
from benchbook.experiments.speculative import report
from benchbook.experiments.speculative import server_cost as sc
from benchbook.experiments.speculative import server_cost_report as scr
from conftest import committed_root

COST = sp.CostModel(t1_ms=9.0, r={1: 1.0, 3: 1.5, 5: 2.0}, c={"d": 0.25}, target_model_id="t", n=3)


def _reqs(
    n: int, ms: float, steps: int | None, drafted: int, acc: int, t_draft: float | None
) -> pl.DataFrame:
    """Two requests alike: predicted_n ``n``, predicted_ms ``ms``, verify steps, drafted, accepted (all in
    the cap) and the server's drafting time each."""
    row = {
        "predicted_n": n,
        "predicted_ms": ms,
        "verify_steps": steps,
        "drafted": drafted,
        "accepted": acc,
        "accepted_in_cap": acc,
        "draft_model_id": "d",
        "has_stats": t_draft is not None,
        "t_draft_ms": t_draft,
    }
    return pl.DataFrame([row, row], schema_overrides={"verify_steps": pl.Int64, "t_draft_ms": pl.Float64})


def test_config_terms_before_after_and_the_components():
    base = _reqs(11, 100.0, 0, 0, 0, None)  # b = 200 ms / 20 steps = 10 ms; rate 20/200 tok/ms
    mine = _reqs(11, 80.0, 4, 8, 6, 16.0)  # rate 20/160: measured 0.125 / 0.1 = 1.25
    t = sc.config_terms(mine, base, COST)
    # τ = 1 + 12/8 = 2.5, k = 16/8 = 2, r(3) = 1.5, c = 0.25: before 2.5 / (0.5 + 1.5) = 1.25, residual 0
    assert (t["b_step_ms"], t["measured"], t["tau"], t["k"], t["r_k1"]) == (10.0, 1.25, 2.5, 2.0, 1.5)
    assert t["model_before"] == 1.25 and t["residual_before"] == 0.0
    # c_server = 32 ms / 16 drafted / 10 ms = 0.2: after 2.5 / (0.4 + 1.5) = 1.3158, residual +5.26%
    assert t["c_server"] == pytest.approx(0.2)
    assert t["model_after"] == pytest.approx(2.5 / 1.9) and t["residual_after"] == pytest.approx(
        2.5 / 1.9 / 1.25 - 1
    )
    # per step: drafting 32/8 = 4 ms; verify (160 - 32)/8 = 16 ms against r(3) × 10 = 15 ms: 1 ms overhead
    assert (t["draft_ms"], t["verify_ms"], t["verify_bench_ms"]) == (4.0, 16.0, 15.0)
    assert t["overhead_ms"] == pytest.approx(1.0) and t["overhead_server"] == pytest.approx(0.1)
    # with v_server in place of r(k+1) the model is the measurement: 2.5 / (0.4 + 1.6) = 1.25
    assert t["tau"] / (t["k"] * t["c_server"] + t["v_server"]) == pytest.approx(t["measured"])
    assert t["stats"] == sc.MEASURED


def test_a_session_without_spec_stats_is_not_measured_not_blank():
    t = sc.config_terms(_reqs(11, 80.0, 4, 8, 6, None), _reqs(11, 100.0, 0, 0, 0, None), COST)
    assert t["stats"] == sc.NOT_MEASURED and t["model_before"] == 1.25
    assert [t[c] for c in ("c_server", "model_after", "residual_after", "draft_ms", "overhead_ms")] == [
        None
    ] * 5
    assert t["verify_bench_ms"] == 15.0  # llama-bench's side needs no server counters
    # no cost model: no model at all, the measured speedup still
    none = sc.config_terms(_reqs(11, 80.0, 4, 8, 6, None), _reqs(11, 100.0, 0, 0, 0, None), None)
    assert none["measured"] == 1.25 and none["model_before"] is None and none["r_k1"] is None


def _row(
    cid: str, sess: str, k: float, c: float, over: float, tau: float = 2.0, measured: float = 1.2
) -> dict:
    return {
        "session_id": sess,
        "config_id": cid,
        "k": k,
        "c_bench": 9.0,  # llama-bench's c: not what the overhead term reads
        "c_server": c,
        "r_k1": 1.0,
        "tau": tau,
        "measured": measured,
        "overhead_server": over,
    }


def test_overhead_is_fitted_on_the_other_configurations_only():
    # x = (k+1)·c_server: a 2, b 2, c 1.5; y = 0.2, 0.2, 0.15: every leave-one-out β = 0.1
    t = pl.DataFrame(
        [
            _row("a", "s", 1, 1.0, 0.2),
            _row("b", "s", 3, 0.5, 0.2),
            _row("c", "s", 2, 0.5, 0.15),
            _row("x", "t", 1, 1.0, 0.9),  # another session: never in s's fit
            _row("y", "t", 1, 1.0, 0.9),
        ]
    )
    out = {r["config_id"]: r for r in sc.with_overhead(t).iter_rows(named=True)}
    c = out["c"]
    # β from a and b: (2·0.2 + 2·0.2) / (4 + 4) = 0.1; o = 0.1 · 3 · 0.5 = 0.15;
    # model = 2 / (2·0.5 + 1 + 0.15) = 0.9302; residual = 0.9302 / 1.2 − 1 = −0.2248
    assert c["beta_loo"] == pytest.approx(0.1) and c["overhead_model"] == pytest.approx(0.15)
    assert c["model_overhead"] == pytest.approx(2 / 2.15) and c["residual_overhead"] == pytest.approx(
        2 / 2.15 / 1.2 - 1
    )
    assert c["overhead_configs"] == ["a", "b"]
    # a: β from b and c = (2·0.2 + 1.5·0.15) / (4 + 2.25) = 0.1
    assert out["a"]["beta_loo"] == pytest.approx(0.1)
    # session t has one other configuration each: no estimate
    assert out["x"]["beta_loo"] is None and out["x"]["model_overhead"] is None


def test_the_page_part_says_not_measured_and_links_every_number():
    row = {
        "host_id": "h" * 16,
        "session_id": "s" * 32,
        "config_id": "self-n4",
        "n": 12,
        "lv4": False,
        "stats": sc.NOT_MEASURED,
        "started_at": "2026-01-01T00:00:00Z",
    }
    table = pl.DataFrame([row])
    keys = {scr.key_of(row, c) for c in ("measured", "model_before", "residual_before")}

    class N:  # what markdown reads of a Number: its key
        def __init__(self, key):
            self.key = key

    md = scr.markdown(table, [N(k) for k in keys])
    line = md.splitlines()[2]
    assert "{{< var spec-sc-hhhhhhhh-ssssssss-self-n4-measured__v >}}" in line
    assert line.count("not measured in this session") == 7  # the after model and the server's components
    assert "not known (no cost model or verify steps)" in line  # verify_bench_ms: not published here
    assert "No session yet ran llama-server at `-lv 4`" in md


def test_committed_sessions_residuals_before_after_and_with_overhead():
    raw = committed_root() / "data" / "raw" / "speculative"
    req = sp.load_requests(raw)
    table, costs = scr.sessions_table(raw, req)
    got = {(r["session_id"][:8], r["config_id"]): r for r in table.iter_rows(named=True)}
    # every complete session: 3 on CPU host 246274ab, 2 on CPU host 3f1dfa40 (at -lv 4), 2 on the H200
    # e3618a24 (one at -lv 4); five draft-model configurations each
    assert len(costs) == 7 and table.height == 35
    # the example, CPU host 246274ab, newest session: self-draft n_max 4 (pooled over 4 prompts)
    cpu = got[("4ad89052", "self-n4")]
    assert round(cpu["measured"], 4) == 0.4917 and round(cpu["model_before"], 4) == 0.7486
    assert round(cpu["residual_before"], 4) == 0.5225 and cpu["stats"] == sc.NOT_MEASURED
    # the GPU host e3618a24: the model promises 2.15× what was measured
    assert round(got[("7554df47", "self-n4")]["residual_before"], 4) == 1.1504

    def residuals(session: str) -> dict[str, tuple]:
        cols = ("residual_before", "residual_after", "residual_overhead")
        return {c: tuple(round(r[x], 4) for x in cols) for (s, c), r in got.items() if s == session}

    # the quiet CPU session at -lv 4: the draft timed in the server alone leaves +40..+52%; the per-step
    # overhead (fitted on the other configurations) brings every configuration within ±10%
    assert residuals("e5c68027") == {
        "q2k-n4": (0.4967, 0.4462, 0.0268),
        "self-n15": (0.3813, 0.3961, -0.0423),
        "self-n4": (0.5076, 0.4966, 0.0452),
        "self-n8": (0.4155, 0.4425, 0.021),
        "trunc20-n2": (0.6799, 0.5191, 0.0935),
    }
    # what the overhead is, measured: ms per verify step beyond llama-bench's r(k+1) pass
    assert round(got[("e5c68027", "self-n4")]["overhead_ms"], 2) == 43.07
    assert residuals("5b481365") == {  # the H200 at -lv 4
        "q2k-n4": (0.8835, 0.4378, 0.0424),
        "self-n15": (0.3613, 0.2921, -0.0708),
        "self-n4": (0.9742, 0.4756, 0.0737),
        "self-n8": (0.5551, 0.356, 0.0295),
        "trunc20-n2": (1.1592, 0.4841, 0.0735),
    }
    # the CPU session measured while other processes ran (1-min load up to 5.6): trunc20-n2 stays +32%
    assert residuals("521afbb1")["trunc20-n2"][2] == 0.3208
    lv4 = {s for (s, _), r in got.items() if r["stats"] == sc.MEASURED}
    assert lv4 == {"e5c68027", "5b481365", "521afbb1"}
    assert table.filter(pl.col("stats") == sc.NOT_MEASURED)["model_after"].null_count() == 20


def _cfg(prompt: str, equal: bool | None, cap: bool, equal_work: bool | None, pos: int | None = None) -> dict:
    """One ``config_table`` row of configuration ``self-n4`` in session ``s`` (cold, greedy)."""
    return {
        "session_id": "s",
        "config_id": "self-n4",
        "prompt_id": prompt,
        "cache_state": "cold",
        "output_equal": equal,
        "first_mismatch_pos": pos,
        "greedy": True,
        "cap_hit": cap,
        "cap_equal_work": equal_work,
        "cache_n_max": 0,
    }


def test_every_hosts_pooled_rows_are_judged_by_the_rules_of_the_per_prompt_table():
    # two pooled rows of self-n4, one per host; the requests of both: α = 0.9, measured 0.5
    row = {"session_id": "s", "config_id": "self-n4", "prompts": ["a", "b"], "n": 12, "build_number": 11434}
    row |= {"measured": 0.5, "alpha": 0.9, "toolchain_id": "t", "load1_max": 3.0, "others_cpu_pct_max": None}
    table = pl.DataFrame([row | {"host_id": "gpu16"}, row | {"host_id": "cpu2"}])
    configs = pl.DataFrame(
        [
            _cfg("a", False, True, True, pos=27),  # prompt a: the output differs from token 27 on
            _cfg("b", True, False, None),
            _cfg("c", False, True, False, pos=3),  # a prompt the pooled row does not read
            {**_cfg("a", True, True, True), "config_id": "baseline"},
        ]
    )
    checked = sc.with_checks(table, configs)
    first = checked.row(0, named=True)
    # a differs on one of its two prompts: pooled output_equal False, first mismatch 27 (c not read)
    assert (first["output_equal"], first["first_mismatch_pos"], first["greedy"]) == (False, 27, True)
    # the cap hit on a with equal work on both sides, b below the cap: like with like
    assert (first["cap_hit"], first["cap_equal_work"], first["speedup_mean"]) == (True, True, 0.5)
    assert first["acceptance_definition"] == "tested"
    hosts = {"gpu16": {"cpu_logical": 16}, "cpu2": {"cpu_logical": 2}}
    got = scr.with_caveats(checked, hosts, {}, report.WANTED_RULES)["caveats"].to_list()
    # both hosts: output_mismatch; α 0.9 ≥ 0.5 with speedup 0.5 ≤ 1; the cap by design (a note);
    # busy_host by each host's own cores: load 3.0 > 0.5 × 2 on cpu2, not > 0.5 × 16 = 8 on gpu16
    same = ["output_mismatch", "acceptance_without_speedup", "cap_by_design"]
    assert got == [same, [*same, "busy_host"]]
    # a cap that cut one side short on prompt a (unequal work): the warning, not the note
    configs = configs.with_columns(
        pl.when(pl.col("prompt_id") == "a")
        .then(False)
        .otherwise(pl.col("cap_equal_work"))
        .alias("cap_equal_work")
    )
    unequal = scr.with_caveats(sc.with_checks(table, configs), hosts, {}, ["cap_hit", "cap_by_design"])
    assert unequal["caveats"].to_list() == [["cap_hit"], ["cap_hit"]]


def test_report_publishes_the_table(tmp_path):
    from benchbook.experiments.speculative import report

    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    rep = report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=tmp_path)
    sc_nums = [n for n in rep.numbers if n.key.startswith("spec-sc-")]
    # 35 rows × (measured, model before, residual before, verify ms from r(k+1)) + 15 rows at -lv 4 ×
    # (model after, residual after, draft ms, verify ms, overhead ms, model and residual with overhead)
    assert len(sc_nums) == 35 * 4 + 15 * 7 == 245
    md = (tmp_path / "speculative" / "server_cost.md").read_text()
    assert md.count("{{< var spec-sc-") == 245 and md.count("| e3618a24 |") == 10
    assert (
        "Models within ±15% of the measured speedup — before: 0 of 35 rows; after: 0 of 15 rows; "
        "with the per-step overhead: 14 of 15 rows." in md
    )
    # every host's rows through the rules of the per-prompt table: the H200's outputs differ from its
    # baseline's on 3 of the 4 prompts of each of its 10 rows (75 numbers); the CPU hosts' never do
    mismatch = {n.key for n in sc_nums if "output_mismatch" in n.caveats}
    gpu = {n.key for n in sc_nums if n.host_id == "e3618a24b4e44752"}
    assert mismatch == gpu and len(gpu) == 75
    # self-draft: α 1.0 (CPU) and 0.84-0.91 (H200) with speedups 0.28-0.57; Q2_K: α 0.63 on the CPU
    # hosts, 0.45 < 0.5 on the H200; trunc20: α 0.06-0.07
    awos = {n.label.split(",")[0] for n in sc_nums if "acceptance_without_speedup" in n.caveats}
    assert awos == {"self-n4", "self-n8", "self-n15", "q2k-n4"}
    assert not any(
        "acceptance_without_speedup" in n.caveats
        for n in sc_nums
        if "-e3618a24-" in n.key and "-q2k-" in n.key
    )
    # every request of every row and of its baseline stopped at its prompt's cap with equal work
    assert all("cap_by_design" in n.caveats and "cap_hit" not in n.caveats for n in sc_nums)


#: a throwaway session at -lv 4 of the real CPU build b11434 (1 repetition, prompts ko_story and code_echo
#: at caps 24 and 40, baseline, self-n4, trunc20-n2, q2k-n4, ngram-mod; cost model -p 1,2,3,5,9 -n 16 -r 3)
#: on a host loaded by other processes (the baseline decoded at 0.7-2.6 tok/s): its values exercise the
#: arithmetic and the citations, they describe no machine
FIX = Path(__file__).parent / "fixtures" / "specstats"


def test_a_session_at_lv4_publishes_after_and_overhead_that_recompute_from_their_cited_lines():
    import json

    from benchbook.provenance import read_snapshots
    from test_cited_recompute import RECOMPUTE, _agrees

    raw = FIX / "speculative"
    table, costs = scr.sessions_table(raw, sp.load_requests(raw))
    nums = scr.numbers(table, costs, read_snapshots(FIX / "snapshots", "toolchain"))
    got = {r["config_id"]: r for r in table.iter_rows(named=True)}
    assert sorted(got) == ["q2k-n4", "self-n4", "trunc20-n2"] and all(r["lv4"] for r in got.values())
    s = got["self-n4"]
    # 2 requests: Σ t_draft_ms over Σ verify steps = 1560.2042 ms per step, verify 2010.9969 ms per step
    assert (round(s["draft_ms"], 4), round(s["verify_ms"], 4)) == (1560.2042, 2010.9969)
    assert (round(s["measured"], 4), round(s["model_after"], 4), round(s["residual_after"], 4)) == (
        1.0135,
        0.5029,
        -0.5038,
    )
    # trunc20-n2: the other two configurations' fit gives a negative β whose o(k) exceeds the rest of
    # the step: no model (not a negative speedup)
    t = got["trunc20-n2"]
    assert round(t["beta_loo"], 4) == -1.7652 and t["model_overhead"] is None
    kinds = {(n.computation, n.unit) for n in nums}
    assert kinds == {
        (scr.COMPUTATION, "×"),
        (scr.COMPUTATION, "fraction"),
        (scr.COMPUTATION, "ms"),
        (scr.COMPUTATION_OVERHEAD, "×"),
        (scr.COMPUTATION_OVERHEAD, "fraction"),
    }
    lines = (raw / "3f1dfa40cbf1eb67.jsonl").read_text().splitlines()
    wrong = []
    for n in nums:
        (src,) = n.sources
        recs = [json.loads(lines[i - 1]) for a, b in src["lines"] for i in range(a, b + 1)]
        value = RECOMPUTE[(n.computation, n.unit)]({"key": n.key, "label": n.label}, recs)
        if not _agrees(value, n.value):
            wrong.append(f"{n.key}: published {n.value}, cited lines give {value}")
    assert wrong == [] and len(nums) == 3 * 9 + 2 * 2  # trunc20-n2 has no overhead model
    md = scr.markdown(table, nums)
    assert md.count("| -lv 4 (trace) |") == 3 and "ran llama-server at `-lv 4` (trace)" in md
    assert "not measured in this session" not in md
    assert md.count("none: the fitted overhead (β < 0) exceeds the rest of the step") == 2  # trunc20-n2
    # before −0.65, −0.58, −0.63; after −0.51, −0.50, +0.23; with overhead −0.058, −0.131 (β < 0 on this
    # loaded host: the values exercise the count, they describe no machine)
    assert "before: 0 of 3 rows; after: 0 of 3 rows; with the per-step overhead: 2 of 2 rows." in md


def test_a_session_at_lv4_with_a_missing_statistics_line_says_incomplete():
    # one of the two requests has spec_stats null (its line came after await_stats' wait): the row said
    # "not measured in this session" although the session ran at -lv 4
    mine = _reqs(11, 80.0, 4, 8, 6, 16.0).with_columns(
        pl.Series("t_draft_ms", [16.0, None], dtype=pl.Float64)
    )
    t = sc.config_terms(mine, _reqs(11, 100.0, 0, 0, 0, None), COST)
    assert t["stats"] == "incomplete at -lv 4: no statistics line for 1 of 2 requests"
    assert [t[c] for c in ("c_server", "model_after", "draft_ms")] == [None] * 3
    assert t["model_before"] == 1.25
    row = {
        "host_id": "h" * 16,
        "session_id": "s" * 32,
        "config_id": "self-n4",
        "n": 2,
        "lv4": True,
        "stats": t["stats"],
        "started_at": "2026-01-01T00:00:00Z",
    }
    line = scr.markdown(pl.DataFrame([row]), []).splitlines()[2]
    assert line.count("incomplete at -lv 4: no statistics line for 1 of 2 requests") == 7
    assert "not measured in this session" not in line


def _lv4_line(t: dict) -> str:
    row = {"host_id": "h" * 16, "session_id": "s" * 32, "config_id": "q2k-n4", "n": 2, "lv4": True}
    row |= {"started_at": "2026-01-01T00:00:00Z", **t}
    return scr.markdown(pl.DataFrame([row]), []).splitlines()[2]


def test_a_configuration_at_lv4_that_drafted_no_token_is_measured():
    # both requests: 8 verify steps, 0 drafted, the draft calls took 5 ms each (t_draft 10 ms).  Before:
    # stats "not measured in this session" beside "-lv 4 (trace)" and every server cell empty.
    # Right: b = 10 ms; measured 1.25 (as test_config_terms_before_after_and_the_components); τ = 1,
    # k = 0; draft_ms = 10/8 = 1.25 ms; verify_ms = (160 - 10)/8 = 18.75 ms; the drafting per step in
    # baseline steps 1.25/10 = 0.125, so after = 1 / (0.125 + r(1) = 1.0) = 0.8889, residual -28.9%;
    # c_server (per drafted token) has no value
    t = sc.config_terms(_reqs(11, 80.0, 4, 0, 0, 5.0), _reqs(11, 100.0, 0, 0, 0, None), COST)
    assert t["stats"] == sc.MEASURED
    assert (t["tau"], t["k"], t["draft_ms"], t["verify_ms"]) == (1.0, 0.0, 1.25, 18.75)
    assert t["c_server"] is None
    assert t["model_after"] == pytest.approx(1 / 1.125) and t["residual_after"] == pytest.approx(
        1 / 1.125 / 1.25 - 1
    )
    line = _lv4_line(t)
    assert "not measured in this session" not in line
    assert line.count("none: no token drafted (no draft cost per token to scale the overhead by)") == 2


def test_a_configuration_at_lv4_without_verify_steps_says_not_known():
    # /metrics gave no verify steps (null): the counters are there but no per-step term can be formed.
    # Before: "not measured in this session" in the 7 server cells of a -lv 4 row
    t = sc.config_terms(_reqs(11, 80.0, None, 8, 6, 16.0), _reqs(11, 100.0, 0, 0, 0, None), COST)
    assert t["stats"] == sc.MEASURED
    assert [t[c] for c in ("tau", "k", "model_after", "draft_ms", "c_server")] == [None] * 5
    line = _lv4_line(t)
    assert "not measured in this session" not in line
    # all 11 cells (none is published in this call): the 7 server cells among them
    assert line.count("not known (no cost model or verify steps)") == 11


def test_a_record_without_the_spec_stats_field_in_a_lv4_session_is_one_request_without_counters(tmp_path):
    # CPU session e5c68027 (-lv 4), configurations baseline, self-n4, self-n8 and q2k-n4; the first self-n4
    # request's record lacks the spec_stats field (as one written by code that did not record it).
    # Before: the whole session read "default" (lv4 was has_stats.all()), its page note said no session
    # ran at -lv 4 beside the published after-models of self-n8 and q2k-n4, and self-n4's cells said
    # "not measured in this session".  Right: the session is at -lv 4, self-n4 is incomplete (1 of 12)
    import json
    import shutil

    raw = committed_root() / "data" / "raw"
    src = raw / "speculative" / "3f1dfa40cbf1eb67.jsonl"
    # the session's runs are checked against its plan: its start record plans the kept configurations
    shutil.copytree(raw / "snapshots" / "models", tmp_path / "snapshots" / "models")
    shutil.copy(raw / "snapshots" / "models.jsonl", tmp_path / "snapshots" / "models.jsonl")
    tmp_path = tmp_path / "speculative"
    tmp_path.mkdir()
    keep, out, dropped = {"baseline", "self-n4", "self-n8", "q2k-n4"}, [], False
    for line in src.read_text().splitlines():
        r = json.loads(line)
        if r.get("session_id", "")[:8] != "e5c68027":
            continue
        if r.get("schema") == "benchbook.speculative_request" and r["config"]["config_id"] not in keep:
            continue
        if r.get("schema") == "benchbook.session" and r["event"] == "start":
            r["config"]["configs"] = [c for c in r["config"]["configs"] if c["id"] in keep]
        if r.get("config", {}).get("config_id") == "self-n4" and "spec_stats" in r and not dropped:
            del r["spec_stats"]
            dropped = True
        out.append(json.dumps(r))
    (tmp_path / src.name).write_text("\n".join(out) + "\n")
    table, costs = scr.sessions_table(tmp_path, sp.load_requests(tmp_path))
    rows = {r["config_id"]: r for r in table.iter_rows(named=True)}
    assert sorted(rows) == ["q2k-n4", "self-n4", "self-n8"] and all(r["lv4"] for r in rows.values())
    assert rows["self-n4"]["stats"] == "incomplete at -lv 4: no statistics line for 1 of 12 requests"
    assert rows["self-n4"]["model_after"] is None
    assert rows["self-n8"]["stats"] == rows["q2k-n4"]["stats"] == sc.MEASURED
    md = scr.markdown(table, scr.numbers(table, costs, {}))
    assert "| -lv 4 (trace) | self-n4 | 12 |" in md and "| default |" not in md
    assert "No session yet ran llama-server at `-lv 4`" not in md


def test_an_empty_spec_stats_is_a_request_without_counters(tmp_path):
    # the first record with counters of the CPU file gets spec_stats {} (spec_depth's form of "none").
    # Before: load_stats raised KeyError 't_draft_ms' (the report stage failed without a file:line);
    # right: that request has no counters (its configuration then reads incomplete, 1 of 12)
    import json

    src = committed_root() / "data" / "raw" / "speculative" / "3f1dfa40cbf1eb67.jsonl"
    out, line_no = [], None
    for i, line in enumerate(src.read_text().splitlines(), 1):
        r = json.loads(line)
        if r.get("spec_stats") and line_no is None:
            r["spec_stats"], line_no = {}, i
        out.append(json.dumps(r))
    (tmp_path / src.name).write_text("\n".join(out) + "\n")
    st = sc.load_stats(tmp_path)
    row = st.filter(pl.col("line") == line_no).row(0, named=True)
    assert (row["has_stats"], row["t_draft_ms"], row["gen_drafts"]) == (True, None, None)


def test_the_disturbed_sessions_cost_model_numbers_carry_cost_rows_disturbed():
    from benchbook.provenance import read_snapshots

    root = committed_root()
    raw = root / "data" / "raw" / "speculative"
    params = yaml.safe_load((root / "params.yaml").read_text())
    table, costs = scr.sessions_table(raw, sp.load_requests(raw))
    snaps = root / "data" / "raw" / "snapshots"
    from benchbook.experiments.speculative.report import WANTED_RULES

    table = scr.with_caveats(table, read_snapshots(snaps, "host"), params["report"], WANTED_RULES)
    nums = scr.numbers(table, costs, read_snapshots(snaps, "toolchain"))
    r1 = {sid[:8]: round(c.r1, 3) for sid, c in costs.items() if c is not None}
    # the resumed session 4787a708: pp1 median 51421866 ns ÷ (tg32 median 328653615 ns / 32) = 5.007;
    # the host's other sessions 0.918 and 0.953
    assert (r1["4787a708"], r1["c81f79c3"], r1["4ad89052"]) == (5.007, 0.918, 0.953)
    assert all(0.67 <= v <= 1.5 for s, v in r1.items() if s != "4787a708")
    flagged = {n.key for n in nums if "cost_rows_disturbed" in n.caveats}
    built_on_cost = {
        f"spec-sc-246274ab-4787a708-{cid}-{what}"
        for cid in ("q2k-n4", "self-n15", "self-n4", "self-n8", "trunc20-n2")
        for what in ("model_before", "residual_before", "verify_bench_ms")
    }
    # all 15 numbers that read its cost rows, none other (its 5 measured speedups read requests only)
    assert flagged == built_on_cost
    measured = {n.key: n.caveats for n in nums if "4787a708" in n.key and n.key.endswith("-measured")}
    assert len(measured) == 5 and all("cost_rows_disturbed" not in c for c in measured.values())
    # the row's own caveats first (its requests also ran under load: busy_host), then the cost rows'
    q2k = next(n for n in nums if n.key == "spec-sc-246274ab-4787a708-q2k-n4-model_before")
    assert q2k.caveats[-2:] == ["busy_host", "cost_rows_disturbed"]

"""Order and state (issue 28 §6): repetitions that drift in run order get ``order_trend`` with the first
and settled values (native llama-bench rows, speculative rows, raw logs, claims: one rule), a drifting
record is not pooled with a settled one of its configuration, and repeated requests to one server whose
acceptance and rate jump get ``cross_request_state`` on logs and claims as on native records."""

import warnings

import pytest

from benchbook import caveats, identity
from benchbook.experiments.llama_bench import analysis
from test_analysis import lb_record, write

DRIFT = [30.2, 27.9, 27.1, 26.4, 26.0]  # the issue's five trials
SETTLED = [26.1, 26.0, 25.9, 26.1, 26.0]


def ns(rates, tokens):
    return [round(1e9 * tokens / r) for r in rates]


def tg128(run_id, rates):
    return lb_record(run_id, ns(rates, 128), n_prompt=0, n_gen=128)


def native_stats(tmp_path, recs):
    write(tmp_path / "h.jsonl", recs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return analysis.rate_stats(analysis.load_llama_bench(tmp_path))


def test_order_trend_of_the_issues_five_trials():
    t = identity.order_trend(DRIFT)
    # ranks of the values 5 4 3 2 1 against run order 1..5: rho = -1; the rest 27.9+27.1+26.4+26.0 = 107.4,
    # / 4 = 26.85; 1 - 26.85 / 30.2 = 0.1109 (the rest 11.1% below the first; the first 12.5% above them)
    assert t.rho == pytest.approx(-1.0) and t.rest_mean == pytest.approx(26.85)
    assert t.drift == pytest.approx(0.110927, abs=1e-6) and t.drifting
    assert t.text() == (
        "5 trials in run order 30.2, 27.9, 27.1, 26.4, 26.0 tok/s: Spearman ρ -1.00; first 30.2, "
        "settling to 26.0 (the rest average 26.85, 11.1% below the first)"
    )
    # control: the settled trials (rho -0.21, the rest 0.4% below the first) do not drift
    calm = identity.order_trend(SETTLED)
    assert calm.rho == pytest.approx(-0.210819, abs=1e-6) and not calm.drifting
    # four values: a perfect order arises by chance 2 times in 24; not enough
    assert not identity.order_trend(DRIFT[:4]).drifting


def test_native_drifting_record_is_not_pooled_with_a_settled_one(tmp_path):
    # one configuration, two records: before, one pooled row n = 10, mean 26.77; Welch's test does not
    # split them (means 27.52 and 26.02, t = 1.5 / 0.745 = 2.01 on 4 df, p = 0.11): the drift does
    st = native_stats(tmp_path, [tg128("a", DRIFT), tg128("b", SETTLED)])
    assert st.height == 2 and st["run_ids"].to_list() == [["a"], ["b"]]
    assert st["n"].to_list() == [5, 5] and st["state_effect"].to_list() == [False, False]
    assert st["mean_tps"].to_list() == pytest.approx([27.52, 26.02], abs=1e-3)
    assert st["order_rho"].to_list()[0] == pytest.approx(-1.0)
    judged = caveats.attach(st)
    assert ["order_trend" in c for c in judged["caveats"].to_list()] == [True, False]


def test_native_settled_records_still_pool(tmp_path):
    st = native_stats(tmp_path, [tg128("a", SETTLED), tg128("b", SETTLED[::-1])])
    assert st.height == 1 and st["n"].to_list() == [10]
    assert "order_trend" not in caveats.attach(st)["caveats"].to_list()[0]


def test_native_speculative_repetitions_drifting_get_order_trend():
    import polars as pl

    from benchbook.experiments.speculative import analysis as sp
    from test_speculative import _SCHEMA, _req

    # five repetitions of one configuration, fresh servers: the decode rates drift 30.2 -> 26.0 (no
    # cross-request state: a fresh server per repetition); the baseline settled (control)
    rows = [_req("baseline", "p", i, tps, [1, 2, 3]) for i, tps in enumerate(SETTLED)]
    rows += [_req("ng", "p", i, tps, [1, 2, 3], drafted=8, acc=4, steps=2) for i, tps in enumerate(DRIFT)]
    t = sp.config_table(pl.DataFrame(rows, schema_overrides=_SCHEMA))
    judged, status = caveats.evaluate(t, "speculative", rules=["order_trend", "cross_request_state"])
    assert status["order_trend"] == "applied"
    got = dict(zip(judged["config_id"].to_list(), judged["caveats"].to_list(), strict=True))
    assert got == {"baseline": [], "ng": ["order_trend"]}
    ng = judged.filter(pl.col("config_id") == "ng").row(0, named=True)
    assert (ng["order_n"], ng["order_rho"], ng["order_drift"]) == pytest.approx((5, -1.0, 0.110927), abs=1e-6)


FX = __import__("pathlib").Path(__file__).parent / "fixtures" / "audit"
EMPTY = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims: []\n"


def log_verdicts(tmp_path):
    from benchbook.audit import run
    from benchbook.audit.verdicts import Here

    claims = tmp_path / "c.yaml"
    claims.write_text(EMPTY)
    return {v.id: v for v in run.audit_file(claims, FX / "logs_state", here=Here()).verdicts}


def test_log_repetitions_and_requests_drifting_get_order_trend_with_first_and_settled(tmp_path):
    v = log_verdicts(tmp_path)
    # llama-bench: two rows of one configuration (tg128), the first drifting, kept apart
    drift, calm = v["bench_drift.jsonl:1"], v["bench_drift.jsonl:2"]
    assert [q.check for q in drift.qualifiers] == ["high_variance", "order_trend"]
    assert drift.qualifiers[1].kind == "at risk" and drift.qualifiers[1].reason == (
        "5 repetitions in run order 30.2, 27.9, 27.1, 26.4, 26.0 tok/s: Spearman ρ -1.00; first 30.2, "
        "settling to 26.0 (the rest average 26.85, 11.1% below the first)"
    )
    assert drift.recomputed == "27.520" and calm.recomputed == "26.020"  # not pooled into 26.77
    assert calm.qualifiers == []  # control: settled
    # five requests to one server, 128 tokens each at 30.2 ... 26.0 tok/s
    first = v["server_drift.log:4"]
    assert [q.check for q in first.qualifiers] == ["single_run", "order_trend"]
    assert first.qualifiers[1].reason == (
        "5 requests to one server (server_drift.log) in run order 30.2, 27.9, 27.1, 26.4, 26.0 tok/s: "
        "Spearman ρ -1.00; first 30.2, settling to 26.0 (the rest average 26.85, 11.1% below the first)"
    )
    assert [q.check for q in v["server_settled.log:4"].qualifiers] == ["single_run"]  # control


def test_a_server_restart_in_one_log_starts_a_new_process(tmp_path):
    from benchbook.audit import run
    from benchbook.audit.verdicts import Here

    # before: the 10 requests of two processes were pooled (30.2 ... 26.0, then 26.1 ... 26.0): no
    # order_trend on any; the second process starts at its "llama_server: initializing" line
    drift = (FX / "logs_state" / "server_drift.log").read_text()
    settled = (FX / "logs_state" / "server_settled.log").read_text()
    start = drift.count("\n") + 1  # line 28: the second process's first line (both files have 27)
    assert start == settled.count("\n") + 1 == 28
    for name, text, drift_at, settled_at, where in (
        ("two.log", drift + settled, 4, start + 3, "two.log"),
        ("two.log", settled + drift, start + 3, 4, f"two.log from line {start}"),
    ):
        d = tmp_path / name.replace(".log", str(drift_at))
        d.mkdir()
        (d / name).write_text(text)
        claims = tmp_path / "c.yaml"
        claims.write_text(EMPTY)
        v = {x.id: x for x in run.audit_file(claims, d, here=Here()).verdicts}
        assert len([x for x in v if x.startswith("two.log:")]) == 10
        drifting = [f"two.log:{drift_at + 5 * i}" for i in range(5)]
        for k in drifting:
            assert [q.check for q in v[k].qualifiers] == ["single_run", "order_trend"], k
        assert v[drifting[0]].qualifiers[1].reason == (
            f"5 requests to one server ({where}) in run order 30.2, 27.9, 27.1, 26.4, 26.0 tok/s: "
            "Spearman ρ -1.00; first 30.2, settling to 26.0 (the rest average 26.85, 11.1% below the first)"
        )
        for i in range(5):  # control: the settled process's requests
            assert [q.check for q in v[f"two.log:{settled_at + 5 * i}"].qualifiers] == ["single_run"]


def test_process_starts_split_only_after_a_request():
    from benchbook.ingest.serverlog import process_starts

    req = "prompt eval time =  200.00 ms /   100 tokens (    2.00 ms per token,   500.00 tokens per second)"
    # the start lines of one process (build, system info, model, listening) before its first request
    one = "build: 4641 (abc)\nsystem info: x\nloading model '/m.gguf'\nmain: server is listening\n"
    assert process_starts(one + req + "\n" + req + "\n") == []  # control: one process
    assert process_starts(one + req + "\n" + one + req + "\n") == [6]


def test_log_requests_whose_acceptance_and_rate_jump_get_cross_request_state(tmp_path):
    v = log_verdicts(tmp_path)
    # alpha 12/96 = 0.125, 55/140 = 0.393, 180/200 = 0.900: least-squares slope (0.900 - 0.125) / 2
    # = 0.3875 per request > 0.01; decode 240 tokens / 24.0, 12.0, 8.0 s = 10, 20, 30 tok/s
    for line in (5, 11, 17):
        q = [q for q in v[f"server_state.log:{line}"].qualifiers if q.check == "cross_request_state"]
        assert len(q) == 1 and q[0].kind == "at risk"
    assert q[0].reason == (
        "3 requests to one server (server_state.log, in order): accepted/drafted 12/96 → 55/140 → 180/200 "
        "(α 0.125 → 0.393 → 0.900, +0.388 per request); decode rate 10.0 → 20.0 → 30.0 tok/s (×3.00 from "
        "the first to the last): state carried between requests, not the draft on new text"
    )
    assert "cross_request_state" not in {q.check for q in v["server_drift.log:4"].qualifiers}  # plain


def test_claims_stated_with_run_index_get_order_trend_and_cross_request_state():
    from benchbook.audit import run
    from benchbook.audit.verdicts import Here

    v = {x.id: x for x in run.audit_file(FX / "state.yaml", here=Here()).verdicts}
    checks = {i: [q.check for q in v[i].qualifiers if q.check != "single_run"] for i in v}
    assert {i for i, c in checks.items() if "order_trend" in c} == {"t1", "t2", "t3", "t4", "t5"}
    assert {i for i, c in checks.items() if "cross_request_state" in c} == {
        "a1",
        "a2",
        "a3",
        "r1",
        "r2",
        "r3",
    }
    (q,) = [q for q in v["t1"].qualifiers if q.check == "order_trend"]
    assert q.kind == "at risk" and q.reason == (
        "5 runs of one configuration (t1, t2, t3, t4, t5) in run order 30.2, 27.9, 27.1, 26.4, 26.0 tok/s: "
        "Spearman ρ -1.00; first 30.2, settling to 26.0 (the rest average 26.85, 11.1% below the first)"
    )
    (q,) = [q for q in v["a2"].qualifiers if q.check == "cross_request_state"]
    # alpha 0.125, 0.393, 0.900 over run_index 1, 2, 3: slope (0.900 - 0.125) / 2 = 0.3875
    assert q.reason == (
        "acceptance 12/96 → 55/140 → 180/200 over 3 runs of one configuration (a1, a2, a3) in run_index "
        "order (α 0.125 → 0.393 → 0.900, +0.388 per run): state carried between requests, not the draft on "
        "new text"
    )
    (q,) = [q for q in v["r3"].qualifiers if q.check == "cross_request_state"]
    # 10, 20, 30 tok/s: slope 10 per run over a mean of 20 = 0.5 > 0.1
    assert q.reason == (
        "decode_tps 10 → 20 → 30 tok/s over 3 runs of one configuration (r1, r2, r3) in run_index order "
        "(×3.00 from the first to the last): state carried between requests"
    )
    # controls: settled trials (c1-c5), a steady acceptance (s1-s3)
    assert all(checks[i] == [] for i in ("c1", "c3", "c5", "s1", "s2", "s3"))


def test_a_claim_over_a_drifting_and_a_settled_log_row_says_they_are_not_pooled(tmp_path):
    from benchbook.audit import run
    from benchbook.audit.verdicts import Here

    claims = tmp_path / "c.yaml"
    claims.write_text(
        EMPTY.replace("claims: []\n", "")
        + "claims:\n  - {id: tg, metric: decode_tps, value: 26.0, unit: tok/s, method: llama-bench tg128,\n"
        "     log: bench_drift.jsonl}\n"
    )
    (v,) = [x for x in run.audit_file(claims, FX / "logs_state", here=Here()).verdicts if x.id == "tg"]
    # the two rows' means, 26.02 and 27.52, each on its own (not the pooled 26.77)
    assert v.recomputed == "26.020–27.520" and v.consistency == "consistent"
    assert v.arithmetic == (
        "decode_tps recomputed from bench_drift.jsonl: 26.020–27.520 tok/s (range over 2 rows of one log); "
        "not pooled: bench_drift.jsonl:1 drift in run order (order_trend), bench_drift.jsonl:2 do not; "
        "definition: mean of per-repetition (n_prompt + n_gen) ÷ sample time (llama-bench avg_ts)"
    )

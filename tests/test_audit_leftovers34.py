"""Leftovers of the audit engine (issues 27, 28, 34): each example a regression test with its value.

* the log tables' per-file trends computed once (``audit.logs._trends`` keeps what
  ``audit.logstate.with_request_state`` does not replace);
* a server log of several processes: each request of its own process's model, build and sampler;
* a unit hint lists units as users write them (GiB, not gib);
* the slope and gap statistics live in ``benchbook.stats``, read by the analyses and the audit alike.
"""

import ast
from pathlib import Path

import pytest

from benchbook import stats
from benchbook.audit import logs, logstate, schema
from benchbook.experiments.llama_bench import spread
from benchbook.experiments.speculative import analysis
from benchbook.ingest.common import IngestError
from benchbook.ingest.serverlog import read_server_log

FX = Path(__file__).parent / "fixtures" / "audit"
SRC = Path(__file__).parents[1] / "src" / "benchbook"


# --- the log tables' trends: one computation each -------------------------------------------------


def test_trends_set_only_the_columns_logstate_does_not_replace():
    # two speculative requests of one server log (speedups 1.5 then 1.2: slope -0.3 per request) and a
    # baseline request; server_policy and the α and drafted trends are logstate's (per prompt)
    rows = [
        {
            "files": ["a.log"],
            "config_id": "a.log:1",
            "spec_type": "draft",
            "drafted": 10,
            "speedup_mean": 1.5,
        },
        {
            "files": ["a.log"],
            "config_id": "a.log:2",
            "spec_type": "draft",
            "drafted": 20,
            "speedup_mean": 1.2,
        },
        {"files": ["a.log"], "config_id": "a.log:3", "spec_type": "none", "drafted": 0, "speedup_mean": None},
    ]
    before = [set(r) for r in rows]
    logs._trends(rows, {"a.log"}, {})
    assert all(
        set(r) - b == {"speedup_trend_slope", "drafted_reps"} for r, b in zip(rows, before, strict=True)
    )
    assert [r["speedup_trend_slope"] for r in rows] == [pytest.approx(-0.3), pytest.approx(-0.3), None]
    assert [r["drafted_reps"] for r in rows] == [[10, 20], [10, 20], []]
    logs._trends(rows, set(), {})  # control: a file of one request each (saved responses) has no trend
    assert [r["speedup_trend_slope"] for r in rows] == [None, None, None]


def test_the_speculative_log_table_is_unchanged_by_the_one_computation():
    # logs_state/server_state.log: α 12/96, 55/140, 180/200 -> slope +0.3875 per request; drafted 96, 140,
    # 200: slope 52 ÷ mean 145.33 = 0.3578; decode 10 -> 20 tok/s relative slope 0.5
    table = logs.audit_logs(FX / "logs_state", {}).speculative
    assert len(table.columns) == 54
    assert table.columns == [c for c in logs.SPEC_LOG_SCHEMA if c not in logstate.REQUEST_SCHEMA] + list(
        logstate.REQUEST_SCHEMA
    )
    rows = table.filter(table["config_id"].str.starts_with("server_state.log")).to_dicts()
    assert [r["config_id"] for r in rows] == [
        "server_state.log:5",
        "server_state.log:11",
        "server_state.log:17",
    ]
    for r in rows:
        assert r["server_policy"] == "same"
        assert r["alpha_trend_slope"] == pytest.approx(0.3875)
        assert r["drafted_trend_rel"] == pytest.approx(52 / (436 / 3))
        assert r["decode_trend_rel"] == pytest.approx(0.5)
        assert r["drafted_reps"] == [96, 140, 200] and r["speedup_trend_slope"] is None
    drift = table.filter(table["config_id"] == "server_drift.log:4").row(0, named=True)
    assert (drift["server_policy"], drift["alpha_trend_slope"], drift["drafted_reps"]) == ("same", None, [])


# --- a server log of several processes ------------------------------------------------------------

REQ = (
    "slot print_timing: id  0 | task 0 | prompt eval time =     200.00 ms /   100 tokens "
    "(    2.00 ms per token,   500.00 tokens per second)\n"
    "slot print_timing: id  0 | task 0 |        eval time =    2000.00 ms /   100 tokens "
    "(   20.00 ms per token,    50.00 tokens per second)\n"
)
FIRST = (
    "build: 4641 (abc1234) with cc\n"
    "srv load_model: loading model '/models/target-Q4_K_M.gguf'\n"
    "sampler params: \n\trepeat_last_n = 64, top_k = 40, temp = 0.800\n"
)
SECOND = (
    "build: 5000 (def5678) with cc\n"
    "srv load_model: loading model '/models/other-Q8_0.gguf'\n"
    "common_speculative_init_result: loading draft model '/models/draft-Q4_0.gguf'\n"
    "sampler params: \n\ttemp = 0.000\n"
)


def test_each_request_of_a_restarted_server_is_of_its_own_process(tmp_path):
    # before: both requests were of target-Q4_K_M.gguf, build 4641 (abc1234), the first with the
    # draft model the second process loaded, the second with top_k 40 of the first process's sampler
    path = tmp_path / "two.log"
    path.write_text(FIRST + REQ + SECOND + REQ)
    first, second = read_server_log(path, path.read_text())
    assert (first["model_id"], first["draft_model_id"]) == ("target-Q4_K_M.gguf", None)
    assert (first["build_number"], first["build_commit"]) == (4641, "abc1234")
    assert first["ingest_notes"][0] == "build 4641 from the log's line 1"
    assert first["generation_settings"] == {"repeat_last_n": 64, "top_k": 40, "temp": 0.8}
    assert (second["model_id"], second["draft_model_id"]) == ("other-Q8_0.gguf", "draft-Q4_0.gguf")
    assert (second["build_number"], second["build_commit"]) == (5000, "def5678")
    assert second["ingest_notes"][0] == "build 5000 from the log's line 7"
    assert second["generation_settings"] == {"temp": 0.0}
    # control: one process, its model and build for every request
    one = tmp_path / "one.log"
    one.write_text(FIRST + REQ + REQ)
    a, b = read_server_log(one, one.read_text())
    assert (
        a["model_id"] == b["model_id"] == "target-Q4_K_M.gguf"
        and a["build_number"] == b["build_number"] == 4641
    )


def test_a_build_hint_is_checked_against_every_process_build_line(tmp_path):
    path = tmp_path / "two.log"
    path.write_text(FIRST + REQ + SECOND + REQ)
    with pytest.raises(
        IngestError, match=r"two.log:7: --build 4641 disagrees with the log's own build line \(build 5000\)"
    ):
        read_server_log(path, path.read_text(), build_hint=4641)


# --- units as users write them --------------------------------------------------------------------


def test_a_unit_hint_lists_units_as_written(tmp_path):
    p = tmp_path / "u.yaml"
    p.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: blog}\nclaims:\n"
        "  - {id: m, metric: vram_peak, value: 12, unit: tok/s}\n"
        "  - {id: t, metric: decode_tps, value: 12, unit: GiB}\n"
    )
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(p)
    # before: "fix: use one of b, gb, gib, kb, kib, mb, mib, tb, tib"
    assert (
        f"{p}:5: claims.0.unit: 'tok/s' is not a unit of vram_peak; fix: use one of B, KiB, MiB, GiB, TiB, "
        "kB, MB, GB, TB"
    ) in str(e.value)
    assert (
        f"{p}:6: claims.1.unit: 'GiB' is not a unit of decode_tps; fix: use one of tok/s, t/s, tokens/s, "
        "token/s, tps, tok/ms, tok/min, it/s"
    ) in str(e.value)
    # the family is still found whatever the case; the case is then read by units (MB is not Mb)
    assert [schema.family_of(u) for u in ("gib", "GiB", "TOK/S", "Ms", "x")] == [
        "size",
        "size",
        "rate",
        "time",
        "ratio",
    ]


# --- one definition of the slope and gap statistics -----------------------------------------------


def test_slope_and_gap_statistics_are_the_stats_modules():
    # one definition each, named where the analyses (and the registry's provenance) name them
    assert analysis.rep_trend is stats.rep_trend and analysis.slope_interval is stats.slope_interval
    assert spread.cluster_gap is stats.cluster_gap
    assert stats.rep_trend([0.125, 0.393, 0.9]) == pytest.approx(0.3875)
    assert stats.rep_trend([1.0, None, 3.0], [0, 1, 4]) == pytest.approx(0.5)
    assert stats.rep_trend([1.0]) is None
    ratio, frac = stats.cluster_gap([89.6, 90.2, 105.4, 105.5, 105.7])
    assert ratio == pytest.approx(15.2 / 0.6) and frac == pytest.approx(15.2 / 99.28)
    # the audit reads them from stats, never from an experiment's analysis
    for path in (SRC / "audit").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and "experiments" in (node.module or ""):
                names = {a.name for a in node.names}
                assert not names & {"rep_trend", "cluster_gap", "slope_interval"}, path.name

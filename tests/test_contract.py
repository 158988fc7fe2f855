"""The experiment contract (``experiments.contract``) and the measurement harness (``experiments.harness``):
typed params that hash as the dicts they replaced, their errors, and one session of a plan (skip what is
done, failures, resume)."""

from __future__ import annotations

import json

import pytest

from benchbook.experiments.contract import ParamsError, PlannedRun
from benchbook.experiments.harness import OK, Outcome, run_plan
from benchbook.experiments.llama_bench.plan import LlamaBenchParams
from benchbook.experiments.llama_bench.plan import plan as llama_bench_plan
from benchbook.experiments.template.plan import TemplateParams
from benchbook.experiments.template.plan import plan as template_plan
from benchbook.records import iter_records, stable_hash
from benchbook.session import run_key
from conftest import committed_root


def test_typed_llama_bench_params_hash_as_the_committed_start_records_meta():
    # a resumed session must find its interrupted one: Session.open compares stable_hash(meta); the meta's
    # config is now LlamaBenchParams.config(), so it must hash as the dict the committed sessions recorded
    # (the two older sessions of each host have no meta_hash: they predate it)
    checked = []
    for f in sorted((committed_root() / "data/raw/llama_bench").glob("*.jsonl")):
        for _, r in iter_records(f):
            if r.get("schema") == "benchbook.session" and r["event"] == "start" and r.get("meta_hash"):
                cfg = LlamaBenchParams.model_validate(r["config"]).config()
                meta = {"host_id": r["host_id"], "toolchain_id": r["toolchain_id"], "config": cfg}
                assert stable_hash(meta) == r["meta_hash"]
                checked.append(r["meta_hash"])
    assert checked == ["3ce6d647a4dc61f1", "3ce6d647a4dc61f1", "396c069fa365df14"]


def test_the_committed_llama_bench_section_is_its_own_config(committed_params):
    section = committed_params["llama_bench"]
    assert LlamaBenchParams.from_params(committed_params).config() == section
    # an override replaces one key, the rest stays
    over = LlamaBenchParams.from_params(committed_params, {"repetitions": 3}).config()
    assert over == {**section, "repetitions": 3}


def test_params_errors_name_the_key_and_the_fix():
    section = {"models": ["m"], "n_prompt": 8, "n_gen": 4, "n_depth": 0, "repetitions": 2, "threads": 2}
    fix = "; fix: correct it (the committed values: `git show HEAD:params.yaml`)"
    # YAML reads a bare `on` as True: llama-bench would have got -fa True
    with pytest.raises(ParamsError) as e:
        LlamaBenchParams.from_section({**section, "n_gpu_layers": 0, "flash_attn": True})
    assert str(e.value) == (
        "params.yaml `llama_bench.flash_attn`: Input should be a valid string or a valid integer (got True)"
        + fix
    )
    with pytest.raises(ParamsError) as e:
        LlamaBenchParams.from_section({**section, "models": ["a", 3], "flash_attn": "on"})
    assert str(e.value) == (
        "params.yaml `llama_bench.models.1`: Input should be a valid string (got 3); "
        "`llama_bench.n_gpu_layers`: missing" + fix
    )
    with pytest.raises(ParamsError) as e:
        TemplateParams.from_section({"repetitions": "3"})  # strict: a quoted number is not a count
    assert (
        str(e.value) == "params.yaml `template.repetitions`: Input should be a valid integer (got '3')" + fix
    )


def test_template_defaults_and_plan():
    p = TemplateParams.from_params({})  # params.yaml has no template section
    assert p.config() == {"sizes_kib": [64, 1024], "repetitions": 3}
    runs = template_plan(p, "tc", "h")
    # sizes interleaved per repetition: 2 sizes x 3 repetitions
    assert [(r.size_bytes, r.rep) for r in runs] == [
        (65536, 0),
        (1048576, 0),
        (65536, 1),
        (1048576, 1),
        (65536, 2),
        (1048576, 2),
    ]
    assert runs[0].key == run_key({"size_bytes": 65536, "rep": 0}, "none", "tc", "h")


def test_llama_bench_plan_order_and_config():
    p = LlamaBenchParams.from_section(
        {
            "models": ["a", "b"],
            "n_prompt": 8,
            "n_gen": 4,
            "n_depth": 0,
            "repetitions": 2,
            "threads": 2,
            "n_gpu_layers": 0,
            "flash_attn": "auto",
            "cold_first_run": True,
        }
    )
    models = [{"model_id": "a", "sha256": "1" * 64}, {"model_id": "b", "sha256": "2" * 64}]
    runs = llama_bench_plan(p, models, "tc", "h")
    assert [r.label for r in runs] == ["a cold", "a warm", "b cold", "b warm"]
    conf = {"n_prompt": 8, "n_gen": 4, "n_depth": 0, "repetitions": 2, "threads": 2, "n_gpu_layers": 0}
    conf |= {"flash_attn": "auto", "model_id": "b", "phase": "warm"}
    assert runs[3].config == conf and runs[3].key == run_key(conf, "2" * 64, "tc", "h")


def _runs(n: int) -> list[PlannedRun]:
    return [PlannedRun(f"k{i}", {"i": i}, f"run {i}") for i in range(n)]


def test_run_plan_skips_done_runs_marks_failures_and_resumes(tmp_path):
    raw = tmp_path / "x.jsonl"
    meta = {"host_id": "h", "config": {"n": 3}}
    seen: list[str] = []

    def measure(fail: set[str]):
        def one(sess, run):
            seen.append(run.key)
            if run.key in fail:
                return Outcome(False, "exit 1")
            sess.append(
                {"schema": "benchbook.template", "schema_version": 1, "run_key": run.key, "status": "ok"}
            )
            return OK

        return one

    logs: list[str] = []
    # run 1 of 3 fails: the session gets no end record (a required run is missing)
    first = run_plan(
        experiment="t",
        raw_file=raw,
        meta=meta,
        runs=_runs(3),
        measure_run=measure({"k1"}),
        cfg={},
        log=logs.append,
    )
    assert (first.ran, first.skipped, first.failed, first.resumed) == (2, 0, 1, False)
    assert first.failures == [{"run": "run 1", "error": "exit 1"}] and "FAILED run 1: exit 1" in logs
    # the next invocation with the same meta resumes it and measures only the failed run
    second = run_plan(
        experiment="t",
        raw_file=raw,
        meta=meta,
        runs=_runs(3),
        measure_run=measure(set()),
        cfg={},
        log=logs.append,
    )
    assert (second.ran, second.skipped, second.failed, second.resumed) == (1, 2, 0, True)
    assert second.session_id == first.session_id and seen == ["k0", "k1", "k2", "k1"]
    events = [json.loads(x).get("event") for x in raw.read_text().splitlines()]
    assert events == ["start", None, None, "start", None, "end"]


def test_a_failure_the_experiment_publishes_leaves_the_session_complete(tmp_path):
    raw = tmp_path / "x.jsonl"
    res = run_plan(
        experiment="t",
        raw_file=raw,
        meta={},
        runs=_runs(2),
        measure_run=lambda sess, run: Outcome(False, "out of memory", required=False),
        cfg={},
        log=lambda *_: None,
    )
    assert (res.ran, res.failed) == (0, 2)
    assert json.loads(raw.read_text().splitlines()[-1])["event"] == "end"

"""The experiment contract (``experiments.contract``) and the measurement harness (``experiments.harness``):
typed params that hash as the dicts they replaced, their errors, and one session of a plan (skip what is
done, failures, resume)."""

from __future__ import annotations

import json

import pytest

from benchbook.experiments.contract import Params, ParamsError, PlannedRun
from benchbook.experiments.draftself.plan import DraftselfParams
from benchbook.experiments.draftself_gpu.plan import MeasureParams
from benchbook.experiments.harness import OK, Outcome, run_plan
from benchbook.experiments.llama_bench.plan import LlamaBenchParams
from benchbook.experiments.llama_bench.plan import plan as llama_bench_plan
from benchbook.experiments.offload.plan import OffloadParams
from benchbook.experiments.spec_depth.plan import SpecDepthParams
from benchbook.experiments.speculative.plan import SpeculativeParams
from benchbook.experiments.template.plan import TemplateParams
from benchbook.experiments.template.plan import plan as template_plan
from benchbook.records import iter_records, stable_hash
from benchbook.session import run_key
from conftest import committed_root

#: every experiment package, and the name of its typed params (None: not typed yet)
PACKAGES = {
    "llama_bench": "LlamaBenchParams",
    "speculative": "SpeculativeParams",  # a resolved profile (SpeculativeParams.resolve)
    "draftself": "DraftselfParams",
    "offload": "OffloadParams",
    "spec_depth": "SpecDepthParams",
    "draftself_gpu": "MeasureParams",
    "template": "TemplateParams",
    "tool_gap": "ToolGapParams",
}


def test_every_experiment_package_has_the_contracts_entry_points():
    import importlib
    import pkgutil

    import benchbook.experiments as pkg

    names = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if m.ispkg)
    assert names == sorted(PACKAGES)
    for name, params in PACKAGES.items():
        plan_mod = importlib.import_module(f"benchbook.experiments.{name}.plan")
        run_mod = importlib.import_module(f"benchbook.experiments.{name}.run")
        assert callable(plan_mod.plan) and callable(run_mod.measure), name
        if params is not None:
            model = getattr(plan_mod, params)
            assert issubclass(model, Params) and model.SECTION.split(".")[0] in (name, "draftself_gpu"), name


#: the fields ``Session.open`` writes around a start record's meta
ENVELOPE = (
    "schema",
    "schema_version",
    "event",
    "session_id",
    "experiment",
    "resumed",
    "abandoned_session_id",
)
ENVELOPE += ("meta_hash", "at")
#: raw folder -> the typed params its start records' ``config`` is the dump of (None: a dict, as before)
TYPED = {
    "llama_bench": LlamaBenchParams,
    "spec_depth": SpecDepthParams,
    "offload": OffloadParams,
    "draftself_gpu": MeasureParams,
    "speculative": SpeculativeParams,
}


@pytest.mark.parametrize("folder", TYPED)
def test_typed_params_hash_as_the_committed_start_records_meta(folder):
    # a resumed session must find its interrupted one: Session.open compares stable_hash(meta), and the
    # meta's config is now Params.config(): it must hash as the dict each committed session recorded
    # (llama_bench's two oldest sessions per host predate meta_hash)
    hashes = []
    for f in sorted((committed_root() / "data/raw" / folder).glob("*.jsonl")):
        for _, r in iter_records(f):
            if r.get("schema") == "benchbook.session" and r["event"] == "start" and r.get("meta_hash"):
                meta = {k: v for k, v in r.items() if k not in ENVELOPE}
                if TYPED[folder] is not None:
                    meta["config"] = TYPED[folder].model_validate(meta["config"]).config()
                assert stable_hash(meta) == r["meta_hash"]
                hashes.append(r["meta_hash"][:4])
    assert (
        hashes
        == {
            "llama_bench": ["3ce6", "3ce6", "396c"],
            "spec_depth": ["55c1", "55c1", "55c1", "30d0"],
            "offload": ["13dd"],
            "draftself_gpu": ["556d", "8c37"],
            "speculative": ["82f6", "82f6", "82f6", "3a16", "3a16", "0439", "da85"],
        }[folder]
    )


def test_typed_draftself_params_are_the_committed_sessions_params():
    # the CPU sessions of the layout before the shared session record their merged params
    sessions = [r for _, r in iter_records(committed_root() / "data/raw/draftself/sessions.jsonl")]
    assert len(sessions) == 4
    for s in sessions:
        assert DraftselfParams.model_validate(s["params"]).config() == s["params"]


def test_the_committed_llama_bench_section_is_its_own_config(committed_params):
    section = committed_params["llama_bench"]
    assert LlamaBenchParams.from_params(committed_params).config() == section
    # an override replaces one key, the rest stays
    over = LlamaBenchParams.from_params(committed_params, {"repetitions": 3}).config()
    assert over == {**section, "repetitions": 3}


def test_params_errors_name_the_key_and_the_fix():
    section = {"models": ["m"], "n_prompt": 8, "n_gen": 4, "n_depth": 0, "repetitions": 2, "threads": 2}
    # YAML reads a bare `on` as True: llama-bench would have got -fa True
    with pytest.raises(ParamsError) as e:
        LlamaBenchParams.from_section({**section, "n_gpu_layers": 0, "flash_attn": True})
    assert str(e.value) == (
        "params.yaml `llama_bench.flash_attn`: Input should be 'auto', 'on' or 'off' (got True); fix: write "
        "one of auto, on, off or an integer from 0 to 1 (quote it: YAML reads a bare on, off, yes or no as a "
        "boolean)"
    )
    with pytest.raises(ParamsError) as e:
        LlamaBenchParams.from_section({**section, "models": ["a", 3], "flash_attn": "on"})
    assert str(e.value) == (
        "params.yaml `llama_bench.models.1`: Input should be a valid string (got 3); fix: write a string; "
        "params.yaml `llama_bench` has no `n_gpu_layers`; fix: add `n_gpu_layers:` (an integer >= 0)"
    )
    with pytest.raises(ParamsError) as e:
        TemplateParams.from_section({"repetitions": "3"})  # strict: a quoted number is not a count
    assert str(e.value) == (
        "params.yaml `template.repetitions`: Input should be a valid integer (got '3'); fix: write an "
        "integer >= 1 without quotes ('3' is a string)"
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


def test_speculative_params_are_the_resolved_profile_as_given(committed_params):
    section = committed_params["speculative"]
    p = SpeculativeParams.resolve(section, "full", {"repetitions": 2})
    # the section without its profiles, the profile's keys on top, the override, the profile's name
    top = {k: v for k, v in section.items() if k != "profiles"}
    assert p.config() == {**top, **section["profiles"]["full"], "repetitions": 2, "profile": "full"}
    # a key left out: the runner's default, not recorded (the committed sessions' configs never had it)
    bare = {
        "threads": 2,
        "ctx_size": 512,
        "repetitions": 1,
        "configs": [{"id": "baseline", "spec_type": "none"}],
    }
    q = SpeculativeParams.from_section(bare)
    assert (q.n_min, q.p_min, q.request_timeout_s, q.log_verbosity, q.cost_model) == (0, 0.0, 300, None, None)
    assert q.config() == bare
    # a number is never converted: 0 and 0.0 hash differently
    assert stable_hash(SpeculativeParams.from_section({**bare, "p_min": 0}).config()) == stable_hash(
        {**bare, "p_min": 0}
    )
    with pytest.raises(ParamsError) as e:
        SpeculativeParams.resolve(section, "fast")
    assert str(e.value) == (
        "the speculative profile asked for: 'fast' is not a profile of params.yaml `speculative.profiles`; "
        "fix: name one of default, full"
    )
    with pytest.raises(ParamsError) as e:
        SpeculativeParams.resolve(section, "default", {"repetitions": "3"})
    assert str(e.value) == (
        "`overrides` key `repetitions`: Input should be a valid integer (got '3'); fix: write an integer "
        ">= 1 without quotes ('3' is a string)"
    )

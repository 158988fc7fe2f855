"""dvc.yaml follows DESIGN.md's pitfalls (checked on the real file with DVC's own loader)."""

import subprocess

import pytest
import yaml
from dvc.repo import Repo
from dvc.stage import PipelineStage
from dvc.stage.cache import _can_hash

EXECUTED = ("notebooks/out", "reports/notebooks")
MEASUREMENT = {"llama_bench", "speculative", "draftself"}


def pipeline_stages(repo: Repo) -> dict:
    """The named stages of ``repo``'s dvc.yaml files.  ``repo.index.stages`` also holds one output
    stage per ``.dvc`` file, without a name: the artifacts ``make run`` adds with ``dvc add``
    (issue 34 §10: ``make test`` after ``make run`` failed here with "'Stage' object has no attribute
    'name'")."""
    return {s.name: s for s in repo.index.stages if isinstance(s, PipelineStage)}


@pytest.fixture(scope="module")
def stages(root):
    with Repo(str(root)) as repo:
        yield pipeline_stages(repo)


def test_an_added_artifact_is_no_pipeline_stage(tmp_path, monkeypatch):
    """A `.dvc` file beside dvc.yaml (what `make run`'s `dvc add` of an artifact leaves) is skipped."""
    monkeypatch.chdir(tmp_path)
    repo = Repo.init(str(tmp_path), no_scm=True)
    try:
        (tmp_path / "artifact.bin").write_bytes(b"x" * 10)
        repo.add("artifact.bin")
        (tmp_path / "dvc.yaml").write_text("stages:\n  s:\n    cmd: echo hi\n")
        repo.close()
        with Repo(str(tmp_path)) as again:
            assert len(again.index.stages) == 2  # the stage and the added artifact
            assert list(pipeline_stages(again)) == ["s"]
    finally:
        repo.close()


def test_measurement_stages_declare_no_raw_output_and_are_never_run_cached(root, stages):
    # raw JSONL is committed with git, one file per host; declaring it as an output would put its digest in
    # measure/dvc.lock, which two measuring hosts would then both rewrite (tests/test_hosts_merge.py)
    for name in MEASUREMENT:
        st = stages[name]
        assert str(st.dvcfile.relpath) == "measure/dvc.yaml", name
        assert [o for o in st.outs if str(o.def_path).startswith("data/raw/")] == [], name
        # DVC's run cache never applies to a stage without outputs: an old measurement is never restored
        assert _can_hash(st) is False


def test_the_derived_lock_is_per_machine_and_the_measurement_lock_committed(root):
    ignored = subprocess.run(["git", "check-ignore", "-q", "dvc.lock"], cwd=root).returncode
    tracked = subprocess.run(
        ["git", "ls-files", "--error-unmatch", "measure/dvc.lock"], cwd=root, capture_output=True
    )
    assert (ignored, tracked.returncode) == (0, 0)


def test_no_measurement_or_analysis_stage_reads_an_executed_notebook(stages):
    for name, st in stages.items():
        if name == "site":
            continue
        for d in st.deps:
            assert not str(d.def_path).startswith(EXECUTED), (name, d.def_path)


def test_params_are_tracked_and_passed_unchanged(root, stages):
    dvc = yaml.safe_load((root / "dvc.yaml").read_text())
    measure = yaml.safe_load((root / "measure/dvc.yaml").read_text())
    dvc["stages"].update(measure["stages"])
    assert dvc["stages"]["llama_bench"]["params"] == [
        "llama_bench",
        "models.default",
        "models.registry.smollm2-135m-q4_1",
        "models.registry.smollm2-135m-q8_0",
        "models.registry.smollm2-135m-q2_k",
        "toolchain",
    ]
    assert "report" in dvc["stages"]["llama_bench_report"]["params"]
    # DVC cannot interpolate lists into cmd: the notebook reads its params.yaml section itself
    assert (
        "-p root ." in dvc["stages"]["llama_bench"]["cmd"] and "${" not in dvc["stages"]["llama_bench"]["cmd"]
    )


def test_site_is_the_only_stage_reading_executed_reports(stages):
    readers = {
        n for n, st in stages.items() for d in st.deps if str(d.def_path).startswith("reports/notebooks")
    }
    assert readers == {"site"}


def test_benchbook_run_forces_a_measurement_after_its_upstream_only(root):
    from benchbook.cli import MEASURE_DVC, upstream_stages

    # `dvc repro --force draftself` would force draftself_train too (DVC forces the whole plan): run it
    # unforced first, then the measurement alone
    assert upstream_stages(root / MEASURE_DVC, "draftself") == ["draftself_train"]
    assert upstream_stages(root / MEASURE_DVC, "llama_bench") == []


def test_the_committed_measurement_lock_matches_the_code(root):
    """measure/dvc.lock is committed (one lock for every host): when a measurement stage's code changed
    and the lock was not recommitted, `make run` re-measures and retrains on every host and leaves the
    lock modified in the clone.  Fix: `PATH=.venv/bin:$PATH dvc commit -f measure/dvc.yaml`."""
    with Repo(str(root)) as repo:
        stale = repo.status(targets=["measure/dvc.yaml"])
    assert stale == {}, f"measure/dvc.lock is stale: {sorted(stale)}; fix: dvc commit -f measure/dvc.yaml"

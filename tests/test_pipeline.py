"""dvc.yaml follows DESIGN.md's pitfalls (checked on the real file with DVC's own loader)."""

import pytest
import yaml
from dvc.repo import Repo
from dvc.stage.cache import _can_hash

EXECUTED = ("notebooks/out", "reports/notebooks")
MEASUREMENT = {"llama_bench", "speculative", "draftself"}


@pytest.fixture(scope="module")
def stages(root):
    with Repo(str(root)) as repo:
        yield {s.name: s for s in repo.index.stages}


def test_raw_outputs_are_uncached_persistent_and_never_run_cached(stages):
    for name in MEASUREMENT & set(stages):
        st = stages[name]
        raw = [o for o in st.outs if str(o.def_path).startswith("data/raw/")]
        assert raw, f"{name} declares no data/raw output"
        for o in raw:
            assert o.use_cache is False and o.persist is True, (name, o.def_path)
        # DVC's run cache skips stages with persistent outputs: an old measurement is never restored
        assert _can_hash(st) is False


def test_no_measurement_or_analysis_stage_reads_an_executed_notebook(stages):
    for name, st in stages.items():
        if name == "site":
            continue
        for d in st.deps:
            assert not str(d.def_path).startswith(EXECUTED), (name, d.def_path)


def test_params_are_tracked_and_passed_unchanged(root, stages):
    dvc = yaml.safe_load((root / "dvc.yaml").read_text())
    assert dvc["stages"]["llama_bench"]["params"] == ["llama_bench", "models", "toolchain"]
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

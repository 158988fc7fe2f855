"""The llama-bench and speculative registries name their cited raw files relative to the repository,
through ``numbers.publish`` alone (their own ``_rel`` copies are gone): given an absolute raw folder
and run from another working folder, every cited file is ``data/raw/<experiment>/<host_id>.jsonl``,
never one machine's absolute path."""

from __future__ import annotations

import json

import pytest
import yaml

from conftest import committed_root


@pytest.mark.parametrize("experiment", ["llama_bench", "speculative"])
def test_cited_files_are_relative_to_the_repository(experiment, tmp_path, monkeypatch):
    from benchbook.experiments.llama_bench import report as llama_bench_report
    from benchbook.experiments.speculative import report as speculative_report

    report = {"llama_bench": llama_bench_report, "speculative": speculative_report}[experiment]
    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    monkeypatch.chdir(tmp_path)  # not the repository: a path relative to the working folder would show
    report.build(params, root=root, raw_dir=(root / "data" / "raw").resolve(), reports_dir=tmp_path / "r")
    registry = json.loads((tmp_path / "r" / "numbers" / f"{experiment}.json").read_text())
    cited = {src["file"] for n in registry["numbers"].values() for src in n["sources"]}
    committed = {p.relative_to(root).as_posix() for p in (root / "data" / "raw" / experiment).glob("*.jsonl")}
    assert cited and cited <= committed, cited - committed
    assert set(registry["cited_sha256"]) == cited
    assert all(digest is not None for digest in registry["cited_sha256"].values())

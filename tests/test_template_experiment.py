"""Adding an experiment the README's way: copy the template as ``demo`` into a fresh git+dvc repo, add its
session policy (``benchbook.measured.POLICIES``), declare it (``benchbook.stages.Experiment``) and write
its two stages (``stages.write``: the generic notebooks with ``-p experiment demo``, deps from the import
closure), pass the deps check, run both stages with ``dvc repro``; a second ``dvc repro`` has nothing to
do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from benchbook import stagedeps, stages

PARAMS = {"demo": {"sizes_kib": [4, 16], "repetitions": 3}, "report": {"confidence": 0.95}}
DEMO = stages.Experiment("demo", report_data=("data/raw/demo",), measure_params=("demo",))


def _copy_as_demo(root: Path, repo: Path) -> None:
    shutil.copytree(
        root / "src" / "benchbook", repo / "src" / "benchbook", ignore=shutil.ignore_patterns("__pycache__")
    )
    demo = repo / "src" / "benchbook" / "experiments" / "demo"
    shutil.copytree(repo / "src" / "benchbook" / "experiments" / "template", demo)
    init = demo / "__init__.py"
    init.write_text(
        init.read_text()
        .replace('EXPERIMENT = "template"', 'EXPERIMENT = "demo"')
        .replace('SCHEMA = "benchbook.template"', 'SCHEMA = "benchbook.demo"')
    )
    # its session policy: a row of measured.POLICIES, as the template's
    measured = repo / "src" / "benchbook" / "measured.py"
    row = '    "template": Policy("template", "primary", "newest", ("benchbook.template",)),\n'
    assert row in measured.read_text()
    demo_row = row.replace("template", "demo")
    measured.write_text(measured.read_text().replace(row, row + demo_row))
    shutil.copytree(root / "notebooks", repo / "notebooks", ignore=shutil.ignore_patterns("out"))


def test_template_copied_as_a_new_experiment_runs_both_stages(root, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _copy_as_demo(root, repo)
    (repo / "params.yaml").write_text(yaml.safe_dump(PARAMS))
    assert stages.write(repo, [DEMO]) == [repo / "dvc.yaml", repo / "measure" / "dvc.yaml"]
    assert stages.check(repo, [DEMO]) == []
    results = stagedeps.check(repo) + stagedeps.check(repo, repo / "measure" / "dvc.yaml")
    assert [r.stage for r in results if r.ok] == ["demo_report", "demo"], stagedeps.report(results)
    measure = yaml.safe_load((repo / "measure" / "dvc.yaml").read_text())["stages"]["demo"]
    report = yaml.safe_load((repo / "dvc.yaml").read_text())["stages"]["demo_report"]
    assert "-p experiment demo" in measure["cmd"] and "-p experiment demo" in report["cmd"]
    assert (measure["params"], report["params"]) == (["demo"], ["report"])
    # measurement code only on the measurement side, report code only on the report side
    assert "src/benchbook/experiments/demo/run.py" in measure["deps"]
    assert "src/benchbook/experiments/demo/report.py" not in measure["deps"]
    assert "src/benchbook/experiments/demo/run.py" not in report["deps"]
    assert "src/benchbook/experiments/template/run.py" not in measure["deps"]

    env = {
        **os.environ,
        "PYTHONPATH": str(repo / "src"),
        "BENCHBOOK_ROOT": str(repo),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }

    def sh(*argv: str) -> str:
        r = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, (argv, r.stdout[-2000:], r.stderr[-2000:])
        return r.stdout

    sh("git", "init", "-q")
    sh(sys.executable, "-m", "dvc", "init", "-q")
    sh(sys.executable, "-m", "dvc", "config", "core.analytics", "false")
    sh(sys.executable, "-m", "dvc", "repro", "measure/dvc.yaml")
    sh(sys.executable, "-m", "dvc", "repro")
    raw = list((repo / "data/raw/demo").glob("*.jsonl"))
    assert len(raw) == 1 and raw[0].read_text().count('"schema":"benchbook.demo"') == 2 * 3
    nums = json.loads((repo / "reports/numbers/demo.json").read_text())["numbers"]
    assert sorted(nums) == ["demo-sha256-16kib", "demo-sha256-4kib"]
    assert all(n["n"] == 3 and n["unit"] == "MiB/s" and n["value"] > 0 for n in nums.values())
    for target in ("measure/dvc.yaml", "dvc.yaml"):
        again = sh(sys.executable, "-m", "dvc", "repro", target)
        assert "didn't change, skipping" in again and "Running stage" not in again, target

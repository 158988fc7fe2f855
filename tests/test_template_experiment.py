"""Adding an experiment the README's way: copy the template as ``demo`` into a fresh git+dvc repo, add
its two stages with the deps ``benchbook.stagedeps`` computes, pass the deps check, run both stages
with ``dvc repro``; a second ``dvc repro`` has nothing to do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from benchbook import stagedeps

PARAMS = {"demo": {"sizes_kib": [4, 16], "repetitions": 3}, "report": {"confidence": 0.95}}


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
    (repo / "notebooks").mkdir()
    for src, dst in (("template", "demo"), ("template_report", "demo_report")):
        text = (root / "notebooks" / f"{src}.ipynb").read_text()
        text = text.replace("benchbook.experiments.template", "benchbook.experiments.demo")
        (repo / "notebooks" / f"{dst}.ipynb").write_text(text)


def _stage(repo: Path, name: str, deps: list[str], outs: list) -> dict:
    cmd = (
        f"mkdir -p notebooks/out && papermill notebooks/{name}.ipynb notebooks/out/{name}.ipynb --cwd . "
        "-p root . --no-progress-bar"
    )
    code = stagedeps.stage_code(repo, cmd)[1]
    return {"cmd": cmd, "deps": [f"notebooks/{name}.ipynb", *deps, *code], "outs": outs}


def test_template_copied_as_a_new_experiment_runs_both_stages(root, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _copy_as_demo(root, repo)
    (repo / "params.yaml").write_text(yaml.safe_dump(PARAMS))
    stages = {
        "demo": _stage(repo, "demo", [], [{"data/raw/demo": {"cache": False, "persist": True}}]),
        "demo_report": _stage(
            repo,
            "demo_report",
            ["data/raw/demo"],
            [{"reports/demo": {"cache": False}}, {"reports/numbers/demo.json": {"cache": False}}],
        ),
    }
    stages["demo"]["params"] = ["demo"]
    stages["demo_report"]["params"] = ["report"]
    (repo / "dvc.yaml").write_text(yaml.safe_dump({"stages": stages}, sort_keys=False))
    results = stagedeps.check(repo)
    assert [r.stage for r in results if r.ok] == ["demo", "demo_report"], stagedeps.report(results)
    # measurement code only on the measurement side, report code only on the report side
    assert "src/benchbook/experiments/demo/run.py" in stages["demo"]["deps"]
    assert "src/benchbook/experiments/demo/report.py" not in stages["demo"]["deps"]
    assert "src/benchbook/experiments/demo/run.py" not in stages["demo_report"]["deps"]

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
    sh(sys.executable, "-m", "dvc", "repro")
    raw = list((repo / "data/raw/demo").glob("*.jsonl"))
    assert len(raw) == 1 and raw[0].read_text().count('"schema":"benchbook.demo"') == 2 * 3
    nums = json.loads((repo / "reports/numbers/demo.json").read_text())["numbers"]
    assert sorted(nums) == ["demo-sha256-16kib", "demo-sha256-4kib"]
    assert all(n["n"] == 3 and n["unit"] == "MiB/s" and n["value"] > 0 for n in nums.values())
    again = sh(sys.executable, "-m", "dvc", "repro")
    assert "didn't change, skipping" in again and "Running stage" not in again

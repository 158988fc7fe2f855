"""dvc.yaml's code deps are exactly each stage's static import closure (``benchbook.stagedeps``), and
the checker catches a missing module, an extra one, a package directory and an unlisted notebook; both
pipeline files are what ``benchbook stages write`` writes from ``benchbook.stages.PIPELINE``."""

from __future__ import annotations

import fnmatch
import json
import shutil
from pathlib import Path

import pytest
import yaml

from benchbook import imports, layers, stagedeps, stages


def test_every_stage_lists_exactly_its_import_closure(root):
    results = stagedeps.check(root) + stagedeps.check(root, root / "measure/dvc.yaml")
    assert {r.stage for r in results} >= {
        "llama_bench",
        "llama_bench_report",
        "speculative",
        "speculative_report",
        "draftself_train",
        "draftself",
        "draftself_report",
        "site",
    }
    assert [r.stage for r in results if not r.ok] == [], stagedeps.report(results)


def _is(path: str, patterns) -> bool:
    mod = path.removeprefix("src/benchbook/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    return any(fnmatch.fnmatchcase(mod, p) for p in patterns)


def test_measurement_stages_run_no_report_code_and_report_stages_no_measurement_code(root):
    # the measurement stages are those of measure/dvc.yaml (their raw outputs are committed with git)
    for r in stagedeps.check(root, root / "measure/dvc.yaml"):
        assert [c for c in r.code if _is(c, layers.REPORT)] == [], r.stage
    for r in stagedeps.check(root):
        if r.stage.endswith("_report") or r.stage == "site":
            assert [c for c in r.code if _is(c, layers.MEASUREMENT)] == [], r.stage


def _repo(tmp_path: Path, deps: list[str]) -> Path:
    pkg = tmp_path / "src" / "benchbook"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .sub import b  # function-local: still a dependency\n")
    (pkg / "sub" / "b.py").write_text("")
    (pkg / "unused.py").write_text("")
    nb = {
        "cells": [
            {"cell_type": "markdown", "source": ["from benchbook import unused"]},
            {"cell_type": "code", "source": ["%matplotlib inline\n", "from benchbook.a import f\n"]},
        ]
    }
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "x.ipynb").write_text(json.dumps(nb))
    dvc = {
        "stages": {
            "x": {"cmd": "papermill notebooks/x.ipynb out.ipynb -p root .", "deps": deps},
            "y": {"cmd": "python -m benchbook.sub.b", "deps": ["src/benchbook/sub/b.py"]},
        }
    }
    (tmp_path / "dvc.yaml").write_text(yaml.safe_dump(dvc))
    return tmp_path


def test_closure_follows_function_local_imports_and_parent_packages(tmp_path):
    root = _repo(tmp_path, [])
    assert stagedeps.stage_code(root, "papermill notebooks/x.ipynb o.ipynb")[1] == [
        "src/benchbook/__init__.py",
        "src/benchbook/a.py",
        "src/benchbook/sub/__init__.py",
        "src/benchbook/sub/b.py",
    ]


def test_python_m_of_a_package_runs_its_main(tmp_path):
    # `python -m benchbook.sub` runs sub/__init__.py and then sub/__main__.py, which imports a.py
    root = _repo(tmp_path, [])
    (root / "src" / "benchbook" / "sub" / "__main__.py").write_text("from ..a import f\n")
    assert stagedeps.stage_code(root, "python -m benchbook.sub --all x")[1] == [
        "src/benchbook/__init__.py",
        "src/benchbook/a.py",
        "src/benchbook/sub/__init__.py",
        "src/benchbook/sub/__main__.py",
        "src/benchbook/sub/b.py",
    ]


def test_findings_name_missing_extra_package_dir_and_notebook(tmp_path):
    root = _repo(tmp_path, ["src/benchbook/a.py", "src/benchbook/unused.py", "src/benchbook/sub"])
    by = {r.stage: r for r in stagedeps.check(root)}
    x = by["x"]
    assert x.missing == [
        "src/benchbook/__init__.py",
        "src/benchbook/sub/__init__.py",
        "src/benchbook/sub/b.py",
    ]
    assert x.extra == ["src/benchbook/unused.py"]
    assert x.package_dirs == ["src/benchbook/sub"]
    assert x.notebook_missing == ["notebooks/x.ipynb"]
    assert by["y"].missing == ["src/benchbook/__init__.py", "src/benchbook/sub/__init__.py"]
    assert by["y"].extra == []
    text = stagedeps.report(list(by.values()))
    assert text.splitlines()[0] == "x: 3 missing, 1 extra, 1 package dirs, 1 notebook not listed"
    assert (
        "      - notebooks/x.ipynb\n      - src/benchbook/__init__.py\n      - src/benchbook/a.py\n" in text
    )


def test_the_pipeline_files_are_what_stages_write_writes(root):
    assert stages.check(root) == []


def test_a_hand_edit_is_named_with_its_line(tmp_path, root):
    # a copy of the repository's files the generator reads, with one dep line of dvc.yaml deleted
    for name in ("params.yaml", "dvc.yaml", "measure/dvc.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((root / name).read_text())
    for folder in ("src", "notebooks"):
        shutil.copytree(root / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    lines = (tmp_path / "dvc.yaml").read_text().splitlines(keepends=True)
    n = lines.index("      - src/benchbook/caveats.py\n")
    (tmp_path / "dvc.yaml").write_text("".join(lines[:n] + lines[n + 1 :]))
    (problem,) = stages.check(tmp_path)
    assert problem.startswith(f"dvc.yaml:{n + 1}: ") and "fix: benchbook stages write" in problem
    assert stages.write(tmp_path) == [tmp_path / "dvc.yaml"]
    assert (
        stages.check(tmp_path) == []
        and (tmp_path / "dvc.yaml").read_text() == (root / "dvc.yaml").read_text()
    )


def test_a_deleted_pipeline_file_is_named_missing_with_the_fix(tmp_path, root):
    # before: "measure/dvc.yaml:1: 'the end of the file', but benchbook.stages writes '# Measurement ...'"
    shutil.copy(root / "params.yaml", tmp_path / "params.yaml")
    shutil.copy(root / "dvc.yaml", tmp_path / "dvc.yaml")
    for folder in ("src", "notebooks"):
        shutil.copytree(root / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    assert stages.check(tmp_path) == [
        "measure/dvc.yaml: missing; fix: benchbook stages write (from benchbook.stages.PIPELINE)"
    ]


def test_model_params_name_the_measured_entries_and_their_sources_in_registry_order():
    params = {
        "models": {
            "registry": {
                "a": {"source": "file"},
                "b": {"derived_from": "a"},
                "c": {"derived_from": "b"},
                "unused": {"source": "file"},
            }
        }
    }
    # c is derived from b, b from a: all three, in the registry's order; "unused" is not measured
    assert stages.model_params(params, lambda p: ["c"], "x") == (
        "models.registry.a",
        "models.registry.b",
        "models.registry.c",
    )
    with pytest.raises(stages.StagesError, match="model 'nope' is not in params.yaml"):
        stages.model_params(params, lambda p: ["nope"], "x")


def test_an_experiment_declares_its_stages():
    params = {"models": {"registry": {"m": {"source": "file"}}}}
    exp = stages.Experiment(
        "x", report_data=("data/raw/x",), measure_params=("x", stages.MODEL_ENTRIES), models=lambda p: ["m"]
    )
    measure, report = exp.stages(params)
    assert (measure.name, measure.file, measure.params) == (
        "x",
        "measure/dvc.yaml",
        ("x", "models.registry.m"),
    )
    assert "papermill notebooks/measure.ipynb notebooks/out/x.ipynb" in measure.cmd
    assert "-p experiment x" in measure.cmd and "-p experiment x" in report.cmd
    assert (report.name, report.file, report.deps, report.params) == (
        "x_report",
        "dvc.yaml",
        ("data/raw/x",),
        ("report",),
    )
    assert report.outs == ("reports/x", "reports/numbers/x.json", "reports/notebooks/x_report.ipynb")
    # host-bound: a measurement stage too, whose command needs no papermill (a GPU host without DVC runs
    # it as it is) and measures only where the host's profile runs it; its profile layers are its params
    withprofiles = {**params, "profiles": {"cpu": {"x": {}}, "gpu": {"y": {"n": 1}}}}
    bound, _ = stages.Experiment(
        "y", report_data=(), host_bound=True, measure_params=("y", stages.PROFILE_ENTRIES)
    ).stages(withprofiles)
    assert (bound.name, bound.file, bound.params) == ("y", "measure/dvc.yaml", ("y", "profiles.gpu.y"))
    assert bound.cmd == "python -m benchbook.experiments y --if-runnable"
    assert stagedeps.entries(bound.cmd) == ([], ["benchbook.experiments", "benchbook.experiments.y.run"])
    with pytest.raises(stages.StagesError, match=r"stages named twice: \['x_report'\]"):
        stages.stages_of([exp, stages.Stage("x_report", "dvc.yaml", "true")], params)


def test_dynamic_imports_resolve_the_commands_parameters(tmp_path):
    root = _repo(tmp_path, [])
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "source": [
                    "import importlib\n",
                    'mod = importlib.import_module(f"benchbook.{which}")\n',
                    'other = importlib.import_module("json")  # outside the package: not a dependency\n',
                ],
            }
        ]
    }
    (root / "notebooks" / "g.ipynb").write_text(json.dumps(nb))
    cmd = "papermill notebooks/g.ipynb out.ipynb -p root . -p which a"
    assert stagedeps.papermill_parameters(cmd) == {"notebooks/g.ipynb": {"root": ".", "which": "a"}}
    # which=a: benchbook.a and what it imports (function-local included)
    assert stagedeps.stage_code(root, cmd)[1] == [
        "src/benchbook/__init__.py",
        "src/benchbook/a.py",
        "src/benchbook/sub/__init__.py",
        "src/benchbook/sub/b.py",
    ]
    with pytest.raises(imports.ImportGraphError, match="'which', which is not a parameter"):
        stagedeps.stage_code(root, "papermill notebooks/g.ipynb out.ipynb -p root .")
    with pytest.raises(imports.ImportGraphError, match="names no module under src/benchbook"):
        stagedeps.stage_code(root, "papermill notebooks/g.ipynb out.ipynb -p which nothere")

"""Tests whose expected values name committed settings must not read the working-tree params.yaml: the
README's own "Your model" step (`benchbook models add <gguf> --id my-q8_0`) edits it, and `make test`
must still pass afterwards (a new user's finding: two tests failed on the added registry entry)."""

from __future__ import annotations

import shutil
import subprocess

import yaml

import test_model_sources
from conftest import ROOT

ADDED = "    my-q8_0:\n      source: file\n      path: /tmp/my.gguf\n      sha256: " + "a" * 64 + "\n"


def _head_params() -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "show", "HEAD:params.yaml"], capture_output=True, text=True, check=True
    ).stdout


def test_committed_params_is_git_heads_params(committed_params):
    assert committed_params == yaml.safe_load(_head_params())
    # the ids test_models.test_unknown_model_id_lists_known expects, and nothing a user added
    assert sorted(committed_params["models"]["registry"]) == [
        "smollm2-135m-q2_k",
        "smollm2-135m-q4_1",
        "smollm2-135m-q8_0",
    ]


def test_project_copy_ignores_a_locally_added_model(tmp_path, monkeypatch):
    # a working tree whose params.yaml got the README's `models add` entry
    local = tmp_path / "checkout"
    local.mkdir()
    (local / "params.yaml").write_text(_head_params().replace("  registry:\n", "  registry:\n" + ADDED, 1))
    for name in ("dvc.yaml", ".gitignore"):
        shutil.copy(ROOT / name, local / name)
    assert "my-q8_0" in (local / "params.yaml").read_text()
    monkeypatch.setattr(test_model_sources, "ROOT", local)
    proj = test_model_sources._project(tmp_path)
    assert (proj / "params.yaml").read_text() == _head_params()

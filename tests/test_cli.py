"""CLI: doctor reports what is there and the fix for what is not."""

import subprocess
import sys

import pytest


def run(args, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-m", "benchbook.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.integration
def test_doctor_reports_toolchain_models_renderer_gpu(root, toolchain, models):
    r = run(["doctor"], root)
    out = r.stdout
    assert f"ok   toolchain b11434 (unknown) backend=cpu id={toolchain.toolchain_id}" in out
    for mid in ("smollm2-135m-q4_1", "smollm2-135m-q8_0", "smollm2-135m-q2_k"):
        assert f"ok   model {mid} sha256=" in out
    assert "site renderer: " in out and "GPU: " in out


def test_doctor_names_fixes_when_cache_is_empty(root, tmp_path):
    import os

    env = {**os.environ, "BENCHBOOK_CACHE": str(tmp_path)}
    r = run(["doctor"], root, env)
    assert r.returncode == 1
    assert (
        "MISS toolchain: no llama.cpp build in the cache" in r.stdout
        and "fix: `benchbook toolchain build`" in r.stdout
    )
    assert "MISS model smollm2-135m-q4_1  fix: `benchbook models fetch`" in r.stdout


def test_unknown_model_on_command_line_lists_known_ids(root):
    r = run(["models", "fetch", "nope"], root)
    assert r.returncode == 2 and "unknown model id 'nope'" in r.stderr and "smollm2-135m-q4_1" in r.stderr


def test_stage_commands_find_the_venv_tools_without_activation(monkeypatch):
    import os
    from pathlib import Path

    from benchbook import cli

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    env = cli.tool_env()
    first = env["PATH"].split(os.pathsep)[0]
    assert first == str(Path(sys.executable).parent) and (Path(first) / "papermill").exists()
    assert env["PATH"].endswith("/usr/bin:/bin")
    assert cli.venv_tool("dvc") == str(Path(sys.executable).parent / "dvc")


def test_measured_here_is_per_host_and_toolchain(committed_params):
    from benchbook import cli
    from conftest import committed_root

    root, params = committed_root(), committed_params
    lb = cli.measured_here(root, params, "246274abff670295", "6bcbdc2942c465ab")
    assert lb["llama_bench"] is True and lb["speculative"] is True and lb["draftself"] is True
    other_build = cli.measured_here(root, params, "246274abff670295", "0000000000000000")
    assert other_build == {"llama_bench": False, "speculative": False, "draftself": True}
    assert cli.measured_here(root, params, "ffffffffffffffff", "6bcbdc2942c465ab") == {
        "llama_bench": False,
        "speculative": False,
        "draftself": False,
    }

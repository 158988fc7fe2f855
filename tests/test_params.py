"""params.yaml validation: clear `benchbook: error:` lines naming the key (or line) and the fix."""

import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import resolve
from benchbook.resolve import ParamsError

ROOT = Path(__file__).resolve().parents[1]
OK_TC = "toolchain:\n  user_build_dir: /opt/llama.cpp\n"
OK_REG = (
    "models:\n  default: a\n  registry:\n    a: {derived_from: a0, quantize: Q8_0}\n"
    "    a0: {source: pypi_wheel, project: p, version: '1', member: m.gguf,\n"
    f"         wheel_sha256: '{'b' * 64}', sha256: '{'a' * 64}'}}\n"
)


def _project(tmp_path, text):
    (tmp_path / "dvc.yaml").write_text("stages: {}\n")
    (tmp_path / "params.yaml").write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    "text,msg",
    [
        ("", "params.yaml is empty; fix: restore it from git"),
        ("# only a comment\n", "params.yaml is empty; fix: restore it from git"),
        (
            OK_TC + "models:\n  registry: {a: {derived_from: b\n  default: a\n",
            "params.yaml:5:10: YAML syntax error: while parsing a flow mapping expected ',' or '}', "
            "but got ':' (the construct began at line 4); fix: correct that line",
        ),
        (
            OK_TC + "\tmodels: 1\n",
            "params.yaml:3:1: YAML syntax error: while scanning for the next token found "
            "character '\\t' that cannot start any token; fix:",
        ),
        ("- toolchain\n- models\n", "params.yaml: the top level must be a mapping of sections"),
        (OK_REG, "params.yaml: missing section `toolchain`; fix: add it"),
        (
            "toolchain:\n  backend: cpu\n" + OK_REG,
            "params.yaml: missing section `toolchain.source`; fix: add it",
        ),
        (
            "toolchain:\n  source: {project: x, sha: y}\n" + OK_REG,
            # before: "`toolchain.source` has unknown key(s) sha; allowed: build_number, project, ..."
            "params.yaml `toolchain.source.sha`: unknown key; fix: write `sha256` (known: project, "
            "version, sha256, subdir, build_number)",
        ),
        (OK_TC, "params.yaml: missing section `models`; fix: add it"),
        (OK_TC + "models:\n  default: a\n", "params.yaml: missing section `models.registry`; fix: add it"),
        (
            OK_TC + "models:\n  registry:\n    - a\n",
            "params.yaml: `models.registry` must be a mapping (key: value lines "
            "indented under `models.registry:`), got a list (['a'])",
        ),
        (OK_TC + "models:\n  registry: {a: q4.gguf}\n", "params.yaml: `models.registry.a` must be a mapping"),
        (
            OK_TC + "models:\n  registry: {a: {derived_from: b, quantize: Q8_0}}\n",
            "params.yaml: `models.registry.a.derived_from` names 'b', which is not a models.registry id "
            "(known: a)",
        ),
        (
            OK_TC + "models:\n  registry: {a: {source: pypi_wheel, project: p, version: '1'}}\n",
            "params.yaml: `models.registry.a` (source: pypi_wheel) lacks wheel_sha256, member, sha256; "
            "fix: add them",
        ),
        (
            OK_TC + OK_REG.replace("default: a", "default: zz"),
            "params.yaml: `models.default` is 'zz', not a models.registry id (known: a, a0)",
        ),
    ],
)
def test_bad_params_named_in_one_error_line(tmp_path, text, msg):
    root = _project(tmp_path, text)
    with pytest.raises(ParamsError) as e:
        resolve.load_params(root)
    assert str(e.value).startswith(f"{root / 'params.yaml'}"[: -len("params.yaml")] + msg)
    assert isinstance(e.value, ValueError)
    r = subprocess.run(
        [sys.executable, "-m", "benchbook.cli", "doctor"], cwd=root, capture_output=True, text=True
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [f"benchbook: error: {e.value}"]


def test_valid_params_load_unchanged(tmp_path):
    import yaml

    assert resolve.load_params(_project(tmp_path, OK_TC + OK_REG)) == yaml.safe_load(OK_TC + OK_REG)
    committed = resolve.load_params(ROOT)
    assert committed == yaml.safe_load((ROOT / "params.yaml").read_text())
    assert committed["models"]["default"] in committed["models"]["registry"]

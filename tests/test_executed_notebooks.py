"""The report notebooks reproduce their committed executed copies under nbval's strict mode.

``tests/fixtures/notebooks/<name>.ipynb`` is ``notebooks/<name>.ipynb`` executed by papermill on the
committed raw data (``scripts/executed_notebooks.py``).  Each test copies the committed data into a
temporary directory and re-executes that copy there under ``pytest --nbval`` (strict: every output is
compared, not only run), with ``sanitize.cfg`` masking only what legitimately varies (absolute paths,
object ids).  A changed number, table row or a stray stderr line is a failing test whose output shows
the diff; nbval merges the chunks of a stream, so output split into several chunks compares as one.
After a deliberate change: ``python scripts/executed_notebooks.py`` and commit the fixtures.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import committed_root

FIXTURES = Path(__file__).parent / "fixtures" / "notebooks"
REPORTS = [
    "llama_bench_report",
    "speculative_report",
    "draftself_report",
    "offload_report",
    "spec_depth_report",
    "draftself_gpu_report",
    "tool_gap_report",
]


def _nbval(workdir: Path, notebook: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--nbval",
            "--nbval-sanitize-with",
            str(FIXTURES / "sanitize.cfg"),
            notebook.name,
        ],  # fmt: skip
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _workdir(tmp_path: Path) -> Path:
    """A fresh copy of the committed ``data/`` and ``params.yaml`` (the notebooks write ``reports/``)."""
    work = tmp_path / "work"
    shutil.copytree(committed_root() / "data", work / "data")
    shutil.copy(committed_root() / "params.yaml", work / "params.yaml")
    return work


@pytest.mark.parametrize("name", REPORTS)
def test_report_notebook_reproduces_its_executed_copy(tmp_path, name):
    work = _workdir(tmp_path)
    nb = shutil.copy(FIXTURES / f"{name}.ipynb", work / f"{name}.ipynb")
    cells = json.loads(Path(nb).read_text())["cells"]
    assert any(c.get("outputs") for c in cells), f"{name}: the committed copy has no saved outputs"
    r = _nbval(work, Path(nb))
    assert r.returncode == 0, r.stdout[-6000:]


def _tiny(path: Path, outputs: list[dict]) -> Path:
    cell = {
        "cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": outputs,
        "source": "import sys\nprint('ok:', 12)\nsys.stdout.flush()\nprint('configurations')",
    }  # fmt: skip
    nb = {"cells": [cell], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
          "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
    path.write_text(json.dumps(nb))
    return path


def test_split_stream_compares_as_one_and_a_changed_number_fails(tmp_path):
    split = [
        {"output_type": "stream", "name": "stdout", "text": "ok: 12\n"},
        {"output_type": "stream", "name": "stdout", "text": "configurations\n"},
    ]
    assert _nbval(tmp_path, _tiny(tmp_path / "split.ipynb", split)).returncode == 0
    changed = [{"output_type": "stream", "name": "stdout", "text": "ok: 11\nconfigurations\n"}]
    r = _nbval(tmp_path, _tiny(tmp_path / "changed.ipynb", changed))
    assert r.returncode != 0 and "ok: 11" in r.stdout

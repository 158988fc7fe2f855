"""Write the executed copies of the report notebooks that ``tests/test_executed_notebooks.py`` re-runs
under nbval's strict mode: ``notebooks/report.ipynb -p experiment <name>`` executed by papermill on the
committed raw data (``git archive HEAD data params.yaml`` into a temporary directory, parameters relative
to it) as ``<name>_report.ipynb``, as each report stage writes ``reports/notebooks/<name>_report.ipynb``.

Run after a change that moves a number, a table or a chart on purpose, and commit the result with the
change: ``python scripts/executed_notebooks.py [NAME_report ...]`` (writes
``tests/fixtures/notebooks/*.ipynb``; ``BENCHBOOK_EXECUTED_OUT=DIR``: into DIR instead).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import papermill as pm

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("BENCHBOOK_EXECUTED_OUT") or ROOT / "tests" / "fixtures" / "notebooks")
#: the executed report notebooks (every experiment's report stage: ``<experiment>_report``)
REPORTS = (
    "llama_bench_report",
    "speculative_report",
    "draftself_report",
    "offload_report",
    "spec_depth_report",
    "draftself_gpu_report",
    "tool_gap_report",
)
#: papermill parameters, relative to the committed-data copy the notebook runs in
PARAMETERS = {"root": ".", "params_file": "params.yaml", "raw_dir": "data/raw", "reports_dir": "reports"}


def committed_copy(dst: Path) -> Path:
    """``data/`` and ``params.yaml`` of git HEAD extracted under ``dst``; returns ``dst``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "HEAD", "data", "params.yaml"], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dst, filter="data")
    return dst


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names or REPORTS:
        with tempfile.TemporaryDirectory(prefix="benchbook-executed-") as tmp:
            work = committed_copy(Path(tmp))
            pm.execute_notebook(
                str(ROOT / "notebooks" / "report.ipynb"),
                str(OUT / f"{name}.ipynb"),
                parameters={**PARAMETERS, "experiment": name.removesuffix("_report")},
                cwd=str(work),
                progress_bar=False,
            )
        _strip_run_metadata(OUT / f"{name}.ipynb")
        print(f"wrote {OUT / f'{name}.ipynb'}")


def _strip_run_metadata(path: Path) -> None:
    """Drop what changes on every execution and is never compared (papermill's times, paths and
    durations, execution timestamps), so a regenerated copy differs only where an output changed."""
    nb = json.loads(path.read_text())
    pm_meta = nb["metadata"].get("papermill", {})
    nb["metadata"]["papermill"] = {"parameters": pm_meta.get("parameters", {})}
    for cell in nb["cells"]:
        cell["metadata"].pop("papermill", None)
        cell["metadata"].pop("execution", None)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])

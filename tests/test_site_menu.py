"""Every report notebook a stage executes is rendered and listed in the site's Notebooks menu."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def executed_notebooks() -> list[str]:
    """The ``reports/notebooks/*.ipynb`` outputs of dvc.yaml's stages, sorted."""
    stages = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]
    outs = [next(iter(o)) if isinstance(o, dict) else o for st in stages.values() for o in st.get("outs", [])]
    return sorted(o for o in outs if o.startswith("reports/notebooks/") and o.endswith(".ipynb"))


def test_every_executed_report_notebook_is_rendered_and_in_the_menu():
    """Item 22 of the new-user report: offload_report and spec_depth_report were executed by their
    stages but neither rendered nor in the Notebooks menu."""
    quarto = yaml.safe_load((ROOT / "_quarto.yml").read_text())
    menu = next(i for i in quarto["website"]["navbar"]["left"] if i.get("text") == "Notebooks")["menu"]
    hrefs = {m["href"] for m in menu}
    nbs = executed_notebooks()
    assert nbs == [
        "reports/notebooks/draftself_gpu_report.ipynb",
        "reports/notebooks/draftself_report.ipynb",
        "reports/notebooks/llama_bench_report.ipynb",
        "reports/notebooks/offload_report.ipynb",
        "reports/notebooks/spec_depth_report.ipynb",
        "reports/notebooks/speculative_report.ipynb",
        "reports/notebooks/tool_gap_report.ipynb",
    ]
    assert [n for n in nbs if n not in quarto["project"]["render"]] == []
    assert [n for n in nbs if n not in hrefs] == []

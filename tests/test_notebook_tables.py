"""The report notebooks' tables round as the pages do (``numtable.frame_table``): no ``nan``, no
unrounded float (item 29 of the new-user report: ``nan`` and ``5.035714285714286`` in the draft-self
report notebook)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl

from benchbook.numtable import frame_table

FIXTURES = Path(__file__).parent / "fixtures" / "notebooks"


def test_frame_table_rounds_floats_and_shows_nan_as_a_dash():
    frame = pl.DataFrame(
        {
            "config_name": ["ar", "ds-k8-batched-iterative"],
            "tau": [float("nan"), 5.035714285714286],
            "alpha_mle": [None, 0.8865248226950354],
            "runs": [3, 3],
            "reps": [[1.2467211798149442], [0.5, 1234.5]],
        }
    )
    assert frame_table(frame).splitlines() == [
        "| config&#95;name | tau | alpha&#95;mle | runs | reps |",
        "|---|---|---|---|---|",
        "| ar | — |  | 3 | 1.25 |",
        "| ds-k8-batched-iterative | 5.04 | 0.887 | 3 | 0.500, 1,230 |",
    ]


def _tables(name: str) -> list[str]:
    nb = json.loads((FIXTURES / f"{name}.ipynb").read_text())
    return [
        "".join(o["data"]["text/markdown"])
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if "text/markdown" in o.get("data", {})
    ]


def _significant(cell: str) -> int:
    """Significant digits of a cell holding a number with a fraction (``5.035714285714286``: 16;
    ``0.00376``: 3); 0 for any other cell (a whole number, an exact count, is shown whole)."""
    if not re.fullmatch(r"-?[\d,]+\.\d+", cell):
        return 0
    return len(cell.lstrip("-").replace(",", "").replace(".", "").lstrip("0"))


def test_the_executed_report_notebooks_tables_have_no_nan_or_unrounded_float():
    for name in ("draftself_report", "llama_bench_report", "speculative_report"):
        tables = _tables(name)
        assert tables, name
        cells = [c.strip() for t in tables for line in t.splitlines() for c in line.split("|")]
        assert [c for c in cells if c.lower() == "nan"] == [], name
        assert [c for c in cells if _significant(c) > 6] == [], name
    # the draft-self acceptance table's AR row (no τ) and first draft row, as printed
    acc = next(t for t in _tables("draftself_report") if "alpha&#95;mle" in t).splitlines()
    assert acc[2] == "| ar | other | — | — | — | 1.00 | 8.00 | 1.00 | 3 |"
    assert acc[3] == "| ds-k8-batched-iterative | other | 5.04 | 0.887 | 0.558 | 0.624 | 46.4 | 1.00 | 3 |"


def test_notebooks_show_the_site_cells_as_links_relative_to_the_notebook():
    """The offload, depth and tool-gap notebooks display the reports' Markdown, whose published cells are
    ``{{< var KEY__v >}}`` for the site: rendered in ``reports/notebooks/`` the shortcode's link
    (``provenance/offload.qmd#n-KEY``, relative to the site root) was broken and failed the site build;
    ``link_cells`` writes the link from the notebook instead, and the executed copies keep no shortcode."""
    import pytest

    from benchbook.numtable import link_cells

    n = {"key": "offload-h1-ncmoe7-tg", "value": 134.44, "ci95": [126.5, 142.9], "unit": "tok/s"}
    md = "| 7 | {{< var offload-h1-ncmoe7-tg__v >}} | {{< var offload-h1-ncmoe7-tg >}} |"
    assert link_cells(md, [{**n, "experiment": "offload"}]) == (
        "| 7 | [134.4 &#91;126.5, 142.9&#93;](../../provenance/offload.html#n-offload-h1-ncmoe7-tg) "
        "| [134.4 &#91;126.5, 142.9&#93; tok/s](../../provenance/offload.html#n-offload-h1-ncmoe7-tg) |"
    )
    with pytest.raises(ValueError, match="names no number of the report"):
        link_cells("{{< var other__v >}}", [n])
    for name in ("offload_report", "spec_depth_report", "tool_gap_report"):
        tables = "".join(_tables(name))
        assert "{{< var" not in tables and "](../../provenance/" in tables, name

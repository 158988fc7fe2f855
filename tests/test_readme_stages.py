"""The README's "What runs" table names every report stage of dvc.yaml and every entry of the site's
menu (`_quarto.yml`), in order (a new user found "`*_report` (3)" beside six stages, and no Depth,
Offload or Draft-self (GPU) page in its list)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _row(stage: str) -> str:
    row = re.search(rf"^\| `{re.escape(stage)}` .*$", (ROOT / "docs" / "pipeline.md").read_text(), re.M)
    assert row, f"README 'What runs' has no row for {stage}"
    return row.group(0)


def test_the_report_row_names_every_report_stage():
    stages = [s for s in yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"] if s.endswith("_report")]
    assert len(stages) == 7
    row = _row("*_report")
    named = re.match(r"\| `\*_report` \((\d+): ([^)]*)\)", row)
    assert named, row
    assert int(named.group(1)) == len(stages)
    assert sorted(re.findall(r"`(\w+)`", named.group(2))) == sorted(s.removesuffix("_report") for s in stages)


def test_the_site_row_names_the_menu_in_order():
    left = yaml.safe_load((ROOT / "_quarto.yml").read_text())["website"]["navbar"]["left"]
    entries = []
    for item in left:
        if "menu" in item and item["text"] != "Notebooks":
            entries += [sub["text"] for sub in item["menu"]]
        else:
            entries.append(item["text"])
    assert entries == [
        "Overview",
        "llama-bench",
        "Speculative",
        "Depth",
        "Draft-self (CPU)",
        "Draft-self (GPU)",
        "Offload (GPU)",
        "Gap",
        "Notebooks",
        "Audits",
        "Provenance",
    ]
    row = _row("site")
    listed = row[row.index("its menu: ") + len("its menu: ") :]
    positions = [
        listed.find(e + sep) for e, sep in zip(entries, [","] * 8 + [" ("] + [","] + [" |"], strict=True)
    ]
    assert -1 not in positions and positions == sorted(positions), (entries, listed)

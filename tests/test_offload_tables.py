"""The offload tables name each unit once, in the header; cells hold numbers rounded by ``numfmt``."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchbook.experiments.offload import report


def test_cells_hold_numbers_only():
    # half-width (142.9 − 126.5) / 2 = 8.2: two significant digits -> one decimal
    assert (
        report.rate_text({"mean_tps": 134.4, "ci_low_tps": 126.5, "ci_high_tps": 142.9})
        == "134.4 [126.5, 142.9]"
    )
    # half-width (1338.3 − 1099.5) / 2 = 119.4 -> tens
    assert (
        report.rate_text({"mean_tps": 1213.1, "ci_low_tps": 1099.5, "ci_high_tps": 1338.3})
        == "1,210 [1,100, 1,340]"
    )
    assert report.rate_text({"mean_tps": 84.63, "ci_low_tps": None, "ci_high_tps": None}) == "84.6"
    assert report.rate_text({"mean_tps": None}) == "—"
    assert (report.mib_text(11748.0), report.mib_text(None)) == ("11,748", "—")
    # 12,288 − 11,748 = 540 MiB free; 11,748 / 12,288 = 95.6% used
    assert report.headroom_cells(11748.0, 12288.0) == ("540", "95.6")
    assert report.headroom_cells(None, 12288.0) == ("—", "—")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from conftest import committed_root

    out = tmp_path_factory.mktemp("reports")
    report.build(
        {"report": {"confidence": 0.95}}, root=committed_root(), raw_dir=Path("data/raw"), reports_dir=out
    )
    return out / "offload"


def test_sweep_and_roofline_tables_have_units_in_the_header_only(built):
    sweep = (built / "sweep.md").read_text().splitlines()
    assert sweep[0] == (
        "| host | n_cpu_moe | expert blocks on CPU | tg (tok/s) | pp (tok/s) "
        "| GPU memory, llama.cpp peak (MiB) | budget, free (MiB) | free at peak (MiB) | budget used (%) "
        "| status |"
    )
    row7 = next(line for line in sweep if line.startswith("| `e3618a24b4e44752` | 7 |"))
    # the rates are their registry numbers' links (item 17 of the new-user report); the site renders
    # them as 134.4 [126.5, 142.9] and 1,210 [1,100, 1,340]
    # (test_offload.test_committed_gpu_sweep_reads_unchanged)
    assert row7 == (
        "| `e3618a24b4e44752` | 7 | 7 of 24 | {{< var offload-he3618a24-ncmoe7-tg__v >}} "
        "| {{< var offload-he3618a24-ncmoe7-pp__v >}} | 11,748 | 12,288 | 540 | 95.6 | ok |"
    )
    roof = (built / "roofline.md").read_text()
    body = [line for line in roof.splitlines() if line.startswith("| `")]
    assert body and not any(u in line for line in body for u in ("MiB", "tok/s", "GB/s", "%"))
    assert (
        "| `e3618a24b4e44752` | 7 | {{< var offload-he3618a24-ncmoe7-tg__v >}} | 1,350 | 181 "
        "| {{< var offload-he3618a24-d2d__v >}} | cuda "
        "| {{< var offload-he3618a24-ncmoe7-tg-roofline__v >}} |"
    ) in roof


def test_every_published_offload_number_is_a_linked_cell(built):
    """Item 17 of the new-user report (offload.html: 73 plain numeric cells, 6 linked): every number the
    report publishes except the fit boundary (stated in the page's prose) is a ``{{< var KEY__v >}}``
    cell of sweep.md or roofline.md, and no cell names a key the registry lacks."""
    import json
    import re

    registry = json.loads((built.parent / "numbers" / "offload.json").read_text())["numbers"]
    keys = {n["key"] for n in (registry.values() if isinstance(registry, dict) else registry)}
    text = (built / "sweep.md").read_text() + (built / "roofline.md").read_text()
    used = set(re.findall(r"\{\{< var (\S+)__v >\}\}", text))
    assert len(keys) == 19
    assert keys - used == {"offload-he3618a24-fit-min-ncmoe"}
    assert used <= keys


def test_offload_numbers_name_their_model_file_and_the_page_lists_it(built):
    """Item 31 of the new-user report: the offload page's "Model files" read "—" (its numbers named no
    model_sha256); each sweep number now names the synthetic model's file and its runs' times, and the
    "What was measured" block lists it."""
    import json

    from benchbook import sitepages
    from conftest import committed_root

    synth = "9708161d020e41bb063fb0b6b6a11ce934c677bf197c162cc754f5e65fbf8989"
    registry = json.loads((built.parent / "numbers" / "offload.json").read_text())["numbers"]
    nums = {n["key"]: n for n in (registry.values() if isinstance(registry, dict) else registry)}
    n7 = nums["offload-he3618a24-ncmoe7-tg"]
    assert (n7["model_sha256"], n7["measured_from"], n7["measured_to"]) == (
        synth,
        "2026-11-30T19:47:37.863977Z",
        "2026-11-30T19:47:44.923784Z",
    )
    assert nums["offload-he3618a24-d2d"]["model_sha256"] is None  # a copy benchmark: no model
    snaps = sitepages.read_snapshots(committed_root() / "data" / "raw" / "snapshots")
    line = next(x for x in sitepages.measured_md(nums, "offload", snaps).splitlines() if "Model files" in x)
    assert f"synthetic-qwen3moe-L24-E64-K4-d2048-q8&#95;0-s0 `sha256:{synth}`" in line
    assert line.count("sha256:") == 3  # and the two default models of the roofline table

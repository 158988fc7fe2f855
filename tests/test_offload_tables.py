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
    assert row7 == (
        "| `e3618a24b4e44752` | 7 | 7 of 24 | 134.4 [126.5, 142.9] | 1,210 [1,100, 1,340] | 11,748 | 12,288 "
        "| 540 | 95.6 | ok |"
    )
    roof = (built / "roofline.md").read_text()
    body = [line for line in roof.splitlines() if line.startswith("| `")]
    assert body and not any(u in line for line in body for u in ("MiB", "tok/s", "GB/s", "%"))
    assert "| `e3618a24b4e44752` | 7 | 134.4 [126.5, 142.9] | 1,350 | 181 | 4,280 | cuda | 4.24 |" in roof

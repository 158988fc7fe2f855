"""The measurement and report notebooks for `speculative` (`-p experiment speculative`) with tiny
parameters into a temporary directory (never the committed data/raw), executed cell by cell under
`pytest --nbval-lax`; each experiment's `sections` ends with its checks (asserts)."""

import json

import pytest

from conftest import nbval_notebook


@pytest.mark.integration
def test_speculative_notebooks_tiny(tmp_path, root, toolchain, models):
    tiny = {
        "repetitions": 2,
        "prompts": ["prob_balls"],
        "caps": {"prob_balls": 4},
        "cost_model": {"p_sizes": [1, 3], "n_gen": 4, "repetitions": 1},
        "configs": [
            {"id": "baseline", "spec_type": "none", "policy": "fresh"},
            {"id": "self-n2", "spec_type": "draft-simple", "draft": "self", "n_max": 2, "policy": "fresh"},
            {"id": "ngram-mod-same", "spec_type": "ngram-mod", "n_max": 8, "policy": "same"},
        ],
    }
    nbval_notebook(
        root,
        "measure.ipynb",
        tmp_path,
        {
            "root": str(root),
            "raw_dir": str(tmp_path / "data/raw"),
            "overrides": json.dumps(tiny),
            "experiment": "speculative",
        },
    )
    raw = list((tmp_path / "data/raw/speculative").glob("*.jsonl"))
    assert len(raw) == 1 and raw[0].read_text().count('"schema":"benchbook.speculative_request"') == 6
    assert tmp_path in raw[0].parents

    nbval_notebook(
        root,
        "report.ipynb",
        tmp_path,
        {
            "root": str(root),
            "raw_dir": str(tmp_path / "data/raw"),
            "reports_dir": str(tmp_path / "reports"),
            "experiment": "speculative",
        },
    )
    nums = json.loads((tmp_path / "reports/numbers/speculative.json").read_text())["numbers"]
    assert "spec-self-n2-prob_balls-speedup" in nums and "spec-cost-r-3" in nums
    assert nums["spec-self-n2-prob_balls-alpha"]["value"] == 1.0  # the target drafts what it will pick
    assert (tmp_path / "reports/speculative/configs.parquet").exists()

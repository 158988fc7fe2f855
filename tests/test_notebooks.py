"""The notebooks themselves, with tiny parameters, into a temporary directory, under `pytest --nbval-lax`.

papermill injects the parameters (`--prepare-only`, nothing executed; `experiment` names what the generic
notebooks run), then nbval runs every cell; each experiment's `sections` ends with checks on what it
shows (plain asserts), so a wrong result fails.
"""

import json

import pytest
import yaml

from conftest import nbval_notebook


@pytest.mark.integration
def test_llama_bench_notebooks_tiny(tmp_path, root, toolchain, models):
    tiny = {
        "models": ["smollm2-135m-q4_1", "smollm2-135m-q8_0"],
        "n_prompt": 8,
        "n_gen": 4,
        "repetitions": 3,
        "n_gpu_layers": 0,
    }
    nbval_notebook(
        root,
        "measure.ipynb",
        tmp_path,
        {
            "root": str(root),
            "raw_dir": str(tmp_path / "data/raw"),
            "overrides": json.dumps(tiny),
            "experiment": "llama_bench",
        },
    )
    raw = list((tmp_path / "data/raw/llama_bench").glob("*.jsonl"))
    assert len(raw) == 1 and raw[0].read_text().count('"schema":"benchbook.llama_bench"') == 8
    assert tmp_path in raw[0].parents  # never appended to the committed data/raw

    # the tiny session is the only one in tmp_path: its host is the primary one (params.yaml names the
    # committed CPU host, which has no session here)
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["report"]["primary_host"] = None
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))
    nbval_notebook(
        root,
        "report.ipynb",
        tmp_path,
        {
            "experiment": "llama_bench",
            "root": str(root),
            "params_file": str(tmp_path / "params.yaml"),
            "raw_dir": str(tmp_path / "data/raw"),
            "reports_dir": str(tmp_path / "reports"),
        },
    )
    nums = json.loads((tmp_path / "reports/numbers/llama_bench.json").read_text())["numbers"]
    # a cold first sample (cold_start, first-sample form) adds -median / -mean_rest beside its headline
    robust = [k for k in nums if k.endswith(("-median", "-mean_rest"))]
    assert all(k.rsplit("-", 1)[0] in nums and "cold_start" in nums[k]["caveats"] for k in robust)
    nums = {k: v for k, v in nums.items() if k not in robust}
    assert sorted(nums) == sorted(
        f"lb-smollm2-135m-{q}-{t}-{p}"
        for q in ("q4_1", "q8_0")
        for t in ("pp8", "tg4")
        for p in ("cold", "warm")
    )
    assert all(n["n"] == (1 if n["key"].endswith("cold") else 3) for n in nums.values())

"""The notebooks themselves, with tiny parameters, into a temporary directory, under `pytest --nbval-lax`.

papermill injects the parameters (`--prepare-only`, nothing executed), then nbval runs every cell;
each notebook ends with assert cells on its outputs, so a wrong result fails.
"""

import json
import subprocess
import sys

import papermill as pm
import pytest


def nbval(path, cwd):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax",
                           str(path)], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.integration
def test_llama_bench_notebooks_tiny(tmp_path, root, toolchain, models):
    tiny = {"models": ["smollm2-135m-q4_1", "smollm2-135m-q8_0"], "n_prompt": 8, "n_gen": 4, "repetitions": 3,
            "n_gpu_layers": 0}
    m = tmp_path / "llama_bench.ipynb"
    pm.execute_notebook(str(root / "notebooks/llama_bench.ipynb"), str(m), prepare_only=True,
                        parameters={"root": str(root), "out_root": str(tmp_path), "overrides": json.dumps(tiny)})
    r = nbval(m, tmp_path)
    assert r.returncode == 0, r.stdout[-3000:]
    raw = list((tmp_path / "data/raw/llama_bench").glob("*.jsonl"))
    assert len(raw) == 1 and raw[0].read_text().count('"schema":"benchbook.llama_bench"') == 8
    assert tmp_path in raw[0].parents  # never appended to the committed data/raw

    rep = tmp_path / "report.ipynb"
    pm.execute_notebook(str(root / "notebooks/llama_bench_report.ipynb"), str(rep), prepare_only=True,
                        parameters={"root": str(root), "raw_dir": str(tmp_path / "data/raw/llama_bench"),
                                    "snapshots_dir": str(tmp_path / "data/raw/snapshots"),
                                    "reports_dir": str(tmp_path / "reports")})
    r = nbval(rep, tmp_path)
    assert r.returncode == 0, r.stdout[-3000:]
    nums = json.loads((tmp_path / "reports/numbers/llama_bench.json").read_text())["numbers"]
    assert sorted(nums) == sorted(f"lb-smollm2-135m-{q}-{t}-{p}" for q in ("q4_1", "q8_0")
                                  for t in ("pp8", "tg4") for p in ("cold", "warm"))
    assert all(n["n"] == (1 if n["key"].endswith("cold") else 3) for n in nums.values())

"""The numbers registry rebuilt from the committed raw data matches the committed fixture.

Every key, value, n, interval and caveat list must match ``tests/fixtures/registry`` (taken before
the record-kinds and layout changes; all six experiments since the one-pipeline change, tool_gap since
issue 31); a deliberate change updates the fixture and its HISTORY.md.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import pytest
import yaml

from conftest import committed_root

FIXTURE = Path(__file__).parent / "fixtures" / "registry"


#: every experiment that publishes numbers (each one's ``report.build`` writes ``numbers/<name>.json``)
EXPERIMENTS = (
    "llama_bench",
    "speculative",
    "draftself",
    "offload",
    "spec_depth",
    "draftself_gpu",
    "tool_gap",
)


def _build(root: Path, out: Path) -> None:
    params = yaml.safe_load((root / "params.yaml").read_text())
    for name in EXPERIMENTS:
        report = importlib.import_module(f"benchbook.experiments.{name}.report")
        report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=out)


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    _build(committed_root(), out)  # the committed raw data only: a local `make run` appends this host's
    return out / "numbers"


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_registry_matches_fixture(rebuilt, experiment):
    want = json.loads((FIXTURE / f"{experiment}.json").read_text())["numbers"]
    got = json.loads((rebuilt / f"{experiment}.json").read_text())["numbers"]
    assert sorted(got) == sorted(want), set(got) ^ set(want)
    for key, w in want.items():
        g = got[key]
        assert _close(g["value"], w["value"]), (key, g["value"], w["value"])
        assert g["n"] == w["n"], (key, g["n"], w["n"])
        assert (g["ci95"] is None) == (w["ci95"] is None), key
        if w["ci95"] is not None:
            assert all(_close(x, y) for x, y in zip(g["ci95"], w["ci95"], strict=True)), (
                key,
                g["ci95"],
                w["ci95"],
            )
        assert g["unit"] == w["unit"], key
        assert sorted(g["caveats"]) == sorted(w["caveats"]), (key, g["caveats"], w["caveats"])

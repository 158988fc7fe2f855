"""Every chart's tooltip shows the point's configuration, n, the 95% interval and rounded values.

The reports are rebuilt from the committed raw data into a temporary directory (as in
``test_registry_fixture``) and every saved ``*.vl.json`` spec is walked layer by layer.  A tooltip
over data that carries an n-like column must show it; over data that carries interval columns
(``ci_low*`` / ``*_ci_low`` and their ``high``) must show both; every quantitative field carries a
``format`` (no raw floats such as 1.12810891386 on hover).  Model curves (no n in their data) only
need a label.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from conftest import committed_root

N_LIKE = {"n", "runs", "passes"}
CHART_NAMES = {
    "llama_bench_rates",
    "spec_speedup_alpha",
    "spec_acceptance",
    "spec_memory",
    "tau_vs_k",
    "speedup_vs_k",
    "experts_vs_bound",
    "offload_sweep",
}


def _build(root: Path, out: Path) -> None:
    from benchbook.experiments.draftself import report as draftself_report
    from benchbook.experiments.llama_bench import report as llama_bench_report
    from benchbook.experiments.offload import report as offload_report
    from benchbook.experiments.speculative import report as speculative_report

    params = yaml.safe_load((root / "params.yaml").read_text())
    for report in (llama_bench_report, speculative_report, draftself_report):
        report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=out)
    offload_report.build(
        {"report": {"confidence": 0.95}}, root=root, raw_dir=Path("data/raw"), reports_dir=out
    )


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("reports")
    _build(committed_root(), out)
    return {p.name.removesuffix(".vl.json"): json.loads(p.read_text()) for p in out.rglob("*.vl.json")}


def _columns(data: dict | None, datasets: dict) -> set[str]:
    if data is None:
        return set()
    rows = data["values"] if "values" in data else datasets.get(data.get("name"), [])
    return {k for r in rows for k in r}


def _tooltips(node: dict, datasets: dict, cols: set[str] = frozenset()) -> Iterator[tuple[list, set]]:
    """(tooltip field list, columns of the data it reads) for every unit spec under ``node``."""
    if "data" in node:
        cols = _columns(node["data"], datasets)
    tip = node.get("encoding", {}).get("tooltip")
    if tip is not None:
        yield (tip if isinstance(tip, list) else [tip]), cols
    for key in ("layer", "vconcat", "hconcat", "concat"):
        for child in node.get(key, []):
            yield from _tooltips(child, datasets, cols)
    if "spec" in node:
        yield from _tooltips(node["spec"], datasets, cols)


def _interval_pairs(cols: set[str]) -> list[tuple[str, str]]:
    lows = [c for c in cols if "ci_low" in c]
    return [(lo, lo.replace("ci_low", "ci_high")) for lo in lows if lo.replace("ci_low", "ci_high") in cols]


def test_every_chart_is_rebuilt(specs):
    assert CHART_NAMES <= set(specs), CHART_NAMES - set(specs)


@pytest.mark.parametrize("name", sorted(CHART_NAMES))
def test_tooltip_shows_configuration_n_interval_rounded(specs, name):
    spec = specs[name]
    tips = list(_tooltips(spec, spec.get("datasets", {})))
    assert tips, f"{name}: no tooltip"
    assert any(N_LIKE & {f["field"] for f in tip} for tip, _ in tips), f"{name}: no tooltip shows n"
    for tip, cols in tips:
        fields = {f["field"]: f for f in tip}
        where = f"{name} tooltip {sorted(fields)}"
        assert any(f["type"] == "nominal" for f in tip), f"{where}: no configuration field"
        if N_LIKE & cols:
            assert N_LIKE & set(fields), f"{where}: data has {sorted(N_LIKE & cols)}, tooltip has no n"
        for lo, hi in _interval_pairs(cols):
            assert lo in fields and hi in fields, f"{where}: data has {lo}/{hi}, tooltip lacks them"
        for f in tip:
            if f["type"] == "quantitative":
                assert "format" in f, f"{where}: {f['field']} has no format"

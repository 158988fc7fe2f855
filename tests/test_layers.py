"""The package keeps its layers (``benchbook.layers``): no upward import, no cycle, measurement and
report code apart; and the checker itself catches each of these, naming file:line."""

from __future__ import annotations

from pathlib import Path

from benchbook import layers


def test_the_real_tree_keeps_its_layers(root):
    assert [str(v) for v in layers.check(root)] == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in {"__init__.py": "", **files}.items():
        p = tmp_path / "src" / "benchbook" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def test_function_local_upward_import_is_named_with_file_and_line(tmp_path):
    stats = '"""s"""\n\n\ndef f():\n    from .site import render\n'
    root = _tree(tmp_path, {"stats.py": stats, "site.py": ""})
    got = [str(v) for v in layers.check(root)]
    assert len(got) == 1
    assert got[0].startswith(
        "src/benchbook/stats.py:5: upward import: benchbook.stats (layer 'stats') "
        "imports benchbook.site (layer 'site')"
    )


def test_cycle_within_one_layer_is_reported(tmp_path):
    root = _tree(
        tmp_path, {"records.py": "from . import session\n", "session.py": "import benchbook.records\n"}
    )
    got = [str(v) for v in layers.check(root)]
    assert got == [
        "src/benchbook/records.py:1: import cycle: src/benchbook/records.py:1 "
        "benchbook.records -> benchbook.session; "
        "src/benchbook/session.py:1 benchbook.session -> benchbook.records; "
        "fix: move the shared code into a lower module"
    ]


def test_measurement_importing_report_code_is_reported(tmp_path):
    root = _tree(
        tmp_path,
        {
            "experiments/__init__.py": "",
            "experiments/x/__init__.py": "",
            "experiments/x/run.py": "from .analysis import load\n",
            "experiments/x/analysis.py": "def load():\n    return 1\n",
        },
    )
    got = [str(v) for v in layers.check(root)]
    assert got == [
        "src/benchbook/experiments/x/run.py:1: measurement module benchbook.experiments.x.run "
        "imports benchbook.experiments.x.analysis from the other side; fix: share the code "
        "through a lower layer (records, jsonl, stats)"
    ]


def test_a_module_in_no_layer_is_reported(tmp_path):
    root = _tree(tmp_path, {"newthing.py": ""})
    assert [str(v) for v in layers.check(root)] == [
        "benchbook.newthing: module benchbook.newthing is in no layer; "
        "fix: add it to benchbook.layers.LAYERS (and to the layer list of docs/DEVELOPING.md)"
    ]

"""`python -m benchbook.experiments NAME`: the session summary printed as JSON (``measure`` returns a
``SessionResult`` or a subclass with the experiment's extras)."""

import json
import shutil
from pathlib import Path

from benchbook.experiments import __main__ as experiments_main
from benchbook.experiments.llama_bench import run as llama_bench_run
from conftest import committed_root

ROOT = Path(__file__).resolve().parents[1]


def test_a_dataclass_result_is_printed_as_json(tmp_path, monkeypatch, capsys):
    # before: AttributeError: 'LlamaBenchResult' object has no attribute 'items' after a finished session
    shutil.copy(committed_root() / "params.yaml", tmp_path / "params.yaml")
    seen = {}

    def measure(params, *, root, raw_dir, overrides=None, log=print):
        seen.update(raw_dir=raw_dir, overrides=overrides)
        return llama_bench_run.LlamaBenchResult(
            session_id="s1",
            experiment="llama_bench",
            resumed=False,
            ran=2,
            skipped=0,
            failed=0,
            raw_file=tmp_path / "x.jsonl",
            cfg={"models": ["my-q8_0"]},
            models=["my-q8_0"],
        )

    monkeypatch.setattr(llama_bench_run, "measure", measure)
    argv = ["llama_bench", "--profile", "cpu", "--root", str(tmp_path), "--raw-dir", "w/raw"]
    assert experiments_main.main([*argv, "--overrides", '{"models": ["my-q8_0"], "repetitions": 3}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["session_id"] == "s1" and out["ran"] == 2 and out["models"] == ["my-q8_0"] and "cfg" not in out
    assert seen["raw_dir"] == Path("w/raw") and seen["overrides"]["repetitions"] == 3

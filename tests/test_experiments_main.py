"""`python -m benchbook.experiments NAME`: the session summary printed as JSON (``measure`` returns a
``SessionResult`` or a subclass with the experiment's extras)."""

import json
import shutil
from pathlib import Path

import pytest

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


@pytest.fixture(autouse=True)
def no_llama_cpp(monkeypatch):
    """No test here may build or start llama.cpp: the toolchain is never resolved."""
    from benchbook import resolve

    def refuse(*_a, **_k):
        raise AssertionError("the toolchain was resolved: a test here would have run llama.cpp")

    monkeypatch.setattr(resolve, "get_toolchain", refuse)


def _main(tmp_path, capsys, *argv: str, params: str | None = None) -> tuple[int, str, str]:
    """``main`` on a copy of the committed params.yaml (``params``: its text instead); (exit, out, err)."""
    (tmp_path / "params.yaml").write_text(params or (committed_root() / "params.yaml").read_text())
    rc = experiments_main.main([*argv, "--root", str(tmp_path), "--raw-dir", str(tmp_path / "raw")])
    out, err = capsys.readouterr()
    return rc, out, err


IDS = "draftself, draftself_gpu, llama_bench, offload, spec_depth, speculative, template, tool_gap"


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (  # before: 19 lines of traceback ending in ParamsError naming params.yaml `llama_bench.repetitions`
            ["llama_bench", "--profile", "cpu", "--overrides", '{"repetitions": "5"}'],
            "`--overrides` key `repetitions`: Input should be a valid integer (got '5'); fix: write an "
            "integer "
            ">= 1 without quotes ('5' is a string)",
        ),
        (  # before: KeyError 'nosuch' from the plan, after the build and the models were resolved
            [
                "spec_depth",
                "--profile",
                "cpu",
                "--overrides",
                '{"configs": [{"id": "baseline", "role": "baseline"}, '
                '{"id": "x", "role": "speculative", "draft": "nosuch", "n_max": 4}]}',
            ],
            "`--overrides` key `configs.1.draft`: draft 'nosuch' is not a key of `drafts`; fix: name one of "
            "self, "
            "q2k, trunc20",
        ),
        (  # before: ProfileError naming $BENCHBOOK_PROFILE='nosuch'
            ["llama_bench", "--profile", "nosuch"],
            "--profile 'nosuch' is not a profile of params.yaml `profiles` (cpu, gpu); fix: --profile cpu or "
            "--profile gpu, or leave it out (picked per host)",
        ),
        (  # before: json.decoder.JSONDecodeError with its traceback
            ["template", "--profile", "cpu", "--overrides", "{repetitions: 3}"],
            "`--overrides` is not JSON (Expecting property name enclosed in double quotes: line 1 column 2 "
            """(char 1): '{repetitions: 3}'); fix: a JSON object of keys and values, e.g. --overrides """
            """'{"repetitions": 3}'""",
        ),
        (
            ["template", "--profile", "cpu", "--overrides", "[3]"],
            "`--overrides` is a list ([3]), not a mapping; fix: pass a JSON object of keys and values, e.g. "
            '{"repetitions": 3}',
        ),
        (  # before: ModuleNotFoundError: No module named 'benchbook.experiments.nosuch'
            ["nosuch", "--profile", "cpu"],
            f"no experiment 'nosuch': benchbook.experiments has {IDS}; fix: name one of them (`-p experiment "
            "NAME`, `python -m benchbook.experiments NAME`)",
        ),
    ],
    ids=["overrides", "unknown-draft", "profile", "json", "not-an-object", "experiment"],
)
def test_an_error_is_one_benchbook_error_line_and_exit_2(tmp_path, capsys, argv, line):
    rc, out, err = _main(tmp_path, capsys, *argv)
    assert (rc, out) == (2, "")
    assert err.splitlines()[-1] == f"benchbook: error: {line}" and "Traceback" not in err
    assert not (tmp_path / "raw").exists()  # refused before anything was measured or written


def test_a_profiles_bad_value_is_named_at_the_profile(tmp_path, capsys):
    # before: "params.yaml `llama_bench.threads`", a key the file does not have wrong
    text = (committed_root() / "params.yaml").read_text()
    gpu = text.index("    llama_bench:         # the default models with CUDA")
    head, tail = text[:gpu], text[gpu:]
    assert "      threads: 16\n" in tail
    bad = head + tail.replace("      threads: 16\n", '      threads: "16"\n', 1)
    rc, _, err = _main(tmp_path, capsys, "llama_bench", "--profile", "gpu", params=bad)
    assert rc == 2 and err.splitlines()[-1] == (
        "benchbook: error: params.yaml `profiles.gpu.llama_bench.threads`: Input should be a valid integer "
        "(got '16'); fix: write an integer >= 1 without quotes ('16' is a string)"
    )


def test_an_error_mid_session_keeps_what_was_recorded_and_the_session_resumes(tmp_path, capsys, monkeypatch):
    from benchbook.experiments.template import run as template_run

    calls = []

    def hash_once(size: int) -> int:
        calls.append(size)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return 1000

    monkeypatch.setattr(template_run, "hash_once", hash_once)
    argv = ("template", "--profile", "cpu", "--overrides", '{"sizes_kib": [1, 2], "repetitions": 1}')
    rc, out, err = _main(tmp_path, capsys, *argv)
    assert (rc, out) == (2, "") and err.splitlines()[-1] == "benchbook: error: disk full"
    (raw,) = (tmp_path / "raw" / "template").glob("*.jsonl")
    kinds = [json.loads(x).get("event") or json.loads(x)["size_bytes"] for x in raw.read_text().splitlines()]
    assert kinds == ["start", 1024]  # the first run kept, no end record: an interrupted session
    rc, out, _ = _main(tmp_path, capsys, *argv)
    summary = json.loads(out.splitlines()[-1])  # the log lines come first
    assert rc == 0 and summary["resumed"] and (summary["ran"], summary["skipped"]) == (1, 1)


def test_the_generic_notebooks_declare_what_check_parameters_knows():
    """``NOTEBOOK_PARAMETERS`` is what papermill reads from each notebook's parameters cell."""
    import papermill

    from benchbook.experiments import NOTEBOOK_PARAMETERS

    root = Path(__file__).resolve().parents[1]
    for name, declared in NOTEBOOK_PARAMETERS.items():
        found = [
            p["name"] for p in papermill.inspect_notebook(str(root / "notebooks" / f"{name}.ipynb")).values()
        ]
        assert tuple(found) == declared, name


def test_check_parameters_refuses_an_undeclared_name():
    """papermill only logs an unknown ``-p`` (issue 28 §10): the notebook refuses it, with the fix."""
    import types

    from benchbook.experiments import UnknownParameter, check_parameters

    ns = {"root": ".", "experiment": "", "experiemnt": "speculative", "Path": Path, "json": json, "_i1": "x"}
    with pytest.raises(UnknownParameter) as e:
        check_parameters(ns, "report")
    assert str(e.value) == (
        "notebooks/report.ipynb: papermill parameter `experiemnt` is not declared (declared: root, "
        "params_file, overrides, raw_dir, reports_dir, to_root, experiment); "
        "fix: `experiemnt`: write `experiment`"
    )
    with pytest.raises(UnknownParameter, match="`to_root`: drop it|`to_root`: write"):
        check_parameters({"to_root": "../"}, "measure")  # the report's parameter, not the measurement's
    check_parameters(
        {"root": ".", "experiment": "x", "yaml": types.ModuleType("yaml"), "show": print}, "measure"
    )


def test_papermill_with_a_misspelt_parameter_fails_before_any_work(tmp_path):
    """The real notebook under papermill: `-p experiemnt …` stops at the check, naming the fix."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-m", "papermill", "notebooks/report.ipynb", str(tmp_path / "out.ipynb"),
         "--cwd", ".", "-p", "experiemnt", "llama_bench", "--no-progress-bar"],
        cwd=root, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "UnknownParameter: notebooks/report.ipynb: papermill parameter `experiemnt` is not declared" in (
        proc.stdout + proc.stderr
    )
    assert "fix: `experiemnt`: write `experiment`" in proc.stdout + proc.stderr

"""params.yaml sections other than toolchain and models are checked against their declared keys and
types, an unknown key naming the nearest spelling; a session with failed runs exits non-zero (issue 34 §8).

Before: ``report: {confidnce: 0.95}`` was a ``KeyError: 'confidence'`` traceback in the first report
stage; ``draftself.train: {stpes: 600}`` a ``TypeError: TrainConfig.__init__() got an unexpected keyword
argument 'stpes'`` traceback; ``python -m benchbook.experiments llama_bench`` exited 0 after failed runs.
"""

from __future__ import annotations

import pytest

from benchbook import caveats
from benchbook.errors import ParamsError
from benchbook.session import SessionResult


@pytest.mark.parametrize(
    ("report", "message"),
    [
        ({"confidnce": 0.95}, "params.yaml `report.confidnce`: unknown key; fix: write `confidence`"),
        ({"primary_hots": None}, "params.yaml `report.primary_hots`: unknown key; fix: write `primary_host`"),
        (
            {"confidence": 95},
            "params.yaml report.confidence: 95 is not a level between 0 and 1; fix: write e.g. 0.95",
        ),
        (
            {"primary_host": 246274},
            "params.yaml report.primary_host: 246274 is not a host id; fix: write the 16-hex host id in "
            "quotes (`benchbook hosts` lists them), or null",
        ),
        (
            ["confidence"],
            "params.yaml `report` must be a mapping (key: value lines indented under `report:`), got list; "
            "fix: restore it from git (`git restore params.yaml`)",
        ),
    ],
)
def test_a_bad_report_section_is_one_named_error(report, message):
    with pytest.raises(ValueError) as e:
        caveats.check_report(report)
    assert str(e.value) == message


def test_a_good_report_section_passes_with_its_defaults():
    # control: the committed section, and an empty one (defaults)
    got = caveats.check_report({"primary_host": "246274abff670295", "confidence": 0.95, "high_cv": 0.05})
    assert got["confidence"] == 0.95 and got["primary_host"] == "246274abff670295"
    assert caveats.check_report(None) == {"confidence": 0.95, "primary_host": None}


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"stpes": 600}, "params.yaml `draftself.train.stpes`: unknown key; fix: write `steps`"),
        ({"lr": "fast"}, "params.yaml `draftself.train.lr` is 'fast' (str); fix: write a number"),
        ({"steps": True}, "params.yaml `draftself.train.steps` is True (bool); fix: write an integer"),
        (
            {"model": {"n_layer": 2}},
            "params.yaml `draftself.train.model.n_layer`: unknown key; fix: write `n_layers`",
        ),
        (
            {"model": [1]},
            "params.yaml `draftself.train.model` is [1] (list); fix: write a mapping",
        ),
    ],
)
def test_a_bad_draftself_train_section_is_one_named_error(section, message):
    from benchbook.draftself.train import config_from_params

    with pytest.raises(ParamsError) as e:
        config_from_params(section)
    assert str(e.value) == message


def test_a_good_draftself_train_section_passes():
    from benchbook.draftself.train import config_from_params

    cfg = config_from_params({"steps": 600, "lr": 3, "model": {"n_layers": 2}})  # an int where a float is
    assert (cfg.steps, cfg.lr, cfg.model["n_layers"], cfg.model["d_model"]) == (600, 3, 2, 128)


def _result(failed: int) -> SessionResult:
    failures = [{"run": "smollm2-135m-q8_0 warm", "error": "exit 1: model not found"}] * failed
    return SessionResult("s" * 32, "x", False, ran=2, skipped=0, failed=failed, failures=failures)


def test_a_session_with_failed_runs_exits_non_zero(capsys):
    from benchbook.experiments.__main__ import failed_runs_status

    assert failed_runs_status("llama_bench", _result(1)) == 2
    assert capsys.readouterr().err == (
        f"benchbook: error: llama_bench: 1 run failed in session {'s' * 32} (first: smollm2-135m-q8_0 warm: "
        "exit 1: model not found); no report publishes a session with a failed run; fix: see the error "
        "above, then run the same command again (it resumes the session and measures only what is missing)\n"
    )
    # controls: no failure; an offload point that failed out of memory is data, not a fault
    assert failed_runs_status("llama_bench", _result(0)) == 0
    assert failed_runs_status("offload", _result(2)) == 0


def test_a_misspelt_section_names_the_section_it_was_meant_to_be(tmp_path):
    import yaml

    from benchbook import resolve
    from conftest import committed_root

    doc = yaml.safe_load((committed_root() / "params.yaml").read_text())
    # before: the section was left out silently (the experiment ran on its defaults)
    doc["speculatve"] = doc.pop("speculative")
    with pytest.raises(ParamsError) as e:
        resolve.validate_params(doc, tmp_path / "params.yaml")
    assert str(e.value) == (
        f"{tmp_path / 'params.yaml'}: top-level section `speculatve` is not one benchbook reads; fix: write "
        "`speculative` (the section it is closest to) or compare with the committed file "
        "(`git diff params.yaml`)"
    )
    # control: the committed file, and a key far from every section (a user's own notes), pass
    doc["speculative"] = doc.pop("speculatve")
    doc["my_notes"] = {"machine": "lab box"}
    assert resolve.validate_params(doc, tmp_path / "params.yaml") is doc

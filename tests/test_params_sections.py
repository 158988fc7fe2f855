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

#: the keys params.yaml `report` may hold, in the order an unknown key's message lists them
REPORT_KNOWN = ", ".join([*caveats.DEFAULTS, *caveats.REPORT_KEYS])
TRAIN_KNOWN = (
    "seed, corpus_seed, n_docs, seq_len, batch_size, steps, lr, warmup, max_block, p_full_mask, aux_coef, "
    "threads, log_every, model"
)


@pytest.mark.parametrize(
    ("report", "message"),
    [
        (
            {"confidnce": 0.95},
            f"params.yaml `report.confidnce`: unknown key; fix: write `confidence` (known: {REPORT_KNOWN})",
        ),
        (
            {"primary_hots": None},
            "params.yaml `report.primary_hots`: unknown key; fix: write `primary_host` "
            f"(known: {REPORT_KNOWN})",
        ),
        (
            {"zzz": 1},
            "params.yaml `report.zzz`: unknown key; fix: remove it or use a known key "
            f"(known: {REPORT_KNOWN})",
        ),
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
        (
            {"stpes": 600},
            f"params.yaml `draftself.train.stpes`: unknown key; fix: write `steps` (known: {TRAIN_KNOWN})",
        ),
        (
            {"zzz": 1, "stpes": 600},
            "params.yaml `draftself.train.zzz`: unknown key; fix: remove it or use a known key (known: "
            f"{TRAIN_KNOWN}); params.yaml `draftself.train.stpes`: unknown key; fix: write `steps` (known: "
            f"{TRAIN_KNOWN})",
        ),
        ({"lr": "fast"}, "params.yaml `draftself.train.lr` is 'fast' (str); fix: write a number"),
        ({"steps": True}, "params.yaml `draftself.train.steps` is True (bool); fix: write an integer"),
        (
            {"model": {"n_layer": 2}},
            "params.yaml `draftself.train.model.n_layer`: unknown key; fix: write `n_layers` (known: "
            "d_model, n_layers, n_heads, dense, d_ff, n_experts, top_k, d_expert, max_seq_len, rope_base)",
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
    # before: "<p>: top-level section `speculatve` is not one benchbook reads; fix: write `speculative`
    # (the section it is closest to) or compare with the committed file (`git diff params.yaml`)"
    assert str(e.value) == (
        f"{tmp_path / 'params.yaml'} `speculatve`: unknown key; fix: write `speculative` (known: toolchain, "
        "models, report, audit, profiles, draftself, draftself_gpu, llama_bench, offload, spec_depth, "
        "speculative, template, tool_gap)"
    )
    # control: the committed file, and a key far from every section (a user's own notes), pass
    doc["speculative"] = doc.pop("speculatve")
    doc["my_notes"] = {"machine": "lab box"}
    assert resolve.validate_params(doc, tmp_path / "params.yaml") is doc


_RESTORE = "or compare with the committed file (`git diff params.yaml`)"


@pytest.mark.parametrize(
    ("mid", "field", "value", "message"),
    [
        # breaker T2: `doctor` crashed with TypeError: unhashable type: 'list' in registry.duplicates
        (
            "smollm2-135m-q4_1",
            "sha256",
            [1],
            "`models.registry.smollm2-135m-q4_1.sha256` is [1] (a list), expected 64 hex digits; fix: "
            f"correct it {_RESTORE}",
        ),
        (
            "smollm2-135m-q4_1",
            "wheel_sha256",
            "abc",
            "`models.registry.smollm2-135m-q4_1.wheel_sha256` is 'abc', not 64 hex digits; fix: the file's "
            "full sha256 (`sha256sum FILE`)",
        ),
        (
            "smollm2-135m-q8_0",
            "derived_from",
            ["smollm2-135m-q4_1"],
            "`models.registry.smollm2-135m-q8_0.derived_from` is ['smollm2-135m-q4_1'] (a list), expected "
            f"str; fix: correct it {_RESTORE}",
        ),
        (
            "smollm2-135m-q4_1",
            "member",
            {"a": 1},
            "`models.registry.smollm2-135m-q4_1.member` is {'a': 1} (a dict), expected str; fix: "
            f"correct it {_RESTORE}",
        ),
    ],
)
def test_a_registry_entry_field_of_the_wrong_type_is_one_named_error(tmp_path, mid, field, value, message):
    import yaml

    from benchbook import resolve
    from conftest import committed_root

    doc = yaml.safe_load((committed_root() / "params.yaml").read_text())
    assert resolve.validate_params(doc, tmp_path / "params.yaml") is doc  # control: the committed file
    doc["models"]["registry"][mid][field] = value
    with pytest.raises(ParamsError) as e:
        resolve.validate_params(doc, tmp_path / "params.yaml")
    assert str(e.value) == f"{tmp_path / 'params.yaml'}: {message}"


def test_doctor_names_a_list_sha256_instead_of_crashing(tmp_path, monkeypatch, capsys):
    """Breaker T2 end to end: `benchbook doctor` with `sha256: [1]` gives one line naming the key."""
    from benchbook.cli import main
    from conftest import committed_root

    text = (committed_root() / "params.yaml").read_text()
    sha = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    assert f"sha256: {sha}" in text
    (tmp_path / "params.yaml").write_text(text.replace(f"sha256: {sha}", "sha256: [1]"))
    (tmp_path / "dvc.yaml").write_text("stages: {}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["doctor"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip().endswith(
        "`models.registry.smollm2-135m-q4_1.sha256` is [1] (a list), expected 64 hex digits; fix: "
        f"correct it {_RESTORE}"
    )


@pytest.mark.parametrize(
    ("audit", "message"),
    [
        # breaker T3: AttributeError: 'list' object has no attribute 'get' in audit/command.py here_of
        (
            [1, 2],
            "params.yaml audit: a mapping is needed, got list [1, 2]; fix: write `audit:` with keys `here:` "
            "and `severity:` (or remove the section for the defaults)",
        ),
        (
            {"here": "H200"},
            "params.yaml audit.here: a mapping is needed, got str 'H200'; fix: write `here: {build: ..., "
            "methods: [...], decodings: [...], gpus: [...]}`",
        ),
        (
            {"here": {"build": ["b1"]}},
            "params.yaml audit.here.build: a string is needed, got ['b1']; fix: write the build's name, "
            "e.g. `build: llama.cpp b11434`",
        ),
    ],
)
def test_a_bad_audit_section_is_one_named_error(tmp_path, audit, message):
    import yaml

    from benchbook.audit.command import here_of

    p = tmp_path / "params.yaml"
    p.write_text(yaml.safe_dump({"audit": audit}))
    with pytest.raises(ValueError) as e:
        here_of(p)
    assert str(e.value) == message
    p.write_text(yaml.safe_dump({"audit": {"here": {"build": "llama.cpp b1"}}}))  # control
    assert here_of(p)[0].build == "llama.cpp b1"


def test_audit_command_with_a_list_audit_section_says_so(tmp_path, monkeypatch, capsys):
    from benchbook.cli import main

    (tmp_path / "params.yaml").write_text("audit: [1, 2]\n")
    (tmp_path / "x.yaml").write_text("claims: []\n")
    monkeypatch.chdir(tmp_path)
    assert main(["audit", "x.yaml"]) == 2
    assert capsys.readouterr().err == (
        "benchbook: error: params.yaml audit: a mapping is needed, got list [1, 2]; fix: write `audit:` with "
        "keys `here:` and `severity:` (or remove the section for the defaults)\n"
    )


def test_a_params_file_that_is_not_utf8_is_named_with_its_line(tmp_path):
    """Catalogue P23: ``benchbook doctor`` on a params.yaml with bytes that are not UTF-8 said only
    ``'utf-8' codec can't decode byte 0xff in position 11: invalid start byte`` (no file, no fix)."""
    from benchbook import resolve
    from benchbook.errors import ParamsError

    p = tmp_path / "params.yaml"
    p.write_bytes(b"toolchain:\n  backend: \xff\xfe\n")
    with pytest.raises(ParamsError) as e:
        resolve.load_params_file(p)
    assert str(e.value) == (
        f"{p}:2: byte 22 is not UTF-8 (invalid start byte); fix: save it as UTF-8 text or compare with "
        "the committed file (`git diff params.yaml`)"
    )


def test_a_hand_written_registry_id_with_markup_is_refused_as_models_add_refuses_it(tmp_path):
    """Catalogue S06: ``models add --id`` refuses an id with markup, but the same id written into
    params.yaml by hand was accepted (``doctor`` listed ``MISS model <script>x{{< env HOME >}}``); the id
    becomes registry keys, page variables and file names."""
    from benchbook import resolve
    from conftest import committed_root

    text = (committed_root() / "params.yaml").read_text()
    p = tmp_path / "params.yaml"
    p.write_text(
        text.replace(
            "    smollm2-135m-q2_k: {derived_from",
            '    "<script>x{{< env HOME >}}": {derived_from: smollm2-135m-q4_1, quantize: Q4_0}\n'
            "    smollm2-135m-q2_k: {derived_from",
            1,
        )
    )
    with pytest.raises(ParamsError) as e:
        resolve.load_params_file(p)
    assert str(e.value) == (
        f"{p}: `models.registry.<script>x{{{{< env HOME >}}}}`: a registry id is lowercase letters, digits, "
        "'-' and '_' (no dot: Quarto reads it as a nested key; no space, colon or markup); fix: rename it, "
        "e.g. script-x-env-home or compare with the committed file (`git diff params.yaml`)"
    )
    p.write_text(text)
    assert resolve.load_params_file(p)["models"]["default"] == "smollm2-135m-q4_1"  # control


def test_benchbook_audit_names_a_params_file_that_is_not_utf8_or_not_yaml(tmp_path):
    """`benchbook audit` reads params.yaml itself (not through resolve): bytes that are not UTF-8 gave
    the bare codec error there (left by the breaker after catalogue P23); the same line as doctor's."""
    from benchbook.audit.command import here_of

    p = tmp_path / "params.yaml"
    p.write_bytes(b"toolchain:\n  backend: \xff\xfe\n")
    with pytest.raises(ValueError) as e:
        here_of(p)
    assert str(e.value) == (
        f"{p}:2: byte 22 is not UTF-8 (invalid start byte); fix: save it as UTF-8 text or compare with "
        "the committed file (`git diff params.yaml`)"
    )
    p.write_text("audit: [\n")
    with pytest.raises(ValueError) as e:
        here_of(p)
    assert str(e.value).startswith(f"{p}: not YAML (while parsing a flow")


@pytest.mark.parametrize("command", [["doctor"], ["measure", "--without-dvc"]])
def test_a_report_typo_is_named_by_doctor_and_measure_before_measuring(
    tmp_path, monkeypatch, capsys, command
):
    """`report.*` was checked by `benchbook run` only: `doctor` said ok and `measure` measured, then the
    first report stage failed (left by the breaker).  Now each names the key before anything runs."""
    from benchbook.cli import main
    from conftest import committed_root

    text = (committed_root() / "params.yaml").read_text()
    assert "  high_cv: 0.05" in text
    (tmp_path / "params.yaml").write_text(text.replace("  high_cv: 0.05", "  hihg_cv: 0.05"))
    (tmp_path / "dvc.yaml").write_text("stages: {}\n")
    monkeypatch.chdir(tmp_path)
    assert main(command) == 2
    assert capsys.readouterr().err == (
        "benchbook: error: params.yaml `report.hihg_cv`: unknown key; fix: write `high_cv` "
        f"(known: {REPORT_KNOWN})\n"
    )

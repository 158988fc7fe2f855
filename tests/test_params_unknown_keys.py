"""params.yaml keys and values outside the experiments' typed Params are refused with the key, the
nearest known spelling and the fix (``resolve.validate_params``); the CLI's option and name errors name
the option (breaker's list P1/E1)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from benchbook import resolve, writeup
from benchbook.errors import ParamsError
from benchbook.llamacpp import registry

ROOT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((ROOT / "params.yaml").read_text())
WHEEL = "smollm2-135m-q4_1"
DERIVED = "smollm2-135m-q8_0"
RESTORE = "or compare with the committed file (`git diff params.yaml`)"
TC_KNOWN = "(known: source, backend, extra_cmake_flags, amx, user_build_dir)"


def _set(*path, value):
    def edit(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


CASES = {
    "toolchain.bakend": (
        _set("toolchain", "bakend", value="cpu"),
        f"params.yaml `toolchain.bakend`: unknown key; fix: write `backend` {TC_KNOWN}",
    ),
    "toolchain.cmake_flags": (
        _set("toolchain", "cmake_flags", value=["-DX=1"]),
        f"params.yaml `toolchain.cmake_flags`: unknown key; fix: write `extra_cmake_flags` {TC_KNOWN}",
    ),
    "models.defualt": (
        _set("models", "defualt", value="x"),
        "params.yaml `models.defualt`: unknown key; fix: write `default` (known: default, registry)",
    ),
    "registry.membr": (
        _set("models", "registry", WHEEL, "membr", value="x"),
        f"params.yaml `models.registry.{WHEEL}.membr`: unknown key; fix: write `member` (known: source, "
        "project, version, wheel_sha256, member, sha256, size_bytes)",
    ),
    "registry.quantise": (
        _set("models", "registry", DERIVED, "quantise", value="Q8_0"),
        f"params.yaml `models.registry.{DERIVED}.quantise`: unknown key; fix: write `quantize` "
        "(known: derived_from, quantize)",
    ),
    "audit.hre": (
        _set("audit", "hre", value={}),
        "params.yaml `audit.hre`: unknown key; fix: write `here` (known: here, severity)",
    ),
    "audit.here.bild": (
        _set("audit", "here", "bild", value="x"),
        "params.yaml `audit.here.bild`: unknown key; fix: write `build` (known: build, methods, "
        "decodings, gpus)",
    ),
    "profiles.cpu.bogus": (
        _set("profiles", "cpu", "bogus", value={}),
        "params.yaml `profiles.cpu.bogus`: unknown key; fix: remove it or use a known key (known: "
        "draftself, draftself_gpu, llama_bench, offload, spec_depth, speculative, template, tool_gap)",
    ),
    "profiles: cpu": (
        _set("profiles", value="cpu"),
        "params.yaml: `profiles` must be a mapping of profile names (cpu:, gpu:) to sections, got a string "
        f"('cpu'); fix: correct it {RESTORE}",
    ),
    "draftself.bogus_key": (
        _set("draftself", "bogus_key", value=1),
        "params.yaml `draftself.bogus_key`: unknown key; fix: remove it or use a known key (known: "
        "train, measure)",
    ),
    "extra_cmake_flags string": (
        _set("toolchain", "extra_cmake_flags", value="-DGGML_NATIVE=OFF"),
        "params.yaml: `toolchain.extra_cmake_flags`: expected a list of strings, got str "
        "'-DGGML_NATIVE=OFF' (a string would be read as one flag per character); fix: write "
        "extra_cmake_flags: [-DGGML_NATIVE=OFF]",
    ),
    "user_build_dir int": (
        _set("toolchain", "user_build_dir", value=5),
        "params.yaml: `toolchain.user_build_dir`: expected a string (a path), got int 5; fix: write the "
        'path as a string (user_build_dir: "5"), or leave it empty to build llama.cpp',
    ),
    "toolchain.backend gpu": (
        _set("toolchain", "backend", value="gpu"),
        "params.yaml: `toolchain.backend` is 'gpu'; allowed: auto, cpu, cuda (any other was built as cpu "
        f"under that name); fix: correct it {RESTORE}",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_refused_with_key_and_fix(case):
    edit, message = CASES[case]
    doc = copy.deepcopy(BASE)
    edit(doc)
    with pytest.raises(ParamsError) as e:
        resolve.validate_params(doc, Path("params.yaml"))
    assert str(e.value) == message


COMMITTED = ["params.yaml", *sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("writeups/*/params.yaml"))]


@pytest.mark.parametrize("path", COMMITTED)
def test_committed_params_validate(path):
    """control: every committed params file still validates (nothing above fires on it)"""
    assert resolve.load_params_file(ROOT / path)


def test_write_up_names():
    assert writeup.name_problem("-rf") == (
        "must start with a lowercase letter or a digit, not '-'; fix: drop or change it"
    )
    assert writeup.name_problem("a" * 300) == "300 characters, longer than 64; fix: a shorter name"
    assert writeup.shown_name("a" * 300) == "'" + "a" * 24 + "'…"
    assert writeup.name_problem("a" * 64) is None
    assert writeup.name_problem("user-gguf") is None


def test_models_add_folder(tmp_path):
    with pytest.raises(registry.RegistryError) as e:
        registry.entry_for(str(tmp_path), tmp_path)
    assert str(e.value) == f"{tmp_path}: is a folder, not a file; fix: give the path of the .gguf file in it"


def test_cli_overrides_named(capsys, monkeypatch):
    from benchbook import cli

    monkeypatch.chdir(ROOT)
    assert cli.main(["writeup", "new", "x", "--model", "F", "--overrides", "[1"]) != 0
    assert capsys.readouterr().err.strip() == (
        "benchbook: error: --overrides: not JSON (Expecting ',' delimiter: line 1 column 3 (char 2): "
        """'[1'); fix: a JSON object of keys and values, e.g. --overrides '{"repetitions": 3}'"""
    )
    assert cli.main(["measure", "--without-dvc", "--overrides", "llama_bench"]) != 0
    assert capsys.readouterr().err.strip() == (
        "benchbook: error: --overrides 'llama_bench': expected STAGE=JSON; fix: write e.g. "
        """--overrides 'llama_bench={"repetitions": 3}'"""
    )


def test_doctor_lists_every_check_on_a_read_only_cache(capsys, monkeypatch):
    """a cache that cannot be written (PermissionError from each lookup): one MISS line per check, then
    the count, never a stop at the first error"""
    from benchbook import cli
    from benchbook.llamacpp import models

    def denied(*a, **k):
        raise PermissionError(13, "Permission denied", "/cache/models")

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(resolve, "get_toolchain", denied)
    monkeypatch.setattr(models, "_cached", denied)
    monkeypatch.setattr(registry, "duplicates", denied)
    assert cli.main(["doctor"]) == 1
    out = capsys.readouterr().out.splitlines()
    miss = [line for line in out if line.startswith("MISS")]
    assert miss[:5] == [
        "MISS toolchain: [Errno 13] Permission denied: '/cache/models'",
        "MISS model smollm2-135m-q4_1: [Errno 13] Permission denied: '/cache/models'",
        "MISS model smollm2-135m-q8_0: [Errno 13] Permission denied: '/cache/models'",
        "MISS model smollm2-135m-q2_k: [Errno 13] Permission denied: '/cache/models'",
        "MISS models (same file under two ids): [Errno 13] Permission denied: '/cache/models'",
    ]
    assert out[-1].startswith(f"{len(miss)} missing (fixes above)")


def test_the_audit_keys_doctor_checks_are_the_keys_the_audit_reads():
    """`benchbook audit` reads params.yaml without ``resolve`` (its stage would depend on the llamacpp
    modules), so the audit's key lists are kept twice: they must agree, or a key one accepts the other
    calls a typo."""
    from benchbook import resolve
    from benchbook.audit import verdicts

    assert resolve.KNOWN_KEYS["audit.here"] == verdicts.HERE_KEYS == ("build", "methods", "decodings", "gpus")
    assert resolve.KNOWN_KEYS["audit"] == verdicts.AUDIT_KEYS == ("here", "severity")

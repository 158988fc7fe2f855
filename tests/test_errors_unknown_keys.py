"""One message for a key a params reader does not know (``errors.unknown_key``): the place (file and
dotted key), the nearest known spelling (``difflib``) and the known keys.  Before, five readers each
worded it their own way (code review): ``resolve`` ``params.yaml: `toolchain.bakend`: unknown key; fix:
write `backend` (known: ...)``, ``caveats.check_report`` ``... fix: write `confidence``` (no known
keys), ``audit.verdicts.Here`` ``params.yaml audit.here.decodngs: ...`` (no backticks; "remove it"),
``draftself.train`` ``... fix: remove it (keys: <sorted>)``, ``experiments.contract`` the present one;
``resolve``'s profiles ``not an experiment section ... name an experiment section``, its
``toolchain.source`` ``has unknown key(s) sha; allowed: ...`` and its top-level sections ``top-level
section `speculatve` is not one benchbook reads``."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from benchbook import caveats, errors, resolve
from benchbook.audit.verdicts import HERE_KEYS, Here
from benchbook.draftself.train import config_from_params
from benchbook.errors import ParamsError, check_keys, nearest, unknown_key, unknown_key_fix
from benchbook.experiments.llama_bench.plan import LlamaBenchParams

ROOT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((ROOT / "params.yaml").read_text())


def test_the_fix_names_the_nearest_known_spelling_and_the_known_keys():
    assert (
        unknown_key_fix("bakend", ("source", "backend", "amx"))
        == "write `backend` (known: source, backend, amx)"
    )
    # none near (difflib ratio < 0.6): no guess, the known keys in the order given
    assert (
        unknown_key_fix("zzz", ("source", "backend"))
        == "remove it or use a known key (known: source, backend)"
    )
    assert unknown_key_fix(3, {"a": int, "b": str}) == "remove it or use a known key (known: a, b)"
    assert unknown_key("params.yaml `models.defualt`", "defualt", ("default", "registry")) == (
        "params.yaml `models.defualt`: unknown key; fix: write `default` (known: default, registry)"
    )
    assert nearest("speculatve", ["speculative", "spec_depth"], cutoff=0.8) == "speculative"
    assert nearest("my_notes", ["speculative", "spec_depth"], cutoff=0.8) is None


def test_check_keys_names_every_unknown_key_in_one_error():
    with pytest.raises(ParamsError) as e:
        check_keys({"a": 1, "bild": 2, "zzz": 3}, ("a", "build"), "params.yaml", "audit.here")
    assert str(e.value) == (
        "params.yaml `audit.here.bild`: unknown key; fix: write `build` (known: a, build); "
        "params.yaml `audit.here.zzz`: unknown key; fix: remove it or use a known key (known: a, build)"
    )
    assert isinstance(e.value, ValueError)  # a command prints it as one line
    # the top level of a file: no section
    with pytest.raises(ParamsError, match=r"^p\.yaml `bild`: unknown key; fix: write `build`"):
        check_keys({"bild": 1}, ("build",), "p.yaml")
    # controls: known keys, an empty mapping
    check_keys({"a": 1, "build": 2}, ("a", "build"), "params.yaml", "audit.here")
    check_keys({}, (), "params.yaml")


def _message(call) -> str:
    with pytest.raises(ValueError) as e:
        call()
    return str(e.value)


def _resolve_with(section: str, key: str) -> str:
    doc = copy.deepcopy(BASE)
    doc[section][key] = 1
    return _message(lambda: resolve.validate_params(doc, Path("params.yaml")))


def test_every_reader_words_an_unknown_key_the_same():
    """the same kind of typo through each of the five readers: each message is ``errors.unknown_key``'s
    for its place and its known keys"""
    report_known = [*caveats.DEFAULTS, *caveats.REPORT_KEYS]
    train_known = [
        "seed", "corpus_seed", "n_docs", "seq_len", "batch_size", "steps", "lr", "warmup", "max_block",
        "p_full_mask", "aux_coef", "threads", "log_every", "model",
    ]  # fmt: skip
    lb_known = [
        "models", "n_prompt", "n_gen", "n_depth", "repetitions", "threads", "n_gpu_layers", "flash_attn",
        "cold_first_run", "timeout_s",
    ]  # fmt: skip
    got = {
        "resolve": _resolve_with("toolchain", "bakend"),
        "caveats": _message(lambda: caveats.check_report({"confidnce": 0.9})),
        "verdicts": _message(lambda: Here.from_params({"audit": {"here": {"decodngs": ["plain"]}}})),
        "draftself": _message(lambda: config_from_params({"stpes": 600})),
        "contract": _message(lambda: LlamaBenchParams.from_section({**BASE["llama_bench"], "repetitons": 3})),
    }
    assert got == {
        "resolve": unknown_key("params.yaml `toolchain.bakend`", "bakend", resolve.KNOWN_KEYS["toolchain"]),
        "caveats": unknown_key("params.yaml `report.confidnce`", "confidnce", report_known),
        "verdicts": unknown_key("params.yaml `audit.here.decodngs`", "decodngs", HERE_KEYS),
        "draftself": unknown_key("params.yaml `draftself.train.stpes`", "stpes", train_known),
        "contract": unknown_key("params.yaml `llama_bench.repetitons`", "repetitons", lb_known),
    }
    assert got["verdicts"] == (
        "params.yaml `audit.here.decodngs`: unknown key; fix: write `decodings` (known: build, methods, "
        "decodings, gpus)"
    )
    assert all(": unknown key; fix: write `" in m for m in got.values())
    assert errors.UNKNOWN_KEY == "unknown key"


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        # before: "`profiles.cpu.speculatve`: not an experiment section; fix: write `speculative` ..."
        (
            {"speculatve": {}},
            "params.yaml `profiles.cpu.speculatve`: unknown key; fix: write `speculative` (known: draftself, "
            "draftself_gpu, llama_bench, offload, spec_depth, speculative, template, tool_gap)",
        ),
        # the mapping checks (``resolve._mapping`` now), worded as before
        (
            [1],
            "params.yaml: `profiles.cpu` must be a mapping of experiment sections, got a list ([1]); fix: "
            "correct it or compare with the committed file (`git diff params.yaml`)",
        ),
        (
            {"llama_bench": 3},
            "params.yaml: `profiles.cpu.llama_bench` must be a mapping of that section's keys, got a number "
            "(3); fix: correct it or compare with the committed file (`git diff params.yaml`)",
        ),
    ],
)
def test_a_profiles_unknown_section_and_wrong_shape(profile, message):
    doc = copy.deepcopy(BASE)
    doc["profiles"] = {"cpu": profile}
    assert _message(lambda: resolve.validate_params(doc, Path("params.yaml"))) == message


def test_empty_profiles_and_empty_optional_sections_pass():
    """controls: ``profiles:``, an empty profile, an empty section in a profile, an empty ``audit`` pass"""
    for edit in (
        {"profiles": None},
        {"profiles": {"cpu": None}},
        {"profiles": {"cpu": {"llama_bench": None}}},
    ):
        doc = {**copy.deepcopy(BASE), **edit, "audit": None}
        assert resolve.validate_params(doc, Path("params.yaml")) is doc

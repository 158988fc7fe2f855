"""Regression tests of the breaker report's ``models add`` / ``models fetch`` defects (items 17, 23, 28):
a non-GGUF file refused at add and at fetch (never with advice to delete the user's file), a one-digit
sha256 edit diagnosed with whole digests and a quoted fix with --replace, ids checked."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from benchbook import resolve
from benchbook.llamacpp import models as models_mod
from benchbook.llamacpp import registry
from benchbook.llamacpp.models import ModelError
from test_model_sources import _cli, _project, _Server, cache  # noqa: F401  (cache: a fixture)

BR = Path(__file__).parent / "fixtures" / "breaker"
PAGE = (BR / "hf_blob_page.Q4_K_M.gguf").read_bytes()
HTML = (
    "not a GGUF file: it starts with an HTML page (a Hugging Face '/blob/' link gives the page; "
    "'/resolve/' gives the file), not the magic b'GGUF'"
)


def test_models_add_refuses_an_html_page_named_gguf(cache, tmp_path):  # noqa: F811
    proj = _project(tmp_path)
    f = tmp_path / "x.Q4_K_M.gguf"
    f.write_bytes(PAGE)
    before = (proj / "params.yaml").read_text()
    r = _cli(["models", "add", str(f)], proj, {"BENCHBOOK_CACHE": str(cache)})
    assert r.returncode == 2 and r.stderr == (
        f"benchbook: error: {f}: {HTML}; nothing was registered; fix: download the GGUF itself (Hugging "
        "Face: the '/resolve/' link, or `huggingface-cli download`) and add that file\n"
    )
    assert (proj / "params.yaml").read_text() == before and f.read_bytes() == PAGE


def test_models_add_url_serving_html_registers_nothing_and_keeps_no_download(cache, tmp_path):  # noqa: F811
    proj = _project(tmp_path)
    srv = _Server(PAGE)
    try:
        r = _cli(["models", "add", srv.url, "--id", "web"], proj, {"BENCHBOOK_CACHE": str(cache)})
    finally:
        srv.close()
    assert r.returncode == 2 and r.stderr == (
        f"benchbook: error: {srv.url}: the download is {HTML}; nothing was registered; fix: give the URL of "
        "the file itself (Hugging Face: https://huggingface.co/<repo>/resolve/<revision>/<file>.gguf)\n"
    )
    assert list((cache / "models").glob("*")) == []


def test_fetch_of_a_registered_html_file_leaves_the_users_file_alone(cache, tmp_path):  # noqa: F811
    # registered before the check existed: the old error advised "delete it and run models fetch again"
    f = tmp_path / "x.Q4_K_M.gguf"
    f.write_bytes(PAGE)
    reg = {"x": {"source": "file", "path": str(f), "sha256": hashlib.sha256(PAGE).hexdigest()}}
    with pytest.raises(ModelError) as e:
        models_mod.fetch(reg, "x", log=lambda *_: None)
    assert str(e.value) == (
        f"model x: {f} (`models.registry.x.path`) is {HTML}; it is your file, so benchbook leaves it alone; "
        "fix: download the GGUF itself and register it in place of this one: "
        "`benchbook models add NEW.gguf --id x --replace`"
    )
    assert f.read_bytes() == PAGE
    srv = _Server(PAGE)
    try:
        reg = {"u": {"source": "url", "url": srv.url, "sha256": hashlib.sha256(PAGE).hexdigest()}}
        with pytest.raises(ModelError) as e:
            models_mod.fetch(reg, "u", log=lambda *_: None)
    finally:
        srv.close()
    assert (
        "the pinned sha256 is that of this non-GGUF download, so fetching again gives the same bytes"
        in str(e.value)
    )
    assert list(models_mod.models_dir().glob("*.gguf")) == []


def test_a_pin_off_in_its_last_digit_is_diagnosed(cache, tmp_path):  # noqa: F811
    d = tmp_path / "bb models"
    d.mkdir()
    f = d / "q2 good.gguf"
    blob = b"GGUF" + b"\0" * 60
    f.write_bytes(blob)
    sha = hashlib.sha256(blob).hexdigest()
    edited = sha[:-1] + ("0" if sha[-1] != "0" else "1")
    ent = {"source": "file", "path": str(f), "sha256": sha, "size_bytes": len(blob)}
    models_mod.fetch({"myq2g": ent}, "myq2g", log=lambda *_: None)  # verified: its local record has sha
    with pytest.raises(ModelError) as e:
        models_mod.fetch({"myq2g": {**ent, "sha256": edited}}, "myq2g", log=lambda *_: None)
    assert str(e.value) == (
        f"model myq2g: {f} still has the sha256 it was registered and verified with ({sha}), but "
        f"`models.registry.myq2g.sha256` now pins {edited} (first difference at hex digit 64 of 64): the pin "
        f"was edited, not the file; fix: restore `models.registry.myq2g.sha256: {sha}` in params.yaml, or "
        f"if the file is the one to use, register it again: `benchbook models add '{f}' --id myq2g --replace`"
    )
    # never verified before (no record): no claim that the bytes changed; whole digests, quoted path
    models_mod.user_file_state(f).unlink()
    with pytest.raises(ModelError) as e:
        models_mod.fetch({"myq2g": {**ent, "sha256": edited}}, "myq2g", log=lambda *_: None)
    assert str(e.value) == (
        f"model myq2g {f}: sha256 is {sha}, expected {edited} (the file does not match the pinned value; "
        "first difference at hex digit 64 of 64); fix: restore the file, or if the change is deliberate "
        f"register it again: `benchbook models add '{f}' --id myq2g --replace`"
    )


@pytest.mark.parametrize(("bad", "fix"), [("a.b", "a-b"), ("<script>", "script"), ("x: y", "x-y")])
def test_models_add_checks_the_id(bad, fix):
    with pytest.raises(registry.RegistryError) as e:
        registry.check_id(bad)
    assert str(e.value) == (
        f"--id {bad!r}: a registry id is lowercase letters, digits, '-' and '_' (no dot: Quarto reads it as "
        f"a nested key; no space, colon or markup); fix: --id {fix}"
    )
    assert registry.check_id("my-q2_k") == "my-q2_k"


def test_url_encoded_names_are_decoded_for_the_id():
    assert registry.model_id_for("https://example.org/m/q2%20model.gguf") == "q2-model"  # was q2-20model


def test_the_same_file_under_a_second_id_becomes_an_alias(cache, tmp_path):  # noqa: F811
    # issue 33 §2: a second name for the same bytes is an alias of the registered model, never a second
    # model (pages named the project's file by the user's id)
    proj = _project(tmp_path)
    f = tmp_path / "elsewhere" / "m.gguf"
    f.parent.mkdir()
    f.write_bytes(b"GGUF" + b"Q" * 60)
    sha = hashlib.sha256(f.read_bytes()).hexdigest()
    env = {"BENCHBOOK_CACHE": str(cache)}
    assert _cli(["models", "add", str(f), "--id", "one"], proj, env).returncode == 0
    copy = tmp_path / "elsewhere" / "my-model.gguf"
    copy.write_bytes(f.read_bytes())
    r = _cli(["models", "add", str(copy), "--id", "two"], proj, env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        f"this file is already one (sha256 {sha}): it is measured and shown as one\n"
        f"added models.registry.two in {proj / 'params.yaml'} as an alias: {{alias_of: one}} "
        "(its numbers and pages name one)\n"
    )
    assert "    two:\n      alias_of: one\n" in (proj / "params.yaml").read_text()
    again = _cli(["models", "add", str(copy), "--id", "two"], proj, env)
    assert again.returncode == 0 and again.stdout.endswith(
        "nothing to add: use 'one' (under llama_bench.models, or speculative.target)\n"
    )
    # the alias resolves to the registered file and its id: records and pages name `one`
    reg = resolve.load_params(proj)["models"]["registry"]  # params.yaml names <models>/m.gguf, its
    rec = models_mod.fetch(reg, "two", log=lambda *_: None)  # local companion the folder
    assert (rec["model_id"], rec["sha256"], rec["path"]) == ("one", sha, str(f))


def test_registered_as_finds_a_derived_models_cached_file():
    # a file byte-identical to a derived model (no pinned sha256: its cached file's) is that model
    reg = {
        "base": {"source": "file", "path": "/x", "sha256": "a" * 64, "size_bytes": 1},
        "base-q8": {"derived_from": "base", "quantize": "Q8_0"},
        "alias": {"alias_of": "base-q8"},
    }
    cached = {"base-q8": "b" * 64}

    def sha_of(registry, mid):
        return registry[models_mod.canonical_id(registry, mid)].get("sha256") or cached.get(
            models_mod.canonical_id(registry, mid)
        )

    assert registry.registered_as(reg, "b" * 64, sha_of) == "base-q8"  # never the alias
    assert registry.registered_as(reg, "c" * 64, sha_of) is None  # control: other bytes are a new model
    assert registry.duplicates(reg, sha_of) == []  # an alias is not a duplicate
    reg["mine"] = {"source": "file", "path": "/y", "sha256": "b" * 64, "size_bytes": 1}
    assert registry.duplicates(reg, sha_of) == [("b" * 64, ["base-q8", "mine"])]


def test_doctor_reports_one_file_under_two_ids(cache, tmp_path):  # noqa: F811
    proj = _project(tmp_path)
    text = (proj / "params.yaml").read_text()
    pinned = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    entry = (
        f"    my-copy:\n      source: file\n      path: /nowhere/m.gguf\n      sha256: {pinned}\n"
        "      size_bytes: 1\n"
    )
    anchor = "    smollm2-135m-q2_k: {derived_from: smollm2-135m-q4_1, quantize: Q2_K}\n"
    (proj / "params.yaml").write_text(text.replace(anchor, anchor + entry))
    r = _cli(["doctor"], proj, {"BENCHBOOK_CACHE": str(cache)})
    assert (
        f"MISS model my-copy: the same file as smollm2-135m-q4_1 (sha256 {pinned[:16]}…), so pages would "
        "show one model under two names; fix: in params.yaml write `my-copy: {alias_of: smollm2-135m-q4_1}`"
    ) in r.stdout.splitlines()


def test_an_alias_must_name_a_file_entry(tmp_path):
    from benchbook import resolve

    proj = _project(tmp_path)
    text = (proj / "params.yaml").read_text()
    anchor = "    smollm2-135m-q2_k: {derived_from: smollm2-135m-q4_1, quantize: Q2_K}\n"
    (proj / "params.yaml").write_text(text.replace(anchor, anchor + "    mine: {alias_of: nothing}\n"))
    with pytest.raises(resolve.ParamsError) as e:
        resolve.load_params(proj)
    assert "`models.registry.mine.alias_of` names 'nothing', which is not a models.registry id" in str(
        e.value
    )


def test_url_errors_point_to_the_command_line(cache, tmp_path):  # noqa: F811
    proj = _project(tmp_path)
    srv = _Server(b"GGUF")
    try:
        r = _cli(["models", "add", srv.url + "x", "--id", "web"], proj, {"BENCHBOOK_CACHE": str(cache)})
    finally:
        srv.close()
    assert r.returncode == 2
    assert r.stderr.endswith(
        "answered HTTP 404 Not Found; fix: check the URL on the `benchbook models add` command line\n"
    )


def test_models_add_names_a_device_or_fifo_for_what_it_is(tmp_path):
    """Catalogue E19: ``models add /dev/zero`` (and a FIFO) said "no such file" of a path that exists."""
    import os

    from benchbook.llamacpp import registry

    fifo = tmp_path / "f.gguf"
    os.mkfifo(fifo)
    for target in ("/dev/zero", str(fifo)):
        with pytest.raises(registry.RegistryError) as e:
            registry.entry_for(target, tmp_path / "repo")
        assert str(e.value) == (
            f"{target}: not a regular file (a device, FIFO or socket); fix: give the path of a GGUF file"
        )

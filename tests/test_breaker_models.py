"""Regression tests of the breaker report's ``models add`` / ``models fetch`` defects (items 17, 23, 28):
a non-GGUF file refused at add and at fetch (never with advice to delete the user's file), a one-digit
sha256 edit diagnosed with whole digests and a quoted fix with --replace, ids checked."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

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
    models_mod.fetch({"myq2g": ent}, "myq2g", log=lambda *_: None)  # verified once: the sidecar has sha
    with pytest.raises(ModelError) as e:
        models_mod.fetch({"myq2g": {**ent, "sha256": edited}}, "myq2g", log=lambda *_: None)
    assert str(e.value) == (
        f"model myq2g: {f} still has the sha256 it was registered and verified with ({sha}), but "
        f"`models.registry.myq2g.sha256` now pins {edited} (first difference at hex digit 64 of 64): the pin "
        f"was edited, not the file; fix: restore `models.registry.myq2g.sha256: {sha}` in params.yaml, or "
        f"if the file is the one to use, register it again: `benchbook models add '{f}' --id myq2g --replace`"
    )
    # never fetched before (no sidecar): no claim that the bytes changed; whole digests, quoted path
    models_mod._sidecar("myq2g").unlink()
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


def test_the_same_file_under_a_second_id_is_warned_about(cache, tmp_path):  # noqa: F811
    proj = _project(tmp_path)
    f = tmp_path / "elsewhere" / "m.gguf"
    f.parent.mkdir()
    f.write_bytes(b"GGUF" + b"Q" * 60)
    sha = hashlib.sha256(f.read_bytes()).hexdigest()
    env = {"BENCHBOOK_CACHE": str(cache)}
    assert _cli(["models", "add", str(f), "--id", "one"], proj, env).returncode == 0
    r = _cli(["models", "add", str(f), "--id", "two"], proj, env)
    assert r.returncode == 0 and r.stderr == (
        f"warning: the same file (sha256 {sha}) is also registered as one: numbers of the two ids are one "
        "model's; remove the ids you do not need from models.registry in params.yaml\n"
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

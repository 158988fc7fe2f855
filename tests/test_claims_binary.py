"""A claims file that is not UTF-8 text (a binary file, a Latin-1 export) or not a mapping is named by
file:line with a fix (issue 34 §9, fault catalogue D09-D11, D17).

Before: ``benchbook: error: 'utf-8' codec can't decode byte 0xfd in position 4: invalid start byte``: no
file named, so ``audit --all`` over a folder could not say which of its files was the bad one."""

from __future__ import annotations

import pytest

from benchbook.audit import command, schema


def test_a_binary_claims_file_is_named_with_its_line_and_a_fix(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_bytes(b"schema: x\n\x00\xfd\xff")
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    assert str(e.value) == (
        f"{f}:2: byte 11 is not UTF-8 (invalid start byte), so this is no claims file (YAML text); "
        "fix: give the claims file (docs/claims.md), or save it as UTF-8"
    )


def test_a_claims_file_that_is_no_mapping_says_how_to_start_one(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text("- 1\n- 2\n")
    with pytest.raises(schema.ClaimsError) as e:
        schema.load(f)
    assert str(e.value) == (
        f"{f}:1: a claims file is a mapping with schema, schema_version, source, claims; fix: start "
        "from docs/claims.md's example, or draft one from a post (`benchbook claims draft POST`)"
    )


def test_audit_all_names_the_binary_file_and_audits_the_good_one(tmp_path, capsys):
    c = tmp_path / "claims"
    c.mkdir()
    (c / "good.yaml").write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: t}\n"
        "claims:\n  - {id: a, metric: decode_tps, value: 10, unit: tok/s}\n"
    )
    (c / "bin.yaml").write_bytes(b"\x00\xff" * 50)
    rc = command.main(["--all", str(c), "--out", str(tmp_path / "o"), "--pages", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert rc == 2 and (tmp_path / "p" / "good.qmd").exists()
    assert f"{c / 'bin.yaml'}:1: byte 1 is not UTF-8 (invalid start byte)" in err


def test_a_typo_under_audit_here_is_named_not_ignored(tmp_path, capsys, monkeypatch):
    """Before (catalogue P10): ``decodngs:`` under ``audit.here`` was ignored by ``benchbook audit`` (the
    default decodings judged "reproducible here"), exit 0; ``doctor`` named it, the audit did not."""
    from conftest import committed_root

    text = (committed_root() / "params.yaml").read_text()
    (tmp_path / "params.yaml").write_text(text.replace("    decodings: [plain", "    decodngs: [plain", 1))
    claims = committed_root() / "data" / "claims" / "clover-35b-a3b-blog.yaml"
    monkeypatch.chdir(tmp_path)
    assert command.main([str(claims), "--out", "o"]) == 2
    assert capsys.readouterr().err == (
        "benchbook: error: params.yaml `audit.here.decodngs`: unknown key; fix: write `decodings` "
        "(known: build, methods, decodings, gpus)\n"
    )
    # control: the committed params.yaml is audited
    (tmp_path / "params.yaml").write_text(text)
    assert command.main([str(claims), "--out", "o"]) == 0


def test_claims_draft_never_merges_into_a_yaml_file_that_is_no_claims_file(tmp_path, monkeypatch):
    """Catalogue C10: ``benchbook claims draft post.md -o params.yaml`` exited 0 and rewrote params.yaml as
    a claims file around its sections (the "kept" parts of an existing file).  Now refused, the file
    untouched; control: an existing drafted claims file is still merged."""
    from benchbook.audit.draftfile import draft_post

    monkeypatch.chdir(tmp_path)
    post = tmp_path / "post.md"
    post.write_text("On llama.cpp b4000 I got 123.4 tok/s decode on Llama-3-8B Q4_K_M.\n")
    params = tmp_path / "params.yaml"
    params.write_text("toolchain:\n  backend: auto\nmodels:\n  default: m\n")
    before = params.read_bytes()
    with pytest.raises(ValueError) as e:
        draft_post(post, params)
    assert str(e.value) == (
        f"{params}: not a claims file (no `schema: benchbook.claims`), so it is not merged into or "
        "overwritten; fix: name another file with -o, or move this one away to draft afresh"
    )
    assert params.read_bytes() == before
    out, _, _ = draft_post(post, tmp_path / "c.yaml")
    out2, _, _ = draft_post(post, out)  # control: a drafted claims file is merged again
    assert out2 == out and out.read_text().startswith("#")


def test_claims_draft_names_an_existing_output_that_is_not_utf8(tmp_path):
    """Catalogue C10: ``-o bin.yaml`` onto a binary file said only ``'utf-8' codec can't decode byte 0xd2
    in position 3`` (no file named); the file stays untouched."""
    from benchbook.audit.draftfile import draft_post

    post = tmp_path / "post.md"
    post.write_text("On llama.cpp b4000 I got 123.4 tok/s decode.\n")
    out = tmp_path / "bin.yaml"
    out.write_bytes(b"ab\n\xd2\x00")
    with pytest.raises(ValueError) as e:
        draft_post(post, out)
    assert str(e.value) == (
        f"{out}:2: byte 3 is not UTF-8 (invalid continuation byte), so it is no claims file to merge into; "
        "fix: name another file with -o, or move this one away to draft afresh"
    )
    assert out.read_bytes() == b"ab\n\xd2\x00"

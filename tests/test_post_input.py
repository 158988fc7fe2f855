"""What a post may be: binary input is refused by name before anything is drafted (a new user's random
bytes drafted 29 claims of nonsense), and ``benchbook audit -`` audits a post piped in, as ``benchbook
claims draft -`` drafts one (issue 29: "a post ... or stdin")."""

from __future__ import annotations

import io
import sys

import pytest

from benchbook.audit import command, schema
from benchbook.audit.draftfile import draft_post

FIX = "fix: give the post as text: Markdown, .txt, or the page saved from the browser as HTML"


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (bytes(range(256)) * 256, "binary data (13% of its first 65,536 characters are control characters)"),
        (b"%PDF-1.7\n%\xe2\xe3\n1 0 obj", "a PDF document (convert it first: pdftotext POST.pdf POST.txt)"),
        (
            b"PK\x03\x04\x14\x00",
            "a ZIP archive (a .docx, .odt or .xlsx is one: save the post as text or HTML)",
        ),
        (b"\x1f\x8b\x08\x00" + b"x" * 100, "gzip-compressed data (gunzip it first)"),
        (b"GGUF\x03\x00\x00\x00" + b"\x00" * 64, "a GGUF model file"),
    ],
)
def test_a_binary_post_is_refused_by_name_and_nothing_is_written(tmp_path, data, kind):
    post = tmp_path / "post.md"
    post.write_bytes(data)
    with pytest.raises(ValueError) as e:
        draft_post(post)
    assert str(e.value) == f"{post}: {kind}, no post; nothing drafted; {FIX}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["post.md"]


def test_a_refused_post_leaves_the_reviewed_claims_file_as_it_was(tmp_path):
    post = tmp_path / "post.md"
    post.write_text("Decode ran at 42.5 tok/s.\n")
    out, _, _ = draft_post(post)
    before = out.read_bytes()
    post.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))  # the post overwritten by a screenshot
    with pytest.raises(ValueError, match=r"post\.md: a PNG image, no post"):
        draft_post(post)
    assert out.read_bytes() == before


def test_binary_on_stdin_is_named_stdin():
    with pytest.raises(ValueError) as e:
        draft_post("-", None, b"\xff\xd8\xff\xe0\x00\x10JFIF")
    assert str(e.value) == f"stdin: a JPEG image, no post; nothing drafted; {FIX}"


@pytest.mark.parametrize(
    "data",
    [
        b"Decode: 42.5 tok/s\x00 (a stray NUL of a copy)\n",  # one NUL in text: under BINARY_SHARE
        "Decode: 42.5 tok/s\n".encode("utf-16-le"),  # UTF-16 without a byte-order mark: NULs, still text
        "Decode: 42.5 tok/s\n".encode("utf-16"),
        b"\x1b[32mDecode: 42.5 tok/s\x1b[0m\n",  # a terminal's colours: escape is no binary byte
    ],
)
def test_text_with_nul_or_escape_bytes_is_still_a_post(tmp_path, data):
    post = tmp_path / "post.txt"
    post.write_bytes(data)
    _, drafted, _ = draft_post(post)
    values = [(e.fields["value"], e.fields["unit"]) for e in drafted.entries if e.kind == "claim"]
    assert values == [("42.5", "tok/s")]  # the value as written


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_audit_dash_drafts_the_piped_post_into_post_claims_yaml_and_audits_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _stdin(monkeypatch, b"Plain decoding ran at 40 tok/s and speculative at 60 tok/s, 1.5x faster.\n")
    assert command.main(["-", "--out", "o"]) == 0
    cf = schema.load(tmp_path / "post.claims.yaml")
    assert [(c.value, c.unit) for c in cf.claims] == [(40, "tok/s"), (60, "tok/s")]
    assert [(s.value, s.of) for s in cf.statements] == [(1.5, [cf.claims[1].id, cf.claims[0].id])]
    captured = capsys.readouterr()
    assert "post.claims.yaml" in captured.err
    assert "audited 3 claims/statements/log entries of 1 file(s)" in captured.err
    assert (tmp_path / "o" / "post.claims.jsonl").is_file()


def test_audit_dash_twice_and_a_binary_stdin_are_named_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _stdin(monkeypatch, b"40 tok/s\n")
    assert command.main(["-", "-"]) == 2
    assert "- (a post on stdin) named twice; fix: name it once" in capsys.readouterr().err
    _stdin(monkeypatch, bytes(range(256)) * 4)
    assert command.main(["-"]) == 2
    kind = "binary data (13% of its first 1,024 characters are control characters)"
    assert f"stdin: {kind}, no post; nothing drafted; {FIX}" in capsys.readouterr().err
    assert not (tmp_path / "post.claims.yaml").exists()

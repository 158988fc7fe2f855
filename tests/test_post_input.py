"""What a post may be: binary input is refused by name before anything is drafted (a new user's random
bytes drafted 29 claims of nonsense), and ``benchbook audit -`` audits a post piped in, as ``benchbook
claims draft -`` drafts one (issue 29: "a post ... or stdin")."""

from __future__ import annotations

import io
import sys

import pytest

from benchbook.audit import command, schema
from benchbook.audit.draftfile import draft_post

FIX = (
    "fix: give the post as text: Markdown, .txt, or the page saved from the browser as HTML (text in "
    "another encoding: save it as UTF-8)"
)


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


# --- the breaker's faults of the binary test (each one example of its kind) ------------------------


@pytest.mark.parametrize(
    "title",
    [
        "GGUF quantization compared: Q4_K_M vs Q8_0",
        "%PDF-1.7 files are slow to parse",
        "GIF89a decoding benchmark",
    ],
)
def test_a_post_whose_first_word_is_a_file_magic_is_text(tmp_path, title):
    """A magic number counts only where the first 4 KiB also hold a control byte or no UTF-8."""
    post = tmp_path / "post.md"
    post.write_text(f"{title}\n\nDecode: 42.5 tok/s\n")
    _, drafted, _ = draft_post(post)
    assert [e.fields["value"] for e in drafted.entries if e.kind == "claim"] == ["42.5"]


def test_binary_behind_a_long_text_header_is_refused(tmp_path):
    """A LoRA's safetensors: 97 KB of JSON, then floats; the head alone looked like text (1,155
    entries drafted into a 37 MB claims file)."""
    import json
    import random
    import struct

    header = json.dumps({f"t{i}": {"dtype": "F16", "shape": [64, 64]} for i in range(2000)}).encode()
    rng = random.Random(5)
    post = tmp_path / "lora.md"
    post.write_bytes(
        struct.pack("<Q", len(header)) + header + bytes(rng.randrange(256) for _ in range(300_000))
    )
    with pytest.raises(
        ValueError, match=r"lora\.md: binary data \(1[0-9]% of its (middle|last) 65,536 characters"
    ):
        draft_post(post)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize(
    "text",
    ["在RTX 4090上，推测解码的速度是每秒一百二十个词元。\n", "Скорость декодирования на RTX 4090 высокая.\n"],
)
def test_utf16_without_a_byte_order_mark_and_few_nuls_is_read_in_its_byte_order(text, encoding):
    """CJK in UTF-16 holds no NUL bytes, Cyrillic's reads as UTF-8 of control characters: both were
    refused as binary data."""
    from benchbook.audit.draftfile import decode_post

    got, how = decode_post((text * 3).encode(encoding))
    assert got == text * 3
    assert how == f"read as UTF-16 {encoding[-2:].upper()} (no byte-order mark; by its characters)"


def test_replacement_characters_the_post_itself_quotes_are_text(tmp_path):
    post = tmp_path / "post.md"
    post.write_text("The tokenizer printed \ufffd\ufffd\ufffd\ufffd again.\n" * 20 + "Decode: 42.5 tok/s\n")
    _, drafted, _ = draft_post(post)
    assert [e.fields["value"] for e in drafted.entries if e.kind == "claim"] == ["42.5"]


def test_a_coloured_terminal_paste_drafts_as_the_plain_one(tmp_path):
    plain = "| model | test | t/s |\n|---|---|---|\n| llama 7B Q4_0 | tg128 | 42.50 ± 0.10 |\n"
    coloured = plain.replace("42.50 ± 0.10", "\x1b[1;32m42.50 ± 0.10\x1b[0m")
    values = []
    for i, text in enumerate((plain, coloured)):
        post = tmp_path / f"p{i}.md"
        post.write_text(text)
        _, drafted, _ = draft_post(post)
        values.append(
            [(e.fields.get("value"), e.fields.get("quote")) for e in drafted.entries if e.kind == "claim"]
        )
    assert values[0] == values[1] and len(values[0]) == 1


def test_a_redrawn_progress_bar_keeps_the_line_numbers_of_an_editor(tmp_path):
    """``10%\\r20%\\r…`` was split into lines: every line after it moved down."""
    post = tmp_path / "post.md"
    post.write_bytes(b"# Run\n\n```\nloading 10%\r20%\r100%\n```\n\nDecode: 42.5 tok/s\n")
    _, drafted, _ = draft_post(post)
    (claim,) = [e for e in drafted.entries if e.kind == "claim"]
    assert claim.fields["source_line"] == 7  # as `grep -n` counts


def test_a_line_separator_inside_a_line_keeps_quotes_on_their_lines(tmp_path):
    """U+2028 inside "Setup:" split the text's lines where Markdown did not: the table row kept its
    line while its quote became the separator row above it."""
    post = tmp_path / "post.md"
    post.write_text("# T\n\nSetup:\u2028RTX 4090\n\n| test | t/s |\n|---|---|\n| tg128 | 42.50 |\n")
    _, drafted, _ = draft_post(post)
    (claim,) = [e for e in drafted.entries if e.kind == "claim"]
    assert (claim.fields["source_line"], claim.fields["quote"]) == (7, "| tg128 | 42.50 |")


# --- stdin: the breaker's faults -------------------------------------------------------------------


def test_an_empty_or_closed_stdin_drafts_nothing_and_keeps_the_earlier_draft(tmp_path, monkeypatch, capsys):
    """`curl … | benchbook audit -` with curl failing wiped the earlier draft to 0 entries; a closed
    stdin (`<&-`) was an AttributeError traceback."""
    monkeypatch.chdir(tmp_path)
    _stdin(monkeypatch, b"Decode: 42.5 tok/s\n")
    assert command.main(["-", "--out", "o"]) == 0
    before = (tmp_path / "post.claims.yaml").read_bytes()
    _stdin(monkeypatch, b"  \n")
    assert command.main(["-", "--out", "o"]) == 2
    assert (
        "stdin: empty, so nothing drafted and nothing written; fix: check the command"
        in capsys.readouterr().err
    )
    monkeypatch.setattr(sys, "stdin", None)
    assert command.main(["-"]) == 2
    assert "stdin is closed, so there is no post to read" in capsys.readouterr().err
    assert (tmp_path / "post.claims.yaml").read_bytes() == before


def test_another_post_on_stdin_is_never_merged_into_the_first_ones_draft(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _stdin(monkeypatch, b"# Qwen on a 4090\n\nDecode: 42.5 tok/s\n")
    assert command.main(["-", "--out", "o"]) == 0
    before = (tmp_path / "post.claims.yaml").read_bytes()
    _stdin(monkeypatch, b"# Llama on an M2\n\nDecode: 20.1 tok/s\n")
    assert command.main(["-", "--out", "o"]) == 2
    assert (
        "post.claims.yaml: drafted from another post on stdin ('Qwen on a 4090', this one 'Llama on an M2'); "
        "never merged, nothing written"
    ) in capsys.readouterr().err
    assert (tmp_path / "post.claims.yaml").read_bytes() == before
    _stdin(monkeypatch, b"# Qwen on a 4090\n\nDecode: 42.5 tok/s, re-run.\n")  # the same post, edited
    assert command.main(["-", "--out", "o"]) == 0


def test_dev_stdin_redirected_from_a_file_drafts_into_the_working_folder(tmp_path, monkeypatch):
    from pathlib import Path

    from benchbook.audit.draftfile import default_out

    monkeypatch.chdir(tmp_path)
    assert default_out(Path("/dev/stdin")) == Path("stdin.claims.yaml")
    assert default_out(Path("/proc/self/fd/0")) == Path("0.claims.yaml")
    assert default_out(tmp_path / "blog.md") == tmp_path / "blog.claims.yaml"


def test_python_dash_m_benchbook_runs_the_command():
    import subprocess

    from conftest import committed_root

    root = committed_root()
    out = subprocess.run(
        [sys.executable, "-m", "benchbook", "claims", "draft", "-", "-o", "/dev/null/x.yaml"],
        input=b"",
        capture_output=True,
        cwd=root,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert out.returncode == 2
    assert b"stdin: empty, so nothing drafted and nothing written" in out.stderr


@pytest.mark.parametrize(
    ("text", "encoding", "read_as"),
    [
        ("# llama.cpp の速度\n\nRTX 4090 で生成速度は 42.5 トークン/秒でした。\n", "shift_jis", "cp932"),
        ("# 推理速度测试\n\n在 RTX 4090 上，生成速度为 42.5 tokens/s。\n", "gb18030", "gb18030"),
        ("# 推理速度測試\n\n在 RTX 4090 上，生成速度為 42.5 tokens/s。\n", "big5", "big5"),
        ("# 추론 속도\n\nRTX 4090에서 생성 속도는 42.5 tok/s 였습니다.\n", "euc_kr", "cp949"),
        ("# Скорость llama.cpp\n\nНа RTX 4090 получил 42.5 токенов в секунду.\n", "cp1251", "cp1251"),
    ],
)
def test_a_legacy_cjk_or_cyrillic_post_is_read_in_its_encoding(tmp_path, text, encoding, read_as):
    """The breaker's Shift_JIS and GB18030 posts were read line by line as Windows-1252: their numbers
    drafted, every quote mojibake.  A post that is no UTF-8 is read whole in a Japanese, Chinese, Korean
    or Cyrillic encoding when its characters say so (``draftfile._legacy_encoding``)."""
    post = tmp_path / "p.md"
    post.write_bytes(text.encode(encoding))
    out, drafted, _ = draft_post(post)
    assert drafted.notes[0] == f"p.md: not UTF-8: read as {read_as} (by its characters)"
    claims = schema.load(out).claims
    assert [(c.value, c.quote) for c in claims] == [(42.5, text.splitlines()[2])]


def test_a_western_post_or_one_latin1_line_in_utf8_stays_line_by_line(tmp_path):
    """Where the detector is unsure (it names Windows-1250 for a French Windows-1252 text) or most of the
    post is UTF-8, a line that is not UTF-8 is still read as Windows-1252, and the note names the line."""
    from benchbook.audit.draftfile import decode_post

    french = "Café : 42.5 tok/s sur une RTX 4090, très élevée — naïf.\n"
    assert decode_post(french.encode("cp1252")) == (
        french,
        "line 1 not UTF-8: read as Windows-1252 (Latin-1); check its quotes, or save the post as UTF-8",
    )
    mixed = "日本語 42.5 tok/s\n".encode() + "café 30 tok/s\n".encode("cp1252")
    assert decode_post(mixed) == (
        "日本語 42.5 tok/s\ncafé 30 tok/s\n",
        "line 2 not UTF-8: read as Windows-1252 (Latin-1); check its quotes, or save the post as UTF-8",
    )

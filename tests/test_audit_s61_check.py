"""``benchbook audit --check`` (a new user found the exit status 0 whatever the verdicts, and the README
silent on it): 1 where a verdict is inconsistent, naming it; 0 where all are consistent; 0 without
the flag either way."""

from __future__ import annotations

from benchbook.audit import command

_WRONG = (
    "On my RTX 4090 with llama.cpp: plain decoding 40 tok/s, with a draft model 60 tok/s, so 2x faster.\n"
)
_RIGHT = (
    "On my RTX 4090 with llama.cpp: plain decoding 40 tok/s, with a draft model 60 tok/s, so 1.5x faster.\n"
)


def test_check_exits_1_on_an_inconsistent_verdict(tmp_path, capsys):
    """60 / 40 = 1.5, stated 2x: inconsistent; ``--check`` exits 1 and names the statement."""
    post = tmp_path / "post.md"
    post.write_text(_WRONG, encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "a")]) == 0
    capsys.readouterr()
    assert command.main([str(post), "--out", str(tmp_path / "b"), "--check"]) == 1
    err = capsys.readouterr().err
    assert "--check: 1 inconsistent verdict(s):" in err
    assert "post.claims.yaml: s-l1" in err


def test_check_exits_0_when_the_verdicts_are_consistent(tmp_path, capsys):
    """Control: 1.5x stated for 60 / 40: consistent, exit 0 with ``--check``."""
    post = tmp_path / "post.md"
    post.write_text(_RIGHT, encoding="utf-8")
    assert command.main([str(post), "--out", str(tmp_path / "a"), "--check"]) == 0
    assert "--check" not in capsys.readouterr().err

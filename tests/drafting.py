"""Helpers of the drafter's tests (``benchbook claims draft``): a post's text drafted into a claims file
and loaded, and a claim's conditions as a claims file states them (groups and the file's merged)."""

from __future__ import annotations

from pathlib import Path

from benchbook.audit import schema
from benchbook.audit.draftfile import draft_post


def drafted(text: str, tmp_path: Path) -> schema.ClaimsFile:
    """``text`` written to ``tmp_path/post.md``, drafted beside it as ``draft_post`` does, loaded."""
    post = tmp_path / "post.md"
    post.write_text(text, encoding="utf-8")
    out, _, _ = draft_post(post)
    return schema.load(out)


def conditions(cf: schema.ClaimsFile, c: schema.Claim) -> dict:
    """The conditions ``c`` holds in ``cf`` (its own, its group's and the file's), unset ones left out."""
    return cf.conditions_of(c).model_dump(exclude_none=True, exclude_defaults=True)

"""A post saved from a static-site generator's source opens with front matter (Jekyll, Hexo, Astro,
Quarto: YAML between ``---`` lines; Hugo: TOML between ``+++`` lines).  The breaker's Jekyll post
drafted "layout: post title: ... date: 2025-01-02 10:00:00 tags: [llm, 2025]" as its title (the closing
``---`` made the block a setext heading) and its date's numbers as unplaced numbers: the title is the
``title:`` value, the summary is prose, the rest is no text of the post (``post.front_matter``)."""

from __future__ import annotations

from benchbook.audit.draft import draft_text
from benchbook.audit.post import read_post


def claims(d) -> list[tuple[int, str, str]]:
    """``(source_line, metric, value)`` of each drafted claim (the value as written), sorted."""
    return sorted(
        (e.fields["source_line"], e.fields["metric"], e.fields["value"])
        for e in d.entries
        if e.kind == "claim"
    )


JEKYLL = """---
layout: post
title: "Speculative decoding on a 4090"
date: 2025-01-02 10:00:00
description: >
  A draft model gives 2x faster decoding
  on llama.cpp.
tags: [llm, 2025]
---

llama.cpp gives 42.5 tok/s on an RTX 4090.
"""

HUGO = """+++
title = 'Qwen3 on a Mac mini'
date = 2025-03-04T10:00:00Z
draft = false
+++

## Results

MLX gives 61.2 tok/s.
"""


def test_jekyll_front_matter_gives_the_title_and_the_summary_and_nothing_else():
    post = read_post(JEKYLL)
    assert [(b.kind, b.lines, b.heading, b.front) for b in post.blocks] == [
        ("text", [(3, "Speculative decoding on a 4090")], True, True),
        ("text", [(6, "A draft model gives 2x faster decoding"), (7, "on llama.cpp.")], False, False),
        ("text", [(11, "llama.cpp gives 42.5 tok/s on an RTX 4090.")], False, False),
    ]
    d = draft_text(JEKYLL, "j.md")
    assert d.title == "Speculative decoding on a 4090"
    assert claims(d) == [
        (6, "speedup", "2"),
        (11, "decode_tps", "42.5"),
    ]
    # the date's and the tags' numbers are no numbers of the post, nor (since session 57) a card's name
    assert sorted((line, n) for line, n, _ in d.unplaced) == []


def test_hugo_toml_front_matter_is_a_level_one_title_over_the_sections():
    post = read_post(HUGO)
    assert [(b.lines, b.heading, b.front) for b in post.blocks] == [
        ([(2, "Qwen3 on a Mac mini")], True, True),
        ([(7, "Results")], True, False),
        ([(9, "MLX gives 61.2 tok/s.")], False, False),
    ]
    d = draft_text(HUGO, "h.md")
    assert d.title == "Qwen3 on a Mac mini"
    assert claims(d) == [(9, "decode_tps", "61.2")]
    assert d.unplaced == []


def test_a_thematic_break_or_an_unclosed_block_is_no_front_matter():
    """A post opening with a rule and prose, or a ``---`` never closed, is read as before: its lines are
    the post's (one claim each, on its own line)."""
    for text in (
        "---\nPlain decoding gave 12.5 tok/s on our box.\n---\n\nWith a draft, 25.0 tok/s.\n",
        "---\ntitle: x\n\nPlain decoding gave 12.5 tok/s.\n\nWith a draft, 25.0 tok/s.\n",
    ):
        d = draft_text(text, "t.md")
        assert [v for _, _, v in claims(d)] == ["12.5", "25.0"], text
        assert not any(b.front for b in read_post(text).blocks)

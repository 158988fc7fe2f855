"""Issue 29: how ``benchbook claims draft`` reads a post's blocks (post.py): tables inside code
blocks (drawn and aligned), transposed tables, result lines, log paragraphs, headings."""

from __future__ import annotations

from benchbook.audit.draft import draft_text
from benchbook.audit.post import read_post


def _claims(text: str) -> list[tuple]:
    """(metric, value, unit, source_line, conditions) of each drafted claim, the group's metric and
    unit where the claim is in a table group."""
    d = draft_text(text)
    groups = {g.id: g.fields for g in d.groups}
    out = []
    for e in d.entries:
        if e.kind != "claim":
            continue
        f = {**groups.get(e.group or "", {}), **e.fields}
        value = f.get("value") if f.get("value") is not None else tuple(f.get("range") or ())
        out.append((f.get("metric"), str(value), f.get("unit"), f.get("source_line"), f.get("conditions")))
    return out


BOX = """Results for 5 draft tokens:

```
                       llama-benchy Results
┏━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━┓
┃ Test                  ┃   c   ┃     tg t/s ┃ TTFT (ms) ┃
┡━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━┩
│ pp2048 tg128 @ d0     │  c1   │       28.3 │     2,723 │
│ pp2048 tg128 @ d0     │  c2   │       25.9 │     5,777 │
└───────────────────────┴───────┴────────────┴───────────┘
```
"""


def test_box_drawn_table_in_a_code_block_is_read():
    kinds = [b.kind for b in read_post(BOX).blocks]
    assert kinds == ["text", "table"]
    other1 = {"other": {"test": "pp2048 tg128 @ d0", "c": "c1"}}
    other2 = {"other": {"test": "pp2048 tg128 @ d0", "c": "c2"}}
    assert _claims(BOX) == [
        ("decode_tps", "28.3", "t/s", 8, other1),
        ("ttft", "2723", "ms", 8, other1),
        ("decode_tps", "25.9", "t/s", 9, other2),
        ("ttft", "5777", "ms", 9, other2),
    ]


NO_OUTER = """Results:

```
      |   qwen   |   gemma
-----------------------------
b4363 | 31.7 t/s | 36.1 t/s
b4365 | 24.5 t/s | 22.7 t/s
-----------------------------
      |  -23%    |  -37%
```
"""


def test_pipe_table_without_outer_pipes_units_in_cells():
    rows = [b.rows for b in read_post(NO_OUTER).blocks if b.kind == "table"]
    assert rows == [
        [
            ["", "qwen", "gemma"],
            ["b4363", "31.7 t/s", "36.1 t/s"],
            ["b4365", "24.5 t/s", "22.7 t/s"],
            ["", "-23%", "-37%"],
        ]
    ]
    b1, b2 = {"other": {"row": "b4363"}}, {"other": {"row": "b4365"}}
    assert _claims(NO_OUTER) == [
        ("decode_tps", "31.7", "t/s", 6, b1),
        ("decode_tps", "36.1", "t/s", 6, b1),
        ("decode_tps", "24.5", "t/s", 7, b2),
        ("decode_tps", "22.7", "t/s", 7, b2),
    ]
    # the change row is in % under t/s columns: listed, not drafted as a rate
    assert [(n, v) for n, v, _ in draft_text(NO_OUTER).unplaced] == [(9, "-23"), (9, "-37")]


ALIGNED = """Results:

    Depth      Baseline   + ngram-mod
    ──────────────────────────────────
    0 (cold)   107 t/s    123 t/s
    16K        96 t/s     149 t/s
"""


def test_aligned_table_with_box_rule_in_an_indented_code_block():
    assert _claims(ALIGNED) == [
        ("decode_tps", "107", "t/s", 5, {"other": {"depth": "0 (cold)"}}),
        ("decode_tps", "123", "t/s", 5, {"other": {"depth": "0 (cold)"}}),
        ("decode_tps", "96", "t/s", 6, {"other": {"depth": "16K"}}),
        ("decode_tps", "149", "t/s", 6, {"other": {"depth": "16K"}}),
    ]


def test_command_and_log_lines_in_a_fence_are_no_table_control():
    text = """```
llama-server -m model.gguf | tee out.txt
prompt eval time =  100.00 ms /  10 tokens | speed: 100.00
       eval time =  500.00 ms /  50 tokens | speed: 100.00
```
"""
    assert [b.kind for b in read_post(text).blocks] == ["code"]
    plain = "```\nsome words  and more words\nother words  more\nthird line  here\n```\n"
    assert [b.kind for b in read_post(plain).blocks] == ["code"]

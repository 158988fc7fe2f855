"""Issue 29: how ``benchbook claims draft`` reads a post's blocks (post.py): tables inside code
blocks (drawn and aligned), transposed tables, result lines, log paragraphs, headings."""

from __future__ import annotations

from benchbook.audit.draft import draft_text
from benchbook.audit.post import read_post
from drafting import LINEAR, cpu_growth


def _claims(text: str) -> list[tuple]:
    """(metric, value, unit, source_line, conditions) of each drafted claim, the group's metric and
    unit where the claim is in a table group."""
    d = draft_text(text)
    groups = {g.id: g.fields for g in d.groups}
    out = []
    for e in d.entries:
        if e.kind != "claim":
            continue
        g = groups.get(e.group or "", {})
        f = {**g, **e.fields}
        if g.get("conditions") and "conditions" in e.fields:  # a claims file merges them (``conditions_of``)
            f["conditions"] = {**g["conditions"], **e.fields["conditions"]}
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
    # label cells by their shape (``draftcontext.cell_conditions``): the test's tokens and depth,
    # "c1"/"c2" requests at once; the line above, "Results for 5 draft tokens:", the draft size
    other1 = {"block_max": 5, "tokens_generated": 128, "depth": 0, "concurrency": 1}
    other2 = {"block_max": 5, "tokens_generated": 128, "depth": 0, "concurrency": 2}
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
    # a column of builds is the build (drafttable._cells_condition); no drafting named: plain decoding
    b1, b2 = {"build": "b4363", "decoding": "plain"}, {"build": "b4365", "decoding": "plain"}
    assert _claims(NO_OUTER) == [
        ("decode_tps", "31.7", "t/s", 6, b1),
        ("decode_tps", "36.1", "t/s", 6, b1),
        ("decode_tps", "24.5", "t/s", 7, b2),
        ("decode_tps", "22.7", "t/s", 7, b2),
    ]
    # the change row is in % under t/s columns: no rate of them, but the change of each column's two
    # rows (draft's ``column_changes``)
    d = draft_text(NO_OUTER)
    assert d.unplaced == []
    stated = [
        (e.fields["kind"], e.fields["of"], e.fields["value"]) for e in d.entries if e.kind == "statement"
    ]
    assert stated == [
        ("percent_change", ["t1-qwen-r1", "t1-qwen-r2"], "-23"),
        ("percent_change", ["t1-gemma-r1", "t1-gemma-r2"], "-37"),
    ]


ALIGNED = """Results:

    Depth      Baseline   + ngram-mod
    ──────────────────────────────────
    0 (cold)   107 t/s    123 t/s
    16K        96 t/s     149 t/s
"""


def test_aligned_table_with_box_rule_in_an_indented_code_block():
    # a depth column in K and "0 (cold)" read as numbers (``draftcontext.count``); the "Baseline"
    # column is plain decoding, "+ ngram-mod" (a drafting method) speculative (``draftnames.header_decoding``)
    assert _claims(ALIGNED) == [
        ("decode_tps", "107", "t/s", 5, {"decoding": "plain", "depth": 0}),
        ("decode_tps", "123", "t/s", 5, {"decoding": "speculative", "depth": 0}),
        ("decode_tps", "96", "t/s", 6, {"decoding": "plain", "depth": 16384}),
        ("decode_tps", "149", "t/s", 6, {"decoding": "speculative", "depth": 16384}),
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


def _full(text: str) -> list[dict]:
    return [e.fields for e in draft_text(text).entries if e.kind == "claim"]


def test_key_value_result_lines_in_a_fence():
    text = """```
❯ ./mtp-bench.py
code_python pred= 192 draft= 122 acc= 118 rate=0.967 tok/s=79.8
```
"""
    cond = {"prompt": "code_python", "tokens_generated": 192}
    # an acceptance in a post naming one kind of drafting (MTP) is of that kind, and so is the rate
    # on its line (``draftcontext.fill``)
    assert [(f["metric"], f["value"], f["unit"], f.get("counts"), f["conditions"]) for f in _full(text)] == [
        (
            "acceptance_rate",
            "0.967",
            "ratio",
            {"accepted": 118, "drafted": 122},
            {**cond, "decoding": "draft-self"},
        ),
        ("decode_tps", "79.8", "tok/s", None, {**cond, "decoding": "draft-self"}),
    ]
    assert draft_text(text).logs == {}


def test_llama_cli_summary_and_llama_speculative_output():
    text = """```
[ Prompt: 196.3 t/s | Generation: 47.6 t/s ]
```

```
encoded   15 tokens in    0.140 seconds, speed:  107.248 t/s
decoded  202 tokens in    2.533 seconds, speed:   79.745 t/s
n_drafted = 376
n_accept  = 107
accept    = 28.457%
```
"""
    d = draft_text(text)
    got = [
        (
            f["metric"],
            f["value"],
            f["unit"],
            f.get("method"),
            f.get("counts"),
            f.get("conditions"),
            f.get("log"),
        )
        for f in _full(text)
    ]
    # (the post names no engine, and llama-speculative's n_drafted/n_accept lines are llama.cpp's:
    # every run is llama.cpp's, ``draftcontext._engine_sign``, since session 58)
    spec, log = {"decoding": "speculative", "engine": "llama.cpp"}, "post-l6.log"
    cpp = {"engine": "llama.cpp"}
    assert got == [
        ("prefill_tps", "196.3", "t/s", "llama-cli", None, cpp, None),
        ("decode_tps", "47.6", "t/s", "llama-cli", None, cpp, None),
        (
            "acceptance_rate",
            "28.457",
            "%",
            None,
            {"accepted": 107, "drafted": 376},
            # the summary's n_drafted/n_accept: a run with a draft model (``draftwords.spec_summary``)
            {"tokens_generated": 202, "decoding": "speculative", "engine": "llama.cpp"},
            "post-l6.log",
        ),
        # the "N tokens in T s, speed: R t/s" lines: drafted once, by the prose reader (tokens, time,
        # rate and the rate as their ratio), the result line adding the tool, tokens and log
        # (the whole block is the speculative run's: its decoding)
        ("tokens", "15", "tokens", None, None, spec, None),
        ("duration", "0.140", "s", None, None, spec, None),
        ("prefill_tps", "107.248", "t/s", "llama-speculative", None, spec, "post-l6.log"),
        ("tokens", "202", "tokens", None, None, spec, None),
        # the time of the generation: its tokens too (``draft._Drafter.generated_counts``)
        ("duration", "2.533", "s", None, None, {"tokens_generated": 202, **spec}, None),
        ("decode_tps", "79.745", "t/s", "llama-speculative", None, {"tokens_generated": 202, **spec}, log),
    ]
    assert [e.fields["of"] for e in d.entries if e.kind == "statement"] == [
        ["tokens-l6", "duration-l6"],
        ["tokens-l7", "duration-l7"],
    ]
    assert list(d.logs) == ["post-l6.log"]  # the raw lines still kept as a log
    assert d.logs["post-l6.log"].startswith("encoded   15 tokens")


def test_one_log_looking_line_keeps_its_paragraph_prose():
    text = """Repeated median result: 31.9 → 52.8 tok/s with --spec-draft-n-max 4.
Aggregate draft acceptance: 0.648.
n-max 4 gave the best repeated result.
"""
    d = draft_text(text)
    assert d.logs == {}
    assert [(f["metric"], f["value"], f["unit"], f["source_line"]) for f in _full(text)] == [
        ("acceptance_rate", "0.648", "ratio", 2),
        ("decode_tps", "31.9", "tok/s", 1),
        ("decode_tps", "52.8", "tok/s", 1),
    ]
    assert "0.648" not in [n for _, n, _ in d.unplaced]


def test_prose_mentioning_accept_is_no_log_control():
    text = (
        "`accept()` still uses `last_n_drafted` after partial draft acceptance, so 42.9 tok/s "
        "drops to 8.87 tok/s.\n"
    )
    d = draft_text(text)
    assert d.logs == {}
    assert [(f["metric"], f["value"]) for f in _full(text)] == [
        ("decode_tps", "42.9"),
        ("decode_tps", "8.87"),
    ]


def test_a_paragraph_of_log_lines_is_a_log_and_its_numbers_drafted():
    text = "Aggregate draft acceptance: 0.648\n"
    d = draft_text(text)
    assert list(d.logs) == ["post-l1.log"]
    assert [(f["metric"], f["value"], f["unit"]) for f in _full(text)] == [
        ("acceptance_rate", "0.648", "ratio")
    ]


def test_numbers_in_title_and_headings_are_drafted():
    text = "# 110 tok/s with 12GB VRAM on Qwen3.6 35B A3B\n\nSome text.\n\n## Results at 95 tok/s\n"
    d = draft_text(text)
    assert d.title == "110 tok/s with 12GB VRAM on Qwen3.6 35B A3B"
    assert [(f["metric"], f["value"], f["unit"], f["source_line"]) for f in _full(text)] == [
        ("decode_tps", "110", "tok/s", 1),
        ("decode_tps", "95", "tok/s", 5),
    ]  # "12GB VRAM" in a title is the machine's (a spec: SOURCES.md), listed, not a claim
    assert [u[:2] for u in d.unplaced] == [(1, "12")]


def test_heading_without_numbers_drafts_nothing_control():
    assert _full("# Qwen on a laptop\n\nNo numbers here.\n") == []


RAGGED = """```
Config                   tok/s   Draft Accept
Baseline (non-MTP)       25.3
--spec-draft-n-max 2     21.9    76%
```
"""


def test_aligned_table_with_empty_cells_read_by_column_position():
    assert [b.rows for b in read_post(RAGGED).blocks] == [
        [
            ["Config", "tok/s", "Draft Accept"],
            ["Baseline (non-MTP)", "25.3", ""],
            ["--spec-draft-n-max 2", "21.9", "76%"],
        ]
    ]
    # a label cell of flags is its row's setting (``draftcontext.cell_conditions``)
    # a label naming only its decoding is the row's ("Baseline (non-MTP)": plain), and no second
    # condition (kept as ``other.config`` too, every pair of rows differed in two)
    # (llama.cpp's own --spec-draft-n-max names the engine of a post that names none)
    base = {"decoding": "plain", "engine": "llama.cpp"}
    two = {"block_max": 2, "engine": "llama.cpp"}
    assert _claims(RAGGED) == [
        ("decode_tps", "25.3", "tok/s", 3, base),
        ("decode_tps", "21.9", "tok/s", 4, two),
        ("acceptance_rate", "76", "%", 4, two),
    ]


TRANSPOSED = """|Metric|27B IQ3|35B Q8_0|
|:-|:-|:-|
|**Avg tok/s**|73|46|
|**MTP accept**|74.4%|80.1%|
"""


def test_transposed_table_metrics_as_rows():
    # the quant a configuration's label names is its quant (``draftnames.cell_names``)
    # and the model by its size (the post's fuller name for it where it names one)
    a = {"quant": "IQ3", "model": "27B", "other": {"metric": "27B IQ3"}}
    b = {"quant": "Q8_0", "model": "35B", "other": {"metric": "35B Q8_0"}}
    mtp = {"decoding": "draft-self"}  # an acceptance in a post about MTP alone (``draftcontext``)
    assert _claims(TRANSPOSED) == [
        ("decode_tps", "73", "tok/s", 3, a),
        ("acceptance_rate", "74.4", "%", 4, {**a, **mtp}),
        ("decode_tps", "46", "tok/s", 3, b),
        ("acceptance_rate", "80.1", "%", 4, {**b, **mtp}),
    ]


def test_key_value_table_header_row_is_data():
    text = "| 吞吐（tokens/s） | 1581 |\n| --- | --- |\n| 模型 | llama2-7B |\n| batch_size | 72 |\n"
    assert _claims(text) == [
        # 吞吐 is throughput (the label names it: ``toollines.label_metric``; corpus p52)
        (
            "throughput",
            "1581",
            "tok/s",
            1,
            # batch_size with no llama.cpp engine: the sequences served at once (``serving_batch``)
            {"model": "llama2-7B", "decoding": "plain", "concurrency": 72},
        ),
    ]


def test_table_with_configurations_as_rows_is_not_transposed_control():
    text = "| Config | tok/s | accept |\n|---|---|---|\n| Baseline | 25.3 | — |\n| MTP | 21.9 | 76% |\n"
    assert _claims(text) == [
        # a label naming only its decoding is the row's (its rate's too, not its acceptance's alone),
        # and no second condition besides
        ("decode_tps", "25.3", "tok/s", 3, {"decoding": "plain"}),
        ("decode_tps", "21.9", "tok/s", 4, {"decoding": "draft-self"}),
        ("acceptance_rate", "76", "%", 4, {"decoding": "draft-self"}),
    ]


def test_a_long_line_in_a_code_block_reads_in_linear_time():
    def text(n: int) -> str:
        return "```\n" + "x" * n + " rate=0.5 tok/s=42\n```\n"

    # a key=value reader trying every start was quadratic: four times the line, about four times the time
    assert cpu_growth(lambda n: _full(text(n)), 250_000) < LINEAR
    got = [(f["metric"], f["value"]) for f in _full(text(1_000_000))]
    assert got == [("acceptance_rate", "0.5"), ("decode_tps", "42")]


def test_acceptance_column_of_fractions_is_a_ratio():
    text = "| Prompt | Acceptance |\n|---|---|\n| code | 0.87 |\n| prose | 0.38-0.90 |\n"
    assert _claims(text) == [
        ("acceptance_rate", "0.87", "ratio", 3, {"prompt": "code"}),
        ("acceptance_rate", "('0.38', '0.90')", "ratio", 4, {"prompt": "prose"}),
    ]


def test_acceptance_column_of_counts_is_no_ratio_control():
    text = "| Prompt | Acceptance |\n|---|---|\n| code | 118 |\n| prose | 99 |\n"
    assert _claims(text) == []

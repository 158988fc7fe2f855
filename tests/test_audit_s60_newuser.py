"""Session 60's new user (issue 29), each finding with its right value: a "~2% slower on chat" over a
table of configurations by workload was drafted between C3's chat and summarize cells (the columns
"code (t/s)" named no workload, and the only pair allowed by value was across workloads: the right
pair, baseline to C3 on chat, counted its row's "Config" words as a second change); corrected to the
right sides, the audit found it "not comparable: 2 conditions differ" (decoding, and the rows'
"C0"/"C3"); a "1.77 console:" line over a pasted run was no build."""

from __future__ import annotations

from benchbook.audit import run, schema
from benchbook.audit.verdicts import Here
from drafting import conditions as _cond
from drafting import drafted as _drafted

_PR = """\
# spec : adaptive draft length

**Results** (RTX 4090, Qwen2.5-Coder-32B-Instruct-Q4_K_M.gguf target,
Qwen2.5-Coder-0.5B-Instruct-Q8_0.gguf draft)

```
./build/bin/llama-server -m Qwen2.5-Coder-32B-Instruct-Q4_K_M.gguf -md Qwen2.5-Coder-0.5B-Instruct-Q8_0.gguf \
    -ngl 99 -ngld 99 -fa on -c 8192 --temp 0 --spec-draft-n-max 16
```

| Config | Description | code (t/s) | chat (t/s) | summarize (t/s) |
|---|---|---|---|---|
| C0 | baseline (no draft) | 38.2 | 38.5 | 37.9 |
| C1 | --spec-draft-n-max 4 | 49.1 | 41.0 | 39.2 |
| C3 | --spec-draft-n-max 16 | 51.0 | 37.7 | 36.4 |

It never goes below the baseline on the other workloads, unlike C3 which is ~2% slower on chat.
"""


def test_workload_columns_with_their_unit_name_the_prompt_and_no_cross_workload_pair(tmp_path):
    cf = _drafted(_PR, tmp_path)
    by_value = {float(c.value): c for c in cf.claims}
    assert _cond(cf, by_value[38.2])["prompt"] == "code"
    assert _cond(cf, by_value[37.7])["prompt"] == "chat"
    assert _cond(cf, by_value[36.4])["prompt"] == "summarize"
    # C3 chat -> C3 summarize is -3.4% across workloads: never the sides; C0 chat -> C3 chat (-2.08%)
    # fits as well: the phrase is a todo listing both chat cells among its candidates
    assert cf.statements == []
    (t,) = cf.todo
    listed = {float(c.value) for c in cf.claims if c.id in t.of}
    assert {37.7, 38.5} <= listed


def test_a_rows_config_words_beside_its_decoding_are_one_change(tmp_path):
    """The right sides (C0 chat -> C3 chat: 38.5 -> 37.7, -2.08%) differ in decoding and in the rows'
    own words ("C0" / "C3", their descriptions): one change, comparable; its "~2%" is consistent."""
    cf = _drafted(_PR, tmp_path)
    by_value = {float(c.value): c.id for c in cf.claims}
    text = (tmp_path / "post.claims.yaml").read_text(encoding="utf-8")
    (s,) = cf.todo
    fixed = f'of: ["{by_value[38.5]}", "{by_value[37.7]}"]'
    start = text.index("of: [", text.index(f'id: "{s.id}"'))
    end = text.index("]", start) + 1
    text = text[:start] + fixed + text[end:]
    text = text.replace(
        'todo: "name the two sides in `of` (the claims it relates), then delete `todo`", ', ""
    )
    path = tmp_path / "fixed.claims.yaml"
    path.write_text(text, encoding="utf-8")
    assert [x.of for x in schema.load(path).statements] == [[by_value[38.5], by_value[37.7]]]
    v = {x.id: x for x in run.audit_file(path, here=Here()).verdicts}[s.id]
    assert not [q for q in v.qualifiers if q.kind == "not comparable"], v.qualifiers
    assert v.consistency == "consistent"


def test_a_release_and_console_over_a_pasted_run_is_its_build(tmp_path):
    text = (
        "# KoboldCpp 1.78 is slower than 1.77 for me\n\n"
        "After updating from 1.77 to 1.78 my speed dropped.\n\n"
        "1.77 console:\n\n```\nCtxLimit:16384/16384, Amt:100/100, Init:0.06s, Process:20.84s (1.3ms/T = "
        "781.45T/s), Generate:18.31s (183.1ms/T = 5.46T/s), Total:39.15s (2.55T/s)\n```\n\n"
        "1.78 console:\n\n```\nCtxLimit:16384/16384, Amt:100/100, Init:0.05s, Process:20.90s (1.3ms/T = "
        "779.17T/s), Generate:24.10s (241.0ms/T = 4.15T/s), Total:45.00s (2.22T/s)\n```\n"
    )
    cf = _drafted(text, tmp_path)
    builds = {float(c.value): _cond(cf, c).get("build") for c in cf.claims if c.metric == "decode_tps"}
    assert builds == {5.46: "1.77", 4.15: "1.78"}

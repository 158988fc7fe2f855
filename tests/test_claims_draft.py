"""`benchbook claims draft` (issue 29): a post -> a claims file in the current schema, every entry
with the line and words it came from; `benchbook audit POST.md` drafts and audits in one step and
keeps what the user reviewed; the audit page quotes the source beside each verdict."""

from __future__ import annotations

import importlib.util
import random
import shutil
from pathlib import Path

import pytest

from benchbook.audit import page, schema
from benchbook.audit.command import main as audit_main
from benchbook.audit.draft import draft_text
from benchbook.audit.draftcommand import command_lines, model_and_quant
from benchbook.audit.draftfile import draft_post, render
from benchbook.audit.draftprose import numbers
from benchbook.audit.draftrelations import relations
from benchbook.audit.draftsentences import origin_of
from benchbook.audit.post import html_to_text, read_post
from benchbook.audit.run import audit_file
from drafting import LINEAR, cpu_growth

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
POST = FIXTURES / "draft" / "clover-blog.md"


def _drafted(text: str, tmp_path: Path, name: str = "post.md") -> tuple[schema.ClaimsFile, Path]:
    post = tmp_path / name
    post.write_text(text, encoding="utf-8")
    out, _, _ = draft_post(post)
    return schema.load(out), out


def _claim(cf: schema.ClaimsFile, cid: str) -> schema.Claim:
    c = cf.claim(cid)
    assert c is not None, f"{cid} not drafted; drafted: {[x.id for x in cf.claims]}"
    return c


@pytest.fixture(scope="module")
def blog(tmp_path_factory) -> tuple[schema.ClaimsFile, Path]:
    folder = tmp_path_factory.mktemp("blog")
    shutil.copy(POST, folder / POST.name)
    out, _, _ = draft_post(folder / POST.name)
    return schema.load(out), out


def test_blog_table_cells_become_claims_with_row_and_column_labels(blog):
    cf, _ = blog
    c = _claim(cf, "t1-tg-r8")
    assert (c.metric, c.value, c.decimals, c.unit, c.source_line) == ("decode_tps", 24.4, 1, "tok/s", 26)
    cond = cf.conditions_of(c)
    assert (cond.decoding, cond.prompt, cond.block_max, cond.offload.n_cpu_moe) == (
        "draft-self",
        "python-merge-intervals",
        15,
        24,
    )
    assert cond.other["environment"] == "Windows"
    # the command line before the table: -m -> model and quant, -ngl, -c, -fa, --draft-max
    assert (cond.engine, cond.model, cond.quant, cond.offload.n_gpu_layers, cond.ctx, cond.flash_attn) == (
        "llama.cpp",
        "Clover-35B-A3B-Preview",
        "Q4_K_M",
        99,
        8192,
        True,
    )
    assert c.quote == (
        "TG (tok/s): 24.4 — | Windows | 24 | draft-self | python-merge-intervals | 15 | — | 24.4 | — |"
    )
    assert c.log == "post-l38.log" and c.reviewed is False
    pp = _claim(cf, "t1-pp-r3")
    assert (pp.metric, pp.value, pp.unit) == ("prefill_tps", 268, "tok/s")
    assert cf.conditions_of(_claim(cf, "t1-tg-r5")).tokens_generated == 186
    # 12 rows: 4 PP cells (the draft-self rows state none: "—") and 12 TG cells
    assert sum(c.id.startswith("t1-tg-r") for c in cf.claims) == 12
    assert sum(c.id.startswith("t1-pp-r") for c in cf.claims) == 4


def test_blog_prose_numbers_keep_precision_as_written(blog):
    cf, _ = blog
    got = {
        c.id: (c.metric, c.value, c.range, c.about, c.unit, c.capacity)
        for c in cf.claims
        if not c.id.startswith("t1-")
    }
    assert got == {
        "model-size-l3": ("model_size", 20.2, None, False, "GB", None),
        "duration-l7": ("duration", 575, None, False, "s", None),
        "count-l7": ("proportion", None, None, False, None, None),
        "duration-l7-2": ("duration", 92, None, False, "s", None),
        "decode-tps-l32": ("decode_tps", 27.22, None, False, "tok/s", None),
        "decode-tps-l33": ("decode_tps", 18.5, None, False, "tok/s", None),
        "acceptance-rate-l44": ("acceptance_rate", 100, None, False, "%", None),
        "vram-l48": ("vram", 11.76, None, False, "GiB", 12.29),
        "rss-peak-l48": ("rss_peak", 14.7, None, False, "GiB", 15.5),
        "vram-peak-l49": ("vram_peak", 11.7, None, False, "GiB", None),
        "working-set-peak-l49": ("working_set_peak", 18.8, None, False, "GiB", None),
        "decode-tps-l53": ("decode_tps", 32, None, True, "tok/s", None),
        "decode-tps-l54": ("decode_tps", 680, None, False, "tok/s", None),
        "decode-tps-l54-2": ("decode_tps", 515, None, False, "tok/s", None),
        "decode-tps-l54-3": ("decode_tps", 101.8, None, False, "tok/s", None),
        "decode-tps-l57": ("decode_tps", None, (2.40, 2.70), False, "tok/s", None),
        "decode-tps-l57-2": ("decode_tps", None, (6.11, 6.34), False, "tok/s", None),
        "decode-tps-l58": ("decode_tps", None, (9.48, 14.47), False, "tok/s", None),
        "decode-tps-l58-2": ("decode_tps", None, (27.73, 40.02), False, "tok/s", None),
    }
    assert _claim(cf, "decode-tps-l57").range_decimals == (2, 2)  # "2.40" keeps its two decimals
    # conditions the sentence names beside the number: a label with a number ("block size 4"), and
    # the labels the post's table uses ("WSL2", "draft-self"), the nearest one to the number
    b4 = _claim(cf, "decode-tps-l33").conditions
    assert (b4.block_max, b4.other["environment"]) == (4, "WSL2")
    assert _claim(cf, "acceptance-rate-l44").conditions.decoding == "draft-self"  # not "plain", further off
    vram = _claim(cf, "vram-l48").conditions
    assert (vram.decoding, vram.other) == ("draft-self", {"environment": "WSL2"})
    assert _claim(cf, "decode-tps-l54-2").conditions.batch == 1
    # numbers the post quotes from someone else name who (origin): the audit compares sources
    origins = {c.id: c.origin for c in cf.claims if c.origin}
    assert origins == {
        "decode-tps-l53": "The fork's author",
        "decode-tps-l54": "The vendor's blog",
        "decode-tps-l54-2": "The vendor's blog",
        "decode-tps-l54-3": "The vendor's blog",
        "decode-tps-l57": "my earlier posts",
        "decode-tps-l57-2": "my earlier posts",
        "decode-tps-l58": "my earlier posts",
        "decode-tps-l58-2": "my earlier posts",
    }
    assert _claim(cf, "count-l7").counts == schema.Counts(successes=4, trials=13)
    # the prose repeats 24.4 and 42.72 from the table: cited, not drafted twice
    assert not any(c.value in (24.4, 42.72) for c in cf.claims if not c.id.startswith("t1-"))


def test_blog_relations_become_statements_or_todo(blog):
    cf, _ = blog
    s = cf.statement("s-l43")
    assert s is not None
    assert (s.kind, s.of, s.value, s.about, s.unit, s.source_line) == (
        "ratio",
        ["t1-tg-r8", "t1-tg-r3"],
        57,
        True,
        "%",
        43,
    )
    s7 = cf.statement("s-l59")
    assert s7 is not None and (s7.kind, s7.of, s7.value, s7.unit) == (
        "ratio",
        ["t1-tg-r3", "decode-tps-l57-2"],
        7,
        "x",
    )
    # "101.8 tok/s on an RTX 5070 Ti ..., about 2.4 times this PC's plain decoding": the subject is
    # the clause's rate; of the plain rows the words name, the one whose value gives 2.4 (42.72:
    # 2.38; the next, 36.93, gives 2.76), said in a note -- the sides the hand-written file states
    s55 = cf.statement("s-l55")
    assert s55 is not None and (s55.kind, s55.of, s55.value, s55.about, s55.unit) == (
        "ratio",
        ["decode-tps-l54-3", "t1-tg-r3"],
        2.4,
        True,
        "x",
    )
    assert s55.note == "the other side: the pair whose values give the stated value before it in the post"
    assert cf.todo == []


def test_blog_log_excerpt_written_beside_and_unplaced_listed(blog):
    cf, out = blog
    log = out.with_name(out.stem + ".logs") / "post-l38.log"
    assert log.read_text().splitlines()[1].strip().startswith("eval time =   21516.39 ms /   525 tokens")
    assert cf.draft is not None
    # "block size 4" and "batch 1" are conditions of the numbers beside them, not unplaced; the
    # title's "12 GB gaming PC" and "32 GB of DDR5-4800" are the machine's memory, listed, not claims;
    # the cards' names ("RTX 3080", "RTX 5070 Ti") are no numbers (since session 57: docs/claims.md),
    # nor a model's version ("Qwen 3.8 27B", since session 69)
    assert [(u.line, u.number) for u in cf.draft.unplaced] == [
        (1, "12"),
        (4, "4.88"),
        (5, "32"),
    ]


def test_blog_draft_audits_without_error(blog):
    cf, out = blog
    a = audit_file(out)
    by = {v.id: v for v in a.verdicts}
    assert by["t1-tg-r8"].consistency == "consistent"  # 525 tokens / 21516.39 ms = 24.40 tok/s
    assert by["s-l43"].consistency == "consistent"  # 24.4 / 42.72 = 56.99–57.24%: "about 57%"
    assert by["s-l59"].consistency == "consistent"  # 42.72 / 6.11–6.34 = 6.73–7.00: "about 7"
    assert [q.reason for q in by["s-l59"].qualifiers] == ["sources: the source vs my earlier posts"]
    assert by["s-l55"].consistency == "consistent"  # 101.8 / 42.72 = 2.38: "about 2.4"
    html = page.render(cf, a.verdicts, out.name)
    assert "line 26: <q>TG (tok/s): 24.4 — | Windows | 24 |" in html


def test_a_todo_relation_is_listed_on_the_page_not_audited(tmp_path):
    """A relating phrase whose other side is named but not found ("2x faster than plain" with one
    rate): a todo, listed apart on the audit page, no verdict."""
    post = tmp_path / "post.md"
    post.write_text(
        "Plain decoding ran at 40 t/s and speculation was 2x faster than plain.\n", encoding="utf-8"
    )
    out, _, _ = draft_post(post)
    cf = schema.load(out)
    a = audit_file(out)
    assert [t.id for t in cf.todo] == ["s-l1"]
    assert "s-l1" not in {v.id for v in a.verdicts}
    assert "Relations not yet tied to their numbers (todo)" in page.render(cf, a.verdicts, out.name)


def test_origin_of_quoted_numbers_and_own_numbers_control():
    assert origin_of("According to the paper, it reaches 120 tok/s.") == "the paper"
    assert origin_of("In this post I got 42 tok/s.") is None
    assert origin_of("My blog shows 50 tok/s.") is None  # the author's own
    assert origin_of("I ran the Q4_K_M GGUF (20.2 GB).") is None


def test_drafting_grows_linearly_with_the_post():
    """A guard against a super-linear step: the blog repeated 15 and 60 times (about 360 KB) drafts
    in CPU time that grows with the text, compared within one run (``cpu_growth``); issue 29's
    seconds per post are printed by scripts/draft_measure.py, not asserted."""
    text = POST.read_text()
    assert cpu_growth(lambda k: draft_text(text * k, POST.name), 15) < LINEAR


def test_issue_relation_examples():
    cases = {
        "B runs at 20 tok/s, A at 42 tok/s: 2.1× faster.": ("ratio", "2.1", False, 1),
        "Prefill gets 40% more with -ub 2048.": ("percent_change", "40", False, 1),
        "Draft-self is about 57% of plain decoding.": ("ratio", "57", True, 1),
        "It is roughly 3× the speed of the CPU run.": ("ratio", "3", True, 1),
        "It was 40% faster on the story prompt, just 12% on the other prompt.": (
            "percent_change",
            "12",
            False,
            1,
        ),
        "Decode got 15% slower.": ("percent_change", "15", False, -1),
    }
    for text, (kind, value, about, sign) in cases.items():
        rels = relations(text, numbers(text))
        assert (rels[-1].kind, rels[-1].number.text, rels[-1].number.about, rels[-1].sign) == (
            kind,
            value,
            about,
            sign,
        ), text


def test_relation_with_both_sides_in_the_sentence(tmp_path):
    # no "than" or "from": the sides in the order the stated gain needs, and a note saying so
    cf, _ = _drafted("Plain decoding gave 20.0 tok/s and MTP gave 42.0 tok/s, 2.1× faster.\n", tmp_path)
    (s,) = cf.statements
    assert (s.kind, s.of, s.value, s.unit) == ("ratio", ["decode-tps-l1-2", "decode-tps-l1"], 2.1, "x")
    assert s.note == "sides ordered by their values: the sentence does not say which is which"
    cf, _ = _drafted("MTP gave 42.0 tok/s, 2.1× faster than plain decoding at 20.0 tok/s.\n", tmp_path)
    (s,) = cf.statements
    assert (s.of, s.note) == (["decode-tps-l1", "decode-tps-l1-2"], None)
    # Korean word order: "WSL 32.95, Windows 42.72: about 1.3 times faster" (the later is faster)
    cf, _ = _drafted("WSL에서는 약 32.95 tok/s, 윈도우에서는 42.72 tok/s로 약 1.3배 빨랐다.\n", tmp_path)
    (s,) = cf.statements
    assert (s.of, s.value, s.about) == (["decode-tps-l1-2", "decode-tps-l1"], 1.3, True)
    assert _claim(cf, "decode-tps-l1").about  # "약": about
    cf, _ = _drafted("From 100 tok/s the rate went to 80 tok/s, 20% slower.\n", tmp_path)
    (s,) = cf.statements
    assert (s.kind, s.of, s.value) == ("percent_change", ["decode-tps-l1", "decode-tps-l1-2"], -20)


def test_relation_with_no_sides_is_a_claim_of_the_multiple_control(tmp_path):
    """No claim in the post it could relate: the multiple is stated as a claim of itself (a speedup,
    the corpus's expected files), not a todo citing nothing; with a candidate it stays a todo
    (``test_claims_draft_kinds``)."""
    cf, _ = _drafted("It is roughly 3× faster.\n", tmp_path)
    assert cf.statements == [] and cf.todo == []
    assert [(c.metric, c.value, c.about, c.unit) for c in cf.claims] == [("speedup", 3, True, "x")]


def test_precision_as_written():
    got = [
        (n.text, n.unit, n.about, n.range, n.spread)
        for n in numbers(
            "about 130 tok/s, ~32 t/s, nearly 15.0 GiB, 6.1–6.3 tok/s, 42.7 ± 0.3 t/s, 1,234 tokens, "
            "850 ms, 약 57%, 9,8 s"
        )
    ]
    assert got == [
        ("130", "tok/s", True, None, None),
        ("32", "t/s", True, None, None),
        ("15.0", "GiB", True, None, None),
        ("6.1–6.3", "tok/s", False, ("6.1", "6.3"), None),
        ("42.7", "t/s", False, None, "0.3"),
        ("1234", "tokens", False, None, None),
        ("850", "ms", False, None, None),
        ("57", "%", True, None, None),
        ("9.8", "s", False, None, None),
    ]


def test_names_dates_and_device_counts_are_not_numbers_control():
    text = "On 2026-10-28 an H200 ran Qwen3-30B-A3B Q4_K_M; 4x RTX 3090 went from 36 to 66 tok/s."
    got = [(n.text, n.unit) for n in numbers(text)]
    # "3090" stands alone (listed as unplaced); "from 36 to 66 tok/s" is a change, not a range
    assert got == [("3090", None), ("36", "tok/s"), ("66", "tok/s")]
    assert relations(text, numbers(text)) == []


def test_command_lines_to_conditions():
    lines = [
        (1, "$ ./llama-server -m models/Qwen3-30B-A3B-UD-Q4_K_XL.gguf -ngl 99 -ncmoe 20 -c 16384 \\"),
        (2, "    -fa on -ctk q8_0 --draft-max 8 -md Qwen3-0.6B-Q8_0.gguf"),
        (3, "vllm serve Qwen/Qwen3-30B-A3B-FP8 --max-model-len 32768"),
        (4, "llama-bench -m x.gguf -ncmoe 22,24,26"),
    ]
    a, b, c = command_lines(lines)
    assert (a.line, a.last) == (1, 2)
    assert a.conditions == {
        "engine": "llama.cpp",
        "model": "Qwen3-30B-A3B",
        "quant": "UD-Q4_K_XL",
        "offload": {"n_gpu_layers": 99, "n_cpu_moe": 20},
        "ctx": 16384,
        "flash_attn": True,
        "type_k": "q8_0",
        "block_max": 8,
        "other": {"draft_model": "Qwen3-0.6B", "draft_quant": "Q8_0"},  # the draft file's quant
        "decoding": "speculative",
    }
    assert b.conditions == {"engine": "vLLM", "model": "Qwen3-30B-A3B", "quant": "FP8", "ctx": 32768}
    assert c.conditions == {"engine": "llama.cpp", "model": "x"}  # a list sets no one value
    assert model_and_quant("unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL") == ("Qwen3-8B", "UD-Q4_K_XL")


def test_command_conditions_attach_to_the_claims_after_it(tmp_path):
    text = (
        "Before: 10 tok/s.\n\n```\nllama-server -m a-Q8_0.gguf -ngl 40 -c 4096\n```\n\n"
        "Then 12.5 tok/s.\n\n## Next\n\nAnd 13 tok/s.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    before, then, after = cf.claims
    c = then.conditions
    assert (c.model, c.quant, c.offload.n_gpu_layers, c.ctx) == ("a", "Q8_0", 40, 4096)
    # the post's only command: its settings hold for the whole post (``draftcontext``), before it
    # and in a later section that states no other
    assert before.conditions == c and after.conditions == c
    # control: two commands of one post setting two contexts: a claim before both takes neither
    cf, _ = _drafted(
        "Before: 10 tok/s.\n\n```\nllama-server -m a-Q8_0.gguf -c 4096\n```\n\nThen 12.5 tok/s.\n\n"
        "```\nllama-server -m a-Q8_0.gguf -c 8192\n```\n\nLast 14.5 tok/s.\n",
        tmp_path,
    )
    assert [(x.value, x.conditions.ctx, x.conditions.model) for x in cf.claims] == [
        # each command for what follows it; what both set alike (the model) for the whole section
        # (``draftcommand.agreed``)
        (10.0, None, "a"),
        (12.5, 4096, "a"),
        (14.5, 8192, "a"),
    ]


def test_pasted_llama_bench_output_goes_through_the_ingest_readers(tmp_path):
    table = (FIXTURES / "ingest" / "llama_bench_b11434.md").read_text()
    cf, _ = _drafted(f"My results:\n\n{table}\nNice.\n", tmp_path)
    got = [(c.metric, c.value, c.decimals, c.spread, c.method, c.source_line) for c in cf.claims]
    assert got == [
        ("prefill_tps", 119.51, 2, 8.82, "llama-bench pp16", 5),
        ("model_size", 92.1, 2, None, None, 5),  # the size column, once for the model's rows
        ("decode_tps", 75.39, 2, 0.89, "llama-bench tg8", 6),
    ]
    # the quantisation llama-bench writes after the model is the quant (SOURCES.md's convention)
    assert (cf.claims[0].conditions.model, cf.claims[0].conditions.quant) == ("llama 256M", "Q4_1")
    assert cf.draft is not None and cf.draft.unplaced == []  # the table's numbers are not re-read as prose


def test_aligned_text_table(tmp_path):
    text = (
        "```\nmodel          -ngl    tg (t/s)   pp (t/s)\n"
        "qwen3-8b         99      52.31      1840\nqwen3-14b        99      31.07      1012\n```\n"
    )
    cf, _ = _drafted(text, tmp_path)
    got = [(c.metric, c.value, c.conditions.model, c.conditions.offload.n_gpu_layers) for c in cf.claims]
    assert got == [
        ("decode_tps", 52.31, "qwen3-8b", 99),
        ("decode_tps", 31.07, "qwen3-14b", 99),
        ("prefill_tps", 1840, "qwen3-8b", 99),
        ("prefill_tps", 1012, "qwen3-14b", 99),
    ]


def test_html_post_reads_like_its_markdown(tmp_path):
    html = (
        "<!doctype html><html><head><title>t</title><script>var x = 5;</script></head><body>"
        "<h1>Speeds</h1><p>The 3080 Ti did <b>about 42.7 tok/s</b>.</p>"
        "<table><tr><th>Prompt</th><th>TG (tok/s)</th></tr><tr><td>story</td><td>10.3</td></tr></table>"
        "</body></html>"
    )
    assert "| Prompt | TG (tok/s) |" in html_to_text(html)
    assert read_post(html).html
    cf, _ = _drafted(html, tmp_path, "post.html")
    got = [(c.metric, c.value, c.about, c.conditions.prompt) for c in cf.claims]
    assert got == [("decode_tps", 42.7, True, None), ("decode_tps", 10.3, False, "story")]


def test_rerun_keeps_reviewed_entries_and_deletions(tmp_path):
    post = tmp_path / "p.md"
    post.write_text("Plain: 20.0 tok/s. Draft: 30.5 tok/s. Memory: 11.2 GiB.\n")
    out, _, _ = draft_post(post)
    text = out.read_text()
    text = text.replace('metric: "decode_tps", value: 20.0', 'metric: "decode_tps", value: 20.00', 1)
    first = next(ln for ln in text.splitlines() if '{id: "decode-tps-l1",' in ln)
    text = text.replace(first, first.replace("reviewed: false", "reviewed: true, note: checked"))
    text = "\n".join(ln for ln in text.splitlines() if '{id: "memory-used-l1"' not in ln) + "\n"
    text = text.replace("source: {kind: post,", 'source: {kind: blog post, link: "https://example.org/p",')
    out.write_text(text)
    _, _, guessed = draft_post(post)
    cf = schema.load(out)
    kept = _claim(cf, "decode-tps-l1")
    assert (kept.value, kept.decimals, kept.note, kept.reviewed) == (20.0, 2, "checked", True)
    assert cf.claim("memory-used-l1") is None  # deleted by the user: not drafted again
    assert cf.source.link == "https://example.org/p"
    assert guessed == ["decode-tps-l1-2"]


def test_audit_post_in_one_step(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("p.md").write_text("Plain: 20.0 tok/s, draft: 30.0 tok/s, 1.5× faster.\n")
    assert audit_main(["p.md", "--out", "out"]) == 0
    err = capsys.readouterr()
    assert "3 entries guessed (reviewed: false; check each against its quote): decode-tps-l1" in err.err
    assert "s-l1\tstatement\t1.5 x" in err.out
    assert Path("p.claims.yaml").exists()


def test_page_escapes_the_quote(tmp_path):
    cf, out = _drafted("<script>alert(1)</script> `x` {{< y >}} gave 10.5 tok/s.\n", tmp_path)
    a = audit_file(out)
    html = page.render(cf, a.verdicts, out.name)
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#123;&#123;&lt; y &gt;&#125;&#125;" in html


def test_todo_statement_schema(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\n"
        "claims:\n  - {id: a, metric: decode_tps, value: 1.0, unit: tok/s}\n"
        "statements:\n  - {id: t, todo: name the sides, kind: ratio, statement: 2x, of: [a, b],\n"
        "     value: 2, unit: x}\n"
    )
    with pytest.raises(schema.ClaimsError, match=r"c.yaml:7: statements.0.of.1: 'b' is neither"):
        schema.load(f)
    f.write_text(f.read_text().replace("of: [a, b]", "of: [a]"))
    cf = schema.load(f)
    assert cf.statements == [] and cf.todo[0].of == ["a"] and cf.todo[0].decimals == 0


@pytest.mark.parametrize(
    "data",
    [b"", b"a\x00stray NUL 10 tok/s\n", ("\u202e" * 10 + "10 tok/s").encode(), b"| a |\n|---|\n| 1 |\n"],
)
def test_any_input_drafts_without_crashing(tmp_path, data):
    post = tmp_path / "x.txt"
    post.write_bytes(data if isinstance(data, bytes) else data.encode())
    out, _, _ = draft_post(post)
    schema.load(out)


def test_large_post_drafts_whole():
    text = POST.read_text() * 60  # about 360 KB, 3,600 lines
    drafted = draft_text(text)
    assert len(render(drafted, "big.md")[1]) == 1633  # repeated numbers cite the claim drafted first


def test_inline_command_and_a_change_from_one_number_to_another(tmp_path):
    text = (
        "I ran `llama-server -m Qwen3-30B-A3B-UD-Q4_K_XL.gguf -ngl 99 -ncmoe 12 -c 32768` and got ~95 t/s.\n"
        "Prompt processing went from 310 t/s to 1,420 t/s (about 4.6x).\n\n"
        "llama-bench for reference: nothing here.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    first = _claim(cf, "decode-tps-l1")
    assert first.quote == (
        "I ran `llama-server -m Qwen3-30B-A3B-UD-Q4_K_XL.gguf -ngl 99 -ncmoe 12 -c 32768` and got ~95 t/s."
    )
    c = first.conditions
    assert (c.model, c.quant, c.offload.n_cpu_moe, c.ctx, first.value, first.about) == (
        "Qwen3-30B-A3B",
        "UD-Q4_K_XL",
        12,
        32768,
        95,
        True,
    )
    assert [(x.id, x.value) for x in cf.claims[1:]] == [("prefill-tps-l2", 310), ("prefill-tps-l2-2", 1420)]
    (s,) = cf.statements  # 1,420 / 310 = 4.58: the later over the earlier
    assert (s.of, s.value, s.about) == (["prefill-tps-l2-2", "prefill-tps-l2"], 4.6, True)
    assert cf.draft is not None and cf.draft.unplaced == []  # the command's numbers are not unplaced
    assert command_lines([(1, "llama-bench for reference:")]) == []  # a tool named in prose: no command


def test_draft_against_the_hand_written_claims_file():
    """scripts/draft_measure.py's figures for the test post against data/claims/clover-35b-a3b-blog.yaml."""
    spec = importlib.util.spec_from_file_location("draft_measure", ROOT / "scripts" / "draft_measure.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    got = mod.measure(POST, ROOT / "data" / "claims" / "clover-35b-a3b-blog.yaml")
    assert {k: v for k, v in got.items() if k != "drafting seconds"} == {
        "hand claims": 33,
        "drafted claims": 35,
        "captured (value and unit)": 33,
        "quoted numbers (hand origin)": 8,
        "  of them drafted with an origin": 8,
        # the hand file's vram_peak for "the GPU held 11.76 GiB of its 12.29 GiB": the post does not
        # say peak, and the drafter writes a peak only where it does (the corpus's convention)
        "same metric": 32,
        # 26/25 (from 23/22): "the baseline" names plain decoding, a baseline drafts nothing
        # (draftnames, draftcommand.plain_run)
        "same conditions (where the hand file states them)": 26,
        "same metric and conditions": 25,
        "hand statements": 4,
        "drafted statements (todo)": "3 (0)",
        "statements matched (value and unit)": 3,
        "statements tied to the right sides": 3,
        "unplaced numbers listed": 3,  # (the cards' names "RTX 3080", a model's "3.8" no longer)
    }


def test_every_draft_loads_whatever_the_numbers(tmp_path):
    """Random posts of hostile pieces (negative rates, impossible counts, 20 decimals, ranges of
    multiples, a capacity of 0, tables of them): every draft loads in the schema, and what cannot be
    stated is listed as unplaced."""
    pieces = [
        "-5 tok/s",
        "15 of 12 passed",
        "1.5 of 3",
        "3.14159265358979323846 tok/s",
        "2–3× faster",
        "20–30% slower",
        "5 GB of 0 GB",
        "about 7 times",
        "99999999999999999999 ms",
        "-12% change",
        "42.7 ± 0.3 t/s",
        "from 1 to 2 s",
        "| a | TG (tok/s) |\n|---|---|\n| x | -4 |\n| y | 1e5 |\n",
        "`llama-server -ngl x -c y`",
        "12 layers",
        "0 of 0",
    ]
    rng = random.Random(29)
    for k in range(40):
        text = "\n\n".join(" ".join(rng.sample(pieces, 3)) + "." for _ in range(4)) + "\n"
        post = tmp_path / f"p{k}.md"
        post.write_text(text)
        out, _, _ = draft_post(post)
        cf = schema.load(out)
        assert cf.draft is not None
    assert [(num, t) for _, num, t in draft_text("-5 tok/s and 15 of 12.\n").unplaced] == [
        ("-5", "-5 tok/s and 15 of 12."),
        ("15", "-5 tok/s and 15 of 12."),
    ]


def test_drafting_into_a_hand_written_file_keeps_all_of_it(tmp_path):
    hand = ROOT / "data" / "claims" / "clover-35b-a3b-blog.yaml"
    out = tmp_path / "hand.yaml"
    shutil.copy(hand, out)
    draft_post(POST, out)
    before, after = schema.load(hand), schema.load(out)
    assert [after.claim(c.id) for c in before.claims] == before.claims
    assert [after.statement(s.id) for s in before.statements] == before.statements
    assert (after.source, after.systems, after.environments, after.conditions, after.model) == (
        before.source,
        before.systems,
        before.environments,
        before.conditions,
        before.model,
    )
    comments = [ln for ln in out.read_text().splitlines() if ln.lstrip().startswith("#")]
    assert comments == [ln for ln in hand.read_text().splitlines() if ln.lstrip().startswith("#")]
    assert len(after.claims) == 33 + 35


def _measure_module():
    spec = importlib.util.spec_from_file_location("draft_measure", ROOT / "scripts" / "draft_measure.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_EXPECTED = """schema: benchbook.claims
schema_version: 1
source: {kind: post}
claims:
  - {id: a, metric: decode_tps, value: 85, about: true, unit: t/s,
     conditions: {quant: Q4_K_M, other: {temp: "0"}}}
  - {id: a2, metric: decode_tps, value: 85, about: true, unit: t/s}
  - {id: b, metric: decode_tps, value: 141, unit: t/s, conditions: {decoding: speculative}}
  - {id: c, metric: prefill_tps, value: 1420, unit: tok/s}
  - {id: d, metric: vram_peak, value: 11.7, unit: GiB}
  - {id: e, metric: decode_tps, range: [6.1, 6.3], unit: t/s}
statements:
  - {id: s1, kind: ratio, statement: "1.66x faster", of: [b, a], value: 1.66, unit: x}
  - {id: s2, kind: percent_change, statement: "66% faster", of: [a, b], value: 66, unit: "%"}
"""
_DRAFTED = """schema: benchbook.claims
schema_version: 1
source: {kind: post}
claims:
  - {id: x, metric: decode_tps, value: 85, about: true, unit: t/s, conditions: {quant: q4_k_m, ctx: 4096}}
  - {id: y, metric: decode_tps, value: 141, unit: t/s}
  - {id: z, metric: prefill_tps, value: 1420, unit: t/s}
  - {id: w, metric: vram_peak, value: 11.70, unit: GiB}
  - {id: v, metric: decode_tps, range: [6.1, 6.3], about: true, unit: t/s}
statements:
  - {id: r1, kind: ratio, statement: "1.66x faster", of: [y, x], value: 1.66, unit: x}
  - {id: r2, kind: percent_change, statement: "66% faster", of: [y, x], value: 66, unit: "%"}
"""


def test_corpus_scorer_counts_exactly(tmp_path):
    """scripts/draft_measure.py --corpus's scorer on a hand-made pair: a number is captured one to one
    with its value, digits, unit (t/s = tok/s) and precision (11.70 is not 11.7, an "about" range is
    not an exact one; the second 85 finds no drafted claim left); metric and conditions as the
    expected file states them in schema fields (case-insensitive; a condition it does not state is
    not compared), and stricter with conditions.other's free-form keys;
    a statement is tied only with its sides in order (r2's are reversed)."""
    mod = _measure_module()
    (tmp_path / "e.yaml").write_text(_EXPECTED)
    (tmp_path / "d.yaml").write_text(_DRAFTED)
    got = mod.score(schema.load(tmp_path / "d.yaml"), schema.load(tmp_path / "e.yaml"))
    assert got == {
        "claims": 6,
        "numbers": 3,
        "metric and conditions": 2,
        "with conditions.other": 1,  # x lacks a's other.temp
        "metric": 3,
        "conditions": 2,  # a's quant and b's decoding (a2, c state none)
        "conditions right": 1,
        "statements": 2,
        "tied": 1,
    }


@pytest.mark.parametrize(
    "want, got, same",
    [
        ("NVIDIA GeForce RTX 4090", "RTX 4090", True),  # the vendor's name may go
        ("RTX 4090", "NVIDIA RTX 4090", True),
        ("Apple M2 (Mac Mini)", "M2", True),  # a parenthesis is a remark
        ("Apple M2 (Mac Mini)", "Mac Mini M2", True),
        ("Qwen3.5-0.8B", "qwen3.5 0.8b", True),
        ("q4_k_m", "Q4_K_M", True),
        ("NVIDIA GeForce RTX 4060 Ti", "RTX 4060", False),  # another card
        ("Apple M2", "M2 Pro", False),
        ("Qwen3.5-0.8B", "0.8B", False),  # a size is no model
        ("UD-Q4_K_XL", "Q4_K_XL", False),
        ("llama.cpp", "", False),
        (131072, 131072, True),
        (131072, 131072.0, True),
        (1, True, False),  # a flag is no count
        (True, True, True),
        (99, "99", False),
    ],
)
def test_corpus_scorer_compares_names_by_their_words(want, got, same):
    """The corpus scorer's rule for free-form condition values (issue 29's "metric and
    conditions"): a drafted name states the expected one when it holds every word outside
    parentheses and none the expected one lacks, the vendor's name aside; numbers compare equal."""
    assert _measure_module().same_condition(want, got) is same


def test_corpus_mode_drafts_each_post_with_an_expected_file(tmp_path, capsys):
    """--corpus drafts every X.md/X.html/X.txt with an X.expected.yaml (others skipped) and prints
    per-post and overall figures beside the goals; nothing crashes."""
    mod = _measure_module()
    (tmp_path / "p1_x.md").write_text("# t\n\nGeneration ran at about 85 t/s.\n")
    (tmp_path / "p1_x.expected.yaml").write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: post}\nclaims:\n"
        "  - {id: a, metric: decode_tps, value: 85, about: true, unit: t/s}\n"
    )
    (tmp_path / "p2_no_expected.txt").write_text("12 t/s\n")
    assert [p.name for p, _ in mod.corpus_posts(tmp_path)] == ["p1_x.md"]
    assert mod.corpus([tmp_path], robust=False) == 0
    out = capsys.readouterr().out
    assert "numbers (value, unit, precision): 100.0% (1/1)   goal >= 95%" in out
    assert "metric and conditions:            100.0% (1/1)   goal >= 80%" in out


def test_a_sentence_of_3000_numbers_and_a_post_of_many_tables_draft_linearly():
    """One sentence of 3,000 rates took 16 s (each id counted its suffix up from 2, each number
    searched the whole sentence for who published it and for where the sentence starts); 2,000
    tables recounted the groups for each table's number.  Now the ids run on (``-2`` .. ``-3000``)
    and four times the numbers or tables take about four times the CPU time (``cpu_growth``)."""

    def sentence(n: int) -> str:
        return "# t\n\nIt ran at " + ", ".join(f"{i}.5 t/s" for i in range(1, n + 1)) + ".\n"

    def tables(n: int) -> str:
        return "".join(f"| build | tg128 (t/s) |\n|---|---|\n| b{i} | {i}.5 |\n\n" for i in range(n))

    assert cpu_growth(lambda n: draft_text(sentence(n)), 750) < LINEAR
    drafted = draft_text(sentence(3000))
    ids = [e.id for e in drafted.entries if e.kind == "claim"]
    assert ids[:3] == ["decode-tps-l3", "decode-tps-l3-2", "decode-tps-l3-3"]
    assert ids[-1] == "decode-tps-l3-3000"
    assert cpu_growth(lambda n: draft_text(tables(n)), 500) < LINEAR
    drafted = draft_text(tables(2000))
    assert [g.id for g in drafted.groups[:2]] == ["t1-tg128", "t2-tg128"]
    assert drafted.groups[-1].id == "t2000-tg128"


def test_a_comparison_named_by_a_condition_ties_the_claims_of_those_values(tmp_path):
    """ "b11434 is about 2× faster than b4000" after a table of builds: the sides are the claims whose
    build the words name, agreeing on everything else (was a todo); of a pp and a tg column, the
    one the sentence names; with no metric named between two columns, still a todo (control)."""
    text = (
        "# Builds\n\n| build | pp512 (t/s) | tg128 (t/s) |\n|---|---|---|\n| b4000 | 400 | 40.1 |\n"
        "| b11434 | 800 | 80.3 |\n\nb11434 is about 2x faster than b4000 in prompt processing.\n\n"
        "With b11434 generation is 100% faster than b4000.\n\nb11434 is 2x slower than b4000.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(s.id, s.kind, s.of) for s in cf.statements] == [
        ("s-l8", "ratio", ["t1-pp512-r2", "t1-pp512-r1"]),
        ("s-l10", "percent_change", ["t1-tg128-r1", "t1-tg128-r2"]),
    ]
    assert [t.id for t in cf.todo] == ["s-l12"]


def test_a_table_column_of_values_and_ranges_keeps_both_columns(tmp_path):
    """A column of "12 tok/s" and "30-50 tok/s" cells: the group's table had a range column only, the
    value of the others was lost and the draft did not load (corpus p23)."""
    text = "| Speed | Feel |\n|---|---|\n| 12 tok/s | slow |\n| 30-50 tok/s | good |\n"
    cf, _ = _drafted(text, tmp_path)
    assert [(c.value, c.range) for c in cf.claims] == [(12, None), (None, (30, 50))]


def test_conditions_named_in_prose_and_an_inline_command_go_to_their_claims(tmp_path):
    """The brief's example: the command written in the sentence (no backticks) sets engine, model,
    quant, -ngl and -fa for both rates; "on my RTX 3090" the hardware; "with a draft model (--draft-max
    16)" is the second clause's: decoding speculative and block_max 16 on 141 t/s only (the first
    got block_max 16), and the first, compared with it, is plain.  Control: after a heading nothing
    named before carries over."""
    text = (
        "# t\n\nOn my RTX 3090 with llama-server -m Qwen3-8B-Q4_K_M.gguf -ngl 99 -fa on, generation ran "
        "at about 85 t/s, and with a draft model (--draft-max 16) it reached 141 t/s, 1.66x faster.\n\n"
        "## Other box\n\nPrompt processing ran at 400 t/s.\n\n"
        "On Qwen3-30B-A3B Q4_K_M with b4980 on an M2 Max, vLLM gave 30 t/s while Ollama took 20 t/s.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    got = {c.id: c.conditions.model_dump(exclude_none=True, exclude_defaults=True) for c in cf.claims}
    common = {
        "engine": "llama.cpp",
        "model": "Qwen3-8B",
        "quant": "Q4_K_M",
        "offload": {"n_gpu_layers": 99},
        "flash_attn": True,
        "hardware": "NVIDIA GeForce RTX 3090",
    }
    assert got == {
        "decode-tps-l3": {**common, "decoding": "plain"},
        "decode-tps-l3-2": {**common, "decoding": "speculative", "block_max": 16},
        # the section's paragraph below names its machine, model and build (``draftcontext``): they
        # hold for the whole section; the two engines, and the first section's command (another
        # model), do not
        "prefill-tps-l7": {
            "model": "Qwen3-30B-A3B",
            "quant": "Q4_K_M",
            "build": "b4980",
            "hardware": "Apple M2 Max",
        },
        "decode-tps-l9": {
            "model": "Qwen3-30B-A3B",
            "quant": "Q4_K_M",
            "hardware": "Apple M2 Max",
            "engine": "vLLM",  # b4980 is a llama.cpp release tag, no build of vLLM
        },
        "decode-tps-l9-2": {
            "model": "Qwen3-30B-A3B",
            "quant": "Q4_K_M",
            "hardware": "Apple M2 Max",
            "engine": "Ollama",  # b4980 is a llama.cpp release tag, no build of Ollama
            "backend": "Metal",  # a guess: llama.cpp's (Ollama's) default on Apple silicon
        },
    }
    (s,) = cf.statements
    assert (s.of, s.value) == (["decode-tps-l3-2", "decode-tps-l3"], 1.66)


def test_section_heading_cells_and_machine_specs(tmp_path):
    """A heading naming machine and build sets them for its section (not the next); a label column
    of quant names is the quant whatever its header ("양자화 포맷"); a placeholder "-m [model]" names
    no model; "RTX 5090 32GB" and "64 GB unified memory" are the machine's, not claims; GB/s is no
    size but a bandwidth; "tok/second" and "toks" are rates."""
    text = (
        "## Windows 10, RTX 3060, llama.cpp b4980\n\n`llama-bench -m [model] -ngl 100`\n\n"
        "| 양자화 포맷 | pp512 (t/s) |\n|---|---|\n| Q4_0 | 1200.5 |\n| IQ4_XS | 1100.2 |\n\n"
        "## Notes\n\nMy RTX 5090 32GB with 64 GB unified memory reads 1792 GB/s; it ran 101 tok/second "
        "and 90 toks.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    got = {
        c.id: (c.value, c.unit, cf.conditions_of(c).model_dump(exclude_none=True, exclude_defaults=True))
        for c in cf.claims
    }
    # the post names no drafting: plain decoding (draftcontext.fill)
    machine = {
        "hardware": "NVIDIA GeForce RTX 3060",
        "build": "b4980",
        "engine": "llama.cpp",
        "decoding": "plain",
    }
    rtx5090 = {"hardware": "NVIDIA GeForce RTX 5090", "decoding": "plain"}
    pp = {"other": {"prompt_tokens": 512}}
    assert got == {
        # a pp512 test's prompt is 512 tokens (draftmetric.settle_tests, the corpus's convention)
        "t1-pp512-r1": (1200.5, "t/s", {**machine, "offload": {"n_gpu_layers": 100}, "quant": "Q4_0", **pp}),
        "t1-pp512-r2": (
            1100.2,
            "t/s",
            {**machine, "offload": {"n_gpu_layers": 100}, "quant": "IQ4_XS", **pp},
        ),
        "memory-bandwidth-l12": (1792, "GB/s", rtx5090),
        "decode-tps-l12": (101, "tok/s", rtx5090),
        "decode-tps-l12-2": (90, "tok/s", rtx5090),
    }


def test_a_table_column_relating_the_rows_numbers_gives_statements(tmp_path):
    """A "vs baseline" column of multiples relates each row's rate to the baseline row's (a ratio
    of the row over the baseline), a "Gain" column of signed percentages next to two rate columns
    relates them (a percent change from the first to the second); neither is a speedup or share
    claim.  The baseline row's own "1.00x" relates it to itself: no statement (a statement never
    cites one claim twice).  Control: an "Acceptance" column of percentages stays claims."""
    text = (
        "| setup | decode t/s | vs baseline | Acceptance |\n|---|---|---|---|\n"
        "| draft-simple | 5.8 | 0.47x | 61% |\n| baseline | 12.35 | 1.00x | — |\n"
        "| DSpark | 12.72 | 1.03x | 70% |\n\n"
        "| Model | Standard t/s | TurboQuant t/s | Gain |\n|---|---|---|---|\n"
        "| SmolLM3 | 40.0 | 42.5 | +6.2% |\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(s.kind, s.of, s.value, s.unit) for s in cf.statements] == [
        ("ratio", ["t1-decode-t-s-r1", "t1-decode-t-s-r2"], 0.47, "x"),
        ("ratio", ["t1-decode-t-s-r3", "t1-decode-t-s-r2"], 1.03, "x"),
        ("percent_change", ["t2-standard-t-s-r1", "t2-turboquant-t-r1"], 6.2, "%"),
    ]
    assert sorted({c.metric for c in cf.claims}) == ["acceptance_rate", "decode_tps"]


def test_aligned_tables_with_inner_pipes_and_ragged_rows(tmp_path):
    """A fenced table with "|" between columns but no outer pipes (corpus p11), and an aligned one
    whose baseline row leaves its last cells empty (p02), are tables; a row of changes under a t/s
    column is no rate of it but a change between the column's two rows."""
    text = (
        "```\n      |   qwen   |   gemma\n-----------------\nb4363 | 31.7 t/s | 36.1 t/s\n"
        "b4365 | 24.5 t/s | 22.7 t/s\n-----------------\n      |  -23%    |  -37%\n```\n\n"
        "```\nConfig                   tok/s   vs Baseline   Draft Accept\nBaseline (non-MTP)       25.3\n"
        "--spec-draft-n-max 0     22.4    -11%          100%\n"
        "--spec-draft-n-max 2     21.9    -13%          76%\n```\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(c.value, c.unit, cf.conditions_of(c).build) for c in cf.claims if c.unit == "t/s"][:4] == [
        (31.7, "t/s", "b4363"),
        (24.5, "t/s", "b4365"),
        (36.1, "t/s", "b4363"),
        (22.7, "t/s", "b4365"),
    ]
    assert [c.value for c in cf.claims if c.metric == "decode_tps"][4:] == [25.3, 22.4, 21.9]
    # the unlabelled last row of changes: a percent change per column from its first row to its second
    assert [(s.kind, s.of, s.value) for s in cf.statements] == [
        ("percent_change", ["t1-qwen-r1", "t1-qwen-r2"], -23),
        ("percent_change", ["t1-gemma-r1", "t1-gemma-r2"], -37),
        ("percent_change", ["t2-tok-s-r1", "t2-tok-s-r2"], -11),
        ("percent_change", ["t2-tok-s-r1", "t2-tok-s-r3"], -13),
    ]


def test_metric_words_of_the_numbers_own_clause_and_a_titles_numbers(tmp_path):
    """ "PP is fine but TG is only 23 t/s": the word nearest before it (TG) names a decode rate (was
    prefill from PP); a percentage's metric is not read from a later clause ("+108%, and acceptance
    ..."); a title stating a rate is drafted."""
    text = (
        "# Qwen3 at 50 tok/s on a 3090\n\nPP is fine but TG is only 23 t/s.\n\n"
        "Throughput went up 108 %, and acceptance was high.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.source_line) for c in cf.claims] == [
        ("decode_tps", 50, 1),
        ("decode_tps", 23, 3),
        # "went up 108 %": a change with no sides stated, not acceptance_rate; of the throughput its
        # clause names (SOURCES.md: "~60% higher throughput" is throughput_change)
        ("throughput_change", 108, 5),
    ]


def test_a_change_between_engines_named_in_earlier_sentences(tmp_path):
    """ "ollama is ~38% slower than llama.cpp" (corpus p10): each rate's engine is named before it,
    and the phrase's sides are the claims of those engines (the other side's words kept "llama.cpp"
    whole: a point inside a name ends no clause)."""
    text = (
        "With ollama I get around 80 t/s. With llama.cpp I get 130 t/s.\n\n"
        "Is there a reason that ollama is ~38% slower than llama.cpp here?\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(c.id, c.conditions.engine) for c in cf.claims] == [
        ("decode-tps-l1", "Ollama"),
        ("decode-tps-l1-2", "llama.cpp"),
    ]
    (s,) = cf.statements
    assert (s.kind, s.of, s.value, s.about) == (
        "percent_change",
        ["decode-tps-l1-2", "decode-tps-l1"],
        -38,
        True,
    )


def test_text_tables_drawn_with_box_characters(tmp_path):
    """An indented table under a rule of box-drawing dashes (corpus p03), and a table drawn with
    box characters under a caption (llama-benchy's, Python rich's: corpus p05), are tables."""
    text = (
        "Results:\n\n    Depth      Baseline   + ngram-mod   Speedup\n    ──────────────────────────────\n"
        "    0 (cold)   107 t/s    123 t/s       1.15x\n    16K        96 t/s     149 t/s       1.55x\n\n"
        "```\n        llama-benchy Results\n┏━━━━━━━━━━━━━━┳━━━━━━━━━━━━┓\n┃ Test         ┃     tg t/s ┃\n"
        "┡━━━━━━━━━━━━━━╇━━━━━━━━━━━━┩\n│ tg128 @ d0   │       28.3 │\n│ tg128 @ d4096│       27.6 │\n"
        "└──────────────┴────────────┘\n```\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [c.value for c in cf.claims] == [107, 96, 123, 149, 28.3, 27.6]
    assert [(s.of, s.value) for s in cf.statements] == [
        (["t1-ngram-mod-r1", "t1-baseline-r1"], 1.15),
        (["t1-ngram-mod-r2", "t1-baseline-r2"], 1.55),
    ]


def test_tokens_in_a_time_at_a_rate_is_a_ratio_statement(tmp_path):
    """ "N tokens in T s (R tok/s)" in prose, and llama-speculative's "encoded/decoded N tokens in T
    seconds, speed: R t/s" output lines (kept as a log too), give the three claims and the rate as
    their ratio (corpus p15, p40, p08); "encoded" is prompt processing."""
    text = (
        "# t\n\n```\nencoded   35 tokens in    0.184 seconds, speed:  190.678 t/s\n"
        "decoded  202 tokens in    2.533 seconds, speed:   79.745 t/s\nn_drafted = 120\n```\n\n"
        "It generated 512 tokens in 6.4 s (80 tok/s).\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [c.metric for c in cf.claims if c.unit in ("t/s", "tok/s")] == [
        "prefill_tps",
        "decode_tps",
        "decode_tps",
    ]
    assert [(s.of, s.value, s.unit) for s in cf.statements] == [
        (["tokens-l4", "duration-l4"], 190.678, "t/s"),
        (["tokens-l5", "duration-l5"], 79.745, "t/s"),
        (["tokens-l9", "duration-l9"], 80, "tok/s"),
    ]


def test_slash_counts_near_a_count_word(tmp_path):
    """ "GSM8K 39/40", "`438/438` draft tokens accepted": counts k/n (near a count word); "83.6/65.4"
    and a date "10/28" are no counts (control); "83.6/65.4 tok/s" is two rates (the unit stated once)."""
    text = (
        "The model scored GSM8K 39/40 on the test set today.\n\n`438/438` draft tokens accepted.\n\n"
        "On 10/28 it ran 83.6/65.4 tok/s.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(c.metric, c.counts.k if c.counts else None) for c in cf.claims] == [
        ("proportion", 39),
        ("acceptance_rate", 438),
        ("decode_tps", None),
        ("decode_tps", None),
    ]


def test_a_change_from_a_rate_to_a_number_without_unit(tmp_path):
    """ "from 38 t/s (without draft) to 33.93 (with draft)" (corpus p17): the second number is in the
    first's unit, each with its decoding; a bare number elsewhere stays unplaced (control)."""
    text = "Speed dropped from 38 t/s (without draft) to 33.93 (with draft). I ran it on 2 machines.\n"
    cf, _ = _drafted(text, tmp_path)
    assert [(c.value, c.unit, c.conditions.decoding) for c in cf.claims] == [
        (38, "t/s", "plain"),
        (33.93, "t/s", "speculative"),
    ]
    assert cf.draft is not None and [u.number for u in cf.draft.unplaced] == ["2"]


def test_the_titles_names_hold_for_the_post_and_mtp_is_draft_self(tmp_path):
    """A level-one title naming engine and build ("(llama.cpp b9330)") sets them for every section
    (a section heading adds its own); "MTP" is the model's own heads drafting (draft-self),
    "non-MTP" plain, each in its clause."""
    text = (
        "# MTP on Metal (llama.cpp b9330)\n\n## M1 Max\n\n"
        "The non-MTP baseline ran at 25.3 tok/s, while MTP reached 22.4 tok/s.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    got = [(c.value, c.conditions.model_dump(exclude_none=True, exclude_defaults=True)) for c in cf.claims]
    machine = {"engine": "llama.cpp", "build": "b9330", "hardware": "Apple M1 Max", "backend": "Metal"}
    assert got == [(25.3, {**machine, "decoding": "plain"}), (22.4, {**machine, "decoding": "draft-self"})]


def test_model_names_quants_alone_and_hardware_cells(tmp_path):
    """ "Llama 3 8B Q4" names a model and quant for what follows; a quant named alone ("UD-IQ3_XXS
    reached") is its number's, and a name after "and" is the next number's, not this one's
    ("2.40 tok/s and Qwen3-8B 6.11 tok/s"); a GPU column's "RTX 4090" is written with its vendor."""
    text = (
        "Speeds for Llama 3 8B Q4:\n\n| GPU | Speed (tok/s) |\n|---|---|\n| RTX 4090 | 120 |\n\n"
        "Another model managed 2.40 tok/s and Qwen3-8B 6.11 tok/s; UD-IQ3_XXS reached 9.48 tok/s.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    got = [
        (c.value, cf.conditions_of(c).model, cf.conditions_of(c).quant, cf.conditions_of(c).hardware)
        for c in cf.claims
    ]
    assert sorted(got) == [
        (2.40, "Llama 3 8B", "Q4", None),
        (6.11, "Qwen3-8B", "Q4", None),
        (9.48, "Qwen3-8B", "UD-IQ3_XXS", None),
        (120, "Llama 3 8B", "Q4", "NVIDIA GeForce RTX 4090"),
    ]


def test_the_corpus_drafts_without_a_crash_and_loads(capsys):
    """Issue 29's corpus (tests/fixtures/draft_corpus, 15 posts or more): every post drafts into a
    claims file that loads, and its expected file loads (figures are printed, not asserted)."""
    mod = _measure_module()
    folder = ROOT / "tests" / "fixtures" / "draft_corpus"
    assert len(mod.corpus_posts(folder)) >= 15
    assert mod.corpus([folder], robust=False) == 0
    out = capsys.readouterr().out
    assert "CRASH" not in out and "does not load" not in out


@pytest.mark.parametrize(
    "a, b, same",
    [
        ("tokens/s", "tok/s", True),
        ("tps", "t/s", True),
        (None, "x", True),
        ("%", "x", False),
        ("MiB", "GiB", False),
    ],
)
def test_corpus_scorer_reads_rate_spellings_of_a_statement_as_one_unit(a, b, same):
    """A statement's unit is compared as a number's is: t/s, tok/s, tokens/s and tps one unit (a
    bound "166+ tokens/s" drafted in tok/s is tied); x where none is written."""
    mod = _measure_module()
    sa = schema.Statement(id="a", kind="ratio", statement="a", of=["p", "q"], value=1, unit=a)
    sb = schema.Statement(id="b", kind="ratio", statement="b", of=["p", "q"], value=1, unit=b)
    assert (mod._statement_unit(sa) == mod._statement_unit(sb)) is same


_SPEEDUP_TABLE = (
    "| Hardware | Model | Baseline | Best speculative result | Best speedup |\n|---|---|---|---|---|\n"
    "| RTX 5060 Ti (Blackwell, 2025) | Qwen2.5-Coder 14B | 42.0 tok/s | 1.85× on math | up to 1.85× |\n"
    "| RTX 5060 Ti (Blackwell, 2025) | Qwen2.5-Coder 7B | 84.7 tok/s | 0.95× (barely break-even) "
    "| ⚠️ regressed |\n"
    "| GTX 1080 Ti (Pascal, 2017) | Qwen2.5-Coder 7B | 50.5 tok/s | 1.16× on math | up to 1.16× |\n"
    "| CPU only (no GPU) | Qwen2.5-Coder 3B | 12.9 tok/s | 2.03× on math | up to 2.03× |\n"
)


def test_a_speedup_column_with_no_baseline_row_relates_no_guessed_sides(tmp_path):
    """Issue 29 (an audit of a correct post said "major overstatement 45.5%", "wrong direction"):
    a "Baseline" rate column and a "Best speedup" column relate each row's baseline to a
    speculative rate the table does not give, and no row is the baseline: no ratio statements
    (they cited one claim twice and other rows' baselines), the multiples are speedup claims;
    "up to 1.85×" repeating the row's "1.85× on math" is that claim, nothing more."""
    cf, out = _drafted(_SPEEDUP_TABLE, tmp_path)
    assert cf.statements == []
    assert sorted((c.id, c.metric, c.value, c.unit) for c in cf.claims) == [
        ("t1-baseline-r1", "decode_tps", 42.0, "tok/s"),
        ("t1-baseline-r2", "decode_tps", 84.7, "tok/s"),
        ("t1-baseline-r3", "decode_tps", 50.5, "tok/s"),
        ("t1-baseline-r4", "decode_tps", 12.9, "tok/s"),
        ("t1-best-specula-r1", "speedup", 1.85, "x"),
        ("t1-best-specula-r2", "speedup", 0.95, "x"),
        ("t1-best-specula-r3", "speedup", 1.16, "x"),
        ("t1-best-specula-r4", "speedup", 2.03, "x"),
    ]
    assert "t1-best-speedup" not in out.read_text(encoding="utf-8")  # no empty "Best speedup" group


def test_an_up_to_multiple_alone_in_a_speedup_column_is_a_bound(tmp_path):
    """ "up to 2.03×" in a speedup column with no baseline row and no other cell stating it: a
    ``bound`` statement (below 2.03 x over the speedup claims), no value claimed, no sides guessed.
    Control: a plain "1.16×" in the same column is a speedup claim."""
    text = (
        "| Hardware | Baseline | Best speedup |\n|---|---|---|\n"
        "| CPU only | 12.9 tok/s | up to 2.03× |\n| GTX 1080 Ti | 50.5 tok/s | 1.16× |\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(s.kind, s.relation, s.value, s.unit, s.over.numerator) for s in cf.statements] == [
        ("bound", "below", 2.03, "x", {"metric": "speedup", "hardware": "CPU only"}),
    ]
    assert [(c.id, c.metric, c.value, c.unit) for c in cf.claims] == [
        ("t1-baseline-r1", "decode_tps", 12.9, "tok/s"),
        ("t1-baseline-r2", "decode_tps", 50.5, "tok/s"),
        ("t1-best-speedup-r2", "speedup", 1.16, "x"),
    ]


def test_a_speedup_column_with_a_baseline_row_still_relates_the_rows(tmp_path):
    """Control for the issue-29 fix: the same "Best speedup" column, but the table has a row
    labelled baseline (and the rates of every row): ratio statements of each row over the baseline
    row, the baseline row's own 1.00× no statement."""
    text = (
        "| Setup | Decode | Best speedup |\n|---|---|---|\n"
        "| no speculation (baseline) | 42.0 tok/s | 1.00× |\n"
        "| draft model | 77.7 tok/s | 1.85× |\n| ngram | 48.3 tok/s | 1.15× |\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(s.kind, s.of, s.value, s.unit) for s in cf.statements] == [
        ("ratio", ["t1-decode-r2", "t1-decode-r1"], 1.85, "x"),
        ("ratio", ["t1-decode-r3", "t1-decode-r1"], 1.15, "x"),
    ]
    assert {c.metric for c in cf.claims} == {"decode_tps"}


def test_the_headline_multiple_restated_cites_the_first_claim(tmp_path):
    """ "not the 15× headline" restates the 15× stated before: no second speedup claim.  Control:
    "~2×" (no restating article) is a claim of its own.  (Since session 58 "up to 15× higher" with
    no claim beside it is a bound todo, as docs/claims.md says, no claim of the value; its
    restatement stays nothing new.)"""
    text = (
        'NVIDIA said its system delivered "up to 15× higher throughput" using speculative decoding.\n\n'
        "The short version: the gains are tens of percent to ~2×, not the 15× headline.\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit, c.source_line) for c in cf.claims] == [("speedup", 2, "x", 3)]
    assert [(t.kind, t.value, t.unit, t.source_line) for t in cf.todo] == [("bound", 15, "x", 1)]


def test_no_drafted_statement_cites_one_claim_twice(tmp_path):
    """Invariant (issue 29): over the corpus's p-posts and the issue's table, no drafted statement
    cites one id twice in ``of``."""
    corpus = Path(__file__).parent / "fixtures" / "draft_corpus"
    posts = sorted(corpus.glob("p*.md"))[:48]
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in posts] + [("t.md", _SPEEDUP_TABLE)]
    for name, text in texts:
        cf, _ = _drafted(text, tmp_path, name)
        twice = [s.id for s in cf.statements if len(set(s.of)) != len(s.of)]
        assert twice == [], name


def test_an_efficiency_column_is_the_rows_measured_over_its_ceiling(tmp_path):
    """ "Theoretical max | Observed | Efficiency: 63%": a ratio in % of the row's observed rate over
    its theoretical one (101 / 160), citing the prose claim a cell repeats ("101 tok/s" stated
    first in the title: SOURCES.md's convention).  Control: a "Share" column of percentages beside
    two rate columns stays claims (no ceiling named, no efficiency)."""
    text = (
        "# Rapid-MLX: 101 tok/s\n\n"
        "| Chip | Memory bandwidth | Theoretical max | Observed | Efficiency |\n|---|---:|---:|---:|---:|\n"
        "| M3 Ultra | 819 GB/s | ~160 tok/s | 101 tok/s | 63% |\n"
        "| M4 Pro | 273 GB/s | ~53 tok/s | 43.4 tok/s | 82% |\n"
    )
    cf, _ = _drafted(text, tmp_path)
    assert [(s.kind, s.of, s.value, s.unit) for s in cf.statements] == [
        ("ratio", ["decode-tps-l1", "t1-theoretical-r1"], 63, "%"),
        ("ratio", ["t1-observed-r2", "t1-theoretical-r2"], 82, "%"),
    ]
    control = (
        "| Chip | Decode | Prefill | Share |\n|---|---:|---:|---:|\n"
        "| M3 Ultra | 101 tok/s | 900 tok/s | 63% |\n| M4 Pro | 43.4 tok/s | 300 tok/s | 82% |\n"
    )
    cf, _ = _drafted(control, tmp_path)
    assert cf.statements == []


def test_page_shows_the_conditions_each_claim_was_drafted_with(tmp_path):
    """The second new user's finding: a drafted claim's conditions are guesses, and the page did not
    show them.  Each claim's row now lists its conditions (the file's and group's filled in, escaped);
    a claim stating none shows no line."""
    cf, out = _drafted(
        "## RTX 4090, llama.cpp\n\n`llama-bench -m Qwen3-8B-Q4_K_M.gguf -ngl 99 -fa 1`\n\n"
        "Decode ran at 120.5 tok/s.\n",
        tmp_path,
    )
    a = audit_file(out)
    html = page.render(cf, a.verdicts, out.name)
    (claim,) = cf.claims
    line = page.conditions_line(cf, claim)
    assert line in html
    assert line == (
        '<br><small class="bb-conditions">conditions: hardware: NVIDIA GeForce RTX 4090 (line 1, heading) '
        "· engine: llama.cpp (line 3) · model: Qwen3-8B (line 3) · quant: Q4_K_M (line 3) · "
        "offload.n_gpu_layers: 99 (line 3) · decoding: plain (line 3, command) · flash_attn: true</small>"
    )
    HEAD = {"schema": "benchbook.claims", "schema_version": 1, "source": {"kind": "post"}}
    bare = schema.ClaimsFile.model_validate(
        {**HEAD, "claims": [{"id": "a", "metric": "decode_tps", "value": 1.0, "unit": "tok/s"}]}
    )
    assert page.conditions_line(bare, bare.claims[0]) == ""
    hostile = schema.ClaimsFile.model_validate(
        {
            **HEAD,
            "claims": [
                {
                    "id": "a",
                    "metric": "decode_tps",
                    "value": 1.0,
                    "unit": "tok/s",
                    "conditions": {"model": "<b>x</b>"},
                }
            ],
        }
    )
    assert page.conditions_line(hostile, hostile.claims[0]) == (
        '<br><small class="bb-conditions">conditions: model: &lt;b&gt;x&lt;/b&gt;</small>'
    )

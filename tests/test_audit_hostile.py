"""Odd claims files a user may feed ``benchbook audit``: differences and percent changes whose sign
differs from the stated range's, stated ranges below 0, ids holding tabs and markup, and a
``software:`` block beside claims that name another engine.  Each value is the one the arithmetic in
the comment gives.  The cited numbers of the difference tables are exact (``decimals: null``): a
number as written stands for the interval its digits allow (issue 27), and these tests are about
the display's own arithmetic."""

from __future__ import annotations

from pathlib import Path

from benchbook.audit import command, page, run, schema
from benchbook.audit.tables import build_of
from benchbook.audit.verdicts import Here

ROOT = Path(__file__).resolve().parents[1]

SIGNS = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - {id: a, metric: decode_tps, value: 10, decimals: null, unit: tok/s}
  - {id: b, metric: decode_tps, value: 13, decimals: null, unit: tok/s}
statements:
  - {id: d-pos, kind: difference, of: [a, b], range: [2, 4], unit: tok/s, statement: a is 2-4 faster}
  - {id: d-neg, kind: difference, of: [a, b], range: [-4, -2], unit: tok/s, statement: a is 2-4 slower}
  - {id: d-zero, kind: difference, of: [a, b], range: [-4, 1], unit: tok/s, statement: about the same}
  - {id: p-neg, kind: percent_change, of: [b, a], range: [-25, -20], unit: "%", statement: 20-25% less}
"""


def _rows(tmp_path: Path, capsys, monkeypatch, text: str) -> dict[str, list[str]]:
    f = tmp_path / "claims.yaml"
    f.write_text(text)
    monkeypatch.chdir(ROOT)
    assert command.main([str(f), "--out", str(tmp_path / "o"), "--pages", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out.splitlines()
    return {line.split("\t")[0]: line.split("\t")[1:] for line in out[2:] if "\t" in line}


def test_relative_difference_of_ranges_is_ordered_whatever_the_signs(tmp_path, capsys, monkeypatch):
    rows = _rows(tmp_path, capsys, monkeypatch, SIGNS)
    # a - b = -3 against 2..4: absolute [-3 - 4, -3 - 2] = [-7, -5]; (r - s) / |s|: -7/4 = -175 %,
    # -5/2 = -250 %: "-250.0% to -175.0%" (it printed the reversed "-175.0% to -250.0%")
    assert rows["d-pos"][:5] == [
        "statement",
        "2–4 tok/s",
        "-3.000 tok/s",
        "-7.000 to -5.000 tok/s",
        "-250.0% to -175.0%",
    ]
    # -3 against -4..-2: (-3 + 4) / 4 = +25 %, (-3 + 2) / 2 = -50 % (it printed "—")
    assert rows["d-neg"][2:5] == ["-3.000 tok/s", "-1.000 to +1.000 tok/s", "-50.0% to +25.0%"]
    # a stated range that reaches 0: nothing to be relative to
    assert rows["d-zero"][4] == "—"
    # 10 / 13 - 1 = -23.077 %; against -25..-20: 1.923 / 25 = +7.7 %, -3.077 / 20 = -15.4 %
    assert rows["p-neg"][2:5] == ["-23.077 %", "-3.077 to +1.923 pp", "-15.4% to +7.7%"]


CONTROL = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - {id: "b\\tc", metric: decode_tps, value: 13, decimals: null, unit: tok/s}
  - {id: "two\\nlines", metric: decode_tps, value: 10, decimals: null, unit: "tok/s"}
  - {id: "<b>&amp;</b>", metric: decode_tps, value: 5, unit: tok/s}
statements:
  - {id: r, kind: ratio, of: ["b\\tc", "two\\nlines"], value: 1.3, unit: x, statement: "1.3\\ttimes"}
"""


def test_a_tab_or_newline_in_an_id_keeps_every_row_in_its_columns(tmp_path, capsys, monkeypatch):
    f = tmp_path / "claims.yaml"
    f.write_text(CONTROL)
    monkeypatch.chdir(ROOT)
    assert command.main([str(f), "--out", str(tmp_path / "o"), "--pages", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out.splitlines()
    # header, column names, 3 claims + 1 statement: a newline in an id made 2 lines of its row, a
    # tab 9 cells
    assert len(out) == 6
    assert [len(line.split("\t")) for line in out[1:6]] == [8] * 5
    assert [line.split("\t")[0] for line in out[2:6]] == ["b\\tc", "two\\nlines", "<b>&amp;</b>", "r"]
    # 13 / 10 = 1.3: +0.000 x
    assert out[5].split("\t")[1:6] == ["statement", "1.3 x", "1.300 x", "+0.000 x", "+0.0%"]


CONFLICT = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
software: {engine: llama.cpp fork (branch dev), build: b11434}
claims:
  - {id: fork, metric: decode_tps, value: 30, unit: tok/s}
  - {id: upstream, metric: decode_tps, value: 20, unit: tok/s,
     conditions: {engine: llama.cpp}}
  - {id: upstream-built, metric: decode_tps, value: 21, unit: tok/s,
     conditions: {engine: llama.cpp, build: b9000}}
  - {id: same-engine, metric: decode_tps, value: 22, unit: tok/s,
     conditions: {engine: llama.cpp fork (branch dev)}}
"""


def test_a_claims_engine_does_not_take_the_software_blocks_build(tmp_path):
    f = tmp_path / "claims.yaml"
    f.write_text(CONFLICT)
    cf = schema.load(f)
    builds = {c.id: build_of(cf, c) for c in cf.claims}
    # upstream read "llama.cpp b11434": the fork's build under upstream's name
    assert builds == {
        "fork": "llama.cpp fork (branch dev) b11434",
        "upstream": "llama.cpp",
        "upstream-built": "llama.cpp b9000",
        "same-engine": "llama.cpp fork (branch dev) b11434",
    }
    # a build stated under no engine stays with the engine a claim names
    g = tmp_path / "build-only.yaml"
    g.write_text(CONFLICT.replace("{engine: llama.cpp fork (branch dev), build: b11434}", "{build: b5000}"))
    cg = schema.load(g)
    assert {c.id: build_of(cg, c) for c in cg.claims} == {
        "fork": "b5000",
        "upstream": "llama.cpp b5000",
        "upstream-built": "llama.cpp b9000",
        "same-engine": "llama.cpp fork (branch dev) b5000",
    }
    # "reproducible here" (this project: llama.cpp b11434) held upstream's build for this one's
    missing = {v.id: v.reproducible.missing for v in run.audit_file(f, here=Here()).verdicts}
    assert [m for m in missing["upstream"] if m.startswith("build")] == [
        "build: not stated (llama.cpp, no build or version; here: llama.cpp b11434)"
    ]


NOISE = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - {id: old, metric: decode_tps, value: 10, decimals: null, unit: tok/s}
  - {id: new, metric: decode_tps, value: 11, decimals: null, unit: tok/s}
  - {id: x1, metric: decode_tps, value: 0.1, decimals: null, unit: tok/s}
  - {id: x2, metric: decode_tps, value: 0.2, decimals: null, unit: tok/s}
statements:
  - {id: pc, kind: percent_change, of: [old, new], value: 10, unit: "%", statement: 10% faster}
  - {id: sum, kind: sum, of: [x1, x2], value: 0.3, unit: tok/s, statement: together 0.3}
  - {id: pc-off, kind: percent_change, of: [old, new], value: 9.99, unit: "%", statement: 9.99% faster}
"""


def test_floating_point_rounding_is_no_difference(tmp_path, capsys, monkeypatch):
    rows = _rows(tmp_path, capsys, monkeypatch, NOISE)
    # (11 / 10 - 1) x 100 = 10.000000000000009 read "+0.000000000000009 pp" and "+0.00000000000009%";
    # 0.1 + 0.2 = 0.30000000000000004 read "+0.00000000000000006 tok/s"
    assert rows["pc"][2:5] == ["10.000 %", "+0.000 pp", "+0.0%"]
    assert rows["sum"][2:5] == ["0.300 tok/s", "+0.000 tok/s", "+0.0%"]
    # a real difference stays: 10 - 9.99 = +0.01 pp, 0.01 / 9.99 = +0.1 %
    assert rows["pc-off"][2:5] == ["10.000 %", "+0.010 pp", "+0.1%"]


ANCHORS = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - {id: tg-2.4x, metric: decode_tps, value: 24, unit: tok/s}
  - {id: TG-2-4X, metric: decode_tps, value: 10, unit: tok/s}
  - {id: "τ", metric: decode_tps, value: 3, unit: tok/s}
  - {id: "α", metric: decode_tps, value: 2, unit: tok/s}
  - {id: tg-2-4x-2, metric: decode_tps, value: 5, unit: tok/s}
statements:
  - {id: r, kind: ratio, of: [TG-2-4X, "α"], value: 5, unit: x, statement: five times}
"""


def test_ids_that_reduce_to_one_anchor_get_distinct_anchors_on_the_page(tmp_path):
    import re

    f = tmp_path / "claims.yaml"
    f.write_text(ANCHORS)
    a = run.audit_file(f, here=Here())
    text = page.render(a.claims, a.verdicts, f.name)
    rows = re.findall(r'<tr id="([^"]+)"><td><code>([^<]+)</code>', text)
    # every row had its own id? tg-2.4x and TG-2-4X were both v-tg-2-4x, τ and α both v-
    assert rows == [
        ("v-tg-2-4x", "tg-2.4x"),
        ("v-tg-2-4x-3", "TG-2-4X"),  # -2 is tg-2-4x-2's own anchor
        ("v-id", "τ"),
        ("v-id-2", "α"),
        ("v-tg-2-4x-2", "tg-2-4x-2"),
        ("v-r", "r"),
    ]
    # the statement's evidence links to the rows of the ids it cites
    assert '<a href="#v-tg-2-4x-3">TG-2-4X</a>, <a href="#v-id-2">α</a>' in text


def test_the_header_counts_one_claim_and_one_statement_in_the_singular(tmp_path, capsys, monkeypatch):
    f = tmp_path / "one.yaml"
    f.write_text(
        "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
        "  - {id: a, metric: decode_tps, value: 10, unit: tok/s}\nstatements:\n"
        "  - {id: s, kind: mean, of: [a, a], value: 10, unit: tok/s, statement: ten}\n"
    )
    monkeypatch.chdir(tmp_path)  # no params.yaml: the defaults of Here
    assert command.main([str(f), "--out", str(tmp_path / "o"), "--pages", str(tmp_path / "o")]) == 0
    # it read "(1 claims, 1 statements) checked against its own 1 claims"
    assert capsys.readouterr().out.splitlines()[0] == (
        f"audit of {f} (1 claim, 1 statement) checked against its own 1 claim; no raw logs "
        "(--logs DIR not given, no one.logs/ beside it); reproducible here: llama.cpp b11434, CPU only "
        "(defaults: no params.yaml in this folder)"
    )


ONE = (
    "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\nclaims:\n"
    "  - {id: a, metric: decode_tps, value: 10, unit: tok/s}\n"
)


def test_params_without_audit_here_or_with_a_string_for_a_list(tmp_path, capsys, monkeypatch):
    f = tmp_path / "one.yaml"
    f.write_text(ONE)
    monkeypatch.chdir(tmp_path)
    out = ["--out", str(tmp_path / "o"), "--pages", str(tmp_path / "o")]
    # a params.yaml with no audit.here: the defaults, said so (it read "(params.yaml audit.here)")
    (tmp_path / "params.yaml").write_text("models: {registry: {}}\n")
    assert command.main([str(f), *out]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .endswith("reproducible here: llama.cpp b11434, CPU only (defaults: params.yaml has no audit.here)")
    )
    # gpus written as a string was read as its letters: "reproducible here: ..., N, V, I, D, I, A, ..."
    (tmp_path / "params.yaml").write_text("audit: {here: {gpus: NVIDIA H200}}\n")
    assert command.main([str(f), *out]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "benchbook: error: params.yaml audit.here.gpus: a list of names is needed, got str 'NVIDIA H200'"
    )
    assert "fix: write gpus: [NVIDIA H200]" in err
    (tmp_path / "params.yaml").write_text("audit: {here: {gpus: [NVIDIA H200], build: llama.cpp b1}}\n")
    assert command.main([str(f), *out]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .endswith("reproducible here: llama.cpp b1, NVIDIA H200 (params.yaml audit.here)")
    )


BUILDS = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - {id: same, metric: decode_tps, value: 10, unit: tok/s,
     conditions: {engine: llama.cpp, build: "b11434, CUDA build"}}
  - {id: longer, metric: decode_tps, value: 10, unit: tok/s, conditions: {engine: llama.cpp, build: b114345}}
  - {id: fork, metric: decode_tps, value: 10, unit: tok/s, conditions: {engine: ik_llama.cpp, build: b11434}}
  - {id: bare, metric: decode_tps, value: 10, unit: tok/s, conditions: {build: b11434}}
  - {id: bare-other, metric: decode_tps, value: 10, unit: tok/s, conditions: {build: b11435}}
  - {id: bare-fork, metric: decode_tps, value: 10, unit: tok/s, conditions: {build: ik_llama.cpp b11434}}
"""


def test_a_build_is_this_projects_only_as_whole_words(tmp_path):
    import json

    f = tmp_path / "claims.yaml"
    f.write_text(BUILDS)
    here = Here(build="llama.cpp b11434")
    builds = {
        v.id: [m for m in v.reproducible.missing if m.startswith("build")]
        for v in run.audit_file(f, here=here).verdicts
    }
    # b114345 and the fork ik_llama.cpp held "llama.cpp b11434" as a substring: no build mismatch
    assert builds == {
        "same": [],
        "longer": ["build: llama.cpp b114345 (here: llama.cpp b11434)"],
        "fork": ["build: ik_llama.cpp b11434 (here: llama.cpp b11434)"],
        # a build by number alone (a drafted post's "b11434") is this project's when the number is
        # the same and no other engine is named: it was listed as missing
        "bare": [],
        "bare-other": ["build: b11435 (here: llama.cpp b11434)"],
        "bare-fork": ["build: ik_llama.cpp b11434 (here: llama.cpp b11434)"],
    }
    # a llama-bench log of build 1143: "1143" in "llama.cpp b11434" read as this project's build
    logs = tmp_path / "logs"
    logs.mkdir()
    src = (ROOT / "tests" / "fixtures" / "ingest" / "llama_bench_b11434.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in src if line.strip()]
    for r in rows:
        r["build_number"] = 1143
    (logs / "b1143.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    log_rows = [v for v in run.audit_file(f, here=here, logs_dir=logs).verdicts if v.kind == "log"]
    assert len(log_rows) == 2
    assert all("build: b1143 (here: llama.cpp b11434)" in v.reproducible.missing for v in log_rows)


CPU_TEXT = """schema: benchbook.claims
schema_version: 1
source: {kind: blog post}
model: {name: SmolLM2-135M}
claims:
  - {id: cpu, metric: decode_tps, value: 12.9, unit: tok/s,
     conditions: {hardware: CPU only (no GPU), engine: llama.cpp}}
  - {id: cpu2, metric: decode_tps, value: 13.9, unit: tok/s,
     conditions: {hardware: a bare CPU, engine: llama.cpp}}
  - {id: gpu, metric: decode_tps, value: 42.0, unit: tok/s,
     conditions: {hardware: RTX 5060 Ti, engine: llama.cpp}}
  - {id: mixed, metric: decode_tps, value: 41.0, unit: tok/s,
     conditions: {hardware: CPU + GPU offload, engine: llama.cpp b9000}}
"""


def test_reproducible_here_reads_cpu_hardware_and_an_engine_without_a_build(tmp_path):
    """A new user's audit listed "hardware: CPU only (here: CPU only)" and "build: llama.cpp (here:
    llama.cpp b11434)" as what is missing: a CPU-only claim was compared with GPU names, and the engine
    was shown as if it were the build."""
    f = tmp_path / "claims.yaml"
    f.write_text(CPU_TEXT)
    missing = {
        v.id: v.reproducible.missing for v in run.audit_file(f, here=Here(build="llama.cpp b11434")).verdicts
    }
    assert [m for m in missing["cpu"] if m.startswith("hardware")] == [
        "hardware: CPU only (no GPU) (here: this host's CPU, not necessarily that one)"
    ]
    assert [m for m in missing["cpu2"] if m.startswith("hardware")] == [
        "hardware: a bare CPU, no GPU (here: this host's CPU, not necessarily that one)"
    ]
    assert [m for m in missing["gpu"] if m.startswith("hardware")] == [
        "hardware: RTX 5060 Ti (here: CPU only)"
    ]
    assert [m for m in missing["mixed"] if m.startswith("hardware")] == [
        "hardware: CPU + GPU offload (here: CPU only)"
    ]
    assert [m for m in missing["cpu"] if m.startswith("build")] == [
        "build: not stated (llama.cpp, no build or version; here: llama.cpp b11434)"
    ]
    assert [m for m in missing["mixed"] if m.startswith("build")] == [
        "build: llama.cpp b9000 (here: llama.cpp b11434)"
    ]


BIDI = """schema: benchbook.claims
schema_version: 1
source: {kind: synthetic test}
claims:
  - {id: "a\\x1b[2J\\x1b[31m", metric: decode_tps, value: 30, unit: tok/s,
     note: "fast \\u202eevitsisnoc\\u202c indeed"}
  - {id: "b\\u2066x", metric: decode_tps, value: 20, unit: tok/s}
statements:
  - {id: s, kind: ratio, statement: "1.5\\u202e x faster", of: ["a\\x1b[2J\\x1b[31m", "b\\u2066x"],
     value: 1.5, unit: x}
"""


def test_bidi_controls_and_escape_sequences_are_shown_not_obeyed(tmp_path, capsys, monkeypatch):
    """Issue 34 §2: a right-to-left override in a claims file reversed the audit's own verdict text
    on the page; an id holding an escape sequence was printed raw (clearing the terminal).  Both are
    shown as code points, on the terminal row and on the page."""
    f = tmp_path / "claims.yaml"
    f.write_text(BIDI)
    monkeypatch.chdir(ROOT)
    assert command.main([str(f), "--out", str(tmp_path / "o"), "--pages", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\u2066" not in out
    ids = [line.split("\t")[0] for line in out.splitlines()[2:]]
    assert ids == ["a⟨U+001B⟩[2J⟨U+001B⟩[31m", "b⟨U+2066⟩x", "s"]
    pages = "".join(p.read_text() for p in (tmp_path / "o").glob("*.qmd"))
    assert "\u202e" not in pages and "\u202c" not in pages and "\x1b" not in pages and "\u2066" not in pages
    assert "⟨U+202E⟩" in pages and "⟨U+001B⟩" in pages

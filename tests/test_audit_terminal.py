"""What ``benchbook audit`` prints (a header naming the claims file and the records it was checked
against; per claim the stated value, the recomputed value, their difference absolute and in %, and
the verdict), the same comparison on the audit page, and the claims file's ``software:`` block as
the default engine and build of the source's own claims (it was ignored: only per-claim fields and
``conditions`` counted)."""

from __future__ import annotations

import shutil
from pathlib import Path

from benchbook.audit import command, page, run, tables
from benchbook.audit.delta import delta
from benchbook.audit.verdicts import Here, Reproducible, Verdict

ROOT = Path(__file__).resolve().parents[1]
FX = Path(__file__).parent / "fixtures"
CLOVER = ROOT / "data" / "claims" / "clover-35b-a3b-blog.yaml"
HEAD = "schema: benchbook.claims\nschema_version: 1\nsource: {kind: synthetic test}\n"


def _stdout(capsys, argv: list[str]) -> list[str]:
    assert command.main(argv) == 0
    return capsys.readouterr().out.splitlines()


def test_the_command_names_the_file_the_records_and_compares_each_claim(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # params.yaml: audit.here (llama.cpp b11434, no GPU)
    out = _stdout(capsys, [str(CLOVER), "--out", str(tmp_path), "--pages", str(tmp_path)])
    assert out[0] == (
        f"audit of {CLOVER} (33 claims, 4 statements) checked against its own 33 claims; no raw logs "
        "(--logs DIR not given, no clover-35b-a3b-blog.logs/ beside it); reproducible here: "
        "llama.cpp b11434, CPU only (params.yaml audit.here)"
    )
    assert out[1].split("\t") == [
        "id",
        "kind",
        "stated",
        "recomputed",
        "difference",
        "difference %",
        "verdict",
        "reproducible here",
    ]
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in out[2:]}
    assert len(rows) == 37
    # a single published number: stated, nothing recomputed
    assert rows["tg-win-ncmoe24"] == ["claim", "42.72 tok/s", "—", "—", "—", "not checkable", "no"]
    assert rows["other-qwen27b-q4km"][:3] == ["claim", "6.11–6.34 tok/s", "—"]
    # 24.4 / 42.72 = 57.116 %, with the cited precision (issue 27) 24.35 / 42.725 .. 24.45 / 42.715 =
    # 56.992..57.240 %; minus 57: -0.008..+0.240 pp; / 57: -0.01 %..+0.4 %
    assert rows["stmt-57pct"][:5] == [
        "statement",
        "57 %",
        "56.992–57.240 %",
        "-0.008 to +0.240 pp",
        "-0.01% to +0.4%",
    ]
    # each qualifier with its whole reason, not its check's id (was "not comparable (mixed_method)")
    assert rows["stmt-57pct"][5] == (
        "consistent | not comparable: methods: real prompt generation vs llama-bench tg128 | at risk: n "
        "below 3 on a side of the comparison (single runs, no interval) | at risk: high stated acceptance, "
        "yet the speed ratio is at or below 1: no speedup | at risk: slower than the baseline: the speed "
        "ratio is at most 24.45 / 42.715 = 0.572 (below 1), with stated acceptance 1"
    )
    assert rows["ds-acceptance"][5] == (
        "not checkable | unsupported: an acceptance rate without the counts (accepted / drafted) behind "
        "it | at risk: the same decoding mode runs at or below the plain speed: acceptance is high, speed "
        "is not"
    )
    # max over the pairs (ds-code-b8-wsl 20.6 / tg-wsl-ncmoe26 32.95) 0.6236..0.6268 with the cited
    # precision: 0.043..0.040 below the bound 0.667; a bound is a limit, not an estimate: no % of it (was
    # "-6.3%", which the new user could not read)
    assert rows["stmt-two-thirds"][:5] == ["statement", "0.667 x", "0.624–0.627 x", "-0.043 to -0.040 x", "—"]
    # 42.715 / 6.345 .. 42.725 / 6.105 = [6.732, 6.998]; minus 7: [-0.268, -0.002]; / 7: [-3.8 %, -0.02 %]
    assert rows["stmt-7x-qwen"][:5] == [
        "statement",
        "7 x",
        "6.732–6.998 x",
        "-0.268 to -0.002 x",
        "-3.8% to -0.02%",
    ]
    # 101.75 / 42.725 .. 101.85 / 42.715 = 2.3815..2.3844; minus 2.4: -0.018..-0.016 x = -0.8..-0.6 % of 2.4
    assert rows["stmt-2.4x-5070ti"][:5] == [
        "statement",
        "2.4 x",
        "2.382–2.384 x",
        "-0.018 to -0.016 x",
        "-0.8% to -0.6%",
    ]


def test_the_header_names_the_logs_folder_and_what_it_could_not_read(tmp_path, capsys, monkeypatch):
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(FX / "ingest" / "llama_bench_b11434.jsonl", logs)
    (logs / "notes.txt").write_text("not a llama.cpp output\n")
    monkeypatch.chdir(tmp_path)  # no params.yaml here: the defaults of Here
    out = _stdout(capsys, [str(CLOVER), "--logs", "logs"])
    assert out[0] == (
        f"audit of {CLOVER} (33 claims, 4 statements) checked against its own 33 claims; 2 log entries "
        "of 1 file in logs/ (1 file not read); reproducible here: llama.cpp b11434, CPU only "
        "(defaults: no params.yaml in this folder)"
    )
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in out[2:]}
    # -r 2 of tg 8 tokens: samples 100319596 and 111879129 ns -> 79.7451 and 71.5058 tok/s, mean
    # 75.6254393; the file's avg_ts 75.625439: a difference of +3e-7 tok/s (4e-7 %), shown at its
    # first significant digit, never as +0.000
    tg = rows["llama_bench_b11434.jsonl:2"]
    assert tg[:5] == ["log", "75.625439 tok/s", "75.625 tok/s", "+0.0000003 tok/s", "+0.0000004%"]
    assert rows["notes.txt"][:5] == ["log", "—", "—", "—", "—"]


def test_delta_of_a_negative_percent_change_and_of_a_stated_range():
    def verdict(unit, stated, recomputed) -> Verdict:
        return Verdict(
            claims_file="f",
            id="x",
            kind="statement",
            text="t",
            consistency="inconsistent",
            recomputed="/".join(f"{x:.3f}" for x in sorted(set(recomputed))),
            unit=unit,
            stated_lo=stated[0],
            stated_hi=stated[1],
            recomputed_lo=recomputed[0],
            recomputed_hi=recomputed[1],
            reproducible=Reproducible(here=False),
        )

    # a drop stated as -31.4 %, recomputed -31.733 %: -0.333 pp, 0.333 / 31.4 = 1.06 % of its size
    d = delta(verdict("%", (-31.4, -31.4), (-31.733, -31.733)))
    assert (d.stated, d.absolute, d.relative) == ("-31.4 %", "-0.333 pp", "-1.1%")
    # a stated range 6.11-6.34 tok/s against 6.5: [6.5 - 6.34, 6.5 - 6.11] = [0.16, 0.39];
    # [6.5 / 6.34 - 1, 6.5 / 6.11 - 1] = [2.5 %, 6.4 %]
    d = delta(verdict("tok/s", (6.11, 6.34), (6.5, 6.5)))
    assert (d.stated, d.absolute, d.relative) == (
        "6.11–6.34 tok/s",
        "+0.160 to +0.390 tok/s",
        "+2.5% to +6.4%",
    )
    # nothing to be relative to: a stated 0
    assert delta(verdict("tok/s", (0.0, 0.0), (0.5, 0.5))).relative == "—"


def test_the_page_shows_the_same_comparison(tmp_path):
    a = run.audit_file(CLOVER, here=Here())
    text = page.render(a.claims, a.verdicts, a.path.name)
    assert (
        "stated 57 %, recomputed 56.992–57.240 %<br>difference -0.008 to +0.240 pp (-0.01% to +0.4%)" in text
    )
    assert "stated 7 x, recomputed 6.732–6.998 x<br>difference -0.268 to -0.002 x (-3.8% to -0.02%)" in text


SOFTWARE = HEAD + (
    "software: {engine: llama.cpp, build: b11434}\n"
    "claims:\n"
    "  - {id: own, metric: decode_tps, value: 10, unit: tok/s, method: llama-bench tg128}\n"
    "  - {id: mine, metric: decode_tps, value: 12, unit: tok/s, method: llama-bench tg128,\n"
    "     conditions: {build: b9000}}\n"
    "  - {id: quoted, metric: decode_tps, value: 30, unit: tok/s, method: llama-bench tg128,\n"
    "     origin: a vendor}\n"
)


def test_the_software_block_is_the_build_of_the_sources_own_claims(tmp_path):
    p = tmp_path / "software.yaml"
    p.write_text(SOFTWARE)
    a = run.audit_file(p, here=Here())
    cf = a.claims
    builds = {c.id: tables.build_of(cf, c) for c in cf.claims}
    # own claims: software's engine and build; a claim's own build wins; a quoted claim gets none
    assert builds == {"own": "llama.cpp b11434", "mine": "llama.cpp b9000", "quoted": None}
    v = {x.id: x for x in a.verdicts}
    # before: "engine/build: not stated for own" and missing "build: not stated"
    assert "engine/build: not stated for own" not in v["own"].notes
    assert not any(m.startswith("build") for m in v["own"].reproducible.missing)
    assert "build: llama.cpp b9000 (here: llama.cpp b11434)" in v["mine"].reproducible.missing
    assert "build: not stated" in v["quoted"].reproducible.missing
    # the file's conditions still override software
    p.write_text(SOFTWARE.replace("software:", "conditions: {build: b8000}\nsoftware:"))
    cf = run.audit_file(p, here=Here()).claims
    assert tables.build_of(cf, cf.claims[0]) == "llama.cpp b8000"


def test_a_cpu_claim_on_a_cpu_host_names_the_cpu_not_a_gpu(tmp_path):
    # new user: "reproducible here: no — hardware: Intel Core i5-7200U (2 cores) (here: CPU only)" read as
    # if a GPU were needed; a system with a CPU and no GPU now says what differs
    p = tmp_path / "laptop.yaml"
    p.write_text(
        HEAD + "systems: [{id: laptop, hardware: Intel Core i5-7200U (2 cores), gpu: null, cpu: {cores: 2}},"
        " {id: pc, hardware: NVIDIA GeForce RTX 3080 Ti, gpu: {name: RTX 3080 Ti}}]\n"
        "environments: [{id: linux, system: laptop}, {id: win, system: pc}]\n"
        "software: {engine: llama.cpp, build: b11434}\nmodel: {name: SmolLM2-135M-Instruct}\n"
        "claims:\n"
        "  - {id: tg, metric: decode_tps, value: 98.4, unit: tok/s, method: llama-bench tg128,"
        " conditions: {env: linux}}\n"
        "  - {id: tg-gpu, metric: decode_tps, value: 300, unit: tok/s, method: llama-bench tg128,"
        " conditions: {env: win}}\n"
    )
    here = Here(models=frozenset({"SmolLM2-135M-Instruct"}))
    v = {x.id: x for x in run.audit_file(p, here=here).verdicts}
    assert v["tg"].reproducible.missing == [
        "hardware: Intel Core i5-7200U (2 cores), no GPU (here: this host's CPU, not necessarily that one)"
    ]
    assert v["tg-gpu"].reproducible.missing == ["hardware: NVIDIA GeForce RTX 3080 Ti (here: CPU only)"]


def test_the_page_shows_a_bound_as_its_margin_without_a_percent(tmp_path):
    audit = run.audit_file(CLOVER, here=Here())
    text = page.render(audit.claims, audit.verdicts, CLOVER.name)
    # 0.624..0.627 - 0.667 = -0.043..-0.040 x: the set's extreme lies below the bound by that much
    assert "margin to the bound -0.043 to -0.040 x<" in text
    assert "-6.3%" not in text
    assert "difference -0.008 to +0.240 pp (-0.01% to +0.4%)" in text  # a ratio keeps its % (stmt-57pct)

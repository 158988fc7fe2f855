"""spec_depth: log parsing, prompts at depth, the cost-model terms, and exact facts of the committed GPU
session (host e3618a24, H200)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from benchbook.experiments.spec_depth import analysis
from benchbook.experiments.spec_depth.run import prompt_tokens, server_argv, server_buffers
from benchbook.paths import public_path
from conftest import committed_root

# two statistics lines of one llama-server log (the statistics parser itself: tests/test_specstats.py)
from test_specstats import DRAFT_LOG as LOG  # noqa: E402

GPU_HOST = "e3618a24b4e44752"


def test_server_buffers():
    assert server_buffers(LOG) == [{"what": "CPU KV buffer size", "mib": 5.62}]


def test_prompt_at_depth():
    toks = list(range(100))
    assert prompt_tokens(toks, 0, 16) == list(range(16))  # depth 0: min_prompt tokens
    assert prompt_tokens(toks, 64, 16) == list(range(64))
    with pytest.raises(ValueError, match="depth 200: the context has 100 tokens"):
        prompt_tokens(toks, 200, 16)


def test_server_argv_logs_the_draft_counters_and_offloads_the_draft():
    cfg = {"n_gpu_layers": 99, "flash_attn": "auto", "threads": 16, "depths": [0, 8064], "n_gen": 128}
    target, draft = {"path": "/t.gguf"}, {"path": "/d.gguf"}
    spec = server_argv(Path("srv"), target, draft, {"role": "speculative", "n_max": 4}, cfg)
    base = server_argv(Path("srv"), target, None, {"role": "baseline"}, cfg)
    assert spec[spec.index("-lv") + 1] == "4" and base[base.index("-lv") + 1] == "4"
    assert spec[spec.index("-ngld") + 1] == "99" and "-ngld" not in base
    assert spec[spec.index("-md") + 1] == "/d.gguf" and spec[spec.index("--spec-draft-n-max") + 1] == "4"
    assert base[base.index("-c") + 1] == str(8064 + 128 + 64)  # deepest prompt + n_gen + 64


@pytest.fixture(scope="module")
def gpu_depth() -> pl.DataFrame:
    t = analysis.depth_table(committed_root() / "data" / "raw")
    return t.filter(pl.col("host_id") == GPU_HOST)


def _row(t: pl.DataFrame, cid: str, depth: int) -> dict:
    return t.filter((pl.col("config_id") == cid) & (pl.col("depth") == depth)).row(0, named=True)


def test_committed_gpu_depth_sweep(gpu_depth):
    # 8 configurations x 4 depths, 3 repetitions each
    assert gpu_depth.height == 32 and set(gpu_depth["n"]) == {3}
    assert sorted(gpu_depth["depth"].unique()) == [0, 2048, 4096, 8064]
    r = _row(gpu_depth, "self-n4", 8064)
    # decode rate 326.7 tok/s against the baseline's 689.9 (means over 3 repetitions)
    assert round(r["decode_tps"], 1) == 326.7 and round(r["speedup"], 3) == 0.474
    assert r["output_match"] is False  # greedy output differs from plain decoding at depth 8064 here
    assert _row(gpu_depth, "self-n4", 0)["output_match"] is True


def test_committed_gpu_cost_model_residuals(gpu_depth):
    r = _row(gpu_depth, "self-n4", 0)
    # llama-bench medians at depth 0: tg step 138071830 ns / 128 = 1078686 ns; pp1 median 1163083 ns
    # (its repetitions 5859506, 1163083, 1069942: the cold first one decided the mean) -> r(1) = 1.078;
    # r(3) = 1333003 / 1078686 = 1.2358, r(5) = 1426398 / 1078686 = 1.3223, r(4.885) = 1.3174
    assert round(r["cost_r1"], 3) == 1.078 and round(r["r_k1"], 4) == 1.3174
    # before: tau 4.885 / (3.885 * 1 + 1.3174) = 0.939 against 0.429 measured: +119%
    assert round(r["model_before"], 3) == 0.939 and round(r["residual_before"], 2) == 1.19
    # after: the baseline step (166.327 + 166.359 + 163.091) / (3 * 127) = 1.30125 ms (predicted_n − 1
    # each); c_server = (251.285 + 202.128 + 196.107) / 303 / 1.30125 = 1.647 -> 0.633, +48%
    assert round(r["c_server"], 3) == 1.647 and round(r["residual_after"], 2) == 0.48
    spec = gpu_depth.filter(pl.col("role") == "speculative")
    assert (spec["residual_after"].abs() < spec["residual_before"].abs()).all()


def test_committed_gpu_cost_rows_fail_the_r1_check_beyond_depth_0(gpu_depth):
    from benchbook import caveats

    spec = caveats.with_cost_caveats(gpu_depth.filter(pl.col("role") == "speculative"), None)
    r1 = {d: round(x, 2) for d, x in spec.select("depth", "cost_r1").unique().iter_rows()}
    # pp1 medians ÷ tg step: depth 0 1163083 / 1078686 = 1.08; depth 2048 3308089 / (159334788 / 128)
    # = 2.66 (the first two of three repetitions of each pp test slow): outside 0.67-1.5
    assert r1 == {0: 1.08, 2048: 2.66, 4096: 2.54, 8064: 2.48}
    flagged = spec.filter(pl.col("cost_caveats").list.len() > 0)
    assert sorted(flagged["depth"].unique()) == [2048, 4096, 8064] and flagged.height == 15
    assert flagged["cost_caveats"].to_list() == [["cost_rows_disturbed"]] * 15


def test_committed_gpu_memory_per_draft_token(gpu_depth):
    mem = analysis.memory_per_draft_token(gpu_depth)
    assert mem.height == 4 and mem["mib_per_draft_token"].to_list() == [0.0, 0.0, 0.0, 0.0]


def test_gpu_merge_appends_returned_lines_and_snapshot_kinds(tmp_path):
    import shutil
    import subprocess

    root = Path(__file__).resolve().parents[1]
    (tmp_path / "scripts").mkdir()
    shutil.copy(root / "scripts" / "gpu_merge.sh", tmp_path / "scripts" / "gpu_merge.sh")
    back = tmp_path / "back"
    back.mkdir()
    (back / "spec_depth__h1.jsonl").write_text('{"a": 1}\n{"a": 2}\n')
    (back / "snapshots-hosts__h1.jsonl").write_text('{"host_id": "h1"}\n')
    (back / "other__h1.jsonl").write_text("{}\n")
    hosts = tmp_path / "data" / "raw" / "snapshots" / "hosts" / "h1.jsonl"
    hosts.parent.mkdir(parents=True)
    hosts.write_text('{"host_id": "h1"}\n')  # stored once: not appended again
    out = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "gpu_merge.sh"), str(back)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "data" / "raw" / "spec_depth" / "h1.jsonl").read_text() == '{"a": 1}\n{"a": 2}\n'
    assert hosts.read_text() == '{"host_id": "h1"}\n'
    assert "skip other__h1.jsonl" in out.stdout


def test_a_request_without_the_servers_counters_is_left_out_of_the_pooled_terms(tmp_path):
    # GPU session, self-n4 at depth 0: three requests of 101 drafted tokens, 26 draft steps each; the
    # first one's spec_stats emptied (its statistics line came late: the runner records {}).  Before:
    # drafted summed over 3 requests, steps and drafting time over 2: k 303/52 = 5.83 (was 3.88),
    # c_server 1.02 (1.66), v_server 11.49 (5.16), overhead 7.72 (2.39).  Right: every sum over the two
    # requests with counters: k = 202/52, c_server = (202.128 + 196.107) / 202 / b, v_server =
    # ((366.537 + 350.946) - 398.235) / 52 / b, with b (ms per baseline token) as in the full table
    import json

    src = committed_root() / "data" / "raw" / "spec_depth" / "e3618a24b4e44752.jsonl"
    (tmp_path / "spec_depth").mkdir()
    out, emptied = [], False
    for line in src.read_text().splitlines():
        r = json.loads(line)
        if r.get("config_id") == "self-n4" and r.get("depth") == 0 and r.get("spec_stats") and not emptied:
            r["spec_stats"], emptied = {}, True
        out.append(json.dumps(r))
    (tmp_path / "spec_depth" / src.name).write_text("\n".join(out) + "\n")
    full = _row(
        analysis.depth_table(committed_root() / "data" / "raw").filter(pl.col("host_id") == GPU_HOST),
        "self-n4",
        0,
    )
    part = _row(analysis.depth_table(tmp_path), "self-n4", 0)
    b = (251.285 + 202.128 + 196.107) / 303 / full["c_server"]  # the baseline step, ms
    assert part["k"] == pytest.approx(202 / 52) and part["tau"] == pytest.approx(full["tau"])
    assert part["c_server"] == pytest.approx((202.128 + 196.107) / 202 / b)
    assert part["v_server"] == pytest.approx(((366.537 + 350.946) - (202.128 + 196.107)) / 52 / b)
    assert part["alpha"] == full["alpha"] == 1.0  # from the timings of all three


def test_committed_sessions_are_stated_from_the_session_records():
    """Item 18 of the new-user report: the page said the CPU host's session "has no end record" while
    ``benchbook hosts`` listed two complete sessions and the page showed one of them; the sessions'
    states are now generated from the records: the newest passing one published, the older passing
    one named as such, the first (no end record) never published."""
    from benchbook.experiments.spec_depth.sessions import session_states, sessions_markdown

    states = session_states(committed_root() / "data" / "raw")
    got = {h[:8]: [(c.session_id[:8], s) for c, s in cs] for h, cs in states.items()}
    assert got == {
        "3f1dfa40": [("f349b5cc", "published"), ("5d2b86d3", "older"), ("1b5cda51", "unfinished")],
        "e3618a24": [("23d37a94", "published")],
    }
    md = sessions_markdown(states)
    assert "  - session `f349b5cc` (2026-12-01 04:21 to 2026-12-01 04:23 UTC): published: " in md
    assert "  - session `1b5cda51` (2026-11-30 21:32 to 2026-11-30 22:41 UTC): no end record: " in md


def test_spec_depth_page_prose_states_no_session_fact_by_hand():
    """The page's own prose names no session's state or rate level (they come from ``sessions.md``):
    the stale sentences of item 18 are gone and the generated list is included."""
    page = (Path(__file__).resolve().parents[1] / "spec_depth.qmd").read_text()
    for stale in ("has no end record", "order of magnitude", "the list below says why"):
        assert stale not in page
    assert "{{< include reports/spec_depth/sessions.md >}}" in page


#: The depth tables the page includes, and their label columns: the cells that are numbers but not
#: numbers of a measurement (a depth, a repetition or prompt count).
TABLES = ("bench", "server", "cost_model", "memory", "hosts")
LABELS = {"depth", "n_depth", "n", "prompts"}
_NUMERIC = re.compile(r"[-+−]?(\d[\d,]*(\.\d+)?|\.\d+)")


def plain_numeric_cells(md: str) -> list[tuple[str, str]]:
    """(column heading, cell) of every cell of the Markdown pipe table ``md`` that is a number written
    as plain text, not a ``{{< var … >}}`` link (a link's cell is the shortcode itself)."""
    rows = [line for line in md.splitlines() if line.startswith("|")]
    if len(rows) < 2:
        return []
    head = [c.strip() for c in rows[0].strip("|").split("|")]
    return [
        (h, c)
        for line in rows[2:]
        for h, c in zip(head, (c.strip() for c in line.strip("|").split("|")), strict=True)
        if _NUMERIC.fullmatch(c)
    ]


def test_plain_numeric_cells_counts_what_a_reader_sees():
    md = "| depth | tok/s | x |\n|---|---|---|\n| 256 | {{< var k__v >}} | 1,234.5 |\n| 0 | – | -0.2 |\n"
    assert plain_numeric_cells(md) == [("depth", "256"), ("x", "1,234.5"), ("depth", "0"), ("x", "-0.2")]


def test_every_number_on_the_depth_tables_is_a_linked_cell(tmp_path):
    """Item 17 of the new-user report, then issue 26: the depth tables printed 666 numbers as plain text
    (τ, k, c, r(k+1), the models, the server's terms: 406 cells of cost_model.md less its depth labels;
    prefill rates, τ and peak memory in server.md; the llama-bench rates; the memory slopes; the
    speculative experiment per host), none of them in the registry.  Every number a table shows is now a
    published number and its cell the ``{{< var KEY__v >}}`` link (the site renders it linked to its
    provenance entry); the only plain numbers left are labels: depths, repetition and prompt counts.
    No cell names a key the registry lacks, and the registry holds no number the tables do not show."""
    import json

    from benchbook.experiments.spec_depth import report

    rep = report.build({}, root=committed_root(), raw_dir=Path("data/raw"), reports_dir=tmp_path)
    keys = {n.key for n in rep.numbers}
    md = {t: (tmp_path / "spec_depth" / f"{t}.md").read_text() for t in TABLES}
    plain = {t: [c for c in plain_numeric_cells(md[t]) if c[0] not in LABELS] for t in TABLES}
    assert plain == {t: [] for t in TABLES}
    labels = [h for t in TABLES for h, _ in plain_numeric_cells(md[t])]
    # depths (50 server rows, 29 cost-model rows, 4 memory rows, 21 llama-bench rows), 50 repetition
    # counts, 36 prompt counts
    assert len(labels) == 190 and set(labels) == LABELS
    used = set(re.findall(r"\{\{< var (\S+)__v >\}\}", "".join(md.values())))
    # 237 numbers before; 637 added: 13 columns of cost_model.md x 29 (τ also in server.md), server.md's
    # prefill rates (50) and peak memory (32), 42 llama-bench rates, 4 memory slopes, 132 per-host numbers
    assert len(keys) == 874 and used == keys
    registry = json.loads((tmp_path / "numbers" / "spec_depth.json").read_text())["numbers"]
    assert set(registry) == keys
    row = next(
        line for line in md["server"].splitlines() if line.startswith("| 3f1dfa40cbf1eb67 | baseline | 0 |")
    )
    assert row == (
        "| 3f1dfa40cbf1eb67 | baseline | 0 | 2 | {{< var spec_depth-h3f1dfa40-baseline-d0-decode_tps__v >}} "
        "| {{< var spec_depth-h3f1dfa40-baseline-d0-speedup__v >}} "
        "| {{< var spec_depth-h3f1dfa40-baseline-d0-prefill_tps__v >}} "
        "| {{< var spec_depth-h3f1dfa40-baseline-d0-prefill_ratio__v >}} | – | – | – |"
    )


def test_depth_numbers_name_their_model_file_and_times(tmp_path):
    """Item 31's sibling on the depth page: its numbers named no model_sha256 and no measured times, so
    "What was measured" read "Model files: —"; each now names the target model's file (SmolLM2-135M
    Q4_1, b179c952…) and the span of its runs and its baseline's."""
    from benchbook import sitepages
    from benchbook.experiments.spec_depth import report
    from benchbook.numbers import load_all

    rep = report.build({}, root=committed_root(), raw_dir=Path("data/raw"), reports_dir=tmp_path)
    by = {n.key: n for n in rep.numbers}
    q41 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    q2k = "1733ab14bc423774519aa464e0d74e190617e877c9d0aa07a698b500d1788895"
    trunc20 = "9eca2a3edd55aff172b90bf176ac0a27f05e96606c0202f3239c853b36fca015"  # trunc20-of-b179c9523d0e
    assert {n.model_sha256 for n in rep.numbers} == {q41, q2k, trunc20}
    # a draft_only row serves the draft model alone: its file, not the target's
    assert by["spec_depth-h3f1dfa40-q2k-alone-d0-decode_tps"].model_sha256 == q2k
    n = by["spec_depth-h3f1dfa40-baseline-d0-decode_tps"]
    assert (n.measured_from[:16], n.measured_to[:16]) == ("2026-12-01T04:22", "2026-12-01T04:23")
    nums = load_all(tmp_path / "numbers")
    snaps = sitepages.read_snapshots(committed_root() / "data" / "raw" / "snapshots")
    md = sitepages.measured_md(nums, "spec_depth", snaps)
    assert "- **Model files:** " in md and f"smollm2-135m-q4&#95;1 `sha256:{q41}`" in md


# --- the report engine on the depth numbers (issue 26): caveats, intervals, run ids, build labels -------


@pytest.fixture(scope="module")
def depth_numbers(tmp_path_factory) -> dict:
    """``{key: Number}`` of the report built from the committed raw data with params.yaml."""
    import yaml

    from benchbook.experiments.spec_depth import report

    root = committed_root()
    params = yaml.safe_load((root / "params.yaml").read_text())
    out = tmp_path_factory.mktemp("reports")
    rep = report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=out)
    return {n.key: n for n in rep.numbers}


def _first_six(numbers: dict) -> list:
    """The numbers of the six depth-table columns published before every table cell was (issue 26)."""
    six = ("decode_tps", "speedup", "prefill_ratio", "residual_before", "residual_after", "residual_overhead")
    return [n for k, n in numbers.items() if re.search(r"-d\d+-(" + "|".join(six) + ")$", k)]


def _requests(host: str, config_id: str, depth: int) -> list[dict]:
    """The committed requests of one configuration at one depth of the host's published session, by rep."""
    import json

    src = committed_root() / "data" / "raw" / "spec_depth" / f"{host}.jsonl"
    recs = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
    sessions = {"e3618a24b4e44752": "23d37a94", "3f1dfa40cbf1eb67": "f349b5cc"}
    return sorted(
        (
            r
            for r in recs
            if r.get("schema") == "benchbook.spec_depth.request"
            and r["session_id"].startswith(sessions[host])
            and (r["config_id"], r["depth"]) == (config_id, depth)
        ),
        key=lambda r: r["rep"],
    )


def test_depth_numbers_carry_the_speculative_rules(depth_numbers):
    """The depth numbers skipped the caveat engine: none carried a caveat.  Each now carries its row's
    caveats from the ``speculative`` kind's rules (the recomputation's counts: 81 numbers with n = 2,
    108 of speculative rows whose greedy output differs from the baseline's, 117 with a decode cv
    above 5%)."""
    from collections import Counter

    counts = Counter(c for n in _first_six(depth_numbers) for c in n.caveats)
    assert (counts["single_run"], counts["output_mismatch"], counts["high_variance"]) == (81, 108, 117)
    # the CPU host's baseline at depth 0: 2 repetitions < min_n 3; each stopped at the 16-token cap
    # (ignore_eos) with the baseline's own 16 tokens: equal work, the cap chosen by the experiment
    n = depth_numbers["spec_depth-h3f1dfa40-baseline-d0-decode_tps"]
    assert (n.n, n.caveats, n.ci95, n.ci_method) == (2, ["cap_by_design", "single_run"], None, "none: n < 3")
    # trunc20-n2 at depth 2048 on the GPU: its greedy tokens differ from the baseline's of the same rep
    mine, base = (_requests(GPU_HOST, c, 2048) for c in ("trunc20-n2", "baseline"))
    assert [m["tokens"] == b["tokens"] for m, b in zip(mine, base, strict=True)] != [True] * 3
    for col in ("decode_tps", "speedup", "prefill_ratio", "residual_before", "residual_after"):
        assert "output_mismatch" in depth_numbers[f"spec_depth-he3618a24-trunc20-n2-d2048-{col}"].caveats
    # self-n4 at depth 8064 stopped ("limit") after 125 tokens where the baseline stopped after 128:
    # unequal work, so cap_hit (a warning), not cap_by_design (a note)
    assert {r["timings"]["predicted_n"] for r in _requests(GPU_HOST, "self-n4", 8064)} == {125}
    caveats = depth_numbers["spec_depth-he3618a24-self-n4-d8064-speedup"].caveats
    assert "cap_hit" in caveats and "cap_by_design" not in caveats


def test_depth_rates_and_ratios_have_the_log_scale_interval(depth_numbers):
    """96 depth rates and speed ratios with n >= 3 had no interval.  The GPU baseline's decode rate at
    depth 0 over its 3 requests (predicted_per_second 763.556, 763.409, 778.706): mean 768.557, sd 8.790,
    cv 0.011437; 768.557 · exp(± 4.302653 · 0.011437 / √3) = 768.557 · exp(± 0.028410) = [747.03, 790.71].
    self-n4's speedup there (329.804 ÷ 768.557 = 0.42912), paired by repetition
    (stats.paired_ratio_interval): d_i = x_i/329.804 − b_i/768.557 = (−0.14133, 0.05728, 0.08405), sd
    0.123126; 0.42912 · exp(± 4.302653 · 0.123126 / √3) = 0.42912 · exp(± 0.30586) = [0.31604, 0.58266]."""
    rates = [n for n in _first_six(depth_numbers) if n.unit in ("tok/s", "×")]
    assert sum(n.n >= 3 for n in rates) == 96
    assert all((n.ci95 is not None) == (n.n >= 3) for n in rates)
    decode = depth_numbers["spec_depth-he3618a24-baseline-d0-decode_tps"]
    assert decode.ci95 == pytest.approx([747.0297, 790.7052], rel=1e-6)
    assert decode.sd == pytest.approx(8.7897, rel=1e-4)
    assert decode.ci_method == "student-t on the log scale (delta method), n >= 3 over per-repetition rates"
    speedup = depth_numbers["spec_depth-he3618a24-self-n4-d0-speedup"]
    assert speedup.value == 0.4291 and speedup.ci95 == pytest.approx([0.316042, 0.582658], rel=1e-5)
    assert "paired by repetition" in speedup.ci_method and "paired" in speedup.replication
    # 0.583 < 1: slower than its baseline; α >= 0.5 with no speedup
    assert {"slower_than_baseline", "acceptance_without_speedup"} <= set(speedup.caveats)
    # the baseline divided by itself: the point 1; a residual (may be negative) has no interval
    assert depth_numbers["spec_depth-he3618a24-baseline-d0-speedup"].ci95 == [1.0, 1.0]
    assert depth_numbers["spec_depth-he3618a24-self-n4-d0-residual_after"].ci95 is None


def test_depth_numbers_name_their_runs_commands_and_build(depth_numbers):
    """``run_ids`` was empty on all 237 depth numbers and ``build`` showed a toolchain id (the private
    snapshot reader missed the host-keyed files ``snapshots/toolchains/<host_id>.jsonl``).  A speedup
    names its 3 requests and its baseline's 3 (each llama-server argv differs by its port); a residual
    also the llama-bench invocation of its cost model; the build reads the toolchain snapshot."""
    assert all(n.run_ids and n.commands for n in depth_numbers.values())
    speedup = depth_numbers["spec_depth-he3618a24-self-n4-d0-speedup"]
    mine, base = (_requests(GPU_HOST, c, 0) for c in ("self-n4", "baseline"))
    assert sorted(speedup.run_ids) == sorted(r["run_id"] for r in mine + base)
    # published with no folder of the measuring machine (paths.public_path: <cache>/…)
    public = [tuple(public_path(a) for a in r["argv"]) for r in mine + base]
    assert sorted(map(tuple, speedup.commands)) == sorted(public)
    assert all(a.startswith("<cache>/") for c in speedup.commands for a in c if "/" in a)
    assert (speedup.build, speedup.build_number) == ("b11434 (unknown) cuda", 11434)
    cpu = depth_numbers["spec_depth-h3f1dfa40-q2k-n4-d0-residual_after"]
    assert cpu.build == "b11434 (unknown) cpu"
    assert len(cpu.run_ids) == 5  # 2 requests, the baseline's 2, the target's llama-bench invocation
    assert any(c[0].endswith("llama-bench") for c in cpu.commands)


def test_cost_model_terms_are_published_from_their_own_records(depth_numbers):
    """The cost-model cells (cost_model.md) are published numbers citing what each read.  The GPU's
    self-n4 at depth 0: 3 requests of 101 drafted and 101 accepted tokens in 26 verify steps each,
    predicted_n 128 (127 tokens after the prompt pass): committed min(26 + 101, 127) = 127 per request,
    τ = 381 / 78 = 4.8846, k = 303 / 78 = 3.8846, both from its 3 requests alone; c = 1 (the target as
    its own draft: no llama-bench row read, so no cost-model rule).  q2k-n4 at depth 2048: c = the
    draft's tg step ÷ the target's, medians of 3 repetitions (147325155 ns ÷ 159334788 ns, 128 tokens
    each) = 0.9246, from those two rows and its own requests, flagged cost_rows_disturbed (r(1) = 2.66
    at that depth)."""
    tau, k = (depth_numbers[f"spec_depth-he3618a24-self-n4-d0-{c}"] for c in ("tau", "k"))
    mine = _requests(GPU_HOST, "self-n4", 0)
    assert (tau.value, tau.unit, k.value, k.unit) == (4.8846, "tok/step", 3.8846, "drafted/step")
    assert sorted(tau.run_ids) == sorted(r["run_id"] for r in mine) == sorted(k.run_ids)
    c = depth_numbers["spec_depth-he3618a24-self-n4-d0-c_bench"]
    assert (c.value, c.unit, "cost_rows_disturbed" in c.caveats, len(c.run_ids)) == (
        1.0, "×", False, 3
    )  # fmt: skip
    c = depth_numbers["spec_depth-he3618a24-q2k-n4-d2048-c_bench"]
    assert c.value == round(147325155 / 159334788, 4) == 0.9246 and "cost_rows_disturbed" in c.caveats
    assert any(cmd[0].endswith("llama-bench") for cmd in c.commands) and len(c.run_ids) == 5  # 3 + 2 rows
    # the residual (published before) and its model agree: model_before ÷ measured − 1
    m, s = (depth_numbers[f"spec_depth-he3618a24-self-n4-d0-{x}"] for x in ("model_before", "speedup"))
    assert round(m.value / s.value - 1, 2) == round(
        depth_numbers["spec_depth-he3618a24-self-n4-d0-residual_before"].value, 2
    )


def test_llama_bench_and_prefill_rates_have_their_intervals(depth_numbers):
    """bench.md's rates and server.md's prefill rates, with the log-scale interval of a rate (n = 3).
    GPU q4_1 pp512 at depth 2048: per-repetition rates 512e9 / (11196762, 20046229, 10392174) ns =
    (45727.5, 25541.0, 49267.8) tok/s, mean 40178.77 (llama-bench's avg_ts), sd 12799.7;
    40178.77 · exp(± 4.302653 · 12799.7 / 40178.77 / √3) = 40178.77 · exp(± 0.79137) = [18209.98, 88651.05];
    the first two repetitions slow (cv 0.32 > 5%) and r(1) at that depth 2.66: high_variance and
    cost_rows_disturbed.  The GPU baseline's prefill rate at depth 0 over its 3 requests
    (prompt_per_second 1039.636, 877.819, 1121.626): mean 1013.027, sd 124.063;
    1013.027 · exp(± 4.302653 · 124.063 / 1013.027 / √3) = [747.30, 1373.23]."""
    pp = depth_numbers["spec_depth-he3618a24-bench-smollm2-135m-q4_1-d2048-pp512"]
    assert (pp.value, pp.n, pp.unit) == (40178.7708, 3, "tok/s")
    assert pp.ci95 == pytest.approx([18209.98, 88651.05], rel=1e-6) and pp.sd == pytest.approx(
        12799.709, rel=1e-6
    )
    assert pp.caveats == ["high_variance", "cost_rows_disturbed"] and len(pp.sources[0]["lines"]) == 1
    tg = depth_numbers["spec_depth-h3f1dfa40-bench-smollm2-135m-q4_1-d0-tg16"]
    assert (tg.n, tg.ci95, tg.caveats) == (2, None, ["single_run"])  # -r 2 on the CPU host
    pre = depth_numbers["spec_depth-he3618a24-baseline-d0-prefill_tps"]
    assert pre.value == 1013.027 and pre.ci95 == pytest.approx([747.3041, 1373.2345], rel=1e-6)
    # every rate, and every measured speed ratio, has an interval exactly when n >= 3
    measured = [
        n for n in depth_numbers.values()
        if n.unit == "tok/s" or n.key.endswith(("-speedup", "-prefill_ratio"))
    ]  # fmt: skip
    assert len(measured) == 50 * 4 + 42 + 36 and all((n.ci95 is not None) == (n.n >= 3) for n in measured)


def test_speculative_experiment_per_host_is_published_with_its_prompts(depth_numbers):
    """hosts.md: the speculative experiment's self-n4 on the GPU host, its newest session (5b481365):
    per-prompt speedups 0.41040, 0.45067, 0.41628, 0.49289 (each paired with its own baseline), mean
    0.44256, sd 0.037965; 0.44256 · exp(± 3.182446 · 0.037965 / 0.44256 / √4) = 0.44256 · exp(± 0.13650)
    = [0.38609, 0.50729], over 4 < 30 prompts: few_prompts; output_mismatch from its prompts' rows."""
    n = depth_numbers["spec_depth-he3618a24-speculative-self-n4-speedup"]
    assert (n.value, n.n, n.unit, n.session_id[:8]) == (0.4426, 4, "×", "5b481365")
    assert n.ci95 == pytest.approx([0.386090, 0.507287], rel=1e-5) and n.replication.startswith("prompts")
    assert {"few_prompts", "output_mismatch", "slower_than_baseline"} <= set(n.caveats)
    files = {s["file"] for s in n.sources}
    assert files == {"data/raw/speculative/e3618a24b4e44752.jsonl"} and len(n.run_ids) == 24  # 4 x 3 x 2
    model = depth_numbers["spec_depth-he3618a24-speculative-self-n4-model"]
    assert model.ci95 is None and any(c[0].endswith("llama-bench") for c in model.commands)


def test_memory_slope_is_published(depth_numbers):
    """memory.md: peak GPU memory 1205 MiB for each of self-n4, -n8 and -n15 at depth 0 (nvidia-smi):
    slope 0 MiB per draft token over the 3 configurations, citing their 9 requests."""
    n = depth_numbers["spec_depth-he3618a24-mem-smollm2-135m-q4_1-d0-mib_per_draft_token"]
    assert {
        r["peak_gpu_mem_mib"] for c in ("self-n4", "self-n8", "self-n15") for r in _requests(GPU_HOST, c, 0)
    } == {1205}
    assert (n.value, n.unit, n.n, n.ci95, len(n.run_ids)) == (0.0, "MiB/draft token", 3, None, 9)


def test_a_server_that_breaks_mid_visit_records_every_request_it_owed(tmp_path, monkeypatch):
    # before: the visit's one run_failed record had no run_key (SchemaError: the session stopped there)
    import json

    from benchbook.experiments.spec_depth import run
    from benchbook.experiments.spec_depth.plan import SpecDepthParams, request_runs
    from benchbook.llamacpp.server import ServerError
    from benchbook.records import read_records
    from benchbook.session import Session

    class Server:
        made: list = []

        def __init__(self, argv, _log_path, **_kw):
            self.argv, self.pid, self.peak_rss_bytes, self.stopped = list(argv), 7, 0, 0
            Server.made.append(self)

        def start(self):
            return self

        def stop(self):
            self.stopped += 1

        def request_json(self, _method, _path, _body, **_kw):
            return {"tokens": list(range(100))}  # /tokenize of the context

        def log_text(self, _start=None):
            return ""

        def log_tail(self, _n=4000):
            return "ggml_abort"

    def one_request(srv, tokens, cfg, timeout):
        if len(tokens) > 16:  # the request at depth 32: the server dies
            raise ServerError("POST /completion: server exited -6", "crashed", "ggml_abort", -6)
        return {"timings": {"predicted_n": 4}, "tokens": [1, 2, 3, 4], "content": "abcd"}, 1.0, None

    monkeypatch.setattr(run.servervisit, "LlamaServer", Server)  # the visit starts the server
    monkeypatch.setattr(run, "one_request", one_request)
    monkeypatch.setattr(run.time, "sleep", lambda s: None)
    cfg = SpecDepthParams.from_section({"depths": [0, 32, 64], "repetitions": 1, "n_gen": 4}).config()
    target = {"model_id": "t", "path": "t.gguf", "sha256": "t" * 64}
    runs = request_runs(cfg, target, {}, "tc", "h")  # baseline at depths 0, 32, 64
    base = {"experiment": "spec_depth", "host_id": "h", "toolchain_id": "tc", "profile": None}
    raw = tmp_path / "x.jsonl"
    with Session.open(raw, "spec_depth", {}) as sess:
        base = {"session_id": sess.session_id, **base, "git_commit": None, "git_dirty": None}
        with run.server_visit(
            sess, runs, server_bin=Path("llama-server"), context="x", cfg=cfg, base=base, log_dir=tmp_path
        ) as measure:
            outcomes = [measure(sess, r) for r in runs]
    assert [(o.ok, o.required) for o in outcomes] == [(True, True), (False, False), (False, False)]
    assert outcomes[1].error == "crashed: POST /completion: server exited -6" == outcomes[2].error
    assert len(Server.made) == 1 and Server.made[0].stopped == 1
    ok = read_records([raw], "benchbook.spec_depth.request")
    failed = read_records([raw], "benchbook.run_failed")
    assert [r["depth"] for r in ok] == [0] and ok[0]["run_key"] == runs[0].key
    # one record per request the broken server owed, with its key: the plan's depths 32 and 64
    assert [(r["run_key"], r["kind"], r["returncode"]) for r in failed] == [
        (runs[1].key, "crashed", -6),
        (runs[2].key, "crashed", -6),
    ]
    assert json.loads(raw.read_text().splitlines()[-1])["event"] == "end"

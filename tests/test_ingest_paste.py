"""Issue examples (#20 and #11 section 2), each a regression test with its right value: output pasted
into issue text, old and fork spellings, comparison and sweep-bench tables, server-log wordings."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import ingest
from benchbook.ingest import IngestError

HEADER = (
    "| model                          |       size |     params | backend    | ngl |            test |"
    "                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: |"
    " -------------------: |\n"
)


def row(test: str, ts: str, backend: str = "CUDA") -> str:
    return (
        f"| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | {backend}       |  99 "
        f"| {test} | {ts} |\n"
    )


def read(tmp_path: Path, text: str, fmt: str = "auto", **kw) -> ingest.Ingested:
    p = tmp_path / "paste.md"
    p.write_text(text)
    return ingest.ingest_text(p, text, fmt, **kw)


def lb(got: ingest.Ingested) -> list[dict]:
    return [r["llama_bench"] for r in got.records]


# --- 1. output anywhere in a pasted text --------------------------------------------------------------


def test_device_lines_command_fence_and_heading_are_skipped_and_named(tmp_path):
    text = (
        "### My results\n"
        "```\n"
        "$ ./llama-bench -m model.gguf\n"
        "ggml_cuda_init: found 1 CUDA devices:\n"
        "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n"
        + HEADER
        + row("pp512", "1000.00 ± 10.00")
        + row("tg128", "100.00 ± 1.00")
        + "\nbuild: abc1234 (1000)\n```\n"
    )
    got = read(tmp_path, text)
    assert [(x["n_prompt"], x["avg_ts"], x["build_number"]) for x in lb(got)] == [
        (512, 1000.0, 1000),
        (0, 100.0, 1000),
    ]
    assert [r["source_line"] for r in got.records] == [8, 9]
    assert got.skipped == [
        "lines 1-5: skipped (heading, code fence, command line, device lines)",
        "line 12: skipped (code fence)",
    ]


def test_device_lines_before_json_output_are_skipped(tmp_path):
    rec = {"build_commit": "abc1234", "build_number": 1000, "n_prompt": 512, "n_gen": 0, "avg_ts": 1000.0}
    text = "ggml_vulkan: Found 1 Vulkan devices:\nggml_vulkan: 0 = AMD Radeon RX 580\n" + json.dumps(
        [rec], indent=2
    )
    got = read(tmp_path, text)
    assert [(x["n_prompt"], x["avg_ts"]) for x in lb(got)] == [(512, 1000.0)] and got.records[0][
        "source_line"
    ] == 4
    # -o csv after device lines, too
    csv = (
        "ggml_cuda_init: found 1 CUDA devices:\n"
        "build_commit,build_number,n_prompt,n_gen,avg_ts\nabc,1000,0,128,99.5\n"
    )
    assert [x["avg_ts"] for x in lb(read(tmp_path, csv))] == [99.5]
    # a truncated -o json run still gets the hint about the closing ']'
    with pytest.raises(IngestError, match=r"paste\.md:\d+: not valid JSON .*closing '\]'"):
        read(tmp_path, 'ggml_vulkan: Found 1 Vulkan devices:\n[\n  {\n    "n_prompt": 512,\n')


# --- 2. every table, each with its own build line -----------------------------------------------------


def test_every_table_reads_with_the_build_line_after_it(tmp_path):
    text = (
        HEADER
        + row("pp512", "1000.00 ± 10.00")
        + "\nbuild: abc1234 (1000)\n"
        + HEADER
        + row("pp512", "1100.00 ± 10.00")
        + "\nbuild: def5678 (1001)\n"
    )
    got = read(tmp_path, text)
    # before: 1 record (the first table); now 2, each with its own build
    assert [(x["build_commit"], x["build_number"], x["avg_ts"]) for x in lb(got)] == [
        ("abc1234", 1000, 1000.0),
        ("def5678", 1001, 1100.0),
    ]


@pytest.mark.parametrize(
    "between", ["\nSome prose in between.\n\n", "\n## Second run\n\n", "\n---\n\n", "\n"]
)
def test_tables_separated_by_prose_headings_rules_or_a_blank_line(tmp_path, between):
    text = HEADER + row("pp512", "1000.00 ± 10.00") + between + HEADER + row("tg128", "100.00 ± 1.00")
    assert [(x["n_prompt"], x["n_gen"]) for x in lb(read(tmp_path, text))] == [(512, 0), (0, 128)]


def test_a_hand_written_summary_table_is_skipped_with_a_note(tmp_path):
    text = "| GPU | speed |\n|---|---|\n| 4090 | fast |\n\n" + HEADER + row("pp512", "1000.00 ± 10.00")
    got = read(tmp_path, text)
    assert [x["avg_ts"] for x in lb(got)] == [1000.0]
    assert got.skipped == ["lines 1-3: table with columns GPU, speed: not llama-bench output, not read"]


def test_a_build_line_before_the_table_applies_and_a_disagreeing_build_hint_is_an_error(tmp_path):
    text = "build: abc1234 (1000)\n\n" + HEADER + row("pp512", "1000.00 ± 10.00")
    assert lb(read(tmp_path, text))[0]["build_number"] == 1000
    with pytest.raises(
        IngestError, match=r"--build 1200 disagrees with the table's build line \(build 1000\)"
    ):
        read(tmp_path, text, build_hint=1200)


# --- 3. spellings across years and forks ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("test", "ts", "want"),
    [
        ("pp 512", "1000.00 ± 10.00", (512, 0, 0, 1000.0, 10.0)),
        ("tg 128", "100.00 ± 1.00", (0, 128, 0, 100.0, 1.0)),
        ("pp512", "100.00 +/- 1.00", (512, 0, 0, 100.0, 1.0)),
        ("pp512", "100.00 _ 1.00", (512, 0, 0, 100.0, 1.0)),
        ("pp512", "100.00 Â± 1.00", (512, 0, 0, 100.0, 1.0)),
        ("tg128 @ d512", "90.00 ± 1.00", (0, 128, 512, 90.0, 1.0)),
    ],
)
def test_test_and_rate_spellings(tmp_path, test, ts, want):
    (x,) = lb(read(tmp_path, HEADER + row(test, ts)))
    assert (x["n_prompt"], x["n_gen"], x["n_depth"], x["avg_ts"], x["stddev_ts"]) == want


def test_a_forks_generation_at_depth_and_its_build_counter(tmp_path):
    got = read(tmp_path, HEADER + row("tg64@pp512", "30.00 ± 0.50") + "\nbuild: 6e02327e (3565)\n")
    (r,) = got.records
    x = r["llama_bench"]
    # 64 tokens generated with 512 in the cache; the build counter is the fork's, not upstream's
    assert (x["n_prompt"], x["n_gen"], x["n_depth"], x["avg_ts"]) == (0, 64, 512, 30.0)
    assert x["build_number"] is None and x["fork_build_number"] == 3565 and x["build_commit"] == "6e02327e"
    assert any("fork's spelling" in n for n in r["ingest_notes"])
    assert got.notes == [
        "output of a fork (tgN@ppM tests) (tgN@ppM test at line 3): build counters kept as fork_build_number"
    ]
    # an upstream-spelled table from a fork named by the caller
    y = lb(
        read(
            tmp_path, HEADER + row("pp512", "1.00 ± 0.10") + "\nbuild: 6e02327e (3565)\n", fork="ik_llama.cpp"
        )
    )[0]
    assert y["build_number"] is None and y["fork_build_number"] == 3565


def test_tables_without_outer_pipes_and_prefixed_lines(tmp_path):
    bare = (
        "model | backend | ngl | test | t/s\n-- | -- | -- | -- | --\n"
        "llama 7B Q4_0 | Metal | 99 | pp 128 | 144.47 ± 0.22\n"
    )
    assert [(x["n_prompt"], x["avg_ts"]) for x in lb(read(tmp_path, bare))] == [(128, 144.47)]
    quoted = "".join("> " + t + "\n" for t in (HEADER + row("pp512", "1000.00 ± 10.00")).splitlines())
    assert [x["avg_ts"] for x in lb(read(tmp_path, "> someone wrote:\n" + quoted))] == [1000.0]
    diff = "".join("+" + t + "\n" for t in (HEADER + row("tg128", "100.00 ± 1.00")).splitlines())
    assert [x["n_gen"] for x in lb(read(tmp_path, diff))] == [128]


def test_blank_same_as_above_cells_are_filled_and_recorded(tmp_path):
    text = HEADER + row("pp512", "1000.00 ± 10.00") + "|  |  |  |  |  | tg128 | 100.00 ± 1.00 |\n"
    got = read(tmp_path, text)
    a, b = lb(got)
    assert (b["model_type"], b["model_size"], b["backends"], b["n_gpu_layers"]) == (
        a["model_type"],
        a["model_size"],
        "CUDA",
        99,
    )
    assert got.records[1]["ingest_notes"] == [
        "blank cells ['model', 'size', 'params', 'backend', 'ngl'] filled from the row above (line 3)"
    ]
    with pytest.raises(IngestError, match=r"paste\.md:4: the measured column 't/s' is blank"):
        read(
            tmp_path,
            HEADER + row("pp512", "1000.00 ± 10.00") + "| llama | 1 GiB | 1 B | CUDA | 99 | tg128 |  |\n",
        )


# --- 4. SQL ------------------------------------------------------------------------------------------


def test_old_sql_table_name_and_sql_without_inserts(tmp_path):
    sql = (
        "CREATE TABLE IF NOT EXISTS test (\n  build_commit TEXT\n);\n"
        "INSERT INTO test (build_commit, build_number, n_prompt, n_gen, avg_ts) "
        "VALUES ('abc', '1275', '512', '0', '2407.24');\n"
    )
    got = read(tmp_path, sql)
    assert [(x["build_number"], x["n_prompt"], x["avg_ts"]) for x in lb(got)] == [(1275, 512, 2407.24)]
    assert got.records[0]["source_line"] == 4 and got.records[0]["source_format"] == "sql"
    with pytest.raises(
        IngestError,
        match=r"paste\.md: no llama-bench sql output found; it holds md output: use --format auto",
    ):
        read(tmp_path, HEADER + row("pp512", "1.00 ± 0.10"), "sql")
    p = tmp_path / "no_insert.sql"
    p.write_text("hello\n")
    r = subprocess.run(
        [sys.executable, "-m", "benchbook.cli", "ingest", "--format", "sql", str(p), "--stdout"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "no llama-bench sql output found" in r.stderr and "Traceback" not in r.stderr


# --- 5. comparison tables -----------------------------------------------------------------------------


def test_comparison_table_gives_two_value_sets_and_a_stated_ratio(tmp_path):
    text = (
        "| GPU         | Model         | Test   |   t/s master |   t/s pr |   Speedup |\n"
        "|:------------|:--------------|:-------|-------------:|---------:|----------:|\n"
        "| RTX 3090 Ti | llama 7B F16  | pp512  |      4875.12 |  5394.60 |      1.11 |\n"
        "| RTX 3090 Ti | llama 7B F16  | tg128  |        55.19 |    50.37 |      1.20 |\n"
    )
    got = read(tmp_path, text)
    vals = [
        (r["llama_bench"]["compare_label"], r["llama_bench"]["n_prompt"], r["llama_bench"]["avg_ts"])
        for r in got.records
    ]
    assert vals == [("master", 512, 4875.12), ("pr", 512, 5394.6), ("master", 0, 55.19), ("pr", 0, 50.37)]
    c = got.records[1]["compare"]
    # 5394.60 / 4875.12 = 1.1066 -> stated 1.11 agrees; 50.37 / 55.19 = 0.9127, stated 1.20 does not
    assert c["labels"] == ["master", "pr"] and c["speedup_stated"] == 1.11
    assert c["speedup_recomputed"] == pytest.approx(1.10656, abs=1e-5)
    assert "inconsistent" not in got.records[0]
    assert got.records[2]["inconsistent"] == ["Speedup 1.2 disagrees with 50.37 / 55.19 = 0.913"]
    assert got.records[0]["llama_bench"]["gpu_info"] == "RTX 3090 Ti"


# --- 6. small value gaps -----------------------------------------------------------------------------


def test_2023_backend_flags_flash_attn_and_omitted_defaults(tmp_path):
    csv = (
        "build_commit,build_number,cuda,opencl,metal,gpu_blas,blas,n_prompt,n_gen,avg_ts\n"
        '"3469684","1275","1","0","0","1","1","512","0","2413.34"\n'
    )
    (x,) = lb(read(tmp_path, csv))
    assert x["backends"] == "CUDA" and "cuda" not in x and "opencl" not in x
    # flash_attn: "1" from markdown and true from JSON are both b11434's int 1
    md = HEADER.replace("| ngl |", "| ngl | fa |").replace("| --: |", "| --: | -: |") + row(
        "pp512", "1.00 ± 0.10"
    ).replace("|  99 |", "|  99 |  1 |")
    assert lb(read(tmp_path, md))[0]["flash_attn"] == 1
    js = json.dumps(
        [
            {
                "build_commit": "a",
                "build_number": 3600,
                "flash_attn": True,
                "n_prompt": 1,
                "n_gen": 0,
                "avg_ts": 1.0,
            }
        ]
    )
    assert lb(read(tmp_path, js))[0]["flash_attn"] == 1
    # a table of defaults omits ngl and threads: unknown, never "CPU only"
    bare = "| model | test | t/s |\n|---|---|---|\n| llama 7B | pp512 | 1.00 ± 0.10 |\n"
    (y,) = lb(read(tmp_path, bare))
    assert "n_gpu_layers" not in y and "n_threads" not in y and "backends" not in y


def test_unknown_columns_are_kept_and_listed_as_uninterpreted(tmp_path):
    md = HEADER.replace("| ngl |", "| ngl | rtr |").replace("| --: |", "| --: | --: |") + row(
        "pp512", "1.00 ± 0.10"
    ).replace("|  99 |", "|  99 |   1 |")
    (r,) = read(tmp_path, md).records
    assert r["llama_bench"]["rtr"] == "1" and r["uninterpreted"] == {"rtr": "1"}
    assert r["source_line"] == 3 and r["source_text"].startswith("| llama 7B Q4_0")


# --- wrong --format hints, empty files, mixed versions -----------------------------------------------


def test_wrong_format_hints_and_empty_input(tmp_path):
    recs = [{"build_commit": "a", "build_number": 1, "n_prompt": 1, "n_gen": 0, "avg_ts": 1.0}] * 2
    jsonl = "".join(json.dumps(r) + "\n" for r in recs)
    with pytest.raises(
        IngestError,
        match=r"paste\.md:2: not valid JSON \(Extra data\); fix: this is JSON lines .*--format jsonl",
    ):
        read(tmp_path, jsonl, "json")
    with pytest.raises(IngestError, match=r"paste\.md:1: '\[' opens or closes a JSON array .*--format json"):
        read(tmp_path, json.dumps(recs, indent=1), "jsonl")
    with pytest.raises(IngestError, match=r"paste\.md: the file is empty"):
        read(tmp_path, "", "jsonl")


def test_a_file_mixing_field_sets_is_summarised_per_set(tmp_path):
    v1 = {
        "build_commit": "a",
        "build_number": 3000,
        "use_mmap": True,
        "n_prompt": 1,
        "n_gen": 0,
        "avg_ts": 1.0,
    }
    v2 = {
        "build_commit": "b",
        "build_number": 5000,
        "load_mode": "mmap",
        "n_prompt": 1,
        "n_gen": 0,
        "avg_ts": 2.0,
    }
    recs = read(tmp_path, json.dumps(v1) + "\n" + json.dumps(v2) + "\n").records
    # was "llama-bench field sets 1: 1, 2: 1": now which fields, which lines, and what it means
    assert ingest.summary(recs) == (
        "2 benchbook.llama_bench v3 record(s); formats jsonl: 2; builds 3000: 1, 5000: 1 | "
        "llama-bench field sets differ: set 1 (old names: use_mmap, one boolean per backend (cuda, "
        "metal...), a boolean flash_attn, or neither kind and a build before 6000) at line 1; set 2 "
        "(b11434's names: load_mode, backends, an integer flash_attn) at line 2 -- set-1 rows were read "
        "into b11434's names (use_mmap -> load_mode, backend booleans -> backends, flash_attn -> 1/0), so "
        "they compare with set-2 rows field by field; fields only newer builds print are unknown in them"
    )
    assert ingest.summary(recs[1:]) == (
        "1 benchbook.llama_bench v3 record(s); formats jsonl: 1; builds 5000: 1 | llama-bench field set 2 "
        "(b11434's names: load_mode, backends, an integer flash_attn) at line 2"
    )


# --- sweep-bench -------------------------------------------------------------------------------------


def test_sweep_bench_rows_and_their_derived_rates(tmp_path):
    text = (
        "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
        "|-------|--------|--------|----------|----------|----------|----------|\n"
        "|   512 |    128 |      0 |    0.389 |  1315.53 |    3.340 |    38.32 |\n"
        "|   512 |    128 |    512 |    0.392 |  1500.00 |    3.375 |    37.93 |\n"
    )
    got = read(tmp_path, text)
    assert [(x["n_prompt"], x["n_gen"], x["n_depth"], x["avg_ts"]) for x in lb(got)] == [
        (512, 0, 0, 1315.53),
        (0, 128, 0, 38.32),
        (512, 0, 512, 1500.0),
        (0, 128, 512, 37.93),
    ]
    # 512 / 0.389 s = 1316.2 t/s agrees with 1315.53 within the rounding of T_PP;
    # 512 / 0.392 = 1306.12 does not
    assert "inconsistent" not in got.records[0]
    assert got.records[2]["inconsistent"] == [
        "S_PP 1500.0 t/s disagrees with 512 tokens / 0.392 s = 1306.12 t/s"
    ]
    assert got.records[0]["uninterpreted"] == {"tool": "llama-sweep-bench", "T_PP s": 0.389}


# --- server logs (#11 section 2) --------------------------------------------------------------------

NEW_WORDING = (
    "slot print_timing: id  0 | task 5 | prompt eval time =     100.00 ms /    10 tokens "
    "(   10.00 ms per token,   100.00 tokens per second)\n"
    "slot print_timing: id  0 | task 5 |        eval time =    1000.00 ms /   100 tokens "
    "(   10.00 ms per token,   100.00 tokens per second)\n"
    "slot print_timing: id  0 | task 5 |       total time =    1100.00 ms /   110 tokens\n"
    "slot print_timing: id  0 | task 5 | draft acceptance = 0.60606 (   60 accepted /    99 generated), "
    "mean acceptance length =  2.82, acceptance rate per position = (0.818, 0.606, 0.394)\n"
)


def log(tmp_path: Path, text: str, **kw) -> list[dict]:
    p = tmp_path / "server.log"
    p.write_text(text)
    return ingest.ingest_file(p, **kw)


def test_new_acceptance_wording_keeps_and_checks_mean_length_and_per_position_rates(tmp_path):
    (r,) = log(tmp_path, NEW_WORDING)
    t = r["timings"]
    assert (t["draft_n"], t["draft_n_accepted"]) == (99, 60)  # 60 / 99 = 0.60606
    assert t["draft_mean_len"] == 2.82 and t["draft_accept_per_position"] == [0.818, 0.606, 0.394]
    # 1 + 60 / 33 = 2.818 -> 33 verify steps; 0.818 + 0.606 + 0.394 = 1.818 = 60 / 33
    assert r["verify_steps"] == 33.0 and "inconsistent" not in r
    bad = log(tmp_path, NEW_WORDING.replace("(0.818, 0.606, 0.394)", "(0.818, 0.606, 0.5)"))[0]
    assert bad["inconsistent"] == [
        "line 4: per-position rates sum to 1.924, accepted / steps = 60/33 = 1.818",
        "line 4: position 3 rate 0.5 x 33 steps is not a whole number of tokens",
    ]


def test_the_logs_own_build_line_and_build_hint(tmp_path):
    text = "build: 4641 (9f4cc8f8) with cc (Ubuntu 11.4.0) for x86_64-linux-gnu\n" + NEW_WORDING
    (r,) = log(tmp_path, text)
    assert (r["build_number"], r["build_commit"]) == (4641, "9f4cc8f8")
    assert log(tmp_path, text, build_hint=4641)[0]["build_number"] == 4641
    with pytest.raises(
        IngestError,
        match=r"server\.log:1: --build 11434 disagrees with the log's own build line \(build 4641\)",
    ):
        log(tmp_path, text, build_hint=11434)
    # without a build line, --build is what there is
    assert log(tmp_path, NEW_WORDING, build_hint=11434)[0]["build_number"] == 11434


def test_a_rate_that_contradicts_its_own_ms_and_tokens_is_flagged(tmp_path):
    text = NEW_WORDING.replace("100.00 tokens per second", "250.00 tokens per second", 1)
    (r,) = log(tmp_path, text)
    # 10 tokens / 100 ms = 100 t/s, the line prints 250
    assert r["inconsistent"] == [
        "line 1: prompt eval time prints 250.00 tokens per second; 10 / 100.0 ms = 100.00"
    ]
    assert r["timings"]["prompt_ms"] == 100.0  # kept as printed


def test_sampling_time_and_sampler_parameters_are_kept(tmp_path):
    text = (
        "sampler params: \n"
        "\trepeat_last_n = 64, repeat_penalty = 1.000, top_k = 40, top_p = 0.950, min_p = 0.050, "
        "temp = 0.800\n"
        "llama_perf_sampler_print:    sampling time =      25.00 ms /   101 runs   "
        "(    0.25 ms per token,  4040.00 tokens per second)\n"
        "llama_perf_context_print: prompt eval time =     100.00 ms /    10 tokens "
        "(   10.00 ms per token,   100.00 tokens per second)\n"
        "llama_perf_context_print:        eval time =    1000.00 ms /   100 runs   "
        "(   10.00 ms per token,   100.00 tokens per second)\n"
    )
    (r,) = log(tmp_path, text)
    t = r["timings"]
    # sampling 25 ms of 1000 ms eval = 2.5%
    assert (t["sampling_ms"], t["sampling_n"], t["sampling_share_of_eval"]) == (25.0, 101, 0.025)
    assert r["generation_settings"] == {
        "repeat_last_n": 64,
        "repeat_penalty": 1.0,
        "top_k": 40,
        "top_p": 0.95,
        "min_p": 0.05,
        "temp": 0.8,
    }
    assert r["source_lines"] == [3, 4, 5]


def test_cli_on_a_pasted_issue_with_outputs_of_several_builds(tmp_path):
    rec = {"build_commit": "c0ffee1", "build_number": 1002, "n_prompt": 0, "n_gen": 64, "avg_ts": 42.0}
    text = (
        "### Name and Version\n\nversion: 1000 (abc1234)\n\n"
        "ggml_cuda_init: found 1 CUDA devices:\n"
        + HEADER
        + row("pp512", "1000.00 ± 10.00")
        + "\nbuild: abc1234 (1000)\n\nAfter updating:\n\n"
        + HEADER
        + row("pp512", "1100.00 ± 10.00")
        + "\nbuild: def5678 (1001)\n\nAnd with -o json:\n```json\n"
        + json.dumps([rec], indent=2)
        + "\n```\n"
    )
    p = tmp_path / "issue.md"
    p.write_text(text)
    r = subprocess.run(
        [sys.executable, "-m", "benchbook.cli", "ingest", str(p), "--stdout"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert [(x["llama_bench"]["build_number"], x["llama_bench"]["avg_ts"]) for x in recs] == [
        (1000, 1000.0),
        (1001, 1100.0),
        (1002, 42.0),
    ]
    err = r.stderr.splitlines()
    assert err[0] == (
        # the md rows name `backends` (field set 2); the JSON row names neither set, and its build < 6000
        # reads as set 1 (ingest.field_version)
        f"{p}: 3 benchbook.llama_bench v3 record(s); formats md: 2, json: 1; "
        "builds 1000: 1, 1001: 1, 1002: 1 | llama-bench field sets differ: set 1 (old names: use_mmap, "
        "one boolean per backend (cuda, metal...), a boolean flash_attn, or neither kind and a build "
        "before 6000) at line 23; set 2 (b11434's names: load_mode, backends, an integer flash_attn) at "
        "lines 8, 16 -- set-1 rows were read into b11434's names (use_mmap -> load_mode, backend booleans "
        "-> backends, flash_attn -> 1/0), so they compare with set-2 rows field by field; fields only "
        "newer builds print are unknown in them"
    )
    # line 3 (`version: 1000 (abc1234)`) is a build line: read, not skipped
    assert err[1:] == [
        f"{p}: line 1: skipped (heading)",
        f"{p}: line 5: skipped (device lines)",
        f"{p}: line 12: skipped (text)",
        f"{p}: lines 20-21: skipped (text, code fence)",
        f"{p}: line 31: skipped (code fence)",
    ]


def test_unread_lines_of_a_request_timing_block_are_kept():
    fx = Path(__file__).parent / "fixtures" / "ingest" / "llama_server_spec_b11434.log"
    (r,) = ingest.ingest_file(fx)
    assert r["uninterpreted"] == {"line 15": "graphs reused =          7"}
    assert r["source_text"].endswith(
        "prompt eval time =     129.52 ms /     5 tokens (   25.90 ms per token,    38.61 tokens per second)"
    )


def test_nothing_is_lost_silently(tmp_path):
    # a torn JSON line among JSON lines: an error naming it, not a shorter result
    rec = {"build_commit": "a", "build_number": 1, "n_prompt": 1, "n_gen": 0, "avg_ts": 1.0}
    text = "device: x\n" + json.dumps(rec) + "\n" + json.dumps(rec)[:30] + "\n"
    with pytest.raises(IngestError, match=r"paste\.md:3: not valid JSON .*drop the torn line"):
        read(tmp_path, text)
    # rows pasted without their header are named in what was skipped
    headless = HEADER + row("pp512", "1.00 ± 0.10") + "\nmore:\n" + row("tg128", "2.00 ± 0.10")
    got = read(tmp_path, headless)
    assert [x["avg_ts"] for x in lb(got)] == [1.0]
    assert got.skipped == ["lines 5-6: skipped (text, llama-bench rows without their table header: NOT READ)"]
    # --build that disagrees with the row's own build number
    with pytest.raises(
        IngestError, match=r"paste\.md:2: --build 9 disagrees with the row's own build_number 1"
    ):
        read(tmp_path, "x\n" + json.dumps(rec) + "\n", build_hint=9)


def test_a_paste_with_llama_bench_output_and_a_server_log_gives_both(tmp_path):
    got = read(tmp_path, HEADER + row("tg128", "100.00 ± 1.00") + "\nand the server:\n" + NEW_WORDING)
    assert [r["schema"] for r in got.records] == ["benchbook.llama_bench", "benchbook.speculative_request"]
    assert got.records[1]["timings"]["predicted_n"] == 100 and got.records[1]["source_line"] == 6
    assert got.notes == ["1 llama-server request(s) read from the same text"]

"""Regression tests of the breaker report's ingest and CLI defects (items 3, 7, 8, 9, 16, 18, 19, 20,
21, 24, 25, 27): each input of ``tests/fixtures/breaker`` read to its right value, or refused with its
exact error (file:line, field, fix)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchbook import cli
from benchbook.hosts import hosts_table
from benchbook.ingest import IngestError, ingest_file, ingest_text, not_yet_in, write_records
from benchbook.schemas import RecordError
from conftest import committed_root

BR = Path(__file__).parent / "fixtures" / "breaker"


def _error(path: Path, **kw) -> str:
    with pytest.raises(IngestError) as e:
        ingest_file(path, **kw)
    return str(e.value)


# --- item 3: parallel slots -------------------------------------------------------------------------


def test_server_log_two_slots_keep_each_request_whole():
    # task 0: prompt 809 tokens / 9661.05 ms (line 5), eval 32 / 2000 ms (line 9), total 841 (line 10);
    # task 1: prompt 10 / 100 ms (line 6), eval 101 / 1000 ms (line 7), total 111 (line 8).  Before the
    # fix task 1's prompt line got task 0's eval and total, and task 1's eval line was lost.
    recs = ingest_file(BR / "server_two_slots.log")
    got = [(r["task_id"], r["timings"], r["source_lines"]) for r in recs]
    assert got == [
        (
            0,
            {
                "prompt_ms": 9661.05,
                "prompt_n": 809,
                "predicted_ms": 2000.0,
                "predicted_n": 32,
                "predicted_rate_definition": "n/ms",  # 16.00 tokens per second = 32 / 2 s
                "total_ms": 11661.05,
                "total_n": 841,
            },
            [5, 9, 10],
        ),
        (
            1,
            {
                "prompt_ms": 100.0,
                "prompt_n": 10,
                "predicted_ms": 1000.0,
                "predicted_n": 101,
                "predicted_rate_definition": "n/ms",  # 101.00 tokens per second = 101 / 1 s
                "total_ms": 1100.0,
                "total_n": 111,
            },
            [6, 7, 8],
        ),
    ]
    assert all("inconsistent" not in r for r in recs)


def test_server_log_timing_line_of_an_unknown_task_and_a_second_eval_line(tmp_path):
    text = (BR / "server_two_slots.log").read_text().splitlines()
    f = tmp_path / "excerpt.log"
    f.write_text("\n".join(text[:5] + text[6:]) + "\n")  # task 1's prompt line cut away
    assert _error(f) == (
        f"{f}:6: timing line of slot 1 task 1, whose 'prompt eval time' line is not in the log; fix: "
        "pass the whole log, not an excerpt"
    )
    g = tmp_path / "noids.log"
    g.write_text(
        "prompt eval time =     100.00 ms /    10 tokens\n"
        "       eval time =    1000.00 ms /   101 tokens\n"
        "       eval time =    2000.00 ms /    32 tokens\n"
    )
    assert _error(g) == (
        f"{g}:3: a second 'eval time' line for the request of line 1 (its lines name no slot and task to "
        "tell requests apart); fix: ingest a log whose timing lines carry 'id N | task M', or split the "
        "log per request"
    )


def test_server_log_negative_time_and_contradicting_mean_len():
    f = BR / "server_neg_oneToken.log"
    assert _error(f) == (
        f"{f}:2: prompt eval time is -96.05 ms, a negative time; the log is corrupt or edited; fix: ingest "
        "the log as llama-server wrote it, or drop this request"
    )
    (r,) = ingest_file(BR / "server_meanlen_one.log")
    # 23 accepted / 23 drafted, but mean len 1.00 = 0 accepted per verify step
    assert r["inconsistent"] == [
        "line 16: mean acceptance length 1.0 says no draft token was accepted, the line counts 23"
    ]


# --- item 7: a column named twice --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "field", "error"),
    [
        # pp512 was read as 120 t/s (the second t/s column) instead of 2500.10
        ("md_dup_ts.md", "t/s", "1: the table header names 't/s' twice (columns 7 and 8)"),
        # the row's avg_ts was 999.0 (the last column) instead of 66.034853
        ("csv_dup_col.csv", "avg_ts", "1: the CSV header names 'avg_ts' twice (columns 41 and 43)"),
        (
            "compare_dup_labels.md",
            "t/s",
            "1: the comparison table's header names 't/s' twice (columns 4 and 5)",
        ),
    ],
)
def test_a_column_named_twice_is_refused(name, field, error):
    f = BR / name
    assert _error(f) == (
        f"{f}:{error}; one of the two values would be dropped silently; fix: keep one {field!r} column, "
        "or give each its own name"
    )


def test_sql_and_json_keys_named_twice_are_refused(tmp_path):
    sql = tmp_path / "dup.sql"
    sql.write_text(
        "INSERT INTO llama_bench (n_prompt, n_gen, avg_ts, avg_ts) VALUES ('0', '8', '66.0', '999.0');\n"
    )
    assert _error(sql).startswith(f"{sql}:1: the INSERT's column list names 'avg_ts' twice (columns 3 and 4)")
    js = tmp_path / "dup.jsonl"
    js.write_text('{"n_prompt": 0, "n_gen": 8, "avg_ts": 66.0, "avg_ts": 999.0}\n')
    assert _error(js, fmt="jsonl") == (
        f"{js}:1: not valid JSON (key 'avg_ts' given twice in one object; one value would be dropped "
        "silently); fix: keep one value of that key"
    )


# --- item 8: impossible llama-bench values -----------------------------------------------------------


def _jsonl_line(tmp_path: Path, n: int) -> Path:
    f = tmp_path / f"line{n}.jsonl"
    f.write_text((BR / "jsonl_bad_values.jsonl").read_text().splitlines()[n - 1] + "\n")
    return f


def test_negative_n_gen_is_refused(tmp_path):
    f = _jsonl_line(tmp_path, 1)  # gave avg_ts -1325.8 with status ok
    assert _error(f, fmt="jsonl") == (
        f"{f}:1: llama-bench row field 'n_gen' is -128, a negative token count; fix: correct or drop this row"
    )


def test_avg_ts_that_disagrees_with_samples_ns_is_flagged(tmp_path):
    (r,) = ingest_file(_jsonl_line(tmp_path, 2), fmt="jsonl")
    # 16 tokens: 16e9 / 99563484 = 160.70, 16e9 / 93699102 = 170.76 -> mean 165.73, stated 1657.30431
    assert r["inconsistent"] == [
        "avg_ts 1657.30431 disagrees with samples_ns: mean of 16 tokens / each sample = 165.73 tok/s"
    ]
    assert r["llama_bench"]["avg_ts"] == 1657.30431  # kept as stated, flagged


def test_fractional_count_and_one_ns_samples_are_refused(tmp_path):
    f = _jsonl_line(tmp_path, 3)  # "16.9" became 16
    assert _error(f, fmt="jsonl") == (
        f"{f}:1: llama-bench row field 'n_prompt' is '16.9', not a whole number; fix: correct or drop "
        "this row"
    )
    g = _jsonl_line(tmp_path, 4)  # samples of 1 ns: 16e9 tok/s
    assert _error(g, fmt="jsonl") == (
        f"{g}:1: llama-bench row field 'samples_ns' has 1 ns for 16 tokens = 1.6e+10 tok/s, above any "
        "llama.cpp run (1e+07 tok/s); fix: correct the samples or drop this row"
    )
    h = BR / "json_bool_ngen.json"
    assert (
        _error(h)
        == f"{h}:1: llama-bench row field 'n_gen' is True, not a whole number; fix: correct or drop this row"
    )


def test_tg0_is_refused():
    f = BR / "md_zero_rate.md"  # tg0 at 1e26 t/s was accepted
    assert _error(f) == (
        f"{f}:3: llama-bench row with n_prompt 0 and n_gen 0 (test 'pp0'/'tg0'): no token was processed, "
        "so no rate exists; fix: correct the test or drop this row"
    )


# --- item 9: llama-speculative-simple ----------------------------------------------------------------


def test_speculative_simple_accepted_above_drafted_is_refused():
    f = BR / "specsimple_bad.log"  # n_accept 40 > n_drafted 33 was recorded as alpha 1.21
    assert _error(f) == (
        f"{f}:7: n_accept 40 is more than n_drafted 33 (line 6): a draft token can be accepted only once; "
        "the output is corrupt or edited; fix: ingest the output as the tool printed it"
    )


def test_speculative_simple_speed_is_checked(tmp_path):
    f = tmp_path / "ss.log"
    f.write_text(
        (BR / "specsimple_bad.log")
        .read_text()
        .replace("n_accept  = 40", "n_accept  = 30")
        .replace("121.212", "90.909")
    )
    (r,) = ingest_file(f)
    # decoded 36 tokens in 1.370 s = 26.28 t/s; printed 96.280; encode 5 / 0.064 = 78.1 agrees with 78.068
    assert r["inconsistent"] == ["line 2: speed 96.28 t/s disagrees with 36 tokens / 1.37 s = 26.28 t/s"]
    assert r["alpha"] == 30 / 33


# --- item 18: sweep-bench rows ------------------------------------------------------------------------


def test_sweep_bench_extra_cell_is_refused_and_t_zero_flagged(tmp_path):
    f = BR / "sweep_bad.md"  # the 99.0 cell of line 5 was dropped
    assert _error(f) == (
        f"{f}:5: 8 cells for 7 columns of the sweep-bench header; a cell would be dropped or read from the "
        "wrong column; fix: correct or drop this row"
    )
    g = tmp_path / "sweep.md"
    g.write_text(f.read_text().replace("|    99.0 |", "|"))
    recs = ingest_file(g)
    # line 4: T_PP 0.000 s for 512 tokens means at least 512 / 0.0005 = 1024000 t/s, not 1307.6
    assert [r.get("inconsistent") for r in recs] == [
        None,
        None,
        ["S_PP 1307.6 t/s disagrees with 512 tokens / 0.0 s = at least 1024000 t/s"],
        None,
        None,
        None,
    ]


# --- item 20: every division -------------------------------------------------------------------------


def test_comparison_zero_rate_is_an_error_not_a_crash():
    f = BR / "compare_zero.md"  # ZeroDivisionError
    assert _error(f) == (
        f"{f}:3: column 't/s master' is 0.0, not a rate > 0 tok/s (a speedup cannot be formed from it); "
        "fix: correct or drop this row"
    )
    recs = ingest_file(BR / "compare_neg.md")
    assert recs[0]["inconsistent"] == ["Speedup -1.5 disagrees with 150.0 / 100.0 = 1.500"]


# --- item 24 and 25: encodings, headerless and adjacent tables ---------------------------------------


@pytest.mark.parametrize("name", ["utf8bom.md", "utf16_powershell.txt"])
def test_byte_order_marks_are_read(name):
    # utf8bom.md gave "7 cells for 8 columns"; utf16 "cannot detect the format"
    recs = ingest_file(BR / name)
    assert [
        (r["llama_bench"]["n_prompt"], r["llama_bench"]["n_gen"], r["llama_bench"]["avg_ts"]) for r in recs
    ] == [
        (16, 0, 119.51),
        (0, 8, 75.39),
    ]


def test_table_without_separator_names_the_missing_line():
    f = BR / "md_row_before_sep.md"
    why = (
        "line 1 is a llama-bench table header, but line 2 is not the separator line markdown needs under "
        "it (| --- | --- |); fix: add the separator line under the header (copy the table whole)"
    )
    assert _error(f, fmt="md") == f"{f}: no llama-bench md output found; {why}"
    assert _error(f) == f"{f}: a table that cannot be read: {why}"


def test_two_tables_back_to_back_are_two_tables():
    # gave "8 cells for 7 columns ... fix: escape '|' in cells"
    recs = ingest_file(BR / "md_two_runs_adjacent.md")
    assert [
        (r["source_line"], r["llama_bench"].get("flash_attn"), r["llama_bench"]["avg_ts"]) for r in recs
    ] == [
        (3, None, 130.0),
        (6, 1, 150.0),
    ]


# --- items 16, 19, 21: the CLI ------------------------------------------------------------------------


def test_ingesting_a_file_twice_appends_nothing_twice(tmp_path, capsys):
    src = Path(__file__).parent / "fixtures" / "ingest" / "llama_bench_b11434.md"
    out = tmp_path / "i.jsonl"
    assert cli.main(["ingest", "--out", str(out), str(src)]) == 0
    assert cli.main(["ingest", "--out", str(out), str(src), str(src)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and len({json.loads(x)["run_id"] for x in lines}) == 2
    err = capsys.readouterr().err
    assert f"4 record(s) already in {out} (same source file and line): not appended again" in err
    recs = ingest_text(src, src.read_text()).records
    assert not_yet_in(recs, out) == ([], 2)
    assert write_records([], out) == 0 and len(out.read_text().splitlines()) == 2


def test_help_does_not_crash_and_audit_takes_its_own_options(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])  # TypeError on the '95%' of the numbers help
    assert e.value.code == 0
    assert "[95% interval]" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        cli.main(["audit", "-h"])  # "unrecognized arguments: -h"
    assert e.value.code == 0
    assert capsys.readouterr().out.startswith("usage: benchbook audit [-h] [--logs LOGS]")


def test_ingest_of_a_directory_is_an_error(tmp_path, capsys):
    d = tmp_path / "dir with space"
    d.mkdir()
    assert cli.main(["ingest", "--stdout", str(d)]) == 2
    assert capsys.readouterr().err == (
        f"benchbook: error: {d}: is a directory, not a file of llama.cpp output; fix: pass the files in it "
        f"(e.g. benchbook ingest '{d}'/*.md)\n"
    )


# --- item 27: a torn session line ---------------------------------------------------------------------


def test_hosts_names_a_torn_line_and_the_repair(tmp_path):
    raw = tmp_path / "data" / "raw" / "llama_bench"
    raw.mkdir(parents=True)
    src = committed_root() / "data" / "raw" / "llama_bench" / "246274abff670295.jsonl"
    f = raw / src.name
    shutil.copy(src, f)
    n = len(f.read_text().splitlines())
    with open(f, "a") as fh:  # a session line cut at byte 200 (a run killed while writing)
        fh.write('{"schema":"benchbook.session","schema_version":1,"event":"start","session_id":"dead')
    with pytest.raises(RecordError) as e:
        hosts_table(tmp_path / "data" / "raw")
    assert str(e.value).startswith(f"{f}:{n + 1}: not valid JSON (Unterminated string")
    assert str(e.value).endswith(
        f"fix: if it is a torn last line (a run killed while writing), `benchbook records repair {f}` "
        "moves it aside; otherwise restore the file from git"
    )


def test_server_log_accepted_above_drafted_is_refused(tmp_path):
    f = tmp_path / "draft.log"
    f.write_text(
        (BR / "server_meanlen_one.log")
        .read_text()
        .replace("1.00000 (   23 accepted /    23 generated)", "1.21212 (   40 accepted /    33 generated)")
    )
    assert _error(f) == (
        f"{f}:16: draft acceptance counts 40 accepted of 33 generated: a draft token can be accepted only "
        "once; the line is corrupt or edited; fix: ingest the log as llama-server wrote it"
    )


def test_speculative_simple_zero_seconds_is_flagged_not_a_crash(tmp_path):
    f = tmp_path / "ss0.log"
    text = (BR / "specsimple_bad.log").read_text()
    f.write_text(
        text.replace("n_accept  = 40", "n_accept  = 30")
        .replace("121.212", "90.909")
        .replace("1.370 seconds, speed:   96.280", "0.000 seconds, speed:   96.280")
    )
    (r,) = ingest_file(f)
    # 36 tokens in a printed 0.000 s: at least 36 / 0.0005 = 72000 t/s
    assert r["inconsistent"] == [
        "line 2: speed 96.28 t/s disagrees with 36 tokens / 0.0 s = at least 72000 t/s"
    ]


def test_negative_stddev_is_refused(tmp_path):
    f = tmp_path / "sd.jsonl"
    f.write_text('{"n_prompt": 0, "n_gen": 8, "avg_ts": 66.0, "stddev_ts": -1.5}\n')
    assert _error(f, fmt="jsonl") == (
        f"{f}:1: llama-bench row field 'stddev_ts' is -1.5, a negative spread; fix: correct or drop this row"
    )


def test_a_row_with_an_extra_cell_gets_every_possible_fix(tmp_path):
    f = tmp_path / "extra.md"
    lines = (BR / "md_two_runs_adjacent.md").read_text().splitlines()
    f.write_text("\n".join([lines[0], lines[1], lines[5]]) + "\n")  # an fa=1 row under a table without fa
    assert _error(f) == (
        f"{f}:3: 8 cells for 7 columns and no override column (ot, ts, dev, cpu_mask) that may hold a '|'; "
        "fix: if a cell holds a '|', escape it as '\\|'; if the row belongs to another table, put that "
        "table's header and separator line above it; else drop the extra cell"
    )


@pytest.mark.parametrize("host", ["../../x", "a/b", "..", ".", "", "/tmp/x"])
def test_host_must_be_one_folder_under_data_external(tmp_path, host):
    from benchbook.ingest import default_out
    from benchbook.ingest.common import IngestError

    recs = [{"source_sha256": "ab" * 32, "source_file": "paste.md"}]
    with pytest.raises(IngestError, match="is not a folder name under data/external"):
        default_out(tmp_path, recs, host)
    assert default_out(tmp_path, recs, "my-laptop") == tmp_path / "data/external/my-laptop/paste.md.jsonl"
    assert default_out(tmp_path, recs) == tmp_path / "data/external/abababababababab/paste.md.jsonl"

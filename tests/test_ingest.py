"""Ingest of real b11434 output (llama-bench in every format, llama-server log with speculative decoding,
llama-speculative-simple) and of hand-made fixtures in older field names and wordings."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchbook import ingest, schemas
from benchbook.ingest import IngestError

FX = Path(__file__).parent / "fixtures" / "ingest"


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv", "md", "sql"])
def test_llama_bench_every_format_same_values(fmt):
    recs = ingest.ingest_file(FX / f"llama_bench_b11434.{fmt}")
    assert [r["source_format"] for r in recs] == [fmt, fmt]
    assert all(r["schema"] == "benchbook.llama_bench" and r["schema_version"] == 3 for r in recs)
    assert all(r["origin"] == "ingested:" + r["source_sha256"] and r["llama_bench_fields"] == 2 for r in recs)
    group = "unknown:" + recs[0]["source_sha256"][:16]
    assert {(r["host_id"], r["session_id"], r["toolchain_id"], r["model_sha256"]) for r in recs} == {
        (group,) * 4
    }
    lb = [r["llama_bench"] for r in recs]
    assert [(x["n_prompt"], x["n_gen"]) for x in lb] == [(16, 0), (0, 8)]
    assert lb[0]["build_number"] == 11434 and lb[0]["backends"] == "CPU"
    assert lb[0]["model_type"] == "llama 256M Q4_1"
    assert all(x["avg_ts"] > 0 for x in lb)


def test_formats_agree_with_each_other():
    # json, csv and sql come from separate runs, so compare fields, not times; md rounds to 2 decimals
    j = ingest.ingest_file(FX / "llama_bench_b11434.json")[0]["llama_bench"]
    c = ingest.ingest_file(FX / "llama_bench_b11434.csv")[0]["llama_bench"]
    s = ingest.ingest_file(FX / "llama_bench_b11434.sql")[0]["llama_bench"]
    for k in ("model_size", "model_n_params", "n_threads", "load_mode", "type_k", "cpu_strict", "n_cpu_moe"):
        assert j[k] == c[k] == s[k], k
    assert isinstance(c["cpu_strict"], bool) and isinstance(s["n_threads"], int)


def test_json_rows_keep_samples_and_source_lines():
    recs = ingest.ingest_file(FX / "llama_bench_b11434.json")
    text = (FX / "llama_bench_b11434.json").read_text().splitlines()
    assert [text[r["source_line"] - 1].strip() for r in recs] == ["{", "{"]
    r = recs[0]["llama_bench"]
    assert len(r["samples_ns"]) == 2  # -r 2
    # llama-bench's avg_ts is the mean of per-repetition rates 1e9 * 16 / ns
    assert r["avg_ts"] == pytest.approx(sum(1e9 * 16 / x for x in r["samples_ns"]) / 2, rel=1e-5)


def test_markdown_pipe_in_override_cell():
    recs = ingest.ingest_file(FX / "llama_bench_b11434_ot.md")
    assert recs[0]["llama_bench"]["tensor_buft_overrides"] == r"blk\.(0|1)\.ffn_up=CPU"
    legacy = ingest.ingest_file(FX / "llama_bench_legacy_pipe.md")
    assert [r["llama_bench"]["tensor_buft_overrides"] for r in legacy] == ["exps=CPU | attn=CUDA0"] * 3
    # pp512+tg128 is one pg test; "1024.50 ± 12.25" is mean ± sd
    assert [(r["llama_bench"]["n_prompt"], r["llama_bench"]["n_gen"]) for r in legacy] == [
        (512, 0),
        (0, 128),
        (512, 128),
    ]
    assert legacy[0]["llama_bench"]["avg_ts"] == 1024.5 and legacy[0]["llama_bench"]["stddev_ts"] == 12.25
    # the old `mmap` column: use_mmap false -> load_mode none (b11434's names), field set 1 recorded
    assert legacy[0]["llama_bench_fields"] == 1 and legacy[0]["llama_bench"]["load_mode"] == "none"
    assert "use_mmap" not in legacy[0]["llama_bench"]
    assert legacy[0]["source_line"] == 3


def test_legacy_field_names_upgrade_through_migration():
    recs = ingest.ingest_file(FX / "llama_bench_legacy_b3600.json") + ingest.ingest_file(
        FX / "llama_bench_b11434.jsonl"
    )
    assert [r["llama_bench_fields"] for r in recs] == [1, 1, 2, 2]
    lb = [r["llama_bench"] for r in recs]
    assert [x["load_mode"] for x in lb] == ["none", "none", "auto", "auto"]
    assert [x["backends"] for x in lb] == ["CUDA,GPU BLAS,BLAS"] * 2 + ["CPU", "CPU"]
    assert [x["flash_attn"] for x in lb] == [1, 1, -1, -1]  # b11434's int, whatever the source wrote
    assert not any("use_mmap" in x or "cuda" in x for x in lb)


@pytest.mark.parametrize("fmt", ["csv", "sql", "md"])
def test_flash_attn_is_typed_int_in_every_format(fmt):
    recs = ingest.ingest_file(FX / f"llama_bench_b11434.{fmt}")
    fa = [r["llama_bench"].get("flash_attn") for r in recs]
    assert fa == ([-1, -1] if fmt != "md" else [None, None])  # markdown shows fa only when not the default


def test_field_version_detection_uses_fields_before_build_hint():
    assert ingest.field_version({"use_mmap", "n_prompt"}, 11434) == 1
    assert ingest.field_version({"load_mode"}, 100) == 2
    assert ingest.field_version({"n_prompt"}, 3000) == 1
    assert ingest.field_version({"n_prompt"}, None) == 2


def test_server_log_b11434_speculative():
    (r,) = ingest.ingest_file(FX / "llama_server_spec_b11434.log", build_hint=11434)
    assert r["schema"] == "benchbook.speculative_request" and r["schema_version"] == 2
    assert r["origin"] == "ingested:" + r["source_sha256"] and r["build_number"] == 11434
    t = r["timings"]
    assert (t["prompt_n"], t["prompt_ms"], t["predicted_n"], t["predicted_ms"]) == (5, 129.52, 32, 1132.38)
    assert (t["draft_n"], t["draft_n_accepted"], t["draft_mean_len"]) == (23, 23, 3.88)
    # mean len 3.88 = 1 + 23 accepted / steps -> steps = 23 / 2.88 = 7.99 -> 8 verify steps
    assert r["verify_steps"] == 8.0 and (r["slot_id"], r["task_id"]) == (0, 0)
    assert r["source_lines"] == [12, 13, 14, 16, 17]  # 17: stop processing (the prompt's length)
    assert (
        r["model_id"]
        == r["draft_model_id"]
        == "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53.gguf"
    )
    assert r["model_sha256"] == "unknown:" + r["source_sha256"][:16]  # a file name is not a checked sha256
    # the same request's JSON response carries the same counts
    resp = json.loads((FX / "server_completion_response.json").read_text())
    assert (resp["timings"]["draft_n"], resp["timings"]["draft_n_accepted"]) == (
        t["draft_n"],
        t["draft_n_accepted"],
    )
    assert resp["timings"]["predicted_n"] == t["predicted_n"]


def test_server_log_legacy_wordings():
    a, b = (
        r["timings"]
        | {"slot_id": r["slot_id"], "task_id": r["task_id"], "verify_steps": r.get("verify_steps")}
        for r in ingest.ingest_file(FX / "llama_server_legacy.log")
    )
    assert (a["slot_id"], a["task_id"]) == (0, 0)
    assert (a["prompt_n"], a["predicted_n"], a["total_ms"]) == (5, 40, 651.41)
    # old: "draft acceptance rate = 0.57576 (19 accepted / 33 generated)"; 19/33 = 0.575757...; no mean len:
    # verify steps unknown
    assert (a["draft_n"], a["draft_n_accepted"]) == (33, 19)
    assert "draft_mean_len" not in a and a["verify_steps"] is None
    assert (b["task_id"], b["prompt_n"], b["predicted_n"]) == (7, 10, 25)
    assert b["total_ms"] == 580.0 and "draft_n" not in b


def test_server_log_corrupt_draft_line(tmp_path):
    p = tmp_path / "s.log"
    p.write_text(
        "prompt eval time = 1.0 ms / 2 tokens\ndraft acceptance = 0.90000 ( 1 accepted / 2 generated)\n"
    )
    # the value as the line writes it, the recomputed one, and the fix
    with pytest.raises(IngestError) as e:
        ingest.ingest_file(p)
    assert str(e.value) == (
        f"{p}:2: draft acceptance 0.90000 disagrees with 1/2 = 0.50000; the line is corrupt or edited (a "
        "value rounded by hand); fix: ingest the log as llama-server wrote it"
    )


def test_speculative_simple_n_draft_is_the_maximum():
    (r,) = ingest.ingest_file(FX / "llama_speculative_simple_b11434.log")
    assert r["n_draft_max"] == 3 and "n_draft" not in r
    assert (r["n_drafted"], r["n_accept"], r["n_predict"]) == (33, 25, 36)
    assert r["alpha"] == pytest.approx(25 / 33) and r["accept_pct"] == 75.758
    assert (r["decode_n"], r["decode_s"], r["decode_tps"]) == (36, 1.37, 26.28)
    (old,) = ingest.ingest_file(FX / "llama_speculative_legacy.log")
    # 110 / 144 = 0.763888... -> 76.389 %
    assert (old["n_draft_max"], old["n_drafted"], old["n_accept"]) == (16, 144, 110)
    assert old["alpha"] == pytest.approx(0.763889, abs=1e-6)


def test_speculative_simple_inconsistent_accept(tmp_path):
    p = tmp_path / "o.log"
    p.write_text("n_draft   = 4\nn_predict = 10\nn_drafted = 10\nn_accept  = 5\naccept    = 60.000%\n")
    with pytest.raises(IngestError, match=r"o\.log:5: accept 60\.0% disagrees"):
        ingest.ingest_file(p)


def test_undetectable_and_wrong_inputs_name_the_file(tmp_path):
    # issue 28: a saved /completion response is read (ingest.responses), no longer refused
    (r,) = ingest.ingest_file(FX / "server_completion_response.json")
    assert r["source_format"] == "server-json" and r["timings"]["draft_n_accepted"] == 23
    bad = tmp_path / "row.json"
    bad.write_text('[{"avg_ts": 1.0, "n_gen": 8}]\n')
    with pytest.raises(IngestError, match="row.json:1: llama-bench row lacks 'n_prompt'"):
        ingest.ingest_file(bad)
    with pytest.raises(IngestError, match="cannot detect the format"):
        ingest.detect_format("hello world\n")


def test_cli_ingest_appends_records(tmp_path):
    (tmp_path / "notes.txt").write_text("hello world\n")
    out = tmp_path / "ingested.jsonl"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchbook.cli",
            "ingest",
            str(FX / "llama_bench_b11434.csv"),
            str(FX / "llama_server_spec_b11434.log"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [x["schema"] for x in recs] == ["benchbook.llama_bench"] * 2 + ["benchbook.speculative_request"]
    r = subprocess.run(
        [sys.executable, "-m", "benchbook.cli", "ingest", str(tmp_path / "notes.txt")],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "cannot detect the format" in r.stderr


def test_cli_ingest_writes_under_data_external_per_file_or_host(tmp_path):
    files = [str(FX / "llama_bench_b11434.csv"), str(FX / "llama_bench_b11434.md")]
    r = subprocess.run(
        [sys.executable, "-m", "benchbook.cli", "ingest", *files, "--root", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    got = sorted(
        p.relative_to(tmp_path).as_posix() for p in (tmp_path / "data" / "external").rglob("*.jsonl")
    )
    shas = [ingest.ingest_file(f)[0]["source_sha256"][:16] for f in files]
    assert got == sorted(
        [
            f"data/external/{shas[0]}/llama_bench_b11434.csv.jsonl",
            f"data/external/{shas[1]}/llama_bench_b11434.md.jsonl",
        ]
    )
    r = subprocess.run(
        [sys.executable, "-m", "benchbook.cli", "ingest", *files, "--root", str(tmp_path), "--host", "rig1"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    recs = [
        json.loads(line)
        for p in sorted((tmp_path / "data/external/rig1").glob("*.jsonl"))
        for line in p.read_text().splitlines()
    ]
    # one host named by the user; sessions (and builds, models) stay per file
    assert {x["host_id"] for x in recs} == {"unknown:rig1"}
    assert {x["session_id"] for x in recs} == {f"unknown:{s}" for s in shas}
    with pytest.raises(IngestError, match="never go under data/raw"):
        ingest.write_records(
            ingest.ingest_file(files[0]), tmp_path / "data" / "raw" / "llama_bench" / "x.jsonl"
        )


@pytest.mark.parametrize(
    "field,value,named",
    [
        ("avg_ts", "NaN", "'avg_ts' is nan"),
        ("avg_ts", '"nan"', "'avg_ts' is nan"),
        ("avg_ts", "Infinity", "'avg_ts' is inf"),
        ("avg_ts", "0", "'avg_ts' is 0"),
        ("samples_ns", "[]", "'samples_ns' is \\[\\]: empty"),
        ("samples_ns", "[93699102, -5]", "'samples_ns\\[1\\]' is -5"),
        ("samples_ns", "[0]", "'samples_ns\\[0\\]' is 0"),
        ("samples_ns", '["nan"]', "'samples_ns\\[0\\]' is 'nan'"),
        ("samples_ns", "[1, null]", "'samples_ns\\[1\\]' is None"),
        ("stddev_ts", "NaN", "'stddev_ts' is NaN or inf"),
    ],
)
def test_bad_llama_bench_values_name_file_line_field_and_nothing_is_written(tmp_path, field, value, named):
    lines = (FX / "llama_bench_b11434.jsonl").read_text().splitlines()
    rec = json.loads(lines[1])
    bad = json.dumps({**rec, field: "__X__"}).replace('"__X__"', value)
    src = tmp_path / "in.jsonl"
    src.write_text(lines[0] + "\n" + bad + "\n")
    with pytest.raises(IngestError, match=rf"in\.jsonl:2: llama-bench row field {named}"):
        ingest.ingest_file(src)
    # the CLI with a good file first: an error line, nothing appended
    out = tmp_path / "out.jsonl"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchbook.cli",
            "ingest",
            str(FX / "llama_bench_b11434.csv"),
            str(src),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert (
        r.returncode == 2 and "in.jsonl:2: llama-bench row field" in r.stderr and "Traceback" not in r.stderr
    )
    assert not out.exists()


def test_write_records_checks_everything_before_writing(tmp_path):
    src = tmp_path / "s.log"
    text = (FX / "llama_server_spec_b11434.log").read_text()
    src.write_text(text.replace("eval time =    1132.38 ms", "eval time =    nan ms", 1))
    recs = ingest.ingest_file(src)
    out = tmp_path / "out.jsonl"
    with pytest.raises(
        IngestError, match=r"s\.log:1[23]: field '[a-z_.]+' is NaN or inf.*nothing was written"
    ):
        ingest.write_records(recs, out)
    assert not out.exists()


# --- ingested = native: the real b11434 fixtures through the analyses and the caveat engine ----------


def _external(tmp_path, names, **kw):
    """Ingest ``names`` (fixtures) the way `benchbook ingest` does, into tmp_path/data/external/."""
    for name in names:
        recs = ingest.ingest_file(FX / name, **kw)
        ingest.write_records(recs, ingest.default_out(tmp_path, recs, kw.get("host")))
    return tmp_path / "data" / "external"


def test_ingested_llama_bench_through_rate_stats_and_caveats(tmp_path):
    import polars as pl

    from benchbook import caveats
    from benchbook.experiments.llama_bench import analysis

    names = [f"llama_bench_b11434.{fmt}" for fmt in ("md", "csv", "json", "jsonl")]
    rows = analysis.load_llama_bench(_external(tmp_path, names))
    assert rows.height == 8 and set(rows["origin"].str.slice(0, 9)) == {"ingested:"}
    st = caveats.attach(analysis.rate_stats(rows)).with_columns(
        pl.col("files").list.first().str.extract(r"llama_bench_b11434\.(\w+)\.jsonl$").alias("fmt")
    )
    # one configuration per (file, test): unknown sessions/hosts/builds never pool across files
    assert st.height == 8 and st["session_id"].n_unique() == 4
    got = {(r["fmt"], r["test"]): r for r in st.iter_rows(named=True)}
    # markdown and CSV state mean ± sd only: n unknown, no interval, the stated values as they are
    md_pp = got[("md", "pp")]
    assert (md_pp["n"], md_pp["mean_tps"], md_pp["sd_tps"], md_pp["ci_low_tps"], md_pp["stated"]) == (
        None,
        119.51,
        8.82,
        None,
        True,
    )
    csv_tg = got[("csv", "tg")]
    assert (csv_tg["n"], csv_tg["mean_tps"], csv_tg["sd_tps"], csv_tg["ci_low_tps"]) == (
        None,
        66.034853,
        0.75056,
        None,
    )
    # json/jsonl carry samples_ns (-r 2): n = 2, mean of per-repetition rates = llama-bench's avg_ts,
    # no interval below n = 3 (issue 12)
    js = got[("json", "pp")]
    assert js["n"] == 2 and not js["stated"] and js["ci_low_tps"] is None and js["ci_high_tps"] is None
    assert js["mean_tps"] == pytest.approx(js["llama_bench_avg_ts"], rel=1e-6)
    # which caveats fire: n = 2 < 3 -> single_run (samples known); unknown n never fires it; cv = sd/mean
    # above 5%: md pp 8.82/119.51 = 7.4%, json tg 7.895/71.14 = 11.1%, jsonl tg 5.83/75.63 = 7.7%
    assert {k: r["caveats"] for k, r in sorted(got.items())} == {
        ("csv", "pp"): [],
        ("csv", "tg"): [],
        ("json", "pp"): ["single_run"],
        ("json", "tg"): ["single_run", "high_variance"],
        ("jsonl", "pp"): ["single_run"],
        ("jsonl", "tg"): ["single_run", "high_variance"],
        ("md", "pp"): ["high_variance"],
        ("md", "tg"): [],
    }
    # unknown ids are unknown, per file; --host pools the host, never the sessions
    assert rows.select(schemas.is_unknown("host_id").all()).item()
    pooled = analysis.load_llama_bench(_external(tmp_path / "h", names, host="rig"))
    assert pooled["host_id"].unique().to_list() == ["unknown:rig"] and pooled["session_id"].n_unique() == 4


def test_ingested_server_log_through_the_speculative_table_and_caveats(tmp_path):
    from benchbook import caveats
    from benchbook.experiments.speculative import analysis

    folder = _external(tmp_path, ["llama_server_spec_b11434.log"], build_hint=11434)
    req = analysis.load_requests(next(folder.iterdir()))
    t, status = caveats.evaluate(analysis.with_model(analysis.config_table(req), None), "speculative")
    (r,) = t.iter_rows(named=True)
    # 31 tokens after the first in 1132.38 ms = 27.376 tok/s (the server's own 27.38); α = 23/23; τ = 1 + 23/8
    assert r["decode_tps_mean"] == pytest.approx(27.376, abs=1e-3) and r["n"] == 1
    assert (r["alpha"], r["tau"], r["spec_type"], r["build_number"]) == (1.0, 3.875, "draft", 11434)
    # unknown, never a default: no cap, no baseline (speedup), no output to compare, no load figures
    assert (r["cap_hit"], r["speedup_mean"], r["output_equal"], r["load1_max"], r["cap"]) == (None,) * 5
    assert r["caveats"] == ["single_run"]  # one request
    assert status["cap_hit"] == status["busy_host"] == status["host_or_build_mismatch"] == "applied"


def test_reports_refuse_ingested_records_in_the_projects_raw_data(tmp_path):
    import shutil

    from benchbook.experiments.llama_bench import report

    raw = tmp_path / "raw"
    shutil.copytree(Path(__file__).resolve().parents[1] / "data" / "raw" / "llama_bench", raw)
    recs = ingest.ingest_file(FX / "llama_bench_b11434.jsonl")
    with open(
        raw / "sneaked.jsonl", "w"
    ) as f:  # `benchbook ingest` refuses data/raw; a hand copy is caught here
        f.writelines(json.dumps(r) + "\n" for r in recs)
    with pytest.raises(RuntimeError, match=r"sneaked\.jsonl:1: an ingested record .*data/external"):
        report.derive(raw, tmp_path / "snap", tmp_path / "out", tmp_path / "n.json", tmp_path / "m.json", {})


def test_json_the_decoder_refuses_is_an_ingest_error():
    # a plain ValueError (not JSONDecodeError) has no lineno: this once raised AttributeError
    huge = "[" + "1" * 5000 + "]"  # valid JSON, but over Python's 4300-digit int limit
    with pytest.raises(IngestError, match=r"b\.json: not readable JSON .*fix:"):
        ingest.read_llama_bench(Path("b.json"), huge, "json")
    with pytest.raises(IngestError, match=r"b\.json:2: not valid JSON"):
        ingest.read_llama_bench(Path("b.json"), "[\n{", "json")


@pytest.mark.parametrize(("name", "text"), [("a.json", "[]"), ("a.jsonl", "")])
def test_output_without_rows_is_an_ingest_error(tmp_path, name, text):
    # `[]` once reached the CLI's summary line and raised IndexError there
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(IngestError, match="no rows|empty"):
        ingest.ingest_file(p, "json" if name.endswith(".json") else "jsonl")

"""The corpus of publicly posted llama-bench outputs (tests/fixtures/ingest_corpus, sources in its
SOURCES.md): format detection reads >= 90% of the files, and no file loses rows silently."""

from __future__ import annotations

import json
from pathlib import Path

from benchbook import ingest

#: rows of llama-bench (or sweep-bench / compare) output per file, counted by hand from the file
EXPECTED_ROWS = {
    "c01_cuda_2024_device_lines_pp_space.md": 5,
    "c02_vulkan_opencl_rocm_2024_details.md": 11,
    "c03_vulkan_fa_build_after_separator.md": 2,
    "c04_metal_headings_two_tables.md": 5,
    "c05_sweepbench_fork.md": 17,
    "c06_compare_llama_bench_pipe.md": 4,
    "c07_readme2023_csv_fenced.md": 2,
    "c08_readme2023_json_fenced.md": 2,
    "c09_readme2023_sql_insert_into_test.sql": 2,
    "c10_readme2023_md_pp_space.md": 2,
    "c11_readme2025.csv": 2,
    "c12_readme2025.json": 2,
    "c13_readme2025_jsonl_fenced.md": 2,
    "c14_readme2025_sql_insert_into_test.md": 2,
    "c15_2023_first_md_full_names.md": 2,
    "c16_2023_nprompt_ngen_columns.md": 3,
    "c17_sycl_build_before_table.md": 4,
    "c18_sycl_mojibake_plusminus.md": 2,
    "c19_metal_no_outer_pipes.md": 6,
    "c20_sycl_heading_system_info.md": 6,
    "c21_rpc_cuda_before.md": 2,
    "c22_rpc_4gpu_dev_column.md": 4,
    "c23_cuda_fa_prompt_prefix.md": 2,
    "c24_vulkan_build_line_before_table.md": 4,
    "c25_vulkan_nbatch_nubatch_in_fence.md": 3,
    "c26_sweepbench_two_tables_prose.md": 10,
    "c27_fork_compare_with_sd.md": 4,
}

CORPUS = Path(__file__).parent / "fixtures" / "ingest_corpus"
#: records per file where one row gives two (sweep-bench: prefill + generation; comparison: one per
#: t/s column); every other file gives one record per row
TWO_PER_ROW = {
    "c05_sweepbench_fork.md",
    "c06_compare_llama_bench_pipe.md",
    "c26_sweepbench_two_tables_prose.md",
    "c27_fork_compare_with_sd.md",
}


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.name != "SOURCES.md")


def test_every_corpus_file_is_pinned_and_has_a_source():
    names = [p.name for p in corpus_files()]
    assert sorted(EXPECTED_ROWS) == names and len(names) >= 20
    sources = (CORPUS / "SOURCES.md").read_text()
    assert all(f"| {n} | https://github.com/" in sources for n in names)


def test_auto_detection_reads_at_least_90_percent_with_no_silent_loss():
    read = 0
    for path in corpus_files():
        try:
            recs = ingest.ingest_file(path)
        except ingest.IngestError:
            continue  # refused loudly: counts against the rate, never a silent loss
        rows = {r["source_line"] for r in recs}
        # no silent loss: every row of the file, no more, no fewer
        assert len(rows) == EXPECTED_ROWS[path.name], path.name
        assert len(recs) == EXPECTED_ROWS[path.name] * (2 if path.name in TWO_PER_ROW else 1), path.name
        read += 1
    assert read / len(corpus_files()) >= 0.9  # measured: 27 of 27


def test_every_corpus_record_points_to_its_raw_line():
    for path in corpus_files():
        lines = path.read_text().splitlines()
        for r in ingest.ingest_file(path):
            assert r["source_file"] == str(path) and isinstance(r["uninterpreted"], dict)
            if r["source_format"] == "json":
                assert json.loads(r["source_text"])["avg_ts"] == r["llama_bench"]["avg_ts"]
            else:
                assert r["source_text"] == lines[r["source_line"] - 1], (path.name, r["source_line"])


def test_corpus_values_of_each_kind():
    def lb(name):
        return [r["llama_bench"] for r in ingest.ingest_file(CORPUS / name)]

    # device lines + fence + `pp 512` (2024): 5 rows, no build line in the paste -> build unknown
    rows = lb("c01_cuda_2024_device_lines_pp_space.md")
    assert [(x["n_prompt"], x["n_gen"], x["avg_ts"], x["stddev_ts"]) for x in rows[:2]] == [
        (512, 0, 11048.22, 269.74),
        (0, 128, 61.03, 0.07),
    ]
    assert rows[0]["build_number"] is None and rows[0]["backends"] == "CUDA"
    # two tables under headings, one build line at the top for both
    rows = lb("c04_metal_headings_two_tables.md")
    assert [(x["build_commit"], x["build_number"]) for x in rows] == [("e9fd8dc", 7825)] * 5
    assert rows[3]["n_prompt"] == 4096 and rows[3]["n_gen"] == 128  # pp4096+tg128
    # 2023 CSV in a fence: cuda=1 -> backend CUDA, as the same run's markdown says
    assert [x["backends"] for x in lb("c07_readme2023_csv_fenced.md")] == ["CUDA", "CUDA"]
    assert [x["backends"] for x in lb("c08_readme2023_json_fenced.md")] == ["CUDA", "CUDA"]
    # old SQL table name `test`, build number from the row
    assert [(x["build_number"], x["avg_ts"]) for x in lb("c09_readme2023_sql_insert_into_test.sql")] == [
        (1275, 2407.240204),
        (1275, 130.891159),
    ]
    # `Â±` (± read as Latin-1) and a build line after the table
    rows = lb("c18_sycl_mojibake_plusminus.md")
    assert [(x["avg_ts"], x["stddev_ts"], x["build_number"]) for x in rows] == [
        (373.5, 3.96, 9159),
        (50.29, 0.12, 9159),
    ]
    # no outer pipes (copied from a rendered page)
    assert [x["avg_ts"] for x in lb("c19_metal_no_outer_pipes.md")] == [
        144.47,
        142.95,
        141.36,
        20.06,
        20.26,
        13.96,
    ]
    # `build: 45cac7ca7 (8833), GGML_SYCL_F16=ON` before the table
    assert {x["build_number"] for x in lb("c17_sycl_build_before_table.md")} == {8833}
    # early 2023 table: n_prompt / n_gen columns instead of a test column
    assert [(x["n_prompt"], x["n_gen"]) for x in lb("c16_2023_nprompt_ngen_columns.md")] == [
        (512, 0),
        (0, 128),
        (512, 128),
    ]

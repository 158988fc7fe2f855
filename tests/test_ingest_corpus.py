"""The corpus of publicly posted llama-bench outputs (tests/fixtures/ingest_corpus, sources in its
SOURCES.md): format detection reads >= 90% of the files, and no file loses rows silently."""

from __future__ import annotations

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

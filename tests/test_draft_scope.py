"""The setup a post declares (``draftcontext``, issue 29): a "Hardware:" or "All tests on:" line, a
"Setup" section, a key/value configuration table, a run's printed build and an issue form's "Name
and Version" outweigh what the post mentions in passing (a build a feature was merged at, a card
named as an example), wherever the declaration stands; and the controls where a section's own
heading or two declared values still decide."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def _of(cf, path: str) -> list[tuple[float | None, object]]:
    return [(c.value, _cond(cf, c).get(path)) for c in cf.claims]


def test_an_all_tests_on_line_outweighs_a_build_named_in_passing(tmp_path):
    cf = _drafted(
        "# Trying the new cache\n\n"
        "The cache landed upstream in llama.cpp at b7001, a week ago.\n\n"
        "Decode ran at 61 t/s with the cache on.\n\n"
        "All tests on: RTX 4080, llama.cpp b7020.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(61, "b7020")]
    assert _of(cf, "hardware") == [(61, "NVIDIA GeForce RTX 4080")]


def test_a_build_named_in_passing_with_no_declaration_stays(tmp_path):
    cf = _drafted(
        "# Trying the new cache\n\n"
        "The cache landed upstream in llama.cpp at b7001, a week ago.\n\n"
        "Decode ran at 61 t/s with the cache on.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(61, "b7001")]


def test_a_hardware_line_outweighs_a_card_a_section_names_as_an_example(tmp_path):
    cf = _drafted(
        "# Notes\n\n"
        "Hardware: RTX 3060 12GB.\n\n"
        "## Offload\n\n"
        "Cards with more memory (an RTX 4090 say) can keep every layer on the GPU.\n\n"
        "Here the experts stay on the CPU.\n\n"
        "| Model | t/s |\n|---|---|\n| Qwen3-8B | 44.1 |\n",
        tmp_path,
    )
    assert _of(cf, "hardware") == [(44.1, "NVIDIA GeForce RTX 3060")]


def test_a_section_heading_naming_its_machine_keeps_it_under_a_declared_one(tmp_path):
    cf = _drafted(
        "# Notes\n\n"
        "Hardware: RTX 3060 12GB.\n\n"
        "## On a borrowed RTX 4090\n\n"
        "| Model | t/s |\n|---|---|\n| Qwen3-8B | 97.3 |\n",
        tmp_path,
    )
    assert _of(cf, "hardware") == [(97.3, "NVIDIA GeForce RTX 4090")]


def test_a_key_value_setup_table_declares_machine_flags_and_features(tmp_path):
    cf = _drafted(
        "# llama.cpp on an H100\n\n"
        "## Test environment\n\n"
        "| Item | Value |\n|---|---|\n"
        "| GPU | NVIDIA H100 80GB SXM5 |\n"
        "| Engine | llama.cpp (FlashAttention, CUDA graphs) |\n"
        "| Flags | -ngl 99 -t 4 |\n\n"
        "## Results\n\n"
        "Decode: 212.5 t/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    got = _cond(cf, c)
    assert (got["hardware"], got["flash_attn"], got["offload"]) == (
        "NVIDIA H100 80GB SXM5",
        True,
        {"n_gpu_layers": 99},
    )


def test_a_two_column_table_of_results_declares_nothing(tmp_path):
    cf = _drafted(
        "# Two cards\n\n| GPU | t/s |\n|---|---|\n| RTX 3090 | 50.5 |\n| RTX 4090 | 80.5 |\n",
        tmp_path,
    )
    assert _of(cf, "hardware") == [(50.5, "NVIDIA GeForce RTX 3090"), (80.5, "NVIDIA GeForce RTX 4090")]


def test_no_flash_attention_in_a_setup_line_is_off(tmp_path):
    cf = _drafted("# Run\n\nSetup: llama.cpp, no FlashAttention.\n\nDecode ran at 33.3 t/s.\n", tmp_path)
    assert _of(cf, "flash_attn") == [(33.3, False)]


def test_a_printed_build_line_is_the_build(tmp_path):
    cf = _drafted(
        "# Bench\n\n```\n| model | test | t/s |\n| --- | --- | --- |\n"
        "| llama 8B Q4_0 | tg128 | 101.25 ± 0.3 |\n\nbuild: 4321 (a1b2c3d4)\n```\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(101.25, "4321 (a1b2c3d4)")]
    cf = _drafted(
        "# Bench\n\nOn mainline llama.cpp (build: `4321 (a1b2c3d4)`) decode ran at 30.5 t/s.\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(30.5, "4321 (a1b2c3d4)")]


def test_an_issue_forms_name_and_version_is_the_build_not_a_command(tmp_path):
    cf = _drafted(
        "# Slower server\n\n### What happened?\n\nDecode is only 19 t/s now.\n\n"
        "### Name and Version\n\nmain -head\n\n### Operating systems\n\nLinux\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("build"), _cond(cf, c).get("engine")) for c in cf.claims] == [
        (19, "main -head", None)
    ]


def test_a_post_running_sweep_bench_and_naming_no_engine_ran_ik_llama_cpp(tmp_path):
    text = "# Server slower than bench\n\nThe server gives 21 t/s but sweep-bench gives 28 t/s.\n"
    assert _of(_drafted(text, tmp_path), "engine") == [(21, "ik_llama.cpp"), (28, "ik_llama.cpp")]
    text = (
        "# Server slower than bench\n\nOn llama.cpp the server gives 21 t/s but sweep-bench gives 28 t/s.\n"
    )
    assert _of(_drafted(text, tmp_path), "engine") == [(21, "llama.cpp"), (28, "llama.cpp")]

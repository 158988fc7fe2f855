"""Setup conditions stated once for a scope of claims (``draftcontext``, ``draftcommand``, issue 29):
a command written one flag a line with no continuation marks, the settings several command lines
share, and the controls where a setting only one command line has, or a prose line after a
command, stays out."""

from __future__ import annotations

from benchbook.audit.draftcolumn import column_machine
from benchbook.audit.draftcommand import agreed, command_lines
from benchbook.audit.draftcontext import stated
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _of(cf, path: str) -> list[tuple[float | None, object]]:
    return [(c.value, _cond(cf, c).get(path)) for c in cf.claims]


def test_a_command_one_flag_a_line_without_continuation_marks_is_one_command():
    lines = [(3, "llama-server"), (4, "--ctx-size 32768"), (5, "--flash-attn"), (6, "-ngl 80")]
    [cmd] = command_lines(lines)
    assert (cmd.line, cmd.last) == (3, 6)
    assert cmd.conditions["ctx"] == 32768
    assert cmd.conditions["flash_attn"] is True
    assert cmd.conditions["offload"] == {"n_gpu_layers": 80}


def test_a_prose_line_after_a_command_is_no_part_of_it():
    lines = [(3, "llama-bench -ngl 80"), (4, "then -c 4096 made no difference")]
    [cmd] = command_lines(lines)
    assert cmd.last == 3
    assert "ctx" not in cmd.conditions


def test_agreed_keeps_what_every_command_sets_alike():
    # ctx 8192 in both; type_k in the first only; batch differs (512 vs 1024)
    first = {"ctx": [8192], "type_k": ["q8_0"], "batch": [512]}
    second = {"ctx": [8192], "batch": [1024]}
    assert agreed([first, second]) == {"ctx": [8192]}
    assert agreed([first]) == {}


def test_settings_two_commands_share_hold_for_the_claims_above_them(tmp_path):
    cf = _drafted(
        "# Cache types on a 4080\n\n"
        "With a quantised cache I got 21 tok/s generation; with the default cache 48 tok/s.\n\n"
        "Slow command:\n\n"
        "llama-server\n--ctx-size 16384\n--n-gpu-layers 60\n--cache-type-k q8_0\n\n"
        "Fast command:\n\n"
        "llama-server\n--ctx-size 16384\n--n-gpu-layers 60\n",
        tmp_path,
    )
    assert _of(cf, "ctx") == [(21, 16384), (48, 16384)]
    assert _of(cf, "offload") == [(21, {"n_gpu_layers": 60}), (48, {"n_gpu_layers": 60})]
    # the cache type only one command sets is that run's, not the post's
    assert _of(cf, "type_k") == [(21, None), (48, None)]


def test_two_commands_that_differ_give_neither_value(tmp_path):
    cf = _drafted(
        "# Context sizes on a 4080\n\n"
        "Generation ran at 21 tok/s and 48 tok/s.\n\n"
        "llama-server\n--ctx-size 16384\n\n"
        "llama-server\n--ctx-size 4096\n",
        tmp_path,
    )
    assert _of(cf, "ctx") == [(21, None), (48, None)]


def test_a_value_column_header_naming_a_card_is_its_claims_machine(tmp_path):
    cf = _drafted(
        "# Two cards\n\n| Model | RTX 3080 | Rev B: 2080Ti |\n|---|---|---|\n"
        "| Mistral-7B | 61 t/s | 44 t/s |\n",
        tmp_path,
    )
    assert _of(cf, "hardware") == [(61, "NVIDIA GeForce RTX 3080"), (44, "NVIDIA GeForce RTX 2080 Ti")]


def test_a_value_column_header_naming_two_cards_or_none_gives_no_machine():
    assert column_machine("RTX 4070 vs RTX 3070") is None
    assert column_machine("Speed (tok/s)") is None
    assert column_machine("Run: 2") is None
    assert column_machine("M2 Ultra (tok/s)") == "Apple M2 Ultra"


def test_a_mode_column_of_gptq_cells_is_the_quant_not_the_decoding(tmp_path):
    cf = _drafted(
        "# Kernels\n\n| Model | Mode | tok/s |\n|---|---|---|\n"
        "| Falcon-7B | AWQ | 88 |\n| Falcon-40B | AWQ | 21 |\n",
        tmp_path,
    )
    assert _of(cf, "quant") == [(88, "AWQ"), (21, "AWQ")]
    assert all(d in (None, "plain") for _, d in _of(cf, "decoding"))


def test_a_mode_column_of_drafting_words_still_sets_the_decoding(tmp_path):
    cf = _drafted(
        "# Drafting\n\n| Model | Mode | tok/s |\n|---|---|---|\n| Falcon-7B | speculative | 88 |\n"
        "| Falcon-7B | baseline | 51 |\n",
        tmp_path,
    )
    assert _of(cf, "decoding") == [(88, "speculative"), (51, "plain")]


def test_an_fp16_kv_cache_written_in_words_is_ggml_f16(tmp_path):
    cf = _drafted("# Cache\n\nTwo RTX 3060, FP16 KV cache, 8K context:\n\n- decode: 37 tok/s\n", tmp_path)
    assert _of(cf, "type_k") == [(37, "f16")]
    assert _of(cf, "type_v") == [(37, "f16")]


def test_fp16_weights_name_no_cache_type(tmp_path):
    cf = _drafted("# Cache\n\nTwo RTX 3060, FP16 weights, 8K context:\n\n- decode: 37 tok/s\n", tmp_path)
    assert _of(cf, "type_k") == [(37, None)]


def test_a_binary_run_from_a_release_folder_names_its_build_and_backend():
    [cmd] = command_lines([(1, "./llama-b5123-bin-win-vulkan-x64/llama-bench -m qwen3-4b-Q8_0.gguf -p 512")])
    assert cmd.conditions["build"] == "b5123"
    assert cmd.conditions["backend"] == "Vulkan"
    [fork] = command_lines([(1, "~/forks/some_llama.cpp-b4099/llama-server -c 8192")])
    assert fork.conditions["build"] == "b4099"
    assert "backend" not in fork.conditions


def test_a_folder_without_a_build_number_names_none():
    [cmd] = command_lines([(1, "./build/bin/llama-bench -m qwen3-4b-Q8_0.gguf -p 512")])
    assert "build" not in cmd.conditions
    assert "backend" not in cmd.conditions


def test_a_release_line_naming_the_backend_with_its_version(tmp_path):
    cf = _drafted(
        "# Cache\n\nRelease used: Vulkan-1 b5120 on an RTX 3060.\n\nDecode ran at 37 tok/s.\n", tmp_path
    )
    assert _of(cf, "backend") == [(37, "Vulkan")]
    control = _drafted(
        "# Cache\n\nRelease used: b5120 on an RTX 3060.\n\nDecode ran at 37 tok/s.\n", tmp_path
    )
    assert _of(control, "backend") == [(37, None)]


def test_tokens_output_in_a_setup_table_is_the_tokens_generated(tmp_path):
    cf = _drafted(
        "# Single user\n\n| Setting | Value |\n|---|---|\n| GPU | RTX 4080 |\n"
        "| Workload | 512 tokens input, 128 tokens output |\n\nDecode ran at 57 tok/s.\n",
        tmp_path,
    )
    assert _of(cf, "tokens_generated") == [(57, 128)]


def test_a_tokens_output_limit_is_no_run_length():
    assert stated([(1, "Replies stop at a 300 tokens output limit.")], "text") == []
    assert stated([(1, "Replies: 300 tokens output.")], "text") == [("tokens_generated", 300)]


def test_a_two_column_table_of_results_is_no_setup(tmp_path):
    cf = _drafted(
        "# Prompts\n\nOn an RTX 4080:\n\n| Prompt | tok/s |\n|---|---|\n| code | 57 |\n| prose | 49 |\n",
        tmp_path,
    )
    assert _of(cf, "prompt") == [(57, "code"), (49, "prose")]


def test_device_counts_in_words_and_workstation_cards_by_their_names():
    from benchbook.audit.draftnames import mentions

    def machines(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("ran on a dual RTX 3070 box") == ["2x NVIDIA GeForce RTX 3070"]
    assert machines("a pair of 3080s") == ["2x NVIDIA GeForce RTX 3080"]
    assert machines("my quad P100 rig") == ["4x NVIDIA Tesla P100"]
    assert machines("4 x Quadro P5000") == ["4x NVIDIA Quadro P5000"]
    assert machines("an RTX A5000") == ["NVIDIA RTX A5000"]
    assert machines("NVIDIA RTX PRO 5000 Blackwell Server Edition") == [
        "NVIDIA RTX PRO 5000 Blackwell Server Edition"
    ]
    # controls: one card, a GeForce card, dual-channel memory
    assert machines("a single RTX 3070") == ["NVIDIA GeForce RTX 3070"]
    assert machines("dual-channel DDR5 beside an RTX 3070 Ti") == ["NVIDIA GeForce RTX 3070 Ti"]


def test_a_build_named_with_its_engine_is_not_another_engines(tmp_path):
    """The SGLang table's build is SGLang's own ("SGLang build: 0.4.7"), never vLLM's 0.9.1 listed
    beside it (``draft._Drafter.engine_builds``; it was none before each engine's version was read)."""
    cf = _drafted(
        "# Two engines\n\nTested on an M2 Max.\n\n* vLLM: 0.9.1\n* SGLang build: 0.4.7\n\n"
        "### SGLang\n\n| Prompt | tok/s |\n|---|---|\n| 512 | 61 |\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(61, "0.4.7")]


def test_a_build_named_with_the_claims_engine_stays(tmp_path):
    cf = _drafted(
        "# One engine\n\nTested on an M2 Max.\n\n* vLLM: 0.9.1\n\n"
        "### vLLM\n\n| Prompt | tok/s |\n|---|---|\n| 512 | 61 |\n",
        tmp_path,
    )
    assert _of(cf, "build") == [(61, "0.9.1")]


def test_a_radeon_by_its_number_and_suffix_without_rx():
    from benchbook.audit.draftnames import mentions

    def machines(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("numbers from a 7800 XT") == ["AMD Radeon RX 7800 XT"]
    assert machines("two 7900 XTX cards") == ["2x AMD Radeon RX 7900 XTX"]
    # control: a number with no Radeon suffix names no card
    assert machines("at 7800 tokens") == []

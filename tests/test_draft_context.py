"""A post's context as a scope tree (``draftcontext``, issue 29): the conditions a drafted claim takes
from the post around it -- its title, a section heading, a setup list, a command line, a table's
caption -- where nothing nearer states another value; and the controls where it must not fire (two
machines in one post, a quoted number)."""

from __future__ import annotations

from pathlib import Path

from benchbook.audit.draftcontext import Context, stated
from benchbook.audit.draftwords import count
from benchbook.audit.post import read_post
from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_setup_command_and_title_hold_for_every_claim_of_the_post(tmp_path):
    cf = _drafted(
        "# Qwen3-30B-A3B on my RTX 4090\n\n"
        "Setup:\n\n"
        "```\nllama-server -m Qwen3-30B-A3B-UD-Q4_K_XL.gguf -c 16384 -fa on -ctk q8_0 -ctv q8_0 -np 1 "
        "--temp 0\n```\n\n"
        "## Results\n\n"
        "Generation ran at 85 t/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    assert (c.metric, c.value) == ("decode_tps", 85.0)
    assert _cond(cf, c) == {
        "hardware": "NVIDIA GeForce RTX 4090",
        "engine": "llama.cpp",
        "model": "Qwen3-30B-A3B",
        "quant": "UD-Q4_K_XL",
        "ctx": 16384,
        "flash_attn": True,
        "type_k": "q8_0",
        "type_v": "q8_0",
        "concurrency": 1,
        "sampling": "temperature 0",
        "decoding": "plain",  # the post names no drafting
    }


def test_a_command_after_the_numbers_holds_for_its_section(tmp_path):
    """A command line below the numbers of its section ("Command used:") is theirs too."""
    cf = _drafted(
        "## Build b4000\n\nGeneration ran at 40.1 t/s.\n\nCommand used:\n\n"
        "```\nllama-cli -m gemma-2-27b-it-Q4_K_M.gguf --ctx-size 8192 -n 128\n```\n",
        tmp_path,
    )
    (c,) = cf.claims
    assert _cond(cf, c) == {
        "build": "b4000",
        "engine": "llama.cpp",
        "model": "gemma-2-27b-it",
        "quant": "Q4_K_M",
        "ctx": 8192,
        "cap": 128,
        "decoding": "plain",
    }


def test_two_machines_in_one_post_give_neither_to_the_claims_outside_their_sections(tmp_path):
    """Control: a post comparing two GPUs states no one machine: the summary above the sections gets
    no hardware; each section's claims get their own heading's card."""
    cf = _drafted(
        "# Two cards compared\n\n"
        "Across both cards the model loads in 12 s.\n\n"
        "## RTX 3090\n\nGeneration ran at 40.5 t/s.\n\n"
        "## RX 7900 XTX\n\nGeneration ran at 30.5 t/s.\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("hardware") for c in cf.claims}
    assert got == {12.0: None, 40.5: "NVIDIA GeForce RTX 3090", 30.5: "AMD Radeon RX 7900 XTX"}


def test_a_nearer_scope_states_another_value_and_wins(tmp_path):
    """The title's card holds for the post, a section heading naming another holds for its section;
    a paragraph naming two cards gives neither, its claims keep the section's."""
    cf = _drafted(
        "# Benchmarks on an RTX 4090\n\n"
        "Plain decoding: 120.5 t/s.\n\n"
        "## The same on an RTX 3060\n\n"
        "Plain decoding: 45.5 t/s. Unlike the RTX 4090 or an RTX 5090, the RTX 3060 needs offload.\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("hardware") for c in cf.claims}
    assert got == {120.5: "NVIDIA GeForce RTX 4090", 45.5: "NVIDIA GeForce RTX 3060"}


def test_a_quoted_number_takes_no_context(tmp_path):
    """Control: another author's number (``origin``) ran elsewhere: none of the post's setting."""
    cf = _drafted(
        "# Qwen3-8B\n\nThe vendor's blog gives 150 t/s for it.\n\nMine ran at 50.5 t/s.\n\n"
        "```\nllama-server -m Qwen3-8B-Q4_K_M.gguf -c 8192\n```\n",
        tmp_path,
    )
    got = {c.value: (c.origin is not None, _cond(cf, c).get("ctx")) for c in cf.claims}
    assert got == {150.0: (True, None), 50.5: (False, 8192)}


def test_a_heading_sets_decoding_a_paragraph_does_not(tmp_path):
    """ "### With MTP" names its section's decoding; "MTP doesn't help here" in a paragraph compares
    (control: no decoding from it)."""
    cf = _drafted(
        "# Results\n\nMTP doesn't help here. Runs reach 56.5 t/s.\n\n### With MTP\n\n"
        "| prompt | tok/s |\n|---|---|\n| code | 73.5 |\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("decoding") for c in cf.claims}
    assert got == {56.5: None, 73.5: "draft-self"}


def test_flags_in_inline_code_and_settings_in_words():
    names = stated(
        [(1, "Common flags: `-np 1 -fa on -ctk q8_0 -ctv q8_0 --draft-max 2`, 131K context, greedy.")], "text"
    )
    assert names == [
        ("concurrency", 1),
        ("flash_attn", True),
        ("type_k", "q8_0"),
        ("type_v", "q8_0"),
        ("block_max", 2),
        ("ctx", 131072),
        ("sampling", "greedy"),
    ]


def test_settings_in_words_kv_cache_temperature_and_an_engine_version():
    names = stated([(1, "vLLM 0.7.3 with fp8 KV cache, temperature 0.1 and 32k context.")], "text")
    assert sorted(names, key=str) == sorted(
        [
            ("engine", "vLLM"),
            ("build", "0.7.3"),
            ("type_k", "fp8"),
            ("type_v", "fp8"),
            ("sampling", "temperature 0.1"),
            ("ctx", 32768),
        ],
        key=str,
    )


def test_context_sizes_written_in_k():
    """Powers of two written in thousands or in units of 1024 are one size; other sizes thousands."""
    assert [count(n, "k") for n in ("128", "131", "262", "32", "80", "1.5")] == [
        131072,
        131072,
        262144,
        32768,
        80000,
        1500,
    ]
    assert count("8192", None) == 8192


def test_scope_chain_of_a_line():
    post = read_post("# T on an M2 Max\n\n## A\n\ntext 1\n\n### B\n\ntext 2\n\n## C\n\ntext 3\n")
    ctx = Context(post)
    assert [s.level for s in ctx.chain(9)] == [8, 3, 2, 0]
    assert [s.level for s in ctx.chain(13)] == [8, 2, 0]
    assert ctx.at(13) == {"hardware": "Apple M2 Max"}


def test_names_of_kinds_mac_chips_builds_and_denied_names():
    """A Mac named with its chip is the chip, the machine beside it; a build as llama.cpp's tag with
    its suffix or as ``--version`` prints it (a commit alone is none); a name denied ("no ROCm")
    states nothing."""
    from benchbook.audit.draftnames import mentions

    got = [
        (m.path, m.value)
        for m in mentions(
            "On a Mac mini M4 with llama.cpp b4980-cu12.4, build 9553 (9e3b928fd), fork at commit 6289c51, "
            "Vulkan backend (no ROCm)."
        )
    ]
    assert got == [
        ("hardware", "Apple M4 (Mac mini)"),
        ("engine", "llama.cpp"),
        ("backend", "CUDA"),
        ("build", "b4980-cu12.4"),
        ("build", "9553 (9e3b928fd)"),
        ("backend", "Vulkan"),
    ]
    # control: "not the RTX 4090" names no card
    assert [(m.path, m.value) for m in mentions("ran at 1500 t/s, not the RTX 4090")] == []


def test_a_model_said_short_is_the_one_the_post_names_in_full(tmp_path):
    """ "Qwen3.6 35B" in a sentence is the post's "Qwen3.6-35B-A3B" (its command's model); control:
    with two fuller names ("-Instruct", "-Base") it stays as written."""
    cf = _drafted(
        "# Notes\n\nQwen3.6 35B ran at 56.5 t/s.\n\n```\nllama-server -m Qwen3.6-35B-A3B-Q4_K_M.gguf\n```\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c)["model"]) for c in cf.claims] == [(56.5, "Qwen3.6-35B-A3B")]
    cf = _drafted(
        "# Notes\n\nQwen3-8B ran at 56.5 t/s.\n\nI also tried Qwen3-8B-Instruct and Qwen3-8B-Base.\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c)["model"]) for c in cf.claims] == [(56.5, "Qwen3-8B")]


def test_tokens_generated_n_max_and_a_runtime_column(tmp_path):
    cf = _drafted(
        "# Bench\n\nWorkload: 256 input → 128 output tokens.\n\n"
        "| Runtime | n-max | TG (t/s) |\n|---|---|---|\n| llama.cpp | 3 | 40.5 |\n| Ollama | 3 | 30.5 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c)) for c in cf.claims]
    assert got == [
        (40.5, {"engine": "llama.cpp", "block_max": 3, "tokens_generated": 128}),
        (30.5, {"engine": "Ollama", "block_max": 3, "tokens_generated": 128}),
    ]


def test_a_model_column_of_sizes_takes_the_posts_one_family_and_llama_cli_p_is_the_prompt(tmp_path):
    """A model column of sizes ("0.8B") under a post about one family ("Qwen 3.5") is that family's
    model; llama-cli's ``-p "..."`` is the prompt (llama-bench's ``-p 512`` is a length, not one);
    "M2 Mac Mini" is the chip, the machine beside it.  Control: a post naming two families leaves
    the sizes as written."""
    cf = _drafted(
        '# Qwen 3.5 on an M2 Mac Mini\n\n`llama-cli -p "Tell me a long story." -m [model]`\n\n'
        "| Model | TG (t/s) |\n|---|---|\n| 0.8B | 80.5 |\n| 9B | 20.5 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c)) for c in cf.claims]
    common = {
        "hardware": "Apple M2 (Mac mini)",  # (Apple's spelling, whatever the post's case)
        "engine": "llama.cpp",
        "prompt": "Tell me a long story.",
        "decoding": "plain",
        "backend": "Metal",  # a guess: llama.cpp's default backend on Apple silicon
    }
    assert got == [(80.5, {**common, "model": "Qwen3.5-0.8B"}), (20.5, {**common, "model": "Qwen3.5-9B"})]
    cf = _drafted(
        "# Qwen 3.5 and Gemma 3\n\n| Model | TG (t/s) |\n|---|---|\n| 0.8B | 80.5 |\n| 9B | 20.5 |\n",
        tmp_path,
    )
    assert [_cond(cf, c)["model"] for c in cf.claims] == ["0.8B", "9B"]


def test_command_flags_that_name_a_field_prompt_cap_tokens_and_sampling():
    """``draftcommand``: llama-cli's ``-p "text"`` is the prompt and ``-n`` a cap; llama-bench's ``-p``
    is a length (control: no prompt) and its ``-n`` the tokens generated; ``--temp 0`` sampling."""
    from benchbook.audit.draftcommand import command_lines

    cli, bench = command_lines(
        [
            (1, 'llama-cli -m a-Q4_0.gguf -p "Tell me a story." -n 200 --temp 0.0 --top-k 1'),
            (2, "llama-bench -m a-Q4_0.gguf -p 512 -n 128"),
        ]
    )
    assert cli.conditions == {
        "engine": "llama.cpp",
        "model": "a",
        "quant": "Q4_0",
        "prompt": "Tell me a story.",
        "cap": 200,
        "sampling": "greedy",  # --top-k 1: one candidate, whatever the temperature
        "decoding": "plain",  # llama-cli told no draft model drafts nothing
    }
    assert bench.conditions == {
        "engine": "llama.cpp",
        "model": "a",
        "quant": "Q4_0",
        "tokens_generated": 128,
    }


def test_label_cells_by_their_shape_a_concurrency_header_and_a_cuda_build(tmp_path):
    """ "c4"/"C1 greedy" label cells are requests at once, "pp2048 tg128 @ d4096" a llama-bench test
    (tokens generated, depth); a "Max Concurrency" column is the concurrency; "b4980-cu12.4" a CUDA
    build.  Control: "C++" or "c4ai" is no concurrency."""
    from benchbook.audit.draftcontext import cell_conditions

    assert [
        cell_conditions(c) for c in ("c4", "**C1 greedy**", "pp2048 tg128 @ d4096", "C++", "c4ai", "tg128")
    ] == [
        {"concurrency": 4},
        {"concurrency": 1, "sampling": "greedy"},
        {"tokens_generated": 128, "depth": 4096},
        {},
        {},
        {"tokens_generated": 128},
    ]
    cf = _drafted(
        "# Windows, RTX 3060, llama.cpp b4980-cu12.4\n\n"
        "| Max Concurrency | Output Tok/s |\n|---|---|\n| 1 | 60.5 |\n| 8 | 300.5 |\n",
        tmp_path,
    )
    machine = {
        "hardware": "NVIDIA GeForce RTX 3060",
        "engine": "llama.cpp",
        "build": "b4980-cu12.4",
        "backend": "CUDA",
        "decoding": "plain",
    }
    assert [(c.value, _cond(cf, c)) for c in cf.claims] == [
        (60.5, {**machine, "concurrency": 1}),
        (300.5, {**machine, "concurrency": 8}),
    ]


def test_a_setting_column_in_k_and_a_cold_row(tmp_path):
    """A depth column of "0 (cold)", "16K", "32K" is 0, 16384, 32768 (``count``); control: "n/a"
    stays under ``other``."""
    cf = _drafted(
        "| Depth | tg (t/s) |\n|---|---|\n| 0 (cold) | 107.5 |\n| 16K | 96.5 |\n| 32K | 88.5 |\n"
        "| about half | 70.5 |\n",
        tmp_path,
    )
    got = [(c.value, c.conditions.depth, c.conditions.other) for c in cf.claims]
    assert got == [
        (107.5, 0, {}),
        (96.5, 16384, {}),
        (88.5, 32768, {}),
        (70.5, None, {"depth": "about half"}),
    ]


def test_a_command_folded_one_flag_per_line_sets_its_section(tmp_path):
    """A llama-server command in a YAML ``cmd: >`` block (one flag per indented line, no ``\\``;
    the binary named with its build, ``llama-server-be0e35``) sets the conditions of its section's
    table; control: a line after it that starts no flag ends it."""
    cf = _drafted(
        "## Coding\n\n```yaml\nmodels:\n  coder:\n    cmd: >\n      /opt/llama-server-be0e35\n"
        "      --flash-attn\n      --model /m/Qwen2.5-Coder-32B-Instruct-Q4_K_M.gguf\n      -ngl 99\n"
        "      --ctx-size 19000\n      --model-draft /m/Qwen2.5-Coder-0.5B-Instruct-Q8_0.gguf\n"
        "      --draft-max 16\n    proxy: http://127.0.0.1:9503\n```\n\n"
        "| prompt | tok/s |\n|---|---|\n| python | 71.64 |\n",
        tmp_path,
    )
    (c,) = cf.claims
    assert _cond(cf, c) == {
        "engine": "llama.cpp",
        "build": "be0e35",
        "model": "Qwen2.5-Coder-32B-Instruct",
        "quant": "Q4_K_M",
        "offload": {"n_gpu_layers": 99},
        "ctx": 19000,
        "flash_attn": True,
        "decoding": "speculative",
        "block_max": 16,
        "prompt": "python",
        # --model-draft's file name gives the draft's quant as --model's gives the target's
        "other": {"draft_model": "Qwen2.5-Coder-0.5B-Instruct", "draft_quant": "Q8_0"},
    }


def test_a_drafted_claim_takes_the_posts_one_kind_of_drafting(tmp_path):
    """An acceptance, or a rate with a draft size ("n-max 3"), is a drafting run: in a post about MTP
    alone, draft-self; the baseline rate beside it is plain ("the baseline", ``draftnames``), not the
    post's kind (a title's "MTP" would hold for the whole post, as a title's names do).  Control: a
    post naming MTP and a draft model leaves the drafting runs to the reader."""
    text = "{t}\n\nAt n-max 3 it ran 85.5 tok/s, acceptance 0.73 aggregate; the baseline ran 41.5 tok/s.\n"
    cf = _drafted(text.format(t="I tried MTP on a 7900 XTX."), tmp_path)
    got = [(c.value, _cond(cf, c).get("decoding")) for c in cf.claims]
    assert got == [(85.5, "draft-self"), (0.73, "draft-self"), (41.5, "plain")]
    cf = _drafted(text.format(t="I tried MTP and a draft model on a 7900 XTX."), tmp_path)
    assert [_cond(cf, c).get("decoding") for c in cf.claims] == [None, None, "plain"]


def test_a_draft_is_the_same_bytes_whatever_the_hash_seed(tmp_path):
    """The context's conditions were filled in set order, which Python's string hashing changes from
    run to run: drafting a post twice wrote the same conditions in another order (24 of 80 corpus
    drafts differed between two runs), so a re-drafted claims file churned in git."""
    import os
    import subprocess
    import sys

    post = Path(__file__).parent / "fixtures" / "draft_corpus" / "p02_mtp_metal_net_loss.md"
    outs = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"d{seed}.yaml"
        subprocess.run(
            [sys.executable, "-m", "benchbook.cli", "claims", "draft", str(post), "-o", str(out)],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2]


def test_a_post_naming_no_drafting_ran_with_plain_decoding(tmp_path):
    """No engine drafts by default: a post that never names speculative decoding, a draft model, MTP,
    EAGLE or n-gram lookup ran its numbers with plain decoding (``draftcontext.names_drafting``).
    Controls: a post naming drafting anywhere (in another language, or a log's ``n_drafted``) gets
    no plain decoding where nothing near the claim says it."""
    from benchbook.audit.draftcontext import names_drafting

    cf = _drafted("# Llama 3 8B on a 3060\n\nGeneration ran at 61.5 t/s with Ollama.\n", tmp_path)
    (c,) = cf.claims
    assert _cond(cf, c)["decoding"] == "plain"
    for text in (
        "Speculative decoding is next on my list. Generation ran at 61.5 t/s.",
        "用投机解码后生成速度 61.5 t/s。",
        "Generation ran at 61.5 t/s.\n\n```\nn_drafted = 376\n```",
        "Generation ran at 61.5 t/s (EAGLE-3 head).",
    ):
        assert names_drafting(text), text
        cf = _drafted(text + "\n", tmp_path)
        assert _cond(cf, cf.claims[0]).get("decoding") != "plain", text
    assert not names_drafting("The first draught of a post on Llama 3")


def test_pasted_output_reporting_the_device_or_model_names_them(tmp_path):
    cf = _drafted(
        "# Slow server\n\n```\nggml_cuda_init: found 1 CUDA devices:\n"
        "  Device 0: NVIDIA GeForce RTX 4070 Ti, compute capability 8.9, VMM: yes\n```\n\n"
        "It generates around 26 tokens per second.\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("hardware")) for c in cf.claims] == [
        (26, "NVIDIA GeForce RTX 4070 Ti")
    ]
    cf = _drafted(
        "# Second box\n\n```\n  Hardware: amd radeon rx 7900 xtx\n"
        "  Model:    Mistral-7B-Instruct-Q5_K_M.gguf\n  eval rate: 41.5 tokens/s\n```\n",
        tmp_path,
    )
    got = [(c.value, *(_cond(cf, c).get(k) for k in ("hardware", "model", "quant"))) for c in cf.claims]
    assert got == [(41.5, "AMD Radeon RX 7900 XTX", "Mistral-7B-Instruct", "Q5_K_M")]


def test_a_log_line_naming_a_file_states_no_model(tmp_path):
    # control: a loader's line with a file name, and an unlabelled mention, are the log's, not the setting
    cf = _drafted(
        "# Run\n\n```\nllama_model_loader: loaded meta data from Qwen3-8B-Q4_K_M.gguf (version GGUF V3)\n"
        "running on RTX 3090\n```\n\nIt decodes at 55.2 tok/s.\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("model"), _cond(cf, c).get("hardware")) for c in cf.claims] == [
        (55.2, None, None)
    ]


def test_a_sentence_placing_main_and_draft_models_on_two_devices_names_the_pair(tmp_path):
    """A section that places the main model on one device and the draft model on another ("a 4080
    for the main model and a 3060 for the draft model") ran its speculative rows on the pair:
    hardware ``"<main> (main) + <draft> (draft)"`` (``draftnames.placement``), while a sentence
    naming its own one device keeps it.  Controls: two devices compared, or only one role placed,
    name no pair."""
    from benchbook.audit.draftnames import placement

    cf = _drafted(
        "# Split speculative setup\n\n## Coding\n\n"
        "Two cards are used here, an RTX 4080 (GPU0) for the main model and an RTX 3060 (GPU1) for "
        "the draft model.\n\nWithout drafting: 21.5 tokens/second on the 4080 alone.\n\n"
        "| draft-max | rate |\n|---|---|\n| 8 | 44.25 tok/s |\n| 4 | 39.75 tok/s |\n",
        tmp_path,
    )
    got = sorted((c.value, _cond(cf, c).get("hardware")) for c in cf.claims)
    pair = "NVIDIA GeForce RTX 4080 (main) + NVIDIA GeForce RTX 3060 (draft)"
    assert got == [(21.5, "NVIDIA GeForce RTX 4080"), (39.75, pair), (44.25, pair)]
    assert placement("The main model is on the RTX 4090 and the draft model on an RTX 3060.") == (
        "NVIDIA GeForce RTX 4090 (main) + NVIDIA GeForce RTX 3060 (draft)"
    )
    assert placement("We compared an RTX 4090 and an RTX 3060 for the draft model.") is None
    assert placement("The RTX 4090 is faster than the RTX 3060 for the main model.") is None


def test_a_quantisation_written_short_takes_the_posts_full_name(tmp_path):
    """A post naming a file's quantisation in full once ("UD-Q5_K_XL", "UD-IQ2_XXS") and shortly
    elsewhere ("Q5_K_XL", "IQ2") drafts the full name (``draftcontext._fuller_quant_of``).
    Controls: a k-quant cut to its bits ("Q5") stays as written, and so does a short name two
    full names would fit."""
    from benchbook.audit.draftcontext import _fuller_quant_of

    fuller = _fuller_quant_of(["UD-Q5_K_XL", "UD-IQ2_XXS", "Q5_K_M", "Q6_K"])
    assert [fuller(q) for q in ("Q5_K_XL", "IQ2", "Q5", "Q6_K", "UD-Q5_K_XL")] == [
        "UD-Q5_K_XL",
        "UD-IQ2_XXS",
        "Q5",
        "Q6_K",
        "UD-Q5_K_XL",
    ]
    assert _fuller_quant_of(["IQ2_XXS", "IQ2_M"])("IQ2") == "IQ2"
    cf = _drafted(
        "# Two files\n\nThe model file is Mistral-7B-Instruct-UD-Q5_K_XL.gguf.\n\n"
        "| model | tg |\n|---|---|\n| Mistral-7B Q5_K_XL | 47.5 t/s |\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("quant")) for c in cf.claims] == [(47.5, "UD-Q5_K_XL")]


def test_a_list_lead_in_linking_a_commit_names_the_build(tmp_path):
    """A lead-in over a list of results that links the commit it ran ("ExLlama [commit](…/commit/
    <sha>):") names the build: the sha's first 8 hex digits; links to two repositories' commits are
    one build, "<repo> <sha8> + <repo> <sha8>" (``draftcontext._commit_links``).  Control: a lead-in
    with a link to no commit names no build."""
    sha = "0123abcd4567ef890123abcd4567ef890123abcd"
    cf = _drafted(
        f"# Results\n\n## RTX 4080\n\nExLlama [commit](https://github.com/someone/exllama/commit/{sha}):\n"
        "- 7B: 101.5 token/sec\n- 13B: 61.25 token/sec\n\n"
        f"Engine [commit](https://github.com/a/eng/commit/{sha}) + compiler "
        f"[commit](https://github.com/b/comp/commit/{sha[::-1]}):\n- 7B: 120.5 token/sec\n\n"
        "Plain [results](https://example.org/results/page):\n- 7B: 99.5 token/sec\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("build")) for c in cf.claims] == [
        (101.5, "0123abcd"),
        (61.25, "0123abcd"),
        (120.5, "eng 0123abcd + comp dcba3210"),
        (99.5, None),
    ]


def test_a_command_column_states_its_rows_model_and_settings(tmp_path):
    """A table whose row carries its own command line in a cell ("| … | python3 bench.py --model
    org/Mistral-7B-Instruct --num-spec-tokens 4 |") ran that row with that command's model and
    settings (``draftcontext.cell_conditions``).  Control: a cell of prose ("see the -- notes") and
    flags alone state no model."""
    from benchbook.audit.draftcontext import cell_conditions

    cf = _drafted(
        "# Runs\n\n| Method | Rate (tok/s) | Command |\n|---|---|---|\n"
        "| spec | 88.5 | vllm serve org/Mistral-7B-Instruct --num-speculative-tokens 4 |\n"
        "| plain | 51.25 | vllm serve org/Phi-3-mini-4k-instruct |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("model"), _cond(cf, c).get("block_max")) for c in cf.claims]
    assert got == [(88.5, "Mistral-7B-Instruct", 4), (51.25, "Phi-3-mini-4k-instruct", None)]
    assert cell_conditions("see the -- notes") == {}
    assert "model" not in cell_conditions("--spec-draft-n-max 2")


def test_value_columns_ending_pre_and_post_name_the_build_of_each_side(tmp_path):
    """A table measuring a change with a column per side ("gen tok/s pre | gen tok/s post") names
    the build of each column by its last word (``draftcontext.header_settings``).  Control: a
    header of that word alone ("Post") or with no such word names no build."""
    from benchbook.audit.draftcontext import header_settings

    cf = _drafted(
        "# A pull request\n\nctx | gen tok/s pre | gen tok/s post\n--- | --- | ---\n2048 | 11.25 | 17.5\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("build")) for c in cf.claims] == [(11.25, "pre"), (17.5, "post")]
    assert header_settings("Post") == {}
    assert header_settings("gen tok/s") == {}
    assert header_settings("TTFT after") == {"build": "after"}


def test_a_title_version_written_short_takes_the_texts_full_version(tmp_path):
    """A title naming a release short ("vLLM 0.9") over a text naming it in full ("vLLM 0.9.2")
    gives the full version (``draftcontext._fuller_version``).  Controls: another release in the
    text ("0.10.1") or two full ones leave the title's."""
    from benchbook.audit.draftcontext import _fuller_version

    cf = _drafted("# vLLM 0.9 on one GPU\n\nWe ran vLLM 0.9.2 for it.\n\nIt served 81.5 tok/s.\n", tmp_path)
    assert [(c.value, _cond(cf, c).get("build")) for c in cf.claims] == [(81.5, "0.9.2")]
    assert _fuller_version("0.9.2", "0.9") and _fuller_version("v1.2.3", "v1.2")
    assert not _fuller_version("0.10.1", "0.1") and not _fuller_version("0.9", "0.9")
    text = "# vLLM 0.9 on one GPU\n\nWe ran vLLM 0.9.2 and vLLM 0.9.3 for it.\n\nIt served 81.5 tok/s.\n"
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("build") for c in cf.claims] == ["0.9"]

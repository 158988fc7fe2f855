"""Kinds of condition the corpus showed the drafter missing (issue 29), each fixed as a kind: an
engine's build written as its tool prints it after the engine's name ("llama.cpp build: 4722
(68ff663a)") applies to that engine's claims anywhere in the post; the two sides of a change a
post measures ("| Before | After |", "PP-512 (PR)" beside "PP-512 (master)", "Pre:" / "Post:"
lines) are builds; and the corpus scorer's rule that two spellings of one engine or one build
("MLX LM" and "MLX", "commit 335acd2" and its full hash) state the same condition."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from benchbook.audit.drafttable import side_builds
from benchbook.audit.draftwords import engine_versions
from drafting import conditions as _cond
from drafting import drafted as _drafted

ROOT = Path(__file__).resolve().parent.parent


def _measure():
    spec = importlib.util.spec_from_file_location("draft_measure", ROOT / "scripts" / "draft_measure.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize(
    ("text", "versions"),
    [
        # p213: a setup list's build line after the engine's name
        (
            "- llama.cpp build: 4722 (68ff663a)\n- KTransformers 0.2.1",
            {"llama.cpp": "4722 (68ff663a)", "KTransformers": "0.2.1"},
        ),
        ("ik_llama.cpp version: 3712 (e5622a2e)", {"ik_llama.cpp": "3712 (e5622a2e)"}),
        # a commit or a build number beside the name
        ("built llama.cpp `9ba73fd` for this", {"llama.cpp": "9ba73fd"}),
        ("llama.cpp build 5215 and later llama.cpp 5215", {"llama.cpp": "5215"}),
        # a value inside another of the same engine is that one
        ("llama.cpp 5215 then llama.cpp build: 5215 (5f5e39e1)", {"llama.cpp": "5215 (5f5e39e1)"}),
        # controls: a commit with no engine named; two builds of one engine name none
        ("commit=5cbc982 and build: 4722 (68ff663a)", {}),
        ("llama.cpp build: 4722 (68ff663a) vs llama.cpp build: 4800 (1234abcd)", {}),
    ],
)
def test_an_engines_build_is_read_beside_its_name(text, versions):
    assert engine_versions(text) == versions


def test_a_build_listed_after_the_table_applies_to_its_engines_rows(tmp_path):
    """p213: the results table comes first, the software list after it names llama.cpp's build and
    KTransformers' version; each engine's rows get their own, ik_llama.cpp's rows none."""
    cf = _drafted(
        "# KTransformers vs llama.cpp\n\n"
        "| Software | Quant | Eval Rate (tokens/s) |\n|---|---|---|\n"
        "| KTransformers | Q4_K_M | 8.66 |\n| llama.cpp | Q4_K_M | 4.36 |\n"
        "| ik_llama.cpp | Q4_K_M | 4.61 |\n\n"
        "Software:\n\n- llama.cpp build: 4722 (68ff663a)\n- KTransformers 0.2.1\n",
        tmp_path,
    )
    got = {c.value: (_cond(cf, c).get("engine"), _cond(cf, c).get("build")) for c in cf.claims}
    assert got == {
        8.66: ("KTransformers", "0.2.1"),
        4.36: ("llama.cpp", "4722 (68ff663a)"),
        4.61: ("ik_llama.cpp", None),
    }


@pytest.mark.parametrize(
    ("header", "sides"),
    [
        (["Model", "Before", "After", "vs upstream"], {1: "Before", 2: "After"}),
        (["Quants", "PP-512 (PR)", "PP-512 (master)", "Speedup"], {1: "PR", 2: "master"}),
        (["", "**pre**", "**post**"], {1: "pre", 2: "post"}),
        (["Case", "unpatched", "patched"], {1: "unpatched", 2: "patched"}),
        # one side alone, or words of no change: no build
        (["Model", "After"], {}),
        (["Model", "Main", "Draft"], {}),
        (["Model", "Before", "Post"], {}),
    ],
)
def test_a_header_row_naming_both_sides_of_a_change_names_builds(header, sides):
    assert side_builds(header) == sides


def test_before_and_after_columns_are_builds_not_prompts(tmp_path):
    """p235: "| Model | Before | After |" under a heading that gives the unit: the columns were read
    as two prompts named "Before" and "After"; they are the builds before and after the change."""
    cf = _drafted(
        "# Decode tok/s\n\nDecode speed (tok/s):\n\n| Model | Before | After |\n|---|---|---|\n"
        "| phi-3.5-mini-4bit | 120.68 | 160.90 |\n| gemma2-2b-4bit | 129.30 | 163.85 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("build"), _cond(cf, c).get("prompt")) for c in cf.claims]
    assert got == [
        (120.68, "Before", None),
        (129.3, "Before", None),
        (160.9, "After", None),
        (163.85, "After", None),
    ]


def test_pre_and_post_lines_of_key_value_pairs_are_builds(tmp_path):
    """p195: "Pre:" and "Post:" lines of ``prompt_tps=…`` pairs under a card's name: each line's
    numbers are of its build; a block with one side only names none."""
    cf = _drafted(
        "# CUDA graph sizes\n\n```\nmlx_lm.benchmark --model Qwen/Qwen3-4B -g 128 -b 1\n```\n\n"
        "H100\nPre:   prompt_tps=27330.184, generation_tps=184.120\n"
        "Post: prompt_tps=30322.676, generation_tps=209.213\n\n"
        "B200\nPost: prompt_tps=45875.251, generation_tps=239.479\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("build")) for c in cf.claims]
    assert got == [
        (27330.184, "Pre"),
        (184.12, "Pre"),
        (30322.676, "Post"),
        (209.213, "Post"),
        (45875.251, None),
        (239.479, None),
    ]


@pytest.mark.parametrize(
    ("want", "got", "same"),
    [
        ("commit 335acd2", "335acd2ffd7b04501c6d8773ab9fcee6e7bf8639", True),  # git's short hash
        ("335acd2ffd7b04501c6d8773ab9fcee6e7bf8639", "335acd2", True),
        ("mlx-lm 0.31.0", "0.31.0", True),  # the claim states the engine
        ("v0.11.4", "0.11.4", True),
        ("0.11.4", "v0.11.4", True),
        ("b4980", "b4980", True),
        ("335acd2", "335acd3ffd", False),  # another commit
        ("0.7.0", "0.6.8", False),
        ("b4980", "4980", False),  # a build number is written with its b
        ("mlx-lm 0.20.4, mlx 0.21.1", "0.20.4", False),  # one of two versions
        ("ef43f95 + this fix", "ef43f95", False),
    ],
)
def test_the_scorer_compares_builds_by_what_they_name(want, got, same):
    assert _measure().same_condition(want, got, "build") is same


@pytest.mark.parametrize(
    ("want", "got", "same"),
    [
        ("MLX LM", "MLX", True),
        ("mlx-lm", "MLX", True),
        ("mlx_lm", "MLX", True),
        ("MLX (mlx-lm)", "MLX", True),
        ("trt-llm", "TensorRT-LLM", True),
        ("ExLlama", "ExLlamaV2", False),  # two engines
        ("LM Studio MLX engine", "MLX", False),
        ("Ollama", "llama.cpp", False),
    ],
)
def test_the_scorer_takes_two_spellings_of_one_engine_for_it(want, got, same):
    assert _measure().same_condition(want, got, "engine") is same
    # outside ``engine`` the words rule alone: "MLX" does not state "MLX LM"
    if want == "MLX LM":
        assert _measure().same_condition(want, got) is False


@pytest.mark.parametrize(
    ("sentence", "prompt"),
    [
        ('(Prompt was "They" on seed 1678609319)', "They"),  # p243
        ('I used the prompt "Write a story about Einstein".', "Write a story about Einstein"),
        ("with the prompt `tell me a joke`", "tell me a joke"),
        ("On the coding prompt it ran", "coding"),  # the words before "prompt", not the line's opening
        ("For a wiki-8k prompt:", "wiki-8k"),
        # the words before "prompt" end in a word of the sentence: no prompt named
        ("We gave it a prompt and waited.", None),
        ("I used the prompt from before.", None),
    ],
)
def test_a_prompt_is_the_quoted_text_or_the_words_naming_it(tmp_path, sentence, prompt):
    """A prompt quoted after the word "prompt" is the prompt as written; before the fix, "I used the
    prompt …" gave the prompt "I used the" (the words at the line's start before "prompt")."""
    cf = _drafted(f"# t\n\n{sentence}\n\nGeneration: 12.5 tok/s.\n", tmp_path)
    assert [_cond(cf, c).get("prompt") for c in cf.claims] == [prompt]


@pytest.mark.parametrize(
    ("text", "cpus"),
    [
        ("AMD 5700G with 32GB RAM", ["AMD Ryzen 7 5700G"]),  # p243: the tier from the model number
        ("a Ryzen 7950X3D box", ["AMD Ryzen 9 7950X3D"]),
        ("Ryzen 5600 and", ["AMD Ryzen 5 5600"]),
        ("AMD Ryzen 9 7950X", ["AMD Ryzen 9 7950X"]),
        # GPUs and Threadrippers by the same digits: no Ryzen
        ("AMD 7900 XTX", []),
        ("AMD 6800 XT", []),
        ("AMD 7600", []),  # a CPU or an RX 7600: no suffix to tell
        ("AMD 1950X", []),  # a Threadripper
        ("AMD 3970X", []),
    ],
)
def test_a_ryzen_written_without_its_tier_is_named_in_full(text, cpus):
    from benchbook.audit.draftnames import cpu_names

    assert cpu_names(text) == cpus


def test_a_post_naming_one_cpu_by_its_model_number_runs_on_it(tmp_path):
    """p243: "my machine (AMD 5700G with 32GB RAM)" and a table of times per token: the CPU is the
    machine of every row."""
    cf = _drafted(
        "# speed\n\nDid some testing on my machine (AMD 5700G with 32GB RAM on Arch Linux).\n\n"
        "Model | Threads | Time per token\n-- | -- | --\n"
        "llama-7b | 4 | 137.10 ms\nllama-7b | 6 | 100.43 ms\n",
        tmp_path,
    )
    rows = [c for c in cf.claims if c.unit == "ms"]
    assert [(c.value, _cond(cf, c).get("hardware")) for c in rows] == [
        (137.1, "AMD Ryzen 7 5700G"),
        (100.43, "AMD Ryzen 7 5700G"),
    ]


def test_an_engine_tag_naming_its_backends_version_is_its_build(tmp_path):
    """p178: "| Runtime | llama.cpp cuda-12.8, --flash-attn on |": the image's tag is the build; a
    number with a unit after an engine stays a result."""
    cf = _drafted(
        "# t\n\n| Setting | Value |\n|---|---|\n| Runtime | llama.cpp cuda-12.8, --flash-attn on |\n\n"
        "Decode: 52.1 tok/s.\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("build")) for c in cf.claims] == [(52.1, "cuda-12.8")]


def test_a_quant_method_with_its_bits_before_cjk_words_keeps_its_bits(tmp_path):
    """p183: "GPTQ Int4量化版本": a CJK word right after "Int4" ended the match at "GPTQ" (a CJK
    character is a word character), losing the bits."""
    cf = _drafted("# t\n\n- Qwen3-VL-8B模型:GPTQ Int4量化版本\n\nspeed 30 tok/s\n", tmp_path)
    assert [_cond(cf, c).get("quant") for c in cf.claims] == ["GPTQ Int4"]


@pytest.mark.parametrize(
    ("want", "got", "same"),
    [
        ("4bit", "4-bit", True),
        ("f16", "FP16", True),
        ("float16", "F16", True),
        ("bf16", "bfloat16", True),
        ("Q4_K_M", "q4_k_m", True),
        ("GPTQ 4-bit", "4bit", False),  # the method is part of it
        ("q4", "4bit", False),
        ("f16", "bf16", False),
    ],
)
def test_the_scorer_takes_one_formats_spellings_for_one_quant(want, got, same):
    assert _measure().same_condition(want, got, "quant") is same

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

from benchbook.audit.draftnames import side_builds
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


_TSV = (
    "\tDefault\t--cpu_infer 22\t--cpu_infer 24\n"
    "Prefill\t12.31613439\t23.87405887\t25.11264391\n"
    "Decode\t4.384906435\t5.116141499\t5.160205418\n"
)


@pytest.mark.parametrize("quote", ["", "> "])
def test_a_table_pasted_with_tabs_is_a_table_quoted_or_not(tmp_path, quote):
    """p191: a spreadsheet's rows pasted with tabs, metrics as rows ("Prefill", "Decode"), the
    header's first cell empty: Markdown read the header (its leading tab) as an indented code block
    and the rows as one paragraph; in a quote the rows kept "> " in their labels.  Each cell is a
    claim of its row's phase, the column its setup."""
    body = "".join(quote + line + "\n" for line in _TSV.splitlines())
    cf = _drafted(f"# t\n\n{quote}Results (tok/s):\n{quote.rstrip()}\n{body}", tmp_path)
    got = [(c.metric, c.value, _cond(cf, c).get("other", {}).get("row")) for c in cf.claims]
    assert got == [
        ("prefill_tps", 12.31613439, "Default"),
        ("prefill_tps", 23.87405887, "--cpu_infer 22"),
        ("prefill_tps", 25.11264391, "--cpu_infer 24"),
        ("decode_tps", 4.384906435, "Default"),
        ("decode_tps", 5.116141499, "--cpu_infer 22"),
        ("decode_tps", 5.160205418, "--cpu_infer 24"),
    ]
    assert all(_cond(cf, c).get("prompt") is None for c in cf.claims)  # "Prefill" is no prompt


def test_tab_rows_need_three_cells_and_a_number():
    from benchbook.audit.post import tab_rows

    assert tab_rows([(1, "a\tb\tc"), (2, "x\t1\t2")]) == ([["a", "b", "c"], ["x", "1", "2"]], [1, 2])
    assert tab_rows([(1, "a\tb"), (2, "x\t1")]) is None  # two cells: a label and its value
    assert tab_rows([(1, "a\tb\tc"), (2, "x\ty\tz")]) is None  # no number
    assert tab_rows([(1, "a\tb\tc"), (2, "x\t1")]) is None  # ragged


def test_a_label_of_a_rate_in_words_is_a_rate_not_seconds():
    """p170: "decode tokens per second" was read as seconds (its last word)."""
    from benchbook.audit.toollines import label_unit

    assert label_unit("decode tokens per second") == "tok/s"
    assert label_unit("time to first token in milliseconds") == "ms"
    assert label_unit("seconds") == "s"


def test_a_phase_column_without_a_unit_takes_the_tables_rate(tmp_path):
    """p179: "| Code TPS | Gen 72k | Gen 128k | Deg. (72k→128k) |": the Gen columns are generation
    rates at two context fills in the unit of the table's rate columns."""
    cf = _drafted(
        "# t\n\n| Engine | Code TPS | Gen 72k | Gen 128k | Deg. (72k→128k) |\n|---|---|---|---|---|\n"
        "| ik_llama | 89.2 | 34.6 | 23.5 | −32.1% |\n| llama.cpp | 80.1 | 30.0 | 25.0 | −16.7% |\n",
        tmp_path,
    )
    rates = sorted((c.value, c.unit) for c in cf.claims if c.metric == "decode_tps")
    assert rates == [
        (23.5, "tok/s"),
        (25.0, "tok/s"),
        (30.0, "tok/s"),
        (34.6, "tok/s"),
        (80.1, "tok/s"),
        (89.2, "tok/s"),
    ]


def test_a_phase_column_with_no_rate_stated_anywhere_implies_tokens_per_second(tmp_path):
    """ "| Model | Gen 72k |" over plain numbers with no rate stated anywhere: a generation rate, in
    tokens per second, the field's unit for it (session 50: the held-out posts' authors leave it
    unwritten; drafted unreviewed).  Control: a column no phase heads ("Score") has no unit to give."""
    cf = _drafted("# t\n\n| Model | Gen 72k |\n|---|---|\n| a | 34.6 |\n| b | 23.5 |\n", tmp_path)
    assert [(c.value, c.unit) for c in cf.claims] == [(34.6, "t/s"), (23.5, "t/s")]
    cf = _drafted("# t\n\n| Model | Score |\n|---|---|\n| a | 34.6 |\n| b | 23.5 |\n", tmp_path)
    assert [c.value for c in cf.claims] == []


def test_queries_per_second_is_a_request_rate(tmp_path):
    """p184: "65 QPS": requests per second."""
    cf = _drafted("# t\n\nThe box now serves 65 QPS stable.\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("request_throughput", 65.0, "req/s")]


_PAIRS = (
    "# Runtimes\n\nValues are decode tokens per second / time to first token in milliseconds.\n\n"
    "| Tool | Gemma 4 E2B | Qwen3.6 27B |\n|---|---|---|\n"
    "| raw llama-server | 81.0 / 51 | 7.5 / 406 |\n| LM Studio | 91.1 / 187 | crashed |\n"
)


def test_a_caption_naming_each_cells_two_numbers_splits_them(tmp_path):
    """p170: cells "81.0 / 51" under a caption saying they are "decode tokens per second / time to
    first token in milliseconds": each number a claim with its own metric and unit, the column's
    header its model, "raw llama-server" llama.cpp's tool; "crashed" states neither."""
    cf = _drafted(_PAIRS, tmp_path)
    got = [
        (c.metric, c.value, c.unit, _cond(cf, c).get("model"), _cond(cf, c).get("engine")) for c in cf.claims
    ]
    assert got == [
        ("decode_tps", 81.0, "tok/s", "Gemma 4 E2B", "llama.cpp"),
        ("decode_tps", 91.1, "tok/s", "Gemma 4 E2B", "LM Studio"),
        ("ttft", 51.0, "ms", "Gemma 4 E2B", "llama.cpp"),
        ("ttft", 187.0, "ms", "Gemma 4 E2B", "LM Studio"),
        ("decode_tps", 7.5, "tok/s", "Qwen3.6 27B", "llama.cpp"),
        ("ttft", 406.0, "ms", "Qwen3.6 27B", "llama.cpp"),
    ]


@pytest.mark.parametrize(
    ("caption", "pair"),
    [
        (
            "Values are decode tokens per second / time to first token in milliseconds.",
            ("decode tokens per second", "time to first token in milliseconds"),
        ),
        ("Cells show tok/s / TTFT (ms).", ("tok/s", "TTFT (ms)")),
        # no unit on a side, or no word saying what the cells hold: no pair
        ("Values are old / new.", None),
        ("We compared decode tokens per second / time to first token in milliseconds.", None),
        ("", None),
    ],
)
def test_a_pair_caption_names_a_unit_on_each_side(caption, pair):
    from benchbook.audit.drafttable import cell_pair

    assert cell_pair(caption) == pair


def test_a_first_column_of_sent_request_rates_is_a_setting(tmp_path):
    """p129 beside p184: "| QPS | Baseline TPOT |" over 1, 2 is the request rate each row sent (a
    label), while a QPS column of measured rates ("| Concurrency | QPS |" over 1.8, 5.3) states them."""
    sent = _drafted("# t\n\n| QPS | Baseline TPOT |\n| --- | --- |\n| 1 | 55.47 |\n| 2 | 57.58 |\n", tmp_path)
    assert [(c.metric, c.value) for c in sent.claims] == [("tpot", 55.47), ("tpot", 57.58)]
    (tmp_path / "measured").mkdir()
    table = "# t\n\n| Concurrency | QPS |\n| --- | --- |\n| 10 | 1.8 |\n| 30 | 5.3 |\n"
    measured = _drafted(table, tmp_path / "measured")
    assert [(c.unit, c.value) for c in measured.claims] == [("req/s", 1.8), ("req/s", 5.3)]


@pytest.mark.parametrize(
    ("text", "multiples"),
    [
        ("It is about half the speed of vLLM", [("0.5", True, "half the speed")]),
        ("the 2B model is twice as fast as the 4B", [("2", False, "twice as fast")]),
        ("the model loading time has nearly doubled", [("2", True, "doubled")]),
        ("roughly one third of speed in MLX", [("0.333", True, "one third of speed")]),
        ("regression (divided by 3!) after 0.15.5", [("3", False, "divided by 3")]),
        ("推理速度还翻了一倍", [("2", False, "翻了一倍")]),
        ("速度降了一半", [("0.5", False, "一半")]),
        ("半分の速度で動く", [("0.5", False, "半分")]),
        ("работает вдвое быстрее", [("2", False, "вдвое")]),
        ("throughput tripled after the update", [("3", False, "tripled")]),
        # words that relate nothing: no multiple
        ("I ran it twice", []),
        ("double-check the numbers", []),
        # a breaker's: no speed or time related ("I doubled the batch size", weights split over GPUs,
        # memory doubled, "twice as slow" the other way round)
        ("I doubled the batch size to 1024.", []),
        ("The 70B weights are divided by 3 GPUs.", []),
        ("The 70B model needs twice as much memory.", []),
        ("显存占用翻了一倍。", []),
        ("Я вдвое увеличил размер батча.", []),
        ("The 3090 is twice as slow.", []),
        ("一半以上的层放在GPU上", []),
        ("the 2x faster run", []),  # a digit's multiple is read as written, not again
    ],
)
def test_a_multiple_in_words_is_a_number(text, multiples):
    """A multiple written in words where it relates quantities was dropped ("roughly one third of
    speed", "翻了一倍", "divided by 3!"): it is a multiple (unit x) as a claims file writes it."""
    from benchbook.audit.draftprose import numbers

    written = [(n.text, n.about, n.unit_written) for n in numbers(text) if n.unit == "x"]
    got = [w for w in written if w[2] not in ("x", "×")]
    assert got == multiples


def test_a_multiple_in_words_relates_the_rates_of_its_sentence(tmp_path):
    cf = _drafted("# t\n\nThe 2B model runs 80 tok/s and is twice as fast as the 4B at 40 tok/s.\n", tmp_path)
    ids = [c.id for c in cf.claims]
    assert [(s.kind, s.value, s.unit, list(s.of)) for s in cf.statements] == [("ratio", 2.0, "x", ids)]


@pytest.mark.parametrize(
    ("text", "hardware"),
    [
        ("硬件：H800 PCIE * 8", ["8x NVIDIA H800 PCIe"]),  # h193: the count after the name
        ("on a 4090 x2 rig", ["2x NVIDIA GeForce RTX 4090"]),
        ("I checked it with A100(80G)", ["NVIDIA A100 80GB"]),  # h194: the SKU's memory in parentheses
        ("same, hardware is 4060ti 16GB, 12700k", ["NVIDIA GeForce RTX 4060 Ti"]),  # h210: after a label
        ("GPU: 4090", ["NVIDIA GeForce RTX 4090"]),
        ("显卡：3090 24G", ["NVIDIA GeForce RTX 3090"]),
        # controls: a multiple after a name, a number after "is"
        ("RTX 3090 x 1.5 faster", ["NVIDIA GeForce RTX 3090"]),
        ("the score is 4090", []),
    ],
)
def test_hardware_named_with_its_count_after_or_under_a_label(text, hardware):
    from benchbook.audit.draftnames import mentions

    assert [m.value for m in mentions(text) if m.path == "hardware"] == hardware


def test_a_setup_lines_cache_mode_is_the_kv_caches_type(tmp_path):
    """h206: ExLlama's "- cache: q4" in a setup list: the cache's type for K and V."""
    cf = _drafted("# t\n\n- cache: q4\n- model: foo\n\nDecode 30 tok/s.\n", tmp_path)
    assert [(_cond(cf, c).get("type_k"), _cond(cf, c).get("type_v")) for c in cf.claims] == [("q4", "q4")]


def test_a_request_bodys_prompt_is_the_prompt_and_a_json_keys_quote_none(tmp_path):
    """h211: a curl body's '"prompt": "描述一下北京的秋天",' gave the prompt ":" (the key's closing
    quote read as the opening of a quoted prompt); the body's prompt is the prompt as sent."""
    cf = _drafted(
        '# t\n\n```\ncurl http://localhost:8000/v1/completions -d \'{\n    "model": "m",\n'
        '    "prompt": "描述一下北京的秋天",\n    "max_tokens": 512\n}\'\n```\n\n每秒9token\n',
        tmp_path,
    )
    assert [(_cond(cf, c).get("prompt"), _cond(cf, c).get("cap")) for c in cf.claims] == [
        ("描述一下北京的秋天", 512)
    ]


def test_tensorrt_llms_rate_over_a_batch_is_a_throughput(tmp_path):
    """h203: TensorRT-LLM's "[BENCHMARK] … batch_size 64 … tokens_per_sec 1857.9" is summed over the
    batch's requests: a throughput; at batch_size 1 one stream's rate."""
    line = (
        "[BENCHMARK] model_name llama_7b world_size 1 precision float16 batch_size {b} "
        "input_length 2048 output_length 128 latency(ms) 4412.048 tokens_per_sec 1857.9\n"
    )
    cf = _drafted("# t\n\n```\n" + line.format(b=64) + "```\n", tmp_path)
    assert [c.metric for c in cf.claims if c.unit in ("tok/s", "t/s")] == ["throughput"]
    (tmp_path / "one").mkdir()
    one = _drafted("# t\n\n```\n" + line.format(b=1) + "```\n", tmp_path / "one")
    assert [c.metric for c in one.claims if c.unit in ("tok/s", "t/s")] == ["decode_tps"]


def test_a_blogs_flag_list_with_dashes_states_its_settings(tmp_path):
    """h215: a setup section's flags a line each, "–ctx-size 128000" (a blog's typography turned
    "--" into a dash), "-b 2048", "–flash-attn on", and "max_tokens=256, temperature=0." in a list:
    the settings of every claim of the post."""
    cf = _drafted(
        "# t\n\n## Results\n\n- Generation: 7.63 → 16.15 t/s (+111.77% faster)\n\n"
        "## Runtime Config Used\n\n- –ctx-size 128000\n- -b 2048\n- –ubatch-size 1024\n- –flash-attn on\n\n"
        "Using llama.cpp / llama-server: 9187 (0253fb21f)\n\n"
        "## Methodology\n\n- max_tokens=256, temperature=0.\n- 2 runs per model.\n",
        tmp_path,
    )
    want = {
        "engine": "llama.cpp",
        "build": "9187 (0253fb21f)",
        "ctx": 128000,
        "batch": 2048,
        "ubatch": 1024,
        "flash_attn": True,
        "cap": 256,
        "sampling": "temperature 0",
    }
    for c in cf.claims:
        got = _cond(cf, c)
        assert {k: got.get(k) for k in want} == want


@pytest.mark.parametrize(
    ("text", "numbers_"),
    [
        ("VRAM: 24GB 중 21.3GB 사용", [("21.3", "GB", "24", "GB")]),  # h214: the whole first, then the part
        ("24GBのうち21.3GBを使用", [("21.3", "GB", "24", "GB")]),
        ("11.76 GiB of its 12.29 GiB", [("11.76", "GiB", "12.29", "GiB")]),  # control: English order
    ],
)
def test_a_part_of_a_whole_in_korean_and_japanese_order(text, numbers_):
    from benchbook.audit.draftprose import numbers

    assert [(n.text, n.unit, n.of, n.of_unit) for n in numbers(text)] == numbers_


def test_a_status_cards_labelled_lines_are_read(tmp_path):
    """h214: a code block printing a status card ("VRAM: 24GB 중 21.3GB 사용", "Spec-decode: MTP n=3 ·
    AL 3.4–3.8 · 수락률 97/95/91%"): its used memory, its acceptance length and the three acceptance
    rates (a series of percentages written once) are claims; a machine's size alone is none."""
    cf = _drafted(
        "# t\n\n```\nGPU: RTX 3090 24GB\nVRAM: 24GB 중 21.3GB 사용\n"
        "추론 디코딩(Spec-decode): MTP n=3 · AL 3.4–3.8 · 수락률 97/95/91%\n```\n",
        tmp_path,
    )
    got = [(c.metric, c.value, c.range, c.unit) for c in cf.claims]
    assert got == [
        ("vram", 21.3, None, "GB"),
        ("mean_accepted_length", None, (3.4, 3.8), "tokens"),
        ("acceptance_rate", 97.0, None, "%"),
        ("acceptance_rate", 95.0, None, "%"),
        ("acceptance_rate", 91.0, None, "%"),
    ]


def test_plain_task_columns_beside_a_rate_column_are_rates(tmp_path):
    """h222: "|quant|base tok/s|code|factual|" over 15.1, 19.7, 17.5: the task columns hold more rates
    of the stated column's unit and scale (each column's task its prompt); a column of counts beside
    it ("tokens" 512) is none."""
    cf = _drafted(
        "# t\n\n|quant|base tok/s|code|factual|runs|\n|:-|:-|:-|:-|:-|\n"
        "|Q4_K_M|15.1|19.7|17.5|512|\n|F16|6.6|17.9|14.9|256|\n",
        tmp_path,
    )
    got = [(c.value, c.unit, _cond(cf, c).get("prompt")) for c in cf.claims]
    assert got == [
        (15.1, "tok/s", None),
        (6.6, "tok/s", None),
        (19.7, "tok/s", "code"),
        (17.9, "tok/s", "code"),
        (17.5, "tok/s", "factual"),
        (14.9, "tok/s", "factual"),
    ]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # h215: the platform in the title, the chip and its graphics in the setup
        (
            "# Strix Halo MTP\n- CPU: AMD RYZEN AI MAX+ 395 (16C/32T)\n- iGPU: Radeon 8060S",
            "AMD Ryzen AI Max+ 395 (Radeon 8060S)",
        ),
        # the chip alone: its own graphics named (s49: a helper's expected file wrote them)
        ("a Ryzen AI Max 385 mini PC", "AMD Ryzen AI Max 385 (Radeon 8050S)"),
        ("Strix Halo alone", None),  # no chip named: the platform's name stays
        ("Ryzen AI Max+ 395 vs Ryzen AI Max 385", None),  # two chips
    ],
)
def test_one_name_for_an_apu_named_several_ways(text, name):
    from benchbook.audit.draft import apu_name

    assert apu_name(text) == name


def test_an_apus_claims_take_its_one_name(tmp_path):
    cf = _drafted(
        "# Strix Halo benchmarks\n\nDecode runs at 45.2 tok/s.\n\n## Hardware\n\n"
        "- CPU: AMD RYZEN AI MAX+ 395 (16C/32T)\n- iGPU: Radeon 8060S (RADV GFX1151)\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["AMD Ryzen AI Max+ 395 (Radeon 8060S)"]


def test_llama_bench_moe_file_type_keeps_the_quant_apart():
    """h216: llama-bench's model column "gpt-oss 20B MXFP4 MoE" (an MoE model's file type ends with
    "MoE"): the model and its quant apart, as "llama 7B Q4_0" is read."""
    from benchbook.audit.draftnames import model_cell

    assert model_cell("gpt-oss 20B MXFP4 MoE") == ("gpt-oss-20B", "MXFP4")
    assert model_cell("llama 7B Q4_0") == ("llama 7B", "Q4_0")
    assert model_cell("Qwen3 MoE") == ("Qwen3 MoE", None)  # no quant: the name as written


@pytest.mark.parametrize(
    "table",
    [
        "\t\tA\tB\n\tPrefill\t100\t200\n\tDecode\t30\t40\n",  # every line indented by a tab
        "\tA\tB\t\nPrefill\t100\t200\t\nDecode\t30\t40\t\n",  # a spreadsheet's trailing tabs
        "~~~\n```\n~~~\n\n\tA\tB\nPrefill\t100\t200\nDecode\t30\t40\n",  # a ``` inside a ~~~ fence
    ],
)
def test_a_tab_table_survives_indents_trailing_tabs_and_other_fences(tmp_path, table):
    """A breaker's: a tab table indented by a tab was read with "A" as a prompt and 200 as a
    concurrency; a trailing tab made it ragged (nothing drafted); a ``` line inside a ~~~ fence
    flipped the fence reader and hid the table after it."""
    cf = _drafted(f"# t\n\nResults (tok/s):\n\n{table}", tmp_path)
    got = [(c.metric, c.value, _cond(cf, c).get("other", {}).get("row")) for c in cf.claims]
    assert got == [
        ("prefill_tps", 100.0, "A"),
        ("prefill_tps", 200.0, "B"),
        ("decode_tps", 30.0, "A"),
        ("decode_tps", 40.0, "B"),
    ]


def test_a_pair_cell_with_one_side_missing_keeps_the_sides_apart(tmp_path):
    """A breaker's: "40 / –" in a pair column kept the column unsplit, and "81.0 / 51" became two
    decode runs (the TTFT of 51 ms a rate); each side keeps its metric, the dash states nothing."""
    cf = _drafted(
        "# t\n\nValues are decode tokens per second / time to first token in milliseconds.\n\n"
        "| Model | RTX 4090 |\n|---|---|\n| llama 8B | 81.0 / 51 |\n| qwen | 40 / – |\n",
        tmp_path,
    )
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("decode_tps", 81.0, "tok/s"),
        ("decode_tps", 40.0, "tok/s"),
        ("ttft", 51.0, "ms"),
    ]


def test_a_status_cards_percentages_need_an_acceptance_word(tmp_path):
    """Control: a status card's "Fan: 60%" or "GPU util: 99%" states no acceptance; the card reader
    drafts a percentage only on an acceptance line (the line's other readers are unchanged)."""
    cf = _drafted("# t\n\n```\nVRAM: 24GB 중 21.3GB 사용\nGPU util: 99%\n수락률: 97/95/91%\n```\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims if c.metric in ("acceptance_rate", "vram", "share")] == [
        ("vram", 21.3),
        ("acceptance_rate", 97.0),
        ("acceptance_rate", 95.0),
        ("acceptance_rate", 91.0),
    ]

"""Kinds fixed in issue 29's session 57 (read from the thirty-fourth held-out set's misses, h407–h415,
once a thirty-fifth set replaced it as the clean one), each with controls: a "Size (B)" column's bare
"1.5" left the model without its size; a "Spec Dec (B)" column's "-" and "1.5" named no decoding;
an MLX "Quant" of "4" was no quant; a "| Type |" of MLX in a post "using LM Studio" was the engine;
a release's title "bump v0.4.1.post2" named no build; "batch 8, input 128, output 256: 206 token/s"
of a serving engine was one stream's decode rate without its lengths."""

from __future__ import annotations

from benchbook.audit.draftwords import settings_in_words
from drafting import conditions as _cond
from drafting import drafted as _drafted

_LMSTUDIO = (
    "# Inference Benchmarks\nApple M4 Max 48GB using LM Studio\n\n"
    "| Size (B) | Speed (T/s) | Model | Type | Quant | Spec Dec (B) | Spec Quant |\n"
    "|---|---|---|---|---|---|---|\n"
    "| 1.5 | 282 | qwen 2.5 | MLX | 4 | - | - |\n"
    "| 7 | 70 | qwen 2.5 | GUFF | Q4_K_M | - | - |\n"
    "| 14 | 55 | qwen 2.5 | MLX | 4 | 1.5 | 8 |\n"
    "| 30 - A3 | 93 | qwen 3 | MLX | 6 | - | - |\n"
)


def test_a_size_column_in_billions_joins_the_model(tmp_path):
    """ "| Size (B) |" over "1.5" beside "| Model |" over "qwen 2.5": the model of that size, the
    family + size of SOURCES.md ("qwen 2.5-1.5B"); an MoE's "30 - A3" as written ("30B-A3")."""
    cf = _drafted(_LMSTUDIO, tmp_path)
    models = {c.value: _cond(cf, c)["model"] for c in cf.claims}
    assert models == {282: "qwen 2.5-1.5B", 70: "qwen 2.5-7B", 55: "qwen 2.5-14B", 93: "qwen 3-30B-A3"}
    # control: a size column with its unit in the cells is read as before ("7B")
    text = "| Model | Size | tok/s |\n|---|---|---|\n| Llama | 7B | 40 |\n"
    (c,) = _drafted(text, tmp_path).claims
    assert _cond(_drafted(text, tmp_path), c)["model"] == "Llama-7B"


def test_a_draft_size_column_gives_each_rows_decoding_and_bits_a_quant(tmp_path):
    """ "| Spec Dec (B) | Spec Quant |" over "1.5 | 8": a draft model of 1.5B at 8 bits, the row
    speculative; over "- | -" beside such rows: no draft, plain. A "| Quant |" of "4" is 4-bit
    weights ("4bit"), "Q4_K_M" stays."""
    cf = _drafted(_LMSTUDIO, tmp_path)
    got = {
        c.value: (
            _cond(cf, c).get("decoding"),
            _cond(cf, c)["quant"],
            _cond(cf, c).get("other", {}).get("draft_model"),
            _cond(cf, c).get("other", {}).get("draft_quant"),
        )
        for c in cf.claims
    }
    assert got == {
        282: ("plain", "4bit", None, None),
        70: ("plain", "Q4_K_M", None, None),
        55: ("speculative", "4bit", "1.5B", "8bit"),
        93: ("plain", "6bit", None, None),
    }


def test_mlx_in_a_type_column_of_an_lm_studio_post_is_its_backend(tmp_path):
    """LM Studio runs MLX models through its MLX engine: a "| Type |" cell "MLX" in a post using
    LM Studio is the row's backend, the engine LM Studio; its GGUF rows are LM Studio's too. A
    column headed "Inference Engine" over "MLX" keeps MLX the engine (corpus p234)."""
    cf = _drafted(_LMSTUDIO, tmp_path)
    got = {c.value: (_cond(cf, c)["engine"], _cond(cf, c).get("backend")) for c in cf.claims}
    assert got == {
        282: ("LM Studio", "MLX"),
        70: ("LM Studio", None),
        55: ("LM Studio", "MLX"),
        93: ("LM Studio", "MLX"),
    }
    text = (
        "I use MLX and GGUF through LM Studio.\n\n| Model | Inference Engine | tg (t/s) |\n|---|---|---|\n"
        "| Minimax-m2.1-4bit | MLX | 25 |\n| Minimax-m2.1-4bit | Llama.cpp | 32 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert {c.value: _cond(cf, c)["engine"] for c in cf.claims} == {25: "MLX", 32: "llama.cpp"}


_RELEASE = (
    "# chore: bump v0.4.1.post2\n\n### TLDR\n\n"
    "batch 1, input 128, output 256: **30.29 token/s**\n"
    "batch 8, input 128, output 256: **206.32 token/s**\n\n"
    "```\npython3 -m sglang.launch_server --model deepseek-ai/DeepSeek-V3 --tp 8\n```\n"
)


def test_a_release_title_names_the_build_and_a_batch_line_its_lengths(tmp_path):
    """A release's title "chore: bump v0.4.1.post2" is the build the post ran (of its one engine,
    SGLang); "batch 8, input 128, output 256" gives each rate its prompt and tokens generated, and a
    serving engine's batch of 8 is 8 streams at once: the aggregate rate, ``throughput``; a batch
    of 1 is one stream's decode rate."""
    cf = _drafted(_RELEASE, tmp_path)
    got = {
        c.value: (
            c.metric,
            _cond(cf, c).get("build"),
            _cond(cf, c).get("concurrency"),
            _cond(cf, c).get("tokens_generated"),
            _cond(cf, c).get("prompt"),
        )
        for c in cf.claims
    }
    assert got == {
        30.29: ("decode_tps", "v0.4.1.post2", 1, 256, "128 tokens"),
        206.32: ("throughput", "v0.4.1.post2", 8, 256, "128 tokens"),
    }
    # controls: a version after no release word is no build; a rate after "output" is no length
    said: list = []
    settings_in_words("we bumped the batch to 8 in v0.4.1", said)
    assert ("build", "v0.4.1") not in said
    said = []
    settings_in_words("input 128, output 256 tok/s", said)
    assert ("tokens_generated", 256) not in said
    said = []
    settings_in_words("Release v0.6.0 is out", said)
    assert ("build", "v0.6.0") in said


def test_runs_listed_with_their_mean_are_runs_and_a_mean_statement(tmp_path):
    """ "vLLM 0.7.2 (it/s): [71.87, 73.51, 71.03, 71.77] avg=72.045 it/s": tqdm's iterations a
    second (lm_eval's requests: ``request_throughput``), four runs (``run_index`` 1–4) and a ``mean``
    statement citing them, not a fifth claim; a list that lost its closing bracket is read the same.
    Control: an "avg" that is not the list's mean is a claim of its own."""
    text = (
        "On a single H100.\n\n"
        "vLLM 0.7.2 (it/s): [71.87, 73.51, 71.03, 71.77] avg=72.045 it/s\n"
        "SGLang 0.4.3 (it/s): [69.22, 71.32, 72.04, 71.91 avg=71.1225 it/s\n"
    )
    cf = _drafted(text, tmp_path)
    runs = {(c.value, c.metric, _cond(cf, c)["engine"], _cond(cf, c)["run_index"]) for c in cf.claims}
    assert runs == {
        (71.87, "request_throughput", "vLLM", 1),
        (73.51, "request_throughput", "vLLM", 2),
        (71.03, "request_throughput", "vLLM", 3),
        (71.77, "request_throughput", "vLLM", 4),
        (69.22, "request_throughput", "SGLang", 1),
        (71.32, "request_throughput", "SGLang", 2),
        (72.04, "request_throughput", "SGLang", 3),
        (71.91, "request_throughput", "SGLang", 4),
    }
    by_id = {c.id: c.value for c in cf.claims}
    means = {(s.kind, s.value, s.unit, tuple(by_id[x] for x in s.of)) for s in cf.statements}
    assert means == {
        ("mean", 72.045, "it/s", (71.87, 73.51, 71.03, 71.77)),
        ("mean", 71.1225, "it/s", (69.22, 71.32, 72.04, 71.91)),
    }
    cf = _drafted("Runs (tok/s): [10.5, 11.5] avg=30.0 tok/s on an RTX 4090\n", tmp_path)
    assert sorted(c.value for c in cf.claims) == [10.5, 11.5, 30.0] and cf.statements == []


def test_an_lm_eval_command_names_its_backend_model_and_sampling(tmp_path):
    """lm-evaluation-harness's ``--model vllm`` is the engine it drives, ``--model_args
    pretrained=Qwen/Qwen2-1.5B-Instruct,dtype=auto`` the model, ``--gen_kwargs temperature=0`` the
    sampling; its ``--seed`` seeds the harness (Python, NumPy, torch, few-shot), no sampler."""
    from benchbook.audit.draftcommand import command_lines

    line = (
        "VLLM_USE_V1=1 lm_eval --model vllm --model_args pretrained=Qwen/Qwen2-1.5B-Instruct,dtype=auto "
        "--tasks gsm8k_cot --num_fewshot 8 --gen_kwargs temperature=0 --batch_size auto --seed 123"
    )
    (cmd,) = command_lines([(1, line)])
    assert cmd.conditions == {
        "engine": "vLLM",
        "model": "Qwen2-1.5B-Instruct",
        "sampling": "temperature 0",
        "other": {"dtype": "auto", "tasks": "gsm8k_cot", "num_fewshot": 8, "seeds": 123},
    }
    (cmd,) = command_lines([(1, "lm_eval --model hf --model_args pretrained=EleutherAI/pythia-160m")])
    assert (cmd.conditions["engine"], cmd.conditions["model"]) == ("Transformers", "pythia-160m")
    # control: llama-server's --seed is its sampler's
    (cmd,) = command_lines([(1, "llama-server -m x.gguf --temp 0 --seed 42")])
    assert cmd.conditions["sampling"] == "temperature 0, seed 42"


def test_an_emphasised_label_over_a_log_names_its_decoding_and_the_log_its_engine(tmp_path):
    """In a post about speculative decoding, "*without speculative decoding*" alone on its line over
    a pasted log labels that log as a heading would: its rates are plain. A registry tag with its
    namespace ("ai/llama3.3:70B-Q4_K_M", Docker Model Runner's) names model and quant, and a timing
    line wrapped in a log that says ``component=llama.cpp`` is llama.cpp's. Control: the same log
    under a plain sentence keeps the post's decoding."""
    log = (
        '```\ntime="2025-10-27T18:41:57Z" level=info msg="       eval time =  300258.64 ms /  1483 tokens '
        '(  202.47 ms per token,     4.94 tokens per second)" component=llama.cpp\n```\n'
    )
    head = "# Speculative decoding support\n\nModel tested: `ai/llama3.3:70B-Q4_K_M`\n\n"
    cf = _drafted(head + "*without speculative decoding*\n" + log, tmp_path)
    (tg,) = [c for c in cf.claims if c.metric == "decode_tps"]
    cond = _cond(cf, tg)
    assert (tg.value, cond["decoding"], cond["engine"], cond["model"], cond["quant"]) == (
        4.94,
        "plain",
        "llama.cpp",
        "llama3.3-70B",
        "Q4_K_M",
    )
    cf = _drafted(head + "Here is one run without much else going on.\n" + log, tmp_path)
    (tg,) = [c for c in cf.claims if c.metric == "decode_tps"]
    assert _cond(cf, tg)["decoding"] == "speculative"


def test_a_speculative_table_with_a_pass_column_and_a_drafters_quant(tmp_path):
    """ "Qwen3.8-27B IQ4_XS + Q8_0 DFlash2": the model's quant IQ4_XS, the Q8_0 the drafter's;
    "R9700" is AMD's Radeon AI PRO R9700; "HE 10-prompt aggregate decode" is the decode rate over a
    set of ten prompts (no prompt phase, no sum over streams); a "pass@1" column of "143/164" cells
    states counts (``accuracy`` with successes and trials), never rates in the table's tok/s."""
    text = (
        "R9700 / `gfx1201` follow-up:\n\nSupported measurements on Qwen3.8-27B IQ4_XS + Q8_0 DFlash2:\n\n"
        "| Setting | HE 10-prompt aggregate decode | HumanEval+ pass@1 |\n|---|---:|---:|\n"
        "| plain AR | 36.9 tok/s | — |\n| block-8 chain | 159.0 tok/s | 143/164 |\n"
        "| block-8 SpecLA | 163.9 tok/s | 145/164 |\n"
    )
    cf = _drafted(text, tmp_path)
    rates = {
        (c.value, c.metric, _cond(cf, c)["quant"], _cond(cf, c).get("hardware")) for c in cf.claims if c.value
    }
    assert rates == {
        (36.9, "decode_tps", "IQ4_XS", "AMD Radeon AI PRO R9700"),
        (159.0, "decode_tps", "IQ4_XS", "AMD Radeon AI PRO R9700"),
        (163.9, "decode_tps", "IQ4_XS", "AMD Radeon AI PRO R9700"),
    }
    passed = {(c.metric, c.counts.k, c.counts.n, c.source_line) for c in cf.claims if c.value is None}
    assert passed == {("accuracy", 143, 164, 8), ("accuracy", 145, 164, 9)}
    # controls: a rate column is not counts; a "k/n" with k above n is no count
    cf = _drafted("| Setting | ratio |\n|---|---|\n| a | 170/164 |\n| b | 10/4 |\n", tmp_path)
    assert [c for c in cf.claims if c.counts is not None] == []


def test_a_parallel_pair_bs1_and_sglangs_counts(tmp_path):
    """ "~5 output tokens/s on vLLM & around 10 for SGLang": the 10 is in the first's unit, about, and
    SGLang's (the name after it); "bs=1" is one request at a time; SGLang's "#Input tokens: 10354"
    is a count of tokens; "cache hit rate: 11.56%" is the cache's hit rate, no share. Control: a
    number after "and" with another kind of name after it stays without a unit."""
    text = (
        "Your benchmarks indicate ~5 output tokens/s on vLLM & around 10 for SGLang ?\n\n"
        "for bs=1 SGLang outputs around 26 tok/s:\n\n```\n#Input tokens: 10354\n```\n\n"
        "The prefix cache hit rate: 11.56% on that run.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(c.value, c.about, c.metric, _cond(cf, c).get("engine")) for c in cf.claims}
    assert got >= {
        (5, True, "decode_tps", "vLLM"),
        (10, True, "decode_tps", "SGLang"),
        (26, True, "decode_tps", "SGLang"),
        (10354, False, "tokens", "SGLang"),
        (11.56, False, "cache_hit_rate", "SGLang"),
    }
    said: list = []
    settings_in_words("for bs=1 SGLang outputs", said)
    assert ("concurrency", 1) in said
    cf = _drafted("It runs at 40 tok/s on vLLM and 8 for hours.\n", tmp_path)
    assert [c.value for c in cf.claims] == [40]


def test_single_board_computers_are_machines():
    """Radxa's "Orion O6" (spelt "Oryon" in a video title too) and the Orange Pi boards are the
    machines a run is on (an RK3588 board is named by its chip: s51); a word starting with O is no
    board ("OOM", "Ollama")."""
    from benchbook.audit.draftnames import mentions

    def names(t: str) -> list:
        return [(m.path, m.value) for m in mentions(t)]

    assert names("Benchmark Radxa Oryon O6 Mini ITX Board") == [("hardware", "Radxa Orion O6")]
    assert names("Orange Pi 5 Plus (RK3588)") == [
        ("hardware", "Orange Pi 5 Plus"),
        ("hardware", "Rockchip RK3588"),
    ]
    assert names("OOM on 16GB") == [] and names("Ollama works") == [("engine", "Ollama")]


def test_a_statistic_in_parentheses_after_a_rate(tmp_path):
    """ "Baseline: 97.57 t/s (peak 108)": the 108 is the same rate's maximum (its unit, ``other.stat:
    max``), and "peak" is not the 97.57's word (it stays a decode rate, no peak). Control: "(8
    threads)" after a rate states no rate."""
    cf = _drafted("Baseline: 97.57 t/s (peak 108)\n\nDecode 41 tok/s (8 threads) here.\n", tmp_path)
    got = [(c.value, c.metric, c.unit, _cond(cf, c).get("other", {}).get("stat")) for c in cf.claims]
    assert got == [
        (97.57, "decode_tps", "t/s", None),
        (108, "decode_tps", "t/s", "max"),
        (41, "decode_tps", "tok/s", None),
    ]


def test_a_new_users_post_card_memory_names_and_pairs(tmp_path):
    """A new user's post (session 57): "my RTX 3090 with 24 GB VRAM" is the card's memory, a
    specification (listed, no claim; "with 23.1 GB of VRAM in use" is a measurement); the "3090" of
    the card's name is no number to list; "peaked at 5.1 GB for Q4_K_M and 8.4 GB for Q8_0" gives
    each size its own quant."""
    text = (
        "I ran llama-bench on my RTX 3090 with 24 GB VRAM:\n\n"
        "VRAM use peaked at 5.1 GB for Q4_K_M and 8.4 GB for Q8_0.\n\n"
        "A second card, an RTX 4090 with 23.1 GB of VRAM in use, ran it too.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(c.value, c.metric, _cond(cf, c).get("quant") if c.value != 23.1 else None) for c in cf.claims}
    assert got == {(5.1, "vram_peak", "Q4_K_M"), (8.4, "vram_peak", "Q8_0"), (23.1, "vram", None)}
    assert [u.number for u in cf.draft.unplaced] == ["24"]

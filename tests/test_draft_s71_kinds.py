"""Kinds fixed in issue 29's session 71 (the forty-ninth held-out set's misses, read after a
fifty-first set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftnames import cpu_names, mentions, supposed_spans
from benchbook.audit.draftprose import metric_of
from benchbook.audit.toollines import tool_results
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _claims(cf) -> list[tuple]:
    return [(c.metric, c.value, c.unit) for c in cf.claims]


def test_figures_beside_a_result_on_a_line_of_output_are_drafted(tmp_path):
    """ "warmup  12 tok   124 ms TTFT    148 ms total   82.1 tok/s" (h563): the rate read as a
    result, the count and the two times beside it drafted too (they were only listed), each named
    by the word after it ("total" names 148 ms, not the rate after it: one stream's decode); the
    tool's banner aligned by spaces ("  GPU      NVIDIA GeForce RTX 4090") names the machine and the
    model as a "GPU:" line does."""
    post = (
        "# Bench\n\n```\n  Model    qwen2.5-coder:7b-q5_k_m\n  GPU      NVIDIA GeForce RTX 4090\n"
        "  warmup        12 tok   124 ms TTFT    148 ms total   82.1 tok/s\n```\n"
    )
    cf = _drafted(post, tmp_path)
    got = sorted(_claims(cf), key=lambda c: c[1])
    assert got == [
        ("tokens", 12.0, "tokens"),
        ("decode_tps", 82.1, "tok/s"),
        ("ttft", 124.0, "ms"),
        ("duration", 148.0, "ms"),
    ]
    cond = _cond(cf, cf.claims[0])
    assert cond["hardware"] == "NVIDIA GeForce RTX 4090"
    assert (cond["model"], cond["quant"]) == ("qwen2.5-coder-7B", "Q5_K_M")
    assert not cf.draft.unplaced


def test_a_time_named_total_is_the_runs_whole_time():
    """ "148 ms total" after "124 ms TTFT", "total 25783.48ms" (h563, h540): a duration, not the
    phase a word before names; "Total latency: 5 ms" and a time with no word stay as they were."""
    assert metric_of("ms", "warmup 12 tok 124 ms TTFT    ", "total   82.1 tok/s") == "duration"
    assert metric_of("ms", "Batch 64: 16 batches, total ", ", avg 1611.47ms") == "duration"
    assert metric_of("ms", "TTFT: ", " and more") == "ttft"
    assert metric_of("ms", "Total latency: ", "") == "latency"
    assert metric_of("ms", "The total time per token was ", "") == "ms_per_token"


def test_a_time_named_total_keeps_its_name_under_a_heading_of_another(tmp_path):
    """Under a title naming TTFT, "total 25783.48ms" is the batch's whole time and the statistics
    after it the TTFT's (h540's figures)."""
    post = "# Slower TTFT\n\n```\nBatch 64: 16 batches, total 25783.48ms, avg 1611.47ms, std 143.69ms\n```\n"
    assert [c.metric for c in _drafted(post, tmp_path).claims] == ["duration", "ttft", "ttft"]


def test_an_intel_desktop_part_by_its_number_alone():
    """ "on a 14900K" (h562) is Intel's Core i9-14900K; the tier from the model's digits; "12800K
    tokens" is a count."""
    assert cpu_names("~17T/s 25T/s on a 14900K") == ["Intel Core i9-14900K"]
    assert cpu_names("a 13600KF box") == ["Intel Core i5-13600KF"]
    assert cpu_names("my old 9900K") == ["Intel Core i9-9900K"]
    assert cpu_names("a 12400F") == ["Intel Core i5-12400F"]
    assert cpu_names("12800K tokens of context") == []
    assert cpu_names("i9-14900K") == ["Intel Core i9-14900K"]


def test_a_series_with_a_plus_and_advice_name_no_machine(tmp_path):
    """ "(RTX3000+)" is a series and the ones above it; "Even something like a 3060Ti would be
    amazing!" and "You can do this on a 3060Ti" are advice: the one CPU the post ran on is the
    machine (h562). "Ryzen AI Max+ 395" keeps its plus; a card named in a plain sentence stays."""
    assert not mentions("GPU with BF16 support would be best (RTX3000+) because")
    assert [m.value for m in mentions("a Ryzen AI Max+ 395 box")] == ["AMD Ryzen AI Max+ 395"]
    text = "It runs fine. Even something like a 3060Ti would be amazing! I ran it on a 3090."
    ((a, b),) = supposed_spans(text)
    assert text[a:b].strip() == "Even something like a 3060Ti would be amazing!"
    post = (
        "# gpt-oss-120b\n\nThe experts run amazing on CPU ( ~17T/s 25T/s on a 14900K).\n\n"
        "Even something like a 3060Ti would be amazing! GPU with BF16 support would be best (RTX3000+).\n\n"
        "with 5GB of vram usage!\n\nYou can do this on a 3060Ti and 64GB of system ram is cheap.\n"
    )
    cf = _drafted(post, tmp_path)
    assert {_cond(cf, c).get("hardware") for c in cf.claims} == {"Intel Core i9-14900K"}
    control = "# x\n\nI get 25 t/s on a 3090, with a 14900K host.\n"
    cf = _drafted(control, tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "NVIDIA GeForce RTX 3090"


def test_timing_lines_run_together_and_after_a_command_on_one_line(tmp_path):
    """A paste that lost its line breaks (h562): "prompt eval time = … tokens per second) eval
    time = …" gives both lines' results, and a llama-server command running on into them
    ("--port 8502 \\ prompt eval time = …", over 400 characters) too."""
    two = (
        "prompt eval time = 28044.75 ms / 3440 tokens ( 8.15 ms per token, 122.66 tokens per second)"
        " eval time = 5433.28 ms / 98 tokens ( 55.44 ms per token, 18.04 tokens per second)"
    )
    got = [(r.metric, r.value) for r in tool_results([(1, two)], False)]
    assert got == [
        ("prompt_eval_ms", "28044.75"),
        ("ms_per_token", "8.15"),
        ("prefill_tps", "122.66"),
        ("eval_ms", "5433.28"),
        ("ms_per_token", "55.44"),
        ("decode_tps", "18.04"),
    ]
    command = (
        "~/build/llama.cpp/build-cuda/bin/llama-server \\ -m $DIR/gpt-oss-120b-mxfp4-00001-of-00003.gguf "
        "\\ --n-cpu-moe 36 \\ #this model has 36 MOE blocks, so all moe run on the CPU. You can adjust "
        "this to move some MOE to the GPU, but it doesn't even make things that much faster. "
        "--n-gpu-layers 999 \\ --host 0.0.0.0 --port 8502 \\ " + two.replace("28044.75", "94593.62")
    )
    assert len(command) > 400
    cf = _drafted(f"# x\n\n{command}\n", tmp_path)
    assert ("prompt_eval_ms", 94593.62, "ms") in _claims(cf)
    assert ("decode_tps", 18.04, "tok/s") in _claims(cf)


def test_pre_and_post_labels_over_code_blocks_name_each_blocks_build(tmp_path):
    """ "Pre:" over one fence of mlx_lm's lines and "Post:" over the next (h559): each block's
    claims the side as their build; "mlx_lm.generate … -m 2048" caps the generation (MLX LM's
    "-m" is "--max-tokens"), "--prompt - < prompt.txt" reads the prompt from that file. "After:"
    alone labels no build."""
    post = (
        "# Clear cache\n\n```\nmlx_lm.generate --model mlx-community/Meta-Llama-3.1-8B-Instruct-4bit "
        "-m 2048 --prompt - < prompt.txt\n```\n\n"
        "Pre:\n```\nGeneration: 892 tokens, 32.480 tokens-per-sec\n```\n\n"
        "Post:\n\n```\nGeneration: 892 tokens, 32.211 tokens-per-sec\n```\n"
    )
    cf = _drafted(post, tmp_path)
    rates = [c for c in cf.claims if c.metric == "decode_tps"]
    assert [_cond(cf, c)["build"] for c in rates] == ["Pre", "Post"]
    cond = _cond(cf, rates[0])
    assert (cond["model"], cond["quant"], cond["cap"], cond["prompt"]) == (
        "Meta-Llama-3.1-8B-Instruct",
        "4bit",
        2048,
        "prompt.txt",
    )
    alone = "# x\n\nAfter:\n```\nGeneration: 892 tokens, 32.211 tokens-per-sec\n```\n"
    cf = _drafted(alone, tmp_path)
    assert "build" not in _cond(cf, cf.claims[0])


def test_a_benchmark_scripts_report_names_the_card_release_model_and_each_prompt(tmp_path):
    """ollama-benchmark's report (h560): "gpu_info: NVIDIA CMP 30HX" (a mining card), "ollama_version:
    0.1.41", "model_name =    mistral:7b" after a list of the tags it pulled (no model run), and
    "prompt = …" before each "eval rate:" line, that rate's prompt."""
    post = (
        "# SBCs\n\n```\ncpu_info: Intel(R) Core(TM) i5-7500T CPU @ 2.70GHz\ngpu_info: NVIDIA CMP 30HX\n"
        "ollama_version: 0.1.41\nChecking and pulling the following LLM models\nqwen:1.8b\nphi:2.7b\n"
        "gemma:2b\n----------\nmodel_name =    mistral:7b\nprompt = Write a guide on how to bake a cake.\n"
        "eval rate:            19.56 tokens/s\nprompt = Develop a python function, sudoku game\n"
        "eval rate:            17.72 tokens/s\n```\n"
    )
    cf = _drafted(post, tmp_path)
    got = [_cond(cf, c) for c in cf.claims]
    assert [c.value for c in cf.claims] == [19.56, 17.72]
    assert {(c["hardware"], c["engine"], c["build"], c["model"]) for c in got} == {
        ("NVIDIA CMP 30HX", "Ollama", "0.1.41", "mistral-7B")
    }
    assert [c["prompt"] for c in got] == [
        "Write a guide on how to bake a cake.",
        "Develop a python function, sudoku game",
    ]
    assert [m.value for m in mentions("two p106-100 cards")] == ["2x NVIDIA P106-100"]


def test_a_multiple_in_english_words_before_a_comparative():
    """ "roughly six times slower" (h561) is about 6 x; "three times faster" 3 x; "ran three times"
    (a count of runs) is none."""
    from benchbook.audit.draftprose import numbers

    def multiples(text: str) -> list[tuple]:
        return [(n.text, n.about) for n in numbers(text) if n.unit == "x"]

    assert multiples("dropping to 12.6 tokens per second — roughly six times slower than the others") == [
        ("6", True)
    ]
    assert multiples("vLLM is three times faster here") == [("3", False)]
    assert multiples("It ran three times per prompt.") == []
    assert [m.value for m in mentions("dflash-mlx fails at 32K") if m.path == "engine"] == ["dflash-mlx"]


def test_a_cells_further_figures_and_an_acceptance_row_under_a_rate_column(tmp_path):
    """ "| MTP | 24.5 t/s (weighted), bursts 28-39 t/s |" (h557): the rate the column reads and the
    range beside it, a claim too; "| Acceptance | 0.87 aggregate |" under the "Speed" column is the
    drafter's acceptance, a ratio; a further figure of no use ("(2 runs)") is listed, not dropped."""
    post = (
        "# x\n\n| Config | Speed |\n|---|---|\n| No MTP | 17.3 t/s (2 runs) |\n"
        "| MTP n-max 8 | 24.5 t/s (weighted), bursts 28-39 t/s |\n| Acceptance | 0.87 aggregate |\n"
    )
    cf = _drafted(post, tmp_path)
    got = {(c.metric, c.value, tuple(c.range or ()), c.unit) for c in cf.claims}
    assert got == {
        ("decode_tps", 17.3, (), "t/s"),
        ("decode_tps", 24.5, (), "t/s"),
        ("decode_tps", None, (28.0, 39.0), "t/s"),
        ("acceptance_rate", 0.87, (), "ratio"),
    }
    assert [u.number for u in cf.draft.unplaced] == ["2"]


def test_a_ranges_unit_from_its_change_and_a_rate_unit_as_a_label():
    """ "from about 11 tok/s to 19-21 effective" (h241): the range in the first side's unit;
    "平均TPS 83", "TPS 83 at 50 concurrency" (h327): the number right after the unit is a rate; a
    whole number farther from it ("TPS at 1 request") stays unitless."""
    from benchbook.audit.draftprose import numbers
    from benchbook.audit.draftsentences import _from_to_units, _headed_units

    text = "This leapfrogs the model from about 11 tok/s to 19-21 effective"
    got = _from_to_units(text, numbers(text))
    assert [(n.text, n.unit) for n in got] == [("11", "tok/s"), ("19–21", "tok/s")]
    for text, want in (
        ("50并发，平均TPS 83", [("50", None), ("83", "tok/s")]),
        ("We got TPS 83 at 50 concurrency.", [("83", "tok/s"), ("50", None)]),
        ("TPS at 1 request was 45.2", [("1", None), ("45.2", "tok/s")]),
    ):
        assert [(n.text, n.unit) for n in _headed_units(text, numbers(text))] == want


def test_approximation_words_over_a_slashed_list_and_in_other_wordings():
    """ "around 350/370 tokens/s" (p115): both about; "getting closer to 45,000 Tok/s" (h475) and
    "alrededor de 2 minutos" (h574) about; "should be closer to 35-60 tok/s" (h274, a comparison)
    and "350/370 tokens/s" alone are not."""
    from benchbook.audit.draftprose import numbers

    def said(text: str) -> list[tuple]:
        return [(n.text, n.about) for n in numbers(text)]

    assert said("The maximum result is around 350/370 tokens/s, while") == [("350", True), ("370", True)]
    assert said("got 350/370 tokens/s") == [("350", False), ("370", False)]
    assert said("I am getting closer to 45,000 Tok/s") == [("45000", True)]
    assert said("sería de alrededor de 2 minutos") == [("2", True)]
    assert said("it should be closer to 35-60 tok/s") == [("35–60", False)]


def test_breaker_findings_of_session_71(tmp_path):
    """The breaker's cases against this session's kinds, each with its right value."""
    from benchbook.audit.draftnames import side_labels

    # a measurement in a sentence with "would" or "you can see" keeps its machine; only advice drops it
    for text, card in (
        ("I would get 30 tok/s on my 4090 every time.", "NVIDIA GeForce RTX 4090"),
        ("You can see 45 tok/s on my 3090 in the screenshot.", "NVIDIA GeForce RTX 3090"),
        ("On my 3090 I could get 41 tok/s after enabling flash attention.", "NVIDIA GeForce RTX 3090"),
        ("I ran it on a 3090 at 25 tok/s; a 4090 would have been nicer.", "NVIDIA GeForce RTX 3090"),
    ):
        cf = _drafted(f"# x\n\n{text}\n", tmp_path)
        assert _cond(cf, cf.claims[0])["hardware"] == card, text
    # "total" labelling the next figure leaves the time before it its own name
    cf = _drafted("# x\n\n```\nTTFT 210 ms   total 1024 tokens   41.0 tok/s\n```\n", tmp_path)
    assert ("ttft", 210.0, "ms") in _claims(cf)
    assert [c.metric for c in _drafted("# x\n\nTTFT was 0.3 s, total: 12 s.\n", tmp_path).claims] == [
        "ttft",
        "duration",
    ]
    assert [c.metric for c in _drafted("# x\n\nTTFT was 95 ms and 2.3 s in total.\n", tmp_path).claims] == [
        "ttft",
        "duration",
    ]
    # a bare Intel part beside a bare card's number is no machine
    cf = _drafted("# x\n\n4090 + 13900K: 110 tok/s with llama3 8b.\n", tmp_path)
    assert "hardware" not in _cond(cf, cf.claims[0])
    # two models run in one block: each result its own
    block = (
        "# x\n\n```\nmodel_name = phi3:mini\neval rate: 62.0 tokens/s\nmodel_name = llama3:8b\n"
        "eval rate: 41.0 tokens/s\n```\n"
    )
    cf = _drafted(block, tmp_path)
    assert [_cond(cf, c)["model"] for c in cf.claims] == ["phi3:mini", "llama3-8B"]
    # a rate's unit as a label takes no count named after it
    for text, want in (("TPS 2024 report: we got 83 tok/s.", [83.0]), ("TPS 8 GPUs: 12000 tok/s", [12000.0])):
        cf = _drafted(f"# x\n\n{text}\n", tmp_path)
        assert [c.value for c in cf.claims] == want, text
    # a log line's other numbers are not listed again beside its results
    log = (
        "# x\n\n```\nINFO 10-18 03:33:46 metrics.py:345] Avg prompt throughput: 412.5 tokens/s, Avg "
        "generation throughput: 88.3 tokens/s, Running: 1 reqs, GPU KV cache usage: 0.8%\n```\n"
    )
    cf = _drafted(log, tmp_path)
    assert [c.value for c in cf.claims] == [412.5, 88.3]
    assert [u.number for u in cf.draft.unplaced] == ["0.8"]
    # side labels: emphasis alone, the change named after the side; a label of other words is none
    assert side_labels({1: "**Pre**", 2: "**Post**"}) == {1: "Pre", 2: "Post"}
    assert side_labels({1: "Before the patch:", 2: "After the patch:"}) == {1: "Before", 2: "After"}
    assert side_labels({1: "Before we start:", 2: "After:"}) == {}
    # older Intel parts, laptops' HX
    assert cpu_names("a 2600K and a 4790K") == ["Intel Core i7-2600K", "Intel Core i7-4790K"]
    assert cpu_names("13900HX laptop") == ["Intel Core i9-13900HX"]
    # a laptop's Ryzen AI (h274); the Max+ 395 is an APU named as a machine, not here
    assert cpu_names("- **CPU:** AMD Ryzen AI 9 HX PRO 370 (Zen 5)") == ["AMD Ryzen AI 9 HX PRO 370"]
    assert cpu_names("Ryzen AI Max+ 395") == []
    # an "Acceptance" row's 87 is no share of one
    table = "# x\n\n| Config | Speed |\n|---|---|\n| A | 41 tok/s |\n| Acceptance | 87 |\n"
    assert "acceptance_rate" not in {c.metric for c in _drafted(table, tmp_path).claims}


def test_apples_chips_named_as_a_family_are_the_machine_where_nothing_else_is(tmp_path):
    """ "Hardware: Apple Silicon Mac (M-series, unified memory)" (p176) and "(M-series, Qwen3.5-0.8B)"
    (h372): the post's machine, the fullest name; a chip named beside them wins."""
    post = "# Running LLMs on Apple Silicon\n\nHardware: Apple Silicon Mac (M-series)\n\nDecode: 196 tok/s.\n"
    cf = _drafted(post, tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "Apple Silicon Mac"
    cf = _drafted("# x\n\nMeasured this session (M-series, Qwen3.5-0.8B): 40 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "Apple M-series"
    cf = _drafted("# Apple Silicon\n\nOn my M2 Max: 40 tok/s.\n", tmp_path)
    assert _cond(cf, cf.claims[0])["hardware"] == "Apple M2 Max"


def test_a_paragraph_of_many_sentences_naming_machines_drafts_in_linear_time(tmp_path):
    """One paragraph repeating "Something like a 3090 would be nice. I get 30 tok/s on my 4090.":
    each claim read its whole line for the names before it (``_line_names``), for run lengths
    (``io_lengths``) and for a list of statistics: 16 KB took 24 s at 0e50fcf0, quadratic."""
    from benchbook.audit.draft import draft_text
    from drafting import LINEAR, cpu_growth

    sentence = "Something like a 3090 would be nice. I get 30 tok/s on my 4090. "
    assert cpu_growth(lambda k: draft_text("# x\n\n" + sentence * k + "\n", "p.md"), 125) < LINEAR
    cf = _drafted("# x\n\n" + sentence * 3 + "\n", tmp_path)
    assert {_cond(cf, c)["hardware"] for c in cf.claims} == {"NVIDIA GeForce RTX 4090"}

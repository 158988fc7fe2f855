"""The workload a claim ran (``benchbook claims draft``, issue 29): its prompt or task, its decoding
(plain or speculative), its concurrency, its draft size (``block_max``) and the tokens it generated --
from a table's column or row labels, a setup list's labelled lines, a command's flags and the words
of a post.  Made-up posts; each kind with a control of what must not change."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_column_of_rates_without_a_unit_named_by_a_word_is_its_prompt(tmp_path):
    """A table whose rates take their unit from the paragraph above, with columns headed by plain
    words ("| go | rust |"), ran one prompt per column.  Control: columns headed by hardware or a
    decoding word name that, not a prompt."""
    cf = _drafted(
        "# Draft sizes\n\nPlain decoding: 20.5 tokens/second.\n\n"
        "| draft-max | go | rust |\n|---|---|---|\n| 8 | 31.25 | 28.75 |\n| 4 | 29.5 | 27.25 |\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert (got[31.25]["prompt"], got[28.75]["prompt"], got[27.25]["prompt"]) == ("go", "rust", "rust")
    assert "prompt" not in got[20.5]
    cf = _drafted(
        "# Two cards\n\nSpeeds in tokens/second.\n\n"
        "| model | RTX 4090 | Baseline |\n|---|---|---|\n| 7B | 51.5 | 42.5 |\n| 13B | 33.5 | 30.25 |\n",
        tmp_path,
    )
    assert all("prompt" not in _cond(cf, c) for c in cf.claims)


def test_a_column_of_sources_names_no_prompt(tmp_path):
    """Columns of one table are one kind: where one lead column's header names no prompt ("this
    box": a source of the numbers), none of them is a prompt ("Docs")."""
    cf = _drafted(
        "# Compared\n\nDecode in tokens/second.\n\n"
        "| run | Docs | this box |\n|---|---|---|\n| short | 61.5 | 50.25 |\n| long | 55.5 | 44.75 |\n",
        tmp_path,
    )
    assert all("prompt" not in _cond(cf, c) for c in cf.claims)


def test_a_prompt_under_its_label_or_named_before_the_word_prompt():
    """A setup line "Prompt: …" / "Task: …" (any script's label) names the prompt, the rest of
    the line; words heading a list item or after on/for before "prompt" name it ("Recipe-9k prompt,
    256 gen:" -> "Recipe-9k"); a count keeps the word ("12k-token prompt").  Controls: a phase
    ("prompt processing"), "the same prompt", and a label with nothing after it name none."""
    from benchbook.audit.draftcontext import stated

    def prompts(line: str) -> list[object]:
        return [v for p, v in stated([(1, line)], "text") if p == "prompt"]

    assert prompts("- Prompt: write a haiku about GPUs") == ["write a haiku about GPUs"]
    assert prompts("**Task**: 「translate a menu」") == ["translate a menu"]
    assert prompts("プロンプト：ログを要約") == ["ログを要約"]
    assert prompts("Recipe-9k prompt, 256 gen: `150.5 PP`, `20.25 TG`") == ["Recipe-9k"]
    assert prompts("It reached 30 t/s on the poetry prompt.") == ["poetry"]
    assert prompts("Decode fell to 12 t/s (12k-token prompt)") == ["12k-token prompt"]
    assert prompts("Prompt processing: 500 t/s, prompt eval 480 t/s") == []
    assert prompts("I sent the same prompt three times at 30 t/s.") == []
    assert prompts("Prompt:") == []


def test_a_prompt_named_in_a_measured_sentence_is_that_sentences_only(tmp_path):
    """ "36.5 t/s (3k token prompt)" is that sentence's prompt; the section's other rates keep none.
    Control: a settings line "Task: …" (no measurement) holds for the section's rates."""
    cf = _drafted(
        "# Offload\n\nAll on GPU: 14.25 t/s.\n\nAll on CPU: 36.5 t/s (3k token prompt)\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert got[36.5]["prompt"] == "3k token prompt" and "prompt" not in got[14.25]
    cf = _drafted("# Offload\n\n- Task: sort a list in C\n\nAll on GPU: 14.25 t/s.\n", tmp_path)
    assert [_cond(cf, c).get("prompt") for c in cf.claims] == ["sort a list in C"]


def test_a_benchmark_commands_dataset_is_its_prompt():
    """vLLM's ``--dataset-name random`` names the prompts; with a loader ("hf") the dataset's path
    does: its last part, or the folder above a generic file name.  Control: a command with no
    dataset states no prompt."""
    from benchbook.audit.draftcommand import command_lines

    def prompt(line: str) -> object:
        (c,) = command_lines([(1, line)])
        return c.conditions.get("prompt")

    assert prompt("vllm bench serve --model m --dataset-name random --num-prompts 8") == "random"
    assert prompt("vllm bench serve --model m --dataset-name hf --dataset-path org/chat-eval") == "chat-eval"
    assert prompt("vllm bench serve --model m --dataset data/alpaca_mini/questions.jsonl") == "alpaca_mini"
    assert prompt("vllm bench serve --model m --dataset-name hf") is None
    assert prompt("vllm bench serve --model m --num-prompts 8") is None


def test_sizes_under_a_prompt_label_name_no_prompt():
    """ "Workload: 512 input → 64 output tokens" gives sizes, not a prompt (a count first)."""
    from benchbook.audit.draftcontext import stated

    assert [
        v for p, v in stated([(1, "Workload: 512 input → 64 output tokens")], "text") if p == "prompt"
    ] == []


def test_a_drafting_methods_name_is_speculative_decoding():
    """EAGLE-3, Medusa, n-gram and prompt lookup draft from another model or the context:
    speculative.  Controls: MTP is the model's own heads (draft-self); "EAGLE-3" alone under a
    "Speculative" column is the method, kept as written."""
    from benchbook.audit.draftnames import decoding_of_cell, mentions

    def decoding(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "decoding"]

    assert decoding("Trying EAGLE-3 heads") == ["speculative"]
    assert decoding("with Medusa") == ["speculative"]
    assert decoding("ngram-mod lookup") == ["speculative"]
    assert decoding("MTP heads") == ["draft-self"]
    assert decoding_of_cell("EAGLE3", "Speculative") is None


def test_a_command_that_runs_the_model_without_drafting_flags_decodes_plainly(tmp_path):
    """In a post about drafting, the log under ``llama-cli -m x`` (no ``-md``) is a plain run, the
    one under ``llama-speculative -m x -md d`` a speculative one, each under its own command (the
    log drafted at the end keeps the command before it).  Control: a client of a server
    (``vllm bench serve``) says nothing of the server's drafting."""
    from benchbook.audit.draftcontext import stated

    cf = _drafted(
        '# Speculative decoding on a small card\n\n`./llama-cli -m big.gguf -p "hi" -ngl 33`\n\n```\n'
        "llama_perf_context_print:        eval time =    2000.00 ms /   100 runs   (   20.00 ms per token,"
        "    50.00 tokens per second)\n```\n\n"
        '`./llama-speculative -m big.gguf -md small.gguf -p "hi" -ngl 33`\n\n```\n'
        "llama_perf_context_print:        eval time =    1000.00 ms /   100 runs   (   10.00 ms per token,"
        "   100.00 tokens per second)\n```\n",
        tmp_path,
    )
    got = {(c.metric, c.value): _cond(cf, c).get("decoding") for c in cf.claims}
    assert got[("decode_tps", 50.0)] == "plain" and got[("decode_tps", 100.0)] == "speculative"
    assert ("decoding", "plain") in stated([(1, "llama-server -m a.gguf -ngl 99")], "text")
    assert ("decoding", "speculative") in stated([(1, "llama-server -m a.gguf -md b.gguf")], "text")
    assert not [v for p, v in stated([(1, "vllm bench serve --model m")], "text") if p == "decoding"]


def test_concurrency_in_words():
    """Requests at once in words: "concurrency = 4", "10 concurrency", "8 concurrent request
    streams", "single concurrency".  Controls: a range's end ("1-8 concurrent") and a percentage
    name none; a total of tokens generated with thousands separators is no per-request count."""
    from benchbook.audit.draftcontext import stated

    def got(text: str, path: str = "concurrency") -> list[object]:
        return [v for p, v in stated([(1, text)], "text") if p == path]

    assert got("base (concurrency = 4):") == [4]
    assert got("100 samples, 10 concurrency, one GPU") == [10]
    assert got("- 8 concurrent request streams") == [8]
    assert got("20 samples, single concurrency:") == [1]
    assert got("from 1-8 concurrent users") == []
    assert got("concurrency 30% higher") == []
    assert got("Number of draft tokens generated: 259,326", "tokens_generated") == []
    assert got("Tokens generated: 259,326", "tokens_generated") == []
    assert got("Tokens generated: 256", "tokens_generated") == [256]


def test_a_label_line_holds_for_the_blocks_after_it(tmp_path):
    """A paragraph's first line ending with ":" that states settings ("40 prompts, 6 concurrency,
    RTX 4090:") labels what follows up to the next label: each run's numbers take their label's
    concurrency.  Control: a label stating nothing ("Results:") scopes nothing, and the label's
    settings are not the section's (a rate before the first label has none)."""
    cf = _drafted(
        "# Runs\n\nWarm-up: 12.5 t/s.\n\n40 prompts, 6 concurrency:\nDecode: 80.5 t/s\n\n"
        "Prefill: 900.5 t/s\n\n40 prompts, single concurrency:\nDecode: 30.5 t/s\n\n"
        "Prefill: 400.5 t/s\n\nResults:\nDecode: 31.5 t/s\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("concurrency") for c in cf.claims}
    assert got == {12.5: None, 80.5: 6, 900.5: 6, 30.5: 1, 400.5: 1, 31.5: 1}


def test_a_label_naming_the_baseline_over_a_speculative_servers_output(tmp_path):
    """ "base (concurrency = 1):" over a benchmark's output under a speculative server's command:
    that output ran plainly, none of the command's drafting; the next label's output keeps it."""
    cf = _drafted(
        "# n-gram speculation TTFT\n\n```\npython -m vllm.entrypoints.api_server --model m "
        '--speculative-model "[ngram]" --num-speculative-tokens 3\n```\n\n'
        "base (concurrency = 1):\n```\nMean TTFT (ms):                          120.50\n```\n\n"
        "spec (concurrency = 1):\n```\nMean TTFT (ms):                          101.25\n```\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert (got[120.5]["decoding"], got[120.5]["concurrency"], "block_max" in got[120.5]) == (
        "plain",
        1,
        False,
    )
    assert (got[101.25]["decoding"], got[101.25]["block_max"]) == ("speculative", 3)


def test_a_draft_size_as_mtp_cap_or_a_num_spec_tokens_column(tmp_path):
    """ "MTP cap 4" is a draft size; a label column "Num Spec Tokens" is the row's.  Control: "cap
    4" alone (no drafting word) is none."""
    from benchbook.audit.draftcontext import stated

    assert ("block_max", 4) in stated([(1, "ROCm build, MTP cap 4, f16 KV:")], "text")
    assert not [v for p, v in stated([(1, "a cap 4 on the fans")], "text") if p == "block_max"]
    cf = _drafted(
        "# EAGLE sizes\n\n| Method | Num Spec Tokens | Decode (tok/s) |\n|---|---|---|\n"
        "| eagle | 2 | 90.5 |\n| eagle | 6 | 70.25 |\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("block_max") for c in cf.claims] == [2, 6]


def test_tokens_generated_on_a_rate_line_a_tg_test_and_a_tg_header(tmp_path):
    """A generation's line with one count of tokens ("(24.5 tokens/s, 300 tokens, context 20)") gives
    its rate and time ``tokens_generated``; a llama-bench tg test and a "TG (256)" column their n;
    "128‑token output" with a non-breaking hyphen is a count in words.  Controls: a prompt's count
    ("Prompt: 14 tokens") and a line with two counts give none."""
    from benchbook.audit.draftcontext import stated

    cf = _drafted(
        "# Runs\n\nOutput generated in 9.25 seconds (24.5 tokens/s, 300 tokens, context 20)\n\n"
        "Prompt: 14 tokens, 250.5 tokens-per-sec\n\nGeneration: 33.5 tokens/s for 100 tokens of 400 tokens\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("tokens_generated") for c in cf.claims}
    assert (got[24.5], got[9.25], got[250.5], got[33.5]) == (300, 300, None, None)
    cf = _drafted("# Platforms\n\n| Platform | TG (256) T/s |\n|--|--|\n| one | 37.5 |\n", tmp_path)
    assert [_cond(cf, c).get("tokens_generated") for c in cf.claims] == [256]
    assert ("tokens_generated", 128) in stated([(1, "128\u2011token output generation")], "text")


def test_streams_the_output_cap_and_greedy_in_words():
    """ "8-stream throughput" is 8 requests at once; "OSL 256" / "max_tokens 512" the cap on each
    request's output; "Greedy decoding (temperature = 0)" one sampling, greedy.  Controls: "OSL
    256%" and a temperature above 0 beside "greedy" stay as they are."""
    from benchbook.audit.draftcontext import stated

    def got(text: str, path: str) -> list[object]:
        return [v for p, v in stated([(1, text)], "text") if p == path]

    assert got("8-stream throughput: 95 tokens/sec", "concurrency") == [8]
    assert got("all 9 categories, OSL 256: 27 samples", "cap") == [256]
    assert got("requests with max_tokens 512", "cap") == [512]
    assert got("OSL 256% higher", "cap") == []
    assert got("Greedy decoding (temperature = 0)", "sampling") == ["greedy"]
    assert got("greedy, then temperature 0.7", "sampling") == ["temperature 0.7", "greedy"]


def test_each_line_of_a_list_read_as_one_block_keeps_its_own_concurrency(tmp_path):
    """A list read as one block (HTML's <li> lines): "Single stream throughput: 60 t/s" is at 1,
    "4-stream throughput: 90 t/s" at 4.  Control: a line stating none keeps none (the block names
    two)."""
    cf = _drafted(
        "<html><body><p>Measured</p><ul><li>Single stream throughput: 60.5 tokens/sec</li>"
        "<li>4-stream throughput: 90.5 tokens/sec</li><li>First token latency: 700 ms</li></ul>"
        "</body></html>",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("concurrency") for c in cf.claims}
    assert got == {60.5: 1, 90.5: 4, 700: None}


def test_a_sweep_benchs_first_row_is_at_depth_zero(tmp_path):
    """llama-sweep-bench's N_KV column states each row's depth, its first row's 0 too.  Control: a
    llama-bench tg row with no depth states none, and its tg test its tokens generated."""
    cf = _drafted(
        "# Sweep\n\n|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
        "|-------|--------|--------|----------|----------|----------|----------|\n"
        "|   512 |    128 |      0 |    1.700 |   301.25 |    8.200 |    15.75 |\n"
        "|   512 |    128 |    512 |    1.800 |   284.50 |    8.400 |    15.25 |\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("depth") for c in cf.claims if c.metric in ("prefill_tps", "decode_tps")}
    assert got == {301.25: 0, 15.75: 0, 284.5: 512, 15.25: 512}
    cf = _drafted(
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| --- | ---: | ---: | --- | --: | --- | ---: |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg 128 | 127.43 ± 0.18 |\n",
        tmp_path,
    )
    (c,) = [c for c in cf.claims if c.metric == "decode_tps"]
    assert "depth" not in _cond(cf, c) and _cond(cf, c)["tokens_generated"] == 128


def test_ollama_verbose_eval_count_is_the_tokens_generated_of_its_rate(tmp_path):
    """ollama --verbose: "eval count: 52 token(s)" is the tokens generated of the eval duration and
    rate after it and of the run's total duration.  Control: the prompt eval rate keeps none."""
    cf = _drafted(
        "# Ollama\n\n```\ntotal duration:       3.25s\nprompt eval count:    900 token(s)\n"
        "prompt eval rate:     450.50 tokens/s\neval count:           52 token(s)\n"
        "eval duration:        2.5s\neval rate:            20.80 tokens/s\n```\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("tokens_generated") for c in cf.claims}
    assert (got[3.25], got[2.5], got[20.8], got[450.5]) == (52, 52, 52, None)


def test_sampling_settings_listed_with_the_temperature_and_a_commands_seed():
    """ "temperature 0.2, top_p 0.95, seed 7" is one sampling, as listed; a command's ``--seed 3``
    joins its sampling.  Control: words after the temperature that name no setting end the list."""
    from benchbook.audit.draftcommand import command_lines
    from benchbook.audit.draftcontext import stated

    def got(text: str) -> list[object]:
        return [v for p, v in stated([(1, text)], "text") if p == "sampling"]

    assert got("Both runs used temperature 0.2, top_p 0.95, seed 7.") == [
        "temperature 0.2, top_p 0.95, seed 7"
    ]
    assert got("temperature 0.2 and then 8 runs") == ["temperature 0.2"]
    (c,) = command_lines([(1, "llama-server -m a.gguf --temp 0.5 --seed 3")])
    assert c.conditions["sampling"] == "temperature 0.5, seed 3"
    (c,) = command_lines([(1, "vllm serve m --seed 0")])
    assert c.conditions["sampling"] == "seed 0"


def test_a_rate_on_a_line_stating_an_acceptance_is_of_a_drafting_run(tmp_path):
    """A benchmark line "code pred= 128 draft= 90 acc= 80 rate=0.889 tok/s=70.5" in a post about
    MTP: its rate is the MTP run's (draft-self), as its acceptance is; DFlash names speculative
    decoding.  Control: a rate on a line with no acceptance keeps the post's no decoding."""
    from benchbook.audit.draftnames import mentions

    cf = _drafted(
        "# A small card\n\nMTP helped, non-MTP was slower.\n\n```\n"
        "code pred= 128 draft= 90 acc= 80 rate=0.889 tok/s=70.5\n```\n\nAt night it ran 40.5 tok/s.\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("decoding") for c in cf.claims if c.metric == "decode_tps"}
    assert got == {70.5: "draft-self", 40.5: None}
    assert [m.value for m in mentions("DFlash drafts") if m.path == "decoding"] == ["speculative"]


def test_a_baseline_heading_in_chinese_japanese_or_korean_is_plain_decoding():
    """基线 / 基準 / ベースライン / 베이스라인 name the baseline arm: plain.  Control: the speculative
    heading keeps its decoding."""
    from benchbook.audit.draftnames import mentions

    def decoding(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "decoding"]

    assert decoding("## 基线") == ["plain"]
    assert decoding("ベースラインの速度") == ["plain"]
    assert decoding("베이스라인") == ["plain"]
    assert decoding("## Speculative decoding") == ["speculative"]


def test_the_task_of_a_counted_output_in_a_setup_list_holds_for_the_post(tmp_path):
    """ "Method: 128-token story writing output" names the task (and the tokens generated) for the
    post, though the setup list's other line measures ("Model: X (~9 GB)").  Controls: "128-token
    output generation" names no task; "512-token max output" neither."""
    from benchbook.audit.draftcontext import stated

    cf = _drafted(
        "# Bench\n\nModel: Qwen3-8B (~9 GB)\nMethod: 128-token story writing output, two runs\n\n"
        "| Depth | tok/s |\n|---|---|\n| 0 | 61.5 |\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("prompt"), _cond(cf, c).get("tokens_generated")) for c in cf.claims]
    assert (61.5, "story writing", 128) in got
    assert [v for p, v in stated([(1, "128-token output generation")], "text") if p == "prompt"] == []
    assert [v for p, v in stated([(1, "a 512-token max output")], "text") if p == "prompt"] == []


def test_vllm_offline_example_scripts_and_a_list_items_arm_label(tmp_path):
    """``python examples/offline_inference/eagle.py --dataset … --num_spec_tokens 4`` is a vLLM
    command (its dataset the prompt); a list item labelled "k=2:" or "vanilla," under it is that
    arm (draft size 2; plain, none of the command's drafting).  Control: an unlabelled item keeps
    the command's draft size."""
    cf = _drafted(
        "# EAGLE on a chat set\n\n```\npython examples/offline_inference/eagle.py "
        '--dataset="data/chat_eval/questions.jsonl" --num_spec_tokens 4\n```\n\n'
        "* vanilla, output: 120.5 toks/s\n* k=2: output: 160.25 toks/s\n* then output: 150.75 toks/s\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert (got[120.5]["engine"], got[120.5]["prompt"], got[120.5]["decoding"]) == (
        "vLLM",
        "chat_eval",
        "plain",
    )
    assert "block_max" not in got[120.5]
    assert (got[160.25]["block_max"], got[150.75]["block_max"]) == (2, 4)


def test_a_label_under_a_rule_line_still_labels(tmp_path):
    """A rule ("————") above the label line in its paragraph is no label; the line under it is.
    Control: the rate before the label keeps none."""
    cf = _drafted(
        "# Plan\n\nWarm: 10.5 t/s\n\n————\n30 samples, 5 concurrency:\nDecode: 70.5 t/s\n\n"
        "Prefill: 800.5 t/s\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("concurrency") for c in cf.claims}
    assert got == {10.5: None, 70.5: 5, 800.5: 5}


def test_mtp_n_is_a_draft_size_and_n_out_a_cap():
    """ "MTP-3 probabilistic" drafts 3 tokens; "512 in, 1024 out" caps the output at 1024.
    Controls: "MTP 2x faster", "MTP-2.5" and "3 out of 5 runs" state neither."""
    from benchbook.audit.draftcontext import stated

    assert ("block_max", 3) in stated([(1, "fp8 KV, MTP-3 probabilistic, 150k")], "text")
    assert ("cap", 1024) in stated([(1, "8 prompts, 512 in, 1024 out.")], "text")
    assert [
        x
        for x in stated([(1, "3 out of 5 runs; MTP 2x faster; MTP-2.5")], "text")
        if x[0] in ("cap", "block_max")
    ] == []


def test_lines_labelled_with_their_decoding_in_one_paragraph(tmp_path):
    """ "Baseline (non-speculative): 200.5 s" and "Speculative decoding model: 120.25 s" on two lines
    of one paragraph: each line's label names its own number's decoding, not the next line's (the
    control: the second line's own)."""
    cf = _drafted(
        "# EAGLE run\n\nBaseline (non-speculative): 200.5 s\nSpeculative decoding model: 120.25 s\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("decoding") for c in cf.claims if c.metric == "duration"}
    assert (got[200.5], got[120.25]) == ("plain", "speculative")


def test_a_scripts_output_token_count_beside_its_decode_lines(tmp_path):
    """A script's result lines "decode time: 10.5s", "output token: 640", "decode speed: 61.25
    token/s": the count is the tokens generated of the decode lines beside it, each run's own.
    Control: "first token: 0.04s" (a TTFT) keeps none."""
    cf = _drafted(
        "# Runs\n\n```\nbase:\nfirst token:  0.04s\ndecode time:  10.5s\noutput token:  640\n"
        "decode speed:  61.25 token/s\n\nspec:\nfirst token:  0.03s\ndecode time:  9.75s\n"
        "output token:  600\ndecode speed:  61.5 token/s\n```\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("tokens_generated") for c in cf.claims}
    assert (got[10.5], got[61.25], got[9.75], got[61.5], got[0.04]) == (640, 640, 600, 600, None)


def test_a_draft_size_picked_from_a_list_of_sizes_tried_is_block_max(tmp_path):
    """ "I ran 3, 6 and 9 draft tokens; the results for 6 follow": the size the words pick from the
    list is the block's ``block_max``, on the rates under it.  Controls: the list alone names no size,
    and a number outside the list ("results for 8") picks none."""
    from benchbook.audit.draftcontext import stated

    cf = _drafted(
        "# MTP on a laptop\n\nI ran 3, 6 and 9 draft tokens. "
        "The results for 6 follow, at concurrency 1-2.\n\n"
        "| run | tg t/s |\n|---|---|\n| short | 41.5 |\n| long | 37.25 |\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("block_max") for c in cf.claims] == [6, 6]
    for text in (
        "I ran 3, 6 and 9 draft tokens.",
        "I ran 3, 6 and 9 draft tokens; the results for 8 follow.",
    ):
        assert [v for p, v in stated([(1, text)], "text") if p == "block_max"] == [], text


def test_a_word_after_a_concurrency_label_that_names_the_sampling_is_the_rows_sampling():
    """ "C2 greedy", "c16 sampled", "C4 default": the concurrency and, after it, the way tokens were
    chosen (``sampling``, as written).  Controls: "C2 run" keeps only the concurrency; "C++" is none."""
    from benchbook.audit.draftcontext import cell_conditions

    assert [cell_conditions(c) for c in ("C2 greedy", "**c16 Sampled**", "C4 default", "C2 run", "C++")] == [
        {"concurrency": 2, "sampling": "greedy"},
        {"concurrency": 16, "sampling": "sampled"},
        {"concurrency": 4, "sampling": "default"},
        {"concurrency": 2},
        {},
    ]


def test_a_count_of_output_tokens_after_above_or_below_is_a_bound_not_the_runs_length(tmp_path):
    """ "At 1500 output tokens, A finishes in 33 s. ... only above about 700 output tokens": the
    threshold names no run, so the paragraph's runs keep 1500.  Control: the count alone is the
    tokens generated."""
    from benchbook.audit.draftcontext import stated

    cf = _drafted(
        "# Long replies\n\nAt 1500 output tokens, the first engine finishes in 33 seconds. The second "
        "takes 47 seconds. The gap shows only above about 700 output tokens.\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("tokens_generated") for c in cf.claims] == [1500, 1500]
    assert [
        v for p, v in stated([(1, "below 256 new tokens it is slower")], "text") if p == "tokens_generated"
    ] == []
    assert ("tokens_generated", 256) in stated([(1, "with 256 new tokens it is slower")], "text")


def test_the_message_typed_to_a_chat_run_is_the_prompt(tmp_path):
    """ "command: ollama run llama3:8b" over "message: write a haiku about rain": the text typed to
    the chat run is the prompt of the rates below.  Control: "Message: connection refused" in a block
    running no chat names no prompt."""
    from benchbook.audit.draftcontext import stated

    cf = _drafted(
        "# Slow replies\n\ncommand: **ollama run llama3:8b --verbose**\n"
        "message: **write a haiku about rain**\n\n"
        "```\neval rate:            41.25 tokens/s\n```\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("prompt") for c in cf.claims] == ["write a haiku about rain"]
    got = stated([(1, "Message: connection refused"), (2, "It failed at 41.25 tokens/s")], "text")
    assert [v for p, v in got if p == "prompt"] == []


def test_a_list_lines_label_opening_with_a_kind_of_task_is_its_prompt(tmp_path):
    """ "- Math wall/decode: 61.5 / 63.25 tok/s" over "- Chat wall/decode: …": each line's task is its
    numbers' prompt.  Control: a label with other words ("Code size:") names no prompt."""
    cf = _drafted(
        "# Two tasks\n\nResults:\n- Math wall/decode: **61.5 / 63.25 tok/s**\n"
        "- Chat wall/decode: **70.5 / 72.75 tok/s**\n- Code size: 12.5 GiB\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("prompt") for c in cf.claims}
    assert got == {61.5: "Math", 63.25: "Math", 70.5: "Chat", 72.75: "Chat", 12.5: None}

"""Kinds fixed in issue 29's session 67 (the forty-fifth held-out set's misses, read after a
forty-sixth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines, model_and_quant
from benchbook.audit.draftcontext import ANY_COMMAND, clause_engines
from benchbook.audit.post import aligned_rows
from benchbook.audit.toollines import tool_results
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _timing(what: str, ms: str, n: str, of: str, per: str, tps: str) -> str:
    """One llama_print_timings line as llama.cpp pads it."""
    return (
        f"llama_print_timings: {what:>16} time = {ms:>8} ms / {n:>5} {of:<6} "
        f"({per:>8} ms per token, {tps:>8} tokens per second)"
    )


LOAD = "llama_print_timings:        load time = 28606.21 ms"


def _paste(sample: tuple, prompt: tuple, gen: tuple) -> str:
    """One llama_print_timings paste: the load time, then the sampling, prompt eval and eval lines
    (each ``(ms, n, per, tps)``)."""
    lines = [LOAD]
    for what, of, (ms, n, per, tps) in (
        ("sample", "runs", sample),
        ("prompt eval", "tokens", prompt),
        ("eval", "runs", gen),
    ):
        lines.append(_timing(what, ms, n, of, per, tps))
    return "\n".join(lines) + "\n"


TIMINGS = _paste(
    ("15.31", "31", "0.49", "2024.56"),
    ("10514.60", "11", "955.87", "1.05"),
    ("49937.32", "30", "1664.58", "0.60"),
)
TIMINGS_2 = _paste(
    ("16.67", "36", "0.46", "2159.44"), ("0.00", "1", "0.00", "inf"), ("54622.37", "36", "1517.29", "0.66")
)


def _by_line(cf) -> dict[int, list]:
    out: dict[int, list] = {}
    for c in cf.claims:
        out.setdefault(c.source_line, []).append(c)
    return out


def test_pastes_of_one_evaluation_between_blank_lines_are_its_runs(tmp_path):
    """ "Here are 3 sample results:" then one llama_print_timings paste a run, each between blank
    lines (no fence): the k-th paste's results are run k; a line printed alike each time (the load
    time) is none; a llama.cpp rate printed "inf" keeps its line's shape."""
    cf = _drafted(f"Here are 2 sample results of the same evaluation:\n\n{TIMINGS}\n{TIMINGS_2}", tmp_path)
    lines = _by_line(cf)
    runs = {n: {_cond(cf, c).get("run_index") for c in cs} for n, cs in lines.items()}
    assert runs[4] == {1} and runs[5] == {1} and runs[6] == {1}
    assert runs[9] == {2} and runs[10] == {2} and runs[11] == {2}
    assert runs[3] == {None} and runs[8] == {None}  # the load time, printed alike each time
    # two pastes under labels of their own ("Q4:" / "Q8:") are two arms, no runs
    cf = _drafted(f"Q4:\n\n{TIMINGS}\nQ8:\n\n{TIMINGS_2}", tmp_path)
    assert all("run_index" not in _cond(cf, c) for c in cf.claims)
    # pastes with prose between them are not one run after another
    cf = _drafted(f"With FA:\n{TIMINGS}\nI then turned flash attention off and got\n{TIMINGS_2}", tmp_path)
    assert all("run_index" not in _cond(cf, c) for c in cf.claims)


def test_a_zero_time_of_a_timing_line_is_stated_its_inf_rate_is_not():
    got = [(r.metric, r.value) for r in tool_results([(1, TIMINGS_2.splitlines()[2])], True)]
    assert got == [("prompt_eval_ms", "0.00"), ("ms_per_token", "0.00")]
    got = [(r.metric, r.value) for r in tool_results([(1, TIMINGS.splitlines()[2])], True)]
    assert got == [("prompt_eval_ms", "10514.60"), ("ms_per_token", "955.87"), ("prefill_tps", "1.05")]


def test_a_model_named_by_its_size_alone_is_that_size(tmp_path):
    """ "benchmark for 70B model" and no family named anywhere: the model is "70B", as written."""
    cf = _drafted("# doc: add benchmark for 70B model on M2 Max 96GB\n\nI got 0.60 tokens/s.\n", tmp_path)
    assert [_cond(cf, c).get("model") for c in cf.claims] == ["70B"]
    cf = _drafted("Here are some benchmarks on a 13B GPTQ (128g) with a 6700 XT: 35 t/s.\n", tmp_path)
    assert [_cond(cf, c).get("model") for c in cf.claims] == ["13B"]
    # a family named with the size: its name, not the size alone
    cf = _drafted("I'm testing Llama 3.1 8B q4_k_m and get 30 tokens/s.\n", tmp_path)
    assert [_cond(cf, c).get("model") for c in cf.claims] == ["Llama 3.1 8B"]
    # two sizes, or a model of another size named: no guess for the post; each clause's own size
    # (session 70: ``clause_sizes``)
    cf = _drafted("The 7B model gives 30 t/s and the 13B model gives 20 t/s.\n", tmp_path)
    assert [_cond(cf, c).get("model") for c in cf.claims] == ["7B", "13B"]
    cf = _drafted("The 7B and the 13B models give 30 t/s and 20 t/s.\n", tmp_path)
    assert [_cond(cf, c).get("model") for c in cf.claims] == [None, None]
    cf = _drafted(
        "# 70B model is slow\n\n```\n$ llama-cli -m Qwen3-8B-Q4_K_M.gguf\n```\n\n12 t/s\n", tmp_path
    )
    assert {_cond(cf, c).get("model") for c in cf.claims} == {"Qwen3-8B"}


def test_a_hugging_face_cache_folder_and_a_packagers_suffix_leave_the_models_name():
    assert model_and_quant("~/.mtplx/models/Youssofal--Qwen3.6-27B-MTPLX-Optimized-Speed-fp16") == (
        "Qwen3.6-27B",
        "fp16",
    )
    assert model_and_quant("models--Qwen--Qwen3-8B") == ("Qwen3-8B", None)
    assert model_and_quant("Qwen3-8B-MLX-bf16") == ("Qwen3-8B", "bf16")
    # a packaging word at the end only, as before
    assert model_and_quant("Llama-3-8B-Instruct-MLX-4bit") == ("Llama-3-8B-Instruct", "4bit")
    assert model_and_quant("Qwen3-30B-A3B-UD-Q4_K_XL.gguf") == ("Qwen3-30B-A3B", "UD-Q4_K_XL")
    assert model_and_quant("gemma-3-12b-it-Q8_0.gguf") == ("gemma-3-12b-it", "Q8_0")


def test_mlx_lm_generate_is_a_command_that_decodes_plainly_unless_told():
    line = (
        'python3.11 -m mlx_lm generate --prompt "write a quicksort" --model org/Qwen3-8B-4bit '
        "--max-tokens 32768"
    )
    (c,) = command_lines([(1, line)], code=True)
    assert c.conditions == {
        "engine": "MLX",
        "model": "Qwen3-8B",
        "quant": "4bit",
        "prompt": "write a quicksort",
        "cap": 32768,
        "decoding": "plain",
    }
    # its -p is the prompt, not mlx_lm.benchmark's prompt length
    (c,) = command_lines([(1, "mlx_lm.generate --model m/Qwen3-8B-4bit -p hello")], code=True)
    assert c.conditions["prompt"] == "hello" and "other" not in c.conditions
    (c,) = command_lines([(1, "mlx_lm.benchmark --model m/Qwen3-8B-4bit -p 512 -g 128")], code=True)
    assert c.conditions.get("other", {}).get("prompt_tokens") == 512 and "decoding" not in c.conditions
    # a draft model: speculative; llama-cli told nothing: plain; a server: its client's results, no guess
    (c,) = command_lines(
        [(1, "mlx_lm.generate --model m/Qwen3-8B-4bit --draft-model m/Qwen3-0.6B-4bit")], code=True
    )
    assert c.conditions["decoding"] == "speculative"
    (c,) = command_lines([(1, "llama-cli -m Qwen3-8B-Q4_K_M.gguf -n 128")], code=True)
    assert c.conditions["decoding"] == "plain"
    (c,) = command_lines([(1, "llama-server -m Qwen3-8B-Q4_K_M.gguf")], code=True)
    assert "decoding" not in c.conditions


def test_a_tool_on_the_path_with_long_flags_is_a_command_line():
    assert ANY_COMMAND.match("mtplx tune --model Youssofal/Qwen3.6-27B-MTPLX-Optimized-Speed-fp16")
    assert ANY_COMMAND.match("python3.11 run.py --model x")
    assert ANY_COMMAND.match("It is fast --really") is None
    assert ANY_COMMAND.match("Results written to ...") is None


def test_an_unknown_tools_command_ends_the_known_ones_in_its_block(tmp_path):
    """A fence with "mlx_lm generate …", its output, then "mtplx tune …" and its output: the second
    output is not the first command's run."""
    text = (
        "```\n"
        'python3 -m mlx_lm generate --prompt "hi" --model m/Qwen3-8B-4bit --max-tokens 512\n'
        "Generation: 100 tokens, 20.371 tokens-per-sec\n"
        "\n"
        "mtplx tune --model m/Qwen3-8B-4bit\n"
        "speed: 21.4 tok/s\n"
        "```\n"
    )
    cf = _drafted(text, tmp_path)
    by = {c.source_line: _cond(cf, c) for c in cf.claims if c.metric == "decode_tps"}
    assert by[3].get("cap") == 512 and by[3].get("prompt") == "hi" and by[3].get("engine") == "MLX"
    assert "cap" not in by[6] and "prompt" not in by[6] and "engine" not in by[6]
    assert by[6].get("model") == "Qwen3-8B"  # its own --model's


def test_a_first_row_of_values_with_a_remark_after_another_row_is_a_headerless_table(tmp_path):
    rows = [
        (1, "AR     14.8 tok/s   1.00x"),
        (2, "D1     21.3 tok/s   1.44x"),
        (3, "D2     21.4 tok/s   1.45x  BEST"),
        (4, "D3     20.9 tok/s   1.41x"),
    ]
    assert aligned_rows(rows) == (
        [
            ["AR", "14.8 tok/s", "1.00x"],
            ["D1", "21.3 tok/s", "1.44x"],
            ["D2", "21.4 tok/s", "1.45x"],
            ["D3", "20.9 tok/s", "1.41x"],
        ],
        [1, 2, 3, 4],
    )
    # a header with an empty corner keeps it
    got = aligned_rows([(1, "        pp512   tg128"), (2, "7B      100     20"), (3, "13B     50      10")])
    assert got is not None and got[0][0] == ["", "pp512", "tg128"]
    # the multiples relate each row to the 1.00x row
    cf = _drafted("Results:\n\n```\n" + "\n".join(t for _, t in rows) + "\n```\n", tmp_path)
    values = {c.id: c.value for c in cf.claims}
    got = sorted((s.value, values[s.of[0]], values[s.of[1]]) for s in cf.statements)
    assert got == [(1.41, 20.9, 14.8), (1.44, 21.3, 14.8), (1.45, 21.4, 14.8)]
    # a column of device counts ("1x", "2x") relates nothing
    cf = _drafted("| GPUs | tok/s |\n|---|---|\n| 1x | 30 |\n| 2x | 55 |\n", tmp_path)
    assert cf.statements == []


def test_a_row_of_zero_draft_tokens_decodes_plainly(tmp_path):
    text = (
        "Qwen3-30B-A3B with EAGLE3:\n\n"
        "| batch_size | steps | topk | num_draft_tokens | throughput (tok/s) |\n"
        "|---|---|---|---|---|\n"
        "| 1 | 0 | 0 | 0 | 218.89 |\n"
        "| 1 | 3 | 1 | 4 | 170.35 |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: _cond(cf, c).get("decoding") for c in cf.claims}
    assert got[218.89] == "plain" and got[170.35] == "speculative"
    # a sampler's top-k column alone is no drafter's
    text = "With speculative decoding (a draft model):\n\n| top_k | tok/s |\n|---|---|\n"
    text += "| 0 | 30 |\n| 40 | 29 |\n"
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("decoding") for c in cf.claims] == ["speculative", "speculative"]


def test_an_engine_in_a_titles_contrasting_clause_is_that_clauses_only():
    title = "Inference on an AMD mid-range GPU achieves 1.5 tokens/s, while LM Studio can reach 65 tokens/s"
    assert clause_engines(title) == {"LM Studio"}
    assert clause_engines("Ollama 1.5 tokens/s vs LM Studio 65 tokens/s") == set()
    assert clause_engines("LM Studio reaches 65 tokens/s on a 7800XT") == set()


def test_an_engines_version_heading_of_an_issue_template_gives_the_build(tmp_path):
    text = (
        "# Inference on an AMD GPU achieves 1.5 tokens/s, while LM Studio can reach 65 tokens/s\n\n"
        "### What is the issue?\n\nSlow.\n\n### Ollama version\n\n0.4.7\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: (_cond(cf, c).get("engine"), _cond(cf, c).get("build")) for c in cf.claims}
    assert got[1.5] == ("Ollama", "0.4.7")
    assert got[65.0][0] == "LM Studio"


def test_a_bare_type_right_after_a_models_name_is_its_quant():
    from benchbook.audit.draftnames import mentions

    def quants(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "quant"]

    assert quants("I loaded a gemma 3 12b (q8) model on the gpu") == ["q8"]
    assert quants("Llama 3 8B Q4 runs at 30 t/s") == ["Q4"]
    # a quarter of a year, or a bare type no model's name precedes, is none
    assert quants("Released in Q4 2024, it runs at 30 t/s") == []
    assert quants("at q4 it is 30 t/s") == []


def test_tenstorrents_machines_and_stack_are_named():
    from benchbook.audit.draftnames import mentions

    def named(text: str, path: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == path]

    assert named("this model should run around 400 tokens / sec on QuietBox", "hardware") == [
        "Tenstorrent QuietBox"
    ]
    assert named("a TT-LoudBox and a Wormhole n300", "hardware") == [
        "Tenstorrent LoudBox",
        "Tenstorrent Wormhole n300",
    ]
    assert named("According to tt-metal benchmark, 400 tokens / sec", "engine") == ["tt-metal"]
    assert named("a wormhole in space", "hardware") == []


def test_an_about_word_between_a_number_and_its_unit():
    from benchbook.audit.draftprose import numbers

    got = [(n.text, n.unit, n.about) for n in numbers("双 2080ti 22G显卡下，6000左右的token会爆显存")]
    assert ("6000", "tokens", True) in got
    got = [(n.text, n.unit, n.about) for n in numbers("3000程度のトークンで")]
    assert ("3000", "tokens", True) in got
    # a number with its unit before the word stays as it was read
    assert [(n.text, n.unit, n.about) for n in numbers("3秒左右")] == [("3", "s", True)]


def test_a_margin_won_by_and_a_cost_to_you_are_changes(tmp_path):
    cf = _drafted("vLLM wins multi-user throughput by 320% on an RTX 4090.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("throughput_change", 320)]
    cf = _drafted("Ollama costs you 18–23% single-user speed versus llama.cpp.\n", tmp_path)
    assert [(c.metric, c.range) for c in cf.claims] == [("speed_change", (-23, -18))]
    # a share won ("wins 20% of the runs") is no change
    cf = _drafted("The draft model wins 20% of the races.\n", tmp_path)
    assert cf.claims and all("change" not in c.metric for c in cf.claims)


def test_a_bare_percentage_after_a_change_is_one_only_in_its_sentence(tmp_path):
    cf = _drafted("Ollama costs 18% speed. Ollama offloads 40% to system RAM.\n", tmp_path)
    assert sorted((c.metric, c.value) for c in cf.claims) == [("share", 40), ("speed_change", -18)]
    cf = _drafted("Qwen got 30% faster on code, but just 12% on chat.\n", tmp_path)
    assert sorted((c.metric, c.value) for c in cf.claims) == [("speed_change", 12), ("speed_change", 30)]


def test_a_winner_column_names_no_condition_of_its_row(tmp_path):
    text = (
        "| Context | oMLX TG | MTPLX TG | Winner |\n|---|---|---|---|\n"
        "| 1K | 45 | 28.9 | oMLX |\n| 8K | 28.2 | 34.3 | MTPLX |\n"
    )
    cf = _drafted(text, tmp_path)
    engines = {c.value: _cond(cf, c).get("engine") for c in cf.claims}
    assert engines == {45: "oMLX", 28.9: "MTPLX", 28.2: "oMLX", 34.3: "MTPLX"}


def test_a_flag_no_field_names_keeps_its_whole_number():
    (c,) = command_lines(
        [(1, "llama-server -m a-Q4_0.gguf -md b-Q8_0.gguf -ngld 99 --draft-min 4 --host 0.0.0.0")], code=True
    )
    assert c.conditions["other"] == {
        "draft_model": "b",
        "draft_quant": "Q8_0",
        "ngld": 99,
        "draft_min": 4,
        "host": "0.0.0.0",
    }
    # llama-cli's -n is still its cap, llama-bench's -n its tokens generated
    (c,) = command_lines([(1, "llama-cli -m a-Q4_0.gguf -n 200 --mirostat 2")], code=True)
    assert c.conditions["cap"] == 200 and c.conditions["other"] == {"mirostat": 2}


def test_pp_or_tg_alone_before_a_unitless_number_is_no_rate():
    assert [(r.metric, r.value) for r in tool_results([(1, "PP: 512")], True)] == []
    assert [(r.metric, r.value) for r in tool_results([(1, "TG: 128")], True)] == []
    assert [(r.metric, r.value, r.unit) for r in tool_results([(1, "PP t/s: 512")], True)] == [
        ("prefill_tps", "512", "t/s")
    ]
    assert [(r.metric, r.value, r.unit) for r in tool_results([(1, "PP: 512 t/s")], True)] == [
        ("prefill_tps", "512", "t/s")
    ]


def test_a_setting_set_in_inline_code_is_no_measurement(tmp_path):
    cf = _drafted("I also set `timeout: 30s` and ran it; the run took 45 s.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("duration", 45)]
    assert [u.number for u in cf.draft.unplaced] == ["30"]


def test_a_phase_label_and_its_verb_before_a_number(tmp_path):
    cf = _drafted("PP is 310 at 4k context, TG is 20 t/s.\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [
        ("prefill_tps", 310, "t/s"),
        ("decode_tps", 20, "t/s"),
    ]


def test_a_drafting_count_in_parentheses_after_a_number_is_that_numbers(tmp_path):
    text = (
        "With the draft model I got 45 tok/s (K=3) and 52 tok/s (K=8).\n\n"
        "Speed went from 40 tok/s (K=3) to 55 tok/s (K=8).\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: (_cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims}
    assert got[45] == ("speculative", 3) and got[52] == ("speculative", 8)
    assert got[40] == ("speculative", 3) and got[55] == ("speculative", 8)
    # a side with no setting of its own is where the change started: plain
    cf = _drafted("With a draft model, QAT+MTP hits 70 tok/s (from 41 tok/s).\n", tmp_path)
    assert {c.value: _cond(cf, c).get("decoding") for c in cf.claims}[41] == "plain"


def test_n_bit_and_nbit_are_one_quantisation(tmp_path):
    text = (
        "Models tested:\n"
        "- mlx-community/Qwen3.5-2B-4bit (2 billion parameters, 4-bit quantized)\n"
        "- mlx-community/Qwen3.5-4B-4bit (4 billion parameters, 4-bit quantized)\n\n"
        "| Model | tok/s |\n|---|---|\n| Qwen3.5-2B | 196 |\n| Qwen3.5-4B | 120 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("quant") for c in cf.claims] == ["4-bit", "4-bit"]  # (before: none)
    # two quantisations stay two: neither is given (before: the list's last item, "8-bit", was every
    # row's, as the table's caption and as the last named)
    text = text.replace(
        "- mlx-community/Qwen3.5-4B-4bit (4 billion parameters, 4-bit", "- Qwen3.5-4B-8bit (8-bit"
    )
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("quant") for c in cf.claims] == [None, None]


# --- the breaker's cases of this session's changes (each a regression test with its right value) ----


def test_list_items_differing_in_their_digits_are_no_runs(tmp_path):
    cf = _drafted(
        "llama.cpp on a 4090, Q4_K_M:\n\n- Llama-3-8B gives 95.2 t/s\n- Llama-3-70B gives 8.1 t/s\n", tmp_path
    )
    assert [(c.value, _cond(cf, c).get("run_index")) for c in cf.claims] == [(95.2, None), (8.1, None)]


def test_a_benchmark_client_after_a_server_keeps_the_servers_settings(tmp_path):
    text = (
        "vLLM 0.6.3 with EAGLE on H100:\n\n```\n"
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-model "
        "yuhuili/EAGLE-LLaMA3-Instruct-8B --num-speculative-tokens 5\n"
        "guidellm benchmark --target http://localhost:8000 --rate-type synchronous --max-requests 50\n"
        "Output token throughput: 142.5 tok/s\n```\n"
    )
    cf = _drafted(text, tmp_path)
    (c,) = cf.claims
    cond = _cond(cf, c)
    assert (cond["model"], cond["decoding"], cond["block_max"]) == ("Llama-3.1-8B-Instruct", "speculative", 5)


def test_a_hugging_face_snapshot_path_names_its_repository():
    path = "~/.cache/huggingface/hub/models--mlx-community--Qwen2.5-7B-Instruct-4bit/snapshots/8f6ac3e6a1b2"
    assert model_and_quant(path) == ("Qwen2.5-7B-Instruct", "4bit")


def test_a_size_model_is_not_an_engines_a_drafts_or_a_named_ones(tmp_path):
    def models(text: str) -> list[object]:
        cf = _drafted(text, tmp_path)
        return [_cond(cf, c).get("model") for c in cf.claims]

    assert models("Running llama.cpp with a 13B model on my 4090 I get 62 tokens/s.\n") == ["13B"]
    assert models("用 llama.cpp 跑 13B 模型，4090 上大概 60 tokens/s。\n") == ["13B"]
    assert models("Speculative decoding in llama.cpp (draft model: 1B) gives me 60 tokens/s.\n") == [None]
    assert models("Running Miqu 70B model Q4_K_M with llama.cpp, I get 14.2 tokens/s.\n") == [None]


def test_pp_and_tg_with_a_rates_value_are_rates_their_sizes_none(tmp_path):
    cf = _drafted("```\n$ ./bench.sh Qwen3-8B-Q4_K_M.gguf\nPP: 1534.21\nTG: 45.67\n```\n", tmp_path)
    got = [(c.metric, c.value, _cond(cf, c).get("model")) for c in cf.claims]
    assert got == [("prefill_tps", 1534.21, "Qwen3-8B"), ("decode_tps", 45.67, "Qwen3-8B")]
    cf = _drafted("Settings:\nPP: 512\nTG: 128\n\nI get 45 t/s generation.\n", tmp_path)
    assert [(c.metric, c.value) for c in cf.claims] == [("decode_tps", 45)]


def test_two_bare_types_name_no_models_quant(tmp_path):
    cf = _drafted("Mistral 7B q4 vs q8 on llama.cpp: 30 t/s vs 20 t/s on my 3060.\n", tmp_path)
    assert [_cond(cf, c).get("quant") for c in cf.claims] == [None, None]  # (before: "q4" on both)


def test_a_short_sentence_going_on_with_a_change_is_a_change(tmp_path):
    cf = _drafted("Flash attention gave me a 12% speedup with llama.cpp. On the M2 Max, only 7%.\n", tmp_path)
    assert [(c.metric.endswith("change"), c.value) for c in cf.claims] == [(True, 12), (True, 7)]


def test_tokens_a_second_about_a_number(tmp_path):
    cf = _drafted("4090 跑 Qwen2.5-14B，用 llama.cpp，速度大概每秒 30左右的token。\n", tmp_path)
    assert [(c.metric, c.value, c.unit, c.about) for c in cf.claims] == [("decode_tps", 30, "tok/s", True)]


def test_a_samplers_zero_top_k_beside_draft_tokens_drafts(tmp_path):
    text = (
        "SGLang, Llama-3.1-8B with EAGLE:\n\n| num_draft_tokens | topk | tok/s |\n|---|---|---|\n"
        "| 4 | 0 | 180.2 |\n| 4 | 40 | 150.9 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("decoding") for c in cf.claims] == ["speculative", "speculative"]


def test_a_margin_of_latency_won_is_a_drop_and_a_cost_of_a_share_is_a_share(tmp_path):
    cf = _drafted(
        "The draft model costs you 20% of your VRAM but vLLM wins single-user latency by 35%.\n", tmp_path
    )
    assert sorted((c.metric, c.value) for c in cf.claims) == [("latency_change", -35), ("share", 20)]


def test_remarks_on_several_rows_of_a_headerless_table(tmp_path):
    rows = "AR     14.8 tok/s   1.00x  baseline\nD1     21.3 tok/s   1.44x\n"
    rows += "D2     21.4 tok/s   1.45x  BEST\n"
    cf = _drafted("mtplx tune results:\n\n```\n" + rows + "```\n", tmp_path)
    assert sorted(s.value for s in cf.statements) == [1.44, 1.45]
    labels = {c.value: _cond(cf, c).get("other", {}).get("row") for c in cf.claims}
    assert labels == {14.8: "AR", 21.3: "D1", 21.4: "D2"}


def test_tenstorrent_galaxy():
    from benchbook.audit.draftnames import mentions

    assert [m.value for m in mentions("on a Tenstorrent Galaxy") if m.path == "hardware"] == [
        "Tenstorrent Galaxy"
    ]
    assert [m.value for m in mentions("on the Galaxy S24") if m.path == "hardware"] == ["Samsung Galaxy S24"]


def test_full_width_parentheses_after_a_number_hold_its_own_count(tmp_path):
    cf = _drafted("用草稿模型（llama.cpp 投机解码）测试：45 tok/s（K=3），52 tok/s（K=8）。\n", tmp_path)
    assert [(c.value, _cond(cf, c).get("block_max")) for c in cf.claims] == [(45, 3), (52, 8)]


def test_a_tools_separator_between_pastes_keeps_them_runs(tmp_path):
    run = "```\n==========\nPrompt: 9 tokens, {p} tokens-per-sec\n"
    run += "Generation: 256 tokens, {g} tokens-per-sec\n```\n"
    cf = _drafted(
        "Two runs (mlx_lm, M2 Max):\n\n"
        + run.format(p="85.112", g="61.204")
        + "\n"
        + run.format(p="88.340", g="60.877"),
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("run_index") for c in cf.claims if c.unit == "tok/s"}
    assert got == {85.112: 1, 61.204: 1, 88.34: 2, 60.877: 2}

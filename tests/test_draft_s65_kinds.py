"""Kinds fixed in issue 29's session 65 (the forty-third held-out set's misses, read after a
forty-fourth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines
from benchbook.audit.draftcontext import _label_line
from benchbook.audit.post import blocks_of
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _by_value(cf):
    return {float(c.value): (c, _cond(cf, c)) for c in cf.claims if c.value is not None}


def test_a_shell_prompt_of_any_host_or_folder_before_a_command_is_no_part_of_it():
    """A command typed at a prompt naming its host, folder or venv ("vulkan$ ", "user@box:~/llama.cpp$
    ", "(venv) $ ") is read as the bare command; prose that names a tool is no command."""
    for line in (
        "vulkan$ llama-cli -m qwen2.5-7b-q4_k_m.gguf -ub 2048 -b 2048",
        "user@box:~/llama.cpp$ ./build/bin/llama-cli -m qwen2.5-7b-q4_k_m.gguf -ub 2048 -b 2048",
        "(venv) $ llama-cli -m qwen2.5-7b-q4_k_m.gguf -ub 2048 -b 2048",
    ):
        (c,) = command_lines([(1, line)])
        assert c.conditions["batch"] == 2048 and c.conditions["ubatch"] == 2048, line
        assert c.conditions["model"] == "qwen2.5-7b", line
    assert command_lines([(1, "I ran llama-cli for reference, nothing else")]) == []


def test_ollama_run_names_its_model_tag_and_the_prompt_typed_after_it():
    """ "ollama run [flags] MODEL [PROMPT]" (Ollama's cmd/cmd.go): flags before or after the tag,
    ``--keepalive`` with its value; the prompt quoted or bare; none where only the tag is given."""
    (c,) = command_lines([(1, "vulkan$ ollama run --verbose gpt-oss:20b hi")])
    assert (c.conditions["engine"], c.conditions["prompt"]) == ("Ollama", "hi")
    (c,) = command_lines(
        [(1, 'ollama run --keepalive 5m qwen3.5:35b-a3b-q8_0 "why is the sky blue" --verbose')]
    )
    assert c.conditions["model"] == "qwen3.5:35b-a3b" and c.conditions["quant"] == "q8_0"
    assert c.conditions["prompt"] == "why is the sky blue"
    (c,) = command_lines([(1, "$ ollama run gemma2:27b")])
    assert "prompt" not in c.conditions and c.conditions["model"] == "gemma2:27b"
    assert command_lines([(1, "I used ollama run to test it")]) == []


def test_llama_cpp_hf_flag_names_the_model_unless_a_local_file_does():
    (c,) = command_lines([(1, "llama-cli -hf unsloth/Qwen3-30B-A3B-GGUF:Q4_K_M -p hi -n 64")])
    assert (c.conditions["model"], c.conditions["quant"]) == ("Qwen3-30B-A3B", "Q4_K_M")
    (c,) = command_lines([(1, "llama-server -m Llama-3.2-3B-Q8_0.gguf -hf ggml-org/gpt-oss-20b-GGUF")])
    assert c.conditions["model"] == "Llama-3.2-3B"


_PERF = (
    "llama_perf_context_print: prompt eval time = 55.87 ms / 70 tokens (0.80 ms per token, "
    "1252.82 tokens per second)"
)
_TWO_TOOLS = f"""# Ollama is slower than llama.cpp here

vulkan$ ollama run --verbose gpt-oss:20b hi
- 1st run:
prompt eval count:    60 token(s)
eval count:           30 token(s)
eval rate:            11.50 tokens/s
- 2nd run:
prompt eval count:    60 token(s)
eval count:           35 token(s)
eval rate:            9.25 tokens/s

Compared with llama.cpp:

```
vulkan$ llama-cli -hf ggml-org/gpt-oss-20b-GGUF -ub 2048 -b 2048 -p 'tell me a joke'
{_PERF}
```
"""


def test_each_tools_run_keeps_its_own_prompt_and_run_labels_index_the_runs(tmp_path):
    """Ollama's run takes the prompt typed after its tag, llama-cli's its ``-p``: neither spreads to
    the other's numbers; "- 1st run:" / "- 2nd run:" index the runs below them, and a field the
    second run prints with the first run's value ("prompt eval count: 60") is a claim of its own."""
    cf = _drafted(_TWO_TOOLS, tmp_path)
    by_line = {c.source_line: (c, _cond(cf, c)) for c in cf.claims if c.value is not None}
    assert by_line[7][1]["prompt"] == "hi" and by_line[7][1]["engine"] == "Ollama"
    assert by_line[7][1]["run_index"] == 1 and by_line[11][1]["run_index"] == 2
    assert float(by_line[9][0].value) == 60 and by_line[9][1]["run_index"] == 2
    llama = by_line[17][1]
    # (the model as the post's Ollama tag spells it, "gpt-oss-20B": one model written one way)
    assert (llama["engine"], llama["prompt"], llama["model"]) == (
        "llama.cpp",
        "tell me a joke",
        "gpt-oss-20B",
    )


def test_a_run_label_line_names_the_run_index_and_a_long_line_does_not():
    assert _label_line("- 1st run:") == [("run_index", 1)]
    assert _label_line("**Second run:**") == [("run_index", 2)]
    assert _label_line("Run #3:") == [("run_index", 3)]
    assert _label_line("the first run of the day, after a cold boot and more words:") == []


_SPANNED = """# Threads on a laptop

Model | Question | Threads | CPU | Time taken | Token/sec
-- | -- | -- | -- | -- | --
Mistral-7b.Q4_0.gguf | Write a haiku | 1 | 97% | 41.5 | 2.5
  |   | 4 | 350% | 12.25 | 8.5
Mistral-7b-instruct.Q4_0.gguf | Write a haiku | 1 | 98% | 1:05.50 | 1.75
  |   | 4 | 360% | 20.5 | 5.25
"""


def test_a_pipeless_tables_continuation_rows_take_the_model_and_prompt_above(tmp_path):
    """A table without outer pipes whose rows open with empty cells (a merged cell drawn as blanks):
    the cells are read in place (GFM shifts them left), the blank model and question repeat the row
    above; a "Question" column is the prompt; a "CPU" column of percentages is the processor's
    utilisation, no hardware; "Time taken" with no unit is seconds, "1:05.50" 65.50 s; two models of
    two rows stay two models ("Mistral-7b" is no short name of "Mistral-7b-instruct")."""
    got = _by_value(_drafted(_SPANNED, tmp_path))
    c, cond = got[8.5]
    assert (c.metric, cond["model"], cond["quant"], cond["prompt"]) == (
        "decode_tps",
        "Mistral-7b",
        "Q4_0",
        "Write a haiku",
    )
    assert got[2.5][1]["model"] == "Mistral-7b"
    assert got[5.25][1]["model"] == "Mistral-7b-instruct"
    assert (got[350.0][0].metric, got[350.0][0].unit) == ("cpu_utilization", "%")
    assert "hardware" not in got[350.0][1] or got[350.0][1]["hardware"] != "350%"
    assert (got[12.25][0].metric, got[12.25][0].unit) == ("duration", "s")
    assert (got[65.5][0].metric, got[65.5][0].unit) == ("duration", "s")
    assert 1.0 not in got  # "1:05.50" is no 1 s


def test_a_blank_label_cell_under_a_row_of_other_units_is_no_continuation():
    """ "| | Vulkan +5.3% |" under rows of rates is the change between them: its blank label is not
    the row above's (GFM rows as read, the continuation rule's control)."""
    table = (
        "| Backend | pp512 |\n| --- | ---: |\n| ROCm | 1900.72 t/s |\n| Vulkan | 2001.00 t/s |\n"
        "| | Vulkan +5.3% |\n"
    )
    (block,) = [b for b in blocks_of(table) if b.kind == "table"]
    assert block.rows[-1] == ["", "Vulkan +5.3%"]


def test_a_public_prompt_set_named_after_a_number_is_its_prompt_and_k_equals_is_the_block(tmp_path):
    """ "+12% (MT-Bench) to +16% (HumanEval)": each change ran its own prompt set; "(K=3)" after a
    time is the drafted block's size.  (Not yet: "3.15ms (K=3) and 4.33ms (K=8)" and "from 3.15ms
    (K=3) to 4.33ms (K=8)" read as one pair give both the first K.)"""
    post = "# Drafting\n\nOutput throughput rose +12% (MT-Bench) to +16% (HumanEval) with EAGLE-3 at C=1.\n"
    got = _by_value(_drafted(post, tmp_path))
    assert got[12.0][1]["prompt"] == "MT-Bench" and got[16.0][1]["prompt"] == "HumanEval"
    post = "# Drafting\n\nWith a draft model TPOT was 3.15ms (K=3), while it was 4.33ms (K=8).\n"
    got = _by_value(_drafted(post, tmp_path))
    assert got[3.15][1].get("block_max") == 3 and got[4.33][1].get("block_max") == 8


_SETUP = """# Five models on one mini PC

## The Setup

Hardware: AMD Ryzen AI Max+ 395
Inference: llama.cpp (b8123) with Vulkan GPU backend
Test task: Summarise a long report (7,000 tokens after prompt formatting)

| Model | Params | Prefill tok/s | Gen tok/s |
| --- | --- | --- | --- |
| Qwen3-30B-A3B-UD Q4_K_M | 30B | 779.5 | 66.5 |
| gpt-oss-20b Q8_0 | 20B | 1040.5 | 70.5 |
| Devstral-Small-2 Q4_K_M | 24B | 281.5 | 14.5 |
"""


def test_a_setup_lists_test_task_is_the_prompt_and_a_ud_name_ending_is_the_quants(tmp_path):
    """ "Test task: …" names the prompt as "Task: …" does; "Qwen3-30B-A3B-UD Q4_K_M" is Unsloth's
    dynamic quant UD-Q4_K_M of Qwen3-30B-A3B; a Params column beside names that state their sizes is
    no part of the one name that does not ("Devstral-Small-2", not "Devstral-Small-2-24B")."""
    got = _by_value(_drafted(_SETUP, tmp_path))
    assert got[66.5][1]["prompt"].startswith("Summarise a long report")
    assert (got[66.5][1]["model"], got[66.5][1]["quant"]) == ("Qwen3-30B-A3B", "UD-Q4_K_M")
    assert got[70.5][1]["quant"] == "Q8_0"
    assert got[14.5][1]["model"] == "Devstral-Small-2"


def test_a_size_column_still_names_the_size_of_unsized_family_names(tmp_path):
    """(The control: "| Llama | 7B |" is Llama-7B where no model name states a size.)"""
    post = "# Sizes\n\n| Model | Size | tok/s |\n| --- | --- | --- |\n"
    post += "| Llama | 7B | 30.5 |\n| Llama | 13B | 17.5 |\n"
    got = _by_value(_drafted(post, tmp_path))
    assert got[30.5][1]["model"] == "Llama-7B" and got[17.5][1]["model"] == "Llama-13B"


def test_a_latency_benchmarks_abbreviated_output_flag_is_the_tokens_each_run_generated():
    """SGLang's bench_latency takes ``--input 128 --output 8`` (argparse's prefixes of --input-len and
    --output-len) and decodes exactly 8 tokens a run: tokens_generated, no cap; a serving benchmark's
    --random-output-len stays a cap."""
    (c,) = command_lines(
        [
            (
                1,
                "python3 -m sglang.bench_latency --model meta-llama/Meta-Llama-3-8B --batch-size 1 "
                "--input 128 --output 8",
            )
        ]
    )
    assert (c.conditions["prompt"], c.conditions["tokens_generated"]) == ("128 tokens", 8)
    assert "cap" not in c.conditions
    (c,) = command_lines([(1, "vllm bench serve --model m --random-input-len 512 --random-output-len 128")])
    assert c.conditions["cap"] == 128 and "tokens_generated" not in c.conditions


_MODES = """# Slower on my GPU than on my CPU

Vulkan on the AMD RX 5500 XT is slower than the CPU:
```
                          CPU Mode          Vulkan (GPU) Mode

Total Execution Time       22.5s             59.5s
Model Load Time            3.25s             1.75s
Token Evaluation Count     50                28
```
My cpu details are:
```
model name	: Intel(R) Core(TM) i5-4690K CPU @ 3.50GHz
```
"""


def test_an_aligned_header_over_a_blank_line_heads_its_rows_and_a_cpu_mode_ran_on_the_cpu(tmp_path):
    """The header line set off by a blank line still heads the aligned rows below it; its rows name
    their metrics ("Model Load Time" a load time, "Token Evaluation Count" tokens, not seconds); the
    "CPU Mode" column is the CPU backend on the post's one CPU, the other column the GPU's."""
    got = _by_value(_drafted(_MODES, tmp_path))
    assert (got[3.25][0].metric, got[3.25][0].unit) == ("load_time", "s")
    assert (got[22.5][0].metric, got[22.5][0].unit) == ("duration", "s")
    assert got[50.0][0].unit == "tokens" and got[28.0][0].unit == "tokens"
    assert (got[22.5][1]["backend"], got[22.5][1]["hardware"]) == ("CPU", "Intel Core i5-4690K")
    assert got[59.5][1]["backend"] == "Vulkan" and got[59.5][1]["hardware"] == "AMD Radeon RX 5500 XT"


def test_phones_laptops_by_screen_size_and_aws_accelerators_are_machines():
    from benchbook.audit.draftnames import mentions

    def machines(text):
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("prefill is slow on xiaomi 14") == ["Xiaomi 14"]
    assert machines("a Google Pixel 8a and a OnePlus 12") == ["Google Pixel 8a", "OnePlus 12"]
    assert machines("macbook pro 14      133") == ["Apple MacBook Pro 14"]
    assert machines("gpt-oss-20b on AWS Trainium (TP=4)") == ["AWS Trainium"]
    assert machines("MacBook Pro M3 Max") == ["Apple M3 Max (MacBook Pro)"]  # its chip, as before
    assert machines("a 14 inch screen and 8 cores") == []


_LEAD = """# Parallel drafting

**Output throughput** improvement at comparable acceptance rates:
- **C=1**: +12% (MT-Bench) to +16% (HumanEval)

**TPOT** stays at ~2.7-2.9ms regardless of K, while it increases for the other arm from 3.25ms (K=3).
"""


def test_a_lists_lead_in_names_what_changed_and_a_sentences_first_time_names_its_later_ones(tmp_path):
    """A change with no metric in its own words takes the list's lead-in's ("Output throughput
    improvement:" over "+12% (MT-Bench)": throughput_change); a time in a sentence that first named
    TPOT is a TPOT too ("… while it increases … from 3.25ms (K=3)")."""
    got = _by_value(_drafted(_LEAD, tmp_path))
    assert got[12.0][0].metric == "throughput_change" and got[16.0][0].metric == "throughput_change"
    assert got[3.25][0].metric == "tpot"


def test_vanilla_before_a_drafting_method_names_no_plain_decoding():
    from benchbook.audit.draftnames import DECODING_PHRASE

    assert DECODING_PHRASE.search("compared with vanilla EAGLE3") is None or (
        DECODING_PHRASE.search("compared with vanilla EAGLE3").group("plain") is None
    )
    m = DECODING_PHRASE.search("2.1x over vanilla decoding")
    assert m is not None and m.group("plain") is not None


def test_each_engines_build_said_in_a_clause_goes_to_its_rows_only(tmp_path):
    """ "llama.cpp is build b4200, vLLM is 0.6.3": each engine's rows their own build; an engine
    named with no build gets none; "vLLM is 2.5x faster" names no version."""
    from benchbook.audit.draftwords import engine_versions

    assert engine_versions("llama.cpp is build b4200, vLLM is 0.6.3.") == {
        "llama.cpp": "b4200",
        "vLLM": "0.6.3",
    }
    assert engine_versions("vLLM is 2.5x faster and vLLM is 0.5 ms slower") == {}
    post = "# Engines\n\nllama.cpp is build b4200, vLLM is 0.6.3.\n\n| Engine | tok/s |\n| --- | --- |\n"
    post += "| llama.cpp | 120.5 |\n| vLLM | 140.5 |\n| Ollama | 110.5 |\n"
    got = _by_value(_drafted(post, tmp_path))
    assert got[120.5][1]["build"] == "b4200" and got[140.5][1]["build"] == "0.6.3"
    assert "build" not in got[110.5][1]


def test_a_model_name_ending_a_sentence_and_an_old_cards_glued_ti():
    from benchbook.audit.draftnames import mentions

    assert [m.value for m in mentions("I tested Qwen2.5-14B-Instruct. It was fast") if m.path == "model"] == [
        "Qwen2.5-14B-Instruct"
    ]
    assert [m.value for m in mentions("on my old 1080ti it ran") if m.path == "hardware"] == [
        "NVIDIA GeForce GTX 1080 Ti"
    ]
    assert [m.value for m in mentions("the old 2048 tokens") if m.path == "hardware"] == []


# The breaker's cases against session 65's rules (each a false positive it found, now a control)


def test_cpu_mode_in_a_sentence_names_no_run(tmp_path):
    """ "CPU Mode" labels a column or row; "I don't care about CPU mode" in prose names no run: the
    GPU run keeps its GPU."""
    post = "# t\n\nMy box: i5-12400 + RTX 3060. I don't care about CPU mode at all.\n\n"
    post += "Llama 3 8B Q4_K_M: 55 tok/s\n"
    (c, cond) = _by_value(_drafted(post, tmp_path))[55.0]
    assert cond.get("backend") != "CPU" and cond["hardware"] == "NVIDIA GeForce RTX 3060"


def test_ollama_run_in_prose_a_redirect_and_keepalive_values():
    assert command_lines([(1, "ollama run llama3.1 and it gives me about 30 tok/s on my 4060.")]) == []
    (c,) = command_lines([(1, "$ ollama run gemma3:27b-it-qat --verbose < prompt.txt")])
    assert "prompt" not in c.conditions
    (c,) = command_lines(
        [(1, "$ ollama run deepseek-r1:32b --verbose --keepalive 10m --format json Summarize this")]
    )
    assert c.conditions["other"]["keepalive"] == "10m" and c.conditions["other"]["format"] == "json"
    assert c.conditions["prompt"] == "Summarize this"
    (c,) = command_lines([(1, "ollama run gemma2:27b why is the sky blue")], code=True)
    assert c.conditions["prompt"] == "why is the sky blue"  # typed in a code block


def test_a_windows_prompt_and_paths_keep_the_model_name():
    (c,) = command_lines(
        [(1, r"C:\Users\me\llama>llama-cli.exe -m C:\models\Qwen2.5-7B-Instruct-Q4_K_M.gguf -ngl 99")]
    )
    assert (c.conditions["model"], c.conditions["quant"]) == ("Qwen2.5-7B-Instruct", "Q4_K_M")
    (c,) = command_lines(
        [(1, r"PS C:\llama> .\llama-cli.exe -m .\models\Qwen2.5-14B-Instruct-Q4_K_M.gguf -ngl 99")]
    )
    assert c.conditions["model"] == "Qwen2.5-14B-Instruct"


def test_a_run_label_with_a_qualifier_and_a_quoted_main_line(tmp_path):
    assert _label_line("Run 2 (after reboot):") == [("run_index", 2)]
    assert _label_line("Run 3 with flash attention:") == [("run_index", 3)]
    post = "# t\n\nQuoting the OP:\n\n> main thing -- it ran at 12 tok/s on llama 3 8B\n\n"
    post += "> server -- 30 tok/s with Mistral 7B for me\n"
    assert set(_by_value(_drafted(post, tmp_path))) == {12.0, 30.0}  # a quote, no llama.cpp command


def test_hours_minutes_seconds_cells_and_numbered_questions(tmp_path):
    post = "# t\n\n| Prompt | Time taken | tok/s |\n|---|---|---|\n"
    post += "| short | 1:30:00 | 50.5 |\n| long | 12:05.3 | 40.5 |\n"
    got = _by_value(_drafted(post, tmp_path))
    assert got[5400.0][0].metric == "duration" and got[725.3][0].metric == "duration"
    assert 1.0 not in got and 12.0 not in got
    post = "# t\n\n| Model | Question | Time taken |\n|---|---|---|\n"
    post += "| Llama-3-8B | 1 | 12.5 |\n| Llama-3-8B | 2 | 13.5 |\n"
    assert "prompt" not in _by_value(_drafted(post, tmp_path))[12.5][1]


def test_a_phone_chips_generation_is_no_token_count_and_training_data_no_prompt(tmp_path):
    post = "# t\n\nXiaomi 14 (Snapdragon 8 Gen 3), Llama 3.2 3B Q4_0 in llama.cpp: 22.5 tok/s generation.\n"
    (c, cond) = _by_value(_drafted(post, tmp_path))[22.5]
    assert "tokens_generated" not in cond
    post = (
        "# t\n\nThe draft head was trained on ShareGPT for 2 epochs; it gives a 2.5x speedup on Llama 3 8B.\n"
    )
    assert all("prompt" not in cond for _, cond in _by_value(_drafted(post, tmp_path)).values())


_INSTANCE = """# Two A800s

显卡：NVIDIA A800 80GB PCIe, 2

Chat: who are you?
eval rate:            5.25 tokens/s

内存使用率
50.25%
"""


def test_a_setups_gpu_count_a_chat_turn_and_a_memory_use_rate(tmp_path):
    """ "显卡：NVIDIA A800 80GB PCIe, 2" counts two cards; KTransformers' "Chat: who are you?" is the
    prompt typed; "内存使用率 50.25%" is the memory's use, no bare share."""
    got = _by_value(_drafted(_INSTANCE, tmp_path))
    assert got[5.25][1]["hardware"] == "2x NVIDIA A800 80GB PCIe"
    assert got[5.25][1]["prompt"] == "who are you?"
    assert got[50.25][0].metric == "memory_utilization"
    # controls: a count's label is no count of a GPU named elsewhere only when it is one machine
    post = "# t\n\nGPU: RTX 4090, 24GB\n\nIt ran 100.5 tok/s.\n\nChat: it was fine.\n"
    got = _by_value(_drafted(post, tmp_path))
    assert got[100.5][1]["hardware"] == "NVIDIA GeForce RTX 4090" and "prompt" not in got[100.5][1]


def test_drafting_named_only_as_a_plan_leaves_the_runs_plain():
    from benchbook.audit.draftcontext import names_drafting

    assert not names_drafting(
        "Any pointers?\n\nAlso, I am trying to implement speculative sampling through candle."
    )
    assert names_drafting("With speculative decoding it ran at 45 t/s.")
    assert names_drafting("We plan to add MTP.\n\nThe draft model gave 45 t/s.")


def test_a_side_without_the_drafting_named_before_it_is_plain(tmp_path):
    """ "With the 0.5B draft model I get 19.5 tok/s, versus 11.7 tok/s without it": the second side
    runs without the draft model (plain, no draft model, no draft size), the first with it."""
    post = (
        "# t\n\n```\n./llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -md qwen2.5-0.5b-instruct-q8_0.gguf "
        "--draft-max 8\n```\n\n"
        "With the 0.5B draft model I get around 19.5 tok/s, versus 11.7 tok/s without it.\n"
    )
    got = _by_value(_drafted(post, tmp_path))
    assert got[19.5][1]["decoding"] == "speculative" and got[19.5][1]["block_max"] == 8
    plain = got[11.7][1]
    assert plain["decoding"] == "plain" and "block_max" not in plain
    assert "draft_model" not in plain.get("other", {})


def test_a_windows_command_with_an_unclosed_quote_is_read_not_raised():
    """An unclosed quote on a cmd.exe line is split on spaces, as any command's is (the path's
    backslashes read once, in the same split)."""
    (c,) = command_lines([(1, r'C:\x>llama-cli.exe -m C:\models\Qwen2.5-7B-Instruct-Q4_K_M.gguf -p "hello')])
    assert c.conditions["model"] == "Qwen2.5-7B-Instruct"

"""Kinds fixed in issue 29's session 64 (the forty-second held-out set's misses, read after a
forty-third set replaced it as the clean one), each with controls."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def _by_value(cf):
    return {float(c.value): (c, _cond(cf, c)) for c in cf.claims if c.value is not None}


_APP_JSON = """# Benchmark of a local app

```json
{
  "promptTokens" : 2048,
  "completionTokens" : 400,
  "generationTPS" : 55.25,
  "promptTPS" : 3100.5,
  "ttftMs" : 640.75,
  "memoryUsedGB" : 12.5,
  "modelLoadTimeS" : 2,
  "ramGB" : 64,
  "runs" : 3
}
```
"""


def test_a_camel_case_json_key_names_its_unit_and_metric(tmp_path):
    """An app's JSON writes its keys in camelCase with a space before the colon ("generationTPS" :
    55.25): the key's words give the unit and metric as a snake_case key's do; the machine's "ramGB"
    (no measured size) and "runs" (a count of runs, no unit) are no claims."""
    got = {v: (c.metric, c.unit) for v, (c, _) in _by_value(_drafted(_APP_JSON, tmp_path)).items()}
    assert got[55.25] == ("decode_tps", "tok/s")
    assert got[3100.5] == ("prefill_tps", "tok/s")
    assert got[640.75] == ("ttft", "ms")
    assert got[12.5] == ("memory_used", "GB")
    assert got[2.0] == ("load_time", "s")
    assert got[2048.0] == ("tokens", "tokens") and got[400.0] == ("tokens", "tokens")
    assert 64.0 not in got and 3.0 not in got


def test_a_usage_objects_token_counts_are_claims_but_a_labels_last_word_is_not_a_key(tmp_path):
    """An OpenAI-style usage object ("prompt_tokens": 31) counts tokens; a tool's line "Prompt tokens:
    7530 in 6.51s (1156.15 tokens/s)" keeps its time and rate (its label's last word "tokens" is no
    key of its own)."""
    usage = '```\n{"usage": {"prompt_tokens": 31, "completion_tokens": 250}}\n```\n'
    got = _by_value(_drafted(usage, tmp_path))
    assert {v: c.unit for v, (c, _) in got.items()} == {31.0: "tokens", 250.0: "tokens"}
    line = "```\n--- Performance Metrics ---\nPrompt tokens: 7530 in 6.51s (1156.15 tokens/s)\n```\n"
    got = _by_value(_drafted(line, tmp_path))
    assert got[6.51][0].unit == "s" and got[1156.15][0].metric == "prefill_tps"


_RUNNERS = """# Adding a new backend

Model | Precision | Backend | Prompt processing (2048 tokens, t/s) | Generation (256 tokens, t/s)
-- | -- | -- | -- | --
TheBloke/Mistral-7B-AWQ | 4-bit | TRT-LLM + ModelRunnerCpp | 7001.5 | 121.5
TheBloke/Mistral-7B-AWQ | 4-bit | ExLlamaV2 | 5002.5 | 111.5
Mistral-7B-v0.1 | 16-bit | ExLlamaV2 | 4003.5 | 51.5
"""


def test_a_backend_column_of_engines_names_each_rows_engine_and_precision_is_the_quant(tmp_path):
    """ "| Backend |" over engines ("TRT-LLM + ModelRunnerCpp", "ExLlamaV2"; no CUDA or Vulkan) names
    each row's engine; "| Precision |" over bits is the quant, with the method the model's name
    carries ("-AWQ" at "4-bit": "AWQ 4-bit"); a generation header's "(256 tokens, t/s)" is the
    tokens each run generated."""
    got = _by_value(_drafted(_RUNNERS, tmp_path))
    assert (got[7001.5][1]["engine"], got[5002.5][1]["engine"]) == ("TensorRT-LLM", "ExLlamaV2")
    assert got[5002.5][1]["quant"] == "AWQ 4-bit" and got[4003.5][1]["quant"] == "16-bit"
    assert got[121.5][1]["tokens_generated"] == 256 and got[51.5][1]["tokens_generated"] == 256
    assert "tokens_generated" not in got[7001.5][1]


def test_a_cuda_backend_column_stays_the_backend_and_a_named_type_beats_its_bits(tmp_path):
    """Controls: "| Backend |" over "CUDA" and "Vulkan" is the backend; a row whose model cell names
    its type ("Ollama q4_0") keeps it over a "| Precision |" cell of bits ("4-bit"), and a quant
    column's bits ("8bit") over bits in the model's name ("-bnb-4bit")."""
    backends = "| Model | Backend | tg128 t/s |\n|---|---|---|\n| Qwen3-8B Q4_0 | CUDA | 90.5 |\n" + (
        "| Qwen3-8B Q4_0 | Vulkan | 80.5 |\n"
    )
    got = _by_value(_drafted(backends, tmp_path))
    assert (got[90.5][1]["backend"], got[80.5][1]["backend"]) == ("CUDA", "Vulkan")
    assert got[90.5][1].get("engine") != "CUDA"
    typed = (
        "| Model | Precision | tok/s |\n|---|---|---|\n| Ollama q4_0 | 4-bit | 18.5 |\n"
        "| Ollama q8_0 | 8-bit | 12.5 |\n"
    )
    got = _by_value(_drafted(typed, tmp_path))
    assert (got[18.5][1]["quant"], got[12.5][1]["quant"]) == ("q4_0", "q8_0")
    bits = "| Model | Quantization | tok/s |\n|---|---|---|\n| Llama-3.2-3B-bnb-4bit | 8bit | 3.5 |\n"
    assert _by_value(_drafted(bits, tmp_path))[3.5][1]["quant"] == "8bit"


_TWO_RUNS = """# Slower fp16 decoding than llama.cpp on my board

torchchat
command:
```
python3 torchchat.py generate llama3 --device mps --max-new-tokens 50
```
result (decode 11.5 tokens/second):
```
Time for inference 1: 4.35 sec total, 50 tokens, 11.49 tokens/sec
```
llamacpp
command
```
./build/bin/llama-mtmd-cli -m Qwen2.5-VL-3B-Instruct-f16.gguf --mmproj mm-f16.gguf --image a.jpg -p "Hi."
```
result (21.5 tokens/second)
"""


def test_an_engines_name_alone_on_a_line_labels_the_runs_below_it(tmp_path):
    """ "torchchat" alone on a line, then its command and output, then "llamacpp" alone over the
    next run: each number is its label's engine's (torchchat a runtime of its own), the output block
    too, not the title's llama.cpp; the title's "fp16 decoding" is the weights' type."""
    got = _by_value(_drafted(_TWO_RUNS, tmp_path))
    for v in (11.5, 4.35, 11.49):
        assert got[v][1]["engine"] == "torchchat"
    assert got[21.5][1]["engine"] == "llama.cpp"
    assert got[11.5][1]["quant"] == "fp16"


def test_llama_mtmd_cli_is_a_llama_cpp_command_whose_model_file_names_model_and_quant(tmp_path):
    """llama.cpp's multimodal tool (``llama-mtmd-cli``) is read as its other tools are: "-m
    Qwen2.5-VL-3B-Instruct-f16.gguf" gives the model and its quant."""
    c = _by_value(_drafted(_TWO_RUNS, tmp_path))[21.5][1]
    assert (c["model"], c["quant"]) == ("Qwen2.5-VL-3B-Instruct", "f16")


def test_a_float_type_is_the_weights_only_where_the_words_say_so(tmp_path):
    """ "BF16 safetensors", "GGML FP16" name the weights' type; "FP16 KV cache" (a cache's type) and
    a lone "fp16" in a sentence do not."""
    from benchbook.audit.draftnames import mentions

    def quants(text):
        return [m.value for m in mentions(text) if m.path == "quant"]

    assert quants("Qwen3-4B, BF16 safetensors (7.6 GB)") == ["BF16"]
    assert quants("GGML FP16 on an M1") == ["FP16"]
    assert quants("with an FP16 KV cache") == []
    assert quants("we compute in fp16 and accumulate in fp32") == []


def test_a_mac_by_its_chip_and_a_ten_or_sixteen_series_card_by_its_number(tmp_path):
    """ "on mac m1" is the Apple M1 (no machine's name in parentheses for plain "Mac"); "my 1080ti"
    and "a 1660 Super" are GTX cards (NVIDIA sold no RTX of those numbers), "my 3090" an RTX."""
    from benchbook.audit.draftnames import mentions

    def machine(text):
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machine("tokens/second with llama-cpp on mac m1") == ["Apple M1"]
    assert machine("on my Mac M1 Max") == ["Apple M1 Max"]
    assert machine("a Mac mini M4") == ["Apple M4 (Mac mini)"]
    assert machine("I was getting 8-9 t/s with my 1080ti") == ["NVIDIA GeForce GTX 1080 Ti"]
    assert machine("on a 1660 super") == ["NVIDIA GeForce GTX 1660 Super"]
    assert machine("on my 3090") == ["NVIDIA GeForce RTX 3090"]


def test_a_torchchat_command_names_its_engine_model_and_cap(tmp_path):
    """``python torchchat.py generate llama3 --max-new-tokens 50``: torchchat's run of the model its
    positional argument names, each request capped at 50 tokens."""
    c = _by_value(_drafted(_TWO_RUNS.replace("--device mps ", ""), tmp_path))[11.49][1]
    assert (c["engine"], c["model"], c["cap"]) == ("torchchat", "llama3", 50)


_PRE_POST = """# Route to a faster kernel

Generating 1k tokens with Mistral 7B (fp16 and 4bit)

# Pre

Dtype | Prompt | Generation | Memory (GB)
--- | --- | --- | ---
fp16 | 494.5 | 26.5 | 13.5
q4 | 428.5 | 69.5 | 4.5

# Post

MLX version: `0.6.0.dev20240313+5632c61b`

Dtype | Prompt | Generation | Memory (GB)
--- | --- | --- | ---
fp16 | 495.5 | 28.5 | 13.25
q4 | 430.5 | 72.5 | 4.25
"""


def test_a_prompt_column_of_decimals_beside_generation_is_the_prompts_rate(tmp_path):
    """ "| Dtype | Prompt | Generation |" over "494.5 | 26.5": the prompt's column is a rate like the
    generation's (a decimal number is no prompt's name), in the same unit; "Generating 1k tokens"
    is the tokens each run generated; "MLX version: `0.6.0.dev…+…`" above the second table is its
    build (a development build's PEP 440 suffix kept)."""
    got = _by_value(_drafted(_PRE_POST, tmp_path))
    assert (got[494.5][0].metric, got[494.5][0].unit) == ("prefill_tps", "t/s")
    assert got[26.5][0].metric == "decode_tps" and "prompt" not in got[26.5][1]
    assert got[26.5][1]["tokens_generated"] == 1000
    assert got[495.5][1]["build"] == "0.6.0.dev20240313+5632c61b"


def test_a_prompt_column_of_names_stays_each_rows_prompt(tmp_path):
    """Control: "| Prompt | Generation (t/s) |" over "short", "long" names each row's prompt."""
    table = "| Prompt | Generation (t/s) |\n|---|---|\n| short | 40.5 |\n| long | 35.5 |\n"
    got = _by_value(_drafted(table, tmp_path))
    assert (got[40.5][1]["prompt"], got[35.5][1]["prompt"]) == ("short", "long")


def test_a_rate_qualified_by_out_and_a_number_label_closing_a_release(tmp_path):
    """ "(1794 vs 1692 out tok/s)": "out" between a number and its unit qualifies the rate as
    "output" does; "73:" over runs, in a post naming "0.1.73" and "0.1.74", labels the runs of
    0.1.73 (a number naming no release of the post labels nothing)."""
    from benchbook.audit.draftprose import numbers

    assert [(n.text, n.unit) for n in numbers("ahead at saturation (1794 vs 1692 out tok/s)")] == [
        ("1794", "tok/s"),
        ("1692", "tok/s"),
    ]
    post = (
        "# Bump llama-cpp-python to 0.1.74\n\nFaster than 0.1.73 on my card.\n\n73:\n\n"
        "Output generated in 42.23 seconds (0.95 tokens/s, 40 tokens, context 7, seed 1)\n\n74:\n\n"
        "Output generated in 37.97 seconds (1.05 tokens/s, 40 tokens, context 7, seed 2)\n\n12:\n\n"
        "Output generated in 30.5 seconds (1.25 tokens/s, 40 tokens, context 7, seed 3)\n"
    )
    got = _by_value(_drafted(post, tmp_path))
    assert got[0.95][1]["build"] == "0.1.73" and got[42.23][1]["build"] == "0.1.73"
    assert got[1.05][1]["build"] == "0.1.74"
    assert got[1.25][1].get("build") != "0.1.73"


def test_an_exl2_quant_keeps_its_bits_as_gptq_and_awq_do():
    """ "Llama 3 70B EXL2 4-bit model" is quant "EXL2 4-bit", as "GPTQ 4-bit" is written."""
    from benchbook.audit.draftnames import mentions

    said = [(m.path, m.value) for m in mentions("Running a Llama 3 70B EXL2 4-bit model on dual RTX 5090s")]
    assert ("quant", "EXL2 4-bit") in said and ("quant", "EXL2") not in said
    assert ("quant", "GPTQ 4-bit") in [(m.path, m.value) for m in mentions("Llama 3 70B GPTQ 4-bit")]
    # a model by its size alone, its method with its bits ("a 70B AWQ 4-bit model"), or without
    assert [(m.path, m.value) for m in mentions("a 70B AWQ 4-bit model")] == [
        ("model", "70B"),
        ("quant", "AWQ 4-bit"),
    ]
    assert [(m.path, m.value) for m in mentions("a 13B GPTQ (128g)")] == [("model", "13B"), ("quant", "GPTQ")]


def test_a_command_of_an_unknown_tool_names_its_model_by_a_folder_flag(tmp_path):
    """``./build/llm_inference --engineDir engines/qwen2.5-vl-3b``: a tool read nowhere else names
    its model by the folder of its engine; a flag naming no model ("--inputFile in.json") and a
    line that is no command name none."""
    post = (
        "# Decode speed on my board\n\nTensorRT-Edge-LLM\n\n```\n./build/examples/llm/llm_inference "
        "--engineDir engines/qwen2.5-vl-3b --inputFile input.json --dumpProfile\n```\n\n"
        "result (decode 32.5 tokens/second)\n"
    )
    c = _by_value(_drafted(post, tmp_path))[32.5][1]
    assert (c["engine"], c["model"]) == ("TensorRT-Edge-LLM", "qwen2.5-vl-3b")
    from benchbook.audit.draftcontext import _flag_models

    assert _flag_models([(1, "./run --inputFile data/qwen3-8b.json --steps 3")]) == []
    assert _flag_models([(1, "see --model-dir qwen3-8b for details")]) == []
    assert _flag_models([(1, "python run.py --model_dir ./ckpt/Llama-2-7b-hf")]) == [("model", "Llama-2-7b")]


def test_a_statement_over_drafted_sides_says_its_comparability_rests_on_the_draft(tmp_path):
    """A statement relating claims whose conditions the drafter guessed says so in its notes (a
    misread condition would hide "not comparable"), naming the unreviewed sides; once the sides
    are reviewed the note goes; never a lower verdict by itself."""
    from benchbook.audit import run
    from benchbook.audit.draftfile import draft_post
    from benchbook.audit.verdicts import Here

    post = tmp_path / "post.md"
    post.write_text(
        "# vLLM vs llama.cpp on my 4090\n\nOn an RTX 4090 with Qwen3-8B, vLLM reaches 120 tok/s decode "
        "while llama.cpp reaches 60 tok/s, so vLLM is 2x faster.\n",
        encoding="utf-8",
    )
    out, _, _ = draft_post(post)
    (s,) = [v for v in run.audit_file(out, None, here=Here()).verdicts if v.kind == "statement"]
    note = "sides' conditions drafted, not reviewed (decode-tps-l3, decode-tps-l3-2): "
    assert s.consistency == "consistent"
    assert note + "whether they are comparable rests on the draft" in s.notes
    out.write_text(
        out.read_text(encoding="utf-8").replace("reviewed: false", "reviewed: true"), encoding="utf-8"
    )
    (s,) = [v for v in run.audit_file(out, None, here=Here()).verdicts if v.kind == "statement"]
    assert not [n for n in s.notes if n.startswith("sides' conditions drafted")]


def test_a_second_arrow_pair_of_the_sentence_takes_the_first_pairs_unit():
    """ "(23.5 -> 18.5 t/s across the sweep, versus 23.2 -> 20.4)": the second change, its unit left
    out, is in the first's unit, as a second "A vs B" pair is; a pair of another sentence is not."""
    from benchbook.audit.draftprose import numbers

    def units(text):
        return [(n.text, n.unit) for n in numbers(text)]

    assert units("(23.5 -> 18.5 t/s across the sweep, versus 23.2 -> 20.4)") == [
        ("23.5", "t/s"),
        ("18.5", "t/s"),
        ("23.2", "t/s"),
        ("20.4", "t/s"),
    ]
    assert units("from 40 → 84 tok/s. Then 3 -> 5 runs")[2:] == [("3", None), ("5", None)]


# the breaker's cases against this session's kinds (each a wrong draft before its fix)


def test_an_out_rate_sets_no_cap_and_a_card_number_before_a_unit_is_no_card(tmp_path):
    """ "150 out tok/s" is an output rate, not "150 out" (an output length: a cap); "a 1660 ms TTFT"
    and "a 1080 token prompt" are numbers of their units, no GTX card."""
    post = (
        "# vLLM 0.6.3 on an H100 with Llama-3.1-8B-Instruct\n\nSingle stream it sits at 150 out tok/s.\n\n"
        "RTX 4090: a 1660 ms TTFT with the 32k prompt.\n"
    )
    got = _by_value(_drafted(post, tmp_path))
    assert got[150.0][0].unit == "tok/s" and "cap" not in got[150.0][1]
    assert got[1660.0][1]["hardware"] == "NVIDIA GeForce RTX 4090"
    from benchbook.audit.draftnames import mentions

    assert [m.value for m in mentions("with a 1080 token prompt") if m.path == "hardware"] == []


def test_json_keys_of_requests_capacities_binary_sizes_percentiles_and_token_parts(tmp_path):
    """ "requestsPerSecond" is requests a second; "memoryTotalGB"/"vramTotalGB" a card's capacity
    (no claim); "memoryUsedMiB", "peakVramGiB" keep their binary units; "latencyP99Ms" its p99; a
    usage object's "cached_tokens" and "reasoning_tokens" (parts of its counts) are no claims, its
    "prompt_tokens" and "total_generated_tokens" are."""
    post = (
        '```json\n{"requestsPerSecond": 4.2, "memoryTotalGB": 12, "vramTotalGB": 24, "memoryUsedMiB": 6120, '
        '"peakVramGiB": 6.4, "latencyP99Ms": 840, "usage": {"prompt_tokens": 31, "total_generated_tokens": '
        '250, "cached_tokens": 0, "reasoning_tokens": 0}}\n```\n'
    )
    got = _by_value(_drafted(post, tmp_path))
    assert (got[4.2][0].metric, got[4.2][0].unit) == ("request_throughput", "req/s")
    assert 12.0 not in got and 24.0 not in got and 0.0 not in got
    assert (got[6120.0][0].unit, got[6.4][0].unit) == ("MiB", "GiB")
    assert got[840.0][0].metric == "latency" and got[840.0][1]["other"] == {"stat": "p99"}
    assert got[31.0][0].unit == "tokens" and got[250.0][0].unit == "tokens"


def test_a_backend_cell_with_its_device_and_a_float_dtype_beside_a_method(tmp_path):
    """ "llama.cpp (CUDA)" under "Backend" is engine llama.cpp on backend CUDA; "float16" under
    "Dtype" beside a "-GPTQ"/"-AWQ" model is the kernels' compute type, the quant stays the method."""
    table = (
        "| Model | Dtype | Backend | tok/s |\n|---|---|---|---|\n"
        "| TheBloke/Llama-2-7B-AWQ | float16 | llama.cpp (CUDA) | 120.5 |\n"
        "| TheBloke/Llama-2-7B-GPTQ | float16 | ExLlamaV2 | 130.5 |\n"
    )
    got = _by_value(_drafted(table, tmp_path))
    assert (got[120.5][1]["engine"], got[120.5][1]["backend"], got[120.5][1]["quant"]) == (
        "llama.cpp",
        "CUDA",
        "AWQ",
    )
    assert (got[130.5][1]["engine"], got[130.5][1]["quant"]) == ("ExLlamaV2", "GPTQ")


def test_a_draft_models_flag_names_no_model_and_a_number_label_over_its_lines(tmp_path):
    """ "--draft_model ./Qwen2.5-0.5B-Instruct" names the drafter, not the model measured; "73:" as
    the first line of its paragraph (the output right under it) still labels release 0.1.73."""
    from benchbook.audit.draftcontext import _flag_models

    assert _flag_models([(1, "python spec_bench.py --draft_model ./Qwen2.5-0.5B-Instruct --gamma 5")]) == []
    post = (
        "# Bump llama-cpp-python to 0.1.74\n\nFaster than 0.1.73.\n\n73:\n"
        "Output generated in 42.23 seconds (0.95 tokens/s, 40 tokens, context 7, seed 1)\n\n74:\n"
        "Output generated in 37.97 seconds (1.05 tokens/s, 40 tokens, context 7, seed 2)\n"
    )
    got = _by_value(_drafted(post, tmp_path))
    assert (got[0.95][1]["build"], got[1.05][1]["build"]) == ("0.1.73", "0.1.74")


def test_a_labelled_second_arrow_pair_keeps_no_unit():
    """Control of the arrow pairs: "(23.5 -> 21.9 t/s, VRAM 10.2 -> 9.4)" names another quantity
    before its second pair, which takes no rate."""
    from benchbook.audit.draftprose import numbers

    assert [(n.text, n.unit) for n in numbers("(23.5 -> 21.9 t/s, VRAM 10.2 -> 9.4)")][2:] == [
        ("10.2", None),
        ("9.4", None),
    ]

"""Kinds fixed in issue 29's session 70 (the forty-eighth held-out set's misses, read after a
forty-ninth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draft import caption_quantity
from benchbook.audit.draftcommand import command_lines, flag_decoding, model_and_quant
from benchbook.audit.draftcontext import _features, _fuller_of, flag_settings
from benchbook.audit.draftnames import cpu_names, mentions
from benchbook.audit.draftprose import dot_grouping, numbers
from benchbook.audit.draftwords import engine_versions
from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_cpu_named_alone_and_with_its_count_is_one_machine():
    """ "AMD EPYC 7713" in a title over "2× AMD EPYC 7713" in the setup (h546) is the counted one;
    "dual Epyc 9175F" (h554) is AMD's EPYC in any case; two different CPUs stay two."""
    assert cpu_names("3.6tok/s on AMD EPYC 7713\n- 2× AMD EPYC 7713 64-Core Processor") == [
        "2x AMD EPYC 7713"
    ]
    assert cpu_names("(dual Epyc 9175F, 16 x DDR5 6400 MT/s RAM)") == ["2x AMD EPYC 9175F"]
    assert cpu_names("Dual EPYC 9654 and an epyc 7763") == ["2x AMD EPYC 9654", "AMD EPYC 7763"]
    assert cpu_names("on an EPYC 7763") == ["AMD EPYC 7763"]


def test_a_count_of_cpus_or_memory_modules_is_no_multiple():
    """ "2× AMD EPYC 7713", "32×128GB Samsung DIMMs", "16 x DDR5 6400" (h546, h554) count parts;
    "2x faster" and "2x RTX 3090" keep their meanings."""

    def units(text: str) -> list:
        return [(n.text, n.unit) for n in numbers(text) if n.unit == "x"]

    assert units("2× AMD EPYC 7713 64-Core Processor") == []
    assert units("Total 4096 GB DDR4 (32×128GB Samsung DIMMs, DDR4-3200)") == []
    assert units("dual Epyc 9175F, 16 x DDR5 6400 MT/s RAM") == []
    assert units("it is 2x faster than before") == [("2", "x")]


def test_a_repository_name_after_its_owner_with_an_engine_as_its_format():
    """ "mateogrgic/GLM-5.2-colibri-int4-with-int8-mtp" (h546): GLM-5.2 in int4 (the engine's name
    where a format's stands); a family named with no version stays no model."""
    assert model_and_quant("GLM-5.2-colibri-int4-with-int8-mtp") == ("GLM-5.2", "int4")
    said = {
        (m.path, m.value) for m in mentions("Model: mateogrgic/GLM-5.2-colibri-int4-with-int8-mtp (383.7 GB)")
    }
    assert ("model", "GLM-5.2") in said and ("quant", "int4") in said
    assert not [m for m in mentions("Model: someone/colibri-weights") if m.path == "model"]


def test_a_wrapped_command_and_colibris_cli():
    """ "numactl --interleave=all ./llama-bench …" and "taskset -c 0-15 llama-cli …" are the tool's
    lines; colibri's "./coli run … --gpu none --temp 0 "test"" (h546) is its engine on the CPU, its
    prompt the word after its flags; llama.cpp's "--device none" is the CPU too."""
    [c] = command_lines(
        [(1, "numactl --interleave=all ./llama-bench -m Qwen3-8B-Q4_K_M.gguf -ngl 0")], code=True
    )
    assert c.tool == "llama-bench" and c.conditions["model"] == "Qwen3-8B"
    [c] = command_lines([(1, "taskset -c 0-15 llama-cli -m x.gguf --device none -p hi")], code=True)
    assert c.conditions["backend"] == "CPU"
    line = (
        'OMP_NUM_THREADS=96 DRAFT=3 numactl --interleave=all ./coli run --ram 1000 --gpu none --temp 0 "test"'
    )
    [c] = command_lines([(1, line)], code=True)
    assert c.conditions == {
        "engine": "colibri",
        "other": {"ram": 1000},
        "backend": "CPU",
        "sampling": "temperature 0",
        "prompt": "test",
    }
    assert command_lines([(1, "numactl --hardware")], code=True) == []


def test_a_draft_column_of_a_table_of_mtp_runs(tmp_path):
    """ "| Draft |" over "1" beside "| MTP acceptance |" (h546): the model's own heads drafting one
    token a step; under "Draft" alone in a table of no MTP, speculative."""
    text = (
        "Run | Draft | Decode tok/s | MTP acceptance\n-- | -- | -- | --\n"
        "1 | 1 | 1.57 | 65%\n2 | 1 | 3.55 | 65%\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(c.value, _cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims}
    assert got == {(1.57, "draft-self", 1), (3.55, "draft-self", 1), (65, "draft-self", 1)}
    cf = _drafted("| Draft | Decode tok/s |\n|---|---|\n| yes | 3.5 |\n| no | 2.0 |\n", tmp_path)
    got = [(c.value, _cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims]
    assert got == [(3.5, "speculative", None), (2.0, "plain", None)]


def test_a_caption_lines_time_metric_over_a_table_of_plain_numbers(tmp_path):
    """ "Here is TPOT(s):" over "| | vllm | sglang |" (h548): each engine's cell a TPOT in seconds;
    "TTFT (ms):" alike; a caption line with a number of its own, or naming no time, none."""
    assert caption_quantity("Here is TPOT(s):") == ("tpot", "s")
    assert caption_quantity("TTFT (ms):") == ("ttft", "ms")
    assert caption_quantity("Here is the result:") is None
    assert caption_quantity("TPOT was 30 ms:") is None
    assert caption_quantity("Here is TPOT(s)") is None  # no colon: no caption of what follows
    assert caption_quantity("VRAM usage (GB):") == ("vram", "GB")
    assert caption_quantity("Sizes (GB):") is None  # a size of what: no metric
    text = (
        "Here is TPOT(s):\n\n  | vllm | sglang\n-- | -- | --\n"
        "offline FP8 | 0.032 | 0.016\nBF16 | 0.032 | 0.030\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.metric, c.value, c.unit, _cond(cf, c).get("engine")) for c in cf.claims]
    assert got == [
        ("tpot", 0.032, "s", "vLLM"),
        ("tpot", 0.032, "s", "vLLM"),
        ("tpot", 0.016, "s", "SGLang"),
        ("tpot", 0.03, "s", "SGLang"),
    ]


def test_shell_variables_of_a_block_in_its_commands_and_a_launch_lines_tp(tmp_path):
    """ "export TP=2", "model=model/Qwen3-32B-FP8", then "vllm serve $model --tensor-parallel-size $TP"
    (h548): the model and quant of the variable, and an H20 named in prose counted twice; a variable
    no line sets stays as written."""
    lines = [
        (1, "export TP=2"),
        (2, "model=model/Qwen3-32B-FP8"),
        (3, "vllm serve $model --tensor-parallel-size $TP"),
    ]
    [c] = command_lines(lines, code=True)
    assert (c.conditions["model"], c.conditions["quant"]) == ("Qwen3-32B", "FP8")
    [c] = command_lines([(1, "vllm serve ${MODEL} --max-num-seqs 8")], code=True)
    assert c.conditions["model"] == "${MODEL}"
    text = (
        "Testing Qwen3-32B on H20 (96G).\n\n```\nexport TP=2\n"
        "vllm serve Qwen/Qwen3-32B --tensor-parallel-size $TP\n```\n\n"
        "It decodes at 30 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    assert [_cond(cf, c).get("hardware") for c in cf.claims] == ["2x NVIDIA H20"]


def test_a_post_grouping_its_thousands_with_a_dot(tmp_path):
    """A German post whose dotted numbers all have three digits after the dot ("42.582 ms" beside
    "216 ms"; h549: E2E 105.036 = 104.820 + 216 ms only as thousands) writes thousands so; the same
    numbers in English, or a German post with a decimal ("42.58 ms"), keep their points."""
    german = (
        "Die Serie wurde nach einer Pause mit der Konfiguration durchgeführt, und das ist nicht neu.\n\n"
        "| Lauf | TTFT | außerhalb Native | E2E |\n|---|---:|---:|---:|\n"
        "| 1 | 43.223 ms | 216 ms | 105.036 ms |\n| 2 | 33.303 ms | 205 ms | 95.848 ms |\n"
    )
    assert dot_grouping(german)
    cf = _drafted(german, tmp_path)
    assert sorted(c.value for c in cf.claims) == [205, 216, 33303, 43223, 95848, 105036]
    assert {_cond(cf, c).get("run_index") for c in cf.claims if c.value in (43223, 33303)} == {1, 2}  # "Lauf"
    english = german.replace(
        "Die Serie wurde nach einer Pause mit der Konfiguration durchgeführt, und das ist nicht neu.",
        "The series was run after a pause, and it is the same as before.",
    )
    assert not dot_grouping(english)
    assert not dot_grouping(german.replace("43.223 ms", "43.22 ms"))
    assert sorted(c.value for c in _drafted(english, tmp_path).claims)[0] == 33.303


def test_a_clause_opening_with_a_size_is_of_that_models_run(tmp_path):
    """ "14b模型大概是6秒，7b是3.8秒" (h551): each clause's size is its model; a number before any size
    gets none of them."""
    cf = _drafted(
        "g8i在120个token的首字延迟上， 14b模型大概是6秒，7b是3.8秒，均无法达到官方0.5s的速度\n", tmp_path
    )
    assert [(c.value, _cond(cf, c).get("model")) for c in cf.claims] == [
        (120, None),
        (6, "14b"),
        (3.8, "7b"),
        (0.5, None),
    ]


def test_powerinfers_model_file_and_a_series_name_before_a_known_models_size(tmp_path):
    """ "./build/bin/main -m …falcon-40b-relu.q4.powerinfer.gguf" (h550) runs PowerInfer, not
    llama.cpp; "Context-Kontrollserie 2B Q4_0" (a heading's series name) beside "Modell: Qwen3.5 2B
    Q4_0" (h549) is the Qwen model."""
    [c] = command_lines(
        [(1, "./build/bin/main -m /m/falcon-40b-relu.q4.powerinfer.gguf -n 512 -t 8")], code=True
    )
    assert (c.conditions["engine"], c.conditions["model"]) == ("PowerInfer", "falcon-40b-relu")
    [c] = command_lines([(1, "./build/bin/main -m /m/falcon-40b.q4_0.gguf -n 512")], code=True)
    assert c.conditions["engine"] == "llama.cpp"
    assert _fuller_of(["Context-Kontrollserie 2B", "Qwen3.5 2B"])("Context-Kontrollserie 2B") == "Qwen3.5 2B"
    assert _fuller_of(["Context-Kontrollserie 2B", "Qwen3.5 7B"])("Context-Kontrollserie 2B") == (
        "Context-Kontrollserie 2B"
    )


def test_a_gain_naming_the_metric_it_changes(tmp_path):
    """ "| **Gain (Mean TTFT)** | | **+35.7%** |" under "| Mean TTFT (ms) | 3588 | 2307 |" (h553, a
    table of metrics as rows): a change of that metric's cells, from the one its value fits, signed
    as the values go (a time that falls: -35.7%); a column "Gain (TTFT)" alike; a gain no pair
    gives is listed."""
    text = (
        "| Metric | 8k TP8 | 8k TP4PCP2 | 16k TP8 | 16k TP4PCP2 |\n|---|---|---|---|---|\n"
        "| Mean TTFT (ms) | 3588 | 2307 | 8012 | 4920 |\n"
        "| Total Tput (tok/s) | 2742 | 2832 | 3879 | 4410 |\n"
        "| **Gain (Mean TTFT)** | | **+35.7%** | | **+38.6%** |\n"
        "| **Gain (Total Tput)** | | **+3.3%** | | **+13.7%** |\n"
    )
    cf = _drafted(text, tmp_path)
    value = {c.id: c.value for c in cf.claims}
    got = [(s.kind, s.value, [value[x] for x in s.of]) for s in cf.statements]
    assert got == [
        ("percent_change", -35.7, [3588, 2307]),
        ("percent_change", -38.6, [8012, 4920]),
        ("percent_change", 3.3, [2742, 2832]),
        ("percent_change", 13.7, [3879, 4410]),
    ]
    assert all(c.metric != "speed_change" for c in cf.claims)
    text = (
        "| Config | TTFT (ms) | Gain (TTFT) |\n|---|---|---|\n| TP8 | 3588 | |\n| TP4PCP2 | 2307 | +35.7% |\n"
    )
    cf = _drafted(text, tmp_path)
    value = {c.id: c.value for c in cf.claims}
    assert [(s.value, [value[x] for x in s.of]) for s in cf.statements] == [(-35.7, [3588, 2307])]
    text = (
        "| Config | TTFT (ms) | Gain (TTFT) |\n|---|---|---|\n| TP8 | 3588 | |\n| TP4PCP2 | 2307 | +20% |\n"
    )
    cf = _drafted(text, tmp_path)
    assert cf.statements == [] and [c.value for c in cf.claims] == [3588, 2307]


def test_a_ratio_column_in_per_cent_and_a_time_restated_in_another_unit(tmp_path):
    """ "| vllm | sglang | boost |" over "0.032 | 0.016 | 200%" (h548): the boost is vLLM's TPOT over
    SGLang's in per cent (106% for 0.032 / 0.030 = 106.7%, as written); "73% → 97%" of a third
    engine no pair gives stays a claim (p235); "sglang is 16ms" after the table cites its 0.016 s."""
    text = (
        "Here is TPOT(s):\n\n  | vllm | sglang | boost\n-- | -- | -- | --\n"
        "offline FP8 | 0.032 | 0.016 | 200%\nonline FP8 | 0.026 | 0.024 | 108%\n"
        "BF16 | 0.032 | 0.030 | 106%\n\n"
        "I found sglang is 16ms here.\n"
    )
    cf = _drafted(text, tmp_path)
    value = {c.id: c.value for c in cf.claims}
    got = [(s.kind, s.value, s.unit, [value[x] for x in s.of]) for s in cf.statements]
    assert got == [
        ("ratio", 200, "%", [0.032, 0.016]),
        ("ratio", 108, "%", [0.026, 0.024]),
        ("ratio", 106, "%", [0.032, 0.03]),
    ]
    assert sorted(c.value for c in cf.claims) == [0.016, 0.024, 0.026, 0.03, 0.032, 0.032]
    text = (
        "| model | Before | After | vs upstream |\n|---|---|---|---|\n"
        "| phi | 120.68 | 160.90 | 73% → 97% (mlx-lm) |\n| gemma | 129.30 | 163.85 | 84% → 107% |\n"
    )
    cf = _drafted(text, tmp_path)
    assert cf.statements == [] and {73, 84} <= {c.value for c in cf.claims if c.unit == "%"}


def test_a_size_after_its_number_a_counted_cpu_post_and_a_listed_weight_type(tmp_path):
    """ "~108 tokens/s on a 7B, ~35–40 t/s on a 32B" (h555): each rate's model by the size after it;
    "(dual Epyc 9175F, …, Llama-3.1-70B-Instruct model, f16, tg increased from 2.4 t/s to 4.31 t/s)"
    (h554): the two CPUs counted, the f16 weights; a model with a type of its own keeps it."""
    cf = _drafted("The M4 Max holds its own: ~108 tokens/s on a 7B, ~35–40 t/s on a 32B. Fine.\n", tmp_path)
    assert [_cond(cf, c).get("model") for c in cf.claims] == ["7B", "32B"]
    cf = _drafted("It got 108 tokens/s on a good day.\n", tmp_path)
    assert [_cond(cf, c).get("model") for c in cf.claims] == [None]
    text = (
        "Use llama-bench on the CPU.\n\nOn the tested system (dual Epyc 9175F, 16 x DDR5 6400 MT/s RAM, "
        "Llama-3.1-70B-Instruct model, f16, tg increased from 2.4 t/s to 4.31 t/s)\n"
    )
    cf = _drafted(text, tmp_path)
    got = {(_cond(cf, c).get("hardware"), _cond(cf, c).get("quant")) for c in cf.claims}
    assert got == {("2x AMD EPYC 9175F", "f16")}
    assert [(m.path, m.value) for m in mentions("Llama 3 8B Q8_0, f16, 30 t/s")] == [
        ("model", "Llama 3 8B"),
        ("quant", "Q8_0"),
    ]


def test_a_flags_line_naming_its_decoding_mode_and_a_max_among_statistics(tmp_path):
    """ "Flags: `--depth 3 --generation-mode mtp …`" (h552, MTPLX): the model's own heads drafting 3
    tokens a step; "--generation-mode ar" plain; "TTFT median 11.3s p90 90.8s max 247.9s": the max a
    statistic of the runs, no bound; "max 50 tok/s" alone stays a bound."""
    assert flag_settings("--depth 3 --generation-mode mtp --profile turbo") == [
        ("decoding", "draft-self"),
        ("block_max", 3),
    ]
    assert flag_settings("--depth 3 --generation-mode ar") == [("decoding", "plain")]
    assert flag_settings("--depth 3 --profile turbo") == []
    cf = _drafted("```\nTTFT                 median   11.3s    p90 90.8s    max 247.9s\n```\n", tmp_path)
    got = [(c.value, _cond(cf, c).get("other", {}).get("stat")) for c in cf.claims]
    assert got == [(11.3, "median"), (90.8, "p90"), (247.9, "max")]
    cf = _drafted("It reaches max 50 tok/s on my card.\n", tmp_path)
    assert cf.claims == [] and [s.kind for s in cf.statements] == ["bound"]


def test_tensorrt_llms_benchmark_and_its_latency_columns(tmp_path):
    """ "mpirun -n 8 … ./cpp/build/benchmarks/gptSessionBenchmark …" (h547): TensorRT-LLM, whose
    latencies print in ms, so "| v0.5 Latency |" over 292.48 is 292.48 ms, of the release the text
    names in full after "version" ("v0.5.0"); a latency column with no such tool stays unplaced."""
    [c] = command_lines(
        [(1, "mpirun -n 8 --allow-run-as-root ./cpp/build/benchmarks/gptSessionBenchmark --num_runs 5")],
        code=True,
    )
    assert (c.tool, c.conditions["engine"]) == ("gptSessionBenchmark", "TensorRT-LLM")
    table = (
        "| Batch Size | v0.5 Latency | v0.7 Latency |\n|---|---|---|\n"
        "| 1 | 292.48 | 308.84 |\n| 4 | 1069.32 | 1103.08 |\n"
    )
    text = (
        "I ran it on two different version (v0.5.0 and v0.7.0):\n\n```\n"
        "mpirun -n 8 ./cpp/build/benchmarks/gptSessionBenchmark --model llama --num_runs 5\n```\n\n" + table
    )
    cf = _drafted(text, tmp_path)
    got = [(c.value, c.unit, _cond(cf, c).get("engine"), _cond(cf, c).get("build")) for c in cf.claims]
    assert got == [
        (292.48, "ms", "TensorRT-LLM", "0.5.0"),
        (1069.32, "ms", "TensorRT-LLM", "0.5.0"),
        (308.84, "ms", "TensorRT-LLM", "0.7.0"),
        (1103.08, "ms", "TensorRT-LLM", "0.7.0"),
    ]
    assert _drafted(table, tmp_path).claims == []


def test_a_setup_sentence_of_bold_items_a_series_by_its_context_and_a_mean_lists_lead(tmp_path):
    """h549: "…Referenzkonfiguration: **Prompt-Batch 1024**, **Micro-Batch 512**, **Context 4096**,
    **Output 128**." declares the batch, ubatch, context and cap; "Vorherige Context-2048-Serie im
    Mittel:" over its list is the 2048 context's; "**Average (3 runs):**" over "- TTFT: **34.8 ms**"
    states the mean of the table's TTFT column above."""
    said = _features("Config: **Prompt-Batch 1024**, **Micro-Batch 512**, **Context 4096**, **Output 128**.")
    assert ("batch", 1024) in said and ("cap", 128) in said
    assert ("cap", 128) not in _features("Config: batch 1024, output tokens were fine")
    cf = _drafted(
        "All runs at context 4096.\n\n## Compare\n\nPrevious Context-2048 series:\n- TTFT: **28.9 ms**\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("ctx") for c in cf.claims] == [2048]
    text = (
        "| Run | TTFT | E2E |\n|---|---:|---:|\n| 1 | 43.2 ms | 105.0 ms |\n| 2 | 33.3 ms | 95.8 ms |\n"
        "| 3 | 28.0 ms | 92.1 ms |\n\n**Average (3 runs):**\n- TTFT: **34.8 ms**\n- E2E: **97.6 ms**\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(s.kind, s.value, len(s.of)) for s in cf.statements] == [("mean", 34.8, 3), ("mean", 97.6, 3)]
    cf = _drafted(text.replace("**Average (3 runs):**", "**Best run:**"), tmp_path)
    assert cf.statements == [] and 34.8 in [c.value for c in cf.claims]


def test_a_scripts_runs_with_and_without_its_drafting_flag_and_vllms_progress_line(tmp_path):
    """h566: "python benchmark_speculative.py" and the same with "--with_speculation True", each
    over vLLM's tqdm lines ("est. speed input: … toks/s, output: 305.54 toks/s") under "Running
    benchmark on 20 prompts with batch size 10 with max tokens 1024": vLLM, ten requests at once,
    1024 tokens at most, the first block plain and the second speculative, whatever the title says;
    one script run once with its flag off is no arm of anything."""
    run = (
        "```bash\npython benchmark_speculative.py {flags}\n\n"
        "Running benchmark on 20 prompts with batch size 10 with max tokens 1024\n"
        "Processed prompts: 100%|█| 10/10 [00:33<00:00,  3.35s/it, "
        "est. speed input: 40.85 toks/s, output: {out} toks/\n"
        "```\n"
    )
    text = (
        "# The performance of ngram speculation\n\n"
        + run.format(flags="", out="305.54")
        + "\nvs.\n\n"
        + run.format(flags="--with_speculation True", out="74.31")
    )
    cf = _drafted(text, tmp_path)
    got = {
        (c.value, _cond(cf, c).get("engine"), _cond(cf, c).get("decoding"), _cond(cf, c).get("concurrency"))
        for c in cf.claims
        if c.value in (305.54, 74.31)
    }
    assert got == {(305.54, "vLLM", "plain", 10), (74.31, "vLLM", "speculative", 10)}
    assert {_cond(cf, c).get("cap") for c in cf.claims} == {1024}
    assert flag_decoding("--use-mtp", None) == "draft-self"
    assert flag_decoding("--speculative", "false") == "plain"
    assert flag_decoding("--generation-mode", "mtp") == "draft-self"
    assert flag_decoding("generation_mode", "baseline") == "plain"
    assert flag_decoding("--temp", "0") is None


def test_a_llama_bench_test_named_in_prose_and_an_engines_image_tag(tmp_path):
    """h572: "pp512 が約330.87 t/s、tg128 が約10.37 t/s、さらに d16384 が約216.76 t/s": the tg test's
    128 tokens for its rate only, the depth for the last; h568: "ghcr.io/huggingface/text-generation-
    inference:0.8" runs TGI 0.8 ("vllm/vllm-openai:v0.6.3" vLLM 0.6.3; "ollama/ollama:latest"
    names no release)."""
    cf = _drafted(
        "fa=1 の条件で pp512 が約330.87 t/s、tg128 が約10.37 t/s、さらに d16384 が約216.76 t/s など。\n",
        tmp_path,
    )
    got = [(c.value, _cond(cf, c).get("tokens_generated"), _cond(cf, c).get("depth")) for c in cf.claims]
    assert got == [(330.87, None, None), (10.37, 128, None), (216.76, None, 16384)]
    assert engine_versions("docker run ghcr.io/huggingface/text-generation-inference:0.8 --model-id x") == {
        "TGI": "0.8"
    }
    assert engine_versions("docker run vllm/vllm-openai:v0.6.3 --model x") == {"vLLM": "0.6.3"}
    assert engine_versions("docker run ollama/ollama:latest") == {}


def test_a_table_of_metrics_as_rows_each_rows_own_unit_by_its_words(tmp_path):
    """h573: "| **Token Usage Statistics** | Average completion tokens | 21.02 |" under a Value column
    whose first cell is "0.78 seconds": tokens, by the row's own words (its second label); "Total
    samples processed | 82" a count, listed, no time."""
    text = (
        "| **Category** | **Metric** | **Value** |\n|---|---|---|\n"
        "| **Inference Statistics** | Total samples processed | 82 |\n"
        "| | Average inference time | 0.78 seconds |\n"
        "| **Token Usage Statistics** | Average completion tokens | 21.02 |\n"
        "| | Max prompt tokens | 1483 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted((c.value, c.unit) for c in cf.claims) == [(0.78, "s"), (21.02, "tokens"), (1483, "tokens")]
    assert "82" in [u.number for u in cf.draft.unplaced]


def test_an_apple_chip_before_air_is_the_macbook_air():
    """ "An M2 Air pushes 18 tok/s" (h571) is the M2 MacBook Air; "M2 Max" stays the chip."""
    assert [m.value for m in mentions("An M2 Air pushes 18 tok/s")] == ["Apple M2 (MacBook Air)"]
    assert [m.value for m in mentions("M2 Max hits 28 tok/s")] == ["Apple M2 Max"]


def test_a_multiple_over_the_one_table_row_whose_pair_gives_it(tmp_path):
    """ "[Bug]: Qwen3-32B-FP8 2x slower than SGLang" over a table of TPOTs (h548): the ratio of the
    one row whose two cells give it (0.032 over 0.016), the larger first; "~5x slower than
    expected" (h274) and "gives me 1.37x" (h467) name no two arms: claims."""
    table = (
        "\n\nHere is TPOT(s):\n\n  | vllm | sglang\n-- | -- | --\n"
        "offline FP8 | 0.032 | 0.016\nBF16 | 0.032 | 0.030\n"
    )
    cf = _drafted("# [Bug]: Qwen3-32B-FP8 2x slower than SGLang" + table, tmp_path)
    value = {c.id: c.value for c in cf.claims}
    assert [(s.kind, s.value, [value[x] for x in s.of]) for s in cf.statements] == [
        ("ratio", 2, [0.032, 0.016])
    ]
    cf = _drafted("# Qwen3-32B-FP8 2x slower than expected" + table, tmp_path)
    assert cf.statements == [] and 2 in [c.value for c in cf.claims]


def test_a_breakers_cases_of_this_sessions_kinds(tmp_path):
    """A breaker's cases (session 70): a Draft column of 2 and 3 beside MTP acceptance drafts that
    many; another engine's time in the other unit is its own claim; a dotted decimal with a zero
    ("0.216 s") means the dots are decimals; "dual epyc 7773x" is two CPUs, no multiple; a per-cent
    ratio no pair of its row gives is listed; "max 4096 tokens of context" no statistic; a
    PowerInfer file's model without its format; a period after "v0.7.0." keeps the release."""
    cf = _drafted(
        "| Draft | MTP acceptance | tok/s |\n|---|---|---|\n| 2 | 77% | 80.1 |\n| 3 | 70% | 84.0 |\n",
        tmp_path,
    )
    got = {(c.value, _cond(cf, c).get("decoding"), _cond(cf, c).get("block_max")) for c in cf.claims}
    assert (80.1, "draft-self", 2) in got and (84.0, "draft-self", 3) in got
    cf = _drafted(
        "Qwen2.5-7B, 1x A100. vLLM E2E latency is 1.6 s. SGLang E2E latency is 1600 ms as well.\n", tmp_path
    )
    assert [(c.value, _cond(cf, c).get("engine")) for c in cf.claims] == [(1.6, "vLLM"), (1600, "SGLang")]
    dutch = (
        "De TTFT is 0.216 s en de latentie is 42.582 ms, 43.223 ms en 61.596 ms voor het model met de GPU.\n"
    )
    assert not dot_grouping(dutch * 3)
    cf = _drafted("# dual epyc 7773x box\n\nIt runs at 4.5 t/s.\n", tmp_path)
    assert [(c.metric, c.value, _cond(cf, c).get("hardware")) for c in cf.claims] == [
        ("decode_tps", 4.5, "2x AMD EPYC 7773X")
    ]
    text = (
        "| Conc | vllm (tok/s) | sglang (tok/s) | speedup |\n|---|---|---|---|\n"
        "| 1 | 100 | 200 | 200% |\n| 64 | 2000 | 2100 | 300% |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [s.value for s in cf.statements] == [200] and "300" in [u.number for u in cf.draft.unplaced]
    cf = _drafted("Qwen3-8B served with max 4096 tokens of context gives 30 t/s.\n", tmp_path)
    assert all("stat" not in (_cond(cf, c).get("other") or {}) for c in cf.claims)
    [c] = command_lines(
        [(1, "./build/bin/main -m ./ReluLLaMA-7B/llama-7b-relu.powerinfer.gguf -n 64")], code=True
    )
    assert c.conditions["model"] == "llama-7b-relu"

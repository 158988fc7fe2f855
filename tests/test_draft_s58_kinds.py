"""Kinds fixed in issue 29's session 58 (read from the thirty-fifth held-out set's misses, h416–h425,
once a thirty-sixth set replaced it as the clean one), each with controls: an old "./speculative"
command was no command; two runs' acceptance in one fence took the last run's counts; cuBLAS named
no backend and "Code Llama 34B" no model; a post that names no engine but pastes `ollama --verbose`
or llama-speculative output had none; an engine's version in "SGLang 0.5.8 doesn't work" made it
the post's engine, while "I set up vLLM on my RTX 5090" declared nothing; "71.5% vs 69.4% MMLU"
was a share; "ttft 180.28ms (± 54.44) | ingestion …" lines were a table and lost their spread; an
Ollama tag leading a script's output named no model; "单卡3090" and "batchsize是1" were unread."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from benchbook.audit.draftcommand import command_lines
from benchbook.audit.draftcontext import _set_up_engine
from benchbook.audit.draftnames import mentions
from benchbook.audit.draftprose import metric_of
from benchbook.audit.draftwords import engine_versions
from benchbook.audit.post import drawn_rows
from benchbook.audit.resultlines import results
from drafting import conditions as _cond
from drafting import drafted as _drafted

_SPEC_RUNS = """\
# Add heuristic algorithm for speculative

target model: Code Llama 34B Q4_K_M
draft model: Code Llama 7B Q4_K_M
device: 2x3090, NVLINK, cublas

```bash
./speculative \\
-m models/codellama-34b.Q4_K_M.gguf \\
-md models/codellama-7b.Q4_K_M.gguf \\
-p "// Quick-sort implementation in C" \\
-e -ngl 1000 -t 4 -n 256 -c 4096 -s 8 --top_k 1 --draft 16

## With heuristic
n_draft   = 53
n_predict = 266
n_drafted = 245
n_accept  = 231
accept    = 94.286%

decoded  266 tokens in   11.990 seconds, speed:   22.185 t/s

## Without heuristic
n_draft   = 16
n_predict = 266
n_drafted = 254
n_accept  = 223
accept    = 87.795%

decoded  266 tokens in   13.234 seconds, speed:   20.099 t/s
```
"""


def _names(text: str) -> list[tuple[str, object]]:
    return [(m.path, m.value) for m in mentions(text)]


def test_an_old_llama_cpp_example_run_from_its_folder_is_a_command():
    """llama.cpp's examples before their llama- names ("./speculative", "./bin/perplexity") set the
    flags of a command as llama-speculative does; the bare word at a line's start is prose."""
    lines = list(enumerate(_SPEC_RUNS.splitlines(), 1))
    (cmd,) = command_lines(lines)
    c = cmd.conditions
    assert (cmd.tool, cmd.line, cmd.last) == ("speculative", 8, 12)
    assert (c["engine"], c["model"], c["quant"], c["ctx"], c["cap"], c["block_max"]) == (
        "llama.cpp",
        "codellama-34b",
        "Q4_K_M",
        4096,
        256,
        16,
    )
    assert (c["decoding"], c["other"]["draft_model"], c["other"]["draft_quant"]) == (
        "speculative",
        "codellama-7b",
        "Q4_K_M",
    )
    assert [x.tool for x in command_lines([(1, "./bin/perplexity -m m.gguf -f wiki.txt")])] == ["perplexity"]
    # controls: the word alone starts a sentence, not a command
    assert command_lines([(1, "speculative -m decoding is what this PR adds")]) == []
    assert command_lines([(1, "perplexity -f wiki.txt")]) == []


def test_each_acceptance_takes_the_counts_of_its_own_run():
    """Two runs' summaries in one fence: each "accept =" line's α has the n_drafted/n_accept printed
    before it in its run (231/245 = 94.286%, 223/254 = 87.795%), not the block's last."""
    lines = list(enumerate(_SPEC_RUNS.splitlines(), 1))
    got = [(r.line, r.value, r.counts) for r in results(lines) if r.metric == "acceptance_rate"]
    assert got == [
        (19, "94.286", {"accepted": 231, "drafted": 245}),
        (28, "87.795", {"accepted": 223, "drafted": 254}),
    ]
    # control: counts printed after the rate (one run) are still its own
    after = [(1, "accept    = 50.000%"), (2, "n_drafted = 10"), (3, "n_accept  = 5")]
    assert [r.counts for r in results(after)] == [{"accepted": 5, "drafted": 10}]


def test_old_blas_names_are_their_backends_and_code_llama_is_a_family():
    """cuBLAS, hipBLAS and CLBlast (llama.cpp's builds before 2024: LLAMA_CUBLAS=1) name the CUDA,
    ROCm and OpenCL backends; "Code Llama 34B" is the model, not "Llama 34B"."""
    assert _names("device: 2x3090, NVLINK, cublas") == [
        ("hardware", "2x NVIDIA GeForce RTX 3090"),
        ("backend", "CUDA"),
    ]
    assert _names("make LLAMA_HIPBLAS=1") == [("backend", "ROCm")]
    assert _names("built with CLBlast") == [("backend", "OpenCL")]
    assert _names("target model: Code Llama 34B Q4_K_M") == [("model", "Code Llama 34B"), ("quant", "Q4_K_M")]
    # controls: a word that merely holds the letters, and the one-word spelling as before
    assert _names("cublasLt errors") == []
    assert _names("CodeLlama-7B-Instruct") == [("model", "CodeLlama-7B-Instruct")]


def test_the_draft_of_two_runs_in_one_fence(tmp_path):
    """The whole post: llama.cpp's runs on CUDA, the 34B target with its -n/-c, each acceptance with
    its own counts."""
    cf = _drafted(_SPEC_RUNS, tmp_path)
    acc = [c for c in cf.claims if c.metric == "acceptance_rate"]
    assert [(c.value, c.counts.accepted, c.counts.drafted) for c in acc] == [
        (94.286, 231, 245),
        (87.795, 223, 254),
    ]
    cond = _cond(cf, acc[0])
    assert (cond["engine"], cond["backend"], cond["model"], cond["cap"], cond["ctx"]) == (
        "llama.cpp",
        "CUDA",
        "codellama-34b",
        256,
        4096,
    )


_VERBOSE = """\
# llamarunner: Record the time for all batches during prompt processing

Before:
total duration:       31.273112939s
load duration:        4.97054657s
prompt eval count:    32768 token(s)
prompt eval duration: 235.137439ms
prompt eval rate:     139356.80 tokens/s
eval count:           1873 token(s)
eval duration:        18.173182374s
eval rate:            103.06 tokens/s
"""


def test_output_only_one_engine_prints_names_the_engine_of_a_post_that_names_none(tmp_path):
    """`ollama --verbose`'s summary (load duration, prompt eval rate, eval rate) is Ollama's run;
    llama-speculative's n_drafted/n_accept lines are llama.cpp's."""
    cf = _drafted(_VERBOSE, tmp_path)
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"Ollama"}
    counts = "# run\n\n```\nn_drafted = 10\nn_accept  = 5\naccept    = 50.000%\n```\n"
    assert {_cond(cf, c).get("engine") for c in _drafted(counts, tmp_path).claims} == {"llama.cpp"}
    # controls: a post naming its engine keeps it; a summary missing its rate lines is no sign
    named = _VERBOSE.replace("Before:", "Before (llama.cpp's server):")
    assert {_cond(_drafted(named, tmp_path), c).get("engine") for c in _drafted(named, tmp_path).claims} == {
        "llama.cpp"
    }
    bare = "# t\n\ntotal duration: 31.2s\n"
    assert {_cond(_drafted(bare, tmp_path), c).get("engine") for c in _drafted(bare, tmp_path).claims} == {
        None
    }


def test_an_engine_that_did_not_run_gives_no_version_and_a_set_up_sentence_declares_one():
    """ "SGLang 0.5.8 doesn't work with GLM on Blackwell": no version of the engine the post ran.
    "I set up vLLM on my RTX 5090": the engine set up."""
    assert engine_versions("SGLang 0.5.8 doesn’t work with GLM on Blackwell. vLLM crushes Ollama.") == {}
    assert engine_versions("vLLM 0.6.3 failed to load it") == {}
    # control: versions of engines that ran
    assert engine_versions("vLLM 0.5.0 vs SGLang 0.2.0") == {"vLLM": "0.5.0", "SGLang": "0.2.0"}
    assert _set_up_engine("I set up vLLM on my RTX 5090 (32GB VRAM) with an AMD Ryzen 9 9950X") == [
        ("engine", "vLLM")
    ]
    assert _set_up_engine("We ran everything on llama.cpp b4000.") == [("engine", "llama.cpp")]
    # controls: an engine that failed, a machine after the verb, a comparison's other arm
    assert _set_up_engine("I tried SGLang but it crashed") == []
    assert _set_up_engine("I used the 4090 for it") == []
    assert _set_up_engine("Then I used Ollama to compare.") == []


def test_the_post_that_set_up_vllm_and_tried_sglang(tmp_path):
    """The accuracy pair and the throughput are vLLM's; the percentages of a benchmark are
    accuracy."""
    text = (
        "# GLM-4.7-Flash Quantization Showdown\n\n"
        "NVFP4 wins on accuracy (71.5% vs 69.4% MMLU, 82.4% vs 80.9% GSM8K).\n\n"
        "vLLM crushes Ollama on throughput. SGLang 0.5.8 doesn’t work with GLM on Blackwell.\n\n"
        "I set up vLLM on my RTX 5090 (32GB VRAM) and ran both quantizations.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.value: (c.metric, _cond(cf, c).get("engine")) for c in cf.claims if c.unit == "%"}
    assert got == {
        71.5: ("accuracy", "vLLM"),
        69.4: ("accuracy", "vLLM"),
        82.4: ("accuracy", "vLLM"),
        80.9: ("accuracy", "vLLM"),
    }


def test_a_benchmarks_score_is_accuracy():
    """A percentage beside a benchmark's name (MMLU, GSM8K, HumanEval, pass@1) or "accuracy" is
    ``accuracy``; other percentages keep their metrics."""
    assert metric_of("%", "NVFP4 wins on accuracy (") == "accuracy"
    assert metric_of("%", "", " MMLU, 82.4% vs") == "accuracy"
    assert metric_of("%", "HumanEval pass@1: ") == "accuracy"
    assert metric_of("%", "准确率为") == "accuracy"
    # controls
    assert metric_of("%", "GPU utilization ") == "gpu_utilization"
    assert metric_of("%", "the draft's acceptance rate was ") == "acceptance_rate"
    assert metric_of("%", "it uses ") == "share"


def test_label_value_lines_between_pipes_are_no_table(tmp_path):
    """A script's result lines, "label value (± spread)" in every cell and no header, are read line
    by line: each value with its spread and its own metric ("ingestion" is the prompt's rate)."""
    lines = [
        (
            1,
            "HTTP: ttft 180.28ms (± 54.44) | ingestion 76.27 tok/s (± 9.39) "
            "| generation 38.00 tok/s (± 1.43)",
        ),
        (
            2,
            "Ollama-reported: load duration 0.25ms (± 0.35) | ingestion 77.58 tok/s (± 9.46) "
            "| generation 38.33",
        ),
    ]
    assert drawn_rows(lines) is None
    # control: a table without outer pipes, its header naming the columns
    table = [(1, "model | pp512 t/s | tg128 t/s"), (2, "7B Q4_0 | 1200.5 | 40.1")]
    assert drawn_rows(table) == ([["model", "pp512 t/s", "tg128 t/s"], ["7B Q4_0", "1200.5", "40.1"]], [1, 2])
    text = (
        "# Ollama evaluation\n\n```shell\n"
        "pxlksr/opencodeinterpreter-ds:6.7b-Q4_K_M (5 runs) at 2024-03-27 18:35:42\n"
        f"{lines[0][1]}\n```\n"
    )
    cf = _drafted(text, tmp_path)
    got = [(c.metric, c.value, c.spread, c.unit) for c in cf.claims]
    assert got == [
        ("ttft", 180.28, 54.44, "ms"),
        ("prefill_tps", 76.27, 9.39, "tok/s"),
        ("decode_tps", 38.0, 1.43, "tok/s"),
    ]
    cond = _cond(cf, cf.claims[0])
    assert (cond["engine"], cond["model"], cond["quant"]) == (
        "Ollama",
        "opencodeinterpreter-ds-6.7B",
        "Q4_K_M",
    )


def test_chinese_counts_of_cards_and_a_batch_size(tmp_path):
    """ "用的单卡3090" is one RTX 3090 (a CJK word after the digits too), "两张3090" two; "batchsize是1"
    is a batch of one."""
    assert _names("用的单卡3090跑的") == [("hardware", "NVIDIA GeForce RTX 3090")]
    assert _names("两张3090") == [("hardware", "2x NVIDIA GeForce RTX 3090")]
    # control: a consumer card named in general ("消费卡 5090 之间没有 NVLink") is no machine of a run
    assert _names("消费卡 5090 之间没有 NVLink") == []
    text = (
        "# 量化后推理速度\n\n推理的时候batchsize是1，用的单卡3090\n"
        "transformers原始fp16版本的推理完用了337s，\n"
    )
    cf = _drafted(text, tmp_path)
    (c,) = cf.claims
    cond = _cond(cf, c)
    assert (c.value, c.unit, cond["hardware"], cond["concurrency"]) == (
        337,
        "s",
        "NVIDIA GeForce RTX 3090",
        1,
    )


def _measure():
    path = Path(__file__).resolve().parents[1] / "scripts" / "draft_measure.py"
    spec = importlib.util.spec_from_file_location("draft_measure_s58", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_measure_takes_one_names_spellings_alike():
    """ "codellama-34b" states "Code Llama 34B" (case, spaces, dashes); a different name does not."""
    same = _measure().same_condition
    assert same("Code Llama 34B", "codellama-34b") is True
    assert same("Qwen3-8B", "qwen3_8b") is True
    assert same("Qwen3-8B", "Qwen-3.8B") is False
    assert same("Code Llama 34B", "Code Llama 13B") is False


def test_a_multiple_written_as_a_bound_with_no_claim_beside_it_is_a_bound_todo(tmp_path):
    """ "推理速度有2倍以上的降低" (inference 2x or more slower) and "more than 2x faster" alone in their
    sentences: a todo of kind bound (above 2), never a claim of the value (docs/claims.md); "约1.5倍"
    (about 1.5x) stays a claim, and "大概是1.5分钟", "基本都在100%" are about."""
    text = (
        "# 8bit量化加载后推理速度变慢\n\n推理速度变慢约1.5倍。\n\n"
        "GPU使用率基本都在100%，而推理速度有2倍以上的降低。\n\n输入3K，大概是1.5分钟。\n\n"
        "With the draft model decoding is more than 2x faster.\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.metric, c.value, c.unit, c.about) for c in cf.claims] == [
        ("slowdown", 1.5, "x", True),
        ("gpu_utilization", 100, "%", True),
        ("duration", 1.5, "min", True),
    ]
    assert [(t.kind, t.value, t.unit, t.source_line) for t in cf.todo] == [
        ("bound", 2, "x", 5),
        ("bound", 2, "x", 9),
    ]
    assert [t.todo.split(":")[0] for t in cf.todo] == ["a bound (above 2)", "a bound (above 2)"]


def test_the_measure_takes_a_drafted_bound_for_a_claim_written_as_one():
    """An expected claim with no value and "lower bound: …" in its statement is captured by the
    drafted bound statement or todo of its line; its metric is right where the bound is over that
    metric, or over a ratio of two sides for a change (speedup, slowdown); another line's bound does
    not capture it."""

    m = _measure()

    cf = claims_file

    expected = cf(
        "claims:\n"
        "  - {id: a, metric: decode_tps, unit: tok/s, statement: 'lower bound: over 60', source_line: 3}\n"
        "  - {id: b, metric: slowdown, unit: x, statement: 'lower bound: 2x or more', source_line: 5}\n"
    )
    drafted = cf(
        "statements:\n"
        "  - {id: s1, kind: bound, statement: over 60, over: {numerator: {metric: decode_tps}},"
        " relation: above, value: 60, unit: tok/s, source_line: 3}\n"
        "todo:\n"
        "  - {id: t1, todo: a bound, kind: bound, statement: 2x, value: 2, unit: x, source_line: 5}\n"
    )
    got = m.score(drafted, expected)
    assert (got["numbers"], got["metric"], got["metric and conditions"]) == (2, 1, 1)
    # control: a bound on another line captures nothing
    moved = cf("todo:\n  - {id: t1, todo: b, kind: bound, statement: x, source_line: 4}\n")
    assert m.score(moved, expected)["numbers"] == 0


def test_prefill_and_decode_length_columns_and_an_app_on_mlx(tmp_path):
    """AutoAWQ's "| Batch Size | Prefill Length | Decode Length |" columns: each row's prompt and its
    generated tokens; "Software: rapid_mlx 0.7.9, mlx 0.31.2": the app is the engine (its build
    0.7.9), MLX its backend; "(prompt=512, max=128)" caps the run at 128 tokens; "peak_ram" is the
    host's peak memory."""
    table = (
        "# AutoAWQ\n\n| Batch Size | Prefill Length | Decode Length | Decode tokens/s |\n|--|--|--|--|\n"
        "| 1 | 64 | 64 | 156.038 |\n| 1 | 128 | 256 | 154.977 |\n"
    )
    cf = _drafted(table, tmp_path)
    assert [(c.value, _cond(cf, c)["tokens_generated"], _cond(cf, c)["prompt"]) for c in cf.claims] == [
        (156.038, 64, "64 tokens"),
        (154.977, 256, "128 tokens"),
    ]
    post = (
        "# community-bench: phi-4-mini-4bit on Apple M3 Ultra\n\n"
        "Hardware: Apple M3 Ultra, 256 GB RAM\nSoftware: macOS 26.3.1, rapid_mlx 0.7.9, mlx 0.31.2\n\n"
        "- short (prompt=512, max=128): decode median 167.93 tok/s\n- peak_ram: 3.5 GB\n"
    )
    cf = _drafted(post, tmp_path)
    rate, ram = cf.claims
    cond = _cond(cf, rate)
    assert (cond["engine"], cond["build"], cond["backend"], cond["cap"]) == ("Rapid-MLX", "0.7.9", "MLX", 128)
    assert (ram.metric, ram.value, ram.unit) == ("ram_peak", 3.5, "GB")
    # control: MLX named alone stays the engine
    alone = post.replace("rapid_mlx 0.7.9, ", "")
    cf = _drafted(alone, tmp_path)
    assert (_cond(cf, cf.claims[0])["engine"], _cond(cf, cf.claims[0]).get("backend")) == ("MLX", None)


def test_a_model_cards_own_model_and_its_drafts_per_step(tmp_path):
    """A card's "| This Model |" row is the card's model (its title's), "BF16 (baseline)" under
    "| Model |" the weights' type; "With MTP (2 tokens)" drafts two tokens a step."""
    text = (
        "# GLM-4.7-Flash-MTP-NVFP4\n\n"
        "| Model | Acceptance Rate |\n|---|---|\n| BF16 (baseline) | 60% |\n| This Model | 63% |\n\n"
        "| Configuration | Tokens/sec |\n|---|---|\n| Without MTP | 78.1 tok/s |\n"
        "| With MTP (2 tokens) | 56.8 tok/s |\n"
    )
    cf = _drafted(text, tmp_path)
    got = {
        c.value: (_cond(cf, c).get("model"), _cond(cf, c).get("quant"), _cond(cf, c).get("block_max"))
        for c in cf.claims
    }
    assert got == {
        60: ("GLM-4.7-Flash", "BF16", None),
        63: ("GLM-4.7-Flash", "NVFP4", None),
        78.1: ("GLM-4.7-Flash", "NVFP4", None),
        56.8: ("GLM-4.7-Flash", "NVFP4", 2),
    }


def test_a_russian_quant_column_of_model_named_quants(tmp_path):
    """ "| Квантование |" (quantisation) over "GLM-4.7-QuantTrio-Int4": the quant after the model's
    name ("QuantTrio-Int4"); a cell that is a quant alone stays whole."""
    text = (
        "# GLM-4.7\n\n| Квантование | Токенов/сек |\n|---|---|\n"
        "| GLM-4.7-QuantTrio-Int4 | 42-48 |\n| GPTQ-Int4 | 38-41 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert [(c.range, _cond(cf, c)["quant"]) for c in cf.claims] == [
        ((42, 48), "QuantTrio-Int4"),
        ((38, 41), "GPTQ-Int4"),
    ]


def claims_file(text: str):
    """A claims file from the YAML ``text`` of its sections, with the schema's header and a source."""
    import yaml

    from benchbook.audit import schema

    head = {"schema": "benchbook.claims", "schema_version": 1, "source": {"kind": "post"}}
    return schema.ClaimsFile.model_validate({**head, **yaml.safe_load(text)})

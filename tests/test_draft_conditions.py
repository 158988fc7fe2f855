"""Conditions that are settings, not names (``benchbook claims draft``, issue 29): the decoding, the
draft size (``block_max``), the build, the sampling, the tokens generated and their cap -- from the
flags of a command line (``draftcommand``) and the words of a post (``draftcontext``), each carried
to the claims of its own scope only."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines, conditions_of
from benchbook.audit.draftcontext import stated
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _one(line: str) -> dict:
    (c,) = command_lines([(1, line)])
    return c.conditions


def test_speculative_flags_of_llama_cpp_vllm_and_sglang_set_decoding_and_draft_size():
    """Each engine's own flag for the draft size is ``block_max`` (llama.cpp ``--spec-draft-n-max``,
    vLLM ``--num-speculative-tokens``/``--num_speculative_tokens`` and ``--speculative-config``'s
    JSON, SGLang ``--speculative-num-steps``); the drafting flag its decoding: a draft model, EAGLE
    or n-gram lookup speculative, MTP (SGLang's NEXTN) the model's own heads."""
    got = _one("llama-server -m a.gguf --spec-type ngram-mod --spec-draft-n-max 6")
    assert (got["decoding"], got["block_max"], got["other"]["spec_type"]) == ("speculative", 6, "ngram-mod")
    got = _one("llama-server -m a.gguf --spec-type mtp --draft-n-max 3")
    assert (got["decoding"], got["block_max"]) == ("draft-self", 3)
    got = _one(
        "python -m vllm.entrypoints.openai.api_server --model m --speculative_model [ngram] "
        "--num_speculative_tokens 5"
    )
    assert (got["decoding"], got["block_max"], "draft_model" in got.get("other", {})) == (
        "speculative",
        5,
        False,
    )
    got = _one(
        """vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "eagle3", "model": "x/EAGLE3-8B", """
        """"num_speculative_tokens": 4}'"""
    )
    assert (got["decoding"], got["block_max"], got["other"]["draft_model"]) == ("speculative", 4, "EAGLE3-8B")
    got = _one(
        """vllm serve m --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": 1}'"""
    )
    assert (got["decoding"], got["block_max"]) == ("draft-self", 1)
    got = _one(
        "python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
        "--speculative-num-steps 5"
    )
    assert (got["engine"], got["decoding"], got["block_max"]) == ("SGLang", "speculative", 5)
    assert (
        _one("python3 -m sglang.launch_server --model-path m --speculative-algo NEXTN")["decoding"]
        == "draft-self"
    )
    # control: a command with no drafting flag states no decoding and no draft size
    got = _one("llama-server -m a.gguf -c 8192 --draft-p-min 0.5")
    assert "decoding" not in got and "block_max" not in got


def test_sampling_flags_compose_one_sampling_and_top_k_1_is_greedy():
    """``--temp``, ``--top-p``, ``--top-k``, ``--min-p`` together are one sampling, written in that
    order; ``--top-k 1`` keeps one candidate: greedy whatever the temperature."""
    got = conditions_of("llama-server", "--temp 0.6 --top-p 0.95 --top-k 20 --min-p 0.00".split())
    assert got["sampling"] == "temperature 0.6, top-p 0.95, top-k 20, min-p 0.00"
    assert conditions_of("llama-server", "--temp 0 --top-k 1".split())["sampling"] == "greedy"
    assert conditions_of("llama-cli", "--temperature 0.7".split())["sampling"] == "temperature 0.7"
    assert "sampling" not in conditions_of("llama-cli", "--top-k".split())  # control: no value


def test_a_binary_named_after_its_build_and_vllm_bench_serve(tmp_path):
    """A llama.cpp binary renamed after its commit (``llama-server-1f3c9a``) is that build; ``vllm
    bench serve``'s ``--random-output-len`` caps each request's output and ``--max-concurrency`` is
    the concurrency.  Control: a binary without a suffix states no build."""
    assert _one("/opt/llama-server-1f3c9a -m a.gguf -ngl 99")["build"] == "1f3c9a"
    assert "build" not in _one("/opt/llama-server -m a.gguf -ngl 99")
    got = _one(
        "vllm bench serve --model m --random-input-len 512 --random-output-len 200 --max-concurrency 4"
    )
    assert (got["engine"], got["cap"], got["concurrency"]) == ("vLLM", 200, 4)
    cf = _drafted(
        "# Speculative decoding on a 3090\n\n```\n./llama-server-1f3c9a -m Qwen3-8B-Q4_K_M.gguf "
        "-md Qwen3-0.6B-Q8_0.gguf --draft-max 8\n```\n\nGeneration ran at 95.5 t/s.\n",
        tmp_path,
    )
    (c,) = cf.claims
    got = _cond(cf, c)
    assert (got["build"], got["block_max"], got["decoding"]) == ("1f3c9a", 8, "speculative")


def test_a_draft_size_in_words_is_block_max():
    """The ways posts write a draft size: "n_max=6", "n-max 3", "draft-max: 8", "num spec tokens=1",
    "num_steps=5", "k=4", "MTP n=4", "draft 5 tokens", "2 draft tokens".  Controls: a list or a
    range of sizes ("4, 5, and 6 draft tokens", "n-max 2–4") and a top-k ("top k=4") name none."""
    for text, n in (
        ("MTP (n_max=6) at 44.6 tok/s", 6),
        ("with n-max 3 it ran", 3),
        ("draft-max: 8", 8),
        ("When num spec tokens=1, it is faster", 1),
        ("EAGLE-3 (num_steps=5)", 5),
        ("* k=4: 165.65 toks/s", 4),
        ("SGLang settings: fp8 KV, MTP n=4", 4),
        ("we draft 5 tokens per step", 5),
        ("with 2 draft tokens", 2),
    ):
        assert ("block_max", n) in stated([(1, text)], "text"), text
    for text in ("I tried 4, 5, and 6 draft tokens.", "I swept n-max 2–4.", "sampling with top k=4"):
        assert not [v for p, v in stated([(1, text)], "text") if p == "block_max"], text


def test_a_sampling_temperature_in_words_and_a_requests_parameters_in_code(tmp_path):
    """ "Temperature is set to 0.0", "at a temperature of 0.6", "температурой (0.7)" are the sampling;
    a curl body's ``"temperature": 0.1`` and ``"max_tokens": 256`` in a code block are the sampling
    and the cap of the section it is in; a section stating another temperature keeps its own.
    Controls: a GPU at "temperature 85" or "65°C" states no sampling."""
    for text, t in (
        ("Temperature is set to 0.0 for the benchmark", "0.0"),
        ("at a temperature of 0.6", "0.6"),
        ("с одинаковой температурой (0.7)", "0.7"),
        ("temp=1", "1"),
    ):
        assert ("sampling", f"temperature {t}") in stated([(1, text)], "text"), text
    for text in ("GPU temperature 85 under load", "the temperature stayed at 65°C"):
        assert not [v for p, v in stated([(1, text)], "text") if p == "sampling"], text
    cf = _drafted(
        "# Draft models on a 3090\n\n## Coding\n\nWith a draft model: 83.6 tok/s.\n\n```\ncurl -s "
        'localhost:8080/v1/chat/completions -d "{\\"messages\\": [], \\"temperature\\": 0.1, '
        '\\"max_tokens\\": 256}"\n```\n\n## Chat\n\nAt temperature 0.7, with a draft model: 13.5 tok/s.\n',
        tmp_path,
    )
    coding, chat = cf.claims
    assert (_cond(cf, coding)["sampling"], _cond(cf, coding)["cap"]) == ("temperature 0.1", 256)
    assert _cond(cf, chat)["sampling"] == "temperature 0.7"


def test_a_context_in_russian_and_chinese():
    assert ("ctx", 4096) in stated([(1, "с одинаковым контекстом (4096 токенов)")], "text")
    assert ("ctx", 8192) in stated([(1, "Контекст 8192 токенов")], "text")
    assert ("ctx", 32768) in stated([(1, "上下文长度 32K")], "text")


def test_a_draft_size_in_a_sentence_is_its_arms_and_a_baseline_drafts_nothing(tmp_path):
    """A draft size in a sentence that states rates ("with a draft model (--draft-max 16) it reached
    141 t/s") is that sentence's, not its section's; a settings line without a rate ("Draft size:
    8") is the section's.  A plain run takes no draft size from around it (the baseline row under
    a speculative command)."""
    cf = _drafted(
        "# Qwen3-8B on an RTX 3090\n\n## Prose\n\nPlain decoding ran at 85.5 t/s, and with a draft model "
        "(--draft-max 16) it reached 141.5 t/s.\n\nLater the prompt ran at 900.5 t/s.\n\n"
        "## Settings\n\n- Draft size: 8\n\n- With speculative decoding: 120.5 t/s\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert "block_max" not in got[85.5] and got[85.5]["decoding"] == "plain"
    assert (got[141.5]["decoding"], got[141.5]["block_max"]) == ("speculative", 16)
    assert got[900.5].get("block_max") != 16  # another paragraph: not the sentence's size
    assert (got[120.5]["decoding"], got[120.5]["block_max"]) == ("speculative", 8)


def test_a_build_by_its_commit_or_version_next_to_the_engine():
    """The build a post ran, written as commits and versions are: a full 40-digit SHA, an engine's
    name with a short hash ("llama.cpp `1a2b3c4d`", "vLLM @ 9f8e7d6"), a key naming the commit
    ("sglang_commit": "0a1b2c3" in a code block), llama.cpp's build number without its "b", an
    engine's version next to CJK text.  Controls: a script's short hash ("probe.py at 70a699e4"),
    a hash in a link, "llama.cpp 2048 tokens" state none."""
    sha = "0123456789abcdef0123456789abcdef01234567"
    for text, build in (
        (f"Built from {sha} on Monday.", sha),
        ("- llama.cpp `1a2b3c4d`, CUDA 12.4", "1a2b3c4d"),
        ("vLLM @ 9f8e7d6 with TP=2", "9f8e7d6"),
        ("Llama.cpp 5215 (5f5e39e1): all layers on the GPU", "5215"),
        ("使用Ollama 0.15.2在RTX 4080上", "0.15.2"),
    ):
        assert ("build", build) in stated([(1, text)], "text"), text
    assert ("build", "0a1b2c3") in stated([(1, '{"sglang_commit": "0a1b2c3", "tp": 1}')], "code")
    for text in (
        "unchanged probe.py at 70a699e4",
        f"see https://github.com/ggml-org/llama.cpp/commit/{sha}",
        "llama.cpp 2048 tokens of prompt",
    ):
        assert not [v for p, v in stated([(1, text)], "text") if p == "build"], text


def test_baseline_words_are_plain_decoding_but_not_the_other_side_of_a_comparison(tmp_path):
    """ "Baseline", "non-speculative", "vanilla", "plain autoregressive" name plain decoding for
    their clause; a draft size around a plain run is not its own (the baseline beside a speculative
    command).  Control: "1.5x over the baseline" is the other side's word: the speculative number
    beside it stays speculative."""
    cf = _drafted(
        "# Speculative decoding on an RTX 4090\n\n"
        "```\nllama-server -m a.gguf -md b.gguf --draft-max 8\n```\n\n"
        "Baseline (non-speculative): 40.5 t/s.\n\nVanilla ran at 41.5 t/s.\n\n"
        "Speculative decoding gave 60.5 t/s, 1.5x over the baseline.\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims if c.unit == "t/s"}
    assert got[40.5]["decoding"] == "plain" and "block_max" not in got[40.5]
    assert got[41.5]["decoding"] == "plain" and "block_max" not in got[41.5]
    assert (got[60.5]["decoding"], got[60.5]["block_max"]) == ("speculative", 8)


def test_tokens_generated_in_words():
    """ "a 256-token summarization output", "generating 512 tokens", "512 gen" are the tokens each run
    generated.  Controls: a prompt's "2000-token prompt", "512 tokens of prompt" state none."""
    for text, n in (
        ("Method: 256-token natural summarization output, averaged over 2 runs", 256),
        ("each run generating 512 tokens", 512),
        ("- Wiki prompt, 512 gen: 309.76 PP", 512),
        ("128 new tokens per request", 128),
    ):
        assert ("tokens_generated", n) in stated([(1, text)], "text"), text
    for text in ("a 2000-token prompt", "512 tokens of prompt"):
        assert not [v for p, v in stated([(1, text)], "text") if p == "tokens_generated"], text


def test_a_backend_by_the_builds_own_words():
    """A build's CMake flag ("-DGGML_CUDA=ON", "GGML_CUDA_FORCE_MMQ", "LLAMA_CUBLAS", "GGML_HIP"), a
    tool's "Backend: vulkan0" line (in a code block too) and "CPU-only" name the backend.  Control:
    "CUDA_VISIBLE_DEVICES" and a "ggml_backend" log word name none."""
    for text, backend in (
        ("built with -DGGML_CUDA=ON", "CUDA"),
        ("image with `DGGML_CUDA_FORCE_MMQ=ON`", "CUDA"),
        ("make LLAMA_CUBLAS=1", "CUDA"),
        ("cmake -DGGML_HIP=ON", "ROCm"),
        ("CPU-only run on a laptop", "CPU"),
    ):
        assert ("backend", backend) in stated([(1, text)], "text"), text
    assert ("backend", "Vulkan") in stated([(1, "  Backend:  vulkan0")], "code")
    for text in ("CUDA_VISIBLE_DEVICES=1 python bench.py", "ggml_backend_init: done"):
        assert not [v for p, v in stated([(1, text)], "code") if p == "backend"], text


def test_a_draft_size_in_a_column_header_or_a_flag_label_cell(tmp_path):
    """A value column's header stating a draft size ("MTP (n_max=6) tok/s", "`n_max:16`") gives it to
    the column; a label cell of flags ("--spec-draft-n-max 2") to its row.  Control: a header naming
    two sizes ("n-max 2 vs n-max 4") gives none."""
    from benchbook.audit.draftcontext import cell_conditions, header_settings

    assert header_settings("MTP (n_max=6 --spec-draft-p-min 0.75) tok/s") == {"block_max": 6}
    assert header_settings("`n_max:16`") == {"block_max": 16}
    assert header_settings("`n_max:0`") == {"decoding": "plain"}  # the column that drafts nothing
    assert header_settings("n-max 2 vs n-max 4") == {}
    assert cell_conditions("--spec-draft-n-max 2") == {"block_max": 2}
    assert cell_conditions("`-ngl 99 -fa on`") == {"offload.n_gpu_layers": 99, "flash_attn": True}
    cf = _drafted(
        "# MTP on a 3090\n\n| Prompt | Plain tok/s | MTP (n_max=6) tok/s |\n|---|---|---|\n"
        "| code | 30.5 | 45.5 |\n\n| Setting | tok/s |\n|---|---|\n| --spec-draft-n-max 2 | 40.5 |\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert "block_max" not in got[30.5] and got[45.5]["block_max"] == 6
    assert got[40.5]["block_max"] == 2

"""Conditions that are settings, not names (``benchbook claims draft``, issue 29): the decoding, the
draft size (``block_max``), the build, the sampling, the tokens generated and their cap -- from the
flags of a command line (``draftcommand``) and the words of a post (``draftcontext``), each carried
to the claims of its own scope only."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines, conditions_of
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

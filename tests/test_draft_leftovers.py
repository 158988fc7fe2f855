"""Workload kinds of ``benchbook claims draft`` (issue 29) that earlier passes left: a serving
engine's batch size as its concurrency.  Made-up posts; each kind with a control of what must
not change."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_serving_engines_batch_size_is_its_concurrency(tmp_path):
    """ "batch size N" of vLLM, SGLang or TensorRT-LLM (prose, a table's column, a launch flag)
    counts the sequences served at once: ``concurrency``.  Control: llama.cpp's ``-b`` (tokens of
    the logical batch) stays ``batch``."""
    cf = _drafted("# Serving\n\nWith SGLang at batch size 16 the box gave 412.5 tok/s.\n", tmp_path)
    got = _cond(cf, cf.claims[0])
    assert (got.get("concurrency"), got.get("batch")) == (16, None)
    cf = _drafted(
        "# Sweep on vLLM\n\nRates in tok/s.\n\n| Batch Size | Throughput |\n|---|---|\n"
        "| 4 | 230.5 |\n| 32 | 1310.25 |\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert [(got[v].get("concurrency"), got[v].get("batch")) for v in (230.5, 1310.25)] == [
        (4, None),
        (32, None),
    ]
    cf = _drafted(
        "# Launch\n\n```\nvllm serve Qwen/Qwen3-8B --max-num-seqs 24\n```\n\nIt gave 655.5 tok/s.\n",
        tmp_path,
    )
    got = _cond(cf, cf.claims[0])
    assert (got.get("concurrency"), got.get("engine")) == (24, "vLLM")
    cf = _drafted(
        "# CPU run\n\n```\nllama-bench -m Mistral-7B-Q4_0.gguf -b 256 -p 512\n```\n\n"
        "Prompt processing reached 88.5 tok/s.\n",
        tmp_path,
    )
    got = _cond(cf, cf.claims[0])
    assert (got.get("batch"), got.get("concurrency")) == (256, None)


def test_llama_speculative_summary_counts_are_draft_size_and_tokens_generated(tmp_path):
    """llama-speculative's summary after a run ("n_draft = 8", "n_predict = 412" beside its
    n_drafted/n_accept counts) states the draft size (``block_max``) and the tokens the run
    generated (``tokens_generated``), not a cap.  Control: a request body's "n_predict": 300 is
    the request's cap."""
    cf = _drafted(
        "# Spec run\n\n```\ndecoded  412 tokens in    9.250 seconds, speed:   44.541 t/s\n\n"
        "n_draft   = 8\nn_predict = 412\nn_drafted = 520\nn_accept  = 301\naccept    = 57.885%\n```\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert (got[57.885].get("block_max"), got[57.885].get("tokens_generated"), got[57.885].get("cap")) == (
        8,
        412,
        None,
    )
    cf = _drafted(
        '# Request\n\n```\ncurl localhost:8080/completion -d \'{"n_predict": 300, "prompt": "hi"}\'\n'
        "prompt eval rate: 120.5 tokens/s\n```\n",
        tmp_path,
    )
    got = _cond(cf, cf.claims[0])
    assert (got.get("cap"), got.get("tokens_generated"), got.get("block_max")) == (300, None, None)


def test_a_label_line_in_code_output_names_the_arm_of_the_lines_after_it(tmp_path):
    """In a code block of output, a line ending in ":" with no result ("Medusa (num_steps=3):")
    names the draft size of the result lines after it, up to the next label, over the command's.
    Control: result lines under no label keep the command's draft size."""
    text = (
        "# Sweep\n\nI ran `python -m sglang.launch_server --model-path m --speculative-num-steps 6`.\n\n"
        "```\n{body}```\n"
    )
    body = (
        "Medusa (num_steps=3):\nSamples: 40, Throughput: 150.25 token/s, Acceptance length: 2.5\n\n"
        "Medusa (num_steps=6):\nSamples: 40, Throughput: 171.75 token/s, Acceptance length: 3.25\n"
    )
    cf = _drafted(text.format(body=body), tmp_path)
    got = {c.value: _cond(cf, c).get("block_max") for c in cf.claims}
    assert (got[150.25], got[2.5], got[171.75], got[3.25]) == (3, 3, 6, 6)
    body = "Samples: 40, Throughput: 150.25 token/s, Acceptance length: 2.5\n"
    cf = _drafted(text.format(body=body), tmp_path)
    assert {c.value: _cond(cf, c).get("block_max") for c in cf.claims} == {150.25: 6, 2.5: 6}


def test_a_result_line_printed_again_with_new_numbers_is_the_next_run(tmp_path):
    """The same result line printed two or more times in one block with other numbers ("speed:
    33.5 tok/s") reports one run each: ``run_index`` 1, 2, ...  Controls: a label's own
    number ("rate at step 2: 0.4") names a position, and a line stating a setting between the
    printings ("threads = 8") changes the arm: no run index."""
    cf = _drafted(
        "# Runs\n\n```\nspeed: 33.5 tok/s\nspeed: 35.5 tok/s\nspeed: 31.5 tok/s\n```\n",
        tmp_path,
    )
    got = {c.value: _cond(cf, c).get("run_index") for c in cf.claims}
    assert (got[33.5], got[35.5], got[31.5]) == (1, 2, 3)
    cf = _drafted(
        "# Positions\n\n```\nacceptance rate at step 1: 0.62\nacceptance rate at step 2: 0.41\n```\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("run_index") for c in cf.claims] == [None, None]
    cf = _drafted(
        "# Threads\n\n```\nthreads = 4\nspeed: 33.5 tok/s\nthreads = 8\nspeed: 46.5 tok/s\n```\n",
        tmp_path,
    )
    assert [_cond(cf, c).get("run_index") for c in cf.claims] == [None, None]


def test_a_prompt_label_counting_tokens_names_the_prompt_rate(tmp_path):
    """mlx-lm's "Prompt: N tokens, R tokens-per-sec" line states the prompt's rate
    (``prefill_tps``), beside "Generation: …" (``decode_tps``).  Control: a "Prompt:" setup line
    naming the prompt's words leaves a generation rate as it was."""
    cf = _drafted(
        "# M2 run\n\nPrompt: 22 tokens, 310.25 tokens-per-sec\n\n"
        "Generation: 128 tokens, 27.5 tokens-per-sec\n",
        tmp_path,
    )
    assert {c.value: c.metric for c in cf.claims if c.unit != "tokens"} == {
        310.25: "prefill_tps",
        27.5: "decode_tps",
    }
    cf = _drafted("# M2 run\n\nPrompt: tell a story, 128 tokens at 27.5 tok/s\n", tmp_path)
    assert {c.value: c.metric for c in cf.claims if c.unit != "tokens"} == {27.5: "decode_tps"}


def test_one_device_written_with_a_count_and_a_bare_card_number_under_a_gpu_label():
    """ "1x4090" / "1× H100" is one device: the card's full name with no count (SOURCES.md: several
    devices only carry "Nx"); a table cell "4070" under a hardware label is the GeForce card.
    Controls: "2x3090" keeps its count; "11x4090" and a bare "4070" in prose name no hardware."""
    from benchbook.audit.draftnames import hardware_of, mentions

    def hw(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert hw("ran on 1x4070 at home") == ["NVIDIA GeForce RTX 4070"]
    assert hw("rented 1× H100 for it") == ["NVIDIA H100"]
    assert hw("rented 2x3090 for it") == ["2x NVIDIA GeForce RTX 3090"]
    assert hw("11x4070") == [] and hw("4070 tokens") == []
    assert (hardware_of("4070"), hardware_of("3080 Ti"), hardware_of("12")) == (
        "NVIDIA GeForce RTX 4070",
        "NVIDIA GeForce RTX 3080 Ti",
        None,
    )

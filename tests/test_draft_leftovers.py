"""Workload kinds of ``benchbook claims draft`` (issue 29) that earlier passes left: a serving
engine's batch size as its concurrency.  Made-up posts; each kind with a control of what must
not change."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted


def test_a_serving_engines_batch_size_is_its_concurrency(tmp_path):
    """"batch size N" of vLLM, SGLang or TensorRT-LLM (prose, a table's column, a launch flag)
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
    assert [(got[v].get("concurrency"), got[v].get("batch")) for v in (230.5, 1310.25)] == [(4, None), (32, None)]
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

"""A breaker's findings against session 61's drafter kinds (issue 29), each with its right value: the
phase word of a line's lead label, a change's rate carried to another quantity, a KV cache's type
read as the weights', a machine or backend before a GGUF type read as the model, a branch column
dropped as a build, "Main" (the main model) read as a branch, two arms run twice read as four runs, a
client's alias served as the model, a clock's seconds read as a version, several SpecForge
configurations read as one, "Ring" read as a model, a batch size read as seconds, a range "depending
on the prompt" read as a change, another tool's "Running: N reqs", "tokens/batch" read as a count;
and the label patterns' time on a long line."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines
from benchbook.audit.draftnames import mentions
from benchbook.audit.toollines import tool_results
from drafting import conditions as _cond
from drafting import cpu_growth
from drafting import drafted as _drafted


def test_a_lead_label_keeps_its_phase_word():
    """ "Prefill: throughput: 1200.5 tok/s, Decode: throughput: 45.3 tok/s": the prefill's rate and the
    decode's (the lead label was blanked and the phases swapped)."""
    got = {
        r.value: r.metric
        for r in tool_results([(1, "Prefill: throughput: 1200.5 tok/s, Decode: throughput: 45.3 tok/s")])
    }
    assert got == {"1200.5": "prefill_tps", "45.3": "decode_tps"}


def test_a_changes_rate_is_not_carried_to_another_quantity(tmp_path):
    """ "… and the MMLU score went from 70.1 to 71.5 (+2.0%)": no tok/s for the score's pair."""
    post = (
        "Decode speed went from 41.2 to 57.6 tok/s (+39.8%) with the patch, and the MMLU score went from "
        "70.1 to 71.5 (+2.0%) on the same run.\n"
    )
    cf = _drafted(post, tmp_path)
    rates = sorted(float(c.value) for c in cf.claims if str(c.unit) == "tok/s")
    assert rates == [41.2, 57.6]


def test_a_kv_cache_label_is_no_weights_quant(tmp_path):
    """ "f16:" and "q8_0:" over the blocks of a post that sets ``-ctk``: the cache's types compared; the
    model file's Q4_K_M stays each claim's quant."""
    timing = (
        "llama_perf_context_print:        eval time =    {} ms /   255 runs   (    8.24 ms per token,   "
        "{} tokens per second)"
    )
    command = "llama-cli -m Qwen3-8B-Q4_K_M.gguf -ngl 99 -fa -ctk q8_0 -ctv q8_0 -n 256"
    post = (
        "KV cache test on an RTX 3090\n\n```\n" + command + "\n```\n\n"
        "f16:\n\n```\n" + timing.format("2100.00", "121.43") + "\n```\n\n"
        "q8_0:\n\n```\n" + timing.format("2200.00", "115.91") + "\n```\n"
    )
    cf = _drafted(post, tmp_path)
    assert cf.claims
    assert {_cond(cf, c).get("quant") for c in cf.claims} == {"Q4_K_M"}


def test_a_machine_or_backend_before_a_gguf_type_is_no_model():
    """ "RTX-3090 Q4_K_M", "ROCm-6.4 Q4_K_M": a machine's and a backend's names, no model."""

    def model(text: str) -> list[str]:
        return [str(m.value) for m in mentions(text) if m.path == "model"]

    assert "RTX-3090" not in model("On my RTX-3090 Q4_K_M runs at 112 t/s with Qwen3-8B.")
    assert model("with ROCm-6.4 Q4_K_M decode is 98 t/s") == []
    assert model("with Vulkan-1.4 Q4_K_M it is 104 t/s") == []
    assert model("NCCL_ALGO=Ring 2.5 times faster than Tree") == []


def test_a_build_column_of_branches_stays_the_build(tmp_path):
    """ "| build |" over "master" and "cuda-graphs": branches are builds (only a switched setting,
    "graphs off", is none)."""
    post = "| build | tg128 (t/s) |\n| --- | ---: |\n| master | 41.47 |\n| cuda-graphs | 73.85 |\n"
    cf = _drafted(post, tmp_path)
    assert sorted(_cond(cf, c)["build"] for c in cf.claims) == ["cuda-graphs", "master"]


def test_main_in_a_drafting_list_is_the_main_model_not_a_branch(tmp_path):
    """ "- Main (Qwen3-32B alone): 21.4 tok/s" over "- Draft (…): 33.9 tok/s": no build."""
    post = "- Main (Qwen3-32B alone): 21.4 tok/s\n- Draft (Qwen3-0.6B as draft): 33.9 tok/s\n"
    cf = _drafted(post, tmp_path)
    assert {_cond(cf, c).get("build") for c in cf.claims} == {None}


def test_two_arms_run_twice_are_no_four_runs(tmp_path):
    """ "ctx = 4096" / "ctx = 32768" before alternate printings: two arms, no run index."""
    arms = "ctx = 4096\neval: {}\nctx = 32768\neval: {}\n"
    post = "```\n" + arms.format("120.1 t/s", "95.3 t/s") + arms.format("119.8 t/s", "95.9 t/s") + "```\n"
    cf = _drafted(post, tmp_path)
    assert len(cf.claims) == 4
    assert {_cond(cf, c).get("run_index") for c in cf.claims} == {None}


def test_a_clients_alias_is_no_model_and_several_configurations_set_none():
    """ "--served-model-name gpt-4o" (an alias for OpenAI clients) names no model; SpecForge's
    "--config-list 1,0,0,0 1,3,1,4 8,3,1,4" runs three configurations: no one concurrency."""
    served = command_lines(
        [(1, "vllm serve /data/local_qwen3_32b_path --tensor-parallel-size 2 --served-model-name gpt-4o")]
    )[0].conditions
    assert "model" not in served
    sweep = command_lines(
        [(1, "python bench_eagle3.py --model-path m --config-list 1,0,0,0 1,3,1,4 8,3,1,4")]
    )[0].conditions
    assert "concurrency" not in sweep
    assert "speculative_num_steps" not in sweep.get("other", {})


def test_a_clocks_seconds_are_no_version_and_a_batch_no_time():
    """ "[12.52] tok/sec: 65.05, dt: 14.70, toks: 956": 12.52 is a clock's seconds, no build (a
    version has three parts or a "v"); "tok/sec: 64.0, batch: 4, toks: 256": 256 / 4 = 64, but a
    batch is no time."""
    clock = tool_results([(1, "[12.52] tok/sec: 65.05, dt: 14.70, toks: 956")])
    assert all("build" not in r.conditions for r in clock)
    assert {r.metric for r in clock} == {"decode_tps", "duration", "tokens"}
    batch = tool_results([(1, "tok/sec: 64.0, batch: 4, toks: 256")])
    assert "duration" not in {r.metric for r in batch}


def test_a_range_depending_on_the_prompt_stays_a_range(tmp_path):
    """ "40 to 44 tok/s (+10%) depending on the prompt": 44 / 40 is +10%, but the words say it spans."""
    cf = _drafted("With MTP enabled I now get 40 to 44 tok/s (+10%) depending on the prompt.\n", tmp_path)
    assert [tuple(float(x) for x in c.range) for c in cf.claims if c.range is not None] == [(40.0, 44.0)]


def test_another_tools_running_requests_change_no_metric():
    """ "[client] Running: 8 reqs | prompt tok/s: 950.2 | gen tok/s: 41.7 (per request avg)": not vLLM's
    engine log (no "Avg … throughput"): the prompt rate stays a prefill rate."""
    got = {
        r.value: r.metric
        for r in tool_results(
            [(1, "[client] Running: 8 reqs | prompt tok/s: 950.2 | gen tok/s: 41.7 (per request avg)")]
        )
    }
    assert got.get("950.2") == "prefill_tps"


def test_tokens_per_batch_is_no_count(tmp_path):
    """ "With 2048 tokens/batch the prefill ran at 5400 tok/s; decode was 3.1 sec/batch": no claim of
    2048 tokens; 3.1 s a batch is a time."""
    cf = _drafted(
        "With 2048 tokens/batch the prefill ran at 5400 tok/s; decode was 3.1 sec/batch of 32 sequences.\n",
        tmp_path,
    )
    values = {(float(c.value), str(c.unit)) for c in cf.claims}
    assert (2048.0, "tokens") not in values
    assert (3.1, "s") in values
    assert (5400.0, "tok/s") in values


def test_a_long_label_line_stays_linear(tmp_path):
    """ "fp16" then thousands of spaces and "x" over a code block: the label patterns were quadratic
    (0.11 s at 5k characters, 1.69 s at 20k); a label is short, so a long line is none."""

    def run(n: int) -> None:
        _drafted("fp16" + " " * n + "x\n\n```\neval: 40.1 t/s\n```\n", tmp_path)

    assert cpu_growth(run, 20_000) < 8

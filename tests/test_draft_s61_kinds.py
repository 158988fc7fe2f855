"""Kinds fixed in issue 29's session 61 (read from the thirty-eighth held-out set's misses, h446–h455,
once a thirty-ninth set replaced it as the clean one), each with controls: a pair "A to B" with its own
change after it, or falling, was read as a range (or lost its unit); a change of the paragraph after
one in a rate lost the rate; a "build" column of words was a build; a name no family list knows before
its GGUF type was no model; images a second, "sec/batch" and "req/min" were no units; a script's
"tok/sec: R, dt: T, toks: N" line, LMDeploy's profile_throughput report and vLLM's engine log under
load were misread; a label of a weights' format over a block, a list item led by a side of a change,
"N tokens returned", SpecForge's ``--config-list``, a placeholder model folder and a fraction before
its counts were not read."""

from __future__ import annotations

from benchbook.audit.draftcommand import command_lines
from benchbook.audit.draftnames import mentions
from benchbook.audit.draftprose import numbers
from benchbook.audit.toollines import tool_results
from drafting import conditions as _cond
from drafting import drafted as _drafted


def _values(cf) -> list[tuple[float, str, str]]:
    return sorted((float(c.value), str(c.unit), c.metric) for c in cf.claims if c.value is not None)


def test_a_pair_with_its_own_change_is_a_change_not_a_range(tmp_path):
    """ "47.7 to 72.2 long gen (+51.4%)" (51.36% = 72.2 / 47.7 - 1) is two rates in the unit of the
    change before it in the paragraph; "857.0 to 853.0 tok/s (-0.5%)" falls, so it is no range either,
    and its first side is the prefill's by its own word, not the decode rate of the line above."""
    post = (
        "GTX 1080, llama.cpp b10549.\n\n"
        "MoE Ling-3.0-tiny Q6_K, from 41.2 to 57.6 tok/s (+39.8%)\n"
        "47.7 to 72.2 long gen (+51.4%)\n"
        "prefill 857.0 to 853.0 tok/s (-0.5%)\n"
    )
    cf = _drafted(post, tmp_path)
    assert [(v, m) for v, u, m in _values(cf)] == [
        (41.2, "decode_tps"),
        (47.7, "decode_tps"),
        (57.6, "decode_tps"),
        (72.2, "decode_tps"),
        (853.0, "prefill_tps"),
        (857.0, "prefill_tps"),
    ]
    assert {str(c.unit) for c in cf.claims} == {"tok/s"}
    assert all(c.range is None for c in cf.claims)
    assert sorted(float(s.value) for s in cf.statements) == [-0.5, 39.8, 51.4]
    assert {_cond(cf, c)["model"] for c in cf.claims} == {"Ling-3.0-tiny"}
    assert {_cond(cf, c)["quant"] for c in cf.claims} == {"Q6_K"}


def test_a_rising_pair_without_its_change_stays_a_range(tmp_path):
    """Control: "6.1 to 6.3 tok/s" with no change after it, or with a change that is not the pair's
    ("(+40%)" where 6.3 / 6.1 is +3.3%), is a range."""
    for text in ("It runs at 6.1 to 6.3 tok/s.", "It runs at 6.1 to 6.3 tok/s (+40% over last year)."):
        ns = [n for n in numbers(text) if n.unit == "tok/s"]
        assert [(n.low, n.high) for n in ns] == [("6.1", "6.3")], text


def test_a_unitless_change_takes_no_rate_across_a_blank_line(tmp_path):
    """Control: the change before it is in another paragraph: "47.7 to 72.2 (+51.4%)" has no unit."""
    post = "from 41.2 to 57.6 tok/s (+39.8%)\n\n47.7 to 72.2 long gen (+51.4%)\n"
    cf = _drafted(post, tmp_path)
    assert [v for v, u, _ in _values(cf) if u == "tok/s"] == [41.2, 57.6]
    assert not any(c.value is not None and float(c.value) in (47.7, 72.2) for c in cf.claims)


def test_a_build_column_of_words_is_no_build(tmp_path):
    """ "| build |" over "graphs off" / "graphs on": the cells have no digit, so they are the runs'
    own words (``other.build``) and the post's "b10549" is each row's build; a column of real builds
    stays the build (control)."""
    post = (
        "Tested with llama.cpp build b10549 on a GTX 1080.\n\n"
        "| build | pp512 | tg64 |\n| --- | ---: | ---: |\n"
        "| graphs off | 1935.42 ± 27.27 | 41.47 ± 6.15 |\n| graphs on | 1908.80 ± 40.07 | 73.85 ± 4.63 |\n"
    )
    cf = _drafted(post, tmp_path)
    assert len(cf.claims) == 4
    assert {_cond(cf, c)["build"] for c in cf.claims} == {"b10549"}
    assert {_cond(cf, c)["other"]["build"] for c in cf.claims} == {"graphs off", "graphs on"}
    (tmp_path / "control").mkdir()
    control = _drafted(
        "| build | tg64 |\n| --- | ---: |\n| b4000 | 41.47 |\n| b5000 | 73.85 |\n", tmp_path / "control"
    )
    assert sorted(_cond(control, c)["build"] for c in control.claims) == ["b4000", "b5000"]


def test_a_name_no_list_knows_is_the_model_before_its_gguf_type():
    """ "Ling-3.0-tiny Q6_K", "Qwen-based 9B Q5_K_M" and "7B q4_K_S" name models; "handles 0.8B Q8_0"
    names the 0.8B by its size, not "handles 0.8B" (a word and a size), and "b4000 Q4_0" none (a
    build)."""

    def model(text: str) -> list[str]:
        return [str(m.value) for m in mentions(text) if m.path == "model"]

    assert model("MoE Ling-3.0-tiny Q6_K, from 41.2") == ["Ling-3.0-tiny"]
    assert model("Dense Qwen-based 9B Q5_K_M, from 26.3") == ["Qwen-based 9B"]
    assert model("* 7B q4_K_S :") == ["7B"]
    assert model("here's how each platform handles 0.8B Q8_0:") == ["0.8B"]
    assert model("b4000 Q4_0 results") == []
    assert model("LLAVA1.5-13B on an H100") == ["LLAVA1.5-13B"]
    assert model("----- granite4:latest -----") == ["granite4"]


def test_images_a_second_a_time_per_batch_and_requests_a_minute_are_units():
    """ "9.8 img/sec" is an image rate, "3.34 sec/batch" a time, "1181.649 req/min" a request rate;
    "2 GB/layer" stays no size (control)."""
    got = {(n.text, n.unit) for n in numbers("~9.8 img/sec, 3.34 sec/batch, 1181.649 req/min, 2 GB/layer")}
    assert ("9.8", "img/s") in got
    assert ("3.34", "s") in got
    assert ("1181.649", "req/min") in got
    assert not any(u == "GB" for _, u in got)


def test_a_script_line_of_rate_time_and_tokens():
    """ "[0.24.0] tok/sec: 65.048…, dt: 14.696…, toks: 956": the rate, the count (no rate: "toks" is
    tokens), and dt read as seconds because 956 / 14.697 = 65.05 (the line's own rate); the version tag
    is each one's build, and the count the rate's tokens generated.  A dt that does not divide so
    stays unread (control)."""
    line = "  [0.24.0] tok/sec: 65.04847030540552, dt: 14.696732997894287, toks: 956"
    got = {(r.metric, r.value, r.unit) for r in tool_results([(1, line)])}
    assert got == {
        ("decode_tps", "65.04847030540552", "tok/s"),
        ("duration", "14.696732997894287", "s"),
        ("tokens", "956", "tokens"),
    }
    rate = next(r for r in tool_results([(1, line)]) if r.metric == "decode_tps")
    assert rate.conditions == {"build": "0.24.0", "tokens_generated": 956}
    off = "  [0.24.0] tok/sec: 65.04847030540552, dt: 3.5, toks: 956"
    assert {r.metric for r in tool_results([(1, off)])} == {"decode_tps", "tokens"}


def test_a_script_printout_repeated_per_run_gives_run_indexes(tmp_path):
    """The same printout twice (its "Warming up [0.30.6] / …" lines printed again before each run)
    is two runs, not two arms: run_index 1 and 2."""
    block = (
        "Warming up [0.30.6] / granite4:latest\nTesting [0.30.6] / granite4:latest\n"
        "  [0.24.0] tok/sec: {a}, dt: {b}, toks: 956\n"
    )
    post = (
        "On my GB10 with Ollama:\n\n```\n"
        + block.format(a="65.04847030540552", b="14.696732997894287")
        + block.format(a="63.93552710454234", b="14.952563047409058")
        + "```\n"
    )
    cf = _drafted(post, tmp_path)
    runs = {(float(c.value), _cond(cf, c).get("run_index")) for c in cf.claims if c.metric == "decode_tps"}
    assert runs == {(65.04847030540552, 1), (63.93552710454234, 2)}


_LMDEPLOY = """\
A100 llama3-8b tp1

fp16

```
concurrency: 256
elapsed_time: 152.330s

first token latency(s)(min, max, ave): 0.099, 4.162, 0.664
per-token latency(s) percentile(50, 75, 95, 99): [0.032, 0.034, 0.231, 0.41]

token throughput (completion token): 4022.103 token/s
token throughput (prompt + completion token): 8464.964 token/s
RPM (request per minute): 1181.649 req/min
```

w8a8
```
concurrency: 256
token throughput (completion token): 4408.406 token/s
```
"""


def test_lmdeploy_profile_throughput_report(tmp_path):
    """Each listed statistic is a claim of its own (min, max, mean; p50…p99), the completion throughput
    of 256 requests at once stays a throughput, prompt + completion is the total, requests a minute
    are a request rate, and the label over each block ("fp16", "w8a8") is its quant."""
    cf = _drafted(_LMDEPLOY, tmp_path)
    by_value = {float(c.value): c for c in cf.claims}
    stats = {
        float(c.value): _cond(cf, c)["other"]["stat"]
        for c in cf.claims
        if c.metric in ("ttft", "ms_per_token")
    }
    assert stats == {
        0.099: "min",
        4.162: "max",
        0.664: "mean",
        0.032: "p50",
        0.034: "p75",
        0.231: "p95",
        0.41: "p99",
    }
    assert by_value[4022.103].metric == "throughput"
    assert by_value[4408.406].metric == "throughput"
    assert by_value[8464.964].metric == "total_throughput"
    assert (by_value[1181.649].metric, str(by_value[1181.649].unit)) == ("request_throughput", "req/min")
    assert _cond(cf, by_value[4022.103])["quant"] == "fp16"
    assert _cond(cf, by_value[4408.406])["quant"] == "w8a8"
    assert {_cond(cf, c)["concurrency"] for c in cf.claims} == {256}


def test_a_one_stream_throughput_label_is_still_decode(tmp_path):
    """Control: the same throughput line with no concurrency in its block is one stream's decode."""
    cf = _drafted("```\ntoken throughput (completion token): 40.1 token/s\n```\n", tmp_path)
    assert [c.metric for c in cf.claims] == ["decode_tps"]


def test_vllm_engine_log_under_load_and_its_0_9_acceptance_line(tmp_path):
    """ "Running: 337 reqs": the prompt and generation throughputs of many requests (input_throughput,
    throughput); "Running: 1 reqs": one request's prefill and decode rates (control); vLLM 0.9's
    "SpecDecoding metrics: Draft acceptance rate: 38.8%" with its counts 150 / 387."""
    post = (
        "vLLM 0.9.0.1 with n-gram speculation:\n\n```text\n"
        "INFO 06-06 14:20:34 [loggers.py:116] Engine 000: Avg prompt throughput: 11244.6 tokens/s, "
        "Avg generation throughput: 267.6 tokens/s, Running: 337 reqs, Waiting: 633 reqs\n"
        "INFO 06-06 14:20:34 [metrics.py:86] SpecDecoding metrics: Draft acceptance rate: 38.8%, "
        "Mean acceptance length: 2.16, Accepted: 150 tokens, Drafted: 387 tokens\n"
        "INFO 06-06 14:20:44 [loggers.py:116] Engine 000: Avg prompt throughput: 51.0 tokens/s, "
        "Avg generation throughput: 20.5 tokens/s, Running: 1 reqs, Waiting: 0 reqs\n```\n"
    )
    cf = _drafted(post, tmp_path)
    metric = {float(c.value): c.metric for c in cf.claims}
    assert metric[11244.6] == "input_throughput"
    assert metric[267.6] == "throughput"
    assert metric[51.0] == "prefill_tps"
    assert metric[20.5] == "decode_tps"
    rate = next(c for c in cf.claims if c.metric == "acceptance_rate")
    assert (float(rate.value), str(rate.unit)) == (38.8, "%")
    assert (rate.counts.accepted, rate.counts.drafted) == (150, 387)


def test_a_list_item_led_by_a_side_of_a_change_is_its_build(tmp_path):
    """ "* main branch (`--threads 13`): …" and "* PR (`--threads 1`): …" under "7B q4_K_S": each item's
    numbers are that side's build, of the 7B in q4_K_S, with the "500 tokens returned" generated."""
    post = (
        "H100 + Intel(R) Xeon(R) Platinum 8480+.  500 tokens returned.\n\n"
        "* 7B q4_K_S :\n"
        "  * main branch (`--threads 13`): 39.2ms/tok (25.51 tokens/s)\n"
        "  * PR (`--threads 1`): 16.4 ms/token (60.97 tokens/s)\n"
    )
    cf = _drafted(post, tmp_path)
    measured = [c for c in cf.claims if c.metric != "tokens"]  # (the 500 is a count of its own too)
    builds = {float(c.value): _cond(cf, c).get("build") for c in measured}
    assert builds == {39.2: "main branch", 25.51: "main branch", 16.4: "PR", 60.97: "PR"}
    assert {(_cond(cf, c)["model"], _cond(cf, c)["quant"]) for c in measured} == {("7B", "q4_K_S")}
    assert {_cond(cf, c)["tokens_generated"] for c in measured} == {500}


def test_specforge_config_list_and_a_lead_in_naming_the_base_runs(tmp_path):
    """SpecForge's bench_eagle3.py runs SGLang; "--config-list 1,3,1,4" is batch 1 (concurrency), 3 steps,
    topk 1, 4 draft tokens; "tp4 h20" over the table is four H20s... and a table under "The base model
    speed:" is plain decoding although the command above drafts."""
    line = "python bench_eagle3.py --model Qwen/Qwen3-8B --speculative-algorithm EAGLE3 --config-list 1,3,1,4"
    command = command_lines([(1, line)])[0].conditions
    assert command["engine"] == "SGLang"
    assert command["concurrency"] == 1
    assert command["other"]["speculative_num_steps"] == 3
    assert command["other"]["speculative_num_draft_tokens"] == 4
    placeholder = command_lines([(1, "python bench_eagle3.py --model Qwen/Qwen3-8B --config-list x,x,x,x")])
    assert "concurrency" not in placeholder[0].conditions
    post = (
        "```\npython bench_eagle3.py --model Qwen/Qwen3-30B-A3B --speculative-algorithm EAGLE3 "
        "--tp-size 2 --config-list x,x,x,x\n```\n\nThe base model speed:\n\n"
        "bs | throughput\n-- | --\n1 | 222.47\n4 | 566.21\n"
    )
    cf = _drafted(post, tmp_path)
    assert {_cond(cf, c)["decoding"] for c in cf.claims} == {"plain"}
    assert {_cond(cf, c)["engine"] for c in cf.claims} == {"SGLang"}


def test_a_score_column_of_fractions_is_accuracy(tmp_path):
    """ "| Accuracy |" over "N/A", "0.955", "0.615": ratios of the accuracy metric, "N/A" no result; an
    "Accept Length" column beside it stays the accepted length (control)."""
    post = (
        "| Benchmark | Accept Length | Accuracy |\n|---|---|---|\n"
        "| mtbench | 2.59 | N/A |\n| gsm8k | 3.13 | 0.955 |\n| math500 | 3.52 | 0.615 |\n"
    )
    cf = _drafted(post, tmp_path)
    assert sorted((float(c.value), c.metric) for c in cf.claims) == [
        (0.615, "accuracy"),
        (0.955, "accuracy"),
        (2.59, "mean_accepted_length"),
        (3.13, "mean_accepted_length"),
        (3.52, "mean_accepted_length"),
    ]


def test_a_fraction_before_its_counts_is_the_acceptance_rate(tmp_path):
    """ "0.81 (1834 accepted / 2264 drafted)": 1834 / 2264 = 0.8101, so 0.81 is the acceptance rate with
    those counts (a new user's paste left it unplaced); "0.5 (1834 accepted / 2264 drafted)" does not
    divide so: no rate of the counts (control)."""
    cf = _drafted(
        "Speculative decoding on a 4090: 45.2 tok/s, 0.81 (1834 accepted / 2264 drafted).\n", tmp_path
    )
    rate = next(c for c in cf.claims if c.metric == "acceptance_rate")
    assert (float(rate.value), str(rate.unit)) == (0.81, "ratio")
    assert (rate.counts.accepted, rate.counts.drafted) == (1834, 2264)
    (tmp_path / "control").mkdir()
    other = _drafted(
        "Speculative decoding on a 4090: 45.2 tok/s, 0.5 (1834 accepted / 2264 drafted).\n",
        tmp_path / "control",
    )
    assert not any(c.value is not None and float(c.value) == 0.5 for c in other.claims)


def test_a_placeholder_folder_serves_its_served_model_name():
    """ "vllm serve local_deepseekv3_path … --served-model-name deepseek-v3": the model is the name it
    serves; "--model-max-len 16384" (vLLM's --max-model-len misspelled) the context; a real model
    path stays the model (control)."""
    line = "vllm serve local_deepseekv3_path --model-max-len 16384 --served-model-name deepseek-v3 deepseek"
    got = command_lines([(1, line)])[0].conditions
    assert (got["model"], got["ctx"]) == ("deepseek-v3", 16384)
    real = command_lines([(1, "vllm serve Qwen/Qwen3-8B --served-model-name qwen")])[0].conditions
    assert real["model"] == "Qwen3-8B"


def test_a_paragraph_stating_a_parallel_size_counts_its_one_machine(tmp_path):
    """ "tp4 h20" over a table: four H20s run it (``draftcontext.parallel_count`` read in a paragraph
    as in a setup); a paragraph naming two machines gets no count (control)."""
    post = "tp4 h20\n\n| Benchmark | Latency (ms) |\n|---|---|\n| gsm8k | 137.10 |\n| mtbench | 461.65 |\n"
    cf = _drafted(post, tmp_path)
    assert {_cond(cf, c)["hardware"] for c in cf.claims} == {"4x NVIDIA H20"}
    (tmp_path / "control").mkdir()
    two = _drafted("TP=4 on an H20 and an H100: 137.10 ms.\n", tmp_path / "control")
    assert not any(str(_cond(two, c).get("hardware", "")).startswith("4x") for c in two.claims)


def test_a_scripts_banner_names_the_model_of_its_runs(tmp_path):
    """ "----- granite4:latest -----" over a script's result lines: the model they ran (the banner's
    Ollama tag); a banner naming no model adds none (control)."""
    line = "  [0.24.0] tok/sec: 65.04847030540552, dt: 14.696732997894287, toks: 956"
    block = "\n```\n----- {} -----\n" + line + "\n```\n"
    cf = _drafted("On my GB10 with Ollama:\n" + block.format("granite4:latest"), tmp_path)
    assert {_cond(cf, c).get("model") for c in cf.claims} == {"granite4"}
    (tmp_path / "control").mkdir()
    plain = _drafted("On my GB10 with Ollama:\n" + block.format("results"), tmp_path / "control")
    assert {_cond(plain, c).get("model") for c in plain.claims} == {None}

"""Kinds fixed in issue 29's session 63, each with controls: a new user's forum post (a llama.cpp run
with its flags in inline code, then "For comparison, vLLM 0.6.3 …:" over a vLLM log line, then a
table of the llama.cpp run) drafted its table as vLLM's, read "-n 128" beside "-p 512" as a cap on
every claim, and gave the vLLM log line llama.cpp's "-ngl 99 -fa 1"."""

from __future__ import annotations

from drafting import conditions as _cond
from drafting import drafted as _drafted

_FORUM = """# Re: llama.cpp CUDA vs Vulkan on my 3090 — updated numbers

Tried the last two builds on the same box (RTX 3090, 24 GB, Ryzen 7 5800X, 64 GB RAM),
Qwen2.5-7B-Instruct Q4_K_M, `-ngl 99 -fa 1 -p 512 -n 128`:

1.108.2 CUDA
PP 1713 TG 40

For comparison, vLLM 0.6.3 on the same card with the AWQ quant, batch of 32 requests:

```
INFO 10-12 14:03:11 metrics.py:345] Avg prompt throughput: 2310.5 tokens/s, \
Avg generation throughput: 1062.0 tokens/s, Running: 32 reqs, Swapped: 0 reqs, Pending: 0 reqs, \
GPU KV cache usage: 41.3%, CPU KV cache usage: 0.0%.
```

Summary of the CUDA run:

| Metric | Value |
|---|---|
| Prompt processing (pp512) | 1713 t/s |
| VRAM used | 5.9 GB |
"""


def _by_value(cf):
    return {float(c.value): _cond(cf, c) for c in cf.claims if c.value is not None}


def test_an_aside_names_the_block_it_introduces_not_the_table_after(tmp_path):
    """ "For comparison, vLLM 0.6.3 … with the AWQ quant …:" over a log is that log's run: the vLLM
    line is vLLM 0.6.3's with AWQ, and the table after it (the post's own llama.cpp run) keeps the
    post's engine and quant, not the aside's."""
    got = _by_value(_drafted(_FORUM, tmp_path))
    vllm = got[1062.0]
    assert (vllm["engine"], vllm["build"], vllm["quant"]) == ("vLLM", "0.6.3", "AWQ")
    table = got[5.9]
    assert (table["engine"], table["quant"]) == ("llama.cpp", "Q4_K_M")
    assert "build" not in table or table["build"] != "0.6.3"


def test_llama_cpp_flags_reach_no_vllm_claim(tmp_path):
    """ "-ngl 99 -fa 1" are llama.cpp's settings: the llama.cpp claims take them, the vLLM log
    line's claims (an engine with no layer offload or flash-attention switch) do not."""
    got = _by_value(_drafted(_FORUM, tmp_path))
    assert got[1713.0]["offload"] == {"n_gpu_layers": 99} and got[1713.0]["flash_attn"] is True
    for v in (2310.5, 1062.0):
        assert "offload" not in got[v] and "flash_attn" not in got[v]


def test_bench_lengths_in_bare_flags_are_no_cap(tmp_path):
    """ "-p 512 -n 128" with no tool: a numeric "-p" is llama-bench's prompt length, so "-n 128" is its
    tg test's length, not llama-cli's cap (n_predict): no claim gets ``cap: 128``.  Control: "-n 128"
    beside a text prompt ("-p Hello") is a cap."""
    cf = _drafted(_FORUM, tmp_path)
    assert all("cap" not in _cond(cf, c) for c in cf.claims)
    control = "# t\n\nRan `-ngl 99 -p Hello -n 128` on my RTX 3090 with llama.cpp: 40 t/s.\n"
    cf2 = _drafted(control, tmp_path)
    assert [_cond(cf2, c).get("cap") for c in cf2.claims] == [128]


def test_a_plain_lead_in_still_declares_for_the_section(tmp_path):
    """Control: a lead-in that brings in no other run ("Tested on llama.cpp b4000 with an RTX 3090:")
    over a block still names the machine for a later paragraph's numbers."""
    text = (
        "# t\n\nTested with llama.cpp on an RTX 3090:\n\n```\n"
        "llama_print_timings: eval time = 1000.00 ms / 40 runs "
        "(25.00 ms per token, 40.00 tokens per second)\n```\n\nLater I got 45 t/s with a smaller prompt.\n"
    )
    got = _by_value(_drafted(text, tmp_path))
    assert got[45.0]["hardware"] == "NVIDIA GeForce RTX 3090"


_SLOT_LOG = """# Model request: DeepSeek V4

Prefill is better now:

slot print_timing: id  3 | task 0 |
prompt eval time =  1393929.31 ms / 67865 tokens (   20.54 ms per token,    48.69 tokens per second)
       eval time =    1416.30 ms /    13 tokens (  108.95 ms per token,     9.18 tokens per second)
"""

_SUMMARY = """# DeepSeek V4 on RTX Pro 6000

It works fine:

```
============ Serving Benchmark Result ============
{backend}Successful requests:                     100
Benchmark duration (s):                  137.52
Output token throughput (tok/s):         93.08
```
"""


def test_a_servers_own_output_names_its_engine(tmp_path):
    """A post that names no engine but pastes output only one engine prints: llama-server's
    "slot print_timing" lines are llama.cpp's; ``vllm bench serve``'s summary (no "Backend:" line)
    is vLLM's, SGLang's bench_serving summary ("Backend: sglang") SGLang's; the draft says why."""
    cf = _drafted(_SLOT_LOG, tmp_path)
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"llama.cpp"}
    assert len(cf.claims) == 6
    cf = _drafted(_SUMMARY.format(backend=""), tmp_path)
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"vLLM"}
    cf = _drafted(_SUMMARY.format(backend="Backend:                                 sglang\n"), tmp_path)
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"SGLang"}


def test_a_named_engine_outweighs_the_benchmark_clients_output(tmp_path):
    """Control: ``vllm bench serve`` run against the llama-server the post names: llama.cpp's
    numbers, whatever client printed them."""
    text = _SUMMARY.replace("It works fine:", "Served with llama.cpp's llama-server:")
    cf = _drafted(text.format(backend=""), tmp_path)
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"llama.cpp"}


def test_a_model_cells_quant_in_inline_code(tmp_path):
    """ "Qwen2.5-1.5B `Q4_K_M`" in a model column: the model and its quant apart, the backticks no
    part of either (h477)."""
    text = (
        "# t\n\n| Modelo | Generación |\n|---|---|\n| Qwen2.5-1.5B `Q4_K_M` | 3.55 tok/s |\n"
        "| **Qwen2.5-0.5B** | 10.4 tok/s |\n"
    )
    got = _by_value(_drafted(text, tmp_path))
    assert (got[3.55]["model"], got[3.55]["quant"]) == ("Qwen2.5-1.5B", "Q4_K_M")
    assert got[10.4]["model"] == "Qwen2.5-0.5B" and "quant" not in got[10.4]


def test_gh200_is_a_machine(tmp_path):
    """ "on GH200": NVIDIA's Grace Hopper superchip, the machine (h485)."""
    got = _by_value(_drafted("# t\n\nllama.cpp ~22 T/s on GH200.\n", tmp_path))
    assert got[22.0]["hardware"] == "NVIDIA GH200"


def test_close_to_and_an_approximate_lead_in(tmp_path):
    """ "close to 50 t/s" is about 50; a lead-in ending in an "about" word and a colon ("测试结果大概是：",
    "The results were roughly:") makes the numbers under it approximate, in its own paragraph (h482)
    or the block after it; controls: numbers above the lead-in, and under a plain lead-in, are exact."""
    zh = (
        "# t\n\n在A40上是 30.5 tokens/s。\n同样的代码和数据集，测试结果大概是：\n"
        "A40：10.7 tokens/s  -> 16.07 tokens/s\n"
    )
    cf = _drafted(zh, tmp_path)
    about = {float(c.value): bool(c.about) for c in cf.claims}
    assert about == {30.5: False, 10.7: True, 16.07: True}
    en = "# t\n\nThe results were roughly:\n\n```\ndecode: 41.2 t/s\n```\n\nClose to 50 t/s on the other.\n"
    cf = _drafted(en, tmp_path)
    assert {float(c.value): bool(c.about) for c in cf.claims} == {41.2: True, 50.0: True}
    plain = "# t\n\nThe results were:\n\n```\ndecode: 41.2 t/s\n```\n"
    cf = _drafted(plain, tmp_path)
    assert [bool(c.about) for c in cf.claims] == [False]


def test_mlc_model_names_and_its_benchmark_script():
    """MLC LLM's model folders end with its weight format ("Llama-2-7b-chat-hf-q4f16_1-MLC",
    "…-q4f16_ft/params"): the model and the quant apart; jetson-containers' "python3
    /opt/mlc-llm/benchmark.py" is MLC LLM's run, its "--prompt" file the prompt, "--max-new-tokens"
    the cap (h483).  Control: a GGUF name is read as before."""
    from benchbook.audit.draftcommand import command_lines, model_and_quant

    assert model_and_quant("mlc-ai/Llama-2-7b-chat-hf-q4f16_1-MLC") == ("Llama-2-7b-chat", "q4f16_1")
    assert model_and_quant("/data/models/mlc/dist/Llama-2-7b-chat-hf-q4f16_ft/params") == (
        "Llama-2-7b-chat",
        "q4f16_ft",
    )
    assert model_and_quant("Qwen3-8B-Q4_K_M.gguf") == ("Qwen3-8B", "Q4_K_M")
    line = (
        " python3 /opt/mlc-llm/benchmark.py --model /data/models/mlc/dist/Llama-2-7b-chat-hf-q4f16_ft/params"
        " --prompt /data/prompts/completion_16.json --max-new-tokens 128"
    )
    (c,) = command_lines([(4, line)])
    assert c.conditions == {
        "engine": "MLC LLM",
        "model": "Llama-2-7b-chat",
        "quant": "q4f16_ft",
        "prompt": "completion_16.json",
        "cap": 128,
    }


def test_a_jetson_module_without_its_family_name():
    """ "AGX ORIN 32G", "AGX Orin": a Jetson module as its owner writes it (h483); controls: the full
    names keep theirs."""
    from benchbook.audit.draftnames import mentions

    def machine(text):
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machine("my device is: AGX ORIN 32G JetPack 6.0") == ["NVIDIA Jetson AGX Orin 32GB"]
    assert machine("on AGX Orin and JetPack 6.0") == ["NVIDIA Jetson AGX Orin"]
    assert machine("a Jetson Orin Nano 8GB") == ["NVIDIA Jetson Orin Nano 8GB"]
    assert machine("NVIDIA IGX Orin") == ["NVIDIA IGX Orin"]


def test_input_and_output_lengths_on_a_result_line(tmp_path):
    """ "input=16 output=128" on a pasted result line: its results' prompt (other.prompt_tokens) and
    generated tokens."""
    text = (
        "# t\n\n```\nparams:  input=16 output=128 prefill_time 0.081 sec, prefill_rate 197.0 tokens/sec,"
        " decode_time 6.632 sec, decode_rate 19.3 tokens/sec\n```\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [0.081, 6.632, 19.3, 197.0]
    for c in cf.claims:
        cond = _cond(cf, c)
        assert (cond.get("tokens_generated"), cond["other"]["prompt_tokens"]) == (128, 16)


def test_a_flag_turning_drafting_off_is_plain_decoding(tmp_path):
    """A DSpark checkpoint run "with --no-dspark" ran without drafting (h481); control: "With DSpark: 1.2
    tok/s" drafts."""
    text = (
        "# DSpark\n\nDSpark checkpoint with --no-dspark: 0.821 tok/s average\n\n"
        "With DSpark: 1.2 tok/s average\n"
    )
    got = _by_value(_drafted(text, tmp_path))
    assert (got[0.821]["decoding"], got[1.2]["decoding"]) == ("plain", "speculative")


def test_the_audit_pages_tally_keeps_verdicts_and_qualifiers_apart():
    """The page's tally counts each entry's one verdict (their sum is the entries), then the entries
    carrying each qualifier, which add to no total: 13 entries with one "at risk" read "(13 entries)",
    not 14 counts (the new user's)."""
    from benchbook.audit.page import _counts
    from benchbook.audit.verdicts import Qualifier, Reproducible, Verdict

    def verdict(i, consistency, qualifiers=()):
        return Verdict(
            claims_file="x.yaml",
            id=f"c{i}",
            kind="claim",
            text="t",
            consistency=consistency,
            qualifiers=[Qualifier(kind=k, check="rule", reason="r") for k in qualifiers],
            reproducible=Reproducible(here=False),
        )

    verdicts = [verdict(i, "not checkable") for i in range(10)]
    verdicts += [verdict(10, "not checkable", ["at risk", "at risk", "unsupported"])]
    verdicts += [verdict(11, "consistent"), verdict(12, "consistent")]
    assert _counts(verdicts) == (
        "Verdicts: consistent: 2, not checkable: 11 (13 entries). Entries qualified (an entry may carry "
        "several qualifiers, or none): at risk: 1, unsupported: 1."
    )
    assert _counts(verdicts[:1]) == "Verdicts: not checkable: 1 (1 entry)."
    assert _counts([]) == "Verdicts: none (0 entries)."  # a post with no numbers (the breaker's)


def test_bs1_and_a_claims_own_batch(tmp_path):
    """ "For BS1" is a batch of one (h484); a sentence's own batch ("At bs=8", "with a batch of 32
    requests") is its claims', not the single batch another sentence states, nor the reverse."""
    text = (
        "# t\n\nWith vLLM on an H100: for BS1, it reached 37.8 tokens/s.\n\n"
        "At bs=8 it reached 210 tok/s, and with a batch of 32 requests 900 tok/s.\n"
    )
    got = _by_value(_drafted(text, tmp_path))
    assert [got[v]["concurrency"] for v in (37.8, 210.0, 900.0)] == [1, 8, 32]


def test_a_record_lines_label_names_no_number_of_the_line_above(tmp_path):
    """ "PP 512: 1021 t/s" over "TG 128: 45.3 t/s": each line of a record list is its own sentence, so
    the next line's "TG" names no rate of the line above (the breaker's, session 62); "pp512: 998 t/s,
    tg128: 44 t/s" on one line stays as it was."""
    text = (
        "# t\n\nOn my RTX 4090 with llama.cpp:\n\nPP 512: 1021 t/s\nTG 128: 45.3 t/s\n\n"
        "pp512: 998 t/s, tg128: 44 t/s\n"
    )
    cf = _drafted(text, tmp_path)
    got = {float(c.value): c.metric for c in cf.claims}
    assert got == {1021.0: "prefill_tps", 45.3: "decode_tps", 998.0: "prefill_tps", 44.0: "decode_tps"}


def test_a_bracketed_label_line_names_the_lines_below_it_only(tmp_path):
    """ "[Q4_K_M]" over "PP: 1000 t/s, TG: 40 t/s", then "[Q8_0]" over the next run: a name on a line
    opening with a label is that line's (and the lines under it), never the line above's (the
    breaker's, session 62)."""
    text = (
        "# Qwen3-8B on RTX 4090, llama.cpp\n\n[Q4_K_M]\nPP: 1000 t/s, TG: 40 t/s\n[Q8_0]\n"
        "PP: 900 t/s, TG: 30 t/s\n"
    )
    got = _by_value(_drafted(text, tmp_path))
    assert {v: got[v]["quant"] for v in (1000.0, 40.0, 900.0, 30.0)} == {
        1000.0: "Q4_K_M",
        40.0: "Q4_K_M",
        900.0: "Q8_0",
        30.0: "Q8_0",
    }


def test_the_breakers_regressions_of_this_sessions_kinds(tmp_path):
    """The breaker's cases against this session's kinds, each with its right value:
    "For reference, …:" over the author's own command is no aside (its machine and build hold); an
    "about" lead-in makes only the block under it approximate; "BS16 …, BS128 …, and BS1 …" gives
    no sentence-wide batch of one; llama-cli named beside "`-p 512 -n 128`" keeps its cap; "Orin AGX
    32GB" is that module, not an earlier sentence's 64GB one."""
    own = (
        "# t\n\nFor reference, this is the command I used with llama.cpp b5200 on my RTX 4090:\n\n"
        "```\n./llama-server -m Qwen3-30B-A3B-Q4_K_M.gguf -ngl 99 -fa -c 16384\n```\n\n"
        "Short prompts give 150 t/s.\n"
    )
    got = _by_value(_drafted(own, tmp_path))
    assert (got[150.0]["hardware"], got[150.0]["build"]) == ("NVIDIA GeForce RTX 4090", "b5200")
    rough = (
        "# t\n\nThe results were roughly:\n\n```\ndecode: 41.2 t/s\n```\n\n"
        "Exact figure from the final run: 43.17 t/s.\n"
    )
    cf = _drafted(rough, tmp_path)
    assert {float(c.value): bool(c.about) for c in cf.claims} == {41.2: True, 43.17: False}
    several = "# t\n\nvLLM on H100. BS16 gave 600 tok/s, BS128 gave 3000 tok/s, and BS1 gave 40 tok/s.\n"
    got = _by_value(_drafted(several, tmp_path))
    assert [got[v].get("concurrency") for v in (600.0, 3000.0)] == [None, None]
    cli = "# t\n\nllama-cli with `-ngl 99 -p 512 -n 128` on my 3090: 40 t/s.\n"
    assert _by_value(_drafted(cli, tmp_path))[40.0]["cap"] == 128
    orin = "# t\n\nllama.cpp on AGX Orin 64GB: 12 t/s. On the Orin AGX 32GB dev kit: 10 t/s.\n"
    got = _by_value(_drafted(orin, tmp_path))
    assert (got[12.0]["hardware"], got[10.0]["hardware"]) == (
        "NVIDIA Jetson AGX Orin 64GB",
        "NVIDIA Jetson AGX Orin 32GB",
    )


def test_llama_cpp_flags_reach_no_claim_whose_engine_its_output_names(tmp_path):
    """ "Offloaded all layers with `-ngl 99 -fa 1`." over vLLM's engine log: the log is vLLM's (its
    output says so), and vLLM has no layer offload nor flash-attention switch (the breaker's)."""
    text = (
        "# t\n\nOffloaded all layers with `-ngl 99 -fa 1`.\n\n```\nINFO 10-12 14:03:11 metrics.py:345] "
        "Avg prompt throughput: 2310.5 tokens/s, Avg generation throughput: 1062.0 tokens/s, "
        "Running: 32 reqs\n```\n"
    )
    got = _by_value(_drafted(text, tmp_path))
    assert got[1062.0]["engine"] == "vLLM"
    assert "offload" not in got[1062.0] and "flash_attn" not in got[1062.0]


def test_a_log_rate_is_known_to_the_rounding_of_its_printed_time():
    """llama.cpp prints a timing line's time to two decimals and its rate from the unrounded time:
    678 tokens over "393.93 ms" is 1721.096–1721.140 tok/s, so its printed "1721.13 tokens per second"
    agrees with the log; 53 tokens (52 counted, (n-1)/ms) over 1416.30 ms likewise."""
    from benchbook.audit.logs import printed_span

    lo, hi = printed_span(678, 393.93)
    assert round(lo, 3) == 1721.096 and round(hi, 3) == 1721.140 and lo < 1721.13 < hi
    assert 678 * 1000 / 393.93 < 1721.125  # the rounded time alone would miss the printed figure


def test_an_audited_server_log_agrees_with_its_own_printed_rates_and_no_other_boxs_number(tmp_path):
    """A post pasting llama-server's timing lines, then "Also on the other box: 55 t/s.": the log's own
    numbers are claims checked against the log (its printed 1721.13 tok/s consistent, within the rounding
    of its printed time), and the other box's 55 t/s is not checked against this log (the breaker's: it
    was called a major overstatement)."""
    import json
    import subprocess
    import sys

    post = tmp_path / "P.md"
    post.write_text(
        "# My server\n\nHere is the log:\n\n```\nslot print_timing: id  0 | task 0 |\n"
        "prompt eval time =     393.93 ms /   678 tokens (    0.58 ms per token,  1721.13 tokens per "
        "second)\n       eval time =    1416.30 ms /    53 tokens (   26.72 ms per token,    37.42 tokens "
        "per second)\n"
        "```\n\nAlso on the other box: 55 t/s.\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "benchbook", "audit", str(post), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    verdicts = {}
    for f in out.rglob("*.jsonl"):
        for line in f.read_text().splitlines():
            v = json.loads(line)
            verdicts[v["id"]] = v["consistency"]
    assert verdicts["prefill-tps-l7"] == "consistent"
    assert verdicts["decode-tps-l8"] == "consistent"
    assert verdicts["decode-tps-l11"] == "not checkable"


_TWO_ENGINES = """# Qwen2.5-32B Q4_K_M: llama.cpp on a 4090 vs vLLM on an A100

My home box (RTX 4090 24GB, Ryzen 9 7950X, 64GB DDR5) runs llama.cpp build b4567, and a rented A100 80GB runs
vLLM 0.6.3 with the AWQ version of the same model.

vLLM was launched with:

    vllm serve Qwen/Qwen2.5-32B-Instruct-AWQ --max-model-len 8192 --gpu-memory-utilization 0.92

Log excerpt from llama-server (4090, `-c 8192 -np 4 -fa`), one of the single requests:

```
prompt eval time =     181.42 ms /   512 tokens (    0.35 ms per token,  2822.18 tokens per second)
       eval time =    3326.07 ms /   128 tokens (   25.99 ms per token,    38.48 tokens per second)
```
"""


def test_a_lead_in_naming_another_engine_takes_its_block_from_the_command_above(tmp_path):
    """ "Log excerpt from llama-server (…):" after a `vllm serve` command: the log is llama.cpp's, none of
    the vLLM command's settings (its build, quant, memory share, max sequences) hold for it; and a
    CPU named beside a GPU is the GPU's host, no claim's machine (the new user's)."""
    got = _by_value(_drafted(_TWO_ENGINES, tmp_path))
    log = got[38.48]
    assert (log["engine"], log["quant"]) == ("llama.cpp", "Q4_K_M")
    assert log.get("build") != "0.6.3" and "gpu_memory_utilization" not in (log.get("other") or {})
    assert log.get("hardware") != "AMD Ryzen 9 7950X"

"""Kinds fixed in issue 29's session 73 (the fifty-second held-out set's misses, read after a
fifty-third set replaced it as the clean one), each with controls."""

from __future__ import annotations

from pathlib import Path

from benchbook.audit import drafttable
from benchbook.audit.draftcontext import _distinct_of
from benchbook.audit.draftnames import mentions
from benchbook.audit.draftprose import metric_of
from benchbook.audit.draftwords import engine_versions, settings_in_words
from benchbook.audit.toollines import label_metric
from drafting import conditions as _cond
from drafting import drafted as _drafted

_TOPOLOGY = (
    "| Concurrency | Solo | Cluster TP=2 | Least-busy |\n|---|---|---|---|\n"
    "| c1 | 57.5 | 69.0 | 57.7 |\n| c2 | 78.4 | 104.1 | 99.4 |\n"
)


def _claims(cf) -> list[tuple]:
    return [(c.metric, c.value, c.unit) for c in cf.claims]


def _settings(text: str) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    settings_in_words(text, out)
    return out


def test_a_table_of_plain_numbers_under_a_heading_naming_a_phases_rate(tmp_path):
    """ "## Decode Throughput" over "| Concurrency | Solo | Cluster TP=2 | Least-busy |" and cells of
    plain numbers (h588): each column a rate in t/s (one request: decode, more: throughput); under a
    heading naming no rate ("## Topologies") they stay listed, no unit guessed."""
    cf = _drafted("# Bench\n\n## Decode Throughput\n\n" + _TOPOLOGY, tmp_path)
    assert sorted(_claims(cf)) == sorted(
        [
            ("decode_tps", 57.5, "t/s"),
            ("decode_tps", 69.0, "t/s"),
            ("decode_tps", 57.7, "t/s"),
            ("throughput", 78.4, "t/s"),
            ("throughput", 104.1, "t/s"),
            ("throughput", 99.4, "t/s"),
        ]
    )
    assert {_cond(cf, c)["concurrency"] for c in cf.claims} == {1, 2}
    other = tmp_path / "other"
    other.mkdir()
    control = _drafted("# Bench\n\n## Topologies\n\n" + _TOPOLOGY, other)
    assert control.claims == []
    assert [u.number for u in control.draft.unplaced] == ["57.5", "69.0", "57.7", "78.4", "104.1", "99.4"]


def test_a_title_case_hyphenated_header_is_a_name_not_a_flag():
    """ "Least-busy", "Round-robin" (h588): a routing compared, its column of results; "draft-p-min",
    "n_ctx", "--draft-max" are settings written as flags."""
    assert not drafttable._setting_header("Least-busy")
    assert not drafttable._setting_header("Round-robin")
    assert drafttable._setting_header("draft-p-min")
    assert drafttable._setting_header("n_ctx")
    assert drafttable._setting_header("--draft-max")


def test_a_winner_column_with_its_lead_in_parentheses_relates_the_row(tmp_path):
    """ "| Winner |" over "Cluster (+20%)" (h588): a change of the winner over the other side, a
    statement citing the row's rates, no share of 20%."""
    cf = _drafted(
        "# Bench\n\n| Concurrency | Solo | Cluster | Winner |\n|---|---|---|---|\n"
        "| c1 | 57.5 tok/s | 69.0 tok/s | Cluster (+20%) |\n"
        "| c2 | 78.4 tok/s | 104.1 tok/s | Cluster (+33%) |\n",
        tmp_path,
    )
    assert all(c.metric != "share" for c in cf.claims)
    by_id = {c.id: c.value for c in cf.claims}
    assert [(s.kind, s.value, s.unit, [by_id[x] for x in s.of]) for s in cf.statements] == [
        ("percent_change", 20.0, "%", [57.5, 69.0]),
        ("percent_change", 33.0, "%", [78.4, 104.1]),
    ]
    assert drafttable._relating_column("Winner", ["Cluster (+20%)", "Shuffle (+20%)"])
    assert not drafttable._relating_column("Winner", ["Cluster", "Shuffle"])


def test_a_bit_width_beside_the_format_of_that_width_is_no_other_quant():
    """ "native MXFP4 quantization" and "At 4-bit precision" (h588): one quantisation, MXFP4; a
    "4-bit" beside Q8_0 or Q4_K_M is another (MLX's conversion beside a GGUF: p118), both kept."""
    assert _distinct_of("quant", ["MXFP4", "4-bit"]) == ["MXFP4"]
    assert _distinct_of("quant", ["4bit", "Q4_K_M"]) == ["4bit", "Q4_K_M"]  # (MLX's beside a GGUF)
    assert _distinct_of("quant", ["NVFP4", "4 bit"]) == ["NVFP4"]
    assert _distinct_of("quant", ["Q8_0", "4-bit"]) == ["Q8_0", "4bit"]
    assert _distinct_of("quant", ["FP8", "8-bit"]) == ["FP8"]


def test_an_engines_image_with_its_release_in_parentheses():
    """ "- Image: vllm-node-mxfp4 (0.1.dev12777)" (h588): the image of vLLM, that release; a name
    with words in parentheses is none, and so is another package named after the engine
    ("vllm-flash-attn (2.6.2)", "sglang-router (v0.1.4)": no image's)."""
    assert engine_versions("- Image: vllm-node-mxfp4 (0.1.dev12777)") == {"vLLM": "0.1.dev12777"}
    assert engine_versions("docker image sglang-blackwell (v0.5.2)") == {"SGLang": "v0.5.2"}
    assert engine_versions("Packages: vllm-flash-attn (2.6.2), torch 2.4.0.") == {}
    assert engine_versions("Using the sglang-router (v0.1.4) in front of two workers.") == {}
    assert engine_versions("vllm-node-mxfp4 (see below)") == {}
    assert engine_versions("vllm-node (2 nodes)") == {}


def test_a_llama_bench_test_pair_named_in_prose_sets_the_tokens_generated():
    """ "llama-benchy 0.3.5, pp1024 tg128, 50 runs" (h588): each run generated 128 tokens (llama-
    bench's tg test); a tg test alone is a test's name, read where a rate names it."""
    assert ("tokens_generated", 128) in _settings("- Benchmark: llama-benchy 0.3.5, pp1024 tg128, 50 runs")
    assert ("tokens_generated", 128) in _settings("pp512/tg128 on both")
    assert ("tokens_generated", 256) in _settings("pp2048 and tg256")
    assert _settings("tg128 alone") == []
    assert _settings("pp512 only") == []


def test_a_gguf_type_with_its_size_word_in_lower_case():
    """ "Q4_k_m模型" (h586): Q4_K_M, not Q4; llama.cpp's spellings are kept."""

    def quants(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "quant"]

    assert quants("Q4_k_m模型") == ["Q4_K_M"]
    assert quants("Q4_K_M模型") == ["Q4_K_M"]
    assert quants("UD-Q4_K_XL and IQ4_XS-4.19bpw") == ["UD-Q4_K_XL", "IQ4_XS-4.19bpw"]
    assert quants("Q8_0 and Q4_0_4_4") == ["Q8_0", "Q4_0_4_4"]
    assert quants("Q8_0_MTP") == ["Q8_0"]
    assert quants("Q4_K_M42 t/s") == []  # (glued to its number: ``_QUANT_GLUED`` reads it, never "Q4_K")


def test_a_models_number_format_in_parentheses_after_its_size():
    """ "Dense 32B model (bf16): 64GB of weights" (h589): the weights' bf16; "(8 GB)" and words
    after the type are none."""

    def quants(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "quant"]

    assert quants("- Dense 32B model (bf16): 64GB of weights / 273 GB/s") == ["bf16"]
    assert quants("- Dense 8B model (fp8, dynamic): 8GB") == ["fp8"]
    assert quants("- Dense 32B model (8 GB): 64GB") == []
    assert quants("- Dense 32B model (bf16 activations only): 64GB") == []


def test_a_machine_and_its_chip_named_are_one_machine(tmp_path):
    """ "on the NVIDIA DGX Spark" in the title, "It packs a Blackwell GB10 GPU" (h589): every claim
    ran on "NVIDIA DGX Spark (GB10)", whichever the paragraph named last; a post naming the GB10
    alone keeps it."""
    cf = _drafted(
        "# 50 tok/s on the NVIDIA DGX Spark\n\nIt packs a Blackwell GB10 GPU.\n\n"
        "This post goes from 3.7 tok/s to 54 tok/s.\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c)["hardware"]) for c in cf.claims] == [
        (50.0, "NVIDIA DGX Spark (GB10)"),
        (3.7, "NVIDIA DGX Spark (GB10)"),
        (54.0, "NVIDIA DGX Spark (GB10)"),
    ]
    other = tmp_path / "other"
    other.mkdir()
    control = _drafted("# Runs on a GB10\n\nThe NVIDIA GB10 box reached 54 tok/s.\n", other)
    assert [_cond(control, c)["hardware"] for c in control.claims] == ["NVIDIA GB10"]


def test_a_first_tokens_latency_with_its_statistic_between_is_ttft(tmp_path):
    """IPEX-LLM's benchmark csv "1st token average latency(ms): 617.64" (h590): TTFT, the whole label
    read (not its last word); "2+ avg latency(ms/token)" a time per token; "1st token generated" no
    time to a first token."""
    cf = _drafted(
        "# Q\n\nMy result:\n```\n1st token average latency(ms): 617.64\n"
        "2+ avg latency(ms/token): 340.45\n```\n",
        tmp_path,
    )
    assert _claims(cf) == [("ttft", 617.64, "ms"), ("ms_per_token", 340.45, "ms")]
    assert label_metric("1st token average latency", "ms") == "ttft"
    assert label_metric("first token mean latency", "ms") == "ttft"
    assert metric_of("ms", "the 1st token generated after") != "ttft"


def test_a_reports_batch_and_in_out_lengths_are_its_runs(tmp_path):
    """The csv's "input/ouput tokens: 32-32" and "batch_size: 1" beside its results (h590): each
    result's 32-token prompt, 32 tokens generated, one request at a time."""
    cf = _drafted(
        "# Q\n\nMy result:\n```\n1st token average latency(ms): 617.64\ninput/ouput tokens: 32-32\n"
        "batch_size: 1\n```\n",
        tmp_path,
    )
    cond = _cond(cf, cf.claims[0])
    assert (cond["tokens_generated"], cond["prompt"], cond["concurrency"]) == (32, "32 tokens", 1)
    assert ("tokens_generated", 128) in _settings("input/output tokens: 1024-128")
    assert _settings("input/output: see below") == []


def test_a_prompt_set_named_in_a_setup_sentence_holds_for_the_table_below(tmp_path):
    """ "gsm8k, 8 prompts, 4x RTX 2080 Ti at TP 4, … Plain baseline 27.95 ms/token decode." over a
    drafters' table (h592): every row ran GSM8K's prompts (the baseline's sentence states a
    measurement, the prompts' does not); the table's "Width" is the draft's size, "mtp" drafts
    from the model itself, "dspark" is a draft model, "ms/step" a latency."""
    cf = _drafted(
        "# Drafter comparison\n\n## Results\n\ngsm8k, 8 prompts, 4x RTX 2080 Ti at TP 4, temperature 1.0. "
        "Plain baseline 27.95 ms/token decode.\n\n| Drafter | Width | acc_len | draft ms/step |\n"
        "| --- | ---: | ---: | ---: |\n| mtp | 2 | 1.792 | 7.69 |\n| dspark | 8 | 3.762 | 39.03 |\n",
        tmp_path,
    )
    got = {(c.metric, c.value): _cond(cf, c) for c in cf.claims}
    assert {k: v["prompt"] for k, v in got.items()} == dict.fromkeys(got, "gsm8k")
    assert [(k, v["decoding"], v.get("block_max")) for k, v in got.items() if k[0] == "latency"] == [
        (("latency", 7.69), "draft-self", 2),
        (("latency", 39.03), "speculative", 8),
    ]
    assert _settings("on 8 GSM8K prompts") == [("prompt", "GSM8K")]
    assert _settings("Dataset: HumanEval") == [("prompt", "HumanEval")]
    assert _settings("the drafter was trained on ShareGPT samples") == []
    assert _settings("The GSM8K prompts were short.") == []  # (no count: a remark, s72's test)
    assert _settings("GSM8K 82.4%") == []


def test_a_runs_line_stating_an_earlier_value_is_its_own_measurement(tmp_path):
    """ "- Run 1: 144.3 tok/s" … "- Run 3: 144.3 tok/s" after a table's 144.3 (h594): each run a
    claim of its own (its index), no repetition cited; a sentence repeating a number cites it."""
    cf = _drafted(
        "| Model | Without Draft |\n|---|---|\n| Qwen3-4B | 144.3 tok/s |\n\n**Qwen3-4B (no draft):**\n"
        "- Run 1: 144.3 tok/s\n- Run 2: 144.4 tok/s\n- Run 3: 144.3 tok/s\n",
        tmp_path,
    )
    runs = [(c.value, _cond(cf, c).get("run_index")) for c in cf.claims]
    assert sorted(runs, key=lambda r: r[1] or 0) == [(144.3, None), (144.3, 1), (144.4, 2), (144.3, 3)]
    other = tmp_path / "other"
    other.mkdir()
    control = _drafted(
        "The plain run reached 144.3 tok/s.\n\nAgain: it reached 144.3 tok/s, as said.\n", other
    )
    assert _claims(control) == [("decode_tps", 144.3, "tok/s")]


def test_a_labels_decoding_holds_for_its_model_beside_another_models_command(tmp_path):
    """ "**Qwen3-4B (no draft):**" over its runs, in a post whose llama-server command for another
    model also drafts nothing (h594): the label's plain decoding is the 4B's own."""
    cf = _drafted(
        "# Bench\n\n## MLX\n\n**Qwen3-4B (no draft):**\n- Run 1: 144.3 tok/s\n\n"
        "**Qwen3-4B (with draft Qwen3-0.6B):**\n- Run 1: 144.1 tok/s\n\n## GGUF\n\n"
        "**Qwen3-Coder-30B-A3B (no draft):**\n```\n"
        "llama-server -ngl 99 -m Qwen3-Coder-30B-A3B-Instruct-Q6_K.gguf\n```\n"
        "- Run 1: 75.5 tok/s\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c).get("decoding")) for c in cf.claims] == [
        (144.3, "plain"),
        (144.1, "speculative"),
        (75.5, "plain"),
    ]


def test_nvidias_nemotron_by_its_repository_name():
    """ "Model: `NVIDIA-Nemotron-3-Nano-30B-A3B-FP8`" (h593): the model with its vendor's prefix, as
    the repository names it, and its quant."""

    def names(text: str) -> list[tuple[str, object]]:
        return [(m.path, m.value) for m in mentions(text)]

    assert names("Model: `NVIDIA-Nemotron-3-Nano-30B-A3B-FP8`") == [
        ("model", "NVIDIA-Nemotron-3-Nano-30B-A3B"),
        ("quant", "FP8"),
    ]
    assert names("nvidia/NVIDIA-Nemotron-Nano-9B-v2") == [("model", "NVIDIA-Nemotron-Nano-9B-v2")]
    assert names("Nemotron-3-Nano-30B-A3B") == [("model", "Nemotron-3-Nano-30B-A3B")]


def test_drafting_keeps_no_paragraph_cached_after_a_post():
    """``_labels_number`` caches per paragraph while a post is drafted; ``draft_text`` forgets them
    after it, so a process drafting many posts holds none of the earlier ones (a review's finding)."""
    from benchbook.audit import draftsentences
    from benchbook.audit.draft import draft_text

    draft_text("With EAGLE: 70 tok/s (AR 41, 1.7x)\n\nWith Medusa: 60 tok/s (AR 41, 1.5x)\n")
    assert draftsentences._labels_number.cache_info().currsize == 0
    assert draftsentences._labels_number("AR 41 then", 0) == 3  # (the cache still answers meanwhile)


def test_a_count_in_chinese_and_japanese_ten_thousands():
    """ "丸1日出力させ続けても207万トークン" (h587): 2,070,000 tokens, its last digit standing for
    ten-thousands (decimals -4); "1.2万 tokens/s" a rate; "3万token的上下文" (a context's size),
    "64万円" (a price) and "12亿参数" (parameters) are no claims of those units."""
    from benchbook.audit.draftprose import numbers

    def read(text: str) -> list[tuple]:
        return [(n.text, n.unit, n.decimals) for n in numbers(text)]

    assert read("丸1日出力させ続けても207万トークンしか出力できない") == [
        ("1", None, None),
        ("2070000", "tokens", -4),
    ]
    assert read("吞吐 1.2万 tokens/s") == [("12000", "tok/s", -3)]
    assert read("3万token的上下文") == [("3", None, None)]
    assert read("上下文 3万 token") == [("3", None, None)]
    assert read("64万円くらい") == [("64", None, None)]
    assert read("12亿参数") == [("12", None, None)]


def test_a_chips_npu_names_the_backend_and_the_machine(tmp_path):
    """ "I have used all-in-one benchmark to test on Intel Ultra 9 185H's NPU" (h590): the NPU
    backend and the chip as the machine; "no GPU, no NPU" names neither, a CPU beside a GPU is
    no machine."""
    cf = _drafted(
        "# Question\n\nI tested on Intel Ultra 9 185H's NPU, the model Qwen2-7B.\n\n```\n"
        "1st token average latency(ms): 617.64\n```\n",
        tmp_path,
    )
    cond = _cond(cf, cf.claims[0])
    assert (cond.get("backend"), cond.get("hardware")) == ("NPU", "Intel Core Ultra 9 185H")
    other = tmp_path / "other"
    other.mkdir()
    control = _drafted("# Pi cluster\n\nCPU-only hardware, no GPU, no NPU, at 15.1 tok/s decode.\n", other)
    assert _cond(control, control.claims[0]).get("backend") == "CPU"

    def machines(text: str) -> list[object]:
        return [m.value for m in mentions(text) if m.path == "hardware"]

    assert machines("Core Ultra 7 155H iGPU runs") == ["Intel Core Ultra 7 155H"]
    assert machines("Ryzen 9 7950X with RTX 4090") == ["NVIDIA GeForce RTX 4090"]
    assert machines("under Intel Ultra 7 165H.") == []


def test_a_rows_tensor_parallel_size_below_the_machines_count_is_the_cards_it_used(tmp_path):
    """ "- **GPU**: 8x NVIDIA GeForce RTX 5090" over a table whose TP column says 1, 4, 8 (h576's
    kind): each row ran on that many of the eight cards; a launch line's "--tensor-parallel-size 8"
    beside "--pipeline-parallel-size 2" on "16x H100" keeps the sixteen (TP × PP)."""
    cf = _drafted(
        "# Bench\n\n## Setup\n\n- **GPU**: 8x NVIDIA GeForce RTX 5090 32GB\n\n## Results\n\n"
        "| Model | TP | Decode (tok/s) |\n|---|---|---|\n| Qwen3-8B | 1 | 44.4 |\n| Qwen3-32B | 4 | 100.5 |\n"
        "| Qwen3-235B | 8 | 30.1 |\n",
        tmp_path,
    )
    assert [(c.value, _cond(cf, c)["hardware"]) for c in cf.claims] == [
        (44.4, "NVIDIA GeForce RTX 5090"),
        (100.5, "4x NVIDIA GeForce RTX 5090"),
        (30.1, "8x NVIDIA GeForce RTX 5090"),
    ]
    other = tmp_path / "other"
    other.mkdir()
    launch = _drafted(
        "# Bench\n\n16x H100.\n\n```\nvllm serve x --tensor-parallel-size 8 --pipeline-parallel-size 2\n"
        "```\n\n"
        "It ran at 1.9 tok/s.\n",
        other,
    )
    assert [_cond(launch, c)["hardware"] for c in launch.claims] == ["16x NVIDIA H100"]


_BREAKER = Path(__file__).parent / "fixtures" / "draft_s73"

#: a breaker's inputs against this session's rules (tests/fixtures/draft_s73/), each claim's value
#: and the conditions checked (None: not stated): the regressions it found, now the right reading
_BROKEN = {
    # "does not use the NPU", "(no GPU/NPU support)": no NPU backend
    "n3": [(12.5, {"backend": None, "hardware": "AMD Ryzen AI 9 HX 370"})],
    "n5": [(18.2, {"backend": "CPU"})],
    # an Ascend post's "8 NPUs": its backend keeps the corpus's spelling
    "n8": [(10, {"backend": "Ascend NPU"})],
    # an idle or disabled chip's unit, or one listed beside a card: the card ran it
    "u1": [(52.3, {"hardware": "NVIDIA GeForce RTX 4070 Laptop GPU", "backend": "CUDA"})],
    "u2": [(41.3, {"hardware": "NVIDIA GeForce RTX 4060 Laptop GPU", "backend": "CUDA"})],
    "u3": [(41.3, {"hardware": "NVIDIA GeForce RTX 4060 Laptop GPU", "backend": None})],
    # other makers' GB10 machines beside the Spark: three machines, none renamed
    "g1": [
        (58.1, {"hardware": "NVIDIA DGX Spark"}),
        (57.4, {"hardware": "NVIDIA GB10"}),
        (57.9, {"hardware": "NVIDIA GB10"}),
    ],
    "g3": [(54, {"hardware": "NVIDIA DGX Spark (GB10)"}), (61, {"hardware": "NVIDIA DGX Spark (GB10)"})],
    # a lone "- Run 1:" under a table of the same numbers restates them (cited, no new claims)
    "r1": [(75.5, {"run_index": None}), (59.0, {"run_index": None})],
    # tables mixing other quantities under "## Decode Throughput": no rates guessed
    "h2": [],
    "h3": [],
    "h10": [(57.5, {}), (78.4, {}), (69.0, {}), (104.1, {})],  # (column by column)
    "h11": [(0.71, {}), (0.66, {})],
    # a "Width" with no drafter column is no draft size
    "w3": [(88.2, {"block_max": None}), (261.4, {"block_max": None})],
    # a drafter's training data is no prompt set
    "d2": [(212.5, {"prompt": None}), (98.1, {"prompt": None})],
    # MLX's 8-bit beside a Q8_0 GGUF: two formats, neither row given the other's
    "a1": [(38.94, {"quant": None}), (43.43, {"quant": None})],
    # a GGUF type with a suffix after it
    "k1": [(61.2, {"quant": "Q4_K_M"})],
    "k2": [(51.2, {"quant": "Q5_K_M"})],
    # "2+ avg latency excluding first token(ms)", "after first token latency(ms)": no TTFT
    "l1": [(617.64, {}), (34.45, {}), (34.45, {})],
}


def test_a_breakers_inputs_against_session_73s_rules(tmp_path):
    """Each input of ``_BROKEN`` drafts its claims' values in order with the conditions it lists; the
    prefill heading's table is prefill (h10), the latencies of l1 after the first token are none
    of TTFT, and the bound over "the NVIDIA DGX Spark" names the renamed machine (g3)."""
    got = {}
    for name, want in _BROKEN.items():
        out = tmp_path / name
        out.mkdir()
        cf = _drafted((_BREAKER / f"{name}.md").read_text(encoding="utf-8"), out)
        got[name] = cf
        assert [c.value for c in cf.claims] == [v for v, _ in want], name
        for c, (_, conds) in zip(cf.claims, want, strict=True):
            have = _cond(cf, c)
            assert {k: have.get(k) for k in conds} == conds, (name, c.value)
    assert {c.metric for c in got["h10"].claims} == {"prefill_tps"}
    assert [c.metric for c in got["l1"].claims] == ["ttft", "latency", "latency"]
    assert [c.metric for c in got["h11"].claims] == ["acceptance_rate", "acceptance_rate"]
    bound = next(s for s in got["g3"].statements if s.kind == "bound")
    assert bound.over.numerator["hardware"] == "NVIDIA DGX Spark (GB10)"

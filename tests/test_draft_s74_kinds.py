"""Kinds fixed in issue 29's session 74 (the fifty-third held-out set's misses, read after a
fifty-fourth set replaced it as the clean one), each with controls."""

from __future__ import annotations

from benchbook.audit.draftnames import header_decoding, mentions
from benchbook.audit.draftprose import numbers
from drafting import conditions as _cond
from drafting import drafted as _drafted

_RATIO_TABLE = (
    "# vLLM serving\n\n"
    "| Concurrency | H100 req/s | A100 req/s | req/s{w} | H100 tok/s | A100 tok/s | tok/s{w} |\n"
    "|---|---|---|---|---|---|---|\n"
    "| 1 | 0.97 | 0.69 | 1.41× | 247.20 | 176.56 | 1.40× |\n"
    "| 2 | 1.93 | 1.35 | 1.43× | 493.44 | 344.84 | 1.43× |\n"
)


def _statements(cf) -> list[tuple]:
    return sorted((s.value, tuple(s.of)) for s in cf.statements)


def test_a_ratio_column_headed_by_the_quantity_it_relates(tmp_path):
    """ "| req/s比 |" and "| tok/s ratio |" over "1.41×" (h597): multiples of the row's two cells of
    the quantity its header writes (req/s over req/s, never the tok/s cells), no claims in req/s."""
    for word in ("比", " ratio"):
        out = tmp_path / word.strip()
        out.mkdir()
        cf = _drafted(_RATIO_TABLE.format(w=word), out)
        ids = {(c.value, c.unit): c.id for c in cf.claims}
        assert sorted((c.value, c.unit) for c in cf.claims if c.unit == "x") == []
        assert _statements(cf) == sorted(
            [
                (1.41, (ids[0.97, "req/s"], ids[0.69, "req/s"])),
                (1.43, (ids[1.93, "req/s"], ids[1.35, "req/s"])),
                (1.40, (ids[247.2, "tok/s"], ids[176.56, "tok/s"])),
                (1.43, (ids[493.44, "tok/s"], ids[344.84, "tok/s"])),
            ]
        )
    # (a phase's change column, "TG delta", relates its phase's cells as before: h406)
    phases = (
        "| Context | Baseline PP | Optimized PP | PP speedup | Baseline TG | Optimized TG | TG delta |\n"
        "|---:|---:|---:|---:|---:|---:|---:|\n"
        "| 1k | 422.8 tok/s | 486.1 tok/s | 1.15x | 29.1 tok/s | 29.2 tok/s | +0.3% |\n"
    )
    out = tmp_path / "phases"
    out.mkdir()
    cf = _drafted("# Bench\n\n" + phases, out)
    by_value = {c.value: c.id for c in cf.claims}
    assert sorted((s.value, tuple(s.of)) for s in cf.statements) == sorted(
        [(1.15, (by_value[486.1], by_value[422.8])), (0.3, (by_value[29.1], by_value[29.2]))]
    )


def test_a_short_machine_name_is_the_fuller_one_the_post_names(tmp_path):
    """ "H100" in a column and "H100×4" in prose where the setup names "H100 NVL 94GB×4" (h597): that
    machine, four of it; "RTX 4060" beside "RTX 4060 Ti" stays its own card (Ti is another
    product), and a name several counts are written with keeps its own."""
    post = (
        "# vLLM: A100×4 vs H100 NVL×4\n\n- GPU:H100 NVL 94GB×4 vs A100 80GB×4\n\n"
        "Throughput at 32 concurrent requests: H100×4 = 5414 tok/s, A100×4 = 3723 tok/s.\n\n"
        "| Concurrency | H100 tok/s | A100 tok/s |\n|---|---|---|\n| 1 | 247.2 | 176.56 |\n"
    )
    cf = _drafted(post, tmp_path)
    got = {c.value: _cond(cf, c)["hardware"] for c in cf.claims if c.unit == "tok/s"}
    assert got == {
        5414: "4x NVIDIA H100 94GB NVL",
        3723: "4x NVIDIA A100 80GB",
        247.2: "4x NVIDIA H100 94GB NVL",
        176.56: "4x NVIDIA A100 80GB",
    }
    # no "4 GB" of "94GB×4 vs A100 80GB": the ×4 counts cards
    assert [c for c in cf.claims if c.unit == "GB"] == []
    other = tmp_path / "ti"
    other.mkdir()
    cf = _drafted("# Cards\n\nThe RTX 4060 Ti gets 40 tok/s. The RTX 4060 gets 31 tok/s.\n", other)
    assert {c.value: _cond(cf, c)["hardware"] for c in cf.claims} == {
        40: "NVIDIA GeForce RTX 4060 Ti",
        31: "NVIDIA GeForce RTX 4060",
    }
    counts = tmp_path / "counts"
    counts.mkdir()
    cf = _drafted(
        "# Rig\n\nI have 2x RTX 3090 24GB, and 4x RTX 3090 24GB at work.\n\nThe RTX 3090 gets 30 tok/s.\n",
        counts,
    )
    assert [_cond(cf, c)["hardware"] for c in cf.claims] == ["NVIDIA GeForce RTX 3090"]


def test_a_count_after_a_cards_memory_is_no_size():
    """ "94GB×4 vs A100 80GB×4": the 4 counts cards and takes no unit from the other side; "356 vs M3
    Ultra 192 tok/s" still shares its unit."""
    assert [(n.text, n.unit) for n in numbers("GPU:H100 NVL 94GB×4 vs A100 80GB×4")] == [
        ("94", "GB"),
        ("4", None),
        ("80", "GB"),
        ("4", None),
    ]
    assert [(n.text, n.unit) for n in numbers("RTX 5090 356 vs M3 Ultra 192 tok/s")] == [
        ("5090", None),
        ("356", "tok/s"),
        ("192", "tok/s"),
    ]


def test_a_models_label_glued_to_its_colon():
    """ "- モデル:Qwen/Qwen2.5-7B-Instruct", "Model:Qwen3-8B" (h597): the model after its label's colon;
    a repository's file after the colon of its name is still the file's model, a URL's slug none."""
    for text in (
        "- モデル:Qwen/Qwen2.5-7B-Instruct",
        "- Model:Qwen/Qwen2.5-7B-Instruct",
        "模型:Qwen2.5-7B-Instruct",
    ):
        assert [(m.path, m.value) for m in mentions(text)] == [("model", "Qwen2.5-7B-Instruct")], text
    assert [(m.path, m.value) for m in mentions("unsloth/gemma-3-1b-it-GGUF:gemma-3-1b-it-Q4_K_M.gguf")] == [
        ("model", "gemma-3-1b-it"),
        ("quant", "Q4_K_M"),
    ]
    assert mentions("https://x.co/Qwen/Qwen3-8B") == []


def test_concurrency_in_japanese_and_a_list_of_sides_under_one_label(tmp_path):
    """ "同時32の出力スループット:H100×4 = 5414 tok/s, A100×4 = 3723 tok/s" (h597): 32 requests at once,
    both sides' output throughput summed over them (the second side's label is the list's)."""
    cf = _drafted(
        "# Bench\n\n同時32の出力スループット:H100×4 = 5414 tok/s, A100×4 = 3723 tok/s(1.45×)\n", tmp_path
    )
    assert sorted((c.metric, c.value, _cond(cf, c).get("concurrency")) for c in cf.claims) == [
        ("throughput", 3723, 32),
        ("throughput", 5414, 32),
    ]
    other = tmp_path / "one"
    other.mkdir()
    cf = _drafted("# Bench\n\nSingle user: vLLM = 50 tok/s, SGLang = 55 tok/s.\n", other)
    assert sorted((c.metric, c.value) for c in cf.claims) == [("decode_tps", 50), ("decode_tps", 55)]


def test_an_images_alt_text_names_nothing(tmp_path):
    """ "![gpt-oss-120b-h100](../assets/gpt-oss-120b-h100.png)" (h599): a chart's file name, no model
    (the command's "openai/gpt-oss-120b" stays that model, as the title spells it)."""
    cf = _drafted(
        "# Optimizing GPT-OSS-120B on H100\n\n![gpt-oss-120b-h100](../../assets/gpt-oss-120b-h100.png)\n\n"
        "```bash\nvllm serve openai/gpt-oss-120b -tp 2\n```\n\nMean TPOT(ms): 54.10\n",
        tmp_path,
    )
    assert [_cond(cf, c)["model"] for c in cf.claims] == ["GPT-OSS-120B"]


def test_a_setup_tables_draft_model_row_and_a_count_per_prompt(tmp_path):
    """ "| **Draft Model** | meta-llama/Llama-3.2-1B | N/A |" beside "| **Target Model** |
    meta-llama/Llama-3.2-3B |" (h600): the measured model is the target; "| Tokens per Prompt | 30 |"
    names no prompt "Tokens per"; "Tenstorrent Wormhole hardware" is the machine."""
    post = (
        "# Speculative Decoding vs Baseline 3B\n\n## Test Configuration\n\n"
        "| Model Configuration | Speculative Decoding | Baseline |\n|---|---|---|\n"
        "| **Draft Model** | meta-llama/Llama-3.2-1B (16 layers) | N/A |\n"
        "| **Target Model** | meta-llama/Llama-3.2-3B (28 layers) | meta-llama/Llama-3.2-3B (28 layers) |\n"
        "| **Tokens per Prompt** | 30 | 30 |\n\n## Results\n\nSpeculative decoding reached 21.05 tok/s.\n\n"
        "*Test Environment: Tenstorrent Wormhole hardware with identical prompts*\n"
    )
    cf = _drafted(post, tmp_path)
    (c,) = [c for c in cf.claims if c.unit == "tok/s"]
    got = _cond(cf, c)
    assert (got["model"], got["hardware"], got.get("prompt")) == (
        "Llama-3.2-3B",
        "Tenstorrent Wormhole",
        None,
    )
    assert [(m.path, m.value) for m in mentions("Wormhole n300 card")] == [
        ("hardware", "Tenstorrent Wormhole n300")
    ]
    assert mentions("a wormhole in space") == []


def test_speculative_decoding_negated_in_cjk_headers(tmp_path):
    """ "| 无推测解码 | 有推测解码 |" beside "| 草稿模型 |" (h596): the first column decodes plainly though
    the row names a draft model, the second speculatively; the draft model is no row's model and
    "| 提示 |" is the row's prompt."""
    assert [
        header_decoding(h)
        for h in ("无推测解码", "有推测解码", "不使用投机解码", "投機的デコードなし", "추측 디코딩 없음")
    ] == [
        "plain",
        "speculative",
        "plain",
        "plain",
        "plain",
    ]
    post = (
        "# LM Studio 0.3.10\n\nLM Studio + MLX 引擎 (Apple M3 Pro, 36GB RAM)\n\n"
        "| 提示 | 主模型 | 草稿模型 | 无推测解码 | 有推测解码 | tok/秒 速度提升 |\n"
        "|---|---|---|---|---|---|\n"
        "| “解释勾股定理” | Qwen2.5-32B-Instruct-MLX-4bit | Qwen2.5-0.5B-Instruct-4bit "
        "| 7.30 tok/秒 | 17.74 tok/秒 | 2.43 倍 |\n"
    )
    cf = _drafted(post, tmp_path)
    got = {c.value: _cond(cf, c) for c in cf.claims}
    assert {v: (g["decoding"], g["model"], g["prompt"]) for v, g in got.items()} == {
        7.3: ("plain", "Qwen2.5-32B-Instruct", "解释勾股定理"),
        17.74: ("speculative", "Qwen2.5-32B-Instruct", "解释勾股定理"),
    }
    assert got[17.74]["other"]["draft_model"] == "Qwen2.5-0.5B-Instruct"


def test_chinese_ranges_and_more_units():
    """ "提高 1.5 倍至 3 倍", "10到15秒" (h596): ranges; "从 7.3 到 17.7 tok/s" is a change, two numbers;
    "37 (yours) vs 34 tokens / sec" (h601) shares its unit; "5 to 6 secs/token" (h602) a time per token."""

    def read(text: str) -> list[tuple]:
        return [(n.text, n.unit) for n in numbers(text)]

    assert read("提高 1.5 倍至 3 倍。") == [("1.5–3", "x")]
    assert read("推理时间要10到15秒") == [("10–15", "s")]
    assert read("速度从7.3到17.7 tok/s") == [("7.3", "tok/s"), ("17.7", "tok/s")]
    assert read("I'm getting 37 (yours) vs 34 tokens / sec generation.") == [("37", "tok/s"), ("34", "tok/s")]
    assert read("(5 to 6 secs/token)") == [("5–6", "s")]


def test_an_acceptance_fraction_after_a_verb_in_the_present(tmp_path):
    """ "the acceptance drops to 0.69 avg" (h603): an acceptance rate as a fraction, as "dropped to"
    is; "the speed drops to 0.69" names no acceptance (listed)."""
    cf = _drafted("# MTP n-max 4\n\nThe acceptance drops to 0.69 avg but the gain is real.\n", tmp_path)
    assert [(c.metric, c.value, c.unit) for c in cf.claims] == [("acceptance_rate", 0.69, "ratio")]
    other = tmp_path / "speed"
    other.mkdir()
    cf = _drafted("# MTP n-max 4\n\nThe speed drops to 0.69 on long prompts.\n", other)
    assert cf.claims == []
    assert [u.number for u in cf.draft.unplaced] == ["0.69"]


def test_an_engines_kernels_beside_another_engine():
    """ "ExLlamaV2 kernels were introduced into AutoAWQ" (h417): the kernels are a part AutoAWQ runs,
    the engine is AutoAWQ; with no other engine named, "the llama.cpp kernels" are llama.cpp's."""
    assert [
        (m.path, m.value) for m in mentions("Recently, ExLlamaV2 kernels were introduced into AutoAWQ.")
    ] == [("engine", "AutoAWQ")]
    assert [(m.path, m.value) for m in mentions("I tried the new llama.cpp kernels on my 3090")] == [
        ("engine", "llama.cpp"),
        ("hardware", "NVIDIA GeForce RTX 3090"),
    ]


def test_the_breakers_cases(tmp_path):
    """A breaker's inputs against this session's rules, each with its right reading."""
    read = [(n.text, n.unit) for n in numbers("MLX 30 vs llama.cpp 45 tok/s")]
    assert read == [("30", "tok/s"), ("45", "tok/s")]  # a word ending in x is no count's sign
    assert [(n.text, n.unit) for n in numbers("M2 Max 60 vs M4 Max 85 tok/s")] == [
        ("60", "tok/s"),
        ("85", "tok/s"),
    ]
    # a setting's remark is no side's name; "由 A 到 B" is a change (from A to B), no range
    assert [(n.text, n.unit) for n in numbers("concurrency 16 (default) vs 45 tok/s")] == [
        ("16", None),
        ("45", "tok/s"),
    ]
    assert [(n.text, n.unit) for n in numbers("由 800 到 1200 tok/s")] == [
        ("800", "tok/s"),
        ("1200", "tok/s"),
    ]
    # both decodings named: the negation is one side's
    assert header_decoding("推测解码 vs 无推测解码 加速比") == "speculative"
    # "同時2モデルをロード" (two models loaded at once) sets no concurrency
    cf = _drafted("# MLX\n\n同時2モデルをロードした状態で 80 tok/s\n", tmp_path)
    assert [(c.metric, _cond(cf, c).get("concurrency")) for c in cf.claims] == [("decode_tps", None)]
    # a scaling table's one-card row stays one card beside the cluster the setup names
    out = tmp_path / "scaling"
    out.mkdir()
    cf = _drafted(
        "# Scaling\n\n## Setup\n\n- GPU: 8x H100 80GB SXM\n\n"
        "| GPUs | tok/s |\n|---|---|\n| 1x H100 | 1500 |\n| 2x H100 | 2800 |\n| 8x H100 | 9000 |\n",
        out,
    )
    assert {c.value: _cond(cf, c)["hardware"] for c in cf.claims} == {
        1500: "NVIDIA H100 80GB SXM",
        2800: "2x NVIDIA H100 80GB SXM",
        9000: "8x NVIDIA H100 80GB SXM",
    }
    # "占比" is a share, no ratio; a "提示" column of notes is no prompt
    out = tmp_path / "share"
    out.mkdir()
    cf = _drafted(
        "# 显存\n\n| 模型 | 显存占比 | 提示 |\n|---|---|---|\n| Qwen3-8B | 22% | 需要 8GB 显存 |\n", out
    )
    (c,) = [c for c in cf.claims if c.unit == "%"]
    assert (c.metric, _cond(cf, c).get("prompt")) == ("share", None)
    # an image's alt text in words is read, a file's name is not
    out = tmp_path / "alt"
    out.mkdir()
    cf = _drafted("# Bench\n\n![Llama 3 8B Q4_K_M on RTX 4090](chart.png)\n\nDecode: 128 tok/s\n", out)
    got = _cond(cf, cf.claims[0])
    assert (got["model"], got["quant"], got["hardware"]) == (
        "Llama 3 8B",
        "Q4_K_M",
        "NVIDIA GeForce RTX 4090",
    )


def test_a_multiple_after_a_drafted_rate_relates_it_to_the_plain_one(tmp_path):
    """A new user's post: "The baseline decoded at 95.3 tok/s. … decoding reached 190.6 tok/s, so
    speculative decoding is 3x faster." then a prefill rate on the next line: the 3x relates the
    drafted rate to the one plain-decoding rate of its metric (the audit then finds the 2.0 against
    3x), no claim of a speedup without sides; a post with no plain rate keeps the claim."""
    post = (
        "# Speculative decoding on my laptop\n\n"
        "I ran llama-server with SmolLM2-135M Q4_1 on a 2-core CPU. The baseline decoded at 95.3 tok/s.\n"
        "With a Q2_K draft model (`--draft-max 8 -ngl 0`) decoding reached 190.6 tok/s, so speculative "
        "decoding is 3x faster.\nPrompt processing stayed at 1,210 tok/s in both runs, and the acceptance "
        "rate was 0.82.\n"
    )
    cf = _drafted(post, tmp_path)
    ids = {c.value: c.id for c in cf.claims}
    assert [(s.value, tuple(s.of)) for s in cf.statements] == [(3, (ids[190.6], ids[95.3]))]
    assert [c for c in cf.claims if c.metric == "speedup"] == []
    other = tmp_path / "alone"
    other.mkdir()
    cf = _drafted(
        "# Spec\n\nWith a draft model (`--draft-max 8`) decoding reached 190.6 tok/s, so speculative "
        "decoding is 3x faster.\nPrompt processing stayed at 1,210 tok/s.\n",
        other,
    )
    assert cf.statements == []
    assert [(c.metric, c.value) for c in cf.claims if c.unit == "x"] == [("speedup", 3)]

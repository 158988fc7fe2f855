"""Kinds fixed in issue 29's session 60 (read from the thirty-seventh held-out set's misses, h436–h445,
once a thirty-eighth set replaced it as the clean one), each with controls: a heading's rate reached a
sibling section's table; a column of two-decimal rates repeating one value was read as labels;
configurations numbered "C0", "C1 fixed 3" were read as concurrency; a legend of configurations under
a setup heading set its one row's draft size for the whole post; llama.cpp's ``--spec-*`` options
named no engine; KoboldCpp's benchmark (its console line's Init, its results block, its CSV) gave no
conditions; a version leading a line was no build; "GeForce 4070 Super" and an imatrix quant
("i1-IQ4_XS") were not read; "processing prompt" was a prompt's name."""

from __future__ import annotations

from benchbook.audit.draftcommand import model_and_quant
from benchbook.audit.draftnames import mentions
from benchbook.audit.draftwords import settings_in_words
from benchbook.audit.toollines import kobold_csv
from drafting import conditions as _cond
from drafting import drafted as _drafted

_SUITE = """\
# spec : adaptive draft depth

## Result Summary (generation t/s, mean of 2 repeats)

| config | reasoning | prose | code |
|---|---|---|---|
| C0 baseline | 30.03 | 30.08 | 29.98 |
| C1 fixed 3 | 51.68 | 55.89 | 69.28 |
| C2 fixed 12 | 38.59 | 43.46 | 71.46 |
| C5 ngram-mod | 30.03 | 30.10 | 29.97 |

## Run Configuration Set

| ID | spec type | args |
|----|-----------|------|
| C0 | none | - |
| C1 | draft-mtp, fixed 3 | `--spec-draft-n-max 3` |
"""


def test_a_suite_table_of_configurations_is_read_as_rates_of_named_configurations(tmp_path):
    """Every cell of the result table is a decode rate in t/s (its "reasoning" column repeats 30.03: two
    runs, still results); "C2 fixed 12" names a configuration, not two requests at once (the
    rate stays decode_tps); the configuration table under the next heading states no rate; the
    legend's ``--spec-draft-n-max 3`` is C1's, not every row's; its flags name llama.cpp."""
    cf = _drafted(_SUITE, tmp_path)
    values = sorted(float(c.value) for c in cf.claims)
    assert values == sorted(
        [30.03, 30.08, 29.98, 51.68, 55.89, 69.28, 38.59, 43.46, 71.46, 30.03, 30.10, 29.97]
    )
    assert {c.metric for c in cf.claims} == {"decode_tps"}
    assert {str(c.unit) for c in cf.claims} == {"t/s"}
    for c in cf.claims:
        cond = _cond(cf, c)
        assert "concurrency" not in cond
        assert cond.get("block_max") is None
        assert cond["engine"] == "llama.cpp"


def test_a_heading_rate_holds_under_its_subsection(tmp_path):
    """Control: a table under a subsection of a heading that states the rate still takes it."""
    text = (
        "# Bench\n\n## Summary (generation t/s)\n\n### Suite A\n\n| config | prose | code |\n|---|---|---|\n"
        "| baseline | 30.08 | 30.03 |\n| fixed 3 | 55.89 | 69.28 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [30.03, 30.08, 55.89, 69.28]
    assert {str(c.unit) for c in cf.claims} == {"t/s"}


def test_a_column_of_round_settings_repeating_stays_labels(tmp_path):
    """Control: whole numbers that repeat ("8", "8", "16") under a rate heading are a setting's column."""
    text = (
        "## Throughput (tok/s)\n\n| model | threads | speed |\n|---|---|---|\n"
        "| A | 8 | 10.5 tok/s |\n| B | 8 | 12.5 tok/s |\n| C | 16 | 20.5 tok/s |\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [10.5, 12.5, 20.5]


def test_concurrency_rows_without_a_c0_still_set_concurrency(tmp_path):
    """Control: "C1"/"C8" rows with no "C0" are requests at once (vLLM's and llama-benchy's labels)."""
    text = "| conc | output tok/s |\n|---|---|\n| C1 | 50.5 |\n| C8 | 310.2 |\n"
    cf = _drafted(text, tmp_path)
    got = {float(c.value): _cond(cf, c).get("concurrency") for c in cf.claims}
    assert got == {50.5: 1, 310.2: 8}


_KOBOLD = """\
# Slowdown on processing prompt upgrading from 1.78 to 1.79

Running GeForce 4070 Super 12 GB

```
Processing Prompt [BLAS] (16284 / 16284 tokens)
Generating (100 / 100 tokens)
CtxLimit:16384/16384, Amt:100/100, Init:0.07s, Process:21.22s (1.3ms/T = 767.28T/s), \
Generate:23.24s (232.4ms/T = 4.30T/s), Total:44.46s (2.25T/s)
Benchmark Completed - v1.78 Results:
======
Flags: NoAVX2=False Threads=8 HighPriority=False BlasThreads=16 BlasBatchSize=512 FlashAttention=True \
KvCache=0
Backend: koboldcpp_cublas.dll
Layers: 59
Model: Cydonia-22B-v1.3.i1-IQ4_XS
MaxCtx: 16384
GenAmount: 100
-----
ProcessingTime: 21.223s
```
"""


def test_a_koboldcpp_benchmark_report_sets_its_run(tmp_path):
    """The results block names the engine and release (build 1.78), backend (cublas: CUDA), layers,
    model file (model and its imatrix quant), context, tokens, threads, batch and flash attention; the
    console line's "Init:0.07s" is a duration of phase init; the title's "processing prompt" is no
    prompt's name; "GeForce 4070 Super" is the RTX card."""
    cf = _drafted(_KOBOLD, tmp_path)
    init = next(c for c in cf.claims if float(c.value or 0) == 0.07)
    assert (init.metric, str(init.unit)) == ("duration", "s")
    cond = _cond(cf, init)
    assert cond["other"]["phase"] == "init"
    rate = next(c for c in cf.claims if c.metric == "decode_tps" and float(c.value) == 4.30)
    cond = _cond(cf, rate)
    assert cond["engine"] == "KoboldCpp"
    assert cond["build"] == "1.78"
    assert cond["backend"] == "CUDA"
    assert (cond["model"], cond["quant"]) == ("Cydonia-22B-v1.3", "i1-IQ4_XS")
    assert (cond["ctx"], cond["tokens_generated"], cond["batch"]) == (16384, 100, 512)
    assert cond["offload"]["n_gpu_layers"] == 59
    assert cond["flash_attn"] is True
    assert cond["hardware"] == "NVIDIA GeForce RTX 4070 Super"
    assert "prompt" not in cond


def test_koboldcpp_benchmark_csv_rows_are_results_by_their_header():
    lines = [
        (
            1,
            "Timestamp,Backend,Layers,Model,MaxCtx,GenAmount,ProcessingTime,ProcessingSpeed,GenerationTime,GenerationSpeed,TotalTime,Output",
        ),
        (
            2,
            "2024-07-14 14:42:20.687625+00:00,koboldcpp_vulkan.dll,81,opus-v1.2-70b.Q6_K,8192,100,"
            "81.77,98.96,14.44,6.93,96.21,11111",
        ),
        (3, "some words after the table, 1, 2, 3"),
    ]
    got = kobold_csv(lines)
    assert list(got) == [2]
    results = [(r.metric, r.value, r.unit, (r.conditions.get("other") or {}).get("phase")) for r in got[2]]
    assert results == [
        ("duration", "81.77", "s", "prefill"),
        ("prefill_tps", "98.96", "t/s", None),
        ("duration", "14.44", "s", "decode"),
        ("decode_tps", "6.93", "t/s", None),
        ("duration", "96.21", "s", "total"),
    ]
    cond = got[2][0].conditions
    assert (cond["backend"], cond["ctx"], cond["tokens_generated"]) == ("Vulkan", 8192, 100)
    assert cond["offload"] == {"n_gpu_layers": 81}
    assert (cond["model"], cond["quant"]) == ("opus-v1.2-70b", "Q6_K")
    # each result spans its own cell
    line = lines[1][1]
    assert [line[r.start : r.end] for r in got[2]] == ["81.77", "98.96", "14.44", "6.93", "96.21"]
    assert kobold_csv([(1, "a,b,c"), (2, "1,2,3")]) == {}


def test_geforce_without_rtx_and_imatrix_quants():
    assert [(m.path, m.value) for m in mentions("on a GeForce 3090 card")] == [
        ("hardware", "NVIDIA GeForce RTX 3090")
    ]
    assert model_and_quant("Meta-Llama-3.1-70B-Instruct.i1-Q6_K.gguf") == (
        "Meta-Llama-3.1-70B-Instruct",
        "i1-Q6_K",
    )
    assert model_and_quant("Qwen3-8B-Q4_K_M.gguf") == ("Qwen3-8B", "Q4_K_M")


def test_an_engine_version_after_a_full_width_comma():
    said: list = []
    settings_in_words("sglang，0.4.0.post2", said)
    assert ("build", "0.4.0.post2") in said


def test_a_gguf_file_at_the_end_of_a_link_or_a_windows_path():
    link = "[x](https://huggingface.co/Darkhn/L3.3-70B-Animus-V12.1-GGUF/blob/main/Q/L3.3-70B-Animus-V12.1-Q4_K_M.gguf)"
    for text in (link, '"model_param": "C:/models/L3.3-70B-Animus-V12.1-Q4_K_M.gguf"'):
        got = [(m.path, m.value) for m in mentions(text)]
        assert got == [("model", "L3.3-70B-Animus-V12.1"), ("quant", "Q4_K_M")]


def test_ubergarm_smol_quants():
    assert [(m.path, m.value) for m in mentions("GLM-5 smol-IQ2_KS - Draft size = 10")] == [
        ("model", "GLM-5"),
        ("quant", "smol-IQ2_KS"),
    ]
    assert model_and_quant("GLM-5-smol-IQ2_KS.gguf") == ("GLM-5", "smol-IQ2_KS")


_MTP_TABLE = """\
# Add GLM 5 MTP

## GLM-5 smol-IQ2_KS, -ot "blk\\.78\\..*=CUDA1", --seed 42

| Prompt | Baseline (ts) | MTP (ts) |
|--------|---------------|----------|
| Quicksort python | 8.18 | 6.90 |
| Test reasoning | 8.23 | 5.36 |

| Mode | Value |
|---|---:|
| Post-merge baseline smoke | `11.1 +/- 0.1 t/s` |
| Post-fix smoke run | `10.0 +/- 0.4 t/s` |
"""


def test_ts_headers_a_tensor_override_device_and_a_mode_cell_naming_no_decoding(tmp_path):
    """ "(ts)" is tokens a second; '-ot "…=CUDA1"' runs on CUDA; a "Mode" cell that names no decoding
    ("Post-fix smoke run") is no decoding (the row's name, under other)."""
    cf = _drafted(_MTP_TABLE, tmp_path)
    rates = {float(c.value): c for c in cf.claims}
    assert sorted(rates) == [5.36, 6.90, 8.18, 8.23, 10.0, 11.1]
    assert {str(c.unit) for c in cf.claims} == {"t/s"}
    for c in cf.claims:
        assert _cond(cf, c)["backend"] == "CUDA"
    assert _cond(cf, rates[11.1])["decoding"] == "plain"  # "baseline": plain decoding
    smoke = _cond(cf, rates[10.0])
    assert smoke.get("decoding") != "Post-fix smoke run"
    assert smoke["other"]["mode"] == "Post-fix smoke run"


def test_a_speedup_noun_before_its_percentage_is_a_change(tmp_path):
    """ "a much more significant speedup for X - about 65%": a speed change, not a share; control: "65%
    of the layers" stays a share."""
    text = (
        "# MTP on CPU\n\nI now observe a much more significant speedup for Qwen3.6-35B-A3B - about 65% for "
        "`--draft-max 4`.\n\nThe GPU held 65% of the layers.\n"
    )
    cf = _drafted(text, tmp_path)
    got = {c.source_line: c.metric for c in cf.claims}
    assert got == {3: "speed_change", 5: "share"}


def test_a_range_with_an_open_upper_end_keeps_its_unit():
    """ "60 to 80+ tokens per second" is the range 60–80 in tok/s (the "+" lost the unit before)."""
    from benchbook.audit.draftprose import numbers

    got = [(n.text, n.unit, n.range) for n in numbers("8B models run at 60 to 80+ tokens per second")]
    assert got == [("60–80", "tok/s", ("60", "80"))]


def test_the_latency_between_tokens_in_chinese_is_itl():
    from benchbook.audit.draftprose import metric_of

    assert metric_of("ms", "token间延迟平均约") == "itl"
    assert metric_of("ms", "令牌间的延迟为") == "itl"
    assert metric_of("ms", "推理延迟") == "latency"  # control: the latency of inference


_ISSUE = """\
# Slow prompt processing after upgrading

Prompt processing went from 767.28 t/s to 587.23 t/s on the same prompt.
"""


def test_a_link_to_an_engine_s_repository_names_the_engine_of_a_post_naming_none(tmp_path):
    """``claims draft --link``: the link is the draft's source.link, and an issue of KoboldCpp's
    repository is KoboldCpp's runs (a guess, its origin the repository); without a link, or with a link
    to a repository of no engine, no engine; a post naming its engine keeps it."""
    from benchbook.audit import schema
    from benchbook.cli import main

    post = tmp_path / "issue.md"
    post.write_text(_ISSUE, encoding="utf-8")
    link = "https://github.com/LostRuins/koboldcpp/issues/1266"
    assert main(["claims", "draft", str(post), "--link", link]) == 0
    out = tmp_path / "issue.claims.yaml"
    cf = schema.load(out)
    assert str(cf.source.link) == link
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"KoboldCpp"}
    assert "LostRuins/koboldcpp, KoboldCpp's repository" in out.read_text(encoding="utf-8")
    other = tmp_path / "other.md"
    other.write_text(_ISSUE, encoding="utf-8")
    assert main(["claims", "draft", str(other), "--link", "https://github.com/someone/notes/issues/3"]) == 0
    cf = schema.load(tmp_path / "other.claims.yaml")
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {None}
    named = tmp_path / "named.md"
    named.write_text(_ISSUE.replace("went from", "in Ollama went from"), encoding="utf-8")
    assert main(["claims", "draft", str(named), "--link", link]) == 0
    cf = schema.load(tmp_path / "named.claims.yaml")
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"Ollama"}


def test_repository_engines_and_a_saved_page_s_own_address():
    from benchbook.audit.draftnames import repository_engine
    from benchbook.audit.post import page_link

    assert repository_engine("https://github.com/vllm-project/vllm/issues/12845") == (
        "vLLM",
        "vllm-project/vllm",
    )
    assert repository_engine("https://github.com/ikawrakow/ik_llama.cpp/pull/1513") == (
        "ik_llama.cpp",
        "ikawrakow/ik_llama.cpp",
    )
    assert repository_engine("https://github.com/vllm-project/vllm-ascend/issues/770") == (
        "vLLM",
        "vllm-project/vllm-ascend",
    )
    assert repository_engine("https://github.com/someone/benchmarks/issues/1") is None
    assert repository_engine("https://example.com/vllm/post") is None
    page = '<html><head><link rel="canonical" href="https://example.com/p/1"><title>x</title></head></html>'
    assert page_link(page) == "https://example.com/p/1"
    og = '<head><meta property="og:url" content="https://blog.example/x"></head>'
    assert page_link(og) == "https://blog.example/x"
    assert page_link("<html><body>no address</body></html>") is None


def test_audit_of_a_post_takes_its_link(tmp_path, capsys, monkeypatch):
    """``benchbook audit POST.md --link URL`` drafts as ``claims draft --link`` does; a link with two
    posts is refused (it names where one post was published)."""
    from benchbook.audit import schema
    from benchbook.audit.command import main as audit_main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.md").write_text(_ISSUE, encoding="utf-8")
    link = "https://github.com/sgl-project/sglang/issues/2805"
    assert audit_main(["p.md", "--link", link, "--out", "out"]) == 0
    cf = schema.load(tmp_path / "p.claims.yaml")
    assert str(cf.source.link) == link
    assert {_cond(cf, c).get("engine") for c in cf.claims} == {"SGLang"}
    (tmp_path / "q.md").write_text(_ISSUE, encoding="utf-8")
    assert audit_main(["p.md", "q.md", "--link", link]) != 0
    assert "--link names where one post was published" in capsys.readouterr().err


def test_a_verb_and_by_before_a_size_is_a_difference_statement(tmp_path):
    """ "drops peak memory by 11.2 GB" relates the two rows whose difference it is (39.78 - 28.54); its
    "or 28%" is the same change as a percentage (a change of unstated sides here, no share); control:
    "uses 11.2 GB" states a size."""
    text = (
        "| step | peak GB |\n|---|---|\n| 2048 | 39.78 |\n| 512 | 28.54 |\n\n"
        "Going from 2048 to 512 drops peak memory by 11.2 GB, or 28%, at a 128K context.\n\n"
        "The 8B model uses 11.2 GB.\n"
    )
    cf = _drafted(text, tmp_path)
    diff = [s for s in cf.statements if s.kind == "difference"]
    assert len(diff) == 1 and float(diff[0].value) == 11.2
    values = {c.id: float(c.value) for c in cf.claims}
    assert sorted(values[x] for x in diff[0].of) == [28.54, 39.78]
    pct = [s for s in cf.statements if s.kind == "percent_change"]
    assert [(float(s.value), [values[x] for x in s.of]) for s in pct] == [(-28.0, [39.78, 28.54])]
    assert [(c.source_line, float(c.value)) for c in cf.claims if c.source_line == 8] == [(8, 11.2)]


def test_the_second_of_two_parallel_phrases_takes_the_first_s_unit():
    """ "roughly 40 to 60 tokens per second for 8B models and 25 to 40 for 14B models": the second range
    is in tok/s, and roughly too; controls: a unit of its own, and no parallel preposition after it."""
    from benchbook.audit.draftprose import numbers

    def got(text: str) -> list[tuple[str, str | None, bool]]:
        return [(n.text, n.unit, n.about) for n in numbers(text)]

    assert got("expect roughly 40 to 60 tokens per second for 8B models and 25 to 40 for 14B models.") == [
        ("40–60", "tok/s", True),
        ("25–40", "tok/s", True),
    ]
    assert got("40 tok/s for 8B and 25 GB for 14B") == [("40", "tok/s", False), ("25", "GB", False)]
    assert got("40 tok/s for 2 users and 25 users") == [
        ("40", "tok/s", False),
        ("2", None, False),
        ("25", None, False),
    ]


def test_a_gerund_of_change_before_a_percentage_range_is_a_change(tmp_path):
    """ "cutting effective generation speed by 40 to 60 percent": a decode change of -60 to -40%, not a
    share; "roughly 20 to 30 percent of the model" stays a share."""
    text = (
        "# Ollama speed\n\nOn an 8GB GPU, roughly 20 to 30 percent of the model spills to CPU, cutting "
        "effective generation speed by 40 to 60 percent.\n"
    )
    cf = _drafted(text, tmp_path)
    got = sorted((c.metric, tuple(float(x) for x in c.range), c.about) for c in cf.claims)
    assert got == [("decode_change", (-60.0, -40.0), False), ("share", (20.0, 30.0), True)]


def test_koboldcpp_configuration_keys():
    """KoboldCpp's configuration file (its .kcpps JSON): gpulayers, contextsize, blasbatchsize."""
    from benchbook.audit.draftwords import config_settings

    said: list = []
    config_settings('{"threads": 16, "contextsize": 32768, "gpulayers": 81, "blasbatchsize": 512}', said)
    want = [("batch", 512), ("ctx", 32768), ("offload.n_gpu_layers", 81), ("other.threads", 16)]
    assert sorted(said) == want

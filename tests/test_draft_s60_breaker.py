"""A breaker's findings against session 60's drafter kinds (issue 29), each with its right value: a
setext or blockquoted heading's level misread (a subsection dropped its parent's rate); bpw cells that
repeat read as rates; a column header's "C8" lost as streams; a three-column setup table read as a
legend of configurations; a section number or a result before a dash read as a release; a URL's slug
read as a model; the model regex quadratic on runs of ":" and "/"; one KoboldCpp prompt size given to
every request of a block; a quoted CSV cell with commas ending KoboldCpp's CSV; a full-width comma
before a multiple or a time read as a release."""

from __future__ import annotations

from benchbook.audit.draftnames import _MODEL, mentions
from benchbook.audit.draftwords import settings_in_words
from benchbook.audit.toollines import kobold_csv
from drafting import LINEAR, cpu_growth
from drafting import conditions as _cond
from drafting import drafted as _drafted

_TABLE = "| concurrency | H100 | A100 |\n|---|---|---|\n| 8 | 12.5 | 8.2 |\n| 16 | 20.1 | 13.3 |\n"


def _rates(cf) -> list[tuple[str, float]]:
    return sorted((c.metric, float(c.value)) for c in cf.claims)


_REQUESTS = [
    ("request_throughput", 8.2),
    ("request_throughput", 12.5),
    ("request_throughput", 13.3),
    ("request_throughput", 20.1),
]


def test_a_setext_title_keeps_its_rate_over_a_subsection(tmp_path):
    """ "Request throughput (req/s)" underlined with "=" is a level-1 heading: its "## Llama 3 8B" is a
    subsection, whose table takes the rate."""
    cf = _drafted(
        "Request throughput (req/s)\n==========================\n\n## Llama 3 8B\n\n" + _TABLE, tmp_path
    )
    assert _rates(cf) == _REQUESTS


def test_headings_inside_a_blockquote_keep_their_levels(tmp_path):
    text = "# Reposting a friend's numbers\n\n> ### Request throughput (req/s)\n>\n"
    text += "> #### Llama 3 8B on vLLM\n>\n"
    text += "".join(f"> {line}\n" for line in _TABLE.splitlines())
    assert _rates(_drafted(text, tmp_path)) == _REQUESTS


def test_bpw_cells_that_repeat_stay_labels(tmp_path):
    text = (
        "# Qwen2.5 7B\n\n## Generation (t/s)\n\n| quant | bpw | 4090 | 3090 |\n|---|---|---|---|\n"
        "| Q4_0 | 4.55 | 120.5 | 100.1 |\n| Q4_K_S | 4.58 | 115.2 | 96.3 |\n"
        "| Q4_K_M | 4.89 | 110.8 | 92.4 |\n"
        "| IQ4_NL | 4.55 | 105.1 | 88.0 |\n"
    )
    cf = _drafted(text, tmp_path)
    assert sorted(float(c.value) for c in cf.claims) == [88.0, 92.4, 96.3, 100.1, 105.1, 110.8, 115.2, 120.5]


def test_a_column_headed_c8_is_eight_streams_summed(tmp_path):
    text = (
        "# vLLM vs SGLang on H100, Llama 3.1 8B\n\n## Output throughput (tok/s)\n\n"
        "| engine | C1 | C8 | C32 |\n"
        "|---|---|---|---|\n| vLLM | 150.2 | 980.5 | 2810.4 |\n| SGLang | 160.1 | 1010.3 | 2950.8 |\n"
    )
    got = {float(c.value): c.metric for c in _drafted(text, tmp_path).claims}
    assert got == {
        150.2: "decode_tps",
        160.1: "decode_tps",
        980.5: "throughput",
        1010.3: "throughput",
        2810.4: "throughput",
        2950.8: "throughput",
    }


def test_a_three_column_setup_table_is_still_the_setup(tmp_path):
    text = (
        "# Qwen2.5 32B speed test\n\n## Setup\n\n| Component | Details | Notes |\n|---|---|---|\n"
        "| GPU | RTX 4090 | 24 GB, 450W |\n| CPU | Ryzen 9 7950X | 16 cores |\n"
        "| Engine | llama.cpp b4500 | CUDA 12.4 |\n| Context | 8192 | flash attention on |\n\n"
        "## Results\n\nGeneration ran at 38.5 tok/s and prompt processing at 2150 tok/s.\n"
    )
    cf = _drafted(text, tmp_path)
    rate = next(c for c in cf.claims if c.metric == "decode_tps")
    cond = _cond(cf, rate)
    assert (cond["engine"], cond["build"], cond["ctx"]) == ("llama.cpp", "b4500", 8192)
    assert cond["hardware"] == "NVIDIA GeForce RTX 4090"


def test_a_number_before_a_dash_is_no_release(tmp_path):
    """A section number ("## 3.2 - Results"), a result ("12.5 - tokens per second") or a setting ("0.7 -
    greedy off") before a dash names no build; only a list of lines each led by a different release
    does ("1.66.1 - …", "1.67 - …")."""
    for text in (
        "# Qwen2.5 14B on RTX 4090 with llama.cpp\n\n## 3.2 - Results\n\nGeneration: 62.3 tok/s.\n",
        "# Ollama on a 3060\n\nSpeeds I got:\n\n12.5 - tokens per second with the default context\n"
        "45.2 - tokens per second with num_gpu 33\n",
        "# Qwen2.5 14B on RTX 4090 with llama.cpp\n\nResults per temperature:\n\n"
        "0.7 - greedy off, 62.3 tok/s\n",
    ):
        cf = _drafted(text, tmp_path)
        assert cf.claims
        assert all("build" not in _cond(cf, c) for c in cf.claims), text
    text = (
        "# Reduced generation speed in 1.67\n\nkoboldcpp benchmark:\n"
        "1.66.1 - prompt processing 8k = 82.44 sec, generation speed = 6.85 t/s\n"
        "1.67 - prompt processing 8k = 81.60 sec, generation speed = 6.28 t/s\n"
    )
    cf = _drafted(text, tmp_path)
    got = {float(c.value): _cond(cf, c).get("build") for c in cf.claims}
    assert got == {82.44: "1.66.1", 6.85: "1.66.1", 81.60: "1.67", 6.28: "1.67"}
    said: list = []
    settings_in_words("2.1 - Hardware", said)
    assert said == []


def test_a_url_slug_names_no_model_and_a_repository_file_does():
    assert mentions("Method follows https://example.com/blog/2024/05/deepseek-v2-lite-16b closely.") == []
    assert [
        (m.path, m.value) for m in mentions("see reddit.com/r/x/comments/1k2abc/llama-3-70b-on-m2-ultra/")
    ] == []
    ref = 'model = "unsloth/gemma-3-1b-it-GGUF:gemma-3-1b-it-Q4_K_M.gguf"'
    assert [(m.path, m.value) for m in mentions(ref)] == [("model", "gemma-3-1b-it"), ("quant", "Q4_K_M")]
    assert [(m.path, m.value) for m in mentions("Qwen/Qwen3-8B")] == [("model", "Qwen3-8B")]


def test_the_model_pattern_is_linear_on_runs_of_colons_and_slashes():
    """Each colon of a run ("a:b/a:b/…", an address list, a hex fingerprint) was a new start of the path
    prefix, each scanning to the run's end: quadratic (16 KB of ":/" took 46.7 s).  Now linear."""
    for unit in (":/", "a:b/", "10.0.0.1:8000/", "de:"):
        growth = cpu_growth(lambda k, unit=unit: list(_MODEL.finditer(unit * k)), 20000 // len(unit))
        assert growth < LINEAR, unit


def test_koboldcpp_requests_of_two_prompt_sizes_state_no_one_size(tmp_path):
    text = (
        "# KoboldCpp 1.78 on a 3090, Mistral-Small-22B Q4_K_M\n\n```\n"
        "Processing Prompt [BLAS] (512 / 512 tokens)\n"
        "CtxLimit:712/8192, Amt:200/200, Init:0.01s, Process:0.35s (0.7ms/T = 1462.86T/s), "
        "Generate:6.10s (30.5ms/T = 32.79T/s), Total:6.45s (31.01T/s)\n"
        "Processing Prompt [BLAS] (7800 / 7800 tokens)\n"
        "CtxLimit:8000/8192, Amt:200/200, Init:0.05s, Process:6.90s (0.9ms/T = 1130.43T/s), "
        "Generate:7.40s (37.0ms/T = 27.03T/s), Total:14.30s (13.99T/s)\n```\n"
    )
    cf = _drafted(text, tmp_path)
    assert len(cf.claims) == 18
    assert all("prompt_tokens" not in (_cond(cf, c).get("other") or {}) for c in cf.claims)
    assert {_cond(cf, c)["engine"] for c in cf.claims} == {"KoboldCpp"}


def test_a_koboldcpp_csv_row_with_a_quoted_output_keeps_the_rows_after_it():
    head = (
        "Timestamp,Backend,Layers,Model,MaxCtx,GenAmount,ProcessingTime,ProcessingSpeed,GenerationTime,"
        "GenerationSpeed,TotalTime,Output,Flags"
    )
    quoted = (
        "2024-11-20 10:05:00,koboldcpp_cublas.dll,59,Cydonia-22B-v1.3.i1-IQ4_XS,16384,100,21.50,757.30,"
        '23.30,4.29,44.80,"1, 1, 1, 1",NoAVX2=False Threads=8'
    )
    plain = (
        "2024-11-20 10:10:00,koboldcpp_cublas.dll,59,Cydonia-22B-v1.3.i1-IQ4_XS,16384,100,21.40,760.00,"
        "23.10,4.33,44.50,11111,NoAVX2=False Threads=8"
    )
    got = kobold_csv([(1, head), (2, quoted), (3, plain)])
    assert {n: [r.value for r in rs] for n, rs in got.items()} == {
        2: ["21.50", "757.30", "23.30", "4.29", "44.80"],
        3: ["21.40", "760.00", "23.10", "4.33", "44.50"],
    }
    assert [quoted[r.start : r.end] for r in got[2]] == ["21.50", "757.30", "23.30", "4.29", "44.80"]


def test_a_full_width_comma_before_a_multiple_or_a_time_is_no_release():
    for text in ("vLLM，1.5倍的吞吐", "Ollama，0.5秒首字延迟", "在vLLM，0.9的gpu利用率下"):
        said: list = []
        settings_in_words(text, said)
        assert not [x for x in said if x[0] == "build"], text
    said = []
    settings_in_words("sglang，0.4.0.post2", said)
    assert ("build", "0.4.0.post2") in said

"""The numbers registry: stable keys, one writer, provenance fields, merge conflicts."""

import json
import re

import pytest

from benchbook.numbers import (
    NO_INTERVAL_POOLED,
    NO_INTERVAL_ROOFLINE,
    NO_INTERVAL_SLOPE,
    OLD_SPELLINGS,
    POSITIVE_UNITS,
    Number,
    Unit,
    line_ranges,
    load_all,
    make_key,
    publish,
)


def num(key="lb-m-tg64-warm", **over):
    base = dict(
        key=key,
        value=42.5,
        unit="tok/s",
        label="m tg64",
        n=5,
        computation="benchbook.analysis.rate_stats",
        sd=1.0,
        ci95=[41.0, 44.0],
        ci_method="student-t on the log scale (delta method), n >= 3 over per-repetition rates",
        sources=[{"file": "data/raw/llama_bench/h.jsonl", "lines": [[3, 7]]}],
        run_ids=["r1"],
        commands=[["llama-bench", "-m", "m.gguf", "-n", "64"]],
        caveats=["busy_host"],
        build="b11434 (unknown) cpu",
        build_number=11434,
        build_commit="unknown",
        toolchain_id="6bcbdc2942c465ab",
        replication="repetitions of one llama-bench test (samples_ns)",
    )
    base.update(over)
    return Number(**base)


def test_make_key_is_stable_and_from_configuration():
    assert make_key("lb", "SmolLM2-135M-Q4_1", "tg", 32) == "lb-smollm2-135m-q4_1-tg-32"
    assert make_key("lb", "a b/c") == make_key("lb", "a b/c") == "lb-a_b_c"


def test_make_key_expr_matches_make_key():
    import polars as pl

    from benchbook.numbers import make_key_expr

    df = pl.DataFrame({"m": ["SmolLM2-135M-Q4_1", "a b/c"], "n": [32, 7]})
    got = df.select(make_key_expr(pl.lit("lb"), "m", pl.lit("tg"), "n"))[:, 0].to_list()
    assert got == [make_key("lb", "SmolLM2-135M-Q4_1", "tg", 32), make_key("lb", "a b/c", "tg", 7)]


def test_keys_hold_no_dot_because_quarto_reads_it_as_a_nested_key():
    # quarto-cli src/resources/filters/quarto-pre/options.lua parseOption: split(name, ".")
    import polars as pl

    from benchbook.numbers import make_key_expr

    assert make_key("ds", "coreset0.6", "draft") == "ds-coreset0_6-draft"
    got = pl.DataFrame({"m": ["coreset0.6"]}).select(make_key_expr(pl.lit("ds"), "m"))[:, 0].to_list()
    assert got == ["ds-coreset0_6"]
    with pytest.raises(ValueError, match="nested key"):
        num(key="ds-coreset0.6").check()


def test_line_ranges():
    # 3,4,5 are consecutive -> [3,5]; 9 alone -> [9,9]; duplicates and order do not matter
    assert line_ranges([9, 5, 3, 4, 4]) == [[3, 5], [9, 9]]
    assert line_ranges([]) == []


def test_published_commands_hold_no_folder_of_the_machine(tmp_path, monkeypatch):
    """Issue 33 §3: a user's own GGUF path (``/home/<user>/…``) and the cache location do not reach
    the registry (which write-ups commit and pages show); the repository's own files stay relative."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data/raw/llama_bench").mkdir(parents=True)
    (tmp_path / "data/raw/llama_bench/h.jsonl").write_text('{"run_id": "r1"}\n' * 8)
    commands = [
        [
            "/home/zqxuser/.cache/benchbook/toolchains/b1-cpu-0123/build/bin/llama-bench",
            "-m",
            "/home/zqxuser/llm/my-model.gguf",
        ],
        [
            "llama-server",
            "--model=/mnt/d/Models/x.gguf",
            "-f",
            str(tmp_path / "data/prompts/p.txt"),
            "-t",
            "2",
        ],
        ["llama-cli", "-m", "C:\\Users\\zqxuser\\my.gguf", "--log-file", "/tmp/run/server.log"],
    ]
    p = publish(tmp_path / "llama_bench.json", "llama_bench", [num(commands=commands)], root=tmp_path)
    assert json.loads(p.read_text())["numbers"]["lb-m-tg64-warm"]["commands"] == [
        ["<cache>/toolchains/b1-cpu-0123/build/bin/llama-bench", "-m", "<models>/my-model.gguf"],
        ["llama-server", "--model=<models>/x.gguf", "-f", "data/prompts/p.txt", "-t", "2"],
        ["llama-cli", "-m", "<models>/my.gguf", "--log-file", "<local>/server.log"],
    ]
    assert "zqxuser" not in p.read_text() and str(tmp_path) not in p.read_text()


def test_publish_writes_every_provenance_field(tmp_path):
    p = publish(tmp_path / "llama_bench.json", "llama_bench", [num()])
    doc = json.loads(p.read_text())
    assert doc["schema"] == "benchbook.numbers" and doc["experiment"] == "llama_bench"
    e = doc["numbers"]["lb-m-tg64-warm"]
    for k in (
        "value",
        "unit",
        "n",
        "sd",
        "ci95",
        "sources",
        "run_ids",
        "computation",
        "commands",
        "build",
        "build_number",
        "build_commit",
        "toolchain_id",
        "model_sha256",
        "host_id",
        "measured_from",
        "measured_to",
        "caveats",
        "experiment",
    ):
        assert k in e, k
    assert e["sources"][0]["lines"] == [[3, 7]] and e["caveats"] == ["busy_host"]
    assert load_all(tmp_path)["lb-m-tg64-warm"]["value"] == 42.5


@pytest.mark.parametrize(
    "bad, msg",
    [
        (dict(value=float("nan")), "not a finite number"),
        (dict(ci95=[44.0, 41.0]), "is not \\[low, high\\]"),
        (dict(sources=[], run_ids=[]), "no source records"),
        (dict(key="Bad Key"), "key must match"),
        (dict(build=None), "no build; every number names the build"),
        # the generic publish checks of issue 26 (a bad Number each)
        (dict(value=float("inf")), "not a finite number"),
        (dict(unit="x"), "unit 'x' is not a numbers.Unit; fix: Unit.SPEEDUP \\('×'\\)"),
        (dict(unit="furlongs"), "unit 'furlongs' is not a numbers.Unit; fix: add it to numbers.Unit"),
        (dict(ci95=[41.0, float("nan")]), "not \\[low, high\\] of finite numbers"),
        (dict(n=2), "an interval from n = 2 .*fix: ci95=None"),
        (dict(ci_method=None), "without its method"),
        (dict(ci_method="none"), "without its method"),
        (dict(ci_method="student-t over repetitions"), "not on the log scale"),
        (dict(ci95=[-1.0, 44.0]), "leaves the domain of a positive value"),
        (dict(ci95=None, ci_method=None), "a tok/s from n = 5 without an interval and without saying why"),
        (dict(commands=[]), "no command"),
        (dict(commands=[[]]), "no command"),
    ],
)
def test_publish_rejects_unusable_numbers(tmp_path, bad, msg):
    with pytest.raises(ValueError, match=msg):
        publish(tmp_path / "x.json", "x", [num(**bad)])
    assert not (tmp_path / "x.json").exists()


def test_duplicate_keys_rejected_within_and_across_files(tmp_path):
    with pytest.raises(ValueError, match="duplicate number key"):
        publish(tmp_path / "a.json", "a", [num(), num()])
    publish(tmp_path / "a.json", "a", [num()])
    publish(tmp_path / "b.json", "b", [num()])
    with pytest.raises(ValueError, match="already published by a"):
        load_all(tmp_path)


def test_units_are_one_enum_with_a_meaning_each_and_the_positive_ones_are_the_rates_and_ratios():
    # one spelling per quantity: the old spellings map onto members, none of them is a member itself
    assert all(old not in {u.value for u in Unit} for old in OLD_SPELLINGS)
    assert OLD_SPELLINGS["x"] is Unit.SPEEDUP and OLD_SPELLINGS["tokens/verify step"] is Unit.TAU
    assert all(u.meaning for u in Unit)
    assert set(POSITIVE_UNITS) == {
        "tok/s", "MiB/s", "GB/s", "×", "tok/step", "tokens/pass", "expert loads/token", "experts/layer"
    }  # fmt: skip
    # signed quantities are not positive: a residual, a percent gap, a slope
    assert not (Unit.FRACTION.positive or Unit.PERCENT.positive or Unit.MIB_PER_DRAFT_TOKEN.positive)


def test_a_number_without_an_interval_passes_when_the_report_says_why_or_below_three_samples(tmp_path):
    # n = 5 with a reason: published as is; n = 2 without: publish writes "none: n < 3"
    pooled = num(key="a", ci95=None, ci_method=NO_INTERVAL_POOLED)
    small = num(key="b", ci95=None, ci_method=None, n=2)
    slope = num(key="c", ci95=None, ci_method=NO_INTERVAL_SLOPE, unit=Unit.MIB_PER_DRAFT_TOKEN)
    publish(tmp_path / "x.json", "x", [pooled, small, slope])
    got = load_all(tmp_path)
    assert [got[k]["ci_method"] for k in "abc"] == [NO_INTERVAL_POOLED, "none: n < 3", NO_INTERVAL_SLOPE]
    assert got["c"]["unit"] == "MiB/draft token"


@pytest.mark.parametrize("unit", [Unit.TOK_S, Unit.PERCENT, Unit.FRACTION, Unit.MS, Unit.SPEEDUP_TREND])
@pytest.mark.parametrize("said", [None, "none", "none:", "a slope"])
def test_a_bare_none_from_three_samples_is_refused_for_every_unit(tmp_path, unit, said):
    """Issue 26 §3: 42 numbers (26 draft-self model gaps, 4 speculative speedup trends, 7 offload
    rooflines, 4 depth memory slopes, 1 GPU decode pass time) were published with ci_method "none":
    ``publish`` wrote it for a number of a signed unit without an interval, so a reader could not tell
    "no interval exists" from "the report forgot one".  Right: from n = 3 a number without an interval
    says why ("none: <why>", a ``numbers.NO_INTERVAL_*`` reason), whatever its unit."""
    with pytest.raises(
        ValueError, match=f"a {re.escape(str(unit))} from n = 5 without an interval and without saying why"
    ):
        publish(tmp_path / "x.json", "x", [num(ci95=None, ci_method=said, unit=unit)])
    assert not (tmp_path / "x.json").exists()
    # the control: the same number with its reason, or from 2 samples, is published
    publish(tmp_path / "x.json", "x", [num(ci95=None, ci_method=NO_INTERVAL_ROOFLINE, unit=unit)])
    publish(
        tmp_path / "y.json",
        "y",
        [num(ci95=None, ci_method=said if said != "none:" else None, n=2, unit=unit)],
    )


def _raw(tmp_path, *records):
    """``tmp_path/data/raw/e/h.jsonl`` with ``records`` one per line (line 1, 2, ...)."""
    f = tmp_path / "data/raw/e/h.jsonl"
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text("".join(json.dumps(r) + "\n" for r in records))
    return "data/raw/e/h.jsonl"


def test_run_ids_are_those_of_the_cited_records(tmp_path):
    f = _raw(tmp_path, {"run_id": "r1"}, {"run_id": "r2"}, {"schema": "train", "steps": 5})
    cite = dict(sources=[{"file": f, "lines": [[1, 2]]}])
    publish(tmp_path / "ok.json", "e", [num(**cite, run_ids=["r1", "r2"])], root=tmp_path)
    # line 2 is run r2's: a number citing it must name r2
    with pytest.raises(ValueError, match="cites records of 1 run\\(s\\) its run_ids leave out \\(r2\\)"):
        publish(tmp_path / "x.json", "e", [num(**cite, run_ids=["r1"])], root=tmp_path)
    # r3 is the run of no cited record
    with pytest.raises(ValueError, match="run_ids r3 belong to none of the records it cites"):
        publish(tmp_path / "x.json", "e", [num(**cite, run_ids=["r1", "r2", "r3"])], root=tmp_path)
    # a record without a run id (a training record) needs none; a missing file cannot show that
    train = dict(sources=[{"file": f, "lines": [[3, 3]]}], run_ids=[])
    publish(tmp_path / "ok.json", "e", [num(**train)], root=tmp_path)
    gone = dict(sources=[{"file": "data/raw/e/gone.jsonl", "lines": [[1, 1]]}], run_ids=[])
    with pytest.raises(ValueError, match="no run ids, and its cited files are not there"):
        publish(tmp_path / "x.json", "e", [num(**gone)], root=tmp_path)
    assert not (tmp_path / "x.json").exists()


def test_paths_inside_a_tools_stderr_are_made_public():
    """The offload page quoted llama-bench's stderr with the cache's absolute path (a clean clone's
    built site: 5 pages with /root/...); free text keeps its words, paths lose the machine's folders."""
    from benchbook.paths import public_text

    assert (
        public_text(
            "exit -6: /root/.cache/benchbook/toolchains/b1-cuda-0c/build/bin/libggml-cuda.so.0(+0x12) [0x7f]"
        )
        == "exit -6: <cache>/toolchains/b1-cuda-0c/build/bin/libggml-cuda.so.0(+0x12) [0x7f]"
    )
    assert public_text("failed to load /home/zq/m/x.gguf: out of memory") == (
        "failed to load <models>/x.gguf: out of memory"
    )
    assert public_text("ratio 3/4 and http://x.org/a/b stay") == "ratio 3/4 and http://x.org/a/b stay"
    assert public_text(None) is None

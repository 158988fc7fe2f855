"""The numbers registry: stable keys, one writer, provenance fields, merge conflicts."""

import json

import pytest

from benchbook.numbers import Number, line_ranges, load_all, make_key, publish


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
        sources=[{"file": "data/raw/llama_bench/h.jsonl", "lines": [[3, 7]]}],
        run_ids=["r1"],
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

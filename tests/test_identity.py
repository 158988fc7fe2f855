"""Configuration identity (issue 11 §1): every non-measurement field of a llama-bench row is part of the
configuration; rows of one configuration that disagree beyond their noise are not pooled."""

import json
import warnings

import numpy as np
import polars as pl
import pytest

from benchbook import caveats, identity
from benchbook.experiments.llama_bench import analysis
from test_analysis import lb_record, write


def ns(rates, tokens):
    """samples_ns of per-repetition rates ``rates`` (tok/s) for a test of ``tokens`` tokens."""
    return [round(1e9 * tokens / r) for r in rates]


def pp512(run_id, rates, **row):
    rec = lb_record(run_id, ns(rates, 512), n_prompt=512, n_gen=0)
    rec["llama_bench"].update(row)
    return rec


def stats(tmp_path, recs, **kw):
    write(tmp_path / "h.jsonl", recs)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        st = analysis.rate_stats(analysis.load_llama_bench(tmp_path, **kw))
    return st, [str(x.message) for x in w if issubclass(x.category, identity.IdentityWarning)]


def test_n_ubatch_rows_never_pool(tmp_path):
    # issue 11: pp512 at n_ubatch 512 and 2048, one run; before: one group n=6, mean 1200
    st, _ = stats(
        tmp_path,
        [pp512("a", [990, 1000, 1010], n_ubatch=512), pp512("b", [1390, 1400, 1410], n_ubatch=2048)],
    )
    assert st.height == 2
    assert st["n_ubatch"].to_list() == [512, 2048]
    assert st["n"].to_list() == [3, 3]
    assert st["mean_tps"].to_list() == pytest.approx([1000.0, 1400.0], abs=1e-6)


def test_every_declared_configuration_field_splits(tmp_path):
    # poll is not a column of the table, yet rows differing in it are two configurations
    st, _ = stats(tmp_path, [pp512("a", [1000, 1000, 1000], poll=0), pp512("b", [1000, 1000, 1000], poll=50)])
    assert st.height == 2 and st["config_key"].n_unique() == 2


def test_measurements_do_not_split(tmp_path):
    # test_time, avg_ns, stddev_ts differ between the two records: still one configuration (n = 6)
    st, _ = stats(
        tmp_path,
        [
            pp512("a", [990, 1000, 1010], test_time="2026-01-01T00:00:00Z", avg_ns=1),
            pp512("b", [995, 1005, 1000], test_time="2026-01-01T00:01:00Z", avg_ns=2),
        ],
    )
    assert st.height == 1 and st["n"][0] == 6
    assert not st["state_effect"][0]


def test_unknown_field_is_kept_shown_keyed_and_warned_once(tmp_path):
    recs = [
        pp512("a", [1000, 1000, 1000]),
        pp512("b", [1000, 1001, 1000], kv_unified=1),
        pp512("c", [1000, 999, 1000], kv_unified=1),
        pp512("d", [1000, 1000, 1002], kv_unified=2),
    ]
    st, warned = stats(tmp_path, recs)
    assert st["config_extra"].to_list() == [None, "kv_unified=1", "kv_unified=2"]
    assert st["n"].to_list() == [3, 6, 3]
    # one warning for the field, naming its first file:line (record b is line 2)
    assert len(warned) == 1 and warned[0].startswith(
        f"{tmp_path / 'h.jsonl'}:2: llama_bench field 'kv_unified'"
    )


def test_unknown_field_in_a_later_line_of_other_shape_is_found(tmp_path):
    # a line whose key count equals the first line's is taken to share its keys; a line with an extra
    # key (another count) is looked at: its unknown field is found on line 3
    recs = [pp512("a", [1000] * 3), pp512("b", [1000] * 3), pp512("c", [1000] * 3, fork_flag="x")]
    st, warned = stats(tmp_path, recs)
    assert st.height == 2 and st["config_extra"].to_list() == [None, "fork_flag=x"]
    assert warned[0].startswith(f"{tmp_path / 'h.jsonl'}:3:")


def test_same_configuration_disagreeing_beyond_noise_is_not_pooled(tmp_path):
    # identical configuration, rates 990/1000/1010 then 1390/1400/1410: Welch t = 400/sqrt(2*100/3)
    # = 49.0 on 4 df, p ~ 1e-6 < 0.01 -> two rows flagged state_effect, no pooled number
    st, _ = stats(tmp_path, [pp512("a", [990, 1000, 1010]), pp512("b", [1390, 1400, 1410])])
    assert st.height == 2
    assert st["mean_tps"].to_list() == pytest.approx([1000.0, 1400.0], abs=1e-6)
    assert st["state_effect"].to_list() == [True, True]
    assert st["run_ids"].to_list() == [["a"], ["b"]]
    flagged = caveats.attach(st)
    assert all("state_effect" in c for c in flagged["caveats"].to_list())


def test_same_configuration_within_noise_pools(tmp_path):
    # 990/1000/1010 and 995/1005/1000: means 1000 and 1000, p = 1 -> one row, n = 6
    st, _ = stats(tmp_path, [pp512("a", [990, 1000, 1010]), pp512("b", [995, 1005, 1000])])
    assert st.height == 1 and st["n"][0] == 6 and not st["state_effect"][0]


def test_state_effect_hand_computed():
    # k=3, m=1000, v=100 vs k=3, m=1030, v=100: t = 30/sqrt(200/3) = 3.674, df = 4, p = 0.0213:
    # not below 0.01; with 4 rows (6 pairs) certainly not; m=1060: t = 7.35, p = 0.00183 -> flagged
    f = identity.state_effect([3, 3], [1000, 1000], [100, 100], [3, 3], [1030, 1060], [100, 100], [2, 2])
    assert f.tolist() == [False, True]
    # one sample on a side: no variance, never flagged
    assert identity.state_effect([1], [1000], [np.nan], [3], [2000], [100], [2]).tolist() == [False]


def test_integer_load_mode_keeps_row_unknown_and_warns(tmp_path):
    st, warned = stats(
        tmp_path,
        [pp512("a", [1000] * 3, load_mode="mmap"), pp512("b", [1000] * 3, load_mode=2)],
    )
    assert st["load_mode"].to_list() == ["mmap", None] and st.height == 2
    assert any(
        w.startswith(f"{tmp_path / 'h.jsonl'}:2: llama_bench field 'load_mode' is the integer 2")
        for w in warned
    )


def test_load_mode_string_and_use_mmap_normalised(tmp_path):
    st, warned = stats(
        tmp_path,
        [
            pp512("a", [1000] * 3, load_mode="MMAP"),
            pp512("b", [1000] * 3, load_mode="mmap"),
            pp512("c", [1000] * 3, use_mmap=True),
            pp512("d", [1000] * 3, use_mmap=False),
        ],
    )
    # a, b and c are one configuration (load_mode mmap), d another (none); no warning
    assert st["load_mode"].to_list() == ["mmap", "none"] and st["n"].to_list() == [9, 3]
    assert warned == []
    assert identity.load_mode_value(" MMAP ") == ("mmap", False)
    assert identity.load_mode_value(3) == (None, True)
    assert identity.load_mode_value(False) == ("none", False)


def _blocks(lo, hi):
    return "blk\\.(" + "|".join(str(i) for i in range(lo, hi + 1)) + ")\\.ffn_(up|down|gate)_exps=CPU"


def test_ncmoe_placement_resolved_differently_never_pools(tmp_path):
    # issue 11: one build and session, both -ncmoe 22, overrides resolving to blocks 0-21 and 18-39,
    # 2030 vs 2234 t/s (tg128); before: one group of n = 6
    def tg(run_id, rates, ot):
        rec = lb_record(run_id, ns(rates, 128), n_prompt=0, n_gen=128)
        rec["llama_bench"].update(n_cpu_moe=22, tensor_buft_overrides=ot)
        return rec

    st, _ = stats(
        tmp_path, [tg("a", [2020, 2030, 2040], _blocks(0, 21)), tg("b", [2224, 2234, 2244], _blocks(18, 39))]
    )
    assert st.height == 2 and st["n"].to_list() == [3, 3]
    assert st["mean_tps"].to_list() == pytest.approx([2030.0, 2234.0], abs=1e-3)
    assert st["placement"].to_list() == [_blocks(0, 21), _blocks(18, 39)]
    assert st["placement_unresolved"].to_list() == [False, False]
    assert not any(st["state_effect"].to_list())


def test_ncmoe_flag_only_is_placement_unresolved(tmp_path):
    rec = lb_record("a", ns([2030] * 3, 128), n_prompt=0, n_gen=128)
    rec["llama_bench"].update(n_cpu_moe=22, tensor_buft_overrides="none")
    plain = lb_record("b", ns([2500] * 3, 128), n_prompt=0, n_gen=128)
    st, _ = stats(tmp_path, [rec, plain])
    assert st["placement_unresolved"].to_list() == [True, False]
    cav = caveats.attach(st)["caveats"].to_list()
    assert "placement_unresolved" in cav[0] and "placement_unresolved" not in cav[1]


def test_rate_stats_raw_equals_whole_table_with_identity(tmp_path):
    recs = [
        pp512("a", [990, 1000, 1010], n_ubatch=512),
        pp512("b", [1390, 1400, 1410], n_ubatch=2048, kv_unified=1),
        pp512("c", [1390, 1400, 1410]),
        pp512("d", [990, 1000, 1010]),
    ]
    write(tmp_path / "h.jsonl", recs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = analysis.rate_stats(analysis.load_llama_bench(tmp_path))
        raw = analysis.rate_stats_raw(tmp_path)
    assert whole.drop("files").equals(raw.drop("files"))
    # c and d: one configuration split by the state-effect test
    assert whole["state_effect"].to_list() == [False, False, True, True]


def test_committed_rows_have_no_unknown_fields(tmp_path):
    from conftest import committed_root

    report: dict = {}
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df = analysis.load_llama_bench(committed_root() / "data/raw/llama_bench", report=report)
    assert [x for x in w if issubclass(x.category, identity.IdentityWarning)] == []
    assert df["config_extra"].null_count() == df.height and df["placement_unresolved"].sum() == 0
    json.dumps(report)


def test_ingested_integer_load_mode_keeps_the_row_and_warns(tmp_path):
    from pathlib import Path

    from benchbook import ingest

    fx = Path(__file__).parent / "fixtures" / "ingest" / "llama_bench_b11434.jsonl"
    rows = [json.loads(x) for x in fx.read_text().splitlines() if x.strip()]
    rows[0]["load_mode"] = 2
    rows[1]["load_mode"] = "MMAP"
    src = tmp_path / "lb.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        recs = ingest.ingest_file(src)
    assert len(recs) == len(rows)
    assert recs[0]["llama_bench"]["load_mode"] is None and recs[1]["llama_bench"]["load_mode"] == "mmap"
    msgs = [str(x.message) for x in w if issubclass(x.category, identity.IdentityWarning)]
    assert msgs == [identity.load_mode_warning(src, 1, 2)]


def test_decode_split_over_threads_keeps_every_line_and_its_number(tmp_path):
    # 9001 lines (a blank one at line 5000): the decode is split into slices when Polars has >= 2
    # threads; values and 1-based line numbers must be those of a single decode
    from benchbook import jsonl

    text = [json.dumps({"a": i}) for i in range(9000)]
    text.insert(4999, "")
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(text) + "\n")
    df = jsonl.scan_jsonl([path], {"a": pl.Int64}).collect()
    assert df.height == 9000
    assert df["a"].to_list() == list(range(9000))
    assert df["line"][4998] == 4999 and df["line"][4999] == 5001 and df["line"][-1] == 9001


def test_unknown_field_first_seen_in_a_later_batch_is_decoded_in_every_row(tmp_path, monkeypatch):
    # batches of 2 lines: the field first appears on line 3 (second batch); the file is then decoded
    # again with the wider schema (one configuration of a, b, d and one of c), the warning names line 3
    from benchbook import jsonl

    monkeypatch.setattr(jsonl, "_READ_BATCH", 2)
    recs = [
        pp512("a", [1000] * 3),
        pp512("b", [1000] * 3),
        pp512("c", [1000] * 3, fork_flag="x"),
        pp512("d", [1000] * 3),
    ]
    st, warned = stats(tmp_path, recs)
    assert st["config_extra"].to_list() == [None, "fork_flag=x"] and st["n"].to_list() == [9, 3]
    assert len(warned) == 1 and warned[0].startswith(f"{tmp_path / 'h.jsonl'}:3:")


def test_batches_keep_line_numbers_across_blank_lines(tmp_path, monkeypatch):
    from benchbook import jsonl

    monkeypatch.setattr(jsonl, "_READ_BATCH", 3)
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 0}\n\n{"a": 1}\n{"a": 2}\n\n\n{"a": 3}\n')
    df = jsonl.scan_jsonl([path], {"a": pl.Int64}).collect()
    assert df["a"].to_list() == [0, 1, 2, 3] and df["line"].to_list() == [1, 3, 4, 7]

"""llama-bench runner: parsing real b11434 output, argv, eviction, a real session, kill + resume."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchbook.experiments.llama_bench.analysis import load_llama_bench, rate_stats
from benchbook.experiments.llama_bench.run import run_session
from benchbook.llamacpp.bench import (
    LlamaBenchError,
    build_argv,
    evict_from_page_cache,
    parse_jsonl,
    resident_pct,
)
from benchbook.records import iter_records

FIX = Path(__file__).parent / "fixtures" / "llama_bench_b11434.jsonl"


def test_parse_real_b11434_jsonl_exact_values():
    rows = parse_jsonl(FIX.read_text(), str(FIX))
    assert len(rows) == 2
    pp, tg = rows
    assert (pp["n_prompt"], pp["n_gen"], tg["n_prompt"], tg["n_gen"]) == (16, 0, 0, 8)
    assert pp["samples_ns"] == [287720033, 318788296, 128296932]
    assert tg["samples_ns"] == [250797042, 285430856, 371562017]
    assert pp["avg_ts"] == 76.836787 and tg["avg_ts"] == 27.152278
    assert (
        pp["build_number"] == 11434
        and pp["model_n_params"] == 134515008
        and pp["model_type"] == "llama 256M Q4_1"
    )
    # llama-bench's avg_ts is the mean of per-sample rates 1e9 * n / t_ns (llama-bench.cpp get_ts)
    mean = sum(1e9 * 16 / s for s in pp["samples_ns"]) / 3
    assert abs(mean - pp["avg_ts"]) < 1e-5


def test_parse_rejects_bad_lines_with_position():
    with pytest.raises(LlamaBenchError, match=r"out:2: not JSON"):
        parse_jsonl(FIX.read_text().splitlines()[0] + "\n| md table |\n", "out")
    row = json.loads(FIX.read_text().splitlines()[0])
    del row["samples_ns"]
    with pytest.raises(LlamaBenchError, match=r"out:1: .*samples_ns"):
        parse_jsonl(json.dumps(row), "out")


def test_argv_cold_and_warm():
    cfg = {
        "n_prompt": 128,
        "n_gen": 64,
        "n_depth": 0,
        "threads": 2,
        "n_gpu_layers": 99,
        "flash_attn": "auto",
        "repetitions": 5,
    }
    warm = build_argv("llama-bench", "m.gguf", cfg, "warm")
    assert warm == [
        "llama-bench",
        "-m",
        "m.gguf",
        "-p",
        "128",
        "-n",
        "64",
        "-d",
        "0",
        "-t",
        "2",
        "-ngl",
        "99",
        "-fa",
        "auto",
        "-o",
        "jsonl",
        "-r",
        "5",
    ]
    assert build_argv("llama-bench", "m.gguf", cfg, "cold")[-3:] == ["-r", "1", "--no-warmup"]


def test_eviction_drops_file_from_page_cache(tmp_path):
    p = tmp_path / "blob"
    p.write_bytes(os.urandom(4 << 20))
    p.read_bytes()
    if resident_pct(p) is None:
        pytest.skip("fincore unavailable; fix: apt-get install util-linux")
    st = evict_from_page_cache(p)
    assert st["method"] == "posix_fadvise_dontneed"
    assert st["resident_after_pct"] < 5.0 and st["evicted"] is True and st["mapped_by_pids"] == []


def test_eviction_names_a_process_that_keeps_the_file_mapped(tmp_path):
    # a child maps and touches the 4 MiB file: its pages stay resident and the child's pid is named
    import subprocess
    import sys

    p = tmp_path / "blob"
    p.write_bytes(os.urandom(4 << 20))
    if resident_pct(p) is None:
        pytest.skip("fincore unavailable; fix: apt-get install util-linux")
    code = (
        "import mmap,sys;f=open(sys.argv[1],'rb');m=mmap.mmap(f.fileno(),0,prot=mmap.PROT_READ);"
        "s=sum(m[i] for i in range(0,len(m),4096));print('mapped',flush=True);sys.stdin.read()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(p)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "mapped"
        st = evict_from_page_cache(p)
    finally:
        child.communicate("")
    assert (
        st["mapped_by_pids"] == [child.pid] and st["evicted"] is False and st["resident_after_pct"] == 100.0
    )


TINY = {
    "models": ["smollm2-135m-q4_1"],
    "n_prompt": 8,
    "n_gen": 4,
    "n_depth": 0,
    "repetitions": 2,
    "threads": 2,
    "n_gpu_layers": 0,
    "flash_attn": "auto",
    "cold_first_run": True,
    "timeout_s": 300,
}


@pytest.mark.integration
def test_real_session_records(tmp_path, toolchain, models, root):
    from benchbook.provenance import host_snapshot

    m = models["smollm2-135m-q4_1"]
    raw = tmp_path / "lb.jsonl"
    res = run_session(
        cfg=TINY,
        bench_bin=toolchain.binary("llama-bench"),
        models=[m],
        toolchain=toolchain.record,
        host=host_snapshot(),
        root=root,
        raw_file=raw,
        log=lambda *_: None,
    )
    assert (res.ran, res.failed, res.skipped, res.resumed) == (2, 0, 0, False)
    recs = [r for _, r in iter_records(raw) if r["schema"] == "benchbook.llama_bench"]
    assert [(r["phase"], r["llama_bench"]["n_prompt"], r["llama_bench"]["n_gen"]) for r in recs] == [
        ("cold", 8, 0),
        ("cold", 0, 4),
        ("warm", 8, 0),
        ("warm", 0, 4),
    ]
    for r in recs:
        assert r["model_sha256"] == "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
        assert r["llama_bench"]["build_number"] == 11434
        assert len(r["llama_bench"]["samples_ns"]) == (1 if r["phase"] == "cold" else 2)
        assert r["peak_rss_bytes"] > 50 * 2**20  # the 94 MiB model is mapped
        assert r["started_at"] < r["ended_at"] and r["argv"][0] == "llama-bench"
        assert len(r["load_start"]["loadavg"]) == 3
    # the cold run is evicted unless another process maps the model (then it says which, and is not "evicted")
    cold = recs[0]["cache_state"]
    assert cold["evicted"] is (not cold["mapped_by_pids"]), cold
    stats = rate_stats(load_llama_bench(tmp_path))
    assert stats.height == 4
    assert (
        (stats["mean_tps"] - stats["llama_bench_avg_ts"]).abs() / stats["llama_bench_avg_ts"]
    ).max() < 1e-3


KILL_SCRIPT = """
import json, sys
from pathlib import Path
from benchbook import resolve
from benchbook.provenance import host_snapshot
from benchbook.experiments.llama_bench.run import run_session
root = Path(sys.argv[1]); cfg = json.loads(sys.argv[2]); raw = Path(sys.argv[3])
P = resolve.load_params(root); tc = resolve.get_toolchain(P, build=False)
ms = resolve.get_models(P, cfg["models"], tc, log=lambda *_: None)
run_session(cfg=cfg, bench_bin=tc.binary("llama-bench"), models=ms, toolchain=tc.record, host=host_snapshot(),
            root=root, raw_file=raw, log=lambda *_: None)
"""


@pytest.mark.integration
def test_killed_session_keeps_records_and_resumes(tmp_path, toolchain, models, root):
    """Kill the runner after the first model's run, tear the last line, rerun: the session completes."""
    from benchbook.provenance import host_snapshot

    cfg = {
        **TINY,
        "models": ["smollm2-135m-q4_1", "smollm2-135m-q8_0"],
        "cold_first_run": False,
        "n_gen": 64,
        "repetitions": 5,
        # (the resumed run's model too may take minutes on a loaded host: 5 min at load 5 on 2 cores
        # timed out under TINY's 300 s, as the first run's deadline below allows for)
        "timeout_s": 900,
    }
    raw = tmp_path / "lb.jsonl"
    # its own process group, killed whole: a crash takes the runner's llama-bench child with it (killing
    # only the runner left that child running for minutes as an orphan, loading the machine)
    proc = subprocess.Popen(
        [sys.executable, "-c", KILL_SCRIPT, str(root), json.dumps(cfg), str(raw)], start_new_session=True
    )
    deadline = time.monotonic() + 900  # the first model's run: seconds when quiet, 2+ min at load 25
    while time.monotonic() < deadline:
        if raw.exists() and b'"run_complete":true' in raw.read_bytes():
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = raw.read_bytes()
    assert before.count(b'"run_complete":true') == 1, "killed too late: the second model already finished"
    with open(raw, "ab") as f:
        f.write(b'{"schema":"benchbook.llama_bench","run_')
    res = run_session(
        cfg=cfg,
        bench_bin=toolchain.binary("llama-bench"),
        models=[models["smollm2-135m-q4_1"], models["smollm2-135m-q8_0"]],
        toolchain=toolchain.record,
        host=host_snapshot(),
        root=root,
        raw_file=raw,
        log=lambda *_: None,
    )
    assert res.resumed is True and res.skipped == 1 and res.ran == 1 and res.failed == 0
    assert res.quarantined["line"] == before.count(b"\n") + 1
    assert raw.read_bytes().startswith(before)  # nothing recorded was lost or rewritten
    recs = [r for _, r in iter_records(raw)]
    sessions = {r["session_id"] for r in recs}
    assert len(sessions) == 1
    assert [r["event"] for r in recs if r["schema"] == "benchbook.session"] == ["start", "start", "end"]
    assert sorted({r["model_id"] for r in recs if r["schema"] == "benchbook.llama_bench"}) == [
        "smollm2-135m-q4_1",
        "smollm2-135m-q8_0",
    ]
    assert (tmp_path / "lb.jsonl.quarantine.jsonl").exists()

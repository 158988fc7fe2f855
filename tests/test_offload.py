"""The offload experiment: ballast and bandwidth on a fake device, failure reasons, host profiles, the
per-point table, fit boundary and roofline from hand-made records, the report with and without data,
memory headroom (issue 14 item 4), and one real sweep of a tiny MoE through llama-bench."""

from __future__ import annotations

import html
import json
from dataclasses import asdict
from pathlib import Path

import polars as pl
import pytest

from benchbook import caveats, schemas
from benchbook.experiments import profiles
from benchbook.experiments.offload import SCHEMA, analysis, report, run
from benchbook.llamacpp import cudamem
from benchbook.numfmt import fmt_number
from benchbook.records import utc_now
from benchbook.session import Session

MIB = 1 << 20


def test_ballast_leaves_the_budget_free_on_a_fake_device():
    st = cudamem.hold_free(cudamem.FakeDriver(24576, used_mib=500), 12288)
    # free 24076 MiB; one allocation of 24076 - 12288 = 11788 MiB
    assert (st.free_before_mib, st.held_mib, st.free_after_mib, st.allocations) == (24076, 11788, 12288, 1)


def test_ballast_falls_back_to_pieces_when_one_allocation_is_refused():
    class Picky(cudamem.FakeDriver):
        def alloc(self, nbytes):
            if nbytes > 4096 * MIB:
                raise cudamem.CudaError("too large")
            return super().alloc(nbytes)

    st = cudamem.hold_free(Picky(24576, used_mib=500), 12288)
    # 11 GiB pieces: 24076 - 11 * 1024 = 12812 <= 13312; then 8 x 64 MiB: 12812 - 512 = 12300 <= 12352
    assert (st.held_mib, st.free_after_mib, st.allocations) == (11776, 12300, 19)
    with pytest.raises(cudamem.CudaError, match="less than the budget 30000 MiB"):
        cudamem.hold_free(cudamem.FakeDriver(24576), 30000)


def test_ballast_child_process_and_bandwidth_on_a_fake_device():
    with cudamem.Ballast(1000, fake_total_mib=4096) as b:
        assert (b.state["mode"], b.state["held_mib"], b.state["free_after_mib"]) == ("fake", 3096, 1000)
    bw = cudamem.measure_bandwidth(mib=8, iters=2, fake_total_mib=64)
    assert bw["mode"] == "fake" and bw["bytes_moved"] == 2 * 8 * MIB * 2


def test_failure_reasons():
    err = (
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 11510.00 MiB on device 0: cudaMalloc failed: "
        "out of memory\nllama_model_load: error loading model\n"
    )
    assert run.failure_reason(1, False, err).startswith(
        "out of memory: ggml_backend_cuda_buffer_type_alloc_buffer"
    )
    assert run.failure_reason(-9, True, "") == "timeout"
    assert run.failure_reason(134, False, "x\nGGML_ASSERT(a) failed\n") == "exit 134: GGML_ASSERT(a) failed"


def test_profiles_are_picked_per_host_without_editing_params():
    p = {
        "offload": {"n_gen": 32, "threads": 2},
        "profiles": {"cpu": {"offload": {"n_gen": 16}}, "gpu": {"offload": {"threads": 16}}},
    }
    gpu = profiles.pick(p, env={}, gpus=[{"name": "NVIDIA H200"}])
    assert gpu == profiles.Picked("gpu", "nvidia-smi lists NVIDIA H200")
    assert profiles.section(p, "offload", gpu) == {"n_gen": 32, "threads": 16}
    assert profiles.pick(p, env={}, gpus=[]).name == "cpu"
    assert profiles.pick(p, env={"BENCHBOOK_PROFILE": "gpu"}, gpus=[]).name == "gpu"
    with pytest.raises(profiles.ProfileError) as e:
        profiles.pick(p, env={"BENCHBOOK_PROFILE": "tpu"}, gpus=[])
    assert str(e.value) == (
        "$BENCHBOOK_PROFILE='tpu' but params.yaml `profiles` has cpu, gpu; fix: set it to one of cpu, gpu, "
        "or unset it"
    )
    # --profile comes first, and its error names the option, not the variable the runner is given
    assert profiles.pick(p, env={"BENCHBOOK_PROFILE": "cpu"}, gpus=[], profile="gpu").name == "gpu"
    with pytest.raises(profiles.ProfileError) as e:
        profiles.pick(p, env={}, gpus=[], profile="tpu")
    assert str(e.value) == (
        "--profile 'tpu' is not a profile of params.yaml `profiles` (cpu, gpu); fix: --profile cpu or "
        "--profile gpu, or leave it out (picked per host)"
    )


def _point(n, samples_tg, samples_pp, peak, **extra):
    base = {
        "schema_version": 1,
        "experiment": "offload",
        "host_id": "h1",
        "toolchain_id": "tc",
        "profile": "gpu",
        "model_id": "synthetic-x",
        "model_sha256": "s",
        "synthetic_inputs": True,
        "n_cpu_moe": n,
        "budget_free_mib": 12288,
        "placement": {"cpu_expert_blocks": list(range(n)), "n_layer": 4},
        "ballast": {"mode": "fake"},
        "decode_bytes": {"total": 10**9, "gpu": 6 * 10**8, "cpu": 4 * 10**8},
        "gpu_used_before_mib": 130000,
        "peak_gpu_mem_mib": peak,
        "argv": ["llama-bench"],
        "run_key": f"k{n}",
        "started_at": utc_now(),  # written inside the session that measures it (measured.py)
        "ended_at": utc_now(),
        **extra,
    }
    return base


def _write_session(path: Path) -> None:
    # the start record plans the points the session has (n_cpu_moe 0, 2, 4): the report's session check
    # compares the two (measured.POLICIES["offload"], planned)
    with Session.open(path, "offload", {"host_id": "h1", "config": {"n_cpu_moe": [0, 2, 4]}}) as s:
        s.append(
            schemas.build(  # through the declaration: the fixture is a valid record
                "offload_bandwidth",
                run_id="bw",
                run_key="bw",
                session_id=s.session_id,
                experiment="offload",
                host_id="h1",
                toolchain_id="tc",
                profile="gpu",
                profile_reason="test",
                git_commit=None,
                git_dirty=None,
                config={"mib": 8, "iters": 2, "fake": False},
                status="ok",
                mode="cuda",
                device="GPU",
                gb_per_s=1000.0,
                started_at=utc_now(),  # inside the session: measured now (measured.py)
                ended_at=utc_now(),
            )
        )
        s.append(
            {
                "schema": "benchbook.run_failed",
                **_point(0, None, None, 130500),
                "run_id": "r0",
                "status": "failed",
                "reason": "out of memory: cudaMalloc failed",
            }
        )
        for n, tg, pp, peak in (
            (2, [10.0, 12.0, 14.0], [100.0, 110.0, 120.0], 140000),
            (4, [11.0, 11.0, 11.0], [90.0, 90.0, 90.0], 141800),
        ):
            for j, (ng, samples) in enumerate(((0, pp), (8, tg))):
                s.append(
                    {
                        "schema": SCHEMA,
                        **_point(n, tg, pp, peak),
                        "schema_version": schemas.LLAMA_BENCH.version,  # the one llama-bench row kind
                        "origin": "native",
                        "run_id": f"r{n}",
                        "status": "ok",
                        "row_index": j,
                        "rows_total": 2,
                        "run_complete": j == 1,
                        "llama_bench": {
                            "n_prompt": 0 if ng else 16,
                            "n_gen": ng,
                            "samples_ts": samples,
                            "avg_ts": sum(samples) / 3,
                        },
                    }
                )


def test_points_boundary_roofline_and_headroom(tmp_path):
    _write_session(tmp_path / "offload" / "h1.jsonl")
    pts = analysis.points(analysis.load(tmp_path))
    tg2 = pts.filter((pl.col("n_cpu_moe") == 2) & (pl.col("test") == "tg")).row(0, named=True)
    # mean of 10, 12, 14 = 12, sd 2; llama.cpp's own peak 140000 - 130000 = 10000 MiB
    assert (tg2["n"], tg2["mean_tps"], tg2["sd_tps"], tg2["peak_gpu_mem_mib"]) == (3, 12.0, 2.0, 10000.0)
    failed = pts.filter(pl.col("status") == "failed").row(0, named=True)
    assert (failed["n_cpu_moe"], failed["reason"]) == (0, "out of memory: cudaMalloc failed")
    assert analysis.fit_boundary(pts)[0].first_fit == 2 and analysis.fit_boundary(pts)[0].last_fail == 0
    roof = analysis.roofline(pts, analysis.bandwidth(tmp_path)).sort("n_cpu_moe")
    # 12 tok/s x 1e9 bytes = 12 GB/s of 1000 GB/s -> 1.2 %; GPU bytes only: 7.2 GB/s -> 0.72 %
    assert roof["roofline_pct"].round(6).to_list() == [1.2, 1.1]
    assert roof["gpu_roofline_pct"].round(6).to_list() == [0.72, 0.66]
    ev = caveats.headroom_column(caveats.evaluate(pts, "llama_bench", None, ["memory_spill"])[0])
    by = {(r["n_cpu_moe"], r["test"]): r for r in ev.iter_rows(named=True)}
    # n_cpu_moe 4 used 11800 MiB of the 12288 MiB budget: above 95% (11673.6) -> memory_spill
    assert by[(4, "tg")]["caveats"] == ["memory_spill"] and by[(2, "tg")]["caveats"] == []
    assert by[(2, "tg")]["memory_headroom"] == "2,288 MiB free of 12,288 MiB (81.4% used)"


def test_memory_spill_reads_the_hosts_device_memory():
    """Issue 14 item 4: one run at 24,480 of 24,576 MiB is flagged once the host's size is read."""
    stats = pl.DataFrame(
        {
            "host_id": ["gpu", "cpu"],
            "mean_tps": [50.0, 20.0],
            "peak_gpu_mem_mib": [24480.0, None],
            "model_id": ["m", "m"],
        }
    )
    hosts = {"gpu": {"gpus": [{"name": "RTX", "memory_total_mib": 24576}]}, "cpu": {"gpus": []}}
    out = caveats.headroom_column(
        caveats.attach(caveats.with_device_memory(stats, hosts), rules=["memory_spill"])
    )
    assert out["gpu_mem_total_mib"].to_list() == [24576.0, None]
    assert out["caveats"].to_list() == [["memory_spill"], []]
    assert out["memory_headroom"].to_list() == [
        "96 MiB free of 24,576 MiB (99.6% used)",
        caveats.HEADROOM_UNKNOWN,
    ]
    assert caveats.attach(stats, rules=["memory_spill"])["caveats"].to_list() == [
        [],
        [],
    ]  # before: not flagged


def test_report_without_data_and_with_data(tmp_path, root):
    res = report.build(
        {"report": {"confidence": 0.95}}, root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("rep")
    )
    assert res["numbers"] == [] and "No offload session" in (tmp_path / "rep/offload/sweep.md").read_text()
    assert json.loads((tmp_path / "rep/numbers/offload.json").read_text())["numbers"] in ([], {})
    _write_session(tmp_path / "raw" / "offload" / "h1.jsonl")
    res = report.build(
        {"report": {"confidence": 0.95}}, root=tmp_path, raw_dir=Path("raw"), reports_dir=Path("rep")
    )
    keys = {n.key: n for n in res["numbers"]}
    assert (
        keys["offload-hh1-ncmoe2-tg"].value == 12.0
        and "synthetic_inputs" in keys["offload-hh1-ncmoe2-tg"].caveats
    )
    assert keys["offload-hh1-fit-min-ncmoe"].value == 2 and keys["offload-hh1-d2d"].value == 1000.0
    assert keys["offload-hh1-ncmoe2-tg-roofline"].value == 1.2
    md = html.unescape((tmp_path / "rep/offload/sweep.md").read_text())  # the page escapes stderr text
    assert "failed: out of memory: cudaMalloc failed" in md and "fits from n_cpu_moe 2 up" in md


def test_real_sweep_of_a_tiny_moe_with_a_fake_ballast(tmp_path, params, toolchain, models, root):
    over = {
        "model": {"n_layer": 2},
        "n_cpu_moe": [0, 1, 2],
        "n_prompt": 16,
        "n_gen": 4,
        "repetitions": 2,
        "ballast": {"free_mib": 1000, "fake_total_mib": 4096},
        "bandwidth": {"mib": 8, "iters": 2},
        "roofline_models": [],
        "threads": 2,
    }
    out = run.measure(
        {**params, "profiles": {}}, root=root, raw_dir=tmp_path, overrides=over, log=lambda *_: None
    )
    # runs: bytes per token of the 3 sweep points and of the default model, the bandwidth, 3 points
    assert (out.ran, out.failed) == (3 + 1 + 1 + 3, 0) and out.ballast["held_mib"] == 3096
    pts = analysis.points(analysis.load(tmp_path))
    assert sorted(pts["n_cpu_moe"].unique().to_list()) == [0, 1, 2]
    assert pts["synthetic_inputs"].all() and (pts["n"] == 2).all()
    assert pts.sort("n_cpu_moe")["cpu_expert_blocks"].unique(maintain_order=True).to_list() == [0, 1, 2]


@pytest.mark.integration
def test_offload_notebooks_tiny(tmp_path, root, toolchain, models):
    from conftest import nbval_notebook

    tiny = {
        "model": {"n_layer": 2},
        "n_cpu_moe": [0, 2],
        "n_prompt": 8,
        "n_gen": 4,
        "repetitions": 2,
        "ballast": {"free_mib": 1000, "fake_total_mib": 4096},
        "bandwidth": {"mib": 8, "iters": 2},
        "roofline_models": [],
    }
    nbval_notebook(
        root,
        "measure.ipynb",
        tmp_path,
        {
            "root": str(root),
            "raw_dir": str(tmp_path / "data/raw"),
            "overrides": json.dumps(tiny),
            "experiment": "offload",
        },
    )
    raw = list((tmp_path / "data/raw/offload").glob("*.jsonl"))
    assert (
        len(raw) == 1 and raw[0].read_text().count('"schema":"benchbook.llama_bench"') == 4
    )  # 2 points x pp, tg
    nbval_notebook(
        root,
        "report.ipynb",
        tmp_path,
        {
            "root": str(root),
            "raw_dir": str(tmp_path / "data/raw"),
            "reports_dir": str(tmp_path / "reports"),
            "experiment": "offload",
        },
    )
    nums = json.loads((tmp_path / "reports/numbers/offload.json").read_text())["numbers"]
    host = raw[0].stem[:8]
    assert {f"offload-h{host}-ncmoe{n}-{t}" for n in (0, 2) for t in ("tg", "pp")} <= set(nums)


def test_committed_gpu_sweep_reads_unchanged(tmp_path, root):
    """The H200 session (data/raw/offload/e3618a24b4e44752.jsonl, written before the kinds were declared)
    reads through the declarations to the same sweep: 12 GiB budget, n_cpu_moe 0/4 out of memory, 6 a CUDA
    abort at 12,264 MiB, 7 the first point that fits."""
    res = report.build(
        {"report": {"confidence": 0.95}}, root=root, raw_dir=Path("data/raw"), reports_dir=tmp_path / "rep"
    )
    pts = {(r["n_cpu_moe"], r["test"]): r for r in res["points"].iter_rows(named=True)}
    assert round(pts[(7, "tg")]["mean_tps"], 1) == 134.4 and round(pts[(7, "pp")]["mean_tps"], 1) == 1213.1
    assert [round(pts[(n, "tg")]["mean_tps"], 1) for n in (8, 12, 18, 24)] == [123.4, 84.6, 62.8, 40.3]
    assert pts[(7, "tg")]["peak_gpu_mem_mib"] == 11748.0  # 142617 peak - 130869 in use before the run
    for n in (0, 4):
        assert pts[(n, None)]["reason"].startswith("out of memory: ")
    assert pts[(6, None)]["reason"].startswith("exit -6: ") and pts[(6, None)]["peak_gpu_mem_mib"] == 12264.0
    (bound,) = res["bounds"]
    assert (bound.first_fit, bound.last_fail, bound.other_failures) == (7, 4, [6])
    nums = {n.key: n for n in res["numbers"]}
    assert round(nums["offload-he3618a24-d2d"].value) == 4279
    # 134.44 tok/s x 1,349,945,472 bytes = 181.5 GB/s of 4279.0 GB/s -> 4.24 %
    assert nums["offload-he3618a24-ncmoe7-tg-roofline"].value == 4.24
    assert all(n.build == "b11434 (unknown) cuda" for n in res["numbers"])
    md = (tmp_path / "rep/offload/sweep.md").read_text()
    # log-scale intervals (issue 12); symmetric they were [126.2, 142.6] and [1093.9, 1332.3]; rounded by
    # numfmt at the second significant digit of the half-width (8.2 -> 0.1; 119.4 -> 10), units in the header
    # each rate cell is its registry number's link (item 17 of the new-user report), which the site
    # renders as fmt_number(unit=False) of the registry entry
    assert (
        "| 7 | 7 of 24 | {{< var offload-he3618a24-ncmoe7-tg__v >}} "
        "| {{< var offload-he3618a24-ncmoe7-pp__v >}} | 11,748 |"
    ) in md
    shown = [fmt_number(asdict(nums[f"offload-he3618a24-ncmoe7-{t}"]), unit=False) for t in ("tg", "pp")]
    assert shown == ["134.4 [126.5, 142.9]", "1,210 [1,100, 1,340]"]
    assert "fits from n_cpu_moe 7 up; n_cpu_moe 4 failed out of memory" in md


def test_one_ncmoe_resolved_to_other_blocks_never_pools(tmp_path):
    # issue 11: -ncmoe 22 resolved to blocks 0-21 and to 18-39 (2030 vs 2234 t/s) are two points,
    # never one of n = 6
    path = tmp_path / "offload" / "h1.jsonl"
    with Session.open(path, "offload", {"host_id": "h1"}) as s:
        for run, blocks, rates in (
            ("a", range(0, 22), [2020.0, 2030.0, 2040.0]),
            ("b", range(18, 40), [2224.0, 2234.0, 2244.0]),
        ):
            rec = _point(22, rates, None, 140000, run_key=f"k{run}")
            rec["placement"] = {"cpu_expert_blocks": list(blocks), "n_layer": 40}
            s.append(
                {
                    "schema": SCHEMA,
                    **rec,
                    "schema_version": schemas.LLAMA_BENCH.version,
                    "origin": "native",
                    "run_id": run,
                    "status": "ok",
                    "row_index": 0,
                    "rows_total": 1,
                    "run_complete": True,
                    "llama_bench": {
                        "n_prompt": 0,
                        "n_gen": 128,
                        "samples_ts": rates,
                        "avg_ts": sum(rates) / 3,
                    },
                }
            )
    pts = analysis.points(analysis.load(tmp_path))
    assert pts.height == 2 and pts["n"].to_list() == [3, 3]
    assert sorted(pts["mean_tps"].to_list()) == pytest.approx([2030.0, 2234.0])
    assert sorted(pts["placement_blocks"].to_list()) == [
        ",".join(map(str, range(0, 22))),
        ",".join(map(str, range(18, 40))),
    ]

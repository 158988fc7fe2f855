"""Host-bound experiments (offload, spec_depth, draftself_gpu) are measurement stages of
``measure/dvc.yaml``: ``benchbook run`` measures them on a host whose profile runs them (an NVIDIA GPU,
or ``$BENCHBOOK_PROFILE``) by the same "measured here?" rule as the others, and a CPU host says so in one
line and measures nothing new for them (issue 30 item 1).  Dry: DVC, the build and every measurement
are stubbed; the committed raw data decides what is measured."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from benchbook import cli, provenance, resolve, stages
from benchbook.experiments import __main__ as experiments_main
from benchbook.experiments import profiles
from benchbook.llamacpp import artifacts

ROOT = Path(__file__).resolve().parents[1]
HOST_BOUND = ("draftself_gpu", "offload", "spec_depth")
#: the committed CPU host and the build its llama_bench sessions ran (tests/test_cli.py)
CPU_HOST, CPU_BUILD = "246274abff670295", "6bcbdc2942c465ab"
#: the committed H200 host and the build of its offload sweep
GPU_HOST, GPU_BUILD = "e3618a24b4e44752", "83fee1ebbc050cd8"
SKIP_LINE = (
    "draftself_gpu, offload, spec_depth: not measured on this host (host-bound): profile cpu (no NVIDIA "
    "GPU listed by nvidia-smi); host-bound experiments run under the gpu profile of a host with an NVIDIA "
    "GPU, or where $BENCHBOOK_PROFILE names a profile; its report reads the committed data"
)


def test_the_host_bound_stages_are_written_with_a_command_that_needs_no_papermill():
    measure = yaml.safe_load((ROOT / "measure/dvc.yaml").read_text())["stages"]
    for name in HOST_BOUND:
        assert measure[name]["cmd"] == f"python -m benchbook.experiments {name} --if-runnable"
        assert "papermill" not in measure[name]["cmd"]
        assert "outs" not in measure[name]  # raw data host-keyed, out of the lock
        code = [d for d in measure[name]["deps"] if d.startswith("src/benchbook/")]
        assert f"src/benchbook/experiments/{name}/run.py" in code
    assert measure["offload"]["params"] == [
        "offload",
        "profiles.cpu.offload",
        "profiles.gpu.offload",
        "models.default",
        "models.registry.smollm2-135m-q4_1",
        "models.registry.smollm2-135m-q8_0",
        "toolchain",
    ]
    assert measure["spec_depth"]["deps"][0] == "data/prompts/depth_context.txt"
    assert measure["draftself_gpu"]["params"] == ["draftself_gpu"]
    assert [e.name for e in stages.EXPERIMENTS if e.host_bound] == list(HOST_BOUND)


def test_a_registered_offload_model_is_a_param_of_the_offload_stage():
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["models"]["registry"]["my-moe"] = {"source": "file", "path": "/m.gguf", "sha256": "0" * 64}
    params["profiles"]["gpu"]["offload"]["model"] = "my-moe"
    offload = next(s for s in stages.stages_of(stages.EXPERIMENTS, params) if s.name == "offload")
    assert "models.registry.my-moe" in offload.params
    # not in any other measurement stage: registering it re-runs only the stage that measures it
    others = [s for s in stages.stages_of(stages.EXPERIMENTS, params) if s.name != "offload"]
    assert all("models.registry.my-moe" not in s.params for s in others)


def test_which_profiles_run_host_bound_experiments():
    p = {"profiles": {"cpu": {}, "gpu": {}}}
    assert profiles.host_bound_skip(profiles.pick(p, env={}, gpus=[{"name": "NVIDIA H200"}])) is None
    assert profiles.host_bound_skip(profiles.pick(p, env={"BENCHBOOK_PROFILE": "cpu"}, gpus=[])) is None
    assert profiles.host_bound_skip(profiles.pick(p, env={}, gpus=[], profile="cpu")) is None
    cpu = profiles.pick(p, env={}, gpus=[])
    assert profiles.host_bound_skip(cpu) == (
        "profile cpu (no NVIDIA GPU listed by nvidia-smi); host-bound experiments run under the gpu "
        "profile of a host with an NVIDIA GPU, or where $BENCHBOOK_PROFILE names a profile"
    )


def test_the_stage_command_on_a_cpu_host_says_so_in_one_line_and_measures_nothing(monkeypatch, capsys):
    monkeypatch.delenv("BENCHBOOK_PROFILE", raising=False)
    monkeypatch.setattr(provenance, "gpu_info", lambda: [])
    assert experiments_main.main(["offload", "--if-runnable", "--root", str(ROOT)]) == 0
    out = capsys.readouterr()
    assert out.out == "" and out.err.splitlines() == [
        "offload: not measured on this host (host-bound): profile cpu (no NVIDIA GPU listed by nvidia-smi); "
        "host-bound experiments run under the gpu profile of a host with an NVIDIA GPU, or where "
        "$BENCHBOOK_PROFILE names a profile; its report reads the committed data"
    ]


def _stub_run(monkeypatch, root: Path, host_id: str, build: str, gpus: list[dict]) -> list[list[str]]:
    """``benchbook run`` with DVC, the build, the models and the checkpoint stubbed; the host is
    ``host_id`` with toolchain ``build`` and ``gpus``; returns the DVC commands it ran."""
    ran: list[list[str]] = []
    monkeypatch.delenv("BENCHBOOK_PROFILE", raising=False)
    monkeypatch.setattr(cli, "repo_root", lambda: root)
    monkeypatch.setattr(
        cli, "stage_runner", lambda root, verbose: (lambda argv, env=None: ran.append(argv), None)
    )
    monkeypatch.setattr(cli, "from_data_stages", lambda root: ["site"])
    monkeypatch.setattr(cli, "prepare_draftself_checkpoint", lambda root, log_path=None: None)
    monkeypatch.setattr(cli, "export_artifacts", lambda root, params: [])
    monkeypatch.setattr(cli, "upstream_stages", lambda f, stage: [])
    monkeypatch.setattr(artifacts, "import_models", lambda root, registry, log=print: None)
    toolchain = SimpleNamespace(toolchain_id=build)
    monkeypatch.setattr(resolve, "get_toolchain", lambda params, build=False, log=print: toolchain)
    monkeypatch.setattr(resolve, "get_models", lambda params, ids, tc, log=print: [])
    monkeypatch.setattr(provenance, "host_snapshot", lambda: SimpleNamespace(host_id=host_id))
    monkeypatch.setattr(provenance, "gpu_info", lambda: gpus)
    return ran


def _measured(ran: list[list[str]]) -> list[str]:
    return [a[-1].split(":")[-1] for a in ran if "--force" in a]


def test_make_run_on_this_cpu_host_measures_nothing_new_for_the_host_bound_stages(monkeypatch, capsys):
    from conftest import committed_root

    ran = _stub_run(monkeypatch, committed_root(), CPU_HOST, CPU_BUILD, gpus=[])
    assert cli.main(["run", "--verbose"]) == 0
    # speculative only: its committed session predates `log_verbosity: 4` (tests/test_cli.py)
    assert _measured(ran) == ["speculative"]
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if "host-bound" in line] == [SKIP_LINE]


def test_a_gpu_host_measures_the_host_bound_stages_it_lacks_through_dvc(monkeypatch, capsys):
    from conftest import committed_root

    gpu = [{"name": "NVIDIA H200"}]
    # the H200 host with the build its committed offload sweep ran: offload is measured there already,
    # spec_depth ran another build, draft-self on the GPU (no llama.cpp) counts with any build
    ran = _stub_run(monkeypatch, committed_root(), GPU_HOST, GPU_BUILD, gpus=gpu)
    assert cli.main(["run", "--verbose"]) == 0
    assert _measured(ran) == ["speculative", "draftself", "spec_depth"]
    assert "measure/dvc.yaml:spec_depth" in ran[-2] and ran[-2][-4:-1] == [
        "--no-run-cache",
        "--force",
        "--single-item",
    ]
    out = capsys.readouterr().out
    assert "host-bound" not in out
    assert f"no completed spec_depth session for host {GPU_HOST} with toolchain {GPU_BUILD}" in out
    # another build (the cache moved, a new lease): every llama.cpp stage measures itself again
    ran.clear()
    monkeypatch.setattr(
        resolve,
        "get_toolchain",
        lambda params, build=False, log=print: SimpleNamespace(toolchain_id="f" * 16),
    )
    assert cli.main(["run", "--verbose"]) == 0
    assert _measured(ran) == ["llama_bench", "speculative", "draftself", "offload", "spec_depth"]


def test_benchbook_measure_without_dvc_runs_each_stages_own_command(monkeypatch, capsys):
    from conftest import committed_root

    root = committed_root()
    _stub_run(monkeypatch, root, GPU_HOST, GPU_BUILD, gpus=[{"name": "NVIDIA H200"}])
    real = cli.stage_argv  # the stage commands of this checkout's measure/dvc.yaml (the copy has data/ only)
    monkeypatch.setattr(
        cli, "stage_argv", lambda _root, stage, raw_dir, overrides=None: real(ROOT, stage, raw_dir, overrides)
    )
    calls: list[list[str]] = []
    monkeypatch.setattr(cli.subprocess, "run", lambda argv, **kw: calls.append(argv))
    assert cli.main(["measure", "--without-dvc", "spec_depth", "offload"]) == 0
    assert calls == [
        [
            sys.executable,
            "-m",
            "benchbook.experiments",
            "spec_depth",
            "--if-runnable",
            "--raw-dir",
            "data/raw",
        ]
    ]
    assert capsys.readouterr().out.splitlines()[-2] == f"measured spec_depth on host {GPU_HOST} (profile gpu)"
    # a notebook stage runs what its notebook calls; a dry run's overrides go to its command
    assert real(ROOT, "llama_bench", "/tmp/raw", '{"repetitions": 1}') == [
        sys.executable,
        "-m",
        "benchbook.experiments",
        "llama_bench",
        "--raw-dir",
        "/tmp/raw",
        "--overrides",
        '{"repetitions": 1}',
    ]


def test_benchbook_measure_names_an_unknown_stage(monkeypatch):
    from conftest import committed_root

    _stub_run(monkeypatch, committed_root(), CPU_HOST, CPU_BUILD, gpus=[])
    with pytest.raises(ValueError, match=r"no measurement stage 'offlaod'; fix: name one of llama_bench, "):
        cli.cmd_measure(
            SimpleNamespace(stages=["offlaod"], overrides=[], raw_dir="data/raw", without_dvc=True)
        )

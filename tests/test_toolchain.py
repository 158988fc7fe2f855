"""Toolchain: fingerprint of the real build, cache keys, and bad inputs."""

import shutil
import time

import pytest

from benchbook import resolve
from benchbook.llamacpp import toolchain as tc
from benchbook.llamacpp.toolchain import ToolchainError


def test_cache_key_depends_on_source_backend_and_flags():
    f_cpu = tc.cmake_flags("cpu", 11434)
    assert "-DLLAMA_BUILD_NUMBER=11434" in f_cpu and "-DGGML_CUDA=ON" not in f_cpu
    assert "-DGGML_CUDA=ON" in tc.cmake_flags("cuda", 11434)
    k = tc.toolchain_key("a" * 64, "cpu", f_cpu)
    assert len(k) == 16 and k == tc.toolchain_key("a" * 64, "cpu", list(f_cpu))
    assert k != tc.toolchain_key("b" * 64, "cpu", f_cpu)
    assert k != tc.toolchain_key("a" * 64, "cuda", f_cpu)
    assert k != tc.toolchain_key("a" * 64, "cpu", f_cpu + ["-DGGML_NATIVE=OFF"])
    with pytest.raises(ToolchainError, match="unknown backend 'rocm'"):
        tc.cmake_flags("rocm", 11434)


def test_amx_left_out_where_advertised(tmp_path):
    # a Sapphire-Rapids-like flags line: amx_tile advertised -> auto leaves AMX out; "on" keeps it
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f amx_bf16 amx_tile amx_int8\n")
    spr, epyc = tc.cpu_flags(info), {"fpu", "avx2", "avx512f"}
    assert {"amx_tile", "amx_int8", "amx_bf16", "avx2"} <= spr and tc.cpu_flags(tmp_path / "absent") == set()
    maps = "-ffile-prefix-map=<src>=. -ffile-prefix-map=<build>=build"
    no_amx = [
        f"-DCMAKE_C_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16 {maps}",
        f"-DCMAKE_CXX_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16 {maps}",
    ]
    with_amx = [f"-DCMAKE_C_FLAGS={maps}", f"-DCMAKE_CXX_FLAGS={maps}"]
    assert tc.cmake_flags("cpu", 11434, cpu=spr)[-2:] == no_amx
    cuda_maps = (
        "-DCMAKE_CUDA_FLAGS=-Xcompiler=-ffile-prefix-map=<src>=. -Xcompiler=-ffile-prefix-map=<build>=build"
    )
    assert tc.cmake_flags("cuda", 11434, ["-DX=1"], cpu=spr)[-4:] == [*no_amx, cuda_maps, "-DX=1"]
    assert tc.cmake_flags("cpu", 11434, cpu=epyc)[-2:] == with_amx
    assert tc.cmake_flags("cpu", 11434, amx="on", cpu=spr)[-2:] == with_amx
    assert tc.cmake_flags("cpu", 11434, amx="off", cpu=epyc)[-2:] == no_amx
    # the switch is part of the cache key, so an AMX and a no-AMX build never share a cache entry
    assert tc.toolchain_key("a" * 64, "cpu", tc.cmake_flags("cpu", 11434, cpu=spr)) != tc.toolchain_key(
        "a" * 64, "cpu", tc.cmake_flags("cpu", 11434, cpu=epyc)
    )
    with pytest.raises(ToolchainError, match="toolchain.amx is 'yes'; allowed: auto, on, off"):
        tc.cmake_flags("cpu", 11434, amx="yes")


@pytest.mark.integration
def test_real_toolchain_record(toolchain):
    r = toolchain.record
    assert r["build_number"] == 11434 and r["build_commit"] == "unknown"
    assert "-DLLAMA_BUILD_NUMBER=11434" in r["cmake_flags"]
    assert r["source"]["sha256"] == "b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45"
    files = r["files_sha256"]
    for name in (
        "llama-bench",
        "llama-server",
        "llama-quantize",
        "llama-gguf-split",
        "llama-speculative-simple",
    ):
        assert len(files[name]) == 64
    assert any(n.startswith("libllama.so") for n in files) and any(
        n.startswith("libggml-base.so") for n in files
    )
    assert "CPU" in r["backends"]
    # the fingerprint is a pure function of the binaries
    again = tc.fingerprint(
        toolchain.bin_dir,
        backend=r["backend"],
        cmake=r["cmake_flags"],
        compiler=r["compiler"],
        source=r["source"],
    )
    assert again["toolchain_id"] == r["toolchain_id"] and again["files_sha256"] == files


@pytest.mark.integration
def test_warm_cache_is_fast(params, toolchain):
    t0 = time.monotonic()
    got = resolve.get_toolchain(params, build=True)
    assert time.monotonic() - t0 < 5.0
    assert got.toolchain_id == toolchain.toolchain_id


@pytest.mark.integration
def test_user_build_dir_accepted_and_fingerprinted_the_same(toolchain):
    user = tc.from_user_dir(toolchain.bin_dir.parent)  # the parent of bin/ is accepted too
    assert user.toolchain_id == toolchain.toolchain_id and user.record["build_number"] == 11434


def test_user_build_dir_without_llama_bench(tmp_path):
    (tmp_path / "llama-server").write_text("")
    with pytest.raises(
        ToolchainError, match=rf"{tmp_path} has no llama-bench; fix: point toolchain.user_build_dir"
    ):
        tc.from_user_dir(tmp_path)


def test_missing_cmake_or_compiler_names_the_fix(monkeypatch):
    real = shutil.which
    monkeypatch.setattr(tc.shutil, "which", lambda name: None if name in ("cmake", "c++") else real(name))
    with pytest.raises(
        ToolchainError,
        match=r"cmake, c\+\+ not on PATH; fix: `apt-get update && apt-get install -y cmake build-essential`",
    ):
        tc.check_build_tools()


def test_a_build_names_its_process_while_it_runs_and_not_after(tmp_path, monkeypatch):
    import os

    from benchbook.llamacpp import toolchain as tcm

    seen = []

    def configure_fails(cmd, lf, desc, targets=()):
        seen.append(tcm.building(tmp_path))
        return 2  # cmake's exit status: the build fails

    monkeypatch.setattr(tcm, "run_logged", configure_fails)
    with pytest.raises(tcm.ToolchainError, match="exit 2"):
        tcm._build_tree(tmp_path / "src", tmp_path, [], "cpu", {}, {}, "k", "d", 1, print)
    assert seen[0]["pid"] == os.getpid()  # during the build: this process
    assert tcm.building(tmp_path) is None and not (tmp_path / tcm.BUILDING).exists()  # after: none
    assert tcm.building_error(tmp_path) is None


def test_the_echoed_cmake_command_pastes_into_a_shell(tmp_path, monkeypatch):
    # new user: `$ cmake ... -DCMAKE_C_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16` was echoed
    # unquoted; pasted, the shell split the flag into three words
    import shlex

    monkeypatch.setattr(tc, "run_logged", lambda cmd, lf, desc, targets=(): 1)  # configure fails at once
    flags = ["-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_C_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"]
    said: list[str] = []
    with pytest.raises(ToolchainError, match="exit 1"):
        tc._build_tree(tmp_path / "src", tmp_path, flags, "cpu", {}, {}, "k", "d", 1, said.append)
    assert said == [
        f"$ cmake -S {tmp_path}/src -B {tmp_path}/build -DCMAKE_BUILD_TYPE=Release "
        "'-DCMAKE_C_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16'"
    ]
    assert shlex.split(said[0][2:])[-1] == flags[-1]  # the shell reads the flag back as one word
    assert (tmp_path / "build.log").read_text().splitlines()[0] == said[0]


def test_a_second_build_into_a_folder_being_built_waits_instead(tmp_path, monkeypatch):
    import json
    import os

    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path))
    src = tc.SourceSpec()
    flags = tc.cmake_flags("cpu", src.build_number)
    root = tmp_path / "toolchains" / f"b{src.build_number}-cpu-{tc.toolchain_key(src.sha256, 'cpu', flags)}"
    root.mkdir(parents=True)
    (root / tc.BUILDING).write_text(json.dumps({"pid": os.getpid(), "started_at": "t0"}))
    monkeypatch.setattr(tc, "check_build_tools", lambda: pytest.fail("a second build was started"))
    with pytest.raises(tc.ToolchainBuilding, match=f"being built now by process {os.getpid()} \\(started t0"):
        tc.build(src, "cpu")

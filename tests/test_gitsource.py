"""Builds from a local git checkout (a fork): commit, branch, uncommitted-diff hash and label recorded,
cached by commit + diff hash + backend + flags.  A tiny fake CMake project stands in for llama.cpp:
it builds the five TARGETS from one C file that answers `--version` like llama.cpp does."""

import subprocess

import pytest

from benchbook import resolve
from benchbook.llamacpp import gitsource
from benchbook.llamacpp import toolchain as tc

CMAKE = """cmake_minimum_required(VERSION 3.14)
project(fake C)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
foreach(t llama-bench llama-server llama-quantize llama-gguf-split llama-speculative-simple)
  add_executable(${t} main.c)
  target_compile_definitions(${t} PRIVATE BN=${LLAMA_BUILD_NUMBER} BC="${LLAMA_BUILD_COMMIT}")
endforeach()
"""
MAIN = """#include <stdio.h>
#include <string.h>
#include "mark.h"
int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--version")) {
    fprintf(stderr, "version: 0.0.1 (build %d, commit %s)\\nbuilt with fake %s for test\\n", BN, BC, MARK);
  } else if (argc > 1 && !strcmp(argv[1], "--list-devices")) {
    printf("Available devices:\\n");
  }
  return 0;
}
"""


def _git(repo, *args):
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def fork(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHBOOK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BENCHBOOK_QUIET", "1")
    repo = tmp_path / "llama.cpp-fork"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "CMakeLists.txt").write_text(CMAKE)
    (repo / "main.c").write_text(MAIN)
    (repo / "mark.h").write_text('#define MARK "one"\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    (repo / "mark.h").write_text('#define MARK "two"\n')
    _git(repo, "commit", "-qam", "two")
    return repo


def _builds(root):
    return (root / "build.log").read_text().count("$ cmake --build")


def test_resolve_commit_branch_and_diff(fork):
    head, first = _git(fork, "rev-parse", "HEAD"), _git(fork, "rev-parse", "HEAD~1")
    g = gitsource.resolve(fork, "main", "myfork")
    assert (g.commit, g.branch, g.diff_sha256, g.build_number, g.label) == (head, "main", None, 2, "myfork")
    assert g.identity == f"git:{head}+clean" and g.build_commit == head[:8]
    old = gitsource.resolve(fork, first, "myfork")
    assert (old.commit, old.branch, old.diff_sha256, old.build_number) == (first, None, None, 1)
    (fork / "mark.h").write_text('#define MARK "three"\n')
    dirty = gitsource.resolve(fork, None, "myfork")
    assert dirty.ref == "HEAD" and dirty.branch == "main" and len(dirty.diff_sha256) == 64
    assert dirty.build_commit == head[:8] + "-dirty"
    (fork / "new.c").write_text("int x;\n")  # an untracked file changes the hash too
    assert gitsource.resolve(fork, None, "myfork").diff_sha256 != dirty.diff_sha256
    assert gitsource.resolve(fork, first, "myfork").diff_sha256 is None  # not HEAD: exported clean


def test_git_builds_record_label_commit_and_are_cached(fork):
    head, first = _git(fork, "rev-parse", "HEAD"), _git(fork, "rev-parse", "HEAD~1")
    t1 = tc.build_git(gitsource.resolve(fork, "main", "myfork"), "cpu", log=lambda *_: None)
    root1 = t1.bin_dir.parent.parent
    r = t1.record
    assert root1.name.startswith("myfork-cpu-") and r["label"] == "myfork"
    assert r["source"] == {
        "git": str(fork),
        "ref": "main",
        "commit": head,
        "branch": "main",
        "diff_sha256": None,
        "label": "myfork",
    }
    assert (r["build_number"], r["build_commit"], r["built_with"]) == (2, head[:8], "fake two for test")
    assert f"-DLLAMA_BUILD_COMMIT={head[:8]}" in r["cmake_flags"]
    # the same source again: the cache, no build
    assert tc.build_git(gitsource.resolve(fork, "main", "myfork"), "cpu").toolchain_id == t1.toolchain_id
    assert _builds(root1) == 1
    # an uncommitted change: another key, built from the working tree, "-dirty"
    (fork / "mark.h").write_text('#define MARK "dirty"\n')
    t2 = tc.build_git(gitsource.resolve(fork, "main", "myfork"), "cpu", log=lambda *_: None)
    assert t2.bin_dir != t1.bin_dir and t2.record["build_commit"] == head[:8] + "-dirty"
    assert t2.record["built_with"] == "fake dirty for test" and t2.record["source"]["diff_sha256"] is not None
    # another commit: exported with git archive, its own content
    t3 = tc.build_git(gitsource.resolve(fork, first, "myfork"), "cpu", log=lambda *_: None)
    assert (t3.record["build_number"], t3.record["built_with"]) == (1, "fake one for test")
    assert len({t1.toolchain_id, t2.toolchain_id, t3.toolchain_id}) == 3
    # not cached and not allowed to build
    (fork / "mark.h").write_text('#define MARK "other"\n')
    with pytest.raises(
        tc.ToolchainError,
        match=r"no build of myfork \(.{8}-dirty\) in the cache .*; fix: "
        r"`benchbook toolchain build`",
    ):
        tc.build_git(gitsource.resolve(fork, "main", "myfork"), "cpu", build_missing=False)


def test_git_source_errors(fork, tmp_path):
    with pytest.raises(
        gitsource.GitSourceError, match=rf"toolchain.source.git {tmp_path} is not a git checkout"
    ):
        gitsource.resolve(tmp_path, "main", "x")
    with pytest.raises(gitsource.GitSourceError, match=r"`git rev-parse --verify nope\^\{commit\}` failed"):
        gitsource.resolve(fork, "nope", "x")
    with pytest.raises(gitsource.GitSourceError, match="toolchain.source.label is empty"):
        gitsource.resolve(fork, "main", "")


def test_git_source_in_params(fork, tmp_path):
    (tmp_path / "dvc.yaml").write_text("stages: {}\n")
    reg = "models:\n  registry:\n    a: {derived_from: a, quantize: Q8_0}\n"
    (tmp_path / "params.yaml").write_text(f"toolchain:\n  source: {{git: {fork}, ref: main}}\n" + reg)
    with pytest.raises(
        resolve.ParamsError, match=r"`toolchain.source` \(git\) has no `label`; fix: name the build"
    ):
        resolve.load_params(tmp_path)
    (tmp_path / "params.yaml").write_text(
        f"toolchain:\n  source: {{git: {fork}, ref: main, label: f, sha: 1}}\n" + reg
    )
    with pytest.raises(
        resolve.ParamsError,
        match=r"`toolchain\.source\.sha`: unknown key; fix: remove it or use a known key "
        r"\(known: git, ref, label\)$",
    ):
        resolve.load_params(tmp_path)
    params = {"toolchain": {"source": {"git": str(fork), "ref": "main", "label": "f"}, "backend": "cpu"}}
    with pytest.raises(tc.ToolchainError, match="no build of f"):
        resolve.get_toolchain(params, build=False)
    assert resolve.get_toolchain(params, build=True, log=lambda *_: None).record["label"] == "f"

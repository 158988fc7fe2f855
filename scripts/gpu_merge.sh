#!/usr/bin/env bash
# Append what a GPU session returned ($OUT files named <dir>__<file>.jsonl, the lines that run appended)
# to data/raw/<dir>/<file>.jsonl; append-only, never rewrites a line.  Usage: scripts/gpu_merge.sh FILES_AT
set -euo pipefail
src="${1:?usage: $0 FOLDER_WITH_RETURNED_FILES}"
cd "$(dirname "$0")/.."
for f in "$src"/*__*.jsonl; do
  [ -f "$f" ] || continue
  base="$(basename "$f")"; dir="${base%%__*}"; file="${base#*__}"
  dir="${dir//-//}"  # snapshots-hosts -> snapshots/hosts
  case "$dir" in offload|llama_bench|snapshots|snapshots/*|spec_depth|speculative) ;; *) echo "skip $base"; continue ;; esac
  mkdir -p "data/raw/$dir"
  if [[ "$dir" == snapshots* ]] && [ -f "data/raw/$dir/$file" ]; then
    # snapshots are stored once per id: append only lines not already present
    grep -vxF -f "data/raw/$dir/$file" "$f" >> "data/raw/$dir/$file" || true
  else
    cat "$f" >> "data/raw/$dir/$file"
  fi
  echo "appended $(wc -l < "$f") line(s) of $base -> data/raw/$dir/$file"
done

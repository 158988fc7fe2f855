#!/usr/bin/env bash
# Merge what a draftself_gpu device run returned (raw.tgz of its --raw-dir, unpacked into FOLDER) into
# data/raw: draftself_gpu/*.jsonl appended (append-only, never rewrites a line); the tokenizer and prompt
# JSON documents copied when absent (an existing one with other bytes is an error: its name carries the
# sha256 or the host id); host snapshots appended only where their line is not already stored; a
# returned checkpoints/<sha256>.pt (+ .json) placed in data/artifacts/checkpoints when it hashes to its
# name (then `benchbook artifacts add` and `dvc push` keep it: draftself.store).
#   usage: scripts/gpu_merge_draftself.sh FOLDER   (FOLDER holds draftself_gpu/, snapshots/, checkpoints/)
set -euo pipefail
src="${1:?usage: $0 FOLDER_WITH_UNPACKED_RAW_DIR}"
cd "$(dirname "$0")/.."
mkdir -p data/raw/draftself_gpu
for f in "$src"/draftself_gpu/*; do
  [ -f "$f" ] || continue
  dst="data/raw/draftself_gpu/$(basename "$f")"
  case "$f" in
    *.jsonl) cat "$f" >> "$dst"; echo "appended $(wc -l < "$f") line(s) -> $dst" ;;
    *.json)
      if [ ! -f "$dst" ]; then cp "$f" "$dst"; echo "copied -> $dst"
      elif ! cmp -s "$f" "$dst"; then echo "error: $dst exists with other bytes than $f" >&2; exit 1
      else echo "same bytes: $dst"; fi ;;
  esac
done
for f in "$src"/snapshots/*/*.jsonl; do
  [ -f "$f" ] || continue
  rel="${f#"$src"/}"; dst="data/raw/$rel"; mkdir -p "$(dirname "$dst")"; touch "$dst"
  n=$(grep -cvxF -f "$dst" "$f" || true)
  grep -vxF -f "$dst" "$f" >> "$dst" || true
  echo "appended $n new snapshot line(s) -> $dst"
done
for f in "$src"/checkpoints/*.pt; do
  [ -f "$f" ] || continue
  name="$(basename "$f" .pt)"
  if [ "$(sha256sum "$f" | cut -d' ' -f1)" != "$name" ]; then
    echo "error: $f does not hash to its name; fix: take raw.tgz from the device call again" >&2; exit 1
  fi
  mkdir -p data/artifacts/checkpoints
  cp "$f" "${f%.pt}.json" data/artifacts/checkpoints/
  echo "kept -> data/artifacts/checkpoints/$name.pt (next: benchbook artifacts add; dvc push)"
done

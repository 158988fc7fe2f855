#!/usr/bin/env bash
# Issue 15 item 3: one draft-self session on a CUDA host (device image: torch + tokenizers, no polars),
# from the repository root, with no network.  Reads params.yaml's draftself_gpu section; the pinned
# llama.cpp sdist is found in the benchbook cache's downloads/ or under .carry/ (scripts/gpu_carry.sh).
#   device call: carry [".carry/<your src copy>", ".carry/sdist"]; command: bash scripts/gpu_draftself.sh
#   back here:   tar xzf <files_at>/raw.tgz -C /tmp/dsg && scripts/gpu_merge_draftself.sh /tmp/dsg
# The two committed sessions ran the same module with --overrides (JSON of that section; the first with
# budget_s 270 instead of fixed_steps), training ~130 s and ~270 s, measuring ~130 s, on one H200.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1 BENCHBOOK_CACHE="${BENCHBOOK_CACHE:-/tmp/bbcache}"
export PYTHONPATH="${SRC:-$PWD/src}:$PWD/scripts/gpu_polars_stub${PYTHONPATH:+:$PYTHONPATH}"
raw="${RAW:-/tmp/r}"; out="${OUT:-/tmp}"
mkdir -p "$raw"
t0=$(date +%s)
set +e
timeout "${TIMEOUT_S:-560}" python3 -m benchbook.experiments draftself_gpu --raw-dir "$raw" 2>&1 | tee "$out/log.txt"
rc=${PIPESTATUS[0]}
set -e
echo "rc=$rc wall=$(( $(date +%s) - t0 ))s" | tee -a "$out/log.txt"
# the checkpoint the session kept (data/artifacts/checkpoints, draftself.store) comes back inside raw.tgz
# when it fits what a device call returns (16 MiB a file); else it is lost with the machine and its
# numbers carry checkpoint_unavailable
mkdir -p "$raw/checkpoints"
for f in data/artifacts/checkpoints/*.pt; do
  [ -f "$f" ] || continue
  if [ "$(stat -c %s "$f")" -le "${CKPT_MAX_BYTES:-12000000}" ]; then
    cp "$f" "${f%.pt}.json" "$raw/checkpoints/"
  else
    echo "checkpoint $f: $(stat -c %s "$f") bytes, too large to return; not kept" | tee -a "$out/log.txt"
  fi
done
tar czf "$out/raw.tgz" -C "$raw" .
exit "$rc"

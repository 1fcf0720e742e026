#!/usr/bin/env bash
# The deep zoom's figure on the lent GPU machine (issue 31): one 1000² frame of the published
# zoom at width 1e-20 (and 1e-30) by perturbation (--deep perturbation) against the fp64 frame
# at 1e-6, 50 000 steps, one GPU; then the perturbed kernel's tests against the CPU path
# (PerturbedZoomCuda.*). Builds only orrery_deep_zoom_bench and orrery_tests
# (bench/gpu_build.sh). Each case prints one JSON line (bench/deep_zoom_bench.cpp), collected in
# $OUT/deep-zoom.jsonl; the ratio of the 1e-20 frame's time to the fp64 frame's in
# $OUT/deep-zoom-summary.json. Everything goes to $OUT (default ./gpu-out).
# Usage: bench/gpu_deep_zoom.sh [resolution] [steps]
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-deep-zoom.log") 2>&1
cd "$(dirname "$0")/.."
resolution=${1:-1000}
steps=${2:-50000}

echo "== machine"
nvidia-smi -L
nproc

echo "== build"
source bench/gpu_build.sh
gpu_build orrery_deep_zoom_bench orrery_tests || { echo "build failed"; exit 1; }
git log -1 --format='commit %H %s' 2>/dev/null || true

echo "== the perturbed kernel against the CPU path"
./build-gpu/bin/orrery_tests --gtest_filter='PerturbedZoomCuda.*:PerturbedZoom.*' \
  > "$OUT/perturbed-tests.txt" 2>&1
echo "tests status $?"
tail -5 "$OUT/perturbed-tests.txt"

echo "== the frames (resolution $resolution, steps $steps, device 0)"
: > "$OUT/deep-zoom.jsonl"
./build-gpu/bin/orrery_deep_zoom_bench --backend cuda --resolution "$resolution" \
  --steps "$steps" --widths 1e-20,1e-30 | tee -a "$OUT/deep-zoom.jsonl"
echo "bench status ${PIPESTATUS[0]}"

/usr/bin/python3 - "$OUT/deep-zoom.jsonl" "$OUT/deep-zoom-summary.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
by = {(r["case"], r["width"]): r for r in rows}
fp64 = by.get(("fp64", 1e-06))
deep = by.get(("perturbed_deep", 1e-20))
same = by.get(("perturbed_same_window", 1e-06))
summary = {
    "fp64_1e-6_seconds": fp64 and fp64["seconds"],
    "perturbed_1e-6_seconds": same and same["seconds"],
    "perturbed_1e-20_seconds": deep and deep["seconds"],
    "ratio_1e-20_to_fp64": (deep["seconds"] / fp64["seconds"]) if fp64 and deep else None,
    "target_ratio": 10,
}
json.dump(summary, open(sys.argv[2], "w"), indent=1)
print(json.dumps(summary))
PY

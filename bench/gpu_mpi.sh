#!/usr/bin/env bash
# The direct engine's step loop over MPI ranks on a host of two or more GPUs (issue 28's figure:
# N = 2^20, 2 ranks x 1 GPU against 1 rank x 1 GPU): bench/mpi_direct_step.cpp, one process
# without mpirun (the baseline, GPU 0), then `mpirun -np 1` and `mpirun -np 2` (each rank on its
# node rank's GPU), each after a warm-up, the median of REPEAT timings of STEPS steps, the slowest
# rank's seconds per step with its compute, communication (all-gather and staging) and waiting
# apart. The three runs, twice each in turn (base, 1, 2, base, 1, 2), so that a drift of the
# machine shows. Needs Open MPI (mpirun, libopenmpi-dev: in .debs/ where the machine lacks it)
# and builds build-gpu with MPI (bench/gpu_build.sh). Everything goes to $OUT (./gpu-out).
# Usage (device run, 2 GPUs): bash bench/gpu_mpi.sh [N] [STEPS] [REPEAT]
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-mpi.log") 2>&1
cd "$(dirname "$0")/.."
N=${1:-1048576}
STEPS=${2:-5}
REPEAT=${3:-5}

echo "== machine"
nvidia-smi -L
nvidia-smi --query-gpu=name,clocks.max.sm,persistence_mode --format=csv
nproc
if [ -d .debs ]; then  # Open MPI carried as packages, where the machine has none
  mkdir -p /tmp/debs && for f in .debs/*.deb; do dpkg -x "$f" /tmp/debs; done
  export PATH=/tmp/debs/usr/bin:$PATH
  export OPAL_PREFIX=/tmp/debs/usr
fi
command -v mpirun > /dev/null || { echo "no mpirun: carry openmpi-bin and libopenmpi-dev"; exit 1; }
mpirun --version | head -1

echo "== build"
source bench/gpu_build.sh
cmake -S . -B build-gpu -DORRERY_MPI=ON > "$OUT/cmake-mpi.log" 2>&1 || { tail -20 "$OUT/cmake-mpi.log"; exit 1; }
gpu_build orrery_mpi_direct_step orrery_mpi || { echo "build failed"; exit 1; }
git log -1 --format='commit %H %s' 2>/dev/null || true

# As the MPI tests start Open MPI (tests/cli/mpirun.hpp), but binding each rank to its share of
# the cores: one rank per GPU, --map-by socket where the GPUs hang off two sockets.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=
bench=build-gpu/bin/orrery_mpi_direct_step
args=(--n "$N" --backend cuda --steps "$STEPS" --repeat "$REPEAT" --warmup 2)
: > "$OUT/mpi-direct.jsonl"
for round in 1 2; do
  echo "== round $round: one process (GPU 0)"
  timeout 590 "$bench" "${args[@]}" --device 0 | tee -a "$OUT/mpi-direct.jsonl"
  echo "== round $round: mpirun -np 1 (GPU 0)"
  timeout 590 mpirun -np 1 --bind-to none "$bench" "${args[@]}" --device 0 \
    | tee -a "$OUT/mpi-direct.jsonl"
  echo "== round $round: mpirun -np 2 (a GPU each)"
  timeout 590 mpirun -np 2 --bind-to socket --map-by socket "$bench" "${args[@]}" \
    | tee -a "$OUT/mpi-direct.jsonl"
done
python3 - "$OUT/mpi-direct.jsonl" <<'PY' | tee "$OUT/mpi-direct-summary.json"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
one = [r["seconds_per_step"] for r in runs if r["ranks"] == 1]
two = [r["seconds_per_step"] for r in runs if r["ranks"] == 2]
out = {"n": runs[0]["n"] if runs else None, "one_rank_s_per_step": sorted(one),
       "two_ranks_s_per_step": sorted(two)}
if one and two:
    out["speedup_two_ranks"] = min(one) / min(two)
print(json.dumps(out))
PY

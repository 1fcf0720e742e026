#!/usr/bin/env bash
# Issue 28's figures over MPI ranks on one host of two GPUs (docs/guide/mpi.md), one part a call
# so that each fits a device call of ~8 min (the build, cold, takes ~7 of them on its own):
#   build   configure build-gpu with CUDA and MPI, build what the parts run (orrery, its MPI
#           plugin, bench/mpi_direct_step.cpp, bench/mpi_tree_errors.cpp); later calls on the
#           same warm machine find it built.
#   map     the canonical map (`orrery map --backend cuda --resolution 1000`): 2 ranks x 1 GPU
#           (mpirun -np 2) against 1 process x 2 GPUs (--devices 0,1), REPEAT runs each in turn,
#           each a whole process timed from outside, and its own --timings (rank 0's); the two
#           PNGs compared byte for byte.
#   direct  the direct engine's step loop, N = 2^20 (N_DIRECT): 1 rank x 1 GPU, mpirun -np 1,
#           mpirun -np 2 (a GPU each).
#   tree    the tree's step loop, N = 10^7 Plummer (N_TREE; TREE_STEPS steps a timing), on the
#           CPUs (the tree over ranks has no GPU path): 1 process x all cores against 2 ranks x
#           half the cores each, and the force errors of both against the direct fp64 sum on a
#           sample of 512 bodies.
#   weak    the tree's weak scaling on the CPUs: R = 1, 2, 4, 8, 16 ranks x WEAK_THREADS threads,
#           N = WEAK_N0 x R.
# The step loops (bench/mpi_direct_step.cpp) time STEPS steps after a warm-up, REPEAT times, and
# report the median of the slowest rank's seconds per step with its compute, communication and
# waiting apart. Every run writes one JSON line into $OUT/mpi-<part>.jsonl, and a summary
# $OUT/mpi-<part>-summary.json. Needs Open MPI (mpirun, libopenmpi-dev: in .debs/ where the
# machine lacks it). Never run it for figures on a machine whose cores are shared.
# Usage (device run, 2 GPUs): bash bench/gpu_mpi.sh build|map|direct|tree|weak
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
PART=${1:-build}
exec > >(tee -a "$OUT/gpu-mpi-$PART.log") 2>&1
cd "$(dirname "$0")/.."
STEPS=${STEPS:-5}
REPEAT=${REPEAT:-5}
N_DIRECT=${N_DIRECT:-1048576}
N_TREE=${N_TREE:-10000000}
THETA=${THETA:-0.5}
WEAK_N0=${WEAK_N0:-250000}
WEAK_THREADS=${WEAK_THREADS:-2}
cores=$(nproc)

echo "== machine ($PART)"
nvidia-smi -L
nvidia-smi --query-gpu=name,clocks.max.sm,persistence_mode --format=csv
echo "cores $cores"
if compgen -G ".debs/*openmpi*.deb" > /dev/null; then  # Open MPI carried, where the machine has none
  # (only then: OPAL_PREFIX pointed at the unpacked toml++ alone breaks the machine's own mpirun)
  mkdir -p /tmp/debs && for f in .debs/*.deb; do dpkg -x "$f" /tmp/debs; done
  export PATH=/tmp/debs/usr/bin:$PATH
  export OPAL_PREFIX=/tmp/debs/usr
fi
command -v mpirun > /dev/null || { echo "no mpirun: carry openmpi-bin and libopenmpi-dev"; exit 1; }
mpirun --version | head -1
git log -1 --format='commit %H %s' 2>/dev/null || true

if [ "$PART" = build ]; then
  source bench/gpu_build.sh
  # MPI on in build-gpu's cache, with gpu_build's generator and options; gpu_build keeps it.
  toml=/tmp/debs/usr/lib/x86_64-linux-gnu/cmake/tomlplusplus
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DORRERY_CUDA=ON -DORRERY_MPI=ON \
    $([ -d "$toml" ] && echo "-Dtomlplusplus_DIR=$toml") > "$OUT/cmake-mpi.log" 2>&1 ||
    { tail -20 "$OUT/cmake-mpi.log"; exit 1; }
  grep -q "ORRERY_MPI:.*=ON" build-gpu/CMakeCache.txt || { echo "MPI is not on"; exit 1; }
  time gpu_build orrery-cli orrery_mpi orrery_mpi_direct_step orrery_mpi_tree_errors ||
    { echo "build failed"; exit 1; }
  build-gpu/bin/orrery --version
  exit 0
fi
for f in build-gpu/bin/orrery build-gpu/bin/orrery_mpi_direct_step \
         build-gpu/bin/orrery_mpi_tree_errors build-gpu/lib/liborrery_mpi.so; do
  [ -e "$f" ] || { echo "$f missing: run 'bash bench/gpu_mpi.sh build' first"; exit 1; }
done
[ -d /tmp/debs/usr/lib/x86_64-linux-gnu ] &&
  export LD_LIBRARY_PATH=/tmp/debs/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}

# As the MPI tests start Open MPI (tests/cli/mpirun.hpp), but binding each rank to its share of
# the cores: one rank per GPU, --map-by socket where the GPUs hang off two sockets.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=
step=build-gpu/bin/orrery_mpi_direct_step
errors=build-gpu/bin/orrery_mpi_tree_errors
lines="$OUT/mpi-$PART.jsonl"
: > "$lines"
loop=(--steps "$STEPS" --repeat "$REPEAT" --warmup 2)

summary() {  # the JSON lines of this part, grouped and their medians, as one JSON object
  python3 - "$lines" "$PART" <<'PY' | tee "$OUT/mpi-$PART-summary.json"
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
groups = {}
for r in runs:
    key = "%s ranks=%s threads=%s n=%s" % (r.get("label", r.get("bench")), r.get("ranks"),
                                         r.get("threads_per_rank"), r.get("n"))
    groups.setdefault(key, []).append(r)
out = {"part": sys.argv[2], "groups": {}}
for key, rs in groups.items():
    g = {}
    for field in ("seconds_per_step", "compute_per_step", "communicate_per_step",
                  "wait_per_step", "wall", "compute", "error_median", "error_p99", "error_max",
                  "evaluation_seconds"):
        v = [r[field] for r in rs if r.get(field) is not None]
        if v:
            g[field + "_median"] = statistics.median(v)
            g[field + "_all"] = v
    out["groups"][key] = g
print(json.dumps(out, indent=1))
PY
}

case "$PART" in
map)
  work="$OUT/map"
  mkdir -p "$work"
  run_map() {  # label run "launcher words" "extra map flags"
    local label=$1 k=$2 launcher=$3 extra=$4
    local before after status wall compute
    before=$EPOCHREALTIME
    # shellcheck disable=SC2086  # the words of the launcher and the flags, split on purpose
    $launcher build-gpu/bin/orrery map --backend cuda --resolution 1000 --timings --overwrite \
      --out "$work/$label.png" $extra > "$work/$label-$k.txt" 2>&1
    status=$?
    after=$EPOCHREALTIME
    [ $status -eq 0 ] || { echo "$label run $k failed"; cat "$work/$label-$k.txt"; return 1; }
    wall=$(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.4f", b - a }')
    compute=$(sed -n 's/.*timings (s): .*compute \([0-9.e+-]*\).*/\1/p' "$work/$label-$k.txt")
    echo "{\"label\": \"map $label\", \"ranks\": ${label%%x*}, \"run\": $k, \"wall\": $wall," \
         "\"compute\": ${compute:-null}}" | tee -a "$lines"
  }
  for k in $(seq 1 "$REPEAT"); do  # in turn, so that a drift of the machine shows in both
    run_map 1x2gpu "$k" "" "--devices 0,1"
    run_map 2x1gpu "$k" "mpirun -np 2 --bind-to socket --map-by socket" ""
  done
  cmp "$work/1x2gpu.png" "$work/2x1gpu.png" && echo "map_identical yes" || echo "map_identical NO"
  ;;
direct)
  args=(--engine direct --n "$N_DIRECT" --backend cuda "${loop[@]}")
  for round in 1 2; do
    echo "== round $round: one process (GPU 0), mpirun -np 1 (GPU 0), mpirun -np 2 (a GPU each)"
    timeout 250 "$step" "${args[@]}" --device 0 | tee -a "$lines"
    timeout 250 mpirun -np 1 --bind-to none "$step" "${args[@]}" --device 0 | tee -a "$lines"
    timeout 250 mpirun -np 2 --bind-to socket --map-by socket "$step" "${args[@]}" |
      tee -a "$lines"
  done
  ;;
tree)
  half=$((cores / 2))
  args=(--engine tree --theta "$THETA" --n "$N_TREE" --backend cpu --steps "${TREE_STEPS:-2}"
        --repeat "$REPEAT" --warmup 2)
  echo "== the step loop: one process x $cores threads, 2 ranks x $half threads"
  timeout 200 "$step" "${args[@]}" --threads "$cores" | tee -a "$lines"
  timeout 200 mpirun -np 2 --bind-to socket --map-by socket "$step" "${args[@]}" \
    --threads "$half" | tee -a "$lines"
  echo "== the force errors against the direct fp64 sum (512 bodies)"
  timeout 100 "$errors" --n "$N_TREE" --theta "$THETA" --threads "$cores" | tee -a "$lines"
  timeout 100 mpirun -np 2 --bind-to socket --map-by socket "$errors" --n "$N_TREE" \
    --theta "$THETA" --threads "$half" | tee -a "$lines"
  ;;
weak)
  for r in 1 2 4 8 16; do
    [ $((r * WEAK_THREADS)) -le "$cores" ] || break
    n=$((WEAK_N0 * r))
    echo "== $r ranks x $WEAK_THREADS threads, N = $n"
    timeout 100 mpirun -np "$r" --bind-to core --map-by "slot:PE=$WEAK_THREADS" "$step" \
      --engine tree --theta "$THETA" --n "$n" --backend cpu --threads "$WEAK_THREADS" \
      "${loop[@]}" | tee -a "$lines"
  done
  ;;
*)
  echo "unknown part '$PART': build, map, direct, tree or weak"
  exit 2
  ;;
esac
summary
ls -la "$OUT"

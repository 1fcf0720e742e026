#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# orrery and REBOUND side by side, whole processes in turn (A B A B …), on this machine:
#   (a) the outer Solar System (REBOUND's initial conditions, G = 1), whfast with a symplectic
#       corrector, STEPS steps of DT, outputs in SEGMENTS equal parts (REBOUND: synchronise and
#       compute the energy; orrery: a snapshot and a checkpoint): REBOUND in safe mode 0 (its
#       outer_solar_system example) against orrery's default, and with STEPS/10 steps REBOUND's
#       safe mode 1 (its default) against orrery's --whfast-safe-mode;
#   (b) the Pythagorean problem to t = 70 with IAS15, REBOUND's two step criteria (2: PRS23, its
#       default; 1: global) and orrery's;
#   (c) the Sun, eight planets and TEST_PARTICLES test particles (bench/rebound/
#       whfast_test_particles.c), whfast without a corrector, TP_STEPS steps of TP_DT: REBOUND on
#       one thread and with OpenMP on two, orrery on one thread and on two (--threads); the time
#       of a step is (a run of TP_STEPS steps − a run of one) / (TP_STEPS − 1), start-up and
#       files taken out.
# REBOUND is built here from the source tree given (its makefile's -O3 -std=c99 plus
# -march=native, no OpenMP, no server; and with -fopenmp for (c)), with the drivers of
# bench/rebound/; orrery's
# repository never depends on it.
#
#   bench/rebound_side_by_side.sh REBOUND_SRC [ORRERY_BUILD (build-cpu)] [ROUNDS (5)]
#
# Environment: STEPS (10^6), DT (0.005·12·2·3.1415, REBOUND's test_whfast_outersolarsystem),
# SEGMENTS (100), CORRECTOR (11), TEST_PARTICLES (10000), TP_STEPS (1000), TP_DT (0.05: about 30
# steps an orbit of Mercury), WORK (a folder of its own under /dev/shm), ORRERY_EXTRA (more
# orrery sim options for (a) and (b)). Prints one JSON document: every run, then each command's
# min and median (seconds of wall time, user + system CPU time; energy errors and steps).
set -euo pipefail

rebound_src=${1:?usage: $0 REBOUND_SRC [ORRERY_BUILD] [ROUNDS]}
build=${2:-build-cpu}
rounds=${3:-5}
steps=${STEPS:-1000000}
dt=${DT:-0.37698}
segments=${SEGMENTS:-100}
corrector=${CORRECTOR:-11}
extra=${ORRERY_EXTRA:-}
test_particles=${TEST_PARTICLES:-10000}
tp_steps=${TP_STEPS:-1000}
tp_dt=${TP_DT:-0.05}
here=$(cd "$(dirname "$0")" && pwd)
orrery=$(cd "$build" && pwd)/bin/orrery
work=${WORK:-$(mktemp -d /dev/shm/rebound-side-by-side.XXXXXX)}
mkdir -p "$work/obj"
[[ -x $orrery ]] || { echo "no orrery executable at $orrery" >&2; exit 2; }
[[ -f $rebound_src/src/rebound.c ]] || { echo "no REBOUND source tree at $rebound_src" >&2; exit 2; }

# REBOUND: the library's sources as its makefile lists them (without -DSERVER and -DOPENGL its
# server and display compile to stubs).
cflags="-O3 -march=native -std=c99 -D_GNU_SOURCE"
sources=$(sed -n 's/^SOURCES=//p' "$rebound_src/src/Makefile")
objects=()
for s in $sources; do
  o="$work/obj/${s%.c}.o"
  [[ -f $o ]] || gcc $cflags -c "$rebound_src/src/$s" -o "$o" -w
  objects+=("$o")
done
ar rcs "$work/librebound.a" "${objects[@]}"
for d in whfast_outer ias15_pythagorean whfast_test_particles; do
  gcc $cflags -I"$rebound_src/src" "$here/rebound/$d.c" "$work/librebound.a" -lm -o "$work/$d"
done
"$work/whfast_outer" --csv > "$work/outer_solar_system.csv"
# REBOUND with OpenMP (its makefile's OPENMP=1: -fopenmp -DOPENMP) for (c).
mkdir -p "$work/obj-omp"
objects=()
for s in $sources; do
  o="$work/obj-omp/${s%.c}.o"
  [[ -f $o ]] || gcc $cflags -fopenmp -DOPENMP -c "$rebound_src/src/$s" -o "$o" -w
  objects+=("$o")
done
ar rcs "$work/librebound-omp.a" "${objects[@]}"
gcc $cflags -fopenmp -DOPENMP -I"$rebound_src/src" "$here/rebound/whfast_test_particles.c" \
  "$work/librebound-omp.a" -lm -o "$work/whfast_test_particles_omp"
"$work/whfast_test_particles" "$test_particles" --csv > "$work/test_particles.csv"

# One timed run: its figures as one JSON line, with the process's wall and CPU seconds. $1 names
# it. REBOUND's drivers print JSON; orrery sim prints its diagnostics table (the energy drift of
# each snapshot, "drift E") and the steps it took.
timed() {
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -o "$work/time.txt" -f '%U %S' "$@" > "$work/stdout.txt"
  t1=$(date +%s.%N)
  /usr/bin/python3 - "$name" "$t0" "$t1" "$work/time.txt" "$work/stdout.txt" <<'PY'
import json, re, sys
name, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
user, system = open(sys.argv[4]).read().split()[-2:]
rec = {"name": name, "wall": round(t1 - t0, 4), "cpu": round(float(user) + float(system), 3)}
drifts = []
for line in open(sys.argv[5]):
    line = line.strip()
    if line.startswith("{"):
        rec.update(json.loads(line))
    m = re.match(r"orrery sim: (\d+) steps to t = (\S+)", line)
    if m:
        rec["steps"], rec["t"] = int(m.group(1)), float(m.group(2))
    cols = line.split()
    if len(cols) == 8 and cols[0].isdigit():  # snapshot, time, energy, K/|W|, drift E, ...
        drifts.append(float(cols[4]))
if drifts:
    rec["energy_error_final"], rec["energy_error_max"] = drifts[-1], max(drifts)
print(json.dumps(rec))
PY
}

t_end=$(/usr/bin/python3 -c "print(repr($steps * $dt))")
safe_steps=$((steps / 10))  # safe mode applies the corrector at every step: 40 times the work
t_end_safe=$(/usr/bin/python3 -c "print(repr($safe_steps * $dt))")
runs="$work/runs.jsonl"
: > "$runs"
for ((k = 0; k < rounds; ++k)); do
  timed rebound_whfast_safe0 "$work/whfast_outer" "$corrector" 0 "$steps" "$dt" "$segments" >> "$runs"
  rm -rf "$work/oss"
  timed orrery_whfast "$orrery" sim --input "$work/outer_solar_system.csv" --integrator whfast \
    --corrector "$corrector" --dt "$dt" --t-end "$t_end" --every $((steps / segments)) \
    --out "$work/oss" $extra >> "$runs"
  timed rebound_whfast_safe1 "$work/whfast_outer" "$corrector" 1 "$safe_steps" "$dt" "$segments" >> "$runs"
  rm -rf "$work/oss-safe"
  timed orrery_whfast_safe_mode "$orrery" sim --input "$work/outer_solar_system.csv" \
    --integrator whfast --whfast-safe-mode --corrector "$corrector" --dt "$dt" \
    --t-end "$t_end_safe" --every $((safe_steps / segments)) --out "$work/oss-safe" $extra >> "$runs"
  timed rebound_ias15_prs23 "$work/ias15_pythagorean" 2 >> "$runs"
  rm -rf "$work/pyth"
  timed orrery_ias15_prs24 "$orrery" sim --scene pythagorean --integrator ias15 --t-end 70 \
    --out "$work/pyth" $extra >> "$runs"
  timed rebound_ias15_global "$work/ias15_pythagorean" 1 >> "$runs"
  rm -rf "$work/pyth"
  timed orrery_ias15_global "$orrery" sim --scene pythagorean --integrator ias15 \
    --ias15-criterion global --t-end 70 --out "$work/pyth" $extra >> "$runs"
  rm -rf "$work/pyth"
  # The process without the integration (start-up, the run's folder, its files).
  timed orrery_ias15_to_0.001 "$orrery" sim --scene pythagorean --integrator ias15 \
    --t-end 0.001 --out "$work/pyth" $extra >> "$runs"
  timed rebound_test_particles_1thread "$work/whfast_test_particles" "$test_particles" \
    "$tp_steps" "$tp_dt" >> "$runs"
  OMP_NUM_THREADS=2 timed rebound_test_particles_2threads "$work/whfast_test_particles_omp" \
    "$test_particles" "$tp_steps" "$tp_dt" >> "$runs"
  for threads in 1 2; do
    for s in "$tp_steps" 1; do
      rm -rf "$work/tp"
      timed "orrery_test_particles_${threads}thread_${s}steps" "$orrery" sim \
        --input "$work/test_particles.csv" --integrator whfast --dt "$tp_dt" \
        --t-end "$(/usr/bin/python3 -c "print(repr($s * $tp_dt))")" --every "$s" \
        --threads "$threads" --out "$work/tp" >> "$runs"
    done
  done
done

/usr/bin/python3 - "$runs" "$work" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
summary = {}
for name in dict.fromkeys(r["name"] for r in runs):
    rs = [r for r in runs if r["name"] == name]
    s = {}
    for key in ("wall", "cpu", "seconds_in_process", "cpu_seconds_in_process",
                "microseconds_per_step", "cpu_microseconds_per_step"):
        v = [r[key] for r in rs if key in r]
        if v:
            s[key] = {"min": min(v), "median": statistics.median(v), "max": max(v)}
    for key in ("steps", "energy_error", "energy_error_final", "energy_error_max"):
        if key in rs[0]:
            s[key] = rs[0][key]
    summary[name] = s
# (c): orrery's time a step, its runs of many steps less those of one step.
tp = {}
for threads in (1, 2):
    many = [r for r in runs if r["name"].startswith(f"orrery_test_particles_{threads}thread_")
            and not r["name"].endswith("_1steps")]
    one = [r for r in runs if r["name"] == f"orrery_test_particles_{threads}thread_1steps"]
    if many and one:
        steps = many[0]["steps"] - 1
        for key in ("cpu", "wall"):
            tp[f"orrery_{threads}thread_{key}_microseconds_per_step"] = round(1e6 * (
                statistics.median(r[key] for r in many) -
                statistics.median(r[key] for r in one)) / steps, 1)
summary["test_particles_per_step"] = tp
print(json.dumps({"work": sys.argv[2], "runs": runs, "summary": summary}, indent=1))
PY

#!/usr/bin/env bash
# The million-body galaxy collision on one GPU (docs/guide/collision.md): two-galaxies at N = 10⁶
# with the CUDA tree engine and leapfrog, 2·10⁹ years (2·10⁴ steps of 10⁵ years) through first
# passage and merger, a snapshot every 200 steps; then the time per step, the energy drift and
# the distance between the two central bodies over time, read from the run. By default fp32 in
# the scene's N-body units (units=nbody: in SI, r² reaches 10⁴², past the largest fp32 number);
# PRECISION=fp64 UNITS=si runs the course's own units; RENDER=1 also renders its frames.
# Outputs in $OUT (default ./gpu-out).
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/collision.log") 2>&1
cd "$(dirname "$0")/.."
source bench/gpu_build.sh
gpu_build orrery-cli || { echo "build failed"; exit 1; }
O=$PWD/build-gpu/bin/orrery
N=${N:-1000000}
STEPS=${STEPS:-20000}
YEAR=31557600
PRECISION=${PRECISION:-fp32}
UNITS=${UNITS:-nbody}
# The scene's time and length units (scenes/nbody_units.hpp): T = √(L³/(G M)).
read -r TIME_UNIT LENGTH_UNIT < <(python3 -c "
import math
G, L, M = 6.67384e-11, 1e21, 4e42
print(math.sqrt(L**3 / (G * M)), L) if '$UNITS' == 'nbody' else print(1.0, 1.0)")
[ -n "${RESUME:-}" ] || rm -rf /tmp/collision
nvidia-smi -L
# Within the device's 10 minutes a command; a run cut short resumes (RESUME=1).
/usr/bin/time -f "run: wall %e s, peak host memory %M KB" timeout "${LIMIT:-420}" \
  $O sim --scene two-galaxies --n "$N" --units "$UNITS" --engine tree --backend cuda \
    --precision "$PRECISION" --t-end "$(python3 -c "print($STEPS * 1e5 * $YEAR / $TIME_UNIT)")" \
    --every 200 --out /tmp/collision \
    ${RESUME:+--resume} > "$OUT/collision_sim.txt" 2>&1
tail -4 "$OUT/collision_sim.txt"
python3 - "$OUT" "$TIME_UNIT" "$LENGTH_UNIT" <<'PY'
import glob, sys, json, h5py, numpy as np
time_unit, length_unit = float(sys.argv[2]), float(sys.argv[3])
snaps = sorted(glob.glob('/tmp/collision/snapshot_*.h5'))
rows = []
for s in snaps:
    f = h5py.File(s, 'r')
    ids = f['id'][:]
    n = len(ids)
    x = f['position']
    a = x[int(np.where(ids == 0)[0][0])]
    b = x[int(np.where(ids == (n + 1) // 2)[0][0])]
    rows.append(dict(step=int(f.attrs['step']), years=float(f.attrs['time']) * time_unit / 31557600,
                     central_separation_m=float(np.linalg.norm(a - b)) * length_unit,
                     drift=float(f.attrs.get("drift_energy", np.nan))))
print('step  years  central-separation(m)  energy-drift')
for r in rows[::5] + [rows[-1]]:
    print('%6d %10.3g %12.4g %12.3g' % (r['step'], r['years'], r['central_separation_m'], r['drift']))
json.dump(rows, open(sys.argv[1] + '/collision.json', 'w'), indent=1)
PY
python3 -c "
import h5py; f=h5py.File('/tmp/collision/run.h5','r'); print({k: (f.attrs[k] if not hasattr(f.attrs[k],'decode') else f.attrs[k]) for k in f.attrs.keys()})" 2>&1 | head -5
cp /tmp/collision/run.h5 "$OUT/" 2>/dev/null
ls /tmp/collision | head -3; du -sh /tmp/collision
# The frames of docs/guide/collision.md: one per snapshot, coloured by galaxy; the GPU machine has
# no ffmpeg, so they come back as PNG in tar parts of 15 MB (the device returns files of ≤ 16 MiB)
# and are encoded where ffmpeg is: cat frames.tar.* | tar -x; ffmpeg (the command render prints).
if [ -n "${RENDER:-}" ]; then
  rm -rf /tmp/frames
  /usr/bin/time -f "render: wall %e s" $O render /tmp/collision --frames-dir /tmp/frames \
    --color-by group --width 1280 --height 720 --fps 15 --out /tmp/collision.mp4 2>&1 | tail -3
  du -sh /tmp/frames
  # Three parts at most come back beside the logs: beyond 45 MB, every second frame.
  (cd /tmp && if [ "$(du -sm frames | cut -f1)" -gt 45 ]; then ls frames/*[02468].png; else ls frames/*; fi \
     | tar -cf - -T - | split -b 15M - "$OUT/frames.tar.")
  rm -f "$OUT/cmake.log"
  ls -la "$OUT"
fi

# Sourced by the device scripts (bench/gpu*.sh) from the repository root: unpacks the Debian
# packages carried in .debs/ (toml++ is not on the GPU machine), configures build-gpu for CUDA
# (sm_90) and builds `$@` (every target when none), logging the configuration to $OUT/cmake.log.
# Returns non-zero when configuring or building fails.
gpu_build() {
  if [ -d .debs ]; then
    mkdir -p /tmp/debs && for f in .debs/*.deb; do dpkg -x "$f" /tmp/debs; done
    local toml="-Dtomlplusplus_DIR=/tmp/debs/usr/lib/x86_64-linux-gnu/cmake/tomlplusplus"
    export LD_LIBRARY_PATH=/tmp/debs/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  fi
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DORRERY_CUDA=ON ${toml:-} \
    > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; return 1; }
  local targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  cmake --build build-gpu -j "$(nproc)" "${targets[@]}" 2>&1 | grep -E "error|warning: |FAILED" | head -40
  return "${PIPESTATUS[0]}"
}

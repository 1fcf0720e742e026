// SPDX-License-Identifier: MIT
// How the CUDA divergence map is scheduled, apart from what it computes
// (docs/internals/map-gpu.md): one policy per GPU architecture, as CUB keeps its tuning in
// per-architecture policies. Each value names the row of bench/README.md that chose it ("§" names
// the section, then the row); the benchmark bench/divergence_map_cuda_bench.cpp re-measures them.
// The schedule never changes a count (tests/ensemble/divergence_map_cuda_test.cpp varies it), only
// how fast the map is done. constexpr and free of fmt: .cu files include it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace orrery::cuda {

// What a run of the map reads at run time. A value, so that tests and benchmarks may pass
// another schedule (divergence_map_cuda.hpp); the map itself always runs MapPolicy's.
struct MapSchedule {
  // Blocks per launch; 0 fills the device (twin_launch_shape).
  int blocks;
  // Loop passes between a warp's segment ends, where it parks its trajectories and takes the
  // longest-waiting ones: a power of two, or 0 to run each pixel to its end without parking.
  int segment;
  // Live pixels per thread on each device (the cap on pixels in progress), once measured.
  double live_per_thread;
  // With several devices: the cap while their speeds are measured, and for how long (seconds):
  // long enough for every warp to end several segments, short enough that the pixels started
  // when the cap rises have most of the run left.
  double measuring_live_per_thread;
  double measure_for_s;
  // Speeds within this ratio count as equal: the deals stay as dealt.
  double speed_tolerance;
  // With several devices: the fraction of the map dealt in equal stretches at the start; the
  // rest is shared from one pool as devices free threads.
  double device_share;
  // Whether measured speeds move unstarted pixels from slower devices' deals to faster ones'.
  bool balance;
  // Whether, once no new pixel remains, trajectories behind the median step count keep their
  // lanes at segment ends (the kernel's `catch_up`), so that a device's last ones end together.
  bool catch_up;
  // Ring entries the host keeps written ahead of a device's claims, at least (four polls'
  // worth of claims otherwise): pixels leave the shared pool late, ordered by what is known.
  std::uint64_t feed_ahead_least;
  // How often a device's host thread polls its claims and refills its ring (microseconds).
  int poll_every_us;
  // The calling thread copies finished pixels every `sweep_every_us`, looking at up to
  // `sweep_at_most` result words (so that it notices the end of the run that late at most),
  // and shares the last copy with at least `last_copy_threads` host threads.
  int sweep_every_us;
  std::size_t sweep_at_most;
  std::size_t last_copy_threads;
};

// Hopper (sm_90): H100 and H200, the architecture this build targets.
struct MapPolicySm90 {
  // The kernel's own shape, fixed at compile time (twin_kernel.cuh: __launch_bounds__).
  // Threads per block: small blocks return a multiprocessor's resources sooner at the end of a
  // run. No row in bench/README.md yet (a launch-shape benchmark is to add one).
  static constexpr int threads_per_block = 64;
  // Blocks per multiprocessor the compiler must fit: 8 × 64 threads keep registers within 128
  // per thread, no local memory (docs/internals/map-gpu.md, "How it runs": 110–128 registers).
  static constexpr int min_blocks_per_sm = 8;
  // A problem whose step holds more than this many 32-bit registers of values (state, kept
  // memory, stage values) cannot fit 128 per thread and spills to local memory: its kernel is
  // compiled for `heavy_min_blocks_per_sm` instead (255 registers per thread): rk4, ab2 and ab4
  // in fp64 (bench/README.md, the rows divergence_map_cuda/integrator/* at 8 and at 4 blocks).
  static constexpr int heavy_register_values = 200;
  static constexpr int heavy_min_blocks_per_sm = 4;
  template <class Problem>
  static constexpr int min_blocks_per_sm_for() {
    return Problem::working_words * (sizeof(typename Problem::Real) / 4) > heavy_register_values
               ? heavy_min_blocks_per_sm
               : min_blocks_per_sm;
  }
  // Once no new pixel remains, a warp with fewer trajectories than this at a segment's end
  // hands them to fuller warps and leaves. No row in bench/README.md yet.
  static constexpr int sparse_warp = 16;
  // Once no new pixel remains, segments shrink to segment / short_segment_divisor passes
  // (docs/internals/map-gpu.md, "Trajectories park": 256 steps). No row in bench/README.md yet.
  static constexpr unsigned short_segment_divisor = 16;

  static constexpr MapSchedule schedule{
      // Launch-shape tests only; 0 is the occupancy-derived shape.
      .blocks = 0,
      // § "Lanes that refill against the published schedule" and results/divergence-map-cuda-
      // H100.json: fp64-schedule/no-parking/1gpu against fp64/1gpu (segments of 1024 and
      // 16384: fp64-schedule/segment*, not yet recorded).
      .segment = 4096,
      // § "The schedule policy", live pixels per thread: 8 (fp64/1gpu) against
      // fp64-schedule/live{1,2,4}/1gpu.
      .live_per_thread = 8,
      // § "How devices share the map": the row "default (2 per thread for 20 ms, speeds,
      // then 8)" against "2 per thread throughout".
      .measuring_live_per_thread = 2,
      .measure_for_s = 0.02,
      // § "How devices share the map": the rows "device 0 running another job" (speeds move
      // pixels) and "default" (equal speeds leave the deals alone).
      .speed_tolerance = 1.02,
      // § "The schedule policy", device share: fp64-schedule/share{0.5,...,1.0}/4gpu (one half
      // is 5 % slower on four H200s).
      .device_share = 1.0,
      // § "How devices share the map": "device 0 running another job" against "the same,
      // pixels not moved".
      .balance = true,
      // § "The end of each device's run": "catch-up (default)" against "no catch-up".
      .catch_up = true,
      // § "The schedule policy", the feed: not measured apart (fp64/1gpu runs it).
      .feed_ahead_least = 4096,
      .poll_every_us = 100,
      // § "Where the rest goes": results copied about 1.1 ms after the last device
      // (done_to_return_s of fp64/4gpu).
      .sweep_every_us = 2000,
      .sweep_at_most = 65536,
      .last_copy_threads = 8,
  };
};

// The policy of the architecture this build targets (CMAKE_CUDA_ARCHITECTURES: 90).
using MapPolicy = MapPolicySm90;

}  // namespace orrery::cuda

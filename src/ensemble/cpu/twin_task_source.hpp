// SPDX-License-Identifier: MIT
// What the CPU divergence kernels work from: tiles of tasks taken on demand from the map's one
// work queue (ensemble/schedule/work_pool.hpp, shared with the GPUs: a thread whose pixels
// diverge early simply takes more tiles, and the longest-expected pixels go first at the end),
// the pixel of each task, and where its count goes. The kernels are compiled once per instruction set; they call only
// the out-of-line members here, so no inline code compiled for AVX-512 can leak into code that
// runs on a CPU without it.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>

#include "orrery/core/precision.hpp"
#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"
#include "ensemble/schedule/work_pool.hpp"

namespace orrery::cpu {

// Pixels a thread takes at a time.
inline constexpr int kTilePixels = 16;

// Tasks taken and not yet started: items[next..size). A plain struct, no member functions, so
// that the kernels touch it only through their own code.
struct Tile {
  static constexpr int kCapacity = kTilePixels;
  std::uint64_t items[kCapacity];
  int next = 0, size = 0;
};

class TwinTaskSource {
 public:
  // Tasks are the grid's pixels (the task is the row-major pixel index), or the given pixels
  // (the task is the position in the list). `counts` must read −1 until a task's count is in:
  // the queue's longest-first order reads it.
  TwinTaskSource(const DivergenceSetup& setup, std::span<const PixelIndex> pixels,
                 std::int32_t* counts, std::uint8_t* nonfinite,
                 const std::function<void(const MapProgress&)>* progress);

  // Reports the pixels a thread finished since its last call and refills its tile. Returns
  // false when every task is handed out.
  bool next_tile(Tile& tile, std::int64_t& finished_pixels, std::int64_t& finished_steps);
  // Adds a thread's finished pixels and steps to the totals and zeroes its counters.
  void hand_in(std::int64_t& finished_pixels, std::int64_t& finished_steps);
  void pixel_of(std::int64_t task, std::int64_t& j, std::int64_t& k) const;

  std::int64_t tasks() const { return tasks_; }
  MapProgress progress() const;
  void report_progress();

  std::int32_t* const counts;
  std::uint8_t* const nonfinite;
  // The frame's reference trajectory, for --deep perturbation; else null.
  const ReferenceOrbit* reference = nullptr;

 private:
  const DivergenceSetup& setup_;
  std::span<const PixelIndex> pixels_;
  std::int64_t tasks_;
  WorkPool pool_;
  std::atomic<std::int64_t> pixels_done_{0};
  std::atomic<std::int64_t> pixel_steps_{0};
  const std::function<void(const MapProgress&)>* progress_;
  std::chrono::steady_clock::time_point start_, last_report_;
};

// One instruction-set variant of the lane kernel. `run[i]` (integrator i) is called by every worker thread and
// returns when the source is exhausted.
struct CpuKernel {
  using Run = void (*)(const DivergenceSetup&, Precision, TwinTaskSource&);
  const char* name;
  std::array<Run, kMapIntegratorCount> run;  // by map integrator (ensemble/map_integrators.hpp)
};

std::span<const CpuKernel> cpu_kernels();  // widest first

}  // namespace orrery::cpu

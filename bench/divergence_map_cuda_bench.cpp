// SPDX-License-Identifier: MIT
// The canonical divergence map (1000×1000, 50 000 steps, default window) on the GPU(s): seconds
// per map, pixel-steps per second, the device's measured fp64 FMA ceiling, and each mode's
// agreement with the exact fp64 counts (which equal the CPU's bit for bit).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "ensemble/cuda/divergence_map_cuda.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery::bench {

double fp64_fma_per_second(int device);
double naive_map_seconds(const DivergenceSetup& s, std::vector<std::int32_t>& counts);
void* occupy_device(int device, int blocks);
void release_device(void* busy);

namespace {

const std::vector<std::int32_t>& exact_fp64_counts() {
  static const std::vector<std::int32_t> counts = [] {
    MapRunOptions o;
    o.backend = Backend::cuda;
    o.exact_gpu = true;
    return compute_divergence_map(DivergenceMapParams{}, o).counts;
  }();
  return counts;
}

// The GPU schedule (ensemble/cuda/map_schedule_policy.hpp): parking segment (0: each thread
// runs a pixel to its end), live pixels per thread (0: the policy's), the share of the map
// dealt, and whether devices' speeds move pixels; and blocks of another job kept running on
// device 0 meanwhile (a busier device).
struct Schedule {
  int segment = cuda::MapPolicy::schedule.segment;
  double live = 0;
  double share = cuda::MapPolicy::schedule.device_share;
  bool balance = cuda::MapPolicy::schedule.balance;
  int busy_blocks = 0;
  bool catch_up = cuda::MapPolicy::schedule.catch_up;

  cuda::MapSchedule policy() const {
    cuda::MapSchedule s = cuda::MapPolicy::schedule;
    s.segment = segment;
    if (live > 0) s.live_per_thread = live;
    s.device_share = share;
    s.balance = balance;
    s.catch_up = catch_up;
    return s;
  }
};

// The whole map on the CUDA backend under `schedule`, timed as compute_divergence_map times it.
DivergenceMap map_with(const DivergenceMapParams& p, const MapRunOptions& o,
                       const cuda::MapSchedule& schedule) {
  const DivergenceSetup setup = make_divergence_setup(p);
  const auto t0 = std::chrono::steady_clock::now();
  DivergenceMap m;
  static_cast<DivergenceCounts&>(m) = cuda::run_divergence_map(setup, {}, o, schedule);
  m.info.wall_seconds = seconds_since(t0);
  m.width = p.width;
  m.height = p.height;
  return m;
}

void BM_DivergenceMapCuda(benchmark::State& state, Precision precision, bool exact, int devices,
                          Schedule schedule, int resolution, const std::string& integrator) {
  const int present = cuda_device_count();
  if (present == 0 || devices > present) {
    state.SkipWithError("not enough CUDA devices");
    for (auto _ : state) {
    }
    return;
  }
  DivergenceMapParams canonical;
  canonical.width = canonical.height = resolution;  // the same window
  canonical.integrator = integrator;
  MapRunOptions o;
  o.backend = Backend::cuda;
  o.precision = precision;
  o.exact_gpu = exact;
  const cuda::MapSchedule policy = schedule.policy();
  for (int d = 0; d < devices; ++d) o.devices.push_back(d);
  // One untimed map of this size first (contexts and modules load; the timed maps reuse its
  // buffers, as every map after the first of a process does). (With another job on device 0 this is also what makes the
  // timed maps possible: growing a buffer frees device memory, which waits for every kernel on
  // the device, the other job's included.)
  map_with(canonical, o, policy);
  double seconds = 0, steps = 0, device_seconds = 0, launched = 0, emptied = 0, first_done = 0,
         last_done = 0;
  std::vector<std::int32_t> counts;
  double first_share = 0;
  for (auto _ : state) {
    void* busy = schedule.busy_blocks > 0 ? occupy_device(0, schedule.busy_blocks) : nullptr;
    const DivergenceMap m = map_with(canonical, o, policy);
    if (busy) release_device(busy);
    first_share += static_cast<double>(m.info.device_pixels.front()) /
                   static_cast<double>(m.counts.size());
    seconds += m.info.wall_seconds;
    device_seconds += m.info.device_seconds;
    launched += m.info.launched_seconds;
    emptied += m.info.pool_empty_seconds;
    first_done += *std::min_element(m.info.device_done_seconds.begin(),
                                    m.info.device_done_seconds.end());
    last_done += *std::max_element(m.info.device_done_seconds.begin(),
                                   m.info.device_done_seconds.end());
    steps += static_cast<double>(m.pixel_steps);
    counts = m.counts;
    state.SetIterationTime(m.info.wall_seconds);
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["seconds_per_map"] = seconds / n;
  state.counters["pixel_steps_per_map"] = steps / n;
  state.counters["device_seconds_per_map"] = device_seconds / n;
  state.counters["pixel_steps_per_s"] = steps / seconds;
  // Where the time goes: until the last kernel is launched (host set-up), from the pool's last
  // pixel to the last device done (the end game), between the first and last device done.
  state.counters["launched_s"] = launched / n;
  state.counters["pool_empty_to_done_s"] = (last_done - emptied) / n;
  state.counters["devices_done_spread_s"] = (last_done - first_done) / n;
  state.counters["done_to_return_s"] = (seconds - last_done) / n;
  state.counters["segment"] = schedule.segment;
  state.counters["live_per_thread"] = policy.live_per_thread;
  state.counters["device_share"] = schedule.share;
  state.counters["devices"] = devices;
  state.counters["device0_pixel_share"] = first_share / n;
  state.counters["busy_blocks_on_device0"] = schedule.busy_blocks;
  state.counters["catch_up"] = schedule.catch_up;
  static std::map<int, double> peak;
  if (!peak.count(0)) peak[0] = fp64_fma_per_second(0);
  state.counters["fp64_fma_peak_per_s_per_device"] = peak[0];
  if (resolution == 1000 && integrator == "euler") {
    const auto& ref = exact_fp64_counts();
    std::size_t same = 0, close = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      same += counts[i] == ref[i];
      close += std::abs(counts[i] - ref[i]) <= 0.01 * std::max(counts[i], ref[i]);
    }
    state.counters["identical_to_exact_fp64"] = static_cast<double>(same) / ref.size();
    state.counters["within_1pct_of_exact_fp64"] = static_cast<double>(close) / ref.size();
  }
  state.SetLabel(to_string(precision) + (exact ? " exact" : "") + " " + std::to_string(devices) +
                 " device(s), " + integrator);
}

// The persistent kernel against the published schedule (a warp runs until its last pixel is
// done), on the canonical map: device seconds of each, and the lane-steps each issues, counted
// from the counts (Σ over warps of 32 × the warp's longest count, against Σ counts).
void BM_PersistentAgainstWarpSchedule(benchmark::State& state, bool zoom) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    for (auto _ : state) {
    }
    return;
  }
  DivergenceMapParams canonical;
  if (zoom) {  // 16x into the chaotic band around (5.30031, -0.45), 1000 x 1000 pixels: there
               // neighbouring pixels diverge at very different steps
    canonical.x_range = {4.05031, 6.55031};
    canonical.y_range = {-1.7, 0.8};
  }
  const DivergenceSetup setup = make_divergence_setup(canonical);
  MapRunOptions o;
  o.backend = Backend::cuda;
  o.devices = {0};
  std::vector<std::int32_t> naive_counts;
  naive_map_seconds(setup, naive_counts);  // warm-up
  double naive = 0, persistent = 0;
  for (auto _ : state) {
    naive += naive_map_seconds(setup, naive_counts);
    persistent += compute_divergence_map(canonical, o).info.device_seconds;
    state.SetIterationTime(persistent);
  }
  const double n = static_cast<double>(state.iterations());
  double useful = 0, issued = 0;
  for (std::size_t w = 0; w < naive_counts.size(); w += 32) {
    std::int32_t longest = 0;
    for (std::size_t i = w; i < std::min(w + 32, naive_counts.size()); ++i) {
      useful += naive_counts[i];
      longest = std::max(longest, naive_counts[i]);
    }
    issued += 32.0 * longest;
  }
  state.counters["warp_schedule_seconds"] = naive / n;
  state.counters["persistent_seconds"] = persistent / n;
  state.counters["gain"] = naive / persistent;
  state.counters["warp_schedule_lane_utilisation"] = useful / issued;
  const auto counts = compute_divergence_map(canonical, o).counts;
  std::size_t same = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) same += naive_counts[i] == counts[i];
  state.counters["warp_schedule_identical"] = static_cast<double>(same) / counts.size();
  state.counters["pixel_steps"] = useful;
}

int register_all() {
  if (!cuda_built()) return 0;
  auto add = [](const std::string& name, Precision p, bool exact, int devices,
                Schedule schedule = {}, int resolution = 1000) {
    benchmark::RegisterBenchmark(("divergence_map_cuda/" + name).c_str(), BM_DivergenceMapCuda, p,
                                 exact, devices, schedule, resolution, std::string("euler"))
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(3);
  };
  add("fp64/1gpu", Precision::fp64, false, 1);
  add("fp64-exact/1gpu", Precision::fp64, true, 1);
  add("mixed/1gpu", Precision::mixed, false, 1);
  add("fp32/1gpu", Precision::fp32, false, 1);
  // The canonical map with each other integrator (fp64, one device).
  for (const std::string& name : map_integrator_names())
    if (name != "euler")
      benchmark::RegisterBenchmark(("divergence_map_cuda/integrator/" + name + "/1gpu").c_str(),
                                   BM_DivergenceMapCuda, Precision::fp64, false, 1, Schedule{},
                                   1000, std::string(name))
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(3);
  for (int d : {2, 4, 8}) add("fp64/" + std::to_string(d) + "gpu", Precision::fp64, false, d);
  // What each of four devices faces: the same window at a quarter of the pixels, on one.
  add("fp64-quarter/1gpu", Precision::fp64, false, 1, {}, 500);
  add("fp64-quarter/1gpu-share0.5", Precision::fp64, false, 1, {4096, 8, 0.5}, 500);
  add("fp64-quarter/1gpu-live2", Precision::fp64, false, 1, {4096, 2, 1}, 500);
  // Device 0 shared with another job (blocks of fp64 work on every multiprocessor): alone, and
  // with three free devices, balanced by measured speeds or not.
  add("fp64-busy/1gpu", Precision::fp64, false, 1, {4096, 0, 1, true, 132});
  add("fp64-busy/4gpu", Precision::fp64, false, 4, {4096, 0, 1, true, 132});
  add("fp64-busy/4gpu-unbalanced", Precision::fp64, false, 4, {4096, 0, 1, false, 132});
  // The schedule's parts: without parking (each thread runs its pixel to the end), and other
  // segments and live-set sizes.
  for (int d : {1, 4}) {
    const std::string gpus = "/" + std::to_string(d) + "gpu";
    add("fp64-schedule/no-parking" + gpus, Precision::fp64, false, d, {0, 1, 1});
    add("fp64-schedule/live1" + gpus, Precision::fp64, false, d, {4096, 1, 1});
    add("fp64-schedule/live2" + gpus, Precision::fp64, false, d, {4096, 2, 1});
    add("fp64-schedule/live4" + gpus, Precision::fp64, false, d, {4096, 4, 1});
    for (double share : {0.5, 0.75, 0.9, 0.95, 1.0})
      add(fmt::format("fp64-schedule/share{}{}", share, gpus), Precision::fp64, false, d,
          {4096, 8, share});
    add("fp64-schedule/segment1024" + gpus, Precision::fp64, false, d, {1024, 8, 0.5});
    add("fp64-schedule/segment16384" + gpus, Precision::fp64, false, d, {16384, 8, 0.5});
    add("fp64-schedule/no-catch-up" + gpus, Precision::fp64, false, d,
        {4096, 0, 1, true, 0, false});
  }
  add("fp64-quarter/1gpu-no-catch-up", Precision::fp64, false, 1, {4096, 0, 1, true, 0, false},
      500);
  for (bool zoom : {false, true})
    benchmark::RegisterBenchmark(zoom ? "divergence_map_cuda/persistent_vs_warp_schedule/zoom"
                                      : "divergence_map_cuda/persistent_vs_warp_schedule/canonical",
                                 BM_PersistentAgainstWarpSchedule, zoom)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(2);
  return 0;
}
const int registered = register_all();

}  // namespace
}  // namespace orrery::bench

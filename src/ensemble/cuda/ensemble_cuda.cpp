// SPDX-License-Identifier: MIT
#include "ensemble/cuda/ensemble_cuda.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "device/cuda/cuda_check.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "device/cuda/device_info.hpp"
#include "device/cuda/device_team.hpp"
#include "device/cuda/memory.hpp"
#include "ensemble/cuda/ensemble_kernel.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery::cuda {

namespace {

// A device's buffers, kept for the life of the process: allocating and pinning hundreds of
// megabytes costs more than a run of a million trajectories (GrowingArray only grows).
struct EnsembleBuffers {
  DeviceArray<double> rows;
  DeviceArray<unsigned char> final_state;
  DeviceArray<float> drift;
  PinnedArray<unsigned char> final_host;
  PinnedArray<float> drift_host;
  // With a tolerance: steps accepted and rejected, status (uint32, uint32, uint8 per trajectory).
  DeviceArray<unsigned char> tally;
  PinnedArray<unsigned char> tally_host;
  // With a section: each trajectory's crossings and its K slots of D + 1 doubles.
  DeviceArray<std::int64_t> section_count;
  DeviceArray<double> section_points;
  PinnedArray<std::int64_t> section_count_host;
  PinnedArray<double> section_points_host;
};

// Bytes of a trajectory's tally (steps accepted and rejected, status).
constexpr std::size_t kTallyBytes = 2 * sizeof(std::uint32_t) + sizeof(std::uint8_t);

EnsembleBuffers& buffers_of(int device) {
  static std::mutex lock;
  static std::map<int, std::unique_ptr<EnsembleBuffers>> all;
  const std::lock_guard<std::mutex> hold(lock);
  auto& b = all[device];
  if (!b) b = std::make_unique<EnsembleBuffers>();
  return *b;
}

// One device's share: its trajectories, its buffers, and the events around its kernel.
struct EnsembleShare : TeamMember {
  std::int64_t first = 0, n = 0;
  EnsembleBuffers* buffers = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr;
  ~EnsembleShare() {
    if (begin) cudaEventDestroy(begin);
    if (end) cudaEventDestroy(end);
  }
};

// The device's structure of arrays in the precision's Real as rows of doubles, on every core.
template <class R>
void gather_state(const EnsembleShare& s, int words, EnsembleOutcome& out) {
  const R* soa = reinterpret_cast<const R*>(s.buffers->final_host.get());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < s.n; ++i)
    for (int w = 0; w < words; ++w)
      out.final_state[static_cast<std::size_t>((s.first + i) * words + w)] =
          static_cast<double>(soa[w * s.n + i]);
}

// The device's steps accepted, rejected and status into the outcome's, on every core.
void gather_tally(const EnsembleShare& s, EnsembleOutcome& out) {
  const unsigned char* t = s.buffers->tally_host.get();
  const auto* accepted = reinterpret_cast<const std::uint32_t*>(t);
  const std::uint32_t* rejected = accepted + s.n;
  const unsigned char* status = t + 2 * s.n * sizeof(std::uint32_t);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < s.n; ++i) {
    const auto to = static_cast<std::size_t>(s.first + i);
    out.steps_accepted[to] = accepted[i];
    out.steps_rejected[to] = rejected[i];
    out.status[to] = status[i];
  }
}

// Writes one element of every page of [p, p + n) on every core.
template <class T>
void touch_pages(T* p, std::size_t n) {
  constexpr std::size_t kPage = 4096 / sizeof(T);
  const auto pages = static_cast<std::int64_t>((n + kPage - 1) / kPage);
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < pages; ++k) p[static_cast<std::size_t>(k) * kPage] = T(0);
}

}  // namespace

void run_ensemble(const EnsembleSetup& setup, const EnsembleRunOptions& options,
                  EnsembleOutcome& out) {
  const EnsembleProblemInfo& problem = ensemble_problems()[static_cast<std::size_t>(setup.problem)];
  const int words = problem.state_words, row_words = words + problem.parameters;
  const std::size_t real = setup.precision == Precision::fp32 ? sizeof(float) : sizeof(double);
  const auto start = std::chrono::steady_clock::now();

  // The first device works on its default stream, the others on the team's.
  DeviceTeam team(devices_or_all(options.devices, "the CUDA ensemble"), nullptr);
  auto shares = shares_of<EnsembleShare>(team);
  split_by_multiprocessors(shares, setup.trajectories);

  for (auto& s : shares) {
    if (s->n == 0) continue;
    const std::string where = fmt::format("the ensemble on device {}", s->device);
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device), where);
    s->buffers = &buffers_of(s->device);
    EnsembleBuffers& b = *s->buffers;
    ORRERY_CUDA_CHECK(cudaEventCreate(&s->begin), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&s->end), where);
    const auto n = static_cast<std::size_t>(s->n);
    EnsembleKernelArgs a;
    a.starts = setup.starts;
    if (setup.starts.rows) {
      a.starts.rows = b.rows.reserve(n * row_words);
      ORRERY_CUDA_CHECK(cudaMemcpyAsync(b.rows.get(), setup.starts.rows + s->first * row_words,
                                        n * row_words * sizeof(double), cudaMemcpyHostToDevice,
                                        s->stream),
                        where);
    }
    a.first = s->first;
    a.n = s->n;
    a.total = setup.trajectories;
    a.dt = setup.dt;
    a.steps = setup.steps;
    a.samples = setup.samples;
    a.final_state = b.final_state.reserve(n * words * real);
    if (!out.drift.empty()) a.drift = b.drift.reserve(n * setup.samples);
    a.tolerance = setup.tolerance;
    a.t_end = ensemble_end_time(setup);
    if (setup.tolerance > 0) {
      unsigned char* t = b.tally.reserve(n * kTallyBytes);
      a.steps_accepted = reinterpret_cast<std::uint32_t*>(t);
      a.steps_rejected = a.steps_accepted + n;
      a.status = t + 2 * n * sizeof(std::uint32_t);
    }
    const std::size_t slot_words = n * static_cast<std::size_t>(setup.section.capacity) *
                                   static_cast<std::size_t>(words + 1);
    if (setup.section.word >= 0) {
      a.section = setup.section;
      a.section_count = b.section_count.reserve(n);
      a.section_points = b.section_points.reserve(slot_words);
    }
    ORRERY_CUDA_CHECK(cudaEventRecord(s->begin, s->stream), where);
    launch_ensemble_kernel(setup, a, s->stream);
    ORRERY_CUDA_CHECK(cudaEventRecord(s->end, s->stream), where);
    ORRERY_CUDA_CHECK(cudaMemcpyAsync(b.final_host.reserve(n * words * real), a.final_state,
                                      n * words * real, cudaMemcpyDeviceToHost, s->stream),
                      where);
    if (a.drift)
      ORRERY_CUDA_CHECK(cudaMemcpyAsync(b.drift_host.reserve(n * setup.samples), a.drift,
                                        n * setup.samples * sizeof(float),
                                        cudaMemcpyDeviceToHost, s->stream),
                        where);
    if (a.status)
      ORRERY_CUDA_CHECK(cudaMemcpyAsync(b.tally_host.reserve(n * kTallyBytes), b.tally.get(),
                                        n * kTallyBytes, cudaMemcpyDeviceToHost, s->stream),
                        where);
    if (a.section_count) {
      ORRERY_CUDA_CHECK(cudaMemcpyAsync(b.section_count_host.reserve(n), a.section_count,
                                        n * sizeof(std::int64_t), cudaMemcpyDeviceToHost,
                                        s->stream),
                        where);
      ORRERY_CUDA_CHECK(cudaMemcpyAsync(b.section_points_host.reserve(slot_words),
                                        a.section_points, slot_words * sizeof(double),
                                        cudaMemcpyDeviceToHost, s->stream),
                        where);
    }
  }

  // While the devices compute: the results' pages faulted in on every core, so that gathering
  // them after the kernels is a copy (the outcome's arrays are not zero-filled).
  touch_pages(out.final_state.data(), out.final_state.size());
  touch_pages(out.drift.data(), out.drift.size());
  touch_pages(out.steps_accepted.data(), out.steps_accepted.size());
  touch_pages(out.steps_rejected.data(), out.steps_rejected.size());
  touch_pages(out.status.data(), out.status.size());

  double kernel_seconds = 0;
  for (auto& s : shares) {
    if (s->n == 0) continue;
    const std::string where = fmt::format("the ensemble on device {}", s->device);
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device), where);
    ORRERY_CUDA_CHECK(cudaStreamSynchronize(s->stream), where);
    float ms = 0;
    ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, s->begin, s->end), where);
    kernel_seconds = std::max(kernel_seconds, ms / 1e3);
    if (setup.precision == Precision::fp32)
      gather_state<float>(*s, words, out);
    else
      gather_state<double>(*s, words, out);
    if (setup.tolerance > 0) gather_tally(*s, out);
    if (setup.section.word >= 0) {
      const auto n = static_cast<std::size_t>(s->n);
      const std::size_t row = static_cast<std::size_t>(setup.section.capacity) *
                              static_cast<std::size_t>(words + 1);
      std::copy_n(s->buffers->section_count_host.get(), n,
                  out.section_count.begin() + s->first);
      std::copy_n(s->buffers->section_points_host.get(), n * row,
                  out.section_points.begin() + static_cast<std::ptrdiff_t>(s->first * row));
    }
    for (int k = 0; k < setup.samples && !out.drift.empty(); ++k)
      std::copy_n(s->buffers->drift_host.get() + static_cast<std::size_t>(k) * s->n, s->n,
                  out.drift.begin() + static_cast<std::ptrdiff_t>(k * setup.trajectories + s->first));
  }

  out.info.seconds = seconds_since(start);
  out.info.kernel_seconds = kernel_seconds;
  out.info.backend = to_string(Backend::cuda);
  out.info.kernel = device_name(team[0].device);
  out.info.threads = static_cast<int>(team.size());
  if (options.progress) {
    EnsembleProgress p;
    p.trajectories_done = p.trajectories_total = setup.trajectories;
    p.seconds = out.info.seconds;
    options.progress(p);
  }
}

}  // namespace orrery::cuda

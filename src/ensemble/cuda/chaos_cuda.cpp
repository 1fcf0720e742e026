// SPDX-License-Identifier: MIT
#include "ensemble/cuda/chaos_cuda.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include <fmt/format.h>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "device/cuda/device_team.hpp"
#include "device/cuda/memory.hpp"
#include "ensemble/cuda/chaos_kernel.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery::cuda {

namespace {

// One device's share: its trajectories, its memory, and the events around its kernel.
struct ChaosShare : TeamMember {
  std::int64_t first = 0, n = 0;
  DeviceArray<double> rows, values, final_state;
  PinnedArray<double> values_host, final_host;
  cudaEvent_t begin = nullptr, end = nullptr;
  ~ChaosShare() {
    if (begin) cudaEventDestroy(begin);
    if (end) cudaEventDestroy(end);
  }
};

}  // namespace

void run_chaos(const ChaosSetup& setup, const EnsembleRunOptions& options, ChaosOutcome& out) {
  const EnsembleSetup& e = setup.ensemble;
  const EnsembleProblemInfo& problem = ensemble_problems()[static_cast<std::size_t>(e.problem)];
  const int words = problem.state_words, row_words = words + problem.parameters;
  const int values_per_trajectory = out.outputs * out.samples;
  const auto start = std::chrono::steady_clock::now();

  DeviceTeam team(devices_or_all(options.devices, "the CUDA chaos indicators"), nullptr);
  auto shares = shares_of<ChaosShare>(team);
  split_by_multiprocessors(shares, e.trajectories);

  for (auto& s : shares) {
    if (s->n == 0) continue;
    const std::string where = fmt::format("the chaos indicators on device {}", s->device);
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&s->begin), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&s->end), where);
    const auto n = static_cast<std::size_t>(s->n);
    ChaosKernelArgs a;
    a.starts = e.starts;
    if (e.starts.rows) {
      a.starts.rows = s->rows.reserve(n * row_words);
      ORRERY_CUDA_CHECK(cudaMemcpyAsync(s->rows.get(), e.starts.rows + s->first * row_words,
                                        n * row_words * sizeof(double), cudaMemcpyHostToDevice,
                                        s->stream),
                        where);
    }
    a.first = s->first;
    a.n = s->n;
    a.total = e.trajectories;
    a.dt = e.dt;
    a.steps = e.steps;
    a.every = setup.every;
    a.samples = setup.samples;
    a.options = chaos_indicator_options(setup);
    a.values = s->values.reserve(n * values_per_trajectory);
    a.final_state = s->final_state.reserve(n * words);
    ORRERY_CUDA_CHECK(cudaEventRecord(s->begin, s->stream), where);
    launch_chaos_kernel(setup, a, s->stream);
    ORRERY_CUDA_CHECK(cudaEventRecord(s->end, s->stream), where);
    ORRERY_CUDA_CHECK(cudaMemcpyAsync(s->values_host.reserve(n * values_per_trajectory),
                                      a.values, n * values_per_trajectory * sizeof(double),
                                      cudaMemcpyDeviceToHost, s->stream),
                      where);
    ORRERY_CUDA_CHECK(cudaMemcpyAsync(s->final_host.reserve(n * words), a.final_state,
                                      n * words * sizeof(double), cudaMemcpyDeviceToHost,
                                      s->stream),
                      where);
  }

  double kernel_seconds = 0;
  const std::int64_t total = e.trajectories;
  for (auto& s : shares) {
    if (s->n == 0) continue;
    const std::string where = fmt::format("the chaos indicators on device {}", s->device);
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device), where);
    ORRERY_CUDA_CHECK(cudaStreamSynchronize(s->stream), where);
    float ms = 0;
    ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, s->begin, s->end), where);
    kernel_seconds = std::max(kernel_seconds, ms / 1e3);
    // The share's rows of values (sample, output) into the outcome's, which span every
    // trajectory; its final states from structure of arrays to rows.
    for (int r = 0; r < values_per_trajectory; ++r)
      std::copy_n(s->values_host.get() + static_cast<std::size_t>(r) * s->n, s->n,
                  out.values.begin() + static_cast<std::ptrdiff_t>(r * total + s->first));
    const double* soa = s->final_host.get();
    for (std::int64_t i = 0; i < s->n; ++i)
      for (int w = 0; w < words; ++w)
        out.ensemble.final_state[static_cast<std::size_t>((s->first + i) * words + w)] =
            soa[w * s->n + i];
  }

  out.info.seconds = seconds_since(start);
  out.info.kernel_seconds = kernel_seconds;
  out.info.backend = to_string(Backend::cuda);
  out.info.kernel = device_name(team[0].device) + (setup.exact_gpu ? " (exact)" : "");
  out.info.threads = static_cast<int>(team.size());
  if (options.progress) {
    EnsembleProgress p;
    p.trajectories_done = p.trajectories_total = e.trajectories;
    p.seconds = out.info.seconds;
    options.progress(p);
  }
}

}  // namespace orrery::cuda

// SPDX-License-Identifier: MIT
// The kernel of the map by perturbation, one instantiation per map integrator, and its launch
// (perturbed_map_cuda.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "device/cuda/memory.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/seconds_since.hpp"
#include "ensemble/cuda/perturbed_map_cuda.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/perturbed_twin.hpp"

namespace orrery::cuda {

namespace {

struct PerturbedJob {
  const double* records;
  std::int64_t first_step_record;  // evals_at_start: the first step's first record
  std::int64_t records_per_step;   // evals_per_step
  std::int64_t steps;              // min(frame, reference)
  const PixelIndex* pixels;        // null: the whole grid, row-major
  std::int64_t tasks;
  std::int32_t* counts;
  std::uint8_t* nonfinite;
};

template <int I>
__global__ void perturbed_kernel(DivergenceSetup s, PerturbedJob job) {
  using Problem = PerturbedTwin<map_integrator_t<I>, double>;
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= job.tasks) return;
  std::int64_t j = 0, k = 0;
  if (job.pixels) {
    j = job.pixels[t][0], k = job.pixels[t][1];
  } else {
    j = t % s.width, k = t / s.width;
  }
  const PerturbedStart p = perturbed_start(s, j, k);
  typename Problem::State st;
  for (int n = 0; n < kMapBodies; ++n) {
    st.pixel.x[n] = st.twin.x[n] = st.pixel.v[n] = st.twin.v[n] = Vec3d{0.0, 0.0, 0.0};
  }
  // The varied body's differences, without a run-time index into the state's arrays.
  ORRERY_UNROLL
  for (int n = 0; n < kMapBodies; ++n)
    if (n == s.body) st.pixel.x[n] = p.pixel, st.twin.x[n] = p.twin;
  const typename Problem::Gm g = Problem::gravity(s);
  Problem::begin(st, g, ReferenceCursor{job.records});
  ReferenceCursor at{job.records + job.first_step_record * kReferenceRecordWords};
  const double dt = s.dt, dc2 = s.critical_distance2;
  std::int64_t n = 0;
  double d2 = 0;
  for (; n < job.steps; ++n) {
    d2 = s.body == 0   ? Problem::template separation2<0>(st)
         : s.body == 1 ? Problem::template separation2<1>(st)
                       : Problem::template separation2<2>(st);
    if (!(d2 <= dc2)) break;
    Problem::advance(st, g, at, dt, n < Problem::starter_steps);
  }
  job.counts[t] = static_cast<std::int32_t>(n);
  job.nonfinite[t] = n < job.steps && !isfinite(d2) ? 1 : 0;
}

using Kernel = void (*)(DivergenceSetup, PerturbedJob);
template <int... I>
constexpr std::array<Kernel, sizeof...(I)> kernels(std::integer_sequence<int, I...>) {
  return {&perturbed_kernel<I>...};
}
constexpr auto kKernels = kernels(std::make_integer_sequence<int, kMapIntegratorCount>{});

constexpr int kThreadsPerBlock = 128;

}  // namespace

DivergenceCounts run_perturbed_map(const DivergenceSetup& setup, const ReferenceOrbit& reference,
                                   std::span<const PixelIndex> pixels,
                                   const MapRunOptions& options) {
  const int device = options.devices.empty() ? 0 : options.devices.front();
  const std::string where = "device " + std::to_string(device);
  ORRERY_CUDA_CHECK(cudaSetDevice(device), where);
  const std::int64_t tasks = pixels.empty()
                                 ? static_cast<std::int64_t>(setup.width) * setup.height
                                 : static_cast<std::int64_t>(pixels.size());
  DivergenceCounts out;
  out.counts.assign(static_cast<std::size_t>(tasks), 0);
  out.nonfinite.assign(static_cast<std::size_t>(tasks), 0);
  if (tasks == 0) return out;

  DeviceArray<double> records;
  DeviceArray<PixelIndex> listed;
  DeviceArray<std::int32_t> counts;
  DeviceArray<std::uint8_t> nonfinite;
  const std::size_t words = std::max<std::size_t>(reference.records.size(), 1);
  ORRERY_CUDA_CHECK(cudaMemcpy(records.reserve(words), reference.records.data(),
                               reference.records.size() * sizeof(double), cudaMemcpyHostToDevice),
                    where);
  PerturbedJob job{records.get(),
                   reference.evals_at_start,
                   reference.evals_per_step,
                   std::min(setup.steps, reference.steps),
                   nullptr,
                   tasks,
                   counts.reserve(static_cast<std::size_t>(tasks)),
                   nonfinite.reserve(static_cast<std::size_t>(tasks))};
  if (!pixels.empty()) {
    ORRERY_CUDA_CHECK(cudaMemcpy(listed.reserve(pixels.size()), pixels.data(),
                                 pixels.size() * sizeof(PixelIndex), cudaMemcpyHostToDevice),
                      where);
    job.pixels = listed.get();
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto blocks = static_cast<unsigned>((tasks + kThreadsPerBlock - 1) / kThreadsPerBlock);
  kKernels.at(static_cast<std::size_t>(setup.integrator))<<<blocks, kThreadsPerBlock>>>(setup,
                                                                                        job);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the perturbed divergence kernel");
  ORRERY_CUDA_CHECK(cudaDeviceSynchronize(), "the perturbed divergence kernel");
  out.info.device_seconds = seconds_since(t0);
  ORRERY_CUDA_CHECK(cudaMemcpy(out.counts.data(), job.counts, tasks * sizeof(std::int32_t),
                               cudaMemcpyDeviceToHost),
                    where);
  ORRERY_CUDA_CHECK(cudaMemcpy(out.nonfinite.data(), job.nonfinite, tasks * sizeof(std::uint8_t),
                               cudaMemcpyDeviceToHost),
                    where);
  for (std::size_t i = 0; i < out.counts.size(); ++i) {
    out.pixel_steps += out.counts[i];
    out.nonfinite_pixels += out.nonfinite[i];
  }
  if (options.progress)
    options.progress(MapProgress{tasks, tasks, out.pixel_steps, out.info.device_seconds});
  out.info.backend = to_string(Backend::cuda);
  out.info.kernel = device_name(device);
  out.info.threads = 1;
  return out;
}

}  // namespace orrery::cuda

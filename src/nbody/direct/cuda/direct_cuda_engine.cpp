// SPDX-License-Identifier: MIT
#include "nbody/direct/cuda/direct_cuda_engine.hpp"

#include <algorithm>
#include <chrono>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "nbody/direct/cuda/direct_cuda_launch.hpp"
#include "nbody/cuda_bodies.hpp"
#include "nbody/engine_factories.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/nbody/half_softening.hpp"
#include "orrery/nbody/potential_sum.hpp"

namespace orrery::cuda {

template <class Real>
DirectCudaEngine<Real>::DirectCudaEngine(const EngineOptions& options)
    : options_(options),
      devices_(devices_or_all(options.devices, "the CUDA direct engine")),
      device_(std::make_unique<CudaArrayDevice<Real>>(devices_.front())),
      team_(devices_, device_->stream()),
      shares_(shares_of<Share>(team_)) {}

template <class Real>
std::string DirectCudaEngine<Real>::backend() const {
  return fmt::format("{}:{}", to_string(Backend::cuda), fmt::join(devices_, ","));
}

template <class Real>
void DirectCudaEngine<Real>::set_bodies(std::span<const Real> mass, std::span<const Real> softening) {
  // A global ε is a kernel argument; per-body ones travel as ε_i²/2.
  const std::vector<Real> half = half_softening_squared(softening, mass.size(), 0.0, "direct");
  n_ = mass.size();
  mass_host_.assign(mass.begin(), mass.end());
  own_softening_ = !softening.empty();
  // Targets in shares of whole tiles, in proportion to the devices' multiprocessors.
  std::size_t total_sms = 0;
  for (auto& s : shares_) total_sms += static_cast<std::size_t>(s->sms);
  const std::size_t tiles = (n_ + kDirectTile - 1) / kDirectTile;
  std::size_t sms_before = 0;
  upload_bodies(shares_, std::span<const Real>(mass_host_),
                own_softening_ ? std::span<const Real>(half) : std::span<const Real>(), "direct",
                [&](Share& s) {
                  s.begin = std::min(n_, tiles * sms_before / total_sms * kDirectTile);
                  sms_before += static_cast<std::size_t>(s.sms);
                  s.end = std::min(n_, tiles * sms_before / total_sms * kDirectTile);
                  s.x.reserve(3 * n_);
                  const std::size_t m = s.end - s.begin;
                  s.results.reserve(4 * m);
                  const int slices = direct_slices(m, n_, s.sms, targets_per_thread());
                  s.partial.reserve(slices > 1 ? 4 * m * static_cast<std::size_t>(slices) : 1);
                });
}

template <class Real>
void DirectCudaEngine<Real>::evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi,
                                      std::size_t lo, std::size_t hi) {
  if (x.size() < 3 * n_)
    throw InputError(fmt::format("direct engine: positions hold {} values for {} bodies (3N expected)",
                                 x.size(), n_));
  const auto t0 = std::chrono::steady_clock::now();
  const int first = devices_.front();
  for (std::size_t k = 0; k < shares_.size(); ++k) {
    Share& s = *shares_[k];
    const std::size_t begin = std::max(s.begin, lo), end = std::min(s.end, hi);
    if (end <= begin) continue;
    ORRERY_CUDA_CHECK(cudaSetDevice(s.device), "selecting a device for the direct engine");
    const Real* xs = x.data();
    if (k > 0) {
      ORRERY_CUDA_CHECK(cudaMemcpyPeerAsync(s.x.get(), s.device, x.data(), first,
                                            3 * n_ * sizeof(Real), s.stream),
                        "copying positions between devices");
      xs = s.x.get();
    }
    // The source slices of the share's whole evaluation: a target's sum is split, and so
    // rounded, as there, however few of its targets are asked for.
    const int slices = direct_slices(s.end - s.begin, n_, s.sms, targets_per_thread());
    const std::size_t m = end - begin;
    DirectPass<Real> p{};
    p.x = xs, p.y = xs + n_, p.z = xs + 2 * n_;
    p.mass = s.mass.get();
    p.half_eps2 = own_softening_ ? s.half_eps2.get() : nullptr;
    p.global_eps2 = static_cast<Real>(options_.softening * options_.softening);
    p.g = static_cast<Real>(options_.g);
    p.n = n_, p.begin = begin, p.end = end;
    Real* r = k == 0 ? nullptr : s.results.get();
    if (k == 0) {  // straight into the caller's arrays
      p.ax = a + begin, p.ay = a + n_ + begin, p.az = a + 2 * n_ + begin;
      p.phi = phi ? phi + begin : nullptr;
    } else {
      p.ax = r, p.ay = r + m, p.az = r + 2 * m, p.phi = phi ? r + 3 * m : nullptr;
    }
    p.targets_per_thread = targets_per_thread();
    p.slices = slices;
    p.partial = s.partial.get();
    launch_direct_pass(p, s.stream);
    if (k > 0)
      for (int c = 0; c < (phi ? 4 : 3); ++c) {
        Real* dst = c < 3 ? a + c * n_ + begin : phi + begin;
        ORRERY_CUDA_CHECK(cudaMemcpyPeerAsync(dst, first, r + c * m, s.device, m * sizeof(Real),
                                              s.stream),
                          "copying results between devices");
      }
  }
  for (auto& s : shares_) {
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device), "selecting a device for the direct engine");
    ORRERY_CUDA_CHECK(cudaStreamSynchronize(s->stream), "the direct gravity pass");
  }
  ORRERY_CUDA_CHECK(cudaSetDevice(first), "selecting the engine's first device");
  timings_ = {0.0, 0.0, seconds_since(t0)};
}

template <class Real>
void DirectCudaEngine<Real>::accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) {
  evaluate(x, a.data(), nullptr);
}

template <class Real>
void DirectCudaEngine<Real>::accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                              std::span<const std::uint32_t> targets) {
  const bool run = !targets.empty() && targets.front() % kDirectTile == 0 &&
                   targets.back() - targets.front() + 1 == targets.size();
  if (!run) {
    ForceEngine<Real>::accelerations_of(x, a, targets);
    return;
  }
  evaluate(x, a.data(), nullptr, targets.front(), std::size_t{targets.back()} + 1);
}

template <class Real>
void DirectCudaEngine<Real>::accelerations_and_potentials(const DeviceBuffer<Real>& x,
                                                          DeviceBuffer<Real>& a,
                                                          DeviceBuffer<Real>& phi) {
  evaluate(x, a.data(), phi.data());
}

template <class Real>
double DirectCudaEngine<Real>::potential_energy(const DeviceBuffer<Real>& x) {
  return potential_energy_from_engine<Real>(*this, x, scratch_a_, scratch_phi_, mass_host_);
}

template class DirectCudaEngine<float>;
template class DirectCudaEngine<double>;

template <class Real>
std::unique_ptr<ForceEngine<Real>> make_direct_engine(const EngineOptions& options) {
  return std::make_unique<DirectCudaEngine<Real>>(options);
}
template std::unique_ptr<ForceEngine<float>> make_direct_engine<float>(const EngineOptions&);
template std::unique_ptr<ForceEngine<double>> make_direct_engine<double>(const EngineOptions&);

}  // namespace orrery::cuda

// SPDX-License-Identifier: MIT
#include "nbody/tree/cuda/tree_cuda_engine.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "nbody/cuda_bodies.hpp"
#include "nbody/engine_factories.hpp"
#include "nbody/tree/cuda/tree_walk_launch.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/nbody/half_softening.hpp"
#include "orrery/nbody/potential_sum.hpp"

namespace orrery::cuda {

namespace {

// Bodies per leaf and targets per warp, measured with bench/cuda_tree_bench.cpp
// (docs/internals/gravity-tree-cuda.md, "Speed").
constexpr int kLeafSize = 16;
constexpr int kGroupSize = kWarpGroupLarge;
// Walking groups stay inside nodes of at most this many bodies (walk_groups.cu).
constexpr int kSuperNode = 1024;

// The group size asked (0: the default), refused unless a warp can walk it.
int checked_group_size(int asked) {
  const int group = asked > 0 ? asked : kGroupSize;
  if (group != kWarpGroupSmall && group != kWarpGroupLarge)
    throw ParameterError("group-size", fmt::format("{}", group),
                         fmt::format("{} or {} on CUDA (a warp of one or two targets per lane; 0: "
                                     "the default, {})",
                                     kWarpGroupSmall, kWarpGroupLarge, kGroupSize));
  return group;
}

}  // namespace

template <class Real>
TreeCudaEngine<Real>::TreeCudaEngine(const EngineOptions& options)
    : options_(options),
      leaf_size_(options.leaf_size > 0 ? options.leaf_size : kLeafSize),
      group_size_(checked_group_size(options.group_size)),
      devices_(devices_or_all(options.devices, "the CUDA tree engine")),
      device_(std::make_unique<CudaArrayDevice<Real>>(devices_.front())),
      team_(devices_, device_->stream()),
      shares_(shares_of<Share>(team_)) {}

template <class Real>
std::string TreeCudaEngine<Real>::backend() const {
  return fmt::format("{}:{}", to_string(Backend::cuda), fmt::join(devices_, ","));
}

template <class Real>
std::string TreeCudaEngine<Real>::potential_energy_method() const {
  return tree_potential_method(options_);
}

template <class Real>
void TreeCudaEngine<Real>::set_bodies(std::span<const Real> mass, std::span<const Real> softening) {
  // A global ε is a kernel argument; per-body ones travel as ε_i²/2.
  const std::vector<Real> half = half_softening_squared(softening, mass.size(), 0.0, "tree");
  n_ = mass.size();
  mass_host_.assign(mass.begin(), mass.end());
  own_softening_ = !softening.empty();
  upload_bodies(shares_, std::span<const Real>(mass_host_),
                own_softening_ ? std::span<const Real>(half) : std::span<const Real>(), "tree",
                [&](Share& s) {
                  if (&s != shares_.front().get()) s.x.reserve(3 * n_);
                });
}

// Share k's part of an evaluation, on its own host thread when there are several: its copy of
// the positions, its tree, the walk of every D-th group from the k-th and, for k > 0, its
// results (zero for the other devices' bodies) sent to the first device.
template <class Real>
void TreeCudaEngine<Real>::build_and_walk(std::size_t k, const Real* x, Real* a, Real* phi) {
  Share& s = *shares_[k];
  ORRERY_CUDA_CHECK(cudaSetDevice(s.device), "selecting a device for the tree engine");
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t results = (phi ? 4 : 3) * n_;
  if (k > 0) {  // x is whole: CudaArrayDevice waits for each of its operations to finish
    ORRERY_CUDA_CHECK(cudaMemcpyPeerAsync(s.x.get(), s.device, x, devices_.front(),
                                          3 * n_ * sizeof(Real), s.stream),
                      "copying positions between devices");
    x = s.x.get();
    a = s.results.get(), phi = phi ? a + 3 * n_ : nullptr;
  }
  if (shares_.size() > 1) {
    ORRERY_CUDA_CHECK(cudaMemsetAsync(a, 0, 3 * n_ * sizeof(Real), s.stream),
                      "clearing a device's results");
    if (phi)
      ORRERY_CUDA_CHECK(cudaMemsetAsync(phi, 0, n_ * sizeof(Real), s.stream),
                        "clearing a device's results");
  }
  const Real eps = static_cast<Real>(options_.softening);
  const Real global_half_eps2 = eps * eps * Real(0.5);
  s.tree.build(x, x + n_, x + 2 * n_, s.mass.get(), own_softening_ ? s.half_eps2.get() : nullptr,
               global_half_eps2, n_, leaf_size_, s.stream);
  s.tree.make_groups(group_size_, kSuperNode, s.stream);  // waits for the build
  s.build_seconds = seconds_since(t0);

  TreePass<Real> p{};
  p.tree = s.tree.view();
  const Real theta = static_cast<Real>(options_.theta);
  p.theta2 = theta * theta;
  p.global_half_eps2 = global_half_eps2;
  p.quadrupole = options_.multipole == Multipole::quadrupole;
  p.group = group_size_;
  p.g = static_cast<Real>(options_.g);
  const auto d = static_cast<std::uint32_t>(shares_.size());
  p.first_group = static_cast<std::uint32_t>(k), p.group_stride = d;
  p.groups = p.tree.group_count > k ? (p.tree.group_count - p.first_group + d - 1) / d : 0;
  p.ax = a, p.ay = a + n_, p.az = a + 2 * n_, p.phi = phi;
  p.overflow = s.overflow.reserve(1);
  *p.overflow = 0;
  launch_tree_walk(p, s.stream);
  if (k > 0)
    ORRERY_CUDA_CHECK(cudaMemcpyPeerAsync(s.landed.get(), devices_.front(), a, s.device,
                                          results * sizeof(Real), s.stream),
                      "copying results between devices");
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(s.stream), "the tree walk");
  if (*p.overflow != 0)
    throw RunError(fmt::format("the CUDA tree walk ran out of its {} stack entries per group "
                               "(θ = {}, {} bodies): a tree deeper than it allows for",
                               kWalkStack, options_.theta, n_));
}

template <class Real>
void TreeCudaEngine<Real>::evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi) {
  if (x.size() < 3 * n_)
    throw InputError(fmt::format("tree engine: positions hold {} values for {} bodies (3N expected)",
                                 x.size(), n_));
  const auto t0 = std::chrono::steady_clock::now();
  const int first = devices_.front();
  for (std::size_t k = 1; k < shares_.size(); ++k) {  // each device's results, and their copy
    ORRERY_CUDA_CHECK(cudaSetDevice(shares_[k]->device), "selecting a device for the tree engine");
    shares_[k]->results.reserve(4 * n_);
    ORRERY_CUDA_CHECK(cudaSetDevice(first), "selecting the engine's first device");
    shares_[k]->landed.reserve(4 * n_);
  }
  if (shares_.size() == 1) {
    build_and_walk(0, x.data(), a, phi);
  } else {
    // A thread per device: each build waits for the host once per tree level.
    std::vector<std::future<void>> parts;
    for (std::size_t k = 0; k < shares_.size(); ++k)
      parts.push_back(std::async(std::launch::async,
                                 [this, k, &x, a, phi] { build_and_walk(k, x.data(), a, phi); }));
    for (auto& f : parts) f.get();  // rethrows a share's error
    ORRERY_CUDA_CHECK(cudaSetDevice(first), "selecting the engine's first device");
    const cudaStream_t stream = shares_.front()->stream;
    for (std::size_t k = 1; k < shares_.size(); ++k) {
      const Real* r = shares_[k]->landed.get();
      launch_tree_add(r, a, 3 * n_, stream);
      if (phi) launch_tree_add(r + 3 * n_, phi, n_, stream);
    }
    ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream), "adding the devices' tree results");
  }
  ORRERY_CUDA_CHECK(cudaSetDevice(first), "selecting the engine's first device");
  double build = 0;
  for (const auto& s : shares_) build = std::max(build, s->build_seconds);
  timings_.upload = 0;
  timings_.build = build;
  timings_.force = seconds_since(t0) - build;
}

template <class Real>
void TreeCudaEngine<Real>::accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) {
  evaluate(x, a.data(), nullptr);
}

template <class Real>
void TreeCudaEngine<Real>::accelerations_and_potentials(const DeviceBuffer<Real>& x,
                                                        DeviceBuffer<Real>& a,
                                                        DeviceBuffer<Real>& phi) {
  evaluate(x, a.data(), phi.data());
}

template <class Real>
double TreeCudaEngine<Real>::potential_energy(const DeviceBuffer<Real>& x) {
  return potential_energy_from_engine<Real>(*this, x, scratch_a_, scratch_phi_, mass_host_);
}

template class TreeCudaEngine<float>;
template class TreeCudaEngine<double>;

template <class Real>
std::unique_ptr<ForceEngine<Real>> make_tree_engine(const EngineOptions& options) {
  return std::make_unique<TreeCudaEngine<Real>>(options);
}
template std::unique_ptr<ForceEngine<float>> make_tree_engine<float>(const EngineOptions&);
template std::unique_ptr<ForceEngine<double>> make_tree_engine<double>(const EngineOptions&);

}  // namespace orrery::cuda

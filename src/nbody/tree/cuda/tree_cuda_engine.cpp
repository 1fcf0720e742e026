// SPDX-License-Identifier: MIT
#include "nbody/tree/cuda/tree_cuda_engine.hpp"

#include <chrono>

#include <fmt/format.h>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "nbody/engine_factories.hpp"
#include "nbody/tree/cuda/tree_walk_launch.hpp"
#include "orrery/core/error.hpp"
#include "orrery/nbody/half_softening.hpp"
#include "orrery/nbody/potential_sum.hpp"

namespace orrery::cuda {

namespace {

// Bodies per leaf and targets per warp, measured with bench/cuda_tree_bench.cpp
// (docs/gravity-cuda.md, "The tree on the GPU").
constexpr int kLeafSize = 16;
constexpr int kGroupSize = kWarpGroupLarge;
// Walking groups stay inside nodes of at most this many bodies (walk_groups.cu).
constexpr int kSuperNode = 512;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

template <class Real>
TreeCudaEngine<Real>::TreeCudaEngine(const EngineOptions& options)
    : options_(options),
      leaf_size_(options.leaf_size > 0 ? options.leaf_size : kLeafSize),
      group_size_(options.group_size > 0 ? options.group_size : kGroupSize) {
  if (group_size_ != kWarpGroupSmall && group_size_ != kWarpGroupLarge)
    throw ParameterError("group-size", fmt::format("{}", group_size_),
                         fmt::format("{} or {} on CUDA (a warp of one or two targets per lane; 0: "
                                     "the default, {})",
                                     kWarpGroupSmall, kWarpGroupLarge, kGroupSize));
  if (options.devices.size() > 1)
    throw ParameterError("devices", fmt::format("{} devices", options.devices.size()),
                         "one device for the tree engine on CUDA in this version");
  const int device = options.devices.empty() ? 0 : options.devices.front();
  if (device_count() == 0) throw RunError("the CUDA tree engine found no CUDA device");
  device_ = std::make_unique<CudaArrayDevice<Real>>(device);
}

template <class Real>
std::string TreeCudaEngine<Real>::backend() const {
  return device_->name();
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
  ORRERY_CUDA_CHECK(cudaSetDevice(device_->device()), "selecting the tree engine's device");
  auto upload = [&](DeviceArray<Real>& dst, const Real* src) {
    ORRERY_CUDA_CHECK(cudaMemcpy(dst.reserve(n_), src, n_ * sizeof(Real), cudaMemcpyHostToDevice),
                      "copying the bodies to the device");
  };
  upload(mass_, mass_host_.data());
  if (own_softening_) upload(half_eps2_, half.data());
}

template <class Real>
void TreeCudaEngine<Real>::evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi) {
  if (x.size() < 3 * n_)
    throw InputError(fmt::format("tree engine: positions hold {} values for {} bodies (3N expected)",
                                 x.size(), n_));
  ORRERY_CUDA_CHECK(cudaSetDevice(device_->device()), "selecting the tree engine's device");
  const cudaStream_t stream = device_->stream();
  const auto t0 = std::chrono::steady_clock::now();
  const Real eps = static_cast<Real>(options_.softening);
  const Real global_half_eps2 = eps * eps * Real(0.5);
  const Real* px = x.data();
  tree_.build(px, px + n_, px + 2 * n_, mass_.get(), own_softening_ ? half_eps2_.get() : nullptr,
              global_half_eps2, n_, leaf_size_, stream);
  tree_.make_groups(group_size_, kSuperNode, stream);
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream), "building the tree");
  timings_.upload = 0;
  timings_.build = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  TreePass<Real> p{};
  p.tree = tree_.view();
  const Real theta = static_cast<Real>(options_.theta);
  p.theta2 = theta * theta;
  p.global_half_eps2 = global_half_eps2;
  p.quadrupole = options_.multipole == Multipole::quadrupole;
  p.group = group_size_;
  p.g = static_cast<Real>(options_.g);
  p.ax = a, p.ay = a + n_, p.az = a + 2 * n_, p.phi = phi;
  p.overflow = overflow_.reserve(1);
  *p.overflow = 0;
  launch_tree_walk(p, stream);
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream), "the tree walk");
  if (*p.overflow != 0)
    throw RunError(fmt::format("the CUDA tree walk ran out of its {} stack entries per group "
                               "(θ = {}, {} bodies): a tree deeper than it allows for",
                               kWalkStack, options_.theta, n_));
  timings_.force = seconds_since(t1);
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

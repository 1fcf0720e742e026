// SPDX-License-Identifier: MIT
// The Barnes–Hut tree engine on CUDA: every evaluation builds the octree on the GPU
// (cuda_octree.hpp) from the positions where they already are and walks it one warp per group
// (tree_walk.cu). The simulation's arrays live on the first of `devices` (CudaArrayDevice), so a
// run's particles stay on the GPU between steps. With several devices each builds the same tree
// from a copy of the positions (the build is deterministic: the same tree, bit for bit) and walks
// every D-th group; each device's results, zero for the bodies of the others, are added into the
// first's. The walk of a group is the same on every device and the sums add exact zeros, so the
// forces are the one device's, bit for bit.
#pragma once

#include <memory>
#include <vector>

#include "device/cuda/cuda_array_device.hpp"
#include "device/cuda/device_team.hpp"
#include "device/cuda/memory.hpp"
#include "nbody/tree/cuda/cuda_octree.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery::cuda {

template <class Real>
class TreeCudaEngine final : public ForceEngine<Real> {
 public:
  explicit TreeCudaEngine(const EngineOptions& options);

  std::string name() const override { return "tree"; }

  double gravitational_constant() const override { return options_.g; }
  std::string backend() const override;
  ArrayDevice<Real>& device() override { return *device_; }
  void set_bodies(std::span<const Real> mass, std::span<const Real> softening) override;
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override;
  void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                    DeviceBuffer<Real>& phi) override;
  double potential_energy(const DeviceBuffer<Real>& x) override;
  std::string potential_energy_method() const override;
  EngineTimings last_timings() const override { return timings_; }

 private:
  // One device's part: its copy of the bodies, its tree and, for all but the first, its results
  // and their landing place on the first device.
  struct Share : TeamMember {
    CudaOctree<Real> tree;
    DeviceArray<Real> x, mass, half_eps2, results, landed;
    PinnedArray<unsigned> overflow;  // the walk's stack ran out of room
    double build_seconds = 0;
  };

  void evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi);
  void build_and_walk(std::size_t k, const Real* x, Real* a, Real* phi);

  EngineOptions options_;
  int leaf_size_, group_size_;
  std::vector<int> devices_;
  std::unique_ptr<CudaArrayDevice<Real>> device_;
  DeviceTeam team_;
  std::vector<std::unique_ptr<Share>> shares_;
  std::size_t n_ = 0;
  bool own_softening_ = false;
  DeviceBuffer<Real> scratch_a_, scratch_phi_;  // for potential_energy
  std::vector<Real> mass_host_;
  EngineTimings timings_;
};

}  // namespace orrery::cuda

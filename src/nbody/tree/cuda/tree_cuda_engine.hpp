// SPDX-License-Identifier: MIT
// The Barnes–Hut tree engine on CUDA: every evaluation builds the octree on the GPU
// (cuda_octree.hpp) from the positions where they already are and walks it one warp per group
// (tree_walk.cu). One device (the first of `devices`); the simulation's arrays live on it
// (CudaArrayDevice), so a run's particles stay on the GPU between steps.
#pragma once

#include <memory>

#include "device/cuda/cuda_array_device.hpp"
#include "device/cuda/memory.hpp"
#include "nbody/tree/cuda/cuda_octree.hpp"
#include "orrery/nbody/engines.hpp"

namespace orrery::cuda {

template <class Real>
class TreeCudaEngine final : public ForceEngine<Real> {
 public:
  explicit TreeCudaEngine(const EngineOptions& options);

  std::string name() const override { return "tree"; }
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
  void evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi);

  EngineOptions options_;
  int leaf_size_, group_size_;
  std::unique_ptr<CudaArrayDevice<Real>> device_;
  CudaOctree<Real> tree_;
  std::size_t n_ = 0;
  DeviceArray<Real> mass_, half_eps2_;
  bool own_softening_ = false;
  DeviceBuffer<Real> scratch_a_, scratch_phi_;  // for potential_energy
  PinnedArray<unsigned> overflow_;               // the walk's stack ran out of room
  std::vector<Real> mass_host_;
  EngineTimings timings_;
};

}  // namespace orrery::cuda

// SPDX-License-Identifier: MIT
// The direct all-pairs engine on CUDA (direct_cuda_kernel.cu), on every GPU of `devices` (all
// when empty): each device holds every body and sums a contiguous share of the targets; the
// first device holds the simulation's arrays (CudaArrayDevice), so a run's state stays on it
// between steps, and positions travel to the others by peer copies once per evaluation.
#pragma once

#include <memory>
#include <vector>

#include "device/cuda/cuda_array_device.hpp"
#include "device/cuda/device_team.hpp"
#include "device/cuda/memory.hpp"
#include "nbody/direct/cuda/direct_cuda_launch.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery::cuda {

template <class Real>
class DirectCudaEngine final : public ForceEngine<Real> {
 public:
  explicit DirectCudaEngine(const EngineOptions& options);

  std::string name() const override { return "direct"; }

  double gravitational_constant() const override { return options_.g; }
  std::string backend() const override;
  ArrayDevice<Real>& device() override { return *device_; }
  void set_bodies(std::span<const Real> mass, std::span<const Real> softening) override;
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override;
  // A contiguous run of targets that starts on a tile (a rank's slice of the bodies:
  // dist/bodies_over_ranks.hpp) is computed alone, each device taking its share's part of it
  // with the source slices of a whole evaluation: the bits accelerations() gives. Any other
  // list: the whole evaluation, keeping the listed values.
  void accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                        std::span<const std::uint32_t> targets) override;
  void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                    DeviceBuffer<Real>& phi) override;
  double potential_energy(const DeviceBuffer<Real>& x) override;
  EngineTimings last_timings() const override { return timings_; }

 private:
  // One device's share: its copies of the bodies (all but the first device) and its results.
  struct Share : TeamMember {
    std::size_t begin = 0, end = 0;
    DeviceArray<Real> x, mass, half_eps2, results, partial;
  };
  // Targets [lo, hi) of each share (all of them by default).
  void evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi, std::size_t lo = 0,
                std::size_t hi = static_cast<std::size_t>(-1));
  int targets_per_thread() const {
    return options_.targets_per_thread ? options_.targets_per_thread
                                       : default_targets_per_thread(n_);
  }

  EngineOptions options_;
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

// SPDX-License-Identifier: MIT
// The Barnes–Hut tree engine on the CPU: an octree of the bodies rebuilt at every evaluation
// (octree.hpp), walked once per group of nearby targets (tree_walk.hpp) with OpenMP over the
// groups, and the group's lists summed with SIMD lanes (tree_lists.cpp). Each group's lists and
// sums do not depend on which thread takes it, so results do not depend on the thread count.
// float and double run the instruction-set kernels; float128 a scalar loop.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "octree.hpp"
#include "tree_kernel.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/device/cpu/host_array_device.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery::cpu {

template <class Real>
class TreeEngine final : public ForceEngine<Real> {
 public:
  explicit TreeEngine(const EngineOptions& options);

  std::string name() const override { return "tree"; }

  double gravitational_constant() const override { return options_.g; }
  std::string backend() const override { return to_string(Backend::cpu); }
  ArrayDevice<Real>& device() override { return device_; }
  void set_bodies(std::span<const Real> mass, std::span<const Real> softening) override;
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override;
  // Builds the whole tree, walks only the groups holding a target and sums their lists for the
  // targets alone: the bits accelerations() gives them.
  void accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                        std::span<const std::uint32_t> targets) override;
  void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                    DeviceBuffer<Real>& phi) override;
  double potential_energy(const DeviceBuffer<Real>& x) override;
  std::string potential_energy_method() const override;
  EngineTimings last_timings() const override { return timings_; }

  // Source trees that every group walks after this engine's own (dist/tree_over_ranks: the
  // local essential trees the other ranks send). `received` is called in each evaluation once
  // the own tree is built, before the walk, and returns them; they are walked in their order,
  // so the lists, and the sums, do not depend on the threads. Then work() holds, for each body
  // in the caller's order, the sources listed for it (bodies and cells): its force's cost.
  using ReceivedSources = std::function<std::span<const Octree<Real>>(const Octree<Real>& own)>;
  void walk_also(ReceivedSources received) { received_ = std::move(received); }
  const std::vector<std::uint64_t>& work() const { return work_; }

 private:
  // a (and φ, unless null) for the targets (every body, or ascending indices).
  void evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi,
                std::span<const std::uint32_t> targets);
  std::span<const std::uint32_t> every_body();

  EngineOptions options_;
  int thread_limit_;
  int leaf_size_, group_size_;
  HostArrayDevice<Real> device_;
  const TreeKernel* kernel_;
  std::vector<Real> mass_, half_eps2_;
  Octree<Real> tree_;
  std::vector<Real> sorted_results_;  // a (3N) and φ (N) in sorted order
  std::vector<std::uint32_t> every_body_;  // 0..N−1
  std::vector<char> listed_;               // by body: a target of this evaluation
  DeviceBuffer<Real> scratch_a_, scratch_phi_;  // for potential_energy
  EngineTimings timings_;
  ReceivedSources received_;
  std::vector<std::uint64_t> work_, sorted_work_;
};

}  // namespace orrery::cpu

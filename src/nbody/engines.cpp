// SPDX-License-Identifier: MIT
#include "orrery/nbody/engines.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "nbody/direct/cpu/direct_engine.hpp"
#include "nbody/engine_factories.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/device/cuda_presence.hpp"

namespace orrery {

namespace {

// The widest opening angle accepted: beyond 2 a cell may be opened from inside itself.
constexpr double kMaxTheta = 2.0;
// Bodies per leaf and targets per group: beyond this a walk's lists stop fitting any cache.
constexpr int kMaxLeafOrGroup = 4096;

template <class Real>
constexpr bool kRunsOnCuda = std::is_same_v<Real, float> || std::is_same_v<Real, double>;

void check_options(const EngineOptions& o) {
  if (!(o.theta >= 0.0 && o.theta < kMaxTheta))
    throw ParameterError("theta", fmt::format("{}", o.theta),
                         "an opening angle 0 <= theta < 2 (0 opens every cell: direct accuracy)");
  if (!(std::isfinite(o.softening) && o.softening >= 0.0))
    throw ParameterError("softening", fmt::format("{}", o.softening), "a length >= 0");
  if (!(std::isfinite(o.g) && o.g > 0.0))
    throw ParameterError("G", fmt::format("{}", o.g), "a gravitational constant > 0");
  if (o.leaf_size < 0 || o.leaf_size > kMaxLeafOrGroup)
    throw ParameterError("leaf-size", fmt::format("{}", o.leaf_size),
                         fmt::format("1 to {} bodies per leaf (0: the default)", kMaxLeafOrGroup));
  if (o.group_size < 0 || o.group_size > kMaxLeafOrGroup)
    throw ParameterError("group-size", fmt::format("{}", o.group_size),
                         fmt::format("1 to {} targets per group (0: the default)",
                                     kMaxLeafOrGroup));
  if (o.targets_per_thread != 0 &&
      std::ranges::find(kCudaDirectTargetsPerThread, o.targets_per_thread) ==
          kCudaDirectTargetsPerThread.end())
    throw ParameterError("targets-per-thread", fmt::format("{}", o.targets_per_thread),
                         "2, 4 or 8 targets per CUDA thread (0: the default)");
}

}  // namespace

const std::vector<std::string>& multipole_names() {
  static const std::vector<std::string> names{"monopole", "quadrupole"};
  return names;
}

std::vector<std::string> force_engine_names() { return {"direct", "tree"}; }

std::string tree_potential_method(const EngineOptions& options) {
  return fmt::format("tree potentials (theta {}, {})", options.theta,
                     multipole_names()[static_cast<std::size_t>(options.multipole)]);
}

template <class Real>
ResolvedBackend resolve_backend(const EngineOptions& options) {
  if (options.backend == Backend::cpu) return {Backend::cpu, ""};
  std::string why;
  const int present = cuda_device_count(&why);
  check_device_list(options.devices, present);
  if (options.backend == Backend::cuda) {
    if (!cuda_built())
      throw ParameterError("backend", "cuda",
                           "cpu or auto: this build of orrery has no CUDA backend (reconfigure "
                           "with -DORRERY_CUDA=ON on a machine with nvcc)");
    if (present == 0) throw ParameterError("backend", "cuda", "cpu or auto: " + why);
    if (!kRunsOnCuda<Real>)
      throw ParameterError("backend", "cuda",
                           "cpu or auto for precision fp128 (the CUDA engines run fp32 and fp64)");
    return {Backend::cuda, ""};
  }
  if (present == 0) return {Backend::cpu, why + "; computed on the CPU"};
  if (!kRunsOnCuda<Real>)
    return {Backend::cpu, "the CUDA engines run fp32 and fp64, not fp128; computed on the CPU"};
  return {Backend::cuda, ""};
}

template <class Real>
std::unique_ptr<ForceEngine<Real>> make_force_engine(std::string_view name,
                                                     const EngineOptions& options) {
  if (name != "direct" && name != "tree")
    throw ParameterError("engine", std::string(name),
                         fmt::format("one of: {}", fmt::join(force_engine_names(), ", ")));
  check_options(options);
  const Backend backend = resolve_backend<Real>(options).backend;
#if ORRERY_WITH_CUDA
  if constexpr (kRunsOnCuda<Real>) {
    if (backend == Backend::cuda)
      return name == "direct" ? cuda::make_direct_engine<Real>(options)
                              : cuda::make_tree_engine<Real>(options);
  }
#endif
  (void)backend;
  if (name == "direct") return std::make_unique<cpu::DirectEngine<Real>>(options);
  return cpu::make_tree_engine<Real>(options);
}

#define ORRERY_INSTANTIATE(Real)                                                               \
  template ResolvedBackend resolve_backend<Real>(const EngineOptions&);                        \
  template std::unique_ptr<ForceEngine<Real>> make_force_engine<Real>(std::string_view,        \
                                                                      const EngineOptions&);
ORRERY_INSTANTIATE(float)
ORRERY_INSTANTIATE(double)
ORRERY_INSTANTIATE(float128)
#undef ORRERY_INSTANTIATE

}  // namespace orrery

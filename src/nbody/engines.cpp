// SPDX-License-Identifier: MIT
#include "orrery/nbody/engines.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "nbody/direct/cpu/direct_engine.hpp"
#include "nbody/engine_factories.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/nbody/engine_registry.hpp"

namespace orrery {

namespace {

// Bodies per leaf and targets per group: beyond this a walk's lists stop fitting any cache.
constexpr int kMaxLeafOrGroup = 4096;

template <class Real>
std::unique_ptr<ForceEngine<Real>> make_cpu_direct_engine(const EngineOptions& options) {
  return std::make_unique<cpu::DirectEngine<Real>>(options);
}

template <class Real>
constexpr Precision precision_of() {
  if constexpr (std::is_same_v<Real, float>)
    return Precision::fp32;
  else if constexpr (std::is_same_v<Real, double>)
    return Precision::fp64;
  else
    return Precision::fp128;
}

// Whether some engine of the registry runs `p` on CUDA in this build.
bool runs_on_cuda(Precision p) {
  return std::ranges::any_of(force_engines(),
                             [p](const ForceEngineInfo& e) { return e.cuda.runs(p); });
}

// The precisions some engine runs on CUDA, as the registry holds them: "fp32 and fp64".
std::string cuda_precisions_text() {
  std::vector<std::string> words;
  for (Precision p : {Precision::fp32, Precision::fp64, Precision::fp128})
    if (runs_on_cuda(p)) words.push_back(to_string(p));
  return fmt::format("{}", fmt::join(words, " and "));
}

// The backends a refused --backend cuda may be replaced by: "cpu or auto".
std::string backends_other_than_cuda() {
  std::vector<std::string> words;
  for (const std::string& name : backend_names())
    if (name != to_string(Backend::cuda)) words.push_back(name);
  return fmt::format("{}", fmt::join(words, " or "));
}

void check_options(const EngineOptions& o) {
  check_theta(o.theta);
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

std::string theta_range_text() { return fmt::format("0 <= theta < {}", kMaxTheta); }

void check_theta(double theta) {
  if (!(theta >= 0.0 && theta < kMaxTheta))
    throw ParameterError("theta", fmt::format("{}", theta),
                         fmt::format("an opening angle {} (0 opens every cell: direct accuracy)",
                                     theta_range_text()));
}

bool EngineFactories::runs(Precision precision) const {
  switch (precision) {
    case Precision::fp32: return fp32 != nullptr;
    case Precision::fp64: return fp64 != nullptr;
    case Precision::fp128: return fp128 != nullptr;
    case Precision::mixed:
    case Precision::dd: return false;
  }
  return false;
}

const std::vector<ForceEngineInfo>& force_engines() {
  static const std::vector<ForceEngineInfo> engines{
      {.name = "direct",
       .description = "all pairs, exact",
       .cpu_method = "SIMD, threads",
       .cuda_method = "tiles, all GPUs",
       .cpu = {&make_cpu_direct_engine<float>, &make_cpu_direct_engine<double>,
               &make_cpu_direct_engine<float128>},
#if ORRERY_WITH_CUDA
       .cuda = {&cuda::make_direct_engine<float>, &cuda::make_direct_engine<double>, nullptr},
#endif
       .all_pairs = true},
      {.name = "tree",
       .description = "Barnes–Hut octree, --theta and --multipole",
       .cpu_method = "groups, SIMD",
       .cuda_method = "all GPUs",
       .cpu = {&cpu::make_tree_engine<float>, &cpu::make_tree_engine<double>,
               &cpu::make_tree_engine<float128>},
#if ORRERY_WITH_CUDA
       .cuda = {&cuda::make_tree_engine<float>, &cuda::make_tree_engine<double>, nullptr},
#endif
       .opening_angle = true},
  };
  return engines;
}

std::vector<std::string> force_engine_names() {
  std::vector<std::string> names;
  for (const auto& e : force_engines()) names.emplace_back(e.name);
  return names;
}

const ForceEngineInfo& find_force_engine(std::string_view name) {
  for (const auto& e : force_engines())
    if (e.name == name) return e;
  throw ParameterError("engine", std::string(name),
                       fmt::format("one of: {}", fmt::join(force_engine_names(), ", ")));
}

std::string force_engines_text() {
  std::string out;
  for (const auto& e : force_engines())
    out += fmt::format("  {:<7} {}; CPU ({}) and CUDA ({})\n", e.name, e.description,
                       e.cpu_method, e.cuda_method);
  return out;
}

const std::vector<std::string>& multipole_names() {
  static const std::vector<std::string> names{"monopole", "quadrupole"};
  return names;
}

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
  const std::string& precision = to_string(precision_of<Real>());
  if (options.backend == Backend::cuda) {
    const std::string& cuda = to_string(Backend::cuda);
    if (!cuda_built())
      throw ParameterError("backend", cuda,
                           fmt::format("{}: this build of orrery has no CUDA backend (reconfigure "
                                       "with -DORRERY_CUDA=ON on a machine with nvcc)",
                                       backends_other_than_cuda()));
    if (present == 0)
      throw ParameterError("backend", cuda, fmt::format("{}: {}", backends_other_than_cuda(), why));
    if (!runs_on_cuda(precision_of<Real>()))
      throw ParameterError("backend", cuda,
                           fmt::format("{} for precision {} (the CUDA engines run {})",
                                       backends_other_than_cuda(), precision,
                                       cuda_precisions_text()));
    return {Backend::cuda, ""};
  }
  if (present == 0) return {Backend::cpu, why + "; computed on the CPU"};
  if (!runs_on_cuda(precision_of<Real>()))
    return {Backend::cpu, fmt::format("the CUDA engines run {}, not {}; computed on the CPU",
                                      cuda_precisions_text(), precision)};
  return {Backend::cuda, ""};
}

template <class Real>
std::unique_ptr<ForceEngine<Real>> make_force_engine(std::string_view name,
                                                     const EngineOptions& options) {
  const ForceEngineInfo& engine = find_force_engine(name);
  check_options(options);
  const Backend backend = resolve_backend<Real>(options).backend;
  const ForceEngineFactory<Real> make =
      (backend == Backend::cuda ? engine.cuda : engine.cpu).template of<Real>();
  if (!make)
    throw ParameterError("backend", to_string(backend),
                         fmt::format("a backend the {} engine runs on in this precision",
                                     engine.name));
  return make(options);
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

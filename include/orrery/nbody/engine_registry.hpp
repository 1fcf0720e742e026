// SPDX-License-Identifier: MIT
// The force engines by name, with what each supports: the backends and precisions it runs in
// (a factory for each, null where it does not run) and the options it reads. make_force_engine()
// (nbody/engines.hpp) makes engines from here; the jobs' checks, the --engine help and
// `orrery sim --list` read it, so that an engine is described once, next to its factories.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

// Barnes–Hut's opening angle θ (EngineOptions::theta) is accepted in 0 <= θ < kMaxTheta: beyond
// 2 a cell may be opened from inside itself, and 0 opens every cell (direct accuracy).
inline constexpr double kMaxTheta = 2.0;
// "0 <= theta < 2", for messages and help.
std::string theta_range_text();
// Throws ParameterError("theta", value, the range) outside [0, kMaxTheta).
void check_theta(double theta);

template <class Real>
using ForceEngineFactory = std::unique_ptr<ForceEngine<Real>> (*)(const EngineOptions&);

// An engine's factories on one backend, one per precision; null where it does not run there.
struct EngineFactories {
  ForceEngineFactory<float> fp32 = nullptr;
  ForceEngineFactory<double> fp64 = nullptr;
  ForceEngineFactory<float128> fp128 = nullptr;

  template <class Real>
  ForceEngineFactory<Real> of() const {
    if constexpr (std::is_same_v<Real, float>)
      return fp32;
    else if constexpr (std::is_same_v<Real, double>)
      return fp64;
    else
      return fp128;
  }
  // Whether it runs in `precision` (mixed: never; the engines compute in one precision).
  bool runs(Precision precision) const;
};

struct ForceEngineInfo {
  std::string_view name;         // "direct"
  std::string_view description;  // one line: what it computes and which options it reads
  std::string_view cpu_method;   // how its CPU backend computes, in a few words
  std::string_view cuda_method;  // and its CUDA backend
  EngineFactories cpu;
  EngineFactories cuda;  // all null in a build without CUDA
  // Sums every pair: N(N−1) interactions an evaluation, the figure `orrery forces` reports.
  bool all_pairs = false;
  // Opens cells by θ and expands them to a multipole order: reads theta, multipole, leaf_size
  // and group_size, and takes --accuracy, which chooses θ and the multipole.
  bool opening_angle = false;
};

// Every engine, in the order `orrery sim --list` shows them.
const std::vector<ForceEngineInfo>& force_engines();
std::vector<std::string> force_engine_names();
// Throws ParameterError("engine", name, "one of: direct, tree") for an unknown name.
const ForceEngineInfo& find_force_engine(std::string_view name);
// The engines, a line each, as `orrery sim --list` shows them.
std::string force_engines_text();

}  // namespace orrery

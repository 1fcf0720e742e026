// SPDX-License-Identifier: MIT
// The engines make_force_engine() chooses from, one factory per engine × backend (each in its
// engine's folder). CUDA engines exist for float and double, in builds with CUDA.
#pragma once

#include <memory>

#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery::cpu {
template <class Real>
std::unique_ptr<ForceEngine<Real>> make_tree_engine(const EngineOptions& options);
}  // namespace orrery::cpu

namespace orrery::cuda {
template <class Real>
std::unique_ptr<ForceEngine<Real>> make_direct_engine(const EngineOptions& options);
template <class Real>
std::unique_ptr<ForceEngine<Real>> make_tree_engine(const EngineOptions& options);
}  // namespace orrery::cuda

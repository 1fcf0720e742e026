// SPDX-License-Identifier: MIT
// Force engines by name and backend: `direct` (all pairs) and `tree` (Barnes–Hut), each on the
// CPU and, in a build with CUDA, on GPUs, as the registry lists them (nbody/engine_registry.hpp). Every engine computes the same softened Newtonian
// gravity (nbody/force_engine.hpp), with ε_ij = ε (global) or ε_ij² = (ε_i² + ε_j²)/2 when
// particles carry their own softening. This is the dispatcher, which brings in the backends; the
// options and what resolve_backend() gives are in nbody/engine_options.hpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/engine_registry.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

// Where `options.backend` (auto included) puts an engine for particles of type Real: cpu or cuda,
// and for auto why it chose the CPU ("" when it did not). Throws ParameterError for cuda in a
// build without CUDA, on a machine without a device, or for a precision CUDA does not run.
template <class Real>
ResolvedBackend resolve_backend(const EngineOptions& options);

// The engine on the backend resolve_backend() gives, by the factory the registry holds for it.
// Throws ParameterError("engine", name, the valid names) for an unknown name, and
// ParameterError for an option out of range (θ outside [0, kMaxTheta), ...).
template <class Real>
std::unique_ptr<ForceEngine<Real>> make_force_engine(std::string_view name,
                                                     const EngineOptions& options);

}  // namespace orrery

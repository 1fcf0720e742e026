// SPDX-License-Identifier: MIT
// The integrators a divergence map can use, by name: every register integrator
// (integrate/register_integrator.hpp) of the library's one-step families, and the
// Adams–Bashforth methods of the published maps. The CPU lanes and the CUDA kernels are compiled
// once per entry (CMake compiles each per index; ORRERY_MAP_INTEGRATOR_COUNT must equal the
// length of the list, which is checked at compile time).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/multistep/adams_bashforth.hpp"

namespace orrery {

using MapIntegrators =
    TableList<ExplicitEuler, Midpoint, ClassicRK4, SymplecticEuler, LeapfrogKDK, Yoshida4,
              EulerStartedAdamsBashforth2, EulerStartedAdamsBashforth4>;
inline constexpr int kMapIntegratorCount = MapIntegrators::size;

// The table of entry I.
template <int I>
using map_integrator_t = MapIntegrators::at<I>;

struct MapIntegratorInfo {
  std::string_view name;
  std::string_view description;
  int order;
  IntegratorFamily family;
  int force_evaluations;  // per step, once steps follow each other
};

const std::vector<MapIntegratorInfo>& map_integrators();
std::vector<std::string> map_integrator_names();
// The index of `name` in the list; ParameterError("integrator", name, "one of: ...") if none.
int map_integrator_index(std::string_view name);

}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "orrery/ensemble/map_integrators.hpp"

#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

static_assert(kMapIntegratorCount == ORRERY_MAP_INTEGRATOR_COUNT,
              "src/CMakeLists.txt compiles the map kernels for ORRERY_MAP_INTEGRATOR_COUNT "
              "integrators: make it the length of MapIntegrators");

namespace {

template <class Table>
constexpr int force_evaluations() {
  if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta)
    return Table::stages;
  else if constexpr (Table::family == IntegratorFamily::splitting)
    return force_evaluations_per_step<Table>();
  else
    return 1;
}

template <std::size_t... I>
std::vector<MapIntegratorInfo> infos(std::index_sequence<I...>) {
  return {MapIntegratorInfo{map_integrator_t<I>::name, map_integrator_t<I>::description,
                            map_integrator_t<I>::order, map_integrator_t<I>::family,
                            force_evaluations<map_integrator_t<I>>()}...};
}

}  // namespace

const std::vector<MapIntegratorInfo>& map_integrators() {
  static const std::vector<MapIntegratorInfo> all =
      infos(std::make_index_sequence<kMapIntegratorCount>{});
  return all;
}

std::vector<std::string> map_integrator_names() {
  std::vector<std::string> names;
  for (const auto& i : map_integrators()) names.emplace_back(i.name);
  return names;
}

int map_integrator_index(std::string_view name) {
  const auto& all = map_integrators();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return static_cast<int>(i);
  throw ParameterError("integrator", std::string(name),
                       fmt::format("one of: {}", fmt::join(map_integrator_names(), ", ")));
}

}  // namespace orrery

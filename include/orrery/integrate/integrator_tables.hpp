// SPDX-License-Identifier: MIT
// Every integrator's coefficient table, in one list. The registry (integrator_registry.hpp)
// chooses from this list and the map from its own (ensemble/map_integrators.hpp), so a new
// integrator is a table plus one entry in a list.
#pragma once

#include <string_view>
#include <tuple>

#include "orrery/integrate/implicit/collocation_tables.hpp"
#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/integrate/runge_kutta/embedded_pairs.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

template <class... Tables>
struct TableList {
  static constexpr int size = sizeof...(Tables);
  template <int I>
  using at = std::tuple_element_t<I, std::tuple<Tables...>>;
};

// In the order the registry lists them.
using IntegratorTables = TableList<ExplicitEuler, SymplecticEuler, Midpoint, ClassicRK4, Fehlberg45,
                                   CashKarp, DormandPrince5, LeapfrogKDK, Yoshida4, Yoshida6,
                                   Yoshida8, TrapezoidalRule, GaussLegendre4, GaussLegendre6,
                                   GaussLegendre8, LobattoIIIAB4>;

// Calls f.template operator()<Table>() with the table named `name` (a template lambda,
// []<class Table>() { ... }); false when no table has that name.
template <class F, class... Tables>
bool visit_integrator(std::string_view name, F&& f, TableList<Tables...>) {
  return ((name == Tables::name ? (f.template operator()<Tables>(), true) : false) || ...);
}
template <class F>
bool visit_integrator(std::string_view name, F&& f) {
  return visit_integrator(name, f, IntegratorTables{});
}

}  // namespace orrery

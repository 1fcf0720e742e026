// SPDX-License-Identifier: MIT
// Every integrator's coefficient table, in one list. The registry (integrator_registry.hpp)
// chooses from this list and the map from its own (ensemble/map_integrators.hpp), so a new
// integrator is a table plus one entry in a list.
#pragma once

#include <string_view>
#include <tuple>

#include "orrery/integrate/extrapolation/extrapolation_tables.hpp"
#include "orrery/integrate/multistep/adams_methods.hpp"
#include "orrery/integrate/block_steps/leapfrog_block.hpp"
#include "orrery/integrate/ias15/ias15_table.hpp"
#include "orrery/integrate/implicit/collocation_tables.hpp"
#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/integrate/runge_kutta/dop853.hpp"
#include "orrery/integrate/runge_kutta/embedded_pairs.hpp"
#include "orrery/integrate/runge_kutta/feagin10.hpp"
#include "orrery/integrate/runge_kutta/feagin12.hpp"
#include "orrery/integrate/runge_kutta/feagin14.hpp"
#include "orrery/integrate/runge_kutta/fehlberg78.hpp"
#include "orrery/integrate/runge_kutta/tsit5.hpp"
#include "orrery/integrate/runge_kutta/verner65.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"
#include "orrery/integrate/wisdom_holman/whfast_table.hpp"

namespace orrery {

template <class... Tables>
struct TableList {
  static constexpr int size = sizeof...(Tables);
  template <int I>
  using at = std::tuple_element_t<I, std::tuple<Tables...>>;
};

// In the order the registry lists them.
using IntegratorTables =
    TableList<ExplicitEuler, SymplecticEuler, Midpoint, Kutta3, ClassicRK4, Fehlberg45, CashKarp,
              DormandPrince5, Tsitouras5, Verner65, Fehlberg78, DormandPrince853, Feagin10,
              Feagin12, Feagin14, LeapfrogKDK, Yoshida4, Yoshida6, Yoshida8, AdamsBashforth1,
              AdamsBashforth2, AdamsBashforth3, AdamsBashforth4, AdamsBashforth5,
              AdamsBashforthMoulton4, TrapezoidalRule, GaussLegendre4, GaussLegendre6,
              GaussLegendre8, LobattoIIIAB4, BulirschStoer, LeapfrogBlock, Ias15, Whfast>;

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

// SPDX-License-Identifier: MIT
// Every integrator's coefficient table, in one list, and the register step of any of them. The
// registry (integrator_registry.hpp) and the ensemble code choose from this list, so a new
// integrator is a table plus one entry here.
#pragma once

#include <string_view>

#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"
#include "orrery/integrate/splitting/register_stepper.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

template <class... Tables>
struct TableList {};

// In the order the registry lists them.
using IntegratorTables =
    TableList<ExplicitEuler, SymplecticEuler, Midpoint, ClassicRK4, LeapfrogKDK, Yoshida4>;

// One register step of any table, by its family.
template <class Table, class T, int N, class Accel>
ORRERY_HD void register_step(BodyState<T, N>& s, const T& h, const Accel& accel) {
  if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta)
    rk_step<Table>(s, h, accel);
  else
    split_step<Table>(s, h, accel);
}

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

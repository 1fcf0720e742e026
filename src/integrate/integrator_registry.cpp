// SPDX-License-Identifier: MIT
#include "orrery/integrate/integrator_registry.hpp"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/integrate/implicit/array_stepper.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/runge_kutta/adaptive_array_stepper.hpp"
#include "orrery/integrate/runge_kutta/array_stepper.hpp"
#include "orrery/integrate/splitting/array_stepper.hpp"

namespace orrery {

namespace {

template <class Table>
IntegratorInfo info_of() {
  constexpr bool symplectic = Table::family == IntegratorFamily::splitting;
  constexpr bool registers = has_register_stepper<Table>;
  if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta) {
    return {Table::name,   Table::order,        Table::description,
            Table::family, Table::stages,       symplectic,
            EmbeddedPair<Table>, false,         Table::stages,
            registers};
  } else if constexpr (Table::family == IntegratorFamily::implicit_runge_kutta) {
    const int per_sweep = nystrom_coefficients<Table, double>().implicit_stages();
    return {Table::name,   Table::order, Table::description, Table::family, per_sweep,
            Table::symplectic, false,    true,               Table::stages, registers};
  } else {
    constexpr int evaluations = force_evaluations_per_step<Table>();
    return {Table::name,   Table::order, Table::description, Table::family, evaluations,
            symplectic,    false,        false,              evaluations,   registers};
  }
}

template <class... Tables>
std::vector<IntegratorInfo> infos_of(TableList<Tables...>) {
  return {info_of<Tables>()...};
}

}  // namespace

std::string_view family_name(IntegratorFamily family) {
  switch (family) {
    case IntegratorFamily::explicit_runge_kutta: return "explicit Runge–Kutta";
    case IntegratorFamily::splitting: return "symplectic splitting";
    case IntegratorFamily::multistep: return "multistep";
    case IntegratorFamily::implicit_runge_kutta: return "implicit Runge–Kutta";
  }
  return "unknown";
}

const std::vector<IntegratorInfo>& integrators() {
  static const std::vector<IntegratorInfo> all = infos_of(IntegratorTables{});
  return all;
}

std::vector<std::string> integrator_names() {
  std::vector<std::string> names;
  for (const IntegratorInfo& info : integrators()) names.emplace_back(info.name);
  return names;
}

const IntegratorInfo& find_integrator(std::string_view name) {
  for (const IntegratorInfo& info : integrators())
    if (info.name == name) return info;
  throw ParameterError("integrator", std::string(name),
                       fmt::format("one of: {}", fmt::join(integrator_names(), ", ")));
}

std::string integrators_markdown_table() {
  std::string table =
      "| name | family | order | force evaluations per step | description |\n"
      "|---|---|---|---|---|\n";
  for (const IntegratorInfo& info : integrators())
    table += fmt::format("| `{}` | {} | {} | {}{} | {} |\n", info.name, family_name(info.family),
                         info.order, info.force_evaluations,
                         info.implicit ? " per sweep" : "", info.description);
  return table;
}

std::vector<std::string> adaptive_integrator_names() {
  std::vector<std::string> names;
  [&]<class... Tables>(TableList<Tables...>) {
    ((EmbeddedPair<Tables> ? names.push_back(Tables::name) : void()), ...);
  }(IntegratorTables{});
  return names;
}

template <class Real>
std::unique_ptr<ArrayStepper<Real>> make_array_stepper(std::string_view name, double tolerance) {
  if (!(std::isfinite(tolerance) && tolerance >= 0))
    throw ParameterError("tolerance", fmt::format("{}", tolerance),
                         "a tolerance > 0 (step control), or 0 for fixed steps");
  find_integrator(name);  // throws the error that names the valid ones
  std::unique_ptr<ArrayStepper<Real>> stepper;
  visit_integrator(name, [&]<class Table>() {
    if constexpr (EmbeddedPair<Table>) {
      if (tolerance > 0) {
        stepper = std::make_unique<AdaptiveRkArrayStepper<Table, Real>>(tolerance);
        return;
      }
    }
    if (tolerance > 0)
      throw ParameterError("tolerance", fmt::format("{}", tolerance),
                           fmt::format("0 for {} (fixed steps); step control needs an embedded "
                                       "pair: {}",
                                       name, fmt::join(adaptive_integrator_names(), ", ")));
    if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta)
      stepper = std::make_unique<RkArrayStepper<Table, Real>>();
    else if constexpr (Table::family == IntegratorFamily::implicit_runge_kutta)
      stepper = std::make_unique<ImplicitArrayStepper<Table, Real>>();
    else
      stepper = std::make_unique<SplittingArrayStepper<Table, Real>>();
  });
  return stepper;
}

#define ORRERY_MAKE_STEPPER(Real) \
  template std::unique_ptr<ArrayStepper<Real>> make_array_stepper<Real>(std::string_view, double);
ORRERY_MAKE_STEPPER(float)
ORRERY_MAKE_STEPPER(double)
ORRERY_MAKE_STEPPER(float128)
#undef ORRERY_MAKE_STEPPER

}  // namespace orrery

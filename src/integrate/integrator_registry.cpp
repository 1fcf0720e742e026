// SPDX-License-Identifier: MIT
#include "orrery/integrate/integrator_registry.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/integrate/extrapolation/array_stepper.hpp"
#include "orrery/integrate/ias15/array_stepper.hpp"
#include "orrery/integrate/block_steps/array_stepper.hpp"
#include "orrery/integrate/implicit/array_stepper.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/multistep/array_stepper.hpp"
#include "orrery/integrate/register_integrator.hpp"
#include "orrery/integrate/runge_kutta/adaptive_array_stepper.hpp"
#include "orrery/integrate/runge_kutta/array_stepper.hpp"
#include "orrery/integrate/splitting/array_stepper.hpp"
#include "orrery/integrate/wisdom_holman/array_stepper.hpp"
#include "orrery/integrate/wisdom_holman/saba_tables.hpp"

namespace orrery {

namespace {

// The list of integrate/integrator_tables.hpp and SABA's tables, which only the registry lists
// (the ensembles' lanes include that list and would all compile again for an entry they never
// run).
template <class... A, class... B>
TableList<A..., B...> joined(TableList<A...>, TableList<B...>);
using RegisteredTables =
    decltype(joined(IntegratorTables{}, TableList<Saba1, Saba2, Saba3, Saba4>{}));

// SABA_n's n, 0 for WHFast's table.
template <class Table>
constexpr int saba_of() {
  if constexpr (requires { Table::saba; }) return Table::saba;
  else return 0;
}

// What the registry says of a table: its own facts, then its family's.
template <class Table>
IntegratorInfo info_of() {
  IntegratorInfo info{.name = Table::name,
                      .order = Table::order,
                      .description = Table::description,
                      .family = Table::family,
                      .register_stepper = has_register_stepper<Table>};
  if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta) {
    info.force_evaluations = Table::stages;
    info.adaptive = EmbeddedPair<Table>;
  } else if constexpr (Table::family == IntegratorFamily::implicit_runge_kutta) {
    info.force_evaluations = nystrom_coefficients<Table, double>().implicit_stages();
    info.symplectic = Table::symplectic;
    info.implicit = true;
    info.stages = Table::stages;
  } else if constexpr (Table::family == IntegratorFamily::splitting) {
    info.force_evaluations = force_evaluations_per_step<Table>();
    info.symplectic = true;
  } else if constexpr (Table::family == IntegratorFamily::multistep) {
    info.force_evaluations = adams_force_evaluations<Table>();
    info.starter = Table::steps > 1 ? Table::Starter::name : "";
    info.starter_steps = Table::steps - 1;
  } else if constexpr (Table::family == IntegratorFamily::extrapolation) {
    info.force_evaluations = extrapolation_cost<Table>(Table::fixed_columns);
    info.adaptive = true;
  } else if constexpr (Table::family == IntegratorFamily::block_steps) {
    // One evaluation per body and step of its own; not symplectic once levels change.
    info.force_evaluations = 1;
  } else if constexpr (Table::family == IntegratorFamily::ias15) {
    info.force_evaluations = Table::typical_force_evaluations;
    info.adaptive = true;
    info.fp32 = Table::fp32;
  } else if constexpr (Table::family == IntegratorFamily::wisdom_holman) {
    info.force_evaluations = Table::force_evaluations;
    info.symplectic = true;
  }
  if (info.stages == 0) info.stages = info.force_evaluations;
  return info;
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
    case IntegratorFamily::extrapolation: return "extrapolation";
    case IntegratorFamily::block_steps: return "block time steps";
    case IntegratorFamily::ias15: return "Gauss–Radau (IAS15)";
    case IntegratorFamily::implicit_runge_kutta: return "implicit Runge–Kutta";
    case IntegratorFamily::wisdom_holman: return "Wisdom–Holman";
  }
  return "unknown";
}

const std::vector<IntegratorInfo>& integrators() {
  static const std::vector<IntegratorInfo> all = infos_of(RegisteredTables{});
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
  for (const IntegratorInfo& info : integrators())
    if (info.adaptive) names.emplace_back(info.name);
  return names;
}

template <class Real>
std::unique_ptr<ArrayStepper<Real>> make_array_stepper(std::string_view name, double tolerance,
                                                       const BlockStepOptions& block,
                                                       int corrector,
                                                       std::string_view ias15_criterion,
                                                       bool whfast_safe_mode) {
  if (!(std::isfinite(tolerance) && tolerance >= 0))
    throw ParameterError("tolerance", fmt::format("{}", tolerance),
                         "a tolerance > 0 (step control), or 0 for fixed steps");
  find_integrator(name);  // throws the error that names the valid ones
  if (corrector != 0 && find_integrator(name).family != IntegratorFamily::wisdom_holman)
    throw ParameterError("corrector", std::to_string(corrector),
                         fmt::format("0 for {} (a symplectic corrector is whfast's)", name));
  const auto criterion = std::find(kIas15CriterionNames.begin(), kIas15CriterionNames.end(),
                                    ias15_criterion);
  if (criterion == kIas15CriterionNames.end())
    throw ParameterError("ias15-criterion", std::string(ias15_criterion),
                         fmt::format("one of: {}", fmt::join(kIas15CriterionNames, ", ")));
  if (criterion != kIas15CriterionNames.begin() &&
      find_integrator(name).family != IntegratorFamily::ias15)
    throw ParameterError("ias15-criterion", std::string(ias15_criterion),
                         fmt::format("{} (the default) for {}: a step criterion is ias15's",
                                     kIas15CriterionNames[0], name));
  std::unique_ptr<ArrayStepper<Real>> stepper;
  visit_integrator(name, [&]<class Table>() {
    if constexpr (Table::family == IntegratorFamily::ias15) {
      if constexpr (std::is_same_v<Real, float> && !Table::fp32)
        throw ParameterError("precision", "fp32",
                             fmt::format("fp64 or fp128 for {} (its step control cannot resolve "
                                         "fp32's rounding)",
                                         name));
      else
        stepper = std::make_unique<Ias15ArrayStepper<Real>>(
            tolerance > 0 ? tolerance : Table::default_tolerance,
            criterion == kIas15CriterionNames.begin() ? Ias15Criterion::prs24
                                                        : Ias15Criterion::global);
      return;
    } else if constexpr (EmbeddedPair<Table>) {
      if (tolerance > 0) {
        stepper = std::make_unique<AdaptiveRkArrayStepper<Table, Real>>(tolerance);
        return;
      }
    }
    if constexpr (Table::family == IntegratorFamily::extrapolation) {
      stepper = std::make_unique<ExtrapolationArrayStepper<Table, Real>>(tolerance);
      return;
    }
    if (tolerance > 0)
      throw ParameterError("tolerance", fmt::format("{}", tolerance),
                           fmt::format("0 for {} (fixed steps); step control needs one of: {}",
                                       name, fmt::join(adaptive_integrator_names(), ", ")));
    if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta)
      stepper = std::make_unique<RkArrayStepper<Table, Real>>();
    else if constexpr (Table::family == IntegratorFamily::multistep)
      stepper = std::make_unique<AdamsArrayStepper<Table, Real>>();
    else if constexpr (Table::family == IntegratorFamily::block_steps)
      stepper = std::make_unique<BlockLeapfrogArrayStepper<Real>>(block);
    else if constexpr (Table::family == IntegratorFamily::implicit_runge_kutta)
      stepper = std::make_unique<ImplicitArrayStepper<Table, Real>>();
    else if constexpr (Table::family == IntegratorFamily::splitting)
      stepper = std::make_unique<SplittingArrayStepper<Table, Real>>();
    else if constexpr (Table::family == IntegratorFamily::wisdom_holman)
      stepper = std::make_unique<WhfastArrayStepper<Real>>(corrector, !whfast_safe_mode,
                                                           saba_of<Table>());
  }, RegisteredTables{});
  return stepper;
}

#define ORRERY_MAKE_STEPPER(Real) \
  template std::unique_ptr<ArrayStepper<Real>> make_array_stepper<Real>( \
      std::string_view, double, const BlockStepOptions&, int, std::string_view, bool);
ORRERY_MAKE_STEPPER(float)
ORRERY_MAKE_STEPPER(double)
ORRERY_MAKE_STEPPER(float128)
#undef ORRERY_MAKE_STEPPER

}  // namespace orrery

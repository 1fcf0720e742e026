// SPDX-License-Identifier: MIT
#include "orrery/ensemble/ensemble_catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"

namespace orrery {

static_assert(kEnsembleProblemCount == ORRERY_ENSEMBLE_PROBLEM_COUNT,
              "src/CMakeLists.txt compiles the ensemble kernels for ORRERY_ENSEMBLE_PROBLEM_COUNT "
              "problems: make it the length of EnsembleProblems");

namespace {

template <class Problem>
EnsembleProblemInfo problem_info() {
  return {Problem::name,
          Problem::description,
          Problem::second_order,
          Problem::coordinates,
          Problem::parameters,
          EnsembleSystem<Problem, double>::D,
          {Problem::state_names.begin(), Problem::state_names.end()},
          {Problem::parameter_names.begin(), Problem::parameter_names.end()},
          {Problem::state_defaults.begin(), Problem::state_defaults.end()},
          {Problem::parameter_defaults.begin(), Problem::parameter_defaults.end()},
          Problem::has_energy,
          ensemble_energy_starts<Problem>,
          requires { Problem::needs_data; }};
}

template <std::size_t... I>
std::vector<EnsembleProblemInfo> problem_infos(std::index_sequence<I...>) {
  return {problem_info<EnsembleProblems::at<I>>()...};
}

template <std::size_t... I>
std::vector<EnsembleIntegratorInfo> integrator_infos(std::index_sequence<I...>) {
  return {EnsembleIntegratorInfo{
      EnsembleIntegrators::at<I>::name, EnsembleIntegrators::at<I>::description,
      EnsembleIntegrators::at<I>::order, EnsembleIntegrators::at<I>::family,
      integrator_adapts<EnsembleIntegrators::at<I>>}...};
}

template <class Info>
std::vector<std::string> names_of(const std::vector<Info>& all) {
  std::vector<std::string> names;
  for (const auto& i : all)
    if (std::find(names.begin(), names.end(), i.name) == names.end()) names.emplace_back(i.name);
  return names;
}

template <class Info>
int index_of(const std::vector<Info>& all, std::string_view name, const char* parameter) {
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return static_cast<int>(i);
  throw ParameterError(parameter, std::string(name),
                       fmt::format("one of: {}", fmt::join(names_of(all), ", ")));
}

}  // namespace

const std::vector<EnsembleProblemInfo>& ensemble_problems() {
  static const std::vector<EnsembleProblemInfo> all =
      problem_infos(std::make_index_sequence<kEnsembleProblemCount>{});
  return all;
}

const std::vector<EnsembleIntegratorInfo>& ensemble_integrators() {
  static const std::vector<EnsembleIntegratorInfo> all =
      integrator_infos(std::make_index_sequence<kEnsembleIntegratorCount>{});
  return all;
}

std::vector<std::string> ensemble_problem_names() { return names_of(ensemble_problems()); }
std::vector<std::string> ensemble_integrator_names() { return names_of(ensemble_integrators()); }

int ensemble_problem_index(std::string_view name) {
  return index_of(ensemble_problems(), name, "problem");
}
int ensemble_integrator_index(std::string_view name) {
  return index_of(ensemble_integrators(), name, "integrator");
}

void check_integrator_applies(int problem, int integrator) {
  const EnsembleProblemInfo& p = ensemble_problems().at(static_cast<std::size_t>(problem));
  const EnsembleIntegratorInfo& m = ensemble_integrators().at(static_cast<std::size_t>(integrator));
  if (p.second_order || m.family == IntegratorFamily::explicit_runge_kutta) return;
  std::vector<std::string> fit;
  for (const auto& i : ensemble_integrators())
    if (i.family == IntegratorFamily::explicit_runge_kutta) fit.emplace_back(i.name);
  throw ParameterError("integrator", std::string(m.name),
                       fmt::format("for {} (a first-order system, not H = |p|^2/2 + V(q)) one of: {}",
                                   p.name, fmt::join(fit, ", ")));
}

std::vector<std::string> adaptive_ensemble_integrator_names() {
  std::vector<std::string> names;
  for (const auto& i : ensemble_integrators())
    if (i.adaptive) names.emplace_back(i.name);
  return names;
}

double smallest_ensemble_tolerance(Precision precision) {
  // Below ~100 ulp the error estimate h Σ (b_i − b̂_i) k_i of a step is as much the rounding of
  // the stages as the method's error: the control would chase rounding.
  constexpr double kUlps = 100;
  return kUlps * (precision == Precision::fp32 ? std::numeric_limits<float>::epsilon()
                                               : std::numeric_limits<double>::epsilon());
}

void check_ensemble_tolerance(double tolerance, int integrator, Precision precision) {
  if (tolerance == 0) return;
  const std::string value = fmt::format("{}", tolerance);
  if (!(std::isfinite(tolerance) && tolerance > 0))
    throw ParameterError("tolerance", value, "a tolerance > 0 (step control), or 0 for fixed steps");
  const EnsembleIntegratorInfo& m = ensemble_integrators().at(static_cast<std::size_t>(integrator));
  if (!m.adaptive)
    throw ParameterError("tolerance", value,
                         fmt::format("0 for {} (fixed steps); step control needs one of: {}",
                                     m.name, fmt::join(adaptive_ensemble_integrator_names(), ", ")));
  const double smallest = smallest_ensemble_tolerance(precision);
  if (tolerance < smallest)
    throw ParameterError("tolerance", value,
                         fmt::format("at least {:.3g} in {} (100 units in its last place: a "
                                     "smaller one asks the error estimate to see below rounding)",
                                     smallest, to_string(precision)));
}

}  // namespace orrery

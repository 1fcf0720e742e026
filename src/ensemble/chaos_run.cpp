// SPDX-License-Identifier: MIT
#include "orrery/ensemble/chaos/chaos_run.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ensemble/index_dispatch.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/chaos/chaos_catalogue.hpp"

namespace orrery {

const std::vector<ChaosIndicatorInfo>& chaos_indicators() {
  static const std::vector<ChaosIndicatorInfo> list{
      {ChaosIndicator::megno, "megno",
       "mean exponential growth of nearby orbits <Y>: 2 regular, 0 periodic, ~lambda t/2 chaotic",
       ChaosKernel::growth, GrowthIndicators<double, 1>::megno},
      {ChaosIndicator::lyapunov, "lyapunov",
       "finite-time maximal Lyapunov exponent: ~ln(t)/t regular, lambda_max > 0 chaotic",
       ChaosKernel::growth, GrowthIndicators<double, 1>::lyapunov},
      {ChaosIndicator::fli, "fli", "fast Lyapunov indicator sup ln|w|: ~ln t regular, ~lambda t chaotic",
       ChaosKernel::growth, GrowthIndicators<double, 1>::fli},
      {ChaosIndicator::sali, "sali",
       "smaller alignment index of two vectors: > 0 regular, -> 0 exponentially chaotic",
       ChaosKernel::sali, SaliIndicator<double, 1>::sali},
      {ChaosIndicator::spectrum, "spectrum",
       "every Lyapunov exponent by QR (states of at most 12 words); the map shows the largest",
       ChaosKernel::spectrum, 0},
      {ChaosIndicator::gali, "gali",
       "generalised alignment index GALI_k of k vectors (--gali-k, 2..state words): ~const or "
       "power law regular, -> 0 exponentially chaotic",
       ChaosKernel::gali, 1},
      {ChaosIndicator::escape, "escape",
       "the exit an open system leaves through and when (henon-heiles above E = 1/6)",
       ChaosKernel::growth, GrowthIndicators<double, 1>::exit},
  };
  return list;
}

const ChaosIndicatorInfo& chaos_indicator_info(std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& info : chaos_indicators()) {
    if (info.name == name) return info;
    names.push_back(info.name);
  }
  throw ParameterError("indicator", std::string(name), fmt::format("one of: {}", fmt::join(names, ", ")));
}

const ChaosIndicatorInfo& chaos_indicator_info(ChaosIndicator indicator) {
  for (const auto& info : chaos_indicators())
    if (info.indicator == indicator) return info;
  return chaos_indicators().front();
}

int chaos_kernel_outputs(ChaosKernel kernel, int state_words) {
  switch (kernel) {
    case ChaosKernel::growth:
      return GrowthIndicators<double, 1>::outputs;
    case ChaosKernel::sali:
      return SaliIndicator<double, 1>::outputs;
    case ChaosKernel::spectrum:
    case ChaosKernel::gali:
      return state_words;
  }
  return 0;
}

std::vector<std::string_view> chaos_integrator_names() {
  return []<class... Tables>(TableList<Tables...>) {
    return std::vector<std::string_view>{Tables::name...};
  }(ChaosIntegrators{});
}

bool chaos_double_double_applies(int problem, int integrator) {
  bool applies = false;
  visit_index<kEnsembleProblemCount>(problem, [&]<int P>() {
    visit_index<kEnsembleIntegratorCount>(integrator, [&]<int I>() {
      applies = chaos_double_double_compiled<EnsembleProblems::at<P>, EnsembleIntegrators::at<I>>;
    });
  });
  return applies;
}

void check_chaos_setup(const ChaosSetup& setup) {
  const EnsembleSetup& s = setup.ensemble;
  const auto& problem = ensemble_problems()[static_cast<std::size_t>(s.problem)];
  const std::string_view integrator =
      ensemble_integrators()[static_cast<std::size_t>(s.integrator)].name;
  const auto names = chaos_integrator_names();
  if (std::find(names.begin(), names.end(), integrator) == names.end())
    throw ParameterError("integrator", std::string(integrator),
                         fmt::format("one of: {} (a one-step method the chaos lanes are compiled for)",
                                     fmt::join(names, ", ")));
  check_integrator_applies(s.problem, s.integrator);
  if (s.precision != Precision::fp64)
    throw ParameterError("precision", std::string(to_string(s.precision)), "fp64");
  if (s.tolerance > 0)
    throw ParameterError("tolerance", fmt::format("{}", s.tolerance), "none: fixed steps only");
  if (compiled_chaos_kernel(setup.kernel) == ChaosKernel::spectrum &&
      problem.state_words > kMaxSpectrumWords)
    throw ParameterError("indicator", setup.kernel == ChaosKernel::gali ? "gali" : "spectrum",
                         fmt::format("a problem of at most {} state words ({} has {})",
                                     kMaxSpectrumWords, problem.name, problem.state_words));
  if (setup.every < 1 || s.steps % setup.every != 0)
    throw ParameterError("every", fmt::format("{}", setup.every),
                         fmt::format("a divisor of the steps ({})", s.steps));
  const std::int64_t intervals = s.steps / setup.every;
  if (setup.samples < 1 || setup.samples > intervals)
    throw ParameterError("samples", fmt::format("{}", setup.samples),
                         fmt::format("from 1 to steps/every ({})", intervals));
  if (setup.double_double_vectors) {
    if (setup.kernel != ChaosKernel::sali)
      throw ParameterError("tangent-precision", "dd",
                           "fp64 with this indicator: double-double deviation vectors are built "
                           "for sali (whose chaotic floor is fp64's rounding)");
    if (!chaos_double_double_applies(s.problem, s.integrator))
      throw ParameterError(
          "tangent-precision", "dd",
          fmt::format("fp64 for {} with {}: double-double vectors are compiled for Hamiltonian "
                      "problems of at most 6 state words with an inline field (henon-heiles, "
                      "small polynomials) and splitting integrators (leapfrog, yoshida4, "
                      "yoshida6)",
                      problem.name, integrator));
  }
  if (setup.exits.count < 0 || setup.exits.count > kMaxChaosExits ||
      (setup.exits.count > 0 && setup.kernel != ChaosKernel::growth))
    throw ParameterError("exits", fmt::format("{}", setup.exits.count),
                         fmt::format("0 to {}, with the growth kernel", kMaxChaosExits));
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "orrery/jobs/engine_fields.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/tree_accuracy.hpp"

namespace orrery {

Multipole multipole_named(const std::string& name) {
  for (std::size_t i = 0; i < multipole_names().size(); ++i)
    if (multipole_names()[i] == name) return static_cast<Multipole>(i);
  throw ParameterError("--multipole", name,
                       fmt::format("one of: {}", fmt::join(multipole_names(), ", ")));
}

void check_engine_choice(Backend backend, const std::vector<int>& devices, Precision precision,
                         double theta) {
  try {
    check_theta(theta);
    check_devices_for_backend(backend, devices);
    EngineOptions where;
    where.backend = backend;
    where.devices = devices;
    if (precision == Precision::fp128)
      resolve_backend<float128>(where);
    else
      resolve_backend<double>(where);
  } catch (const ParameterError& e) {
    throw e.renamed("--" + e.parameter());
  }
}

void check_accuracy_choice(const std::string& engine, double accuracy, double theta,
                           const std::string& multipole) {
  if (accuracy == 0) return;
  if (!find_force_engine(engine).opening_angle) {
    std::vector<std::string> opening;
    for (const auto& e : force_engines())
      if (e.opening_angle) opening.emplace_back(e.name);
    throw ParameterError("--accuracy", fmt::format("{}", accuracy),
                         fmt::format("with --engine {} only (the {} engine is exact)",
                                     fmt::join(opening, " or "), engine));
  }
  const EngineOptions defaults;
  if (theta != defaults.theta ||
      multipole != multipole_names()[static_cast<std::size_t>(defaults.multipole)])
    throw ParameterError("--accuracy", fmt::format("{}", accuracy),
                         "without --theta or --multipole: it chooses them");
  check_tree_accuracy(accuracy);
}

}  // namespace orrery

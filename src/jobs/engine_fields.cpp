// SPDX-License-Identifier: MIT
#include "orrery/jobs/engine_fields.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/jobs/compute_fields.hpp"
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
  if (!(theta >= 0 && theta < 2))
    throw ParameterError("--theta", fmt::format("{}", theta),
                         "an opening angle 0 <= theta < 2 (0 opens every cell)");
  try {
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
  if (engine != "tree")
    throw ParameterError("--accuracy", fmt::format("{}", accuracy),
                         "with --engine tree only (the direct engine is exact)");
  const EngineOptions defaults;
  if (theta != defaults.theta ||
      multipole != multipole_names()[static_cast<std::size_t>(defaults.multipole)])
    throw ParameterError("--accuracy", fmt::format("{}", accuracy),
                         "without --theta or --multipole: it chooses them");
  check_tree_accuracy(accuracy);
}

}  // namespace orrery

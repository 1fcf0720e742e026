// SPDX-License-Identifier: MIT
// Run options for a map on the CPU with a chosen kernel, thread count and precision, as the CPU
// map tests sweep them.
#pragma once

#include <string>

#include "orrery/ensemble/divergence_map.hpp"

namespace orrery::test {

inline MapRunOptions cpu(const std::string& kernel, int threads,
                         Precision precision = Precision::fp64) {
  MapRunOptions o;
  o.backend = Backend::cpu;
  o.cpu_kernel = kernel;
  o.threads = threads;
  o.precision = precision;
  return o;
}

}  // namespace orrery::test

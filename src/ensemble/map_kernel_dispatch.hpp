// SPDX-License-Identifier: MIT
// The map's kernels are templates over the precision mode and the varied body (an index into
// registers must be known at compile time); this turns the run-time choice into the template
// arguments, once for every backend.
#pragma once

#include "orrery/core/precision.hpp"

namespace orrery {

// f.template operator()<P, Body>() for the precision mode `p` (fp64, fp32 or mixed) and the
// 0-based varied body `body` (0, 1 or 2).
template <class F>
decltype(auto) visit_map_kernel(Precision p, int body, F&& f) {
  const auto by_body = [&]<Precision P>() -> decltype(auto) {
    switch (body) {
      case 0: return f.template operator()<P, 0>();
      case 1: return f.template operator()<P, 1>();
      default: return f.template operator()<P, 2>();
    }
  };
  switch (p) {
    case Precision::fp32: return by_body.template operator()<Precision::fp32>();
    case Precision::mixed: return by_body.template operator()<Precision::mixed>();
    default: return by_body.template operator()<Precision::fp64>();
  }
}

}  // namespace orrery

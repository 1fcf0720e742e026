// SPDX-License-Identifier: MIT
// A run-time index turned into a template argument: f.template operator()<I>() for i in [0, N).
// Kernels are templates over the integrator (its table unrolls into the code); this picks the
// instantiation once per run, for every backend.
#pragma once

namespace orrery {

template <int N, class F, int I = 0>
decltype(auto) visit_index(int i, F&& f) {
  if constexpr (I + 1 < N) {
    if (i != I) return visit_index<N, F, I + 1>(i, static_cast<F&&>(f));
  }
  return f.template operator()<I>();
}

}  // namespace orrery

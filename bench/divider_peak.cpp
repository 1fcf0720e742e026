// SPDX-License-Identifier: MIT
// The most square roots and divisions per second one core sustains in fp64 or fp32 at this
// instruction set's vector width: independent chains, so only the divider's throughput counts.
// A divergence-map pixel-step needs 6 of each (2 systems × 3 pairs), which makes this the
// map's hardware limit on the CPU.
#include <chrono>
#include <experimental/simd>

#include "orrery/core/seconds_since.hpp"

namespace stdx = std::experimental;

namespace orrery::bench::ORRERY_PEAK_ISA {

template <class T>
double sqrt_div_pairs_per_second_once() {
  using V = stdx::native_simd<T>;
  constexpr int kChains = 24;
  V x[kChains], y[kChains];
  for (int c = 0; c < kChains; ++c) {
    x[c] = V(T(1.5) + T(c));
    y[c] = V(T(2.5) + T(c));
  }
  const V one(T(1));
  const long iterations = 1'000'000;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i)
    for (int c = 0; c < kChains; ++c) {
      // Both stay near 1 (no overflow, no denormals): x → 1, y alternates y, 1/y.
      x[c] = stdx::sqrt(x[c]);
      y[c] = one / y[c];
    }
  const double s = seconds_since(t0);
  volatile T sink = 0;
  for (int c = 0; c < kChains; ++c) sink = sink + x[c][0] + y[c][0];
  return static_cast<double>(iterations) * kChains * V::size() / s;
}

// The best of several runs: the peak is what the hardware can do, not what one run happened to.
template <class T>
double sqrt_div_pairs_per_second() {
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    const double r = sqrt_div_pairs_per_second_once<T>();
    best = r > best ? r : best;
  }
  return best;
}

double peak_fp64() { return sqrt_div_pairs_per_second<double>(); }
double peak_fp32() { return sqrt_div_pairs_per_second<float>(); }

}  // namespace orrery::bench::ORRERY_PEAK_ISA

// SPDX-License-Identifier: MIT
// The direct engine's hardware limit on this core, measured rather than modelled: the rate at
// which the core retires the inner loop's own instruction mix (as many FMAs, multiplies,
// additions, reciprocal-square-root estimates, conversions and compares per interaction vector
// as the disassembly shows; bench/README.md lists them) when nothing else limits it: twelve
// independent chains, no memory traffic. Which execution pipes take which instruction differs
// between processors (on Intel's Golden Cove every 512-bit instruction issues on the two FMA
// ports; AMD's Zen 4 adds on separate pipes at every width), so a port model written for one
// misjudges the other; running the mix measures whatever this core does.
#include <chrono>
#include <type_traits>
#include <utility>
#include <vector>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "mix_peak.hpp"
#include "orrery/core/seconds_since.hpp"

namespace orrery::bench::ORRERY_PEAK_ISA {

#if defined(__AVX512F__) || defined(__FMA__)
namespace {

#if defined(__AVX512F__)
using VD = __m512d;
using VF = __m512;
inline VD fma(VD x, VD a, VD b) { return _mm512_fmadd_pd(x, a, b); }
inline VF fma(VF x, VF a, VF b) { return _mm512_fmadd_ps(x, a, b); }
inline VD add(VD x, VD b) { return _mm512_add_pd(x, b); }
inline VF add(VF x, VF b) { return _mm512_add_ps(x, b); }
inline VD rsqrt(VD x) { return _mm512_rsqrt14_pd(x); }
inline VF rsqrt(VF x) { return _mm512_rsqrt14_ps(x); }
inline VD splat(double v) { return _mm512_set1_pd(v); }
inline VF splat(float v) { return _mm512_set1_ps(v); }
inline double lane0(VD v) { return _mm512_cvtsd_f64(v); }
inline float lane0(VF v) { return _mm512_cvtss_f32(v); }
inline VD logic(VD x, VD zero) { return _mm512_andnot_pd(zero, x); }
inline int compare(VD x, VD c) { return static_cast<int>(_mm512_cmp_pd_mask(x, c, _CMP_LT_OQ)); }
#else
using VD = __m256d;
using VF = __m256;
inline VD fma(VD x, VD a, VD b) { return _mm256_fmadd_pd(x, a, b); }
inline VF fma(VF x, VF a, VF b) { return _mm256_fmadd_ps(x, a, b); }
inline VD add(VD x, VD b) { return _mm256_add_pd(x, b); }
inline VF add(VF x, VF b) { return _mm256_add_ps(x, b); }
inline VF rsqrt(VF x) { return _mm256_rsqrt_ps(x); }
inline VD splat(double v) { return _mm256_set1_pd(v); }
inline VF splat(float v) { return _mm256_set1_ps(v); }
inline double lane0(VD v) { return _mm256_cvtsd_f64(v); }
inline float lane0(VF v) { return _mm256_cvtss_f32(v); }
// AVX2 has no fp64 estimate: the kernel narrows to fp32, estimates and widens (3 instructions).
inline VD rsqrt(VD x) { return _mm256_cvtps_pd(_mm_rsqrt_ps(_mm256_cvtpd_ps(x))); }
inline VD logic(VD x, VD zero) { return _mm256_andnot_pd(zero, x); }
inline int compare(VD x, VD c) { return _mm256_movemask_pd(_mm256_cmp_pd(x, c, _CMP_LT_OQ)); }
#endif

template <class V>
inline void keep(V& x) {
  __asm__ volatile("" : "+v"(x));
}

enum class Kind { fma, add, estimate, logic, compare };

template <class V>
constexpr bool kIsFp64 = sizeof(decltype(lane0(std::declval<V>()))) == sizeof(double);

// The recipe's instructions in an order that spreads each kind evenly (smooth weighted round
// robin), as a compiler's schedule of the kernel does: additions issue beside FMAs instead of in
// a block of their own that would leave the FMA pipes idle.
std::vector<Kind> spread_order(const MixRecipe& r) {
  const std::pair<Kind, int> kinds[] = {{Kind::fma, r.fmas},         {Kind::add, r.adds},
                                        {Kind::estimate, r.estimates}, {Kind::logic, r.logic},
                                        {Kind::compare, r.compares}};
  int total = 0;
  for (const auto& [_, n] : kinds) total += n;
  int weight[5] = {};
  std::vector<Kind> order;
  for (int i = 0; i < total; ++i) {
    int best = 0;
    for (int k = 0; k < 5; ++k) {
      weight[k] += kinds[k].second;
      if (weight[k] > weight[best]) best = k;
    }
    weight[best] -= total;
    order.push_back(kinds[best].first);
  }
  return order;
}

// One instruction of the interaction's string applied to every chain. Each result feeds the
// chain's next instruction, as in the kernel; twelve chains in flight hide every latency. Named
// variables, not an array: an array of vectors this large stays on the stack, and the stores
// then limit. Multiplies count as FMAs: they issue on the same pipes everywhere.
template <class V, class... X>
inline void apply(Kind kind, V a, V b, V zero, int& flags, X&... x) {
  switch (kind) {
    case Kind::fma: (keep(x = fma(x, a, b)), ...); break;
    case Kind::add: (keep(x = add(x, b)), ...); break;
    case Kind::estimate: (keep(x = rsqrt(x)), ...); break;
    case Kind::logic:
      if constexpr (kIsFp64<V>) (keep(x = logic(x, zero)), ...);
      break;
    case Kind::compare:
      if constexpr (kIsFp64<V>) ((flags += compare(x, zero)), ...);
      break;
  }
}

template <class V, class T>
double vectors_per_second_once(const MixRecipe& r) {
  V x0 = splat(T(1.0)), x1 = splat(T(1.1)), x2 = splat(T(1.2)), x3 = splat(T(1.3)),
    x4 = splat(T(1.4)), x5 = splat(T(1.5)), x6 = splat(T(1.6)), x7 = splat(T(1.7)),
    x8 = splat(T(1.8)), x9 = splat(T(1.9)), x10 = splat(T(2.0)), x11 = splat(T(2.1));
  // fma: x → x·a + b stays near 1; add: x grows by b per step; the estimate returns near 1.
  const V a = splat(T(0.9990234375)), b = splat(T(0.0009765625)), zero = splat(T(0));
  int flags = 0;
  const std::vector<Kind> order = spread_order(r);
  const long iterations = 2'000'000;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i)
    for (const Kind kind : order)
      apply(kind, a, b, zero, flags, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11);
  const double s = seconds_since(t0);
  volatile T sink = lane0(x0) + lane0(x1) + lane0(x2) + lane0(x3) + lane0(x4) + lane0(x5) +
                    lane0(x6) + lane0(x7) + lane0(x8) + lane0(x9) + lane0(x10) + lane0(x11) +
                    static_cast<T>(flags);
  (void)sink;
  return static_cast<double>(iterations) * 12 / s;
}

template <class V, class T>
double vectors_per_second(const MixRecipe& r) {
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    const double v = vectors_per_second_once<V, T>(r);
    best = v > best ? v : best;
  }
  return best;
}

}  // namespace

double mix_peak_fp64(const MixRecipe& r) {
  return vectors_per_second<VD, double>(r) * (sizeof(VD) / sizeof(double));
}
double mix_peak_fp32(const MixRecipe& r) {
  return vectors_per_second<VF, float>(r) * (sizeof(VF) / sizeof(float));
}
#else
// The baseline variant is bound by the divider (divider_peak.cpp), not by a mix.
double mix_peak_fp64(const MixRecipe&) { return 0; }
double mix_peak_fp32(const MixRecipe&) { return 0; }
#endif

}  // namespace orrery::bench::ORRERY_PEAK_ISA

// SPDX-License-Identifier: MIT
// The most vector floating-point instructions one core retires per second at this instruction
// set's width: independent chains of fused multiply-adds (additions where there is no FMA), so
// only the issue ports count. A direct-gravity interaction costs a known number of such
// instructions (bench/README.md says how they were counted), which makes this the direct
// engine's hardware limit.
#include <chrono>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace orrery::bench::ORRERY_PEAK_ISA {

namespace {

#if defined(__AVX512F__)
using VD = __m512d;
using VF = __m512;
inline VD step(VD x, VD a, VD b) { return _mm512_fmadd_pd(x, a, b); }
inline VF step(VF x, VF a, VF b) { return _mm512_fmadd_ps(x, a, b); }
inline VD splat(double v) { return _mm512_set1_pd(v); }
inline VF splat(float v) { return _mm512_set1_ps(v); }
inline double lane0(VD v) { return _mm512_cvtsd_f64(v); }
inline float lane0(VF v) { return _mm512_cvtss_f32(v); }
#elif defined(__FMA__)
using VD = __m256d;
using VF = __m256;
inline VD step(VD x, VD a, VD b) { return _mm256_fmadd_pd(x, a, b); }
inline VF step(VF x, VF a, VF b) { return _mm256_fmadd_ps(x, a, b); }
inline VD splat(double v) { return _mm256_set1_pd(v); }
inline VF splat(float v) { return _mm256_set1_ps(v); }
inline double lane0(VD v) { return _mm256_cvtsd_f64(v); }
inline float lane0(VF v) { return _mm256_cvtss_f32(v); }
#else
using VD = __m128d;
using VF = __m128;
// No FMA unit assumed: additions, which issue at the same rate as multiplies.
inline VD step(VD x, VD, VD b) { return _mm_add_pd(x, b); }
inline VF step(VF x, VF, VF b) { return _mm_add_ps(x, b); }
inline VD splat(double v) { return _mm_set1_pd(v); }
inline VF splat(float v) { return _mm_set1_ps(v); }
inline double lane0(VD v) { return _mm_cvtsd_f64(v); }
inline float lane0(VF v) { return _mm_cvtss_f32(v); }
#endif

// One step of every chain; the empty asm keeps each result (and so each instruction) alive.
template <class V>
inline void keep(V& x) {
  __asm__ volatile("" : "+v"(x));
}
template <class V, class... X>
inline void step_all(V a, V b, X&... x) {
  (keep(x = step(x, a, b)), ...);
}

template <class V, class T>
double instructions_per_second_once() {
  // 2 ports × 4 cycles latency need 8 chains in flight; 12 leave no doubt. Named variables, not
  // an array: an array of vectors this large stays on the stack, and the stores then limit.
  V x0 = splat(T(1.0)), x1 = splat(T(1.1)), x2 = splat(T(1.2)), x3 = splat(T(1.3)),
    x4 = splat(T(1.4)), x5 = splat(T(1.5)), x6 = splat(T(1.6)), x7 = splat(T(1.7)),
    x8 = splat(T(1.8)), x9 = splat(T(1.9)), x10 = splat(T(2.0)), x11 = splat(T(2.1));
  constexpr int kChains = 12;
  // x → x·a + b stays near b/(1 − a) = 1 (additions alone grow to about 2·10⁴).
  const V a = splat(T(0.9990234375)), b = splat(T(0.0009765625));
  const long iterations = 20'000'000;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i)
    step_all(a, b, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  volatile T sink = lane0(x0) + lane0(x1) + lane0(x2) + lane0(x3) + lane0(x4) + lane0(x5) +
                    lane0(x6) + lane0(x7) + lane0(x8) + lane0(x9) + lane0(x10) + lane0(x11);
  (void)sink;
  return static_cast<double>(iterations) * kChains / s;
}

template <class V, class T>
double instructions_per_second() {
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    const double r = instructions_per_second_once<V, T>();
    best = r > best ? r : best;
  }
  return best;
}

}  // namespace

// Vector instructions per second (each acts on 64/32/16 bytes: the ISA's width).
double fma_peak_fp64() { return instructions_per_second<VD, double>(); }
double fma_peak_fp32() { return instructions_per_second<VF, float>(); }

}  // namespace orrery::bench::ORRERY_PEAK_ISA

// SPDX-License-Identifier: MIT
// What the direct engine's tests share: random systems, the engine run, the reference loop in
// higher precision, and the error bounds (direct_engine_test.cpp says where they come from).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/physics/softened_pair.hpp"

namespace orrery {
namespace {

template <class Real>
constexpr double kUnitRoundoff = std::is_same_v<Real, float>    ? 0x1p-24
                                 : std::is_same_v<Real, double> ? 0x1p-53
                                                                : 0x1p-113;

// Roundings in one term G m_j d/r³, relative to its size: d (1), ε_i² (1, half of it in r²),
// r² (3 fma + 2 from d → 5, times 3/2 in r⁻³), the factor m/r³ (3.5, physics/
// inverse_cube_refined.hpp; 3 on the IEEE path), G·sum (1): 14.5, rounded up.
constexpr double kTermRoundings = 16;
// One energy term m_i m_j/√r²: d and ε² (2), r² (5, times 1/2), √ (1), m_i m_j (1), ÷ (1), plus
// the compensated sums (2) and −G· (1): 10.5, rounded up. All terms have one sign, so the sum's
// bound is relative to U itself.
constexpr double kEnergyRoundings = 12;
// λ of the probabilistic bound: with λ = 7 a sum of 5000 terms exceeds it with probability
// below 2·5000·e^{−24.5} ≈ 2·10⁻⁷.
constexpr double kLambda = 7;
// A pair factor from exact r² and m = 1 along one axis: the factor (2.5; 3 on the IEEE path)
// and the product with d (1).
constexpr double kExactPairUlps = 4;

struct System {
  std::vector<double> x;          // 3N: x..., y..., z...
  std::vector<double> mass;       // N
  std::vector<double> softening;  // N, or empty for the global ε
  double g = 1.0;
  double eps = 0.0;
  std::size_t n() const { return mass.size(); }
};

enum class Softening { none, global, per_particle };

System random_system(std::size_t n, Softening soft, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> pos(-1.0, 1.0), mass(0.5, 1.5), eps(0.01, 0.1);
  System s;
  s.g = 1.3;
  s.x.resize(3 * n);
  for (auto& v : s.x) v = pos(rng);
  s.mass.resize(n);
  for (std::size_t i = 0; i < n; ++i) s.mass[i] = i % 7 == 3 ? 0.0 : mass(rng);  // some massless
  if (soft == Softening::global) s.eps = 0.05;
  if (soft == Softening::per_particle) {
    s.eps = 0.5;  // must be ignored
    s.softening.resize(n);
    for (auto& e : s.softening) e = eps(rng);
  }
  return s;
}

template <class Real>
std::vector<Real> rounded(const std::vector<double>& v) {
  return std::vector<Real>(v.begin(), v.end());
}

template <class Real>
struct Result {
  std::vector<Real> a;
  double energy = 0;
};

// min_work_per_thread 1 splits even a small system among the threads (0: the engine's rule,
// under which a system of a few hundred bodies runs on one).
template <class Real>
Result<Real> run_direct(const System& sys, const std::string& kernel, int threads,
                        std::size_t min_work_per_thread = 1) {
  EngineOptions options;
  options.min_work_per_thread = min_work_per_thread;
  options.g = sys.g;
  options.softening = sys.eps;
  options.threads = threads;
  options.cpu_kernel = kernel;
  auto engine = make_force_engine<Real>("direct", options);
  const std::size_t n = sys.n();
  const auto x = rounded<Real>(sys.x), m = rounded<Real>(sys.mass),
             eps = rounded<Real>(sys.softening);
  auto xd = engine->device().allocate(3 * n);
  auto ad = engine->device().allocate(3 * n);
  engine->device().copy_to_device(x, xd);
  engine->set_bodies(m, eps);
  engine->accelerations(xd, ad);
  Result<Real> r;
  r.a.resize(3 * n);
  engine->device().copy_to_host(ad, r.a);
  r.energy = engine->potential_energy(xd);
  return r;
}

// The plain double loop, accumulated in long double (u = 2⁻⁶⁴) for fp32 and fp64 and in
// float128 for float128, from the inputs as the engine sees them (rounded to Real), with
// Σ_j |term| per target for the error bounds.
template <class Real>
using RefReal = std::conditional_t<std::is_same_v<Real, float128>, float128, long double>;
template <class Real>
constexpr double kRefRoundoff = std::is_same_v<Real, float128> ? 0x1p-113 : 0x1p-64;
inline long double ref_sqrt(long double x) { return std::sqrt(x); }
inline float128 ref_sqrt(float128 x) { return sqrtq(x); }

struct Reference {
  std::vector<float128> a;        // 3N
  std::vector<float128> abs_sum;  // N: G Σ_j m_j |d_ij| / r_ij³
  float128 energy = 0;
};

template <class Real>
Reference reference(const System& sys) {
  using A = RefReal<Real>;
  const std::size_t n = sys.n();
  const auto x = rounded<Real>(sys.x), m = rounded<Real>(sys.mass),
             soft = rounded<Real>(sys.softening);
  const auto X = [&](std::size_t c, std::size_t i) { return static_cast<A>(x[c * n + i]); };
  const auto eps2 = [&](std::size_t i) {
    const A e = soft.empty() ? static_cast<A>(static_cast<Real>(sys.eps)) : static_cast<A>(soft[i]);
    return e * e;
  };
  std::vector<A> a(3 * n, 0), abs_sum(n, 0);
  A energy = 0;
  const A g = sys.g;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const A d[3] = {X(0, j) - X(0, i), X(1, j) - X(1, i), X(2, j) - X(2, i)};
      const A d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const A r2 = d2 + (eps2(i) + eps2(j)) / 2;
      const A k = static_cast<A>(m[j]) / (r2 * ref_sqrt(r2));
      for (int c = 0; c < 3; ++c) a[c * n + i] += g * k * d[c];
      abs_sum[i] += g * k * ref_sqrt(d2);
      if (j > i) energy -= g * static_cast<A>(m[i]) * m[j] / ref_sqrt(r2);
    }
  Reference ref;
  ref.a.assign(a.begin(), a.end());
  ref.abs_sum.assign(abs_sum.begin(), abs_sum.end());
  ref.energy = energy;
  return ref;
}

// float128 costs about a microsecond per interaction (software square root and division), so
// its systems stay small; N = 1001 is there to exercise the vector kernels' blocks and tails,
// which the scalar float128 loop does not have.
template <class Real>
std::size_t large_n() {
  return std::is_same_v<Real, float128> ? 101 : 1001;
}
// More sources than two tiles of the kernels (1024 fp64, 2048 fp32 sources), so that sums are
// carried from tile to tile; not a multiple of any block.
template <class Real>
std::size_t tiled_n() {
  return std::is_same_v<Real, float> ? 4503 : std::is_same_v<Real, double> ? 2503 : 101;
}

// The energy comes back as a double whatever Real is.
template <class Real>
constexpr double kEnergyRoundoff = std::max(kUnitRoundoff<Real>, 0x1p-53);

template <class Real>
float128 norm_at(const std::vector<Real>& a, std::size_t n, std::size_t i) {
  const float128 x = a[i], y = a[n + i], z = a[2 * n + i];
  return sqrtq(x * x + y * y + z * z);
}

// max_i |a_i − a_ref_i| / max_i |a_ref_i|, and the bound it must keep:
// (kTermRoundings + λ√N)(u + u_ref)·max_i Σ_j|term_ij| / max_i |a_ref_i|.
template <class Real>
void expect_close_to_reference(const std::vector<Real>& a, const Reference& ref, std::size_t n) {
  float128 max_err = 0, max_ref = 0, max_abs_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float128 e2 = 0;
    for (int c = 0; c < 3; ++c) {
      const float128 d = static_cast<float128>(a[c * n + i]) - ref.a[c * n + i];
      e2 += d * d;
    }
    max_err = std::max(max_err, sqrtq(e2));
    max_ref = std::max(max_ref, norm_at(ref.a, n, i));
    max_abs_sum = std::max(max_abs_sum, ref.abs_sum[i]);
  }
  if (max_ref == 0) {
    EXPECT_EQ(static_cast<double>(max_err), 0.0);
    return;
  }
  const double normalised = static_cast<double>(max_err / max_ref);
  const double conditioning = static_cast<double>(max_abs_sum / max_ref);
  const double tolerance = (kTermRoundings + kLambda * std::sqrt(static_cast<double>(n))) *
                           (kUnitRoundoff<Real> + kRefRoundoff<Real>) * conditioning;
  EXPECT_LE(normalised, tolerance) << "conditioning " << conditioning;
}

template <class Real>
std::vector<std::string> kernels_to_test() {
  if constexpr (std::is_same_v<Real, float128>) return {""};  // float128 is one scalar loop
  else return supported_cpu_kernel_names();
}


struct RealNames {
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, float> ? "fp32" : std::is_same_v<T, double> ? "fp64" : "fp128";
  }
};
using Reals = ::testing::Types<float, double, float128>;

}  // namespace
}  // namespace orrery

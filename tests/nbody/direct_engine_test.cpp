// SPDX-License-Identifier: MIT
// The direct CPU engine against a plain double loop in higher precision (long double for fp32
// and fp64, float128 for float128), for every instruction-set variant this CPU runs and every
// precision:
//   a_i = G Σ_{j≠i} m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2},   ε_ij² = (ε_i² + ε_j²)/2,
//   U   = −G Σ_{i<j} m_i m_j / (|x_j − x_i|² + ε_ij²)^{1/2}.
// Tolerances are error bounds of the computation, never fitted to what a run happened to give:
// a term's roundings are bounded as in N. J. Higham, Accuracy and Stability of Numerical
// Algorithms (2nd ed., 2002), §3; a sum of n terms by the probabilistic bound λ√n·u·Σ|term|
// of N. J. Higham and T. Mary, "A new approach to probabilistic rounding error analysis",
// SIAM J. Sci. Comput. 41(5), A2815 (2019), which holds with probability of about
// 1 − 2n·exp(−λ²/2) or more per sum, for rounding errors independent and of mean zero (the worst case, n·u·Σ|term|, is
// 5 to 30 times looser at these N).
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

template <class Real>
Result<Real> run_direct(const System& sys, const std::string& kernel, int threads) {
  EngineOptions options;
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

template <class Real>
class DirectEngineTest : public ::testing::Test {};
struct RealNames {
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, float> ? "fp32" : std::is_same_v<T, double> ? "fp64" : "fp128";
  }
};
using Reals = ::testing::Types<float, double, float128>;
TYPED_TEST_SUITE(DirectEngineTest, Reals, RealNames);

TYPED_TEST(DirectEngineTest, MatchesReferenceLoop) {
  using Real = TypeParam;
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, large_n<Real>()})
    for (Softening soft : {Softening::none, Softening::global, Softening::per_particle}) {
      const System sys = random_system(n, soft, 7 + n);
      const Reference ref = reference<Real>(sys);
      for (const auto& kernel : kernels_to_test<Real>()) {
        SCOPED_TRACE("N = " + std::to_string(n) + ", softening " +
                     std::to_string(static_cast<int>(soft)) + ", kernel '" + kernel + "'");
        const Result<Real> r = run_direct<Real>(sys, kernel, 2);
        expect_close_to_reference(r.a, ref, n);
        const double energy_tol = kEnergyRoundings * (kEnergyRoundoff<Real> + kRefRoundoff<Real>) *
                                  std::fabs(double(ref.energy));
        EXPECT_NEAR(r.energy, static_cast<double>(ref.energy), energy_tol);
        if (n == 1) {
          EXPECT_EQ(r.a, std::vector<Real>(3, Real(0)));
          EXPECT_EQ(r.energy, 0.0);
        }
      }
    }
}

TYPED_TEST(DirectEngineTest, MatchesReferenceLoopOverSeveralTiles) {
  using Real = TypeParam;
  if constexpr (std::is_same_v<Real, float128>) GTEST_SKIP() << "one scalar loop, no tiles";
  const std::size_t n = tiled_n<Real>();
  const System sys = random_system(n, Softening::per_particle, 23);
  const Reference ref = reference<Real>(sys);
  for (const auto& kernel : kernels_to_test<Real>()) {
    SCOPED_TRACE("kernel '" + kernel + "'");
    const Result<Real> r = run_direct<Real>(sys, kernel, 2);
    expect_close_to_reference(r.a, ref, n);
  }
}

// Σ m_i a_i = 0 exactly; computed, each a_i is off by at most its bound
// (kTermRoundings + λ√N) u Σ_j|term_ij|, hence |Σ m_i a_i| / Σ m_i |a_i| ≤
// (kTermRoundings + λ√N) u Σ m_i Σ_j|term_ij| / Σ m_i |a_i|.
TYPED_TEST(DirectEngineTest, ConservesMomentumToRounding) {
  using Real = TypeParam;
  const std::size_t n = large_n<Real>();
  const System sys = random_system(n, Softening::per_particle, 11);
  const Reference ref = reference<Real>(sys);
  const auto m = rounded<Real>(sys.mass);
  for (const auto& kernel : kernels_to_test<Real>()) {
    SCOPED_TRACE("kernel '" + kernel + "'");
    const Result<Real> r = run_direct<Real>(sys, kernel, 2);
    float128 p[3] = {0, 0, 0}, scale = 0, bound_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) p[c] += static_cast<float128>(m[i]) * r.a[c * n + i];
      scale += m[i] * norm_at(r.a, n, i);
      bound_sum += m[i] * ref.abs_sum[i];
    }
    const double imbalance =
        static_cast<double>(sqrtq(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) / scale);
    const double bound = (kTermRoundings + kLambda * std::sqrt(static_cast<double>(n))) *
                         (kUnitRoundoff<Real> + kRefRoundoff<Real>) *
                         static_cast<double>(bound_sum / scale);
    EXPECT_LE(imbalance, bound);
    // Not a vacuous bound: well below what one missing interaction would leave.
    EXPECT_LT(bound, 1e-3);
  }
}

// The same bits for 1, 2 and 3 threads and on a repeated run.
TYPED_TEST(DirectEngineTest, BitIdenticalAcrossThreadCounts) {
  using Real = TypeParam;
  const std::size_t n = tiled_n<Real>();
  const System sys = random_system(n, Softening::per_particle, 5);
  for (const auto& kernel : kernels_to_test<Real>()) {
    SCOPED_TRACE("kernel '" + kernel + "'");
    const Result<Real> one = run_direct<Real>(sys, kernel, 1);
    for (int threads : {1, 2, 3}) {
      const Result<Real> r = run_direct<Real>(sys, kernel, threads);
      EXPECT_EQ(std::memcmp(r.a.data(), one.a.data(), r.a.size() * sizeof(Real)), 0)
          << threads << " threads";
      EXPECT_EQ(std::memcmp(&r.energy, &one.energy, sizeof(double)), 0) << threads << " threads";
    }
  }
}

// Two bodies, softened with a global ε and per particle: the closed form
//   a_0 = G m_1 d / (r² + ε²)^{3/2},  a_1 = −G m_0 d / (r² + ε²)^{3/2},  U = −G m_0 m_1/√(r² + ε²).
TYPED_TEST(DirectEngineTest, TwoBodySoftenedClosedForm) {
  using Real = TypeParam;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> pos(-2.0, 2.0), mass(0.1, 3.0), eps(0.0, 0.5);
  for (const auto& kernel : kernels_to_test<Real>())
    for (int trial = 0; trial < 50; ++trial) {
      System sys;
      sys.g = 0.7;
      sys.x = {pos(rng), pos(rng), pos(rng), pos(rng), pos(rng), pos(rng)};
      sys.mass = {mass(rng), mass(rng)};
      if (trial % 2 == 0) sys.eps = eps(rng);
      else sys.softening = {eps(rng), eps(rng)};
      const auto x = rounded<Real>(sys.x);
      const auto m = rounded<Real>(sys.mass);
      const float128 e0 = sys.softening.empty() ? Real(sys.eps) : Real(sys.softening[0]);
      const float128 e1 = sys.softening.empty() ? Real(sys.eps) : Real(sys.softening[1]);
      // x is [x0 x1 y0 y1 z0 z1]
      const float128 d[3] = {float128(x[1]) - x[0], float128(x[3]) - x[2], float128(x[5]) - x[4]};
      const float128 r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + (e0 * e0 + e1 * e1) / 2;
      const float128 f = float128(sys.g) / (r2 * sqrtq(r2));
      const Result<Real> r = run_direct<Real>(sys, kernel, 1);
      // The closed form is evaluated in float128 (a few roundings of 2⁻¹¹³ of its own).
      const double tol = kTermRoundings * (kUnitRoundoff<Real> + 0x1p-113);
      for (int c = 0; c < 3; ++c) {
        const float128 a0 = f * m[1] * d[c], a1 = -f * m[0] * d[c];
        const float128 scale0 = f * m[1] * sqrtq(r2), scale1 = f * m[0] * sqrtq(r2);
        EXPECT_LE(double(fabsq(r.a[2 * c] - a0) / scale0), tol) << kernel << " trial " << trial;
        EXPECT_LE(double(fabsq(r.a[2 * c + 1] - a1) / scale1), tol) << kernel << " trial " << trial;
      }
      const float128 u = -float128(sys.g) * m[0] * m[1] / sqrtq(r2);
      EXPECT_LE(double(fabsq((r.energy - u) / u)),
                kEnergyRoundings * (kEnergyRoundoff<Real> + 0x1p-113))
          << kernel << " trial " << trial;
    }
}

// One unit mass at the origin and massless bodies at distances whose squares are exact: each
// massless body's acceleration is one term, −x̂/r², computed to within kExactPairUlps. This
// holds each variant's 1/r³ (hardware estimate and refinement) to its stated accuracy.
TYPED_TEST(DirectEngineTest, PairFactorWithinFourUlps) {
  using Real = TypeParam;
  if constexpr (std::is_same_v<Real, float128>) GTEST_SKIP() << "no estimate to refine";
  const std::size_t n = 4096;
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> radius(0.5, 2.0);
  std::uniform_int_distribution<int> scale(-8, 8);
  constexpr int kHalfDigits = std::numeric_limits<Real>::digits / 2;  // r² exact in Real
  System sys;
  sys.x.assign(3 * n, 0.0);
  sys.mass.assign(n, 0.0);
  sys.mass[0] = 1.0;
  // Distinct places: two massless bodies at one place with ε = 0 would give 0·∞.
  std::set<double> taken;
  for (std::size_t i = 1; i < n; ++i) {
    double r;
    do {
      r = std::ldexp(std::round(std::ldexp(radius(rng), kHalfDigits - 1)),
                     scale(rng) - kHalfDigits + 1);
      if (i % 2) r = -r;
    } while (!taken.insert(r).second);
    sys.x[i] = r;
  }
  for (const auto& kernel : kernels_to_test<Real>()) {
    const Result<Real> res = run_direct<Real>(sys, kernel, 2);
    double worst = 0;
    for (std::size_t i = 1; i < n; ++i) {
      const float128 r = static_cast<Real>(sys.x[i]);
      const float128 exact = -r / (fabsq(r) * r * r);
      worst = std::max(worst, double(fabsq((res.a[i] - exact) / exact)));
      ASSERT_EQ(res.a[n + i], Real(0));
    }
    EXPECT_LE(worst / kUnitRoundoff<Real>, kExactPairUlps) << kernel;
  }
}

// The generic variant keeps the IEEE formula m/(r²·√r²) of physics/softened_pair.hpp, so it
// reproduces the plain scalar loop bit for bit.
TYPED_TEST(DirectEngineTest, GenericVariantIsThePlainLoopBitForBit) {
  using Real = TypeParam;
  if constexpr (std::is_same_v<Real, float128>) GTEST_SKIP() << "float128 has one variant";
  const std::size_t n = 300;
  const System sys = random_system(n, Softening::per_particle, 13);
  const auto x = rounded<Real>(sys.x), m = rounded<Real>(sys.mass),
             soft = rounded<Real>(sys.softening);
  std::vector<Real> plain(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    Vec3<Real> acc{0, 0, 0};
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const Real eps2 = (soft[i] * soft[i] + soft[j] * soft[j]) * Real(0.5);
      accumulate_softened_pull(Vec3<Real>{x[i], x[n + i], x[2 * n + i]},
                               Vec3<Real>{x[j], x[n + j], x[2 * n + j]}, m[j], eps2, acc);
    }
    const Real g = static_cast<Real>(sys.g);
    plain[i] = g * acc.x;
    plain[n + i] = g * acc.y;
    plain[2 * n + i] = g * acc.z;
  }
  const Result<Real> r = run_direct<Real>(sys, "generic", 2);
  EXPECT_EQ(std::memcmp(r.a.data(), plain.data(), plain.size() * sizeof(Real)), 0);
}

// fp64 systems whose r² lies outside fp32's range (galaxies in SI units: r ~ 10²¹ m), where
// the AVX2 variant's fp32 estimate is 0 or ∞ and its range check must take the IEEE path.
TEST(DirectEngine, Fp64BeyondFp32Range) {
  for (double length : {1e21, 1e-21})
    for (const auto& kernel : supported_cpu_kernel_names()) {
      SCOPED_TRACE("length " + std::to_string(length) + ", kernel " + kernel);
      System sys = random_system(101, Softening::global, 17);
      for (auto& v : sys.x) v *= length;
      for (auto& m : sys.mass) m *= 1e40;
      sys.eps *= length;
      sys.g = 6.674e-11;
      const Reference ref = reference<double>(sys);
      const Result<double> r = run_direct<double>(sys, kernel, 2);
      expect_close_to_reference(r.a, ref, sys.n());
      EXPECT_NEAR(r.energy, double(ref.energy),
                  kEnergyRoundings * (0x1p-53 + 0x1p-64) * std::fabs(double(ref.energy)));
    }
}

TEST(DirectEngine, RefusesUnknownKernel) {
  EngineOptions options;
  options.cpu_kernel = "avx1024";
  EXPECT_THROW(make_force_engine<double>("direct", options), ParameterError);
  EXPECT_FALSE(supported_cpu_kernel_names().empty());
  EXPECT_EQ(supported_cpu_kernel_names().back(), "generic");
}

TEST(DirectEngine, EmptySystem) {
  const System sys;
  const Result<double> r = run_direct<double>(sys, "", 2);
  EXPECT_TRUE(r.a.empty());
  EXPECT_EQ(r.energy, 0.0);
}

}  // namespace
}  // namespace orrery

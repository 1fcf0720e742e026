// SPDX-License-Identifier: MIT
// The direct CPU engine's pair interaction itself: the softened two-body closed form, the pair
// factor of each instruction-set variant within its bound, the generic variant as the plain
// loop bit for bit, the fp64 range, and the refusals (bounds as in direct_engine_test.cpp).
#include "nbody/direct_engine_fixture.hpp"

namespace orrery {
namespace {

template <class Real>
class DirectEnginePairTest : public ::testing::Test {};
TYPED_TEST_SUITE(DirectEnginePairTest, Reals, RealNames);

TYPED_TEST(DirectEnginePairTest, TwoBodySoftenedClosedForm) {
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
TYPED_TEST(DirectEnginePairTest, PairFactorWithinFourUlps) {
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
TYPED_TEST(DirectEnginePairTest, GenericVariantIsThePlainLoopBitForBit) {
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

TEST(DirectEngine, RefusesTargetsPerThreadOtherThanTwoFourOrEight) {
  EngineOptions options;
  for (int t : {-1, 1, 3, 16}) {
    options.targets_per_thread = t;
    try {
      make_force_engine<double>("direct", options);
      ADD_FAILURE() << t << " targets per thread accepted";
    } catch (const ParameterError& e) {
      EXPECT_NE(std::string(e.what()).find("2, 4 or 8"), std::string::npos) << e.what();
    }
  }
  for (int t : {0, 2, 4, 8}) {
    options.targets_per_thread = t;
    EXPECT_NO_THROW(make_force_engine<double>("direct", options));
  }
}

TEST(DirectEngine, EmptySystem) {
  const System sys;
  const Result<double> r = run_direct<double>(sys, "", 2);
  EXPECT_TRUE(r.a.empty());
  EXPECT_EQ(r.energy, 0.0);
}

}  // namespace
}  // namespace orrery

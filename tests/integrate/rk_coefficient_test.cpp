// SPDX-License-Identifier: MIT
// Every Runge–Kutta coefficient of the library reaches each precision rounded once from its
// source (runge_kutta/coefficient.hpp): the compiler's double of a published decimal is
// glibc's strtod of the same digits; the float a run uses (the double rounded to float) is the
// float nearest the exact value (strtof, or p/q in float); a fraction's double is its one
// division; and ArrayDevice::combine takes as many terms as the largest table has stages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "orrery/core/float128.hpp"
#include "orrery/device/cpu/host_array_device.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/runge_kutta/adaptive_array_stepper.hpp"

namespace orrery {
namespace {

// Every coefficient of table T, with a label.
template <class T>
void for_each_coefficient(auto&& f) {
  for (int i = 0; i < T::stages; ++i) {
    for (int j = 0; j < i; ++j) f(as_coefficient(T::a(i, j)), "a");
    f(as_coefficient(T::b(i)), "b");
    f(as_coefficient(T::c(i)), "c");
    if constexpr (requires { T::b_embedded(0); }) f(as_coefficient(T::b_embedded(i)), "b_hat");
    if constexpr (requires { T::error_weight(0); }) f(as_coefficient(T::error_weight(i)), "e");
  }
}

template <class F>
void for_each_runge_kutta_table(F&& f) {
  auto one = [&]<class T>() {
    if constexpr (T::family == IntegratorFamily::explicit_runge_kutta) f.template operator()<T>();
  };
  [&]<class... Tables>(TableList<Tables...>) {
    (one.template operator()<Tables>(), ...);
  }(IntegratorTables{});
}

// Below 2²⁴ a fraction's integers are exact in float too, so p/q in float is correctly rounded.
constexpr double kExactInFloat = 1 << 24;

TEST(RkCoefficients, EachPrecisionHasTheValueRoundedOnce) {
  int decimals = 0, fractions = 0;
  for_each_runge_kutta_table([&]<class T>() {
    for_each_coefficient<T>([&](const RkCoefficient& c, const char* what) {
      const std::string where = std::string(T::name) + " " + what;
      if (c.decimal) {
        ++decimals;
        EXPECT_EQ(c.value, std::strtod(c.decimal, nullptr)) << where << " " << c.decimal;
        EXPECT_EQ(static_cast<float>(c.value), std::strtof(c.decimal, nullptr))
            << where << " " << c.decimal;
      } else {
        ++fractions;
        EXPECT_EQ(c.value, c.numerator / c.denominator) << where;
        if (std::abs(c.numerator) < kExactInFloat && c.denominator < kExactInFloat) {
          EXPECT_EQ(static_cast<float>(c.value),
                    static_cast<float>(c.numerator) / static_cast<float>(c.denominator))
              << where << " " << c.numerator << "/" << c.denominator;
        }
      }
    });
  });
  EXPECT_GT(decimals, 500);  // the Feagin and DOP853 tables
  EXPECT_GT(fractions, 100);
}

// float128 takes the digits beyond a double's: a third times 3 is exactly 1, a Feagin node reads
// back to 33 digits, and b − b̂ is the difference of the exact values rounded once.
TEST(RkCoefficients, Float128KeepsTheDigitsBeyondDouble) {
  const RkCoefficient third = fraction(1, 3);
  EXPECT_EQ(coefficient_as<float128>(third) * 3, float128(1));
  EXPECT_NE(coefficient_as<float128>(third), float128(third.value));
  const RkCoefficient c = ORRERY_DECIMAL(0.277429188517743176508360262560654340428504319718040836339472);
  const float128 q = coefficient_as<float128>(c);
  EXPECT_NE(q, float128(c.value));
  EXPECT_EQ(to_string(q, 33), "0.277429188517743176508360262560654");
  EXPECT_EQ(coefficient_as<double>(c), c.value);
  EXPECT_EQ(coefficient_as<float>(c), static_cast<float>(c.value));
  EXPECT_EQ(coefficient_difference<float128>(fraction(1, 3), fraction(1, 6)),
            coefficient_as<float128>(fraction(1, 6)));
}

// A combine of as many nonzero terms as feagin14 has stages, in the order of the contract.
TEST(RkCoefficients, CombineTakesEveryStageOfTheLargestTable) {
  constexpr int kTerms = Feagin14::stages;
  HostArrayDevice<float128> device(1);
  auto y = device.allocate(1), out = device.allocate(1);
  std::vector<DeviceBuffer<float128>> k;
  std::vector<const DeviceBuffer<float128>*> ks;
  std::vector<float128> c;
  const std::vector<float128> one{1};
  for (int j = 0; j < kTerms; ++j) {
    k.push_back(device.allocate(1));
    device.copy_to_device(one, k.back());
  }
  for (int j = 0; j < kTerms; ++j) ks.push_back(&k[static_cast<std::size_t>(j)]), c.push_back(j + 1);
  device.combine(out, y, float128(2), c, ks);
  std::vector<float128> result(1);
  device.copy_to_host(out, result);
  EXPECT_EQ(result[0], float128(kTerms * (kTerms + 1)));  // 2 · Σ_{j=1}^{35} j
}

}  // namespace
}  // namespace orrery

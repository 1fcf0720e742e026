// SPDX-License-Identifier: MIT
// A coefficient of a Runge–Kutta table held at the precision it was published in, so that each
// precision a run uses gets it rounded once, from the same source:
//
//   an exact fraction p/q        fraction(p, q): double p/q (one correctly rounded division),
//                                __float128 p/q likewise — exact to 113 bits;
//   a published decimal          ORRERY_DECIMAL(0.1234…): the compiler rounds the literal to double
//                                (correctly, as it rounds every literal), libquadmath's strtoflt128
//                                rounds its digits to __float128.
//
// A float run uses the double rounded to float, the bits it has always used (a second rounding
// that differs from rounding the exact value only where the double falls on a float tie:
// runge_kutta_tables_test.cpp checks none does). Sums of coefficients (b − b̂ of an error
// estimate) are formed in double for float and double runs and in __float128 for float128 runs.
// The double value is a constant of the tables that ORRERY_HD code (CUDA kernels included) reads;
// the __float128 one is converted on the host, once per coefficient.
#pragma once

#include <type_traits>

#include "orrery/core/hd.hpp"

#if !defined(__CUDACC__)
#include <cstdlib>

#include "orrery/core/float128.hpp"
#endif

namespace orrery {

struct RkCoefficient {
  double value = 0;                       // rounded to double
  double numerator = 0, denominator = 1;  // the exact value, when `decimal` is null
  const char* decimal = nullptr;          // the published digits
};

// p/q with integers |p|, |q| ≤ 2⁵³, exact in double and __float128 before the one division.
constexpr RkCoefficient fraction(long long p, long long q = 1) {
  constexpr long long kExactInDouble = 1LL << 53;
  if (q <= 0 || p > kExactInDouble || -p > kExactInDouble || q > kExactInDouble)
    throw "fraction: numerator and denominator must be integers of at most 2^53, q > 0";
  return {static_cast<double>(p) / static_cast<double>(q), static_cast<double>(p),
          static_cast<double>(q), nullptr};
}

// A double that is the coefficient itself (0, 1, 1/2: the dyadic tables).
ORRERY_HD constexpr RkCoefficient as_coefficient(double exact) { return {exact, exact, 1, nullptr}; }
ORRERY_HD constexpr RkCoefficient as_coefficient(const RkCoefficient& c) { return c; }

// A nonzero entry a_ij of a table that lists only those (the large Feagin tables).
struct RkEntry {
  int row, column;
  RkCoefficient value;
};

// The precision in which a run in `Real` forms its coefficients before rounding them to Real.
template <class Real>
struct CoefficientPrecision {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>,
                "coefficients are rounded to float, double or float128");
  using type = double;
};
template <class Real>
using coefficient_precision_t = typename CoefficientPrecision<Real>::type;

template <class Wide>
struct ExactCoefficient {
  ORRERY_HD static constexpr double of(const RkCoefficient& c) { return c.value; }
};

#if !defined(__CUDACC__)
template <>
struct CoefficientPrecision<float128> {
  using type = float128;
};
template <>
struct ExactCoefficient<float128> {
  static float128 of(const RkCoefficient& c) {
    return c.decimal ? strtoflt128(c.decimal, nullptr)
                     : float128(c.numerator) / float128(c.denominator);
  }
};
#endif

// The coefficient rounded to Real as described above.
template <class Real>
Real coefficient_as(const RkCoefficient& c) {
  return static_cast<Real>(ExactCoefficient<coefficient_precision_t<Real>>::of(c));
}
// c − d, formed in the coefficient precision of Real, then rounded to Real.
template <class Real>
Real coefficient_difference(const RkCoefficient& c, const RkCoefficient& d) {
  using Wide = coefficient_precision_t<Real>;
  return static_cast<Real>(ExactCoefficient<Wide>::of(c) - ExactCoefficient<Wide>::of(d));
}

}  // namespace orrery

// The published decimal `x` as a coefficient: its digits once, read by the compiler for double
// and by strtoflt128 for __float128.
#define ORRERY_DECIMAL(x) (::orrery::RkCoefficient{x, 0, 1, #x})

// SPDX-License-Identifier: MIT
// A polynomial in up to three coordinates in canonical form, for the potential of
//
//   H = |p|²/2 + V(q),   V(q) = Σ v_abc x^a y^b z^c,
//
// with its exact derivatives ∂V/∂q_i = Σ a v_abc x^(a−1) y^b z^c (and so on), and the packing
// of V, ∇V and the Hessian into the fixed-size PolynomialPotential a kernel evaluates
// (physics/polynomial.hpp). Derivatives act on the canonical form, so every coefficient of ∇V
// and of the Hessian is an integer multiple of one of V's and rounds once to the lane's type.
//
// Coefficients are IEEE binary128 (113-bit significand): the text's numbers are rational, but
// exact rationals overflow fixed-width integers once decimals are raised to powers, and 60 bits
// beyond double carry every expansion accepted here (degree ≤ kMaxPotentialDegree) to the same
// double as exact arithmetic but for cancellation of more than 60 bits; integers and binary
// fractions stay exact; a sum that cancels to binary128's rounding is taken as zero (the
// parser's accumulate). Reference: IEEE 754-2008, §3.6 (binary128).
#pragma once

#if defined(__CUDACC__)
#error "orrery/physics/polynomial_terms.hpp is host-only"
#endif

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/physics/polynomial.hpp"

namespace orrery {

// c · x^power[0] · y^power[1] · z^power[2].
struct PolynomialTerm {
  std::array<int, 3> power{};
  float128 coefficient = 0;
  int degree() const { return power[0] + power[1] + power[2]; }
};

// The smallest PolynomialPotential that holds a polynomial: its degree (at least 2) and the
// parity word of V (even in each coordinate whose powers are all even).
struct PotentialShape {
  int dimension = 0;
  int degree = 2;
  unsigned parity = 0;
};

class PolynomialTerms {
 public:
  PolynomialTerms() = default;
  // Terms with the same powers are summed, and zero coefficients dropped; `dimension` is the
  // number of coordinates of the problem (1 to 3), which bounds the variables used.
  PolynomialTerms(std::vector<PolynomialTerm> terms, int dimension);

  // In graded order: by degree, then by the powers of x, y, z, highest first.
  const std::vector<PolynomialTerm>& terms() const { return terms_; }
  int dimension() const { return dimension_; }
  // −1 for the zero polynomial.
  int degree() const;
  // 1 + the highest coordinate with a power in some term (0 for a constant): the dimension a
  // problem needs for this V, when the text alone sets it (parse with dimension 3 first).
  int coordinates_used() const;
  // Whether every power of coordinate i is even.
  bool even_in(int i) const;
  PotentialShape shape() const;

  // ∂/∂q_i.
  PolynomialTerms derivative(int i) const;
  // Value at q in binary128, for checks against the rounded form.
  float128 value(const std::array<float128, 3>& q) const;
  // "0.5*x^2 + x^2*y - 0.333333333333333315*y^3": each coefficient as the shortest text that
  // reads back to the same double.
  std::string text() const;

 private:
  std::vector<PolynomialTerm> terms_;
  int dimension_ = 1;
};

// The coefficient rounded once to Real; a coefficient beyond Real's range is refused under the
// parameter's name.
template <class Real>
Real rounded_coefficient(float128 c, const char* parameter) {
  const Real r = static_cast<Real>(c);
  if (!std::isfinite(r))
    throw ParameterError(parameter, to_string(c, 20),
                         "coefficients within the range of the chosen precision");
  return r;
}

template <class Real, int D, int N, unsigned Parity>
void pack_polynomial(const PolynomialTerms& p, DensePolynomial<Real, D, N, Parity>& out,
                     const char* parameter) {
  for (auto& c : out.coefficient) c = Real(0);
  for (const auto& t : p.terms()) {
    const int index = monomial_index(D, N, t.power.data(), Parity);
    bool beyond = false;
    for (int i = D; i < 3; ++i) beyond = beyond || t.power[i] != 0;
    if (index < 0 || beyond)
      throw std::logic_error("pack_polynomial: a term outside the chosen shape");
    out.coefficient[index] = rounded_coefficient<Real>(t.coefficient, parameter);
  }
}

// V, ∇V and the Hessian of `v` in the shape <D, N, Parity>, which must hold v's shape: D equal
// to v.dimension(), N ≥ v.shape().degree, and v even in each coordinate that Parity calls even
// (physics/polynomial_dispatch.hpp chooses such a shape).
template <class Real, int D, int N, unsigned Parity>
PolynomialPotential<Real, D, N, Parity> pack_potential(const PolynomialTerms& v,
                                                       const char* parameter = "potential") {
  if (v.dimension() != D || v.degree() > N)
    throw std::logic_error("pack_potential: the potential does not fit the chosen shape");
  PolynomialPotential<Real, D, N, Parity> out{};
  pack_polynomial(v, out.value, parameter);
  static_for<0, D>(
      [&](auto i) { pack_polynomial(v.derivative(i), get<i>(out.gradient), parameter); });
  static_for<0, D*(D + 1) / 2>([&](auto k) {
    constexpr int i = hessian_row(D, k), j = hessian_column(D, k);
    pack_polynomial(v.derivative(i).derivative(j), get<k>(out.hessian), parameter);
  });
  return out;
}

}  // namespace orrery

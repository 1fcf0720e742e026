// SPDX-License-Identifier: MIT
// Implicit Runge–Kutta methods of collocation type for x'' = a(x), as partitioned Runge–Kutta
// methods (Hairer, Nørsett & Wanner I, §II.7 and §IV.5 of vol. II; Hairer, Lubich & Wanner,
// "Geometric Numerical Integration", §II.1–II.2):
//
//   X_i = x + h Σ_j a_ij V_j,   V_i = v + h Σ_j â_ij A_j,   A_i = a(X_i),   i = 1..s
//   x  ← x + h Σ_i b_i V_i,     v  ← v + h Σ_i b_i A_i
//
// A table names its nodes c_1 < … < c_s in closed form; everything else follows from them
// (implicit/nystrom_coefficients.hpp): a_ij = ∫₀^{c_i} ℓ_j, b_j = ∫₀¹ ℓ_j for the Lagrange
// polynomials ℓ_j of the nodes (collocation), and â = a, or for a partitioned table the partner
// â_ij = b_j (1 − a_ji / b_i) that makes the pair symplectic (GNI Theorem VI.4.6). The nodes are
// functions of the real type, so float128 gets them, and the coefficients, to its own precision.
//
// The Gauss–Legendre methods (nodes: the zeros of the shifted Legendre polynomial P_s(2c − 1))
// are symplectic and symmetric, of order 2s (Butcher 1964; GNI §II.1.3). The Lobatto IIIA–IIIB
// pair (nodes: the zeros of c(1 − c) P'_{s−1}(2c − 1)) is symplectic for separable H and
// symmetric, of order 2s − 2 (GNI §II.2.2). The implicit trapezoidal rule, Lobatto IIIA with
// s = 2, is symmetric, of order 2, but not symplectic (its partner would make it leapfrog).
#pragma once

#include <array>
#include <concepts>

#include "orrery/core/hd_math.hpp"
#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

// The implicit trapezoidal rule: x_{n+1} = x + h (v + v_{n+1})/2, v_{n+1} = v + h (a(x) +
// a(x_{n+1}))/2. Nodes 0, 1.
struct TrapezoidalRule {
  static constexpr const char* name = "trapezoid";
  static constexpr IntegratorFamily family = IntegratorFamily::implicit_runge_kutta;
  static constexpr const char* description = "implicit trapezoidal rule (Lobatto IIIA), 2 stages";
  static constexpr int order = 2;
  static constexpr int stages = 2;
  static constexpr bool partitioned = false;
  static constexpr bool symplectic = false;
  template <class Real>
  static std::array<Real, stages> nodes() {
    return {Real(0), Real(1)};
  }
};

// Gauss–Legendre, 2 stages, order 4: c = 1/2 ∓ √3/6.
struct GaussLegendre4 {
  static constexpr const char* name = "gauss-legendre4";
  static constexpr IntegratorFamily family = IntegratorFamily::implicit_runge_kutta;
  static constexpr const char* description = "Gauss–Legendre collocation, 2 stages";
  static constexpr int order = 4;
  static constexpr int stages = 2;
  static constexpr bool partitioned = false;
  static constexpr bool symplectic = true;
  template <class Real>
  static std::array<Real, stages> nodes() {
    const Real half(0.5), d = sqrt(Real(3)) / Real(6);
    return {half - d, half + d};
  }
};

// Gauss–Legendre, 3 stages, order 6: c = 1/2 − √15/10, 1/2, 1/2 + √15/10.
struct GaussLegendre6 {
  static constexpr const char* name = "gauss-legendre6";
  static constexpr IntegratorFamily family = IntegratorFamily::implicit_runge_kutta;
  static constexpr const char* description = "Gauss–Legendre collocation, 3 stages";
  static constexpr int order = 6;
  static constexpr int stages = 3;
  static constexpr bool partitioned = false;
  static constexpr bool symplectic = true;
  template <class Real>
  static std::array<Real, stages> nodes() {
    const Real half(0.5), d = sqrt(Real(15)) / Real(10);
    return {half - d, half, half + d};
  }
};

// Gauss–Legendre, 4 stages, order 8: c = (1 ∓ u)/2 with u² = 3/7 ± (2/7)√(6/5), the zeros of
// P_4(u) = (35u⁴ − 30u² + 3)/8.
struct GaussLegendre8 {
  static constexpr const char* name = "gauss-legendre8";
  static constexpr IntegratorFamily family = IntegratorFamily::implicit_runge_kutta;
  static constexpr const char* description = "Gauss–Legendre collocation, 4 stages";
  static constexpr int order = 8;
  static constexpr int stages = 4;
  static constexpr bool partitioned = false;
  static constexpr bool symplectic = true;
  template <class Real>
  static std::array<Real, stages> nodes() {
    const Real half(0.5), r = Real(2) / Real(7) * sqrt(Real(6) / Real(5));
    const Real outer = sqrt(Real(3) / Real(7) + r) / Real(2);
    const Real inner = sqrt(Real(3) / Real(7) - r) / Real(2);
    return {half - outer, half - inner, half + inner, half + outer};
  }
};

// The Lobatto IIIA–IIIB pair, 3 stages, order 4: c = 0, 1/2, 1; IIIA (collocation) for the
// positions, IIIB (its symplectic partner) for the velocities.
struct LobattoIIIAB4 {
  static constexpr const char* name = "lobatto3ab4";
  static constexpr IntegratorFamily family = IntegratorFamily::implicit_runge_kutta;
  static constexpr const char* description = "Lobatto IIIA–IIIB partitioned pair, 3 stages";
  static constexpr int order = 4;
  static constexpr int stages = 3;
  static constexpr bool partitioned = true;
  static constexpr bool symplectic = true;
  template <class Real>
  static std::array<Real, stages> nodes() {
    return {Real(0), Real(0.5), Real(1)};
  }
};

// A type is a collocation table when it has s nodes in any real type.
template <class T>
concept CollocationTable = requires {
  { T::stages } -> std::convertible_to<int>;
  { T::partitioned } -> std::convertible_to<bool>;
  T::template nodes<double>();
};

}  // namespace orrery

// SPDX-License-Identifier: MIT
// A user's polynomial Hamiltonian as an ensemble problem (ensemble/ensemble_problem.hpp):
//
//   H = |p|²/2 + V(q),   a = −∇V(q),   V a polynomial in D ≤ 3 coordinates (physics/polynomial.hpp)
//
// one problem per compiled shape <D, N, Parity> (degree bound N, parities as parity_word); the
// catalogue lists a few (ensemble/ensemble_catalogue.hpp) and the job packs a parsed potential
// into the first that holds it (ensemble/problems/polynomial/polynomial_choice.hpp). The
// coefficients are the problem's Data, shared by every trajectory: a kernel argument on the GPU,
// packed once in each lane precision so that no lane converts a coefficient in its loop.
#pragma once

#include <array>
#include <string_view>

#include "orrery/core/hd_math.hpp"
#include "orrery/physics/polynomial.hpp"

namespace orrery {

// The gradient sizes the CPU lanes inline: Hénon–Heiles' shape (6 coefficients) and the 1-D one.
inline constexpr int kInlineGradientCoefficients = 16;

template <int D, int N, unsigned Parity>
struct PolynomialProblem {
  static constexpr std::string_view name = "polynomial";
  static constexpr std::string_view description =
      "H = |p|^2/2 + V(q), V a polynomial in up to 3 coordinates given by --potential";
  static constexpr bool second_order = true;
  static constexpr int coordinates = D;
  static constexpr int parameters = 0;
  static constexpr int degree = N;
  static constexpr unsigned parity = Parity;
  static constexpr std::array<std::string_view, 2 * D> state_names = [] {
    constexpr std::string_view all[6] = {"x", "y", "z", "px", "py", "pz"};
    std::array<std::string_view, 2 * D> names{};
    for (int c = 0; c < D; ++c) names[c] = all[c], names[D + c] = all[3 + c];
    return names;
  }();
  static constexpr std::array<std::string_view, 0> parameter_names{};
  static constexpr std::array<double, 0> parameter_defaults{};
  static constexpr std::array<double, 2 * D> state_defaults{};
  static constexpr bool has_energy = true;
  static constexpr bool needs_data = true;
  // Where ∇V has more than a few coefficients, the CPU lanes call the field rather than inline
  // it in every stage of every integrator (src/ensemble/cpu/ensemble_lanes.cpp says why); the
  // GPU kernel, compiled once, inlines it.
  static constexpr bool field_out_of_line =
      D * monomial_count(D, N - 1) > kInlineGradientCoefficients;

  template <class Real>
  using Potential = PolynomialPotential<Real, D, N, Parity>;
  struct Data {
    Potential<double> fp64;
    Potential<float> fp32;
  };

  template <class T>
  struct Field {
    const Potential<lane_scalar_t<T>>* v;
    ORRERY_HD void operator()(const T (&q)[D], T (&a)[D]) const {
      gradient(*v, q, a);
      for (int i = 0; i < D; ++i) a[i] = -a[i];
    }
  };
  template <class T, class Parameters>
  ORRERY_HD static Field<T> field(const Data& data, const Parameters&) {
    if constexpr (sizeof(lane_scalar_t<T>) == sizeof(float))
      return {&data.fp32};
    else
      return {&data.fp64};
  }

  ORRERY_HD static double potential(const Data& data, const double*, const double* q) {
    double at[D];
    for (int i = 0; i < D; ++i) at[i] = q[i];
    return evaluate(data.fp64.value, at);
  }
  ORRERY_HD static double energy(const Data& data, const double* k, const double* y) {
    double kinetic = 0;
    for (int i = 0; i < D; ++i) kinetic += y[D + i] * y[D + i];
    return 0.5 * kinetic + potential(data, k, y);
  }
};

}  // namespace orrery

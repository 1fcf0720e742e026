// SPDX-License-Identifier: MIT
// The weights of the Adams methods (Hairer, Nørsett & Wanner, "Solving Ordinary Differential
// Equations I", §III.1, Tables 1.1 and 1.2), for y' = f(y) at equal steps h:
//
//   Adams–Bashforth, k steps, order k:   y_{n+1} = y_n + h Σ_{j=0}^{k−1} β_j f_{n−j}
//   Adams–Moulton, 3 steps, order 4:     y_{n+1} = y_n + h (β*_0 f_{n+1} + Σ_{j=1}^{3} β*_j f_{n+1−j})
//
// β_j integrates the polynomial through f_n, …, f_{n−k+1} over [t_n, t_{n+1}]; the weights
// assume those values lie exactly h apart, which is why a change of step invalidates a history.
// Every Adams table of the library (the map's Euler-started ones, multistep/adams_bashforth.hpp,
// and the sim's, multistep/adams_methods.hpp) reads its weights from here. Doubles: the
// non-dyadic ones (23/12, 55/24, 1901/720, …) carry one rounding each.
#pragma once

namespace orrery {

template <int K>
struct AdamsBashforthWeights;

template <>
struct AdamsBashforthWeights<1> {
  static constexpr double beta[1] = {1.0};
};
template <>
struct AdamsBashforthWeights<2> {
  static constexpr double beta[2] = {1.5, -0.5};
};
template <>
struct AdamsBashforthWeights<3> {
  static constexpr double beta[3] = {23.0 / 12, -16.0 / 12, 5.0 / 12};
};
template <>
struct AdamsBashforthWeights<4> {
  static constexpr double beta[4] = {55.0 / 24, -59.0 / 24, 37.0 / 24, -9.0 / 24};
};
template <>
struct AdamsBashforthWeights<5> {
  static constexpr double beta[5] = {1901.0 / 720, -2774.0 / 720, 2616.0 / 720, -1274.0 / 720,
                                     251.0 / 720};
};

// β*_0 … β*_3, of f_{n+1}, f_n, f_{n−1}, f_{n−2}.
struct AdamsMoulton4Weights {
  static constexpr double beta[4] = {9.0 / 24, 19.0 / 24, -5.0 / 24, 1.0 / 24};
};

}  // namespace orrery

// SPDX-License-Identifier: MIT
// The state of a small system held in registers (one trajectory per GPU thread or SIMD lane), for
// any lane type T (a scalar, or a SIMD vector holding one value of several trajectories):
//
//   PhaseState<E, N>       a second-order system x'' = a(x) (or H = T(p) + V(q) with T = |p|²/2):
//                          N positions x and N velocities v; an element E is one coordinate (T)
//                          or one body's three (Vec3<T>)
//   FirstOrderState<E, D>  a first-order system y' = f(y) of D elements
//
// The register steppers (integrate/*/register_stepper.hpp) are written once over the element
// type: the same tables advance three bodies of Vec3 and a Hamiltonian of two coordinates.
#pragma once

#include <type_traits>

#include "orrery/core/vec3.hpp"

namespace orrery {

template <class E, int N>
struct PhaseState {
  E x[N];
  E v[N];
};

template <class E, int D>
struct FirstOrderState {
  E y[D];
};

// The lane type of an element, and its words (lane values) per element.
template <class E>
struct ElementTraits {
  using Lane = E;
  static constexpr int words = 1;
  template <class F>
  ORRERY_HD static void for_each_word(E& e, F&& f) {
    f(e);
  }
};
template <class T>
struct ElementTraits<Vec3<T>> {
  using Lane = T;
  static constexpr int words = 3;
  template <class F>
  ORRERY_HD static void for_each_word(Vec3<T>& e, F&& f) {
    f(e.x), f(e.y), f(e.z);
  }
};
template <class E>
using element_lane_t = typename ElementTraits<E>::Lane;

// Lane values of a whole state, and its lane type.
template <class State>
struct StateTraits;
template <class E, int N>
struct StateTraits<PhaseState<E, N>> {
  using Lane = element_lane_t<E>;
  static constexpr int words = 2 * N * ElementTraits<E>::words;
};
template <class E, int D>
struct StateTraits<FirstOrderState<E, D>> {
  using Lane = element_lane_t<E>;
  static constexpr int words = D * ElementTraits<E>::words;
};

// Choice between two elements: a bool (one choice for every lane), or a mask with one choice
// per lane of a SIMD lane type.
template <class T, class M>
ORRERY_HD T select_element(const M& take_first, const T& first, const T& second) {
  if constexpr (std::is_same_v<M, bool>)
    return take_first ? first : second;
  else
    return lane_select(take_first, first, second);
}
template <class T, class M>
ORRERY_HD Vec3<T> select_element(const M& take_first, const Vec3<T>& first,
                                 const Vec3<T>& second) {
  return {select_element(take_first, first.x, second.x),
          select_element(take_first, first.y, second.y),
          select_element(take_first, first.z, second.z)};
}

}  // namespace orrery

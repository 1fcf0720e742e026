// SPDX-License-Identifier: MIT
// G SIMD vectors used as one lane type of G·N lanes (core/simd.hpp): every operation is applied
// to each vector in turn, so the G chains of a latency-bound step (Hénon–Heiles' force and its
// derivative: every operation waits for the one before) are independent instructions the core
// overlaps, and the fused multiply-add units stay busy (instruction-level parallelism). Lane i is
// lane i mod N of vector i / N; each lane's operations are the vector's, so every lane keeps the
// bits it has in one vector.
//
// Implements what generic ORRERY_HD code asks of a lane type: arithmetic, comparisons to a mask
// of the same shape, a value broadcast, a generator, lane access, and the LaneMath / LaneScalar /
// Rebind / LaneConvert specialisations of core/hd_math.hpp.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "orrery/core/simd.hpp"
#include "orrery/core/simd_log.hpp"

namespace orrery {

// The mask of a group: one mask per vector.
template <class M, int G>
struct SimdGroupMask {
  M part[G];

  SimdGroupMask() = default;
  ORRERY_HD explicit SimdGroupMask(bool b) {
    for (int g = 0; g < G; ++g) part[g] = M(b);
  }
  static constexpr std::size_t size() { return G * M::size(); }
  ORRERY_HD bool operator[](std::size_t i) const { return part[i / M::size()][i % M::size()]; }

  ORRERY_HD friend SimdGroupMask operator&&(const SimdGroupMask& a, const SimdGroupMask& b) {
    SimdGroupMask r;
    for (int g = 0; g < G; ++g) r.part[g] = a.part[g] && b.part[g];
    return r;
  }
  ORRERY_HD friend SimdGroupMask operator||(const SimdGroupMask& a, const SimdGroupMask& b) {
    SimdGroupMask r;
    for (int g = 0; g < G; ++g) r.part[g] = a.part[g] || b.part[g];
    return r;
  }
  ORRERY_HD friend SimdGroupMask operator!(const SimdGroupMask& a) {
    SimdGroupMask r;
    for (int g = 0; g < G; ++g) r.part[g] = !a.part[g];
    return r;
  }
};

template <class V, int G>
struct SimdGroup {
  static_assert(G >= 1);
  using value_type = typename V::value_type;
  using mask_type = SimdGroupMask<typename V::mask_type, G>;
  static constexpr std::size_t N = V::size();
  V part[G];

  SimdGroup() = default;
  ORRERY_HD SimdGroup(value_type x) {  // NOLINT: a scalar broadcasts, as for a simd vector
    for (int g = 0; g < G; ++g) part[g] = V(x);
  }
  // Lane i = gen(integral_constant<size_t, i>), as simd's generator constructor.
  template <class Gen>
    requires std::is_invocable_v<Gen, std::integral_constant<std::size_t, 0>>
  ORRERY_HD explicit SimdGroup(Gen&& gen) {
    [&]<std::size_t... g>(std::index_sequence<g...>) {
      ((part[g] = V([&](auto i) {
          return gen(std::integral_constant<std::size_t, g * N + decltype(i)::value>{});
        })),
       ...);
    }(std::make_index_sequence<G>{});
  }

  static constexpr std::size_t size() { return G * N; }
  ORRERY_HD value_type operator[](std::size_t i) const { return part[i / N][i % N]; }
  ORRERY_HD decltype(auto) operator[](std::size_t i) { return part[i / N][i % N]; }

  ORRERY_HD friend SimdGroup operator-(const SimdGroup& a) {
    SimdGroup r;
    for (int g = 0; g < G; ++g) r.part[g] = -a.part[g];
    return r;
  }
#define ORRERY_GROUP_OPERATOR(op)                                         \
  ORRERY_HD friend SimdGroup operator op(const SimdGroup& a, const SimdGroup& b) {  \
    SimdGroup r;                                                          \
    for (int g = 0; g < G; ++g) r.part[g] = a.part[g] op b.part[g];       \
    return r;                                                             \
  }                                                                       \
  ORRERY_HD SimdGroup& operator op##=(const SimdGroup& b) { return *this = *this op b; }
  ORRERY_GROUP_OPERATOR(+)
  ORRERY_GROUP_OPERATOR(-)
  ORRERY_GROUP_OPERATOR(*)
  ORRERY_GROUP_OPERATOR(/)
#undef ORRERY_GROUP_OPERATOR
#define ORRERY_GROUP_COMPARISON(op)                                          \
  ORRERY_HD friend mask_type operator op(const SimdGroup& a, const SimdGroup& b) {     \
    mask_type r;                                                             \
    for (int g = 0; g < G; ++g) r.part[g] = a.part[g] op b.part[g];          \
    return r;                                                                \
  }
  ORRERY_GROUP_COMPARISON(<)
  ORRERY_GROUP_COMPARISON(<=)
  ORRERY_GROUP_COMPARISON(>)
  ORRERY_GROUP_COMPARISON(>=)
  ORRERY_GROUP_COMPARISON(==)
  ORRERY_GROUP_COMPARISON(!=)
#undef ORRERY_GROUP_COMPARISON
};

template <class V, int G>
struct LaneMath<SimdGroup<V, G>> {
  using S = SimdGroup<V, G>;
  ORRERY_HD static S mul_add(const S& a, const S& b, const S& c) {
    S r;
    for (int g = 0; g < G; ++g) r.part[g] = LaneMath<V>::mul_add(a.part[g], b.part[g], c.part[g]);
    return r;
  }
  ORRERY_HD static S sqrt(const S& x) {
    S r;
    for (int g = 0; g < G; ++g) r.part[g] = LaneMath<V>::sqrt(x.part[g]);
    return r;
  }
  ORRERY_HD static S select(const typename S::mask_type& take_first, const S& first,
                            const S& second) {
    S r;
    for (int g = 0; g < G; ++g)
      r.part[g] = LaneMath<V>::select(take_first.part[g], first.part[g], second.part[g]);
    return r;
  }
};

template <class V, int G>
struct LaneLog<SimdGroup<V, G>> {
  ORRERY_HD static SimdGroup<V, G> apply(const SimdGroup<V, G>& x) {
    SimdGroup<V, G> r;
    for (int g = 0; g < G; ++g) r.part[g] = lane_log(x.part[g]);
    return r;
  }
};

template <class V, int G>
struct LaneScalar<SimdGroup<V, G>> {
  using type = typename V::value_type;
};

template <class Scalar, class V, int G>
struct Rebind<Scalar, SimdGroup<V, G>> {
  using type = SimdGroup<rebind_t<Scalar, V>, G>;
};

template <class To, class FromV, int G>
struct LaneConvert<To, SimdGroup<FromV, G>> {
  ORRERY_HD static To apply(const SimdGroup<FromV, G>& x) {
    To r;
    for (int g = 0; g < G; ++g)
      r.part[g] = LaneConvert<std::remove_cvref_t<decltype(r.part[0])>, FromV>::apply(x.part[g]);
    return r;
  }
};

}  // namespace orrery

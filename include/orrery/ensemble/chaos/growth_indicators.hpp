// SPDX-License-Identifier: MIT
// Three indicators from one deviation vector w, renormalised to |w| = 1 after every interval of
// τ (= `every` steps of h) and its growth kept as L_k = ln|w(kτ)|/|w(0)| = Σ_{j≤k} ln n_j, n_j the
// norm before the j-th renormalisation:
//
//   maximal Lyapunov exponent (finite time)   λ(t) = L_k / t,   t = kτ
//       (Benettin, Galgani, Giorgilli & Strelcyn, Meccanica 15, 9 (1980))
//   fast Lyapunov indicator                   FLI(t) = sup_{s≤t} ln|w(s)|
//       (Froeschlé, Lega & Gonczi, Celest. Mech. Dyn. Astron. 67, 41 (1997); sampled at kτ)
//   MEGNO                                     Y(t) = (2/t) ∫_0^t s (ẇ·w)/|w|² ds,
//                                             ⟨Y⟩(t) = (1/t) ∫_0^t Y(s) ds
//       (Cincotta & Simó, Astron. Astrophys. Suppl. 147, 205 (2000)), for the time-τ map as
//       Cincotta, Giordano & Simó, Physica D 182, 151 (2003) write it for maps:
//       Y_k = (2/k) Σ_{j=1}^{k} j (L_j − L_{j−1}) = 2 L_k − (2/k) Σ_{j=0}^{k−1} L_j,
//       ⟨Y⟩_k = (1/k) Σ_{m=1}^{k} Y_m
//
// Expected: on a chaotic orbit λ → λ_max > 0, FLI grows like λ_max t, ⟨Y⟩ ≈ λ_max t/2; on a
// regular (quasi-periodic) orbit |w| grows linearly, so λ ~ ln(t)/t → 0, FLI ~ ln t, ⟨Y⟩ → 2; on a
// stable periodic orbit of an isochronous system (a harmonic oscillator) |w| stays bounded and
// ⟨Y⟩ → 0. Cost: the one tangent vector doubles the words of every operation of the step (each
// product a multiply and a multiply-add more); a norm, a division and a logarithm per interval.
//
// The same run watches an open system's exits when it is given some (ChaosIndicatorOptions:
// escape basins, Aguirre, Vallejo & Sanjuán, Phys. Rev. E 64, 066208 (2001)): the first exit c
// whose half-plane n_c·q ≥ d the coordinates q reach at the end of an interval, and that time
// (so to within τ; −1 and NaN for a trajectory that has not left). A few multiply-adds per exit
// and interval; nothing without exits.
#pragma once

#include <cstdint>
#include <limits>

#include "orrery/core/lane_log.hpp"
#include "orrery/ensemble/chaos/chaos_options.hpp"
#include "orrery/ensemble/chaos/deviation_vectors.hpp"

namespace orrery {

template <class T, int D>
struct GrowthIndicators {
  static constexpr int vectors = 1;
  // What read() gives, in this order.
  static constexpr int outputs = 5;
  static constexpr int lyapunov = 0, fli = 1, megno = 2, exit = 3, escape_time = 4;
  static constexpr bool watches_state = true;

  T growth;      // L_k
  T largest;     // sup_j L_j (FLI)
  T growth_sum;  // Σ_{j<k} L_j
  T megno_sum;   // Σ_{m≤k} Y_m
  T exit_taken;  // the exit left through, or −1
  T exit_time;   // when it was first seen beyond it, or NaN
  ChaosExits exits;

  ORRERY_HD void configure(const ChaosIndicatorOptions& o) { exits = o.exits; }

  ORRERY_HD void start(T (&w)[D][1]) {
    start_vectors(w);
    divide_column(w, 0, column_norm(w, 0));
    growth = largest = growth_sum = megno_sum = T(0);
    exit_taken = T(-1);
    exit_time = T(std::numeric_limits<lane_scalar_t<T>>::quiet_NaN());
  }

  // The state words q after an interval ending at time t: the first exit reached, if none was.
  ORRERY_HD void watch(const T (&q)[D], const T& t) {
    constexpr int W = D < kChaosExitWords ? D : kChaosExitWords;
    for (int c = 0; c < exits.count; ++c) {
      T u = T(static_cast<lane_scalar_t<T>>(exits.normal[c][0])) * q[0];
      for (int i = 1; i < W; ++i)
        if (exits.normal[c][i] != 0)
          u = mul_add(T(static_cast<lane_scalar_t<T>>(exits.normal[c][i])), q[i], u);
      const auto left = (exit_taken < T(0)) && (u >= T(static_cast<lane_scalar_t<T>>(exits.distance)));
      exit_taken = lane_select(left, T(static_cast<lane_scalar_t<T>>(c)), exit_taken);
      exit_time = lane_select(left, t, exit_time);
    }
  }

  // After interval k ≥ 1: renormalise w and update the sums.
  ORRERY_HD void update(T (&w)[D][1], std::int64_t k) {
    const T n = column_norm(w, 0);
    divide_column(w, 0, n);
    growth = growth + lane_log(n);
    largest = lane_max(largest, growth);
    const T kk = T(static_cast<lane_scalar_t<T>>(k));
    const T y = T(2) * (growth - growth_sum / kk);
    growth_sum = growth_sum + growth;
    megno_sum = megno_sum + y;
  }

  // The indicators after interval k, at time t = kτ.
  ORRERY_HD void read(T (&out)[outputs], const T& t, std::int64_t k) const {
    out[lyapunov] = growth / t;
    out[fli] = largest;
    out[megno] = megno_sum / T(static_cast<lane_scalar_t<T>>(k));
    out[exit] = exit_taken;
    out[escape_time] = exit_time;
  }
};

}  // namespace orrery

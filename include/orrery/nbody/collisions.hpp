// SPDX-License-Identifier: MIT
// Collisions of bodies with radii R_i, found after a step and resolved, as REBOUND does
// (rebound/src/collision.c: reb_collision_search, reb_collision_resolve_merge and
// reb_collision_resolve_hardsphere; Rein & Liu, A&A 537, A128, 2012, §4):
//
//   search "direct": bodies i < j touch when |x_ij| < R_i + R_j and approach, v_ij · x_ij < 0
//                    (x_ij = x_i − x_j, v_ij = v_i − v_j), at the end of the step;
//   search "line":   the closest approach of the straight lines x_ij(t) = x_ij − (h − t) v_ij,
//                    0 ≤ t ≤ h, back from the end of the step of h, is below R_i + R_j (no
//                    approach condition; REBOUND's REB_COLLISION_LINE), so a fast pair that
//                    passes through each other within one step is found too.
//
//   merge:  m = m_i + m_j,  x = (m_i x_i + m_j x_j) / m,  v = (m_i v_i + m_j v_j) / m,
//           R = (R_i³ + R_j³)^{1/3} (volume kept); the lower index keeps the merged body and
//           the higher one is removed, so test particles stay after the bodies with mass
//           (two test particles merge at their midpoint with their mean velocity).
//           Mass and momentum are kept to rounding; the energy that goes (the pair's relative
//           kinetic energy and the change of every potential term) is what the caller books.
//   bounce: a hard-sphere collision along the line of centres n = x_ij / |x_ij| with a
//           coefficient of restitution ε (1: elastic): the normal relative velocity
//           u = v_ij · n becomes −ε u, Δv_i = −(1 + ε) u n m_j / (m_i + m_j),
//           Δv_j = +(1 + ε) u n m_i / (m_i + m_j); momentum is kept, and for ε = 1 the kinetic
//           energy too. (REBOUND's rotation into the plane of the pair gives the same vector; its
//           minimum_collision_velocity is 0 by default and not built.) A pair of two test
//           particles (both massless) bounces as two equal masses.
//
// Pairs are found in index order (i, then j > i) and resolved in that order; a pair whose body
// was removed by an earlier merge of the same search is passed over (REBOUND shuffles its list
// first; a fixed order keeps a run reproducible bit for bit). The search is O(N log N + pairs):
// intervals along x sorted and swept, so it does not depend on the force engine.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "orrery/core/particles.hpp"

namespace orrery {

enum class CollisionSearch { direct, line };
enum class CollisionRule { none, merge, bounce, stop };

// Names as the CLI and Python take them, in enum order.
inline constexpr const char* kCollisionSearchNames[] = {"direct", "line"};
inline constexpr const char* kCollisionRuleNames[] = {"none", "merge", "bounce", "stop"};

struct Contact {
  std::size_t i, j;  // i < j
};

// The touching pairs of `p` (radii p.radius; empty: none touch) after a step of h.
template <class Real>
std::vector<Contact> find_contacts(const Particles<Real>& p, CollisionSearch search, double h);

// Merges body j into body i (i < j), removing j.
template <class Real>
void merge_bodies(Particles<Real>& p, std::size_t i, std::size_t j);

// The hard-sphere bounce of i and j; false (nothing changed) where they do not approach.
template <class Real>
bool bounce_bodies(Particles<Real>& p, std::size_t i, std::size_t j, double restitution = 1.0);

}  // namespace orrery

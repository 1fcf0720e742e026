// SPDX-License-Identifier: MIT
// How a register step rounds y + h Σ_j c_j K_j, the one operation every register stepper is made
// of (explicit Runge–Kutta stages and weights, splitting drifts and kicks, Adams sums):
//
//   SumThenScale   s = c_first·K_first (K itself for c = 1), s ← fma(c_j, K_j, s), y ← fma(h, s, y):
//                  the contract the array steppers share (ArrayDevice::combine), so a register
//                  and an array run give the same bits; the divergence map's arithmetic.
//   ScaleEachTerm  y ← fma(h c_j, K_j, y) for each nonzero c_j in order, h c_j rounded once per
//                  step size: one fused multiply-add a term, the fewest operations the sum
//                  allows (ensembles: the products h c_j are loop invariants of a fixed step).
//
// Both are the same method; they differ in rounding only, and each is the same on every backend.
#pragma once

namespace orrery {

struct SumThenScale {};
struct ScaleEachTerm {};

}  // namespace orrery

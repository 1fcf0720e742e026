// SPDX-License-Identifier: MIT
// What each precision mode means for a small-system right-hand side: the type of the state and
// the pair-factor policy — InverseCube is the exact one every backend can reproduce bit for bit;
// FastInverseCube uses the GPU's reciprocal square root (the CUDA backend's default).
#pragma once

#include "orrery/core/double_double.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/physics/inverse_cube.hpp"

namespace orrery {

template <Precision P>
struct PrecisionTraits;

template <>
struct PrecisionTraits<Precision::fp64> {
  using Real = double;
  using InverseCube = InverseCubeExact;
  using FastInverseCube = InverseCubeFast;
};
template <>
struct PrecisionTraits<Precision::fp32> {
  using Real = float;
  using InverseCube = InverseCubeExact;
  using FastInverseCube = InverseCubeFast;
};
template <>
struct PrecisionTraits<Precision::mixed> {
  using Real = double;
  using InverseCube = InverseCubeIn<float>;
  using FastInverseCube = InverseCubeIn<float, InverseCubeFast>;
};

// Double-double has no fast factor: its square root and quotients are formed from fp64 ones.
template <>
struct PrecisionTraits<Precision::dd> {
  using Real = DoubleDouble<double>;
  using InverseCube = InverseCubeExact;
  using FastInverseCube = InverseCubeExact;
};

}  // namespace orrery

// SPDX-License-Identifier: MIT
// Floating-point primitives for ORRERY_HD code, for any lane type: a scalar (one trajectory per
// thread) or a SIMD vector (one trajectory per lane, <orrery/core/simd.hpp>). Generic code calls
// mul_add(a, b, c), sqrt(x) and convert<To>(x); each lane type supplies them by specialising
// LaneMath / LaneConvert, which are looked up when a template is instantiated, so the SIMD
// specialisations declared later are found.
//
// Only correctly rounded IEEE operations appear (fused multiply-add, square root; + − × ÷ by the
// language), so a result does not depend on the compiler, the vector width or the machine.
// Builds use -ffp-contract=off (host) and --fmad=false (device): every fused multiply-add is one
// written out as mul_add.
#pragma once

#include <cmath>
#include <type_traits>

#include "orrery/core/hd.hpp"

namespace orrery {

template <class T>
struct LaneMath;

template <>
struct LaneMath<double> {
  ORRERY_HD static double select(bool take_first, double first, double second) {
    return take_first ? first : second;
  }
  ORRERY_HD static double mul_add(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
    return ::fma(a, b, c);
#else
    return std::fma(a, b, c);
#endif
  }
  ORRERY_HD static double sqrt(double x) {
#if defined(__CUDA_ARCH__)
    return ::sqrt(x);
#else
    return std::sqrt(x);
#endif
  }
};

template <>
struct LaneMath<float> {
  ORRERY_HD static float select(bool take_first, float first, float second) {
    return take_first ? first : second;
  }
  ORRERY_HD static float mul_add(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
    return ::fmaf(a, b, c);
#else
    return std::fma(a, b, c);
#endif
  }
  ORRERY_HD static float sqrt(float x) {
#if defined(__CUDA_ARCH__)
    return ::sqrtf(x);
#else
    return std::sqrt(x);
#endif
  }
};

// a·b + c with a single rounding.
template <class T>
ORRERY_HD T mul_add(const T& a, const T& b, const T& c) {
  return LaneMath<T>::mul_add(a, b, c);
}

// The correctly rounded square root.
template <class T>
ORRERY_HD T sqrt(const T& x) {
  return LaneMath<T>::sqrt(x);
}

// `first` where `take_first` holds, else `second`: a bool for a scalar lane type, a mask (one
// choice per lane) for a SIMD one (core/simd.hpp).
template <class T, class Mask>
ORRERY_HD T lane_select(const Mask& take_first, const T& first, const T& second) {
  return LaneMath<T>::select(take_first, first, second);
}

// Lane-type traits: the lane type with the lanes of `Lanes` and elements of type `Scalar`, and
// value conversion between lane types of equal width.
template <class Scalar, class Lanes>
struct Rebind {
  using type = Scalar;
};
template <class Scalar, class Lanes>
using rebind_t = typename Rebind<Scalar, Lanes>::type;

// The element type of a lane type (itself for a scalar), and a value rounded once to it and
// copied to every lane.
template <class T>
struct LaneScalar {
  using type = T;
};
template <class T>
using lane_scalar_t = typename LaneScalar<T>::type;

template <class T>
ORRERY_HD T broadcast(double x) {
  return T(static_cast<lane_scalar_t<T>>(x));
}

template <class To, class From>
struct LaneConvert {
  static_assert(std::is_arithmetic_v<From> && std::is_arithmetic_v<To>);
  ORRERY_HD static To apply(From x) { return static_cast<To>(x); }
};

template <class To, class From>
ORRERY_HD To convert(const From& x) {
  return LaneConvert<To, From>::apply(x);
}

}  // namespace orrery

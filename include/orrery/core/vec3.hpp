// SPDX-License-Identifier: MIT
// A three-vector of any lane type (a scalar, or a SIMD vector holding one component of several
// trajectories), usable on host and device.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

template <class T>
struct Vec3 {
  T x, y, z;

  ORRERY_HD Vec3& operator+=(const Vec3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  ORRERY_HD Vec3& operator-=(const Vec3& o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
};

template <class T>
ORRERY_HD Vec3<T> operator+(const Vec3<T>& a, const Vec3<T>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class T>
ORRERY_HD Vec3<T> operator-(const Vec3<T>& a, const Vec3<T>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class T>
ORRERY_HD Vec3<T> operator*(const T& s, const Vec3<T>& a) {
  return {s * a.x, s * a.y, s * a.z};
}

// s·a + b per component, each with one rounding.
template <class T>
ORRERY_HD Vec3<T> mul_add(const T& s, const Vec3<T>& a, const Vec3<T>& b) {
  return {mul_add(s, a.x, b.x), mul_add(s, a.y, b.y), mul_add(s, a.z, b.z)};
}

// |a|² = z² + (y² + x²), the order every backend uses.
template <class T>
ORRERY_HD T norm2(const Vec3<T>& a) {
  return mul_add(a.z, a.z, mul_add(a.y, a.y, a.x * a.x));
}

template <class T>
ORRERY_HD T& component(Vec3<T>& a, int axis) {
  return axis == 0 ? a.x : axis == 1 ? a.y : a.z;
}
template <class T>
ORRERY_HD const T& component(const Vec3<T>& a, int axis) {
  return axis == 0 ? a.x : axis == 1 ? a.y : a.z;
}

template <class To, class From>
ORRERY_HD Vec3<To> convert_vec(const Vec3<From>& a) {
  return {convert<To>(a.x), convert<To>(a.y), convert<To>(a.z)};
}

using Vec3d = Vec3<double>;

}  // namespace orrery

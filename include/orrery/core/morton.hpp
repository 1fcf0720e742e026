// SPDX-License-Identifier: MIT
// Morton (Z-order) keys: the bits of three 21-bit cell coordinates interleaved into one 63-bit
// key, so that sorting by key puts bodies of the same octree cell next to each other at every
// level (G. M. Morton, IBM report, 1966; as in M. S. Warren & J. K. Salmon, Supercomputing '93,
// and T. Karras, HPG 2012). Written once for CPU and GPU tree builds.
#pragma once

#include <cstdint>

#include "orrery/core/hd.hpp"

namespace orrery {

inline constexpr int kMortonBitsPerAxis = 21;

// The low 21 bits of v spread to every third bit.
ORRERY_HD constexpr std::uint64_t spread_bits_by_3(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffull;
  v = (v | v << 16) & 0x1f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

// The key of cell (ix, iy, iz), each < 2²¹; x takes the highest bit of each triple.
ORRERY_HD constexpr std::uint64_t morton_key(std::uint32_t ix, std::uint32_t iy,
                                             std::uint32_t iz) {
  return spread_bits_by_3(ix) << 2 | spread_bits_by_3(iy) << 1 | spread_bits_by_3(iz);
}

// The cell coordinate of u in [0, 1) on a grid of 2²¹ (values outside are clamped).
template <class T>
ORRERY_HD constexpr std::uint32_t morton_coordinate(T u) {
  constexpr T cells = T(1u << kMortonBitsPerAxis);
  const T c = u * cells;
  return c <= T(0) ? 0u : c >= cells ? (1u << kMortonBitsPerAxis) - 1 : static_cast<std::uint32_t>(c);
}

// The scale that maps a bounding cube of side `side` into [0, 1): the side widened a little so
// that the largest coordinate maps inside. W is the width the keys are computed in (double, or
// float128 for float128 trees), the same on CPU and GPU so that both trees sort alike.
template <class W>
ORRERY_HD W morton_scale(W side) {
  return side > W(0) ? W(1) / (side * W(1.0000001)) : W(0);
}

// The key of the point (x, y, z) in the cube whose lowest corner is (lx, ly, lz).
template <class W>
ORRERY_HD std::uint64_t morton_key_in_cube(W x, W y, W z, W lx, W ly, W lz, W scale) {
  return morton_key(morton_coordinate((x - lx) * scale), morton_coordinate((y - ly) * scale),
                    morton_coordinate((z - lz) * scale));
}

}  // namespace orrery

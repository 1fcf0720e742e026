// SPDX-License-Identifier: MIT
#include "orrery/nbody/coinciding_particles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/physics/softened_pair.hpp"

namespace orrery {

namespace {

// Positions as a run of type Real holds them, compared as Real itself, never as doubles rounded
// through Real and back (GCC 12's vectoriser drops such a round trip for two of three
// coordinates). Computed in the comparison: no copy of the positions.
template <class Real>
std::array<Real, 3> held(const Particles<double>& p, std::size_t i) {
  return {static_cast<Real>(p.x[i]), static_cast<Real>(p.y[i]), static_cast<Real>(p.z[i])};
}

// The lowest pair of `order` at one point: lexicographic order of the positions, ties by index,
// so the first equal neighbours are the lowest pair at their point. (0.0 and −0.0 compare
// equal, as they are one point.)
template <class Real>
std::optional<CoincidingPair> lowest_pair_as(const Particles<double>& p,
                                             std::vector<std::size_t> order) {
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto pa = held<Real>(p, a), pb = held<Real>(p, b);
    return pa < pb || (pa == pb && a < b);
  });
  std::optional<CoincidingPair> found;
  for (std::size_t k = 1; k < order.size(); ++k) {
    const std::size_t a = order[k - 1], b = order[k];
    if (held<Real>(p, a) != held<Real>(p, b)) continue;
    if (!found || a < found->first) found = CoincidingPair{a, b};
  }
  return found;
}

// A coordinate below this in magnitude may differ from another by less than √(denorm_min), the
// largest difference whose square rounds to 0; above it, two coordinates that differ at all
// differ by an ulp of at least 2^8 √(denorm_min).
template <class Real>
Real tiny_coordinate() {
  using L = std::numeric_limits<Real>;
  return std::ldexp(Real(1), (L::min_exponent - L::digits) / 2 + L::digits + 8);
}

// The lowest pair (by first index, then second) of distinct positions whose separation squared,
// r² = dx² + dy² + dz² as the engines compute it in Real, is 0. Each |d| must then be below
// √(denorm_min): each coordinate equal, or both tiny. Positions with their tiny coordinates
// taken as 0 and sorted put every such pair in one group of equal keys; the pairs of a group
// are tried one by one (groups of more than one are rare: bodies within 10^-146 of an axis
// plane in fp64).
template <class Real>
std::optional<CoincidingPair> lowest_underflowing_pair_as(const Particles<double>& p,
                                                          std::vector<std::size_t> order) {
  const Real tiny = tiny_coordinate<Real>();
  auto key = [&](std::size_t i) {
    auto h = held<Real>(p, i);
    for (Real& c : h)
      if (std::abs(c) < tiny) c = Real(0);
    return h;
  };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto ka = key(a), kb = key(b);
    return ka < kb || (ka == kb && a < b);
  });
  std::optional<CoincidingPair> found;
  for (std::size_t begin = 0, end = 0; begin < order.size(); begin = end) {
    end = begin + 1;
    while (end < order.size() && key(order[end]) == key(order[begin])) ++end;
    for (std::size_t k = begin; k < end; ++k)
      for (std::size_t l = k + 1; l < end; ++l) {
        const std::size_t a = order[k], b = order[l];  // a < b: a group is in index order
        const auto pa = held<Real>(p, a), pb = held<Real>(p, b);
        const Real r2 = softened_distance2(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2], Real(0));
        if (r2 == Real(0) && (!found || a < found->first || (a == found->first && b < found->second)))
          found = CoincidingPair{a, b};
      }
  }
  return found;
}

}  // namespace

std::optional<CoincidingPair> find_coinciding_particles(const Particles<double>& p,
                                                        double softening, Precision precision) {
  const bool global = p.softening.empty();
  if (global && softening != 0.0) return std::nullopt;
  // Only particles without softening of their own can make an unsoftened pair.
  std::vector<std::size_t> order;
  order.reserve(p.size());
  for (std::size_t i = 0; i < p.size(); ++i)
    if (global || p.softening[i] == 0.0) order.push_back(i);
  // fp128 holds every double exactly, so it compares as fp64 does; its range is so much wider
  // that the square of a difference of two distinct doubles never rounds to 0 in it.
  if (precision == Precision::fp32) {
    if (auto pair = lowest_pair_as<float>(p, order)) return pair;
    return lowest_underflowing_pair_as<float>(p, std::move(order));
  }
  if (auto pair = lowest_pair_as<double>(p, order)) return pair;
  if (precision == Precision::fp128) return std::nullopt;
  return lowest_underflowing_pair_as<double>(p, std::move(order));
}

namespace {

// The square of the bounding box's diagonal in Real, an upper bound of every r² the engines
// form: where it overflows, the farthest pairs' forces come out as inf·0 = NaN.
template <class Real>
bool separations_overflow(const Particles<double>& p) {
  Real r2 = 0;
  for (const auto* c : {&p.x, &p.y, &p.z}) {
    const auto [lo, hi] = std::minmax_element(c->begin(), c->end());
    const Real span = static_cast<Real>(*hi) - static_cast<Real>(*lo);
    r2 += span * span;
  }
  return !std::isfinite(r2);
}

}  // namespace

void check_no_coinciding_particles(const Particles<double>& p, double softening,
                                   Precision precision, const std::string& source) {
  if (p.size() >= 2 && precision != Precision::fp128 &&
      (precision == Precision::fp32 ? separations_overflow<float>(p)
                                    : separations_overflow<double>(p)))
    throw InputError(fmt::format(
        "{}: the particles lie so far apart that the square of their separation overflows in "
        "{} (beyond {:.1e}), so the force between the farthest cannot be computed; give the "
        "positions in larger units",
        source, to_string(precision),
        precision == Precision::fp32 ? std::sqrt(double(std::numeric_limits<float>::max()))
                                     : std::sqrt(std::numeric_limits<double>::max())));
  const auto pair = find_coinciding_particles(p, softening, precision);
  if (!pair) return;
  const std::size_t i = pair->first, j = pair->second;
  const bool apart = precision == Precision::fp32
                         ? std::array{float(p.x[i]), float(p.y[i]), float(p.z[i])} !=
                               std::array{float(p.x[j]), float(p.y[j]), float(p.z[j])}
                         : std::array{p.x[i], p.y[i], p.z[i]} != std::array{p.x[j], p.y[j], p.z[j]};
  if (apart)
    throw InputError(fmt::format(
        "{}: particles {} and {} (ids {} and {}) at ({}, {}, {}) and ({}, {}, {}) are so close that "
        "the square of their separation is 0 in {}, with no softening between them, so the force "
        "between them is infinite; move one apart, or give a softening length",
        source, i, j, p.id[i], p.id[j], p.x[i], p.y[i], p.z[i], p.x[j], p.y[j], p.z[j],
        to_string(precision)));
  throw InputError(fmt::format(
      "{}: particles {} and {} (ids {} and {}) are both at ({}, {}, {}){} with no softening "
      "between them, so the force between them is infinite; move one, or give a softening length",
      source, i, j, p.id[i], p.id[j], p.x[i], p.y[i], p.z[i],
      precision == Precision::fp32 && (p.x[i] != p.x[j] || p.y[i] != p.y[j] || p.z[i] != p.z[j])
          ? " once rounded to fp32"
          : ""));
}

}  // namespace orrery

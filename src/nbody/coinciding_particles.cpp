// SPDX-License-Identifier: MIT
#include "orrery/nbody/coinciding_particles.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

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
  // fp128 holds every double exactly, so it compares as fp64 does.
  return precision == Precision::fp32 ? lowest_pair_as<float>(p, std::move(order))
                                      : lowest_pair_as<double>(p, std::move(order));
}

void check_no_coinciding_particles(const Particles<double>& p, double softening,
                                   Precision precision, const std::string& source) {
  const auto pair = find_coinciding_particles(p, softening, precision);
  if (!pair) return;
  const std::size_t i = pair->first, j = pair->second;
  throw InputError(fmt::format(
      "{}: particles {} and {} (ids {} and {}) are both at ({}, {}, {}){} with no softening "
      "between them, so the force between them is infinite; move one, or give a softening length",
      source, i, j, p.id[i], p.id[j], p.x[i], p.y[i], p.z[i],
      precision == Precision::fp32 && (p.x[i] != p.x[j] || p.y[i] != p.y[j] || p.z[i] != p.z[j])
          ? " once rounded to fp32"
          : ""));
}

}  // namespace orrery

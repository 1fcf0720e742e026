// SPDX-License-Identifier: MIT
// Two particles at one position with no softening between them (ε_ij² = (ε_i² + ε_j²)/2 = 0,
// or a global ε of 0) pull each other with an infinite force: the first step turns the state
// into NaN. A run refuses such particles before it starts, naming them. Positions are compared
// as the run holds them: rounded to fp32 for an fp32 run, where particles distinct in double
// may fall on one point. Found by sorting the positions, O(N log N).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "orrery/core/particles.hpp"
#include "orrery/core/precision.hpp"

namespace orrery {

struct CoincidingPair {
  std::size_t first = 0, second = 0;  // indices, first < second, the lowest such pair of a point
};

// `softening` is the global ε, used where p.softening is empty.
std::optional<CoincidingPair> find_coinciding_particles(const Particles<double>& p,
                                                        double softening,
                                                        Precision precision = Precision::fp64);

// Throws InputError naming the pair by index and id, and where the particles came from
// (`source`: "'stars.csv'", "scene disk"), if there is one; and where particles lie so far
// apart that the square of a separation overflows in the precision (the force is then NaN).
void check_no_coinciding_particles(const Particles<double>& p, double softening,
                                   Precision precision, const std::string& source);

}  // namespace orrery

// SPDX-License-Identifier: MIT
// The surface of section an ensemble run records crossings of (located by
// ensemble/section_crossing.hpp), apart from that mathematics so that the run's types
// (ensemble/ensemble_run.hpp) need no device code.
#pragma once

namespace orrery {

// A surface of section of a run: state word `word` equal to `value`, crossed in `direction`
// (+1 up, −1 down, 0 both); each trajectory keeps its first `capacity` crossings (its count
// goes on beyond them). word < 0: none. Trivially copyable: a kernel argument as it is.
struct EnsembleSection {
  int word = -1;
  double value = 0;
  int direction = 1;
  int capacity = 0;
};

// The most crossings a trajectory may keep (--max-crossings).
inline constexpr int kEnsembleMaxCrossings = 1000000;

}  // namespace orrery

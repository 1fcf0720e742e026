// SPDX-License-Identifier: MIT
// How IAS15 chooses its next step (ias15/array_stepper.hpp has the formulas), by name:
// prs24, the criterion of Pham, Rein & Spiegel (Open J. Astrophys. 7, 1, 2024) from each body's
// acceleration, jerk and snap, REBOUND's default since 2024 (its adaptive_mode 2, "PRS23");
// global, Rein & Spiegel (MNRAS 446, 1424, 2015): the largest |b₆| over the largest |a|,
// REBOUND's adaptive_mode 1. Apart from ias15_table.hpp, which the ensemble lanes include.
#pragma once

#include <array>
#include <string_view>

namespace orrery {

enum class Ias15Criterion { prs24, global };

// The names (--ias15-criterion), in the order of the enum, the default first.
inline constexpr std::array<std::string_view, 2> kIas15CriterionNames{"prs24", "global"};
// Runs stored before the choice existed chose their steps by this one.
inline constexpr std::string_view kIas15CriterionOfOlderRuns = "global";

}  // namespace orrery

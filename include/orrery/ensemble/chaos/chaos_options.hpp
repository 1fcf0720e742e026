// SPDX-License-Identifier: MIT
// What a chaos kernel's indicator is told at run time rather than compiled for: the lanes are
// instantiated for every problem × integrator × kernel × instruction set, so an option that
// needed a type of its own would multiply their compile time.
//
//   volumes: the spectrum kernel's D vectors kept apart (each renormalised to unit length, none
//            orthogonalised) and read as GALI_1 … GALI_D (ensemble/chaos/lyapunov_spectrum.hpp)
//   exits:   the half-planes n_c·q ≥ d through which an open system is left (escape basins): the
//            growth kernel records the first exit a trajectory reaches and when
//            (ensemble/chaos/growth_indicators.hpp)
#pragma once

namespace orrery {

inline constexpr int kMaxChaosExits = 4;
// The coordinate words an exit's normal spans (the first state words: the positions).
inline constexpr int kChaosExitWords = 3;

struct ChaosExits {
  int count = 0;  // 0: a closed system, nothing watched
  double normal[kMaxChaosExits][kChaosExitWords] = {};
  double distance = 0;
};

struct ChaosIndicatorOptions {
  bool volumes = false;
  ChaosExits exits;
};

}  // namespace orrery

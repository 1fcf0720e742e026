// SPDX-License-Identifier: MIT
// The reference trajectory of a frame computed by perturbation (perturbed_twin.hpp): the system
// started at the window's centre, integrated on the host with the map's integrator in a
// precision fine enough for the window (double-double, or MPFR where the build has it), and
// recorded at every force evaluation as the fp64 pair data the pixels' force differences read.
//
// Why the reference needs more than fp64: each of its steps rounds by about u·|X| (u its unit
// roundoff), and every pixel inherits that rounding as a common displacement of its start. The
// twins' separation does not (the same displacement enters both), but which trajectory a pixel
// follows does: the displacement must stay far below the window's finest scale, the pixels'
// spacing and the twins' shift. reference_bits() asks u·|X| ≤ kReferenceMargin × that scale.
#pragma once

#include <cstdint>
#include <vector>

#include "orrery/core/double_double.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery {

// How far below the window's finest scale a step's rounding of the reference must stay.
// The double-double map's own tests hold counts exact at 5·10⁻⁵ of the shift (10⁻²⁵ windows at
// |X| ≈ 2): a hundredth of that leaves room for the rounding of tens of thousands of steps.
inline constexpr double kReferenceMargin = 1e-6;

struct ReferenceOrbit {
  // (evals_at_start + steps·evals_per_step) records of kReferenceRecordWords words
  // (perturbed_twin.hpp).
  std::vector<double> records;
  int evals_at_start = 0, evals_per_step = 0;
  // The steps the records cover: the frame's, or those before the reference's state stopped
  // being finite (a collision of its bodies). A pixel still running there has no count.
  std::int64_t steps = 0;
  int bits = 0;  // significand bits it was integrated with (106: double-double)
};

// The reference's start: the base system with the varied body at the window's centre, in
// double-double (every pixel's start is it plus perturbed_start's differences).
BodyState<DoubleDouble<double>, kMapBodies> reference_start(const DivergenceSetup& s);

// The significand bits the reference needs for this window (kReferenceMargin); 106 or fewer
// is double-double.
int reference_bits(const DivergenceSetup& s);
// The most bits this build's reference can have: 106 without MPFR; unbounded (a large number)
// with it.
int reference_bits_available();

// Throws ParameterError("precision", ...) where this build cannot give the bits asked.
ReferenceOrbit compute_reference_orbit(const DivergenceSetup& s, int bits);

}  // namespace orrery

// SPDX-License-Identifier: MIT
// The map by perturbation on one GPU (--deep perturbation; problems/divergence3/
// perturbed_twin.hpp): a plain kernel of its own, one thread per pixel, every thread reading the
// frame's reference records of its step from global memory (the threads of a warp read the same
// words: a broadcast from the cache). Present only in builds with CUDA.
#pragma once

#include <span>

#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"

namespace orrery::cuda {

// Every pixel of the grid, or the listed pixels, on the first of `options.devices` (empty:
// device 0). A pixel runs min(setup.steps, reference.steps) steps at most.
DivergenceCounts run_perturbed_map(const DivergenceSetup& setup, const ReferenceOrbit& reference,
                                   std::span<const PixelIndex> pixels,
                                   const MapRunOptions& options);

}  // namespace orrery::cuda

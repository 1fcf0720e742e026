// SPDX-License-Identifier: MIT
// The CUDA backend of the divergence map: all (or the chosen) GPUs of the host. Present only in
// builds with CUDA (ORRERY_WITH_CUDA). A private header: the map runs MapPolicy's schedule
// (src/ensemble/divergence_map.cpp); tests and benchmarks pass others through it.
#pragma once

#include <span>
#include <vector>

#include "map_schedule_policy.hpp"
#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery::cuda {

// Every pixel of the grid, or the listed pixels, on `options.devices` (empty: all), scheduled
// by `schedule` (refused with ParameterError where a value is outside its range).
DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options,
                                    const MapSchedule& schedule = MapPolicy::schedule);

// What run_divergence_map() would set up for a map of `params` on `devices` (empty: all),
// made now and kept for it: each device's context, streams, feed and launch shape, and the
// pinned results. Throws what a map on these devices would throw.
void prepare_divergence_map(const DivergenceMapParams& params, const std::vector<int>& devices,
                            Precision precision, bool exact);

}  // namespace orrery::cuda

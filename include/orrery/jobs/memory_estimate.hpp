// SPDX-License-Identifier: MIT
// What a job will hold in memory at its peak, estimated from its parameters before any work, so
// that a job too large for this process is refused with both figures (core/memory_budget.hpp)
// instead of ending in std::bad_alloc partway.
#pragma once

#include <cstdint>

#include "orrery/core/precision.hpp"

namespace orrery {

struct MapJob;
struct SimJob;

// Counts, mask, picture and the encoded files of a width x height map.
double map_memory_bytes(std::int64_t width, std::int64_t height, bool with_data);
// Initial conditions, the simulation's state in `precision`, forces, the engine's buffers and
// the integrator's arrays (`stepper_values_per_body` values of `precision` per particle) for
// `particles` particles.
double sim_memory_bytes(std::int64_t particles, Precision precision,
                        double stepper_values_per_body);
// The same for the job's precision and integrator, its arrays measured (src/jobs/stepper_footprint.hpp).
double sim_memory_bytes(const SimJob& job, std::int64_t particles);

// Throw InputError when the estimate exceeds what this process may use.
void check_map_memory(const MapJob& job);
// For a scene: its particle count from the settings (or the scene's default). Does nothing for
// --input, whose particle count is known only once the file is read (check_run_limits checks
// it then).
void check_sim_memory(const SimJob& job);

}  // namespace orrery

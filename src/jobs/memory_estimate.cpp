// SPDX-License-Identifier: MIT
#include "orrery/jobs/memory_estimate.hpp"

#include <fmt/format.h>

#include "orrery/core/memory_budget.hpp"
#include "orrery/jobs/map_job_options.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/scenes/scene_registry.hpp"
#include "stepper_footprint.hpp"

namespace orrery {

namespace {

// Bytes per pixel: int32 count and uint8 mask; the RGB picture and its PNG (at most about the
// picture's size); with --data, the HDF5 image of counts and mask held twice (the in-memory
// file and the copy taken of it).
// The work pool's order of the pixels left once the first are done (ensemble/schedule/
// work_pool.cpp): their keys and indices (16 bytes), std::stable_sort's buffer of as many, the
// sorted indices (8) and a flag (1), held together in address space at its peak; without them
// a map under `ulimit -v` passed the estimate and ended in std::bad_alloc.
constexpr double kWorkPoolBytesPerPixel = 16 + 16 + 8 + 1;
constexpr double kMapBytesPerPixel = 4 + 1 + 3 + 3 + kWorkPoolBytesPerPixel;
constexpr double kMapDataBytesPerPixel = 2 * (4 + 1);

// Words of the working precision per particle besides the integrator's own arrays: the state
// (7), forces (3), the engine's partial sums (6); plus the initial conditions in double with ids
// (9 doubles and 8 bytes).
constexpr double kSimWordsPerParticle = 7 + 3 + 6;
constexpr double kSimFixedBytesPerParticle = 9 * 8 + 8;

double word_bytes(Precision p) {
  switch (p) {
    case Precision::fp32: return 4;
    case Precision::fp128:
    case Precision::dd: return 16;
    case Precision::fp64:
    case Precision::mixed: return 8;
  }
  return 8;
}

}  // namespace

double map_memory_bytes(std::int64_t width, std::int64_t height, bool with_data) {
  const double pixels = static_cast<double>(width) * static_cast<double>(height);
  return pixels * (kMapBytesPerPixel + (with_data ? kMapDataBytesPerPixel : 0));
}

double sim_memory_bytes(std::int64_t particles, Precision precision,
                        double stepper_values_per_body) {
  return static_cast<double>(particles) *
         (kSimFixedBytesPerParticle +
          (kSimWordsPerParticle + stepper_values_per_body) * word_bytes(precision));
}

double sim_memory_bytes(const SimJob& job, std::int64_t particles) {
  return sim_memory_bytes(particles, job.precision,
                          stepper_values_per_body(job.integrator, job.tolerance));
}

void check_map_memory(const MapJob& job) {
  const auto w = job.physics.width, h = job.physics.height;
  check_memory(fmt::format("a {}x{} map{}", w, h, job.data.empty() ? "" : " with --data"),
               map_memory_bytes(w, h, !job.data.empty()));
}

void check_sim_memory(const SimJob& job) {
  if (job.scene.empty()) return;
  const SceneEntry& scene = find_scene(job.scene);
  const ParamValue* n = nullptr;
  for (const auto& p : scene.description.parameters)
    if (p.spec.name == "n") n = &p.default_value;
  for (const auto& [name, value] : job.scene_settings)
    if (name == "n") n = &value;
  const auto* count = n ? std::get_if<std::int64_t>(n) : nullptr;
  // Out of the scene's range, or a scene of fixed size: the scene says what it accepts.
  if (!count || *count <= 0 || *count > kMaxSceneParticles) return;
  check_memory(fmt::format("scene {} with --n {} in {} with {}", job.scene, *count,
                           to_string(job.precision), job.integrator),
               sim_memory_bytes(job, *count));
}

}  // namespace orrery

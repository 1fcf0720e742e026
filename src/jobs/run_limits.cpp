// SPDX-License-Identifier: MIT
#include "orrery/jobs/run_limits.hpp"

#include <sys/statvfs.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/memory_budget.hpp"
#include "orrery/jobs/memory_estimate.hpp"

namespace orrery {

namespace {

// A snapshot stores positions, velocities, masses, ids and softening (8 bytes each) per
// particle, and its diagnostics and HDF5 group headers once.
constexpr double kSnapshotBytesPerParticle = 9 * 8;
constexpr double kSnapshotFixedBytes = 4096;

double free_disk_bytes(const std::filesystem::path& out) {
  const std::filesystem::path folder = out.has_parent_path() ? out.parent_path() : ".";
  struct statvfs fs {};
  if (::statvfs(folder.c_str(), &fs) != 0) return INFINITY;  // unknown: not a reason to refuse
  return static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
}

}  // namespace

void check_run_limits(const SimJob& job, std::int64_t particles, double t_start, double dt,
                      double t_end, std::int64_t every) {
  const double steps = std::ceil((t_end - t_start) / dt);
  if (!(steps <= kMaxRunSteps)) {
    const bool blame_t_end = !(job.dt > 0) && !std::isnan(job.t_end);
    const std::string origin =
        job.dt > 0 ? "" : fmt::format(" (the step of {})", job.scene.empty() ? job.input : job.scene);
    if (blame_t_end)
      throw ParameterError("--t-end", fmt::format("{}", t_end),
                           fmt::format("a time that dt = {}{} reaches from t = {} in at most "
                                       "{:.0e} steps; this one takes {:.3g}",
                                       dt, origin, t_start, kMaxRunSteps, steps));
    throw ParameterError("--dt", fmt::format("{}{}", dt, origin),
                         fmt::format("a step that reaches t-end = {} from t = {} in at most "
                                     "{:.0e} steps; this one takes {:.3g}",
                                     t_end, t_start, kMaxRunSteps, steps));
  }
  double snapshots = 1;  // at t_end
  if (every > 0) snapshots += std::floor(steps / static_cast<double>(every));
  if (job.every_time > 0) snapshots += std::floor((t_end - t_start) / job.every_time);
  if (snapshots > static_cast<double>(kMaxSnapshots))
    throw ParameterError(
        job.every_time > 0 ? "--every-time" : "--every",
        job.every_time > 0 ? fmt::format("{} ({:.3g} snapshots)", job.every_time, snapshots)
                           : fmt::format("{} ({:.3g} snapshots)", every, snapshots),
        fmt::format("at most {} snapshots in a run", kMaxSnapshots));
  const double disk = snapshots * (kSnapshotFixedBytes +
                                   kSnapshotBytesPerParticle * static_cast<double>(particles));
  const double free = free_disk_bytes(job.out);
  if (disk > free)
    throw InputError(fmt::format("--out: the run's {:.0f} snapshots of {} particles need about {} "
                                 "on disk; the disk holding '{}' has {} free (choose a larger "
                                 "--every or --every-time)",
                                 snapshots, particles, format_bytes(disk), shown_text(job.out),
                                 format_bytes(free)));
  check_memory(fmt::format("a run of {} particles in {} with {}", particles,
                           to_string(job.precision), job.integrator),
               sim_memory_bytes(job, particles));
}

}  // namespace orrery

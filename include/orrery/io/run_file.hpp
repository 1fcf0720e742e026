// SPDX-License-Identifier: MIT
// The file of an `orrery sim` run:
//
//   /                      every run parameter as an attribute (io/param_attributes.hpp), the
//                          scene's parameters as "scene.<name>", G, softening, units, N, the
//                          orrery version and git commit
//   /initial_diagnostics   attributes: the diagnostics at t = 0 (drifts are measured from them)
//   /snapshots/NNNNNN      datasets position [N][3], velocity [N][3], mass [N], id [N]
//                          (softening [N] when particles carry their own), in fp64; attributes
//                          time, step, energy, energy_kinetic, energy_potential, momentum,
//                          angular_momentum and the other diagnostics with their drifts
//   /checkpoints/a, /b     the state in the run's own precision (fp128 as 16 raw bytes per
//                          value); the clock (attributes time, time_error, steps, dt) and the
//                          next snapshot number; the stepper's own state in the run's precision,
//                          stepper/arrays/<name> and stepper/scalars/<name> (one value each);
//                          two of them, written alternately, each marked complete only after
//                          everything else is written, so an interrupted checkpoint leaves the
//                          previous one intact
//
// The file is created whole (temporary file, then rename) with the parameters and the first
// snapshot, then grown in place; every write ends with a flush.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "orrery/core/particles.hpp"
#include "orrery/integrate/stepper_state.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/io/hdf5_file.hpp"

namespace orrery {

// Everything a run needs to continue bit for bit: the state, the clock, the stepper's own
// state (integrate/stepper_state.hpp) and where the snapshots go on.
template <class Real>
struct Checkpoint {
  Particles<Real> particles;
  SimClock clock;
  StepperState<Real> stepper;
  std::int64_t next_snapshot = 0;
};

class RunFile {
 public:
  // Creates `path` atomically; `describe` writes the root attributes into the new file.
  static void create(const std::filesystem::path& path,
                     const std::function<void(hid_t root)>& describe,
                     const Diagnostics& initial);
  // Opens an existing run file for reading and appending.
  explicit RunFile(const std::filesystem::path& path);

  hid_t root() const { return file_.id(); }
  const std::filesystem::path& path() const { return path_; }
  Diagnostics initial_diagnostics() const;

  std::vector<std::int64_t> snapshots() const;  // indices, ascending
  template <class Real>
  void write_snapshot(std::int64_t index, const Particles<Real>& p, const SimClock& clock,
                      const Diagnostics& now, const Drift& drift);
  // Removes the snapshots numbered `first` and above (written after the checkpoint resumed from).
  void remove_snapshots_from(std::int64_t first);

  template <class Real>
  void write_checkpoint(const Checkpoint<Real>& c);
  // The newest complete checkpoint, if any.
  template <class Real>
  std::optional<Checkpoint<Real>> read_checkpoint() const;

 private:
  std::filesystem::path path_;
  h5::Handle file_;
};

std::string snapshot_name(std::int64_t index);  // "000042"

}  // namespace orrery

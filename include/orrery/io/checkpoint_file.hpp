// SPDX-License-Identifier: MIT
// One checkpoint of an `orrery sim` run, one HDF5 file:
//
//   /            attributes time, time_error, steps, dt (the clock), next_snapshot, the settings
//                a resumed run keeps (t_end, every, every_time, checkpoint_every), the energy
//                drift warning if one was raised (drift_warning = [time, step, drift]),
//                run_crc32: the CRC-32 of the bytes of its run's run.h5, binding the
//                checkpoint to its run, ranks: the MPI ranks that wrote it (absent: one
//                process), energy_offset: the energy merges took (absent: none), and
//                crc32: the CRC-32 (zlib) of every value above and below, in a fixed order
//   /x, /y, ...  the state in the run's own precision (fp128 as 16 raw bytes per value): x, y, z,
//                vx, vy, vz, mass [, softening] [, radius], id; the number of bodies is the
//                checkpoint's own (merges remove bodies)
//   /stepper/arrays/<name>, /stepper/scalars/<name>   the stepper's own state, same precision
//
// A checkpoint is read back only when its CRC matches the values read: a damaged file (a flipped
// bit, a torn write on a filesystem that lies about fsync) is refused, never resumed from.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>

#include <hdf5.h>

#include "orrery/core/particles.hpp"
#include "orrery/integrate/stepper_state.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery {

// What a resumed run keeps unless given again.
struct RunSettings {
  double t_end = 0.0;
  std::int64_t every = 0;
  double every_time = 0.0;
  std::int64_t checkpoint_every = 1;
};

// The first time the relative energy drift passed --max-drift; step −1: not yet.
struct DriftWarning {
  double time = std::numeric_limits<double>::quiet_NaN();
  std::int64_t step = -1;
  double drift = 0.0;
  bool raised() const { return step >= 0; }
};

// Everything a run needs to continue bit for bit: the state, the clock, the stepper's own
// state (integrate/stepper_state.hpp), where the snapshots go on, and the run's settings.
template <class Real>
struct Checkpoint {
  Particles<Real> particles;
  SimClock clock;
  StepperState<Real> stepper;
  std::int64_t next_snapshot = 0;
  RunSettings settings;
  DriftWarning drift_warning;
  // The CRC-32 of the bytes of the run.h5 of the run that wrote it; −1: none (a checkpoint of
  // an older orrery, bound to no run).
  std::int64_t run_crc32 = -1;
  // The ranks of the MPI job that wrote it (attribute "ranks", in the CRC); 0: one process. The
  // state is the whole system's in its global order whatever wrote it, so any number of ranks
  // resumes it; a resumed run says when the number changed.
  std::int64_t ranks = 0;
  // The energy merges took out of the system (Simulation::energy_offset).
  double energy_offset = 0.0;
};

// Writes `c` to `path` atomically (io/output_set.hpp). Throws RunError when the disk fails.
template <class Real>
void write_checkpoint_file(const std::filesystem::path& path, const Checkpoint<Real>& c);

// The bytes of the HDF5 file write_checkpoint_file writes, named `name`, with what `more` adds
// to its root after the checkpoint's own values (outside the CRC: a face's own description of
// what the state is, as Python's Simulation.save writes).
template <class Real>
std::string encode_checkpoint(const std::string& name, const Checkpoint<Real>& c,
                              const std::function<void(hid_t)>& more = {});

// Reads and verifies the checkpoint in `path`. Throws InputError saying what is wrong when the
// file cannot be read or its CRC does not match.
template <class Real>
Checkpoint<Real> read_checkpoint_file(const std::filesystem::path& path);

}  // namespace orrery

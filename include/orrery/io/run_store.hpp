// SPDX-License-Identifier: MIT
// The run of `orrery sim`: a folder (`--out NAME`) of files that are each written once, whole,
// and never changed in place, so that a kill at any moment costs at most the file being written:
//
//   NAME/run.h5                  root attributes: every run parameter (io/param_attributes.hpp),
//                                the scene's as "scene.<name>", G, softening, units, N, the orrery
//                                version and git commit; /initial_diagnostics (attributes): the
//                                diagnostics at the start, from which drifts are measured
//   NAME/snapshot_NNNNNN.h5      one snapshot: datasets position [N][3], velocity [N][3], mass [N],
//                                id [N] [, softening [N]] in fp64 at the root; attributes format
//                                ("orrery snapshot"), index, step, time, dt, G, softening, units,
//                                t-end, energy, momentum, ... and the drifts (drift_warning once
//                                the energy drift passed --max-drift)
//   NAME/diagnostics.h5          /diagnostics: the time series, one row per snapshot
//                                (io/diagnostics_table.hpp), rewritten after each snapshot
//   NAME/checkpoint_SSSSSS.h5    the state after step SSSSSS, exact and checksummed
//                                (io/checkpoint_file.hpp), with the CRC-32 of run.h5's bytes: a
//                                checkpoint of another run, or a run.h5 changed since, is refused
//                                (a run of the same parameters has the same run.h5 and, bit for
//                                bit, the same checkpoints: its are this run's); the newest two
//                                are kept
//   NAME/lock                    the writer's advisory lock (io/run_lock.hpp)
//
// Every file is written to a hidden temporary name, fsynced, renamed into place and the folder
// fsynced (io/output_set.hpp). A new run is made in a hidden folder beside NAME, which is renamed
// to NAME once it holds run.h5, the first snapshot and the first checkpoint: a run folder always
// has all three.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "orrery/core/particles.hpp"
#include "orrery/io/checkpoint_file.hpp"
#include "orrery/io/diagnostics_table.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_lock.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery {

// What every snapshot of a run says about its units and its plan, beside the particles.
struct SnapshotHeader {
  double g = 1.0;
  double softening = 0.0;
  std::string units;
};

class RunStore {
 public:
  // A new run, to appear as `folder` at publish(); throws ParameterError when `folder` exists.
  static RunStore create(const std::filesystem::path& folder);
  // An existing run, locked for writing (RunError naming the holder when another process writes
  // it); stray temporary files of an interrupted writer are removed.
  static RunStore open(const std::filesystem::path& folder);

  // The run's folder (while a new run is being made: its hidden working folder).
  const std::filesystem::path& folder() const { return folder_; }
  const std::filesystem::path& name() const { return name_; }

  // run.h5, written once; `describe` writes the root attributes.
  void write_description(const std::function<void(hid_t root)>& describe,
                         const Diagnostics& initial);
  // Moves a new run into place under its name; RunError when another run took the name.
  void publish();
  // Removes a new run's hidden working folder where it was not published (a start that failed:
  // a full disk, `ulimit -f`), so that nothing of it stays beside the name; else nothing.
  void discard_unpublished() noexcept;

  h5::Handle description() const;  // run.h5, read-only
  Diagnostics initial_diagnostics() const;

  std::vector<std::int64_t> snapshots() const;  // indices, ascending
  // Writes the snapshot, then the diagnostics table with its row added.
  template <class Real>
  void write_snapshot(std::int64_t index, const Particles<Real>& p, const SimClock& clock,
                      const Diagnostics& now, const Drift& drift, double t_end,
                      const DriftWarning& warning);
  // Removes the snapshots numbered `first` and above (written after the checkpoint resumed from)
  // and their rows of the diagnostics table; a table that lacks rows below `first` (a run of an
  // older orrery, a table lost) is made again from the snapshots' attributes.
  void remove_snapshots_from(std::int64_t first);

  // Writes a checkpoint and removes all but the newest two.
  template <class Real>
  void write_checkpoint(const Checkpoint<Real>& c);
  // The newest checkpoint that verifies. Damaged newer ones are renamed to "<name>.damaged"
  // and each is described in `notes`; InputError when none verifies, and when the newest that
  // verifies was written with another run.h5 than this one (copied from another run, or run.h5
  // damaged).
  template <class Real>
  Checkpoint<Real> read_checkpoint(std::vector<std::string>& notes);

 private:
  RunStore(std::filesystem::path folder, std::filesystem::path name, RunLock lock);
  void load_header();

  std::filesystem::path folder_, name_;
  RunLock lock_;
  SnapshotHeader header_;
  std::int64_t description_crc32_ = -1;  // of run.h5's bytes
  std::vector<DiagnosticsRow> table_;  // the rows of diagnostics.h5
};

// A snapshot file's bytes (an HDF5 image named `name`): the particles, the clock, the header's
// units, the diagnostics with their drift, and where the run ends. A run's snapshot `index`, or
// (index 0) a file of its own that `orrery sim --input` continues from its time.
template <class Real>
std::string encode_snapshot(const std::string& name, std::int64_t index, const Particles<Real>& p,
                            const SimClock& clock, const SnapshotHeader& header,
                            const Diagnostics& now, const Drift& drift, double t_end,
                            const DriftWarning& warning);

// Where the files of the run in `folder` are, and which there are.
std::filesystem::path run_description_path(const std::filesystem::path& folder);
std::filesystem::path snapshot_path(const std::filesystem::path& folder, std::int64_t index);
std::filesystem::path checkpoint_path(const std::filesystem::path& folder, std::int64_t steps);
std::vector<std::int64_t> run_snapshots(const std::filesystem::path& folder);
std::vector<std::int64_t> run_checkpoints(const std::filesystem::path& folder);  // by steps
bool is_run_folder(const std::filesystem::path& folder);  // has run.h5
// The time series of the run: its diagnostics.h5, or where that is missing (a run of an older
// orrery) the same rows from its snapshots' attributes.
std::vector<DiagnosticsRow> run_diagnostics(const std::filesystem::path& folder);

}  // namespace orrery

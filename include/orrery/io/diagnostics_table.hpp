// SPDX-License-Identifier: MIT
// The time series of a run: one row per snapshot, in NAME/diagnostics.h5 under /diagnostics,
// one dataset per column, row r for snapshot r:
//   index [n], step [n]  (int64)
//   time, mass, energy_kinetic, energy_potential, energy_total, virial_ratio, drift_energy, ...
//   [n] or [n][3] (fp64): the quantities of nbody/diagnostics.hpp (diagnostics_quantities), each
//   with its meaning as the attribute "help".
// The file is rewritten whole, atomically, at every snapshot (io/output_set.hpp): a kill leaves
// the table as it was with the previous snapshot.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <hdf5.h>

#include "orrery/nbody/diagnostics.hpp"

namespace orrery {

// One row: the snapshot's index and step, and the quantities flattened in
// diagnostics_quantities order (a vector as its three components).
struct DiagnosticsRow {
  std::int64_t index = 0;
  std::int64_t step = 0;
  std::vector<double> values;
};

DiagnosticsRow diagnostics_row(std::int64_t index, std::int64_t step, const Diagnostics& now,
                               const Drift& drift);
// The row a snapshot file's attributes hold (io/run_store.hpp writes them); InputError when one
// is missing.
DiagnosticsRow diagnostics_row_of_snapshot(hid_t snapshot_root);

std::filesystem::path diagnostics_table_path(const std::filesystem::path& run);
// The bytes of diagnostics.h5 holding `rows`.
std::string encode_diagnostics_table(const std::vector<DiagnosticsRow>& rows);
// The rows of a run's diagnostics.h5; InputError when it is missing or not such a table.
std::vector<DiagnosticsRow> read_diagnostics_table(const std::filesystem::path& run);

// One column of `rows` by its quantity name ("time", "drift_energy", "momentum" with
// `component` 0..2, ...); ParameterError naming the accepted names when there is none.
std::vector<double> diagnostics_column(const std::vector<DiagnosticsRow>& rows,
                                       const std::string& name, int component = 0);

}  // namespace orrery

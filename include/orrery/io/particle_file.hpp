// SPDX-License-Identifier: MIT
// Particles read from a file, as initial conditions of a run (`--input FILE`).
//
// CSV: a header line naming the columns in any order — m (or mass), x, y, z, vx, vy, vz, and
// optionally id (an unsigned integer), softening (ε_i ≥ 0) and r (or radius: R_i ≥ 0, for
// collisions) — then one line per particle.
// Blank lines and lines starting with '#' are skipped. Without an id column the ids are
// 0..N−1 in file order.
//
// HDF5: datasets mass [N], position [N][3], velocity [N][3], optionally id [N] (integer),
// softening [N] and radius [N], in the group given, else at the root, else in the last group (in name order)
// of /snapshots (the single-file runs of orrery before run folders; a run folder's
// snapshot_NNNNNN.h5 holds its particles at the root). Attributes G, softening (global ε),
// units and time of that group or of the root are used where present.
//
// Refused, with the file and the line (CSV) or dataset and row (HDF5) named: a missing or
// unknown column, a line with another number of values than the header, a value that is not a
// number or not finite, a mass ≤ 0, a negative softening, a duplicate id, fewer than 2
// particles. The format is told by the content (HDF5's signature), not the file name.
//
// G is 1 unless the file says otherwise; the step and end time are estimates from the
// dynamical time t_dyn = √(R³/(GM)) (scenes/dynamical_time.hpp): dt = 2^⌊log2(t_dyn/100)⌋,
// t_end = 100 t_dyn (both 0 when all particles sit at one point); a run should set its own.
#pragma once

#include <filesystem>
#include <limits>
#include <string>

#include "orrery/scenes/initial_conditions.hpp"

namespace orrery {

// `units_g`: G of the units the file is in (a CSV's orbits are converted to positions with it);
// NaN: the file's own, or 1 where it gives none. A file that gives another G is refused,
// ParameterError("--units", ...).
InitialConditions read_particle_file(const std::filesystem::path& path,
                                     const std::string& group = "",
                                     double units_g = std::numeric_limits<double>::quiet_NaN());

Particles<double> read_particle_csv(const std::filesystem::path& path, double g = 1.0);

struct HdfParticles {
  Particles<double> particles;
  std::string group;  // where they were found ("/" for the root)
  // Attributes found beside them (or at the root), NaN / empty where absent.
  double g = std::numeric_limits<double>::quiet_NaN();
  double softening = std::numeric_limits<double>::quiet_NaN();
  double time = std::numeric_limits<double>::quiet_NaN();
  std::string units;
};
HdfParticles read_particle_hdf5(const std::filesystem::path& path, const std::string& group = "");

}  // namespace orrery

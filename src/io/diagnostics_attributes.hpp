// SPDX-License-Identifier: MIT
// A snapshot's diagnostics as attributes of its HDF5 root: io/run_store.cpp writes them with each
// snapshot and reads them back for the run's table without the particles.
#pragma once

#include "orrery/io/hdf5_file.hpp"
#include "orrery/nbody/diagnostics.hpp"

namespace orrery {

void write_diagnostics(hid_t g, const Diagnostics& d);
// Throws InputError for an attribute that is missing or of the wrong shape.
Diagnostics read_diagnostics(hid_t g);

}  // namespace orrery

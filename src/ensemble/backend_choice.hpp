// SPDX-License-Identifier: MIT
// Where an ensemble runs (the divergence map and every other problem), decided before any work:
// CUDA when asked (or, for auto, when a device is there), else the CPU with a note saying why.
#pragma once

#include <string>
#include <vector>

#include "orrery/core/backend.hpp"

namespace orrery {

struct BackendChoice {
  bool on_gpu = false;
  std::string why;  // why no device is usable, where none is
};

// Throws InputError for --backend cuda without a CUDA build or a device, and ParameterError for
// a device list that names absent devices.
BackendChoice choose_backend(Backend asked, const std::vector<int>& devices);

// The note of a run that auto put on the CPU ("" for a run asked onto the CPU), with the CPU's
// own note on its threads after it.
std::string cpu_run_note(const BackendChoice& choice, Backend asked,
                         const std::string& threads_note);

}  // namespace orrery

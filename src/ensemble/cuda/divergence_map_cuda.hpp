// SPDX-License-Identifier: MIT
// The CUDA backend of the divergence map: all (or the chosen) GPUs of the host. Present only in
// builds with CUDA (ORRERY_WITH_CUDA).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery::cuda {

// The number of CUDA devices, or 0 with the reason in `why` (no driver, no device, ...).
int device_count(std::string* why = nullptr);
std::string device_name(int device);

// Every pixel of the grid, or the listed pixels, on `devices` (empty: all).
DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options);

}  // namespace orrery::cuda

// SPDX-License-Identifier: MIT
// A divergence map in HDF5: dataset `counts` (int32, [height][width]), dataset `nonfinite`
// (uint8, 1 where the integration produced a non-finite position), and as root attributes every
// parameter (named as the command-line flags), the precision, backend, kernel, threads, wall
// time, pixel-steps, and the orrery version and git commit.
#pragma once

#include <filesystem>
#include <string>

#include "orrery/core/precision.hpp"
#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

namespace orrery {

// The bytes of the file, for io/output_set.hpp; `name` is only recorded by HDF5.
std::string encode_divergence_map_file(const std::string& name, const DivergenceMapParams& params,
                                       Precision precision, const DivergenceMap& map);
// Written atomically; throws RunError naming the file and the reason.
void write_divergence_map_file(const std::filesystem::path& path,
                               const DivergenceMapParams& params, Precision precision,
                               const DivergenceMap& map);

struct StoredDivergenceMap {
  DivergenceMapParams params;
  Precision precision = Precision::fp64;
  DivergenceMap map;
  std::string orrery_version, git_hash;
};

StoredDivergenceMap read_divergence_map_file(const std::filesystem::path& path);

}  // namespace orrery

// SPDX-License-Identifier: MIT
// A divergence map over the ranks of an MPI job: each rank computes the rows of its interleaved
// tiles with its host's cores or GPUs (compute_divergence_pixels), no messages while it
// computes; rank 0 gathers the whole map. The counts are those of one process, bit for bit: a
// pixel's count depends on its start alone.
#pragma once

#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

namespace orrery::dist {

// One process: compute_divergence_map(). Over R ranks, on rank 0 the whole map (its info that
// of rank 0's part, its wall time the whole call's); on the others a map of width and height 0
// holding nothing. Collective.
DivergenceMap map_over_ranks(const DivergenceMapParams& params, const MapRunOptions& options);

}  // namespace orrery::dist

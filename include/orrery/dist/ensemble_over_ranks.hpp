// SPDX-License-Identifier: MIT
// An ensemble, or a field of chaos indicators, over the ranks of an MPI job: each rank
// integrates the trajectories of its interleaved tiles (their start rows written out, so that a
// swept start is the one of its place in the whole), no messages while it computes; rank 0
// gathers every trajectory's results in their order. The results are one process's, bit for
// bit: a trajectory's integration depends on its start alone.
#pragma once

#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery::dist {

// One process: run_ensemble(). Over R ranks, on rank 0 the whole outcome (its info that of
// rank 0's part); on the others an outcome of no trajectories. Collective.
EnsembleOutcome ensemble_over_ranks(const EnsembleSetup& setup, const EnsembleRunOptions& options);

// One process: run_chaos(). Over R ranks as ensemble_over_ranks().
ChaosOutcome chaos_over_ranks(const ChaosSetup& setup, const EnsembleRunOptions& options);

}  // namespace orrery::dist

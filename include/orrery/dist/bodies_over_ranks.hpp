// SPDX-License-Identifier: MIT
// An N-body simulation over the ranks of an MPI job (`orrery sim --engine direct`): each rank
// owns a contiguous slice of the bodies and steps it; before every force evaluation the
// positions of every slice are all-gathered (MPI_Allgatherv), and each rank computes its
// slice's accelerations against every body in the global order with its host's engine. A
// body's acceleration is then the sum one process computes, bit for bit (the engines sum each
// target alone: nbody/direct/cpu/direct_engine.hpp), and so is every step of a method whose
// update is body by body; a step control that takes a maximum norm decides on the maximum over
// the ranks, which rounds nothing. What is read of the whole system — snapshots, checkpoints,
// diagnostics — is gathered to rank 0 in the global order (nbody/body_share.hpp) and summed
// there as one process sums it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "orrery/core/particles.hpp"
#include "orrery/io/checkpoint_file.hpp"
#include "orrery/nbody/body_share.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery::dist {

// Bodies [begin, end) of the whole system's order.
struct BodySlice {
  std::size_t begin = 0, end = 0;
  std::size_t size() const { return end - begin; }
};
// Rank `rank`'s slice of n bodies over `size` ranks: contiguous, n·r/R to n·(r+1)/R.
BodySlice body_slice(std::size_t n, int rank, int size);
// This rank's slice in this job (the whole system in one process).
BodySlice my_body_slice(std::size_t n);

// The bodies of `slice`, in their order.
template <class Real>
Particles<Real> particles_of(const Particles<Real>& whole, BodySlice slice);

// An engine for this rank's slice of `total` bodies that gathers every rank's positions before
// each evaluation and asks `inner` (an engine of all `total` bodies) for its slice's
// accelerations. Its device is inner's, with the step control's maximum norm taken over the
// ranks. Collective: set_bodies (the masses are gathered), accelerations, potential_energy.
template <class Real>
std::unique_ptr<ForceEngine<Real>> engine_over_ranks(std::unique_ptr<ForceEngine<Real>> inner,
                                                     std::size_t total);

// An engine for this rank's slice of `total` bodies that computes with the CPU Barnes–Hut tree
// of `options` (θ, multipole, leaf and group sizes, this rank's threads) over the ranks: the
// bodies travel for each evaluation to the rank whose domain of space holds them, each rank
// walks its domain's octree and the local essential trees the others send it, and the
// accelerations travel back (src/dist/tree_over_ranks.cpp). Forces depend on the number of
// ranks (on which cells travel whole) within the tree's accuracy; reruns with the same ranks
// give the same bits. Collective: accelerations, potential_energy.
template <class Real>
std::unique_ptr<ForceEngine<Real>> tree_over_ranks(const EngineOptions& options,
                                                   std::size_t total);

// The BodyShare of this rank's slice of `total` bodies (a Simulation's: share_bodies).
template <class Real>
std::unique_ptr<BodyShare<Real>> body_share_over_ranks(std::size_t total);

// Seconds this rank spent in the force evaluations of engines over ranks since the last call,
// apart: computing its slice's accelerations, all-gathering the positions (with the staging
// copies), and waiting for the slowest rank before the gather (measured only where
// `measure_wait`: a barrier before each gather, for a benchmark).
struct RankForceTimes {
  double compute = 0, communicate = 0, wait = 0;
  std::int64_t evaluations = 0;
};
RankForceTimes take_rank_force_times();
void measure_rank_wait(bool measure_wait);

// Collective: rank 0's checkpoint (read from its run store) on every rank.
template <class Real>
void broadcast_checkpoint(Checkpoint<Real>& c);

}  // namespace orrery::dist

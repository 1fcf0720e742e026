// SPDX-License-Identifier: MIT
// A Simulation whose bodies are shared among the processes of a job (the ranks of MPI: dist/):
// each process holds and steps a contiguous slice of the bodies, and a BodyShare puts the
// slices together where the whole system is read (snapshots, checkpoints, diagnostics) and takes
// a process's slice of a whole state back (a checkpoint resumed). nbody/ knows only this
// interface; dist/ implements it over MPI. Every call is collective: every process makes it, in
// the same order.
#pragma once

#include <cstddef>
#include <optional>

#include "orrery/core/particles.hpp"
#include "orrery/integrate/stepper_state.hpp"
#include "orrery/nbody/diagnostics.hpp"

namespace orrery {

struct NonFinite;

template <class Real>
class BodyShare {
 public:
  virtual ~BodyShare() = default;
  // The whole system's bodies in their global order on the process that writes; an empty
  // Particles on the others.
  virtual Particles<Real> whole(const Particles<Real>& mine) = 0;
  // A stepper's state as one process stepping every body would have saved it: each array is
  // blocks of one value per body (3 blocks for a's three components), put together block by
  // block; the scalars, the same on every process, as they are. On the writer; empty elsewhere.
  virtual StepperState<Real> whole(const StepperState<Real>& mine, std::size_t bodies) = 0;
  // This process's slice of a whole state (the inverse of whole()).
  virtual StepperState<Real> mine(const StepperState<Real>& whole, std::size_t bodies) = 0;
  // The whole system's diagnostics with potential energy `w`, summed as one process sums them
  // (in the bodies' global order), on every process.
  virtual Diagnostics diagnostics(const Particles<Real>& mine, double w, double time) = 0;
  // The first non-finite value of the whole system (its particle index global) where any
  // process found one in its slice (`mine`, its index in the slice), on every process.
  virtual std::optional<NonFinite> first_nonfinite(std::optional<NonFinite> mine) = 0;
};

}  // namespace orrery

// SPDX-License-Identifier: MIT
// A job's checks, run on every rank before any work, ending every rank alike where one refuses:
// bad input is said once, by one rank, and no rank is left waiting for the others.
#pragma once

#include <functional>
#include <stdexcept>

namespace orrery::dist {

// Another rank's check refused (it says why); this rank stops quietly with `status`.
class StoppedElsewhere : public std::runtime_error {
 public:
  StoppedElsewhere(int rank, int status);
  int rank() const { return rank_; }
  int status() const { return status_; }

 private:
  int rank_, status_;
};

// Runs `check` (reads only: parameters, paths, input files) on every rank; collective. Where it
// throws on no rank, returns. Where it throws on some, the lowest of them throws its exception
// again (the face reports it) and every other rank throws StoppedElsewhere, with status 2 where
// that exception is an InputError and 1 otherwise. One process: check().
void check_on_every_rank(const std::function<void()>& check);

// Whether this rank has met no check_on_every_rank() yet. A job's first collective is its first
// check, so a rank that refuses its input before it (reading flags or a config file) finds the
// other ranks at that check, or refusing the same input: it may join the check with its refusal
// (check_on_every_rank with a check that throws it again) and the ranks end together.
bool before_first_check();

// Whether check_on_every_rank() threw this rank's exception again: every rank has stopped, and
// this one need only say why and end (no other waits for it).
bool stopped_together();

}  // namespace orrery::dist

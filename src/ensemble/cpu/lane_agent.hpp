// SPDX-License-Identifier: MIT
// The CPU lanes' agent, shared by every problem: it feeds each SIMD lane a trajectory, stops it
// (its length reached, or its problem's stop rule), collects its record, and refills the lane at
// once, so that trajectories which finish at different steps never leave a lane idle. What a
// lane computes is the client's: its start, its step, its stop rule and its record
// (docs/internals/ensemble-engine.md; the CUDA kernel's agent is the same split).
//
// A client (one problem's lanes over one task source) gives:
//
//   Mask, lanes                     the SIMD mask type and the lanes of a vector
//   steps, samples                  a trajectory's length, unless stopped, and the checkpoints
//                                   in it: checkpoint k ends at step ⌊steps·k/samples⌋, 1 ≤ k ≤
//                                   samples (the last is the trajectory's end)
//   starter_steps                   steps at a trajectory's start during which a multistep
//                                   method must be told it is starting (0 for one-step methods)
//   stop_rule                       true: stopped() is asked before every step
//   bool next(std::int64_t& task)   the next task from the feed; false when none remains
//   void load(int l, task)          lane l's start
//   void begin()                    after loads: what the integrator derives from every lane's
//                                   state (recomputed for unchanged lanes it gives their bits)
//   Mask stopped()                  the lanes whose stop rule holds now (only with stop_rule)
//   void sample(int l, task, k)     lane l at its checkpoint k < samples
//   void finish(int l, task, done, stopped)  lane l's record: `done` steps, stopped by its rule
//   void step(const Mask& starting) one step of every lane (every lane's own starter phase)
//   void run(std::int64_t k)        k steps of every lane, none of them starting (no stop rule)
//   void end()                      after the last task: the thread's totals handed in
//
// A lane without a task keeps integrating a finite copy of a trajectory (never NaN or
// denormals for the vector units); its results are dropped.
#pragma once

#include <cstdint>
#include <limits>

#include "orrery/core/simd.hpp"

#if !defined(ORRERY_CPU_KERNEL)
#error "compile with -DORRERY_CPU_KERNEL=<isa>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

template <class Client>
void run_lane_agent(Client& c) {
  using Mask = typename Client::Mask;
  constexpr int L = Client::lanes;
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  const std::int64_t steps = c.steps;

  std::int64_t task[L];
  std::int64_t start[L];  // the agent's clock when lane l's trajectory started
  int sample[L];          // lane l's next checkpoint
  Mask active(false);

  // Gives lane l the next task, starting at the clock's step n.
  const auto assign = [&](int l, std::int64_t n) {
    if (!c.next(task[l])) {
      active[l] = false;
      return;
    }
    start[l] = n;
    sample[l] = 1;
    active[l] = true;
    c.load(l, task[l]);
  };
  // Records lane l's trajectory and refills the lane (a lane left without a task takes a copy
  // of its last trajectory's start).
  const auto refill = [&](int l, std::int64_t n, bool stopped) {
    c.finish(l, task[l], n - start[l], stopped);
    assign(l, n);
    if (!active[l]) c.load(l, task[l]);
  };
  const auto checkpoint = [&](int l) { return start[l] + steps * sample[l] / c.samples; };
  const auto next_deadline = [&]() {
    std::int64_t d = kNever;
    for (int l = 0; l < L; ++l)
      if (active[l] && checkpoint(l) < d) d = checkpoint(l);
    return d;
  };
  // Lanes in their trajectory's first steps, for multistep starters (n: the clock).
  const auto starting = [&](std::int64_t n) {
    Mask m(false);
    if constexpr (Client::starter_steps > 0)
      for (int l = 0; l < L; ++l) m[l] = n - start[l] < Client::starter_steps;
    return m;
  };

  for (int l = 0; l < L; ++l) assign(l, 0);
  if (stdx::none_of(active)) {
    c.end();
    return;
  }
  for (int l = 0; l < L; ++l)
    if (!active[l]) c.load(l, task[stdx::find_first_set(active)]);
  c.begin();

  std::int64_t n = 0;  // the clock; lane l is at step n − start[l] of its trajectory
  std::int64_t deadline = next_deadline();
  while (stdx::any_of(active)) {
    if (n == deadline) {  // lanes at a checkpoint: sampled, or at their end
      bool refilled = false;
      for (int l = 0; l < L; ++l) {
        if (!active[l] || n != checkpoint(l)) continue;
        if (sample[l] < c.samples) {
          c.sample(l, task[l], sample[l]);
          ++sample[l];
        } else {
          refill(l, n, false);
          refilled = true;
        }
      }
      if (refilled) c.begin();
      deadline = next_deadline();
      continue;  // fresh lanes are checked at their step 0 before anything moves
    }
    if constexpr (Client::stop_rule) {
      // Steps until a lane stops or the deadline. This loop calls nothing out of line: the
      // client's members are memory that the feed's calls can reach, so a call anywhere in the
      // loop that steps would make the compiler reload the client's constants (its gravity,
      // step, threshold) at every step, where here they stay in registers.
      Mask stopped(false);
      while (n != deadline) {
        stopped = c.stopped() && active;
        if (stdx::any_of(stopped)) break;
        c.step(starting(n));
        ++n;
      }
      if (stdx::any_of(stopped)) {
        for (int l = 0; l < L; ++l)
          if (stopped[l]) refill(l, n, true);
        c.begin();
        deadline = next_deadline();
      }
    } else {
      if constexpr (Client::starter_steps > 0) {
        const Mask m = starting(n) && active;
        if (stdx::any_of(m)) {
          c.step(m);
          ++n;
          continue;
        }
      }
      c.run(deadline - n);
      n = deadline;
    }
  }
  c.end();
}

}  // namespace
}  // namespace orrery::cpu::ORRERY_CPU_KERNEL

// SPDX-License-Identifier: MIT
// When this process started, on the steady clock: how long it took to reach main() (loading,
// relocating, static initialisers) and how long it has run in all, as a user measures it from
// outside. Linux records a process's start in clock ticks (sysconf(_SC_CLK_TCK), 100 per second
// on Linux), so the start is known to one tick.
#pragma once

#include <chrono>

namespace orrery {

// The start of this process (its fork), or now where /proc cannot say.
std::chrono::steady_clock::time_point process_started();
// The resolution of process_started(): one clock tick.
std::chrono::duration<double> process_clock_tick();

}  // namespace orrery

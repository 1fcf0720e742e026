// SPDX-License-Identifier: MIT
// Host-side view of the CUDA divergence kernel: what one launch works from and how it is
// started. (The kernel itself is in twin_kernel.cuh, its launch in twin_launch.cu; this header
// holds no device code.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "orrery/core/precision.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery::cuda {

// The work of one persistent launch, fed by the host while it runs. A thread claims sequence
// number s (`sequence` plus one atomic increment in device memory) and waits until the host has
// written entry s mod capacity of the ring, a 64-bit word (s + 1) << 32 | item in pinned host
// memory (entries of earlier launches hold smaller numbers); it stops when the host closes the
// feed. Item i is pixel list[i] (row-major k·width + j) or, without a list, pixel i;
// its result goes to out[i] (result_collector.hpp: the count, complemented if non-finite),
// also in pinned host memory.
// The counters of the queue of parked trajectories, in device memory (persistent_agent.cuh). The
// queue is a ring of `capacity` slots: a warp reserves positions at `tail`, writes each slot's
// state, steps and item before its tag (position + 1), then adds them to `published`. A warp
// claims from `published` first, then takes positions at `head`, waits for each tag and clears
// it once read. All zeroed before the launch but `live_cap`.
struct ParkingCounters {
  unsigned long long head;        // the next position to take
  unsigned long long tail;        // the next position to reserve
  unsigned long long live;        // pixels started and not finished
  unsigned long long warps_left;  // warps that have left the kernel
  unsigned long long no_new_pixel;  // becomes 1 when a thread finds no new pixel left
  // Positions written and not yet claimed, read as a signed count: a claim takes first and gives
  // back the excess (claim_parked, persistent_agent.cuh).
  unsigned long long published;
  // New pixels start at a segment's end while fewer are live (set before the launch; the host
  // may raise it while the kernel runs).
  unsigned long long live_cap;
  // The lanes running at segment ends, summed until no_new_pixel is set: the device's progress.
  unsigned long long progress;
  // The median step count of the running trajectories, tracked once no_new_pixel is set.
  unsigned long long median_steps;
};

// The diagnostic counters (ORRERY_GPU_STATS), summed over warps.
struct TwinStats {
  unsigned long long segment_ends;
  unsigned long long cycles_at_ends;  // SM clock cycles spent at segment ends,
  unsigned long long cycles_new;      // of them in starting new pixels there,
  unsigned long long cycles_take;     // in taking parked ones,
  unsigned long long cycles_park;     // and in parking
  unsigned long long ring_waits;      // polls of an empty host ring
  unsigned long long warps_left;      // warps that left early
  unsigned long long unpark_waits;    // polls of a parked slot not yet written
  unsigned long long park_waits;      // polls of a parked slot not yet read
};

// Trajectories parked between segments, in device memory (persistent_agent.cuh).
struct TwinParking {
  ParkingCounters* counters = nullptr;
  unsigned long long* tag = nullptr;       // [capacity], zeroed before the launch
  void* state = nullptr;                   // [words][capacity] of the precision's Real
  std::int32_t* steps = nullptr;           // [capacity]
  std::uint32_t* item = nullptr;           // [capacity]
  unsigned long long capacity = 0;
  unsigned segment = 0;             // loop passes between segment ends; 0: never park
  // Once no new pixel remains, trajectories behind the median step count (median_steps) skip
  // their turn in the queue while more are live than threads run (persistent_agent.cuh).
  bool catch_up = false;
  // Diagnostics (ORRERY_GPU_STATS): null, or the counters summed over warps.
  TwinStats* stats = nullptr;
};

struct TwinFeed {
  const std::uint64_t* ring = nullptr;     // mapped pinned host memory, `capacity` entries
  std::uint64_t capacity = 0;              // a power of two
  std::uint64_t sequence = 0;              // the sequence number of the launch's first claim
  const int* closed = nullptr;             // mapped pinned: 1 once no more entries will come
  int* overrun = nullptr;                  // mapped pinned: set if an entry was overwritten unread
  unsigned long long* claimed = nullptr;   // device memory, zeroed before the launch
  const std::uint64_t* list = nullptr;     // device memory, or null
  std::int32_t* out = nullptr;             // mapped pinned host memory: result words
  TwinParking park;
};

struct TwinLaunch {
  int blocks = 0;
  int threads_per_block = 0;
};

// Bytes of one parked trajectory: the twin pair's state words (and its integrator's) in the
// precision's Real.
int twin_parked_bytes(const DivergenceSetup& setup, Precision precision);

// The launch shape that fills the device: every resident thread works through pixels until the
// feed closes.
TwinLaunch twin_launch_shape(const DivergenceSetup& setup, Precision precision, bool exact,
                             int device);

// The kernels, compiled once per map integrator I (twin_kernel.cuh): the one for a precision
// mode, a 0-based varied body, and the exact or the fast pair factor.
using TwinKernelFn = void (*)(const DivergenceSetup, const TwinFeed);
template <int I>
TwinKernelFn twin_kernel_for(Precision precision, int body, bool exact);

// Enqueues the kernel on `stream`; checks the launch.
void launch_twin_kernel(const DivergenceSetup& setup, Precision precision, bool exact,
                        const TwinFeed& feed, const TwinLaunch& shape, cudaStream_t stream);

}  // namespace orrery::cuda

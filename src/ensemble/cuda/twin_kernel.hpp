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
// Trajectories parked between segments, in device memory (see twin_kernel.cuh). A ring of
// `capacity` slots: a warp reserves positions at counters[1] (tail), writes each slot's state,
// steps and item before its tag (position + 1), then adds them to counters[5] (published, not
// yet claimed; signed). A warp claims from counters[5] first, then takes positions at counters[0]
// (head), waits for each tag and clears it once read. counters[2] counts the pixels started and
// not finished; counters[3] the warps that have left; counters[4] becomes 1 when a thread finds
// no new pixel left. counters[6] is the live cap: new pixels start at a segment's end while fewer
// are live (set before the launch; the host may raise it while the kernel runs). counters[7]
// sums the lanes running at segment ends before counters[4] is set: the device's progress.
// counters[8] tracks the median step count of the running trajectories once counters[4] is set.
struct TwinParking {
  unsigned long long* counters = nullptr;  // [9], zeroed before the launch but [6]
  unsigned long long* tag = nullptr;       // [capacity], zeroed before the launch
  void* state = nullptr;                   // [words][capacity] of the precision's Real
  std::int32_t* steps = nullptr;           // [capacity]
  std::uint32_t* item = nullptr;           // [capacity]
  unsigned long long capacity = 0;
  unsigned segment = 0;             // loop passes between segment ends; 0: never park
  // Once no new pixel remains, trajectories behind the median step count (counters[8]) skip
  // their turn in the queue while more are live than threads run (twin_kernel.cuh).
  bool catch_up = false;
  // Diagnostics (ORRERY_GPU_STATS): null, or kTwinStats counters summed over warps.
  unsigned long long* stats = nullptr;
};

// The diagnostic counters: segment ends; SM clock cycles spent at them, in starting new pixels
// there, in taking parked ones, in parking; polls of an empty host ring; warps that left early;
// polls of a parked slot not yet written, and of one not yet read.
inline constexpr int kTwinStats = 9;
inline constexpr const char* kTwinStatNames[kTwinStats] = {
    "segment_ends", "cycles_at_ends", "cycles_new", "cycles_take", "cycles_park",
    "ring_waits",   "warps_left",     "unpark_waits", "park_waits"};


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

// SPDX-License-Identifier: MIT
// The persistent GPU kernel's agent, shared by the problems whose trajectories stop at different
// steps: a persistent grid fed by the host, in which a thread whose trajectory stops takes the
// next new one at once, so no lane idles while its neighbours run on and one launch serves the
// whole run. Every `segment` passes a warp parks its trajectories in a device queue and takes the
// longest-waiting ones back (processor sharing: long trajectories start early and end together),
// and at the end sparse warps hand theirs to fuller ones and the trajectories behind the median
// catch up (docs/internals/map-gpu.md). What a thread computes is the client's
// (docs/internals/ensemble-engine.md; the CPU lanes' agent, cpu/lane_agent.hpp, is the same
// split).
//
// A client (all __device__, const; the map's is TwinClient, twin_kernel.cuh) gives:
//
//   State, Real, Record               a trajectory's registers, their word type, its result word
//   Setup, Client(const Setup&)       the kernel's parameter it is built from (once per thread)
//   load(st, task)                    task's start, and what the integrator derives from it
//   begin(st)                         after a parked state is copied back: what was not parked
//   runs(st, n)                       before step n: whether the trajectory goes on (else it
//                                     stops, and record(st, n) is its result)
//   step(st, n)                       step n → n + 1
//   for_each_parked(st, f) (static)   f(word, index) for every word a parked trajectory carries
//
// The agent builds the client itself, from the kernel's setup parameter taken by reference: a
// client built in the kernel and handed in, by value or by reference, is compiled as an argument
// of the agent before it is inlined, and the heaviest kernels (ab4 in fp64, at their register
// limit) then spill more. Likewise the stop rule is asked as "goes on" (a "stops" predicate
// turns the loop's branches around), the feed is taken by value and unpark_at completes the
// parked state itself: with these the map's kernels compile to the machine code they had as one
// function (scripts/ptxas_map_all.sh, scripts/cubin_text_compare.py).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include <cuda/atomic>

#include "ensemble/cuda/map_schedule_policy.hpp"
#include "ensemble/cuda/twin_kernel.hpp"

namespace orrery::cuda {

namespace {

// A load of a word the host writes to pinned memory while the kernel runs: `acquire` also sees
// everything the host wrote before it wrote this value, `relaxed` just the word.
template <class T>
__device__ T load_from_host(const T& x, ::cuda::memory_order order) {
  return ::cuda::atomic_ref<T, ::cuda::thread_scope_system>(const_cast<T&>(x)).load(order);
}

// The next work item for this thread, or false when the feed is closed. The host writes ring
// entries and `closed` into pinned memory while the kernel runs. An entry is one word (tag and
// item), read relaxed: nothing else the host wrote is needed with it.
__device__ bool next_item(const TwinFeed& f, std::uint32_t& item) {
  const std::uint64_t s = f.sequence + atomicAdd(f.claimed, 1ull);
  const std::uint64_t tag = s + 1;
  const std::uint64_t& slot = f.ring[s & (f.capacity - 1)];  // a power of two
  for (;;) {
    const std::uint64_t e = load_from_host(slot, ::cuda::memory_order_relaxed);
    if ((e >> 32) == tag) {
      item = e & 0xffffffffu;
      return true;
    }
    if ((e >> 32) > tag) {  // the host reused the slot before this thread read it
      *const_cast<volatile int*>(f.overrun) = 1;
      return false;
    }
    if (load_from_host(*f.closed, ::cuda::memory_order_acquire)) {
      // Entries written before `closed` are visible now: look once more.
      const std::uint64_t again = load_from_host(slot, ::cuda::memory_order_relaxed);
      if ((again >> 32) != tag) return false;
      item = again & 0xffffffffu;
      return true;
    }
    if (f.park.stats) atomicAdd(&f.park.stats->ring_waits, 1ull);
    __nanosleep(500);
  }
}

constexpr unsigned kFullWarp = 0xffffffffu;

template <class T>
using DeviceAtomic = ::cuda::atomic_ref<T, ::cuda::thread_scope_device>;

// Writes a trajectory at queue position `pos`, once the slot's previous occupant has been read.
template <class Client>
__device__ void park_at(const TwinParking& q, unsigned long long pos,
                        typename Client::State& st, std::int32_t n, std::uint32_t item) {
  using R = typename Client::Real;
  const unsigned long long slot = pos & (q.capacity - 1);
  DeviceAtomic<unsigned long long> tag(q.tag[slot]);
  while (tag.load(::cuda::memory_order_acquire) != 0) {
    if (q.stats) atomicAdd(&q.stats->park_waits, 1ull);
    __nanosleep(100);
  }
  R* words = static_cast<R*>(q.state);
  Client::for_each_parked(st, [&](R& v, int w) { words[w * q.capacity + slot] = v; });
  q.steps[slot] = n;
  q.item[slot] = item;
  tag.store(pos + 1, ::cuda::memory_order_release);
}

// Reads the trajectory at queue position `pos` (claimed by this thread), waiting for its writer,
// and frees the slot; the client then derives what was not parked.
template <class Client>
__device__ void unpark_at(const TwinParking& q, unsigned long long pos, const Client& c,
                          typename Client::State& st, std::int32_t& n, std::uint32_t& item) {
  using R = typename Client::Real;
  const unsigned long long slot = pos & (q.capacity - 1);
  DeviceAtomic<unsigned long long> tag(q.tag[slot]);
  while (tag.load(::cuda::memory_order_acquire) != pos + 1) {
    if (q.stats) atomicAdd(&q.stats->unpark_waits, 1ull);
    __nanosleep(100);
  }
  const R* words = static_cast<const R*>(q.state);
  Client::for_each_parked(st, [&](R& v, int w) { v = words[w * q.capacity + slot]; });
  n = q.steps[slot];
  item = q.item[slot];
  tag.store(0, ::cuda::memory_order_release);
  c.begin(st);
}

// Claims up to `want` parked positions, none if fewer than `least` are published (lane 0 of a
// warp); returns the first and sets `got`. Single atomic additions, never a compare-and-swap
// loop: thousands of warps end segments every millisecond, and a contended CAS loop serves about
// one per L2 round trip. `available` (published, not yet claimed) is taken first, the excess given
// back; a claim that races with another may briefly see too few and take none, which costs
// nothing but a later turn.
__device__ unsigned long long claim_parked(const TwinParking& q, unsigned want, unsigned least,
                                          unsigned& got) {
  DeviceAtomic<long long> available(*reinterpret_cast<long long*>(&q.counters->published));
  const long long before = available.fetch_sub(want, ::cuda::memory_order_relaxed);
  got = before <= 0 ? 0u : before < want ? static_cast<unsigned>(before) : want;
  if (got < least) got = 0;
  if (got < want) available.fetch_add(want - got, ::cuda::memory_order_relaxed);
  return got ? atomicAdd(&q.counters->head, static_cast<unsigned long long>(got)) : 0;
}

// Publishes `count` positions this warp has written (lane 0, after the warp's writes).
__device__ void publish_parked(const TwinParking& q, unsigned count) {
  __threadfence();
  DeviceAtomic<long long>(*reinterpret_cast<long long*>(&q.counters->published))
      .fetch_add(count, ::cuda::memory_order_relaxed);
}

// One thread integrates one trajectory at a time. Without parking (segment 0) a thread whose
// trajectory stops takes the next new one from the host and leaves when none remains. With
// parking, a warp's lanes also stop together every `segment` passes: every running trajectory
// is parked and the warp takes up to 32 again — new ones while fewer than the live cap are
// live, else the longest-parked ones — so each live trajectory gets its turn (processor
// sharing: no long trajectory starts late, the one thing that would hold the end of the run),
// and once no new one remains sparse warps hand their trajectories to fuller ones and leave
// (the remaining work stays packed into full warps instead of idling most lanes of many);
// meanwhile, with `catch_up`, the trajectories behind the median step count keep their lanes,
// so the last ones end together.
//
// The step loop carries nothing but the state, the step count, the item and a pass counter:
// every register it does not hold is one more for the step's own temporaries (the heaviest
// kernels run at their register limit). Called by the client's kernel, which has the problem's
// launch bounds; everything is inlined into it.
template <class Client>
__device__ __forceinline__ void persistent_agent(const typename Client::Setup& setup,
                                                 const TwinFeed f) {
  static_assert(std::is_same_v<typename Client::Record, std::int32_t>,
                "the feed's results are int32 words");
  const Client c(setup);
  const TwinParking& q = f.park;

  typename Client::State st;
  std::uint32_t item = 0;
  std::int32_t n = 0;  // checks passed so far
  bool open = true;    // new tasks may remain for this thread
  auto start_new = [&] {
    if (open && next_item(f, item)) {
      c.load(st, f.list ? f.list[item] : item);
      n = 0;
      if (q.segment) atomicAdd(&q.counters->live, 1ull);
      return true;
    }
    if (open && q.segment)
      DeviceAtomic<unsigned long long>(q.counters->no_new_pixel)
          .store(1, ::cuda::memory_order_relaxed);
    open = false;
    return false;
  };
  // One pass: check the trajectory; if it stops, record it and take a new one (checked at its
  // step 0 on the next pass before anything moves), else advance it.
  auto pass = [&](bool& has) {
    if (!c.runs(st, n)) {
      f.out[item] = c.record(st, n);
      if (q.segment) atomicAdd(&q.counters->live, ~0ull);
      has = start_new();
    } else {
      c.step(st, n);
      ++n;
    }
  };

  bool has = start_new();
  if (!q.segment) {
    while (has) pass(has);
    return;
  }

  const unsigned lane = threadIdx.x % 32;
  const unsigned below = (1u << lane) - 1;
  // Lanes without a trajectory take parked ones, oldest first, if at least `least` are
  // published (the whole warp calls this).
  auto take_parked = [&](unsigned least) {
    const unsigned idle = __ballot_sync(kFullWarp, !has);
    unsigned got = 0;
    unsigned long long first = 0;
    if (lane == 0 && idle) first = claim_parked(q, __popc(idle), least, got);
    got = __shfl_sync(kFullWarp, got, 0);
    first = __shfl_sync(kFullWarp, first, 0);
    const unsigned rank = __popc(idle & below);
    if (!has && rank < got) {
      unpark_at(q, first + rank, c, st, n, item);
      has = true;
    }
  };
  // Warps end their segments at different passes (a hashed phase), so that they do not all
  // reach the queue's counters at once. Once no new task remains, segments are
  // short_segment_divisor times shorter: that is when packing pays.
  const unsigned short_segment = max(q.segment / MapPolicy::short_segment_divisor, 1u);
  unsigned left = 1 + ((blockIdx.x * blockDim.x + threadIdx.x) / 32 * 2654435761u) % q.segment;
  bool ending = false;  // no new task remains for anyone (the same in every lane)
  for (;;) {
    // One segment, or less if the warp runs dry.
    for (;;) {
      if (has) pass(has);
      if (--left == 0) break;
      if ((left & 63) == 0) {
        if (!ending) {
          unsigned long long none_left = 0;
          if (lane == 0)
            none_left = DeviceAtomic<unsigned long long>(q.counters->no_new_pixel)
                            .load(::cuda::memory_order_relaxed);
          if (__shfl_sync(kFullWarp, none_left, 0)) {
            // Once a thread has found the feed closed, the warp stops reading the host's ring:
            // those reads of pinned memory, one to three per thread at the end of a run,
            // stalled the memory fences of the warps parking meanwhile (up to 250 µs each,
            // against 0.4 µs) and slowed the last tenth of a run threefold
            // (docs/internals/map-gpu.md).
            ending = true;
            open = false;
            left = min(left, short_segment);
          }
        }
        if (!__any_sync(kFullWarp, has)) break;
      }
    }
    left = ending ? short_segment : q.segment;

    // The segment's end: park every running trajectory (but those catching up, below).
    const long long t0 = q.stats ? clock64() : 0;
    const unsigned running = __ballot_sync(kFullWarp, has);
    bool stay = false;
    if (ending && q.catch_up) {
      // Once no new task remains, the device's end is its last trajectories'. Under plain turns
      // every live trajectory advances alike, so the lead that the first-started ones got is
      // kept to the end: the last ones then run with fewer trajectories than threads, lanes
      // idling. Trajectories behind the median step count stay on their lanes instead of
      // queueing, while more are live than the device has threads: the ones behind catch up
      // (least attained first), and the full-length ones end together.
      unsigned long long live = 0, mark = 0;
      if (lane == 0) {
        live = DeviceAtomic<unsigned long long>(q.counters->live)
                   .load(::cuda::memory_order_relaxed);
        mark = DeviceAtomic<unsigned long long>(q.counters->median_steps)
                   .load(::cuda::memory_order_relaxed);
      }
      live = __shfl_sync(kFullWarp, live, 0);
      const auto median = static_cast<long long>(__shfl_sync(kFullWarp, mark, 0));
      // The median, tracked by every warp's lanes above and below it (one addition per warp).
      const int ahead = __popc(__ballot_sync(kFullWarp, has && n > median));
      const int behind = __popc(__ballot_sync(kFullWarp, has && n < median));
      if (lane == 0 && running)
        atomicAdd(&q.counters->median_steps,
                  static_cast<unsigned long long>(static_cast<long long>(ahead) - behind));
      stay = has && n < median && live >= gridDim.x * blockDim.x;
    }
    const unsigned parking = __ballot_sync(kFullWarp, has && !stay);
    unsigned long long first = 0;
    if (lane == 0 && parking) first = atomicAdd(&q.counters->tail, __popc(parking));
    first = __shfl_sync(kFullWarp, first, 0);
    if (has && !stay) park_at<Client>(q, first + __popc(parking & below), st, n, item);
    has = stay;
    __syncwarp();
    if (lane == 0 && parking) publish_parked(q, __popc(parking));
    const long long t1 = q.stats ? clock64() : 0;
    long long t2 = t1;
    if (!ending) {
      // New tasks while the live set is below its cap, then the parked queue, then new tasks
      // regardless of the cap while the queue is empty.
      unsigned fresh = 0;
      if (lane == 0) {
        // The cap is in device memory: the host raises it while the kernel runs.
        const unsigned long long live = DeviceAtomic<unsigned long long>(q.counters->live)
                                            .load(::cuda::memory_order_relaxed);
        const unsigned long long cap = DeviceAtomic<unsigned long long>(q.counters->live_cap)
                                           .load(::cuda::memory_order_relaxed);
        fresh = live < cap ? static_cast<unsigned>(min(32ull, cap - live)) : 0;
        // Lanes running at segment ends: the device's progress, read by the host to share the
        // unstarted tasks in proportion to the devices' speeds.
        atomicAdd(&q.counters->progress, static_cast<unsigned long long>(__popc(running)));
      }
      if (lane < __shfl_sync(kFullWarp, fresh, 0)) has = start_new();
      __syncwarp();
      if (q.stats) t2 = clock64();
      take_parked(1);
      if (!has) has = start_new();
    } else {
      // A worthwhile share, or none: fuller warps take the rest.
      const int stayed = __popc(__ballot_sync(kFullWarp, has));
      take_parked(stayed >= MapPolicy::sparse_warp
                      ? 1u
                      : static_cast<unsigned>(MapPolicy::sparse_warp - stayed));
    }
    const bool busy = __any_sync(kFullWarp, has);
    if (q.stats && lane == 0) {
      const long long t3 = clock64();
      atomicAdd(&q.stats->segment_ends, 1ull);
      atomicAdd(&q.stats->cycles_at_ends, static_cast<unsigned long long>(t3 - t0));
      atomicAdd(&q.stats->cycles_new, static_cast<unsigned long long>(t2 - t1));
      atomicAdd(&q.stats->cycles_take, static_cast<unsigned long long>(t3 - t2));
      atomicAdd(&q.stats->cycles_park, static_cast<unsigned long long>(t1 - t0));
      if (!busy) atomicAdd(&q.stats->warps_left, 1ull);
    }
    if (busy) continue;
    // Leaving. What this warp parked is visible before its departure is, and the last warp
    // running does not leave while anything is parked.
    __threadfence();
    unsigned long long before = 0;
    if (lane == 0) before = atomicAdd(&q.counters->warps_left, 1ull);
    if (__shfl_sync(kFullWarp, before, 0) + 1 < gridDim.x * blockDim.x / 32) return;
    if (lane == 0) atomicAdd(&q.counters->warps_left, ~0ull);
    __threadfence();  // sees what every warp that left before parked
    take_parked(1);
    if (!__any_sync(kFullWarp, has)) return;  // the last warp, and nothing parked: done
  }
}

}  // namespace

}  // namespace orrery::cuda

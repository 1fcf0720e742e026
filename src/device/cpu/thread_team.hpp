// SPDX-License-Identifier: MIT
// Threads kept between calls, one per slot (the CUDA backend's device threads; plain host code,
// so it is tested without a GPU).
//
// A map on four GPUs gives each device a host thread for about 0.12 s; making the four threads
// anew at every call, one after the other, delays the last device's launch, and so the end of
// the whole map. A team keeps its threads: slot i is always the same thread, so a device's
// thread finds its device already current.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace orrery {

class ThreadTeam {
 public:
  ThreadTeam() = default;
  ~ThreadTeam();  // finishes the jobs in hand, then stops and joins every thread
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  // Runs job(i) on thread i for i in [0, n), making the threads it lacks, and returns at once.
  // A job must not throw (the caller keeps its errors). One round at a time: wait() first.
  void start(std::size_t n, std::function<void(std::size_t)> job);
  // Returns once every job of the round has returned.
  void wait();
  // Waits at most `timeout` for that; true if every job has returned.
  bool wait_for(std::chrono::microseconds timeout);
  std::size_t size() const { return threads_.size(); }

 private:
  void serve(std::size_t slot);

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  std::function<void(std::size_t)> job_;
  std::uint64_t round_ = 0;     // rounds started
  std::size_t in_round_ = 0;    // slots taking part in the current round
  std::size_t running_ = 0;     // of those, jobs not yet returned
  bool stopping_ = false;
};

}  // namespace orrery

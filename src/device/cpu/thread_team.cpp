// SPDX-License-Identifier: MIT
#include "device/cpu/thread_team.hpp"

#include <utility>

namespace orrery {

ThreadTeam::~ThreadTeam() {
  wait();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadTeam::start(std::size_t n, std::function<void(std::size_t)> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = std::move(job);
    in_round_ = n;
    running_ = n;
    ++round_;
  }
  wake_.notify_all();
  // New threads join after the round began: they see it at once.
  while (threads_.size() < n) threads_.emplace_back(&ThreadTeam::serve, this, threads_.size());
}

void ThreadTeam::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return running_ == 0; });
}

bool ThreadTeam::wait_for(std::chrono::microseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return done_.wait_for(lock, timeout, [&] { return running_ == 0; });
}

void ThreadTeam::serve(std::size_t slot) {
  std::uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || (round_ != seen && slot < in_round_); });
    if (stopping_) return;
    seen = round_;
    const std::function<void(std::size_t)>& job = job_;
    lock.unlock();
    job(slot);
    lock.lock();
    if (--running_ == 0) done_.notify_all();
  }
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "jobs/background_writer.hpp"

namespace orrery {

BackgroundWriter::BackgroundWriter(std::size_t max_pending) : max_pending_(max_pending) {
  if (max_pending_ > 0) thread_ = std::thread([this] { run(); });
}

BackgroundWriter::~BackgroundWriter() {
  if (!thread_.joinable()) return;
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return jobs_.empty() && !busy_; });
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BackgroundWriter::rethrow_locked() {
  if (error_) std::rethrow_exception(error_);
}

void BackgroundWriter::post(std::function<void()> job) {
  if (!thread_.joinable()) {  // no thread: written now, errors thrown now
    if (error_) std::rethrow_exception(error_);
    try {
      job();
    } catch (...) {
      error_ = std::current_exception();
      throw;
    }
    return;
  }
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.size() < max_pending_ || error_; });
  rethrow_locked();
  jobs_.push_back(std::move(job));
  changed_.notify_all();
}

void BackgroundWriter::drain() {
  if (!thread_.joinable()) return;  // post() threw already
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.empty() && !busy_; });
  rethrow_locked();
}

void BackgroundWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !jobs_.empty() || stopping_; });
    if (jobs_.empty()) return;  // stopping, nothing left
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    if (error_) {  // after a failure nothing more is written
      changed_.notify_all();
      continue;
    }
    busy_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      job();
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (failed && !error_) error_ = failed;
    changed_.notify_all();
  }
}

}  // namespace orrery

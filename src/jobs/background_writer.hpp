// SPDX-License-Identifier: MIT
// One thread that writes a run's files while the run goes on: snapshots and checkpoints are
// posted as jobs holding their own copies of the state and written in the order posted, so a
// checkpoint is on disk only after every snapshot it counts. At most `max_pending` jobs wait
// (their copies are the memory this costs); a post beyond that waits for the writer. The first
// job that fails stops all later ones — a checkpoint after a snapshot that did not make it to
// disk must not be written — and its error is thrown to the run at its next post or drain.
// HDF5 is not thread-safe: while jobs are pending the run thread makes no HDF5 call of its own
// (it drains first). With max_pending = 0 there is no thread: post() writes at once — for small
// systems, whose files take less time than waking a thread does.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace orrery {

class BackgroundWriter {
 public:
  explicit BackgroundWriter(std::size_t max_pending);
  // Drains: what was posted is written (errors are dropped here; drain() reports them).
  ~BackgroundWriter();
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  // Queues `job`; throws the error of an earlier job instead, if one failed.
  void post(std::function<void()> job);
  // Waits until every posted job is done; throws the first error of a job, if one failed.
  void drain();

 private:
  void run();
  void rethrow_locked();

  std::size_t max_pending_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool busy_ = false, stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace orrery

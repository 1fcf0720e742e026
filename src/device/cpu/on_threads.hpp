// SPDX-License-Identifier: MIT
// Runs body(thread, threads) on `threads` OpenMP threads, or on the calling thread alone when
// threads is 1: no parallel region, so no team is made and no futex is called (libgomp makes a
// team and wakes through a futex even for num_threads(1)). The body must split its work by
// (thread, threads) alone, so that the result does not depend on how many run.
#pragma once

#include <omp.h>

#include <cstddef>

namespace orrery {

template <class Body>
void on_threads(int threads, Body&& body) {
  if (threads <= 1) {
    body(std::size_t{0}, std::size_t{1});
    return;
  }
#pragma omp parallel num_threads(threads)
  body(static_cast<std::size_t>(omp_get_thread_num()),
       static_cast<std::size_t>(omp_get_num_threads()));
}

}  // namespace orrery

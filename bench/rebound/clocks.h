// SPDX-License-Identifier: MIT
// The clocks of the REBOUND drivers: wall time, and the process's CPU time (what a loaded
// machine leaves comparable between two programs run side by side).
#pragma once

#include <time.h>

static inline double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static inline double cpu_seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

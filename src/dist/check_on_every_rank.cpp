// SPDX-License-Identifier: MIT
#include "orrery/dist/check_on_every_rank.hpp"

#include <exception>
#include <string>

#include "orrery/core/error.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

namespace {

// A rank and an exit status in one integer, the least rank first.
constexpr int kStatuses = 8;

bool g_stopped_together = false;
int g_checks = 0;  // the checks this rank has met

int status_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError&) {
    return 2;
  } catch (...) {
    return 1;
  }
}

}  // namespace

StoppedElsewhere::StoppedElsewhere(int rank, int status)
    : std::runtime_error("stopped: rank " + std::to_string(rank) + " refused the job"),
      rank_(rank),
      status_(status) {}

bool stopped_together() { return g_stopped_together; }
bool before_first_check() { return g_checks == 0; }

void check_on_every_rank(const std::function<void()>& check) {
  if (!distributed()) {
    check();
    return;
  }
  ++g_checks;
  std::exception_ptr failure;
  try {
    check();
  } catch (...) {
    failure = std::current_exception();
  }
  const RankLayout& l = layout();
  const int none = l.size * kStatuses;
  const int first = least_over_ranks(failure ? l.rank * kStatuses + status_of(failure) : none);
  if (first == none) return;
  if (first / kStatuses == l.rank) {
    g_stopped_together = true;
    std::rethrow_exception(failure);
  }
  throw StoppedElsewhere(first / kStatuses, first % kStatuses);
}

}  // namespace orrery::dist

// SPDX-License-Identifier: MIT
#include "stop_signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace orrery::cli {

namespace {

std::atomic<int> g_received{0};
struct sigaction g_previous_int, g_previous_term;

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  if (!g_received.compare_exchange_strong(none, signal)) {
    static const char kNow[] = "\norrery: second signal, stopping at once\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kNow, sizeof kNow - 1);
    ::_exit(128 + signal);
  }
  static const char kSoon[] =
      "\norrery: stopping after this step (again to stop at once)\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kSoon, sizeof kSoon - 1);
}

}  // namespace

StopSignals::StopSignals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &g_previous_int);
  ::sigaction(SIGTERM, &action, &g_previous_term);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &g_previous_int, nullptr);
  ::sigaction(SIGTERM, &g_previous_term, nullptr);
}

int StopSignals::received() { return g_received.load(); }

const char* StopSignals::name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace orrery::cli

// SPDX-License-Identifier: MIT
// Ctrl-C during a computation that runs without the GIL. Python's SIGINT handler at the C level
// only notes the signal; the KeyboardInterrupt is raised when Python code next runs its
// handlers. A long loop calls an InterruptPoll between its steps: every kInterval it takes the
// GIL for a moment and runs the handlers (PyErr_CheckSignals), and what they raise ends the loop
// as py::error_already_set, with the state of the last whole step.
#pragma once

#include <chrono>

namespace orrery::python {

class InterruptPoll {
 public:
  // Long enough that taking the GIL costs nothing measurable, short against the "a fraction of a
  // second" a user waits after Ctrl-C.
  static constexpr std::chrono::milliseconds kInterval{20};

  void operator()();

 private:
  std::chrono::steady_clock::time_point next_ = std::chrono::steady_clock::now() + kInterval;
};

}  // namespace orrery::python

// SPDX-License-Identifier: MIT
#include "interrupt.hpp"

#include <pybind11/pybind11.h>

namespace orrery::python {

void InterruptPoll::operator()() {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_) return;
  next_ = now + kInterval;
  pybind11::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
}

}  // namespace orrery::python

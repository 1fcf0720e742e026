// SPDX-License-Identifier: MIT
// A one-line progress report on stderr, redrawn in place: done/total, a rate and the time left.
// Shown only when stderr is a terminal and the user did not ask for quiet.
#pragma once

#include <cstdint>
#include <string>

namespace orrery::cli {

class ProgressLine {
 public:
  ProgressLine(bool quiet, std::string what, std::string rate_unit);
  ~ProgressLine();

  bool enabled() const { return enabled_; }
  // `rate` is in rate_unit per second.
  void update(std::int64_t done, std::int64_t total, double rate, double seconds);
  void finish();  // clears the line

 private:
  bool enabled_;
  bool drawn_ = false;
  std::string what_, unit_;
};

std::string format_duration(double seconds);

}  // namespace orrery::cli

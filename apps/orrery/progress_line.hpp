// SPDX-License-Identifier: MIT
// A one-line progress report on stderr, redrawn in place: where the work stands, the fraction
// done, a rate and the time left. Shown only when stderr is a terminal and the user did not ask
// for quiet, and redrawn at most a few times a second. The line is cut to the terminal's width, since a line that wraps could not be
// cleared by going back to its start, and it is cleared when the work ends.
#pragma once

#include <chrono>
#include <string>

namespace orrery::cli {

class ProgressLine {
 public:
  explicit ProgressLine(bool quiet, std::string rate_unit);
  ~ProgressLine();

  bool enabled() const { return enabled_; }
  // `position` says where the work stands ("map: pixels 10/400", "sim: t = 3.2 of 10");
  // `fraction` (0..1) of the work is done after `seconds`; `rate` is in rate_unit per second.
  void update(const std::string& position, double fraction, double rate, double seconds);
  void finish();  // clears the line

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_;
  std::string unit_;
};

std::string format_duration(double seconds);

// An ensemble's progress (`orrery ensemble`, `orrery chaos`): "WHAT: done/total" trajectories,
// their fraction and rate.
template <class Progress>
void show_trajectories(ProgressLine& line, const std::string& what, const Progress& p) {
  line.update(what + ": " + std::to_string(p.trajectories_done) + "/" +
                  std::to_string(p.trajectories_total),
              p.trajectories_total > 0 ? static_cast<double>(p.trajectories_done) /
                                             static_cast<double>(p.trajectories_total)
                                       : 0.0,
              p.seconds > 0 ? static_cast<double>(p.trajectories_done) / p.seconds : 0.0,
              p.seconds);
}

}  // namespace orrery::cli

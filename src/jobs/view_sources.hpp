// SPDX-License-Identifier: MIT
// What a view session advances and captures: a live simulation or a run's snapshots. The
// session's thread calls advance() and capture() alone; the constructor and first() run before
// it starts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "orrery/jobs/view_job.hpp"

namespace orrery {

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // Moves `moves` steps or snapshots (negative: back through a run's snapshots).
  virtual void advance(std::int64_t moves) = 0;
  virtual void capture(ViewFrame& out) = 0;
  virtual bool at_end() const = 0;

  FrameLook look;
  std::string units;
  double t_end = 0;
  bool live = false;
};

// `job.sim` checked as `orrery sim` checks a new run; the look taken from its initial state.
std::unique_ptr<FrameSource> make_live_source(const ViewJob& job);
// `job.run` a run folder of `orrery sim` with a snapshot at least.
std::unique_ptr<FrameSource> make_run_source(const ViewJob& job);

// The bodies' positions relative to the look's centre, and their colours.
void fill_frame_bodies(const Particles<double>& p, ColourBy by, const FrameLook& look,
                       ViewFrame& out);

}  // namespace orrery

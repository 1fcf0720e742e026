// SPDX-License-Identifier: MIT
// A run's snapshots for `orrery view`, one at a time, read when shown.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "jobs/run_facts.hpp"
#include "jobs/view_sources.hpp"
#include "orrery/core/error.hpp"
#include "orrery/io/diagnostics_table.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/run_store.hpp"

namespace orrery {

namespace {

class RunSource final : public FrameSource {
 public:
  explicit RunSource(const ViewJob& job) : folder_(job.run), colour_by_(job.colour_by) {
    const RunFacts facts = read_run_facts(job.run);
    check_colour_by(job.colour_by, facts.scene);
    snapshots_ = run_snapshots(folder_);
    if (snapshots_.empty()) throw InputError(fmt::format("'{}' holds no snapshot", job.run));
    rows_ = run_diagnostics(folder_);
    drift_ = diagnostics_column(rows_, "drift_energy");
    units = facts.units;
    t_end = facts.t_end;
    look = frame_look_of(read_particle_hdf5(snapshot_path(folder_, snapshots_[0])).particles,
                         job.extent, facts.scene_n);
  }

  void advance(std::int64_t moves) override {
    const std::int64_t last = std::ssize(snapshots_) - 1;
    at_ = std::clamp<std::int64_t>(at_ + moves, 0, last);
  }

  void capture(ViewFrame& out) override {
    const std::int64_t index = snapshots_[static_cast<std::size_t>(at_)];
    const HdfParticles s = read_particle_hdf5(snapshot_path(folder_, index));
    fill_frame_bodies(s.particles, colour_by_, look, out);
    out.time = s.time;
    out.index = index;
    out.steps_per_second = 0;
    out.energy_drift = std::nan("");
    out.energy_drift_time = s.time;
    for (std::size_t r = 0; r < rows_.size(); ++r)
      if (rows_[r].index == index) out.energy_drift = drift_[r];
    out.at_end = at_end();
  }

  bool at_end() const override { return at_ + 1 == std::ssize(snapshots_); }

 private:
  std::filesystem::path folder_;
  ColourBy colour_by_;
  std::vector<std::int64_t> snapshots_;
  std::vector<DiagnosticsRow> rows_;
  std::vector<double> drift_;
  std::int64_t at_ = 0;  // into snapshots_
};

}  // namespace

std::unique_ptr<FrameSource> make_run_source(const ViewJob& job) {
  return std::make_unique<RunSource>(job);
}

}  // namespace orrery

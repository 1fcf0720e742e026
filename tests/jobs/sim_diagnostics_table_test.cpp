// SPDX-License-Identifier: MIT
// The run's time series (NAME/diagnostics.h5): one row per snapshot, equal to the snapshot's own
// diagnostics, and after a resume from an older checkpoint or with the table lost, neither a row
// twice nor one missing: the file equals the uninterrupted run's byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "orrery/io/diagnostics_table.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

SimJob small_run(const std::filesystem::path& out) {
  SimJob job;
  job.backend = Backend::cpu;
  job.scene = "plummer";
  job.scene_settings = {{"n", ParamValue{std::int64_t{32}}}, {"seed", ParamValue{std::int64_t{5}}}};
  job.integrator = "leapfrog";
  job.dt = 1.0 / 64;
  job.t_end = 1.3;
  job.every = 10;
  job.checkpoint_every = 30;
  job.threads = 1;
  job.out = out.string();
  return job;
}

SimJob resumed(const std::filesystem::path& out) {
  SimJob job;
  job.backend = Backend::cpu;
  job.resume = true;
  job.out = out.string();
  return job;
}

std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SimDiagnosticsTable, HoldsOneRowPerSnapshotEqualToItsDiagnostics) {
  test::TempDir dir;
  run_simulation(small_run(dir / "run"));
  const auto snapshots = run_snapshots(dir / "run");
  const auto rows = read_diagnostics_table(dir / "run");
  ASSERT_EQ(rows.size(), snapshots.size());
  const auto time = diagnostics_column(rows, "time");
  const auto energy = diagnostics_column(rows, "energy_total");
  const auto drift = diagnostics_column(rows, "drift_energy");
  const auto lz = diagnostics_column(rows, "angular_momentum", 2);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    EXPECT_EQ(rows[r].index, snapshots[r]);
    h5::Handle s = h5::open_file(snapshot_path(dir / "run", snapshots[r]).string());
    EXPECT_EQ(rows[r].step, h5::read_attribute(s.id(), "step").integer);
    EXPECT_EQ(time[r], h5::read_attribute(s.id(), "time").reals.at(0));
    EXPECT_EQ(energy[r], h5::read_attribute(s.id(), "energy").reals.at(0));
    EXPECT_EQ(lz[r], h5::read_attribute(s.id(), "angular_momentum").reals.at(2));
    // The drift column is the relative change of the energy column since row 0.
    EXPECT_EQ(drift[r], std::abs(energy[r] - energy[0]) / std::abs(energy[0]));
  }
  EXPECT_EQ(time.back(), 1.3);
  EXPECT_THROW(diagnostics_column(rows, "entropy"), ParameterError);
}

TEST(SimDiagnosticsTable, ResumeFromAnOlderCheckpointDropsTheRowsAfterIt) {
  test::TempDir dir;
  run_simulation(small_run(dir / "whole"));
  SimJob first = small_run(dir / "split");
  first.stop_after = 50;  // checkpoints at 30 and 50, snapshots every 10
  run_simulation(first);
  ASSERT_EQ(read_diagnostics_table(dir / "split").size(), 6u);  // steps 0, 10, ..., 50
  // A kill that loses the newest checkpoint: the rows of steps 40 and 50 are computed again.
  std::filesystem::remove(checkpoint_path(dir / "split", 50));
  run_simulation(resumed(dir / "split"));
  const auto rows = read_diagnostics_table(dir / "split");
  for (std::size_t r = 0; r < rows.size(); ++r) EXPECT_EQ(rows[r].index, static_cast<std::int64_t>(r));
  EXPECT_EQ(bytes_of(diagnostics_table_path(dir / "split")),
            bytes_of(diagnostics_table_path(dir / "whole")));
}

TEST(SimDiagnosticsTable, ALostTableIsMadeAgainFromTheSnapshots) {
  test::TempDir dir;
  run_simulation(small_run(dir / "whole"));
  SimJob first = small_run(dir / "split");
  first.stop_after = 60;
  run_simulation(first);
  std::filesystem::remove(diagnostics_table_path(dir / "split"));
  run_simulation(resumed(dir / "split"));
  EXPECT_EQ(bytes_of(diagnostics_table_path(dir / "split")),
            bytes_of(diagnostics_table_path(dir / "whole")));
}

}  // namespace
}  // namespace orrery

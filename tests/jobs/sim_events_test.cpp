// SPDX-License-Identifier: MIT
// Collisions and exits in a run of `orrery sim` (jobs/sim_job.hpp): an escape and a close
// encounter stop the run at the step the hyperbola's Kepler equation puts them, naming the
// bodies and the time, after a checkpoint that resumes to the bits of a run never stopped; a
// merge changes the number of bodies, and runs stopped before or after it resume bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "sim_run_fixtures.hpp"
#include "orrery/core/error.hpp"
#include "orrery/io/checkpoint_file.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

// A hyperbola of a = −1, e = 2 about G(m1 + m2) = 1.001 (m1 = 1, m2 = 10⁻³), starting at
// eccentric anomaly F0 (perifocal frame, centre of mass at rest at the origin):
//   r = |a| (e cosh F − 1),  M = e sinh F − F = n (t − t_p),  n = (μ / |a|³)^{1/2}.
struct Hyperbola {
  double m1 = 1.0, m2 = 1e-3, a = 1.0, e = 2.0;
  double mu() const { return m1 + m2; }
  double n() const { return std::sqrt(mu() / (a * a * a)); }
  double mean_anomaly(double f) const { return e * std::sinh(f) - f; }
  // The time from F0 until the separation first reaches r on the way out (F > 0).
  double time_to(double f0, double r, bool outgoing) const {
    const double f = std::acosh((1 + r / a) / e) * (outgoing ? 1 : -1);
    return (mean_anomaly(f) - mean_anomaly(f0)) / n();
  }
  void write_csv(const std::filesystem::path& path, double f0) const {
    const double x = a * (e - std::cosh(f0)), y = a * std::sqrt(e * e - 1) * std::sinh(f0);
    const double fdot = n() / (e * std::cosh(f0) - 1);
    const double vx = -a * std::sinh(f0) * fdot, vy = a * std::sqrt(e * e - 1) * std::cosh(f0) * fdot;
    const double w1 = -m2 / mu(), w2 = m1 / mu();
    std::ofstream out(path);
    out << "m,x,y,z,vx,vy,vz\n";
    out << fmt::format("{:.17g},{:.17g},{:.17g},0,{:.17g},{:.17g},0\n", m1, w1 * x, w1 * y,
                       w1 * vx, w1 * vy);
    out << fmt::format("{:.17g},{:.17g},{:.17g},0,{:.17g},{:.17g},0\n", m2, w2 * x, w2 * y,
                       w2 * vx, w2 * vy);
  }
};

SimJob pair_job(const std::filesystem::path& csv, const std::filesystem::path& out) {
  SimJob job;
  job.backend = Backend::cpu;
  job.input = csv.string();
  job.integrator = "whfast";  // a two-body orbit to rounding at any step
  job.dt = 0.01;
  job.t_end = 3.0;
  job.every = 50;
  job.threads = 1;
  job.out = out.string();
  return job;
}

std::vector<double> last_positions(const std::filesystem::path& run) {
  h5::Handle g = h5::open_file(snapshot_path(run, run_snapshots(run).back()).string());
  auto x = h5::read_dataset<double>(g.id(), "position");
  const auto v = h5::read_dataset<double>(g.id(), "velocity");
  x.insert(x.end(), v.begin(), v.end());
  x.push_back(h5::read_attribute(g.id(), "time").reals.at(0));
  return x;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The exit's step: the first step end at or after t. Times within this of a step end would let
// the rounding of the state decide, and are avoided by the choice of distances below.
constexpr double kClearOfAStepEnd = 1e-6;

void expect_exit_at(const SimJob& job, double t_exit, const std::string& named) {
  const double steps = std::ceil(t_exit / job.dt);
  ASSERT_GT(steps * job.dt - t_exit, kClearOfAStepEnd);
  try {
    run_simulation(job);
    ADD_FAILURE() << "the run did not stop";
  } catch (const RunError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find(named), std::string::npos) << text;
    EXPECT_NE(text.find(fmt::format("stopped at step {}:", static_cast<std::int64_t>(steps))),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("--resume continues"), std::string::npos) << text;
  }
  const auto c = read_checkpoint_file<double>(
      checkpoint_path(job.out, run_checkpoints(job.out).back()));
  EXPECT_EQ(c.clock.steps, static_cast<std::int64_t>(steps));
  EXPECT_NEAR(c.clock.time(), steps * job.dt, 1e-12);
}

TEST(SimEvents, AnEscapeStopsAtItsTimeAndTheCheckpointResumes) {
  test::TempDir dir;
  const Hyperbola h;
  h.write_csv(dir / "pair.csv", 0.0);
  run_simulation(pair_job(dir / "pair.csv", dir / "whole"));
  SimJob job = pair_job(dir / "pair.csv", dir / "split");
  job.exit_max_distance = 2.0;
  // Body 1 (the light one) is m1/M of the separation from the centre of mass.
  expect_exit_at(job, h.time_to(0.0, 2.0 * h.mu() / h.m1, true), "escape: body 1 is");
  run_simulation(test::resume_of(dir / "split"));  // no exit given: it goes on to t-end
  EXPECT_TRUE(same_bits(last_positions(dir / "whole"), last_positions(dir / "split")));
}

TEST(SimEvents, ACloseEncounterStopsAtItsTimeAndTheCheckpointResumes) {
  test::TempDir dir;
  const Hyperbola h;
  const double f0 = -1.5;
  h.write_csv(dir / "pair.csv", f0);
  run_simulation(pair_job(dir / "pair.csv", dir / "whole"));
  SimJob job = pair_job(dir / "pair.csv", dir / "split");
  job.exit_min_distance = 1.7;
  expect_exit_at(job, h.time_to(f0, 1.7, false), "close encounter: bodies 0 and 1");
  // Given again, the exit stops the resumed run at once; a smaller one lets it go on.
  SimJob again = test::resume_of(dir / "split");
  again.exit_min_distance = 1.7;
  EXPECT_THROW(run_simulation(again), RunError);
  SimJob past = test::resume_of(dir / "split");
  past.exit_min_distance = 0.5;  // the pericentre is at 1
  run_simulation(past);
  EXPECT_TRUE(same_bits(last_positions(dir / "whole"), last_positions(dir / "split")));
}

// Three bodies: a head-on pair of radii 0.05 that merges near t = 3.13 and a third far away.
// Stopped before the merge or after it (N = 3 then 2 in the checkpoint), a run resumes to the
// bits of one never stopped.
TEST(SimEvents, AMergeChangesTheBodiesAndRunsStoppedAroundItResume) {
  test::TempDir dir;
  {
    std::ofstream out(dir / "three.csv");
    out << "m,x,y,z,vx,vy,vz,r\n0.5,-1,0,0,0,0,0,0.05\n0.5,1,0,0,0,0,0,0.05\n"
           "1e-3,0,30,0,0.1,0,0,0.01\n";
  }
  auto job_of = [&](const char* name) {
    SimJob job;
    job.backend = Backend::cpu;
    job.input = (dir / "three.csv").string();
    job.integrator = "leapfrog";
    job.dt = 1e-3;
    job.t_end = 3.5;
    job.every = 100;
    job.checkpoint_every = 100;
    job.threads = 1;
    job.collisions = "merge";
    job.out = (dir / name).string();
    return job;
  };
  const SimOutcome whole = run_simulation(job_of("whole"));
  EXPECT_EQ(whole.merged, 1);
  EXPECT_EQ(whole.bodies, 2);
  {
    h5::Handle g = h5::open_file(snapshot_path(dir / "whole", 0).string());
    EXPECT_EQ(h5::read_dataset<double>(g.id(), "mass").size(), 3u);
    h5::Handle last =
        h5::open_file(snapshot_path(dir / "whole", run_snapshots(dir / "whole").back()).string());
    const auto mass = h5::read_dataset<double>(last.id(), "mass");
    ASSERT_EQ(mass.size(), 2u);
    EXPECT_EQ(mass[0], 1.0);
    EXPECT_EQ(h5::read_dataset<double>(last.id(), "radius").size(), 2u);
  }
  for (const std::int64_t stop : {2000, 3300}) {
    const std::string name = fmt::format("split{}", stop);
    SimJob first = job_of(name.c_str());
    first.stop_after = stop;
    run_simulation(first);
    const auto c = read_checkpoint_file<double>(
        checkpoint_path(dir / name, run_checkpoints(dir / name).back()));
    EXPECT_EQ(c.particles.size(), stop < 3130 ? 3u : 2u);
    EXPECT_EQ(c.energy_offset != 0, stop > 3130);
    SimJob rest = test::resume_of(dir / name, 100);
    rest.every = 100;
    run_simulation(rest);
    EXPECT_EQ(test::snapshot_bytes(dir / "whole"), test::snapshot_bytes(dir / name)) << stop;
  }
}

TEST(SimEvents, CollisionsWithoutRadiiAreRefused) {
  test::TempDir dir;
  const Hyperbola h;
  h.write_csv(dir / "pair.csv", 0.0);
  SimJob job = pair_job(dir / "pair.csv", dir / "run");
  job.collisions = "merge";
  try {
    run_simulation(job);
    ADD_FAILURE() << "accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "--collisions");
    EXPECT_NE(std::string(e.what()).find("--radius"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
  job.radius = 0.01;  // every body gets it
  EXPECT_NO_THROW(run_simulation(job));
  job.collisions = "explode";
  job.out = (dir / "other").string();
  EXPECT_THROW(run_simulation(job), ParameterError);
}

}  // namespace
}  // namespace orrery

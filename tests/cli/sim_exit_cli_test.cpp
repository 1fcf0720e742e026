// SPDX-License-Identifier: MIT
// `orrery sim --exit-max-distance` and `--collisions merge` as a user meets them, in real
// processes on real files: the exit ends the process with status 1 and a message that names the
// body, the step and the time and says how to go on; the run keeps its snapshots and a
// checkpoint, and `--resume` without the exit carries it to its end. A merge is reported.
#include <gtest/gtest.h>

#include <string>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

TEST(SimExitCli, AnEscapeStopsTheProcessAndResumeGoesOn) {
  test::TempDir dir;
  // A light body on a hyperbola (a = −1, e = 2, at pericentre) about a heavy one, G = 1.
  test::write_text(dir / "pair.csv",
                   "m,x,y,z,vx,vy,vz\n1,-0.000999000999000999,0,0,0,-0.00173118,0\n"
                   "0.001,0.999000999000999,0,0,0,1.73118,0\n");
  const auto stopped = run_cli({"sim", "--input", "pair.csv", "--integrator", "whfast", "--dt",
                                "0.01", "--t-end", "3", "--exit-max-distance", "2", "--out",
                                "run", "--quiet"},
                               dir.path());
  EXPECT_EQ(stopped.status, 1) << stopped.err;
  EXPECT_NE(stopped.err.find("stopped at step 128: escape: body 1 is"), std::string::npos)
      << stopped.err;
  EXPECT_NE(stopped.err.find("at t = 1.28"), std::string::npos) << stopped.err;
  EXPECT_NE(stopped.err.find("--resume continues"), std::string::npos) << stopped.err;
  EXPECT_EQ(run_checkpoints(dir / "run").back(), 128);
  const auto resumed = run_cli({"sim", "--out", "run", "--resume", "--quiet"}, dir.path());
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto snapshots = run_snapshots(dir / "run");
  h5::Handle last = h5::open_file(snapshot_path(dir / "run", snapshots.back()).string());
  EXPECT_EQ(h5::read_attribute(last.id(), "time").reals.at(0), 3.0);
}

TEST(SimExitCli, AMergeIsReported) {
  test::TempDir dir;
  test::write_text(dir / "pair.csv", "m,x,y,z,vx,vy,vz,r\n0.5,-1,0,0,0,0,0,0.05\n"
                                     "0.5,1,0,0,0,0,0,0.05\n0.001,0,30,0,0,0,0,0.01\n");
  const auto r = run_cli({"sim", "--input", "pair.csv", "--integrator", "ias15", "--dt", "0.01",
                          "--t-end", "3.5", "--collisions", "merge", "--out", "run"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 merges; 2 bodies now"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace orrery

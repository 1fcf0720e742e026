// SPDX-License-Identifier: MIT
// `orrery sim` as a user meets it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "orrery/device/cuda_presence.hpp"
#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

TEST(SimCli, RunsAScenePrintsTheTableAndResumes) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--scene", "kepler", "--eccentricity", "0.3", "--dt", "0.01",
                          "--t-end", "2", "--every", "50", "--out", "run"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("drift E"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("200 steps to t = 2"), std::string::npos) << r.out;
  const auto more = run_cli({"sim", "--resume", "--out", "run", "--t-end", "3", "--quiet"},
                            dir.path());
  ASSERT_EQ(more.status, 0) << more.err;
  EXPECT_EQ(more.out, "");
  EXPECT_EQ(run_snapshots(dir / "run").size(), 7u);  // 0, 50, ..., 200 and 250, 300
  // --backend auto (the default) runs on a GPU where there is one, else on the CPU, and the run
  // says so.
  h5::Handle f = h5::open_file(run_description_path(dir / "run").string());
  if (cuda_device_count() > 0) {
    EXPECT_EQ(h5::read_attribute(f.id(), "backend").text.rfind("cuda:", 0), 0u);
  } else {
    EXPECT_EQ(h5::read_attribute(f.id(), "backend").text, "cpu");
    EXPECT_NE(h5::read_attribute(f.id(), "backend_note").text.find("computed on the CPU"),
              std::string::npos);
  }
}

TEST(SimCli, ResumeKeepsTheRecordedCpuKernel) {
  test::TempDir dir;
  // On the CPU, also where a GPU is present (the kernel is the CPU's).
  const auto r = run_cli({"sim", "--scene", "kepler", "--t-end", "1", "--cpu-kernel", "generic",
                          "--backend", "cpu", "--out", "run"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("on cpu (generic kernel)"), std::string::npos) << r.out;
  const auto more = run_cli({"sim", "--resume", "--out", "run", "--t-end", "2", "--backend", "cpu"},
                            dir.path());
  ASSERT_EQ(more.status, 0) << more.err;
  EXPECT_NE(more.out.find("on cpu (generic kernel)"), std::string::npos) << more.out;
  const auto other = run_cli({"sim", "--resume", "--out", "run", "--t-end", "3",
                              "--cpu-kernel", "avx2"},
                             dir.path());
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("--cpu-kernel: avx2"), std::string::npos) << other.err;
}

TEST(SimCli, ListsScenesIntegratorsAndEngines) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--list"}, dir.path());
  ASSERT_EQ(r.status, 0);
  for (const char* s : {"plummer", "two-galaxies", "figure-eight", "--eccentricity", "yoshida4",
                        "leapfrog", "direct", "CPU kernels (--cpu-kernel): ", "generic"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(SimCli, RefusesBadInputWithoutTouchingFiles) {
  test::TempDir dir;
  test::write_text(dir / "old.h5", "previous contents");
  test::write_text(dir / "nocol.csv", "m,x,y,z,vx,vy\n1,0,0,0,0,0\n1,1,0,0,0,0\n");
  test::write_text(dir / "dup.csv", "id,m,x,y,z,vx,vy,vz\n3,1,0,0,0,0,0,0\n3,1,1,0,0,0,0,0\n");
  std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--scene", "galaxy"}, "--scene: galaxy"},
      {{"--scene", "kepler", "--integrator", "rk45"}, "--integrator: rk45"},
      {{"--scene", "kepler", "--engine", "fmm"}, "--engine: fmm"},
      {{"--scene", "plummer", "--n", "1"}, "--n: 1"},
      {{"--scene", "kepler", "--dt", "0"}, "--dt: 0"},
      {{"--scene", "kepler", "--dt", "nan"}, "--dt: nan"},
      {{"--scene", "kepler", "--t-end", "-1"}, "--t-end: -1"},
      {{"--scene", "kepler", "--precision", "fp16"}, "--precision: fp16"},
      {{"--scene", "kepler", "--precision", "mixed"}, "--precision: mixed"},
      {{"--scene", "kepler", "--backend", "cpu", "--devices", "0"}, "--devices: 0"},
      {{"--scene", "kepler", "--devices", "zero"}, "--devices: zero"},
      {{"--scene", "kepler", "--cpu-kernel", "neon"}, "--cpu-kernel: neon"},
      {{"--input", "nocol.csv"}, "nocol.csv"},
      {{"--input", "dup.csv"}, "dup.csv"},
      {{"--input", "missing.csv"}, "missing.csv"},
      {{"--scene", "kepler", "--out", "old.h5"}, "--out: old.h5"},
      {{"--scene", "kepler", "--input", "dup.csv"}, "--input"},
  };
  // Without a CUDA build or without a device: the reason differs, the refusal does not.
  if (cuda_device_count() == 0)
    cases.push_back({{"--scene", "kepler", "--backend", "cuda"},
                     "--backend: cuda is not accepted (expected cpu or auto"});
  for (const auto& [args, names] : cases) {
    std::vector<std::string> all{"sim", "--out", "new.h5"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_cli(all, dir.path());
    EXPECT_EQ(r.status, 2) << names << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "new.h5")) << names;
    EXPECT_EQ(test::read_text(dir / "old.h5"), "previous contents");
  }
}

TEST(SimCli, ResumeRefusesAnotherScene) {
  test::TempDir dir;
  ASSERT_EQ(run_cli({"sim", "--scene", "kepler", "--t-end", "1", "--out", "run", "--quiet"},
                    dir.path())
                .status,
            0);
  const auto r = run_cli({"sim", "--resume", "--scene", "plummer", "--out", "run", "--t-end",
                          "2"},
                         dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--scene: plummer"), std::string::npos) << r.err;
}

// The tree engine through the whole run: its parameters are stored (a changed θ is refused on
// resume), the output says where W comes from, and a run stopped and resumed writes the same
// bytes as one that never stopped.
TEST(SimCli, ATreeRunResumesBitForBit) {
  test::TempDir dir;
  const std::vector<std::string> run{"sim", "--scene", "plummer", "--n", "3000", "--engine",
                                     "tree", "--theta", "0.6", "--dt", "0.01", "--t-end", "0.1",
                                     "--every", "5"};
  auto with = [&](std::vector<std::string> args, std::vector<std::string> more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const auto straight = run_cli(with(run, {"--out", "a"}), dir.path());
  ASSERT_EQ(straight.status, 0) << straight.err;
  EXPECT_NE(straight.err.find("tree potentials (theta 0.6, quadrupole)"), std::string::npos)
      << straight.err;
  ASSERT_EQ(run_cli(with(run, {"--out", "b", "--stop-after", "5", "--quiet"}), dir.path()).status,
            0);
  const auto changed = run_cli({"sim", "--resume", "--out", "b", "--theta", "0.5"}, dir.path());
  EXPECT_EQ(changed.status, 2);
  EXPECT_NE(changed.err.find("--theta: 0.5"), std::string::npos) << changed.err;
  ASSERT_EQ(run_cli({"sim", "--resume", "--out", "b", "--quiet"}, dir.path()).status, 0);
  ASSERT_EQ(run_snapshots(dir / "a"), run_snapshots(dir / "b"));
  for (std::int64_t k : run_snapshots(dir / "a"))
    EXPECT_EQ(test::read_text(snapshot_path(dir / "a", k)),
              test::read_text(snapshot_path(dir / "b", k)))
        << "snapshot " << k;
}

TEST(SimCli, ANonFiniteStateIsARunFailure) {
  test::TempDir dir;
  // Two bodies at rest 1 apart fall onto each other in one leapfrog step of dt = 1 (each moves
  // a dt²/2 = 0.5): the force there is infinite. (Bodies at one point, or so close that r²
  // underflows, are refused before the run.)
  test::write_text(dir / "p.csv", "m,x,y,z,vx,vy,vz\n1,-0.5,0,0,0,0,0\n1,0.5,0,0,0,0,0\n");
  const auto r = run_cli({"sim", "--input", "p.csv", "--dt", "1", "--t-end", "10", "--out",
                          "run", "--quiet"},
                         dir.path());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("non-finite at step 1"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "run"));
}

}  // namespace
}  // namespace orrery

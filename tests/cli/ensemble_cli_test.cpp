// SPDX-License-Identifier: MIT
// `orrery ensemble` as a user runs it: the published Hénon–Heiles experiment on a small grid (the
// starts on the section x = 0 at the energy asked, px > 0; one result per integrator and
// precision; the file's description of the run), the Lorenz sweep, a plot, and refusals.
#include <gtest/gtest.h>

#include <cmath>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/physics/henon_heiles.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

TEST(EnsembleCli, HenonHeilesGridAtAFixedEnergy) {
  test::TempDir dir;
  const auto r = run_cli({"ensemble", "--problem", "henon-heiles", "--energy", "0.125",
                          "--plane", "y:py", "--resolution", "12", "--integrator",
                          "leapfrog,rk4", "--precision", "fp64,fp32", "--steps", "2000",
                          "--samples", "4", "--out", "hh.h5", "--backend", "cpu"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("leapfrog fp32"), std::string::npos) << r.out;
  h5::Handle file = h5::open_file((dir / "hh.h5").string());
  std::vector<hsize_t> dims;
  const auto start = h5::read_dataset<double>(file.id(), "start_state", &dims);
  ASSERT_EQ(dims.size(), 2u);
  ASSERT_EQ(dims[1], 4u);
  const std::size_t n = dims[0];
  EXPECT_GT(n, 12u * 12u / 3) << "most of the window is reached at E = 1/8";
  EXPECT_LT(n, 12u * 12u) << "the corners of the window are not";
  for (std::size_t i = 0; i < n; ++i) {
    const double q[2] = {start[i * 4], start[i * 4 + 1]}, p[2] = {start[i * 4 + 2], start[i * 4 + 3]};
    EXPECT_EQ(q[0], 0.0);
    EXPECT_GE(p[0], 0.0);
    EXPECT_NEAR(henon_heiles_energy(q, p), 0.125, 1e-15);
  }
  const auto grid = h5::read_dataset<std::int64_t>(file.id(), "grid_index");
  EXPECT_EQ(grid.size(), n);
  for (const char* run : {"leapfrog-fp64", "leapfrog-fp32", "rk4-fp64", "rk4-fp32"}) {
    h5::Handle g = h5::open_group(file.id(), std::string("runs/") + run);
    const auto final_state = h5::read_dataset<double>(g.id(), "final_state", &dims);
    EXPECT_EQ(dims[0], n) << run;
    EXPECT_EQ(h5::read_dataset<double>(g.id(), "energy_error_median").size(), 4u) << run;
    EXPECT_EQ(h5::read_attribute(g.id(), "backend").text, "cpu");
  }
  EXPECT_EQ(h5::read_attribute(file.id(), "problem").text, "henon-heiles");
  EXPECT_EQ(h5::read_attribute(file.id(), "integrator").text, "leapfrog,rk4");
  EXPECT_EQ(h5::read_attribute(file.id(), "format").text, "orrery-ensemble");
}

TEST(EnsembleCli, LorenzSweepAndAPlotOfTheDrift) {
  test::TempDir dir;
  auto r = run_cli({"ensemble", "--problem", "lorenz", "--sweep", "rho=0:21", "--n", "64",
                    "--integrator", "rk4", "--dt", "0.001", "--t-end", "1", "--out", "l.h5",
                    "--backend", "cpu"},
                   dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  h5::Handle file = h5::open_file((dir / "l.h5").string());
  const auto params = h5::read_dataset<double>(file.id(), "parameters");
  ASSERT_EQ(params.size(), 64u * 3);
  EXPECT_EQ(params[1], 0.0);
  EXPECT_EQ(params[63 * 3 + 1], 21.0);
  EXPECT_EQ(h5::read_attribute(file.id(), "steps_run").integer, 1000);

#if ORRERY_HAVE_CAIRO
  r = run_cli({"ensemble", "--resolution", "8", "--integrator", "euler,leapfrog", "--steps",
               "500", "--samples", "10", "--out", "e.h5", "--plot", "e.png"},
              dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "e.png"));
#endif
}

TEST(EnsembleCli, ToleranceGivesEachTrajectoryItsOwnSteps) {
  test::TempDir dir;
  // --t-end need not be a whole number of --dt with a tolerance: dt is the first trial step.
  const auto r = run_cli({"ensemble", "--problem", "henon-heiles", "--energy", "0.1", "--plane",
                          "y:py", "--resolution", "6", "--integrator", "dopri5,tsit5",
                          "--tolerance", "1e-9", "--dt", "0.01", "--t-end", "5.005",
                          "--samples", "3", "--out", "a.h5", "--backend", "cpu"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("steps per trajectory min/median/max"), std::string::npos) << r.out;
  h5::Handle file = h5::open_file((dir / "a.h5").string());
  EXPECT_EQ(h5::read_attribute(file.id(), "tolerance").reals.at(0), 1e-9);
  const std::size_t n = h5::read_dataset<double>(file.id(), "start_state").size() / 4;
  for (const char* run : {"dopri5-fp64", "tsit5-fp64"}) {
    h5::Handle g = h5::open_group(file.id(), std::string("runs/") + run);
    const auto accepted = h5::read_dataset<std::uint32_t>(g.id(), "steps_accepted");
    const auto status = h5::read_dataset<std::uint8_t>(g.id(), "status");
    ASSERT_EQ(accepted.size(), n) << run;
    EXPECT_EQ(h5::read_dataset<std::uint32_t>(g.id(), "steps_rejected").size(), n) << run;
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_GT(accepted[i], 10u) << run;
      EXPECT_EQ(status[i], 0) << run;
    }
    const auto times = h5::read_dataset<double>(g.id(), "sample_time");
    ASSERT_EQ(times.size(), 3u);
    EXPECT_EQ(times[2], 5.005) << run;
    EXPECT_EQ(h5::read_attribute(g.id(), "trajectories_failed").integer, 0) << run;
  }
}

TEST(EnsembleCli, RefusesBadInputBeforeWork) {
  test::TempDir dir;
  const struct {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{"--problem", "lorenz", "--integrator", "leapfrog", "--sweep", "rho=0:21"}, "--integrator"},
      {{"--plane", "y:q"}, "--plane"},
      {{"--plane", "y:y"}, "--plane"},
      {{"--steps", "10", "--samples", "20"}, "--samples"},
      {{"--precision", "fp16"}, "--precision"},
      {{"--problem", "lorenz", "--sweep", "gamma=0:1"}, "--sweep"},
      {{"--t-end", "1.0005", "--dt", "0.001"}, "--t-end"},
      {{"--starts", "missing.csv"}, "--starts"},
      {{"--problem", "lorenz", "--sweep", "rho=0:21", "--plot", "x.png"}, "--plot"},
      {{"--energy", "-1"}, "--energy"},
      {{"--integrator", "rk4", "--tolerance", "1e-8"}, "--tolerance"},
      {{"--integrator", "tsit5", "--precision", "fp32", "--tolerance", "1e-8"}, "1.19e-05"},
      {{"--integrator", "dopri5", "--tolerance", "-1"}, "--tolerance"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"ensemble", "--out", "never.h5"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_cli(args, dir.path());
    EXPECT_EQ(r.status, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "never.h5")) << c.says;
  }
  // An existing output without --overwrite.
  std::ofstream(dir / "taken.h5") << "mine";
  const auto r = run_cli({"ensemble", "--resolution", "4", "--steps", "10", "--out", "taken.h5"},
                         dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(test::read_text(dir / "taken.h5"), "mine");
}

TEST(EnsembleCli, StartsFromACsvFile) {
  test::TempDir dir;
  std::ofstream(dir / "starts.csv") << "# x, y, px, py\nx,y,px,py\n0,0.1,0.3,0\n0,-0.1,0.2,0.1\n";
  const auto r = run_cli({"ensemble", "--starts", "starts.csv", "--steps", "100", "--out",
                          "s.h5", "--backend", "cpu"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  h5::Handle file = h5::open_file((dir / "s.h5").string());
  const auto start = h5::read_dataset<double>(file.id(), "start_state");
  EXPECT_EQ(start, (std::vector<double>{0, 0.1, 0.3, 0, 0, -0.1, 0.2, 0.1}));
}

}  // namespace
}  // namespace orrery

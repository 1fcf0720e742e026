// SPDX-License-Identifier: MIT
// `orrery ensemble` as a user runs it: the published Hénon–Heiles experiment on a small grid (the
// starts on the section x = 0 at the energy asked, px > 0; one result per integrator and
// precision; the file's description of the run), the Lorenz sweep, a plot, and refusals.
#include <gtest/gtest.h>

#include <cmath>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/physics/henon_heiles.hpp"
#include "refused_before_work.hpp"
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
  const std::vector<test::RefusalCase> cases = {
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
  test::expect_refused_before_work({"ensemble"}, "never.h5", cases, dir.path());
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

TEST(EnsembleCli, PolynomialHenonHeilesFollowsTheBuiltIn) {
  test::TempDir dir;
  // The same --state for both: the polynomial's default start is the origin, Hénon–Heiles' the
  // chaotic orbit, and the default py range is what the energy reaches from it.
  const std::vector<std::string> common{"--energy", "0.125", "--plane", "y:py", "--resolution",
                                        "8", "--steps", "500", "--backend", "cpu",
                                        "--state", "0,-0.25,0.42081,0"};
  std::vector<std::string> builtin{"ensemble", "--problem", "henon-heiles", "--out", "b.h5"};
  std::vector<std::string> text{"ensemble", "--problem", "polynomial", "--potential",
                                "0.5*(x^2+y^2) + x^2*y - y^3/3", "--out", "p.h5"};
  builtin.insert(builtin.end(), common.begin(), common.end());
  text.insert(text.end(), common.begin(), common.end());
  const auto a = run_cli(builtin, dir.path());
  const auto b = run_cli(text, dir.path());
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.out.find("|dE/E|"), std::string::npos) << b.out;
  h5::Handle fa = h5::open_file((dir / "b.h5").string()), fb = h5::open_file((dir / "p.h5").string());
  const auto sa = h5::read_dataset<double>(fa.id(), "start_state");
  const auto sb = h5::read_dataset<double>(fb.id(), "start_state");
  ASSERT_EQ(sa.size(), sb.size()) << "the same grid points reached";
  for (std::size_t i = 0; i < sa.size(); ++i) EXPECT_NEAR(sa[i], sb[i], 1e-15) << i;
  h5::Handle ga = h5::open_group(fa.id(), "runs/leapfrog-fp64");
  h5::Handle gb = h5::open_group(fb.id(), "runs/leapfrog-fp64");
  const auto ea = h5::read_dataset<double>(ga.id(), "final_state");
  const auto eb = h5::read_dataset<double>(gb.id(), "final_state");
  for (std::size_t i = 0; i < ea.size(); ++i) EXPECT_NEAR(ea[i], eb[i], 1e-12) << i;
  EXPECT_EQ(h5::read_attribute(fb.id(), "potential").text, "0.5*(x^2+y^2) + x^2*y - y^3/3");
  EXPECT_EQ(h5::read_attribute(fb.id(), "state_names").text, "x,y,px,py");
}

TEST(EnsembleCli, PolynomialOfThreeCoordinatesFromATomlFileAndRows) {
  test::TempDir dir;
  std::ofstream(dir / "s.csv") << "x,y,z,px,py,pz\n0.1,0.2,0.3,0,0,0\n-0.2,0,0.1,0.1,0,0\n";
  // The potential from the TOML file, as every flag can be.
  std::ofstream(dir / "run.toml") << "problem = \"polynomial\"\n"
                                  << "potential = \"0.5*(x^2+y^2+z^2) + 0.1*x*y*z\"\n";
  const auto r = run_cli({"ensemble", "--config", "run.toml", "--starts", "s.csv",
                          "--integrator", "yoshida4,rk4", "--steps", "1000", "--out", "t.h5",
                          "--backend", "cpu"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  h5::Handle file = h5::open_file((dir / "t.h5").string());
  std::vector<hsize_t> dims;
  h5::Handle g = h5::open_group(file.id(), "runs/yoshida4-fp64");
  h5::read_dataset<double>(g.id(), "final_state", &dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{2, 6}));
}

TEST(EnsembleCli, RefusesABadPotentialWithACaretAtTheCharacter) {
  test::TempDir dir;
  const auto r = run_cli({"ensemble", "--problem", "polynomial", "--potential", "x^2 + y^^2",
                          "--out", "never.h5"},
                         dir.path());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--potential"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("column 9"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  x^2 + y^^2\n          ^"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "never.h5"));
  const std::vector<test::RefusalCase> cases = {
      {{"--problem", "polynomial"}, "--potential"},
      {{"--problem", "polynomial", "--potential", "x^7"}, "degree"},
      {{"--problem", "polynomial", "--potential", "w^2"}, "--potential"},
      {{"--problem", "henon-heiles", "--potential", "x^2"}, "--potential"},
  };
  test::expect_refused_before_work({"ensemble"}, "never.h5", cases, dir.path());
}

}  // namespace
}  // namespace orrery

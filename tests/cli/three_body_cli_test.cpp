// SPDX-License-Identifier: MIT
// `orrery ensemble --problem three-body` as a user runs it: a grid of the divergence map's plane
// (planet 1's x1:y1) to an HDF5 file and a plot, a mass swept, starts from a CSV file, and the
// refusal of --energy (its energy fixes no momentum of a plane).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "orrery/io/hdf5_file.hpp"
#include "refused_before_work.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

TEST(ThreeBodyCli, GridOfTheMapsPlaneToAFileAndAPlot) {
  test::TempDir dir;
  std::vector<std::string> args{"ensemble", "--problem", "three-body", "--plane", "x1:y1",
                                "--x1-range", "-20:20", "--y1-range", "-20:20", "--resolution",
                                "6", "--integrator", "leapfrog,rk4", "--precision", "fp64,fp32",
                                "--dt", "0.001", "--steps", "400", "--samples", "4", "--out",
                                "tb.h5", "--backend", "cpu"};
#if ORRERY_HAVE_CAIRO
  args.insert(args.end(), {"--plot", "tb.png"});
#endif
  const auto r = run_cli(args, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rk4 fp32"), std::string::npos) << r.out;
  h5::Handle file = h5::open_file((dir / "tb.h5").string());
  std::vector<hsize_t> dims;
  const auto start = h5::read_dataset<double>(file.id(), "start_state", &dims);
  ASSERT_EQ(dims.size(), 2u);
  ASSERT_EQ(dims[0], 36u);
  ASSERT_EQ(dims[1], 18u);
  // Pixel (j, k) = (1, 2) of the map: x1 = −20 + 40·1/6, y1 = −20 + 40·2/6, the rest canonical.
  const std::size_t row = 2 * 6 + 1;
  EXPECT_EQ(start[row * 18 + 0], -20.0 + (40.0 * 1) / 6);
  EXPECT_EQ(start[row * 18 + 1], -20.0 + (40.0 * 2) / 6);
  EXPECT_EQ(start[row * 18 + 2], -11.0);
  EXPECT_EQ(start[row * 18 + 15], 3.0);  // vx3
  const auto gm = h5::read_dataset<double>(file.id(), "parameters", &dims);
  ASSERT_EQ(dims[1], 3u);
  EXPECT_EQ(gm[0], 9.8 * 10.0);
  EXPECT_EQ(gm[2], 9.8 * 30.0);
  EXPECT_EQ(h5::read_attribute(file.id(), "problem").text, "three-body");
  EXPECT_EQ(h5::read_attribute(file.id(), "plane").text, "x1:y1");
  EXPECT_EQ(h5::read_attribute(file.id(), "parameter_names").text, "gm1,gm2,gm3");
  EXPECT_FALSE(h5::has_attribute(file.id(), "energy")) << "three-body takes no --energy";
  for (const char* run : {"leapfrog-fp64", "leapfrog-fp32", "rk4-fp64", "rk4-fp32"}) {
    h5::Handle g = h5::open_group(file.id(), std::string("runs/") + run);
    h5::read_dataset<double>(g.id(), "final_state", &dims);
    EXPECT_EQ(dims[0], 36u) << run;
    EXPECT_EQ(dims[1], 18u) << run;
    const auto median = h5::read_dataset<double>(g.id(), "energy_error_median");
    ASSERT_EQ(median.size(), 4u) << run;
    EXPECT_GT(median.back(), 0.0) << run;
  }
#if ORRERY_HAVE_CAIRO
  std::ifstream png(dir / "tb.png", std::ios::binary);
  char magic[4] = {};
  png.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
#endif
}

TEST(ThreeBodyCli, SweptMassAndStartsFromAFile) {
  test::TempDir dir;
  auto r = run_cli({"ensemble", "--problem", "three-body", "--sweep", "gm1=50:150", "--n", "5",
                    "--integrator", "yoshida4", "--dt", "0.001", "--steps", "200", "--out",
                    "sweep.h5", "--backend", "cpu"},
                   dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  {
    h5::Handle file = h5::open_file((dir / "sweep.h5").string());
    const auto gm = h5::read_dataset<double>(file.id(), "parameters");
    ASSERT_EQ(gm.size(), 15u);
    EXPECT_EQ(gm[0], 50.0);
    EXPECT_EQ(gm[3], 75.0);
    EXPECT_EQ(gm[12], 150.0);
    EXPECT_EQ(gm[13], 9.8 * 20.0);
  }
  // A header names the columns, in any order: here gm2 first, then the 18 state words, then
  // gm1 and gm3.
  {
    std::ofstream csv(dir / "starts.csv");
    csv << "gm2,x1,y1,z1,x2,y2,z2,x3,y3,z3,vx1,vy1,vz1,vx2,vy2,vz2,vx3,vy3,vz3,gm1,gm3\n";
    for (const char* row : {"150,-10,1,-11,0,0,0,10,10,12,-3,0,0,0,0,0,3,0,0,98,294",
                            "250,-10,2,-11,0,0,0,10,10,12,-3,0,0,0,0,0,3,0,0,98,294"})
      csv << row << "\n";
  }
  r = run_cli({"ensemble", "--problem", "three-body", "--starts", "starts.csv", "--integrator",
               "dopri5", "--tolerance", "1e-9", "--dt", "0.001", "--t-end", "0.5", "--out",
               "file.h5", "--backend", "cpu"},
              dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  h5::Handle file = h5::open_file((dir / "file.h5").string());
  std::vector<hsize_t> dims;
  const auto start = h5::read_dataset<double>(file.id(), "start_state", &dims);
  ASSERT_EQ(dims[0], 2u);
  EXPECT_EQ(start[18 + 1], 2.0);
  EXPECT_EQ(start[18 + 2], -11.0);
  const auto gm = h5::read_dataset<double>(file.id(), "parameters");
  EXPECT_EQ(gm[4], 250.0);
  EXPECT_EQ(gm[5], 9.8 * 30.0);
  h5::Handle g = h5::open_group(file.id(), "runs/dopri5-fp64");
  EXPECT_EQ(h5::read_attribute(g.id(), "trajectories_failed").integer, 0);
}

TEST(ThreeBodyCli, RefusesAnEnergyAndAPlaneWithoutRanges) {
  test::TempDir dir;
  const std::vector<test::RefusalCase> cases = {
      {{"--plane", "x1:y1", "--x1-range", "-1:1", "--y1-range", "-1:1", "--energy", "-50"},
       "--energy"},
      {{"--plane", "x1:y1", "--x1-range", "-1:1"}, "--y1-range"},
      {{"--plane", "x:y"}, "--plane"},
      {{"--parameters", "g=9.8"}, "--parameters"},
  };
  test::expect_refused_before_work({"ensemble", "--problem", "three-body"}, "never.h5", cases,
                                   dir.path());
}

}  // namespace
}  // namespace orrery

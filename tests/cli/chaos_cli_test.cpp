// SPDX-License-Identifier: MIT
// `orrery chaos` as a user runs it: the SALI map of the Hénon–Heiles section at E = 1/8 on a small
// grid (picture and HDF5 written together, the chaotic fraction printed and stored, the
// literature's regular islands regular and its chaotic orbit chaotic), a file of chosen starts,
// and refusals before any work.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "orrery/device/cuda_presence.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/render/frame_image.hpp"
#include "refused_before_work.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

TEST(ChaosCli, SaliMapOfTheHenonHeilesSection) {
  if (!can_draw_text()) GTEST_SKIP() << "built without Cairo (the picture's colour bar needs it)";
  test::TempDir dir;
  const auto r = run_cli({"chaos", "--problem", "henon-heiles", "--energy", "0.125", "--plane",
                          "y:py", "--resolution", "24", "--indicator", "sali", "--dt", "0.01",
                          "--t-end", "500", "--samples", "5", "--out", "sali.png", "--data",
                          "sali.h5"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("chaotic (sali < 1e-08)"), std::string::npos) << r.out;
  const RgbImage picture = read_png(dir / "sali.png");
  EXPECT_GT(picture.width, 24);
  h5::Handle file = h5::open_file((dir / "sali.h5").string());
  EXPECT_EQ(h5::read_attribute(file.id(), "format").text, "orrery-chaos");
  EXPECT_EQ(h5::read_attribute(file.id(), "indicator").text, "sali");
  std::vector<hsize_t> dims;
  const auto values = h5::read_dataset<double>(file.id(), "values", &dims);
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0], 5u);
  const auto sali = h5::read_dataset<double>(file.id(), "indicator");
  const double fraction = h5::read_attribute(file.id(), "chaotic_fraction").reals.at(0);
  std::size_t chaotic = 0;
  for (double v : sali) chaotic += v < 1e-8;
  EXPECT_DOUBLE_EQ(fraction, static_cast<double>(chaotic) / static_cast<double>(sali.size()));
  // At E = 1/8 the section is about half chaotic sea, half islands (the picture in
  // docs/guide/chaos.md; Gerlach & Skokos 2011 count the chaotic orbits of this section).
  EXPECT_GT(fraction, 0.25);
  EXPECT_LT(fraction, 0.75);
  // The centre of the large island (y, py) ≈ (0.15, 0) is regular; its last sample's SALI is
  // the indicator's value.
  const auto start = h5::read_dataset<double>(file.id(), "start_state");
  const std::size_t n = sali.size();
  std::size_t in_island = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::abs(start[4 * i + 1] - 0.15) < 0.03 && std::abs(start[4 * i + 3]) < 0.03) {
      ++in_island;
      EXPECT_GT(sali[i], 1e-4) << "y " << start[4 * i + 1] << " py " << start[4 * i + 3];
    }
  }
  EXPECT_GT(in_island, 0u) << "no start of the grid fell in the island's centre";
  EXPECT_EQ(values[(4 * 1 + 0) * n + 0], sali[0]);
}

TEST(ChaosCli, ChosenStartsFromAFileGiveTheirIndicators) {
  test::TempDir dir;
  // The literature's chaotic orbit and a start in the central island.
  std::ofstream(dir / "starts.csv") << "x,y,px,py\n0,-0.25,0.42081,0\n0,0.15,0.47932,0\n";
  const auto r = run_cli({"chaos", "--problem", "henon-heiles", "--starts", "starts.csv",
                          "--indicator", "megno", "--dt", "0.01", "--t-end", "2000",
                          "--threshold", "4", "--data", "m.h5"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  h5::Handle file = h5::open_file((dir / "m.h5").string());
  const auto megno = h5::read_dataset<double>(file.id(), "indicator");
  ASSERT_EQ(megno.size(), 2u);
  EXPECT_GT(megno[0], 10.0) << "chaotic: <Y> grows like lambda t / 2";
  // <Y> of a quasi-periodic orbit tends to 2, its oscillation decaying like 1/t: at t = 2000 it
  // is within a tenth of 2, far from a chaotic orbit's λt/2 (~50).
  constexpr double kMegnoRegularAt2000 = 0.2;
  EXPECT_NEAR(megno[1], 2.0, kMegnoRegularAt2000) << "regular: <Y> tends to 2";
  EXPECT_EQ(h5::read_attribute(file.id(), "chaotic_fraction").reals.at(0), 0.5);
}

TEST(ChaosCli, DoubleDoubleVectorsTakeSaliBelowTheFp64Floor) {
  test::TempDir dir;
  // The literature's chaotic orbit and a start in the central island, to t = 2000: the chaotic
  // orbit's SALI reaches fp64's floor (~1e-16) by t ≈ 700 and stays there with fp64 vectors.
  std::ofstream(dir / "starts.csv") << "x,y,px,py\n0,-0.25,0.42081,0\n0,0.15,0.47932,0\n";
  const auto run = [&](const char* precision, const char* data) {
    return run_cli({"chaos", "--problem", "henon-heiles", "--starts", "starts.csv", "--indicator",
                    "sali", "--dt", "0.01", "--t-end", "2000", "--tangent-precision", precision,
                    "--data", data},
                   dir.path());
  };
  const auto dd = run("dd", "dd.h5"), fp64 = run("fp64", "fp64.h5");
  ASSERT_EQ(dd.status, 0) << dd.err;
  ASSERT_EQ(fp64.status, 0) << fp64.err;
  h5::Handle dd_file = h5::open_file((dir / "dd.h5").string());
  h5::Handle fp64_file = h5::open_file((dir / "fp64.h5").string());
  EXPECT_EQ(h5::read_attribute(dd_file.id(), "tangent_precision").text, "dd");
  EXPECT_EQ(h5::read_attribute(fp64_file.id(), "tangent_precision").text, "fp64");
  const auto sali_dd = h5::read_dataset<double>(dd_file.id(), "indicator");
  const auto sali_fp64 = h5::read_dataset<double>(fp64_file.id(), "indicator");
  ASSERT_EQ(sali_dd.size(), 2u);
  // fp64: two unit vectors closer than an ulp are not resolved; double-double resolves 2⁻¹⁰⁴.
  constexpr double kFp64Floor = 1e-18, kBelowFp64 = 1e-20;
  EXPECT_GT(sali_fp64[0], kFp64Floor);
  EXPECT_LT(sali_dd[0], kBelowFp64);
  // The regular orbit's SALI stays away from 0 with both, the same to the vectors' rounding.
  constexpr double kRegularSali = 1e-3, kSameSali = 1e-9;
  EXPECT_GT(sali_dd[1], kRegularSali);
  EXPECT_NEAR(sali_dd[1], sali_fp64[1], kSameSali);
  // The state is fp64 in both: the same final states, bit for bit.
  EXPECT_EQ(h5::read_dataset<double>(dd_file.id(), "final_state"),
            h5::read_dataset<double>(fp64_file.id(), "final_state"));
}

TEST(ChaosCli, GaliKeepsEveryVolumeAndMapsTheOneAskedFor) {
  test::TempDir dir;
  const auto r = run_cli({"chaos", "--energy", "0.125", "--resolution", "8", "--indicator",
                          "gali", "--gali-k", "3", "--t-end", "200", "--samples", "2", "--data",
                          "g.h5", "--backend", "cpu"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  h5::Handle file = h5::open_file((dir / "g.h5").string());
  EXPECT_EQ(h5::read_attribute(file.id(), "value_names").text, "gali1,gali2,gali3,gali4");
  EXPECT_EQ(h5::read_attribute(file.id(), "gali_k").integer, 3);
  std::vector<hsize_t> dims;
  const auto values = h5::read_dataset<double>(file.id(), "values", &dims);
  const auto gali = h5::read_dataset<double>(file.id(), "indicator");
  const std::size_t n = gali.size();
  ASSERT_EQ(dims[1], 4u);
  for (std::size_t i = 0; i < n; ++i) {
    const double* last = &values[4 * n];  // sample 2
    constexpr double kUnitRounding = 1e-15;  // a unit vector's norm, to a few ulps
    EXPECT_NEAR(last[0 * n + i], 1.0, kUnitRounding) << "GALI_1";
    EXPECT_EQ(gali[i], last[2 * n + i]) << "the map is GALI_3";
    // A volume of unit vectors only shrinks as vectors are added: GALI_{k+1} ≤ GALI_k, to the
    // rounding of the Gram–Schmidt that measures them.
    constexpr double kGramSchmidtRounding = 1e-14;
    for (int k = 1; k < 4; ++k)
      EXPECT_LE(last[static_cast<std::size_t>(k) * n + i],
                last[static_cast<std::size_t>(k - 1) * n + i] + kGramSchmidtRounding);
  }
}

TEST(ChaosCli, EscapeBasinOfHenonHeilesAboveTheSaddles) {
  test::TempDir dir;
  // Above 1/6 the energy's reach along y is unbounded: the plane's ranges are given.
  std::vector<std::string> args{"chaos", "--energy", "0.25", "--resolution", "20", "--y-range",
                                "-1:1", "--py-range", "-1:1", "--indicator", "escape", "--t-end", "100", "--samples", "1",
                                "--data", "e.h5", "--backend", "cpu"};
  if (can_draw_text()) args.insert(args.end(), {"--out", "e.png"});
  const auto r = run_cli(args, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("escaped: "), std::string::npos) << r.out;
  h5::Handle file = h5::open_file((dir / "e.h5").string());
  const auto exit = h5::read_dataset<std::int64_t>(file.id(), "exit");
  const auto time = h5::read_dataset<double>(file.id(), "escape_time");
  ASSERT_EQ(exit.size(), time.size());
  std::size_t left = 0;
  for (std::size_t i = 0; i < exit.size(); ++i) {
    EXPECT_GE(exit[i], -1);
    EXPECT_LE(exit[i], 2);
    EXPECT_EQ(exit[i] < 0, std::isnan(time[i])) << "a time exactly for the starts that left";
    if (exit[i] >= 0) {
      ++left;
      EXPECT_GT(time[i], 0.0);
      EXPECT_LE(time[i], 100.0);
    }
  }
  EXPECT_GT(left, exit.size() / 2) << "at E = 0.25 most starts leave by t = 100";
  EXPECT_EQ(h5::read_attribute(file.id(), "exit_names").text, "up,left,right");
  if (can_draw_text()) {
    EXPECT_GT(read_png(dir / "e.png").width, 20);
  }
}

TEST(ChaosCli, BadInputIsRefusedBeforeWork) {
  test::TempDir dir;
  std::vector<test::RefusalCase> cases{
      {{"--indicator", "entropy"}, "--indicator"},
      {{"--every", "7", "--steps", "1000"}, "--every"},
      {{"--precision", "fp32"}, "--precision"},
      {{"--integrator", "ab2"}, "--integrator"},
      {{"--integrator", "leapfrog,rk4"}, "--integrator"},
      {{"--problem", "three-body", "--indicator", "spectrum", "--x1-range", "0:1",
        "--y1-range", "0:1", "--plane", "x1:y1"},
       "--indicator"},
      {{"--indicator", "sali", "--threshold", "2"}, "--threshold"},
      {{"--threshold", "lots"}, "--threshold"},
      {{"--starts", "random"}, "--out"},
      {{"--samples", "1000"}, "--samples"},
      {{"--indicator", "gali", "--gali-k", "5"}, "--gali-k"},
      {{"--indicator", "gali", "--gali-k", "1"}, "--gali-k"},
      {{"--problem", "three-body", "--indicator", "escape", "--x1-range", "0:1",
        "--y1-range", "0:1", "--plane", "x1:y1"},
       "--indicator"},
      {{"--indicator", "escape", "--threshold", "1"}, "--threshold"},
      {{"--indicator", "escape", "--energy", "0.25"}, "--y-range"},  // unbounded above 1/6
      {{"--tangent-precision", "fp128"}, "--tangent-precision"},
      {{"--tangent-precision", "dd", "--indicator", "megno"}, "--tangent-precision"},
      {{"--tangent-precision", "dd", "--indicator", "sali", "--integrator", "rk4"},
       "--tangent-precision"},
      {{"--tangent-precision", "dd", "--indicator", "sali", "--backend", "cuda"},
       "--tangent-precision"},
  };
  // Without a usable GPU, a run asked onto one is refused before work; with one, it runs there
  // (ChaosCuda compares its values with the CPU's).
  if (cuda_device_count() == 0) cases.push_back({{"--backend", "cuda"}, "--backend"});
  test::expect_refused_before_work({"chaos", "--resolution", "4", "--steps", "1000"}, "never.png",
                                   cases, dir.path());
}

}  // namespace
}  // namespace orrery

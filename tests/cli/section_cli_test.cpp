// SPDX-License-Identifier: MIT
// `orrery section` as a user runs it: the Hénon–Heiles surface of section x = 0, px > 0 at
// E = 1/8 — every crossing on the plane to 10⁻¹² and at the orbit's energy to the integrator's
// error, the same crossings, bit for bit, as `orrery ensemble --section` (it is an alias of that
// job), its picture beside the file; coloured by an indicator, each orbit's value `orrery chaos`
// gives for its start (a regular and a chaotic orbit told apart) — and its own flags' refusals
// named as its flags.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/physics/henon_heiles.hpp"
#include "orrery/render/frame_image.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

// The crossings of the file's one run: points [N][K][4], count [N].
struct SectionFile {
  std::vector<double> points, drift;
  std::vector<std::int64_t> count;
  std::size_t n = 0, k = 0;
};

SectionFile read_section(const std::filesystem::path& path, const std::string& run) {
  h5::Handle file = h5::open_file(path.string());
  h5::Handle g = h5::open_group(file.id(), "runs/" + run + "/section");
  SectionFile s;
  std::vector<hsize_t> dims;
  s.points = h5::read_dataset<double>(g.id(), "points", &dims);
  s.n = dims.at(0), s.k = dims.at(1);
  s.count = h5::read_dataset<std::int64_t>(g.id(), "count");
  h5::Handle r = h5::open_group(file.id(), "runs/" + run);
  s.drift = h5::read_dataset<double>(r.id(), "energy_error_max");
  return s;
}

TEST(SectionCli, CrossingsOnThePlaneAtTheEnergyAndTheEnsemblesBits) {
  test::TempDir dir;
  const std::vector<std::string> common{"--problem", "henon-heiles", "--energy", "0.125",
                                        "--resolution", "6", "--integrator", "yoshida4",
                                        "--dt", "0.01", "--steps", "20000", "--samples", "400",
                                        "--max-crossings", "64", "--backend", "cpu"};
  std::vector<std::string> args{"section", "--section", "x=0", "--direction", "+", "--out",
                                "s.h5"};
  args.insert(args.end(), common.begin(), common.end());
  if (can_draw_text()) args.insert(args.end(), {"--plot", "s.png"});
  const auto r = run_cli(args, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("section: x = 0 (up)"), std::string::npos) << r.out;
  if (can_draw_text()) {
    EXPECT_TRUE(std::filesystem::exists(dir / "s.png"));
  }

  const SectionFile s = read_section(dir / "s.h5", "yoshida4-fp64");
  // On the plane: Hénon's step lands on x = 0 (exactly, here; 10⁻¹² is the bound).
  constexpr double kOnThePlane = 1e-12;
  // At the energy: the crossing is the state of an RK4 step of length < h from a state of the
  // orbit, so its energy error is the orbit's (yoshida4's, sampled 400 times: its largest over
  // the samples, which a peak between samples may exceed by a little) plus that step's O(h⁵).
  constexpr double kPeakBetweenSamples = 2.0, kLocationStep = 1e-10;
  std::int64_t kept = 0;
  for (std::size_t i = 0; i < s.n; ++i)
    for (std::int64_t c = 0; c < std::min<std::int64_t>(s.count[i], static_cast<std::int64_t>(s.k));
         ++c, ++kept) {
      const double* p = &s.points[(i * s.k + static_cast<std::size_t>(c)) * 4];
      EXPECT_LE(std::abs(p[0]), kOnThePlane);
      EXPECT_GT(p[2], 0.0) << "px > 0: upwards";
      const double q[2] = {p[0], p[1]}, v[2] = {p[2], p[3]};
      EXPECT_LE(std::abs(henon_heiles_energy(q, v) - 0.125) / 0.125,
                kPeakBetweenSamples * s.drift[i] + kLocationStep)
          << "orbit " << i << " crossing " << c;
    }
  EXPECT_GT(kept, static_cast<std::int64_t>(s.n) * 10) << "t = 200: tens of crossings an orbit";

  std::vector<std::string> alias{"ensemble", "--section", "x=0", "--section-direction", "up",
                                 "--out", "e.h5"};
  alias.insert(alias.end(), common.begin(), common.end());
  ASSERT_EQ(run_cli(alias, dir.path()).status, 0);
  const SectionFile e = read_section(dir / "e.h5", "yoshida4-fp64");
  ASSERT_EQ(e.points.size(), s.points.size());
  for (std::size_t i = 0; i < e.points.size(); ++i)
    if (!std::isnan(s.points[i])) {
      ASSERT_EQ(e.points[i], s.points[i]) << "word " << i;
    }
  EXPECT_EQ(e.count, s.count);
}

TEST(SectionCli, ItsOwnFlagsAreRefusedByTheirNames) {
  test::TempDir dir;
  const auto r = run_cli({"section", "--direction", "sideways", "--out", "s.h5"}, dir.path());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("--direction"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--section-direction"), std::string::npos) << r.err;
  const auto w = run_cli({"section", "--section", "w=0", "--out", "s.h5"}, dir.path());
  EXPECT_NE(w.status, 0);
  EXPECT_NE(w.err.find("--section"), std::string::npos) << w.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "s.h5"));
}

TEST(SectionCli, ColouredByAnIndicatorEachOrbitHasTheValueOrreryChaosGives) {
  test::TempDir dir;
  // A start in the central island of E = 1/8 and the literature's chaotic orbit (the starts of
  // ChaosCli.ChosenStartsFromAFileGiveTheirIndicators).
  std::ofstream(dir / "starts.csv") << "x,y,px,py\n0,0.15,0.47932,0\n0,-0.25,0.42081,0\n";
  const std::vector<std::string> run{"--problem", "henon-heiles", "--starts", "starts.csv",
                                     "--integrator", "yoshida4", "--dt", "0.01", "--t-end",
                                     "1000", "--max-crossings", "400", "--backend", "cpu"};
  std::vector<std::string> args{"section", "--colour-by", "sali", "--out", "s.h5"};
  args.insert(args.end(), run.begin(), run.end());
  if (can_draw_text()) args.insert(args.end(), {"--plot", "s.png"});
  const auto r = run_cli(args, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("chaotic (sali < 1e-08): 50.0% of 2 orbits"), std::string::npos) << r.out;
  h5::Handle file = h5::open_file((dir / "s.h5").string());
  h5::Handle g = h5::open_group(file.id(), "runs/yoshida4-fp64/section");
  EXPECT_EQ(h5::read_attribute(g.id(), "indicator_name").text, "sali");
  const auto sali = h5::read_dataset<double>(g.id(), "indicator");
  ASSERT_EQ(sali.size(), 2u);
  // A regular orbit's SALI oscillates about a positive value, a chaotic one's falls like
  // e^{−(λ₁−λ₂)t} below the literature's threshold 10⁻⁸ (Skokos 2001): λ₁ ≈ 0.05 over t = 1000.
  EXPECT_GT(sali[0], 1e-4) << "regular";
  EXPECT_LT(sali[1], 1e-8) << "chaotic";

  // The same values, bit for bit, as orrery chaos over the same starts with the same step.
  std::vector<std::string> chaos{"chaos", "--indicator", "sali", "--data", "c.h5"};
  chaos.insert(chaos.end(), run.begin(), run.end() - 4);  // less --max-crossings
  chaos.insert(chaos.end(), {"--backend", "cpu"});
  ASSERT_EQ(run_cli(chaos, dir.path()).status, 0);
  h5::Handle c = h5::open_file((dir / "c.h5").string());
  EXPECT_EQ(h5::read_dataset<double>(c.id(), "indicator"), sali);

  // MEGNO through orrery ensemble's flag: ⟨Y⟩ near 2 on the torus, λt/2 ≫ 2 on the chaotic orbit.
  std::vector<std::string> ensemble{"ensemble", "--section", "x=0", "--section-colour-by",
                                    "megno", "--out", "e.h5"};
  ensemble.insert(ensemble.end(), run.begin(), run.end());
  ASSERT_EQ(run_cli(ensemble, dir.path()).status, 0);
  h5::Handle e = h5::open_file((dir / "e.h5").string());
  h5::Handle eg = h5::open_group(e.id(), "runs/yoshida4-fp64/section");
  const auto megno = h5::read_dataset<double>(eg.id(), "indicator");
  constexpr double kMegnoRegularAt1000 = 0.3;  // ⟨Y⟩ = 2 − O(1/t) oscillations at t = 1000
  EXPECT_NEAR(megno.at(0), 2.0, kMegnoRegularAt1000);
  EXPECT_GT(megno.at(1), 8.0);

  if (!can_draw_text()) return;
  // The plot widened by the colour bar; both orbits' colours on SALI's scale in it: the regular
  // orbit's (SALI ~ 0.1: bright) and the chaotic one's (near black).
  const RgbImage picture = read_png(dir / "s.png");
  EXPECT_GT(picture.width, 1000);
  std::size_t dark = 0, bright = 0;
  constexpr int kPlotWidth = 1000;  // left of the bar, whose colours are not the orbits'
  for (int row = 0; row < picture.height; ++row)
    for (int col = 0; col < kPlotWidth; ++col) {
      const Rgb8 p = picture.at(col, row);
      const bool grey = p.r == p.g && p.g == p.b;  // text, frame, grid
      dark += !grey && p.r + p.g + p.b < 150;
      bright += !grey && p.r > 200 && p.b < 150;
    }
  EXPECT_GT(dark, 200u);
  EXPECT_GT(bright, 200u);
}

TEST(SectionCli, AnIndicatorTheChaosLanesCannotComputeIsRefusedBeforeWork) {
  test::TempDir dir;
  const auto bad = run_cli({"section", "--colour-by", "gali", "--out", "s.h5"}, dir.path());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("--colour-by"), std::string::npos) << bad.err;
  const auto adaptive = run_cli({"section", "--colour-by", "sali", "--integrator", "dopri5",
                                 "--tolerance", "1e-9", "--out", "s.h5"},
                                dir.path());
  EXPECT_NE(adaptive.status, 0);
  EXPECT_NE(adaptive.err.find("--colour-by"), std::string::npos) << adaptive.err;
  const auto fp32 = run_cli({"section", "--colour-by", "megno", "--precision", "fp32", "--out",
                             "s.h5"},
                            dir.path());
  EXPECT_NE(fp32.status, 0);
  EXPECT_NE(fp32.err.find("fp64"), std::string::npos) << fp32.err;
  const auto none = run_cli({"ensemble", "--section-colour-by", "sali", "--out", "e.h5"},
                            dir.path());
  EXPECT_NE(none.status, 0);
  EXPECT_NE(none.err.find("--section-colour-by"), std::string::npos) << none.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "s.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir / "e.h5"));
}

}  // namespace
}  // namespace orrery

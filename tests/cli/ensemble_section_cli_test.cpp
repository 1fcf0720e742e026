// SPDX-License-Identifier: MIT
// `orrery ensemble --section` as a user runs it: the Hénon–Heiles surface of section x = 0 in the
// HDF5 file (every crossing on the section and at the run's energy, the attributes saying what
// the section is), its picture beside it, crossings beyond --max-crossings reported, and bad
// sections refused before any file is written.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/physics/henon_heiles.hpp"
#include "refused_before_work.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

// leapfrog at dt = 0.01 keeps a bounded energy error of ~1e-5 at E = 1/8 (docs/guide/ensemble.md);
// the crossing's own location (RK4 in the section word) adds far less.
constexpr double kEnergyOnTheSection = 1e-4;

TEST(EnsembleSectionCli, HenonHeilesSectionInTheFileAndItsPicture) {
  test::TempDir dir;
  std::vector<std::string> args{"ensemble", "--energy", "0.125", "--resolution", "6",
                                "--steps", "20000", "--samples", "2", "--section", "x=0",
                                "--max-crossings", "16", "--out", "s.h5", "--backend", "cpu"};
#if ORRERY_HAVE_CAIRO
  args.insert(args.end(), {"--section-plot", "s.png"});
#endif
  const auto r = run_cli(args, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("section x = 0 (up)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("beyond --max-crossings 16"), std::string::npos)
      << "t = 200 holds more than 16 crossings of most orbits: " << r.out;
  h5::Handle file = h5::open_file((dir / "s.h5").string());
  std::vector<hsize_t> dims;
  const auto n = h5::read_dataset<double>(file.id(), "start_state", &dims).size() / 4;
  h5::Handle g = h5::open_group(file.id(), "runs/leapfrog-fp64/section");
  const auto points = h5::read_dataset<double>(g.id(), "points", &dims);
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0], n);
  EXPECT_EQ(dims[1], 16u);
  EXPECT_EQ(dims[2], 4u);
  const auto time = h5::read_dataset<double>(g.id(), "time", &dims);
  EXPECT_EQ(dims.size(), 2u);
  const auto count = h5::read_dataset<std::int64_t>(g.id(), "count");
  ASSERT_EQ(count.size(), n);
  std::int64_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::int64_t c = 0; c < std::min<std::int64_t>(count[i], 16); ++c, ++kept) {
      const double* s = &points[(i * 16 + static_cast<std::size_t>(c)) * 4];
      const double q[2] = {s[0], s[1]}, p[2] = {s[2], s[3]};
      EXPECT_EQ(s[0], 0.0);
      EXPECT_GT(s[2], 0.0) << "px > 0: upwards";
      EXPECT_NEAR(henon_heiles_energy(q, p), 0.125, kEnergyOnTheSection);
      EXPECT_GT(time[i * 16 + static_cast<std::size_t>(c)], 0.0);
    }
  EXPECT_GT(kept, static_cast<std::int64_t>(n));
  EXPECT_EQ(h5::read_attribute(g.id(), "word").text, "x");
  EXPECT_EQ(h5::read_attribute(g.id(), "direction").text, "up");
  EXPECT_EQ(h5::read_attribute(g.id(), "plane").text, "y:py");
  EXPECT_EQ(h5::read_attribute(g.id(), "capacity").integer, 16);
  EXPECT_GT(h5::read_attribute(g.id(), "crossings_beyond_capacity").integer, 0);
  EXPECT_EQ(h5::read_attribute(file.id(), "section").text, "x=0");
#if ORRERY_HAVE_CAIRO
  EXPECT_TRUE(std::filesystem::exists(dir / "s.png"));
#endif
}

TEST(EnsembleSectionCli, RefusesBadSectionsBeforeWork) {
  test::TempDir dir;
  const std::vector<test::RefusalCase> cases = {
      {{"--section", "z=0"}, "--section"},
      {{"--section", "x"}, "--section"},
      {{"--section", "x=inf"}, "--section"},
      {{"--problem", "lorenz", "--sweep", "rho=0:21", "--section", "px=0"}, "--section"},
      {{"--section", "x=0", "--max-crossings", "0"}, "--max-crossings"},
      {{"--section", "x=0", "--max-crossings", "10000000"}, "--max-crossings"},
      {{"--section", "x=0", "--section-direction", "sideways"}, "--section-direction"},
      {{"--section-plot", "p.png"}, "--section-plot"},
      {{"--section", "x=0", "--section-plot", "never.h5"}, "--section-plot"},
  };
  test::expect_refused_before_work({"ensemble", "--resolution", "4", "--steps", "100"}, "never.h5",
                                   cases, dir.path());
}

}  // namespace
}  // namespace orrery

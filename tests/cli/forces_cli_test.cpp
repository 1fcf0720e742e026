// SPDX-License-Identifier: MIT
// `orrery forces` as a user meets it: the direct engine's accelerations and potentials of a
// particle file equal a long-double sum; the tree's are within the bounds of them;
// --repeat reports medians and their parts; bad input is refused before anything is written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "orrery/io/hdf5_file.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

constexpr int kBodies = 400;
constexpr double kSoftening = 0.02;
// The direct engine in fp64 (a refined 1/r³ of a few ulp, 400 terms) against a long-double sum.
constexpr double kDirectBound = 1e-13;
// The bounds for a tree at θ = 0.5 with quadrupoles.
constexpr double kTreeMedian = 3e-4, kTreeP99 = 3e-3;

struct Bodies {
  std::vector<double> m, x, y, z;
};

// A clumpy system in a CSV file: the tree meets both dense and empty regions.
Bodies write_bodies(const std::filesystem::path& path) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> gauss(0.0, 1.0);
  Bodies b;
  std::string csv = "m,x,y,z,vx,vy,vz\n";
  for (int i = 0; i < kBodies; ++i) {
    const double c = (i % 4) * 1.5;  // four clumps along the diagonal
    b.m.push_back(1.0 / kBodies * (1 + i % 3));
    b.x.push_back(c + 0.3 * gauss(rng)), b.y.push_back(c + 0.3 * gauss(rng));
    b.z.push_back(0.3 * gauss(rng));
    csv += fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},0,0,0\n", b.m.back(), b.x.back(),
                       b.y.back(), b.z.back());
  }
  test::write_text(path, csv);
  return b;
}

struct Field {
  std::vector<double> a, phi;  // a: N×3 rows
};

Field read_field(const std::filesystem::path& path) {
  h5::Handle f = h5::open_file(path.string());
  return {h5::read_dataset<double>(f.id(), "acceleration"),
          h5::read_dataset<double>(f.id(), "potential")};
}

Field long_double_sum(const Bodies& b) {
  Field f{std::vector<double>(3 * kBodies), std::vector<double>(kBodies)};
  for (int i = 0; i < kBodies; ++i) {
    long double a[3] = {0, 0, 0}, phi = 0;
    for (int j = 0; j < kBodies; ++j) {
      if (i == j) continue;
      const long double d[3] = {(long double)b.x[j] - b.x[i], (long double)b.y[j] - b.y[i],
                                (long double)b.z[j] - b.z[i]};
      const long double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + kSoftening * kSoftening;
      const long double r = std::sqrt(r2);
      for (int k = 0; k < 3; ++k) a[k] += b.m[j] * d[k] / (r2 * r);
      phi -= b.m[j] / r;
    }
    for (int k = 0; k < 3; ++k) f.a[3 * i + k] = static_cast<double>(a[k]);
    f.phi[i] = static_cast<double>(phi);
  }
  return f;
}

// Relative errors of |a| per body, sorted.
std::vector<double> errors(const Field& got, const Field& want) {
  std::vector<double> e;
  for (int i = 0; i < kBodies; ++i) {
    double d2 = 0, w2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = got.a[3 * i + k] - want.a[3 * i + k];
      d2 += d * d, w2 += want.a[3 * i + k] * want.a[3 * i + k];
    }
    e.push_back(std::sqrt(d2 / w2));
  }
  std::sort(e.begin(), e.end());
  return e;
}

TEST(ForcesCli, DirectEqualsALongDoubleSumAndTheTreeIsWithinItsBounds) {
  test::TempDir dir;
  const Bodies b = write_bodies(dir / "bodies.csv");
  const Field want = long_double_sum(b);
  const std::string eps = fmt::format("{}", kSoftening);
  const auto direct = run_cli({"forces", "--input", "bodies.csv", "--softening", eps,
                               "--backend", "cpu", "--out", "direct.h5"},
                              dir.path());
  ASSERT_EQ(direct.status, 0) << direct.err;
  const Field d = read_field(dir / "direct.h5");
  EXPECT_LT(errors(d, want).back(), kDirectBound);
  for (int i = 0; i < kBodies; ++i) EXPECT_NEAR(d.phi[i], want.phi[i], kDirectBound * std::abs(want.phi[i]));

  const auto tree = run_cli({"forces", "--input", "bodies.csv", "--softening", eps, "--engine",
                             "tree", "--backend", "cpu", "--repeat", "3", "--out", "tree.h5"},
                            dir.path());
  ASSERT_EQ(tree.status, 0) << tree.err;
  EXPECT_NE(tree.out.find("median of 3"), std::string::npos) << tree.out;
  EXPECT_NE(tree.out.find("tree build"), std::string::npos) << tree.out;
  const std::vector<double> e = errors(read_field(dir / "tree.h5"), read_field(dir / "direct.h5"));
  EXPECT_LT(e[e.size() / 2], kTreeMedian);
  EXPECT_LT(e[e.size() * 99 / 100], kTreeP99);
  h5::Handle f = h5::open_file((dir / "tree.h5").string());
  EXPECT_EQ(h5::read_attribute(f.id(), "engine").text, "tree");
}

TEST(ForcesCli, RefusesBadInputWithoutWritingAnything) {
  test::TempDir dir;
  write_bodies(dir / "bodies.csv");
  test::write_text(dir / "old.h5", "previous contents");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--input", "missing.csv", "--out", "new.h5"}, "missing.csv"},
      {{"--input", "bodies.csv", "--out", "bodies.csv", "--overwrite"}, "--out"},
      {{"--input", "bodies.csv", "--out", "old.h5"}, "--overwrite"},
      {{"--input", "bodies.csv", "--out", "new.h5", "--theta", "-1"}, "--theta"},
      {{"--input", "bodies.csv", "--out", "new.h5", "--engine", "fmm"}, "--engine"},
      {{"--input", "bodies.csv", "--out", "new.h5", "--repeat", "0"}, "--repeat"},
      {{"--input", "bodies.csv", "--out", "new.h5", "--multipole", "octupole"}, "--multipole"},
  };
  for (const auto& [args, names] : cases) {
    std::vector<std::string> all{"forces"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_cli(all, dir.path());
    EXPECT_EQ(r.status, 2) << names << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "new.h5")) << names;
    EXPECT_EQ(test::read_text(dir / "old.h5"), "previous contents");
  }
}

}  // namespace
}  // namespace orrery

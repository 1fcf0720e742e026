// SPDX-License-Identifier: MIT
// The parts of the tree over ranks that one process can run (src/dist/tree_essential.hpp,
// tree_domains.hpp): half of a Plummer sphere walking its own tree and the other half's local
// essential tree meets the direct sum over both within the tree's bounds (and without that
// tree misses by far), the essential tree is pruned (fewer bodies than the half it stands for),
// and the cuts of the Morton curve share the work out evenly along cell boundaries. Under mpirun:
// tests/cli/mpi_tree_cli_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "dist/tree_domains.hpp"
#include "dist/tree_essential.hpp"
#include "nbody/tree/cpu/tree_engine.hpp"
#include "orrery/nbody/tree_accuracy.hpp"

namespace orrery {
namespace {

// The median error asked of the tree here, θ = 0.5 with quadrupoles meeting it with room.
constexpr double kEssentialTreeAccuracy = 1e-3;

struct HalfCloud {
  std::vector<double> x, mass;  // [x…, y…, z…]
  std::size_t size() const { return mass.size(); }
};

// A Plummer sphere of n unit-mass bodies (radii from the inverted cumulative mass), split at
// x = 0.3 (the halves unequal, their boundary through the dense centre).
std::pair<HalfCloud, HalfCloud> split_plummer(int n) {
  std::mt19937_64 rng(28);
  std::uniform_real_distribution<double> u(0.0, 0.99), c(-1.0, 1.0), turn(0.0, 2 * M_PI);
  std::vector<double> p[3];
  for (int i = 0; i < n; ++i) {
    const double r = 1.0 / std::sqrt(std::pow(u(rng) + 1e-12, -2.0 / 3.0) - 1.0);
    const double cos_t = c(rng), phi = turn(rng), sin_t = std::sqrt(1 - cos_t * cos_t);
    p[0].push_back(r * sin_t * std::cos(phi));
    p[1].push_back(r * sin_t * std::sin(phi));
    p[2].push_back(r * cos_t);
  }
  HalfCloud a, b;
  for (int part = 0; part < 2; ++part) {
    HalfCloud& h = part == 0 ? a : b;
    for (int axis = 0; axis < 3; ++axis)
      for (int i = 0; i < n; ++i)
        if ((p[0][i] < 0.3) == (part == 0)) h.x.push_back(p[axis][i]);
    h.mass.assign(h.x.size() / 3, 1.0);
  }
  return {a, b};
}

// Accelerations of `a`'s bodies by its own tree and, unless null, `received`.
std::vector<double> tree_accelerations(const HalfCloud& a, const cpu::Octree<double>* received) {
  EngineOptions o;
  o.theta = 0.5;
  o.threads = 1;
  cpu::TreeEngine<double> engine(o);
  engine.set_bodies(a.mass, {});
  if (received)
    engine.walk_also([received](const cpu::Octree<double>&) {
      return std::span<const cpu::Octree<double>>(received, 1);
    });
  auto& d = engine.device();
  auto x = d.allocate(a.x.size()), acc = d.allocate(a.x.size());
  d.copy_to_device(a.x, x);
  engine.accelerations(x, acc);
  std::vector<double> out(a.x.size());
  d.copy_to_host(acc, out);
  if (received) {
    EXPECT_EQ(engine.work().size(), a.size());
    EXPECT_GT(*std::min_element(engine.work().begin(), engine.work().end()), 0u);
  }
  return out;
}

// Sorted relative errors of `a`'s accelerations against the direct sum over a and b (G = 1,
// no softening).
std::vector<double> errors_against_direct(const HalfCloud& a, const HalfCloud& b,
                                          const std::vector<double>& acc) {
  const std::size_t n = a.size();
  std::vector<double> e;
  for (std::size_t i = 0; i < n; ++i) {
    double s[3] = {0, 0, 0};
    for (const HalfCloud* h : {&a, &b})
      for (std::size_t j = 0; j < h->size(); ++j) {
        const std::size_t m = h->size();
        const double d[3] = {h->x[j] - a.x[i], h->x[m + j] - a.x[n + i],
                             h->x[2 * m + j] - a.x[2 * n + i]};
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (r2 == 0) continue;
        const double f = h->mass[j] / (r2 * std::sqrt(r2));
        for (int k = 0; k < 3; ++k) s[k] += f * d[k];
      }
    double d2 = 0, w2 = 0;
    for (int k = 0; k < 3; ++k)
      d2 += (acc[k * n + i] - s[k]) * (acc[k * n + i] - s[k]), w2 += s[k] * s[k];
    e.push_back(std::sqrt(d2 / w2));
  }
  std::sort(e.begin(), e.end());
  return e;
}

TEST(TreeEssential, AHalfWalkingTheOtherHalfsEssentialTreeMeetsTheDirectSum) {
  const auto [a, b] = split_plummer(3000);
  ASSERT_GT(a.size(), 500u);
  ASSERT_GT(b.size(), 500u);
  // b's tree, pruned for the box of a's bodies, through its bytes.
  cpu::Octree<double> tree_b;
  const std::size_t nb = b.size();
  const std::vector<double> h(nb, 0.0);
  tree_b.build(b.x.data(), b.x.data() + nb, b.x.data() + 2 * nb, b.mass.data(), h.data(), nb, 16);
  double lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    const auto c = std::span(a.x).subspan(k * a.size(), a.size());
    lo[k] = *std::min_element(c.begin(), c.end()), hi[k] = *std::max_element(c.begin(), c.end());
  }
  std::vector<std::byte> bytes;
  dist::append_essential_tree(tree_b, lo, hi, 0.5, bytes);
  const cpu::Octree<double> essential = dist::read_essential_tree<double>(bytes);
  EXPECT_LT(essential.bodies().x.size(), nb) << "nothing of b was taken whole";
  EXPECT_GT(essential.nodes().size(), 0u);
  double mass = 0;  // the cells taken whole and the bodies sent hold all of b's mass
  for (const auto& node : essential.nodes())
    if (node.leaf) mass += node.mass;
  EXPECT_NEAR(mass, static_cast<double>(nb), 1e-9 * static_cast<double>(nb));

  const std::vector<double> e = errors_against_direct(a, b, tree_accelerations(a, &essential));
  EXPECT_LE(e[e.size() / 2], kEssentialTreeAccuracy);
  EXPECT_LE(e[e.size() * 99 / 100], kTreeAccuracyTail * kEssentialTreeAccuracy);
  // Without b's essential tree the forces miss b's pull altogether.
  const std::vector<double> alone = errors_against_direct(a, b, tree_accelerations(a, nullptr));
  EXPECT_GT(alone[alone.size() / 2], 100 * kEssentialTreeAccuracy);
}

TEST(TreeDomains, CutsShareTheWorkOutEvenlyOnCellBoundaries) {
  // One process stands for every rank here: the others' histograms are empty, so the cuts are
  // those of this process's bodies alone, cut into `ranks` pieces.
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> keys(20000), work(keys.size());
  std::uniform_int_distribution<std::uint64_t> key(0, (std::uint64_t{1} << 63) - 1);
  std::uniform_int_distribution<std::uint64_t> cost(1, 300);
  for (std::size_t i = 0; i < keys.size(); ++i)  // half the bodies crowded into one cell
    keys[i] = i % 2 ? key(rng) : (key(rng) >> 20) | (std::uint64_t{5} << 58), work[i] = cost(rng);
  std::sort(keys.begin(), keys.end());
  std::uint64_t total = 0;
  for (const std::uint64_t w : work) total += w;
  for (const int ranks : {1, 2, 3, 4, 7}) {
    const std::vector<std::uint64_t> cuts = dist::domain_cuts(keys, work, ranks);
    ASSERT_EQ(cuts.size(), static_cast<std::size_t>(ranks) + 1);
    EXPECT_EQ(cuts.front(), 0u);
    EXPECT_EQ(cuts.back(), std::uint64_t{1} << 63);
    std::vector<std::uint64_t> share(static_cast<std::size_t>(ranks), 0);
    for (std::size_t i = 0; i < keys.size(); ++i)
      share[static_cast<std::size_t>(dist::domain_of(cuts, keys[i]))] += work[i];
    for (int r = 0; r < ranks; ++r) {
      EXPECT_LE(cuts[r], cuts[r + 1]);
      // Within a few bodies' work of an even share (the cells the cuts stop at hold at most
      // 1/256 of a share, or one finest cell).
      EXPECT_NEAR(static_cast<double>(share[r]), static_cast<double>(total) / ranks,
                  0.01 * static_cast<double>(total) / ranks + 600)
          << ranks << " ranks, rank " << r;
    }
  }
}

}  // namespace
}  // namespace orrery

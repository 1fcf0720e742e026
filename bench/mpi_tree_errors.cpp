// SPDX-License-Identifier: MIT
// The force errors of the tree over the ranks of an MPI job (docs/guide/mpi.md): a Plummer
// sphere of N bodies, one evaluation of the tree over R ranks (or, started alone, of the tree of
// one process), and on rank 0 the relative errors |a − a_direct| / |a_direct| of S bodies evenly
// spaced in the body order against the direct sum in fp64 over all N (the CPU direct engine's
// accelerations_of, as nbody/tree_accuracy.cpp measures). One JSON object on rank 0's standard
// output: median, 99th percentile and largest error, and the evaluation's seconds. Usage:
//   mpirun -np R orrery_mpi_tree_errors --n 10000000 --theta 0.5 --sample 512 [--threads T]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "orrery/core/seconds_since.hpp"
#include "orrery/core/version.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace {

struct TreeErrorArgs {
  std::int64_t n = 10'000'000, sample = 512;
  double theta = 0.5;
  int threads = 0;
};

TreeErrorArgs parse_tree_error_args(int argc, char** argv) {
  TreeErrorArgs a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--n") a.n = std::stoll(value);
    else if (key == "--theta") a.theta = std::stod(value);
    else if (key == "--sample") a.sample = std::stoll(value);
    else if (key == "--threads") a.threads = std::stoi(value);
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace orrery;
  const dist::MpiSession mpi(argc, argv);
  const TreeErrorArgs a = parse_tree_error_args(argc, argv);
  const InitialConditions ic =
      make_scene("plummer", {{"n", ParamValue{a.n}}, {"seed", ParamValue{std::int64_t{1}}}});
  const auto n = static_cast<std::size_t>(a.n);
  const Particles<double>& p = ic.particles;
  EngineOptions eo;
  eo.g = ic.g, eo.softening = ic.softening, eo.theta = a.theta, eo.threads = a.threads;
  eo.backend = Backend::cpu;

  // This rank's slice, its tree over the ranks (one process: the tree of one process).
  const dist::BodySlice s = dist::my_body_slice(n);
  auto tree = dist::distributed() ? dist::tree_over_ranks<double>(dist::for_this_rank(eo), n)
                                  : make_force_engine<double>("tree", eo);
  std::vector<double> x, mass(p.mass.begin() + s.begin, p.mass.begin() + s.end), soft;
  for (const auto* c : {&p.x, &p.y, &p.z})
    x.insert(x.end(), c->begin() + s.begin, c->begin() + s.end);
  if (!p.softening.empty()) soft.assign(p.softening.begin() + s.begin, p.softening.begin() + s.end);
  ArrayDevice<double>& d = tree->device();
  auto xd = d.allocate(x.size()), ad = d.allocate(x.size());
  d.copy_to_device(x, xd);
  tree->set_bodies(mass, soft);
  tree->accelerations(xd, ad);  // a warm-up: the domains of equal counts, then of measured work
  const auto t0 = std::chrono::steady_clock::now();
  tree->accelerations(xd, ad);
  const double seconds = seconds_since(t0);
  std::vector<double> a_mine(x.size());
  d.copy_to_host(ad, a_mine);
  const auto every = dist::gather_to_root(std::as_bytes(std::span<const double>(a_mine)));
  if (!dist::writes()) return 0;

  // The sample's accelerations from every rank's slice, and the direct sum in fp64.
  const int ranks = dist::layout().size;
  std::vector<std::uint32_t> sample;
  for (std::int64_t k = 0; k < a.sample; ++k)
    sample.push_back(static_cast<std::uint32_t>(static_cast<std::size_t>(k) * n /
                                                static_cast<std::size_t>(a.sample)));
  std::vector<double> a_tree(3 * n);
  for (int r = 0; r < ranks; ++r) {
    const dist::BodySlice rs = dist::body_slice(n, r, ranks);
    const auto* v = reinterpret_cast<const double*>(every[static_cast<std::size_t>(r)].data());
    for (std::size_t c = 0; c < 3; ++c)
      std::memcpy(&a_tree[c * n + rs.begin], v + c * rs.size(), rs.size() * sizeof(double));
  }
  EngineOptions direct_options = eo;
  auto direct = make_force_engine<double>("direct", direct_options);
  ArrayDevice<double>& dd = direct->device();
  std::vector<double> all_x(p.x.begin(), p.x.end());
  all_x.insert(all_x.end(), p.y.begin(), p.y.end());
  all_x.insert(all_x.end(), p.z.begin(), p.z.end());
  auto dx = dd.allocate(3 * n), da = dd.allocate(3 * n);
  dd.copy_to_device(all_x, dx);
  direct->set_bodies(p.mass, p.softening);
  direct->accelerations_of(dx, da, sample);
  std::vector<double> a_direct(3 * n);
  dd.copy_to_host(da, a_direct);
  std::vector<double> e;
  for (const std::uint32_t i : sample) {
    double d2 = 0, w2 = 0;
    for (std::size_t c = 0; c < 3; ++c) {
      const double t = a_tree[c * n + i], w = a_direct[c * n + i];
      d2 += (t - w) * (t - w), w2 += w * w;
    }
    e.push_back(std::sqrt(d2 / w2));
  }
  std::sort(e.begin(), e.end());
  std::printf("{\"bench\": \"mpi_tree_errors\", \"git\": \"%s\", \"n\": %lld, \"ranks\": %d, "
              "\"threads_per_rank\": %d, \"theta\": %g, \"multipole\": \"quadrupole\", "
              "\"sample\": %zu, \"error_median\": %.4g, \"error_p99\": %.4g, \"error_max\": %.4g, "
              "\"evaluation_seconds\": %.6g}\n",
              git_hash().c_str(), static_cast<long long>(a.n), ranks,
              dist::rank_threads(a.threads), a.theta, e.size(), e[e.size() / 2],
              e[e.size() * 99 / 100], e.back(), seconds);
  return 0;
}

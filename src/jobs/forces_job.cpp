// SPDX-License-Identifier: MIT
#include "orrery/jobs/forces_job.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "jobs/sim_settings.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/core/version.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/engine_fields.hpp"
#include "orrery/nbody/coinciding_particles.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/tree_accuracy.hpp"

namespace orrery {

namespace {

using J = ForcesJob;

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<J>> f;
  f.push_back(text_field("input", "particle file (CSV or HDF5), a run's snapshot, or a run",
                         &J::input));
  add_engine_fields(f, &J::engine, &J::theta, &J::multipole, &J::accuracy);
  add_backend_fields(f, &J::backend, &J::devices, &J::cpu_kernel, "where to compute the forces");
  f.push_back(enum_field("precision", "floating-point type of positions and arithmetic",
                         &J::precision,
                         precision_words({Precision::fp32, Precision::fp64, Precision::fp128})));
  f.push_back(real_field("softening", "Plummer softening length (default: the file's, else 0)",
                         &J::softening, RealRule::NonNegative));
  f.push_back(real_field("G", "gravitational constant (default: the file's, else 1)", &J::g,
                         RealRule::Positive));
  f.push_back(integer_field("threads", "CPU threads (default: all cores)", &J::threads, 1, 4096));
  f.push_back(integer_field("repeat", "evaluations to time; the median is reported", &J::repeat,
                            1, 1000000));
  f.push_back(path_field("out", "HDF5 file for the accelerations and potentials", &J::out));
  f.push_back(flag_field("overwrite", "replace --out where it exists", &J::overwrite));
  f.push_back(flag_field("quiet", "no summary", &J::quiet));
  return f;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The results in the file's order (a row (a_x, a_y, a_z) per body), refused when not finite,
// written whole.
template <class Real>
void write_forces(const ForcesJob& job, const EngineOptions& eo, const ForcesOutcome& outcome,
                  const std::vector<std::uint64_t>& id, const std::vector<Real>& a,
                  const std::vector<Real>& phi, double seconds) {
  const std::size_t n = phi.size();
  for (std::size_t i = 0; i < n; ++i)
    for (const Real v : {a[i], a[n + i], a[2 * n + i], phi[i]})
      if (!std::isfinite(static_cast<double>(v)))
        throw RunError(fmt::format("forces: a non-finite acceleration or potential for body {} "
                                   "(softening {} is too small for bodies this close?)",
                                   i, eo.softening));
  std::vector<double> rows(3 * n), potential(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) rows[3 * i + k] = static_cast<double>(a[k * n + i]);
    potential[i] = static_cast<double>(phi[i]);
  }
  h5::Handle file = h5::create_memory_file(job.out);
  const hsize_t dims2[2] = {n, 3}, dims1[1] = {n};
  h5::write_dataset<double>(file.id(), "acceleration", rows, dims2);
  h5::write_dataset<double>(file.id(), "potential", potential, dims1);
  std::vector<std::uint64_t> ids = id;
  if (ids.size() != n)
    for (std::size_t i = ids.size(); i < n; ++i) ids.push_back(i);
  h5::write_dataset<std::uint64_t>(file.id(), "id", ids, dims1);
  const hid_t root = file.id();
  h5::write_attribute(root, "format", std::string("orrery forces"));
  h5::write_attribute(root, "engine", job.engine);
  h5::write_attribute(root, "backend", outcome.backend);
  h5::write_attribute(root, "precision", to_string(job.precision));
  h5::write_attribute(root, "theta", eo.theta);
  h5::write_attribute(root, "multipole", multipole_names()[static_cast<std::size_t>(eo.multipole)]);
  if (job.accuracy > 0) {
    h5::write_attribute(root, "accuracy", job.accuracy);
    h5::write_attribute(root, "tree_setting", outcome.tree_setting);
  }
  h5::write_attribute(root, "G", eo.g);
  h5::write_attribute(root, "softening", eo.softening);
  h5::write_attribute(root, "N", static_cast<std::int64_t>(n));
  h5::write_attribute(root, "input", job.input);
  h5::write_attribute(root, "seconds_median", seconds);
  h5::write_attribute(root, "orrery_version", version());
  write_file_atomically(job.out, h5::file_image(file.id()),
                        job.overwrite ? IfExists::replace : IfExists::refuse);
}

// `blocks` blocks of n values, each cut to the slice.
template <class Real>
std::vector<Real> slice_blocks(const std::vector<Real>& all, std::size_t n, dist::BodySlice s,
                               std::size_t blocks) {
  std::vector<Real> part;
  for (std::size_t b = 0; b < blocks; ++b)
    part.insert(part.end(), all.begin() + static_cast<std::ptrdiff_t>(b * n + s.begin),
                all.begin() + static_cast<std::ptrdiff_t>(b * n + s.end));
  return part;
}

// Every rank's slice of a (3 blocks) and φ on rank 0, in the global order; false on the others.
template <class Real>
bool gathered_to_root(std::vector<Real>& a, std::vector<Real>& phi, std::size_t n) {
  std::vector<Real> mine(a);
  mine.insert(mine.end(), phi.begin(), phi.end());
  const auto every = dist::gather_to_root(std::as_bytes(std::span<const Real>(mine)));
  if (!dist::writes()) return false;
  a.assign(3 * n, Real(0));
  phi.assign(n, Real(0));
  for (std::size_t r = 0; r < every.size(); ++r) {
    const dist::BodySlice s =
        dist::body_slice(n, static_cast<int>(r), static_cast<int>(every.size()));
    const auto* v = reinterpret_cast<const Real*>(every[r].data());
    for (std::size_t i = 0; i < s.size(); ++i) {
      for (std::size_t c = 0; c < 3; ++c) a[c * n + s.begin + i] = v[c * s.size() + i];
      phi[s.begin + i] = v[3 * s.size() + i];
    }
  }
  return true;
}

template <class Real>
ForcesOutcome evaluate(const ForcesJob& job, const InitialConditions& ic, EngineOptions eo) {
  const Particles<double>& p = ic.particles;
  const std::size_t n = p.size();
  std::vector<Real> x(3 * n), m(p.mass.begin(), p.mass.end()),
      eps(p.softening.begin(), p.softening.end());
  std::copy(p.x.begin(), p.x.end(), x.begin());
  std::copy(p.y.begin(), p.y.end(), x.begin() + static_cast<std::ptrdiff_t>(n));
  std::copy(p.z.begin(), p.z.end(), x.begin() + static_cast<std::ptrdiff_t>(2 * n));
  ForcesOutcome out;
  if (job.accuracy > 0) {
    const TreeAccuracyChoice c = choose_tree_setting<Real>(job.accuracy, eo, x, m, eps);
    eo.theta = c.chosen.theta;
    eo.multipole = c.chosen.multipole;
    out.tree_setting = describe(c);
    out.setting_seconds = c.seconds;
  }
  // Over ranks: this rank's slice of the bodies, its engine computing the slice with the others.
  const dist::BodySlice slice = dist::my_body_slice(n);
  const std::size_t ns = slice.size();
  if (dist::distributed()) {
    x = slice_blocks(x, n, slice, 3);
    m = slice_blocks(m, n, slice, 1);
    if (!eps.empty()) eps = slice_blocks(eps, n, slice, 1);
  }
  auto engine = !dist::distributed() ? make_force_engine<Real>(job.engine, eo)
                : job.engine == "tree"
                    ? dist::tree_over_ranks<Real>(dist::for_this_rank(eo), n)
                    : dist::engine_over_ranks(
                          make_force_engine<Real>(job.engine, dist::for_this_rank(eo)), n);
  ArrayDevice<Real>& device = engine->device();
  auto xd = device.allocate(3 * ns), ad = device.allocate(3 * ns), pd = device.allocate(ns);
  engine->set_bodies(m, eps);
  std::vector<double> total, upload, build, force;
  std::vector<Real> a(3 * ns), phi(ns);
  for (std::int64_t k = 0; k < job.repeat; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    device.copy_to_device(x, xd);
    const double copy = seconds_since(t0);
    engine->accelerations_and_potentials(xd, ad, pd);
    device.copy_to_host(ad, a);
    device.copy_to_host(pd, phi);
    total.push_back(seconds_since(t0));
    const EngineTimings t = engine->last_timings();
    upload.push_back(copy + t.upload);
    build.push_back(t.build);
    force.push_back(t.force);
  }
  out.n = n;
  out.engine = job.engine;
  out.backend = engine->backend();
  out.note = resolve_backend<Real>(eo).note;
  out.median_seconds = median(total);
  out.median_parts = {median(upload), median(build), median(force)};
  const double pass = out.median_parts.force > 0 ? out.median_parts.force : out.median_seconds;
  if (find_force_engine(job.engine).all_pairs && pass > 0)
    out.interactions_per_second =
        static_cast<double>(n) * static_cast<double>(n > 0 ? n - 1 : 0) / pass;
  if (dist::distributed() && !gathered_to_root(a, phi, n)) return out;  // rank 0 writes
  write_forces(job, eo, out, p.id, a, phi, out.median_seconds);
  return out;
}

// The tree over ranks computes on the CPUs; every rank needs a body.
void check_forces_over_ranks(const ForcesJob& job, std::size_t bodies) {
  if (!dist::distributed()) return;
  const int ranks = dist::layout().size;
  if (job.engine == "tree" && job.backend == Backend::cuda)
    throw ParameterError("--backend", to_string(Backend::cuda),
                         fmt::format("{} or {} with --engine tree over the ranks of an MPI "
                                     "job ({} ranks): the tree over ranks computes on each "
                                     "rank's CPUs",
                                     to_string(Backend::cpu), to_string(Backend::automatic),
                                     ranks));
  if (bodies < static_cast<std::size_t>(ranks))
    throw InputError(fmt::format("{} bodies over {} ranks: at least one body a rank is needed "
                                 "(start at most {} ranks)",
                                 bodies, ranks, bodies));
}

}  // namespace

const std::vector<ParamField<ForcesJob>>& forces_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

ForcesOutcome run_forces_job(const ForcesJob& job) {
  InitialConditions ic;
  EngineOptions eo;
  // Over ranks every rank reads and checks alike; one refusal ends them all, said once.
  dist::check_on_every_rank([&] {
    if (job.input.empty()) throw ParameterError("--input", "", "a particle file, snapshot or run");
    if (job.out.empty()) throw ParameterError("--out", "", "an HDF5 file to write");
    check_precision(*find_field(forces_job_fields(), "precision"), job.precision);
    check_output("--out", job.out, job.overwrite, {{"--input", job.input}});
    check_engine_choice(job);
    SimJob as_sim;
    as_sim.input = job.input;
    ic = read_sim_input(as_sim).ic;
    eo = engine_options_of(job, std::isnan(job.g) ? ic.g : job.g,
                           std::isnan(job.softening) ? ic.softening : job.softening);
    check_no_coinciding_particles(ic.particles, eo.softening, job.precision,
                                  "'" + job.input + "'");
    check_forces_over_ranks(job, ic.particles.size());
  });
  ForcesOutcome out;
  switch (job.precision) {
    case Precision::fp32: out = evaluate<float>(job, ic, eo); break;
    case Precision::fp128: out = evaluate<float128>(job, ic, eo); break;
    default: out = evaluate<double>(job, ic, eo); break;
  }
  out.g = eo.g, out.softening = eo.softening;
  out.g_from = std::isnan(job.g) ? "the file (or 1)" : "--G";
  out.softening_from = std::isnan(job.softening) ? "the file (or 0)" : "--softening";
  return out;
}

}  // namespace orrery

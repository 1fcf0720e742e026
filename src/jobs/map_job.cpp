// SPDX-License-Identifier: MIT
// The parameters of `orrery map`, described once (core/parameter.hpp), and the job itself.
#include "orrery/jobs/map_job.hpp"

#include <exception>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>

#include "orrery/core/error.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/dist/map_over_ranks.hpp"
#include "orrery/dist/rank_share.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/memory_estimate.hpp"
#include "orrery/render/colormap.hpp"

namespace orrery {

namespace {

using J = MapJob;

std::vector<ParamField<J>> make_fields() {
  auto f = project_fields(divergence_map_fields(), &J::physics);
  add_backend_fields(f, &J::backend, &J::devices, &J::cpu_kernel, "where to compute");
  f.push_back(enum_field("precision",
                         "fp64 (reference), fp32, mixed (fp64 state, fp32 1/r^3), or dd "
                         "(double-double, CPU: windows narrower than fp64 resolves)",
                         &J::precision,
                         precision_words({Precision::fp64, Precision::fp32, Precision::mixed,
                                          Precision::dd})));
  f.push_back(choice_field("deep",
                           "none, or perturbation: each pixel in fp64 as its difference from "
                           "one accurate reference trajectory (CPU and GPU; with --precision "
                           "fp64): windows far narrower than fp64 resolves, to 1e-30 and below",
                           &J::deep, {"none", "perturbation"}));
  f.push_back(integer_field("threads", "CPU threads (default: all cores)", &J::threads, 1, 4096));
  f.push_back(flag_field("exact",
                         "on the GPU, evaluate 1/r^3 with correctly rounded sqrt and division as "
                         "the CPU does: bit-identical counts, slower",
                         &J::exact));
  f.push_back(path_field("out", "PNG picture to write", &J::out));
  f.push_back(path_field("data", "HDF5 file for the counts and parameters (default: none)",
                         &J::data));
  f.push_back(flag_field("overwrite",
                         "replace --out and --data where they exist (without it they are refused)",
                         &J::overwrite));
  {
    auto c = text_field("colormap", "colour map", &J::colormap);
    c.kind = ParamKind::Choice;
    c.choices = Colormap::names();
    f.push_back(std::move(c));
  }
  f.push_back(choice_field("origin", "where row 0 (the smallest y) goes: top or bottom",
                           &J::origin, {"upper", "lower"}));
  f.push_back(flag_field("quiet", "no progress line and no summary", &J::quiet));
  return f;
}

}  // namespace

const std::vector<ParamField<MapJob>>& map_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

void validate_map_computation(const MapJob& job) {
  validate(job.physics);
  check_precision(*find_field(map_job_fields(), "precision"), job.precision);
  if (job.deep == DeepMethod::perturbation && job.precision != Precision::fp64)
    throw ParameterError("--precision", to_string(job.precision),
                         "fp64 with --deep perturbation (its pixels are fp64 differences from "
                         "the reference trajectory)");
  try {
    check_devices_for_backend(job.backend, job.devices);
    if (!job.cpu_kernel.empty()) resolve_cpu_kernel(job.cpu_kernel);
  } catch (const ParameterError& e) {
    throw e.renamed("--" + e.parameter());
  }
  Colormap::by_name(job.colormap);
  check_map_memory(job);
}

void validate(const MapJob& job) {
  validate_map_computation(job);
  // Each path's own rules first, then whether one exists: a path that cannot be written is
  // named even where the other output exists.
  const std::pair<const char*, const std::string*> outputs[] = {{"--out", &job.out},
                                                                {"--data", &job.data}};
  for (const bool overwrite : {true, job.overwrite}) {
    for (const auto& [flag, path] : outputs)
      if (!path->empty()) check_output(flag, *path, overwrite, {{"--config", job.config}});
    if (!job.data.empty() && same_file(job.data, job.out))
      throw ParameterError("--data", job.data, "a path other than --out");
  }
}

MapRunOptions map_run_options(const MapJob& job, const MapObserver& observer) {
  MapRunOptions options;
  options.backend = job.backend;
  options.precision = job.precision;
  options.deep = job.deep;
  options.threads = static_cast<int>(job.threads);
  options.cpu_kernel = job.cpu_kernel;
  options.devices = job.devices;
  options.exact_gpu = job.exact;
  options.progress = observer.progress;
  return options;
}

MapOutcome run_map_job(const MapJob& job, const MapObserver& observer) {
  using Clock = MapTimings::Clock;
  MapOutcome outcome;
  MapTimings& t = outcome.timings;
  t.started = Clock::now();
  const MapRunOptions options = dist::for_this_rank(map_run_options(job, observer));
  {
    // Set-up that cannot harm the user's files, started before the checks; where they refuse,
    // leaving this scope waits for it.
    MapPreparation preparation(job.physics, options);
    dist::check_on_every_rank([&] { validate(job); });
    t.checked = Clock::now();
    preparation.wait();
    t.prepared = Clock::now();
  }
  outcome.map = dist::map_over_ranks(job.physics, options);
  t.computed = Clock::now();
  if (!dist::writes()) return outcome;  // rank 0 alone writes
  t.backend_setup_seconds = outcome.map.info.setup_seconds;
  const DivergenceMap& map = outcome.map;
  // Both files are encoded at once: the data (HDF5) on a thread of its own, the picture here.
  std::string data, picture;
  std::exception_ptr data_failed;
  {
    std::jthread data_thread;
    if (!job.data.empty())
      data_thread = std::jthread([&] {
        try {
          data = encode_divergence_map_file(job.data, job.physics, job.precision, map);
        } catch (...) {
          data_failed = std::current_exception();
        }
      });
    if (!job.out.empty())
      picture = encode_png(render_divergence_image(map.counts, map.width, map.height,
                                                   job.physics.steps,
                                                   Colormap::by_name(job.colormap), job.origin));
  }
  if (data_failed) std::rethrow_exception(data_failed);
  // The data first and the picture last: a new picture always has its data beside it.
  OutputSet outputs(job.overwrite ? IfExists::replace : IfExists::refuse);
  if (!job.data.empty()) outputs.add(job.data, data);
  if (!job.out.empty()) outputs.add(job.out, picture);
  outputs.commit();
  t.written = Clock::now();
  return outcome;
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// The deep zoom's figure as a measurement (issue 31): one frame of the published zoom (its centre
// 5.30031:−0.45 and map, --scale-shift from a 40-wide first frame) at width 10⁻²⁰ by
// perturbation (--deep perturbation) against the same frame size at 10⁻⁶ in fp64, N × N
// pixels (default 1000), S steps (default 50 000). One JSON line per case:
//
//   orrery_deep_zoom_bench [--resolution N] [--steps S] [--backend cpu|cuda] [--threads K]
//                          [--widths W,W,...]
//
// cases: fp64 at 1e-6, perturbed at 1e-6 (the same window: the method's cost alone), perturbed
// at each of --widths (default 1e-20,1e-30). "seconds" is compute_divergence_map's wall time
// (the reference trajectory included), "device_seconds" the GPU kernel's, "note" says the
// reference's bits and time. Measurements, not tests.
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/version.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/jobs/zoom_job.hpp"

int main(int argc, char** argv) {
  using namespace orrery;
  std::int64_t resolution = 1000, steps = 50000, threads = 0;
  Backend backend = Backend::cuda;
  std::vector<double> widths{1e-20, 1e-30};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--resolution") {
      resolution = std::atoll(value.c_str());
    } else if (flag == "--steps") {
      steps = std::atoll(value.c_str());
    } else if (flag == "--threads") {
      threads = std::atoll(value.c_str());
    } else if (flag == "--backend") {
      backend = value == "cpu" ? Backend::cpu : Backend::cuda;
    } else if (flag == "--widths") {
      widths.clear();
      std::stringstream list(value);
      for (std::string w; std::getline(list, w, ',');) widths.push_back(std::atof(w.c_str()));
    } else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  ZoomJob job;  // the published zoom: its centre, its map
  job.map.physics.width = job.map.physics.height = static_cast<std::int32_t>(resolution);
  job.map.physics.steps = steps;
  job.scale_shift = true;
  job.from_width = 40;
  job.frames = 1;
  const auto run = [&](const char* name, DeepMethod deep, double width) {
    job.map.deep = deep;
    job.to_width = job.from_width = width;
    DivergenceMapParams p = zoom_frame_params(job, 0);
    p.shift = (width / 40) * job.map.physics.shift;
    MapRunOptions o;
    o.backend = backend;
    o.deep = deep;
    o.threads = static_cast<int>(threads);
    DivergenceMap map;
    try {
      map = compute_divergence_map(p, o);
    } catch (const std::exception& e) {
      std::printf("%s\n", fmt::format("{{\"bench\": \"deep_zoom\", \"case\": \"{}\", \"width\": {:g}, "
                                      "\"refused\": \"{}\"}}",
                                      name, width, e.what())
                              .c_str());
      return;
    }
    std::printf(
        "%s\n",
        fmt::format("{{\"bench\": \"deep_zoom\", \"case\": \"{}\", \"width\": {:g}, "
                    "\"deep\": \"{}\", \"resolution\": {}, \"steps\": {}, \"backend\": "
                    "\"{}\", \"kernel\": \"{}\", \"seconds\": {:.4f}, \"device_seconds\": {:.4f}, "
                    "\"pixel_steps\": {}, \"mean_count\": {:.1f}, \"note\": \"{}\", \"git\": "
                    "\"{}\"}}",
                    name, width, deep == DeepMethod::perturbation ? "perturbation" : "none", resolution, steps, map.info.backend,
                    map.info.kernel, map.info.wall_seconds, map.info.device_seconds,
                    map.pixel_steps,
                    static_cast<double>(map.pixel_steps) / static_cast<double>(map.counts.size()),
                    map.info.note, git_hash())
            .c_str());
    std::fflush(stdout);
  };
  run("fp64", DeepMethod::none, 1e-6);
  run("perturbed_same_window", DeepMethod::perturbation, 1e-6);
  for (const double w : widths) run("perturbed_deep", DeepMethod::perturbation, w);
  return 0;
}

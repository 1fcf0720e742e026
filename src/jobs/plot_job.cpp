// SPDX-License-Identifier: MIT
#include "orrery/jobs/plot_job.hpp"

#include <fmt/format.h>

#include "jobs/run_facts.hpp"
#include "orrery/core/error.hpp"
#include "orrery/io/diagnostics_table.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/nbody/lagrangian_radii.hpp"
#include "orrery/render/frame_image.hpp"
#include "orrery/render/frame_overlay.hpp"
#include "orrery/render/line_plot.hpp"

namespace orrery {

namespace {

using J = PlotJob;

// Scenes that are star clusters, for which the Lagrangian radii are drawn unasked.
bool is_cluster_scene(const std::string& scene) { return scene == "plummer"; }

constexpr double kLagrangianFractions[3] = {0.1, 0.5, 0.9};
const Rgb8 kColours[3] = {{31, 119, 180}, {214, 39, 40}, {44, 160, 44}};

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<J>> f;
  f.push_back(path_field("out", "prefix of the pictures: PREFIX-energy.png, "
                                "PREFIX-lagrangian.png (default: the run's name)",
                         &J::out));
  f.push_back(flag_field("lagrangian", "draw the Lagrangian radii also for a run that is not a "
                                       "cluster (they are drawn for the plummer scene)",
                         &J::lagrangian));
  f.push_back(integer_field("width", "picture width, pixels", &J::width, 200, 8000));
  f.push_back(integer_field("height", "picture height, pixels", &J::height, 150, 8000));
  f.push_back(flag_field("overwrite", "replace the pictures where they exist", &J::overwrite));
  f.push_back(flag_field("quiet", "no summary", &J::quiet));
  return f;
}

std::vector<double> scaled(std::vector<double> v, double unit) {
  for (double& x : v) x /= unit;
  return v;
}

std::string with_unit(const std::string& what, const ShownUnit& u) {
  return u.name.empty() ? what : fmt::format("{} ({})", what, u.name);
}

}  // namespace

const std::vector<ParamField<PlotJob>>& plot_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

PlotOutcome run_plot_job(const PlotJob& job) {
  const RunFacts facts = read_run_facts(job.run);
  const std::string& units = facts.units;
  const std::string prefix = job.out.empty() ? facts.name : job.out;
  const std::string energy_png = prefix + "-energy.png", lagrangian_png = prefix + "-lagrangian.png";
  const bool lagrangian = job.lagrangian || is_cluster_scene(facts.scene);
  check_output("--out", energy_png, job.overwrite, {{"RUN", job.run}});
  if (lagrangian) check_output("--out", lagrangian_png, job.overwrite, {{"RUN", job.run}});
  // After the checks of what the user gave, which hold whatever this build can draw.
  require_text_drawing();
  const IfExists if_exists = job.overwrite ? IfExists::replace : IfExists::refuse;
  const auto rows = run_diagnostics(job.run);
  if (rows.empty()) throw InputError(fmt::format("'{}' holds no snapshot", job.run));
  const auto time = diagnostics_column(rows, "time");
  const ShownUnit t_unit = shown_time_unit(units, time.back() - time.front());
  const auto t = scaled(time, t_unit.size);
  const std::string t_label = with_unit("time", t_unit);
  const int w = static_cast<int>(job.width), h = static_cast<int>(job.height);
  PlotOutcome out;
  out.rows = rows.size();

  const std::vector<PlotSeries> drifts = {
      {"energy |E - E0| / |E0|", t, diagnostics_column(rows, "drift_energy"), kColours[1]},
      {"angular momentum |L - L0| / sum m|x||v|", t,
       diagnostics_column(rows, "drift_angular_momentum"), kColours[0]}};
  write_png(energy_png,
            to_rgb_image(draw_line_plot({"Relative drift of the conserved quantities", t_label,
                                         "relative drift", true},
                                        drifts, w, h)),
            if_exists);
  out.written.push_back(energy_png);

  if (lagrangian) {
    std::vector<PlotSeries> radii(3);
    for (int k = 0; k < 3; ++k)
      radii[k] = {fmt::format("{:.0f} % of the mass", 100 * kLagrangianFractions[k]), {}, {},
                  kColours[k]};
    for (std::int64_t index : run_snapshots(job.run)) {
      const HdfParticles s = read_particle_hdf5(snapshot_path(job.run, index));
      const auto r = lagrangian_radii(s.particles, kLagrangianFractions);
      for (int k = 0; k < 3; ++k) {
        radii[k].x.push_back(s.time / t_unit.size);
        radii[k].y.push_back(r[k]);
      }
    }
    const ShownUnit r_unit = shown_length_unit(units, radii[1].y.front());
    for (auto& s : radii) s.y = scaled(s.y, r_unit.size);
    write_png(lagrangian_png,
              to_rgb_image(draw_line_plot({"Lagrangian radii about the centre of mass", t_label,
                                           with_unit("radius", r_unit), true},
                                          radii, w, h)),
              if_exists);
    out.written.push_back(lagrangian_png);
  }
  return out;
}

}  // namespace orrery

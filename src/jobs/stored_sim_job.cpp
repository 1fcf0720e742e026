// SPDX-License-Identifier: MIT
// The job a resumed run continues (jobs/sim_settings.hpp): the parameters run.h5 stores, with
// the defaults of those added after the run was made, and the refusal of any given again that
// differs; the CPU kernel variant it needs; its scene's settings.
#include <algorithm>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/integrate/ias15/ias15_criterion.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/param_attributes.hpp"
#include "orrery/jobs/compute_fields.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "jobs/sim_settings.hpp"

namespace orrery {

namespace {

// --input given again names the run's file when it is that file, however spelled (./a.csv,
// an absolute path, from another folder): compared as files (device and inode), not as text.
bool same_input(hid_t root, const std::string& given, const std::string& stored) {
  if (given == stored) return true;
  std::error_code ec;
  if (std::filesystem::equivalent(given, stored, ec)) return true;
  return h5::has_attribute(root, "input_path") &&
         std::filesystem::equivalent(given, h5::read_attribute(root, "input_path").text, ec);
}

// A run records the CPU kernel variant it was computed with, and this CPU must run that
// variant: another would not continue the run bit for bit.
void check_recorded_cpu_kernel(hid_t root, const std::string& run) {
  if (!h5::has_attribute(root, "cpu-kernel"))
    throw InputError(fmt::format("--resume: '{}' does not record its CPU kernel variant, so it "
                                 "cannot be continued bit for bit",
                                 run));
  const std::string kernel = h5::read_attribute(root, "cpu-kernel").text;
  if (!cpu_runs_kernel(kernel))
    throw InputError(fmt::format("--resume: '{}' was computed with the '{}' CPU kernel, which "
                                 "this CPU cannot run (it runs: {}); another variant would not "
                                 "continue it bit for bit",
                                 run, kernel,
                                 fmt::join(supported_cpu_kernel_names(), ", ")));
}

}  // namespace

SimJob stored_sim_job(hid_t root, const SimJob& job) {
  check_recorded_cpu_kernel(root, job.out);
  SimJob stored = job;
  // The run's own parameters; any the user gave again must agree.
  for (const auto& f : sim_job_fields()) {
    if (!is_stored_sim_field(f.name)) continue;
    // Runs made before the tree engine have no theta or multipole: they are direct runs,
    // for which neither means anything.
    // Nor a tolerance: they ran at fixed steps; nor block-step options or a corrector: they
    // had none. Runs made before ias15 had a choice of criterion chose their steps by the
    // global one, and go on with it; those made before whfast kept its coordinates were in
    // safe mode; those made before collisions had none.
    if ((f.name == "theta" || f.name == "multipole" || f.name == "tolerance" ||
         f.name == "block-eta" || f.name == "block-length" || f.name == "corrector" ||
         f.name == "ias15-criterion" || f.name == "whfast-safe-mode" ||
         f.name == "collisions" || f.name == "collision-search" || f.name == "radius") &&
        !h5::has_attribute(root, f.name)) {
      // (The integrator is read before these: it comes first among the fields.)
      if (f.name == "whfast-safe-mode" && stored.integrator == "whfast")
        stored.whfast_safe_mode = true;
      if (f.name == "ias15-criterion" && stored.integrator == "ias15") {
        const bool given_now =
            std::find(job.given.begin(), job.given.end(), f.name) != job.given.end();
        const std::string older(kIas15CriterionOfOlderRuns);
        if (given_now && job.ias15_criterion != older)
          throw ParameterError("--ias15-criterion", job.ias15_criterion,
                               fmt::format("the run's own ({}, as every run stored before "
                                           "the choice), or nothing: --resume continues the "
                                           "run as it was made",
                                           older));
        stored.ias15_criterion = older;
      }
      continue;
    }
    const ParamValue in_file = read_param_attribute(root, f);
    const bool given_now =
        std::find(job.given.begin(), job.given.end(), f.name) != job.given.end();
    const bool same = f.name == "input" && std::holds_alternative<std::string>(in_file)
                          ? same_input(root, job.input, std::get<std::string>(in_file))
                          : f.get(job) == in_file;
    if (given_now && !same)
      throw ParameterError("--" + f.name, format_param_value(f.get(job)),
                           fmt::format("the run's own {} ({}), or nothing: --resume "
                                       "continues the run as it was made",
                                       f.name, format_param_value(in_file)));
    f.set(stored, in_file);
  }
  check_resumed_scene_settings(root, job);
  return stored;
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// The force engine of a job, described once for every job that computes gravity (sim, forces):
// the flags --engine, --theta, --multipole and --accuracy, the EngineOptions a job's fields give, and the
// check of the engine against its backend, devices and precision before any work. A job keeps
// the values as its own members, named engine, theta, multipole, backend, devices, threads,
// cpu_kernel and precision.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/engine_registry.hpp"

namespace orrery {

template <class P>
void add_engine_fields(std::vector<ParamField<P>>& f, std::string P::*engine, double P::*theta,
                       std::string P::*multipole, double P::*accuracy) {
  {
    auto e = text_field("engine", "force engine", engine);
    e.kind = ParamKind::Choice;
    e.choices = force_engine_names();
    f.push_back(std::move(e));
  }
  {
    auto t = real_field("theta",
                        "tree engine: opening angle, " + theta_range_text() +
                            "; a cell of size s is taken whole from distance d > s/theta (0 "
                            "opens every cell)",
                        theta, RealRule::Finite);
    // θ's one range (check_theta) refuses NaN and the infinities too, in its own words.
    t.set = [theta](P& p, const ParamValue& v) {
      const auto* real = std::get_if<double>(&v);
      const auto* integer = std::get_if<std::int64_t>(&v);
      if (!real && !integer)
        throw ParameterError("theta", format_param_value(v),
                             "an opening angle " + theta_range_text());
      const double x = real ? *real : static_cast<double>(*integer);
      check_theta(x);
      p.*theta = x;
    };
    f.push_back(std::move(t));
  }
  auto m = text_field("multipole", "tree engine: order of a cell's far field", multipole);
  m.kind = ParamKind::Choice;
  m.choices = multipole_names();
  f.push_back(std::move(m));
  f.push_back(real_field("accuracy",
                         "tree engine: the median relative error of |a| to reach, choosing "
                         "theta and the multipole by the error they give on this system "
                         "(default: none, --theta and --multipole as given)",
                         accuracy, RealRule::NonNegative));
}

// The multipole order by name (one of multipole_names(); ParameterError otherwise).
Multipole multipole_named(const std::string& name);

// Refuses, before any work and naming the flag, what make_force_engine would refuse later: a
// device list with --backend cpu, --backend cuda where it cannot run (no build, no device, fp128),
// θ outside [0, kMaxTheta) (nbody/engine_registry.hpp).
void check_engine_choice(Backend backend, const std::vector<int>& devices, Precision precision,
                         double theta);
// --accuracy (0: not asked): only for an engine that opens cells by θ (the tree), without
// --theta or --multipole (it chooses them), within the range nbody/tree_accuracy.hpp accepts.
void check_accuracy_choice(const std::string& engine, double accuracy, double theta,
                           const std::string& multipole);

template <class Job>
EngineOptions engine_options_of(const Job& job, double g, double softening) {
  EngineOptions eo;
  eo.g = g;
  eo.softening = softening;
  eo.threads = static_cast<int>(job.threads);
  eo.cpu_kernel = job.cpu_kernel;
  eo.backend = job.backend;
  eo.devices = job.devices;
  eo.theta = job.theta;
  eo.multipole = multipole_named(job.multipole);
  return eo;
}

template <class Job>
void check_engine_choice(const Job& job) {
  check_engine_choice(job.backend, job.devices, job.precision, job.theta);
  check_accuracy_choice(job.engine, job.accuracy, job.theta, job.multipole);
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// The force-engine registry: what it says each engine runs is what make_force_engine() makes,
// and θ's range is one rule, met alike by the registry's check, the engines and the jobs'
// --theta field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/jobs/forces_job.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/engines.hpp"

namespace orrery {
namespace {

TEST(EngineRegistry, SaysWhichBackendAndPrecisionEachEngineRuns) {
  ASSERT_EQ(force_engine_names(), (std::vector<std::string>{"direct", "tree"}));
  for (const ForceEngineInfo& e : force_engines()) {
    SCOPED_TRACE(std::string(e.name));
    for (Precision p : {Precision::fp32, Precision::fp64, Precision::fp128})
      EXPECT_TRUE(e.cpu.runs(p)) << to_string(p);
    EXPECT_FALSE(e.cpu.runs(Precision::mixed));
    EXPECT_FALSE(e.cuda.runs(Precision::fp128));  // __float128 is a host type
    EXPECT_EQ(e.cuda.runs(Precision::fp64), cuda_built());
    EXPECT_EQ(e.cuda.runs(Precision::fp32), cuda_built());
  }
  EXPECT_TRUE(find_force_engine("direct").all_pairs);
  EXPECT_FALSE(find_force_engine("direct").opening_angle);
  EXPECT_TRUE(find_force_engine("tree").opening_angle);
  EXPECT_FALSE(find_force_engine("tree").all_pairs);
}

template <class Real>
void expect_cpu_factories_make_their_engine() {
  EngineOptions o;
  o.backend = Backend::cpu;
  for (const ForceEngineInfo& e : force_engines()) {
    const auto engine = make_force_engine<Real>(e.name, o);
    EXPECT_EQ(engine->name(), e.name);
    EXPECT_EQ(engine->backend().rfind("cpu", 0), 0u) << engine->backend();
  }
}

TEST(EngineRegistry, EachCpuFactoryMakesTheEngineItIsRegisteredAs) {
  expect_cpu_factories_make_their_engine<float>();
  expect_cpu_factories_make_their_engine<double>();
  expect_cpu_factories_make_their_engine<float128>();
}

TEST(EngineRegistry, AnUnknownEngineIsRefusedNamingTheRegisteredOnes) {
  try {
    find_force_engine("fmm");
    FAIL() << "fmm accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "engine");
    EXPECT_EQ(e.accepted(), "one of: direct, tree");
  }
  EXPECT_THROW(make_force_engine<double>("fmm", EngineOptions{}), ParameterError);
}

TEST(EngineRegistry, TheListShowsALinePerEngine) {
  const std::string text = force_engines_text();
  for (const ForceEngineInfo& e : force_engines())
    EXPECT_NE(text.find("  " + std::string(e.name) + " "), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
            static_cast<std::ptrdiff_t>(force_engines().size()));
}

// resolve_backend()'s refusals and notes name the backends and precisions as core/backend.hpp and
// the registry hold them, not as words typed beside them.
std::string cuda_precisions_of_the_registry() {
  std::string words;
  for (Precision p : {Precision::fp32, Precision::fp64, Precision::fp128})
    if (std::ranges::any_of(force_engines(), [p](const auto& e) { return e.cuda.runs(p); }))
      words += (words.empty() ? "" : " and ") + to_string(p);
  return words;
}

TEST(EngineRegistry, ResolveBackendNamesTheBackendsAndPrecisionsItHolds) {
  EngineOptions o;
  o.backend = Backend::cuda;
  try {
    resolve_backend<float128>(o);
    FAIL() << "fp128 on CUDA accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "backend");
    EXPECT_EQ(e.value(), to_string(Backend::cuda));
    EXPECT_EQ(e.accepted().rfind(to_string(Backend::cpu) + " or " + to_string(Backend::automatic),
                                 0),
              0u)
        << e.accepted();
    // With a device the refusal is the precision's, from the registry; without, the device's.
    if (cuda_device_count() > 0) {
      EXPECT_EQ(e.accepted(), "cpu or auto for precision fp128 (the CUDA engines run " +
                                  cuda_precisions_of_the_registry() + ")");
    }
  }
  o.backend = Backend::automatic;
  const ResolvedBackend quad = resolve_backend<float128>(o);
  EXPECT_EQ(quad.backend, Backend::cpu);
  if (cuda_device_count() > 0)
    EXPECT_EQ(quad.note, "the CUDA engines run " + cuda_precisions_of_the_registry() +
                             ", not fp128; computed on the CPU");
  else
    EXPECT_NE(quad.note.find("computed on the CPU"), std::string::npos) << quad.note;
}

// θ's range, from both sides of each end; the jobs' --theta field, the engines and
// check_theta() must agree on every value.
struct ThetaCase {
  double theta;
  bool accepted;
};
constexpr ThetaCase kThetaCases[] = {
    {0.0, true},   {0.5, true},  {1.999, true},  {-0.001, false}, {2.0, false},
    {2.5, false},  {std::numeric_limits<double>::quiet_NaN(), false},
    {std::numeric_limits<double>::infinity(), false},
};

template <class Job>
bool field_accepts(const std::vector<ParamField<Job>>& fields, double theta) {
  Job job;
  try {
    find_field(fields, "theta")->set(job, ParamValue{theta});
    return job.theta == theta;
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "theta");
    EXPECT_NE(e.accepted().find(theta_range_text()), std::string::npos) << e.accepted();
    return false;
  }
}

TEST(EngineRegistry, ThetaHasOneRangeForTheCheckTheEnginesAndTheJobs) {
  for (const ThetaCase& c : kThetaCases) {
    SCOPED_TRACE(c.theta);
    bool checked = true;
    try {
      check_theta(c.theta);
    } catch (const ParameterError& e) {
      checked = false;
      EXPECT_EQ(e.parameter(), "theta");
      EXPECT_NE(e.accepted().find(theta_range_text()), std::string::npos) << e.accepted();
    }
    EXPECT_EQ(checked, c.accepted);
    EXPECT_EQ(field_accepts(sim_job_fields(), c.theta), c.accepted);
    EXPECT_EQ(field_accepts(forces_job_fields(), c.theta), c.accepted);
    EngineOptions o;
    o.theta = c.theta;
    bool made = true;
    try {
      make_force_engine<double>("tree", o);
    } catch (const ParameterError&) {
      made = false;
    }
    EXPECT_EQ(made, c.accepted);
  }
  EXPECT_EQ(theta_range_text(), "0 <= theta < 2");
}

}  // namespace
}  // namespace orrery

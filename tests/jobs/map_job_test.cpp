// SPDX-License-Identifier: MIT
// The map job: validated once, then run to a picture and a data file; each face only parses and
// prints. One Precision serves the map and the sim, each accepting its own modes.
#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/jobs/map_job.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

MapJob small_map(const test::TempDir& dir) {
  MapJob job;
  job.physics.width = 6;
  job.physics.height = 4;
  job.physics.steps = 300;
  job.backend = Backend::cpu;
  job.threads = 2;
  job.out = (dir / "m.png").string();
  job.data = (dir / "m.h5").string();
  return job;
}

// The refusal `run` throws, as a ParameterError (a failure otherwise).
template <class F>
ParameterError refusal(F&& run) {
  try {
    run();
  } catch (const ParameterError& e) {
    return e;
  }
  ADD_FAILURE() << "not refused";
  return ParameterError("", "", "");
}

TEST(MapJob, WritesThePictureAndTheData) {
  test::TempDir dir;
  const MapJob job = small_map(dir);
  const MapOutcome o = run_map_job(job);
  EXPECT_EQ(o.map.width, 6);
  EXPECT_EQ(o.map.height, 4);
  EXPECT_EQ(o.map.info.backend, "cpu");
  EXPECT_EQ(read_png(dir / "m.png").width, 6);
  const StoredDivergenceMap stored = read_divergence_map_file(dir / "m.h5");
  EXPECT_EQ(stored.map.counts, o.map.counts);
  EXPECT_EQ(stored.precision, Precision::fp64);
  EXPECT_EQ(stored.params.steps, 300);
}

TEST(MapJob, ItsPrecisionFieldAcceptsTheMapsModesOnly) {
  const auto& field = *find_field(map_job_fields(), "precision");
  EXPECT_EQ(field.choices, (std::vector<std::string>{"fp64", "fp32", "mixed", "dd"}));
  MapJob job;
  field.set(job, ParamValue{std::string("mixed")});
  EXPECT_EQ(job.precision, Precision::mixed);
  const ParameterError e = refusal([&] { field.set(job, ParamValue{std::string("fp128")}); });
  EXPECT_EQ(e.value(), "fp128");
  EXPECT_EQ(e.accepted(), "one of: fp64, fp32, mixed, dd");
  EXPECT_EQ(job.precision, Precision::mixed) << "a refused word leaves the job as it was";
}

TEST(SimJob, ItsPrecisionFieldAcceptsTheSimsModesOnly) {
  const auto& field = *find_field(sim_job_fields(), "precision");
  EXPECT_EQ(field.choices, (std::vector<std::string>{"fp32", "fp64", "fp128"}));
  SimJob job;
  field.set(job, ParamValue{std::string("fp128")});
  EXPECT_EQ(job.precision, Precision::fp128);
  EXPECT_EQ(field.get(job), ParamValue{std::string("fp128")});
  const ParameterError e = refusal([&] { field.set(job, ParamValue{std::string("mixed")}); });
  EXPECT_EQ(e.accepted(), "one of: fp32, fp64, fp128");
}

TEST(MapJob, RefusesFp128BeforeAnyFile) {
  test::TempDir dir;
  MapJob job = small_map(dir);
  job.precision = Precision::fp128;
  const ParameterError e = refusal([&] { run_map_job(job); });
  EXPECT_EQ(e.parameter(), "--precision");
  EXPECT_EQ(e.accepted(), "one of: fp64, fp32, mixed, dd");
  EXPECT_FALSE(std::filesystem::exists(dir / "m.png"));
  EXPECT_FALSE(std::filesystem::exists(dir / "m.h5"));
}

TEST(MapJob, TheBackendsRefuseFp128Themselves) {
  DivergenceMapParams p;
  p.width = 2;
  p.height = 2;
  p.steps = 10;
  MapRunOptions options;
  options.backend = Backend::cpu;
  options.precision = Precision::fp128;
  const ParameterError e = refusal([&] { compute_divergence_map(p, options); });
  EXPECT_EQ(e.value(), "fp128");
  EXPECT_NE(e.accepted().find("fp64, fp32, mixed"), std::string::npos) << e.what();
}

TEST(MapJob, RefusesDataOnTheOutputPathAndDevicesOnTheCpu) {
  test::TempDir dir;
  MapJob same = small_map(dir);
  same.data = same.out;
  EXPECT_EQ(refusal([&] { run_map_job(same); }).parameter(), "--data");
  MapJob devices = small_map(dir);
  devices.devices = {0};
  const ParameterError e = refusal([&] { run_map_job(devices); });
  EXPECT_EQ(e.parameter(), "--devices");
  EXPECT_EQ(e.value(), "0");
  EXPECT_FALSE(std::filesystem::exists(dir / "m.png"));
}

TEST(MapJob, MapAndSimShareTheBackendFlags) {
  for (const char* name : {"backend", "devices", "cpu-kernel", "threads", "precision"}) {
    const auto* map = find_field(map_job_fields(), name);
    const auto* sim = find_field(sim_job_fields(), name);
    ASSERT_TRUE(map && sim) << name;
    EXPECT_EQ(map->kind, sim->kind) << name;
    if (std::string(name) != "precision") {
      EXPECT_EQ(map->choices, sim->choices) << name;
    }
  }
}

}  // namespace
}  // namespace orrery

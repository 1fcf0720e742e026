// SPDX-License-Identifier: MIT
// The CPU kernel variant is part of a run: the run file records the variant used, and --resume
// uses it again, so a run started with a narrower variant than the CPU's widest continues bit for
// bit. The variants differ in the last bits (docs/internals/gravity-cpu.md), which these tests
// check first so that they cannot pass without exercising the recorded variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "orrery/core/error.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

bool cpu_runs(const std::string& kernel) {
  const auto runs = supported_cpu_kernel_names();
  return std::find(runs.begin(), runs.end(), kernel) != runs.end();
}

// A run on a narrower variant than the widest this CPU runs: avx2 under avx512.
#define SKIP_UNLESS_AVX512_AND_AVX2()                                                      \
  if (!cpu_runs("avx512") || !cpu_runs("avx2"))                                            \
  GTEST_SKIP() << "this CPU (or build) lacks the avx512 and avx2 variants, so the widest " \
                  "variant cannot differ from avx2"

SimJob plummer_run(const std::filesystem::path& out, const std::string& cpu_kernel) {
  SimJob job;
  job.backend = Backend::cpu;  // the CPU's kernels, also where a GPU is present
  job.scene = "plummer";
  job.scene_settings = {{"n", ParamValue{std::int64_t{40}}},
                        {"seed", ParamValue{std::int64_t{3}}}};
  job.dt = 1.0 / 64;
  job.t_end = 1.0;
  job.every = 16;
  job.checkpoint_every = 16;
  job.threads = 2;
  job.cpu_kernel = cpu_kernel;
  job.out = out.string();
  return job;
}

SimJob resume_of(const std::filesystem::path& out) {
  SimJob job;
  job.backend = Backend::cpu;
  job.resume = true;
  job.out = out.string();
  return job;
}

// Positions and velocities of every snapshot, as raw bytes.
std::vector<std::uint8_t> state_bytes(const std::filesystem::path& run) {
  std::vector<std::uint8_t> all;
  for (std::int64_t index : run_snapshots(run)) {
    h5::Handle g = h5::open_file(snapshot_path(run, index).string());
    for (const char* d : {"position", "velocity"}) {
      const auto v = h5::read_dataset<double>(g.id(), d);
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(v.data());
      all.insert(all.end(), bytes, bytes + v.size() * sizeof(double));
    }
  }
  return all;
}

std::string recorded_kernel(const std::filesystem::path& run) {
  h5::Handle f = h5::open_file(run_description_path(run).string());
  return h5::read_attribute(f.id(), "cpu-kernel").text;
}

TEST(SimKernelVariant, TheRunFileRecordsTheVariantUsed) {
  test::TempDir dir;
  const SimOutcome widest = run_simulation(plummer_run(dir / "widest", ""));
  EXPECT_EQ(recorded_kernel(dir / "widest"), supported_cpu_kernel_names().front());
  EXPECT_EQ(widest.cpu_kernel, supported_cpu_kernel_names().front());
  EXPECT_EQ(widest.backend, "cpu");
  const SimOutcome generic = run_simulation(plummer_run(dir / "generic", "generic"));
  EXPECT_EQ(recorded_kernel(dir / "generic"), "generic");
  EXPECT_EQ(generic.cpu_kernel, "generic");
}

TEST(SimKernelVariant, ResumeUsesTheRecordedVariantBitForBit) {
  SKIP_UNLESS_AVX512_AND_AVX2();
  test::TempDir dir;
  run_simulation(plummer_run(dir / "avx2", "avx2"));
  run_simulation(plummer_run(dir / "avx512", "avx512"));
  const auto avx2 = state_bytes(dir / "avx2");
  // Otherwise a resume on the widest variant would pass unnoticed.
  ASSERT_NE(avx2, state_bytes(dir / "avx512"))
      << "avx2 and avx512 agree bit for bit on this run; the test needs a run where they differ";

  SimJob first = plummer_run(dir / "split", "avx2");
  first.stop_after = 23;
  ASSERT_TRUE(run_simulation(first).stopped_early);
  const SimOutcome rest = run_simulation(resume_of(dir / "split"));  // no cpu_kernel given
  EXPECT_EQ(rest.cpu_kernel, "avx2");
  EXPECT_EQ(state_bytes(dir / "split"), avx2);
}

TEST(SimKernelVariant, ResumeRefusesAnotherExplicitVariant) {
  SKIP_UNLESS_AVX512_AND_AVX2();
  test::TempDir dir;
  SimJob first = plummer_run(dir / "run", "avx2");
  first.stop_after = 5;
  run_simulation(first);
  SimJob rest = resume_of(dir / "run");
  rest.cpu_kernel = "avx512";
  rest.given = {"cpu-kernel"};
  try {
    run_simulation(rest);
    FAIL() << "resumed an avx2 run with avx512";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "--cpu-kernel");
    EXPECT_NE(e.accepted().find("avx2"), std::string::npos) << e.what();
  }
  rest.cpu_kernel = "avx2";  // the run's own: accepted
  EXPECT_FALSE(run_simulation(rest).stopped_early);
}

TEST(SimKernelVariant, ResumeRefusesAVariantThisCpuCannotRun) {
  test::TempDir dir;
  SimJob first = plummer_run(dir / "run", "generic");
  first.stop_after = 5;
  run_simulation(first);
  {  // As if the run had been made on a CPU with an instruction set this one lacks.
    h5::Handle f = h5::open_file_rw(run_description_path(dir / "run").string());
    h5::write_attribute(f.id(), "cpu-kernel", std::string("avx1024"));
  }
  try {
    run_simulation(resume_of(dir / "run"));
    FAIL() << "resumed with a variant this CPU cannot run";
  } catch (const ParameterError& e) {
    FAIL() << "expected an InputError about the recorded variant, got: " << e.what();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'avx1024'"), std::string::npos) << e.what();
  }
}

TEST(SimKernelVariant, AnUnrunnableExplicitVariantIsRefusedBeforeTheFile) {
  test::TempDir dir;
  const auto compiled = cpu_kernel_names();
  const auto runs = supported_cpu_kernel_names();
  std::string missing;
  for (const auto& k : compiled)
    if (std::find(runs.begin(), runs.end(), k) == runs.end()) missing = k;
  if (missing.empty()) GTEST_SKIP() << "this CPU runs every compiled variant";
  EXPECT_THROW(run_simulation(plummer_run(dir / "run", missing)), ParameterError);
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

}  // namespace
}  // namespace orrery

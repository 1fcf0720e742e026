// SPDX-License-Identifier: MIT
// The CPU kernels of this build (ORRERY_CPU_ISAS: every instruction set, or the build machine's
// widest alone): every dispatcher lists exactly the configured set and picks, unasked, the one
// configure found to be this machine's widest, so a native build runs the one kernel it compiled;
// and a build none of whose kernels the CPU runs refuses with what to do instead of executing
// instructions the CPU lacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/run_cli.hpp"
#include "device/cpu/cpu_isa.hpp"
#include "device/cpu/isa_support.hpp"
#include "ensemble/cpu/chaos_task_source.hpp"
#include "ensemble/cpu/ensemble_task_source.hpp"
#include "ensemble/cpu/twin_task_source.hpp"
#include "nbody/direct/cpu/direct_kernel.hpp"
#include "nbody/tree/cpu/tree_kernel.hpp"

namespace orrery {
namespace {

using test::run_cli;

// What src/CMakeLists.txt configured (tests/CMakeLists.txt passes them to this file only).
std::vector<std::string> isa_list(std::string_view list) {
  std::vector<std::string> isas;
  while (!list.empty()) {
    const auto end = list.find(',');
    isas.emplace_back(list.substr(0, end));
    list = end == std::string_view::npos ? "" : list.substr(end + 1);
  }
  return isas;
}
// "avx512,avx2,generic", widest first; the lanes of ensembles and chaos indicators, under
// ORRERY_CPU_ISAS=native, the widest only.
std::vector<std::string> configured_isas() { return isa_list(ORRERY_TEST_CPU_KERNEL_ISAS); }
std::vector<std::string> configured_lanes_isas() { return isa_list(ORRERY_TEST_CPU_LANES_ISAS); }
constexpr const char* kNativeIsa = ORRERY_TEST_NATIVE_CPU_ISA;  // configure's look at this machine

template <class Kernel>
std::vector<std::string> names_of(std::span<const Kernel> kernels) {
  std::vector<std::string> names;
  for (const auto& k : kernels) names.emplace_back(k.name);
  return names;
}

TEST(CpuIsa, EveryDispatcherListsExactlyTheConfiguredInstructionSets) {
  const std::vector<std::string> isas = configured_isas();
  ASSERT_FALSE(isas.empty());
  EXPECT_EQ(cpu_kernel_names(), isas);
  EXPECT_EQ(names_of(cpu::cpu_kernels()), isas);
  EXPECT_EQ(names_of(cpu::ensemble_cpu_kernels()), configured_lanes_isas());
  EXPECT_EQ(names_of(cpu::chaos_cpu_kernels()), configured_lanes_isas());
  EXPECT_EQ(supported_lanes_kernel_names().front(), configured_lanes_isas().front());
  EXPECT_EQ(names_of(cpu::direct_kernels()), isas);
  for (std::string_view isa : cpu::kCpuIsas) {
    const bool compiled = std::find(isas.begin(), isas.end(), isa) != isas.end();
    if (compiled && cpu::isa_supported(isa))
      EXPECT_EQ(cpu::choose_tree_kernel(std::string(isa)).name, isa);
    else
      EXPECT_THROW(cpu::choose_tree_kernel(std::string(isa)), InputError) << isa;
  }
}

// Configure compiles the native build for the widest instruction set its test finds; the binary
// chooses the widest its own test finds among those compiled. Were the two to disagree, a native
// build would pick a kernel it did not compile (or none) on the machine that built it.
TEST(CpuIsa, TheKernelChosenUnaskedIsTheOneConfigureFoundThisMachineRuns) {
  ASSERT_STRNE(kNativeIsa, "") << "configure could not tell this machine's widest";
  const std::vector<std::string> isas = configured_isas();
  ASSERT_NE(std::find(isas.begin(), isas.end(), kNativeIsa), isas.end())
      << kNativeIsa << " is not among the compiled kernels";
  EXPECT_EQ(widest_cpu_kernel(), kNativeIsa);
  EXPECT_EQ(supported_cpu_kernel_names().front(), kNativeIsa);
  EXPECT_STREQ(cpu::choose_kernel(cpu::cpu_kernels(), "").name, kNativeIsa);
  EXPECT_STREQ(cpu::choose_kernel(cpu::ensemble_cpu_kernels(), "").name, kNativeIsa);
  EXPECT_STREQ(cpu::choose_direct_kernel("").name, kNativeIsa);
  EXPECT_STREQ(cpu::choose_tree_kernel("").name, kNativeIsa);
}

TEST(CpuIsa, TheProgramListsTheCompiledKernelsAndThoseThisCpuRuns) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--list"}, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string want =
      fmt::format("CPU kernels (--cpu-kernel): {}; this CPU runs: {}\n",
                  fmt::join(configured_isas(), ", "), fmt::join(supported_cpu_kernel_names(), ", "));
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
}

// A build for another machine's widest (native, built where AVX-512 is) on a CPU without it.
struct FakeKernel {
  const char* name;
};
bool runs_up_to_avx2(std::string_view isa) { return isa == "avx2" || isa == "generic"; }

TEST(CpuIsa, ABuildWhoseKernelsThisCpuCannotRunRefusesWithWhatToDo) {
  const FakeKernel avx512_only[] = {{"avx512"}};
  for (const std::string& asked : {std::string(), std::string("avx512")}) {
    try {
      cpu::choose_kernel<FakeKernel>(avx512_only, asked, runs_up_to_avx2);
      FAIL() << "chose a kernel this CPU cannot run (asked: '" << asked << "')";
    } catch (const ParameterError& e) {
      FAIL() << "a parameter error, not what the build lacks: " << e.what();
    } catch (const InputError& e) {
      const std::string what = e.what();
      for (const char* part : {"built with CPU kernels for avx512 only", "this CPU runs avx2, generic",
                               "-DORRERY_CPU_ISAS=all", "cmake --build build"})
        EXPECT_NE(what.find(part), std::string::npos) << part << " not in: " << what;
    }
  }
}

TEST(CpuIsa, AKernelThisCpuRunsIsChosenAmongOthersItCannot) {
  const FakeKernel all[] = {{"avx512"}, {"avx2"}, {"generic"}};
  EXPECT_STREQ(cpu::choose_kernel<FakeKernel>(all, "", runs_up_to_avx2).name, "avx2");
  EXPECT_STREQ(cpu::choose_kernel<FakeKernel>(all, "generic", runs_up_to_avx2).name, "generic");
  EXPECT_THROW(cpu::choose_kernel<FakeKernel>(all, "avx512", runs_up_to_avx2), ParameterError);
  EXPECT_THROW(cpu::choose_kernel<FakeKernel>(all, "sse9", runs_up_to_avx2), ParameterError);
}

}  // namespace
}  // namespace orrery

// SPDX-License-Identifier: MIT
// Runs the benchmarks with JSON output by default and records what produced the numbers.
#include <benchmark/benchmark.h>

#include <fstream>
#include <string>
#include <vector>

#include "orrery/core/version.hpp"
#include "orrery/ensemble/divergence_map.hpp"

namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  bool format_given = false;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--benchmark_format", 0) == 0) format_given = true;
  static char json[] = "--benchmark_format=json";
  if (!format_given) args.push_back(json);
  int n = static_cast<int>(args.size());

  benchmark::AddCustomContext("orrery_version", orrery::version());
  benchmark::AddCustomContext("git_hash", orrery::git_hash());
  benchmark::AddCustomContext("build_flags", ORRERY_BUILD_FLAGS);
  benchmark::AddCustomContext("cpu_model", cpu_model());
  std::string kernels;
  for (const auto& k : orrery::supported_cpu_kernel_names()) kernels += (kernels.empty() ? "" : ",") + k;
  benchmark::AddCustomContext("cpu_kernels_supported", kernels);

  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

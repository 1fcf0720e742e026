// SPDX-License-Identifier: MIT
#include "orrery/jobs/compute_fields.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"

namespace orrery {

std::vector<int> parse_devices(const std::string& text) {
  std::vector<int> devices;
  if (text == "all") return devices;
  ParamSpec spec;
  spec.name = "devices";
  spec.kind = ParamKind::Reals;
  try {
    const ParamValue numbers = parse_param_text(spec, text);
    for (double d : std::get<std::vector<double>>(numbers)) {
      if (d < 0 || d != static_cast<int>(d)) throw ParameterError("devices", text, "");
      devices.push_back(static_cast<int>(d));
    }
  } catch (const ParameterError&) {
    throw ParameterError("devices", text, "all, or device numbers separated by ','");
  }
  return devices;
}

std::string format_devices(const std::vector<int>& devices) {
  return devices.empty() ? std::string("all") : fmt::format("{}", fmt::join(devices, ","));
}

void check_precision(const ParamSpec& field, Precision precision) {
  const std::string& word = to_string(precision);
  if (std::find(field.choices.begin(), field.choices.end(), word) == field.choices.end())
    throw ParameterError("--" + field.name, word, describe_kind(field));
}

void check_devices_for_backend(Backend backend, const std::vector<int>& devices) {
  if (backend == Backend::cpu && !devices.empty())
    throw ParameterError("devices", format_devices(devices),
                         "all (the default) with --backend cpu, which uses no CUDA device");
}

bool cpu_runs_kernel(const std::string& name) {
  const auto runs = supported_cpu_kernel_names();
  return std::find(runs.begin(), runs.end(), name) != runs.end();
}

std::string resolve_cpu_kernel(const std::string& requested) {
  if (requested.empty()) return widest_cpu_kernel();
  const auto runs = supported_cpu_kernel_names();
  if (runs.empty()) widest_cpu_kernel();  // throws: what the build has and how to rebuild
  if (!cpu_runs_kernel(requested))
    throw ParameterError("cpu-kernel", requested,
                         fmt::format("a kernel this CPU runs: {}", fmt::join(runs, ", ")));
  return requested;
}

}  // namespace orrery

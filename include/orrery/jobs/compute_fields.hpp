// SPDX-License-Identifier: MIT
// Where and how a job computes, described once for every job: the flags --backend
// cpu|cuda|auto, --devices all|0,2 and --cpu-kernel avx512|avx2|generic, and the check of a
// Precision against the modes a job accepts. Each job keeps the values as its own members and
// adds these fields to its table, so the map and the sim spell, help and refuse them alike.
#pragma once

#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"

namespace orrery {

// "all" is the empty list; else device numbers separated by ','. Throws ParameterError.
std::vector<int> parse_devices(const std::string& text);
std::string format_devices(const std::vector<int>& devices);

// A job built in code may hold any Precision; `field` (the job's precision field) lists the
// words of the modes it runs. Throws ParameterError("--precision", ...) for any other.
void check_precision(const ParamSpec& field, Precision precision);

// Device numbers name CUDA devices: with --backend cpu they are refused (an empty list, "all",
// is the default and accepted).
void check_devices_for_backend(Backend backend, const std::vector<int>& devices);

// The CPU kernel a run uses: `requested`, or for "" the widest this CPU runs. Throws
// ParameterError("cpu-kernel", ...) for a name this CPU cannot run.
std::string resolve_cpu_kernel(const std::string& requested);
bool cpu_runs_kernel(const std::string& name);

template <class P>
void add_backend_fields(std::vector<ParamField<P>>& fields, Backend P::*backend,
                        std::vector<int> P::*devices, std::string P::*cpu_kernel,
                        const std::string& backend_help) {
  fields.push_back(choice_field("backend", backend_help, backend, backend_names()));
  {
    ParamField<P> d{"devices", "CUDA devices: all, or numbers such as 0,2", ParamKind::Text};
    d.placeholder = "all|N,...";
    d.set = [devices](P& p, const ParamValue& v) {
      p.*devices = parse_devices(std::get<std::string>(v));
    };
    d.get = [devices](const P& p) { return ParamValue{format_devices(p.*devices)}; };
    fields.push_back(std::move(d));
  }
  auto k = text_field("cpu-kernel", "CPU instruction set (default: the widest this CPU runs)",
                      cpu_kernel);
  k.kind = ParamKind::Choice;
  k.choices = cpu_kernel_names();
  fields.push_back(std::move(k));
}

}  // namespace orrery

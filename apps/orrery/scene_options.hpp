// SPDX-License-Identifier: MIT
// The scene parameters as flags (--n, --seed, --mass-ratio, ...), for every command that starts
// a run of a scene: one option per parameter any scene has, its help naming the scenes that
// have it, and the values given put into a SimJob's scene settings.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "orrery/core/error.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/jobs/sim_job.hpp"

namespace orrery::cli {

class SceneOptions {
 public:
  explicit SceneOptions(CLI::App& app);

  const std::vector<ParamSpec>& specs() const { return specs_; }
  // The values given, parsed (ParameterError naming the flag).
  void apply(SimJob& job) const;
  static void set(SimJob& job, const std::string& name, ParamValue value);
  // A flag both the command and some scenes have (--units): the value given, as job.scene's
  // parameter where that scene has one of this name (true), else nothing is set (false).
  bool set_text(SimJob& job, const std::string& name, const std::string& text) const;
  // A scene names its parameters bare in its refusals; on the command line they are flags.
  [[noreturn]] void rethrow_as_flag(const ParameterError& e) const;

 private:
  std::vector<ParamSpec> specs_;
  std::vector<std::string> values_;
  std::vector<CLI::Option*> options_;
};

}  // namespace orrery::cli

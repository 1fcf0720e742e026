// SPDX-License-Identifier: MIT
// Command-line options generated from a parameter table: one `--name` option per field, its
// help text ending with the default, and the given values applied with the field's rule.
// Values are taken as text and parsed by the table, so every refusal reads the same way.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "orrery/core/parameter.hpp"

namespace orrery::cli {

// How --help shows a parameter's value.
inline std::string param_type_name(const ParamSpec& f) {
  switch (f.kind) {
    case ParamKind::Integer: return "N";
    case ParamKind::Real: return "X";
    case ParamKind::Reals:
      return f.separator == ':' ? "A:B" : fmt::format("X{}...({})", f.separator, f.count);
    case ParamKind::Choice: return fmt::format("{{{}}}", fmt::join(f.choices, ","));
    case ParamKind::Text: return f.placeholder.empty() ? "PATH" : f.placeholder;
    case ParamKind::Flag: return "";
  }
  return "";
}

template <class P>
class CliParams {
 public:
  CliParams(CLI::App& app, const std::vector<ParamField<P>>& fields, const P& defaults)
      : values_(fields.size()), flags_(fields.size(), false) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const ParamField<P>& f = fields[i];
      std::string help = f.help;
      if (f.get && f.kind != ParamKind::Flag && help.find("default") == std::string::npos) {
        const std::string value = format_param_value(f.get(defaults), f.separator);
        help += fmt::format(" (default: {})", value.empty() ? "none" : value);
      }
      CLI::Option* opt = f.kind == ParamKind::Flag
                             ? app.add_flag("--" + f.name, flags_[i], help)
                             : app.add_option("--" + f.name, values_[i], help);
      if (f.kind != ParamKind::Flag)
        opt->type_name(param_type_name(f))->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
      options_.push_back(opt);
      fields_.push_back(&f);
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
      for (const std::string& other : fields[i].excludes)
        if (CLI::Option* o = option(other)) options_[i]->excludes(o);
  }

  CLI::Option* option(const std::string& name) const {
    for (std::size_t i = 0; i < fields_.size(); ++i)
      if (fields_[i]->name == name) return options_[i];
    return nullptr;
  }

  // Applies every option the user gave, in table order.
  void apply(P& params) const {
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      if (options_[i]->count() == 0) continue;
      const ParamField<P>& f = *fields_[i];
      try {
        f.set(params, f.kind == ParamKind::Flag ? ParamValue{static_cast<bool>(flags_[i])}
                                                 : parse_param_text(f, values_[i]));
      } catch (const ParameterError& e) {
        throw e.renamed("--" + f.name);
      }
    }
  }

 private:
  std::vector<std::string> values_;
  std::vector<char> flags_;  // not vector<bool>: CLI11 binds a reference to each element
  std::vector<CLI::Option*> options_;
  std::vector<const ParamField<P>*> fields_;
};

}  // namespace orrery::cli

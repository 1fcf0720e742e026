// SPDX-License-Identifier: MIT
// Job parameters from a TOML file: flat `key = value` lines whose keys are the parameter names
// of the job's table (the command-line flags without dashes). Missing files, invalid TOML,
// unknown keys and values of the wrong type are refused with the file, line and key named.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "orrery/core/parameter.hpp"

namespace orrery {

struct ConfigEntry {
  const ParamSpec* spec;
  ParamValue value;
  std::string where;  // "file.toml:3 key 'width'", for messages
};

std::vector<ConfigEntry> read_config_file(const std::filesystem::path& path,
                                          std::span<const ParamSpec* const> specs);

// `key = value` in TOML, as read_config_file reads it back: numbers in the fewest digits that
// give the same double, lists as arrays, words as strings, flags as booleans.
std::string format_config_line(const ParamSpec& spec, const ParamValue& value);

// The parameters of `params` as a config file: one line per field with a getter that `keep`
// accepts, in table order.
template <class P, class Keep>
std::string format_config_file(const std::vector<ParamField<P>>& fields, const P& params,
                               Keep&& keep) {
  std::string text;
  for (const auto& f : fields)
    if (f.get && keep(f)) text += format_config_line(f, f.get(params)) + "\n";
  return text;
}

// Reads the file and applies every entry to `params` with its field's rule; a refused value is
// reported under its file, line and key.
template <class P>
void apply_config_file(const std::filesystem::path& path, const std::vector<ParamField<P>>& fields,
                       P& params) {
  std::vector<const ParamSpec*> specs;
  for (const auto& f : fields) specs.push_back(&f);
  for (const auto& e : read_config_file(path, specs)) {
    const auto& field = *static_cast<const ParamField<P>*>(e.spec);
    try {
      field.set(params, e.value);
    } catch (const ParameterError& err) {
      throw err.renamed(e.where);
    }
  }
}

}  // namespace orrery

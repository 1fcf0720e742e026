// SPDX-License-Identifier: MIT
#include "jobs/ensemble_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace {

std::string trimmed(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split(std::string_view text, std::string_view separators) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find_first_of(separators, start);
    parts.push_back(trimmed(text.substr(start, at == std::string_view::npos ? at : at - start)));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// A finite number, all of `text`; else nothing.
bool to_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno == 0 && std::isfinite(out);
}

double number(const std::string& text, const std::string& option, const std::string& whole) {
  double v = 0;
  if (!to_number(text, v))
    throw ParameterError(option, whole, fmt::format("finite numbers ('{}' is not one)", text));
  return v;
}

std::string word_list(const EnsembleProblemInfo& info, bool parameters) {
  std::vector<std::string_view> names = info.state_names;
  if (parameters) names.insert(names.end(), info.parameter_names.begin(), info.parameter_names.end());
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::array<std::string, 2> split_pair(std::string_view text, char separator,
                                      const std::string& option) {
  const auto parts = split(text, std::string_view(&separator, 1));
  if (parts.size() != 2 || parts[0].empty() || parts[1].empty())
    throw ParameterError(option, std::string(text), fmt::format("A{}B", separator));
  return {parts[0], parts[1]};
}

int word_index(const EnsembleProblemInfo& info, std::string_view name, bool parameters,
               const std::string& option) {
  for (std::size_t w = 0; w < info.state_names.size(); ++w)
    if (info.state_names[w] == name) return static_cast<int>(w);
  if (parameters)
    for (std::size_t w = 0; w < info.parameter_names.size(); ++w)
      if (info.parameter_names[w] == name) return info.state_words + static_cast<int>(w);
  throw ParameterError(option, std::string(name),
                       fmt::format("a word of {}: {}", info.name, word_list(info, parameters)));
}

std::vector<double> base_row(const EnsembleJob& job, const EnsembleProblemInfo& info) {
  std::vector<double> row(info.state_defaults.begin(), info.state_defaults.end());
  if (!job.state.empty()) {
    const auto parts = split(job.state, ", ");
    std::vector<std::string> values;
    for (const auto& p : parts)
      if (!p.empty()) values.push_back(p);
    if (values.size() != static_cast<std::size_t>(info.state_words))
      throw ParameterError("state", job.state,
                           fmt::format("{} numbers ({})", info.state_words, word_list(info, false)));
    for (int w = 0; w < info.state_words; ++w)
      row[static_cast<std::size_t>(w)] = number(values[static_cast<std::size_t>(w)], "state", job.state);
  }
  row.insert(row.end(), info.parameter_defaults.begin(), info.parameter_defaults.end());
  if (!job.parameters.empty()) {
    if (info.parameters == 0)
      throw ParameterError("parameters", job.parameters,
                           fmt::format("nothing: {} has no parameters", info.name));
    for (const auto& item : split(job.parameters, ",")) {
      const auto kv = split_pair(item, '=', "parameters");
      const int w = word_index(info, kv[0], true, "parameters");
      if (w < info.state_words)
        throw ParameterError("parameters", job.parameters,
                             fmt::format("name=value of the parameters: {}",
                                         fmt::join(info.parameter_names, ", ")));
      row[static_cast<std::size_t>(w)] = number(kv[1], "parameters", job.parameters);
    }
  }
  return row;
}

SweptWord parse_sweep(std::string_view text, const EnsembleProblemInfo& info) {
  const auto kv = split_pair(text, '=', "sweep");
  SweptWord s;
  s.word = word_index(info, kv[0], true, "sweep");
  const auto range = split_pair(kv[1], ':', "sweep");
  s.from = number(range[0], "sweep", std::string(text));
  s.to = number(range[1], "sweep", std::string(text));
  return s;
}

std::vector<double> read_csv_rows(const std::string& path, const EnsembleProblemInfo& info) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("'{}' cannot be opened", path));
  const int row_words = info.state_words + info.parameters;
  std::vector<int> columns;  // the word of each column
  std::vector<double> rows;
  std::string line;
  for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
    const std::string t = trimmed(line);
    if (t.empty() || t[0] == '#') continue;
    auto fields = split(t, ", \t");
    std::erase(fields, std::string());
    double probe = 0;
    if (columns.empty() && !to_number(fields[0], probe)) {
      for (const auto& name : fields)
        columns.push_back(word_index(info, name, true, fmt::format("{}: header", path)));
      continue;
    }
    if (columns.empty())
      for (int w = 0; w < static_cast<int>(fields.size()) && w < row_words; ++w) columns.push_back(w);
    if (fields.size() != columns.size() ||
        (columns.size() != static_cast<std::size_t>(info.state_words) &&
         columns.size() != static_cast<std::size_t>(row_words)))
      throw InputError(fmt::format("'{}' line {}: {} values, expected {} ({}) or {} with the "
                                   "parameters",
                                   path, line_number, fields.size(), info.state_words,
                                   word_list(info, false), row_words));
    std::vector<double> row(info.state_defaults.begin(), info.state_defaults.end());
    row.insert(row.end(), info.parameter_defaults.begin(), info.parameter_defaults.end());
    for (std::size_t c = 0; c < fields.size(); ++c) {
      double v = 0;
      if (!to_number(fields[c], v))
        throw InputError(fmt::format("'{}' line {}: '{}' is not a finite number", path,
                                     line_number, fields[c]));
      row[static_cast<std::size_t>(columns[c])] = v;
    }
    rows.insert(rows.end(), row.begin(), row.end());
  }
  return rows;
}

}  // namespace orrery

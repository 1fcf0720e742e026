// SPDX-License-Identifier: MIT
// The CSV half of io/particle_file.hpp.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/io/particle_file.hpp"

namespace orrery {

namespace {

enum Column { kId, kMass, kX, kY, kZ, kVx, kVy, kVz, kSoftening, kColumns };

struct ColumnName {
  std::string_view name;
  Column column;
};
constexpr std::array<ColumnName, 10> kNames{{{"id", kId},
                                             {"m", kMass},
                                             {"mass", kMass},
                                             {"x", kX},
                                             {"y", kY},
                                             {"z", kZ},
                                             {"vx", kVx},
                                             {"vy", kVy},
                                             {"vz", kVz},
                                             {"softening", kSoftening}}};
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr const char* kAccepted = "one of: m (or mass), x, y, z, vx, vy, vz, id, softening";
constexpr std::array<Column, 7> kRequired{kMass, kX, kY, kZ, kVx, kVy, kVz};
constexpr std::array<const char*, kColumns> kCanonical{"id", "m",  "x",  "y",        "z",
                                                       "vx", "vy", "vz", "softening"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  while (true) {
    const auto cut = line.find(',');
    out.push_back(trim(line.substr(0, cut)));
    if (cut == std::string_view::npos) return out;
    line.remove_prefix(cut + 1);
  }
}

bool parse_real(std::string_view s, double& out) {
  // from_chars rejects a leading '+', which people do write.
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

bool parse_id(std::string_view s, std::uint64_t& out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace

Particles<double> read_particle_csv(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot read '{}'", file));

  std::array<int, kColumns> index;
  index.fill(-1);
  std::vector<std::string> header;  // the names as written
  std::unordered_map<std::uint64_t, long> id_line;
  Particles<double> p;
  std::string text;
  long line = 0;
  while (std::getline(in, text)) {
    ++line;
    // Spreadsheets (Excel's "CSV UTF-8") start the file with a byte-order mark.
    if (line == 1 && text.rfind(kUtf8Bom, 0) == 0) text.erase(0, kUtf8Bom.size());
    const std::string_view trimmed = trim(text);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    const std::vector<std::string_view> fields = split(trimmed);

    if (header.empty()) {
      const std::string where = fmt::format("{}:{} header", file, line);
      double number = 0;
      if (parse_real(fields.front(), number))
        throw ParameterError(where, std::string(trimmed),
                             "a first line naming the columns, m,x,y,z,vx,vy,vz (a header "
                             "written as a '#' comment, as numpy.savetxt does, is skipped)");
      for (std::size_t k = 0; k < fields.size(); ++k) {
        const std::string name = lower(fields[k]);
        const auto* known = std::find_if(kNames.begin(), kNames.end(),
                                         [&](const ColumnName& c) { return c.name == name; });
        const std::string column = fmt::format("{} column {}", where, k + 1);
        if (known == kNames.end()) throw ParameterError(column, std::string(fields[k]), kAccepted);
        if (index[known->column] >= 0)
          throw ParameterError(
              column, std::string(fields[k]),
              fmt::format("a column not named before (column {} is {})", index[known->column] + 1,
                          header[static_cast<std::size_t>(index[known->column])]));
        index[known->column] = static_cast<int>(k);
        header.emplace_back(fields[k]);
      }
      std::string missing;
      for (Column c : kRequired)
        if (index[c] < 0)
          missing += fmt::format("{}{}", missing.empty() ? "" : ", ", kCanonical[c]);
      if (!missing.empty())
        throw ParameterError(where, std::string(trimmed),
                             fmt::format("columns m, x, y, z, vx, vy, vz (missing: {})", missing));
      continue;
    }

    if (fields.size() != header.size())
      throw ParameterError(fmt::format("{}:{}", file, line),
                           fmt::format("{} values", fields.size()),
                           fmt::format("{} values, one per column of the header", header.size()));
    std::array<double, kColumns> value{};
    for (int c = kMass; c < kColumns; ++c) {
      if (index[c] < 0) continue;
      const auto k = static_cast<std::size_t>(index[c]);
      const bool is_mass = c == kMass, is_softening = c == kSoftening;
      const char* accepted = is_mass        ? "a finite number > 0"
                             : is_softening ? "a finite number >= 0"
                                            : "a finite number";
      double x = 0;
      const bool ok = parse_real(fields[k], x) && std::isfinite(x) && (!is_mass || x > 0.0) &&
                      (!is_softening || x >= 0.0);
      if (!ok)
        throw ParameterError(fmt::format("{}:{} column '{}'", file, line, header[k]),
                             std::string(fields[k]), accepted);
      value[c] = x;
    }
    std::uint64_t id = p.size();
    if (index[kId] >= 0) {
      const auto k = static_cast<std::size_t>(index[kId]);
      const std::string where = fmt::format("{}:{} column '{}'", file, line, header[k]);
      if (!parse_id(fields[k], id))
        throw ParameterError(where, std::string(fields[k]), "an integer from 0 to 2^64-1");
      const auto [it, fresh] = id_line.emplace(id, line);
      if (!fresh)
        throw ParameterError(where, std::string(fields[k]),
                             fmt::format("an id not used before (line {} has it)", it->second));
    }
    p.x.push_back(value[kX]);
    p.y.push_back(value[kY]);
    p.z.push_back(value[kZ]);
    p.vx.push_back(value[kVx]);
    p.vy.push_back(value[kVy]);
    p.vz.push_back(value[kVz]);
    p.mass.push_back(value[kMass]);
    if (index[kSoftening] >= 0) p.softening.push_back(value[kSoftening]);
    p.id.push_back(id);
  }
  if (header.empty())
    throw InputError(
        fmt::format("{}: no header line (expected column names m,x,y,z,vx,vy,vz, "
                    "then one line per particle)",
                    file));
  return p;
}

}  // namespace orrery

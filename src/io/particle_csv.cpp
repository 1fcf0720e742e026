// SPDX-License-Identifier: MIT
// The CSV half of io/particle_file.hpp.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/physics/orbit_primary.hpp"

namespace orrery {

namespace {

enum CsvColumn { kId, kMass, kX, kY, kZ, kVx, kVy, kVz, kSoftening, kRadius, kColumns };

struct CsvColumnName {
  std::string_view name;
  CsvColumn column;
};
constexpr std::array<CsvColumnName, 12> kNames{{{"id", kId},
                                             {"m", kMass},
                                             {"mass", kMass},
                                             {"x", kX},
                                             {"y", kY},
                                             {"z", kZ},
                                             {"vx", kVx},
                                             {"vy", kVy},
                                             {"vz", kVz},
                                             {"softening", kSoftening},
                                             {"r", kRadius},
                                             {"radius", kRadius}}};
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr const char* kAccepted =
    "one of: m (or mass), x, y, z, vx, vy, vz, id, softening, r (or radius)";
constexpr std::array<CsvColumn, 7> kRequired{kMass, kX, kY, kZ, kVx, kVy, kVz};
constexpr std::array<const char*, kColumns> kCanonical{
    "id", "m", "x", "y", "z", "vx", "vy", "vz", "softening", "r"};

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

// The columns of a file of orbits, named as REBOUND's keywords (case matters: M is the mean
// anomaly, m the mass): the elements, the mass, and an optional primary (a row's index).
constexpr std::array<std::string_view, 13> kElementColumns{
    "a", "P", "e", "inc", "Omega", "omega", "pomega", "f", "M", "E", "l", "theta", "T"};
constexpr const char* kOrbitAccepted =
    "in a file of orbits: m (or mass), primary, a, P, e, inc, Omega, omega, pomega, f, M, E, "
    "l, theta, T";

bool is_orbit_header(const std::vector<std::string_view>& fields) {
  return std::any_of(fields.begin(), fields.end(),
                     [](std::string_view f) { return f == "a" || f == "P"; });
}

std::optional<double>* element_of(OrbitGiven& g, std::string_view name) {
  std::optional<double>* fields[] = {&g.a, &g.P,     &g.e, &g.inc, &g.Omega, &g.omega, &g.pomega,
                                     &g.f, &g.M,     &g.E, &g.l,   &g.theta, &g.T};
  for (std::size_t k = 0; k < kElementColumns.size(); ++k)
    if (kElementColumns[k] == name) return fields[k];
  return nullptr;
}

// The bodies of a file of orbits, one a line after the header `header` (line `line` of `in`):
// the first at the origin at rest (its elements left empty), each other on its orbit about
// its primary (the barycentre of the lines before it where the primary column is empty or
// absent, else the body of that index), with the run's G and t = 0
// (physics/orbital_elements.hpp).
Particles<double> read_orbit_rows(std::istream& in, const std::string& file, long line,
                                  const std::vector<std::string_view>& header, double g) {
  const std::vector<std::string> names(header.begin(), header.end());
  int mass = -1, primary = -1;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string column = fmt::format("{}:{} header column {}", file, line, k + 1);
    OrbitGiven probe;
    const bool is_mass = names[k] == "m" || names[k] == "mass";
    if (!is_mass && names[k] != "primary" && !element_of(probe, names[k]))
      throw ParameterError(column, names[k], kOrbitAccepted);
    if (std::count(names.begin(), names.end(), names[k]) > 1 || (is_mass && mass >= 0))
      throw ParameterError(column, names[k], "a column not named before");
    if (is_mass) mass = static_cast<int>(k);
    if (names[k] == "primary") primary = static_cast<int>(k);
  }
  if (mass < 0)
    throw ParameterError(fmt::format("{}:{} header", file, line), "no mass column",
                         "a column m (or mass) beside the orbital elements");
  Particles<double> p;
  std::string text;
  while (std::getline(in, text)) {
    ++line;
    const std::string_view trimmed = trim(text);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    const std::vector<std::string_view> fields = split(trimmed);
    if (fields.size() != names.size())
      throw ParameterError(fmt::format("{}:{}", file, line),
                           fmt::format("{} values", fields.size()),
                           fmt::format("{} values, one per column of the header", names.size()));
    OrbitGiven given;
    double m = 0.0;
    Primary about;
    bool any = false;
    for (std::size_t k = 0; k < fields.size(); ++k) {
      const std::string where = fmt::format("{}:{} column '{}'", file, line, names[k]);
      if (fields[k].empty() && static_cast<int>(k) != mass) continue;
      double x = 0.0;
      if (!parse_real(fields[k], x) || !std::isfinite(x))
        throw ParameterError(where, std::string(fields[k]), "a finite number (or nothing)");
      if (static_cast<int>(k) == mass) {
        if (!(x >= 0.0))
          throw ParameterError(where, std::string(fields[k]),
                               "a finite number >= 0 (0: a test particle)");
        m = x;
      } else if (static_cast<int>(k) == primary) {
        if (!(x >= 0.0 && x < static_cast<double>(p.size()) && x == std::floor(x)))
          throw ParameterError(where, std::string(fields[k]),
                               fmt::format("the index of a line before, 0 to {}", p.size()));
        about = {PrimaryKind::body, static_cast<std::size_t>(x)};
      } else {
        *element_of(given, names[k]) = x;
        any = true;
      }
    }
    PointMass body{.mass = m};
    if (any || p.size() > 0) {
      try {
        body = body_from_orbit(g, primary_of(p, p.size(), about), m, given);
      } catch (const ParameterError& err) {
        throw err.renamed(fmt::format("{}:{} column '{}'", file, line, err.parameter()));
      }
    }
    const std::size_t i = p.size();
    p.resize(i + 1);
    p.mass[i] = body.mass;
    p.x[i] = body.position.x, p.y[i] = body.position.y, p.z[i] = body.position.z;
    p.vx[i] = body.velocity.x, p.vy[i] = body.velocity.y, p.vz[i] = body.velocity.z;
    p.id[i] = i;
  }
  return p;
}

}  // namespace

Particles<double> read_particle_csv(const std::filesystem::path& path, double g) {
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
      if (is_orbit_header(fields)) return read_orbit_rows(in, file, line, fields, g);
      const std::string where = fmt::format("{}:{} header", file, line);
      double number = 0;
      if (parse_real(fields.front(), number))
        throw ParameterError(where, std::string(trimmed),
                             "a first line naming the columns, m,x,y,z,vx,vy,vz (a header "
                             "written as a '#' comment, as numpy.savetxt does, is skipped)");
      for (std::size_t k = 0; k < fields.size(); ++k) {
        const std::string name = lower(fields[k]);
        const auto* known = std::find_if(kNames.begin(), kNames.end(),
                                         [&](const CsvColumnName& c) { return c.name == name; });
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
      for (CsvColumn c : kRequired)
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
      const bool is_mass = c == kMass, is_softening = c == kSoftening || c == kRadius;
      const char* accepted = is_mass        ? "a finite number >= 0 (0: a test particle)"
                             : is_softening ? "a finite number >= 0"
                                            : "a finite number";
      double x = 0;
      const bool ok = parse_real(fields[k], x) && std::isfinite(x) && (!(is_mass || is_softening) || x >= 0.0);
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
    if (index[kRadius] >= 0) p.radius.push_back(value[kRadius]);
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

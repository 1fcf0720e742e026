// SPDX-License-Identifier: MIT
#include "orrery/physics/unit_system.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace {

struct NamedUnit {
  std::string_view name;
  double si;  // the unit in metres, seconds or kilograms
};

constexpr double kGSi = 6.67408e-11;
constexpr double kAuSi = 149597870700.;
constexpr double kJulianYearSi = 31557600.;
// The masses from G M in km³/s² (Horizons), as REBOUND converts them.
constexpr double mass_of_gm(double gm_km3_s2) { return gm_km3_s2 / kGSi * 1e9; }

const std::vector<NamedUnit>& lengths() {
  static const std::vector<NamedUnit> t{{"m", 1.},           {"cm", 0.01},
                                        {"km", 1000.},       {"au", kAuSi},
                                        {"aus", kAuSi},      {"pc", 3.085677581e16},
                                        {"parsec", 3.085677581e16}};
  return t;
}

const std::vector<NamedUnit>& times() {
  static const std::vector<NamedUnit> t{
      {"s", 1.},
      {"hr", 3600.},
      {"day", 86400.},
      {"days", 86400.},
      {"d", 86400.},
      {"yr", kJulianYearSi},
      {"year", kJulianYearSi},
      {"years", kJulianYearSi},
      {"yrs", kJulianYearSi},
      {"jyr", kJulianYearSi},
      {"sidereal_yr", 31558149.7635},
      // The year/2π that makes G = 1 with au and msun.
      {"yr2pi", std::sqrt(kAuSi * kAuSi * kAuSi / 1.3271244004193938e20)},
      {"kyr", kJulianYearSi * 1e3},
      {"myr", kJulianYearSi * 1e6},
      {"gyr", kJulianYearSi * 1e9}};
  return t;
}

const std::vector<NamedUnit>& masses() {
  static const std::vector<NamedUnit> t{
      {"kg", 1.},
      {"g", 1e-3},
      {"gram", 1e-3},
      {"msun", mass_of_gm(1.3271244004193938e11)},
      {"solarmass", mass_of_gm(1.3271244004193938e11)},
      {"sunmass", mass_of_gm(1.3271244004193938e11)},
      {"msolar", mass_of_gm(1.3271244004193938e11)},
      {"mmercury", mass_of_gm(2.2031780000000021e4)},
      {"mvenus", mass_of_gm(3.2485859200000006e5)},
      {"mearth", mass_of_gm(3.9860043543609598e5)},
      {"mmars", mass_of_gm(4.282837362069909e4)},
      {"mjupiter", mass_of_gm(1.266865349218008e8)},
      {"msaturn", mass_of_gm(3.793120749865224e7)},
      {"muranus", mass_of_gm(5.793951322279009e6)},
      {"mneptune", mass_of_gm(6.835099502439672e6)},
      {"mpluto", mass_of_gm(8.696138177608748e2)},
      // The Sun has mass 0.00029591220828412 in these units: G = 1 with au and day.
      {"massist", mass_of_gm(4.48485856027459e14)}};
  return t;
}

const NamedUnit* unit_named(const std::vector<NamedUnit>& table, const std::string& name) {
  for (const NamedUnit& u : table)
    if (u.name == name) return &u;
  return nullptr;
}

std::string unit_names_of(const std::vector<NamedUnit>& table) {
  std::vector<std::string_view> n;
  for (const NamedUnit& u : table) n.push_back(u.name);
  return fmt::format("{}", fmt::join(n, ", "));
}

std::string lower_case_unit(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::string unit_names_accepted() {
  return fmt::format("one length ({}), one time ({}) and one mass ({}), in any order",
                     unit_names_of(lengths()), unit_names_of(times()), unit_names_of(masses()));
}

UnitSystem parse_units(const std::vector<std::string>& names) {
  const std::string given = fmt::format("{}", fmt::join(names, ", "));
  if (names.size() != 3) throw ParameterError("units", given, unit_names_accepted());
  UnitSystem u;
  for (const std::string& raw : names) {
    const std::string n = lower_case_unit(raw);
    // REBOUND's rule: a name counts for every kind whose table holds it.
    bool known = false;
    if (unit_named(lengths(), n)) u.length = n, known = true;
    if (unit_named(times(), n)) u.time = n, known = true;
    if (unit_named(masses(), n)) u.mass = n, known = true;
    if (!known)
      throw ParameterError("units", given,
                           fmt::format("{} ('{}' is none of them)", unit_names_accepted(), raw));
  }
  if (u.length.empty() || u.time.empty() || u.mass.empty())
    throw ParameterError("units", given, unit_names_accepted());
  return u;
}

UnitSystem parse_units(const std::string& text) {
  std::vector<std::string> names;
  std::string word;
  for (const char c : text + ",") {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) names.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (names.size() != 3) throw ParameterError("units", text, unit_names_accepted());
  return parse_units(names);
}

double gravitational_constant(const UnitSystem& units) {
  const double l = unit_named(lengths(), units.length)->si;
  const double t = unit_named(times(), units.time)->si;
  const double m = unit_named(masses(), units.mass)->si;
  return kGSi * m * t * t / (l * l * l);
}

std::string describe(const UnitSystem& units) {
  return fmt::format("{}, {}, {}", units.length, units.time, units.mass);
}

}  // namespace orrery

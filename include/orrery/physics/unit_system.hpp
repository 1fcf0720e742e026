// SPDX-License-Identifier: MIT
// Units of length, time and mass, and the gravitational constant they give,
//   G = G_SI · M · T² / L³   (L, T, M the units in metres, seconds and kilograms),
// with REBOUND's table (rebound/units.py: G_SI = 6.67408·10⁻¹¹ m³ kg⁻¹ s⁻², the astronomical
// unit of the IAU 2012, the Julian year, and the Sun's and planets' masses from their measured
// G M, as JPL's Horizons lists them), so that a REBOUND user's ("au", "yr", "msun") gives the
// same G: 39.476926… (4π² to the precision of these G M).
#pragma once

#include <string>
#include <vector>

namespace orrery {

struct UnitSystem {
  std::string length, time, mass;  // names from the table, lower case ("au", "yr", "msun")
};

// Three names, one of each kind, in any order and any case (REBOUND's check_units);
// ParameterError("units", ...) naming the value and the names accepted otherwise.
UnitSystem parse_units(const std::vector<std::string>& names);
// The same from one text, names separated by commas or spaces ("au,yr,msun").
UnitSystem parse_units(const std::string& text);

double gravitational_constant(const UnitSystem& units);

// "au, yr, msun".
std::string describe(const UnitSystem& units);

// Every name accepted, for each kind, as the error messages list them.
std::string unit_names_accepted();

}  // namespace orrery

// SPDX-License-Identifier: MIT
// Units and G (physics/unit_system.hpp) against REBOUND's: its units.py evaluated for common
// unit sets (G_SI · M · T² / L³ in Python, printed to 17 digits), and its test_units.py.
#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/physics/unit_system.hpp"

namespace orrery {
namespace {

// Python's ** and this file's products may round the last bits differently (yr2pi: 2 ulps).
constexpr double kSameG = 1e-15;

TEST(UnitSystem, GivesReboundsG) {
  struct Case {
    std::vector<std::string> names;
    double g;
  };
  for (const Case& c : {Case{{"au", "yr", "msun"}, 39.476926421373},
                        Case{{"au", "yr2pi", "msun"}, 0.9999999999999997},
                        Case{{"m", "s", "kg"}, 6.67408e-11},
                        Case{{"AU", "day", "Msun"}, 0.00029591220828559104},
                        Case{{"mearth", "km", "day"}, 2975536306513039.5}}) {
    const UnitSystem u = parse_units(c.names);
    EXPECT_NEAR(gravitational_constant(u) / c.g, 1.0, kSameG) << describe(u);
  }
  EXPECT_EQ(describe(parse_units(std::string("AU, yr  Msun"))), "au, yr, msun");
}

// test_units.py, test_wrong_units: two names, or a name not in the table, are refused.
TEST(UnitSystem, RefusesWhatReboundRefuses) {
  EXPECT_THROW(parse_units(std::vector<std::string>{"au", "yr2pi"}), ParameterError);
  EXPECT_THROW(parse_units(std::vector<std::string>{"au", "bogusunit", "yr2pi"}), ParameterError);
  EXPECT_THROW(parse_units(std::vector<std::string>{"au", "km", "yr"}), ParameterError);
  try {
    parse_units(std::string("au,parsecs,msun"));
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "units");
    EXPECT_NE(e.accepted().find("'parsecs' is none of them"), std::string::npos);
    EXPECT_NE(e.accepted().find("msun"), std::string::npos);
  }
}

}  // namespace
}  // namespace orrery

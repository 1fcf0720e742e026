// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

namespace orrery {
namespace {

void set(DivergenceMapParams& p, const std::string& name, const std::string& text) {
  const auto* f = find_field(divergence_map_fields(), name);
  ASSERT_NE(f, nullptr) << name;
  f->set(p, parse_param_text(*f, text));
}

// The parameter error for `name` = `text`, or an empty error when it was accepted.
std::string refusal(const std::string& name, const std::string& text) {
  DivergenceMapParams p;
  try {
    set(p, name, text);
    validate(p);
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), name);
    return e.what();
  }
  return "";
}

TEST(DivergenceParams, DefaultsAreTheCanonicalMap) {
  const DivergenceMapParams p;
  EXPECT_EQ(p.width, 1000);
  EXPECT_EQ(p.height, 1000);
  EXPECT_EQ(p.steps, 50000);
  EXPECT_EQ(p.dt, 0.001);
  EXPECT_EQ(p.critical_distance, 0.5);
  EXPECT_EQ(p.g, 9.8);
  EXPECT_NO_THROW(validate(p));
}

TEST(DivergenceParams, RefusesValuesOutsideTheirRange) {
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"width", "0"},
           {"width", "-3"},
           {"width", "nan"},
           {"width", "12abc"},
           {"height", "0"},
           {"resolution", "-1"},
           {"steps", "0"},
           {"steps", "-10"},
           {"steps", "3000000000"},
           {"dt", "0"},
           {"dt", "-0.1"},
           {"dt", "nan"},
           {"dt", "inf"},
           {"critical-distance", "0"},
           {"critical-distance", "-1"},
           {"x-range", "1:1"},
           {"x-range", "3:-2"},
           {"x-range", "nan:2"},
           {"x-range", "-1e308:1e308"},
           {"y-range", "5"},
           {"shift", "nan"},
           {"shift", "inf"},
           {"shift-vector", "0.1,nan,0"},
           {"shift-vector", "0.1,0.2"},
           {"masses", "1,0,3"},
           {"masses", "1,-2,3"},
           {"g", "0"},
           {"vary", "4"},
           {"plane", "xw"},
           {"positions", "1,2,3"},
       }) {
    const std::string message = refusal(name, text);
    EXPECT_NE(message, "") << name << " = " << text << " was accepted";
    EXPECT_NE(message.find(name), std::string::npos) << message;
    EXPECT_NE(message.find("expected"), std::string::npos) << message;
  }
}

TEST(DivergenceParams, AcceptsAZeroShift) { EXPECT_EQ(refusal("shift", "0"), ""); }

TEST(DivergenceParams, RefusesBodiesStartingTogether) {
  DivergenceMapParams p;
  set(p, "positions", "-10,0,-11,5,5,5,5,5,5");
  EXPECT_THROW(validate(p), ParameterError);

  // Body 1 moves in the plane z = 0, where body 2 sits on the grid point (0, 0).
  DivergenceMapParams q;
  q.width = q.height = 4;
  set(q, "positions", "-10,0,0,0,0,0,10,10,12");
  try {
    validate(q);
    FAIL() << "accepted a pixel that starts body 1 on body 2";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("pixel (2, 2)"), std::string::npos) << e.what();
  }
  q.width = q.height = 3;  // grid points -20, -6.67, 6.67: no collision
  EXPECT_NO_THROW(validate(q));
}

TEST(DivergenceParams, RefusesStartsWhoseDistancesOverflow) {
  // A finite window whose far corner is 1e200 from the other bodies: the squared distance, and
  // with it every force on that pixel, would not be a number.
  DivergenceMapParams p;
  set(p, "x-range", "-1e200:1e200");
  try {
    validate(p);
    FAIL() << "accepted a window whose squared distances overflow";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "x-range/y-range");
    EXPECT_NE(std::string(e.what()).find("pixel (0, 0)"), std::string::npos) << e.what();
  }
  DivergenceMapParams q;
  set(q, "positions", "-10,0,0,1e160,0,0,10,10,0");
  EXPECT_THROW(validate(q), ParameterError);
  DivergenceMapParams wide;  // large, yet every squared distance is finite
  set(wide, "x-range", "-1e150:1e150");
  EXPECT_NO_THROW(validate(wide));
}

TEST(DivergenceParams, ValidateAppliesTheFieldRulesToCodeSetValues) {
  DivergenceMapParams p;
  p.dt = -1;
  EXPECT_THROW(validate(p), ParameterError);
}

}  // namespace
}  // namespace orrery

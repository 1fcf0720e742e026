// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"
#include "orrery/io/config_file.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

std::string refusal(const std::string& toml) {
  test::TempDir dir;
  test::write_text(dir / "c.toml", toml);
  DivergenceMapParams p;
  try {
    apply_config_file(dir / "c.toml", divergence_map_fields(), p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// What format_config_file writes, read_config_file reads back to the same values, bit for bit.
TEST(ConfigFile, WrittenParametersReadBackTheSame) {
  test::TempDir dir;
  DivergenceMapParams p;
  p.width = 7;
  p.dt = 1.0 / 3;
  p.critical_distance = 40;  // a whole number, still a real
  p.x_range = {-0.1, 5e-300};
  p.integrator = "rk4";
  p.plane = Plane::xz;
  const std::string text =
      format_config_file(divergence_map_fields(), p, [](const ParamSpec&) { return true; });
  EXPECT_NE(text.find("critical-distance = 40.0\n"), std::string::npos) << text;
  test::write_text(dir / "c.toml", text);
  DivergenceMapParams q;
  apply_config_file(dir / "c.toml", divergence_map_fields(), q);
  for (const auto& f : divergence_map_fields())
    if (f.get) EXPECT_EQ(f.get(q), f.get(p)) << f.name;
}

TEST(ConfigFile, SetsEveryKindOfParameter) {
  test::TempDir dir;
  test::write_text(dir / "c.toml", R"(
width = 640
height = 480
steps = 12000
dt = 5e-4
shift-vector = [0.001, 0, -2]     # integers are numbers too
critical-distance = 1
x-range = [-5.5, 5.5]
plane = "yz"
vary = 2
positions = [[-10, 0, -11], [0, 0, 0], [10, 10, 12.5]]
)");
  DivergenceMapParams p;
  apply_config_file(dir / "c.toml", divergence_map_fields(), p);
  EXPECT_EQ(p.width, 640);
  EXPECT_EQ(p.height, 480);
  EXPECT_EQ(p.steps, 12000);
  EXPECT_EQ(p.dt, 5e-4);
  EXPECT_EQ(p.shift.z, -2.0);
  EXPECT_EQ(p.critical_distance, 1.0);
  EXPECT_EQ(p.x_range[1], 5.5);
  EXPECT_EQ(p.plane, Plane::yz);
  EXPECT_EQ(p.varied_body, 2);
  EXPECT_EQ(p.positions[8], 12.5);
}

TEST(ConfigFile, RefusesWithTheFileLineAndKey) {
  EXPECT_NE(refusal("width = 64\nwidht = 3\n").find("c.toml:2"), std::string::npos);
  EXPECT_NE(refusal("widht = 3\n").find("key 'widht'"), std::string::npos);
  EXPECT_NE(refusal("width = \"wide\"\n").find("key 'width'"), std::string::npos);
  EXPECT_NE(refusal("width = 2.5\n").find("expected an integer"), std::string::npos);
  EXPECT_NE(refusal("dt = \"small\"\n").find("expected a number"), std::string::npos);
  EXPECT_NE(refusal("plane = 3\n").find("expected a string"), std::string::npos);
  EXPECT_NE(refusal("masses = [1, \"two\", 3]\n").find("array of numbers"), std::string::npos);
  EXPECT_NE(refusal("dt = -1\n").find("finite number > 0"), std::string::npos);
  EXPECT_NE(refusal("width = [\n").find("not valid TOML"), std::string::npos);
  EXPECT_NE(refusal("[map]\nwidth = 3\n").find("key 'map'"), std::string::npos);
}

TEST(ConfigFile, RefusesAMissingFile) {
  DivergenceMapParams p;
  EXPECT_THROW(apply_config_file("/nonexistent/c.toml", divergence_map_fields(), p),
               ParameterError);
}

}  // namespace
}  // namespace orrery

// SPDX-License-Identifier: MIT
// Scenes by name: every scene makes sound initial conditions with its defaults, takes its
// parameters by name, and refuses unknown scenes, unknown parameters and values outside their
// rules with a message naming the parameter, the value and what is accepted.
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "orrery/nbody/diagnostics.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {
namespace {

// Centre-of-mass sums over at most a few thousand terms, relative to their scales.
constexpr double kFrameTolerance = 1e-13;

TEST(SceneRegistry, TheScenesOfTheIssue) {
  EXPECT_EQ(scene_names(),
            (std::vector<std::string>{"two-galaxies", "plummer", "disk", "figure-eight",
                                      "pythagorean", "kepler", "solar-system",
                                      "outer-solar-system"}));
}

TEST(SceneRegistry, EveryDefaultSceneIsSound) {
  for (const auto& name : scene_names()) {
    SCOPED_TRACE(name);
    const InitialConditions ic = make_scene(name);
    const auto& p = ic.particles;
    EXPECT_EQ(ic.scene, name);
    ASSERT_GE(p.size(), 2u);
    for (auto* a : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz}) EXPECT_EQ(a->size(), p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
      EXPECT_EQ(p.id[i], i);
      EXPECT_GT(p.mass[i], 0.0);
      EXPECT_TRUE(std::isfinite(p.x[i] + p.y[i] + p.z[i] + p.vx[i] + p.vy[i] + p.vz[i]));
    }
    EXPECT_GT(ic.g, 0.0);
    EXPECT_GE(ic.softening, 0.0);
    EXPECT_GT(ic.dt, 0.0);
    EXPECT_GT(ic.t_end, 10 * ic.dt);
    EXPECT_FALSE(ic.units.empty());
    EXPECT_FALSE(ic.frame.empty());
    // Every scene is at rest in its centre-of-mass frame.
    const Diagnostics d = diagnostics_of(p, 0.0, 0.0);
    EXPECT_LE(std::hypot(d.momentum.x, d.momentum.y, d.momentum.z),
              kFrameTolerance * d.momentum_scale + 0.0);
    EXPECT_LE(std::hypot(d.com_position.x, d.com_position.y, d.com_position.z),
              kFrameTolerance * d.rms_radius);
    // The parameters as used: every one of the scene's, with the defaults.
    const auto& described = find_scene(name).description.parameters;
    ASSERT_EQ(ic.parameters.size(), described.size());
    for (std::size_t k = 0; k < described.size(); ++k) {
      EXPECT_EQ(ic.parameters[k].first, described[k].spec.name);
      EXPECT_EQ(ic.parameters[k].second, described[k].default_value);
    }
  }
}

TEST(SceneRegistry, SettingsByName) {
  const InitialConditions ic = make_scene(
      "plummer", {{"n", ParamValue{std::int64_t{500}}}, {"seed", ParamValue{std::int64_t{7}}}});
  EXPECT_EQ(ic.particles.size(), 500u);
  EXPECT_EQ(ic.parameters[0], (std::pair<std::string, ParamValue>{"n", std::int64_t{500}}));
  const InitialConditions k = make_scene(
      "kepler",
      {{"eccentricity", ParamValue{0.25}}, {"masses", ParamValue{std::vector<double>{2, 3}}}});
  EXPECT_EQ(k.particles.mass, (std::vector<double>{2, 3}));
}

TEST(SceneRegistry, UnknownSceneListsTheValidOnes) {
  try {
    make_scene("galaxy");
    FAIL() << "accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "scene");
    EXPECT_EQ(e.value(), "galaxy");
    for (const auto& name : scene_names())
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
}

TEST(SceneRegistry, UnknownParameterOfAScene) {
  try {
    make_scene("figure-eight", {{"n", ParamValue{std::int64_t{5}}}});
    FAIL() << "accepted";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "n");
    EXPECT_NE(std::string(e.what()).find("figure-eight"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("softening"), std::string::npos) << e.what();
  }
}

struct Refusal {
  std::string scene, parameter;
  ParamValue value;
};

TEST(SceneRegistry, RefusesValuesOutsideTheirRules) {
  const std::vector<Refusal> cases{
      {"plummer", "n", std::int64_t{1}},
      {"plummer", "seed", std::int64_t{-1}},
      {"plummer", "mass-cut", 0.0},
      {"plummer", "mass-cut", 1.5},
      {"plummer", "softening", -0.1},
      {"plummer", "softening", std::nan("")},
      {"disk", "n", std::int64_t{0}},
      {"disk", "central-fraction", 0.0},
      {"disk", "central-fraction", 1.0},
      {"disk", "central-fraction", -0.2},
      {"disk", "outer-radius", 0.0},
      {"disk", "inner-radius", 2.0},  // above the outer radius
      {"disk", "thickness", -1.0},
      {"two-galaxies", "n", std::int64_t{3}},
      {"two-galaxies", "separation", 0.0},
      {"two-galaxies", "approach-speed", -350.0},
      {"two-galaxies", "tilt", 270.0},
      {"two-galaxies", "central-fraction", 1.0},
      {"kepler", "eccentricity", 1.0},
      {"kepler", "eccentricity", -0.1},
      {"kepler", "semi-major-axis", 0.0},
      {"kepler", "masses", std::vector<double>{1.0, 0.0}},
      {"kepler", "masses", std::vector<double>{-1.0, 1.0}},
      {"kepler", "masses", std::vector<double>{1.0}},
      {"figure-eight", "softening", -1.0},
      {"pythagorean", "softening", std::numeric_limits<double>::infinity()},
  };
  for (const auto& c : cases) {
    const std::string what = c.scene + " " + c.parameter + " = " + format_param_value(c.value);
    try {
      make_scene(c.scene, {{c.parameter, c.value}});
      ADD_FAILURE() << what << " was accepted";
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), c.parameter) << what << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos) << e.what();
    }
  }
}

TEST(SceneRegistry, ParameterSpecsForTheCommandLine) {
  const auto specs = scene_parameter_specs();
  std::set<std::string> names;
  for (const auto& s : specs) EXPECT_TRUE(names.insert(s.name).second) << s.name << " twice";
  for (const auto& scene : scenes())
    for (const auto& p : scene.description.parameters) {
      EXPECT_TRUE(names.count(p.spec.name)) << p.spec.name;
      // One name, one kind: a flag can be parsed before the scene is known.
      for (const auto& s : specs)
        if (s.name == p.spec.name) {
          EXPECT_EQ(s.kind, p.spec.kind) << s.name;
        }
    }
  // A value parsed by the spec is what the scene takes.
  const ParamSpec* n = nullptr;
  for (const auto& s : specs)
    if (s.name == "n") n = &s;
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(make_scene("disk", {{"n", parse_param_text(*n, "10")}}).particles.size(), 11u);
}

TEST(SceneRegistry, ListNamesEveryScenesParameters) {
  const std::string text = scene_list_text();
  for (const auto& scene : scenes()) {
    EXPECT_NE(text.find(scene.description.name), std::string::npos);
    for (const auto& p : scene.description.parameters)
      EXPECT_NE(text.find("--" + p.spec.name), std::string::npos) << p.spec.name;
  }
  EXPECT_NE(text.find("6.67384e-11"), std::string::npos);
}

}  // namespace
}  // namespace orrery

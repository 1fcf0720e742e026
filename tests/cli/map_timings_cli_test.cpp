// SPDX-License-Identifier: MIT
// `orrery map --timings`: the phases of the process, printed after the map, add up to its total,
// which no clock outside can contradict; and asking for them changes no byte of the picture and
// no value of the data.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <sstream>
#include <string>

#include "orrery/core/process_clock.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

const std::vector<std::string> kPhases{"start-up", "set-up", "device", "compute", "writing",
                                       "release"};

// The numbers of "timings (s): start-up A set-up B ... total T", by name.
std::map<std::string, double> timings_in(const std::string& out) {
  std::map<std::string, double> found;
  const auto at = out.find("timings (s): ");
  if (at == std::string::npos) return found;
  std::istringstream line(out.substr(at + 13, out.find('\n', at) - at - 13));
  std::string name;
  double value = 0;
  while (line >> name >> value) found[name] = value;
  return found;
}

// Each phase is printed with four decimals, so the sum of six may differ from the total by six
// half-units of the last place.
constexpr double kRounding = 6 * 0.5e-4;

TEST(MapTimingsCli, PhasesAddUpToTheTotalAndTheOutputsAreTheSame) {
  test::TempDir dir;
  const std::vector<std::string> common{"map", "--width", "24", "--height", "16", "--steps",
                                        "3000", "--overwrite"};
  auto plain = common, timed = common;
  for (const char* a : {"--out", "a.png", "--data", "a.h5"}) plain.push_back(a);
  for (const char* a : {"--out", "b.png", "--data", "b.h5", "--timings"}) timed.push_back(a);

  const auto a = run_cli(plain, dir.path());
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out.find("timings"), std::string::npos) << "printed only when asked:\n" << a.out;
  const auto before = std::chrono::steady_clock::now();
  const auto b = run_cli(timed, dir.path());
  const double outside = seconds_since(before);
  ASSERT_EQ(b.status, 0) << b.err;

  const auto t = timings_in(b.out);
  ASSERT_EQ(t.size(), kPhases.size() + 1) << b.out;
  double sum = 0;
  for (const auto& phase : kPhases) {
    ASSERT_TRUE(t.count(phase)) << phase << " missing:\n" << b.out;
    EXPECT_GE(t.at(phase), 0.0) << phase << "\n" << b.out;
    sum += t.at(phase);
  }
  EXPECT_NEAR(sum, t.at("total"), kRounding) << b.out;
  // The process started after `before` and printed before it ended: its total can exceed the
  // time seen from outside only by the resolution of its start (one clock tick).
  EXPECT_LE(t.at("total"), outside + process_clock_tick().count() + kRounding) << b.out;
  EXPECT_GT(t.at("compute"), 0.0) << b.out;

  EXPECT_EQ(test::read_bytes(dir / "a.png"), test::read_bytes(dir / "b.png"));
  const auto da = read_divergence_map_file(dir / "a.h5");
  const auto db = read_divergence_map_file(dir / "b.h5");
  EXPECT_EQ(da.map.counts, db.map.counts);
  EXPECT_EQ(da.map.nonfinite, db.map.nonfinite);
  EXPECT_EQ(da.map.pixel_steps, db.map.pixel_steps);
  EXPECT_EQ(da.map.info.backend, db.map.info.backend);
  EXPECT_EQ(da.params.steps, db.params.steps);
}

TEST(MapTimingsCli, QuietStillPrintsTheTimingsItWasAskedFor) {
  test::TempDir dir;
  const auto r = run_cli({"map", "--resolution", "6", "--steps", "200", "--out", "m.png",
                          "--quiet", "--timings"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(timings_in(r.out).size(), kPhases.size() + 1) << r.out;
  EXPECT_EQ(r.out.find("pixel-steps"), std::string::npos) << "no summary with --quiet:\n" << r.out;
}

}  // namespace
}  // namespace orrery

// SPDX-License-Identifier: MIT
// The zoom job: its windows shrink geometrically around the centre, frame k holds exactly the
// counts `orrery map` computes for frame k's window (at frame k's steps, where they grow), every
// frame has one colour scale, and bad
// values, windows finer than the precision resolves and a folder of another zoom's frames are
// refused before any work.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ensemble/sensitive_window.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/problems/divergence3/twin_start_dd.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/jobs/map_job.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"
#include "orrery/jobs/zoom_job.hpp"
#include "orrery/render/colormap.hpp"
#include "orrery/render/divergence_image.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

// The map tests' sensitive window, [−16, −4] × [−6, 6], is 12 wide around (−10, 0): the zoom
// starts there and ends 4 times narrower, 3 wide.
ZoomJob small_zoom(const test::TempDir& dir) {
  ZoomJob job;
  job.map.physics = test::sensitive_window(16, 8, 3000);
  job.map.backend = Backend::cpu;
  job.map.threads = 2;
  job.map.quiet = true;
  job.center = {-10.0, 0.0};
  job.from_width = 12;
  job.to_width = 3;
  job.frames = 3;
  job.out = (dir / "zoom.mp4").string();
  job.frames_dir = (dir / "frames").string();
  job.data_dir = (dir / "data").string();
  return job;
}

// Of the 128 pixels of a frame, at least this many different counts.
constexpr std::size_t kLeastDistinctCounts = 32;

ParameterError refusal(const ZoomJob& job) {
  try {
    validate(job);
  } catch (const ParameterError& e) {
    return e;
  }
  ADD_FAILURE() << "not refused";
  return ParameterError("", "", "");
}

TEST(ZoomJob, WidthsShrinkGeometricallyFromTheFirstToTheLast) {
  // 8 · (1/16)^(k/4): each frame half as wide as the one before.
  const double expected[] = {8, 4, 2, 1, 0.5};
  for (int k = 0; k < 5; ++k) EXPECT_DOUBLE_EQ(zoom_width(8, 0.5, 5, k), expected[k]) << k;
  EXPECT_EQ(zoom_width(8, 0.5, 5, 4), 0.5) << "the last frame is --to-width exactly";
  EXPECT_EQ(zoom_width(8, 0.5, 1, 0), 8) << "a single frame is --from-width";
  EXPECT_DOUBLE_EQ(zoom_width(1, 100, 3, 1), 10) << "a zoom out grows the same way";
}

TEST(ZoomJob, AFramesWindowIsCentredWithSquarePixels) {
  test::TempDir dir;
  ZoomJob job = small_zoom(dir);
  job.center = {1.0, -2.0};
  job.from_width = 8;
  const DivergenceMapParams p = zoom_frame_params(job, 0);
  // 16 × 8 pixels: 8 wide, 4 high.
  EXPECT_EQ(p.x_range, (std::array<double, 2>{-3.0, 5.0}));
  EXPECT_EQ(p.y_range, (std::array<double, 2>{-4.0, 0.0}));
  EXPECT_EQ(p.shift.x, 0.01) << "the shift stays unless --scale-shift";
  job.scale_shift = true;
  job.to_width = 2;
  EXPECT_EQ(zoom_frame_params(job, 2).shift.x, 0.01 / 4);
}

// A frame far narrower than fp64 resolves: its ends are fp64 values plus their rounding errors,
// its pixels distinct points in double-double, and its counts those of the twins that fp64 could
// not tell apart (a shift of 10⁻²³ at x ≈ −10 is below fp64's resolution there).
TEST(ZoomJob, ADoubleDoubleFrameResolvesWhatFp64CannotHold) {
  test::TempDir dir;
  ZoomJob zoom = small_zoom(dir);
  zoom.map.precision = Precision::dd;
  zoom.map.backend = Backend::automatic;  // auto takes the CPU for double-double
  zoom.from_width = 12;
  zoom.to_width = 1e-20;
  zoom.frames = 2;
  zoom.scale_shift = true;
  const DivergenceMapParams p = zoom_frame_params(zoom, 1);
  EXPECT_EQ(p.x_range[0], p.x_range[1]) << "fp64 holds one point for the whole window";
  const DivergenceSetup s = make_divergence_setup(p);
  EXPECT_GT(s.u_span_dd, 0.9e-20);
  EXPECT_LT(s.u_span_dd, 1.1e-20);
  const TwinStartDd first = twin_start_dd(s, 0, 0), last = twin_start_dd(s, p.width - 1, 0);
  const DoubleDouble<double> step = last.base.x[s.body].x - first.base.x[s.body].x;
  EXPECT_NEAR(step.hi, 1e-20 * (p.width - 1) / p.width, 1e-24);
  const DoubleDouble<double> shift = first.twin.x[s.body].x - first.base.x[s.body].x;
  EXPECT_NEAR(shift.hi, p.shift.x, 1e-6 * p.shift.x);
  MapRunOptions o;
  o.precision = Precision::dd;
  const DivergenceMap map = compute_divergence_map(p, o);
  EXPECT_EQ(map.counts.size(), static_cast<std::size_t>(p.width) * p.height);
  o.backend = Backend::cuda;
  EXPECT_THROW(compute_divergence_map(p, o), ParameterError) << "no CUDA double-double kernels";
}

TEST(ZoomJob, EachFramesCountsAreThoseOfTheMapOfItsWindow) {
  test::TempDir dir;
  const ZoomJob zoom = small_zoom(dir);
  std::vector<std::int64_t> seen;
  ZoomObserver observer;
  observer.frame = [&](const ZoomFrame& f) { seen.push_back(f.index); };
  const ZoomOutcome outcome = run_zoom_job(zoom, observer);
  EXPECT_EQ(seen, (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(outcome.frames_computed, 3);
  // The first window is the sensitive window's middle half in y (16 × 8 pixels, square), the
  // last [−11.5, −8.5] × [−0.75, 0.75].
  struct Case {
    const char* frame;
    std::array<double, 2> x, y;
  };
  for (const Case& c : {Case{"frame_000000.h5", {-16.0, -4.0}, {-3.0, 3.0}},
                        Case{"frame_000002.h5", {-11.5, -8.5}, {-0.75, 0.75}}}) {
    MapJob map = zoom.map;
    map.physics.x_range = c.x;
    map.physics.y_range = c.y;
    map.out = (dir / "map.png").string();
    map.data = (dir / "map.h5").string();
    map.overwrite = true;
    run_map_job(map);
    const StoredDivergenceMap expected = read_divergence_map_file(dir / "map.h5");
    const StoredDivergenceMap got = read_divergence_map_file(dir / "data" / c.frame);
    EXPECT_EQ(got.params.x_range, c.x) << c.frame;
    EXPECT_EQ(got.params.y_range, c.y) << c.frame;
    ASSERT_EQ(got.map.counts.size(), 16u * 8u);
    EXPECT_EQ(got.map.counts, expected.map.counts) << c.frame;
    EXPECT_EQ(got.map.nonfinite, expected.map.nonfinite) << c.frame;
    // Many different counts: an agreement of constant maps would prove nothing.
    const std::set<std::int32_t> distinct(got.map.counts.begin(), got.map.counts.end());
    EXPECT_GE(distinct.size(), kLeastDistinctCounts) << c.frame;
  }
  EXPECT_EQ(read_png(dir / "frames" / "frame_000001.png").width, 16);
}

TEST(ZoomJob, EveryFrameHasOneColourScale) {
  test::TempDir dir;
  ZoomJob job = small_zoom(dir);
  job.map.physics.steps = 400;
  const Colormap& inferno = Colormap::by_name("inferno");
  // Two frames of 2 × 1 pixels with different extremes; count 200 is halfway in both.
  DivergenceMap wide, deep;
  wide.width = deep.width = 2;
  wide.height = deep.height = 1;
  wide.counts = {400, 200};
  deep.counts = {200, 300};
  const RgbImage a = zoom_frame_picture(job, wide), b = zoom_frame_picture(job, deep);
  EXPECT_EQ(a.at(1, 0), inferno.at(0.5));
  EXPECT_EQ(b.at(0, 0), inferno.at(0.5));
  EXPECT_EQ(a.at(0, 0), inferno.at(0.0)) << "never diverged: the dark end";
  EXPECT_EQ(b.at(1, 0), inferno.at(0.25));
  // A lone map's own scale would have shown count 200 at the bright end in the deeper frame.
  EXPECT_EQ(render_divergence_image(deep.counts, 2, 1, 400, inferno).at(0, 0), inferno.at(1.0));
}

TEST(ZoomJob, StepsGrowFromTheFirstFrameToTheLast) {
  test::TempDir dir;
  ZoomJob job = small_zoom(dir);
  job.frames = 4;
  job.map.physics.steps = 1000;
  for (std::int64_t k = 0; k < 4; ++k) EXPECT_EQ(zoom_steps(job, k), 1000) << "without --steps-to";
  job.steps_to = 4000;
  const std::int64_t linear[] = {1000, 2000, 3000, 4000};
  for (std::int64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(zoom_steps(job, k), linear[k]) << k;
    EXPECT_EQ(zoom_frame_params(job, k).steps, linear[k]) << k;
  }
  // The same factor, 4^(1/3) = 1.587…, from each frame to the next, rounded to the nearest step.
  job.steps_growth = ZoomStepsGrowth::geometric;
  const std::int64_t geometric[] = {1000, 1587, 2520, 4000};
  for (std::int64_t k = 0; k < 4; ++k) EXPECT_EQ(zoom_steps(job, k), geometric[k]) << k;
  EXPECT_EQ(zoom_most_steps(job), 4000);
  job.steps_to = 250;  // fewer steps as the zoom goes: allowed, and the first frame is the top
  EXPECT_EQ(zoom_steps(job, 3), 250);
  EXPECT_EQ(zoom_most_steps(job), 1000);
  job.frames = 1;
  EXPECT_EQ(zoom_steps(job, 0), 1000) << "a single frame takes --steps";
}

TEST(ZoomJob, AFrameOfGrowingStepsIsTheMapOfItsWindowAtItsSteps) {
  test::TempDir dir;
  ZoomJob zoom = small_zoom(dir);
  zoom.map.physics.steps = 500;
  zoom.steps_to = 3000;
  run_zoom_job(zoom);
  // The last window's map at the last frame's 3000 steps, and at the first frame's 500.
  const auto map_of_last_window = [&](std::int64_t steps) {
    MapJob map = zoom.map;
    map.physics.x_range = {-11.5, -8.5};
    map.physics.y_range = {-0.75, 0.75};
    map.physics.steps = steps;
    map.out = (dir / "map.png").string();
    map.data = (dir / "map.h5").string();
    map.overwrite = true;
    run_map_job(map);
    return read_divergence_map_file(dir / "map.h5");
  };
  const StoredDivergenceMap at_3000 = map_of_last_window(3000), at_500 = map_of_last_window(500);
  ASSERT_NE(at_3000.map.counts, at_500.map.counts) << "a window whose steps would not show";
  const StoredDivergenceMap last = read_divergence_map_file(dir / "data" / "frame_000002.h5");
  EXPECT_EQ(last.params.steps, 3000) << "each frame's data records its steps";
  EXPECT_EQ(read_divergence_map_file(dir / "data" / "frame_000001.h5").params.steps, 1750);
  EXPECT_EQ(last.map.counts, at_3000.map.counts);
  // The record of a zoom of growing steps names the schedule; that of one step count does not,
  // so that a folder made before the schedule existed resumes.
  const std::string record = test::read_text(dir / "frames" / "zoom.toml");
  EXPECT_NE(record.find("steps-to = 3000"), std::string::npos) << record;
  test::TempDir plain_dir;
  run_zoom_job(small_zoom(plain_dir));
  EXPECT_EQ(test::read_text(plain_dir / "frames" / "zoom.toml").find("steps-"),
            std::string::npos);
}

TEST(ZoomJob, GrowingStepsKeepOneColourScale) {
  test::TempDir dir;
  ZoomJob job = small_zoom(dir);
  job.map.physics.steps = 400;
  job.steps_to = 800;
  const Colormap& inferno = Colormap::by_name("inferno");
  DivergenceMap first, last;
  first.width = last.width = 2;
  first.height = last.height = 1;
  first.counts = {400, 200};  // never diverged within the first frame's 400 steps; 200
  last.counts = {800, 200};   // never within the last frame's 800; 200
  const RgbImage a = zoom_frame_picture(job, first), b = zoom_frame_picture(job, last);
  EXPECT_EQ(a.at(1, 0), b.at(1, 0)) << "count 200 has one colour in every frame";
  EXPECT_EQ(a.at(1, 0), inferno.at(0.75));
  EXPECT_EQ(a.at(0, 0), inferno.at(0.5)) << "400 steps without divergence: the colour of 400";
  EXPECT_EQ(b.at(0, 0), inferno.at(0.0)) << "the most steps without divergence: the dark end";
}

TEST(ZoomJob, RefusesBadValuesBeforeAnyFile) {
  test::TempDir dir;
  ZoomJob defaults;
  defaults.out = (dir / "zoom.mp4").string();
  EXPECT_NO_THROW(validate(defaults)) << "the defaults (all cores among them) are accepted";
  ZoomJob job = small_zoom(dir);
  job.to_width = 0;
  EXPECT_EQ(refusal(job).parameter(), "--to-width");
  job = small_zoom(dir);
  job.frames = 0;
  EXPECT_EQ(refusal(job).parameter(), "--frames");
  job = small_zoom(dir);
  job.map.physics.width = 15;
  EXPECT_EQ(refusal(job).parameter(), "--width");
  job = small_zoom(dir);
  job.center = {std::nan(""), 0.0};
  EXPECT_EQ(refusal(job).parameter(), "--center");
  job = small_zoom(dir);
  job.steps_to = -5;
  EXPECT_EQ(refusal(job).parameter(), "--steps-to");
  EXPECT_TRUE(test::listing(dir.path()).empty());
}

// --center X:Y:X_LOW:Y_LOW names a centre in double-double: the deep zooms centre their windows
// on it (a window of 1e−30 about a point no double names), fp64 zooms on X:Y as always.
TEST(ZoomJob, ACentreInDoubleDoubleCentresTheDeepWindows) {
  test::TempDir dir;
  ZoomJob job = small_zoom(dir);
  const ParamField<ZoomJob>& centre = *find_field(zoom_job_fields(), "center");
  centre.set(job, ParamValue{std::vector<double>{-10.0, 1.0, 0x1p-60, -0x1p-61}});
  EXPECT_EQ(centre.get(job), (ParamValue{std::vector<double>{-10.0, 1.0, 0x1p-60, -0x1p-61}}));
  job.from_width = job.to_width = 1e-30;
  job.frames = 1;
  job.map.deep = DeepMethod::perturbation;
  const DivergenceMapParams deep = zoom_frame_params(job, 0);
  // The window's ends in double-double, each −10 + 2⁻⁶⁰ ∓ 5e−31 (rounded to its last part).
  EXPECT_EQ(deep.x_range[0], -10.0);
  EXPECT_EQ(deep.y_range[1], 1.0);
  EXPECT_NEAR(deep.x_range_low[0], 0x1p-60 - 5e-31, 1e-45);
  EXPECT_NEAR(deep.x_range_low[1], 0x1p-60 + 5e-31, 1e-45);
  EXPECT_NEAR(deep.y_range_low[0], -0x1p-61 - 5e-31 * job.map.physics.height / job.map.physics.width,
              1e-45);
  job.map.deep = DeepMethod::none;
  const DivergenceMapParams plain = zoom_frame_params(job, 0);
  EXPECT_EQ(plain.x_range_low, (std::array<double, 2>{0.0, 0.0}));
  // Two numbers are the centre alone; other counts and non-finite parts are refused.
  centre.set(job, ParamValue{std::vector<double>{1.0, 2.0}});
  EXPECT_EQ(job.center_low, (std::array<double, 2>{0.0, 0.0}));
  EXPECT_THROW(centre.set(job, ParamValue{std::vector<double>{1.0, 2.0, 3.0}}), ParameterError);
  EXPECT_THROW(centre.set(job, ParamValue{std::vector<double>{1.0, 2.0, 0.0, std::nan("")}}),
               ParameterError);
  // The perturbation's pixels are fp64 differences: it takes --precision fp64 alone.
  job = small_zoom(dir);
  job.map.deep = DeepMethod::perturbation;
  job.map.precision = Precision::fp32;
  EXPECT_EQ(refusal(job).parameter(), "--precision");
}

TEST(ZoomJob, RefusesWindowsFinerThanThePrecisionResolves) {
  test::TempDir dir;
  ZoomJob job = small_zoom(dir);
  // Around x = −10 a double resolves 2.2e−16 · 10 ≈ 2e−15: 16 pixels of 16 such steps need a
  // window at least 16 · 16 · 2e−15 ≈ 6e−13 wide.
  job.to_width = 1e-13;
  const ParameterError e = refusal(job);
  EXPECT_EQ(e.parameter(), "--to-width");
  EXPECT_NE(e.accepted().find("fp64"), std::string::npos) << e.accepted();
  // Double-double resolves 2⁻¹⁰⁴ · 10 ≈ 5e−31: the refusal names it, and it takes 1e−20.
  EXPECT_NE(e.accepted().find("--precision dd"), std::string::npos) << e.accepted();
  job.map.precision = Precision::dd;
  job.to_width = 1e-20;
  EXPECT_NO_THROW(validate(job));
  job.to_width = 1e-29;
  EXPECT_EQ(refusal(job).parameter(), "--to-width");
  EXPECT_EQ(refusal(job).accepted().find("--precision dd"), std::string::npos)
      << "double-double does not resolve it: not named again";
  // The perturbation resolves any width whose reference trajectory the build can compute:
  // double-double's down to about 1e−24 here, MPFR's (where the build has it) to 1e−30 and
  // beyond.
  EXPECT_NE(refusal(job).accepted().find("--deep perturbation"), std::string::npos)
      << refusal(job).accepted();
  EXPECT_EQ(refusal(job).accepted().find("--precision dd"), std::string::npos);
  job.map.precision = Precision::fp64;
  job.map.deep = DeepMethod::perturbation;
  job.to_width = 1e-30;
  if (reference_bits_available() > 106)
    EXPECT_NO_THROW(validate(job));
  else
    EXPECT_EQ(refusal(job).parameter(), "--to-width");
  job.to_width = 1e-16;
  EXPECT_NO_THROW(validate(job));
  job.map.deep = DeepMethod::none;
  job.map.precision = Precision::fp64;
  job.to_width = 1e-11;
  EXPECT_NO_THROW(validate(job));
  // A float resolves 1.2e−7 · 10: 1e−11 is far too narrow, 1e−3 wide enough.
  job.map.precision = Precision::fp32;
  EXPECT_EQ(refusal(job).parameter(), "--to-width");
  job.to_width = 1e-3;
  EXPECT_NO_THROW(validate(job));
  // A zoom out has its finest pixels in its first frame.
  job.from_width = 1e-11;
  job.to_width = 1;
  EXPECT_EQ(refusal(job).parameter(), "--from-width");
}

TEST(ZoomJob, AnotherZoomsFramesAreRefusedUnlessOverwritten) {
  test::TempDir dir;
  ZoomJob job = small_zoom(dir);
  job.frames = 1;
  run_zoom_job(job);
  job.out = (dir / "other.mp4").string();
  job.map.physics.steps = 500;
  // Into a new frames folder beside the data of the zoom before: refused by the data folder,
  // the zoom makes nothing, not even the frames folder.
  job.frames_dir = (dir / "other").string();
  try {
    run_zoom_job(job);
    ADD_FAILURE() << "not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--data-dir"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("steps = 500"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "other"));
  EXPECT_FALSE(std::filesystem::exists(dir / "other.mp4"));
  job.overwrite = true;
  EXPECT_EQ(run_zoom_job(job).frames_computed, 1);
}

}  // namespace
}  // namespace orrery

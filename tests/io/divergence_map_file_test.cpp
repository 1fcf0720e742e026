// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <filesystem>

#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/render/divergence_image.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

DivergenceMapParams small_map() {
  DivergenceMapParams p;
  p.width = 23;
  p.height = 11;
  p.steps = 3000;
  p.shift = {0.02, 0.02, 0.02};
  p.critical_distance = 0.1;
  p.x_range = {-4.0, 6.0};
  p.y_range = {-9.0, -1.0};
  p.masses = {11.0, 20.0, 29.5};
  return p;
}

TEST(DivergenceMapFile, RoundTripsCountsAndEveryParameter) {
  test::TempDir dir;
  const DivergenceMapParams p = small_map();
  MapRunOptions o;
  o.backend = Backend::cpu;
  const DivergenceMap map = compute_divergence_map(p, o);
  write_divergence_map_file(dir / "m.h5", p, Precision::fp64, map);

  const StoredDivergenceMap s = read_divergence_map_file(dir / "m.h5");
  EXPECT_EQ(s.map.counts, map.counts);
  EXPECT_EQ(s.map.nonfinite, map.nonfinite);
  EXPECT_EQ(s.map.pixel_steps, map.pixel_steps);
  EXPECT_EQ(s.precision, Precision::fp64);
  EXPECT_EQ(s.map.info.kernel, map.info.kernel);
  for (const auto& f : divergence_map_fields())
    if (f.get) {
      EXPECT_EQ(f.get(s.params), f.get(p)) << f.name;
    }
  // The file alone is enough to compute the same map again.
  EXPECT_EQ(compute_divergence_map(s.params, o).counts, map.counts);
}

TEST(DivergenceMapFile, RefusesFilesThatAreNotMaps) {
  test::TempDir dir;
  test::write_text(dir / "x.h5", "not hdf5");
  EXPECT_THROW(read_divergence_map_file(dir / "x.h5"), InputError);
}

TEST(DivergencePicture, HasTheMapSizeAndTheColoursOfKnownPixels) {
  test::TempDir dir;
  const DivergenceMapParams p = small_map();
  MapRunOptions o;
  o.backend = Backend::cpu;
  const DivergenceMap map = compute_divergence_map(p, o);
  const auto& inferno = Colormap::by_name("inferno");
  write_png(dir / "m.png", render_divergence_image(map.counts, map.width, map.height, p.steps,
                                                   inferno, ImageOrigin::upper));
  const RgbImage img = read_png(dir / "m.png");
  ASSERT_EQ(img.width, 23);
  ASSERT_EQ(img.height, 11);

  // The pixel that diverged earliest is the bright end of inferno, one that never diverged
  // (or the latest) its black end; row 0 of the grid is the top row.
  const auto [lo, hi] = std::minmax_element(map.counts.begin(), map.counts.end());
  const auto earliest = static_cast<int>(lo - map.counts.begin());
  const auto latest = static_cast<int>(hi - map.counts.begin());
  EXPECT_EQ(img.at(earliest % 23, earliest / 23), (Rgb8{0xfc, 0xff, 0xa4}));
  EXPECT_EQ(img.at(latest % 23, latest / 23), (Rgb8{0x00, 0x00, 0x04}));

  const RgbImage lower = render_divergence_image(map.counts, map.width, map.height, p.steps,
                                                 inferno, ImageOrigin::lower);
  EXPECT_EQ(lower.at(earliest % 23, 10 - earliest / 23), (Rgb8{0xfc, 0xff, 0xa4}));
}

TEST(DivergencePicture, WritesAtomically) {
  test::TempDir dir;
  RgbImage img{4, 3, std::vector<std::uint8_t>(36, 7)};
  write_png(dir / "a.png", img);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 1u) << "a temporary file was left behind";
  EXPECT_EQ(read_png(dir / "a.png").pixels, img.pixels);
}

}  // namespace
}  // namespace orrery

// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/render/colormap.hpp"

namespace orrery {
namespace {

TEST(Colormap, EndsAreMatplotlibs) {
  // matplotlib's published end colours (_cm_listed.py), rounded to 8 bits.
  EXPECT_EQ(Colormap::by_name("inferno").at(0.0), (Rgb8{0, 0, 4}));
  EXPECT_EQ(Colormap::by_name("inferno").at(1.0), (Rgb8{252, 255, 164}));
  EXPECT_EQ(Colormap::by_name("viridis").at(0.0), (Rgb8{68, 1, 84}));
  EXPECT_EQ(Colormap::by_name("viridis").at(1.0), (Rgb8{253, 231, 37}));
  EXPECT_EQ(Colormap::by_name("magma").at(1.0), (Rgb8{252, 253, 191}));
  EXPECT_EQ(Colormap::by_name("gray").at(0.5), (Rgb8{128, 128, 128}));
}

TEST(Colormap, IsMonotoneInLightnessForInferno) {
  const auto& m = Colormap::by_name("inferno");
  // Colours are rounded to 8 bits per channel, which can dent the luma by under half a level.
  constexpr double kRoundingSlack = 0.5;
  auto luma = [](Rgb8 c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; };
  for (int i = 1; i < 256; ++i) EXPECT_GE(luma(m.at(i / 255.0)), luma(m.at((i - 1) / 255.0)) - kRoundingSlack);
}

TEST(Colormap, UnknownNameListsTheKnownOnes) {
  try {
    Colormap::by_name("jet");
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("inferno, magma, viridis, gray"), std::string::npos);
  }
}

}  // namespace
}  // namespace orrery

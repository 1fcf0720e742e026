// SPDX-License-Identifier: MIT
// Text quoted in a message stays one printable line whatever it held.
#include <gtest/gtest.h>

#include <string>

#include "orrery/core/error.hpp"

namespace orrery {
namespace {

TEST(ShownText, EscapesBytesThatWouldActOnATerminal) {
  EXPECT_EQ(shown_text("a\x1b[31mred"), "a\\x1b[31mred");
  EXPECT_EQ(shown_text(std::string("in\0ferno", 8)), "in\\x00ferno");
  EXPECT_EQ(shown_text("two\nlines\r\tx\x7f"), "two\\nlines\\r\\tx\\x7f");
}

TEST(ShownText, KeepsUtf8AndEscapesWhatIsNotUtf8) {
  EXPECT_EQ(shown_text("\xEF\xBB\xBFm"), "\xEF\xBB\xBFm");    // a BOM is valid UTF-8
  EXPECT_EQ(shown_text("Gr\xC3\xB6\xC3\x9F" "e"), "Gr\xC3\xB6\xC3\x9F" "e");
  EXPECT_EQ(shown_text("\xC3"), "\\xc3");                    // a cut sequence
  EXPECT_EQ(shown_text("\xC0\x80"), "\\xc0\\x80");           // an overlong NUL
  EXPECT_EQ(shown_text("\xED\xA0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(shown_text("\xFF\xFE"), "\\xff\\xfe");
}

TEST(ShownText, CutsLongTextSayingHowMuchIsLeft) {
  const std::string huge(4'000'000, '1');
  const std::string shown = shown_text(huge);
  EXPECT_EQ(shown, std::string(kShownValueLimit, '1') + "... (3999920 more bytes)");
  EXPECT_EQ(shown_text(std::string(kShownValueLimit, 'x')), std::string(kShownValueLimit, 'x'));
  // A cut never splits a UTF-8 character: the limit counts characters.
  std::string umlauts;
  for (int i = 0; i < 100; ++i) umlauts += "\xC3\xB6";
  EXPECT_EQ(shown_text(umlauts, 3), "\xC3\xB6\xC3\xB6\xC3\xB6... (194 more bytes)");
}

TEST(ShownText, ParameterErrorsShowValuesThisWay) {
  const ParameterError e("--colormap", std::string("inf\0\x1b" "erno", 9) + std::string(500, 'a'),
                         "one of: inferno");
  const std::string what = e.what();
  EXPECT_EQ(what.find('\x1b'), std::string::npos) << what;
  EXPECT_NE(what.find("inf\\x00\\x1berno"), std::string::npos) << what;
  EXPECT_NE(what.find("more bytes) is not accepted (expected one of: inferno)"), std::string::npos)
      << what;
  EXPECT_LT(what.size(), 200u);
  EXPECT_EQ(e.value().size(), 509u) << "the value itself is kept whole";
}

}  // namespace
}  // namespace orrery

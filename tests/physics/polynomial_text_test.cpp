// SPDX-License-Identifier: MIT
// The potential's text (physics/polynomial_text.hpp): canonical form whatever the order and
// grouping written, and each refusal at its character.
#include <gtest/gtest.h>

#include <string>

#include "orrery/physics/polynomial_text.hpp"

namespace orrery {
namespace {

TEST(PolynomialText, ProductsCommuteAndPowersExpand) {
  EXPECT_EQ(parse_potential("x*y", 2).text(), parse_potential("y*x", 2).text());
  EXPECT_EQ(parse_potential("(x+y)^2", 2).text(), "x^2 + 2*x*y + y^2");
  EXPECT_EQ(parse_potential("(x + y)*(x - y) + y^2", 2).text(), "x^2");
  EXPECT_EQ(parse_potential("x*y - y*x", 2).degree(), -1);
  EXPECT_EQ(parse_potential("q1^2 + q2*q3", 3).text(), parse_potential("x^2 + y*z", 3).text());
}

TEST(PolynomialText, TheCoordinatesUsedSetADimension) {
  EXPECT_EQ(parse_potential("7", 3).coordinates_used(), 0);
  EXPECT_EQ(parse_potential("x^2", 3).coordinates_used(), 1);
  EXPECT_EQ(parse_potential("x^2 + q3", 3).coordinates_used(), 3);
  EXPECT_EQ(parse_potential("y^2 + z*x - x*z", 3).coordinates_used(), 2);
}

TEST(PolynomialText, NumbersAndSigns) {
  EXPECT_EQ(parse_potential("-x^2", 1).text(), "-x^2");  // − binds looser than ^
  EXPECT_EQ(parse_potential("2*-x", 1).text(), "-2*x");
  EXPECT_EQ(parse_potential("1.5e-3*x + .25*x^2 + 3E2", 1).text(), "0.25*x^2 + 0.0015*x + 300");
  EXPECT_EQ(parse_potential(" \t 2 ^ 3 * x ", 1).text(), "8*x");
}

TEST(PolynomialText, TermsThatCancelLeaveNoResidue) {
  // In binary128, 0.3 − 0.1 − 0.2 leaves about 2^−113; the text means zero, and V stays even.
  const PolynomialTerms v = parse_potential("x^2 + (0.3 - 0.1 - 0.2)*x + 0.1*y*3 - 0.3*y", 2);
  EXPECT_EQ(v.text(), "x^2");
  EXPECT_TRUE(v.even_in(0));
  EXPECT_EQ(parse_potential("(0.1*x + 0.2*y)^3 - (0.2*y + 0.1*x)^3", 2).degree(), -1);
}

TEST(PolynomialText, CoefficientsRoundOnceAfterExpansion) {
  // In double, 0.1³·1000, 0.1²·100 and (1/7)²·49 round to 1 ± 2^−52; carried in binary128 and
  // rounded at the end they are 1.
  EXPECT_EQ(parse_potential("(0.1*x)^3*1000", 1).text(), "x^3");
  EXPECT_EQ(parse_potential("(0.1*x)^2*100 + (x/7)^2*49", 1).text(), "2*x^2");
  const PolynomialTerms v = parse_potential("y^3/3", 2);
  ASSERT_EQ(v.terms().size(), 1u);
  EXPECT_EQ(static_cast<double>(v.terms()[0].coefficient), 1.0 / 3);
  EXPECT_EQ(v.derivative(1).text(), "y^2");
}

struct Refusal {
  const char* text;
  int dimension;
  std::size_t column;
  const char* problem;
};

const Refusal kRefusals[] = {
    {"x^2 + y^^2", 2, 9, "unexpected '^'"},
    {"", 2, 1, "the text is empty"},
    {"   ", 2, 1, "the text is empty"},
    {"w*x", 2, 1, "unknown name 'w'"},
    {"2x", 2, 2, "unexpected 'x'"},
    {"x^2.5", 1, 3, "an exponent that is not a whole number"},
    {"x^-1", 1, 3, "a negative exponent"},
    {"x^(2)", 1, 3, "unexpected '('"},
    {"x/y", 2, 3, "division by an expression in the coordinates"},
    {"x/(y+1)", 2, 3, "division by an expression in the coordinates"},
    {"x/(2-2)", 1, 3, "division by zero"},
    {"(x+y", 2, 5, "a ')' is missing"},
    {"((x)", 1, 5, "a ')' is missing"},
    {"x)", 1, 2, "unexpected ')'"},
    {"(x y)", 2, 4, "unexpected 'y'"},
    {"(x+y)^7", 2, 6, "degree 7 is above the highest accepted, 6"},
    {"x^4 * y^3", 2, 5, "degree 7 is above the highest accepted, 6"},
    {"x^7", 1, 2, "degree 7 is above the highest accepted, 6"},
    {"q4", 3, 1, "unknown name 'q4'"},
    {"x*z", 2, 3, "'z' is not a coordinate of a 2-dimensional problem"},
    {"q2", 1, 1, "'q2' is not a coordinate of a 1-dimensional problem"},
    {"1e400*x", 1, 1, "the number 1e400 is beyond the range of double"},
    {"x + ", 1, 5, "a number, a coordinate or '(' is missing at the end"},
    {"x^2^2", 1, 4, "unexpected '^'"},
    {"x * * y", 2, 5, "unexpected '*'"},
    {"1e*x", 1, 2, "an exponent of ten without digits after 'e'"},
    {"x^", 1, 3, "an exponent is missing after '^'"},
    {"x + nan", 1, 5, "unknown name 'nan'"},
    {"x + inf", 1, 5, "unknown name 'inf'"},
    {"é + x", 1, 1, "unexpected 'é'"},
    {"x + é", 1, 5, "unexpected 'é'"},
};

TEST(PolynomialText, EachRefusalPointsAtItsCharacter) {
  for (const auto& r : kRefusals) {
    try {
      parse_potential(r.text, r.dimension);
      ADD_FAILURE() << "accepted: " << r.text;
    } catch (const TextParameterError& e) {
      EXPECT_EQ(e.column(), r.column) << r.text << ": " << e.what();
      EXPECT_EQ(e.problem(), r.problem) << r.text;
      EXPECT_EQ(e.parameter(), "potential");
      EXPECT_EQ(e.value(), r.text);
    }
  }
}

TEST(PolynomialText, TheMessageQuotesTheTextAndACaretMarksTheColumn) {
  try {
    parse_potential("x^2 + y^^2", 2);
    FAIL();
  } catch (const TextParameterError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "potential: \"x^2 + y^^2\": unexpected '^' at column 9; ", 0), 0u)
        << e.what();
    EXPECT_EQ(e.pointer(), "  x^2 + y^^2\n          ^");
  }
  try {
    parse_potential("x +\té", 1, "--potential");
    FAIL();
  } catch (const TextParameterError& e) {
    // The tab is shown as \t, two characters, and the caret follows it.
    EXPECT_EQ(e.column(), 5u);
    EXPECT_EQ(e.pointer(), "  x +\\té\n       ^");
    EXPECT_EQ(std::string(e.what()).rfind("--potential: ", 0), 0u);
  }
}

TEST(PolynomialText, ExpansionsBeyondDoubleAreRefused) {
  EXPECT_THROW(parse_potential("(1e200*x)^2", 1), ParameterError);
  EXPECT_THROW(parse_potential("10^400", 1), ParameterError);
}

}  // namespace
}  // namespace orrery

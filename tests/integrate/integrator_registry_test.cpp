// SPDX-License-Identifier: MIT
// The registry: names, orders and costs as the tables define them; unknown names refused with
// the valid ones; every array stepper constructible in every precision; the coefficient tables'
// own conditions; and the user guide's table generated from the registry.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/integrate/integrator_tables.hpp"

namespace orrery {
namespace {

TEST(IntegratorRegistry, ListsEveryIntegratorWithOrderAndCost) {
  struct Expected {
    const char* name;
    int order;
    IntegratorFamily family;
    int force_evaluations;
  };
  const std::vector<Expected> expected = {
      {"euler", 1, IntegratorFamily::explicit_runge_kutta, 1},
      {"symplectic-euler", 1, IntegratorFamily::splitting, 1},
      {"midpoint", 2, IntegratorFamily::explicit_runge_kutta, 2},
      {"rk4", 4, IntegratorFamily::explicit_runge_kutta, 4},
      {"fehlberg45", 4, IntegratorFamily::explicit_runge_kutta, 6},
      {"cash-karp", 5, IntegratorFamily::explicit_runge_kutta, 6},
      {"dopri5", 5, IntegratorFamily::explicit_runge_kutta, 7},
      {"verner65", 6, IntegratorFamily::explicit_runge_kutta, 8},
      {"fehlberg78", 7, IntegratorFamily::explicit_runge_kutta, 13},
      {"dop853", 8, IntegratorFamily::explicit_runge_kutta, 12},
      {"feagin10", 10, IntegratorFamily::explicit_runge_kutta, 17},
      {"feagin12", 12, IntegratorFamily::explicit_runge_kutta, 25},
      {"feagin14", 14, IntegratorFamily::explicit_runge_kutta, 35},
      {"leapfrog", 2, IntegratorFamily::splitting, 1},
      {"yoshida4", 4, IntegratorFamily::splitting, 3},
  };
  ASSERT_EQ(integrators().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const IntegratorInfo& info = integrators()[i];
    EXPECT_EQ(info.name, expected[i].name);
    EXPECT_EQ(info.order, expected[i].order) << info.name;
    EXPECT_EQ(info.family, expected[i].family) << info.name;
    EXPECT_EQ(info.force_evaluations, expected[i].force_evaluations) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(info.description.find('\n'), std::string_view::npos) << info.name;
    EXPECT_EQ(&find_integrator(info.name), &info);
  }
}

TEST(IntegratorRegistry, MarksTheSymplecticAndTheAdaptive) {
  std::vector<std::string> adaptive;
  for (const IntegratorInfo& info : integrators()) {
    EXPECT_EQ(info.symplectic, info.family == IntegratorFamily::splitting) << info.name;
    if (info.adaptive) adaptive.emplace_back(info.name);
  }
  EXPECT_EQ(adaptive, adaptive_integrator_names());
  EXPECT_EQ(adaptive, (std::vector<std::string>{"fehlberg45", "cash-karp", "dopri5", "verner65",
                                                 "fehlberg78", "dop853", "feagin10", "feagin12",
                                                 "feagin14"}));
}

TEST(IntegratorRegistry, RefusesAnUnknownNameWithTheValidOnes) {
  try {
    find_integrator("rk45");
    FAIL() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "integrator");
    EXPECT_EQ(e.value(), "rk45");
    EXPECT_EQ(e.accepted(),
              "one of: euler, symplectic-euler, midpoint, rk4, fehlberg45, cash-karp, dopri5, "
              "verner65, fehlberg78, dop853, feagin10, feagin12, feagin14, leapfrog, yoshida4");
  }
  EXPECT_THROW(make_array_stepper<double>("leapfrog2"), ParameterError);
  EXPECT_THROW(make_array_stepper<float>(""), ParameterError);
}

TEST(IntegratorRegistry, MakesEveryArrayStepperInEveryPrecision) {
  for (const std::string& name : integrator_names()) {
    EXPECT_NE(make_array_stepper<float>(name), nullptr) << name;
    EXPECT_NE(make_array_stepper<double>(name), nullptr) << name;
    EXPECT_NE(make_array_stepper<float128>(name), nullptr) << name;
  }
}

// Rows of up to 34 rounded coefficients of size up to ~40 (feagin14, dop853) sum in double to
// their node to a few of those coefficients' ulps (feagin14: 2·10⁻¹³); the same conditions hold
// to 10⁻²⁸ in float128 (embedded_pairs_test.cpp).
constexpr double kRowSumRounding = 1e-12;

// Consistency of every table: Σb = 1 and c_i = Σ_j a_ij; Σ drifts = Σ kicks = 1 exactly.
template <class Table>
void expect_consistent() {
  if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta) {
    double b = 0;
    for (int i = 0; i < Table::stages; ++i) {
      b += as_coefficient(Table::b(i)).value;
      double row = 0;
      for (int j = 0; j < i; ++j) row += as_coefficient(Table::a(i, j)).value;
      // Exact for the dyadic tables; to a few ulps for those of rounded fractions (dopri5).
      EXPECT_NEAR(row, as_coefficient(Table::c(i)).value, kRowSumRounding)
          << Table::name << " row " << i;
    }
    // RK4's 1/6 and 1/3 are rounded, so its weights sum to 1 only to rounding.
    EXPECT_NEAR(b, 1.0, kRowSumRounding) << Table::name;
  } else {
    double drift = 0, kick = 0;
    for (const SplitOp& op : Table::ops) (op.kind == SplitKind::drift ? drift : kick) += op.coefficient;
    EXPECT_EQ(drift, 1.0) << Table::name;
    EXPECT_EQ(kick, 1.0) << Table::name;
  }
}

TEST(IntegratorRegistry, TablesAreConsistent) {
  [&]<class... Tables>(TableList<Tables...>) {
    (expect_consistent<Tables>(), ...);
  }(IntegratorTables{});
}

// Yoshida's order conditions: 2 w1 + w0 = 1 exactly, 2 w1³ + w0³ = 0 to the rounding of w1, and
// w1 the double nearest 1/(2 − 2^{1/3}).
TEST(IntegratorRegistry, YoshidaCoefficientsMeetTheOrderConditions) {
  EXPECT_EQ(2 * yoshida::w1 + yoshida::w0, 1.0);
  const float128 w1 = yoshida::w1, w0 = yoshida::w0;
  EXPECT_LT(fabsq(2 * w1 * w1 * w1 + w0 * w0 * w0), 1e-15);
  const float128 exact = 1 / (2 - cbrtq(float128(2)));
  EXPECT_LE(fabsq(w1 - exact), float128(std::ldexp(1.0, -53)));
}

// docs/integrators.md holds the registry's table as generated; regenerate it from the expected
// text printed below when an integrator is added or changed.
TEST(IntegratorRegistry, DocsPageHoldsTheGeneratedTable) {
  std::ifstream in(std::string(ORRERY_DOCS_DIR) + "/integrators.md");
  ASSERT_TRUE(in) << "docs/integrators.md missing";
  std::stringstream page;
  page << in.rdbuf();
  const std::string text = page.str();
  const std::string table = integrators_markdown_table();
  const std::size_t at = text.find(table);
  // The whole table: a blank line before it, and no further row after it.
  const bool whole = at != std::string::npos && at >= 2 && text.compare(at - 2, 2, "\n\n") == 0 &&
                     (at + table.size() == text.size() || text[at + table.size()] != '|');
  EXPECT_TRUE(whole) << "docs/integrators.md must contain exactly this table:\n" << table;
}

}  // namespace
}  // namespace orrery

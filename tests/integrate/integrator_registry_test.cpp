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
#include "orrery/integrate/register_integrator.hpp"

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
      {"kutta3", 3, IntegratorFamily::explicit_runge_kutta, 3},
      {"rk4", 4, IntegratorFamily::explicit_runge_kutta, 4},
      {"fehlberg45", 4, IntegratorFamily::explicit_runge_kutta, 6},
      {"cash-karp", 5, IntegratorFamily::explicit_runge_kutta, 6},
      {"dopri5", 5, IntegratorFamily::explicit_runge_kutta, 7},
      {"tsit5", 5, IntegratorFamily::explicit_runge_kutta, 7},
      {"verner65", 6, IntegratorFamily::explicit_runge_kutta, 8},
      {"fehlberg78", 7, IntegratorFamily::explicit_runge_kutta, 13},
      {"dop853", 8, IntegratorFamily::explicit_runge_kutta, 12},
      {"feagin10", 10, IntegratorFamily::explicit_runge_kutta, 17},
      {"feagin12", 12, IntegratorFamily::explicit_runge_kutta, 25},
      {"feagin14", 14, IntegratorFamily::explicit_runge_kutta, 35},
      {"leapfrog", 2, IntegratorFamily::splitting, 1},
      {"yoshida4", 4, IntegratorFamily::splitting, 3},
      {"yoshida6", 6, IntegratorFamily::splitting, 7},
      {"yoshida8", 8, IntegratorFamily::splitting, 15},
      {"ab1", 1, IntegratorFamily::multistep, 1},
      {"ab2", 2, IntegratorFamily::multistep, 1},
      {"ab3", 3, IntegratorFamily::multistep, 1},
      {"ab4", 4, IntegratorFamily::multistep, 1},
      {"ab5", 5, IntegratorFamily::multistep, 1},
      {"abm4", 4, IntegratorFamily::multistep, 2},
      // Per sweep of the iteration: the stages that depend on the others.
      {"trapezoid", 2, IntegratorFamily::implicit_runge_kutta, 1},
      {"gauss-legendre4", 4, IntegratorFamily::implicit_runge_kutta, 2},
      {"gauss-legendre6", 6, IntegratorFamily::implicit_runge_kutta, 3},
      {"gauss-legendre8", 8, IntegratorFamily::implicit_runge_kutta, 4},
      {"lobatto3ab4", 4, IntegratorFamily::implicit_runge_kutta, 2},
      {"bulirsch-stoer", 8, IntegratorFamily::extrapolation, 21},  // 1 + 2 + 4 + 6 + 8
      {"leapfrog-block", 2, IntegratorFamily::block_steps, 1},
      {"ias15", 15, IntegratorFamily::ias15, 15},
      {"whfast", 2, IntegratorFamily::wisdom_holman, 1},
      // Order in the step where ε² h² stays below ε h^{2n} (saba_tables.hpp).
      {"saba1", 2, IntegratorFamily::wisdom_holman, 1},
      {"saba2", 4, IntegratorFamily::wisdom_holman, 2},
      {"saba3", 6, IntegratorFamily::wisdom_holman, 3},
      {"saba4", 8, IntegratorFamily::wisdom_holman, 4},
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

TEST(IntegratorRegistry, MarksTheSymplecticTheAdaptiveAndTheImplicit) {
  std::vector<std::string> adaptive, symplectic, implicit;
  for (const IntegratorInfo& info : integrators()) {
    if (info.adaptive) adaptive.emplace_back(info.name);
    if (info.symplectic) symplectic.emplace_back(info.name);
    if (info.implicit) implicit.emplace_back(info.name);
    EXPECT_EQ(info.implicit, info.family == IntegratorFamily::implicit_runge_kutta) << info.name;
  }
  EXPECT_EQ(adaptive, adaptive_integrator_names());
  EXPECT_EQ(adaptive, (std::vector<std::string>{"fehlberg45", "cash-karp", "dopri5", "tsit5",
                                                 "verner65", "fehlberg78", "dop853", "feagin10",
                                                 "feagin12", "feagin14", "bulirsch-stoer",
                                                 "ias15"}));
  EXPECT_EQ(symplectic,
            (std::vector<std::string>{"symplectic-euler", "leapfrog", "yoshida4", "yoshida6",
                                      "yoshida8", "gauss-legendre4", "gauss-legendre6",
                                      "gauss-legendre8", "lobatto3ab4", "whfast", "saba1",
                                      "saba2", "saba3", "saba4"}));
  EXPECT_EQ(implicit, (std::vector<std::string>{"trapezoid", "gauss-legendre4", "gauss-legendre6",
                                                "gauss-legendre8", "lobatto3ab4"}));
}

// The Adams methods with a Runge–Kutta starter have an array stepper only, and say so; each names
// a registered starter of its own order and takes k − 1 steps with it. Every other method has
// both steppers.
TEST(IntegratorRegistry, MarksTheArrayOnlyMethodsAndTheirStarters) {
  std::vector<std::string> array_only;
  [&]<class... Tables>(TableList<Tables...>) {
    ((find_integrator(Tables::name).register_stepper == has_register_stepper<Tables>
          ? void()
          : ADD_FAILURE() << Tables::name),
     ...);
  }(IntegratorTables{});
  for (const IntegratorInfo& info : integrators()) {
    if (!info.register_stepper) array_only.emplace_back(info.name);
    if (info.starter_steps == 0) {
      EXPECT_TRUE(info.starter.empty()) << info.name;
      continue;
    }
    EXPECT_EQ(info.family, IntegratorFamily::multistep) << info.name;
    EXPECT_EQ(info.starter_steps, info.order - 1) << info.name;  // a k-step method of order k
    EXPECT_EQ(find_integrator(info.starter).order, info.order) << info.name;
  }
  EXPECT_EQ(array_only,
            (std::vector<std::string>{"ab1", "ab2", "ab3", "ab4", "ab5", "abm4", "trapezoid",
                                      "gauss-legendre4", "gauss-legendre6", "gauss-legendre8",
                                      "lobatto3ab4", "bulirsch-stoer", "leapfrog-block", "ias15",
                                      "whfast", "saba1", "saba2", "saba3", "saba4"}));
}

// Stages, as sim --list shows them: a Runge–Kutta method's (explicit or implicit), a splitting
// method's force evaluations (the leapfrogs Yoshida composes).
TEST(IntegratorRegistry, CountsStages) {
  for (const auto& [name, stages] :
       std::vector<std::pair<std::string, int>>{{"rk4", 4},
                                                {"dopri5", 7},
                                                {"leapfrog", 1},
                                                {"yoshida6", 7},
                                                {"yoshida8", 15},
                                                {"trapezoid", 2},
                                                {"gauss-legendre8", 4},
                                                {"lobatto3ab4", 3}})
    EXPECT_EQ(find_integrator(name).stages, stages) << name;
}

TEST(IntegratorRegistry, RefusesAnUnknownNameWithTheValidOnes) {
  try {
    find_integrator("rk45");
    FAIL() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "integrator");
    EXPECT_EQ(e.value(), "rk45");
    EXPECT_EQ(e.accepted(),
              "one of: euler, symplectic-euler, midpoint, kutta3, rk4, fehlberg45, cash-karp, "
              "dopri5, tsit5, verner65, fehlberg78, dop853, feagin10, feagin12, feagin14, "
              "leapfrog, yoshida4, yoshida6, yoshida8, ab1, ab2, ab3, ab4, ab5, abm4, trapezoid, "
              "gauss-legendre4, gauss-legendre6, gauss-legendre8, lobatto3ab4, bulirsch-stoer, "
              "leapfrog-block, ias15, whfast, saba1, saba2, saba3, saba4");
  }
  EXPECT_THROW(make_array_stepper<double>("leapfrog2"), ParameterError);
  EXPECT_THROW(make_array_stepper<float>(""), ParameterError);
}

TEST(IntegratorRegistry, MakesEveryArrayStepperInEveryPrecision) {
  for (const IntegratorInfo& info : integrators()) {
    const std::string name(info.name);
    if (info.fp32)
      EXPECT_NE(make_array_stepper<float>(name), nullptr) << name;
    else
      EXPECT_THROW(make_array_stepper<float>(name), ParameterError) << name;
    EXPECT_NE(make_array_stepper<double>(name), nullptr) << name;
    EXPECT_NE(make_array_stepper<float128>(name), nullptr) << name;
  }
}

// Rows of up to 34 rounded coefficients of size up to ~40 (feagin14, dop853) sum in double to
// their node to a few of those coefficients' ulps (feagin14: 2·10⁻¹³); the same conditions hold
// to 10⁻²⁸ in float128 (embedded_pairs_test.cpp).
constexpr double kRowSumRounding = 1e-12;

// Consistency of every table: Σb = 1 and c_i = Σ_j a_ij; Σβ = 1; Σ drifts = Σ kicks = 1 exactly.
// (The implicit tables': tests/integrate/collocation_coefficients_test.cpp.)
template <class Table>
void expect_consistent() {
  if constexpr (Table::family == IntegratorFamily::implicit_runge_kutta) {
    return;
  } else if constexpr (Table::family == IntegratorFamily::block_steps) {
    // No table of coefficients: its kicks and drifts are leapfrog's halves and wholes.
  } else if constexpr (Table::family == IntegratorFamily::extrapolation) {
    // The step numbers increase (each line is a finer basic step).
    for (int j = 2; j <= Table::max_lines; ++j)
      EXPECT_LT(substeps<Table>(j - 1), substeps<Table>(j)) << Table::name;
  } else if constexpr (Table::family == IntegratorFamily::explicit_runge_kutta) {
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
  } else if constexpr (Table::family == IntegratorFamily::multistep) {
    double beta = 0;
    for (double b : Table::predictor) beta += b;
    EXPECT_DOUBLE_EQ(beta, 1.0) << Table::name;
  } else if constexpr (Table::family == IntegratorFamily::splitting) {
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

// Yoshida's order 6 (solution A) and 8 (solution D): the drifts are the composition's weights
// w_m … w_0 … w_m, the table is palindromic (time-symmetric), and the weights meet the order
// conditions Σ w^q = 0, q = 3, 5 (, 7), in float128 to what rounding each weight to the table's
// grid 2^−k allows: |Δ Σ w^q| ≤ Σ q |w|^{q−1} 2^{−k}. Yoshida's printed 15 digits (off by up to
// 10⁻¹² for order 8) would fail that; they agree with them to his precision. (Every condition,
// the non-linear ones too: splitting_order_conditions_test.cpp.)
template <class Table>
void expect_yoshida_weights(const std::vector<double>& printed, double printed_precision) {
  std::vector<float128> w;
  for (const SplitOp& op : Table::ops)
    if (op.kind == SplitKind::drift) w.push_back(op.coefficient);
  const std::size_t m = printed.size();
  ASSERT_EQ(w.size(), 2 * m + 1) << Table::name;
  for (std::size_t i = 0; i < Table::ops.size(); ++i) {
    EXPECT_EQ(Table::ops[i].kind, Table::ops[Table::ops.size() - 1 - i].kind) << Table::name;
    EXPECT_EQ(Table::ops[i].coefficient, Table::ops[Table::ops.size() - 1 - i].coefficient);
  }
  for (int q = 3; q < Table::order; q += 2) {
    float128 sum = 0, bound = 0;
    for (float128 x : w) {
      sum += powq(x, q);
      bound += q * powq(fabsq(x), q - 1) * ldexpq(1, -Table::grid_exponent);
    }
    EXPECT_LE(fabsq(sum), bound) << Table::name << " q = " << q;
  }
  for (std::size_t i = 0; i < m; ++i)  // w_1 … w_m sit after w_0 in the drifts
    EXPECT_NEAR(static_cast<double>(w[m + 1 + i]), printed[i], printed_precision) << Table::name;
}

TEST(IntegratorRegistry, Yoshida6And8WeightsMeetTheOrderConditions) {
  // GNI §V.3.2, 26 digits; the literal's rounding and the grid 2^−52 move a weight by
  // at most 2^−53 + 2^−54 < 1.7·10⁻¹⁶.
  expect_yoshida_weights<Yoshida6>(
      {-1.17767998417887100694641568, 0.23557321335935813368479318, 0.78451361047755726381949763},
      1.7e-16);
  // Yoshida (1990), Table 2, solution D, as printed.
  expect_yoshida_weights<Yoshida8>({0.102799849391985, -0.196061023297549e1, 0.193813913762276e1,
                                    -0.158240635368243, -0.144485223686048e1, 0.253693336566229,
                                    0.914844246229740},
                                   1.2e-12);
}

// docs/guide/integrators.md holds the registry's table as generated; regenerate it from the
// expected text printed below when an integrator is added or changed.
TEST(IntegratorRegistry, DocsPageHoldsTheGeneratedTable) {
  std::ifstream in(std::string(ORRERY_DOCS_DIR) + "/guide/integrators.md");
  ASSERT_TRUE(in) << "docs/guide/integrators.md missing";
  std::stringstream page;
  page << in.rdbuf();
  const std::string text = page.str();
  const std::string table = integrators_markdown_table();
  const std::size_t at = text.find(table);
  // The whole table: a blank line before it, and no further row after it.
  const bool whole = at != std::string::npos && at >= 2 && text.compare(at - 2, 2, "\n\n") == 0 &&
                     (at + table.size() == text.size() || text[at + table.size()] != '|');
  EXPECT_TRUE(whole) << "docs/guide/integrators.md must contain exactly this table:\n" << table;
}

}  // namespace
}  // namespace orrery

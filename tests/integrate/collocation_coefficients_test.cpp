// SPDX-License-Identifier: MIT
// The implicit methods' coefficients, computed in float128 from their nodes
// (integrate/implicit/nystrom_coefficients.hpp), against the closed forms printed in Hairer,
// Nørsett & Wanner II, Tables IV.5.1, IV.5.2, IV.5.6 and GNI Table II.2.1, and against the
// conditions that give each method its order and its symplecticity (GNI §II.1.3, §VI.4):
//
//   B(p): Σ_i b_i c_i^{k−1} = 1/k, k ≤ p     C(q): Σ_j a_ij c_j^{k−1} = c_i^k / k, k ≤ q
//   symplectic: b_i â_ij + b_j a_ji = b_i b_j
//
// Also: a float128 coefficient keeps its precision through the device's double-coefficient
// update (ArrayDevice::combine takes coefficients in the state's type).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "orrery/core/float128.hpp"
#include "orrery/device/cpu/host_array_device.hpp"
#include "orrery/integrate/implicit/collocation_tables.hpp"
#include "orrery/integrate/implicit/nystrom_coefficients.hpp"

namespace orrery {
namespace {

// The coefficients come from a few dozen float128 operations on the nodes (a Lagrange expansion,
// its integral): a hundred float128 ulps (u = 10⁻³⁴) covers them; coefficients rounded to
// doubles would miss by 10⁻¹⁷.
constexpr double kFloat128Agreement = 1e-31;

using Q = float128;
double gap(Q a, Q b) { return static_cast<double>(fabsq(a - b)); }

template <int S>
void expect_tableau(const NystromCoefficients<S, Q>& k, const std::array<std::array<Q, S>, S>& a,
                    const std::array<Q, S>& b, const std::array<Q, S>& c, const char* what) {
  for (int i = 0; i < S; ++i) {
    EXPECT_LE(gap(k.b[i], b[i]), kFloat128Agreement) << what << " b" << i;
    EXPECT_LE(gap(k.c[i], c[i]), kFloat128Agreement) << what << " c" << i;
    for (int j = 0; j < S; ++j)
      EXPECT_LE(gap(k.a[i][j], a[i][j]), kFloat128Agreement) << what << " a" << i << j;
  }
}

TEST(CollocationCoefficients, GaussLegendreMatchTheClosedForms) {
  const Q s3 = sqrtq(Q(3)), s15 = sqrtq(Q(15));
  const Q h = Q(1) / 2, f = Q(1) / 4;
  expect_tableau<2>(nystrom_coefficients<GaussLegendre4, Q>(),
                    {{{f, f - s3 / 6}, {f + s3 / 6, f}}}, {h, h}, {h - s3 / 6, h + s3 / 6},
                    "gauss-legendre4");
  const Q p = Q(5) / 36, m = Q(2) / 9;
  expect_tableau<3>(nystrom_coefficients<GaussLegendre6, Q>(),
                    {{{p, m - s15 / 15, p - s15 / 30},
                      {p + s15 / 24, m, p - s15 / 24},
                      {p + s15 / 30, m + s15 / 15, p}}},
                    {Q(5) / 18, Q(4) / 9, Q(5) / 18}, {h - s15 / 10, h, h + s15 / 10},
                    "gauss-legendre6");
}

TEST(CollocationCoefficients, LobattoAndTrapezoidMatchThePrintedTables) {
  const auto k = nystrom_coefficients<LobattoIIIAB4, Q>();
  const Q sixth = Q(1) / 6;
  expect_tableau<3>(k,
                    {{{Q(0), Q(0), Q(0)},
                      {Q(5) / 24, Q(1) / 3, -Q(1) / 24},
                      {sixth, Q(2) / 3, sixth}}},
                    {sixth, Q(2) / 3, sixth}, {Q(0), Q(1) / 2, Q(1)}, "lobatto IIIA");
  const std::array<std::array<Q, 3>, 3> iiib = {
      {{sixth, -sixth, Q(0)}, {sixth, Q(1) / 3, Q(0)}, {sixth, Q(5) / 6, Q(0)}}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_LE(gap(k.a_hat[i][j], iiib[i][j]), kFloat128Agreement) << "IIIB " << i << j;
  const Q h = Q(1) / 2;
  expect_tableau<2>(nystrom_coefficients<TrapezoidalRule, Q>(), {{{Q(0), Q(0)}, {h, h}}},
                    {h, h}, {Q(0), Q(1)}, "trapezoid");
}

// B(order) and C(stages) (every table is a collocation method), the symplecticity condition
// where the method claims it (and its failure where not), and ā = a â.
template <class Table>
void expect_order_and_structure() {
  constexpr int S = Table::stages;
  const auto k = nystrom_coefficients<Table, Q>();
  for (int order = 1; order <= Table::order; ++order) {
    Q sum(0);
    for (int i = 0; i < S; ++i) sum += k.b[i] * powq(k.c[i], order - 1);
    EXPECT_LE(gap(sum, Q(1) / order), kFloat128Agreement) << Table::name << " B" << order;
  }
  for (int power = 1; power <= S; ++power)
    for (int i = 0; i < S; ++i) {
      Q sum(0);
      for (int j = 0; j < S; ++j) sum += k.a[i][j] * powq(k.c[j], power - 1);
      EXPECT_LE(gap(sum, powq(k.c[i], power) / power), kFloat128Agreement)
          << Table::name << " C" << power << " row " << i;
    }
  double worst = 0;  // of the symplecticity condition
  for (int i = 0; i < S; ++i)
    for (int j = 0; j < S; ++j) {
      worst = std::max(worst, gap(k.b[i] * k.a_hat[i][j] + k.b[j] * k.a[j][i], k.b[i] * k.b[j]));
      Q bar(0);
      for (int m = 0; m < S; ++m) bar += k.a[i][m] * k.a_hat[m][j];
      EXPECT_LE(gap(k.a_bar[i][j], bar), kFloat128Agreement) << Table::name;
    }
  if (Table::symplectic)
    EXPECT_LE(worst, kFloat128Agreement) << Table::name;
  else
    EXPECT_GT(worst, 0.1) << Table::name << " is not symplectic";
}

TEST(CollocationCoefficients, MeetTheirOrderAndSymplecticityConditions) {
  expect_order_and_structure<TrapezoidalRule>();
  expect_order_and_structure<GaussLegendre4>();
  expect_order_and_structure<GaussLegendre6>();
  expect_order_and_structure<GaussLegendre8>();
  expect_order_and_structure<LobattoIIIAB4>();
  // Order 8 is the most B(p) can give with 4 nodes: B(9) fails.
  const auto k = nystrom_coefficients<GaussLegendre8, Q>();
  Q sum(0);
  for (int i = 0; i < 4; ++i) sum += k.b[i] * powq(k.c[i], 8);
  EXPECT_GT(gap(sum, Q(1) / 9), 1e-6);
}

template <class Table>
int implicit_stages() {
  return nystrom_coefficients<Table, double>().implicit_stages();
}

TEST(CollocationCoefficients, OnlyTheStagesAtXAreExplicit) {
  EXPECT_EQ(implicit_stages<TrapezoidalRule>(), 1);
  EXPECT_EQ(implicit_stages<LobattoIIIAB4>(), 2);
  EXPECT_EQ(implicit_stages<GaussLegendre4>(), 2);
  EXPECT_EQ(implicit_stages<GaussLegendre8>(), 4);
}

// out = y + h·c·k with c = 1/3 in float128: the double-coefficient update alone would give
// c rounded to 53 bits (off by 2·10⁻¹⁷); the float128 one is within an ulp or two of float128.
TEST(CollocationCoefficients, Float128CoefficientsKeepTheirPrecisionOnTheDevice) {
  HostArrayDevice<Q> device(1);
  DeviceBuffer<Q> y = device.allocate(1), k = device.allocate(1), out = device.allocate(1);
  const Q one[1] = {Q(1)};
  device.copy_to_device(one, k);
  const Q third = Q(1) / 3;
  const Q c[1] = {third};
  const DeviceBuffer<Q>* terms[1] = {&k};
  device.combine(out, y, Q(1), c, terms);
  Q got[1];
  device.copy_to_host(out, got);
  EXPECT_LE(gap(got[0], third), 1e-33);
  const Q rounded[1] = {Q(static_cast<double>(third))};
  device.combine(out, y, Q(1), rounded, terms);
  device.copy_to_host(out, got);
  EXPECT_GT(gap(got[0], third), 1e-18);
}

}  // namespace
}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "orrery/physics/polynomial_terms.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace orrery {

namespace {

bool graded_before(const PolynomialTerm& a, const PolynomialTerm& b) {
  if (a.degree() != b.degree()) return a.degree() > b.degree();
  return a.power > b.power;
}

// The shortest decimal text that reads back to the double nearest to c.
std::string shortest(float128 c) { return fmt::format("{}", static_cast<double>(c)); }

}  // namespace

PolynomialTerms::PolynomialTerms(std::vector<PolynomialTerm> terms, int dimension)
    : dimension_(dimension) {
  if (dimension < 1 || dimension > 3)
    throw std::logic_error("PolynomialTerms: a dimension of 1 to 3");
  std::sort(terms.begin(), terms.end(), graded_before);
  for (const auto& t : terms) {
    if (!terms_.empty() && terms_.back().power == t.power)
      terms_.back().coefficient += t.coefficient;
    else
      terms_.push_back(t);
  }
  std::erase_if(terms_, [](const PolynomialTerm& t) { return t.coefficient == 0; });
}

int PolynomialTerms::degree() const { return terms_.empty() ? -1 : terms_.front().degree(); }

int PolynomialTerms::coordinates_used() const {
  int used = 0;
  for (const auto& t : terms_)
    for (int i = 0; i < 3; ++i)
      if (t.power[i] > 0) used = std::max(used, i + 1);
  return used;
}

bool PolynomialTerms::even_in(int i) const {
  return std::all_of(terms_.begin(), terms_.end(),
                     [i](const PolynomialTerm& t) { return t.power[i] % 2 == 0; });
}

PotentialShape PolynomialTerms::shape() const {
  PotentialShape s{dimension_, std::max(2, degree()), 0};
  for (int i = 0; i < dimension_; ++i)
    if (even_in(i)) s.parity |= static_cast<unsigned>(VariableParity::even) << (2 * i);
  return s;
}

PolynomialTerms PolynomialTerms::derivative(int i) const {
  std::vector<PolynomialTerm> out;
  for (const auto& t : terms_) {
    if (t.power[i] == 0) continue;
    PolynomialTerm d = t;
    d.coefficient *= t.power[i];
    --d.power[i];
    out.push_back(d);
  }
  return PolynomialTerms(std::move(out), dimension_);
}

float128 PolynomialTerms::value(const std::array<float128, 3>& q) const {
  float128 sum = 0;
  for (const auto& t : terms_) {
    float128 m = t.coefficient;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < t.power[i]; ++k) m *= q[i];
    sum += m;
  }
  return sum;
}

std::string PolynomialTerms::text() const {
  if (terms_.empty()) return "0";
  static constexpr const char* kName[3] = {"x", "y", "z"};
  std::string out;
  for (const auto& t : terms_) {
    const bool negative = t.coefficient < 0;
    if (out.empty())
      out += negative ? "-" : "";
    else
      out += negative ? " - " : " + ";
    const float128 magnitude = negative ? -t.coefficient : t.coefficient;
    std::string factors;
    for (int i = 0; i < 3; ++i) {
      if (t.power[i] == 0) continue;
      if (!factors.empty()) factors += "*";
      factors += kName[i];
      if (t.power[i] > 1) factors += fmt::format("^{}", t.power[i]);
    }
    if (factors.empty())
      out += shortest(magnitude);
    else if (static_cast<double>(magnitude) == 1)
      out += factors;
    else
      out += shortest(magnitude) + "*" + factors;
  }
  return out;
}

}  // namespace orrery

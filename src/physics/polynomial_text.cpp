// SPDX-License-Identifier: MIT
#include "orrery/physics/polynomial_text.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <string>

#include <fmt/format.h>

namespace orrery {

namespace {

// A polynomial while it is being built: powers → coefficient, and its degree.
using Terms = std::map<std::array<int, 3>, float128>;

int degree_of(const Terms& t) {
  int d = -1;
  for (const auto& [power, c] : t)
    if (c != 0) d = std::max(d, power[0] + power[1] + power[2]);
  return d;
}

Terms constant(float128 c) { return Terms{{{0, 0, 0}, c}}; }

// A sum below 2^−104 of its larger operand is what is left of binary128 rounding (2^−113 an
// operation) when terms cancel, as in 0.3*x - 0.1*x - 0.2*x: it is zero. Without this, such a
// residue would keep a monomial, and with it a coordinate's parity, that the text cancels.
// (Exact operands that differ below 2^−104 would need integers above 2^104.)
const float128 kCancelled = static_cast<float128>(0x1p-104);

void accumulate(float128& into, float128 add) {
  const float128 total = into + add;
  into = fabsq(total) <= kCancelled * std::max(fabsq(into), fabsq(add)) ? 0 : total;
}

Terms sum(Terms a, const Terms& b, float128 sign) {
  for (const auto& [power, c] : b) accumulate(a[power], sign * c);
  return a;
}

Terms product(const Terms& a, const Terms& b) {
  Terms out;
  for (const auto& [pa, ca] : a)
    for (const auto& [pb, cb] : b)
      accumulate(out[{pa[0] + pb[0], pa[1] + pb[1], pa[2] + pb[2]}], ca * cb);
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, int dimension, std::string_view parameter)
      : text_(text), dimension_(dimension), parameter_(parameter) {}

  Terms parse() {
    skip_space();
    if (at_end())
      fail(0, "the text is empty");
    Terms v = parse_sum();
    skip_space();
    if (!at_end()) {
      if (peek() == ')') fail(pos_, "unexpected ')'", "no '(' before it is open");
      fail(pos_, "unexpected " + quoted(pos_),
           "an operator +, -, *, / or ^ goes between two factors, as in 2*x");
    }
    return v;
  }

 private:
  Terms parse_sum() {
    Terms v = parse_product();
    for (;;) {
      skip_space();
      if (at_end() || (peek() != '+' && peek() != '-')) return v;
      const float128 sign = peek() == '+' ? 1 : -1;
      ++pos_;
      v = sum(std::move(v), parse_product(), sign);
    }
  }

  Terms parse_product() {
    Terms v = parse_signed();
    for (;;) {
      skip_space();
      if (at_end() || (peek() != '*' && peek() != '/')) return v;
      const std::size_t op = pos_++;
      skip_space();
      const std::size_t operand = pos_;
      const Terms w = parse_signed();
      if (text_[op] == '*') {
        const int d = degree_of(v) + degree_of(w);
        if (d > kMaxPotentialDegree) fail(op, degree_problem(d));
        v = product(v, w);
      } else {
        if (degree_of(w) > 0)
          fail(operand, "division by an expression in the coordinates",
               "only a number may divide");
        const float128 divisor = w.count({0, 0, 0}) ? w.at({0, 0, 0}) : 0;
        if (divisor == 0) fail(operand, "division by zero");
        for (auto& [power, c] : v) c /= divisor;
      }
    }
  }

  Terms parse_signed() {
    skip_space();
    if (!at_end() && (peek() == '-' || peek() == '+')) {
      const float128 sign = peek() == '-' ? -1 : 1;
      ++pos_;
      Terms v = parse_signed();
      for (auto& [power, c] : v) c *= sign;
      return v;
    }
    return parse_power();
  }

  Terms parse_power() {
    Terms base = parse_primary();
    skip_space();
    if (at_end() || peek() != '^') return base;
    const std::size_t op = pos_++;
    skip_space();
    if (at_end()) fail(pos_, "an exponent is missing after '^'");
    if (peek() == '-') fail(pos_, "a negative exponent", "exponents are whole numbers 0, 1, 2, ...");
    if (!std::isdigit(static_cast<unsigned char>(peek())))
      fail(pos_, "unexpected " + quoted(pos_), "an exponent is a whole number written in digits");
    const std::size_t start = pos_;
    long long n = 0;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) {
      n = std::min<long long>(n * 10 + (peek() - '0'), 1'000'000);
      ++pos_;
    }
    if (!at_end() && (peek() == '.' || peek() == 'e' || peek() == 'E'))
      fail(start, "an exponent that is not a whole number",
           "exponents are whole numbers 0, 1, 2, ...");
    const int d = degree_of(base);
    if (d > 0 && n * d > kMaxPotentialDegree) fail(op, degree_problem(n * d));
    // By squaring: a number may be raised to a large power (10^300).
    Terms out = constant(1);
    for (Terms square = base; n > 0; n >>= 1) {
      if (n & 1) out = product(out, square);
      if (!finite_as_double(out)) fail(start, "a power beyond the range of double");
      if (n > 1) square = product(square, square);
    }
    return out;
  }

  Terms parse_primary() {
    skip_space();
    if (at_end())
      fail(pos_, "a number, a coordinate or '(' is missing at the end");
    const char c = peek();
    if (c == '(') {
      const std::size_t open = pos_++;
      Terms v = parse_sum();
      skip_space();
      if (at_end())
        fail(pos_, "a ')' is missing", fmt::format("to close the '(' at column {}", column(open)));
      if (peek() != ')')
        fail(pos_, "unexpected " + quoted(pos_),
             fmt::format("an operator, or the ')' that closes the '(' at column {}",
                         column(open)));
      ++pos_;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parse_name();
    fail(pos_, "unexpected " + quoted(pos_), "a number, a coordinate or '(' goes here");
  }

  Terms parse_number() {
    const std::size_t start = pos_;
    const auto digits = [&] {
      std::size_t n = 0;
      while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) ++pos_, ++n;
      return n;
    };
    std::size_t mantissa = digits();
    if (!at_end() && peek() == '.') {
      ++pos_;
      mantissa += digits();
    }
    if (mantissa == 0) fail(start, "a '.' without digits");
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      const std::size_t e = pos_++;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
      if (digits() == 0) fail(e, "an exponent of ten without digits after 'e'");
    }
    const std::string literal(text_.substr(start, pos_ - start));
    const float128 value = strtoflt128(literal.c_str(), nullptr);
    if (!(value <= static_cast<float128>(std::numeric_limits<double>::max())))
      fail(start, fmt::format("the number {} is beyond the range of double", literal));
    return constant(value);
  }

  Terms parse_name() {
    const std::size_t start = pos_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_'))
      ++pos_;
    const std::string_view name = text_.substr(start, pos_ - start);
    int index = -1;
    if (name == "x" || name == "q1") index = 0;
    if (name == "y" || name == "q2") index = 1;
    if (name == "z" || name == "q3") index = 2;
    if (index < 0) {
      const bool number_before = start > 0 && std::isdigit(static_cast<unsigned char>(
                                                   text_[start - 1]));
      fail(start, fmt::format("unknown name '{}'", shown_text(name)),
           number_before ? "write 2*x, not 2x" : "the coordinates are " + coordinates());
    }
    if (index >= dimension_)
      fail(start, fmt::format("'{}' is not a coordinate of a {}-dimensional problem", name,
                              dimension_),
           "its coordinates are " + coordinates());
    Terms v;
    std::array<int, 3> power{};
    power[index] = 1;
    v[power] = 1;
    return v;
  }

  static bool finite_as_double(const Terms& t) {
    for (const auto& [power, c] : t)
      if (!(fabsq(c) <= static_cast<float128>(std::numeric_limits<double>::max()))) return false;
    return true;
  }

  std::string degree_problem(long long degree) const {
    return fmt::format("degree {} is above the highest accepted, {}", degree,
                       kMaxPotentialDegree);
  }

  std::string coordinates() const {
    std::string xyz, q;
    for (int i = 0; i < dimension_; ++i) {
      xyz += std::string(i ? ", " : "") + "xyz"[i];
      q += fmt::format("{}q{}", i ? ", " : "", i + 1);
    }
    return fmt::format("{} (or {})", xyz, q);
  }

  std::string accepted() const {
    return fmt::format("a polynomial in {} of degree at most {}", coordinates(),
                       kMaxPotentialDegree);
  }

  // The character at byte `at`, quoted as a message shows it.
  std::string quoted(std::size_t at) const {
    std::size_t n = 1;
    while (at + n < text_.size() && (static_cast<unsigned char>(text_[at + n]) & 0xC0) == 0x80)
      ++n;
    return fmt::format("'{}'", shown_text(text_.substr(at, n)));
  }

  // Columns count characters from 1 (UTF-8 continuation bytes are not characters).
  std::size_t column(std::size_t at) const {
    std::size_t c = 1;
    for (std::size_t i = 0; i < at && i < text_.size(); ++i)
      c += (static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80;
    return c;
  }

  [[noreturn]] void fail(std::size_t at, std::string problem, std::string hint = "") const {
    throw TextParameterError(std::string(parameter_), std::string(text_), column(at),
                             std::move(problem), accepted(), std::move(hint));
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }

  std::string_view text_;
  int dimension_;
  std::string_view parameter_;
  std::size_t pos_ = 0;
};

}  // namespace

PolynomialTerms parse_potential(std::string_view text, int dimension,
                                std::string_view parameter) {
  if (dimension < 1 || dimension > 3)
    throw std::logic_error("parse_potential: a dimension of 1 to 3");
  const Terms v = Parser(text, dimension, parameter).parse();
  std::vector<PolynomialTerm> terms;
  for (const auto& [power, c] : v) {
    if (!(fabsq(c) <= static_cast<float128>(std::numeric_limits<double>::max())))
      throw ParameterError(std::string(parameter), std::string(text),
                           "a polynomial whose expanded coefficients are within the range of "
                           "double");
    terms.push_back({power, c});
  }
  PolynomialTerms p(std::move(terms), dimension);
  // An expansion whose terms of the highest degrees cancel may end below the cap it was checked
  // against on the way: nothing more to refuse.
  return p;
}

}  // namespace orrery

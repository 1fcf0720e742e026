// SPDX-License-Identifier: MIT
#include "orrery/core/parameter.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace orrery {

namespace {

bool parse_int(std::string_view s, std::int64_t& out) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

bool parse_double(std::string_view s, double& out) {
  // from_chars rejects a leading '+', which people do write.
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

const char* rule_words(RealRule rule) {
  switch (rule) {
    case RealRule::Finite: return "a finite number";
    case RealRule::Positive: return "a finite number > 0";
    case RealRule::NonNegative: return "a finite number >= 0";
  }
  return "";
}

bool obeys(double x, RealRule rule) {
  if (!std::isfinite(x)) return false;
  switch (rule) {
    case RealRule::Finite: return true;
    case RealRule::Positive: return x > 0;
    case RealRule::NonNegative: return x >= 0;
  }
  return false;
}

}  // namespace

std::string describe_kind(const ParamSpec& spec) {
  switch (spec.kind) {
    case ParamKind::Integer: return "an integer";
    case ParamKind::Real: return "a number";
    case ParamKind::Reals:
      return fmt::format("{} numbers separated by '{}'", spec.count, spec.separator);
    case ParamKind::Choice: return fmt::format("one of: {}", fmt::join(spec.choices, ", "));
    case ParamKind::Text: return "a text";
    case ParamKind::Flag: return "true or false";
  }
  return "";
}

std::string format_param_value(const ParamValue& value, char separator) {
  struct Visitor {
    char sep;
    std::string operator()(std::int64_t v) const { return fmt::format("{}", v); }
    std::string operator()(double v) const { return fmt::format("{}", v); }
    std::string operator()(const std::vector<double>& v) const {
      return fmt::format("{}", fmt::join(v, std::string(1, sep)));
    }
    std::string operator()(const std::string& v) const { return v; }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
  };
  return std::visit(Visitor{separator}, value);
}

ParamValue parse_param_text(const ParamSpec& spec, std::string_view text) {
  const std::string accepted = describe_kind(spec);
  auto refuse = [&]() { return ParameterError(spec.name, std::string(text), accepted); };
  switch (spec.kind) {
    case ParamKind::Integer: {
      std::int64_t v = 0;
      if (!parse_int(trim(text), v)) throw refuse();
      return v;
    }
    case ParamKind::Real: {
      double v = 0;
      if (!parse_double(trim(text), v)) throw refuse();
      return v;
    }
    case ParamKind::Reals: {
      std::vector<double> xs;
      std::string_view rest = text;
      while (true) {
        auto cut = rest.find(spec.separator);
        double v = 0;
        if (!parse_double(trim(rest.substr(0, cut)), v)) throw refuse();
        xs.push_back(v);
        if (cut == std::string_view::npos) break;
        rest.remove_prefix(cut + 1);
      }
      if (spec.count > 0 && static_cast<int>(xs.size()) != spec.count) throw refuse();
      return xs;
    }
    case ParamKind::Choice:
      for (const auto& c : spec.choices)
        if (c == text) return std::string(text);
      throw refuse();
    case ParamKind::Text: return std::string(text);
    case ParamKind::Flag:
      if (text == "true" || text == "1") return true;
      if (text == "false" || text == "0") return false;
      throw refuse();
  }
  throw refuse();
}

std::int64_t require_integer(std::string_view name, const ParamValue& v, std::int64_t min,
                             std::int64_t max) {
  const auto* x = std::get_if<std::int64_t>(&v);
  std::string accepted = max == std::numeric_limits<std::int64_t>::max()
                             ? fmt::format("an integer >= {}", min)
                             : fmt::format("an integer from {} to {}", min, max);
  if (!x || *x < min || *x > max)
    throw ParameterError(std::string(name), format_param_value(v), accepted);
  return *x;
}

double require_real(std::string_view name, const ParamValue& v, RealRule rule) {
  double x = 0;
  if (const auto* d = std::get_if<double>(&v))
    x = *d;
  else if (const auto* i = std::get_if<std::int64_t>(&v))
    x = static_cast<double>(*i);
  else
    throw ParameterError(std::string(name), format_param_value(v), rule_words(rule));
  if (!obeys(x, rule))
    throw ParameterError(std::string(name), format_param_value(v), rule_words(rule));
  return x;
}

std::vector<double> require_reals(std::string_view name, const ParamValue& v, std::size_t count,
                                  RealRule rule) {
  const auto* xs = std::get_if<std::vector<double>>(&v);
  std::string accepted = fmt::format("{} values, each {}", count, rule_words(rule));
  if (!xs || xs->size() != count)
    throw ParameterError(std::string(name), format_param_value(v), accepted);
  for (double x : *xs)
    if (!obeys(x, rule)) throw ParameterError(std::string(name), format_param_value(v), accepted);
  return *xs;
}

std::array<double, 2> require_interval(std::string_view name, const ParamValue& v) {
  const auto* xs = std::get_if<std::vector<double>>(&v);
  // The width B - A is finite too: a window is cut into pixels or cells by its width.
  const char* accepted = "an interval A:B of finite numbers with A < B and a finite width B - A";
  if (!xs || xs->size() != 2 || !std::isfinite((*xs)[0]) || !std::isfinite((*xs)[1]) ||
      !((*xs)[0] < (*xs)[1]) || !std::isfinite((*xs)[1] - (*xs)[0]))
    throw ParameterError(std::string(name), format_param_value(v, ':'), accepted);
  return {(*xs)[0], (*xs)[1]};
}

const std::string& require_choice(std::string_view name, const ParamValue& v,
                                  std::span<const std::string> choices) {
  const auto* s = std::get_if<std::string>(&v);
  if (s)
    for (const auto& c : choices)
      if (c == *s) return c;
  throw ParameterError(std::string(name), format_param_value(v),
                       fmt::format("one of: {}", fmt::join(choices, ", ")));
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// A real parameter confined to an interval (a fraction in (0, 1), an eccentricity in [0, 1)),
// refused with the interval in words.
#pragma once

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "orrery/core/parameter.hpp"

namespace orrery {

struct RealBound {
  double value;
  bool closed;  // the bound itself is accepted
};

template <class P>
ParamField<P> bounded_real_field(std::string name, std::string help, double P::*member,
                                 RealBound lo, RealBound hi) {
  ParamField<P> f{name, std::move(help), ParamKind::Real};
  const std::string accepted = fmt::format("a number {} {} and {} {}", lo.closed ? ">=" : ">",
                                           lo.value, hi.closed ? "<=" : "<", hi.value);
  f.set = [name, member, lo, hi, accepted](P& p, const ParamValue& v) {
    const double x = require_real(name, v, RealRule::Finite);
    const bool above = lo.closed ? x >= lo.value : x > lo.value;
    const bool below = hi.closed ? x <= hi.value : x < hi.value;
    if (!above || !below) throw ParameterError(name, format_param_value(v), accepted);
    p.*member = x;
  };
  f.get = [member](const P& p) { return ParamValue{p.*member}; };
  return f;
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "orrery/io/param_attributes.hpp"

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/io/hdf5_file.hpp"

namespace orrery {

void write_param_attribute(hid_t object, const std::string& name, const ParamValue& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>>)
          h5::write_attribute(object, name, std::span<const double>(v));
        else if constexpr (std::is_same_v<T, bool>)
          h5::write_attribute(object, name, std::int64_t{v ? 1 : 0});
        else
          h5::write_attribute(object, name, v);
      },
      value);
}

ParamValue read_param_attribute(hid_t object, const ParamSpec& spec) {
  if (!h5::has_attribute(object, spec.name))
    throw InputError(fmt::format("the file has no attribute '{}'", spec.name));
  const h5::Attribute a = h5::read_attribute(object, spec.name);
  using T = h5::Attribute::Type;
  switch (spec.kind) {
    case ParamKind::Integer:
      if (a.type == T::Integer) return a.integer;
      break;
    case ParamKind::Real:
      if (a.type == T::Real) return a.reals.at(0);
      break;
    case ParamKind::Reals:
      if (a.type == T::Reals || a.type == T::Real) return a.reals;
      break;
    case ParamKind::Choice:
    case ParamKind::Text:
      if (a.type == T::Text) return a.text;
      break;
    case ParamKind::Flag:
      if (a.type == T::Integer) return a.integer != 0;
      break;
  }
  throw InputError(fmt::format("attribute '{}' has the wrong type", spec.name));
}

}  // namespace orrery

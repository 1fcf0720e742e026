// SPDX-License-Identifier: MIT
#include "orrery/core/error.hpp"

#include <fmt/format.h>

namespace orrery {

ParameterError::ParameterError(std::string parameter, std::string value, std::string accepted)
    : InputError(fmt::format("{}: {} is not accepted (expected {})", parameter,
                             value.empty() ? "an empty value" : value, accepted)),
      parameter_(std::move(parameter)),
      value_(std::move(value)),
      accepted_(std::move(accepted)) {}

ParameterError ParameterError::renamed(std::string parameter) const {
  return ParameterError(std::move(parameter), value_, accepted_);
}

}  // namespace orrery

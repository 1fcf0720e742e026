// SPDX-License-Identifier: MIT
// Errors are values a user can act on. InputError: something the user gave (a flag, a config
// value, a file) is refused before work starts; the CLI prints it on one line and exits with
// status 2. RunError: a run failed on its way (a write, a device); exit status 1.
#pragma once

#include <stdexcept>
#include <string>

namespace orrery {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A parameter whose value is outside what is accepted. The message names all three:
//   "--dt: -1 is not accepted (expected a finite number > 0)".
class ParameterError : public InputError {
 public:
  ParameterError(std::string parameter, std::string value, std::string accepted);

  const std::string& parameter() const { return parameter_; }
  const std::string& value() const { return value_; }
  const std::string& accepted() const { return accepted_; }

  // The same error under the name the user wrote (a flag, or a key of a config file).
  ParameterError renamed(std::string parameter) const;

 private:
  std::string parameter_, value_, accepted_;
};

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace orrery

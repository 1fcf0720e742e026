// SPDX-License-Identifier: MIT
// Errors are values a user can act on. InputError: something the user gave (a flag, a config
// value, a file) is refused before work starts; the CLI prints it on one line and exits with
// status 2. RunError: a run failed on its way (a write, a device); exit status 1.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace orrery {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Text from a user or a file as a message shows it: bytes that would act on a terminal (control
// bytes, ESC, NUL) and bytes that are not UTF-8 are written as \xNN (\n, \t, \r as such), and
// text beyond `limit` characters is cut with "... (N more bytes)", so a message stays one line
// whatever the input held.
inline constexpr std::size_t kShownValueLimit = 80;
std::string shown_text(std::string_view text, std::size_t limit = kShownValueLimit);

// A parameter whose value is outside what is accepted. The message names all three:
//   "--dt: -1 is not accepted (expected a finite number > 0)".
// The parameter and value are shown with shown_text (the value cut at kShownValueLimit).
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

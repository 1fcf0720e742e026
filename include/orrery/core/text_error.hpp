// SPDX-License-Identifier: MIT
// A parameter whose value is a text with a syntax (a potential written as a polynomial) refused
// at one character. what() is one line that names the parameter, quotes the text and gives the
// column:
//   potential: "x^2 + y^^2": unexpected '^' at column 9 (expected a polynomial in x, y)
// and pointer() the two lines a face may print below it, the text and a caret under the column:
//   x^2 + y^^2
//           ^
#pragma once

#include <cstddef>
#include <string>

#include "orrery/core/error.hpp"

namespace orrery {

class TextParameterError : public ParameterError {
 public:
  // `column` counts characters from 1; one past the end points after the text.
  // `hint`, where not empty, follows the column: "...at column 2; write 2*x, not 2x".
  TextParameterError(std::string parameter, std::string text, std::size_t column,
                     std::string problem, std::string accepted, std::string hint = "");

  std::size_t column() const { return column_; }
  const std::string& problem() const { return problem_; }
  std::string pointer() const;
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::size_t column_;
  std::string problem_, message_;
};

}  // namespace orrery

// SPDX-License-Identifier: MIT
#include "orrery/core/text_error.hpp"

#include <fmt/format.h>

namespace orrery {

namespace {

// The text as pointer() shows it: longer than a message's quote, so a caret far into a long
// potential still has its character above it.
constexpr std::size_t kPointerTextLimit = 4 * kShownValueLimit;

// Characters (UTF-8 code points) in a shown text: the caret's indent.
std::size_t characters(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The first `count` characters of `text` (code points; bytes that are not UTF-8 count one each).
std::string leading_characters(const std::string& text, std::size_t count) {
  std::size_t i = 0;
  for (std::size_t seen = 0; i < text.size() && seen < count; ++seen) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return text.substr(0, i);
}

}  // namespace

TextParameterError::TextParameterError(std::string parameter, std::string text,
                                       std::size_t column, std::string problem,
                                       std::string accepted, std::string hint)
    : ParameterError(parameter, text,
                     fmt::format("{}; {} at column {}", accepted, problem, column)),
      column_(column),
      problem_(std::move(problem)),
      message_(fmt::format("{}: \"{}\": {} at column {}{} (expected {})",
                           shown_text(parameter, 4 * kShownValueLimit), shown_text(text),
                           problem_, column, hint.empty() ? "" : "; " + hint, accepted)) {}

std::string TextParameterError::pointer() const {
  const std::string shown = shown_text(value(), kPointerTextLimit);
  const std::size_t indent =
      characters(shown_text(leading_characters(value(), column_ - 1), kPointerTextLimit));
  return fmt::format("  {}\n  {}^", shown, std::string(indent, ' '));
}

}  // namespace orrery

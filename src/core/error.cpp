// SPDX-License-Identifier: MIT
#include "orrery/core/error.hpp"

#include <fmt/format.h>

namespace orrery {

namespace {

// The length of the well-formed UTF-8 sequence of two or more bytes starting at s[i], or 0.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  std::size_t n = 0;
  unsigned min = 0;
  if (lead >= 0xC2 && lead <= 0xDF) n = 2, min = 0x80;
  else if (lead >= 0xE0 && lead <= 0xEF) n = 3, min = 0x800;
  else if (lead >= 0xF0 && lead <= 0xF4) n = 4, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  unsigned code = lead & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string shown_text(std::string_view text, std::size_t limit) {
  std::string out;
  std::size_t shown = 0, i = 0;
  for (; i < text.size() && shown < limit; ++shown) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7F) out += fmt::format("\\x{:02x}", c);
    else if (c < 0x80) out += static_cast<char>(c);
    else if (const std::size_t n = utf8_sequence(text, i)) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
    ++i;
  }
  if (i < text.size()) out += fmt::format("... ({} more bytes)", text.size() - i);
  return out;
}

ParameterError::ParameterError(std::string parameter, std::string value, std::string accepted)
    : InputError(fmt::format("{}: {} is not accepted (expected {})",
                             shown_text(parameter, 4 * kShownValueLimit),
                             value.empty() ? "an empty value" : shown_text(value), accepted)),
      parameter_(std::move(parameter)),
      value_(std::move(value)),
      accepted_(std::move(accepted)) {}

ParameterError ParameterError::renamed(std::string parameter) const {
  return ParameterError(std::move(parameter), value_, accepted_);
}

}  // namespace orrery

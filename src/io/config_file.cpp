// SPDX-License-Identifier: MIT
#include "orrery/io/config_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace {

std::string show(const toml::node& node) {
  std::ostringstream os;
  node.visit([&](const auto& n) { os << n; });
  return os.str();
}

bool append_numbers(const toml::node& node, std::vector<double>& out) {
  if (const auto* arr = node.as_array()) {
    for (const auto& el : *arr)
      if (!append_numbers(el, out)) return false;
    return true;
  }
  if (auto i = node.value_exact<std::int64_t>()) {
    out.push_back(static_cast<double>(*i));
    return true;
  }
  if (auto d = node.value_exact<double>()) {
    out.push_back(*d);
    return true;
  }
  return false;
}

// The node as the kind of value the parameter takes, or nullopt for a node of another type.
std::optional<ParamValue> to_value(const ParamSpec& spec, const toml::node& node) {
  switch (spec.kind) {
    case ParamKind::Integer:
      if (auto i = node.value_exact<std::int64_t>()) return ParamValue{*i};
      return std::nullopt;
    case ParamKind::Real:
      if (auto i = node.value_exact<std::int64_t>()) return ParamValue{static_cast<double>(*i)};
      if (auto d = node.value_exact<double>()) return ParamValue{*d};
      return std::nullopt;
    case ParamKind::Reals: {
      std::vector<double> xs;
      if (!node.is_array() || !append_numbers(node, xs)) return std::nullopt;
      return ParamValue{std::move(xs)};
    }
    case ParamKind::Choice:
    case ParamKind::Text:
      if (auto s = node.value_exact<std::string>()) return ParamValue{*s};
      return std::nullopt;
    case ParamKind::Flag:
      if (auto b = node.value_exact<bool>()) return ParamValue{*b};
      return std::nullopt;
  }
  return std::nullopt;
}

const char* toml_words(const ParamSpec& spec) {
  switch (spec.kind) {
    case ParamKind::Integer: return "an integer";
    case ParamKind::Real: return "a number";
    case ParamKind::Reals: return "an array of numbers";
    case ParamKind::Choice:
    case ParamKind::Text: return "a string";
    case ParamKind::Flag: return "true or false";
  }
  return "";
}

std::string toml_number(double x) {
  std::string text = fmt::format("{}", x);
  // TOML reads "40" as an integer: a real keeps a point.
  if (text.find_first_of(".eni") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::string format_config_line(const ParamSpec& spec, const ParamValue& value) {
  std::string text;
  if (const auto* i = std::get_if<std::int64_t>(&value)) text = fmt::format("{}", *i);
  if (const auto* x = std::get_if<double>(&value)) text = toml_number(*x);
  if (const auto* xs = std::get_if<std::vector<double>>(&value)) {
    std::vector<std::string> items;
    for (double x : *xs) items.push_back(toml_number(x));
    text = fmt::format("[{}]", fmt::join(items, ", "));
  }
  if (const auto* s = std::get_if<std::string>(&value)) {
    std::ostringstream os;
    os << toml::value<std::string>(*s);
    text = os.str();
  }
  if (const auto* b = std::get_if<bool>(&value)) text = *b ? "true" : "false";
  return fmt::format("{} = {}", spec.name, text);
}

std::vector<ConfigEntry> read_config_file(const std::filesystem::path& path,
                                          std::span<const ParamSpec* const> specs) {
  const std::string file = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw ParameterError("--config", file, "an existing, readable TOML file");
  // Read here to its end, not by the size the file reports: files of /proc report 0 and were
  // parsed as an empty config. By read(2), whose errno is the reason (a stream's failure
  // carries none, or throws from inside its buffer).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw InputError(fmt::format("--config: '{}' cannot be opened: {}", file,
                                 std::strerror(errno)));
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw InputError(fmt::format("--config: '{}' cannot be read: {}", file,
                                   std::strerror(error)));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    throw InputError(fmt::format("--config: '{}' is not a TOML file: it holds a NUL byte at byte "
                                 "{}",
                                 file, nul));
  toml::table table;
  try {
    table = toml::parse(text, file);
  } catch (const toml::parse_error& err) {
    throw InputError(fmt::format("--config: {}:{}:{}: not valid TOML: {}", file,
                                 err.source().begin.line, err.source().begin.column,
                                 err.description()));
  }
  std::vector<ConfigEntry> entries;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    const std::string where = fmt::format("{}:{} key '{}'", file, node.source().begin.line, name);
    const ParamSpec* spec = nullptr;
    for (const ParamSpec* s : specs)
      if (s->name == name) spec = s;
    if (!spec) {
      std::vector<std::string> known;
      for (const ParamSpec* s : specs) known.push_back(s->name);
      throw ParameterError(fmt::format("{}:{}", file, node.source().begin.line),
                           fmt::format("key '{}'", name),
                           fmt::format("one of the keys {}", fmt::join(known, ", ")));
    }
    auto value = to_value(*spec, node);
    if (!value) throw ParameterError(where, show(node), toml_words(*spec));
    entries.push_back({spec, std::move(*value), where});
  }
  // Two keys that set the same thing are refused as the command line refuses the two flags.
  for (const ConfigEntry& a : entries)
    for (const std::string& other : a.spec->excludes)
      for (const ConfigEntry& b : entries)
        if (b.spec->name == other)
          throw ParameterError(a.where, format_param_value(a.value, a.spec->separator),
                               fmt::format("no key '{}' beside it ({}): both set the same "
                                           "thing",
                                           other, b.where));
  return entries;
}

}  // namespace orrery

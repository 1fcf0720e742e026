// SPDX-License-Identifier: MIT
// A parameter table describes each parameter of a job once: its name (the command-line flag
// without dashes and the config-file key), help text, kind, and how to set and read it. The CLI,
// the TOML config reader, the HDF5 attribute writer and the help text are all driven by it, so
// a parameter cannot be added to one and forgotten in another.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/core/vec3.hpp"

namespace orrery {

enum class ParamKind { Integer, Real, Reals, Choice, Text, Flag };

using ParamValue = std::variant<std::int64_t, double, std::vector<double>, std::string, bool>;

// What a parameter is, independent of the struct it sets.
struct ParamSpec {
  std::string name;
  std::string help;
  ParamKind kind = ParamKind::Real;
  int count = 0;                     // Reals: the exact number of values
  char separator = ',';              // Reals: separator on the command line
  std::vector<std::string> choices;  // Choice: the accepted words
  std::string placeholder;           // Text: how --help shows the value ("" for PATH)
  std::vector<std::string> excludes; // parameters that may not be given with this one (both
                                     // set the same thing), on the command line or in a file
};

template <class Params>
struct ParamField : ParamSpec {
  ParamField(std::string name_, std::string help_, ParamKind kind_, int count_ = 0,
             char separator_ = ',')
      : ParamSpec{std::move(name_), std::move(help_), kind_, count_, separator_, {}, {}, {}} {}

  std::function<void(Params&, const ParamValue&)> set;  // validates; throws ParameterError
  std::function<ParamValue(const Params&)> get;          // empty for aliases of other fields
};

// Parses a command-line word according to the parameter's kind; throws ParameterError naming
// what the kind accepts.
ParamValue parse_param_text(const ParamSpec& spec, std::string_view text);

// What a kind accepts, in words ("an integer", "3 numbers separated by ','").
std::string describe_kind(const ParamSpec& spec);
std::string format_param_value(const ParamValue& value, char separator = ',');

// ---- Rules used by setters -------------------------------------------------------------------

std::int64_t require_integer(std::string_view name, const ParamValue& v, std::int64_t min,
                             std::int64_t max);
enum class RealRule { Finite, Positive, NonNegative };
double require_real(std::string_view name, const ParamValue& v, RealRule rule);
std::vector<double> require_reals(std::string_view name, const ParamValue& v, std::size_t count,
                                  RealRule rule);
// An interval [a, b) with finite a < b, given as two numbers.
std::array<double, 2> require_interval(std::string_view name, const ParamValue& v);
const std::string& require_choice(std::string_view name, const ParamValue& v,
                                  std::span<const std::string> choices);

// ---- Field builders --------------------------------------------------------------------------

template <class P, class M>
ParamField<P> integer_field(std::string name, std::string help, M P::*member, std::int64_t min,
                            std::int64_t max) {
  ParamField<P> f{name, std::move(help), ParamKind::Integer};
  f.set = [name, member, min, max](P& p, const ParamValue& v) {
    p.*member = static_cast<M>(require_integer(name, v, min, max));
  };
  f.get = [member](const P& p) { return ParamValue{static_cast<std::int64_t>(p.*member)}; };
  return f;
}

template <class P>
ParamField<P> real_field(std::string name, std::string help, double P::*member, RealRule rule) {
  ParamField<P> f{name, std::move(help), ParamKind::Real};
  f.set = [name, member, rule](P& p, const ParamValue& v) {
    p.*member = require_real(name, v, rule);
  };
  f.get = [member](const P& p) { return ParamValue{p.*member}; };
  return f;
}

template <class P, std::size_t N>
ParamField<P> reals_field(std::string name, std::string help, std::array<double, N> P::*member,
                          RealRule rule) {
  ParamField<P> f{name, std::move(help), ParamKind::Reals, static_cast<int>(N)};
  f.set = [name, member, rule](P& p, const ParamValue& v) {
    auto xs = require_reals(name, v, N, rule);
    for (std::size_t i = 0; i < N; ++i) (p.*member)[i] = xs[i];
  };
  f.get = [member](const P& p) {
    return ParamValue{std::vector<double>((p.*member).begin(), (p.*member).end())};
  };
  return f;
}

template <class P>
ParamField<P> vec3_field(std::string name, std::string help, Vec3d P::*member, RealRule rule) {
  ParamField<P> f{name, std::move(help), ParamKind::Reals, 3};
  f.set = [name, member, rule](P& p, const ParamValue& v) {
    auto xs = require_reals(name, v, 3, rule);
    p.*member = {xs[0], xs[1], xs[2]};
  };
  f.get = [member](const P& p) {
    const Vec3d& a = p.*member;
    return ParamValue{std::vector<double>{a.x, a.y, a.z}};
  };
  return f;
}

template <class P>
ParamField<P> interval_field(std::string name, std::string help,
                             std::array<double, 2> P::*member) {
  ParamField<P> f{name, std::move(help), ParamKind::Reals, 2, ':'};
  f.set = [name, member](P& p, const ParamValue& v) { p.*member = require_interval(name, v); };
  f.get = [member](const P& p) {
    return ParamValue{std::vector<double>{(p.*member)[0], (p.*member)[1]}};
  };
  return f;
}

// A field whose values are the words of an enumeration; `words[i]` names enumerator i.
template <class P, class E>
ParamField<P> choice_field(std::string name, std::string help, E P::*member,
                           std::vector<std::string> words) {
  ParamField<P> f{name, std::move(help), ParamKind::Choice};
  f.choices = words;
  f.set = [name, member, words](P& p, const ParamValue& v) {
    const std::string& w = require_choice(name, v, words);
    for (std::size_t i = 0; i < words.size(); ++i)
      if (words[i] == w) p.*member = static_cast<E>(i);
  };
  f.get = [member, words](const P& p) {
    return ParamValue{words.at(static_cast<std::size_t>(p.*member))};
  };
  return f;
}

// A field whose values are words naming enumerators, given as (word, enumerator) pairs: a job
// that accepts only some enumerators of a shared enumeration lists just those, and the refusal
// of any other word names what this job accepts.
template <class P, class E>
ParamField<P> enum_field(std::string name, std::string help, E P::*member,
                         std::vector<std::pair<std::string, E>> words) {
  ParamField<P> f{name, std::move(help), ParamKind::Choice};
  for (const auto& w : words) f.choices.push_back(w.first);
  f.set = [name, member, words, choices = f.choices](P& p, const ParamValue& v) {
    const std::string& w = require_choice(name, v, choices);
    for (const auto& [word, value] : words)
      if (word == w) p.*member = value;
  };
  f.get = [name, member, words](const P& p) {
    for (const auto& [word, value] : words)
      if (value == p.*member) return ParamValue{word};
    throw ParameterError(name, "a value outside the accepted words", "one of the listed words");
  };
  return f;
}

template <class P>
ParamField<P> text_field(std::string name, std::string help, std::string P::*member) {
  ParamField<P> f{name, std::move(help), ParamKind::Text};
  f.set = [member](P& p, const ParamValue& v) { p.*member = std::get<std::string>(v); };
  f.get = [member](const P& p) { return ParamValue{p.*member}; };
  return f;
}

// A path to write: text that may not be empty, for an empty name names no file (a job given
// "" would compute and write nothing, or write where the user did not say).
template <class P>
ParamField<P> path_field(std::string name, std::string help, std::string P::*member) {
  ParamField<P> f = text_field(name, std::move(help), member);
  f.set = [name, member](P& p, const ParamValue& v) {
    const std::string& text = std::get<std::string>(v);
    if (text.empty()) throw ParameterError(name, text, "a path (an empty name names no file)");
    p.*member = text;
  };
  return f;
}

template <class P>
ParamField<P> flag_field(std::string name, std::string help, bool P::*member) {
  ParamField<P> f{name, std::move(help), ParamKind::Flag};
  f.set = [member](P& p, const ParamValue& v) { p.*member = std::get<bool>(v); };
  f.get = [member](const P& p) { return ParamValue{p.*member}; };
  return f;
}

// The fields of an inner parameter struct, seen as fields of an outer one.
template <class Outer, class Inner>
std::vector<ParamField<Outer>> project_fields(const std::vector<ParamField<Inner>>& inner,
                                              Inner Outer::*member) {
  std::vector<ParamField<Outer>> out;
  for (const auto& f : inner) {
    ParamField<Outer> g{f.name, f.help, f.kind, f.count, f.separator};
    g.choices = f.choices;
    g.placeholder = f.placeholder;
    g.excludes = f.excludes;
    g.set = [set = f.set, member](Outer& o, const ParamValue& v) { set(o.*member, v); };
    if (f.get) g.get = [get = f.get, member](const Outer& o) { return get(o.*member); };
    out.push_back(std::move(g));
  }
  return out;
}

template <class P>
const ParamField<P>* find_field(const std::vector<ParamField<P>>& fields, std::string_view name) {
  for (const auto& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace orrery

// SPDX-License-Identifier: MIT
// What the files of the Python module share: the parts it binds, arrays handed to numpy without
// a copy, and keyword arguments read through a job's parameter table (core/parameter.hpp), so a
// keyword takes what the CLI's flag takes and is refused with the flag's message.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "orrery/core/parameter.hpp"

namespace orrery::python {

namespace py = pybind11;

void bind_map(py::module_& m);
void bind_ensemble(py::module_& m);
void bind_chaos(py::module_& m);
void bind_simulation(py::module_& m);
void bind_files(py::module_& m);

// The values of `v` as a numpy array of `shape` that owns them: the vector moves into a capsule,
// which becomes the array's base, so no element is copied.
template <class T, class Allocator>
py::array_t<T> owned_array(std::vector<T, Allocator>&& v, std::vector<py::ssize_t> shape) {
  using Vector = std::vector<T, Allocator>;
  auto* owner = new Vector(std::move(v));
  py::capsule base(owner, [](void* p) { delete static_cast<Vector*>(p); });
  return py::array_t<T>(std::move(shape), owner->data(), base);
}

// N×3 rows (x_i, y_i, z_i) of three coordinate arrays.
std::vector<double> rows_of_columns(const std::vector<double>& x, const std::vector<double>& y,
                                    const std::vector<double>& z);

// A parameter's name as a keyword: "x-range" -> "x_range".
std::string keyword_of(const std::string& name);

// A Python value as the parameter `spec` takes it; TypeError naming the keyword for a value of
// the wrong kind.
ParamValue param_value_of(const ParamSpec& spec, py::handle value);

// A parameter value as Python writes it: 1000, 0.001, (-20, 20), 'euler', True.
std::string python_literal(const ParamValue& value);

// "name = default: help" for each field, one a line, for a docstring.
template <class Job>
std::string describe_fields(const std::vector<ParamField<Job>>& fields, const Job& defaults,
                            const std::vector<std::string>& keywords) {
  std::string text;
  for (const auto& f : fields) {
    const std::string k = keyword_of(f.name);
    if (std::find(keywords.begin(), keywords.end(), k) == keywords.end()) continue;
    text += "    " + k;
    if (f.get) text += " = " + python_literal(f.get(defaults));
    text += ": " + f.help + "\n";
  }
  return text;
}

// Sets field `keyword` of `job` from `value` by the field's own rule; ParameterError (a
// ValueError in Python) names the keyword.
template <class Job>
void set_field(Job& job, const std::vector<ParamField<Job>>& fields, const std::string& keyword,
               py::handle value) {
  for (const auto& f : fields) {
    if (keyword_of(f.name) != keyword) continue;
    try {
      f.set(job, param_value_of(f, value));
    } catch (const ParameterError& e) {
      throw e.renamed(keyword);
    }
    return;
  }
  throw py::type_error("unexpected keyword argument '" + keyword + "'");
}

// Refuses two keywords that set the same thing (resolution and width, ...), as the CLI refuses
// the two flags.
template <class Job>
void check_exclusive(const std::vector<ParamField<Job>>& fields, const py::dict& given) {
  for (const auto& f : fields)
    for (const auto& other : f.excludes)
      if (given.contains(keyword_of(f.name)) && given.contains(keyword_of(other)))
        throw ParameterError(keyword_of(f.name), py::str(given[keyword_of(f.name).c_str()]),
                             "no " + keyword_of(other) + " with it (both set the same thing)");
}

}  // namespace orrery::python

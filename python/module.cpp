// SPDX-License-Identifier: MIT
// The module orrery._orrery (imported as orrery): its parts, the keyword reading they share, and
// the library's errors as Python's: refused input (ParameterError, InputError) is a ValueError
// with the message the CLI prints (a parameter named as its keyword: "x_range", not
// "--x-range"), a failed run (RunError) a RuntimeError.
#include <algorithm>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/text_error.hpp"
#include "orrery/core/version.hpp"
#include "orrery/nbody/step_events.hpp"

namespace orrery::python {

std::string keyword_of(const std::string& name) {
  std::string k = name;
  std::replace(k.begin(), k.end(), '-', '_');
  return k;
}

std::vector<double> rows_of_columns(const std::vector<double>& x, const std::vector<double>& y,
                                    const std::vector<double>& z) {
  std::vector<double> out(3 * x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    out[3 * i] = x[i];
    out[3 * i + 1] = y[i];
    out[3 * i + 2] = z[i];
  }
  return out;
}

std::string python_literal(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "True" : "False";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return py::repr(py::str(v));
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          return py::repr(py::tuple(py::cast(v)));
        } else {
          return py::repr(py::cast(v));
        }
      },
      value);
}

namespace {

std::string type_name(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

[[noreturn]] void wrong_type(const ParamSpec& spec, py::handle value) {
  throw py::type_error(keyword_of(spec.name) + ": expected " + describe_kind(spec) + ", got " +
                       type_name(value));
}

}  // namespace

ParamValue param_value_of(const ParamSpec& spec, py::handle value) {
  const bool is_bool = py::isinstance<py::bool_>(value);
  switch (spec.kind) {
    case ParamKind::Integer:  // int, numpy's integers: whatever has __index__
      if (is_bool || !PyIndex_Check(value.ptr())) wrong_type(spec, value);
      return ParamValue{py::int_(py::reinterpret_borrow<py::object>(value)).cast<std::int64_t>()};
    case ParamKind::Real:
      if (is_bool) wrong_type(spec, value);
      try {
        return ParamValue{value.cast<double>()};
      } catch (const py::cast_error&) {
        wrong_type(spec, value);
      }
    case ParamKind::Reals:
      if (py::isinstance<py::str>(value)) return parse_param_text(spec, value.cast<std::string>());
      try {
        return ParamValue{value.cast<std::vector<double>>()};
      } catch (const py::cast_error&) {
        wrong_type(spec, value);
      }
    case ParamKind::Choice:
    case ParamKind::Text:
      if (py::isinstance<py::str>(value)) return ParamValue{value.cast<std::string>()};
      if (py::isinstance<py::sequence>(value)) {  // devices=[0, 2]: the list the flag takes
        std::string joined;
        for (py::handle item : value) {
          if (!py::isinstance<py::int_>(item)) wrong_type(spec, value);
          joined += (joined.empty() ? "" : ",") + std::to_string(item.cast<std::int64_t>());
        }
        return ParamValue{joined};
      }
      wrong_type(spec, value);
    case ParamKind::Flag:
      if (!is_bool) wrong_type(spec, value);
      return ParamValue{value.cast<bool>()};
  }
  wrong_type(spec, value);
}

}  // namespace orrery::python

PYBIND11_MODULE(_orrery, m) {
  namespace py = pybind11;
  m.doc() =
      "orrery: gravitational and Hamiltonian dynamics. Divergence maps of the three-body problem "
      "(divergence_map, zoom), ensembles of small systems and their indicators of chaos (ensemble, chaos, section) and N-body simulation (Simulation, forces, load), computed by the "
      "same jobs as the orrery command line, on the CPU or CUDA GPUs.";
  m.attr("__version__") = orrery::version();
  // A run stopped by a collision (collisions="stop"), a close encounter or an escape: REBOUND's
  // exception names, RuntimeErrors as every failed run.
  static PyObject* const stops[3] = {
      PyErr_NewException("orrery.Collision", PyExc_RuntimeError, nullptr),
      PyErr_NewException("orrery.Encounter", PyExc_RuntimeError, nullptr),
      PyErr_NewException("orrery.Escape", PyExc_RuntimeError, nullptr)};
  m.attr("Collision") = py::handle(stops[0]);
  m.attr("Encounter") = py::handle(stops[1]);
  m.attr("Escape") = py::handle(stops[2]);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const orrery::StepEventStop& e) {
      PyErr_SetString(stops[static_cast<int>(e.stop().reason)], e.what());
    } catch (const orrery::TextParameterError& e) {  // with a caret under the character
      std::string name = e.parameter();
      name.erase(0, name.find_first_not_of('-'));
      const std::string message = e.what();
      const std::string keyword = orrery::python::keyword_of(name);
      PyErr_SetString(PyExc_ValueError,
                      (keyword + message.substr(std::min(message.size(), e.parameter().size())) +
                       "\n" + e.pointer())
                          .c_str());
    } catch (const orrery::ParameterError& e) {  // named as the keyword, not the flag
      std::string name = e.parameter();
      name.erase(0, name.find_first_not_of('-'));
      PyErr_SetString(PyExc_ValueError, e.renamed(orrery::python::keyword_of(name)).what());
    } catch (const orrery::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const orrery::RunError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
  orrery::python::bind_map(m);
  orrery::python::bind_ensemble(m);
  orrery::python::bind_chaos(m);
  orrery::python::bind_simulation(m);
  orrery::python::bind_files(m);
}

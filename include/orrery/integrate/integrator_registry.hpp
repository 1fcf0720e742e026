// SPDX-License-Identifier: MIT
// The integrators by name, with their order and a one-line description, generated from the
// coefficient tables (integrate/integrator_tables.hpp); the user guide's table
// (docs/integrators.md) is generated from here too.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

// "explicit Runge–Kutta", "symplectic splitting".
std::string_view family_name(IntegratorFamily family);

struct IntegratorInfo {
  std::string_view name;         // "leapfrog"
  int order;                     // nominal order of the global error
  std::string_view description;  // one line
  IntegratorFamily family;
  int force_evaluations;  // per step, once steps follow each other (first same as last counted once)
  bool symplectic;        // a symplectic map (the splitting methods, Gauss–Legendre, Lobatto IIIA–IIIB)
  bool adaptive;          // takes --tolerance: an embedded pair for step-size control
  bool implicit;          // stage equations solved by iteration; force_evaluations is per sweep
  int stages;             // force evaluations of one pass through the stages
  bool register_stepper;  // also has a register stepper (has_register_stepper<Table>)
};

// Every integrator, in the order of integrate/integrator_tables.hpp.
const std::vector<IntegratorInfo>& integrators();
std::vector<std::string> integrator_names();

// Throws ParameterError("integrator", name, "one of: euler, ...") for an unknown name.
const IntegratorInfo& find_integrator(std::string_view name);

// The integrators as a Markdown table (the one in docs/integrators.md).
std::string integrators_markdown_table();

// The array stepper of the named integrator; throws as find_integrator. A tolerance > 0 turns on
// step-size control (runge_kutta/adaptive_array_stepper.hpp), which only the embedded pairs have
// (adaptive_integrator_names(); ParameterError("tolerance", ...) for any other). Instantiated for
// float, double and float128.
template <class Real>
std::unique_ptr<ArrayStepper<Real>> make_array_stepper(std::string_view name,
                                                       double tolerance = 0.0);
std::vector<std::string> adaptive_integrator_names();

}  // namespace orrery

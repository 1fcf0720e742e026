// SPDX-License-Identifier: MIT
// The integrators by name, with their order and a one-line description, generated from the
// coefficient tables (integrate/integrator_tables.hpp); the user guide's table
// (docs/guide/integrators.md) is generated from here too.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/block_steps/block_levels.hpp"
#include "orrery/integrate/ias15/ias15_criterion.hpp"
#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

// "explicit Runge–Kutta", "symplectic splitting".
std::string_view family_name(IntegratorFamily family);

struct IntegratorInfo {
  std::string_view name;         // "leapfrog"
  int order = 0;                 // nominal order of the global error
  std::string_view description;  // one line
  IntegratorFamily family = IntegratorFamily::explicit_runge_kutta;
  int force_evaluations = 0;  // per step, once steps follow each other (first same as last once)
  bool symplectic = false;    // a symplectic map (splitting, Gauss–Legendre, Lobatto IIIA–IIIB)
  bool adaptive = false;      // takes --tolerance: step-size control
  // Stage equations solved by iteration (force_evaluations is then per sweep).
  bool implicit = false;
  // Force evaluations of one pass through the stages (a step's for the explicit methods).
  int stages = 0;
  // Whether the table also has a register stepper (has_register_stepper,
  // integrate/register_integrator.hpp); false: an array stepper only.
  bool register_stepper = true;
  // A multistep method's one-step starter (its name) and the steps it takes after a start, a
  // clear() or a change of step size; "" and 0 for a one-step method.
  std::string_view starter = {};
  int starter_steps = 0;
  // Runs in single precision (make_array_stepper<float>).
  bool fp32 = true;
};

// Every integrator, in the order of integrate/integrator_tables.hpp.
const std::vector<IntegratorInfo>& integrators();
std::vector<std::string> integrator_names();

// Throws ParameterError("integrator", name, "one of: euler, ...") for an unknown name.
const IntegratorInfo& find_integrator(std::string_view name);

// The integrators as a Markdown table (the one in docs/guide/integrators.md).
std::string integrators_markdown_table();

// The array stepper of the named integrator; throws as find_integrator. A tolerance > 0 turns on
// step-size control (runge_kutta/adaptive_array_stepper.hpp), which only the embedded pairs have
// (adaptive_integrator_names(); ParameterError("tolerance", ...) for any other). ias15 always
// controls its step: the tolerance is its ε_b, and 0 takes Ias15::default_tolerance.
// `block` sets the levels of the block-step methods (ParameterError naming the option when out
// of range) and is ignored by the others. Instantiated for float, double and float128;
// ParameterError("precision", "fp32", ...) for a method that does not run in fp32
// (IntegratorInfo::fp32). `corrector`: whfast's symplectic corrector, 0 (none) or an order of
// Whfast::corrector_orders; ParameterError("corrector", ...) for another order, or for a
// corrector with any other method. `ias15_criterion`: how ias15 chooses its step, one of
// kIas15CriterionNames (ParameterError("ias15-criterion", ...) for another name, or for a
// criterion other than the default with any other method). `whfast_safe_mode`: whfast converts
// to and from its Jacobi coordinates at every step (true), or keeps them between steps and is
// behind() after each (integrate/wisdom_holman/array_stepper.hpp); ignored by the others.
template <class Real>
std::unique_ptr<ArrayStepper<Real>> make_array_stepper(std::string_view name,
                                                       double tolerance = 0.0,
                                                       const BlockStepOptions& block = {},
                                                       int corrector = 0,
                                                       std::string_view ias15_criterion =
                                                           kIas15CriterionNames[0],
                                                       bool whfast_safe_mode = true);
std::vector<std::string> adaptive_integrator_names();

}  // namespace orrery

// SPDX-License-Identifier: MIT
// A stepper's own state beyond x and v (kept accelerations, multistep history, an IAS15
// predictor), as named arrays and scalars in the run's precision, on the host. A checkpoint
// stores it value for value (fp128 included), so a resumed run continues bit for bit without
// relying on a recomputation giving the same bits.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "orrery/core/error.hpp"

namespace orrery {

template <class Real>
class StepperState {
 public:
  struct Array {
    std::string name;
    std::vector<Real> values;
  };
  struct Scalar {
    std::string name;
    Real value;
  };

  // Adds or replaces.
  void set_array(std::string_view name, std::vector<Real> values) {
    for (Array& a : arrays_)
      if (a.name == name) {
        a.values = std::move(values);
        return;
      }
    arrays_.push_back({std::string(name), std::move(values)});
  }
  void set_scalar(std::string_view name, Real value) {
    for (Scalar& s : scalars_)
      if (s.name == name) {
        s.value = value;
        return;
      }
    scalars_.push_back({std::string(name), value});
  }

  // nullptr when absent.
  const std::vector<Real>* find_array(std::string_view name) const {
    for (const Array& a : arrays_)
      if (a.name == name) return &a.values;
    return nullptr;
  }
  // Throws InputError when absent: a state from another stepper (or a damaged checkpoint).
  Real scalar(std::string_view name) const {
    for (const Scalar& s : scalars_)
      if (s.name == name) return s.value;
    throw InputError("stepper state: no scalar '" + std::string(name) + "'");
  }

  const std::vector<Array>& arrays() const { return arrays_; }
  const std::vector<Scalar>& scalars() const { return scalars_; }
  bool empty() const { return arrays_.empty() && scalars_.empty(); }

 private:
  std::vector<Array> arrays_;
  std::vector<Scalar> scalars_;
};

}  // namespace orrery

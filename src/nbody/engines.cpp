// SPDX-License-Identifier: MIT
#include "orrery/nbody/engines.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "nbody/direct/cpu/direct_engine.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"

namespace orrery {

std::vector<std::string> force_engine_names() { return {"direct"}; }

template <class Real>
std::unique_ptr<ForceEngine<Real>> make_force_engine(std::string_view name,
                                                     const EngineOptions& options) {
  if (name == "direct") return std::make_unique<cpu::DirectEngine<Real>>(options);
  throw ParameterError("engine", std::string(name),
                       fmt::format("one of: {}", fmt::join(force_engine_names(), ", ")));
}

template std::unique_ptr<ForceEngine<float>> make_force_engine<float>(std::string_view,
                                                                      const EngineOptions&);
template std::unique_ptr<ForceEngine<double>> make_force_engine<double>(std::string_view,
                                                                        const EngineOptions&);
template std::unique_ptr<ForceEngine<float128>> make_force_engine<float128>(std::string_view,
                                                                            const EngineOptions&);

}  // namespace orrery

// SPDX-License-Identifier: MIT
// TEMPORARY (issue 13 in progress): engines not written yet. Each engine's branch deletes its
// factory from here when it adds the real one; the file goes when all have.
#include "nbody/engine_factories.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"

namespace orrery {
#if ORRERY_WITH_CUDA
namespace cuda {
template <class Real>
std::unique_ptr<ForceEngine<Real>> make_direct_engine(const EngineOptions&) {
  throw RunError("the CUDA direct engine is not built yet");
}
template std::unique_ptr<ForceEngine<float>> make_direct_engine<float>(const EngineOptions&);
template std::unique_ptr<ForceEngine<double>> make_direct_engine<double>(const EngineOptions&);
template <class Real>
std::unique_ptr<ForceEngine<Real>> make_tree_engine(const EngineOptions&) {
  throw RunError("the CUDA tree engine is not built yet");
}
template std::unique_ptr<ForceEngine<float>> make_tree_engine<float>(const EngineOptions&);
template std::unique_ptr<ForceEngine<double>> make_tree_engine<double>(const EngineOptions&);
}  // namespace cuda
#endif
}  // namespace orrery

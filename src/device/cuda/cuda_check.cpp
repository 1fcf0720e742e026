// SPDX-License-Identifier: MIT
#include "device/cuda/cuda_check.hpp"

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery::cuda {

void fail(cudaError_t err, const char* call, const std::string& context) {
  cudaGetLastError();  // a launch error is sticky per thread until read
  throw RunError(fmt::format("{}{}{} failed: {} ({})", context, context.empty() ? "" : ": ", call,
                             cudaGetErrorString(err), cudaGetErrorName(err)));
}

}  // namespace orrery::cuda

// SPDX-License-Identifier: MIT
// Every CUDA runtime call and kernel launch is checked; a failure becomes a RunError naming the
// call, the CUDA error and what the caller was doing. (No fmt here: nvcc cannot compile its
// compile-time format checks, and this header is included by .cu files.)
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace orrery::cuda {

[[noreturn]] void fail(cudaError_t err, const char* call, const std::string& context);

}  // namespace orrery::cuda

// ORRERY_CUDA_CHECK(call, context-string)
#define ORRERY_CUDA_CHECK(call, context)                        \
  do {                                                          \
    const cudaError_t orrery_cuda_err_ = (call);                \
    if (orrery_cuda_err_ != cudaSuccess)                        \
      ::orrery::cuda::fail(orrery_cuda_err_, #call, (context)); \
  } while (0)

// SPDX-License-Identifier: MIT
// The bodies as each device of a CUDA force engine holds them: their masses and, when particles
// carry their own softening, ε_i²/2 (a global ε is a kernel argument). Written once for the
// direct and the tree engines (direct/cuda/, tree/cuda/), which keep one share of their work per
// device (device/cuda/device_team.hpp), each with arrays `mass` and `half_eps2`.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/memory.hpp"

namespace orrery::cuda {

// Copies `mass` and, unless it is empty, `half_eps2` to every share's device, then calls
// `also(share)` with that device current, for what else the engine keeps there, and leaves the
// first share's device current. `engine` names the engine in errors ("direct").
template <class Real, class Share, class Also>
void upload_bodies(std::vector<std::unique_ptr<Share>>& shares, std::span<const Real> mass,
                   std::span<const Real> half_eps2, const char* engine, Also&& also) {
  const auto copy = [](DeviceArray<Real>& to, std::span<const Real> from) {
    ORRERY_CUDA_CHECK(cudaMemcpy(to.reserve(from.size()), from.data(), from.size() * sizeof(Real),
                                 cudaMemcpyHostToDevice),
                      "copying the bodies to a device");
  };
  for (auto& s : shares) {
    ORRERY_CUDA_CHECK(cudaSetDevice(s->device),
                      std::string("selecting a device for the ") + engine + " engine");
    copy(s->mass, mass);
    if (!half_eps2.empty()) copy(s->half_eps2, half_eps2);
    also(*s);
  }
  ORRERY_CUDA_CHECK(cudaSetDevice(shares.front()->device), "selecting the engine's first device");
}

}  // namespace orrery::cuda

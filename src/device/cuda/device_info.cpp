// SPDX-License-Identifier: MIT
#include "device/cuda/device_info.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>

namespace orrery::cuda {

int device_count(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why)
      *why =
          err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice
              ? fmt::format("no CUDA driver or device on this machine ({})", cudaGetErrorName(err))
              : fmt::format("{} ({})", cudaGetErrorString(err), cudaGetErrorName(err));
    cudaGetLastError();
    return 0;
  }
  if (n == 0 && why) *why = "no CUDA device is visible";
  return n;
}

std::string device_name(int device) {
  // Asked at every run of a map; cudaGetDeviceProperties is slow.
  static std::mutex mutex;
  static std::map<int, std::string> names;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = names.find(device); it != names.end()) return it->second;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "unknown";
  return names[device] = prop.name;
}

std::string describe_device(int device) {
  return fmt::format("device {} ({})", device, device_name(device));
}

void release_devices(const std::vector<int>& devices) {
  const int present = device_count();
  for (int d = 0; d < present; ++d) {
    if (!devices.empty() && std::find(devices.begin(), devices.end(), d) == devices.end())
      continue;
    if (cudaSetDevice(d) == cudaSuccess) cudaDeviceReset();
  }
  cudaGetLastError();
}

}  // namespace orrery::cuda

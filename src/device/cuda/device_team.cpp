// SPDX-License-Identifier: MIT
#include "device/cuda/device_team.hpp"

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "orrery/core/error.hpp"

namespace orrery::cuda {

std::vector<int> devices_or_all(const std::vector<int>& named, const std::string& engine) {
  std::vector<int> devices = named;
  if (devices.empty())
    for (int d = 0; d < device_count(); ++d) devices.push_back(d);
  if (devices.empty()) throw RunError(engine + " found no CUDA device");
  return devices;
}

DeviceTeam::DeviceTeam(const std::vector<int>& devices, cudaStream_t first_stream) {
  for (std::size_t k = 0; k < devices.size(); ++k) {
    TeamMember m;
    m.device = devices[k];
    ORRERY_CUDA_CHECK(cudaSetDevice(m.device), "selecting a device of the engine");
    ORRERY_CUDA_CHECK(cudaDeviceGetAttribute(&m.sms, cudaDevAttrMultiProcessorCount, m.device),
                      "asking a device's multiprocessor count");
    if (k == 0) {
      m.stream = first_stream;
    } else {
      ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking),
                        "creating a stream for a device of the engine");
      int can = 0;
      cudaDeviceCanAccessPeer(&can, m.device, devices.front());
      if (can) cudaDeviceEnablePeerAccess(devices.front(), 0), cudaGetLastError();
    }
    members_.push_back(m);
  }
  ORRERY_CUDA_CHECK(cudaSetDevice(devices.front()), "selecting the engine's first device");
}

DeviceTeam::~DeviceTeam() {
  for (std::size_t k = 1; k < members_.size(); ++k)
    if (members_[k].stream) cudaStreamDestroy(members_[k].stream);
}

}  // namespace orrery::cuda

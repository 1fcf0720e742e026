// SPDX-License-Identifier: MIT
#include "orrery/device/cuda_presence.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#if ORRERY_WITH_CUDA
#include "device/cuda/device_info.hpp"
#endif

namespace orrery {

bool cuda_built() { return ORRERY_WITH_CUDA; }

int cuda_device_count(std::string* why) {
#if ORRERY_WITH_CUDA
  return cuda::device_count(why);
#else
  if (why) *why = "this build has no CUDA backend";
  return 0;
#endif
}

void release_cuda_devices([[maybe_unused]] const std::vector<int>& devices) {
#if ORRERY_WITH_CUDA
  cuda::release_devices(devices);
#endif
}

void check_device_list(const std::vector<int>& devices, int present) {
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (std::count(devices.begin(), devices.begin() + static_cast<std::ptrdiff_t>(i),
                   devices[i])) {
      std::string list;
      for (int d : devices) list += (list.empty() ? "" : ",") + std::to_string(d);
      throw ParameterError("devices", list, "each device number at most once");
    }
  if (present == 0 && !devices.empty())
    throw ParameterError("devices", fmt::format("{}", fmt::join(devices, ",")),
                         "all (the default): there is no CUDA device here");
  for (int d : devices)
    if (d < 0 || d >= present)
      throw ParameterError("devices", fmt::format("{}", d),
                           present > 0 ? fmt::format("device numbers from 0 to {}, or all",
                                                     present - 1)
                                       : std::string("no device number: there is no CUDA device"));
}

}  // namespace orrery

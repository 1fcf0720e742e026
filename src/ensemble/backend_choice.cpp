// SPDX-License-Identifier: MIT
#include "ensemble/backend_choice.hpp"

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/device/cuda_presence.hpp"

namespace orrery {

BackendChoice choose_backend(Backend asked, const std::vector<int>& devices) {
  BackendChoice choice;
  const int present = cuda_device_count(&choice.why);
  if (asked == Backend::cuda) {
    if (!cuda_built())
      throw InputError(
          "--backend cuda: this build of orrery has no CUDA backend (reconfigure with "
          "-DORRERY_CUDA=ON on a machine with nvcc)");
    if (present == 0) throw InputError(fmt::format("--backend cuda: {}", choice.why));
  }
  check_device_list(devices, present);
  choice.on_gpu = asked != Backend::cpu && present > 0;
  return choice;
}

std::string cpu_run_note(const BackendChoice& choice, Backend asked,
                         const std::string& threads_note) {
  if (asked != Backend::automatic) return threads_note;
  std::string note = cuda_built() ? fmt::format("{}; computed on the CPU", choice.why)
                                  : "this build has no CUDA backend; computed on the CPU";
  if (!threads_note.empty()) note += "; " + threads_note;
  return note;
}

}  // namespace orrery

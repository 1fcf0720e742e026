// SPDX-License-Identifier: MIT
// Whether this build has the CUDA backends, and how many devices this process sees now: what
// every `auto` backend decides on. Callable from builds without CUDA.
#pragma once

#include <string>
#include <vector>

namespace orrery {

bool cuda_built();
// The devices present (0, with the reason in `why`, when none).
int cuda_device_count(std::string* why = nullptr);
// Refuses a device list that names a device twice or one that is not there (ParameterError
// "devices", naming the value and the accepted numbers).
void check_device_list(const std::vector<int>& devices, int present);
// Ends this process's CUDA contexts on `devices` (all when empty), for a process about to exit
// whose work on them is done and written: the teardown its exit would do, where it can be timed
// (`orrery map --timings`). Nothing without CUDA.
void release_cuda_devices(const std::vector<int>& devices);

}  // namespace orrery

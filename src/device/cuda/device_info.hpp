// SPDX-License-Identifier: MIT
// What the CUDA runtime says about the host's devices: how many there are (or why there are
// none) and their names, cached because a properties query takes about a millisecond.
#pragma once

#include <string>
#include <vector>

namespace orrery::cuda {

// The number of CUDA devices, or 0 with the reason in `why` (no driver, no device, ...).
int device_count(std::string* why = nullptr);
// The device's name ("NVIDIA H200"), or "unknown"; asked once per device and process.
std::string device_name(int device);
// "device 2 (NVIDIA H200)": how messages name a device.
std::string describe_device(int device);
// Ends this process's context on each of `devices` (all when empty), freeing what it holds: the
// teardown a process's exit does, done where it can be timed. Nothing may use those devices
// after it.
void release_devices(const std::vector<int>& devices);

}  // namespace orrery::cuda
